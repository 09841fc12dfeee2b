//! `install/install.sh` as a user runs it: in a scratch HOME and project, with the prefix
//! on PATH. It builds a release binary (in its own target directory, since the test run
//! holds the main one), so it is the slowest test here.

use crate::support;

use std::path::Path;
use std::process::{Command, Stdio};

use support::install_sh::{run as script, show};

#[test]
fn install_sh_installs_registers_and_uninstalls() {
    let dir = support::fixture::scratch("install-sh");
    let home = dir.join("home");
    let project = dir.join("root");
    std::fs::create_dir_all(&home).unwrap();
    let git = Command::new("git")
        .args(["init", "-q", "-b", "main"])
        .current_dir(&project)
        .status()
        .unwrap();
    assert!(git.success());
    let bin_dir = home.join(".local/bin");
    let cargo_dir = support::install_sh::cargo_dir();
    let system_path = std::env::var("PATH").unwrap_or_default();

    // Without the prefix on PATH it refuses, before building anything, and says how to fix it.
    let path_without = format!("{}:{system_path}", cargo_dir.display());
    let out = script(&[], &home, &path_without, &project);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("is not on PATH") && stderr.contains("export PATH="),
        "{stderr}"
    );
    assert!(!bin_dir.join("did-it-actually").exists());

    let path_with = format!("{}:{path_without}", bin_dir.display());
    let out = script(&[], &home, &path_with, &project);
    assert!(out.status.success(), "{}", show(&out));
    let binary = bin_dir.join("did-it-actually");
    assert!(binary.is_file());
    // Doctor ran on the result, its self-tests passed, and the way back is printed.
    let stdout = String::from_utf8_lossy(&out.stdout);
    // It said what it builds with and how long the build takes, before building: a first
    // build minutes, a rebuild seconds (the shared target directory may hold one).
    assert!(
        stdout.contains("needs 1.89)")
            && (stdout.contains(
                "a first build compiles libgit2 and the crate: about 5 to 7 minutes on 2 cores"
            ) || stdout.contains("built before: only what changed is rebuilt")),
        "{stdout}"
    );
    assert!(
        stdout.contains("[ok  ] self-test: block-wrong-branch (a push to main): denied")
            && !stdout.contains("[FAIL]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("undo:") && stdout.contains("install/install.sh --uninstall"),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_link(bin_dir.join("verify-write")).unwrap(),
        Path::new("did-it-actually")
    );
    let settings: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(project.join(".claude/settings.json")).unwrap(),
    )
    .unwrap();
    let handler = &settings["hooks"]["PostToolUse"][0]["hooks"][0];
    // The shared settings name the launcher committed beside them; it runs this binary.
    assert_eq!(
        handler["command"],
        "${CLAUDE_PROJECT_DIR}/.claude/did-it-actually"
    );
    assert_eq!(handler["args"][0], "verify-write");
    // The binary is where the launcher looks (~/.local/bin): the committed launcher names
    // no path of this machine.
    let launcher = std::fs::read_to_string(project.join(".claude/did-it-actually")).unwrap();
    assert!(
        !launcher.contains(binary.to_str().unwrap()) && !launcher.contains(home.to_str().unwrap()),
        "{launcher}"
    );

    // The installed link runs the hook exactly as Claude Code would.
    let state = dir.join("state");
    std::fs::write(project.join("a.txt"), "hi\n").unwrap();
    let input = serde_json::json!({"session_id": "s1", "prompt_id": "p1", "cwd": project,
        "hook_event_name": "PostToolUse", "tool_name": "Write", "tool_use_id": "t1",
        "tool_input": {"file_path": project.join("a.txt"), "content": "hi\n"}});
    let out = crate::support::output_with_stdin(
        Command::new(bin_dir.join("verify-write")).env("DID_IT_ACTUALLY_STATE_DIR", &state),
        input.to_string().as_bytes(),
    );
    assert!(out.status.success() && out.stdout.is_empty());
    let log = std::fs::read_to_string(state.join("sessions/s1/writes.jsonl")).unwrap();
    assert!(log.contains(r#""outcome":"landed""#), "{log}");

    // Re-running is harmless: same settings, byte for byte.
    let before = std::fs::read(project.join(".claude/settings.json")).unwrap();
    let out = script(&[], &home, &path_with, &project);
    assert!(out.status.success(), "{}", show(&out));
    assert_eq!(
        std::fs::read(project.join(".claude/settings.json")).unwrap(),
        before
    );
    let again = String::from_utf8_lossy(&out.stdout);
    assert!(
        again.contains("built before") && !again.contains("5 to 7 minutes"),
        "a rebuild is not announced as a first build\n{again}"
    );

    let out = script(&["--uninstall"], &home, &path_with, &project);
    assert!(out.status.success(), "{}", show(&out));
    assert!(!binary.exists() && !bin_dir.join("verify-write").exists());
    // The project had no settings file before: it has none again.
    assert!(!project.join(".claude").exists(), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("kept: ")
            || String::from_utf8_lossy(&out.stderr).contains("kept: "),
        "uninstall says what it kept\n{}",
        show(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn install_sh_without_cargo_stops_and_says_how_to_get_it() {
    let dir = support::fixture::scratch("install-sh-nocargo");
    let home = dir.join("home");
    let tools = dir.join("tools");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&tools).unwrap();
    // A PATH with what the script needs before its cargo check, and no cargo.
    std::os::unix::fs::symlink(support::install_sh::which("dirname"), tools.join("dirname"))
        .unwrap();
    let path = format!("{}:{}", home.join(".local/bin").display(), tools.display());
    let project = dir.join("root");
    let out = script(
        &["--project", project.to_str().unwrap()],
        &home,
        &path,
        &project,
    );
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cargo is not on PATH") && stderr.contains("rustup"),
        "{stderr}"
    );
    assert!(!home.join(".local/bin/did-it-actually").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The prebuilt path (`install/get.sh`), against a local `file://` release directory:
/// the archive for this platform is downloaded, its checksum verified and the binary
/// installed with its links in seconds; a checksum that does not match installs nothing;
/// no archive for this platform, outside a clone, says how to build instead.
#[test]
fn get_sh_installs_a_verified_prebuilt_binary_and_refuses_a_bad_checksum() {
    let dir = support::fixture::scratch("get-sh");
    let release = dir.join("release");
    std::fs::create_dir_all(&release).unwrap();
    let target = match std::env::consts::ARCH {
        "x86_64" => "x86_64-unknown-linux-musl",
        "aarch64" => "aarch64-unknown-linux-musl",
        other => panic!("no release target for {other}"),
    };
    let staged = dir.join("stage/did-it-actually");
    std::fs::create_dir_all(staged.parent().unwrap()).unwrap();
    crate::support::copy_executable(
        std::path::Path::new(env!("CARGO_BIN_EXE_did-it-actually")),
        &staged,
    );
    let archive = release.join(format!("did-it-actually-0.1.0-{target}.tar.gz"));
    let tar = Command::new("tar")
        .arg("-czf")
        .arg(&archive)
        .arg("-C")
        .arg(staged.parent().unwrap())
        .arg("did-it-actually")
        .status()
        .unwrap();
    assert!(tar.success());
    let sum = Command::new("sha256sum").arg(&archive).output().unwrap();
    let sum = String::from_utf8_lossy(&sum.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    let checksum = release.join(format!("did-it-actually-0.1.0-{target}.tar.gz.sha256"));
    let get = |script: &Path, prefix: &Path| {
        Command::new(script)
            .args([
                "--from",
                &format!("file://{}", release.display()),
                "--prefix",
            ])
            .arg(prefix)
            .env("HOME", dir.join("home"))
            .env("PATH", "/usr/bin:/bin")
            .output()
            .unwrap()
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("install/get.sh");
    // It downloads the version this crate is.
    assert!(
        std::fs::read_to_string(&script)
            .unwrap()
            .contains(&format!("version=\"{}\"", env!("CARGO_PKG_VERSION"))),
        "install/get.sh names another version than Cargo.toml"
    );

    // A checksum that does not match: nothing installed, and it says why.
    std::fs::write(&checksum, format!("{}  x\n", "0".repeat(64))).unwrap();
    let bad = dir.join("bad");
    let out = get(&script, &bad);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("does not match"),
        "{}",
        show(&out)
    );
    assert!(!bad.join("bin/did-it-actually").exists());

    // The right one: installed, runs, links made.
    std::fs::write(
        &checksum,
        format!("{sum}  did-it-actually-0.1.0-{target}.tar.gz\n"),
    )
    .unwrap();
    let good = dir.join("good");
    let out = get(&script, &good);
    assert!(out.status.success(), "{}", show(&out));
    let installed = good.join("bin/did-it-actually");
    let version = Command::new(&installed).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("did-it-actually 0.1.0"));
    assert!(good.join("bin/verify-write").exists());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&format!("(sha256 {sum})")),
        "{}",
        show(&out)
    );

    // No archive for this version, and no clone to build from: it says what to do.
    let lone = dir.join("lone/get.sh");
    std::fs::create_dir_all(lone.parent().unwrap()).unwrap();
    // A hard link: a script just written by this process and executed at once can fail
    // with ETXTBSY while other test threads fork.
    if std::fs::hard_link(&script, &lone).is_err() {
        std::fs::copy(&script, &lone).unwrap();
    }
    let out = Command::new(&lone)
        .args([
            "--version",
            "9.9.9",
            "--from",
            &format!("file://{}", release.display()),
            "--prefix",
        ])
        .arg(dir.join("none"))
        .env("HOME", dir.join("home"))
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("could not download") && said.contains("install/install.sh"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cargo install did-it-actually` from a published crate: the package holds what the
/// build needs (and not the release plumbing), its metadata is complete, and it builds
/// from the packaged files alone (`cargo package` verifies by building them).
#[test]
fn the_crate_packages_cleanly_and_builds_from_its_package() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let toml = std::fs::read_to_string(manifest.join("Cargo.toml")).unwrap();
    for key in [
        "description",
        "license",
        "repository",
        "readme",
        "keywords",
        "categories",
    ] {
        assert!(
            toml.lines().any(|l| l.starts_with(&format!("{key} ="))),
            "Cargo.toml has no {key}"
        );
    }
    assert!(!toml.contains("publish = false"));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let list = Command::new(&cargo)
        .args(["package", "--list", "--allow-dirty", "--locked"])
        .current_dir(manifest)
        .output()
        .unwrap();
    assert!(list.status.success(), "{}", show(&list));
    let files = String::from_utf8_lossy(&list.stdout);
    for needed in [
        "src/main.rs",
        "policy.example.json",
        "Cargo.lock",
        "bench/bench.rs",
    ] {
        assert!(
            files.lines().any(|l| l == needed),
            "{needed} is not packaged:\n{files}"
        );
    }
    assert!(
        !files
            .lines()
            .any(|l| l.starts_with(".github/") || l.starts_with("npm/")),
        "the release plumbing is packaged:\n{files}"
    );
    let verify = Command::new(&cargo)
        .args(["package", "--allow-dirty", "--locked"])
        .current_dir(manifest)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let said = show(&verify);
    assert!(verify.status.success(), "{said}");
    assert!(!said.contains("warning"), "cargo package warns:\n{said}");
}

/// `install/test.sh` says what the end-to-end tests will download and how big, before
/// anything runs, and hands cargo a PATH with /usr/sbin and /sbin (the oracle's sandbox
/// needs `chroot` and `unshare`, which many users' PATH leaves out). A stand-in `cargo`
/// records what it was given.
#[test]
fn test_sh_announces_its_downloads_and_finds_the_sandbox_tools() {
    let dir = support::fixture::scratch("test-sh");
    let tools = dir.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    let seen = dir.join("seen");
    std::fs::write(
        tools.join("cargo"),
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$PATH\" \"$*\" > '{}'\n",
            seen.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(tools.join("cargo"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:/usr/bin:/bin", tools.display());
    let out = Command::new(support::install_sh::which("bash"))
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("install/test.sh"))
        .arg("--no-run")
        .env("PATH", &path)
        .env("CARGO_TARGET_DIR", dir.join("empty-target"))
        .env_remove("DID_IT_ACTUALLY_HOST_CACHE")
        .env_remove("DID_IT_ACTUALLY_E2E_OPTIONAL")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("the end-to-end tests install, once, into")
            && stderr.contains("Claude Code 2.1.328 (360 MB)")
            && stderr.contains("opencode (355 MB)")
            && stderr.contains("about 4.3 GB"),
        "{stderr}"
    );
    let given = std::fs::read_to_string(&seen).unwrap();
    let mut lines = given.lines();
    let cargo_path = lines.next().unwrap();
    for sbin in ["/usr/sbin", "/sbin"] {
        if Path::new(sbin).is_dir() {
            assert!(cargo_path.split(':').any(|d| d == sbin), "{cargo_path}");
        }
    }
    assert_eq!(lines.next(), Some("test --locked --no-run"));

    // `--fast`: no real client, so nothing of theirs announced, and cargo told to skip
    // every test that starts one.
    let out = Command::new(support::install_sh::which("bash"))
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("install/test.sh"))
        .args(["--fast", "--no-run"])
        .env("PATH", &path)
        .env("CARGO_TARGET_DIR", dir.join("empty-target"))
        .env_remove("DID_IT_ACTUALLY_HOST_CACHE")
        .env_remove("DID_IT_ACTUALLY_E2E_OPTIONAL")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("Claude Code 2.1.328"), "{stderr}");
    assert!(stderr.contains("pytest, uv, jest and mocha"), "{stderr}");
    let given = std::fs::read_to_string(&seen).unwrap();
    assert_eq!(
        given.lines().nth(1),
        Some("test --locked --no-run -- --skip e2e_ --skip claude_code_2_1_ --skip support::hosts:: --skip support::agents::")
    );

    // `--help`: what it runs, what it costs, and the fast part, without running cargo.
    std::fs::remove_file(&seen).unwrap();
    let out = Command::new(support::install_sh::which("bash"))
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("install/test.sh"))
        .arg("--help")
        .env("PATH", &path)
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        help.contains("--fast") && help.contains("4.3 GB") && help.contains("15 to 25 minutes"),
        "{help}"
    );
    assert!(!seen.exists(), "--help ran cargo");
}

/// `install.sh --uninstall` finishes what it can when `cargo uninstall` fails (a binary
/// cargo did not install, a broken toolchain): the registration and the links go, the
/// binary is removed by hand, and it says so; nothing is left half-done in silence.
#[test]
fn install_sh_uninstall_finishes_when_cargo_cannot() {
    let dir = support::fixture::scratch("install-sh-uninstall");
    let home = dir.join("home");
    let project = dir.join("root");
    let bin_dir = home.join(".local/bin");
    let tools = dir.join("tools");
    for d in [&home, &project, &bin_dir, &tools] {
        std::fs::create_dir_all(d).unwrap();
    }
    assert!(Command::new("git")
        .args(["init", "-q", "-b", "main"])
        .current_dir(&project)
        .status()
        .unwrap()
        .success());
    // The binary put there by hand (not by cargo), registered in the project.
    let binary = bin_dir.join("did-it-actually");
    crate::support::copy_executable(Path::new(env!("CARGO_BIN_EXE_did-it-actually")), &binary);
    std::os::unix::fs::symlink("did-it-actually", bin_dir.join("verify-write")).unwrap();
    let out = Command::new(&binary)
        .args(["install", "--project", project.to_str().unwrap()])
        .env("HOME", &home)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", show(&out));
    // A cargo whose uninstall fails.
    let cargo = tools.join("cargo");
    std::fs::write(
        &cargo,
        "#!/bin/sh\necho 'error: package did-it-actually is not installed' >&2\nexit 101\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}:/usr/bin:/bin", tools.display(), bin_dir.display());
    let out = script(&["--uninstall"], &home, &path, &project);
    assert!(out.status.success(), "{}", show(&out));
    assert!(!binary.exists(), "the binary was left\n{}", show(&out));
    assert!(!bin_dir.join("verify-write").exists());
    assert!(!project.join(".claude").exists(), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cargo did not uninstall it; removing"),
        "{}",
        show(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
