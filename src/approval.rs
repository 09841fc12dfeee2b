//! The policy in force is one the user approved (compare direnv's `allow`).
//!
//! Anything can write `.did-it-actually.json`: the agent's tools, a program its command
//! starts, a checkout, a merge, a stash, a pull that brings a teammate's change. So the
//! guards never apply the file as they find it. They apply the copy the user approved,
//! kept in the state directory (`<state>/approved/<project>-<hash>.json`), which no
//! command of the agent can write: the kernel confinement leaves the state directory out
//! of every command it runs, scope-guard refuses the write tools there, and approving
//! refuses to run under an agent. A file that differs from its approved copy (new,
//! changed, removed) is *pending*: the guards keep the approved copy (or the built-in
//! defaults, if nothing was ever approved) and say which one is in force and how to
//! approve the new one.
//!
//! On the hot path this is one small read (the record) beside the read of the file the
//! guards made before, and a hash of it.
//!
//! Which file is compared is the record's, never `$DID_IT_ACTUALLY_POLICY` as a hook sees
//! it: a command of the agent can set that variable for the programs it starts, so only
//! the user's own commands (`policy approve`, `install`, `policy check`) read it.

use crate::policy::{Policy, PolicyError, Source, MAX_POLICY_BYTES};
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The record's format version.
const RECORD_VERSION: u32 = 1;

/// What the user approved for one project.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub version: u32,
    /// The project root (as given when approving).
    pub project: PathBuf,
    /// The policy file that was approved, or that was absent when the defaults were.
    pub file: PathBuf,
    /// SHA-256 of the approved bytes; `None`: no file, the built-in defaults approved.
    pub sha256: Option<String>,
    /// The approved text itself: the guards apply this, not the file.
    pub text: Option<String>,
    /// Seconds since the epoch.
    pub approved_at: u64,
    /// Who approved: `install` or `policy approve`.
    pub by: String,
}

/// A policy file that is not in force because it differs from what was approved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub file: PathBuf,
    pub change: Change,
    /// The file's SHA-256 as it was read (empty when it cannot be read; `None`: absent),
    /// so the once-per-change notice needs no second read.
    pub on_disk: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A file where none was ever approved.
    New,
    /// The file differs from the approved copy.
    Changed,
    /// The approved file is gone.
    Removed,
}

impl Pending {
    /// One sentence for the agent and the user: what is in force, and how to change it.
    pub fn sentence(&self, in_force: &Source) -> String {
        let what = match self.change {
            Change::New => "was never approved",
            Change::Changed => "changed since it was approved",
            Change::Removed => "was removed since it was approved",
        };
        format!(
            "the policy file {} {what}, so it is not in force: the guards apply {in_force}. Only the user can put it in force, at a terminal outside the agent: did-it-actually policy approve",
            self.file.display()
        )
    }

    /// A digest of the pending state, so a notice is given once per change.
    pub fn key(&self) -> String {
        let seed = format!(
            "{}|{:?}|{}",
            self.file.display(),
            self.change,
            self.on_disk.as_deref().unwrap_or("-")
        );
        crate::fsutil::sha256_hex(seed.as_bytes())[..16].to_owned()
    }
}

/// Where the approval record of `project` lives under the state root.
pub fn record_path(state_root: &Path, project: &Path) -> PathBuf {
    let key = crate::fsutil::path_key(&crate::fsutil::canonical(project));
    state_root.join("approved").join(format!("{key}.json"))
}

/// The project a directory belongs to: its repository's root, else the directory.
pub fn project_of(cwd: &Path) -> PathBuf {
    crate::policy::repo_root(cwd).unwrap_or_else(|| cwd.to_owned())
}

/// Reads the record of `project`; `Ok(None)` when nothing was ever approved.
pub fn read_record(state_root: &Path, project: &Path) -> Result<Option<Record>, String> {
    let path = record_path(state_root, project);
    let bytes = match crate::fsutil::read_regular(&path, 2 * MAX_POLICY_BYTES) {
        Ok(b) => b,
        // No state directory (or a file where it should be): nothing was approved there.
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None)
        }
        Err(e) => {
            return Err(format!(
                "the approval record {} cannot be read ({})",
                path.display(),
                crate::fsutil::describe_io(&e)
            ))
        }
    };
    let record: Record = serde_json::from_slice(&bytes).map_err(|e| {
        format!(
            "the approval record {} is not one did-it-actually wrote ({e}); approve the policy again: did-it-actually policy approve",
            path.display()
        )
    })?;
    if record.version != RECORD_VERSION {
        return Err(format!(
            "the approval record {} has version {} (this did-it-actually writes {RECORD_VERSION}); approve the policy again: did-it-actually policy approve",
            path.display(),
            record.version
        ));
    }
    Ok(Some(record))
}

/// The policy in force for `cwd`: the approved copy for its project, else the built-in
/// defaults, with what is pending. An approval record that cannot be read is an error
/// (the guards fail closed); a pending file that cannot be parsed is not (it is not in
/// force).
pub fn in_force(cwd: &Path, env: impl Fn(&str) -> Option<OsString>) -> Result<Policy, PolicyError> {
    let project = project_of(cwd);
    // The file the user names (their `$DID_IT_ACTUALLY_POLICY` as the host passes it to
    // its hooks; the run-time layer's scripts take it away), else the one at the root:
    // only compared with what was approved, never applied as it is.
    let explicit = env(crate::policy::POLICY_ENV).is_some_and(|v| !v.is_empty());
    let default_file = crate::policy::policy_path(&project, &env);
    let read_error = |message: String, path: PathBuf| PolicyError::Read { message, path };
    let state = crate::store::state_root(&env).map_err(|e| {
        read_error(
            format!("{e}, so no approved policy can be found"),
            default_file.clone(),
        )
    })?;
    let record =
        read_record(&state, &project).map_err(|e| read_error(e, record_path(&state, &project)))?;
    let on_disk = digest_of(&default_file);
    let Some(record) = record else {
        let mut policy = Policy::defaults(default_file.clone());
        if explicit || on_disk.is_some() {
            policy.source = Source::DefaultsUnapproved {
                file: default_file.clone(),
            };
            policy.pending = Some(Pending {
                file: default_file,
                change: Change::New,
                on_disk,
            });
        }
        return Ok(policy);
    };
    let mut policy = match &record.text {
        Some(text) => Policy::parse(&record.file, text.as_bytes())?,
        None => Policy::defaults(record.file.clone()),
    };
    // The same file reached another way (a symlinked project) is the same file.
    let same_file = default_file == record.file
        || crate::fsutil::canonical(&default_file) == crate::fsutil::canonical(&record.file);
    let change = match (&record.sha256, &on_disk) {
        (a, b) if a == b && same_file => None,
        (_, Some(_)) if !same_file => Some(Change::Changed),
        (None, Some(_)) => Some(Change::New),
        (Some(_), None) => Some(Change::Removed),
        _ => Some(Change::Changed),
    };
    if let Some(change) = change {
        policy.source = match record.text {
            Some(_) => Source::Approved {
                file: record.file.clone(),
            },
            None => Source::DefaultsUnapproved {
                file: record.file.clone(),
            },
        };
        policy.pending = Some(Pending {
            file: default_file,
            change,
            on_disk,
        });
    }
    Ok(policy)
}

/// The SHA-256 of the policy file at `path`: `None` when there is none, empty when it
/// cannot be read (a directory, a FIFO, too large: never what was approved).
fn digest_of(path: &Path) -> Option<String> {
    match crate::fsutil::read_regular(path, MAX_POLICY_BYTES) {
        Ok(bytes) => Some(crate::fsutil::sha256_hex(&bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(_) => Some(String::new()),
    }
}

/// What [`approve`] did.
#[derive(Debug)]
pub struct Approved {
    pub record: Record,
    pub record_path: PathBuf,
    /// What was in force before.
    pub previous: Option<Record>,
}

impl Approved {
    /// Whether the same file with the same text was already what was in force.
    pub fn unchanged(&self) -> bool {
        self.previous
            .as_ref()
            .is_some_and(|p| p.sha256 == self.record.sha256 && p.file == self.record.file)
    }
}

/// Why the policy file at `file` cannot be approved as it is (its error, with line and
/// column, or why it cannot be read); `None` when it can, or when there is none.
pub fn why_not_approvable(file: &Path) -> Option<String> {
    match crate::fsutil::read_regular(file, MAX_POLICY_BYTES) {
        Ok(b) => Policy::parse(file, &b).err().map(|e| e.to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            let mut why = crate::fsutil::describe_io(&e);
            if e.kind() == std::io::ErrorKind::InvalidData {
                why.push_str(" (a policy file may be at most 1 MiB)");
            }
            Some(format!("it cannot be read ({why})"))
        }
    }
}

/// Approves the policy file that applies to `project` as the user names it (their
/// `$DID_IT_ACTUALLY_POLICY`, else `.did-it-actually.json` at the root): parsed first (a
/// file with an error is never approved), then recorded with its text. An absent file
/// approves the built-in defaults.
pub fn approve(
    project: &Path,
    env: impl Fn(&str) -> Option<OsString>,
    by: &str,
) -> Result<Approved, String> {
    let state = crate::store::state_root(&env).map_err(|e| e.to_string())?;
    let project = project_of(project);
    let explicit = env(crate::policy::POLICY_ENV).is_some_and(|v| !v.is_empty());
    let file = crate::policy::policy_path(&project, &env);
    let (sha256, text) = match crate::fsutil::read_regular(&file, MAX_POLICY_BYTES) {
        Ok(bytes) => {
            Policy::parse(&file, &bytes).map_err(|e| {
                format!("{e}; nothing was approved (the guards keep what was in force)")
            })?;
            let text = String::from_utf8(bytes.clone())
                .map_err(|_| format!("{} is not UTF-8; nothing was approved", file.display()))?;
            (Some(crate::fsutil::sha256_hex(&bytes)), Some(text))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => (None, None),
        Err(e) => {
            return Err(format!(
                "{} cannot be read ({}); nothing was approved",
                file.display(),
                crate::fsutil::describe_io(&e)
            ))
        }
    };
    let previous = read_record(&state, &project).ok().flatten();
    let record = Record {
        version: RECORD_VERSION,
        project: project.clone(),
        file,
        sha256,
        text,
        approved_at: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        by: by.to_owned(),
    };
    let path = record_path(&state, &project);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| {
            format!(
                "cannot create {}: {}",
                dir.display(),
                crate::fsutil::describe_io(&e)
            )
        })?;
    }
    let mut bytes = serde_json::to_vec_pretty(&record).expect("a record serializes");
    bytes.push(b'\n');
    crate::fsutil::write_atomically(&path, &bytes).map_err(|e| {
        format!(
            "cannot write {}: {}",
            path.display(),
            crate::fsutil::describe_io(&e)
        )
    })?;
    Ok(Approved {
        record,
        record_path: path,
        previous,
    })
}

/// Why this process runs under an agent, if it does: an approval must come from the user,
/// so `policy approve` refuses then. Read from the environment a host gives its commands
/// (and the run-time layer's own variables), and from the parent processes.
pub fn under_agent(env: impl Fn(&str) -> Option<OsString>) -> Option<String> {
    if let Some(name) = AGENT_VARIABLES
        .iter()
        .find(|n| env(n).is_some_and(|v| !v.is_empty()))
    {
        return Some(format!(
            "the environment has {name}, which an agent's host sets for the commands it runs"
        ));
    }
    agent_ancestor().map(|(pid, what)| format!("process {pid} among its parents is {what}"))
}

/// Variables a host sets in its commands' environment, and ours, which only an agent's
/// commands carry.
const AGENT_VARIABLES: &[&str] = &[
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_CODE_SESSION_ID",
    crate::runtime::activation::HOOKS_ENV,
    crate::runtime::activation::SHELL_PREFIX_ENV,
    "CODEX_SANDBOX",
    "CODEX_MANAGED_BY_NPM",
    "CODEX_THREAD_ID",
    "GEMINI_CLI",
    "QWEN_CODE",
    "COPILOT_AGENT_SESSION_ID",
    "OPENCODE",
    "FACTORY_DROID",
    "CURSOR_AGENT",
];

/// Names (a program's file name, or a package path in a node command line) of the agents'
/// hosts.
const AGENT_PROGRAMS: &[&str] = &[
    "claude",
    "codex",
    "gemini",
    "copilot",
    "qwen",
    "droid",
    "opencode",
    "cursor-agent",
    "aider",
    "crush",
    "pi",
];
const AGENT_PACKAGES: &[&str] = &[
    "@anthropic-ai/claude-code",
    "@anthropic-ai/claude-agent-sdk",
    "claude_agent_sdk",
    "@openai/codex",
    "@google/gemini-cli",
    "@github/copilot",
    "@qwen-code/",
    "@factory/cli",
    "opencode-ai",
];

/// The first parent process that is an agent's host: its pid and what it is.
fn agent_ancestor() -> Option<(u32, String)> {
    let mut pid = std::os::unix::process::parent_id();
    for _ in 0..64 {
        if pid <= 1 {
            return None;
        }
        let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
        let argv: Vec<String> = raw
            .split(|b| *b == 0)
            .filter(|a| !a.is_empty())
            .take(4)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        if let Some(what) = agent_in(&argv) {
            return Some((pid, what));
        }
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid ...`: comm may hold spaces and parentheses.
        pid = stat
            .rsplit_once(')')?
            .1
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
    }
    None
}

fn agent_in(argv: &[String]) -> Option<String> {
    for arg in argv {
        let name = Path::new(arg)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if AGENT_PROGRAMS.contains(&name.as_str()) {
            return Some(name);
        }
        if let Some(p) = AGENT_PACKAGES.iter().find(|p| arg.contains(*p)) {
            return Some((*p).to_owned());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::POLICY_FILE;

    fn env_of(pairs: &[(&str, &Path)]) -> impl Fn(&str) -> Option<OsString> {
        let owned: Vec<(String, OsString)> = pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.as_os_str().to_owned()))
            .collect();
        move |k| owned.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    }

    struct World {
        dir: PathBuf,
        project: PathBuf,
        state: PathBuf,
    }

    impl Drop for World {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    fn world() -> World {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "dia-approval-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let project = dir.join("p");
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let state = dir.join("state");
        World {
            dir,
            project,
            state,
        }
    }

    const STRICT: &str = r#"{"version": 1, "branches": {"protected": ["main", "release/*"]}}"#;
    const LOOSE: &str = r#"{"version": 1, "branches": {"protected": ["nothing-real"]}}"#;

    #[test]
    fn nothing_approved_and_no_file_is_the_defaults_with_nothing_pending() {
        let w = world();
        let env = env_of(&[("DID_IT_ACTUALLY_STATE_DIR", &w.state)]);
        let p = in_force(&w.project, &env).unwrap();
        assert_eq!(p.pending, None);
        assert!(matches!(p.source, Source::Defaults { .. }));
    }

    #[test]
    fn a_file_never_approved_is_not_in_force() {
        let w = world();
        let env = env_of(&[("DID_IT_ACTUALLY_STATE_DIR", &w.state)]);
        std::fs::write(w.project.join(POLICY_FILE), LOOSE).unwrap();
        let p = in_force(&w.project, &env).unwrap();
        assert_eq!(p.branches, Policy::defaults(PathBuf::new()).branches);
        assert_eq!(p.pending.as_ref().unwrap().change, Change::New);
        assert!(
            p.source.to_string().contains("not approved"),
            "{}",
            p.source
        );
    }

    #[test]
    fn an_approved_file_is_in_force_until_it_changes_then_the_approved_copy_is() {
        let w = world();
        let env = env_of(&[("DID_IT_ACTUALLY_STATE_DIR", &w.state)]);
        std::fs::write(w.project.join(POLICY_FILE), STRICT).unwrap();
        approve(&w.project, &env, "test").unwrap();
        let p = in_force(&w.project.join("sub"), &env).unwrap();
        assert_eq!(p.pending, None);
        assert_eq!(p.source, Source::File(w.project.join(POLICY_FILE)));
        let strict = p.branches.clone();
        std::fs::write(w.project.join(POLICY_FILE), LOOSE).unwrap();
        let p = in_force(&w.project, &env).unwrap();
        assert_eq!(p.branches, strict);
        assert_eq!(p.pending.as_ref().unwrap().change, Change::Changed);
        std::fs::remove_file(w.project.join(POLICY_FILE)).unwrap();
        let p = in_force(&w.project, &env).unwrap();
        assert_eq!(p.branches, strict);
        assert_eq!(p.pending.as_ref().unwrap().change, Change::Removed);
    }

    #[test]
    fn approving_no_file_approves_the_defaults_and_a_new_file_is_pending() {
        let w = world();
        let env = env_of(&[("DID_IT_ACTUALLY_STATE_DIR", &w.state)]);
        approve(&w.project, &env, "test").unwrap();
        assert_eq!(in_force(&w.project, &env).unwrap().pending, None);
        std::fs::write(w.project.join(POLICY_FILE), LOOSE).unwrap();
        let p = in_force(&w.project, &env).unwrap();
        assert_eq!(p.pending.unwrap().change, Change::New);
        assert_eq!(p.branches, Policy::defaults(PathBuf::new()).branches);
    }

    #[test]
    fn the_policy_variable_in_a_hooks_environment_changes_nothing() {
        let w = world();
        std::fs::write(w.project.join(POLICY_FILE), STRICT).unwrap();
        let env = env_of(&[("DID_IT_ACTUALLY_STATE_DIR", &w.state)]);
        approve(&w.project, &env, "test").unwrap();
        let other = w.project.join("other.json");
        std::fs::write(&other, LOOSE).unwrap();
        let redirected = env_of(&[
            ("DID_IT_ACTUALLY_STATE_DIR", &w.state),
            ("DID_IT_ACTUALLY_POLICY", &other),
        ]);
        let p = in_force(&w.project, &redirected).unwrap();
        assert_eq!(p.pending.as_ref().unwrap().file, other);
        assert!(p.branches.describe_protected().contains("release/*"));
    }

    #[test]
    fn a_broken_file_is_never_approved_and_what_was_in_force_stays() {
        let w = world();
        let env = env_of(&[("DID_IT_ACTUALLY_STATE_DIR", &w.state)]);
        std::fs::write(w.project.join(POLICY_FILE), STRICT).unwrap();
        approve(&w.project, &env, "test").unwrap();
        std::fs::write(w.project.join(POLICY_FILE), "{\"version\": 1,\n  oops}").unwrap();
        let e = approve(&w.project, &env, "test").unwrap_err();
        assert!(e.contains(":2:"), "{e}");
        assert!(e.contains("nothing was approved"), "{e}");
        let p = in_force(&w.project, &env).unwrap();
        assert!(p.branches.describe_protected().contains("release/*"));
    }

    #[test]
    fn a_forged_record_fails_closed() {
        let w = world();
        let env = env_of(&[("DID_IT_ACTUALLY_STATE_DIR", &w.state)]);
        let path = record_path(&w.state, &w.project);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{").unwrap();
        assert!(in_force(&w.project, &env).is_err());
    }

    #[test]
    fn agents_are_told_by_their_variables_and_their_programs() {
        let w = world();
        assert!(under_agent(env_of(&[("CLAUDECODE", &w.state)])).is_some());
        assert!(under_agent(env_of(&[("DID_IT_ACTUALLY_GIT_HOOKS", &w.state)])).is_some());
        let argv = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            agent_in(&argv(&["/usr/bin/claude", "-p"])).as_deref(),
            Some("claude")
        );
        assert!(agent_in(&argv(&[
            "node",
            "/x/node_modules/@anthropic-ai/claude-code/cli.js"
        ]))
        .is_some());
        assert!(agent_in(&argv(&[
            "node",
            "/x/node_modules/@openai/codex/bin/codex.js"
        ]))
        .is_some());
        assert_eq!(agent_in(&argv(&["bash", "-c", "make test"])), None);
    }
}
