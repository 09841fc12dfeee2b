//! The execution oracle's self-tests (see `tests/it/support/oracle.rs`).

use crate::support::oracle;

use oracle::{examine, Guard, Label, Spec, BRANCH_STATES as BOTH};

fn branch(setup: &str) -> Spec {
    Spec::Branch {
        setup: setup.into(),
    }
}

fn root() -> Spec {
    Spec::Scope {
        project: "root".into(),
        cwd: ".".into(),
    }
}

#[test]
fn oracle_sees_a_push_to_origin_main() {
    let v = examine(
        Guard::Branch,
        &branch("feat"),
        BOTH,
        "git push origin HEAD:main",
        false,
    );
    assert_eq!(v.label, Label::Deny, "{v:#?}");
    assert!(v.outcomes.iter().any(|o| o
        .protected
        .iter()
        .any(|c| c.repo == "origin" && c.name == "refs/heads/main")));
}

#[test]
fn oracle_git_status_changes_nothing() {
    for spec in [branch("main"), root()] {
        let guard = if matches!(spec, Spec::Branch { .. }) {
            Guard::Branch
        } else {
            Guard::Scope
        };
        let v = examine(guard, &spec, BOTH, "git status", false);
        assert_eq!(v.label, Label::Allow, "{v:#?}");
        for o in &v.outcomes {
            assert!(o.refs.is_empty() && o.files.is_empty(), "{o:#?}");
        }
    }
}

#[test]
fn oracle_sees_a_write_outside() {
    let v = examine(Guard::Scope, &root(), BOTH, "echo x > ../outside/f", false);
    assert_eq!(v.label, Label::Deny, "{v:#?}");
    let v = examine(
        Guard::Branch,
        &branch("feat"),
        BOTH,
        "echo x > ../outside/f",
        false,
    );
    assert_eq!(v.label, Label::Allow, "{v:#?}");
    assert!(v.outcomes[0]
        .files
        .iter()
        .any(|c| c.path.ends_with("/outside/f")));
}

#[test]
fn oracle_a_write_inside_is_fine() {
    let v = examine(Guard::Scope, &root(), BOTH, "echo x > ok.txt", false);
    assert_eq!(v.label, Label::Allow, "{v:#?}");
    assert!(v.outcomes[0]
        .files
        .iter()
        .any(|c| c.path.ends_with("/root/ok.txt")));
}

#[test]
fn oracle_sees_writes_outside_the_world_without_making_them() {
    if !oracle::sandboxed() {
        eprintln!("no sandbox here: skipped");
        return;
    }
    // `/etc` is outside the scope; `/tmp` is outside the world but writable by default
    // (issue 15): both are seen, only the first is out of scope.
    for (dir, label) in [("/etc", Label::Deny), ("/tmp", Label::Allow)] {
        let probe = format!("{dir}/dia-oracle-probe-{}", std::process::id());
        let v = examine(
            Guard::Scope,
            &root(),
            &[oracle::State::A],
            &format!("echo x > {probe}"),
            false,
        );
        assert_eq!(v.label, label, "{v:#?}");
        assert!(v.outcomes[0]
            .files
            .iter()
            .any(|c| c.path == probe && c.what == '+'));
        assert!(
            !std::path::Path::new(&probe).exists(),
            "the write escaped the sandbox"
        );
    }
}

/// A repository reached by `cd`, `-C` or `--git-dir` is judged with ITS remotes' default
/// branches (the sibling's origin defaults to `develop`): the guard and the oracle agree on
/// every spelling, and a push to the sibling's other branch stays allowed.
#[test]
fn a_sibling_repositorys_default_branch_is_protected_there() {
    let cases = [
        ("deny", "git -C ../sibling push origin HEAD:develop"),
        ("deny", "cd ../sibling && git push origin HEAD:develop"),
        (
            "deny",
            "git --git-dir=../sibling/.git --work-tree=../sibling commit --allow-empty -m x",
        ),
        (
            "deny",
            "bash -c 'cd ../sibling; git commit --allow-empty -m x'",
        ),
        ("allow", "git -C ../sibling push origin HEAD:topic"),
    ];
    for (want, cmd) in cases {
        let v = examine(Guard::Branch, &branch("feat"), BOTH, cmd, true);
        let (guard, reason) = v.guard.clone().unwrap();
        assert_eq!(v.label.as_str(), want, "oracle on `{cmd}`: {v:#?}");
        assert_eq!(guard, want, "guard on `{cmd}`: {reason}");
    }
}

/// Examines one command and prints what the oracle saw and what the guard said:
/// `ORACLE_GUARD=branch|scope ORACLE_SETUP=feat|root ORACLE_CMD='...' cargo test --test it
/// oracle::one_command -- --ignored --nocapture` (scope: the cwd is the project; `$S` is the
/// scratch dir).
#[test]
#[ignore = "a tool: set ORACLE_CMD"]
fn one_command() {
    let cmd = std::env::var("ORACLE_CMD").expect("ORACLE_CMD");
    let guard = std::env::var("ORACLE_GUARD").unwrap_or("branch".into());
    let (guard, spec, states) = if guard == "scope" {
        let project = std::env::var("ORACLE_SETUP").unwrap_or("root".into());
        (
            Guard::Scope,
            Spec::Scope {
                project,
                cwd: ".".into(),
            },
            oracle::SCOPE_STATES,
        )
    } else {
        let setup = std::env::var("ORACLE_SETUP").unwrap_or("feat".into());
        (Guard::Branch, branch(&setup), BOTH)
    };
    let v = examine(guard, &spec, states, &cmd, true);
    for o in &v.outcomes {
        eprintln!(
            "[{:?}] exit {:?}\n{}",
            o.state,
            o.ran.code,
            o.ran.output.trim()
        );
        eprintln!("  refs: {:?}\n  files: {:?}", o.refs, o.files);
    }
    eprintln!(
        "oracle: {:?} ({}; sync only: {})\nguard: {:?}",
        v.label,
        v.summary(guard),
        v.sync_only,
        v.guard
    );
    oracle::cleanup();
}
