//! The Gemini CLI bed: see [`super`]. Gemini CLI [`GEMINI_VERSION`]
//! (`@google/gemini-cli`, a Node bundle) runs as `gemini -m gemini-2.5-pro --skip-trust -y
//! -p …` against [`MockGemini`], reached through `GOOGLE_GEMINI_BASE_URL` (per run) with
//! `GEMINI_API_KEY`. `~/.gemini/settings.json` is written once in [`bed`] and merged into,
//! never replaced, since our installer later adds its `hooks` key to the same file. The
//! project directory is recorded as trusted in `~/.gemini/trustedFolders.json`, as it
//! would be for a user working in it (project `.gemini/settings.json` hooks only load in
//! a trusted folder).
//!
//! Where a real run here differs from, or adds to, shared/docs/hosts.md §3.2/§4/§6
//! (Gemini 0.61.0, 2026-12-02): nothing contradicts it. Additions:
//! - the CLI keeps the `functionCall.id` the mock sends and echoes it as
//!   `functionResponse.id` (results are matched by it); it adds
//!   `thoughtSignature: "skip_thought_signature_validator"` to the model parts it replays;
//! - the first request has a single user content with two text parts:
//!   `<session_context>…` and the prompt;
//! - only `POST /v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse` was sent (no
//!   next-speaker or other side queries, no GETs);
//! - 16 tools offered: `update_topic`, `list_directory`, `read_file`, `grep_search`,
//!   `glob`, `replace`, `write_file`, `web_fetch`, `run_shell_command`,
//!   `list_background_processes`, `read_background_output`, `google_web_search`,
//!   `write_todos`, `enter_plan_mode`, `invoke_agent`, `activate_skill`;
//! - 0.61.0's update switches are `general.enableAutoUpdate` /
//!   `general.enableAutoUpdateNotification` (set false); stderr always has `YOLO mode is
//!   enabled…` (twice) and `Ripgrep is not available. Falling back to GrepTool.`; with
//!   `TERM=dumb` it warns about a basic terminal, so the bed sets no TERM;
//! - results as documented: shell `<untrusted_context>\nOutput: (empty)\nProcess Group
//!   PGID: <n>\n</untrusted_context>`, deny `Tool execution blocked: <R>` (in
//!   `response.error`), AfterTool context appended as `\n\n<hook_context>T</hook_context>`,
//!   an AfterAgent deny's reason sent as a new user prompt.

use std::ffi::OsString;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::super::claude::{optional, wait_with_timeout, Drain, OPTIONAL_ENV};
use super::super::mock_gemini::{later_messages, tool_results, MockGemini};
use super::super::mock_responses::scripted_tool_ids;
use super::super::repo::ScratchRepo;
use super::{cache_dir, Bed, Block, HostKind, Run, Step};

/// The Gemini CLI release the bed pins.
pub const GEMINI_VERSION: &str = "0.61.0";

/// Pinned with `-m` so the model router stays out of the way.
pub const MODEL: &str = "gemini-2.5-pro";

/// Bound on one `gemini -p` run; a scripted turn takes seconds.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(120);

/// `<cache>/gemini-<version>`.
pub fn install_dir() -> PathBuf {
    cache_dir().join(format!("gemini-{GEMINI_VERSION}"))
}

/// The pinned binary, installed on first use (memoized; a file lock serializes npm).
pub fn binary() -> Result<PathBuf, String> {
    static BINARY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BINARY.get_or_init(locate_or_install).clone()
}

fn locate_or_install() -> Result<PathBuf, String> {
    let dir = install_dir();
    let binary = dir.join("node_modules").join(".bin").join("gemini");
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
    let package = format!("@google/gemini-cli@{GEMINI_VERSION}");
    eprintln!(
        "hosts: installing {package} into {} (one time, ~100 MB)",
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
            &package,
        ])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run npm to install {package}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "`npm install {package}` failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    check_version(&binary)?;
    drop(lock);
    Ok(binary)
}

/// `gemini --version` prints `0.61.0`. Run with a throwaway HOME inside the install dir.
fn check_version(binary: &Path) -> Result<(), String> {
    if !binary.exists() {
        return Err(format!("{} does not exist", binary.display()));
    }
    let home = install_dir().join(".version-home");
    let _ = fs::create_dir_all(&home);
    let output = Command::new(binary)
        .arg("--version")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("GEMINI_CLI_NO_RELAUNCH", "true")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let printed = String::from_utf8_lossy(&output.stdout);
    if output.status.success() && printed.trim() == GEMINI_VERSION {
        Ok(())
    } else {
        Err(format!(
            "{} --version printed {:?} ({}), expected {GEMINI_VERSION}",
            binary.display(),
            printed.trim(),
            output.status
        ))
    }
}

/// `~/.gemini` of the bed.
pub fn gemini_home(bed: &Bed) -> PathBuf {
    bed.home.join(".gemini")
}

/// Sets `value` at `path` in `root` (creating objects on the way) unless already set.
fn set_default(root: &mut Value, path: &[&str], value: Value) {
    let mut at = root;
    for key in &path[..path.len() - 1] {
        if !at.get(*key).is_some_and(Value::is_object) {
            at[*key] = json!({});
        }
        at = &mut at[*key];
    }
    let last = path[path.len() - 1];
    if at.get(last).is_none() {
        at[last] = value;
    }
}

/// Reads a JSON object file (an empty object when missing or not an object).
pub fn read_json(path: &Path) -> Value {
    fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}))
}

pub fn bed() -> Option<Bed> {
    let binary = match binary() {
        Ok(binary) => binary,
        Err(reason) if optional() => {
            eprintln!(
                "SKIPPED: Gemini CLI {GEMINI_VERSION} is unavailable ({OPTIONAL_ENV}=1): {reason}"
            );
            return None;
        }
        Err(reason) => panic!(
            "Gemini CLI {GEMINI_VERSION} is unavailable: {reason}\n\
             (set {OPTIONAL_ENV}=1 to skip the host tests instead)"
        ),
    };
    let repo = ScratchRepo::new("gemini", "main");
    let work = repo.work();
    let home = repo.dir.join("home");
    let dot = home.join(".gemini");
    fs::create_dir_all(&dot).unwrap_or_else(|e| panic!("create {}: {e}", dot.display()));

    let settings_path = dot.join("settings.json");
    let mut settings = read_json(&settings_path);
    set_default(
        &mut settings,
        &["security", "auth", "selectedType"],
        json!("gemini-api-key"),
    );
    set_default(
        &mut settings,
        &["privacy", "usageStatisticsEnabled"],
        json!(false),
    );
    set_default(&mut settings, &["telemetry", "enabled"], json!(false));
    set_default(
        &mut settings,
        &["general", "enableAutoUpdate"],
        json!(false),
    );
    set_default(
        &mut settings,
        &["general", "enableAutoUpdateNotification"],
        json!(false),
    );
    fs::write(
        &settings_path,
        serde_json::to_string_pretty(&settings).unwrap(),
    )
    .unwrap_or_else(|e| panic!("write {}: {e}", settings_path.display()));

    let trusted_path = dot.join("trustedFolders.json");
    let mut trusted = read_json(&trusted_path);
    trusted[work.to_string_lossy().as_ref()] = json!("TRUST_FOLDER");
    fs::write(
        &trusted_path,
        serde_json::to_string_pretty(&trusted).unwrap(),
    )
    .unwrap_or_else(|e| panic!("write {}: {e}", trusted_path.display()));

    Some(Bed {
        host: HostKind::Gemini,
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
        ("GEMINI_API_KEY".into(), "mock-gemini-key".into()),
        // The CLI would otherwise re-spawn itself with a bigger heap.
        ("GEMINI_CLI_NO_RELAUNCH".into(), "true".into()),
        ("GEMINI_TELEMETRY_ENABLED".into(), "false".into()),
        ("NO_BROWSER".into(), "true".into()),
    ];
    if let Some(tmp) = std::env::var_os("TMPDIR") {
        env.push(("TMPDIR".into(), tmp));
    }
    env
}

pub fn run(bed: &Bed, prompt: &str, script: Vec<Step>) -> Run {
    let ids = scripted_tool_ids(&script);
    let mock = MockGemini::start(script);
    let mut cmd = bed.command(&bed.binary);
    cmd.env_clear()
        .envs(env(bed))
        .env("GOOGLE_GEMINI_BASE_URL", mock.base_url())
        .args(["-m", MODEL, "--skip-trust", "-y"])
        .arg(format!("--prompt={prompt}"))
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
            "gemini -p timed out after {:?} (killed)\nmock hits: {:?}\nmock errors: {:?}\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
            started.elapsed(),
            mock.hits(),
            mock.errors()
        );
    };
    let requests = mock.requests();
    Run {
        status,
        stdout,
        stderr,
        tool_results: tool_results(&requests, &ids),
        messages: later_messages(&requests, prompt),
        steps_served: mock.steps_served(),
        requests,
    }
}

/// `run_shell_command {command}`.
pub fn shell(command: &str) -> Block {
    Block::tool("run_shell_command", json!({ "command": command }))
}

/// `write_file {file_path, content}` (`file_path` as given: the CLI resolves a relative
/// one against the project).
pub fn write_file(path: &str, content: &str) -> Block {
    Block::tool(
        "write_file",
        json!({ "file_path": path, "content": content }),
    )
}

/// `replace {file_path, old_string, new_string, instruction}`.
pub fn edit_file(path: &str, old: &str, new: &str) -> Block {
    Block::tool(
        "replace",
        json!({
            "file_path": path, "old_string": old, "new_string": new,
            "instruction": format!("replace {old:?} with {new:?}"),
        }),
    )
}

#[cfg(test)]
mod bed_tests {
    //! Smoke tests of the bed itself, with a logging hook registered by hand.

    use super::*;
    use crate::support::hosts::{answering_hook, assert_smoke_turn, json_lines};

    const BEFORE: &str = r#""hook_event_name" *: *"BeforeTool""#;

    /// Merges a `hooks` key into `~/.gemini/settings.json` (timeouts in ms).
    fn register(bed: &Bed, script: &Path) {
        let path = gemini_home(bed).join("settings.json");
        let mut settings = read_json(&path);
        let handler = json!([{"type": "command", "command": script, "timeout": 10000}]);
        settings["hooks"] = json!({
            "BeforeTool": [{"matcher": "run_shell_command|write_file|replace", "hooks": handler}],
            "AfterTool": [{"matcher": "run_shell_command|write_file|replace", "hooks": handler}],
            "AfterAgent": [{"hooks": handler}],
        });
        fs::write(&path, serde_json::to_string_pretty(&settings).unwrap()).unwrap();
    }

    #[test]
    fn gemini_bed_runs_a_scripted_turn() {
        let Some(bed) = Bed::new(HostKind::Gemini) else {
            return;
        };
        let log = bed.repo.dir.join("hooks.log");
        let script = answering_hook(&bed, &log, &[]);
        register(&bed, &script);

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
        let before: Vec<&str> = seen
            .iter()
            .filter(|(e, _)| e == "BeforeTool")
            .map(|(_, t)| t.as_str())
            .collect();
        assert_eq!(
            before,
            ["run_shell_command", "write_file", "replace"],
            "{seen:?}\n{why}"
        );
        let after = seen.iter().filter(|(e, _)| e == "AfterTool").count();
        assert_eq!(after, 3, "{seen:?}\n{why}");
        assert!(
            seen.iter().any(|(e, _)| e == "AfterAgent"),
            "{seen:?}\n{why}"
        );
    }

    #[test]
    fn gemini_bed_delivers_a_hook_deny_to_the_model() {
        let Some(bed) = Bed::new(HostKind::Gemini) else {
            return;
        };
        let log = bed.repo.dir.join("hooks.log");
        let script = answering_hook(
            &bed,
            &log,
            &[(BEFORE, r#"{"decision":"deny","reason":"NOPE"}"#)],
        );
        register(&bed, &script);

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
    fn gemini_bed_shows_hook_context_and_stop_prompts() {
        let Some(bed) = Bed::new(HostKind::Gemini) else {
            return;
        };
        let log = bed.repo.dir.join("hooks.log");
        let context = r#"{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"CTX-NOTE"}}"#;
        let again = r#"{"decision":"deny","reason":"AGAIN-PLEASE"}"#;
        let script = answering_hook(
            &bed,
            &log,
            &[
                (r#""hook_event_name" *: *"AfterTool""#, context),
                (r#""stop_hook_active" *: *false"#, again),
            ],
        );
        register(&bed, &script);

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
            run.tool_result(0)
                .is_some_and(|t| t.contains("<hook_context>CTX-NOTE</hook_context>")),
            "AfterTool context is appended to the tool result: {why}"
        );
        assert!(
            run.messages.iter().any(|m| m.contains("AGAIN-PLEASE")),
            "the AfterAgent deny arrives as a new prompt: {why}"
        );
    }
}
