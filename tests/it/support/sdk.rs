//! Running the Claude Agent SDKs (TypeScript and Python) against [`MockApi`], the way an
//! application built on them runs Claude Code.
//!
//! Each SDK is installed by the tests on first use into a cache under `target/`
//! (`agent-sdk-ts`: npm, `agent-sdk-py`: a venv), guarded by a file lock like the pinned
//! Claude Code in [`super::claude`]. A runner script committed in `tests/sdk/` (`run.mjs`,
//! `run.py`) takes one config JSON file and prints the SDK's message stream as JSON lines;
//! [`SdkInstall::run`] writes that config, runs the script with a timeout and parses the
//! stream. Both SDKs bundle Claude Code [`SDK_CLAUDE_CODE_VERSION`], which is also the
//! binary a [`Session`] for an SDK test should be made with (`Session::new(&sdk.claude)`).
//!
//! Observed behaviour of these versions: `/work/shared/docs/agent-sdk.md`.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::claude::{
    optional, target_dir, wait_with_timeout, Drain, Session, DEFAULT_TIMEOUT, OPTIONAL_ENV,
};
use super::mock_api::MockApi;

/// The TypeScript SDK: npm package and version.
pub const TS_SDK_PACKAGE: &str = "@anthropic-ai/claude-agent-sdk";
pub const TS_SDK_VERSION: &str = "0.3.332";

/// The Python SDK: PyPI package and version.
pub const PY_SDK_PACKAGE: &str = "claude-agent-sdk";
pub const PY_SDK_VERSION: &str = "0.2.189";

/// The Claude Code release both SDK versions bundle.
pub const SDK_CLAUDE_CODE_VERSION: &str = "2.1.332";

const DID_IT_ACTUALLY: &str = env!("CARGO_BIN_EXE_did-it-actually");

/// One of the two Agent SDKs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sdk {
    TypeScript,
    Python,
}

/// Both SDKs, in the order the tests run them.
pub const SDKS: [Sdk; 2] = [Sdk::TypeScript, Sdk::Python];

impl Sdk {
    /// For messages: `TypeScript SDK 0.3.332` / `Python SDK 0.2.189`.
    pub fn name(self) -> String {
        match self {
            Sdk::TypeScript => format!("TypeScript SDK {TS_SDK_VERSION}"),
            Sdk::Python => format!("Python SDK {PY_SDK_VERSION}"),
        }
    }

    /// The cache directory: `<target>/agent-sdk-ts` or `<target>/agent-sdk-py` (a venv).
    pub fn install_dir(self) -> PathBuf {
        target_dir().join(match self {
            Sdk::TypeScript => "agent-sdk-ts",
            Sdk::Python => "agent-sdk-py",
        })
    }

    /// The installed SDK, installing it on first use. Memoized per process; a file lock
    /// makes parallel test binaries wait for the one that installs.
    pub fn installed(self) -> Result<SdkInstall, String> {
        static INSTALLS: OnceLock<Mutex<BTreeMap<Sdk, Result<SdkInstall, String>>>> =
            OnceLock::new();
        let mut installs = INSTALLS
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        installs
            .entry(self)
            .or_insert_with(|| {
                let started = Instant::now();
                let result = locate_or_install(self);
                eprintln!(
                    "e2e: {} ready in {:.1?}: {:?}",
                    self.name(),
                    started.elapsed(),
                    result.as_ref().map(|i| &i.claude)
                );
                result
            })
            .clone()
    }

    /// The installed SDK, or the decision to skip: `None` (with the reason on stderr) when
    /// it cannot be had and `DID_IT_ACTUALLY_E2E_OPTIONAL=1`; otherwise a missing SDK
    /// fails the test.
    pub fn or_skip(self) -> Option<SdkInstall> {
        match self.installed() {
            Ok(install) => Some(install),
            Err(reason) if optional() => {
                eprintln!(
                    "SKIPPED: the {} is unavailable ({OPTIONAL_ENV}=1): {reason}",
                    self.name()
                );
                None
            }
            Err(reason) => panic!(
                "the {} is unavailable: {reason}\n(set {OPTIONAL_ENV}=1 to skip the e2e tests instead)",
                self.name()
            ),
        }
    }
}

/// An installed SDK and how to run its runner script.
#[derive(Clone, Debug)]
pub struct SdkInstall {
    pub sdk: Sdk,
    /// `node`, or the venv's `python`.
    pub interpreter: PathBuf,
    /// The runner script (`run.mjs` is copied beside `node_modules` on each run).
    pub script: PathBuf,
    /// The Claude Code binary the SDK runs when no `claudePath` is given.
    pub claude: PathBuf,
}

/// One query: the runner's config file, minus what [`SdkInstall::run`] fills in (`cwd` is
/// the session's project; `env` gets the mock, HOME and the session's variables).
#[derive(Clone, Debug, Default)]
pub struct SdkConfig {
    pub prompt: String,
    /// `settingSources`; `None` leaves the option out (= every source, like the CLI).
    pub setting_sources: Option<Vec<String>>,
    /// `settings`: an object (inline) or a string (a path).
    pub settings: Option<Value>,
    /// Register the in-process MCP server `sh` with the tool `Bash` ({command}).
    pub mcp_shell: bool,
    /// Register the in-process MCP server `ctl` with the tool `end_turn` ({summary}).
    pub mcp_end_turn: bool,
    /// Another Claude Code binary than the bundled one.
    pub claude_path: Option<PathBuf>,
    /// Extra variables for Claude Code (over everything else).
    pub env: BTreeMap<String, String>,
    /// Start the app through `did-it-actually run --agent claude --` (both run-time
    /// layers around the app and the Claude Code it starts).
    pub through_run: bool,
}

impl SdkConfig {
    pub fn new(prompt: impl Into<String>) -> SdkConfig {
        SdkConfig {
            prompt: prompt.into(),
            ..SdkConfig::default()
        }
    }
}

/// What one runner run produced.
#[derive(Debug)]
pub struct SdkOutput {
    pub sdk: Sdk,
    pub status: ExitStatus,
    /// The SDK messages (stdout lines that parsed as JSON), in order.
    pub events: Vec<Value>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl SdkOutput {
    /// The final `result` message, if the query got that far.
    pub fn result(&self) -> Option<&Value> {
        self.events
            .iter()
            .rev()
            .find(|e| e.get("type").and_then(Value::as_str) == Some("result"))
    }

    /// A string field of the result message (`subtype`, `terminal_reason`, `result`…).
    pub fn result_field(&self, key: &str) -> Option<&str> {
        self.result()?.get(key)?.as_str()
    }

    /// The messages of one type (`system`, `assistant`, `user`, `result`).
    pub fn events(&self, kind: &str) -> Vec<&Value> {
        self.events
            .iter()
            .filter(|e| e.get("type").and_then(Value::as_str) == Some(kind))
            .collect()
    }

    /// The session id the SDK reported.
    pub fn session_id(&self) -> Option<&str> {
        self.events
            .iter()
            .find_map(|e| e.get("session_id").and_then(Value::as_str))
    }

    /// A description of the run for assertion messages.
    pub fn describe(&self) -> String {
        format!(
            "{}: status {} after {:.1?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.sdk.name(),
            self.status,
            self.elapsed,
            self.stdout,
            self.stderr
        )
    }
}

impl SdkInstall {
    /// Runs one query in `session`'s project against `api` and waits for it. A run that
    /// outlives [`DEFAULT_TIMEOUT`] is killed and fails the test.
    pub fn run(&self, session: &Session, api: &MockApi, config: &SdkConfig) -> SdkOutput {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let script = self.script_for_run();

        let mut env: BTreeMap<String, String> = session
            .env_vars()
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.to_string_lossy().into_owned(),
                )
            })
            .collect();
        for (key, value) in [
            ("ANTHROPIC_BASE_URL", api.base_url()),
            ("ANTHROPIC_API_KEY", "x".to_owned()),
            ("IS_SANDBOX", "1".to_owned()),
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".to_owned()),
            ("DISABLE_TELEMETRY", "1".to_owned()),
            ("HOME", session.home().display().to_string()),
        ] {
            env.insert(key.to_owned(), value);
        }
        env.extend(config.env.clone());

        let mut file = json!({
            "cwd": session.project(),
            "prompt": config.prompt,
            "env": env,
            "settingSources": config.setting_sources,
            "mcpShell": config.mcp_shell,
            "mcpEndTurn": config.mcp_end_turn,
        });
        if let Some(settings) = &config.settings {
            file["settings"] = settings.clone();
        }
        if let Some(path) = &config.claude_path {
            file["claudePath"] = json!(path);
        }
        let config_path = session.scratch_dir("sdk").join(format!(
            "config-{}.json",
            COUNTER.fetch_add(1, Ordering::SeqCst)
        ));
        fs::write(
            &config_path,
            serde_json::to_string_pretty(&file).unwrap_or_default(),
        )
        .unwrap_or_else(|e| panic!("write {}: {e}", config_path.display()));

        let mut cmd = if config.through_run {
            let mut c = Command::new(DID_IT_ACTUALLY);
            c.args(["run", "--agent", "claude", "--"])
                .arg(&self.interpreter);
            c
        } else {
            Command::new(&self.interpreter)
        };
        cmd.arg(&script)
            .arg(&config_path)
            .current_dir(session.project())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // No inherited ANTHROPIC_* / CLAUDE* / GIT_*, the session's HOME; the runner then
        // merges `env` over this for Claude Code.
        session.isolate(&mut cmd);
        cmd.envs(session.env_vars());

        let started = Instant::now();
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", self.interpreter.display()));
        let stdout = Drain::start(child.stdout.take());
        let stderr = Drain::start(child.stderr.take());
        let status = wait_with_timeout(&mut child, DEFAULT_TIMEOUT);
        let stdout = stdout.finish();
        let stderr = stderr.finish();
        let elapsed = started.elapsed();

        let Some(status) = status else {
            panic!(
                "{} run timed out after {elapsed:?} (killed)\nmock hits: {:?}\nmock errors: {:?}\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
                self.sdk.name(),
                api.hits(),
                api.errors()
            );
        };
        let events = stdout
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        SdkOutput {
            sdk: self.sdk,
            status,
            events,
            stdout,
            stderr,
            elapsed,
        }
    }

    /// The script to run. An ES module resolves its imports from its own location, so
    /// `tests/sdk/run.mjs` is copied beside the SDK's `node_modules` (atomically: test
    /// threads may do this at once) rather than run from `tests/`.
    fn script_for_run(&self) -> PathBuf {
        match self.sdk {
            Sdk::Python => self.script.clone(),
            Sdk::TypeScript => {
                static COPIES: AtomicUsize = AtomicUsize::new(0);
                let source = runner_source(Sdk::TypeScript);
                let dir = self.sdk.install_dir();
                let tmp = dir.join(format!(
                    ".run-{}-{}.mjs.tmp",
                    std::process::id(),
                    COPIES.fetch_add(1, Ordering::SeqCst)
                ));
                fs::copy(&source, &tmp)
                    .and_then(|_| fs::rename(&tmp, &self.script))
                    .unwrap_or_else(|e| {
                        panic!(
                            "copy {} to {}: {e}",
                            source.display(),
                            self.script.display()
                        )
                    });
                self.script.clone()
            }
        }
    }
}

/// `tests/sdk/run.mjs` or `tests/sdk/run.py`.
pub fn runner_source(sdk: Sdk) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("sdk")
        .join(match sdk {
            Sdk::TypeScript => "run.mjs",
            Sdk::Python => "run.py",
        })
}

/// Runs `scenario` with each SDK in turn, so TypeScript and Python follow the same script.
/// A failure with one SDK does not stop the other; the test then fails naming every SDK
/// that failed (each failure's own message is printed as it happens). An SDK that cannot
/// be had skips its part under `DID_IT_ACTUALLY_E2E_OPTIONAL=1`.
pub fn for_each_sdk(scenario: impl Fn(&SdkInstall)) {
    let mut failures = Vec::new();
    for sdk in SDKS {
        let started = Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if let Some(install) = sdk.or_skip() {
                scenario(&install);
            }
        }));
        eprintln!(
            "e2e: {} scenario {} in {:.1?}",
            sdk.name(),
            if outcome.is_ok() { "passed" } else { "FAILED" },
            started.elapsed()
        );
        if let Err(panic) = outcome {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            failures.push(format!("--- {} ---\n{message}", sdk.name()));
        }
    }
    assert!(
        failures.is_empty(),
        "the scenario failed with {} SDK(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------
// Scenario helpers.
// ---------------------------------------------------------------------------------------

/// The settings object `did-it-actually install --print-settings <args>` prints: the
/// registration an SDK app passes as its `settings` option (route 2 of agent-sdk.md).
pub fn print_settings(args: &[&str]) -> Value {
    let out = Command::new(DID_IT_ACTUALLY)
        .args(["install", "--print-settings"])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("run {DID_IT_ACTUALLY}: {e}"));
    assert!(
        out.status.success(),
        "`did-it-actually install --print-settings {}` failed ({}): {}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let settings: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "`install --print-settings` printed no JSON ({e}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    assert!(
        settings.get("hooks").is_some_and(Value::is_object),
        "`install --print-settings` printed no hooks: {settings:#}"
    );
    settings
}

/// Gives the session's project a bare `origin` (a scratch dir beside the project) with
/// `main` pushed, then one more local commit, so a push to main would move the remote.
/// Returns the origin's path.
pub fn add_origin(session: &Session) -> PathBuf {
    let origin = session.scratch_dir("origin.git");
    let origin_str = origin.to_str().expect("a UTF-8 temp path");
    session.git_ok(&["init", "-q", "--bare", origin_str]);
    session.git_ok(&["remote", "add", "origin", origin_str]);
    session.git_ok(&["push", "-q", "origin", "main"]);
    session.write("local.txt", "a commit that is not on origin yet\n");
    session.git_ok(&["add", "local.txt"]);
    session.git_ok(&["commit", "-q", "-m", "local work"]);
    origin
}

/// The commit `main` points to in `origin`.
pub fn remote_main(session: &Session, origin: &Path) -> String {
    session.git_ok(&[
        "--git-dir",
        origin.to_str().expect("a UTF-8 temp path"),
        "rev-parse",
        "main",
    ])
}

/// Every record of every session's write log under a state dir
/// (`<state>/sessions/<id>/writes.jsonl`).
pub fn write_log(state: &Path) -> Vec<Value> {
    let Ok(sessions) = fs::read_dir(state.join("sessions")) else {
        return Vec::new();
    };
    sessions
        .flatten()
        .flat_map(|dir| {
            fs::read_to_string(dir.path().join("writes.jsonl"))
                .unwrap_or_default()
                .lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect::<Vec<Value>>()
        })
        .collect()
}

/// The names in a request's `tools` list (what the model was offered).
pub fn tool_names(request: &Value) -> Vec<String> {
    request
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Installing.
// ---------------------------------------------------------------------------------------

fn locate_or_install(sdk: Sdk) -> Result<SdkInstall, String> {
    if let Ok(install) = check(sdk) {
        return Ok(install);
    }
    let dir = sdk.install_dir();
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let lock_path = dir.join(".install.lock");
    let lock = File::create(&lock_path)
        .map_err(|e| format!("cannot create {}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
    // Another process may have installed it while this one waited for the lock.
    if let Ok(install) = check(sdk) {
        return Ok(install);
    }
    match sdk {
        Sdk::TypeScript => install_ts(&dir)?,
        Sdk::Python => install_py(&dir)?,
    }
    let install = check(sdk)?;
    drop(lock); // closing the file releases the lock
    Ok(install)
}

fn check(sdk: Sdk) -> Result<SdkInstall, String> {
    match sdk {
        Sdk::TypeScript => check_ts(),
        Sdk::Python => check_py(),
    }
}

/// The npm name of the platform package holding the TypeScript SDK's Claude Code.
fn ts_platform_package() -> Result<String, String> {
    let os = match std::env::consts::OS {
        "linux" => "linux",
        "macos" => "darwin",
        "windows" => "win32",
        other => return Err(format!("no Agent SDK platform package for OS {other}")),
    };
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => return Err(format!("no Agent SDK platform package for CPU {other}")),
    };
    Ok(format!("{TS_SDK_PACKAGE}-{os}-{arch}"))
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
}

fn claude_version(binary: &Path) -> Result<String, String> {
    let out = Command::new(binary)
        .arg("--version")
        .env_remove("CLAUDECODE")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match text.split_whitespace().next() {
        Some(version) if out.status.success() => Ok(version.to_owned()),
        _ => Err(format!(
            "{} --version printed {:?} ({})",
            binary.display(),
            text.trim(),
            out.status
        )),
    }
}

fn check_ts() -> Result<SdkInstall, String> {
    let dir = Sdk::TypeScript.install_dir();
    let modules = dir.join("node_modules");
    let wrapper = read_json(&modules.join(TS_SDK_PACKAGE).join("package.json"))?;
    if wrapper["version"] != TS_SDK_VERSION {
        return Err(format!(
            "{TS_SDK_PACKAGE} {} is installed, expected {TS_SDK_VERSION}",
            wrapper["version"]
        ));
    }
    let platform = ts_platform_package()?;
    let wanted = wrapper["optionalDependencies"][&platform]
        .as_str()
        .ok_or(format!(
            "{TS_SDK_PACKAGE}@{TS_SDK_VERSION} names no {platform}"
        ))?;
    let installed = read_json(&modules.join(&platform).join("package.json"))?;
    if installed["version"] != wanted {
        return Err(format!(
            "{platform} {} is installed, {TS_SDK_PACKAGE} names {wanted}",
            installed["version"]
        ));
    }
    let claude = modules.join(&platform).join("claude");
    let version = claude_version(&claude)?;
    if wrapper["claudeCodeVersion"] != version.as_str() {
        return Err(format!(
            "{} is Claude Code {version}, {TS_SDK_PACKAGE} names {}",
            claude.display(),
            wrapper["claudeCodeVersion"]
        ));
    }
    let node = Command::new("node")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run node: {e}"))?;
    if !node.status.success() {
        return Err(format!("node --version failed ({})", node.status));
    }
    Ok(SdkInstall {
        sdk: Sdk::TypeScript,
        interpreter: PathBuf::from("node"),
        script: dir.join("run.mjs"),
        claude,
    })
}

/// `npm install` of the wrapper and, pinned explicitly, the platform package at the
/// version the wrapper's package.json names (platform packages can lag the wrapper, and
/// npm would then silently leave the optional dependency out).
fn install_ts(dir: &Path) -> Result<(), String> {
    let platform = ts_platform_package()?;
    let wrapper = format!("{TS_SDK_PACKAGE}@{TS_SDK_VERSION}");
    let view = Command::new("npm")
        .args(["view", &wrapper, "optionalDependencies", "--json"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run npm: {e}"))?;
    if !view.status.success() {
        return Err(format!(
            "`npm view {wrapper} optionalDependencies` failed ({}): {}",
            view.status,
            String::from_utf8_lossy(&view.stderr)
        ));
    }
    let optional: Value = serde_json::from_slice(&view.stdout)
        .map_err(|e| format!("`npm view {wrapper} optionalDependencies` is not JSON: {e}"))?;
    let platform_version = optional[&platform]
        .as_str()
        .ok_or(format!("{wrapper} names no {platform}"))?
        .to_owned();

    let manifest = json!({
        "name": "did-it-actually-agent-sdk-ts",
        "private": true,
        "description": "installed by the did-it-actually e2e tests (tests/it/support/sdk.rs)",
        "dependencies": {
            TS_SDK_PACKAGE: TS_SDK_VERSION,
            platform.as_str(): platform_version,
        },
    });
    let manifest_path = dir.join("package.json");
    fs::write(
        &manifest_path,
        serde_json::to_string_pretty(&manifest).unwrap_or_default(),
    )
    .map_err(|e| format!("cannot write {}: {e}", manifest_path.display()))?;
    eprintln!(
        "e2e: installing {wrapper} and {platform}@{platform_version} into {} (one time, ~400 MB)",
        dir.display()
    );
    let out = Command::new("npm")
        .arg("install")
        .arg("--prefix")
        .arg(dir)
        .args(["--no-audit", "--no-fund", "--loglevel=error"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run npm to install {wrapper}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`npm install {wrapper} {platform}@{platform_version}` failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}

fn venv_python(dir: &Path) -> PathBuf {
    dir.join("bin").join("python")
}

fn check_py() -> Result<SdkInstall, String> {
    let dir = Sdk::Python.install_dir();
    let python = venv_python(&dir);
    let out = Command::new(&python)
        .args([
            "-c",
            "import json, os, claude_agent_sdk as s\n\
             from claude_agent_sdk import _cli_version as c\n\
             print(json.dumps({'version': s.__version__, 'cli': c.__cli_version__,\n\
             'bundled': os.path.join(os.path.dirname(s.__file__), '_bundled', 'claude')}))",
        ])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{PY_SDK_PACKAGE} is not importable from {} ({}): {}",
            python.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let info: Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("unexpected answer from {}: {e}", python.display()))?;
    if info["version"] != PY_SDK_VERSION {
        return Err(format!(
            "{PY_SDK_PACKAGE} {} is installed, expected {PY_SDK_VERSION}",
            info["version"]
        ));
    }
    let claude = PathBuf::from(info["bundled"].as_str().unwrap_or_default());
    let version = claude_version(&claude)?;
    if info["cli"] != version.as_str() {
        return Err(format!(
            "{} is Claude Code {version}, {PY_SDK_PACKAGE} names {}",
            claude.display(),
            info["cli"]
        ));
    }
    Ok(SdkInstall {
        sdk: Sdk::Python,
        interpreter: python,
        script: runner_source(Sdk::Python),
        claude,
    })
}

fn install_py(dir: &Path) -> Result<(), String> {
    let package = format!("{PY_SDK_PACKAGE}=={PY_SDK_VERSION}");
    eprintln!(
        "e2e: installing {package} into a venv at {} (one time, ~250 MB)",
        dir.display()
    );
    let venv = Command::new("python3")
        .args(["-m", "venv"])
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run python3 -m venv: {e}"))?;
    if !venv.status.success() {
        return Err(format!(
            "`python3 -m venv {}` failed ({}): {}",
            dir.display(),
            venv.status,
            String::from_utf8_lossy(&venv.stderr)
        ));
    }
    let out = Command::new(venv_python(dir))
        .args([
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--quiet",
            &package,
        ])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run pip to install {package}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`pip install {package}` failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}
