//! verify-write in the real Claude Code (each release in `CLAUDE_CODE_VERSIONS`, one test
//! per release), registered by the project's own installer (`did-it-actually install`),
//! driven by a scripted mock of the API. The assertions are on what the model was actually
//! told (the mock's requests) and on the write log the hook left.

use crate::support;

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use support::claude::Session;
use support::mock_api::{system_notes, tool_result, tool_use_id, MockApi, Step};

per_claude_code_version!(
    writes_that_land_are_recorded_and_not_blocked,
    a_write_lost_to_a_parallel_call_is_reported_after_the_batch,
    failed_writes_are_recorded,
    a_real_write_event_is_verified_holding_one_copy,
);

/// A session whose project has verify-write installed the way a user installs it, and a
/// state directory beside it.
fn guarded_session(version: &str) -> Option<(Session, PathBuf)> {
    let mut session = Session::start_with(version)?;
    // verify-write alone: scope-guard would (rightly) deny the writes outside the
    // project that these tests use to make the Write tool fail.
    let state = session.install(&["--hooks", "verify-write"]);
    Some((session, state))
}

fn records(state: &Path) -> Vec<Value> {
    let Ok(dirs) = std::fs::read_dir(state.join("sessions")) else {
        return Vec::new();
    };
    dirs.flatten()
        .filter_map(|d| std::fs::read_to_string(d.path().join("writes.jsonl")).ok())
        .flat_map(|text| {
            text.lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect::<Vec<Value>>()
        })
        .collect()
}

fn with_event<'a>(records: &'a [Value], event: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["event"] == event).collect()
}

/// (a) A Write and an Edit that land: nothing is said to the model, and both are recorded
/// as verified, in the turn of the prompt.
fn writes_that_land_are_recorded_and_not_blocked(version: &str) {
    let Some((session, state)) = guarded_session(version) else {
        return;
    };
    let file = session.path("notes.txt");
    let api = MockApi::start(vec![
        Step::tool(
            "Write",
            json!({"file_path": file, "content": "alpha\nbeta\n"}),
        ),
        Step::tool(
            "Edit",
            json!({"file_path": file, "old_string": "beta", "new_string": "gamma"}),
        ),
        Step::text("Wrote notes.txt and changed beta to gamma."),
    ]);
    let out = session.run("Write notes.txt, then edit it", &api);
    assert!(out.status.success(), "{}", out.describe());
    assert_eq!(session.read("notes.txt").as_deref(), Some("alpha\ngamma\n"));

    let requests = api.requests();
    assert_eq!(requests.len(), 3, "{}", out.describe());
    for (i, req) in requests.iter().enumerate().skip(1) {
        let notes = system_notes(req).join("\n");
        assert!(
            !notes.contains("verify-write"),
            "request {i} carried a verify-write note: {notes}"
        );
        let result = tool_result(req, &tool_use_id(i - 1, 0)).unwrap();
        assert!(!result.is_error, "{result:?}");
    }

    let records = records(&state);
    let post = with_event(&records, "PostToolUse");
    assert_eq!(post.len(), 2, "{records:#?}");
    let canonical = std::fs::canonicalize(&file).unwrap();
    for (r, (tool, op)) in post.iter().zip([("Write", "write"), ("Edit", "edit")]) {
        assert_eq!(r["tool"], tool);
        assert_eq!(r["op"], op);
        assert_eq!(r["outcome"], "landed");
        assert_eq!(r["verified"], true);
        assert_eq!(r["path"], canonical.to_str().unwrap());
        assert!(
            r["prompt_id"].as_str().is_some_and(|p| !p.is_empty()),
            "{r}"
        );
    }
    assert_eq!(post[1]["size"], 12);
    // Every batch check agreed.
    assert!(
        with_event(&records, "PostToolBatch")
            .iter()
            .all(|r| r["verified"] == true),
        "{records:#?}"
    );
}

/// (b) A Write and, in parallel, a Bash command that overwrites the same file: after the
/// batch the agent is told its write was lost, and by which call.
fn a_write_lost_to_a_parallel_call_is_reported_after_the_batch(version: &str) {
    let Some((session, state)) = guarded_session(version) else {
        return;
    };
    let file = session.path("a.txt");
    let bash = format!("sleep 0.3; echo other > {}", file.display());
    let api = MockApi::start(vec![
        Step::tools(vec![
            ("Write", json!({"file_path": file, "content": "mine\n"})),
            (
                "Bash",
                json!({"command": bash, "description": "overwrite a.txt"}),
            ),
        ]),
        Step::text("Done."),
    ]);
    let out = session.run("Write a.txt", &api);
    assert!(out.status.success(), "{}", out.describe());
    assert_eq!(session.read("a.txt").as_deref(), Some("other\n"));

    let requests = api.requests();
    assert_eq!(
        requests.len(),
        2,
        "the batch must not end the loop: {}",
        out.describe()
    );
    let notes = system_notes(&requests[1]).join("\n");
    assert!(notes.contains("PostToolBatch hook additional context: verify-write: after this batch of 2 tool calls, 1 write no longer holds"), "{notes}");
    assert!(
        notes.contains(&format!("The Write to {} did not land", file.display())),
        "{notes}"
    );
    assert!(notes.contains("found \"other\""), "{notes}");
    assert!(
        notes.contains(&format!("Bash {}", tool_use_id(0, 1))),
        "{notes}"
    );

    let records = records(&state);
    let batch = with_event(&records, "PostToolBatch");
    assert_eq!(batch.len(), 1, "{records:#?}");
    assert_eq!(batch[0]["outcome"], "differs");
    assert_eq!(batch[0]["verified"], false);
    assert_eq!(batch[0]["tool_use_id"], tool_use_id(0, 0));
}

/// (c) Failed writes are recorded, so that a later claim of them can be refuted.
///
/// Observed on 2.1.328 and 2.1.332 alike, against what the issue assumed: a Write into a directory that does
/// not exist SUCCEEDS (the tool creates the parents). A Write whose parent is a file is
/// refused before it runs, and no PostToolUseFailure fires for it; the PostToolBatch check
/// records that attempt. A Write that fails while running (here: `/proc` refuses new
/// files, even for root) fires PostToolUseFailure.
fn failed_writes_are_recorded(version: &str) {
    let Some((session, state)) = guarded_session(version) else {
        return;
    };
    let created = session.path("new/dir/made.txt");
    session.write("plain-file", "not a directory\n");
    let refused = session.path("plain-file/inside.txt");
    let failing = PathBuf::from("/proc/did-it-actually-e2e.txt");
    let api = MockApi::start(vec![
        Step::tool("Write", json!({"file_path": created, "content": "made\n"})),
        Step::tool("Write", json!({"file_path": refused, "content": "x\n"})),
        Step::tool("Write", json!({"file_path": failing, "content": "x\n"})),
        Step::text("Done."),
    ]);
    let out = session.run("Write three files", &api);
    assert!(out.status.success(), "{}", out.describe());
    assert_eq!(session.read("new/dir/made.txt").as_deref(), Some("made\n"));
    let requests = api.requests();
    for step in [1, 2] {
        let result = tool_result(&requests[step + 1], &tool_use_id(step, 0)).unwrap();
        assert!(
            result.is_error,
            "the Write of step {step} should fail: {result:?}"
        );
        // The agent already saw the tool's error: verify-write adds nothing.
        let notes = system_notes(&requests[step + 1]).join("\n");
        assert!(!notes.contains("verify-write"), "{notes}");
    }

    let records = records(&state);
    let of = |id: String, event: &str| {
        records
            .iter()
            .filter(|r| r["tool_use_id"] == id.as_str() && r["event"] == event)
            .collect::<Vec<_>>()
    };
    let made = of(tool_use_id(0, 0), "PostToolUse");
    assert_eq!(made.len(), 1, "{records:#?}");
    assert_eq!(made[0]["outcome"], "landed");

    assert!(
        of(tool_use_id(1, 0), "PostToolUseFailure").is_empty(),
        "{records:#?}"
    );
    let refused_rec = of(tool_use_id(1, 0), "PostToolBatch");
    assert_eq!(refused_rec.len(), 1, "{records:#?}");
    assert_eq!(refused_rec[0]["outcome"], "tool_failed");
    assert!(
        refused_rec[0]["reason"]
            .as_str()
            .unwrap()
            .contains("ENOTDIR"),
        "{}",
        refused_rec[0]
    );

    let failed = of(tool_use_id(2, 0), "PostToolUseFailure");
    assert_eq!(failed.len(), 1, "{records:#?}");
    assert_eq!(failed[0]["outcome"], "tool_failed");
    assert_eq!(failed[0]["verified"], false);
    assert_eq!(failed[0]["path"], failing.to_str().unwrap());
    assert!(
        failed[0]["reason"]
            .as_str()
            .unwrap()
            .starts_with("the Write tool failed: ENOENT"),
        "{}",
        failed[0]
    );
}

/// (d) What the real client sends after a Write: the content in `tool_input` and again in
/// `tool_response`, in that order, which is what lets verify-write compare the second copy
/// as it reads it instead of holding it (the first must come first). verify-write run on
/// those very bytes (over 64 KiB, so read in more than one chunk) records the write as
/// landed, with the sha256 `sha256sum` prints for the file.
fn a_real_write_event_is_verified_holding_one_copy(version: &str) {
    let Some(session) = Session::start_with(version) else {
        return;
    };
    let capture = session.scratch_dir("capture").join("post-tool-use.json");
    session.write_settings(&json!({"hooks": {"PostToolUse": [{
        "matcher": "Write",
        "hooks": [{"type": "command", "command": "/bin/sh",
                   "args": ["-c", format!("cat > '{}'", capture.display())]}],
    }]}}));
    let content = "line one\n\t\"quoted\" \\ é 中 😀\n".repeat(3000);
    let file = session.path("big.txt");
    let api = MockApi::start(vec![
        Step::tool("Write", json!({"file_path": file, "content": content})),
        Step::text("Wrote big.txt."),
    ]);
    let out = session.run("Write big.txt", &api);
    assert!(out.status.success(), "{}", out.describe());
    assert_eq!(session.read("big.txt").as_deref(), Some(content.as_str()));

    let raw = std::fs::read(&capture).unwrap();
    assert!(raw.len() > 64 * 1024, "{} bytes", raw.len());
    let text = String::from_utf8_lossy(&raw);
    let at = |key: &str| {
        text.find(key)
            .unwrap_or_else(|| panic!("no {key} in {text}"))
    };
    assert!(
        at("\"tool_input\"") < at("\"tool_response\""),
        "tool_response comes first: {}",
        &text[..text.len().min(400)]
    );
    let event: Value = serde_json::from_slice(&raw).unwrap();
    assert_eq!(event["tool_input"]["content"], content.as_str());
    assert_eq!(event["tool_response"]["content"], content.as_str());

    let state = session.scratch_dir("state");
    let verified = support::output_with_stdin(
        std::process::Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
            .arg("verify-write")
            .current_dir(session.project())
            .env("DID_IT_ACTUALLY_STATE_DIR", &state)
            .env("HOME", session.home())
            .env_remove("DID_IT_ACTUALLY_POLICY"),
        &raw,
    );
    let said = format!(
        "exit {:?}\n{}{}",
        verified.status.code(),
        String::from_utf8_lossy(&verified.stdout),
        String::from_utf8_lossy(&verified.stderr)
    );
    assert_eq!(verified.status.code(), Some(0), "{said}");
    assert!(!said.contains("block"), "{said}");
    let records = records(&state);
    assert_eq!(records.len(), 1, "{records:#?}");
    assert_eq!(records[0]["outcome"], "landed", "{records:#?}");
    assert_eq!(records[0]["size"], content.len());
    let sum = std::process::Command::new("sha256sum")
        .arg(&file)
        .output()
        .unwrap();
    let sum = String::from_utf8_lossy(&sum.stdout);
    assert_eq!(records[0]["sha256"], sum.split_whitespace().next().unwrap());
}
