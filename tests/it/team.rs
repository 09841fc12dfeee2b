//! What a person reads of the team features, as snapshots: `policy check` with an
//! organisation's policy (the merged rules and where each comes from), a broken
//! organisation policy, `install --managed` without root (what is staged and the one
//! command to run), and `export status` / `export flush` against an endpoint that is down.

use crate::support::fixture::scratch;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

fn text(out: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn run(args: &[&str], cwd: &Path, vars: &[(&str, &Path)]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(cwd)
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .env_remove("DID_IT_ACTUALLY_ORG_POLICY")
        .env_remove("XDG_STATE_HOME");
    for key in [
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
    ] {
        cmd.env_remove(key);
    }
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

#[test]
fn policy_check_shows_the_organisations_rules_and_where_each_comes_from() {
    let dir = scratch("team-policy");
    let root = dir.join("root");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(
        root.join(".did-it-actually.json"),
        r#"{"version": 1, "branches": {"protected": ["dev"], "allow_force_push": true},
            "scope": {"deny": [], "outside_root": {"allow": ["/tmp/**", "/data/**"]}},
            "audit": {"test_commands": ["true"]}}"#,
    )
    .unwrap();
    let org = dir.join("org.json");
    std::fs::write(
        &org,
        r#"{"version": 1, "branches": {"protected": ["main", "release/*"], "allow_force_push": false},
            "scope": {"deny": ["secrets/**"], "outside_root": {"allow": ["/tmp/**"]}},
            "audit": {"test_commands": ["make test"]},
            "export": {"otlp": true, "redact": ["message"]}}"#,
    )
    .unwrap();
    let out = run(
        &["policy", "check"],
        &root,
        &[("DID_IT_ACTUALLY_ORG_POLICY", &org), ("HOME", &dir)],
    );
    assert!(out.status.success(), "{}", text(&out));
    let shown = text(&out)
        .replace(root.to_str().unwrap(), "[ROOT]")
        .replace(dir.to_str().unwrap(), "[DIR]");
    // The repository's own protections and the organisation's, both.
    assert!(
        shown.contains("branches.protected: dev, main, release/*"),
        "{shown}"
    );
    insta::assert_snapshot!("policy_check_with_an_organisation", shown);

    // A broken organisation policy: every guard fails closed, and check names the file.
    std::fs::write(&org, "{\"version\": 1,\n \"scope\": {\"root\": \"/srv\"}}").unwrap();
    let out = run(
        &["policy", "check"],
        &root,
        &[("DID_IT_ACTUALLY_ORG_POLICY", &org), ("HOME", &dir)],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let shown = text(&out).replace(dir.to_str().unwrap(), "[DIR]");
    insta::assert_snapshot!("policy_check_with_a_broken_organisation_policy", shown);
}

#[test]
fn install_managed_without_root_stages_and_prints_the_command() {
    let dir = scratch("team-staged");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&*dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let state = dir.join("state");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o777)).unwrap();
    let mut cmd = if crate::support::fixture::is_root() {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(BIN);
        c
    } else {
        Command::new(BIN)
    };
    let out = cmd
        .args(["install", "--managed", "--host", "droid"])
        .current_dir(&*dir)
        .env("DID_IT_ACTUALLY_STATE_DIR", &state)
        .env("HOME", &*dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let sha = |p: &Path| {
        let bytes = std::fs::read(p).unwrap();
        did_it_actually::fsutil::sha256_hex(&bytes)
    };
    let staged = state.join("managed/etc/factory/settings.json");
    let shown = text(&out)
        .replace(&sha(&staged), "[SHA256]")
        .replace(dir.to_str().unwrap(), "[DIR]");
    insta::assert_snapshot!("install_managed_staged", shown);
}

#[test]
fn export_status_and_flush_say_where_records_go_and_what_went_wrong() {
    let dir = scratch("team-export");
    let state = dir.join("state");
    let org = dir.join("org.json");
    std::fs::write(&org, r#"{"version": 1, "export": {"otlp": true}}"#).unwrap();
    let down = Path::new("http://127.0.0.1:9");
    let vars = [
        ("DID_IT_ACTUALLY_STATE_DIR", state.as_path()),
        ("DID_IT_ACTUALLY_ORG_POLICY", org.as_path()),
        ("HOME", &*dir),
        ("OTEL_EXPORTER_OTLP_ENDPOINT", down),
    ];
    let out = run(&["export", "status"], &dir, &vars);
    assert!(out.status.success(), "{}", text(&out));
    insta::assert_snapshot!("export_status_empty", text(&out));

    // One refused write, in a session whose policy has export on.
    let project = dir.join("root");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let mut hook = Command::new(BIN);
    hook.args(["scope-guard", "--host", "qwen"])
        .current_dir(&project);
    for (k, v) in &vars {
        hook.env(k, v);
    }
    let input = serde_json::json!({"session_id": "s-1", "cwd": project,
        "hook_event_name": "PreToolUse", "tool_name": "write_file",
        "tool_input": {"file_path": "/srv/x.txt", "content": "x"}});
    let out = crate::support::output_with_stdin(&mut hook, input.to_string().as_bytes());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("deny"),
        "{}",
        text(&out)
    );

    let out = run(&["export", "flush"], &dir, &vars);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let shown = text(&out).replace(dir.to_str().unwrap(), "[DIR]");
    insta::assert_snapshot!("export_flush_down", shown);
    let out = run(&["export", "status"], &dir, &vars);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let shown = text(&out).replace(dir.to_str().unwrap(), "[DIR]");
    // The next attempt's countdown and the ledger's size depend on the clock and the
    // record's text: only their shape is pinned.
    let shown = regex_lite(&shown);
    insta::assert_snapshot!("export_status_after_a_failure", shown);
}

/// Replaces the numbers that depend on the run (seconds left, bytes, failures so far)
/// with `N`.
fn regex_lite(text: &str) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        // The hook's own background flusher may have failed once before `export flush`.
        let varies = next.starts_with("bytes")
            || next.starts_with("s)")
            || next.starts_with("failures")
            || next.starts_with("failure ");
        let (open, number) = match w.strip_prefix('(') {
            Some(n) => ("(", n),
            None => ("", *w),
        };
        if varies && !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) {
            out.push(format!("{open}N"));
        } else {
            out.push((*w).to_owned());
        }
    }
    out.join(" ")
}
