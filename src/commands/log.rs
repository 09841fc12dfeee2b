//! `did-it-actually log`: the write log as a table.

use super::*;

pub fn run(
    session: Option<String>,
    turn: Option<String>,
    failed: bool,
    json: bool,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let vars = env.as_fn();
    let root = match crate::store::state_root(vars) {
        Ok(r) => r,
        Err(e) => return Err(CommandError::new(e)),
    };
    let Some((session, id)) = session_with_log(&root, session)? else {
        // Right after install nothing has happened yet: say what will appear.
        writeln!(
            out,
            "No write log yet under {}. One appears when a guarded session acts: verify-write records every write it reads back, and the guards record every call they refuse. Run `did-it-actually log` again after the agent's first write.",
            root.display()
        )?;
        return Ok(ExitCode::SUCCESS);
    };
    let read = match crate::store::SessionStore::new(&root, &id).read_write_log() {
        Ok(r) => r,
        Err(e) => return Err(CommandError::new(e)),
    };
    // A call a guard refused never ran: the refusal is its row, not a failed write.
    let refused: std::collections::HashSet<String> = read
        .denials
        .iter()
        .filter_map(|d| d.tool_use_id.clone())
        .collect();
    // Writes and the guards' denials, one ledger in time order (RFC 3339 sorts as text).
    let mut entries: Vec<crate::store::Record> = read
        .records
        .into_iter()
        .filter(|r| turn.is_none() || r.prompt_id == turn)
        .filter(|r| {
            r.outcome != crate::store::Outcome::ToolFailed
                || r.tool_use_id
                    .as_ref()
                    .is_none_or(|id| !refused.contains(id))
        })
        .filter(|r| !failed || !r.verified)
        .map(Into::into)
        .chain(
            read.denials
                .into_iter()
                .filter(|d| turn.is_none() || d.prompt_id == turn)
                .map(Into::into),
        )
        // audit-turn's stops: with `--failed`, the refused ones.
        .chain(
            read.audits
                .into_iter()
                .filter(|a| turn.is_none() || a.prompt_id == turn)
                .filter(|a| !failed || a.blocked)
                .map(crate::store::Record::Audit),
        )
        .collect();
    entries.sort_by(|a, b| a.time().cmp(b.time()));
    if json {
        for r in &entries {
            writeln!(
                out,
                "{}",
                serde_json::to_string(r).expect("records serialize")
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "session {session}: {}{}",
        crate::words::count(entries.len(), "record", "records"),
        if read.torn > 0 {
            format!(
                " ({} skipped)",
                crate::words::count(read.torn, "unreadable line", "unreadable lines")
            )
        } else {
            String::new()
        }
    )?;
    writeln!(
        out,
        "{:<24} {:<12} {:<12} {:<16} {:<34} path",
        "time", "turn", "tool", "outcome", "by"
    )?;
    for entry in &entries {
        let (time, prompt, tool, outcome, by, what) = match entry {
            crate::store::Record::Write(r) => (
                &r.time,
                &r.prompt_id,
                &r.tool,
                r.outcome.name().to_owned(),
                // Who checked it: verify-write after the tool, after a failed tool, or
                // after the whole batch.
                with_host(
                    match r.event.as_str() {
                        "PostToolUse" => "verify-write, after the call",
                        "PostToolUseFailure" => "verify-write, after a failed call",
                        "PostToolBatch" => "verify-write, after the batch",
                        other => other,
                    },
                    r.host.as_deref(),
                ),
                r.path.clone(),
            ),
            crate::store::Record::Run(r) => (
                &r.time,
                &r.prompt_id,
                &r.tool,
                if r.failed { "ran, failed" } else { "ran" }.to_owned(),
                with_host("the run log", r.host.as_deref()),
                crate::shell::walk::cut(&r.command),
            ),
            crate::store::Record::Audit(a) => (
                &a.time,
                &a.prompt_id,
                &a.agent,
                if a.blocked {
                    "stop refused"
                } else {
                    "stop let through"
                }
                .to_owned(),
                with_host("audit-turn", a.host.as_deref()),
                format!(
                    "{} claim(s), {} not backed",
                    a.claims.len(),
                    a.claims.iter().filter(|c| !c.backed).count()
                ),
            ),
            crate::store::Record::Denial(d) => (
                &d.time,
                &d.prompt_id,
                &d.tool,
                "refused".to_owned(),
                with_host(&d.hook, d.host.as_deref()),
                format!(
                    "{} ({})",
                    d.targets.first().cloned().unwrap_or_default(),
                    crate::shell::walk::cut(&d.reason)
                ),
            ),
        };
        let turn: String = prompt.as_deref().unwrap_or("-").chars().take(12).collect();
        writeln!(
            out,
            "{time:<24} {turn:<12} {tool:<12} {outcome:<16} {by:<34} {what}"
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Who wrote a row, with the host when it is not Claude Code.
fn with_host(by: &str, host: Option<&str>) -> String {
    match host {
        Some(h) => format!("{by} ({h})"),
        None => by.to_owned(),
    }
}

/// The session `session` names, or the newest one with a write log (`None`: there is
/// none yet); an id without a write log is an error naming the sessions that have one.
pub(crate) fn session_with_log(
    root: &Path,
    session: Option<String>,
) -> Result<Option<(String, crate::store::SessionId)>, CommandError> {
    let session = match session {
        Some(s) => s,
        None => match crate::store::newest_session(root) {
            Some(s) => s,
            None => return Ok(None),
        },
    };
    let id = crate::store::SessionId::parse(&session).map_err(CommandError::new)?;
    let log = root
        .join("sessions")
        .join(&session)
        .join(crate::store::WRITE_LOG);
    if !log.exists() {
        // A mistyped id must not look like a session in which nothing happened.
        let known = crate::store::sessions_newest_first(root);
        let hint = match known.as_slice() {
            [] => "no session has one yet".to_owned(),
            some => format!(
                "sessions that have one, newest first: {}{}",
                some.iter().take(5).cloned().collect::<Vec<_>>().join(", "),
                if some.len() > 5 { ", …" } else { "" }
            ),
        };
        return Err(CommandError::new(format!(
            "no write log for session {session} under {} ({hint})",
            root.display()
        )));
    }
    Ok(Some((session, id)))
}
