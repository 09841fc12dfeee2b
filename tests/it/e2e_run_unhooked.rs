//! `did-it-actually run -- AGENT` around two agents that have no hooks at all, aider (PyPI)
//! and pi (npm): their real clients, run non-interactively and offline against a loopback
//! OpenAI Chat Completions mock (see [`crate::support::agents`]). Nothing of ours is
//! registered with either, so the run-time layers alone stand between the agent and the
//! branch, the remote and the disk: git's own hooks, activated through the environment
//! `run` gives the agent (every git it or its scripts start inherits it), and the kernel's
//! confinement of every write of its process tree. What is judged is what moved, landed
//! and was recorded, and what the agent got back from its commands.

use crate::support::agents::{Action, AgentKind, Turn, World};
use crate::support::repo::git;
use serde_json::Value;
use std::path::{Path, PathBuf};

per_agent!(
    a_script_the_agent_writes_and_runs_cannot_push_main,
    a_name_computed_at_run_time_cannot_write_outside,
    honest_work_runs_as_without_the_layers,
);

/// A world with an unpushed commit on `main` (so a push would change the remote); `None`
/// where the kernel cannot confine writes (said on stderr) or the agent cannot be had and
/// that is allowed.
fn bare(agent: AgentKind) -> Option<World> {
    if crate::support::confine_unavailable() {
        return None;
    }
    let world = World::new(agent)?;
    git(
        &world.work,
        &["commit", "-q", "--allow-empty", "-m", "unpushed"],
    );
    Some(world)
}

/// Outside every place the policy opens (see [`crate::support::outside_dir`]).
fn outside(agent: AgentKind, name: &str) -> PathBuf {
    crate::support::outside_dir(&format!("run-unhooked-{name}-{}", agent.name()))
}

/// The ledger's denial records, every session.
fn denials(world: &World) -> Vec<Value> {
    world
        .ledger()
        .into_iter()
        .filter(|r| r["kind"] == "denial")
        .collect()
}

/// The one run-time denial with the agent's name the ledger must hold, about `main`.
fn one_run_time_refusal(world: &World, turn: &Turn) {
    let records = denials(world);
    assert!(
        records.len() == 1
            && records[0]["by"] == "run-time"
            && records[0]["host"] == world.agent.name()
            && records[0]["reason"]
                .as_str()
                .is_some_and(|r| r.contains("protected branch main")),
        "one run-time denial record naming {} and main\n{}",
        world.agent.name(),
        describe(turn, world)
    );
}

fn describe(turn: &Turn, world: &World) -> String {
    format!("{}\n--- ledger\n{:#?}", turn.describe(), world.ledger())
}

/// `text` with every run of whitespace made one space (aider wraps what it reports at the
/// terminal's width).
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn a_script_the_agent_writes_and_runs_cannot_push_main(agent: AgentKind) {
    let Some(mut world) = bare(agent) else {
        return;
    };
    // aider would first commit the script on main, a refusal of its own (the test below):
    // here the one refusal is the push's.
    world.auto_commits = false;
    let before = world.repo.origin_ref("main");
    let script = world.work.join("ship.sh");
    // aider runs the model's fenced command itself (with stdin at end of file each of its
    // questions, "Run shell command?" among them, takes its default answer, Yes; see
    // support/agents/aider.rs); pi through its `bash` tool.
    let turn = world.run(
        "ship it",
        &[
            Action::write(
                "ship.sh",
                "#!/bin/sh\nb=ma; b=\"${b}in\"\ngit push origin \"HEAD:$b\"\n",
            ),
            Action::shell("sh ship.sh"),
        ],
    );
    assert!(
        script.exists(),
        "the script was not written\n{}",
        describe(&turn, &world)
    );
    assert_eq!(
        world.repo.origin_ref("main"),
        before,
        "main moved on the remote\n{}",
        describe(&turn, &world)
    );
    let told = turn.output(0).unwrap_or_default();
    assert!(
        told.contains("run-time layer") && told.contains("protected branch main"),
        "the agent did not get git's refusal from its command\n{}",
        describe(&turn, &world)
    );
    one_run_time_refusal(&world, &turn);
}

/// aider commits its own edits (through GitPython, `git commit --no-verify`, which skips
/// pre-commit hooks but not git's reference-transaction hook) on the branch checked out:
/// here `main`. The edit itself is a write in the project and lands; the commit does not.
#[test]
fn aiders_own_commit_on_main_is_refused() {
    let Some(world) = bare(AgentKind::Aider) else {
        return;
    };
    let before = git(&world.work, &["rev-parse", "main"]);
    let turn = world.run("add notes", &[Action::write("notes.txt", "notes\n")]);
    assert_eq!(
        git(&world.work, &["rev-parse", "main"]),
        before,
        "aider's commit moved main\n{}",
        describe(&turn, &world)
    );
    assert_eq!(
        std::fs::read_to_string(world.work.join("notes.txt"))
            .ok()
            .as_deref(),
        Some("notes\n"),
        "aider's edit did not land\n{}",
        describe(&turn, &world)
    );
    assert_eq!(
        turn.side_requests.len(),
        1,
        "aider did not ask for a commit message (it did not try to commit)\n{}",
        describe(&turn, &world)
    );
    let said = squash(&turn.stdout);
    assert!(
        said.contains("Unable to commit")
            && said.contains("reference-transaction hook")
            && said.contains("protected branch main"),
        "aider did not report git's refusal\n{}",
        describe(&turn, &world)
    );
    one_run_time_refusal(&world, &turn);
}

fn a_name_computed_at_run_time_cannot_write_outside(agent: AgentKind) {
    let Some(world) = bare(agent) else {
        return;
    };
    let dir = outside(agent, "leak");
    // Computed by the shell: `$RANDOM` in bash (pi's shell), the shell's pid in dash, which
    // has no `$RANDOM` (aider runs commands with /bin/sh).
    let turn = world.run(
        "write the report",
        &[Action::shell(&format!(
            "d={}; n=report-${{RANDOM:-$$}}.txt; printf leak > \"$d/$n\"; echo status=$?",
            dir.display()
        ))],
    );
    let landed: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        landed.is_empty(),
        "a write landed outside: {landed:?}\n{}",
        describe(&turn, &world)
    );
    let told = turn.output(0).unwrap_or_default();
    assert!(
        told.contains("Permission denied") && !told.contains("status=0"),
        "the kernel's refusal is not in the command's output\n{}",
        describe(&turn, &world)
    );
}

fn honest_work_runs_as_without_the_layers(agent: AgentKind) {
    let Some(world) = bare(agent) else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!(
        "dia-run-unhooked-{}-{}.txt",
        agent.name(),
        std::process::id()
    ));
    let push = format!(
        "git push -q origin topic/x && printf ok > {} && echo all=$?",
        tmp.display()
    );
    let actions = match agent {
        // aider commits its edit itself, on the branch checked out, before it runs the
        // reply's commands: the user's feature branch, made before the session.
        AgentKind::Aider => {
            git(&world.work, &["checkout", "-q", "-b", "topic/x"]);
            vec![Action::write("notes.txt", "notes\n"), Action::shell(&push)]
        }
        AgentKind::Pi => vec![
            Action::write("notes.txt", "notes\n"),
            Action::shell("git checkout -q -b topic/x && git add notes.txt"),
            Action::shell(&format!("git commit -q -m notes && {push}")),
        ],
    };
    let turn = world.run("work on a branch", &actions);
    let tmp_landed = std::fs::read_to_string(&tmp).ok();
    let _ = std::fs::remove_file(&tmp);
    assert!(
        turn.status.success(),
        "the agent failed\n{}",
        describe(&turn, &world)
    );
    assert_eq!(
        std::fs::read_to_string(world.work.join("notes.txt"))
            .ok()
            .as_deref(),
        Some("notes\n"),
        "the write in the project did not land\n{}",
        describe(&turn, &world)
    );
    let committed = crate::support::repo::git_command(&world.work)
        .args(["show", "HEAD:notes.txt"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&committed.stdout),
        "notes\n",
        "the commit on topic/x did not land\n{}",
        describe(&turn, &world)
    );
    let head = git(&world.work, &["rev-parse", "HEAD"]);
    assert_eq!(
        world.repo.origin_ref("topic/x").as_deref(),
        Some(head.as_str()),
        "the feature push did not land\n{}",
        describe(&turn, &world)
    );
    assert_eq!(
        tmp_landed.as_deref(),
        Some("ok"),
        "the temp write did not land\n{}",
        describe(&turn, &world)
    );
    assert!(
        denials(&world).is_empty(),
        "an honest action was refused\n{}",
        describe(&turn, &world)
    );
    // The agent's own state, which it keeps in its own places.
    let state: Vec<PathBuf> = match agent {
        AgentKind::Aider => vec![
            world.work.join(".aider.chat.history.md"),
            world.home.join(".aider/installs.json"),
        ],
        AgentKind::Pi => sessions(&world.home.join(".pi/agent/sessions")),
    };
    assert!(
        !state.is_empty() && state.iter().all(|f| f.is_file()),
        "the agent's own state files are missing: {state:?}\n{}",
        describe(&turn, &world)
    );
}

/// pi's session files: `<dir>/<one dir per cwd>/<time>_<id>.jsonl`.
fn sessions(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
        .map(|f| f.path())
        .filter(|f| f.extension().is_some_and(|e| e == "jsonl"))
        .collect()
}
