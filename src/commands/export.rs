//! `did-it-actually export flush` and `export status`: the ledger as OpenTelemetry log
//! records (see [`crate::export`]).

use super::*;
use crate::args::ExportCommand;
use crate::export;

pub fn run(cmd: ExportCommand, env: &Env, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let root = crate::store::state_root(env.as_fn()).map_err(CommandError::new)?;
    match cmd {
        ExportCommand::Flush { background: true } => {
            export::flush_in_background(&root, env.as_fn());
            Ok(ExitCode::SUCCESS)
        }
        ExportCommand::Flush { background: false } => {
            let done = export::flush(&root, env.as_fn(), false);
            flush_report(&done, out)
        }
        ExportCommand::Status => status(&root, env, out),
    }
}

fn flush_report(done: &export::Flushed, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    if done.busy {
        writeln!(
            out,
            "did-it-actually: another flusher is sending right now; nothing was done."
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "did-it-actually: sent {} records in {} batches{}.",
        done.sent,
        done.batches,
        if done.skipped > 0 {
            format!(
                " ({} ledger lines are not exported: commands that ran, or lines that are not records)",
                done.skipped
            )
        } else {
            String::new()
        }
    )?;
    match &done.error {
        Some(e) => {
            writeln!(
                out,
                "did-it-actually: not everything was sent: {e}. The rest stays in the ledger and is sent later (`export status` shows when)."
            )?;
            Ok(ExitCode::from(1))
        }
        None => Ok(ExitCode::SUCCESS),
    }
}

fn status(root: &Path, env: &Env, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    match export::Target::from_env(env.as_fn()) {
        Ok(t) => writeln!(
            out,
            "endpoint: {} ({}){}",
            t.endpoint,
            if t.json { "http/json" } else { "http/protobuf" },
            match crate::export::http::Url::parse(&t.endpoint) {
                Ok(_) => String::new(),
                Err(e) => format!("; cannot be used: {e}"),
            }
        )?,
        Err(e) => writeln!(out, "endpoint: cannot be used: {e}")?,
    }
    let sessions = export::exported_sessions(root);
    let waiting: u64 = sessions
        .iter()
        .filter_map(|s| export::unsent_bytes(s))
        .sum();
    let behind = sessions
        .iter()
        .filter(|s| export::unsent_bytes(s).is_some_and(|b| b > 0))
        .count();
    writeln!(
        out,
        "sessions exported: {} ({behind} with records waiting, {waiting} bytes of ledger)",
        sessions.len()
    )?;
    if sessions.is_empty() {
        writeln!(
            out,
            "  none yet: export starts in a session whose policy sets export.otlp (`did-it-actually policy check` shows it)"
        )?;
    }
    let b = export::Backoff::read(root);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    if let Some(e) = &b.last_error {
        writeln!(
            out,
            "last error: {e} ({} failures in a row; next attempt in {} s)",
            b.failures,
            b.next_attempt.saturating_sub(now)
        )?;
    }
    if let Some(t) = b.last_success {
        writeln!(
            out,
            "last accepted: {}",
            crate::time::rfc3339(std::time::UNIX_EPOCH + std::time::Duration::from_secs(t))
        )?;
    }
    Ok(if b.last_error.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
