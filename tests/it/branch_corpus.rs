//! The branch guard against a corpus of shell commands (`tests/corpus/block-wrong-branch.tsv`),
//! each run through the built binary as a PreToolUse Bash event, in a scratch repository
//! whose `main` is protected (the default policy).
//!
//! Corpus lines: `verdict<TAB>setup<TAB>command`; verdict is `allow` or `deny`; setup is
//! what [`support::repo::ScratchRepo::new`] takes; `#` starts a comment line. Within a
//! command, `\n` (backslash, n) stands for a newline and `\t` for a tab.

use crate::support;

use std::process::Command;
use support::repo::ScratchRepo;

const CORPUS: &str = include_str!("../corpus/block-wrong-branch.tsv");

pub struct Case<'a> {
    pub line: usize,
    pub verdict: &'a str,
    pub setup: &'a str,
    pub command: String,
}

pub fn cases() -> Vec<Case<'static>> {
    CORPUS
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let mut parts = l.splitn(3, '\t');
            let (verdict, setup, command) = (
                parts.next().unwrap(),
                parts.next().unwrap_or(""),
                parts.next(),
            );
            let command = command.unwrap_or_else(|| {
                panic!("line {}: expected verdict<TAB>setup<TAB>command", i + 1)
            });
            assert!(
                matches!(verdict, "allow" | "deny"),
                "line {}: verdict {verdict:?}",
                i + 1
            );
            Case {
                line: i + 1,
                verdict,
                setup,
                command: command.replace("\\n", "\n").replace("\\t", "\t"),
            }
        })
        .collect()
}

/// Runs the hook; returns (verdict, reason).
fn judge(repo: &ScratchRepo, command: &str) -> (String, String) {
    let input = serde_json::json!({
        "session_id": "corpus", "prompt_id": "p", "cwd": repo.work(),
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "t1",
    });
    let out = crate::support::output_with_stdin(
        Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
            .arg("block-wrong-branch")
            .env("HOME", repo.dir.join("outside"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("GIT_DIR")
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .env("DID_IT_ACTUALLY_STATE_DIR", repo.dir.join("state")),
        input.to_string().as_bytes(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    if stdout.is_empty() {
        return ("allow".into(), String::new());
    }
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let out = &v["hookSpecificOutput"];
    assert_eq!(out["permissionDecision"], "deny", "{stdout}");
    (
        "deny".into(),
        out["permissionDecisionReason"].as_str().unwrap().to_owned(),
    )
}

#[test]
fn corpus_verdicts() {
    let cases = cases();
    assert!(cases.len() >= 300, "the corpus has {} cases", cases.len());
    // One repository per distinct setup: the guard never changes it.
    let mut repos: std::collections::HashMap<&str, ScratchRepo> = Default::default();
    let mut wrong = Vec::new();
    for case in &cases {
        let repo = repos
            .entry(case.setup)
            .or_insert_with(|| ScratchRepo::new("corpus", &format!("{},sibling", case.setup)));
        let (verdict, reason) = judge(repo, &case.command);
        if verdict != case.verdict {
            wrong.push(format!(
                "line {}: expected {}, got {verdict} [{}] {:?}{}",
                case.line,
                case.verdict,
                case.setup,
                case.command,
                if reason.is_empty() {
                    String::new()
                } else {
                    format!("\n    reason: {reason}")
                }
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}
