//! Running the other hosts' real binaries (Codex CLI, Gemini CLI, Copilot CLI, Qwen Code,
//! droid) offline: each pinned by version, installed from npm into a cache on first use,
//! driven non-interactively in a scratch HOME and project against a loopback mock of the
//! model API shape it speaks (see shared/docs/hosts.md §3). A [`Bed`] is one host in one
//! scratch world; [`Bed::run`] plays one scripted turn and returns what the model was told.
//!
//! The beds register no hooks of their own: a test installs the guards with
//! `did-it-actually install --host <host>` into [`Bed::home`] (or, for a bed's own smoke
//! test, writes a logging hook by hand) before it runs the turn.

pub mod codex;
pub mod copilot;
pub mod droid;
pub mod gemini;
pub mod opencode;
pub mod qwen;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Command, ExitStatus};

pub use super::mock_api::{Block, Step};
use serde_json::Value;

/// One `#[test]` per host for each scenario: `per_host!(a_scenario)` makes
/// `a_scenario::codex`, `a_scenario::gemini`, … (run one host with `cargo test --test it
/// e2e_hosts:: codex`).
#[macro_export]
macro_rules! per_host {
    ($($scenario:ident),+ $(,)?) => {$(
        mod $scenario {
            use $crate::support::hosts::HostKind;
            #[test]
            fn codex() { super::$scenario(HostKind::Codex) }
            #[test]
            fn gemini() { super::$scenario(HostKind::Gemini) }
            #[test]
            fn copilot() { super::$scenario(HostKind::Copilot) }
            #[test]
            fn qwen() { super::$scenario(HostKind::Qwen) }
            #[test]
            fn droid() { super::$scenario(HostKind::Droid) }
            #[test]
            fn opencode() { super::$scenario(HostKind::Opencode) }
        }
    )+};
}

/// The hosts the tests run for real.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostKind {
    Codex,
    Gemini,
    Copilot,
    Qwen,
    Droid,
    Opencode,
}

impl HostKind {
    pub const ALL: [HostKind; 5] = [
        HostKind::Codex,
        HostKind::Gemini,
        HostKind::Copilot,
        HostKind::Qwen,
        HostKind::Droid,
    ];

    /// The name `did-it-actually install --host` takes.
    pub fn name(self) -> &'static str {
        match self {
            HostKind::Codex => "codex",
            HostKind::Gemini => "gemini",
            HostKind::Copilot => "copilot",
            HostKind::Qwen => "qwen",
            HostKind::Droid => "droid",
            HostKind::Opencode => "opencode",
        }
    }
}

/// Where host binaries are installed: `$DID_IT_ACTUALLY_HOST_CACHE`, else
/// `<target dir>/hosts` (cached across runs, never committed, removed by `cargo clean`).
pub fn cache_dir() -> PathBuf {
    match std::env::var_os("DID_IT_ACTUALLY_HOST_CACHE") {
        Some(dir) => PathBuf::from(dir),
        None => super::claude::target_dir().join("hosts"),
    }
}

/// What one scripted turn showed.
#[derive(Debug)]
pub struct Run {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    /// Every agent-loop request body the mock received, in arrival order (side queries
    /// such as titles are left out).
    pub requests: Vec<Value>,
    /// For the n-th scripted tool call of the whole script (0-based, in script order):
    /// the text the host sent back to the model as its result, or `None` when the host
    /// never sent one.
    pub tool_results: Vec<Option<String>>,
    /// Texts the model was given after the first prompt that are not tool results: hook
    /// context the host delivers as a message (Codex's developer messages), stop-hook
    /// prompts delivered as user messages, in arrival order, without duplicates.
    pub messages: Vec<String>,
    /// How many script steps the mock served.
    pub steps_served: usize,
}

impl Run {
    /// Everything the model was shown over the turn, flattened (tool results and
    /// messages), for assertions that do not care where a text landed.
    pub fn told(&self) -> String {
        let mut out: Vec<&str> = self
            .tool_results
            .iter()
            .flatten()
            .map(String::as_str)
            .collect();
        out.extend(self.messages.iter().map(String::as_str));
        out.join("\n")
    }

    /// The run for a failure message: status, steps, what the model got, the output.
    pub fn describe(&self) -> String {
        format!(
            "status {}\nsteps {}\ntool_results {:?}\nmessages {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.status, self.steps_served, self.tool_results, self.messages, self.stdout, self.stderr
        )
    }

    /// The result the model got for the n-th scripted tool call.
    pub fn tool_result(&self, n: usize) -> Option<&str> {
        self.tool_results.get(n).and_then(|r| r.as_deref())
    }
}

/// One host in one scratch world.
pub struct Bed {
    pub host: HostKind,
    /// The scratch HOME (with the host's XDG directories under it).
    pub home: PathBuf,
    /// The project directory the host runs in: `repo.work()`, a clone of `repo.origin()`
    /// (a bare repository with `main` and `feat`) with `main` checked out.
    pub work: PathBuf,
    /// The host's binary.
    pub binary: PathBuf,
    /// The scratch world: `origin.git/`, `work/`, `outside/` (not a repository) and
    /// `home/` (the scratch HOME); removed on drop unless `KEEP_SCRATCH=1`.
    pub repo: super::repo::ScratchRepo,
    /// A program (and its arguments) the host's command starts through: `did-it-actually
    /// run --` for the beds that run the host inside the run-time layers; empty: none.
    pub wrap: Vec<OsString>,
}

impl Bed {
    /// The command that starts `program` in this bed: through [`Bed::wrap`] if any.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        match self.wrap.split_first() {
            None => Command::new(program),
            Some((first, rest)) => {
                let mut c = Command::new(first);
                c.args(rest).arg(program);
                c
            }
        }
    }

    /// A fresh world for `host`, with its binary installed (cached) and its model
    /// provider configured to reach the mock. `None` when the binary cannot be had and
    /// `DID_IT_ACTUALLY_E2E_OPTIONAL=1` (the reason on stderr); otherwise that panics.
    pub fn new(host: HostKind) -> Option<Bed> {
        match host {
            HostKind::Codex => codex::bed(),
            HostKind::Gemini => gemini::bed(),
            HostKind::Copilot => copilot::bed(),
            HostKind::Qwen => qwen::bed(),
            HostKind::Droid => droid::bed(),
            HostKind::Opencode => opencode::bed(),
        }
    }

    /// The environment every process of this world gets (HOME, XDG_*, PATH, the host's
    /// own switches), so `did-it-actually install --host` writes where the host reads.
    pub fn env(&self) -> Vec<(OsString, OsString)> {
        match self.host {
            HostKind::Codex => codex::env(self),
            HostKind::Gemini => gemini::env(self),
            HostKind::Copilot => copilot::env(self),
            HostKind::Qwen => qwen::env(self),
            HostKind::Droid => droid::env(self),
            HostKind::Opencode => opencode::env(self),
        }
    }

    /// Plays one turn: starts the host's mock with `script`, runs the host on `prompt`
    /// in [`Bed::work`], and returns what happened. Bounded by a timeout (a hang fails
    /// the test with the host's output, never blocks the suite).
    pub fn run(&self, prompt: &str, script: Vec<Step>) -> Run {
        match self.host {
            HostKind::Codex => codex::run(self, prompt, script),
            HostKind::Gemini => gemini::run(self, prompt, script),
            HostKind::Copilot => copilot::run(self, prompt, script),
            HostKind::Qwen => qwen::run(self, prompt, script),
            HostKind::Droid => droid::run(self, prompt, script),
            HostKind::Opencode => opencode::run(self, prompt, script),
        }
    }

    /// The host's shell tool running `command` in the project directory.
    pub fn shell(&self, command: &str) -> Block {
        match self.host {
            HostKind::Codex => codex::shell(command),
            HostKind::Gemini => gemini::shell(command),
            HostKind::Copilot => copilot::shell(command),
            HostKind::Qwen => qwen::shell(command),
            HostKind::Droid => droid::shell(command),
            HostKind::Opencode => opencode::shell(command),
        }
    }

    /// The host's file-creating tool writing `content` to `path` (absolute, or relative
    /// to the project as the host allows).
    pub fn write_file(&self, path: &str, content: &str) -> Block {
        match self.host {
            HostKind::Codex => codex::write_file(path, content),
            HostKind::Gemini => gemini::write_file(path, content),
            HostKind::Copilot => copilot::write_file(path, content),
            HostKind::Qwen => qwen::write_file(path, content),
            HostKind::Droid => droid::write_file(path, content),
            HostKind::Opencode => opencode::write_file(path, content),
        }
    }

    /// The host's edit tool replacing `old` by `new` in `path`.
    pub fn edit_file(&self, path: &str, old: &str, new: &str) -> Block {
        match self.host {
            HostKind::Codex => codex::edit_file(path, old, new),
            HostKind::Gemini => gemini::edit_file(path, old, new),
            HostKind::Copilot => copilot::edit_file(path, old, new),
            HostKind::Qwen => qwen::edit_file(path, old, new),
            HostKind::Droid => droid::edit_file(path, old, new),
            HostKind::Opencode => opencode::edit_file(path, old, new),
        }
    }
}

/// For the beds' own smoke tests: the turn that writes `a.txt` through the shell and then
/// writes and edits `b.txt` did that on disk, took all four steps of its script, and
/// every tool call got a result. `why` describes the run for the failure message.
#[cfg(test)]
pub(crate) fn assert_smoke_turn(bed: &Bed, run: &Run, why: &str) {
    assert!(run.status.success(), "{why}");
    assert_eq!(run.steps_served, 4, "{why}");
    for (file, want) in [("a.txt", "hi\n"), ("b.txt", "bye\n")] {
        assert_eq!(
            std::fs::read_to_string(bed.work.join(file)).ok().as_deref(),
            Some(want),
            "{file}: {why}"
        );
    }
    assert!(
        run.tool_results.iter().all(Option::is_some),
        "every tool got a result: {why}"
    );
}

/// For the beds' own tests: a hook script that appends its stdin (one JSON line) to
/// `log`, then prints the first of `answers` whose extended regex matches that input.
#[cfg(test)]
pub(crate) fn answering_hook(
    bed: &Bed,
    log: &std::path::Path,
    answers: &[(&str, &str)],
) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = bed.repo.dir.join("hook.sh");
    let mut body = format!(
        "#!/bin/sh\ninput=$(cat)\nprintf '%s\\n' \"$input\" >> '{}'\n",
        log.display()
    );
    for (pattern, answer) in answers {
        body.push_str(&format!(
            "if printf '%s' \"$input\" | grep -Eq '{pattern}'; then printf '%s' '{answer}'; exit 0; fi\n"
        ));
    }
    body.push_str("exit 0\n");
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// The JSON lines of `log` (none when it does not exist; a torn line is skipped).
#[cfg(test)]
pub(crate) fn json_lines(log: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// The last `max` bytes of `text` (on a character boundary), for failure messages.
pub fn tail(text: &str, max: usize) -> &str {
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}
