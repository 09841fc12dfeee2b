//! What export costs: the hook's hot path with `export.otlp` on and off, and one flush of
//! a 10,000-record backlog, against the real OTLP receiver of the tests
//! (`tests/support/otlp-receiver.sh`, the official protobuf definitions). Prints a
//! Markdown table.
//!
//! `bench/export.sh` builds the release binary and runs this; by hand:
//! `cargo run --release --locked --example export -- target/release/did-it-actually [--runs N]`
//!
//! The hook is verify-write on a 100-byte Write (one record appended per run), the same
//! input with the organisation policy saying `export.otlp` false and true, runs
//! interleaved. With it on, a run costs a `stat` of the export's due file; every
//! [`KICK_INTERVAL`](did_it_actually::export::KICK_INTERVAL) one run also starts the
//! detached flusher (that run's time includes the spawn, not the sending).

use did_it_actually::store::{DenialKind, DenialRecord, Record, SessionId, SessionStore};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let binary = PathBuf::from(args.next().expect("usage: export BINARY [--runs N]"));
    let mut runs = 300;
    while let Some(a) = args.next() {
        if a == "--runs" {
            runs = args.next().and_then(|n| n.parse().ok()).expect("--runs N");
        }
    }
    let dir = std::env::temp_dir().join(format!("dia-export-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (mut receiver, port) = start_receiver(&dir);
    let endpoint = format!("http://127.0.0.1:{port}");

    let (off, on) = hook_runs(&binary, &dir, &endpoint, runs);
    let flushes: Vec<Duration> = (0..5)
        .map(|i| flush_backlog(&binary, &dir.join(format!("flush-{i}")), &endpoint))
        .collect();

    println!("| case | runs | p50 | p90 | max |");
    println!("|---|---|---|---|---|");
    row("verify-write, Write 100 B, export off", &off);
    row("verify-write, Write 100 B, export on (endpoint up)", &on);
    println!(
        "\nexport on minus off, p50: {:+.3} ms (budget +0.1 ms)",
        ms(pct(&on, 50)) - ms(pct(&off, 50))
    );
    println!("\n| flush of 10,000 records (protobuf, 20 batches) | runs | p50 | min | max |");
    println!("|---|---|---|---|---|");
    let mut f = flushes.clone();
    f.sort();
    println!(
        "| `export flush`, whole process | {} | {:.1} ms | {:.1} ms | {:.1} ms |",
        f.len(),
        ms(f[f.len() / 2]),
        ms(f[0]),
        ms(f[f.len() - 1])
    );
    let _ = receiver.kill();
    let _ = receiver.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn pct(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn row(name: &str, sorted: &[Duration]) {
    println!(
        "| {name} | {} | {:.3} ms | {:.3} ms | {:.3} ms |",
        sorted.len(),
        ms(pct(sorted, 50)),
        ms(pct(sorted, 90)),
        ms(sorted[sorted.len() - 1])
    );
}

fn start_receiver(dir: &Path) -> (std::process::Child, u16) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/otlp-receiver.sh");
    let mut child = Command::new(script)
        .args(["--port", "0", "--out"])
        .arg(dir.join("received.jsonl"))
        .stdout(Stdio::piped())
        .spawn()
        .expect("tests/support/otlp-receiver.sh");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line.trim().trim_start_matches("PORT ").parse().unwrap();
    (child, port)
}

/// A project, a state directory and an organisation policy with export on or off.
fn world(dir: &Path, export: bool) -> (PathBuf, PathBuf, PathBuf) {
    let project = dir.join("project");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let policy = dir.join("org.json");
    std::fs::write(
        &policy,
        format!("{{\"version\": 1, \"export\": {{\"otlp\": {export}}}}}"),
    )
    .unwrap();
    (project, dir.join("state"), policy)
}

fn command(binary: &Path, project: &Path, state: &Path, policy: &Path, endpoint: &str) -> Command {
    let mut cmd = Command::new(binary);
    cmd.current_dir(project)
        .env("DID_IT_ACTUALLY_STATE_DIR", state)
        .env("DID_IT_ACTUALLY_ORG_POLICY", policy)
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
        .env("HOME", project)
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// One hook run in `world`; its wall time.
struct HookWorld {
    project: PathBuf,
    state: PathBuf,
    policy: PathBuf,
    stdin: String,
}

impl HookWorld {
    fn new(dir: &Path, export: bool) -> HookWorld {
        let (project, state, policy) = world(dir, export);
        let file = project.join("Cargo.toml");
        let content = "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n# file 00\n";
        std::fs::write(&file, content).unwrap();
        let stdin = serde_json::json!({
            "session_id": "5f0c2c8e-3b8a-4d7e-9c41-0d6a2f9b7e13", "cwd": project,
            "hook_event_name": "PostToolUse", "tool_name": "Write",
            "tool_input": {"file_path": file, "content": content},
            "tool_response": {"type": "create", "filePath": file, "content": content}
        })
        .to_string();
        HookWorld {
            project,
            state,
            policy,
            stdin,
        }
    }

    fn run(&self, binary: &Path, endpoint: &str) -> Duration {
        let mut cmd = command(binary, &self.project, &self.state, &self.policy, endpoint);
        cmd.arg("verify-write").stdin(Stdio::piped());
        let start = Instant::now();
        let mut child = cmd.spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(self.stdin.as_bytes())
            .unwrap();
        let status = child.wait().unwrap();
        let took = start.elapsed();
        assert!(status.success());
        took
    }
}

/// The hook with export off and on, runs interleaved (so drift favours neither).
fn hook_runs(
    binary: &Path,
    dir: &Path,
    endpoint: &str,
    runs: usize,
) -> (Vec<Duration>, Vec<Duration>) {
    let off = HookWorld::new(&dir.join("off"), false);
    let on = HookWorld::new(&dir.join("on"), true);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for i in 0..runs + 5 {
        let (x, y) = (off.run(binary, endpoint), on.run(binary, endpoint));
        if i >= 5 {
            a.push(x);
            b.push(y);
        }
    }
    a.sort();
    b.sort();
    (a, b)
}

fn flush_backlog(binary: &Path, dir: &Path, endpoint: &str) -> Duration {
    let (project, state, policy) = world(dir, true);
    let session = SessionId::parse("backlog").unwrap();
    let store = SessionStore::new(&state, &session);
    let records: Vec<Record> = (0..10_000)
        .map(|i| {
            DenialRecord {
                v: 1,
                kind: DenialKind::Denial,
                time: "2026-12-05T00:00:00.000Z".into(),
                session: "backlog".into(),
                prompt_id: Some(format!("p-{}", i / 100)),
                tool_use_id: Some(format!("t-{i}")),
                event: "PreToolUse".into(),
                hook: "scope-guard".into(),
                tool: "Write".into(),
                targets: vec![format!("/srv/x/{i}.txt")],
                rule: None,
                reason: format!(
                    "scope-guard: the Write to /srv/x/{i}.txt is outside the project root"
                ),
                host: None,
                by: None,
                cwd: None,
            }
            .into()
        })
        .collect();
    store.append(&records).unwrap();
    std::fs::write(
        store.dir().join(did_it_actually::export::SESSION_FILE),
        r#"{"v":1,"cursor":0,"redact":[]}"#,
    )
    .unwrap();
    let mut cmd = command(binary, &project, &state, &policy, endpoint);
    cmd.args(["export", "flush"]);
    let start = Instant::now();
    let status = cmd.status().unwrap();
    let took = start.elapsed();
    assert!(status.success(), "export flush failed");
    took
}
