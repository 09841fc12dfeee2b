//! `did-it-actually git-hook NAME ARGS...`: what git runs, through the scripts of
//! [`activation`](super::activation), in every git process the agent starts.
//!
//! For `reference-transaction` in its `prepared` state and for `pre-push` it decides
//! ([`refs`](super::refs)): a refusal is the policy's words on git's stderr (which the
//! agent reads as its command's output), exit 1 (git aborts the transaction or the push),
//! and a denial record in the ledger. Then, and for every other hook, it hands over to
//! the repository's own hook (`core.hooksPath` of the repository, the user or the
//! system, else `.git/hooks`), with the same arguments and input, and exits with its
//! status. A transaction that names no branch is decided without opening the
//! repository.

use super::activation::{HOOKS_ENV, PROJECT_ENV};
use super::refs::{self, Refusal};
use crate::git::repo::Repo;
use crate::policy::Policy;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

type Lookup<'a> = &'a dyn Fn(&str) -> Option<OsString>;

/// The process: `args` are what follows `git-hook`.
pub fn main(args: &[OsString]) -> ExitCode {
    // `--no-own`: the script knows no repository it serves has a hook of its own by
    // this name (a directory brought up to date before each command): none is looked for.
    let (no_own, args) = match args.split_first() {
        Some((flag, rest)) if flag == "--no-own" => (true, rest),
        _ => (false, args),
    };
    let Some(name) = args.first().and_then(|a| a.to_str()) else {
        eprintln!("did-it-actually git-hook: expected the name of a git hook (this command is what git runs through the run-time layer's hook scripts)");
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    let env = |n: &str| std::env::var_os(n);
    let Ok(cwd) = std::env::current_dir() else {
        eprintln!("block-wrong-branch (run-time layer): git's {name} hook cannot tell its working directory, so git refused.");
        return ExitCode::FAILURE;
    };
    let decides = match name {
        "reference-transaction" => rest.first().is_some_and(|s| s == "prepared"),
        "pre-push" => true,
        _ => false,
    };
    if !decides {
        return hand_over(name, rest, None, &env, &cwd);
    }
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!(
            "block-wrong-branch (run-time layer): git's {name} input cannot be read ({}), so git refused.",
            crate::fsutil::describe_io(&e)
        );
        return ExitCode::FAILURE;
    }
    match decide(name, rest, &input, &env, &cwd) {
        Ok(None) if no_own => ExitCode::SUCCESS,
        Ok(None) => hand_over(name, rest, Some(input.as_bytes()), &env, &cwd),
        Ok(Some(refused)) if name == "pre-push" && parent_is_dry_run() => {
            eprint!("{}", refused.dry_run_message);
            hand_over(name, rest, Some(input.as_bytes()), &env, &cwd)
        }
        Ok(Some(refused)) => {
            eprint!("{}", refused.message);
            if let Err(e) = record(&refused, name, &env) {
                // Inside the run-time layer for writes the ledger is out of the command's
                // reach (and read-only to it): the run log records the refusal from this
                // output once the command has ended.
                eprintln!("{}{e}", crate::runtime::refs::UNRECORDED);
            }
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("block-wrong-branch (run-time layer): git's {name} hook cannot decide: {e}. A guard that cannot decide refuses, so git stopped; nothing changed.");
            ExitCode::FAILURE
        }
    }
}

/// Whether the git process that runs this hook (git runs hooks directly, and the hook
/// script `exec`s this binary, so it is the parent) is a dry-run push. Read from
/// `/proc`; where that cannot be read (not Linux), the push counts as real: refused.
fn parent_is_dry_run() -> bool {
    let parent = std::os::unix::process::parent_id();
    let Ok(raw) = std::fs::read(format!("/proc/{parent}/cmdline")) else {
        return false;
    };
    let argv: Vec<String> = raw
        .split(|b| *b == 0)
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    refs::is_dry_run_push(&argv)
}

/// A refusal, worded and with what the ledger keeps.
pub struct Refused {
    pub message: String,
    /// The findings worded for a dry run (`git push -n`), which sends nothing.
    pub dry_run_message: String,
    pub refusals: Vec<Refusal>,
    pub rule: String,
}

/// The decision for one hook run; `Ok(None)`: allowed.
pub fn decide(
    name: &str,
    args: &[OsString],
    input: &str,
    env: Lookup,
    cwd: &Path,
) -> Result<Option<Refused>, String> {
    enum Parsed {
        Transaction(Vec<refs::RefUpdate>),
        Push(Vec<refs::PushUpdate>),
    }
    let parsed = if name == "pre-push" {
        Parsed::Push(refs::parse_push(input)?)
    } else {
        Parsed::Transaction(refs::parse_transaction(input)?)
    };
    let touches_branches = match &parsed {
        Parsed::Transaction(u) => u.iter().any(|u| u.name.starts_with("refs/heads/")),
        Parsed::Push(u) => u.iter().any(|u| u.remote_ref.starts_with("refs/heads/")),
    };
    if !touches_branches {
        return Ok(None);
    }
    let policy = load_policy(env, cwd)?;
    if !policy.branches.run_time {
        return Ok(None);
    }
    let repo = open_repo(env, cwd)?;
    let defaults = repo.remote_default_branches();
    let state = GitState(&repo);
    let refusals = match &parsed {
        Parsed::Transaction(updates) => {
            let action = env("GIT_REFLOG_ACTION").map(|a| a.to_string_lossy().into_owned());
            refs::judge_transaction(
                updates,
                &state,
                &policy.branches,
                &defaults,
                action.as_deref(),
            )
        }
        Parsed::Push(updates) => {
            let remote = args
                .first()
                .map(|r| r.to_string_lossy().into_owned())
                .unwrap_or_else(|| "the remote".into());
            refs::judge_push(&remote, updates, &state, &policy.branches, &defaults)
        }
    };
    if refusals.is_empty() {
        return Ok(None);
    }
    // Where the first refusal's rule comes from: the file, or the built-in defaults
    // where the file does not set its key.
    let source = refusals.first().map_or_else(
        || policy.source.to_string(),
        |r| policy.source_of_rule(&r.rule),
    );
    Ok(Some(Refused {
        message: refs::message(name, &refusals, &source),
        dry_run_message: refs::dry_run_message(&refusals, &source),
        rule: refusals
            .iter()
            .map(|r| r.rule.clone())
            .collect::<Vec<_>>()
            .join("; "),
        refusals,
    }))
}

/// The project's policy, as the static layer applies it (the install names the project);
/// else the policy of the repository git runs in.
fn load_policy(env: Lookup, cwd: &Path) -> Result<Policy, String> {
    let base = env(PROJECT_ENV)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| cwd.to_owned());
    Policy::in_force(&base, env).map_err(|e| e.to_string())
}

/// The repository git runs the hook for: `GIT_DIR` when git set it (a clone, the far side
/// of a push), else the one holding the working directory (git runs hooks at the top of
/// the work tree, or in the git directory of a bare repository).
fn open_repo(env: Lookup, cwd: &Path) -> Result<Repo, String> {
    let git_dir = env("GIT_DIR")
        .filter(|d| !d.is_empty())
        .map(|d| crate::fsutil::absolute(Path::new(&d), cwd));
    match Repo::open(cwd, git_dir.as_deref())? {
        Some(repo) => Ok(repo),
        None => Err(format!("no git repository at {}", cwd.display())),
    }
}

/// The repository as [`refs::RefState`] sees it.
struct GitState<'r>(&'r Repo);

impl refs::RefState for GitState<'_> {
    fn current(&self, name: &str) -> Option<String> {
        match self.0.ref_value(name) {
            Ok(v) => v.map(|o| o.to_string()),
            // Unreadable: it may exist, and no value equals this one.
            Err(_) => Some(String::new()),
        }
    }

    fn packed_copy(&self, name: &str, oid: &str) -> bool {
        let common = self.0.common_dir();
        let loose = common.join(name).is_file();
        let packed = std::fs::read_to_string(common.join("packed-refs"))
            .is_ok_and(|t| t.lines().any(|l| l.split_once(' ') == Some((oid, name))));
        loose && packed
    }

    fn is_ancestor(&self, ancestor: &str, descendant: &str) -> Option<bool> {
        let a = git2::Oid::from_str(ancestor).ok()?;
        let d = git2::Oid::from_str(descendant).ok()?;
        if a == d {
            return Some(true);
        }
        // An object this repository does not have: the answer is unknown.
        self.0.commit_of(&a.to_string())?;
        self.0.commit_of(&d.to_string())?;
        Some(self.0.is_ancestor(a, d))
    }
}

/// Runs the repository's own hook `name`, if it has one, with `args` and the input (the
/// hook's own stdin when `input` is `None`); its exit status is ours.
fn hand_over(
    name: &str,
    args: &[OsString],
    input: Option<&[u8]>,
    env: Lookup,
    cwd: &Path,
) -> ExitCode {
    let Some(hook) = own_hook(name, env, cwd) else {
        return ExitCode::SUCCESS;
    };
    let mut cmd = std::process::Command::new(&hook);
    cmd.args(args);
    let Some(input) = input else {
        use std::os::unix::process::CommandExt;
        let e = cmd.exec();
        eprintln!(
            "did-it-actually: the repository's own {name} hook ({}) could not be run: {}",
            hook.display(),
            crate::fsutil::describe_io(&e)
        );
        return ExitCode::FAILURE;
    };
    cmd.stdin(std::process::Stdio::piped());
    let status = cmd.spawn().and_then(|mut child| {
        if let Some(mut stdin) = child.stdin.take() {
            // A hook that does not read its input is not an error (git ignores it too).
            let _ = stdin.write_all(input);
        }
        child.wait()
    });
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(s) => ExitCode::from(s.code().map_or(1, |c| c.clamp(1, 255) as u8)),
        Err(e) => {
            eprintln!(
                "did-it-actually: the repository's own {name} hook ({}) could not be run: {}",
                hook.display(),
                crate::fsutil::describe_io(&e)
            );
            ExitCode::FAILURE
        }
    }
}

/// Where git would have found hook `name` without the run-time layer: the highest-scope
/// `core.hooksPath` that is not ours (relative to where git runs hooks, `~/` the home
/// directory), else the `hooks` directory of the repository's common git directory. Only
/// an executable file counts, as for git.
pub fn own_hook(name: &str, env: Lookup, cwd: &Path) -> Option<PathBuf> {
    let ours = env(HOOKS_ENV).map(PathBuf::from);
    let mut repo = open_repo(env, cwd).ok()?;
    let dir = hooks_dir_without(&mut repo, ours.as_deref(), env, cwd)?;
    let hook = dir.join(name);
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(&hook).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0).then_some(hook)
}

/// The directory git would take the hooks of the repository at `dir` from without the
/// run-time layer (whose hooks directory is `ours`), for the layout's hook names. Not
/// the caller's `GIT_DIR`: `dir` names the repository.
pub fn own_hooks_dir(dir: &Path, ours: &Path, env: Lookup) -> Option<PathBuf> {
    let no_git_dir = |n: &str| if n == "GIT_DIR" { None } else { env(n) };
    let mut repo = open_repo(&no_git_dir, dir).ok()?;
    hooks_dir_without(&mut repo, Some(ours), env, dir)
}

/// The highest-scope `core.hooksPath` of `repo` that is not `ours`, else its common git
/// directory's `hooks`; `None` where that is ours.
fn hooks_dir_without(
    repo: &mut Repo,
    ours: Option<&Path>,
    env: Lookup,
    cwd: &Path,
) -> Option<PathBuf> {
    let is_ours = |p: &Path| {
        ours.is_some_and(|o| p == o || crate::fsutil::canonical(p) == crate::fsutil::canonical(o))
    };
    let configured = repo
        .config_values_by_scope("core.hookspath")
        .into_iter()
        .map(|(_, v)| expand(&v, env, cwd))
        .rfind(|p| !is_ours(p));
    let dir = configured.unwrap_or_else(|| repo.common_dir().join("hooks"));
    (!is_ours(&dir)).then_some(dir)
}

fn expand(value: &str, env: Lookup, cwd: &Path) -> PathBuf {
    if let Some(rest) = value.strip_prefix("~/") {
        if let Some(home) = env("HOME") {
            return PathBuf::from(home).join(rest);
        }
    }
    crate::fsutil::absolute(Path::new(value), cwd)
}

/// The session the agent's command belongs to: the host gives its commands its id
/// (Claude Code: `CLAUDE_CODE_SESSION_ID`); `DID_IT_ACTUALLY_SESSION` overrides.
pub(crate) fn session_of(env: Lookup) -> Option<crate::store::SessionId> {
    // `run`'s own session last: a host that gives its commands a session of its own
    // (Claude Code) keeps its refusals with the rest of that session.
    [
        "DID_IT_ACTUALLY_SESSION",
        "CLAUDE_CODE_SESSION_ID",
        super::run::SESSION_ENV,
    ]
    .iter()
    .find_map(|n| env(n).filter(|v| !v.is_empty()))
    .and_then(|v| crate::store::SessionId::parse(&v.to_string_lossy()).ok())
}

/// The agent `run` started, where the refusal is recorded in `run`'s own session (no
/// host session): the record's host.
fn run_agent(env: Lookup) -> Option<String> {
    let hosts_own = ["DID_IT_ACTUALLY_SESSION", "CLAUDE_CODE_SESSION_ID"]
        .iter()
        .any(|n| env(n).is_some_and(|v| !v.is_empty()));
    (!hosts_own)
        .then(|| env(super::run::AGENT_ENV))
        .flatten()
        .map(|v| v.to_string_lossy().into_owned())
        .filter(|v| !v.is_empty())
}

/// The refusal as a denial record in the session's ledger (`by: run-time`).
fn record(refused: &Refused, hook: &str, env: Lookup) -> Result<(), String> {
    let Some(session) = session_of(env) else {
        return Ok(());
    };
    let root = crate::store::state_root(env).map_err(|e| e.to_string())?;
    let store = crate::store::SessionStore::new(&root, &session);
    let record = crate::store::DenialRecord {
        targets: refused
            .refusals
            .iter()
            .map(|r| format!("{}{}", r.branch, r.place))
            .collect(),
        rule: Some(refused.rule.clone()),
        host: run_agent(env),
        ..crate::runtime::refs::denial_record(
            hook,
            session.as_str().to_owned(),
            refused.message.trim_end().to_owned(),
            std::time::SystemTime::now(),
        )
    };
    store
        .append(&[record.into()])
        .map(|_| ())
        .map_err(|e| e.to_string())
}
