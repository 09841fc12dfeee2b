//! verify-write: reads every write back from the disk, proves it landed, and records it.
//!
//! PostToolUse: each write target gets an [`Expectation`] (the exact bytes when they can be
//! computed, else the text the edit put in and took out) and is checked against the disk.
//! A write that did not land blocks with a reason the agent can act on; a write that
//! landed and was then changed by something else (a formatter) is reported as context.
//! PostToolBatch: every write of the batch is checked again against the final state, so a
//! write that a sibling call undid is reported (as context: a block there ends the loop).
//! PostToolUseFailure: the failed attempt is recorded, so the audit knows it never happened.

use super::{Context, HookOutcome};
use crate::fsutil::{self, FileDigest, Probe};
use crate::protocol::{
    BatchCall, CallResult, Common, Event, HookInput, Payload, Response, ToolCall, Verdict,
};
use crate::state::Change;
use crate::store::{Operation, Outcome, Record, WriteRecord, RECORD_VERSION};
use crate::tools::{self, Role, Target, WriteKind};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod batch;
mod check;
mod notebook;
mod plan;
mod runs;

use batch::batch;
use check::check;
use notebook::check_cell;
use plan::plan;

/// Files up to this size are loaded to explain a mismatch; larger ones get sizes and
/// hashes only.
const DIAGNOSE_LIMIT: u64 = 64 * 1024 * 1024;
/// How much of a line or a text an explanation quotes.
const QUOTE_CHARS: usize = 80;

const HOOK: &str = "verify-write";

pub fn run(input: &HookInput, ctx: &Context) -> HookOutcome {
    match &input.payload {
        // A shell call is recorded in the run log: the turn's evidence on every host.
        Payload::PostToolUse { call, response } if tools::is_shell(&call.name) => {
            HookOutcome::with_changes(
                Response::silent(),
                runs::record(input, call, Ok(response), ctx.now),
            )
        }
        Payload::PostToolUseFailure { call, error } if tools::is_shell(&call.name) => {
            HookOutcome::with_changes(
                Response::silent(),
                runs::record(input, call, Err(error), ctx.now),
            )
        }
        Payload::PostToolUse { call, response } => post_tool_use(input, call, response, ctx),
        Payload::PostToolUseFailure { call, error } => failure(input, call, error, ctx),
        Payload::PostToolBatch { calls } => batch(input, calls, ctx),
        // The dispatcher only hands verify-write the events it registers for.
        Payload::PreToolUse { .. } | Payload::Stop(_) | Payload::ConfigChange { .. } => {
            HookOutcome::silent()
        }
    }
}

/// What the disk must show after one write, at one path.
#[derive(Debug)]
struct Planned<'a> {
    /// Absolute, not yet canonical (the record gets the canonical form).
    path: PathBuf,
    op: Operation,
    expect: Expectation<'a>,
}

#[derive(Debug)]
enum Expectation<'a> {
    /// A file whose content is known exactly, or constrained by text it must contain.
    Content(ContentRule<'a>),
    /// A notebook cell in a given state.
    Cell(CellRule<'a>),
    Directory,
    /// A move's source: nothing may remain at the path.
    Gone,
    /// A move's destination: something must be at the path.
    Present,
    /// What the host sent cannot confirm or refute the write; the file must exist.
    Unconfirmable(&'static str),
}

#[derive(Debug, Default)]
struct ContentRule<'a> {
    /// The whole file, when it can be computed (a Write, borrowed from the input; an
    /// Edit whose original was sent).
    exact: Option<Cow<'a, [u8]>>,
    /// A Write: the exact content is itself the text that must still be there.
    whole: bool,
    /// The file before the write, when the host sent it.
    original: Option<&'a str>,
    /// Text the write put in: if it is still there the write landed.
    present: Vec<&'a str>,
    /// Text the write removed (an Edit's old text, unique by the tool's rule).
    absent: Vec<&'a str>,
}

#[derive(Debug)]
struct CellRule<'a> {
    mode: CellMode,
    /// The cell the edit addressed (for an insert: the new cell's id, when the host says).
    cell_id: Option<&'a str>,
    source: &'a str,
    /// The notebook before and after, as the host sent them (`original_file`,
    /// `updated_file`, observed on 2.1.328).
    original: Option<&'a str>,
    updated: Option<&'a str>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CellMode {
    Replace,
    Insert,
    Delete,
}

/// The result of checking one [`Planned`] write against the disk.
#[derive(Debug)]
struct Check {
    outcome: Outcome,
    /// For the agent: what is there instead, or a note on how it landed.
    detail: Option<String>,
    digest: Option<FileDigest>,
}

impl Check {
    fn new(outcome: Outcome, detail: impl Into<Option<String>>) -> Check {
        Check {
            outcome,
            detail: detail.into(),
            digest: None,
        }
    }
}

fn post_tool_use(
    input: &HookInput,
    call: &ToolCall,
    response: &Value,
    ctx: &Context,
) -> HookOutcome {
    let Some(kind) = tools::write_kind(&call.name) else {
        return HookOutcome::silent();
    };
    let plans = match plan(kind, &call.input, Some(response), &input.common.cwd) {
        Ok(Some(plans)) => plans,
        Ok(None) => return HookOutcome::silent(),
        Err(e) => return unplannable(call, &e),
    };
    let mut records = Vec::with_capacity(plans.len());
    let mut failures = Vec::new();
    let mut changed = Vec::new();
    for planned in &plans {
        let check = check(planned);
        let line = describe(tools::normalize(&call.host_name), planned, &check);
        match check.outcome {
            Outcome::ChangedAfter | Outcome::Unconfirmed => changed.push(line.clone()),
            o if !o.is_verified() => failures.push(line.clone()),
            _ => {}
        }
        records.push(record(
            input,
            Event::PostToolUse,
            call,
            planned,
            &check,
            line,
            ctx,
        ));
    }
    let verdict = if !failures.is_empty() {
        Verdict::Block(format!("{HOOK}: {}", failures.join(" ")))
    } else if !changed.is_empty() {
        Verdict::Context(format!("{HOOK}: {}", changed.join(" ")))
    } else {
        Verdict::Silent
    };
    HookOutcome::with_changes(
        Response::new(verdict),
        records.into_iter().map(Change::Record).collect(),
    )
}

/// A write tool call whose input does not say where it writes: it cannot be verified,
/// and the agent should know.
fn unplannable(call: &ToolCall, error: &str) -> HookOutcome {
    HookOutcome::respond(Response::new(Verdict::Block(format!(
        "{HOOK}: could not verify the {} call: {error}. Nothing was recorded; check the file yourself.",
        call.host_name
    ))))
}

fn failure(input: &HookInput, call: &ToolCall, error: &str, ctx: &Context) -> HookOutcome {
    let Some(kind) = tools::write_kind(&call.name) else {
        return HookOutcome::silent();
    };
    let plans = match plan(kind, &call.input, None, &input.common.cwd) {
        Ok(Some(plans)) => plans,
        Ok(None) => return HookOutcome::silent(),
        Err(e) => return unplannable(call, &e),
    };
    let reason = format!(
        "the {} tool failed: {}",
        tools::normalize(&call.host_name),
        quote_block(error)
    );
    let records = plans
        .iter()
        .map(|planned| {
            let check = Check::new(Outcome::ToolFailed, None);
            Change::Record(record(
                input,
                Event::PostToolUseFailure,
                call,
                planned,
                &check,
                reason.clone(),
                ctx,
            ))
        })
        .collect();
    // The agent already saw the tool's error; the record is for the audit.
    HookOutcome::with_changes(Response::silent(), records)
}

/// One or two sentences for the agent: what was written where, what the disk shows, and
/// what to do about it.
fn describe(tool: &str, planned: &Planned, check: &Check) -> String {
    let what = match planned.op {
        Operation::MoveFrom => "move away from".to_owned(),
        Operation::MoveTo => "move to".to_owned(),
        Operation::CreateDirectory => "directory creation at".to_owned(),
        Operation::Delete => "deletion of".to_owned(),
        _ => format!("{tool} to"),
    };
    let path = planned.path.display();
    let mut detail = check.detail.clone().unwrap_or_default();
    // When nothing could be compared, say what was expected, so the agent can tell.
    if let (
        Expectation::Content(ContentRule {
            exact: Some(exact), ..
        }),
        Outcome::Missing | Outcome::WrongType | Outcome::Unreadable,
    ) = (&planned.expect, check.outcome)
    {
        let _ = write!(
            detail,
            " ({} bytes, sha256 {}, were to be written)",
            exact.len(),
            short(&fsutil::sha256_hex(exact))
        );
    }
    match check.outcome {
        Outcome::Landed if detail.is_empty() => format!("The {what} {path} landed."),
        Outcome::Landed => format!("The {what} {path} {detail}."),
        Outcome::ChangedAfter => format!("The {what} {path}: {detail}. Read the file before editing it again."),
        Outcome::Unconfirmed => format!("The {what} {path} could not be confirmed: {detail}. Read the file if you need to be sure."),
        Outcome::ToolFailed => format!("The {what} {path} failed: {detail}."),
        Outcome::Refused => format!(
            "The {what} {path} was refused before it ran: {}.",
            detail.trim_end_matches('.')
        ),
        Outcome::Unreadable => format!(
            "The {what} {path} could not be verified: {detail}. Check the path's permissions; the write may not have landed."
        ),
        outcome => format!("The {what} {path} did not land: {detail}. {}", advice(planned.op, outcome)),
    }
}

/// What to do about a write that did not land, for the agent.
fn advice(op: Operation, outcome: Outcome) -> &'static str {
    match (op, outcome) {
        (Operation::CreateDirectory, Outcome::WrongType) => {
            "Remove the file at that path if the task wants a directory there, or choose another path."
        }
        (Operation::CreateDirectory, _) => "Create the directory again.",
        (Operation::MoveFrom, _) => {
            "The file was copied rather than moved: remove the source, or move the file again."
        }
        (Operation::MoveTo, _) => "Move the file again, and check the source and destination paths.",
        (_, Outcome::Missing) => "Check that its directory exists, then write the file again.",
        (_, Outcome::WrongType) => {
            "Do not read or write through it: choose another path, or remove what is there if the task wants a file."
        }
        _ => "Read the file and write it again.",
    }
}

fn record(
    input: &HookInput,
    event: Event,
    call: &ToolCall,
    planned: &Planned,
    check: &Check,
    reason: String,
    ctx: &Context,
) -> Record {
    let Common {
        session_id,
        prompt_id,
        ..
    } = &input.common;
    WriteRecord {
        v: RECORD_VERSION,
        time: crate::time::rfc3339(ctx.now),
        session: session_id.clone(),
        prompt_id: prompt_id.clone(),
        tool_use_id: call.tool_use_id.clone(),
        event: event.name().to_owned(),
        tool: tools::normalize(&call.name).to_owned(),
        path: fsutil::canonical(&planned.path)
            .to_string_lossy()
            .into_owned(),
        op: planned.op,
        verified: check.outcome.is_verified(),
        outcome: check.outcome,
        reason: (check.outcome != Outcome::Landed || check.detail.is_some()).then_some(reason),
        sha256: check.digest.as_ref().map(|d| d.sha256.clone()),
        size: check.digest.as_ref().map(|d| d.size),
        host: input.common.host.record_name(),
    }
    .into()
}

/// A text shortened to [`QUOTE_CHARS`] characters, quoted and escaped like a JSON string,
/// so quotes, newlines and control characters inside it cannot be misread.
fn quote(text: &str) -> String {
    let short = match text.char_indices().nth(QUOTE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    };
    serde_json::to_string(&short).expect("a string serializes")
}

/// A tool's error output, trimmed to its first lines.
fn quote_block(text: &str) -> String {
    let first: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(3)
        .collect();
    let joined = first.join(" / ");
    match joined.char_indices().nth(300) {
        Some((cut, _)) => format!("{}…", &joined[..cut]),
        None => joined,
    }
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(12)]
}

#[cfg(test)]
mod tests {
    use super::check::*;
    use super::plan::*;
    use super::*;

    fn edit<'a>(old: &'a str, new: &'a str, all: bool) -> Edit<'a> {
        Edit { old, new, all }
    }

    #[test]
    fn edit_rule_applies_edits_in_order() {
        let rule = edit_rule(
            Some("a b a"),
            &[edit("a", "x", false), edit("b", "y", false)],
        );
        assert_eq!(rule.exact.as_deref(), Some(&b"x y a"[..]));
        let rule = edit_rule(Some("a b a"), &[edit("a", "x", true)]);
        assert_eq!(rule.exact.as_deref(), Some(&b"x b x"[..]));
        assert_eq!(rule.absent, ["a"]);
        // An edit that does not apply to the original: only text rules remain.
        let rule = edit_rule(Some("abc"), &[edit("zzz", "q", false)]);
        assert_eq!(rule.exact, None);
        assert_eq!(rule.present, ["q"]);
        // Creating a file with an empty old_string.
        let rule = edit_rule(Some(""), &[edit("", "new file", false)]);
        assert_eq!(rule.exact.as_deref(), Some(&b"new file"[..]));
    }

    #[test]
    fn later_edits_release_earlier_text() {
        let rule = edit_rule(None, &[edit("a", "foo", false), edit("foo", "bar", false)]);
        assert_eq!(rule.present, ["bar"]);
        // replace_all whose new text contains the old one: the old text stays legitimately.
        let rule = edit_rule(None, &[edit("x", "xx", true)]);
        assert!(rule.absent.is_empty());
    }

    #[test]
    fn first_difference_names_the_line() {
        assert_eq!(
            first_difference(b"a\nb\nc", b"a\nB\nc"),
            "the first difference is at line 2: expected \"b\", found \"B\""
        );
        assert_eq!(
            first_difference(b"a\nb", b"a"),
            "the file ends before line 2 (expected \"b\")"
        );
        assert_eq!(
            first_difference(b"a\nb\n", b"a\nb\nwatcher\n"),
            "the file has more lines than expected, from line 3: \"watcher\""
        );
        assert_eq!(
            first_difference(b"a\n", b"a"),
            "the lines are equal but the line endings or the final newline differ"
        );
        assert_eq!(lines_of(b"").count(), 0);
    }

    #[test]
    fn crlf_normalization() {
        assert_eq!(&*normalize_newlines(b"a\r\nb\r"), b"a\nb\r");
    }

    #[test]
    fn quotes_are_one_short_line() {
        assert_eq!(quote("say \"hi\"\n\t"), r#""say \"hi\"\n\t""#);
        assert_eq!(quote(&"x".repeat(100)).chars().count(), QUOTE_CHARS + 3);
    }
}
