//! `did-it-actually status`: one screen for a person: where the guards are registered
//! (Claude Code's settings files, the plugin, every other host's hooks file), what the
//! policy protects, and the last refusals and unlanded writes of the newest session.

use super::*;
use crate::install::hosts::{registered, HOST_INSTALLS};

/// How many recent refusals and unlanded writes are shown.
const RECENT: usize = 5;

pub fn run(
    project: Option<PathBuf>,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let project = project_arg(env, project).map_err(CommandError::new)?;
    let home = env.var("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    writeln!(out, "project: {}", project.display())?;
    writeln!(out, "registered:")?;
    let mut any = false;
    let mut broken = false;
    if let Some(level) = crate::install::managed::managed_host(crate::protocol::host::Host::Claude)
    {
        for file in level.files() {
            let Some(settings) = read(&file) else {
                continue;
            };
            let hooks = claude_hooks(&settings);
            if !hooks.is_empty() {
                any = true;
                writeln!(
                    out,
                    "  Claude Code, managed (no project or user setting can switch it off), {}: {}",
                    file.display(),
                    hooks.join(", ")
                )?;
            }
        }
    }
    let mut claude_files = vec![
        project.join(".claude/settings.json"),
        project.join(".claude/settings.local.json"),
    ];
    if let Some(h) = &home {
        claude_files.push(h.join(".claude/settings.json"));
    }
    for file in &claude_files {
        let Some(settings) = read(file) else { continue };
        let hooks = claude_hooks(&settings);
        if !hooks.is_empty() {
            any = true;
            writeln!(
                out,
                "  Claude Code, {}: {}",
                file.display(),
                hooks.join(", ")
            )?;
        }
        if let Some(plugin) = crate::doctor::enabled_plugin(&settings) {
            any = true;
            writeln!(
                out,
                "  Claude Code, the plugin {plugin} (enabled in {})",
                file.display()
            )?;
        }
    }
    for level in crate::install::managed::MANAGED_HOSTS
        .iter()
        .filter(|l| l.host != crate::protocol::host::Host::Claude)
    {
        let (Some(spec), Some(settings)) = (
            crate::install::hosts::host_install(level.host),
            read(&level.path()),
        ) else {
            continue;
        };
        let hooks = host_hooks(&settings, spec);
        if !hooks.is_empty() {
            any = true;
            writeln!(
                out,
                "  {}, managed, {}: {}",
                level.host.spec().title,
                level.path().display(),
                hooks.join(", ")
            )?;
        }
    }
    let managed_plugin = Path::new(crate::install::managed::OPENCODE_PLUGIN);
    if let Ok(text) = std::fs::read_to_string(managed_plugin) {
        let hooks = distinct(crate::install::opencode::registered(&text));
        if crate::install::opencode::is_ours(&text) && !hooks.is_empty() {
            any = true;
            writeln!(
                out,
                "  opencode, managed, {}: {}",
                managed_plugin.display(),
                hooks.join(", ")
            )?;
        }
    }
    for spec in HOST_INSTALLS {
        let mut places = vec![project.join(spec.project_file)];
        if let Some(h) = &home {
            places.push(h.join(spec.user_file));
        }
        for file in places {
            let Some(settings) = read(&file) else {
                continue;
            };
            let hooks = host_hooks(&settings, spec);
            if !hooks.is_empty() {
                any = true;
                writeln!(
                    out,
                    "  {}, {}: {}",
                    spec.host.spec().title,
                    file.display(),
                    hooks.join(", ")
                )?;
            }
        }
    }
    if !any {
        writeln!(
            out,
            "  nowhere: nothing is guarded (`did-it-actually install --project {}`)",
            project.display()
        )?;
    }
    match Policy::in_force(&project, env.as_fn()) {
        Ok(p) => {
            writeln!(out, "policy: {}", p.source)?;
            if let Some(org) = &p.org {
                writeln!(
                    out,
                    "  and {}, which this repository's policy may tighten and never loosen",
                    org.label()
                )?;
            }
            if let Some(pending) = &p.pending {
                writeln!(out, "  pending: {}", pending.sentence(&p.source))?;
            }
            writeln!(out, "  protects: {}", p.branches.describe_protected())?;
            let agent = crate::runtime::activation::agent_env(&project, env.as_fn());
            let layers = crate::hooks::block_wrong_branch::Layers::of(&p, &agent);
            writeln!(
                out,
                "  branches decided by: {}",
                layers.describe().trim_start_matches("layers: ")
            )?;
            let scope = crate::scope::Scope::new(&p, &project, env.as_fn());
            writeln!(
                out,
                "  writes allowed: {}",
                crate::policy::describe_writable(&scope.root, &p.scope.outside_root)
            )?;
            writeln!(
                out,
                "  writes decided by: {}",
                crate::runtime::confine::describe_layers(&p, &agent)
            )?;
            writeln!(
                out,
                "  audit: {}",
                if p.audit.enabled { "on" } else { "off" }
            )?;
        }
        Err(e) => {
            broken = true;
            writeln!(out, "policy: BROKEN: {e}")?;
            writeln!(
                out,
                "  every guarded call is refused until it is fixed (`did-it-actually policy check` shows where)"
            )?;
        }
    }
    recent(&project, env, out)?;
    // A broken policy refuses the agent's every call: not a state to exit 0 on.
    Ok(if any && !broken {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The hooks of ours a host's settings register, each once.
fn host_hooks(
    settings: &serde_json::Map<String, serde_json::Value>,
    spec: &crate::install::hosts::HostInstall,
) -> Vec<&'static str> {
    distinct(registered(settings, spec))
}

/// The names of the hooks among `(event, hook)` registrations, each once, in order.
fn distinct<E>(regs: impl IntoIterator<Item = (E, Hook)>) -> Vec<&'static str> {
    let mut hooks = Vec::new();
    for (_, h) in regs {
        if !hooks.contains(&h.name()) {
            hooks.push(h.name());
        }
    }
    hooks
}

fn read(file: &Path) -> Option<serde_json::Map<String, serde_json::Value>> {
    let text = std::fs::read_to_string(file).ok()?;
    crate::install::parse_settings(file, &text).ok()
}

/// Our hooks in a Claude Code settings file, each once.
fn claude_hooks(settings: &serde_json::Map<String, serde_json::Value>) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    let events = settings.get("hooks").and_then(|h| h.as_object());
    for groups in events.into_iter().flat_map(|e| e.values()) {
        for group in groups.as_array().into_iter().flatten() {
            for h in group
                .get("hooks")
                .and_then(|h| h.as_array())
                .into_iter()
                .flatten()
            {
                if let Some(hook) = crate::install::our_hook(h) {
                    if !out.contains(&hook.name()) {
                        out.push(hook.name());
                    }
                }
            }
        }
    }
    out
}

/// How many sessions, newest first, `status` looks through for one of the project's.
const SESSIONS_LOOKED_AT: usize = 50;

/// The project's newest session's last refusals and unlanded writes.
fn recent(project: &Path, env: &Env, out: &mut dyn Write) -> Result<(), CommandError> {
    let root = match crate::store::state_root(env.as_fn()) {
        Ok(r) => r,
        Err(e) => {
            writeln!(out, "recent: {e}")?;
            return Ok(());
        }
    };
    let sessions = crate::store::sessions_newest_first(&root);
    if sessions.is_empty() {
        writeln!(out, "recent: nothing recorded yet")?;
        return Ok(());
    }
    let project = crate::fsutil::canonical(project);
    let read = |session: &str| {
        crate::store::SessionId::parse(session)
            .and_then(|id| crate::store::SessionStore::new(&root, &id).read_write_log())
    };
    // The newest session that wrote in the project, or ran or was refused a call there.
    let mine = sessions.iter().take(SESSIONS_LOOKED_AT).find_map(|s| {
        let log = read(s).ok()?;
        let here = |p: &str| {
            Path::new(p).starts_with(&project)
                || crate::fsutil::canonical(Path::new(p)).starts_with(&project)
        };
        let ours = log.records.iter().any(|r| here(&r.path))
            || log.runs.iter().any(|r| here(&r.cwd))
            || log
                .denials
                .iter()
                .any(|d| d.cwd.as_deref().is_some_and(here));
        ours.then(|| (s.clone(), log))
    });
    let Some((session, log)) = mine else {
        writeln!(
            out,
            "recent: no session has written or run a command in this project yet (the newest of {} is {}, elsewhere)",
            crate::words::count(sessions.len(), "session", "sessions"),
            sessions[0]
        )?;
        return Ok(());
    };
    let mut lines: Vec<(String, String)> = log
        .denials
        .iter()
        .map(|d| {
            (
                d.time.clone(),
                format!(
                    "refused by {}: {}",
                    d.hook,
                    crate::shell::walk::cut(
                        d.reason
                            .strip_prefix(&format!("{}: ", d.hook))
                            .unwrap_or(&d.reason)
                    )
                ),
            )
        })
        .chain(
            log.records
                .iter()
                .filter(|r| !r.verified && !r.outcome.agent_was_told())
                .map(|r| {
                    (
                        r.time.clone(),
                        format!("write not landed: {} ({})", r.path, r.outcome.name()),
                    )
                }),
        )
        .collect();
    lines.sort();
    let shown = lines.len().min(RECENT);
    writeln!(
        out,
        "recent, session {session} ({} refused, {} writes; last {shown}):",
        log.denials.len(),
        log.records.len()
    )?;
    for (time, line) in &lines[lines.len() - shown..] {
        writeln!(out, "  {time} {line}")?;
    }
    if lines.is_empty() {
        writeln!(out, "  nothing refused, every write landed")?;
    }
    Ok(())
}
