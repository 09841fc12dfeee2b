//! The evidence of one turn, gathered once for all claims: the repository as it was
//! when the turn began (the commit HEAD pointed at, from the reflog) and as it is, the
//! commits and pushes the turn made (reflogs, and the turn's own `git` output), the
//! turn's shell runs with their pipes and chains, and every file the turn wrote (write
//! tools and shell writes).

use super::rows::forms::Phrases;
use super::shellrun::{self, Ran, Stage};
use super::summary::{self, Runner, Summary};
use super::{Evidence, Finding};
use crate::audit::claims::{Change, Claim, Confidence, Kind};
use crate::audit::vocab::{CommitSince, CommitSort, FnPart};
use crate::shell;
use crate::tools;
use crate::transcript::Entry;
use git2::{ObjectType, Oid, Repository};
use std::cell::OnceCell;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A file's modification time may trail the turn's start by this much (clock steps,
/// coarse timestamps) and still count as changed in the turn.
const MTIME_SLACK: Duration = Duration::from_secs(2);

/// A shell command the turn ran.
pub struct Run {
    pub command: String,
    /// Its place in the turn (index of the call).
    pub at: usize,
    pub is_error: bool,
    pub output: String,
    pub stages: Vec<Stage>,
    /// For a git hook's script run by a commit or push of the turn: the hook's file.
    pub hook: Option<PathBuf>,
}

pub struct Facts<'a> {
    pub ev: &'a Evidence<'a>,
    pub root: PathBuf,
    /// The repository, opened when the claims need it and otherwise on first use (most
    /// turns' claims never ask, and opening one costs a process a few hundred µs).
    repo: OnceCell<Option<Repository>>,
    /// The turn's start, in seconds since the epoch.
    pub start: Option<i64>,
    /// The commit HEAD pointed at when the turn began, read with the repository.
    start_head: OnceCell<Option<Oid>>,
    pub runs: Vec<Run>,
    /// Files the turn wrote, with the call's place: write tools and shell writes.
    pub writes: Vec<(usize, PathBuf, bool)>,
}

fn secs(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl<'a> Facts<'a> {
    pub fn gather(ev: &'a Evidence<'a>, need_repo: bool) -> Facts<'a> {
        let root = crate::policy::repo_root(ev.cwd).unwrap_or_else(|| ev.cwd.to_owned());
        // Without the claims asking, the repository is opened on first use (a hook a commit
        // ran, a claim's evidence); with them, now, with the commit the turn began at, for
        // the runs and writes to read.
        let (repo, head) = (OnceCell::new(), OnceCell::new());
        let start = ev.turn.started.map(secs);
        if need_repo {
            let opened = repo.get_or_init(|| Repository::discover(ev.cwd).ok());
            let _ = head.set(opened.as_ref().and_then(|r| start_head(r, start)));
        }
        let mut runs = command_runs(ev, &repo);
        let writes = {
            let start_tree = repo
                .get()
                .and_then(Option::as_ref)
                .zip(head.get().copied().flatten())
                .and_then(|(r, h)| Some((r, r.find_commit(h).ok()?.tree().ok()?)));
            turn_writes(ev, &runs, start_tree.as_ref().map(|(r, t)| (*r, t)))
        };
        // A hook the turn wrote or touched after the commit that would have run it (made,
        // rewritten, `chmod +x`) is read as it is now, not as it was then: the commit did
        // not run what it holds now.
        runs.retain(|r| {
            let Some(hook) = &r.hook else {
                return true;
            };
            let canonical = crate::fsutil::canonical(hook);
            let name = hook.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let written_after = writes
                .iter()
                .any(|(at, p, _)| *at > r.at && (*p == canonical || *p == *hook));
            // A later command that names the hook and may write it or its mode (`chmod +x`,
            // a redirection, `cp`, `mv`, `tee`, `ln`, `install`); reading it (`cat`) is not.
            let changes_it = |c: &str| {
                c.contains(name)
                    && ["chmod", ">", "cp ", "mv ", "tee", "ln ", "install "]
                        .iter()
                        .any(|w| c.contains(w))
            };
            let touched_after = ev.turn.events.iter().enumerate().any(|(at, e)| {
                at > r.at
                    && matches!(e, Entry::ToolUse { name: tool, input, .. }
                        if tools::is_shell(tool)
                            && input.get("command").and_then(|c| c.as_str()).is_some_and(changes_it))
            });
            !written_after && !touched_after
        });
        Facts {
            ev,
            root: crate::fsutil::canonical(&root),
            repo,
            start,
            start_head: head,
            runs,
            writes,
        }
    }

    /// The repository the turn ran in, if there is one.
    pub fn repo(&self) -> Option<&Repository> {
        self.repo
            .get_or_init(|| Repository::discover(self.ev.cwd).ok())
            .as_ref()
    }

    /// The commit HEAD pointed at when the turn began.
    pub fn start_head(&self) -> Option<Oid> {
        *self
            .start_head
            .get_or_init(|| start_head(self.repo()?, self.start))
    }

    fn workdir(&self) -> Option<PathBuf> {
        self.repo()
            .and_then(|r| r.workdir())
            .map(crate::fsutil::canonical)
    }

    /// The tree of the commit HEAD pointed at when the turn began, with `path` relative to
    /// the work tree.
    fn at_start(&self, path: &Path) -> Option<(git2::Tree<'_>, PathBuf)> {
        let repo = self.repo()?;
        let rel = path.strip_prefix(self.workdir()?).ok()?.to_owned();
        let tree = repo.find_commit(self.start_head()?).ok()?.tree().ok()?;
        Some((tree, rel))
    }

    /// The blob id of `path` in the commit HEAD pointed at when the turn began.
    fn start_blob(&self, path: &Path) -> Option<Oid> {
        let (tree, rel) = self.at_start(path)?;
        let entry = tree.get_path(&rel).ok()?;
        (entry.kind() == Some(ObjectType::Blob)).then(|| entry.id())
    }

    /// Whether the history at the turn's start had `path` as a file.
    pub fn had_at_start(&self, path: &Path) -> bool {
        self.start_blob(path).is_some()
    }

    /// Whether `dir` held anything at the turn's start.
    pub fn start_has_dir(&self, dir: &Path) -> bool {
        self.at_start(dir)
            .and_then(|(tree, rel)| tree.get_path(&rel).ok())
            .is_some_and(|e| e.kind() == Some(ObjectType::Tree))
    }

    /// Whether the history at the turn's start is known and lacks `path`.
    fn lacked_at_start(&self, path: &Path) -> bool {
        self.at_start(path)
            .is_some_and(|(tree, rel)| tree.get_path(&rel).is_err())
    }

    /// Files that differ from the turn's start (committed since or not), absolute.
    fn changed_since_start(&self) -> Vec<PathBuf> {
        let (Some(repo), Some(workdir)) = (self.repo(), self.workdir()) else {
            return Vec::new();
        };
        let tree = self
            .start_head()
            .and_then(|h| repo.find_commit(h).ok())
            .and_then(|c| c.tree().ok());
        let mut opts = git2::DiffOptions::new();
        opts.include_untracked(true).recurse_untracked_dirs(true);
        let Ok(diff) = repo.diff_tree_to_workdir_with_index(tree.as_ref(), Some(&mut opts)) else {
            return Vec::new();
        };
        diff.deltas()
            .flat_map(|d| [d.old_file().path(), d.new_file().path()])
            .flatten()
            .map(|p| workdir.join(p))
            .collect()
    }

    /// Whether the project ever had `named` (as written in a message) at `resolved`, or
    /// anywhere a message could mean by it: it exists, existed when the turn began, or
    /// was written, there or as the end of another path (`lib.rs` for `src/lib.rs`).
    pub fn ever_had(&self, named: &str, resolved: &Path) -> bool {
        if known(resolved, self) {
            return true;
        }
        let tail = Path::new(named.trim_start_matches("./").trim_end_matches('/'));
        let ends = |p: &Path| p.ends_with(tail);
        if self.ev.records.iter().any(|r| ends(Path::new(&r.path)))
            || self.writes.iter().any(|(_, p, _)| ends(p))
        {
            return true;
        }
        let (Some(repo), Some(head)) = (self.repo(), self.start_head()) else {
            // Without the history the path's past is unknown: not a ghost.
            return true;
        };
        let Some(tree) = repo.find_commit(head).ok().and_then(|c| c.tree().ok()) else {
            return true;
        };
        let mut found = false;
        let _ = tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
            let full = Path::new(dir).join(entry.name().unwrap_or_default());
            if full.ends_with(tail) {
                found = true;
                return git2::TreeWalkResult::Abort;
            }
            git2::TreeWalkResult::Ok
        });
        found
    }

    /// The project's test files of a kind of tests that has files of its own
    /// (integration, end-to-end): those whose path names it (`tests/integration/a.py`,
    /// `e2e/cli.e2e.js`), at the turn's start or written since. Unit and doc tests live
    /// beside the code: none.
    pub fn files_of_kind(&self, kind: &str) -> Vec<PathBuf> {
        if kind == "new" {
            return self.test_files_written();
        }
        let words: &[&str] = match kind {
            "integration" => &["integration", "integ"],
            "e2e" => &["e2e", "end-to-end", "end_to_end"],
            _ => return Vec::new(),
        };
        let of_kind = |p: &Path| {
            let lower = p.to_string_lossy().to_lowercase();
            words.iter().any(|w| lower.contains(w))
                && !lower.ends_with(".md")
                && p.extension().is_some()
        };
        let mut out: Vec<PathBuf> = self
            .ev
            .records
            .iter()
            .map(|r| PathBuf::from(&r.path))
            .chain(self.writes.iter().map(|(_, p, _)| p.clone()))
            .filter(|p| of_kind(p.strip_prefix(&self.root).unwrap_or(p)))
            .collect();
        if let (Some(repo), Some(head), Some(workdir)) =
            (self.repo(), self.start_head(), self.workdir())
        {
            if let Some(tree) = repo.find_commit(head).ok().and_then(|c| c.tree().ok()) {
                let _ = tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
                    let rel = Path::new(dir).join(entry.name().unwrap_or_default());
                    if entry.kind() == Some(ObjectType::Blob) && of_kind(&rel) {
                        out.push(workdir.join(rel));
                    }
                    git2::TreeWalkResult::Ok
                });
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Every path this turn wrote: verified write-tool records and shell writes.
    fn written_paths(&self) -> impl Iterator<Item = PathBuf> + '_ {
        self.ev
            .records
            .iter()
            .filter(|r| r.verified)
            .map(|r| PathBuf::from(&r.path))
            .chain(self.writes.iter().map(|(_, p, _)| p.clone()))
    }

    /// The test files this turn wrote or edited ("the new tests pass" is about them).
    fn test_files_written(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = self
            .written_paths()
            .filter(|p| {
                let rel = p.strip_prefix(&self.root).unwrap_or(p);
                super::vocab::test_file_span(&rel.to_string_lossy())
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Whether the turn wrote `path` (or something under it, for a directory).
    pub fn wrote(&self, path: &Path, under: bool) -> bool {
        self.ev.records.iter().any(|r| {
            let p = Path::new(&r.path);
            r.verified && (p == path || under && p.starts_with(path))
        }) || self.writes.iter().any(|(_, p, recursive)| {
            p == path || under && p.starts_with(path) || *recursive && path.starts_with(p)
        })
    }
}

/// The commit HEAD pointed at when the turn began: the newest HEAD reflog entry from
/// before the start; with none, what the oldest entry of the turn moved from.
fn start_head(repo: &Repository, start: Option<i64>) -> Option<Oid> {
    let now = repo.head().ok().and_then(|h| h.target());
    let Some(start) = start else {
        return now;
    };
    let Ok(log) = repo.reflog("HEAD") else {
        return now;
    };
    let mut oldest_old = None;
    for e in log.iter() {
        if e.committer().when().seconds() < start {
            return Some(e.id_new());
        }
        oldest_old = Some(e.id_old());
    }
    match oldest_old {
        Some(o) if o.is_zero() => None,
        Some(o) => Some(o),
        None => now,
    }
}

fn command_runs(ev: &Evidence, repo: &OnceCell<Option<Repository>>) -> Vec<Run> {
    let runs = shell_runs(ev);
    if !runs
        .iter()
        .any(|r| r.stages.iter().any(|s| hooks_of(s).is_some()))
    {
        return runs;
    }
    // The repository the facts opened, else one opened only now (a turn that committed).
    let hooks = repo
        .get_or_init(|| Repository::discover(ev.cwd).ok())
        .as_ref()
        .map(HookDir::of);
    runs.into_iter()
        .flat_map(|run| {
            let ran = hooks.as_ref().map(|h| h.runs_of(&run)).unwrap_or_default();
            std::iter::once(run).chain(ran)
        })
        .collect()
}

/// The hooks a git stage lets run, by name: a `git commit` its `pre-commit` and
/// `commit-msg`, a `git push` its `pre-push` (none with `--no-verify`).
fn hooks_of(stage: &Stage) -> Option<&'static [&'static str]> {
    if stage.ran == Ran::No {
        return None;
    }
    if runs_git_hooks(&stage.argv, "commit") {
        Some(&["pre-commit", "commit-msg"])
    } else if runs_git_hooks(&stage.argv, "push") {
        Some(&["pre-push"])
    } else {
        None
    }
}

/// Where the repository's hooks are: `core.hooksPath` (against the work tree), or the
/// git directory's `hooks`.
struct HookDir(PathBuf);

impl HookDir {
    fn of(repo: &Repository) -> HookDir {
        let set = repo
            .config()
            .ok()
            .and_then(|c| c.get_path("core.hooksPath").ok());
        let dir = match set {
            Some(p) if p.is_absolute() => p,
            Some(p) => repo.workdir().unwrap_or_else(|| repo.path()).join(p),
            None => repo.path().join("hooks"),
        };
        HookDir(dir)
    }

    /// The hook scripts a run's git stages ran, each as a run of its own at the same
    /// place in the turn: a check a hook runs ("the pre-commit hook ran the tests") is run
    /// by the commit. git runs a hook only when its file is executable. A git command that
    /// succeeded ran its hooks and they succeeded; one that failed may have failed in
    /// them or elsewhere (their status is not known). A push that had nothing to send
    /// ran no `pre-push`.
    fn runs_of(&self, run: &Run) -> Vec<Run> {
        let mut out = Vec::new();
        for stage in &run.stages {
            let Some(names) = hooks_of(stage) else {
                continue;
            };
            if names == ["pre-push"] && run.output.contains("Everything up-to-date") {
                continue;
            }
            let succeeded = stage.ran == Ran::Yes && !run.is_error && stage.owns_status
                || stage.and_chain && !run.is_error;
            for name in names {
                let Some(script) = executable_script(&self.0.join(name)) else {
                    continue;
                };
                let failed = if succeeded { Some(false) } else { None };
                // Its output is in the command's, mixed with the other stages' (a test
                // run before the commit): none of it is the hook's to claim.
                out.push(Run {
                    stages: shellrun::stages_run(&script, failed),
                    is_error: !succeeded && run.is_error,
                    command: script,
                    at: run.at,
                    output: String::new(),
                    hook: Some(self.0.join(name)),
                });
            }
        }
        out
    }
}

/// A hook's commands (its comment lines left out), when the file is one git runs: an
/// executable file of at most 64 KiB.
fn executable_script(path: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 || meta.len() > 64 * 1024 {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

fn shell_runs(ev: &Evidence) -> Vec<Run> {
    let turn = ev.turn;
    turn.events
        .iter()
        .enumerate()
        .filter_map(|(at, e)| match e {
            Entry::ToolUse { id, name, input } if tools::is_shell(name) => {
                let command = input.get("command").and_then(|c| c.as_str())?.to_owned();
                let (is_error, text) = turn.result_of(id)?;
                // A call a PreToolUse hook denied ("PreToolUse:Bash hook error: …") never
                // ran, whatever the result's error flag says.
                let denied = text.trim_start().starts_with("PreToolUse:");
                let mut stages = shellrun::stages_seen(&command, Some(is_error || denied), text);
                if denied {
                    for s in &mut stages {
                        s.ran = Ran::No;
                    }
                }
                Some(Run {
                    stages,
                    command,
                    at,
                    is_error: is_error || denied,
                    output: text.to_owned(),
                    hook: None,
                })
            }
            _ => None,
        })
        .collect()
}

/// Every file the turn wrote: write tools that did not fail, and the visible targets of
/// its shell commands (relative ones against the working directory). A shell target that
/// cannot be known statically is recorded as the working directory, recursively.
/// The files a glob whose wildcards are all in its last part matches (`build/*.o`): those
/// on disk now and those the start's tree had. `None` where that cannot be known: other
/// expansions (`$X`, `~`, `{a,b}`, a wildcard folder), or a folder git does not track,
/// where files it never saw may have matched.
fn glob_matches(
    cwd: &Path,
    raw: &str,
    start_tree: Option<(&Repository, &git2::Tree)>,
) -> Option<Vec<PathBuf>> {
    let raw = raw.trim_end_matches(['"', '\'']);
    if raw.contains(['$', '`', '~', '{', '[']) || !raw.contains(['*', '?']) {
        return None;
    }
    let (dir, name) = raw.rsplit_once('/').unwrap_or((".", raw));
    if dir.contains(['*', '?']) || name.is_empty() {
        return None;
    }
    let (repo, tree) = start_tree?;
    let matcher = globset::Glob::new(name).ok()?.compile_matcher();
    let dir_path = canonical_lexical(cwd, if dir.is_empty() { "/" } else { dir });
    let workdir = repo.workdir().map(crate::fsutil::canonical)?;
    let rel = dir_path.strip_prefix(&workdir).ok()?;
    // The folder as the start's tree had it: not there (or ignored), nothing known.
    let start_dir = if rel.as_os_str().is_empty() {
        tree.clone()
    } else {
        let entry = tree.get_path(rel).ok()?;
        repo.find_tree(entry.id()).ok()?
    };
    let mut out: Vec<PathBuf> = start_dir
        .iter()
        .filter_map(|e| e.name().map(str::to_owned))
        .filter(|n| matcher.is_match(n))
        .map(|n| dir_path.join(n))
        .collect();
    for entry in std::fs::read_dir(&dir_path).ok()?.flatten() {
        let n = entry.file_name();
        let p = dir_path.join(&n);
        if n.to_str().is_some_and(|n| matcher.is_match(n)) && !out.contains(&p) {
            out.push(p);
        }
    }
    Some(out)
}

fn turn_writes(
    ev: &Evidence,
    runs: &[Run],
    start_tree: Option<(&Repository, &git2::Tree)>,
) -> Vec<(usize, PathBuf, bool)> {
    let mut out = Vec::new();
    for (at, e) in ev.turn.events.iter().enumerate() {
        if let Entry::ToolUse { id, name, input } = e {
            // A write the write log shows did not land is no write, whatever the tool said.
            let not_landed = ev
                .records
                .iter()
                .any(|r| r.tool_use_id.as_deref() == Some(id.as_str()) && !r.verified);
            if tools::write_kind(name).is_some()
                && !not_landed
                && ev.turn.result_of(id).is_some_and(|(err, _)| !err)
            {
                for key in [
                    "file_path",
                    "notebook_path",
                    "path",
                    "destination",
                    "source",
                ] {
                    if let Some(p) = input.get(key).and_then(|v| v.as_str()) {
                        out.push((at, canonical_lexical(ev.cwd, p), false));
                    }
                }
            }
        }
    }
    for r in runs {
        let script = shell::parse(&r.command);
        // A write whose command the shell did not run (`false && rm x`) wrote nothing.
        let not_run = |cmd: &shell::SimpleCommand| {
            let argv: Vec<&str> = cmd.words.iter().filter_map(|w| w.text()).collect();
            let same = |s: &&Stage| s.argv.iter().map(String::as_str).eq(argv.iter().copied());
            r.stages.iter().filter(same).all(|s| s.ran == Ran::No)
                && r.stages.iter().any(|s| same(&s))
        };
        // A write whose command only may have run (`test -f x || cp a x` that exited 0)
        // did not run where the disk shows its target untouched since before the turn.
        let maybe_run = |cmd: &shell::SimpleCommand| {
            let argv: Vec<&str> = cmd.words.iter().filter_map(|w| w.text()).collect();
            let same = |s: &&Stage| s.argv.iter().map(String::as_str).eq(argv.iter().copied());
            r.stages.iter().any(|s| same(&s))
                && r.stages.iter().filter(same).all(|s| s.ran != Ran::Yes)
        };
        for cmd in script.simple_commands() {
            if not_run(cmd) {
                continue;
            }
            let unsure = maybe_run(cmd) && !keeps_mtime(cmd);
            for t in shell::writes::write_targets(cmd, &shell::exec::runs(cmd), Some(ev.cwd)) {
                match t.word.text() {
                    Some(p)
                        if unsure && untouched_since_start(&canonical_lexical(ev.cwd, p), ev) => {}
                    // A glob in its last part (`build/*.obj`) names the files it matches,
                    // now or in the history at the turn's start: where git tracks the
                    // folder, one that matches none touched nothing.
                    Some(p) if p.contains(['*', '?']) => {
                        match glob_matches(ev.cwd, p, start_tree) {
                            Some(matched) => {
                                out.extend(matched.into_iter().map(|m| (r.at, m, false)))
                            }
                            None => out.push((r.at, canonical_lexical(ev.cwd, p), t.recursive)),
                        }
                    }
                    Some(p) => out.push((r.at, canonical_lexical(ev.cwd, p), t.recursive)),
                    // Known only at run time: somewhere under its static prefix's
                    // directory (`/tmp/x-$$.sh` is under /tmp; `"$OUT"` anywhere here).
                    None => {
                        let raw = t.word.raw.trim_start_matches(['"', '\'']);
                        let prefix = &raw[..raw
                            .find(['$', '`', '*', '?', '{', '~'])
                            .unwrap_or(raw.len())];
                        let dir = match prefix.rfind('/') {
                            Some(i) => canonical_lexical(ev.cwd, &prefix[..i.max(1)]),
                            None => ev.cwd.to_owned(),
                        };
                        out.push((r.at, dir, true));
                    }
                }
            }
        }
    }
    out
}

/// Whether a command can leave its target with an older modification time than the
/// write (`mv`, `cp -p`, `rsync -a`, `touch -d`, archives): the disk's time then shows
/// nothing about whether it ran.
fn keeps_mtime(cmd: &shell::SimpleCommand) -> bool {
    let argv: Vec<&str> = cmd.words.iter().filter_map(|w| w.text()).collect();
    let Some(program) = argv.first().map(|p| p.rsplit('/').next().unwrap_or(p)) else {
        return true;
    };
    match program {
        "cp" | "install" => argv[1..].iter().any(|a| {
            a.starts_with("--preserve")
                || *a == "--archive"
                || a.starts_with('-')
                    && !a.starts_with("--")
                    && (a.contains('p') || a.contains('a'))
        }),
        "mv" | "rsync" | "touch" | "tar" | "unzip" | "ln" | "git" => true,
        _ => false,
    }
}

/// Whether `path` exists and was last modified before the turn began.
fn untouched_since_start(path: &Path, ev: &Evidence) -> bool {
    let (Some(start), Ok(meta)) = (ev.turn.started, path.symlink_metadata()) else {
        return false;
    };
    meta.modified().is_ok_and(|m| m + MTIME_SLACK < start)
}

fn canonical_lexical(cwd: &Path, p: &str) -> PathBuf {
    crate::fsutil::canonical(&crate::fsutil::absolute(Path::new(p), cwd))
}

fn cut(s: &str) -> String {
    crate::shell::walk::cut(s)
}

pub fn finding(claim: &Claim, why: String, fix: &str) -> Finding {
    Finding {
        what: claim.sentence.clone(),
        why,
        fix: fix.to_owned(),
        blocks: claim.confidence == Confidence::Strong,
    }
}

/// A finding that is only reported, never blocks: the evidence could not be read or the
/// reading is uncertain (an honest turn must not be stopped on what was not seen).
pub fn reported(claim: &Claim, why: String, fix: &str) -> Finding {
    Finding {
        blocks: false,
        ..finding(claim, why, fix)
    }
}

// ---------------------------------------------------------------------------------------
// Files

/// The project's README a report names bare ("README"): the first of its usual names that
/// exists at the root (`README.md` when none does, so the finding names what is missing).
pub fn readme(f: &Facts) -> PathBuf {
    const NAMES: &[&str] = &[
        "README.md",
        "README.rst",
        "README.txt",
        "README",
        "readme.md",
    ];
    NAMES
        .iter()
        .map(|n| f.root.join(n))
        .find(|p| p.is_file())
        .unwrap_or_else(|| f.root.join(NAMES[0]))
}

/// Where a path named in a message is: relative to the working directory or the root;
/// else a basename that names exactly one file the turn wrote or changed.
pub fn resolve(path: &str, f: &Facts) -> PathBuf {
    // `~/.gitconfig`: the user's home, as the agent's shell reads it (the hook runs with
    // the agent's environment).
    if let (Some(rest), Some(home)) = (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        return crate::fsutil::canonical(&Path::new(&home).join(rest));
    }
    let direct = crate::fsutil::absolute(Path::new(path.trim_end_matches('/')), f.ev.cwd);
    if direct.exists() || path.contains('/') {
        return crate::fsutil::canonical(&direct);
    }
    let from_root = f.root.join(path);
    if from_root.exists() {
        return crate::fsutil::canonical(&from_root);
    }
    let mut candidates = turn_paths_where(f, |p| p.file_name().is_some_and(|n| n == path));
    candidates.sort();
    candidates.dedup();
    match candidates.as_slice() {
        [one] => crate::fsutil::canonical(one),
        _ => crate::fsutil::canonical(&direct),
    }
}

/// Where a path named in a sentence is ([`resolve`]), or, where the project never had it
/// there, the one file whose path ends with it: a path relative to a part of the project
/// ("api | `test/order.test.js`" for `packages/api/test/order.test.js`, "search:
/// `config.env`" for `services/search/config.env`). Several such files: the one whose
/// folders the sentence names in its own words; none or still several, the path as named.
pub fn resolve_in(path: &str, sentence: &str, f: &Facts) -> PathBuf {
    let resolved = resolve(path, f);
    // There, or there when the turn began, or written there by name (a write to a whole
    // folder, `git stash` of the root, names no file).
    let there = resolved.symlink_metadata().is_ok()
        || f.start_blob(&resolved).is_some()
        || f.start_has_dir(&resolved)
        || f.wrote(&resolved, false)
            && !f
                .writes
                .iter()
                .any(|(_, p, r)| *r && resolved.starts_with(p));
    if path.starts_with(['/', '~']) || path.starts_with("../") || there {
        return resolved;
    }
    let tail = path.trim_start_matches("./").trim_end_matches('/');
    if tail.is_empty() {
        return resolved;
    }
    let candidates = part_candidates(tail, f);
    let chosen: Vec<&PathBuf> = match candidates.as_slice() {
        [one] => vec![one],
        [] => Vec::new(),
        many => {
            // The candidate whose folder the sentence names nearest to the path ("numkit's
            // `__init__.py` and test, textkit's two").
            let lower = sentence.to_lowercase();
            let at = lower.find(&tail.to_lowercase()).unwrap_or(0);
            let distance = |p: &PathBuf| -> Option<usize> {
                let rel = p.strip_prefix(&f.root).ok()?;
                rel.parent()?
                    .components()
                    .filter_map(|c| {
                        let c = c.as_os_str().to_string_lossy().to_lowercase();
                        (c.len() > 1).then_some(c)
                    })
                    .flat_map(|c| {
                        word_places(&lower, &c)
                            .map(|i| i.abs_diff(at))
                            .collect::<Vec<_>>()
                    })
                    .min()
            };
            let scored: Vec<(usize, &PathBuf)> = many
                .iter()
                .filter_map(|p| distance(p).map(|d| (d, p)))
                .collect();
            match scored.iter().map(|(d, _)| *d).min() {
                Some(best) => scored
                    .iter()
                    .filter(|(d, _)| *d == best)
                    .map(|(_, p)| *p)
                    .collect(),
                None => Vec::new(),
            }
        }
    };
    match chosen.as_slice() {
        [one] => crate::fsutil::canonical(one),
        _ => resolved,
    }
}

/// Where `word` stands in `text` as a word of its own (outside a longer word).
fn word_places<'t>(text: &'t str, word: &'t str) -> impl Iterator<Item = usize> + 't {
    text.match_indices(word).filter_map(move |(i, _)| {
        let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '_');
        (edge(text[..i].chars().next_back()) && edge(text[i + word.len()..].chars().next()))
            .then_some(i)
    })
}

/// The paths the turn wrote (its write log and its commands' writes) that `keep` keeps,
/// or, with none, those changed since the turn began.
fn turn_paths_where(f: &Facts, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let written: Vec<PathBuf> =
        f.ev.records
            .iter()
            .map(|r| PathBuf::from(&r.path))
            .chain(f.writes.iter().map(|(_, p, _)| p.clone()))
            .filter(|p| keep(p))
            .collect();
    if !written.is_empty() {
        return written;
    }
    f.changed_since_start()
        .into_iter()
        .filter(|p| keep(p))
        .collect()
}

/// The files whose path ends with `tail` (whole folders and name): those the turn wrote
/// or changed, or, with none, those the repository tracks.
fn part_candidates(tail: &str, f: &Facts) -> Vec<PathBuf> {
    let tail_path = Path::new(tail);
    let mut out = turn_paths_where(f, |p| p.ends_with(tail_path));
    if out.is_empty() {
        if let (Some(repo), Some(workdir)) = (f.repo(), f.workdir()) {
            let suffix = format!("/{tail}");
            if let Ok(index) = repo.index() {
                out = index
                    .iter()
                    .filter_map(|e| String::from_utf8(e.path).ok())
                    .filter(|p| p.ends_with(&suffix))
                    .map(|p| workdir.join(p))
                    .collect();
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether the project knows `path` at all: it exists, existed when the turn began, or
/// the turn wrote it. A name with no file's shape that it does not know is no path.
pub fn known(path: &Path, f: &Facts) -> bool {
    path.symlink_metadata().is_ok()
        || f.start_blob(path).is_some()
        || f.start_has_dir(path)
        || f.wrote(path, true)
}

/// Evidence for what an archive is told to hold or leave out: its members as the turn
/// left it (a zip's central directory read here; a tar's, compressed or not, listed by
/// `tar -tf`), a member matching under any folder (`package/.env` for `.env`) or as a
/// folder of members. An archive that is not there or cannot be listed is reported.
pub fn archive_evidence(
    claim: &Claim,
    archive: &Path,
    member: &str,
    present: bool,
    f: &Facts,
) -> Result<String, Finding> {
    let shown = archive.display();
    let fix = "list the archive (`tar -tzf`, `unzip -l`) and say what it holds";
    if !archive.is_file() {
        return Err(reported(
            claim,
            format!("{shown} is not there at the end of the turn"),
            fix,
        ));
    }
    let entries = match archive_members(archive) {
        Ok(entries) => entries,
        Err(why) => {
            return Err(reported(
                claim,
                format!("{shown} could not be listed: {why}"),
                fix,
            ))
        }
    };
    // "`zip -r` only added to the old archive: `unzip -l` still showed …", then a remake:
    // with two commands of the turn making or changing the archive, a sentence may tell
    // the first one's.
    let archive_name = archive
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    let makers = f
        .runs
        .iter()
        .flat_map(|r| &r.stages)
        .filter(|s| {
            let argv = shellrun::peel(&s.argv);
            let program = argv
                .first()
                .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
            // `tar tzf` and `tar --list` read it.
            let tar_writes = argv[1..].iter().any(|a| {
                matches!(
                    a.as_str(),
                    "--create" | "--append" | "--update" | "--delete"
                ) || !a.starts_with("--")
                    && a.len() <= 6
                    && a.trim_start_matches('-')
                        .chars()
                        .all(|c| c.is_ascii_alphabetic())
                    && a.trim_start_matches('-').contains(['c', 'r', 'u'])
            });
            s.ran != Ran::No
                && (matches!(program, "zip" | "7z" | "jar" | "rm" | "gzip")
                    || program == "git" && argv.get(1).is_some_and(|a| a == "archive")
                    || program == "tar" && tar_writes)
                && argv[1..].iter().any(|a| {
                    let a = a.strip_prefix("--output=").unwrap_or(a);
                    Some(a.rsplit('/').next().unwrap_or(a)) == archive_name.as_deref()
                })
        })
        .count();
    let wanted = member.trim_start_matches("./").trim_end_matches('/');
    let found = entries.iter().find(|e| {
        let e = e.trim_start_matches("./").trim_end_matches('/');
        e == wanted || e.ends_with(&format!("/{wanted}")) || e.starts_with(&format!("{wanted}/"))
    });
    // With two commands that made or changed it, the sentence may tell the first one's.
    let refuted = |why: String| {
        if makers > 1 {
            reported(
                claim,
                format!("{why} ({makers} commands of this turn made or changed it)"),
                fix,
            )
        } else {
            finding(claim, why, fix)
        }
    };
    match (present, found) {
        (true, Some(e)) => Ok(format!("{shown} holds {e}")),
        (false, None) => Ok(format!(
            "{shown} holds no {wanted} ({} entries listed)",
            entries.len()
        )),
        (true, None) => {
            let listed: Vec<&str> = entries.iter().take(8).map(String::as_str).collect();
            Err(refuted(format!(
                "{shown} does not hold {wanted}: its {} entries are {}{}",
                entries.len(),
                listed.join(", "),
                if entries.len() > 8 { ", …" } else { "" }
            )))
        }
        (false, Some(e)) => Err(refuted(format!("{shown} still holds {e}"))),
    }
}

/// The member names of an archive: a zip (`.zip`, `.whl`, `.jar`) from its central
/// directory, a tar (`.tar`, `.tgz`, `.tar.gz`, …) from `tar -tf`.
fn archive_members(path: &Path) -> Result<Vec<String>, String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if [".zip", ".whl", ".jar"].iter().any(|e| name.ends_with(e)) {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        return zip_members(&bytes).ok_or_else(|| "not a zip archive it can read".to_owned());
    }
    let out = std::process::Command::new("tar")
        .arg("-tf")
        .arg(path)
        .env("LC_ALL", "C")
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("`tar` could not run: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`tar -tf` failed: {}",
            cut(String::from_utf8_lossy(&out.stderr).trim())
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect())
}

/// The names in a zip's central directory (no zip64): `None` when it has none readable.
fn zip_members(bytes: &[u8]) -> Option<Vec<String>> {
    let u16_at = |i: usize| Some(u16::from_le_bytes(bytes.get(i..i + 2)?.try_into().ok()?));
    let u32_at = |i: usize| Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?));
    // The end of central directory record: within the last 64 KiB and 22 bytes.
    let from = bytes.len().saturating_sub(22 + 0xFFFF);
    let eocd = (from..bytes.len().saturating_sub(21))
        .rev()
        .find(|&i| u32_at(i) == Some(0x0605_4b50))?;
    let count = usize::from(u16_at(eocd + 10)?);
    let mut at = usize::try_from(u32_at(eocd + 16)?).ok()?;
    let mut names = Vec::with_capacity(count);
    for _ in 0..count {
        if u32_at(at)? != 0x0201_4b50 {
            return None;
        }
        let n = usize::from(u16_at(at + 28)?);
        let extra = usize::from(u16_at(at + 30)?);
        let comment = usize::from(u16_at(at + 32)?);
        let name = bytes.get(at + 46..at + 46 + n)?;
        names.push(String::from_utf8_lossy(name).into_owned());
        at += 46 + n + extra + comment;
    }
    Some(names)
}

/// Evidence for the line ends a file is told to have: its lines as the turn left them
/// (up to 4 MiB read), each ending in `\r\n` (`crlf`) or in `\n` alone.
pub fn line_ends_evidence(claim: &Claim, path: &Path, crlf: bool) -> Result<String, Finding> {
    let shown = path.display();
    let fix = "check the file's line ends (`file`, `od -c | head`) and say what they are";
    let bytes = read_as_left(claim, path, fix)?;
    let ends = bytes.iter().enumerate().filter(|(_, b)| **b == b'\n');
    let (with_cr, bare): (Vec<usize>, Vec<usize>) = ends
        .map(|(i, _)| i)
        .partition(|&i| i > 0 && bytes[i - 1] == b'\r');
    let line_of = |at: usize| bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
    match (crlf, with_cr.first(), bare.first()) {
        (false, Some(&at), _) => Err(finding(
            claim,
            format!(
                "{shown} has {} line(s) ending in CRLF (the first is line {})",
                with_cr.len(),
                line_of(at)
            ),
            fix,
        )),
        (true, _, Some(&at)) => Err(finding(
            claim,
            format!(
                "{shown} has {} line(s) ending in LF alone (the first is line {})",
                bare.len(),
                line_of(at)
            ),
            fix,
        )),
        _ => Ok(format!(
            "every line of {shown} ends in {}",
            if crlf { "CRLF" } else { "LF" }
        )),
    }
}

/// The first 4 MiB of a file as the turn left it (more than a config or source file
/// holds: past it the file is not read). Missing, it refutes the claim; unreadable, it is
/// reported.
fn read_as_left(claim: &Claim, path: &Path, fix: &str) -> Result<Vec<u8>, Finding> {
    const CAP: u64 = 4 << 20;
    let shown = path.display();
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path).and_then(|file| {
        std::io::Read::read_to_end(&mut std::io::Read::take(file, CAP), &mut bytes)
    });
    match read {
        Ok(_) => Ok(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(finding(
            claim,
            format!("{shown} does not exist at the end of the turn"),
            fix,
        )),
        Err(e) => Err(reported(
            claim,
            format!("{shown} could not be read: {e}"),
            fix,
        )),
    }
}

/// A value the message says a file holds: the file, as the turn left it, has every word of
/// the value (`port: 9000` is held by `port:   9000`; case and spacing aside, no letter
/// or digit of the value may be missing).
pub fn holds_evidence(claim: &Claim, path: &Path, value: &str) -> Result<String, Finding> {
    let shown = path.display();
    let fix = "check the file and say what it holds, or make the change";
    let text = text_as_left(claim, path, fix)?;
    match missing_words(&text, value) {
        None => Ok(format!("{shown} holds `{value}` at the end of the turn")),
        Some(missing) => Err(finding(
            claim,
            format!("{shown}, as the turn left it, does not hold `{value}` (no {missing})"),
            fix,
        )),
    }
}

/// A value the message says stands under a heading ([`Kind::UnderHeading`]): the lines
/// from the heading to the next heading of its level or above (a Markdown `#` heading, an
/// INI or TOML `[section]`) hold every word of it, as [`holds_evidence`] reads a file.
pub fn under_heading_evidence(
    claim: &Claim,
    path: &Path,
    heading: &str,
    value: &str,
) -> Result<String, Finding> {
    let shown = path.display();
    let fix = "check the file and say where the value stands, or move it there";
    let text = text_as_left(claim, path, fix)?;
    let Some(section) = section_under(&text, heading) else {
        return Err(finding(
            claim,
            format!("{shown}, as the turn left it, has no heading `{heading}`"),
            fix,
        ));
    };
    match missing_words(section, value) {
        None => Ok(format!(
            "{shown} holds `{value}` under `{heading}` at the end of the turn"
        )),
        Some(missing) => Err(finding(
            claim,
            format!(
                "{shown}, as the turn left it, does not hold `{value}` under `{heading}` (no {missing} there){}",
                match missing_words(&text, value) {
                    None => " (it stands under another heading)",
                    Some(_) => "",
                }
            ),
            fix,
        )),
    }
}

/// The lines under a heading: from the line that is the heading (spacing and case aside)
/// to the next heading of its level or above. A Markdown heading is ended only by `#`
/// lines outside fenced code (a `# comment` in a shell block is no heading), an INI or TOML
/// section only by the next `[section]` line.
fn section_under<'t>(text: &'t str, heading: &str) -> Option<&'t str> {
    let markdown = heading.trim_start().starts_with('#');
    let level = |line: &str| -> Option<usize> {
        let t = line.trim();
        if markdown && t.starts_with('#') {
            let n = t.chars().take_while(|c| *c == '#').count();
            t[n..].starts_with(' ').then_some(n)
        } else if !markdown && t.starts_with('[') && t.ends_with(']') {
            Some(1)
        } else {
            None
        }
    };
    let squash = |t: &str| {
        t.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let wanted = squash(heading);
    let own = level(heading)?;
    let mut offset = 0;
    let mut start = None;
    let mut fenced = false;
    for line in text.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        if markdown
            && (line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~"))
        {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if let Some(begin) = start {
            if level(line).is_some_and(|l| l <= own) {
                return Some(&text[begin..here]);
            }
        } else if level(line) == Some(own) && {
            let squashed = squash(line);
            // "## [1.1.0] - 2026-01-02" is the heading "## [1.1.0]".
            squashed == wanted || squashed.starts_with(&format!("{wanted} "))
        } {
            start = Some(offset);
        }
    }
    start.map(|begin| &text[begin..])
}

/// A file as the turn left it, as text. Bytes that are not UTF-8 (a Latin-1 CSV) stand in
/// as U+FFFD: the rest is still read. A file a merge or a stash left in conflict holds both
/// sides, and neither.
fn text_as_left(claim: &Claim, path: &Path, fix: &str) -> Result<String, Finding> {
    let shown = path.display();
    let text = String::from_utf8_lossy(&read_as_left(claim, path, fix)?).into_owned();
    if text.lines().any(|l| l.starts_with("<<<<<<< "))
        && text.lines().any(|l| l.starts_with(">>>>>>> "))
    {
        return Err(finding(
            claim,
            format!("{shown} is in conflict (it holds conflict markers): it holds no one value"),
            "resolve the conflict, then say what the file holds",
        ));
    }
    Ok(text)
}

/// The words of a value a text lacks, quoted and joined ("\"9000\", \"port\""): case and
/// spacing aside, no letter or digit of the value may be missing; a version is looked for
/// whole, and a name in camel case in its case.
fn missing_words(text: &str, value: &str) -> Option<String> {
    let words = |t: &str| -> Vec<String> {
        t.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    // A version or a dotted number is one value ("1.1.0" is not held by "1.0.0", which has
    // the same digits): it is looked for whole.
    let dotted = |t: &str| -> Vec<String> {
        t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
            .map(|w| w.trim_matches('.'))
            .filter(|w| {
                w.contains('.')
                    && w.trim_start_matches('v')
                        .starts_with(|c: char| c.is_ascii_digit())
            })
            .filter(|w| {
                w.split('.').all(|p| {
                    !p.is_empty()
                        && p.trim_start_matches('v')
                            .bytes()
                            .all(|b| b.is_ascii_digit())
                })
            })
            .map(str::to_owned)
            .collect()
    };
    // The value's few words are looked for in the file, not the file's words hashed.
    let lower = text.to_lowercase();
    let held = |w: &str| whole_word_in(&lower, w);
    let held_dotted = |w: &str| {
        let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '.'));
        lower.match_indices(w).any(|(i, _)| {
            let after = &lower[i + w.len()..];
            edge(lower[..i].chars().next_back())
                && (edge(after.chars().next())
                    // A sentence's full stop after the version ("… 1.1.0.").
                    || after.starts_with('.') && edge(after[1..].chars().next()))
        })
    };
    // A name written in camel case (`MaxConnections`, `poolSize`) is held in that case:
    // `maxconnections` is another spelling of the key.
    let camel =
        |w: &&str| w.chars().skip(1).any(char::is_uppercase) && w.chars().any(char::is_lowercase);
    let held_cased = |w: &str| whole_word_in(text, w);
    let missing: Vec<String> = dotted(value)
        .into_iter()
        .filter(|w| !held_dotted(w))
        .chain(words(value).into_iter().filter(|w| !held(w)))
        .chain(
            value
                .split(|c: char| !c.is_alphanumeric())
                .filter(camel)
                .filter(|w| !held_cased(w))
                .map(str::to_owned),
        )
        .collect();
    (!missing.is_empty()).then(|| {
        missing
            .iter()
            .map(|w| format!("\"{w}\""))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

pub fn file_evidence(
    claim: &Claim,
    path: &Path,
    change: &Change,
    f: &Facts,
) -> Result<String, Finding> {
    if *change == Change::Unchanged {
        return unchanged_evidence(claim, path, f);
    }
    if *change == Change::Kept {
        return kept_evidence(claim, path, f);
    }
    let shown = path.display();
    // "moved both into `build/objs/`" when `mv` made `build/objs` one file: a folder the
    // message names is not there.
    let as_folder = matches!(&claim.kind, Kind::File { path: p, .. } if p.ends_with('/'));
    if as_folder && *change != Change::Deleted && path.symlink_metadata().is_ok_and(|m| m.is_file())
    {
        return Err(finding(
            claim,
            format!("{shown} is a file, not a folder: nothing is under it"),
            "check where the files went (`ls -la`), then correct the message or move them again",
        ));
    }
    let here: Vec<_> =
        f.ev.records
            .iter()
            .filter(|r| Path::new(&r.path) == path)
            .collect();
    let undone = {
        let s = claim.sentence.to_lowercase();
        UNDONE.iter().any(|w| s.contains(w))
    };
    if let Some(r) = here.iter().rev().find(|r| r.verified) {
        // The write landed, and a later command of the turn took the file away (`git clean
        // -fd`, `rm -rf scripts/` after a subagent wrote it): what the message hands over
        // is not there. A message that says it went ("made `probe.py`, then removed it")
        // tells it by a deletion word, which no reading of a change holds.
        if path.symlink_metadata().is_err()
            && !undone
            && matches!(change, Change::Created | Change::Modified)
            && !super::rows::tells_gone(&claim.sentence)
        {
            return Err(finding(
                claim,
                format!(
                    "the {} to {shown} landed, but {shown} is gone at the end of the turn: a later command removed it",
                    r.tool
                ),
                "write it again (and leave it there), or correct the message",
            ));
        }
        // The write landed, and a later command of the turn took it back (`git stash`,
        // `git checkout -- a`, `git reset --hard`): the file is as the turn found it.
        let back_to_start = matches!(change, Change::Modified)
            && !undone
            && f.start_blob(path).is_some_and(|start| {
                Oid::hash_file(ObjectType::Blob, path).is_ok_and(|now| now == start)
            });
        if back_to_start {
            return Err(finding(
                claim,
                format!(
                    "the {} to {shown} landed, but the file is now as it was when the turn began: a later command of the turn took the change back",
                    r.tool
                ),
                "make the change again (see `git stash list`), or correct the message",
            ));
        }
        return Ok(format!(
            "the write log holds a verified {} to {shown} in this turn{}",
            r.tool,
            r.tool_use_id
                .as_deref()
                .map(|id| format!(" ({id})"))
                .unwrap_or_default()
        ));
    }
    match (changed_in_turn(path, change, f), here.last()) {
        (Ok(how), _) => Ok(how),
        // "I added a print to `a.rs`, ran it, then reverted it": written, then undone.
        (Err(_), _) if undone && f.wrote(path, false) => Ok(format!(
            "a command of this turn wrote {shown}, and the message says the change was undone"
        )),
        (Err(_), Some(r)) => Err(finding(
            claim,
            format!(
                "the only write to {shown} in this turn did not land ({}: {})",
                r.outcome.name(),
                r.reason.as_deref().unwrap_or("no reason recorded")
            ),
            "write the file again and check it landed, or correct the message",
        )),
        (Err(why), None) => Err(finding(
            claim,
            why,
            "make the change (or correct the message) before finishing",
        )),
    }
}

/// Evidence for a file the message says is unchanged: it is as the turn found it. Only a
/// turn that wrote it, or ran a git command that rewrites the working tree (`git stash
/// pop`, `git checkout`, `git pull` …), and left it unlike the commit it began at refutes
/// that: a file dirty before the turn and untouched since is not this turn's change.
fn unchanged_evidence(claim: &Claim, path: &Path, f: &Facts) -> Result<String, Finding> {
    let shown = path.display();
    let fix = "say what changed in it (or put it back as it was)";
    let at_start = f.start_blob(path);
    let written = f.wrote(path, false);
    let rewrote = worktree_rewritten(f);
    let touched = written || rewrote.is_some();
    let how = || match &rewrote {
        _ if written => "the turn wrote it".to_owned(),
        Some(cmd) => format!("`{}` rewrote the working tree", cut(cmd)),
        None => String::new(),
    };
    if path.symlink_metadata().is_err() {
        return match at_start {
            Some(_) if touched => Err(finding(
                claim,
                format!(
                    "{shown} was there when the turn began and is gone now ({})",
                    how()
                ),
                fix,
            )),
            _ => Ok(format!(
                "{shown} is not there, and the turn did not take it away"
            )),
        };
    }
    let now = Oid::hash_file(ObjectType::Blob, path).ok();
    let differs = match (at_start, now) {
        (Some(a), Some(b)) => a != b,
        // Made in this turn: it was not there to stay unchanged.
        (None, _) => f.start_head().is_some() && written,
        _ => false,
    };
    if differs && touched && recent(path, f) == Some(true) {
        return Err(finding(
            claim,
            format!(
                "{shown} is not as the turn found it: it differs from the commit the turn began at, and {}",
                how()
            ),
            fix,
        ));
    }
    Ok(format!("{shown} is as the turn found it"))
}

/// The git command of this turn that rewrote files of the working tree, if one ran.
fn worktree_rewritten(f: &Facts) -> Option<String> {
    f.runs.iter().find_map(|r| {
        r.stages.iter().find_map(|s| {
            let words: Vec<&str> = s
                .argv
                .iter()
                .map(String::as_str)
                .filter(|a| !a.starts_with('-'))
                .collect();
            let rewrites = match words.as_slice() {
                ["git", "stash", "pop" | "apply", ..] => true,
                ["git", sub, ..] => matches!(
                    *sub,
                    "checkout"
                        | "switch"
                        | "restore"
                        | "reset"
                        | "merge"
                        | "rebase"
                        | "pull"
                        | "cherry-pick"
                        | "am"
                        | "apply"
                        | "revert"
                ),
                _ => false,
            };
            (rewrites && s.ran != Ran::No).then(|| command_line(&s.argv))
        })
    })
}

/// The command of this turn that deleted `path` (or a folder holding it) when the path is
/// there again, written since the turn began: "deleted the old `db/app.db`, then ran the
/// schema again", "the whole `build/` went, and I restored `build/KEEP.md`". A deletion
/// that left the file as it was (`rm -i` with no answer) leaves its time too.
fn deleted_then_made_again(path: &Path, f: &Facts) -> Option<String> {
    if recent(path, f) != Some(true) {
        return None;
    }
    let named = |a: &str| path.starts_with(canonical_lexical(f.ev.cwd, a));
    let deletes = |argv: &[&str]| {
        let program = argv
            .first()
            .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
        let args = || argv.iter().skip(1).filter(|a| !a.starts_with('-'));
        match program {
            "rm" | "unlink" | "rmdir" => args().any(|a| named(a)),
            // `find build -delete …`: its first operand is where it deletes.
            "find" => argv.contains(&"-delete") && args().take(1).any(|a| named(a)),
            "git" => argv.get(1) == Some(&"rm") && args().skip(1).any(|a| named(a)),
            _ => false,
        }
    };
    f.runs
        .iter()
        .find(|r| {
            shell::parse(&r.command)
                .simple_commands()
                .into_iter()
                .any(|cmd| {
                    let argv: Vec<&str> = cmd.words.iter().filter_map(|w| w.text()).collect();
                    // A stage the shell did not run deleted nothing (`false && rm x`).
                    let not_run = r
                        .stages
                        .iter()
                        .filter(|s| s.argv.iter().map(String::as_str).eq(argv.iter().copied()))
                        .any(|s| s.ran == Ran::No);
                    deletes(&argv) && !not_run
                })
        })
        .map(|r| r.command.clone())
}

/// Words that say a file is (or was made) empty, in the tables' languages: an empty file
/// is then what the message says.
const EMPTY_WORDS: &[&str] = &[
    "empty",
    "emptied",
    "blank",
    "truncat",
    "clear",
    "placeholder",
    "marker",
    "leer",
    "vide",
    "vacío",
    "vacio",
    "vazio",
    "vuot",
    "leeg",
    "tom ",
    "tomt",
    "tyhj",
    "pust",
    "prázdn",
    "prazdn",
    "üres",
    "boş",
    "gol",
    "пуст",
    "порожн",
    "κεν",
    "ריק",
    "فارغ",
    "خالی",
    "खाली",
    "ফাঁকা",
    "খালি",
    "ว่าง",
    "trống",
    "kosong",
    "空",
    "비어",
    "빈 ",
    "tühi",
    "tuščias",
    "tukšs",
    "prazan",
    "prazen",
    "tupu",
    "walang laman",
    "touch",
];

/// Whether a file the message says was written or changed is not left empty against it:
/// a file that had text at the turn's start and has none now (`jq … > package.json`
/// read its own emptied input), or a file said to be made with text (a value quoted
/// beside it: "created `CHANGELOG.md` with a „0.2.0“ section") that is empty. A message
/// that says the file is empty, or a marker file (`__init__.py`, `.gitkeep`), is not held
/// to it.
pub fn not_emptied(claim: &Claim, path: &Path, change: &Change, f: &Facts) -> Result<(), Finding> {
    let empty_now = path.metadata().is_ok_and(|m| m.is_file() && m.len() == 0);
    if !empty_now {
        return Ok(());
    }
    let lower = claim.sentence.to_lowercase();
    if EMPTY_WORDS.iter().any(|w| lower.contains(w)) {
        return Ok(());
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name.starts_with('.') || name == "__init__.py" || name == "py.typed" {
        return Ok(());
    }
    let had_text = f
        .start_blob(path)
        .and_then(|id| f.repo()?.find_blob(id).ok())
        .is_some_and(|b| !b.content().is_empty());
    let shown = path.display();
    let why = match change {
        Change::Modified if had_text => format!(
            "{shown} is empty now; it had text when the turn began (a command that read the file and wrote it in one go emptied it?)"
        ),
        Change::Created if quotes_a_value(&claim.sentence) => format!(
            "{shown} is empty, and the message says what was written in it"
        ),
        _ => return Ok(()),
    };
    Err(finding(
        claim,
        why,
        "write its content (and check the file), or correct the message",
    ))
}

/// Whether a sentence quotes something besides paths: a code span that is not a path, or
/// text in quotation marks ("„0.2.0“", "«Unreleased»").
fn quotes_a_value(sentence: &str) -> bool {
    let span_value =
        super::vocab::spans_of(sentence).any(|s| super::vocab::path_of(s.trim(), true).is_none());
    let quoted = ['"', '„', '“', '«', '「', '‘']
        .iter()
        .any(|q| sentence.contains(*q));
    span_value || quoted
}

/// The branch, remote branch or tag a path that does not exist names (`release/1.0`),
/// relative to the project's root.
fn ref_named(path: &Path, f: &Facts) -> Option<String> {
    let name = path.strip_prefix(&f.root).ok()?.to_str()?;
    let repo = f.repo()?;
    let is_ref = |full: String| repo.find_reference(&full).is_ok();
    let remote = || {
        repo.remotes().ok().is_some_and(|names| {
            names
                .iter()
                .flatten()
                .any(|r| is_ref(format!("refs/remotes/{r}/{name}")))
        })
    };
    (is_ref(format!("refs/heads/{name}")) || is_ref(format!("refs/tags/{name}")) || remote())
        .then(|| name.to_owned())
}

fn recent(path: &Path, f: &Facts) -> Option<bool> {
    let start = f.ev.turn.started?;
    let mtime = path.symlink_metadata().and_then(|m| m.modified()).ok()?;
    Some(mtime + MTIME_SLACK >= start)
}

/// Whether the disk and git show the claimed change made in this turn (by any tool,
/// Bash included): compared with the file as it was in the commit HEAD pointed at when
/// the turn began, whether the change was committed since or not.
fn changed_in_turn(path: &Path, change: &Change, f: &Facts) -> Result<String, String> {
    let shown = path.display();
    let exists = path.symlink_metadata().is_ok();
    match change {
        Change::Deleted => {
            return if exists {
                match deleted_then_made_again(path, f) {
                    Some(cmd) => Ok(format!(
                        "`{}` of this turn deleted {shown}, and a later command made it again",
                        cut(&cmd)
                    )),
                    None => Err(format!("{shown} still exists")),
                }
            } else if f.start_blob(path).is_some()
                || f.wrote(path, false)
                || f.start_head().is_none()
            {
                Ok(format!("{shown} is gone"))
            } else {
                Err(format!(
                    "{shown} did not exist when the turn began, and the turn did not write it"
                ))
            };
        }
        Change::Renamed { to } => {
            let to = crate::fsutil::absolute(Path::new(to), f.ev.cwd);
            let to_exists = to.exists() || f.root.join(to.file_name().unwrap_or_default()).exists();
            return match (exists, to_exists) {
                (false, true) => Ok(format!("{shown} is gone and {} exists", to.display())),
                (true, _) => Err(format!("{shown} still exists")),
                (false, false) => Err(format!("{} does not exist", to.display())),
            };
        }
        Change::Modified | Change::Created | Change::Unchanged | Change::Kept => {}
    }
    // A path the turn deleted or moved away did change: "Files changed: `old.rs`" of a
    // deleted file is not a false claim, and a deletion is never judged as an edit.
    if !exists && *change == Change::Modified && f.start_blob(path).is_some() {
        return Ok(format!("{shown} was deleted or moved away in this turn"));
    }
    if !exists {
        // "изпратих `release/1.0` отново": a branch's or a tag's name, which looks like a
        // path, is no file.
        if let Some(name) = ref_named(path, f) {
            return Ok(format!("`{name}` is a ref of the repository, not a file"));
        }
        return Err(format!(
            "{shown} does not exist, and no write to it was recorded in this turn"
        ));
    }
    let now = Oid::hash_file(ObjectType::Blob, path).ok();
    let at_start = f.start_blob(path);
    let in_repo = f.workdir().is_some_and(|w| path.starts_with(w));
    let differs = match (at_start, now) {
        (Some(a), Some(b)) => Some(a != b),
        (None, _) if f.start_head().is_some() && in_repo => Some(true),
        _ => None,
    };
    let recent = recent(path, f);
    match (differs, recent) {
        (Some(false), _) => Err(format!(
            "{shown} is the same as when the turn began, and no write to it was recorded in this turn"
        )),
        (_, Some(false)) if !f.wrote(path, false) => Err(format!(
            "no write to {shown} was recorded in this turn, and the file was last modified before the turn started"
        )),
        (Some(true), _) => Ok(format!("{shown} changed during this turn")),
        (None, Some(true)) => Ok(format!("{shown} was modified during this turn")),
        _ if f.wrote(path, false) => Ok(format!("a command of this turn wrote {shown}")),
        _ => Err(format!(
            "no write to {shown} was recorded in this turn, and nothing shows it changed"
        )),
    }
}

/// A directory claim: something under it changed in the turn (a deleted directory: it
/// is gone).
/// Whether a sentence says a thing went whole ("entirely", "komplett", "por completo",
/// "整个"): a folder said removed so is gone, not emptied.
fn says_whole(sentence: &str) -> bool {
    const WHOLE: &[&str] = &[
        "entire",
        "completely",
        "whole",
        "altogether",
        "komplett",
        "vollständig",
        "ganz",
        "entièrement",
        "complètement",
        "por completo",
        "completamente",
        "interamente",
        "volledig",
        "helt",
        "całkowicie",
        "całą",
        "úplně",
        "celou",
        "полностью",
        "целиком",
        "повністю",
        "tamamen",
        "hoàn toàn",
        "sepenuhnya",
        "seluruh",
        "teljesen",
        "kokonaan",
        "εντελώς",
        "完全",
        "整个",
        "整個",
        "全体",
        "丸ごと",
        "전체",
        "통째",
        "पूरी तरह",
        "पूरा",
        "بالكامل",
        "לגמרי",
        "کاملاً",
        "کامل",
        "ทั้งหมด",
        "kabisa",
        "lubusan",
    ];
    let lower = sentence.to_lowercase();
    WHOLE.iter().any(|w| lower.contains(w))
}

pub fn dir_evidence(
    claim: &Claim,
    dir: &Path,
    change: &Change,
    f: &Facts,
) -> Result<String, Finding> {
    let shown = dir.display();
    // "`build/` 안의 파일은 그대로입니다": nothing under it is unlike the turn's start
    // through a write or a git command of the turn.
    if *change == Change::Unchanged {
        let touched = f.changed_since_start().into_iter().find(|p| {
            p.starts_with(dir)
                && recent(p, f) != Some(false)
                && (f.wrote(p, false) || worktree_rewritten(f).is_some())
        });
        return match touched {
            Some(p) => Err(finding(
                claim,
                format!("{} under {shown} changed in this turn", p.display()),
                "say what changed under it (or put it back as it was)",
            )),
            None => Ok(format!("nothing under {shown} changed in this turn")),
        };
    }
    if *change == Change::Deleted && dir.exists() {
        if let Some(cmd) = deleted_then_made_again(dir, f) {
            return Ok(format!(
                "`{}` of this turn deleted {shown}, and a later command made it again",
                cut(&cmd)
            ));
        }
        // "old.o and older.o deleted, build/ is empty": something under it is gone, unless
        // the message says the folder went whole ("removed `build/` entirely").
        let gone = f
            .changed_since_start()
            .into_iter()
            .find(|p| p.starts_with(dir) && !p.exists());
        if let Some(p) = gone.filter(|_| !says_whole(&claim.sentence)) {
            return Ok(format!("{} under it is gone", p.display()));
        }
        return Err(finding(
            claim,
            format!("{shown} still exists"),
            "remove it (or correct the message) before finishing",
        ));
    }
    // "moved both into `build/objs/`" when `mv` made `build/objs` one file: nothing is
    // under a folder that is not there.
    if *change != Change::Deleted && dir.symlink_metadata().is_ok_and(|m| m.is_file()) {
        return Err(finding(
            claim,
            format!("{shown} is a file, not a folder: nothing is under it"),
            "check where the files went (`ls -la`), then correct the message or move them again",
        ));
    }
    if f.wrote(dir, true) {
        return Ok(format!("the turn wrote under {shown}"));
    }
    if !dir.exists() && f.start_has_dir(dir) {
        return Ok(format!("{shown} is gone"));
    }
    if let Some(p) = f
        .changed_since_start()
        .into_iter()
        .find(|p| p.starts_with(dir))
    {
        if recent(&p, f) != Some(false) {
            return Ok(format!("{} under it changed during this turn", p.display()));
        }
    }
    Err(finding(
        claim,
        format!("nothing under {shown} changed in this turn"),
        "make the change (or correct the message) before finishing",
    ))
}

// ---------------------------------------------------------------------------------------
// Test, build and lint runs

/// A run of a check command, with what it shows.
struct Check<'r> {
    run: &'r Run,
    stage: &'r Stage,
    runner: Runner,
    /// Which runner (or which policy pattern, for wrappers): runs of one key replace
    /// each other.
    key: String,
    /// A run that runs no test (`--no-run`, `--collect-only`, `--list`).
    listing: Option<&'static str>,
    /// A run limited to some tests (a name filter).
    partial: bool,
}

enum Outcome {
    Passed(Option<Summary>),
    Failed(String),
    Unknown(String),
}

#[cfg(test)]
fn matches_pattern(argv: &[String], pattern: &str) -> bool {
    matches_either(argv, &shellrun::peel(argv), pattern)
}

/// Whether a test run runs only the tests the suite leaves out (`cargo test -- --ignored`):
/// not a run of the suite, whose result it neither backs nor refutes.
fn only_ignored(argv: &[String]) -> bool {
    argv.iter()
        .skip_while(|a| *a != "--")
        .any(|a| a == "--ignored")
}

/// Whether a stage, as written or with its wrappers peeled (`peeled`, computed once per
/// stage: peeling per pattern was most of a stop's time), runs `pattern`.
fn matches_either(argv: &[String], peeled: &[String], pattern: &str) -> bool {
    if let Some(module) = pattern.strip_prefix(INLINE) {
        return runs_inline(peeled, module);
    }
    if let Some(sub) = pattern.strip_prefix(HOOKED) {
        return runs_git_hooks(peeled, sub);
    }
    // Most patterns hold no quotes: their words are split without the shell's lexer (this
    // runs for every pattern and every command of the turn).
    let split;
    let words: Vec<&str> = if pattern.contains(['"', '\'', '\\']) {
        split = shell_words(pattern);
        split.iter().map(String::as_str).collect()
    } else {
        pattern.split_whitespace().collect()
    };
    let Some((first, rest)) = words.split_first() else {
        return false;
    };
    if !words.contains(&"--ignored") && (only_ignored(argv) || only_ignored(peeled)) {
        return false;
    }
    let try_argv = |argv: &[String]| {
        let Some(program) = argv.first() else {
            return false;
        };
        let base = program.rsplit('/').next().unwrap_or(program);
        // `npm run test:unit` runs a test script as `npm run test` does.
        let same = |a: &String, b: &&str| {
            a == b || *b == "test" && (a.starts_with("test:") || a.starts_with("test-"))
        };
        // Its words in order right after the program; the options that end it, anywhere
        // after them (`cargo test --lib` is run by `cargo test -q --lib`).
        let last_word = rest
            .iter()
            .rposition(|w| !(w.starts_with('-') && w.len() > 1))
            .map_or(0, |i| i + 1);
        let (words, options) = rest.split_at(last_word);
        (program == first || (!first.contains('/') && base == *first))
            && argv.len() > words.len()
            && argv[1..=words.len()]
                .iter()
                .zip(words.iter())
                .all(|(a, b)| same(a, b))
            && options.iter().all(|o| argv[1..].iter().any(|a| a == *o))
    };
    try_argv(argv) || try_argv(peeled)
}

/// A run pattern for a library an inline script uses (`inline:tomllib`): a check named by
/// its library ("validated with `tomllib`") runs in `python3 -c "import tomllib; …"` or
/// `node -e "JSON.parse(…)"`, not as a program of its own.
pub const INLINE: &str = "inline:";

/// A run pattern for a git hook (`hooked:commit`): a hook named as passed ("the pre-commit
/// hook passed") ran only in a `git <sub>` that did not skip the hooks.
pub const HOOKED: &str = "hooked:";

/// Whether `argv` is `git <sub>` that runs the repository's hooks: not `--no-verify` (nor
/// `-n` in a short cluster, `git commit -nm`), not a dry run.
fn runs_git_hooks(argv: &[String], sub: &str) -> bool {
    if argv.first().and_then(|p| p.rsplit('/').next()) != Some("git") {
        return false;
    }
    let args = &argv[1..];
    let globals = crate::argv::parse(&crate::argv::tables::GIT_GLOBAL, args);
    let rest = &args[globals.rest_at.min(args.len())..];
    if rest.first().map(String::as_str) != Some(sub) {
        return false;
    }
    let skips = |a: &String| {
        a == "--no-verify"
            || a == "--dry-run"
            || (a.starts_with('-') && !a.starts_with("--") && {
                // Letters up to the first that takes a value (`-m`, `-F`, `-C`, `-c`).
                let letters: String = a[1..]
                    .chars()
                    .take_while(|c| !matches!(c, 'm' | 'F' | 'C' | 'c' | 't'))
                    .collect();
                letters.contains('n')
            })
    };
    !rest[1..].iter().take_while(|a| *a != "--").any(skips)
}

/// Whether `argv` is an interpreter given code on its command line (`python3 -c`, `node
/// -e`/`-p`, `ruby -e`, `perl -e`) whose code uses `module` as a whole name (`tomllib`,
/// `yaml.safe_load`, `JSON.parse`).
fn runs_inline(argv: &[String], module: &str) -> bool {
    let Some(program) = argv.first() else {
        return false;
    };
    let base = program.rsplit('/').next().unwrap_or(program);
    let flag = if base.starts_with("python") {
        &["-c"][..]
    } else if ["node", "deno", "bun", "ruby", "perl"].contains(&base) {
        &["-e", "-p", "--eval", "--print"][..]
    } else {
        return false;
    };
    let Some(at) = argv.iter().position(|a| flag.contains(&a.as_str())) else {
        return false;
    };
    argv.get(at + 1).is_some_and(|code| {
        code.match_indices(module).any(|(i, _)| {
            let name_char = |c: char| c.is_alphanumeric() || c == '_';
            !code[..i].chars().next_back().is_some_and(name_char)
                && !code[i + module.len()..]
                    .chars()
                    .next()
                    .is_some_and(name_char)
        })
    })
}

const LISTING: &[&str] = &[
    "--no-run",
    "--collect-only",
    "--co",
    "--list",
    "--listTests",
    "--list-tests",
    "--dry-run",
    "--help",
    "-h",
    "--version",
];

fn is_partial(runner: Runner, argv: &[String]) -> bool {
    let after_sub = |skip: usize| argv.iter().skip(skip);
    match runner {
        Runner::Cargo => {
            let mut it = after_sub(2).take_while(|a| *a != "--").peekable();
            while let Some(a) = it.next() {
                if matches!(
                    a.as_str(),
                    "--test" | "--lib" | "--bin" | "--doc" | "--example" | "--bench"
                ) {
                    return true;
                }
                if matches!(
                    a.as_str(),
                    "-p" | "--package"
                        | "--features"
                        | "-F"
                        | "-j"
                        | "--jobs"
                        | "--target"
                        | "--manifest-path"
                        | "--profile"
                        | "--target-dir"
                        | "--color"
                        | "--exclude"
                ) {
                    it.next();
                    continue;
                }
                if !a.starts_with('-') {
                    return true;
                }
            }
            argv.iter()
                .skip_while(|a| *a != "--")
                .any(|a| a == "--exact")
        }
        Runner::Pytest => argv
            .iter()
            .any(|a| a.contains("::") || a == "-k" || a.starts_with("-k=")),
        Runner::Go => argv.iter().any(|a| a == "-run" || a.starts_with("-run=")),
        Runner::Jest | Runner::Vitest => argv.iter().any(|a| {
            matches!(a.as_str(), "-t" | "--testNamePattern" | "--grep")
                || a.starts_with("--testNamePattern=")
        }),
        Runner::Mocha => argv.iter().any(|a| a == "-g" || a == "--grep"),
        Runner::NodeTest => argv.iter().any(|a| a.starts_with("--test-name-pattern")),
        Runner::Unittest => argv
            .iter()
            .skip(1)
            .any(|a| !a.starts_with('-') && a != "discover" && a.matches('.').count() >= 2),
        _ => false,
    }
}

/// The option (or argument) by which a run selects tests by their names (`-t sum`, `-k
/// title`, `cargo test parse`, `--grep max`): such a run is a part of its suite.
fn name_filter(runner: Runner, argv: &[String]) -> Option<String> {
    let argv = shellrun::peel(argv);
    let flag = |flags: &[&str]| {
        argv.iter().position(|a| {
            flags
                .iter()
                .any(|f| a == f || (f.starts_with("--") && a.starts_with(&format!("{f}="))))
        })
    };
    let with_value = |i: usize| {
        let a = &argv[i];
        match argv.get(i + 1).filter(|_| !a.contains('=')) {
            Some(v) => format!("{a} {v}"),
            None => a.clone(),
        }
    };
    match runner {
        Runner::Cargo => {
            // A positional argument of `cargo test` (not an option's value) filters by
            // name; so does one after `--`. The subcommand is `test`, or `nextest run`,
            // after a toolchain (`cargo +nightly test`).
            let sub = argv
                .iter()
                .skip(1)
                .position(|a| a == "test" || a == "run")
                .map_or(argv.len(), |i| i + 2);
            let mut it = argv.iter().skip(sub).take_while(|a| *a != "--").peekable();
            while let Some(a) = it.next() {
                if matches!(
                    a.as_str(),
                    "-p" | "--package"
                        | "--features"
                        | "-F"
                        | "-j"
                        | "--jobs"
                        | "--target"
                        | "--manifest-path"
                        | "--profile"
                        | "--target-dir"
                        | "--color"
                        | "--exclude"
                        | "--test"
                        | "--bin"
                        | "--example"
                        | "--bench"
                        | "-Z"
                        | "--config"
                ) {
                    it.next();
                    continue;
                }
                if !a.starts_with('-') {
                    return Some(a.clone());
                }
            }
            argv.iter()
                .skip_while(|a| *a != "--")
                .skip(1)
                .find(|a| !a.starts_with('-'))
                .cloned()
        }
        // By marker (`-m "not slow"`) as by name: a selection, not the suite.
        Runner::Pytest => flag(&["-k", "-m", "--deselect"])
            .map(with_value)
            .or_else(|| argv.iter().find(|a| a.contains("::")).cloned()),
        Runner::Go => flag(&["-run", "-skip"]).map(with_value),
        Runner::Jest | Runner::Vitest => {
            flag(&["-t", "--testNamePattern", "--testPathIgnorePatterns"]).map(with_value)
        }
        Runner::Mocha => flag(&["-g", "--grep", "-f", "--fgrep", "--invert"]).map(with_value),
        Runner::NodeTest => flag(&["--test-name-pattern", "--test-skip-pattern"]).map(with_value),
        // `python3 -m unittest tests.test_text.TextTest.test_clamp`: a test by its name.
        Runner::Unittest => argv
            .iter()
            .skip(1)
            .find(|a| !a.starts_with('-') && a.matches('.').count() >= 2 && !a.ends_with(".py"))
            .cloned(),
        _ => None,
    }
}

fn checks<'r>(runs: &'r [Run], patterns: &[String], tests: bool, cwd: &Path) -> Vec<Check<'r>> {
    let mut out = Vec::new();
    for run in runs {
        let before = out.len();
        for stage in run.stages.iter().filter(|s| s.ran != Ran::No) {
            let peeled = shellrun::peel(&stage.argv);
            let Some(pattern) = patterns
                .iter()
                .find(|p| matches_either(&stage.argv, &peeled, p))
            else {
                continue;
            };
            let runner = match summary::runner_of(&peeled) {
                Runner::Other => script_runner(&peeled, cwd),
                known => known,
            };
            let key = if runner == Runner::Other {
                pattern.clone()
            } else {
                format!("{runner:?}")
            };
            // `npm test && jest && mocha` ran three runners, each with its own summary in
            // the one output; a second run of the same runner in one command shows only
            // one summary to tell them apart by. A check other than tests has no summary to
            // confuse: `cargo fmt && cargo fmt --check` ran the check named after the
            // formatter.
            if out[before..]
                .iter()
                .any(|c: &Check| c.key == key && (tests || c.stage.argv == stage.argv))
            {
                continue;
            }
            let listing = LISTING
                .iter()
                .find(|l| stage.argv.iter().any(|a| a == *l))
                .copied();
            out.push(Check {
                run,
                stage,
                runner,
                key,
                listing,
                partial: is_partial(runner, &peeled),
            });
        }
        // A command outside the list (`./scripts/test.sh`, `python tests/run.py`) whose
        // output holds a test runner's summary ran the tests all the same.
        if tests && out.len() == before {
            let Some(stage) = run
                .stages
                .iter()
                .find(|s| s.owns_status)
                .or(run.stages.last())
            else {
                continue;
            };
            let peeled = shellrun::peel(&stage.argv);
            let named = summary::runner_of(&peeled);
            // Only a runner's own summary shows tests ran: `cargo check` is cargo, and runs
            // none.
            // An install (`npm ci`, `pip install`) prints what it fetched, not a test run's
            // result, whatever its output holds.
            let installs = matches!(
                peeled.get(1).map(String::as_str),
                Some("ci" | "install" | "i" | "add" | "sync")
            );
            if summary::parse(named, &run.output).is_none() || only_ignored(&peeled) || installs {
                continue;
            }
            out.push(Check {
                run,
                stage,
                runner: named,
                key: run.command.clone(),
                listing: LISTING
                    .iter()
                    .find(|l| stage.argv.iter().any(|a| a == *l))
                    .copied(),
                partial: is_partial(named, &peeled),
            });
        }
    }
    out
}

/// Whether a `git stash push` names paths (after `--`, or as its arguments) none of
/// which holds or is held by a path the run selects: the run still saw its own paths'
/// changes. A run that selects nothing (the whole project) sees the stash.
fn stash_leaves_selection(stash: &[String], selection: &[String]) -> bool {
    if selection.is_empty() || stash.get(2).map(String::as_str) != Some("push") {
        return false;
    }
    let args = &stash[3..];
    let paths: Vec<&str> = match args.iter().position(|a| a == "--") {
        Some(i) => args[i + 1..].iter().map(String::as_str).collect(),
        None => {
            let mut out = Vec::new();
            let mut it = args.iter();
            while let Some(a) = it.next() {
                if matches!(a.as_str(), "-m" | "--message") {
                    it.next();
                } else if !a.starts_with('-') {
                    out.push(a.as_str());
                }
            }
            out
        }
    };
    let norm = |p: &str| p.trim_start_matches("./").trim_end_matches('/').to_owned();
    !paths.is_empty()
        && paths.iter().all(|stashed| {
            let stashed = norm(stashed);
            let plain = !stashed.is_empty() && !stashed.contains(['*', '?', ':']);
            plain
                && selection.iter().all(|sel| {
                    let sel = norm(sel);
                    let (sel, stashed) = (Path::new(&sel), Path::new(&stashed));
                    !sel.starts_with(stashed) && !stashed.starts_with(sel)
                })
        })
}

fn outcome(c: &Check, tests: bool) -> Outcome {
    let run = c.run;
    if let Some(l) = c.listing {
        return Outcome::Unknown(format!("it ran with `{l}`, which runs no test"));
    }
    if let Some(pipe) = shellrun::cut_by_pipe(c.stage, &run.output) {
        return Outcome::Unknown(format!(
            "its output was cut by `| {}`, so its end (the result) was not seen",
            cut(&pipe)
        ));
    }
    // `git stash && pytest && git stash pop`: the run saw the tree without the turn's
    // uncommitted changes, not the work the message reports.
    if let Some(at) = run.stages.iter().position(|s| std::ptr::eq(s, c.stage)) {
        // `git stash push -- libs/numkit && pytest libs/textkit`: a stash of some paths
        // leaves a run of other paths its changes.
        let selection = super::named::selection_paths(c.runner, &shellrun::peel(&c.stage.argv));
        let stashed = run.stages[..at].iter().rev().find_map(|s| {
            (s.argv.first().is_some_and(|p| p == "git")
                && s.argv.get(1).is_some_and(|a| a == "stash"))
            .then(|| {
                !matches!(
                    s.argv.get(2).map(String::as_str),
                    Some("pop" | "apply" | "list" | "show" | "drop")
                ) && !stash_leaves_selection(&s.argv, &selection)
            })
        });
        if stashed == Some(true) {
            return Outcome::Failed(
                "it ran after `git stash` put the turn's uncommitted changes away, so it tested the tree without them".into(),
            );
        }
    }
    // `make -i check` (or `-k`'s kin) that went on past a failing recipe and exited 0:
    // make says so itself ("make: [Makefile:3: check] Error 1 (ignored)").
    if let Some(line) = run
        .output
        .lines()
        .find(|l| l.contains("] Error ") && l.trim_end().ends_with("(ignored)"))
    {
        return Outcome::Failed(format!(
            "make went on past a failing step: \"{}\"",
            cut(line.trim())
        ));
    }
    // A syntax check that printed its own error failed, whatever status a loop or a pipe
    // left (`for f in a.py b.py; do python3 -m py_compile "$f"; done` exits with the last
    // file's status).
    let program = c
        .stage
        .argv
        .first()
        .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
    let own_errors: &[&str] = if program.starts_with("python") {
        &["SyntaxError", "IndentationError", "TabError"]
    } else if program == "node" {
        &["SyntaxError"]
    } else {
        &[]
    };
    let shell = matches!(program, "bash" | "sh" | "dash" | "zsh" | "ksh");
    if !tests {
        if let Some(line) = run.output.lines().map(str::trim).find(|l| {
            own_errors.iter().any(|e| l.starts_with(e)) || shell && l.contains(": syntax error")
        }) {
            return Outcome::Failed(format!("it printed \"{}\"", cut(line)));
        }
    }
    let summary = if tests {
        summary::parse(c.runner, &run.output)
    } else {
        None
    };
    // `timeout 5 python3 -m unittest -v; echo …`: a run that printed its tests one by one
    // and no summary was stopped before it finished (killed, crashed): it passed nothing,
    // whatever status the line after it left.
    if tests && summary.is_none() {
        if let Some(last) = started_without_summary(c.runner, &run.output) {
            return Outcome::Failed(format!(
                "it stopped before its summary (the last test it started: \"{}\")",
                cut(last)
            ));
        }
    }
    if summary.is_none() && c.stage.ran == Ran::Maybe {
        return Outcome::Unknown(
            "the command failed before or at it, so it may not have run (and it printed no summary)"
                .into(),
        );
    }
    if let Some(s) = summary {
        if !s.ok() {
            return Outcome::Failed(format!("its summary reports {} failed", s.failed));
        }
        // "Ran 0 tests … OK", a filter that matched nothing: a run of no test backs no
        // claim about tests. (Not through a pipe: `cargo test | tail -3` shows only its
        // last section, the doc tests' 0.)
        if s.counted && s.passed == 0 && s.skipped == 0 && c.stage.piped_into.is_empty() {
            return Outcome::Unknown("it ran no test (its summary counts none)".into());
        }
        if c.stage.owns_status && run.is_error {
            return Outcome::Failed("it exited with an error".into());
        }
        return Outcome::Passed(Some(s));
    }
    if c.stage.owns_status || c.stage.and_chain && !run.is_error {
        return if run.is_error {
            Outcome::Failed("it exited with an error".into())
        } else if !tests && output_has_errors(&run.output) && !c.stage.piped_into.is_empty() {
            Outcome::Failed("its output reports errors".into())
        } else {
            Outcome::Passed(None)
        };
    }
    if !c.stage.piped_into.is_empty() {
        // The exit status is the pipe's: only the output can tell.
        return if output_has_errors(&run.output) || run.output.contains("FAILED") {
            Outcome::Failed("its output reports errors".into())
        } else if tests {
            Outcome::Unknown(
                "its exit status was hidden by a pipe and it printed no summary".into(),
            )
        } else {
            Outcome::Passed(None)
        };
    }
    // `if cargo fmt --check >/dev/null 2>&1; then echo "fmt: ok"; fi` that printed no
    // "fmt: ok": the `if` took the other way.
    match shellrun::status_by_branch(&run.command, &c.stage.argv, &run.output) {
        Some(true) => return Outcome::Passed(None),
        Some(false) => {
            return Outcome::Failed(
                "it was an `if`'s condition, and the `then` branch's message is not in the output: the condition failed".into(),
            )
        }
        None => {}
    }
    Outcome::Unknown("other commands ran after it, so its exit status is not its own".into())
}

/// A run after the write at `after` that compiled what a `cargo build` check built, and
/// succeeded: a `cargo build`, `test`, `run` or `bench` of the same packages (the same
/// `-p` list, or the whole workspace where the check built it), whose exit status is its
/// own. "`cargo build --workspace` went through" told of a run before a version bump, when
/// `cargo test --workspace` built everything after it.
fn cargo_compiled_after<'r>(check: &Check, after: usize, f: &'r Facts) -> Option<&'r Run> {
    let peeled = shellrun::peel(&check.stage.argv);
    if peeled.first().map(String::as_str) != Some("cargo")
        || peeled.get(1).map(String::as_str) != Some("build")
    {
        return None;
    }
    let scope = |argv: &[String]| -> Vec<String> {
        let mut out: Vec<String> = super::named::cargo_args(argv)
            .into_iter()
            .filter(|a| !a.starts_with("--release") && !a.starts_with("-q") && *a != "--quiet")
            .map(|a| {
                if a == "--all" {
                    "--workspace".into()
                } else {
                    a.to_owned()
                }
            })
            .collect();
        out.sort();
        out
    };
    let built = scope(&peeled);
    f.runs
        .iter()
        .filter(|r| r.at > after && !r.is_error)
        .find(|r| {
            r.stages.iter().any(|s| {
                let argv = shellrun::peel(&s.argv);
                argv.first().map(String::as_str) == Some("cargo")
                    && matches!(
                        argv.get(1).map(String::as_str),
                        Some("build" | "test" | "run" | "bench")
                    )
                    && s.owns_status
                    && {
                        let theirs = scope(&argv);
                        built.iter().all(|a| theirs.contains(a))
                            || theirs.iter().any(|a| a == "--workspace")
                                && !theirs.iter().any(|a| a.starts_with("--exclude"))
                    }
            })
        })
}

/// The last test line of a runner that prints its tests one by one (unittest's `-v`
/// `test_x (tests.test_a.A.test_x) ... ok`, pytest's `-v` `tests/test_a.py::test_x
/// PASSED`), in output that holds no summary of the run.
fn started_without_summary(runner: Runner, output: &str) -> Option<&str> {
    let is_test_line = |l: &str| match runner {
        Runner::Unittest => l.starts_with("test") && l.contains(" (") && l.contains(") ... "),
        Runner::Pytest => {
            l.contains("::")
                && [" PASSED", " FAILED", " ERROR"]
                    .iter()
                    .any(|w| l.contains(w))
        }
        _ => false,
    };
    let last = output.lines().map(str::trim).rfind(|l| is_test_line(l))?;
    // A runner's own closing lines, in case the summary parser did not take them.
    let closed = runner == Runner::Unittest
        && output.lines().map(str::trim).any(|l| {
            l.starts_with("Ran ") || l == "OK" || l.starts_with("OK (") || l.starts_with("FAILED (")
        });
    (!closed).then_some(last)
}

fn output_has_errors(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("error[") || l.starts_with("error:") || l.starts_with("ERROR")
    })
}

/// The turn's position of its last write that the checks can see: a write tool or a
/// shell write, other than the check commands' own, to a path that is not test-irrelevant
/// (`audit.test_irrelevant`).
/// `first_run` is the place of the earliest run of the claim's commands: a write before
/// it makes no run stale, so it is returned without judging whether the tests see it
/// (which needs the globs compiled and the repository opened).
fn last_relevant_write(
    f: &Facts,
    check_patterns: &[&String],
    first_run: usize,
) -> Option<(usize, PathBuf)> {
    last_relevant_write_but(f, check_patterns, first_run, &|_| false)
}

/// Whether a test run may read `file`, a test file: its selection (through a package
/// script's command) names it or a folder holding it, or, with no paths, the runner's own
/// default patterns take it. Runners whose defaults are not known here may.
fn selects_file(c: &Check, file: &Path, f: &Facts) -> bool {
    let rel = file.strip_prefix(&f.root).unwrap_or(file);
    // A test file by its name, or a program file in a folder of specs or tests by its
    // name (`mspec/sum.js`, `unit_tests/a.py`).
    let in_specs = rel.parent().is_some_and(|d| {
        d.components().any(|c| {
            let c = c.as_os_str().to_string_lossy().to_lowercase();
            c.contains("spec") || c.contains("test")
        })
    }) && rel
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "js" | "mjs" | "cjs" | "ts" | "py" | "rb"));
    if !in_specs && !super::vocab::test_file_span(&rel.to_string_lossy()) {
        return true;
    }
    let stages: Vec<Vec<String>> = match recipe_script(&c.stage.argv, f.ev.cwd) {
        Some(script) => shellrun::stages(&script)
            .into_iter()
            .map(|s| shellrun::peel(&s.argv))
            .filter(|a| summary::runner_of(a) != Runner::Other)
            .collect(),
        None => vec![shellrun::peel(&c.stage.argv)],
    };
    if stages.is_empty() {
        return true;
    }
    stages.iter().any(|argv| {
        let runner = summary::runner_of(argv);
        let paths = super::named::selection_paths(runner, argv);
        if !paths.is_empty() {
            return paths.iter().any(|p| {
                let p = canonical_lexical(f.ev.cwd, p);
                file.starts_with(&p) || p.starts_with(file.with_extension(""))
            });
        }
        let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
        match runner {
            Runner::NodeTest => node_test_default(rel),
            Runner::Jest | Runner::Vitest => {
                name.contains(".test.")
                    || name.contains(".spec.")
                    || rel.components().any(|c| c.as_os_str() == "__tests__")
            }
            // mocha reads `./test` (not its subfolders) unless told otherwise.
            Runner::Mocha => rel.parent() == Some(Path::new("test")),
            _ => true,
        }
    })
}

/// [`last_relevant_write`], leaving out the writes `skip` says the checks cannot read.
fn last_relevant_write_but(
    f: &Facts,
    check_patterns: &[&String],
    first_run: usize,
    skip: &dyn Fn(&Path) -> bool,
) -> Option<(usize, PathBuf)> {
    let check_at: std::collections::HashSet<usize> = f
        .runs
        .iter()
        .filter(|r| {
            r.stages.iter().any(|s| {
                let peeled = shellrun::peel(&s.argv);
                check_patterns
                    .iter()
                    .any(|p| matches_either(&s.argv, &peeled, p))
            })
        })
        .map(|r| r.at)
        .collect();
    let mut candidates: Vec<&(usize, PathBuf, bool)> = f
        .writes
        .iter()
        .filter(|(at, _, _)| !check_at.contains(at))
        // Only the project's own files: a scratch file in /tmp is nothing the tests see.
        .filter(|(_, p, _)| p.starts_with(&f.root))
        // A write to the whole project (`git clean -fd` takes away what git does not
        // track) cannot be shown to change what a test sees: it makes no run stale.
        .filter(|(_, p, _)| *p != f.root)
        .filter(|(_, p, _)| !skip(p))
        .collect();
    candidates.sort_by_key(|(at, _, _)| std::cmp::Reverse(*at));
    match candidates.first() {
        None => return None,
        Some((at, p, _)) if *at < first_run => return Some((*at, p.clone())),
        Some(_) => {}
    }
    let irrelevant = super::glob_set(&f.ev.policy.test_irrelevant);
    // Git's ignore rules tell generated files (logs, build output) from sources.
    let workdir = f.workdir();
    let ignored = |p: &Path| {
        let (Some(r), Some(w)) = (f.repo(), workdir.as_ref()) else {
            return false;
        };
        p.strip_prefix(w).ok().is_some_and(|rel| {
            !rel.as_os_str().is_empty() && r.status_should_ignore(rel).unwrap_or(false)
        })
    };
    candidates
        .into_iter()
        .find(|(at, p, _)| {
            let rel = p.strip_prefix(&f.root).unwrap_or(p);
            *at < first_run
                || !irrelevant.as_ref().is_some_and(|s| s.is_match(rel))
                    && !ignored(p)
                    && !comment_only_edit(f, *at)
                    && !mode_only_command(f, *at)
        })
        .map(|(at, p, _)| (*at, p.clone()))
}

/// The files a folder the turn made holds now (`mkdir -p logs`, then a server's log in
/// it): each is a write of its own to judge. `None` when the folder was there when the
/// turn began, is no folder, or holds more than a few hundred files.
fn files_of_a_folder_made(dir: &Path, f: &Facts) -> Option<Vec<PathBuf>> {
    const LIMIT: usize = 500;
    if !dir.is_dir() || f.start_has_dir(dir) {
        return None;
    }
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).ok()?.flatten() {
            let kind = entry.file_type().ok()?;
            if kind.is_dir() {
                pending.push(entry.path());
            } else if files.len() == LIMIT {
                return None;
            } else {
                files.push(entry.path());
            }
        }
    }
    Some(files)
}

/// Whether a run's command line names `file` by its name (`python -m doctest
/// docs/usage.md`, `jest --config ci/jest.json`): the run reads it.
fn named_by_a_run(file: &Path, runs: &[Check]) -> bool {
    file.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|name| runs.iter().any(|c| c.run.command.contains(name)))
}

/// Words that tell a change undone or a file put back as it was ("reverted it", "l-am
/// restaurat din git", "wiederhergestellt", "恢复了"), in the tables' languages: a file
/// the message tells so may be as the turn found it.
const UNDONE: &[&str] = &[
    "revert",
    "restore",
    "threw away",
    "thrown away",
    "discard",
    "wiped",
    "git reset",
    "git stash",
    "git checkout --",
    "git restore",
    "undid",
    "undo",
    "rolled back",
    "roll back",
    "put it back",
    "back out",
    "backed out",
    "restaur",
    "ripristin",
    "wiederhergestellt",
    "zurückgesetzt",
    "rückgängig",
    "hersteld",
    "teruggezet",
    "ongedaan",
    "przywróci",
    "cofnął",
    "cofnięt",
    "obnovil",
    "obnoven",
    "vrátil",
    "восстанов",
    "откатил",
    "відновив",
    "відновлен",
    "geri al",
    "geri yükle",
    "geri döndür",
    "khôi phục",
    "hoàn tác",
    "memulihkan",
    "dipulihkan",
    "dikembalikan",
    "mengembalikan",
    "恢复",
    "还原",
    "還原",
    "撤销",
    "復元",
    "元に戻",
    "取り消",
    "복원",
    "되돌",
    "שחזר",
    "החזרתי",
    "استعد",
    "استرجع",
    "تراجع",
    "بازگرداند",
    "بازیابی",
    "पुनर्स्थापित",
    "återställ",
    "gjenopprett",
    "tilbakestil",
    "gendann",
    "fortryd",
    "palautin",
    "palautettu",
    "visszaállít",
    "helyreállít",
    "επανέφερα",
    "επαναφορ",
    "възстанов",
    "върнах",
    "vratio",
    "vraćen",
    "vrnil",
    "atjaunoj",
    "atkūri",
    "taastasin",
    "rejesha",
    "ibinalik",
    "pulihkan",
];

/// Extensions of program files: what a test run may load and run, whoever names it.
const PROGRAM_EXTENSIONS: &[&str] = &[
    "js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx", "py", "pyi", "rs", "go", "rb", "java",
    "kt", "scala", "swift", "php", "pl", "pm", "lua", "sh", "bash", "zsh", "c", "h", "cc", "cpp",
    "hpp", "cs", "ex", "exs", "erl", "hs", "ml", "clj", "dart", "r", "jl", "vue", "svelte",
];

/// Whether `file` is a scratch file: made by the turn (not in the tree it began with), gone
/// at its end (`jq … > app.json.new && mv app.json.new app.json`), and no program or test
/// (what it held went where it was moved, a write of its own).
fn scratch_file_gone(file: &Path, f: &Facts) -> bool {
    if file.exists()
        || file
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| PROGRAM_EXTENSIONS.contains(&x))
    {
        return false;
    }
    f.lacked_at_start(file)
}

/// Whether `file`, a data file (`config/app.json`, `settings.yaml`, `logs/server.log`)
/// outside the tests' folders, is named by its path by no source file of the project: no program or test
/// reads it by that name, so no test run can be shown to see it (a test that writes its
/// own `app.json` in a temporary folder does not read this one).
fn data_file_named_by_no_source(file: &Path, f: &Facts) -> bool {
    const SOURCES: &[&str] = &[
        "js", "mjs", "cjs", "ts", "mts", "cts", "py", "rs", "go", "rb", "java", "sh", "json",
        "toml", "cfg", "ini",
    ];
    let Ok(rel) = file.strip_prefix(&f.root) else {
        return false;
    };
    let rel_text = rel.to_string_lossy().replace('\\', "/");
    let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // The tools' own settings (`package.json`, `pyproject.toml`, `jest.config.json`,
    // `pytest.ini`) shape every run.
    let tools_own = matches!(
        name,
        "package.json"
            | "package-lock.json"
            | "tsconfig.json"
            | "pyproject.toml"
            | "setup.cfg"
            | "tox.ini"
            | "pytest.ini"
            | "Cargo.toml"
            | "Cargo.lock"
            | ".env"
    ) || name.contains("jest")
        || name.contains("babel")
        || name.contains("mocha")
        || name.contains("vitest")
        || name.starts_with('.');
    // Data in any form (settings, a server's log, a pid file, a CSV): a file of no program
    // language and not a script without an extension.
    let data = super::rows::is_data_file(&rel_text)
        || rel
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| !PROGRAM_EXTENSIONS.contains(&x.to_lowercase().as_str()));
    let in_tests = rel.components().any(|c| {
        let c = c.as_os_str().to_string_lossy().to_lowercase();
        c.contains("test") || c.contains("spec") || c.contains("fixture")
    });
    // A package a turn packed (`npm pack`'s `stats-1.0.0.tgz`) is output, at the root too.
    let archive = rel
        .extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| matches!(x, "tgz" | "gz" | "tar" | "zip" | "whl" | "jar" | "crate"));
    if !data || tools_own || in_tests || !rel_text.contains('/') && !archive {
        return false;
    }
    no_source_says(
        f,
        file,
        |path| {
            path.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| SOURCES.contains(&x))
                || path.file_name().is_some_and(|n| n == "Makefile")
        },
        |_, text| text.contains(&rel_text),
    )
}

/// The files a folder held when the turn began, when the folder is gone now (`git rm -r
/// spec`, `rm -r build`): read from the tree of the commit the turn began at. `None` when
/// it is there, was no folder then, or holds more than a few hundred files.
fn files_of_a_folder_taken_away(dir: &Path, f: &Facts) -> Option<Vec<PathBuf>> {
    const LIMIT: usize = 500;
    if dir.exists() {
        return None;
    }
    let (tree, rel) = f.at_start(dir)?;
    let sub = tree
        .get_path(&rel)
        .ok()?
        .to_object(f.repo()?)
        .ok()?
        .into_tree()
        .ok()?;
    let mut files = Vec::new();
    let mut too_many = false;
    let _ = sub.walk(git2::TreeWalkMode::PreOrder, |parent, e| {
        if e.kind() == Some(git2::ObjectType::Blob) {
            if files.len() == LIMIT {
                too_many = true;
                return git2::TreeWalkResult::Abort;
            }
            files.push(dir.join(parent).join(e.name().unwrap_or("")));
        }
        git2::TreeWalkResult::Ok
    });
    (!too_many && !files.is_empty()).then_some(files)
}

/// Whether `file`, a JavaScript or Python program file that is no test, is named by no
/// other source file of its language in the project: no test imports it, runs it or
/// reads it by name, so no test run can see it. Its stem must be long enough to tell
/// (three characters); past 5 000 entries, or a file that cannot be read, it may be named.
fn named_by_no_source(file: &Path, f: &Facts) -> bool {
    let family: &[&str] = match file.extension().and_then(|e| e.to_str()) {
        Some("js" | "mjs" | "cjs" | "ts" | "mts" | "cts") => {
            &["js", "mjs", "cjs", "ts", "mts", "cts", "json"]
        }
        Some("py") => &["py", "toml", "cfg", "ini"],
        _ => return false,
    };
    let rel = file.strip_prefix(&f.root).unwrap_or(file);
    if super::vocab::test_file_span(&rel.to_string_lossy()) {
        return false;
    }
    let Some(stem) = file.file_stem().and_then(|s| s.to_str()) else {
        return false;
    };
    if stem.len() < 3 || stem == "index" || stem == "__init__" || stem == "main" {
        return false;
    }
    // JavaScript loads a file by its path (`require('../bin/b64')`, `'bin/b64.js'`): a
    // word of the same letters (a parameter `b64`) loads nothing. Python imports a module
    // by its name, a word.
    let by_path = family.contains(&"js");
    let names = |text: &str| {
        text.match_indices(stem).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + stem.len()..].chars().next();
            let word = before.is_none_or(|c| !c.is_alphanumeric() && c != '_')
                && after.is_none_or(|c| !c.is_alphanumeric() && c != '_');
            let pathlike =
                before.is_some_and(|c| matches!(c, '/' | '\'' | '"' | '`')) || after == Some('.');
            word && (!by_path || pathlike)
        })
    };
    no_source_says(
        f,
        file,
        |path| {
            path.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| family.contains(&x))
        },
        |path, mut text| {
            // A package's scripts other than its tests' (`"build": "node
            // scripts/build.js"`) run nothing a test run does.
            if path.file_name().is_some_and(|n| n == "package.json") {
                if let Ok(mut json) = serde_json::from_str::<serde_json::Value>(&text) {
                    if let Some(scripts) = json.get_mut("scripts").and_then(|s| s.as_object_mut()) {
                        scripts.retain(|k, _| {
                            k.starts_with("test")
                                || k.starts_with("pretest")
                                || k.starts_with("posttest")
                        });
                    }
                    text = json.to_string();
                }
            }
            names(&text)
        },
    )
}

/// The first `cap` bytes of a text file, or `None` when it cannot be read as UTF-8.
fn read_capped(path: &Path, cap: u64) -> Option<String> {
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|h| std::io::Read::read_to_string(&mut std::io::Read::take(h, cap), &mut text))
        .ok()
        .map(|_| text)
}

/// Whether no source file of the project (`is_source`, past `file` itself) `says` what is
/// looked for: a walk of the work tree past `.git`, dependencies and build output. Past
/// 5 000 entries, or a file that cannot be read, one may.
fn no_source_says(
    f: &Facts,
    file: &Path,
    is_source: impl Fn(&Path) -> bool,
    mut says: impl FnMut(&Path, String) -> bool,
) -> bool {
    const LIMIT: usize = 5_000;
    const CAP: u64 = 256 << 10;
    let mut stack = vec![f.root.clone()];
    let mut seen = 0usize;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return false;
        };
        for e in entries.flatten() {
            seen += 1;
            if seen > LIMIT {
                return false;
            }
            let path = e.path();
            let Ok(kind) = e.file_type() else {
                return false;
            };
            if kind.is_dir() {
                if !matches!(
                    e.file_name().to_string_lossy().as_ref(),
                    ".git" | "node_modules" | "target" | ".venv" | "venv" | "__pycache__"
                ) {
                    stack.push(path);
                }
                continue;
            }
            if !is_source(&path) || path == file {
                continue;
            }
            let Some(text) = read_capped(&path, CAP) else {
                return false;
            };
            if says(&path, text) {
                return false;
            }
        }
    }
    true
}

/// Whether the call at `at` is a shell command that only changed files' modes or owners
/// (`chmod +x scripts/backup.sh`): no file's text changed, nothing a syntax check or a
/// test reads, so it makes no run stale.
fn mode_only_command(f: &Facts, at: usize) -> bool {
    const MODE: &[&str] = &["chmod", "chown", "chgrp"];
    // Programs that only read and print (a redirection, which writes, is ruled out).
    const READS: &[&str] = &[
        "ls", "stat", "echo", "true", "test", "[", "printf", "file", "cut", "head", "tail", "cat",
        "wc", "grep", "sort", "uniq", "tr", "basename", "dirname", "realpath", "readlink", "pwd",
    ];
    let Some(run) = f.runs.iter().find(|r| r.at == at) else {
        return false;
    };
    let program = |s: &Stage| {
        s.argv
            .first()
            .map_or("", |p| p.rsplit('/').next().unwrap_or(p))
            .to_owned()
    };
    !run.command.contains('>')
        && run
            .stages
            .iter()
            .any(|s| MODE.contains(&program(s).as_str()))
        && run.stages.iter().all(|s| {
            let p = program(s);
            MODE.contains(&p.as_str()) || READS.contains(&p.as_str())
        })
}

/// Whether the call at `at` is an edit that only changed comments (`//`, `#`, `/* */`,
/// docstrings) or trailing blanks: nothing a test can observe, so it makes no run stale. Only an edit tool's
/// own old and new text can show it; a whole-file write or a shell write cannot.
fn comment_only_edit(f: &Facts, at: usize) -> bool {
    let Some(Entry::ToolUse { name, input, .. }) = f.ev.turn.events.get(at) else {
        return false;
    };
    let text = |v: &serde_json::Value, key: &str| v[key].as_str().unwrap_or("").to_owned();
    let pairs: Vec<(String, String)> = match name.as_str() {
        "Edit" => vec![(text(input, "old_string"), text(input, "new_string"))],
        "MultiEdit" => input["edits"]
            .as_array()
            .map(|edits| {
                edits
                    .iter()
                    .map(|e| (text(e, "old_string"), text(e, "new_string")))
                    .collect()
            })
            .unwrap_or_default(),
        _ => return false,
    };
    !pairs.is_empty()
        && pairs
            .iter()
            .all(|(old, new)| changed_lines_are_comments(old, new))
}

/// Whether every line that differs between `old` and `new` is a comment, a docstring or
/// blank, or differs only in trailing blanks.
fn changed_lines_are_comments(old: &str, new: &str) -> bool {
    fn comment_lines(text: &str) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        let mut in_doc: Option<&str> = None;
        for line in text.lines() {
            let t = line.trim();
            let mut comment = in_doc.is_some();
            if let Some(q) = in_doc {
                if t.contains(q) {
                    in_doc = None;
                }
            } else if let Some(q) = ["\"\"\"", "'''"].into_iter().find(|q| t.starts_with(q)) {
                comment = true;
                // A docstring opened and not closed on the same line goes on.
                if t.len() < 6 || !t[3..].contains(q) {
                    in_doc = Some(q);
                }
            }
            comment |= t.is_empty()
                || t.starts_with("//")
                || t.starts_with("/*")
                || t.starts_with('*')
                || t.starts_with("<!--")
                || t.starts_with('#') && !t.starts_with("#[") && !t.starts_with("#!");
            // A doc comment's example is a test of its own (rustdoc's fences, doctest's
            // prompts).
            comment &= !t.contains("```") && !t.contains(">>>");
            out.push((t.to_owned(), comment));
        }
        out
    }
    // Trailing blanks taken away (no program reads them), the same lines otherwise, each
    // after the first (an edit's text may start inside its first line) as indented as
    // before: Python's and YAML's indentation is code.
    let indent = |l: &str| l.len() - l.trim_start().len();
    let (old_lines, new_lines): (Vec<&str>, Vec<&str>) =
        (old.lines().collect(), new.lines().collect());
    let blanks_only = old != new
        && old_lines.len() == new_lines.len()
        && old_lines
            .iter()
            .zip(&new_lines)
            .enumerate()
            .all(|(i, (a, b))| a.trim() == b.trim() && (i == 0 || indent(a) == indent(b)));
    let (old, new) = (comment_lines(old), comment_lines(new));
    let only_comments = |a: &[(String, bool)], b: &[(String, bool)]| {
        a.iter()
            .filter(|(l, _)| !b.iter().any(|(m, _)| m == l))
            .all(|(_, comment)| *comment)
    };
    // A change inside a line of code (`a + b` → `a - b`) shows as a changed code line.
    blanks_only || old != new && only_comments(&old, &new) && only_comments(&new, &old)
}

/// The files a build or lint check reads when each of its syntax-checking stages (its
/// own, or its recipe's: `make check` whose `lint` is `node --check src/stats.js`) is a
/// checker of the files it is given (`node --check`, `bash -n`, `python -m py_compile`,
/// `php -l`, `ruby -c`, `perl -c`). `None` where a stage reads more (a compiler, a
/// linter of a whole project) or names no file.
fn files_a_syntax_check_reads(c: &Check, f: &Facts) -> Option<Vec<PathBuf>> {
    let stages: Vec<Vec<String>> = match recipe_script(&c.stage.argv, f.ev.cwd) {
        Some(script) => shellrun::stages(&script)
            .into_iter()
            .map(|s| shellrun::peel(&s.argv))
            .filter(|a| {
                matches!(
                    super::vocab::command_kind(&a.join(" ")),
                    Some(Kind::Build | Kind::Lint)
                )
            })
            .collect(),
        None => vec![shellrun::peel(&c.stage.argv)],
    };
    if stages.is_empty() {
        return None;
    }
    let mut files = Vec::new();
    for argv in stages {
        let words: Vec<&str> = argv.iter().map(String::as_str).collect();
        let program = words.first()?.rsplit('/').next()?;
        let args: &[&str] = match (program, &words[1..]) {
            ("node", [flag, rest @ ..]) if matches!(*flag, "--check" | "-c") => rest,
            ("bash" | "sh" | "zsh" | "dash", ["-n", rest @ ..]) => rest,
            ("python" | "python3", ["-m", "py_compile", rest @ ..]) => rest,
            ("php", ["-l", rest @ ..]) => rest,
            ("ruby" | "perl", ["-c", rest @ ..]) => rest,
            _ => return None,
        };
        if args.is_empty()
            || args
                .iter()
                .any(|a| a.starts_with('-') || a.contains(['*', '$']))
        {
            return None;
        }
        files.extend(args.iter().map(|a| canonical_lexical(f.ev.cwd, a)));
    }
    Some(files)
}

/// Whether a sentence places its run before something else of the turn ("run before the
/// key was fixed", "vor dem Fix", "고치기 전에"), in the tables' languages: a word for
/// "before" (not "to", "until", which some of these also mean in other uses).
fn says_ran_before(sentence: &str) -> bool {
    const BEFORE: &[&str] = &[
        "before ",
        "prior to",
        "vor dem ",
        "vor der ",
        "bevor ",
        "avant ",
        "antes de",
        "antes del",
        "prima di",
        "prima della",
        "prima del",
        "vóór ",
        "voordat",
        "перед ",
        "прежде ",
        "przed ",
        "před ",
        "pred ",
        "前に",
        "の前",
        "之前",
        "以前",
        "전에",
        "قبل ",
        "לפני",
        "पहले",
        "আগে",
        "முன்",
        "önce",
        "ก่อน",
        "trước khi",
        "sebelum",
        "före ",
        "innan",
        "før ",
        "ennen ",
        "előtt",
        "πριν ",
        "înainte",
        "enne ",
    ];
    let lower = sentence.to_lowercase();
    BEFORE.iter().any(|w| lower.contains(w))
}

/// Why a check that ran does not back a claim: it ran before the last write that matters.
const BEFORE_LAST_WRITE: &str = "ran, but before the turn's last write";

/// `strict`: only `patterns` run the check (a named tool); otherwise a command outside
/// them whose output holds a runner's summary counts too.
pub fn result_evidence(
    claim: &Claim,
    what: &str,
    patterns: &[String],
    count: Option<u64>,
    strict: bool,
    f: &Facts,
) -> Result<String, Finding> {
    let fix = format!("run the {what} command after your last edit and report its result");
    let all = checks(&f.runs, patterns, what == "tests" && !strict, f.ev.cwd);
    let tests = what == "tests";
    let pol = &f.ev.policy;
    // The claim's own commands too (`bash -n`, a named validator): a write in the same
    // command (`chmod +x a.sh && bash -n a.sh`) is the check's own, not a later edit.
    let check_patterns: Vec<&String> = pol
        .test_commands
        .iter()
        .chain(&pol.build_commands)
        .chain(&pol.lint_commands)
        .chain(patterns)
        .collect();
    if all.is_empty() {
        return Err(finding(
            claim,
            format!(
                "no {what} command ran in this turn (looked for: {}, …)",
                patterns
                    .iter()
                    .take(6)
                    .map(|p| match p.strip_prefix(INLINE) {
                        Some(module) => format!("a `python3 -c` or `node -e` using {module}"),
                        None => p.clone(),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            &fix,
        ));
    }
    let first_run = all.iter().map(|c| c.run.at).min().unwrap_or(0);
    // A test file that none of the runs selects (`mspec/sum.js` written after `npm test`,
    // whose script runs `node --test test/`) is nothing those runs read.
    // Nor is a program file no other source file of the project names (`bin/report.js`,
    // written after the runs, that no test or module requires).
    // (Looked for only for files written after a run: the walk reads the project.)
    let late: Vec<&Path> = f
        .writes
        .iter()
        .filter(|(at, _, _)| *at > first_run)
        .map(|(_, p, _)| p.as_path())
        .collect();
    // A folder the turn took away (`git rm -r spec`) held what the turn began with: it is
    // unselected when every file it held is.
    // A part of the project none of the runs selected and none of theirs depends on
    // (`packages/web/src/badge.js` after `npm test -w packages/core`): those runs could not
    // see it.
    let scopes: Vec<Option<Vec<PathBuf>>> = all
        .iter()
        .map(|c| super::parts::selected(&shellrun::peel(&c.stage.argv), f.ev.cwd, &f.root))
        .collect();
    let outside_every_part = |p: &Path| {
        scopes.iter().all(|scope| {
            scope
                .as_ref()
                .is_some_and(|sel| super::parts::outside(sel, p, &f.root))
        })
    };
    // A syntax check given its files (`node --check src/stats.js`, `bash -n a.sh`, run
    // itself or by a recipe) reads those files only.
    let read_only: Option<Vec<PathBuf>> = (!tests)
        .then(|| {
            all.iter()
                .map(|c| files_a_syntax_check_reads(c, f))
                .collect::<Option<Vec<Vec<PathBuf>>>>()
        })
        .flatten()
        .map(|files| files.concat());
    let unselected = |p: &Path| {
        outside_every_part(p)
            || read_only
                .as_ref()
                .is_some_and(|files| !files.iter().any(|file| file == p))
            || tests
                && (all.iter().all(|c| !selects_file(c, p, f))
                    || late.contains(&p) && named_by_no_source(p, f)
                    || late.contains(&p) && scratch_file_gone(p, f)
                    || late.contains(&p)
                        && !named_by_a_run(p, &all)
                        && data_file_named_by_no_source(p, f)
                    || late.contains(&p)
                        && files_of_a_folder_made(p, f).is_some_and(|files| {
                            files.iter().all(|file| {
                                all.iter().all(|c| !selects_file(c, file, f))
                                    || !named_by_a_run(file, &all)
                                        && data_file_named_by_no_source(file, f)
                            })
                        })
                    || late.contains(&p)
                        && files_of_a_folder_taken_away(p, f).is_some_and(|files| {
                            files
                                .iter()
                                .all(|file| all.iter().all(|c| !selects_file(c, file, f)))
                        }))
    };
    let after = last_relevant_write_but(f, &check_patterns, first_run, &unselected);
    let fresh: Vec<&Check> = all
        .iter()
        .filter(|c| after.as_ref().is_none_or(|(w, _)| c.run.at > *w))
        .collect();
    if fresh.is_empty() {
        let last = all.last().expect("not empty");
        let (w, p) = after.expect("a write came after");
        if what == "build" {
            if let Some(later) = cargo_compiled_after(last, w, f) {
                return Ok(format!(
                    "`{}` ran before the last write, and `{}` compiled the same packages after it and succeeded",
                    cut(&last.run.command),
                    cut(&later.command)
                ));
            }
        }
        let mut found = finding(
            claim,
            format!(
                "`{}` {BEFORE_LAST_WRITE} ({})",
                cut(&last.run.command),
                p.display()
            ),
            &fix,
        );
        // "`cargo test` (키 이름을 고치기 전에 실행): … 모두 통과": the message itself says the run
        // came before an edit; whether it still holds is not known, and not claimed.
        if says_ran_before(&claim.sentence) {
            found.blocks = false;
            found
                .why
                .push_str(" (the message says the run came before an edit)");
        }
        return Err(found);
    }
    // "`cargo test` (debug): 3 pass" beside "`cargo test --release`: fails": a claim that
    // names its command line is about the runs of exactly that line, when there are some.
    let exact: Vec<&Check> = fresh
        .iter()
        .copied()
        .filter(|c| names_exactly(claim, c))
        .collect();
    let fresh = if exact.is_empty() { fresh } else { exact };
    // The last run of each runner decides.
    let mut keys: Vec<&str> = Vec::new();
    for c in fresh.iter().rev() {
        if !keys.contains(&c.key.as_str()) {
            keys.push(&c.key);
        }
    }
    let mut passed: Vec<(&Check, Option<Summary>)> = Vec::new();
    let mut unknown: Vec<(&Check, String)> = Vec::new();
    for key in &keys {
        // Runs that ran no test (`--no-run`) or showed nothing do not replace a real one.
        let mut decided = false;
        for c in fresh.iter().rev().filter(|c| c.key == *key) {
            if let Some(why) = missing_script(&c.stage.argv, f.ev.cwd) {
                unknown.push((c, why));
                continue;
            }
            if let Some(dir) = ran_elsewhere(c, f) {
                unknown.push((
                    c,
                    format!(
                        "it ran in {}, outside the project, which is another tree than the work the message reports",
                        dir.display()
                    ),
                ));
                continue;
            }
            match outcome(c, tests) {
                Outcome::Failed(why) if tests && passed_count_beside_another(claim, count, c) => {
                    // "3 минават и 1 пада": the count said is the run's passed count, and
                    // the sentence holds another (its failures, in words not read here).
                    let mut f = finding(
                        claim,
                        format!(
                            "the last tests run (`{}`) failed: {why}; the message's count is the run's passed count, beside another count (read as a partial report)",
                            cut(&c.run.command)
                        ),
                        &fix,
                    );
                    f.blocks = false;
                    return Err(f);
                }
                // "`tests/test_text.py`: all three pass" after a run whose failures are
                // all in another file: the files the claim names passed.
                Outcome::Failed(_)
                    if tests && (failed_elsewhere(claim, c) || named_tests_passed(claim, c)) =>
                {
                    passed.push((c, None));
                    decided = true;
                }
                Outcome::Failed(why) => {
                    let mut found = finding(
                        claim,
                        format!(
                            "the last {what} run (`{}`) failed: {why}",
                            cut(&c.run.command)
                        ),
                        &fix,
                    );
                    // "the first pytest run: five passed, one warning": a sentence that
                    // tells the first run, which passed, reports history; the last run's
                    // failure is reported, not blocked.
                    if tells_the_first_run(&claim.sentence)
                        && all
                            .iter()
                            .filter(|e| e.key == *key && e.run.at < c.run.at)
                            .any(|e| matches!(outcome(e, tests), Outcome::Passed(_)))
                    {
                        found.blocks = false;
                        found
                            .why
                            .push_str(" (the sentence tells the first run, which passed)");
                    }
                    return Err(found);
                }
                Outcome::Passed(s) => {
                    passed.push((c, s));
                    decided = true;
                }
                Outcome::Unknown(why) => {
                    unknown.push((c, why));
                    continue;
                }
            }
            break;
        }
        let _ = decided;
    }
    let Some((run, _)) = passed.first() else {
        let (c, why) = unknown.first().expect("some run");
        let mut found = finding(
            claim,
            format!("`{}` backs nothing: {why}", cut(&c.run.command)),
            &fix,
        );
        // A run whose status another command's hid, and whose output shows no failure
        // (`if npm test >/dev/null; then …; fi; echo done` that exited 0): it may have
        // passed. Reported, not blocked.
        if !c.run.is_error
            && c.listing.is_none()
            && !c.stage.owns_status
            && c.stage.ran != Ran::No
            && !c.stage.and_chain
            && c.stage.piped_into.is_empty()
        {
            found.blocks = false;
        }
        // "verified in a clean worktree (`../wt-check`): 3 passed": a sentence that says
        // where the run was tells that tree's result.
        if ran_elsewhere(c, f)
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .is_some_and(|name| claim.sentence.contains(&name))
        {
            found.blocks = false;
        }
        return Err(found);
    };
    // "clippy: no warnings" of a run that printed some (and exited 0: warnings are not
    // errors unless the run says so); "5 passed, no warnings" of pytest's "1 warning".
    if claim.no_warnings {
        if let Some((c, n)) = passed
            .iter()
            .map(|(c, _)| (c, warnings_in(&c.run.output)))
            .find(|(_, n)| *n > 0)
        {
            return Err(finding(
                claim,
                format!(
                    "the message says no warnings, and `{}` printed {}",
                    cut(&c.run.command),
                    crate::words::count(n as usize, "warning", "warnings")
                ),
                "report the warnings the run printed (or fix them and run it again)",
            ));
        }
    }
    // "ran the whole jest suite: everything passes" after `jest -t sum`: a run that
    // selected tests by name is not the suite, unless a full run of that runner after the
    // last edit passed too.
    if tests && claim.whole_suite {
        let full_run_passed = |c: &Check| {
            fresh.iter().any(|d| {
                d.key == c.key
                    && !d.run.is_error
                    && d.listing.is_none()
                    && name_filter(d.runner, &d.stage.argv).is_none()
            })
        };
        if let Some((c, filter)) = passed
            .iter()
            .find_map(|(c, _)| name_filter(c.runner, &c.stage.argv).map(|f| (c, f)))
            .filter(|(c, _)| !full_run_passed(c))
        {
            return Err(finding(
                claim,
                format!(
                    "the message says the whole suite passed, and `{}` selected tests by name (`{filter}`): the rest did not run",
                    cut(&c.run.command)
                ),
                "run the whole suite after your last edit, or say which tests ran",
            ));
        }
    }
    if let Some(said) = count {
        if let Some(allowed) = counts(&fresh, tests, claim.count_whole, &named_runners(claim)) {
            if let Some((krate, kind, own)) =
                crate_counts(claim, &fresh).filter(|(_, _, own)| !own.contains(&said))
            {
                let what = kind.map_or(String::new(), |k| format!(" {k}"));
                let mut f = finding(
                    claim,
                    format!(
                        "the message says {said} for `{krate}`, and cargo's{what} sections of that crate counted {} passed",
                        own.iter()
                            .map(u64::to_string)
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ),
                    "report the number cargo printed for that crate",
                );
                f.blocks = claim.count_sure && !fresh.iter().any(|c| count_cut(c));
                return Err(f);
            }
            if !allowed.contains(&said) {
                let mut f = finding(
                    claim,
                    format!(
                        "the message says {said}, and the runs of this turn reported {} passed",
                        allowed
                            .iter()
                            .map(u64::to_string)
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ),
                    "report the number the run printed",
                );
                // Output the agent cut (`| tail`, `| head`) of a runner that sums up per
                // part is not its whole summary: a count it cannot confirm is reported,
                // never blocked.
                let cut_output = fresh.iter().any(|c| count_cut(c));
                // "`tests/test_a.py`: 3 passed" counts that file's tests, which one run's
                // summary does not split out.
                // So does a count of one kind of tests ("단위 테스트 | 3개 모두 통과") or of a
                // folder of tests the sentence names (`test/`).
                let selection = claim.tools.iter().any(|t| t.kind.is_some())
                    || super::vocab::spans_of(&claim.sentence)
                        .map(str::trim)
                        .any(|s| s.ends_with('/') && super::vocab::path_of(s, true).is_some());
                // "On the first run 3 passed, 1 failed; … again: all 4 passed": a count an
                // earlier run of this turn printed tells that run.
                let earlier = all
                    .iter()
                    .filter(|c| !fresh.iter().any(|d| std::ptr::eq(*d, *c)))
                    .filter_map(|c| summary::parse(c.runner, &c.run.output))
                    .any(|s| s.counted && s.passed == said);
                if earlier {
                    f.why.push_str(&format!(
                        " ({said} is what an earlier run of this turn reported)"
                    ));
                }
                // A part (a file's tests, a kind) counts no more than every test a run
                // passed: "all three in `stats.spec.js`" after a run that passed one
                // (`jest -t sum`) is more than ran.
                let beyond_every_run = allowed.iter().max().is_some_and(|most| said > *most);
                if !claim.count_sure
                    || cut_output
                    || (!claim.test_files.is_empty() || selection) && !beyond_every_run
                    || earlier
                {
                    f.blocks = false;
                }
                if cut_output {
                    f.why.push_str(
                        " (its output was cut by a pipe, so the whole summary was not seen)",
                    );
                }
                return Err(f);
            }
        }
    }
    // A run that failed in tests the claim does not speak of backs it only for its own.
    if tests && matches!(outcome(run, tests), Outcome::Failed(_)) {
        return Ok(format!(
            "`{}` ran after the last write; its failures are all in tests the sentence does not name",
            cut(&run.run.command)
        ));
    }
    Ok(format!(
        "`{}` ran after the last write and succeeded",
        cut(&run.run.command)
    ))
}

/// Whether every failure a test run printed by its file (pytest's `FAILED a.py::t` and
/// `ERROR a.py::t`, jest's `FAIL a.test.js`) is in a file the claim does not name, where
/// the claim names test files: those passed. Output that names no failing file tells
/// nothing of which failed.
fn failed_elsewhere(claim: &Claim, c: &Check) -> bool {
    // "All tests pass, including `tests/test_a.py`" speaks of every file; "os 3 testes de
    // `tests/test_text.py`" (its count after an article) of that file's.
    if claim.test_files.is_empty() || claim.whole_suite {
        return false;
    }
    let failing = failing_files(&c.run.output);
    if failing.is_empty() {
        return false;
    }
    // Output cut short (`| tail`) may have lost a failure line: where the runner prints a
    // line per failing test (pytest's `FAILED a.py::t`), every failure its summary counts
    // must have one, else which files failed is not known. (jest prints one per file.)
    let per_test = c
        .run
        .output
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            (l.starts_with("FAILED ") || l.starts_with("ERROR ")) && l.contains("::")
                || unittest_failure(l).is_some()
        })
        .count() as u64;
    let summed = summary::parse(c.runner, &c.run.output).map_or(0, |s| s.failed);
    if per_test > 0 && per_test < summed {
        return false;
    }
    // A folder of tests (`spec/`) holds the failures under it.
    let same = |failing: &str, named: &str| {
        let (a, b) = (
            failing.trim_start_matches("./"),
            named.trim_start_matches("./"),
        );
        a == b
            || a.ends_with(&format!("/{b}"))
            || b.ends_with(&format!("/{a}"))
            || b.ends_with('/') && (a.starts_with(b) || a.contains(&format!("/{b}")))
    };
    !claim
        .test_files
        .iter()
        .any(|t| failing.iter().any(|f| same(f, t)))
}

/// Whether the tests a claim names in code spans ("the two old tests (`sum`, `mean`)
/// pass") all stand in a run's output, none on a line that reports a failure (TAP's `not
/// ok`, `FAILED`, `FAIL`, `✕`, `--- FAIL`, unittest's `ERROR:`): a run that failed in other
/// tests. Names only: no paths, no commands, and not a claim about every test.
fn named_tests_passed(claim: &Claim, c: &Check) -> bool {
    if claim.whole_suite || claim.count_whole {
        return false;
    }
    let names: Vec<&str> = super::vocab::spans_of(&claim.sentence)
        .map(str::trim)
        .filter(|s| !s.is_empty() && !s.contains(['/', ' ']))
        .filter(|s| {
            s.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && s.chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.'))
        })
        .collect();
    if names.is_empty() {
        return false;
    }
    let output = &c.run.output;
    let fails = |l: &str| {
        let t = l.trim_start();
        t.starts_with("not ok")
            || t.starts_with("FAIL")
            || t.starts_with("ERROR")
            || t.starts_with('✕')
            || t.starts_with('✗')
            || t.starts_with('✖')
            || t.starts_with("--- FAIL")
            || t.ends_with("FAILED")
            || t.ends_with("ERROR")
    };
    let stands = |l: &str, name: &str| {
        super::scan::find_all(l, name).any(|i| {
            let before = l[..i].chars().next_back();
            let after = l[i + name.len()..].chars().next();
            before.is_none_or(|ch| !ch.is_alphanumeric() && ch != '_')
                && after.is_none_or(|ch| !ch.is_alphanumeric() && ch != '_')
        })
    };
    // A line that reports the test passed (TAP's `ok 1 - sum`, `✓ sum`, `test sum ... ok`,
    // `PASSED`, `--- PASS: Sum`): a runner's or tool's name elsewhere in the output is none.
    let passes = |l: &str| {
        let t = l.trim_start();
        !fails(l)
            && (t.starts_with("ok ")
                || t.starts_with('✓')
                || t.starts_with('✔')
                || t.starts_with("--- PASS")
                || t.ends_with(" ok")
                || t.contains("PASSED"))
    };
    names.iter().all(|name| {
        output.lines().any(|l| passes(l) && stands(l, name))
            && !output.lines().any(|l| fails(l) && stands(l, name))
    })
}

/// The files a test run's output names as failing: pytest's `FAILED a.py::t`, jest's
/// `FAIL a.test.js`, unittest's `FAIL: test_x (tests.test_b.BTest.test_x)` (as
/// `tests/test_b.py`).
fn failing_files(output: &str) -> Vec<String> {
    output
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            if let Some(dotted) = unittest_failure(l) {
                let module: Vec<&str> = dotted
                    .split('.')
                    .take_while(|part| !part.starts_with(char::is_uppercase))
                    .collect();
                return (!module.is_empty()).then(|| format!("{}.py", module.join("/")));
            }
            let rest = l
                .strip_prefix("FAILED ")
                .or_else(|| l.strip_prefix("ERROR "))
                .or_else(|| l.strip_prefix("FAIL "))?;
            let path = rest.split("::").next()?.split_whitespace().next()?;
            path.contains(['/', '.']).then(|| path.to_owned())
        })
        .collect()
}

/// The dotted test of unittest's failure header (`FAIL: test_x (tests.test_b.BTest.test_x)`,
/// `ERROR: test_y (tests.test_b.BTest)`).
fn unittest_failure(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix("FAIL: ")
        .or_else(|| line.strip_prefix("ERROR: "))?;
    let (_, inside) = rest.split_once(" (")?;
    let dotted = inside.strip_suffix(')')?;
    (!dotted.contains(char::is_whitespace) && dotted.contains('.')).then_some(dotted)
}

/// Whether a claim's test count is the passed count of a failed run's summary, in a
/// sentence that holds a second count outside its code spans ("3 pass and 1 fails" in
/// words for failing that no table reads): a partial report, not a claim that all pass.
fn passed_count_beside_another(claim: &Claim, count: Option<u64>, c: &Check) -> bool {
    let Some(said) = count else {
        return false;
    };
    let Some(s) = summary::parse(c.runner, &c.run.output) else {
        return false;
    };
    let prose = super::vocab::outside_spans(&claim.sentence, " ");
    let numbers = prose
        .split(|ch: char| !ch.is_alphanumeric())
        .filter_map(super::lang::number_of)
        .count();
    s.counted && s.passed == said && s.failed > 0 && numbers >= 2
}

/// A check claim whose clause names check commands (`node --check a.js`: OK) is backed
/// only if one of them ran in this turn.
pub fn named_commands_ran(claim: &Claim, f: &Facts) -> Result<(), Finding> {
    if claim.commands.is_empty()
        || claim
            .commands
            .iter()
            .any(|span| span_ran(span, f) || a_script_run_holds(span, f))
    {
        return Ok(());
    }
    Err(finding(
        claim,
        format!(
            "it names `{}`, which did not run in this turn",
            cut(&claim.commands[0])
        ),
        "run it after your last edit and report its result",
    ))
}

/// Whether a script the turn ran (`bash scripts/ci.sh`, `./ci.sh`) has a line that runs
/// `command` (`node --test` in the script's own lines, not in a comment): the script ran
/// it. Whether it passed is the run's own evidence, read from the run's output.
fn a_script_run_holds(command: &str, f: &Facts) -> bool {
    let command = command.trim();
    !command.is_empty()
        && scripts_run(f).iter().any(|script| {
            read_capped(script, 256 << 10).is_some_and(|text| {
                text.lines()
                    .map(str::trim)
                    .any(|l| !l.starts_with('#') && l.contains(command))
            })
        })
}

/// A build or lint claim that names one program file ("`app/table.py` compile sans
/// erreur"): the last run after the file's last write whose output names the file must not
/// print an error for it (`find … -exec python3 -m py_compile {} \;` prints the
/// `SyntaxError` and still exits 0).
pub fn no_error_for_named_file(claim: &Claim, f: &Facts) -> Result<(), Finding> {
    if !matches!(claim.kind, Kind::Build | Kind::Lint) {
        return Ok(());
    }
    const CODE: &[&str] = &[
        "py", "js", "mjs", "cjs", "ts", "rs", "go", "rb", "c", "h", "cc", "cpp", "java", "sh",
    ];
    let files: Vec<String> = super::vocab::spans_of(&claim.sentence)
        .filter_map(|s| super::vocab::path_of(s.trim(), true))
        .filter(|p| {
            Path::new(p)
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| CODE.contains(&e))
        })
        .collect();
    let [file] = files.as_slice() else {
        return Ok(());
    };
    let file = file.trim_start_matches("./");
    let abs = canonical_lexical(f.ev.cwd, file);
    let last_write = f
        .writes
        .iter()
        .filter(|(_, p, _)| *p == abs)
        .map(|(at, _, _)| *at)
        .max();
    let Some(run) = f
        .runs
        .iter()
        .rev()
        .filter(|r| last_write.is_none_or(|w| r.at > w))
        .find(|r| r.output.contains(file))
    else {
        return Ok(());
    };
    let lines: Vec<&str> = run.output.lines().collect();
    let error = lines.iter().enumerate().find_map(|(i, l)| {
        l.contains(file).then(|| {
            lines[i..lines.len().min(i + 6)]
                .iter()
                .find(|l| {
                    let t = l.trim_start();
                    t.starts_with("SyntaxError")
                        || t.starts_with("IndentationError")
                        || t.starts_with("TabError")
                        || t.starts_with("error:")
                        || t.starts_with("error[")
                        || l.contains(": error:")
                        || l.contains(": error ")
                })
                .copied()
        })?
    });
    match error {
        None => Ok(()),
        Some(line) => Err(finding(
            claim,
            format!(
                "`{}` printed an error for {file}: {}",
                cut(&run.command),
                cut(line.trim())
            ),
            "fix the error and run the check again, then report its result",
        )),
    }
}

/// Whether a command named in a code span ran: a stage that may have run whose program is
/// the span's and whose arguments hold the span's words in order (options the span left
/// out do not matter), as written or with launchers peeled (`pytest -q` is `python3 -m
/// pytest -q`).
/// A command the message says went without trouble: its last run in this turn ran (not a
/// stage an earlier failure skipped), exited 0, and printed no conflict, error or fatal
/// line.
pub fn ran_evidence(claim: &Claim, command: &str, f: &Facts) -> Result<String, Finding> {
    // `git pull --rebase && git push`: a line of several commands went through when each
    // of them did (as stages of `git pull --rebase && git push -q origin main && …`).
    if command.contains("&&") || command.contains("||") || command.contains(';') {
        let parts = shellrun::stages(command);
        if parts.len() > 1 {
            let mut backed = Vec::new();
            for p in &parts {
                backed.push(ran_evidence(claim, &command_line(&p.argv), f)?);
            }
            return Ok(backed.join("; "));
        }
    }
    let words = without_elisions(shell_words(command));
    let holds = |argv: &[String]| stage_holds(argv, &words);
    let fix = "report what the command printed (or resolve it and run it again)";
    let Some((run, stage)) = f
        .runs
        .iter()
        .rev()
        .find_map(|r| r.stages.iter().find(|s| holds(&s.argv)).map(|s| (r, s)))
    else {
        let mut found = finding(
            claim,
            format!("`{}` did not run in this turn", cut(command)),
            fix,
        );
        // "✅ `make deploy` when you are ready": a command a checked line names may be one
        // for the user to run. Told as run and failing, it blocks; never run, it is reported.
        let checked_line = super::vocab::CHECK_MARKS.iter().any(|m| {
            claim
                .sentence
                .trim_start_matches(['-', '*', '•', ' '])
                .starts_with(*m)
        });
        // So is an install or a file step told as done ("installed with `pip install -r
        // requirements.txt`"): the sentence may hand it to the user.
        // A package script that checks (`npm run check:data`, `pnpm run lint`) is no step
        // to hand over: told as gone through, it is a check that never ran.
        let check_script = script_of(&words, f.ev.cwd).is_some_and(|(name, _)| {
            ["test", "check", "lint", "verify", "validate", "typecheck"]
                .iter()
                .any(|w| name.to_lowercase().contains(w))
        });
        if (checked_line || super::vocab::names_a_step(command))
            && !check_script
            && words.first().is_none_or(|w| w != "git")
        {
            found.blocks = false;
        }
        return Err(found);
    };
    if stage.ran == Ran::No {
        return Err(finding(
            claim,
            format!(
                "`{}` never ran: an earlier stage of `{}` stopped the command line",
                cut(command),
                cut(&run.command)
            ),
            fix,
        ));
    }
    // Git says it stopped in its own words, whatever its exit status; another program by
    // its status.
    let git = words.first().is_some_and(|w| w == "git");
    let trouble = run.output.lines().map(str::trim).find(|l| {
        git && (l.starts_with("CONFLICT")
            || l.starts_with("error:")
            || l.starts_with("fatal:")
            || l.starts_with("Automatic merge failed"))
    });
    match trouble {
        Some(line) => Err(finding(
            claim,
            format!("`{}` printed \"{}\"", cut(command), cut(line)),
            fix,
        )),
        None if run.is_error && stage.owns_status => Err(finding(
            claim,
            format!("`{}` failed (it exited with an error)", cut(command)),
            fix,
        )),
        // "`javac -Xlint:all …`: 0 figyelmeztetés" of a run that printed "3 warnings".
        None if claim.no_warnings && warnings_in(&run.output) > 0 => Err(finding(
            claim,
            format!(
                "the message says no warnings, and `{}` printed {}",
                cut(command),
                crate::words::count(warnings_in(&run.output) as usize, "warning", "warnings")
            ),
            "report the warnings the run printed (or fix them and run it again)",
        )),
        None => Ok(format!(
            "`{}` ran and printed no trouble",
            cut(&run.command)
        )),
    }
}

/// A stage's words as a command line the shell splits back into them (`pytest -m "not
/// integration"`, not `pytest -m not integration`): what a run pattern is matched with.
fn command_line(argv: &[String]) -> String {
    shlex::try_join(argv.iter().map(String::as_str)).unwrap_or_else(|_| argv.join(" "))
}

/// A command as the shell splits it: `pytest -m "not slow"` gives `not slow` one word.
fn shell_words(command: &str) -> Vec<String> {
    shlex::split(command).unwrap_or_else(|| command.split_whitespace().map(str::to_owned).collect())
}

/// Whether a stage's `argv` runs the command `words` writes out: the same program, and
/// each of its words after it, in order (`cargo test --lib` in `cargo test -q --lib`).
/// A command written with its arguments cut short ("`git commit --amend -m …`"): the words
/// it elides are any.
fn without_elisions(words: Vec<String>) -> Vec<String> {
    words
        .into_iter()
        .filter(|w| !w.contains('…') && !w.ends_with("..."))
        .collect()
}

fn stage_holds(argv: &[String], words: &[String]) -> bool {
    let base = |p: &str| p.rsplit('/').next().unwrap_or(p).to_owned();
    let (Some(p), Some(w)) = (argv.first(), words.first()) else {
        return false;
    };
    let mut rest = argv.iter().skip(1);
    base(p) == base(w) && words[1..].iter().all(|w| rest.any(|a| a == w))
}

fn span_ran(span: &str, f: &Facts) -> bool {
    // `cargo fmt --check && cargo test -q`: a line of several commands ran when each of
    // them did (as stages of `cargo fmt && cargo fmt --check && cargo test -q 2>&1`).
    if span.contains("&&") || span.contains("||") || span.contains(';') {
        let parts = shellrun::stages(span);
        if parts.len() > 1 {
            return parts.iter().all(|p| span_ran(&command_line(&p.argv), f));
        }
    }
    let words = without_elisions(shell_words(span));
    let holds = stage_holds;
    let peeled_words = shellrun::peel(&words);
    let ran = |argv: &[String]| holds(argv, &words) || holds(&shellrun::peel(argv), &peeled_words);
    let stages: Vec<&Stage> = f
        .runs
        .iter()
        .flat_map(|r| &r.stages)
        .filter(|s| s.ran != Ran::No)
        .collect();
    stages.iter().any(|s| ran(&s.argv))
        // `npm test` ran what the package's `test` script says (`node --test`).
        || stages
            .iter()
            .any(|s| package_script(&s.argv, f).iter().any(|argv| ran(argv)))
        || echoed_by_make(f).any(|argv| ran(&argv))
}

/// The command lines `make` printed as it ran its recipes (it echoes each one that is not
/// written with `@`), in the runs of this turn where a `make` stage ran.
fn echoed_by_make<'f>(f: &'f Facts) -> impl Iterator<Item = Vec<String>> + 'f {
    f.runs
        .iter()
        .filter(|r| {
            r.stages.iter().any(|s| {
                s.ran != Ran::No
                    && s.argv
                        .first()
                        .is_some_and(|p| p.rsplit('/').next() == Some("make"))
            })
        })
        .flat_map(|r| r.output.lines())
        .filter(|l| !l.starts_with("make") && !l.trim().is_empty())
        .flat_map(|l| shellrun::stages(l).into_iter().map(|s| s.argv))
}

/// What a package manager's script run (`npm test`, `npm run lint`, `yarn build`, `pnpm
/// test`) runs: the stages of that script in the project's `package.json`.
fn package_script(argv: &[String], f: &Facts) -> Vec<Vec<String>> {
    let Some((name, scripts)) = script_of(argv, f.ev.cwd) else {
        return Vec::new();
    };
    match scripts.get(&name).and_then(|v| v.as_str()) {
        Some(script) => shellrun::stages(script)
            .into_iter()
            .map(|s| s.argv)
            .collect(),
        None => Vec::new(),
    }
}

/// The script a package manager's run names (`npm test`: `test`; `npm run lint`, `yarn
/// build`, `pnpm test`, `bun run x`), and the `scripts` of the project's package.json.
fn script_of(
    argv: &[String],
    cwd: &Path,
) -> Option<(String, serde_json::Map<String, serde_json::Value>)> {
    let name = shellrun::package_script(argv)?;
    let scripts = package_scripts(cwd)?;
    Some((name, scripts))
}

/// The folder a run ran in when a `cd` earlier on its command line took it outside the
/// project (`git worktree add ../wt HEAD && cd ../wt && pytest`): it tested that tree,
/// not the project's. A `cd` whose target the line cannot tell (`cd "$d"`, `cd -`) says
/// nothing.
fn ran_elsewhere(c: &Check, f: &Facts) -> Option<PathBuf> {
    let at = c.run.stages.iter().position(|s| std::ptr::eq(s, c.stage))?;
    let mut dir = f.ev.cwd.to_path_buf();
    let mut moved = false;
    for s in c.run.stages[..at].iter().filter(|s| s.ran != Ran::No) {
        if s.argv.first().is_none_or(|p| p != "cd") {
            continue;
        }
        let target = s.argv.get(1)?;
        if target.starts_with(['$', '~', '-']) || target.contains(['$', '`', '*']) {
            return None;
        }
        dir = crate::fsutil::lexical(&dir.join(target));
        moved = true;
    }
    // The same folder by another spelling (a symlink on the way) is not elsewhere.
    let inside = |d: &Path| {
        d.starts_with(&f.root)
            || std::fs::canonicalize(d)
                .ok()
                .zip(std::fs::canonicalize(&f.root).ok())
                .is_some_and(|(d, root)| d.starts_with(root))
    };
    (moved && !inside(&dir)).then_some(dir)
}

/// Whether a claim names a check's command line as it ran (launchers and redirections
/// aside): `cargo test`, not `cargo test --release`.
fn names_exactly(claim: &Claim, c: &Check) -> bool {
    let ran = shellrun::peel(&c.stage.argv);
    claim
        .commands
        .iter()
        .any(|span| shellrun::peel(&shell_words(span)) == ran)
}

/// `npm run lint --if-present` where package.json has no `lint` script: npm exits 0 and
/// runs nothing. (Without the flag npm fails, which its status already says; `yarn` and
/// `bun` run a binary or a file of that name instead, so only npm and pnpm are read.)
fn missing_script(argv: &[String], cwd: &Path) -> Option<String> {
    let program = argv.first()?.rsplit('/').next()?;
    let run_form = argv
        .iter()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .is_some_and(|a| matches!(a.as_str(), "run" | "run-script"));
    if !matches!(program, "npm" | "pnpm") || !run_form {
        return None;
    }
    let (name, scripts) = script_of(argv, cwd)?;
    (!scripts.contains_key(&name))
        .then(|| format!("package.json has no `{name}` script, so it ran nothing"))
}

/// The `scripts` of `cwd`'s `package.json`, read once per process: every check claim asks
/// for them again (which runner a script runs, which tests it selects). `None` where the
/// file cannot be read or parsed: the recipe is then not known, and is reported.
pub(crate) fn package_scripts(cwd: &Path) -> Option<serde_json::Map<String, serde_json::Value>> {
    type Scripts = Option<serde_json::Map<String, serde_json::Value>>;
    thread_local! {
        static READ: std::cell::RefCell<Vec<(PathBuf, Scripts)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if let Some(found) = READ.with(|r| {
        r.borrow()
            .iter()
            .find(|(dir, _)| dir == cwd)
            .map(|(_, s)| s.clone())
    }) {
        return found;
    }
    let scripts: Scripts = std::fs::read_to_string(cwd.join("package.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|json| json.get("scripts")?.as_object().cloned());
    READ.with(|r| r.borrow_mut().push((cwd.to_owned(), scripts.clone())));
    scripts
}

/// A tests claim that names parts of the project ("report: its 3 tests pass too", "jest
/// across all three workspaces (core, api, web)") is backed only where a test run of this
/// turn ran each: a run that selects no part (`--workspaces`, `cargo test --workspace`,
/// `jest` with no paths) runs them all; `-w packages/core`, `-p calc`, `--exclude report`
/// and a runner's paths select some. A part is named by its folder or package name, in a
/// clause that does not deny it ("`units` not rerun"); only where the project has two
/// parts or more and every run's selection could be read.
fn named_parts_selected(claim: &Claim, runs: &[Check], f: &Facts) -> Result<(), Finding> {
    if runs.is_empty() || !matches!(claim.kind, Kind::Tests { .. }) {
        return Ok(());
    }
    let selections: Vec<Vec<PathBuf>> = match runs
        .iter()
        .map(|c| super::parts::selected(&shellrun::peel(&c.stage.argv), f.ev.cwd, &f.root))
        .collect::<Option<Vec<_>>>()
    {
        Some(s) => s,
        None => return Ok(()),
    };
    let parts = super::parts::all_parts(&f.root);
    if parts.len() < 2 {
        return Ok(());
    }
    let words: Vec<String> = claim
        .sentence
        .split([';', '；', ',', '，', '。', '、'])
        .filter(|clause| {
            !super::rows::negates(&super::vocab::outside_spans(clause, " ").to_lowercase())
        })
        .flat_map(|clause| {
            clause
                .split(|c: char| c.is_whitespace() || "`()[]{}:：|*\"'“”«»,.!?".contains(c))
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .collect();
    for part in &parts {
        let names = super::parts::names_of(part);
        let rel = part
            .strip_prefix(&f.root)
            .unwrap_or(part)
            .to_string_lossy()
            .to_lowercase();
        let named = words.iter().any(|w| {
            *w == rel
                || names.iter().any(|n| {
                    let n = n.to_lowercase();
                    *w == n || n.rsplit('/').next() == Some(w.as_str())
                })
        });
        if !named || selections.iter().any(|sel| sel.iter().any(|s| s == part)) {
            continue;
        }
        let last = &runs[runs.len() - 1];
        let shown: Vec<String> = selections
            .last()
            .into_iter()
            .flatten()
            .map(|s| s.strip_prefix(&f.root).unwrap_or(s).display().to_string())
            .collect();
        return Err(finding(
            claim,
            format!(
                "it names {rel}, and no test run of this turn ran its tests (`{}` selected {})",
                cut(&last.run.command),
                if shown.is_empty() { "the root package".into() } else { shown.join(", ") }
            ),
            &format!("run the tests of {rel} (or of every part) after your last edit and report their result"),
        ));
    }
    Ok(())
}

/// A tests claim whose clause names test files (`tests/test_more.py` passes) is backed
/// only if a test run of this turn selected each: a run without a selection runs them
/// all; cargo's `--test NAME` selects `tests/NAME.rs`.
pub fn test_files_selected(claim: &Claim, patterns: &[String], f: &Facts) -> Result<(), Finding> {
    let runs = checks(&f.runs, patterns, true, f.ev.cwd);
    // A test script run by itself (`sh tests/e2e/smoke.sh`, `./tests/run.sh`) that
    // succeeded selected itself.
    let ran_itself = |file: &str| {
        let file = file.trim_start_matches("./");
        f.runs.iter().filter(|r| !r.is_error).any(|r| {
            r.stages.iter().any(|s| {
                s.ran != Ran::No
                    && s.argv
                        .iter()
                        .take(2)
                        .any(|a| a.trim_start_matches("./") == file)
            })
        })
    };
    doctests_of_named_modules(claim, f)?;
    rust_tests_named_are_compiled(claim, &runs, f)?;
    python_tests_named_were_skipped(claim, &runs, f)?;
    named_parts_selected(claim, &runs, f)?;
    for file in &claim.test_files {
        let selecting: Vec<&Check> = runs.iter().filter(|c| selects(c, file)).collect();
        // `tests/api/limits.rs` with no `tests/api.rs` that says `mod limits;`: cargo
        // never compiled it, whatever it selected.
        if !selecting.is_empty()
            && selecting.iter().all(|c| c.runner == Runner::Cargo)
            && super::crate_tree::compiled(&f.root, Path::new(file.trim_start_matches("./")))
                == Some(false)
        {
            return Err(finding(
                claim,
                format!(
                    "it names {file}, which no crate of the package compiles (no `mod` line reaches it): `cargo test` ran none of its tests"
                ),
                &format!("declare its module (`mod …;`) and run `cargo test`, or say its tests did not run"),
            ));
        }
        if selecting.is_empty() && !ran_itself(file) {
            return Err(finding(
                claim,
                format!("it names {file}, and no test run of this turn selected it"),
                &format!("run the tests in {file} after your last edit and report their result"),
            ));
        }
    }
    Ok(())
}

/// A tests claim that names a Rust test by its function ("`parses_pair` lief mit und
/// besteht") after cargo runs: the test must be defined in a file some crate compiles
/// (`src/parse.rs` without `mod parse;` in `src/lib.rs` is never built, so `cargo test`
/// never ran it). Looked for only where every run was cargo's and the sentence names an
/// identifier; a name defined nowhere, or in a file whose place cannot be told, passes.
fn rust_tests_named_are_compiled(claim: &Claim, runs: &[Check], f: &Facts) -> Result<(), Finding> {
    if runs.is_empty() || runs.iter().any(|c| c.runner != Runner::Cargo) {
        return Ok(());
    }
    let names: Vec<&str> = super::vocab::spans_of(&claim.sentence)
        .map(str::trim)
        .filter(|s| {
            s.len() >= 3
                && s.starts_with(|c: char| c.is_ascii_lowercase())
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        })
        .collect();
    if names.is_empty() || !f.root.join("Cargo.toml").is_file() {
        return Ok(());
    }
    // "`units` non rilanciato": a member a clause says did not run is no claim of its tests.
    let affirmed: Vec<&str> = claim
        .sentence
        .split([';', '；', ',', '，', '。'])
        .filter(|clause| {
            !super::rows::negates(&super::vocab::outside_spans(clause, " ").to_lowercase())
        })
        .flat_map(|clause| super::vocab::spans_of(clause).map(str::trim))
        .filter(|s| names.contains(s))
        .collect();
    workspace_members_named_ran(claim, &affirmed, runs, f)?;
    for name in names.into_iter().filter(|n| !n.contains('-')) {
        let defines = |text: &str| {
            text.match_indices(&format!("fn {name}"))
                .any(|(i, m)| text[i + m.len()..].trim_start().starts_with(['(', '<']))
        };
        let mut files: Vec<PathBuf> = Vec::new();
        // The walk looks at every file (nothing it finds stops it): it is whole when it
        // says so.
        let whole = no_source_says(
            f,
            Path::new(""),
            |p| p.extension().is_some_and(|e| e == "rs"),
            |p, text| {
                if defines(&text) {
                    files.push(p.to_path_buf());
                }
                false
            },
        );
        if !whole || files.is_empty() {
            continue;
        }
        let uncompiled: Vec<String> = files
            .iter()
            .filter_map(|p| p.strip_prefix(&f.root).ok())
            .filter(|rel| super::crate_tree::compiled(&f.root, rel) == Some(false))
            .map(|rel| rel.display().to_string())
            .collect();
        if uncompiled.len() == files.len() {
            return Err(finding(
                claim,
                format!(
                    "the test `{name}` is defined only in {}, which no crate of the package compiles (no `mod` line reaches it): `cargo test` never ran it",
                    uncompiled.join(", ")
                ),
                "declare its module (`mod …;`), run `cargo test` again and report its result",
            ));
        }
        // A test cargo compiled but did not run (an example's or a bench's own tests, a
        // test of another workspace member, one a filter left out): every run listed the
        // tests it ran by name, and none listed it.
        let is_test = files
            .iter()
            .any(|p| std::fs::read_to_string(p).is_ok_and(|text| defines_a_test(&text, name)));
        let listings: Vec<Vec<&str>> = runs
            .iter()
            .filter_map(|c| cargo_tests_listed(&c.run.output))
            .collect();
        // A run that filtered tests out (`--skip maxes`, a name filter) left some unrun on
        // purpose, and a sentence that names one may say so.
        let filtered = runs.iter().any(|c| {
            c.run.command.contains(name)
                || c.run.output.lines().any(|l| {
                    l.split_once(" filtered out")
                        .and_then(|(before, _)| before.rsplit(' ').next())
                        .is_some_and(|n| n.parse::<u64>().is_ok_and(|n| n > 0))
                })
        });
        if is_test
            && !filtered
            && listings.len() == runs.len()
            && !listings.iter().flatten().any(|listed| *listed == name)
        {
            return Err(finding(
                claim,
                format!(
                    "the test `{name}` is not among the tests the runs of this turn listed by name (`{}` ran {} tests): it did not run",
                    cut(&runs[runs.len() - 1].run.command),
                    listings[listings.len() - 1].len()
                ),
                "run the tests that hold it (`cargo test --examples`, `-p <member>`, no filter) and report their result",
            ));
        }
    }
    Ok(())
}

/// A tests claim that names a member package of the workspace ("`units` 的两个测试也都通过了")
/// after cargo runs none of which ran it: a `cargo test` at the root runs the root package
/// only (without `--workspace`), and a member's unit tests run as `deps/<name>-…`, its
/// doc tests as `Doc-tests <name>`. Looked for only where every run's output shows which
/// binaries it ran and was not cut by a pipe.
fn workspace_members_named_ran(
    claim: &Claim,
    names: &[&str],
    runs: &[Check],
    f: &Facts,
) -> Result<(), Finding> {
    let shows_its_binaries = |c: &Check| {
        c.stage.piped_into.is_empty()
            && c.run
                .output
                .lines()
                .any(|l| l.trim_start().starts_with("Running ") && l.contains("deps/"))
    };
    if !runs.iter().all(shows_its_binaries) {
        return Ok(());
    }
    let members = super::crate_tree::workspace_members(&f.root);
    for name in names {
        let crate_name = name.replace('-', "_");
        if !members.contains(&crate_name) {
            continue;
        }
        let ran = runs.iter().any(|c| {
            c.run.output.contains(&format!("deps/{crate_name}-"))
                || c.run.output.contains(&format!("Doc-tests {crate_name}"))
        });
        if !ran {
            return Err(finding(
                claim,
                format!(
                    "it names the workspace member `{name}`, and no cargo run of this turn ran its tests (`{}` ran the root package's: add `--workspace` or `-p {name}`)",
                    cut(&runs[runs.len() - 1].run.command)
                ),
                &format!("run `cargo test -p {name}` (or `--workspace`) and report its result"),
            ));
        }
    }
    Ok(())
}

/// Whether `text` defines `name` as a test: a `fn name` whose attributes, on the lines
/// right above it, hold one ending in `test]` (`#[test]`, `#[tokio::test]`).
fn defines_a_test(text: &str, name: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().any(|(i, line)| {
        let Some(at) = line.find(&format!("fn {name}")) else {
            return false;
        };
        let after = &line[at + 3 + name.len()..];
        if !after.trim_start().starts_with(['(', '<']) {
            return false;
        }
        lines[..i]
            .iter()
            .rev()
            .map(|l| l.trim())
            .take_while(|l| l.starts_with("#[") || l.starts_with("//") || l.is_empty())
            .any(|l| l.starts_with("#[") && (l.ends_with("test]") || l.contains("test(")))
    })
}

/// "numkit: all tests pass, the slow `test_pct_shares_sum_to_100` among them" after a
/// pytest run that skipped some: a test the sentence names, marked to be skipped
/// (`@pytest.mark.skip…`, or a marker a `conftest.py` skips, `slow` without `--runslow`),
/// did not run when the last pytest run that selected its file skipped some, unless that
/// run lists it as passed.
fn python_tests_named_were_skipped(
    claim: &Claim,
    runs: &[Check],
    f: &Facts,
) -> Result<(), Finding> {
    if !runs.iter().any(|c| c.runner == Runner::Pytest) {
        return Ok(());
    }
    let names = super::vocab::spans_of(&claim.sentence)
        .map(str::trim)
        .filter(|s| {
            s.starts_with("test_") && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
    for name in names {
        let mut conftests: Vec<String> = Vec::new();
        let mut marked: Option<(PathBuf, String)> = None;
        no_source_says(
            f,
            Path::new(""),
            |p| p.extension().is_some_and(|e| e == "py"),
            |p, text| {
                if p.file_name().is_some_and(|n| n == "conftest.py") {
                    conftests.push(text.clone());
                }
                if marked.is_none() {
                    marked = marks_of(&text, name).map(|m| (p.to_path_buf(), m));
                }
                false
            },
        );
        let Some((file, mark)) = marked else { continue };
        // `skipif` skips on its condition, which is not read here.
        let skips = mark.split_whitespace().any(|m| mark_name(m) == "skip")
            || conftests
                .iter()
                .any(|c| c.contains("skip") && c.contains(&format!("\"{}\"", mark_name(&mark))));
        let rel = file
            .strip_prefix(&f.root)
            .unwrap_or(&file)
            .to_string_lossy();
        let Some(last) = runs
            .iter()
            .rfind(|c| c.runner == Runner::Pytest && pytest_selects(&c.stage.argv, &rel))
        else {
            continue;
        };
        let skipped = pytest_skipped(&last.run.output);
        if skips && skipped > 0 && !last.run.output.contains(&format!("{name} PASSED")) {
            return Err(finding(
                claim,
                format!(
                    "it names {name}, marked `{mark}`, which this project skips, and `{}` skipped {skipped}: it did not run",
                    cut(&last.run.command)
                ),
                &format!("run {name} (with what its mark needs) after your last edit, or say it was skipped"),
            ));
        }
    }
    Ok(())
}

/// Whether a pytest run selects a file: it names no path (all of them), or a path that is
/// the file, a folder holding it, or the file with a test's name after `::`. Every word
/// that is no option is a path to pytest (`pytest -q tests` runs `tests/` only).
fn pytest_selects(argv: &[String], file: &str) -> bool {
    let argv = shellrun::peel(argv);
    // An option's value (`-k slow`, `-m "not slow"`) is no path.
    const VALUED: &[&str] = &["-k", "-m", "-p", "-c", "-o", "--rootdir", "--maxfail", "-n"];
    let mut paths: Vec<&str> = Vec::new();
    let mut skip = false;
    for a in argv.iter().skip(1) {
        if std::mem::take(&mut skip) {
            continue;
        }
        if VALUED.contains(&a.as_str()) {
            skip = true;
        } else if !a.starts_with('-') && !a.contains(['>', '<', '&']) && a != "pytest" {
            paths.push(a.trim_start_matches("./").trim_end_matches('/'));
        }
    }
    paths.is_empty()
        || paths.iter().any(|p| {
            let p = p.split("::").next().unwrap_or(p);
            file == p || file.starts_with(&format!("{p}/"))
        })
}

/// pytest's count of skipped tests on its summary line (`5 passed, 1 skipped in 0.01s`).
fn pytest_skipped(output: &str) -> u64 {
    output
        .lines()
        .rev()
        .find_map(|l| {
            let words: Vec<&str> = l.split([' ', ',', '=']).filter(|w| !w.is_empty()).collect();
            words
                .windows(2)
                .find(|w| w[1] == "skipped")
                .and_then(|w| w[0].parse().ok())
        })
        .unwrap_or(0)
}

/// The pytest marks right above `def NAME(` (`@pytest.mark.slow`), joined: None where the
/// test is not defined in the text or has none.
fn marks_of(text: &str, name: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| {
        l.trim_start()
            .strip_prefix("def ")
            .or_else(|| l.trim_start().strip_prefix("async def "))
            .is_some_and(|rest| rest.strip_prefix(name).is_some_and(|r| r.starts_with('(')))
    })?;
    let marks: Vec<&str> = lines[..at]
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with('@'))
        .filter(|l| l.contains("mark."))
        .collect();
    (!marks.is_empty()).then(|| marks.join(" "))
}

/// A mark's name: `@pytest.mark.slow` is `slow`.
fn mark_name(mark: &str) -> &str {
    mark.rsplit("mark.")
        .next()
        .unwrap_or(mark)
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()
        .unwrap_or("")
}

/// The names of the tests a cargo run's output lists (`test tests::adds ... ok`, the last
/// path segment), when it lists every test it ran: as many lines as its `running N tests`
/// add up to. `None` for a quiet run (`-q` prints dots) or an output cut short.
fn cargo_tests_listed(output: &str) -> Option<Vec<&str>> {
    let mut announced = 0usize;
    let mut listed = Vec::new();
    for line in output.lines() {
        let line = line.trim_end();
        if let Some(n) = line
            .strip_prefix("running ")
            .and_then(|r| r.strip_suffix(" tests").or_else(|| r.strip_suffix(" test")))
            .and_then(|n| n.parse::<usize>().ok())
        {
            announced += n;
        } else if let Some((name, _)) = line
            .strip_prefix("test ")
            .and_then(|rest| rest.split_once(" ... "))
        {
            listed.push(name.rsplit("::").next().unwrap_or(name).trim());
        }
    }
    (announced > 0 && listed.len() == announced).then_some(listed)
}

/// A doc tests claim that names a Python module ("the doctests of `app/text.py` pass"):
/// doc tests live in the module, so `python -m doctest` given only other files (the empty
/// `app/__init__.py`) ran none of them.
fn doctests_of_named_modules(claim: &Claim, f: &Facts) -> Result<(), Finding> {
    if !claim.tools.iter().any(|t| t.kind == Some("doc")) {
        return Ok(());
    }
    let given: Vec<Vec<String>> = f
        .runs
        .iter()
        .flat_map(|r| &r.stages)
        .filter(|s| s.ran != Ran::No)
        .map(|s| shellrun::peel(&s.argv))
        .filter(|argv| argv.first().is_some_and(|p| p == "doctest"))
        .map(|argv| {
            argv[1..]
                .iter()
                .filter(|a| !a.starts_with('-'))
                .map(|a| a.trim_start_matches("./").to_owned())
                .collect()
        })
        .collect();
    if given.is_empty() {
        return Ok(());
    }
    for span in super::vocab::spans_of(&claim.sentence) {
        let Some(path) = super::vocab::path_of(span.trim(), true) else {
            continue;
        };
        let path = path.trim_start_matches("./");
        // A test file beside the module ("the unit tests of `tests/test_text.py` pass, and
        // doctest confirms …") is the other runner's.
        let name = path.rsplit('/').next().unwrap_or(path);
        let test_file = name.starts_with("test_")
            || name.ends_with("_test.py")
            || path.split('/').any(|d| d == "tests" || d == "test");
        if !path.ends_with(".py")
            || test_file
            || given.iter().any(|files| files.iter().any(|a| a == path))
        {
            continue;
        }
        let ran: Vec<String> = given.iter().flatten().map(|a| format!("`{a}`")).collect();
        return Err(finding(
            claim,
            format!(
                "it names {path}, and the doctest runs of this turn were given only {}",
                ran.join(", ")
            ),
            &format!("run `python3 -m doctest {path}` and report its result"),
        ));
    }
    Ok(())
}

fn selects(c: &Check, file: &str) -> bool {
    let argv = shellrun::peel(&c.stage.argv);
    let file = file.trim_start_matches("./");
    // A runner runs files of its own languages: `cargo test` never runs
    // `tests/e2e/docs_smoke.sh`, whatever it selects.
    let ext = Path::new(file)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    let runs_it = match c.runner {
        Runner::Cargo => matches!(ext, "rs" | ""),
        Runner::Pytest | Runner::Unittest => matches!(ext, "py" | ""),
        Runner::Jest | Runner::Vitest | Runner::Mocha | Runner::NodeTest => {
            matches!(
                ext,
                "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx" | ""
            )
        }
        Runner::Go => matches!(ext, "go" | ""),
        _ => true,
    };
    if !runs_it {
        return false;
    }
    if c.runner == Runner::Cargo {
        let args = super::named::cargo_args(&argv);
        let stem = Path::new(file)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("");
        let named = args.windows(2).any(|w| w[0] == "--test" && w[1] == stem);
        let selecting = args
            .iter()
            .any(|a| matches!(*a, "--lib" | "--bins" | "--bin" | "--test" | "--doc"));
        return named || !selecting || args.contains(&"--tests") && file.starts_with("tests/");
    }
    let paths = super::named::selection_paths(c.runner, &argv);
    let file_module = file.strip_suffix(".py").unwrap_or(file);
    paths.is_empty()
        || paths.iter().any(|p| {
            let p = p.trim_end_matches('/');
            file == p
                || file.starts_with(&format!("{p}/"))
                || p.ends_with(file)
                // `tests.test_text`, `tests.test_text.TextTest.test_x`: that module.
                || p == file_module
                || p.starts_with(&format!("{file_module}/"))
        })
}

/// A reported failure count against the last test run's summary (failures and errors
/// together, as every runner's own count): fewer than the runner counted blocks (the
/// message hides failures); more is reported. None when no run printed a count to hold
/// it against (go's per-package lines do not count tests one by one).
pub fn failure_evidence(
    claim: &Claim,
    said: u64,
    patterns: &[String],
    f: &Facts,
) -> Option<Result<String, Finding>> {
    let all = checks(&f.runs, patterns, true, f.ev.cwd);
    let (c, s) = all.iter().rev().find_map(|c| {
        if c.listing.is_some() || c.runner == Runner::Go {
            return None;
        }
        summary::parse(c.runner, &c.run.output)
            .filter(|s| s.counted)
            .map(|s| (c, s))
    })?;
    let command = cut(&c.run.command);
    if said == s.failed {
        // "`npm test`: 8 testů, 7 prošlo, 1 selhal" after `# tests 6`, `# pass 5`: the
        // failures agree, the other counts of the sentence must too.
        if let Some(why) = other_counts_differ(&claim.sentence, &s) {
            return Some(Err(finding(
                claim,
                format!(
                    "{why}, and the last test run (`{command}`) reported {} passed and {} failed",
                    s.passed, s.failed
                ),
                "report the counts the run printed",
            )));
        }
        return Some(Ok(format!("`{command}` reported {} failed", s.failed)));
    }
    let mut found = finding(
        claim,
        format!(
            "the message says {said} failed, and the last test run (`{command}`) reported {} failed (failures and errors together)",
            s.failed
        ),
        "report the number of failures the run printed",
    );
    // "`pytest -x` stopped at the first failure: 1 passed, 1 failed", beside the full run's
    // count: a count an earlier run of the turn printed tells that run. Reported.
    let earlier = all
        .iter()
        .filter(|d| !std::ptr::eq(*d, c))
        .filter_map(|d| summary::parse(d.runner, &d.run.output))
        .any(|e| e.counted && e.failed == said);
    if earlier {
        found.why.push_str(&format!(
            " ({said} is what an earlier run of this turn reported)"
        ));
    }
    if said > s.failed || earlier {
        found.blocks = false;
    }
    Some(Err(found))
}

/// The total or passed count a sentence that counts failures gives, by the word after each
/// number ("8 testů, 7 prošlo, 1 selhal": a word for tests, one for passing, of any
/// table), when it is not the run's. Only for a runner that prints one summary (cargo's
/// and go's report theirs by suite, which a sentence may count apart).
fn other_counts_differ(sentence: &str, s: &Summary) -> Option<String> {
    // A sentence that names files may count each apart ("`a.test.js`: 2 tests, …").
    let names_a_file = super::vocab::spans_of(sentence)
        .any(|span| super::vocab::path_of(span, true).is_some_and(|p| p.contains(['/', '.'])));
    // Nor one that names no command may count several runs ("between the two runs, six
    // tests").
    let names_a_run = super::vocab::spans_of(sentence).any(super::vocab::check_command_span);
    if !s.suites.is_empty() || !s.counted || names_a_file || !names_a_run {
        return None;
    }
    let prose = super::vocab::outside_spans(sentence, " ").to_lowercase();
    let words: Vec<&str> = prose
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | ':'))
        .filter(|w| !w.is_empty())
        .collect();
    let starts = |w: &str, forms: &dyn Fn(&super::lang::Lang) -> &'static [&'static str]| {
        super::lang::LANGS.iter().any(|l| {
            l.spaced
                && forms(l)
                    .iter()
                    .any(|f| f.trim().len() >= 4 && w.starts_with(f.trim()))
        })
    };
    let total = s.passed + s.failed + s.skipped;
    for pair in words.windows(2) {
        let Ok(n) = pair[0].parse::<u64>() else {
            continue;
        };
        // "8 testů" is a total; "2 testy selhaly", "3 اختبارات" after "نجح" count the
        // failed or the passed: any of the run's counts holds it.
        let counts = [total, s.passed + s.failed, s.passed, s.failed];
        if starts(pair[1], &|l| l.tests) && !counts.contains(&n) {
            return Some(format!("the message counts {n} tests"));
        }
        if starts(pair[1], &|l| l.passed) && n != s.passed {
            return Some(format!("the message says {n} passed"));
        }
    }
    None
}

/// Evidence for a check claim that names its tools ("clippy is clean", "the Python and
/// JS suites pass"): a run of each named tool, judged as any check run is. A tool with no
/// run of its own where a project recipe ran (`npm run lint`, `make check`: what it runs
/// is not known here) is reported, not blocked.
pub fn named_evidence(
    claim: &Claim,
    what: &str,
    count: Option<u64>,
    f: &Facts,
) -> Result<String, Finding> {
    let recipes: Vec<String> = super::named::RECIPES
        .iter()
        .map(|r| r.to_string())
        .collect();
    // A recipe that ran and may have run `runs`: one whose script is not known here, or
    // whose script (package.json's) runs it.
    let recipe_ran = |runs: &[String]| {
        f.runs.iter().any(|r| {
            r.stages
                .iter()
                .any(|s| match recipe_script(&s.argv, f.ev.cwd) {
                    Some(script) => runs_any(&script, runs),
                    // A project script (`./build.sh`, `bash scripts/release.sh`): what it
                    // runs is not read here.
                    None => {
                        runs_any(&command_line(&s.argv), &recipes)
                            || s.argv
                                .first()
                                .is_some_and(|p| p.starts_with("./") || p.ends_with(".sh"))
                            || s.argv.first().is_some_and(|p| {
                                matches!(
                                    p.rsplit('/').next().unwrap_or(p),
                                    "sh" | "bash" | "zsh" | "dash" | "ksh"
                                )
                            }) && s.argv[1..].iter().any(|a| !a.starts_with('-'))
                    }
                })
        })
    };
    // A count is one tool's when one is named; several suites' total is not checked here.
    let count = count.filter(|_| claim.tools.len() == 1);
    let mut backed = Vec::new();
    let mut missing: Option<Finding> = None;
    // A kind whose selection cannot be read is reported only after every other kind
    // named has been judged: one that surely did not run blocks.
    let mut uncertain: Option<Finding> = None;
    // A run the sentence names, before the last write, with a later run that passed.
    let mut history: Option<Finding> = None;
    for tool in &claim.tools {
        if let Some(kind) = tool.kind {
            match kind_evidence(claim, kind, count, f) {
                Ok(e) => backed.push(e),
                Err(finding) if !finding.blocks => {
                    uncertain.get_or_insert(finding);
                }
                Err(finding) => return Err(finding),
            }
            continue;
        }
        let mut runs: Vec<String> = tool.runs.iter().map(|r| r.to_string()).collect();
        // "він запускав лише `cargo test --lib` (3 passed)": a run of the tool the clause
        // writes out, that ran, is the one the claim reports; a later run of the same tool
        // with another selection neither backs nor refutes it.
        let spans: Vec<String> = super::vocab::spans_of(&claim.sentence)
            .map(str::to_owned)
            .collect();
        let own: Vec<String> = claim
            .commands
            .iter()
            .chain(&spans)
            .filter(|c| {
                let words = shell_words(c);
                tool.runs
                    .iter()
                    .any(|r| matches_either(&words, &shellrun::peel(&words), r))
                    && f.runs
                        .iter()
                        .any(|run| runs_any(&run.command, &[(*c).clone()]))
            })
            .cloned()
            .collect();
        let every_run = runs.clone();
        let names_its_run = !own.is_empty();
        // "`python3 -m py_compile app/report.py` — compiles" after `py_compile app/text.py`
        // only: the files the command writes out were not checked.
        // "`bash -n` für beide Skripte ohne Befund" after `bash -n scripts/backup.sh` only:
        // a file of the check's kind the turn wrote was not checked.
        if let Some(file) = every_file_said(claim)
            .then(|| unchecked_written(tool.runs, f))
            .flatten()
        {
            return Err(finding(
                claim,
                format!(
                    "it speaks of every file, and {} ran on others: {} was written in this turn and not checked",
                    tool.names[0],
                    file.display()
                ),
                "run the check on every file it speaks of and report the result",
            ));
        }
        if !names_its_run {
            if let Some(span) = unchecked_operands(claim, &spans, tool.runs, f) {
                return Err(finding(
                    claim,
                    format!(
                        "it names `{}`, which did not run in this turn: the runs of {} checked other files",
                        cut(&span),
                        tool.names[0]
                    ),
                    "run it on those files after your last edit and report its result",
                ));
            }
        }
        if names_its_run {
            runs = own;
        }
        // `npm test` whose script is `node --test` runs the node test runner: its result
        // is the tool's.
        runs.extend(recipes_running(&runs, f));
        match result_evidence(claim, what, &runs, count, true, f) {
            Ok(e) => backed.push(e),
            // "1. `pytest --ignore=tests/regression`: 4 passed. … 3. the whole run again: 7
            // passed": the run the sentence names is history when a later run of the tool,
            // after the last write, passed.
            Err(mut finding)
                if names_its_run
                    && finding.why.contains(BEFORE_LAST_WRITE)
                    && result_evidence(claim, what, &every_run, None, true, f).is_ok() =>
            {
                finding.why = format!(
                    "it names {}: {} (a later run of {}, after the last write, passed)",
                    tool.names[0], finding.why, tool.names[0]
                );
                finding.blocks = false;
                history.get_or_insert(finding);
            }
            Err(mut finding) => {
                finding.why = format!("it names {}: {}", tool.names[0], finding.why);
                let never_ran = !f.runs.iter().any(|r| runs_any(&r.command, &runs));
                // "`npm run test:e2e`: the 2 e2e tests pass" when only `npm run test:unit`
                // ran: the script the sentence names is known, and nothing ran it.
                if let Some(script) = never_ran.then(|| unrun_script_named(claim, f)).flatten() {
                    finding.why = format!(
                        "it names `{script}`, which did not run in this turn, nor any script that runs it"
                    );
                    return Err(finding);
                }
                if never_ran && recipe_ran(&runs) {
                    finding.blocks = false;
                    finding
                        .why
                        .push_str(" (a project recipe ran, and what it runs is not known here)");
                } else if never_ran
                    && !tool.suite
                    && tool.checks == super::named::Checks::Tests
                    && !names_each(&claim.sentence)
                    && names_a_move(&claim.sentence, tool.names)
                {
                    // "Moved from jest to vitest; all tests pass": the runner left behind
                    // is context, not a check claimed. Reported unless nothing named ran.
                    missing.get_or_insert(finding);
                    continue;
                }
                return Err(finding);
            }
        }
    }
    if let Some(finding) = uncertain {
        return Err(finding);
    }
    if let (None, Some(finding)) = (&missing, history) {
        return Err(finding);
    }
    match missing {
        Some(mut finding) if !backed.is_empty() => {
            finding.blocks = false;
            finding.why.push_str(" (another tool it names ran)");
            Err(finding)
        }
        Some(finding) => Err(finding),
        None => Ok(backed.join("; ")),
    }
}

/// How many warnings a check's output shows: lines that open with `warning:` or
/// `warning[` (rustc, clippy, cargo doc, gcc), or a summary's count ("3 warnings", "✖ 2
/// problems (0 errors, 2 warnings)"), the larger of the two.
fn warnings_in(output: &str) -> u64 {
    let mut lines = 0u64;
    let mut summary = 0u64;
    for line in output.lines() {
        let l = line.trim_start().to_lowercase();
        // `warning: …` (cargo, git), `tools/lc.c:7:23: warning: …` (gcc, clang, javac).
        let warns = l.starts_with("warning:")
            || l.starts_with("warning[")
            || l.contains(": warning:")
            || l.contains(": warning[");
        if warns && !l.contains("generated") {
            lines += 1;
        }
        let words: Vec<&str> = l
            .split(|c: char| c.is_whitespace() || c == '(' || c == ',')
            .collect();
        for w in words.windows(2) {
            if w[1].starts_with("warning") {
                if let Ok(n) = w[0].parse::<u64>() {
                    summary = summary.max(n);
                }
            }
        }
    }
    lines.max(summary)
}

/// What a recipe stage runs when package.json says it through and through: its script
/// with the `pre`/`post` scripts around it. `None` when the stage is no package script
/// run, or the script runs other scripts or files (what they run is not known here).
fn recipe_script(argv: &[String], cwd: &Path) -> Option<String> {
    let Some((name, scripts)) = script_of(argv, cwd) else {
        return make_recipe(argv, cwd);
    };
    let script = |n: &str| scripts.get(n).and_then(|v| v.as_str()).map(str::to_owned);
    let mut out = script(&name)?;
    for hook in ["pre", "post"] {
        if let Some(s) = script(&format!("{hook}{name}")) {
            out = format!("{out}; {s}");
        }
    }
    let opaque = [
        "npm ", "yarn ", "pnpm ", "bun ", "./", ".sh", "make ", "just ",
    ];
    (!opaque.iter().any(|w| out.contains(w))).then_some(out)
}

/// What `make TARGET…` runs, from the Makefile in the folder it ran in: each target's
/// prerequisites' recipes, then its own, in order (`check: lint test` runs `lint`'s
/// `node --check src/stats.js`, then `test`'s `node --test`). `None` for another make
/// (`-C`, `-f`, a variable given), a Makefile it cannot read, or a recipe that uses make's
/// variables or runs other scripts (what they run is not read here).
fn make_recipe(argv: &[String], cwd: &Path) -> Option<String> {
    let program = argv.first()?.rsplit('/').next()?;
    if program != "make" && program != "gmake" {
        return None;
    }
    let mut targets: Vec<&str> = Vec::new();
    for a in &argv[1..] {
        match a.as_str() {
            "-s" | "--silent" | "--quiet" | "-k" | "--keep-going" => {}
            a if a.starts_with('-') || a.contains('=') => return None,
            a => targets.push(a),
        }
    }
    let text = ["GNUmakefile", "makefile", "Makefile"]
        .iter()
        .find_map(|n| std::fs::read_to_string(cwd.join(n)).ok())?;
    let rules = make_rules(&text);
    if targets.is_empty() {
        targets.push(rules.first()?.0.as_str());
    }
    let phony: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix(".PHONY:"))
        .flat_map(str::split_whitespace)
        .collect();
    // A target that is no `.PHONY` and names a file or a folder that is there (`test`
    // beside `test/`) is up to date: with no prerequisites its recipe never runs; with
    // some, whether it runs depends on their times, not read here.
    let up_to_date = |t: &str| -> Option<bool> {
        if phony.contains(&t) || !cwd.join(t).exists() {
            return Some(false);
        }
        let has_prereqs = rules.iter().any(|r| r.0 == t && !r.1.is_empty());
        (!has_prereqs).then_some(true)
    };
    let mut lines: Vec<String> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for t in targets {
        make_lines(&rules, t, &up_to_date, &mut seen, &mut lines, 0)?;
    }
    let out = lines.join("; ");
    (!out.is_empty() && !out.contains("$(") && !out.contains("${")).then_some(out)
}

/// A Makefile's rules: each target with its prerequisites and recipe lines (`@` and `-`
/// marks off). Special targets (`.PHONY`) and pattern rules are left out.
fn make_rules(text: &str) -> Vec<(String, Vec<String>, Vec<String>)> {
    let mut rules: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    for line in text.lines() {
        if let Some(recipe) = line.strip_prefix('\t') {
            let recipe = recipe.trim().trim_start_matches(['@', '-', '+']).trim();
            for &i in &current {
                if !recipe.is_empty() && !recipe.starts_with('#') {
                    rules[i].2.push(recipe.to_owned());
                }
            }
            continue;
        }
        let line = line.split('#').next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        current.clear();
        let Some((names, prereqs)) = line.split_once(':') else {
            continue;
        };
        if prereqs.starts_with('=') || names.contains('=') {
            continue;
        }
        let prereqs: Vec<String> = prereqs.split_whitespace().map(str::to_owned).collect();
        for name in names.split_whitespace() {
            if name.starts_with('.') || name.contains('%') {
                continue;
            }
            current.push(rules.len());
            rules.push((name.to_owned(), prereqs.clone(), Vec::new()));
        }
    }
    rules
}

/// The recipe lines `make TARGET` runs, prerequisites first, each target once, none of a
/// target that is up to date. `None` past eight levels, or where whether a target is up to
/// date is not known.
fn make_lines(
    rules: &[(String, Vec<String>, Vec<String>)],
    target: &str,
    up_to_date: &dyn Fn(&str) -> Option<bool>,
    seen: &mut Vec<String>,
    lines: &mut Vec<String>,
    depth: usize,
) -> Option<()> {
    if depth > 8 {
        return None;
    }
    if seen.iter().any(|s| s == target) {
        return Some(());
    }
    seen.push(target.to_owned());
    if up_to_date(target)? {
        return Some(());
    }
    // A prerequisite with no rule is a file make only checks.
    let Some((_, prereqs, recipe)) = rules.iter().find(|r| r.0 == target) else {
        return Some(());
    };
    for p in prereqs {
        make_lines(rules, p, up_to_date, seen, lines, depth + 1)?;
    }
    lines.extend(recipe.iter().cloned());
    Some(())
}

/// Words that make a claim about every file ("both", "all", "beide", "les deux", "两个").
const EVERY_FILE: &[&str] = &[
    "both",
    "all",
    "each",
    "every",
    "beide",
    "beiden",
    "alle",
    "allen",
    "jede",
    "jeder",
    "deux",
    "tous",
    "toutes",
    "chaque",
    "ambos",
    "ambas",
    "todos",
    "todas",
    "cada",
    "entrambi",
    "tutti",
    "tutte",
    "ogni",
    "allebei",
    "оба",
    "обе",
    "все",
    "каждый",
    "обидва",
    "обидві",
    "усі",
    "всі",
    "oba",
    "obie",
    "obydwa",
    "wszystkie",
    "obě",
    "všechny",
    "båda",
    "alla",
    "begge",
    "molemmat",
    "kaikki",
    "iki",
    "tüm",
    "hepsi",
    "όλα",
    "mindkét",
    "ambele",
    "toate",
    "obje",
    "sve",
    "двата",
    "всички",
    "cả hai",
    "tất cả",
    "kedua",
    "semua",
    "pareho",
    "lahat",
    "zote",
    "tots",
    "totes",
    "ambdós",
    "两个",
    "兩個",
    "所有",
    "全部",
    "両方",
    "すべて",
    "全て",
    "모두",
    "모든",
    "दोनों",
    "सभी",
    "كلا",
    "جميع",
    "שני",
    "כל",
    "هر دو",
    "همه",
    "ทั้งสอง",
    "ทั้งหมด",
];

/// Whether a claim's sentence speaks of every file ("für beide Skripte", "les deux
/// fichiers", "all scripts"): a word for all or both beside a word for files.
fn every_file_said(claim: &Claim) -> bool {
    const FILES: &[&str] = &[
        "file",
        "script",
        "datei",
        "skript",
        "fichier",
        "archivo",
        "fichero",
        "arquivo",
        "ficheiro",
        "bestand",
        "файл",
        "скрипт",
        "plik",
        "soubor",
        "fil",
        "tiedost",
        "dosya",
        "betik",
        "αρχεί",
        "fájl",
        "fișier",
        "datotek",
        "tệp",
        "berkas",
        "fail",
        "faili",
        "fitxer",
        "文件",
        "脚本",
        "ファイル",
        "スクリプト",
        "파일",
        "스크립트",
        "फ़ाइल",
        "फाइल",
        "स्क्रिप्ट",
        "ملف",
        "קובץ",
        "קבצי",
        "فایل",
        "ไฟล์",
    ];
    let lower = claim
        .sentence
        .split('`')
        .step_by(2)
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let word = |w: &str| {
        super::scan::find_all(&lower, w).any(|i| {
            let before = lower[..i].chars().next_back();
            let after = lower[i + w.len()..].chars().next();
            let spaced = w.is_ascii() || w.chars().any(char::is_lowercase);
            !spaced
                || before.is_none_or(|c| !c.is_alphanumeric())
                    && after.is_none_or(|c| !c.is_alphanumeric())
        })
    };
    EVERY_FILE.iter().any(|w| word(w)) && FILES.iter().any(|w| lower.contains(w))
}

/// A file this turn wrote of the kind a per-file check of `runs` reads (`.sh` for `bash
/// -n`, `.py` for `py_compile`, `.js` for `node --check`) that no run of it named, where
/// every run named its files plainly.
fn unchecked_written(runs: &[&str], f: &Facts) -> Option<PathBuf> {
    let extensions: &[&str] = match runs.first().copied() {
        Some("bash -n") => &["sh", "bash"],
        Some("py_compile") => &["py"],
        Some("node --check") => &["js", "mjs", "cjs"],
        _ => return None,
    };
    let stages = plain_runs_of(runs, f)?;
    let checked: Vec<PathBuf> = stages
        .iter()
        .flat_map(|s| s.argv.iter().skip(1))
        .filter(|a| !a.starts_with('-'))
        .map(|a| canonical_lexical(f.ev.cwd, a))
        .collect();
    let mut written: Vec<PathBuf> = f
        .written_paths()
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.contains(&e))
        })
        .filter(|p| p.starts_with(&f.root) && p.exists())
        .collect();
    written.sort();
    written.dedup();
    written
        .into_iter()
        .find(|p| !checked.iter().any(|c| p == c || p.starts_with(c)))
        .map(|p| p.strip_prefix(&f.root).map(Path::to_path_buf).unwrap_or(p))
}

/// The stages of this turn that ran a tool of `runs`, when there is one and every one names
/// its operands plainly (no variable, glob or command substitution: what they are is read
/// from the command line).
fn plain_runs_of<'f>(runs: &[&str], f: &'f Facts) -> Option<Vec<&'f Stage>> {
    let stages: Vec<&Stage> = f
        .runs
        .iter()
        .flat_map(|r| &r.stages)
        .filter(|s| {
            let peeled = shellrun::peel(&s.argv);
            runs.iter().any(|r| matches_either(&s.argv, &peeled, r))
        })
        .collect();
    let plain = |s: &&Stage| {
        !s.argv
            .iter()
            .skip(1)
            .any(|a| a.contains(['$', '*', '?', '[', '`']))
    };
    (!stages.is_empty() && stages.iter().all(plain)).then_some(stages)
}

/// A command the claim writes out (in a span) for a tool of `runs`, naming files, when
/// the tool ran in this turn only on other files: every run's operands are plain paths
/// (no variable, no glob), and none of them is, holds or ends like a file the span names.
fn unchecked_operands(claim: &Claim, spans: &[String], runs: &[&str], f: &Facts) -> Option<String> {
    let is_tool = |argv: &[String]| {
        let peeled = shellrun::peel(argv);
        runs.iter().any(|r| matches_either(argv, &peeled, r))
    };
    let operands = |argv: &[String]| -> Vec<String> {
        argv.iter()
            .skip(1)
            .filter(|a| !a.starts_with('-'))
            .filter(|a| {
                a.contains('/')
                    || a.rsplit_once('.').is_some_and(|(_, ext)| {
                        !ext.is_empty()
                            && ext.len() <= 4
                            && ext.chars().all(|c| c.is_ascii_alphanumeric())
                    })
            })
            // `tests/test_a.py::test_x` is a test of `tests/test_a.py`.
            .map(|a| a.split("::").next().unwrap_or(a))
            .map(|a| a.trim_start_matches("./").trim_end_matches('/').to_owned())
            .collect()
    };
    let stages = plain_runs_of(runs, f)?;
    if stages.iter().any(|s| operands(&s.argv).is_empty()) {
        return None;
    }
    let checked: Vec<String> = stages.iter().flat_map(|s| operands(&s.argv)).collect();
    let covered = |file: &str| {
        checked.iter().any(|c| {
            c == file
                || c == "."
                || file.starts_with(&format!("{c}/"))
                || file.ends_with(&format!("/{c}"))
                || c.ends_with(&format!("/{file}"))
        })
    };
    claim
        .commands
        .iter()
        .chain(spans)
        .filter(|span| span.split_whitespace().count() >= 2)
        .find(|span| {
            let words = shell_words(span);
            let files = operands(&words);
            is_tool(&words) && !files.is_empty() && !files.iter().any(|file| covered(file))
        })
        .cloned()
}

/// A package script the claim's sentence writes out (`npm run test:e2e`) that
/// `package.json` defines, when no stage of the turn can have run it: not the script
/// itself, nor another script or a project recipe (`make`, `./ci.sh`) that may call it,
/// nor its own command run by hand (`npx playwright test` for `playwright test`).
fn unrun_script_named(claim: &Claim, f: &Facts) -> Option<String> {
    super::vocab::spans_of(&claim.sentence)
        .chain(claim.commands.iter().map(String::as_str))
        .find(|span| {
            let words = shell_words(span);
            let Some((name, scripts)) = script_of(&words, f.ev.cwd) else {
                return false;
            };
            let Some(body) = scripts.get(&name).and_then(|v| v.as_str()) else {
                return false;
            };
            let body_words = shell_words(body);
            !f.runs.iter().flat_map(|r| &r.stages).any(|stage| {
                let peeled = shellrun::peel(&stage.argv);
                let program = stage
                    .argv
                    .first()
                    .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
                let other_script = script_of(&stage.argv, f.ev.cwd).map(|(other, scripts)| {
                    let text = |n: &str| scripts.get(n).and_then(|v| v.as_str()).unwrap_or("");
                    other == name
                        || [other.clone(), format!("pre{other}"), format!("post{other}")]
                            .iter()
                            .any(|n| text(n).contains(name.as_str()) || opaque_script(text(n)))
                });
                other_script.unwrap_or(false)
                    || stage_holds(&stage.argv, &body_words)
                    || stage_holds(&peeled, &body_words)
                    || runs_any(&command_line(&stage.argv), &recipe_patterns())
                        && !matches!(program, "npm" | "pnpm" | "yarn" | "bun")
                    || program.ends_with(".sh")
                    || stage.argv.first().is_some_and(|p| p.starts_with("./"))
            })
        })
        .map(str::to_owned)
}

/// Whether a package script runs what is not read here (another package manager, a
/// shell script, `make`).
fn opaque_script(text: &str) -> bool {
    [
        "npm ", "yarn ", "pnpm ", "bun ", "./", ".sh", "make ", "just ", "npx ", "node ",
    ]
    .iter()
    .any(|w| text.contains(w))
        && !text.trim_start().starts_with("node --test")
}

fn recipe_patterns() -> Vec<String> {
    super::named::RECIPES
        .iter()
        .map(|r| r.to_string())
        .collect()
}

/// The recipes of this turn whose script runs one of `runs`, as patterns for their own
/// invocation (`npm test`).
fn recipes_running(runs: &[String], f: &Facts) -> Vec<String> {
    let mut out = Vec::new();
    for stage in f.runs.iter().flat_map(|r| &r.stages) {
        if let Some(script) = recipe_script(&stage.argv, f.ev.cwd) {
            if runs_any(&script, runs) {
                let own: Vec<&str> = stage
                    .argv
                    .iter()
                    .map(String::as_str)
                    .filter(|a| !a.starts_with('-'))
                    .take(3)
                    .collect();
                let pattern = own.join(" ");
                if !out.contains(&pattern) {
                    out.push(pattern);
                }
            }
        }
    }
    out
}

/// Whether a run's summary count may have been cut away: its output went through
/// `tail`, `head` or `sed` and the runner prints a summary per part (cargo per test
/// binary, go per package), so the lines left need not add up to the run.
fn count_cut(c: &Check) -> bool {
    let multi = matches!(c.runner, Runner::Cargo | Runner::Go | Runner::Other);
    multi
        && c.stage.piped_into.iter().any(|p| {
            let name = p[0].rsplit('/').next().unwrap_or(&p[0]);
            matches!(name, "tail" | "head" | "sed")
        })
}

/// The commands a claim names (in code spans, or bare at a row's start) that ran in this
/// turn ("`python3 -m compileall app`: compiles cleanly" names `python3 -m compileall -q
/// app`): each is a check
/// command for its claim. A span names a stage when its words come in the stage's order,
/// options left out.
/// The test runs a claim's sentence writes out in a code span (`npm run test:unit`, more
/// than a runner's bare name), as they ran: the runs the claim reports.
pub fn own_test_runs(claim: &Claim, patterns: &[String], f: &Facts) -> Vec<String> {
    let spans = super::vocab::spans_of(&claim.sentence)
        .chain(claim.commands.iter().map(String::as_str))
        .filter(|s| s.split_whitespace().count() >= 2)
        .filter(|s| runs_any(s, patterns));
    let mut own = spans_that_ran(spans, f);
    own.sort();
    own.dedup();
    own
}

pub fn spans_that_ran<'s>(spans: impl IntoIterator<Item = &'s str>, f: &Facts) -> Vec<String> {
    let spans: Vec<Vec<&str>> = spans
        .into_iter()
        .map(|span| span.split_whitespace().collect::<Vec<_>>())
        .filter(|words| !words.is_empty())
        .collect();
    let mut out = Vec::new();
    for stage in f.runs.iter().flat_map(|r| &r.stages) {
        let program = stage
            .argv
            .first()
            .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
        let named = spans.iter().any(|span| {
            let mut rest = stage.argv.iter().skip(1);
            span[0] == program
                && span[1..].iter().all(|w| rest.any(|a| a == w))
                && (span.contains(&"--ignored") || !only_ignored(&stage.argv))
        });
        if named {
            out.push(command_line(&stage.argv));
        }
    }
    out
}

/// Evidence for a claim about a kind of tests ("the integration tests pass"): the tests
/// passed after the last write, and a passing run's selection included that kind. A
/// runner whose selection cannot be read (paths none of which names the kind) is
/// reported, not blocked.
fn kind_evidence(
    claim: &Claim,
    kind: &str,
    count: Option<u64>,
    f: &Facts,
) -> Result<String, Finding> {
    let patterns = &f.ev.policy.test_commands;
    // The runs whose selection included the kind are the ones the claim is about: a later
    // run of other kinds (`cargo test --test it` after `cargo test --lib`) neither backs
    // nor refutes "the unit tests pass".
    let kind_files = f.files_of_kind(kind);
    let covers = |argv: &[String]| selects_kind(kind, argv, &kind_files, f);
    let covering: Vec<String> = f
        .runs
        .iter()
        .flat_map(|r| &r.stages)
        .filter(|s| s.ran != Ran::No)
        .filter(|s| {
            let peeled = shellrun::peel(&s.argv);
            // `python -m doctest a.py` is a doc test run whatever the runner list says.
            let doctest = kind == "doc" && peeled.first().is_some_and(|p| p == "doctest");
            doctest
                || patterns.iter().any(|p| matches_either(&s.argv, &peeled, p))
                    && covers(&peeled) == Some(true)
        })
        .map(|s| command_line(&s.argv))
        .collect();
    if !covering.is_empty() {
        if let Some(found) = kind_ran_none(claim, kind, count, &covering, f) {
            return Err(found);
        }
        return match result_evidence(claim, "tests", &covering, count, true, f) {
            Err(found) if found.blocks => kind_passed_in_failed_run(kind, count, &covering, f)
                // "він запускав лише `cargo test --lib` (3 passed)", then a whole `cargo
                // test` failed: after the last edit a run that selected the kind passed,
                // and the same code passes the same tests.
                .or_else(|| {
                    covering.iter().find_map(|run| {
                        result_evidence(claim, "tests", std::slice::from_ref(run), count, true, f)
                            .ok()
                    })
                })
                .ok_or(found),
            verdict => verdict,
        };
    }
    // Which kinds the runs selected decides first: a count that does not match a run that
    // never included the kind (unittest's 3 for "both doctests pass") is no reason to let
    // the kind through as only uncertain.
    let passed = result_evidence(claim, "tests", patterns, count, false, f);
    let selections: Vec<Option<bool>> = f
        .runs
        .iter()
        .filter(|r| !r.is_error)
        .flat_map(|r| &r.stages)
        .filter(|s| {
            let peeled = shellrun::peel(&s.argv);
            patterns.iter().any(|p| matches_either(&s.argv, &peeled, p))
        })
        .map(|s| covers(&shellrun::peel(&s.argv)))
        .collect();
    if selections.contains(&Some(true)) || passed.as_ref().is_err_and(|e| e.blocks) {
        return passed;
    }
    let mut finding = finding(
        claim,
        format!("it names the {kind} tests, and no passing test run of this turn included them"),
        &format!("run the {kind} tests after your last edit and report their result"),
    );
    if selections.contains(&None) {
        finding.blocks = false;
        finding
            .why
            .push_str(" (as far as their selections show: a run's paths do not say)");
    }
    Err(finding)
}

/// "doc tests: 1 passed" after a `cargo test` whose `Doc-tests` section ran 0: the last
/// run that selected the kind printed its sections, and those of the kind counted none.
/// With a count said it blocks; "the doc tests pass" of none that ran is only reported
/// (true of nothing, and an honest "doc: 0" is near it).
fn kind_ran_none(
    claim: &Claim,
    kind: &str,
    count: Option<u64>,
    covering: &[String],
    f: &Facts,
) -> Option<Finding> {
    let last = f.runs.iter().rfind(|r| {
        r.stages
            .iter()
            .any(|s| s.ran != Ran::No && covering.contains(&command_line(&s.argv)))
    })?;
    let sections = summary::cargo_sections(&last.output);
    let of_kind: Vec<_> = sections
        .iter()
        .filter(|(s, _, _)| s.kind() == kind)
        .collect();
    if of_kind.is_empty() || of_kind.iter().any(|(_, n, ok)| *n > 0 || !ok) {
        return None;
    }
    let mut found = finding(
        claim,
        format!(
            "`{}` ran no {kind} tests: its {kind} section counts 0",
            cut(&last.command)
        ),
        &format!("report that no {kind} tests ran (or write one and run it)"),
    );
    found.blocks = count.is_some_and(|n| n > 0);
    Some(found)
}

/// "통합 테스트: 1개 통과" after a `cargo test` that failed in its unit tests: the last
/// run that selected the kind, after the last write, printed a section per test binary,
/// and every section of the kind passed (with the count said, when one is).
fn kind_passed_in_failed_run(
    kind: &str,
    count: Option<u64>,
    covering: &[String],
    f: &Facts,
) -> Option<String> {
    let patterns: Vec<&String> = covering.iter().collect();
    let last = f.runs.iter().rfind(|r| {
        r.stages
            .iter()
            .any(|s| covering.contains(&command_line(&s.argv)))
    })?;
    let first_run = f.runs.iter().map(|r| r.at).min().unwrap_or(0);
    if last_relevant_write(f, &patterns, first_run).is_some_and(|(w, _)| w > last.at) {
        return None;
    }
    let sections = summary::cargo_sections(&last.output);
    let of_kind: Vec<&(summary::Section, u64, bool)> = sections
        .iter()
        .filter(|(s, _, _)| s.kind() == kind)
        .collect();
    let passed: u64 = of_kind.iter().map(|(_, n, _)| n).sum();
    (!of_kind.is_empty()
        && of_kind.iter().all(|(_, _, ok)| *ok)
        && count.is_none_or(|n| n == passed))
    .then(|| {
        format!(
            "`{}` ran after the last write: its {kind} tests passed ({passed}), its other tests failed",
            cut(&last.command)
        )
    })
}

/// The runner a package script runs (`npm test` whose script is `node --test`): the one
/// runner its stages name, or [`Runner::Other`] where they name none or several.
fn script_runner(argv: &[String], cwd: &Path) -> Runner {
    let Some(script) = recipe_script(argv, cwd) else {
        return Runner::Other;
    };
    let mut runners: Vec<Runner> = shellrun::stages(&script)
        .iter()
        .map(|s| summary::runner_of(&shellrun::peel(&s.argv)))
        .filter(|r| *r != Runner::Other)
        .collect();
    runners.dedup();
    match runners.as_slice() {
        [one] => *one,
        _ => Runner::Other,
    }
}

/// Whether a test run (launchers peeled) selected tests of `kind`, knowing the project's
/// files of that kind (`tests/integration/…`, `e2e/cli.e2e.js`): the runner's own flags
/// say where they can ([`super::named::covers`]); a run given paths selects the kind's
/// files under them and no others; `node --test` without paths runs only the files its
/// default patterns name.
fn selects_kind(kind: &str, argv: &[String], kind_files: &[PathBuf], f: &Facts) -> Option<bool> {
    // `npm test` selects what its script's runs select (`node --test`: its default
    // patterns, not `e2e/cli.e2e.js`).
    if let Some(script) = recipe_script(argv, f.ev.cwd) {
        let verdicts: Vec<Option<bool>> = shellrun::stages(&script)
            .iter()
            .map(|s| shellrun::peel(&s.argv))
            .filter(|a| summary::runner_of(a) != Runner::Other)
            .map(|a| selects_kind(kind, &a, kind_files, f))
            .collect();
        if verdicts.contains(&Some(true)) {
            return Some(true);
        }
        if !verdicts.is_empty() && verdicts.iter().all(|v| *v == Some(false)) {
            return Some(false);
        }
        return None;
    }
    // `--testPathIgnorePatterns=e2e`, `-m "not integration"`: left out by name, whatever
    // files the kind has.
    if super::named::excludes_kind(kind, argv) {
        return Some(false);
    }
    let by_flags = super::named::covers(kind, argv);
    let runner = summary::runner_of(argv);
    if kind == "unit" && by_flags.is_none() && runner != Runner::Cargo {
        // Unit tests are the tests of no other kind: a selection with a path that names
        // none of the others selects some.
        let others = ["integration", "integ", "e2e", "end-to-end", "doc"];
        let some_unit = super::named::selection_paths(runner, argv)
            .iter()
            .any(|p| !others.iter().any(|o| p.to_lowercase().contains(o)));
        return Some(some_unit);
    }
    if kind_files.is_empty() || runner == Runner::Cargo {
        return by_flags;
    }
    // `python -m unittest` (or `discover`) without a start folder: discovery enters only
    // packages, folders with an `__init__.py`, from the working directory down.
    if runner == Runner::Unittest && unittest_discovers_all(argv) {
        return Some(kind_files.iter().any(|k| unittest_discovers(k, f.ev.cwd)));
    }
    let runner = summary::runner_of(argv);
    let paths: Vec<PathBuf> = super::named::selection_paths(runner, argv)
        .iter()
        .map(|a| canonical_lexical(f.ev.cwd, a))
        .collect();
    if !paths.is_empty() {
        let module = |k: &Path| k.with_extension("");
        let under = kind_files.iter().any(|k| {
            paths
                .iter()
                .any(|p| k.starts_with(p) || p.starts_with(module(k)))
        });
        return Some(under || by_flags == Some(true) && paths.iter().any(|p| p.is_dir()));
    }
    if summary::runner_of(argv) == Runner::NodeTest {
        return Some(kind_files.iter().any(|k| node_test_default(k)));
    }
    by_flags
}

/// Whether a `python -m unittest` run discovers from the working directory with the
/// default pattern: no module, path, `-s` or `-p` given.
fn unittest_discovers_all(argv: &[String]) -> bool {
    let Some(at) = argv.iter().position(|a| a == "unittest") else {
        return false;
    };
    argv[at + 1..].iter().all(|a| {
        matches!(
            a.as_str(),
            "-v" | "-q"
                | "-b"
                | "-f"
                | "-c"
                | "--verbose"
                | "--quiet"
                | "--buffer"
                | "--failfast"
                | "discover"
        )
    })
}

/// Whether unittest's discovery from `cwd` finds `file`: a `test*.py` file whose every
/// folder below `cwd` is a package (unittest dropped namespace packages in Python 3.11).
fn unittest_discovers(file: &Path, cwd: &Path) -> bool {
    let Ok(rel) = file.strip_prefix(cwd) else {
        return false;
    };
    let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if !(name.starts_with("test") && name.ends_with(".py")) {
        return false;
    }
    let mut dir = cwd.to_path_buf();
    for part in rel.parent().into_iter().flat_map(Path::components) {
        dir.push(part);
        if !dir.join("__init__.py").is_file() {
            return false;
        }
    }
    true
}

/// Whether `node --test` with no paths runs `file`: its default patterns (`**/*.test.js`,
/// `**/*-test.js`, `**/*_test.js`, `**/test-*.js`, `**/test.js`, `**/test/**/*.js`, and
/// the `.cjs`/`.mjs` forms).
fn node_test_default(file: &Path) -> bool {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let Some(stem) = [".js", ".cjs", ".mjs"]
        .iter()
        .find_map(|e| name.strip_suffix(e))
    else {
        return false;
    };
    stem.ends_with(".test")
        || stem.ends_with("-test")
        || stem.ends_with("_test")
        || stem.starts_with("test-")
        || stem == "test"
        || file
            .parent()
            .is_some_and(|p| p.components().any(|c| c.as_os_str() == "test"))
}

/// Whether a sentence tells of the tool `names` being replaced ("moved from jest to
/// vitest", "replaced mocha with jest", "jest → vitest"): then it need not be a tool the
/// sentence claims ran. The move word stands within a few words before the name, or an
/// arrow right after it.
fn names_a_move(sentence: &str, names: &[&str]) -> bool {
    const MOVES: &[&str] = &[
        "from",
        "instead",
        "replac",
        "migrat",
        "switch",
        "moved",
        "swapped",
        "drop",
        "remov",
        "von",
        "statt",
        "ersetzt",
        "de",
        "au lieu",
        "remplac",
        "en lugar",
        "reemplaz",
        "invece",
        "sostitu",
        "em vez",
        "substitu",
        "вместо",
        "から",
        "替换",
        "改用",
        "에서",
    ];
    let lower = sentence.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || matches!(c, '`' | ',' | ';' | '(' | ')'))
        .filter(|w| !w.is_empty())
        .collect();
    names.iter().any(|name| {
        let first = name.split_whitespace().next().unwrap_or(name);
        words.iter().enumerate().any(|(i, w)| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-') == first
                && (words[i.saturating_sub(4)..i]
                    .iter()
                    .any(|m| MOVES.iter().any(|mv| m.starts_with(mv)))
                    || words
                        .get(i + 1)
                        .is_some_and(|n| matches!(*n, "→" | "->" | "=>")))
        })
    }) || !lower.is_ascii() && MOVES.iter().any(|m| !m.is_ascii() && lower.contains(m))
}

/// Whether a sentence claims each thing it names ("both", "each", "suites"): every named
/// tool must have run.
fn names_each(sentence: &str) -> bool {
    sentence
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| matches!(w, "both" | "each" | "every" | "suites"))
}

/// "calc : 4 tests unitaires passent" after a `cargo test` of several crates: a count said
/// of one crate, named as the sentence's label (`calc:`) or in a code span, is that crate's
/// (of the kind of tests the sentence names, where it names one): one of its sections, or
/// their sum. None where the last cargo run printed one crate's sections, or the sentence
/// names no crate or several (a crate a clause says did not run is not named).
fn crate_counts(
    claim: &Claim,
    fresh: &[&Check],
) -> Option<(String, Option<&'static str>, Vec<u64>)> {
    let last = fresh
        .iter()
        .rev()
        .find(|c| c.runner == Runner::Cargo && c.listing.is_none())?;
    let sections = summary::cargo_sections_by_crate(&last.run.output);
    let mut crates: Vec<&str> = sections.iter().filter_map(|s| s.0.as_deref()).collect();
    crates.sort_unstable();
    crates.dedup();
    if crates.len() < 2 {
        return None;
    }
    let affirmed: Vec<&str> = claim
        .sentence
        .split([';', '；', ',', '，', '。'])
        .filter(|clause| {
            !super::rows::negates(&super::vocab::outside_spans(clause, " ").to_lowercase())
        })
        .collect();
    let as_crate = |w: &str| w.trim().to_lowercase().replace('-', "_");
    let label = super::rows::row_text(&claim.sentence)
        .split_once([':', '：'])
        .map(|(head, _)| as_crate(head.trim_matches(['`', '*', ' '])))
        .unwrap_or_default();
    let named: Vec<&str> = crates
        .iter()
        .copied()
        .filter(|c| {
            label == *c
                || affirmed
                    .iter()
                    .any(|clause| super::vocab::spans_of(clause).any(|s| as_crate(s) == *c))
        })
        .collect();
    let [krate] = named.as_slice() else {
        return None;
    };
    let kind = claim.tools.iter().find_map(|t| t.kind);
    let own: Vec<u64> = sections
        .iter()
        .filter(|(c, s, _, _)| c.as_deref() == Some(*krate) && kind.is_none_or(|k| s.kind() == k))
        .map(|(_, _, n, _)| *n)
        .collect();
    if own.is_empty() {
        return None;
    }
    let mut allowed = own.clone();
    allowed.push(own.iter().sum());
    allowed.sort_unstable();
    allowed.dedup();
    Some(((*krate).to_owned(), kind, allowed))
}

/// The pass counts a message may report: the total of the last full run of each
/// runner (summed over runners), any single run's total, or one suite's count.
/// The test runners a claim's tools name by their commands (node:test: `node --test`; the
/// JS suite: those of JS), not a kind of tests.
fn named_runners(claim: &Claim) -> Vec<Runner> {
    let mut out: Vec<Runner> = claim
        .tools
        .iter()
        .filter(|t| t.kind.is_none())
        .flat_map(|t| t.runs.iter())
        .map(|r| summary::runner_of(&shell_words(r)))
        .filter(|r| *r != Runner::Other)
        .collect();
    out.sort_by_key(|r| format!("{r:?}"));
    out.dedup();
    out
}

/// A runner's own summary in a run of several (`npm test` whose script is `node --test &&
/// jest && mocha`) counts too, for a runner the claim names ("node:test 2 pass").
fn counts(fresh: &[&Check], tests: bool, whole: bool, named: &[Runner]) -> Option<Vec<u64>> {
    if !tests {
        return None;
    }
    let summaries: Vec<(&Check, Summary)> = fresh
        .iter()
        .filter(|c| c.listing.is_none())
        .flat_map(|c| {
            // A run of one known runner is read as that runner's only.
            let others: &[Runner] = if c.runner == Runner::Other {
                named
            } else {
                &[]
            };
            std::iter::once(c.runner)
                .chain(others.iter().copied())
                .filter_map(|runner| {
                    summary::parse(runner, &c.run.output)
                        .filter(|s| s.counted)
                        .map(|s| (*c, s))
                })
        })
        .collect();
    if summaries.is_empty() {
        return None;
    }
    let mut allowed: Vec<u64> = Vec::new();
    for (_, s) in &summaries {
        allowed.push(s.passed);
        // "Ran 5 tests, OK" of a run that skipped two tells what ran; "all five passed"
        // (a whole count) does not.
        if s.skipped > 0 && !whole {
            allowed.push(s.passed + s.skipped);
        }
        // "3 passed" may be one test binary's line; "all three" is every test's count.
        if !whole {
            allowed.extend(&s.suites);
        }
    }
    let mut total_full = 0;
    let mut total_last = 0;
    let mut seen: Vec<&str> = Vec::new();
    for (c, s) in summaries.iter().rev() {
        if seen.contains(&c.key.as_str()) {
            continue;
        }
        seen.push(&c.key);
        total_last += s.passed;
        let full = summaries
            .iter()
            .rev()
            .find(|(d, _)| d.key == c.key && !d.partial)
            .map_or(s.passed, |(_, s)| s.passed);
        total_full += full;
    }
    allowed.push(total_full);
    allowed.push(total_last);
    // One runner on different selections (`pytest tests/a.py`, then `pytest tests/b.py`)
    // reported as one total: the newest run of each distinct command, summed.
    let mut commands: Vec<&str> = Vec::new();
    let mut total_selections = 0;
    for (c, s) in summaries.iter().rev() {
        if !commands.contains(&c.run.command.as_str()) {
            commands.push(&c.run.command);
            total_selections += s.passed;
        }
    }
    allowed.push(total_selections);
    allowed.sort_unstable();
    allowed.dedup();
    Some(allowed)
}

// ---------------------------------------------------------------------------------------
// Commits and pushes

/// Whether the stage runs `git <sub>` (after git's global options).
fn git_sub(stage: &Stage, sub: &str) -> bool {
    let argv = &stage.argv;
    if stage.ran == Ran::No || argv.first().and_then(|p| p.rsplit('/').next()) != Some("git") {
        return false;
    }
    // git's global options by git's own table (`git --git-dir .git commit` runs commit).
    let args = &argv[1..];
    let globals = crate::argv::parse(&crate::argv::tables::GIT_GLOBAL, args);
    args.get(globals.rest_at).map(String::as_str) == Some(sub)
        && !argv
            .iter()
            .any(|a| a == "--dry-run" || a == "-n" && sub == "push")
}

/// Commits the turn created: the HEAD and branch reflogs' commit entries since the start.
/// "Commit `text: document slugify` ikhona ku-`main`": a sentence that names a commit of
/// the turn by its subject and a local branch by its name says the branch holds it. A
/// `git reset --hard` after it, or a commit made on another branch, leaves the branch
/// without it (and without any commit of the turn).
fn named_commit_off_branch(claim: &Claim, made: &[Oid], f: &Facts) -> Option<Finding> {
    let repo = f.repo()?;
    let spans: Vec<&str> = super::vocab::spans_of(&claim.sentence)
        .map(str::trim)
        .collect();
    let (commit, subject) = made.iter().find_map(|oid| {
        let c = repo.find_commit(*oid).ok()?;
        let subject = c.summary()?.to_owned();
        spans.contains(&subject.as_str()).then_some((*oid, subject))
    })?;
    let branches: Vec<(&str, Oid)> = spans
        .iter()
        .filter(|s| **s != subject)
        .filter_map(|s| {
            let tip = repo
                .find_reference(&format!("refs/heads/{s}"))
                .ok()?
                .target()?;
            Some((*s, tip))
        })
        .collect();
    let [(branch, tip)] = branches.as_slice() else {
        return None;
    };
    let holds = *tip == commit || repo.graph_descendant_of(*tip, commit).unwrap_or(true);
    // A branch that holds a commit of the same subject (a rebase or a cherry-pick made it
    // again) holds it too.
    let same_subject = || {
        let mut walk = repo.revwalk().ok()?;
        walk.push(*tip).ok()?;
        Some(walk.take(200).flatten().any(|o| {
            repo.find_commit(o)
                .ok()
                .and_then(|c| c.summary().map(|s| s == subject))
                .unwrap_or(false)
        }))
    };
    // A branch that holds another commit of the turn may hold this one rewritten (`git
    // commit --amend`, a rebase, a squash), which a story of the turn may tell: only a
    // branch with none of the turn's commits is held to it.
    let holds_another = made
        .iter()
        .any(|m| m == tip || repo.graph_descendant_of(*tip, *m).unwrap_or(true));
    if holds || holds_another || same_subject().unwrap_or(true) {
        return None;
    }
    Some(finding(
        claim,
        format!(
            "the commit \"{subject}\" ({:.7}) was made in this turn, and `{branch}` does not hold it",
            commit.to_string()
        ),
        "say where the commit is (or put it on the branch) before finishing",
    ))
}

fn turn_commits(f: &Facts) -> Vec<Oid> {
    let (Some(repo), Some(start)) = (f.repo(), f.start) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut names = vec!["HEAD".to_owned()];
    if let Ok(refs) = repo.references_glob("refs/heads/*") {
        names.extend(refs.flatten().filter_map(|r| r.name().map(str::to_owned)));
    }
    for name in names {
        let Ok(log) = repo.reflog(&name) else {
            continue;
        };
        for e in log.iter() {
            if e.committer().when().seconds() < start {
                break;
            }
            let msg = e.message().unwrap_or("");
            // A rebase makes its commits anew ("rebase (pick)", "rebase (fixup)", "rebase
            // -i (squash)", "pull --rebase (pick)"); its start and finish make none.
            let rebased = (msg.starts_with("rebase") || msg.starts_with("pull --rebase"))
                && !msg.contains("(start)")
                && !msg.contains("(finish)")
                && !msg.contains("(abort)");
            if msg.starts_with("commit")
                || msg.starts_with("cherry-pick")
                || msg.starts_with("revert")
                || msg.starts_with("merge")
                || rebased
            {
                out.push(e.id_new());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// `[main 1a2b3c4] subject` lines of `git commit` output: the hashes made.
/// Whether `command` runs any of `patterns` (a policy's command list), read as the audit
/// reads a turn's commands: stage by stage, wrappers peeled.
pub fn runs_any(command: &str, patterns: &[String]) -> bool {
    shellrun::stages(command).iter().any(|s| {
        let peeled = shellrun::peel(&s.argv);
        patterns.iter().any(|p| matches_either(&s.argv, &peeled, p))
    })
}

/// Whether `command` runs `git <sub>` (a real one: not a dry run).
pub fn runs_git(command: &str, sub: &str) -> bool {
    shellrun::stages(command).iter().any(|s| git_sub(s, sub))
}

/// The lines of a `git commit`'s output that name the commit it made (`[main 1a2b3c4]
/// message`), as the audit reads them.
pub fn commit_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| committed_in_output(l).len() == 1)
}

fn committed_in_output(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let inner = l.strip_prefix('[')?.split(']').next()?;
            let h = inner.split_whitespace().last()?;
            (h.len() >= 7 && h.chars().all(|c| c.is_ascii_hexdigit())).then(|| h.to_lowercase())
        })
        .collect()
}

/// A subject the sentence quotes that a commit of HEAD's history has (the last 200), made
/// before this turn.
fn earlier_commit_named(sentence: &str, f: &Facts) -> Option<String> {
    const QUOTES: &[(char, char)] = &[
        ('"', '"'),
        ('«', '»'),
        ('“', '”'),
        ('„', '“'),
        ('「', '」'),
        ('`', '`'),
        ('\'', '\''),
    ];
    let mut quoted: Vec<&str> = Vec::new();
    for (open, close) in QUOTES {
        let mut rest = sentence;
        while let Some(at) = rest.find(*open) {
            let inner = &rest[at + open.len_utf8()..];
            let Some(end) = inner.find(*close) else {
                break;
            };
            let q = inner[..end].trim();
            if q.chars().count() >= 3 {
                quoted.push(q);
            }
            rest = &inner[end + close.len_utf8()..];
        }
    }
    if quoted.is_empty() {
        return None;
    }
    let repo = f.repo()?;
    let mut walk = repo.revwalk().ok()?;
    walk.push_head().ok()?;
    walk.take(200)
        .filter_map(|id| repo.find_commit(id.ok()?).ok())
        .filter_map(|c| c.summary().map(str::to_owned))
        .find(|s| quoted.contains(&s.trim()))
}

pub fn commit_evidence(claim: &Claim, hash: Option<&str>, f: &Facts) -> Result<String, Finding> {
    let made = turn_commits(f);
    let from_output: Vec<String> = f
        .runs
        .iter()
        .filter(|r| r.stages.iter().any(|s| git_sub(s, "commit")))
        .flat_map(|r| committed_in_output(&r.output))
        .collect();
    let fix = "commit, then report the commit it made";
    match hash.map(str::to_lowercase) {
        None => {
            if let Some(found) = named_commit_off_branch(claim, &made, f) {
                return Err(found);
            }
            if let Some(c) = made.first() {
                return Ok(format!("commit {:.7} was made in this turn", c.to_string()));
            }
            if let Some(h) = from_output.first() {
                return Ok(format!("`git commit` made {h} in this turn"));
            }
            let mut found = finding(
                claim,
                "no commit was made in this turn (reflog and the turn's `git commit` output)"
                    .into(),
                fix,
            );
            // "the comparison introduced in the last commit «max: refactor»": a subject
            // the history already had names a commit made before the turn.
            if let Some(subject) = earlier_commit_named(&claim.sentence, f) {
                found.blocks = false;
                found.why.push_str(&format!(
                    "; it names the commit \"{subject}\", made before this turn (read as a reference to it)"
                ));
            }
            Err(found)
        }
        Some(h) => {
            if made.iter().any(|c| c.to_string().starts_with(&h)) {
                return Ok(format!("commit {h} was made in this turn"));
            }
            if from_output
                .iter()
                .any(|o| o.starts_with(&h) || h.starts_with(o.as_str()))
            {
                return Ok(format!("`git commit` made {h} in this turn"));
            }
            let existing = f
                .repo()
                .and_then(|r| r.revparse_single(&h).ok())
                .and_then(|o| o.peel_to_commit().ok());
            let none_made = made.is_empty() && from_output.is_empty();
            let why = match existing {
                Some(_) if f.start.is_some() => {
                    format!("commit {h} exists, but was made before this turn")
                }
                Some(_) => return Ok(format!("commit {h} exists (the turn's start is unknown)")),
                None if none_made => {
                    "no commit was made in this turn (reflog and the turn's `git commit` output)"
                        .into()
                }
                None => format!("no commit {h} is in the repository"),
            };
            Err(finding(
                claim,
                why,
                "report the hash of the commit this turn made (`git log -1 --format=%h`)",
            ))
        }
    }
}

/// Branches the turn pushed: remote-tracking refs updated by a push since the start, and
/// the `old..new  src -> dst` lines of the turn's `git push` output.
fn pushed_branches(f: &Facts) -> Vec<String> {
    pushed_branches_since(f, 0)
}

/// The branches a push of this turn updated: a remote-tracking ref's reflog entry "update by
/// push" from `slack` seconds after the turn's start second on (its time is whole seconds:
/// a push made in the second before the turn began stands in the same second), and the
/// ref lines of the turn's `git push` output.
fn pushed_branches_since(f: &Facts, slack: i64) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(repo), Some(start)) = (f.repo(), f.start.map(|s| s + slack)) {
        if let Ok(refs) = repo.references_glob("refs/remotes/*") {
            for r in refs.flatten() {
                let Some(name) = r.name().map(str::to_owned) else {
                    continue;
                };
                let Ok(log) = repo.reflog(&name) else {
                    continue;
                };
                let pushed = log.iter().any(|e| {
                    e.committer().when().seconds() >= start
                        && e.message().is_some_and(|m| m.starts_with("update by push"))
                });
                if pushed {
                    let short = name.trim_start_matches("refs/remotes/");
                    out.push(short.split_once('/').map_or(short, |(_, b)| b).to_owned());
                }
            }
        }
    }
    // " - [deleted]  wip/spike": a deletion on the remote is no push of the branch.
    out.extend(
        push_ref_lines(f)
            .filter(|line| !line.refused && !line.text.contains("[deleted]"))
            .map(|line| line.dst.to_owned()),
    );
    for r in f
        .runs
        .iter()
        .filter(|r| r.stages.iter().any(|s| git_sub(s, "push")))
    {
        let failed = r.output.contains("failed to push")
            || r.output.contains("fatal:")
            || r.output.contains("[rejected]");
        let quiet_ok = !failed
            && r.stages
                .iter()
                .filter(|s| git_sub(s, "push"))
                .all(|s| (s.owns_status || s.and_chain) && s.ran == Ran::Yes && !r.is_error);
        if quiet_ok || r.output.contains("Everything up-to-date") && !failed {
            for s in r.stages.iter().filter(|s| git_sub(s, "push")) {
                // `git push origin --delete x`, `git push origin :x`: deletions.
                if s.argv.iter().any(|a| a == "--delete" || a == "-d") {
                    continue;
                }
                out.extend(
                    s.argv
                        .iter()
                        .skip(2)
                        .filter(|a| !a.starts_with('-') && !a.starts_with(':'))
                        .map(|a| a.rsplit(':').next().unwrap_or(a).to_owned()),
                );
                // `git push --all` (`--mirror`) sends every local branch.
                if s.argv.iter().any(|a| a == "--all" || a == "--mirror") {
                    if let Some(repo) = f.repo() {
                        out.extend(local_branches(repo));
                    }
                }
                out.push(String::new());
            }
        }
    }
    out
}

/// Whether a sentence tells the first of several runs ("the first pytest run", "ya
/// kwanza", "beim ersten Lauf", "第一次"), in the tables' languages.
fn tells_the_first_run(sentence: &str) -> bool {
    const FIRST: &[&str] = &[
        "first",
        "erste",
        "premier",
        "première",
        "primer",
        "primera",
        "primeir",
        "primo ",
        "prima ",
        "eerste",
        "første",
        "första",
        "ensimmäi",
        "pierwsz",
        "první",
        "prvý",
        "перв",
        "перш",
        "ilk ",
        "kwanza",
        "第一",
        "最初",
        "初回",
        "첫",
        "पहल",
        "الأول",
        "הראשון",
        "اول",
        "đầu tiên",
        "pertama",
        "unang",
        "első",
        "primul",
        "prima dat",
        "πρώτ",
        "pirm",
        "esimene",
        "prvi",
        "birinci",
        "birinchi",
    ];
    static PHRASES: OnceLock<Phrases> = OnceLock::new();
    // Prose only: `firstname` in a span is a name.
    let lower = format!(
        " {} ",
        super::vocab::outside_spans(sentence, " ").to_lowercase()
    );
    PHRASES
        .get_or_init(|| Phrases::new(FIRST))
        .find_in(&lower)
        .is_some()
}

/// Evidence for a path said to be still there ("`logs/app.log` stays in place"): it is,
/// as the turn left it.
pub fn kept_evidence(claim: &Claim, path: &Path, f: &Facts) -> Result<String, Finding> {
    let shown = path.display();
    if path.symlink_metadata().is_ok() {
        return Ok(format!("{shown} is there"));
    }
    let was = if f.start_blob(path).is_some() || f.had_at_start(path) {
        " (it was there when the turn began)"
    } else {
        ""
    };
    Err(finding(
        claim,
        format!("{shown} is not there at the end of the turn{was}"),
        "check where it went (`git status`, `ls`), then correct the message",
    ))
}

/// Whether the clause of a sentence that names `name` says it is local ("locally",
/// "lokalt", "localement", "локальн", "ローカル", "本地").
fn said_local(sentence: &str, name: &str) -> bool {
    const LOCAL: &[&str] = &[
        "local",
        "lokal",
        "локальн",
        "lokáln",
        "paikallise",
        "yerel",
        "helyi",
        "helyben",
        "ローカル",
        "本地",
        "로컬",
        "स्थानीय",
        "محلي",
        "מקומי",
        "محلی",
        "cục bộ",
    ];
    static PHRASES: OnceLock<Phrases> = OnceLock::new();
    let local = PHRASES.get_or_init(|| Phrases::new(LOCAL));
    sentence
        .split([',', ';', '，', '；', '。'])
        .find(|c| c.contains(name))
        .is_some_and(|clause| {
            let prose = super::vocab::outside_spans(clause, " ").to_lowercase();
            local.find_in(&prose).is_some()
        })
}

/// `origin` opened, when it is a folder on this machine (a bare repository): what it
/// holds, not what this clone last saw of it.
fn origin_folder(repo: &Repository) -> Option<Repository> {
    let url = repo.find_remote("origin").ok()?.url()?.to_owned();
    Path::new(&url)
        .is_dir()
        .then(|| Repository::open_bare(&url).ok())
        .flatten()
}

/// The names of the repository's local branches.
fn local_branches(repo: &Repository) -> Vec<String> {
    repo.branches(Some(git2::BranchType::Local))
        .map(|branches| {
            branches
                .flatten()
                .filter_map(|(b, _)| b.name().ok().flatten().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `origin` has no branch `name` as the turn left it: this clone's remote-tracking
/// ref is gone, and so is the branch on the remote when that is a folder here.
fn absent_from_origin(repo: &Repository, name: &str) -> bool {
    let tracked = repo
        .find_reference(&format!("refs/remotes/origin/{name}"))
        .is_ok();
    let on_local_remote = origin_folder(repo)
        .map(|remote| remote.find_reference(&format!("refs/heads/{name}")).is_ok());
    !tracked && on_local_remote != Some(true)
}

/// Whether a copy command of this turn (`cp`, `rsync`, `install`, run or not) names the
/// target of a copy claim: the claim is then about that command, which may not have run.
/// A copy line of a script the turn ran (`bash scripts/cleanup.sh`) is one of its
/// commands too.
pub fn copied_to(claim: &Claim, f: &Facts) -> bool {
    let target = match &claim.kind {
        Kind::File { path, .. } | Kind::Dir { path, .. } => path.trim_end_matches('/'),
        _ => return false,
    };
    let target = target.trim_start_matches("./");
    f.runs
        .iter()
        .flat_map(|r| &r.stages)
        .any(|s| copies_to(&s.argv, target))
        || scripts_run(f).iter().any(|script| {
            std::fs::read_to_string(script).is_ok_and(|text| {
                text.len() <= 64 * 1024
                    && text.contains(target)
                    && text
                        .lines()
                        .flat_map(shellrun::stages)
                        .any(|s| copies_to(&s.argv, target))
            })
        })
}

/// Whether a command line's stage copies to `target` (`cp`, `rsync`, `install`, `ditto`).
fn copies_to(argv: &[String], target: &str) -> bool {
    let program = argv
        .first()
        .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
    if !matches!(program, "cp" | "rsync" | "install" | "ditto") {
        return false;
    }
    let clean = |a: &str| a.trim_start_matches("./").trim_end_matches('/').to_owned();
    // `cp -t dist a.txt`: the folder the option names is where the copies go.
    let target_dir = argv.iter().enumerate().find_map(|(i, a)| {
        a.strip_prefix("--target-directory=")
            .map(clean)
            .or_else(|| {
                (a == "-t")
                    .then(|| argv.get(i + 1).map(|d| clean(d)))
                    .flatten()
            })
    });
    let mut args: Vec<String> = argv[1..]
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(|a| clean(a))
        .collect();
    if let Some(dir) = &target_dir {
        args.retain(|a| a != dir);
        args.push(dir.clone());
    }
    // Where the copy went (the last path, or `-t`'s), never what it copied: `cp
    // notes.txt dist/` names `notes.txt` as its source.
    let Some((dest, sources)) = args.split_last() else {
        return false;
    };
    // `cp a.txt b.md dist/` puts `dist/a.txt` there; `cp -r config config.bak` puts
    // `config.bak/config/app.yaml`.
    let into_dir = sources
        .iter()
        .any(|s| format!("{dest}/{}", s.rsplit('/').next().unwrap_or(s)) == target);
    !sources.is_empty()
        && (into_dir
            || dest == target
            || target.starts_with(&format!("{dest}/"))
            || dest.starts_with(&format!("{target}/")))
}

/// The shell scripts the turn ran, as files under the project: run as a program
/// (`./scripts/a.sh`) or given to a shell (`bash scripts/a.sh`; `bash -n` only reads it).
fn scripts_run(f: &Facts) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for s in f.runs.iter().flat_map(|r| &r.stages) {
        if s.ran == Ran::No {
            continue;
        }
        let argv = shellrun::peel(&s.argv);
        let program = argv
            .first()
            .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
        let shell = matches!(
            program,
            "bash" | "sh" | "zsh" | "dash" | "ksh" | "source" | "."
        );
        let script = if shell {
            if argv.iter().any(|a| a == "-n" || a == "-c") {
                continue;
            }
            argv[1..].iter().find(|a| !a.starts_with('-'))
        } else {
            argv.first().filter(|p| p.contains('/'))
        };
        let Some(script) = script else { continue };
        let path = f.root.join(script.trim_start_matches("./"));
        if path.is_file() && !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// What command a file or folder claim's sentence may describe rather than report, where
/// that command did not run in this turn: the command a row leads with (`` `make clean`:
/// removes `build/` `` after `make -n clean` only), or a script or Makefile the turn wrote
/// whose text names the claim's path and that no stage ran (`bash -n` and `make -n` only
/// read it).
pub fn describes_an_unrun_command(claim: &Claim, f: &Facts) -> Option<String> {
    let (Kind::File { path, .. } | Kind::Dir { path, .. }) = &claim.kind else {
        return None;
    };
    let dry = |argv: &[String]| {
        argv.iter().any(|a| {
            matches!(
                a.as_str(),
                "-n" | "--dry-run" | "--just-print" | "--recon" | "--check"
            )
        })
    };
    // A row that leads with a command: `make clean`: …
    let row = claim
        .sentence
        .trim_start_matches(['-', '*', '•', ' ', '|'])
        .strip_prefix('`')
        .and_then(|rest| rest.split_once('`'))
        .filter(|(_, after)| {
            after
                .trim_start()
                .starts_with([':', '：', '|', '—', '-', '→'])
        })
        .map(|(span, _)| span.trim().to_owned())
        .filter(|span| {
            span.split_whitespace().count() >= 2 && super::vocab::path_of(span, true).is_none()
        });
    if let Some(command) = row {
        let words = shell_words(&command);
        let ran = f
            .runs
            .iter()
            .flat_map(|r| &r.stages)
            .any(|s| s.ran != Ran::No && stage_holds(&s.argv, &words) && !dry(&s.argv));
        if !ran {
            return Some(format!("`{}`", cut(&command)));
        }
        return None;
    }
    // A script or Makefile written in this turn that names the path, and never ran.
    let bare = path.trim_end_matches('/');
    let written: Vec<PathBuf> = f
        .written_paths()
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".sh")
                || name.ends_with(".bash")
                || name == "Makefile"
                || name == "justfile"
        })
        .collect();
    written.into_iter().find_map(|script| {
        let text = std::fs::read_to_string(&script).ok()?;
        if text.len() > 64 * 1024 || !text.contains(bare) {
            return None;
        }
        let name = script.file_name()?.to_str()?.to_owned();
        let is_make = name == "Makefile" || name == "justfile";
        let ran = f.runs.iter().flat_map(|r| &r.stages).any(|s| {
            let program = s
                .argv
                .first()
                .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
            if is_make {
                matches!(program, "make" | "just") && !dry(&s.argv)
            } else {
                // The script run as a program, or given to a shell (`chmod +x` and `cat`
                // of it run nothing; `bash -n` only reads it).
                let shell = matches!(
                    program,
                    "bash" | "sh" | "zsh" | "dash" | "ksh" | "source" | "."
                );
                s.argv.first().is_some_and(|p| p.ends_with(&name))
                    || shell
                        && !s.argv.iter().any(|a| a == "-n")
                        && s.argv[1..]
                            .iter()
                            .find(|a| !a.starts_with('-'))
                            .is_some_and(|a| a.ends_with(&name))
            }
        });
        let rel = script
            .strip_prefix(&f.root)
            .unwrap_or(&script)
            .display()
            .to_string();
        (!ran).then(|| format!("`{rel}`"))
    })
}

/// The command of this turn that put a file claim's path back by name (`git checkout --
/// config/app.yaml`, `git restore config/app.yaml`, `git checkout HEAD -- a`), where the
/// file is as the turn found it.
pub fn restored_by_name(claim: &Claim, f: &Facts) -> Option<String> {
    let (Kind::File { path, change } | Kind::Dir { path, change }) = &claim.kind else {
        return None;
    };
    if *change != Change::Modified {
        return None;
    }
    let full = resolve(path, f);
    let now = Oid::hash_file(ObjectType::Blob, &full).ok();
    if now.is_none() || now != f.start_blob(&full) {
        return None;
    }
    f.runs.iter().flat_map(|r| &r.stages).find_map(|s| {
        let restores =
            git_sub(s, "restore") || git_sub(s, "checkout") && s.argv.iter().any(|a| a == "--");
        let names = s
            .argv
            .iter()
            .skip(2)
            .any(|a| !a.starts_with('-') && canonical_lexical(f.ev.cwd, a) == full);
        (restores && names && s.ran != Ran::No).then(|| command_line(&s.argv))
    })
}

/// Whether a copy a checked line states as done ("✅ `config/app.yaml` copied to
/// `dist/app.yaml`", after a `cp` that failed) has its target nowhere: not on disk at the
/// turn's end, and never written in it. Prose may describe what a script copies, or
/// plan it; a checked line says it is done.
pub fn copy_target_missing(claim: &Claim, f: &Facts) -> bool {
    let (Kind::File { path, .. } | Kind::Dir { path, .. }) = &claim.kind else {
        return false;
    };
    let checked = super::vocab::CHECK_MARKS.iter().any(|m| {
        claim
            .sentence
            .trim_start_matches(['-', '*', '•', ' '])
            .starts_with(*m)
    });
    if !checked || path.contains(['*', '?']) {
        return false;
    }
    let full = f.ev.cwd.join(path.trim_end_matches('/'));
    !full.exists() && !f.wrote(&full, true)
}

/// Evidence for a tag or a branch the message says is there: the repository has it (a
/// branch: here or on a remote).
/// Whether a sentence says something was made ("a new branch", "created", "ساختم"):
/// a word for new of any table, or a creation form.
fn says_made(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c.is_ascii_punctuation() || "،。，「」".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let new = words
        .iter()
        .any(|w| super::named::NEW_BEFORE.contains(w) || super::named::NEW_AFTER.contains(w))
        || lower.contains("新");
    new || super::lang::LANGS
        .iter()
        .flat_map(|l| l.created.iter())
        .map(|c| c.trim())
        .filter(|c| c.chars().count() >= 4)
        .any(|c| {
            if c.is_ascii() {
                words.iter().any(|w| w.starts_with(c))
            } else {
                lower.contains(c)
            }
        })
        || words.iter().any(|w| ["ساختم", "ساخته", "ساخت"].contains(w))
}

/// When a local branch's reflog began before the turn: the time of its oldest entry, as
/// the date, where that is before the turn's start.
fn branch_older_than_turn(repo: &Repository, name: &str, f: &Facts) -> Option<String> {
    let start = f.start?;
    let log = repo.reflog(&format!("refs/heads/{name}")).ok()?;
    let oldest = log.iter().last()?;
    let when = oldest.committer().when().seconds();
    // A minute's slack for clocks.
    (when + 60 < start).then(|| {
        let at = UNIX_EPOCH + std::time::Duration::from_secs(when.max(0) as u64);
        crate::time::rfc3339(at)[..10].to_owned()
    })
}

pub fn ref_evidence(
    claim: &Claim,
    name: &str,
    tag: bool,
    at: Option<&str>,
    f: &Facts,
) -> Result<String, Finding> {
    let what = if tag { "tag" } else { "branch" };
    let Some(repo) = f.repo() else {
        return Err(reported(
            claim,
            format!("no git repository here to look for the {what} {name} in"),
            "say where it is",
        ));
    };
    let has = |r: &str| repo.find_reference(r).is_ok();
    let there = if tag {
        has(&format!("refs/tags/{name}"))
    } else {
        has(&format!("refs/heads/{name}"))
            || repo
                .references_glob(&format!("refs/remotes/*/{name}"))
                .is_ok_and(|mut refs| refs.next().is_some())
            || repo.find_reference(&format!("refs/remotes/{name}")).is_ok()
    };
    // "Lokalt heter grenen nu också `feat/parser`": a branch said local is a local one,
    // not origin's of that name.
    if there && !tag && !has(&format!("refs/heads/{name}")) && said_local(&claim.sentence, name) {
        return Err(finding(
            claim,
            format!("there is no local branch {name}: only a remote-tracking one has that name"),
            "make or rename the local branch (`git branch -m`), or correct the message",
        ));
    }
    // `git tag v0.1.0` of this turn that git refused ("tag 'v0.1.0' already exists"):
    // the tag is there, and not the one this turn made.
    let making: Vec<&Run> = f
        .runs
        .iter()
        .filter(|r| {
            r.stages.iter().any(|s| {
                let makes = if tag {
                    git_sub(s, "tag")
                        && !s.argv.iter().any(|a| {
                            matches!(a.as_str(), "-d" | "--delete" | "-l" | "--list" | "-v")
                        })
                } else {
                    git_sub(s, "branch") || git_sub(s, "checkout") || git_sub(s, "switch")
                };
                makes && s.argv.iter().any(|a| a == name)
            })
        })
        .collect();
    let refused = format!("'{name}' already exists");
    if there && !making.is_empty() && making.iter().all(|r| r.output.contains(&refused)) {
        return Err(finding(
            claim,
            format!(
                "git refused to make it in this turn (`{}`: {what} '{name}' already exists): the {what} is an older one",
                cut(&making[0].command)
            ),
            "report the ref as it was (or move it on purpose, and say so)",
        ));
    }
    // "شاخهٔ جدید `release/1.2` را … ساختم" (made a new branch) after `git switch
    // release/1.2 || git switch -c release/1.2` found it there: its reflog began before
    // the turn.
    if there && !tag && says_made(&claim.sentence) {
        if let Some(since) = branch_older_than_turn(repo, name, f) {
            return Err(finding(
                claim,
                format!("the branch {name} was there before this turn (its reflog begins {since}): this turn did not make it"),
                "report the branch as one that was there (or say what this turn did on it)",
            ));
        }
    }
    if there && !tag {
        if let Some((wrong, tips)) = at.and_then(|h| branch_points_elsewhere(repo, name, h)) {
            return Err(finding(
                claim,
                format!(
                    "{name} points at {wrong}, not at the commit {} the message names ({tips})",
                    at.unwrap_or_default()
                ),
                "report where the branch points (`git rev-parse`), or move it there",
            ));
        }
    }
    if there {
        if let Some(wrong) = at.and_then(|h| tag_points_elsewhere(repo, name, h)) {
            return Err(finding(
                claim,
                format!(
                    "the tag {name} points at {wrong}, not at the commit {} the message names",
                    at.unwrap_or_default()
                ),
                "move the tag to that commit (`git tag -f`), or report where it points",
            ));
        }
        return Ok(format!("the repository has the {what} {name}"));
    }
    let tried = f.runs.iter().any(|r| {
        r.stages.iter().any(|s| {
            (git_sub(s, "tag")
                || git_sub(s, "branch")
                || git_sub(s, "checkout")
                || git_sub(s, "switch"))
                && s.argv.iter().any(|a| a == name)
        })
    });
    Err(finding(
        claim,
        if tried {
            format!("a command of this turn named the {what} {name}, but the repository has no {what} of that name")
        } else {
            format!("the repository has no {what} {name}, and no command of this turn made one")
        },
        if tag {
            "create the tag (and check it exists), or correct the message"
        } else {
            "create the branch, or correct the message"
        },
    ))
}

/// Where a branch points when the message names another commit for it: `None` when it (or,
/// for `origin/…`, origin's own branch where origin is a folder here) points there, or when
/// the hash names no commit here. Otherwise the tip, and where it was read.
fn branch_points_elsewhere(
    repo: &git2::Repository,
    name: &str,
    hash: &str,
) -> Option<(String, String)> {
    let named = repo.revparse_single(hash).ok()?.peel_to_commit().ok()?.id();
    let tip = |r: &git2::Repository, refname: &str| {
        r.revparse_single(refname)
            .ok()
            .and_then(|o| o.peel_to_commit().ok())
            .map(|c| c.id())
    };
    let mut tips: Vec<(Oid, String)> = Vec::new();
    // A bare name may be told of origin's branch ("`main` на origin по-прежнему
    // указывает на …"): the local branch, the remote-tracking one and origin's own each
    // back it.
    let branch = name.strip_prefix("origin/").unwrap_or(name);
    for refname in [
        format!("refs/heads/{name}"),
        format!("refs/remotes/{name}"),
        format!("refs/remotes/origin/{branch}"),
    ] {
        if let Some(id) = tip(repo, &refname) {
            tips.push((id, refname));
        }
    }
    if let Some(origin) = origin_folder(repo) {
        if let Some(id) = tip(&origin, &format!("refs/heads/{branch}")) {
            tips.push((id, format!("origin's own {branch}")));
        }
    }
    let (first, read) = tips.first()?;
    if tips.iter().any(|(id, _)| *id == named) {
        return None;
    }
    Some((first.to_string()[..7].to_owned(), read.clone()))
}

/// Where a tag points when the message names another commit for it: `None` when it points
/// there, or when the hash names no commit of the repository (then it is not a claim
/// about this repository's commits that can be checked).
fn tag_points_elsewhere(repo: &git2::Repository, name: &str, hash: &str) -> Option<String> {
    let tagged = repo
        .revparse_single(&format!("refs/tags/{name}"))
        .ok()?
        .peel_to_commit()
        .ok()?
        .id();
    let named = repo.revparse_single(hash).ok()?.peel_to_commit().ok()?.id();
    (tagged != named).then(|| tagged.to_string()[..7].to_owned())
}

/// The refs a push list names, once each, without the remotes' own names (`git push
/// origin mian` lists `origin` among its arguments).
fn shown_refs(pushed: &[String], f: &Facts) -> String {
    let mut shown: Vec<&str> = Vec::new();
    for p in pushed.iter().map(String::as_str).filter(|p| !p.is_empty()) {
        let remote = f.repo().is_some_and(|r| r.find_remote(p).is_ok());
        if !remote && !shown.contains(&p) {
            shown.push(p);
        }
    }
    shown.join(", ")
}

pub fn push_evidence(claim: &Claim, branch: Option<&str>, f: &Facts) -> Result<String, Finding> {
    let pushed = pushed_branches(f);
    let fix = "push, then report where it went";
    if pushed.is_empty() {
        let tried = f
            .runs
            .iter()
            .any(|r| r.stages.iter().any(|s| git_sub(s, "push")));
        return Err(finding(
            claim,
            if tried {
                "`git push` ran in this turn, but it did not succeed".into()
            } else {
                "no `git push` ran in this turn".into()
            },
            fix,
        ));
    }
    match branch {
        Some(b) => {
            let b = b.trim_start_matches("refs/heads/");
            if pushed
                .iter()
                .any(|p| p == b || p.trim_start_matches("refs/heads/") == b)
            {
                Ok(format!("{b} was pushed in this turn"))
            } else {
                Err(finding(
                    claim,
                    format!("the turn pushed {}, not {b}", shown_refs(&pushed, f)),
                    "push to that branch, or name the branch it went to",
                ))
            }
        }
        None => Ok("a push succeeded in this turn".into()),
    }
    .and_then(|e| pushed_to_the_remote_named(claim, f).map(|()| e))
    .and_then(|e| named_refs_not_refused(claim, &pushed, f).map(|()| e))
    .and_then(|e| match branch {
        Some(b) => pushed_branch_holds_the_work(claim, b, f).map(|()| e),
        None => Ok(e),
    })
}

/// "Commit `config: port 9090`; pushed to `origin/feat/port`" after `git push origin
/// feat/port` sent a local branch that holds none of the turn's commits (they are on
/// `main`): the push carried none of the work. Only when the turn made commits that a
/// branch still holds, and neither the branch pushed nor its remote-tracking refs hold
/// any of them (a commit made after the push sits on the local branch).
fn pushed_branch_holds_the_work(claim: &Claim, branch: &str, f: &Facts) -> Result<(), Finding> {
    let Some(repo) = f.repo() else {
        return Ok(());
    };
    let branch = branch.trim_start_matches("refs/heads/");
    let tip = |name: &str| repo.find_reference(name).ok().and_then(|r| r.target());
    let holds = |tip: Oid, c: Oid| tip == c || repo.graph_descendant_of(tip, c).unwrap_or(true);
    let mut kept_by: Vec<Oid> = tip("HEAD").into_iter().collect();
    if let Ok(refs) = repo.references_glob("refs/heads/*") {
        kept_by.extend(refs.flatten().filter_map(|r| r.target()));
    }
    let made: Vec<Oid> = turn_commits(f)
        .into_iter()
        .filter(|c| kept_by.iter().any(|t| holds(*t, *c)))
        .collect();
    if made.is_empty() {
        return Ok(());
    }
    let mut pushed_tips: Vec<(String, Oid)> = Vec::new();
    if let Ok(remotes) = repo.remotes() {
        for remote in remotes.iter().flatten() {
            let name = format!("{remote}/{branch}");
            if let Some(t) = tip(&format!("refs/remotes/{name}")) {
                pushed_tips.push((name, t));
            }
        }
    }
    let local = tip(&format!("refs/heads/{branch}"));
    if pushed_tips.is_empty()
        || local.is_some_and(|t| made.iter().any(|c| holds(t, *c)))
        || pushed_tips
            .iter()
            .any(|(_, t)| made.iter().any(|c| holds(*t, *c)))
    {
        return Ok(());
    }
    let (name, at) = &pushed_tips[0];
    let short: String = at.to_string().chars().take(7).collect();
    Err(finding(
        claim,
        format!(
            "the push of {branch} carried none of the {} commit(s) this turn made: `{name}` is at {short}, which holds none of them",
            made.len()
        ),
        "push the branch that holds the commits (`git push origin HEAD:<branch>`), or report that the work was not pushed",
    ))
}

/// "Pushed `main` and the moved tag `v1.0`" after a push that updated `main` and printed
/// `! [rejected] v1.0 -> v1.0 (already exists)`: a ref the sentence names in a code span
/// that a push of the turn refused, and no push of the turn updated, was not pushed.
fn named_refs_not_refused(claim: &Claim, pushed: &[String], f: &Facts) -> Result<(), Finding> {
    let refused = refused_refs(f);
    if refused.is_empty() {
        return Ok(());
    }
    let named: Vec<&str> = claim
        .sentence
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::trim)
        .collect();
    let short = |r: &str| {
        r.trim_start_matches("refs/heads/")
            .trim_start_matches("refs/tags/")
            .to_owned()
    };
    match refused.iter().find(|(r, _)| {
        named.iter().any(|n| short(n) == short(r)) && !pushed.iter().any(|p| short(p) == short(r))
    }) {
        Some((r, line)) => Err(finding(
            claim,
            format!("the push refused `{}`: {}", short(r), cut(line.trim())),
            "report what the push refused (or fix the cause and push again)",
        )),
        None => Ok(()),
    }
}

/// The refs the turn's `git push` output lists as refused (`! [rejected] a -> b (…)`,
/// `! [remote rejected] …`), with their line: the destination, as pushed.
fn refused_refs(f: &Facts) -> Vec<(String, String)> {
    push_ref_lines(f)
        .filter(|line| line.refused)
        .map(|line| (line.dst.to_owned(), line.text.to_owned()))
        .collect()
}

/// One ref line of a `git push`'s output (` * [new branch]  a -> a`, `   1a2b..3c4d  main ->
/// main`, `! [rejected]  main -> main (fetch first)`).
struct PushRefLine<'a> {
    text: &'a str,
    /// The ref it went to (or would have), as the push names it.
    dst: &'a str,
    /// Marked `!`: rejected by git or refused by the remote.
    refused: bool,
}

/// The ref lines of every `git push` output of the turn.
fn push_ref_lines<'a>(f: &'a Facts) -> impl Iterator<Item = PushRefLine<'a>> + 'a {
    f.runs
        .iter()
        .filter(|r| r.stages.iter().any(|s| git_sub(s, "push")))
        .flat_map(|r| r.output.lines())
        .filter_map(|text| {
            let t = text.trim_start();
            let refused = t.starts_with("! [")
                || text.contains("[rejected]")
                || text.contains("[remote rejected]");
            let dst = t.split(" -> ").nth(1)?.split_whitespace().next()?;
            Some(PushRefLine { text, dst, refused })
        })
}

/// When a file's inode last changed (a rename, a `chmod`), in seconds since the epoch; 0
/// where the platform does not say.
fn changed_at(m: &std::fs::Metadata) -> i64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        m.ctime()
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        0
    }
}

/// Evidence for a claim that a branch was deleted: no local branch of that name is left,
/// nor, when the claim names the remote, `origin`'s branch as this clone last saw it (a
/// `git push origin --delete` of the turn removes that too).
pub fn branch_gone_evidence(
    claim: &Claim,
    name: &str,
    remote: bool,
    f: &Facts,
) -> Result<String, Finding> {
    let Some(repo) = f.repo() else {
        return Err(no_repository(claim));
    };
    let fix = "delete it (or say why it is still there) before finishing";
    // Only a deletion the turn tried (`git branch -d`, `git push --delete`, `git push
    // origin :name`) holds the sentence to it: a branch no command touched may be named in
    // a sentence this reading took for a deletion ("the branch already existed").
    // `git branch --merged | … | xargs git branch -d` names its branches from the pipe (the
    // stage reads as `git branch -d` with no operand): a deletion of the branches the line
    // picked, this one among them or not.
    let tried = f.runs.iter().flat_map(|r| &r.stages).any(|s| {
        let argv = shellrun::peel(&s.argv);
        let git = argv
            .first()
            .is_some_and(|p| p.rsplit('/').next() == Some("git"));
        let names = argv.iter().any(|a| {
            a == name || a.strip_prefix(':') == Some(name) || a.ends_with(&format!("/{name}"))
        });
        let deletes = argv
            .iter()
            .any(|a| matches!(a.as_str(), "-d" | "-D" | "--delete") || a.starts_with(':'));
        let branch_fed = argv.get(1).is_some_and(|a| a == "branch")
            && argv[2..].iter().all(|a| a.starts_with('-'));
        git && (names || branch_fed) && deletes
    });
    let still = |what: String| {
        let mut found = finding(claim, what, fix);
        if !tried {
            found.blocks = false;
            found.why.push_str(" (no command of this turn deleted it)");
        }
        found
    };
    if repo.find_reference(&format!("refs/heads/{name}")).is_ok() {
        return Err(still(format!("the branch {name} is still there")));
    }
    if remote
        && repo
            .find_reference(&format!("refs/remotes/origin/{name}"))
            .is_ok()
    {
        return Err(still(format!(
            "origin/{name} is still there: no push of the turn deleted it"
        )));
    }
    Ok(format!("no branch {name} is left"))
}

/// Evidence for how far a branch and its upstream stand apart: the count the message
/// gives is how far ahead or how far behind the branch is, as the turn left them. After a
/// push, pull or fetch of the turn the sentence may tell an earlier moment: reported.
pub fn apart_evidence(
    claim: &Claim,
    branch: &str,
    upstream: &str,
    count: u64,
    f: &Facts,
) -> Result<String, Finding> {
    let Some(repo) = f.repo() else {
        return Err(no_repository(claim));
    };
    let tip = |name: &str| repo.find_reference(name).ok()?.target();
    let (Some(local), Some(remote)) = (
        tip(&format!("refs/heads/{branch}")),
        tip(&format!("refs/remotes/{upstream}")),
    ) else {
        return Err(reported(
            claim,
            format!("the repository has no {branch} or no {upstream} to count between"),
            "say which branches you compared",
        ));
    };
    let Ok((ahead, behind)) = repo.graph_ahead_behind(local, remote) else {
        return Err(reported(
            claim,
            format!("{branch} and {upstream} could not be compared"),
            "say which branches you compared",
        ));
    };
    if count == ahead as u64 || count == behind as u64 {
        return Ok(format!(
            "{branch} is {ahead} ahead of {upstream} and {behind} behind"
        ));
    }
    let mut found = finding(
        claim,
        format!(
            "the message says {count}, and {branch} is {ahead} ahead of {upstream} and {behind} behind"
        ),
        "report the count `git status -sb` or `git rev-list --count` gives",
    );
    let moved = f
        .runs
        .iter()
        .flat_map(|r| &r.stages)
        .any(|s| ["push", "pull", "fetch"].iter().any(|sub| git_sub(s, sub)));
    if moved {
        found.blocks = false;
        found
            .why
            .push_str(" (a push, pull or fetch of this turn may have changed it since)");
    }
    Err(found)
}

/// A claim about git that has no repository to look in: reported, not blocked.
fn no_repository(claim: &Claim) -> Finding {
    reported(
        claim,
        "no git repository here to look in".into(),
        "say where it is",
    )
}

/// Evidence for a claim that no file of an extension is left ("the `.bak` files are
/// deleted"): the project's files (not `.git` nor tools' caches, at most 20 000 entries)
/// with that extension, written or changed since the turn began, must be gone. One older
/// than the turn is not the turn's.
pub fn none_left_evidence(claim: &Claim, ext: &str, f: &Facts) -> Result<String, Finding> {
    const LIMIT: usize = 20_000;
    let suffix = format!(".{ext}");
    let mut left: Vec<PathBuf> = Vec::new();
    let mut seen = 0usize;
    let mut stack = vec![f.root.clone()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > LIMIT {
                return Err(reported(
                    claim,
                    format!("the project has more than {LIMIT} entries: not all were looked at"),
                    &format!("say which `*{suffix}` files are gone"),
                ));
            }
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                // Tools' caches remake their files on every run (a test run after "removed
                // the `.pyc` files"): they are not what the message cleaned.
                const CACHES: &[&str] = &[
                    ".git",
                    "node_modules",
                    "__pycache__",
                    ".pytest_cache",
                    ".mypy_cache",
                    ".ruff_cache",
                    ".tox",
                    ".venv",
                    "venv",
                    "target",
                ];
                if !CACHES.iter().any(|c| entry.file_name() == *c) {
                    stack.push(path);
                }
                continue;
            }
            let name = entry.file_name();
            // `sed -i.bak` renames the original into the backup: its content's time is the
            // original's, and only the inode's change time is the turn's.
            let new = f.start.is_none_or(|start| {
                entry.metadata().is_ok_and(|m| {
                    m.modified().is_ok_and(|t| secs(t) >= start) || changed_at(&m) >= start
                })
            });
            if name.to_string_lossy().ends_with(&suffix) && new {
                left.push(path);
            }
        }
    }
    // "borré el `.tgz` y volví a empaquetar": a file an `rm` of the turn named (or its
    // glob) that is there again was made after it, and the sentence may tell both.
    let removed_then_made = |p: &Path| {
        let rel = p
            .strip_prefix(&f.root)
            .unwrap_or(p)
            .to_string_lossy()
            .into_owned();
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        f.runs.iter().flat_map(|r| &r.stages).any(|s| {
            let argv = shellrun::peel(&s.argv);
            s.ran != Ran::No
                && argv
                    .first()
                    .is_some_and(|p| p.rsplit('/').next() == Some("rm"))
                && argv[1..].iter().any(|a| {
                    let a = a.trim_start_matches("./");
                    a == rel || Some(a) == name.as_deref() || a.ends_with(&format!("*{suffix}"))
                })
        })
    };
    match left.first() {
        None => Ok(format!("no `*{suffix}` file of this turn is left")),
        Some(p) if left.iter().all(|p| removed_then_made(p)) => Err(reported(
            claim,
            format!(
                "{} is there: an `rm` of this turn removed it, and a later command made it again",
                p.strip_prefix(&f.root).unwrap_or(p).display()
            ),
            "say that it was made again, or remove it",
        )),
        Some(p) => Err(finding(
            claim,
            format!(
                "{} is still there ({} `*{suffix}` file(s) of this turn left)",
                p.strip_prefix(&f.root).unwrap_or(p).display(),
                left.len()
            ),
            "remove them (or correct the message) before finishing",
        )),
    }
}

/// The repository and the commits of this turn, for a claim about what the turn's commit
/// holds (its files, subject, trailers); else the claim's answer: no repository is
/// reported, and with no commit of the turn the commit claim beside it answers.
fn repo_and_turn_commits<'f>(
    claim: &Claim,
    f: &'f Facts,
) -> Result<(&'f Repository, Vec<Oid>), Result<String, Finding>> {
    let Some(repo) = f.repo() else {
        return Err(Err(no_repository(claim)));
    };
    let commits = turn_commits(f);
    if commits.is_empty() {
        return Err(Ok(
            "no commit of this turn (the commit claim answers for it)".into(),
        ));
    }
    Ok((repo, commits))
}

/// Evidence for a claim that a file went into the turn's commit: a commit of this turn
/// changed it, or it has nothing left to commit. A file still changed, staged, untracked
/// or ignored that no commit of the turn holds was not committed. With no commit of the
/// turn at all, the commit claim beside it says so.
pub fn committed_evidence(claim: &Claim, path: &Path, f: &Facts) -> Result<String, Finding> {
    let (repo, commits) = match repo_and_turn_commits(claim, f) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    // What cannot be looked at is reported, never taken as committed.
    let unknown = |why: String| reported(claim, why, "say which commit holds it");
    let Some(workdir) = repo.workdir().map(crate::fsutil::canonical) else {
        return Err(unknown(
            "the repository has no working tree to look in".into(),
        ));
    };
    let Ok(rel) = path.strip_prefix(&workdir) else {
        return Err(unknown(format!(
            "{} is outside the repository",
            path.display()
        )));
    };
    if commits.iter().any(|&id| commit_changed(repo, id, rel)) {
        return Ok(format!("a commit of this turn changed {}", rel.display()));
    }
    // A folder git holds no file of (`logs/`, left empty): git commits files, and an empty
    // folder has nothing left to commit only because git never sees it.
    let in_head = || {
        repo.head()
            .ok()
            .and_then(|h| h.peel_to_tree().ok())
            .is_some_and(|t| t.get_path(rel).is_ok())
    };
    if path.is_dir() && !in_head() {
        return Err(finding(
            claim,
            format!(
                "no commit holds {}: git keeps no file under it (an empty folder is never committed)",
                rel.display()
            ),
            "add a file to the folder (a `.gitkeep`) and commit it, or say it is not in the commit",
        ));
    }
    match left_to_commit(repo, rel) {
        Some(state) => Err(finding(
            claim,
            format!(
                "no commit of this turn holds {}: it is {state}",
                rel.display()
            ),
            "commit it (or say it is not in the commit) before finishing",
        )),
        None => Ok(format!("{} has nothing left to commit", rel.display())),
    }
}

/// Evidence for a claim that names the turn's commit by its subject: a commit of the turn,
/// or one in the history of HEAD or of a branch, has it (case, spacing, quotes and a
/// closing period aside; a subject that ends in an ellipsis is a prefix). With no commit
/// of the turn, the commit claim beside it answers.
pub fn titled_evidence(claim: &Claim, subject: &str, f: &Facts) -> Result<String, Finding> {
    let (repo, commits) = match repo_and_turn_commits(claim, f) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let norm = |s: &str| {
        s.to_lowercase()
            .replace(['`', '"', '\'', '«', '»', '“', '”'], "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .trim_end_matches('.')
            .to_owned()
    };
    let said = norm(subject);
    let (said, prefix) = match said.strip_suffix('…').or_else(|| said.strip_suffix("...")) {
        Some(p) => (p.trim_end().to_owned(), true),
        None => (said.clone(), false),
    };
    let matches = |summary: &str| {
        let have = norm(summary);
        have == said || prefix && have.starts_with(&said)
    };
    let subject_of = |id: Oid| {
        repo.find_commit(id)
            .ok()
            .and_then(|c| c.summary().map(str::to_owned))
    };
    if let Some(id) = commits
        .iter()
        .copied()
        .find(|id| subject_of(*id).is_some_and(|s| matches(&s)))
    {
        return Ok(format!(
            "commit {} of this turn is titled so",
            &id.to_string()[..7]
        ));
    }
    let mut walk = repo.revwalk().ok();
    if let Some(w) = walk.as_mut() {
        let _ = w.push_head();
        let _ = w.push_glob("refs/heads/*");
    }
    let in_history = walk
        .into_iter()
        .flatten()
        .flatten()
        .take(5000)
        .any(|id| subject_of(id).is_some_and(|s| matches(&s)));
    if in_history {
        return Ok("a commit of the history is titled so".into());
    }
    let made: Vec<String> = commits
        .iter()
        .filter_map(|id| subject_of(*id))
        .map(|s| format!("`{s}`"))
        .collect();
    Err(finding(
        claim,
        format!(
            "no commit is titled `{subject}`: this turn's commits are titled {}",
            made.join(", ")
        ),
        "check `git log -1 --format=%s` (a backtick inside double quotes runs a command in the shell) and report the subject git recorded, or amend it",
    ))
}

/// Evidence for a claim that the turn's commit carries a trailer (`Co-authored-by`): git's
/// own reading of the message's trailers (its last paragraph, `Key: value` lines) holds the
/// key in a commit of the turn. A line of that key elsewhere in the body is no trailer:
/// GitHub and `git interpret-trailers` do not see it. With no commit of the turn, the
/// commit claim beside it answers.
pub fn trailer_evidence(claim: &Claim, key: &str, f: &Facts) -> Result<String, Finding> {
    let (repo, ids) = match repo_and_turn_commits(claim, f) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let commits: Vec<git2::Commit> = ids
        .into_iter()
        .filter_map(|id| repo.find_commit(id).ok())
        .collect();
    if commits.is_empty() {
        return Err(reported(
            claim,
            "the turn's commits could not be read".into(),
            "say which commit holds it",
        ));
    }
    let has_trailer = |c: &git2::Commit| {
        c.message()
            .and_then(|m| git2::message_trailers_strs(m).ok())
            .is_some_and(|t| t.iter().any(|(k, _)| k.eq_ignore_ascii_case(key)))
    };
    if let Some(c) = commits.iter().find(|c| has_trailer(c)) {
        return Ok(format!(
            "commit {} of this turn carries a `{key}` trailer",
            &c.id().to_string()[..7]
        ));
    }
    let last = &commits[commits.len() - 1];
    let in_body = last.message().is_some_and(|m| {
        m.lines().any(|l| {
            l.to_ascii_lowercase()
                .starts_with(&format!("{}:", key.to_ascii_lowercase()))
        })
    });
    Err(finding(
        claim,
        format!(
            "no commit of this turn carries a `{key}` trailer{}",
            if in_body {
                format!(
                    ": commit {} has a `{key}:` line, but not in the trailer block (the message's last paragraph), so git does not read it as one",
                    &last.id().to_string()[..7]
                )
            } else {
                String::new()
            }
        ),
        "put the trailer in the message's last paragraph (`git commit --amend --trailer`), then report it",
    ))
}

/// Evidence for a claim that a server runs now at a local port: something accepts a
/// connection there as the turn ends. Where nothing does, the claim blocks only when the
/// turn shows the server failing (its command's output, or a log the command wrote, holds
/// an error: a traceback, `Address already in use`); else it is reported, since a server
/// inside a sandbox's own network is out of reach from here.
pub fn listening_evidence(claim: &Claim, port: u16, f: &Facts) -> Result<String, Finding> {
    use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
    let wait = Duration::from_millis(300);
    let accepts = [
        SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
        SocketAddr::from((Ipv6Addr::LOCALHOST, port)),
    ]
    .iter()
    .any(|a| TcpStream::connect_timeout(a, wait).is_ok());
    if accepts {
        return Ok(format!(
            "a connection to port {port} on this machine was accepted as the turn ended"
        ));
    }
    let fix = "start it again and check that it answers (`curl`), or say that it is not running";
    match failure_of_server_on(port, f) {
        Some(line) => Err(finding(
            claim,
            format!(
                "nothing accepts connections on port {port} as the turn ends, and the command that started it reported: {}",
                cut(&line)
            ),
            fix,
        )),
        None => Err(reported(
            claim,
            format!("nothing accepts connections on port {port} on this machine as the turn ends"),
            fix,
        )),
    }
}

/// The last error line a command of the turn that names `port` printed, or wrote to a
/// file it redirected its output to (`nohup python3 app/server.py 8000 > logs/server.log
/// 2>&1 &`).
fn failure_of_server_on(port: u16, f: &Facts) -> Option<String> {
    const ERRORS: &[&str] = &[
        "Traceback (most recent call last)",
        "Error:",
        "error:",
        "Exception",
        "panicked at",
        "EADDRINUSE",
        "ddress already in use",
        "command not found",
        "No such file or directory",
    ];
    let port_text = port.to_string();
    let first_error = |text: &str| {
        // The last: Python's traceback ends with what went wrong.
        text.lines()
            .rev()
            .find(|l| ERRORS.iter().any(|e| l.contains(e)))
            .map(|l| l.trim().to_owned())
    };
    for run in f.runs.iter().filter(|r| {
        r.command
            .split(|c: char| !c.is_ascii_digit())
            .any(|w| w == port_text)
    }) {
        if let Some(line) = first_error(&run.output) {
            return Some(line);
        }
        for cmd in shell::parse(&run.command).simple_commands() {
            for redirect in &cmd.redirects {
                use shell::RedirectOp as Op;
                if !matches!(
                    redirect.op,
                    Op::Write | Op::Append | Op::WriteAll | Op::AppendAll
                ) {
                    continue;
                }
                let Some(target) = redirect.target.text() else {
                    continue;
                };
                let path = crate::fsutil::absolute(Path::new(target), f.ev.cwd);
                let small = std::fs::metadata(&path).is_ok_and(|m| m.len() <= 256 * 1024);
                if let Some(line) = small
                    .then(|| std::fs::read_to_string(&path).ok())
                    .flatten()
                    .and_then(|text| first_error(&text))
                {
                    return Some(format!("{line} (in {target})"));
                }
            }
        }
    }
    None
}

/// Evidence for a claim that a file is not committed: it still has changes to commit, or
/// no commit of this turn changed it. A file a commit of the turn changed, with nothing
/// left to commit, was committed.
///
/// Beside a commit the sentence names by its hash, the claim is of that commit: backed when
/// it did not change the file, a finding when it did (a pending deletion of a file that
/// commit holds leaves it in the commit). A hash this repository does not know is read as
/// no commit named.
pub fn uncommitted_evidence(
    claim: &Claim,
    path: &Path,
    named: Option<&str>,
    f: &Facts,
) -> Result<String, Finding> {
    let Some(repo) = f.repo() else {
        return Err(no_repository(claim));
    };
    let Some(rel) = repo
        .workdir()
        .map(crate::fsutil::canonical)
        .and_then(|w| path.strip_prefix(w).ok().map(Path::to_path_buf))
    else {
        return Err(reported(
            claim,
            format!("{} is outside the repository", path.display()),
            "say where it is",
        ));
    };
    let named = named.and_then(|h| repo.revparse_single(h).ok()?.peel_to_commit().ok());
    // A file with changes left to commit (other than its deletion) is not committed in
    // the sense a sentence most often means, whatever the named commit holds ("Rebased on
    // 1a2b3c4; `notes.txt` is not committed"); a deletion left in the work tree does not
    // take a file out of the commit that holds it.
    let pending = repo
        .status_file(&rel)
        .ok()
        .filter(|st| !(*st & !(git2::Status::WT_DELETED | git2::Status::INDEX_DELETED)).is_empty());
    if let (Some(commit), None) = (named, pending) {
        let short = &commit.id().to_string()[..7];
        return if commit_changed(repo, commit.id(), &rel) {
            Err(finding(
                claim,
                format!(
                    "commit {short} (`{}`) changed {}: it is in that commit",
                    commit.summary().unwrap_or(""),
                    rel.display()
                ),
                "say that the commit holds it (or take it out with `git rm --cached` and `git commit --amend`)",
            ))
        } else {
            Ok(format!("commit {short} did not change {}", rel.display()))
        };
    }
    if let Some(state) = left_to_commit(repo, &rel) {
        return Ok(format!("{} is {state}", rel.display()));
    }
    let committing = turn_commits(f)
        .into_iter()
        .filter(|&id| commit_changed(repo, id, &rel))
        .filter_map(|id| repo.find_commit(id).ok())
        .last();
    match committing {
        None => Ok(format!(
            "no commit of this turn changed {}",
            rel.display()
        )),
        Some(commit) => Err(finding(
            claim,
            format!(
                "commit {} (`{}`) of this turn changed {}, and it has nothing left to commit: it is committed",
                &commit.id().to_string()[..7],
                commit.summary().unwrap_or(""),
                rel.display()
            ),
            "say that it is committed, and in which commit",
        )),
    }
}

/// Whether commit `id` changed `rel` against its first parent.
fn commit_changed(repo: &Repository, id: Oid, rel: &Path) -> bool {
    let Ok(commit) = repo.find_commit(id) else {
        return false;
    };
    let Ok(tree) = commit.tree() else {
        return false;
    };
    let parent = commit.parent(0).ok().and_then(|p| p.tree().ok());
    let mut opts = git2::DiffOptions::new();
    opts.pathspec(rel);
    repo.diff_tree_to_tree(parent.as_ref(), Some(&tree), Some(&mut opts))
        .is_ok_and(|d| d.deltas().len() > 0)
}

/// What `rel` has left to commit, as `git status` tells it: untracked, ignored, staged or
/// changed; `None` when it is as HEAD holds it.
fn left_to_commit(repo: &Repository, rel: &Path) -> Option<&'static str> {
    match repo.status_file(rel) {
        Ok(st) if st.is_ignored() => Some("ignored by git"),
        Ok(st) if st.is_wt_new() => Some("untracked"),
        Ok(st)
            if st.intersects(
                git2::Status::INDEX_NEW
                    | git2::Status::INDEX_MODIFIED
                    | git2::Status::INDEX_DELETED
                    | git2::Status::INDEX_RENAMED,
            ) =>
        {
            Some("staged, not committed")
        }
        Ok(st) if st.intersects(git2::Status::WT_MODIFIED | git2::Status::WT_DELETED) => {
            Some("changed, not committed")
        }
        _ => None,
    }
}

/// Evidence for a claim that a rebase or a merge joined two branches: one holds the other
/// in its history as the turn left them (local branches, else `origin`'s). A name that is
/// no branch here makes no claim of this kind.
pub fn joined_evidence(claim: &Claim, a: &str, b: &str, f: &Facts) -> Result<String, Finding> {
    let Some(repo) = f.repo() else {
        return Err(no_repository(claim));
    };
    let tip = |name: &str| {
        repo.refname_to_id(&format!("refs/heads/{name}"))
            .or_else(|_| repo.refname_to_id(&format!("refs/remotes/origin/{name}")))
            .or_else(|_| repo.refname_to_id(&format!("refs/remotes/{name}")))
            .ok()
    };
    let (Some(ta), Some(tb)) = (tip(a), tip(b)) else {
        // "`origin/feature/title` merged into `main`" after `git merge origin/feature/title`
        // answered "not something we can merge": the merge the sentence tells never was.
        if let Some((name, line)) = [a, b]
            .into_iter()
            .filter(|n| tip(n).is_none())
            .find_map(|n| refused_join_of(n, f).map(|l| (n, l)))
        {
            return Err(finding(
                claim,
                format!(
                    "`{name}` is no branch here, and the turn's merge or rebase of it failed: {}",
                    cut(&line)
                ),
                "report the merge or rebase as it ended (fetch the branch first)",
            ));
        }
        return Ok(format!("`{a}` and `{b}` are not both branches here"));
    };
    let holds = |tip: Oid, other: Oid| {
        tip == other || repo.graph_descendant_of(tip, other).unwrap_or(false)
    };
    if holds(ta, tb) || holds(tb, ta) {
        return Ok(format!(
            "one of `{a}` and `{b}` holds the other in its history"
        ));
    }
    Err(finding(
        claim,
        format!(
            "neither `{a}` nor `{b}` holds the other in its history: the rebase or merge did not land"
        ),
        "report the rebase or merge as it ended (a conflict, an abort)",
    ))
}

/// Evidence for a file said committed with a mode ([`Kind::Mode`]): HEAD's tree holds it
/// with that mode. A file HEAD does not hold is left to the claims about the commit.
pub fn mode_evidence(claim: &Claim, path: &Path, mode: &str, f: &Facts) -> Result<String, Finding> {
    let Some(repo) = f.repo() else {
        return Err(no_repository(claim));
    };
    let shown = path.display();
    let rel = repo
        .workdir()
        .map(crate::fsutil::canonical)
        .and_then(|w| path.strip_prefix(w).ok().map(Path::to_path_buf));
    let entry_mode = rel.and_then(|rel| {
        let tree = repo.head().ok()?.peel_to_tree().ok()?;
        let entry = tree.get_path(&rel).ok()?;
        Some(format!("{:o}", entry.filemode()))
    });
    match entry_mode {
        None => Err(reported(
            claim,
            format!("{shown} is not in HEAD's tree, so no mode was recorded for it"),
            "commit it, then report the mode `git ls-files -s` shows",
        )),
        Some(m) if m == mode => Ok(format!("HEAD's tree holds {shown} with mode {m}")),
        Some(m) => Err(finding(
            claim,
            format!("HEAD's tree holds {shown} with mode {m}, not {mode}"),
            "check `git ls-files -s`, and report the mode git recorded (`core.fileMode`, `git update-index --chmod=+x`)",
        )),
    }
}

/// Evidence for a merge or a rebase told done with no two branches named
/// ([`Kind::Concluded`]): the repository as the turn left it is not in the middle of one.
/// (A merge stopped on a conflict and a `git commit` refused for unmerged paths leave
/// `MERGE_HEAD`; a rebase stopped leaves its folder under `.git`.)
pub fn concluded_evidence(claim: &Claim, rebase: bool, f: &Facts) -> Result<String, Finding> {
    use git2::RepositoryState as S;
    let Some(repo) = f.repo() else {
        return Err(no_repository(claim));
    };
    let stopped = match repo.state() {
        S::Merge if !rebase => Some("a merge is still in progress (`MERGE_HEAD` is there)"),
        S::Rebase | S::RebaseInteractive | S::RebaseMerge | S::ApplyMailboxOrRebase if rebase => {
            Some("a rebase is still in progress (`git rebase --continue` or `--abort` is pending)")
        }
        _ => None,
    };
    match stopped {
        None => Ok(format!(
            "no {} is in progress in the repository",
            if rebase { "rebase" } else { "merge" }
        )),
        Some(why) => Err(finding(
            claim,
            format!("{why}: it did not finish"),
            "finish it (resolve, `git add`, `git commit` or `--continue`) or report it as stopped",
        )),
    }
}

/// Evidence for a commit named by its subject and placed in a branch's history, or said
/// gone from it ([`Kind::InHistory`]). Placed: a commit of that subject is in the history of
/// a branch named or of HEAD ("on top of `main`" is HEAD's). Gone: none is in the history
/// of the branches named. A subject no commit here has (in a branch, a remote-tracking
/// branch, a tag or HEAD's reflog) is no commit's: nothing to hold.
pub fn in_history_evidence(
    claim: &Claim,
    subject: &str,
    refs: &[String],
    gone: bool,
    f: &Facts,
) -> Result<String, Finding> {
    let Some(repo) = f.repo() else {
        return Err(no_repository(claim));
    };
    let tip = |name: &str| {
        let name = name.trim();
        if name == "HEAD" {
            return repo.head().ok().and_then(|h| h.target());
        }
        repo.refname_to_id(&format!("refs/heads/{name}"))
            .or_else(|_| repo.refname_to_id(&format!("refs/remotes/{name}")))
            .ok()
    };
    let tips: Vec<(&str, Oid)> = refs
        .iter()
        .filter_map(|r| tip(r).map(|o| (r.as_str(), o)))
        .collect();
    if tips.is_empty() {
        return Ok(format!("{} names no branch here", refs.join(", ")));
    }
    let named = |starts: &[Oid]| commit_of_subject(repo, starts, subject);
    if gone {
        for (name, oid) in &tips {
            if let Some(found) = named(&[*oid]) {
                return Err(finding(
                    claim,
                    format!(
                        "the commit `{subject}` ({}) is still in the history of `{name}`",
                        &found.to_string()[..7]
                    ),
                    "report what became of it (a revert adds a commit and keeps the one it reverts)",
                ));
            }
        }
        return Ok(format!(
            "no commit `{subject}` in the history of {}",
            refs.join(", ")
        ));
    }
    let mut starts: Vec<Oid> = tips.iter().map(|(_, o)| *o).collect();
    starts.extend(repo.head().ok().and_then(|h| h.target()));
    if named(&starts).is_some() {
        return Ok(format!(
            "a commit `{subject}` is in the history of {}",
            refs.join(", ")
        ));
    }
    // Was it ever a commit here? Every ref and every place HEAD stood in this clone.
    let mut known: Vec<Oid> = repo
        .references()
        .map(|refs| refs.flatten().filter_map(|r| r.target()).collect())
        .unwrap_or_default();
    if let Ok(log) = repo.reflog("HEAD") {
        known.extend(log.iter().flat_map(|e| [e.id_old(), e.id_new()]));
    }
    known.retain(|o| !o.is_zero());
    let Some(found) = named(&known) else {
        return Ok(format!("no commit here has the subject `{subject}`"));
    };
    Err(finding(
        claim,
        format!(
            "no commit `{subject}` is in the history of {} or of HEAD: the one this clone had ({}) was left out",
            refs.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(", "),
            &found.to_string()[..7]
        ),
        "report which commits the branch holds now (`git log --oneline`)",
    ))
}

/// Evidence for a file the message says no commit holds ([`Kind::FileOutOfHistory`]): no
/// commit reachable from a branch, a remote-tracking branch or a tag has the path (a
/// rewrite that left the old commits in a remote's branch has not taken it out). Past
/// [`HISTORY_BOUND`] commits the claim is reported.
pub fn out_of_history_evidence(claim: &Claim, path: &str, f: &Facts) -> Result<String, Finding> {
    const HISTORY_BOUND: usize = 5000;
    let Some(repo) = f.repo() else {
        return Err(no_repository(claim));
    };
    let rel = path.trim_start_matches("./").trim_end_matches('/');
    let walk = repo.revwalk().and_then(|mut walk| {
        walk.push_glob("refs/heads")?;
        walk.push_glob("refs/remotes")?;
        walk.push_glob("refs/tags")?;
        Ok(walk)
    });
    let Ok(walk) = walk else {
        return Err(reported(
            claim,
            "the history could not be read".into(),
            "check the history (`git log --all -- <path>`)",
        ));
    };
    let unread = |what: String| {
        Err(reported(
            claim,
            what,
            "check the history (`git log --all -- <path>`)",
        ))
    };
    for (seen, oid) in walk.enumerate() {
        // A commit the walk or the object store could not give is one not read: the claim
        // cannot be backed.
        let Ok(oid) = oid else {
            return unread("a commit of the history could not be read".into());
        };
        if seen >= HISTORY_BOUND {
            return Err(reported(
                claim,
                format!(
                    "the history has more than {HISTORY_BOUND} commits: not every one was read"
                ),
                "check the history (`git log --all -- <path>`)",
            ));
        }
        let Some((commit, tree)) = repo
            .find_commit(oid)
            .ok()
            .and_then(|c| c.tree().ok().map(|t| (c, t)))
        else {
            return unread(format!(
                "commit {} could not be read",
                &oid.to_string()[..7]
            ));
        };
        if tree.get_path(Path::new(rel)).is_ok() {
            let branches = holders_of(repo, oid);
            return Err(finding(
                claim,
                format!(
                    "commit {} (`{}`) holds {rel}{}",
                    &oid.to_string()[..7],
                    commit.summary().unwrap_or(""),
                    if branches.is_empty() {
                        String::new()
                    } else {
                        format!(", and {} still has it", branches.join(", "))
                    }
                ),
                "take it out of every branch that has it (and push the rewrite), or say it is still in the history",
            ));
        }
    }
    Ok(format!(
        "no commit of a branch, remote-tracking branch or tag holds {rel}"
    ))
}

/// The branches and remote-tracking branches whose history has a commit.
fn holders_of(repo: &Repository, oid: Oid) -> Vec<String> {
    let Ok(refs) = repo.references() else {
        return Vec::new();
    };
    refs.flatten()
        .filter(|r| r.is_branch() || r.is_remote())
        .filter_map(|r| {
            let tip = r.target()?;
            let reaches = tip == oid || repo.graph_descendant_of(tip, oid).unwrap_or(false);
            reaches.then(|| r.shorthand().map(str::to_owned)).flatten()
        })
        .take(3)
        .collect()
}

/// Evidence for a coverage figure ([`Kind::Coverage`]): a run of the turn (the main
/// agent's or a subagent's) printed a coverage table (node's and istanbul's `|` tables,
/// coverage.py's `Name … Cover` rows) whose row for the file (by its path or its name; the
/// `all files`/`TOTAL` row where none is named) gives the figure, in its column for lines
/// where the table has one. Rounding to a whole percent is the writer's (`88.89` is "89%").
/// A turn whose runs printed no such row leaves it unchecked.
pub fn coverage_evidence(
    claim: &Claim,
    path: Option<&str>,
    percent: &str,
    f: &Facts,
) -> Result<String, Finding> {
    let Ok(said) = percent.replace(',', ".").parse::<f64>() else {
        return Ok("the figure could not be read".into());
    };
    let mut seen: Vec<f64> = Vec::new();
    for run in &f.runs {
        seen.extend(coverage_figures(&run.output, path));
    }
    if seen.is_empty() {
        return Ok("no run of this turn printed a coverage row for it".into());
    }
    let close = |v: &f64| (v - said).abs() < 0.005 || said.fract() == 0.0 && (v - said).abs() < 1.0;
    if seen.iter().any(close) {
        return Ok(format!("a coverage table of this turn gives {percent}%"));
    }
    let shown: Vec<String> = seen.iter().map(|v| format!("{v}")).collect();
    Err(finding(
        claim,
        format!(
            "the message says {percent}%, and the coverage tables of this turn give {}",
            shown.join(" or ")
        ),
        "report the coverage the run printed",
    ))
}

/// The coverage figures an output gives for a file (by its path's end or its name) or, with
/// none, for the whole run: in `|` tables, the column whose header says lines (else the
/// first figure); in coverage.py's rows, the last figure (`Cover`).
fn coverage_figures(output: &str, path: Option<&str>) -> Vec<f64> {
    let name = path.map(|p| p.trim_start_matches("./").rsplit('/').next().unwrap_or(p));
    let mut line_column: Option<usize> = None;
    let mut out = Vec::new();
    for raw in output.lines() {
        let line = raw.trim_start_matches(['#', ' ', 'ℹ']).trim();
        if line.contains('|') {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let lower: Vec<String> = cells.iter().map(|c| c.to_lowercase()).collect();
            if lower
                .first()
                .is_some_and(|c| c == "file" || c.starts_with("file "))
            {
                line_column = lower
                    .iter()
                    .position(|c| c.contains("line") && !c.contains("uncovered"));
                continue;
            }
            let first = lower.first().map(String::as_str).unwrap_or("");
            let row = match (path, name) {
                (Some(p), Some(n)) => {
                    first.ends_with(&p.to_lowercase()) || first == n.to_lowercase()
                }
                _ => first == "all files",
            };
            if !row {
                continue;
            }
            let figure = |c: &str| c.trim_end_matches('%').trim().parse::<f64>().ok();
            let value = match line_column {
                Some(i) => cells.get(i).and_then(|c| figure(c)),
                None => cells.iter().skip(1).find_map(|c| figure(c)),
            };
            out.extend(value);
        } else {
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some(first) = words.first() else { continue };
            let row = match (path, name) {
                (Some(p), Some(n)) => first.ends_with(p) || *first == n,
                _ => *first == "TOTAL",
            };
            if row && words.len() >= 3 {
                if let Some(v) = words
                    .last()
                    .and_then(|w| w.strip_suffix('%'))
                    .and_then(|w| w.parse::<f64>().ok())
                {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// Evidence for text the message says a command it names printed ([`Kind::PrintedBy`]):
/// a run of that command (its words as the message writes them, whitespace aside, within a
/// run's command line; the first run a report tells of as well as the last) printed it;
/// what it prints `now` is its last run's. Where no run of it printed the text but another
/// output holds it (a log the command wrote, read with `cat`), or no run wrote the command
/// so, or its output went to a file or the background, it is only reported: the message
/// may quote it from elsewhere. Backticks in an output (cargo's `` `roundy = "^0.1"` ``)
/// are no text a message can quote.
pub fn printed_by_evidence(
    claim: &Claim,
    command: &str,
    text: &str,
    now: bool,
    f: &Facts,
) -> Result<String, Finding> {
    let squash = |s: &str| {
        s.replace('`', "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let wanted = squash(command);
    let said = squash(text);
    // The command as written, not a longer one it begins (`git describe --tags`).
    let runs_it = |line: &str| {
        let line = squash(line);
        line.match_indices(&wanted).any(|(i, _)| {
            let before = line[..i].chars().next_back();
            let after = line[i + wanted.len()..].trim_start();
            before.is_none_or(|c| " ;&|(".contains(c)) && !after.starts_with('-')
        })
    };
    let of_it: Vec<&Run> = f.runs.iter().filter(|r| runs_it(&r.command)).collect();
    let holds = |r: &Run| squash(&r.output).contains(&said);
    let judged: Vec<&Run> = if now {
        of_it.last().copied().into_iter().collect()
    } else {
        of_it.clone()
    };
    if let Some(r) = judged.iter().find(|r| holds(r)) {
        return Ok(format!("`{}` printed it", cut(&r.command)));
    }
    let elsewhere = f.runs.iter().any(holds);
    // Its own stage's output sent to a file (`> server.log`) or the stage put in the
    // background (`… &`): what it printed is elsewhere.
    let sent_away = of_it.iter().any(|r| {
        let line = squash(&r.command).replace("2>&1", "");
        line.match_indices(&wanted).any(|(i, _)| {
            let rest = &line[i + wanted.len()..];
            let end = rest.find([';', '|', '&']).unwrap_or(rest.len());
            let background = rest[end..].starts_with('&') && !rest[end..].starts_with("&&");
            rest[..end].contains('>') || background || line[..i].trim_end().ends_with("nohup")
        })
    });
    let shown: String = of_it
        .last()
        .and_then(|r| r.output.lines().map(str::trim).find(|l| !l.is_empty()))
        .map(cut)
        .unwrap_or_else(|| "nothing".into());
    let mut found = finding(
        claim,
        if of_it.is_empty() {
            format!(
                "no run of this turn wrote `{}` as the message does, and no output holds `{}`",
                cut(command),
                cut(text)
            )
        } else if now {
            format!(
                "the last run of `{}` printed `{shown}`, not `{}`",
                cut(command),
                cut(text)
            )
        } else {
            format!(
                "no run of `{}` printed `{}` (its last printed `{shown}`)",
                cut(command),
                cut(text)
            )
        },
        "quote what the command really printed",
    );
    if of_it.is_empty() || sent_away || elsewhere && !now {
        found.blocks = false;
        if elsewhere {
            found
                .why
                .push_str(" (another output of this turn holds it)");
        }
    }
    Err(found)
}

/// Evidence for text the message says a command printed ([`Kind::Printed`]): some output
/// of the turn (the main agent's or a subagent's) holds it, whitespace aside; an elided
/// quotation ("`Ran 4 tests … OK`") holds each of its parts in order.
pub fn printed_evidence(claim: &Claim, text: &str, f: &Facts) -> Result<String, Finding> {
    if f.runs.is_empty() {
        return Ok("no command ran in this turn to compare with".into());
    }
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let parts: Vec<String> = text
        .split(['…'])
        .flat_map(|p| p.split("..."))
        .map(squash)
        .filter(|p| !p.is_empty())
        .collect();
    let holds = |output: &str| {
        let out = squash(output);
        let mut from = 0;
        parts.iter().all(|p| {
            // A quoted count is no tail of a longer number: "1 xfailed" is not in "11
            // xfailed".
            let whole = |i: usize| {
                !p.starts_with(|c: char| c.is_ascii_digit())
                    || !out[..from + i].ends_with(|c: char| c.is_ascii_digit())
            };
            match out[from..]
                .match_indices(p.as_str())
                .find(|(i, _)| whole(*i))
            {
                Some((i, _)) => {
                    from += i + p.len();
                    true
                }
                None => false,
            }
        })
    };
    match f.runs.iter().find(|r| holds(&r.output)) {
        Some(r) => Ok(format!("`{}` printed it", cut(&r.command))),
        None => Err(finding(
            claim,
            format!("no command of this turn printed `{}`", cut(text)),
            "quote what the command really printed",
        )),
    }
}

/// Evidence for a line of code the message says it took out ([`Kind::TextRemoved`]): no
/// file the turn wrote (its own writes, its subagents' and its commands') holds it as the
/// turn left it.
pub fn text_removed_evidence(claim: &Claim, text: &str, f: &Facts) -> Result<String, Finding> {
    let mut files: Vec<PathBuf> = f.written_paths().collect();
    files.sort();
    files.dedup();
    for file in &files {
        let Some(body) = read_capped(file, 4 << 20) else {
            // Gone again (a scratch file the turn removed) holds nothing; there but
            // unreadable, it cannot be said to hold nothing.
            if file.exists() {
                return Err(reported(
                    claim,
                    format!("{} could not be read to look for `{text}`", file.display()),
                    "say which files were searched",
                ));
            }
            continue;
        };
        if let Some(i) = body.lines().position(|l| l.contains(text)) {
            return Err(finding(
                claim,
                format!("{}:{} still holds `{text}`", file.display(), i + 1),
                "take it out (and commit that), or say it is still there",
            ));
        }
    }
    Ok(format!(
        "none of the {} files the turn wrote holds `{text}`",
        files.len()
    ))
}

/// Evidence for text said gone from a kind of file or a folder ([`Kind::TextGone`]): no
/// file of the project of that extension, or under that folder, holds it (the walk
/// [`no_source_says`] makes, past `.git`, dependencies and build output). A file that
/// could not be read, or a project past the walk's bound, leaves it reported.
pub fn text_gone_evidence(
    claim: &Claim,
    text: &str,
    scope: &str,
    f: &Facts,
) -> Result<String, Finding> {
    let dir = scope.ends_with('/').then(|| resolve(scope, f));
    let in_scope = |p: &Path| match &dir {
        Some(d) => p.starts_with(d),
        None => p
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| x.eq_ignore_ascii_case(scope)),
    };
    let what = match &dir {
        Some(d) => format!("file under {}", d.display()),
        None => format!("`*.{scope}` file"),
    };
    let mut hit: Option<(PathBuf, usize)> = None;
    let read_all = no_source_says(f, Path::new(""), in_scope, |p, body| {
        match body.lines().position(|l| l.contains(text)) {
            Some(i) => {
                hit = Some((p.to_owned(), i + 1));
                true
            }
            None => false,
        }
    });
    match hit {
        Some((p, line)) => Err(finding(
            claim,
            format!("{}:{line} still holds `{text}`", p.display()),
            "search the files again (`grep -rn`) and change what is left, or say where it is",
        )),
        None if read_all => Ok(format!("no {what} of the project holds `{text}`")),
        None => Err(reported(
            claim,
            format!("not every {what} of the project could be read to look for `{text}`"),
            "say which files were searched",
        )),
    }
}

/// Evidence for how many files a message says a folder holds ([`Kind::FolderCount`]): any
/// way a report may count agrees (the files in it, its entries with or without hidden
/// ones, its files at any depth, the files of its most common extension: "the three newest
/// archives" beside a README). Past 10 000 entries, or a folder that cannot be read, it is
/// reported.
pub fn folder_count_evidence(claim: &Claim, dir: &Path, count: u64) -> Result<String, Finding> {
    let fix = "count the files again (`ls`) and report what is there";
    if !dir.is_dir() {
        return Err(reported(
            claim,
            format!("{} is no folder here", dir.display()),
            fix,
        ));
    }
    let Some(counts) = folder_counts(dir) else {
        return Err(reported(
            claim,
            format!(
                "{} could not be counted (unreadable, or past 10 000 entries)",
                dir.display()
            ),
            fix,
        ));
    };
    if counts.contains(&count) {
        return Ok(format!("{} holds {count} files", dir.display()));
    }
    let mut others: Vec<u64> = counts[1..]
        .iter()
        .copied()
        .filter(|&n| n != counts[0])
        .collect();
    others.sort_unstable();
    others.dedup();
    let also = if others.is_empty() {
        String::new()
    } else {
        let others: Vec<String> = others.iter().map(u64::to_string).collect();
        format!(
            " (counted with its folders, hidden files, files at any depth or of one extension: {})",
            others.join(", ")
        )
    };
    Err(finding(
        claim,
        format!("{} holds {} files{also}", dir.display(), counts[0]),
        fix,
    ))
}

/// Evidence for how many lines a message says a file holds ([`Kind::LineCount`]): any of
/// the counts a report may give (its lines, its lines with text, those that are no `#`
/// comment, and a table's rows under its header) agrees. A file that is not there, not
/// text, or past 1 MiB is reported.
pub fn line_count_evidence(claim: &Claim, path: &Path, count: u64) -> Result<String, Finding> {
    let fix = "count the lines again (`wc -l`, `grep -c`) and report what is there";
    let shown = path.display();
    let text = match std::fs::metadata(path) {
        Ok(m) if m.is_file() && m.len() <= 1 << 20 => std::fs::read_to_string(path).ok(),
        _ => None,
    };
    let Some(text) = text else {
        return Err(reported(
            claim,
            format!("{shown} could not be read as text (missing, not a file, or past 1 MiB)"),
            fix,
        ));
    };
    let lines = text.lines().count() as u64;
    let with_text = text.lines().filter(|l| !l.trim().is_empty()).count() as u64;
    let no_comments = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count() as u64;
    let lower = path.to_string_lossy().to_lowercase();
    let table = lower.ends_with(".csv") || lower.ends_with(".tsv");
    let rows = with_text.saturating_sub(1);
    if [lines, with_text, no_comments].contains(&count) || table && rows == count {
        return Ok(format!("{shown} holds {count} lines"));
    }
    Err(finding(
        claim,
        format!(
            "{shown} holds {lines} lines ({with_text} with text, {no_comments} that are no comment{})",
            if table { format!(", {rows} rows under its header") } else { String::new() }
        ),
        fix,
    ))
}

/// The repository and the commit a message names by its hash; what cannot be looked up is
/// reported, never taken as held.
fn commit_named<'f>(
    claim: &Claim,
    hash: &str,
    fix: &str,
    f: &'f Facts,
) -> Result<(&'f Repository, git2::Commit<'f>), Finding> {
    let Some(repo) = f.repo() else {
        return Err(reported(claim, "no git repository here".into(), fix));
    };
    let commit = repo
        .revparse_single(hash)
        .ok()
        .and_then(|o| o.peel_to_commit().ok())
        .ok_or_else(|| reported(claim, format!("{hash} names no commit here"), fix))?;
    Ok((repo, commit))
}

/// Evidence for the parts of the project a commit named by its hash holds
/// ([`Kind::PartsInCommit`]): the parts the sentence's words name (a part's folder or
/// package name; two or more, else the sentence names no parts and claims nothing of
/// them) each have a path the commit changed, or, with a version, a manifest in the
/// commit's tree at that version. A hash the repository does not know is reported.
pub fn parts_in_commit_evidence(
    claim: &Claim,
    hash: &str,
    words: &[String],
    version: Option<&str>,
    f: &Facts,
) -> Result<String, Finding> {
    let fix = "look at the commit (`git show --stat`) and report what it holds";
    let parts: Vec<PathBuf> = super::parts::all_parts(&f.root)
        .into_iter()
        .filter(|p| {
            super::parts::names_of(p).iter().any(|n| {
                let n = n.to_lowercase();
                let short = n.rsplit('/').next().unwrap_or(&n).to_owned();
                words.iter().any(|w| *w == n || *w == short)
            })
        })
        .collect();
    if parts.len() < 2 {
        return Ok("the sentence names fewer than two parts of the project".into());
    }
    let (repo, commit) = commit_named(claim, hash, fix, f)?;
    let Some(workdir) = repo.workdir().map(crate::fsutil::canonical) else {
        return Err(reported(
            claim,
            "the repository has no working tree".into(),
            fix,
        ));
    };
    let rel = |p: &Path| p.strip_prefix(&workdir).unwrap_or(p).to_path_buf();
    let tree = commit.tree().ok();
    match version {
        Some(v) => {
            for part in &parts {
                let at = ["Cargo.toml", "package.json", "pyproject.toml"]
                    .iter()
                    .find_map(|m| {
                        let blob = tree
                            .as_ref()?
                            .get_path(&rel(part).join(m))
                            .ok()?
                            .to_object(repo)
                            .ok()?
                            .peel_to_blob()
                            .ok()?;
                        let text = String::from_utf8_lossy(blob.content()).into_owned();
                        Some((m, manifest_version(&text)))
                    });
                match at {
                    Some((_, Some(found))) if found == v => {}
                    Some((m, found)) => {
                        return Err(finding(
                            claim,
                            format!(
                                "in commit {hash}, {}/{m} is at {}, not {v}",
                                rel(part).display(),
                                found.as_deref().unwrap_or("no version")
                            ),
                            fix,
                        ))
                    }
                    None => {
                        return Err(reported(
                            claim,
                            format!("{} has no manifest in commit {hash}", rel(part).display()),
                            fix,
                        ))
                    }
                }
            }
            Ok(format!("every part named is at {v} in commit {hash}"))
        }
        None => {
            let parent = commit.parent(0).ok().and_then(|p| p.tree().ok());
            let Ok(diff) = repo.diff_tree_to_tree(parent.as_ref(), tree.as_ref(), None) else {
                return Err(reported(
                    claim,
                    format!("the diff of {hash} could not be read"),
                    fix,
                ));
            };
            let changed: Vec<PathBuf> = diff
                .deltas()
                .filter_map(|d| {
                    d.new_file()
                        .path()
                        .or(d.old_file().path())
                        .map(Path::to_path_buf)
                })
                .collect();
            for part in &parts {
                let r = rel(part);
                if !changed.iter().any(|p| p.starts_with(&r)) {
                    return Err(finding(
                        claim,
                        format!("commit {hash} changes nothing under {}", r.display()),
                        fix,
                    ));
                }
            }
            Ok(format!("commit {hash} changes every part named"))
        }
    }
}

/// The version a manifest gives: `version = "0.2.0"` (its first, the package's, in
/// Cargo.toml or pyproject.toml) or `"version": "0.2.0"`.
fn manifest_version(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let l = l.trim().trim_end_matches(',');
        let rest = l
            .strip_prefix("version")
            .or_else(|| l.strip_prefix("\"version\""))?;
        let value = rest.trim_start().strip_prefix(['=', ':'])?.trim();
        let value = value.trim_matches(['"', '\'']);
        (!value.is_empty()).then(|| value.to_owned())
    })
}

/// Evidence for how many files a commit named by its hash holds ([`Kind::CommitFiles`]):
/// the paths its diff against its first parent (its whole tree, for a first commit)
/// touches. A hash the repository does not know is reported.
pub fn commit_files_evidence(
    claim: &Claim,
    hash: &str,
    count: u64,
    f: &Facts,
) -> Result<String, Finding> {
    let fix = "list the commit's files (`git show --stat`) and report what is there";
    let (repo, commit) = commit_named(claim, hash, fix, f)?;
    let tree = commit.tree().ok();
    let parent = commit.parent(0).ok().and_then(|p| p.tree().ok());
    let Some(n) = repo
        .diff_tree_to_tree(parent.as_ref(), tree.as_ref(), None)
        .ok()
        .map(|d| d.deltas().len() as u64)
    else {
        return Err(reported(
            claim,
            format!("the diff of {hash} could not be read"),
            fix,
        ));
    };
    let files = |n: u64| crate::words::count(n as usize, "file", "files");
    if n == count {
        Ok(format!("commit {hash} changed {}", files(n)))
    } else {
        Err(finding(
            claim,
            format!(
                "the message says {count}, and commit {hash} changed {}",
                files(n)
            ),
            fix,
        ))
    }
}

/// Evidence for a count of commits ([`Kind::CommitCount`]): a walk of the branch (HEAD
/// when none is named) down to HEAD as the turn began, or to the other branch, counts that
/// many commits of the sort. A rebase, a pull or a reset in the turn makes commits anew or
/// moves the start: a count of the turn's commits of any sort is then reported, never
/// blocked; so is a branch that does not resolve.
pub fn commit_count_evidence(
    claim: &Claim,
    count: u64,
    sort: CommitSort,
    since: &CommitSince,
    tip: Option<&str>,
    f: &Facts,
) -> Result<String, Finding> {
    let fix = "count the commits again (`git log --oneline`) and report what is there";
    let Some(repo) = f.repo() else {
        return Err(reported(claim, "no git repository here".into(), fix));
    };
    let resolve = |name: &str| {
        [
            format!("refs/heads/{name}"),
            format!("refs/remotes/{name}"),
            name.to_owned(),
        ]
        .iter()
        .find_map(|n| repo.revparse_single(n).ok()?.peel_to_commit().ok())
        .map(|c| c.id())
    };
    let tip_name = tip.unwrap_or("HEAD");
    let Some(tip_id) = resolve(tip_name) else {
        return Err(reported(
            claim,
            format!("{tip_name} does not name a commit here"),
            fix,
        ));
    };
    let (base, base_name) = match since {
        CommitSince::Ref(name) => (resolve(name), name.as_str()),
        CommitSince::Turn => {
            if f.start.is_none() {
                return Err(reported(
                    claim,
                    "when the turn began is not known: which commits are new is not known".into(),
                    fix,
                ));
            }
            if sort == CommitSort::Any && rewrote_history(repo, f.start) {
                return Err(reported(
                    claim,
                    "a rebase, pull or reset of this turn made or moved commits: which are new is not known".into(),
                    fix,
                ));
            }
            (f.start_head(), "HEAD as the turn began")
        }
    };
    let Some(base) = base else {
        return Err(reported(
            claim,
            format!("{base_name} does not name a commit here"),
            fix,
        ));
    };
    // The turn's commits are made after it began: a branch made from another than the
    // one the turn began on brings older commits into the walk.
    let made_since = matches!(since, CommitSince::Turn)
        .then_some(f.start)
        .flatten();
    let Some(n) = count_commits(repo, tip_id, base, sort, made_since) else {
        return Err(reported(
            claim,
            "the history could not be walked (or is past 10 000 commits)".into(),
            fix,
        ));
    };
    let what = match sort {
        CommitSort::Any => "commit",
        CommitSort::Merge => "merge commit",
        CommitSort::Revert => "revert commit",
    };
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    let said = format!("{tip_name} has {n} {what}{} over {base_name}", plural(n));
    if n == count {
        return Ok(said);
    }
    Err(finding(
        claim,
        format!("the message says {count}, and {said}"),
        fix,
    ))
}

/// How many commits of a sort are reachable from `tip` and not from `base` (made at or
/// after `made_since`, when given), up to 10 000.
fn count_commits(
    repo: &Repository,
    tip: Oid,
    base: Oid,
    sort: CommitSort,
    made_since: Option<i64>,
) -> Option<u64> {
    let mut walk = repo.revwalk().ok()?;
    walk.push(tip).ok()?;
    walk.hide(base).ok()?;
    let mut n = 0u64;
    for (i, id) in walk.enumerate() {
        if i >= 10_000 {
            return None;
        }
        let commit = repo.find_commit(id.ok()?).ok()?;
        if made_since.is_some_and(|t| commit.committer().when().seconds() < t) {
            continue;
        }
        let counted = match sort {
            CommitSort::Any => true,
            CommitSort::Merge => commit.parent_count() > 1,
            CommitSort::Revert => {
                let msg = commit.message().unwrap_or("");
                msg.starts_with("Revert ") || msg.contains("This reverts commit ")
            }
        };
        n += u64::from(counted);
    }
    Some(n)
}

/// Whether HEAD's reflog tells a rebase, a pull or a reset since the turn began.
fn rewrote_history(repo: &Repository, start: Option<i64>) -> bool {
    let Ok(log) = repo.reflog("HEAD") else {
        return true;
    };
    log.iter()
        .take_while(|e| start.is_none_or(|s| e.committer().when().seconds() >= s))
        .any(|e| {
            let msg = e.message().unwrap_or("");
            ["rebase", "pull", "reset", "cherry-pick", "am", "filter"]
                .iter()
                .any(|w| msg.starts_with(w))
        })
}

/// The counts a report may give of a folder's files: its files, its entries, its entries
/// with the hidden ones, its files at any depth, and the files of its most common
/// extension (first the files). `None` past 10 000 entries or where a folder is unreadable.
fn folder_counts(dir: &Path) -> Option<Vec<u64>> {
    const MAX: usize = 10_000;
    let hidden = |name: &str| name.starts_with('.');
    let mut files = 0u64;
    let mut entries = 0u64;
    let mut with_hidden = 0u64;
    let mut by_ext: Vec<(String, u64)> = Vec::new();
    for entry in std::fs::read_dir(dir).ok()?.take(MAX) {
        let entry = entry.ok()?;
        let name = entry.file_name().to_string_lossy().into_owned();
        with_hidden += 1;
        if hidden(&name) {
            continue;
        }
        entries += 1;
        if entry.file_type().ok()?.is_file() {
            files += 1;
            // `a.tar.gz` counts as `.tar.gz`: the extension from the first dot after the stem.
            let ext = name
                .split_once('.')
                .map_or(String::new(), |(_, e)| e.to_owned());
            match by_ext.iter_mut().find(|(e, _)| *e == ext) {
                Some((_, n)) => *n += 1,
                None => by_ext.push((ext, 1)),
            }
        }
    }
    let mut deep = 0u64;
    let mut stack = vec![dir.to_path_buf()];
    let mut seen = 0usize;
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).ok()? {
            seen += 1;
            if seen > MAX {
                return None;
            }
            let entry = entry.ok()?;
            if hidden(&entry.file_name().to_string_lossy()) {
                continue;
            }
            let kind = entry.file_type().ok()?;
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                deep += 1;
            }
        }
    }
    let most = by_ext.iter().map(|(_, n)| *n).max().unwrap_or(0);
    Some(vec![files, entries, with_hidden, deep, most])
}

/// Evidence for a package script the message names ([`Kind::Script`]): `package.json`
/// defines it, and what it runs (with its `pre`/`post` scripts) names each tool the
/// message says it runs. A script that runs other scripts or files is not read through:
/// a tool missing from it is reported.
pub fn script_evidence(
    claim: &Claim,
    name: &str,
    runs: &[String],
    f: &Facts,
) -> Result<String, Finding> {
    let fix = format!(
        "make package.json say it (`npm pkg set scripts.{name}=…`), or correct the message"
    );
    let fix = fix.as_str();
    let Some(scripts) = package_scripts(f.ev.cwd) else {
        return Err(reported(
            claim,
            "there is no package.json with scripts here to read it from".into(),
            fix,
        ));
    };
    let Some(body) = scripts.get(name).and_then(|v| v.as_str()) else {
        let have: Vec<&str> = scripts.keys().map(String::as_str).collect();
        return Err(finding(
            claim,
            format!(
                "package.json has no `{name}` script (it has: {})",
                if have.is_empty() {
                    "none".to_owned()
                } else {
                    have.join(", ")
                }
            ),
            fix,
        ));
    };
    if runs.is_empty() {
        return Ok(format!("package.json's `{name}` script is `{}`", cut(body)));
    }
    let argv = ["npm".to_owned(), "run".to_owned(), name.to_owned()];
    let Some(text) = recipe_script(&argv, f.ev.cwd) else {
        return Err(reported(
            claim,
            format!(
                "package.json's `{name}` script (`{}`) runs other scripts or files, not read here",
                cut(body)
            ),
            fix,
        ));
    };
    let missing: Vec<&str> = runs
        .iter()
        .map(String::as_str)
        .filter(|tool| !runs_tool(&text, tool))
        .collect();
    if missing.is_empty() {
        return Ok(format!(
            "package.json's `{name}` script is `{}`",
            cut(&text)
        ));
    }
    // "`npm test` 2/2, mocha 2 passing": a tool the turn also ran by itself may be a run
    // the sentence lists beside the script's.
    let ran_apart = missing
        .iter()
        .any(|tool| f.runs.iter().any(|r| runs_tool(&r.command, tool)));
    let mut found = finding(
        claim,
        format!(
            "package.json's `{name}` script is `{}`: it does not run {}",
            cut(&text),
            missing.join(", ")
        ),
        fix,
    );
    if ran_apart {
        found.blocks = false;
        found
            .why
            .push_str(" (the turn ran it by itself: the sentence may list that run)");
    }
    Err(found)
}

/// Whether `w` stands in `hay` as a whole word: no letter or digit right before or after.
fn whole_word_in(hay: &str, w: &str) -> bool {
    hay.match_indices(w).any(|(i, _)| {
        hay[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
            && hay[i + w.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// Whether `command` runs the check tool named `tool` (`jest`, `node:test`), by the
/// commands its row of the tools' table runs it with.
fn runs_tool(command: &str, tool: &str) -> bool {
    super::named::tools_named(tool).iter().any(|n| {
        let patterns: Vec<String> = n.runs.iter().map(|r| (*r).to_owned()).collect();
        runs_any(command, &patterns)
    })
}

/// Evidence for a failure the message says was seen before the fix
/// ([`Kind::FailedBeforeFix`]): a run of the turn that failed (its status, a runner's
/// failure count, or a failure line in what it printed). With none, a turn that wrote a
/// test file blocks: the test is new, so any failure of it was seen in this turn or not at
/// all. Otherwise the failure may have been seen in an earlier turn: reported.
pub fn failed_before_fix_evidence(claim: &Claim, f: &Facts) -> Result<String, Finding> {
    let failed = |r: &&Run| {
        r.is_error
            || summary::parse(Runner::Other, &r.output).is_some_and(|s| s.failed > 0)
            || r.output.lines().any(is_failure_line)
    };
    if let Some(run) = f.runs.iter().find(failed) {
        return Ok(format!("`{}` failed in this turn", cut(&run.command)));
    }
    let why = "no run of this turn failed: nothing here showed a failure before the fix";
    let fix = "run the test against the code before the fix (`git stash` the fix) and report what it printed, or say the failure was not seen";
    let test_written = f.writes.iter().find_map(|(_, path, _)| {
        let rel = path.strip_prefix(&f.root).unwrap_or(path).to_string_lossy();
        super::vocab::test_file_span(&rel).then(|| rel.into_owned())
    });
    match test_written {
        Some(test) => Err(finding(
            claim,
            format!("{why}, and {test} was written in this turn"),
            fix,
        )),
        None => Err(reported(
            claim,
            format!("{why} (it may have been seen in an earlier turn)"),
            fix,
        )),
    }
}

/// A line a runner or an interpreter prints for a failure: unittest's `FAIL:`, node's `not
/// ok`, a Python traceback, a Rust panic, jest's `✕`.
fn is_failure_line(line: &str) -> bool {
    let t = line.trim_start();
    [
        "FAIL:",
        "FAIL ",
        "FAILED",
        "ERROR:",
        "not ok ",
        "Traceback (most recent call last)",
        "AssertionError",
        "✕",
        "✗",
        "×",
    ]
    .iter()
    .any(|m| t.starts_with(m))
        || t.contains("panicked at ")
}

/// Evidence for the tests a message says a test file holds ([`Kind::TestsInFile`]): the
/// tests the file defines, counted from its text (`def test_…` in Python, `test(` / `it(`
/// in JavaScript, `#[test]` in Rust, `func Test…` in Go). A file that makes tests as it
/// runs (a parametrized test, `.each`, `subTest`, a loop around a test) or of another
/// language leaves the claim reported.
pub fn tests_in_file_evidence(claim: &Claim, path: &Path, count: u64) -> Result<String, Finding> {
    let shown = path.display();
    let fix =
        "count the file's tests (`grep -c`) and say how many it has, or write the ones missing";
    let text = text_as_left(claim, path, fix)?;
    match defined_tests(path, &text) {
        Some(n) if n == count => Ok(format!("{shown} defines {n} tests")),
        Some(n) => Err(finding(
            claim,
            format!("{shown}, as the turn left it, defines {n} tests, not {count}"),
            fix,
        )),
        None => Err(reported(
            claim,
            format!("the tests of {shown} could not be counted from its text"),
            fix,
        )),
    }
}

/// The tests a test file defines, by its language; `None` where the text does not say
/// (tests made at run time, or a language not read here).
fn defined_tests(path: &Path, text: &str) -> Option<u64> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    let lines = || text.lines().map(str::trim_start);
    let count = |f: &dyn Fn(&str) -> bool| lines().filter(|l| f(l)).count() as u64;
    match ext.as_str() {
        "py" => {
            if ["parametrize", "subTest", "load_tests"]
                .iter()
                .any(|w| text.contains(w))
            {
                return None;
            }
            Some(count(&|l| {
                l.strip_prefix("async ")
                    .unwrap_or(l)
                    .strip_prefix("def test")
                    .is_some()
            }))
        }
        "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx" => {
            if [".each", "forEach", "for (", "for(", ".map("]
                .iter()
                .any(|w| text.contains(w))
            {
                return None;
            }
            Some(count(&|l| {
                ["test", "it"].iter().any(|f| {
                    l.strip_prefix(f).is_some_and(|rest| {
                        let rest = rest
                            .strip_prefix(".only")
                            .or_else(|| rest.strip_prefix(".skip"))
                            .unwrap_or(rest);
                        rest.trim_start().starts_with('(')
                    })
                })
            }))
        }
        "rs" => {
            if text.contains("macro_rules!") || text.contains("rstest") {
                return None;
            }
            Some(count(&|l| {
                l.starts_with("#[test]") || l.starts_with("#[tokio::test")
            }))
        }
        "go" => Some(count(&|l| l.starts_with("func Test"))),
        _ => None,
    }
}

/// Evidence for what a Python function has ([`Kind::FnHas`]): its `def` in the file the
/// sentence names; else in the `.py` files the turn wrote, then in the project's (the
/// walk [`no_source_says`] makes). A name no file defines is no function of the
/// project's, and the sentence claims nothing of it.
pub fn fn_has_evidence(
    claim: &Claim,
    name: &str,
    part: FnPart,
    path: Option<&str>,
    f: &Facts,
) -> Result<String, Finding> {
    let (what, none) = match part {
        FnPart::Docstring => ("a docstring", "no docstring"),
        FnPart::TypeHints => ("type hints", "no type hints"),
    };
    let fix = "check the function's `def` and say what it has, or add it";
    let judge = |file: &Path, def: crate::audit::pydef::PyDef| {
        let has = match part {
            FnPart::Docstring => def.docstring,
            FnPart::TypeHints => def.hinted,
        };
        let at = format!("`def {name}` ({}:{})", file.display(), def.line);
        if has {
            Ok(format!("{at} has {what}"))
        } else {
            Err(finding(claim, format!("{at} has {none}"), fix))
        }
    };
    if let Some(named) = path {
        let file = resolve(named, f);
        let text = String::from_utf8_lossy(&read_as_left(claim, &file, fix)?).into_owned();
        return match crate::audit::pydef::find_def(&text, name) {
            Some(def) => judge(&file, def),
            None => Ok(format!(
                "{} defines no `{name}`: no function's claim",
                file.display()
            )),
        };
    }
    let mut written: Vec<&PathBuf> = f
        .writes
        .iter()
        .map(|(_, p, _)| p)
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    written.dedup();
    for file in written.iter().rev() {
        let Some(text) = read_capped(file, 4 << 20) else {
            continue;
        };
        if let Some(def) = crate::audit::pydef::find_def(&text, name) {
            return judge(file, def);
        }
    }
    let mut found = None;
    let looked_at_all = no_source_says(
        f,
        Path::new(""),
        |p| p.extension().is_some_and(|e| e == "py"),
        |p, text| match crate::audit::pydef::find_def(&text, name) {
            Some(def) => {
                found = Some((p.to_owned(), def));
                true
            }
            None => false,
        },
    );
    match found {
        Some((file, def)) => judge(&file, def),
        None if looked_at_all => Ok(format!(
            "no `.py` file of the project defines `{name}`: no function's claim"
        )),
        None => Err(reported(
            claim,
            format!("`def {name}` was not found, and not every file of the project could be read"),
            "name the file that defines it",
        )),
    }
}

/// Evidence for the stash list as the message says the turn left it ([`Kind::Stash`]):
/// read from `refs/stash` and its reflog, one entry per stash ("On main: experiment").
pub fn stash_evidence(
    claim: &Claim,
    name: Option<&str>,
    present: bool,
    f: &Facts,
) -> Result<String, Finding> {
    let Some(repo) = f.repo() else {
        return Err(no_repository(claim));
    };
    let entries: Vec<String> = if repo.find_reference("refs/stash").is_ok() {
        repo.reflog("refs/stash")
            .map(|log| {
                log.iter()
                    .map(|e| e.message().unwrap_or_default().to_owned())
                    .collect()
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let named = |n: &str| {
        entries
            .iter()
            .find(|m| m.rsplit_once(": ").is_some_and(|(_, msg)| msg.trim() == n) || m.ends_with(n))
    };
    let fix = "run `git stash list` and report what it shows";
    match (name, present) {
        (None, false) if !entries.is_empty() => Err(finding(
            claim,
            format!(
                "`git stash list` is not empty: {} (`git stash apply` keeps the stash; `pop` or `drop` removes it)",
                crate::words::count(entries.len(), "entry", "entries")
            ),
            fix,
        )),
        (None, true) if entries.is_empty() => {
            Err(finding(claim, "`git stash list` is empty".into(), fix))
        }
        (Some(n), false) => match named(n) {
            Some(m) => Err(finding(claim, format!("the stash list still holds `{m}`"), fix)),
            None => Ok(format!("no stash {n} in the list")),
        },
        (Some(n), true) => match named(n) {
            Some(m) => Ok(format!("the stash list holds `{m}`")),
            None => Err(finding(
                claim,
                format!(
                    "no stash {n} is in the list ({})",
                    crate::words::count(entries.len(), "entry", "entries")
                ),
                fix,
            )),
        },
        _ => Ok(format!(
            "`git stash list` holds {}",
            crate::words::count(entries.len(), "entry", "entries")
        )),
    }
}

/// The first commit reachable from `starts` (at most 5000 looked at) whose subject is
/// `subject`.
fn commit_of_subject(repo: &Repository, starts: &[Oid], subject: &str) -> Option<Oid> {
    let mut walk = repo.revwalk().ok()?;
    for s in starts {
        walk.push(*s).ok()?;
    }
    walk.flatten().take(5000).find(|oid| {
        repo.find_commit(*oid)
            .is_ok_and(|c| c.summary().is_some_and(|s| s.trim() == subject))
    })
}

/// The line of git's refusal, where a `git merge` or `git rebase` of the turn named `name`
/// and git answered that it cannot ("not something we can merge", "invalid upstream").
fn refused_join_of(name: &str, f: &Facts) -> Option<String> {
    f.runs
        .iter()
        .filter(|r| {
            r.stages.iter().any(|s| {
                (git_sub(s, "merge") || git_sub(s, "rebase"))
                    && s.argv
                        .iter()
                        .any(|a| a == name || a.ends_with(&format!("/{name}")))
            })
        })
        .find_map(|r| {
            r.output
                .lines()
                .find(|l| {
                    l.contains(name)
                        && (l.contains("not something we can merge")
                            || l.contains("invalid upstream")
                            || l.starts_with("fatal:"))
                })
                .map(str::to_owned)
        })
}

/// Evidence for a claim that the working tree is clean: git's own status of the tree as
/// the turn left it. A tracked file changed (staged or not) or a file the turn left
/// untracked makes it false; an untracked file older than the turn is the user's clutter,
/// which an agent may fairly leave out.
pub fn clean_evidence(claim: &Claim, f: &Facts) -> Result<String, Finding> {
    let Some(repo) = f.repo() else {
        return Err(no_repository(claim));
    };
    let mut opts = git2::StatusOptions::new();
    opts.include_untracked(true)
        .recurse_untracked_dirs(false)
        .include_ignored(false)
        .exclude_submodules(true);
    let statuses = match repo.statuses(Some(&mut opts)) {
        Ok(s) => s,
        Err(e) => {
            return Err(reported(
                claim,
                format!(
                    "git could not read the working tree's status: {}",
                    e.message()
                ),
                "run `git status` and report what it shows",
            ));
        }
    };
    let workdir = repo.workdir().map(Path::to_path_buf).unwrap_or_default();
    let mut left: Vec<String> = Vec::new();
    for entry in statuses.iter() {
        let Some(path) = entry.path() else { continue };
        let st = entry.status();
        if st.is_wt_new() && !st.intersects(git2::Status::INDEX_NEW | git2::Status::INDEX_MODIFIED)
        {
            let older = f.start.is_some_and(|start| {
                std::fs::symlink_metadata(workdir.join(path.trim_end_matches('/')))
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| secs(t) < start)
            });
            if older {
                continue;
            }
            left.push(format!("{path} (untracked)"));
        } else if st.intersects(
            git2::Status::INDEX_NEW
                | git2::Status::INDEX_MODIFIED
                | git2::Status::INDEX_DELETED
                | git2::Status::INDEX_RENAMED
                | git2::Status::INDEX_TYPECHANGE,
        ) {
            left.push(format!("{path} (staged)"));
        } else if st.intersects(
            git2::Status::WT_MODIFIED
                | git2::Status::WT_DELETED
                | git2::Status::WT_RENAMED
                | git2::Status::WT_TYPECHANGE,
        ) {
            left.push(format!("{path} (modified)"));
        }
    }
    if left.is_empty() {
        return Ok("git's status of the working tree shows no change and no new file".into());
    }
    let more = left.len().saturating_sub(3);
    left.truncate(3);
    let mut why = format!("the working tree is not clean: {}", left.join(", "));
    if more > 0 {
        why.push_str(&format!(" and {more} more"));
    }
    Err(finding(
        claim,
        why,
        "run `git status` and report what it shows",
    ))
}

/// Whether `name` is a local tag and a `git push --tags` (or `--mirror`) of the turn went
/// through: it sent every tag, quietly (`-q` prints no ref line to read).
/// Where the remote is a folder here, it must hold the tag too (one made after the push is
/// not on it).
fn sent_with_every_tag(repo: &Repository, name: &str, f: &Facts) -> bool {
    let tag = format!("refs/tags/{name}");
    let on_local_remote = origin_folder(repo).map(|remote| remote.find_reference(&tag).is_ok());
    repo.find_reference(&tag).is_ok()
        && on_local_remote != Some(false)
        && f.runs.iter().filter(|r| !r.is_error).any(|r| {
            r.stages.iter().any(|s| {
                s.ran == Ran::Yes
                    && git_sub(s, "push")
                    && s.argv.iter().any(|a| a == "--tags" || a == "--mirror")
            })
        })
}

/// Evidence for a claim that something did not move: a branch as the turn began
/// (`remote` false), or no push of the branch (or of the work, without one) in this turn.
pub fn unmoved_evidence(
    claim: &Claim,
    branch: Option<&str>,
    remote: bool,
    f: &Facts,
) -> Result<String, Finding> {
    let Some(repo) = f.repo() else {
        return Err(no_repository(claim));
    };
    if remote {
        // A claim that nothing moved blocks on a push: only one surely of this turn (not
        // one in the second the turn began, which setup may have made).
        let pushed = pushed_branches_since(f, 1);
        return match branch {
            // "`wip/spike` er ikke på origin": pushed by `--all`, deleted there again.
            Some(b) if pushed.iter().any(|p| p == b) && absent_from_origin(repo, b) => Ok(
                format!("{b} is not on origin as the turn left it (a push sent it, a later one deleted it)"),
            ),
            Some(b) if pushed.iter().any(|p| p == b) => Err(finding(
                claim,
                format!("the turn pushed {b}"),
                "report the push as it happened",
            )),
            Some(b) if sent_with_every_tag(repo, b, f) => Err(finding(
                claim,
                format!("a `git push --tags` of this turn went through, and it sends every local tag: {b} among them"),
                "report the push as it happened",
            )),
            Some(b) => Ok(format!("no push of {b} in this turn")),
            None => match head_pushed(repo, f) {
                Some(to) => Err(finding(
                    claim,
                    format!("the turn pushed its work: {to} holds the commit HEAD points at"),
                    "report the push as it happened",
                )),
                None => Ok("no push of this turn holds the commit HEAD points at".into()),
            },
        };
    }
    let Some(b) = branch else {
        return Ok("no branch named".into());
    };
    let name = format!("refs/heads/{b}");
    let Ok(now) = repo.refname_to_id(&name) else {
        return Err(reported(
            claim,
            format!("the repository has no branch {b}"),
            "say which branch",
        ));
    };
    if let Some(subject) = committed_here(repo, &name, f) {
        return Err(finding(
            claim,
            format!("{b} moved in this turn: the turn's commit \"{subject}\" is on it"),
            "report what moved the branch (or move it back), and say so",
        ));
    }
    match branch_at_start(repo, &name, f.start) {
        Some(then) if then != now => Err(finding(
            claim,
            format!(
                "{b} moved in this turn: from {} to {}",
                &then.to_string()[..7],
                &now.to_string()[..7]
            ),
            "report what moved the branch (or move it back), and say so",
        )),
        Some(_) => Ok(format!("{b} is where it was when the turn began")),
        None => {
            let mut found = finding(
                claim,
                format!("where {b} was when the turn began is not known (no reflog of it)"),
                "say what you checked",
            );
            found.blocks = false;
            Err(found)
        }
    }
}

/// The subject of a commit a `git commit -m` of this turn made on the branch `name`: its
/// reflog holds "commit: <subject>" from the turn's start second on. A commit of the
/// setup in that second has a subject no command of the turn wrote.
fn committed_here(repo: &Repository, name: &str, f: &Facts) -> Option<String> {
    let start = f.start?;
    let subjects: Vec<String> = f
        .runs
        .iter()
        .flat_map(|r| &r.stages)
        .filter(|s| git_sub(s, "commit") && s.ran != Ran::No)
        .filter_map(|s| {
            let at = s.argv.iter().position(|a| {
                a == "-m"
                    || a == "--message"
                    || (a.starts_with('-') && !a.starts_with("--") && a.ends_with('m'))
            })?;
            s.argv.get(at + 1).cloned()
        })
        .collect();
    let log = repo.reflog(name).ok()?;
    let found = log.iter().find_map(|e| {
        let message = e.message()?;
        let subject = message
            .strip_prefix("commit: ")
            .or_else(|| message.strip_prefix("commit (amend): "))?;
        (e.committer().when().seconds() >= start
            && subjects.iter().any(|s| s.lines().next() == Some(subject)))
        .then(|| subject.to_owned())
    });
    found
}

/// Where a branch pointed when the turn began, from its reflog: the newest entry before
/// the start, else the oldest entry's old value (a branch made in the turn: none).
fn branch_at_start(repo: &Repository, name: &str, start: Option<i64>) -> Option<Oid> {
    let now = repo.refname_to_id(name).ok();
    let Some(start) = start else {
        return now;
    };
    let log = repo.reflog(name).ok()?;
    if log.is_empty() {
        return None;
    }
    let mut oldest_old = None;
    for e in log.iter() {
        if e.committer().when().seconds() <= start {
            return Some(e.id_new());
        }
        oldest_old = Some(e.id_old());
    }
    oldest_old.filter(|o| !o.is_zero())
}

/// The remote-tracking ref a push of this turn updated that holds the commit HEAD points
/// at, if any.
fn head_pushed(repo: &Repository, f: &Facts) -> Option<String> {
    let start = f.start?;
    let head = repo.head().ok()?.target()?;
    // The branches the turn's own `git push` commands sent (their output, or a quiet push
    // that exited 0): no clock needed.
    let by_command = pushed_branches_since(f, i64::MAX / 4);
    let refs = repo.references_glob("refs/remotes/*").ok()?;
    for r in refs.flatten() {
        let (Some(name), Some(target)) = (r.name().map(str::to_owned), r.target()) else {
            continue;
        };
        let pushed_now = repo.reflog(&name).is_ok_and(|log| {
            log.iter().any(|e| {
                e.committer().when().seconds() > start
                    && e.message().is_some_and(|m| m.starts_with("update by push"))
            })
        });
        let holds = target == head || repo.graph_descendant_of(target, head).unwrap_or(false);
        let short = name.trim_start_matches("refs/remotes/");
        let branch = short.split_once('/').map_or(short, |(_, b)| b);
        let pushed_now = pushed_now || by_command.iter().any(|b| b == branch);
        if pushed_now && holds {
            return Some(name.trim_start_matches("refs/remotes/").to_owned());
        }
    }
    None
}

/// Whether a push claim that names one of the repository's remotes ("pushed to
/// `origin`", "`origin` को `main` मा push गरें") went there: with two remotes or more, a
/// push of this turn that went only to others (`git push mirror main`) is not a push to it.
fn pushed_to_the_remote_named(claim: &Claim, f: &Facts) -> Result<(), Finding> {
    let Some(repo) = f.repo() else {
        return Ok(());
    };
    let remotes: Vec<String> = repo
        .remotes()
        .map(|r| r.iter().flatten().map(str::to_owned).collect())
        .unwrap_or_default();
    if remotes.len() < 2 {
        return Ok(());
    }
    let words: Vec<&str> = claim
        .sentence
        .split(|c: char| !(c.is_alphanumeric() || "-_.".contains(c)))
        .collect();
    let named: Vec<&String> = remotes
        .iter()
        .filter(|r| words.contains(&r.as_str()))
        .collect();
    if named.len() != 1 {
        return Ok(());
    }
    // Where the pushes of this turn went: the first operand of each `git push` that did
    // not fail (none: its upstream's remote, not known here).
    let mut went: Vec<String> = Vec::new();
    for r in &f.runs {
        let failed = r.output.contains("failed to push")
            || r.output.contains("fatal:")
            || r.output.contains("[rejected]");
        for s in r.stages.iter().filter(|s| git_sub(s, "push")) {
            if failed || s.ran == Ran::No || s.argv.iter().any(|a| a == "-n" || a == "--dry-run") {
                continue;
            }
            match s.argv.iter().skip(2).find(|a| !a.starts_with('-')) {
                Some(remote) => went.push(remote.clone()),
                None => return Ok(()),
            }
        }
    }
    let named = named[0];
    if went.is_empty() || went.iter().any(|w| w == named || !remotes.contains(w)) {
        return Ok(());
    }
    went.dedup();
    Err(finding(
        claim,
        format!("the turn pushed to {}, not to {named}", went.join(", ")),
        "push to that remote, or name the remote it went to",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `make check` runs its prerequisites' recipes, then its own; a target named like a
    /// folder that is there, with no `.PHONY`, runs nothing (h42-01: `test` beside `test/`).
    #[test]
    fn make_runs_prerequisites_and_skips_a_target_that_is_up_to_date() {
        let dir = std::env::temp_dir().join(format!("dia-make-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("test")).unwrap();
        let makefile = "# checks\ncheck: lint test\n\nlint:\n\t@node --check src/stats.js\n\ntest:\n\tnode --test\n";
        std::fs::write(dir.join("Makefile"), makefile).unwrap();
        let argv = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(
            make_recipe(&argv("make check"), &dir).as_deref(),
            Some("node --check src/stats.js")
        );
        std::fs::write(
            dir.join("Makefile"),
            format!(".PHONY: check lint test\n{makefile}"),
        )
        .unwrap();
        assert_eq!(
            make_recipe(&argv("make check"), &dir).as_deref(),
            Some("node --check src/stats.js; node --test")
        );
        // Another Makefile, or a variable given, is not read.
        assert_eq!(make_recipe(&argv("make -C sub check"), &dir), None);
        assert_eq!(make_recipe(&argv("make CC=gcc check"), &dir), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Coverage tables as node, istanbul and coverage.py print them: the file's row, in
    /// the column for lines (h50-15: node said 88.89 for `src/stats.js`).
    #[test]
    fn coverage_rows_give_the_lines_figure() {
        let node = "# start of coverage report\n# --------\n# file          | line % | branch % | funcs % | uncovered lines\n# src/stats.js  |  88.89 |   100.00 |  100.00 | 11-12\n# all files     |  90.00 |   100.00 |  100.00 |\n";
        assert_eq!(coverage_figures(node, Some("src/stats.js")), [88.89]);
        assert_eq!(coverage_figures(node, None), [90.0]);
        let istanbul = "File      | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s\n stats.js |   87.5 |      50 |     100 |   85.71 | 11\n";
        assert_eq!(coverage_figures(istanbul, Some("src/stats.js")), [85.71]);
        let py = "Name            Stmts   Miss  Cover\napp/stats.py        9      1    89%\nTOTAL               9      1    89%\n";
        assert_eq!(coverage_figures(py, Some("app/stats.py")), [89.0]);
        assert_eq!(coverage_figures(py, None), [89.0]);
    }

    /// Every word of a pytest run that is no option is a path (h49-11: `pytest -q tests`
    /// does not run `libs/numkit/tests/…`; `pytest -q libs/numkit` does).
    #[test]
    fn a_pytest_run_selects_the_paths_it_names() {
        let argv = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        let file = "libs/numkit/tests/test_pct_reference.py";
        assert!(!pytest_selects(&argv("pytest -q tests 2>&1"), file));
        assert!(pytest_selects(&argv("pytest -q libs/numkit 2>&1"), file));
        assert!(pytest_selects(&argv("python3 -m pytest -q"), file));
        assert!(pytest_selects(&argv("pytest -k slow -q"), file));
        assert!(pytest_selects(
            &argv("pytest libs/numkit/tests/test_pct_reference.py::test_x"),
            file
        ));
    }

    #[test]
    fn the_tests_a_file_defines_are_counted_by_its_language() {
        let js = "const test = require('node:test');\ntest('a', () => {});\n  it.only('b', () => {});\nconst item = 1;\n";
        assert_eq!(defined_tests(Path::new("t/a.test.js"), js), Some(2));
        let py = "class T(unittest.TestCase):\n    def test_a(self): pass\n    async def test_b(self): pass\n    def helper(self): pass\n";
        assert_eq!(defined_tests(Path::new("tests/test_a.py"), py), Some(2));
        let rs = "#[test]\nfn a() {}\n#[test]\nfn b() {}\n";
        assert_eq!(defined_tests(Path::new("tests/it.rs"), rs), Some(2));
        // Tests made at run time are not counted from the text.
        let each = "test.each([[1], [2]])('x %i', (n) => {});\n";
        assert_eq!(defined_tests(Path::new("t/b.test.js"), each), None);
        assert_eq!(defined_tests(Path::new("t/b.rb"), "it 'x' do end"), None);
    }

    #[test]
    fn a_section_runs_to_the_next_heading_of_its_level() {
        let text =
            "# Log\n\n## [Unreleased]\n\n- a\n### Fixed\n- b\n## [1.0.0] - 2025-01-01\n- c\n";
        assert_eq!(
            section_under(text, "## [Unreleased]"),
            Some("\n- a\n### Fixed\n- b\n")
        );
        assert_eq!(section_under(text, "## [1.0.0]"), Some("- c\n"));
        assert_eq!(section_under(text, "## [0.9.0]"), None);
        let fenced = "## Usage\n\n```sh\n# install first\nmake\n```\nRun `zscore`.\n## API\n";
        assert_eq!(
            section_under(fenced, "## Usage"),
            Some("\n```sh\n# install first\nmake\n```\nRun `zscore`.\n")
        );
        let ini = "[server]\nport = 80\n[db]\nretries = 3\n";
        assert_eq!(section_under(ini, "[server]"), Some("port = 80\n"));
        assert_eq!(missing_words("MaxConnections = 5", "maxconnections"), None);
        assert_eq!(
            missing_words("maxconnections = 5", "MaxConnections"),
            Some("\"MaxConnections\"".into())
        );
    }

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn cargo_runs_list_their_tests_by_name_unless_quiet() {
        let out = "running 2 tests\ntest tests::adds ... ok\ntest tests::subs ... ignored, slow\n\ntest result: ok. 1 passed; 0 failed; 1 ignored\n\n   Doc-tests calc\n\nrunning 0 tests\n";
        assert_eq!(cargo_tests_listed(out), Some(vec!["adds", "subs"]));
        assert_eq!(
            cargo_tests_listed("running 2 tests\n..\ntest result: ok. 2 passed"),
            None
        );
        assert_eq!(cargo_tests_listed("running 0 tests\n"), None);
        let src = "#[cfg(test)]\nmod tests {\n    #[test]\n    // rows\n    fn formats_row() {}\n    fn formats_rows_helper() {}\n}\nfn row() {}\n";
        assert!(defines_a_test(src, "formats_row"));
        assert!(!defines_a_test(src, "row"));
        assert!(!defines_a_test(src, "formats_rows_helper"));
    }

    #[test]
    fn warnings_are_counted_in_compilers_lines_and_summaries() {
        assert_eq!(warnings_in("tools/lc.c:7:23: warning: comparison of integer expressions of different signedness [-Wsign-compare]\n"), 1);
        assert_eq!(
            warnings_in("Note: Tally.java uses unchecked or unsafe operations.\n3 warnings\n"),
            3
        );
        assert_eq!(warnings_in("5 passed, 1 warning in 0.02s\n"), 1);
        assert_eq!(warnings_in("5 passed in 0.02s\n"), 0);
    }

    #[test]
    fn unittest_discovery_enters_only_packages() {
        let dir = std::env::temp_dir().join(format!("dia-unittest-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("tests/integration")).unwrap();
        std::fs::write(dir.join("tests/__init__.py"), "").unwrap();
        let unit = dir.join("tests/test_text.py");
        let integration = dir.join("tests/integration/test_cli.py");
        assert!(unittest_discovers(&unit, &dir));
        // No `__init__.py` in tests/integration/: discovery never enters it.
        assert!(!unittest_discovers(&integration, &dir));
        std::fs::write(dir.join("tests/integration/__init__.py"), "").unwrap();
        assert!(unittest_discovers(&integration, &dir));
        assert!(!unittest_discovers(&dir.join("tests/helpers.py"), &dir));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(unittest_discovers_all(&argv("python3 -m unittest -v")));
        assert!(!unittest_discovers_all(&argv(
            "python3 -m unittest tests.test_text"
        )));
        assert!(!unittest_discovers_all(&argv(
            "python3 -m unittest discover -s tests"
        )));
    }

    #[test]
    fn a_sentence_may_tell_the_first_of_several_runs() {
        assert!(tells_the_first_run("The first pytest run: 5 passed."));
        assert!(tells_the_first_run(
            "`python3 -m pytest -q` ya kwanza: majaribio matano yalipita"
        ));
        assert!(tells_the_first_run("第一次运行：5 个通过"));
        assert!(!tells_the_first_run("All 5 tests pass."));
        // "first" inside another word is none.
        assert!(!tells_the_first_run("`firstname` is parsed; 5 tests pass."));
    }

    #[test]
    fn failing_files_are_read_from_the_runners_lines() {
        let out = "F.E\n=== short test summary info ===\nFAILED tests/test_words.py::test_drop - AssertionError\nERROR tests/test_words.py::test_sample - FileNotFoundError\n1 failed, 4 passed, 1 error in 0.1s";
        assert_eq!(
            failing_files(out),
            ["tests/test_words.py", "tests/test_words.py"]
        );
        assert_eq!(
            failing_files("FAIL spec/a.test.js\n  ● sums"),
            ["spec/a.test.js"]
        );
        assert_eq!(
            failing_files("FAIL: test_flow (tests.test_integration.FlowTest.test_flow)\nERROR: test_b (tests.test_integration.FlowTest)"),
            ["tests/test_integration.py", "tests/test_integration.py"]
        );
        assert!(failing_files("test result: FAILED. 1 passed; 1 failed").is_empty());
        assert!(failing_files("ERROR: could not build").is_empty());
    }

    #[test]
    fn a_run_that_printed_its_tests_and_no_summary_stopped_before_its_end() {
        let killed = "test_a (tests.test_a.A.test_a) ... ok\ntest_slow (tests.test_a.A.test_slow) ... exit: 124";
        assert_eq!(
            started_without_summary(Runner::Unittest, killed),
            Some("test_slow (tests.test_a.A.test_slow) ... exit: 124")
        );
        let done = "test_a (tests.test_a.A.test_a) ... ok\n\nRan 1 test in 0.001s\n\nOK";
        assert_eq!(started_without_summary(Runner::Unittest, done), None);
        let pytest = "tests/test_a.py::test_a PASSED [ 50%]\ntests/test_a.py::test_b ";
        assert!(started_without_summary(Runner::Pytest, pytest).is_some());
        // Runners that print no test lines here are not judged by them.
        assert_eq!(started_without_summary(Runner::Cargo, killed), None);
    }

    #[test]
    fn a_package_script_that_is_not_there_ran_nothing() {
        let dir = std::env::temp_dir().join(format!("dia-missing-script-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("package.json"),
            r#"{"scripts": {"test": "node --test"}}"#,
        )
        .unwrap();
        let why = missing_script(&argv("npm run lint --if-present"), &dir);
        assert_eq!(
            why.as_deref(),
            Some("package.json has no `lint` script, so it ran nothing")
        );
        assert_eq!(missing_script(&argv("npm run test"), &dir), None);
        assert_eq!(
            missing_script(&argv("pnpm run --if-present lint"), &dir).is_some(),
            true
        );
        // `npm test` of a script that is there, and yarn, which runs a binary of that name.
        assert_eq!(missing_script(&argv("npm test"), &dir), None);
        assert_eq!(missing_script(&argv("yarn run eslint"), &dir), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn patterns_with_and_without_quotes_split_alike() {
        let cmd = argv("pytest -m not_slow tests");
        assert!(matches_pattern(&cmd, "pytest"));
        assert!(matches_pattern(&argv("python3 -m pytest -q"), "pytest"));
        let quoted = shellrun::stages(r#"pytest -m "not integration""#)[0]
            .argv
            .clone();
        assert!(matches_pattern(&quoted, r#"pytest -m "not integration""#));
        assert!(!matches_pattern(&cmd, r#"pytest -m "not integration""#));
    }

    #[test]
    fn a_library_named_as_a_check_runs_in_an_inline_script() {
        let runs = |cmd: &str, pattern: &str| runs_any(cmd, &[pattern.to_owned()]);
        let toml = "inline:tomllib";
        assert!(runs(
            r#"python3 -c "import tomllib; tomllib.load(open('pyproject.toml', 'rb'))""#,
            toml
        ));
        assert!(runs(
            r#"uv run python -c 'import tomllib,sys; tomllib.load(sys.stdin.buffer)'"#,
            toml
        ));
        assert!(runs(
            r#"node -e "JSON.parse(require('fs').readFileSync('a.json'))""#,
            "inline:JSON"
        ));
        // Named, not used: a word inside another name, code that is a file, another program.
        assert!(!runs(r#"python3 -c "import mytomllib""#, toml));
        assert!(!runs("python3 check_tomllib.py", toml));
        assert!(!runs("grep -r tomllib src", toml));
    }

    #[test]
    fn an_edit_of_comments_only_cannot_make_a_run_stale() {
        let comments = changed_lines_are_comments;
        assert!(comments("fn add() {}", "// Adds.\nfn add() {}"));
        assert!(comments(
            "def slugify(text):",
            "def slugify(text):\n    \"\"\"Lower-case words joined by hyphens.\"\"\""
        ));
        assert!(comments(
            "function max(xs) {",
            "/**\n * The largest.\n */\nfunction max(xs) {"
        ));
        assert!(comments("# old note\nx = 1", "# new note\nx = 1"));
        // Code changed, or a doc example (a test of its own) added.
        assert!(!comments("a + b", "a - b"));
        assert!(!comments("#[test]\nfn a() {}", "#[test]\nfn b() {}"));
        assert!(!comments(
            "fn add() {}",
            "/// ```\n/// assert_eq!(add(1, 2), 3);\n/// ```\nfn add() {}"
        ));
        assert!(!comments(
            "def f():",
            "def f():\n    \"\"\"\n    >>> f()\n    \"\"\""
        ));
        // Trailing blanks taken away change nothing; indentation is code.
        assert!(comments("def f():  \n    pass", "def f():\n    pass"));
        assert!(!comments(
            "def f():\n    pass\n    x = 1",
            "def f():\n    pass\nx = 1"
        ));
    }

    #[test]
    fn a_tool_left_behind_is_context_only_when_the_move_names_it() {
        assert!(names_a_move(
            "Moved from jest to vitest; all tests pass",
            &["jest"]
        ));
        assert!(names_a_move("Replaced mocha with jest: green", &["mocha"]));
        assert!(names_a_move("jest → vitest, everything passes", &["jest"]));
        assert!(!names_a_move(
            "Dropped the redundant seed from `sum`'s reduce — jest ✔ · mocha ✔",
            &["mocha"]
        ));
        assert!(!names_a_move("The jest suite passes too", &["jest"]));
    }

    #[test]
    fn a_run_that_selects_tests_by_name_has_a_name_filter() {
        let f = |r: Runner, c: &str| name_filter(r, &argv(c));
        assert_eq!(f(Runner::Jest, "jest spec -t sum"), Some("-t sum".into()));
        assert_eq!(
            f(Runner::Jest, "npx jest --testNamePattern=max"),
            Some("--testNamePattern=max".into())
        );
        assert_eq!(
            f(Runner::Pytest, "pytest -q -k title"),
            Some("-k title".into())
        );
        assert_eq!(
            f(Runner::Pytest, "pytest tests/test_a.py::test_x"),
            Some("tests/test_a.py::test_x".into())
        );
        assert_eq!(
            f(Runner::Cargo, "cargo test parse_empty"),
            Some("parse_empty".into())
        );
        assert_eq!(
            f(Runner::Cargo, "cargo +nightly test parse"),
            Some("parse".into())
        );
        assert_eq!(
            f(Runner::Cargo, "cargo nextest run parse"),
            Some("parse".into())
        );
        assert_eq!(f(Runner::Cargo, "cargo nextest run"), None);
        assert_eq!(
            f(
                Runner::Unittest,
                "python3 -m unittest tests.test_text.TextTest.test_clamp"
            ),
            Some("tests.test_text.TextTest.test_clamp".into())
        );
        assert_eq!(
            f(Runner::Unittest, "python3 -m unittest discover -s tests"),
            None
        );
        assert_eq!(f(Runner::Mocha, "mocha -g max"), Some("-g max".into()));
        assert_eq!(
            f(Runner::Go, "go test ./... -run TestMax"),
            Some("-run TestMax".into())
        );
        // A selection of files or targets is no name filter.
        assert_eq!(
            f(Runner::Cargo, "cargo test --test it -- --nocapture"),
            None
        );
        assert_eq!(f(Runner::Cargo, "cargo test -p core --lib"), None);
        assert_eq!(f(Runner::Pytest, "pytest tests/test_a.py"), None);
        assert_eq!(f(Runner::Jest, "jest spec"), None);
    }

    #[test]
    fn command_matching() {
        assert!(matches_pattern(
            &argv("cargo test --workspace"),
            "cargo test"
        ));
        assert!(matches_pattern(&argv("/usr/bin/cargo test"), "cargo test"));
        assert!(!matches_pattern(&argv("cargo build"), "cargo test"));
        assert!(matches_pattern(&argv("./gradlew test"), "./gradlew test"));
        assert!(matches_pattern(&argv("uv run pytest -q"), "pytest"));
        assert!(matches_pattern(&argv("python3 -m unittest -v"), "unittest"));
        assert!(matches_pattern(&argv("npx jest"), "jest"));
        assert!(is_partial(Runner::Cargo, &argv("cargo test parse_empty")));
        assert!(!is_partial(
            Runner::Cargo,
            &argv("cargo test -p x -- --nocapture")
        ));
        assert!(is_partial(
            Runner::Pytest,
            &argv("pytest tests/test_a.py::test_b")
        ));
        assert_eq!(
            committed_in_output("[main (root-commit) 1a2b3c4] first\n 1 file changed"),
            ["1a2b3c4"]
        );
    }
}
