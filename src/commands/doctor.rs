//! `did-it-actually doctor`: the checklist that says whether the guards really protect the
//! project, with the live self-tests.

use super::*;

pub fn run(
    project: Option<PathBuf>,
    json: bool,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let project = match project_arg(env, project) {
        Ok(p) => p,
        Err(e) => return Err(CommandError::new(e)),
    };
    let binary = match std::env::current_exe().and_then(|p| p.canonicalize()) {
        Ok(b) => b,
        Err(e) => {
            return Err(CommandError::new(format!(
                "cannot find this binary's path: {e}"
            )))
        }
    };
    let vars = env.as_fn();
    let scope = crate::doctor::Subject {
        project,
        home: env.var("HOME").filter(|h| !h.is_empty()).map(PathBuf::from),
        binary,
    };
    let checks = crate::doctor::run(&scope, vars);
    if json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&checks).expect("checks serialize")
        )?;
    } else {
        write!(out, "{}", crate::doctor::render(&checks, color(env)))?;
    }
    if checks.iter().any(|c| c.mark == crate::doctor::Mark::Fail) {
        Ok(ExitCode::from(1))
    } else {
        Ok(ExitCode::SUCCESS)
    }
}
