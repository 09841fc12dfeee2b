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
use crate::store::{Operation, Outcome, Record, WriteRecord, RECORD_VERSION};
use crate::tools::{self, Role, Target, WriteKind};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Files up to this size are loaded to explain a mismatch; larger ones get sizes and
/// hashes only.
const DIAGNOSE_LIMIT: u64 = 64 * 1024 * 1024;
/// How much of a line or a text an explanation quotes.
const QUOTE_CHARS: usize = 80;

const HOOK: &str = "verify-write";

pub fn run(input: &HookInput, ctx: &Context) -> HookOutcome {
    match &input.payload {
        Payload::PostToolUse { call, response } => post_tool_use(input, call, response, ctx),
        Payload::PostToolUseFailure { call, error } => failure(input, call, error, ctx),
        Payload::PostToolBatch { calls } => batch(input, calls, ctx),
        // The dispatcher only hands verify-write the events it registers for.
        Payload::PreToolUse { .. } | Payload::Stop(_) => HookOutcome::silent(),
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
        let line = describe(kind, planned, &check);
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
    HookOutcome {
        response: Response::new(verdict),
        records,
    }
}

/// A write tool call whose input does not say where it writes: it cannot be verified,
/// and the agent should know.
fn unplannable(call: &ToolCall, error: &str) -> HookOutcome {
    HookOutcome {
        response: Response::new(Verdict::Block(format!(
            "{HOOK}: could not verify the {} call: {error}. Nothing was recorded; check the file yourself.",
            call.name
        ))),
        records: Vec::new(),
    }
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
        tools::normalize(&call.name),
        quote_block(error)
    );
    let records = plans
        .iter()
        .map(|planned| {
            let check = Check::new(Outcome::ToolFailed, None);
            record(
                input,
                Event::PostToolUseFailure,
                call,
                planned,
                &check,
                reason.clone(),
                ctx,
            )
        })
        .collect();
    // The agent already saw the tool's error; the record is for the audit.
    HookOutcome {
        response: Response::silent(),
        records,
    }
}

fn batch(input: &HookInput, calls: &[BatchCall], ctx: &Context) -> HookOutcome {
    struct Checked<'a> {
        call: &'a ToolCall,
        kind: WriteKind,
        planned: Planned<'a>,
        check: Check,
    }
    let mut checked = Vec::new();
    let mut problems = Vec::new();
    // The turn's ledger, read only when a write does not hold: who refused what, and
    // which calls ran (a PostToolUse record means the tool ran).
    let mut ledger: Option<Ledger> = None;
    for BatchCall { call, result, .. } in calls {
        let Some(kind) = tools::write_kind(&call.name) else {
            continue;
        };
        match plan(kind, &call.input, None, &input.common.cwd) {
            Ok(Some(plans)) => checked.extend(plans.into_iter().map(|planned| {
                let mut check = check(&planned);
                if !check.outcome.is_verified() {
                    let ledger = ledger.get_or_insert_with(|| Ledger::read(input, ctx));
                    if let Some(not_run) = never_ran(call, result, ledger) {
                        check = not_run;
                    }
                }
                Checked {
                    check,
                    call,
                    kind,
                    planned,
                }
            })),
            Ok(None) => {}
            Err(e) => problems.push(format!(
                "the {} call could not be verified: {e}.",
                call.name
            )),
        }
    }
    let mut records = Vec::with_capacity(checked.len());
    for c in &checked {
        let mut line = describe(c.kind, &c.planned, &c.check);
        if !c.check.outcome.is_verified()
            && !c.check.outcome.agent_was_told()
            && c.check.outcome != Outcome::Unconfirmed
        {
            let _ = write!(
                line,
                " {}",
                suspects(c.call, &c.planned, &c.check, calls, &input.common.cwd)
            );
            problems.push(line.clone());
        }
        records.push(record(
            input,
            Event::PostToolBatch,
            c.call,
            &c.planned,
            &c.check,
            line,
            ctx,
        ));
    }
    let verdict = if problems.is_empty() {
        Verdict::Silent
    } else {
        let mut text = format!(
            "{HOOK}: after this batch of {} tool calls, {} write(s) no longer hold:",
            calls.len(),
            problems.len()
        );
        for (i, p) in problems.iter().enumerate() {
            let _ = write!(text, "\n{}. {p}", i + 1);
        }
        text.push_str("\nA write lost to a parallel call is not done: read the file and write it again if the change is still needed.");
        Verdict::Context(text)
    };
    HookOutcome {
        response: Response::new(verdict),
        records,
    }
}

/// What the ledger says about the calls of this turn.
#[derive(Default)]
struct Ledger {
    /// tool_use_id -> the refusing guard's reason.
    denied: std::collections::HashMap<String, String>,
    /// tool_use_ids that a PostToolUse (or PostToolUseFailure) record shows ran.
    ran: std::collections::HashSet<String>,
}

impl Ledger {
    /// The turn's records. A ledger that cannot be read is empty: the host's result text
    /// still tells a refusal, and the worst case is the report a missing ledger always gave.
    fn read(input: &HookInput, ctx: &Context) -> Ledger {
        let mut ledger = Ledger::default();
        let Ok(session) = crate::store::SessionId::parse(&input.common.session_id) else {
            return ledger;
        };
        let Ok(root) = crate::store::state_root(ctx.env) else {
            return ledger;
        };
        let Ok(log) = crate::store::SessionStore::new(&root, &session)
            .read_turn_records(input.common.prompt_id.as_deref())
        else {
            return ledger;
        };
        for d in log.denials {
            if let Some(id) = d.tool_use_id {
                ledger.denied.insert(id, d.reason);
            }
        }
        for r in log.records {
            if r.event != Event::PostToolBatch.name() {
                ledger.ran.extend(r.tool_use_id);
            }
        }
        ledger
    }
}

/// The check for a write call of the batch that never ran or failed in front of the
/// agent, or `None` when it ran and its loss is real. A call a guard of ours refused, or
/// whose result is not the host's success text, was refused: the agent saw why, and it
/// is not a write lost to a sibling.
fn never_ran(call: &ToolCall, result: &CallResult, ledger: &Ledger) -> Option<Check> {
    let id = call.tool_use_id.as_deref();
    if let Some(reason) = id.and_then(|id| ledger.denied.get(id)) {
        return Some(Check::new(Outcome::Refused, quote_block(reason)));
    }
    match result {
        CallResult::Failed(error) => Some(Check::new(Outcome::ToolFailed, quote_block(error))),
        CallResult::Refused(_) if id.is_some_and(|id| ledger.ran.contains(id)) => None,
        CallResult::Refused(text) => Some(Check::new(Outcome::Refused, quote_block(text))),
        CallResult::Succeeded | CallResult::Unknown => None,
    }
}

/// Which other calls of the batch could explain a write that does not hold: a sibling
/// write whose content is what the disk now holds, else the calls that could write.
fn suspects(
    call: &ToolCall,
    planned: &Planned,
    check: &Check,
    calls: &[BatchCall],
    cwd: &Path,
) -> String {
    let others = calls
        .iter()
        .filter(|b| b.call.tool_use_id != call.tool_use_id || b.call.input != call.input);
    let mut named = Vec::new();
    for other in others {
        let name = tools::normalize(&other.call.name);
        let id = other.call.tool_use_id.as_deref().unwrap_or("?");
        if let Some(kind) = tools::write_kind(&other.call.name) {
            let same_path = tools::write_targets(kind, &other.call.input)
                .into_iter()
                .flatten()
                .any(|t| fsutil::absolute(Path::new(&t.path), cwd) == planned.path);
            if !same_path {
                continue;
            }
            let content = other.call.input.get("content").and_then(Value::as_str);
            let wins = match (content, &check.digest) {
                (Some(c), Some(d)) => fsutil::sha256_hex(c.as_bytes()) == d.sha256,
                _ => false,
            };
            if wins {
                return format!("The {name} call {id} in the same batch overwrote it (the file holds that call's content).");
            }
            named.push(format!("{name} {id}"));
        } else if !matches!(
            name,
            "Read" | "Glob" | "Grep" | "LS" | "WebFetch" | "WebSearch" | "TodoWrite"
        ) {
            let what = other
                .call
                .input
                .get("command")
                .and_then(Value::as_str)
                .map(|c| format!(" ({})", quote(c)))
                .unwrap_or_default();
            named.push(format!("{name} {id}{what}"));
        }
    }
    if named.is_empty() {
        "Something outside this batch changed it.".to_owned()
    } else {
        format!(
            "Other calls in the same batch that may have changed it: {}.",
            named.join(", ")
        )
    }
}

/// Turns one tool call into the writes to check. `response` is the structured
/// PostToolUse result when there is one. `Ok(None)`: nothing to verify (an MCP dry run).
fn plan<'a>(
    kind: WriteKind,
    input: &'a Value,
    response: Option<&'a Value>,
    cwd: &Path,
) -> Result<Option<Vec<Planned<'a>>>, String> {
    let targets = tools::write_targets(kind, input).map_err(|e| e.to_string())?;
    let resolve = |t: &Target| fsutil::absolute(Path::new(&t.path), cwd);
    let bool_of =
        |v: Option<&Value>, key: &str| v.and_then(|v| v.get(key)).and_then(Value::as_bool);
    // The host's result wins over the request: the user may have changed the content in
    // the permission dialog (`userModified`).
    let original =
        str_of(response, "originalFile").or_else(|| str_of(response, "originalFileContents"));
    let single = |op, expect| {
        Ok(Some(vec![Planned {
            path: resolve(&targets[0]),
            op,
            expect,
        }]))
    };
    match kind {
        WriteKind::Write | WriteKind::McpWriteFile => {
            let content = str_of(response, "content")
                .or_else(|| str_of(Some(input), "content"))
                .ok_or_else(|| {
                    format!("the {} tool input has no content (a string)", kind.name())
                })?;
            let op = Operation::Write;
            single(
                op,
                Expectation::Content(ContentRule {
                    exact: Some(Cow::Borrowed(content.as_bytes())),
                    whole: true,
                    original,
                    ..ContentRule::default()
                }),
            )
        }
        WriteKind::Edit => {
            let old = str_of(response, "oldString").or_else(|| str_of(Some(input), "old_string"));
            let new = str_of(response, "newString").or_else(|| str_of(Some(input), "new_string"));
            // Without either string there is nothing to look for: say so, never "landed".
            let (Some(old), Some(new)) = (old, new) else {
                return single(
                    Operation::Edit,
                    Expectation::Unconfirmable(
                        "an Edit without old_string and new_string cannot be checked",
                    ),
                );
            };
            let all = bool_of(response, "replaceAll")
                .or_else(|| bool_of(Some(input), "replace_all"))
                .unwrap_or(false);
            let edits = [Edit { old, new, all }];
            single(
                Operation::Edit,
                Expectation::Content(edit_rule(original, &edits)),
            )
        }
        WriteKind::MultiEdit => {
            let edits = edits_of(input, "edits", "old_string", "new_string", "replace_all")?;
            single(
                Operation::MultiEdit,
                Expectation::Content(edit_rule(original, &edits)),
            )
        }
        WriteKind::McpEditFile => {
            if bool_of(Some(input), "dryRun") == Some(true) {
                return Ok(None);
            }
            let edits = edits_of(input, "edits", "oldText", "newText", "")?;
            // The MCP server replaces the first match only and matches whitespace loosely,
            // so old text may legitimately remain: only the new text is evidence.
            let present: Vec<&str> = edits
                .into_iter()
                .map(|e| e.new)
                .filter(|n| !n.is_empty())
                .collect();
            if present.is_empty() {
                return single(Operation::Edit, Expectation::Unconfirmable("an edit_file that only deletes text cannot be confirmed without the file's previous content"));
            }
            let rule = ContentRule {
                present,
                ..ContentRule::default()
            };
            single(Operation::Edit, Expectation::Content(rule))
        }
        WriteKind::NotebookEdit => {
            let mode = match str_of(Some(input), "edit_mode") {
                None | Some("replace") => CellMode::Replace,
                Some("insert") => CellMode::Insert,
                Some("delete") => CellMode::Delete,
                Some(other) => return Err(format!("unknown NotebookEdit edit_mode `{other}`")),
            };
            // For an insert the host answers with the NEW cell's id; the input's id is the
            // cell it was inserted after.
            let cell_id = match mode {
                CellMode::Insert => str_of(response, "cell_id"),
                _ => str_of(Some(input), "cell_id").or_else(|| str_of(response, "cell_id")),
            };
            let rule = CellRule {
                mode,
                cell_id,
                source: str_of(Some(input), "new_source").unwrap_or_default(),
                original: str_of(response, "original_file"),
                updated: str_of(response, "updated_file"),
            };
            single(Operation::NotebookEdit, Expectation::Cell(rule))
        }
        WriteKind::McpMoveFile | WriteKind::McpCreateDirectory => Ok(Some(
            targets
                .iter()
                .map(|t| {
                    let (op, expect) = match t.role {
                        Role::MovedFrom => (Operation::MoveFrom, Expectation::Gone),
                        Role::MovedTo => (Operation::MoveTo, Expectation::Present),
                        Role::DirectoryCreated | Role::Written => {
                            (Operation::CreateDirectory, Expectation::Directory)
                        }
                    };
                    Planned {
                        path: resolve(t),
                        op,
                        expect,
                    }
                })
                .collect(),
        )),
    }
}

/// A string value of an optional object.
fn str_of<'a>(v: Option<&'a Value>, key: &str) -> Option<&'a str> {
    v.and_then(|v| v.get(key)).and_then(Value::as_str)
}

struct Edit<'a> {
    old: &'a str,
    new: &'a str,
    all: bool,
}

fn edits_of<'a>(
    input: &'a Value,
    field: &str,
    old: &str,
    new: &str,
    all: &str,
) -> Result<Vec<Edit<'a>>, String> {
    let items = input
        .get(field)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("the tool input has no {field} (an array)"))?;
    items
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let text = |k: &str| {
                e.get(k)
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("{field}[{i}] has no {k} (a string)"))
            };
            Ok(Edit {
                old: text(old)?,
                new: text(new)?,
                all: !all.is_empty() && e.get(all).and_then(Value::as_bool).unwrap_or(false),
            })
        })
        .collect()
}

/// The rule for a sequence of string replacements: exact when the original is known and
/// every edit applies to it, else the text each edit leaves behind.
fn edit_rule<'a>(original: Option<&'a str>, edits: &[Edit<'a>]) -> ContentRule<'a> {
    let exact = original.and_then(|orig| {
        edits
            .iter()
            .try_fold(Cow::Borrowed(orig), |text, e| {
                apply(&text, e).map(Cow::Owned)
            })
            .map(|t| Cow::Owned(t.into_owned().into_bytes()))
    });
    let mut rule = ContentRule {
        exact,
        original,
        ..ContentRule::default()
    };
    for (i, e) in edits.iter().enumerate() {
        // A later edit may rewrite what an earlier one put in: only require text that no
        // later edit touches.
        let later = &edits[i + 1..];
        let overlaps = |t: &str| {
            later
                .iter()
                .any(|l| !l.old.is_empty() && (l.old.contains(t) || t.contains(l.old)))
        };
        if !e.new.is_empty() && !overlaps(e.new) {
            rule.present.push(e.new);
        }
        // Edit refuses an old_string that is not unique (without replace_all), so after
        // any edit the old text is gone, unless the new text (or a later edit's) has it.
        let reintroduced = later.iter().any(|l| l.new.contains(e.old));
        if !e.old.is_empty() && !e.new.contains(e.old) && !reintroduced && !overlaps(e.old) {
            rule.absent.push(e.old);
        }
    }
    rule
}

fn apply(text: &str, e: &Edit) -> Option<String> {
    if e.old.is_empty() {
        // Claude Code's way of creating a file with Edit.
        return text.is_empty().then(|| e.new.to_owned());
    }
    if !text.contains(e.old) {
        return None;
    }
    Some(if e.all {
        text.replace(e.old, e.new)
    } else {
        text.replacen(e.old, e.new, 1)
    })
}

fn check(planned: &Planned) -> Check {
    let path = &planned.path;
    let probe = fsutil::probe(path);
    match &planned.expect {
        Expectation::Gone => match probe {
            Probe::Missing => Check::new(Outcome::Landed, None),
            _ => Check::new(
                Outcome::SourceRemains,
                "the source is still there".to_owned(),
            ),
        },
        Expectation::Present => match probe {
            Probe::Missing => {
                Check::new(Outcome::Missing, "nothing is at the destination".to_owned())
            }
            Probe::Error(e) => Check::new(
                Outcome::Unreadable,
                format!("the destination could not be examined: {e}"),
            ),
            _ => Check::new(Outcome::Landed, None),
        },
        Expectation::Directory => match probe {
            Probe::Directory => Check::new(Outcome::Landed, None),
            Probe::Missing => {
                Check::new(Outcome::Missing, "the directory does not exist".to_owned())
            }
            Probe::Error(e) => Check::new(
                Outcome::Unreadable,
                format!("the path could not be examined: {e}"),
            ),
            _ => Check::new(
                Outcome::WrongType,
                "a file, not a directory, is at the path".to_owned(),
            ),
        },
        Expectation::Unconfirmable(why) => match probe {
            Probe::File { .. } => Check::new(Outcome::Unconfirmed, (*why).to_owned()),
            other => not_a_file(other),
        },
        Expectation::Content(rule) => match probe {
            Probe::File { .. } => check_content(path, rule, planned.op),
            other => not_a_file(other),
        },
        Expectation::Cell(rule) => match probe {
            Probe::File { .. } => check_cell(path, rule),
            other => not_a_file(other),
        },
    }
}

fn not_a_file(probe: Probe) -> Check {
    match probe {
        Probe::Missing => Check::new(Outcome::Missing, "the file does not exist".to_owned()),
        Probe::Directory => Check::new(
            Outcome::WrongType,
            "a directory is at the path, not a file".to_owned(),
        ),
        Probe::Special => Check::new(
            Outcome::WrongType,
            "a FIFO, socket or device is at the path, not a regular file (it was not opened)"
                .to_owned(),
        ),
        Probe::Error(e) => Check::new(
            Outcome::Unreadable,
            format!("the file could not be examined: {e}"),
        ),
        Probe::File { .. } => unreachable!("callers handle files"),
    }
}

fn check_content(path: &Path, rule: &ContentRule, op: Operation) -> Check {
    let unreadable = |e: std::io::Error| {
        Check::new(
            Outcome::Unreadable,
            format!("the file could not be read: {e}"),
        )
    };
    let mut digest = None;
    if let Some(exact) = &rule.exact {
        match fsutil::compare_file(path, exact) {
            Ok((true, d)) => {
                return Check {
                    outcome: Outcome::Landed,
                    detail: None,
                    digest: Some(d),
                }
            }
            Ok((false, d)) => digest = Some(d),
            Err(e) => return unreadable(e),
        }
    }
    let disk = match fsutil::read_at_most(path, DIAGNOSE_LIMIT) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            let mut c = Check::new(
                Outcome::Differs,
                format!(
                    "the file is larger than {} MiB and differs from what was expected",
                    DIAGNOSE_LIMIT >> 20
                ),
            );
            c.digest = digest;
            return c;
        }
        Err(e) => return unreadable(e),
    };
    let digest = digest.unwrap_or_else(|| FileDigest {
        sha256: fsutil::sha256_hex(&disk),
        size: disk.len() as u64,
    });
    let with_digest = |outcome, detail: String| Check {
        outcome,
        detail: Some(detail),
        digest: Some(digest.clone()),
    };
    let whole_present = match (&rule.exact, rule.whole) {
        // Empty content is "in" every file: an empty Write holds only on an empty file.
        (Some(exact), true) => !exact.is_empty() && contains_bytes(&disk, exact),
        _ => true,
    };
    let holds =
        whole_present && contains_all(&disk, &rule.present) && contains_none(&disk, &rule.absent);
    let Some(exact) = &rule.exact else {
        if holds {
            return Check {
                outcome: Outcome::Landed,
                detail: None,
                digest: Some(digest),
            };
        }
        return match (&rule.original, disk.is_empty()) {
            (Some(orig), _) if orig.as_bytes() == disk => {
                with_digest(Outcome::NotLanded, still_original(&digest))
            }
            (_, true) => with_digest(Outcome::Empty, "the file is empty".to_owned()),
            _ => with_digest(Outcome::TextAbsent, missing_text(&disk, rule)),
        };
    };
    if normalize_newlines(&disk) == normalize_newlines(exact) {
        return with_digest(
            Outcome::Landed,
            "landed with different line endings (CRLF/LF)".to_owned(),
        );
    }
    if rule.original.is_some_and(|o| o.as_bytes() == disk) {
        return with_digest(Outcome::NotLanded, still_original(&digest));
    }
    if disk.is_empty() {
        return with_digest(
            Outcome::Empty,
            format!("the file is empty; {} bytes were expected", exact.len()),
        );
    }
    if exact.starts_with(&disk) {
        return with_digest(
            Outcome::Truncated,
            format!(
                "the file holds only the first {} of the {} bytes expected",
                disk.len(),
                exact.len()
            ),
        );
    }
    let difference = first_difference(exact, &disk);
    if holds && (rule.whole || !rule.present.is_empty()) {
        return with_digest(
            Outcome::ChangedAfter,
            format!("it landed, then the file was changed by something else (a formatter or another tool?); the written text is still there, but {difference}"),
        );
    }
    let sizes = format!(
        "{} bytes (sha256 {}) on disk, {} bytes (sha256 {}) expected",
        disk.len(),
        short(&digest.sha256),
        exact.len(),
        short(&fsutil::sha256_hex(exact))
    );
    if op == Operation::Write {
        with_digest(
            Outcome::Differs,
            format!("the file holds something else: {sizes}; {difference}"),
        )
    } else {
        with_digest(
            Outcome::TextAbsent,
            format!("{}; {sizes}; {difference}", missing_text(&disk, rule)),
        )
    }
}

fn still_original(d: &FileDigest) -> String {
    format!(
        "the file still holds its previous content ({} bytes, sha256 {})",
        d.size,
        short(&d.sha256)
    )
}

fn missing_text(disk: &[u8], rule: &ContentRule) -> String {
    if let Some(t) = rule.present.iter().find(|t| !contains(disk, t)) {
        return format!("the new text {} is not in the file", quote(t));
    }
    match rule.absent.iter().find(|t| contains(disk, t)) {
        Some(t) => format!("the replaced text {} is still in the file", quote(t)),
        None => "the file does not hold the expected content".to_owned(),
    }
}

fn contains(hay: &[u8], needle: &str) -> bool {
    contains_bytes(hay, needle.as_bytes())
}

/// Substring search: linear (std's two-way search) when both sides are UTF-8, which the
/// text of a file written by an agent almost always is.
fn contains_bytes(hay: &[u8], needle: &[u8]) -> bool {
    if needle.is_empty() {
        return true;
    }
    match (std::str::from_utf8(hay), std::str::from_utf8(needle)) {
        (Ok(h), Ok(n)) => h.contains(n),
        _ => hay.windows(needle.len()).any(|w| w == needle),
    }
}

fn contains_all(hay: &[u8], texts: &[&str]) -> bool {
    texts.iter().all(|t| contains(hay, t))
}

fn contains_none(hay: &[u8], texts: &[&str]) -> bool {
    !texts.iter().any(|t| contains(hay, t))
}

fn normalize_newlines(bytes: &[u8]) -> Cow<'_, [u8]> {
    if !bytes.contains(&b'\r') {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut iter = bytes.iter().peekable();
    while let Some(&b) = iter.next() {
        if b == b'\r' && iter.peek() == Some(&&b'\n') {
            continue;
        }
        out.push(b);
    }
    Cow::Owned(out)
}

/// The lines of a text; a final newline ends the last line rather than starting another.
fn lines_of(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes
        .strip_suffix(b"\n")
        .unwrap_or(bytes)
        .split(|&b| b == b'\n')
        .take(if bytes.is_empty() { 0 } else { usize::MAX })
}

/// "line N: expected …, found …" for the first line that differs.
fn first_difference(expected: &[u8], disk: &[u8]) -> String {
    let mut exp = lines_of(expected);
    let mut got = lines_of(disk);
    let mut n = 1;
    loop {
        match (exp.next(), got.next()) {
            (Some(a), Some(b)) if a == b => n += 1,
            (Some(a), Some(b)) => {
                return format!(
                    "the first difference is at line {n}: expected {}, found {}",
                    quote(&String::from_utf8_lossy(a)),
                    quote(&String::from_utf8_lossy(b))
                )
            }
            (Some(a), None) => {
                return format!(
                    "the file ends before line {n} (expected {})",
                    quote(&String::from_utf8_lossy(a))
                )
            }
            (None, Some(b)) => {
                return format!(
                    "the file has more lines than expected, from line {n}: {}",
                    quote(&String::from_utf8_lossy(b))
                )
            }
            (None, None) => {
                return "the lines are equal but the line endings or the final newline differ"
                    .to_owned()
            }
        }
    }
}

fn check_cell(path: &Path, rule: &CellRule) -> Check {
    let bytes = match fsutil::read_at_most(path, DIAGNOSE_LIMIT) {
        Ok(Some(b)) => b,
        Ok(None) => {
            return Check::new(
                Outcome::Unconfirmed,
                "the notebook is too large to check".to_owned(),
            )
        }
        Err(e) => {
            return Check::new(
                Outcome::Unreadable,
                format!("the notebook could not be read: {e}"),
            )
        }
    };
    let digest = Some(FileDigest {
        sha256: fsutil::sha256_hex(&bytes),
        size: bytes.len() as u64,
    });
    let finish = |outcome, detail: Option<String>| Check {
        outcome,
        detail,
        digest: digest.clone(),
    };
    // The host sent the notebook as it wrote it: byte equality is the strongest evidence.
    if rule.updated.is_some_and(|u| u.as_bytes() == bytes) {
        return finish(Outcome::Landed, None);
    }
    if rule.original.is_some_and(|o| o.as_bytes() == bytes) {
        return finish(
            Outcome::NotLanded,
            Some("the notebook still holds its previous content".to_owned()),
        );
    }
    let notebook: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            return finish(
                Outcome::Differs,
                Some(format!("the notebook is not valid JSON: {e}")),
            )
        }
    };
    let original_count = rule
        .original
        .and_then(|o| serde_json::from_str::<Value>(o).ok())
        .map(|nb| cells_of(&nb).len());
    let cells = cells_of(&notebook);
    let verdict = cell_verdict(rule, cells, original_count);
    // The cell is right but the bytes are not what the host wrote: something (Jupyter
    // saving outputs, a formatter) changed the notebook afterwards.
    match verdict {
        (Outcome::Landed, None) if rule.updated.is_some() => finish(
            Outcome::ChangedAfter,
            Some("it landed, then the notebook was changed by something else; the edited cell is as written".to_owned()),
        ),
        (outcome, detail) => finish(outcome, detail),
    }
}

fn cells_of(notebook: &Value) -> &[Value] {
    notebook
        .get("cells")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

fn cell_source(cell: &Value) -> String {
    match cell.get("source") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(lines)) => lines.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// Whether the notebook's cells show the edit. Cell ids are `id` fields (nbformat 4.5);
/// older notebooks have none and are addressed by position as `cell-N`.
fn cell_verdict(
    rule: &CellRule,
    cells: &[Value],
    original_count: Option<usize>,
) -> (Outcome, Option<String>) {
    let same_source = |cell: &Value| cell_source(cell).trim_end() == rule.source.trim_end();
    let literal = |id: &str| {
        cells
            .iter()
            .find(|c| c.get("id").and_then(Value::as_str) == Some(id))
    };
    let positional = |id: &str| {
        id.strip_prefix("cell-")
            .and_then(|n| n.parse::<usize>().ok())
    };
    let id = rule.cell_id;
    let count_is =
        |delta: isize| original_count.map(|n| cells.len() as isize == n as isize + delta);
    match rule.mode {
        CellMode::Delete => match id {
            Some(id) if literal(id).is_some() => (
                Outcome::NotLanded,
                Some(format!("cell {id} is still in the notebook")),
            ),
            // A positional id names whatever cell now sits there: only the count can tell.
            Some(id) if positional(id).is_some() => match count_is(-1) {
                Some(true) => (Outcome::Landed, None),
                Some(false) => (
                    Outcome::NotLanded,
                    Some(format!(
                        "the notebook has {} cells, not one fewer than before",
                        cells.len()
                    )),
                ),
                None => (
                    Outcome::Unconfirmed,
                    Some(format!(
                        "deleting {id} cannot be confirmed without the notebook's previous content"
                    )),
                ),
            },
            // A literal id that is gone: the delete landed.
            Some(_) => (Outcome::Landed, None),
            // No id says which cell went: only the count can tell.
            None => match count_is(-1) {
                Some(true) => (Outcome::Landed, None),
                Some(false) => (
                    Outcome::NotLanded,
                    Some(format!(
                        "the notebook has {} cells, not one fewer than before",
                        cells.len()
                    )),
                ),
                None => (
                    Outcome::Unconfirmed,
                    Some("a delete without a cell id cannot be confirmed without the notebook's previous content".to_owned()),
                ),
            },
        },
        CellMode::Insert => {
            let found = match id {
                Some(id) => literal(id).map(same_source),
                None if count_is(1) == Some(false) => None,
                None => Some(cells.iter().any(same_source)),
            };
            match found {
                Some(true) => (Outcome::Landed, None),
                Some(false) => (
                    Outcome::TextAbsent,
                    Some(format!(
                        "the inserted cell {} does not hold the new source",
                        id.unwrap_or("?")
                    )),
                ),
                None => (
                    Outcome::TextAbsent,
                    Some(match id {
                        Some(id) => format!("the inserted cell {id} is not in the notebook"),
                        None => "no cell was inserted".to_owned(),
                    }),
                ),
            }
        }
        CellMode::Replace => {
            let cell =
                id.and_then(|id| literal(id).or_else(|| positional(id).and_then(|i| cells.get(i))));
            match cell {
                Some(cell) if same_source(cell) => (Outcome::Landed, None),
                Some(cell) => (
                    Outcome::TextAbsent,
                    Some(format!(
                        "cell {} holds {}, not the new source",
                        id.unwrap_or("?"),
                        quote(&cell_source(cell))
                    )),
                ),
                None if cells.iter().any(same_source) => (Outcome::Landed, None),
                None => (
                    Outcome::TextAbsent,
                    Some("no cell holds the new source".to_owned()),
                ),
            }
        }
    }
}

/// One or two sentences for the agent: what was written where, what the disk shows, and
/// what to do about it.
fn describe(kind: WriteKind, planned: &Planned, check: &Check) -> String {
    let what = match planned.op {
        Operation::MoveFrom => "move away from".to_owned(),
        Operation::MoveTo => "move to".to_owned(),
        Operation::CreateDirectory => "directory creation at".to_owned(),
        _ => format!("{} to", kind.name()),
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
