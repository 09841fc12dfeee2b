//! `did-it-actually install` / `uninstall` against real settings files, one fixture
//! directory per case under `tests/fixtures/settings/<case>/`:
//!
//! - `before.json`: the settings file before the first step, byte for byte (it may be
//!   empty, oddly formatted or invalid). Instead of it, `absent` (there is no settings
//!   file) or `generate` (the test generates a settings file of about 1 MiB).
//! - `args` (optional, one line): arguments added to every step, e.g. `--hooks verify-write`.
//!   `--local` and `--user` select the file the case is about (`before.json` goes there;
//!   with `--user`, HOME is a scratch directory and `--project` is not passed).
//! - `steps` (optional, one line, default `install`): `install` and `uninstall` words, run
//!   in order; the words after one of them, up to the next, are that step's own arguments
//!   (`install --hooks verify-write install`).
//! - `readonly` (optional): `file` (the settings file is mode 0444) or `dir` (its directory
//!   is mode 0555). Root ignores both, so when the tests run as root the whole scratch tree
//!   is given to uid 65534 and the binary runs as that user (`setpriv`).
//! - `mode` (optional): the settings file's octal mode before the first step.
//! - `symlink` (optional): the settings file is a symlink with this target (relative to the
//!   `.claude` directory); `before.json` is written to the target.
//! - `claude` (optional, one line): PATH holds a fake `claude` that prints this as its
//!   `--version`. Without it, PATH holds no `claude` at all.
//!
//! Every step runs the built binary with `--project <scratch project> --binary
//! /opt/did-it-actually/bin/did-it-actually`. One snapshot per case
//! (`settings_merge__case@<case>.snap`) records each step's exit code, stdout and stderr
//! (scratch paths redacted), the settings file afterwards, the backup, and every file in
//! the scratch tree. Beside the snapshots, invariants are checked in code for every case:
//! a refused step leaves the file byte-identical and makes no backup; `--dry-run` writes
//! nothing, exits as the real run does and prints the file the real run writes; a step that
//! changes no JSON value does not rewrite the file; uninstall creates no file; installing again
//! changes no byte; install then uninstall gives the value uninstall alone gives (the
//! original's, when it has no entries of ours); and every foreign handler, top-level key and
//! event survives install in the same relative order.

use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");
const INSTALLED: &str = "/opt/did-it-actually/bin/did-it-actually";
const HOOK_NAMES: [&str; 4] = [
    "verify-write",
    "block-wrong-branch",
    "scope-guard",
    "audit-turn",
];
const BACKUP_SUFFIX: &str = ".did-it-actually.bak";
/// Beyond this, the snapshot summarizes the settings file instead of quoting it.
const QUOTE_LIMIT: usize = 64 * 1024;
const NOBODY: u32 = 65534;

/// The cases the brief asks for; each must have a fixture directory.
const REQUIRED: &[&str] = &[
    "empty-file",
    "whitespace-only",
    "absent-file",
    "empty-object",
    "foreign-same-events",
    "foreign-identical-matchers",
    "foreign-stop",
    "old-binary-path-exec",
    "old-shell-form",
    "ours-under-other-matcher",
    "duplicated-old-entries",
    "tabs-no-final-newline",
    "crlf-line-endings",
    "compact-one-line",
    "unicode",
    "top-level-key-order",
    "hooks-is-array",
    "event-is-object",
    "invalid-trailing-comma",
    "invalid-unterminated",
    "readonly-file",
    "install-twice",
    "uninstall-after-install",
    "uninstall-without-our-entries",
    "uninstall-without-our-entries-hand-formatted",
    "hooks-verify-write-only",
    "hooks-then-full-install",
    "no-fail-closed",
    "dry-run",
    "local",
    "user",
    "long-lines",
    "one-megabyte",
];

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/settings")
}

// ---------------------------------------------------------------------------------------
// Cases

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ReadOnly {
    File,
    Dir,
}

#[derive(Clone, Debug)]
struct Step {
    sub: String,
    extra: Vec<String>,
}

#[derive(Debug)]
struct Case {
    name: String,
    /// None: no settings file.
    before: Option<Vec<u8>>,
    args: Vec<String>,
    steps: Vec<Step>,
    readonly: Option<ReadOnly>,
    mode: Option<u32>,
    symlink: Option<String>,
    claude: Option<String>,
    generated: bool,
}

impl Case {
    fn user(&self) -> bool {
        self.args.iter().any(|a| a == "--user")
    }
    fn local(&self) -> bool {
        self.args.iter().any(|a| a == "--local")
    }
    fn as_nobody(&self) -> bool {
        self.readonly.is_some() && is_root()
    }
}

fn one_line(dir: &Path, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(name)).ok()?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(
        lines.len() == 1,
        "{}: `{name}` must hold one line",
        dir.display()
    );
    Some(lines[0].trim().to_owned())
}

fn load(dir: &Path) -> Case {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let known = [
        "before.json",
        "absent",
        "generate",
        "args",
        "steps",
        "readonly",
        "mode",
        "symlink",
        "claude",
    ];
    for entry in std::fs::read_dir(dir).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            known.contains(&file.as_str()),
            "{name}: unknown fixture file `{file}` (known: {known:?})"
        );
    }
    let sources = ["before.json", "absent", "generate"]
        .iter()
        .filter(|f| dir.join(f).exists())
        .count();
    assert_eq!(
        sources, 1,
        "{name}: exactly one of before.json, absent, generate"
    );
    let generated = dir.join("generate").exists();
    let before = if generated {
        Some(one_megabyte())
    } else {
        std::fs::read(dir.join("before.json")).ok()
    };
    let args: Vec<String> = one_line(dir, "args")
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let mut steps: Vec<Step> = Vec::new();
    for word in one_line(dir, "steps")
        .unwrap_or_else(|| "install".into())
        .split_whitespace()
    {
        if word == "install" || word == "uninstall" {
            steps.push(Step {
                sub: word.to_owned(),
                extra: Vec::new(),
            });
        } else {
            steps
                .last_mut()
                .unwrap_or_else(|| panic!("{name}: `steps` must start with install or uninstall"))
                .extra
                .push(word.to_owned());
        }
    }
    let readonly = one_line(dir, "readonly").map(|r| match r.as_str() {
        "file" => ReadOnly::File,
        "dir" => ReadOnly::Dir,
        other => panic!("{name}: readonly is `file` or `dir`, not `{other}`"),
    });
    let mode = one_line(dir, "mode").map(|m| u32::from_str_radix(&m, 8).unwrap());
    let symlink = one_line(dir, "symlink");
    let claude = one_line(dir, "claude");
    assert!(
        !(before.is_none()
            && (mode.is_some() || symlink.is_some() || readonly == Some(ReadOnly::File))),
        "{name}: mode, symlink and readonly=file need a settings file"
    );
    Case {
        name,
        before,
        args,
        steps,
        readonly,
        mode,
        symlink,
        claude,
        generated,
    }
}

fn cases() -> Vec<Case> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.iter().map(|d| load(d)).collect()
}

/// About 1 MiB of foreign settings in the layout the tool writes, with foreign hooks on
/// the events the install touches.
fn one_megabyte() -> Vec<u8> {
    let allow: Vec<Value> = (0..14_000)
        .map(|i| Value::String(format!("Bash(./scripts/generated-task-{i:05}.sh --flag:*)")))
        .collect();
    let mut env = Map::new();
    for i in 0..2_000 {
        env.insert(
            format!("GENERATED_{i:04}"),
            Value::String(format!("value-{i}-{}", "v".repeat(100))),
        );
    }
    let mut groups = Vec::new();
    for i in 0..200 {
        groups.push(serde_json::json!({
            "matcher": format!("Tool{i}"),
            "hooks": [{"type": "command", "command": format!("/usr/local/bin/hook-{i}"), "timeout": 5}]
        }));
    }
    let settings = serde_json::json!({
        "permissions": {"allow": allow, "deny": ["Read(./.env)"]},
        "env": env,
        "hooks": {
            "PreToolUse": groups.clone(),
            "PostToolUse": groups,
            "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
        },
        "model": "opus"
    });
    let mut text = serde_json::to_string_pretty(&settings).unwrap();
    text.push('\n');
    assert!(text.len() >= 1 << 20, "{} bytes", text.len());
    text.into_bytes()
}

// ---------------------------------------------------------------------------------------
// Scratch trees and runs

fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

struct Scratch {
    root: PathBuf,
    project: PathBuf,
    home: PathBuf,
    target: PathBuf,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        // A read-only directory would stop the removal when not running as root.
        let _ = std::fs::set_permissions(
            self.target.parent().unwrap(),
            std::fs::Permissions::from_mode(0o755),
        );
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

impl Scratch {
    fn backup(&self) -> PathBuf {
        PathBuf::from(format!("{}{BACKUP_SUFFIX}", self.target.display()))
    }
    fn redact(&self, text: &str) -> String {
        crate::support::redact_runtime_dir(&text.replace(self.root.to_str().unwrap(), "[SCRATCH]"))
    }
}

fn scratch(case: &Case, purpose: &str) -> Scratch {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let root = crate::support::scratch_root().join(format!(
        "dia-settings-{}-{}-{}-{purpose}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed),
        case.name
    ));
    let _ = std::fs::remove_dir_all(&root);
    let project = root.join("project");
    let home = root.join("home");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(root.join("state")).unwrap();
    std::fs::create_dir_all(root.join("bin")).unwrap();
    if let Some(version) = &case.claude {
        use std::os::unix::fs::PermissionsExt;
        let claude = root.join("bin/claude");
        std::fs::write(&claude, format!("#!/bin/sh\necho '{version}'\n")).unwrap();
        std::fs::set_permissions(&claude, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let target = if case.user() {
        home.join(".claude/settings.json")
    } else if case.local() {
        project.join(".claude/settings.local.json")
    } else {
        project.join(".claude/settings.json")
    };
    let s = Scratch {
        root,
        project,
        home,
        target,
    };
    let claude = s.target.parent().unwrap();
    if let Some(before) = &case.before {
        std::fs::create_dir_all(claude).unwrap();
        match &case.symlink {
            Some(link) => {
                let real = claude.join(link);
                std::fs::create_dir_all(real.parent().unwrap()).unwrap();
                std::fs::write(&real, before).unwrap();
                std::os::unix::fs::symlink(link, &s.target).unwrap();
            }
            None => std::fs::write(&s.target, before).unwrap(),
        }
    }
    s
}

/// Applies the case's `mode` and `readonly` (after the tree is handed to the user the
/// binary runs as).
fn restrict(case: &Case, s: &Scratch) {
    use std::os::unix::fs::PermissionsExt;
    if case.as_nobody() {
        chown_tree(&s.root);
    }
    if let Some(mode) = case.mode {
        std::fs::set_permissions(&s.target, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    match case.readonly {
        Some(ReadOnly::File) => {
            std::fs::set_permissions(&s.target, std::fs::Permissions::from_mode(0o444)).unwrap()
        }
        Some(ReadOnly::Dir) => std::fs::set_permissions(
            s.target.parent().unwrap(),
            std::fs::Permissions::from_mode(0o555),
        )
        .unwrap(),
        None => {}
    }
}

fn chown_tree(dir: &Path) {
    std::os::unix::fs::lchown(dir, Some(NOBODY), Some(NOBODY)).unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && !path.is_symlink() {
            chown_tree(&path);
        } else {
            std::os::unix::fs::lchown(&path, Some(NOBODY), Some(NOBODY)).unwrap();
        }
    }
}

fn step_args(case: &Case, s: &Scratch, step: &Step) -> Vec<String> {
    let mut args = vec![step.sub.clone()];
    if !case.user() {
        args.push("--project".into());
        args.push(s.project.to_str().unwrap().into());
    }
    // `--binary` is install's (uninstall takes only where and what to remove).
    if step.sub == "install" {
        args.push("--binary".into());
        args.push(INSTALLED.into());
    }
    args.extend(case.args.iter().cloned());
    args.extend(step.extra.iter().cloned());
    args
}

fn run(case: &Case, s: &Scratch, args: &[String]) -> Output {
    let mut cmd = if case.as_nobody() {
        let mut c = Command::new(setpriv());
        c.args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
            BIN,
        ]);
        c
    } else {
        Command::new(BIN)
    };
    cmd.args(args)
        .current_dir(&s.project)
        .env("HOME", &s.home)
        .env("DID_IT_ACTUALLY_STATE_DIR", s.root.join("state"))
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .env_remove("XDG_STATE_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env("NO_COLOR", "1")
        // No `claude` but the case's: install asks the one on PATH for its version.
        .env("PATH", s.root.join("bin"))
        .output()
        .unwrap()
}

fn setpriv() -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .chain([PathBuf::from("/usr/bin"), PathBuf::from("/bin")])
        .map(|d| d.join("setpriv"))
        .find(|p| p.is_file())
        .expect("setpriv (util-linux) runs the read-only cases as uid 65534")
}

/// Everything under the scratch root but the state directory: relative path -> what it is.
fn tree(s: &Scratch) -> BTreeMap<String, String> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if rel == "state" || rel == "bin" {
                continue;
            }
            if path.is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                out.insert(rel, format!("symlink -> {}", target.display()));
            } else if path.is_dir() {
                out.insert(format!("{rel}/"), "dir".into());
                walk(base, &path, out);
            } else {
                // A file that names the scratch directory (the run-time layer's env in
                // settings.local.json) is sized as it reads with the paths redacted.
                let bytes = std::fs::read(&path).unwrap();
                let len = match std::str::from_utf8(&bytes) {
                    Ok(t) if t.contains(base.to_str().unwrap()) => {
                        crate::support::redact_runtime_dir(
                            &t.replace(base.to_str().unwrap(), "[SCRATCH]"),
                        )
                        .len()
                    }
                    _ => bytes.len(),
                };
                out.insert(rel, format!("{len} bytes"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&s.root, &s.root, &mut out);
    out
}

#[derive(Clone, Debug, PartialEq)]
struct State {
    file: Option<Vec<u8>>,
    backup: Option<Vec<u8>>,
    tree: BTreeMap<String, String>,
}

fn state(s: &Scratch) -> State {
    State {
        file: std::fs::read(&s.target).ok(),
        backup: std::fs::read(s.backup()).ok(),
        tree: tree(s),
    }
}

/// The value of settings text as Claude Code would read it (empty = `{}`); None when it
/// is not JSON.
fn value(bytes: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(bytes).ok()?;
    if text.trim().is_empty() {
        return Some(Value::Object(Map::new()));
    }
    serde_json::from_str(text).ok()
}

// ---------------------------------------------------------------------------------------
// An independent notion of "ours", for the invariants

fn is_ours(handler: &Value) -> bool {
    let Some(command) = handler.get("command").and_then(Value::as_str) else {
        return false;
    };
    // Exec form: the whole command is the program. Shell form (no `args`): its first
    // word, with a hook name as the second word when the program is the binary.
    let args = handler.get("args").and_then(Value::as_array);
    let mut words = command.split_whitespace();
    let program = if args.is_some() {
        command
    } else {
        words.next().unwrap_or("")
    };
    let base = program.rsplit(['/', '\\']).next().unwrap_or(program);
    if base == "did-it-actually" {
        let first = match args {
            Some(a) => a.first().and_then(Value::as_str),
            None => words.next(),
        };
        return first.is_some_and(|a| HOOK_NAMES.contains(&a));
    }
    HOOK_NAMES.contains(&base)
}

/// Every handler that is not ours, in document order, with its event and matcher.
fn foreign_handlers(settings: &Value) -> Vec<(String, Value, Value)> {
    let mut out = Vec::new();
    let Some(events) = settings.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event, groups) in events {
        for group in groups.as_array().into_iter().flatten() {
            let matcher = group.get("matcher").cloned().unwrap_or(Value::Null);
            for h in group
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !is_ours(h) {
                    out.push((event.clone(), matcher.clone(), h.clone()));
                }
            }
        }
    }
    out
}

fn has_ours(settings: &Value) -> bool {
    settings
        .get("hooks")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|e| e.values())
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|g| g.get("hooks").and_then(Value::as_array))
        .flatten()
        .any(is_ours)
}

fn top_level_without_hooks(settings: &Value) -> Vec<(String, Value)> {
    settings
        .as_object()
        .map(|m| {
            m.iter()
                .filter(|(k, _)| *k != "hooks")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default()
}

fn event_names(settings: &Value) -> Vec<String> {
    settings
        .get("hooks")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------
// Running one case

fn show_bytes(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    // Line endings and a missing final newline would be invisible in a snapshot.
    let mut shown = text.replace('\r', "␍");
    if !shown.is_empty() && !shown.ends_with('\n') {
        shown.push_str("⏎ (no newline at end of file)\n");
    }
    shown
}

fn describe_file(s: &Scratch, case: &Case, file: &Option<Vec<u8>>) -> String {
    let mut out = String::new();
    let rel = s.redact(s.target.to_str().unwrap());
    match file {
        None => out.push_str(&format!("--- {rel}: absent\n")),
        Some(bytes) if Some(bytes) == case.before.as_ref() => {
            out.push_str(&format!("--- {rel}: byte-identical to before\n"))
        }
        Some(bytes) if bytes.len() > QUOTE_LIMIT => {
            out.push_str(&format!("--- {rel}: {} bytes (summary)\n", bytes.len()));
            let after = value(bytes).expect("the tool writes JSON");
            let before = value(case.before.as_deref().unwrap()).unwrap();
            out.push_str(&format!(
                "top-level keys: {:?}\n",
                after.as_object().unwrap().keys().collect::<Vec<_>>()
            ));
            out.push_str(&format!(
                "every top-level key but hooks equal to before: {}\n",
                top_level_without_hooks(&after) == top_level_without_hooks(&before)
            ));
            out.push_str(&format!(
                "foreign handlers equal to before, in order: {}\n",
                foreign_handlers(&after) == foreign_handlers(&before)
            ));
            let mut ours = Map::new();
            for (event, groups) in after["hooks"].as_object().unwrap() {
                let kept: Vec<Value> = groups
                    .as_array()
                    .unwrap()
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| g["hooks"].as_array().unwrap().iter().any(is_ours))
                    .map(|(i, g)| serde_json::json!({"group index": i, "group": g}))
                    .collect();
                ours.insert(event.clone(), Value::Array(kept));
            }
            out.push_str("groups holding our handlers:\n");
            out.push_str(&serde_json::to_string_pretty(&ours).unwrap());
            out.push('\n');
        }
        Some(bytes) => {
            out.push_str(&format!("--- {rel}:\n"));
            out.push_str(&show_bytes(bytes));
        }
    }
    out
}

fn check(violations: &mut Vec<String>, ok: bool, what: impl FnOnce() -> String) {
    if !ok {
        violations.push(what());
    }
}

fn is_dry(args: &[String]) -> bool {
    args.iter().any(|a| a == "--dry-run")
}

/// What a `--dry-run` step printed.
struct DryRun {
    step: usize,
    exit_code: i32,
    stdout: Vec<u8>,
}

/// Runs the case's steps, checking the per-step invariants; returns the snapshot text.
fn run_case(case: &Case, violations: &mut Vec<String>, dry_runs: &mut Vec<DryRun>) -> String {
    let s = scratch(case, "steps");
    restrict(case, &s);
    let initial = state(&s);
    let mut snap = String::new();
    if case.generated {
        snap.push_str(&format!(
            "before: generated, {} bytes\n",
            case.before.as_ref().unwrap().len()
        ));
    }
    // Not in the snapshot: the same case runs as the current user when that is not root.
    if case.as_nobody() {
        eprintln!("{}: run as uid 65534, who owns the scratch tree", case.name);
    }
    let mut pre = initial.clone();
    let mut last_install_args: Option<Vec<String>> = None;
    for (i, step) in case.steps.iter().enumerate() {
        let args = step_args(case, &s, step);
        let started = Instant::now();
        let out = run(case, &s, &args);
        let took = started.elapsed();
        let post = state(&s);
        let code = out.status.code().unwrap_or(-1);
        snap.push_str(&format!(
            "$ did-it-actually {}\nexit: {code}\n",
            s.redact(&args.join(" "))
        ));
        for (name, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            if bytes.is_empty() {
                continue;
            }
            let text = s.redact(&String::from_utf8_lossy(bytes));
            if text.len() > QUOTE_LIMIT {
                snap.push_str(&format!("{name}: {} bytes\n", text.len()));
            } else {
                snap.push_str(&format!("{name}:\n{}", show_bytes(text.as_bytes())));
            }
        }
        let n = i + 1;
        check(violations, took < Duration::from_secs(30), || {
            format!("step {n} took {took:?}")
        });
        if is_dry(&args) {
            dry_runs.push(DryRun {
                step: i,
                exit_code: code,
                stdout: out.stdout.clone(),
            });
        }
        if code != 0 || is_dry(&args) {
            let why = if code != 0 {
                "a refused step"
            } else {
                "--dry-run"
            };
            check(violations, post.file == pre.file, || {
                format!("step {n} ({why}) changed the settings file")
            });
            check(violations, post.backup == pre.backup, || {
                format!(
                    "step {n} ({why}) left a backup {}",
                    s.redact(s.backup().to_str().unwrap())
                )
            });
            check(violations, post.tree == pre.tree, || {
                format!(
                    "step {n} ({why}) changed the files: {:?} -> {:?}",
                    pre.tree, post.tree
                )
            });
        } else {
            match (&pre.file, &post.file) {
                (None, None) => {}
                (None, Some(_)) => check(violations, step.sub == "install", || {
                    format!(
                        "step {n} ({}) created a settings file where there was none",
                        step.sub
                    )
                }),
                (Some(_), None) => violations.push(format!("step {n} deleted the settings file")),
                (Some(a), Some(b)) => {
                    let (va, vb) = (value(a), value(b));
                    if va.is_some() && va == vb {
                        check(violations, a == b, || {
                            format!(
                                "step {n} ({}) changed no JSON value but rewrote the file",
                                step.sub
                            )
                        });
                        check(violations, post.backup == pre.backup, || {
                            format!("step {n} ({}) changed nothing but made a backup", step.sub)
                        });
                    }
                }
            }
            if let (Some(b), Some(orig)) = (&post.backup, &initial.file) {
                check(violations, b == orig, || {
                    format!("after step {n} the backup differs from the original")
                });
            }
        }
        last_install_args = (step.sub == "install" && code == 0 && !is_dry(&args)).then_some(args);
        pre = post;
    }

    // The end state.
    let end = state(&s);
    snap.push_str(&describe_file(&s, case, &end.file));
    if let Some(mode) = case.mode {
        use std::os::unix::fs::PermissionsExt;
        let now = std::fs::metadata(&s.target).unwrap().permissions().mode() & 0o777;
        snap.push_str(&format!("mode: {now:o} (was {mode:o})\n"));
        check(violations, now == mode, || {
            format!("the mode changed from {mode:o} to {now:o}")
        });
        if let Ok(meta) = std::fs::metadata(s.backup()) {
            let backup = meta.permissions().mode() & 0o777;
            snap.push_str(&format!("backup mode: {backup:o}\n"));
            check(violations, backup & !mode == 0, || {
                format!("the backup (mode {backup:o}) is readable or writable by more users than the original (mode {mode:o})")
            });
        }
    }
    if case.symlink.is_some() {
        let still = s.target.is_symlink();
        snap.push_str(&format!("still a symlink: {still}\n"));
        check(violations, still, || {
            "the symlinked settings file was replaced by a regular file".into()
        });
    }
    snap.push_str(&match (&end.backup, &case.before) {
        (None, _) => "--- backup: none\n".to_owned(),
        (Some(b), Some(orig)) if b == orig => "--- backup: equals before\n".to_owned(),
        (Some(b), _) => format!("--- backup: DIFFERS from before:\n{}", show_bytes(b)),
    });
    snap.push_str("--- files:\n");
    for (path, what) in &end.tree {
        snap.push_str(&format!("{path}  ({what})\n"));
    }

    // Installing again changes no byte.
    if let Some(args) = last_install_args {
        let out = run(case, &s, &args);
        let again = state(&s);
        check(violations, out.status.success(), || {
            format!(
                "installing again failed: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        check(violations, again == end, || {
            "installing again changed the files".into()
        });
        check(
            violations,
            String::from_utf8_lossy(&out.stdout).contains("already up to date"),
            || {
                format!(
                    "installing again did not say it was up to date: {}",
                    String::from_utf8_lossy(&out.stdout)
                )
            },
        );
    }
    snap
}

/// A dry run says what the real run does: the same exit code, and on success the file the
/// real run leaves.
fn check_dry_runs(case: &Case, dry_runs: &[DryRun], violations: &mut Vec<String>) {
    for dry in dry_runs {
        let s = scratch(case, "dry-run-replay");
        restrict(case, &s);
        for step in &case.steps[..dry.step] {
            run(case, &s, &step_args(case, &s, step));
        }
        let mut args = step_args(case, &s, &case.steps[dry.step]);
        args.retain(|a| a != "--dry-run");
        let out = run(case, &s, &args);
        let n = dry.step + 1;
        let code = out.status.code().unwrap_or(-1);
        check(violations, code == dry.exit_code, || {
            format!(
                "step {n}: --dry-run exited {} but the real run exits {code}: {}",
                dry.exit_code,
                s.redact(&String::from_utf8_lossy(&out.stderr))
            )
        });
        if code == 0 && dry.exit_code == 0 {
            let file = std::fs::read(&s.target).unwrap_or_default();
            check(violations, file == dry.stdout, || {
                format!("step {n}: --dry-run printed another file than the real run writes")
            });
        }
    }
}

/// Install, then uninstall, in fresh scratch trees: the foreign entries survive install in
/// order, uninstall undoes install, and uninstall alone leaves a file without entries of
/// ours as it was.
fn check_round_trip(case: &Case, violations: &mut Vec<String>) {
    if case.readonly.is_some() {
        return;
    }
    let original = match &case.before {
        None => Some(Value::Object(Map::new())),
        Some(b) => value(b),
    };
    let Some(original) = original.filter(Value::is_object) else {
        return;
    };
    let install = case
        .steps
        .iter()
        .find(|s| s.sub == "install")
        .cloned()
        .map(|mut s| {
            s.extra.retain(|a| a != "--dry-run");
            s
        });
    let mut case_args = case.args.clone();
    case_args.retain(|a| a != "--dry-run");
    let plain = Case {
        name: case.name.clone(),
        before: case.before.clone(),
        args: case_args,
        steps: Vec::new(),
        readonly: None,
        mode: case.mode,
        symlink: case.symlink.clone(),
        claude: case.claude.clone(),
        generated: case.generated,
    };
    // The hooks the install (or the case) selected are the ones uninstall removes.
    let hooks_arg: Vec<String> = {
        let extra = install
            .as_ref()
            .map(|s| s.extra.as_slice())
            .unwrap_or_default();
        let all: Vec<&String> = plain.args.iter().chain(extra).collect();
        all.windows(2)
            .filter(|w| w[0] == "--hooks")
            .map(|w| w[1].clone())
            .next_back()
            .map(|h| vec!["--hooks".to_owned(), h])
            .unwrap_or_default()
    };
    let uninstall = Step {
        sub: "uninstall".into(),
        extra: hooks_arg,
    };

    // Uninstall alone.
    let only = scratch(&plain, "uninstall-only");
    let out = run(&plain, &only, &step_args(&plain, &only, &uninstall));
    if !out.status.success() {
        return;
    }
    let uninstalled = std::fs::read(&only.target)
        .ok()
        .and_then(|b| value(&b))
        .unwrap_or_else(|| Value::Object(Map::new()));
    if !has_ours(&original) {
        check(violations, uninstalled == original, || {
            format!(
                "uninstall changed a file without entries of ours:\n{}\nvs\n{}",
                serde_json::to_string(&uninstalled).unwrap(),
                serde_json::to_string(&original).unwrap()
            )
        });
    }

    let Some(install) = install else {
        return;
    };
    let s = scratch(&plain, "round-trip");
    let out = run(&plain, &s, &step_args(&plain, &s, &install));
    if !out.status.success() {
        return;
    }
    let installed = value(&std::fs::read(&s.target).unwrap()).expect("install writes JSON");
    check(
        violations,
        foreign_handlers(&installed) == foreign_handlers(&original),
        || {
            format!(
                "install lost or reordered foreign handlers:\nbefore {:?}\nafter  {:?}",
                foreign_handlers(&original),
                foreign_handlers(&installed)
            )
        },
    );
    check(
        violations,
        top_level_without_hooks(&installed) == top_level_without_hooks(&original),
        || "install changed or reordered the top-level keys other than hooks".into(),
    );
    let kept: Vec<String> = event_names(&installed)
        .into_iter()
        .filter(|e| event_names(&original).contains(e))
        .collect();
    check(violations, kept == event_names(&original), || {
        format!(
            "install lost or reordered events: {:?} -> {:?}",
            event_names(&original),
            event_names(&installed)
        )
    });
    let out = run(&plain, &s, &step_args(&plain, &s, &uninstall));
    check(violations, out.status.success(), || {
        format!(
            "uninstall after install failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    // Where install created the file and nothing else is in it, uninstall removes it.
    let round_trip = match std::fs::read(&s.target) {
        Ok(bytes) => value(&bytes).expect("uninstall writes JSON"),
        Err(_) => serde_json::json!({}),
    };
    // Uninstall removes the event arrays (and the `hooks` object) that removing our
    // entries empties; it cannot know one of them was already empty before install. An
    // empty container means nothing to Claude Code, so the round trip is compared
    // without them.
    let (round_trip, uninstalled) = (
        without_empty_hook_containers(round_trip),
        without_empty_hook_containers(uninstalled),
    );
    check(violations, round_trip == uninstalled, || {
        format!(
            "install + uninstall is not uninstall alone:\n{}\nvs\n{}",
            serde_json::to_string(&round_trip).unwrap(),
            serde_json::to_string(&uninstalled).unwrap()
        )
    });
}

/// `v` without empty event arrays under `hooks`, and without `hooks` if that leaves it
/// empty.
fn without_empty_hook_containers(mut v: Value) -> Value {
    if let Some(top) = v.as_object_mut() {
        if let Some(events) = top.get_mut("hooks").and_then(Value::as_object_mut) {
            events.retain(|_, groups| groups.as_array().is_none_or(|g| !g.is_empty()));
            if events.is_empty() {
                top.remove("hooks");
            }
        }
    }
    v
}

#[test]
fn settings_merge_cases() {
    let cases = cases();
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert!(cases.len() >= 32, "{} cases", cases.len());
    for required in REQUIRED {
        assert!(names.contains(required), "no case `{required}`");
    }
    let mut failures: Vec<String> = Vec::new();
    for case in &cases {
        let mut violations = Vec::new();
        let mut dry_runs = Vec::new();
        let snap = run_case(case, &mut violations, &mut dry_runs);
        check_dry_runs(case, &dry_runs, &mut violations);
        check_round_trip(case, &mut violations);
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_suffix(case.name.clone());
        settings.set_description(format!("tests/fixtures/settings/{}", case.name));
        settings.set_omit_expression(true);
        let snapshot = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            settings.bind(|| insta::assert_snapshot!("case", snap));
        }));
        if snapshot.is_err() {
            violations.push("the snapshot does not match".into());
        }
        for v in violations {
            failures.push(format!("{}: {v}", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
