//! From a fresh clone to a guarded project, in the real Claude Code (each release in
//! `CLAUDE_CODE_VERSIONS`, one test per release): after `install/install.sh` (scratch
//! HOME, scratch prefix, that release's `claude` on PATH), one scripted session exercises
//! all four hooks through the registration install wrote; then the installed binary is
//! moved away and the next guarded tool call is blocked by `onFailure: "block"`.
//!
//! The release build is not repeated per release: install.sh builds into the shared
//! `target/install-test` (see `support::install_sh`), so the tests running in parallel
//! wait on cargo's lock for one build and the others find it fresh.

use crate::support;

use serde_json::json;
use support::claude::{assert_stop_feedback_shape, claude_binary_version, stop_feedback, Session};
use support::install_sh;
use support::mock_api::{tool_result, tool_use_id, MockApi, Step};

per_claude_code_version!(install_sh_guards_a_real_session_and_fails_closed_without_its_binary);

fn install_sh_guards_a_real_session_and_fails_closed_without_its_binary(version: &str) {
    let Some(mut session) = Session::start_with(version) else {
        return;
    };
    let prefix = session.scratch_dir("prefix");
    let bin_dir = prefix.join("bin");
    // The real `claude` on PATH, so install and doctor check its version for real.
    let claude_dir = claude_binary_version(version)
        .unwrap()
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}:{}:{}",
        bin_dir.display(),
        install_sh::cargo_dir().display(),
        claude_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = install_sh::run(
        &["--prefix", prefix.to_str().unwrap()],
        session.home(),
        &path,
        session.project(),
    );
    assert!(out.status.success(), "{}", install_sh::show(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("[ok  ] Claude Code: ")
            && stdout.contains(&format!("is {version} (honours onFailure)")),
        "{stdout}"
    );
    let settings = session.read(".claude/settings.json").unwrap();
    let binary = bin_dir.join("did-it-actually");
    // The shared settings name the launcher committed with the project, never this
    // machine's path; the launcher runs the installed binary.
    assert!(
        settings.contains("\"command\": \"${CLAUDE_PROJECT_DIR}/.claude/did-it-actually\"")
            && !settings.contains(binary.to_str().unwrap()),
        "{settings}"
    );
    // A prefix other than ~/.local/bin: the launcher names the binary (the session's PATH
    // need not hold it).
    let launcher = session.read(".claude/did-it-actually").unwrap();
    assert!(launcher.contains(binary.to_str().unwrap()), "{launcher}");

    let state = session.scratch_dir("state");
    session.env("DID_IT_ACTUALLY_STATE_DIR", &state);
    let inside = session.path("src/a.txt");
    let outside = session.scratch_dir("outside").join("escape.txt");
    let head = session.git_ok(&["rev-parse", "HEAD"]);
    let api = MockApi::start(vec![
        // verify-write: reads it back and records it.
        Step::tool("Write", json!({"file_path": inside, "content": "a\n"})),
        // scope-guard: denied before it runs.
        Step::tool("Write", json!({"file_path": outside, "content": "no\n"})),
        // block-wrong-branch: a commit on main is denied.
        Step::tool(
            "Bash",
            json!({"command": "git commit --allow-empty -q -m work", "description": "commit"}),
        ),
        // audit-turn: b.txt was never written, so the stop is blocked once...
        Step::text("I wrote src/a.txt and src/b.txt."),
        // ...and goes through once the claim matches the evidence.
        Step::text("I wrote src/a.txt."),
        Step::text("(this step must not be reached)"),
    ]);
    let out = session.run("Write files and commit", &api);
    assert!(out.status.success(), "{}", out.describe());
    let requests = api.requests();
    assert_eq!(requests.len(), 5, "{}", out.describe());

    assert_eq!(session.read("src/a.txt").as_deref(), Some("a\n"));
    let log = std::fs::read_to_string(state.join(format!(
        "sessions/{}/writes.jsonl",
        out.result().unwrap()["session_id"].as_str().unwrap()
    )))
    .unwrap();
    assert!(
        log.contains("\"outcome\":\"landed\"") && log.contains("src/a.txt"),
        "{log}"
    );

    let denied = tool_result(&requests[2], &tool_use_id(1, 0)).unwrap();
    assert!(
        denied.is_error && denied.text.contains("scope-guard: the Write to "),
        "{denied:?}"
    );
    assert!(!outside.exists());

    let denied = tool_result(&requests[3], &tool_use_id(2, 0)).unwrap();
    assert!(
        denied.is_error && denied.text.contains("block-wrong-branch: "),
        "{denied:?}"
    );
    assert_eq!(session.git_ok(&["rev-parse", "HEAD"]), head);

    assert_stop_feedback_shape(version, &requests[4..]);
    let feedback = stop_feedback(&requests[4..]);
    assert_eq!(feedback.len(), 1, "{feedback:#?}\n{}", out.describe());
    assert!(feedback[0].contains("src/b.txt"), "{}", feedback[0]);

    // The binary goes away (a botched upgrade, a cleaned prefix, a teammate who never
    // installed it): the launcher finds none, and Claude Code blocks the guarded call with
    // the launcher's reason (what to install) instead of letting it through.
    std::fs::rename(&binary, prefix.join("moved-away")).unwrap();
    let blocked = session.path("src/c.txt");
    let api = MockApi::start(vec![
        Step::tool("Write", json!({"file_path": blocked, "content": "c\n"})),
        Step::text("Stopped."),
    ]);
    let out = session.run("Write c", &api);
    assert!(out.status.success(), "{}", out.describe());
    // What the model is told, from the session's own stream: the mock never gets a second
    // request. The post-tool entries (verify-write, also `onFailure: "block"`) fail too and
    // Claude Code ends the turn with terminal_reason `hook_stopped` (a blocking
    // PostToolBatch ends the agent loop). Fail closed twice over.
    let told = out
        .stdout_events
        .iter()
        .filter(|e| e["type"] == "user")
        .flat_map(|e| {
            e["message"]["content"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .find(|c| c["tool_use_id"] == tool_use_id(0, 0).as_str())
        .unwrap_or_else(|| panic!("no tool result\n{}", out.describe()));
    assert_eq!(told["is_error"], true, "{told}");
    let text = told["content"].as_str().unwrap_or_default();
    assert!(
        text.contains("did-it-actually is not installed on this machine"),
        "{text}\n{}",
        out.describe()
    );
    assert!(!blocked.exists(), "the blocked Write must not have run");
}
