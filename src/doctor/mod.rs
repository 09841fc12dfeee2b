//! `did-it-actually doctor`: whether the guards are really protecting a project, as a
//! checklist with a fix for every failure. A guard registered with a typo in its path is
//! silently off (exit 127 does not block), a timeout of 10000 means hours, a Claude Code
//! before 2.1.295 ignores `onFailure`: each of these is a line here.

mod hosts;
mod run_probe;

use crate::hooks::Hook;
use crate::install::{self, Registration};
use crate::policy::Policy;
use crate::protocol::Event;
use serde::Serialize;
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The Claude Code version from which `onFailure` is honoured.
pub const ON_FAILURE_SINCE: Version = (2, 1, 295);

/// major.minor.patch, ordered as tuples are.
pub type Version = (u32, u32, u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Pass,
    Warn,
    Fail,
}

/// One line of the checklist.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    pub mark: Mark,
    pub what: String,
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

fn check(
    mark: Mark,
    what: impl Into<String>,
    detail: impl Into<String>,
    fix: Option<String>,
) -> Check {
    Check {
        mark,
        what: what.into(),
        detail: detail.into(),
        fix,
    }
}

/// Where doctor looks.
pub struct Subject {
    pub project: PathBuf,
    pub home: Option<PathBuf>,
    pub binary: PathBuf,
}

pub fn run(scope: &Subject, env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Vec<Check> {
    let mut out = Vec::new();
    out.extend(binary_checks(&scope.binary));
    let (host_checks, other_hosts) = hosts::checks(scope, env);
    let registered = settings_checks(scope, &other_hosts, &mut out);
    out.push(claude_version_check(env));
    out.push(policy_check(&scope.project, env));
    out.push(runtime_check(&scope.project, env));
    out.push(write_layer_check(&scope.project, env));
    out.push(run_probe::check_run(&scope.binary, env));
    out.push(state_check(env));
    out.push(ledger_check(env));
    out.extend(duplicate_checks(&registered));
    let launcher = launcher_check(&registered);
    // A launcher that finds no binary is one failure, not one per self-test.
    let launcher_failed = launcher.as_ref().is_some_and(|c| c.mark == Mark::Fail);
    out.extend(launcher);
    let testable: Vec<Registered> = registered
        .iter()
        .filter(|r| !(launcher_failed && r.command.ends_with(install::launcher::LAUNCHER)))
        .cloned()
        .collect();
    out.extend(self_tests(&testable));
    out.extend(host_checks);
    out
}

fn binary_checks(binary: &Path) -> Vec<Check> {
    let mut out = vec![check(
        Mark::Pass,
        "binary",
        binary.display().to_string(),
        None,
    )];
    let dir = binary.parent().unwrap_or(Path::new("."));
    let missing: Vec<&str> = Hook::ALL
        .iter()
        .map(|h| h.name())
        .filter(|name| std::fs::canonicalize(dir.join(name)).ok().as_deref() != Some(binary))
        .collect();
    if !missing.is_empty() {
        out.push(check(
            Mark::Warn,
            "hook links",
            format!("no link to the binary named {} in {} (the registrations use `did-it-actually <hook>`, so this only matters for running a hook by its own name)", missing.join(", "), dir.display()),
            Some("run install/install.sh again to create them".into()),
        ));
    } else {
        out.push(check(
            Mark::Pass,
            "hook links",
            format!(
                "{} in {}",
                Hook::ALL.map(Hook::name).join(", "),
                dir.display()
            ),
            None,
        ));
    }
    out
}

/// A registered handler of ours.
#[derive(Clone, Debug)]
pub struct Registered {
    pub hook: Hook,
    pub event: Event,
    pub command: String,
    pub args: Vec<String>,
    pub file: PathBuf,
    /// The group's matcher; None or empty or `*` matches every tool.
    pub matcher: Option<String>,
}

impl Registered {
    /// Whether this entry runs for every tool the expected registration does: the same
    /// matcher, or one that matches everything. A narrower matcher (`Write` for the write
    /// tools) leaves tools unguarded.
    fn covers(&self, expected: &Registration) -> bool {
        match (self.matcher.as_deref(), expected.matcher.as_deref()) {
            (None | Some("" | "*"), _) | (_, None) => true,
            (Some(have), Some(want)) => have == want,
        }
    }
}

/// The launcher a project install commits: which binary it runs on this machine.
/// A hook registered on one event in two settings files that both load (the project's
/// and the user's, say): Claude Code runs it twice per call, and every record is written
/// twice.
fn duplicate_checks(registered: &[Registered]) -> Vec<Check> {
    let mut twice: Vec<String> = Vec::new();
    let mut in_files: Vec<&Path> = Vec::new();
    let mut seen: Vec<(Hook, Event, Option<&str>)> = Vec::new();
    for r in registered {
        let key = (r.hook, r.event, r.matcher.as_deref());
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let mut files: Vec<&Path> = registered
            .iter()
            .filter(|o| o.hook == r.hook && o.event == r.event && o.matcher == r.matcher)
            .map(|o| o.file.as_path())
            .collect();
        files.sort();
        files.dedup();
        if files.len() > 1 {
            let name = format!("{} on {}", r.hook.name(), r.event.name());
            if !twice.contains(&name) {
                twice.push(name);
            }
            in_files.extend(files);
        }
    }
    if twice.is_empty() {
        return Vec::new();
    }
    in_files.sort();
    in_files.dedup();
    vec![check(
        Mark::Warn,
        "registered twice",
        format!(
            "{} registered in more than one settings file that loads ({}): Claude Code runs each once per file, so every call is checked and recorded twice",
            twice.join(", "),
            in_files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ")
        ),
        Some("keep one: `did-it-actually uninstall --user` takes the user-wide registration away (the project's stays), `did-it-actually uninstall --local` the personal one".into()),
    )]
}

fn launcher_check(registered: &[Registered]) -> Option<Check> {
    let launcher = registered
        .iter()
        .map(|r| PathBuf::from(&r.command))
        .find(|c| c.ends_with(install::launcher::LAUNCHER))?;
    let text = std::fs::read_to_string(&launcher).unwrap_or_default();
    if !install::launcher::is_ours(&text) {
        return Some(check(
            Mark::Fail,
            "launcher",
            format!("{} is not a did-it-actually launcher", launcher.display()),
            Some("run `did-it-actually install` again".into()),
        ));
    }
    let mut cmd = Command::new(&launcher);
    cmd.arg("--version");
    Some(
        match run_with_timeout(&mut cmd, b"", Duration::from_secs(10)) {
            Ok((Some(0), stdout, _)) => check(
                Mark::Pass,
                "launcher",
                format!("{} runs {}", launcher.display(), stdout.trim()),
                None,
            ),
            Ok((_, _, stderr)) => check(
                Mark::Fail,
                "launcher",
                format!(
                    "{} finds no did-it-actually binary on this machine: {}",
                    launcher.display(),
                    stderr.trim()
                ),
                Some(
                    "install did-it-actually (`install/install.sh --user`), or put it on PATH"
                        .into(),
                ),
            ),
            Err(e) => check(
                Mark::Fail,
                "launcher",
                format!("{} cannot run: {e}", launcher.display()),
                None,
            ),
        },
    )
}

/// The id of our plugin when `enabledPlugins` turns it on (`"did-it-actually@<marketplace>":
/// true`).
pub(crate) fn enabled_plugin(settings: &serde_json::Map<String, Value>) -> Option<String> {
    settings
        .get("enabledPlugins")?
        .as_object()?
        .iter()
        .find(|(id, on)| {
            id.split('@').next() == Some(install::BINARY_NAME) && on.as_bool() == Some(true)
        })
        .map(|(id, _)| id.clone())
}

/// `other_hosts`: the other hosts registered in scope (their checks follow), by title.
fn settings_checks(scope: &Subject, other_hosts: &[&str], out: &mut Vec<Check>) -> Vec<Registered> {
    // The managed level first: no user or project setting switches its hooks off.
    let level = install::managed::managed_host(crate::protocol::host::Host::Claude);
    let managed_files: Vec<PathBuf> = level.map(|l| l.files()).unwrap_or_default();
    let managed_hooks: Vec<Hook> = managed_files
        .iter()
        .filter_map(|f| install::read_settings(f).ok()?.1.map(|t| (f, t)))
        .filter_map(|(f, t)| install::parse_settings(f, &t).ok())
        .flat_map(|s| install::managed::registered_hooks(&s))
        .collect();
    let managed_only = managed_files.iter().any(|f| {
        install::read_settings(f)
            .ok()
            .and_then(|(_, t)| t)
            .and_then(|t| install::parse_settings(f, &t).ok())
            .is_some_and(|s| install::managed::truthy(s.get("allowManagedHooksOnly")))
    });
    if !managed_hooks.is_empty() {
        out.push(check(
            Mark::Pass,
            "managed level",
            format!(
                "Claude Code's managed settings ({}) register {}: no user or project setting can switch them off",
                level.map(|l| l.dir).unwrap_or_default(),
                managed_hooks.iter().map(|h| h.name()).collect::<Vec<_>>().join(", ")
            ),
            None,
        ));
    }
    let mut files = managed_files.clone();
    files.extend([
        scope.project.join(".claude/settings.json"),
        scope.project.join(".claude/settings.local.json"),
    ]);
    if let Some(home) = &scope.home {
        files.push(home.join(".claude/settings.json"));
    }
    let mut registered = Vec::new();
    let mut plugins = Vec::new();
    for file in &files {
        let is_managed = managed_files.contains(file);
        let text = match install::read_settings(file) {
            Ok((_, Some(text))) => text,
            Ok((_, None)) => continue,
            Err(e) => {
                out.push(check(
                    Mark::Fail,
                    format!("settings {}", file.display()),
                    e.to_string(),
                    Some("make it a readable UTF-8 file; Claude Code cannot read it either".into()),
                ));
                continue;
            }
        };
        let settings = match install::parse_settings(file, &text) {
            Ok(s) => s,
            Err(e) => {
                out.push(check(
                    Mark::Fail,
                    format!("settings {}", file.display()),
                    e.to_string(),
                    Some("fix the JSON; Claude Code cannot read it either".into()),
                ));
                continue;
            }
        };
        if let Err(e) = install::duplicate_key(file, &text) {
            out.push(check(
                Mark::Warn,
                format!("settings {}", file.display()),
                e.to_string(),
                Some("keep one of the two keys (`did-it-actually install` refuses to rewrite the file until then)".into()),
            ));
        }
        // In any settings file, this leaves Claude Code running managed hooks only: ours
        // never run (allowManagedHooksOnly counts only in managed settings).
        if install::managed::truthy(settings.get("disableAllHooks")) {
            if is_managed {
                out.push(check(
                    Mark::Fail,
                    format!("settings {}", file.display()),
                    "`disableAllHooks` in managed settings: Claude Code runs no hook at all, the managed ones included",
                    Some(format!("an administrator removes `disableAllHooks` from {}", file.display())),
                ));
            } else if !managed_hooks.is_empty() {
                out.push(check(
                    Mark::Warn,
                    format!("settings {}", file.display()),
                    "`disableAllHooks` here tries to switch the guards off; the managed hooks still run (Claude Code lets only managed settings switch managed hooks off), but every hook of user and project settings is off",
                    Some(format!("remove `disableAllHooks` from {}", file.display())),
                ));
            } else {
                out.push(check(
                    Mark::Fail,
                    format!("settings {}", file.display()),
                    "`disableAllHooks: true`: Claude Code runs no hook from user or project settings, so the guards do not run",
                    Some(format!("remove `disableAllHooks` from {}", file.display())),
                ));
            }
        }
        if is_managed && install::managed::truthy(settings.get("allowManagedHooksOnly")) {
            out.push(check(
                Mark::Pass,
                format!("settings {}", file.display()),
                "`allowManagedHooksOnly`: only managed hooks run on this machine",
                None,
            ));
        }
        if let Some(Value::Object(vars)) = settings.get("env").filter(|_| !is_managed) {
            if vars.contains_key(crate::policy::org::ORG_POLICY_ENV) {
                out.push(check(
                    if managed_hooks.is_empty() {
                        Mark::Fail
                    } else {
                        Mark::Warn
                    },
                    format!("settings {}", file.display()),
                    format!(
                        "its `env` sets {}, which moves the organisation's policy{}",
                        crate::policy::org::ORG_POLICY_ENV,
                        if managed_hooks.is_empty() {
                            ": the guards read the file it names instead"
                        } else {
                            " (the managed settings pin it, and managed settings win)"
                        }
                    ),
                    Some(format!(
                        "remove {} from {}",
                        crate::policy::org::ORG_POLICY_ENV,
                        file.display()
                    )),
                ));
            }
        }
        if let Some(plugin) = enabled_plugin(&settings) {
            plugins.push((plugin, file.clone()));
        }
        // Claude Code substitutes `${CLAUDE_PROJECT_DIR}` in exec form (the launcher a
        // project install commits); doctor checks what that names here.
        let project = scope.project.to_string_lossy().into_owned();
        let found: Vec<_> = ours(&settings, file)
            .into_iter()
            .map(|(mut reg, h, m)| {
                reg.command = reg.command.replace("${CLAUDE_PROJECT_DIR}", &project);
                (reg, h, m)
            })
            .collect();
        if found.is_empty() {
            out.push(check(
                Mark::Pass,
                format!("settings {}", file.display()),
                "no did-it-actually entries",
                None,
            ));
        }
        for (reg, handler, matcher) in &found {
            out.push(handler_check(reg, handler, matcher.as_deref()));
        }
        if managed_only && !is_managed && !found.is_empty() {
            out.push(check(
                Mark::Warn,
                format!("settings {}", file.display()),
                "these entries never run: the managed settings set `allowManagedHooksOnly`",
                Some("rely on the managed install (`did-it-actually install --managed`), or ask the administrator".into()),
            ));
            continue;
        }
        registered.extend(found.into_iter().map(|(r, _, _)| r));
    }
    let expected = install::registrations(&Hook::ALL);
    let missing: Vec<String> = expected
        .iter()
        .filter(|e| {
            !registered
                .iter()
                .any(|r| r.hook == e.hook && r.event == e.event && r.covers(e))
        })
        .map(|e| {
            let narrower: Vec<&str> = registered
                .iter()
                .filter(|r| r.hook == e.hook && r.event == e.event)
                .filter_map(|r| r.matcher.as_deref())
                .collect();
            match (narrower.is_empty(), e.matcher.as_deref()) {
                (false, Some(want)) => format!(
                    "{} on {} for every tool of `{want}` (its matchers here: `{}`)",
                    e.hook.name(),
                    e.event.name(),
                    narrower.join("`, `")
                ),
                _ => format!("{} on {}", e.hook.name(), e.event.name()),
            }
        })
        .collect();
    // The plugin form registers every hook from its own hooks/hooks.json (generated from
    // the same table), so it is a registration, not a gap.
    let in_plugin = std::env::var_os("CLAUDE_PLUGIN_ROOT")
        .map(PathBuf::from)
        .filter(|root| {
            root.join("hooks/hooks.json").is_file()
                && root.join(".claude-plugin/plugin.json").is_file()
        });
    if registered.is_empty() && (!plugins.is_empty() || in_plugin.is_some()) {
        let by = match (plugins.first(), &in_plugin) {
            (Some((id, file)), _) => format!("the plugin {id} is enabled in {}", file.display()),
            (None, Some(root)) => format!("running as the plugin at {}", root.display()),
            (None, None) => unreachable!("checked"),
        };
        out.push(check(
            Mark::Pass,
            "registration",
            format!("{by}: its hooks/hooks.json registers every hook (the settings files need no entries of their own)"),
            None,
        ));
    } else if registered.is_empty() && !other_hosts.is_empty() {
        out.push(check(
            Mark::Pass,
            "registration",
            format!(
                "no Claude Code settings file in scope registers a hook; registered with {} (checked below)",
                other_hosts.join(", ")
            ),
            None,
        ));
    } else if registered.is_empty() {
        out.push(check(
            Mark::Fail,
            "registration",
            "no settings file in scope registers any hook, and the did-it-actually plugin is not enabled: nothing is guarded",
            Some(if crate::policy::repo_root(&scope.project).is_some() {
                format!(
                    "run `did-it-actually install --project {}`",
                    scope.project.display()
                )
            } else {
                format!(
                    "{} is not in a git repository: run doctor in your project (or pass --project DIR); to guard this directory itself, `did-it-actually install --project {}`",
                    scope.project.display(),
                    scope.project.display()
                )
            }),
        ));
    } else if !missing.is_empty() {
        let shell = crate::tools::shell_tools_matcher();
        let mcp_shells = if missing.iter().any(|m| m.contains(&format!("`{shell}`"))) {
            " (a shell registration by exact name leaves MCP-served shell tools such as `mcp__sh__Bash` unguarded)"
        } else {
            ""
        };
        out.push(check(
            Mark::Warn,
            "registration",
            format!("not registered: {}{mcp_shells}", missing.join(", ")),
            Some(
                "run `did-it-actually install` to add them (or ignore if you chose --hooks)".into(),
            ),
        ));
    }
    registered
}

fn ours(
    settings: &serde_json::Map<String, Value>,
    file: &Path,
) -> Vec<(Registered, Value, Option<String>)> {
    let mut out = Vec::new();
    let Some(events) = settings.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event_name, groups) in events {
        let Some(event) = Event::from_name(event_name) else {
            continue;
        };
        for group in groups.as_array().into_iter().flatten() {
            let matcher = group
                .get("matcher")
                .and_then(Value::as_str)
                .map(str::to_owned);
            for h in group
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(hook) = install::our_hook(h) {
                    let (command, args) = program_and_args(h);
                    let reg = Registered {
                        hook,
                        event,
                        command,
                        args,
                        file: file.to_owned(),
                        matcher: matcher.clone(),
                    };
                    out.push((reg, h.clone(), matcher.clone()));
                }
            }
        }
    }
    out
}

/// The program and its arguments as Claude Code runs them: exec form as written, shell
/// form split the way `sh` would split a plain command line.
fn program_and_args(handler: &Value) -> (String, Vec<String>) {
    let command = handler
        .get("command")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match handler.get("args").and_then(Value::as_array) {
        Some(args) => (
            command.to_owned(),
            args.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        None => {
            let mut words = shlex::split(command).unwrap_or_default().into_iter();
            (words.next().unwrap_or_default(), words.collect())
        }
    }
}

fn handler_check(reg: &Registered, handler: &Value, matcher: Option<&str>) -> Check {
    let what = format!(
        "{} on {}{}",
        reg.hook.name(),
        reg.event.name(),
        matcher.map(|m| format!(" ({m})")).unwrap_or_default()
    );
    let mut problems = Vec::new();
    let mut fixes = Vec::new();
    let command = Path::new(&reg.command);
    let runnable = std::fs::metadata(command).map(|m| {
        use std::os::unix::fs::PermissionsExt;
        m.is_file() && m.permissions().mode() & 0o111 != 0
    });
    match runnable {
        Ok(true) => {}
        Ok(false) => problems.push(format!("{} is not an executable file", reg.command)),
        Err(_) if !reg.command.contains('/') => problems.push(format!(
            "`{}` is not an absolute path: it depends on the PATH Claude Code runs with",
            reg.command
        )),
        Err(e) => problems.push(format!(
            "{} cannot be run ({}): the hook is off",
            reg.command,
            crate::fsutil::describe_io(&e)
        )),
    }
    if problems
        .iter()
        .any(|p| p.contains("cannot be run") || p.contains("not an executable"))
    {
        fixes.push("run `did-it-actually install` again from the installed binary".to_owned());
    }
    let timeout = handler.get("timeout").and_then(Value::as_f64);
    match timeout {
        None => problems.push("no timeout (Claude Code's default is 600 s)".into()),
        Some(t) if t > 600.0 => {
            problems.push(format!(
                "timeout {t} is in seconds: that is {:.1} hours",
                t / 3600.0
            ));
            fixes.push(
                "set the timeout in seconds (10 for PreToolUse, 30 for PostToolUse, 60 for Stop)"
                    .into(),
            );
        }
        Some(_) => {}
    }
    let on_failure = handler.get("onFailure").and_then(Value::as_str);
    let stop = matches!(reg.event, Event::Stop | Event::SubagentStop);
    // A recorder the table registers fail-open (the run log) may lack it.
    let fail_closed = crate::install::registrations(&[reg.hook])
        .iter()
        .find(|r| r.event == reg.event && r.matcher == reg.matcher)
        .is_none_or(|r| r.fail_closed);
    if !stop && fail_closed && on_failure != Some("block") {
        problems.push("no `onFailure: \"block\"`: if the hook cannot run, the tool call goes through unguarded".into());
        fixes.push("run `did-it-actually install` without --no-fail-closed".into());
    }
    if stop && on_failure.is_some() {
        problems.push(
            "`onFailure` on a stop event is ignored by Claude Code (and logged as a warning)"
                .into(),
        );
    }
    if handler.get("args").is_none() {
        problems.push("shell form (no `args`): the command runs through `sh -c`".into());
    }
    let detail = format!(
        "{} {} (timeout {}, onFailure {}) in {}",
        reg.command,
        reg.args.join(" "),
        timeout.map_or("default".into(), |t| t.to_string()),
        on_failure.unwrap_or("unset"),
        reg.file.display()
    );
    let fatal = problems.iter().any(|p| {
        p.contains("cannot be run") || p.contains("not an executable") || p.contains("hours")
    });
    if problems.is_empty() {
        check(Mark::Pass, what, detail, None)
    } else {
        check(
            if fatal { Mark::Fail } else { Mark::Warn },
            what,
            format!("{detail}: {}", problems.join("; ")),
            (!fixes.is_empty()).then(|| fixes.join("; ")),
        )
    }
}

/// `2.1.328 (Claude Code)` -> (2, 1, 328).
pub fn parse_version(text: &str) -> Option<Version> {
    let v = text.split_whitespace().next()?;
    let mut parts = v
        .trim_start_matches('v')
        .split('.')
        .map(|p| p.parse::<u32>().ok());
    Some((parts.next()??, parts.next()??, parts.next()??))
}

/// The version of the `claude` found on PATH.
pub fn claude_version(
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Option<(PathBuf, Option<Version>)> {
    let path = env("PATH")?;
    let claude = std::env::split_paths(&path)
        .map(|d| d.join("claude"))
        .find(|p| p.is_file())?;
    let out = run_with_timeout(
        Command::new(&claude).arg("--version"),
        b"",
        Duration::from_secs(10),
    )
    .ok()?;
    Some((claude, parse_version(&out.1)))
}

fn claude_version_check(env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Check {
    let want = ON_FAILURE_SINCE;
    match claude_version(env) {
        None => check(Mark::Warn, "Claude Code", "no `claude` on PATH: its version cannot be checked", Some("make sure Claude Code 2.1.295 or later runs the hooks".into())),
        Some((path, None)) => check(Mark::Warn, "Claude Code", format!("{} did not say its version", path.display()), None),
        Some((path, Some(v))) if v < want => check(
            Mark::Fail,
            "Claude Code",
            format!("{} is {}.{}.{}: before 2.1.295, `onFailure` is ignored and a hook that cannot run lets every tool call through (fail open)", path.display(), v.0, v.1, v.2),
            Some("update Claude Code".into()),
        ),
        Some((path, Some(v))) => check(Mark::Pass, "Claude Code", format!("{} is {}.{}.{} (honours onFailure)", path.display(), v.0, v.1, v.2), None),
    }
}

fn policy_check(project: &Path, env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Check {
    match Policy::in_force(project, env) {
        Ok(p) if p.pending.is_some() => {
            let pending = p.pending.as_ref().expect("matched");
            // The file as it is: why it cannot be approved, if it cannot.
            let on_disk = crate::approval::why_not_approvable(&pending.file)
                .map(|e| format!(" It cannot be approved as it is: {e}."))
                .unwrap_or_default();
            check(
                Mark::Warn,
                "policy",
                format!("{}.{on_disk}", pending.sentence(&p.source)),
                Some("review the file, then run `did-it-actually policy approve` at your terminal (not through the agent)".into()),
            )
        }
        Ok(p) => {
            let scope = crate::scope::Scope::new(&p, project, env);
            check(
                Mark::Pass,
                "policy",
                format!(
                    "{}: protects {}; writes allowed {}; audit {}",
                    p.source,
                    p.branches.describe_protected(),
                    crate::policy::describe_writable(&scope.root, &p.scope.outside_root),
                    if p.audit.enabled { "on" } else { "off" }
                ),
                None,
            )
        }
        Err(e) => check(
            Mark::Fail,
            "policy",
            format!("{e}: block-wrong-branch and scope-guard deny everything until it is fixed"),
            Some("fix the file (`did-it-actually policy check` shows the same error)".into()),
        ),
    }
}

/// The run-time layer as the agent's commands get it (the settings env on top of this
/// environment).
fn runtime_check(project: &Path, env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Check {
    let agent = crate::runtime::activation::agent_env(project, env);
    let Ok(policy) = Policy::in_force(project, &agent) else {
        return check(
            Mark::Warn,
            "run-time layer",
            "not judged: the policy cannot be read (see above)",
            None,
        );
    };
    match crate::hooks::block_wrong_branch::Layers::of(&policy, &agent).run_time {
        crate::runtime::activation::Activation::Active { hooks } => check(
            Mark::Pass,
            "run-time layer",
            format!(
                "every git the agent starts runs the branch check in {}",
                hooks.display()
            ),
            None,
        ),
        crate::runtime::activation::Activation::Inactive(why) => check(
            Mark::Warn,
            "run-time layer",
            format!("off ({why}): a program the agent starts (a script, a build recipe) can move a protected branch unseen, and git commands with values known only at run time are denied"),
            policy.branches.run_time.then(|| "run `did-it-actually install --project` on this machine".to_owned()),
        ),
    }
}

/// The run-time layer for writes as the agent's shell tool gets it: the shell prefix in
/// the settings env, the kernel's support, and a live probe through the prefix (a write
/// inside the project lands, one outside every allowed directory does not).
fn write_layer_check(project: &Path, env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Check {
    use crate::runtime::activation::{CONFINE_LINK, PROJECT_ENV, SHELL_PREFIX_ENV};
    const NAME: &str = "run-time layer for writes";
    let agent = crate::runtime::activation::agent_env(project, env);
    let Ok(policy) = Policy::in_force(project, &agent) else {
        return check(
            Mark::Warn,
            NAME,
            "not judged: the policy cannot be read (see above)",
            None,
        );
    };
    if !policy.scope.run_time {
        return check(
            Mark::Pass,
            NAME,
            format!("off by the policy (scope.run_time is false in {}): the static reading alone judges writes", policy.source),
            None,
        );
    }
    if let Err(why) = crate::runtime::confine::available() {
        return check(
            Mark::Warn,
            NAME,
            format!("off: {why}; the static reading alone judges writes, so a program the agent starts can write outside the project unseen"),
            None,
        );
    }
    let prefix = agent(SHELL_PREFIX_ENV).map(PathBuf::from);
    let Some(prefix) = prefix.filter(|p| p.file_name().is_some_and(|n| n == CONFINE_LINK)) else {
        return check(
            Mark::Warn,
            NAME,
            format!(
                "off: the agent's environment has no {SHELL_PREFIX_ENV} naming the confine script; a program the agent starts can write outside the project unseen"
            ),
            Some("run `did-it-actually install --project` on this machine".into()),
        );
    };
    let layout = crate::runtime::activation::Layout::new(&agent, Some(project)).ok();
    if let Some(bin) = layout.and_then(|l| {
        (l.confine_link() == prefix)
            .then(|| l.confine_binary())
            .flatten()
    }) {
        if !bin.exists() {
            return check(
                Mark::Warn,
                NAME,
                format!("not probed: the binary {} runs is missing, so every command of the agent's Bash tool is refused with what to install (see the binary checks above)", prefix.display()),
                Some("install did-it-actually again, then run `did-it-actually install --project`".into()),
            );
        }
    }
    let root = crate::scope::Scope::new(&policy, project, &agent).root;
    let writable = crate::runtime::confine::writable(&policy, &root, &agent);
    let beneath = |p: &Path| writable.dirs.iter().any(|(d, _)| p.starts_with(d));
    let outside = [
        crate::store::state_root(&agent).ok(),
        agent("HOME").map(PathBuf::from),
        root.parent().map(Path::to_path_buf),
    ]
    .into_iter()
    .flatten()
    .find(|d| d.is_dir() && !beneath(d));
    let id = std::process::id();
    let inside = root.join(format!(".did-it-actually-doctor-{id}"));
    // Shell builtins only: the probe must not depend on the agent's PATH.
    let out_file = outside
        .as_ref()
        .map(|d| d.join(format!(".did-it-actually-doctor-{id}")));
    let mut probe = format!(
        ": > {} && echo inside-landed",
        crate::shell::quote(&inside.to_string_lossy())
    );
    if let Some(f) = &out_file {
        probe.push_str(&format!(
            "; : > {} 2>/dev/null && echo outside-landed",
            crate::shell::quote(&f.to_string_lossy())
        ));
    }
    let ran = std::process::Command::new(&prefix)
        .arg(&probe)
        .current_dir(&root)
        .envs(
            [
                SHELL_PREFIX_ENV,
                PROJECT_ENV,
                "HOME",
                "TMPDIR",
                "DID_IT_ACTUALLY_STATE_DIR",
            ]
            .iter()
            .filter_map(|k| agent(k).map(|v| (*k, v))),
        )
        .stdin(std::process::Stdio::null())
        .output();
    let (out, said) = match ran {
        Ok(o) => (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).trim().to_owned(),
        ),
        Err(e) => {
            return check(
                Mark::Fail,
                NAME,
                format!(
                    "{} cannot run ({}): every command of the agent's Bash tool fails",
                    prefix.display(),
                    crate::fsutil::describe_io(&e)
                ),
                Some("run `did-it-actually install --project` again".into()),
            )
        }
    };
    let _ = std::fs::remove_file(&inside);
    if let Some(f) = &out_file {
        let _ = std::fs::remove_file(f);
    }
    match (out.contains("inside-landed"), out.contains("outside-landed")) {
        (false, _) => check(
            Mark::Fail,
            NAME,
            format!(
                "a probe write inside {} did not land through {}: the agent's commands cannot write the project{}",
                root.display(),
                prefix.display(),
                if said.is_empty() { String::new() } else { format!(" (it said: {})", crate::shell::walk::cut(&said)) }
            ),
            Some("run `did-it-actually install --project` again; `did-it-actually confine 'touch x'` in the project shows the error".into()),
        ),
        (true, true) => check(
            Mark::Fail,
            NAME,
            format!("a probe write outside the allowed directories landed through {}: writes are not confined", prefix.display()),
            None,
        ),
        (true, false) => check(
            Mark::Pass,
            NAME,
            format!(
                "every command of the agent's Bash tool, and every program it starts, writes only inside {} and the other directories the policy allows (`policy check` lists them); a live probe: a write inside landed, {}",
                root.display(),
                match &outside {
                    Some(d) => format!("one in {} was refused", d.display()),
                    None => "and no directory outside them was found to probe".into(),
                }
            ) + &names_at_run_time(&policy, project, &agent),
            None,
        ),
    }
}

/// What becomes of a write target only known when a command runs: left to the kernel
/// with the guard's files read-only to the command, or refused before it runs (and why).
fn names_at_run_time(
    policy: &Policy,
    project: &Path,
    agent: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> String {
    let scope = crate::scope::Scope::new(policy, project, agent);
    match crate::hooks::scope_guard::run_time_decides(policy, &scope, agent) {
        Ok(()) => "; a target only known when the command runs is left to the kernel, the guard's own files read-only to the command".into(),
        Err(why) => format!("; a target only known when the command runs is refused before it runs ({why})"),
    }
}

fn state_check(env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Check {
    let root = match crate::store::state_root(env) {
        Ok(r) => r,
        Err(e) => {
            return check(
                Mark::Fail,
                "state directory",
                e.to_string(),
                Some("set DID_IT_ACTUALLY_STATE_DIR".into()),
            )
        }
    };
    let probe = root.join(format!(".doctor-{}", std::process::id()));
    let writable = std::fs::create_dir_all(&root)
        .and_then(|()| std::fs::write(&probe, b"ok"))
        .and_then(|()| std::fs::remove_file(&probe));
    match writable {
        Ok(()) => {
            let (files, bytes) = dir_size(&root);
            check(
                Mark::Pass,
                "state directory",
                format!(
                    "{} is writable; {files} files, {:.1} MiB",
                    root.display(),
                    bytes as f64 / (1024.0 * 1024.0)
                ),
                None,
            )
        }
        Err(e) => check(
            Mark::Fail,
            "state directory",
            format!(
                "{} is not writable ({e}): writes cannot be recorded, audits see nothing",
                root.display()
            ),
            Some("fix its permissions or set DID_IT_ACTUALLY_STATE_DIR".into()),
        ),
    }
}

/// Whether any session's ledger was edited: each is a hash chain (see
/// [`crate::store::chain`]).
fn ledger_check(env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Check {
    const NAME: &str = "ledger";
    let Ok(root) = crate::store::state_root(env) else {
        return check(
            Mark::Warn,
            NAME,
            "not checked: no state directory (see above)",
            None,
        );
    };
    let (mut sessions, mut records, mut edited) = (0, 0, Vec::new());
    for entry in std::fs::read_dir(root.join("sessions"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let log = entry.path().join(crate::store::WRITE_LOG);
        let c = match crate::store::chain::verify(&log) {
            Ok(c) => c,
            // A session directory without a ledger yet.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                edited.push(format!(
                    "{} (cannot be read: {})",
                    log.display(),
                    crate::fsutil::describe_io(&e)
                ));
                continue;
            }
        };
        sessions += 1;
        records += c.records;
        if c.broken.is_some() {
            edited.push(format!(
                "{} ({})",
                entry.file_name().to_string_lossy(),
                c.describe()
            ));
        }
    }
    if sessions == 0 && edited.is_empty() {
        return check(Mark::Pass, NAME, "no session has a ledger yet", None);
    }
    if edited.is_empty() {
        return check(
            Mark::Pass,
            NAME,
            format!("{sessions} sessions, {records} records: no record was edited, removed or inserted (hash chain)"),
            None,
        );
    }
    check(
        Mark::Warn,
        NAME,
        format!(
            "not intact (edited after it was written, or unreadable): {}",
            edited.join("; ")
        ),
        Some("what these ledgers record past the edit is not evidence; `did-it-actually receipt --session S` shows where".into()),
    )
}

fn dir_size(dir: &Path) -> (u64, u64) {
    let mut stack = vec![dir.to_owned()];
    let (mut files, mut bytes) = (0, 0);
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            match e.metadata() {
                Ok(m) if m.is_dir() => stack.push(e.path()),
                Ok(m) => {
                    files += 1;
                    bytes += m.len();
                }
                Err(_) => {}
            }
        }
    }
    (files, bytes)
}

/// Runs each registered command exactly as Claude Code would (exec form, a canned stdin
/// for its event) in a scratch repository, and checks the answer.
fn self_tests(registered: &[Registered]) -> Vec<Check> {
    let mut out = Vec::new();
    let mut seen: Vec<(String, Vec<String>, Hook)> = Vec::new();
    let scratch =
        std::env::temp_dir().join(format!("did-it-actually-doctor-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let repo = scratch.join("repo");
    let state = scratch.join("state");
    if let Err(e) = make_repo(&repo) {
        out.push(check(
            Mark::Warn,
            "self-test",
            format!("could not build a scratch repository ({e}); the live self-tests were skipped"),
            None,
        ));
        return out;
    }
    for reg in registered {
        // One self-test per hook and command: the events share the code path past parsing.
        let cases = canned(reg, &repo);
        let key = (reg.command.clone(), reg.args.clone(), reg.hook);
        // A command that cannot run was reported with its registration; running it again
        // would only repeat that line.
        if cases.is_empty() || seen.contains(&key) || !Path::new(&reg.command).is_file() {
            continue;
        }
        seen.push(key);
        for (label, stdin, expect) in cases {
            let mut cmd = Command::new(&reg.command);
            cmd.args(&reg.args)
                .current_dir(&repo)
                .env("DID_IT_ACTUALLY_STATE_DIR", &state)
                .env("CLAUDE_PROJECT_DIR", &repo);
            let what = format!("self-test: {} ({label})", reg.hook.name());
            let result = run_with_timeout(
                &mut cmd,
                stdin.to_string().as_bytes(),
                Duration::from_secs(10),
            );
            out.push(match result {
                Err(e) => check(
                    Mark::Fail,
                    what,
                    format!("{} {} could not run: {e}", reg.command, reg.args.join(" ")),
                    Some("reinstall: `install/install.sh`".into()),
                ),
                Ok((code, stdout, stderr)) => match expect.judge(code, &stdout, &state) {
                    Ok(d) => check(Mark::Pass, what, d, None),
                    Err(d) => check(
                        Mark::Fail,
                        what,
                        format!(
                            "{d} (exit {code:?}, stdout {:?}, stderr {:?})",
                            crate::shell::walk::cut(&stdout),
                            crate::shell::walk::cut(&stderr)
                        ),
                        Some(
                            "run the command by hand with that input; report a bug if it persists"
                                .into(),
                        ),
                    ),
                },
            });
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    out
}

enum Expect {
    Deny,
    Silent,
    Recorded,
    Answers,
}

impl Expect {
    fn judge(&self, code: Option<i32>, stdout: &str, state: &Path) -> Result<String, String> {
        match self {
            Expect::Deny
                if code == Some(0) && stdout.contains("\"permissionDecision\":\"deny\"") =>
            {
                Ok("denied, as it must".into())
            }
            Expect::Deny => Err("expected a deny".into()),
            Expect::Silent if code == Some(0) && stdout.trim().is_empty() => {
                Ok("no objection, as it must".into())
            }
            Expect::Silent => Err("expected no output".into()),
            Expect::Recorded => {
                let log = std::fs::read_to_string(state.join("sessions/doctor/writes.jsonl"))
                    .unwrap_or_default();
                if code == Some(0) && log.contains("\"outcome\":\"landed\"") {
                    Ok("the write was verified and recorded".into())
                } else {
                    Err("expected a verified record in the write log".into())
                }
            }
            Expect::Answers
                if code == Some(0)
                    && (stdout.trim().is_empty()
                        || serde_json::from_str::<Value>(stdout).is_ok()) =>
            {
                Ok("answers".into())
            }
            Expect::Answers => Err("expected exit 0 and JSON or nothing".into()),
        }
    }
}

fn canned(reg: &Registered, repo: &Path) -> Vec<(&'static str, Value, Expect)> {
    let base = |event: &str| json!({"session_id": "doctor", "prompt_id": "doctor-turn", "cwd": repo, "hook_event_name": event, "transcript_path": repo.join("none.jsonl")});
    let with = |event: &str, extra: Value| {
        let mut v = base(event);
        if let (Some(o), Value::Object(e)) = (v.as_object_mut(), extra) {
            o.extend(e);
        }
        v
    };
    let bash = |command: &str| {
        with(
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t"}),
        )
    };
    match (reg.hook, reg.event) {
        (Hook::BlockWrongBranch, _) => vec![
            (
                "a push to main",
                bash("git push origin HEAD:main"),
                Expect::Deny,
            ),
            ("a harmless command", bash("ls -la"), Expect::Silent),
        ],
        (Hook::ScopeGuard, _) => vec![
            (
                "a write outside the project",
                with(
                    "PreToolUse",
                    json!({"tool_name": "Write", "tool_input": {"file_path": "/etc/did-it-actually-doctor", "content": "x"}, "tool_use_id": "t"}),
                ),
                Expect::Deny,
            ),
            (
                "a write inside it",
                with(
                    "PreToolUse",
                    json!({"tool_name": "Write", "tool_input": {"file_path": repo.join("ok.txt"), "content": "x"}, "tool_use_id": "t"}),
                ),
                Expect::Silent,
            ),
        ],
        (Hook::VerifyWrite, Event::PostToolUse) => vec![(
            "a write that landed",
            with(
                "PostToolUse",
                json!({"tool_name": "Write", "tool_input": {"file_path": repo.join("README.md"), "content": "doctor\n"}, "tool_response": {"type": "update", "content": "doctor\n"}, "tool_use_id": "t"}),
            ),
            Expect::Recorded,
        )],
        (Hook::VerifyWrite, _) => Vec::new(),
        (Hook::AuditTurn, _) => vec![(
            "a stop with nothing claimed",
            with(
                "Stop",
                json!({"stop_hook_active": false, "last_assistant_message": "Here is the plan."}),
            ),
            Expect::Answers,
        )],
    }
}

/// A repository on `main` with one commit and a README, built with libgit2.
fn make_repo(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("README.md"), "doctor\n").map_err(|e| e.to_string())?;
    let repo =
        git2::Repository::init_opts(dir, git2::RepositoryInitOptions::new().initial_head("main"))
            .map_err(|e| e.message().to_owned())?;
    let mut index = repo.index().map_err(|e| e.message().to_owned())?;
    index
        .add_path(Path::new("README.md"))
        .map_err(|e| e.message().to_owned())?;
    let tree = repo
        .find_tree(index.write_tree().map_err(|e| e.message().to_owned())?)
        .map_err(|e| e.message().to_owned())?;
    let sig = git2::Signature::now("did-it-actually doctor", "doctor@example.invalid")
        .map_err(|e| e.message().to_owned())?;
    repo.commit(Some("HEAD"), &sig, &sig, "doctor", &tree, &[])
        .map_err(|e| e.message().to_owned())?;
    Ok(())
}

/// Runs a command with stdin, killing it after `limit`. (exit code, stdout, stderr).
fn run_with_timeout(
    cmd: &mut Command,
    stdin: &[u8],
    limit: Duration,
) -> Result<(Option<i32>, String, String), String> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    if let Some(mut pipe) = child.stdin.take() {
        let _ = pipe.write_all(stdin);
    }
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                return Err(format!("timed out after {} s", limit.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(e.to_string()),
        }
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    Ok((
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// The checklist for a person: a mark per line (colored only on a terminal without
/// NO_COLOR), the fix under each failure.
pub fn render(checks: &[Check], color: bool) -> String {
    let mut out = String::new();
    for c in checks {
        let (mark, code) = match c.mark {
            Mark::Pass => ("ok  ", "32"),
            Mark::Warn => ("warn", "33"),
            Mark::Fail => ("FAIL", "31"),
        };
        let mark = if color {
            format!("\x1b[{code}m{mark}\x1b[0m")
        } else {
            mark.to_owned()
        };
        out.push_str(&format!("[{mark}] {}: {}\n", c.what, c.detail));
        if let Some(fix) = &c.fix {
            out.push_str(&format!("       fix: {fix}\n"));
        }
    }
    let fails = checks.iter().filter(|c| c.mark == Mark::Fail).count();
    let warns = checks.iter().filter(|c| c.mark == Mark::Warn).count();
    out.push_str(&if fails == 0 && warns == 0 {
        "doctor: all checks pass.\n".to_owned()
    } else if fails == 0 {
        format!(
            "doctor: no check failed; {} above.\n",
            crate::words::count(warns, "warning", "warnings")
        )
    } else {
        format!(
            "doctor: {} failed, {}: the project is not fully guarded.\n",
            crate::words::count(fails, "check", "checks"),
            crate::words::count(warns, "warning", "warnings")
        )
    });
    out
}

pub fn registrations_for(hook: Hook) -> Vec<Registration> {
    install::registrations(&[hook])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(parse_version("2.1.328 (Claude Code)"), Some((2, 1, 328)));
        assert_eq!(parse_version("v2.0.1"), Some((2, 0, 1)));
        assert_eq!(parse_version("nonsense"), None);
        assert!((2, 1, 294) < ON_FAILURE_SINCE && (2, 1, 295) >= ON_FAILURE_SINCE);
    }
}
