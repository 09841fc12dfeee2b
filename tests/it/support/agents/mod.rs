//! Agents with no hooks at all, run for real inside `did-it-actually run --`: aider (PyPI
//! `aider-chat`, see [`aider`]) and pi (npm `@mariozechner/pi-coding-agent`, see [`pi`]).
//! Each is pinned by version, installed on first use into the host cache (beside the hosts'
//! binaries, `<target dir>/hosts`, under a file lock) and driven non-interactively in a
//! scratch HOME and project against [`MockChat`](super::mock_chat::MockChat), the loopback
//! OpenAI Chat Completions mock: both speak that API to a custom endpoint.
//!
//! A [`World`] is one agent in one scratch world; [`World::run`] plays one turn in which the
//! model asks for a list of [`Action`]s (write a file, run a shell command) in the agent's
//! own terms: pi's `write` and `bash` tool calls, one per model response; aider's one reply
//! with SEARCH/REPLACE blocks and fenced shell commands, which aider applies and then runs.
//! Every run starts the agent as `did-it-actually run -- AGENT ARGS…`, so only the run-time
//! layers (git's hooks, the kernel's confinement of writes) stand between the agent and the
//! disk, the repository and its remote.

pub mod aider;
pub mod pi;

use std::ffi::OsString;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::claude;
use super::repo::ScratchRepo;

/// One `#[test]` per agent for each scenario: `per_agent!(a_scenario)` makes
/// `a_scenario::aider` and `a_scenario::pi` (run one agent with `cargo test --test it
/// e2e_run_unhooked:: pi`).
#[macro_export]
macro_rules! per_agent {
    ($($scenario:ident),+ $(,)?) => {$(
        mod $scenario {
            use $crate::support::agents::AgentKind;
            #[test]
            fn aider() { super::$scenario(AgentKind::Aider) }
            #[test]
            fn pi() { super::$scenario(AgentKind::Pi) }
        }
    )+};
}

/// The `did-it-actually` binary every run starts the agent through.
pub const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

/// How long one turn may take before the agent (and `run`, which it replaced) is killed.
/// A turn takes 2 to 8 s; this only turns a hang into a failure with the agent's output.
pub const TIMEOUT: Duration = Duration::from_secs(90);

/// The agents the tests run for real.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentKind {
    Aider,
    Pi,
}

impl AgentKind {
    /// The name `run` gives the agent (from the program it starts), and so the `host` on
    /// what its git refusals record.
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Aider => "aider",
            AgentKind::Pi => "pi",
        }
    }
}

/// One thing the scripted model asks the agent to do.
#[derive(Clone, Debug)]
pub enum Action {
    /// Create the file `path` (relative to the project) with `content`.
    Write { path: String, content: String },
    /// Run `command` in the project through the agent's shell.
    Shell(String),
}

impl Action {
    pub fn write(path: &str, content: &str) -> Action {
        Action::Write {
            path: path.to_owned(),
            content: content.to_owned(),
        }
    }

    pub fn shell(command: &str) -> Action {
        Action::Shell(command.to_owned())
    }
}

/// One agent in one scratch world.
pub struct World {
    pub agent: AgentKind,
    /// The scratch HOME (XDG directories under it; the guard's state, and so its ledger,
    /// in `.local/state/did-it-actually`).
    pub home: PathBuf,
    /// The project the agent runs in: `repo.work()`, a clone of `repo.origin()` (a bare
    /// repository with `main` and `feat`) with `main` checked out.
    pub work: PathBuf,
    /// The agent's program, as `run` is given it (its name names the agent).
    pub program: PathBuf,
    /// The scratch world, removed on drop unless `KEEP_SCRATCH=1`.
    pub repo: ScratchRepo,
    /// aider only: whether aider commits its own edits (its default; `false` passes
    /// `--no-auto-commits`). pi has no such thing.
    pub auto_commits: bool,
}

/// What one turn showed.
#[derive(Debug)]
pub struct Turn {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    /// Every agent-loop request body the mock received, in arrival order.
    pub requests: Vec<Value>,
    /// The other requests (aider's commit-message requests), in arrival order.
    pub side_requests: Vec<Value>,
    /// For the n-th [`Action::Shell`] of the turn: the output the agent got back from the
    /// command (pi: the `bash` tool's result it sent the model; aider: what it printed
    /// under `Running COMMAND` and then added to its chat), `None` when it never ran.
    pub outputs: Vec<Option<String>>,
    /// The mock's view: the requests it saw and the protocol errors it met.
    pub mock: String,
}

impl Turn {
    /// The output the agent got back from the n-th shell command of the turn.
    pub fn output(&self, n: usize) -> Option<&str> {
        self.outputs.get(n).and_then(|o| o.as_deref())
    }

    /// The turn for a failure message.
    pub fn describe(&self) -> String {
        format!(
            "status {}\noutputs {:?}\nagent-loop requests {}, side requests {}\n{}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.status,
            self.outputs,
            self.requests.len(),
            self.side_requests.len(),
            self.mock,
            super::hosts::tail(&self.stdout, 6000),
            super::hosts::tail(&self.stderr, 3000)
        )
    }
}

impl World {
    /// A fresh world for `agent`, with the agent installed (cached) and set up to reach the
    /// mock. `None` when it cannot be had and `DID_IT_ACTUALLY_E2E_OPTIONAL=1` (the reason
    /// on stderr); otherwise that panics.
    pub fn new(agent: AgentKind) -> Option<World> {
        match agent {
            AgentKind::Aider => aider::world(),
            AgentKind::Pi => pi::world(),
        }
    }

    /// Plays one turn: starts the mock with a script asking for `actions`, runs the agent
    /// on `prompt` in [`World::work`] as `did-it-actually run -- AGENT …`, and returns what
    /// happened. Bounded by [`TIMEOUT`].
    pub fn run(&self, prompt: &str, actions: &[Action]) -> Turn {
        match self.agent {
            AgentKind::Aider => aider::run(self, prompt, actions),
            AgentKind::Pi => pi::run(self, prompt, actions),
        }
    }

    /// The command that starts `program` through `did-it-actually run --`, in the
    /// project, with only this world's environment.
    pub fn command(&self) -> Command {
        let mut c = Command::new(BIN);
        c.args(["run", "--"])
            .arg(&self.program)
            .env_clear()
            .envs(self.env())
            .current_dir(&self.work);
        c
    }

    /// HOME and XDG_* under the world's home, the inherited PATH and locale, git isolated
    /// from the machine's config, colours off; plus the agent's own switches.
    pub fn env(&self) -> Vec<(OsString, OsString)> {
        let home = &self.home;
        let mut env: Vec<(OsString, OsString)> = vec![
            ("HOME".into(), home.clone().into()),
            ("XDG_CONFIG_HOME".into(), home.join(".config").into()),
            ("XDG_CACHE_HOME".into(), home.join(".cache").into()),
            ("XDG_DATA_HOME".into(), home.join(".local/share").into()),
            ("XDG_STATE_HOME".into(), home.join(".local/state").into()),
            ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
            ("NO_COLOR".into(), "1".into()),
            ("TERM".into(), "dumb".into()),
            ("USER".into(), "tester".into()),
            ("LOGNAME".into(), "tester".into()),
            ("SHELL".into(), "/bin/bash".into()),
        ];
        for key in ["PATH", "LANG", "LC_ALL", "TMPDIR"] {
            if let Some(v) = std::env::var_os(key) {
                env.push((key.into(), v));
            }
        }
        env.extend(match self.agent {
            AgentKind::Aider => aider::env(),
            AgentKind::Pi => pi::env(),
        });
        env
    }

    /// Every record of every session in the world's ledger.
    pub fn ledger(&self) -> Vec<Value> {
        super::ledger_records(&self.home.join(".local/state/did-it-actually"))
    }
}

/// A fresh scratch world (repositories, HOME with its XDG directories) for `agent`.
fn new_world(agent: AgentKind, program: PathBuf) -> World {
    let repo = ScratchRepo::new(&format!("unhooked-{}", agent.name()), "main");
    let work = repo.work();
    let home = repo.dir.join("home");
    for sub in [".config", ".cache", ".local/share", ".local/state"] {
        mkdir(&home.join(sub));
    }
    World {
        agent,
        home,
        work,
        program,
        repo,
        auto_commits: true,
    }
}

fn mkdir(dir: &Path) {
    fs::create_dir_all(dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
}

/// Runs the agent's command (stdin at end of file, so every question it asks takes its
/// default answer), bounded by [`TIMEOUT`]; a hang panics with its output and
/// `diagnose()` (the mock's view).
fn run_agent(
    cmd: Command,
    what: &str,
    diagnose: &dyn Fn() -> String,
) -> (ExitStatus, String, String) {
    super::hosts::copilot::run_bounded(cmd, what, TIMEOUT, diagnose)
}

/// `Some(program)`, or `None` (reason on stderr) when it cannot be had and
/// `DID_IT_ACTUALLY_E2E_OPTIONAL=1`; otherwise that panics.
fn or_skip(what: &str, version: &str, program: Result<PathBuf, String>) -> Option<PathBuf> {
    match program {
        Ok(path) => Some(path),
        Err(reason) if claude::optional() => {
            eprintln!(
                "SKIPPED: {what} {version} is unavailable ({}=1): {reason}",
                claude::OPTIONAL_ENV
            );
            None
        }
        Err(reason) => panic!(
            "{what} {version} is unavailable: {reason}\n(set {}=1 to skip instead)",
            claude::OPTIONAL_ENV
        ),
    }
}

/// Installs into `dir` unless `check()` already passes: one process at a time (a file
/// lock in `dir`), then `install()` and the check again.
fn install_once(
    dir: &Path,
    check: &dyn Fn() -> Result<(), String>,
    install: &dyn Fn() -> Result<(), String>,
) -> Result<(), String> {
    if check().is_ok() {
        return Ok(());
    }
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let lock_path = dir.join(".install.lock");
    let lock = File::create(&lock_path)
        .map_err(|e| format!("cannot create {}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
    if check().is_ok() {
        return Ok(());
    }
    install()?;
    check()?;
    drop(lock);
    Ok(())
}

/// Runs `program args` and returns what it printed (stdout, then stderr, where pi prints
/// its `--version`), trimmed, or why it failed.
fn output_of(program: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    if out.status.success() {
        Ok(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
        .trim()
        .to_owned())
    } else {
        Err(format!(
            "{} {args:?} failed ({}): {}",
            program.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Runs an install command; its output is the error when it fails.
fn install_step(mut cmd: Command, what: &str) -> Result<(), String> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{what}` failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}
