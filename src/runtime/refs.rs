//! What git's own hooks are told, judged by the branch policy: the lines of a
//! `reference-transaction` (`<old> <new> <ref>`) and of a `pre-push` (`<local ref>
//! <local oid> <remote ref> <remote oid>`). Pure: the repository is a [`RefState`], so
//! every rule is tested without git.
//!
//! The rule is the static layer's: a protected branch is not moved, rewritten or deleted,
//! and nothing is pushed to one. What the run-time layer sees is the ref change itself,
//! not the command, so the kind of change (`branches.deny.<key>`) is read from what git
//! tells its hooks (`GIT_REFLOG_ACTION`) and from the change (a deletion, a fast-forward,
//! a rewrite).

use crate::policy::{BranchPolicy, DenyKind};

/// One line of a `reference-transaction` hook's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefUpdate {
    /// The value the caller expected: all zeros when it did not say (`git update-ref`
    /// without an old value, `git branch -D`), so it is never trusted alone.
    pub old: String,
    /// The value to store: all zeros for a deletion, `ref:<target>` for a symbolic ref.
    pub new: String,
    pub name: String,
}

/// One line of a `pre-push` hook's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushUpdate {
    pub local_ref: String,
    pub local_oid: String,
    pub remote_ref: String,
    pub remote_oid: String,
}

/// Whether an object name is git's "none" (all zeros, SHA-1 or SHA-256).
pub fn is_zero(oid: &str) -> bool {
    !oid.is_empty() && oid.bytes().all(|b| b == b'0')
}

/// Reads a `reference-transaction` input. A line that is not three fields is an error: a
/// guard that cannot read what git will change refuses.
pub fn parse_transaction(input: &str) -> Result<Vec<RefUpdate>, String> {
    lines(input)
        .map(|(n, line)| match fields(line)[..] {
            [old, new, name] => Ok(RefUpdate {
                old: old.into(),
                new: new.into(),
                name: name.into(),
            }),
            _ => Err(format!(
                "line {n} of git's reference-transaction input is {line:?}; expected `<old> <new> <ref>`"
            )),
        })
        .collect()
}

/// Reads a `pre-push` input.
pub fn parse_push(input: &str) -> Result<Vec<PushUpdate>, String> {
    lines(input)
        .map(|(n, line)| match fields(line)[..] {
            [local_ref, local_oid, remote_ref, remote_oid] => Ok(PushUpdate {
                local_ref: local_ref.into(),
                local_oid: local_oid.into(),
                remote_ref: remote_ref.into(),
                remote_oid: remote_oid.into(),
            }),
            _ => Err(format!(
                "line {n} of git's pre-push input is {line:?}; expected `<local ref> <local oid> <remote ref> <remote oid>`"
            )),
        })
        .collect()
}

fn lines(input: &str) -> impl Iterator<Item = (usize, &str)> {
    input
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty())
}

fn fields(line: &str) -> Vec<&str> {
    line.split(' ').filter(|f| !f.is_empty()).collect()
}

/// What the repository holds at the moment of the hook (the refs are locked, not yet
/// changed).
pub trait RefState {
    /// The object a ref points to now, if it exists.
    fn current(&self, name: &str) -> Option<String>;
    /// Whether `packed-refs` holds `name` at `oid` and a loose file for it exists too:
    /// `git pack-refs` (and `gc`) deletes the loose copy of a ref it has just packed, a
    /// "deletion" that leaves the ref where it was.
    fn packed_copy(&self, name: &str, oid: &str) -> bool;
    /// Whether `descendant` contains `ancestor`; `None` when an object is not here.
    fn is_ancestor(&self, ancestor: &str, descendant: &str) -> Option<bool>;
}

/// A change the run-time layer refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The branch, without `refs/heads/`.
    pub branch: String,
    /// Where: empty for this repository, ` on <remote>` for a push.
    pub place: String,
    /// What git was about to do, as a verb phrase ("move", "delete", "push to").
    pub verb: &'static str,
    /// The rule, as the static layer words it.
    pub rule: String,
    pub advice: String,
}

/// The kind of a change to an existing branch, from what git tells its hooks: the
/// command in `GIT_REFLOG_ACTION` (set by pull, rebase, merge, am, cherry-pick, revert),
/// else a fast-forward is a commit and anything else a reset.
fn update_kind(reflog_action: Option<&str>, fast_forward: Option<bool>) -> DenyKind {
    let command = reflog_action
        .and_then(|a| a.split_whitespace().next())
        .unwrap_or("");
    match command {
        "pull" => DenyKind::Pull,
        "rebase" => DenyKind::Rebase,
        "merge" => DenyKind::Merge,
        "am" => DenyKind::Am,
        "cherry-pick" => DenyKind::CherryPick,
        "revert" => DenyKind::Revert,
        "reset" => DenyKind::Reset,
        "fetch" => DenyKind::Fetch,
        "commit" => DenyKind::Commit,
        _ if fast_forward == Some(true) => DenyKind::Commit,
        _ => DenyKind::Reset,
    }
}

/// The refusals for one prepared `reference-transaction`: each existing branch that a
/// protected pattern (or a remote's default) names and that the transaction would move
/// or delete, under the policy's switch for that kind of change. Creating a branch that
/// does not exist moves nothing (a clone, a first commit, `git branch main origin/main`);
/// packing a ref moves nothing.
pub fn judge_transaction(
    updates: &[RefUpdate],
    repo: &dyn RefState,
    rules: &BranchPolicy,
    remote_defaults: &[String],
    reflog_action: Option<&str>,
) -> Vec<Refusal> {
    let mut out = Vec::new();
    for u in updates {
        let Some(branch) = u.name.strip_prefix("refs/heads/") else {
            continue;
        };
        let Some(current) = repo.current(&u.name) else {
            continue;
        };
        if u.new == current {
            continue;
        }
        let (verb, key) = if is_zero(&u.new) {
            if u.old == current && repo.packed_copy(&u.name, &current) {
                continue;
            }
            ("delete", DenyKind::Branch)
        } else {
            let ff = repo.is_ancestor(&current, &u.new);
            ("move", update_kind(reflog_action, ff))
        };
        if let Some(rule) = rules.protects(branch, remote_defaults) {
            if rules.deny.get(key) {
                out.push(Refusal {
                    branch: branch.into(),
                    place: String::new(),
                    verb,
                    rule: format!("{rule} (branches.deny.{key})"),
                    advice: advice(verb, branch),
                });
            }
        } else if verb == "move" && !rules.allows(branch) {
            out.push(Refusal {
                branch: branch.into(),
                place: String::new(),
                verb: "land work on",
                rule: format!(
                    "branches.allowed ({}) does not include it",
                    rules.describe_allowed()
                ),
                advice: "Work on a branch that branches.allowed includes.".into(),
            });
        }
    }
    out
}

/// The refusals for one `pre-push`: each protected branch the push would update or
/// delete on the remote, and force pushes and landings the policy forbids elsewhere.
pub fn judge_push(
    remote: &str,
    updates: &[PushUpdate],
    repo: &dyn RefState,
    rules: &BranchPolicy,
    remote_defaults: &[String],
) -> Vec<Refusal> {
    let mut out = Vec::new();
    for u in updates {
        let Some(branch) = u.remote_ref.strip_prefix("refs/heads/") else {
            continue;
        };
        let (verb, key) = if is_zero(&u.local_oid) {
            ("delete", DenyKind::PushDelete)
        } else if is_zero(&u.remote_oid)
            || repo.is_ancestor(&u.remote_oid, &u.local_oid) == Some(true)
        {
            ("push to", DenyKind::Push)
        } else {
            ("force-push to", DenyKind::ForcePush)
        };
        let place = format!(" on {remote}");
        if let Some(rule) = rules.protects(branch, remote_defaults) {
            if rules.deny.get(key) {
                out.push(Refusal {
                    branch: branch.into(),
                    place,
                    verb,
                    rule: format!("{rule} (branches.deny.{key})"),
                    advice: advice(verb, branch),
                });
            }
        } else if key == DenyKind::ForcePush && !rules.allow_force_push {
            out.push(Refusal {
                branch: branch.into(),
                place,
                verb,
                rule: "branches.allow_force_push is false".into(),
                advice:
                    "Push without --force (rebase on the remote branch first), or ask the user."
                        .into(),
            });
        } else if key != DenyKind::PushDelete && !rules.allows(branch) {
            out.push(Refusal {
                branch: branch.into(),
                place,
                verb,
                rule: format!(
                    "branches.allowed ({}) does not include it",
                    rules.describe_allowed()
                ),
                advice: "Push to a branch that branches.allowed includes.".into(),
            });
        }
    }
    out
}

fn advice(verb: &str, branch: &str) -> String {
    match verb {
        "push to" | "force-push to" => "Push to a feature branch instead: `git push -u origin HEAD:feat/<name>`, then open a pull request.".into(),
        "delete" => format!("Leave {branch} in place; if it really must go, ask the user to do it."),
        _ => format!("Create a feature branch first (`git switch -c feat/<name>`) and do it there; {branch} changes through pull requests."),
    }
}

/// How every refusal of the run-time layer begins (the hook's name follows, then
/// ` hook): `): what the run log finds in a command's output.
pub const REFUSAL_START: &str = "block-wrong-branch (run-time layer, git's ";

/// The ledger's record of a refusal of the run-time layer (it speaks for
/// block-wrong-branch: one guard, two layers); the caller adds what it knows of the call.
pub fn denial_record(
    hook: &str,
    session: String,
    reason: String,
    now: std::time::SystemTime,
) -> crate::store::DenialRecord {
    crate::store::DenialRecord {
        v: crate::store::RECORD_VERSION,
        kind: crate::store::DenialKind::Denial,
        time: crate::time::rfc3339(now),
        session,
        prompt_id: None,
        tool_use_id: None,
        event: format!("git:{hook}"),
        hook: "block-wrong-branch".to_owned(),
        tool: "git".into(),
        targets: Vec::new(),
        rule: None,
        reason,
        host: None,
        by: Some(crate::store::BY_RUN_TIME.into()),
        cwd: std::env::current_dir()
            .ok()
            .map(|d| d.display().to_string()),
    }
}

/// Printed after a refusal its git hook could not record itself, then why.
pub const UNRECORDED: &str = "did-it-actually: the refusal above is recorded by the run log from this output, not by git's hook: ";

/// The words git's stderr carries to the agent: what would have moved, the rule, what to
/// do instead, and that nothing moved.
pub fn message(hook: &str, refusals: &[Refusal], source: &str) -> String {
    let mut out = String::new();
    for r in refusals {
        out.push_str(&format!(
            "{REFUSAL_START}{hook} hook): git would {} the protected branch {}{}. Rule: {} in {source}. {}\n",
            r.verb, r.branch, r.place, r.rule, r.advice
        ));
    }
    let what = if hook == "pre-push" {
        "the push was not sent"
    } else {
        "git refused the whole update"
    };
    out.push_str(&format!(
        "block-wrong-branch: nothing changed ({what}). This check runs inside git for every command the agent starts, so another route to the same change is refused the same way.\n"
    ));
    out
}

/// Whether the `git push` that runs a `pre-push` hook was asked for a dry run
/// (`--dry-run`, `-n` alone or in a cluster of push's short flags), from that process's
/// arguments. A dry run sends nothing, so the hook tells what the real push would meet
/// instead of failing it (`git push -n` is how an agent asks "would this push work?").
pub fn is_dry_run_push(argv: &[String]) -> bool {
    let Some(at) = argv.iter().position(|a| a == "push") else {
        return false;
    };
    argv[at + 1..]
        .iter()
        .take_while(|a| a.as_str() != "--")
        .any(|a| {
            a == "--dry-run"
                || a.strip_prefix('-').is_some_and(|flags| {
                    !flags.starts_with('-')
                        && flags.contains('n')
                        && flags.chars().all(|c| "46dfnquv".contains(c))
                })
        })
}

/// [`message`] for a dry run: the same findings, worded as what the real push would meet.
pub fn dry_run_message(refusals: &[Refusal], source: &str) -> String {
    let mut out = String::new();
    for r in refusals {
        out.push_str(&format!(
            "block-wrong-branch (run-time layer, git's pre-push hook): dry run, nothing is sent; the real push would be refused: git would {} the protected branch {}{}. Rule: {} in {source}. {}\n",
            r.verb, r.branch, r.place, r.rule, r.advice
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn a_dry_run_push_is_read_from_the_push_arguments() {
        let argv = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        for yes in [
            "git push --dry-run origin main",
            "git push -n origin main",
            "git -C x push -qn origin HEAD:main",
            "git push origin main -n",
            "git push -fnu origin main",
        ] {
            assert!(is_dry_run_push(&argv(yes)), "{yes}");
        }
        for no in [
            "git push origin main",
            "git push -- -n",
            "git push --no-verify origin main",
            "git push -o ci.skip origin main",
            "git commit -n",
            "git push origin -nofoo",
        ] {
            assert!(!is_dry_run_push(&argv(no)), "{no}");
        }
    }

    const A: &str = "1111111111111111111111111111111111111111";
    const B: &str = "2222222222222222222222222222222222222222";
    const Z: &str = "0000000000000000000000000000000000000000";

    /// A repository as a table: refs, packed copies, and which object descends from which.
    #[derive(Default)]
    struct Fake {
        refs: HashMap<String, String>,
        packed: Vec<(String, String)>,
        /// (ancestor, descendant) pairs that hold.
        ancestry: Vec<(String, String)>,
    }

    impl RefState for Fake {
        fn current(&self, name: &str) -> Option<String> {
            self.refs.get(name).cloned()
        }
        fn packed_copy(&self, name: &str, oid: &str) -> bool {
            self.packed.iter().any(|(n, o)| n == name && o == oid)
        }
        fn is_ancestor(&self, a: &str, d: &str) -> Option<bool> {
            Some(a == d || self.ancestry.iter().any(|(x, y)| x == a && y == d))
        }
    }

    fn main_at(oid: &str) -> Fake {
        let mut f = Fake::default();
        f.refs.insert("refs/heads/main".into(), oid.into());
        f.refs.insert("refs/heads/feat".into(), oid.into());
        f
    }

    fn rt(old: &str, new: &str, name: &str) -> RefUpdate {
        RefUpdate {
            old: old.into(),
            new: new.into(),
            name: name.into(),
        }
    }

    fn judge(updates: &[RefUpdate], repo: &Fake, action: Option<&str>) -> Vec<Refusal> {
        judge_transaction(updates, repo, &BranchPolicy::default(), &[], action)
    }

    #[test]
    fn a_commit_on_main_is_refused_and_on_a_feature_branch_allowed() {
        let mut repo = main_at(A);
        repo.ancestry.push((A.into(), B.into()));
        let on_main = judge(
            &[rt(Z, B, "HEAD"), rt(A, B, "refs/heads/main")],
            &repo,
            None,
        );
        assert_eq!(on_main.len(), 1);
        assert_eq!(on_main[0].verb, "move");
        assert!(
            on_main[0].rule.contains("branches.deny.commit"),
            "{on_main:?}"
        );
        assert!(judge(&[rt(A, B, "refs/heads/feat")], &repo, None).is_empty());
    }

    #[test]
    fn the_old_value_is_not_trusted_a_move_without_one_is_still_a_move() {
        // `git update-ref refs/heads/main X` and `git branch -D main` pass zeros.
        let repo = main_at(A);
        let moved = judge(&[rt(Z, B, "refs/heads/main")], &repo, None);
        assert!(moved[0].rule.contains("branches.deny.reset"), "{moved:?}");
        let deleted = judge(&[rt(Z, Z, "refs/heads/main")], &repo, None);
        assert_eq!(deleted[0].verb, "delete");
    }

    #[test]
    fn creating_a_branch_that_does_not_exist_moves_nothing() {
        let repo = Fake::default();
        assert!(judge(&[rt(Z, A, "refs/heads/main")], &repo, None).is_empty());
    }

    #[test]
    fn packing_a_ref_moves_nothing_but_a_real_deletion_is_refused() {
        let mut repo = main_at(A);
        // pack-refs: the packed write (same value), then the loose copy's deletion.
        assert!(judge(&[rt(Z, A, "refs/heads/main")], &repo, None).is_empty());
        repo.packed.push(("refs/heads/main".into(), A.into()));
        assert!(judge(&[rt(A, Z, "refs/heads/main")], &repo, None).is_empty());
        // A deletion that does not name the current value is not the packer's.
        assert_eq!(judge(&[rt(Z, Z, "refs/heads/main")], &repo, None).len(), 1);
    }

    #[test]
    fn the_kind_comes_from_git_reflog_action_and_the_policy_switch_decides() {
        let mut repo = main_at(A);
        repo.ancestry.push((A.into(), B.into()));
        let mut rules = BranchPolicy::default();
        rules.deny.pull = false;
        let pull = judge_transaction(
            &[rt(A, B, "refs/heads/main")],
            &repo,
            &rules,
            &[],
            Some("pull origin main"),
        );
        assert!(pull.is_empty(), "a pull the policy allows: {pull:?}");
        let commit = judge_transaction(&[rt(A, B, "refs/heads/main")], &repo, &rules, &[], None);
        assert_eq!(commit.len(), 1);
        let rebase = judge(
            &[rt(A, B, "refs/heads/main")],
            &repo,
            Some("rebase (finish)"),
        );
        assert!(
            rebase[0].rule.contains("branches.deny.rebase"),
            "{rebase:?}"
        );
    }

    #[test]
    fn a_remote_default_is_protected_like_a_pattern() {
        let mut repo = Fake::default();
        repo.refs.insert("refs/heads/trunk".into(), A.into());
        let out = judge_transaction(
            &[rt(A, B, "refs/heads/trunk")],
            &repo,
            &BranchPolicy::default(),
            &["trunk".into()],
            None,
        );
        assert!(out[0].rule.contains("remote's default"), "{out:?}");
    }

    fn push(local: &str, remote_ref: &str, remote_oid: &str) -> PushUpdate {
        PushUpdate {
            local_ref: "refs/heads/feat".into(),
            local_oid: local.into(),
            remote_ref: remote_ref.into(),
            remote_oid: remote_oid.into(),
        }
    }

    #[test]
    fn a_push_of_several_refs_is_refused_for_the_protected_one_only() {
        let repo = Fake::default();
        let out = judge_push(
            "origin",
            &[
                push(A, "refs/heads/feat", Z),
                push(A, "refs/heads/main", Z),
                push(A, "refs/tags/v1", Z),
            ],
            &repo,
            &BranchPolicy::default(),
            &[],
        );
        assert_eq!(out.len(), 1);
        assert_eq!(
            (out[0].branch.as_str(), out[0].place.as_str()),
            ("main", " on origin")
        );
        let text = message("pre-push", &out, "built-in defaults");
        assert!(text.contains("git would push to the protected branch main on origin. Rule: branches.protected pattern \"main\" (branches.deny.push) in built-in defaults."), "{text}");
        assert!(text.contains("the push was not sent"), "{text}");
    }

    #[test]
    fn deletions_and_force_pushes_have_their_own_switches() {
        let repo = Fake::default();
        let rules = BranchPolicy::default();
        let del = judge_push("o", &[push(Z, "refs/heads/main", A)], &repo, &rules, &[]);
        assert!(del[0].rule.contains("branches.deny.push_delete"), "{del:?}");
        let force = judge_push("o", &[push(B, "refs/heads/main", A)], &repo, &rules, &[]);
        assert!(
            force[0].rule.contains("branches.deny.force_push"),
            "{force:?}"
        );
        assert!(judge_push("o", &[push(B, "refs/heads/feat", A)], &repo, &rules, &[]).is_empty());
        let strict = crate::policy::Policy::parse(
            std::path::Path::new("p.json"),
            br#"{"version": 1, "branches": {"allow_force_push": false}}"#,
        )
        .unwrap()
        .branches;
        let out = judge_push("o", &[push(B, "refs/heads/feat", A)], &repo, &strict, &[]);
        assert!(out[0].rule.contains("allow_force_push"), "{out:?}");
    }

    #[test]
    fn inputs_that_are_not_gits_are_errors_with_the_line() {
        assert!(parse_transaction(&format!("{A} {B} refs/heads/main\n\n")).is_ok());
        let e = parse_transaction(&format!("{A} {B}\n")).unwrap_err();
        assert!(
            e.starts_with("line 1 of git's reference-transaction input"),
            "{e}"
        );
        let e = parse_push("refs/heads/a 1 refs/heads/b\n").unwrap_err();
        assert!(
            e.contains("expected `<local ref> <local oid> <remote ref> <remote oid>`"),
            "{e}"
        );
    }
}
