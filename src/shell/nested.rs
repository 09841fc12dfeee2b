//! An agent host started from the agent's shell without the guards: Claude Code with its
//! hooks off (`--bare`, `--settings` carrying `disableAllHooks` or an `env`,
//! `--setting-sources` without the scopes that register them) or its configuration moved
//! (`CLAUDE_CONFIG_DIR`), and the other hosts' configuration moved (`CODEX_HOME`, Gemini's
//! and Qwen's system settings paths). What such a run's commands do still runs under the
//! run-time layers (the confinement and the mount view are inherited by every process the
//! command starts, and the check after the command looks at the refs and git's
//! configuration), but its own hooks, the static reading, would be gone: refused here,
//! with the way to run it guarded.
//!
//! One table: the host programs, the options that take the guards out, and the variables
//! that move where the host reads its configuration.

use super::exec::Invocation;

/// One host's ways to start without the guards.
struct Host {
    /// Program names (file names, or a package path in a `node`/`npx` command line).
    names: &'static [&'static str],
    /// Options that switch hooks off whatever their value.
    off: &'static [&'static str],
    /// Variables that move the host's configuration (and with it the registration).
    moved_by: &'static [&'static str],
}

const HOSTS: &[Host] = &[
    Host {
        names: &["claude", "@anthropic-ai/claude-code", "claude-code"],
        off: &["--bare", "--safe-mode"],
        moved_by: &["CLAUDE_CONFIG_DIR"],
    },
    Host {
        names: &["codex", "@openai/codex"],
        off: &[],
        moved_by: &["CODEX_HOME"],
    },
    Host {
        names: &["gemini", "@google/gemini-cli"],
        off: &[],
        moved_by: &["GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_HOME"],
    },
    Host {
        names: &["qwen", "@qwen-code/qwen-code"],
        off: &[],
        moved_by: &["QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_HOME"],
    },
    Host {
        names: &["droid", "@factory/cli"],
        off: &[],
        moved_by: &["FACTORY_HOME"],
    },
];

/// Claude Code's settings scopes that hold a project install's registration and its
/// run-time environment.
const CLAUDE_SCOPES: &[&str] = &["project", "local"];

/// Why `inv` starts an agent host without the guards, if it does.
pub fn unguarded_agent(inv: &Invocation, exported: &[(String, Option<String>)]) -> Option<String> {
    let words: Vec<String> = std::iter::once(inv.program.clone())
        .chain(
            inv.args
                .iter()
                .map(|w| w.value.clone().unwrap_or_else(|| w.raw.clone())),
        )
        .collect();
    let (host, at) = HOSTS.iter().find_map(|h| {
        // The program, or the first words of `node …/cli.js`, `npx pkg`.
        words
            .iter()
            .take(3)
            .position(|w| {
                let name = std::path::Path::new(w)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                h.names.contains(&name.as_str())
                    || h.names.iter().any(|n| n.starts_with('@') && w.contains(n))
            })
            .map(|i| (h, i))
    })?;
    let name = host.names[0];
    let assigned =
        |v: &str| inv.env.iter().any(|(k, _)| k == v) || exported.iter().any(|(k, _)| k == v);
    if let Some(v) = host.moved_by.iter().find(|v| assigned(v)) {
        return Some(format!(
            "it starts {name} with {v} set, which moves where it reads its settings (and the guards registered there)"
        ));
    }
    let args = &words[at + 1..];
    if let Some(o) = args.iter().find(|a| host.off.contains(&a.as_str())) {
        return Some(format!(
            "it starts {name} with {o}, which runs it without hooks"
        ));
    }
    if name != "claude" {
        return None;
    }
    let value_of = |opt: &str| -> Option<Option<String>> {
        args.iter().enumerate().find_map(|(i, a)| {
            if a == opt {
                Some(args.get(i + 1).cloned())
            } else {
                a.strip_prefix(&format!("{opt}="))
                    .map(|v| Some(v.to_owned()))
            }
        })
    };
    if let Some(sources) = value_of("--setting-sources") {
        let sources = sources.unwrap_or_default();
        let listed: Vec<&str> = sources.split(',').map(str::trim).collect();
        if let Some(missing) = CLAUDE_SCOPES.iter().find(|s| !listed.contains(s)) {
            return Some(format!(
                "it starts claude with --setting-sources {sources:?}, without the {missing} settings that register the guards"
            ));
        }
    }
    if let Some(settings) = value_of("--settings") {
        let text = settings.unwrap_or_default();
        // Inline JSON, or a file: read where it can be; what cannot be read is refused.
        let json = if text.trim_start().starts_with('{') {
            Some(text.clone())
        } else {
            std::fs::read_to_string(&text).ok()
        };
        let Some(json) = json else {
            return Some(format!(
                "it starts claude with --settings {text:?}, which cannot be read before it runs (settings given this way can switch the hooks off)"
            ));
        };
        let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
        if v.get("disableAllHooks")
            .is_some_and(|d| d != &serde_json::Value::Bool(false))
        {
            return Some("it starts claude with --settings that set disableAllHooks".into());
        }
        if v.get("env")
            .is_some_and(|e| e.as_object().is_some_and(|o| !o.is_empty()))
        {
            return Some("it starts claude with --settings that set an env (which can take the run-time layers out of its commands)".into());
        }
        if v.get("hooks").is_some() {
            return Some("it starts claude with --settings that set hooks".into());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::Word;

    fn inv(words: &[&str], env: &[&str]) -> Invocation {
        Invocation {
            program: words[0].into(),
            args: words[1..].iter().map(|w| Word::literal(w)).collect(),
            env: env
                .iter()
                .map(|e| (e.to_string(), Some("x".into())))
                .collect(),
            ..Invocation::default()
        }
    }

    #[test]
    fn hooks_off_or_moved_is_refused_and_a_plain_run_is_not() {
        let no = |w: &[&str], e: &[&str]| unguarded_agent(&inv(w, e), &[]);
        assert!(no(&["claude", "--bare", "-p", "x"], &[]).is_some());
        assert!(no(&["claude", "-p", "x"], &["CLAUDE_CONFIG_DIR"]).is_some());
        assert!(no(&["claude", "--setting-sources", "user", "-p", "x"], &[]).is_some());
        assert!(no(
            &["claude", "--setting-sources=user,project,local", "-p", "x"],
            &[]
        )
        .is_none());
        assert!(no(
            &[
                "claude",
                "--settings",
                r#"{"disableAllHooks":true}"#,
                "-p",
                "x"
            ],
            &[]
        )
        .is_some());
        assert!(no(
            &[
                "claude",
                "--settings",
                r#"{"env":{"CLAUDE_CODE_SHELL_PREFIX":""}}"#
            ],
            &[]
        )
        .is_some());
        assert!(no(
            &["claude", "--settings", r#"{"model":"x"}"#, "-p", "x"],
            &[]
        )
        .is_none());
        assert!(no(&["claude", "--settings", "/nonexistent/s.json"], &[]).is_some());
        assert!(no(
            &[
                "node",
                "/x/node_modules/@anthropic-ai/claude-code/cli.js",
                "--bare"
            ],
            &[]
        )
        .is_some());
        assert!(no(&["npx", "@anthropic-ai/claude-code", "--bare"], &[]).is_some());
        assert!(no(&["codex", "exec", "x"], &["CODEX_HOME"]).is_some());
        assert!(no(&["claude", "-p", "hello"], &[]).is_none());
        assert!(no(&["claude", "--version"], &[]).is_none());
        assert!(no(&["git", "--bare", "init"], &[]).is_none());
        assert!(unguarded_agent(
            &inv(&["claude", "-p", "x"], &[]),
            &[("CLAUDE_CONFIG_DIR".into(), None)]
        )
        .is_some());
    }
}
