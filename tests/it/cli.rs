//! The binary as a user runs it: install/uninstall into a project, the plugin file, the
//! multicall links, `policy check`, and what `--help` says.

use crate::support;

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

/// Every file under `root` but `.git`, with its bytes, in path order.
fn tree(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            if rel == ".git" {
                continue;
            }
            if path.is_dir() {
                out.push((format!("{rel}/"), Vec::new()));
                stack.push(path);
            } else {
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Uninstall leaves a project as install found it, byte for byte: a project without
/// settings gets none back (no `{}`, no backup, no `.claude/`), a hand-formatted
/// settings file comes back with its formatting, a host's file too; and uninstall says
/// what it kept on purpose (the ledger) and how to remove it.
#[test]
fn uninstall_leaves_the_project_as_install_found_it() {
    let dir = scratch("install-undo");
    let project = dir.join("root");
    std::fs::create_dir_all(&project).unwrap();
    assert!(Command::new("git")
        .args(["init", "-q", "-b", "main"])
        .current_dir(&project)
        .status()
        .unwrap()
        .success());
    std::fs::write(project.join("README.md"), "hello\n").unwrap();
    let p = project.to_str().unwrap();
    let cmd = |args: &[&str]| {
        let out = Command::new(BIN)
            .args(args)
            .current_dir(&project)
            .env("HOME", dir.join("home"))
            .env("DID_IT_ACTUALLY_STATE_DIR", dir.join("state"))
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", text(&out));
        out
    };
    let cycle = |host: &[&str]| {
        let before = tree(&project);
        let mut install = vec!["install", "--project", p];
        install.extend_from_slice(host);
        cmd(&install);
        assert_ne!(tree(&project), before, "install wrote nothing ({host:?})");
        let mut uninstall = vec!["uninstall", "--project", p];
        uninstall.extend_from_slice(host);
        let out = cmd(&uninstall);
        assert_eq!(tree(&project), before, "{host:?}: {}", text(&out));
        String::from_utf8_lossy(&out.stdout).replace(dir.to_str().unwrap(), "[SCRATCH]")
    };
    // Nothing there before.
    let said = cycle(&[]);
    assert!(
        said.contains("which install had created: nothing else was in it, so it is gone"),
        "{said}"
    );
    assert!(
        said.contains("kept: [SCRATCH]/state (the ledger of past sessions"),
        "{said}"
    );
    // A user's own settings, in their own formatting.
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::write(
        project.join(".claude/settings.json"),
        "{\n    \"permissions\": { \"allow\": [\"Bash(ls:*)\"] },\n    \"model\": \"opus\"\n}\n",
    )
    .unwrap();
    std::fs::write(
        project.join(".claude/settings.local.json"),
        "{\"env\": {\"A\": \"1\"}}",
    )
    .unwrap();
    let said = cycle(&[]);
    assert!(
        said.contains("it is back to what it was before install, byte for byte"),
        "{said}"
    );
    // Another host's file.
    std::fs::create_dir_all(project.join(".gemini")).unwrap();
    std::fs::write(
        project.join(".gemini/settings.json"),
        "{\"theme\":\"dark\"}",
    )
    .unwrap();
    cycle(&["--host", "gemini"]);
    cycle(&["--host", "qwen"]);
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
        format!(
            "verify-write: stdin was empty; expected one JSON object{}\n",
            did_it_actually::protocol::BY_HAND
        )
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

/// `uninstall --help` offers only what uninstall uses, in uninstall's words.
#[test]
fn uninstall_help_lists_only_its_own_options() {
    let out = run(&["uninstall", "--help"], Path::new("/"));
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for install_only in [
        "--print-settings",
        "--end-turn-tool",
        "--no-fail-closed",
        "--force",
        "--binary",
        "register",
    ] {
        assert!(!help.contains(install_only), "{install_only}:\n{help}");
    }
    insta::assert_snapshot!("uninstall_help", help);
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
        "G=$(command -v git); $G push origin main",
        "python3 -c 'print(1)' > out.txt && for f in a b; do sort -o ../$f.txt out.txt; done",
        "ln -s ../outside up && echo x > up/evil",
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
    let shown = crate::support::redact_runtime_dir(&shown);
    insta::assert_snapshot!("explain", shown);
}

/// A reader that stops reading (`did-it-actually explain … | head -1`) is no failure:
/// the command exits 0 without an error about the output, as ripgrep does.
#[test]
fn a_closed_output_ends_a_command_quietly() {
    let dir = scratch("closed-output");
    let mut child = Command::new(BIN)
        .args(["explain", "git status; git status; git status"])
        .current_dir(&dir)
        .env_remove("DID_IT_ACTUALLY_POLICY")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // No reader at all by the time it writes: every write fails with EPIPE.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// Right after install there is no write log: `log` says what will appear there and
/// when, and succeeds.
#[test]
fn log_on_an_empty_state_says_what_will_appear() {
    let dir = scratch("log-empty");
    let out = Command::new(BIN)
        .arg("log")
        .env("DID_IT_ACTUALLY_STATE_DIR", dir.join("state"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.starts_with("No write log yet under ")
            && said.contains("after the agent's first write"),
        "{said}"
    );
}

#[test]
fn log_prints_the_newest_sessions_writes_and_filters_them() {
    let dir = scratch("log");
    let project = dir.join("root");
    let state = dir.join("state");
    std::fs::write(project.join("a.txt"), "hi\n").unwrap();
    for (turn, file) in [("p1", "a.txt"), ("p2", "b.txt")] {
        let input = serde_json::json!({"session_id": "s1", "prompt_id": turn, "cwd": project,
            "hook_event_name": "PostToolUse", "tool_name": "Write", "tool_use_id": turn,
            "tool_input": {"file_path": project.join(file), "content": "hi\n"}});
        let mut child = Command::new(BIN)
            .arg("verify-write")
            .env("DID_IT_ACTUALLY_STATE_DIR", &state)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.to_string().as_bytes())
            .unwrap();
        child.wait().unwrap();
    }
    // A guard's denial goes in the same ledger.
    let denied = serde_json::json!({"session_id": "s1", "prompt_id": "p2", "cwd": project,
        "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_use_id": "d1",
        "tool_input": {"file_path": "/etc/dia-log-test.conf", "content": "x"}});
    let mut child = Command::new(BIN)
        .arg("scope-guard")
        .env("DID_IT_ACTUALLY_STATE_DIR", &state)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(denied.to_string().as_bytes())
            .unwrap();
    }
    child.wait().unwrap();
    let log = |args: &[&str]| {
        Command::new(BIN)
            .arg("log")
            .args(args)
            .env("DID_IT_ACTUALLY_STATE_DIR", &state)
            .output()
            .unwrap()
    };
    let out = log(&[]);
    assert!(out.status.success(), "{}", text(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows[0], "session s1: 3 records");
    assert!(
        rows[2].contains(" p1 ") && rows[2].contains(" landed ") && rows[2].ends_with("/a.txt"),
        "{table}"
    );
    assert!(
        rows[3].contains(" p2 ")
            && rows[3].contains(" missing ")
            && rows[3].contains(" verify-write, after the call "),
        "{table}"
    );
    // A refused call shows as refused, with the guard and its reason.
    assert!(
        rows[4].contains(" p2 ")
            && rows[4].contains(" refused ")
            && rows[4].contains(" scope-guard ")
            && rows[4].contains("/etc/dia-log-test.conf (scope-guard: the Write to /etc/dia-log-test.conf is not allowed"),
        "{table}"
    );

    let out = log(&["--failed", "--json"]);
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["outcome"], "missing");
    assert_eq!(lines[1]["kind"], "denial");
    assert_eq!(lines[1]["hook"], "scope-guard");
    let out = log(&["--session", "s1", "--turn", "p1"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("session s1: 1 record"));

    // A session that does not exist, and one that cannot be a session id: exit 1, said.
    let out = log(&["--session", "nope"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(out.stdout.is_empty(), "{}", text(&out));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("no write log for session nope under ")
            && said.contains("sessions that have one, newest first: s1"),
        "{said}"
    );
    let out = log(&["--session", "../x"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("session id \"../x\""),
        "{}",
        text(&out)
    );
}

#[test]
fn policy_init_writes_a_valid_policy_once() {
    let dir = scratch("policy-init");
    let project = dir.join("root");
    let out = run(
        &["policy", "init", "--cwd", project.to_str().unwrap()],
        &project,
    );
    assert!(out.status.success(), "{}", text(&out));
    let written = std::fs::read_to_string(project.join(".did-it-actually.json")).unwrap();
    // The example, except that the copy does not tell its reader to copy it.
    assert!(!written.contains("Copy to"), "{written}");
    assert_eq!(
        written,
        include_str!("../../policy.example.json").replacen(
            "did-it-actually policy. Copy to .did-it-actually.json at the repository root (or point DID_IT_ACTUALLY_POLICY at a file).",
            "did-it-actually policy for this repository (written by `did-it-actually policy init`).",
            1
        )
    );
    let out = run(
        &["policy", "check", "--cwd", project.to_str().unwrap()],
        &project,
    );
    assert!(out.status.success(), "{}", text(&out));
    std::fs::write(project.join(".did-it-actually.json"), "{}\n").unwrap();
    let out = run(
        &["policy", "init", "--cwd", project.to_str().unwrap()],
        &project,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists already"));
    assert_eq!(
        std::fs::read_to_string(project.join(".did-it-actually.json")).unwrap(),
        "{}\n"
    );
}

#[test]
fn explain_and_check_path_answer_in_json_with_the_same_exit_codes() {
    let dir = scratch("json");
    let project = dir.join("root");
    assert!(Command::new("git")
        .args(["init", "-q", "-b", "main"])
        .current_dir(&project)
        .status()
        .unwrap()
        .success());
    let p = project.to_str().unwrap();
    let out = run(
        &["explain", "--json", "--cwd", p, "git push origin HEAD:main"],
        &project,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "deny");
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .contains("protected branch main"),
        "{v}"
    );
    assert!(
        v["trace"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains("would push to main")),
        "{v}"
    );
    let out = run(&["explain", "--json", "--cwd", p, "ls -la"], &project);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["verdict"].as_str(), v["reason"].is_null()),
        (Some("allow"), true)
    );

    let out = run(
        &["check-path", "--json", "--cwd", p, "/etc/passwd"],
        &project,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "deny");
    assert_eq!(v["resolved"], "/etc/passwd");
    assert!(v["advice"].is_string());
    let out = run(&["check-path", "--json", "--cwd", p, "src/x.rs"], &project);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["resolved"], project.join("src/x.rs").to_str().unwrap());
}

#[test]
fn a_repository_libgit2_cannot_open_counts_as_protected() {
    let dir = scratch("unreadable-repo");
    let project = dir.join("root");
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["config", "core.repositoryformatversion", "1"],
        &["config", "extensions.somefutureextension", "true"],
    ] {
        assert!(Command::new("git")
            .args(args)
            .current_dir(&project)
            .status()
            .unwrap()
            .success());
    }
    let p = project.to_str().unwrap();
    let out = run(
        &["explain", "--json", "--cwd", p, "git commit -am x"],
        &project,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .contains("cannot open the git repository"),
        "{v}"
    );
}

#[test]
fn print_settings_gives_an_sdk_app_the_registration_and_writes_nothing() {
    let dir = scratch("print-settings");
    let project = dir.join("root");
    let out = run(
        &["install", "--print-settings", "--end-turn-tool", "end_turn"],
        &project,
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(!project.join(".claude").exists(), "nothing is written");
    let settings: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let hooks = &settings["hooks"];
    let shell = hooks["PreToolUse"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["hooks"][0]["args"][0] == "block-wrong-branch")
        .unwrap();
    assert_eq!(shell["matcher"], "^(mcp__.+__)?(Bash|PowerShell)$");
    let batch: Vec<&serde_json::Value> = hooks["PostToolBatch"][0]["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert!(
        batch.iter().any(|h| h["args"]
            == serde_json::json!(["audit-turn", "--end-turn-tool", "end_turn"])
            && h["onFailure"] == "block"),
        "{settings:#}"
    );
    // Without --end-turn-tool there is no audit-turn on PostToolBatch.
    let out = run(&["install", "--print-settings"], &project);
    let plain: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!plain.to_string().contains("--end-turn-tool"));
    // It is for `install` only (uninstall does not take it: a usage error), and not with
    // a settings file target.
    let out = run(&["uninstall", "--print-settings"], &project);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unexpected argument '--print-settings'"));
    let out = run(&["install", "--print-settings", "--user"], &project);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

#[test]
fn audit_turn_ends_the_loop_on_the_named_end_turn_tool() {
    let dir = scratch("end-turn-flag");
    let project = dir.join("root");
    let batch = |tool: &str, summary: &str| {
        serde_json::json!({"session_id": "s1", "prompt_id": "p1", "cwd": project,
            "hook_event_name": "PostToolBatch", "tool_calls": [
                {"tool_name": tool, "tool_input": {"summary": summary}, "tool_use_id": "t1",
                 "tool_response": [{"type": "text", "text": "turn ended"}]}]})
        .to_string()
    };
    let answer = |args: &[&str], input: String| {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(&project)
            .env("DID_IT_ACTUALLY_STATE_DIR", dir.join("state"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(input.as_bytes()).unwrap();
        }
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let flag = ["audit-turn", "--end-turn-tool", "end_turn"];
    let out = answer(&flag, batch("mcp__ctl__end_turn", "Reviewed the parser."));
    assert_eq!(
        out, "{\"continue\":false,\"stopReason\":\"mcp__ctl__end_turn called\"}\n",
        "one JSON line, ended by a newline"
    );
    let out = answer(
        &flag,
        batch("mcp__ctl__end_turn", "I updated `src/main.rs`."),
    );
    assert!(
        out.contains(r#""additionalContext":"audit-turn: 1 thing in"#)
            && out.contains("then call mcp__ctl__end_turn again"),
        "{out}"
    );
    // The loop guard bounds it: after audit.max_blocks (3) lists in a row the loop ends,
    // and the user is told what was still unbacked.
    for _ in 0..2 {
        let out = answer(
            &flag,
            batch("mcp__ctl__end_turn", "I updated `src/main.rs`."),
        );
        assert!(out.contains("additionalContext"), "{out}");
    }
    let out = answer(
        &flag,
        batch("mcp__ctl__end_turn", "I updated `src/main.rs`."),
    );
    assert!(
        out.starts_with(r#"{"continue":false,"stopReason":"mcp__ctl__end_turn called","systemMessage":"audit-turn: the loop ends after 3 audits"#),
        "{out}"
    );
    // Not registered for that tool: no opinion, and no cost.
    assert_eq!(
        answer(
            &["audit-turn"],
            batch("mcp__ctl__end_turn", "I updated `src/main.rs`.")
        ),
        ""
    );
}

#[test]
fn install_converges_an_end_turn_registration_is_dropped_by_a_plain_install() {
    let dir = scratch("end-turn-converge");
    let project = dir.join("root");
    let p = project.to_str().unwrap();
    let settings = || std::fs::read_to_string(project.join(".claude/settings.json")).unwrap();
    let out = run(
        &["install", "--project", p, "--end-turn-tool", "end_turn"],
        &project,
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(settings().contains("--end-turn-tool"));
    let out = run(&["install", "--project", p], &project);
    assert!(out.status.success(), "{}", text(&out));
    let after: serde_json::Value = serde_json::from_str(&settings()).unwrap();
    assert!(!after.to_string().contains("--end-turn-tool"), "{after:#}");
    // verify-write keeps its own PostToolBatch entry.
    assert_eq!(
        after["hooks"]["PostToolBatch"][0]["hooks"][0]["args"],
        serde_json::json!(["verify-write"])
    );
}

/// `git init` + `git remote add` makes no `refs/remotes/origin/HEAD`: the remote's
/// default branch is then found another way (here: the HEAD of the bare repository the
/// remote is), said in `policy check` and `explain`, and protected; a remote whose
/// default cannot be found is a warning, not a silent gap.
#[test]
fn a_remote_default_without_origin_head_is_found_said_and_protected() {
    let dir = scratch("remote-default");
    let git = |cwd: &Path, args: &[&str]| {
        let out = support::repo::git_command(cwd).args(args).output().unwrap();
        assert!(out.status.success(), "git {args:?}");
    };
    git(&dir, &["init", "-q", "--bare", "-b", "trunk", "origin.git"]);
    let work = dir.join("root");
    git(&work, &["init", "-q", "-b", "trunk"]);
    git(&work, &["commit", "-q", "--allow-empty", "-m", "x"]);
    git(&work, &["remote", "add", "origin", "../origin.git"]);
    git(
        &work,
        &["remote", "add", "far", "https://example.invalid/x.git"],
    );
    std::fs::write(
        work.join(".did-it-actually.json"),
        r#"{"version": 1, "branches": {"protected": ["develop"]}}"#,
    )
    .unwrap();
    let check = run(&["policy", "check"], &work);
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(
        text.contains("branches.protect_remote_default: origin's default branch is trunk (from the HEAD of the repository origin points at)"),
        "{text}"
    );
    assert!(
        text.contains(
            "branches.protect_remote_default: WARNING: far's default branch is not found"
        ),
        "{text}"
    );
    let explain = run(&["explain", "git push origin HEAD:trunk"], &work);
    let text = String::from_utf8_lossy(&explain.stdout);
    assert_eq!(explain.status.code(), Some(1), "{text}");
    assert!(
        text.contains("verdict: deny")
            && text.contains("remote default: origin's default branch is trunk"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A hook started by a person on a terminal says what it is and exits, instead of
/// waiting silently for JSON (run under `script`, which gives it a terminal).
#[test]
fn a_hook_on_a_terminal_says_what_it_reads_and_exits() {
    let out = Command::new("script")
        .args([
            "-qec",
            &format!("{BIN} scope-guard --host gemini"),
            "/dev/null",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("scope-guard: this is a hook: it reads one event as JSON on stdin, as Gemini CLI sends it")
            && text.contains("did-it-actually explain"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(2), "{text}");
}

/// The marketplace lists the plugin this repository is, and both describe all four hooks.
#[test]
fn the_marketplace_lists_this_plugin_and_names_every_hook() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(root.join(p)).unwrap()).unwrap()
    };
    let plugin = read(".claude-plugin/plugin.json");
    let market = read(".claude-plugin/marketplace.json");
    let listed = &market["plugins"][0];
    assert_eq!(listed["name"], plugin["name"]);
    assert_eq!(listed["source"], "./");
    for text in [&plugin["description"], &listed["description"]] {
        for hook in did_it_actually::hooks::Hook::ALL {
            assert!(
                text.as_str().unwrap().contains(hook.name()),
                "{text} lacks {}",
                hook.name()
            );
        }
    }
}

/// README.md and every `docs/*.md`, sorted by name, read when the test runs: the
/// documents whose examples the tests below execute.
fn documents() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    std::iter::once(root.join("README.md"))
        .chain(docs)
        .map(|path| {
            let name = path.strip_prefix(root).unwrap().display().to_string();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect()
}

/// Every example in the README and the docs (a ```console block whose first line runs
/// `did-it-actually`) is the binary's output: run in a project like the one it names
/// (`/home/you/project` or `/home/u/proj`, a repository on `main` with an `origin`, a
/// `src/` and an empty `transcript.jsonl` (a turn in which nothing ran), inside a
/// `/home/u`), every
/// line it shows must be a line of what the binary prints.
#[test]
fn every_readme_example_is_what_the_binary_prints() {
    let mut checked = 0;
    let mut in_readme = 0;
    for (file, doc) in documents() {
        for block in doc.split("```console\n").skip(1) {
            let block = &block[..block.find("```").unwrap()];
            let mut lines = block.lines();
            let command = lines.next().unwrap().trim_start_matches("$ ");
            let (placeholder, command) = match command.strip_prefix("cd /home/you/project && ") {
                Some(rest) => ("/home/you/project", rest),
                None => ("/home/u/proj", command),
            };
            let args = shlex::split(
                command
                    .strip_prefix("did-it-actually ")
                    .unwrap_or_else(|| panic!("{file}: not an example of the binary: {command}")),
            )
            .unwrap_or_else(|| panic!("{file}: cannot split `{command}`"));
            let dir = scratch("readme-example");
            let home = dir.join("u");
            let project = home.join("proj");
            std::fs::create_dir_all(project.join("src")).unwrap();
            std::fs::write(project.join("transcript.jsonl"), "").unwrap();
            let git = |args: &[&str]| {
                let out = support::repo::git_command(&project)
                    .args(args)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "git {args:?}");
            };
            git(&["init", "-q", "-b", "main"]);
            git(&["commit", "-q", "--allow-empty", "-m", "x"]);
            // A project pushes somewhere: an origin (never reached).
            git(&[
                "remote",
                "add",
                "origin",
                "https://example.invalid/you/project.git",
            ]);
            let p = project.to_str().unwrap();
            let args: Vec<String> = args.iter().map(|a| a.replace(placeholder, p)).collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = run(&args, &project);
            let printed = String::from_utf8_lossy(&out.stdout)
                .replace(p, placeholder)
                .replace(home.to_str().unwrap(), "/home/u");
            for line in lines.filter(|l| !l.trim().is_empty()) {
                assert!(
                    printed.lines().any(|p| p == line),
                    "{file}: line not printed by `{command}`:\n{line}\n--- printed\n{printed}"
                );
            }
            checked += 1;
            if file == "README.md" {
                in_readme += 1;
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
    // The README's own picture (a deny and an audit), and at least the three examples
    // the reference held before it moved to docs/.
    assert!(in_readme >= 2, "README.md: only {in_readme} examples found");
    assert!(
        checked >= 3,
        "only {checked} examples found in README.md and docs/*.md"
    );
}

/// Every policy the README and the docs show (a ```json block that starts with
/// `{"version"`) is one `policy check` accepts, so a reader who copies it gets a working
/// policy.
#[test]
fn every_readme_policy_is_valid() {
    let mut checked = 0;
    for (file, doc) in documents() {
        for block in doc.split("```json\n").skip(1) {
            let block = &block[..block.find("```").unwrap()];
            if !block.trim_start().starts_with("{\"version\"") {
                continue;
            }
            let dir = scratch("readme-policy");
            let policy = dir.join(".did-it-actually.json");
            std::fs::write(&policy, block).unwrap();
            let out = Command::new(BIN)
                .args(["policy", "check"])
                .env("DID_IT_ACTUALLY_POLICY", &policy)
                .current_dir(&dir)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{file}: policy:\n{block}\n{}",
                text(&out)
            );
            checked += 1;
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
    assert!(
        checked >= 2,
        "only {checked} policies found in README.md and docs/*.md"
    );
}

/// A project install commits a launcher, not this machine's path: a teammate whose
/// machine has no did-it-actually gets a refusal that says what to install (and a stop
/// that goes through with a notice), never a spawn error.
#[test]
fn a_committed_registration_tells_a_teammate_without_the_binary_what_to_install() {
    let dir = scratch("teammate");
    let project = dir.join("root");
    let out = support::repo::git_command(&project)
        .args(["init", "-q", "-b", "main"])
        .output()
        .unwrap();
    assert!(out.status.success());
    // The installing machine's binary, which the teammate's machine does not have.
    let mine = dir.join("mine/did-it-actually");
    std::fs::create_dir_all(mine.parent().unwrap()).unwrap();
    // A hard link, not a copy: executing a file just written while another test thread
    // forks can fail with ETXTBSY.
    if std::fs::hard_link(BIN, &mine).is_err() {
        crate::support::copy_executable(std::path::Path::new(BIN), &mine);
    }
    let out = Command::new(&mine)
        .args(["install", "--project"])
        .arg(&project)
        .env("HOME", dir.join("home-a"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("commit"),
        "{}",
        text(&out)
    );
    let settings = std::fs::read_to_string(project.join(".claude/settings.json")).unwrap();
    assert!(!settings.contains(mine.to_str().unwrap()), "{settings}");
    std::fs::remove_dir_all(dir.join("mine")).unwrap();
    // The teammate: another HOME, a PATH without did-it-actually; the command as Claude
    // Code runs it (exec form, `${CLAUDE_PROJECT_DIR}` substituted).
    let launcher = project.join(".claude/did-it-actually");
    let teammate = |hook: &str| {
        Command::new(&launcher)
            .arg(hook)
            .current_dir(&project)
            .env_clear()
            .env("HOME", dir.join("home-b"))
            .env("PATH", "/usr/bin:/bin")
            .env("CLAUDE_PROJECT_DIR", &project)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let pre = teammate("block-wrong-branch");
    assert_eq!(pre.status.code(), Some(2), "{}", text(&pre));
    let said = String::from_utf8_lossy(&pre.stderr);
    assert!(
        said.contains("did-it-actually is not installed on this machine")
            && said.contains("install/install.sh --project"),
        "{said}"
    );
    let stop = teammate("audit-turn");
    assert_eq!(stop.status.code(), Some(0), "{}", text(&stop));
    let v: serde_json::Value = serde_json::from_slice(&stop.stdout).unwrap();
    assert!(
        v["systemMessage"]
            .as_str()
            .unwrap()
            .contains("not installed"),
        "{v}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `status`: where the guards are registered (Claude Code and every other host), what the
/// policy protects, and the last refusals; exit 1 when nothing is registered.
#[test]
fn status_shows_registrations_policy_and_recent_refusals() {
    let dir = scratch("status");
    let project = dir.join("root");
    let out = support::repo::git_command(&project)
        .args(["init", "-q", "-b", "main"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let home = dir.join("home");
    let state = dir.join("state");
    let cmd = |args: &[&str], stdin: &str| {
        use std::io::Write as _;
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .env("DID_IT_ACTUALLY_STATE_DIR", &state)
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let none = cmd(&["status"], "");
    assert_eq!(none.status.code(), Some(1), "{}", text(&none));
    assert!(String::from_utf8_lossy(&none.stdout).contains("nowhere: nothing is guarded"));
    assert!(cmd(
        &[
            "install",
            "--project",
            project.to_str().unwrap(),
            "--binary",
            BIN
        ],
        ""
    )
    .status
    .success());
    assert!(cmd(
        &["install", "--host", "gemini", "--user", "--binary", BIN],
        ""
    )
    .status
    .success());
    let refused = serde_json::json!({"session_id": "s1", "cwd": project, "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_use_id": "t1", "tool_input": {"file_path": "/etc/dia-status", "content": "x"}});
    cmd(&["scope-guard"], &refused.to_string());
    let out = cmd(&["status"], "");
    assert!(out.status.success(), "{}", text(&out));
    let shown = crate::support::redact_runtime_dir(
        &String::from_utf8_lossy(&out.stdout).replace(dir.to_str().unwrap(), "[SCRATCH]"),
    );
    let shown: String = shown
        .lines()
        .map(|l| match l.strip_prefix("  20") {
            Some(_) => format!("  [TIME]{}", &l[l.find('Z').unwrap() + 1..]),
            None => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("status", shown);

    // A policy file changed since it was approved is not in force: status says which
    // policy is, and how to approve the file.
    std::fs::write(
        project.join(".did-it-actually.json"),
        "{\"version\": 1,\n  \"scope\": [}\n",
    )
    .unwrap();
    let out = cmd(&["status"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("pending: the policy file")
            && said.contains("did-it-actually policy approve"),
        "{said}"
    );

    // Another project's status shows none of this project's sessions.
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    assert!(support::repo::git_command(&other)
        .args(["init", "-q", "-b", "main"])
        .output()
        .unwrap()
        .status
        .success());
    let out = cmd(&["status", "--project", other.to_str().unwrap()], "");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("recent: no session has written or run a command in this project yet")
            && !said.contains("refused by scope-guard"),
        "{said}"
    );
}

/// On a terminal the verdicts are coloured; with NO_COLOR, or through a pipe (every
/// other test here), they are not.
#[test]
fn verdicts_are_coloured_on_a_terminal_unless_no_color() {
    let dir = scratch("colour");
    let project = dir.join("root");
    let out = support::repo::git_command(&project)
        .args(["init", "-q", "-b", "main"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let run_on_tty = |no_color: bool| {
        let mut cmd = Command::new("script");
        cmd.args([
            "-qec",
            &format!("{BIN} explain 'git push origin HEAD:main'"),
            "/dev/null",
        ])
        .current_dir(&project)
        .env_remove("NO_COLOR")
        .stdin(std::process::Stdio::null());
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        String::from_utf8_lossy(&cmd.output().unwrap().stdout).into_owned()
    };
    let coloured = run_on_tty(false);
    assert!(
        coloured.contains("\x1b[31mverdict: deny\x1b[0m"),
        "{coloured:?}"
    );
    let plain = run_on_tty(true);
    assert!(
        plain.contains("verdict: deny") && !plain.contains('\x1b'),
        "{plain:?}"
    );
}

/// docs/policy.md's table of keys names every key `policy init` writes (every key of the
/// policy, with its default): the table cannot fall behind the policy's own types.
#[test]
fn the_policy_docs_name_every_key() {
    let dir = scratch("policy-keys");
    let out = support::repo::git_command(&dir)
        .args(["init", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = run(&["policy", "init"], &dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join(".did-it-actually.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut keys = Vec::new();
    for (section, v) in value.as_object().unwrap() {
        match v.as_object() {
            Some(inner) => keys.extend(
                inner
                    .keys()
                    .filter(|k| *k != "//")
                    .map(|k| format!("{section}.{k}")),
            ),
            None if section != "//" => keys.push(section.clone()),
            None => {}
        }
    }
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/policy.md"))
        .unwrap();
    let table: Vec<&str> = doc.lines().filter(|l| l.starts_with("| `")).collect();
    let missing: Vec<&String> = keys
        .iter()
        .filter(|k| {
            // `branches.deny` is documented as `branches.deny.<kind>`.
            let shown = if *k == "branches.deny" {
                "branches.deny.<kind>"
            } else {
                k
            };
            !table.iter().any(|l| l.contains(&format!("`{shown}`")))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/policy.md's key table lacks {missing:?}"
    );
}

/// install lists the files that hold this machine's paths (and its backups) in the
/// repository's own `.git/info/exclude`, so `git add .claude` leaves them out; a whole
/// uninstall takes exactly those lines away.
#[test]
fn machine_files_are_excluded_from_git_and_uninstall_takes_the_lines_back() {
    let dir = scratch("exclude");
    let project = dir.join("root");
    std::fs::create_dir_all(&project).unwrap();
    let git = |args: &[&str]| {
        support::repo::git_command(&project)
            .args(args)
            .output()
            .unwrap()
    };
    assert!(git(&["init", "-q"]).status.success());
    let exclude = project.join(".git/info/exclude");
    let before = std::fs::read_to_string(&exclude).unwrap_or_default();
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let with_home = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .env("DID_IT_ACTUALLY_STATE_DIR", dir.join("state"))
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .output()
            .unwrap()
    };
    let out = with_home(&["install", "--project", project.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(".git/info/exclude"),
        "{}",
        text(&out)
    );
    std::fs::write(
        project.join(".claude/settings.json.did-it-actually.bak"),
        "{}",
    )
    .unwrap();
    assert!(git(&["add", ".claude"]).status.success());
    let staged =
        String::from_utf8_lossy(&git(&["diff", "--cached", "--name-only"]).stdout).into_owned();
    assert!(
        staged.contains(".claude/settings.json")
            && !staged.contains("settings.local.json")
            && !staged.contains(".bak"),
        "staged: {staged}"
    );
    assert!(git(&["reset", "-q"]).status.success());
    std::fs::remove_file(project.join(".claude/settings.json.did-it-actually.bak")).unwrap();
    let out = with_home(&["uninstall", "--project", project.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read_to_string(&exclude).unwrap_or_default(),
        before
    );
}

/// `uninstall --dry-run` names everything the real uninstall takes away (the launcher, the
/// run-time layers' variables and files, the exclude lines) and changes nothing.
#[test]
fn uninstall_dry_run_names_all_it_would_remove_and_changes_nothing() {
    let dir = scratch("uninstall-dry");
    let project = dir.join("root");
    std::fs::create_dir_all(&project).unwrap();
    assert!(support::repo::git_command(&project)
        .args(["init", "-q"])
        .output()
        .unwrap()
        .status
        .success());
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let with_home = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .env("DID_IT_ACTUALLY_STATE_DIR", dir.join("state"))
            .env_remove("DID_IT_ACTUALLY_POLICY")
            .output()
            .unwrap()
    };
    let p = project.to_str().unwrap();
    assert!(with_home(&["install", "--project", p]).status.success());
    let snapshot = |d: &Path| {
        let mut files: Vec<(String, Vec<u8>)> = walk(d)
            .into_iter()
            .map(|f| {
                (
                    f.display().to_string(),
                    std::fs::read(&f).unwrap_or_default(),
                )
            })
            .collect();
        files.sort();
        files
    };
    let before = (snapshot(&project), snapshot(&dir.join("state")));
    let out = with_home(&["uninstall", "--project", p, "--dry-run"]);
    assert!(out.status.success(), "{}", text(&out));
    let said = String::from_utf8_lossy(&out.stderr);
    for what in [
        "did-it-actually would be removed (the launcher)",
        "variables",
        "settings.local.json",
        "and confine script would be removed",
        ".git/info/exclude",
        "would be kept",
    ] {
        assert!(
            said.contains(what),
            "the dry run does not say {what:?}:\n{said}"
        );
    }
    assert_eq!(
        (snapshot(&project), snapshot(&dir.join("state"))),
        before,
        "the dry run changed something"
    );
}

/// Every file under `dir`, recursively.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}
