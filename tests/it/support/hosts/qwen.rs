//! The Qwen Code bed: see [`super`]. Qwen Code **0.24.4** (npm `@qwen-code/qwen-code`),
//! driven with `node --expose-gc cli.js --auth-type openai --yolo -p PROMPT` against
//! [`MockChat`] (OpenAI Chat Completions SSE), the provider given by `OPENAI_API_KEY`,
//! `OPENAI_MODEL=mock-model` ([`env`]) and, per run, `OPENAI_BASE_URL`.
//!
//! Set-up: [`bed`] writes `~/.qwen/settings.json` with `$version: 4` (the current settings
//! version, so Qwen does not migrate/rewrite the file; it did not in any run), auto-update,
//! usage statistics and telemetry off, and the managed memory agents off (below); a test
//! or our installer adds its `hooks` key beside them, and the bed never writes the file
//! again. `QWEN_CODE_SYSTEM_SETTINGS_PATH` / `QWEN_CODE_SYSTEM_DEFAULTS_PATH` point into
//! the scratch HOME so no machine-wide settings leak in; `QWEN_CODE_NO_RELAUNCH=true` stops
//! the bundle's own heap-size relaunch; `QWEN_CODE_SUPPRESS_YOLO_WARNING=1` silences the
//! `--yolo` notice on stderr.
//!
//! Hook config facts, read in the 0.24.4 bundle (`chunks/chunk-DPEB6S2R.js`:
//! `matchesHookPattern`, `hooks/hook-timeout.ts`) and checked by the tests below:
//! - `matcher`: `""`, `"*"`, `".*"` (or none) match every tool; a matcher equal to the tool
//!   name **or one of its aliases** matches, and the aliases include the Claude names
//!   (`Bash`/`Shell` → `run_shell_command`, `Write`/`WriteFile` → `write_file`, `Edit` →
//!   `edit`, `Read` → `read_file`, `Grep` → `grep_search`, …); `a|b|c` (not starting with
//!   `^` or `(`) is first tried as a list of exact names/aliases, then as a regex of the
//!   alternatives; anything else is a JavaScript `RegExp`, **unanchored**
//!   (`new RegExp(m).test(toolName)`: `write` matches `write_file`).
//! - `timeout` is in **seconds** (default 60); values >= 1000 keep a legacy millisecond
//!   meaning; a non-positive or non-numeric value falls back to 60 s.
//!
//! Where real runs differ from or add to shared/docs/hosts.md §3.4/§6 (0.24.4):
//! - The package's bin `cli-entry.js` is a wrapper that `spawnSync`s
//!   `node --expose-gc cli.js …` (`QWEN_CODE_NO_RELAUNCH` does not stop that one): a
//!   SIGTERM on timeout would kill the wrapper and orphan the real process. The bed runs
//!   that command line itself (one process). Node 20 works (engines says >=22).
//! - npm leaves `vendor/ripgrep/x64-linux/rg` without its exec bit: Qwen warned
//!   `Ripgrep not available: … EACCES` and fell back to a built-in grep; the install step
//!   sets the bit.
//! - Tools offered (14): `agent`, `edit`, `get_goal`, `glob`, `grep_search`, `list_agents`,
//!   `notebook_edit`, `read_file`, `run_shell_command`, `skill`, `tool_call`, `tool_search`,
//!   `update_goal`, `write_file` (others, e.g. `monitor`, `cron_*`, are deferred behind
//!   `tool_search`).
//! - No tools-bearing side request was seen (hosts.md saw one with 6 tools). Its likely
//!   source, the background memory agents (`memory.enableManagedAutoMemory`,
//!   `enableManagedAutoDream`, on by default), is switched off; the mock still only
//!   advances on requests offering >= 10 tools including `run_shell_command` and
//!   `write_file`.
//! - `write_file`/`edit` reject a relative path (the tool result is
//!   `File path must be absolute: rel.txt`): pass `bed.work.join(..)`.
//! - A `role:"tool"` message's `content` is a list of text parts
//!   (`[{"type":"text","text":…}]`), not a string; the first user message is several
//!   `<system-reminder>` text parts (skills, environment, deferred tools, date) with the
//!   prompt last.
//! - About 4 s pass before the first request (loading the bundle); a scripted turn takes
//!   5–10 s. While streaming, Qwen runs `systemd-inhibit … sleep infinity` if the machine
//!   has it.
//! - As in hosts.md: the payloads match §6; a deny shows the model exactly R; a
//!   PostToolUse `additionalContext` is appended to the tool result; a Stop
//!   `decision:block` arrives as a user message R, the next Stop having
//!   `stop_hook_active:true`.

use std::ffi::OsString;
use std::fs;
use std::path::PathBuf;
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

/// `cli.js` of the installed package, the bundle itself (run with `node --expose-gc`,
/// `node` from PATH). The package's bin, `cli-entry.js`, only `spawnSync`s
/// `node --expose-gc cli.js …`, which leaves a child that a timeout's SIGTERM to the
/// wrapper would orphan; the bed runs that child's command line itself.
pub fn binary() -> Result<PathBuf, String> {
    static BINARY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            let dir = install_dir();
            let binary = dir.join("node_modules/@qwen-code/qwen-code/cli.js");
            let check = |b: &std::path::Path| {
                check_version(
                    std::path::Path::new("node"),
                    &[&b.display().to_string(), "--version"],
                    VERSION,
                )
            };
            npm_install(
                &dir,
                &[&format!("@qwen-code/qwen-code@{VERSION}")],
                &binary,
                "~145 MB",
                &check,
                &|_| Ok(()),
            )?;
            make_ripgrep_executable(&dir);
            Ok(binary)
        })
        .clone()
}

/// npm unpacks the bundled `vendor/ripgrep/x64-linux/rg` without its exec bit, so Qwen
/// prints `Ripgrep not available: … EACCES` and falls back to a built-in grep; set it.
fn make_ripgrep_executable(dir: &std::path::Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let rg = dir.join("node_modules/@qwen-code/qwen-code/vendor/ripgrep/x64-linux/rg");
        if let Ok(meta) = fs::metadata(&rg) {
            let mode = meta.permissions().mode();
            if mode & 0o111 == 0 {
                let _ = fs::set_permissions(&rg, fs::Permissions::from_mode(mode | 0o755));
            }
        }
    }
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
        "telemetry": {"enabled": false},
        // The background memory agents (extraction, dream) send tools-bearing requests
        // of their own after a turn: the likely source of hosts.md §3.4's side request.
        "memory": {"enableManagedAutoMemory": false, "enableManagedAutoDream": false},
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
        ("QWEN_CODE_SUPPRESS_YOLO_WARNING".into(), "1".into()),
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

/// Whether a chat request is the agent loop (advances the script): the main agent offers
/// 14 tools in 0.24.4, among them `run_shell_command` and `write_file`; hosts.md §3.4 saw
/// a side request with 6 tools, which this leaves to the side.
fn is_agent_loop(body: &Value) -> bool {
    let tools = mock_chat::tool_names(body);
    tools.len() >= 10
        && tools.iter().any(|t| t == "run_shell_command")
        && tools.iter().any(|t| t == "write_file")
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
    let mut cmd = bed.command("node");
    cmd.arg("--expose-gc")
        .arg(&bed.binary)
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
    use super::super::copilot::{
        answer_hook, context_script, hook_log, hook_script, smoke_script, CONTEXT, STOP_REASON,
    };
    use super::*;
    use crate::support::hosts::assert_smoke_turn;

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
        assert_smoke_turn(&bed, &run, &describe);
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
        eprintln!("qwen deny: the model was told {:?}", run.tool_result(0));
        assert!(!bed.work.join("a.txt").exists(), "{describe}");
        assert_eq!(run.tool_result(0), Some("NOPE"), "{describe}");
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

    /// PostToolUse `hookSpecificOutput.additionalContext` is appended to the tool result; a
    /// Stop block arrives as the next user message.
    #[test]
    fn qwen_bed_shows_hook_context_and_stop_reason() {
        let Some(bed) = Bed::new(HostKind::Qwen) else {
            return;
        };
        let post = format!(
            r#"{{"hookSpecificOutput":{{"hookEventName":"PostToolUse","additionalContext":"{CONTEXT}"}}}}"#
        );
        let script = answer_hook(&bed.repo.dir, &post);
        let entry = |event: &str| {
            json!([{"hooks": [{"type": "command",
                "command": format!("{} {event}", script.display()), "timeout": 10}]}])
        };
        add_hooks(
            &bed,
            json!({"PostToolUse": entry("PostToolUse"), "Stop": entry("Stop")}),
        );
        let run = bed.run("write a", context_script(&bed));
        assert_eq!(run.steps_served, 3, "{run:#?}");
        assert!(
            run.tool_result(0).unwrap_or_default().contains(CONTEXT),
            "{run:#?}"
        );
        assert_eq!(run.messages, vec![STOP_REASON.to_owned()], "{run:#?}");
    }
}
