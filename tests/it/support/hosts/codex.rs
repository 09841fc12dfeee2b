//! The Codex CLI bed: see [`super`]. Codex CLI [`CODEX_VERSION`] (`@openai/codex`, its
//! platform binary pinned through the npm alias `@openai/codex@<v>-linux-x64`) runs as
//! `codex exec` against [`MockResponses`], with `~/.codex/config.toml` naming a `mock`
//! provider whose `base_url` each run overrides with `-c` (the file itself is written once,
//! in [`bed`], because our installer later adds hook trust state to it).
//!
//! Hooks registered in `~/.codex/hooks.json` only run once trusted: [`trust_hooks`] does
//! what the TUI's "trust" does, through `codex app-server` (`hooks/list`, then
//! `config/batchWrite` of `hooks.state.<key>.trusted_hash`). [`run`] never passes
//! `--dangerously-bypass-hook-trust`.
//!
//! Where a real run here differs from, or adds to, shared/docs/hosts.md §3.1/§4/§6
//! (Codex 0.171.0, 2026-12-02):
//! - trust: the state is written by Codex itself through the app-server method
//!   `config/batchWrite` (`keyPath: "hooks.state"`, `mergeStrategy: "upsert"`, value
//!   `{<key>: {trusted_hash}}`), not appended by hand as hosts.md does (appending a
//!   `[hooks.state."<key>"]` table breaks the file when that table already exists, e.g.
//!   for a `modified` hook; not tried here). A dotted `keyPath` cannot name the entry (the key holds
//!   dots). Codex writes an empty `[hooks.state]` header followed by one
//!   `[hooks.state."<key>"]` table per hook. Keys seen:
//!   `<HOME>/.codex/hooks.json:pre_tool_use:1:0` (group index 1 = second matcher group);
//! - the Stop prompt's attribute is `hook_run_id="stop:<n>:<abs path of hooks.json>"`
//!   (hosts.md: `stop:…`); PostToolUse `additionalContext` arrives as a developer message
//!   holding exactly the text; a deny's result is `Command blocked by PreToolUse hook:
//!   <R>. Command: <cmd>` (as documented);
//! - `exec_command`'s `function_call_output.output` is `Chunk ID: <hex>\nWall time: …
//!   seconds\nProcess exited with code 0\nOriginal token count: 0\nOutput:\n<out>`;
//!   apply_patch's is `Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated
//!   the following files:\nA b.txt\n`; the hooks' `tool_use_id` is the mock's `call_id`;
//! - tools offered to `gpt-5.5`: `exec_command`, `write_stdin`, `request_user_input`,
//!   `apply_patch`, `view_image`, `get_goal`, `create_goal`, `update_goal`,
//!   `tool_search`, `web_search`;
//! - the run sent only `POST /v1/responses` agent-loop requests (no side queries, no GETs);
//!   the mock also puts `type` and `sequence_number` into every SSE `data` object;
//! - stderr always carries `Reading additional input from stdin...` (stdin is null) and,
//!   with HOME under the temp dir, `WARNING: proceeding, even though we could not create
//!   PATH aliases: Refusing to create helper binaries under temporary dir`; harmless;
//! - the npm wrapper (`node_modules/.bin/codex`, used as the binary) execs
//!   `@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex`; the install is
//!   424 MB (codex 315 MB, `codex-code-mode-host` 70 MB, `rg`, `bwrap`).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::super::claude::{optional, wait_with_timeout, Drain, OPTIONAL_ENV};
use super::super::mock_responses::{later_messages, scripted_tool_ids, tool_output, MockResponses};
use super::super::repo::ScratchRepo;
use super::{cache_dir, Bed, Block, HostKind, Run, Step};

/// The Codex CLI release the bed pins.
pub const CODEX_VERSION: &str = "0.171.0";

/// The model slug the bed asks for: one from the bundled catalog, so Codex offers its
/// freeform `apply_patch` tool (an unknown slug gets no apply_patch).
pub const MODEL: &str = "gpt-5.5";

/// Bound on one `codex exec` run; a scripted turn takes seconds.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(120);

/// Bound on the `codex app-server` exchange of [`trust_hooks`].
const APP_SERVER_TIMEOUT: Duration = Duration::from_secs(60);

/// `<cache>/codex-<version>`.
pub fn install_dir() -> PathBuf {
    cache_dir().join(format!("codex-{CODEX_VERSION}"))
}

/// The pinned binary (the npm wrapper, which execs the platform binary), installed on
/// first use. Memoized per process; a file lock serializes npm across processes.
pub fn binary() -> Result<PathBuf, String> {
    static BINARY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BINARY.get_or_init(locate_or_install).clone()
}

fn locate_or_install() -> Result<PathBuf, String> {
    let dir = install_dir();
    let binary = dir.join("node_modules").join(".bin").join("codex");
    if check_version(&binary).is_ok() {
        return Ok(binary);
    }
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let lock_path = dir.join(".install.lock");
    let lock = File::create(&lock_path)
        .map_err(|e| format!("cannot create {}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
    if check_version(&binary).is_ok() {
        return Ok(binary);
    }
    let wrapper = format!("@openai/codex@{CODEX_VERSION}");
    // The wrapper finds its platform binary with require.resolve("@openai/codex-linux-x64");
    // its optionalDependency is that alias, pinned here so a registry lag cannot skip it.
    let platform = format!("@openai/codex-linux-x64@npm:@openai/codex@{CODEX_VERSION}-linux-x64");
    eprintln!(
        "hosts: installing {wrapper} into {} (one time, ~420 MB)",
        dir.display()
    );
    let output = Command::new("npm")
        .arg("install")
        .arg("--prefix")
        .arg(&dir)
        .args([
            "--no-audit",
            "--no-fund",
            "--no-save",
            "--loglevel=error",
            &wrapper,
            &platform,
        ])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run npm to install {wrapper}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "`npm install {wrapper} {platform}` failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    check_version(&binary)?;
    drop(lock);
    Ok(binary)
}

/// `codex --version` prints `codex-cli 0.171.0`.
fn check_version(binary: &Path) -> Result<(), String> {
    let output = Command::new(binary)
        .arg("--version")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let printed = String::from_utf8_lossy(&output.stdout);
    if output.status.success() && printed.split_whitespace().nth(1) == Some(CODEX_VERSION) {
        Ok(())
    } else {
        Err(format!(
            "{} --version printed {:?} ({}), expected codex-cli {CODEX_VERSION}",
            binary.display(),
            printed.trim(),
            output.status
        ))
    }
}

/// `~/.codex` of the bed.
pub fn codex_home(bed: &Bed) -> PathBuf {
    bed.home.join(".codex")
}

/// The provider config. `base_url` is a placeholder: [`run`] overrides it with `-c`.
fn config_toml() -> String {
    format!(
        r#"# Written by the test bed (tests/it/support/hosts/codex.rs).
model = "{MODEL}"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.mock]
name = "Mock"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 60000
"#
    )
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn bed() -> Option<Bed> {
    let binary = match binary() {
        Ok(binary) => binary,
        Err(reason) if optional() => {
            eprintln!(
                "SKIPPED: Codex CLI {CODEX_VERSION} is unavailable ({OPTIONAL_ENV}=1): {reason}"
            );
            return None;
        }
        Err(reason) => panic!(
            "Codex CLI {CODEX_VERSION} is unavailable: {reason}\n\
             (set {OPTIONAL_ENV}=1 to skip the host tests instead)"
        ),
    };
    let repo = ScratchRepo::new("codex", "main");
    let work = repo.work();
    let home = repo.dir.join("home");
    let codex = home.join(".codex");
    fs::create_dir_all(&codex).unwrap_or_else(|e| panic!("create {}: {e}", codex.display()));
    let config = codex.join("config.toml");
    // Merge, not clobber: keep whatever is already there (nothing, in a fresh world).
    let mut text = fs::read_to_string(&config).unwrap_or_default();
    if !text.contains("[model_providers.mock]") {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        // Top-level keys must come before any table: put ours first. The project is
        // trusted, as it would be for a user working in it (project `.codex/` config and
        // hooks load only in a trusted project).
        let project = format!(
            "\n[projects.{}]\ntrust_level = \"trusted\"\n",
            toml_string(&work.to_string_lossy())
        );
        text = format!("{}{project}{text}", config_toml());
        fs::write(&config, text).unwrap_or_else(|e| panic!("write {}: {e}", config.display()));
    }
    Some(Bed {
        host: HostKind::Codex,
        home,
        work,
        binary,
        repo,
        wrap: Vec::new(),
    })
}

pub fn env(bed: &Bed) -> Vec<(OsString, OsString)> {
    let home = &bed.home;
    let mut env: Vec<(OsString, OsString)> = vec![
        ("HOME".into(), home.into()),
        ("CODEX_HOME".into(), home.join(".codex").into()),
        ("XDG_CONFIG_HOME".into(), home.join(".config").into()),
        ("XDG_CACHE_HOME".into(), home.join(".cache").into()),
        ("XDG_DATA_HOME".into(), home.join(".local/share").into()),
        ("XDG_STATE_HOME".into(), home.join(".local/state").into()),
        (
            "PATH".into(),
            std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into()),
        ),
        ("LANG".into(), "C.UTF-8".into()),
        ("NO_COLOR".into(), "1".into()),
        ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
    ];
    if let Some(tmp) = std::env::var_os("TMPDIR") {
        env.push(("TMPDIR".into(), tmp));
    }
    env
}

pub fn run(bed: &Bed, prompt: &str, script: Vec<Step>) -> Run {
    let ids = scripted_tool_ids(&script);
    let mock = MockResponses::start(script);
    let mut cmd = bed.command(&bed.binary);
    cmd.env_clear()
        .envs(env(bed))
        .args(["exec", "--skip-git-repo-check", "--color", "never", "-c"])
        .arg(format!(
            "model_providers.mock.base_url=\"{}\"",
            mock.base_url()
        ))
        .arg("--")
        .arg(prompt)
        .current_dir(&bed.work)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {}: {e}", bed.binary.display()));
    let stdout = Drain::start(child.stdout.take());
    let stderr = Drain::start(child.stderr.take());
    let status = wait_with_timeout(&mut child, RUN_TIMEOUT);
    let (stdout, stderr) = (stdout.finish(), stderr.finish());
    let Some(status) = status else {
        panic!(
            "codex exec timed out after {:?} (killed)\nmock hits: {:?}\nmock errors: {:?}\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
            started.elapsed(),
            mock.hits(),
            mock.errors()
        );
    };
    let requests = mock.requests();
    let tool_results = ids.iter().map(|id| tool_output(&requests, id)).collect();
    let messages = later_messages(&requests, prompt);
    Run {
        status,
        stdout,
        stderr,
        tool_results,
        messages,
        steps_served: mock.steps_served(),
        requests,
    }
}

/// `exec_command {cmd}` (Codex's unified shell tool; hooks see it as `Bash`).
pub fn shell(command: &str) -> Block {
    Block::tool("exec_command", json!({ "cmd": command }))
}

/// `apply_patch` adding `path` (relative to the project, or absolute) with `content`.
pub fn write_file(path: &str, content: &str) -> Block {
    let mut patch = format!("*** Begin Patch\n*** Add File: {path}\n");
    for line in content.lines() {
        patch.push('+');
        patch.push_str(line);
        patch.push('\n');
    }
    patch.push_str("*** End Patch\n");
    Block::tool("apply_patch", Value::String(patch))
}

/// `apply_patch` updating `path`: one hunk replacing the whole lines `old` by `new`
/// (apply_patch matches lines, so `old` must be one or more complete lines).
pub fn edit_file(path: &str, old: &str, new: &str) -> Block {
    let mut patch = format!("*** Begin Patch\n*** Update File: {path}\n@@\n");
    for line in old.lines() {
        patch.push('-');
        patch.push_str(line);
        patch.push('\n');
    }
    for line in new.lines() {
        patch.push('+');
        patch.push_str(line);
        patch.push('\n');
    }
    patch.push_str("*** End Patch\n");
    Block::tool("apply_patch", Value::String(patch))
}

// ---------------------------------------------------------------------------------------
// Hook trust through `codex app-server`.
// ---------------------------------------------------------------------------------------

/// A `codex app-server` over stdio: JSON-RPC, one object per line.
struct AppServer {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: mpsc::Receiver<String>,
    stderr: Option<Drain>,
    deadline: Instant,
    seen: Vec<String>,
}

impl AppServer {
    fn start(bed: &Bed) -> Result<AppServer, String> {
        let mut child = bed
            .command(&bed.binary)
            .env_clear()
            .envs(env(bed))
            .arg("app-server")
            .current_dir(&bed.work)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("spawn codex app-server: {e}"))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(AppServer {
            stdin: child.stdin.take(),
            stderr: Some(Drain::start(child.stderr.take())),
            child,
            lines,
            deadline: Instant::now() + APP_SERVER_TIMEOUT,
            seen: Vec::new(),
        })
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("app-server stdin closed")?;
        writeln!(stdin, "{message}")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("write to codex app-server: {e}"))
    }

    /// Sends request `id` and waits for its response's `result`.
    fn call(&mut self, id: u64, method: &str, params: Value) -> Result<Value, String> {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let left = self.deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).map_err(|_| {
                format!(
                    "no answer from codex app-server to {method} within {APP_SERVER_TIMEOUT:?}; got:\n{}",
                    self.seen.join("\n")
                )
            })?;
            self.seen.push(line.clone());
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("id") != Some(&json!(id)) || message.get("method").is_some() {
                continue; // a notification, or a request from the server
            }
            if let Some(error) = message.get("error") {
                return Err(format!("codex app-server {method} failed: {error}"));
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }

    /// Closes stdin (the server exits on EOF) and reaps it, killing it if it lingers.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        if wait_with_timeout(&mut self.child, Duration::from_secs(10)).is_none() {
            let _ = self.child.kill();
        }
        self.stderr.take().map(Drain::finish).unwrap_or_default()
    }
}

/// `(key, currentHash, trustStatus)` of every hook in a `hooks/list` result that is
/// neither trusted nor managed.
fn untrusted(list: &Value) -> Vec<(String, String, String)> {
    list.get("data")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .flat_map(|entry| {
            entry
                .get("hooks")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        })
        .filter(|hook| {
            !hook
                .get("isManaged")
                .and_then(Value::as_bool)
                .unwrap_or(false)
        })
        .filter_map(|hook| {
            let status = hook.get("trustStatus").and_then(Value::as_str)?.to_owned();
            if status == "trusted" {
                return None;
            }
            Some((
                hook.get("key")?.as_str()?.to_owned(),
                hook.get("currentHash")?.as_str()?.to_owned(),
                status,
            ))
        })
        .collect()
}

/// Trusts every hook Codex sees for the bed (user `~/.codex/hooks.json`, `[hooks]` in
/// config.toml, project hooks), the way a user's "trust" does: asks `codex app-server`
/// for `hooks/list` (`key`, `currentHash`, `trustStatus`), has it write
/// `hooks.state."<key>".trusted_hash = "<currentHash>"` into `~/.codex/config.toml` with
/// `config/batchWrite`, and checks with a second `hooks/list` that they now show
/// `trusted`. Returns how many hooks it trusted (0 when all already were).
///
/// The exchange (one JSON object per line):
/// ```text
/// → {"id":1,"method":"initialize","params":{"clientInfo":{"name":…,"version":…}}}
/// → {"method":"initialized"}
/// → {"id":2,"method":"hooks/list","params":{"cwds":["<work>"]}}
/// ← {"id":2,"result":{"data":[{"cwd":…,"hooks":[{"key":"<file>:pre_tool_use:0:0",
///     "currentHash":"sha256:…","trustStatus":"untrusted","isManaged":false,…}]}]}}
/// → {"id":3,"method":"config/batchWrite","params":{"edits":[{"keyPath":"hooks.state",
///     "mergeStrategy":"upsert","value":{"<key>":{"trusted_hash":"sha256:…"}}}]}}
/// ```
pub fn trust_hooks(bed: &Bed) -> Result<usize, String> {
    let mut server = AppServer::start(bed)?;
    let outcome = (|| {
        server.call(
            1,
            "initialize",
            json!({"clientInfo": {"name": "did-it-actually-tests", "version": "0"}}),
        )?;
        server.send(&json!({"jsonrpc": "2.0", "method": "initialized"}))?;
        let cwds = json!({"cwds": [bed.work]});
        let list = server.call(2, "hooks/list", cwds.clone())?;
        let pending = untrusted(&list);
        if pending.is_empty() {
            return Ok(0);
        }
        let state: BTreeMap<&str, Value> = pending
            .iter()
            .map(|(key, hash, _)| (key.as_str(), json!({ "trusted_hash": hash })))
            .collect();
        server.call(
            3,
            "config/batchWrite",
            json!({"edits": [{"keyPath": "hooks.state", "mergeStrategy": "upsert", "value": state}]}),
        )?;
        let after = server.call(4, "hooks/list", cwds)?;
        let still = untrusted(&after);
        if !still.is_empty() {
            return Err(format!(
                "hooks still not trusted after config/batchWrite: {still:?}\nhooks/list: {after}"
            ));
        }
        Ok(pending.len())
    })();
    let stderr = server.finish();
    outcome.map_err(|e| format!("{e}\n--- codex app-server stderr ---\n{stderr}"))
}

#[cfg(test)]
mod bed_tests {
    //! Smoke tests of the bed itself, with a logging hook registered by hand.

    use super::*;
    use crate::support::hosts::{answering_hook, assert_smoke_turn, json_lines};

    const PRE: &str = r#""hook_event_name" *: *"PreToolUse""#;

    fn register(bed: &Bed, script: &Path) {
        let handler = json!([{"type": "command", "command": script, "timeout": 10}]);
        let hooks = json!({"hooks": {
            "PreToolUse": [{"matcher": "^Bash$", "hooks": handler},
                           {"matcher": "^apply_patch$", "hooks": handler}],
            "PostToolUse": [{"matcher": "", "hooks": handler}],
            "Stop": [{"hooks": handler}],
        }});
        fs::write(
            codex_home(bed).join("hooks.json"),
            serde_json::to_string_pretty(&hooks).unwrap(),
        )
        .unwrap();
    }

    #[test]
    fn codex_bed_runs_a_scripted_turn() {
        let Some(bed) = Bed::new(HostKind::Codex) else {
            return;
        };
        let log = bed.repo.dir.join("hooks.log");
        let script = answering_hook(&bed, &log, &[]);
        register(&bed, &script);
        let trusted = trust_hooks(&bed).expect("trust the hooks");
        assert_eq!(trusted, 4, "four handlers registered");
        assert_eq!(trust_hooks(&bed), Ok(0), "trusting again is a no-op");

        let run = bed.run(
            "write files",
            vec![
                Step::new(vec![bed.shell("echo hi > a.txt")]),
                Step::new(vec![bed.write_file("b.txt", "hello\n")]),
                Step::new(vec![bed.edit_file("b.txt", "hello", "bye")]),
                Step::text("Done."),
            ],
        );
        let why = run.describe();
        if std::env::var_os("BED_DEBUG").is_some() {
            eprintln!(
                "{why}\nREQUESTS {}\nLOG {}",
                serde_json::to_string(&run.requests).unwrap(),
                fs::read_to_string(&log).unwrap_or_default()
            );
        }
        assert_smoke_turn(&bed, &run, &why);
        let events = json_lines(&log);
        let seen: Vec<(String, String)> = events
            .iter()
            .map(|e| {
                (
                    e["hook_event_name"].as_str().unwrap_or("").to_owned(),
                    e["tool_name"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect();
        let pre: Vec<&str> = seen
            .iter()
            .filter(|(e, _)| e == "PreToolUse")
            .map(|(_, t)| t.as_str())
            .collect();
        assert_eq!(
            pre,
            ["Bash", "apply_patch", "apply_patch"],
            "{seen:?}\n{why}"
        );
        let post = seen.iter().filter(|(e, _)| e == "PostToolUse").count();
        assert_eq!(post, 3, "{seen:?}\n{why}");
        assert!(seen.iter().any(|(e, _)| e == "Stop"), "{seen:?}\n{why}");
        let bash = events
            .iter()
            .find(|e| e["tool_name"] == "Bash")
            .expect("a Bash event");
        assert_eq!(bash["tool_input"]["command"], "echo hi > a.txt");
    }

    #[test]
    fn codex_bed_delivers_a_hook_deny_to_the_model() {
        let Some(bed) = Bed::new(HostKind::Codex) else {
            return;
        };
        let log = bed.repo.dir.join("hooks.log");
        let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"NOPE"}}"#;
        let script = answering_hook(&bed, &log, &[(PRE, deny)]);
        register(&bed, &script);
        trust_hooks(&bed).expect("trust the hooks");

        let run = bed.run(
            "write a",
            vec![
                Step::new(vec![bed.shell("echo hi > a.txt")]),
                Step::text("Done."),
            ],
        );
        let why = run.describe();
        assert!(run.status.success(), "{why}");
        assert!(!bed.work.join("a.txt").exists(), "the deny held: {why}");
        let told = run.tool_result(0).unwrap_or_default();
        assert!(told.contains("NOPE"), "the model is told the reason: {why}");
    }

    #[test]
    fn codex_bed_shows_hook_context_and_stop_prompts_as_messages() {
        let Some(bed) = Bed::new(HostKind::Codex) else {
            return;
        };
        let log = bed.repo.dir.join("hooks.log");
        let context = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX-NOTE"}}"#;
        let block = r#"{"decision":"block","reason":"AGAIN-PLEASE"}"#;
        let script = answering_hook(
            &bed,
            &log,
            &[
                (r#""hook_event_name" *: *"PostToolUse""#, context),
                (r#""stop_hook_active" *: *false"#, block),
            ],
        );
        register(&bed, &script);
        trust_hooks(&bed).expect("trust the hooks");

        let run = bed.run(
            "write a",
            vec![
                Step::new(vec![bed.shell("echo hi > a.txt")]),
                Step::text("Done."),
            ],
        );
        let why = run.describe();
        assert!(run.status.success(), "{why}");
        assert!(
            run.messages.iter().any(|m| m.contains("CTX-NOTE")),
            "PostToolUse context arrives as a message: {why}"
        );
        assert!(
            run.messages
                .iter()
                .any(|m| m.starts_with("<hook_prompt") && m.contains("AGAIN-PLEASE")),
            "the Stop block arrives as a <hook_prompt> message: {why}"
        );
        assert_eq!(
            run.requests.len(),
            3,
            "the block bought one more model call: {why}"
        );
    }
}
