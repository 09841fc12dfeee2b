//! `did-it-actually run -- AGENT`: both run-time layers around the whole process tree of
//! every other host's real binary (Codex CLI, Gemini CLI, Copilot CLI, Qwen Code, droid,
//! opencode), run non-interactively against a scripted model, first with no hook of ours
//! registered (the layers alone, as for an agent with no hooks at all), then with the
//! host's hooks installed too. What is judged is what moved, landed and was recorded.

use crate::e2e_hosts::{explain, guarded};
use crate::support::hosts::{Bed, HostKind, Run, Step};
use crate::support::repo::git;
use std::path::PathBuf;

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

per_host!(
    a_script_the_agent_writes_and_runs_cannot_push_main,
    a_name_computed_at_run_time_cannot_write_outside,
    honest_work_runs_as_without_the_layers,
    with_the_hosts_hooks_too_a_refusal_is_recorded_once,
);

/// A bed whose host starts through `run` (which names the agent by the program it
/// starts: the host's binary, or the script an interpreter runs).
fn wrapped(mut bed: Bed) -> Bed {
    bed.wrap = vec![BIN.into(), "run".into(), "--".into()];
    bed
}

/// A bed with an unpushed commit on `main`, started through `run`, no hooks of ours.
fn bare(host: HostKind) -> Option<Bed> {
    if crate::support::confine_unavailable() {
        return None;
    }
    let bed = Bed::new(host)?;
    git(
        &bed.work,
        &["commit", "-q", "--allow-empty", "-m", "unpushed"],
    );
    Some(wrapped(bed))
}

/// Outside every place the policy opens (see [`crate::support::outside_dir`]).
fn outside(host: HostKind, name: &str) -> PathBuf {
    crate::support::outside_dir(&format!("run-{name}-{}", host.name()))
}

/// Every record of every session in the bed's ledger.
fn ledger(bed: &Bed) -> Vec<serde_json::Value> {
    let sessions = bed.home.join(".local/state/did-it-actually/sessions");
    let mut out = Vec::new();
    for session in std::fs::read_dir(&sessions).into_iter().flatten().flatten() {
        let text = std::fs::read_to_string(session.path().join("writes.jsonl")).unwrap_or_default();
        out.extend(
            text.lines()
                .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()),
        );
    }
    out
}

fn push_refusals(bed: &Bed) -> Vec<serde_json::Value> {
    ledger(bed)
        .into_iter()
        .filter(|r| {
            r["kind"] == "denial"
                && r["reason"]
                    .as_str()
                    .is_some_and(|t| t.contains("protected branch main"))
        })
        .collect()
}

fn describe(run: &Run, bed: &Bed) -> String {
    format!("{}\n--- ledger\n{:#?}", explain(run), ledger(bed))
}

fn a_script_the_agent_writes_and_runs_cannot_push_main(host: HostKind) {
    let Some(bed) = bare(host) else {
        return;
    };
    let before = bed.repo.origin_ref("main");
    let script = bed.work.join("ship.sh");
    let run = bed.run(
        "ship it",
        vec![
            Step::new(vec![bed.write_file(
                script.to_str().unwrap(),
                "#!/bin/sh\nb=ma; b=\"${b}in\"\ngit push origin \"HEAD:$b\"\n",
            )]),
            Step::new(vec![bed.shell("sh ship.sh")]),
            Step::text("Shipped."),
        ],
    );
    assert!(
        script.exists(),
        "the script was not written\n{}",
        describe(&run, &bed)
    );
    assert_eq!(
        bed.repo.origin_ref("main"),
        before,
        "main moved on the remote\n{}",
        describe(&run, &bed)
    );
    let told = run.tool_result(1).unwrap_or_default();
    assert!(
        told.contains("run-time layer") && told.contains("protected branch main"),
        "the model was not told git's refusal\n{}",
        describe(&run, &bed)
    );
    let records = push_refusals(&bed);
    assert!(
        records.len() == 1 && records[0]["by"] == "run-time" && records[0]["host"] == host.name(),
        "one run-time denial record with the host's name\n{}",
        describe(&run, &bed)
    );
}

fn a_name_computed_at_run_time_cannot_write_outside(host: HostKind) {
    let Some(bed) = bare(host) else {
        return;
    };
    let dir = outside(host, "leak");
    // Computed by the shell from `$RANDOM` (Gemini CLI refuses `$(…)` in a command itself).
    let run = bed.run(
        "write the report",
        vec![
            Step::new(vec![bed.shell(&format!(
                "d={}; n=report-$RANDOM.txt; printf leak > \"$d/$n\"; echo status=$?",
                dir.display()
            ))]),
            Step::text("Written."),
        ],
    );
    let landed: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        landed.is_empty(),
        "a write landed outside: {landed:?}\n{}",
        describe(&run, &bed)
    );
    let told = run.tool_result(0).unwrap_or_default();
    assert!(
        told.contains("Permission denied"),
        "the kernel's refusal is not in the command's output\n{}",
        describe(&run, &bed)
    );
}

fn honest_work_runs_as_without_the_layers(host: HostKind) {
    let Some(bed) = bare(host) else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!(
        "dia-run-{}-{}.txt",
        host.name(),
        std::process::id()
    ));
    let run = bed.run(
        "work on a branch",
        vec![
            Step::new(vec![bed.write_file(
                bed.work.join("notes.txt").to_str().unwrap(),
                "notes\n",
            )]),
            // Staged in a call of its own: droid's shield refuses a commit whose index
            // changes earlier in the same command.
            Step::new(vec![bed.shell("git checkout -q -b topic/run && git add notes.txt")]),
            Step::new(vec![bed.shell(&format!(
                "git commit -q -m notes && git push -q origin topic/run && printf ok > {} && echo all=$?",
                tmp.display()
            ))]),
            Step::text("Committed and pushed topic/run."),
        ],
    );
    let tmp_landed = std::fs::read_to_string(&tmp).ok();
    let _ = std::fs::remove_file(&tmp);
    assert!(
        run.status.success(),
        "the host failed\n{}",
        describe(&run, &bed)
    );
    assert_eq!(
        std::fs::read_to_string(bed.work.join("notes.txt"))
            .ok()
            .as_deref(),
        Some("notes\n"),
        "the write in the project did not land\n{}",
        describe(&run, &bed)
    );
    let head = git(&bed.work, &["rev-parse", "HEAD"]);
    assert_eq!(
        bed.repo.origin_ref("topic/run").as_deref(),
        Some(head.as_str()),
        "the feature push did not land\n{}",
        describe(&run, &bed)
    );
    assert_eq!(
        tmp_landed.as_deref(),
        Some("ok"),
        "the temp write did not land\n{}",
        describe(&run, &bed)
    );
    assert!(push_refusals(&bed).is_empty(), "{}", describe(&run, &bed));
}

fn with_the_hosts_hooks_too_a_refusal_is_recorded_once(host: HostKind) {
    if crate::support::confine_unavailable() {
        return;
    }
    let Some(bed) = guarded(host, None) else {
        return;
    };
    let bed = wrapped(bed);
    let before = bed.repo.origin_ref("main");
    let run = bed.run(
        "ship it",
        vec![
            Step::new(vec![bed.shell("b=ma; git push origin \"HEAD:${b}in\"")]),
            Step::text("Shipped."),
        ],
    );
    assert_eq!(
        bed.repo.origin_ref("main"),
        before,
        "{}",
        describe(&run, &bed)
    );
    let records = push_refusals(&bed);
    assert_eq!(
        records.len(),
        1,
        "one record of the refusal\n{}",
        describe(&run, &bed)
    );
}
