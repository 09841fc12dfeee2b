//! `did-it-actually run -- AGENT [ARGS...]`: start any agent inside both run-time layers
//! (see [`crate::runtime::run`]).

use super::*;
use crate::runtime::run::{self, Request, Setup};

pub fn run(
    req: Request,
    dry_run: bool,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let program = Path::new(&req.program).display().to_string();
    let setup = match run::setup(&req, !dry_run, env.as_fn()) {
        Ok(s) => s,
        Err(why) => {
            eprintln!("did-it-actually run: {program} was not started: {why}.");
            return Ok(ExitCode::from(126));
        }
    };
    if dry_run {
        describe(&setup, out)?;
        return Ok(ExitCode::SUCCESS);
    }
    for notice in &setup.notices {
        eprintln!("did-it-actually run: {notice}.");
    }
    let (why, code) = run::start(setup, req);
    eprintln!("did-it-actually run: {program} was not started: {why}.");
    Ok(ExitCode::from(code))
}

/// What `--dry-run` prints: each layer, what the agent may write and what stays
/// read-only there, and the variables it gets.
fn describe(s: &Setup, out: &mut dyn Write) -> Result<(), CommandError> {
    writeln!(out, "agent: {} (project {})", s.agent, s.project.display())?;
    match &s.git_hooks {
        Some(hooks) => writeln!(
            out,
            "git layer: on (every git the agent starts runs the hooks in {})",
            hooks.display()
        )?,
        None => writeln!(out, "git layer: off")?,
    }
    match &s.writes {
        Some((protected, allowed)) => {
            writeln!(out, "write layer: on (the kernel refuses every write of the agent and its programs elsewhere)")?;
            for (dir, why) in &allowed.dirs {
                writeln!(out, "  writable: {} ({why})", dir.display())?;
            }
            for (path, what) in &protected.read_only {
                writeln!(out, "  read-only: {} ({what})", path.display())?;
            }
            for dir in &protected.pinned {
                writeln!(out, "  kept in place: {}", dir.display())?;
            }
        }
        None => writeln!(out, "write layer: off")?,
    }
    for notice in &s.notices {
        writeln!(out, "note: {notice}")?;
    }
    for (k, v) in &s.env {
        writeln!(out, "env: {k}={}", v.to_string_lossy())?;
    }
    Ok(())
}
