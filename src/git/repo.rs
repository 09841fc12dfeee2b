//! What the guard reads from a repository, through libgit2 (no subprocess): the current
//! branch, the local branches, the remotes' default branches, configuration, and
//! ancestry.

use git2::{Repository, RepositoryOpenFlags};
use std::path::{Path, PathBuf};

/// An opened repository.
pub struct Repo {
    repo: Repository,
    /// One snapshot of the configuration for the whole analysis: each libgit2 call that
    /// reads it (listing remotes, `config()`) would copy every entry again, about 80,000
    /// instructions a time on a push's path.
    config: std::cell::OnceCell<Option<git2::Config>>,
    /// The configured remotes, listed once.
    remotes: std::cell::OnceCell<Vec<String>>,
}

/// What HEAD is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Head {
    /// On a branch (possibly unborn).
    Branch(String),
    Detached,
    /// On a branch whose name is computed when the command runs: the word as written
    /// (`git switch -c "fix/$(date +%s)"`).
    Named(String),
    /// Changed earlier in the same command in a way that cannot be followed.
    Unknown,
}

/// A rebase or bisect in progress, and the branch it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InProgress {
    pub branch: String,
    /// `rebase` or `bisect`.
    pub operation: &'static str,
    /// The state file that names the branch.
    pub file: PathBuf,
}

/// libgit2 checks that the repository is owned by the user (git's `safe.directory`)
/// with a readlink of every parent and several uid calls on each open, about 20 system
/// calls on a push's path. The guard does not need it: a repository git would refuse is
/// one where the command fails anyway, and judging it regardless can only deny more.
fn skip_owner_validation() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: a global libgit2 option, set once, before this process opens any
        // repository and while no other thread uses libgit2.
        let _ = unsafe { git2::opts::set_verify_owner_validation(false) };
    });
}

impl Repo {
    /// The repository holding `dir` (searching upward), or the one at `git_dir` when given.
    /// `Ok(None)`: no repository there.
    pub fn open(dir: &Path, git_dir: Option<&Path>) -> Result<Option<Repo>, String> {
        skip_owner_validation();
        let opened = match git_dir {
            Some(gd) => Repository::open_ext(
                gd,
                RepositoryOpenFlags::NO_SEARCH,
                std::iter::empty::<&Path>(),
            ),
            None => Repository::open_ext(
                dir,
                RepositoryOpenFlags::empty(),
                std::iter::empty::<&Path>(),
            ),
        };
        match opened {
            Ok(repo) => Ok(Some(Repo {
                repo,
                config: std::cell::OnceCell::new(),
                remotes: std::cell::OnceCell::new(),
            })),
            Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
            Err(e) => Err(format!(
                "cannot open the git repository at {}: {}",
                git_dir.unwrap_or(dir).display(),
                e.message()
            )),
        }
    }

    /// The libgit2 repository itself (the run-time layer's look at the refs before and
    /// after a command keeps it, rather than opening the repository twice).
    pub fn into_git2(self) -> Repository {
        self.repo
    }

    /// The git directory (`.git`), canonical: the key for per-repository state.
    pub fn git_dir(&self) -> PathBuf {
        let p = self.repo.path();
        p.canonicalize().unwrap_or_else(|_| p.to_owned())
    }

    /// A bare repository has no checked-out branch to protect from a fetch.
    pub fn is_bare(&self) -> bool {
        self.repo.is_bare()
    }

    /// The top of the work tree, where git runs shell aliases.
    pub fn workdir(&self) -> Option<&Path> {
        self.repo.workdir()
    }

    /// The current branch. A detached HEAD while a rebase or a bisect of a branch is in
    /// progress is that branch: `git rebase --continue`, `--skip`, and every commit made
    /// on the way end up on it (and `git bisect reset` returns to it).
    pub fn head(&self) -> Head {
        match self.repo.find_reference("HEAD") {
            Ok(r) => match r.symbolic_target() {
                Some(target) => match target.strip_prefix("refs/heads/") {
                    Some(b) => Head::Branch(b.to_owned()),
                    None => Head::Unknown,
                },
                None => match self.in_progress() {
                    Some(op) => Head::Branch(op.branch),
                    None => Head::Detached,
                },
            },
            Err(_) => Head::Unknown,
        }
    }

    /// The branch an operation in progress will update when it finishes (a rebase) or
    /// return to (a bisect), from the state files git keeps in the git directory:
    /// `rebase-merge/head-name` and `rebase-apply/head-name` (`refs/heads/<branch>`, or
    /// `detached HEAD`), and `BISECT_START` (the branch's short name, or a commit id when
    /// the bisect started detached). `git am`, `cherry-pick` and `revert` (the sequencer)
    /// leave HEAD on the branch, so HEAD names it already. Each file is read only if it
    /// is a regular file.
    pub fn in_progress(&self) -> Option<InProgress> {
        let dir = self.repo.path();
        let read = |name: &str| {
            crate::fsutil::read_regular(&dir.join(name), 4096)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .map(|s| s.trim().to_owned())
        };
        for (file, operation) in [
            ("rebase-merge/head-name", "rebase"),
            ("rebase-apply/head-name", "rebase"),
        ] {
            if let Some(branch) = read(file)
                .as_deref()
                .and_then(|n| n.strip_prefix("refs/heads/"))
            {
                return Some(InProgress {
                    branch: branch.to_owned(),
                    operation,
                    file: dir.join(file),
                });
            }
        }
        let start = read("BISECT_START")?;
        let branch = start.strip_prefix("refs/heads/").unwrap_or(&start);
        self.branch_exists(branch).then(|| InProgress {
            branch: branch.to_owned(),
            operation: "bisect",
            file: dir.join("BISECT_START"),
        })
    }

    pub fn local_branches(&self) -> Vec<String> {
        let Ok(branches) = self.repo.branches(Some(git2::BranchType::Local)) else {
            return Vec::new();
        };
        branches
            .flatten()
            .filter_map(|(b, _)| b.name().ok().flatten().map(str::to_owned))
            .collect()
    }

    pub fn branch_exists(&self, name: &str) -> bool {
        self.repo.find_branch(name, git2::BranchType::Local).is_ok()
    }

    /// The URL of a configured remote.
    pub fn remote_url(&self, name: &str) -> Option<String> {
        self.repo.find_remote(name).ok()?.url().map(str::to_owned)
    }

    /// Whether a short name matches a ref here as git's DWIM rules read it
    /// (`refs/NAME`, `refs/tags/NAME`, `refs/heads/NAME`, `refs/remotes/NAME`).
    pub fn has_ref_named(&self, name: &str) -> bool {
        ["refs/", "refs/tags/", "refs/heads/", "refs/remotes/"]
            .iter()
            .any(|p| self.repo.find_reference(&format!("{p}{name}")).is_ok())
    }

    pub fn remote_branch_exists(&self, remote: &str, name: &str) -> bool {
        self.repo
            .find_reference(&format!("refs/remotes/{remote}/{name}"))
            .is_ok()
    }

    /// The remotes' default branches (see [`Repo::remote_defaults`]).
    pub fn remote_default_branches(&self) -> Vec<String> {
        self.remote_defaults()
            .into_iter()
            .filter_map(|d| d.branch)
            .collect()
    }

    /// Each remote's default branch and how it was found: the remote-tracking
    /// `refs/remotes/<r>/HEAD` (made by `clone` or `remote set-head`); else, for a remote
    /// that is a path or a `file://` URL, that repository's own HEAD; else
    /// `init.defaultBranch`, `main`, then `master`, the first that the remote has (a
    /// remote-tracking branch of that name). `git init` + `git remote add` makes no
    /// `<r>/HEAD`, so without these a remote's default would go unprotected.
    pub fn remote_defaults(&self) -> Vec<RemoteDefault> {
        self.remote_names()
            .iter()
            .map(|r| self.remote_default(r))
            .collect()
    }

    fn remote_default(&self, remote: &str) -> RemoteDefault {
        let found = |branch: String, how: DefaultSource| RemoteDefault {
            remote: remote.to_owned(),
            branch: Some(branch),
            how,
        };
        let tracking = format!("refs/remotes/{remote}/");
        if let Some(branch) = self
            .repo
            .find_reference(&format!("{tracking}HEAD"))
            .ok()
            .and_then(|h| h.symbolic_target().map(str::to_owned))
            .and_then(|t| t.strip_prefix(&tracking).map(str::to_owned))
        {
            return found(branch, DefaultSource::TrackingHead);
        }
        if let Some(branch) = self.local_remote_head(remote) {
            return found(branch, DefaultSource::RemoteRepositoryHead);
        }
        let configured = self
            .config()
            .and_then(|c| c.get_string("init.defaultBranch").ok());
        if let Some(b) = configured.filter(|b| self.remote_branch_exists(remote, b)) {
            return found(b, DefaultSource::InitDefaultBranch);
        }
        for b in ["main", "master"] {
            if self.remote_branch_exists(remote, b) {
                return found(b.to_owned(), DefaultSource::OnlyCommonName);
            }
        }
        RemoteDefault {
            remote: remote.to_owned(),
            branch: None,
            how: DefaultSource::NotFound,
        }
    }

    /// The branch HEAD names in a remote that is a repository on this machine.
    fn local_remote_head(&self, remote: &str) -> Option<String> {
        let url = self.remote_url(remote)?;
        let path = Path::new(&super::push::local_path(&url)?).to_owned();
        let base = self
            .repo
            .workdir()
            .unwrap_or_else(|| self.repo.path())
            .to_owned();
        let path = if path.is_absolute() {
            path
        } else {
            base.join(path)
        };
        // The HEAD file itself (`ref: refs/heads/<b>`, bare or not): one small read on a
        // push's path, where opening the repository with libgit2 cost about 0.3 ms.
        for head in [path.join("HEAD"), path.join(".git/HEAD")] {
            if let Ok(text) = crate::fsutil::read_regular(&head, 4096) {
                return String::from_utf8_lossy(&text)
                    .trim_end()
                    .strip_prefix("ref: refs/heads/")
                    .map(str::to_owned);
            }
        }
        // A `.git` file (a worktree, a submodule): libgit2 follows it.
        let other = git2::Repository::open(&path).ok()?;
        let head = other.find_reference("HEAD").ok()?;
        head.symbolic_target()?
            .strip_prefix("refs/heads/")
            .map(str::to_owned)
    }

    pub fn remote_names(&self) -> Vec<String> {
        self.remotes
            .get_or_init(|| {
                self.repo
                    .remotes()
                    .map(|r| r.iter().flatten().map(str::to_owned).collect())
                    .unwrap_or_default()
            })
            .clone()
    }

    fn config(&self) -> Option<&git2::Config> {
        self.config
            .get_or_init(|| self.repo.config().ok().and_then(|mut c| c.snapshot().ok()))
            .as_ref()
    }

    /// The last value of a configuration key, from every level git reads.
    pub fn config_str(&mut self, key: &str) -> Option<String> {
        self.config()?.get_string(key).ok()
    }

    /// Every value of a multi-valued key, in order.
    pub fn config_all(&mut self, key: &str) -> Vec<String> {
        let Some(config) = self.config() else {
            return Vec::new();
        };
        let Ok(mut entries) = config.multivar(key, None) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        while let Some(Ok(e)) = entries.next() {
            if let Some(v) = e.value() {
                out.push(v.to_owned());
            }
        }
        out
    }

    /// Whether the work tree's `path` differs from HEAD (modified, added, deleted,
    /// untracked). None when the path is outside the work tree or ignored.
    pub fn differs_from_head(&self, path: &Path) -> Option<bool> {
        let workdir = self.repo.workdir()?;
        let workdir = workdir
            .canonicalize()
            .unwrap_or_else(|_| workdir.to_owned());
        let rel = path.strip_prefix(&workdir).ok()?;
        let status = self.repo.status_file(rel).ok()?;
        if status.contains(git2::Status::IGNORED) {
            return None;
        }
        Some(!status.is_empty())
    }

    /// The commit a revision names.
    pub fn commit_of(&self, rev: &str) -> Option<git2::Oid> {
        self.repo
            .revparse_single(rev)
            .ok()?
            .peel_to_commit()
            .ok()
            .map(|c| c.id())
    }

    /// The object a ref points to (`refs/heads/main`), peeled through symbolic refs;
    /// `Ok(None)` when it does not exist.
    pub fn ref_value(&self, name: &str) -> Result<Option<git2::Oid>, String> {
        match self.repo.refname_to_id(name) {
            Ok(oid) => Ok(Some(oid)),
            Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read {name}: {}", e.message())),
        }
    }

    /// The directory shared by every work tree: where `packed-refs`, the branches and
    /// (by default) the hooks live.
    pub fn common_dir(&self) -> PathBuf {
        self.repo.commondir().to_owned()
    }

    /// Every value of a configuration key with the scope it comes from, highest scope
    /// last (git's order: the last value read wins).
    pub fn config_values_by_scope(&mut self, key: &str) -> Vec<(git2::ConfigLevel, String)> {
        let Some(config) = self.config() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if let Ok(mut entries) = config.entries(Some(key)) {
            while let Some(Ok(entry)) = entries.next() {
                if let Some(v) = entry.value() {
                    out.push((entry.level(), v.to_owned()));
                }
            }
        }
        out
    }

    /// Whether `ancestor` is `descendant` or one of its ancestors.
    pub fn is_ancestor(&self, ancestor: git2::Oid, descendant: git2::Oid) -> bool {
        ancestor == descendant
            || self
                .repo
                .graph_descendant_of(descendant, ancestor)
                .unwrap_or(false)
    }
}

/// The files a git command rewrites in the work tree of the repository holding `dir`,
/// under `pathspec` (relative to `dir`), as absolute paths: what differs between the work
/// tree and the index or a tree, between two trees, in a stash, or what git does not
/// track. `Ok(empty)` where git would refuse (no repository, a revision that names no
/// commit, a pathspec outside the work tree); `Err` where the guard cannot tell.
pub fn rewritten_files(
    dir: &Path,
    pathspec: &str,
    changes: &crate::shell::writes::GitChanges,
) -> Result<Vec<PathBuf>, String> {
    use crate::shell::writes::GitChanges;
    let Some(repo) = Repo::open(dir, None)? else {
        return Ok(Vec::new());
    };
    let r = &repo.repo;
    let Some(workdir) = r.workdir() else {
        return Ok(Vec::new());
    };
    let workdir = crate::fsutil::resolve(workdir).unwrap_or_else(|_| workdir.to_owned());
    let dir = crate::fsutil::resolve(dir).unwrap_or_else(|_| dir.to_owned());
    let spec = crate::fsutil::lexical(&dir.join(pathspec));
    let Ok(rel) = spec.strip_prefix(&workdir) else {
        return Ok(Vec::new());
    };
    let rel = rel.to_string_lossy().into_owned();
    let mut opts = git2::DiffOptions::new();
    if !rel.is_empty() {
        opts.pathspec(&rel);
    }
    let tree_of =
        |rev: &str| -> Option<git2::Tree<'_>> { r.revparse_single(rev).ok()?.peel_to_tree().ok() };
    let fail = |e: git2::Error| e.message().to_owned();
    let diff = match changes {
        GitChanges::FromIndex => r
            .diff_index_to_workdir(None, Some(&mut opts))
            .map_err(fail)?,
        GitChanges::FromTree(rev) => {
            let Some(tree) = tree_of(rev) else {
                return Err(format!("`{rev}` names no commit the guard can read"));
            };
            r.diff_tree_to_workdir_with_index(Some(&tree), Some(&mut opts))
                .map_err(fail)?
        }
        GitChanges::Switch(rev) => {
            let (Some(head), Some(to)) = (tree_of("HEAD"), tree_of(rev)) else {
                return Ok(Vec::new());
            };
            r.diff_tree_to_tree(Some(&head), Some(&to), Some(&mut opts))
                .map_err(fail)?
        }
        GitChanges::FromStash(rev) => {
            let Ok(commit) = r.revparse_single(rev).and_then(|o| o.peel_to_commit()) else {
                return Ok(Vec::new());
            };
            let mut files = Vec::new();
            // The work-tree changes (against the stash's base), and its untracked files.
            for (parent, against) in [(0usize, true), (2, false)] {
                let Ok(p) = commit.parent(parent) else {
                    continue;
                };
                let (Ok(base), Ok(tree)) = (p.tree(), commit.tree()) else {
                    continue;
                };
                let d = if against {
                    r.diff_tree_to_tree(Some(&base), Some(&tree), Some(&mut opts))
                } else {
                    r.diff_tree_to_tree(None, Some(&base), Some(&mut opts))
                }
                .map_err(fail)?;
                files.extend(delta_paths(&d, &workdir));
            }
            return Ok(files);
        }
        GitChanges::Untracked {
            ignored,
            only_ignored,
        } => {
            let mut so = git2::StatusOptions::new();
            // A directory git does not track is one entry (`build/`), judged with all it
            // holds: no walk of a large ignored tree.
            so.include_untracked(!only_ignored)
                .recurse_untracked_dirs(false)
                .include_ignored(*ignored || *only_ignored)
                .recurse_ignored_dirs(false);
            if !rel.is_empty() {
                so.pathspec(&rel);
            }
            let statuses = r.statuses(Some(&mut so)).map_err(fail)?;
            return Ok(statuses
                .iter()
                .filter(|e| {
                    let s = e.status();
                    (s.contains(git2::Status::WT_NEW) && !only_ignored)
                        || (s.contains(git2::Status::IGNORED) && (*ignored || *only_ignored))
                })
                .filter_map(|e| e.path().map(|p| workdir.join(p)))
                .collect());
        }
    };
    Ok(delta_paths(&diff, &workdir))
}

fn delta_paths(diff: &git2::Diff<'_>, workdir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for d in diff.deltas() {
        for f in [d.old_file(), d.new_file()] {
            if let Some(p) = f.path() {
                let p = workdir.join(p);
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}
/// Where a remote's default branch was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultSource {
    /// `refs/remotes/<r>/HEAD`.
    TrackingHead,
    /// The HEAD of the remote repository itself (a path or `file://` remote).
    RemoteRepositoryHead,
    /// `init.defaultBranch`, which the remote has.
    InitDefaultBranch,
    /// `main` or `master`, which the remote has.
    OnlyCommonName,
    NotFound,
}

impl DefaultSource {
    /// How it was found, for `policy check` and `explain`.
    pub fn describe(self, remote: &str) -> String {
        match self {
            DefaultSource::TrackingHead => format!("from refs/remotes/{remote}/HEAD"),
            DefaultSource::RemoteRepositoryHead => {
                format!("from the HEAD of the repository {remote} points at")
            }
            DefaultSource::InitDefaultBranch => format!(
                "init.defaultBranch, which {remote} has (no refs/remotes/{remote}/HEAD)"
            ),
            DefaultSource::OnlyCommonName => format!(
                "the first of main and master that {remote} has (no refs/remotes/{remote}/HEAD)"
            ),
            DefaultSource::NotFound => format!(
                "not found: no refs/remotes/{remote}/HEAD, and {remote} has no init.defaultBranch, main or master branch; `git remote set-head {remote} --auto` records it"
            ),
        }
    }
}

/// One remote's default branch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteDefault {
    pub remote: String,
    pub branch: Option<String>,
    pub how: DefaultSource,
}
