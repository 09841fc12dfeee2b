//! After the command: what no kernel rule can keep is checked when the agent's command
//! ends, put back, and reported.
//!
//! The kernel confines by directory and binds only what exists, and git's hooks run only
//! in a git that has them. Three things slip between: a path the guard protects that did
//! not exist when the command started (a `.claude/settings.local.json`, a `.env`); a
//! protected branch moved without git's hooks (a ref file written by hand, a git with its
//! activation taken out: `env -i`, an emptied `GIT_CONFIG_*`, a nested agent whose
//! settings blank them); and code planted for the user's own git to run later (a
//! `core.fsmonitor`, an `alias.x = !…`, a hook in a git directory that had none). So
//! `confine` runs the command as its child and, before and after, looks at those places
//! ([`Watch::before`], [`Watch::after`]): a protected branch that moved in a way the policy
//! refuses is put back, a planted key is removed, a created guarded path is moved to the
//! state directory's quarantine. Each is said on the command's stderr (which the agent
//! reads) and recorded in the ledger (`by: run-time`).
//!
//! What it costs is a few small reads per command: the protected refs (by name, not a
//! walk of every branch), the repository's configuration files, and a stat per guarded
//! path. Residuals: a program left running after the command (`cmd &`) acts after the
//! check; a command killed by SIGKILL is not checked.

use crate::policy::{BranchPolicy, DenyKind, Policy};
use std::path::{Path, PathBuf};

/// What was there when the command started.
pub struct Watch {
    repos: Vec<RepoWatch>,
    absent: Vec<Absent>,
    branches: BranchPolicy,
    defaults: Vec<String>,
    quarantine: Option<PathBuf>,
}

struct RepoWatch {
    /// Opened before the command, read again after it (refs are read from disk each
    /// time: libgit2 keeps no copy of them).
    repo: git2::Repository,
    /// "the project's repository", "the local remote /srv/x.git".
    what: String,
    remote: bool,
    refs: Vec<(String, Option<git2::Oid>)>,
    configs: Vec<ConfigWatch>,
    /// A hooks directory that did not exist (one that exists is read-only to the command).
    hooks_absent: Option<PathBuf>,
}

struct ConfigWatch {
    path: PathBuf,
    bytes: Option<Vec<u8>>,
}

struct Absent {
    path: PathBuf,
    what: String,
    /// The policy file: a new one is not in force until approved, so it is only said.
    only_said: bool,
}

/// One thing the command did that the layers put back (or only report).
#[derive(Debug, PartialEq, Eq)]
pub struct Finding {
    pub message: String,
    pub target: String,
    pub rule: String,
}

/// The start of every report line, as the agent reads it in the command's output.
pub const REPORT_START: &str = "did-it-actually (run-time layer, after the command): ";

impl Watch {
    /// Looks at the places before the command runs: the project's repository and the
    /// local remotes the write layer opens (`writable`), and the guarded paths under the
    /// directories it lets the command write.
    pub fn before(
        policy: &Policy,
        scope: &crate::scope::Scope,
        writable: &super::confine::Writable,
        state_root: Option<&Path>,
    ) -> Watch {
        let mut repos = Vec::new();
        let mut defaults = Vec::new();
        // Each half follows its layer's switch: the refs git's hooks guard
        // (`branches.run_time`), the files the kernel guards (`scope.run_time`).
        let (refs_on, files_on) = (policy.branches.run_time, policy.scope.run_time);
        // At the root, not searched upward (a project that is no repository has none).
        let opened = crate::git::repo::Repo::open(&scope.root, Some(&scope.root))
            .ok()
            .flatten();
        let mut attributes = None;
        if let Some(wrapped) = opened {
            if refs_on {
                defaults = wrapped.remote_default_branches();
            }
            let repo = wrapped.into_git2();
            let common = repo.commondir().to_owned();
            attributes = Some(common.join("info").join("attributes"));
            let mut configs = Vec::new();
            if files_on {
                configs.push(config_watch(common.join("config")));
                configs.push(config_watch(common.join("config.worktree")));
                if repo.path() != common {
                    configs.push(config_watch(repo.path().join("config.worktree")));
                }
            }
            repos.push(RepoWatch {
                refs: if refs_on {
                    protected_refs(&repo, &policy.branches, &defaults)
                } else {
                    Vec::new()
                },
                hooks_absent: absent_dir(&common.join("hooks")).filter(|_| files_on),
                configs,
                repo,
                what: "the project's repository".into(),
                remote: false,
            });
            for remote in &writable.remotes {
                let Ok(r) = git2::Repository::open_bare(remote) else {
                    continue;
                };
                repos.push(RepoWatch {
                    refs: if refs_on {
                        protected_refs(&r, &policy.branches, &defaults)
                    } else {
                        Vec::new()
                    },
                    hooks_absent: absent_dir(&remote.join("hooks")).filter(|_| files_on),
                    configs: if files_on {
                        vec![config_watch(remote.join("config"))]
                    } else {
                        Vec::new()
                    },
                    what: format!("the local remote {}", remote.display()),
                    repo: r,
                    remote: true,
                });
            }
        }
        let dirs = writable.real_dirs();
        let beneath = |p: &Path| dirs.iter().any(|w| p.starts_with(w));
        let mut absent = Vec::new();
        for (path, what, only_said) in candidates(policy, scope, attributes)
            .into_iter()
            .filter(|_| files_on)
        {
            if std::fs::symlink_metadata(&path).is_err() && beneath(&path) {
                absent.push(Absent {
                    path,
                    what,
                    only_said,
                });
            }
        }
        Watch {
            repos,
            absent,
            branches: policy.branches.clone(),
            defaults,
            quarantine: state_root.map(|s| s.join("quarantine")),
        }
    }

    /// Looks again after the command, puts back what it must, and says what it found.
    pub fn after(self) -> Vec<Finding> {
        let mut out = Vec::new();
        for repo in &self.repos {
            out.extend(self.refs_after(repo));
            for config in &repo.configs {
                out.extend(config_after(config, &repo.what));
            }
            if let Some(hooks) = &repo.hooks_absent {
                out.extend(self.hooks_after(hooks, &repo.what));
            }
        }
        for a in &self.absent {
            if std::fs::symlink_metadata(&a.path).is_err() {
                continue;
            }
            if a.only_said {
                out.push(Finding {
                    message: format!("the command created {} ({}). It is not in force: the guards keep the policy the user approved until the user runs `did-it-actually policy approve` at a terminal.", a.path.display(), a.what),
                    target: a.path.display().to_string(),
                    rule: "the policy in force is the one the user approved".into(),
                });
                continue;
            }
            out.push(self.quarantined(&a.path, &a.what));
        }
        out
    }

    fn refs_after(&self, repo: &RepoWatch) -> Vec<Finding> {
        let mut out = Vec::new();
        if repo.refs.is_empty() {
            return out;
        }
        let r = &repo.repo;
        // Also a protected name that appeared since: created, not moved (allowed).
        for (name, before) in &repo.refs {
            let now = r.refname_to_id(name).ok();
            if now == *before {
                continue;
            }
            let Some(old) = before else {
                continue; // created: moves nothing
            };
            let branch = name.trim_start_matches("refs/heads/");
            let Some(rule) = self.branches.protects(branch, &self.defaults) else {
                continue;
            };
            let kinds = plausible_kinds(r, *old, now, repo.remote);
            // Some way git could have made this change is allowed: the change may be
            // git's own, judged by its hooks.
            if kinds.iter().any(|k| !self.branches.deny.get(*k)) {
                continue;
            }
            let verb = if now.is_none() { "deleted" } else { "moved" };
            let short = |o: &git2::Oid| o.to_string()[..7].to_owned();
            let restored = r
                .reference(
                    name,
                    *old,
                    true,
                    "did-it-actually: put back after a change made without git's checks",
                )
                .map(|_| ());
            let (done, advice) = match restored {
                Ok(()) => (
                    format!("it was put back to {}", short(old)),
                    "Create a feature branch and commit or push there; a protected branch changes only by the user's hand.",
                ),
                Err(_) => (
                    format!("it could NOT be put back to {} (the user must check it)", short(old)),
                    "Tell the user what moved.",
                ),
            };
            out.push(Finding {
                message: format!(
                    "the command {verb} the protected branch {branch} in {} ({}{}) without git's own checks (a ref written by hand, or a git whose run-time hooks were taken out): {done}. Rule: {rule}. {advice}",
                    repo.what,
                    short(old),
                    now.map(|n| format!(" -> {}", short(&n))).unwrap_or_default(),
                ),
                target: format!("{branch} in {}", repo.what),
                rule,
            });
        }
        out
    }

    fn hooks_after(&self, dir: &Path, what: &str) -> Vec<Finding> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        use std::os::unix::fs::PermissionsExt;
        entries
            .flatten()
            .filter(|e| {
                e.metadata()
                    .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            })
            .map(|e| {
                self.quarantined(
                    &e.path(),
                    &format!("a git hook of {what}, which the user's own git would run later"),
                )
            })
            .collect()
    }

    /// Moves a path the command must not have created into the quarantine.
    fn quarantined(&self, path: &Path, what: &str) -> Finding {
        let moved = self.quarantine.as_ref().and_then(|q| {
            std::fs::create_dir_all(q).ok()?;
            let stamp = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            let name = path.file_name()?.to_string_lossy().into_owned();
            let to = q.join(format!("{stamp}-{name}"));
            std::fs::rename(path, &to)
                .or_else(|_| {
                    std::fs::copy(path, &to)?;
                    std::fs::remove_file(path)
                })
                .ok()
                .map(|()| to)
        });
        let done = match moved {
            Some(to) => format!("it was moved out of the way to {}", to.display()),
            None => "it could NOT be moved away (the user must remove it)".into(),
        };
        Finding {
            message: format!(
                "the command created {} ({what}), which the guard protects by name: {done}. Leave it to the user.",
                path.display()
            ),
            target: path.display().to_string(),
            rule: format!("{what}: protected by name"),
        }
    }
}

/// The ways git itself could have made this change to a branch, for the policy's switches:
/// a change any of them allows is left to git's own hooks, which judged it as it ran.
fn plausible_kinds(
    r: &git2::Repository,
    old: git2::Oid,
    now: Option<git2::Oid>,
    remote: bool,
) -> Vec<DenyKind> {
    let Some(new) = now else {
        return if remote {
            vec![DenyKind::PushDelete]
        } else {
            vec![DenyKind::Branch]
        };
    };
    let ff = r.graph_descendant_of(new, old).unwrap_or(false);
    match (remote, ff) {
        (true, true) => vec![DenyKind::Push],
        (true, false) => vec![DenyKind::ForcePush],
        (false, true) => vec![
            DenyKind::Commit,
            DenyKind::Merge,
            DenyKind::Pull,
            DenyKind::Am,
            DenyKind::CherryPick,
            DenyKind::Revert,
            DenyKind::Rebase,
            DenyKind::Fetch,
            DenyKind::Reset,
            DenyKind::UpdateRef,
        ],
        (false, false) => vec![
            DenyKind::Reset,
            DenyKind::Rebase,
            DenyKind::UpdateRef,
            DenyKind::Fetch,
        ],
    }
}

/// The protected branches that exist now, with their values: literal patterns and the
/// remotes' defaults looked up by name, wildcard patterns by a glob over `refs/heads/`.
fn protected_refs(
    r: &git2::Repository,
    rules: &BranchPolicy,
    defaults: &[String],
) -> Vec<(String, Option<git2::Oid>)> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |n: String| {
        if !names.contains(&n) {
            names.push(n);
        }
    };
    for pattern in rules.protected.iter().chain(defaults) {
        if pattern.contains(['*', '?', '[', '{']) {
            let glob = format!("refs/heads/{}", pattern.replace("**", "*"));
            if let Ok(refs) = r.references_glob(&glob) {
                for name in refs.flatten().filter_map(|r| r.name().map(str::to_owned)) {
                    if rules
                        .protects(name.trim_start_matches("refs/heads/"), defaults)
                        .is_some()
                    {
                        add(name);
                    }
                }
            }
        } else {
            add(format!("refs/heads/{pattern}"));
        }
    }
    names
        .into_iter()
        .map(|n| {
            let v = r.refname_to_id(&n).ok();
            (n, v)
        })
        .collect()
}

fn absent_dir(dir: &Path) -> Option<PathBuf> {
    std::fs::symlink_metadata(dir)
        .is_err()
        .then(|| dir.to_owned())
}

/// The file's bytes only: it is parsed (before and after) only when the command changed
/// it, which most commands do not.
fn config_watch(path: PathBuf) -> ConfigWatch {
    let bytes = std::fs::read(&path).ok();
    ConfigWatch { path, bytes }
}

/// The planted entries of a configuration file as it was: its bytes parsed from a copy in
/// the temp directory, removed at once (libgit2 reads configuration from files only).
fn planted_before(w: &ConfigWatch) -> Vec<(String, String)> {
    let Some(bytes) = &w.bytes else {
        return Vec::new();
    };
    let copy = std::env::temp_dir().join(format!(".did-it-actually-config-{}", std::process::id()));
    if std::fs::write(&copy, bytes).is_err() {
        return Vec::new();
    }
    let out = planted_entries(&copy);
    let _ = std::fs::remove_file(&copy);
    out
}

/// The entries of one configuration file (not what it includes) that plant code.
fn planted_entries(path: &Path) -> Vec<(String, String)> {
    let Ok(cfg) = git2::Config::open(path) else {
        return Vec::new();
    };
    let Ok(mut entries) = cfg.entries(None) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    while let Some(Ok(e)) = entries.next() {
        let (Some(name), Some(value)) = (e.name(), e.value()) else {
            continue;
        };
        if crate::git::config::plants_code(name, value).is_some() {
            out.push((name.to_owned(), value.to_owned()));
        }
    }
    out
}

fn config_after(w: &ConfigWatch, repo: &str) -> Vec<Finding> {
    let now = std::fs::read(&w.path).ok();
    if now == w.bytes || now.is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let before = planted_before(w);
    let added: Vec<(String, String)> = planted_entries(&w.path)
        .into_iter()
        .filter(|e| !before.contains(e))
        .collect();
    if added.is_empty() {
        return out;
    }
    for (name, value) in added {
        let why = crate::git::config::plants_code(&name, &value).unwrap_or("code");
        let removed = git2::Config::open(&w.path)
            .and_then(|mut c| c.remove_multivar(&name, &format!("^{}$", regex_escape(&value))))
            .is_ok();
        let done = if removed {
            "it was removed".to_owned()
        } else {
            "it could NOT be removed (the user must remove it)".to_owned()
        };
        out.push(Finding {
            message: format!(
                "the command set {name} in {} ({repo}): {why}, which the user's own git would run after the session: {done}. Such a key is the user's to set, at their terminal.",
                w.path.display()
            ),
            target: format!("{name} in {}", w.path.display()),
            rule: format!("{name}: a configuration key that runs code"),
        });
    }
    out
}

/// POSIX extended regular expression quoting (libgit2's multivar patterns).
fn regex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Paths the guard protects by name whether or not they exist: in each `.claude` of the
/// project, Claude Code's settings files and the launcher; the policy file; the literal
/// paths of `scope.deny`; the repository's `info/attributes`.
fn candidates(
    policy: &Policy,
    scope: &crate::scope::Scope,
    attributes: Option<PathBuf>,
) -> Vec<(PathBuf, String, bool)> {
    let mut out = vec![(
        policy.source.path().to_owned(),
        "the guard's policy file".to_owned(),
        true,
    )];
    let claude = scope.root.join(".claude");
    for name in ["settings.json", "settings.local.json"] {
        out.push((
            claude.join(name),
            "Claude Code's project settings, where the guards are registered".into(),
            false,
        ));
    }
    out.push((
        claude.join(crate::BINARY_NAME),
        "the launcher the project's settings run the guards through".into(),
        false,
    ));
    for pattern in &policy.scope.deny {
        if let Some(literal) = super::protect::literal_denied(pattern) {
            if !literal.contains('/') || !literal.starts_with(".git") {
                out.push((
                    scope.root.join(literal),
                    format!("scope.deny pattern {pattern:?}"),
                    false,
                ));
            }
        }
    }
    if let Some(path) = attributes {
        out.push((
            path,
            "the repository's own attributes, which choose the programs git runs on files".into(),
            false,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_quoting_keeps_values_literal() {
        assert_eq!(regex_escape("!sh -c 'x|y'"), "!sh -c 'x\\|y'");
        assert_eq!(regex_escape("a.b*"), "a\\.b\\*");
    }
}
