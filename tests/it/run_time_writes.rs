//! Names only known when a command runs, with the run-time layer for writes on: the
//! static reading (scope-guard) leaves them to the kernel with a note, and the kernel
//! keeps the guard's own files read-only to the command (a private mount view) while
//! the rest of the project stays writable. Without the layer, or with a `scope.allow`
//! the kernel cannot enforce, the static reading refuses them as before.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

struct World {
    dir: PathBuf,
    project: PathBuf,
    home: PathBuf,
    state: PathBuf,
    agent_env: Vec<(String, String)>,
}

impl World {
    fn new(name: &str) -> World {
        // Under target/, not /dev/shm: the default policy leaves /dev/shm writable.
        let dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (project, home, state) = (dir.join("p"), dir.join("home"), dir.join("state"));
        for d in [&project, &home] {
            std::fs::create_dir_all(d).unwrap();
        }
        let git = |args: &[&str]| {
            let ok = Command::new("git")
                .args(args)
                .current_dir(&project)
                .env("HOME", &home)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .output()
                .unwrap()
                .status
                .success();
            assert!(ok, "git {args:?}");
        };
        git(&["init", "-q"]);
        git(&[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "i",
        ]);
        std::fs::write(project.join(".env"), "SECRET=1\n").unwrap();
        let agent_env = crate::support::install_run_time(&project, &home, &state, BIN);
        World {
            dir,
            project,
            home,
            state,
            agent_env,
        }
    }

    /// The binary as the host runs it for the agent: in the project, with the agent's
    /// environment (the settings' `env` on top of HOME and the state directory).
    fn run(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let mut c = Command::new(BIN);
        c.args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env("DID_IT_ACTUALLY_STATE_DIR", &self.state)
            .env("CLAUDE_PROJECT_DIR", &self.project)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .envs(self.agent_env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().unwrap();
        let mut input = child.stdin.take().unwrap();
        std::io::Write::write_all(&mut input, stdin.unwrap_or("").as_bytes()).unwrap();
        drop(input);
        child.wait_with_output().unwrap()
    }

    fn scope_guard(&self, command: &str) -> serde_json::Value {
        let event = serde_json::json!({
            "session_id": "s", "transcript_path": "/dev/null", "cwd": self.project,
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command},
        });
        let out = self.run(&["scope-guard"], Some(&event.to_string()));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null)
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.project.join(rel)).unwrap_or_default()
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn the_guards_files_are_read_only_to_a_confined_command_and_the_rest_of_the_project_is_not() {
    if crate::support::confine_unavailable() {
        return;
    }
    let w = World::new("protect");
    let (settings, local, env) = (
        w.read(".claude/settings.json"),
        w.read(".claude/settings.local.json"),
        w.read(".env"),
    );
    let try_write = |what: &str, command: &str| {
        let out = w.run(&["confine", command], None);
        assert!(!out.status.success(), "{what}: {}", text(&out));
        out
    };
    let out = try_write(
        "a write through a variable",
        r#"f=.claude/settings.local.json; echo '{}' > "$f""#,
    );
    assert!(
        text(&out).contains("Read-only file system"),
        "{}",
        text(&out)
    );
    try_write("a removal", "rm -f .claude/settings.json");
    try_write(
        "a replacement",
        "echo '{}' > s && mv s .claude/settings.json",
    );
    try_write("moving .claude aside", "mv .claude .claude-old");
    try_write("the launcher", "echo 'exit 0' > .claude/did-it-actually");
    try_write(
        "a literal scope.deny path",
        r#"p=.e; echo SECRET=2 > "${p}nv""#,
    );
    assert_eq!(w.read(".claude/settings.json"), settings);
    assert_eq!(w.read(".claude/settings.local.json"), local);
    assert_eq!(w.read(".env"), env);
    assert!(w.project.join(".claude/did-it-actually").exists());

    // Everything else stays writable, .claude's other files included, and git works.
    let out = w.run(
        &[
            "confine",
            "n=notes-$(date +%s).txt; echo x > \"$n\" && mkdir -p .claude/commands && echo hi > .claude/commands/x.md && git switch -q -c topic && git add -A && git -c user.name=t -c user.email=t@t commit -q -m notes && echo ok",
        ],
        None,
    );
    assert!(
        out.status.success() && text(&out).contains("ok"),
        "{}",
        text(&out)
    );
    assert_eq!(w.read(".claude/commands/x.md"), "hi\n");
}

#[test]
fn a_name_only_known_at_run_time_is_left_to_the_kernel_where_it_decides_and_refused_where_not() {
    if crate::support::confine_unavailable() {
        return;
    }
    let w = World::new("defer");
    let dynamic = r#"n=report-$(date +%s).txt; echo x > "$n""#;
    let answer = w.scope_guard(dynamic);
    let context = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default();
    assert!(
        answer["hookSpecificOutput"]["permissionDecision"].is_null()
            && context.contains("only known when it runs")
            && context.contains("read-only to it"),
        "{answer}"
    );
    // What the reading knows is wrong it still refuses before anything runs.
    let literal = w.scope_guard("echo x > ../outside.txt");
    assert_eq!(
        literal["hookSpecificOutput"]["permissionDecision"], "deny",
        "{literal}"
    );

    // A scope.allow narrower than the root: the kernel cannot keep to it, so the name
    // is refused as before.
    std::fs::write(
        w.project.join(".did-it-actually.json"),
        r#"{"version": 1, "scope": {"allow": ["src/**"]}}"#,
    )
    .unwrap();
    assert!(crate::support::fixture::approve_policy(
        &w.project, &w.state
    ));
    let narrowed = w.scope_guard(dynamic);
    assert_eq!(
        narrowed["hookSpecificOutput"]["permissionDecision"], "deny",
        "{narrowed}"
    );
    let explained = w.run(&["explain", dynamic], None);
    assert!(
        text(&explained).contains("scope.allow") && text(&explained).contains("denied"),
        "{}",
        text(&explained)
    );
}

#[test]
fn without_the_run_time_layer_a_name_only_known_at_run_time_is_refused() {
    let w = World::new("no-layer");
    let event = serde_json::json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": w.project,
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": r#"n=report-$(date +%s).txt; echo x > "$n""#},
    });
    // The hook run without the agent's environment: no shell prefix, no layer.
    let out = Command::new(BIN)
        .arg("scope-guard")
        .current_dir(&w.project)
        .env("HOME", &w.home)
        .env("DID_IT_ACTUALLY_STATE_DIR", &w.state)
        .env_remove("CLAUDE_CODE_SHELL_PREFIX")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            std::io::Write::write_all(&mut c.stdin.take().unwrap(), event.to_string().as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
}

/// Inside the layer the ledger is out of the confined command's reach, so git's hook
/// cannot record its refusal: it says so, and the run log records it from the output
/// once the command has ended; a refusal git's hook did record is not recorded twice.
#[test]
fn a_refusal_gits_hook_could_not_record_is_recorded_by_the_run_log() {
    use did_it_actually::runtime::refs::{REFUSAL_START, UNRECORDED};
    let w = World::new("unrecorded");
    let refusal = format!("{REFUSAL_START}reference-transaction hook): git would move the protected branch main. Rule: x.");
    for (id, error) in [
        ("toolu_a", format!("Exit code 2\n{refusal}\n{UNRECORDED}Read-only file system\nfatal: ref updates aborted by hook")),
        ("toolu_b", format!("Exit code 2\n{refusal}\nfatal: ref updates aborted by hook")),
    ] {
        let event = serde_json::json!({
            "session_id": "s1", "transcript_path": "/dev/null", "cwd": w.project,
            "hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "tool_use_id": id,
            "tool_input": {"command": "make ship"}, "error": error,
        });
        let out = w.run(&["verify-write"], Some(&event.to_string()));
        assert!(out.status.success(), "{}", text(&out));
    }
    let records = crate::support::ledger_records(&w.state);
    let denials: Vec<_> = records.iter().filter(|r| r["kind"] == "denial").collect();
    assert_eq!(denials.len(), 1, "{records:?}");
    assert_eq!(denials[0]["by"], "run-time");
    assert_eq!(denials[0]["tool_use_id"], "toolu_a");
    assert_eq!(denials[0]["event"], "git:reference-transaction");
    assert_eq!(records.iter().filter(|r| r["kind"] == "run").count(), 2);
}

/// The table of protected surfaces says what really happens: for each path it names,
/// `check-path` gives the table's words, and a command of the agent through the shell
/// prefix meets exactly that (a read-only file stays as it was, a created one is moved
/// away, a planted git key is taken out while an everyday one stays).
#[test]
fn the_protected_surfaces_table_matches_what_a_confined_command_meets() {
    if crate::support::confine_unavailable() {
        return;
    }
    use did_it_actually::runtime::surfaces::{Hold, SURFACES};
    let w = World::new("surfaces");
    let prefix = w
        .agent_env
        .iter()
        .find(|(k, _)| k == "CLAUDE_CODE_SHELL_PREFIX")
        .map(|(_, v)| v.clone())
        .unwrap();
    let confined = |command: &str| {
        Command::new(&prefix)
            .arg(command)
            .current_dir(&w.project)
            .env("HOME", &w.home)
            .env("DID_IT_ACTUALLY_STATE_DIR", &w.state)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .envs(w.agent_env.iter().map(|(k, v)| (k, v)))
            .output()
            .unwrap()
    };
    std::fs::write(
        w.project.join(".did-it-actually.json"),
        "{\"version\": 1}\n",
    )
    .unwrap();
    assert!(crate::support::fixture::approve_policy(
        &w.project, &w.state
    ));
    // Paths that exist (bound read-only) and paths that do not (moved away after).
    let existing = [
        ".did-it-actually.json",
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".claude/did-it-actually",
        ".env",
    ];
    for rel in existing {
        let said = text(&w.run(&["check-path", rel], None));
        let surface = SURFACES
            .iter()
            .find(|s| s.name == rel || (rel == ".env" && s.name.starts_with(".env")))
            .unwrap();
        assert!(said.contains(surface.layers), "{rel}: {said}");
        let explained = text(&w.run(&["explain", &format!("echo x >> {rel}")], None));
        assert!(
            explained.contains("is a protected surface") && explained.contains(surface.layers),
            "{rel}: {explained}"
        );
        let before = std::fs::read(w.project.join(rel)).unwrap();
        let out = confined(&format!("f={rel}; printf x >> \"$f\""));
        assert_ne!(out.status.code(), Some(0), "{rel}: {}", text(&out));
        assert_eq!(std::fs::read(w.project.join(rel)).unwrap(), before, "{rel}");
        assert!(matches!(surface.hold, Hold::ReadOnly | Hold::Approved));
    }
    // Created where none was: moved away when the command ends.
    std::fs::remove_file(w.project.join(".env")).unwrap();
    let out = confined("f=.env; printf SECRET=2 > \"$f\"; mkdir -p .git/info; printf '* diff=x\\n' > .git/info/attributes");
    assert!(
        text(&out).contains("moved out of the way"),
        "{}",
        text(&out)
    );
    assert!(!w.project.join(".env").exists());
    assert!(!w.project.join(".git/info/attributes").exists());
    // The hooks directory is read-only; git's configuration keeps everyday keys.
    let said = text(&w.run(&["check-path", ".git/hooks/pre-commit"], None));
    assert!(
        said.contains("protected surface: `.git/hooks`")
            || said.contains("protected surface: .git/hooks"),
        "{said}"
    );
    let out = confined("printf '#!/bin/sh\\n' > .git/hooks/pre-commit");
    assert!(
        !w.project.join(".git/hooks/pre-commit").exists(),
        "{}",
        text(&out)
    );
    let out = confined(
        "git config user.email me@example.com && git config core.fsmonitor 'touch /tmp/x'",
    );
    assert!(text(&out).contains("core.fsmonitor"), "{}", text(&out));
    let get = |key: &str| {
        let o = Command::new("git")
            .args(["config", "--get", key])
            .current_dir(&w.project)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", &w.home)
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).trim().to_owned()
    };
    assert_eq!(get("user.email"), "me@example.com");
    assert_eq!(get("core.fsmonitor"), "");

    // The ledger is evidence: a command of the agent can neither write nor erase it.
    w.scope_guard("echo x > ../outside.txt");
    let ledger = w.state.join("sessions/s/writes.jsonl");
    let before = std::fs::read(&ledger).unwrap();
    assert!(!before.is_empty());
    for attack in [
        "printf '{\"v\":1}\\n' >> \"$DID_IT_ACTUALLY_STATE_DIR/sessions/s/writes.jsonl\"",
        ": > \"$DID_IT_ACTUALLY_STATE_DIR/sessions/s/writes.jsonl\"",
        "rm -rf \"$DID_IT_ACTUALLY_STATE_DIR/sessions\"",
        "python3 -c \"import os;open(os.environ['DID_IT_ACTUALLY_STATE_DIR']+'/sessions/s/writes.jsonl','w').write('')\"",
    ] {
        let out = confined(attack);
        assert_ne!(out.status.code(), Some(0), "{attack}: {}", text(&out));
        assert_eq!(std::fs::read(&ledger).unwrap(), before, "{attack}");
    }
    let check = did_it_actually::store::chain::verify(&ledger).unwrap();
    assert_eq!(check.broken, None, "{check:?}");
    assert!(check.records > 0 && check.unchained == 0, "{check:?}");
}

/// docs/run-time-layers.md shows the table as the code holds it.
#[test]
fn the_docs_show_the_protected_surfaces_table() {
    let page = include_str!("../../docs/run-time-layers.md");
    let table = did_it_actually::runtime::surfaces::markdown();
    assert!(
        page.contains(&table),
        "docs/run-time-layers.md lacks the surfaces table; paste:\n{table}"
    );
}
