//! block-wrong-branch in the real Claude Code (each release in `CLAUDE_CODE_VERSIONS`, one
//! test per release), registered by `did-it-actually install`: a push to main is denied before it runs (the model is told why, the remote is
//! unchanged), and the push to a feature branch that follows goes through.

use crate::support;

use serde_json::json;
use std::process::Command;
use support::claude::Session;
use support::mock_api::{tool_result, tool_use_id, MockApi, Step};

per_claude_code_version!(a_push_to_main_is_denied_and_a_feature_push_goes_through);

fn a_push_to_main_is_denied_and_a_feature_push_goes_through(version: &str) {
    let Some(mut session) = Session::start_with(version) else {
        return;
    };
    let origin = session.scratch_dir("origin.git");
    let out = Command::new("git")
        .args(["init", "-q", "--bare"])
        .arg(&origin)
        .output()
        .unwrap();
    assert!(out.status.success());
    session.git_ok(&["remote", "add", "origin", origin.to_str().unwrap()]);
    session.git_ok(&["push", "-q", "origin", "main"]);
    let main_before = session.git_ok(&["--git-dir", origin.to_str().unwrap(), "rev-parse", "main"]);
    session.install(&[]);

    let api = MockApi::start(vec![
        Step::tool(
            "Bash",
            json!({"command": "git switch -c feat/x && git commit --allow-empty -q -m work", "description": "commit on a branch"}),
        ),
        Step::tool(
            "Bash",
            json!({"command": "git push origin HEAD:main", "description": "push"}),
        ),
        Step::tool(
            "Bash",
            json!({"command": "git push -u origin HEAD:feat/x", "description": "push the branch"}),
        ),
        Step::text("Pushed feat/x."),
    ]);
    let out = session.run("Commit and push", &api);
    assert!(out.status.success(), "{}", out.describe());
    let requests = api.requests();
    assert_eq!(requests.len(), 4, "{}", out.describe());

    let committed = tool_result(&requests[1], &tool_use_id(0, 0)).unwrap();
    assert!(!committed.is_error, "{committed:?}");

    let denied = tool_result(&requests[2], &tool_use_id(1, 0)).unwrap();
    assert!(denied.is_error, "{denied:?}");
    assert!(
        denied.text.starts_with("PreToolUse:Bash hook error: block-wrong-branch: `git push origin HEAD:main` would push to the protected branch main on origin."),
        "{}",
        denied.text
    );
    assert!(
        denied.text.contains("git push -u origin HEAD:feat/<name>"),
        "{}",
        denied.text
    );
    let main_after = session.git_ok(&["--git-dir", origin.to_str().unwrap(), "rev-parse", "main"]);
    assert_eq!(main_before, main_after, "the remote's main must not move");

    let pushed = tool_result(&requests[3], &tool_use_id(2, 0)).unwrap();
    assert!(!pushed.is_error, "{pushed:?}");
    let feat = session.git_ok(&["--git-dir", origin.to_str().unwrap(), "rev-parse", "feat/x"]);
    assert_eq!(feat, session.git_ok(&["rev-parse", "feat/x"]));
}
