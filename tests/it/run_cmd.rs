//! `did-it-actually run` as a user starts it, without a host: the agent replaces the
//! process (its exit code and the signal that ends it pass through), a layer that cannot
//! be set up stops the start with the reason (and nothing runs), `--without` asks for
//! less, and `--dry-run` says what would be set up.

use crate::support::repo::ScratchRepo;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

fn run_in(work: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("run")
        .args(args)
        .current_dir(work)
        .env_clear()
        .env("HOME", home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap()
}

fn world() -> (ScratchRepo, std::path::PathBuf) {
    let repo = ScratchRepo::new("run-cmd", "main");
    let home = repo.dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    (repo, home)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn the_agents_exit_code_and_signal_pass_through() {
    if crate::support::confine_unavailable() {
        return;
    }
    let (repo, home) = world();
    let out = run_in(&repo.work(), &home, &["--", "sh", "-c", "exit 7"]);
    assert_eq!(out.status.code(), Some(7), "{}", stderr(&out));
    assert!(
        out.stderr.is_empty(),
        "run said something: {}",
        stderr(&out)
    );
    let out = run_in(&repo.work(), &home, &["--", "sh", "-c", "kill -TERM $$"]);
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(15), "{}", stderr(&out));
}

#[test]
fn a_missing_agent_is_not_found_with_its_name() {
    let (repo, home) = world();
    let out = run_in(&repo.work(), &home, &["--", "no-such-agent-here"]);
    assert_eq!(out.status.code(), Some(127));
    assert!(
        stderr(&out).contains("no-such-agent-here was not started"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_layer_that_cannot_be_set_up_stops_the_start_and_nothing_runs() {
    let (repo, home) = world();
    // The state directory is a file: the git layer's scripts have nowhere to go.
    let state = repo.dir.join("state-is-a-file");
    std::fs::write(&state, "").unwrap();
    let marker = repo.work().join("ran.txt");
    let out = Command::new(BIN)
        .args(["run", "--", "sh", "-c", "touch ran.txt"])
        .current_dir(repo.work())
        .env_clear()
        .env("HOME", &home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("DID_IT_ACTUALLY_STATE_DIR", &state)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(126), "{}", stderr(&out));
    assert!(!marker.exists(), "the agent ran");
    let said = stderr(&out);
    assert!(
        said.contains("sh was not started") && said.contains("state-is-a-file"),
        "the reason names what could not be made: {said}"
    );
}

#[test]
fn a_policy_change_not_approved_is_said_and_the_approved_one_applies() {
    let (repo, home) = world();
    std::fs::write(
        repo.work().join(".did-it-actually.json"),
        "{\"branches\": [}\n",
    )
    .unwrap();
    let out = run_in(&repo.work(), &home, &["--", "sh", "-c", "echo started"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "started\n");
    assert!(
        stderr(&out).contains(".did-it-actually.json"),
        "the pending file is named: {}",
        stderr(&out)
    );
}

#[test]
fn without_asks_for_less_and_says_so() {
    let (repo, home) = world();
    let outside =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("run-without-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).unwrap();
    let target = outside.join("x.txt");
    let script = format!(
        ": > {}; git push -q origin HEAD:main 2>&1; echo pushed=$?",
        target.display()
    );
    let out = run_in(
        &repo.work(),
        &home,
        &[
            "--without",
            "git",
            "--without",
            "writes",
            "--",
            "sh",
            "-c",
            &script,
        ],
    );
    let said = stderr(&out);
    assert!(
        said.contains("the git layer is off (--without git)"),
        "{said}"
    );
    assert!(
        said.contains("the write layer is off (--without writes)"),
        "{said}"
    );
    assert!(
        target.exists(),
        "the write did not land without the write layer"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("pushed=0"));
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn dry_run_says_what_would_be_set_up_and_starts_nothing() {
    let (repo, home) = world();
    let out = run_in(
        &repo.work(),
        &home,
        &["--dry-run", "--", "codex", "exec", "hi"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "agent: codex",
        "git layer: on",
        "env: GIT_CONFIG_PARAMETERS=",
        "env: DID_IT_ACTUALLY_RUN_AGENT=codex",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    if crate::support::confine_unavailable() {
        return;
    }
    assert!(text.contains("write layer: on"), "{text}");
    assert!(
        text.contains("/.codex (codex's own state and sessions)") || !home.join(".codex").exists(),
        "{text}"
    );
    assert!(
        !home.join(".codex").exists(),
        "a dry run made the agent's directory"
    );
}

/// Programs that make their cache on first use, or open a new terminal, in a fresh home
/// (no `~/.npm`): they run under the layers as they run without them.
#[test]
fn programs_that_make_caches_or_terminals_run_in_a_fresh_home() {
    if crate::support::confine_unavailable() {
        return;
    }
    let on_path = |p: &str| {
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .any(|d| d.join(p).is_file())
    };
    let (repo, home) = world();
    let mut checks: Vec<(&str, &str)> = Vec::new();
    if on_path("npm") {
        checks.push((
            "npm init -y >/dev/null && npm pack >/dev/null 2>&1 && echo npm-ok",
            "npm-ok",
        ));
    }
    if on_path("script") {
        checks.push(("script -qc 'echo in-a-terminal' /dev/null", "in-a-terminal"));
    }
    assert!(
        !checks.is_empty(),
        "neither npm nor script is on PATH: nothing checked"
    );
    for (command, said) in checks {
        let out = run_in(&repo.work(), &home, &["--", "sh", "-c", command]);
        assert!(
            out.status.success() && String::from_utf8_lossy(&out.stdout).contains(said),
            "{command}: {:?}\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            stderr(&out)
        );
    }
}

/// Through the shell prefix, one command at a time, a cache is made only for a program
/// the command names: `npm init` in a fresh home gets `~/.npm`, `true` leaves HOME as it
/// was but for `~/.cache` (the confinement corpus counts anything else new in HOME as a
/// landing).
#[test]
fn the_shell_prefix_makes_only_the_caches_of_the_programs_a_command_names() {
    if crate::support::confine_unavailable() {
        return;
    }
    let (repo, home) = world();
    let confine = |command: &str| {
        Command::new(BIN)
            .args(["confine", command])
            .current_dir(repo.work())
            .env_clear()
            .env("HOME", &home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap()
    };
    // (`~/.cache`, the XDG cache most programs share, is always made.)
    let listing = || {
        let mut names: Vec<String> = std::fs::read_dir(&home)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != ".cache")
            .collect();
        names.sort();
        names
    };
    let before = listing();
    let out = confine("true");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        listing(),
        before,
        "a command that names no program made a cache"
    );
    let npm_on_path = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .any(|d| d.join("npm").is_file());
    if !npm_on_path {
        return;
    }
    let out = confine("npm init -y >/dev/null && echo npm-ok");
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).contains("npm-ok"),
        "{}",
        stderr(&out)
    );
    assert!(home.join(".npm/_logs").is_dir());
    assert!(!home.join(".cargo").exists() && !home.join(".m2").exists());
}
