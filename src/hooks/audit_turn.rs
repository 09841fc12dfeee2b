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

use super::{Context, HookOutcome};
use crate::audit::claims::{self, Claim, Kind};
use crate::audit::{audit_claims, Audit, Evidence, Finding};
use crate::loop_guard::{self, Count};
use crate::loops::{self, Promise, Status};
use crate::protocol::{BatchCall, CallResult, HookInput, Payload, Response, StopInput, Verdict};
use crate::state::Change;
use crate::tools;
use crate::transcript::{self, Entry, Turn};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

const HOOK: &str = "audit-turn";
/// How long to wait for the transcript to hold the final message.
const TRANSCRIPT_WAIT: Duration = Duration::from_millis(3000);

pub fn run(input: &HookInput, ctx: &Context) -> Result<HookOutcome, String> {
    match &input.payload {
        Payload::Stop(stop) => stop_event(input, stop, ctx).map(|mut outcome| {
            // The end of a turn on a host whose own session file is not read: the next
            // turn's evidence in the ledger starts here (a blocked stop goes on with the
            // same turn).
            let passes = !matches!(
                outcome.response.verdict,
                Verdict::Block(_) | Verdict::Deny(_)
            );
            if passes && !stop.subagent && input.common.host != crate::protocol::host::Host::Claude
            {
                outcome.changes.push(Change::TurnEnded(ctx.now));
            }
            outcome
        }),
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

/// The turn as the ledger shows it, for a host whose own session file is not read: its
/// shell commands (the run log) and its writes, in the order they were recorded, as the
/// tool calls and results a transcript would hold.
pub(crate) fn turn_from_run_log(log: &crate::store::LogRead, read: &Turn) -> Turn {
    use crate::transcript::Entry;
    enum Step<'a> {
        Run(&'a crate::store::RunRecord),
        Write(&'a crate::store::WriteRecord),
    }
    let mut steps: Vec<(&str, Step)> = log
        .runs
        .iter()
        .map(|r| (r.time.as_str(), Step::Run(r)))
        .chain(
            log.records
                .iter()
                .map(|w| (w.time.as_str(), Step::Write(w))),
        )
        .collect();
    // RFC 3339 in UTC with fixed widths: the text order is the time order.
    steps.sort_by(|a, b| a.0.cmp(b.0));
    let mut events = Vec::with_capacity(steps.len() * 2);
    for (n, (_, step)) in steps.into_iter().enumerate() {
        let (id, name, input, is_error, text) = match step {
            Step::Run(r) => (
                r.tool_use_id.clone(),
                "Bash".to_owned(),
                serde_json::json!({ "command": r.command }),
                r.failed,
                r.output.clone(),
            ),
            Step::Write(w) => (
                w.tool_use_id.clone(),
                w.tool.clone(),
                serde_json::json!({ "file_path": w.path }),
                !w.verified,
                String::new(),
            ),
        };
        let id = id.unwrap_or_else(|| format!("ledger-{n}"));
        events.push(Entry::ToolUse {
            id: id.clone(),
            name,
            input,
        });
        events.push(Entry::ToolResult { id, is_error, text });
    }
    Turn {
        events,
        last_assistant_text: read.last_assistant_text.clone(),
        ends_with_text: read.ends_with_text,
        ..Turn::default()
    }
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
    let session = input.common.session_id.as_str();
    let cwd = &input.common.cwd;
    let project = crate::policy::repo_root(cwd).unwrap_or_else(|| cwd.clone());
    let mut loop_note = None;
    let active_loop = match ctx.state.project_loop(&project) {
        Ok(Some(l))
            if l.status == Status::Active
                && l.session.as_ref().is_none_or(|s| s == session)
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
    let agent = stop.agent_id.clone().unwrap_or_else(|| "main".into());
    let prompt_id = input.common.prompt_id.clone().unwrap_or_default();
    // A host that sends every answer of the turn in the stop after a block (Gemini's
    // `prompt_response`) repeats the blocked one first: only what follows it is new.
    let event_message = stop.last_assistant_message.as_deref().map(|m| {
        match stop
            .stop_hook_active
            .then(|| ctx.state.blocked_message(&prompt_id, &agent))
            .flatten()
        {
            Some(prev) => strip_repeated(m, &prev).to_owned(),
            None => m.to_owned(),
        }
    });
    // The message first: it decides whether the transcript is needed at all.
    let (message, claims, transcript) = match &event_message {
        Some(m) => {
            let claims = if policy.enabled {
                claims::extract(m)
            } else {
                Vec::new()
            };
            let transcript = read_transcript(input, stop, need_of(&claims), Some(m));
            (m.clone(), claims, transcript)
        }
        // A host that sends no message and keeps its own transcript (Copilot, droid):
        // the message is the transcript's last assistant text; the turn's evidence is
        // the write log, the disk and git (its tool calls are not read from that format).
        None if stop.host_transcript_path.is_some() => {
            let path = stop.host_transcript_path.as_deref().expect("checked");
            let read = match &stop.host_stop_stamp {
                // Copilot writes its events while the hook runs: wait for this stop's mark.
                Some(stamp) => transcript::copilot_final_message(
                    path,
                    stamp,
                    stop.agent_id.as_deref().filter(|_| stop.subagent),
                    TRANSCRIPT_WAIT,
                ),
                None => transcript::host_last_message(path).map_err(transcript::HostRead::Io),
            };
            let (message, note) = match read {
                Ok(Some(m)) => (m, None),
                Ok(None) => (String::new(), Some(format!("the host sent no final message and its transcript {} holds none, so no claim was checked", path.display()))),
                Err(transcript::HostRead::Io(e)) => (String::new(), Some(format!("the host sent no final message and its transcript {} could not be read ({}), so no claim was checked", path.display(), crate::fsutil::describe_io(&e)))),
                Err(transcript::HostRead::Unmarked) => (String::new(), Some(format!("the host sent no final message and its transcript {} did not show this stop within {} s, so no claim was checked", path.display(), TRANSCRIPT_WAIT.as_secs()))),
            };
            let claims = if policy.enabled {
                claims::extract(&message)
            } else {
                Vec::new()
            };
            (message, claims, Transcript::unread(note))
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
    // A host whose session file is not read, without turn ids: the turn is what the
    // ledger holds since the session's last turn ended.
    let last_turn_end = (!transcript.ok && input.common.prompt_id.is_none())
        .then(|| ctx.state.turn_ended())
        .flatten();
    let log = match last_turn_end {
        Some(t) => ctx.state.turn_log_since(t),
        None => ctx
            .state
            .turn_log(input.common.prompt_id.as_deref(), transcript.turn.started),
    }
    .map_err(|e| e.to_string())?;
    // A host whose session file is not read: the run log is the turn's evidence.
    let from_run_log = !transcript.ok && !log.runs.is_empty();
    let run_turn = from_run_log.then(|| {
        let mut turn = turn_from_run_log(&log, &transcript.turn);
        turn.started = last_turn_end;
        turn
    });
    let ev = Evidence {
        turn: run_turn.as_ref().unwrap_or(&transcript.turn),
        records: &log.records,
        cwd,
        policy,
        transcript_ok: transcript.ok || from_run_log,
        from_run_log,
    };
    let mut audit = audit_claims(claims, &ev);
    // A message no language table reads: said once, never blocked.
    audit
        .notes
        .extend(crate::audit::claims::unread_note(&message));
    if !from_run_log {
        audit.notes.extend(transcript.note);
    }
    audit.notes.extend(loop_note);
    if log.torn > 0 {
        audit.notes.push(format!(
            "{} of the write log could not be read and {} skipped",
            crate::words::count(log.torn, "line", "lines"),
            if log.torn == 1 { "was" } else { "were" }
        ));
    }
    let unbacked = audit.unbacked();
    let notes_for_user = match (notes_for_user(&audit.notes), reported_for_user(&audit)) {
        (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
        (a, b) => a.or(b),
    };
    // What audit-turn read and judged, for the ledger (`receipt` shows it).
    let record = |blocked: bool| audit_record(input, &agent, &message, &audit, blocked, ctx.now);
    if let Some(state) = active_loop {
        let recorded = record(false);
        let mut outcome = loop_stop(
            state,
            session,
            &message,
            &unbacked,
            &audit.notes,
            notes_for_user,
        );
        outcome.changes.push(recorded);
        return Ok(outcome);
    }
    if unbacked.is_empty() {
        let mut response = Response::silent();
        response.notices.extend(notes_for_user);
        return Ok(HookOutcome::with_changes(
            response,
            vec![
                stop_blocks(prompt_id, agent.clone(), Count::Reset, None),
                record(false),
            ],
        ));
    }
    // A host that cannot refuse the end of a turn (opencode): the user is told what the
    // agent would have been sent back for, with the same reasons; nothing is counted.
    let host = input.common.host.spec();
    if host.forms.stop_block == crate::protocol::host::StopBlockForm::Unsupported {
        let mut response = Response::silent().with_notice(block_reason(
            &unbacked,
            &audit.notes,
            &format!(
                "{} cannot send the agent back at the end of a turn, so this is reported, not enforced: ask the agent to do what is missing, or to correct its message.",
                host.title
            ),
        ));
        response.notices.extend(reported_for_user(&audit));
        return Ok(HookOutcome::with_changes(
            response,
            vec![
                stop_blocks(prompt_id, agent.clone(), Count::Reset, None),
                record(false),
            ],
        ));
    }
    let (decision, count) =
        loop_guard::decide(ctx.state.stop_blocks(&prompt_id, &agent), policy.max_blocks);
    // Without the counter a block could repeat forever: the stop goes through, and the
    // user is told both why and what was unbacked.
    let if_unsaved = Response::silent().with_notice(format!(
        "{HOOK}: the stop goes through unchecked because the stop-block counter could not be saved; claims unbacked: {}",
        list_for_user(&unbacked)
    ));
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
    let blocked = matches!(response.verdict, Verdict::Block(_));
    let recorded = record(blocked);
    Ok(HookOutcome {
        response,
        changes: vec![
            stop_blocks(prompt_id, agent, count, stop.last_assistant_message.clone()),
            recorded,
        ],
        if_unsaved: Some(if_unsaved),
    })
}

/// audit-turn's reading of a final message as a ledger line: the message and each claim
/// with its evidence or why it is not backed.
fn audit_record(
    input: &HookInput,
    agent: &str,
    message: &str,
    audit: &Audit,
    blocked: bool,
    now: std::time::SystemTime,
) -> Change {
    let claims = audit
        .claims
        .iter()
        .map(|(claim, verdict)| crate::store::ClaimVerdict {
            claim: claim.kind.to_string(),
            sentence: claim.sentence.clone(),
            backed: verdict.is_ok(),
            detail: match verdict {
                Ok(evidence) => evidence.clone(),
                Err(f) => f.why.clone(),
            },
            blocks: verdict.as_ref().err().is_some_and(|f| f.blocks),
        })
        .collect();
    Change::Record(crate::store::Record::Audit(crate::store::AuditRecord {
        v: crate::store::RECORD_VERSION,
        kind: crate::store::AuditKind::Audit,
        time: crate::time::rfc3339(now),
        session: input.common.session_id.clone(),
        prompt_id: input.common.prompt_id.clone(),
        agent: agent.to_owned(),
        message: crate::store::bounded_output(message.as_bytes()).0,
        claims,
        blocked,
        host: input.common.host.record_name(),
    }))
}

fn stop_blocks(prompt_id: String, agent: String, count: Count, message: Option<String>) -> Change {
    Change::StopBlocks {
        prompt_id,
        agent,
        count,
        message,
    }
}

/// `message` without a repeated `prev` at its start: the part after it, when the message
/// is `prev`, a line break, and more (a repeated message alone is still the message).
fn strip_repeated<'m>(message: &'m str, prev: &str) -> &'m str {
    match message.strip_prefix(prev) {
        Some(rest) if rest.starts_with('\n') && !rest.trim().is_empty() => rest.trim_start(),
        _ => message,
    }
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
        HookOutcome::respond(r)
    };
    let policy = &ctx.policy.audit;
    if !policy.enabled {
        return end_loop(None);
    }
    // An audit that cannot run must not keep the loop going forever: it ends, and the
    // user is told why.
    let fail = |e: String| end_loop(Some(format!("{HOOK}: the loop ends unaudited: {e}")));
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
    let log = match ctx
        .state
        .turn_log(input.common.prompt_id.as_deref(), transcript.turn.started)
    {
        Ok(l) => l,
        Err(e) => return fail(e.to_string()),
    };
    let ev = Evidence {
        turn: &transcript.turn,
        records: &log.records,
        cwd: &input.common.cwd,
        policy,
        transcript_ok: transcript.ok,
        from_run_log: false,
    };
    let mut audit = audit_claims(claims, &ev);
    // A message no language table reads: said once, never blocked.
    audit
        .notes
        .extend(crate::audit::claims::unread_note(&message));
    audit.notes.extend(transcript.note);
    let unbacked = audit.unbacked();
    let notes = match (notes_for_user(&audit.notes), reported_for_user(&audit)) {
        (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
        (a, b) => a.or(b),
    };
    let prompt_id = input.common.prompt_id.clone().unwrap_or_default();
    let agent = format!("end-turn:{tool}");
    if unbacked.is_empty() {
        let mut out = end_loop(notes);
        out.changes = vec![stop_blocks(prompt_id, agent, Count::Reset, None)];
        return out;
    }
    let (decision, count) =
        loop_guard::decide(ctx.state.stop_blocks(&prompt_id, &agent), policy.max_blocks);
    let mut out = match decision {
        loop_guard::Decision::Block(_) => {
            let again = format!("Do what is missing, or correct the message, then call {tool} again.");
            let mut r = Response::new(Verdict::Block(block_reason(&unbacked, &audit.notes, &again)));
            r.notices.extend(notes);
            HookOutcome::respond(r)
        }
        loop_guard::Decision::CapReached(n) => end_loop(Some(format!(
            "{HOOK}: the loop ends after {n} audits in a row found claims unbacked (audit.max_blocks): {}",
            list_for_user(&unbacked)
        ))),
    };
    out.changes = vec![stop_blocks(prompt_id, agent, count, None)];
    out.if_unsaved = Some(
        end_loop(Some(format!(
            "{HOOK}: the loop ends unchecked because the block counter could not be saved; claims unbacked: {}",
            list_for_user(&unbacked)
        )))
        .response,
    );
    out
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
        let note = (need == Need::Results).then(|| match &stop.host_transcript_path {
            Some(p) => format!("the host's transcript {} is not in a format read here, so tool calls of this turn (test runs, commits, pushes) could not be checked", p.display()),
            None => "the host sent no transcript path, so tool calls of this turn could not be checked".to_owned(),
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
        Err(e) => return unreadable(crate::fsutil::describe_io(&e)),
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
        Err(e) => unreadable(crate::fsutil::describe_io(&e)),
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

fn loop_stop(
    mut state: loops::LoopState,
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
            "{HOOK}: the loop is complete: the promise was kept after {}.",
            crate::words::count(state.iteration as usize, "iteration", "iterations")
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
    response.notices.extend(notes_for_user);
    HookOutcome::with_changes(response, vec![Change::Loop(state)])
}

/// The reason shown to the agent for a block.
fn block_reason(findings: &[&Finding], notes: &[String], then: &str) -> String {
    let mut text = format!(
        "{HOOK}: {} in your final message {} not backed by what happened in this turn:",
        crate::words::count(findings.len(), "thing", "things"),
        if findings.len() == 1 { "is" } else { "are" }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Policy;
    use crate::protocol::claude;
    use crate::state::{Memory, State};
    use crate::store::{Operation, Outcome, Record, WriteRecord, RECORD_VERSION};

    fn stop(dir: &Path, message: &str) -> HookInput {
        let input = serde_json::json!({"session_id": "s", "prompt_id": "p", "cwd": dir,
            "hook_event_name": "Stop", "stop_hook_active": false,
            "last_assistant_message": message});
        claude::parse(input.to_string().as_bytes()).unwrap()
    }

    fn landed(path: &Path) -> Record {
        Record::Write(WriteRecord {
            v: RECORD_VERSION,
            time: crate::time::rfc3339(std::time::SystemTime::now()),
            session: "s".into(),
            prompt_id: Some("p".into()),
            tool_use_id: Some("t1".into()),
            event: "PostToolUse".into(),
            tool: "Write".into(),
            path: path.to_string_lossy().into_owned(),
            op: Operation::Write,
            verified: true,
            outcome: Outcome::Landed,
            reason: None,
            sha256: None,
            size: None,
            host: None,
        })
    }

    /// The whole stop path runs in-process against a state in memory: the hook reads the
    /// write log and the counter from it and hands back what to change, nothing else.
    #[test]
    fn a_stop_runs_against_a_fake_store_and_returns_its_changes() {
        let dir = std::env::temp_dir().join(format!("dia-audit-mem-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let policy = Policy::defaults(dir.join(".did-it-actually.json"));
        let state = Memory::default();
        let env = |_: &str| None;
        let ctx = Context {
            policy: &policy,
            now: std::time::SystemTime::now(),
            env: &env,
            end_turn_tools: &[],
            state: &state,
        };
        let input = stop(&dir, "I updated `notes.md`.");
        // Unbacked, three times in a row: blocked, counted; then the cap lets it through.
        for n in 1..=3 {
            let out = run(&input, &ctx).unwrap();
            assert!(
                matches!(&out.response.verdict, Verdict::Block(r) if r.contains("notes.md")),
                "stop {n}: {:?}",
                out.response
            );
            assert!(out.if_unsaved.is_some(), "a block needs its count saved");
            state.apply(out.changes);
            assert_eq!(state.stop_blocks("p", "main"), n);
        }
        let out = run(&input, &ctx).unwrap();
        assert_eq!(out.response.verdict, Verdict::Silent);
        assert!(out.response.notices[0].contains("after 3 blocks in a row"));
        state.apply(out.changes);
        assert_eq!(state.stop_blocks("p", "main"), 0);
        // The write landed and the log says so: the same message is backed.
        let file = dir.join("notes.md");
        std::fs::write(&file, "the plan\n").unwrap();
        state.apply(vec![Change::Record(landed(&file))]);
        let out = run(&input, &ctx).unwrap();
        assert_eq!(out.response.verdict, Verdict::Silent, "{:?}", out.response);
        assert_eq!(
            out.changes[0],
            Change::StopBlocks {
                prompt_id: "p".into(),
                agent: "main".into(),
                count: Count::Reset,
                message: None,
            }
        );
        // What it judged goes to the ledger, for the receipt.
        match &out.changes[1..] {
            [Change::Record(crate::store::Record::Audit(a))] => {
                assert!(!a.blocked);
                assert_eq!(a.message, "I updated `notes.md`.");
                assert_eq!(a.claims.len(), 1);
                assert!(a.claims[0].backed, "{:?}", a.claims[0]);
                assert_eq!(a.claims[0].claim, "file notes.md changed");
            }
            other => panic!("one audit record, not {other:?}"),
        }
        // The four stops before were recorded too: blocked three times, then let through.
        let blocked: Vec<bool> = state
            .log
            .borrow()
            .iter()
            .filter_map(|r| match r {
                crate::store::Record::Audit(a) => Some(a.blocked),
                _ => None,
            })
            .collect();
        assert_eq!(blocked, [true, true, true, false]);
        assert_eq!(
            state
                .log
                .borrow()
                .iter()
                .filter(|r| matches!(r, crate::store::Record::Write(_)))
                .count(),
            1,
            "the hook wrote nothing itself"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A host whose session file is not read (Qwen here): pushes and commits are judged
    /// from the run log, the turn being what the ledger holds since the session's last
    /// turn ended; an earlier turn's push does not back this turn's claim.
    #[test]
    fn push_claims_are_judged_from_the_run_log_turn_by_turn() {
        let dir = std::env::temp_dir().join(format!("dia-audit-runlog-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let policy = Policy::defaults(dir.join(".did-it-actually.json"));
        let state = Memory::default();
        let env = |_: &str| None;
        let run_at = |t: std::time::SystemTime, command: &str, output: &str| {
            Change::Record(Record::Run(crate::store::RunRecord {
                v: RECORD_VERSION,
                kind: crate::store::RunKind::Run,
                time: crate::time::rfc3339(t),
                session: "s".into(),
                prompt_id: None,
                tool_use_id: None,
                event: "PostToolUse".into(),
                tool: "Bash".into(),
                command: command.into(),
                cwd: dir.to_string_lossy().into_owned(),
                failed: false,
                output: output.into(),
                output_bytes: output.len() as u64,
                host: Some("qwen".into()),
            }))
        };
        let stop_at = |now: std::time::SystemTime, message: &str| {
            let ctx = Context {
                policy: &policy,
                now,
                env: &env,
                end_turn_tools: &[],
                state: &state,
            };
            let input = serde_json::json!({"session_id": "s", "cwd": dir,
                "hook_event_name": "Stop", "stop_hook_active": false,
                "last_assistant_message": message});
            let (input, _) = crate::protocol::host::decode(
                crate::protocol::host::Host::Qwen,
                None,
                input.to_string().as_bytes(),
            )
            .unwrap();
            let out = run(&input, &ctx).unwrap();
            state.apply(out.changes.clone());
            out
        };
        let t0 = std::time::SystemTime::now();
        let secs = |n: u64| t0 + std::time::Duration::from_secs(n);
        // Turn 1: a push that the remote took, claimed.
        state.apply(vec![run_at(
            secs(1),
            "git push origin HEAD:topic/x",
            "To ../origin.git\n   1111111..2222222  HEAD -> topic/x\n",
        )]);
        let first = stop_at(secs(2), "I pushed the fix to topic/x.");
        assert_eq!(
            first.response.verdict,
            Verdict::Silent,
            "{:?}",
            first.response
        );
        assert!(first.changes.contains(&Change::TurnEnded(secs(2))));
        // Turn 2: no push, the same claim: the first turn's push does not back it.
        state.apply(vec![run_at(secs(3), "echo hi", "hi\n")]);
        let second = stop_at(secs(4), "I pushed the fix to topic/x.");
        assert!(
            matches!(&second.response.verdict, Verdict::Block(r) if r.contains("no `git push` ran in this turn")),
            "{:?}",
            second.response
        );
        assert!(
            !second
                .changes
                .iter()
                .any(|c| matches!(c, Change::TurnEnded(_))),
            "a blocked stop goes on with its turn"
        );
        // A push the remote rejected backs nothing.
        state.apply(vec![run_at(
            secs(5),
            "git push origin HEAD:topic/x",
            "To ../origin.git\n ! [rejected]        HEAD -> topic/x (fetch first)\nerror: failed to push some refs\n",
        )]);
        let third = stop_at(secs(6), "I pushed the fix to topic/x.");
        assert!(
            matches!(&third.response.verdict, Verdict::Block(r) if r.contains("did not succeed")),
            "{:?}",
            third.response
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Gemini sends every answer of the turn in the stop after a block: the blocked one,
    /// a line break, the new one. An agent that corrected its message is not blocked
    /// again for the words it took back.
    #[test]
    fn a_repeated_blocked_message_is_not_audited_again() {
        let dir = std::env::temp_dir().join(format!("dia-audit-repeat-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let policy = Policy::defaults(dir.join(".did-it-actually.json"));
        let state = Memory::default();
        let env = |_: &str| None;
        let ctx = Context {
            policy: &policy,
            now: std::time::SystemTime::now(),
            env: &env,
            end_turn_tools: &[],
            state: &state,
        };
        let first = "I updated `notes.md`.";
        let out = run(&stop(&dir, first), &ctx).unwrap();
        assert!(matches!(out.response.verdict, Verdict::Block(_)));
        state.apply(out.changes);
        let again = |message: &str| {
            let input = serde_json::json!({"session_id": "s", "prompt_id": "p", "cwd": dir,
                "hook_event_name": "Stop", "stop_hook_active": true,
                "last_assistant_message": message});
            run(&claude::parse(input.to_string().as_bytes()).unwrap(), &ctx).unwrap()
        };
        let corrected = again(&format!(
            "{first}\nI did not write notes.md: it still needs the plan."
        ));
        assert_eq!(
            corrected.response.verdict,
            Verdict::Silent,
            "{:?}",
            corrected.response
        );
        // The same claim again, alone or repeated, is still the claim.
        assert!(matches!(again(first).response.verdict, Verdict::Block(_)));
        assert!(matches!(
            again(&format!("{first}\n{first}")).response.verdict,
            Verdict::Block(_)
        ));
        assert_eq!(strip_repeated("a\nb", "a"), "b");
        assert_eq!(strip_repeated("ab", "a"), "ab");
        assert_eq!(strip_repeated("a\n", "a"), "a\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
