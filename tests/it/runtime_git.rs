//! The run-time layer with real git: `did-it-actually install --project` switches it on
//! through the env of `.claude/settings.local.json`; each test runs git (and programs
//! that run git) with exactly that environment, as the agent's commands get it, and looks
//! at what moved: the refs of the work tree and of `origin.git`, never at a hook's answer
//! alone.

use crate::support::repo::{git, ScratchRepo};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_did-it-actually");

/// A scratch world with the layer installed for `work`.
struct World {
    repo: ScratchRepo,
    state: PathBuf,
    home: PathBuf,
    /// The variables install put into the agent's environment.
    agent_env: Vec<(String, String)>,
}

impl World {
    fn new(name: &str) -> World {
        World::with_binary(name, BIN)
    }

    fn with_binary(name: &str, binary: &str) -> World {
        let repo = ScratchRepo::new(name, "main");
        let state = repo.dir.join("state");
        let home = repo.dir.join("home");
        std::fs::create_dir_all(&home).unwrap();
        let agent_env = crate::support::install_run_time(&repo.work(), &home, &state, binary);
        World {
            repo,
            state,
            home,
            agent_env,
        }
    }

    fn work(&self) -> PathBuf {
        self.repo.work()
    }

    /// A shell command as the agent's Bash tool runs it: the agent's environment, the
    /// machine's git, a session id.
    fn agent(&self, script: &str) -> Output {
        self.agent_in(&self.work(), script)
    }

    fn agent_in(&self, cwd: &Path, script: &str) -> Output {
        let mut c = Command::new("bash");
        c.args(["-c", script])
            .current_dir(cwd)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap())
            .env("HOME", &self.home)
            .env("DID_IT_ACTUALLY_STATE_DIR", &self.state)
            .env("CLAUDE_CODE_SESSION_ID", "runtime-session")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.invalid");
        for (k, v) in &self.agent_env {
            c.env(k, v);
        }
        c.output().unwrap()
    }

    /// A shell command as Claude Code runs it: the PreToolUse hook first (which brings the
    /// run-time layer's hooks up to date with the repository's), then the command.
    fn agent_after_hook(&self, script: &str) -> Output {
        let event = serde_json::json!({
            "session_id": "runtime-session", "transcript_path": "/dev/null", "cwd": self.work(),
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": script},
        });
        let mut c = Command::new(BIN);
        c.arg("block-wrong-branch")
            .current_dir(self.work())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap())
            .env("HOME", &self.home)
            .env("DID_IT_ACTUALLY_STATE_DIR", &self.state)
            .env("CLAUDE_PROJECT_DIR", self.work())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped());
        for (k, v) in &self.agent_env {
            c.env(k, v);
        }
        let mut child = c.spawn().unwrap();
        std::io::Write::write_all(
            &mut child.stdin.take().unwrap(),
            event.to_string().as_bytes(),
        )
        .unwrap();
        let answer = child.wait_with_output().unwrap();
        assert!(answer.status.success(), "{}", text(&answer));
        self.agent(script)
    }

    /// The hook names in the run-time layer's directory.
    fn layer_hooks(&self) -> Vec<String> {
        let dir = self
            .agent_env
            .iter()
            .find(|(k, _)| k == "DID_IT_ACTUALLY_GIT_HOOKS")
            .map(|(_, v)| PathBuf::from(v))
            .unwrap();
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn main(&self) -> String {
        git(&self.work(), &["rev-parse", "refs/heads/main"])
    }

    fn origin_main(&self) -> String {
        self.repo.origin_ref("main").unwrap()
    }

    fn denials(&self) -> Vec<serde_json::Value> {
        let log = self.state.join("sessions/runtime-session/writes.jsonl");
        std::fs::read_to_string(log)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_commit_on_main_is_refused_by_git_with_the_policys_words_and_recorded() {
    let w = World::new("rt-commit");
    let before = w.main();
    let out = w.agent("git commit -q --allow-empty -m work");
    assert!(!out.status.success(), "{}", text(&out));
    assert_eq!(w.main(), before, "main must not move");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("block-wrong-branch (run-time layer, git's reference-transaction hook): git would move the protected branch main. Rule: branches.protected pattern \"main\" (branches.deny.commit)"),
        "{err}"
    );
    assert!(err.contains("git switch -c feat/<name>"), "{err}");
    let denials = w.denials();
    assert_eq!(denials.len(), 1, "{denials:?}");
    assert_eq!(denials[0]["by"], "run-time");
    assert_eq!(denials[0]["hook"], "block-wrong-branch");
    assert_eq!(denials[0]["targets"][0], "main");
}

#[test]
fn programs_that_start_git_are_refused_the_same_way() {
    let w = World::new("rt-programs");
    let before = w.main();
    for script in [
        // A script written, then run.
        "printf 'git commit -q --allow-empty -m s\\n' > s.sh && bash s.sh",
        // A build tool's recipe.
        "printf 'ship:\\n\\tgit commit -q --allow-empty -m m\\n' > Makefile && make -s ship",
        // An interpreter running git.
        "python3 -c 'import subprocess; raise SystemExit(subprocess.run([\"git\",\"commit\",\"-q\",\"--allow-empty\",\"-m\",\"p\"]).returncode)'",
        // git under another name.
        "cp \"$(command -v git)\" ./g && ./g commit -q --allow-empty -m g",
        // Values known only at run time.
        "b=$(git branch --show-current); git branch -f \"$b\" HEAD~0 2>/dev/null; git reset -q --hard \"$(git rev-parse HEAD)\" && git commit -q --allow-empty -m \"$(date +%s)\"",
    ] {
        let out = w.agent(script);
        assert!(!out.status.success(), "{script}\n{}", text(&out));
        assert_eq!(w.main(), before, "main moved after: {script}");
    }
}

#[test]
fn a_command_that_sets_gits_config_variables_itself_is_still_refused() {
    let w = World::new("rt-count");
    let before = w.main();
    let out = w.agent(
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=x git commit -q --allow-empty -m a",
    );
    assert!(!out.status.success(), "{}", text(&out));
    let out = w.agent(
        "GIT_CONFIG_PARAMETERS=\"'user.name'='x'\" git commit -q --allow-empty -m b; git -c user.name=y commit -q --allow-empty -m c",
    );
    assert!(!out.status.success(), "{}", text(&out));
    assert_eq!(w.main(), before);
}

#[test]
fn pushes_to_main_are_refused_whole_even_with_no_verify_to_a_local_remote() {
    let w = World::new("rt-push");
    let origin_before = w.origin_main();
    let out = w.agent(
        "git switch -q -c topic/x && git commit -q --allow-empty -m w && git push -q origin topic/x:topic/x HEAD:main",
    );
    assert!(!out.status.success(), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("git would push to the protected branch main on origin"),
        "{err}"
    );
    assert_eq!(w.origin_main(), origin_before);
    assert_eq!(
        w.repo.origin_ref("topic/x"),
        None,
        "pre-push refuses the whole push"
    );
    // `--no-verify` skips pre-push; the remote's own ref update still meets the hook,
    // through the system-scope channel that survives git's cleaned transport environment.
    let out = w.agent("git push -q --no-verify origin HEAD:main");
    assert!(!out.status.success(), "{}", text(&out));
    assert_eq!(w.origin_main(), origin_before);
    // The feature branch goes through.
    let out = w.agent("git push -q origin HEAD:topic/x");
    assert!(out.status.success(), "{}", text(&out));
    assert!(w.repo.origin_ref("topic/x").is_some());
}

#[test]
fn everyday_git_that_moves_no_protected_branch_runs_untouched() {
    let w = World::new("rt-legit");
    let before = w.main();
    for script in [
        "git switch -q -c topic/a && echo a > a.txt && git add a.txt && git commit -q -m a",
        "git branch -q backup-$(date +%s) main",
        "git stash -q -u 2>/dev/null; git stash list >/dev/null",
        "git tag v1 && git tag -d v1 >/dev/null",
        "git pack-refs --all && git gc -q",
        "git fetch -q origin",
        "git clone -q ../origin.git ../clone2 && cd ../clone2 && git switch -q -c fix && git commit -q --allow-empty -m x",
        // A new repository's first commit creates its main: nothing moved.
        "git init -q -b main ../fresh && cd ../fresh && git commit -q --allow-empty -m first",
        "git branch -m topic/a topic/b",
        "git checkout -q main && git log -1 >/dev/null",
    ] {
        let out = w.agent(script);
        assert!(out.status.success(), "{script}\n{}", text(&out));
    }
    assert_eq!(w.main(), before);
    assert_eq!(w.denials(), Vec::<serde_json::Value>::new());
}

#[test]
fn the_repositorys_own_hooks_still_run_in_order_with_their_exit_codes() {
    let w = World::new("rt-chain");
    let work = w.work();
    let hooks = work.join(".git/hooks");
    let write_hook = |dir: &Path, name: &str, body: &str| {
        std::fs::create_dir_all(dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    // .git/hooks: a pre-commit that records, a commit-msg that refuses a bad message, a
    // reference-transaction of the repository's own that sees git's input.
    write_hook(
        &hooks,
        "pre-commit",
        "echo pre-commit >> \"$(git rev-parse --git-dir)/ran\"",
    );
    write_hook(
        &hooks,
        "commit-msg",
        "grep -q '^feat' \"$1\" || { echo 'commit-msg: use feat: messages' >&2; exit 3; }",
    );
    write_hook(
        &hooks,
        "reference-transaction",
        "while read o n r; do echo \"$1 $r\" >> \"$(git rev-parse --git-dir)/ran\"; done",
    );
    let out =
        w.agent_after_hook("git switch -q -c topic/c && git commit -q --allow-empty -m 'wip'");
    assert!(!out.status.success(), "commit-msg refuses: {}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("commit-msg: use feat: messages"));
    let out = w.agent_after_hook("git commit -q --allow-empty -m 'feat: c'");
    assert!(out.status.success(), "{}", text(&out));
    let ran = std::fs::read_to_string(work.join(".git/ran")).unwrap();
    assert!(ran.contains("pre-commit"), "{ran}");
    assert!(ran.contains("prepared refs/heads/topic/c"), "{ran}");
    assert!(ran.contains("committed refs/heads/topic/c"), "{ran}");

    // A husky-style hooks path of the repository's own replaces .git/hooks, as in git.
    git(&work, &["config", "core.hooksPath", ".husky"]);
    write_hook(&work.join(".husky"), "pre-commit", "echo husky >&2; exit 0");
    write_hook(
        &work.join(".husky"),
        "pre-push",
        "echo husky-pre-push >&2; exit 1",
    );
    let out = w.agent_after_hook("git commit -q --allow-empty -m 'wip again'");
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("husky"),
        "{}",
        text(&out)
    );
    // Our pre-push allows a feature push; the repository's refuses it, and that counts.
    let out = w.agent_after_hook("git push -q origin HEAD:topic/c");
    assert!(!out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("husky-pre-push"));
    assert_eq!(w.repo.origin_ref("topic/c"), None);
}

#[test]
fn a_hook_that_cannot_find_the_binary_refuses_and_says_what_to_install() {
    let scratch = crate::support::scratch_root().join(format!("rt-bin-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let copy = scratch.join("did-it-actually");
    crate::support::copy_executable(std::path::Path::new(BIN), &copy);
    let w = World::with_binary("rt-missing", copy.to_str().unwrap());
    std::fs::remove_dir_all(&scratch).unwrap();
    let before = w.main();
    let out = w.agent("git switch -q -c topic/m && git commit -q --allow-empty -m m");
    assert!(!out.status.success(), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is missing, so the agent's git refuses"),
        "{err}"
    );
    assert!(err.contains("did-it-actually doctor"), "{err}");
    assert_eq!(w.main(), before);
}

#[test]
fn git_outside_the_agent_and_a_policy_without_the_layer_are_unchanged() {
    let w = World::new("rt-user");
    // The user's own terminal has none of the variables.
    let before = w.main();
    git(
        &w.work(),
        &["commit", "-q", "--allow-empty", "-m", "the user's own"],
    );
    assert_ne!(w.main(), before);
    // `branches.run_time: false`: git decides nothing.
    std::fs::write(
        w.work().join(".did-it-actually.json"),
        r#"{"version": 1, "branches": {"run_time": false}}"#,
    )
    .unwrap();
    assert!(crate::support::fixture::approve_policy(&w.work(), &w.state));
    let before = w.main();
    let out = w.agent("git commit -q --allow-empty -m off");
    assert!(out.status.success(), "{}", text(&out));
    assert_ne!(w.main(), before);
}

#[test]
fn uninstall_takes_the_layer_away() {
    let w = World::new("rt-uninstall");
    let out = Command::new(BIN)
        .args(["uninstall", "--project"])
        .arg(w.work())
        .env("DID_IT_ACTUALLY_STATE_DIR", &w.state)
        .env("HOME", &w.home)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("the run-time layers are off"));
    // Install created it for these variables alone: uninstall removes it.
    let local =
        std::fs::read_to_string(w.work().join(".claude/settings.local.json")).unwrap_or_default();
    assert!(!local.contains("GIT_CONFIG"), "{local}");
    assert!(!local.contains("CLAUDE_CODE_SHELL_PREFIX"), "{local}");
    assert!(!w
        .state
        .join("git")
        .read_dir()
        .is_ok_and(|mut d| d.next().is_some()));
}

/// The static layer, asked as Claude Code asks it (PreToolUse on Bash), with and without
/// the agent's environment: a push whose destination exists only at run time is denied by
/// the static layer alone, and allowed with a note when git checks it as it runs; a
/// command that takes git's hooks out is denied only when they are on.
#[test]
fn the_static_layer_leaves_run_time_values_to_git_when_the_layer_is_on() {
    let w = World::new("rt-static");
    let ask = |command: &str, with_layer: bool| -> serde_json::Value {
        let input = serde_json::json!({
            "session_id": "runtime-session", "prompt_id": "p", "cwd": w.work(),
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "t1",
        });
        let mut c = Command::new(BIN);
        c.arg("block-wrong-branch")
            .current_dir(w.work())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap())
            .env("HOME", &w.home)
            .env("DID_IT_ACTUALLY_STATE_DIR", &w.state);
        if with_layer {
            c.envs(w.agent_env.iter().map(|(k, v)| (k, v)));
        }
        let out = crate::support::output_with_stdin(&mut c, input.to_string().as_bytes());
        assert!(out.status.success(), "{}", text(&out));
        serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null)
    };
    let computed = "b=$(cat .branch-name); git push origin \"$b\"";
    let alone = ask(computed, false);
    assert_eq!(
        alone["hookSpecificOutput"]["permissionDecision"], "deny",
        "{alone}"
    );
    let both = ask(computed, true);
    assert_eq!(
        both["hookSpecificOutput"].get("permissionDecision"),
        None,
        "{both}"
    );
    let note = both["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(note.contains("git itself checks it as it runs"), "{note}");
    // What git itself refuses is still refused before it runs, with today's words.
    let main = ask("git push origin HEAD:main", true);
    assert_eq!(
        main["hookSpecificOutput"]["permissionDecision"], "deny",
        "{main}"
    );
    // Taking the hooks out is refused only where they are what decides: not for a push
    // the reading resolves whole, but for one with a part only known when it runs.
    assert_eq!(
        ask("git push --no-verify origin HEAD:topic/x", true),
        serde_json::Value::Null
    );
    let refused = ask(
        "b=$(cat .branch-name); git push --no-verify origin \"$b\"",
        true,
    );
    let reason = refused["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(reason.contains("would run git without its run-time branch check: `git push --no-verify` skips the pre-push check, and this git command has parts only that check can judge. Run the push without `--no-verify`"), "{reason}");
    // A bypass in one git command says nothing about the others: the program `make`
    // starts still runs under the layer, and this push is read whole.
    assert_eq!(
        ask(
            "make -s deploy; git push --no-verify origin HEAD:topic/x",
            true
        )["hookSpecificOutput"]
            .get("permissionDecision"),
        None
    );
    // Hooks of the repository's own, set up in the same command: the push skips only its
    // pre-push; the rest of its hooks run after the run-time layer's, so that is allowed.
    let own_hooks = ask(
        "git config core.hooksPath .githooks && mkdir -p .githooks && printf '#!/bin/sh\\nexit 1\\n' > .githooks/pre-push && chmod +x .githooks/pre-push && git push --no-verify -q origin HEAD:topic/x",
        true,
    );
    assert_eq!(
        own_hooks["hookSpecificOutput"].get("permissionDecision"),
        None,
        "{own_hooks}"
    );
    // A hooks path on git's command line takes the layer out of everything that git
    // command starts, so a hook written just before is refused, with the route that
    // keeps both.
    let replaced = ask(
        "git switch -q -c topic/h && mkdir -p .husky && printf '#!/bin/sh\\ntrue\\n' > .husky/pre-commit && chmod +x .husky/pre-commit && git -c core.hooksPath=.husky commit -q -m x",
        true,
    );
    let reason = replaced["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default();
    assert!(
        reason.contains("the user's to set, at their terminal (`git config core.hooksPath <dir>`"),
        "{replaced}"
    );
}

#[test]
fn a_dry_run_push_to_main_says_what_the_real_push_would_meet_and_sends_nothing() {
    let w = World::new("rt-dry");
    let origin_before = w.origin_main();
    let out = w.agent("git switch -q -c topic/d && git commit -q --allow-empty -m d");
    assert!(out.status.success(), "{}", text(&out));
    for dry in [
        "git push --dry-run origin HEAD:main",
        "git push -qn origin topic/d:main",
    ] {
        let out = w.agent(dry);
        assert!(out.status.success(), "{dry}\n{}", text(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("dry run, nothing is sent; the real push would be refused: git would push to the protected branch main on origin"),
            "{err}"
        );
    }
    assert_eq!(w.origin_main(), origin_before);
    assert_eq!(w.denials(), Vec::<serde_json::Value>::new());
    // The real push is still refused.
    let out = w.agent("git push -q origin HEAD:main");
    assert!(!out.status.success(), "{}", text(&out));
    assert_eq!(w.origin_main(), origin_before);
}

/// The shell prefix fails closed: a policy that cannot be read stops the command with
/// the reason, and a prefix script whose binary is gone refuses and says what to install;
/// neither runs the command.
#[test]
fn the_write_layer_fails_closed_with_the_reason() {
    if crate::support::confine_unavailable() {
        return;
    }
    let w = World::new("rt-confine-closed");
    let marker = w.work().join("ran.txt");
    // The approved policy cannot be read (its record is not one the guard wrote): the
    // guard cannot tell what is in force, so the command does not run.
    let record = did_it_actually::approval::record_path(&w.state, &w.work());
    std::fs::create_dir_all(record.parent().unwrap()).unwrap();
    std::fs::write(&record, "{\"version\": 1, \"scope\"").unwrap();
    let out = Command::new(BIN)
        .args(["confine", "echo ran > ran.txt"])
        .current_dir(w.work())
        .env("DID_IT_ACTUALLY_PROJECT", w.work())
        .env("DID_IT_ACTUALLY_STATE_DIR", &w.state)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(126), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("did-it-actually: the command did not run: the policy cannot be read:")
            && err.contains("approval record"),
        "{err}"
    );
    assert!(!marker.exists());
    std::fs::remove_file(&record).unwrap();

    let script = w.work().join("prefix");
    std::fs::write(
        &script,
        did_it_actually::runtime::activation::confine_script("/nonexistent/did-it-actually", ""),
    )
    .unwrap();
    let out = Command::new("sh")
        .arg(&script)
        .arg("echo ran > ran.txt")
        .current_dir(w.work())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(126), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "this command did not run: the agent's commands run through /nonexistent/did-it-actually, which is missing"
        ),
        "{}",
        text(&out)
    );
    assert!(!marker.exists());
}

/// The run-time layer's directory holds only its own hooks and the names the repository
/// has hooks for (each name present is a process per git event): a hook the repository
/// gains (a hook manager installed) is there from the agent's next command on, and runs.
#[test]
fn the_layer_holds_only_the_hooks_the_repository_has_and_follows_new_ones() {
    let w = World::new("rt-sync");
    // ScratchRepo's git init leaves only `.sample` hooks: none of them runs.
    assert_eq!(w.layer_hooks(), ["pre-push", "reference-transaction"]);
    let hooks = w.work().join(".git/hooks");
    let hook = hooks.join("pre-commit");
    std::fs::write(&hook, "#!/bin/sh\necho repo-pre-commit >&2\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = w.agent_after_hook("git switch -q -c topic/s && git commit -q --allow-empty -m s");
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("repo-pre-commit"),
        "the repository's new hook did not run: {}",
        text(&out)
    );
    assert_eq!(
        w.layer_hooks(),
        ["pre-commit", "pre-push", "reference-transaction"]
    );
    std::fs::remove_file(&hook).unwrap();
    let out = w.agent_after_hook("git commit -q --allow-empty -m t");
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(w.layer_hooks(), ["pre-push", "reference-transaction"]);
    // A program the reading does not follow may install a hook as the command runs (a
    // package manager's install setting up a hook manager): every name, for that command,
    // so the hook it installs runs at once; the next command has only what is there.
    std::fs::write(
        w.work().join("setup-hooks.sh"),
        "printf '#!/bin/sh\\necho installed-pre-commit >&2\\n' > .git/hooks/pre-commit\nchmod +x .git/hooks/pre-commit\n",
    )
    .unwrap();
    let out = w.agent_after_hook("sh setup-hooks.sh && git commit -q --allow-empty -m u");
    assert!(
        out.status.success()
            && String::from_utf8_lossy(&out.stderr).contains("installed-pre-commit"),
        "the hook installed by the command did not run: {}",
        text(&out)
    );
    assert_eq!(w.layer_hooks().len(), 25);
    let out = w.agent_after_hook("git status --short");
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        w.layer_hooks(),
        ["pre-commit", "pre-push", "reference-transaction"]
    );
}
