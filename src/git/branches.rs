//! Branch-moving subcommands with their own grammar: rebase, branch, checkout/switch,
//! worktree add, and the fast-forward pull exemption.

use super::*;

impl Analyzer<'_> {
    /// Remembers a work tree added by the command, with what it has checked out, so that
    /// later parts of the command that `cd` into it are judged on that branch.
    pub(super) fn add_worktree(&mut self, p: &grammar::Parsed, idx: usize, cwd: &Path) {
        let Some(path) = p.positionals.first().filter(|a| !is_dynamic(a)) else {
            return;
        };
        let path = crate::fsutil::lexical(&cwd.join(path));
        let repo = &self.opened[idx];
        let head = match (p.value("B").or_else(|| p.value("b")), p.positionals.get(1)) {
            (Some(b), _) if !is_dynamic(b) => Head::Branch(b.to_owned()),
            (Some(b), _) => Head::Named(b[1..].to_owned()),
            _ if p.on("detach") => Head::Detached,
            (None, Some(c)) if is_dynamic(c) => Head::Unknown,
            (None, Some(c)) if repo.branch_exists(c) => Head::Branch(c.clone()),
            (None, Some(_)) => Head::Detached,
            // With no commit-ish, git creates a branch named after the directory.
            (None, None) => match path.file_name() {
                Some(n) => Head::Branch(n.to_string_lossy().into_owned()),
                None => Head::Unknown,
            },
        };
        self.heads.insert(path.clone(), head);
        self.worktrees.push((path, idx));
    }

    pub(super) fn rebase(
        &mut self,
        rest: &[String],
        idx: usize,
        head: &Head,
        ov: &mut Overrides,
        effects: &mut Vec<Effect>,
    ) {
        let p = parse_args(grammar::REBASE, rest);
        if !p.errors.is_empty()
            || ["abort", "quit", "show-current-patch", "edit-todo"]
                .iter()
                .any(|f| p.on(f))
        {
            return;
        }
        let top = self.opened[idx].workdir().map(Path::to_path_buf);
        for cmd in p.values("exec") {
            effects.push(Effect::Script {
                text: cmd.to_owned(),
                cwd: top.clone(),
            });
        }
        if any_dynamic(&p.positionals) {
            effects.push(dynamic_args("rebase", &p.positionals));
            return;
        }
        let resuming = p.on("continue") || p.on("skip");
        // `git rebase main` on main: "Current branch main is up to date" (verified with
        // git 2.47, also with -f, -i, --no-ff and --exec).
        let onto_itself = !resuming
            && !p.on("root")
            && !p.has("onto")
            && matches!(p.positionals.as_slice(), [upstream] if names_branch_tip(upstream, head));
        if onto_itself {
            return;
        }
        // A rebase in progress finishes on the branch it started from, whatever is checked
        // out meanwhile: `git checkout feat && git rebase --continue` moves main to feat.
        let in_progress = self.opened[idx]
            .in_progress()
            .filter(|op| resuming && op.operation == "rebase");
        let target = match (in_progress, p.positionals.get(1)) {
            (Some(op), _) => Head::Branch(op.branch),
            (None, Some(b)) if !resuming => {
                // `git rebase <upstream> <branch>` switches to <branch> first.
                let h = if self.opened[idx].branch_exists(b) {
                    Head::Branch(b.clone())
                } else {
                    Head::Detached
                };
                self.set_head(h.clone());
                h
            }
            _ => head.clone(),
        };
        match &target {
            Head::Branch(b) => effects.push(update(b, Place::Local, Action::Rebase)),
            Head::Detached => {}
            Head::Named(raw) => effects.push(unnamed(&format!("`git rebase` acts on the branch `{raw}`, whose name is only known when it runs"), raw)),
            Head::Unknown => effects.push(Effect::Unresolvable("`git rebase` acts on the current branch, which an earlier part of the command changed in a way the guard cannot follow".into())),
        }
        let update_refs = p.on("update-refs")
            || (!p.has("no-update-refs")
                && self
                    .lookup(ov, Some(idx), "rebase.updateRefs")
                    .is_some_and(|v| v == "true"));
        if !update_refs || resuming {
            return;
        }
        // --update-refs moves every branch that points into the rebased range.
        let repo = &self.opened[idx];
        let tip = match &target {
            Head::Branch(b) => repo.commit_of(&format!("refs/heads/{b}")),
            _ => repo.commit_of("HEAD"),
        };
        let base = if p.on("root") {
            None
        } else {
            let upstream = p
                .value("onto")
                .map(str::to_owned)
                .or_else(|| p.positionals.first().cloned())
                .unwrap_or_else(|| "@{upstream}".to_owned());
            repo.commit_of(&upstream)
        };
        let Some(tip) = tip else { return };
        for b in repo.local_branches() {
            if Head::Branch(b.clone()) == target {
                continue;
            }
            let Some(at) = repo.commit_of(&format!("refs/heads/{b}")) else {
                continue;
            };
            let in_range =
                repo.is_ancestor(at, tip) && base.is_none_or(|base| !repo.is_ancestor(at, base));
            if in_range {
                effects.push(update(&b, Place::Local, Action::Rebase));
            }
        }
    }

    pub(super) fn branch(
        &mut self,
        rest: &[String],
        idx: usize,
        head: &Head,
        effects: &mut Vec<Effect>,
    ) {
        let p = parse_args(grammar::BRANCH, rest);
        if !p.errors.is_empty() {
            return;
        }
        let current = match head {
            Head::Branch(b) => Some(b.clone()),
            _ => None,
        };
        let names = &p.positionals;
        if let Some(upstream) = p.value("set-upstream-to").filter(|u| !is_dynamic(u)) {
            if let Some(b) = names.first().cloned().or(current.clone()) {
                self.set_upstream(idx, &b, upstream);
            }
            return;
        }
        if let ([name, start], true) = (names.as_slice(), p.has("track")) {
            self.set_upstream(idx, name, start);
        }
        if p.on("delete") || p.on("D") {
            // git refuses to delete the branch checked out here.
            let bare = self.opened[idx].is_bare();
            for n in names
                .iter()
                .filter(|n| bare || current.as_ref() != Some(*n))
            {
                effects.push(checked(n, Action::Delete));
            }
            return;
        }
        let rename = p.on("move") || p.on("M");
        let copy = p.on("copy") || p.on("C");
        if rename || copy {
            let (old, new) = match names.as_slice() {
                [new] => (current.clone(), Some(new.clone())),
                [old, new, ..] => (Some(old.clone()), Some(new.clone())),
                [] => (None, None),
            };
            // git refuses to rename or copy onto the branch checked out here, and then
            // changes nothing.
            let onto_checked_out = !self.opened[idx].is_bare()
                && new.is_some()
                && new.as_ref() == current.as_ref()
                && old.as_ref() != current.as_ref();
            if onto_checked_out {
                return;
            }
            if rename {
                match old {
                    Some(o) => effects.push(checked(&o, Action::Rename)),
                    None if names.len() == 1 => effects.push(Effect::Unresolvable(
                        "`git branch -m` renames the current branch, which is unknown".into(),
                    )),
                    None => {}
                }
            }
            if let Some(n) = new {
                effects.push(checked(&n, Action::ForceMove));
            }
            return;
        }
        let listing = [
            "list",
            "all",
            "remotes",
            "verbose",
            "show-current",
            "set-upstream-to",
            "unset-upstream",
            "edit-description",
        ]
        .iter()
        .any(|f| p.has(f))
            || [
                "contains",
                "no-contains",
                "merged",
                "no-merged",
                "points-at",
            ]
            .iter()
            .any(|f| p.has(f));
        if listing {
            return;
        }
        if let Some(name) = names.first() {
            // git refuses to force-update the branch checked out here.
            let checked_out =
                current.as_deref() == Some(name.as_str()) && !self.opened[idx].is_bare();
            if is_dynamic(name) {
                effects.push(unnamed(
                    &format!(
                        "`git branch` names the branch `{}` only when it runs",
                        &name[1..]
                    ),
                    &name[1..],
                ));
            } else if p.on("force") && !checked_out {
                effects.push(update(name, Place::Local, Action::ForceMove));
            }
        }
    }

    pub(super) fn checkout(
        &mut self,
        sub: &str,
        rest: &[String],
        idx: usize,
        effects: &mut Vec<Effect>,
    ) {
        let switch = sub == "switch";
        let p = parse_args(
            if switch {
                grammar::SWITCH
            } else {
                grammar::CHECKOUT
            },
            rest,
        );
        if !p.errors.is_empty() {
            // An option the tables lack (a newer git may accept it): where HEAD ends up is
            // unknown, so what follows in the command is judged against no known branch.
            self.set_head(Head::Unknown);
            return;
        }
        let (force_create, create) = if switch {
            ("force-create", "create")
        } else {
            ("B", "b")
        };
        if let Some(b) = p.value(force_create) {
            // `switch -C main` (or `-C main HEAD`) on main resets main to itself.
            let onto_itself = matches!(self.head(idx), Head::Branch(ref h) if h == b)
                && p.positionals
                    .first()
                    .is_none_or(|start| names_branch_tip(start, &self.head(idx)));
            match p.positionals.first() {
                // The start point is only known when it runs (what xargs appends).
                Some(start) if is_dynamic(start) && !is_dynamic(b) => {
                    effects.push(dynamic_args(sub, &p.positionals))
                }
                _ if !onto_itself => effects.push(checked(b, Action::ForceMove)),
                _ => {}
            }
            self.set_head(if is_dynamic(b) {
                Head::Named(b[1..].to_owned())
            } else {
                Head::Branch(b.to_owned())
            });
            return;
        }
        if let Some(b) = p.value(create).or_else(|| p.value("orphan")) {
            if let (true, Some(start)) = (p.has("track"), p.positionals.first()) {
                if !is_dynamic(b) && !is_dynamic(start) {
                    self.set_upstream(idx, b, start);
                }
            }
            self.set_head(if is_dynamic(b) {
                Head::Named(b[1..].to_owned())
            } else {
                Head::Branch(b.to_owned())
            });
            return;
        }
        if p.on("detach") {
            self.set_head(Head::Detached);
            return;
        }
        if p.on("patch") || p.dashdash == Some(0) {
            return;
        }
        let Some(first) = p.positionals.first() else {
            return;
        };
        let paths_follow = p.positionals.len() > 1;
        if is_dynamic(first) || first == "-" || first.starts_with("@{-") {
            if !paths_follow {
                self.set_head(Head::Unknown);
            }
            return;
        }
        let repo = &self.opened[idx];
        let head = if repo.branch_exists(first) {
            Some(Head::Branch(first.clone()))
        } else if p.dashdash.is_none()
            && !p.has("no-guess")
            && repo
                .remote_names()
                .iter()
                .any(|r| repo.remote_branch_exists(r, first))
        {
            // DWIM: a remote branch of that name is checked out as a new local branch.
            Some(Head::Branch(first.clone()))
        } else if repo.commit_of(first).is_some() {
            Some(Head::Detached)
        } else {
            None
        };
        if let (Some(h), false) = (head, paths_follow && !switch) {
            self.set_head(h);
        }
    }

    /// Whether `git pull [REMOTE [REFSPEC…]]` on `head` pulls only that branch's own
    /// upstream (`branch.<b>.remote` and `branch.<b>.merge`).
    pub(super) fn pulls_own_upstream(
        &mut self,
        ov: &Overrides,
        idx: usize,
        head: &Head,
        positionals: &[String],
    ) -> bool {
        let Head::Branch(b) = head else {
            return false;
        };
        let remote = self.lookup(ov, Some(idx), &format!("branch.{b}.remote"));
        let merge = self.lookup(ov, Some(idx), &format!("branch.{b}.merge"));
        let Some(merge) = merge else {
            return false;
        };
        let merge = merge
            .strip_prefix("refs/heads/")
            .unwrap_or(&merge)
            .to_owned();
        let remote_ok = positionals
            .first()
            .is_none_or(|r| Some(r) == remote.as_ref());
        let specs_ok = positionals.iter().skip(1).all(|spec| {
            let src = spec.trim_start_matches('+').split(':').next().unwrap_or("");
            src.strip_prefix("refs/heads/").unwrap_or(src) == merge
        });
        remote_ok && specs_ok
    }
}
