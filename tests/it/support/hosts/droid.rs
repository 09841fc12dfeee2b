//! The Factory droid bed: see [`super`]. droid **0.225.2**: the npm wrapper
//! `@factory/cli@0.225.1` plus `@factory/cli-linux-x64@0.225.2` installed explicitly in the
//! same `npm install` (the wrapper's own optional dependency lagged at 0.225.1). Driven
//! with `droid exec -m custom:Mock-0 --auto high PROMPT` against [`MockApi`] (Anthropic
//! Messages SSE, unchanged), the provider being a BYOK `customModels` entry in
//! `~/.factory/settings.json`.
//!
//! Set-up choices:
//! - What the wrapper needs to find the binary: its `postinstall` (`install.js`,
//!   `platform.js`) resolves the platform package `@factory/cli-linux-x64` (or
//!   `-linux-x64-baseline` without AVX2) from `node_modules`, **any version**, and
//!   hard-links its `bin/droid` over the wrapper's `bin/droid` JS shim (a version mismatch
//!   only warns); without the package it downloads the wrapper's own version (0.225.1)
//!   from the registry. So installing both packages in one `npm install` yields 0.225.2
//!   in both places. The bed runs `node_modules/@factory/cli-linux-x64/bin/droid` (a
//!   254 MB native binary) directly and checks `--version` prints 0.225.2.
//! - The mock's port is known only per run: [`run`] read-modify-writes `customModels` in
//!   `~/.factory/settings.json` and keeps every other key (an installer's `hooks`); [`bed`]
//!   writes the entry with a placeholder port so the file exists from the start.
//! - `FACTORY_DROID_AUTO_UPDATE_ENABLED=false`, `FACTORY_DISABLE_KEYRING=true` (names read
//!   in the binary); no `FACTORY_API_KEY`, so no Factory login is attempted.
//!
//! Hook config facts, read in the binary's bundled JS and checked by the tests below: the
//! `matcher` is empty/`"*"`/absent = all tools, else equal to the tool name, else a
//! JavaScript `RegExp`, **unanchored** (`new RegExp(m).test(tool)`: `Execute|Create` is a
//! regex alternation, `Creat` matches `Create`, `Edit` would also match a `MultiEdit`);
//! Claude names (`Bash`, `Write`) match nothing. droid also has its own `commandRegex`
//! key. `timeout` is in **seconds** (`setTimeout(…, timeout*1000)`, default 60).
//!
//! Where real runs differ from or add to shared/docs/hosts.md §3.5/§6 (0.225.2):
//! - Tools offered (14): `Read`, `LS`, `Execute`, `Edit`, `Grep`, `Glob`, `Create`,
//!   `TaskOutput`, `TaskStop`, `ToolSearch`, `Skill`, `ConnectorSearch`, `GenerateImage`,
//!   `Task` (`WebSearch`, `FetchUrl`, … deferred behind `ToolSearch`).
//! - `Create`/`Edit` accept a **relative** `file_path` (resolved against the cwd), and the
//!   hook's `tool_input.file_path` then stays relative (`"rel.txt"`): a guard must resolve
//!   it against `cwd`. The smoke tests pass absolute paths.
//! - The model's tool result for `Create` is `The file <abs path> has been created
//!   successfully.` (the hook's `tool_response` is the JSON string of §6).
//! - The first request's first user message is a run of `<system-reminder>` texts (deferred
//!   tools, connectors, skills, subagents, system info listing the *names* of the env vars
//!   droid sees, date, `ls`/`git status`/`git log` output); the prompt is the next user
//!   message. No side queries were seen (every request carried `tools`).
//! - A scripted turn takes about 8 s.
//! - As in hosts.md: payloads match §6 (Stop's `tool_execution_count` is 0 even after
//!   tools); a deny shows the model exactly `Error: R`; a PostToolUse `additionalContext`
//!   arrives as a separate user text after the tool result (which it leaves alone); a Stop
//!   `decision:block` arrives as a user message R, the next Stop having
//!   `stop_hook_active:true`.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{json, Value};

use super::super::mock_api::MockApi;
use super::copilot::{
    anthropic_run, anthropic_tool_ids, base_env, mkdir, new_bed, npm_native, or_skip, run_host,
};
use super::{Bed, Block, HostKind, Run, Step};

/// The droid release the bed pins (the platform binary's version).
pub const VERSION: &str = "0.225.2";

/// The npm wrapper's version (its platform dependency lagged behind).
pub const WRAPPER_VERSION: &str = "0.225.1";

/// The `-m` id of the mock model: `custom:<displayName>-<index in customModels>`.
pub const MODEL_ID: &str = "custom:Mock-0";

/// The native platform binary, installed on first use.
pub fn binary() -> Result<PathBuf, String> {
    static BINARY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            npm_native(
                &format!("droid-{VERSION}"),
                &[
                    &format!("@factory/cli@{WRAPPER_VERSION}"),
                    &format!("@factory/cli-linux-x64@{VERSION}"),
                ],
                "node_modules/@factory/cli-linux-x64/bin/droid",
                "~245 MB",
                VERSION,
            )
        })
        .clone()
}

fn settings_path(bed: &Bed) -> PathBuf {
    bed.home.join(".factory/settings.json")
}

/// Points the `customModels` entry at `base_url`, keeping every other key of the file.
fn set_base_url(bed: &Bed, base_url: &str) {
    let path = settings_path(bed);
    let mut settings: Value = fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| json!({}));
    if !settings.is_object() {
        settings = json!({});
    }
    settings["customModels"] = json!([{
        "model": "claude-sonnet-4-5",
        "displayName": "Mock",
        "baseUrl": base_url,
        "apiKey": "mock",
        "provider": "anthropic",
        "maxOutputTokens": 8192,
    }]);
    fs::write(&path, serde_json::to_string_pretty(&settings).unwrap())
        .unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

pub fn bed() -> Option<Bed> {
    let binary = or_skip("droid", VERSION, binary())?;
    let bed = new_bed(HostKind::Droid, "droid", binary);
    mkdir(&bed.home.join(".factory"));
    // A placeholder port until run() knows the mock's.
    set_base_url(&bed, "http://127.0.0.1:9");
    Some(bed)
}

pub fn env(bed: &Bed) -> Vec<(OsString, OsString)> {
    let mut env = base_env(bed);
    env.extend([
        ("FACTORY_DROID_AUTO_UPDATE_ENABLED".into(), "false".into()),
        ("FACTORY_DISABLE_KEYRING".into(), "true".into()),
    ]);
    env
}

pub fn run(bed: &Bed, prompt: &str, script: Vec<Step>) -> Run {
    let ids = anthropic_tool_ids(&script);
    let api = MockApi::start(script);
    set_base_url(bed, &api.base_url());
    let mut cmd = bed.command(&bed.binary);
    cmd.args(["exec", "-m", MODEL_ID, "--auto", "high", prompt])
        .env_clear()
        .envs(env(bed));
    let (status, stdout, stderr) = run_host(cmd, &bed.work, "droid exec", &|| {
        format!(
            "mock hits: {:?}\nmock errors: {:?}",
            api.hits(),
            api.errors()
        )
    });
    anthropic_run(&api, &ids, status, stdout, stderr)
}

pub fn shell(command: &str) -> Block {
    Block::tool(
        "Execute",
        json!({"command": command, "summary": "run a command", "riskLevel": "low",
               "riskLevelReason": "a scripted test command"}),
    )
}

/// droid's `Create` (`path` absolute, as droid's own calls are).
pub fn write_file(path: &str, content: &str) -> Block {
    Block::tool("Create", json!({"file_path": path, "content": content}))
}

/// droid's `Edit`.
pub fn edit_file(path: &str, old: &str, new: &str) -> Block {
    Block::tool(
        "Edit",
        json!({"file_path": path, "old_str": old, "new_str": new}),
    )
}

#[cfg(test)]
mod bed_tests {
    use super::super::copilot::{
        answer_hook, context_script, hook_log, hook_script, smoke_script, CONTEXT, STOP_REASON,
    };
    use super::*;
    use crate::support::hosts::assert_smoke_turn;

    fn add_hooks(bed: &Bed, hooks: Value) {
        let path = settings_path(bed);
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

    fn events(log: &Path) -> Vec<(String, String)> {
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
    fn droid_bed_runs_a_scripted_turn() {
        let Some(bed) = Bed::new(HostKind::Droid) else {
            return;
        };
        let log = with_log_hook(&bed, "Execute|Create|Edit", None);
        let run = bed.run("write files", smoke_script(&bed));
        let describe = format!("{run:#?}\nhook log: {:#?}", hook_log(&log));
        assert_smoke_turn(&bed, &run, &describe);
        assert_eq!(
            events(&log),
            pairs(&[
                ("PreToolUse", "Execute"),
                ("PostToolUse", "Execute"),
                ("PreToolUse", "Create"),
                ("PostToolUse", "Create"),
                ("PreToolUse", "Edit"),
                ("PostToolUse", "Edit"),
                ("Stop", ""),
            ]),
            "{describe}"
        );
        // The settings file kept the hooks beside the rewritten customModels.
        let settings: Value =
            serde_json::from_str(&fs::read_to_string(settings_path(&bed)).unwrap()).unwrap();
        assert!(settings.get("hooks").is_some(), "{settings:#}");
    }

    #[test]
    fn droid_bed_hook_deny_reaches_the_model() {
        let Some(bed) = Bed::new(HostKind::Droid) else {
            return;
        };
        let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"NOPE"}}"#;
        let log = with_log_hook(&bed, "Execute", Some(("echo hi > a.txt", deny)));
        let script = vec![
            Step::new(vec![bed.shell("echo hi > a.txt")]),
            Step::text("Done."),
        ];
        let run = bed.run("write a", script);
        let describe = format!("{run:#?}\nhook log: {:#?}", hook_log(&log));
        eprintln!("droid deny: the model was told {:?}", run.tool_result(0));
        assert!(!bed.work.join("a.txt").exists(), "{describe}");
        assert_eq!(run.tool_result(0), Some("Error: NOPE"), "{describe}");
    }

    /// The matcher is an unanchored regex: `Creat` matches `Create`, `^Edit$` only `Edit`;
    /// Claude names (`Bash`, `Write`) match nothing.
    #[test]
    fn droid_hook_matcher_is_an_unanchored_regex() {
        let Some(bed) = Bed::new(HostKind::Droid) else {
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
                group("Bash|Write", "claude-names"),
                group("Creat", "regex-part"),
                group("^Edit$", "regex-anchored"),
                group("Execute", "exact"),
            ]}),
        );
        let run = bed.run("write files", smoke_script(&bed));
        let mut seen = events(&log);
        seen.sort();
        let mut want = pairs(&[
            ("exact", "Execute"),
            ("regex-part", "Create"),
            ("regex-anchored", "Edit"),
        ]);
        want.sort();
        assert_eq!(seen, want, "{run:#?}");
    }

    /// PostToolUse `hookSpecificOutput.additionalContext` arrives as a separate user text
    /// after the tool result (which it leaves alone); a Stop block as the next user message.
    #[test]
    fn droid_bed_shows_hook_context_and_stop_reason() {
        let Some(bed) = Bed::new(HostKind::Droid) else {
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
            !run.tool_result(0).unwrap_or_default().contains(CONTEXT),
            "{run:#?}"
        );
        assert_eq!(
            run.messages,
            vec![CONTEXT.to_owned(), STOP_REASON.to_owned()],
            "{run:#?}"
        );
    }
}
