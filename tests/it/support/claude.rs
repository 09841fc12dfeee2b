//! Running the real Claude Code binary in a throwaway project against [`MockApi`].
//!
//! The guards' real client is Claude Code, and its hook handling has surprised us before
//! (fail-open defaults, loop-ending blocks), so the e2e tests run the pinned release
//! rather than a re-implementation. Everything is isolated: a temp project, a temp HOME
//! (so neither the user's settings nor their hooks leak in), a loopback API, and no
//! inherited `ANTHROPIC_*` / `CLAUDE*` variables.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::mock_api::{user_texts, MockApi};

/// The Claude Code release whose behaviour the e2e tests pin.
pub const CLAUDE_CODE_VERSION: &str = "2.1.328";

/// Every release some e2e test runs against: the pinned one, and the one the Agent SDKs
/// bundle (`@anthropic-ai/claude-agent-sdk@0.3.332`, `claude-agent-sdk==0.2.189`). Any of
/// them can be asked for with [`claude_binary_version`] / [`Session::start_with`].
pub const CLAUDE_CODE_VERSIONS: [&str; 2] = ["2.1.328", "2.1.332"];

/// One `#[test]` per release in [`CLAUDE_CODE_VERSIONS`] for each named scenario, a
/// `fn(version: &str)` that starts its sessions with [`Session::start_with`]`(version)`.
///
/// `per_claude_code_version!(a_scenario);` generates `a_scenario::claude_code_2_1_328`
/// and `a_scenario::claude_code_2_1_332` (a module beside the fn of the same name), so a
/// failure names the release, the harness runs them in parallel, and
/// `cargo test --test NAME 2_1_332` picks one release. The scenarios stay ordinary fns,
/// which rustfmt formats (it leaves macro bodies alone).
///
/// The releases are spelled out here because a macro cannot make identifiers from
/// strings; [`listed_version`] fails a test whose release left [`CLAUDE_CODE_VERSIONS`],
/// and the const check below fails the build when the list grows without this macro.
#[macro_export]
macro_rules! per_claude_code_version {
    ($($scenario:ident),+ $(,)?) => {$(
        mod $scenario {
            #[test]
            fn claude_code_2_1_328() {
                super::$scenario($crate::support::claude::listed_version("2.1.328"));
            }

            #[test]
            fn claude_code_2_1_332() {
                super::$scenario($crate::support::claude::listed_version("2.1.332"));
            }
        }
    )+};
}

const _: () = assert!(
    CLAUDE_CODE_VERSIONS.len() == 2,
    "per_claude_code_version! generates one test per release: update it with the list"
);

/// `version`, after checking it is one of [`CLAUDE_CODE_VERSIONS`] (see
/// [`per_claude_code_version!`]).
pub fn listed_version(version: &'static str) -> &'static str {
    assert!(
        CLAUDE_CODE_VERSIONS.contains(&version),
        "Claude Code {version} is not in CLAUDE_CODE_VERSIONS {CLAUDE_CODE_VERSIONS:?}: \
         update per_claude_code_version!"
    );
    version
}

/// Set to `1` to skip (instead of fail) the e2e tests when the binary cannot be had,
/// e.g. on a machine without npm or registry access.
pub const OPTIONAL_ENV: &str = "DID_IT_ACTUALLY_E2E_OPTIONAL";

/// Set to `1` to keep session directories for inspection.
pub const KEEP_ENV: &str = "KEEP_E2E";

/// Default bound on one session. Scripted sessions take seconds; this only catches hangs.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// How long a timed-out session gets to shut down after SIGTERM before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(3);

/// How long after the session exits its output pipes may stay open (held by a process it
/// left behind) before we stop waiting for them.
const PIPE_GRACE: Duration = Duration::from_secs(5);

/// Cargo's target directory: where tools the tests install are cached, never committed,
/// and removed by `cargo clean`.
pub fn target_dir() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    match std::env::var_os("CARGO_TARGET_DIR") {
        // Cargo resolves a relative CARGO_TARGET_DIR against its cwd; for tests that is
        // the manifest directory.
        Some(dir) => manifest_dir.join(dir),
        None => manifest_dir.join("target"),
    }
}

/// Where the pinned release is installed: `<target dir>/claude-code`, so it is cached
/// across runs, never committed, and removed by `cargo clean`.
pub fn install_dir() -> PathBuf {
    install_dir_for(CLAUDE_CODE_VERSION)
}

/// Where `version` is installed: `<target dir>/claude-code` for the pinned
/// [`CLAUDE_CODE_VERSION`] (the directory it always had, so existing caches still hit),
/// `<target dir>/claude-code-<version>` for any other.
pub fn install_dir_for(version: &str) -> PathBuf {
    if version == CLAUDE_CODE_VERSION {
        target_dir().join("claude-code")
    } else {
        target_dir().join(format!("claude-code-{version}"))
    }
}

/// The path of the pinned Claude Code binary, installing it with npm on first use.
///
/// Memoized per process; across processes (test binaries running in parallel) a file lock
/// makes sure only one of them runs npm while the others wait for its result.
pub fn claude_binary() -> Result<PathBuf, String> {
    claude_binary_version(CLAUDE_CODE_VERSION)
}

/// [`claude_binary`] for any release, e.g. one of [`CLAUDE_CODE_VERSIONS`].
pub fn claude_binary_version(version: &str) -> Result<PathBuf, String> {
    static BINARIES: OnceLock<Mutex<BTreeMap<String, Result<PathBuf, String>>>> = OnceLock::new();
    let mut binaries = BINARIES
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    binaries
        .entry(version.to_owned())
        .or_insert_with(|| locate_or_install(version))
        .clone()
}

fn locate_or_install(version: &str) -> Result<PathBuf, String> {
    let dir = install_dir_for(version);
    let binary = dir.join("node_modules").join(".bin").join("claude");
    if check_version(&binary, version).is_ok() {
        return Ok(binary);
    }

    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let lock_path = dir.join(".install.lock");
    let lock = File::create(&lock_path)
        .map_err(|e| format!("cannot create {}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
    // Another process may have installed it while this one waited for the lock.
    if check_version(&binary, version).is_ok() {
        return Ok(binary);
    }

    let package = format!("@anthropic-ai/claude-code@{version}");
    eprintln!(
        "e2e: installing {package} into {} (one time, ~360 MB)",
        dir.display()
    );
    let output = Command::new("npm")
        .arg("install")
        .arg("--prefix")
        .arg(&dir)
        .args([
            "--no-audit",
            "--no-fund",
            "--no-save",
            "--loglevel=error",
            &package,
        ])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run npm to install {package}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "`npm install {package}` failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    check_version(&binary, version)?;
    drop(lock); // closing the file releases the lock
    Ok(binary)
}

fn check_version(binary: &Path, expected: &str) -> Result<(), String> {
    let output = Command::new(binary)
        .arg("--version")
        .env_remove("CLAUDECODE")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let version = String::from_utf8_lossy(&output.stdout);
    if output.status.success() && version.split_whitespace().next() == Some(expected) {
        Ok(())
    } else {
        Err(format!(
            "{} --version printed {:?} ({}), expected {expected}",
            binary.display(),
            version.trim(),
            output.status
        ))
    }
}

/// The binary, or the decision to skip: `None` (with the reason on stderr) when it cannot
/// be had and `DID_IT_ACTUALLY_E2E_OPTIONAL=1`. Otherwise a missing binary fails the test,
/// so a CI machine that silently lost npm access cannot turn the e2e suite into a no-op.
///
/// Usage: `let Some(claude) = claude_or_skip() else { return };`
pub fn claude_or_skip() -> Option<PathBuf> {
    claude_or_skip_version(CLAUDE_CODE_VERSION)
}

/// [`claude_or_skip`] for any release, e.g. one of [`CLAUDE_CODE_VERSIONS`].
pub fn claude_or_skip_version(version: &str) -> Option<PathBuf> {
    match claude_binary_version(version) {
        Ok(path) => Some(path),
        Err(reason) if optional() => {
            eprintln!("SKIPPED: Claude Code {version} is unavailable ({OPTIONAL_ENV}=1): {reason}");
            None
        }
        Err(reason) => panic!(
            "Claude Code {version} is unavailable: {reason}\n\
             (set {OPTIONAL_ENV}=1 to skip the e2e tests instead)"
        ),
    }
}

/// Whether `DID_IT_ACTUALLY_E2E_OPTIONAL=1`: a tool the e2e tests need that cannot be had
/// skips them instead of failing them.
pub fn optional() -> bool {
    std::env::var_os(OPTIONAL_ENV).is_some_and(|v| v == "1")
}

/// A throwaway project (a git repo on `main` with one commit) plus a throwaway HOME,
/// in which one or more scripted Claude Code sessions run. Removed on drop unless
/// `KEEP_E2E=1`.
pub struct Session {
    claude: PathBuf,
    root: PathBuf,
    project: PathBuf,
    home: PathBuf,
    env: BTreeMap<OsString, OsString>,
    timeout: Duration,
    /// Arguments added to every run (`--plugin-dir DIR`).
    args: Vec<OsString>,
    /// A program (and its arguments) that runs `claude` (`unshare -m sh -c SCRIPT sh`):
    /// empty for most sessions.
    prefix: Vec<OsString>,
}

/// What one `claude -p` run produced.
#[derive(Debug)]
pub struct SessionOutput {
    pub status: ExitStatus,
    /// stdout lines that parsed as JSON (`--output-format stream-json`), in order.
    pub stdout_events: Vec<Value>,
    /// The raw stdout, including any line that was not JSON.
    pub stdout: String,
    pub stderr: String,
    /// `$HOME/.claude/projects/<slug>/<session_id>.jsonl`, if it exists.
    pub transcript_path: Option<PathBuf>,
}

impl Session {
    /// Creates the project and HOME, or skips like [`claude_or_skip`].
    pub fn start() -> Option<Session> {
        claude_or_skip().map(|claude| Session::new(&claude))
    }

    /// [`Session::start`] with Claude Code `version` (one of [`CLAUDE_CODE_VERSIONS`]).
    pub fn start_with(version: &str) -> Option<Session> {
        claude_or_skip_version(version).map(|claude| Session::new(&claude))
    }

    /// Creates the project and HOME for a known binary. Panics (failing the test) if the
    /// temp dirs or the initial commit cannot be made.
    pub fn new(claude: &Path) -> Session {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!(
            "did-it-actually-e2e-{}-{}-{nanos:08x}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        );
        let root = crate::support::scratch_root().join(name);
        let project_dir = root.join("project");
        let home = root.join("home");
        for dir in [&project_dir, &home] {
            fs::create_dir_all(dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
        }
        // Claude Code reports (and derives the transcript slug from) the resolved path;
        // resolving here keeps paths comparable when the temp dir is behind a symlink.
        let project = fs::canonicalize(&project_dir).unwrap_or(project_dir);

        let session = Session {
            claude: claude.to_owned(),
            root,
            project,
            home,
            env: BTreeMap::new(),
            timeout: DEFAULT_TIMEOUT,
            args: Vec::new(),
            prefix: Vec::new(),
        };
        session.git_ok(&["init", "-q", "-b", "main"]);
        session.git_ok(&["config", "user.name", "did-it-actually e2e"]);
        session.git_ok(&["config", "user.email", "e2e@did-it-actually.invalid"]);
        session.git_ok(&["config", "commit.gpgsign", "false"]);
        session.write("README.md", "scratch project for an e2e test\n");
        session.git_ok(&["add", "README.md"]);
        session.git_ok(&["commit", "-q", "-m", "initial commit"]);
        if std::env::var_os(KEEP_ENV).is_some_and(|v| v == "1") {
            eprintln!("e2e: session dir {} (kept)", session.root.display());
        }
        session
    }

    /// A session in a project someone else made and removes (an oracle world): Claude
    /// Code runs in `project` with `home` as HOME; nothing is created or removed here.
    pub fn in_world(claude: &Path, project: &Path, home: &Path) -> Session {
        Session {
            claude: claude.to_owned(),
            // Nothing of ours to remove: the world's owner removes it.
            root: home.join(".did-it-actually-e2e-none"),
            project: project.to_owned(),
            home: home.to_owned(),
            env: BTreeMap::new(),
            timeout: DEFAULT_TIMEOUT,
            args: Vec::new(),
            prefix: Vec::new(),
        }
    }

    /// The project directory (Claude Code's cwd and `CLAUDE_PROJECT_DIR`).
    pub fn project(&self) -> &Path {
        &self.project
    }

    /// The HOME given to Claude Code.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// A fresh directory beside the project (not inside it, so the agent's git status
    /// stays clean), e.g. for a bare "remote" or a state dir; removed with the session.
    /// `project` and `home` are taken.
    pub fn scratch_dir(&self, name: &str) -> PathBuf {
        assert!(
            !["project", "home"].contains(&name),
            "scratch dir name {name:?} is taken"
        );
        let dir = self.root.join(name);
        fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
        dir
    }

    /// A path inside the project.
    pub fn path(&self, relative: impl AsRef<Path>) -> PathBuf {
        self.project.join(relative)
    }

    /// Writes a file in the project, creating parent directories.
    pub fn write(&self, relative: impl AsRef<Path>, contents: impl AsRef<[u8]>) {
        let path = self.path(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .unwrap_or_else(|e| panic!("create {}: {e}", parent.display()));
        }
        fs::write(&path, contents).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }

    /// Writes `.claude/settings.json` (where project hooks are registered).
    pub fn write_settings(&self, settings: &Value) {
        self.write(
            ".claude/settings.json",
            serde_json::to_string_pretty(settings).unwrap_or_default(),
        );
    }

    /// A project file's contents, or `None` if it cannot be read (e.g. does not exist).
    pub fn read(&self, relative: impl AsRef<Path>) -> Option<String> {
        fs::read_to_string(self.path(relative)).ok()
    }

    /// Adds an environment variable for the Claude Code process (and so for its hooks),
    /// e.g. `DID_IT_ACTUALLY_STATE_DIR`.
    /// Registers the hooks in the project the way a user does (`did-it-actually install
    /// --project <project>` plus `args`), and gives the session a state directory of its
    /// own, which is returned.
    pub fn install(&mut self, args: &[&str]) -> PathBuf {
        // The session's own state directory and home: the run-time layer's files land
        // there, not in the home of whoever runs the tests.
        let state = self.scratch_dir("state");
        let out = Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
            .arg("install")
            .args(args)
            .arg("--project")
            .arg(&self.project)
            .env("DID_IT_ACTUALLY_STATE_DIR", &state)
            .env("HOME", &self.home)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "install failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        self.env("DID_IT_ACTUALLY_STATE_DIR", &state);
        state
    }

    pub fn env(&mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> &mut Self {
        self.env.insert(key.into(), value.into());
        self
    }

    /// The variables added with [`Session::env`] (and by [`Session::install`]), for a
    /// process other than `claude -p` that runs the session, e.g. an Agent SDK app.
    pub fn env_vars(&self) -> &BTreeMap<OsString, OsString> {
        &self.env
    }

    /// The Claude Code binary this session runs.
    pub fn claude(&self) -> &Path {
        &self.claude
    }

    /// Replaces [`DEFAULT_TIMEOUT`] for the following runs.
    /// Adds an argument to every run of this session.
    pub fn arg(&mut self, arg: impl Into<OsString>) -> &mut Self {
        self.args.push(arg.into());
        self
    }

    /// Runs `claude` through `prefix` (the program first) from now on.
    pub fn prefix(&mut self, prefix: Vec<OsString>) -> &mut Self {
        self.prefix = prefix;
        self
    }

    pub fn timeout(&mut self, timeout: Duration) -> &mut Self {
        self.timeout = timeout;
        self
    }

    /// Runs git in the project with the same isolation as the session.
    pub fn git(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new("git");
        cmd.args(args)
            .current_dir(&self.project)
            .stdin(Stdio::null());
        self.isolate(&mut cmd);
        cmd.output()
            .unwrap_or_else(|e| panic!("run git {args:?}: {e}"))
    }

    /// Runs git and returns its trimmed stdout; a failing git command fails the test.
    pub fn git_ok(&self, args: &[&str]) -> String {
        let output = self.git(args);
        assert!(
            output.status.success(),
            "git {args:?} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }

    /// Runs `claude -p <prompt>` against `api` and waits for it. A run that outlives the
    /// timeout is killed and fails the test, showing what it printed so far.
    pub fn run(&self, prompt: &str, api: &MockApi) -> SessionOutput {
        let mut cmd = match self.prefix.split_first() {
            Some((program, rest)) => {
                let mut c = Command::new(program);
                c.args(rest).arg(&self.claude);
                c
            }
            None => Command::new(&self.claude),
        };
        cmd.args([
            "-p",
            prompt,
            "--output-format",
            "stream-json",
            "--verbose",
            "--dangerously-skip-permissions",
        ])
        .args(&self.args)
        .current_dir(&self.project)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        self.isolate(&mut cmd);
        cmd.env("ANTHROPIC_BASE_URL", api.base_url())
            .env("ANTHROPIC_API_KEY", "sk-ant-e2e-mock")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            // Running as root, --dangerously-skip-permissions is refused without it.
            .env("IS_SANDBOX", "1");
        cmd.envs(&self.env);

        let started = Instant::now();
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", self.claude.display()));
        let stdout = Drain::start(child.stdout.take());
        let stderr = Drain::start(child.stderr.take());
        let status = wait_with_timeout(&mut child, self.timeout);
        let stdout = stdout.finish();
        let stderr = stderr.finish();

        let Some(status) = status else {
            panic!(
                "claude -p timed out after {:?} (killed)\nmock hits: {:?}\nmock errors: {:?}\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
                started.elapsed(),
                api.hits(),
                api.errors()
            );
        };

        let stdout_events: Vec<Value> = stdout
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        let transcript_path = self.transcript_for(&stdout_events);
        SessionOutput {
            status,
            stdout_events,
            stdout,
            stderr,
            transcript_path,
        }
    }

    /// Environment shared by Claude Code and our own git calls: the temp HOME and no
    /// inherited configuration that could redirect the client or git.
    pub fn isolate(&self, cmd: &mut Command) {
        for (key, _) in std::env::vars_os() {
            let name = key.to_string_lossy();
            // CLAUDE* also covers CLAUDECODE, which marks "running inside Claude Code".
            if name.starts_with("ANTHROPIC_")
                || name.starts_with("CLAUDE")
                || name.starts_with("GIT_")
            {
                cmd.env_remove(&key);
            }
        }
        cmd.env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("GIT_CONFIG_NOSYSTEM", "1");
    }

    /// Transcripts live at `$HOME/.claude/projects/<slug>/<session_id>.jsonl`; rather
    /// than re-deriving the slug, look for the session id under every project folder.
    fn transcript_for(&self, events: &[Value]) -> Option<PathBuf> {
        let session_id = events
            .iter()
            .find_map(|e| e.get("session_id").and_then(Value::as_str))?;
        let projects = self.home.join(".claude").join("projects");
        fs::read_dir(projects)
            .ok()?
            .filter_map(Result::ok)
            .map(|entry| entry.path().join(format!("{session_id}.jsonl")))
            .find(|path| path.is_file())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if std::env::var_os(KEEP_ENV).is_some_and(|v| v == "1") {
            return;
        }
        let _ = fs::remove_dir_all(&self.root);
    }
}

impl SessionOutput {
    /// The final `result` event, if the session got that far.
    pub fn result(&self) -> Option<&Value> {
        self.stdout_events
            .iter()
            .rev()
            .find(|e| e.get("type").and_then(Value::as_str) == Some("result"))
    }

    /// The `result` text of the final event (the last assistant message).
    pub fn result_text(&self) -> Option<&str> {
        self.result()?.get("result")?.as_str()
    }

    /// The events of one type (`system`, `assistant`, `user`, `result`).
    pub fn events(&self, kind: &str) -> Vec<&Value> {
        self.stdout_events
            .iter()
            .filter(|e| e.get("type").and_then(Value::as_str) == Some(kind))
            .collect()
    }

    /// The transcript's lines that parse as JSON (an empty list when there is none).
    pub fn transcript(&self) -> Vec<Value> {
        let Some(path) = &self.transcript_path else {
            return Vec::new();
        };
        fs::read_to_string(path)
            .map(|text| {
                text.lines()
                    .filter_map(|l| serde_json::from_str(l).ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A description of the run for assertion messages.
    pub fn describe(&self) -> String {
        format!(
            "status {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.status, self.stdout, self.stderr
        )
    }
}

/// What Claude Code puts before a Stop hook's block reason when it tells the model.
pub const STOP_FEEDBACK: &str = "Stop hook feedback:";

/// The Stop blocks the model was told about, oldest first: each user text of the request
/// that holds the most of them (a request carries the whole conversation), cut to start at
/// [`STOP_FEEDBACK`]. The marker is searched inside the text, not only at its start:
/// 2.1.328 sends `Stop hook feedback:\n<reason>` as a plain user text, 2.1.332 wraps it in
/// a `<system-reminder>` (see [`assert_stop_feedback_shape`]). Both also add a `Stop hook
/// blocking error from command` system note, which is not counted here. Its length is the
/// number of blocks.
pub fn stop_feedback(requests: &[Value]) -> Vec<String> {
    requests
        .iter()
        .map(|request| {
            user_texts(request)
                .iter()
                .flat_map(|text| {
                    text.match_indices(STOP_FEEDBACK)
                        .map(|(at, _)| {
                            let rest = &text[at..];
                            let next = rest[STOP_FEEDBACK.len()..]
                                .find(STOP_FEEDBACK)
                                .map_or(rest.len(), |n| n + STOP_FEEDBACK.len());
                            let piece = &rest[..next];
                            piece
                                .split("</system-reminder>")
                                .next()
                                .unwrap_or(piece)
                                .trim_end()
                                .to_owned()
                        })
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        })
        .max_by_key(Vec::len)
        .unwrap_or_default()
}

/// The first line 2.1.332 puts inside the `<system-reminder>` that carries a hook's
/// output to the model, before [`STOP_FEEDBACK`] (the paragraph goes on to say that what
/// the hook only relays is data, not a message from the user).
pub const HOOK_OUTPUT_PREAMBLE: &str =
    "The text below is the output of a hook that the user, their organization or this environment set up.";

/// Asserts that every user text carrying a Stop block has the shape `version` gives it:
/// on 2.1.328 the text is `Stop hook feedback:\n<reason>`; on 2.1.332 it is
/// `<system-reminder>\n` + [`HOOK_OUTPUT_PREAMBLE`] + the rest of that paragraph +
/// `\nStop hook feedback:\n<reason>\n</system-reminder>`, one block per text. Returns how
/// many such texts the requests hold (counting a text repeated by later requests again).
/// Panics for a release whose shape nobody has looked at yet.
pub fn assert_stop_feedback_shape(version: &str, requests: &[Value]) -> usize {
    let texts: Vec<String> = requests
        .iter()
        .flat_map(user_texts)
        .filter(|t| t.contains(STOP_FEEDBACK))
        .collect();
    for text in &texts {
        match version {
            "2.1.328" => assert!(
                text.starts_with(STOP_FEEDBACK),
                "Claude Code {version}: a Stop block is not a plain `{STOP_FEEDBACK}` text: {text:?}"
            ),
            "2.1.332" => {
                let wrapped = text
                    .strip_prefix("<system-reminder>\n")
                    .and_then(|t| t.strip_suffix("\n</system-reminder>"));
                assert!(
                    wrapped.is_some_and(|t| t.starts_with(HOOK_OUTPUT_PREAMBLE)
                        && t.matches(STOP_FEEDBACK).count() == 1
                        && t.contains(&format!("\n{STOP_FEEDBACK}\n"))),
                    "Claude Code {version}: a Stop block is not one `{STOP_FEEDBACK}` in a \
                     <system-reminder> after the hook-output preamble: {text:?}"
                );
            }
            _ => panic!(
                "Claude Code {version}: how it shows a Stop block to the model is not known; \
                 observe it and add it to assert_stop_feedback_shape"
            ),
        }
    }
    texts.len()
}

/// Reads a child's pipe on its own thread, so a chatty child cannot block on a full pipe
/// while we wait for it to exit.
pub struct Drain {
    buffer: Arc<Mutex<Vec<u8>>>,
    reader: thread::JoinHandle<()>,
}

impl Drain {
    pub fn start(pipe: Option<impl Read + Send + 'static>) -> Drain {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&buffer);
        let reader = thread::spawn(move || {
            let Some(mut pipe) = pipe else { return };
            let mut chunk = [0; 8192];
            while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                sink.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .extend_from_slice(&chunk[..n]);
            }
        });
        Drain { buffer, reader }
    }

    /// What was read, once the pipe closes. A process the session left behind may still
    /// hold the pipe open after the session exited; rather than hang, give up after a grace
    /// period and say so (the reader thread is then abandoned).
    pub fn finish(self) -> String {
        let deadline = Instant::now() + PIPE_GRACE;
        while !self.reader.is_finished() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        let closed = self.reader.is_finished();
        let bytes = self
            .buffer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if !closed {
            text.push_str(
                "\n[e2e harness: pipe still open after the session ended; output may be cut]\n",
            );
        }
        text
    }
}

/// `None` if the child outlived `timeout` and had to be stopped. It first gets a SIGTERM,
/// on which Claude Code stops its running hooks (they run in their own sessions, out of
/// reach of a process-group kill, and would otherwise linger), then a SIGKILL. Polling
/// keeps this std-only; a 20 ms tick is invisible next to a session's seconds.
pub fn wait_with_timeout(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    if let Some(status) = wait_until(child, Instant::now() + timeout) {
        return Some(status);
    }
    terminate(child);
    if wait_until(child, Instant::now() + TERM_GRACE).is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    None
}

/// Sends SIGTERM. std only offers SIGKILL, so this goes through kill(1); the child is not
/// reaped yet, so its pid cannot have been reused.
fn terminate(child: &Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    #[cfg(not(unix))]
    let _ = child;
}

/// The exit status if the child exits before `deadline`.
fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(20)),
            _ => return None,
        }
    }
}
