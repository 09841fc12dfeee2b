//! Whole-process latency and peak memory of the hooks, one row per case.
//!
//! Run it with `bench/run.sh`, or by hand:
//! `cargo run --release --locked --example bench -- target/release/did-it-actually [--runs N] [--warmup N] [--quick] [--json FILE]`
//!
//! Each run spawns the binary, writes the case's stdin bytes into a pipe, closes it, and
//! reaps the child with `wait4`, which also returns the child's peak RSS. The time measured
//! is from just before the spawn to the return of `wait4`: fork and exec, dynamic loading,
//! reading stdin, the hook itself and exit. stdout and stderr go to /dev/null (a first,
//! unmeasured run checks the case's answer and records, so a broken case cannot bench its
//! error path). The runs are made by a small helper process (this binary with `--measure`)
//! so that the harness's own memory does not leak into `ru_maxrss`: see [`measure`]. The
//! cases' runs are interleaved (round-robin), so slow drift in the machine's state does not
//! favour one case over another. Two floors run among them, with empty stdin: `/bin/true`
//! (the cost of any process start on the machine) and a hello world that the harness
//! compiles with `rustc -O` ([`build_hello`]: the cost of a minimal Rust program). Each
//! row gives its p50 over both. A third floor is given the stdin of the case with the
//! largest input ([`SINK_CASE`]): a program that only reads it ([`build_sink`]), so the
//! report can say what the input's passage through the pipe costs before any hook work.
//!
//! Every case runs against the same fixture: a project directory (with a `.git` directory,
//! so policy discovery stops there) and a state directory whose session already has a
//! write log of [`LOG_RECORDS`] records. The hook appends to that log, so it is truncated
//! back to exactly those records before every run. The block-wrong-branch cases run in a
//! real scratch repository instead ([`make_repo`]: `main` pushed to a bare `origin`,
//! `feat/x` checked out). Every hook process gets an empty scratch `HOME` (no
//! `.gitconfig`) and no `GIT_*` variables, so the user's git configuration cannot change
//! an answer or the time it takes. The fixture is made under `DID_IT_ACTUALLY_BENCH_DIR`
//! when that is set, else under the system temp directory.
//!
//! The cases are Claude Code's inputs ([`CASES`]) and, for every other host, its captured
//! inputs (tests/fixtures/hosts) pointed at the fixture and run as that host's
//! registration runs the hook, with `--host` ([`HOSTS`]).
//!
//! `--quick` is a short mode for the test suite (tests/it/bench_checks.rs): 3 runs, no
//! warm-up, and without the cases whose setup writes 100 or 500 MiB ([`QUICK_SKIPS`]);
//! every answer is still checked. `--json FILE` also writes the rows as JSON; `--list`
//! prints the cases' names and exits. `--keep` leaves the fixture in place and writes
//! `replay.sh` into it: `replay.sh N [PROGRAM ARGS...]` runs case N (its number in
//! `--list`, from 0) once as the bench runs it, under a profiler when one is named.
//!
//! To add a hook (scope-guard, audit-turn), add rows to [`CASES`] and [`HOSTS`].

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

/// One row of Claude Code's inputs ([`CASES`]); with the other hosts' rows ([`HOSTS`]),
/// it becomes a [`BenchCase`].
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

type Setup = Box<dyn Fn(&Fixture) -> io::Result<()>>;
type Stdin = Box<dyn Fn(&Fixture) -> Result<Vec<u8>, String>>;

/// One benchmark row, whatever its host (the fields are [`Case`]'s).
struct BenchCase {
    name: String,
    /// Arguments after the binary.
    args: Vec<String>,
    dir: Dir,
    setup: Setup,
    stdin: Stdin,
    expect: Expect,
}

impl BenchCase {
    /// The host named by `--host`: the one every record the run appends must carry
    /// (none for Claude Code).
    fn host(&self) -> Option<&str> {
        let i = self.args.iter().position(|a| a == "--host")?;
        self.args
            .get(i + 1)
            .map(String::as_str)
            .filter(|h| *h != "claude")
    }
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
#[derive(Clone, Copy)]
enum Expect {
    /// Exit 0, nothing on stdout (no objection), and this many records appended to the
    /// write log: each a verified write, a run, or audit-turn's record of a stop let
    /// through with every claim backed.
    Silent { records: usize },
    /// A pre-tool call let through: exit 0, the host's allow on stdout (nothing, on most
    /// hosts), and no records appended.
    Allow(Form),
    /// Exit 0 and stdout containing this text.
    Stdout(&'static str),
    /// Exit 0, the host's pre-tool deny whose reason contains this text, and exactly one
    /// record appended: the denial.
    Deny(Form, &'static str),
}

/// How a host refuses a tool call before it runs, and how it lets one through
/// (src/protocol/host.rs; the answers pinned in tests/it/snapshots/it__host_fixtures__*).
#[derive(Clone, Copy)]
enum Form {
    /// `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",
    /// "permissionDecisionReason":R}}`; silence allows (Claude Code, Codex, Qwen Code,
    /// droid).
    HookSpecific,
    /// `{"decision":"deny","reason":R}`; silence allows (Gemini CLI).
    Decision,
    /// `{"permissionDecision":"deny","permissionDecisionReason":R}`; silence allows
    /// (Copilot CLI's camelCase hooks).
    Permission,
    /// `{"permission":"deny","agent_message":R,"user_message":R}`; an allow is
    /// `{"permission":"allow"}` (Cursor).
    Cursor,
}

impl Form {
    /// What an allowed call prints, when silence is not the allow.
    fn allow(self) -> Option<Value> {
        match self {
            Form::Cursor => Some(json!({"permission": "allow"})),
            _ => None,
        }
    }

    /// The reason of `answer` when it is a deny in this form.
    fn deny_reason(self, answer: &Value) -> Option<&str> {
        let (decision, reason) = match self {
            Form::HookSpecific => {
                let hso = &answer["hookSpecificOutput"];
                if hso["hookEventName"] != "PreToolUse" {
                    return None;
                }
                (&hso["permissionDecision"], &hso["permissionDecisionReason"])
            }
            Form::Decision => (&answer["decision"], &answer["reason"]),
            Form::Permission => (
                &answer["permissionDecision"],
                &answer["permissionDecisionReason"],
            ),
            Form::Cursor => {
                if answer["user_message"] != answer["agent_message"] {
                    return None;
                }
                (&answer["permission"], &answer["agent_message"])
            }
        };
        (decision == "deny").then(|| reason.as_str()).flatten()
    }
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
        name: "verify-write: Bash ran (run log)",
        args: &["verify-write"],
        dir: Dir::Project,
        setup: |_| Ok(()),
        stdin: post_tool_use_bash,
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
        expect: Expect::Deny(
            Form::HookSpecific,
            "would push to the protected branch main on origin",
        ),
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
        setup: |f| make_glob_project(&f.glob_project(), &f.state),
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
        expect: Expect::Deny(Form::HookSpecific, "outside the project root"),
    },
    Case {
        name: "audit-turn: clean 20-call turn, 1 MiB transcript",
        args: &["audit-turn"],
        dir: Dir::Project,
        setup: |f| make_transcript(&f.transcript(1), 1),
        stdin: |f| stop_input(f, &f.transcript(1)),
        expect: Expect::Silent { records: 1 },
    },
    Case {
        name: "audit-turn: same turn, 100 MiB transcript",
        args: &["audit-turn"],
        dir: Dir::Project,
        setup: |f| make_transcript(&f.transcript(100), 100),
        stdin: |f| stop_input(f, &f.transcript(100)),
        expect: Expect::Silent { records: 1 },
    },
    Case {
        name: "audit-turn: same turn, 500 MiB transcript",
        args: &["audit-turn"],
        dir: Dir::Project,
        setup: |f| make_transcript(&f.transcript(500), 500),
        stdin: |f| stop_input(f, &f.transcript(500)),
        expect: Expect::Silent { records: 1 },
    },
    Case {
        name: "audit-turn: claimless message, missing transcript",
        args: &["audit-turn"],
        dir: Dir::Project,
        setup: |_| Ok(()),
        stdin: |f| stop_input_with(f, &f.project.join("no-such-transcript.jsonl"), CLAIMLESS),
        expect: Expect::Silent { records: 1 },
    },
    Case {
        name: "audit-turn: claimless message, 100 MiB transcript",
        args: &["audit-turn"],
        dir: Dir::Project,
        setup: |f| make_transcript(&f.transcript(100), 100),
        stdin: |f| stop_input_with(f, &f.transcript(100), CLAIMLESS),
        expect: Expect::Silent { records: 1 },
    },
    Case {
        name: "audit-turn: 2 KB message, 5 claims (3 files, tests, commit), all backed",
        args: &["audit-turn"],
        dir: Dir::Repo,
        setup: make_claims_turn,
        stdin: claims_stop,
        expect: Expect::Silent { records: 1 },
    },
    Case {
        name: "audit-turn: 25-line report, 20 claims (16 files, tests, lint, build, commit), all backed",
        args: &["audit-turn"],
        dir: Dir::Repo,
        setup: |f| make_report_turn(f, Report::English),
        stdin: |f| report_stop(f, Report::English),
        expect: Expect::Silent { records: 1 },
    },
    Case {
        name: "audit-turn: the same report, the work done by 2 subagents (their transcripts read)",
        args: &["audit-turn"],
        dir: Dir::Repo,
        setup: |f| make_report_turn(f, Report::Subagents),
        stdin: |f| report_stop(f, Report::Subagents),
        expect: Expect::Silent { records: 1 },
    },
    Case {
        name: "audit-turn: the same report in German, 20 claims, all backed",
        args: &["audit-turn"],
        dir: Dir::Repo,
        setup: |f| make_report_turn(f, Report::German),
        stdin: |f| report_stop(f, Report::German),
        expect: Expect::Silent { records: 1 },
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

/// The cases `--quick` leaves out: their setup writes 100 and 500 MiB transcripts. The
/// 1 MiB transcript and the missing one still run.
const QUICK_SKIPS: &[&str] = &[
    "audit-turn: same turn, 100 MiB transcript",
    "audit-turn: same turn, 500 MiB transcript",
    "audit-turn: claimless message, 100 MiB transcript",
];
const QUICK_RUNS: usize = 3;
const QUICK_WARMUP: usize = 0;

/// The smallest process there is, measured alongside the cases as a floor.
const FLOOR: &str = "/bin/true";

/// The other floor: the smallest Rust program, compiled by the harness with `rustc -O`.
const HELLO_SOURCE: &str = "fn main(){println!(\"hello\");}\n";

/// A third floor for the case with the largest stdin ([`SINK_CASE`]): a Rust program that
/// only reads its stdin to the end, 64 KiB at a time as the hooks do, given that case's
/// stdin. What it costs over hello world is the input's passage through the pipe, which
/// any hook pays before it can do anything.
const SINK_SOURCE: &str = "use std::io::Read;\nfn main(){let mut b=vec![0u8;65536];let mut i=std::io::stdin().lock();while i.read(&mut b).map_or(false,|n|n>0){}}\n";
const SINK_CASE: &str = "verify-write: Write, 1 MiB";

// ---------------------------------------------------------------------------------------
// The other hosts

/// One host's rows: its captured inputs (tests/fixtures/hosts/DIR/*.json), pointed at the
/// fixture, and run as its registration runs the hook (`--host`, and `--event` for the
/// hosts whose payload does not name the event).
struct HostBench {
    /// The directory of its captures under tests/fixtures/hosts, and the rows' prefix.
    dir: &'static str,
    /// What `--host` takes.
    host: &'static str,
    /// The registration passes the event (`--event`, the capture's file name up to `-`):
    /// Copilot's camelCase hooks.
    pass_event: bool,
    /// How the host allows and denies a tool call.
    form: Form,
    /// The captured shell call before it runs, and the JSON pointer of its command.
    shell: &'static str,
    command: &'static str,
    /// A write tool call before it runs, inside the project (scope-guard).
    write: HostCall,
    /// The event after a write landed (verify-write), where the host has one.
    landed: Option<HostCall>,
    /// That event also as a 1 MiB write: the landed content grown to [`large_content`]
    /// wherever the capture holds it (the call and, for the hosts that echo it, the
    /// result). Not for a patch or an edit, whose text is not the file's.
    large: bool,
}

/// A captured file-tool call, pointed at the case's own file (`hosts/DIR/b.txt` in the
/// project: the captures wrote `b.txt`).
struct HostCall {
    /// The capture.
    file: &'static str,
    /// The tool, for the row's name.
    tool: &'static str,
    /// What the file holds once the write landed.
    content: &'static str,
    /// What the generic rewrite ([`host_input`]) cannot do: relative paths, or building
    /// a call that no capture holds.
    fix: fn(&mut Value, &Target) -> Result<(), String>,
}

/// The file a host case writes.
struct Target {
    abs: PathBuf,
    /// Relative to the project (the event's `cwd`).
    rel: String,
}

fn no_fix(_: &mut Value, _: &Target) -> Result<(), String> {
    Ok(())
}

/// Sets the string at `pointer`, which the capture must have.
fn set(v: &mut Value, pointer: &str, to: Value) -> Result<(), String> {
    *v.pointer_mut(pointer)
        .ok_or_else(|| format!("the capture has no {pointer}"))? = to;
    Ok(())
}

/// Gemini names the file relative to `cwd`, as the model wrote it.
fn gemini_relative(v: &mut Value, t: &Target) -> Result<(), String> {
    set(v, "/tool_input/file_path", json!(t.rel))
}

/// Codex's patch envelope names the file relative to `cwd`.
fn codex_patch(v: &mut Value, t: &Target) -> Result<(), String> {
    let patch = v
        .pointer("/tool_input/command")
        .and_then(Value::as_str)
        .ok_or("the capture has no patch")?;
    let retargeted = patch.replace("*** Add File: b.txt", &format!("*** Add File: {}", t.rel));
    if retargeted == patch {
        return Err("the capture's patch adds no b.txt".into());
    }
    set(v, "/tool_input/command", json!(retargeted))?;
    if let Some(Value::String(r)) = v.get_mut("tool_response") {
        *r = r.replace("A b.txt", &format!("A {}", t.rel));
    }
    Ok(())
}

/// Cursor's `preToolUse` for its Write tool (`path`, `contents`: src/protocol/cursor.rs),
/// in the envelope of the captured Shell call: no capture holds a write.
fn cursor_write(v: &mut Value, t: &Target) -> Result<(), String> {
    set(v, "/tool_name", json!("Write"))?;
    set(
        v,
        "/tool_input",
        json!({"path": t.abs, "contents": "hello\n"}),
    )
}

const HOSTS: &[HostBench] = &[
    HostBench {
        dir: "codex",
        host: "codex",
        pass_event: false,
        form: Form::HookSpecific,
        shell: "PreToolUse-Bash.json",
        command: "/tool_input/command",
        write: HostCall {
            file: "PreToolUse-apply_patch.json",
            tool: "apply_patch",
            content: "hello\n",
            fix: codex_patch,
        },
        landed: Some(HostCall {
            file: "PostToolUse-apply_patch.json",
            tool: "apply_patch",
            content: "hello\n",
            fix: codex_patch,
        }),
        large: false,
    },
    HostBench {
        dir: "gemini",
        host: "gemini",
        pass_event: false,
        form: Form::Decision,
        shell: "BeforeTool-run_shell_command.json",
        command: "/tool_input/command",
        write: HostCall {
            file: "BeforeTool-write_file.json",
            tool: "write_file",
            content: "hello\n",
            fix: gemini_relative,
        },
        landed: Some(HostCall {
            file: "AfterTool-write_file.json",
            tool: "write_file",
            content: "hello\n",
            fix: gemini_relative,
        }),
        large: true,
    },
    HostBench {
        dir: "copilot-camel",
        host: "copilot",
        pass_event: true,
        form: Form::Permission,
        shell: "preToolUse-bash.json",
        command: "/toolArgs/command",
        write: HostCall {
            file: "preToolUse-create.json",
            tool: "create",
            content: "hello\n",
            fix: no_fix,
        },
        landed: Some(HostCall {
            file: "postToolUse-create.json",
            tool: "create",
            content: "hello\n",
            fix: no_fix,
        }),
        large: true,
    },
    HostBench {
        dir: "qwen",
        host: "qwen",
        pass_event: false,
        form: Form::HookSpecific,
        shell: "PreToolUse-run_shell_command.json",
        command: "/tool_input/command",
        write: HostCall {
            file: "PreToolUse-write_file.json",
            tool: "write_file",
            content: "hello\n",
            fix: no_fix,
        },
        landed: Some(HostCall {
            file: "PostToolUse-write_file.json",
            tool: "write_file",
            content: "hello\n",
            fix: no_fix,
        }),
        large: true,
    },
    HostBench {
        dir: "droid",
        host: "droid",
        pass_event: false,
        form: Form::HookSpecific,
        shell: "PreToolUse-Execute.json",
        command: "/tool_input/command",
        write: HostCall {
            file: "PreToolUse-Create.json",
            tool: "Create",
            content: "hello\n",
            fix: no_fix,
        },
        landed: Some(HostCall {
            file: "PostToolUse-Create.json",
            tool: "Create",
            content: "hello\n",
            fix: no_fix,
        }),
        large: true,
    },
    HostBench {
        dir: "cursor",
        host: "cursor",
        pass_event: false,
        form: Form::Cursor,
        shell: "preToolUse-Shell.json",
        command: "/tool_input/command",
        write: HostCall {
            file: "preToolUse-Shell.json",
            tool: "Write",
            content: "hello\n",
            fix: cursor_write,
        },
        // The captured edit (`hello` -> `bye`), after it landed.
        landed: Some(HostCall {
            file: "afterFileEdit-edit.json",
            tool: "edit",
            content: "bye\n",
            fix: no_fix,
        }),
        large: false,
    },
];

/// A harmless command, and a push to the protected branch.
const HOST_ALLOWED_COMMAND: &str = "ls -la";
const HOST_DENIED_COMMAND: &str = "git push origin HEAD:main";

fn hosts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hosts")
}

/// The event a capture holds, as its file is named (`preToolUse-bash.json`).
fn capture_event(file: &str) -> &str {
    file.trim_end_matches(".json")
        .split('-')
        .next()
        .unwrap_or(file)
}

/// A capture of `h`, rewritten for the fixture: `<work>/b.txt` becomes the case's file,
/// `<work>` the case's directory, `~/` the scratch `HOME`, and the session the fixture's
/// (whose write log the run appends to); then `fix`.
fn host_input(
    h: &HostBench,
    file: &str,
    cwd: &Path,
    target: &Target,
    fix: fn(&mut Value, &Target) -> Result<(), String>,
    fx: &Fixture,
) -> Result<Value, String> {
    let path = hosts_dir().join(h.dir).join(file);
    let mut v: Value = fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let (abs, cwd) = (target.abs.to_string_lossy(), cwd.to_string_lossy());
    let home = format!("{}/", fx.home.display());
    rewrite_strings(&mut v, &|s: &str| {
        let s = s.replace("<work>/b.txt", &abs).replace("<work>", &cwd);
        match s.strip_prefix("~/") {
            Some(rest) => format!("{home}{rest}"),
            None => s,
        }
    });
    let session = ["session_id", "sessionId", "conversation_id"]
        .into_iter()
        .find(|k| v.get(k).is_some())
        .ok_or_else(|| format!("{}: no session id", path.display()))?;
    v[session] = json!(SESSION);
    fix(&mut v, target).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(v)
}

fn rewrite_strings(v: &mut Value, f: &dyn Fn(&str) -> String) {
    match v {
        Value::String(s) => *s = f(s),
        Value::Array(a) => a.iter_mut().for_each(|v| rewrite_strings(v, f)),
        Value::Object(m) => m.values_mut().for_each(|v| rewrite_strings(v, f)),
        _ => {}
    }
}

/// `h`'s file `name` in the project (the captures wrote `b.txt`).
fn host_file(f: &Fixture, h: &HostBench, name: &str) -> Target {
    let rel = format!("hosts/{}/{name}", h.dir);
    Target {
        abs: f.project.join(&rel),
        rel,
    }
}

/// The arguments of `hook` as `h`'s registration runs it on the event of `file`.
fn host_args(h: &HostBench, hook: &str, file: &str) -> Vec<String> {
    let mut args = vec![hook.to_owned(), "--host".to_owned(), h.host.to_owned()];
    if h.pass_event {
        args.extend(["--event".to_owned(), capture_event(file).to_owned()]);
    }
    args
}

/// `h`'s rows: block-wrong-branch on a harmless command and on a push to `main`,
/// scope-guard on a write inside the project, verify-write on a landed write.
fn host_cases(h: &'static HostBench) -> Vec<BenchCase> {
    let shell = |command: &'static str, expect: Expect| BenchCase {
        name: format!(
            "{}: block-wrong-branch: `{command}`{}",
            h.dir,
            if matches!(expect, Expect::Deny(..)) {
                " (denied)"
            } else {
                ""
            }
        ),
        args: host_args(h, "block-wrong-branch", h.shell),
        dir: Dir::Repo,
        setup: Box::new(|_| Ok(())),
        stdin: Box::new(move |f| {
            let mut v = host_input(h, h.shell, &f.repo, &host_file(f, h, "b.txt"), no_fix, f)?;
            set(&mut v, h.command, json!(command))
                .map_err(|e| format!("{}/{}: {e}", h.dir, h.shell))?;
            Ok(serde_json::to_vec(&v).unwrap())
        }),
        expect,
    };
    let mut out = vec![
        shell(HOST_ALLOWED_COMMAND, Expect::Allow(h.form)),
        shell(
            HOST_DENIED_COMMAND,
            Expect::Deny(h.form, "would push to the protected branch main on origin"),
        ),
        BenchCase {
            name: format!(
                "{}: scope-guard: {} inside the project",
                h.dir, h.write.tool
            ),
            args: host_args(h, "scope-guard", h.write.file),
            dir: Dir::Project,
            setup: Box::new(|_| Ok(())),
            stdin: Box::new(move |f| {
                let v = host_input(
                    h,
                    h.write.file,
                    &f.project,
                    &host_file(f, h, "b.txt"),
                    h.write.fix,
                    f,
                )?;
                Ok(serde_json::to_vec(&v).unwrap())
            }),
            expect: Expect::Allow(h.form),
        },
    ];
    if let Some(landed) = &h.landed {
        out.push(BenchCase {
            name: format!(
                "{}: verify-write: {}, landed ({})",
                h.dir,
                landed.tool,
                capture_event(landed.file)
            ),
            args: host_args(h, "verify-write", landed.file),
            dir: Dir::Project,
            setup: Box::new(move |f| put(&host_file(f, h, "b.txt").abs, landed.content)),
            stdin: Box::new(move |f| {
                let v = host_input(
                    h,
                    landed.file,
                    &f.project,
                    &host_file(f, h, "b.txt"),
                    landed.fix,
                    f,
                )?;
                Ok(serde_json::to_vec(&v).unwrap())
            }),
            expect: Expect::Silent { records: 1 },
        });
    }
    if let (Some(landed), true) = (&h.landed, h.large) {
        let big = |f: &Fixture| host_file(f, h, "big.txt");
        out.push(BenchCase {
            name: format!(
                "{}: verify-write: {}, 1 MiB, landed ({})",
                h.dir,
                landed.tool,
                capture_event(landed.file)
            ),
            args: host_args(h, "verify-write", landed.file),
            dir: Dir::Project,
            setup: Box::new(move |f| put(&big(f).abs, &large_content())),
            stdin: Box::new(move |f| {
                let mut v = host_input(h, landed.file, &f.project, &big(f), landed.fix, f)?;
                let large = large_content();
                rewrite_strings(&mut v, &|s: &str| s.replace(landed.content, &large));
                Ok(serde_json::to_vec(&v).unwrap())
            }),
            expect: Expect::Silent { records: 1 },
        });
    }
    out
}

/// Every row, in the table's order: Claude Code's, then each host's.
fn all_cases() -> Vec<BenchCase> {
    let mut out: Vec<BenchCase> = CASES
        .iter()
        .map(|c| BenchCase {
            name: c.name.to_owned(),
            args: c.args.iter().map(|a| (*a).to_owned()).collect(),
            dir: c.dir,
            setup: Box::new(c.setup),
            stdin: Box::new(move |f| Ok((c.stdin)(f))),
            expect: c.expect,
        })
        .collect();
    for h in HOSTS {
        out.extend(host_cases(h));
    }
    out
}

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

/// A shell call that ran, with a test runner's summary in its output: one run record.
fn post_tool_use_bash(f: &Fixture) -> Vec<u8> {
    let mut m = common(&f.project, "PostToolUse");
    m.insert("tool_name".into(), json!("Bash"));
    m.insert(
        "tool_input".into(),
        json!({"command": "cargo test", "description": "run the tests"}),
    );
    m.insert(
        "tool_response".into(),
        json!({"stdout": "running 12 tests\n............\ntest result: ok. 12 passed; 0 failed\n",
               "stderr": "", "interrupted": false, "isImage": false}),
    );
    m.insert(
        "tool_use_id".into(),
        json!("toolu_01BenchBash00000000000000"),
    );
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

/// The long report's language.
#[derive(Clone, Copy)]
enum Report {
    English,
    German,
    /// The English report, the writes and the test run done by two subagents.
    Subagents,
}

const REPORT_FILES: usize = 16;

/// A 25-line report with 20 claims: 16 files, the tests (with their count), clippy, the
/// build and a commit, in the style of Claude Code's final summaries.
fn report_message(lang: Report) -> String {
    let mut lines = vec![match lang {
        Report::English | Report::Subagents => "## Summary".to_owned(),
        Report::German => "## Zusammenfassung".to_owned(),
    }];
    lines.push(String::new());
    for i in 0..REPORT_FILES {
        lines.push(match lang {
            Report::English | Report::Subagents => format!(
                "- Updated `bench-report/m{i}.rs` to return a typed error instead of panicking"
            ),
            Report::German => format!(
                "- `bench-report/m{i}.rs` aktualisiert: ein typisierter Fehler statt eines Panics"
            ),
        });
    }
    lines.push(String::new());
    lines.extend(
        match lang {
            Report::English | Report::Subagents => [
                "### Checks",
                "- All 16 tests pass (`cargo test`)",
                "- `cargo clippy` is clean",
                "- The build succeeds (`cargo build`)",
                "- Committed the changes on `feat/x`",
            ],
            Report::German => [
                "### Prüfungen",
                "- Alle 16 Tests bestehen (`cargo test`)",
                "- `cargo clippy` meldet keine Warnungen",
                "- Der Build ist erfolgreich (`cargo build`)",
                "- Ich habe die Änderungen auf `feat/x` committet",
            ],
        }
        .map(str::to_owned),
    );
    lines.push(match lang {
        Report::English | Report::Subagents => "The public API is unchanged.".to_owned(),
        Report::German => "Die öffentliche API ist unverändert.".to_owned(),
    });
    lines.join("\n")
}

fn report_transcript(f: &Fixture, lang: Report) -> PathBuf {
    f.root.join(match lang {
        Report::English => "transcript-report-en.jsonl",
        Report::German => "transcript-report-de.jsonl",
        Report::Subagents => "transcript-report-sub.jsonl",
    })
}

/// The turn behind [`report_message`]: 16 writes, the test, lint and build runs and a
/// commit; the files it names exist.
fn make_report_turn(f: &Fixture, lang: Report) -> io::Result<()> {
    use std::io::Write as _;
    let dir = f.repo.join("bench-report");
    fs::create_dir_all(&dir)?;
    let mut t = io::BufWriter::new(fs::File::create(report_transcript(f, lang))?);
    writeln!(
        t,
        "{}",
        json!({"type": "user", "promptId": AUDIT_PROMPT, "timestamp": "2026-11-30T02:00:00.000Z", "message": {"role": "user", "content": "Return typed errors"}})
    )?;
    let mut calls: Vec<(&str, Value, String)> = Vec::new();
    for i in 0..REPORT_FILES {
        let path = dir.join(format!("m{i}.rs"));
        fs::write(&path, format!("// m{i}.rs\n"))?;
        calls.push((
            "Write",
            json!({"file_path": path, "content": format!("// m{i}.rs\n")}),
            "File created successfully".into(),
        ));
    }
    calls.push((
        "Bash",
        json!({"command": "cargo test 2>&1"}),
        "test result: ok. 16 passed; 0 failed; 0 ignored".into(),
    ));
    calls.push((
        "Bash",
        json!({"command": "cargo clippy 2>&1"}),
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.31s".into(),
    ));
    calls.push((
        "Bash",
        json!({"command": "cargo build 2>&1"}),
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.12s".into(),
    ));
    calls.push((
        "Bash",
        json!({"command": "git add -A && git commit -m 'typed errors'"}),
        format!("[feat/x 1a2b3c4] typed errors\n {REPORT_FILES} files changed"),
    ));
    if let Report::Subagents = lang {
        // Two subagents: the first makes the writes, the second runs the tests; the
        // parent lints, builds and commits.
        let sub_dir = report_transcript(f, lang).with_extension("");
        let sub_dir = sub_dir.join("subagents");
        fs::create_dir_all(&sub_dir)?;
        let (writes, rest) = calls.split_at(REPORT_FILES);
        let (tests, parent) = rest.split_at(1);
        for (k, part) in [writes, tests].into_iter().enumerate() {
            let agent = format!("a{k:016x}");
            let mut sub = io::BufWriter::new(fs::File::create(
                sub_dir.join(format!("agent-{agent}.jsonl")),
            )?);
            writeln!(
                sub,
                "{}",
                json!({"type": "user", "isSidechain": true, "agentId": agent, "message": {"role": "user", "content": "Do the delegated part."}})
            )?;
            for (i, (name, input, output)) in part.iter().enumerate() {
                writeln!(
                    sub,
                    "{}",
                    json!({"type": "assistant", "isSidechain": true, "message": {"role": "assistant", "content": [{"type": "tool_use", "id": format!("toolu_s{k}_{i}"), "name": name, "input": input}]}})
                )?;
                writeln!(
                    sub,
                    "{}",
                    json!({"type": "user", "isSidechain": true, "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": format!("toolu_s{k}_{i}"), "content": output}]}})
                )?;
            }
            sub.flush()?;
            writeln!(
                t,
                "{}",
                json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": format!("toolu_a{k}"), "name": "Agent", "input": {"description": "delegate", "prompt": "Do the delegated part.", "subagent_type": "general-purpose"}}]}})
            )?;
            writeln!(
                t,
                "{}",
                json!({"type": "user", "promptId": AUDIT_PROMPT, "toolUseResult": {"agentId": agent, "status": "completed"}, "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": format!("toolu_a{k}"), "content": "Done."}]}})
            )?;
        }
        calls = parent.to_vec();
    }
    for (i, (name, input, output)) in calls.iter().enumerate() {
        writeln!(
            t,
            "{}",
            json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": format!("toolu_r{i}"), "name": name, "input": input}]}})
        )?;
        writeln!(
            t,
            "{}",
            json!({"type": "user", "promptId": AUDIT_PROMPT, "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": format!("toolu_r{i}"), "content": output}]}})
        )?;
    }
    writeln!(
        t,
        "{}",
        json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": report_message(lang)}]}})
    )?;
    t.flush()
}

fn report_stop(f: &Fixture, lang: Report) -> Vec<u8> {
    let mut m = common(&f.repo, "Stop");
    m.insert("prompt_id".into(), json!(AUDIT_PROMPT));
    m.insert("transcript_path".into(), json!(report_transcript(f, lang)));
    m.insert("stop_hook_active".into(), json!(false));
    m.insert("last_assistant_message".into(), json!(report_message(lang)));
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
fn make_glob_project(dir: &Path, state: &Path) -> io::Result<()> {
    fs::create_dir_all(dir.join(".git"))?;
    let allow: Vec<String> = (0..100).map(|i| format!("src/mod{i}/**")).collect();
    let deny: Vec<String> = (0..100).map(|i| format!("**/secret{i}/*.key")).collect();
    let policy = json!({"version": 1, "scope": {"allow": allow, "deny": deny}});
    fs::write(dir.join(".did-it-actually.json"), policy.to_string())?;
    // In force only once approved, as the user does after writing it.
    let state = state.as_os_str().to_owned();
    did_it_actually::approval::approve(
        dir,
        |k| (k == "DID_IT_ACTUALLY_STATE_DIR").then(|| state.clone()),
        "bench",
    )
    .map(|_| ())
    .map_err(io::Error::other)
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

    /// Makes the fixture in a new directory under `base`.
    fn create(base: &Path) -> io::Result<Fixture> {
        let root = base.join(format!("did-it-actually-bench-{}", std::process::id()));
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

/// A floor: a program measured among the cases, with empty stdin, that does no hook's
/// work.
#[derive(Clone)]
struct Floor {
    /// For the report.
    label: String,
    bin: PathBuf,
    /// Its stdin; empty when `None`.
    stdin: Option<PathBuf>,
}

/// `--keep`'s `replay.sh N [PROGRAM ARGS...]`: runs case N once, in the environment
/// and directory the bench measures it in, under PROGRAM when one is given (a profiler).
fn write_replay(
    bin: &Path,
    fx: &Fixture,
    cases: &[BenchCase],
    stdin_files: &[PathBuf],
) -> Result<PathBuf, String> {
    let q = |p: &Path| shlex::try_quote(&p.to_string_lossy()).map(|q| q.into_owned());
    let quoted = |p: &Path| q(p).map_err(|e| format!("{}: {e}", p.display()));
    let mut script = String::from("#!/usr/bin/env bash\n# Written by bench --keep: replay.sh N [PROGRAM ARGS...] runs case N once.\n");
    script += "set -euo pipefail\nfor v in $(env | sed -n 's/^\\(GIT_[^=]*\\)=.*/\\1/p'); do unset \"$v\"; done\nunset DID_IT_ACTUALLY_POLICY\n";
    script += &format!(
        "export DID_IT_ACTUALLY_STATE_DIR={} HOME={} XDG_CONFIG_HOME={}\ncase \"${{1:?case number}}\" in\n",
        quoted(&fx.state)?,
        quoted(&fx.home)?,
        quoted(&fx.home.join(".config"))?
    );
    for (i, (case, stdin)) in cases.iter().zip(stdin_files).enumerate() {
        let args = case
            .args
            .iter()
            .map(|a| shlex::try_quote(a).map_err(|e| format!("argument {a:?}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        script += &format!(
            "  {i}) # {}\n    cd {} && shift && exec \"$@\" {} {} < {} ;;\n",
            case.name,
            quoted(fx.dir(case.dir))?,
            quoted(bin)?,
            args.join(" "),
            quoted(stdin)?
        );
    }
    script += "  *) echo \"no case $1\" >&2; exit 2 ;;\nesac\n";
    let path = fx.root.join("replay.sh");
    fs::write(&path, script).map_err(|e| format!("{}: {e}", path.display()))?;
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// What `--measure` needs, as a JSON file: the binary, the fixture, and each case's
/// arguments and stdin file. After the cases come the [`Floor`]s.
fn job_json(
    bin: &Path,
    fx: &Fixture,
    cases: &[BenchCase],
    stdin_files: &[PathBuf],
    floors: &[Floor],
    warmup: usize,
    runs: usize,
) -> Value {
    let mut entries: Vec<Value> = cases
        .iter()
        .zip(stdin_files)
        .map(|(case, stdin)| json!({"args": case.args, "cwd": fx.dir(case.dir), "stdin": stdin}))
        .collect();
    for floor in floors {
        entries.push(json!({"bin": floor.bin, "args": [], "cwd": fx.project,
                   "stdin": floor.stdin.clone().unwrap_or_else(|| fx.root.join("empty"))}));
    }
    json!({
        "bin": bin, "state": fx.state, "home": fx.home, "log": fx.log, "log_len": fx.log_len,
        "warmup": warmup, "runs": runs, "cases": entries,
    })
}

/// Measures the job's `entries` (the cases, then the floors) in a fresh, small process
/// (this binary with `--measure`), which prints one `entry_index nanoseconds max_rss_kib`
/// line per measured run.
///
/// Why a separate process: at exec, Linux folds the RSS of the process image being
/// replaced into the child's `ru_maxrss`. std's `Command::spawn` uses posix_spawn (a
/// CLONE_VM child), so that image is the parent's whole address space, and `ru_maxrss`
/// would report this harness's peak RSS (megabytes of generated inputs), not the hook's.
/// `--measure` forks instead (a `pre_exec` hook makes std fork), so what is folded in is
/// only the forked copy's anonymous memory: a few hundred KiB, below any real process's
/// own peak. It streams stdin from a file so that it never holds a large input itself.
fn measure(job_file: &Path, entries: usize) -> Result<Vec<Vec<Sample>>, String> {
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
    let mut samples: Vec<Vec<Sample>> = (0..entries).map(|_| Vec::new()).collect();
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
fn check_case(bin: &Path, case: &BenchCase, stdin: &[u8], fx: &Fixture) -> Result<(), String> {
    fx.reset_log().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(bin);
    cmd.args(&case.args).current_dir(fx.dir(case.dir));
    hook_env(&mut cmd, &fx.state, &fx.home);
    let out = run_captured(cmd, stdin)?;
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
    let appended = fx.log_records_since_reset().map_err(|e| e.to_string())?;
    // Every record names the host whose hook wrote it.
    if let Some(r) = appended.iter().find(|r| record_host(r) != case.host()) {
        return fail(format!(
            "a record does not name the host {:?}: {r:?}",
            case.host()
        ));
    }
    let answer = || serde_json::from_str::<Value>(&stdout);
    match case.expect {
        Expect::Silent { records } => {
            if !stdout.trim().is_empty() {
                return fail("it printed an answer where none was expected".into());
            }
            if appended.len() != records {
                return fail(format!(
                    "it appended {} records, not {records}",
                    appended.len()
                ));
            }
            // audit-turn records what it judged: a stop let through, every claim backed.
            if let Some(r) = appended.iter().find(|r| {
                !matches!(r, Record::Write(w) if w.verified)
                    && !matches!(r, Record::Run(_))
                    && !matches!(r, Record::Audit(a) if !a.blocked && a.claims.iter().all(|c| c.backed))
            }) {
                return fail(format!(
                    "a record is neither a verified write, a run, nor an audit with every claim backed: {r:?}"
                ));
            }
        }
        Expect::Allow(form) => {
            match form.allow() {
                None if !stdout.trim().is_empty() => {
                    return fail("it printed an answer where silence allows".into())
                }
                Some(allow) if answer().ok() != Some(allow.clone()) => {
                    return fail(format!("stdout is not the host's allow, {allow}"));
                }
                _ => {}
            }
            if !appended.is_empty() {
                return fail(format!("it appended {appended:?} to an allowed call"));
            }
        }
        Expect::Stdout(text) => {
            if !stdout.contains(text) {
                return fail(format!("stdout does not contain {text:?}"));
            }
        }
        Expect::Deny(form, text) => {
            let answer = match answer() {
                Ok(v) => v,
                Err(e) => return fail(format!("stdout is not JSON: {e}")),
            };
            let Some(reason) = form.deny_reason(&answer) else {
                return fail("it did not answer with the host's pre-tool deny".into());
            };
            if !reason.contains(text) {
                return fail(format!("the reason does not contain {text:?}"));
            }
            // A guard records its denial in the ledger, and nothing else.
            if !matches!(appended.as_slice(), [Record::Denial(_)]) {
                return fail(format!(
                    "it appended {appended:?}, not exactly one denial record"
                ));
            }
        }
    }
    fx.reset_log().map_err(|e| e.to_string())
}

fn record_host(r: &Record) -> Option<&str> {
    match r {
        Record::Denial(d) => d.host.as_deref(),
        Record::Run(r) => r.host.as_deref(),
        Record::Audit(a) => a.host.as_deref(),
        Record::Write(w) => w.host.as_deref(),
    }
}

/// Runs `cmd` with `stdin` written to it (from a thread: a large input must not block
/// on a child that writes before it reads) and its output captured.
fn run_captured(mut cmd: Command, stdin: &[u8]) -> Result<std::process::Output, String> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    Ok(out)
}

/// Compiles [`HELLO_SOURCE`] in `dir` with `rustc -O` (`$RUSTC` when set, else the
/// `rustc` on `PATH`) and checks that it says hello. Returns the floor, labelled with the
/// compiler's version.
fn build_hello(dir: &Path) -> Result<Floor, String> {
    let (bin, version) = compile(dir, "hello", HELLO_SOURCE)?;
    let said = Command::new(&bin)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    if !said.status.success() || said.stdout != b"hello\n" {
        return Err(format!(
            "{} did not say hello ({})",
            bin.display(),
            said.status
        ));
    }
    Ok(Floor {
        label: format!("hello world (`rustc -O`, {version})"),
        bin,
        stdin: None,
    })
}

/// Compiles [`SINK_SOURCE`] like the hello world, checks that it reads `stdin` to the end
/// and exits 0 in silence, and returns it as the floor for that input.
fn build_sink(dir: &Path, stdin: &Path) -> Result<Floor, String> {
    let (bin, version) = compile(dir, "sink", SINK_SOURCE)?;
    let input = fs::read(stdin).map_err(|e| format!("{}: {e}", stdin.display()))?;
    let out = run_captured(Command::new(&bin), &input)?;
    if !out.status.success() || !out.stdout.is_empty() {
        return Err(format!("{} failed ({})", bin.display(), out.status));
    }
    Ok(Floor {
        label: format!(
            "a program that only reads its stdin (`rustc -O`, {version}), given the {} bytes of `{SINK_CASE}`",
            input.len()
        ),
        bin,
        stdin: Some(stdin.to_owned()),
    })
}

/// `source` compiled to `dir/name` with `rustc -O`, and the compiler's version.
fn compile(dir: &Path, name: &str, source: &str) -> Result<(PathBuf, String), String> {
    let rustc = std::env::var_os("RUSTC")
        .filter(|r| !r.is_empty())
        .unwrap_or_else(|| "rustc".into());
    let file = dir.join(format!("{name}.rs"));
    let bin = dir.join(name);
    fs::write(&file, source).map_err(|e| format!("{}: {e}", file.display()))?;
    let out = Command::new(&rustc)
        .arg("-O")
        .arg("-o")
        .arg(&bin)
        .arg(&file)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", Path::new(&rustc).display()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "{} -O failed ({}){}{}",
            Path::new(&rustc).display(),
            out.status,
            if stderr.trim().is_empty() { "" } else { ": " },
            stderr.trim()
        ));
    }
    let version = Command::new(&rustc)
        .arg("-V")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "unknown rustc".to_owned());
    Ok((bin, version))
}

/// Checks that `/bin/true` runs and exits 0.
fn check_true() -> Result<(), String> {
    let out = run_captured(Command::new(FLOOR), b"")?;
    if !out.status.success() {
        return Err(format!("{FLOOR} ended with {}", out.status));
    }
    Ok(())
}

struct Row {
    name: String,
    runs: usize,
    p50: Duration,
    p95: Duration,
    mean: Duration,
    maxrss_kib: i64,
}

fn row(name: &str, samples: &[Sample]) -> Row {
    let runs = samples.len();
    let mut walls: Vec<Duration> = samples.iter().map(|s| s.wall).collect();
    walls.sort();
    // Nearest-rank percentiles.
    let pct = |p: f64| walls[((p * runs as f64).ceil() as usize).clamp(1, runs) - 1];
    Row {
        name: name.to_owned(),
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

fn ms_f(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// `a - b` in ms, signed.
fn over(a: Duration, b: Duration) -> f64 {
    ms_f(a) - ms_f(b)
}

fn mib(kib: i64) -> f64 {
    kib as f64 / 1024.0
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

fn floor_json(r: &Row) -> Value {
    json!({
        "runs": r.runs, "p50_ms": ms_f(r.p50), "p95_ms": ms_f(r.p95), "mean_ms": ms_f(r.mean),
        "max_rss_mib": mib(r.maxrss_kib),
    })
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

struct Options {
    bin: Option<PathBuf>,
    runs: usize,
    warmup: usize,
    quick: bool,
    /// Only the cases whose name holds this text.
    only: Option<String>,
    json: Option<PathBuf>,
    list: bool,
    keep: bool,
}

const USAGE: &str = "usage: bench <path to did-it-actually> [--runs N] [--warmup N] [--quick] [--only TEXT] [--json FILE] [--keep]\n       bench --list [--quick] [--only TEXT]";

fn options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let (mut bin, mut runs, mut warmup, mut json, mut quick, mut list, mut keep) =
        (None, None, None, None, false, false, false);
    let mut only: Option<String> = None;
    while let Some(a) = args.next() {
        let mut number = |flag: &str| -> Result<usize, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{flag} needs a number; {USAGE}"))
        };
        match a.as_str() {
            "--runs" => runs = Some(number("--runs")?.max(1)),
            "--warmup" => warmup = Some(number("--warmup")?),
            "--quick" => quick = true,
            "--list" => list = true,
            "--keep" => keep = true,
            "--only" => {
                only = Some(
                    args.next()
                        .ok_or_else(|| format!("--only needs a text; {USAGE}"))?,
                )
            }
            "--json" => {
                json = Some(PathBuf::from(
                    args.next()
                        .ok_or_else(|| format!("--json needs a file; {USAGE}"))?,
                ))
            }
            _ if a.starts_with("--") => return Err(format!("unknown option {a}; {USAGE}")),
            _ => bin = Some(PathBuf::from(a)),
        }
    }
    // --quick sets the defaults; --runs and --warmup still win.
    let (default_runs, default_warmup) = if quick {
        (QUICK_RUNS, QUICK_WARMUP)
    } else {
        (DEFAULT_RUNS, DEFAULT_WARMUP)
    };
    Ok(Options {
        bin,
        runs: runs.unwrap_or(default_runs),
        warmup: warmup.unwrap_or(default_warmup),
        quick,
        only,
        json,
        list,
        keep,
    })
}

/// The cases this run measures: all of them, or `--quick`'s, or those `--only` names.
fn selected_cases(quick: bool, only: Option<&str>) -> Result<Vec<BenchCase>, String> {
    let all = all_cases();
    if let Some(missing) = QUICK_SKIPS
        .iter()
        .find(|n| !all.iter().any(|c| c.name == **n))
    {
        return Err(format!("QUICK_SKIPS names no case: {missing}"));
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = all.iter().find(|c| !seen.insert(c.name.as_str())) {
        return Err(format!("two cases are named {}", dup.name));
    }
    Ok(all
        .into_iter()
        .filter(|c| !quick || !QUICK_SKIPS.contains(&c.name.as_str()))
        .filter(|c| only.is_none_or(|o| c.name.contains(o)))
        .collect())
}

fn real_main() -> Result<(), String> {
    let all: Vec<String> = std::env::args().collect();
    if let [_, flag, job_file] = &all[..] {
        if flag == "--measure" {
            return measure_main(Path::new(job_file));
        }
    }
    let opts = options()?;
    let cases = selected_cases(opts.quick, opts.only.as_deref())?;
    if opts.list {
        for case in &cases {
            println!("{}", case.name);
        }
        return Ok(());
    }
    let (runs, warmup) = (opts.runs, opts.warmup);
    let bin = opts.bin.ok_or(USAGE)?;
    let bin = fs::canonicalize(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let base = std::env::var_os("DID_IT_ACTUALLY_BENCH_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(std::env::temp_dir, PathBuf::from);
    let fx = Fixture::create(&base)
        .map_err(|e| format!("cannot create the fixture under {}: {e}", base.display()))?;
    eprintln!(
        "bench: {} cases x {runs} runs ({warmup} warm-up{}) against a {LOG_RECORDS}-record write log in {}",
        cases.len(),
        if opts.quick { ", quick" } else { "" },
        fx.root.display()
    );
    // The floors: /bin/true, and the hello world if it builds.
    check_true()?;
    let mut floors = vec![Floor {
        label: format!("`{FLOOR}`"),
        bin: PathBuf::from(FLOOR),
        stdin: None,
    }];
    let hello = build_hello(&fx.root);
    match &hello {
        Ok(h) => floors.push(h.clone()),
        Err(e) => eprintln!("bench: no hello-world floor, going on with {FLOOR} only: {e}"),
    }
    // Every case's files and stdin first (their setups must not conflict), each checked
    // once; then all the runs, interleaved.
    let mut stdin_files = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        (case.setup)(&fx).map_err(|e| format!("{}: setup failed: {e}", case.name))?;
        let stdin = (case.stdin)(&fx).map_err(|e| format!("{}: {e}", case.name))?;
        check_case(&bin, case, &stdin, &fx)?;
        let file = fx.root.join(format!("stdin-{i}.json"));
        fs::write(&file, &stdin).map_err(|e| format!("{}: {e}", file.display()))?;
        stdin_files.push(file);
    }
    // The sink floor, after the hello world (so the report finds that one second).
    let sink_case = match (&hello, cases.iter().position(|c| c.name == SINK_CASE)) {
        (Ok(_), Some(i)) => match build_sink(&fx.root, &stdin_files[i]) {
            Ok(f) => {
                floors.push(f);
                Some(i)
            }
            Err(e) => {
                eprintln!("bench: no stdin floor: {e}");
                None
            }
        },
        _ => None,
    };
    let job_file = fx.root.join("job.json");
    let job = job_json(&bin, &fx, &cases, &stdin_files, &floors, warmup, runs);
    fs::write(&job_file, job.to_string()).map_err(|e| format!("{}: {e}", job_file.display()))?;
    fs::write(fx.root.join("empty"), b"").map_err(|e| format!("cannot create the fixture: {e}"))?;
    if opts.keep {
        let replay = write_replay(&bin, &fx, &cases, &stdin_files)?;
        eprintln!("bench: --keep: the fixture stays; {} runs one case as the bench does (under a profiler: {} N valgrind --tool=callgrind)", replay.display(), replay.display());
    }
    let samples = measure(&job_file, cases.len() + floors.len())?;
    fx.reset_log()
        .map_err(|e| format!("cannot reset the write log: {e}"))?;
    let label = |i: usize| {
        cases
            .get(i)
            .map_or_else(|| floors[i - cases.len()].label.clone(), |c| c.name.clone())
    };
    if let Some((i, s)) = samples.iter().enumerate().find(|(_, s)| s.len() != runs) {
        return Err(format!(
            "{}: {} measurements, not {runs}",
            label(i),
            s.len()
        ));
    }
    let rows: Vec<Row> = cases
        .iter()
        .zip(&samples)
        .map(|(case, s)| row(&case.name, s))
        .collect();
    let floor_rows: Vec<Row> = floors
        .iter()
        .zip(&samples[cases.len()..])
        .map(|(f, s)| row(&f.label, s))
        .collect();
    let true_p50 = floor_rows[0].p50;
    let hello_p50 = floor_rows.get(1).map(|r| r.p50);
    println!(
        "| case | runs | p50 ms | over hello p50 ms | over true p50 ms | p95 ms | mean ms | max RSS MiB |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {:+.2} | {} | {} | {:.1} |",
            r.name,
            r.runs,
            ms(r.p50),
            hello_p50.map_or("n/a".to_owned(), |h| format!("{:+.2}", over(r.p50, h))),
            over(r.p50, true_p50),
            ms(r.p95),
            ms(r.mean),
            mib(r.maxrss_kib)
        );
    }
    let machine = machine(&bin);
    println!();
    println!("{machine}");
    println!();
    println!(
        "Floor: `{FLOOR}` in the same harness, interleaved with the cases: p50 {} ms, p95 {} ms, max RSS {:.1} MiB \
         (the cost of starting and ending any process on this machine).",
        ms(floor_rows[0].p50),
        ms(floor_rows[0].p95),
        mib(floor_rows[0].maxrss_kib)
    );
    match (&hello, floor_rows.get(1)) {
        (Ok(h), Some(r)) => println!(
            "Floor: {}, `{}`, interleaved with the cases: p50 {} ms, p95 {} ms, max RSS {:.1} MiB \
             (the start and exit of the smallest Rust program, linked as rustc links by default).",
            h.label,
            HELLO_SOURCE.trim(),
            ms(r.p50),
            ms(r.p95),
            mib(r.maxrss_kib)
        ),
        (Err(e), _) => println!("Floor: no hello world in this run ({e})."),
        (Ok(_), None) => unreachable!("the hello world is measured when it built"),
    }
    // Built only beside the hello world: the third floor and its case's row.
    if let (Some(i), Some(r), Some(h)) = (sink_case, floor_rows.get(2), hello_p50) {
        println!(
            "Floor: {}, interleaved with the cases: p50 {} ms ({:+.2} over hello world: the input's passage through the pipe), \
             max RSS {:.1} MiB; `{SINK_CASE}` is {:+.2} ms over it.",
            r.name,
            ms(r.p50),
            over(r.p50, h),
            mib(r.maxrss_kib),
            over(rows[i].p50, r.p50)
        );
    }
    if let Some(path) = &opts.json {
        let report = json!({
            "machine": machine,
            "binary": bin,
            "runs": runs,
            "warmup": warmup,
            "quick": opts.quick,
            "floors": {
                "true": floor_json(&floor_rows[0]),
                "hello": floor_rows.get(1).map(floor_json),
                "hello_error": hello.as_ref().err(),
                "stdin_sink": floor_rows.get(2).map(|r| json!({"case": SINK_CASE, "row": floor_json(r)})),
            },
            "rows": rows.iter().map(|r| json!({
                "case": r.name,
                "runs": r.runs,
                "p50_ms": ms_f(r.p50),
                "over_hello_p50_ms": hello_p50.map(|h| over(r.p50, h)),
                "over_true_p50_ms": over(r.p50, true_p50),
                "p95_ms": ms_f(r.p95),
                "mean_ms": ms_f(r.mean),
                "max_rss_mib": mib(r.maxrss_kib),
            })).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&report).unwrap() + "\n";
        fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if opts.keep {
        // Its Drop would remove it.
        std::mem::forget(fx);
    }
    Ok(())
}
