//! Registrations for the hosts other than Claude Code, as data: where each reads its
//! hooks, the shape of its file, its units, its tool matchers ([`HOST_INSTALLS`]). The
//! entries come from the same hook table as Claude Code's ([`super::registrations`]),
//! on the events the host has; every command names its host (`--host codex`), so the
//! answer is in the host's form. Merging keeps every foreign entry, like the Claude
//! settings merge, and recognises ours by the binary and hook in the command.

use super::{our_hook, Registration};
use crate::hooks::table::Matcher;
use crate::hooks::Hook;
use crate::protocol::host::{self, Host};
use crate::protocol::Event;
use serde_json::{json, Map, Value};

/// How a host's hooks file nests its entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Claude Code's: `hooks.<Event>: [{matcher, hooks: [handler]}]`.
    Nested,
    /// A list of handlers per event, each with its own optional `matcher`
    /// (`{"version": 1, "hooks": {"<event>": [handler]}}`: Copilot, Cursor).
    Flat,
}

/// The unit and key of a handler's timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timeout {
    Seconds(&'static str),
    Millis(&'static str),
}

/// Where and how one host reads its hooks.
#[derive(Debug)]
pub struct HostInstall {
    pub host: Host,
    /// The file under HOME for `--user`.
    pub user_file: &'static str,
    /// The file under the project for `--project`.
    pub project_file: &'static str,
    pub layout: Layout,
    /// The handler's key holding the command line.
    pub command_key: &'static str,
    pub timeout: Timeout,
    /// A key set to `true` that makes the host refuse the call when the hook fails.
    pub fail_closed_key: Option<&'static str>,
    /// The file's `version` field, for hosts that want one.
    pub version: Option<u64>,
    /// Whether the command must name the event (the payload does not).
    pub pass_event: bool,
    /// The matcher of the shell tools and of the write tools, in the host's tool names;
    /// `None`: the host takes no matcher, every tool call reaches the hook.
    pub shell_matcher: Option<&'static str>,
    pub write_matcher: Option<&'static str>,
}

pub const HOST_INSTALLS: &[HostInstall] = &[
    HostInstall {
        host: Host::Codex,
        user_file: ".codex/hooks.json",
        project_file: ".codex/hooks.json",
        layout: Layout::Nested,
        command_key: "command",
        timeout: Timeout::Seconds("timeout"),
        fail_closed_key: None,
        version: None,
        pass_event: false,
        shell_matcher: Some("^Bash$"),
        write_matcher: Some("^apply_patch$"),
    },
    HostInstall {
        host: Host::Gemini,
        user_file: ".gemini/settings.json",
        project_file: ".gemini/settings.json",
        layout: Layout::Nested,
        command_key: "command",
        timeout: Timeout::Millis("timeout"),
        fail_closed_key: None,
        version: None,
        pass_event: false,
        shell_matcher: Some("run_shell_command"),
        write_matcher: Some("write_file|replace"),
    },
    HostInstall {
        host: Host::Copilot,
        user_file: ".copilot/hooks/did-it-actually.json",
        project_file: ".github/hooks/did-it-actually.json",
        layout: Layout::Flat,
        command_key: "bash",
        timeout: Timeout::Seconds("timeoutSec"),
        fail_closed_key: None,
        version: Some(1),
        pass_event: true,
        shell_matcher: None,
        write_matcher: None,
    },
    HostInstall {
        host: Host::Qwen,
        user_file: ".qwen/settings.json",
        project_file: ".qwen/settings.json",
        layout: Layout::Nested,
        command_key: "command",
        timeout: Timeout::Seconds("timeout"),
        fail_closed_key: None,
        version: None,
        pass_event: false,
        shell_matcher: Some("run_shell_command"),
        write_matcher: Some("write_file|edit"),
    },
    HostInstall {
        host: Host::Droid,
        user_file: ".factory/settings.json",
        project_file: ".factory/settings.json",
        layout: Layout::Nested,
        command_key: "command",
        timeout: Timeout::Seconds("timeout"),
        fail_closed_key: None,
        version: None,
        pass_event: false,
        shell_matcher: Some("Execute"),
        write_matcher: Some("Create|Edit"),
    },
    HostInstall {
        host: Host::Cursor,
        user_file: ".cursor/hooks.json",
        project_file: ".cursor/hooks.json",
        layout: Layout::Flat,
        command_key: "command",
        timeout: Timeout::Seconds("timeout"),
        fail_closed_key: Some("failClosed"),
        version: Some(1),
        pass_event: false,
        shell_matcher: None,
        write_matcher: None,
    },
];

/// The install row of a host (none for Claude Code, whose settings are [`super::merge`]'s).
/// The names a host's own command goes by on PATH, for `install --host all`.
pub fn commands(host: Host) -> &'static [&'static str] {
    match host {
        Host::Claude => &["claude"],
        Host::Codex => &["codex"],
        Host::Gemini => &["gemini"],
        Host::Copilot => &["copilot"],
        Host::Qwen => &["qwen"],
        Host::Droid => &["droid"],
        Host::Cursor => &["cursor-agent"],
        Host::Opencode => &["opencode"],
    }
}

/// Where `host`'s command is on `path` (a PATH value), if it is.
pub fn find_command(host: Host, path: &std::ffi::OsStr) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    std::env::split_paths(path).find_map(|dir| {
        commands(host).iter().map(|c| dir.join(c)).find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

pub fn host_install(host: Host) -> Option<&'static HostInstall> {
    HOST_INSTALLS.iter().find(|h| h.host == host)
}

/// One entry to write: the host's event name, its matcher, the handler.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub hook: Hook,
    pub event: &'static str,
    pub matcher: Option<&'static str>,
    pub handler: Value,
}

/// The entries of `regs` on `spec`'s host: those on events the host has, with the
/// host's event names and tool matchers, commands in shell form naming the host.
pub fn entries(spec: &HostInstall, regs: &[Registration], binary: Option<&str>) -> Vec<Entry> {
    entries_with(spec, regs, Launch::Search(binary))
}

/// How an entry finds the binary it runs.
#[derive(Clone, Copy, Debug)]
pub enum Launch<'a> {
    /// The binary install names (if any), then PATH and the user's bin directories.
    Search(Option<&'a str>),
    /// Only this binary: a managed install names a root-owned one, and must never fall
    /// back to one the user (and so an agent) can put on PATH.
    Only(&'a str),
}

/// What a managed entry answers when its binary is gone.
pub const MANAGED_MISSING: &str = "the binary the administrator's managed install runs is missing, so the guards cannot run: ask the administrator to run `did-it-actually install --managed` again, then run: did-it-actually doctor";

/// [`entries`], with how the binary is found.
pub fn entries_with(spec: &HostInstall, regs: &[Registration], launch: Launch<'_>) -> Vec<Entry> {
    let events = host::Host::spec(spec.host).events;
    let mut out = Vec::new();
    for reg in regs {
        let Some((event, _)) = events.iter().find(|(_, e)| *e == reg.event) else {
            continue;
        };
        let matcher = match reg.tool_matcher() {
            Some(Matcher::ShellTools) => spec.shell_matcher,
            Some(Matcher::WriteTools) => spec.write_matcher,
            None => None,
        };
        let mut args = vec![reg.hook.name().to_owned()];
        args.extend(["--host".to_owned(), spec.host.name().to_owned()]);
        if spec.pass_event {
            args.extend(["--event".to_owned(), (*event).to_owned()]);
        }
        args.extend(reg.args.iter().cloned());
        let missing = host::encode_failure(
            host::Dialect::of(spec.host),
            reg.hook.name(),
            Some(reg.event),
            match launch {
                Launch::Search(_) => super::launcher::MISSING,
                Launch::Only(_) => MANAGED_MISSING,
            },
        );
        let command = launcher_command(launch, &args, &missing);
        let mut h = Map::new();
        h.insert("type".into(), json!("command"));
        h.insert(spec.command_key.into(), json!(command));
        match spec.timeout {
            Timeout::Seconds(key) => h.insert(key.into(), json!(reg.timeout_secs)),
            Timeout::Millis(key) => h.insert(key.into(), json!(reg.timeout_secs * 1000)),
        };
        if let Some(key) = spec.fail_closed_key {
            if reg.fail_closed && !matches!(reg.event, Event::Stop | Event::SubagentStop) {
                h.insert(key.into(), json!(true));
            }
        }
        if spec.layout == Layout::Flat {
            if let Some(m) = matcher {
                h.insert("matcher".into(), json!(m));
            }
        }
        out.push(Entry {
            hook: reg.hook,
            event,
            matcher,
            handler: Value::Object(h),
        });
    }
    out
}

/// The command a host runs for one hook: a launcher inline (`sh -c SCRIPT
/// did-it-actually HOOK ARGS...`) that runs `binary` (when install names one), else `did-it-actually` from PATH,
/// `~/.local/bin` or `~/.cargo/bin`, and where there is none answers with `missing`: the
/// host's own form of a hook that cannot decide (its deny before a tool; a stop let
/// through with the reason). Most hosts run the tool when a hook cannot be started, so a
/// bare path to a binary that is gone (another machine, an upgrade that moved it) would
/// let every call through.
fn launcher_command(
    launch: Launch<'_>,
    args: &[String],
    missing: &crate::protocol::Output,
) -> String {
    let q = sh_quote;
    let candidates = match launch {
        Launch::Search(binary) => super::launcher::candidates(binary.map(q).as_deref()),
        Launch::Only(binary) => q(binary),
    };
    let mut script = format!(
        "for b in {candidates}; do if [ -n \"$b\" ] && [ -x \"$b\" ]; then exec \"$b\" \"$@\"; fi; done; cat >/dev/null;",
    );
    if !missing.stdout.is_empty() {
        script.push_str(&format!(" printf '%s' {};", q(&missing.stdout)));
    }
    if !missing.stderr.is_empty() {
        script.push_str(&format!(" printf '%s' {} >&2;", q(&missing.stderr)));
    }
    script.push_str(&format!(" exit {}", missing.exit_code));
    let mut words = vec![
        "sh".to_owned(),
        "-c".to_owned(),
        q(&script),
        crate::BINARY_NAME.to_owned(),
    ];
    words.extend(args.iter().map(|a| q(a)));
    words.join(" ")
}

/// `word` as one word of a POSIX shell, in single quotes where it needs any (inside them
/// nothing is special, so `$` and `"` reach the inner script as written, whatever shell
/// the host runs the command with).
fn sh_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:@%+,".contains(&b));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The binary an entry's command names, when it names one: the inline launcher's first
/// candidate (none where install left the binary to the launcher's search), or the program
/// of a bare command.
pub fn entry_binary(command: &str) -> Option<String> {
    let words = shlex::split(command)?;
    match words.as_slice() {
        [sh, c, script, ..] if sh == "sh" && c == "-c" => {
            let inner = shlex::split(script)?;
            let at = inner.iter().position(|w| w == "in")?;
            inner.get(at + 1).filter(|w| !w.starts_with('$')).cloned()
        }
        [program, ..] => Some(program.clone()),
        [] => None,
    }
}

/// Whether the launcher's own search finds `binary` here whatever PATH the host runs it
/// with: it is `~/.local/bin/did-it-actually` or `~/.cargo/bin/did-it-actually` (where
/// install.sh and cargo put it). Then an entry need not name it (a project's file is
/// shared, and a path of this machine means nothing on another). Found only on this
/// shell's PATH, it is named: a host started another way (a desktop app, a service) may
/// have another PATH.
pub fn found_by_search(
    binary: &std::path::Path,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> bool {
    let real = |p: &std::path::Path| std::fs::canonicalize(p).ok();
    let Some(home) = env("HOME").filter(|h| !h.is_empty()) else {
        return false;
    };
    let Some(binary) = real(binary) else {
        return false;
    };
    super::launcher::HOME_BIN_DIRS.iter().any(|d| {
        real(&std::path::Path::new(&home).join(d).join(crate::BINARY_NAME)).as_ref()
            == Some(&binary)
    })
}

/// The binary the inline launcher falls back to here, when the one it names is gone.
pub fn fallback_binary(
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let runs = |p: &std::path::Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let on_path = env("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|d| d.join(crate::BINARY_NAME))
            .find(|p| runs(p))
    });
    on_path.or_else(|| {
        let home = std::path::PathBuf::from(env("HOME")?);
        super::launcher::HOME_BIN_DIRS
            .iter()
            .map(|d| home.join(d).join(crate::BINARY_NAME))
            .find(|p| runs(p))
    })
}

/// Whether a handler is one of ours (any host's key for the command).
fn ours(handler: &Value, spec: &HostInstall) -> Option<Hook> {
    let command = handler.get(spec.command_key)?.as_str()?;
    our_hook(&json!({ "command": command }))
}

/// Writes `entries` into a host's hooks file: ours for the same hook and event are
/// replaced, foreign ones kept in order; hooks being installed lose their entries on
/// events no longer wanted.
pub fn merge(
    settings: &mut Map<String, Value>,
    spec: &HostInstall,
    entries: &[Entry],
) -> Result<(), String> {
    let installing: Vec<Hook> = entries.iter().map(|e| e.hook).collect();
    remove(settings, spec, &installing);
    if let Some(v) = spec.version {
        settings.entry("version").or_insert(json!(v));
    }
    let hooks = settings.entry("hooks").or_insert_with(|| json!({}));
    let hooks = hooks.as_object_mut().ok_or("`hooks` is not an object")?;
    for e in entries {
        let list = hooks.entry(e.event).or_insert_with(|| json!([]));
        let list = list
            .as_array_mut()
            .ok_or_else(|| format!("`hooks.{}` is not an array", e.event))?;
        match spec.layout {
            Layout::Flat => list.push(e.handler.clone()),
            Layout::Nested => {
                let group = list.iter_mut().find(|g| {
                    g.get("matcher").and_then(Value::as_str) == e.matcher
                        && g.get("hooks").is_some_and(Value::is_array)
                });
                match group {
                    Some(g) => g["hooks"]
                        .as_array_mut()
                        .expect("checked above")
                        .push(e.handler.clone()),
                    None => {
                        let mut g = Map::new();
                        if let Some(m) = e.matcher {
                            g.insert("matcher".into(), json!(m));
                        }
                        g.insert("hooks".into(), json!([e.handler]));
                        list.push(Value::Object(g));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Removes every entry of ours for `hooks`, then what that leaves empty.
pub fn remove(settings: &mut Map<String, Value>, spec: &HostInstall, hooks: &[Hook]) {
    let Some(events) = settings.get_mut("hooks").and_then(Value::as_object_mut) else {
        return;
    };
    let doomed = |h: &Value| ours(h, spec).is_some_and(|hook| hooks.contains(&hook));
    let had = events.len();
    events.retain(|_, list| {
        let Some(items) = list.as_array_mut() else {
            return true;
        };
        let before = items.len();
        match spec.layout {
            Layout::Flat => items.retain(|h| !doomed(h)),
            Layout::Nested => items.retain_mut(|group| {
                let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                    return true;
                };
                let had = handlers.len();
                handlers.retain(|h| !doomed(h));
                !(handlers.is_empty() && had > 0)
            }),
        }
        !(items.is_empty() && before > 0)
    });
    if had > 0 && events.is_empty() {
        settings.remove("hooks");
    }
}

/// Every handler of ours in a host's file: the host's event name, the hook, the handler.
pub fn our_handlers<'s>(
    settings: &'s Map<String, Value>,
    spec: &HostInstall,
) -> Vec<(&'s str, Hook, &'s Value)> {
    let mut out = Vec::new();
    let Some(events) = settings.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event, list) in events {
        for item in list.as_array().into_iter().flatten() {
            let handlers: Vec<&Value> = match spec.layout {
                Layout::Flat => vec![item],
                Layout::Nested => item
                    .get("hooks")
                    .and_then(Value::as_array)
                    .map(|hs| hs.iter().collect())
                    .unwrap_or_default(),
            };
            for h in handlers {
                if let Some(hook) = ours(h, spec) {
                    out.push((event.as_str(), hook, h));
                }
            }
        }
    }
    out
}

/// The hooks of ours a host's file registers, with the host's event names.
pub fn registered(settings: &Map<String, Value>, spec: &HostInstall) -> Vec<(String, Hook)> {
    our_handlers(settings, spec)
        .into_iter()
        .map(|(event, hook, _)| (event.to_owned(), hook))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BIN: &str = "/opt/did it/did-it-actually";

    fn installed(host: Host, before: Value) -> Value {
        let spec = host_install(host).unwrap();
        let Value::Object(mut map) = before else {
            panic!()
        };
        let regs = super::super::registrations(&Hook::ALL);
        merge(&mut map, spec, &entries(spec, &regs, Some(BIN))).unwrap();
        Value::Object(map)
    }

    #[test]
    fn every_host_gets_its_own_names_units_and_shape() {
        let codex = installed(Host::Codex, json!({}));
        let pre = codex["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(pre[0]["matcher"], "^Bash$");
        let command = pre[0]["hooks"][0]["command"].as_str().unwrap();
        assert!(
            command.ends_with("' did-it-actually block-wrong-branch --host codex"),
            "{command}"
        );
        assert_eq!(
            entry_binary(command).as_deref(),
            Some("/opt/did it/did-it-actually")
        );
        assert!(codex["hooks"].get("PostToolBatch").is_none());
        let gemini = installed(Host::Gemini, json!({"security": {"auth": {}}}));
        assert_eq!(gemini["security"], json!({"auth": {}}), "foreign keys stay");
        let before = &gemini["hooks"]["BeforeTool"];
        assert!(before
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["matcher"] == "write_file|replace"));
        assert_eq!(before[0]["hooks"][0]["timeout"], 10_000, "milliseconds");
        let copilot = installed(Host::Copilot, json!({}));
        assert_eq!(copilot["version"], 1);
        let pre = &copilot["hooks"]["preToolUse"][0];
        assert!(pre["bash"]
            .as_str()
            .unwrap()
            .ends_with("' did-it-actually block-wrong-branch --host copilot --event preToolUse"));
        assert!(pre.get("timeoutSec").is_some());
        assert!(copilot["hooks"].get("agentStop").is_some());
        let cursor = installed(Host::Cursor, json!({}));
        assert_eq!(cursor["hooks"]["preToolUse"][0]["failClosed"], true);
        assert!(cursor["hooks"]["stop"][0].get("failClosed").is_none());
    }

    /// Runs an entry's command as the hosts do (`sh -c COMMAND`, the event on stdin), with
    /// no did-it-actually anywhere the launcher looks.
    fn run_without_binary(command: &str) -> std::process::Output {
        use std::io::Write;
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg(command)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", "/nonexistent-home")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(br#"{"tool_name":"Bash"}"#).unwrap();
        drop(stdin);
        child.wait_with_output().unwrap()
    }

    /// The launcher answers as the binary answers when it cannot decide (each host's deny
    /// before a tool, the stop let through: `protocol::host`'s tests hold those forms),
    /// byte for byte, and the entry is still recognised as ours.
    #[test]
    fn a_missing_binary_answers_as_the_guard_answers_when_it_cannot_decide() {
        for spec in HOST_INSTALLS {
            let events = host::Host::spec(spec.host).events;
            for entry in entries(spec, &super::super::registrations(&Hook::ALL), Some(BIN)) {
                let command = entry.handler[spec.command_key].as_str().unwrap();
                assert_eq!(
                    super::super::our_hook(&json!({ "command": command })),
                    Some(entry.hook)
                );
                let event = events.iter().find(|(n, _)| *n == entry.event).unwrap().1;
                let expected = host::encode_failure(
                    host::Dialect::of(spec.host),
                    entry.hook.name(),
                    Some(event),
                    super::super::launcher::MISSING,
                );
                let out = run_without_binary(command);
                let seen = (
                    String::from_utf8_lossy(&out.stdout).into_owned(),
                    String::from_utf8_lossy(&out.stderr).into_owned(),
                    out.status.code(),
                );
                assert_eq!(
                    seen,
                    (
                        expected.stdout.clone(),
                        expected.stderr.clone(),
                        Some(i32::from(expected.exit_code))
                    ),
                    "{:?} {}: {command}",
                    spec.host,
                    entry.event
                );
            }
        }
    }

    #[test]
    fn install_is_idempotent_and_uninstall_leaves_foreign_entries() {
        for spec in HOST_INSTALLS {
            let foreign = match spec.layout {
                Layout::Nested => {
                    json!({"hooks": {"PreToolUse": [{"matcher": "x", "hooks": [{"type": "command", "command": "lint"}]}]}})
                }
                Layout::Flat => {
                    json!({"hooks": {"preToolUse": [{"type": "command", spec.command_key: "lint"}]}})
                }
            };
            let once = installed(spec.host, foreign.clone());
            let twice = installed(spec.host, once.clone());
            assert_eq!(once, twice, "{:?}", spec.host);
            let Value::Object(mut map) = twice else {
                panic!()
            };
            assert_eq!(
                registered(&map, spec).len(),
                entries(spec, &super::super::registrations(&Hook::ALL), Some(BIN)).len()
            );
            remove(&mut map, spec, &Hook::ALL);
            let mut expected = foreign.as_object().unwrap().clone();
            if let Some(v) = spec.version {
                expected.insert("version".into(), json!(v));
            }
            assert_eq!(map, expected, "{:?}", spec.host);
        }
    }
}
