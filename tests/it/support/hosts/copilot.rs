//! The GitHub Copilot CLI bed: see [`super`]. Copilot CLI **1.0.102** (npm
//! `@github/copilot@1.0.102` plus `@github/copilot-linux-x64@1.0.102`, pinned explicitly),
//! driven with `copilot --allow-all --disable-client-telemetry -p PROMPT` in BYOK mode
//! (`COPILOT_PROVIDER_TYPE=anthropic`, `COPILOT_MODEL=claude-sonnet-4.5`) against
//! [`MockApi`], the Anthropic mock of the Claude bed, unchanged. The base URL
//! (`COPILOT_PROVIDER_BASE_URL`) is set per run, so [`env`] leaves it out; nothing is
//! written under `~/.copilot` by the bed (an installer's `~/.copilot/hooks/*.json` is
//! left alone).
//!
//! Also home to the helpers the Qwen and droid beds share (npm install under a lock, the
//! scrubbed base environment, running a host with a timeout, reading a Messages-API turn,
//! the smoke-test hook scripts): see the "Shared" section. They could move to
//! `hosts/mod.rs`.
//!
//! Set-up choices, and where real runs differ from or add to shared/docs/hosts.md §3.3/§6
//! (1.0.102, all seen in the tests below):
//! - The npm package's bin is a JS loader (`npm-loader.js`) that `spawnSync`s the platform
//!   binary; the bed runs `@github/copilot-linux-x64/copilot` directly, so the timeout's
//!   SIGTERM/SIGKILL reaches the real process.
//! - On first start the binary unpacks its JS (235 MB) into
//!   `$XDG_CACHE_HOME/copilot/pkg/linux-x64/1.0.102`. Instead of 235 MB per bed, the
//!   install step unpacks it once into `<cache>/copilot-1.0.102/xdg-cache` and every run
//!   sets `COPILOT_CLI_DIST_DIR` to it (`copilot help environment`); the bed's own
//!   `XDG_CACHE_HOME` (under HOME) then only gets `Microsoft/DeveloperTools/deviceid`.
//! - `COPILOT_OFFLINE=true` (in `copilot help environment`, not in hosts.md): no GitHub
//!   auth, telemetry, web tools, GitHub MCP server or auto-update. Works with BYOK.
//! - Every user text Copilot sends starts with `<current_datetime>…</current_datetime>\n\n`
//!   (the prompt and a Stop hook's block reason alike; not in hosts.md); [`Run::messages`]
//!   strips it.
//! - Tools offered (17): `bash`, `read_bash`, `stop_bash`, `list_bash`, `view`, `create`,
//!   `edit`, `fetch_copilot_cli_documentation`, `skill`, `sql`, `session_store_sql`,
//!   `read_agent`, `list_agents`, `write_agent`, `grep`, `glob`, `task`. `bash` with only
//!   `{command, description}` is accepted (hosts.md lists `shellId`, `mode`, … too).
//! - `create`/`edit` accept a **relative** `path` (resolved against the cwd: "Created file
//!   <work>/rel.txt"); hosts.md only showed absolute ones. The smoke tests pass absolute
//!   paths, as Copilot's own model does.
//! - Every request of a turn carried `tools` (no side queries were seen).
//! - As in hosts.md: user hooks in `~/.copilot/hooks/*.json` load in `-p` without
//!   `--trust-folder` (the bed does not pass it; repo hooks would need it); the camelCase
//!   payloads match §6; a deny shows the model exactly `Denied by preToolUse hook: R`;
//!   a top-level `additionalContext` is appended to the tool result; an `agentStop`
//!   `decision:block` arrives as the next user message, the next agentStop having
//!   `stop_hook_active:true`.
//! - Writes in HOME: `~/.copilot/{config.json, session-store.db, session-state/<id>/
//!   events.jsonl, logs/, installed-plugins/}`.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::super::claude::{self, Drain};
use super::super::mock_api::{self, MockApi};
use super::super::repo::ScratchRepo;
use super::{Bed, Block, HostKind, Run, Step};

/// The Copilot CLI release the bed pins.
pub const VERSION: &str = "1.0.102";

/// The model id Copilot is told to use: a well-known id, so it offers its full tool set.
pub const MODEL: &str = "claude-sonnet-4.5";

/// How long one scripted turn may take before the host is killed.
pub const TIMEOUT: Duration = Duration::from_secs(120);

fn install_dir() -> PathBuf {
    super::cache_dir().join(format!("copilot-{VERSION}"))
}

/// The unpacked JS package the binary runs (see the module doc).
fn dist_dir() -> PathBuf {
    install_dir()
        .join("xdg-cache")
        .join("copilot")
        .join("pkg")
        .join("linux-x64")
        .join(VERSION)
}

/// The platform binary, installed (and its package unpacked) on first use.
pub fn binary() -> Result<PathBuf, String> {
    static BINARY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            let dir = install_dir();
            let binary = dir.join("node_modules/@github/copilot-linux-x64/copilot");
            let check = |b: &Path| -> Result<(), String> {
                check_version(b, &["--version"], &format!("GitHub Copilot CLI {VERSION}"))?;
                if dist_dir().join("app.js").is_file() {
                    Ok(())
                } else {
                    Err("package not unpacked yet".into())
                }
            };
            npm_install(
                &dir,
                &[
                    &format!("@github/copilot@{VERSION}"),
                    &format!("@github/copilot-linux-x64@{VERSION}"),
                ],
                &binary,
                "~190 MB + 235 MB unpacked",
                &check,
                &|b: &Path| {
                    // Unpack the JS package once, into the shared cache.
                    let out = Command::new(b)
                        .arg("--version")
                        .env("XDG_CACHE_HOME", dir.join("xdg-cache"))
                        .env("COPILOT_AUTO_UPDATE", "false")
                        .stdin(Stdio::null())
                        .output()
                        .map_err(|e| format!("run {}: {e}", b.display()))?;
                    if out.status.success() {
                        Ok(())
                    } else {
                        Err(format!(
                            "unpack failed: {}",
                            String::from_utf8_lossy(&out.stderr)
                        ))
                    }
                },
            )?;
            Ok(binary)
        })
        .clone()
}

pub fn bed() -> Option<Bed> {
    let binary = or_skip("Copilot CLI", VERSION, binary())?;
    let bed = new_bed(HostKind::Copilot, "copilot", binary);
    // Nothing to configure on disk: the provider is all env (per run). ~/.copilot exists
    // so an installer can write ~/.copilot/hooks/ beside whatever Copilot keeps there.
    mkdir(&bed.home.join(".copilot"));
    Some(bed)
}

pub fn env(bed: &Bed) -> Vec<(OsString, OsString)> {
    let mut env = base_env(bed);
    for (k, v) in [
        ("COPILOT_AUTO_UPDATE", "false".to_owned()),
        ("COPILOT_OFFLINE", "true".to_owned()),
        ("COPILOT_PROVIDER_TYPE", "anthropic".to_owned()),
        ("COPILOT_PROVIDER_API_KEY", "mock".to_owned()),
        ("COPILOT_MODEL", MODEL.to_owned()),
        ("COPILOT_CLI_DIST_DIR", dist_dir().display().to_string()),
    ] {
        env.push((k.into(), v.into()));
    }
    env
}

pub fn run(bed: &Bed, prompt: &str, script: Vec<Step>) -> Run {
    let ids = anthropic_tool_ids(&script);
    let api = MockApi::start(script);
    let mut cmd = bed.command(&bed.binary);
    cmd.args(["--allow-all", "--disable-client-telemetry", "-p", prompt])
        .env_clear()
        .envs(env(bed))
        .env("COPILOT_PROVIDER_BASE_URL", api.base_url());
    let (status, stdout, stderr) = run_host(cmd, &bed.work, "copilot -p", &|| {
        format!(
            "mock hits: {:?}\nmock errors: {:?}",
            api.hits(),
            api.errors()
        )
    });
    let mut run = anthropic_run(&api, &ids, status, stdout, stderr);
    for message in &mut run.messages {
        *message = strip_datetime(message).to_owned();
    }
    run
}

/// Copilot starts every user text it sends (the prompt, a Stop hook's reason) with
/// `<current_datetime>…</current_datetime>\n\n`; [`Run::messages`] leaves that out.
fn strip_datetime(text: &str) -> &str {
    text.strip_prefix("<current_datetime>")
        .and_then(|rest| rest.split_once("</current_datetime>"))
        .map_or(text, |(_, rest)| rest.trim_start_matches('\n'))
}

pub fn shell(command: &str) -> Block {
    Block::tool(
        "bash",
        json!({"command": command, "description": "run a command"}),
    )
}

/// Copilot's `create`. `path` is sent as given: absolute (the smoke tests pass
/// `bed.work.join(..)`) or relative to the project (1.0.102 resolves it against its cwd).
pub fn write_file(path: &str, content: &str) -> Block {
    Block::tool("create", json!({"path": path, "file_text": content}))
}

/// Copilot's `edit` (`path` as for [`write_file`]).
pub fn edit_file(path: &str, old: &str, new: &str) -> Block {
    Block::tool(
        "edit",
        json!({"path": path, "old_str": old, "new_str": new}),
    )
}

// ---------------------------------------------------------------------------------------
// Shared with the Qwen and droid beds.
// ---------------------------------------------------------------------------------------

pub(super) fn mkdir(dir: &Path) {
    fs::create_dir_all(dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
}

/// A fresh world: the scratch repositories plus HOME (with its XDG directories).
pub(super) fn new_bed(host: HostKind, name: &str, binary: PathBuf) -> Bed {
    let repo = ScratchRepo::new(&format!("bed-{name}"), "main");
    let work = repo.work();
    let home = repo.dir.join("home");
    for sub in [".config", ".cache", ".local/share", ".local/state"] {
        mkdir(&home.join(sub));
    }
    Bed {
        host,
        home,
        work,
        binary,
        repo,
        wrap: Vec::new(),
    }
}

/// HOME and XDG_* under the bed's home, the inherited PATH and locale, git isolated from
/// the machine's config, colours and telemetry off. Runs `env_clear()` first, so nothing
/// else (no OPENAI_*, ANTHROPIC_*, COPILOT_*, GITHUB_* …) leaks in.
pub(super) fn base_env(bed: &Bed) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = vec![
        ("HOME".into(), bed.home.clone().into()),
        ("XDG_CONFIG_HOME".into(), bed.home.join(".config").into()),
        ("XDG_CACHE_HOME".into(), bed.home.join(".cache").into()),
        ("XDG_DATA_HOME".into(), bed.home.join(".local/share").into()),
        (
            "XDG_STATE_HOME".into(),
            bed.home.join(".local/state").into(),
        ),
        ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
        ("NO_COLOR".into(), "1".into()),
        ("TERM".into(), "dumb".into()),
        ("DO_NOT_TRACK".into(), "1".into()),
        ("USER".into(), "tester".into()),
        ("LOGNAME".into(), "tester".into()),
        ("SHELL".into(), "/bin/bash".into()),
    ];
    for key in ["PATH", "LANG", "LC_ALL", "TMPDIR"] {
        if let Some(v) = std::env::var_os(key) {
            env.push((key.into(), v));
        }
    }
    env
}

/// `Some(binary)`, or `None` (reason on stderr) when it cannot be had and
/// `DID_IT_ACTUALLY_E2E_OPTIONAL=1`; otherwise that panics.
pub(super) fn or_skip(
    what: &str,
    version: &str,
    binary: Result<PathBuf, String>,
) -> Option<PathBuf> {
    match binary {
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

/// Runs `binary args` and checks its stdout contains `expected`.
pub(super) fn check_version(binary: &Path, args: &[&str], expected: &str) -> Result<(), String> {
    let out = Command::new(binary)
        .args(args)
        .env("COPILOT_AUTO_UPDATE", "false")
        // Qwen's cli-entry.js answers --version from this variable when it is set.
        .env_remove("CLI_VERSION")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if out.status.success() && text.contains(expected) {
        Ok(())
    } else {
        Err(format!(
            "{} {args:?} printed {:?} ({}), expected {expected:?}",
            binary.display(),
            text.trim(),
            out.status
        ))
    }
}

/// A pinned native binary from npm: `packages` installed into `<host cache>/<dir>` on first
/// use, the binary at `rel` under it, checked by its `--version` printing `version`.
pub(super) fn npm_native(
    dir: &str,
    packages: &[&str],
    rel: &str,
    size: &str,
    version: &str,
) -> Result<PathBuf, String> {
    let dir = super::cache_dir().join(dir);
    let binary = dir.join(rel);
    let check = |b: &Path| check_version(b, &["--version"], version);
    npm_install(&dir, packages, &binary, size, &check, &|_| Ok(()))?;
    Ok(binary)
}

/// `npm install packages` into `dir` unless `check(binary)` already passes; one process
/// at a time (a file lock), then `after(binary)` and the check again.
pub(super) fn npm_install(
    dir: &Path,
    packages: &[&str],
    binary: &Path,
    size: &str,
    check: &dyn Fn(&Path) -> Result<(), String>,
    after: &dyn Fn(&Path) -> Result<(), String>,
) -> Result<(), String> {
    if check(binary).is_ok() {
        return Ok(());
    }
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let lock_path = dir.join(".install.lock");
    let lock = File::create(&lock_path)
        .map_err(|e| format!("cannot create {}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
    if check(binary).is_ok() {
        return Ok(());
    }
    if !binary.is_file() {
        eprintln!(
            "e2e: installing {} into {} (one time, {size})",
            packages.join(" "),
            dir.display()
        );
        let output = Command::new("npm")
            .arg("install")
            .arg("--prefix")
            .arg(dir)
            .args(["--no-audit", "--no-fund", "--no-save", "--loglevel=error"])
            .args(packages)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run npm: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "`npm install {}` failed ({}):\n{}{}",
                packages.join(" "),
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    after(binary)?;
    check(binary)?;
    drop(lock);
    Ok(())
}

/// Runs a host non-interactively in `cwd` (stdin null), bounded by [`TIMEOUT`]; a hang
/// panics with its output and `diagnose()` (the mock's view).
pub(super) fn run_host(
    mut cmd: Command,
    cwd: &Path,
    what: &str,
    diagnose: &dyn Fn() -> String,
) -> (ExitStatus, String, String) {
    cmd.current_dir(cwd);
    run_bounded(cmd, what, TIMEOUT, diagnose)
}

/// Runs `cmd` with stdin at end of file and its output drained, bounded by `limit`: a hang
/// panics with its output and `diagnose()` (the mock's view).
pub(crate) fn run_bounded(
    mut cmd: Command,
    what: &str,
    limit: Duration,
    diagnose: &dyn Fn() -> String,
) -> (ExitStatus, String, String) {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("spawn {what}: {e}"));
    let stdout = Drain::start(child.stdout.take());
    let stderr = Drain::start(child.stderr.take());
    let status = claude::wait_with_timeout(&mut child, limit);
    let (stdout, stderr) = (stdout.finish(), stderr.finish());
    let Some(status) = status else {
        panic!(
            "{what} timed out after {:?} (killed)\n{}\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
            started.elapsed(),
            diagnose()
        );
    };
    (status, stdout, stderr)
}

/// The tool-use ids [`MockApi`] gives the script's tool calls, in script order.
pub(super) fn anthropic_tool_ids(script: &[Step]) -> Vec<String> {
    let mut ids = Vec::new();
    for (step_no, step) in script.iter().enumerate() {
        let mut n = 0;
        for block in &step.blocks {
            if let Block::ToolUse { id, .. } = block {
                ids.push(if id.is_empty() {
                    mock_api::tool_use_id(step_no, n)
                } else {
                    id.clone()
                });
                n += 1;
            }
        }
    }
    ids
}

/// Texts that are new in later requests: each request's `texts` not already in the first
/// request, deduplicated, in arrival order (the first request holds the prompt and the
/// host's own preamble).
pub(super) fn later_texts(
    requests: &[Value],
    texts: &dyn Fn(&Value) -> Vec<String>,
) -> Vec<String> {
    let Some(first) = requests.first() else {
        return Vec::new();
    };
    let mut seen: BTreeSet<String> = texts(first).into_iter().collect();
    let mut out = Vec::new();
    for request in &requests[1..] {
        for text in texts(request) {
            if seen.insert(text.clone()) {
                out.push(text);
            }
        }
    }
    out
}

/// A [`Run`] from a Messages-API turn: tool results by `tool_use_id`, later user texts and
/// `role:"system"` notes as messages.
pub(super) fn anthropic_run(
    api: &MockApi,
    ids: &[String],
    status: ExitStatus,
    stdout: String,
    stderr: String,
) -> Run {
    let requests = api.requests();
    let tool_results = ids
        .iter()
        .map(|id| {
            requests
                .iter()
                .find_map(|r| mock_api::tool_result(r, id))
                .map(|r| r.text)
        })
        .collect();
    let messages = later_texts(&requests, &|r| {
        let mut t = mock_api::user_texts(r);
        t.extend(mock_api::system_notes(r));
        t
    });
    Run {
        status,
        stdout,
        stderr,
        requests,
        tool_results,
        messages,
        steps_served: api.steps_served(),
    }
}

/// For the beds' own tests: a shell script that appends `<event>\t<stdin on one line>` to
/// `log` and, for a PreToolUse-like event whose stdin contains `deny_on`, prints `deny`.
#[cfg(test)]
pub(super) fn hook_script(dir: &Path, log: &Path, deny_on: Option<(&str, &str)>) -> PathBuf {
    let script = dir.join("log-hook.sh");
    let deny = match deny_on {
        Some((needle, answer)) => format!(
            "case \"$1\" in pre*|Pre*) case \"$input\" in *'{needle}'*) printf '%s' '{answer}';; esac;; esac\n"
        ),
        None => String::new(),
    };
    let body = format!(
        "#!/bin/sh\ninput=$(cat)\nprintf '%s\\t%s\\n' \"$1\" \"$(printf '%s' \"$input\" | tr '\\n' ' ')\" >> '{}'\n{deny}exit 0\n",
        log.display()
    );
    fs::write(&script, body).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    }
    script
}

/// For the beds' own tests: a hook that answers `post` to a PostToolUse-like event
/// (`$1` starting with `post`/`Post`) and `{"decision":"block","reason":STOP_REASON}` to
/// the first Stop-like event (`$1` containing `top`) of a turn (`stop_hook_active:false`).
#[cfg(test)]
pub(super) fn answer_hook(dir: &Path, post: &str) -> PathBuf {
    let script = dir.join("answer-hook.sh");
    let body = format!(
        "#!/bin/sh\ninput=$(cat)\ncase \"$1\" in\n  post*|Post*) printf '%s' '{post}';;\n  *top*) case \"$input\" in *'\"stop_hook_active\":false'*|*'\"stop_hook_active\": false'*) printf '%s' '{{\"decision\":\"block\",\"reason\":\"{STOP_REASON}\"}}';; esac;;\nesac\nexit 0\n"
    );
    fs::write(&script, body).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    }
    script
}

/// The reason [`answer_hook`] blocks the first Stop with.
#[cfg(test)]
pub(super) const STOP_REASON: &str = "PLEASE CONTINUE";

/// The context [`answer_hook`]'s callers hand back after a tool.
#[cfg(test)]
pub(super) const CONTEXT: &str = "CTX NOTE";

/// A turn for [`answer_hook`]: one shell call, then two final texts (the second answers
/// the Stop block).
#[cfg(test)]
pub(super) fn context_script(bed: &Bed) -> Vec<Step> {
    vec![
        Step::new(vec![bed.shell("echo hi > a.txt")]),
        Step::text("first"),
        Step::text("second"),
    ]
}

/// The hook log written by [`hook_script`]: `(event, stdin JSON)` in order.
#[cfg(test)]
pub(super) fn hook_log(log: &Path) -> Vec<(String, Value)> {
    fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let (event, json) = l.split_once('\t')?;
            Some((
                event.to_owned(),
                serde_json::from_str(json).unwrap_or(Value::Null),
            ))
        })
        .collect()
}

/// The standard smoke turn: shell `echo hi > a.txt`, write b.txt, edit it, final text.
#[cfg(test)]
pub(super) fn smoke_script(bed: &Bed) -> Vec<Step> {
    let b = bed.work.join("b.txt").display().to_string();
    vec![
        Step::new(vec![bed.shell("echo hi > a.txt")]),
        Step::new(vec![bed.write_file(&b, "hello\n")]),
        Step::new(vec![bed.edit_file(&b, "hello", "bye")]),
        Step::text("Done: wrote a.txt and b.txt."),
    ]
}

#[cfg(test)]
mod bed_tests {
    use super::*;
    use crate::support::hosts::assert_smoke_turn;

    fn with_log_hook(bed: &Bed, deny: Option<(&str, &str)>) -> PathBuf {
        let log = bed.repo.dir.join("hook.log");
        let script = hook_script(&bed.repo.dir, &log, deny);
        let entry = |event: &str| {
            json!([{"type": "command", "bash": format!("{} {event}", script.display()),
                    "timeoutSec": 10}])
        };
        let hooks = json!({"version": 1, "hooks": {
            "preToolUse": entry("preToolUse"),
            "postToolUse": entry("postToolUse"),
            "agentStop": entry("agentStop"),
        }});
        let dir = bed.home.join(".copilot/hooks");
        mkdir(&dir);
        fs::write(dir.join("log.json"), hooks.to_string()).unwrap();
        log
    }

    #[test]
    fn copilot_bed_runs_a_scripted_turn() {
        let Some(bed) = Bed::new(HostKind::Copilot) else {
            return;
        };
        let log = with_log_hook(&bed, None);
        let run = bed.run("write files", smoke_script(&bed));
        let events = hook_log(&log);
        let describe = format!("{run:#?}\nhook log: {events:#?}");
        assert_smoke_turn(&bed, &run, &describe);
        let seen: Vec<(String, String)> = events
            .iter()
            .map(|(e, v)| {
                let tool = v.get("toolName").and_then(Value::as_str).unwrap_or("");
                (e.clone(), tool.to_owned())
            })
            .collect();
        let want: Vec<(String, String)> = [
            ("preToolUse", "bash"),
            ("postToolUse", "bash"),
            ("preToolUse", "create"),
            ("postToolUse", "create"),
            ("preToolUse", "edit"),
            ("postToolUse", "edit"),
            ("agentStop", ""),
        ]
        .iter()
        .map(|(e, t)| (e.to_string(), t.to_string()))
        .collect();
        assert_eq!(seen, want, "{describe}");
    }

    #[test]
    fn copilot_bed_hook_deny_reaches_the_model() {
        let Some(bed) = Bed::new(HostKind::Copilot) else {
            return;
        };
        let deny = r#"{"permissionDecision":"deny","permissionDecisionReason":"NOPE"}"#;
        let log = with_log_hook(&bed, Some(("echo hi > a.txt", deny)));
        let script = vec![
            Step::new(vec![bed.shell("echo hi > a.txt")]),
            Step::text("Done."),
        ];
        let run = bed.run("write a", script);
        let describe = format!("{run:#?}\nhook log: {:#?}", hook_log(&log));
        eprintln!("copilot deny: the model was told {:?}", run.tool_result(0));
        assert!(!bed.work.join("a.txt").exists(), "{describe}");
        let told = run.tool_result(0).unwrap_or_default();
        assert_eq!(told, "Denied by preToolUse hook: NOPE", "{describe}");
    }

    /// A postToolUse `additionalContext` (top level) is appended to the tool result; an
    /// agentStop block arrives as the next user message (without the datetime prefix).
    #[test]
    fn copilot_bed_shows_hook_context_and_stop_reason() {
        let Some(bed) = Bed::new(HostKind::Copilot) else {
            return;
        };
        let post = format!(r#"{{"additionalContext":"{CONTEXT}"}}"#);
        let script = answer_hook(&bed.repo.dir, &post);
        let entry = |event: &str| {
            json!([{"type": "command", "bash": format!("{} {event}", script.display()),
                    "timeoutSec": 10}])
        };
        let hooks = json!({"version": 1, "hooks": {
            "postToolUse": entry("postToolUse"),
            "agentStop": entry("agentStop"),
        }});
        mkdir(&bed.home.join(".copilot/hooks"));
        fs::write(
            bed.home.join(".copilot/hooks/answer.json"),
            hooks.to_string(),
        )
        .unwrap();
        let run = bed.run("write a", context_script(&bed));
        assert_eq!(run.steps_served, 3, "{run:#?}");
        assert!(
            run.tool_result(0).unwrap_or_default().contains(CONTEXT),
            "{run:#?}"
        );
        assert_eq!(run.messages, vec![STOP_REASON.to_owned()], "{run:#?}");
    }
}
