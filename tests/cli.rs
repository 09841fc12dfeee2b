//! The binary as a user runs it: install/uninstall into a project, the plugin file, the
//! multicall links, `policy check`, and what `--help` says.

mod support;

use std::path::Path;
use std::process::{Command, Output};
use support::fixture::scratch;

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

fn run(args: &[&str], cwd: &Path) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(cwd)
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn install_merges_is_idempotent_and_uninstall_restores() {
    let dir = scratch("install");
    let project = dir.join("root");
    let settings = project.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let original = r#"{"permissions": {"allow": ["Bash(ls:*)"]},
 "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-formatter"}]}]}}
"#;
    std::fs::write(&settings, original).unwrap();
    let p = project.to_str().unwrap();

    let out = run(
        &[
            "install",
            "--project",
            p,
            "--binary",
            "/opt/dia/did-it-actually",
        ],
        &project,
    );
    assert!(out.status.success(), "{}", text(&out));
    let once = std::fs::read_to_string(&settings).unwrap();
    insta::assert_snapshot!("installed_settings", once);
    // The original is kept once, byte for byte.
    let backup = project.join(".claude/settings.json.did-it-actually.bak");
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), original);

    let out = run(
        &[
            "install",
            "--project",
            p,
            "--binary",
            "/opt/dia/did-it-actually",
        ],
        &project,
    );
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("already up to date"));
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        once,
        "byte-identical"
    );

    let out = run(&["uninstall", "--project", p], &project);
    assert!(out.status.success(), "{}", text(&out));
    let after: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let before: serde_json::Value = serde_json::from_str(original).unwrap();
    assert_eq!(after, before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn invalid_settings_are_refused_and_untouched() {
    let dir = scratch("install-invalid");
    let project = dir.join("root");
    let settings = project.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let broken = "{\n  \"hooks\": {\n    \"PostToolUse\": [,]\n  }\n}\n";
    std::fs::write(&settings, broken).unwrap();
    let out = run(
        &["install", "--project", project.to_str().unwrap()],
        &project,
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr).replace(project.to_str().unwrap(), "[ROOT]");
    assert_eq!(
        stderr,
        "did-it-actually: [ROOT]/.claude/settings.json:3:21: not valid JSON: expected value; fix it by hand, nothing was written\n"
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), broken);
    assert!(!project
        .join(".claude/settings.json.did-it-actually.bak")
        .exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plugin_hooks_json_is_generated_from_the_install_table() {
    let out = run(&["plugin-hooks"], Path::new(env!("CARGO_MANIFEST_DIR")));
    let committed =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("hooks/hooks.json"))
            .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        committed,
        "hooks/hooks.json is stale: run `cargo run -- plugin-hooks > hooks/hooks.json`"
    );
}

#[test]
fn a_link_named_after_a_hook_runs_that_hook() {
    let dir = scratch("multicall");
    let link = dir.join("verify-write");
    std::os::unix::fs::symlink(BIN, &link).unwrap();
    let out = Command::new(&link)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "verify-write: stdin was empty; expected one JSON object\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn policy_check_reports_defaults_and_errors() {
    let dir = scratch("policy");
    let root = dir.join("root");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let out = run(&["policy", "check"], &root);
    assert!(out.status.success());
    let shown = text(&out).replace(root.to_str().unwrap(), "[ROOT]");
    insta::assert_snapshot!("policy_check_defaults", shown);
    std::fs::write(
        root.join(".did-it-actually.json"),
        "{\n  \"version\": 1,\n  \"store\": {\"prune_after_day\": 3}\n}\n",
    )
    .unwrap();
    let out = run(
        &["policy", "check", "--cwd", root.to_str().unwrap()],
        Path::new("/"),
    );
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out).replace(root.to_str().unwrap(), "[ROOT]");
    insta::assert_snapshot!("policy_check_error", shown);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_says_what_the_tool_does() {
    let out = run(&["--help"], Path::new("/"));
    assert!(out.status.success());
    insta::assert_snapshot!("help", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn the_example_policy_is_valid() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("policy.example.json");
    let out = Command::new(BIN)
        .args(["policy", "check"])
        .env("DID_IT_ACTUALLY_POLICY", &example)
        .current_dir("/")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn explain_shows_the_analysis() {
    let repo = support::repo::ScratchRepo::new("explain", "main");
    let work = repo.work();
    let mut shown = String::new();
    for command in [
        "sudo -u root git -c alias.p=push p origin HEAD:main",
        "cd sub && git switch feat && git commit -m 'x' && git push",
        "ls -la | grep README",
        "G=git; $G push origin main",
    ] {
        let out = Command::new(BIN)
            .args(["explain", command, "--cwd"])
            .arg(&work)
            .env("HOME", repo.dir.join("outside"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .output()
            .unwrap();
        shown.push_str(&format!(
            "$ did-it-actually explain {command:?}\n{}\n",
            text(&out)
        ));
    }
    let canonical = std::fs::canonicalize(&repo.dir).unwrap();
    let shown = shown
        .replace(canonical.to_str().unwrap(), "[SCRATCH]")
        .replace(repo.dir.to_str().unwrap(), "[SCRATCH]");
    insta::assert_snapshot!("explain", shown);
}
