//! `git push`: where each refspec lands, through push.default, upstreams,
//! `remote.<name>.push` maps and mirrors.

use super::*;

impl Analyzer<'_> {
    pub(super) fn push(
        &mut self,
        rest: &[String],
        idx: usize,
        head: &Head,
        cwd: &Path,
        ov: &mut Overrides,
        effects: &mut Vec<Effect>,
    ) {
        let p = parse_args(grammar::PUSH, rest);
        if !p.errors.is_empty() {
            return;
        }
        for program in p.values("receive-pack").into_iter().chain(p.values("exec")) {
            effects.push(Effect::Script {
                text: program.to_owned(),
                cwd: None,
            });
        }
        if p.on("dry-run") {
            return;
        }
        if any_dynamic(&p.positionals) || p.value("repo").is_some_and(is_dynamic) {
            effects.push(dynamic_args("push", &p.positionals));
            return;
        }
        let current = match head {
            Head::Branch(b) => Some(b.clone()),
            _ => None,
        };
        let remote = match p
            .positionals
            .first()
            .cloned()
            .or_else(|| p.value("repo").map(str::to_owned))
        {
            Some(r) => r,
            None => self.default_remote(ov, idx, current.as_deref()),
        };
        let place = if remote == "." {
            Place::Local
        } else {
            Place::Remote(remote.clone())
        };
        let mirror = p.on("mirror")
            || self
                .lookup(ov, Some(idx), &format!("remote.{remote}.mirror"))
                .is_some_and(|v| v == "true");
        // `--force` overrides any lease; a lease alone is still a forced update.
        let forced = p.on("force") || p.on("force-with-lease") || mirror;
        let key = format!("remote.{remote}.push");
        let same = |(k, _): &&(String, String)| config_key(k) == config_key(&key);
        let mut configured: Vec<String> = self.opened[idx].config_all(&key);
        configured.extend(self.config_set.iter().filter(same).map(|(_, v)| v.clone()));
        configured.extend(ov.pairs.iter().filter(same).map(|(_, v)| v.clone()));
        let repo = &self.opened[idx];
        // A name that is no configured remote is a path or URL to git: said as such (in a
        // repository with no remotes, `origin` is a directory named origin, or nothing).
        let configured_remote =
            remote == "." || remote.contains(['/', ':']) || repo.remote_names().contains(&remote);
        effects.push(Effect::Note(if configured_remote {
            format!("push remote: {remote}")
        } else {
            format!("push remote: {remote} (no remote of this repository has that name: git takes it as a path or URL, and fails where there is no repository there)")
        }));
        // A remote given as a URL or path, not a configured name, has no remote-tracking
        // refs: a lease that expects the tracking ref's value fails as "stale info" for
        // every ref it covers, and git pushes none of them (verified with git 2.47).
        // Read only when a lease is given (most pushes have none).
        let anonymous =
            p.has("force-with-lease") && remote != "." && !repo.remote_names().contains(&remote);
        let leases = p.values("force-with-lease");
        let bare_lease = p.on("force-with-lease") && leases.is_empty();
        // The remote as a repository on this machine, opened only for a refspec that
        // needs its refs (most pushes never do).
        let local_remote: std::cell::OnceCell<Option<Repo>> = std::cell::OnceCell::new();
        // An anonymous remote given as a path: its refs, read directly.
        let path_remote: std::cell::OnceCell<Option<Repo>> = std::cell::OnceCell::new();
        let remote_has = |dst: &str| {
            path_remote
                .get_or_init(|| {
                    let path = cwd.join(local_path(&remote)?);
                    Repo::open(&path, Some(&path)).ok().flatten()
                })
                .as_ref()
                .is_some_and(|r| r.branch_exists(dst))
        };
        // The lease expects the ref to be absent (no tracking ref): it fails where the
        // remote has the ref, and a new ref is created all the same.
        let lease_fails = |dst: &str| {
            anonymous
                && !p.on("force")
                && (bare_lease
                    || leases
                        .iter()
                        .any(|l| !l.contains(':') && branch_name(l).as_deref() == Some(dst)))
                && remote_has(dst)
        };
        if mirror {
            let mut names = repo.local_branches();
            if let Place::Remote(r) = &place {
                names.extend(repo.protected_candidates_on_remote(r));
            }
            names.sort();
            names.dedup();
            for b in names {
                effects.push(update(&b, place.clone(), Action::Push { force: true }));
            }
            return;
        }
        if p.on("all") || p.on("branches") {
            for b in repo.local_branches() {
                if !lease_fails(&b) {
                    effects.push(update(&b, place.clone(), Action::Push { force: forced }));
                }
            }
            return;
        }
        let mut specs: Vec<String> = p.positionals.iter().skip(1).cloned().collect();
        if specs.is_empty() && !p.on("tags") && !p.on("delete") {
            if !configured.is_empty() {
                effects.push(Effect::Note(format!("{key}: {}", configured.join(", "))));
                specs = configured.clone();
            } else {
                let mode = self
                    .lookup(ov, Some(idx), "push.default")
                    .unwrap_or_else(|| "simple".into());
                effects.push(Effect::Note(format!("push.default: {mode}")));
                // `matching` and `nothing` do not depend on the current branch: a detached
                // HEAD pushes every matching branch all the same.
                match (mode.as_str(), current.clone()) {
                    ("nothing", _) => return,
                    ("matching", _) => specs.push(":".into()),
                    (_, None) => {
                        if let Head::Named(raw) = &head {
                            effects.push(unnamed(
                                &format!("`git push` pushes the current branch `{raw}`, whose name is only known when it runs"),
                                raw,
                            ));
                        } else if matches!(head, Head::Unknown) {
                            effects.push(Effect::Unresolvable(
                                "`git push` pushes the current branch, which is unknown here"
                                    .into(),
                            ));
                        }
                        return;
                    }
                    ("upstream" | "tracking", Some(cur)) => match self.upstream_of(ov, idx, &cur) {
                        Some(merge) => specs.push(format!("{cur}:{merge}")),
                        None => return,
                    },
                    (_, Some(cur)) => specs.push(format!("{cur}:{cur}")),
                }
            }
        }
        let mode = self.lookup(ov, Some(idx), "push.default");
        let upstream_mode = matches!(mode.as_deref(), Some("upstream" | "tracking"));
        let mut k = 0;
        while let Some(spec) = specs.get(k) {
            let repo = &self.opened[idx];
            k += 1;
            if spec == "tag" {
                k += 1;
                continue;
            }
            if p.on("delete") {
                if let Some(b) = branch_name(spec).filter(|b| !lease_fails(b)) {
                    effects.push(update(&b, place.clone(), Action::PushDelete));
                }
                continue;
            }
            let (force, body) = match spec.strip_prefix('+') {
                Some(b) => (true, b),
                None => (forced, spec.as_str()),
            };
            let action = Action::Push { force };
            if body.is_empty() || body == ":" {
                // Matching: every branch that exists on both sides.
                for b in repo.local_branches() {
                    let on_remote = match &place {
                        Place::Remote(r) => {
                            repo.remote_branch_exists(r, &b) || !repo.remote_names().contains(r)
                        }
                        Place::Local => true,
                    };
                    if on_remote && (spec.starts_with('+') || !lease_fails(&b)) {
                        effects.push(update(&b, place.clone(), action));
                    }
                }
                continue;
            }
            let (src, dst) = match body.split_once(':') {
                Some((s, d)) => (s, Some(d)),
                None => (body, None),
            };
            if src.is_empty() {
                if let Some(b) = dst.and_then(branch_name).filter(|b| !lease_fails(b)) {
                    effects.push(update(&b, place.clone(), Action::PushDelete));
                }
                continue;
            }
            if src.contains('*') {
                let Some(dst) = dst else { continue };
                for b in repo.local_branches() {
                    if let Some(mapped) = glob_map(src, dst, &b) {
                        if let Some(name) = branch_name(&mapped) {
                            if spec.starts_with('+') || !lease_fails(&name) {
                                effects.push(update(&name, place.clone(), action));
                            }
                        }
                    }
                }
                continue;
            }
            let (dst, action) = match dst {
                // An unqualified destination the remote does not have, from a source that
                // is no branch (a detached HEAD, a commit): git cannot tell what to make
                // of it and refuses ("not a full refname").
                Some(d)
                    if !d.starts_with("refs/")
                        && !is_branch_source(src, head, repo)
                        && local_remote
                            .get_or_init(|| repo.local_remote(&remote, cwd))
                            .as_ref()
                            .is_some_and(|r| !r.has_ref_named(d)) =>
                {
                    effects.push(Effect::Note(format!(
                        "git refuses `{body}`: `{d}` is not a full ref name and the remote has no such ref"
                    )));
                    continue;
                }
                Some(d) => (branch_name(d), action),
                None => {
                    let source = match src {
                        "HEAD" | "@" => current.clone(),
                        s if s.starts_with("refs/tags/") => None,
                        s => branch_name(s)
                            .filter(|b| repo.branch_exists(b) || src.starts_with("refs/heads/")),
                    };
                    // Without `:dst`, a named branch goes where remote.<name>.push maps it,
                    // else (push.default=upstream) to its upstream; HEAD goes to its own
                    // name (verified with git 2.47).
                    let named = !matches!(src, "HEAD" | "@");
                    match source
                        .as_deref()
                        .filter(|_| named)
                        .map(|b| (b, map_through(&configured, b)))
                    {
                        Some((_, Some((mapped, plus)))) => (
                            branch_name(&mapped),
                            Action::Push {
                                force: force || plus,
                            },
                        ),
                        Some((b, None)) if upstream_mode => match self.upstream_of(ov, idx, b) {
                            Some(merge) => (branch_name(&merge), action),
                            None => (source, action),
                        },
                        _ => (source, action),
                    }
                }
            };
            if let Some(b) = dst {
                if !spec.starts_with('+') && lease_fails(&b) {
                    effects.push(Effect::Note(format!(
                        "the lease on {b} fails (\"stale info\"): {remote} has no remote-tracking refs"
                    )));
                    continue;
                }
                effects.push(update(&b, place.clone(), action));
            }
        }
    }

    pub(super) fn default_remote(
        &mut self,
        ov: &Overrides,
        idx: usize,
        current: Option<&str>,
    ) -> String {
        if let Some(cur) = current {
            if let Some(r) = self.lookup(ov, Some(idx), &format!("branch.{cur}.pushRemote")) {
                return r;
            }
        }
        if let Some(r) = self.lookup(ov, Some(idx), "remote.pushDefault") {
            return r;
        }
        if let Some(cur) = current {
            if let Some(r) = self.lookup(ov, Some(idx), &format!("branch.{cur}.remote")) {
                return r;
            }
        }
        "origin".into()
    }
}

/// The directory a remote URL names on this machine (`/srv/r.git`, `../r.git`,
/// `file:///srv/r.git`), or None for a network URL (`https://…`, `host:path`).
pub(super) fn local_path(url: &str) -> Option<String> {
    if let Some(p) = url.strip_prefix("file://") {
        return Some(p.to_owned());
    }
    if url.contains("://") {
        return None;
    }
    // scp-like `host:path` has a colon before any slash.
    match (url.find(':'), url.find('/')) {
        (Some(c), Some(s)) if c < s => None,
        (Some(_), None) => None,
        _ => Some(url.to_owned()),
    }
}

/// Whether a push source is a branch (git qualifies an unqualified destination after it):
/// a branch name, or HEAD on a branch.
fn is_branch_source(src: &str, head: &Head, repo: &Repo) -> bool {
    match src {
        "HEAD" | "@" => matches!(head, Head::Branch(_)),
        s => {
            s.starts_with("refs/heads/")
                || s.starts_with("refs/tags/")
                || repo.branch_exists(s)
                || repo.commit_of(&format!("refs/tags/{s}")).is_some()
        }
    }
}

impl Repo {
    /// The remote as a repository on this machine (a path, or a configured remote whose
    /// URL is one), read directly for its refs: the remote's truth, not a tracking ref.
    fn local_remote(&self, remote: &str, cwd: &Path) -> Option<Repo> {
        let url = if self.remote_names().iter().any(|r| r == remote) {
            self.remote_url(remote)?
        } else {
            remote.to_owned()
        };
        let path = cwd.join(local_path(&url)?);
        Repo::open(&path, Some(&path)).ok().flatten()
    }

    /// Branch names a mirror push could delete on `remote`: its remote-tracking branches.
    pub(super) fn protected_candidates_on_remote(&self, remote: &str) -> Vec<String> {
        self.remote_default_branches()
            .into_iter()
            .chain(["main".to_owned(), "master".to_owned()])
            .filter(|b| self.remote_branch_exists(remote, b))
            .collect()
    }
}
