//! `did-it-actually check-path`: how scope-guard judges one path.

use super::*;

pub fn run(
    path: &str,
    cwd: Option<PathBuf>,
    json: bool,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let vars = env.as_fn();
    let (cwd, policy) = match cwd_and_policy(
        env,
        cwd,
        "; scope-guard denies every write until it is fixed",
    ) {
        Ok(found) => found,
        Err(e) => return Err(CommandError::new(e)),
    };
    let scope = crate::scope::Scope::new(&policy, &cwd, vars);
    let j = scope.judge_tool_path(path, &cwd, crate::scope::How::default());
    // The run-time layer as the agent's commands get it (the settings env on top).
    let agent = crate::runtime::activation::agent_env(&cwd, vars);
    let run_time = crate::runtime::confine::would_allow(&policy, &scope.root, &j.resolved, &agent);
    let state = crate::store::state_root(vars).ok();
    let surface = crate::runtime::surfaces::of_path(
        &crate::fsutil::canonical(&j.resolved),
        &crate::fsutil::canonical(&scope.root),
        state.as_deref().map(crate::fsutil::canonical).as_deref(),
    );
    let run_time_line = match &run_time {
        // A surface of the guard's own: the table says how it is held.
        Ok(_) if surface.is_some() => surface.map(|s| s.layers.to_owned()).unwrap_or_default(),
        Ok((true, why)) => format!("a program the agent's shell starts may write it ({why})"),
        Ok((false, why)) => {
            format!("the kernel refuses a write by any program the agent's shell starts: {why}")
        }
        Err(why) => format!("off ({why})"),
    };
    if json {
        print_json(
            out,
            &serde_json::json!({
                "path": path,
                "resolved": j.resolved,
                "root": scope.root,
                "policy": policy.source.to_string(),
                "rule": j.rule,
                "verdict": if j.allowed { "allow" } else { "deny" },
                "advice": (!j.allowed).then(|| scope.advice(&j)),
                "run_time": run_time_line,
                "surface": surface.map(|s| serde_json::json!({"name": s.name, "why": s.why, "change": s.change})),
            }),
        )?;
        return if j.allowed {
            Ok(ExitCode::SUCCESS)
        } else {
            Ok(ExitCode::from(1))
        };
    }
    writeln!(out, "path: {path}")?;
    writeln!(out, "resolves to: {}", j.resolved.display())?;
    writeln!(out, "project root: {}", scope.root.display())?;
    writeln!(out, "policy: {}", policy.source)?;
    writeln!(out, "rule: {}", j.rule)?;
    writeln!(out, "run-time layer: {run_time_line}")?;
    if let Some(s) = surface {
        writeln!(
            out,
            "protected surface: {} ({}); to change it: {}",
            s.name, s.why, s.change
        )?;
    }
    if j.allowed {
        writeln!(out, "verdict: allow")?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(out, "verdict: deny. {}", scope.advice(&j))?;
        Ok(ExitCode::from(1))
    }
}
