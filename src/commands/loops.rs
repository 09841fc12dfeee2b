//! `did-it-actually loop start|status|cancel`: completion-promise loops.

use super::*;

pub fn run(cmd: LoopCommand, env: &Env, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    use crate::loops::{self, LoopState, Status};
    let vars = env.as_fn();
    let root = match crate::store::state_root(vars) {
        Ok(r) => r,
        Err(e) => return Err(CommandError::new(e)),
    };
    let (LoopCommand::Start { cwd, .. }
    | LoopCommand::Status { cwd }
    | LoopCommand::Cancel { cwd }) = &cmd;
    let project = match project_dir(env, cwd.clone()) {
        Ok(p) => p,
        Err(e) => return Err(CommandError::new(e)),
    };
    let path = loops::state_path(&root, &project);
    match cmd {
        LoopCommand::Start {
            promise,
            max_iterations,
            prompt,
            prompt_file,
            ..
        } => {
            if loops::normalize(&promise).is_empty() {
                return Err(CommandError::new("--promise must not be empty"));
            }
            let prompt = match (prompt, prompt_file) {
                (Some(p), _) => p,
                (None, Some(f)) => match std::fs::read_to_string(&f) {
                    Ok(t) => t,
                    Err(e) => {
                        return Err(CommandError::new(format!(
                            "cannot read the prompt file {}: {e}",
                            f.display()
                        )))
                    }
                },
                (None, None) => "Continue the task.".to_owned(),
            };
            let state = LoopState {
                v: 1,
                project: project.clone(),
                promise,
                prompt,
                max_iterations,
                session: None,
                iteration: 0,
                status: Status::Active,
            };
            match loops::save(&path, &state) {
                Ok(()) => {
                    writeln!(
                        out,
                        "did-it-actually: loop started for {} (state: {}).",
                        project.display(),
                        path.display()
                    )?;
                    writeln!(out, "The next session to stop there must finish with <promise>{}</promise>; at most {max_iterations} iterations.", state.promise)?;
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => Err(CommandError::new(e)),
            }
        }
        LoopCommand::Status { .. } => match loops::load(&path) {
            Ok(Some(s)) => {
                writeln!(
                    out,
                    "loop for {}: {:?}, iteration {} of {}, promise {:?}, session {}",
                    s.project.display(),
                    s.status,
                    s.iteration,
                    s.max_iterations,
                    s.promise,
                    s.session.as_deref().unwrap_or("(not bound yet)")
                )?;
                Ok(ExitCode::SUCCESS)
            }
            Ok(None) => {
                writeln!(out, "no loop for {}", project.display())?;
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => Err(CommandError::new(e)),
        },
        LoopCommand::Cancel { .. } => match std::fs::remove_file(&path) {
            Ok(()) => {
                writeln!(
                    out,
                    "did-it-actually: the loop for {} is cancelled.",
                    project.display()
                )?;
                Ok(ExitCode::SUCCESS)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                writeln!(out, "no loop for {}", project.display())?;
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => Err(CommandError::new(format!(
                "cannot remove {}: {e}",
                path.display()
            ))),
        },
    }
}
