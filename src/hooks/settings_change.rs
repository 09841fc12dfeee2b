//! scope-guard on Claude Code's `ConfigChange`: a settings file changed on disk (by a
//! program the agent started, a tool whose PreToolUse hook did not run, or anyone), and
//! Claude Code asks before it loads it. A change that would take a guard out is refused,
//! and Claude Code keeps the settings it loaded: `disableAllHooks`; an `env` that changes
//! or drops the run-time layers' variables, or sets one that moves git's hooks path, git's
//! configuration or the shell prefix; the project settings losing a registration of the
//! guards that the install made. `policy_settings` (managed) cannot be refused, and
//! `skills` are not settings.
//!
//! Judged from the file as it now is (`file_path`; a removed file is an empty one) and
//! from this hook's own environment, which is what Claude Code loaded (it gives its hooks
//! the settings' `env`).

use crate::runtime::activation::{ENV_NAMES, HOOKS_ENV, SHELL_PREFIX_ENV};
use std::ffi::OsString;
use std::path::Path;

type Lookup<'a> = &'a dyn Fn(&str) -> Option<OsString>;

/// Variables whose value decides whether git's hooks, git's configuration or the shell
/// prefix are the guard's: a settings file may not set them to anything but what is in
/// force.
const MOVES_A_LAYER: &[&str] = &[
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_CONFIG_KEY_1",
    "GIT_CONFIG_VALUE_1",
    "GIT_DIR",
    "CLAUDE_CODE_SHELL",
    "DID_IT_ACTUALLY_POLICY",
    "DID_IT_ACTUALLY_STATE_DIR",
];

/// Why this settings change must not be loaded, if it must not.
pub fn refusal(source: &str, file: Option<&Path>, env: Lookup, cwd: &Path) -> Option<String> {
    if matches!(source, "policy_settings" | "skills") {
        return None;
    }
    let file = file?;
    let text = match crate::fsutil::read_regular(file, crate::policy::MAX_POLICY_BYTES) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "{}".to_owned(),
        Err(e) => {
            return Some(format!(
                "{} cannot be read ({}), so whether it takes a guard out cannot be told",
                file.display(),
                crate::fsutil::describe_io(&e)
            ))
        }
    };
    // Not JSON: what Claude Code would make of it cannot be told (a file it ignores
    // drops what it registered), so it is refused like any change that cannot be judged.
    let settings: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            return Some(format!(
                "{} is not valid JSON ({e}), so whether it takes a guard out cannot be told",
                file.display()
            ))
        }
    };
    if settings
        .get("disableAllHooks")
        .is_some_and(|v| v != &serde_json::Value::Bool(false))
    {
        return Some("it sets disableAllHooks, which switches every guard off".into());
    }
    let new_env = settings.get("env").and_then(|e| e.as_object());
    let ours: Vec<&str> = ENV_NAMES
        .iter()
        .copied()
        .chain([SHELL_PREFIX_ENV])
        .chain(MOVES_A_LAYER.iter().copied())
        .collect();
    for var in &ours {
        let now = env(var).map(|v| v.to_string_lossy().into_owned());
        let new = new_env.and_then(|e| e.get(*var)).map(|v| match v {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        if let Some(new) = &new {
            if Some(new) != now.as_ref() {
                return Some(format!(
                    "its env sets {var} to {new:?}{}, which moves a run-time layer of the guard",
                    now.as_deref()
                        .map(|n| format!(" (in force: {n:?})"))
                        .unwrap_or_default()
                ));
            }
        }
    }
    // The file that carries the run-time layers' variables must keep them.
    let carries = holds_the_activation(file, cwd, env);
    if carries {
        for var in [HOOKS_ENV, SHELL_PREFIX_ENV] {
            let now = env(var);
            let kept = new_env.is_some_and(|e| e.contains_key(var));
            if now.is_some() && !kept {
                return Some(format!(
                    "it drops {var} from its env, which takes a run-time layer out of the agent's commands"
                ));
            }
        }
    }
    if let Some(missing) = dropped_registration(file, cwd, &settings) {
        return Some(missing);
    }
    None
}

/// Whether `file` is where install put the run-time layers' variables: the project's
/// `settings.local.json` for a project install (the variable naming the project says so),
/// the user's settings for a user-wide one.
fn holds_the_activation(file: &Path, cwd: &Path, env: Lookup) -> bool {
    let real = crate::fsutil::canonical(file);
    let project = env(crate::runtime::activation::PROJECT_ENV)
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| crate::approval::project_of(cwd));
    if real == crate::fsutil::canonical(&project.join(".claude/settings.local.json")) {
        return true;
    }
    env(crate::runtime::activation::PROJECT_ENV).is_none()
        && env("HOME").is_some_and(|h| {
            real == crate::fsutil::canonical(&Path::new(&h).join(".claude/settings.json"))
        })
}

/// For the project's shared settings of a project install (the launcher beside them):
/// the registration of a guard that the new content no longer has.
fn dropped_registration(file: &Path, cwd: &Path, settings: &serde_json::Value) -> Option<String> {
    let dir = file.parent()?;
    if file.file_name()? != "settings.json" {
        return None;
    }
    let launcher = dir.join(crate::BINARY_NAME);
    let ours =
        std::fs::read_to_string(&launcher).is_ok_and(|t| crate::install::launcher::is_ours(&t));
    let project = crate::approval::project_of(cwd);
    if !ours || crate::fsutil::canonical(dir) != crate::fsutil::canonical(&project.join(".claude"))
    {
        return None;
    }
    for spec in crate::hooks::table::HOOKS {
        for binding in spec.bindings {
            if binding.event == crate::protocol::Event::ConfigChange {
                continue;
            }
            let entries = settings
                .get("hooks")
                .and_then(|h| h.get(binding.event.name()))
                .map(|e| e.to_string())
                .unwrap_or_default();
            if !(entries.contains(crate::BINARY_NAME) && entries.contains(spec.name)) {
                return Some(format!(
                    "it drops the {} registration on {} that did-it-actually install made",
                    spec.name,
                    binding.event.name()
                ));
            }
        }
    }
    None
}

/// The words the agent and the user read.
pub fn reason(source: &str, file: Option<&Path>, why: &str) -> String {
    format!(
        "scope-guard: Claude Code keeps the settings it loaded: this change to {} ({source}) was not loaded: {why}. The settings that register the guards are the user's to change, outside the agent (`did-it-actually uninstall`, or an edit that takes effect in a new session).",
        file.map_or_else(|| "a settings file".to_owned(), |f| f.display().to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("dia-settings-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join(".claude")).unwrap();
        std::fs::create_dir_all(d.join(".git")).unwrap();
        d
    }

    #[test]
    fn a_change_that_takes_a_guard_out_is_refused_and_others_are_not() {
        let p = dir("judge");
        let local = p.join(".claude/settings.local.json");
        let prefix = "/s/git/p-1/did-it-actually-confine".to_owned();
        let project = p.to_string_lossy().into_owned();
        let env = |k: &str| match k {
            "CLAUDE_CODE_SHELL_PREFIX" => Some(OsString::from(&prefix)),
            "DID_IT_ACTUALLY_PROJECT" => Some(OsString::from(&project)),
            _ => None,
        };
        let judge = |text: &str| {
            std::fs::write(&local, text).unwrap();
            refusal("local_settings", Some(&local), &env, &p)
        };
        assert!(judge(r#"{"disableAllHooks": true}"#).is_some());
        assert!(judge(r#"{"env": {}}"#)
            .unwrap()
            .contains("drops CLAUDE_CODE_SHELL_PREFIX"));
        assert!(judge(r#"{"env": {"CLAUDE_CODE_SHELL_PREFIX": "/bin/env"}}"#).is_some());
        assert!(judge(&format!(r#"{{"env": {{"CLAUDE_CODE_SHELL_PREFIX": "{prefix}", "GIT_CONFIG_GLOBAL": "/tmp/x"}}}}"#)).is_some());
        assert_eq!(
            judge(&format!(
                r#"{{"env": {{"CLAUDE_CODE_SHELL_PREFIX": "{prefix}", "FOO": "1"}}, "model": "x"}}"#
            )),
            None
        );
        assert!(refusal("policy_settings", Some(&local), &env, &p).is_none());
        assert!(judge("{\"env\": ").unwrap().contains("not valid JSON"));
        std::fs::remove_file(&local).unwrap();
        assert!(
            refusal("local_settings", Some(&local), &env, &p).is_some(),
            "a removal drops the env"
        );
        let _ = std::fs::remove_dir_all(&p);
    }
}
