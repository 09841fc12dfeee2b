//! The guard's own files, read-only for the agent's commands at run time.
//!
//! Landlock confines by directory: it can open the project root for writing, but not take
//! a file back out of it. So `echo {} > "$f"` with `f=.claude/settings.local.json`
//! (a name only known when it runs) would reach the settings that register the guards.
//! Before Landlock, `confine` gives the command a private view of the file system (a
//! mount namespace: a user namespace too where the user is not root) in which the
//! guard's files inside the places it may write are bound read-only onto themselves:
//! Claude Code's settings files and the launcher in each `.claude`, the policy file, and
//! the literal paths of `scope.deny` (`.env`, `src/generated/**`) that exist. A write
//! there fails with "Read-only file system", a removal or a rename over it with "Device or
//! resource busy", whatever program makes it. The `.claude` directories are bound onto
//! themselves too, so that they cannot be moved aside and replaced. Nothing changes
//! outside the command's own view, and nothing the user runs is affected.
//!
//! The static reading leaves a write target known only at run time to this layer only
//! when [`probe`] shows the view can be made here (same kernel, same user, same moment):
//! kernels or containers that refuse namespaces keep today's refusal.

use crate::policy::Policy;
use crate::scope::Scope;
use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// What is made read-only (each with what it is, for `explain` and `doctor`), and the
/// directories pinned in place.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Protected {
    pub read_only: Vec<(PathBuf, String)>,
    pub pinned: Vec<PathBuf>,
}

/// The guard's files and the policy's literal denied paths that exist under `writable`
/// (the directories the kernel lets the command write beneath; elsewhere Landlock
/// already refuses), for the project `scope` judges.
pub fn protected(policy: &Policy, scope: &Scope, writable: &super::confine::Writable) -> Protected {
    let dirs = writable.real_dirs();
    let beneath = |p: &Path| dirs.iter().any(|w| p.starts_with(w));
    let mut out = Protected::default();
    for (path, what) in scope.guarded_files() {
        let real = std::fs::canonicalize(&path).unwrap_or(path);
        if beneath(&real) && !out.read_only.iter().any(|(p, _)| *p == real) {
            out.read_only.push((real, what));
        }
    }
    for dir in scope.settings_dirs_present() {
        if beneath(&dir) && !out.pinned.contains(&dir) {
            out.pinned.push(dir);
        }
    }
    // One open of the repository (each reads git's configuration files).
    let repo = git2::Repository::open(&scope.root).ok();
    let git_dirs: Vec<PathBuf> = repo
        .iter()
        .flat_map(|r| [r.path().to_owned(), r.commondir().to_owned()])
        .map(|d| std::fs::canonicalize(&d).unwrap_or(d))
        .collect();
    // What the user's own git runs from the git directories the command may write: their
    // hooks, and the attributes that choose filter and diff programs. Git writes neither
    // in everyday work (a hook the user's own tool installs, the user installs).
    let mut git_code: Vec<(PathBuf, String)> = Vec::new();
    if let Some(repo) = &repo {
        let common = repo.commondir().to_owned();
        git_code.push((common.join("hooks"), "the repository's git hooks".into()));
        git_code.push((
            common.join("info").join("attributes"),
            "the repository's own attributes".into(),
        ));
        for remote in &writable.remotes {
            git_code.push((
                remote.join("hooks"),
                format!("the git hooks of the local remote {}", remote.display()),
            ));
        }
    }
    for (path, what) in git_code {
        let Ok(real) = std::fs::canonicalize(&path) else {
            continue; // not there: the check after the command covers it
        };
        if beneath(&real) && !out.read_only.iter().any(|(p, _)| *p == real) {
            out.read_only.push((real, what));
        }
    }
    for pattern in &policy.scope.deny {
        let Some(literal) = literal_denied(pattern) else {
            continue;
        };
        let Ok(real) = std::fs::canonicalize(scope.root.join(literal)) else {
            continue; // not there: nothing to bind (a new file is the static layer's)
        };
        // git's own directory is written by git: the static layer keeps the agent's
        // direct writes out of it.
        let gits = git_dirs
            .iter()
            .any(|g| real.starts_with(g) || g.starts_with(&real));
        if !gits && beneath(&real) && !out.read_only.iter().any(|(p, _)| *p == real) {
            out.read_only
                .push((real, format!("scope.deny pattern {pattern:?}")));
        }
    }
    out
}

/// The path a `scope.deny` pattern protects whole: the pattern itself when it has no
/// wildcard (`.env`), the directory of `dir/**`. Other patterns name files by shape, not
/// by place, and are the static reading's alone.
pub(crate) fn literal_denied(pattern: &str) -> Option<&str> {
    let wild = |s: &str| s.contains(['*', '?', '[', '{', '\\']);
    let path = pattern.strip_suffix("/**").unwrap_or(pattern);
    (!wild(path) && !path.is_empty() && !path.starts_with('/')).then_some(path)
}

/// Everything the system calls need, made before any of them (the probe runs them in a
/// forked child, where nothing may allocate).
pub struct Plan {
    binds: Vec<(CString, u64)>,
    pins: Vec<CString>,
    uid_map: CString,
    gid_map: CString,
}

impl Plan {
    pub fn new(p: &Protected) -> Option<Plan> {
        if p.read_only.is_empty() && p.pinned.is_empty() {
            return None;
        }
        let c = |p: &Path| CString::new(p.as_os_str().as_bytes()).ok();
        // SAFETY: plain getters.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        Some(Plan {
            binds: p
                .read_only
                .iter()
                .filter_map(|(p, _)| Some((c(p)?, locked_flags(p))))
                .collect(),
            pins: p.pinned.iter().filter_map(|p| c(p)).collect(),
            uid_map: CString::new(format!("{uid} {uid} 1")).ok()?,
            gid_map: CString::new(format!("{gid} {gid} 1")).ok()?,
        })
    }

    /// Makes the view in this process. Only system calls: it may run between fork and
    /// exec.
    pub fn apply(&self) -> std::io::Result<()> {
        let err = std::io::Error::last_os_error;
        // SAFETY: system calls on valid C strings this plan owns.
        unsafe {
            // Root has a mount namespace of its own for the asking (and keeps its view of
            // every owner); anyone else gets one inside a user namespace of their own,
            // as themselves.
            if libc::unshare(libc::CLONE_NEWNS) != 0 {
                if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) != 0 {
                    return Err(err());
                }
                write_file(c"/proc/self/setgroups", c"deny")?;
                write_file(c"/proc/self/uid_map", &self.uid_map)?;
                write_file(c"/proc/self/gid_map", &self.gid_map)?;
            }
            // Nothing made here may reach the user's own view.
            if libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_SLAVE,
                std::ptr::null(),
            ) != 0
            {
                return Err(err());
            }
            for dir in &self.pins {
                bind(dir)?;
            }
            for (path, locked) in &self.binds {
                bind(path)?;
                // A remount in a user namespace must keep the flags it inherited.
                let flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | locked;
                if libc::mount(
                    std::ptr::null(),
                    path.as_ptr(),
                    std::ptr::null(),
                    flags,
                    std::ptr::null(),
                ) != 0
                {
                    return Err(err());
                }
            }
        }
        Ok(())
    }
}

unsafe fn bind(path: &CString) -> std::io::Result<()> {
    let ok = libc::mount(
        path.as_ptr(),
        path.as_ptr(),
        std::ptr::null(),
        libc::MS_BIND | libc::MS_REC,
        std::ptr::null(),
    ) == 0;
    ok.then_some(()).ok_or_else(std::io::Error::last_os_error)
}

unsafe fn write_file(path: &std::ffi::CStr, text: &std::ffi::CStr) -> std::io::Result<()> {
    let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let bytes = text.to_bytes();
    let n = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
    let e = std::io::Error::last_os_error();
    libc::close(fd);
    if n == bytes.len() as isize {
        Ok(())
    } else {
        Err(e)
    }
}

/// The mount flags of the file system `path` is on that a user namespace may not clear.
fn locked_flags(path: &Path) -> u64 {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return 0;
    };
    // SAFETY: a zeroed plain struct filled by statvfs.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return 0;
    }
    let f = st.f_flag;
    [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ]
    .iter()
    .filter(|(st, _)| f & st == *st)
    .fold(0, |acc, (_, ms)| acc | ms)
}

/// Whether the view can be made here: the plan applied in a child that then runs
/// nothing but `true`. `Ok` where there is nothing to protect.
pub fn probe(p: &Protected) -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    let Some(plan) = Plan::new(p) else {
        return Ok(());
    };
    // Our own binary, not `true` from PATH: the agent's PATH may lack it.
    let Ok(exe) = std::env::current_exe() else {
        return Err("the guard cannot find its own binary to probe with".into());
    };
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("--version");
    cmd.stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: `apply` makes only system calls, on memory the plan made before the fork.
    unsafe { cmd.pre_exec(move || plan.apply()) };
    match cmd.status() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("the probe exited with {s}")),
        Err(e) => Err(format!(
            "the kernel refused the command a private view of the file system ({})",
            crate::fsutil::describe_io(&e)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_patterns_that_name_a_place_are_bound() {
        assert_eq!(literal_denied(".env"), Some(".env"));
        assert_eq!(literal_denied("src/generated/**"), Some("src/generated"));
        assert_eq!(literal_denied("**/*.pem"), None);
        assert_eq!(literal_denied(".env.*"), None);
        assert_eq!(literal_denied("src/*.rs"), None);
        assert_eq!(literal_denied("/etc/x"), None);
    }
}
