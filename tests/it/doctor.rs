//! `did-it-actually doctor` as a user runs it: the checklist it prints and its exit code
//! for a healthy install and for each way a guard can be silently off.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::fixture::scratch;

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

/// An installed binary in `<dir>/bin` with its hook links beside it, a project with a
/// repository, a HOME, and a `claude` on PATH that says `version`.
struct Setup {
    dir: support::fixture::Scratch,
    bin: PathBuf,
    project: PathBuf,
}

impl Setup {
    fn new(name: &str, claude_version: Option<&str>) -> Setup {
        let dir = scratch(name);
        let bindir = dir.join("bin");
        std::fs::create_dir_all(&bindir).unwrap();
        let bin = bindir.join("did-it-actually");
        // A hard link keeps the test cheap; a copy where /tmp is another filesystem.
        if std::fs::hard_link(BIN, &bin).is_err() {
            crate::support::copy_executable(Path::new(BIN), &bin);
        }
        for hook in [
            "verify-write",
            "block-wrong-branch",
            "scope-guard",
            "audit-turn",
        ] {
            std::os::unix::fs::symlink("did-it-actually", bindir.join(hook)).unwrap();
        }
        let fake = dir.join("fakebin");
        std::fs::create_dir_all(&fake).unwrap();
        if let Some(v) = claude_version {
            let claude = fake.join("claude");
            std::fs::write(&claude, format!("#!/bin/sh\necho '{v} (Claude Code)'\n")).unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&claude, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let project = dir.join("root");
        git2::Repository::init_opts(
            &project,
            git2::RepositoryInitOptions::new().initial_head("main"),
        )
        .unwrap();
        std::fs::create_dir_all(dir.join("home")).unwrap();
        Setup { dir, bin, project }
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(&self.bin);
        cmd.args(args)
            .current_dir(&self.project)
            .env("HOME", self.dir.join("home"))
            .env("PATH", self.dir.join("fakebin"))
            .env("DID_IT_ACTUALLY_STATE_DIR", self.dir.join("state"))
            .env("NO_COLOR", "1")
            .env_remove("DID_IT_ACTUALLY_POLICY");
        cmd
    }

    fn install(&self, extra: &[&str]) {
        let project = self.project.to_str().unwrap().to_owned();
        let mut args = vec!["install", "--project", &project];
        args.extend_from_slice(extra);
        let out = self.cmd(&args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Doctor run from the binary moved to `bin/moved-away` (the one the registrations name
    /// is gone), as the user's shell would run it.
    fn doctor_moved_away(&self) -> std::process::Output {
        Command::new(self.dir.join("bin/moved-away"))
            .args(["doctor", "--project", self.project.to_str().unwrap()])
            .current_dir(&self.project)
            .env("HOME", self.dir.join("home"))
            .env("PATH", self.dir.join("fakebin"))
            .env("DID_IT_ACTUALLY_STATE_DIR", self.dir.join("state"))
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    }

    /// Doctor's exit code and report, with this test's paths replaced by placeholders.
    fn doctor(&self) -> (i32, String) {
        let out = self
            .cmd(&["doctor", "--project", self.project.to_str().unwrap()])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code().unwrap_or(-1), redact(&text, &self.dir))
    }
}

fn redact(text: &str, dir: &Path) -> String {
    crate::support::redact_runtime_dir(&text.replace(dir.to_str().unwrap(), "[SCRATCH]"))
}

fn marks(report: &str) -> Vec<&str> {
    report.lines().filter(|l| l.starts_with('[')).collect()
}

#[test]
fn a_healthy_install_passes_every_check_and_the_self_tests() {
    let s = Setup::new("doctor-healthy", Some("2.1.328"));
    s.install(&[]);
    let (code, report) = s.doctor();
    assert_eq!(code, 0, "{report}");
    assert!(
        !report.contains("[FAIL]") && !report.contains("[warn]"),
        "{report}"
    );
    // Every hook ran for real: the self-tests are the proof, not the file's shape.
    for line in [
        "self-test: verify-write (a write that landed): the write was verified and recorded",
        "self-test: block-wrong-branch (a push to main): denied, as it must",
        "self-test: scope-guard (a write outside the project): denied, as it must",
        "self-test: audit-turn (a stop with nothing claimed): answers",
    ] {
        assert!(report.contains(line), "missing {line:?} in\n{report}");
    }
    insta::assert_snapshot!("doctor_healthy", report);
}

/// The project's registration and a user-wide one both load: every hook runs twice per
/// call. doctor says so once, with the files and how to keep one.
#[test]
fn a_hook_registered_in_two_files_that_load_is_a_warning() {
    let s = Setup::new("doctor-twice", Some("2.1.328"));
    s.install(&[]);
    let out = s.cmd(&["install", "--user"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (_, report) = s.doctor();
    let twice: Vec<&str> = marks(&report)
        .into_iter()
        .filter(|l| l.contains("registered twice"))
        .collect();
    assert_eq!(twice.len(), 1, "{report}");
    assert!(
        twice[0].starts_with("[warn]")
            && twice[0].contains("block-wrong-branch on PreToolUse")
            && twice[0].contains("[SCRATCH]/home/.claude/settings.json")
            && twice[0].contains("[SCRATCH]/root/.claude/settings.json"),
        "{report}"
    );
    assert!(
        report.contains("did-it-actually uninstall --user"),
        "{report}"
    );
    let out = s.cmd(&["uninstall", "--user"]).output().unwrap();
    assert!(out.status.success());
    let (_, report) = s.doctor();
    assert!(!report.contains("registered twice"), "{report}");
}

#[test]
fn a_missing_binary_fails_every_registration_and_exits_1() {
    let s = Setup::new("doctor-missing", Some("2.1.328"));
    // A personal install names the binary itself.
    s.install(&["--local"]);
    std::fs::rename(&s.bin, s.dir.join("bin/moved-away")).unwrap();
    // Doctor itself runs from the moved binary: the one the registration names is gone.
    let out = s.doctor_moved_away();
    let report = redact(&String::from_utf8_lossy(&out.stdout), &s.dir);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let fails: Vec<&str> = marks(&report)
        .into_iter()
        .filter(|l| l.starts_with("[FAIL]"))
        .collect();
    assert_eq!(fails.len(), 11, "one per registration:\n{report}");
    assert!(
        fails
            .iter()
            .all(|l| l.contains("[SCRATCH]/bin/did-it-actually cannot be run")),
        "{report}"
    );
    assert!(report.contains("fix: run `did-it-actually install` again"));
    assert!(
        report.ends_with("the project is not fully guarded.\n"),
        "{report}"
    );
}

/// A project install names the launcher committed with the project: with no binary on
/// the machine, the launcher is the one failure, with what to install.
#[test]
fn a_launcher_that_finds_no_binary_fails_once_with_what_to_install() {
    let s = Setup::new("doctor-launcher", Some("2.1.328"));
    s.install(&[]);
    std::fs::rename(&s.bin, s.dir.join("bin/moved-away")).unwrap();
    let out = s.doctor_moved_away();
    let report = redact(&String::from_utf8_lossy(&out.stdout), &s.dir);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let fails: Vec<&str> = marks(&report)
        .into_iter()
        .filter(|l| l.starts_with("[FAIL]"))
        .collect();
    assert_eq!(fails.len(), 1, "{report}");
    assert!(
        fails[0].starts_with("[FAIL] launcher: [SCRATCH]/root/.claude/did-it-actually finds no did-it-actually binary on this machine")
            && fails[0].contains("install/install.sh --project"),
        "{report}"
    );
}

#[test]
fn a_registration_without_on_failure_is_a_warning_with_the_fix() {
    let s = Setup::new("doctor-failopen", Some("2.1.328"));
    s.install(&["--no-fail-closed"]);
    let (code, report) = s.doctor();
    // Still guarded while the binary runs: a warning, not a failure.
    assert_eq!(code, 0, "{report}");
    let warned: Vec<&str> = marks(&report)
        .into_iter()
        .filter(|l| l.contains("no `onFailure: \"block\"`"))
        .collect();
    // Seven non-stop registrations; Stop and SubagentStop never take onFailure.
    assert_eq!(warned.len(), 7, "{report}");
    assert!(warned.iter().all(|l| l.starts_with("[warn]")));
    assert!(report.contains("fix: run `did-it-actually install` without --no-fail-closed"));
}

#[test]
fn a_claude_code_that_ignores_on_failure_fails() {
    let s = Setup::new("doctor-oldclaude", Some("2.1.200"));
    s.install(&["--force"]);
    let (code, report) = s.doctor();
    assert_eq!(code, 1, "{report}");
    let line = marks(&report)
        .into_iter()
        .find(|l| l.contains("Claude Code:"))
        .unwrap();
    insta::assert_snapshot!("doctor_old_claude", line);
}

#[test]
fn no_claude_on_path_is_a_warning() {
    let s = Setup::new("doctor-noclaude", None);
    s.install(&[]);
    let (code, report) = s.doctor();
    assert_eq!(code, 0, "{report}");
    assert!(
        report.contains("[warn] Claude Code: no `claude` on PATH"),
        "{report}"
    );
}

#[test]
fn a_broken_policy_is_not_in_force_and_doctor_says_why_with_its_line_and_column() {
    let s = Setup::new("doctor-policy", Some("2.1.328"));
    s.install(&[]);
    std::fs::write(
        s.project.join(".did-it-actually.json"),
        "{\n  \"branches\": {\"protected\": 3}\n}\n",
    )
    .unwrap();
    // The approved policy (the defaults, at install) stays in force: a warning, not a
    // failure, that names the error.
    let (_, report) = s.doctor();
    assert!(
        report.contains("not in force") && report.contains(":2:29"),
        "{report}"
    );
    let line = marks(&report)
        .into_iter()
        .find(|l| l.contains("policy:"))
        .unwrap();
    insta::assert_snapshot!("doctor_broken_policy", line);
}

#[test]
fn nothing_registered_fails_and_says_how_to_install() {
    let s = Setup::new("doctor-none", Some("2.1.328"));
    let (code, report) = s.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(
        report.contains(
            "[FAIL] registration: no settings file in scope registers any hook, and the did-it-actually plugin is not enabled: nothing is guarded"
        ),
        "{report}"
    );
}

/// The plugin form registers the hooks from its own hooks/hooks.json: doctor says the
/// plugin guards the project, instead of "nothing is guarded" and a second install.
#[test]
fn an_enabled_plugin_is_a_registration() {
    let s = Setup::new("doctor-plugin", Some("2.1.328"));
    std::fs::create_dir_all(s.dir.join("home/.claude")).unwrap();
    std::fs::write(
        s.dir.join("home/.claude/settings.json"),
        r#"{"enabledPlugins": {"did-it-actually@did-it-actually": true}}"#,
    )
    .unwrap();
    let (_, report) = s.doctor();
    assert!(
        report.contains(
            "[ok  ] registration: the plugin did-it-actually@did-it-actually is enabled in"
        ) && !report.contains("nothing is guarded"),
        "{report}"
    );
}

#[test]
fn json_output_is_one_object_per_check() {
    let s = Setup::new("doctor-json", Some("2.1.328"));
    s.install(&[]);
    let out = s
        .cmd(&["doctor", "--json", "--project", s.project.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let checks: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let checks = checks.as_array().unwrap();
    assert!(checks.len() >= 15);
    assert!(checks.iter().all(
        |c| ["pass", "warn", "fail"].contains(&c["mark"].as_str().unwrap())
            && c["what"].is_string()
    ));
}

#[test]
fn install_under_an_old_claude_code_warns_and_leaves_on_failure_out_unless_forced() {
    let s = Setup::new("install-oldclaude", Some("2.1.200"));
    let project = s.project.to_str().unwrap().to_owned();
    let out = s.cmd(&["install", "--project", &project]).output().unwrap();
    assert!(out.status.success());
    let stderr = redact(&String::from_utf8_lossy(&out.stderr), &s.dir);
    insta::assert_snapshot!("install_old_claude_warning", stderr);
    let settings = std::fs::read_to_string(s.project.join(".claude/settings.json")).unwrap();
    assert!(!settings.contains("onFailure"), "{settings}");

    let out = s
        .cmd(&["install", "--project", &project, "--force"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let settings = std::fs::read_to_string(s.project.join(".claude/settings.json")).unwrap();
    assert_eq!(
        settings.matches("\"onFailure\": \"block\"").count(),
        7,
        "{settings}"
    );
}

#[test]
fn dry_run_prints_the_file_on_stdout_and_a_diff_on_stderr_and_writes_nothing() {
    let s = Setup::new("install-dryrun", Some("2.1.328"));
    let settings = s.project.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let original = "{\n  \"model\": \"opus\"\n}\n";
    std::fs::write(&settings, original).unwrap();
    let project = s.project.to_str().unwrap().to_owned();
    let out = s
        .cmd(&[
            "install",
            "--project",
            &project,
            "--dry-run",
            "--hooks",
            "block-wrong-branch",
            "--binary",
            "/opt/dia/did-it-actually",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), original);
    let file: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(file["model"], "opus");
    insta::assert_snapshot!(
        "install_dry_run_diff",
        redact(&String::from_utf8_lossy(&out.stderr), &s.dir)
    );
}

#[test]
fn a_hand_written_shell_form_entry_is_checked_and_self_tested_as_claude_code_runs_it() {
    let s = Setup::new("doctor-shellform", Some("2.1.328"));
    let settings = s.project.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let entry = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("{} block-wrong-branch", s.bin.display()),
         "timeout": 10, "onFailure": "block"}]}]}});
    std::fs::write(&settings, entry.to_string()).unwrap();
    let (code, report) = s.doctor();
    let line = marks(&report)
        .into_iter()
        .find(|l| l.contains("block-wrong-branch on PreToolUse"))
        .unwrap();
    assert!(
        line.starts_with("[warn]")
            && line.contains("shell form")
            && !line.contains("cannot be run"),
        "{report}"
    );
    assert!(
        report.contains("[ok  ] self-test: block-wrong-branch (a push to main): denied"),
        "{report}"
    );
    // The other three hooks are not registered: a warning, not a failure.
    assert!(
        report.contains("[warn] registration: not registered: verify-write on PostToolUse"),
        "{report}"
    );
    assert_eq!(code, 0, "{report}");
}

#[test]
fn disabled_hooks_unreadable_settings_and_duplicate_keys_are_reported() {
    let s = Setup::new("doctor-disabled", Some("2.1.328"));
    s.install(&[]);
    let user = s.dir.join("home/.claude/settings.json");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(
        &user,
        "{\"disableAllHooks\": true, \"model\": \"a\", \"model\": \"b\"}",
    )
    .unwrap();
    std::fs::write(
        s.project.join(".claude/settings.local.json"),
        b"{\"x\": \"\xff\"}",
    )
    .unwrap();
    let (code, report) = s.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(
        report.contains(
            "[FAIL] settings [SCRATCH]/home/.claude/settings.json: `disableAllHooks: true`"
        ),
        "{report}"
    );
    assert!(report.contains("[warn] settings [SCRATCH]/home/.claude/settings.json: [SCRATCH]/home/.claude/settings.json:1:"), "{report}");
    assert!(report.contains("duplicate key `model`"), "{report}");
    assert!(
        report.contains("[FAIL] settings [SCRATCH]/root/.claude/settings.local.json: cannot read"),
        "{report}"
    );
    // The project's registrations are still read and checked.
    assert!(
        report.contains("[ok  ] self-test: block-wrong-branch"),
        "{report}"
    );
}

#[test]
fn a_matcher_narrower_than_the_write_tools_is_reported() {
    let s = Setup::new("doctor-matcher", Some("2.1.328"));
    s.install(&[]);
    let path = s.project.join(".claude/settings.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let write_tools = "^(mcp__.+__)?(Write|Edit|MultiEdit|NotebookEdit|write_file|edit_file|move_file|create_directory)$";
    // Only the PreToolUse group (scope-guard) is narrowed to `Write`.
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for group in v["hooks"]["PreToolUse"].as_array_mut().unwrap() {
        if group["matcher"] == write_tools {
            group["matcher"] = "Write".into();
        }
    }
    std::fs::write(&path, v.to_string()).unwrap();
    let (code, report) = s.doctor();
    assert_eq!(code, 0, "{report}");
    assert!(
        report.contains("[warn] registration: not registered: scope-guard on PreToolUse for every tool of `^(mcp__.+__)?(Write|") && report.contains("(its matchers here: `^(mcp__.+__)?(Bash|PowerShell)$`, `Write`)"),
        "{report}"
    );
}

#[test]
fn an_older_shell_registration_that_misses_mcp_shells_is_reported() {
    let s = Setup::new("doctor-shell-matcher", Some("2.1.328"));
    s.install(&[]);
    let path = s.project.join(".claude/settings.json");
    let text = std::fs::read_to_string(&path).unwrap();
    // As installed before MCP shells were guarded: exact names only.
    let text = text.replace("^(mcp__.+__)?(Bash|PowerShell)$", "Bash|PowerShell");
    std::fs::write(&path, text).unwrap();
    let (code, report) = s.doctor();
    assert_eq!(code, 0, "{report}");
    for hook in ["block-wrong-branch", "scope-guard"] {
        assert!(
            report.contains(&format!("{hook} on PreToolUse for every tool of `^(mcp__.+__)?(Bash|PowerShell)$` (its matchers here: `")),
            "{hook}: {report}"
        );
    }
    assert!(report.contains("MCP-served shell tools"), "{report}");
}

/// The run-time layer for writes, probed live through the prefix the agent's Bash tool
/// runs: with the state directory outside every allowed directory, doctor writes there
/// through the prefix and sees the write refused; a prefix that does not confine (here
/// a script that runs the command as it is) fails the check.
#[test]
fn the_write_layer_probe_sees_a_write_outside_refused_and_fails_a_prefix_that_does_not_confine() {
    if crate::support::confine_unavailable() {
        return;
    }
    let s = Setup::new("doctor-confine", Some("2.1.328"));
    // Not under /dev/shm or the temp directories, which the default policy opens.
    let state = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("doctor-confine-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&state);
    let project = s.project.to_str().unwrap().to_owned();
    let out = s
        .cmd(&["install", "--project", &project])
        .env("DID_IT_ACTUALLY_STATE_DIR", &state)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doctor = || {
        let out = s
            .cmd(&["doctor", "--project", &project])
            .env("DID_IT_ACTUALLY_STATE_DIR", &state)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let report = doctor();
    let line = report
        .lines()
        .find(|l| l.contains("run-time layer for writes"))
        .unwrap_or_default()
        .to_owned();
    assert!(
        line.starts_with("[ok  ]")
            && line.contains(&format!("one in {} was refused", state.display())),
        "{report}"
    );
    // A prefix that runs the command unconfined: the probe's write outside lands.
    let script = std::fs::read_dir(state.join("git"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("did-it-actually-confine"))
        .find(|p| p.exists())
        .expect("install wrote the confine script");
    let text = std::fs::read_to_string(&script).unwrap();
    let unconfined = text.replace(r#"exec "$bin" confine "$@""#, r#"exec /bin/bash -c "$1""#);
    assert_ne!(text, unconfined);
    std::fs::write(&script, unconfined).unwrap();
    let report = doctor();
    assert!(
        report.lines().any(|l| l.starts_with("[FAIL] run-time layer for writes: a probe write outside the allowed directories landed")),
        "{report}"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&state)
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".did-it-actually-doctor")
        })
        .collect();
    assert!(leftovers.is_empty(), "doctor removes its probe files");
    let _ = std::fs::remove_dir_all(&state);
}

/// opencode's plugin: doctor names the hooks it runs, the binary it finds, and runs that
/// binary on a push to main in the plugin's input shape; with the binary gone it fails,
/// saying the plugin then refuses every call; a plugin hand-edited or from another
/// version is a warning.
#[test]
fn an_opencode_plugin_is_checked_and_self_tested() {
    let s = Setup::new("doctor-opencode", Some("2.1.328"));
    s.install(&["--host", "opencode"]);
    let plugin = s.project.join(".opencode/plugins/did-it-actually.js");
    assert!(plugin.is_file());
    let (code, report) = s.doctor();
    for line in [
        "[ok  ] opencode plugin: [SCRATCH]/root/.opencode/plugins/did-it-actually.js: verify-write on tool.execute.after, block-wrong-branch on tool.execute.before, scope-guard on tool.execute.before, audit-turn on session.idle",
        "[ok  ] registration: no Claude Code settings file in scope registers a hook; registered with opencode (checked below)",
        "opencode hook binary: [SCRATCH]/bin/did-it-actually",
        "self-test: opencode block-wrong-branch (a push to main): denied in opencode's own form, as it must",
    ] {
        assert!(report.contains(line), "missing {line:?} in\n{report}");
    }
    assert!(
        !report.contains("was written by another version"),
        "{report}"
    );
    assert_eq!(code, 0, "{report}");

    let text = std::fs::read_to_string(&plugin).unwrap();
    std::fs::write(&plugin, text.replace("maxBuffer", "maxBuffer ")).unwrap();
    let (_, report) = s.doctor();
    assert!(report.contains("[warn] opencode plugin: [SCRATCH]/root/.opencode/plugins/did-it-actually.js was written by another version"), "{report}");
    std::fs::write(&plugin, &text).unwrap();

    std::fs::rename(&s.bin, s.dir.join("bin/moved-away")).unwrap();
    let out = s.doctor_moved_away();
    let report = redact(&String::from_utf8_lossy(&out.stdout), &s.dir);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains("[FAIL] opencode hook binary: [SCRATCH]/bin/did-it-actually does not exist, and no did-it-actually is on PATH"),
        "{report}"
    );

    // Uninstall takes the plugin, and the directories install made, away.
    std::fs::rename(s.dir.join("bin/moved-away"), &s.bin).unwrap();
    let project = s.project.to_str().unwrap().to_owned();
    let out = s
        .cmd(&["uninstall", "--host", "opencode", "--project", &project])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!s.project.join(".opencode").exists());
}

/// Doctor run outside any repository (a home directory, /tmp) says so, instead of
/// proposing to guard that directory as if it were the project.
#[test]
fn outside_a_repository_doctor_says_to_run_it_in_the_project() {
    let s = Setup::new("doctor-no-repo", Some("2.1.328"));
    let elsewhere = s.dir.join("not-a-project");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = s.cmd(&["doctor"]).current_dir(&elsewhere).output().unwrap();
    let report = redact(&String::from_utf8_lossy(&out.stdout), &s.dir);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains("fix: [SCRATCH]/not-a-project is not in a git repository: run doctor in your project (or pass --project DIR)"),
        "{report}"
    );
}
