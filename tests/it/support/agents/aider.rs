//! The aider world: see [`super`]. aider **0.86.2** (PyPI `aider-chat`, in a venv made by
//! `python3 -m venv` + pip under the host cache), run as
//! `did-it-actually run -- <venv>/bin/aider --model openai/mock-model --openai-api-base URL
//! --openai-api-key mock --edit-format diff --no-gitignore --no-check-update
//! --analytics-disable --no-show-model-warnings --no-show-release-notes --no-auto-lint
//! --no-pretty --no-fancy-input [--no-auto-commits] --message PROMPT` with stdin at end of
//! file, against [`MockChat`] (aider talks to it through litellm's OpenAI provider).
//!
//! What real runs showed (0.86.2), and why the command line is what it is:
//! - aider has no tools: the model's edits are text in its edit format. With
//!   `--edit-format diff` a file is created by a SEARCH/REPLACE block with an empty SEARCH
//!   part; shell commands are fenced ```` ```bash ```` blocks in the same reply. After the
//!   reply aider applies the edits, commits them (`git commit -m MSG --no-verify -- FILES`
//!   through GitPython: `--no-verify` skips pre-commit and commit-msg, not git's
//!   reference-transaction hook), then runs the shell commands, one per line, through
//!   `/bin/sh -c` (Python's `shell=True`, whatever `$SHELL` says: dash here, so no
//!   `$RANDOM`), their output printed on its stdout.
//! - `--yes-always` does **not** run the model's shell commands: their question needs an
//!   explicit yes, and `--yes-always` answers it "n". Without it, with stdin at end of file
//!   and `--no-fancy-input`, every question takes its default answer, which is Yes for
//!   "Create new file?", "Run shell command?" and "Add command output to the chat?": aider
//!   runs the commands the model suggests and adds their output to its chat (for the model's
//!   next request; `--message` ends the session after this reply, so no request shows it).
//!   That is the route the world uses; `--test-cmd`/`--lint-cmd` are not needed.
//! - `--no-show-release-notes`: the first start of a version asks "Would you like to see
//!   what's new", default Yes (aider would then try to open a browser).
//! - `~/.aider.model.metadata.json` names the mock model: without it aider downloads
//!   litellm's price list from raw.githubusercontent.com at start (offline it prints the
//!   error and goes on); `LITELLM_LOCAL_MODEL_COST_MAP=True` keeps litellm to its own copy.
//! - `--no-auto-lint`: aider's built-in linter could ask to fix what it finds, a second
//!   model request; `--no-gitignore`: it would add `.aider*` to `.gitignore`.
//! - Requests: `stream: true`, the model sent as `mock-model`, no `tools`. The agent loop's
//!   system prompt starts "Act as an expert software developer."; each commit asks for a
//!   message in a request of its own ("…generates concise, one-line Git commit
//!   messages"), a side request to the mock, which answers it with its side-query text
//!   (the commit message is then "Scripted session").
//! - aider `git add`s a file it creates even with `--no-auto-commits`.
//! - Writes: in the project `.aider.chat.history.md`, `.aider.input.history`,
//!   `.aider.tags.cache.v4/` (the repo map); in HOME `~/.aider/installs.json` and
//!   `~/.aider/analytics.json` (`--analytics-disable` disables them for good). Under `run`
//!   all of them land (the project, and `~/.aider`, aider's own state); strace saw no
//!   refused call in an honest turn.
//! - A turn takes 4 to 5 s, most of it aider's start (litellm's import).

use std::ffi::OsString;
use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{json, Value};

use super::super::mock_chat::{self, MockChat, Step};
use super::{
    install_once, install_step, new_world, or_skip, output_of, run_agent, Action, AgentKind, Turn,
    World,
};

/// The aider release the world pins.
pub const VERSION: &str = "0.86.2";

/// The model name sent to the mock (aider is told `openai/mock-model`).
pub const MODEL: &str = "mock-model";

fn install_dir() -> PathBuf {
    super::super::hosts::cache_dir().join(format!("aider-{VERSION}"))
}

/// `<venv>/bin/aider`, installed on first use (~690 MB).
pub fn program() -> Result<PathBuf, String> {
    static PROGRAM: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PROGRAM
        .get_or_init(|| {
            let dir = install_dir();
            let python = dir.join("bin/python");
            let program = dir.join("bin/aider");
            let check = || -> Result<(), String> {
                let version = output_of(
                    &python,
                    &[
                        "-c",
                        "import importlib.metadata as m; print(m.version('aider-chat'))",
                    ],
                )?;
                if version != VERSION {
                    return Err(format!(
                        "aider-chat {version} is installed, expected {VERSION}"
                    ));
                }
                if program.is_file() {
                    Ok(())
                } else {
                    Err(format!("{} is missing", program.display()))
                }
            };
            let install = || -> Result<(), String> {
                let package = format!("aider-chat=={VERSION}");
                eprintln!(
                    "e2e: installing {package} into a venv at {} (one time, ~690 MB)",
                    dir.display()
                );
                let mut venv = Command::new("python3");
                venv.args(["-m", "venv"]).arg(&dir);
                install_step(venv, "python3 -m venv")?;
                let mut pip = Command::new(&python);
                pip.args([
                    "-m",
                    "pip",
                    "install",
                    "--disable-pip-version-check",
                    "--quiet",
                    &package,
                ]);
                install_step(pip, &format!("pip install {package}"))
            };
            install_once(&dir, &check, &install)?;
            Ok(program)
        })
        .clone()
}

pub fn world() -> Option<World> {
    let program = or_skip("aider", VERSION, program())?;
    let world = new_world(AgentKind::Aider, program);
    // The model's limits, so aider does not fetch litellm's price list (module doc).
    let metadata = json!({
        format!("openai/{MODEL}"): {
            "max_input_tokens": 128000,
            "max_output_tokens": 4096,
            "input_cost_per_token": 0,
            "output_cost_per_token": 0,
            "litellm_provider": "openai",
            "mode": "chat",
        }
    });
    fs::write(
        world.home.join(".aider.model.metadata.json"),
        serde_json::to_string_pretty(&metadata).unwrap(),
    )
    .unwrap();
    Some(world)
}

/// litellm's own price list, and a wide "terminal": aider's console (rich) wraps what it
/// reports at `COLUMNS`, 80 when unset, which would cut a command's `Running …` line.
pub fn env() -> Vec<(OsString, OsString)> {
    vec![
        ("LITELLM_LOCAL_MODEL_COST_MAP".into(), "True".into()),
        ("COLUMNS".into(), "1000".into()),
    ]
}

/// The model's reply asking for `actions`: a SEARCH/REPLACE block per file (an empty
/// SEARCH creates it), a fenced bash block per command. It names no file of the
/// repository in prose (aider would ask to add it to the chat and ask the model again).
pub fn reply(actions: &[Action]) -> String {
    let mut text = String::from("Here is the change.\n\n");
    for action in actions {
        match action {
            Action::Write { path, content } => {
                let content = if content.ends_with('\n') {
                    content.clone()
                } else {
                    format!("{content}\n")
                };
                text.push_str(&format!(
                    "{path}\n```\n<<<<<<< SEARCH\n=======\n{content}>>>>>>> REPLACE\n```\n\n"
                ));
            }
            Action::Shell(command) => {
                text.push_str(&format!("```bash\n{command}\n```\n\n"));
            }
        }
    }
    text
}

/// Whether a request is the agent loop: every request but the commit-message ones.
fn is_agent_loop(body: &Value) -> bool {
    !mock_chat::role_texts(body, "system")
        .iter()
        .any(|t| t.contains("one-line Git commit messages"))
}

pub fn run(world: &World, prompt: &str, actions: &[Action]) -> Turn {
    let api = MockChat::start_with(
        vec![Step::text(reply(actions)), Step::text("Done.")],
        Box::new(is_agent_loop),
    );
    let mut cmd = world.command();
    cmd.args(["--model", &format!("openai/{MODEL}")])
        .args(["--openai-api-base", &api.base_url()])
        .args(["--openai-api-key", "mock", "--edit-format", "diff"])
        .args([
            "--no-gitignore",
            "--no-check-update",
            "--analytics-disable",
            "--no-show-model-warnings",
            "--no-show-release-notes",
            "--no-auto-lint",
            "--no-pretty",
            "--no-fancy-input",
        ]);
    if !world.auto_commits {
        cmd.arg("--no-auto-commits");
    }
    cmd.args(["--message", prompt]);
    let (status, stdout, stderr) = run_agent(cmd, "run -- aider --message", &|| {
        format!(
            "mock hits: {:?}\nmock errors: {:?}",
            api.hits(),
            api.errors()
        )
    });
    let outputs = actions
        .iter()
        .filter_map(|a| match a {
            Action::Shell(command) => Some(command_output(&stdout, command)),
            Action::Write { .. } => None,
        })
        .collect();
    Turn {
        status,
        outputs,
        requests: api.requests(),
        side_requests: api.side_requests(),
        mock: format!(
            "mock hits: {:?}\nmock errors: {:?}",
            api.hits(),
            api.errors()
        ),
        stdout,
        stderr,
    }
}

/// What aider printed as `command`'s output: the lines after `Running COMMAND` up to its
/// next question (or the next command, or the end).
fn command_output(stdout: &str, command: &str) -> Option<String> {
    let marker = format!("Running {command}\n");
    let start = stdout.find(&marker)? + marker.len();
    let rest = &stdout[start..];
    let end = ["Add command output to the chat?", "\nRunning "]
        .iter()
        .filter_map(|m| rest.find(m))
        .min()
        .unwrap_or(rest.len());
    Some(rest[..end].to_owned())
}
