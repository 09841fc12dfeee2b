//! audit-turn: when the agent stops, checks what its final message claims against the
//! evidence of the turn (the write log, the turn's tool calls and results in the
//! transcript and in its subagents' transcripts, the file system and git), and blocks the
//! stop while claims are unbacked, within the loop guard's cap. It also runs
//! completion-promise loops.
//!
//! Only a strong claim (an explicit claim of the agent with a concrete object) that is
//! unbacked blocks; a weaker reading that is unbacked is reported to the user. Nothing
//! here is silent: a cap reached, a transcript that could not be read, lines that were
//! skipped, all reach the user as a system message.

mod evidence;
mod shellrun;
pub mod summary;

use super::{Context, HookOutcome};
use crate::claims::{self, Claim, Kind};
use crate::loop_guard::{self, LoopGuard};
use crate::loops::{self, Promise, Status};
use crate::policy::AuditPolicy;
use crate::protocol::{BatchCall, CallResult, HookInput, Payload, Response, StopInput, Verdict};
use crate::store::{self, SessionId, SessionStore, WriteRecord};
use crate::tools;
use crate::transcript::{self, Entry, Turn};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

const HOOK: &str = "audit-turn";
/// How long to wait for the transcript to hold the final message.
const TRANSCRIPT_WAIT: Duration = Duration::from_millis(3000);

/// A claim that is not backed, or a failure the message did not mention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The claim as written (or what failed).
    pub what: String,
    /// Which evidence was looked for and what was found.
    pub why: String,
    /// What would back it.
    pub fix: String,
    /// Whether it blocks the stop (a strong claim) or is only reported (a weak reading).
    pub blocks: bool,
}

/// The audit of one final message.
#[derive(Debug, Default)]
pub struct Audit {
    /// Every claim and, when backed, the evidence.
    pub claims: Vec<(Claim, Result<String, Finding>)>,
    /// Claims read from the message that the project showed were not claims after all
    /// (a name with no file's shape that is no path here), with why.
    pub dropped: Vec<(Claim, String)>,
    /// Writes of the turn that did not land and were never repeated successfully.
    pub failures: Vec<Finding>,
    /// Things the reader should know (skipped transcript lines, a missing transcript).
    pub notes: Vec<String>,
}

impl Audit {
    /// What blocks the stop.
    pub fn unbacked(&self) -> Vec<&Finding> {
        self.claims
            .iter()
            .filter_map(|(_, r)| r.as_ref().err())
            .chain(&self.failures)
            .filter(|f| f.blocks)
            .collect()
    }

    /// Weak readings that are unbacked: reported to the user, never blocking.
    pub fn reported(&self) -> Vec<&Finding> {
        self.claims
            .iter()
            .filter_map(|(_, r)| r.as_ref().err())
            .filter(|f| !f.blocks)
            .collect()
    }
}

/// The evidence of a turn.
pub struct Evidence<'a> {
    pub turn: &'a Turn,
    /// Write-log records of this turn.
    pub records: &'a [WriteRecord],
    pub cwd: &'a Path,
    pub policy: &'a AuditPolicy,
    pub transcript_ok: bool,
}

/// Audits `message` against the evidence.
pub fn audit(message: &str, ev: &Evidence) -> Audit {
    audit_claims(claims::extract(message), ev)
}

/// Audits claims already read from a message against the evidence.
pub fn audit_claims(claims: Vec<Claim>, ev: &Evidence) -> Audit {
    let mut out = Audit::default();
    if claims.is_empty() {
        // Nothing to back; only the turn's silent write failures remain to report.
        add_turn_findings(&mut out, ev);
        return out;
    }
    // The repository is opened only for the claims that need it.
    let needs_repo = claims.iter().any(|c| {
        matches!(
            c.kind,
            Kind::File { .. } | Kind::Dir { .. } | Kind::Commit { .. } | Kind::Push { .. }
        )
    });
    let facts = evidence::Facts::gather(ev, needs_repo);
    let ignored = glob_set(&ev.policy.ignore_paths);
    let ignored_path = |p: &Path| {
        p.strip_prefix(&facts.root)
            .is_ok_and(|rel| ignored.as_ref().is_some_and(|s| s.is_match(rel)))
    };
    for claim in claims {
        let needs_transcript = matches!(claim.kind, Kind::Tests { .. } | Kind::Build | Kind::Lint);
        if needs_transcript && !ev.transcript_ok {
            out.notes.push(format!(
                "\"{}\" could not be checked without the transcript",
                crate::shell::walk::cut(&claim.sentence)
            ));
            continue;
        }
        let verdict = match &claim.kind {
            Kind::File { .. } | Kind::Dir { .. } if !ev.policy.file_claims => continue,
            Kind::Tests { .. } | Kind::Build | Kind::Lint if !ev.policy.test_claims => continue,
            Kind::Commit { .. } | Kind::Push { .. } if !ev.policy.git_claims => continue,
            Kind::Commit { .. } | Kind::Push { .. }
                if !ev.transcript_ok && ev.turn.started.is_none() =>
            {
                out.notes.push(format!(
                    "\"{}\" could not be checked without the transcript",
                    crate::shell::walk::cut(&claim.sentence)
                ));
                continue;
            }
            Kind::File { path, change } => {
                let resolved = evidence::resolve(path, &facts);
                if ignored_path(&resolved) {
                    continue;
                }
                if claim.path_inferred && !evidence::known(&resolved, &facts) {
                    let why = format!("no file or directory {path} exists, existed when the turn began, or was written: not a path here");
                    out.dropped.push((claim.clone(), why));
                    continue;
                }
                if resolved.is_dir() {
                    evidence::dir_evidence(&claim, &resolved, change, &facts)
                } else {
                    evidence::file_evidence(&claim, &resolved, change, &facts)
                }
            }
            Kind::Dir { path, change } => {
                let resolved = evidence::resolve(path, &facts);
                if ignored_path(&resolved) {
                    continue;
                }
                evidence::dir_evidence(&claim, &resolved, change, &facts)
            }
            Kind::Tests { count } => {
                evidence::result_evidence(&claim, "tests", &ev.policy.test_commands, *count, &facts)
            }
            Kind::Build => {
                evidence::result_evidence(&claim, "build", &ev.policy.build_commands, None, &facts)
            }
            Kind::Lint => {
                evidence::result_evidence(&claim, "lint", &ev.policy.lint_commands, None, &facts)
            }
            Kind::Commit { hash } => evidence::commit_evidence(&claim, hash.as_deref(), &facts),
            Kind::Push { branch } => evidence::push_evidence(&claim, branch.as_deref(), &facts),
        };
        // What a subagent did whose transcript could not be read may back it: report, do
        // not block.
        let verdict = match verdict {
            Err(mut f)
                if ev.turn.subagents_unread > 0
                    && !matches!(claim.kind, Kind::File { .. } | Kind::Dir { .. }) =>
            {
                f.blocks = false;
                f.why.push_str(
                    " (a subagent of this turn ran, and its transcript could not be read)",
                );
                Err(f)
            }
            v => v,
        };
        out.claims.push((claim, verdict));
    }
    add_turn_findings(&mut out, ev);
    out
}

/// The reading of every sentence of `message`, for `did-it-actually audit --explain`:
/// claim or not and why, each claim's confidence, and the audit's verdict on it.
pub fn explain_text(message: &str, audit: &Audit) -> String {
    let mut out = String::from("reading of the message:\n");
    for r in claims::explain(message) {
        let _ = writeln!(out, "- \"{}\"", crate::shell::walk::cut(&r.sentence));
        for c in &r.claims {
            let _ = writeln!(out, "    {}", describe(c, audit));
        }
        for w in &r.why {
            let _ = writeln!(out, "    not a claim: {w}");
        }
    }
    out
}

fn describe(c: &Claim, audit: &Audit) -> String {
    let conf = match (&c.confidence, &c.hedge) {
        (claims::Confidence::Strong, _) => "strong (blocks when unbacked)".to_owned(),
        (_, Some(h)) => format!("weak: {h} (reported, never blocks)"),
        (_, None) => "weak (reported, never blocks)".to_owned(),
    };
    let verdict = audit
        .claims
        .iter()
        .find(|(a, _)| a == c)
        .map(|(_, v)| match v {
            Ok(e) => format!("backed: {e}"),
            Err(f) => format!("NOT backed: {}", f.why),
        })
        .or_else(|| {
            audit
                .dropped
                .iter()
                .find(|(a, _)| a == c)
                .map(|(_, why)| format!("dropped: {why}"))
        })
        .unwrap_or_else(|| "not checked (policy or missing evidence)".into());
    format!("claim {:?}, {conf}; {verdict}", c.kind)
}

/// [`explain_text`] as JSON.
pub fn readings_json(message: &str, audit: &Audit) -> Value {
    Value::Array(
        claims::explain(message)
            .into_iter()
            .map(|r| {
                serde_json::json!({
                    "sentence": r.sentence,
                    "claims": r.claims.iter().map(|c| describe(c, audit)).collect::<Vec<_>>(),
                    "not_claims": r.why,
                })
            })
            .collect(),
    )
}

/// What the turn says whatever the message claims: writes that silently did not land,
/// and transcript lines that could not be read.
fn add_turn_findings(out: &mut Audit, ev: &Evidence) {
    out.failures = unclaimed_failures(ev.records);
    if ev.turn.bad_lines > 0 {
        out.notes.push(format!(
            "{} line(s) of the transcript could not be read and were skipped",
            ev.turn.bad_lines
        ));
    }
}

fn glob_set(patterns: &[String]) -> Option<globset::GlobSet> {
    if patterns.is_empty() {
        return None;
    }
    let mut b = globset::GlobSetBuilder::new();
    for p in patterns {
        if let Ok(g) = crate::policy::path_glob(p) {
            b.add(g);
        }
        // A pattern without a separator matches at any depth (`*.md`).
        if !p.contains('/') {
            if let Ok(g) = crate::policy::path_glob(&format!("**/{p}")) {
                b.add(g);
            }
        }
    }
    b.build().ok()
}

/// Writes of the turn that did not land, unless a later write to the same path did.
fn unclaimed_failures(records: &[WriteRecord]) -> Vec<Finding> {
    // Walked newest first: a path is settled once a verified write to it is seen, and
    // reported at most once (by exact path: `/a/b.rs` must not hide `/a/b.rs.bak`).
    let mut verified_later: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut reported: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut out = Vec::new();
    for r in records.iter().rev() {
        if r.verified {
            verified_later.insert(&r.path);
            continue;
        }
        // A tool that failed showed the agent its error; a write that reported success
        // and did not land is the silent failure this is for.
        let settled = r.outcome.agent_was_told()
            || r.outcome == store::Outcome::Unconfirmed
            || verified_later.contains(r.path.as_str());
        if settled || !reported.insert(&r.path) {
            continue;
        }
        out.push(Finding {
            blocks: true,
            what: format!("the {} to {}", r.tool, r.path),
            why: format!(
                "it did not land ({}: {})",
                r.outcome.name(),
                r.reason.as_deref().unwrap_or("no reason recorded")
            ),
            fix: "write it again, or say in your message that it failed".into(),
        });
    }
    out.reverse();
    out
}

/// The reason shown to the agent for a block.
fn block_reason(findings: &[&Finding], notes: &[String], then: &str) -> String {
    let mut text = format!(
        "{HOOK}: {} thing(s) in your final message are not backed by what happened in this turn:",
        findings.len()
    );
    for (i, f) in findings.iter().enumerate() {
        let _ = write!(
            text,
            "\n{}. \"{}\": {}. To back it: {}.",
            i + 1,
            crate::shell::walk::cut(&f.what),
            f.why,
            f.fix
        );
    }
    for n in notes {
        let _ = write!(text, "\n(Note: {n}.)");
    }
    text.push('\n');
    text.push_str(then);
    text
}

fn list_for_user(findings: &[&Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("\"{}\" ({})", crate::shell::walk::cut(&f.what), f.why))
        .collect::<Vec<_>>()
        .join("; ")
}

pub fn run(input: &HookInput, ctx: &Context) -> Result<HookOutcome, String> {
    match &input.payload {
        Payload::Stop(stop) => stop_event(input, stop, ctx),
        Payload::PostToolBatch { calls } => Ok(end_turn_batch(input, calls, ctx)),
        _ => Ok(HookOutcome::silent()),
    }
}

/// What the audit needs from the transcript, decided from the claims before reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Need {
    /// Nothing: no claim needs it (and the message came with the event).
    Nothing,
    /// The turn's start and its shell writes, for file claims: what is already written
    /// (the start of the turn does not lag), so no waiting.
    Start,
    /// The turn's tool results (test runs, commits, pushes), which the host writes
    /// asynchronously: worth a short wait when the transcript visibly lags.
    Results,
}

fn need_of(claims: &[Claim]) -> Need {
    claims
        .iter()
        .map(|c| match c.kind {
            Kind::File { .. } => Need::Start,
            _ => Need::Results,
        })
        .max()
        .unwrap_or(Need::Nothing)
}

/// The transcript as the audit could have it: the turn, a note for the user, and whether
/// it could be read at all.
struct Transcript {
    turn: Turn,
    note: Option<String>,
    ok: bool,
}

impl Transcript {
    fn unread(note: Option<String>) -> Transcript {
        Transcript {
            turn: Turn::default(),
            note,
            ok: false,
        }
    }
}

fn stop_event(input: &HookInput, stop: &StopInput, ctx: &Context) -> Result<HookOutcome, String> {
    let policy = &ctx.policy.audit;
    let session = SessionId::parse(&input.common.session_id).map_err(|e| e.to_string())?;
    let state_root = store::state_root(ctx.env).map_err(|e| e.to_string())?;
    let store = SessionStore::new(&state_root, &session);
    let cwd = &input.common.cwd;
    let project = crate::policy::repo_root(cwd).unwrap_or_else(|| cwd.clone());
    let loop_path = loops::state_path(&state_root, &project);
    let mut loop_note = None;
    let active_loop = match loops::load(&loop_path) {
        Ok(Some(l))
            if l.status == Status::Active
                && l.session.as_ref().is_none_or(|s| s == session.as_str())
                && !stop.subagent =>
        {
            Some(l)
        }
        Ok(_) => None,
        // A broken loop file stops the loop, not the audit: the note says why.
        Err(e) => {
            loop_note = Some(e.to_string());
            None
        }
    };
    if (!policy.enabled || (stop.subagent && !policy.subagents)) && active_loop.is_none() {
        return Ok(HookOutcome::silent());
    }
    // The message first: it decides whether the transcript is needed at all.
    let (message, claims, transcript) = match &stop.last_assistant_message {
        Some(m) => {
            let claims = if policy.enabled {
                claims::extract(m)
            } else {
                Vec::new()
            };
            let transcript = read_transcript(input, stop, need_of(&claims), Some(m));
            (m.clone(), claims, transcript)
        }
        // An older host sends no message: the transcript's last text is the message.
        None => {
            let transcript = read_transcript(input, stop, Need::Results, None);
            let message = transcript
                .turn
                .last_assistant_text
                .clone()
                .unwrap_or_default();
            let claims = if policy.enabled {
                claims::extract(&message)
            } else {
                Vec::new()
            };
            (message, claims, transcript)
        }
    };
    let log = turn_records(
        &store,
        input.common.prompt_id.as_deref(),
        transcript.turn.started,
    )
    .map_err(|e| e.to_string())?;
    let ev = Evidence {
        turn: &transcript.turn,
        records: &log.records,
        cwd,
        policy,
        transcript_ok: transcript.ok,
    };
    let mut audit = audit_claims(claims, &ev);
    audit.notes.extend(transcript.note);
    audit.notes.extend(loop_note);
    if log.torn > 0 {
        audit.notes.push(format!(
            "{} line(s) of the write log could not be read and were skipped",
            log.torn
        ));
    }
    let unbacked = audit.unbacked();
    let notes_for_user = match (notes_for_user(&audit.notes), reported_for_user(&audit)) {
        (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
        (a, b) => a.or(b),
    };
    if let Some(mut state) = active_loop {
        return Ok(loop_stop(
            &mut state,
            &loop_path,
            session.as_str(),
            &message,
            &unbacked,
            &audit.notes,
            notes_for_user,
        ));
    }
    let agent = stop.agent_id.clone().unwrap_or_else(|| "main".into());
    let prompt_id = input.common.prompt_id.clone().unwrap_or_default();
    let guard = LoopGuard::new(&store);
    if unbacked.is_empty() {
        let mut response = Response::silent();
        response.notices.extend(notes_for_user);
        if let Err(e) = guard.reset(&prompt_id, &agent) {
            response.notices.push(format!("{HOOK}: {e}"));
        }
        return Ok(HookOutcome {
            response,
            records: Vec::new(),
        });
    }
    // Without the counter a block could repeat forever: the stop goes through, and the
    // user is told both why and what was unbacked.
    let decision = match guard.block(&prompt_id, &agent, policy.max_blocks) {
        Ok(d) => d,
        Err(e) => {
            return Ok(HookOutcome {
                response: Response::silent().with_notice(format!(
                    "{HOOK}: the stop goes through unchecked because the stop-block counter failed ({e}); claims unbacked: {}",
                    list_for_user(&unbacked)
                )),
                records: Vec::new(),
            })
        }
    };
    let response = match decision {
        loop_guard::Decision::Block(_) => {
            let mut r = Response::new(Verdict::Block(block_reason(
                &unbacked,
                &audit.notes,
                "Do what is missing, or correct the message, then finish.",
            )));
            r.notices.extend(notes_for_user);
            r
        }
        loop_guard::Decision::CapReached(n) => Response::silent().with_notice(format!(
            "{HOOK}: the stop goes through after {n} blocks in a row (audit.max_blocks), with claims still unbacked: {}",
            list_for_user(&unbacked)
        )),
    };
    Ok(HookOutcome {
        response,
        records: Vec::new(),
    })
}

fn notes_for_user(notes: &[String]) -> Option<String> {
    (!notes.is_empty()).then(|| format!("{HOOK}: {}.", notes.join("; ")))
}

/// Weak readings that are unbacked, for the user (they never block).
fn reported_for_user(audit: &Audit) -> Option<String> {
    let weak = audit.reported();
    (!weak.is_empty()).then(|| {
        format!(
            "{HOOK}: could not confirm (not blocking, the reading is uncertain): {}",
            list_for_user(&weak)
        )
    })
}

/// The keys of a turn-terminator tool's input that hold its final words, in order.
const END_TURN_TEXT_KEYS: [&str; 4] = ["message", "text", "content", "summary"];

/// The agent's final words in a turn-terminator call: the first string among
/// [`END_TURN_TEXT_KEYS`], else every string in the input, one paragraph each (the
/// input's JSON syntax would only hide sentences from the claim reader).
fn end_turn_message(input: &Value) -> String {
    if let Some(text) = END_TURN_TEXT_KEYS
        .iter()
        .find_map(|k| input.get(k).and_then(Value::as_str))
    {
        return text.to_owned();
    }
    fn strings<'v>(v: &'v Value, out: &mut Vec<&'v str>) {
        match v {
            Value::String(s) => out.push(s),
            Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
            Value::Object(map) => map.values().for_each(|i| strings(i, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    strings(input, &mut out);
    out.join("\n\n")
}

/// PostToolBatch in an Agent SDK app whose loop ends with a tool (`end_turn`): no Stop
/// event follows such an end, so the audit happens here. A batch that calls no such tool
/// is none of this hook's business. Backed: the loop ends cleanly after the batch (every
/// call of it has resolved). Unbacked: the list goes to the agent as context, so it can
/// fix it and call the tool again; the loop guard bounds that like a stop block.
fn end_turn_batch(input: &HookInput, calls: &[BatchCall], ctx: &Context) -> HookOutcome {
    let names: Vec<&str> = ctx
        .end_turn_tools
        .iter()
        .chain(&ctx.policy.audit.end_turn_tools)
        .map(String::as_str)
        .collect();
    let Some(end) = calls
        .iter()
        .find(|b| names.iter().any(|n| tools::is_tool(&b.call.name, n)))
    else {
        return HookOutcome::silent();
    };
    let tool = end.call.name.as_str();
    let stop_reason = format!("{tool} called");
    let end_loop = |notice: Option<String>| {
        let mut r = Response::new(Verdict::EndTurn(stop_reason.clone()));
        r.notices.extend(notice);
        HookOutcome {
            response: r,
            records: Vec::new(),
        }
    };
    let policy = &ctx.policy.audit;
    if !policy.enabled {
        return end_loop(None);
    }
    // An audit that cannot run must not keep the loop going forever: it ends, and the
    // user is told why.
    let fail = |e: String| end_loop(Some(format!("{HOOK}: the loop ends unaudited: {e}")));
    let session = match SessionId::parse(&input.common.session_id) {
        Ok(s) => s,
        Err(e) => return fail(e.to_string()),
    };
    let store = match store::state_root(ctx.env) {
        Ok(root) => SessionStore::new(&root, &session),
        Err(e) => return fail(e.to_string()),
    };
    let message = end_turn_message(&end.call.input);
    let claims = claims::extract(&message);
    let need = need_of(&claims);
    // The summary is a tool argument, never assistant text: nothing to wait for. The
    // batch's own results are not in the transcript yet; they come from the event.
    let mut transcript = match need {
        Need::Nothing => Transcript::unread(None),
        _ => read_transcript_once(
            input.common.transcript_path.as_deref(),
            input.common.prompt_id.as_deref(),
        ),
    };
    if need == Need::Start {
        // As for a stop: file claims do not depend on it (and in an SDK session the
        // transcript file may not exist yet at the first batch).
        transcript.note = None;
    }
    if need != Need::Nothing {
        add_batch(&mut transcript.turn, calls);
    }
    let log = match turn_records(
        &store,
        input.common.prompt_id.as_deref(),
        transcript.turn.started,
    ) {
        Ok(l) => l,
        Err(e) => return fail(e.to_string()),
    };
    let ev = Evidence {
        turn: &transcript.turn,
        records: &log.records,
        cwd: &input.common.cwd,
        policy,
        transcript_ok: transcript.ok,
    };
    let mut audit = audit_claims(claims, &ev);
    audit.notes.extend(transcript.note);
    let unbacked = audit.unbacked();
    let notes = match (notes_for_user(&audit.notes), reported_for_user(&audit)) {
        (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
        (a, b) => a.or(b),
    };
    let prompt_id = input.common.prompt_id.clone().unwrap_or_default();
    let guard = LoopGuard::new(&store);
    let agent = format!("end-turn:{tool}");
    if unbacked.is_empty() {
        let reset = guard
            .reset(&prompt_id, &agent)
            .err()
            .map(|e| format!("{HOOK}: {e}"));
        let mut out = end_loop(notes);
        out.response.notices.extend(reset);
        return out;
    }
    match guard.block(&prompt_id, &agent, policy.max_blocks) {
        Ok(loop_guard::Decision::Block(_)) => {
            let again = format!("Do what is missing, or correct the message, then call {tool} again.");
            let mut r = Response::new(Verdict::Block(block_reason(&unbacked, &audit.notes, &again)));
            r.notices.extend(notes);
            HookOutcome {
                response: r,
                records: Vec::new(),
            }
        }
        Ok(loop_guard::Decision::CapReached(n)) => end_loop(Some(format!(
            "{HOOK}: the loop ends after {n} audits in a row found claims unbacked (audit.max_blocks): {}",
            list_for_user(&unbacked)
        ))),
        Err(e) => end_loop(Some(format!(
            "{HOOK}: the loop ends unchecked because the block counter failed ({e}); claims unbacked: {}",
            list_for_user(&unbacked)
        ))),
    }
}

/// Adds the batch's calls and results to the turn: at PostToolBatch they are not in the
/// transcript yet, and a test run in the same batch as the terminator counts.
fn add_batch(turn: &mut Turn, calls: &[BatchCall]) {
    for (i, b) in calls.iter().enumerate() {
        let id = b
            .call
            .tool_use_id
            .clone()
            .unwrap_or_else(|| format!("batch-{i}"));
        if turn.result_of(&id).is_some() {
            continue;
        }
        let (is_error, text) = match &b.result {
            CallResult::Failed(t) | CallResult::Refused(t) => (true, t.clone()),
            _ => match &b.response {
                Value::String(s) => (false, s.clone()),
                other => (false, transcript::content_text(Some(other))),
            },
        };
        turn.events.push(transcript::Entry::ToolUse {
            id: id.clone(),
            name: b.call.name.clone(),
            input: b.call.input.clone(),
        });
        turn.events
            .push(transcript::Entry::ToolResult { id, is_error, text });
    }
}

/// The turn from the transcript (the subagent's own for SubagentStop), read as far as
/// `need` asks, and a note when it could not be read.
fn read_transcript(
    input: &HookInput,
    stop: &StopInput,
    need: Need,
    message: Option<&str>,
) -> Transcript {
    if need == Need::Nothing {
        return Transcript::unread(None);
    }
    let (path, prompt) = if stop.subagent {
        (stop.agent_transcript_path.as_deref(), None)
    } else {
        (
            input.common.transcript_path.as_deref(),
            input.common.prompt_id.as_deref(),
        )
    };
    let Some(path) = path else {
        let note = (need == Need::Results).then(|| {
            "the host sent no transcript path, so tool calls of this turn could not be checked"
                .to_owned()
        });
        return Transcript::unread(note);
    };
    let mut first = read_transcript_once(Some(path), prompt);
    if need == Need::Start {
        // File claims are checked against the write log, the disk and git; the transcript
        // only sharpens "changed in this turn". Without it there is nothing to report.
        first.note = None;
    }
    let Some(expected) = message
        .map(str::trim)
        .filter(|_| need == Need::Results && first.ok)
    else {
        return first;
    };
    // Claude Code writes the transcript asynchronously: when the stop fires, the last
    // tool results may not be there yet. The final message is written last, so once the
    // transcript holds it, it holds the whole turn; wait for that, briefly, and only
    // while the transcript visibly lags.
    let caught_up = |t: &Turn| {
        t.ends_with_text && t.last_assistant_text.as_deref().map(str::trim) == Some(expected)
    };
    let deadline = std::time::Instant::now() + TRANSCRIPT_WAIT;
    let mut current = first;
    loop {
        if caught_up(&current.turn) {
            return current;
        }
        if std::time::Instant::now() >= deadline {
            current.note = Some(format!("the transcript had not caught up with the final message after {} ms; the audit used what it held", TRANSCRIPT_WAIT.as_millis()));
            return current;
        }
        std::thread::sleep(Duration::from_millis(25));
        let next = read_transcript_once(Some(path), prompt);
        if !next.ok {
            return next;
        }
        current = next;
    }
}

/// One read of the turn. A path that does not exist or is not a regular file (`/dev/null`,
/// a FIFO, a session run without persistence) is not read, and never waited for.
fn read_transcript_once(path: Option<&Path>, prompt: Option<&str>) -> Transcript {
    let Some(path) = path else {
        return Transcript::unread(Some(
            "the host sent no transcript path, so tool calls of this turn could not be checked"
                .into(),
        ));
    };
    let unreadable = |why: String| {
        Transcript::unread(Some(format!(
            "the transcript {} could not be read ({why})",
            path.display()
        )))
    };
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => {}
        Ok(_) => return unreadable("it is not a regular file".into()),
        Err(e) => return unreadable(e.to_string()),
    }
    match transcript::read_turn(path, prompt) {
        Ok(mut turn) => {
            add_subagents(&mut turn, path);
            Transcript {
                turn,
                note: None,
                ok: true,
            }
        }
        Err(e) => unreadable(e.to_string()),
    }
}

/// Adds what the turn's subagents did (their transcripts, beside the session's:
/// `<dir>/<session>/subagents/agent-<id>.jsonl`) to the turn, right after the call that
/// ran each: their tests, writes, commits and pushes are the turn's.
pub fn add_subagents(turn: &mut Turn, transcript: &Path) {
    if turn.subagents.is_empty() {
        return;
    }
    let (Some(dir), Some(session)) = (transcript.parent(), transcript.file_stem()) else {
        return;
    };
    let base = dir.join(session).join("subagents");
    let find = |agent: &str| {
        let name = format!("agent-{agent}.jsonl");
        let direct = base.join(&name);
        if direct.is_file() {
            return Some(direct);
        }
        std::fs::read_dir(&base)
            .ok()?
            .flatten()
            .map(|e| e.path().join(&name))
            .find(|p| p.is_file())
    };
    let mut inserted = Vec::new();
    for (call, agent) in turn.subagents.clone() {
        let Some(Ok(sub)) = find(&agent).map(|p| transcript::read_turn(&p, None)) else {
            turn.subagents_unread += 1;
            continue;
        };
        turn.bad_lines += sub.bad_lines;
        inserted.push((call, sub.events));
    }
    if inserted.is_empty() {
        return;
    }
    let mut events = Vec::with_capacity(turn.events.len());
    for e in std::mem::take(&mut turn.events) {
        let after: Option<Vec<Entry>> = match &e {
            transcript::Entry::ToolUse { id, .. } => inserted
                .iter()
                .position(|(c, _)| c == id)
                .map(|i| inserted.remove(i).1),
            _ => None,
        };
        events.push(e);
        events.extend(after.unwrap_or_default());
    }
    turn.events = events;
}

/// The write-log records of the turn: by its prompt id; without one, those written since
/// the turn started (the transcript's turn boundary), read backward from the end.
pub fn turn_records(
    store: &SessionStore,
    prompt_id: Option<&str>,
    started: Option<std::time::SystemTime>,
) -> Result<store::LogRead, store::StoreError> {
    if prompt_id.is_some() {
        return store.read_turn_records(prompt_id);
    }
    let Some(start) = started else {
        // Neither the turn nor its start is known: the newest records of one prompt.
        let mut last: Option<Option<String>> = None;
        let _ = crate::fsutil::lines_backward(&store.write_log_path(), |line| {
            match serde_json::from_slice::<store::Record>(line) {
                Ok(store::Record::Write(w)) => {
                    last = Some(w.prompt_id);
                    false
                }
                Ok(store::Record::Denial(d)) => {
                    last = Some(d.prompt_id);
                    false
                }
                Err(_) => true,
            }
        });
        return store.read_turn_records(last.flatten().as_deref());
    };
    let mut out = store::LogRead::default();
    let slack = Duration::from_secs(2);
    let result =
        crate::fsutil::lines_backward(
            &store.write_log_path(),
            |line| match serde_json::from_slice::<store::Record>(line) {
                Ok(r) => {
                    let t = crate::time::parse_rfc3339(r.time());
                    if t.is_some_and(|t| t + slack < start) {
                        return false;
                    }
                    match r {
                        store::Record::Write(w) if w.v == store::RECORD_VERSION => {
                            out.records.push(w)
                        }
                        store::Record::Denial(d) if d.v == store::RECORD_VERSION => {
                            out.denials.push(d)
                        }
                        _ => out.other_version += 1,
                    }
                    true
                }
                Err(_) => {
                    out.torn += 1;
                    true
                }
            },
        );
    match result {
        Ok(()) => {
            out.records.reverse();
            out.denials.reverse();
            Ok(out)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(store::LogRead::default()),
        Err(_) => store.read_turn_records(prompt_id),
    }
}

fn loop_stop(
    state: &mut loops::LoopState,
    path: &Path,
    session: &str,
    message: &str,
    unbacked: &[&Finding],
    notes: &[String],
    notes_for_user: Option<String>,
) -> HookOutcome {
    state.session.get_or_insert_with(|| session.to_owned());
    let promise = loops::check(message, &state.promise);
    let mut response = if promise == Promise::Kept && unbacked.is_empty() {
        state.status = Status::Completed;
        Response::silent().with_notice(format!(
            "{HOOK}: the loop is complete: the promise was kept after {} iteration(s).",
            state.iteration
        ))
    } else if state.iteration >= state.max_iterations {
        state.status = Status::Exhausted;
        Response::silent().with_notice(format!(
            "{HOOK}: the loop stops after {} iterations (max_iterations) without the promise kept{}.",
            state.iteration,
            if unbacked.is_empty() { String::new() } else { format!("; unbacked: {}", list_for_user(unbacked)) }
        ))
    } else {
        state.iteration += 1;
        let mut reason = format!(
            "{}\n\n({HOOK}: iteration {} of {}.",
            state.prompt, state.iteration, state.max_iterations
        );
        match &promise {
            Promise::Kept => {
                let _ = write!(reason, " The promise is there, but what the message claims does not hold yet:\n{}", block_reason(unbacked, notes, "Do what is missing, or correct the message, then finish."));
            }
            Promise::Absent { untagged: true } => reason.push_str(" Your message holds the promised text, but a promise counts only as the tag <promise>…</promise>."),
            Promise::Other(got) => {
                let _ = write!(reason, " The tag holds \"{got}\", not the promised text.");
            }
            Promise::Absent { untagged: false } => {}
        }
        let _ = write!(
            reason,
            " When it is true, finish with <promise>{}</promise>.)",
            state.promise
        );
        Response::new(Verdict::Block(reason))
    };
    if let Err(e) = loops::save(path, state) {
        response.notices.push(format!("{HOOK}: {e}"));
    }
    response.notices.extend(notes_for_user);
    HookOutcome {
        response,
        records: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_unlanded_path_is_reported_once_unless_a_later_write_landed() {
        let rec = |path: &str, verified: bool| WriteRecord {
            v: 1,
            time: String::new(),
            session: "s".into(),
            prompt_id: None,
            tool_use_id: None,
            event: "PostToolUse".into(),
            tool: "Write".into(),
            path: path.into(),
            op: store::Operation::Write,
            verified,
            outcome: if verified {
                store::Outcome::Landed
            } else {
                store::Outcome::NotLanded
            },
            reason: None,
            sha256: None,
            size: None,
        };
        let records = [
            rec("/a/b.rs.bak", false),
            rec("/a/b.rs", false),
            rec("/a/b.rs", false),
            rec("/a/c.rs", false),
            rec("/a/c.rs", true),
        ];
        let found: Vec<String> = unclaimed_failures(&records)
            .into_iter()
            .map(|f| f.what)
            .collect();
        assert_eq!(found, ["the Write to /a/b.rs.bak", "the Write to /a/b.rs"]);
    }
}
