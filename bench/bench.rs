//! Whole-process latency and peak memory of the hooks, one row per case.
//!
//! Run it with `bench/run.sh`, or by hand:
//! `cargo run --release --locked --example bench -- target/release/did-it-actually [--runs N] [--warmup N]`
//!
//! Each run spawns the binary, writes the case's stdin bytes into a pipe, closes it, and
//! reaps the child with `wait4`, which also returns the child's peak RSS. The time measured
//! is from just before the spawn to the return of `wait4`: fork and exec, dynamic loading,
//! reading stdin, the hook itself and exit. stdout and stderr go to /dev/null (a first,
//! unmeasured run checks the case's answer and records, so a broken case cannot bench its
//! error path). The runs are made by a small helper process (this binary with `--measure`)
//! so that the harness's own memory does not leak into `ru_maxrss`: see [`measure`]. The
//! cases' runs are interleaved (round-robin), so slow drift in the machine's state does not
//! favour one case over another. `/bin/true` runs among them as a floor: the cost of any
//! process start on the machine.
//!
//! Every case runs against the same fixture: a project directory (with a `.git` directory,
//! so policy discovery stops there) and a state directory whose session already has a
//! write log of [`LOG_RECORDS`] records. The hook appends to that log, so it is truncated
//! back to exactly those records before every run. The block-wrong-branch cases run in a
//! real scratch repository instead ([`make_repo`]: `main` pushed to a bare `origin`,
//! `feat/x` checked out). Every hook process gets an empty scratch `HOME` (no
//! `.gitconfig`) and no `GIT_*` variables, so the user's git configuration cannot change
//! an answer or the time it takes.
//!
//! To add a hook (scope-guard, audit-turn), add rows to [`CASES`].

use did_it_actually::fsutil::sha256_hex;
use did_it_actually::store::{Operation, Outcome, Record, WriteRecord, RECORD_VERSION, WRITE_LOG};
use serde_json::{json, Value};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// Records in the session's write log before every run.
const LOG_RECORDS: usize = 10_000;
const SESSION: &str = "5f0c2c8e-3b8a-4d7e-9c41-0d6a2f9b7e13";
const PROMPT: &str = "a41d7c3e-92f0-4b6b-8e15-7c0f3d2a9b64";
const DEFAULT_RUNS: usize = 300;
const DEFAULT_WARMUP: usize = 5;

/// One benchmark row.
struct Case {
    name: &'static str,
    /// Arguments after the binary.
    args: &'static [&'static str],
    /// The hook process's working directory. The case's stdin names the same directory as
    /// the event's `cwd` (which is what the hooks read).
    dir: Dir,
    /// Prepares the disk once, before any run (files the hook reads). Runs of all cases are
    /// interleaved, so setups must not conflict (use paths of the case's own).
    setup: fn(&Fixture) -> io::Result<()>,
    /// The bytes written to the hook's stdin.
    stdin: fn(&Fixture) -> Vec<u8>,
    /// What a correct run looks like; checked once, on a run outside the measurements.
    expect: Expect,
}

/// Where a case runs.
#[derive(Clone, Copy)]
enum Dir {
    /// The project directory (an empty `.git` directory, no repository behind it).
    Project,
    /// The work tree of the scratch git repository, on `feat/x`.
    Repo,
}

/// The answer a case must produce.
enum Expect {
    /// Exit 0, nothing on stdout (no objection), and this many records appended to the
    /// write log, each verified.
    Silent { records: usize },
    /// Exit 0 and stdout containing this text.
    Stdout(&'static str),
    /// Exit 0, a PreToolUse `permissionDecision` of `deny` whose reason contains this
    /// text, and no records appended.
    Deny(&'static str),
}

const CASES: &[Case] = &[
    Case {
        name: "verify-write: Write, 100 B",
        args: &["verify-write"],
        dir: Dir::Project,
        setup: |f| put(&f.small_path(99), &small_content(99)),
        stdin: |f| post_tool_use_write(f, &f.small_path(99), &small_content(99)),
        expect: Expect::Silent { records: 1 },
    },
    Case {
        name: "verify-write: Write, 1 MiB",
        args: &["verify-write"],
        dir: Dir::Project,
        setup: |f| put(&f.large_path(), &large_content()),
        stdin: |f| post_tool_use_write(f, &f.large_path(), &large_content()),
        expect: Expect::Silent { records: 1 },
    },
    Case {
        name: "verify-write: Edit, 4 KiB file",
        args: &["verify-write"],
        dir: Dir::Project,
        setup: |f| put(&f.edit_path(), &edited_source()),
        stdin: post_tool_use_edit,
        expect: Expect::Silent { records: 1 },
    },
    Case {
        name: "verify-write: PostToolBatch, 20 Writes",
        args: &["verify-write"],
        dir: Dir::Project,
        setup: |f| (0..BATCH).try_for_each(|i| put(&f.small_path(i), &small_content(i))),
        stdin: post_tool_batch,
        expect: Expect::Silent { records: BATCH },
    },
    Case {
        name: "block-wrong-branch: `ls -la`",
        args: &["block-wrong-branch"],
        dir: Dir::Repo,
        setup: |_| Ok(()),
        stdin: |f| pre_tool_use_bash(f, "ls -la"),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "block-wrong-branch: `cargo test`",
        args: &["block-wrong-branch"],
        dir: Dir::Repo,
        setup: |_| Ok(()),
        stdin: |f| pre_tool_use_bash(f, "cargo test"),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "block-wrong-branch: `git status`",
        args: &["block-wrong-branch"],
        dir: Dir::Repo,
        setup: |_| Ok(()),
        stdin: |f| pre_tool_use_bash(f, "git status"),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "block-wrong-branch: `git push origin feat/x`",
        args: &["block-wrong-branch"],
        dir: Dir::Repo,
        setup: |_| Ok(()),
        stdin: |f| pre_tool_use_bash(f, "git push origin feat/x"),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "block-wrong-branch: 30-segment compound, push to feat/x",
        args: &["block-wrong-branch"],
        dir: Dir::Repo,
        setup: |_| Ok(()),
        stdin: |f| pre_tool_use_bash(f, COMPOUND),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "block-wrong-branch: 100 KiB command (heredoc)",
        args: &["block-wrong-branch"],
        dir: Dir::Repo,
        setup: |_| Ok(()),
        stdin: |f| pre_tool_use_bash(f, &large_command()),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "block-wrong-branch: `git push origin HEAD:main` (denied)",
        args: &["block-wrong-branch"],
        dir: Dir::Repo,
        setup: |_| Ok(()),
        stdin: |f| pre_tool_use_bash(f, "git push origin HEAD:main"),
        expect: Expect::Deny("would push to the protected branch main on origin"),
    },
    Case {
        name: "scope-guard: Write inside the project",
        args: &["scope-guard"],
        dir: Dir::Project,
        setup: |_| Ok(()),
        stdin: |f| pre_tool_use_write(&f.project, &f.project.join("src/new.rs")),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "scope-guard: Write, policy with 200 globs",
        args: &["scope-guard"],
        dir: Dir::Project,
        setup: |f| make_glob_project(&f.glob_project()),
        stdin: |f| pre_tool_use_write(&f.glob_project(), &f.glob_project().join("src/mod99/x.rs")),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "scope-guard: Bash `cargo fmt && echo ok > src/out.txt`",
        args: &["scope-guard"],
        dir: Dir::Project,
        setup: |_| Ok(()),
        stdin: |f| {
            let mut v: Value =
                serde_json::from_slice(&pre_tool_use_bash(f, "cargo fmt && echo ok > src/out.txt"))
                    .unwrap();
            v["cwd"] = json!(f.project);
            serde_json::to_vec(&v).unwrap()
        },
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "scope-guard: Write outside the root (denied)",
        args: &["scope-guard"],
        dir: Dir::Project,
        setup: |_| Ok(()),
        stdin: |f| pre_tool_use_write(&f.project, Path::new("/etc/bench-outside.txt")),
        expect: Expect::Deny("outside the project root"),
    },
    Case {
        name: "audit-turn: clean 20-call turn, 1 MiB transcript",
        args: &["audit-turn"],
        dir: Dir::Project,
        setup: |f| make_transcript(&f.transcript(1), 1),
        stdin: |f| stop_input(f, &f.transcript(1)),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "audit-turn: same turn, 100 MiB transcript",
        args: &["audit-turn"],
        dir: Dir::Project,
        setup: |f| make_transcript(&f.transcript(100), 100),
        stdin: |f| stop_input(f, &f.transcript(100)),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "audit-turn: same turn, 500 MiB transcript",
        args: &["audit-turn"],
        dir: Dir::Project,
        setup: |f| make_transcript(&f.transcript(500), 500),
        stdin: |f| stop_input(f, &f.transcript(500)),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "audit-turn: claimless message, missing transcript",
        args: &["audit-turn"],
        dir: Dir::Project,
        setup: |_| Ok(()),
        stdin: |f| stop_input_with(f, &f.project.join("no-such-transcript.jsonl"), CLAIMLESS),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "audit-turn: claimless message, 100 MiB transcript",
        args: &["audit-turn"],
        dir: Dir::Project,
        setup: |f| make_transcript(&f.transcript(100), 100),
        stdin: |f| stop_input_with(f, &f.transcript(100), CLAIMLESS),
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "audit-turn: 2 KB message, 5 claims (3 files, tests, commit), all backed",
        args: &["audit-turn"],
        dir: Dir::Repo,
        setup: make_claims_turn,
        stdin: claims_stop,
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "audit-turn --end-turn-tool: batch without the tool",
        args: &["audit-turn", "--end-turn-tool", "end_turn"],
        dir: Dir::Project,
        setup: |_| Ok(()),
        stdin: post_tool_batch,
        expect: Expect::Silent { records: 0 },
    },
    Case {
        name: "baseline: --version",
        args: &["--version"],
        dir: Dir::Project,
        setup: |_| Ok(()),
        stdin: |_| Vec::new(),
        expect: Expect::Stdout("did-it-actually"),
    },
];

const BATCH: usize = 20;

/// The smallest process there is, measured alongside the cases as a floor.
const FLOOR: &str = "/bin/true";

/// Writes a file the way the tool would have, creating its directory.
fn put(path: &Path, content: &str) -> io::Result<()> {
    fs::create_dir_all(path.parent().expect("fixture paths have a parent"))?;
    fs::write(path, content)
}

// ---------------------------------------------------------------------------------------
// Inputs

fn small_content(i: usize) -> String {
    // ~100 bytes, like a small config or a one-function file.
    format!("[package]\nname = \"demo-{i}\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n# file {i:02}\n")
}

/// 1 MiB of source-like text.
fn large_content() -> String {
    let mut s = String::with_capacity(1 << 20);
    let mut n = 0;
    while s.len() < (1 << 20) - 80 {
        s.push_str(&format!(
            "    let value_{n} = compute(input[{n}], {n} * FACTOR); // step {n}\n"
        ));
        n += 1;
    }
    while s.len() < 1 << 20 {
        s.push('\n');
    }
    s
}

/// A ~4 KiB Rust file before the edit.
fn original_source() -> String {
    let mut s = String::from(
        "//! Configuration loading.\n\nuse std::collections::HashMap;\nuse std::path::Path;\n\n",
    );
    let mut i = 0;
    while s.len() < 4000 {
        s.push_str(&format!(
            "/// Reads setting {i} from the map.\npub fn setting_{i}(map: &HashMap<String, String>) -> Option<u32> {{\n    map.get(\"setting_{i}\").and_then(|v| v.parse().ok())\n}}\n\n"
        ));
        i += 1;
    }
    s
}

const EDIT_OLD: &str = "    map.get(\"setting_7\").and_then(|v| v.parse().ok())\n";
const EDIT_NEW: &str =
    "    map.get(\"setting_7\")\n        .and_then(|v| v.trim().parse().ok())\n        .filter(|n| *n > 0)\n";

fn edited_source() -> String {
    let original = original_source();
    assert!(
        original.contains(EDIT_OLD),
        "the edit applies to the original"
    );
    original.replacen(EDIT_OLD, EDIT_NEW, 1)
}

/// The fields every event carries (hook-protocol.md, section 3).
fn common(cwd: &Path, event: &str) -> serde_json::Map<String, Value> {
    let v = json!({
        "session_id": SESSION,
        "transcript_path": format!("/home/u/.claude/projects/-home-u-proj/{SESSION}.jsonl"),
        "cwd": cwd,
        "prompt_id": PROMPT,
        "permission_mode": "acceptEdits",
        "effort": {"level": "medium"},
        "hook_event_name": event,
    });
    match v {
        Value::Object(m) => m,
        _ => unreachable!(),
    }
}

fn post_tool_use_write(f: &Fixture, path: &Path, content: &str) -> Vec<u8> {
    let mut m = common(&f.project, "PostToolUse");
    m.insert("tool_name".into(), json!("Write"));
    m.insert(
        "tool_input".into(),
        json!({"file_path": path, "content": content}),
    );
    m.insert(
        "tool_response".into(),
        json!({"type": "create", "filePath": path, "content": content,
               "structuredPatch": [], "originalFile": null, "userModified": false}),
    );
    m.insert(
        "tool_use_id".into(),
        json!("toolu_01BenchWrite0000000000000"),
    );
    m.insert("duration_ms".into(), json!(3));
    serde_json::to_vec(&m).unwrap()
}

fn post_tool_use_edit(f: &Fixture) -> Vec<u8> {
    let path = f.edit_path();
    let mut m = common(&f.project, "PostToolUse");
    m.insert("tool_name".into(), json!("Edit"));
    m.insert(
        "tool_input".into(),
        json!({"file_path": path, "old_string": EDIT_OLD, "new_string": EDIT_NEW, "replace_all": false}),
    );
    let start = original_source()[..original_source().find(EDIT_OLD).unwrap()]
        .lines()
        .count()
        + 1;
    m.insert(
        "tool_response".into(),
        json!({
            "filePath": path,
            "oldString": EDIT_OLD,
            "newString": EDIT_NEW,
            "originalFile": original_source(),
            "structuredPatch": [{
                "oldStart": start - 3, "oldLines": 7, "newStart": start - 3, "newLines": 9,
                "lines": [" /// Reads setting 7 from the map.",
                          " pub fn setting_7(map: &HashMap<String, String>) -> Option<u32> {",
                          "-    map.get(\"setting_7\").and_then(|v| v.parse().ok())",
                          "+    map.get(\"setting_7\")",
                          "+        .and_then(|v| v.trim().parse().ok())",
                          "+        .filter(|n| *n > 0)",
                          " }"]
            }],
            "replaceAll": false,
            "userModified": false,
        }),
    );
    m.insert(
        "tool_use_id".into(),
        json!("toolu_01BenchEdit00000000000000"),
    );
    m.insert("duration_ms".into(), json!(5));
    serde_json::to_vec(&m).unwrap()
}

fn post_tool_batch(f: &Fixture) -> Vec<u8> {
    let calls: Vec<Value> = (0..BATCH)
        .map(|i| {
            let path = f.small_path(i);
            json!({
                "tool_name": "Write",
                "tool_input": {"file_path": path, "content": small_content(i)},
                "tool_use_id": format!("toolu_01BenchBatch{i:012}"),
                "tool_response": format!("File created successfully at: {}", path.display()),
            })
        })
        .collect();
    let mut m = common(&f.project, "PostToolBatch");
    m.insert("tool_calls".into(), Value::Array(calls));
    serde_json::to_vec(&m).unwrap()
}

/// A PreToolUse event for Bash, run in the scratch repository.
/// The turn the audit-turn cases audit: its prompt id is not the write log's.
const AUDIT_PROMPT: &str = "b52e8d4f-0000-4000-8000-0000000a0d17";

/// A transcript of `mib` MiB: earlier turns, then a turn of 20 tool calls whose last one
/// runs the tests, and a final message that says they pass.
fn make_transcript(path: &Path, mib: usize) -> io::Result<()> {
    use std::io::Write as _;
    let mut f = io::BufWriter::with_capacity(1 << 20, fs::File::create(path)?);
    let filler = format!(
        "{}\n",
        json!({"type": "user", "promptId": "0ld-turn", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_old", "content": "x".repeat(900)}]}})
    );
    let block = filler.repeat((1 << 20) / filler.len());
    for _ in 0..mib.saturating_sub(1) {
        f.write_all(block.as_bytes())?;
    }
    writeln!(
        f,
        "{}",
        json!({"type": "user", "promptId": AUDIT_PROMPT, "timestamp": "2026-11-30T02:00:00.000Z", "message": {"role": "user", "content": "Run the tests"}})
    )?;
    for i in 0..20 {
        let command = if i == 19 { "cargo test" } else { "ls -la" };
        let output = if i == 19 {
            "test result: ok. 3 passed; 0 failed"
        } else {
            "total 0"
        };
        writeln!(
            f,
            "{}",
            json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": format!("toolu_{i}"), "name": "Bash", "input": {"command": command}}]}})
        )?;
        writeln!(
            f,
            "{}",
            json!({"type": "user", "promptId": AUDIT_PROMPT, "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": format!("toolu_{i}"), "content": output}]}})
        )?;
    }
    writeln!(
        f,
        "{}",
        json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "All tests pass."}]}})
    )?;
    f.flush()
}

/// A typical Claude Code summary of about 2 KB with five claims (three files, the tests,
/// a commit) among sentences that claim nothing.
const CLAIMS_MESSAGE: &str = "## Summary\n\nThe parser now accepts trailing commas in argument lists, and the lexer is a module of its own so the two can be tested apart. The old behaviour came from a shortcut in the tokenizer that treated a comma before a closing parenthesis as an error; that shortcut predates the current grammar and nothing else relied on it.\n\n### Changes\n- Updated `bench-claims/parser.rs` to accept a trailing comma before `)` and `]`\n- Created `bench-claims/lexer.rs` with the tokenizer, moved out of the parser unchanged\n- Updated `bench-claims/README.md` with the grammar change and an example\n\n### Verification\n- All 3 tests pass (`cargo test`)\n- Committed the changes on `feat/x`\n\n### Notes\nThe grammar in the README is the one the parser implements; the formal grammar file in the docs folder is older and describes the 0.2 syntax, which is why it still shows commas as separators only. I looked at the error messages as well: they already name the offending token, so no change was needed there. The benchmark suite was not part of this change, and the fuzz targets compile against the public API only, which did not change. If you want, the next step could be to regenerate the formal grammar from the parser's tables so the two cannot drift apart again; that would touch the docs build, which is why I left it for a separate change. Let me know if you'd like the lexer's error type to be public too.\n\n### Why not a bigger change\nA full rewrite of the tokenizer would also have fixed the error positions for multi-byte characters, but it would change every error message the CLI prints, and the integration tests pin those messages on purpose. The trailing-comma fix is small, keeps every message, and can ship on its own; the position fix deserves its own review with the new messages side by side. Until then, an error on a line with multi-byte characters points a few columns off, as it did before this change; the message text itself names the right token, so it stays usable.";

fn claims_transcript(f: &Fixture) -> PathBuf {
    f.root.join("transcript-claims.jsonl")
}

/// The turn behind [`CLAIMS_MESSAGE`]: three writes, a test run, a commit (the
/// repository's own), then the message; the files it names exist.
fn make_claims_turn(f: &Fixture) -> io::Result<()> {
    use std::io::Write as _;
    let dir = f.repo.join("bench-claims");
    fs::create_dir_all(&dir)?;
    for name in ["parser.rs", "lexer.rs", "README.md"] {
        fs::write(dir.join(name), format!("// {name}\n"))?;
    }
    let mut t = io::BufWriter::new(fs::File::create(claims_transcript(f))?);
    writeln!(
        t,
        "{}",
        json!({"type": "user", "promptId": AUDIT_PROMPT, "timestamp": "2026-11-30T02:00:00.000Z", "message": {"role": "user", "content": "Accept trailing commas"}})
    )?;
    let calls = [
        (
            "Write",
            json!({"file_path": dir.join("parser.rs"), "content": "// parser.rs\n"}),
            "File created successfully",
        ),
        (
            "Write",
            json!({"file_path": dir.join("lexer.rs"), "content": "// lexer.rs\n"}),
            "File created successfully",
        ),
        (
            "Write",
            json!({"file_path": dir.join("README.md"), "content": "// README.md\n"}),
            "File created successfully",
        ),
        (
            "Bash",
            json!({"command": "cargo test 2>&1"}),
            "test result: ok. 3 passed; 0 failed; 0 ignored",
        ),
        (
            "Bash",
            json!({"command": "git add -A && git commit -m 'parser: trailing commas'"}),
            "[feat/x 1a2b3c4] parser: trailing commas\n 3 files changed",
        ),
    ];
    for (i, (name, input, output)) in calls.iter().enumerate() {
        writeln!(
            t,
            "{}",
            json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": format!("toolu_c{i}"), "name": name, "input": input}]}})
        )?;
        writeln!(
            t,
            "{}",
            json!({"type": "user", "promptId": AUDIT_PROMPT, "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": format!("toolu_c{i}"), "content": output}]}})
        )?;
    }
    writeln!(
        t,
        "{}",
        json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": CLAIMS_MESSAGE}]}})
    )?;
    t.flush()
}

fn claims_stop(f: &Fixture) -> Vec<u8> {
    let mut m = common(&f.repo, "Stop");
    m.insert("prompt_id".into(), json!(AUDIT_PROMPT));
    m.insert("transcript_path".into(), json!(claims_transcript(f)));
    m.insert("stop_hook_active".into(), json!(false));
    m.insert("last_assistant_message".into(), json!(CLAIMS_MESSAGE));
    m.insert("background_tasks".into(), json!([]));
    m.insert("session_crons".into(), json!([]));
    serde_json::to_vec(&m).unwrap()
}

/// A final message that claims nothing: the common stop, which needs no evidence.
const CLAIMLESS: &str = "Here is what I found: the parser already handles CRLF line endings.";

fn stop_input(f: &Fixture, transcript: &Path) -> Vec<u8> {
    stop_input_with(f, transcript, "All tests pass.")
}

fn stop_input_with(f: &Fixture, transcript: &Path, message: &str) -> Vec<u8> {
    let mut m = common(&f.project, "Stop");
    m.insert("prompt_id".into(), json!(AUDIT_PROMPT));
    m.insert("transcript_path".into(), json!(transcript));
    m.insert("stop_hook_active".into(), json!(false));
    m.insert("last_assistant_message".into(), json!(message));
    m.insert("background_tasks".into(), json!([]));
    m.insert("session_crons".into(), json!([]));
    serde_json::to_vec(&m).unwrap()
}

fn pre_tool_use_write(cwd: &Path, path: &Path) -> Vec<u8> {
    let mut m = common(cwd, "PreToolUse");
    m.insert("tool_name".into(), json!("Write"));
    m.insert(
        "tool_input".into(),
        json!({"file_path": path, "content": "fn main() {}\n"}),
    );
    m.insert(
        "tool_use_id".into(),
        json!("toolu_01BenchScope0000000000000"),
    );
    serde_json::to_vec(&m).unwrap()
}

/// A project whose policy has 100 allow and 100 deny globs; the benchmarked path is
/// matched by one of the last allow globs.
fn make_glob_project(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir.join(".git"))?;
    let allow: Vec<String> = (0..100).map(|i| format!("src/mod{i}/**")).collect();
    let deny: Vec<String> = (0..100).map(|i| format!("**/secret{i}/*.key")).collect();
    let policy = json!({"version": 1, "scope": {"allow": allow, "deny": deny}});
    fs::write(dir.join(".did-it-actually.json"), policy.to_string())
}

fn pre_tool_use_bash(f: &Fixture, command: &str) -> Vec<u8> {
    let mut m = common(&f.repo, "PreToolUse");
    m.insert("permission_mode".into(), json!("bypassPermissions"));
    m.insert("tool_name".into(), json!("Bash"));
    m.insert(
        "tool_input".into(),
        json!({"command": command, "description": "Run the command"}),
    );
    m.insert(
        "tool_use_id".into(),
        json!("toolu_01BenchBash00000000000000"),
    );
    serde_json::to_vec(&m).unwrap()
}

/// 30 simple commands joined with `&&`, `;` and `|`: 29 harmless ones (build, test,
/// read-only git, text tools), then a push of HEAD to the feature branch.
const COMPOUND: &str = concat!(
    "cargo fmt --all -- --check && cargo clippy --all-targets --quiet && cargo test --quiet; ",
    "git status --short && git diff --stat | tail -1 && git log --oneline -5 | cat; ",
    "git branch --show-current && git rev-parse HEAD && git remote -v | sort | uniq; ",
    "ls -la src | wc -l && grep -rn TODO src | head -20 | cut -c1-120; ",
    "find . -name '*.rs' -newer Cargo.toml | xargs wc -l | sort -n | tail -5; ",
    "test -f Cargo.lock && cat Cargo.toml | grep -c version; ",
    "git stash list | head -3; echo checks done && date -u +%FT%TZ; ",
    "git push origin HEAD:feat/x",
);

/// Exactly this many bytes of command.
const LARGE_COMMAND_BYTES: usize = 100 * 1024;

/// A 100 KiB command: a quoted heredoc that writes prose notes to a file (the way an
/// agent writes a long file through Bash).
fn large_command() -> String {
    let head = "mkdir -p notes && cat > notes/design-notes.md <<'EOF'\n";
    let tail = "EOF\n";
    let mut s = String::with_capacity(LARGE_COMMAND_BYTES);
    s.push_str(head);
    let mut n = 0;
    loop {
        let line = format!(
            "- note {n}: the parser reads this line as heredoc text; it mentions main, feat/x and the build only as words.\n"
        );
        if s.len() + line.len() + tail.len() > LARGE_COMMAND_BYTES {
            break;
        }
        s.push_str(&line);
        n += 1;
    }
    while s.len() + tail.len() < LARGE_COMMAND_BYTES {
        s.push('.');
    }
    if !s.ends_with('\n') {
        s.pop();
        s.push('\n');
    }
    s.push_str(tail);
    assert_eq!(s.len(), LARGE_COMMAND_BYTES);
    s
}

// ---------------------------------------------------------------------------------------
// Fixture

struct Fixture {
    root: PathBuf,
    project: PathBuf,
    /// The scratch repository's work tree (see [`make_repo`]).
    repo: PathBuf,
    /// The hooks' `HOME`: an empty directory, so no `.gitconfig`.
    home: PathBuf,
    state: PathBuf,
    log: PathBuf,
    /// The write log's length with exactly [`LOG_RECORDS`] records.
    log_len: u64,
}

impl Fixture {
    fn transcript(&self, mib: usize) -> PathBuf {
        self.root.join(format!("transcript-{mib}mib.jsonl"))
    }

    fn glob_project(&self) -> PathBuf {
        self.root.join("glob200")
    }

    fn create() -> io::Result<Fixture> {
        let root =
            std::env::temp_dir().join(format!("did-it-actually-bench-{}", std::process::id()));
        let project = root.join("proj");
        let state = root.join("state");
        let session_dir = state.join("sessions").join(SESSION);
        fs::create_dir_all(project.join(".git"))?;
        fs::create_dir_all(project.join("src"))?;
        fs::create_dir_all(&session_dir)?;
        let log = session_dir.join(WRITE_LOG);
        write_log(&log, &project)?;
        let log_len = fs::metadata(&log)?.len();
        let home = root.join("home");
        fs::create_dir_all(&home)?;
        let repo = make_repo(&root.join("repo"), &home)?;
        Ok(Fixture {
            root,
            project,
            repo,
            home,
            state,
            log,
            log_len,
        })
    }

    fn dir(&self, dir: Dir) -> &Path {
        match dir {
            Dir::Project => &self.project,
            Dir::Repo => &self.repo,
        }
    }

    fn small_path(&self, i: usize) -> PathBuf {
        self.project.join(format!("crates/demo-{i}/Cargo.toml"))
    }

    fn large_path(&self) -> PathBuf {
        self.project.join("src/generated.rs")
    }

    fn edit_path(&self) -> PathBuf {
        self.project.join("src/config.rs")
    }

    /// Drops whatever the last run appended.
    fn reset_log(&self) -> io::Result<()> {
        OpenOptions::new()
            .write(true)
            .open(&self.log)?
            .set_len(self.log_len)
    }

    fn log_records_since_reset(&self) -> io::Result<Vec<Record>> {
        let bytes = fs::read(&self.log)?;
        bytes[self.log_len as usize..]
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).map_err(io::Error::other))
            .collect()
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

/// Builds the scratch repository under `dir` and returns its work tree: `work/` with one
/// commit on `main`, a bare `origin.git/` as the remote `origin` with `main` pushed, and a
/// new branch `feat/x` checked out (not pushed).
fn make_repo(dir: &Path, home: &Path) -> io::Result<PathBuf> {
    let work = dir.join("work");
    let origin = dir.join("origin.git");
    fs::create_dir_all(&work)?;
    git(&work, home, &["init", "-q", "-b", "main"])?;
    fs::write(work.join("README.md"), "bench\n")?;
    git(&work, home, &["add", "README.md"])?;
    git(&work, home, &["commit", "-q", "-m", "seed"])?;
    git(dir, home, &["init", "-q", "--bare", "origin.git"])?;
    let origin = origin
        .to_str()
        .ok_or_else(|| io::Error::other("non-UTF-8 temp dir"))?;
    git(&work, home, &["remote", "add", "origin", origin])?;
    git(&work, home, &["push", "-q", "origin", "main"])?;
    git(&work, home, &["checkout", "-q", "-b", "feat/x"])?;
    Ok(work)
}

/// Runs a setup git command, isolated from the user's and the system's configuration.
fn git(cwd: &Path, home: &Path, args: &[&str]) -> io::Result<()> {
    let mut cmd = Command::new("git");
    cmd.current_dir(cwd);
    without_git_env(&mut cmd);
    let out = cmd
        .args(args)
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.invalid")
        .env("GIT_COMMITTER_NAME", "bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.invalid")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| io::Error::other(format!("cannot run git: {e}")))?;
    if !out.status.success() {
        return Err(io::Error::other(format!(
            "git {args:?} in {}: {}",
            cwd.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(())
}

/// Removes every `GIT_*` variable (`GIT_DIR`, `GIT_CONFIG_PARAMETERS`, …) the harness
/// itself may have inherited.
fn without_git_env(cmd: &mut Command) {
    for (name, _) in std::env::vars_os() {
        if name.as_encoded_bytes().starts_with(b"GIT_") {
            cmd.env_remove(name);
        }
    }
}

/// The environment of every measured or checked process: the fixture's state directory,
/// no policy override, an empty `HOME` (libgit2 reads `$HOME/.gitconfig`) and no XDG
/// config directory, and no `GIT_*` variables.
fn hook_env(cmd: &mut Command, state: &Path, home: &Path) {
    without_git_env(cmd);
    cmd.env("DID_IT_ACTUALLY_STATE_DIR", state)
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"));
}

/// A session's worth of records: writes and edits over a few hundred files, a few of them
/// failed or changed after, across many prompts.
fn write_log(log: &Path, project: &Path) -> io::Result<()> {
    let mut out = BufWriter::new(File::create(log)?);
    let start = 1_780_000_000u64; // seconds since the epoch
    for n in 0..LOG_RECORDS {
        let time = std::time::UNIX_EPOCH + Duration::from_millis(start * 1000 + n as u64 * 1_700);
        let (tool, op) = match n % 5 {
            0 | 1 => ("Write", Operation::Write),
            4 if n % 50 == 4 => ("MultiEdit", Operation::MultiEdit),
            _ => ("Edit", Operation::Edit),
        };
        let (outcome, reason) = match n % 97 {
            13 => (Outcome::ChangedAfter, Some("it landed, then the file was changed by something else (a formatter or another tool?); the written text is still there, but the first difference is at line 3".to_owned())),
            41 => (Outcome::TextAbsent, Some("the new text \"fn main() {\" is not in the file".to_owned())),
            _ => (Outcome::Landed, None),
        };
        let path = project.join(format!("src/module_{}/file_{}.rs", n % 37, n % 311));
        let record = WriteRecord {
            v: RECORD_VERSION,
            time: did_it_actually::time::rfc3339(time),
            session: SESSION.to_owned(),
            prompt_id: Some(format!("{:08x}-92f0-4b6b-8e15-7c0f3d2a9b64", n / 40)),
            tool_use_id: Some(format!("toolu_01{:024}", n)),
            event: if n % 7 == 0 {
                "PostToolBatch"
            } else {
                "PostToolUse"
            }
            .to_owned(),
            tool: tool.to_owned(),
            path: path.to_string_lossy().into_owned(),
            op,
            verified: outcome.is_verified(),
            outcome,
            reason,
            sha256: Some(sha256_hex(&n.to_le_bytes())),
            size: Some(200 + (n as u64 * 7919) % 40_000),
            host: None,
        };
        serde_json::to_writer(&mut out, &record)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

// ---------------------------------------------------------------------------------------
// Measuring

/// `struct timeval` on 64-bit Linux.
#[repr(C)]
#[derive(Default)]
struct Timeval {
    tv_sec: i64,
    tv_usec: i64,
}

/// `struct rusage` on x86_64 and aarch64 Linux: two timevals, then 14 longs.
#[repr(C)]
#[derive(Default)]
struct Rusage {
    ru_utime: Timeval,
    ru_stime: Timeval,
    /// Peak resident set size, in KiB.
    ru_maxrss: i64,
    ru_ixrss: i64,
    ru_idrss: i64,
    ru_isrss: i64,
    ru_minflt: i64,
    ru_majflt: i64,
    ru_nswap: i64,
    ru_inblock: i64,
    ru_oublock: i64,
    ru_msgsnd: i64,
    ru_msgrcv: i64,
    ru_nsignals: i64,
    ru_nvcsw: i64,
    ru_nivcsw: i64,
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
compile_error!("the bench declares wait4 and struct rusage for x86_64/aarch64 Linux only");

extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
}

/// One measured run.
struct Sample {
    wall: Duration,
    maxrss_kib: i64,
}

/// What `--measure` needs, as a JSON file: the binary, the fixture, and each case's
/// arguments and stdin file. After the cases comes the floor: [`FLOOR`] with empty stdin (the cost of starting and
/// ending any dynamically linked process here).
fn job_json(
    bin: &Path,
    fx: &Fixture,
    stdin_files: &[PathBuf],
    warmup: usize,
    runs: usize,
) -> Value {
    let mut cases: Vec<Value> = CASES
        .iter()
        .zip(stdin_files)
        .map(|(case, stdin)| json!({"args": case.args, "cwd": fx.dir(case.dir), "stdin": stdin}))
        .collect();
    cases
        .push(json!({"bin": FLOOR, "args": [], "cwd": fx.project, "stdin": fx.root.join("empty")}));
    json!({
        "bin": bin, "state": fx.state, "home": fx.home, "log": fx.log, "log_len": fx.log_len,
        "warmup": warmup, "runs": runs, "cases": cases,
    })
}

/// Measures every case, then the floor, in a fresh, small process (this binary with
/// `--measure`), which prints one `case_index nanoseconds max_rss_kib` line per measured run.
///
/// Why a separate process: at exec, Linux folds the RSS of the process image being
/// replaced into the child's `ru_maxrss`. std's `Command::spawn` uses posix_spawn (a
/// CLONE_VM child), so that image is the parent's whole address space, and `ru_maxrss`
/// would report this harness's peak RSS (megabytes of generated inputs), not the hook's.
/// `--measure` forks instead (a `pre_exec` hook makes std fork), so what is folded in is
/// only the forked copy's anonymous memory: a few hundred KiB, below any real process's
/// own peak. It streams stdin from a file so that it never holds a large input itself.
fn measure(job_file: &Path) -> Result<Vec<Vec<Sample>>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the bench binary: {e}"))?;
    let out = Command::new(exe)
        .arg("--measure")
        .arg(job_file)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot start the measuring process: {e}"))?;
    if !out.status.success() {
        return Err(format!("the measuring process failed ({})", out.status));
    }
    let mut samples: Vec<Vec<Sample>> = (0..=CASES.len()).map(|_| Vec::new()).collect();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let mut it = line.split(' ').map(str::parse::<u64>);
        match (it.next(), it.next(), it.next()) {
            (Some(Ok(i)), Some(Ok(ns)), Some(Ok(kib))) if (i as usize) < samples.len() => {
                samples[i as usize].push(Sample {
                    wall: Duration::from_nanos(ns),
                    maxrss_kib: kib as i64,
                })
            }
            _ => return Err(format!("unexpected measurement line {line:?}")),
        }
    }
    Ok(samples)
}

/// The `--measure` mode. Runs are interleaved: each round runs every case once, starting
/// one case later than the previous round, so drift in the machine's state (frequency,
/// other load, page cache) spreads over all cases instead of biasing the later ones.
fn measure_main(job_file: &Path) -> Result<(), String> {
    let job: Value = fs::read(job_file)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
        .map_err(|e| format!("{}: {e}", job_file.display()))?;
    let bad = || format!("{}: not a job file", job_file.display());
    let path = |k: &str| job[k].as_str().map(PathBuf::from).ok_or_else(bad);
    let num = |k: &str| job[k].as_u64().ok_or_else(bad);
    let (bin, state, home, log) = (path("bin")?, path("state")?, path("home")?, path("log")?);
    let (log_len, warmup, runs) = (num("log_len")?, num("warmup")?, num("runs")?);
    type JobCase = (PathBuf, Vec<String>, PathBuf, PathBuf);
    let cases: Vec<JobCase> = job["cases"]
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|c| {
            let case_bin = c
                .get("bin")
                .map_or(Some(bin.as_path()), |b| b.as_str().map(Path::new))?;
            let args = c["args"]
                .as_array()?
                .iter()
                .map(|a| a.as_str().map(str::to_owned))
                .collect::<Option<_>>()?;
            Some((
                case_bin.to_owned(),
                args,
                PathBuf::from(c["cwd"].as_str()?),
                PathBuf::from(c["stdin"].as_str()?),
            ))
        })
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    drop(job);
    let mut out = io::stdout().lock();
    let n = cases.len();
    for round in 0..(warmup + runs) as usize {
        for k in 0..n {
            let i = (round + k) % n;
            let (bin, args, cwd, stdin) = &cases[i];
            OpenOptions::new()
                .write(true)
                .open(&log)
                .and_then(|f| f.set_len(log_len))
                .map_err(|e| format!("cannot reset the write log: {e}"))?;
            let mut cmd = Command::new(bin);
            cmd.args(args).current_dir(cwd);
            hook_env(&mut cmd, &state, &home);
            let sample = run_once(cmd, stdin)?;
            if round >= warmup as usize {
                writeln!(out, "{i} {} {}", sample.wall.as_nanos(), sample.maxrss_kib)
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}

/// Spawns `cmd` (fork+exec), writes the file `stdin` into its stdin pipe and closes it,
/// and reaps it with `wait4`.
fn run_once(mut cmd: Command, stdin: &Path) -> Result<Sample, String> {
    let mut input = File::open(stdin).map_err(|e| format!("{}: {e}", stdin.display()))?;
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: the closure does nothing; its presence makes std fork+exec, not posix_spawn.
    unsafe {
        cmd.pre_exec(|| Ok(()));
    }
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        if let Err(e) = io::copy(&mut input, &mut pipe) {
            // A child that exits without reading (--version) closes the pipe early.
            if e.kind() != io::ErrorKind::BrokenPipe {
                return Err(format!("cannot write stdin: {e}"));
            }
        }
    } // stdin closed here
    let pid = child.id() as i32;
    let mut status = 0i32;
    let mut usage = Rusage::default();
    loop {
        // SAFETY: both pointers are to live, properly laid out locals.
        let r = unsafe { wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break;
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(format!("wait4: {e}"));
        }
    }
    let wall = start.elapsed();
    // The child is reaped; `child` must not be waited on again (dropping it does not wait).
    drop(child);
    // WIFEXITED && WEXITSTATUS == 0
    if status & 0x7f != 0 || (status >> 8) & 0xff != 0 {
        return Err(format!("{cmd:?} ended with wait status {status:#x}"));
    }
    Ok(Sample {
        wall,
        maxrss_kib: usage.ru_maxrss,
    })
}

/// Runs the case once with its output captured and checks it against `case.expect`.
fn check_case(bin: &Path, case: &Case, stdin: &[u8], fx: &Fixture) -> Result<(), String> {
    fx.reset_log().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(bin);
    cmd.args(case.args).current_dir(fx.dir(case.dir));
    hook_env(&mut cmd, &fx.state, &fx.home);
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let fail = |why: String| {
        Err(format!(
            "case `{}` does not behave as expected: {why}\nexit: {}\nstdout: {stdout}\nstderr: {}",
            case.name,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    };
    if !out.status.success() {
        return fail("it did not exit 0".into());
    }
    match case.expect {
        Expect::Silent { records } => {
            if !stdout.trim().is_empty() {
                return fail("it printed an answer where none was expected".into());
            }
            let appended = fx.log_records_since_reset().map_err(|e| e.to_string())?;
            if appended.len() != records {
                return fail(format!(
                    "it appended {} records, not {records}",
                    appended.len()
                ));
            }
            if let Some(r) = appended
                .iter()
                .find(|r| !matches!(r, Record::Write(w) if w.verified))
            {
                return fail(format!("a record is not a verified write: {r:?}"));
            }
        }
        Expect::Stdout(text) => {
            if !stdout.contains(text) {
                return fail(format!("stdout does not contain {text:?}"));
            }
        }
        Expect::Deny(text) => {
            let answer: Value = match serde_json::from_str(&stdout) {
                Ok(v) => v,
                Err(e) => return fail(format!("stdout is not JSON: {e}")),
            };
            let hso = &answer["hookSpecificOutput"];
            if hso["hookEventName"] != "PreToolUse" || hso["permissionDecision"] != "deny" {
                return fail("it did not answer with a PreToolUse deny".into());
            }
            let reason = hso["permissionDecisionReason"].as_str().unwrap_or("");
            if !reason.contains(text) {
                return fail(format!("the reason does not contain {text:?}"));
            }
            // A guard records its denial in the ledger, and nothing else.
            let appended = fx.log_records_since_reset().map_err(|e| e.to_string())?;
            if !matches!(appended.as_slice(), [Record::Denial(_)]) {
                return fail(format!(
                    "it appended {appended:?}, not exactly one denial record"
                ));
            }
        }
    }
    fx.reset_log().map_err(|e| e.to_string())
}

struct Row {
    name: &'static str,
    runs: usize,
    p50: Duration,
    p95: Duration,
    mean: Duration,
    maxrss_kib: i64,
}

fn row(name: &'static str, samples: &[Sample]) -> Row {
    let runs = samples.len();
    let mut walls: Vec<Duration> = samples.iter().map(|s| s.wall).collect();
    walls.sort();
    // Nearest-rank percentiles.
    let pct = |p: f64| walls[((p * runs as f64).ceil() as usize).clamp(1, runs) - 1];
    Row {
        name,
        runs,
        p50: pct(0.50),
        p95: pct(0.95),
        mean: walls.iter().sum::<Duration>() / runs as u32,
        maxrss_kib: samples.iter().map(|s| s.maxrss_kib).max().unwrap_or(0),
    }
}

// ---------------------------------------------------------------------------------------
// Reporting

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

fn machine(bin: &Path) -> String {
    let nproc = std::thread::available_parallelism().map_or(0, |n| n.get());
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find(|l| {
            l.starts_with("model name") || l.starts_with("Model") || l.starts_with("Hardware")
        })
        .and_then(|l| l.split_once(':'))
        .map_or("unknown CPU".to_owned(), |(_, v)| v.trim().to_owned());
    let kernel = fs::read_to_string("/proc/version")
        .map_or("unknown kernel".to_owned(), |v| v.trim().to_owned());
    let size = fs::metadata(bin).map_or(0, |m| m.len());
    format!(
        "Machine: {nproc} CPUs, {cpu}; {kernel}. Binary: {} ({size} bytes, {:.2} MiB).",
        bin.display(),
        size as f64 / (1024.0 * 1024.0)
    )
}

fn main() -> ExitCode {
    match real_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn real_main() -> Result<(), String> {
    let all: Vec<String> = std::env::args().collect();
    if let [_, flag, job_file] = &all[..] {
        if flag == "--measure" {
            return measure_main(Path::new(job_file));
        }
    }
    let usage = "usage: bench <path to did-it-actually> [--runs N] [--warmup N]";
    let mut args = std::env::args().skip(1);
    let mut bin = None;
    let (mut runs, mut warmup) = (DEFAULT_RUNS, DEFAULT_WARMUP);
    while let Some(a) = args.next() {
        let mut number = |flag: &str| -> Result<usize, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{flag} needs a number; {usage}"))
        };
        match a.as_str() {
            "--runs" => runs = number("--runs")?.max(1),
            "--warmup" => warmup = number("--warmup")?,
            _ if a.starts_with("--") => return Err(format!("unknown option {a}; {usage}")),
            _ => bin = Some(PathBuf::from(a)),
        }
    }
    let bin = bin.ok_or(usage)?;
    let bin = fs::canonicalize(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let fx = Fixture::create().map_err(|e| format!("cannot create the fixture: {e}"))?;
    eprintln!(
        "bench: {} cases x {runs} runs ({warmup} warm-up) against a {LOG_RECORDS}-record write log in {}",
        CASES.len(),
        fx.root.display()
    );
    // Every case's files and stdin first (their setups must not conflict), each checked
    // once; then all the runs, interleaved.
    let mut stdin_files = Vec::new();
    for (i, case) in CASES.iter().enumerate() {
        (case.setup)(&fx).map_err(|e| format!("{}: setup failed: {e}", case.name))?;
        let stdin = (case.stdin)(&fx);
        check_case(&bin, case, &stdin, &fx)?;
        let file = fx.root.join(format!("stdin-{i}.json"));
        fs::write(&file, &stdin).map_err(|e| format!("{}: {e}", file.display()))?;
        stdin_files.push(file);
    }
    let job_file = fx.root.join("job.json");
    let job = job_json(&bin, &fx, &stdin_files, warmup, runs);
    fs::write(&job_file, job.to_string()).map_err(|e| format!("{}: {e}", job_file.display()))?;
    fs::write(fx.root.join("empty"), b"").map_err(|e| format!("cannot create the fixture: {e}"))?;
    let samples = measure(&job_file)?;
    fx.reset_log()
        .map_err(|e| format!("cannot reset the write log: {e}"))?;
    if let Some((i, s)) = samples.iter().enumerate().find(|(_, s)| s.len() != runs) {
        let name = CASES.get(i).map_or(FLOOR, |c| c.name);
        return Err(format!("{name}: {} measurements, not {runs}", s.len()));
    }
    let rows: Vec<Row> = CASES
        .iter()
        .zip(&samples)
        .map(|(case, s)| row(case.name, s))
        .collect();
    let floor = row(FLOOR, &samples[CASES.len()]);
    println!("| case | runs | p50 ms | p95 ms | mean ms | max RSS MiB |");
    println!("|---|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {} | {:.1} |",
            r.name,
            r.runs,
            ms(r.p50),
            ms(r.p95),
            ms(r.mean),
            r.maxrss_kib as f64 / 1024.0
        );
    }
    println!();
    println!("{}", machine(&bin));
    println!();
    println!(
        "Floor: `{FLOOR}` in the same harness, interleaved with the cases: p50 {} ms, p95 {} ms, max RSS {:.1} MiB \
         (the cost of starting and ending any dynamically linked process on this machine).",
        ms(floor.p50),
        ms(floor.p95),
        floor.maxrss_kib as f64 / 1024.0
    );
    Ok(())
}
