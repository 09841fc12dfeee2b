//! The fault matrix: each hook, run as Claude Code runs it, under each fault a user can
//! meet (a state directory, policy, git, cwd, stdin or transcript that is broken, odd,
//! or hostile), asserting the answer the README promises: a deny with a reason, a block
//! with a reason, a system message, or a reported pass, and never silence, a hang or a
//! stack trace. A new fault is one row in `faults()`.
//!
//! Every cell runs the built binary with a watchdog: a hook still running after
//! [`HANG`] fails the cell (that is the guards' own host timeout; this is not a speed
//! test).

use crate::support;

use serde_json::{json, Value};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::repo::git;

/// A hook still running after this is hung.
const HANG: Duration = Duration::from_secs(10);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Hook {
    VerifyWrite,
    BlockWrongBranch,
    ScopeGuard,
    AuditTurn,
}

const HOOKS: [Hook; 4] = [
    Hook::VerifyWrite,
    Hook::BlockWrongBranch,
    Hook::ScopeGuard,
    Hook::AuditTurn,
];

impl Hook {
    fn name(self) -> &'static str {
        match self {
            Hook::VerifyWrite => "verify-write",
            Hook::BlockWrongBranch => "block-wrong-branch",
            Hook::ScopeGuard => "scope-guard",
            Hook::AuditTurn => "audit-turn",
        }
    }
}

/// What the user sees. None of these is silence, except [`Expect::Pass`], which is the
/// answer only where nothing is wrong any more (the record after the disk was freed).
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// A PreToolUse deny whose reason holds the text.
    Deny(&'static str),
    /// A `decision: block` (PostToolUse, Stop) whose reason holds the text.
    Block(&'static str),
    /// A `systemMessage` that holds the text.
    Notice(&'static str),
    /// Exit 2 with the text on stderr (input too broken to name its event).
    Exit2(&'static str),
    /// Exit 0 and no output: the check ran and found nothing wrong.
    Pass,
}

/// One cell's world: a project that is a git repository (on `feat`; `main` protected by
/// the defaults), a state directory, a transcript, and what each hook is asked.
struct Cell {
    dir: PathBuf,
    /// The project: a git repository, the hook's working directory.
    root: PathBuf,
    state: PathBuf,
    transcript: PathBuf,
    /// The `cwd` field of the hook input.
    cwd: Value,
    /// block-wrong-branch's command.
    command: String,
    /// The final message audit-turn audits.
    message: String,
    env: Vec<(&'static str, OsString)>,
    /// RLIMIT_FSIZE for the hook process: a file write past it stops mid-way (EFBIG) as
    /// on a full disk.
    file_size_limit: Option<u64>,
}

struct Fault {
    name: &'static str,
    setup: fn(&mut Cell),
    /// Per hook (in [`HOOKS`] order), the promised answer; None: the fault does not reach
    /// that hook.
    expect: [Option<Expect>; 4],
    /// Checks after the cell's hooks ran (what is on disk, a second run).
    after: Option<fn(&Cell)>,
}

/// What a broken policy gives: the guards deny with the reason, verify-write and
/// audit-turn keep working on the defaults and tell the user.
/// A policy file that cannot be read is not approved, so not in force: every hook keeps
/// the policy in force (here the defaults) and says, once, why the file is not.
fn policy_fault(text: &'static str) -> [Option<Expect>; 4] {
    [
        Some(Expect::Notice(text)),
        Some(Expect::Notice(text)),
        Some(Expect::Notice(text)),
        Some(Expect::Notice(text)),
    ]
}

/// What input the hooks cannot use gives, once the event is known.
fn input_fault(text: &'static str) -> [Option<Expect>; 4] {
    [
        Some(Expect::Block(text)),
        Some(Expect::Deny(text)),
        Some(Expect::Deny(text)),
        Some(Expect::Notice(text)),
    ]
}

fn branch_only(e: Expect) -> [Option<Expect>; 4] {
    [None, Some(e), None, None]
}

fn audit_only(e: Expect) -> [Option<Expect>; 4] {
    [None, None, None, Some(e)]
}

const ON_MAIN: Expect = Expect::Deny("the protected branch main");

fn faults() -> Vec<Fault> {
    let row = |name, setup, expect| Fault {
        name,
        setup,
        expect,
        after: None,
    };
    vec![
        // Stdin.
        row(
            "stdin is empty",
            |c| c.cwd = Value::Null,
            [
                Some(Expect::Exit2("stdin was empty")),
                Some(Expect::Exit2("stdin was empty")),
                Some(Expect::Exit2("stdin was empty")),
                // A stop hook must not block on its own errors: it tells the user.
                Some(Expect::Notice("stdin was empty")),
            ],
        ),
        // The policy.
        row(
            "the policy file is a FIFO with no writer",
            |c| mkfifo(&c.root.join(".did-it-actually.json")),
            policy_fault("FIFO"),
        ),
        row(
            "the policy named by DID_IT_ACTUALLY_POLICY is a FIFO",
            |c| {
                let p = c.dir.join("policy.fifo");
                mkfifo(&p);
                c.env.push(("DID_IT_ACTUALLY_POLICY", p.into()));
            },
            policy_fault("FIFO"),
        ),
        row(
            "the policy file is a directory",
            |c| std::fs::create_dir(c.root.join(".did-it-actually.json")).unwrap(),
            policy_fault("a directory"),
        ),
        row(
            "the policy file is over 1 MiB",
            |c| {
                let padding = " ".repeat(2 << 20);
                write(
                    &c.root.join(".did-it-actually.json"),
                    &format!("{{\"version\": 1{padding}}}"),
                );
            },
            policy_fault("at most 1 MiB"),
        ),
        row(
            "the policy holds a million globs (8 MB)",
            |c| {
                let globs: Vec<String> = (0..1_000_000).map(|i| format!("g{i}/*")).collect();
                let policy = json!({"version": 1, "scope": {"deny": globs}});
                write(&c.root.join(".did-it-actually.json"), &policy.to_string());
            },
            policy_fault("at most 1 MiB"),
        ),
        row(
            "the policy has 257 patterns in a list",
            |c| {
                let globs: Vec<String> = (0..257).map(|i| format!("gen/{i}/**")).collect();
                let policy = json!({"version": 1, "branches": {"protected": globs}});
                write(&c.root.join(".did-it-actually.json"), &policy.to_string());
            },
            policy_fault("a list may hold at most 256"),
        ),
        row(
            "the policy has a pattern of 257 bytes",
            |c| {
                let policy = json!({"version": 1, "scope": {"allow": ["src/**", "x".repeat(257)]}});
                write(&c.root.join(".did-it-actually.json"), &policy.to_string());
            },
            policy_fault("at most 256 bytes"),
        ),
        // The cwd field.
        row("cwd is empty", |c| c.cwd = json!(""), input_fault("`cwd`")),
        row("cwd is \".\"", |c| c.cwd = json!("."), input_fault("`cwd`")),
        row(
            "cwd is relative",
            |c| c.cwd = json!("sub/dir"),
            input_fault("`cwd`"),
        ),
        row(
            "cwd is garbage",
            |c| c.cwd = json!("\u{1}\u{7f}x y"),
            input_fault("`cwd`"),
        ),
        row(
            "cwd holds a NUL byte",
            |c| c.cwd = json!(format!("{}\u{0}x", c.root.display())),
            input_fault("`cwd`"),
        ),
        // The transcript.
        row(
            "the transcript is a FIFO with no writer",
            |c| {
                std::fs::remove_file(&c.transcript).unwrap();
                mkfifo(&c.transcript);
            },
            audit_only(Expect::Notice("not a regular file")),
        ),
        row(
            "the transcript is a directory",
            |c| {
                std::fs::remove_file(&c.transcript).unwrap();
                std::fs::create_dir(&c.transcript).unwrap();
            },
            audit_only(Expect::Notice("not a regular file")),
        ),
        row(
            "the transcript has a 6 MB line: a write after the tests",
            |c| {
                let big = "x".repeat(6 << 20);
                let mut f = std::fs::OpenOptions::new()
                    .append(true)
                    .open(&c.transcript)
                    .unwrap();
                // Claude Code's key order: the message, then the line's type.
                // The file is written in the project (the audit only counts the
                // project's own files as what the tests see).
                let written = c.root.join("big.txt");
                std::fs::write(&written, "x").unwrap();
                writeln!(f, "{}", json!({"message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t9", "name": "Write", "input": {"file_path": written, "content": big}}]}, "type": "assistant"})).unwrap();
                let created = format!("File created successfully at: {}", written.display());
                writeln!(f, "{}", json!({"promptId": "p", "type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t9", "type": "tool_result", "content": created}]}, "toolUseResult": {"type": "create", "filePath": written, "content": big}})).unwrap();
                writeln!(f, "{}", json!({"message": {"role": "assistant", "content": [{"type": "text", "text": c.message}]}, "type": "assistant"})).unwrap();
            },
            audit_only(Expect::Block("before the turn's last write")),
        ),
        // The state directory.
        row(
            "the state directory is a regular file",
            |c| {
                std::fs::remove_dir_all(&c.state).unwrap();
                write(&c.state, "");
            },
            [
                Some(Expect::Notice("could not be recorded")),
                None,
                None,
                Some(Expect::Notice("audit-turn")),
            ],
        ),
        row(
            "the write log is a FIFO with no reader",
            |c| {
                let session = c.state.join("sessions/s");
                std::fs::create_dir_all(&session).unwrap();
                mkfifo(&session.join("writes.jsonl"));
            },
            [
                Some(Expect::Notice("could not be recorded")),
                None,
                None,
                Some(Expect::Notice("FIFO")),
            ],
        ),
        row(
            "the loop state file is a FIFO with no writer",
            |c| {
                let p = did_it_actually::loops::state_path(&c.state, &c.root);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                mkfifo(&p);
            },
            audit_only(Expect::Notice("FIFO")),
        ),
        row(
            "the stop-block counter's lock is a FIFO with no reader",
            |c| {
                let session = c.state.join("sessions/s");
                std::fs::create_dir_all(&session).unwrap();
                mkfifo(&session.join("stop-blocks.lock"));
                // A turn that gets blocked: only a block takes the counter's lock.
                say(c, "I updated `nothing-here.rs`.");
            },
            audit_only(Expect::Notice("FIFO")),
        ),
        row(
            "the stop-block counter is a FIFO with no writer",
            |c| {
                let session = c.state.join("sessions/s");
                std::fs::create_dir_all(&session).unwrap();
                mkfifo(&session.join("stop-blocks.json"));
                // A turn that gets blocked: the counter is read, then replaced.
                say(c, "I updated `nothing-here.rs`.");
            },
            audit_only(Expect::Block("nothing-here.rs")),
        ),
        Fault {
            name: "the disk fills up in the middle of a record, then space is freed",
            setup: |c| {
                // One record is there; the limit falls inside the next one.
                let session = c.state.join("sessions/s");
                std::fs::create_dir_all(&session).unwrap();
                let first = record_line("t0");
                let pad = 4096 - 200 - first.len();
                write(
                    &session.join("writes.jsonl"),
                    &format!("{first}{}\n", " ".repeat(pad - 1)),
                );
                c.file_size_limit = Some(4096);
            },
            expect: [
                Some(Expect::Notice("could not be recorded")),
                None,
                None,
                None,
            ],
            after: Some(|c| {
                c_run_again_and_check_log(c);
            }),
        },
        // Git: an operation on main is in progress.
        row(
            "main mid-rebase (merge backend): git rebase --continue",
            |c| {
                rebase_main(c, &[]);
                c.command = "git rebase --continue".into();
            },
            branch_only(ON_MAIN),
        ),
        row(
            "main mid-rebase (merge backend): git rebase --skip",
            |c| {
                rebase_main(c, &[]);
                c.command = "git rebase --skip".into();
            },
            branch_only(ON_MAIN),
        ),
        row(
            "main mid-rebase (merge backend): git commit",
            |c| {
                rebase_main(c, &[]);
                c.command = "git add -A && git commit -m resolved".into();
            },
            branch_only(ON_MAIN),
        ),
        row(
            "main mid-rebase (apply backend): git rebase --continue",
            |c| {
                rebase_main(c, &["--apply"]);
                c.command = "git rebase --continue".into();
            },
            branch_only(ON_MAIN),
        ),
        row(
            "main mid-rebase, feat checked out meanwhile: git rebase --continue",
            |c| {
                git(&c.root, &["checkout", "-q", "main"]);
                git(&c.root, &["commit", "-q", "--allow-empty", "-m", "main 2"]);
                let mut cmd = support::repo::git_command(&c.root);
                cmd.args(["rebase", "-q", "-i", "HEAD~1"])
                    .env("GIT_SEQUENCE_EDITOR", "sed -i s/^pick/edit/");
                assert!(cmd.output().unwrap().status.success());
                git(&c.root, &["checkout", "-q", "feat"]);
                c.command = "git rebase --continue".into();
            },
            branch_only(ON_MAIN),
        ),
        row(
            "main mid-bisect: git commit",
            |c| {
                git(&c.root, &["checkout", "-q", "main"]);
                git(&c.root, &["bisect", "start", "HEAD", "HEAD~1"]);
                c.command = "git commit --allow-empty -m x".into();
            },
            branch_only(ON_MAIN),
        ),
        row(
            "main mid-cherry-pick: git cherry-pick --continue",
            |c| {
                conflict_on_main(c, "cherry-pick");
                c.command = "git cherry-pick --continue".into();
            },
            branch_only(ON_MAIN),
        ),
        row(
            "main mid-revert: git revert --continue",
            |c| {
                git(&c.root, &["checkout", "-q", "main"]);
                std::fs::write(c.root.join("f.txt"), "main 2\n").unwrap();
                git(&c.root, &["commit", "-q", "-am", "main 2"]);
                let out = support::repo::git_command(&c.root)
                    .args(["revert", "--no-edit", "HEAD~1"])
                    .output()
                    .unwrap();
                assert!(
                    !out.status.success(),
                    "the revert should stop on a conflict"
                );
                c.command = "git revert --continue".into();
            },
            branch_only(ON_MAIN),
        ),
        row(
            "main mid-am: git am --continue",
            |c| {
                let patch = git(&c.root, &["format-patch", "-1", "--stdout", "feat"]);
                write(&c.dir.join("p.patch"), &format!("{patch}\n"));
                git(&c.root, &["checkout", "-q", "main"]);
                std::fs::write(c.root.join("f.txt"), "main 2\n").unwrap();
                git(&c.root, &["commit", "-q", "-am", "main 2"]);
                let out = support::repo::git_command(&c.root)
                    .arg("am")
                    .arg(c.dir.join("p.patch"))
                    .output()
                    .unwrap();
                assert!(!out.status.success(), "git am should stop on a conflict");
                c.command = "git am --continue".into();
            },
            branch_only(ON_MAIN),
        ),
    ]
}

/// Makes main's last commit conflict with feat's, and starts `op` of feat's onto main.
fn conflict_on_main(c: &Cell, op: &str) {
    git(&c.root, &["checkout", "-q", "main"]);
    std::fs::write(c.root.join("f.txt"), "main 2\n").unwrap();
    git(&c.root, &["commit", "-q", "-am", "main 2"]);
    let out = support::repo::git_command(&c.root)
        .args([op, "feat"])
        .output()
        .unwrap();
    assert!(!out.status.success(), "the {op} should stop on a conflict");
}

/// Starts a rebase of main onto feat that stops on a conflict (HEAD detached).
fn rebase_main(c: &Cell, extra: &[&str]) {
    git(&c.root, &["checkout", "-q", "main"]);
    std::fs::write(c.root.join("f.txt"), "main 2\n").unwrap();
    git(&c.root, &["commit", "-q", "-am", "main 2"]);
    let out = support::repo::git_command(&c.root)
        .arg("rebase")
        .args(extra)
        .arg("feat")
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "the rebase should stop on a conflict"
    );
    let backend = if extra.is_empty() {
        "rebase-merge"
    } else {
        "rebase-apply"
    };
    assert_eq!(
        std::fs::read_to_string(c.root.join(".git").join(backend).join("head-name")).unwrap(),
        "refs/heads/main\n"
    );
}

/// A record as verify-write writes it.
fn record_line(tool_use_id: &str) -> String {
    format!(
        "{}\n",
        json!({"v": 1, "time": "2026-11-30T00:00:00.000Z", "session": "s", "prompt_id": "p",
            "tool_use_id": tool_use_id, "event": "PostToolUse", "tool": "Write", "path": "/p/a.txt",
            "op": "write", "verified": true, "outcome": "landed", "reason": null,
            "sha256": "00", "size": 6})
    )
}

/// After the failed append: with space again, the next record lands whole, and every
/// line of the log is a record (the failed one left nothing behind).
fn c_run_again_and_check_log(c: &Cell) {
    let again = Cell {
        file_size_limit: None,
        ..clone_cell(c)
    };
    let out = run(&again, Hook::VerifyWrite, Some("toolu_again"));
    if let Err(e) = judge(Hook::VerifyWrite, Expect::Pass, &out) {
        panic!("the record after: {e}");
    }
    let log = std::fs::read_to_string(c.state.join("sessions/s/writes.jsonl")).unwrap();
    let ids: Vec<String> = log
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let r: Value = serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("a line of the log is not a record ({e}): {l:.200}"));
            r["tool_use_id"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(ids, ["t0", "toolu_again"]);
}

fn clone_cell(c: &Cell) -> Cell {
    Cell {
        dir: c.dir.clone(),
        root: c.root.clone(),
        state: c.state.clone(),
        transcript: c.transcript.clone(),
        cwd: c.cwd.clone(),
        command: c.command.clone(),
        message: c.message.clone(),
        env: c.env.clone(),
        file_size_limit: c.file_size_limit,
    }
}

/// Ends the turn with another final message (in the transcript too, so audit-turn does
/// not wait for it to appear).
fn say(c: &mut Cell, text: &str) {
    c.message = text.to_owned();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&c.transcript)
        .unwrap();
    let line = json!({"message": {"role": "assistant", "content": [{"type": "text", "text": text}]}, "type": "assistant"});
    writeln!(f, "{line}").unwrap();
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(
        unsafe { libc::mkfifo(c.as_ptr(), 0o600) },
        0,
        "mkfifo {path:?}"
    );
}

/// A fresh world: the project is a git repository with main and feat (one commit each
/// touching `f.txt`), feat checked out; a clean transcript whose turn ran the tests.
fn cell(n: usize) -> Cell {
    let dir = crate::support::scratch_root().join(format!("dia-matrix-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let root = dir.join("project");
    let state = dir.join("state");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&state).unwrap();
    let root = std::fs::canonicalize(root).unwrap();
    git(&root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join("f.txt"), "one\n").unwrap();
    git(&root, &["add", "."]);
    git(&root, &["commit", "-q", "-m", "one"]);
    git(&root, &["checkout", "-q", "-b", "feat"]);
    std::fs::write(root.join("f.txt"), "feat\n").unwrap();
    git(&root, &["commit", "-q", "-am", "feat"]);
    std::fs::write(root.join("a.txt"), "hello\n").unwrap();
    let transcript = dir.join("transcript.jsonl");
    let message = "Done. All tests pass.".to_owned();
    let lines = [
        json!({"promptId": "p", "type": "user", "timestamp": "2026-11-30T02:00:00.000Z", "message": {"role": "user", "content": "run the tests"}}),
        json!({"message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cargo test"}}]}, "type": "assistant"}),
        json!({"promptId": "p", "type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t1", "type": "tool_result", "content": "test result: ok. 3 passed; 0 failed", "is_error": false}]}}),
        json!({"message": {"role": "assistant", "content": [{"type": "text", "text": message}]}, "type": "assistant"}),
    ];
    write(
        &transcript,
        &lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    );
    Cell {
        dir,
        cwd: json!(root),
        root,
        state,
        transcript,
        command: "git push origin HEAD:main".into(),
        message,
        env: Vec::new(),
        file_size_limit: None,
    }
}

/// The hook input each hook gets in a cell. A `cwd` of null leaves the input empty.
fn stdin(c: &Cell, hook: Hook, tool_use_id: Option<&str>) -> String {
    if c.cwd.is_null() {
        return String::new();
    }
    let base = json!({"session_id": "s", "prompt_id": "p", "cwd": c.cwd,
        "transcript_path": c.transcript, "tool_use_id": tool_use_id.unwrap_or("toolu_1")});
    let mut v = base;
    let extra = match hook {
        Hook::VerifyWrite => {
            let path = c.root.join("a.txt");
            json!({"hook_event_name": "PostToolUse", "tool_name": "Write",
                "tool_input": {"file_path": path, "content": "hello\n"},
                "tool_response": {"type": "create", "filePath": path, "content": "hello\n"}})
        }
        Hook::BlockWrongBranch => json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": c.command}}),
        Hook::ScopeGuard => json!({"hook_event_name": "PreToolUse", "tool_name": "Write",
            "tool_input": {"file_path": "/etc/did-it-actually-matrix", "content": "x"}}),
        Hook::AuditTurn => json!({"hook_event_name": "Stop", "stop_hook_active": false,
            "last_assistant_message": c.message}),
    };
    for (k, val) in extra.as_object().unwrap() {
        v[k] = val.clone();
    }
    v.to_string()
}

/// Runs a hook in a cell: (exit code, stdout, stderr). Fails the cell on a hang.
fn run(c: &Cell, hook: Hook, tool_use_id: Option<&str>) -> (i32, String, String) {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_did-it-actually"));
    cmd.arg(hook.name())
        .current_dir(&c.root)
        .env("DID_IT_ACTUALLY_STATE_DIR", &c.state)
        .env("HOME", &c.dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .env_remove("XDG_STATE_HOME")
        .envs(c.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(limit) = c.file_size_limit {
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let lim = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let mut child = cmd.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let input = stdin(c, hook, tool_use_id);
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let reader = std::thread::spawn(move || child.wait_with_output().unwrap());
    let start = Instant::now();
    while !reader.is_finished() {
        if start.elapsed() > HANG {
            // SAFETY: our own child, still running (not reaped: wait has not returned).
            unsafe { libc::kill(pid, libc::SIGKILL) };
            let _ = reader.join();
            let _ = writer.join();
            return (
                -9,
                String::new(),
                format!("hung: killed after {} s", HANG.as_secs()),
            );
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    writer.join().unwrap();
    let out = reader.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether what the hook printed is the expected answer; Err says what it was instead.
fn judge(hook: Hook, expect: Expect, out: &(i32, String, String)) -> Result<(), String> {
    let (code, stdout, stderr) = out;
    let json: Option<Value> = serde_json::from_str(stdout).ok();
    let field = |ptr: &str| {
        json.as_ref()
            .and_then(|v| v.pointer(ptr))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let ok = match expect {
        Expect::Deny(text) => {
            *code == 0
                && field("/hookSpecificOutput/permissionDecision") == "deny"
                && field("/hookSpecificOutput/permissionDecisionReason").contains(text)
                && field("/hookSpecificOutput/permissionDecisionReason").starts_with(hook.name())
        }
        Expect::Block(text) => {
            *code == 0 && field("/decision") == "block" && field("/reason").contains(text)
        }
        Expect::Notice(text) => *code == 0 && field("/systemMessage").contains(text),
        Expect::Exit2(text) => *code == 2 && stderr.contains(text) && stdout.is_empty(),
        Expect::Pass => *code == 0 && stdout.is_empty() && stderr.is_empty(),
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "expected {expect:?}, got exit {code}, stdout {stdout:.600}, stderr {stderr:.300}"
        ))
    }
}

#[test]
fn every_hook_under_every_fault_answers_as_promised() {
    let faults = faults();
    let mut cells = 0;
    let mut failures = Vec::new();
    for (n, fault) in faults.iter().enumerate() {
        let mut c = cell(n);
        (fault.setup)(&mut c);
        for (hook, expect) in HOOKS.iter().zip(fault.expect) {
            let Some(expect) = expect else { continue };
            cells += 1;
            let out = run(&c, *hook, None);
            if let Err(e) = judge(*hook, expect, &out) {
                failures.push(format!("{} × {}: {e}", hook.name(), fault.name));
            }
        }
        if let Some(after) = fault.after {
            if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| after(&c)))
            {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{} (after): {msg}", fault.name));
            }
        }
        // A FIFO left in the tree is harmless to remove_dir_all.
        let _ = std::fs::remove_dir_all(&c.dir);
    }
    eprintln!("fault matrix: {} faults, {cells} cells", faults.len());
    assert!(
        failures.is_empty(),
        "{} of {cells} cells broke a promise:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
