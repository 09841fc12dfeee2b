//! scope-guard in the real Claude Code (each release in `CLAUDE_CODE_VERSIONS`, one test
//! per release), registered by `did-it-actually install`: a Write outside the project root
//! and an Edit of the project's Claude Code settings are denied before they run (the model
//! is told why; nothing changes on disk), and a Write inside the root goes through and is
//! then verified by verify-write.

use crate::support;

use serde_json::{json, Value};
use support::claude::Session;
use support::mock_api::{tool_result, tool_use_id, MockApi, Step};

per_claude_code_version!(writes_outside_scope_are_denied_and_inside_are_verified);

fn writes_outside_scope_are_denied_and_inside_are_verified(version: &str) {
    let Some(mut session) = Session::start_with(version) else {
        return;
    };
    let state = session.install(&[]);
    let settings_before = session.read(".claude/settings.json").unwrap();
    let outside = session.scratch_dir("outside").join("escape.txt");
    let inside = session.path("src/ok.txt");

    let api = MockApi::start(vec![
        Step::tool(
            "Write",
            json!({"file_path": outside, "content": "should not exist\n"}),
        ),
        Step::tool(
            "Read",
            json!({"file_path": session.path(".claude/settings.json")}),
        ),
        Step::tool(
            "Edit",
            json!({"file_path": session.path(".claude/settings.json"), "old_string": "\"block-wrong-branch\"", "new_string": "\"verify-write\""}),
        ),
        Step::tool("Write", json!({"file_path": inside, "content": "fine\n"})),
        Step::text("Done."),
    ]);
    let out = session.run("Write some files", &api);
    assert!(out.status.success(), "{}", out.describe());
    let requests = api.requests();
    assert_eq!(requests.len(), 5, "{}", out.describe());

    let denied = tool_result(&requests[1], &tool_use_id(0, 0)).unwrap();
    assert!(denied.is_error, "{denied:?}");
    assert!(
        denied
            .text
            .starts_with("PreToolUse:Write hook error: scope-guard: the Write to "),
        "{}",
        denied.text
    );
    assert!(
        denied.text.contains("outside the project root"),
        "{}",
        denied.text
    );
    assert!(!outside.exists(), "the denied Write must not have run");

    let denied = tool_result(&requests[3], &tool_use_id(2, 0)).unwrap();
    assert!(denied.is_error, "{denied:?}");
    assert!(
        denied.text.contains("scope-guard: the Edit to ")
            && denied.text.contains("Claude Code's project settings"),
        "{}",
        denied.text
    );
    assert_eq!(
        session.read(".claude/settings.json").unwrap(),
        settings_before,
        "the settings are untouched"
    );

    let allowed = tool_result(&requests[4], &tool_use_id(3, 0)).unwrap();
    assert!(!allowed.is_error, "{allowed:?}");
    assert_eq!(session.read("src/ok.txt").as_deref(), Some("fine\n"));
    let log: Vec<Value> = std::fs::read_dir(state.join("sessions"))
        .unwrap()
        .flatten()
        .flat_map(|d| {
            std::fs::read_to_string(d.path().join("writes.jsonl"))
                .unwrap_or_default()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect::<Vec<Value>>()
        })
        .collect();
    let verified: Vec<&Value> = log.iter().filter(|r| r["event"] == "PostToolUse").collect();
    assert_eq!(
        verified.len(),
        1,
        "only the allowed Write ran and was verified: {log:#?}"
    );
    assert_eq!(verified[0]["outcome"], "landed");
    assert!(verified[0]["path"]
        .as_str()
        .unwrap()
        .ends_with("/src/ok.txt"));
}

per_claude_code_version!(a_settings_change_that_takes_a_guard_out_is_not_loaded);

/// Claude Code's ConfigChange, with the real client: while the session runs, something
/// outside the agent's confined commands (here the test, as any program of the user's
/// could) adds `"disableAllHooks": true` to `.claude/settings.local.json`. Without the
/// ConfigChange hook Claude Code loads it and the next Write outside the project lands
/// (the Write tool runs inside Claude Code, guarded only by the hooks: see
/// `without_the_configchange_hook_the_change_is_loaded`). With it, scope-guard refuses
/// the change (a denial in the ledger, event ConfigChange), Claude Code keeps the
/// settings it loaded, and the Write is refused.
fn a_settings_change_that_takes_a_guard_out_is_not_loaded(version: &str) {
    if let Some(landed) = settings_change_in_a_session(version, true) {
        assert!(!landed);
    }
}

/// `registered`: with the ConfigChange registration install makes; without it (taken out
/// of the settings before the session), what Claude Code does with the change. Whether
/// the Write outside landed.
fn settings_change_in_a_session(version: &str, registered: bool) -> Option<bool> {
    let mut session = Session::start_with(version)?;
    let state = session.install(&[]);
    if !registered {
        let path = session.path(".claude/settings.json");
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        v["hooks"].as_object_mut().unwrap().remove("ConfigChange");
        std::fs::write(&path, v.to_string()).unwrap();
    }
    let outside = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "configchange-{}-{version}-{registered}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).unwrap();
    let leak = outside.join("leak.txt");
    let local = session.path(".claude/settings.local.json");
    let api = MockApi::start(vec![
        Step::tool(
            "Bash",
            json!({"command": "sleep 6; echo waited", "description": "wait"}),
        ),
        Step::tool("Write", json!({"file_path": leak, "content": "leaked\n"})),
        Step::text("Done."),
    ]);
    let writer = {
        let local = local.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(3));
            let mut v: Value =
                serde_json::from_str(&std::fs::read_to_string(&local).unwrap()).unwrap();
            v["disableAllHooks"] = Value::Bool(true);
            std::fs::write(&local, v.to_string()).unwrap();
        })
    };
    let out = session.run("Wait, then write", &api);
    writer.join().unwrap();
    assert!(out.status.success(), "{}", out.describe());
    let requests = api.requests();
    let second = tool_result(&requests[2], &tool_use_id(1, 0));
    let landed = leak.exists();
    let _ = std::fs::remove_dir_all(&outside);
    if !registered {
        eprintln!(
            "Claude Code {version} without the ConfigChange hook: the Write outside {}: {second:?}",
            if landed { "landed" } else { "did not land" }
        );
        return Some(landed);
    }
    assert!(
        !landed,
        "the Write outside landed: {second:?}\n{}",
        out.describe()
    );
    let log = support::ledger_records(&state);
    let refused = log
        .iter()
        .find(|r| r["event"] == "ConfigChange")
        .unwrap_or_else(|| {
            panic!(
                "no ConfigChange denial in the ledger: {log:?}\n{}",
                out.describe()
            )
        });
    assert_eq!(refused["hook"], "scope-guard", "{refused}");
    assert!(
        refused["reason"]
            .as_str()
            .unwrap()
            .contains("disableAllHooks"),
        "{refused}"
    );
    Some(landed)
}

#[test]
#[ignore = "a measurement of Claude Code without the hook: run by hand"]
fn without_the_configchange_hook_the_change_is_loaded() {
    for v in crate::support::claude::CLAUDE_CODE_VERSIONS {
        eprintln!("{v}: {:?}", settings_change_in_a_session(v, false));
    }
}
