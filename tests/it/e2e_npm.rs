//! The npm package as a user gets it: `install/npm-pack.sh` makes this platform's package
//! (from this test run's binary) and the main package, npm installs both from the local
//! tarballs into a fresh project with a fresh HOME and npm cache, and `npx
//! did-it-actually install` copies the binary out of `node_modules`, links the hook
//! names and registers the hooks; then a hook runs through that registration with
//! `node_modules` gone.
//!
//! The other platform packages are not published (nor reachable here): `npm install
//! --offline` resolves only from the tarballs and the cache, and an optional dependency
//! it cannot get is skipped, not an error. Skipped, with a printed reason, without `npm`.

use crate::support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use support::install_sh::show;

fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// The npm platform package for the machine the tests run on.
fn platform() -> &'static str {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "linux-x64",
        ("linux", "aarch64") => "linux-arm64",
        ("macos", "x86_64") => "darwin-x64",
        ("macos", "aarch64") => "darwin-arm64",
        (os, arch) => panic!("no npm platform package for {os} {arch}"),
    }
}

/// A command with nothing of the test's environment but PATH: HOME and the npm cache are
/// the scratch ones, and npm does not look for a newer npm.
fn user(program: &Path, home: &Path, cache: &Path, path: &str) -> Command {
    let mut command = Command::new(program);
    command
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("npm_config_cache", cache)
        .env("npm_config_update_notifier", "false");
    command
}

fn run_with_stdin(mut command: Command, stdin: &str) -> Output {
    crate::support::output_with_stdin(&mut command, stdin.as_bytes())
}

fn assert_denied_push(out: &Output, what: &str) {
    assert!(out.status.success(), "{what}: {}", show(out));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{what} printed no JSON ({e}): {}", show(out)));
    let decision = &answer["hookSpecificOutput"];
    assert_eq!(decision["permissionDecision"], "deny", "{what}: {answer:#}");
    assert!(
        decision["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.contains("would push to the protected branch main on origin")),
        "{what}: {answer:#}"
    );
}

#[test]
fn npx_install_copies_the_binary_out_of_node_modules_and_registers_the_hooks() {
    let Some(npm) = on_path("npm") else {
        eprintln!(
            "SKIPPED: e2e_npm: npm is not on PATH, so the npm package can be neither packed nor installed"
        );
        return;
    };
    let started = Instant::now();
    let version = env!("CARGO_PKG_VERSION");
    let platform = platform();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let npx = npm.with_file_name("npx");
    let node = on_path("node").expect("npm is on PATH but node is not");

    // The checked-in main package is this crate's version, and so is every platform
    // package it depends on (npm-pack.sh sets them too; this keeps the source honest).
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join("npm/did-it-actually/package.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        manifest["version"], version,
        "npm/did-it-actually/package.json"
    );
    assert_eq!(manifest["bin"]["did-it-actually"], "bin/did-it-actually.js");
    let optional = manifest["optionalDependencies"].as_object().unwrap();
    let names: Vec<&str> = optional.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "@did-it-actually/darwin-arm64",
            "@did-it-actually/darwin-x64",
            "@did-it-actually/linux-arm64",
            "@did-it-actually/linux-x64"
        ]
    );
    assert!(optional.values().all(|v| v == version), "{optional:?}");

    let dir = support::scratch_root().join(format!("npm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let home = dir.join("home");
    let cache = dir.join("npm-cache");
    let app = dir.join("app");
    let project = dir.join("project");
    for d in [&home, &app, &project] {
        std::fs::create_dir_all(d).unwrap();
    }
    let path = std::env::var("PATH").unwrap_or_default();

    // The tarballs, from this run's binary. Stripped first when `strip` is there: the same
    // program without its debug info, so that npm packs 12 MB rather than 65.
    let built = Path::new(env!("CARGO_BIN_EXE_did-it-actually"));
    let stripped = dir.join("did-it-actually");
    let binary = match Command::new("strip")
        .arg("-o")
        .arg(&stripped)
        .arg(built)
        .status()
    {
        Ok(s) if s.success() => stripped.as_path(),
        _ => built,
    };
    let out = user(Path::new("/bin/sh"), &home, &cache, &path)
        .arg(repo.join("install/npm-pack.sh"))
        .arg(binary)
        .arg(platform)
        .arg(dir.join("tarballs"))
        .output()
        .unwrap();
    assert!(out.status.success(), "npm-pack.sh: {}", show(&out));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let tarballs: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        tarballs,
        [
            dir.join(format!("tarballs/did-it-actually-{platform}-{version}.tgz"))
                .to_str()
                .unwrap(),
            dir.join(format!("tarballs/did-it-actually-{version}.tgz"))
                .to_str()
                .unwrap(),
        ],
        "{}",
        show(&out)
    );
    let packed = started.elapsed();

    // Installed as a user would, from the tarballs. `--offline`: the four other platform
    // packages, optional dependencies of the main one, are never asked of a registry.
    std::fs::write(
        app.join("package.json"),
        r#"{"name": "app", "version": "1.0.0", "private": true}"#,
    )
    .unwrap();
    let out = user(&npm, &home, &cache, &path)
        .args(["install", "--offline", "--no-audit", "--no-fund"])
        .args(&tarballs)
        .current_dir(&app)
        .output()
        .unwrap();
    assert!(out.status.success(), "npm install: {}", show(&out));
    let platform_package: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(app.join(format!(
            "node_modules/@did-it-actually/{platform}/package.json"
        )))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(platform_package["version"], version);
    let (os, cpu) = platform.split_once('-').unwrap();
    assert_eq!(platform_package["os"], serde_json::json!([os]));
    assert_eq!(platform_package["cpu"], serde_json::json!([cpu]));
    // Only this platform's package: npm left out the others.
    let scope = std::fs::read_dir(app.join("node_modules/@did-it-actually"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect::<Vec<_>>();
    assert_eq!(scope, [platform]);
    let installed = started.elapsed();

    // Any subcommand but install runs the packaged binary through the launcher.
    let out = user(&npx, &home, &cache, &path)
        .args(["did-it-actually", "--version"])
        .current_dir(&app)
        .output()
        .unwrap();
    assert!(out.status.success(), "npx --version: {}", show(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("did-it-actually {version}\n")
    );

    // The hooks' project.
    let git = |args: &[&str]| crate::support::repo::git(&project, args);
    git(&["init", "-q", "-b", "main"]);
    git(&["commit", "-q", "--allow-empty", "-m", "seed"]);
    git(&["remote", "add", "origin", "../origin.git"]);

    // npx did-it-actually install: the binary is copied to ~/.local/bin (not on this
    // PATH), and that copy registers the hooks.
    let out = user(&npx, &home, &cache, &path)
        .args(["did-it-actually", "install", "--project"])
        .arg(&project)
        .current_dir(&app)
        .output()
        .unwrap();
    assert!(out.status.success(), "npx install: {}", show(&out));
    let bin_dir = home.join(".local/bin");
    let copy = bin_dir.join("did-it-actually");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!(
            "installed did-it-actually {version} at {}, with the links verify-write, block-wrong-branch, scope-guard, audit-turn",
            copy.display()
        )),
        "{}",
        show(&out)
    );
    assert!(
        said.contains(&format!(
            "{} is not on PATH: the hooks do not need it",
            bin_dir.display()
        )) && said.contains("export PATH="),
        "{}",
        show(&out)
    );
    assert!(
        said.contains("block-wrong-branch, scope-guard, audit-turn registered in"),
        "{}",
        show(&out)
    );
    let meta = std::fs::symlink_metadata(&copy).unwrap();
    assert!(meta.is_file(), "{} is not a plain file", copy.display());
    assert_eq!(meta.permissions().mode() & 0o777, 0o755);
    let out = Command::new(&copy).arg("--version").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("did-it-actually {version}\n")
    );
    let hook_names = Command::new(&copy).arg("hook-names").output().unwrap();
    let hook_names = String::from_utf8(hook_names.stdout).unwrap();
    assert!(hook_names.lines().any(|h| h == "block-wrong-branch"));
    for hook in hook_names.lines() {
        assert_eq!(
            std::fs::read_link(bin_dir.join(hook)).unwrap(),
            Path::new("did-it-actually"),
            "{hook}"
        );
    }
    // The shared settings name the project's launcher, and it runs the copy.
    let settings: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(project.join(".claude/settings.json")).unwrap(),
    )
    .unwrap();
    let entry = settings["hooks"]["PreToolUse"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["hooks"].as_array().unwrap())
        .find(|h| h["args"][0] == "block-wrong-branch")
        .unwrap_or_else(|| panic!("block-wrong-branch is not registered: {settings:#}"))
        .clone();
    assert_eq!(
        entry["command"],
        "${CLAUDE_PROJECT_DIR}/.claude/did-it-actually"
    );
    // The copy is where the launcher looks: the committed launcher names no path of this
    // machine.
    let launcher = std::fs::read_to_string(project.join(".claude/did-it-actually")).unwrap();
    assert!(
        !launcher.contains(copy.to_str().unwrap()) && !launcher.contains("node_modules"),
        "{launcher}"
    );

    // Installing again into $DID_IT_ACTUALLY_PREFIX, on PATH: says so, and the project's
    // launcher now runs that copy.
    let prefix = dir.join("prefix");
    let out = user(
        &npx,
        &home,
        &cache,
        &format!("{}/bin:{path}", prefix.display()),
    )
    .args(["did-it-actually", "install", "--project"])
    .arg(&project)
    .env("DID_IT_ACTUALLY_PREFIX", &prefix)
    .current_dir(&app)
    .output()
    .unwrap();
    assert!(out.status.success(), "npx install (prefix): {}", show(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!("{}/bin is on PATH.", prefix.display())),
        "{}",
        show(&out)
    );
    // On this shell's PATH only (not ~/.local/bin): named, since a host started another
    // way may have another PATH.
    let launcher = std::fs::read_to_string(project.join(".claude/did-it-actually")).unwrap();
    assert!(
        launcher.contains(prefix.join("bin/did-it-actually").to_str().unwrap()),
        "{launcher}"
    );

    // Without its platform package the launcher says which one is missing and how to
    // build from source instead.
    let lone = dir.join("lone/did-it-actually.js");
    std::fs::create_dir_all(lone.parent().unwrap()).unwrap();
    std::fs::copy(
        app.join("node_modules/did-it-actually/bin/did-it-actually.js"),
        &lone,
    )
    .unwrap();
    let out = user(&node, &home, &cache, &path)
        .arg(&lone)
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("@did-it-actually/{platform}, is not installed"))
            && stderr.contains("install/install.sh"),
        "{stderr}"
    );

    // node_modules and the npm cache gone, a real PreToolUse call for `git push origin
    // main` is denied: through the installed link, and through the registered command.
    std::fs::remove_dir_all(app.join("node_modules")).unwrap();
    std::fs::remove_dir_all(&cache).unwrap();
    let state = dir.join("state");
    let event = serde_json::json!({
        "session_id": "beb5c0de-0000-4000-8000-00000000000e",
        "transcript_path": project.join("t.jsonl"),
        "cwd": project,
        "prompt_id": "f5b2aaaa-0000-4000-8000-00000000000e",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git push origin main", "description": "push"},
        "tool_use_id": "toolu_e2e_npm_0"
    })
    .to_string();
    let mut link = user(&bin_dir.join("block-wrong-branch"), &home, &cache, &path);
    link.current_dir(&project)
        .env("DID_IT_ACTUALLY_STATE_DIR", &state);
    assert_denied_push(
        &run_with_stdin(link, &event),
        "~/.local/bin/block-wrong-branch",
    );
    let command = entry["command"]
        .as_str()
        .unwrap()
        .replace("${CLAUDE_PROJECT_DIR}", project.to_str().unwrap());
    let mut registered = user(Path::new(&command), &home, &cache, &path);
    registered
        .args(
            entry["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap()),
        )
        .current_dir(&project)
        .env("CLAUDE_PROJECT_DIR", &project)
        .env("DID_IT_ACTUALLY_STATE_DIR", &state);
    assert_denied_push(
        &run_with_stdin(registered, &event),
        "the registered command",
    );
    let log = std::fs::read_to_string(
        state.join("sessions/beb5c0de-0000-4000-8000-00000000000e/writes.jsonl"),
    )
    .unwrap();
    assert_eq!(
        log.lines()
            .filter(|l| l.contains(r#""kind":"denial""#) && l.contains("block-wrong-branch"))
            .count(),
        2,
        "{log}"
    );

    eprintln!(
        "e2e_npm: packed in {:.1?}, installed in {:.1?}, all in {:.1?}",
        packed,
        installed - packed,
        started.elapsed()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
