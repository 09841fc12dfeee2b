//! Registering the hooks in Claude Code's settings (the other hosts' files: [`hosts`]): a merge that keeps every foreign entry
//! in place, is idempotent (a second run leaves the file byte-identical), writes
//! atomically, and keeps a one-time backup of the original.
//!
//! The [`registrations`] table is the one description of where each hook goes; the
//! plugin's `hooks/hooks.json` is generated from it too.

use crate::hooks::Hook;
use crate::protocol::Event;
use crate::tools;
use serde_json::{json, Map, Value};
use std::fs;
use std::path::{Path, PathBuf};

pub mod codex_trust;
pub mod exclude;
pub mod hosts;
pub mod launcher;
pub mod managed;
pub mod opencode;

pub use crate::BINARY_NAME;
/// The backup of the settings file as it was before the first install.
pub const BACKUP_SUFFIX: &str = ".did-it-actually.bak";

/// Where one hook is registered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registration {
    pub hook: Hook,
    pub event: Event,
    /// None for events that take no tool matcher.
    pub matcher: Option<String>,
    pub timeout_secs: u32,
    /// `onFailure: "block"`. Never on Stop or SubagentStop, where Claude Code ignores it
    /// and logs a warning.
    pub fail_closed: bool,
    /// Arguments after the hook's name (`--end-turn-tool end_turn`).
    pub args: Vec<String>,
}

impl Registration {
    /// Which of the hook table's tool matchers this registration was made from (by the
    /// matcher string it carries); `None` for events that take no matcher.
    pub fn tool_matcher(&self) -> Option<crate::hooks::table::Matcher> {
        use crate::hooks::table::Matcher;
        let m = self.matcher.as_deref()?;
        Some(if m == crate::tools::shell_tools_matcher() {
            Matcher::ShellTools
        } else {
            Matcher::WriteTools
        })
    }
}

/// Every registration of `hooks`, in a stable order.
pub fn registrations(hooks: &[Hook]) -> Vec<Registration> {
    registrations_with(hooks, &[])
}

/// Every registration of `hooks`, plus, when audit-turn is among them and `end_turn_tools`
/// names any, audit-turn on PostToolBatch for those turn-terminator tools (Agent SDK
/// apps whose loop ends with a tool call, where no Stop event comes).
pub fn registrations_with(hooks: &[Hook], end_turn_tools: &[String]) -> Vec<Registration> {
    use crate::hooks::table::{FailMode, Matcher, When};
    let mut out = Vec::new();
    for &hook in hooks {
        for r in hook.spec().bindings {
            let args = match r.when {
                When::Always => Vec::new(),
                When::EndTurnTools if end_turn_tools.is_empty() => continue,
                When::EndTurnTools => end_turn_tools
                    .iter()
                    .flat_map(|t| ["--end-turn-tool".to_owned(), t.clone()])
                    .collect(),
            };
            out.push(Registration {
                hook,
                event: r.event,
                matcher: r.matcher.map(|m| match m {
                    Matcher::WriteTools => tools::write_tools_matcher(),
                    Matcher::ShellTools => tools::shell_tools_matcher(),
                }),
                timeout_secs: r.timeout_secs,
                fail_closed: r.fail == FailMode::Closed,
                args,
            });
        }
    }
    out
}

/// The handler object for one registration, in exec form (no shell).
pub fn handler(reg: &Registration, command: &str, fail_closed: bool) -> Value {
    let mut h = Map::new();
    h.insert("type".into(), json!("command"));
    h.insert("command".into(), json!(command));
    let mut args = vec![reg.hook.name().to_owned()];
    args.extend(reg.args.iter().cloned());
    h.insert("args".into(), json!(args));
    h.insert("timeout".into(), json!(reg.timeout_secs));
    if fail_closed && reg.fail_closed && !matches!(reg.event, Event::Stop | Event::SubagentStop) {
        h.insert("onFailure".into(), json!("block"));
    }
    Value::Object(h)
}

/// The hook a handler runs, when the handler is one of ours: exec form (our binary, the
/// hook as first argument), or shell form, as a user may have written it
/// (`/opt/bin/did-it-actually verify-write`, `/opt/bin/verify-write`).
pub fn our_hook(handler: &Value) -> Option<Hook> {
    let command = handler.get("command")?.as_str()?;
    let exec_args = handler.get("args").and_then(Value::as_array);
    let words: Vec<String> = match exec_args {
        Some(_) => vec![command.to_owned()],
        None => shlex::split(command).unwrap_or_default(),
    };
    // Another host's inline launcher: `sh -c SCRIPT did-it-actually HOOK ...`.
    let words = match words.as_slice() {
        [sh, c, _script, name, rest @ ..] if sh == "sh" && c == "-c" && name == BINARY_NAME => {
            std::iter::once(name.clone())
                .chain(rest.iter().cloned())
                .collect()
        }
        _ => words,
    };
    let program = words.first()?;
    let base = program.rsplit(['/', '\\']).next().unwrap_or(program);
    if base == BINARY_NAME {
        let arg = match exec_args {
            Some(args) => args.first()?.as_str()?,
            None => words.get(1)?.as_str(),
        };
        return Hook::from_name(arg);
    }
    Hook::from_name(base)
}

/// A settings file that cannot be merged. Nothing is written when one occurs.
#[derive(Debug, PartialEq, Eq)]
pub enum SettingsError {
    Read {
        path: PathBuf,
        message: String,
    },
    Invalid {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    Shape {
        path: PathBuf,
        message: String,
    },
    Write {
        path: PathBuf,
        message: String,
    },
}

impl std::fmt::Display for SettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingsError::Read { path, message } => {
                write!(f, "cannot read {}: {message}", path.display())
            }
            SettingsError::Invalid { path, line, column, message } => write!(
                f,
                "{}:{line}:{column}: not valid JSON: {message}; fix it by hand, nothing was written",
                path.display()
            ),
            SettingsError::Shape { path, message } => write!(
                f,
                "{}: {message}; fix it by hand, nothing was written",
                path.display()
            ),
            SettingsError::Write { path, message } => {
                write!(f, "cannot write {}: {message}", path.display())
            }
        }
    }
}

impl std::error::Error for SettingsError {}

/// Parses settings text; an empty (or all-whitespace) file is an empty object.
pub fn parse_settings(path: &Path, text: &str) -> Result<Map<String, Value>, SettingsError> {
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    if text.starts_with('\u{feff}') {
        return Err(SettingsError::Invalid {
            path: path.to_owned(),
            line: 1,
            column: 1,
            message: "the file starts with a byte-order mark (U+FEFF), which JSON does not allow (save it as UTF-8 without BOM)".into(),
        });
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(SettingsError::Shape {
            path: path.to_owned(),
            message: "the top level is not a JSON object".into(),
        }),
        Err(e) => Err(invalid_json(path, &e)),
    }
}

fn invalid_json(path: &Path, e: &serde_json::Error) -> SettingsError {
    let e = crate::json::JsonError::from(e);
    SettingsError::Invalid {
        path: path.to_owned(),
        line: e.line,
        column: e.column,
        message: e.message,
    }
}

/// A key written twice in one object. Claude Code reads such a file (the last one wins);
/// a rewrite would drop the first one's text, so install refuses it.
pub fn duplicate_key(path: &Path, text: &str) -> Result<(), SettingsError> {
    if text.trim().is_empty() {
        return Ok(());
    }
    crate::json::find_duplicate_key(text).map_err(|e| invalid_json(path, &e))
}

/// The file a settings path stands for (a symlink's target: dotfiles) and its text, or
/// None when there is no file.
pub fn read_settings(path: &Path) -> Result<(PathBuf, Option<String>), SettingsError> {
    let read_err = |message: String| SettingsError::Read {
        path: path.to_owned(),
        message,
    };
    let target = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path).map_err(|e| {
            read_err(format!(
                "it is a symbolic link whose target cannot be resolved ({e}); fix or remove the link"
            ))
        })?,
        _ => path.to_owned(),
    };
    let text = match fs::read(&target) {
        Ok(bytes) => Some(String::from_utf8(bytes).map_err(|e| {
            read_err(format!(
                "it is not UTF-8 text (the byte at offset {} is invalid); nothing was written",
                e.utf8_error().valid_up_to()
            ))
        })?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(read_err(e.to_string())),
    };
    Ok((target, text))
}

/// Adds (or updates in place) our handler for each registration. Our handlers for the
/// same hook elsewhere in the event (another matcher, an old binary path) are removed, and
/// so are the groups that this leaves empty. Foreign entries keep their order.
pub fn merge(
    settings: &mut Map<String, Value>,
    regs: &[Registration],
    command: &str,
    fail_closed: bool,
) -> Result<(), String> {
    // A hook being installed loses its entries on events the table no longer gives it
    // (audit-turn on PostToolBatch after an install without --end-turn-tool): install
    // converges to what was asked, as uninstall then install would.
    if settings.get("hooks").is_some_and(Value::is_object) {
        remove_where(settings, |event, hook| {
            regs.iter().any(|r| r.hook == hook)
                && !regs
                    .iter()
                    .any(|r| r.hook == hook && r.event.name() == event)
        });
    }
    let hooks = settings.entry("hooks").or_insert_with(|| json!({}));
    let hooks = hooks.as_object_mut().ok_or("`hooks` is not an object")?;
    for reg in regs {
        let wanted = handler(reg, command, fail_closed);
        let groups = hooks.entry(reg.event.name()).or_insert_with(|| json!([]));
        let groups = groups
            .as_array_mut()
            .ok_or_else(|| format!("`hooks.{}` is not an array", reg.event.name()))?;
        // The same hook may be registered on one event under several matchers
        // (scope-guard on the write tools and on Bash): those entries are not stale.
        let siblings: Vec<Option<&str>> = regs
            .iter()
            .filter(|r| r.hook == reg.hook && r.event == reg.event && r.matcher != reg.matcher)
            .map(|r| r.matcher.as_deref())
            .collect();
        let mut placed = false;
        // Groups this merge empties go; a group that was empty already is not ours to drop.
        let mut emptied = vec![false; groups.len()];
        for (i, group) in groups.iter_mut().enumerate() {
            let matcher = group_matcher(group).map(str::to_owned);
            let same_matcher = matcher.as_deref() == reg.matcher.as_deref();
            let sibling_group = siblings.contains(&matcher.as_deref());
            let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                continue;
            };
            let had = handlers.len();
            let mut kept = Vec::with_capacity(had);
            for h in handlers.drain(..) {
                if our_hook(&h) != Some(reg.hook) || sibling_group {
                    kept.push(h);
                } else if same_matcher && !placed {
                    kept.push(wanted.clone());
                    placed = true;
                }
            }
            emptied[i] = had > 0 && kept.is_empty();
            *handlers = kept;
        }
        let mut i = 0;
        groups.retain(|_| {
            i += 1;
            !emptied[i - 1]
        });
        if placed {
            continue;
        }
        let existing = groups.iter_mut().find(|g| {
            group_matcher(g) == reg.matcher.as_deref()
                && g.get("hooks").is_some_and(Value::is_array)
        });
        match existing {
            Some(group) => group["hooks"]
                .as_array_mut()
                .expect("checked above")
                .push(wanted),
            None => {
                let mut group = Map::new();
                if let Some(m) = &reg.matcher {
                    group.insert("matcher".into(), json!(m));
                }
                group.insert("hooks".into(), json!([wanted]));
                groups.push(Value::Object(group));
            }
        }
    }
    Ok(())
}

/// Removes every handler of `hooks` that is ours, then the groups and event arrays that
/// this leaves empty (and `hooks` itself when nothing is left in it).
pub fn remove(settings: &mut Map<String, Value>, hooks: &[Hook]) {
    remove_where(settings, |_, hook| hooks.contains(&hook));
}

/// Removes every handler of ours for which `doomed(event name, hook)` holds, then the
/// groups and event arrays that this leaves empty (and `hooks` itself when nothing is
/// left in it).
fn remove_where(settings: &mut Map<String, Value>, doomed: impl Fn(&str, Hook) -> bool) {
    let Some(events) = settings.get_mut("hooks").and_then(Value::as_object_mut) else {
        return;
    };
    let had = events.len();
    events.retain(|event, groups| {
        let Some(list) = groups.as_array_mut() else {
            return true;
        };
        let before = list.len();
        list.retain_mut(|group| {
            let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                return true;
            };
            let had = handlers.len();
            handlers.retain(|h| !our_hook(h).is_some_and(|hook| doomed(event, hook)));
            !(handlers.is_empty() && had > 0)
        });
        !(list.is_empty() && before > 0)
    });
    if had > 0 && events.is_empty() {
        settings.remove("hooks");
    }
}

fn group_matcher(group: &Value) -> Option<&str> {
    group
        .get("matcher")
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty())
}

/// The text of a settings object as we write it.
pub fn render_settings(settings: &Map<String, Value>) -> String {
    let mut text = serde_json::to_string_pretty(settings).expect("JSON values serialize");
    text.push('\n');
    text
}

/// What [`apply`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Applied {
    /// The edit changed no value: the file was left as it was, byte for byte.
    Unchanged,
    Written {
        backup: Option<PathBuf>,
    },
}

/// A settings edit worked out but not written: what `--dry-run` shows and `apply` writes.
#[derive(Debug)]
pub struct Plan {
    /// The file that would be written: the settings path, or the file it links to.
    pub target: PathBuf,
    /// The text as it is (None: no file).
    pub original: Option<String>,
    /// The text as it would be.
    pub text: String,
    /// Whether any value changes. When none does, nothing is written, so a file in the
    /// user's own formatting is not reformatted for nothing.
    pub changed: bool,
}

/// Reads `path` (absent = empty object), and works out what `edit` makes of it.
pub fn plan(
    path: &Path,
    edit: impl FnOnce(&mut Map<String, Value>) -> Result<(), String>,
) -> Result<Plan, SettingsError> {
    // A settings file that is a link (dotfiles) is edited where it lives; replacing the
    // link with a file would leave the real one stale.
    let (target, original) = read_settings(path)?;
    let text = original.as_deref().unwrap_or("");
    let before = parse_settings(path, text)?;
    duplicate_key(path, text)?;
    let mut settings = before.clone();
    edit(&mut settings).map_err(|message| SettingsError::Shape {
        path: path.to_owned(),
        message,
    })?;
    let changed = settings != before;
    let text = if changed {
        render_settings(&settings)
    } else {
        original.clone().unwrap_or_default()
    };
    Ok(Plan {
        target,
        original,
        text,
        changed,
    })
}

/// Reads `path` (absent = empty), changes it with `edit`, and, when a value changed,
/// writes it back atomically (same permissions), keeping a one-time backup of the
/// original beside `path` that is no more readable than the original. On any error
/// nothing is left behind: no half-written file, no backup of a write that failed.
pub fn apply(
    path: &Path,
    edit: impl FnOnce(&mut Map<String, Value>) -> Result<(), String>,
) -> Result<Applied, SettingsError> {
    let plan = plan(path, edit)?;
    if !plan.changed {
        return Ok(Applied::Unchanged);
    }
    let write_err = |p: &Path, e: std::io::Error| SettingsError::Write {
        path: p.to_owned(),
        message: crate::fsutil::describe_io(&e),
    };
    let meta = fs::metadata(&plan.target).ok();
    if meta.as_ref().is_some_and(|m| m.permissions().readonly()) {
        return Err(write_err(
            &plan.target,
            std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "the file is read-only",
            ),
        ));
    }
    let mut backup = None;
    if let (Some(orig), Some(meta)) = (&plan.original, &meta) {
        let b = PathBuf::from(format!("{}{BACKUP_SUFFIX}", path.display()));
        if !b.exists() {
            write_private_copy(&b, orig.as_bytes(), meta).map_err(|e| write_err(&b, e))?;
            backup = Some(b);
        }
    }
    if let Err(e) = write_atomically(&plan.target, plan.text.as_bytes()) {
        if let Some(b) = &backup {
            let _ = fs::remove_file(b);
        }
        return Err(write_err(&plan.target, e));
    }
    Ok(Applied::Written { backup })
}

/// What [`remove_entries`] did to a settings file.
#[derive(Debug, PartialEq)]
pub enum Removed {
    /// None of the entries was there: the file is as it was.
    Unchanged,
    /// The file is back to the copy install kept of it, byte for byte; the copy is gone.
    Restored { from: PathBuf },
    /// Install had created the file, and nothing else is in it: it is gone.
    Deleted,
    /// The entries are gone and the rest kept. `stale`: install's copy of the file from
    /// before, removed because it does not match what is left (the file changed since,
    /// or held entries of ours already): the file as it is now is the one to keep.
    Written { stale: Option<PathBuf> },
}

/// What uninstall would write: the text the file would hold (`None`: the file would go),
/// and what [`remove_entries`] reports. Nothing is written.
pub fn plan_removal(
    path: &Path,
    edit: impl FnOnce(&mut Map<String, Value>) -> Result<(), String>,
) -> Result<(Plan, Option<String>, Removed), SettingsError> {
    let plan = plan(path, edit)?;
    if !plan.changed {
        let text = plan.original.clone();
        return Ok((plan, text, Removed::Unchanged));
    }
    let after = parse_settings(path, &plan.text)?;
    let backup = PathBuf::from(format!("{}{BACKUP_SUFFIX}", path.display()));
    if let Ok(saved) = fs::read_to_string(&backup) {
        if parse_settings(&backup, &saved).is_ok_and(|before| before == after) {
            return Ok((plan, Some(saved), Removed::Restored { from: backup }));
        }
        let text = plan.text.clone();
        return Ok((
            plan,
            Some(text),
            Removed::Written {
                stale: Some(backup),
            },
        ));
    }
    // A link (dotfiles) stays, whatever it points at.
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if after.is_empty() && !is_link {
        return Ok((plan, None, Removed::Deleted));
    }
    let text = plan.text.clone();
    Ok((plan, Some(text), Removed::Written { stale: None }))
}

/// Uninstall's edit of a settings file: leaves it as install found it where it can. The
/// copy install made before its first change is the file as it was: when taking our
/// entries away gives the same settings, that copy comes back byte for byte; where there
/// was no file (no copy) and nothing else is in it, the file goes. No backup is made: the
/// text written is the file less our entries.
pub fn remove_entries(
    path: &Path,
    edit: impl FnOnce(&mut Map<String, Value>) -> Result<(), String>,
) -> Result<Removed, SettingsError> {
    let (plan, text, removed) = plan_removal(path, edit)?;
    let write_err = |p: &Path, e: std::io::Error| SettingsError::Write {
        path: p.to_owned(),
        message: crate::fsutil::describe_io(&e),
    };
    match (&removed, text) {
        (Removed::Unchanged, _) => {}
        (Removed::Deleted, _) | (_, None) => {
            fs::remove_file(path).map_err(|e| write_err(path, e))?
        }
        (Removed::Restored { from }, Some(text))
        | (Removed::Written { stale: Some(from) }, Some(text)) => {
            write_atomically(&plan.target, text.as_bytes())
                .map_err(|e| write_err(&plan.target, e))?;
            fs::remove_file(from).map_err(|e| write_err(from, e))?;
        }
        (Removed::Written { stale: None }, Some(text)) => {
            write_atomically(&plan.target, text.as_bytes())
                .map_err(|e| write_err(&plan.target, e))?
        }
    }
    Ok(removed)
}

/// Creates `path` (which must not exist) with `bytes`, readable by no one the original
/// (`like`) does not let read it.
fn write_private_copy(path: &Path, bytes: &[u8], like: &fs::Metadata) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(like.permissions().mode() & 0o777);
    }
    let mut file = options.open(path)?;
    if let Err(e) = file.write_all(bytes).and_then(|()| file.sync_all()) {
        drop(file);
        let _ = fs::remove_file(path);
        return Err(e);
    }
    Ok(())
}

pub use crate::fsutil::write_atomically;

/// The plugin's `hooks/hooks.json`: the same registrations, run through the launcher
/// script the plugin ships.
pub fn plugin_hooks_json(hooks: &[Hook]) -> String {
    let mut settings = Map::new();
    merge(
        &mut settings,
        &registrations(hooks),
        "${CLAUDE_PLUGIN_ROOT}/bin/did-it-actually",
        true,
    )
    .expect("an empty object merges");
    render_settings(&settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BIN: &str = "/opt/bin/did-it-actually";

    fn merged(before: Value) -> Value {
        let Value::Object(mut map) = before else {
            panic!()
        };
        merge(&mut map, &registrations(&Hook::ALL), BIN, true).unwrap();
        Value::Object(map)
    }

    #[test]
    fn empty_settings_get_every_registration() {
        let after = merged(json!({}));
        let post = &after["hooks"]["PostToolUse"][0];
        assert_eq!(post["matcher"], tools::write_tools_matcher());
        assert_eq!(
            post["hooks"][0],
            json!({"type": "command", "command": BIN, "args": ["verify-write"], "timeout": 30, "onFailure": "block"})
        );
        assert!(after["hooks"]["PostToolBatch"][0].get("matcher").is_none());
    }

    #[test]
    fn foreign_entries_stay_and_merge_is_idempotent() {
        let before = json!({
            "model": "x",
            "hooks": {"PostToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "fmt"}]},
                {"matcher": tools::write_tools_matcher(), "hooks": [
                    {"type": "command", "command": "lint"},
                    {"type": "command", "command": "/old/path/did-it-actually", "args": ["verify-write"], "timeout": 5}
                ]}
            ]},
            "permissions": {"allow": []}
        });
        let once = merged(before);
        let twice = merged(once.clone());
        assert_eq!(once, twice);
        let groups = once["hooks"]["PostToolUse"].as_array().unwrap();
        // The foreign group, ours updated in place, and the run log's on the shell tools.
        assert_eq!(groups.len(), 3, "{groups:?}");
        assert_eq!(groups[0]["hooks"][0]["command"], "fmt");
        // Updated in place, after the foreign handler it followed.
        assert_eq!(groups[1]["hooks"][0]["command"], "lint");
        assert_eq!(groups[1]["hooks"][1]["command"], BIN);
        assert_eq!(groups[1]["hooks"][1]["timeout"], 30);
        assert_eq!(groups[2]["matcher"], tools::shell_tools_matcher());
        assert_eq!(groups[2]["hooks"][0]["args"], json!(["verify-write"]));
        let keys: Vec<_> = once.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["model", "hooks", "permissions"]);
    }

    #[test]
    fn our_old_entry_under_another_matcher_moves() {
        let before = json!({"hooks": {"PostToolUse": [
            {"matcher": "Write", "hooks": [{"type": "command", "command": "verify-write"}]}
        ]}});
        let after = merged(before);
        let groups = after["hooks"]["PostToolUse"].as_array().unwrap();
        // The emptied group is gone: the write tools' group and the run log's remain.
        assert_eq!(groups.len(), 2, "the emptied group is gone: {groups:?}");
        assert_eq!(groups[0]["matcher"], tools::write_tools_matcher());
        assert_eq!(groups[1]["matcher"], tools::shell_tools_matcher());
    }

    #[test]
    fn remove_restores_the_original() {
        let original = json!({"hooks": {"PostToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "fmt"}]}
        ]}, "env": {}});
        let Value::Object(mut map) = merged(original.clone()) else {
            panic!()
        };
        remove(&mut map, &Hook::ALL);
        assert_eq!(Value::Object(map), original);
        let Value::Object(mut map) = merged(json!({})) else {
            panic!()
        };
        remove(&mut map, &Hook::ALL);
        assert_eq!(Value::Object(map), json!({}));
    }

    #[test]
    fn recognizes_our_handlers() {
        assert_eq!(
            our_hook(&json!({"command": "/x/did-it-actually", "args": ["verify-write"]})),
            Some(Hook::VerifyWrite)
        );
        assert_eq!(
            our_hook(&json!({"command": "/x/verify-write"})),
            Some(Hook::VerifyWrite)
        );
        assert_eq!(
            our_hook(&json!({"command": "/x/did-it-actually", "args": ["nope"]})),
            None
        );
        assert_eq!(our_hook(&json!({"command": "verify-writer"})), None);
    }

    #[test]
    fn settings_errors_have_line_and_column() {
        let e = parse_settings(Path::new("/p/s.json"), "{\n  \"a\": 1,\n}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "/p/s.json:3:1: not valid JSON: trailing comma; fix it by hand, nothing was written"
        );
        assert!(matches!(
            parse_settings(Path::new("/p"), "[]"),
            Err(SettingsError::Shape { .. })
        ));
        let mut bad = parse_settings(Path::new("/p"), r#"{"hooks": []}"#).unwrap();
        assert_eq!(
            merge(&mut bad, &registrations(&Hook::ALL), BIN, true),
            Err("`hooks` is not an object".into())
        );
    }
}
