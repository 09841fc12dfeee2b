//! The transcript reader and the offline audit on real and synthetic transcripts: a real
//! one recorded from Claude Code 2.1.328 (`tests/fixtures/transcripts/`), one of 500 MB
//! whose current turn is 50 lines, one without the turn's prompt line.

use did_it_actually::transcript::{read_turn, Entry};
use std::io::Write;
use std::path::Path;
use std::process::Command;

const REAL: &str = "tests/fixtures/transcripts/real-2.1.328.jsonl";
const REAL_PROMPT: &str = "ad89058c-d5e8-4afc-b6fa-d6086cfa42a6";

#[test]
fn the_real_transcript_holds_the_turn() {
    let turn = read_turn(Path::new(REAL), Some(REAL_PROMPT)).unwrap();
    assert!(turn.prompt_found);
    assert_eq!(turn.bad_lines, 0);
    let calls: Vec<&str> = turn
        .events
        .iter()
        .filter_map(|e| match e {
            Entry::ToolUse { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(calls, ["Write", "Bash"]);
    assert_eq!(
        turn.result_of("toolu_2_0"),
        Some((false, "3 passed, 0 failed"))
    );
    assert_eq!(
        turn.last_assistant_text.as_deref(),
        Some("Done. All tests pass.")
    );
    assert!(turn.ends_with_text);
}

#[test]
fn the_offline_audit_explains_the_real_turn() {
    let run = |message: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
            .args([
                "audit",
                "--transcript",
                REAL,
                "--prompt-id",
                REAL_PROMPT,
                "--message",
                message,
                "--cwd",
                "/",
            ])
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .output()
            .unwrap();
        format!(
            "exit: {}\n{}",
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout)
        )
    };
    insta::assert_snapshot!("audit_backed", run("Done. All tests pass."));
    insta::assert_snapshot!(
        "audit_unbacked",
        run("I updated `/nonexistent/x.rs` and pushed to feat/x. 4 tests passed.")
    );
}

/// `audit --explain` shows the reading of every sentence: the claims with their
/// confidence and verdict, and why the rest claims nothing; a wrong reading is one paste.
#[test]
fn audit_explain_reads_every_sentence() {
    let out = Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
        .args([
            "audit",
            "--explain",
            "--transcript",
            REAL,
            "--prompt-id",
            REAL_PROMPT,
            "--cwd",
            "/",
            "--message",
            "Your last commit modified `src/a.rs`.\n\nFiles looked at, not changed:\n- `src/b.rs`\n\nI removed `old.rs` since nothing uses it, so you can now open a pull request. `config.yaml` was regenerated. All 3 tests pass.",
        ])
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .output()
        .unwrap();
    insta::assert_snapshot!("audit_explain", String::from_utf8_lossy(&out.stdout));
}

/// A 500 MB transcript whose current turn is 50 lines at the end: the reader returns that
/// turn (its cost, which does not depend on the file's size, is in the benchmark).
#[test]
fn a_500_mb_transcript_with_a_short_turn() {
    let path = crate::support::scratch_root()
        .join(format!("dia-big-transcript-{}.jsonl", std::process::id()));
    {
        let mut f =
            std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&path).unwrap());
        let filler = format!(
            "{}\n",
            serde_json::json!({"type": "user", "promptId": "old", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x", "content": "y".repeat(1000)}]}})
        );
        let block = filler.repeat((1 << 20) / filler.len());
        for _ in 0..500 {
            f.write_all(block.as_bytes()).unwrap();
        }
        writeln!(f, "{}", serde_json::json!({"type": "user", "promptId": "now", "timestamp": "2026-11-30T02:00:00.000Z", "message": {"role": "user", "content": "go"}})).unwrap();
        for i in 0..24 {
            writeln!(f, "{}", serde_json::json!({"type": "assistant", "message": {"content": [{"type": "tool_use", "id": format!("t{i}"), "name": "Bash", "input": {"command": "ls"}}]}})).unwrap();
            writeln!(f, "{}", serde_json::json!({"type": "user", "promptId": "now", "message": {"content": [{"type": "tool_result", "tool_use_id": format!("t{i}"), "content": "ok"}]}})).unwrap();
        }
        writeln!(f, "{}", serde_json::json!({"type": "assistant", "message": {"content": [{"type": "text", "text": "done"}]}})).unwrap();
    }
    assert!(std::fs::metadata(&path).unwrap().len() >= 500 * (1 << 20) - (1 << 20));
    let turn = read_turn(&path, Some("now")).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(turn.prompt_found);
    assert_eq!(turn.events.len(), 48);
    assert_eq!(turn.last_assistant_text.as_deref(), Some("done"));
}

#[test]
fn a_transcript_without_the_prompt_line() {
    let path =
        crate::support::scratch_root().join(format!("dia-noprompt-{}.jsonl", std::process::id()));
    let lines = [
        serde_json::json!({"type": "assistant", "message": {"content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cargo test"}}]}}),
        serde_json::json!({"type": "user", "promptId": "p", "message": {"content": [{"type": "tool_result", "tool_use_id": "t1", "content": "test result: ok. 1 passed"}]}}),
    ];
    std::fs::write(
        &path,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    let turn = read_turn(&path, Some("p")).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(
        !turn.prompt_found,
        "the whole file is the turn, and it says its start was not seen"
    );
    assert_eq!(turn.events.len(), 2);
}

#[test]
fn the_offline_audit_as_json() {
    let out = Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
        .args([
            "audit",
            "--json",
            "--transcript",
            REAL,
            "--prompt-id",
            REAL_PROMPT,
        ])
        .args([
            "--message",
            "I updated `/nonexistent/x.rs`. All tests pass.",
            "--cwd",
            "/",
        ])
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "block");
    assert_eq!(v["tool_calls"], 2);
    let claims = v["claims"].as_array().unwrap();
    let file = claims.iter().find(|c| c["backed"] == false).unwrap();
    assert!(
        file["sentence"]
            .as_str()
            .unwrap()
            .contains("/nonexistent/x.rs"),
        "{v}"
    );
    assert!(file["why"].is_string() && file["fix"].is_string(), "{v}");
    assert!(
        claims
            .iter()
            .any(|c| c["backed"] == true && c["evidence"].is_string()),
        "{v}"
    );
}

/// Writes a transcript whose turn runs the tests, then writes a 64 MB file: the tool call
/// holds the content, and so does the result's `toolUseResult` (as Claude Code records
/// it), two lines of 64 MB each. Generated here, in a temp dir; never committed.
fn transcript_with_a_64_mb_write(path: &Path, written: &Path) {
    let written = written.to_str().unwrap();
    let big = "x".repeat(64 << 20);
    let mut f = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path).unwrap());
    let mut line = |v: serde_json::Value| writeln!(f, "{v}").unwrap();
    line(
        serde_json::json!({"parentUuid": null, "promptId": "p", "type": "user", "timestamp": "2026-11-30T02:00:00.000Z", "message": {"role": "user", "content": "write the data file and run the tests"}}),
    );
    line(
        serde_json::json!({"parentUuid": "1", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cargo test"}}]}, "type": "assistant"}),
    );
    line(
        serde_json::json!({"parentUuid": "2", "promptId": "p", "type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t1", "type": "tool_result", "content": "test result: ok. 3 passed; 0 failed", "is_error": false}]}}),
    );
    // Key order as Claude Code writes it: the message first, the line's type after it.
    line(
        serde_json::json!({"parentUuid": "3", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Write", "input": {"file_path": written, "content": big}}]}, "type": "assistant"}),
    );
    line(
        serde_json::json!({"parentUuid": "4", "promptId": "p", "type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t2", "type": "tool_result", "content": format!("File created successfully at: {written}")}]}, "toolUseResult": {"type": "create", "filePath": written, "content": big}}),
    );
    line(
        serde_json::json!({"parentUuid": "5", "message": {"role": "assistant", "content": [{"type": "text", "text": "Done. All tests pass."}]}, "type": "assistant"}),
    );
    f.flush().unwrap();
}

/// The backward reader is linear in bytes and skips what no claim needs: a turn with two
/// 64 MB lines is read, and the write in it is seen (the tests ran before it), so the
/// claim that the tests pass is not backed. Before, this took 55 s in a release build
/// (past the 60 s hook timeout in a debug one); its time now is in BENCHMARKS.md.
#[test]
fn a_turn_with_a_64_mb_line() {
    let dir = crate::support::scratch_root().join(format!("dia-64mb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.jsonl");
    // The written file is in the project the audit runs in, as the agent left it.
    let written = dir.join("data.txt");
    std::fs::write(&written, "x").unwrap();
    transcript_with_a_64_mb_write(&path, &written);
    assert!(std::fs::metadata(&path).unwrap().len() > 128 << 20);
    let turn = read_turn(&path, Some("p")).unwrap();
    assert!(turn.prompt_found);
    assert_eq!(turn.bad_lines, 0, "both long lines were salvaged whole");
    let calls: Vec<&str> = turn
        .events
        .iter()
        .filter_map(|e| match e {
            Entry::ToolUse { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(calls, ["Bash", "Write"]);
    assert_eq!(
        turn.result_of("t2"),
        Some((
            false,
            format!("File created successfully at: {}", written.display()).as_str()
        ))
    );
    let out = Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
        .args(["audit", "--json", "--transcript"])
        .arg(&path)
        .args(["--prompt-id", "p", "--message", "Done. All tests pass."])
        .arg("--cwd")
        .arg(&dir)
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let claim = &v["claims"][0];
    assert_eq!(claim["backed"], false, "{v}");
    assert!(
        claim["why"]
            .as_str()
            .unwrap()
            .contains("before the turn's last write"),
        "the tests ran before the last write: {v}"
    );
}

/// A Bash call whose command alone is longer than the reader keeps: the command is lost,
/// and the turn says a line could not be read instead of silently missing the run.
#[test]
fn a_long_shell_command_is_counted_not_hidden() {
    let path =
        crate::support::scratch_root().join(format!("dia-longcmd-{}.jsonl", std::process::id()));
    let command = format!("echo {}", "y".repeat(5 << 20));
    let lines = [
        serde_json::json!({"promptId": "p", "type": "user", "message": {"role": "user", "content": "go"}}),
        serde_json::json!({"message": {"role": "assistant", "content": [{"type": "text", "text": "running"}, {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": command}}]}, "type": "assistant"}),
        serde_json::json!({"type": "api-request-blob", "message": {"role": "user", "content": [{"type": "text", "text": command}]}}),
        serde_json::json!({"parentUuid": "x", "attachment": {"type": "file", "content": command}, "type": "attachment"}),
    ];
    std::fs::write(
        &path,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    let turn = read_turn(&path, Some("p")).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        turn.bad_lines, 1,
        "the API request record and the attachment are not turn events; the cut Bash call is"
    );
    assert!(matches!(&turn.events[..], [Entry::ToolUse { name, .. }] if name == "Bash"));
    assert_eq!(turn.last_assistant_text.as_deref(), Some("running"));
}

/// `audit --message` in `dir` over an empty transcript (a turn of no tool calls): the exit
/// code and what it printed.
fn audit_with_no_calls(dir: &Path, message: &str) -> (Option<i32>, String) {
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
        .args(["audit", "--transcript"])
        .arg(&empty)
        .args(["--message", message])
        .current_dir(dir)
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A file told committed with a mode: HEAD's tree entry decides; a file HEAD's tree does
/// not hold has no recorded mode, which is reported and does not block (it may be committed
/// elsewhere).
#[test]
fn a_mode_told_committed_is_read_from_heads_tree() {
    use crate::support::repo::git;
    let dir = crate::support::scratch_root().join(format!("dia-mode-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    git(&dir, &["init", "-q", "-b", "main"]);
    std::fs::write(dir.join("run.sh"), "echo run\n").unwrap();
    git(&dir, &["add", "run.sh"]);
    git(&dir, &["commit", "-q", "-m", "add run.sh"]);
    std::fs::write(dir.join("new.sh"), "echo new\n").unwrap();
    let audit = |message: &str| audit_with_no_calls(&dir, message);
    let (code, wrong) = audit("`run.sh` is committed with mode `100755`.");
    assert_eq!(code, Some(1), "{wrong}");
    assert!(wrong.contains("with mode 100644, not 100755"), "{wrong}");
    let (code, right) = audit("`run.sh` is committed with mode `100644`.");
    assert_eq!(code, Some(0), "{right}");
    let (code, uncommitted) = audit("`new.sh` is committed with mode `100755`.");
    assert_eq!(code, Some(0), "{uncommitted}");
    assert!(
        uncommitted.contains("reported, never blocks): file new.sh committed with mode 100755")
            && uncommitted.contains("is not in HEAD's tree, so no mode was recorded for it"),
        "{uncommitted}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A server told running at a local URL: a port that accepts a connection backs it; one
/// that does not, with nothing in the turn showing the server failing, is reported and
/// does not block (a sandbox's network may hold it).
#[test]
fn a_server_told_running_is_checked_by_connecting() {
    let dir = crate::support::scratch_root().join(format!("dia-listen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let audit = |message: &str| audit_with_no_calls(&dir, message);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let message = format!("The dev server is running at http://127.0.0.1:{port}/ now.");
    let (code, up) = audit(&message);
    assert_eq!(code, Some(0), "{up}");
    assert!(
        up.contains(&format!("backed: a server listens on port {port}")),
        "{up}"
    );
    drop(listener);
    let (code, down) = audit(&message);
    assert_eq!(code, Some(0), "{down}");
    assert!(
        down.contains("reported, never blocks): a server listens on port")
            && down.contains(&format!("nothing accepts connections on port {port}")),
        "{down}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
