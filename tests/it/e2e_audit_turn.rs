//! audit-turn in the real Claude Code (each release in `CLAUDE_CODE_VERSIONS`, one test
//! per release), registered by `did-it-actually install`: unbacked claims block the stop
//! (the model is told which, as `Stop hook feedback`), and the stop goes through once they
//! hold; completion-promise loops; the loop guard's cap.

use crate::support;

use serde_json::json;
use std::path::PathBuf;
use std::process::Command;
use support::claude::{assert_stop_feedback_shape, stop_feedback, Session};
use support::mock_api::{MockApi, Step};

per_claude_code_version!(
    an_unbacked_file_claim_blocks_until_the_write_happens,
    a_test_claim_needs_a_test_run_after_the_last_edit,
    a_promise_loop_accepts_only_a_clean_tagged_promise,
    the_loop_guard_lets_the_stop_through_after_the_cap,
);

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

fn guarded_session(version: &str) -> Option<(Session, PathBuf)> {
    let mut session = Session::start_with(version)?;
    let state = session.install(&[]);
    Some((session, state))
}

/// The Stop blocks the model was told about, in order, each from `Stop hook feedback:`
/// on; each text that carries one has the shape `version` gives it.
fn feedback(version: &str, api: &MockApi) -> Vec<String> {
    let requests = api.requests();
    assert_stop_feedback_shape(version, &requests);
    stop_feedback(&requests)
}

/// (a) "I updated a.txt" without a write is blocked; once the agent writes it, the stop
/// goes through.
fn an_unbacked_file_claim_blocks_until_the_write_happens(version: &str) {
    let Some((session, _state)) = guarded_session(version) else {
        return;
    };
    let file = session.path("a.txt");
    let api = MockApi::start(vec![
        Step::text("I updated a.txt."),
        Step::tool("Write", json!({"file_path": file, "content": "updated\n"})),
        Step::text("I updated a.txt."),
        Step::text("(this step must not be reached)"),
    ]);
    let out = session.run("Update a.txt", &api);
    assert!(out.status.success(), "{}", out.describe());
    let fb = feedback(version, &api);
    assert_eq!(fb.len(), 1, "{fb:#?}\n{}", out.describe());
    assert!(
        fb[0].contains("audit-turn: 1 thing in your final message is not backed"),
        "{}",
        fb[0]
    );
    assert!(fb[0].contains("\"I updated a.txt.\""), "{}", fb[0]);
    assert_eq!(api.requests().len(), 3, "{}", out.describe());
    assert_eq!(session.read("a.txt").as_deref(), Some("updated\n"));
}

/// (b) "All tests pass" with no test run is blocked; after the agent runs the project's
/// test command, the stop goes through.
fn a_test_claim_needs_a_test_run_after_the_last_edit(version: &str) {
    let Some((session, _state)) = guarded_session(version) else {
        return;
    };
    session.write("Makefile", "test:\n\t@echo '3 passed, 0 failed'\n");
    let api = MockApi::start(vec![
        Step::tool(
            "Write",
            json!({"file_path": session.path("src.txt"), "content": "code\n"}),
        ),
        Step::text("Done. All tests pass."),
        Step::tool(
            "Bash",
            json!({"command": "make test", "description": "run the tests"}),
        ),
        Step::text("Done. All tests pass."),
        Step::text("(this step must not be reached)"),
    ]);
    let out = session.run("Change src.txt and test", &api);
    assert!(out.status.success(), "{}", out.describe());
    let fb = feedback(version, &api);
    assert_eq!(fb.len(), 1, "{fb:#?}\n{}", out.describe());
    assert!(
        fb[0].contains("no tests command ran in this turn"),
        "{}",
        fb[0]
    );
    assert_eq!(api.requests().len(), 4, "{}", out.describe());
}

/// (c) A promise loop: an untagged DONE is not accepted, a tagged one with an unbacked
/// claim is not accepted, a clean tagged one completes the loop.
fn a_promise_loop_accepts_only_a_clean_tagged_promise(version: &str) {
    let Some((session, state)) = guarded_session(version) else {
        return;
    };
    let out = Command::new(BIN)
        .args([
            "loop",
            "start",
            "--promise",
            "DONE",
            "--max-iterations",
            "5",
            "--prompt",
            "Finish the task.",
            "--cwd",
        ])
        .arg(session.project())
        .env("DID_IT_ACTUALLY_STATE_DIR", &state)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let api = MockApi::start(vec![
        Step::text("DONE"),
        Step::text("I updated b.txt. <promise>DONE</promise>"),
        Step::text("All finished. <promise>DONE</promise>"),
        Step::text("(this step must not be reached)"),
    ]);
    let out = session.run("Do the task", &api);
    assert!(out.status.success(), "{}", out.describe());
    let fb = feedback(version, &api);
    assert_eq!(fb.len(), 2, "{fb:#?}\n{}", out.describe());
    assert!(
        fb[0].contains("Finish the task.") && fb[0].contains("iteration 1 of 5"),
        "{}",
        fb[0]
    );
    assert!(fb[0].contains("counts only as the tag"), "{}", fb[0]);
    assert!(
        fb[1].contains("iteration 2 of 5") && fb[1].contains("b.txt"),
        "{}",
        fb[1]
    );
    assert_eq!(api.requests().len(), 3, "{}", out.describe());
    let status = Command::new(BIN)
        .args(["loop", "status", "--cwd"])
        .arg(session.project())
        .env("DID_IT_ACTUALLY_STATE_DIR", &state)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&status.stdout).contains("Completed"),
        "{}",
        String::from_utf8_lossy(&status.stdout)
    );
}

/// (d) An agent that never backs its claim: after audit.max_blocks (3) blocks the stop
/// goes through, and the user is told what is still unbacked.
fn the_loop_guard_lets_the_stop_through_after_the_cap(version: &str) {
    let Some((session, _state)) = guarded_session(version) else {
        return;
    };
    let api = MockApi::start((0..6).map(|_| Step::text("I updated z.txt.")).collect());
    let out = session.run("Update z.txt", &api);
    assert!(out.status.success(), "{}", out.describe());
    assert_eq!(
        api.requests().len(),
        4,
        "three blocks, then the stop: {}",
        out.describe()
    );
    let fb = feedback(version, &api);
    assert_eq!(fb.len(), 3, "{fb:#?}\n{}", out.describe());
    let stdout = out.stdout.clone();
    assert!(
        stdout.contains("the stop goes through after 3 blocks in a row"),
        "{}",
        out.describe()
    );
}
