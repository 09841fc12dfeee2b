//! The run-time layer in the real Claude Code (each release in `CLAUDE_CODE_VERSIONS`),
//! switched on by `did-it-actually install --project`: a build tool's recipe that
//! commits, which the static reading of `make ship` cannot see, is refused by git itself
//! on `main` (main does not move, the agent reads why), and runs on a feature branch.
//! Also pins the fact the activation rests on: the `env` of `.claude/settings.local.json`
//! reaches the commands of the Bash tool, with the session's id.

use crate::support;

use serde_json::json;
use support::claude::Session;
use support::mock_api::{tool_result, tool_use_id, MockApi, Step};

per_claude_code_version!(a_recipe_that_commits_is_refused_by_git_on_main_only);

fn a_recipe_that_commits_is_refused_by_git_on_main_only(version: &str) {
    let Some(mut session) = Session::start_with(version) else {
        return;
    };
    let state = session.install(&[]);
    let main_before = session.git_ok(&["rev-parse", "main"]);
    let makefile = session.path("Makefile");

    let api = MockApi::start(vec![
        Step::tool(
            "Write",
            json!({"file_path": makefile, "content": "ship:\n\tgit commit --allow-empty -q -m shipped\n"}),
        ),
        Step::tool(
            "Bash",
            json!({"command": "echo \"hooks=$DID_IT_ACTUALLY_GIT_HOOKS session=$CLAUDE_CODE_SESSION_ID\"; make -s ship", "description": "ship"}),
        ),
        Step::tool(
            "Bash",
            json!({"command": "git switch -q -c feat/ship && make -s ship", "description": "ship on a branch"}),
        ),
        Step::text("Shipped on feat/ship."),
    ]);
    let out = session.run("Ship it", &api);
    assert!(out.status.success(), "{}", out.describe());
    let requests = api.requests();
    assert_eq!(requests.len(), 4, "{}", out.describe());

    let refused = tool_result(&requests[2], &tool_use_id(1, 0)).unwrap();
    assert!(refused.is_error, "{refused:?}");
    assert!(
        refused
            .text
            .contains(&format!("hooks={}", state.join("git").display())),
        "the settings env reaches the Bash tool: {}",
        refused.text
    );
    assert!(
        refused.text.contains("block-wrong-branch (run-time layer, git's reference-transaction hook): git would move the protected branch main."),
        "{}",
        refused.text
    );
    assert_eq!(
        session.git_ok(&["rev-parse", "main"]),
        main_before,
        "main must not move"
    );

    let shipped = tool_result(&requests[3], &tool_use_id(2, 0)).unwrap();
    assert!(!shipped.is_error, "{shipped:?}");
    assert_ne!(session.git_ok(&["rev-parse", "feat/ship"]), main_before);

    // The refusal is in the session's ledger, marked as the run-time layer's.
    let session_id = refused
        .text
        .split("session=")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .expect("the Bash tool has CLAUDE_CODE_SESSION_ID")
        .to_owned();
    let log = std::fs::read_to_string(
        state
            .join("sessions")
            .join(&session_id)
            .join("writes.jsonl"),
    )
    .unwrap_or_default();
    assert!(log.contains("\"by\":\"run-time\""), "{log}");
}
