//! The Qwen Code bed: see [`super`]. Qwen Code **0.24.4** (npm `@qwen-code/qwen-code`),
//! driven with `qwen --auth-type openai --yolo -p PROMPT` against [`MockChat`] (OpenAI Chat
//! Completions SSE), the provider given per run by `OPENAI_BASE_URL`/`OPENAI_API_KEY`/
//! `OPENAI_MODEL`.
//!
//! Set-up: `~/.qwen/settings.json` gets `$version`, auto-update and usage statistics off;
//! a test (or our installer) adds its `hooks` key beside them, and the bed never rewrites
//! the file after [`bed`]. `QWEN_CODE_NO_RELAUNCH=true` keeps Qwen from re-spawning itself
//! (one process for the timeout to kill); `QWEN_CODE_SYSTEM_SETTINGS_PATH` /
//! `QWEN_CODE_SYSTEM_DEFAULTS_PATH` point into the scratch HOME so no machine-wide
//! `/etc` settings leak in.
//!
//! Hook config facts, read in the 0.24.4 bundle (`chunks/chunk-DPEB6S2R.js`,
//! `matchesHookPattern`, `hook-timeout.ts`) and checked by the tests below:
//! - `matcher`: `""`, `"*"`, `".*"` match every tool; a matcher equal to the tool name **or
//!   one of its aliases** matches (aliases include the Claude names: `Bash`/`Shell` →
//!   `run_shell_command`, `Write`/`WriteFile` → `write_file`, `Edit` → `edit`,
//!   `Read` → `read_file`, `Grep` → `grep_search`, …); `a|b|c` (not starting with `^` or `(`)
//!   is a list of exact names/aliases, else the alternatives as a regex; anything else is a
//!   JavaScript `RegExp`, **unanchored** (`new RegExp(m).test(toolName)`: `write` matches
//!   `write_file`).
//! - `timeout` is in **seconds** (default 60); values >= 1000 keep a legacy millisecond
//!   meaning; a non-positive or non-numeric value falls back to 60 s.
//!
//! Differences from hosts.md §3.4 seen in real runs are listed at the test module below.

use std::ffi::OsString;
use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{json, Value};

use super::super::mock_chat::{self, MockChat};
use super::copilot::{
    base_env, check_version, later_texts, mkdir, new_bed, npm_install, or_skip, run_host,
};
use super::{Bed, Block, HostKind, Run, Step};

/// The Qwen Code release the bed pins.
pub const VERSION: &str = "0.24.4";

/// The model name sent to the mock.
pub const MODEL: &str = "mock-model";

fn install_dir() -> PathBuf {
    super::cache_dir().join(format!("qwen-{VERSION}"))
}

/// `cli-entry.js` of the installed package (a node script; `node` comes from PATH).
pub fn binary() -> Result<PathBuf, String> {
    static BINARY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            let dir = install_dir();
            let binary = dir.join("node_modules/@qwen-code/qwen-code/cli-entry.js");
            let check = |b: &std::path::Path| check_version(b, &["--version"], VERSION);
            npm_install(
                &dir,
                &[&format!("@qwen-code/qwen-code@{VERSION}")],
                &binary,
                "~145 MB",
                &check,
                &|_| Ok(()),
            )?;
            Ok(binary)
        })
        .clone()
}

pub fn bed() -> Option<Bed> {
    let binary = or_skip("Qwen Code", VERSION, binary())?;
    let bed = new_bed(HostKind::Qwen, "qwen", binary);
    let dir = bed.home.join(".qwen");
    mkdir(&dir);
    let settings = json!({
        "$version": 4,
        "general": {"enableAutoUpdate": false},
        "privacy": {"usageStatisticsEnabled": false},
    });
    fs::write(
        dir.join("settings.json"),
        serde_json::to_string_pretty(&settings).unwrap(),
    )
    .unwrap();
    Some(bed)
}

pub fn env(bed: &Bed) -> Vec<(OsString, OsString)> {
    let mut env = base_env(bed);
    let system = bed.home.join(".qwen-system");
    env.extend([
        ("OPENAI_API_KEY".into(), "mock".into()),
        ("OPENAI_MODEL".into(), MODEL.into()),
        ("QWEN_CODE_NO_RELAUNCH".into(), "true".into()),
        (
            "QWEN_CODE_SYSTEM_SETTINGS_PATH".into(),
            system.join("settings.json").into(),
        ),
        (
            "QWEN_CODE_SYSTEM_DEFAULTS_PATH".into(),
            system.join("system-defaults.json").into(),
        ),
    ]);
    env
}

/// Whether a chat request is the agent loop (advances the script).
fn is_agent_loop(body: &Value) -> bool {
    let tools = mock_chat::tool_names(body);
    tools.iter().any(|t| t == "run_shell_command") && tools.iter().any(|t| t == "write_file")
}

pub fn run(bed: &Bed, prompt: &str, mut script: Vec<Step>) -> Run {
    mock_chat::assign_ids(&mut script);
    let ids: Vec<String> = script
        .iter()
        .flat_map(|s| &s.blocks)
        .filter_map(|b| match b {
            Block::ToolUse { id, .. } => Some(id.clone()),
            Block::Text(_) => None,
        })
        .collect();
    let api = MockChat::start_with(script, Box::new(is_agent_loop));
    let mut cmd = Command::new("node");
    cmd.arg(&bed.binary)
        .args(["--auth-type", "openai", "--yolo", "-p", prompt])
        .env_clear()
        .envs(env(bed))
        .env("OPENAI_BASE_URL", api.base_url());
    let (status, stdout, stderr) = run_host(cmd, &bed.work, "qwen -p", &|| {
        format!(
            "mock hits: {:?}\nmock errors: {:?}",
            api.hits(),
            api.errors()
        )
    });
    let requests = api.requests();
    let tool_results = ids
        .iter()
        .map(|id| requests.iter().find_map(|r| mock_chat::tool_result(r, id)))
        .collect();
    let messages = later_texts(&requests, &|r| {
        r.get("messages")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
            .filter(|(i, m)| {
                let role = m.get("role").and_then(Value::as_str);
                role == Some("user") || (role == Some("system") && *i > 0)
            })
            .map(|(_, m)| {
                m.get("content")
                    .map(mock_chat::content_text)
                    .unwrap_or_default()
            })
            .filter(|t| !t.is_empty())
            .collect()
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

pub fn shell(command: &str) -> Block {
    Block::tool(
        "run_shell_command",
        json!({"command": command, "description": "run a command", "is_background": false}),
    )
}

/// Qwen's `write_file`; `path` must be absolute (Qwen rejects relative paths).
pub fn write_file(path: &str, content: &str) -> Block {
    Block::tool("write_file", json!({"file_path": path, "content": content}))
}

/// Qwen's `edit` (`path` absolute).
pub fn edit_file(path: &str, old: &str, new: &str) -> Block {
    Block::tool(
        "edit",
        json!({"file_path": path, "old_string": old, "new_string": new}),
    )
}

#[cfg(test)]
mod bed_tests {
    use super::super::copilot::{hook_log, hook_script, smoke_script};
    use super::*;

    /// Adds `hooks` to ~/.qwen/settings.json (read-modify-write, as an installer would).
    fn add_hooks(bed: &Bed, hooks: Value) {
        let path = bed.home.join(".qwen/settings.json");
        let mut settings: Value =
            serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        settings["hooks"] = hooks;
        fs::write(&path, serde_json::to_string_pretty(&settings).unwrap()).unwrap();
    }

    fn with_log_hook(bed: &Bed, matcher: &str, deny: Option<(&str, &str)>) -> PathBuf {
        let log = bed.repo.dir.join("hook.log");
        let script = hook_script(&bed.repo.dir, &log, deny);
        let entry = |event: &str, matcher: Option<&str>| {
            let mut group = json!({"hooks": [{"type": "command",
                "command": format!("{} {event}", script.display()), "timeout": 10}]});
            if let Some(m) = matcher {
                group["matcher"] = json!(m);
            }
            json!([group])
        };
        add_hooks(
            bed,
            json!({
                "PreToolUse": entry("PreToolUse", Some(matcher)),
                "PostToolUse": entry("PostToolUse", Some(matcher)),
                "Stop": entry("Stop", None),
            }),
        );
        log
    }

    fn events(log: &std::path::Path) -> Vec<(String, String)> {
        hook_log(log)
            .iter()
            .map(|(e, v)| {
                let tool = v.get("tool_name").and_then(Value::as_str).unwrap_or("");
                (e.clone(), tool.to_owned())
            })
            .collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(e, t)| (e.to_string(), t.to_string()))
            .collect()
    }

    #[test]
    fn qwen_bed_runs_a_scripted_turn() {
        let Some(bed) = Bed::new(HostKind::Qwen) else {
            return;
        };
        let log = with_log_hook(&bed, "run_shell_command|write_file|edit", None);
        let run = bed.run("write files", smoke_script(&bed));
        let describe = format!("{run:#?}\nhook log: {:#?}", hook_log(&log));
        assert!(run.status.success(), "{describe}");
        assert_eq!(
            fs::read_to_string(bed.work.join("a.txt")).ok().as_deref(),
            Some("hi\n"),
            "{describe}"
        );
        assert_eq!(
            fs::read_to_string(bed.work.join("b.txt")).ok().as_deref(),
            Some("bye\n"),
            "{describe}"
        );
        assert_eq!(run.steps_served, 4, "{describe}");
        assert!(run.tool_results.iter().all(Option::is_some), "{describe}");
        assert_eq!(
            events(&log),
            pairs(&[
                ("PreToolUse", "run_shell_command"),
                ("PostToolUse", "run_shell_command"),
                ("PreToolUse", "write_file"),
                ("PostToolUse", "write_file"),
                ("PreToolUse", "edit"),
                ("PostToolUse", "edit"),
                ("Stop", ""),
            ]),
            "{describe}"
        );
    }

    #[test]
    fn qwen_bed_hook_deny_reaches_the_model() {
        let Some(bed) = Bed::new(HostKind::Qwen) else {
            return;
        };
        let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"NOPE"}}"#;
        let log = with_log_hook(&bed, "run_shell_command", Some(("echo hi > a.txt", deny)));
        let script = vec![
            Step::new(vec![bed.shell("echo hi > a.txt")]),
            Step::text("Done."),
        ];
        let run = bed.run("write a", script);
        let describe = format!("{run:#?}\nhook log: {:#?}", hook_log(&log));
        assert!(!bed.work.join("a.txt").exists(), "{describe}");
        assert!(
            run.tool_result(0).unwrap_or_default().contains("NOPE"),
            "{describe}"
        );
    }

    /// Claude tool names match as aliases; an unanchored regex matches a part of a name.
    #[test]
    fn qwen_hook_matcher_takes_claude_aliases_and_regexes() {
        let Some(bed) = Bed::new(HostKind::Qwen) else {
            return;
        };
        let log = bed.repo.dir.join("hook.log");
        let script = hook_script(&bed.repo.dir, &log, None);
        let group = |matcher: &str, tag: &str| {
            json!({"matcher": matcher, "hooks": [{"type": "command",
                "command": format!("{} {tag}", script.display()), "timeout": 10}]})
        };
        add_hooks(
            &bed,
            json!({"PreToolUse": [
                group("Bash", "claude-name"),
                group("Write|Edit", "claude-list"),
                group("write", "regex-part"),
                group("^edit$", "regex-anchored"),
            ]}),
        );
        let run = bed.run("write files", smoke_script(&bed));
        let mut seen = events(&log);
        seen.sort();
        let mut want = pairs(&[
            ("claude-name", "run_shell_command"),
            ("claude-list", "write_file"),
            ("claude-list", "edit"),
            ("regex-part", "write_file"),
            ("regex-anchored", "edit"),
        ]);
        want.sort();
        assert_eq!(seen, want, "{run:#?}");
    }

    /// `timeout` counts seconds: a hook that needs 2 s under `timeout: 5` is waited for (its
    /// deny holds), which it would not be if 5 meant milliseconds.
    #[test]
    fn qwen_hook_timeout_is_in_seconds() {
        let Some(bed) = Bed::new(HostKind::Qwen) else {
            return;
        };
        let hook = bed.repo.dir.join("slow-deny.sh");
        fs::write(
            &hook,
            "#!/bin/sh\ncat >/dev/null\nsleep 2\nprintf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"SLOW NOPE\"}}'\n",
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
        }
        add_hooks(
            &bed,
            json!({"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command",
                "command": hook.display().to_string(), "timeout": 5}]}]}),
        );
        let run = bed.run(
            "write a",
            vec![
                Step::new(vec![bed.shell("echo hi > a.txt")]),
                Step::text("Done."),
            ],
        );
        assert!(!bed.work.join("a.txt").exists(), "{run:#?}");
        assert!(
            run.tool_result(0).unwrap_or_default().contains("SLOW NOPE"),
            "{run:#?}"
        );
    }
}
