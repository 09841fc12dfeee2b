//! scope-guard in the real Claude Code (each release in `CLAUDE_CODE_VERSIONS`, one test
//! per release), registered by `did-it-actually install`: a Write outside the project root
//! and an Edit of the project's Claude Code settings are denied before they run (the model
//! is told why; nothing changes on disk), and a Write inside the root goes through and is
//! then verified by verify-write.

use crate::support;

use serde_json::{json, Value};
use support::claude::Session;
use support::mock_api::{tool_result, tool_use_id, MockApi, Step};

per_claude_code_version!(writes_outside_scope_are_denied_and_inside_are_verified);

fn writes_outside_scope_are_denied_and_inside_are_verified(version: &str) {
    let Some(mut session) = Session::start_with(version) else {
        return;
    };
    let state = session.install(&[]);
    let settings_before = session.read(".claude/settings.json").unwrap();
    let outside = session.scratch_dir("outside").join("escape.txt");
    let inside = session.path("src/ok.txt");

    let api = MockApi::start(vec![
        Step::tool(
            "Write",
            json!({"file_path": outside, "content": "should not exist\n"}),
        ),
        Step::tool(
            "Read",
            json!({"file_path": session.path(".claude/settings.json")}),
        ),
        Step::tool(
            "Edit",
            json!({"file_path": session.path(".claude/settings.json"), "old_string": "\"block-wrong-branch\"", "new_string": "\"verify-write\""}),
        ),
        Step::tool("Write", json!({"file_path": inside, "content": "fine\n"})),
        Step::text("Done."),
    ]);
    let out = session.run("Write some files", &api);
    assert!(out.status.success(), "{}", out.describe());
    let requests = api.requests();
    assert_eq!(requests.len(), 5, "{}", out.describe());

    let denied = tool_result(&requests[1], &tool_use_id(0, 0)).unwrap();
    assert!(denied.is_error, "{denied:?}");
    assert!(
        denied
            .text
            .starts_with("PreToolUse:Write hook error: scope-guard: the Write to "),
        "{}",
        denied.text
    );
    assert!(
        denied.text.contains("outside the project root"),
        "{}",
        denied.text
    );
    assert!(!outside.exists(), "the denied Write must not have run");

    let denied = tool_result(&requests[3], &tool_use_id(2, 0)).unwrap();
    assert!(denied.is_error, "{denied:?}");
    assert!(
        denied.text.contains("scope-guard: the Edit to ")
            && denied.text.contains("Claude Code's project settings"),
        "{}",
        denied.text
    );
    assert_eq!(
        session.read(".claude/settings.json").unwrap(),
        settings_before,
        "the settings are untouched"
    );

    let allowed = tool_result(&requests[4], &tool_use_id(3, 0)).unwrap();
    assert!(!allowed.is_error, "{allowed:?}");
    assert_eq!(session.read("src/ok.txt").as_deref(), Some("fine\n"));
    let log: Vec<Value> = std::fs::read_dir(state.join("sessions"))
        .unwrap()
        .flatten()
        .flat_map(|d| {
            std::fs::read_to_string(d.path().join("writes.jsonl"))
                .unwrap_or_default()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect::<Vec<Value>>()
        })
        .collect();
    let verified: Vec<&Value> = log.iter().filter(|r| r["event"] == "PostToolUse").collect();
    assert_eq!(
        verified.len(),
        1,
        "only the allowed Write ran and was verified: {log:#?}"
    );
    assert_eq!(verified[0]["outcome"], "landed");
    assert!(verified[0]["path"]
        .as_str()
        .unwrap()
        .ends_with("/src/ok.txt"));
}
