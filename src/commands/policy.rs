//! `did-it-actually policy init`, `policy approve` and `policy check`.

use super::*;

pub fn approve(
    cwd: Option<PathBuf>,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let cwd = env.working_dir(cwd).map_err(CommandError::new)?;
    if let Some(why) = crate::approval::under_agent(env.as_fn()) {
        return Err(CommandError::new(format!(
            "the policy was not approved: this runs under an agent ({why}). Only the user approves the policy, at a terminal outside the agent; what was in force stays in force"
        )));
    }
    let approved =
        crate::approval::approve(&cwd, env.as_fn(), "policy approve").map_err(CommandError::new)?;
    let record = &approved.record;
    let what = match &record.sha256 {
        Some(sha) => format!("{} (sha256 {})", record.file.display(), &sha[..12]),
        None => format!(
            "the built-in defaults (there is no {})",
            record.file.display()
        ),
    };
    let change = match &approved.previous {
        _ if approved.unchanged() => "it was already in force",
        Some(_) => "it replaces what was approved before",
        None => "nothing was approved before",
    };
    writeln!(
        out,
        "did-it-actually: approved {what}; {change}. Every guard applies it from the next tool call (recorded in {}).",
        approved.record_path.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

pub fn init(
    cwd: Option<PathBuf>,
    strict: bool,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let dir = match project_dir(env, cwd) {
        Ok(d) => d,
        Err(e) => return Err(CommandError::new(e)),
    };
    let path = dir.join(crate::policy::POLICY_FILE);
    if path.exists() {
        return Err(CommandError::new(format!(
            "{} exists already; it was left as it is",
            path.display()
        )));
    }
    const EXAMPLE: &str = include_str!("../../policy.example.json");
    // The example tells a reader to copy it here; the file written here is the copy.
    let example = EXAMPLE.replacen(
        "did-it-actually policy. Copy to .did-it-actually.json at the repository root (or point DID_IT_ACTUALLY_POLICY at a file).",
        "did-it-actually policy for this repository (written by `did-it-actually policy init`).",
        1,
    );
    let text = if strict {
        example.replace(
            r#""unmodelled_programs": "allow""#,
            r#""unmodelled_programs": "deny""#,
        )
    } else {
        example
    };
    let preset = if strict {
        "the strict preset: every key with its default, but scope.unmodelled_programs is deny"
    } else {
        "every key with its default"
    };
    match std::fs::write(&path, text) {
        Ok(()) => {
            writeln!(out, "did-it-actually: wrote {} ({preset}; edit it, then `did-it-actually policy check`).", path.display())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(CommandError::new(format!(
            "cannot write {}: {e}",
            path.display()
        ))),
    }
}

pub fn check(
    cwd: Option<PathBuf>,
    env: &Env,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    let cwd = match env.working_dir(cwd) {
        Ok(c) => c,
        Err(e) => return Err(CommandError::new(e)),
    };
    // What the file says, and whether it is what the guards apply.
    let in_force = Policy::in_force(&cwd, env.as_fn());
    match Policy::discover(&cwd, env.as_fn()) {
        Ok(p) => {
            writeln!(out, "policy: {}", p.source)?;
            if let Some(org) = &p.org {
                org_lines(org, out)?;
            }
            match &in_force {
                Ok(f) => match &f.pending {
                    Some(pending) => writeln!(
                        out,
                        "in force: no: {}. The keys below are the file's.",
                        pending.sentence(&f.source)
                    )?,
                    None => match f.source {
                        crate::policy::Source::Defaults { .. } => writeln!(
                            out,
                            "in force: yes (the built-in defaults: no file to approve)"
                        )?,
                        _ => writeln!(out, "in force: yes (approved)")?,
                    },
                },
                Err(e) => writeln!(out, "in force: the approved policy cannot be read: {e}")?,
            }
            writeln!(out, "store.prune_after_days: {}", p.store.prune_after_days)?;
            let b = &p.branches;
            writeln!(out, "branches.protected: {}", b.describe_protected())?;
            if b.protect_remote_default {
                for line in remote_default_lines(&cwd) {
                    writeln!(out, "branches.protect_remote_default: {line}")?;
                }
            }
            let denied: Vec<&str> = crate::policy::DenyKind::ALL
                .into_iter()
                .filter(|k| b.deny.get(*k))
                .map(crate::policy::DenyKind::key)
                .collect();
            writeln!(
                out,
                "branches.deny: {}",
                if denied.is_empty() {
                    "nothing".into()
                } else {
                    denied.join(", ")
                }
            )?;
            writeln!(out, "branches.allow_force_push: {}", b.allow_force_push)?;
            match &b.allowed {
                Some(_) => writeln!(out, "branches.allowed: {}", b.describe_allowed())?,
                None => writeln!(out, "branches.allowed: any branch")?,
            }
            writeln!(
                out,
                "branches.run_time: {}",
                if b.run_time {
                    "on (git's own hooks refuse these changes in every git the agent starts, where install activated them)"
                } else {
                    "off (the static reading alone decides)"
                }
            )?;
            let scope = crate::scope::Scope::new(&p, &cwd, env.as_fn());
            writeln!(out, "scope.root: {}", scope.root.display())?;
            writeln!(out, "scope.allow: {}", p.scope.allow.join(", "))?;
            if let Some(org) = &p.scope.also_allow {
                writeln!(
                    out,
                    "  and the organisation's scope.allow: {}",
                    org.join(", ")
                )?;
            }
            writeln!(out, "scope.deny: {}", p.scope.deny.join(", "))?;
            if p.scope.outside_root.is_empty() {
                writeln!(out, "scope.outside_root: deny")?;
            } else {
                let mut notes = Vec::new();
                if crate::policy::is_default_outside_root(&p.scope.outside_root) {
                    notes.push("the default: the system temp directories".to_owned());
                }
                if p.scope
                    .outside_root
                    .iter()
                    .any(|g| g.starts_with(crate::policy::TMPDIR_VAR))
                {
                    notes.push(
                        match env.var("TMPDIR").filter(|d| Path::new(d).is_absolute()) {
                            Some(dir) => format!("$TMPDIR is {}", Path::new(&dir).display()),
                            None => "$TMPDIR is not set, so its pattern matches nothing".into(),
                        },
                    );
                }
                notes.push("\"outside_root\": \"deny\" allows nothing outside the root".into());
                let notes = if notes.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", notes.join("; "))
                };
                writeln!(
                    out,
                    "scope.outside_root: allow {}{notes}",
                    p.scope.outside_root.join(", ")
                )?;
            }
            if let Some(org) = &p.scope.also_outside_root {
                writeln!(
                    out,
                    "  and the organisation's scope.outside_root: {}",
                    if org.is_empty() {
                        "deny".to_owned()
                    } else {
                        format!("allow {}", org.join(", "))
                    }
                )?;
            }
            writeln!(
                out,
                "scope.unmodelled_programs: {}",
                p.scope.unmodelled_programs.as_str()
            )?;
            writeln!(
                out,
                "scope.run_time: {}",
                if p.scope.run_time {
                    "on (on Linux the kernel confines the writes of every command the agent's shell runs, and of all it starts, where install activated it)"
                } else {
                    "off (the static reading alone judges writes)"
                }
            )?;
            if p.scope.run_time {
                let w = crate::runtime::confine::writable(&p, &scope.root, env.as_fn());
                let dirs: Vec<String> = w
                    .dirs
                    .iter()
                    .filter(|(_, why)| {
                        !why.starts_with("scope.run_time_writable") && why != "terminals"
                    })
                    .map(|(d, why)| format!("{} ({why})", d.display()))
                    .collect();
                writeln!(out, "  writable at run time: {}", dirs.join(", "))?;
                writeln!(
                    out,
                    "scope.run_time_writable: {} (each where it exists when a command starts)",
                    if p.scope.run_time_writable.is_empty() {
                        "none".to_owned()
                    } else {
                        p.scope.run_time_writable.join(", ")
                    }
                )?;
            }
            let a = &p.audit;
            let on = |b: bool| if b { "on" } else { "off" };
            let list = |l: &[String]| {
                if l.is_empty() {
                    "none".to_owned()
                } else {
                    l.join(", ")
                }
            };
            writeln!(out, "audit.enabled: {}", on(a.enabled))?;
            writeln!(
                out,
                "audit claims checked: files {}, tests {}, git {}; subagents {}",
                on(a.file_claims),
                on(a.test_claims),
                on(a.git_claims),
                on(a.subagents)
            )?;
            writeln!(out, "audit.max_blocks: {}", a.max_blocks)?;
            writeln!(out, "audit.test_commands: {}", list(&a.test_commands))?;
            writeln!(out, "audit.build_commands: {}", list(&a.build_commands))?;
            writeln!(out, "audit.lint_commands: {}", list(&a.lint_commands))?;
            writeln!(out, "audit.ignore_paths: {}", list(&a.ignore_paths))?;
            writeln!(out, "audit.end_turn_tools: {}", list(&a.end_turn_tools))?;
            writeln!(
                out,
                "export.otlp: {}",
                if p.export.otlp {
                    "on (the ledger is sent to the OTLP endpoint of OTEL_EXPORTER_OTLP_*; `did-it-actually export status` shows where)"
                } else {
                    "off (nothing leaves this machine)"
                }
            )?;
            writeln!(out, "export.redact: {}", list(&p.export.redact))?;
            levels_lines(&p, out)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(CommandError::new(e)),
    }
}

/// The organisation's policy file: where it is, and whether it is out of this user's
/// reach.
fn org_lines(org: &crate::policy::OrgLayer, out: &mut dyn Write) -> std::io::Result<()> {
    let moved = if org.moved {
        format!(
            " (named by {}, not the deployed {})",
            crate::policy::org::ORG_POLICY_ENV,
            crate::policy::org::ORG_POLICY_PATH
        )
    } else {
        String::new()
    };
    writeln!(
        out,
        "organisation policy: {}{moved}: binds this repository, whose policy may tighten it and never loosen it",
        org.path.display()
    )?;
    if let Some(why) = &org.writable {
        writeln!(
            out,
            "  WARNING: {why}: an agent running as this user could change it; deploy it root-owned (`did-it-actually install --managed` says how)"
        )?;
    }
    Ok(())
}

/// Where each rule that a policy file sets comes from, and how the two levels combined.
fn levels_lines(p: &Policy, out: &mut dyn Write) -> std::io::Result<()> {
    use crate::policy::org::RULES;
    let set: Vec<&(&str, crate::policy::org::Rule)> = RULES
        .iter()
        .filter(|(k, _)| p.set.iter().any(|s| s == k) || p.org.as_ref().is_some_and(|o| o.sets(k)))
        .collect();
    if set.is_empty() {
        return writeln!(
            out,
            "where the rules come from: built-in defaults for every key"
        );
    }
    writeln!(
        out,
        "where the rules come from (every other key: built-in defaults):"
    )?;
    for (key, rule) in set {
        let source = p.source_of(key);
        let both = p.org.as_ref().is_some_and(|o| o.sets(key)) && p.set.iter().any(|s| s == key);
        let overrode = p
            .org
            .as_ref()
            .is_some_and(|o| o.overrode.iter().any(|k| k == key));
        let how = if both && !overrode {
            format!(": {}", rule.describe())
        } else {
            String::new()
        };
        let ignored = if overrode {
            " (the repository's value is not used: a repository cannot widen what counts as evidence)"
        } else {
            ""
        };
        writeln!(out, "  {key}: {source}{how}{ignored}")?;
    }
    Ok(())
}

/// Which branch is each remote's default and how it was found, for `policy check` and
/// `explain`; a remote whose default cannot be found says so.
pub(crate) fn remote_default_lines(cwd: &Path) -> Vec<String> {
    let Ok(Some(repo)) = crate::git::repo::Repo::open(cwd, None) else {
        return Vec::new();
    };
    repo.remote_defaults()
        .into_iter()
        .map(|d| match &d.branch {
            Some(b) => format!(
                "{}'s default branch is {b} ({})",
                d.remote,
                d.how.describe(&d.remote)
            ),
            None => format!(
                "WARNING: {}'s default branch is {}",
                d.remote,
                d.how.describe(&d.remote)
            ),
        })
        .collect()
}
