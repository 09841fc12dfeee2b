//! opencode's registration: not a hooks file but a plugin, a JS file opencode loads from
//! `.opencode/plugins/` (project) or `$XDG_CONFIG_HOME/opencode/plugins/` (user). The
//! plugin is written from a template (`opencode_plugin.js`) with the same hook table as
//! every other host's entries ([`super::registrations`]): which hook runs on which of
//! opencode's hooks, for which of its tools.

use super::Registration;
use crate::hooks::table::Matcher;
use crate::protocol::host::Host;
use crate::protocol::opencode;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The plugin's file name, in either plugins directory.
pub const FILE: &str = "did-it-actually.js";

/// The project's plugin, under the project root.
pub const PROJECT_FILE: &str = ".opencode/plugins/did-it-actually.js";

/// The first line, by which a plugin of ours is recognised.
pub const MARKER: &str = "// did-it-actually plugin for opencode";

const TEMPLATE: &str = include_str!("opencode_plugin.js");

/// The user's plugin: `$XDG_CONFIG_HOME/opencode/plugins/`, else `~/.config/opencode/plugins/`.
pub fn user_file(env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let config = env("XDG_CONFIG_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            env("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| Path::new(&h).join(".config"))
        })?;
    Some(config.join("opencode/plugins").join(FILE))
}

/// The plugin's text for `regs`, naming `binary` where the search would not find it.
pub fn plugin(regs: &[Registration], binary: Option<&str>) -> String {
    plugin_with(regs, binary, false, super::launcher::MISSING)
}

/// A managed install's plugin: it runs `binary` and nothing else, and where that is gone
/// refuses with `missing`.
pub fn managed_plugin(regs: &[Registration], binary: &str, missing: &str) -> String {
    plugin_with(regs, Some(binary), true, missing)
}

fn plugin_with(
    regs: &[Registration],
    binary: Option<&str>,
    only_named: bool,
    missing: &str,
) -> String {
    let spec = Host::Opencode.spec();
    let mut hooks = Vec::new();
    for reg in regs {
        let Some((event, _)) = spec.events.iter().find(|(_, e)| *e == reg.event) else {
            continue;
        };
        let tools = match reg.tool_matcher() {
            Some(Matcher::ShellTools) => json!(opencode::tool_names(true)),
            Some(Matcher::WriteTools) => json!(opencode::tool_names(false)),
            None => Value::Null,
        };
        hooks.push(json!({
            "event": event,
            "hook": reg.hook.name(),
            "tools": tools,
            "args": reg.args,
            "timeout": reg.timeout_secs,
        }));
    }
    let list = |items: Vec<Value>| {
        let lines: Vec<String> = items.iter().map(|v| format!("  {v},")).collect();
        format!("[\n{}\n]", lines.join("\n"))
    };
    TEMPLATE
        .replacen("/*NAMED*/null", &json!(binary).to_string(), 1)
        .replacen(
            "/*HOME_BIN_DIRS*/[]",
            &json!(super::launcher::HOME_BIN_DIRS).to_string(),
            1,
        )
        .replacen("/*ONLY_NAMED*/false", &json!(only_named).to_string(), 1)
        .replacen("/*MISSING*/\"\"", &json!(missing).to_string(), 1)
        .replacen("/*HOOKS*/[]", &list(hooks), 1)
}

/// Whether `text` is a plugin of ours.
pub fn is_ours(text: &str) -> bool {
    text.starts_with(MARKER)
}

/// The hooks a plugin of ours runs, read back from its table (for `doctor` and `status`).
pub fn registered(text: &str) -> Vec<(String, crate::hooks::Hook)> {
    let Some(start) = text.find("const HOOKS = [") else {
        return Vec::new();
    };
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with(']'))
        .filter_map(|l| serde_json::from_str::<Value>(l.trim().trim_end_matches(',')).ok())
        .filter_map(|v| {
            let hook = crate::hooks::Hook::from_name(v.get("hook")?.as_str()?)?;
            Some((v.get("event")?.as_str()?.to_owned(), hook))
        })
        .collect()
}

/// The binary a plugin names, if it names one.
pub fn named_binary(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.starts_with("const NAMED = "))?;
    let value = line
        .trim_start_matches("const NAMED = ")
        .trim_end_matches(';');
    serde_json::from_str::<Option<String>>(value).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::Hook;

    #[test]
    fn the_plugin_carries_the_hook_table_and_reads_it_back() {
        let text = plugin(
            &super::super::registrations(&Hook::ALL),
            Some("/opt/b in/x"),
        );
        assert!(is_ours(&text));
        assert!(!text.contains("/*"), "every placeholder filled");
        assert_eq!(named_binary(&text).as_deref(), Some("/opt/b in/x"));
        let hooks = registered(&text);
        let has = |event: &str, hook: Hook| hooks.iter().any(|(e, h)| e == event && *h == hook);
        assert!(has("tool.execute.before", Hook::BlockWrongBranch));
        assert!(has("tool.execute.before", Hook::ScopeGuard));
        assert!(has("tool.execute.after", Hook::VerifyWrite));
        assert!(has("session.idle", Hook::AuditTurn));
        let unnamed = plugin(&super::super::registrations(&[Hook::AuditTurn]), None);
        assert_eq!(named_binary(&unnamed), None);
        assert!(unnamed.contains("const ONLY_NAMED = false;"));
        let managed = managed_plugin(
            &super::super::registrations(&Hook::ALL),
            "/usr/local/lib/x",
            "gone",
        );
        assert!(managed.contains("const ONLY_NAMED = true;"), "{managed}");
        assert!(!managed.contains("/*"), "every placeholder filled");
        assert_eq!(
            registered(&unnamed),
            vec![("session.idle".to_owned(), Hook::AuditTurn)]
        );
    }

    #[test]
    fn write_hooks_see_opencodes_file_tools_and_shell_hooks_its_shell() {
        let text = plugin(&super::super::registrations(&Hook::ALL), None);
        assert!(
            text.contains(r#""tools":["write","edit","apply_patch"]"#),
            "{text}"
        );
        assert!(text.contains(r#""tools":["bash"]"#), "{text}");
    }
}
