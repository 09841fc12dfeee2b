//! `did-it-actually audit`: audit-turn's audit, offline.

use super::*;

#[allow(clippy::too_many_arguments)]
pub fn run(
    transcript: &Path,
    message: Option<String>,
    prompt_id: Option<String>,
    session: Option<String>,
    cwd: Option<PathBuf>,
    json: bool,
    explain: bool,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    use crate::audit::{audit, Evidence};
    let vars = env.as_fn();
    let (cwd, policy) = match cwd_and_policy(env, cwd, "") {
        Ok(found) => found,
        Err(e) => return Err(CommandError::new(e)),
    };
    let turn = match crate::transcript::read_turn(transcript, prompt_id.as_deref()) {
        Ok(mut t) => {
            crate::hooks::audit_turn::add_subagents(&mut t, transcript);
            t
        }
        Err(e) => {
            return Err(CommandError::new(format!(
                "cannot read {}: {e}",
                transcript.display()
            )))
        }
    };
    // A session named on the command line whose log cannot be read is an error, not an
    // audit with no writes.
    let records = match session {
        None => Vec::new(),
        Some(s) => {
            let log = crate::store::state_root(vars)
                .map_err(|e| e.to_string())
                .and_then(|root| {
                    let id = crate::store::SessionId::parse(&s).map_err(|e| e.to_string())?;
                    crate::store::SessionStore::new(&root, &id)
                        .read_write_log()
                        .map_err(|e| e.to_string())
                });
            match log {
                Ok(l) => l
                    .records
                    .into_iter()
                    .filter(|r| prompt_id.is_none() || r.prompt_id == prompt_id)
                    .collect(),
                Err(e) => {
                    return Err(CommandError::new(format!(
                        "cannot read the write log of session {s}: {e}"
                    )))
                }
            }
        }
    };
    let message = message
        .or_else(|| turn.last_assistant_text.clone())
        .unwrap_or_default();
    let ev = Evidence {
        turn: &turn,
        records: &records,
        cwd: &cwd,
        policy: &policy.audit,
        transcript_ok: true,
        from_run_log: false,
    };
    let result = audit(&message, &ev);
    let tool_calls = turn
        .events
        .iter()
        .filter(|e| matches!(e, crate::transcript::Entry::ToolUse { .. }))
        .count();
    let unbacked = !result.unbacked().is_empty();
    if json {
        let claims: Vec<serde_json::Value> = result
            .claims
            .iter()
            .map(|(claim, verdict)| match verdict {
                Ok(evidence) => serde_json::json!({"kind": claim.kind.to_string(), "sentence": claim.sentence, "backed": true, "evidence": evidence}),
                Err(f) => serde_json::json!({"kind": claim.kind.to_string(), "sentence": claim.sentence, "backed": false, "why": f.why, "fix": f.fix}),
            })
            .collect();
        let failures: Vec<serde_json::Value> = result
            .failures
            .iter()
            .map(|f| serde_json::json!({"what": f.what, "why": f.why, "fix": f.fix}))
            .collect();
        print_json(
            out,
            &serde_json::json!({
                "message": message,
                "tool_calls": tool_calls,
                "prompt_found": turn.prompt_found,
                "write_log_records": records.len(),
                "claims": claims,
                "failures": failures,
                "notes": result.notes,
                "readings": explain.then(|| crate::audit::readings_json(&message, &result)),
                "verdict": if unbacked { "block" } else { "pass" },
            }),
        )?;
        return if unbacked {
            Ok(ExitCode::from(1))
        } else {
            Ok(ExitCode::SUCCESS)
        };
    }
    writeln!(
        out,
        "turn: {tool_calls} tool calls{}, {} write-log records",
        if turn.prompt_found {
            ""
        } else {
            " (its prompt line was not found)"
        },
        records.len()
    )?;
    if explain {
        write!(out, "{}", crate::audit::explain_text(&message, &result))?;
    }
    if result.claims.is_empty() {
        writeln!(out, "no claims found in the message")?;
    }
    for (claim, verdict) in &result.claims {
        match verdict {
            Ok(evidence) => writeln!(
                out,
                "backed: {} in \"{}\"\n  evidence: {evidence}",
                claim.kind, claim.sentence
            )?,
            Err(f) => writeln!(
                out,
                "NOT backed{}: {} in \"{}\"\n  why: {}\n  to back it: {}",
                if f.blocks {
                    ""
                } else {
                    " (weak reading: reported, never blocks)"
                },
                claim.kind,
                claim.sentence,
                f.why,
                f.fix
            )?,
        }
    }
    for f in &result.failures {
        writeln!(out, "failure not mentioned: {}: {}", f.what, f.why)?;
    }
    for n in &result.notes {
        writeln!(out, "note: {n}")?;
    }
    if !unbacked {
        writeln!(out, "verdict: the stop would go through")?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(out, "verdict: the stop would be blocked")?;
        Ok(ExitCode::from(1))
    }
}
