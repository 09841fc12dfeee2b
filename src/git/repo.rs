//! What the guard reads from a repository, through libgit2 (no subprocess): the current
//! branch, the local branches, the remotes' default branches, configuration, and
//! ancestry.

use git2::{Repository, RepositoryOpenFlags};
use std::path::{Path, PathBuf};

/// An opened repository.
pub struct Repo {
    repo: Repository,
    config: Option<git2::Config>,
}

/// What HEAD is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Head {
    /// On a branch (possibly unborn).
    Branch(String),
    Detached,
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

impl Repo {
    /// The repository holding `dir` (searching upward), or the one at `git_dir` when given.
    /// `Ok(None)`: no repository there.
    pub fn open(dir: &Path, git_dir: Option<&Path>) -> Result<Option<Repo>, String> {
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
            Ok(repo) => Ok(Some(Repo { repo, config: None })),
            Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
            Err(e) => Err(format!(
                "cannot open the git repository at {}: {}",
                git_dir.unwrap_or(dir).display(),
                e.message()
            )),
        }
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

    /// The branch each remote's HEAD points at (`refs/remotes/<r>/HEAD`): the remotes'
    /// default branches.
    pub fn remote_default_branches(&self) -> Vec<String> {
        let Ok(remotes) = self.repo.remotes() else {
            return Vec::new();
        };
        remotes
            .iter()
            .flatten()
            .filter_map(|r| {
                let head = self
                    .repo
                    .find_reference(&format!("refs/remotes/{r}/HEAD"))
                    .ok()?;
                let target = head.symbolic_target()?;
                target
                    .strip_prefix(&format!("refs/remotes/{r}/"))
                    .map(str::to_owned)
            })
            .collect()
    }

    pub fn remote_names(&self) -> Vec<String> {
        self.repo
            .remotes()
            .map(|r| r.iter().flatten().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    fn config(&mut self) -> Option<&git2::Config> {
        if self.config.is_none() {
            self.config = self.repo.config().ok().and_then(|mut c| c.snapshot().ok());
        }
        self.config.as_ref()
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

    /// Whether `ancestor` is `descendant` or one of its ancestors.
    pub fn is_ancestor(&self, ancestor: git2::Oid, descendant: git2::Oid) -> bool {
        ancestor == descendant
            || self
                .repo
                .graph_descendant_of(descendant, ancestor)
                .unwrap_or(false)
    }
}
