//! Two measurements for BENCHMARKS.md that the per-case harness (`bench.rs`) does not
//! make:
//!
//! - **load**: rounds of 200 hook processes started at once against one session, all four
//!   hooks (50 each): verify-write appending to one write log, block-wrong-branch reading
//!   one repository, scope-guard, and audit-turn blocking 50 subagent stops (each its own
//!   agent, so each is one counter update of one file). Per process, the time from just
//!   before its spawn until it is reaped; per round, p50 and p99. Every answer is checked,
//!   and after the rounds every record must be intact and every counter update kept.
//! - **reader**: the backward transcript reader on a turn with a 64 MiB line (a written
//!   file's content), in this process (median of 10 reads; the page cache is warm), and
//!   the whole audit-turn process on the same transcript, for a final message that claims
//!   the tests pass (the write came after them: a block).
//!
//! `bench/load.sh` builds the release binary and runs both:
//! `cargo run --release --locked --example load -- target/release/did-it-actually [--rounds N] [--procs N]`

use serde_json::{json, Value};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

const SESSION: &str = "load-session";
const PROMPT: &str = "load-prompt";

#[derive(Clone, Copy, Debug, PartialEq)]
enum Hook {
    VerifyWrite,
    BlockWrongBranch,
    ScopeGuard,
    AuditTurn,
}

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

struct Fixture {
    root: PathBuf,
    repo: PathBuf,
    state: PathBuf,
    home: PathBuf,
    transcript: PathBuf,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

fn git(cwd: &Path, args: &[&str]) -> Result<(), String> {
    let out = Command::new("git")
        .current_dir(cwd)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.invalid")
        .env("GIT_COMMITTER_NAME", "bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.invalid")
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(())
}

/// The final message every audited subagent stop ends with: a claim with no evidence.
const UNBACKED: &str = "I updated `src/missing.rs`.";

fn fixture() -> Result<Fixture, String> {
    let root = std::env::temp_dir().join(format!("did-it-actually-load-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    let repo = root.join("repo");
    let state = root.join("state");
    let home = root.join("home");
    for d in [&repo, &state, &home] {
        fs::create_dir_all(d).map_err(|e| e.to_string())?;
    }
    let repo = fs::canonicalize(&repo).map_err(|e| e.to_string())?;
    git(&repo, &["init", "-q", "-b", "main"])?;
    fs::write(repo.join("README.md"), "load\n").map_err(|e| e.to_string())?;
    git(&repo, &["add", "."])?;
    git(&repo, &["commit", "-q", "-m", "seed"])?;
    git(&repo, &["checkout", "-q", "-b", "feat/x"])?;
    fs::create_dir_all(repo.join("src")).map_err(|e| e.to_string())?;
    let transcript = root.join("transcript.jsonl");
    let lines = [
        json!({"type": "user", "promptId": PROMPT, "timestamp": "2026-11-30T02:00:00.000Z", "message": {"role": "user", "content": "go"}}),
        json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": UNBACKED}]}}),
    ];
    fs::write(
        &transcript,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .map_err(|e| e.to_string())?;
    Ok(Fixture {
        root,
        repo,
        state,
        home,
        transcript,
    })
}

/// Process `i` of round `round`: which hook, its stdin, and a check of its answer.
fn job(fx: &Fixture, round: usize, i: usize) -> (Hook, Vec<u8>) {
    let id = format!("r{round}-p{i}");
    let mut v = json!({"session_id": SESSION, "prompt_id": PROMPT, "cwd": fx.repo,
        "transcript_path": fx.transcript, "tool_use_id": id});
    let hook = [
        Hook::VerifyWrite,
        Hook::BlockWrongBranch,
        Hook::ScopeGuard,
        Hook::AuditTurn,
    ][i % 4];
    let extra = match hook {
        Hook::VerifyWrite => {
            let path = fx.repo.join(format!("src/{id}.txt"));
            let content = format!("written by {id}\n");
            json!({"hook_event_name": "PostToolUse", "tool_name": "Write",
                "tool_input": {"file_path": path, "content": content},
                "tool_response": {"type": "create", "filePath": path, "content": content}})
        }
        Hook::BlockWrongBranch => {
            let command = if i % 8 == 1 {
                "git push origin HEAD:main"
            } else {
                "git add -A && git commit -m wip && git push origin HEAD:feat/x"
            };
            json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}})
        }
        Hook::ScopeGuard => json!({"hook_event_name": "PreToolUse", "tool_name": "Write",
            "tool_input": {"file_path": fx.repo.join(format!("src/{id}.rs")), "content": "x"}}),
        Hook::AuditTurn => json!({"hook_event_name": "SubagentStop", "stop_hook_active": false,
            "agent_id": id, "agent_transcript_path": fx.transcript,
            "last_assistant_message": UNBACKED}),
    };
    for (k, val) in extra.as_object().unwrap() {
        v[k] = val.clone();
    }
    (hook, v.to_string().into_bytes())
}

/// Whether the answer is the one this input must get.
fn check(hook: Hook, i: usize, code: Option<i32>, stdout: &str) -> Result<(), String> {
    let v: Option<Value> = serde_json::from_str(stdout).ok();
    let get = |p: &str| {
        v.as_ref()
            .and_then(|v| v.pointer(p))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let ok = code == Some(0)
        && match hook {
            Hook::VerifyWrite | Hook::ScopeGuard => stdout.is_empty(),
            Hook::BlockWrongBranch if i % 8 == 1 => {
                get("/hookSpecificOutput/permissionDecision") == "deny"
            }
            Hook::BlockWrongBranch => stdout.is_empty(),
            Hook::AuditTurn => get("/decision") == "block" && get("/reason").contains("missing.rs"),
        };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} (process {i}) answered wrongly: exit {code:?}, stdout {stdout:.400}",
            hook.name()
        ))
    }
}

/// Runs one round: `procs` processes started at once. Returns each one's time.
fn round(bin: &Path, fx: &Fixture, round: usize, procs: usize) -> Result<Vec<Duration>, String> {
    let mut running = Vec::new();
    let mut jobs = Vec::new();
    for i in 0..procs {
        let (hook, stdin) = job(fx, round, i);
        if hook == Hook::VerifyWrite {
            let path = fx.repo.join(format!("src/r{round}-p{i}.txt"));
            fs::write(&path, format!("written by r{round}-p{i}\n")).map_err(|e| e.to_string())?;
        }
        jobs.push((hook, stdin));
    }
    // Every process is started before any gets its input, so they all run together.
    for (hook, _) in &jobs {
        let start = Instant::now();
        let child = Command::new(bin)
            .arg(hook.name())
            .current_dir(&fx.repo)
            .env("DID_IT_ACTUALLY_STATE_DIR", &fx.state)
            .env("HOME", &fx.home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .env_remove("XDG_STATE_HOME")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        running.push((start, child));
    }
    let waiters: Vec<_> = running
        .into_iter()
        .zip(jobs)
        .enumerate()
        .map(|(i, ((start, mut child), (hook, stdin)))| {
            std::thread::spawn(move || -> Result<Duration, String> {
                let mut pipe = child.stdin.take().expect("piped");
                let _ = pipe.write_all(&stdin);
                drop(pipe);
                let out = child.wait_with_output().map_err(|e| e.to_string())?;
                let took = start.elapsed();
                if !out.stderr.is_empty() {
                    return Err(format!(
                        "{} wrote to stderr: {}",
                        hook.name(),
                        String::from_utf8_lossy(&out.stderr)
                    ));
                }
                check(
                    hook,
                    i,
                    out.status.code(),
                    &String::from_utf8_lossy(&out.stdout),
                )?;
                Ok(took)
            })
        })
        .collect();
    waiters
        .into_iter()
        .map(|w| w.join().map_err(|_| "a waiter panicked".to_owned())?)
        .collect()
}

/// After all rounds: every record intact and present (a verified write per verify-write
/// process, a denial per denied push), every subagent's counter at exactly one block.
fn check_state(fx: &Fixture, rounds: usize, procs: usize) -> Result<(usize, usize), String> {
    let session = fx.state.join("sessions").join(SESSION);
    let log = fs::read_to_string(session.join("writes.jsonl")).map_err(|e| e.to_string())?;
    let (mut writes, mut denials) = (Vec::new(), Vec::new());
    for line in log.lines() {
        let r: Value =
            serde_json::from_str(line).map_err(|e| format!("a torn record ({e}): {line}"))?;
        let id = r["tool_use_id"].as_str().unwrap_or("").to_owned();
        match (r["kind"].as_str(), &r["verified"]) {
            (Some("denial"), _) => denials.push(id),
            (None, Value::Bool(true)) => writes.push(id),
            _ => return Err(format!("an unexpected record: {line}")),
        }
    }
    let ids = |keep: fn(usize) -> bool| -> Vec<String> {
        let mut v: Vec<String> = (0..rounds)
            .flat_map(|r| {
                (0..procs)
                    .filter(move |&i| keep(i))
                    .map(move |i| format!("r{r}-p{i}"))
            })
            .collect();
        v.sort();
        v
    };
    writes.sort();
    denials.sort();
    if writes != ids(|i| i % 4 == 0) || denials != ids(|i| i % 8 == 1) {
        return Err(format!(
            "the write log holds {} writes and {} denials, not {} and {}",
            writes.len(),
            denials.len(),
            ids(|i| i % 4 == 0).len(),
            ids(|i| i % 8 == 1).len()
        ));
    }
    let counters: Value = serde_json::from_slice(
        &fs::read(session.join("stop-blocks.json")).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    let entries = counters["entries"].as_array().cloned().unwrap_or_default();
    let expected = ids(|i| i % 4 == 3).len();
    if entries.len() != expected || entries.iter().any(|e| e["blocks"] != 1) {
        return Err(format!(
            "the stop-block counter holds {} entries ({expected} expected, each at 1 block): {counters:.600}",
            entries.len()
        ));
    }
    Ok((writes.len() + denials.len(), entries.len()))
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    let n = sorted.len();
    sorted[((p * n as f64).ceil() as usize).clamp(1, n) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

fn load(bin: &Path, rounds: usize, procs: usize) -> Result<(), String> {
    let fx = fixture()?;
    println!("### Load: {procs} concurrent processes x {rounds} rounds, one session");
    println!();
    println!("| round | processes | p50 ms | p99 ms | max ms | round wall ms |");
    println!("|---:|---:|---:|---:|---:|---:|");
    let mut all = Vec::new();
    for r in 0..rounds {
        let started = Instant::now();
        let mut times = round(bin, &fx, r, procs)?;
        let wall = started.elapsed();
        times.sort();
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            r + 1,
            times.len(),
            ms(pct(&times, 0.5)),
            ms(pct(&times, 0.99)),
            ms(*times.last().unwrap()),
            ms(wall)
        );
        all.extend(times);
    }
    all.sort();
    println!(
        "| all | {} | {} | {} | {} | |",
        all.len(),
        ms(pct(&all, 0.5)),
        ms(pct(&all, 0.99)),
        ms(*all.last().unwrap())
    );
    let (records, counters) = check_state(&fx, rounds, procs)?;
    println!();
    println!(
        "Every answer as expected; the write log holds all {records} records intact (writes and denials), and the stop-block counter all {counters} updates."
    );
    Ok(())
}

/// The final message of the long-line turn: a claim that needs the transcript (the
/// tests ran, but before the 64 MiB write), so audit-turn reads it and blocks.
const TESTS_PASS: &str = "Done. All tests pass.";

/// A transcript whose turn ran the tests, wrote a 64 MiB file (the content in the tool
/// call's line), and ended.
fn long_line_transcript(path: &Path) -> io::Result<()> {
    let mut f = io::BufWriter::with_capacity(1 << 20, fs::File::create(path)?);
    let big = "x".repeat(64 << 20);
    let mut line = |v: Value| writeln!(f, "{v}");
    line(
        json!({"type": "user", "promptId": PROMPT, "timestamp": "2026-11-30T02:00:00.000Z", "message": {"role": "user", "content": "write it"}}),
    )?;
    line(
        json!({"message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cargo test"}}]}, "type": "assistant"}),
    )?;
    line(
        json!({"promptId": PROMPT, "type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t1", "type": "tool_result", "content": "test result: ok. 3 passed"}]}}),
    )?;
    line(
        json!({"message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Write", "input": {"file_path": "/p/big.txt", "content": big}}]}, "type": "assistant"}),
    )?;
    line(
        json!({"promptId": PROMPT, "type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t2", "type": "tool_result", "content": "File created"}]}}),
    )?;
    line(
        json!({"message": {"role": "assistant", "content": [{"type": "text", "text": TESTS_PASS}]}, "type": "assistant"}),
    )?;
    f.flush()
}

fn reader(bin: &Path) -> Result<(), String> {
    let fx = fixture()?;
    let path = fx.root.join("long-line.jsonl");
    long_line_transcript(&path).map_err(|e| e.to_string())?;
    let size = fs::metadata(&path).map_err(|e| e.to_string())?.len();
    let median = |f: &mut dyn FnMut() -> Result<(), String>| -> Result<Duration, String> {
        let mut t = Vec::new();
        for _ in 0..10 {
            let s = Instant::now();
            f()?;
            t.push(s.elapsed());
        }
        t.sort();
        Ok(t[t.len() / 2])
    };
    let lines = median(&mut || {
        let mut n = 0;
        did_it_actually::fsutil::lines_backward_long(&path, |_| {
            n += 1;
            true
        })
        .map_err(|e| e.to_string())?;
        (n == 6).then_some(()).ok_or(format!("{n} lines, not 6"))
    })?;
    let turn = median(&mut || {
        let turn = did_it_actually::transcript::read_turn(&path, Some(PROMPT))
            .map_err(|e| e.to_string())?;
        (turn.events.len() == 4 && turn.bad_lines == 0)
            .then_some(())
            .ok_or(format!("{turn:?}"))
    })?;
    // A session per run: each run is a first block, not the loop guard's cap.
    let mut run = 0;
    let process = median(&mut || {
        run += 1;
        let stdin = json!({"session_id": format!("reader-{run}"), "prompt_id": PROMPT,
            "cwd": fx.repo, "transcript_path": path, "hook_event_name": "Stop",
            "stop_hook_active": false, "last_assistant_message": TESTS_PASS})
        .to_string();
        let mut child = Command::new(bin)
            .arg("audit-turn")
            .current_dir(&fx.repo)
            .env("DID_IT_ACTUALLY_STATE_DIR", &fx.state)
            .env("HOME", &fx.home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| e.to_string())?;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .map_err(|e| e.to_string())?;
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        let blocked = answer["decision"] == "block"
            && answer["reason"]
                .as_str()
                .is_some_and(|r| r.contains("before the turn's last file write"));
        (out.status.success() && blocked)
            .then_some(())
            .ok_or(format!(
                "audit-turn answered {}",
                String::from_utf8_lossy(&out.stdout)
            ))
    })?;
    println!("### Reader: a turn with a 64 MiB line ({size} bytes of transcript)");
    println!();
    println!("| what | median of 10, ms |");
    println!("|---|---:|");
    println!(
        "| `fsutil::lines_backward_long`, all 6 lines | {} |",
        ms(lines)
    );
    println!("| `transcript::read_turn` | {} |", ms(turn));
    println!(
        "| audit-turn process, Stop claiming the tests pass (a block: the write came after) | {} |",
        ms(process)
    );
    Ok(())
}

fn main() -> ExitCode {
    let usage =
        "usage: load <path to did-it-actually> [--rounds N] [--procs N] [--only load|reader]";
    let mut args = std::env::args().skip(1);
    let (mut bin, mut rounds, mut procs, mut only) = (None, 5, 200, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            "--procs" => procs = args.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            "--only" => only = args.next(),
            _ => bin = Some(PathBuf::from(a)),
        }
    }
    let Some(bin) = bin.filter(|_| rounds > 0 && procs > 0) else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let bin = match fs::canonicalize(&bin) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("load: {}: {e}", bin.display());
            return ExitCode::FAILURE;
        }
    };
    let result = match only.as_deref() {
        Some("load") => load(&bin, rounds, procs),
        Some("reader") => reader(&bin),
        None => load(&bin, rounds, procs).and_then(|()| {
            println!();
            reader(&bin)
        }),
        Some(other) => Err(format!("unknown --only {other}; {usage}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("load: {e}");
            ExitCode::FAILURE
        }
    }
}
