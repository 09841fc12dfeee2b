//! `install --host all` registers the guards with every host whose command is on PATH and
//! says which it found (and which it left alone); `uninstall --host all` takes them away
//! from every host's file, whatever PATH holds.

use crate::support;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

fn run(dir: &Path, path: &str, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .arg("--project")
        .arg(dir.join("p"))
        .env_clear()
        .env("PATH", path)
        .env("HOME", dir.join("home"))
        .env("DID_IT_ACTUALLY_STATE_DIR", dir.join("state"))
        .output()
        .unwrap()
}

#[test]
fn install_all_registers_with_every_host_on_path_and_uninstall_all_removes_them() {
    let scratch = support::fixture::scratch("install-all");
    let dir = std::fs::canonicalize(&*scratch).unwrap();
    for d in ["bin", "p", "home"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    // Stand-ins for the hosts' commands: install looks for them on PATH, and asks
    // `claude --version` whether onFailure is honoured.
    for name in ["claude", "gemini", "qwen", "opencode"] {
        let f = dir.join("bin").join(name);
        std::fs::write(&f, "#!/bin/sh\necho '2.1.328 (Claude Code)'\n").unwrap();
        Command::new("chmod").arg("+x").arg(&f).status().unwrap();
    }
    // Not executable: not a command.
    std::fs::write(dir.join("bin/droid"), "").unwrap();
    Command::new("git")
        .args(["init", "-q", "-b", "main"])
        .current_dir(dir.join("p"))
        .status()
        .unwrap();
    let path = format!("{}:/usr/bin:/bin", dir.join("bin").display());

    let out = run(&dir, &path, &["install", "--host", "all"]);
    let text = String::from_utf8_lossy(&out.stdout).replace(dir.to_str().unwrap(), "[DIR]");
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found = text.lines().next().unwrap_or_default();
    insta::assert_snapshot!("install_all_found", found);
    for file in [
        ".claude/settings.json",
        ".gemini/settings.json",
        ".qwen/settings.json",
        ".opencode/plugins/did-it-actually.js",
    ] {
        let body = std::fs::read_to_string(dir.join("p").join(file)).unwrap_or_default();
        assert!(body.contains("block-wrong-branch"), "{file}: {body}");
    }
    for file in [
        ".codex/hooks.json",
        ".factory/settings.json",
        ".github/hooks/did-it-actually.json",
    ] {
        assert!(
            !dir.join("p").join(file).exists(),
            "{file} must be left alone"
        );
    }

    // Uninstall does not look at PATH: the files hold the hooks.
    let out = run(&dir, "/usr/bin:/bin", &["uninstall", "--host", "all"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in [
        ".claude/settings.json",
        ".gemini/settings.json",
        ".qwen/settings.json",
    ] {
        let body = std::fs::read_to_string(dir.join("p").join(file)).unwrap_or_default();
        assert!(!body.contains("did-it-actually"), "{file}: {body}");
    }
    assert!(
        !dir.join("p/.opencode").exists(),
        "opencode's plugin and the directories install made are gone"
    );

    // Nothing on PATH: a clear error, nothing written.
    let out = run(&dir, "/nonexistent", &["install", "--host", "all"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--host all found no host's command on PATH (looked for claude, codex, gemini, copilot, qwen, droid, cursor-agent, opencode)"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A project's host file is shared: where the launcher's own search finds the binary
/// (`~/.local/bin`, as install.sh puts it), the entries name no path of this machine, the
/// command still runs that binary, and doctor says which one it found.
#[test]
fn a_project_entry_names_no_path_of_this_machine_when_the_search_finds_the_binary() {
    let scratch = support::fixture::scratch("install-nopath");
    let dir = std::fs::canonicalize(&*scratch).unwrap();
    let local_bin = dir.join("home/.local/bin");
    std::fs::create_dir_all(&local_bin).unwrap();
    std::fs::create_dir_all(dir.join("p")).unwrap();
    let installed = local_bin.join("did-it-actually");
    support::copy_executable(Path::new(BIN), &installed);
    let git = Command::new("git")
        .args(["init", "-q", "-b", "topic"])
        .current_dir(dir.join("p"))
        .status()
        .unwrap();
    assert!(git.success());
    let path = "/usr/local/bin:/usr/bin:/bin";
    let out = run(
        &dir,
        path,
        &[
            "install",
            "--host",
            "gemini",
            "--binary",
            installed.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let settings = std::fs::read_to_string(dir.join("p/.gemini/settings.json")).unwrap();
    assert!(
        !settings.contains(dir.to_str().unwrap()),
        "a path of this machine in the shared file:\n{settings}"
    );
    let v: serde_json::Value = serde_json::from_str(&settings).unwrap();
    let command = v["hooks"]["BeforeTool"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["hooks"].as_array().unwrap())
        .map(|h| h["command"].as_str().unwrap())
        .find(|c| c.contains("block-wrong-branch"))
        .unwrap()
        .to_owned();
    // Run as Gemini runs it: the search finds the binary in ~/.local/bin, which refuses
    // a push to main.
    let input = serde_json::json!({
        "session_id": "s", "cwd": dir.join("p"), "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command", "tool_input": {"command": "git push origin HEAD:main"},
    });
    let out = support::output_with_stdin(
        Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(dir.join("p"))
            .env_clear()
            .env("PATH", path)
            .env("HOME", dir.join("home"))
            .env("DID_IT_ACTUALLY_STATE_DIR", dir.join("state")),
        input.to_string().as_bytes(),
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("\"deny\"") && said.contains("main"),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doctor = run(&dir, path, &["doctor"]);
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        report.contains(&format!(
            "{} (found by the launcher on PATH, in ~/.local/bin or ~/.cargo/bin)",
            installed.display()
        )),
        "{report}"
    );
}
