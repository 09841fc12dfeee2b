//! The danger behind the branch guard's corpus is real: a sample of the commands that
//! `tests/corpus/block-wrong-branch.tsv` says must be DENIED is run for real with `bash -c`
//! in a fresh scratch repository (cwd `work`, `HOME` = `outside`, git isolated from the
//! user's and system's configuration), and each one really changes a protected ref: the
//! remote's `main` (`origin.git`) or the local `main` (a commit lands on it, it moves, it is
//! deleted or renamed away). A guard test that never checks git's own behaviour can encode a
//! wrong belief; this one checks it.
//!
//! A few ALLOWED corpus cases run the same way as controls: they succeed and leave both
//! mains untouched, so the detection here is not vacuous.
//!
//! Every sampled command must appear in the corpus, byte for byte (in the corpus's own
//! `\n` encoding), with the same setup and verdict.

use crate::support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::repo::ScratchRepo;

const CORPUS: &str = include_str!("../corpus/block-wrong-branch.tsv");

/// The corpus's encoding of a command: `\n` is a newline, `\t` a tab.
fn decode(command: &str) -> String {
    command.replace("\\n", "\n").replace("\\t", "\t")
}

/// The verdict the corpus gives (setup, command), or None when the line is absent.
fn corpus_verdict(setup: &str, command: &str) -> Option<&'static str> {
    CORPUS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut p = l.splitn(3, '\t');
            let (v, s, c) = (p.next()?, p.next()?, p.next()?);
            (s == setup && c == command).then_some(v)
        })
        .next()
}

/// Which protected ref the command changes.
#[derive(Clone, Copy, Debug)]
enum Watch {
    /// `refs/heads/main` of `origin.git` moves or is deleted.
    OriginMain,
    /// `refs/heads/main` of `work` moves (e.g. a commit lands on it) or is deleted/renamed.
    LocalMain,
}

// Preparations, run (with the same isolated environment) before the command. They bypass
// the guard on purpose: they only give the command something new to push or move.
/// A new commit on feat (adds f.txt); the checked-out branch is restored.
const FEAT_AHEAD: &str = "b=$(git symbolic-ref -q --short HEAD); git checkout -q feat && echo f > f.txt && git add f.txt && git commit -q -m 'feat work' && git checkout -q $b";
/// A new commit on the local main (adds m.txt); the checked-out branch is restored.
const MAIN_AHEAD: &str = "b=$(git symbolic-ref -q --short HEAD); git checkout -q main && echo m > m.txt && git add m.txt && git commit -q -m 'main work' && git checkout -q $b";
/// FEAT_AHEAD, and origin's feat gets it too.
const REMOTE_FEAT_AHEAD: &str = "b=$(git symbolic-ref -q --short HEAD); git checkout -q feat && echo f > f.txt && git add f.txt && git commit -q -m 'feat work' && git push -q origin feat && git checkout -q $b";
/// Origin's main gets a commit the local main does not have.
const REMOTE_MAIN_AHEAD: &str = "b=$(git symbolic-ref -q --short HEAD); git checkout -q feat && echo f > f.txt && git add f.txt && git commit -q -m 'feat work' && git push -q origin feat:main && git checkout -q $b";
/// A staged change, so a plain `git commit -m x` has something to commit.
const STAGED: &str = "echo change >> README.md && git add README.md";
/// A new commit on the detached HEAD.
const DETACHED_AHEAD: &str = "git commit -q --allow-empty -m detached";
/// origin.git refuses to delete its HEAD branch by default (receive.denyDeleteCurrent); a
/// hosting server configured otherwise does not.
const ORIGIN_ALLOWS_DELETE: &str =
    "git --git-dir=../origin.git config receive.denyDeleteCurrent ignore";
/// origin.git does not advertise push options by default; GitHub and GitLab do.
const ORIGIN_PUSH_OPTIONS: &str =
    "git --git-dir=../origin.git config receive.advertisePushOptions true";

#[derive(Clone, Copy)]
struct Case {
    setup: &'static str,
    prep: &'static [&'static str],
    /// As written in the corpus (`\n` encoding).
    command: &'static str,
    watch: Watch,
}

const fn case(
    setup: &'static str,
    prep: &'static [&'static str],
    command: &'static str,
    watch: Watch,
) -> Case {
    Case {
        setup,
        prep,
        command,
        watch,
    }
}

use Watch::{LocalMain, OriginMain};

/// Denied corpus cases: each must change its watched ref when really run.
const DENIED: &[Case] = &[
    // push: explicit refspec forms
    case(
        "feat",
        &[FEAT_AHEAD],
        "git push origin HEAD:main",
        OriginMain,
    ),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git push origin +feat:main",
        OriginMain,
    ),
    case("feat", &[FEAT_AHEAD], "git push origin @:main", OriginMain),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git push origin feat:refs/heads/main",
        OriginMain,
    ),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git push ../origin.git HEAD:main",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "git push origin main --force",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "git push --force --force-with-lease origin main",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "git push origin 'refs/heads/*:refs/heads/*'",
        OriginMain,
    ),
    case("feat", &[MAIN_AHEAD], "git push origin :", OriginMain),
    case(
        "feat",
        &[MAIN_AHEAD],
        "git push origin \\\\nmain",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD, ORIGIN_PUSH_OPTIONS],
        "git push -ofoo origin main",
        OriginMain,
    ),
    case("main", &[MAIN_AHEAD], "git push", OriginMain),
    case(
        "detached",
        &[DETACHED_AHEAD],
        "git push origin HEAD:main",
        OriginMain,
    ),
    // push: --all, --mirror (by prefix), deletes
    case("feat", &[MAIN_AHEAD], "git push --all", OriginMain),
    case("feat", &[MAIN_AHEAD], "git push --mir origin", OriginMain),
    case(
        "feat",
        &[ORIGIN_ALLOWS_DELETE],
        "git push origin :main",
        OriginMain,
    ),
    case(
        "feat",
        &[ORIGIN_ALLOWS_DELETE],
        "git push --del origin main",
        OriginMain,
    ),
    // push with no refspec: push.default, remote.<r>.push, remote.<r>.mirror, -c, GIT_CONFIG_*
    case(
        "feat,cfg:push.default=upstream,cfg:branch.feat.merge=refs/heads/main",
        &[FEAT_AHEAD],
        "git push",
        OriginMain,
    ),
    case(
        "feat,cfg:push.default=upstream,cfg:branch.feat.merge=refs/heads/main",
        &[FEAT_AHEAD],
        "git push origin feat",
        OriginMain,
    ),
    case(
        "feat,cfg:push.default=matching",
        &[MAIN_AHEAD],
        "git push",
        OriginMain,
    ),
    case(
        "feat,cfg:remote.origin.push=refs/heads/feat:refs/heads/main",
        &[FEAT_AHEAD],
        "git push",
        OriginMain,
    ),
    case(
        "feat,cfg:remote.origin.push=refs/heads/feat:refs/heads/main",
        &[FEAT_AHEAD],
        "git push origin feat",
        OriginMain,
    ),
    case(
        "feat,cfg:remote.origin.mirror=true",
        &[MAIN_AHEAD],
        "git push",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "git -c push.default=matching push",
        OriginMain,
    ),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git -c remote.origin.push=HEAD:refs/heads/main push",
        OriginMain,
    ),
    case(
        "feat,cfg:branch.feat.merge=refs/heads/main",
        &[FEAT_AHEAD],
        "git -c push.default=upstream push",
        OriginMain,
    ),
    // config and upstream changed by an earlier segment of the same command
    case("feat", &[FEAT_AHEAD], "git config remote.origin.push refs/heads/feat:refs/heads/main && git push", OriginMain),
    case("feat", &[FEAT_AHEAD], "printf '[remote \"origin\"]\\n\\tpush = HEAD:refs/heads/main\\n' >> .git/config && git push", OriginMain),
    case("feat", &[FEAT_AHEAD], "git branch -u origin/main && git -c push.default=upstream push", OriginMain),
    case("feat", &[], "git clone -q ../origin.git c2 && cd c2 && git commit --allow-empty -m x && git push origin HEAD:main", OriginMain),
    // aliases
    case(
        "feat",
        &[FEAT_AHEAD],
        "git -c alias.p=push p origin HEAD:main",
        OriginMain,
    ),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git -c alias.p='!git push origin HEAD:main' p",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "XV=push git --config-env=alias.q=XV q origin main",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0=push git p origin main",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "GIT_CONFIG_PARAMETERS=\"'alias.p'='push'\" git p origin main",
        OriginMain,
    ),
    case(
        "feat,cfg:alias.pm=push origin HEAD:main",
        &[FEAT_AHEAD],
        "git pm",
        OriginMain,
    ),
    case(
        "feat,cfg:alias.ship=!git push origin HEAD:main",
        &[FEAT_AHEAD],
        "git ship",
        OriginMain,
    ),
    case(
        "main,cfg:alias.p=status",
        &[MAIN_AHEAD],
        "git -c alias.p=push p origin main",
        OriginMain,
    ),
    // wrappers, shells, control flow, interpreters
    case(
        "feat",
        &[MAIN_AHEAD],
        "env -i git push origin main",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "timeout 5 git push origin main",
        OriginMain,
    ),
    case("feat", &[MAIN_AHEAD], "\\git push origin main", OriginMain),
    case(
        "feat",
        &[MAIN_AHEAD],
        "/usr/bin/git push origin main",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "bash -lc 'git push origin main'",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "echo 'git push origin main' | bash",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "bash <<'EOF'\\ngit push origin main\\nEOF",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "echo main | xargs git push origin",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "eval 'git push origin main'",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "G=git; $G push origin main",
        OriginMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "python3 -c 'import os; os.system(\"git push origin main\")'",
        OriginMain,
    ),
    case(
        "main",
        &[MAIN_AHEAD],
        "git push origin main; Write-Host done",
        OriginMain,
    ),
    case("feat", &[MAIN_AHEAD], "find . -maxdepth 0 -exec git push origin main \\;", OriginMain),
    case("feat", &[MAIN_AHEAD], "trap 'git push origin main' EXIT", OriginMain),
    case("feat", &[MAIN_AHEAD], "source /dev/stdin <<< 'git push origin main'", OriginMain),
    case("feat", &[MAIN_AHEAD], "git -c core.fsmonitor='git push origin main; :' status", OriginMain),
    // compound state: switch/checkout, cd, -C, subshells
    case(
        "feat",
        &[STAGED],
        "git switch main && git commit -m x",
        LocalMain,
    ),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git checkout main; git merge feat",
        LocalMain,
    ),
    case(
        "feat",
        &[STAGED],
        "git switch - && git commit -m x",
        LocalMain,
    ),
    case(
        "feat",
        &[STAGED],
        "git symbolic-ref HEAD refs/heads/main && git commit -m x",
        LocalMain,
    ),
    case(
        "feat",
        &[],
        "git worktree add ../wt main && cd ../wt && git commit --allow-empty -m x",
        LocalMain,
    ),
    case("main", &[STAGED], "cd sub && git commit -m x", LocalMain),
    case(
        "main",
        &[STAGED],
        "(cd ../outside); git commit -m x",
        LocalMain,
    ),
    case(
        "main",
        &[STAGED],
        "git -C ../outside -C ../work commit -m x",
        LocalMain,
    ),
    // the verbs on main
    case("main", &[FEAT_AHEAD], "git merge feat", LocalMain),
    case("main", &[FEAT_AHEAD], "git cherry-pick feat", LocalMain),
    case("main", &[FEAT_AHEAD], "git merge --ff-only feat", LocalMain),
    case("main", &[STAGED], "git --work-tree=../outside commit -m x", LocalMain),
    case(
        "main",
        &[REMOTE_FEAT_AHEAD],
        "git reset --hard origin/feat",
        LocalMain,
    ),
    case("main", &[REMOTE_MAIN_AHEAD], "git pull", LocalMain),
    case("main", &[], "git branch -m trunk", LocalMain),
    case("feat", &[FEAT_AHEAD], "git rebase feat main", LocalMain),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git rebase -x 'git push origin feat:main' origin/main",
        OriginMain,
    ),
    // ref movers that need no checkout
    case("feat", &[FEAT_AHEAD], "git branch -f main", LocalMain),
    case("feat", &[], "git branch -D main", LocalMain),
    case(
        "feat",
        &[],
        "git branch --merged | xargs git branch -d",
        LocalMain,
    ),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git update-ref refs/heads/main feat",
        LocalMain,
    ),
    case("main", &[FEAT_AHEAD], "git update-ref HEAD feat", LocalMain),
    case(
        "feat",
        &[FEAT_AHEAD],
        "echo 'update refs/heads/main HEAD' | git update-ref --stdin",
        LocalMain,
    ),
    case("feat", &[FEAT_AHEAD], "git checkout -B main", LocalMain),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git worktree add -B main ../wt",
        LocalMain,
    ),
    case("feat", &[FEAT_AHEAD], "git fetch . feat:main", LocalMain),
    case(
        "feat",
        &[REMOTE_FEAT_AHEAD],
        "git fetch origin feat:main",
        LocalMain,
    ),
    case("feat", &[], "git push . :main", LocalMain),
    case(
        "feat",
        &[REMOTE_FEAT_AHEAD],
        "GIT_DIR=../origin.git git branch -f main feat",
        OriginMain,
    ),
    case(
        "feat",
        &[REMOTE_FEAT_AHEAD],
        "git --git-dir=../origin.git update-ref refs/heads/main refs/heads/feat",
        OriginMain,
    ),
];

/// Allowed corpus cases: each must succeed and leave both mains untouched.
const CONTROLS: &[Case] = &[
    case("feat", &[FEAT_AHEAD], "git push origin feat", OriginMain),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git push --force-with-lease=main origin feat",
        OriginMain,
    ),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git push -n origin HEAD:main",
        OriginMain,
    ),
    case(
        "feat",
        &[FEAT_AHEAD],
        "git push origin 'refs/heads/*:refs/heads/backup/*'",
        OriginMain,
    ),
    case(
        "feat,cfg:push.default=upstream,cfg:branch.feat.merge=refs/heads/main",
        &[FEAT_AHEAD],
        "git push origin HEAD",
        OriginMain,
    ),
    case(
        "feat,cfg:branch.feat.merge=refs/heads/main",
        &[FEAT_AHEAD],
        "git push origin feat",
        OriginMain,
    ),
    case(
        "feat,cfg:remote.origin.push=refs/heads/feat:refs/heads/main",
        &[FEAT_AHEAD],
        "git push origin HEAD",
        OriginMain,
    ),
    case(
        "feat,cfg:push.default=matching",
        &[MAIN_AHEAD],
        "git push --tags",
        OriginMain,
    ),
    case(
        "main",
        &[MAIN_AHEAD],
        "git -c alias.status=push status origin main",
        OriginMain,
    ),
    case(
        "main",
        &[STAGED],
        "git switch feat && git commit -m x",
        LocalMain,
    ),
    case(
        "main",
        &[STAGED],
        "(git switch feat); git commit -m x",
        LocalMain,
    ),
    case(
        "feat",
        &[MAIN_AHEAD],
        "git checkout main -- . && git commit -m x",
        LocalMain,
    ),
    case("feat", &[FEAT_AHEAD], "git update-ref main HEAD", LocalMain),
    case("main", &[], "git branch -c main backup", LocalMain),
];

/// bash -c `script` in `work`, isolated like `support::repo::git_command`, with `HOME` at
/// `outside`, no editor, stdin closed and a deadline. Returns (exit code, output).
fn run(repo: &ScratchRepo, script: &str) -> (Option<i32>, String) {
    let log = repo.dir.join(format!("run-{}.log", std::process::id()));
    let out = std::fs::File::create(&log).unwrap();
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(repo.work())
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env("HOME", repo.dir.join("outside"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .env("GIT_EDITOR", "true")
        .env("GIT_SEQUENCE_EDITOR", "true")
        .env("GIT_MERGE_AUTOEDIT", "no")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    (status, std::fs::read_to_string(&log).unwrap_or_default())
}

/// One [`ScratchRepo`] per distinct setup, built once; each case runs in a copy of it (a
/// plain file copy, without the hook samples, with the absolute paths in `work/.git/config`
/// rewritten), which keeps the test fast without sharing any repository between cases.
struct Templates(std::collections::HashMap<&'static str, ScratchRepo>);

impl Templates {
    fn new(cases: &'static [Case]) -> Templates {
        let mut setups: Vec<&'static str> = cases.iter().map(|c| c.setup).collect();
        setups.sort_unstable();
        setups.dedup();
        let map = std::thread::scope(|s| {
            let handles: Vec<_> = setups
                .iter()
                .map(|&setup| s.spawn(move || (setup, ScratchRepo::new("danger-template", setup))))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        Templates(map)
    }

    fn instance(&self, setup: &str) -> ScratchRepo {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let template = &self.0[setup];
        let dir = crate::support::scratch_root().join(format!(
            "dia-repo-{}-danger-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        copy_dir(&template.dir, &dir);
        let config = dir.join("work/.git/config");
        let text = std::fs::read_to_string(&config).unwrap();
        let (from, to) = (template.dir.to_str().unwrap(), dir.to_str().unwrap());
        assert!(
            text.contains(from),
            "the clone's config names its origin by absolute path"
        );
        std::fs::write(&config, text.replace(from, to)).unwrap();
        ScratchRepo { dir }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            if entry.file_name() == "hooks" {
                // only git's *.sample files: not needed, and half of all the files
                std::fs::create_dir_all(&target).unwrap();
                continue;
            }
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Runs one case; returns a failure description, if any.
fn check(templates: &Templates, case: &Case, expect_change: bool) -> Option<String> {
    let expected = if expect_change { "deny" } else { "allow" };
    match corpus_verdict(case.setup, case.command) {
        Some(v) if v == expected => {}
        other => {
            return Some(format!(
                "[{}] {:?}: the corpus has {other:?}, this test expects {expected}",
                case.setup, case.command
            ))
        }
    }
    let repo = templates.instance(case.setup);
    for prep in case.prep {
        let (code, out) = run(&repo, prep);
        if code != Some(0) {
            return Some(format!(
                "[{}] {:?}: preparation {prep:?} failed: {out}",
                case.setup, case.command
            ));
        }
    }
    let before = (repo.origin_ref("main"), repo.local_ref("main"));
    let (code, out) = run(&repo, &decode(case.command));
    let after = (repo.origin_ref("main"), repo.local_ref("main"));
    let describe = |what: &str| {
        format!(
            "[{}] {:?}: {what}\n    exit {code:?}; origin main {:?} -> {:?}; local main {:?} -> {:?}\n    output: {}",
            case.setup,
            case.command,
            before.0,
            after.0,
            before.1,
            after.1,
            out.trim().replace('\n', "\n            ")
        )
    };
    if expect_change {
        let (was, is) = match case.watch {
            Watch::OriginMain => (&before.0, &after.0),
            Watch::LocalMain => (&before.1, &after.1),
        };
        if was == is {
            return Some(describe(&format!("{:?} did not change", case.watch)));
        }
    } else {
        if code != Some(0) {
            return Some(describe("the control command failed"));
        }
        if before != after {
            return Some(describe("a protected main changed"));
        }
    }
    None
}

fn check_all(cases: &'static [Case], expect_change: bool) -> Vec<String> {
    let templates = Templates::new(cases);
    let threads = 4;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                if let Some(f) = check(&templates, case, expect_change) {
                    failures.lock().unwrap().push(f);
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

fn have(program: &str) -> bool {
    Command::new("bash")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Programs some sampled commands need beyond git and bash; a case whose program is
/// missing on this machine is skipped (and said so), never failed.
const OPTIONAL: &[&str] = &[
    "python3",
    "stdbuf",
    "timeout",
    "nice",
    "xargs",
    "find",
    "/usr/bin/git",
];

fn runnable(cases: &'static [Case]) -> &'static [Case] {
    let missing: Vec<&str> = OPTIONAL
        .iter()
        .copied()
        .filter(|p| {
            if p.starts_with('/') {
                !Path::new(p).exists()
            } else {
                !have(p)
            }
        })
        .collect();
    if missing.is_empty() {
        return cases;
    }
    let kept: Vec<Case> = cases
        .iter()
        .filter(|c| {
            let skip = missing.iter().any(|p| c.command.contains(p));
            if skip {
                eprintln!("skipped (needs one of {missing:?}): {}", c.command);
            }
            !skip
        })
        .copied()
        .collect();
    Vec::leak(kept)
}

#[test]
fn denied_commands_really_change_a_protected_ref() {
    assert!(
        have("git") && have("bash"),
        "git and bash are needed on PATH"
    );
    let cases = runnable(DENIED);
    assert!(
        cases.len() >= 25,
        "only {} denied cases can run here",
        cases.len()
    );
    let failures = check_all(cases, true);
    assert!(
        failures.is_empty(),
        "{} of {} denied corpus commands did not change the protected ref:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn allowed_controls_leave_main_alone() {
    let failures = check_all(CONTROLS, false);
    assert!(
        failures.is_empty(),
        "{} of {} allowed controls misbehaved:\n{}",
        failures.len(),
        CONTROLS.len(),
        failures.join("\n")
    );
}
