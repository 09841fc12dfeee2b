//! `did-it-actually receipt` on turns played through the hooks as a host runs them (Qwen
//! Code's inputs, which name no turn: the turn is what the ledger holds between two turn
//! ends): what the turn did, from the ledger, and each claim of the final message with
//! its evidence. A snapshot pins the Markdown a user pastes into a pull request.

use crate::support::fixture::scratch;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

struct Turns {
    dir: crate::support::fixture::Scratch,
    project: std::path::PathBuf,
}

impl Turns {
    fn new() -> Turns {
        let dir = scratch("receipt");
        let project = dir.join("root");
        let git = |args: &[&str]| {
            assert!(crate::support::repo::git_command(&project)
                .args(args)
                .status()
                .unwrap()
                .success())
        };
        git(&["init", "-q", "-b", "main"]);
        // The seed is history, well before any turn: made in the turn's first second it
        // would count as the turn's own commit (reflog times are whole seconds).
        assert!(crate::support::repo::git_command(&project)
            .args(["commit", "-q", "--allow-empty", "-m", "seed"])
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .status()
            .unwrap()
            .success());
        Turns { dir, project }
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .current_dir(&self.project)
            .env("HOME", self.dir.join("home"))
            .env("DID_IT_ACTUALLY_STATE_DIR", self.dir.join("state"))
            .env_remove("DID_IT_ACTUALLY_POLICY");
        cmd
    }

    /// One hook call as Qwen Code makes it.
    fn hook(&self, hook: &str, event: serde_json::Value) -> Output {
        let mut input = serde_json::json!({"session_id": "s1", "cwd": self.project});
        input
            .as_object_mut()
            .unwrap()
            .extend(event.as_object().unwrap().clone());
        crate::support::output_with_stdin(
            &mut self.cmd(&[hook, "--host", "qwen"]),
            input.to_string().as_bytes(),
        )
    }

    fn write(&self, file: &str, content: &str) {
        std::fs::write(self.project.join(file), content).unwrap();
        self.hook(
            "verify-write",
            serde_json::json!({"hook_event_name": "PostToolUse", "tool_name": "write_file",
                "tool_input": {"file_path": self.project.join(file), "content": content},
                "tool_response": {"llmContent": "ok"}}),
        );
    }

    fn ran(&self, command: &str, output: &str) {
        self.hook(
            "verify-write",
            serde_json::json!({"hook_event_name": "PostToolUse", "tool_name": "run_shell_command",
                "tool_input": {"command": command}, "tool_response": {"llmContent": output}}),
        );
    }

    fn stop(&self, message: &str) -> Output {
        self.hook(
            "audit-turn",
            serde_json::json!({"hook_event_name": "Stop", "stop_hook_active": false,
                "last_assistant_message": message}),
        )
    }

    fn receipt(&self, args: &[&str]) -> String {
        let mut all = vec!["receipt"];
        all.extend_from_slice(args);
        let out = self.cmd(&all).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        redact(&String::from_utf8_lossy(&out.stdout), &self.dir)
    }
}

/// Paths and times out, so the snapshot holds what the receipt says.
fn redact(text: &str, dir: &Path) -> String {
    let mut out = text.replace(dir.to_str().unwrap(), "[SCRATCH]");
    while let Some(at) = out.find("2026-").or_else(|| out.find("2027-")) {
        out.replace_range(at..at + 24, "[TIME]");
    }
    out
}

#[test]
fn a_receipt_shows_the_last_turn_and_each_claims_evidence() {
    let t = Turns::new();
    // Turn 1: a push that landed, claimed honestly; the stop goes through.
    t.ran(
        "git push origin HEAD:topic/x",
        "To ../origin.git\n * [new branch]      HEAD -> topic/x\n",
    );
    assert!(t.stop("I pushed to topic/x.").status.success());
    // Turn 2: a write, a test run, a commit, a refused push to main, a rejected push.
    t.write("notes.md", "the plan\n");
    t.ran(
        "cargo test",
        "running 3 tests\ntest result: ok. 3 passed; 0 failed\n",
    );
    t.ran(
        "git commit -qam 'plan'",
        "[topic/x 1a2b3c4] plan\n 1 file changed, 1 insertion(+)\n",
    );
    let denied = t.hook(
        "block-wrong-branch",
        serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "run_shell_command",
            "tool_input": {"command": "git push origin HEAD:main"}}),
    );
    assert!(String::from_utf8_lossy(&denied.stdout).contains("\"deny\""));
    t.ran(
        "git push origin HEAD:topic/x",
        "To ../origin.git\n ! [rejected]        HEAD -> topic/x (fetch first)\nerror: failed to push some refs\nExit Code: 1\n",
    );
    let message =
        "I wrote `notes.md` and `README.md`. All 3 tests pass. I committed and pushed to topic/x.";
    let receipt = t.receipt(&["--message", message]);
    // The first turn's push is not this turn's.
    assert!(!receipt.contains("* [new branch]"), "{receipt}");
    assert!(receipt.contains("push REJECTED"), "{receipt}");
    insta::assert_snapshot!("receipt_markdown", receipt);
    let json: serde_json::Value =
        serde_json::from_str(&t.receipt(&["--message", message, "--json"])).unwrap();
    let claims = json["claims"].as_array().unwrap();
    // Each claim of a sentence, with its verdict ("committed and pushed" is two).
    let verdicts = |s: &str| -> Vec<bool> {
        claims
            .iter()
            .filter(|c| c["sentence"].as_str().unwrap().contains(s))
            .map(|c| c["backed"].as_bool().unwrap())
            .collect()
    };
    assert_eq!(verdicts("All 3 tests pass"), [true], "{json:#}");
    assert_eq!(verdicts("pushed to topic/x"), [true, false], "{json:#}");
    assert_eq!(json["commands"].as_array().unwrap().len(), 3, "{json:#}");
    // Without a message, before the turn's stop: the rest, and a line saying the claims
    // were not checked.
    assert!(t
        .receipt(&[])
        .contains("Not checked: audit-turn recorded no audit of this turn"));
    // The stop: audit-turn refuses it (README.md was never written, the push was
    // rejected) and records what it judged; the receipt shows that without a message.
    let stop = t.stop(message);
    assert!(
        String::from_utf8_lossy(&stop.stdout).contains("README.md"),
        "{stop:?}"
    );
    let recorded = t.receipt(&[]);
    let claims = &recorded[recorded.find("### Claims").unwrap()..];
    // The seed commit's hash depends on the clock; which commit backs it is not the point.
    let claims = hash_out(claims);
    insta::assert_snapshot!("receipt_claims_as_audit_turn_judged_them", claims);
    let log = t.cmd(&["log", "--session", "s1"]).output().unwrap();
    let log = String::from_utf8_lossy(&log.stdout);
    assert!(
        log.contains("stop refused") && log.contains("5 claim(s), 2 not backed"),
        "{log}"
    );
}

/// "commit 2661207 was made" as "commit [HASH] was made".
fn hash_out(text: &str) -> String {
    text.split(' ')
        .map(|w| {
            if w.len() == 7 && w.bytes().all(|b| b.is_ascii_hexdigit()) {
                "[HASH]"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_receipt_names_the_sessions_there_are_when_one_is_mistyped() {
    let t = Turns::new();
    t.write("a.md", "a\n");
    let out = t.cmd(&["receipt", "--session", "nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("no write log for session nope") && said.contains("s1"),
        "{said}"
    );
}
