//! `did-it-actually report` over a ledger the real hooks wrote: a Claude Code session (two
//! refusals of the static hooks, one of git's own run-time hook, a lost write, a stop
//! blocked for unbacked claims) and a Qwen Code session (a write that landed, a test run, a
//! refusal, a stop), beside a Claude Code session the guards never saw, one whose
//! transcript names no directory, and a ledger that cannot be read. Snapshots pin the
//! Markdown and the JSON; the HTML must escape a `<script>` the agent put in a path, and a
//! real browser must draw the chart's bars with their counts and run nothing from the
//! ledger.

use crate::support::fixture::{scratch, Scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

/// What the agent tried to write: a path that is markup, for the HTML to escape.
/// Long enough that the reason quoting it is cut before the scratch directory it names.
const SCRIPT_PATH: &str = "/srv/<script>document.title='pwned'</script>/notes/the/agent/kept/far/outside/the/project/it/worked/in.txt";

struct World {
    dir: Scratch,
    project: PathBuf,
}

impl World {
    fn new() -> World {
        let dir = scratch("report");
        let project = dir.join("root");
        let git = |args: &[&str]| {
            let out = crate::support::repo::git_command(&project)
                .args(args)
                .output()
                .unwrap();
            assert!(out.status.success(), "git {args:?}: {out:?}");
        };
        git(&["init", "-q", "-b", "main"]);
        git(&["commit", "-q", "--allow-empty", "-m", "seed"]);
        std::fs::create_dir_all(dir.join("home")).unwrap();
        World { dir, project }
    }

    fn home(&self) -> PathBuf {
        self.dir.join("home")
    }

    fn state(&self) -> PathBuf {
        self.dir.join("state")
    }

    /// Claude Code's configuration directory (`CLAUDE_CONFIG_DIR`): its transcripts.
    fn claude_dir(&self) -> PathBuf {
        self.dir.join("claude")
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .current_dir(&self.project)
            .env("HOME", self.home())
            .env("DID_IT_ACTUALLY_STATE_DIR", self.state())
            .env("CLAUDE_CONFIG_DIR", self.claude_dir())
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .env_remove("XDG_STATE_HOME");
        cmd
    }

    /// A transcript as Claude Code keeps it: `projects/<the directory, munged>/<id>.jsonl`.
    fn transcript(&self, session: &str, cwd: &Path, lines: &[serde_json::Value]) -> PathBuf {
        let dir = self.claude_dir().join("projects").join(munged(cwd));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{session}.jsonl"));
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&file, text).unwrap();
        file
    }

    fn hook(&self, hook: &str, host: &str, input: serde_json::Value) -> Output {
        crate::support::output_with_stdin(
            &mut self.cmd(&[hook, "--host", host]),
            input.to_string().as_bytes(),
        )
    }

    /// One hook call of the Claude Code session `claude-1`, in turn `p-1`.
    fn claude(&self, hook: &str, event: serde_json::Value) -> Output {
        let transcript = self
            .claude_dir()
            .join("projects")
            .join(munged(&self.project))
            .join("claude-1.jsonl");
        let mut input = serde_json::json!({"session_id": "claude-1", "prompt_id": "p-1",
            "transcript_path": transcript, "cwd": self.project,
            "permission_mode": "bypassPermissions"});
        input
            .as_object_mut()
            .unwrap()
            .extend(event.as_object().unwrap().clone());
        self.hook(hook, "claude", input)
    }

    /// One hook call of the Qwen Code session `qwen-1` (Qwen names no turns).
    fn qwen(&self, hook: &str, event: serde_json::Value) -> Output {
        let mut input = serde_json::json!({"session_id": "qwen-1", "cwd": self.project});
        input
            .as_object_mut()
            .unwrap()
            .extend(event.as_object().unwrap().clone());
        self.hook(hook, "qwen", input)
    }

    /// Plays every session, as the hosts and git would have run the hooks.
    fn played() -> World {
        let w = World::new();
        w.play_claude();
        w.play_qwen();
        w.play_unguarded();
        // A ledger that cannot be read (a directory where the file should be).
        std::fs::create_dir_all(w.state().join("sessions/broken/writes.jsonl")).unwrap();
        w
    }

    fn play_claude(&self) {
        let message = "I updated `src/lib.rs`. All tests pass.";
        self.transcript(
            "claude-1",
            &self.project,
            &[
                serde_json::json!({"type": "user", "promptId": "p-1", "cwd": self.project,
                    "sessionId": "claude-1", "timestamp": "2026-01-01T00:00:00.000Z",
                    "message": {"role": "user", "content": "go"}}),
                serde_json::json!({"type": "assistant", "cwd": self.project,
                    "message": {"role": "assistant", "content": [{"type": "text", "text": message}]}}),
            ],
        );
        let denied = |out: Output| {
            let answer = String::from_utf8_lossy(&out.stdout).into_owned();
            assert!(answer.contains("\"deny\""), "{answer}");
        };
        denied(self.claude(
            "scope-guard",
            serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Write",
                "tool_use_id": "t1", "tool_input": {"file_path": SCRIPT_PATH, "content": "x"}}),
        ));
        denied(self.claude(
            "block-wrong-branch",
            serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_use_id": "t2", "tool_input": {"command": "git push origin HEAD:main"}}),
        ));
        // The tool said it wrote the file; nothing is there.
        let file = self.project.join("notes.md");
        self.claude(
            "verify-write",
            serde_json::json!({"hook_event_name": "PostToolUse", "tool_name": "Write",
                "tool_use_id": "t3", "tool_input": {"file_path": file, "content": "the plan\n"},
                "tool_response": {"type": "create", "filePath": file, "content": "the plan\n",
                    "structuredPatch": [], "originalFile": null, "userModified": false}}),
        );
        // git's own hook refuses a commit on main, as the agent's shell runs it.
        let agent_env =
            crate::support::install_run_time(&self.project, &self.home(), &self.state(), BIN);
        let mut commit = crate::support::repo::git_command(&self.project);
        commit
            .args(["commit", "-q", "--allow-empty", "-m", "work"])
            .env("HOME", self.home())
            .env("DID_IT_ACTUALLY_STATE_DIR", self.state())
            .env("CLAUDE_CODE_SESSION_ID", "claude-1");
        for (k, v) in &agent_env {
            commit.env(k, v);
        }
        let out = commit.output().unwrap();
        assert!(
            !out.status.success(),
            "the commit on main went through: {out:?}"
        );
        // The stop: neither claim is backed, and the stop is refused.
        let stop = self.claude(
            "audit-turn",
            serde_json::json!({"hook_event_name": "Stop", "stop_hook_active": false,
                "last_assistant_message": message}),
        );
        let answer = String::from_utf8_lossy(&stop.stdout);
        assert!(answer.contains("\"block\""), "{answer}");
    }

    fn play_qwen(&self) {
        std::fs::write(self.project.join("plan.md"), "step one\n").unwrap();
        self.qwen(
            "verify-write",
            serde_json::json!({"hook_event_name": "PostToolUse", "tool_name": "write_file",
                "tool_input": {"file_path": self.project.join("plan.md"), "content": "step one\n"},
                "tool_response": {"llmContent": "ok"}}),
        );
        self.qwen(
            "verify-write",
            serde_json::json!({"hook_event_name": "PostToolUse", "tool_name": "run_shell_command",
                "tool_input": {"command": "cargo test"},
                "tool_response": {"llmContent": "running 3 tests\ntest result: ok. 3 passed; 0 failed\n"}}),
        );
        let denied = self.qwen(
            "block-wrong-branch",
            serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "run_shell_command",
                "tool_input": {"command": "git push origin HEAD:main"}}),
        );
        assert!(String::from_utf8_lossy(&denied.stdout).contains("\"deny\""));
        // A weak reading ("was regenerated") is only reported; the tests are backed.
        self.qwen(
            "audit-turn",
            serde_json::json!({"hook_event_name": "Stop", "stop_hook_active": false,
                "last_assistant_message": "`config.yaml` was regenerated. All 3 tests pass."}),
        );
    }

    /// Two Claude Code sessions with no ledger: one in another project, one whose
    /// transcript names no directory.
    fn play_unguarded(&self) {
        let other = self.dir.join("other");
        std::fs::create_dir_all(&other).unwrap();
        self.transcript(
            "unguarded-1",
            &other,
            &[
                serde_json::json!({"type": "summary", "summary": "x"}),
                serde_json::json!({"type": "user", "cwd": other, "sessionId": "unguarded-1",
                    "message": {"role": "user", "content": "go"}}),
            ],
        );
        self.transcript(
            "unguarded-2",
            &other,
            &[serde_json::json!({"type": "summary", "summary": "nothing else"})],
        );
    }

    fn report(&self, args: &[&str]) -> String {
        let mut all = vec!["report"];
        all.extend_from_slice(args);
        let out = self.cmd(&all).output().unwrap();
        assert!(
            out.status.success(),
            "report {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }
}

fn munged(path: &Path) -> String {
    path.display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The scratch directory, times and dates out, so the snapshot holds what the report says.
fn redact(text: &str, dir: &Path) -> String {
    let text = text.replace(dir.to_str().unwrap(), "[SCRATCH]");
    let b = text.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    let is_date = |i: usize| {
        digits(i..i + 4)
            && b.get(i + 4) == Some(&b'-')
            && digits(i + 5..i + 7)
            && b.get(i + 7) == Some(&b'-')
            && digits(i + 8..i + 10)
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if is_date(i) {
            // A whole time (2026-05-01T09:30:00.123Z) or a day.
            if b.get(i + 10) == Some(&b'T') && b.get(i + 23) == Some(&b'Z') {
                out.push_str("[TIME]");
                i += 24;
            } else {
                out.push_str("[DAY]");
                i += 10;
            }
            continue;
        }
        let c = text[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

#[test]
fn a_report_sums_up_every_session_of_the_window_in_markdown_and_json() {
    let w = World::played();
    let markdown = w.report(&[]);
    insta::assert_snapshot!("report_markdown", redact(&markdown, &w.dir));

    let json_text = w.report(&["--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json_text).unwrap();
    let refusals = &json["refusals"];
    assert_eq!(refusals["total"], 4, "{json:#}");
    let layer = |name: &str| {
        refusals["by_layer"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["layer"] == name)
            .map(|l| l["count"].clone())
    };
    assert_eq!(layer("static"), Some(3.into()), "{json:#}");
    assert_eq!(layer("run-time"), Some(1.into()), "{json:#}");
    assert_eq!(json["lost_writes"][0]["outcome"], "missing", "{json:#}");
    let unguarded: Vec<&str> = json["unguarded_sessions"]["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["session"].as_str().unwrap())
        .collect();
    assert_eq!(unguarded.len(), 2, "{json:#}");
    assert!(unguarded.contains(&"unguarded-1") && unguarded.contains(&"unguarded-2"));
    assert_eq!(json["ledgers"]["unreadable"][0]["what"], "session broken");
    // The days sum up what the sections count.
    let days = json["days"].as_array().unwrap();
    let sum = |key: &str| days.iter().map(|d| d[key].as_u64().unwrap()).sum::<u64>();
    assert_eq!(sum("refusals"), 4);
    assert_eq!(
        sum("unbacked_claims"),
        json["unbacked_claims"]["blocked"].as_u64().unwrap()
            + json["unbacked_claims"]["reported"].as_u64().unwrap()
    );
    insta::assert_snapshot!("report_json", redact(&json_text, &w.dir));

    // One project: the session in another directory is not its.
    let mine: serde_json::Value = serde_json::from_str(&w.report(&[
        "--format",
        "json",
        "--project",
        w.project.to_str().unwrap(),
    ]))
    .unwrap();
    assert_eq!(mine["refusals"]["total"], 4, "{mine:#}");
    assert_eq!(
        mine["unguarded_sessions"]["sessions"],
        serde_json::json!([]),
        "{mine:#}"
    );
    let elsewhere = w.report(&["--project", w.dir.join("other").to_str().unwrap()]);
    assert!(
        elsewhere.contains("## Sessions the guards never saw (1)"),
        "{elsewhere}"
    );
    assert!(elsewhere.contains("## Refusals (0)"), "{elsewhere}");

    // A window with nothing in it says so, and what it read.
    let empty = w.report(&["--since", "2020-01-01", "--until", "2020-01-31"]);
    assert!(empty.contains("Nothing in this window"), "{empty}");
    assert!(
        empty.contains("From 2020-01-01T00:00:00.000Z to 2020-02-01T00:00:00.000Z"),
        "{empty}"
    );
    assert!(empty.contains("session broken: "), "{empty}");
}

#[test]
fn a_bad_window_is_a_usage_error() {
    let w = World::new();
    for args in [
        &["report", "--since", "yesterday"][..],
        &["report", "--until", "7d"],
        &["report", "--since", "2026-05-02", "--until", "2026-05-01"],
    ] {
        let out = w.cmd(args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("is neither a duration")
                || err.contains("is not a date")
                || err.contains("the window is empty"),
            "{args:?}: {err}"
        );
    }
}

/// The HTML report written with `--output`.
fn html_report(w: &World) -> (PathBuf, String) {
    let file = w.dir.join("report.html");
    let said = w.report(&["--format", "html", "--output", file.to_str().unwrap()]);
    assert_eq!(said, format!("report written to {}\n", file.display()));
    let html = std::fs::read_to_string(&file).unwrap();
    (file, html)
}

#[test]
fn the_html_report_escapes_what_agents_wrote() {
    let w = World::played();
    let (_, html) = html_report(&w);
    assert!(
        html.contains("/srv/&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;/notes/"),
        "{html}"
    );
    assert!(!html.contains("<script"), "{html}");
    // Self-contained: nothing is fetched, and the page forbids scripts of any origin.
    for fetch in ["src=", "href=", "url(", "@import"] {
        assert!(!html.contains(fetch), "{fetch}: {html}");
    }
    assert!(html.contains("default-src 'none'"), "{html}");
    assert_eq!(html.matches("<rect").count() % 2, 0, "{html}");
}

#[test]
fn a_browser_draws_the_reports_chart_and_runs_nothing_from_the_ledger() {
    let Some(chromium) = chromium_or_skip() else {
        return;
    };
    let w = World::played();
    let (file, _) = html_report(&w);
    let profile = w.dir.join("chromium-profile");
    let mut cmd = Command::new(&chromium);
    cmd.args([
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
    ])
    .arg(format!("--user-data-dir={}", profile.display()))
    .arg("--dump-dom")
    .arg(format!("file://{}", file.display()))
    .env("HOME", w.home());
    let dom = output_within(cmd, std::time::Duration::from_secs(120));
    // The page's own title, not one a script set.
    let title = between(&dom, "<title>", "</title>").expect("the page has a title");
    assert!(title.starts_with("did-it-actually report, "), "{title}");
    assert!(
        !dom.contains("pwned</title>") && !title.contains("pwned"),
        "{dom}"
    );
    assert!(!dom.contains("<script"), "{dom}");
    // The path the agent wrote is text on the page.
    assert!(
        dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"),
        "{dom}"
    );
    // Every bar is drawn, two a day, with the counts the JSON gives.
    let bars = rects(&dom);
    let json: serde_json::Value = serde_json::from_str(&w.report(&["--format", "json"])).unwrap();
    let days = json["days"].as_array().unwrap();
    assert_eq!(bars.len(), 2 * days.len(), "{dom}");
    for day in days {
        let d = day["day"].as_str().unwrap();
        let count = |series: &str| {
            bars.iter()
                .find(|(s, at, _)| s == series && at == d)
                .map(|(_, _, n)| *n)
        };
        assert_eq!(count("refusals"), day["refusals"].as_u64(), "{d}");
        assert_eq!(count("unbacked"), day["unbacked_claims"].as_u64(), "{d}");
    }
    let total = |series: &str| -> u64 {
        bars.iter()
            .filter(|(s, _, _)| s == series)
            .map(|(_, _, n)| n)
            .sum()
    };
    assert_eq!(total("refusals"), 4);
    assert!(total("unbacked") >= 2);
}

/// The chart's bars in a DOM: (series, day, count) of each `<rect>`.
fn rects(dom: &str) -> Vec<(String, String, u64)> {
    dom.split("<rect")
        .skip(1)
        .map(|r| {
            let attr = |name: &str| between(r, &format!("{name}=\""), "\"").unwrap_or_default();
            (
                attr("data-series"),
                attr("data-day"),
                attr("data-count").parse().unwrap(),
            )
        })
        .collect()
}

fn between(text: &str, start: &str, end: &str) -> Option<String> {
    let from = text.find(start)? + start.len();
    let to = text[from..].find(end)? + from;
    Some(text[from..to].to_owned())
}

/// Chromium, or the decision to skip: `None` (with why on stderr) when there is none and
/// `DID_IT_ACTUALLY_E2E_OPTIONAL=1`; otherwise a missing browser fails the test.
fn chromium_or_skip() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser"].iter().find_map(|name| {
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    });
    match found {
        Some(path) => Some(path),
        None if crate::support::claude::optional() => {
            eprintln!(
                "SKIPPED (DID_IT_ACTUALLY_E2E_OPTIONAL=1): no chromium on PATH to open the HTML report in (install/test.sh installs Debian's: apt-get install chromium)"
            );
            None
        }
        None => panic!(
            "no chromium on PATH to open the HTML report in: install it (Debian: apt-get install chromium; install/test.sh does), or set DID_IT_ACTUALLY_E2E_OPTIONAL=1 to skip this test"
        ),
    }
}

/// The stdout of `cmd`, which must finish within `limit` (a browser that hangs fails the
/// test instead of the run).
fn output_within(mut cmd: Command, limit: std::time::Duration) -> String {
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    // Read on a thread: a large page would fill the pipe before the browser exits.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).map(|_| s)
    });
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = reader.join().unwrap().unwrap();
            assert!(status.success(), "{cmd:?}: {status}\n{out}");
            return out;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} did not finish within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
