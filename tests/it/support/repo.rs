//! Scratch git repositories for the branch guard's tests: a bare `origin.git` with `main`
//! and `feat`, and a clone `work` with both branches tracking origin.
//!
//! Layout under the scratch dir: `origin.git/`, `work/` (the cwd of commands), `work/sub/`,
//! `outside/` (not a repository); with the `sibling` setup item also `sibling.git` (bare,
//! default branch `develop`, and `topic`) and its clone `sibling/`, as in the execution
//! oracle's world.

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct ScratchRepo {
    pub dir: PathBuf,
}

impl Drop for ScratchRepo {
    fn drop(&mut self) {
        if std::env::var_os("KEEP_SCRATCH").is_none() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Runs git with a clean, deterministic environment; panics with git's output on failure.
pub fn git(cwd: &Path, args: &[&str]) -> String {
    let out = git_command(cwd).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}",
        cwd.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A git command isolated from the user's and system's configuration.
pub fn git_command(cwd: &Path) -> Command {
    let mut c = Command::new("git");
    c.current_dir(cwd)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid");
    c
}

/// `sibling.git` (HEAD -> develop; develop and topic) and its clone `sibling/` with
/// topic tracking origin and one unpushed commit on develop.
fn sibling(dir: &Path) -> String {
    let seed = dir.join("sseed");
    std::fs::create_dir_all(&seed).unwrap();
    git(&seed, &["init", "-q", "-b", "develop"]);
    std::fs::write(seed.join("s.txt"), "s\n").unwrap();
    git(&seed, &["add", "-A"]);
    git(&seed, &["commit", "-q", "-m", "sibling seed"]);
    git(&seed, &["checkout", "-q", "-b", "topic"]);
    std::fs::write(seed.join("t.txt"), "t\n").unwrap();
    git(&seed, &["add", "-A"]);
    git(&seed, &["commit", "-q", "-m", "topic"]);
    git(&seed, &["checkout", "-q", "develop"]);
    git(dir, &["clone", "-q", "--bare", "sseed", "sibling.git"]);
    std::fs::remove_dir_all(&seed).unwrap();
    git(dir, &["clone", "-q", "sibling.git", "sibling"]);
    let sib = dir.join("sibling");
    git(&sib, &["config", "user.name", "t"]);
    git(&sib, &["config", "user.email", "t@example.invalid"]);
    git(&sib, &["branch", "-q", "--track", "topic", "origin/topic"]);
    std::fs::write(sib.join("d.txt"), "d\n").unwrap();
    git(&sib, &["add", "d.txt"]);
    git(&sib, &["commit", "-q", "-m", "develop work"])
}

impl ScratchRepo {
    /// Builds the repositories. `setup` is a comma-separated list of:
    /// `main` | `feat` | `detached` (what `work` has checked out; default `main`),
    /// `sibling` (the sibling repositories), `cfg:KEY=VALUE` (`git config KEY VALUE` in
    /// `work`).
    pub fn new(name: &str, setup: &str) -> ScratchRepo {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = crate::support::scratch_root().join(format!(
            "dia-repo-{}-{}-{name}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("outside")).unwrap();
        let seed = dir.join("seed");
        std::fs::create_dir_all(&seed).unwrap();
        git(&seed, &["init", "-q", "-b", "main"]);
        std::fs::write(seed.join("README.md"), "seed\n").unwrap();
        git(&seed, &["add", "."]);
        git(&seed, &["commit", "-q", "-m", "seed"]);
        git(&seed, &["branch", "feat"]);
        git(&dir, &["clone", "-q", "--bare", "seed", "origin.git"]);
        git(&dir, &["clone", "-q", "origin.git", "work"]);
        std::fs::remove_dir_all(&seed).unwrap();
        let work = dir.join("work");
        std::fs::create_dir_all(work.join("sub")).unwrap();
        git(&work, &["config", "user.name", "t"]);
        git(&work, &["config", "user.email", "t@example.invalid"]);
        git(&work, &["branch", "--track", "feat", "origin/feat"]);
        for item in setup.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match item {
                "main" => git(&work, &["checkout", "-q", "main"]),
                "feat" => git(&work, &["checkout", "-q", "feat"]),
                "detached" => git(&work, &["checkout", "-q", "--detach", "HEAD"]),
                "sibling" => sibling(&dir),
                other => {
                    let kv = other
                        .strip_prefix("cfg:")
                        .unwrap_or_else(|| panic!("unknown setup item {other:?}"));
                    let (k, v) = kv
                        .split_once('=')
                        .unwrap_or_else(|| panic!("cfg:KEY=VALUE expected, got {other:?}"));
                    git(&work, &["config", k, v])
                }
            };
        }
        ScratchRepo { dir }
    }

    pub fn work(&self) -> PathBuf {
        self.dir.join("work")
    }

    pub fn origin(&self) -> PathBuf {
        self.dir.join("origin.git")
    }

    /// The commit a branch of `origin.git` points at.
    pub fn origin_ref(&self, branch: &str) -> Option<String> {
        let out = git_command(&self.origin())
            .args([
                "rev-parse",
                "--verify",
                "-q",
                &format!("refs/heads/{branch}"),
            ])
            .output()
            .unwrap();
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    }

    /// The commit a local branch of `work` points at.
    pub fn local_ref(&self, branch: &str) -> Option<String> {
        let out = git_command(&self.work())
            .args([
                "rev-parse",
                "--verify",
                "-q",
                &format!("refs/heads/{branch}"),
            ])
            .output()
            .unwrap();
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    }
}
