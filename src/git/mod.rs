//! What a git invocation would do to branches: which refs it creates commits on, moves,
//! rewrites, deletes or pushes to, resolved the way git resolves them (global options,
//! `-c` and environment config, aliases, the current branch, push refspecs and
//! `push.default`), without running git.

pub mod grammar;
pub mod repo;

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

/// Where an updated branch lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A branch of the repository the command runs in.
    Local,
    /// A branch of a remote (a name, a URL or a path), updated by a push.
    Remote(String),
}

/// What happens to a branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Commit,
    Amend,
    Merge,
    Rebase,
    CherryPick,
    Revert,
    Am,
    Pull,
    Reset,
    /// `branch -f`, `checkout -B`, `switch -C`, `worktree add -B`, `branch -M/-C` onto it.
    ForceMove,
    /// `branch -m/-M` away from it.
    Rename,
    Delete,
    UpdateRef,
    /// `symbolic-ref refs/heads/x refs/heads/main`: another name for it, through which
    /// commits and updates move it.
    Alias,
    Fetch,
    Push {
        force: bool,
    },
    PushDelete,
    Rewrite,
}

impl Action {
    /// The policy switch (`branches.deny.<key>`) that governs it.
    pub fn policy_key(self) -> &'static str {
        match self {
            Action::Commit | Action::Amend => "commit",
            Action::Merge => "merge",
            Action::Rebase | Action::Rewrite => "rebase",
            Action::CherryPick => "cherry_pick",
            Action::Revert => "revert",
            Action::Am => "am",
            Action::Pull => "pull",
            Action::Reset => "reset",
            Action::ForceMove | Action::Rename | Action::Delete => "branch",
            Action::UpdateRef | Action::Alias => "update_ref",
            Action::Fetch => "fetch",
            Action::Push { force: false } => "push",
            Action::Push { force: true } => "force_push",
            Action::PushDelete => "push_delete",
        }
    }

    /// "would … the protected branch main".
    pub fn verb(self) -> &'static str {
        match self {
            Action::Commit => "create a commit on",
            Action::Amend => "rewrite the last commit of",
            Action::Merge => "merge into",
            Action::Rebase => "rebase (rewrite)",
            Action::CherryPick => "cherry-pick commits onto",
            Action::Revert => "create a revert commit on",
            Action::Am => "apply patches as commits on",
            Action::Pull => "merge remote changes into",
            Action::Reset => "move (reset)",
            Action::ForceMove => "force-move",
            Action::Rename => "rename",
            Action::Delete => "delete",
            Action::UpdateRef => "rewrite the ref of",
            Action::Alias => "make another ref an alias of (writes through it move)",
            Action::Fetch => "overwrite",
            Action::Push { force: false } => "push to",
            Action::Push { force: true } => "force-push to",
            Action::PushDelete => "delete",
            Action::Rewrite => "rewrite the history of",
        }
    }

    /// Whether it creates commits on or pushes to the branch (what `branches.allowed`
    /// restricts).
    pub fn lands_work(self) -> bool {
        !matches!(self, Action::Delete | Action::Rename | Action::PushDelete)
    }
}

/// One branch update a command would make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefUpdate {
    pub branch: String,
    pub place: Place,
    pub action: Action,
}

/// What one git invocation does, as far as the guard is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Update(RefUpdate),
    /// It cannot be known without running it; the reason says why.
    Unresolvable(String),
    /// It runs a shell script (a `!` alias, `rebase --exec`) in `cwd`.
    Script {
        text: String,
        cwd: Option<PathBuf>,
    },
    /// A note for `explain` (the repository, the branch, the resolved destination).
    Note(String),
}

/// A git invocation: its arguments (dynamic ones marked with [`DYNAMIC`]), the
/// environment assignments in force, and the directory it runs in (None when unknown).
#[derive(Clone, Debug)]
pub struct GitCall {
    pub args: Vec<String>,
    pub env: Vec<(String, Option<String>)>,
    pub cwd: Option<PathBuf>,
}

/// State shared by the git invocations of one command line: opened repositories, the
/// current branch as earlier parts of the command changed it, and configuration that
/// earlier `git config` calls set.
pub struct Session<'e> {
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

/// Configuration layers for one invocation: the command's own (`-c`, `--config-env`,
/// `GIT_CONFIG_*`) first, then what earlier `git config` calls in the command set, then the
/// repository's files.
struct Overrides {
    pairs: Vec<(String, String)>,
    /// Keys whose command-line value could not be known.
    unknown: Vec<String>,
}

/// Canonical form of a config key: section and variable name are case-insensitive,
/// a subsection (the middle part) is not.
fn config_key(key: &str) -> String {
    match (key.find('.'), key.rfind('.')) {
        (Some(first), Some(last)) if first != last => format!(
            "{}{}{}",
            key[..first].to_ascii_lowercase(),
            &key[first..last],
            key[last..].to_ascii_lowercase()
        ),
        _ => key.to_ascii_lowercase(),
    }
}

impl<'e> Session<'e> {
    pub fn new(process_env: &'e dyn Fn(&str) -> Option<OsString>) -> Session<'e> {
        Session {
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

    fn lookup(&mut self, ov: &Overrides, repo: Option<usize>, key: &str) -> Option<String> {
        let k = config_key(key);
        if let Some((_, v)) = ov.pairs.iter().rev().find(|(n, _)| config_key(n) == k) {
            return Some(v.clone());
        }
        if let Some((_, v)) = self
            .config_set
            .iter()
            .rev()
            .find(|(n, _)| config_key(n) == k)
        {
            return Some(v.clone());
        }
        match repo {
            Some(idx) => self.opened[idx].config_str(key),
            None => git2::Config::open_default()
                .ok()?
                .snapshot()
                .ok()?
                .get_string(key)
                .ok(),
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
        if let Some(dynamic) = args.get(globals.rest_at).filter(|a| is_dynamic(a)) {
            return vec![Effect::Unresolvable(format!(
                "the git option or subcommand `{}` is only known when it runs",
                &dynamic[1..]
            ))];
        }
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
            effects
                .extend(self.alias_or_unknown(sub, &rest, &call.env, &mut ov, repo, &cwd, depth));
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
        effects
    }

    #[allow(clippy::too_many_arguments)]
    fn alias_or_unknown(
        &mut self,
        sub: &str,
        rest: &[String],
        env: &[(String, Option<String>)],
        ov: &mut Overrides,
        repo: Option<usize>,
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
            effects.push(Effect::Script {
                text: format!("{script} {}", args.join(" ")),
                cwd: Some(top),
            });
            return effects;
        }
        let Some(words) = shlex::split(&alias) else {
            return vec![Effect::Unresolvable(format!(
                "the alias `{sub}` = `{alias}` has unbalanced quotes"
            ))];
        };
        // The alias's own `-c` settings apply; ours carry over as `-c` too.
        let mut args: Vec<String> = ov
            .pairs
            .iter()
            .flat_map(|(k, v)| ["-c".to_owned(), format!("{k}={v}")])
            .collect();
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
                Head::Unknown => "(unknown after an earlier command)".into(),
            }
        )));
        let on_current = |action: Action, effects: &mut Vec<Effect>| {
            match &head {
            Head::Branch(b) => effects.push(update(b, Place::Local, action)),
            Head::Detached => {}
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
                if !p.on("abort") && !p.on("quit") && !p.on("squash") {
                    on_current(Action::Merge, effects);
                }
            }
            "cherry-pick" | "revert" => {
                let p = parse_args(grammar::PICK, rest);
                if !p.on("abort") && !p.on("quit") && !p.on("no-commit") {
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
                for spec in p.positionals.iter().skip(1) {
                    if let Some(dst) = fetch_destination(spec) {
                        effects.push(update(&dst, Place::Local, Action::Fetch));
                    }
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
                if is_dynamic(r) {
                    effects.push(dynamic_args("update-ref", &p.positionals));
                } else if r == "HEAD" && !p.on("no-deref") {
                    on_current(action, effects);
                } else if let Some(b) = r.strip_prefix("refs/heads/") {
                    effects.push(update(b, Place::Local, action));
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
            "push" => self.push(rest, idx, &head, ov, effects),
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

    /// Remembers a work tree added by the command, with what it has checked out, so that
    /// later parts of the command that `cd` into it are judged on that branch.
    fn add_worktree(&mut self, p: &grammar::Parsed, idx: usize, cwd: &Path) {
        let Some(path) = p.positionals.first().filter(|a| !is_dynamic(a)) else {
            return;
        };
        let path = crate::fsutil::lexical(&cwd.join(path));
        let repo = &self.opened[idx];
        let head = match (p.value("B").or_else(|| p.value("b")), p.positionals.get(1)) {
            (Some(b), _) if !is_dynamic(b) => Head::Branch(b.to_owned()),
            (Some(_), _) => Head::Unknown,
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

    fn rebase(
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

    fn branch(&mut self, rest: &[String], idx: usize, head: &Head, effects: &mut Vec<Effect>) {
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
            for n in names {
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
            if is_dynamic(name) {
                effects.push(dynamic_args("branch", names));
            } else if p.on("force") {
                effects.push(update(name, Place::Local, Action::ForceMove));
            }
        }
    }

    fn checkout(&mut self, sub: &str, rest: &[String], idx: usize, effects: &mut Vec<Effect>) {
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
            effects.push(checked(b, Action::ForceMove));
            self.set_head(if is_dynamic(b) {
                Head::Unknown
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
                Head::Unknown
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

    /// `git config KEY VALUE` (also `set`, `--add`): later parts of the command see the
    /// value. A key that holds a command makes that command a script to analyze.
    fn config(&mut self, rest: &[String], top: Option<PathBuf>) -> Vec<Effect> {
        let mut positionals = Vec::new();
        let mut k = 0;
        while let Some(a) = rest.get(k) {
            k += 1;
            match a.as_str() {
                "-f" | "--file" | "--blob" | "--type" | "--default" | "--comment" | "--value" => {
                    k += 1
                }
                s if s.starts_with('-') => {
                    if CONFIG_READS.contains(&s) {
                        return Vec::new();
                    }
                }
                _ => positionals.push(a.clone()),
            }
        }
        if positionals.first().map(String::as_str) == Some("set") {
            positionals.remove(0);
        }
        let [key, value] = positionals.as_slice() else {
            return Vec::new();
        };
        if is_dynamic(key) {
            return vec![Effect::Unresolvable(format!(
                "`git config {}` sets a key only known when it runs",
                &key[1..]
            ))];
        }
        self.config_set.push((key.clone(), value.clone()));
        if runs_files(key).is_some() {
            // Setting it is harmless (`git config core.hooksPath .husky`); a later git
            // command in the same command that would run those files is not (see
            // `files_set_here`).
            return Vec::new();
        }
        command_setting(key, value, top).into_iter().collect()
    }

    /// Whether `git pull [REMOTE [REFSPEC…]]` on `head` pulls only that branch's own
    /// upstream (`branch.<b>.remote` and `branch.<b>.merge`).
    fn pulls_own_upstream(
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

    /// A setting made earlier in this command that makes git run hooks or read config
    /// from files, as the reason a later git command cannot be read.
    fn files_set_here(&self) -> Option<String> {
        self.config_set.iter().find_map(|(key, value)| {
            let what = runs_files(key)?;
            (!matches!(value.as_str(), "" | "/dev/null")).then(|| {
                format!("`{key}` was set earlier in this command, so this git command runs {what} (`{}`), which the guard cannot read", value.trim_start_matches(DYNAMIC))
            })
        })
    }

    /// Records an upstream (`branch -u`, `checkout -b x --track r/b`) for later
    /// `push.default=upstream` resolution.
    fn set_upstream(&mut self, idx: usize, branch: &str, upstream: &str) {
        let remotes = self.opened[idx].remote_names();
        let (remote, merge) = match remotes
            .iter()
            .find(|r| upstream.starts_with(&format!("{r}/")))
        {
            Some(r) => (r.clone(), upstream[r.len() + 1..].to_owned()),
            None => (".".to_owned(), upstream.to_owned()),
        };
        self.config_set
            .push((format!("branch.{branch}.remote"), remote));
        self.config_set.push((
            format!("branch.{branch}.merge"),
            format!("refs/heads/{merge}"),
        ));
    }

    fn push(
        &mut self,
        rest: &[String],
        idx: usize,
        head: &Head,
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
        effects.push(Effect::Note(format!("push remote: {remote}")));
        let repo = &self.opened[idx];
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
                effects.push(update(&b, place.clone(), Action::Push { force: forced }));
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
                let Some(cur) = current.clone() else {
                    if matches!(head, Head::Unknown) {
                        effects.push(Effect::Unresolvable(
                            "`git push` pushes the current branch, which is unknown here".into(),
                        ));
                    }
                    return;
                };
                match mode.as_str() {
                    "nothing" => return,
                    "matching" => specs.push(":".into()),
                    "upstream" | "tracking" => match self.upstream_of(ov, idx, &cur) {
                        Some(merge) => specs.push(format!("{cur}:{merge}")),
                        None => return,
                    },
                    _ => specs.push(format!("{cur}:{cur}")),
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
                if let Some(b) = branch_name(spec) {
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
                    if on_remote {
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
                if let Some(b) = dst.and_then(branch_name) {
                    effects.push(update(&b, place.clone(), Action::PushDelete));
                }
                continue;
            }
            if src.contains('*') {
                let Some(dst) = dst else { continue };
                for b in repo.local_branches() {
                    if let Some(mapped) = glob_map(src, dst, &b) {
                        if let Some(name) = branch_name(&mapped) {
                            effects.push(update(&name, place.clone(), action));
                        }
                    }
                }
                continue;
            }
            let (dst, action) = match dst {
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
                effects.push(update(&b, place.clone(), action));
            }
        }
    }

    /// The branch `branch` pushes to under push.default=upstream (its `merge` ref). A key
    /// set both in the repository and with `-c` has several values, and git refuses.
    fn upstream_of(&mut self, ov: &Overrides, idx: usize, branch: &str) -> Option<String> {
        let key = format!("branch.{branch}.merge");
        let same = |(k, _): &&(String, String)| config_key(k) == config_key(&key);
        // `git config key value` earlier in the command replaces the file's value; `-c`
        // adds one.
        let mut values = match self.config_set.iter().rev().find(same) {
            Some((_, v)) => vec![v.clone()],
            None => self.opened[idx].config_all(&key),
        };
        values.extend(ov.pairs.iter().filter(same).map(|(_, v)| v.clone()));
        values.dedup();
        match values.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    fn default_remote(&mut self, ov: &Overrides, idx: usize, current: Option<&str>) -> String {
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

impl Repo {
    /// Branch names a mirror push could delete on `remote`: its remote-tracking branches.
    fn protected_candidates_on_remote(&self, remote: &str) -> Vec<String> {
        self.remote_default_branches()
            .into_iter()
            .chain(["main".to_owned(), "master".to_owned()])
            .filter(|b| self.remote_branch_exists(remote, b))
            .collect()
    }
}

fn update(branch: &str, place: Place, action: Action) -> Effect {
    Effect::Update(RefUpdate {
        branch: branch.to_owned(),
        place,
        action,
    })
}

/// An update of a named local branch, unless the name is dynamic.
fn checked(name: &str, action: Action) -> Effect {
    if is_dynamic(name) {
        Effect::Unresolvable(format!(
            "the branch name `{}` is only known when it runs",
            &name[1..]
        ))
    } else {
        update(name, Place::Local, action)
    }
}

fn any_dynamic(args: &[String]) -> bool {
    args.iter().any(|a| is_dynamic(a))
}

fn dynamic_args(sub: &str, args: &[String]) -> Effect {
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.trim_start_matches(DYNAMIC).to_owned())
        .collect();
    Effect::Unresolvable(format!(
        "`git {sub} {}` has arguments only known when it runs",
        shown.join(" ")
    ))
}

/// A refspec side as a branch name: `main`, `refs/heads/main`, and `heads/main`, which git
/// resolves through its `refs/%s` rule to `refs/heads/main` when that exists (verified
/// with git 2.47: `git push origin HEAD:heads/main` moves main); None for other refs.
fn branch_name(side: &str) -> Option<String> {
    let side = side.trim_start_matches('+');
    if let Some(b) = side
        .strip_prefix("refs/heads/")
        .or_else(|| side.strip_prefix("heads/"))
    {
        return Some(b.to_owned());
    }
    if side.starts_with("refs/") || side.is_empty() || side == "HEAD" {
        return None;
    }
    Some(side.to_owned())
}

/// The local branch a fetch refspec writes (`x:main`, `+x:refs/heads/main`).
fn fetch_destination(spec: &str) -> Option<String> {
    let (_, dst) = spec.trim_start_matches('+').split_once(':')?;
    branch_name(dst)
}

/// Maps `name` through a glob refspec (`refs/heads/*:refs/heads/*`).
fn glob_map(src: &str, dst: &str, branch: &str) -> Option<String> {
    let full = format!("refs/heads/{branch}");
    let (pre, post) = src.split_once('*')?;
    let candidate = if src.starts_with("refs/") {
        full.as_str()
    } else {
        branch
    };
    let mid = candidate.strip_prefix(pre)?.strip_suffix(post)?;
    Some(dst.replacen('*', mid, 1))
}

/// `git config` options that read or remove rather than set.
const CONFIG_READS: &[&str] = &[
    "--get",
    "--get-all",
    "--get-regexp",
    "--get-urlmatch",
    "--unset",
    "--unset-all",
    "-l",
    "--list",
    "--rename-section",
    "--remove-section",
    "-e",
    "--edit",
];

/// Configuration keys whose value is a command git runs (through the shell): `-c
/// core.fsmonitor='git push …' status` runs a push.
fn runs_command(key: &str) -> bool {
    let k = config_key(key);
    const EXACT: &[&str] = &[
        "core.fsmonitor",
        "core.pager",
        "core.editor",
        "core.sshcommand",
        "core.askpass",
        "sequence.editor",
        "diff.external",
        "gpg.program",
        "gpg.ssh.program",
        "credential.helper",
        "uploadpack.packobjectshook",
    ];
    let parts: Vec<&str> = k.split('.').collect();
    EXACT.contains(&k.as_str())
        || parts.first() == Some(&"pager")
        || matches!(
            (parts.first(), parts.last()),
            (Some(&"diff"), Some(&("command" | "textconv")))
                | (Some(&"filter"), Some(&("clean" | "smudge" | "process")))
                | (Some(&"merge"), Some(&"driver"))
                | (Some(&"remote"), Some(&("receivepack" | "uploadpack")))
        )
}

/// What a setting makes git run from files instead of from its value: hooks from a
/// directory, or configuration (which can hold aliases and commands) from a file.
fn runs_files(key: &str) -> Option<&'static str> {
    let k = config_key(key);
    let parts: Vec<&str> = k.split('.').collect();
    match (parts.first(), parts.last()) {
        _ if k == "core.hookspath" => Some("the hooks in that directory"),
        (Some(&("include" | "includeif")), Some(&"path")) => Some("the configuration in that file"),
        _ => None,
    }
}

/// Environment variables whose value is a command git (or ssh, or a pager) runs.
const COMMAND_VARIABLES: &[&str] = &[
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "EDITOR",
    "VISUAL",
    "GIT_PAGER",
    "PAGER",
    "GIT_EXTERNAL_DIFF",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_PROXY_COMMAND",
];

/// The script a command-holding setting runs, if `key` is one.
fn command_setting(key: &str, value: &str, cwd: Option<PathBuf>) -> Option<Effect> {
    if let Some(what) = runs_files(key) {
        let off = matches!(value, "" | "/dev/null");
        return (!off).then(|| {
            Effect::Unresolvable(format!(
                "`{key}` makes later git commands run {what} (`{}`), which the guard cannot read",
                value.trim_start_matches(DYNAMIC)
            ))
        });
    }
    if !runs_command(key) {
        return None;
    }
    if is_dynamic(value) {
        return Some(Effect::Unresolvable(format!(
            "the command in `{key}` is only known when it runs"
        )));
    }
    let text = value.strip_prefix('!').unwrap_or(value);
    Some(Effect::Script {
        text: text.to_owned(),
        cwd,
    })
}

/// Where `remote.<name>.push` refspecs send local branch `branch`, and whether forced.
fn map_through(configured: &[String], branch: &str) -> Option<(String, bool)> {
    let full = format!("refs/heads/{branch}");
    configured.iter().find_map(|spec| {
        let (plus, body) = match spec.strip_prefix('+') {
            Some(b) => (true, b),
            None => (false, spec.as_str()),
        };
        let (src, dst) = body.split_once(':')?;
        if src.contains('*') {
            return glob_map(src, dst, branch).map(|d| (d, plus));
        }
        (src == full || src == branch).then(|| (dst.to_owned(), plus))
    })
}

/// `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n` and `GIT_CONFIG_PARAMETERS`.
fn config_from_env(env: &dyn Fn(&str) -> Option<Option<String>>, ov: &mut Overrides) {
    if let Some(count) = env("GIT_CONFIG_COUNT") {
        let n: usize = count.and_then(|c| c.parse().ok()).unwrap_or(0);
        for i in 0..n.min(100) {
            match (
                env(&format!("GIT_CONFIG_KEY_{i}")).flatten(),
                env(&format!("GIT_CONFIG_VALUE_{i}")),
            ) {
                (Some(k), Some(Some(v))) => ov.pairs.push((k, v)),
                (Some(k), _) => ov.unknown.push(k),
                _ => {}
            }
        }
    }
    if let Some(Some(params)) = env("GIT_CONFIG_PARAMETERS") {
        for item in shlex::split(&params).unwrap_or_default() {
            match item.split_once('=') {
                Some((k, v)) => ov.pairs.push((k.to_owned(), v.to_owned())),
                None => ov.pairs.push((item, "true".into())),
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VerbKind {
    /// Cannot move a branch.
    ReadOnly,
    /// Analyzed by [`Session::verb`].
    Moves,
    /// Not a git builtin: an alias, or an external command.
    Other,
}

/// Subcommands the guard analyzes.
const MOVING: &[&str] = &[
    "commit",
    "merge",
    "rebase",
    "cherry-pick",
    "revert",
    "am",
    "pull",
    "fetch",
    "reset",
    "branch",
    "checkout",
    "switch",
    "worktree",
    "update-ref",
    "symbolic-ref",
    "config",
    "push",
    "filter-branch",
    "filter-repo",
    "submodule",
    "bisect",
];

/// Builtins that never move a branch (git does not let an alias shadow a builtin).
const READ_ONLY: &[&str] = &[
    "add",
    "annotate",
    "apply",
    "archive",
    "blame",
    "bugreport",
    "bundle",
    "cat-file",
    "check-attr",
    "check-ignore",
    "check-mailmap",
    "check-ref-format",
    "cherry",
    "citool",
    "clean",
    "clone",
    "column",
    "commit-graph",
    "commit-tree",
    "count-objects",
    "credential",
    "describe",
    "diagnose",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "difftool",
    "fast-export",
    "fast-import",
    "fetch-pack",
    "for-each-ref",
    "for-each-repo",
    "format-patch",
    "fsck",
    "gc",
    "get-tar-commit-id",
    "grep",
    "gui",
    "hash-object",
    "help",
    "hook",
    "index-pack",
    "init",
    "instaweb",
    "interpret-trailers",
    "log",
    "ls-files",
    "ls-remote",
    "ls-tree",
    "mailinfo",
    "mailsplit",
    "maintenance",
    "merge-base",
    "merge-file",
    "merge-index",
    "merge-tree",
    "mergetool",
    "mktag",
    "mktree",
    "multi-pack-index",
    "mv",
    "name-rev",
    "notes",
    "pack-objects",
    "pack-refs",
    "patch-id",
    "prune",
    "prune-packed",
    "range-diff",
    "read-tree",
    "reflog",
    "remote",
    "repack",
    "replace",
    "request-pull",
    "rerere",
    "restore",
    "rev-list",
    "rev-parse",
    "rm",
    "send-email",
    "shortlog",
    "show",
    "show-branch",
    "show-index",
    "show-ref",
    "sparse-checkout",
    "stash",
    "status",
    "stripspace",
    "tag",
    "unpack-objects",
    "update-index",
    "update-server-info",
    "var",
    "verify-commit",
    "verify-pack",
    "verify-tag",
    "version",
    "whatchanged",
    "write-tree",
];

/// External `git-*` commands that exist widely and move no branch.
const SAFE_EXTERNALS: &[&str] = &["lfs", "crypt", "secret"];

fn verb_kind(sub: &str) -> VerbKind {
    if MOVING.contains(&sub) {
        VerbKind::Moves
    } else if READ_ONLY.contains(&sub) {
        VerbKind::ReadOnly
    } else {
        VerbKind::Other
    }
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
