//! Parallel PostToolUse hooks append to one session's write log at once (Claude Code runs
//! the hooks of a batch concurrently). No record may be lost, torn or interleaved.

use crate::support;

use serde_json::json;
use std::io::Write;
use std::process::{Command, Stdio};

const WRITERS: usize = 50;
const ROUNDS: usize = 3;

#[test]
fn fifty_parallel_writers_leave_fifty_intact_records() {
    for round in 0..ROUNDS {
        let dir = support::fixture::scratch("concurrency");
        let root = dir.join("root");
        let state = dir.join("state");
        // Long paths make each record several hundred bytes: more room to interleave.
        let long = "x".repeat(200);
        let mut children = Vec::new();
        for i in 0..WRITERS {
            let path = root.join(format!("{long}-{i}.txt"));
            let content = format!("writer {i} of round {round}\n");
            std::fs::write(&path, &content).unwrap();
            let input = json!({
                "session_id": "concurrent-session", "prompt_id": "p", "cwd": root,
                "hook_event_name": "PostToolUse", "tool_name": "Write",
                "tool_input": {"file_path": path, "content": content},
                "tool_response": {"type": "create", "filePath": path, "content": content},
                "tool_use_id": format!("toolu_{i}"),
            });
            let child = Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
                .arg("verify-write")
                .env("DID_IT_ACTUALLY_STATE_DIR", &state)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            children.push((child, input.to_string()));
        }
        // Every process is started before any gets its input, so they run together.
        for (child, input) in &mut children {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(input.as_bytes())
                .unwrap();
        }
        for (child, _) in children {
            let out = child.wait_with_output().unwrap();
            assert_eq!(out.status.code(), Some(0));
            assert!(
                out.stdout.is_empty(),
                "{}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        let log = std::fs::read_to_string(state.join("sessions/concurrent-session/writes.jsonl"))
            .unwrap();
        let mut ids: Vec<usize> = log
            .lines()
            .map(|line| {
                let r: serde_json::Value = serde_json::from_str(line).expect("an intact record");
                assert_eq!(r["outcome"], "landed");
                r["tool_use_id"].as_str().unwrap()["toolu_".len()..]
                    .parse()
                    .unwrap()
            })
            .collect();
        ids.sort();
        assert_eq!(ids, (0..WRITERS).collect::<Vec<_>>(), "round {round}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
