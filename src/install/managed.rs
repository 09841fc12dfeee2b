//! The managed level: the hosts' administrator settings, which no user or project setting
//! can switch off. `install --managed` deploys three kinds of file there, each described
//! here as data ([`Deployment`]) before anything is written:
//!
//! - the host's registration, in its admin-level file ([`MANAGED_HOSTS`]);
//! - the binary the entries run, at a root-owned path when the one running is not (an
//!   entry naming a binary the agent's user can replace guards nothing);
//! - the organisation's policy ([`crate::policy::org`]), when one is given.
//!
//! Writing needs root. Nothing here escalates: the command writes directly when it runs
//! as root, and otherwise stages the files under the state directory and prints the one
//! command an administrator runs, with each file's SHA-256 checked first (the staging
//! directory is this user's, and so an agent's: the checksums are printed, not stored).

use crate::hooks::Hook;
use crate::protocol::host::Host;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// Where a managed install puts the binary when the running one is not root-owned.
pub const MANAGED_BINARY: &str = "/usr/local/lib/did-it-actually/did-it-actually";

/// One host's administrator level.
#[derive(Clone, Copy, Debug)]
pub struct ManagedHost {
    pub host: Host,
    /// The directory of the level (`/etc/claude-code`).
    pub dir: &'static str,
    /// Our file in it, relative to `dir`: a drop-in of our own where the host reads a
    /// directory of them (the administrator's own file stays untouched).
    pub file: &'static str,
    /// The other files of the level, read for what they switch off.
    pub others: &'static [&'static str],
    /// How the host's hooks and environment are written there.
    pub form: Form,
    /// What a project or user can still do to switch this host's managed hooks off, which
    /// no admin-level key prevents (said at install and by `doctor`).
    pub cannot_lock: &'static [&'static str],
}

/// The shape of an admin-level file.
#[derive(Clone, Copy, Debug)]
pub enum Form {
    /// Claude Code's settings (`hooks`, `env`), as in its user and project files.
    ClaudeSettings,
    /// The host's own hooks file, as at its user level
    /// ([`crate::install::hosts::HOST_INSTALLS`]), merged into the administrator's file
    /// (which may hold their own settings), with the keys that keep it on (`lock`).
    HostSettings { lock: fn(&mut Map<String, Value>) },
    /// Codex: the system layer's `hooks.json` (hooks there are managed: trusted without a
    /// trust step, and no per-hook switch turns them off), plus `[features] hooks = true`
    /// in `requirements.toml`, without which a user's `hooks = false` or `--disable hooks`
    /// switches every hook off.
    Codex,
    /// opencode: no hooks file but a plugin. Ours is written beside the administrator's
    /// config ([`OPENCODE_PLUGIN`]) and named in its `plugin` list, which a user's or
    /// project's `"plugin": []` does not take away (opencode merges the lists).
    Opencode,
}

/// The administrator's opencode config without our plugin; `None` when nothing else is
/// left in it.
pub fn opencode_config_without_ours(level: &ManagedHost) -> Result<Option<String>, String> {
    let mut settings = current(level)?;
    let url = json!(format!("file://{OPENCODE_PLUGIN}"));
    if let Some(list) = settings.get_mut("plugin").and_then(Value::as_array_mut) {
        list.retain(|v| v != &url);
        if list.is_empty() {
            settings.remove("plugin");
        }
    }
    Ok((!settings.is_empty()).then(|| crate::install::render_settings(&settings)))
}

/// Where a managed install puts opencode's plugin.
pub const OPENCODE_PLUGIN: &str = "/etc/opencode/did-it-actually.js";

/// The administrator's opencode config (as it is now, or empty) naming our plugin.
pub fn opencode_config(level: &ManagedHost) -> Result<String, String> {
    let mut settings = current(level)?;
    let url = format!("file://{OPENCODE_PLUGIN}");
    let list = settings.entry("plugin").or_insert_with(|| json!([]));
    if !list.is_array() {
        return Err(format!(
            "{}: `plugin` is not a list; fix it, then install again",
            level.path().display()
        ));
    }
    let items = list.as_array_mut().expect("checked");
    if !items.iter().any(|v| v == &json!(url)) {
        items.push(json!(url));
    }
    Ok(crate::install::render_settings(&settings))
}

/// Codex's requirements file, beside its system `hooks.json`.
pub const CODEX_REQUIREMENTS: &str = "/etc/codex/requirements.toml";

/// `text` (a requirements.toml, possibly empty) with `hooks = true` in its `[features]`
/// table: the key replaced where the table has it, added under the table's header where
/// it does not, the table added where there is none. Line-based: the rest of the file is
/// left byte for byte.
pub fn codex_requirements(text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let header = |l: &str| l.trim().starts_with('[');
    match lines.iter().position(|l| l.trim() == "[features]") {
        Some(at) => {
            let end = lines[at + 1..]
                .iter()
                .position(|l| header(l))
                .map_or(lines.len(), |i| at + 1 + i);
            let key = lines[at + 1..end].iter().position(|l| {
                let t = l.trim_start();
                t.starts_with("hooks") && t["hooks".len()..].trim_start().starts_with('=')
            });
            match key {
                Some(i) => lines[at + 1 + i] = "hooks = true".to_owned(),
                None => lines.insert(at + 1, "hooks = true".to_owned()),
            }
        }
        None => {
            if lines.last().is_some_and(|l| !l.trim().is_empty()) {
                lines.push(String::new());
            }
            lines.push("[features]".to_owned());
            lines.push("hooks = true".to_owned());
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Every host with an administrator level that takes hooks, found in its own shipped
/// code and each run for real (docs/managed.md: sources, and what each host still lets a
/// project do). Claude Code reads `managed-settings.json` and every
/// `managed-settings.d/*.json` beside it, so ours is a file of its own; the others read one
/// file, which ours is merged into.
pub const MANAGED_HOSTS: &[ManagedHost] = &[
    ManagedHost {
        host: Host::Claude,
        dir: "/etc/claude-code",
        file: "managed-settings.d/did-it-actually.json",
        others: &["managed-settings.json", "managed-settings.d"],
        form: Form::ClaudeSettings,
        cannot_lock: &[],
    },
    ManagedHost {
        host: Host::Gemini,
        dir: "/etc/gemini-cli",
        file: "settings.json",
        others: &["settings.json"],
        form: Form::HostSettings { lock: lock_gemini },
        cannot_lock: &[
            "a project or user `hooksConfig.disabled` list naming a hook switches it off (Gemini CLI unions those lists across levels)",
            "Gemini CLI runs no hook at all in a folder it does not trust",
        ],
    },
    ManagedHost {
        host: Host::Qwen,
        dir: "/etc/qwen-code",
        file: "settings.json",
        others: &["settings.json"],
        form: Form::HostSettings { lock: lock_qwen },
        cannot_lock: &[
            "a project's `.qwen/.env` setting QWEN_CODE_SAFE_MODE=1, and `--safe-mode`/`--bare`, run Qwen Code without any hook",
        ],
    },
    ManagedHost {
        host: Host::Codex,
        dir: "/etc/codex",
        file: "hooks.json",
        others: &["hooks.json", "requirements.toml", "config.toml"],
        form: Form::Codex,
        cannot_lock: &[],
    },
    ManagedHost {
        host: Host::Opencode,
        dir: "/etc/opencode",
        file: "opencode.json",
        others: &["opencode.json", "opencode.jsonc"],
        form: Form::Opencode,
        cannot_lock: &[
            "`opencode --pure` (or OPENCODE_PURE=1 in the environment a user starts it with) runs without any plugin, ours too",
        ],
    },
    ManagedHost {
        host: Host::Droid,
        dir: "/etc/factory",
        file: "settings.json",
        others: &["settings.json"],
        form: Form::HostSettings { lock: lock_droid },
        cannot_lock: &[],
    },
];

/// Gemini CLI merges the system file last: `hooksConfig.enabled` there wins over a
/// project's or user's `false`.
fn lock_gemini(s: &mut Map<String, Value>) {
    object(s, "hooksConfig").insert("enabled".into(), Value::Bool(true));
}

/// Qwen Code: the system file's `disableAllHooks: false` wins over a project's `true`; the
/// safe-mode variables are kept from a project's `.env` and settings `env`; `$version`
/// keeps Qwen from rewriting the file.
fn lock_qwen(s: &mut Map<String, Value>) {
    s.entry("$version").or_insert(json!(4));
    s.insert("disableAllHooks".into(), Value::Bool(false));
    let advanced = object(s, "advanced");
    let excluded = advanced
        .entry("excludedEnvVars")
        .or_insert_with(|| json!([]));
    if let Some(list) = excluded.as_array_mut() {
        for v in ["QWEN_CODE_SAFE_MODE", "QWEN_CODE_SIMPLE"] {
            if !list.iter().any(|x| x == v) {
                list.push(json!(v));
            }
        }
    }
    let env = object(s, "env");
    env.insert("QWEN_CODE_SAFE_MODE".into(), json!("0"));
    env.insert("QWEN_CODE_SIMPLE".into(), json!("0"));
}

/// droid: the highest level that sets `hooks.hooksDisabled` decides, and the
/// organisation's is the highest.
fn lock_droid(s: &mut Map<String, Value>) {
    object(s, "hooks").insert("hooksDisabled".into(), Value::Bool(false));
}

/// The object at `key`, made when missing (a non-object there is replaced: the
/// administrator's file must hold the lock).
fn object<'a>(s: &'a mut Map<String, Value>, key: &str) -> &'a mut Map<String, Value> {
    let v = s.entry(key).or_insert_with(|| json!({}));
    if !v.is_object() {
        *v = json!({});
    }
    v.as_object_mut().expect("just made an object")
}

/// The admin level of `host`, if it has one that takes hooks.
pub fn managed_host(host: Host) -> Option<&'static ManagedHost> {
    MANAGED_HOSTS.iter().find(|m| m.host == host)
}

impl ManagedHost {
    /// Our file, absolute.
    pub fn path(&self) -> PathBuf {
        Path::new(self.dir).join(self.file)
    }

    /// Every settings file of the level that exists, ours included, in the order the
    /// host reads them.
    pub fn files(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for other in self.others {
            let p = Path::new(self.dir).join(other);
            if p.is_dir() {
                let mut inner: Vec<PathBuf> = std::fs::read_dir(&p)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "json"))
                    .collect();
                inner.sort();
                out.extend(inner);
            } else if p.is_file() {
                out.push(p);
            }
        }
        out
    }
}

/// One file a managed install deploys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deployed {
    /// Where it goes (absolute).
    pub path: PathBuf,
    pub mode: u32,
    pub bytes: Vec<u8>,
    /// What it is, for the reader.
    pub what: String,
}

impl Deployed {
    pub fn sha256(&self) -> String {
        crate::fsutil::sha256_hex(&self.bytes)
    }
}

/// Everything a managed install writes, and what it found on the way.
#[derive(Clone, Debug, Default)]
pub struct Deployment {
    pub files: Vec<Deployed>,
    /// What the level's other files do to the guards, one sentence each.
    pub notes: Vec<String>,
}

/// The settings our managed file for Claude Code holds: every hook, run by `binary`,
/// fail-closed where the host honours it, and the organisation policy's path pinned in
/// `env` (managed settings win over every other level's `env`, so no project can move
/// the guards to another policy).
pub fn claude_settings(binary: &str, hooks: &[Hook], fail_closed: bool) -> Result<String, String> {
    let regs = crate::install::registrations(hooks);
    let mut settings = Map::new();
    crate::install::merge(&mut settings, &regs, binary, fail_closed).map_err(|e| e.to_string())?;
    settings.insert(
        "env".into(),
        json!({ crate::policy::org::ORG_POLICY_ENV: crate::policy::org::ORG_POLICY_PATH }),
    );
    Ok(crate::install::render_settings(&settings))
}

/// The administrator's file of a host whose level is one file (read as it is now, or
/// empty), with our entries merged in, running `binary`, and the keys that keep them on.
pub fn host_settings(
    level: &ManagedHost,
    hooks: &[Hook],
    binary: &str,
    fail_closed: bool,
) -> Result<String, String> {
    let lock: fn(&mut Map<String, Value>) = match level.form {
        Form::HostSettings { lock } => lock,
        Form::Codex => |_| {},
        Form::ClaudeSettings | Form::Opencode => {
            return Err(format!(
                "{} has no shared admin file",
                level.host.spec().title
            ))
        }
    };
    let spec = crate::install::hosts::host_install(level.host)
        .ok_or_else(|| format!("{} takes no hooks file", level.host.spec().title))?;
    let mut settings = current(level)?;
    let mut regs = crate::install::registrations(hooks);
    if !fail_closed {
        regs.iter_mut().for_each(|r| r.fail_closed = false);
    }
    let entries = crate::install::hosts::entries_with(
        spec,
        &regs,
        crate::install::hosts::Launch::Only(binary),
    );
    crate::install::hosts::merge(&mut settings, spec, &entries)?;
    lock(&mut settings);
    Ok(crate::install::render_settings(&settings))
}

/// The administrator's file without our entries (the keys that kept hooks on stay: they
/// may hold others' hooks on too); `None` when nothing else is left in it.
pub fn host_settings_without_ours(level: &ManagedHost) -> Result<Option<String>, String> {
    let spec = crate::install::hosts::host_install(level.host)
        .ok_or_else(|| format!("{} takes no hooks file", level.host.spec().title))?;
    let mut settings = current(level)?;
    crate::install::hosts::remove(&mut settings, spec, &Hook::ALL);
    let hooks_left = settings
        .get("hooks")
        .and_then(Value::as_object)
        .is_some_and(|h| {
            h.iter()
                .any(|(k, v)| k != "hooksDisabled" && v.as_array().is_some_and(|a| !a.is_empty()))
        });
    let only_locks = settings.keys().all(|k| {
        matches!(
            k.as_str(),
            "hooks"
                | "hooksConfig"
                | "$version"
                | "disableAllHooks"
                | "advanced"
                | "env"
                | "version"
        )
    });
    if !hooks_left && only_locks && !settings.contains_key("mcpServers") {
        return Ok(None);
    }
    Ok(Some(crate::install::render_settings(&settings)))
}

/// The level's file as it is now (empty when there is none).
fn current(level: &ManagedHost) -> Result<Map<String, Value>, String> {
    let path = level.path();
    match crate::install::read_settings(&path).map_err(|e| e.to_string())? {
        (_, Some(text)) => crate::install::parse_settings(&path, &text).map_err(|e| e.to_string()),
        (_, None) => Ok(Map::new()),
    }
}

/// What the level's files (other than ours) do to hooks: `disableAllHooks` there switches
/// every hook off, ours too; `allowManagedHooksOnly` leaves only managed hooks running,
/// so project installs stop counting and this one is what guards.
pub fn claude_level_notes(level: &ManagedHost) -> Vec<String> {
    let ours = level.path();
    let mut out = Vec::new();
    for file in level.files() {
        if file == ours {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&file) else {
            out.push(format!(
                "{} cannot be read: what it sets is unknown",
                file.display()
            ));
            continue;
        };
        let Ok(Value::Object(settings)) = serde_json::from_str::<Value>(&text) else {
            out.push(format!(
                "{} is not a JSON object: Claude Code reports it and reads nothing from it",
                file.display()
            ));
            continue;
        };
        if truthy(settings.get("disableAllHooks")) {
            out.push(format!(
                "{} sets disableAllHooks: every hook is off, the managed ones too, until an administrator removes it",
                file.display()
            ));
        }
        if truthy(settings.get("allowManagedHooksOnly")) {
            out.push(format!(
                "{} sets allowManagedHooksOnly: only managed hooks run, so this install is the one that guards (project and user installs are ignored)",
                file.display()
            ));
        }
    }
    out
}

/// Claude Code reads these switches loosely (`true`, `"true"`, anything but false and
/// null); so do we.
pub fn truthy(v: Option<&Value>) -> bool {
    !matches!(v, None | Some(Value::Null) | Some(Value::Bool(false)))
        && v != Some(&Value::String("false".into()))
}

/// The hooks of ours a managed settings file registers.
pub fn registered_hooks(settings: &Map<String, Value>) -> Vec<Hook> {
    let mut out = Vec::new();
    let Some(Value::Object(events)) = settings.get("hooks") else {
        return out;
    };
    for groups in events.values() {
        for group in groups.as_array().into_iter().flatten() {
            for handler in group
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(h) = crate::install::our_hook(handler) {
                    if !out.contains(&h) {
                        out.push(h);
                    }
                }
            }
        }
    }
    out
}

/// Whether `path` is safe to name in a managed entry: root-owned, and neither it nor
/// any directory above it writable by anyone but root.
pub fn root_owned_chain(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        path.ancestors().all(|p| {
            std::fs::metadata(p).is_ok_and(|m| {
                // A sticky directory (/tmp) still lets others replace nothing of root's,
                // but a binary under it is one rename away from anyone's: refused too.
                m.uid() == 0 && m.mode() & 0o022 == 0
            })
        })
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// The one command an administrator runs to deploy `files` staged under `stage`: each
/// file's checksum is checked before any is installed.
pub fn admin_command(stage: &Path, files: &[Deployed]) -> String {
    let q = |p: &Path| {
        shlex::try_quote(&p.to_string_lossy())
            .map(|s| s.into_owned())
            .unwrap_or_else(|_| "''".into())
    };
    let mut checks = Vec::new();
    let mut installs = Vec::new();
    for f in files {
        let staged = staged_path(stage, &f.path);
        checks.push(format!("{}  {}", f.sha256(), staged.display()));
        installs.push(format!(
            "install -D -o root -g root -m {:o} {} {}",
            f.mode,
            q(&staged),
            q(&f.path)
        ));
    }
    let script = format!(
        "printf '%s\\n' {} | sha256sum -c --quiet - && {}",
        checks
            .iter()
            .map(|c| shlex::try_quote(c)
                .map(|s| s.into_owned())
                .unwrap_or_default())
            .collect::<Vec<_>>()
            .join(" "),
        installs.join(" && ")
    );
    format!(
        "sudo sh -c {}",
        shlex::try_quote(&script)
            .map(|s| s.into_owned())
            .unwrap_or_default()
    )
}

/// Where a file that goes to `target` is staged under `stage` (the absolute path, below
/// it).
pub fn staged_path(stage: &Path, target: &Path) -> PathBuf {
    stage.join(target.strip_prefix("/").unwrap_or(target))
}

/// The one command that removes what a managed install deployed.
pub fn admin_remove_command(paths: &[PathBuf]) -> String {
    let list: Vec<String> = paths
        .iter()
        .map(|p| {
            shlex::try_quote(&p.to_string_lossy())
                .map(|s| s.into_owned())
                .unwrap_or_default()
        })
        .collect();
    format!("sudo rm -f {}", list.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_claude_file_registers_every_hook_and_pins_the_organisation_policy() {
        let text = claude_settings(
            "/usr/local/lib/did-it-actually/did-it-actually",
            &Hook::ALL,
            true,
        )
        .unwrap();
        let v: Map<String, Value> = serde_json::from_str(&text).unwrap();
        let hooks = registered_hooks(&v);
        for h in Hook::ALL {
            assert!(hooks.contains(&h), "{h:?} missing in {text}");
        }
        assert_eq!(
            v["env"][crate::policy::org::ORG_POLICY_ENV],
            crate::policy::org::ORG_POLICY_PATH
        );
        assert!(text.contains("\"onFailure\": \"block\""), "{text}");
    }

    #[test]
    fn the_admin_command_checks_every_file_before_installing_any() {
        let files = vec![Deployed {
            path: PathBuf::from("/etc/claude-code/managed-settings.d/did-it-actually.json"),
            mode: 0o644,
            bytes: b"{}\n".to_vec(),
            what: "x".into(),
        }];
        let cmd = admin_command(
            Path::new("/home/u/.local/state/did-it-actually/managed"),
            &files,
        );
        assert!(cmd.starts_with("sudo sh -c "), "{cmd}");
        let check = cmd.find("sha256sum -c").unwrap();
        let install = cmd.find("install -D").unwrap();
        assert!(check < install, "{cmd}");
        assert!(cmd.contains(&files[0].sha256()), "{cmd}");
        assert!(cmd.contains("-m 644"), "{cmd}");
    }

    #[test]
    fn codex_requirements_gain_the_feature_and_keep_the_rest() {
        assert_eq!(codex_requirements(""), "[features]\nhooks = true\n");
        assert_eq!(
            codex_requirements("allowed_approval_policies = [\"never\"]\n"),
            "allowed_approval_policies = [\"never\"]\n\n[features]\nhooks = true\n"
        );
        assert_eq!(
            codex_requirements("[features]\nweb_search = false\nhooks = false\n\n[x]\nhooks = 1\n"),
            "[features]\nweb_search = false\nhooks = true\n\n[x]\nhooks = 1\n"
        );
        assert_eq!(
            codex_requirements("[features]\nweb_search = false\n"),
            "[features]\nhooks = true\nweb_search = false\n"
        );
    }

    #[test]
    fn switches_are_read_as_claude_code_reads_them() {
        assert!(truthy(Some(&json!(true))));
        assert!(truthy(Some(&json!("true"))));
        assert!(!truthy(Some(&json!(false))));
        assert!(!truthy(Some(&json!("false"))));
        assert!(!truthy(None));
    }
}
