//! `did-it-actually install` and `uninstall`: register the hooks in a Claude Code settings
//! file, or remove exactly what was registered.

use super::*;
use crate::args::HostChoice;
use crate::install::Removed;
use crate::protocol::host::Host;

/// The settings file `args` select for `host`.
fn settings_path(args: &InstallArgs, host: Host, env: &Env) -> Result<PathBuf, String> {
    let home = || {
        env.var("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .ok_or("HOME is not set")
    };
    if host == Host::Opencode {
        if args.local {
            return Err(
                "--local is Claude Code's settings.local.json; opencode has no such file".into(),
            );
        }
        return if args.user {
            crate::install::opencode::user_file(env.as_fn())
                .ok_or_else(|| "neither XDG_CONFIG_HOME nor HOME is set".to_owned())
        } else {
            Ok(
                project_arg(env, args.project.clone())?
                    .join(crate::install::opencode::PROJECT_FILE),
            )
        };
    }
    if let Some(spec) = crate::install::hosts::host_install(host) {
        if args.local {
            return Err(format!(
                "--local is Claude Code's settings.local.json; {} has no such file",
                host.spec().title
            ));
        }
        return Ok(if args.user {
            home()?.join(spec.user_file)
        } else {
            project_arg(env, args.project.clone())?.join(spec.project_file)
        });
    }
    if args.user {
        return Ok(home()?.join(".claude/settings.json"));
    }
    let project = project_arg(env, args.project.clone())?;
    let file = if args.local {
        "settings.local.json"
    } else {
        "settings.json"
    };
    Ok(project.join(".claude").join(file))
}

pub fn run(
    args: &InstallArgs,
    uninstall: bool,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    if args.managed {
        return super::managed::run(args, uninstall, env, out);
    }
    match args.host {
        HostChoice::One(host) => run_one(args, host, uninstall, env, out),
        HostChoice::All => run_all(args, uninstall, env, out),
    }
}

/// `--host all`: install on every host whose command is on PATH, saying which were found;
/// uninstall from every host (PATH does not matter: the files are what holds the hooks).
fn run_all(
    args: &InstallArgs,
    uninstall: bool,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    if args.print_settings || args.local || !args.end_turn_tool.is_empty() {
        return Err(CommandError::new(
            "--host all goes with neither --print-settings, --local nor --end-turn-tool (each is one host's: Claude Code's)",
        ));
    }
    let path = env.var("PATH").unwrap_or_default();
    let hosts: Vec<Host> = if uninstall {
        Host::ALL.to_vec()
    } else {
        let (found, missing): (Vec<Host>, Vec<Host>) = Host::ALL
            .into_iter()
            .partition(|h| crate::install::hosts::find_command(*h, &path).is_some());
        if found.is_empty() {
            return Err(CommandError::new(format!(
                "--host all found no host's command on PATH (looked for {}); install one, or name the host with --host",
                Host::ALL
                    .iter()
                    .flat_map(|h| crate::install::hosts::commands(*h))
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let mut line = String::from("did-it-actually: found on PATH: ");
        line.push_str(
            &found
                .iter()
                .map(|h| {
                    let at = crate::install::hosts::find_command(*h, &path).unwrap_or_default();
                    format!("{} ({})", h.spec().title, at.display())
                })
                .collect::<Vec<_>>()
                .join(", "),
        );
        if !missing.is_empty() {
            line.push_str(&format!(
                "; not found, so left alone: {}",
                missing
                    .iter()
                    .map(|h| h.spec().title)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        writeln!(out, "{line}.")?;
        found
    };
    let mut failed = Vec::new();
    for host in hosts {
        let one = InstallArgs {
            host: HostChoice::One(host),
            ..args.clone()
        };
        if uninstall {
            // A host whose file does not exist has nothing of ours.
            if !settings_path(&one, host, env).is_ok_and(|p| p.exists()) {
                continue;
            }
        }
        match run_one(&one, host, uninstall, env, out) {
            Ok(code) if code == ExitCode::SUCCESS => {}
            Ok(_) => failed.push(host.spec().title.to_owned()),
            Err(e) => {
                writeln!(out, "did-it-actually: {}: {e}", host.spec().title)?;
                failed.push(host.spec().title.to_owned());
            }
        }
    }
    if failed.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(
            out,
            "did-it-actually: not done for {}: see above.",
            failed.join(", ")
        )?;
        Ok(ExitCode::FAILURE)
    }
}

fn run_one(
    args: &InstallArgs,
    host: Host,
    uninstall: bool,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    if uninstall && (args.print_settings || !args.end_turn_tool.is_empty()) {
        return Err(CommandError::new(
            "--print-settings and --end-turn-tool go with `install`, not `uninstall`",
        ));
    }
    let binary = match &args.binary {
        Some(b) => std::path::absolute(b).map_err(|e| e.to_string()),
        None => std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .map_err(|e| e.to_string()),
    };
    let binary = match binary {
        Ok(b) => b.to_string_lossy().into_owned(),
        Err(e) => {
            return Err(CommandError::new(format!(
                "cannot find this binary's path: {e}"
            )))
        }
    };
    let selected: Vec<Hook> = if args.hooks.is_empty() {
        Hook::ALL.to_vec()
    } else {
        args.hooks.clone()
    };
    let regs = crate::install::registrations_with(&selected, &args.end_turn_tool);
    if args.print_settings {
        // An Agent SDK app passes this as its `settings` option: the SDK's own Claude Code
        // (2.1.295 or later) honours onFailure, whatever `claude` is on this PATH.
        let fail_closed = !args.no_fail_closed;
        let mut settings = serde_json::Map::new();
        if let Err(e) = crate::install::merge(&mut settings, &regs, &binary, fail_closed) {
            return Err(CommandError::new(e));
        }
        write!(out, "{}", crate::install::render_settings(&settings))?;
        return Ok(ExitCode::SUCCESS);
    }
    let path = match settings_path(args, host, env) {
        Ok(p) => p,
        Err(e) => return Err(CommandError::new(e)),
    };
    if host == Host::Opencode {
        let named = (!crate::install::hosts::found_by_search(Path::new(&binary), &|k| env.var(k)))
            .then_some(binary.as_str());
        return opencode(args, &path, &selected, named, uninstall, out);
    }
    // The shared project settings name the launcher committed beside them, never this
    // machine's path; personal files (--local, --user) and other hosts name the binary.
    let shared = host == Host::Claude && !args.user && !args.local;
    let launcher = shared.then(|| {
        path.parent()
            .unwrap_or(Path::new("."))
            .join("did-it-actually")
    });
    let command = if shared {
        crate::install::launcher::LAUNCHER_COMMAND.to_owned()
    } else {
        binary.clone()
    };
    let host_install = crate::install::hosts::host_install(host);
    let fail_closed = !args.no_fail_closed
        && (uninstall || args.force || host_install.is_some() || on_failure_honoured(env));
    let entries = host_install.map(|spec| {
        let regs = if fail_closed {
            regs.clone()
        } else {
            let mut r = regs.clone();
            r.iter_mut().for_each(|r| r.fail_closed = false);
            r
        };
        // The launcher's search finds the binary where install.sh and cargo put it: then
        // the entry names no path of this machine (the project's file is shared).
        let named = (!crate::install::hosts::found_by_search(Path::new(&binary), &|k| env.var(k)))
            .then_some(binary.as_str());
        crate::install::hosts::entries(spec, &regs, named)
    });
    let edit = |settings: &mut serde_json::Map<String, serde_json::Value>| match (
        host_install,
        &entries,
    ) {
        (Some(spec), _) if uninstall => {
            crate::install::hosts::remove(settings, spec, &selected);
            Ok(())
        }
        (Some(spec), Some(entries)) => crate::install::hosts::merge(settings, spec, entries),
        _ if uninstall => {
            crate::install::remove(settings, &selected);
            Ok(())
        }
        _ => crate::install::merge(settings, &regs, &command, fail_closed),
    };
    if args.dry_run {
        if uninstall {
            // Everything else the real uninstall would take away, said first.
            for line in uninstall_also(&path, launcher.as_deref(), shared, &selected, env) {
                eprintln!("did-it-actually: dry run: {line}");
            }
        }
        // The file on stdout (so it can be redirected), the diff on stderr for the reader.
        // Read and checked exactly as the real run would: what fails there fails here.
        let (plan, text) = if uninstall {
            crate::install::plan_removal(&path, edit).map(|(plan, text, _)| (plan, text))
        } else {
            crate::install::plan(&path, edit).map(|plan| {
                let text = Some(plan.text.clone());
                (plan, text)
            })
        }
        .map_err(CommandError::new)?;
        let label = plan.target.display().to_string();
        let Some(text) = text else {
            eprintln!(
                "did-it-actually: dry run: {label} would be removed (install created it, and nothing else would be left in it)."
            );
            return Ok(ExitCode::SUCCESS);
        };
        write!(out, "{text}")?;
        let before = plan.original.as_deref().unwrap_or("");
        let diff = crate::diff::unified_diff(before, &text, &label, &format!("{label} (after)"));
        if diff.is_empty() {
            eprintln!("did-it-actually: dry run: {label} would not change.");
        } else {
            eprint!("{diff}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let verb = if uninstall {
        "removed from"
    } else {
        "registered in"
    };
    let hooks: Vec<&str> = selected.iter().map(|h| h.name()).collect();
    let shown = path.display();
    let result: Result<Vec<String>, _> = if uninstall {
        crate::install::remove_entries(&path, edit).map(|removed| match removed {
            Removed::Unchanged => vec![format!(
                "{shown} has none of these entries; nothing was changed."
            )],
            Removed::Restored { from } => vec![format!(
                "{} {verb} {shown}: it is back to what it was before install, byte for byte (from {}, now removed).",
                hooks.join(", "),
                from.display()
            )],
            Removed::Deleted => vec![format!(
                "{} {verb} {shown}, which install had created: nothing else was in it, so it is gone.",
                hooks.join(", ")
            )],
            Removed::Written { stale } => {
                let mut lines = vec![format!("{} {verb} {shown}.", hooks.join(", "))];
                lines.extend(stale.map(|b| format!(
                    "the copy install made of it ({}) does not match what is left, so it was removed: the file as it is now is the one to keep.",
                    b.display()
                )));
                lines
            }
        })
    } else {
        crate::install::apply(&path, edit).map(|applied| match applied {
            Applied::Unchanged => vec![format!("{shown} is already up to date.")],
            Applied::Written { backup } => {
                let mut lines = vec![format!("{} {verb} {shown}.", hooks.join(", "))];
                lines.extend(backup.map(|b| {
                    format!(
                        "the file as it was before is saved as {} (uninstall puts it back).",
                        b.display()
                    )
                }));
                lines
            }
        })
    };
    if let (Ok(_), Some(launcher)) = (&result, &launcher) {
        launcher_follow_up(launcher, &binary, uninstall, &path, env, out)?;
    }
    if result.is_ok() && !uninstall {
        host_follow_up(args, host, &path, env, out)?;
    }
    // The shared project install: its personal settings file carries this machine's
    // paths. (--local and --user installs keep their one file to the hooks for now.)
    let layers = (
        selected.contains(&Hook::BlockWrongBranch),
        selected.contains(&Hook::ScopeGuard),
    );
    if result.is_ok() && shared && (layers.0 || layers.1) {
        runtime_follow_up(args, &path, &binary, uninstall, layers, env, out)?;
    }
    let lines = result.map_err(CommandError::new)?;
    for line in lines {
        writeln!(out, "did-it-actually: {line}")?;
    }
    if shared && !args.dry_run {
        exclude_follow_up(&path, uninstall && selected.len() == Hook::ALL.len(), out)?;
    }
    if !uninstall && !args.user {
        approve_follow_up(args, env, out)?;
    }
    if uninstall {
        // A directory install made for its files goes with them (only when empty).
        if !args.user {
            if let Some(dir) = path.parent() {
                let _ = std::fs::remove_dir(dir);
            }
        }
        if selected.len() == Hook::ALL.len() {
            kept_state_note(env, out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What an uninstall takes away besides the entries of `settings` (for `--dry-run`):
/// the launcher, the run-time layers' files and variables, the exclude lines, and what it
/// keeps.
fn uninstall_also(
    settings: &Path,
    launcher: Option<&Path>,
    shared: bool,
    selected: &[Hook],
    env: &Env,
) -> Vec<String> {
    use crate::runtime::activation::{Layout, ENV_NAMES};
    let mut out = Vec::new();
    if let Some(l) = launcher
        .filter(|l| std::fs::read_to_string(l).is_ok_and(|t| crate::install::launcher::is_ours(&t)))
    {
        out.push(format!("{} would be removed (the launcher).", l.display()));
    }
    let whole = selected.len() == Hook::ALL.len();
    if !shared {
        return out;
    }
    let claude_dir = settings.parent().unwrap_or(Path::new("."));
    let project = claude_dir.parent().unwrap_or(Path::new("."));
    let local = claude_dir.join("settings.local.json");
    let vars: Vec<&str> = std::fs::read_to_string(&local)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v.get("env").and_then(|e| e.as_object()).cloned())
        .map(|e| {
            ENV_NAMES
                .iter()
                .copied()
                .filter(|k| e.contains_key(*k))
                .collect()
        })
        .unwrap_or_default();
    if !vars.is_empty()
        && (selected.contains(&Hook::BlockWrongBranch) || selected.contains(&Hook::ScopeGuard))
    {
        out.push(format!(
            "the run-time layers' variables ({}) would be removed from {}.",
            vars.join(", "),
            local.display()
        ));
    }
    if let Ok(layout) = Layout::new(env.as_fn(), Some(project)) {
        if whole && layout.root.exists() {
            out.push(format!(
                "the run-time layer's git hooks ({}) and confine script would be removed.",
                layout.hooks_dir().display()
            ));
        }
    }
    let exclude = git2::Repository::discover(project)
        .ok()
        .map(|r| r.commondir().join("info/exclude"));
    if whole
        && exclude
            .as_ref()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .is_some_and(|t| t.contains("# did-it-actually: this machine's files"))
    {
        out.push("its lines would be removed from the repository's .git/info/exclude.".into());
    }
    if whole {
        if let Ok(state) = crate::store::state_root(env.as_fn()) {
            out.push(format!(
                "{} (the ledger of past sessions, shared by every project) would be kept.",
                state.display()
            ));
        }
    }
    out
}

/// The project's machine files (`settings.local.json`, the backups) listed in the
/// repository's `.git/info/exclude` on install, and taken out on a whole uninstall.
fn exclude_follow_up(
    settings: &Path,
    uninstall: bool,
    out: &mut dyn Write,
) -> Result<(), CommandError> {
    let project = settings
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."));
    let result = if uninstall {
        crate::install::exclude::remove(project)
    } else {
        crate::install::exclude::add(project)
    };
    match result {
        Ok(true) if uninstall => writeln!(out, "did-it-actually: removed its lines from the repository's .git/info/exclude.")?,
        Ok(true) => writeln!(out, "did-it-actually: listed .claude/settings.local.json (this machine's paths) and the *.did-it-actually.bak backups in the repository's .git/info/exclude, so `git add` leaves them out.")?,
        Ok(false) => {}
        Err(e) => eprintln!("did-it-actually: WARNING: .claude/settings.local.json holds this machine's paths and could not be listed in .git/info/exclude ({e}); do not commit it."),
    }
    Ok(())
}

/// A project install approves the policy it finds (the user ran install: what they see
/// is what is in force), unless install itself runs under an agent, which may have
/// written that file.
fn approve_follow_up(
    args: &InstallArgs,
    env: &Env,
    out: &mut dyn Write,
) -> Result<(), CommandError> {
    let project = project_arg(env, args.project.clone()).map_err(CommandError::new)?;
    if let Some(why) = crate::approval::under_agent(env.as_fn()) {
        let in_force = Policy::in_force(&project, env.as_fn());
        if in_force.is_ok_and(|p| p.pending.is_some()) {
            writeln!(
                out,
                "did-it-actually: the policy file was not approved ({why}): approving is the user's, at a terminal outside the agent: did-it-actually policy approve"
            )?;
        }
        return Ok(());
    }
    match crate::approval::approve(&project, env.as_fn(), "install") {
        Ok(a) if a.unchanged() => {}
        Ok(a) if a.record.text.is_some() => writeln!(
            out,
            "did-it-actually: approved {}: the guards apply it (a later change to it is not in force until you run `did-it-actually policy approve`).",
            a.record.file.display(),
        )?,
        Ok(a) => writeln!(
            out,
            "did-it-actually: the policy in force is the built-in defaults (no {}; one written later is not in force until you run `did-it-actually policy approve`).",
            a.record.file.display(),
        )?,
        Err(e) => writeln!(
            out,
            "did-it-actually: the policy was not approved: {e}"
        )?,
    }
    Ok(())
}

/// What uninstall leaves on purpose: the ledger, with how to remove it.
fn kept_state_note(env: &Env, out: &mut dyn Write) -> Result<(), CommandError> {
    if let Ok(root) = crate::store::state_root(env.as_fn()) {
        if root.exists() {
            writeln!(
                out,
                "did-it-actually: kept: {} (the ledger of past sessions, which `did-it-actually log` reads, shared by every project); remove it with `rm -r {}` once no project uses did-it-actually.",
                root.display(),
                root.display()
            )?;
        }
    }
    Ok(())
}

/// Writes (or, on uninstall, removes) the launcher the shared settings name, and says
/// which files a team commits.
fn launcher_follow_up(
    launcher: &Path,
    binary: &str,
    uninstall: bool,
    settings: &Path,
    env: &Env,
    out: &mut dyn Write,
) -> Result<(), CommandError> {
    use crate::install::launcher;
    let existing = std::fs::read_to_string(launcher).ok();
    if uninstall {
        if existing.as_deref().is_some_and(launcher::is_ours) {
            std::fs::remove_file(launcher).map_err(|e| {
                CommandError::new(format!("cannot remove {}: {e}", launcher.display()))
            })?;
            writeln!(out, "did-it-actually: removed {}.", launcher.display())?;
        }
        return Ok(());
    }
    if existing.as_deref().is_some_and(|t| !launcher::is_ours(t)) {
        return Err(CommandError::new(format!(
            "{} exists and is not a did-it-actually launcher; it was left as it is (the hooks entries name it: move it away and install again)",
            launcher.display()
        )));
    }
    // The search finds the binary where install.sh and cargo put it: then the committed
    // launcher names no path of this machine.
    let named = (!crate::install::hosts::found_by_search(Path::new(binary), &|k| env.var(k)))
        .then_some(binary);
    let text = launcher::script(named);
    if existing.as_deref() != Some(text.as_str()) {
        crate::fsutil::write_atomically(launcher, text.as_bytes())
            .and_then(|()| {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(launcher, std::fs::Permissions::from_mode(0o755))
            })
            .map_err(|e| {
                CommandError::new(format!(
                    "cannot write {}: {}",
                    launcher.display(),
                    crate::fsutil::describe_io(&e)
                ))
            })?;
    }
    writeln!(
        out,
        "did-it-actually: commit {} and {} with the project: a teammate without did-it-actually gets a refusal that says what to install, not a spawn error (personal installs: --local or --user).",
        settings.display(),
        launcher.display()
    )?;
    if let Some(named) = named {
        writeln!(
            out,
            "did-it-actually: the launcher names {named}, which is not ~/.local/bin/did-it-actually or ~/.cargo/bin/did-it-actually; on a teammate's machine it runs their did-it-actually from PATH or those places."
        )?;
    }
    Ok(())
}

/// Switches the run-time layer on (or, on uninstall, off) for the agent's commands: the
/// hook scripts and git configuration of [`crate::runtime::activation::Layout`], and
/// their variables in the `env` of the personal settings (`settings.local.json` beside
/// shared settings: the paths are this machine's), or of the `--user` file.
fn runtime_follow_up(
    args: &InstallArgs,
    settings: &Path,
    binary: &str,
    uninstall: bool,
    (for_branches, for_writes): (bool, bool),
    env: &Env,
    out: &mut dyn Write,
) -> Result<(), CommandError> {
    use crate::runtime::activation::{self, Layout};
    let claude_dir = settings.parent().unwrap_or(Path::new("."));
    let project = (!args.user).then(|| claude_dir.parent().unwrap_or(Path::new(".")));
    let env_file = if args.user {
        settings.to_owned()
    } else {
        claude_dir.join("settings.local.json")
    };
    let layout = Layout::new(env.as_fn(), project).map_err(|e| {
        CommandError::new(format!(
            "the run-time layer has no place for its files: {e}"
        ))
    })?;
    if uninstall {
        crate::install::remove_entries(&env_file, |s| {
            activation::remove_env(s, for_branches, for_writes);
            Ok(())
        })
        .map_err(CommandError::new)?;
        if (for_branches && for_writes) && layout.remove().map_err(CommandError::new)? {
            writeln!(
                out,
                "did-it-actually: the run-time layers are off: the git hooks ({}), the confine script and their variables in {} are gone.",
                layout.hooks_dir().display(),
                env_file.display()
            )?;
        }
        return Ok(());
    }
    let policy = project.map(|p| Policy::discover(p, env.as_fn()));
    let policy = match &policy {
        Some(Ok(p)) => Some(p),
        _ => None,
    };
    let branches = for_branches && policy.is_none_or(|p| p.branches.run_time);
    // Writes: the kernel confines what the agent's shell tool runs (Landlock), for a
    // project (whose policy says where) on a kernel that can.
    let writes = match (project, policy) {
        _ if !for_writes => Err("scope-guard is not among the hooks installed".into()),
        (Some(_), Some(p)) if !p.scope.run_time => {
            Err(format!("scope.run_time is false in {}", p.source))
        }
        (Some(_), _) => crate::runtime::confine::available().map(|_| ()),
        (None, _) => {
            Err("a user-wide install has no one project whose scope to confine writes to".into())
        }
    };
    let mut vars = Vec::new();
    if branches {
        layout
            .write(
                binary,
                activation::system_config(env.as_fn()).as_deref(),
                project,
                // A project's: the hooks its repository has (kept up to date before each
                // command by the agent's own hooks); user-wide: every name.
                if project.is_some() {
                    activation::HookSet::Needed
                } else {
                    activation::HookSet::All
                },
                env.as_fn(),
            )
            .map_err(CommandError::new)?;
        vars.extend(layout.env_vars(project));
    } else if let Some(p) = policy.filter(|_| for_branches) {
        writeln!(
            out,
            "did-it-actually: the run-time layer for branches stays off: branches.run_time is false in {}.",
            p.source
        )?;
    }
    if writes.is_ok() {
        layout
            .write_confine_link(binary, project)
            .map_err(CommandError::new)?;
        vars.push((
            activation::SHELL_PREFIX_ENV,
            layout.confine_link().to_string_lossy().into_owned(),
        ));
        if let Some(p) = project.filter(|_| !branches) {
            vars.push((activation::PROJECT_ENV, p.to_string_lossy().into_owned()));
        }
    }
    if vars.is_empty() {
        if let (Err(why), true) = (&writes, for_writes) {
            writeln!(
                out,
                "did-it-actually: the run-time layer for writes stays off: {why}."
            )?;
        }
        return Ok(());
    }
    let applied = crate::install::apply(&env_file, |s| activation::merge_env(s, &vars))
        .map_err(CommandError::new)?;
    if let Applied::Written {
        backup: Some(backup),
    } = applied
    {
        writeln!(
            out,
            "did-it-actually: {} as it was before is saved as {} (uninstall puts it back).",
            env_file.display(),
            backup.display()
        )?;
    }
    if branches {
        writeln!(
            out,
            "did-it-actually: the run-time layer is on: every git the agent starts, from any script or program, runs the branch check in {} (through the env of {}, this machine's, not to be committed); git outside the agent is unchanged.",
            layout.hooks_dir().display(),
            env_file.display()
        )?;
    }
    match &writes {
        Ok(()) => writeln!(
            out,
            "did-it-actually: the run-time layer for writes is on: every command of the agent's Bash tool, and every program it starts, can write only where the scope policy allows (the kernel refuses the rest with \"Permission denied\"; {} runs each command, set as {} in {}).",
            layout.confine_link().display(),
            activation::SHELL_PREFIX_ENV,
            env_file.display()
        )?,
        Err(_) if !for_writes => {}
        Err(why) => writeln!(out, "did-it-actually: the run-time layer for writes stays off: {why}; the static reading (scope-guard) alone judges writes.")?,
    }
    Ok(())
}

/// What a host needs after its file is written: Codex trusts a hook only once its hash
/// is recorded (an untrusted hook is skipped without a word), Gemini and Copilot run a
/// project's hooks only in a trusted folder.
fn host_follow_up(
    args: &InstallArgs,
    host: Host,
    path: &Path,
    env: &Env,
    out: &mut dyn Write,
) -> Result<(), CommandError> {
    match host {
        Host::Codex => {
            let home = env.var("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
            let cwd = path
                .parent()
                .and_then(Path::parent)
                .unwrap_or(Path::new("/"))
                .to_owned();
            match (crate::install::codex_trust::find_codex(env.as_fn()), home) {
                (Some(codex), Some(home)) => {
                    match crate::install::codex_trust::trust_ours(&codex, &cwd, &home, path) {
                        Ok(0) => writeln!(out, "did-it-actually: Codex already trusts these hooks.")?,
                        Ok(n) => writeln!(
                            out,
                            "did-it-actually: trusted {} in {} (Codex skips an untrusted hook without a word).",
                            crate::words::count(n, "hook", "hooks"),
                            home.join(".codex/config.toml").display()
                        )?,
                        Err(e) => eprintln!(
                            "did-it-actually: WARNING: the hooks are registered but could not be trusted ({e}); Codex skips untrusted hooks without a word. Trust them in Codex (`/hooks`) or run install again."
                        ),
                    }
                }
                _ => eprintln!(
                    "did-it-actually: WARNING: `codex` is not on PATH, so the hooks are registered but not trusted; Codex skips untrusted hooks without a word. Run install again where `codex` is on PATH (or set DID_IT_ACTUALLY_CODEX), or trust them in Codex (`/hooks`)."
                ),
            }
            if !args.user {
                writeln!(out, "did-it-actually: Codex runs a project's hooks only in a trusted project.")?;
            }
        }
        Host::Gemini if !args.user => writeln!(
            out,
            "did-it-actually: Gemini runs a project's hooks only in a trusted folder; `did-it-actually doctor` checks it."
        )?,
        Host::Copilot if !args.user => writeln!(
            out,
            "did-it-actually: Copilot runs a repository's hooks only after the folder is trusted (`--trust-folder` in `-p` mode)."
        )?,
        _ => {}
    }
    run_advice(host, out)
}

/// The run-time layers reach another host's commands through `run` (its settings carry
/// no variable that reaches every command, as Claude Code's `env` does).
fn run_advice(host: Host, out: &mut dyn Write) -> Result<(), CommandError> {
    if let Some(command) = crate::install::hosts::commands(host)
        .first()
        .filter(|_| host != Host::Claude)
    {
        writeln!(
            out,
            "did-it-actually: these hooks read each command before it runs; for the run-time layers too (git refuses a protected branch whatever program moves it, the kernel confines every write), start it as `did-it-actually run -- {command}`."
        )?;
    }
    Ok(())
}

/// `install --host opencode` and `uninstall`: the plugin file, written whole (install
/// rewrites it; uninstall removes it, and only when it is ours).
fn opencode(
    args: &InstallArgs,
    path: &Path,
    selected: &[Hook],
    named: Option<&str>,
    uninstall: bool,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    use crate::install::opencode::{is_ours, plugin, registered};
    let shown = path.display();
    let before = match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(CommandError::new(format!(
                "{shown} could not be read: {}",
                crate::fsutil::describe_io(&e)
            )))
        }
    };
    if before.as_deref().is_some_and(|t| !is_ours(t)) {
        return Err(CommandError::new(format!(
            "{shown} is not a plugin of did-it-actually (its first line is not `{}`); move it away, then run this again",
            crate::install::opencode::MARKER
        )));
    }
    // One plugin holds every hook of ours: install adds the selected hooks to those it
    // already runs, uninstall takes them away (and the file with the last one).
    let had: Vec<Hook> = before
        .as_deref()
        .map(|t| registered(t).into_iter().map(|(_, h)| h).collect())
        .unwrap_or_default();
    let keep: Vec<Hook> = Hook::ALL
        .into_iter()
        .filter(|h| {
            if uninstall {
                had.contains(h) && !selected.contains(h)
            } else {
                had.contains(h) || selected.contains(h)
            }
        })
        .collect();
    let after = (!keep.is_empty()).then(|| plugin(&crate::install::registrations(&keep), named));
    if args.dry_run {
        let text = after.clone().unwrap_or_default();
        write!(out, "{text}")?;
        let old = before.as_deref().unwrap_or("");
        let diff =
            crate::diff::unified_diff(old, &text, &shown.to_string(), &format!("{shown} (after)"));
        if diff.is_empty() {
            eprintln!("did-it-actually: dry run: {shown} would not change.");
        } else {
            eprint!("{diff}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let hooks: Vec<&str> = selected.iter().map(|h| h.name()).collect();
    match (before, after) {
        (None, None) => writeln!(
            out,
            "did-it-actually: {shown} is not there; nothing was changed."
        )?,
        (Some(_), None) => {
            std::fs::remove_file(path).map_err(|e| {
                CommandError::new(format!(
                    "{shown} could not be removed: {}",
                    crate::fsutil::describe_io(&e)
                ))
            })?;
            // The directories install made, when nothing else is in them.
            for dir in path.ancestors().skip(1).take(2) {
                if std::fs::remove_dir(dir).is_err() {
                    break;
                }
            }
            writeln!(out, "did-it-actually: removed {shown} (opencode's plugin).")?;
        }
        (Some(old), Some(new)) if old == new => {
            writeln!(out, "did-it-actually: {shown} is already up to date.")?
        }
        (_, Some(new)) => {
            let verb = if uninstall {
                "removed from"
            } else {
                "registered in"
            };
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    CommandError::new(format!(
                        "{} could not be created: {}",
                        dir.display(),
                        crate::fsutil::describe_io(&e)
                    ))
                })?;
            }
            crate::fsutil::write_atomically(path, new.as_bytes()).map_err(|e| {
                CommandError::new(format!(
                    "{shown} could not be written: {}",
                    crate::fsutil::describe_io(&e)
                ))
            })?;
            writeln!(
                out,
                "did-it-actually: {} {verb} {shown} (opencode's plugin).",
                hooks.join(", ")
            )?;
            if !uninstall && keep.contains(&Hook::AuditTurn) {
                writeln!(
                out,
                "did-it-actually: opencode cannot refuse the end of a turn: audit-turn reports unbacked claims to you (standard error in `opencode run`, a toast in the TUI) and does not send the agent back."
                )?;
            }
            if !uninstall {
                run_advice(Host::Opencode, out)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether the `claude` on PATH honours `onFailure` (2.1.295+). When it does not, says so
/// loudly and returns false, so that install writes entries that say what will happen
/// rather than a promise Claude Code ignores. No `claude` found: nothing to check.
fn on_failure_honoured(env: &Env) -> bool {
    let vars = env.as_fn();
    let Some((path, Some(v))) = crate::doctor::claude_version(vars) else {
        return true;
    };
    if v >= crate::doctor::ON_FAILURE_SINCE {
        return true;
    }
    eprintln!(
        "did-it-actually: WARNING: {} is Claude Code {}.{}.{}, which ignores `onFailure` (2.1.295 and later honour it).\n\
         did-it-actually: Under that version, a hook that crashes, times out or is missing lets the tool call through: the guards fail OPEN.\n\
         did-it-actually: The entries are written without `onFailure`. Update Claude Code and run install again, or pass --force to write it anyway.",
        path.display(),
        v.0,
        v.1,
        v.2
    );
    false
}
