//! One rule for a path the user or the agent writes with `~`: a leading `~` or `~/` is the
//! home directory in `check-path`, in a file tool's path (scope-guard) and in a shell
//! command (`explain`), as a shell reads it and as hosts expand it. (Claude Code hands
//! the hook an absolute path already; a host that passed `~/x` on and expanded it would
//! write where the guard did not look, if the guard read it as `./~/x`.)

use crate::support::fixture::scratch;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

#[test]
fn tilde_is_the_home_directory_for_every_reader() {
    let dir = scratch("tilde");
    let project = dir.join("root");
    assert!(Command::new("git")
        .args(["init", "-q", "-b", "main"])
        .current_dir(&project)
        .status()
        .unwrap()
        .success());
    // A HOME outside the temp directories the default policy allows.
    let home = "/nonexistent-home";
    let run = |args: &[&str], stdin: Option<&str>| {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .current_dir(&project)
            .env("HOME", home)
            .env("DID_IT_ACTUALLY_STATE_DIR", dir.join("state"))
            .env_remove("DID_IT_ACTUALLY_POLICY");
        match stdin {
            Some(input) => crate::support::output_with_stdin(&mut cmd, input.as_bytes()),
            None => cmd.output().unwrap(),
        }
    };
    let out = run(&["check-path", "~/.bashrc"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("resolves to: /nonexistent-home/.bashrc"),
        "{text}"
    );
    assert!(text.contains("verdict: deny"), "{text}");

    let out = run(&["explain", "echo x >> ~/.bashrc"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("/nonexistent-home/.bashrc"), "{text}");
    assert!(text.contains("verdict: deny"), "{text}");

    let write = serde_json::json!({"session_id": "s", "cwd": project, "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": "~/.bashrc", "content": "x"}});
    let out = run(&["scope-guard"], Some(&write.to_string()));
    let answer = String::from_utf8_lossy(&out.stdout);
    assert!(
        answer.contains(r#""permissionDecision":"deny""#)
            && answer.contains("/nonexistent-home/.bashrc"),
        "{answer}"
    );
    // A name that starts with `~` is a name.
    let out = run(&["check-path", "~notes.md"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
