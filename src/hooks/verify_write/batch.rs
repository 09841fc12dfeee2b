//! PostToolBatch: every write of a parallel batch checked again against the final state,
//! and the sibling calls that could explain a write that no longer holds.

use super::*;

pub(super) fn batch(input: &HookInput, calls: &[BatchCall], ctx: &Context) -> HookOutcome {
    struct Checked<'a> {
        call: &'a ToolCall,
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
                    planned,
                }
            })),
            Ok(None) => {}
            Err(e) => problems.push(format!(
                "the {} call could not be verified: {e}.",
                call.host_name
            )),
        }
    }
    let mut records = Vec::with_capacity(checked.len());
    for c in &checked {
        let mut line = describe(tools::normalize(&c.call.host_name), &c.planned, &c.check);
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
            "{HOOK}: after this batch of {}, {} no longer {}:",
            crate::words::count(calls.len(), "tool call", "tool calls"),
            crate::words::count(problems.len(), "write", "writes"),
            if problems.len() == 1 { "holds" } else { "hold" }
        );
        for (i, p) in problems.iter().enumerate() {
            let _ = write!(text, "\n{}. {p}", i + 1);
        }
        text.push_str("\nA write lost to a parallel call is not done: read the file and write it again if the change is still needed.");
        Verdict::Context(text)
    };
    HookOutcome::with_changes(
        Response::new(verdict),
        records.into_iter().map(Change::Record).collect(),
    )
}

/// What the ledger says about the calls of this turn.
#[derive(Default)]
pub(super) struct Ledger {
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
        let Ok(log) = ctx.state.turn_log(input.common.prompt_id.as_deref(), None) else {
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
pub(super) fn never_ran(call: &ToolCall, result: &CallResult, ledger: &Ledger) -> Option<Check> {
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
pub(super) fn suspects(
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
        let name = tools::normalize(&other.call.host_name);
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
