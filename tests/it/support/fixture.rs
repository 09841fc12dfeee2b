//! Runs a fixture through the built binary the way a host would, in a scratch directory.
//!
//! A fixture is `NAME.json`, the hook's stdin, with placeholders:
//! - `@ROOT@`: the scratch project directory (absolute);
//! - `@CONTENT:rel/path@`: the content of that file under the scratch root, as a JSON
//!   string body (so a 50 MB Write needs no 50 MB fixture: the setup script makes it).
//!
//! Beside it, optionally: `NAME.setup.sh` (bash, run in the scratch root before the
//! hook), `NAME.runas` (holds `nobody`: run the hook as uid 65534, so that file
//! permissions bind even when the tests run as root).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub struct Run {
    pub root: PathBuf,
    pub state: PathBuf,
    pub exit_code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Drop for Run {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.root.parent().unwrap());
    }
}

/// A scratch directory of the tests (`root/` and `state/` inside), removed when the test
/// is done with it; kept when the test failed, to look at.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Scratch {
    /// The path, for an owner that removes it itself (a [`Run`]).
    pub fn into_path(self) -> PathBuf {
        let path = self.0.clone();
        std::mem::forget(self);
        path
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Each holds a copy of the binary (tens of MB in RAM on /dev/shm): a run that
        // left them behind filled the machine's memory after a few runs.
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

pub fn scratch(name: &str) -> Scratch {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    // Fixed widths: a reason cut at a length shows the same text whatever the pid.
    let dir = crate::support::scratch_root().join(format!(
        "dia-fixture-{:07}-{:04}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("root")).unwrap();
    std::fs::create_dir_all(dir.join("state")).unwrap();
    Scratch(dir)
}

fn substitute(text: &str, root: &Path) -> String {
    let mut out = text.replace("@ROOT@", root.to_str().unwrap());
    while let Some(start) = out.find("@CONTENT:") {
        let body = start + "@CONTENT:".len();
        let end = body + out[body..].find('@').expect("@CONTENT:path@ is closed");
        let rel = &out[body..end];
        let content = std::fs::read_to_string(root.join(rel)).unwrap();
        let quoted = serde_json::to_string(&content).unwrap();
        out.replace_range(start..=end, &quoted[1..quoted.len() - 1]);
    }
    out
}

/// `did-it-actually policy approve` in `root`, as the user runs it; whether it approved.
pub fn approve_policy(root: &Path, state: &Path) -> bool {
    Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
        .args(["policy", "approve", "--cwd"])
        .arg(root)
        .env("DID_IT_ACTUALLY_STATE_DIR", state)
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .env_remove("XDG_STATE_HOME")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
}

/// Runs `args` of the binary with the fixture at `json` as stdin.
pub fn run_fixture(json: &Path, args: &[&str]) -> Run {
    let name = json.file_stem().unwrap().to_str().unwrap();
    let dir = scratch(name).into_path(); // the Run removes it
    let root = dir.join("root");
    let state = dir.join("state");
    let setup = json.with_extension("setup.sh");
    if setup.exists() {
        let status = Command::new("bash")
            .arg("-euo")
            .arg("pipefail")
            .arg(&setup)
            .current_dir(&root)
            .env("ROOT", &root)
            .status()
            .unwrap();
        assert!(status.success(), "setup of {name} failed");
        // The user approves the policy their setup wrote, as after editing it; a file
        // that cannot be approved (a broken one) stays pending, not in force.
        approve_policy(&root, &state);
    }
    // A fixture may hold bytes that are not UTF-8 (to test that refusal); only text gets
    // its placeholders replaced.
    let raw = std::fs::read(json).unwrap();
    let stdin = match String::from_utf8(raw) {
        Ok(text) => substitute(&text, &root).into_bytes(),
        Err(e) => e.into_bytes(),
    };
    let run_as_nobody =
        std::fs::read_to_string(json.with_extension("runas")).is_ok_and(|s| s.trim() == "nobody");
    run_binary(args, &stdin, &root, &state, run_as_nobody)
}

/// Runs the binary in `root` (whose parent is removed when the run is dropped).
pub fn run_binary(args: &[&str], stdin: &[u8], root: &Path, state: &Path, as_nobody: bool) -> Run {
    let bin = env!("CARGO_BIN_EXE_did-it-actually");
    let mut cmd = if as_nobody && is_root() {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(state, std::fs::Permissions::from_mode(0o777)).unwrap();
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(bin);
        c
    } else {
        Command::new(bin)
    };
    let mut child = cmd
        .args(args)
        .current_dir(root)
        .env("DID_IT_ACTUALLY_STATE_DIR", state)
        .env("HOME", root.parent().unwrap())
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .env_remove("XDG_STATE_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut pipe = child.stdin.take().unwrap();
        // The hook may refuse early and close its stdin; that is not a test failure.
        let _ = pipe.write_all(stdin);
    }
    let out = child.wait_with_output().unwrap();
    Run {
        root: root.to_owned(),
        state: state.to_owned(),
        exit_code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

impl Run {
    /// Every record in the write logs under the state directory, oldest first.
    pub fn records(&self) -> Vec<serde_json::Value> {
        let mut out = Vec::new();
        let sessions = self.state.join("sessions");
        let Ok(entries) = std::fs::read_dir(&sessions) else {
            return out;
        };
        let mut dirs: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        dirs.sort();
        for d in dirs {
            if let Ok(text) = std::fs::read_to_string(d.join("writes.jsonl")) {
                out.extend(
                    text.lines()
                        .map(|l| serde_json::from_str(l).expect("an intact record")),
                );
            }
        }
        out
    }

    /// What a user would see, as text for a snapshot: exit code, stdout (pretty JSON when
    /// it is JSON), stderr, and the records written (times and scratch paths redacted).
    pub fn report(&self) -> String {
        let root = std::fs::canonicalize(&self.root).unwrap_or(self.root.clone());
        let scratch = root.parent().unwrap().to_str().unwrap().to_owned();
        let redact = |s: &str| {
            s.replace(root.to_str().unwrap(), "[ROOT]")
                .replace(self.root.to_str().unwrap(), "[ROOT]")
                .replace(&scratch, "[SCRATCH]")
        };
        let stdout = match serde_json::from_str::<serde_json::Value>(&self.stdout) {
            Ok(v) => serde_json::to_string_pretty(&v).unwrap(),
            Err(_) => self.stdout.clone(),
        };
        let mut records = self.records();
        for r in &mut records {
            r["time"] = "[TIME]".into();
            // The link depends on the time: checked here, not shown.
            if let Some(o) = r.as_object_mut() {
                o.remove("chain");
            }
        }
        if let Ok(dirs) = std::fs::read_dir(self.state.join("sessions")) {
            for d in dirs.flatten() {
                let log = d.path().join(did_it_actually::store::WRITE_LOG);
                if let Ok(check) = did_it_actually::store::chain::verify(&log) {
                    assert_eq!(check.broken, None, "{}: {check:?}", log.display());
                }
            }
        }
        let records: Vec<String> = records
            .iter()
            .map(|r| serde_json::to_string(r).unwrap())
            .collect();
        redact(&format!(
            "exit: {}\n--- stdout\n{}\n--- stderr\n{}--- records ({})\n{}\n",
            self.exit_code,
            stdout,
            self.stderr,
            records.len(),
            records.join("\n")
        ))
    }
}

pub fn is_root() -> bool {
    std::fs::metadata("/proc/self")
        .map(|m| {
            use std::os::unix::fs::MetadataExt;
            m.uid() == 0
        })
        .unwrap_or(false)
}
