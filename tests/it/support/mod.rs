//! Helpers shared by the integration tests. Each test binary uses a subset.
#![allow(dead_code)]

#[macro_use]
pub mod agents;
#[macro_use]
pub mod claude;
pub mod fixture;
#[macro_use]
pub mod hosts;
pub mod install_sh;
pub mod mock_api;
pub mod mock_chat;
pub mod mock_gemini;
pub mod mock_responses;
pub mod oracle;
pub mod otlp;
pub mod repo;
pub mod sdk;

/// Where the tests build their scratch worlds: never under a system temp directory
/// (`/tmp`, `/var/tmp`, `$TMPDIR`), which the scope lets an agent write by default, so a
/// world's "outside the project" really is outside; never inside this repository, where
/// git and cargo would find the project; and open to uid 65534, as which some tests run
/// the hook. `/dev/shm` where it exists, else `~/.cache`; `DID_IT_ACTUALLY_TEST_DIR`
/// overrides both.
pub fn scratch_root() -> std::path::PathBuf {
    use std::path::{Path, PathBuf};
    use std::sync::OnceLock;
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = std::env::var_os("DID_IT_ACTUALLY_TEST_DIR")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                let shm = Path::new("/dev/shm");
                shm.is_dir()
                    .then(|| shm.join("did-it-actually-tests"))
                    .filter(|d| std::fs::create_dir_all(d).is_ok())
            })
            .unwrap_or_else(|| {
                let home = std::env::var_os("HOME")
                    .filter(|h| !h.is_empty())
                    .expect("HOME is not set: set DID_IT_ACTUALLY_TEST_DIR to a scratch directory");
                PathBuf::from(home).join(".cache/did-it-actually-tests")
            });
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| {
            panic!(
                "cannot create the test scratch directory {}: {e}",
                dir.display()
            )
        });
        // Sticky and open to all, like /tmp: tests run hooks as another user too.
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o1777));
        std::fs::canonicalize(&dir).unwrap()
    })
    .clone()
}

/// Runs `command` with `stdin` written to it and its stdout and stderr captured. A
/// process that exits before reading all of it (a hook that refuses early) is not a
/// test failure: what it answered is.
pub fn output_with_stdin(
    command: &mut std::process::Command,
    stdin: &[u8],
) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// Replaces the path hash in the run-time layer's directories (`…/git/<name>-<12 hex>/`,
/// a hash of the project's absolute path, which differs in every scratch world) with
/// `[HASH]`, so snapshots hold.
pub fn redact_runtime_dir(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("/git/") {
        let (head, tail) = rest.split_at(i + 5);
        out.push_str(head);
        let end = tail.find('/').unwrap_or(tail.len());
        let name = &tail[..end];
        match name.rsplit_once('-') {
            Some((base, hash))
                if hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit()) =>
            {
                out.push_str(base);
                out.push_str("-[HASH]");
            }
            _ => out.push_str(name),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// `did-it-actually install --project PROJECT --binary BINARY` as a user runs it, with
/// this HOME and state directory (and `GIT_CONFIG_NOSYSTEM`, so the machine's git
/// configuration stays out); returns the variables it registered for the agent's
/// commands (the `env` of `.claude/settings.local.json`): the run-time layer's activation.
pub fn install_run_time(
    project: &std::path::Path,
    home: &std::path::Path,
    state: &std::path::Path,
    binary: &str,
) -> Vec<(String, String)> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
        .args(["install", "--project"])
        .arg(project)
        .args(["--binary", binary])
        .env("HOME", home)
        .env("DID_IT_ACTUALLY_STATE_DIR", state)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("the run-time layer is on"),
        "install --project {}: {stdout}{}",
        project.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let local = project.join(".claude/settings.local.json");
    let settings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(local).unwrap()).unwrap();
    settings["env"]
        .as_object()
        .expect("install --project writes the run-time layer's env")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
        .collect()
}

/// Whether the kernel cannot confine writes here (no Landlock): the run-time layer for
/// writes is then off (install says so), and its tests say why and test nothing.
pub fn confine_unavailable() -> bool {
    match did_it_actually::runtime::confine::available() {
        Ok(_) => false,
        Err(why) => {
            eprintln!("the kernel cannot confine writes here ({why}); nothing to test");
            true
        }
    }
}

/// Copies an executable the tests will run, by a `cp` process. Copied in this process,
/// the file's write descriptor would live in it while other test threads fork: a child
/// that has not yet reached its `exec` holds it open, and running the copy then fails
/// with "Text file busy" (seen as a flake of the whole suite).
pub fn copy_executable(from: &std::path::Path, to: &std::path::Path) {
    let status = std::process::Command::new("cp")
        .arg(from)
        .arg(to)
        .status()
        .unwrap_or_else(|e| panic!("cannot run cp: {e}"));
    assert!(
        status.success(),
        "cp {} {} failed",
        from.display(),
        to.display()
    );
}

/// Every ledger line of a state directory (all sessions' `writes.jsonl`), as JSON.
pub fn ledger_records(state: &std::path::Path) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(state.join("sessions"))
        .into_iter()
        .flatten()
        .flatten()
    {
        if let Ok(text) = std::fs::read_to_string(dir.path().join("writes.jsonl")) {
            out.extend(text.lines().filter_map(|l| serde_json::from_str(l).ok()));
        }
    }
    out
}

/// The rows of a corpus file (`tests/corpus/<file>`): its lines that are not comments or
/// blank, each split into `fields` tab-separated fields (the last takes the rest), with
/// `\n` and `\t` in the last field read as a newline and a tab. A line with fewer fields
/// fails the test, naming the file and line. Returns (line number, fields).
pub fn corpus_rows(file: &str, text: &str, fields: usize) -> Vec<(usize, Vec<String>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let mut parts: Vec<String> = l.splitn(fields, '\t').map(str::to_owned).collect();
            assert_eq!(
                parts.len(),
                fields,
                "tests/corpus/{file}:{}: expected {fields} tab-separated fields",
                i + 1
            );
            let last = parts.pop().unwrap_or_default();
            parts.push(last.replace("\\n", "\n").replace("\\t", "\t"));
            (i + 1, parts)
        })
        .collect()
}

/// A fresh directory outside every place the default policy lets the agent write (not the
/// temp directories, not /dev/shm where the scratch worlds live): under target/, named
/// by `tag` and this process.
pub fn outside_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
