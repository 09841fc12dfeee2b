//! doctor for the hosts other than Claude Code: for each hooks file of ours it finds
//! (user and project, [`crate::install::hosts::HOST_INSTALLS`]), the hooks it registers,
//! whether each command's binary is there (most of these hosts run the tool when it is
//! not), a live self-test through the registered command in the host's own wire format,
//! and the host-side switches that silently turn hooks off: Codex hook trust, Gemini
//! trusted folders, Copilot folder trust, Cursor's rule that one unknown event name
//! voids its whole file.

use super::{check, make_repo, run_with_timeout, Check, Mark, Subject};
use crate::install::hosts::{our_handlers, registered, HostInstall, HOST_INSTALLS};
use crate::protocol::host::{DenyForm, Host};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The event names Cursor's `hooks.json` accepts (cursor.com/docs/agent/hooks).
const CURSOR_EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "subagentStart",
    "subagentStop",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeSubmitPrompt",
    "preCompact",
    "stop",
    "afterAgentResponse",
    "afterAgentThought",
    "beforeTabFileRead",
    "afterTabFileEdit",
];

/// The project's and user's settings that switch a host's managed hooks off (docs/managed.md):
/// said as a failure where the host lets them win, as a warning where the administrator's
/// file overrides them. Only for hosts with a managed install of ours.
fn switch_off_checks(scope: &Subject) -> Vec<Check> {
    let mut out = Vec::new();
    let managed_here = |host: Host| {
        crate::install::managed::managed_host(host)
            .and_then(|l| std::fs::read_to_string(l.path()).ok())
            .is_some_and(|t| t.contains(crate::BINARY_NAME))
    };
    let read_json = |p: &Path| -> Option<Map<String, Value>> {
        serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()
    };
    let mut levels = vec![(scope.project.clone(), "project")];
    if let Some(home) = &scope.home {
        levels.push((home.clone(), "user"));
    }
    for (dir, level) in &levels {
        if managed_here(Host::Qwen) {
            for env in [dir.join(".qwen/.env"), dir.join(".env")] {
                let on = std::fs::read_to_string(&env).is_ok_and(|t| {
                    t.lines().any(|l| {
                        let l = l.trim().trim_start_matches("export ").replace(' ', "");
                        l == "QWEN_CODE_SAFE_MODE=1" || l == "QWEN_CODE_SAFE_MODE=true"
                    })
                });
                if on {
                    out.push(check(
                        Mark::Fail,
                        "Qwen Code managed hooks",
                        format!("{} sets QWEN_CODE_SAFE_MODE: Qwen Code runs without any hook, the managed ones too (no administrator setting prevents it)", env.display()),
                        Some(format!("remove QWEN_CODE_SAFE_MODE from {}", env.display())),
                    ));
                }
            }
            let file = dir.join(".qwen/settings.json");
            if read_json(&file)
                .is_some_and(|s| s.get("disableAllHooks") == Some(&Value::Bool(true)))
            {
                out.push(check(
                    Mark::Warn,
                    "Qwen Code managed hooks",
                    format!("the {level} settings {} set disableAllHooks; the managed file's false wins, so the guards still run", file.display()),
                    Some(format!("remove disableAllHooks from {}", file.display())),
                ));
            }
        }
        if managed_here(Host::Gemini) {
            let file = dir.join(".gemini/settings.json");
            if let Some(s) = read_json(&file) {
                let config = s.get("hooksConfig");
                let disabled: Vec<&str> = config
                    .and_then(|c| c.get("disabled"))
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .filter(|n| {
                        n.contains(crate::BINARY_NAME)
                            || crate::hooks::Hook::ALL.iter().any(|h| n.contains(h.name()))
                    })
                    .collect();
                if !disabled.is_empty() {
                    out.push(check(
                        Mark::Fail,
                        "Gemini CLI managed hooks",
                        format!("the {level} settings {} list {} in hooksConfig.disabled: Gemini CLI switches those hooks off, the managed ones too (it unions the lists of every level)", file.display(), disabled.join(", ")),
                        Some(format!("remove them from hooksConfig.disabled in {}", file.display())),
                    ));
                }
                if config.and_then(|c| c.get("enabled")) == Some(&Value::Bool(false)) {
                    out.push(check(
                        Mark::Warn,
                        "Gemini CLI managed hooks",
                        format!("the {level} settings {} set hooksConfig.enabled false; the managed file's true wins, so the guards still run", file.display()),
                        None,
                    ));
                }
            }
        }
        if managed_here(Host::Droid) {
            let file = dir.join(".factory/settings.json");
            if read_json(&file).is_some_and(|s| {
                s.get("hooks").and_then(|h| h.get("hooksDisabled")) == Some(&Value::Bool(true))
            }) {
                out.push(check(
                    Mark::Warn,
                    "droid managed hooks",
                    format!("the {level} settings {} set hooks.hooksDisabled; the managed file's false wins, so the guards still run", file.display()),
                    None,
                ));
            }
        }
        if managed_here(Host::Codex) {
            let file = dir.join(".codex/config.toml");
            let off = std::fs::read_to_string(&file).is_ok_and(|t| {
                let mut in_features = false;
                t.lines().any(|l| {
                    let l = l.trim();
                    if l.starts_with('[') {
                        in_features = l == "[features]";
                        return false;
                    }
                    in_features && l.replace(' ', "") == "hooks=false"
                })
            });
            let locked = std::fs::read_to_string(crate::install::managed::CODEX_REQUIREMENTS)
                .is_ok_and(|t| t == crate::install::managed::codex_requirements(&t));
            if off {
                out.push(if locked {
                    check(
                        Mark::Warn,
                        "Codex managed hooks",
                        format!("the {level} config {} sets [features] hooks = false; the administrator's requirements pin it on, so the guards still run", file.display()),
                        None,
                    )
                } else {
                    check(
                        Mark::Fail,
                        "Codex managed hooks",
                        format!("the {level} config {} sets [features] hooks = false, which switches the managed hooks off: {} does not pin `hooks = true`", file.display(), crate::install::managed::CODEX_REQUIREMENTS),
                        Some("`did-it-actually install --managed --host codex` again (as root)".into()),
                    )
                });
            }
        }
    }
    out
}

/// One hooks file of a host.
struct Found {
    spec: &'static HostInstall,
    path: PathBuf,
    project: bool,
    settings: Map<String, Value>,
}

/// The checks of every other host's registrations in scope, and the titles of the hosts
/// that have any.
pub fn checks(
    scope: &Subject,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> (Vec<Check>, Vec<&'static str>) {
    let mut out = Vec::new();
    let mut hosts = Vec::new();
    let opencode = opencode_checks(scope, env);
    if !opencode.is_empty() {
        hosts.push(Host::Opencode.spec().title);
    }
    out.extend(opencode);
    out.extend(switch_off_checks(scope));
    for found in find(scope, &mut out) {
        let title = found.spec.host.spec().title;
        let ours = registered(&found.settings, found.spec);
        if ours.is_empty() {
            continue;
        }
        if !hosts.contains(&title) {
            hosts.push(title);
        }
        let hooks: Vec<String> = ours
            .iter()
            .map(|(e, h)| format!("{} on {e}", h.name()))
            .collect();
        out.push(check(
            Mark::Pass,
            format!("{title} registrations"),
            format!("{}: {}", found.path.display(), hooks.join(", ")),
            None,
        ));
        out.extend(command_checks(&found, env));
        out.extend(gate_checks(&found, scope, env));
        out.extend(self_test(&found));
    }
    (out, hosts)
}

fn find(scope: &Subject, out: &mut Vec<Check>) -> Vec<Found> {
    let mut found = Vec::new();
    for spec in HOST_INSTALLS {
        let mut places = vec![(scope.project.join(spec.project_file), true)];
        if let Some(home) = &scope.home {
            places.push((home.join(spec.user_file), false));
        }
        // The administrator's file (`install --managed`), whose hooks no project or user
        // setting switches off (the ones that still can are said by `switch_off_checks`).
        if let Some(level) = crate::install::managed::managed_host(spec.host) {
            places.push((level.path(), false));
        }
        for (path, project) in places {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            match crate::install::parse_settings(&path, &text) {
                Ok(settings) => found.push(Found {
                    spec,
                    path,
                    project,
                    settings,
                }),
                Err(e) => out.push(check(
                    Mark::Fail,
                    format!("{} hooks file", spec.host.spec().title),
                    e.to_string(),
                    Some("fix the file; the host ignores hooks it cannot read".into()),
                )),
            }
        }
    }
    found
}

/// Every command of ours: the binary it names must be there. Where it is gone, the
/// inline launcher runs `did-it-actually` from PATH (or `~/.local/bin`, `~/.cargo/bin`),
/// else refuses every tool call in the host's own deny form: both are said.
fn command_checks(found: &Found, env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Vec<Check> {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    let title = found.spec.host.spec().title;
    let name = format!("{title} hook binary");
    let again = || {
        Some(format!(
            "`did-it-actually install --host {}` again",
            found.spec.host.name()
        ))
    };
    for command in commands(found) {
        let inline = command.starts_with("sh -c ");
        // `None`: the entry leaves the binary to the launcher's search.
        let program = crate::install::hosts::entry_binary(&command);
        if seen.contains(&program) {
            continue;
        }
        seen.push(program.clone());
        // A bare command (an older install's): the binary it names, or the host's own
        // fault handling.
        if !inline {
            let Some(program) = program else { continue };
            if Path::new(&program).is_file() {
                out.push(check(Mark::Pass, name.clone(), program, None));
                continue;
            }
            let fails_open = matches!(
                found.spec.host,
                Host::Codex | Host::Qwen | Host::Droid | Host::Cursor
            );
            let why = if fails_open {
                ": this host then runs every tool call unguarded (an entry from an older install, without the launcher)"
            } else {
                ""
            };
            out.push(check(
                Mark::Fail,
                name.clone(),
                format!("{program} does not exist{why}"),
                again(),
            ));
            continue;
        }
        let (c, _) = binary_check(
            name.clone(),
            program.as_deref(),
            env,
            "launcher",
            "the launcher refuses every tool call (the host's deny, saying what to install) and lets turns end unaudited",
            &again,
        );
        out.push(c);
    }
    out
}

/// Which binary a launcher (or opencode's plugin: `who`) runs: the one it names, else the
/// one its search finds (`~/.local/bin`, `~/.cargo/bin` or PATH), else none, when it does
/// what `without` says. The check, and the binary that runs.
fn binary_check(
    name: String,
    named: Option<&str>,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
    who: &str,
    without: &str,
    again: &dyn Fn() -> Option<String>,
) -> (Check, Option<String>) {
    if let Some(bin) = named.filter(|p| Path::new(p).is_file()) {
        return (
            check(Mark::Pass, name, bin.to_owned(), None),
            Some(bin.to_owned()),
        );
    }
    match (named, crate::install::hosts::fallback_binary(env)) {
        (None, Some(bin)) => (
            check(
                Mark::Pass,
                name,
                format!(
                    "{} (found by the {who} on PATH, in ~/.local/bin or ~/.cargo/bin)",
                    bin.display()
                ),
                None,
            ),
            Some(bin.display().to_string()),
        ),
        (Some(program), Some(bin)) => (
            check(
                Mark::Warn,
                name,
                format!(
                    "{program} does not exist; the {who} runs {} instead",
                    bin.display()
                ),
                again(),
            ),
            Some(bin.display().to_string()),
        ),
        (program, None) => (
            check(
                Mark::Fail,
                name,
                format!(
                    "{}no did-it-actually is on PATH, in ~/.local/bin or ~/.cargo/bin: {without}",
                    program
                        .map(|p| format!("{p} does not exist, and "))
                        .unwrap_or_default()
                ),
                again(),
            ),
            None,
        ),
    }
}

fn commands(found: &Found) -> Vec<String> {
    our_handlers(&found.settings, found.spec)
        .into_iter()
        .filter_map(|(_, _, h)| h.get(found.spec.command_key)?.as_str().map(str::to_owned))
        .collect()
}

/// The host's own switches that silently disable hooks.
fn gate_checks(
    found: &Found,
    scope: &Subject,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Vec<Check> {
    let title = found.spec.host.spec().title;
    match found.spec.host {
        Host::Codex => vec![codex_trust_check(found, scope, env)],
        Host::Gemini if found.project => {
            let trusted = env("GEMINI_CLI_TRUST_WORKSPACE").is_some_and(|v| v == "true")
                || scope.home.as_ref().is_some_and(|h| {
                    std::fs::read_to_string(h.join(".gemini/trustedFolders.json"))
                        .ok()
                        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                        .and_then(|v| v.as_object().cloned())
                        .is_some_and(|folders| {
                            folders.iter().any(|(dir, level)| {
                                scope.project.starts_with(dir) && level.as_str() != Some("DO_NOT_TRUST")
                            })
                        })
                });
            vec![if trusted {
                check(Mark::Pass, format!("{title} folder trust"), "the project is a trusted folder", None)
            } else {
                check(
                    Mark::Fail,
                    format!("{title} folder trust"),
                    "Gemini runs a project's hooks only in a trusted folder (`--skip-trust` does not enable them): these hooks are off",
                    Some("trust the folder in Gemini (`/permissions`), or install with `--user`".into()),
                )
            }]
        }
        Host::Copilot if found.project => vec![check(
            Mark::Warn,
            format!("{title} folder trust"),
            "Copilot runs a repository's hooks only after the folder is trusted (in `-p` mode: `--trust-folder`)",
            Some("trust the folder when Copilot asks, or install with `--user`".into()),
        )],
        Host::Cursor => {
            let unknown: Vec<&String> = found
                .settings
                .get("hooks")
                .and_then(Value::as_object)
                .map(|e| e.keys().filter(|k| !CURSOR_EVENTS.contains(&k.as_str())).collect())
                .unwrap_or_default();
            vec![if unknown.is_empty() {
                check(Mark::Pass, format!("{title} event names"), "every event name is one Cursor knows", None)
            } else {
                check(
                    Mark::Fail,
                    format!("{title} event names"),
                    format!(
                        "{} names unknown events ({}): Cursor then ignores the whole file, our hooks included",
                        found.path.display(),
                        unknown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                    Some("remove or rename those entries".into()),
                )
            }]
        }
        _ => Vec::new(),
    }
}

fn codex_trust_check(
    found: &Found,
    scope: &Subject,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Check {
    let what = "Codex CLI hook trust";
    let Some(codex) = crate::install::codex_trust::find_codex(env) else {
        return check(
            Mark::Warn,
            what,
            "`codex` is not on PATH, so the trust of these hooks could not be read; Codex skips an untrusted hook without a word",
            Some("run `did-it-actually install --host codex` where `codex` is on PATH".into()),
        );
    };
    match crate::install::codex_trust::list(&codex, &scope.project, scope.home.as_deref()) {
        Err(e) => check(
            Mark::Warn,
            what,
            format!("could not ask `codex app-server` ({e})"),
            None,
        ),
        Ok(hooks) => {
            let ours: Vec<_> = hooks
                .iter()
                .filter(|h| crate::install::our_hook(&json!({"command": h.command})).is_some())
                .filter(|h| {
                    Path::new(&h.source_path())
                        .starts_with(found.path.parent().unwrap_or(Path::new("/")))
                })
                .collect();
            let untrusted: Vec<_> = ours
                .iter()
                .filter(|h| h.trust_status != "trusted" && h.trust_status != "managed")
                .collect();
            if ours.is_empty() {
                check(
                    Mark::Warn,
                    what,
                    "Codex lists none of these hooks (is the project trusted?)",
                    None,
                )
            } else if untrusted.is_empty() {
                check(
                    Mark::Pass,
                    what,
                    format!(
                        "{} trusted",
                        crate::words::count(ours.len(), "hook", "hooks")
                    ),
                    None,
                )
            } else {
                check(
                    Mark::Fail,
                    what,
                    format!(
                        "{} of {} not trusted ({}): Codex skips them without a word",
                        untrusted.len(),
                        crate::words::count(ours.len(), "hook", "hooks"),
                        untrusted.iter().map(|h| format!("{} is {}", h.key, h.trust_status)).collect::<Vec<_>>().join("; ")
                    ),
                    Some("`did-it-actually install --host codex` again (it trusts what it registers)".into()),
                )
            }
        }
    }
}

/// A push to `main`, through the registered block-wrong-branch command, in the host's
/// own input shape; the answer must be the host's own deny.
fn self_test(found: &Found) -> Vec<Check> {
    let Some(command) = commands(found)
        .into_iter()
        .find(|c| c.contains(" block-wrong-branch"))
    else {
        return Vec::new();
    };
    run_self_test(found.spec.host, &command)
}

/// Runs `command` (a shell command line, as the host runs it) on a push to `main` in a
/// scratch repository, in `host`'s input shape; the answer must be the host's own deny.
fn run_self_test(host: Host, command: &str) -> Vec<Check> {
    let title = host.spec().title;
    let scratch = std::env::temp_dir().join(format!(
        "did-it-actually-doctor-{}-{}",
        host.name(),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&scratch);
    let repo = scratch.join("repo");
    if let Err(e) = make_repo(&repo) {
        return vec![check(
            Mark::Warn,
            format!("self-test: {title}"),
            format!("no scratch repository ({e})"),
            None,
        )];
    }
    let probe = probe(host, &repo, "git push origin HEAD:main");
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(command)
        .current_dir(&repo)
        .env("DID_IT_ACTUALLY_STATE_DIR", scratch.join("state"));
    let result = run_with_timeout(
        &mut cmd,
        probe.to_string().as_bytes(),
        Duration::from_secs(10),
    );
    let _ = std::fs::remove_dir_all(&scratch);
    let what = format!("self-test: {title} block-wrong-branch (a push to main)");
    let form = match host {
        Host::Copilot => DenyForm::Permission,
        _ => host.spec().forms.deny,
    };
    vec![match result {
        Err(e) => check(
            Mark::Fail,
            what,
            format!("`{command}` could not run: {e}"),
            None,
        ),
        Ok((code, stdout, stderr)) => {
            let v: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
            let denied = code == Some(0)
                && match form {
                    DenyForm::ClaudeJson => v["hookSpecificOutput"]["permissionDecision"] == "deny",
                    DenyForm::Decision => v["decision"] == "deny",
                    DenyForm::Permission => v["permissionDecision"] == "deny",
                    DenyForm::CursorPermission => v["permission"] == "deny",
                };
            if denied {
                check(
                    Mark::Pass,
                    what,
                    format!("denied in {title}'s own form, as it must"),
                    None,
                )
            } else {
                check(
                    Mark::Fail,
                    what,
                    format!(
                        "expected {title}'s deny (exit {code:?}, stdout {:?}, stderr {:?})",
                        crate::shell::walk::cut(&stdout),
                        crate::shell::walk::cut(&stderr)
                    ),
                    Some(format!(
                        "`did-it-actually install --host {}` again",
                        host.name()
                    )),
                )
            }
        }
    }]
}

/// opencode's plugin, project and user: ours and current, the binary it runs, and a live
/// self-test of that binary in the shape the plugin sends.
fn opencode_checks(
    scope: &Subject,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Vec<Check> {
    use crate::install::opencode;
    let mut out = Vec::new();
    let managed = PathBuf::from(crate::install::managed::OPENCODE_PLUGIN);
    let places = [
        Some(scope.project.join(opencode::PROJECT_FILE)),
        opencode::user_file(env),
        Some(managed.clone()),
    ];
    for path in places.into_iter().flatten() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if !opencode::is_ours(&text) {
            continue;
        }
        let registered = opencode::registered(&text);
        // Each hook once, in the table's order (as install writes them).
        let hooks: Vec<crate::hooks::Hook> = crate::hooks::Hook::ALL
            .into_iter()
            .filter(|h| registered.iter().any(|(_, r)| r == h))
            .collect();
        let mut listed: Vec<String> = registered
            .iter()
            .map(|(e, h)| format!("{} on {e}", h.name()))
            .collect();
        listed.dedup();
        out.push(check(
            Mark::Pass,
            "opencode plugin",
            format!("{}: {}", path.display(), listed.join(", ")),
            None,
        ));
        let named = opencode::named_binary(&text);
        let again = || Some("`did-it-actually install --host opencode` again".to_owned());
        let regs = crate::install::registrations(&hooks);
        let expected = match &named {
            Some(binary) if path == managed => {
                opencode::managed_plugin(&regs, binary, crate::install::hosts::MANAGED_MISSING)
            }
            _ => opencode::plugin(&regs, named.as_deref()),
        };
        if text != expected {
            out.push(check(
                Mark::Warn,
                "opencode plugin",
                format!(
                    "{} was written by another version of did-it-actually",
                    path.display()
                ),
                again(),
            ));
        }
        let (c, runs) = binary_check(
            "opencode hook binary".to_owned(),
            named.as_deref(),
            env,
            "plugin",
            "the plugin refuses every tool call (saying what to install) and cannot audit turns",
            &again,
        );
        out.push(c);
        if let Some(bin) = runs.filter(|_| hooks.contains(&crate::hooks::Hook::BlockWrongBranch)) {
            let quoted = format!("'{}'", bin.replace('\'', r"'\''"));
            out.extend(run_self_test(
                Host::Opencode,
                &format!("{quoted} block-wrong-branch --host opencode"),
            ));
        }
    }
    out
}

/// A shell call of `command` as `host` sends it to a pre-tool hook.
fn probe(host: Host, repo: &Path, command: &str) -> Value {
    let repo = repo.display().to_string();
    match host {
        Host::Gemini => {
            json!({"session_id": "doctor", "cwd": repo, "hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": command}})
        }
        Host::Copilot => {
            json!({"sessionId": "doctor", "timestamp": 0, "cwd": repo, "toolName": "bash", "toolArgs": {"command": command}})
        }
        Host::Qwen => {
            json!({"session_id": "doctor", "cwd": repo, "hook_event_name": "PreToolUse", "tool_name": "run_shell_command", "tool_input": {"command": command}})
        }
        Host::Droid => {
            json!({"session_id": "doctor", "cwd": repo, "hook_event_name": "PreToolUse", "tool_name": "Execute", "tool_input": {"command": command}})
        }
        Host::Cursor => {
            json!({"conversation_id": "doctor", "hook_event_name": "preToolUse", "workspace_roots": [repo], "tool_name": "Shell", "tool_input": {"command": command, "working_directory": repo}})
        }
        Host::Opencode => {
            json!({"sessionID": "doctor", "cwd": repo, "hook_event_name": "tool.execute.before", "tool": "bash", "args": {"command": command}})
        }
        Host::Codex | Host::Claude => {
            json!({"session_id": "doctor", "cwd": repo, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}})
        }
    }
}
