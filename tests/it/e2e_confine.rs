//! The run-time layer for writes in the real Claude Code (each release in
//! `CLAUDE_CODE_VERSIONS`), switched on by `did-it-actually install --project`: every
//! command of the Bash tool runs through the confine script (`CLAUDE_CODE_SHELL_PREFIX`),
//! so a build recipe that writes outside the project, which the static reading of
//! `make leak` cannot see, is refused by the kernel and nothing lands; everyday work,
//! the git that Claude Code's own sandbox breaks (`git config`, `git worktree add`, a
//! push to a local remote), and the tool's `cd` tracking all keep working. The same
//! session pins the run log on Claude Code: one `kind: "run"` record per Bash call, the
//! refused recipe as failed with the kernel's words.

use crate::support;

use serde_json::json;
use support::claude::Session;
use support::mock_api::{tool_result, tool_use_id, MockApi, Step};

per_claude_code_version!(a_recipe_writing_outside_is_refused_by_the_kernel_and_everyday_work_runs);

fn a_recipe_writing_outside_is_refused_by_the_kernel_and_everyday_work_runs(version: &str) {
    if crate::support::confine_unavailable() {
        return;
    }
    let Some(mut session) = Session::start_with(version) else {
        return;
    };
    // Outside every place the policy lets the agent write: not the temp directories,
    // not the shared-memory directory the scratch worlds live in.
    let outside = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("confine-{}-{version}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).unwrap();
    let leak = outside.join("leak.txt");
    // A bare repository beside the project, which a push writes.
    let origin = session.scratch_dir("origin.git");
    let g = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    g(&["init", "-q", "--bare", origin.to_str().unwrap()]);
    session.git_ok(&["remote", "add", "origin", origin.to_str().unwrap()]);
    let state = session.install(&[]);
    let makefile = session.path("Makefile");

    let api = MockApi::start(vec![
        Step::tool(
            "Write",
            json!({"file_path": makefile, "content": format!("leak:\n\techo leaked > {}\nbuild:\n\tmkdir -p build && echo built > build/out.txt\n", leak.display())}),
        ),
        Step::tool(
            "Bash",
            json!({"command": "make -s leak", "description": "a recipe that writes outside"}),
        ),
        Step::tool(
            "Bash",
            json!({"command": "make -s build && git switch -q -c topic/x && git add -A && git commit -q -m build && git config push.default current && git push -q origin && git worktree add -q .worktrees/w -b w && echo everyday-ok", "description": "everyday work"}),
        ),
        Step::tool(
            "Bash",
            json!({"command": "mkdir -p sub && cd sub", "description": "cd"}),
        ),
        Step::tool("Bash", json!({"command": "pwd", "description": "where"})),
        // Names only known when the command runs: the static reading leaves them to the
        // kernel (it used to refuse them), which lets the notes land and keeps the
        // guard's settings read-only.
        Step::tool(
            "Bash",
            json!({"command": "cd .. && n=notes-$(date +%s).txt && echo noted > \"$n\" && echo dyn-ok", "description": "a name from the clock"}),
        ),
        Step::tool(
            "Bash",
            json!({"command": "f=$(ls .claude/settings.local.*) && echo '{}' > \"$f\"", "description": "a name from a variable"}),
        ),
        Step::text("Built on topic/x."),
    ]);
    let out = session.run("Build it", &api);
    assert!(out.status.success(), "{}", out.describe());
    let requests = api.requests();
    assert_eq!(requests.len(), 8, "{}", out.describe());

    let refused = tool_result(&requests[2], &tool_use_id(1, 0)).unwrap();
    assert!(refused.is_error, "{refused:?}");
    assert!(
        refused.text.contains("Permission denied"),
        "{}",
        refused.text
    );
    assert!(!leak.exists(), "the recipe's write outside must not land");

    let everyday = tool_result(&requests[3], &tool_use_id(2, 0)).unwrap();
    assert!(!everyday.is_error, "{everyday:?}");
    assert!(everyday.text.contains("everyday-ok"), "{}", everyday.text);
    assert_eq!(session.read("build/out.txt").as_deref(), Some("built\n"));
    assert_eq!(
        session.git_ok(&["config", "push.default"]).trim(),
        "current"
    );
    assert!(session.path(".worktrees/w").is_dir());
    let pushed = std::process::Command::new("git")
        .args([
            "--git-dir",
            origin.to_str().unwrap(),
            "rev-parse",
            "topic/x",
        ])
        .output()
        .unwrap();
    assert!(
        pushed.status.success(),
        "the push to the local remote landed"
    );

    let pwd = tool_result(&requests[5], &tool_use_id(4, 0)).unwrap();
    assert!(
        pwd.text.trim_end().ends_with("/sub"),
        "the tool still tracks `cd`: {}",
        pwd.text
    );
    let dynamic = tool_result(&requests[6], &tool_use_id(5, 0)).unwrap();
    assert!(!dynamic.is_error, "{dynamic:?}");
    assert!(dynamic.text.contains("dyn-ok"), "{}", dynamic.text);
    let notes: Vec<_> = std::fs::read_dir(session.path("."))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("notes-"))
        .collect();
    assert_eq!(notes.len(), 1, "the note named at run time landed");
    let settings = session.path(".claude/settings.local.json");
    let guarded = tool_result(&requests[7], &tool_use_id(6, 0)).unwrap();
    assert!(guarded.is_error, "{guarded:?}");
    assert!(
        guarded.text.contains("Read-only file system"),
        "{}",
        guarded.text
    );
    assert!(
        std::fs::read_to_string(&settings)
            .unwrap()
            .contains(did_it_actually::runtime::activation::SHELL_PREFIX_ENV),
        "the settings that switch the layer on are unchanged"
    );
    // The run log: Claude Code ran verify-write after each Bash call, the refused recipe
    // as a failed run with the kernel's words in its output.
    let runs: Vec<serde_json::Value> = crate::support::ledger_records(&state)
        .into_iter()
        .filter(|r| r["kind"] == "run")
        .collect();
    assert_eq!(runs.len(), 6, "{runs:?}");
    assert!(
        runs.iter().any(|r| r["command"] == "make -s leak"
            && r["failed"] == true
            && r["output"]
                .as_str()
                .is_some_and(|o| o.contains("Permission denied"))),
        "{runs:?}"
    );
    let _ = std::fs::remove_dir_all(&outside);
}

per_claude_code_version!(a_policy_with_nothing_outside_the_project_keeps_the_bash_tool_working);

/// With `"outside_root": "deny"` the temp directory is closed too, yet Claude Code's own
/// files stay writable: the file its Bash tool writes the working directory to (`cd`
/// must carry to the next call) and the file it collects the output in (which
/// `/dev/stdout` reopens). Observed before the fix: every call failed on both.
fn a_policy_with_nothing_outside_the_project_keeps_the_bash_tool_working(version: &str) {
    if crate::support::confine_unavailable() {
        return;
    }
    let Some(mut session) = Session::start_with(version) else {
        return;
    };
    session.write(
        ".did-it-actually.json",
        r#"{"version": 1, "scope": {"outside_root": "deny"}}"#,
    );
    let _state = session.install(&[]);
    let api = MockApi::start(vec![
        Step::tool(
            "Bash",
            json!({"command": "echo to-stderr > /dev/stderr; echo rc=$?", "description": "reopen"}),
        ),
        Step::tool(
            "Bash",
            json!({"command": "mkdir -p src && cd src", "description": "cd"}),
        ),
        Step::tool("Bash", json!({"command": "pwd", "description": "where"})),
        Step::text("Done."),
    ]);
    let out = session.run("Go", &api);
    assert!(out.status.success(), "{}", out.describe());
    let requests = api.requests();
    assert_eq!(requests.len(), 4, "{}", out.describe());
    let reopen = tool_result(&requests[1], &tool_use_id(0, 0)).unwrap();
    assert!(
        !reopen.is_error && reopen.text.contains("rc=0"),
        "{reopen:?}"
    );
    let cd = tool_result(&requests[2], &tool_use_id(1, 0)).unwrap();
    assert!(!cd.is_error, "{cd:?}");
    let pwd = tool_result(&requests[3], &tool_use_id(2, 0)).unwrap();
    assert!(
        !pwd.is_error && pwd.text.trim_end().ends_with("/src"),
        "{pwd:?}"
    );
}
