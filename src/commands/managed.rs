//! `did-it-actually install --managed` and `uninstall --managed`: the hooks in a host's
//! administrator settings (see [`crate::install::managed`]), with the binary they run and
//! the organisation's policy. As root it writes them; as anyone else it stages them and
//! prints the one command an administrator runs.

use super::*;
use crate::args::HostChoice;
use crate::install::managed::{self, Deployed, Deployment, Form, ManagedHost};

pub fn run(
    args: &InstallArgs,
    uninstall: bool,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let host = match args.host {
        HostChoice::One(h) => h,
        HostChoice::All => {
            return Err(CommandError::new(
                "--managed takes one host at a time (--host claude); each host's administrator level is its own file",
            ))
        }
    };
    let Some(level) = managed::managed_host(host) else {
        return Err(CommandError::new(format!(
            "{} has no administrator level that takes hooks (docs/managed.md lists the hosts that do); install it per user (--user) or per project instead",
            host.spec().title
        )));
    };
    if uninstall {
        return remove(level, args, env, out);
    }
    let deployment = plan(level, args, env)?;
    for note in &deployment.notes {
        writeln!(out, "did-it-actually: note: {note}.")?;
    }
    if args.dry_run {
        for f in &deployment.files {
            writeln!(
                out,
                "did-it-actually: dry run: {} would be written ({}, mode {:o}, sha256 {}).",
                f.path.display(),
                f.what,
                f.mode,
                f.sha256()
            )?;
            if let Ok(text) = std::str::from_utf8(&f.bytes) {
                write!(out, "{text}")?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    if is_root() {
        for f in &deployment.files {
            deploy(f).map_err(CommandError::new)?;
            writeln!(
                out,
                "did-it-actually: wrote {} ({}, root-owned, mode {:o}).",
                f.path.display(),
                f.what,
                f.mode
            )?;
        }
        let reach = if level.cannot_lock.is_empty() {
            "no project or user setting can switch them off"
        } else {
            "no project or user setting can switch them off, except as the notes above say"
        };
        writeln!(
            out,
            "did-it-actually: {} now runs the guards for every user and project of this machine; {reach}. `did-it-actually doctor` in a project shows the level that guards it.",
            host.spec().title
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let command = stage(&deployment.files, env)?;
    writeln!(
        out,
        "did-it-actually: writing {} needs root, and this command never escalates. The files are staged under {}; an administrator deploys them with this one command (it checks each file's SHA-256 first, since the staging directory is yours):",
        level.dir,
        stage_dir(env)?.display()
    )?;
    writeln!(out, "{command}")?;
    Ok(ExitCode::SUCCESS)
}

/// The files of a managed install, read and checked before anything is written.
fn plan(level: &ManagedHost, args: &InstallArgs, env: &Env) -> Result<Deployment, CommandError> {
    let mut d = Deployment::default();
    let binary = match &args.binary {
        Some(b) => std::path::absolute(b),
        None => std::env::current_exe().and_then(|p| p.canonicalize()),
    }
    .map_err(|e| CommandError::new(format!("cannot find the binary to deploy: {e}")))?;
    // An entry naming a binary this user can replace guards nothing: a root-owned copy.
    let runs = if managed::root_owned_chain(&binary) {
        binary.clone()
    } else {
        let bytes = std::fs::read(&binary)
            .map_err(|e| CommandError::new(format!("cannot read {}: {e}", binary.display())))?;
        d.files.push(Deployed {
            path: PathBuf::from(managed::MANAGED_BINARY),
            mode: 0o755,
            bytes,
            what: format!(
                "the binary the entries run, copied from {} (which this user could replace)",
                binary.display()
            ),
        });
        PathBuf::from(managed::MANAGED_BINARY)
    };
    let hooks = if args.hooks.is_empty() {
        Hook::ALL.to_vec()
    } else {
        args.hooks.clone()
    };
    let binary_text = runs.to_string_lossy();
    let settings = match level.form {
        Form::ClaudeSettings => {
            managed::claude_settings(&binary_text, &hooks, !args.no_fail_closed)
        }
        Form::HostSettings { .. } | Form::Codex => {
            managed::host_settings(level, &hooks, &binary_text, !args.no_fail_closed)
        }
        Form::Opencode => {
            let regs = crate::install::registrations(&hooks);
            d.files.push(Deployed {
                path: PathBuf::from(managed::OPENCODE_PLUGIN),
                mode: 0o644,
                bytes: crate::install::opencode::managed_plugin(
                    &regs,
                    &binary_text,
                    crate::install::hosts::MANAGED_MISSING,
                )
                .into_bytes(),
                what: "opencode's plugin, running the managed binary only".into(),
            });
            managed::opencode_config(level)
        }
    }
    .map_err(CommandError::new)?;
    if let Form::Codex = level.form {
        let path = PathBuf::from(managed::CODEX_REQUIREMENTS);
        let now = std::fs::read_to_string(&path).unwrap_or_default();
        d.files.push(Deployed {
            path,
            mode: 0o644,
            bytes: managed::codex_requirements(&now).into_bytes(),
            what: "Codex's requirements, with [features] hooks = true (no user or project setting can then switch hooks off)".into(),
        });
    }
    d.files.push(Deployed {
        path: level.path(),
        mode: 0o644,
        bytes: settings.into_bytes(),
        what: format!("{}'s managed hooks", level.host.spec().title),
    });
    if let Some(policy) = &args.policy {
        d.files.push(org_policy(policy, env)?);
    }
    d.notes = match level.form {
        Form::ClaudeSettings => managed::claude_level_notes(level),
        Form::HostSettings { .. } | Form::Codex | Form::Opencode => level
            .cannot_lock
            .iter()
            .map(|c| format!("{} cannot prevent this: {c}", level.host.spec().title))
            .collect(),
    };
    Ok(d)
}

/// The organisation's policy to deploy, checked as the guards will read it.
fn org_policy(file: &Path, env: &Env) -> Result<Deployed, CommandError> {
    let read =
        |e: std::io::Error| CommandError::new(format!("cannot read {}: {e}", file.display()));
    let bytes = crate::fsutil::read_regular(file, crate::policy::MAX_POLICY_BYTES).map_err(read)?;
    // The very check the guards make, through the variable that names a staged file.
    let path = file.to_owned();
    let lookup = move |k: &str| {
        (k == crate::policy::org::ORG_POLICY_ENV).then(|| path.clone().into_os_string())
    };
    crate::policy::org::read(&lookup).map_err(CommandError::new)?;
    let _ = env;
    Ok(Deployed {
        path: PathBuf::from(crate::policy::org::ORG_POLICY_PATH),
        mode: 0o644,
        bytes,
        what: format!("the organisation's policy, from {}", file.display()),
    })
}

/// Removes what a managed install deployed for `level` (the organisation's policy stays:
/// it binds every host, not this one).
fn remove(
    level: &ManagedHost,
    args: &InstallArgs,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    if let Form::HostSettings { .. } | Form::Codex = level.form {
        return remove_from_shared(level, args, env, out);
    }
    if let Form::Opencode = level.form {
        return remove_opencode(level, args, env, out);
    }
    let mut paths = vec![level.path()];
    let binary = PathBuf::from(managed::MANAGED_BINARY);
    // The binary goes with the last host's file that names it.
    let others_use_it = managed::MANAGED_HOSTS
        .iter()
        .filter(|m| m.host != level.host)
        .any(|m| {
            std::fs::read_to_string(m.path()).is_ok_and(|t| t.contains(managed::MANAGED_BINARY))
        });
    if binary.exists() && !others_use_it {
        paths.push(binary);
    }
    let present: Vec<PathBuf> = paths.into_iter().filter(|p| p.exists()).collect();
    if present.is_empty() {
        writeln!(
            out,
            "did-it-actually: {} holds no managed install of ours; nothing to remove.",
            level.path().display()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.dry_run {
        for p in &present {
            writeln!(
                out,
                "did-it-actually: dry run: {} would be removed.",
                p.display()
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if is_root() {
        for p in &present {
            std::fs::remove_file(p)
                .map_err(|e| CommandError::new(format!("cannot remove {}: {e}", p.display())))?;
            writeln!(out, "did-it-actually: removed {}.", p.display())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "did-it-actually: removing the managed install needs root; an administrator runs:"
    )?;
    writeln!(out, "{}", managed::admin_remove_command(&present))?;
    Ok(ExitCode::SUCCESS)
}

/// Takes our plugin out of opencode's administrator config, and removes the plugin.
fn remove_opencode(
    level: &ManagedHost,
    args: &InstallArgs,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let plugin = PathBuf::from(managed::OPENCODE_PLUGIN);
    let config = level.path();
    let after = managed::opencode_config_without_ours(level).map_err(CommandError::new)?;
    if args.dry_run {
        writeln!(
            out,
            "did-it-actually: dry run: {} would be removed.",
            plugin.display()
        )?;
        match &after {
            Some(text) => {
                writeln!(
                    out,
                    "did-it-actually: dry run: {} would become:",
                    config.display()
                )?;
                write!(out, "{text}")?;
            }
            None => writeln!(
                out,
                "did-it-actually: dry run: {} would be removed (nothing else is in it).",
                config.display()
            )?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    if is_root() {
        let _ = std::fs::remove_file(&plugin);
        match &after {
            Some(text) => deploy(&Deployed {
                path: config.clone(),
                mode: 0o644,
                bytes: text.clone().into_bytes(),
                what: String::new(),
            })
            .map_err(CommandError::new)?,
            None if config.exists() => std::fs::remove_file(&config).map_err(|e| {
                CommandError::new(format!("cannot remove {}: {e}", config.display()))
            })?,
            None => {}
        }
        writeln!(
            out,
            "did-it-actually: removed {} and its entry in {}.",
            plugin.display(),
            config.display()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "did-it-actually: removing the managed install needs root; an administrator runs:"
    )?;
    match after {
        Some(text) => {
            let f = Deployed {
                path: config,
                mode: 0o644,
                bytes: text.into_bytes(),
                what: String::new(),
            };
            let command = stage(std::slice::from_ref(&f), env)?;
            writeln!(out, "{command}")?;
            writeln!(out, "{}", managed::admin_remove_command(&[plugin]))?;
        }
        None => writeln!(out, "{}", managed::admin_remove_command(&[plugin, config]))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Takes our entries out of an administrator's file shared with other settings.
fn remove_from_shared(
    level: &ManagedHost,
    args: &InstallArgs,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let path = level.path();
    if !path.exists() {
        writeln!(
            out,
            "did-it-actually: {} does not exist; nothing to remove.",
            path.display()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let after = managed::host_settings_without_ours(level).map_err(CommandError::new)?;
    match (&after, args.dry_run, is_root()) {
        (None, true, _) => writeln!(
            out,
            "did-it-actually: dry run: {} would be removed (nothing else is in it).",
            path.display()
        )?,
        (Some(text), true, _) => {
            writeln!(
                out,
                "did-it-actually: dry run: {} would become:",
                path.display()
            )?;
            write!(out, "{text}")?;
        }
        (None, false, true) => {
            std::fs::remove_file(&path)
                .map_err(|e| CommandError::new(format!("cannot remove {}: {e}", path.display())))?;
            writeln!(
                out,
                "did-it-actually: removed {} (nothing else was in it).",
                path.display()
            )?;
        }
        (Some(text), false, true) => {
            let f = Deployed {
                path: path.clone(),
                mode: 0o644,
                bytes: text.clone().into_bytes(),
                what: String::new(),
            };
            deploy(&f).map_err(CommandError::new)?;
            writeln!(
                out,
                "did-it-actually: removed our entries from {}; the rest of it is as it was.",
                path.display()
            )?;
        }
        (None, false, false) => {
            writeln!(
                out,
                "did-it-actually: removing the managed install needs root; an administrator runs:"
            )?;
            writeln!(out, "{}", managed::admin_remove_command(&[path]))?;
        }
        (Some(text), false, false) => {
            let f = Deployed {
                path: path.clone(),
                mode: 0o644,
                bytes: text.clone().into_bytes(),
                what: String::new(),
            };
            let command = stage(std::slice::from_ref(&f), env)?;
            writeln!(
                out,
                "did-it-actually: removing our entries from {} needs root; an administrator runs:",
                path.display()
            )?;
            writeln!(out, "{command}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes one file root-owned with its mode, atomically (a host reading it mid-write
/// sees the old file or the new one).
fn deploy(f: &Deployed) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    if let Some(dir) = f.path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    crate::fsutil::write_atomically(&f.path, &f.bytes)
        .map_err(|e| format!("cannot write {}: {e}", f.path.display()))?;
    std::fs::set_permissions(&f.path, std::fs::Permissions::from_mode(f.mode))
        .map_err(|e| format!("cannot set the mode of {}: {e}", f.path.display()))
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Stages `files` under the state directory; the one command that deploys them.
fn stage(files: &[Deployed], env: &Env) -> Result<String, CommandError> {
    let dir = stage_dir(env)?;
    for f in files {
        let staged = managed::staged_path(&dir, &f.path);
        crate::fsutil::write_atomically(&staged, &f.bytes).map_err(|e| {
            CommandError::new(format!(
                "cannot stage {}: {}",
                staged.display(),
                crate::fsutil::describe_io(&e)
            ))
        })?;
    }
    Ok(managed::admin_command(&dir, files))
}

/// Where a non-root managed install stages its files.
fn stage_dir(env: &Env) -> Result<PathBuf, CommandError> {
    crate::store::state_root(env.as_fn())
        .map(|r| r.join("managed"))
        .map_err(CommandError::new)
}
