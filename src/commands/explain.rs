//! `did-it-actually explain`: how both guards read a shell command.

use super::*;

pub fn run(
    command: &str,
    cwd: Option<PathBuf>,
    json: bool,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let vars = env.as_fn();
    let (cwd, policy) = match cwd_and_policy(
        env,
        cwd,
        "; block-wrong-branch denies every command until it is fixed",
    ) {
        Ok(found) => found,
        Err(e) => return Err(CommandError::new(e)),
    };
    use crate::hooks::block_wrong_branch::{explain, Decision};
    // The agent's commands (and its hooks) get the env of its settings on top of this
    // environment: read the command as the agent's shell would run it.
    let agent = crate::runtime::activation::agent_env(&cwd, vars);
    let vars: &dyn Fn(&str) -> Option<OsString> = &agent;
    let e = explain(command, &cwd, &policy, vars);
    let scope = crate::scope::Scope::new(&policy, &cwd, vars);
    let writes =
        crate::hooks::scope_guard::explain_command(command, &cwd, &scope, vars, Some(&policy));
    let scope_reason = writes.denials.first();
    let surfaces = writes.surfaces(&scope.root, vars);
    if json {
        let (verdict, reason) = match &e.decision {
            Decision::Allow => ("allow", None),
            Decision::AllowNoted(r) => ("allow", Some(r)),
            Decision::Deny(r) => ("deny", Some(r)),
        };
        print_json(
            out,
            &serde_json::json!({
                "command": command,
                "cwd": cwd,
                "policy": policy.source.to_string(),
                "protected": policy.branches.describe_protected(),
                "remote_defaults": remote_defaults(&policy, &cwd),
                "trace": e.trace,
                "layers": e.layers.describe(),
                "not_read": e.unread,
                "verdict": verdict,
                "reason": reason,
                "scope": {
                    "root": scope.root,
                    "layers": crate::runtime::confine::describe_layers(&policy, vars),
                    "writes": writes.notes,
                    "run_time": writes.run_time,
                    "left_to_run_time": writes.deferred,
                    "surfaces": surfaces,
                    "verdict": if scope_reason.is_some() { "deny" } else { "allow" },
                    "reason": scope_reason,
                },
            }),
        )?;
    } else {
        write!(out, "{}", e.text(&cwd, &policy))?;
        if command.contains("git") {
            for line in remote_defaults(&policy, &cwd) {
                writeln!(out, "  remote default: {line}")?;
            }
        }
        writeln!(out, "scope-guard, root {}:", scope.root.display())?;
        writeln!(
            out,
            "  layers: {}",
            crate::runtime::confine::describe_layers(&policy, vars)
        )?;
        if writes.notes.is_empty() && writes.denials.is_empty() && writes.deferred.is_empty() {
            writeln!(out, "  no write it can see")?;
        }
        for note in &writes.notes {
            writeln!(out, "  {note}")?;
        }
        if let Some(line) = &writes.run_time {
            writeln!(out, "  {line}")?;
        }
        for note in &writes.deferred {
            writeln!(out, "  left to run time: {note}")?;
        }
        for line in &surfaces {
            writeln!(out, "  {line}")?;
        }
        match scope_reason {
            None => writeln!(
                out,
                "scope verdict: allow (every write it sees is in scope)"
            )?,
            Some(reason) => writeln!(out, "scope verdict: deny\n{reason}")?,
        }
    }
    match (&e.decision, scope_reason) {
        (Decision::Allow | Decision::AllowNoted(_), None) => Ok(ExitCode::SUCCESS),
        _ => Ok(ExitCode::from(1)),
    }
}

/// The remotes' default branches the policy protects, and how each was found.
fn remote_defaults(policy: &Policy, cwd: &Path) -> Vec<String> {
    if !policy.branches.protect_remote_default {
        return Vec::new();
    }
    super::policy::remote_default_lines(cwd)
}
