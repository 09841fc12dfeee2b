//! The plugin form in the real Claude Code: `claude --plugin-dir <this repository's
//! plugin files>` guards a session with no entry in any settings file: a push to `main`
//! denied, a write outside the project denied, an unbacked claim at the end of the turn
//! blocked; and doctor, run as the plugin, reports the plugin as the registration.

use crate::support;

use serde_json::json;
use std::path::Path;
use std::process::Command;
use support::claude::Session;
use support::mock_api::{tool_result, tool_use_id, MockApi, Step};

/// The plugin as a user gets it (`.claude-plugin/`, `hooks/`, `bin/`), with the built
/// binary where its launcher looks first (`target/release/did-it-actually`).
fn plugin_dir(session: &Session) -> std::path::PathBuf {
    let dir = session.scratch_dir("plugin");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (from, to) in [
        (".claude-plugin/plugin.json", ".claude-plugin/plugin.json"),
        (
            ".claude-plugin/marketplace.json",
            ".claude-plugin/marketplace.json",
        ),
        ("hooks/hooks.json", "hooks/hooks.json"),
        ("bin/did-it-actually", "bin/did-it-actually"),
        (
            env!("CARGO_BIN_EXE_did-it-actually"),
            "target/release/did-it-actually",
        ),
    ] {
        let target = dir.join(to);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        // Hard links where possible: executing a file just written while another test
        // thread forks can fail with ETXTBSY.
        if std::fs::hard_link(repo.join(from), &target).is_err() {
            std::fs::copy(repo.join(from), &target).unwrap();
        }
    }
    dir
}

#[test]
fn the_plugin_guards_a_session_without_any_settings_entry() {
    let Some(mut session) = Session::start() else {
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
    session.git_ok(&["commit", "-q", "--allow-empty", "-m", "unpushed"]);
    let before = session.git_ok(&["--git-dir", origin.to_str().unwrap(), "rev-parse", "main"]);
    let plugin = plugin_dir(&session);
    session.arg("--plugin-dir").arg(&plugin);
    let outside = session.scratch_dir("outside").join("leak.txt");

    let claim = "I updated `CHANGES.md` with the release notes.";
    let api = MockApi::start(vec![
        Step::tool(
            "Bash",
            json!({"command": "git push origin HEAD:main", "description": "push"}),
        ),
        Step::tool("Write", json!({"file_path": outside, "content": "leak\n"})),
        Step::text(claim),
        Step::text("I did not update CHANGES.md; the release notes are still to be written."),
    ]);
    let out = session.run("Push and write", &api);
    assert!(out.status.success(), "{}", out.describe());
    let requests = api.requests();
    assert_eq!(requests.len(), 4, "{}", out.describe());

    let push = tool_result(&requests[1], &tool_use_id(0, 0)).unwrap();
    assert!(
        push.is_error && push.text.contains("block-wrong-branch"),
        "{push:?}"
    );
    let after = session.git_ok(&["--git-dir", origin.to_str().unwrap(), "rev-parse", "main"]);
    assert_eq!(after, before, "the remote moved");

    let write = tool_result(&requests[2], &tool_use_id(1, 0)).unwrap();
    assert!(
        write.is_error && write.text.contains("scope-guard"),
        "{write:?}"
    );
    assert!(!outside.exists());

    // The claim went back to the model as the stop's block.
    let fed_back = support::claude::stop_feedback(&requests);
    assert!(
        fed_back
            .iter()
            .any(|f| f.contains("audit-turn") && f.contains("CHANGES.md")),
        "{fed_back:?}\n{}",
        out.describe()
    );

    // doctor, as the plugin runs it, says the plugin is the registration.
    let doctor = Command::new(plugin.join("bin/did-it-actually"))
        .arg("doctor")
        .current_dir(session.project())
        .env("HOME", session.home())
        .env("CLAUDE_PLUGIN_ROOT", &plugin)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        report.contains("[ok  ] registration: running as the plugin at")
            && !report.contains("nothing is guarded"),
        "{report}"
    );
}
