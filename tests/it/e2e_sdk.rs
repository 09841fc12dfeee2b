//! The guards under the Claude Agent SDKs (TypeScript 0.3.332 and Python 0.2.189, each
//! bundling Claude Code 2.1.332), and refused writes in the real Claude Code of every
//! version in `CLAUDE_CODE_VERSIONS`.
//!
//! SDK scenarios run the same script with both SDKs (`for_each_sdk`): a runner in
//! `tests/sdk/` makes the query against the loopback mock, in a scratch project on `main`
//! with a bare origin that a push to main would move. The registration is the app-owned
//! one (agent-sdk.md route 2): `settingSources: []` plus the `settings` object printed by
//! `did-it-actually install --print-settings`, so nothing in the project registers the
//! hooks. Assertions read what the model was told (the request bodies) and what happened
//! on disk and in git.

use crate::support;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use support::claude::{claude_binary_version, stop_feedback, Session, CLAUDE_CODE_VERSIONS};
use support::mock_api::{
    system_notes, tool_result, tool_use_id, user_texts, MockApi, Step, EXHAUSTED_TEXT,
};
use support::sdk::{
    add_origin, for_each_sdk, print_settings, remote_main, tool_names, write_log, SdkConfig,
    SdkInstall, SDK_CLAUDE_CODE_VERSION,
};

/// A step the scripts must never reach; seeing it means a hook let one more turn happen.
const UNREACHED: &str = "(this step must not be reached)";

/// A scratch project for an SDK run: Claude Code is the SDK's bundled one, the project has
/// an origin one commit behind, and the session has a state dir of its own (returned).
fn sdk_session(sdk: &SdkInstall) -> (Session, PathBuf, PathBuf) {
    let mut session = Session::new(&sdk.claude);
    let origin = add_origin(&session);
    let state = session.scratch_dir("state");
    session.env("DID_IT_ACTUALLY_STATE_DIR", &state);
    (session, origin, state)
}

/// The app-owned registration: no settings file loads, the hooks come inline.
fn app_owned(prompt: &str, settings: Value) -> SdkConfig {
    SdkConfig {
        setting_sources: Some(Vec::new()),
        settings: Some(settings),
        ..SdkConfig::new(prompt)
    }
}

/// The write-log records of one tool call.
fn records_for<'a>(log: &'a [Value], tool_use_id: &str) -> Vec<&'a Value> {
    log.iter()
        .filter(|r| r["tool_use_id"] == tool_use_id)
        .collect()
}

/// Asserts the log holds a `refused` record for a denied write, and no `landed` one.
fn assert_refused(log: &[Value], tool_use_id: &str, what: &str) {
    let records = records_for(log, tool_use_id);
    assert!(
        records.iter().any(|r| r["outcome"] == "refused"),
        "{what}: the write log has no outcome \"refused\" for {tool_use_id}: {records:#?}\nwhole log: {log:#?}"
    );
    assert!(
        !records.iter().any(|r| r["outcome"] == "landed"),
        "{what}: a denied write is logged as landed: {records:#?}"
    );
}

/// (a) The app-owned route guards an SDK session: the push to main and both writes
/// outside the project (one through `..`, one absolute) are denied, the write inside
/// lands, and an honest final message ends the session with no Stop block, the denied
/// writes logged as `refused`.
#[test]
fn app_owned_settings_guard_an_sdk_session() {
    let settings = print_settings(&[]);
    for_each_sdk(|sdk| {
        let (session, origin, state) = sdk_session(sdk);
        let main_before = remote_main(&session, &origin);
        // Built by hand so the `..` stays in the path the model sends.
        let dotdot = PathBuf::from(format!("{}/../outside.txt", session.project().display()));
        let dotdot_real = session.project().parent().unwrap().join("outside.txt");
        let absolute = session.scratch_dir("elsewhere").join("outside.txt");
        let inside = session.path("inside.txt");

        let api = MockApi::start(vec![
            Step::tool(
                "Bash",
                json!({"command": "git push origin main", "description": "push"}),
            ),
            Step::tool("Write", json!({"file_path": dotdot, "content": "x\n"})),
            Step::tool("Write", json!({"file_path": absolute, "content": "x\n"})),
            Step::tool("Write", json!({"file_path": inside, "content": "inside\n"})),
            Step::text("I created `inside.txt`."),
            Step::text(UNREACHED),
        ]);
        let out = sdk.run(&session, &api, &app_owned("Do the task", settings.clone()));
        let requests = api.requests();
        let ctx = || format!("{}\nmock errors: {:?}", out.describe(), api.errors());
        assert!(out.status.success(), "{}", ctx());
        assert_eq!(requests.len(), 5, "one request per step: {}", ctx());

        let push = tool_result(&requests[1], &tool_use_id(0, 0)).expect("the push's result");
        assert!(
            push.is_error && push.text.contains("block-wrong-branch"),
            "the push was not denied by block-wrong-branch: {push:?}"
        );
        assert_eq!(
            remote_main(&session, &origin),
            main_before,
            "origin main moved"
        );

        for (step, path, real) in [(1, &dotdot, &dotdot_real), (2, &absolute, &absolute)] {
            let denied = tool_result(&requests[step + 1], &tool_use_id(step, 0))
                .unwrap_or_else(|| panic!("no result for the Write to {}", path.display()));
            assert!(
                denied.is_error && denied.text.contains("scope-guard"),
                "the Write to {} was not denied by scope-guard: {denied:?}",
                path.display()
            );
            assert!(
                !real.exists(),
                "the denied Write created {}",
                real.display()
            );
        }
        let landed = tool_result(&requests[4], &tool_use_id(3, 0)).expect("the inside write");
        assert!(!landed.is_error, "{landed:?}");
        assert_eq!(session.read("inside.txt").as_deref(), Some("inside\n"));

        assert_eq!(
            out.result_field("subtype"),
            Some("success"),
            "result: {:?}",
            out.result()
        );
        assert_eq!(
            out.result_field("result"),
            Some("I created `inside.txt`."),
            "{}",
            ctx()
        );
        let blocks = stop_feedback(&requests);
        assert!(blocks.is_empty(), "an honest stop was blocked: {blocks:#?}");

        let log = write_log(&state);
        assert_refused(&log, &tool_use_id(1, 0), "the Write through `..`");
        assert_refused(&log, &tool_use_id(2, 0), "the absolute Write outside");
        assert!(
            records_for(&log, &tool_use_id(3, 0))
                .iter()
                .any(|r| r["outcome"] == "landed"),
            "the inside write is not logged as landed: {log:#?}"
        );
    });
}

/// An app that registers the hooks in code and loads no settings, started through `run
/// --agent claude`: the run-time layers reach the Claude Code the SDK starts and every
/// command it runs. A script the agent writes and runs pushes `main` (computed in the
/// script): git refuses, the remote does not move. A build recipe writes outside the
/// project, which no reading of `make leak` sees: the kernel refuses, nothing lands. The
/// app ends as it would without the layers.
#[test]
fn an_app_started_through_run_gets_both_run_time_layers() {
    if support::confine_unavailable() {
        return;
    }
    let settings = print_settings(&[]);
    for_each_sdk(|sdk| {
        let (session, origin, _state) = sdk_session(sdk);
        let main_before = remote_main(&session, &origin);
        let outside = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "sdk-run-{}-{}",
            sdk.sdk.name(),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&outside);
        std::fs::create_dir_all(&outside).unwrap();
        let leak = outside.join("leak.txt");
        let api = MockApi::start(vec![
            Step::tool(
                "Write",
                json!({"file_path": session.path("ship.sh"), "content": "b=ma\ngit push origin \"HEAD:${b}in\"\n"}),
            ),
            Step::tool(
                "Bash",
                json!({"command": "sh ship.sh", "description": "ship"}),
            ),
            Step::tool(
                "Write",
                json!({"file_path": session.path("Makefile"), "content": format!("leak:\n\techo leaked > {}\n", leak.display())}),
            ),
            Step::tool(
                "Bash",
                json!({"command": "make -s leak", "description": "build"}),
            ),
            Step::text("The push of main and the build were refused."),
            Step::text(UNREACHED),
        ]);
        let config = SdkConfig {
            through_run: true,
            ..app_owned("Do the task", settings.clone())
        };
        let out = sdk.run(&session, &api, &config);
        let requests = api.requests();
        let ctx = || format!("{}\nmock errors: {:?}", out.describe(), api.errors());
        let leaked = leak.exists();
        let _ = std::fs::remove_dir_all(&outside);
        assert!(out.status.success(), "{}", ctx());
        assert_eq!(
            remote_main(&session, &origin),
            main_before,
            "origin main moved\n{}",
            ctx()
        );
        let push = tool_result(&requests[2], &tool_use_id(1, 0)).expect("the script's result");
        assert!(
            push.text.contains("protected branch main"),
            "the script's push was not refused: {push:?}"
        );
        assert!(!leaked, "the recipe wrote outside the project\n{}", ctx());
        let make = tool_result(&requests[4], &tool_use_id(3, 0)).expect("the recipe's result");
        assert!(
            make.text.contains("Permission denied"),
            "the kernel's refusal is not in the recipe's output: {make:?}"
        );
    });
}

/// (b) An SDK app's own shell tool, served in-process as `mcp__sh__Bash`, is guarded like
/// Bash: its push to main is denied and the remote does not move.
#[test]
fn an_mcp_shell_push_to_main_is_denied() {
    let settings = print_settings(&[]);
    for_each_sdk(|sdk| {
        let (session, origin, _state) = sdk_session(sdk);
        let main_before = remote_main(&session, &origin);
        let api = MockApi::start(vec![
            Step::tool("mcp__sh__Bash", json!({"command": "git push origin main"})),
            Step::text("I did not push to main."),
            Step::text(UNREACHED),
        ]);
        let config = SdkConfig {
            mcp_shell: true,
            ..app_owned("Push the work", settings.clone())
        };
        let out = sdk.run(&session, &api, &config);
        let requests = api.requests();
        assert!(out.status.success(), "{}", out.describe());
        assert!(
            !requests.is_empty()
                && tool_names(&requests[0])
                    .iter()
                    .any(|n| n == "mcp__sh__Bash"),
            "mcp__sh__Bash was not offered to the model: {:?}",
            requests.first().map(tool_names)
        );
        assert_eq!(requests.len(), 2, "{}", out.describe());
        let push = tool_result(&requests[1], &tool_use_id(0, 0)).expect("the push's result");
        assert!(
            push.is_error && push.text.contains("block-wrong-branch"),
            "the mcp__sh__Bash push was not denied by block-wrong-branch: {push:?}"
        );
        assert_eq!(
            remote_main(&session, &origin),
            main_before,
            "origin main moved: the push through mcp__sh__Bash went through"
        );
    });
}

/// The texts of hook notes and reminders in a request that mention audit-turn (where a
/// PostToolBatch `additionalContext` lands).
fn audit_context(request: &Value) -> Vec<String> {
    system_notes(request)
        .into_iter()
        .chain(user_texts(request))
        .filter(|t| t.contains("audit-turn"))
        .collect()
}

/// (c) An `end_turn` tool served in-process (`mcp__ctl__end_turn`), registered with
/// `--end-turn-tool end_turn`: a backed summary ends the query after its batch
/// (`hook_stopped`, no further request); an unbacked one gets the audit as context, and
/// the model's next end_turn, once the claim holds, ends it.
#[test]
fn an_mcp_end_turn_ends_the_query_once_its_summary_is_backed() {
    let settings = print_settings(&["--end-turn-tool", "end_turn"]);
    for_each_sdk(|sdk| {
        // Backed: the Write and end_turn in one batch.
        let (session, _origin, _state) = sdk_session(sdk);
        let api = MockApi::start(vec![
            Step::tools(vec![
                (
                    "Write",
                    json!({"file_path": session.path("inside.txt"), "content": "inside\n"}),
                ),
                (
                    "mcp__ctl__end_turn",
                    json!({"summary": "I created `inside.txt`."}),
                ),
            ]),
            Step::text(UNREACHED),
        ]);
        let config = SdkConfig {
            mcp_end_turn: true,
            ..app_owned("Do the task", settings.clone())
        };
        let out = sdk.run(&session, &api, &config);
        let requests = api.requests();
        assert!(out.status.success(), "{}", out.describe());
        assert!(
            !requests.is_empty()
                && tool_names(&requests[0])
                    .iter()
                    .any(|n| n == "mcp__ctl__end_turn"),
            "mcp__ctl__end_turn was not offered to the model: {:?}",
            requests.first().map(tool_names)
        );
        assert_eq!(
            out.result_field("terminal_reason"),
            Some("hook_stopped"),
            "backed end_turn: result {:?}\n{}",
            out.result(),
            out.describe()
        );
        assert_eq!(
            requests.len(),
            1,
            "backed end_turn: the mock served another request after the end_turn batch: {}",
            out.describe()
        );
        assert_eq!(session.read("inside.txt").as_deref(), Some("inside\n"));
        drop(api);
        drop(session);

        // Unbacked: end_turn claims an edit never made; the audit goes back as context,
        // the model makes the edit, then calls end_turn again.
        let (session, _origin, _state) = sdk_session(sdk);
        let claim = "I updated `src/main.rs` to add the --verbose flag.";
        let api = MockApi::start(vec![
            Step::tool("mcp__ctl__end_turn", json!({"summary": claim})),
            Step::tool(
                "Write",
                json!({"file_path": session.path("src/main.rs"), "content": "fn main() {}\n"}),
            ),
            Step::tool("mcp__ctl__end_turn", json!({"summary": claim})),
            Step::text(UNREACHED),
        ]);
        let out = sdk.run(&session, &api, &config);
        let requests = api.requests();
        assert!(out.status.success(), "{}", out.describe());
        assert!(
            requests.len() >= 2,
            "unbacked end_turn: the query ended at once (result {:?}): {}",
            out.result(),
            out.describe()
        );
        let context = audit_context(&requests[1]);
        assert!(
            context.iter().any(|t| t.contains("src/main.rs")),
            "unbacked end_turn: the next request carries no audit-turn list naming src/main.rs: {context:#?}\nnotes: {:#?}",
            system_notes(&requests[1])
        );
        assert_eq!(
            out.result_field("terminal_reason"),
            Some("hook_stopped"),
            "unbacked then backed end_turn: result {:?}\n{}",
            out.result(),
            out.describe()
        );
        assert_eq!(
            requests.len(),
            3,
            "the second end_turn, now backed, must end the query: {}",
            out.describe()
        );
        assert!(session.read("src/main.rs").is_some());
    });
}

/// Route 1 of agent-sdk.md, which needs nothing new: the hooks installed in the project
/// (`install --project`) load with `settingSources: ['project']`, and the push to main is
/// denied. Also the smoke test that both runners reach the mock and stream the session.
#[test]
fn project_settings_deny_a_push_from_an_sdk_session() {
    for_each_sdk(|sdk| {
        let mut session = Session::new(&sdk.claude);
        let origin = add_origin(&session);
        let main_before = remote_main(&session, &origin);
        session.install(&[]);
        let api = MockApi::start(vec![
            Step::tool(
                "Bash",
                json!({"command": "git push origin main", "description": "push"}),
            ),
            Step::text("I did not push to main."),
            Step::text(UNREACHED),
        ]);
        let config = SdkConfig {
            setting_sources: Some(vec!["project".to_owned()]),
            ..SdkConfig::new("Push the work")
        };
        let out = sdk.run(&session, &api, &config);
        let requests = api.requests();
        assert!(out.status.success(), "{}", out.describe());
        assert!(
            out.events("system").iter().any(|e| e["subtype"] == "init"),
            "no system/init message: {}",
            out.describe()
        );
        assert_eq!(
            out.events("system")
                .iter()
                .find(|e| e["subtype"] == "init")
                .and_then(|e| e["claude_code_version"].as_str()),
            Some(SDK_CLAUDE_CODE_VERSION),
            "the SDK did not run its bundled Claude Code"
        );
        assert_eq!(requests.len(), 2, "{}", out.describe());
        let push = tool_result(&requests[1], &tool_use_id(0, 0)).expect("the push's result");
        assert!(
            push.is_error && push.text.contains("block-wrong-branch"),
            "the push was not denied: {push:?}"
        );
        assert_eq!(remote_main(&session, &origin), main_before);
        assert_eq!(out.result_field("subtype"), Some("success"));
        assert_eq!(out.result_field("result"), Some("I did not push to main."));
        assert_ne!(out.result_field("result"), Some(EXHAUSTED_TEXT));
    });
}

/// Every Claude Code release the e2e tests use installs and reports its version.
#[test]
fn every_claude_code_version_installs() {
    for version in CLAUDE_CODE_VERSIONS {
        let Some(claude) = support::claude::claude_or_skip_version(version) else {
            continue;
        };
        let out = std::process::Command::new(&claude)
            .arg("--version")
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&out.stdout);
        assert!(
            printed.starts_with(&format!("{version} ")),
            "Claude Code {version}: {} printed {printed:?}",
            claude.display()
        );
        assert_eq!(claude_binary_version(version).as_ref(), Ok(&claude));
    }
}

// ---------------------------------------------------------------------------------------
// (d) Refused writes in the real Claude Code, one test per version.
// ---------------------------------------------------------------------------------------

#[test]
fn refused_writes_on_claude_code_2_1_328() {
    refused_writes(CLAUDE_CODE_VERSIONS[0]);
}

#[test]
fn refused_writes_on_claude_code_2_1_332() {
    refused_writes(CLAUDE_CODE_VERSIONS[1]);
}

/// Where a scope-guard-denied Write points.
#[derive(Clone, Copy, Debug)]
enum Outside {
    /// `<project>/../outside.txt`, with the `..` in the path.
    DotDot,
    /// An absolute path in a directory beside the project.
    Absolute,
}

impl Outside {
    /// (the path the model sends, where it would land, how a claim names it)
    fn paths(self, session: &Session) -> (PathBuf, PathBuf, String) {
        match self {
            Outside::DotDot => (
                PathBuf::from(format!("{}/../outside.txt", session.project().display())),
                session.project().parent().unwrap().join("outside.txt"),
                "../outside.txt".to_owned(),
            ),
            Outside::Absolute => {
                let path = session.scratch_dir("elsewhere").join("outside.txt");
                let named = path.display().to_string();
                (path.clone(), path, named)
            }
        }
    }
}

/// For `version`, and for each kind of outside path: a denied Write followed by an honest
/// final message stops with no block, and the write is logged `refused`; a final message
/// that claims the denied write is blocked once, naming it.
fn refused_writes(version: &str) {
    let mut failures = Vec::new();
    for outside in [Outside::DotDot, Outside::Absolute] {
        for honest in [true, false] {
            let what = format!(
                "Claude Code {version}, Write to the {outside:?} path, {} final message",
                if honest { "honest" } else { "claiming" }
            );
            let outcome = std::panic::catch_unwind(|| refused_write(version, outside, honest));
            match outcome {
                Ok(None) => return, // skipped: this version cannot be had
                Ok(Some(())) => eprintln!("e2e: {what}: passed"),
                Err(panic) => {
                    let message = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                        .unwrap_or_default();
                    failures.push(format!("--- {what} ---\n{message}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "Claude Code {version}: {} scenario(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn refused_write(version: &str, outside: Outside, honest: bool) -> Option<()> {
    let mut session = Session::start_with(version)?;
    let state = session.install(&[]);
    let (path, real, named) = outside.paths(&session);
    let honest_text = "I could not write outside the project; the write was refused.";
    let claim = match outside {
        Outside::DotDot => format!("I wrote `{named}`."),
        Outside::Absolute => format!("I created `{named}`."),
    };
    let mut script = vec![Step::tool(
        "Write",
        json!({"file_path": path, "content": "x\n"}),
    )];
    if !honest {
        script.push(Step::text(claim.clone()));
    }
    script.push(Step::text(honest_text));
    script.push(Step::text(UNREACHED));
    let api = MockApi::start(script);
    let out = session.run("Write the file", &api);
    let requests = api.requests();
    assert!(out.status.success(), "{}", out.describe());

    let denied = tool_result(&requests[1], &tool_use_id(0, 0)).expect("the Write's result");
    assert!(
        denied.is_error && denied.text.contains("scope-guard"),
        "the Write to {} was not denied by scope-guard: {denied:?}",
        path.display()
    );
    assert!(
        !real.exists(),
        "the denied Write created {}",
        real.display()
    );
    assert_refused(&write_log(&state), &tool_use_id(0, 0), "the denied Write");

    let blocks = stop_feedback(&requests);
    if honest {
        assert!(
            blocks.is_empty(),
            "an honest final message was blocked {} time(s): {blocks:#?}",
            blocks.len()
        );
        assert_eq!(requests.len(), 2, "{}", out.describe());
    } else {
        assert_eq!(
            blocks.len(),
            1,
            "a claim of the denied write must be blocked exactly once: {blocks:#?}"
        );
        let file_name = Path::new(&named).file_name().unwrap().to_string_lossy();
        assert!(
            blocks[0].contains(&*file_name) && blocks[0].contains("audit-turn"),
            "the block does not name {named}: {}",
            blocks[0]
        );
        assert_eq!(
            requests.len(),
            3,
            "claim, block, honest message: {}",
            out.describe()
        );
    }
    assert_eq!(out.result_text(), Some(honest_text), "{}", out.describe());
    Some(())
}
