//! Every host's captured hook inputs (shared/docs/hosts.md §6, one scripted turn per host:
//! `echo hi > a.txt`, write `b.txt`, edit `b.txt`, a final message) run through the built
//! binary as that host's registration runs it (`--host`, and `--event` where the payload
//! does not name its event), plus, from each, the cases that must be refused: a push to
//! `main`, a write outside the project, an unbacked claim at the end of the turn, input
//! that is not JSON. One snapshot per host holds every answer's bytes and exit code.

use crate::support::fixture::{run_binary, scratch};
use serde_json::Value;
use std::path::Path;

/// How a fixture directory's inputs reach the binary.
struct HostDir {
    dir: &'static str,
    host: &'static str,
    /// The camelCase Copilot registration names the event on the command line.
    pass_event: bool,
}

const HOST_DIRS: [HostDir; 8] = [
    HostDir {
        dir: "codex",
        host: "codex",
        pass_event: false,
    },
    HostDir {
        dir: "gemini",
        host: "gemini",
        pass_event: false,
    },
    HostDir {
        dir: "copilot-camel",
        host: "copilot",
        pass_event: true,
    },
    // Copilot running the hooks of `.claude/settings.json`: registered for Claude Code,
    // recognised by its payload.
    HostDir {
        dir: "copilot-pascal",
        host: "claude",
        pass_event: false,
    },
    HostDir {
        dir: "qwen",
        host: "qwen",
        pass_event: false,
    },
    HostDir {
        dir: "droid",
        host: "droid",
        pass_event: false,
    },
    // Written from Cursor's documentation: its CLI cannot run here.
    HostDir {
        dir: "cursor",
        host: "cursor",
        pass_event: false,
    },
    // What the plugin `install --host opencode` writes sends: opencode's hook arguments
    // (captured from opencode 1.18.33 by the bed's logging plugin) in the plugin's frame.
    HostDir {
        dir: "opencode",
        host: "opencode",
        pass_event: false,
    },
];

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Pre,
    Post,
    Stop,
}

fn kind_of(event: &str) -> Kind {
    match event {
        "PreToolUse"
        | "BeforeTool"
        | "preToolUse"
        | "beforeShellExecution"
        | "tool.execute.before" => Kind::Pre,
        "PostToolUse" | "AfterTool" | "postToolUse" | "afterFileEdit" | "tool.execute.after" => {
            Kind::Post
        }
        "Stop" | "AfterAgent" | "agentStop" | "stop" | "session.idle" => Kind::Stop,
        other => panic!("no hook for the fixture event {other}"),
    }
}

fn hooks_for(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Pre => &["block-wrong-branch", "scope-guard"],
        Kind::Post => &["verify-write"],
        Kind::Stop => &["audit-turn"],
    }
}

/// The project as the turn left it at the fixture's moment: a repository on `main`,
/// `a.txt` written, `b.txt` created (then edited, for an edit's post-tool input).
fn world(root: &Path, fixture: &str) {
    let git = |args: &[&str]| {
        let out = crate::support::repo::git_command(root)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    git(&["commit", "-q", "--allow-empty", "-m", "seed"]);
    std::fs::write(root.join("a.txt"), "hi\n").unwrap();
    let edited = ["edit", "Edit", "replace"]
        .iter()
        .any(|t| fixture.ends_with(t));
    std::fs::write(root.join("b.txt"), if edited { "bye\n" } else { "hello\n" }).unwrap();
}

/// The cases one captured input yields: itself, and the refusals made from it.
fn cases(name: &str, input: &Value, kind: Kind) -> Vec<(String, String)> {
    let text = input.to_string();
    let mut out = vec![(name.to_owned(), text.clone())];
    let shell = ["tool_name", "toolName", "tool"]
        .iter()
        .find_map(|k| input.get(k)?.as_str())
        .is_some_and(|t| ["Bash", "bash", "run_shell_command", "Execute", "Shell"].contains(&t));
    let command = ["tool_input", "toolArgs", "args"]
        .iter()
        .find_map(|k| input.get(k)?.get("command")?.as_str())
        .filter(|_| shell)
        // Cursor's beforeShellExecution: the command is the payload's own.
        .or_else(|| input.get("command")?.as_str());
    if kind == Kind::Pre {
        if let Some(c) = command {
            let c = serde_json::to_string(c).unwrap();
            for (label, wanted) in [
                ("push to main", "git push origin HEAD:main"),
                ("wrapped push", "bash -c 'git push origin main'"),
                ("feature push", "git push origin HEAD:feat/x"),
                ("write outside", "echo x > /etc/did-it-actually-test"),
            ] {
                let w = serde_json::to_string(wanted).unwrap();
                out.push((format!("{name}, {label}"), text.replacen(&c, &w, 1)));
            }
        } else if text.contains("b.txt") {
            let outside = text
                .replace("<work>/b.txt", "/etc/did-it-actually-test")
                .replace(
                    "File: b.txt",
                    "File: ../../../../../../../../../../etc/did-it-actually-test",
                );
            let outside = outside.replace("\"b.txt\"", "\"/etc/did-it-actually-test\"");
            out.push((format!("{name}, write outside"), outside));
        }
    }
    if kind == Kind::Stop {
        let unbacked = "I updated `missing.txt`.";
        for key in ["last_assistant_message", "prompt_response"] {
            if let Some(m) = input.get(key).and_then(Value::as_str) {
                let m = serde_json::to_string(m).unwrap();
                let u = serde_json::to_string(unbacked).unwrap();
                out.push((format!("{name}, unbacked claim"), text.replacen(&m, &u, 1)));
            }
        }
    }
    out.push((format!("{name}, not JSON"), "not json".to_owned()));
    out
}

fn host_report(dir: &HostDir) -> String {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hosts")
        .join(dir.dir);
    let mut files: Vec<_> = std::fs::read_dir(&base)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut report = String::new();
    for file in files {
        let name = file.file_stem().unwrap().to_str().unwrap().to_owned();
        let event = name.split('-').next().unwrap().to_owned();
        let kind = kind_of(&event);
        let raw = std::fs::read_to_string(&file).unwrap();
        let input: Value = serde_json::from_str(&raw).unwrap();
        for (case, text) in cases(&name, &input, kind) {
            for hook in hooks_for(kind) {
                let scratch_dir = scratch(&format!("host-{}", dir.dir));
                let root = scratch_dir.join("root");
                world(&root, &name);
                let stdin = text
                    .replace("<work>", root.to_str().unwrap())
                    .replace("~/", &format!("{}/", scratch_dir.display()));
                let mut args = vec![*hook, "--host", dir.host];
                if dir.pass_event {
                    args.extend(["--event", event.as_str()]);
                }
                let run = run_binary(
                    &args,
                    stdin.as_bytes(),
                    &root,
                    &scratch_dir.join("state"),
                    false,
                );
                let stdout = match serde_json::from_str::<Value>(&run.stdout) {
                    Ok(v) => serde_json::to_string_pretty(&v).unwrap(),
                    Err(_) => run.stdout.clone(),
                };
                let shown = format!(
                    "## {case} | {hook}\nexit: {}\nstdout: {stdout}\nstderr: {}\n",
                    run.exit_code, run.stderr
                );
                report.push_str(
                    &shown
                        .replace(root.to_str().unwrap(), "<work>")
                        .replace(scratch_dir.to_str().unwrap(), "~"),
                );
            }
        }
    }
    report
}

#[test]
fn every_host_answers_its_captured_inputs_in_its_own_form() {
    for dir in &HOST_DIRS {
        insta::assert_snapshot!(
            format!("host_{}", dir.dir.replace('-', "_")),
            host_report(dir)
        );
    }
}
