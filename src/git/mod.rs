//! What a git invocation would do to branches: which refs it creates commits on, moves,
//! rewrites, deletes or pushes to, resolved the way git resolves them (global options,
//! `-c` and environment config, aliases, the current branch, push refspecs and
//! `push.default`), without running git.

mod branches;
pub mod config;
mod effect;
pub mod grammar;
pub mod partial;
mod push;
mod refspec;
pub mod repo;
mod verbs;

use config::*;
pub use effect::*;

/// How the reason starts when a git hook written earlier in the command would run: an
/// unknown only about hooks, which the run-time layer's own hooks cover.
pub const HOOK_WRITTEN_REASON: &str = "a git hook written earlier in this command";
/// How the reason starts when `core.hooksPath` was set earlier in the command.
pub const HOOKS_PATH_SET_REASON: &str =
    "`core.hooksPath` was set earlier in this command, so this git command";
use refspec::*;
use verbs::*;

use crate::argv::tables;
use grammar::parse_args;
use repo::{Head, Repo};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A word of a git command line that is only known at run time is carried as this
/// prefix followed by the word as written: it stays one argument, and never equals a
/// real branch or option.
pub const DYNAMIC: char = '\u{1}';

pub fn is_dynamic(arg: &str) -> bool {
    arg.starts_with(DYNAMIC)
}

/// How deep aliases may expand into aliases before the guard gives up.
const MAX_ALIAS_DEPTH: usize = 10;

/// State shared by the git invocations of one command line: opened repositories, the
/// current branch as earlier parts of the command changed it, and configuration that
/// earlier `git config` calls set.
pub struct Analyzer<'e> {
    repos: HashMap<PathBuf, Option<usize>>,
    opened: Vec<Repo>,
    /// The current branch as the command changed it, per repository (keyed by git dir)
    /// or per work tree the command itself adds (keyed by its path).
    heads: HashMap<PathBuf, Head>,
    /// Work trees `git worktree add` creates earlier in the command: (path, repository).
    worktrees: Vec<(PathBuf, usize)>,
    /// The key in `heads` of the repository being analyzed.
    key: PathBuf,
    /// Directories an earlier `git clone` or `git init` in the command creates: what runs
    /// in them cannot be read before they exist.
    created: Vec<PathBuf>,
    config_set: Vec<(String, String)>,
    process_env: &'e dyn Fn(&str) -> Option<OsString>,
}

impl<'e> Analyzer<'e> {
    pub fn new(process_env: &'e dyn Fn(&str) -> Option<OsString>) -> Analyzer<'e> {
        Analyzer {
            repos: HashMap::new(),
            opened: Vec::new(),
            heads: HashMap::new(),
            worktrees: Vec::new(),
            key: PathBuf::new(),
            created: Vec::new(),
            config_set: Vec::new(),
            process_env,
        }
    }

    /// The repository for a directory (or an explicit git dir), opened once per command.
    fn repo(&mut self, dir: &Path, git_dir: Option<&Path>) -> Result<Option<usize>, String> {
        let key = git_dir.unwrap_or(dir).to_owned();
        if let Some(r) = self.repos.get(&key) {
            return Ok(*r);
        }
        let opened = Repo::open(dir, git_dir)?.map(|r| {
            self.opened.push(r);
            self.opened.len() - 1
        });
        self.repos.insert(key, opened);
        Ok(opened)
    }

    /// The repository at `dir`, for the walker's questions (is anything protected here?):
    /// `Ok(None)` when there is none, `Err` when there is one that cannot be opened.
    pub fn repo_at(&mut self, dir: &Path) -> Result<Option<&mut Repo>, String> {
        Ok(self.repo(dir, None)?.map(|idx| &mut self.opened[idx]))
    }

    /// The repository for a directory and its key in `heads`: a work tree added earlier
    /// in the command (it does not exist yet), else the repository on disk.
    fn locate(
        &mut self,
        dir: &Path,
        git_dir: Option<&Path>,
    ) -> Result<Option<(usize, PathBuf)>, String> {
        if git_dir.is_none() {
            if let Some((path, idx)) = self
                .worktrees
                .iter()
                .find(|(p, _)| dir.starts_with(p))
                .cloned()
            {
                return Ok(Some((idx, path)));
            }
        }
        Ok(self
            .repo(dir, git_dir)?
            .map(|idx| (idx, self.opened[idx].git_dir())))
    }

    fn head(&self, idx: usize) -> Head {
        self.heads
            .get(&self.key)
            .cloned()
            .unwrap_or_else(|| self.opened[idx].head())
    }

    fn set_head(&mut self, head: Head) {
        self.heads.insert(self.key.clone(), head);
    }

    /// The current branch of the repository at `dir` as the command has left it.
    pub fn current_branch(&mut self, dir: &Path) -> Option<String> {
        let (idx, key) = self.locate(dir, None).ok().flatten()?;
        self.key = key;
        match self.head(idx) {
            Head::Branch(b) => Some(b),
            _ => None,
        }
    }

    /// Analyzes one git invocation.
    pub fn analyze(&mut self, call: &GitCall) -> Vec<Effect> {
        self.analyze_depth(call, 0)
    }

    fn analyze_depth(&mut self, call: &GitCall, depth: usize) -> Vec<Effect> {
        let mut effects = Vec::new();
        let env = |name: &str| -> Option<Option<String>> {
            call.env
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        let mut ov = Overrides {
            pairs: Vec::new(),
            unknown: Vec::new(),
        };
        config_from_env(&env, &mut ov);
        let mut cwd = call.cwd.clone();
        let mut git_dir: Option<Option<String>> = env("GIT_DIR");
        let args = &call.args;
        // Global options, up to the subcommand, by git's own table.
        let globals = crate::argv::parse(&tables::GIT_GLOBAL, args);
        if !globals.errors.is_empty() {
            // git refuses an unknown or malformed global option and runs nothing.
            return effects;
        }
        // A word known only at run time stops the options (it is no option): it is the
        // subcommand, or an option's value.
        let dynamic_sub = args.get(globals.rest_at).filter(|a| is_dynamic(a)).cloned();
        let dynamic_value = globals.opts.iter().find(|(name, v)| {
            v.as_deref().is_some_and(is_dynamic)
                && !matches!(name.as_str(), "attr-source" | "namespace")
        });
        if let Some((name, Some(value))) = dynamic_value {
            let dashes = if name.len() == 1 { "-" } else { "--" };
            return vec![Effect::Unresolvable(format!(
                "`git {dashes}{name}` is given `{}`, only known when it runs",
                &value[1..]
            ))];
        }
        let k = globals.rest_at;
        for (name, value) in &globals.opts {
            let exits = tables::GIT_GLOBAL_EXITS.contains(&name.as_str())
                || (name == "exec-path" && value.is_none());
            if exits {
                return effects;
            }
            let Some(value) = value else { continue };
            match name.as_str() {
                "C" => cwd = cwd.map(|c| crate::fsutil::lexical(&c.join(value))),
                "c" => match value.split_once('=') {
                    Some((key, v)) => ov.pairs.push((key.to_owned(), v.to_owned())),
                    None => ov.pairs.push((value.clone(), "true".to_owned())),
                },
                "git-dir" => git_dir = Some(Some(value.clone())),
                "config-env" => match value.split_once('=') {
                    Some((key, var)) => match env(var)
                        .flatten()
                        .or_else(|| (self.process_env)(var).and_then(|v| v.into_string().ok()))
                    {
                        Some(v) => ov.pairs.push((key.to_owned(), v)),
                        None => ov.unknown.push(key.to_owned()),
                    },
                    None => return effects,
                },
                _ => {}
            }
        }
        if let Some(dynamic) = dynamic_sub {
            // Whatever it runs may switch branches (`git "${args[@]}"` with `switch -c x`):
            // what follows in the command is judged against no known branch.
            if let Some(dir) = &cwd {
                let gd = match &git_dir {
                    Some(Some(gd)) => Some(crate::fsutil::lexical(&dir.join(gd))),
                    _ => None,
                };
                if let Ok(Some((_, key))) = self.locate(dir, gd.as_deref()) {
                    self.key = key;
                    self.set_head(Head::Unknown);
                }
            }
            return vec![Effect::Unresolvable(format!(
                "the git option or subcommand `{}` is only known when it runs",
                &dynamic[1..]
            ))];
        }
        for (key, value) in &ov.pairs {
            effects.extend(command_setting(key, value, cwd.clone()));
        }
        // A command set in the environment by this same command (`GIT_EDITOR=… git
        // commit`, `export GIT_SEQUENCE_EDITOR=…`) runs like one set in the config. The
        // user's own environment is not read: it is theirs, not the agent's.
        for name in COMMAND_VARIABLES {
            match env(name) {
                Some(Some(text)) => effects.push(Effect::Script {
                    text,
                    cwd: cwd.clone(),
                }),
                Some(None) => effects.push(Effect::Unresolvable(format!(
                    "`{name}` is set to a command only known when it runs"
                ))),
                None => {}
            }
        }
        let Some(sub) = args.get(k) else {
            return effects;
        };
        let rest: Vec<String> = args[k + 1..].to_vec();
        let Some(cwd) = cwd else {
            return match verb_kind(sub) {
                VerbKind::ReadOnly => effects,
                _ => vec![Effect::Unresolvable(format!(
                    "the directory `git {sub}` runs in is only known when it runs (after an earlier `cd`)"
                ))],
            };
        };
        let git_dir_path = match &git_dir {
            Some(Some(gd)) => Some(crate::fsutil::lexical(&cwd.join(gd))),
            Some(None) => {
                return vec![Effect::Unresolvable(
                    "GIT_DIR is set to a value only known when it runs".into(),
                )];
            }
            None => None,
        };
        if sub == "clone" || sub == "init" {
            self.record_created(sub, &rest, &cwd, &mut effects);
            return effects;
        }
        if sub != "config" {
            if let Some(reason) = self.files_set_here() {
                return vec![Effect::Unresolvable(reason)];
            }
        }
        if verb_kind(sub) == VerbKind::ReadOnly {
            // It moves no branch, but may check one out: what follows is on that one.
            if let Some(head) = head_after_read_only(sub, &rest) {
                if let Ok(Some((_, key))) = self.locate(&cwd, git_dir_path.as_deref()) {
                    self.key = key;
                    self.set_head(head);
                }
            }
            return effects;
        }
        if git_dir_path.is_none() && self.created.iter().any(|d| cwd.starts_with(d)) {
            return vec![Effect::Unresolvable(format!(
                "`git {sub}` runs in {}, a repository an earlier `git clone` or `git init` in the same command creates, so its branches cannot be read yet",
                cwd.display()
            ))];
        }
        let (repo, key) = match self.locate(&cwd, git_dir_path.as_deref()) {
            Ok(Some((idx, key))) => (Some(idx), key),
            Ok(None) => (None, PathBuf::new()),
            Err(e) => return vec![Effect::Unresolvable(e)],
        };
        self.key = key;
        if verb_kind(sub) == VerbKind::Other {
            // Keep what the global options already showed (a `-c core.pager=…` script).
            effects.extend(self.alias_or_unknown(
                sub,
                &rest,
                &call.env,
                &mut ov,
                (repo, git_dir_path.as_deref()),
                &cwd,
                depth,
            ));
            return effects;
        }
        let Some(idx) = repo else {
            // Not a repository: git refuses a branch operation here.
            return effects;
        };
        effects.push(Effect::Note(format!(
            "repository {}",
            self.opened[idx].git_dir().display()
        )));
        self.verb(sub, &rest, idx, &cwd, &mut ov, &mut effects);
        // Each update is judged with the defaults of the repository it happens in.
        if effects.iter().any(|e| matches!(e, Effect::Update(_))) {
            let defaults = self.opened[idx].remote_default_branches();
            for e in &mut effects {
                if let Effect::Update(u) = e {
                    u.remote_defaults.clone_from(&defaults);
                }
            }
        }
        effects
    }

    #[allow(clippy::too_many_arguments)]
    fn alias_or_unknown(
        &mut self,
        sub: &str,
        rest: &[String],
        env: &[(String, Option<String>)],
        ov: &mut Overrides,
        (repo, git_dir): (Option<usize>, Option<&Path>),
        cwd: &Path,
        depth: usize,
    ) -> Vec<Effect> {
        let key = format!("alias.{sub}");
        if ov.unknown.iter().any(|u| config_key(u) == config_key(&key)) {
            return vec![Effect::Unresolvable(format!("the alias `{sub}` comes from an environment variable that is only known when it runs"))];
        }
        let Some(alias) = self.lookup(ov, repo, &key) else {
            if SAFE_EXTERNALS.contains(&sub) {
                return Vec::new();
            }
            return vec![Effect::Unresolvable(format!(
                "`git {sub}` is neither a git command the guard knows nor an alias it can resolve"
            ))];
        };
        if depth >= MAX_ALIAS_DEPTH {
            return vec![Effect::Unresolvable(format!(
                "the alias `{sub}` expands more than {MAX_ALIAS_DEPTH} levels deep"
            ))];
        }
        let mut effects = vec![Effect::Note(format!("alias {sub} = {alias}"))];
        if let Some(script) = alias.strip_prefix('!') {
            if rest.iter().any(|a| is_dynamic(a)) {
                return vec![Effect::Unresolvable(format!(
                    "the shell alias `{sub}` is given arguments only known when it runs"
                ))];
            }
            let args: Vec<String> = rest.iter().map(|a| crate::shell::quote(a)).collect();
            let top = repo
                .and_then(|i| self.opened[i].workdir().map(Path::to_path_buf))
                .unwrap_or_else(|| cwd.to_owned());
            // git exports the repository it was pointed at to the alias's shell.
            let export = git_dir
                .map(|gd| {
                    format!(
                        "export GIT_DIR={}; ",
                        crate::shell::quote(&gd.to_string_lossy())
                    )
                })
                .unwrap_or_default();
            effects.push(Effect::Script {
                text: format!("{export}{script} {}", args.join(" ")),
                cwd: Some(top),
            });
            return effects;
        }
        let Some(words) = shlex::split(&alias) else {
            return vec![Effect::Unresolvable(format!(
                "the alias `{sub}` = `{alias}` has unbalanced quotes"
            ))];
        };
        // The alias's own `-c` settings apply; ours carry over as `-c` too, and so does
        // the repository `--git-dir` named.
        let mut args: Vec<String> = git_dir
            .map(|gd| format!("--git-dir={}", gd.display()))
            .into_iter()
            .collect();
        args.extend(
            ov.pairs
                .iter()
                .flat_map(|(k, v)| ["-c".to_owned(), format!("{k}={v}")]),
        );
        args.extend(words);
        args.extend(rest.iter().cloned());
        let call = GitCall {
            args,
            env: env.to_vec(),
            cwd: Some(cwd.to_owned()),
        };
        effects.extend(self.analyze_depth(&call, depth + 1));
        effects
    }

    /// `git clone REPO [DIR]` and `git init [DIR]`: remember the directory; run what
    /// `--upload-pack` names.
    fn record_created(
        &mut self,
        sub: &str,
        rest: &[String],
        cwd: &Path,
        effects: &mut Vec<Effect>,
    ) {
        const CLONE_VALUES: &[&str] = &[
            "-o",
            "--origin",
            "-b",
            "--branch",
            "-u",
            "--upload-pack",
            "--reference",
            "--reference-if-able",
            "--separate-git-dir",
            "--depth",
            "-c",
            "--config",
            "--template",
            "--filter",
            "-j",
            "--jobs",
            "--shallow-since",
            "--shallow-exclude",
            "--server-option",
            "--bundle-uri",
            "--ref-format",
            "--object-format",
            "--shared-repository",
        ];
        let mut positionals = Vec::new();
        let mut k = 0;
        while let Some(a) = rest.get(k) {
            k += 1;
            if CLONE_VALUES.contains(&a.as_str()) {
                if matches!(a.as_str(), "-u" | "--upload-pack") {
                    if let Some(program) = rest.get(k) {
                        effects.push(Effect::Script {
                            text: program.clone(),
                            cwd: None,
                        });
                    }
                }
                k += 1;
            } else if !a.starts_with('-') {
                positionals.push(a.clone());
            }
        }
        let dir = match (sub, positionals.as_slice()) {
            ("init", [dir, ..]) | ("clone", [_, dir, ..]) => dir.clone(),
            ("clone", [source]) => {
                let base = source
                    .trim_end_matches('/')
                    .rsplit(['/', ':'])
                    .next()
                    .unwrap_or(source);
                base.strip_suffix(".git").unwrap_or(base).to_owned()
            }
            _ => return,
        };
        if is_dynamic(&dir) {
            return;
        }
        let path = crate::fsutil::lexical(&cwd.join(dir));
        if !path.join(".git").exists() {
            self.created.push(path);
        }
    }

    /// The branch-moving verbs.
    fn verb(
        &mut self,
        sub: &str,
        rest: &[String],
        idx: usize,
        cwd: &Path,
        ov: &mut Overrides,
        effects: &mut Vec<Effect>,
    ) {
        let head = self.head(idx);
        let in_progress = self.opened[idx].in_progress();
        effects.push(Effect::Note(format!(
            "current branch: {}",
            match &head {
                Head::Branch(b) => match in_progress.filter(|op| &op.branch == b) {
                    Some(op) => format!(
                        "{b} (a {} of {b} is in progress: {})",
                        op.operation,
                        op.file.display()
                    ),
                    None => b.clone(),
                },
                Head::Detached => "(detached HEAD)".into(),
                Head::Named(raw) => format!("{raw} (its name is computed when it runs)"),
                Head::Unknown => "(unknown after an earlier command)".into(),
            }
        )));
        let on_current = |action: Action, effects: &mut Vec<Effect>| {
            match &head {
            Head::Branch(b) => effects.push(update(b, Place::Local, action)),
            Head::Detached => {}
            Head::Named(raw) => effects.push(effect::unnamed(
                &format!("`git {sub}` acts on the branch `{raw}`, whose name is only known when it runs"),
                raw,
            )),
            Head::Unknown => effects.push(Effect::Unresolvable(format!(
                "`git {sub}` acts on the current branch, which an earlier part of the command changed in a way the guard cannot follow"
            ))),
        }
        };
        // An option the tables do not know is no reason to allow: git may know it (a newer
        // git than the tables), and if it does not, git refuses and the deny costs nothing.
        // So parse errors never skip the current-branch effect below.
        match sub {
            "commit" => {
                let p = parse_args(grammar::COMMIT, rest);
                if !p.on("dry-run") {
                    on_current(
                        if p.on("amend") {
                            Action::Amend
                        } else {
                            Action::Commit
                        },
                        effects,
                    );
                }
            }
            "merge" => {
                let p = parse_args(grammar::MERGE, rest);
                // Merging the current branch into itself: "Already up to date".
                let itself = !p.positionals.is_empty()
                    && p.positionals.iter().all(|c| names_branch_tip(c, &head));
                // `--no-commit --no-ff` stops before the merge commit, and a fast-forward
                // is ruled out: the branch stays where it is (a later commit is judged
                // as a commit). `--no-commit` alone still fast-forwards.
                let trial = p.has("no-commit") && !p.on("commit") && p.has("no-ff") && !p.on("ff");
                if !p.on("abort") && !p.on("quit") && !p.on("squash") && !itself && !trial {
                    on_current(Action::Merge, effects);
                }
            }
            "cherry-pick" | "revert" => {
                let p = parse_args(grammar::PICK, rest);
                // Picking the current branch's own tip onto it is empty, and git stops
                // without a commit (unless told to keep empty commits).
                let own_tip = sub == "cherry-pick"
                    && !p.positionals.is_empty()
                    && p.positionals.iter().all(|c| names_branch_tip(c, &head))
                    && !p.has("allow-empty")
                    && !p.has("keep-redundant-commits")
                    && !p.has("empty");
                if !p.on("abort") && !p.on("quit") && !p.on("no-commit") && !own_tip {
                    on_current(
                        if sub == "revert" {
                            Action::Revert
                        } else {
                            Action::CherryPick
                        },
                        effects,
                    );
                }
            }
            "am" => {
                let p = parse_args(grammar::AM, rest);
                if !p.on("abort") && !p.on("quit") && !p.has("show-current-patch") {
                    on_current(Action::Am, effects);
                }
            }
            "rebase" => self.rebase(rest, idx, &head, ov, effects),
            "pull" => {
                let p = parse_args(grammar::PULL, rest);
                if !p.errors.is_empty() {
                    on_current(Action::Pull, effects);
                    return;
                }
                for program in p.values("upload-pack") {
                    effects.push(Effect::Script {
                        text: program.to_owned(),
                        cwd: None,
                    });
                }
                if p.on("dry-run") {
                    return;
                }
                if any_dynamic(&p.positionals) {
                    effects.push(dynamic_args("pull", &p.positionals));
                    return;
                }
                for spec in p.positionals.iter().skip(1) {
                    if let Some(dst) = fetch_destination(spec) {
                        effects.push(update(&dst, Place::Local, Action::Fetch));
                    }
                }
                let ff_only = p.on("ff-only")
                    || (!p.has("ff")
                        && !p.has("no-ff")
                        && !p.has("rebase")
                        && self.lookup(ov, Some(idx), "pull.ff").as_deref() == Some("only"));
                // A fast-forward to the branch's own upstream only catches up with what is
                // already on the remote; one from another branch or remote brings that
                // branch's commits in, and moves it all the same.
                let own_upstream =
                    ff_only && self.pulls_own_upstream(ov, idx, &head, &p.positionals);
                if !own_upstream {
                    on_current(Action::Pull, effects);
                }
            }
            "fetch" => {
                let p = parse_args(grammar::FETCH, rest);
                for program in p.values("upload-pack") {
                    effects.push(Effect::Script {
                        text: program.to_owned(),
                        cwd: None,
                    });
                }
                if !p.errors.is_empty() || p.on("dry-run") || p.on("all") || p.on("multiple") {
                    return;
                }
                if p.on("stdin") {
                    effects.push(Effect::Unresolvable(
                        "`git fetch --stdin` reads its refspecs from stdin".into(),
                    ));
                    return;
                }
                if any_dynamic(&p.positionals) {
                    effects.push(dynamic_args("fetch", &p.positionals));
                    return;
                }
                let destinations: Vec<String> = p
                    .positionals
                    .iter()
                    .skip(1)
                    .filter_map(|spec| fetch_destination(spec))
                    .collect();
                // git refuses to fetch into the branch checked out here, and then updates
                // none of the refspecs' destinations.
                let into_head = !p.on("update-head-ok")
                    && !self.opened[idx].is_bare()
                    && destinations
                        .iter()
                        .any(|d| matches!(&head, Head::Branch(b) if b == d));
                if into_head {
                    effects.push(Effect::Note(
                        "git refuses to fetch into the checked-out branch: nothing is updated"
                            .into(),
                    ));
                    return;
                }
                for dst in destinations {
                    effects.push(update(&dst, Place::Local, Action::Fetch));
                }
            }
            "reset" => {
                let p = parse_args(grammar::RESET, rest);
                if p.on("patch") {
                    return;
                }
                if !p.errors.is_empty() {
                    on_current(Action::Reset, effects);
                    return;
                }
                let before = &p.positionals[..p.dashdash.unwrap_or(p.positionals.len())];
                let after_paths = p.positionals.len() > before.len();
                // A word only known when it runs (what xargs appends) may be the revision
                // as well as a path.
                if any_dynamic(before) {
                    effects.push(dynamic_args("reset", before));
                    return;
                }
                let [rev] = before else { return };
                if after_paths {
                    return;
                }
                if is_dynamic(rev) {
                    effects.push(dynamic_args("reset", before));
                    return;
                }
                // `git reset HEAD` moves nothing; any other revision moves the branch (even one
                // that happens to point at the same commit today); a word that is no revision
                // is a path, which only touches the index.
                let head_aliases = ["HEAD", "@", "HEAD~0", "HEAD^0", "@~0", "@^0"];
                let revision_syntax = rev.contains('~') || rev.contains('^') || rev.contains("@{");
                if !head_aliases.contains(&rev.as_str())
                    && (revision_syntax || self.opened[idx].commit_of(rev).is_some())
                {
                    on_current(Action::Reset, effects);
                }
            }
            "branch" => self.branch(rest, idx, &head, effects),
            "checkout" | "switch" => self.checkout(sub, rest, idx, effects),
            "worktree" => {
                if rest.first().map(String::as_str) != Some("add") {
                    return;
                }
                let p = parse_args(grammar::WORKTREE_ADD, &rest[1..]);
                if !p.errors.is_empty() {
                    return;
                }
                if let Some(b) = p.value("B") {
                    effects.push(checked(b, Action::ForceMove));
                }
                self.add_worktree(&p, idx, cwd);
            }
            "update-ref" => {
                let p = parse_args(grammar::UPDATE_REF, rest);
                if p.on("stdin") {
                    effects.push(Effect::Unresolvable(
                        "`git update-ref --stdin` reads its updates from stdin".into(),
                    ));
                    return;
                }
                let Some(r) = p.positionals.first() else {
                    return;
                };
                let action = if p.on("d") {
                    Action::Delete
                } else {
                    Action::UpdateRef
                };
                // Setting a branch to itself (`update-ref refs/heads/main HEAD` on main)
                // moves nothing.
                let to_itself = |b: &str| {
                    action == Action::UpdateRef
                        && p.positionals.get(1).is_some_and(|new| {
                            names_branch(new, b)
                                || (names_branch_tip(new, &head)
                                    && matches!(&head, Head::Branch(h) if h == b))
                        })
                };
                if is_dynamic(r) {
                    effects.push(dynamic_args("update-ref", &p.positionals));
                } else if r == "HEAD" && p.on("no-deref") {
                    // HEAD itself is set to a commit: detached, no branch moves.
                    if action == Action::UpdateRef {
                        self.set_head(Head::Detached);
                    }
                } else if r == "HEAD" {
                    if !matches!(&head, Head::Branch(b) if to_itself(b)) {
                        on_current(action, effects);
                    }
                } else if let Some(b) = r.strip_prefix("refs/heads/") {
                    if !to_itself(b) {
                        effects.push(update(b, Place::Local, action));
                    }
                }
            }
            "symbolic-ref" => {
                let positionals: Vec<&String> =
                    rest.iter().filter(|a| !a.starts_with('-')).collect();
                if let [name, target] = positionals.as_slice() {
                    if name.as_str() == "HEAD" {
                        let head = match target.strip_prefix("refs/heads/") {
                            Some(b) if !is_dynamic(b) => Head::Branch(b.to_owned()),
                            _ => Head::Unknown,
                        };
                        self.set_head(head);
                    } else if let Some(b) = target.strip_prefix("refs/heads/") {
                        // Any other symbolic ref to a branch is a second name for it: a
                        // commit on, or an update of, that name moves the branch
                        // (verified with git 2.47).
                        if is_dynamic(b) {
                            effects.push(dynamic_args("symbolic-ref", rest));
                        } else {
                            effects.push(update(b, Place::Local, Action::Alias));
                        }
                    } else if is_dynamic(target) {
                        effects.push(dynamic_args("symbolic-ref", rest));
                    }
                }
            }
            "config" => {
                let top = self.opened[idx].workdir().map(Path::to_path_buf);
                effects.extend(self.config(rest, top));
            }
            "push" => self.push(rest, idx, &head, cwd, ov, effects),
            "filter-branch" | "filter-repo" => {
                if rest.iter().any(|a| a == "--all") {
                    for b in self.opened[idx].local_branches() {
                        effects.push(update(&b, Place::Local, Action::Rewrite));
                    }
                } else {
                    on_current(Action::Rewrite, effects);
                }
            }
            "submodule" | "bisect" => {
                let runs_git = rest
                    .iter()
                    .any(|a| crate::shell::exec::mentions_git(a) || is_dynamic(a));
                let runs = rest.iter().any(|a| a == "foreach" || a == "run");
                if runs && runs_git {
                    effects.push(Effect::Unresolvable(format!("`git {sub}` runs a command that calls git in repositories the guard does not see")));
                }
            }
            _ => {}
        }
    }
}

/// Where a command that moves no branch leaves HEAD, when it checks a branch out: `git
/// stash branch <name> [<stash>]` creates `<name>` at the stash's base and switches to it
/// (verified with git 2.47: a commit after it lands on `<name>`).
fn head_after_read_only(sub: &str, rest: &[String]) -> Option<Head> {
    if sub != "stash" || rest.first().map(String::as_str) != Some("branch") {
        return None;
    }
    let name = rest[1..].iter().find(|a| !a.starts_with('-'))?;
    Some(if is_dynamic(name) {
        Head::Named(name[1..].to_owned())
    } else {
        Head::Branch(name.clone())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refspec_sides() {
        assert_eq!(branch_name("refs/heads/main").as_deref(), Some("main"));
        assert_eq!(branch_name("main").as_deref(), Some("main"));
        assert_eq!(branch_name("refs/tags/v1"), None);
        assert_eq!(
            fetch_destination("+feat:refs/heads/main").as_deref(),
            Some("main")
        );
        assert_eq!(fetch_destination("main"), None);
        assert_eq!(
            glob_map("refs/heads/*", "refs/heads/*", "main").as_deref(),
            Some("refs/heads/main")
        );
        assert_eq!(
            glob_map("refs/heads/f*", "refs/heads/x/*", "feat").as_deref(),
            Some("refs/heads/x/eat")
        );
        assert_eq!(glob_map("refs/heads/f*", "refs/heads/*", "main"), None);
    }

    #[test]
    fn config_keys_compare_like_git() {
        assert_eq!(config_key("Push.Default"), "push.default");
        assert_eq!(config_key("branch.Feat.Merge"), "branch.Feat.merge");
        assert_eq!(config_key("alias.P"), "alias.p");
    }

    #[test]
    fn verb_tables_do_not_overlap() {
        for v in MOVING {
            assert!(!READ_ONLY.contains(v), "{v}");
        }
    }
}
