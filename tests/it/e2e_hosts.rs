//! The guards in every other host's real binary (Codex CLI, Gemini CLI, Copilot CLI, Qwen
//! Code, droid, opencode), installed the way a user installs them (`did-it-actually install --host
//! <host> --user`), the host run non-interactively against a scripted model: what the
//! model was told, and what happened to the disk and the remote.

use crate::support::hosts::{Bed, HostKind, Run, Step};
use crate::support::repo::git;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

per_host!(
    a_push_to_main_is_denied,
    a_wrapped_push_is_denied,
    a_feature_push_goes_through,
    a_write_outside_the_project_is_denied,
    a_landed_write_is_recorded_with_its_host,
    an_unbacked_claim_is_blocked_until_the_agent_backs_it,
    an_unbacked_test_claim_is_blocked_until_the_tests_run,
    an_unbacked_push_claim_is_blocked_until_the_push_lands,
    a_corrected_message_goes_through,
    a_missing_guard_binary,
);

/// A bed with the guards installed from `binary` (default: the built one), and an
/// unpushed commit on `main` so a push would change the remote.
pub(crate) fn guarded(host: HostKind, binary: Option<&Path>) -> Option<Bed> {
    let bed = Bed::new(host)?;
    let work = bed.work.clone();
    git(&work, &["commit", "-q", "--allow-empty", "-m", "unpushed"]);
    let bin = binary
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_did-it-actually")));
    let out = Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
        .args(["install", "--host", host.name(), "--user", "--binary"])
        .arg(&bin)
        .env_clear()
        .envs(bed.env())
        .env("DID_IT_ACTUALLY_CODEX", &bed.binary)
        .current_dir(&work)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "install --host {}: {}{}",
        host.name(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(bed)
}

fn origin_main(bed: &Bed) -> Option<String> {
    bed.repo.origin_ref("main")
}

pub(crate) fn explain(run: &Run) -> String {
    format!(
        "status {:?}\n--- told\n{}\n--- stdout\n{}\n--- stderr\n{}",
        run.status,
        run.told(),
        run.stdout,
        crate::support::hosts::tail(&run.stderr, 3000)
    )
}

fn push_is_denied(host: HostKind, command: &str) {
    let Some(bed) = guarded(host, None) else {
        return;
    };
    let before = origin_main(&bed);
    let run = bed.run(
        "push it",
        vec![Step::new(vec![bed.shell(command)]), Step::text("Pushed.")],
    );
    assert_eq!(
        origin_main(&bed),
        before,
        "the remote moved\n{}",
        explain(&run)
    );
    let result = run.tool_result(0).unwrap_or_default();
    assert!(
        result.contains("block-wrong-branch") && result.contains("protected branch main"),
        "the model was not told why\n{}",
        explain(&run)
    );
}

fn a_push_to_main_is_denied(host: HostKind) {
    push_is_denied(host, "git push origin HEAD:main");
}

fn a_wrapped_push_is_denied(host: HostKind) {
    push_is_denied(host, "sh -c 'cd . && git push origin main'");
}

fn a_feature_push_goes_through(host: HostKind) {
    let Some(bed) = guarded(host, None) else {
        return;
    };
    let run = bed.run(
        "push it",
        vec![
            Step::new(vec![bed.shell("git push origin HEAD:topic/x")]),
            Step::text("Pushed to topic/x."),
        ],
    );
    let head = git(&bed.work, &["rev-parse", "HEAD"]);
    assert_eq!(
        bed.repo.origin_ref("topic/x").as_deref(),
        Some(head.as_str()),
        "the feature push did not land\n{}",
        explain(&run)
    );
    assert!(
        !run.told().contains("block-wrong-branch"),
        "{}",
        explain(&run)
    );
}

fn a_write_outside_the_project_is_denied(host: HostKind) {
    let Some(bed) = guarded(host, None) else {
        return;
    };
    let by_tool = bed.repo.dir.join("outside/leak.txt");
    let by_shell = bed.repo.dir.join("outside/leak2.txt");
    let run = bed.run(
        "write it",
        vec![
            Step::new(vec![bed.write_file(by_tool.to_str().unwrap(), "leak\n")]),
            Step::new(vec![
                bed.shell(&format!("printf leak > {}", by_shell.display()))
            ]),
            Step::text("Done."),
        ],
    );
    assert!(
        !by_tool.exists() && !by_shell.exists(),
        "a write landed\n{}",
        explain(&run)
    );
    let told_why = |n: usize| {
        run.tool_result(n)
            .is_some_and(|r| r.contains("scope-guard") && r.contains("outside the project root"))
    };
    assert!(
        told_why(1),
        "the model was not told why (shell)\n{}",
        explain(&run)
    );
    // Gemini refuses a write tool's path outside its workspace itself, before any hook
    // runs (observed on 0.61.0): the guard never sees that call.
    let host_refused = host == HostKind::Gemini
        && run
            .tool_result(0)
            .is_some_and(|r| r.contains("Path not in workspace"));
    assert!(
        told_why(0) || host_refused,
        "the model was not told why (write tool)\n{}",
        explain(&run)
    );
    // In the host's own words: its write tool by the name the model called it.
    let own_name = match host {
        HostKind::Codex => "apply_patch",
        HostKind::Gemini | HostKind::Qwen => "write_file",
        HostKind::Copilot => "create",
        HostKind::Droid => "Create",
        HostKind::Opencode => "write",
    };
    assert!(
        host_refused
            || run
                .tool_result(0)
                .is_some_and(|r| r.contains(&format!("the {own_name} to "))),
        "the refusal does not name the host's tool `{own_name}`\n{}",
        explain(&run)
    );
}

/// Every record of the state directory the hooks wrote (under the bed's HOME).
fn records(bed: &Bed) -> Vec<Value> {
    crate::support::ledger_records(&bed.home.join(".local/state/did-it-actually"))
}

fn a_landed_write_is_recorded_with_its_host(host: HostKind) {
    let Some(bed) = guarded(host, None) else {
        return;
    };
    let file = bed.work.join("notes.md");
    let run = bed.run(
        "write notes",
        vec![
            Step::new(vec![bed.write_file(file.to_str().unwrap(), "the plan\n")]),
            Step::text("Wrote notes.md."),
        ],
    );
    assert_eq!(
        std::fs::read_to_string(&file).ok().as_deref(),
        Some("the plan\n"),
        "{}",
        explain(&run)
    );
    let canonical = std::fs::canonicalize(&file).unwrap();
    let recs = records(&bed);
    assert!(
        recs.iter().any(|r| r["path"] == canonical.to_str().unwrap()
            && r["outcome"] == "landed"
            && r["host"] == host.name()),
        "no landed record naming {}: {recs:#?}\n{}",
        host.name(),
        explain(&run)
    );
}

fn an_unbacked_claim_is_blocked_until_the_agent_backs_it(host: HostKind) {
    let Some(bed) = guarded(host, None) else {
        return;
    };
    let file = bed.work.join("CHANGES.md");
    let claim = "I updated `CHANGES.md` with the release notes.";
    let run = bed.run(
        "update the changelog",
        vec![
            Step::text(claim),
            Step::new(vec![
                bed.write_file(file.to_str().unwrap(), "release notes\n")
            ]),
            Step::text(claim),
        ],
    );
    if host == HostKind::Opencode {
        // opencode cannot refuse the end of a turn: the user is told, the agent is not.
        assert_eq!(run.steps_served, 1, "{}", explain(&run));
        assert!(
            run.stderr.contains("audit-turn")
                && run.stderr.contains("CHANGES.md")
                && run.stderr.contains("reported, not enforced"),
            "the unbacked claim was not reported to the user\n{}",
            explain(&run)
        );
        assert!(!run.told().contains("audit-turn"), "{}", explain(&run));
        return;
    }
    assert!(
        run.told().contains("audit-turn") && run.told().contains("CHANGES.md"),
        "the unbacked claim was not sent back\n{}",
        explain(&run)
    );
    assert!(
        file.exists(),
        "the agent never got to back it\n{}",
        explain(&run)
    );
    assert_eq!(run.steps_served, 3, "{}", explain(&run));
    assert!(run.status.success(), "{}", explain(&run));
}

/// "All tests pass" after a turn that ran commands but no test is blocked, judged from
/// the run log (each shell call the host reported, recorded by verify-write), and let
/// through once the agent has run the tests.
fn an_unbacked_test_claim_is_blocked_until_the_tests_run(host: HostKind) {
    let Some(bed) = guarded(host, None) else {
        return;
    };
    std::fs::write(
        bed.work.join("Makefile"),
        "test:\n\t@echo '3 passed, 0 failed'\n",
    )
    .unwrap();
    let claim = "All tests pass.";
    let run = bed.run(
        "run the tests",
        vec![
            Step::new(vec![bed.shell("echo preparing")]),
            Step::text(claim),
            Step::new(vec![bed.shell("make -s test")]),
            Step::text(claim),
        ],
    );
    if host == HostKind::Opencode {
        // No stop gate: the first turn's claim is reported to the user; a second turn
        // (its own session) that runs the tests before saying so is not.
        assert_eq!(run.steps_served, 2, "{}", explain(&run));
        eprintln!("opencode: the user was told:\n{}", run.stderr.trim());
        assert!(
            run.stderr.contains("audit-turn") && run.stderr.contains(claim),
            "the unbacked test claim was not reported\n{}",
            explain(&run)
        );
        let backed = bed.run(
            "run the tests",
            vec![
                Step::new(vec![bed.shell("make -s test")]),
                Step::text(claim),
            ],
        );
        assert!(
            !backed.stderr.contains("audit-turn"),
            "a backed claim was reported\n{}",
            explain(&backed)
        );
    } else {
        assert!(
            run.told().contains("audit-turn"),
            "the unbacked test claim was not sent back\n{}",
            explain(&run)
        );
        assert_eq!(run.steps_served, 4, "{}", explain(&run));
        assert!(run.status.success(), "{}", explain(&run));
    }
    // The run log holds both commands, with the host's name.
    let runs: Vec<Value> = records(&bed)
        .into_iter()
        .filter(|r| r["kind"] == "run")
        .collect();
    // Qwen Code's shell tool once answered "Output: (empty)" for this command, which did
    // print (one whole-suite run in two, 2026-12-05): the record keeps what the host gave.
    let holds_output =
        |o: &str| o.contains("3 passed") || host == HostKind::Qwen && o.contains("Output: (empty)");
    assert!(
        runs.iter().any(|r| r["command"] == "make -s test"
            && r["output"].as_str().is_some_and(holds_output)
            && r["host"] == host.name()),
        "{runs:?}"
    );
}

/// "Pushed to topic/x" after a turn that ran commands but no push is blocked, judged from
/// the run log (the push's own output), and let through once the push landed; the
/// remote has the branch. (A turn with no shell command at all leaves the claim reported:
/// nothing there shows the run log was on.)
fn an_unbacked_push_claim_is_blocked_until_the_push_lands(host: HostKind) {
    let Some(bed) = guarded(host, None) else {
        return;
    };
    let claim = "I pushed the work to topic/x.";
    let run = bed.run(
        "push the work",
        vec![
            Step::new(vec![bed.shell("git status --short")]),
            Step::text(claim),
            Step::new(vec![bed.shell("git push origin HEAD:topic/x")]),
            Step::text(claim),
        ],
    );
    match host {
        // No stop gate: reported to the user.
        HostKind::Opencode => {
            assert_eq!(run.steps_served, 2, "{}", explain(&run));
            assert!(
                run.stderr.contains("audit-turn") && run.stderr.contains("no `git push` ran"),
                "the unbacked push claim was not reported\n{}",
                explain(&run)
            );
        }
        _ => {
            assert!(
                run.told().contains("no `git push` ran in this turn"),
                "the unbacked push claim was not sent back\n{}",
                explain(&run)
            );
            assert_eq!(run.steps_served, 4, "{}", explain(&run));
            assert!(run.status.success(), "{}", explain(&run));
            assert!(
                bed.repo.origin_ref("topic/x").is_some(),
                "the push did not land\n{}",
                explain(&run)
            );
        }
    }
}

/// The honest way out of a block: the agent takes the claim back. It must then be let
/// through at once (Gemini repeats the blocked answer in the next stop's message).
fn a_corrected_message_goes_through(host: HostKind) {
    let Some(bed) = guarded(host, None) else {
        return;
    };
    let run = bed.run(
        "update the changelog",
        vec![
            Step::text("I updated `CHANGES.md` with the release notes."),
            Step::text("I did not update CHANGES.md; the release notes are still to be written."),
            Step::text("(a third answer: the corrected message was blocked)"),
        ],
    );
    let expected = if host == HostKind::Opencode { 1 } else { 2 };
    assert_eq!(run.steps_served, expected, "{}", explain(&run));
    assert!(run.status.success(), "{}", explain(&run));
}

fn a_missing_guard_binary(host: HostKind) {
    // The guards installed from a copy, which then disappears.
    let scratch = crate::support::scratch_root().join(format!(
        "dia-missing-{}-{}",
        host.name(),
        std::process::id()
    ));
    std::fs::create_dir_all(&scratch).unwrap();
    let copy = scratch.join("did-it-actually");
    // A hard link, not a copy: executing a file just written while another test thread
    // forks can fail with ETXTBSY.
    if std::fs::hard_link(env!("CARGO_BIN_EXE_did-it-actually"), &copy).is_err() {
        crate::support::copy_executable(
            std::path::Path::new(env!("CARGO_BIN_EXE_did-it-actually")),
            &copy,
        );
    }
    let Some(bed) = guarded(host, Some(&copy)) else {
        return;
    };
    std::fs::remove_dir_all(&scratch).unwrap();
    let before = origin_main(&bed);
    let run = bed.run(
        "push it",
        vec![
            Step::new(vec![bed.shell("git push origin HEAD:main")]),
            Step::text("Pushed."),
        ],
    );
    let pushed = origin_main(&bed) != before;
    // doctor says so, whatever the host does.
    let doctor = Command::new(env!("CARGO_BIN_EXE_did-it-actually"))
        .args(["doctor"])
        .env_clear()
        .envs(bed.env())
        .current_dir(&bed.work)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        report.contains("does not exist") && doctor.status.code() == Some(1),
        "doctor did not report the missing binary:\n{report}"
    );
    // Every host: the inline launcher finds no binary and answers in the host's own deny
    // form (Codex, Qwen Code and droid run the tool when a hook cannot be started).
    assert!(
        !pushed,
        "{} ran the call although the guard binary is gone\n{}",
        host.name(),
        explain(&run)
    );
    assert!(
        run.tool_result(0)
            .unwrap_or_default()
            .contains("did-it-actually is not installed on this machine"),
        "the model was not told why\n{}",
        explain(&run)
    );
}
