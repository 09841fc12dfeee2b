//! Fixture tests: real-shaped hook inputs run through the built binary, with snapshots of
//! what a user (or the agent) sees: exit code, stdout, stderr, and the write log.

use crate::support;

use support::fixture::run_fixture;

#[test]
fn verify_write_fixtures() {
    insta::glob!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"),
        "verify-write/*.json",
        |path| {
            let run = run_fixture(path, &["verify-write"]);
            insta::assert_snapshot!(run.report());
        }
    );
}

#[test]
fn block_wrong_branch_fixtures() {
    insta::glob!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"),
        "block-wrong-branch/*.json",
        |path| {
            let run = run_fixture(path, &["block-wrong-branch"]);
            insta::assert_snapshot!(run.report());
        }
    );
}

#[test]
fn scope_guard_fixtures() {
    insta::glob!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"),
        "scope-guard/*.json",
        |path| {
            let run = run_fixture(path, &["scope-guard"]);
            insta::assert_snapshot!(run.report());
        }
    );
}

#[test]
fn audit_turn_fixtures() {
    insta::glob!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"),
        "audit-turn/*.json",
        |path| {
            let run = run_fixture(path, &["audit-turn"]);
            insta::assert_snapshot!(run.report());
        }
    );
}
