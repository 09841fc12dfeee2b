//! The benchmark's cases, as a test: `bench --quick` against the debug binary checks every
//! case's answer (Claude Code's and every other host's, in that host's own form) before
//! it times it, and fails on the first wrong one. So a change that breaks an answer the
//! benchmark measures fails the suite, not only the next benchmark run; and the table
//! must hold a row for every case.
//!
//! The example is built here (`cargo build --example bench`): `cargo test --test it`
//! does not build examples, and a harness left over from an earlier build could be
//! stale.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The hosts whose rows the benchmark must have, by their rows' prefix.
const HOSTS: [&str; 6] = [
    "codex",
    "gemini",
    "copilot-camel",
    "qwen",
    "droid",
    "cursor",
];

fn show(out: &Output) -> String {
    format!(
        "exit: {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Builds the bench example with the cargo running this test, in the profile of this
/// test's build, and returns the executable cargo reports.
fn bench_example() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new(cargo);
    cmd.args([
        "build",
        "--locked",
        "--example",
        "bench",
        "--message-format=json",
    ])
    .current_dir(manifest)
    .stdin(Stdio::null());
    // target/<profile>/deps/it-…: build the example in the same profile, so that it
    // reuses what this test's build compiled.
    let profile = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.file_name()?.to_str()?.to_owned()));
    if let Some(p) = profile.filter(|p| p != "debug") {
        cmd.args(["--profile", &p]);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "cargo build --example bench failed:\n{}",
        show(&out)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "bench")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo named no bench executable:\n{}", show(&out)))
}

/// The cases' names, as `bench --list` gives them.
fn list(bench: &Path, quick: bool) -> Vec<String> {
    let mut cmd = Command::new(bench);
    cmd.arg("--list");
    if quick {
        cmd.arg("--quick");
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "bench --list failed:\n{}", show(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_benchmark_case_answers_as_expected_and_gets_a_row() {
    let bench = bench_example();
    let all = list(&bench, false);
    let quick = list(&bench, true);
    // --quick leaves out only the cases whose setup writes hundreds of MiB.
    assert!(quick.iter().all(|c| all.contains(c)), "{quick:?}");
    for left_out in all.iter().filter(|c| !quick.contains(c)) {
        assert!(
            left_out.contains("00 MiB transcript"),
            "--quick leaves out {left_out}"
        );
    }
    for host in HOSTS {
        for row in [
            format!("{host}: block-wrong-branch: `ls -la`"),
            format!("{host}: block-wrong-branch: `git push origin HEAD:main` (denied)"),
        ] {
            assert!(quick.contains(&row), "no case {row:?} in {quick:#?}");
        }
        for prefix in ["scope-guard: ", "verify-write: "] {
            let prefix = format!("{host}: {prefix}");
            assert!(
                quick.iter().any(|c| c.starts_with(&prefix)),
                "no case {prefix}… in {quick:#?}"
            );
        }
    }

    let dir = crate::support::scratch_root().join(format!("bench-checks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json_file = dir.join("rows.json");
    let out = Command::new(&bench)
        .arg(env!("CARGO_BIN_EXE_did-it-actually"))
        .arg("--quick")
        .arg("--json")
        .arg(&json_file)
        .env("DID_IT_ACTUALLY_BENCH_DIR", &dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = show(&out);
    let report = std::fs::read(&json_file);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "the bench failed:\n{said}");

    let stdout = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| case |"))
        .collect();
    assert_eq!(rows.len(), quick.len(), "one row per case:\n{said}");
    for (row, case) in rows.iter().zip(&quick) {
        assert!(
            row.starts_with(&format!("| {case} | ")),
            "the row of {case:?} is {row:?}:\n{said}"
        );
        // case, runs, p50, over hello, over true, p95, mean, max RSS.
        assert_eq!(row.matches(" | ").count(), 7, "{row}");
    }
    assert!(
        stdout.contains("Floor: `/bin/true`"),
        "no /bin/true floor:\n{said}"
    );
    assert!(
        stdout.contains("Floor: hello world") || stdout.contains("Floor: no hello world"),
        "no hello-world floor:\n{said}"
    );
    // With a hello world there is the stdin floor, the 1 MiB Write's input read and
    // dropped, and the case's distance to it.
    if stdout.contains("Floor: hello world") {
        assert!(
            stdout.contains("Floor: a program that only reads its stdin")
                && stdout.contains("`verify-write: Write, 1 MiB` is "),
            "no stdin floor:\n{said}"
        );
    }

    let report: Value = serde_json::from_slice(&report.expect("the bench wrote its JSON")).unwrap();
    let names: Vec<&str> = report["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["case"].as_str().unwrap())
        .collect();
    assert_eq!(names, quick, "the JSON's rows");
    for r in report["rows"].as_array().unwrap() {
        assert!(r["p50_ms"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["over_true_p50_ms"].is_f64(), "{r}");
    }
    assert!(report["floors"]["true"]["p50_ms"].as_f64().unwrap() > 0.0);
    if !report["floors"]["hello"].is_null() {
        let sink = &report["floors"]["stdin_sink"];
        assert_eq!(sink["case"], "verify-write: Write, 1 MiB", "{sink}");
        assert!(sink["row"]["p50_ms"].as_f64().unwrap() > 0.0, "{sink}");
    }
}
