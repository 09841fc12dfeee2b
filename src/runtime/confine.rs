//! The run-time layer for writes: `did-it-actually confine COMMAND`, the shell prefix
//! the agent's shell tool runs every command through (Claude Code's
//! `CLAUDE_CODE_SHELL_PREFIX`, set by `install`). It asks the kernel (Landlock, Linux
//! 5.13+) to confine the writes of the command, and of every program it starts, to where
//! the policy lets the agent write, then runs the command with the shell: whatever the
//! command starts (a script it wrote, a build recipe, an interpreter), a write elsewhere
//! fails with "Permission denied" where it would have landed. Reads, the network and
//! everything else are untouched, and nothing needs privileges or a helper program.
//!
//! Writable: the project root, `scope.outside_root` (each pattern from its literal
//! directories: a pattern's wildcards are left to the static reading), the repository's
//! git directories (a worktree's common directory may be elsewhere) and the local paths
//! its remotes name (a push to a bare repository beside the project), `scope.
//! run_time_writable` (package and build caches), and the terminal and null devices.
//! Inside the root the static layer keeps judging the guarded files: a kernel rule
//! cannot take a file out of a directory it allows.

use crate::policy::Policy;
use crate::runtime::activation::PROJECT_ENV;
use crate::runtime::protect;
use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

type Lookup<'a> = &'a dyn Fn(&str) -> Option<OsString>;

/// Where the agent's commands may write, with why, as `explain` and `doctor` show it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Writable {
    /// Directories written beneath, each with the rule that opens it.
    pub dirs: Vec<(PathBuf, String)>,
    /// Single files (devices, Claude Code's working-directory file).
    pub files: Vec<PathBuf>,
    /// `outside_root` patterns with no literal directory (`/**`): writes anywhere, so
    /// there is nothing to confine.
    pub everywhere: Option<String>,
    /// The git directories of the repository's local remotes (among `dirs`), resolved:
    /// the read-only view and the check after the command look at them too.
    pub remotes: Vec<PathBuf>,
}

impl Writable {
    /// The directories as the kernel resolves them.
    pub fn real_dirs(&self) -> Vec<PathBuf> {
        self.dirs
            .iter()
            .map(|(d, _)| std::fs::canonicalize(d).unwrap_or_else(|_| d.clone()))
            .collect()
    }
}

/// The devices a shell writes as a matter of course.
const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/random",
    "/dev/urandom",
    // A new pseudo-terminal (`script`, `expect`, `unbuffer`, an agent's own terminal):
    // opening the multiplexer for writing is how one is made.
    "/dev/ptmx",
];

/// What the policy lets the agent's commands write, found from the project at `root`.
pub fn writable(policy: &Policy, root: &Path, env: Lookup) -> Writable {
    let mut out = Writable::default();
    out.dirs.push((root.to_owned(), "the project root".into()));
    let tmpdir = env("TMPDIR").map(PathBuf::from).filter(|d| d.is_absolute());
    let literals = |patterns: &[String]| -> Vec<(PathBuf, String)> {
        patterns
            .iter()
            .filter_map(|pattern| {
                let expanded = match pattern.strip_prefix(crate::policy::TMPDIR_VAR) {
                    Some(rest) => format!(
                        "{}{rest}",
                        tmpdir.as_ref()?.to_string_lossy().trim_end_matches('/')
                    ),
                    None => pattern.clone(),
                };
                Some((literal_directory(&expanded), pattern.clone()))
            })
            .collect()
    };
    let mut outside = literals(&policy.scope.outside_root);
    // Both levels set `outside_root`: a directory is open only where both open it (the
    // deeper of two nested directories; nothing for two apart).
    if let Some(org) = &policy.scope.also_outside_root {
        let org = literals(org);
        outside = outside
            .iter()
            .flat_map(|(mine, pattern)| {
                org.iter().filter_map(move |(theirs, _)| {
                    if mine.starts_with(theirs) {
                        Some((mine.clone(), pattern.clone()))
                    } else if theirs.starts_with(mine) {
                        Some((theirs.clone(), pattern.clone()))
                    } else {
                        None
                    }
                })
            })
            .collect();
    }
    for (literal, pattern) in outside {
        if literal == Path::new("/") {
            out.everywhere = Some(pattern.clone());
        }
        out.dirs
            .push((literal, format!("scope.outside_root {pattern:?}")));
    }
    if let Ok(repo) = git2::Repository::open(root) {
        let git_dir = repo.path().to_owned();
        out.dirs.push((
            repo.commondir().to_owned(),
            "the repository's git directory".into(),
        ));
        if git_dir != repo.commondir() {
            out.dirs
                .push((git_dir, "the worktree's git directory".into()));
        }
        for remote in local_remotes(&repo, root) {
            for dir in push_targets(&remote) {
                let real = std::fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone());
                if !out.remotes.contains(&real) {
                    out.remotes.push(real);
                }
                out.dirs
                    .push((dir, "a local remote of the repository".into()));
            }
        }
    }
    let home = env("HOME").map(PathBuf::from).filter(|h| h.is_absolute());
    for entry in &policy.scope.run_time_writable {
        let path = match (entry.strip_prefix("~/"), &home) {
            (Some(rest), Some(home)) => home.join(rest),
            (Some(_), None) => continue,
            (None, _) => PathBuf::from(entry),
        };
        if path.is_absolute() {
            out.dirs
                .push((path, format!("scope.run_time_writable {entry:?}")));
        }
    }
    out.files.extend(DEVICES.iter().map(PathBuf::from));
    out.dirs.push(("/dev/pts".into(), "terminals".into()));
    out
}

/// The programs that own a cache of [`crate::policy::RUN_TIME_WRITABLE`] (by the
/// directory it lives in): the cache is made for them.
const CACHE_OWNERS: &[(&str, &[&str])] = &[
    ("~/.npm/", &["npm", "npx"]),
    ("~/.cargo/", &["cargo"]),
    ("~/go/", &["go"]),
    ("~/.m2/", &["mvn", "mvnw"]),
    ("~/.gradle/", &["gradle", "gradlew"]),
    ("~/.yarn/", &["yarn"]),
    ("~/.bun/", &["bun", "bunx"]),
    ("~/.local/share/pnpm/", &["pnpm", "pnpx"]),
];

/// For whom [`make_missing_caches`] makes caches.
pub enum CachesFor<'a> {
    /// One command (the shell prefix): the caches of the programs its text names. Made
    /// on demand, so that the agent's commands leave nothing in HOME they did not need.
    Command(&'a str),
    /// An agent's whole session (`run`): the caches of the programs on PATH, and those
    /// the policy lists without a known program.
    Session,
}

/// Makes the caches of `scope.run_time_writable` under HOME that do not exist yet: a
/// cache is writable only if it exists when the command starts (the kernel rules name
/// directories), and a program that makes its cache on first use (`npm init` in a fresh
/// home makes `~/.npm/_logs`) would be refused. A program started by a script the command
/// runs is not seen for one command: its cache is made when a command names it.
pub fn make_missing_caches(policy: &Policy, env: Lookup, wanted: CachesFor) {
    let Some(home) = env("HOME").map(PathBuf::from).filter(|h| h.is_dir()) else {
        return;
    };
    let on_path = |program: &&str| {
        env("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
    };
    let named = |program: &&str| match &wanted {
        CachesFor::Command(text) => text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.'))
            .any(|word| word == *program || word.rsplit('/').next() == Some(program)),
        CachesFor::Session => on_path(program),
    };
    for entry in &policy.scope.run_time_writable {
        let Some(rest) = entry.strip_prefix("~/") else {
            continue;
        };
        let dir = home.join(rest);
        if std::fs::symlink_metadata(&dir).is_ok() {
            continue;
        }
        let owners = CACHE_OWNERS
            .iter()
            .find(|(prefix, _)| entry.starts_with(prefix))
            .map(|(_, programs)| *programs);
        let make = match owners {
            Some(programs) => programs.iter().any(named),
            // The XDG cache directory, which most programs share: always.
            None if entry == "~/.cache" => true,
            None => matches!(wanted, CachesFor::Session),
        };
        if make {
            // Unmade (a read-only home): the command meets the kernel's refusal, as before.
            let _ = std::fs::create_dir_all(&dir);
        }
    }
}

/// The directories a pattern names before its first wildcard (`/data/*.log` ->
/// `/data`): the kernel confines by directory, so the wildcard part is the static
/// reading's to judge.
fn literal_directory(pattern: &str) -> PathBuf {
    let mut out = PathBuf::from("/");
    for part in pattern.split('/').filter(|p| !p.is_empty()) {
        if part.contains(['*', '?', '[', '{']) {
            break;
        }
        out.push(part);
    }
    out
}

/// The git directories of the repository at `root`'s remotes on this machine.
pub fn local_remote_git_dirs(root: &Path) -> Vec<PathBuf> {
    let Ok(repo) = git2::Repository::open(root) else {
        return Vec::new();
    };
    local_remotes(&repo, root)
        .iter()
        .flat_map(|r| push_targets(r))
        .collect()
}

/// The local paths the repository's remotes fetch from or push to.
fn local_remotes(repo: &git2::Repository, root: &Path) -> Vec<PathBuf> {
    let Ok(names) = repo.remotes() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for name in names.iter().flatten() {
        let Ok(remote) = repo.find_remote(name) else {
            continue;
        };
        for url in [remote.url(), remote.pushurl()].into_iter().flatten() {
            if let Some(path) = local_path(url, root) {
                out.push(path);
            }
        }
    }
    out
}

/// What a push to a repository on this machine writes: its git directory (the bare
/// repository, or the `.git` of one with a work tree, never that work tree). Not
/// narrower: deleting a branch there takes a lock file at the directory's top
/// (`packed-refs.lock`), and a kernel rule on a directory covers all beneath it, its
/// hooks included.
fn push_targets(remote: &Path) -> Vec<PathBuf> {
    if remote.join("objects").is_dir() && remote.join("refs").is_dir() {
        vec![remote.to_owned()]
    } else if remote.join(".git").join("objects").is_dir() {
        vec![remote.join(".git")]
    } else {
        Vec::new()
    }
}

/// A remote URL that is a path on this machine (`../origin.git`, `/srv/x.git`,
/// `file:///srv/x.git`), made absolute against the project root.
fn local_path(url: &str, root: &Path) -> Option<PathBuf> {
    let path = if let Some(rest) = url.strip_prefix("file://") {
        rest
    } else if url.contains("://") || scp_like(url) {
        return None;
    } else {
        url
    };
    Some(root.join(path))
}

/// `host:path` (ssh), which git tells from a local path by a colon before any slash.
fn scp_like(url: &str) -> bool {
    match (url.find(':'), url.find('/')) {
        (Some(colon), Some(slash)) => colon < slash,
        (Some(_), None) => true,
        _ => false,
    }
}

/// Whether `command` is one of the guard's own hook commands (the host runs its hooks
/// through the same shell prefix): those write the ledger, which the agent's commands
/// may not, so they run as they are.
pub fn is_own_hook(command: &str) -> bool {
    let Some(words) = shlex::split(command) else {
        return false;
    };
    let [program, hook] = words.as_slice() else {
        return false;
    };
    let ours = Path::new(program)
        .file_name()
        .is_some_and(|n| n == crate::BINARY_NAME);
    ours && crate::hooks::Hook::ALL
        .iter()
        .any(|h| h.spec().name == hook.as_str())
}

/// The shell the host runs its commands with: `CLAUDE_CODE_SHELL`, else a bash or zsh
/// `SHELL`, else the first bash on the usual paths.
fn shell(env: Lookup) -> OsString {
    if let Some(s) = env("CLAUDE_CODE_SHELL").filter(|s| !s.is_empty()) {
        return s;
    }
    if let Some(s) = env("SHELL").filter(|s| {
        let name = Path::new(s).file_name().unwrap_or_default();
        name == "bash" || name == "zsh"
    }) {
        return s;
    }
    [
        "/bin/bash",
        "/usr/bin/bash",
        "/usr/local/bin/bash",
        "/bin/zsh",
    ]
    .iter()
    .find(|p| Path::new(p).exists())
    .map_or_else(|| OsString::from("/bin/sh"), OsString::from)
}

/// The file Claude Code's command ends by writing its working directory to
/// (`... && pwd -P >| /tmp/claude-1a2b-cwd`), made writable on its own so that a policy
/// without the temp directories still lets the tool track `cd`.
fn cwd_file(command: &str) -> Option<PathBuf> {
    let tail = command.trim_end().rsplit_once("pwd -P >| ")?.1;
    let words = shlex::split(tail)?;
    match words.as_slice() {
        [path] if Path::new(path).is_absolute() => Some(PathBuf::from(path)),
        _ => None,
    }
}

/// The process: `args` are what follows `confine`: one command for the shell (how a
/// host's shell prefix is called), or `--` and a program with its arguments.
pub fn main(args: &[OsString]) -> ExitCode {
    let env = |n: &str| std::env::var_os(n);
    let cmd = match args {
        [command] => {
            let mut c = Command::new(shell(&env));
            c.arg("-c").arg(command);
            c
        }
        [dash, program, rest @ ..] if dash == "--" => {
            let mut c = Command::new(program);
            c.args(rest);
            c
        }
        [program, rest @ ..] if !rest.is_empty() => {
            let mut c = Command::new(program);
            c.args(rest);
            c
        }
        _ => {
            eprintln!("did-it-actually confine: expected one command (as a shell prefix runs it) or `-- PROGRAM [ARGS...]`");
            return ExitCode::from(2);
        }
    };
    let text = match args {
        [command] => command.to_string_lossy().into_owned(),
        _ => String::new(),
    };
    if is_own_hook(&text) {
        return exec(cmd);
    }
    let prepared = match prepare(&text, &env) {
        Ok(p) => p,
        Err(refusal) => {
            eprintln!("{refusal}");
            return ExitCode::from(126);
        }
    };
    let Some(watch) = prepared.watch else {
        if let Err(refusal) = prepared.confinement.enter() {
            eprintln!("{refusal}");
            return ExitCode::from(126);
        }
        return exec(cmd);
    };
    // The command runs as a child, so that this process can look again when it ends.
    // SAFETY: this process has one thread; the child only enters the confinement
    // (system calls and small allocations) and execs.
    let child = unsafe { libc::fork() };
    if child < 0 {
        eprintln!(
            "did-it-actually: the command did not run: the guard cannot start it ({})",
            crate::fsutil::describe_io(&std::io::Error::last_os_error())
        );
        return ExitCode::from(126);
    }
    if child == 0 {
        if let Err(refusal) = prepared.confinement.enter() {
            eprintln!("{refusal}");
            // SAFETY: leave the child without running the parent's exit handlers.
            unsafe { libc::_exit(126) };
        }
        let _ = exec(cmd);
        unsafe { libc::_exit(127) };
    }
    let status = wait_forwarding_signals(child);
    let findings = watch.after();
    report(&findings, &env);
    exit_like(status)
}

/// Runs `cmd` in place of this process; returns only when it cannot.
fn exec(mut cmd: Command) -> ExitCode {
    let e = cmd.exec();
    eprintln!(
        "did-it-actually confine: cannot run {}: {}",
        Path::new(cmd.get_program()).display(),
        crate::fsutil::describe_io(&e)
    );
    ExitCode::from(127)
}

/// The files (not pipes or terminals) this process's standard input, output and error
/// are open on: a command may reopen them by name (`/dev/stdout`, `/proc/self/fd/1`).
pub(crate) fn standard_files() -> Vec<PathBuf> {
    (0..=2)
        .filter_map(|fd| std::fs::read_link(format!("/proc/self/fd/{fd}")).ok())
        .filter(|p| p.is_absolute() && std::fs::metadata(p).is_ok_and(|m| m.is_file()))
        .collect()
}

/// What `confine` does around one command: the confinement its process enters, and what
/// it watches from outside (see [`super::sentinel`]).
struct Prepared {
    confinement: Confinement,
    watch: Option<super::sentinel::Watch>,
}

/// The confinement, made before the command starts.
#[derive(Default)]
struct Confinement {
    /// The read-only view and the Landlock rules; `None`: writes are not confined.
    plan: Option<(Option<protect::Plan>, Writable)>,
    /// Said before the command runs (the kernel has no Landlock).
    notice: Option<String>,
}

impl Confinement {
    /// Enters the confinement in this process (and so what it runs). `Err`: the command
    /// must not run (the kernel has Landlock and refused the ruleset).
    fn enter(self) -> Result<(), String> {
        if let Some(notice) = self.notice {
            eprintln!("{notice}");
        }
        let Some((plan, allowed)) = self.plan else {
            return Ok(());
        };
        // Where the kernel refuses the view, the static layer never left a run-time name
        // to this layer (its probe failed the same way) and `doctor` says so: nothing to
        // tell the agent on every command.
        if let Some(plan) = plan {
            let _ = plan.apply();
        }
        landlock::restrict(&allowed).map_err(|why| {
            format!("did-it-actually: the command did not run: its writes could not be confined ({why}). Run `did-it-actually doctor`; scope.run_time false in the policy turns the run-time layer for writes off.")
        })
    }
}

/// Confines this process, and everything it will start, for good: the read-only view of
/// `protected` (where there is something to protect), then the kernel's rules. Unlike a
/// single command's, a view that cannot be made is an error: `run` has no static reading
/// behind it to fall back on. Only system calls: nothing of this process's state changes
/// but its confinement.
pub fn confine_for_good(protected: &protect::Protected, allowed: &Writable) -> Result<(), String> {
    if let Some(plan) = protect::Plan::new(protected) {
        plan.apply().map_err(|e| {
            format!(
                "the guard's files cannot be made read-only in a private view of the file system ({})",
                crate::fsutil::describe_io(&e)
            )
        })?;
    }
    landlock::restrict(allowed)
        .map_err(|why| format!("the kernel did not confine the writes ({why})"))
}

/// Waits for the command, passing on the signals this process gets (a host may signal
/// the process it started, not its group); its wait status.
fn wait_forwarding_signals(child: libc::pid_t) -> libc::c_int {
    static CHILD: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);
    CHILD.store(child, std::sync::atomic::Ordering::SeqCst);
    extern "C" fn forward(sig: libc::c_int) {
        let pid = CHILD.load(std::sync::atomic::Ordering::SeqCst);
        if pid > 0 {
            // SAFETY: kill is async-signal-safe.
            unsafe { libc::kill(pid, sig) };
        }
    }
    for sig in [
        libc::SIGINT,
        libc::SIGTERM,
        libc::SIGHUP,
        libc::SIGQUIT,
        libc::SIGUSR1,
        libc::SIGUSR2,
    ] {
        // SAFETY: installing a handler that only calls kill.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = forward as *const () as usize;
            sa.sa_flags = libc::SA_RESTART;
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
    let mut status: libc::c_int = 0;
    loop {
        // SAFETY: waiting for our own child.
        let r = unsafe { libc::waitpid(child, &mut status, 0) };
        if r == child {
            return status;
        }
        if r < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return 127 << 8;
        }
    }
}

/// Ends this process as the command ended: its exit code, or the signal that ended it.
fn exit_like(status: libc::c_int) -> ExitCode {
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        // SAFETY: back to the default action, then the same signal to ourselves.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::kill(libc::getpid(), sig);
        }
        return ExitCode::from(128 + sig as u8);
    }
    ExitCode::from(libc::WEXITSTATUS(status) as u8)
}

/// Says what the check after the command found, on the command's stderr (the agent reads
/// it with the output), and records it in the session's ledger.
fn report(findings: &[super::sentinel::Finding], env: Lookup) {
    if findings.is_empty() {
        return;
    }
    for f in findings {
        eprintln!("{}{}", super::sentinel::REPORT_START, f.message);
    }
    let session = super::hook::session_of(env);
    let (Some(session), Ok(root)) = (session, crate::store::state_root(env)) else {
        return;
    };
    let store = crate::store::SessionStore::new(&root, &session);
    let now = std::time::SystemTime::now();
    let records: Vec<crate::store::Record> = findings
        .iter()
        .map(|f| {
            crate::store::DenialRecord {
                event: "run-time:after-command".into(),
                hook: "run-time layer".into(),
                tool: "Bash".into(),
                targets: vec![f.target.clone()],
                rule: Some(f.rule.clone()),
                ..super::refs::denial_record(
                    "after-command",
                    session.as_str().to_owned(),
                    format!("{}{}", super::sentinel::REPORT_START, f.message),
                    now,
                )
            }
            .into()
        })
        .collect();
    if let Err(e) = store.append(&records) {
        eprintln!(
            "did-it-actually: what the check after the command found could not be recorded ({e})."
        );
    }
}

/// Makes what `confine` needs around one command. `Err`: the command must not run (the
/// policy is broken).
fn prepare(command: &str, env: Lookup) -> Result<Prepared, String> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let project = env(PROJECT_ENV)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or(cwd.clone());
    let policy = Policy::in_force(&project, env).map_err(|e| {
        format!("did-it-actually: the command did not run: the policy cannot be read: {e}. Fix it (did-it-actually policy check), then run the command again.")
    })?;
    let scope = crate::scope::Scope::new(&policy, &project, env);
    if policy.scope.run_time {
        make_missing_caches(&policy, env, CachesFor::Command(command));
    }
    let mut allowed = writable(&policy, &scope.root, env);
    let state = crate::store::state_root(env).ok();
    // The check after the command belongs to the run-time layers: off when both are.
    let watch = (policy.branches.run_time || policy.scope.run_time)
        .then(|| super::sentinel::Watch::before(&policy, &scope, &allowed, state.as_deref()));
    if !policy.scope.run_time || allowed.everywhere.is_some() {
        return Ok(Prepared {
            confinement: Confinement::default(),
            watch,
        });
    }
    if let Some(f) = cwd_file(command) {
        // The shell creates it (`>|`); a rule needs it to exist. Empty, where the host
        // asked for it: nothing else is made.
        if std::fs::symlink_metadata(&f).is_err() {
            let _ = std::fs::File::create(&f);
        }
        allowed.files.push(f);
    }
    // Where the host sends the command's output (Claude Code: a file of its own under
    // the temp directory): `echo x > /dev/stdout` reopens it by name.
    allowed.files.extend(standard_files());
    // A kernel without Landlock is a known state (install and doctor say the layer is
    // off): the command runs, judged by the static reading, with a notice. A kernel that
    // has it and then refuses the ruleset is a guard that cannot decide: it refuses.
    if let Err(why) = available() {
        return Ok(Prepared {
            confinement: Confinement {
                plan: None,
                notice: Some(format!("did-it-actually: this command's writes are not confined at run time ({why}); the static reading (scope-guard) alone judged it. `did-it-actually doctor` says more; scope.run_time false in the policy turns this notice off.")),
            },
            watch,
        });
    }
    // The guard's files inside the places it may write, read-only in the command's own
    // view (before Landlock, which forbids mounting).
    let plan = protect::Plan::new(&protect::protected(&policy, &scope, &allowed));
    Ok(Prepared {
        confinement: Confinement {
            plan: Some((plan, allowed)),
            notice: None,
        },
        watch,
    })
}

/// Whether the agent's commands run confined: `Ok(link)` (the confine script in the
/// agent's environment, the policy on, the kernel able), or why not.
pub fn activation(policy: &Policy, agent: Lookup) -> Result<PathBuf, String> {
    use crate::runtime::activation::{CONFINE_LINK, SHELL_PREFIX_ENV};
    if !policy.scope.run_time {
        return Err(format!("scope.run_time is false in {}", policy.source));
    }
    available()?;
    agent(SHELL_PREFIX_ENV)
        .map(PathBuf::from)
        .filter(|p| p.file_name().is_some_and(|n| n == CONFINE_LINK))
        .ok_or_else(|| {
            format!("the agent's environment has no {SHELL_PREFIX_ENV} naming the confine script (install sets it)")
        })
}

/// What the run-time layer would do with a write to `resolved` (a path as the kernel
/// resolves it), for `check-path`: `None` where the layer is off (with why), else whether
/// the kernel would let it land and the rule that opens it.
pub fn would_allow(
    policy: &Policy,
    root: &Path,
    resolved: &Path,
    agent: Lookup,
) -> Result<(bool, String), String> {
    activation(policy, agent)?;
    let w = writable(policy, root, agent);
    if let Some(pattern) = &w.everywhere {
        return Ok((
            true,
            format!("scope.outside_root {pattern:?} opens everything"),
        ));
    }
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
    if let Some((_, why)) = w
        .dirs
        .iter()
        .find(|(d, _)| d.exists() && resolved.starts_with(real(d)))
    {
        return Ok((true, why.clone()));
    }
    Ok((
        false,
        "outside every directory the policy opens (`policy check` lists them)".into(),
    ))
}

/// One line for `status` and `explain`: which layers decide writes.
pub fn describe_layers(policy: &Policy, agent: Lookup) -> String {
    match activation(policy, agent) {
        Ok(_) => "static reading, and the kernel (Landlock) for everything the agent's shell commands start".into(),
        Err(why) => format!("static reading alone (run-time layer for writes off: {why})"),
    }
}

/// Whether the kernel can confine writes here: `Ok(abi)` or why not.
pub fn available() -> Result<u32, String> {
    landlock::abi()
}

/// Landlock is Linux's: elsewhere the layer reports itself unavailable.
#[cfg(not(target_os = "linux"))]
mod landlock {
    pub fn abi() -> Result<u32, String> {
        Err("the kernel confinement it uses (Landlock) is Linux's".into())
    }
    pub fn restrict(_: &super::Writable) -> Result<(), String> {
        abi().map(|_| ())
    }
}

/// The Landlock system calls, by number through libc (no crate for three calls).
#[cfg(target_os = "linux")]
mod landlock {
    use super::Writable;
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;

    const CREATE_RULESET_VERSION: u32 = 1;
    const RULE_PATH_BENEATH: u32 = 1;
    const WRITE_FILE: u64 = 1 << 1;
    const REMOVE_DIR: u64 = 1 << 4;
    const REMOVE_FILE: u64 = 1 << 5;
    const MAKE_CHAR: u64 = 1 << 6;
    const MAKE_DIR: u64 = 1 << 7;
    const MAKE_REG: u64 = 1 << 8;
    const MAKE_SOCK: u64 = 1 << 9;
    const MAKE_FIFO: u64 = 1 << 10;
    const MAKE_BLOCK: u64 = 1 << 11;
    const MAKE_SYM: u64 = 1 << 12;
    /// ABI 2: links and renames across directories.
    const REFER: u64 = 1 << 13;
    /// ABI 3: truncating.
    const TRUNCATE: u64 = 1 << 14;

    #[repr(C)]
    struct RulesetAttr {
        handled_access_fs: u64,
        handled_access_net: u64,
        scoped: u64,
    }

    #[repr(C, packed)]
    struct PathBeneathAttr {
        allowed_access: u64,
        parent_fd: i32,
    }

    pub fn abi() -> Result<u32, String> {
        // SAFETY: the documented probe: no attribute, the version flag.
        let v = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                std::ptr::null::<RulesetAttr>(),
                0usize,
                CREATE_RULESET_VERSION,
            )
        };
        if v < 1 {
            let e = std::io::Error::last_os_error();
            return Err(match e.raw_os_error() {
                Some(libc::ENOSYS) => {
                    "this kernel has no Landlock (Linux 5.13 or later has it)".into()
                }
                Some(libc::EOPNOTSUPP) => {
                    "Landlock is built into this kernel but turned off (the lsm= boot parameter)"
                        .into()
                }
                _ => format!(
                    "Landlock cannot be asked ({})",
                    crate::fsutil::describe_io(&e)
                ),
            });
        }
        Ok(v as u32)
    }

    /// The write rights this kernel knows.
    fn write_rights(abi: u32) -> u64 {
        let mut r = WRITE_FILE
            | REMOVE_DIR
            | REMOVE_FILE
            | MAKE_CHAR
            | MAKE_DIR
            | MAKE_REG
            | MAKE_SOCK
            | MAKE_FIFO
            | MAKE_BLOCK
            | MAKE_SYM;
        if abi >= 2 {
            r |= REFER;
        }
        if abi >= 3 {
            r |= TRUNCATE;
        }
        r
    }

    /// The rights a rule on a single file may carry.
    fn file_rights(abi: u32) -> u64 {
        if abi >= 3 {
            WRITE_FILE | TRUNCATE
        } else {
            WRITE_FILE
        }
    }

    struct Fd(i32);
    impl Drop for Fd {
        fn drop(&mut self) {
            // SAFETY: a descriptor this module opened and owns.
            unsafe { libc::close(self.0) };
        }
    }

    fn open_path(p: &std::path::Path) -> Option<Fd> {
        let c = CString::new(p.as_os_str().as_bytes()).ok()?;
        // SAFETY: a valid C string; O_PATH opens nothing but the name.
        let fd = unsafe { libc::open(c.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
        (fd >= 0).then_some(Fd(fd))
    }

    pub fn restrict(w: &Writable) -> Result<(), String> {
        let abi = abi()?;
        let handled = write_rights(abi);
        let attr = RulesetAttr {
            handled_access_fs: handled,
            handled_access_net: 0,
            scoped: 0,
        };
        // ABI 1 to 3 know only the first field; larger sizes are for later fields.
        let size = if abi >= 4 { 16 } else { 8 };
        let size = if abi >= 6 {
            std::mem::size_of::<RulesetAttr>()
        } else {
            size
        };
        // SAFETY: a valid attribute of the size given.
        let ruleset = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                &attr as *const RulesetAttr,
                size,
                0u32,
            )
        };
        if ruleset < 0 {
            return Err(format!(
                "Landlock refused a ruleset ({})",
                crate::fsutil::describe_io(&std::io::Error::last_os_error())
            ));
        }
        let ruleset = Fd(ruleset as i32);
        let rule = |path: &std::path::Path, rights: u64| {
            let Some(fd) = open_path(path) else {
                return; // absent: nothing there to write beneath
            };
            let is_dir = std::fs::metadata(path).is_ok_and(|m| m.is_dir());
            let rights = if is_dir {
                rights
            } else {
                rights & file_rights(abi)
            };
            let beneath = PathBeneathAttr {
                allowed_access: rights,
                parent_fd: fd.0,
            };
            // SAFETY: valid descriptors and attribute.
            let added = unsafe {
                libc::syscall(
                    libc::SYS_landlock_add_rule,
                    ruleset.0,
                    RULE_PATH_BENEATH,
                    &beneath as *const PathBeneathAttr,
                    0u32,
                )
            };
            // A rule refused only narrows what may be written (fail closed), but say so.
            if added != 0 {
                eprintln!(
                    "did-it-actually: {} could not be opened for writing at run time ({}); writes there will be refused",
                    path.display(),
                    crate::fsutil::describe_io(&std::io::Error::last_os_error())
                );
            }
        };
        for (dir, _) in &w.dirs {
            rule(dir, handled);
        }
        for file in &w.files {
            rule(file, file_rights(abi));
        }
        // SAFETY: plain prctl and the documented restrict call on our own ruleset.
        unsafe {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(format!(
                    "the process cannot give up new privileges ({})",
                    crate::fsutil::describe_io(&std::io::Error::last_os_error())
                ));
            }
            if libc::syscall(libc::SYS_landlock_restrict_self, ruleset.0, 0u32) != 0 {
                return Err(format!(
                    "Landlock refused to confine the process ({})",
                    crate::fsutil::describe_io(&std::io::Error::last_os_error())
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patterns_literal_directory_is_what_the_kernel_confines_by() {
        assert_eq!(literal_directory("/tmp/**"), PathBuf::from("/tmp"));
        assert_eq!(
            literal_directory("/data/logs/*.log"),
            PathBuf::from("/data/logs")
        );
        assert_eq!(literal_directory("/srv/x"), PathBuf::from("/srv/x"));
        assert_eq!(literal_directory("/**"), PathBuf::from("/"));
    }

    #[test]
    fn local_remotes_are_paths_and_network_ones_are_not() {
        let root = Path::new("/p/work");
        assert_eq!(
            local_path("../origin.git", root),
            Some(PathBuf::from("/p/work/../origin.git"))
        );
        assert_eq!(
            local_path("/srv/x.git", root),
            Some(PathBuf::from("/srv/x.git"))
        );
        assert_eq!(
            local_path("file:///srv/x.git", root),
            Some(PathBuf::from("/srv/x.git"))
        );
        assert_eq!(local_path("git@github.com:o/r.git", root), None);
        assert_eq!(local_path("https://github.com/o/r", root), None);
        assert_eq!(local_path("ssh://host/r", root), None);
    }

    #[test]
    fn a_local_remote_opens_its_git_directory_never_its_work_tree() {
        let dir = std::env::temp_dir().join(format!("dia-confine-remote-{}", std::process::id()));
        let bare = dir.join("origin.git");
        let clone = dir.join("clone");
        for d in [
            bare.join("objects"),
            bare.join("refs"),
            clone.join(".git/objects"),
        ] {
            std::fs::create_dir_all(d).unwrap();
        }
        assert_eq!(push_targets(&bare), vec![bare.clone()]);
        assert_eq!(push_targets(&clone), vec![clone.join(".git")]);
        assert!(push_targets(&dir.join("nothing-there")).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_guards_own_hooks_are_told_from_the_agents_commands() {
        assert!(is_own_hook(
            "\"${CLAUDE_PROJECT_DIR}\"/.claude/did-it-actually verify-write"
        ));
        assert!(is_own_hook("/home/u/.local/bin/did-it-actually audit-turn"));
        assert!(!is_own_hook("did-it-actually verify-write; touch ../x"));
        assert!(!is_own_hook("/tmp/evil/did-it-actually-x verify-write"));
        assert!(!is_own_hook(
            "eval 'did-it-actually verify-write' && pwd -P >| /tmp/c"
        ));
    }

    #[test]
    fn claude_codes_working_directory_file_is_read_from_the_end_of_its_command() {
        let c = "source /x/snap.sh && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1a2b-cwd";
        assert_eq!(cwd_file(c), Some(PathBuf::from("/tmp/claude-1a2b-cwd")));
        assert_eq!(cwd_file("ls"), None);
        assert_eq!(cwd_file("pwd -P >| rel/cwd"), None);
    }
}
