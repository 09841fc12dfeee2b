//! The pi world: see [`super`]. pi **0.73.1** (npm `@mariozechner/pi-coding-agent`), run as
//! `did-it-actually run -- <cache>/node_modules/.bin/pi --provider mock --model mock-model
//! -p PROMPT` (print mode: one prompt, the final text on stdout, exit) against
//! [`MockChat`], with `PI_OFFLINE=1` (no update check, no install telemetry).
//!
//! Set-up: the provider is `~/.pi/agent/models.json` (pi's documented custom-provider file:
//! `api: "openai-completions"`, `baseUrl` with `/v1`, `apiKey`, one model
//! `{"id": "mock-model"}`; `compat` without the developer role and `reasoning_effort`, as
//! for local servers), written before each run with that run's port. Nothing else is
//! configured: no `settings.json` (which `run` keeps read-only where it exists).
//!
//! What real runs showed (0.73.1):
//! - `.bin/pi` is a symlink to the package's `dist/cli.js` (`#!/usr/bin/env node`): started
//!   by that path, `run` names the agent `pi` and node is the process it replaces.
//! - Every request offers the same 4 tools, `read`, `bash`, `edit`, `write`; no side
//!   requests (titles, compaction) in a short turn. `stream: true` with
//!   `stream_options.include_usage`, `max_completion_tokens: 16384`, the system prompt as a
//!   `system` message, the prompt as a list of text parts.
//! - `write {path, content}` takes a path relative to the cwd (the result reads
//!   "Successfully wrote N bytes to PATH"); `bash {command}` runs it with stdout and stderr
//!   merged, the result ending "Command exited with code N" when N is not 0.
//! - Writes: the session in `~/.pi/agent/sessions/--<cwd with - for />--/<time>_<id>.jsonl`
//!   and `~/.pi/agent/auth.json`; under `run` both land (`~/.pi`, pi's own state); strace
//!   saw no refused call in an honest turn.
//! - A turn takes about 1.5 s.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{json, Value};

use super::super::mock_chat::{self, Block, MockChat, Step};
use super::{
    install_once, install_step, mkdir, new_world, or_skip, output_of, run_agent, Action, AgentKind,
    Turn, World,
};

/// The pi release the world pins.
pub const VERSION: &str = "0.73.1";

/// The provider and model names in `models.json` (the model is sent to the mock).
pub const PROVIDER: &str = "mock";
pub const MODEL: &str = "mock-model";

fn install_dir() -> PathBuf {
    super::super::hosts::cache_dir().join(format!("pi-{VERSION}"))
}

/// `node_modules/.bin/pi`, installed on first use (~205 MB).
pub fn program() -> Result<PathBuf, String> {
    static PROGRAM: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PROGRAM
        .get_or_init(|| {
            let dir = install_dir();
            let program = dir.join("node_modules/.bin/pi");
            let check = || -> Result<(), String> {
                let version = output_of(&program, &["--version"])?;
                if version == VERSION {
                    Ok(())
                } else {
                    Err(format!(
                        "{} is pi {version:?}, expected {VERSION}",
                        program.display()
                    ))
                }
            };
            let install = || -> Result<(), String> {
                let package = format!("@mariozechner/pi-coding-agent@{VERSION}");
                eprintln!(
                    "e2e: installing {package} into {} (one time, ~205 MB)",
                    dir.display()
                );
                let mut npm = Command::new("npm");
                npm.arg("install")
                    .arg("--prefix")
                    .arg(&dir)
                    .args(["--no-audit", "--no-fund", "--no-save", "--loglevel=error"])
                    .arg(&package);
                install_step(npm, &format!("npm install {package}"))
            };
            install_once(&dir, &check, &install)?;
            Ok(program)
        })
        .clone()
}

pub fn world() -> Option<World> {
    let program = or_skip("pi", VERSION, program())?;
    let world = new_world(AgentKind::Pi, program);
    mkdir(&world.home.join(".pi/agent"));
    Some(world)
}

pub fn env() -> Vec<(OsString, OsString)> {
    vec![
        ("PI_OFFLINE".into(), "1".into()),
        ("PI_SKIP_VERSION_CHECK".into(), "1".into()),
        ("PI_TELEMETRY".into(), "0".into()),
    ]
}

/// `~/.pi/agent/models.json`: one OpenAI-compatible provider at `base_url`.
fn write_models(home: &Path, base_url: &str) {
    let models = json!({
        "providers": {
            PROVIDER: {
                "baseUrl": base_url,
                "api": "openai-completions",
                "apiKey": "mock",
                "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
                "models": [{"id": MODEL}],
            }
        }
    });
    fs::write(
        home.join(".pi/agent/models.json"),
        serde_json::to_string_pretty(&models).unwrap(),
    )
    .unwrap();
}

/// The script asking for `actions`: one tool call per model response, then a final text.
pub fn script(actions: &[Action]) -> Vec<Step> {
    let mut steps: Vec<Step> = actions
        .iter()
        .map(|a| {
            Step::new(vec![match a {
                Action::Write { path, content } => {
                    Block::tool("write", json!({"path": path, "content": content}))
                }
                Action::Shell(command) => Block::tool("bash", json!({"command": command})),
            }])
        })
        .collect();
    steps.push(Step::text("Done."));
    steps
}

/// Whether a request is the agent loop: it offers pi's `bash` and `write`.
fn is_agent_loop(body: &Value) -> bool {
    let tools = mock_chat::tool_names(body);
    tools.iter().any(|t| t == "bash") && tools.iter().any(|t| t == "write")
}

pub fn run(world: &World, prompt: &str, actions: &[Action]) -> Turn {
    let mut steps = script(actions);
    mock_chat::assign_ids(&mut steps);
    // The ids of the shell commands' calls, in order.
    let shell_ids: Vec<String> = steps
        .iter()
        .flat_map(|s| &s.blocks)
        .filter_map(|b| match b {
            Block::ToolUse { id, name, .. } if name == "bash" => Some(id.clone()),
            _ => None,
        })
        .collect();
    let api = MockChat::start_with(steps, Box::new(is_agent_loop));
    write_models(&world.home, &api.base_url());
    let mut cmd = world.command();
    cmd.args(["--provider", PROVIDER, "--model", MODEL, "-p", prompt]);
    let (status, stdout, stderr) = run_agent(cmd, "run -- pi -p", &|| {
        format!(
            "mock hits: {:?}\nmock errors: {:?}",
            api.hits(),
            api.errors()
        )
    });
    let requests = api.requests();
    let outputs = shell_ids
        .iter()
        .map(|id| requests.iter().find_map(|r| mock_chat::tool_result(r, id)))
        .collect();
    Turn {
        status,
        outputs,
        side_requests: api.side_requests(),
        mock: format!(
            "mock hits: {:?}\nmock errors: {:?}\nsteps served: {}",
            api.hits(),
            api.errors(),
            api.steps_served()
        ),
        requests,
        stdout,
        stderr,
    }
}
