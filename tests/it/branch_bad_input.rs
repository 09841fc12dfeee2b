//! block-wrong-branch on hostile input: every case gets an answer (a deny with a reason,
//! or silence when no git is involved), never a panic or a hang.

use crate::support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::repo::ScratchRepo;

/// Runs the hook with raw stdin bytes; returns (exit code, stdout, stderr). A watchdog
/// turns a hang into a failure (this is not a speed test: the limit is generous).
fn hook(repo: &ScratchRepo, stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
        .arg("block-wrong-branch")
        .env("HOME", repo.dir.join("outside"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&bytes);
    });
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the hook hung");
        std::thread::sleep(Duration::from_millis(5));
    }
    writer.join().unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn input(repo: &ScratchRepo, command: &str) -> Vec<u8> {
    serde_json::json!({"session_id": "s", "cwd": repo.work(), "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}})
    .to_string()
    .into_bytes()
}

fn denied(out: &(i32, String, String)) -> bool {
    out.0 == 0 && out.1.contains(r#""permissionDecision":"deny""#)
}

#[test]
fn hostile_commands_get_an_answer() {
    let repo = ScratchRepo::new("bad-input", "main");
    let megabyte_harmless = "echo hello world; ".repeat(60_000);
    let out = hook(&repo, &input(&repo, &megabyte_harmless));
    assert_eq!(
        out,
        (0, String::new(), String::new()),
        "1 MB without git is allowed"
    );

    let megabyte_push = format!("{megabyte_harmless}git push origin HEAD:main");
    assert!(
        denied(&hook(&repo, &input(&repo, &megabyte_push))),
        "the push at the end of 1 MB is found"
    );

    let nested = format!(
        "echo {}git push origin main{}",
        "$( ".repeat(5_000),
        " )".repeat(5_000)
    );
    let out = hook(&repo, &input(&repo, &nested));
    assert!(denied(&out) && out.1.contains("nested"), "{}", out.1);

    // Unescaped backquotes do not nest: this is a long row of harmless substitutions.
    let backticks = format!("echo {}x{}", "`echo ".repeat(2_000), "`".repeat(2_000));
    assert_eq!(
        hook(&repo, &input(&repo, &backticks)),
        (0, String::new(), String::new())
    );
    // Escaped ones do: nesting beyond the limit is denied with a reason.
    let mut escaped = "git push origin main".to_owned();
    for _ in 0..40 {
        escaped = format!(
            "echo `{}`",
            escaped.replace('\\', "\\\\").replace('`', "\\`")
        );
        if escaped.len() > 200_000 {
            break;
        }
    }
    let out = hook(&repo, &input(&repo, &escaped));
    assert!(denied(&out), "{}", &out.1[..out.1.len().min(300)]);

    let out = hook(&repo, &input(&repo, "git push origin ma\0in; echo \0"));
    assert_eq!(out.0, 0, "NUL bytes: {out:?}");

    let out = hook(&repo, &input(&repo, "ls \0 -la"));
    assert_eq!(out, (0, String::new(), String::new()));
}

#[test]
fn broken_json_gets_a_clear_refusal() {
    let repo = ScratchRepo::new("bad-json", "main");
    let lone = br#"{"session_id":"s","cwd":"/","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push \ud800 main"}}"#;
    let out = hook(&repo, lone);
    assert_eq!(out.0, 2);
    assert!(
        out.2
            .starts_with("block-wrong-branch: stdin is not valid JSON at line 1, column"),
        "{}",
        out.2
    );
    assert!(out.2.contains("surrogate"), "{}", out.2);

    let out = hook(&repo, b"\xff\xfe{}");
    assert_eq!(out, (2, String::new(), format!("block-wrong-branch: stdin is not UTF-8 (invalid byte at offset 0); expected one JSON object{}\n", did_it_actually::protocol::BY_HAND)));
}
