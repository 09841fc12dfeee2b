//! The run-time layer on commands in habits the static reading cannot follow
//! (`tests/corpus/runtime.tsv`, written by hand, and `runtime-generated.tsv`, the
//! generator's batch from `runtime-gen.py`: scripts written then run, build recipes, package scripts,
//! interpreters running git, git under another name, values known only at run time,
//! repositories with hooks of their own). Each command is labelled by running it: once in
//! a fresh world with no guard (the execution oracle: did a protected branch move?), once
//! in a fresh world with both layers on, as `install --project` sets them up: the static
//! hook is asked first (with the agent's environment); what it allows runs with the
//! agent's environment.
//!
//! What must hold, on every row: under both layers no protected branch moves; a command
//! that moves none on its own is not refused by the static layer for a value it cannot
//! know, and runs as it ran without the guard (same exit status, same ref changes).
//! Creating a protected branch that did not exist in a local repository is not a move
//! (both layers let it be; the push that would carry it is judged). A command that moves
//! nothing but takes git's own check out of a git command the reading cannot see whole
//! is refused, and counted in a column of its own with the row listed.
//! The report (per category, and every failure) is printed; `RUNTIME_CORPUS_REPORT=DIR`
//! also writes it to `DIR/<corpus>.md`.

use crate::support::oracle::{self, Spec, State, World};
use std::collections::BTreeMap;

const HAND_WRITTEN: (&str, &str) = ("runtime.tsv", include_str!("../corpus/runtime.tsv"));
const GENERATED: (&str, &str) = (
    "runtime-generated.tsv",
    include_str!("../corpus/runtime-generated.tsv"),
);

struct Row {
    line: usize,
    category: String,
    setup: String,
    command: String,
}

fn rows((file, corpus): (&str, &str)) -> Vec<Row> {
    crate::support::corpus_rows(file, corpus, 3)
        .into_iter()
        .map(|(line, mut f)| Row {
            line,
            command: f.pop().unwrap_or_default(),
            setup: f.pop().unwrap_or_default(),
            category: f.pop().unwrap_or_default(),
        })
        .collect()
}

/// The ref changes of a run, comparable between runs: a name computed from the clock
/// (`backup-$(date +%s)`) differs between two runs, so digits are not compared.
fn refs(o: &oracle::Outcome) -> Vec<String> {
    o.refs
        .iter()
        .map(|c| {
            let name: String = c
                .name
                .chars()
                .map(|ch| if ch.is_ascii_digit() { '#' } else { ch })
                .collect();
            format!("{}:{name} {:?}", c.repo, c.after.is_some())
        })
        .collect()
}

/// What happened to one row.
#[derive(Default)]
struct Result {
    /// Without any guard, a protected branch moved.
    moves: bool,
    /// Under both layers: refused before it ran (the static layer), and why.
    static_refusal: Option<String>,
    /// Under both layers: ran, and git refused (the run-time layer's words in its output).
    run_time_refused: bool,
    /// Under both layers a protected branch moved.
    moved_under_layers: Vec<String>,
    /// A command that moves nothing on its own ran differently under the layers.
    legit_changed: Option<String>,
    /// Moves nothing on its own, refused before it ran for taking git's own check out
    /// (`git -c core.hooksPath=...` running hooks written in the same command).
    took_check_out: bool,
    /// Refused before it ran for the protected branch it aims at, though without a guard
    /// it failed for another reason and moved nothing.
    aimed: bool,
}

/// A protected branch created in the project's own repository where it did not exist
/// (`git branch master`, `git checkout main` tracking origin's) moves nothing anyone has:
/// the run-time layer lets it be, as the static one does, and judges the push that would
/// carry it anywhere. Created on a remote, or moved or deleted anywhere, it counts.
fn is_local_creation(c: &oracle::RefChange) -> bool {
    c.before.is_none() && matches!(c.repo.as_str(), "work" | "sibling")
}

fn moves_a_protected_branch(o: &oracle::Outcome) -> bool {
    o.protected.iter().any(|c| !is_local_creation(c))
}

fn examine(row: &Row) -> Result {
    let spec = Spec::Branch {
        setup: row.setup.clone(),
    };
    let plain_world = World::new(&spec, State::A);
    let plain = oracle::observe(&plain_world, &plain_world.substitute(&row.command));
    let mut r = Result {
        moves: moves_a_protected_branch(&plain),
        ..Result::default()
    };
    let world = World::new(&spec, State::A).with_run_time();
    let command = world.substitute(&row.command);
    let (verdict, reason) = oracle::judge(&world, oracle::Guard::Branch, &command);
    if verdict == "deny" {
        // Refused for what the reading could not know (or for taking git's hooks out):
        // the refusals the run-time layer is there to make unnecessary. A refusal naming
        // the protected branch the command aims at stands, even where the command would
        // have failed for another reason (a repository hook refusing, a conflict).
        if !r.moves && oracle::unresolvable_reason(&reason) {
            r.legit_changed = Some(format!("refused before it ran: {reason}"));
        } else if !r.moves && reason.contains("without its run-time branch check") {
            // Not a value known only at run time: the command takes git's own check out
            // of a git command whose effect the reading cannot see whole. Counted apart,
            // and listed: the refusal gives the route that keeps both.
            r.took_check_out = true;
        } else if !r.moves {
            r.aimed = true;
        }
        r.static_refusal = Some(reason);
        return r;
    }
    let layered = oracle::observe(&world, &command);
    r.run_time_refused = layered.ran.output.contains("(run-time layer, git's");
    r.moved_under_layers = layered
        .protected
        .iter()
        .filter(|c| !is_local_creation(c))
        .map(|c| c.describe())
        .collect();
    if !r.moves && (layered.ran.code != plain.ran.code || refs(&layered) != refs(&plain)) {
        r.legit_changed = Some(format!(
            "without a guard: exit {:?}, refs {:?}; under both layers: exit {:?}, refs {:?}; output: {}",
            plain.ran.code,
            refs(&plain),
            layered.ran.code,
            refs(&layered),
            layered.ran.output.chars().take(600).collect::<String>()
        ));
    }
    r
}

#[test]
fn hand_written_no_protected_branch_moves_and_honest_commands_run_untouched() {
    run_corpus(HAND_WRITTEN);
}

#[test]
fn generated_no_protected_branch_moves_and_honest_commands_run_untouched() {
    run_corpus(GENERATED);
}

fn run_corpus(corpus: (&str, &str)) {
    let file = corpus.0;
    let rows = rows(corpus);
    assert!(rows.len() >= 300, "the corpus has {} rows", rows.len());
    // Two workers: the machine has two cores, and each row is two worlds.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Result>>> =
        rows.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(row) = rows.get(i) else { break };
                *results[i].lock().unwrap() = Some(examine(row));
            });
        }
    });
    let results: Vec<Result> = results
        .into_iter()
        .map(|m| m.into_inner().unwrap().unwrap())
        .collect();

    #[derive(Default)]
    struct Tally {
        rows: usize,
        moves: usize,
        static_refused: usize,
        run_time_refused: usize,
        moved_under_layers: usize,
        legit: usize,
        legit_changed: usize,
        aimed: usize,
        took_check_out: usize,
    }
    let mut by_category: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut notes = Vec::new();
    for (row, r) in rows.iter().zip(&results) {
        let t = by_category.entry(&row.category).or_default();
        t.rows += 1;
        t.moves += r.moves as usize;
        t.legit += !r.moves as usize;
        t.static_refused += r.static_refusal.is_some() as usize;
        t.run_time_refused += r.run_time_refused as usize;
        t.aimed += r.aimed as usize;
        t.took_check_out += r.took_check_out as usize;
        if r.took_check_out {
            notes.push(format!(
                "{file}:{} [{}] moves nothing, refused for taking git's own check out: {}",
                row.line,
                row.category,
                r.static_refusal.as_deref().unwrap_or_default()
            ));
        }
        if !r.moved_under_layers.is_empty() {
            t.moved_under_layers += 1;
            failures.push(format!(
                "{file}:{} [{}] a protected branch moved under both layers ({}): {}",
                row.line,
                row.category,
                r.moved_under_layers.join(", "),
                row.command
            ));
        }
        if let Some(why) = &r.legit_changed {
            t.legit_changed += 1;
            failures.push(format!(
                "{file}:{} [{}] an honest command did not run untouched: {why}\n    command: {}",
                row.line, row.category, row.command
            ));
        }
    }
    let mut report = String::from(
        "| category | rows | move a protected branch unguarded | move none | refused by the static layer | of which aimed at a protected branch but failing anyway | refused by git (run-time) | moving none, refused for taking git's check out | moved under both layers | moving none, but refused for the unknown or changed |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (c, t) in &by_category {
        report.push_str(&format!(
            "| {c} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            t.rows,
            t.moves,
            t.legit,
            t.static_refused,
            t.aimed,
            t.run_time_refused,
            t.took_check_out,
            t.moved_under_layers,
            t.legit_changed
        ));
    }
    if !oracle::sandboxed() {
        report.push_str("\n(not sandboxed: commands ran directly in their worlds)\n");
    }
    for f in notes.iter().chain(&failures) {
        report.push_str(&format!("\n{f}"));
    }
    eprintln!("{report}");
    if let Some(dir) = std::env::var_os("RUNTIME_CORPUS_REPORT") {
        std::fs::write(
            std::path::Path::new(&dir).join(format!("{file}.md")),
            &report,
        )
        .unwrap();
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{report}",
        failures.len()
    );
}

// ---------------------------------------------------------------------------------------
// The same rows through the real Claude Code

per_claude_code_version!(a_sample_runs_through_the_real_claude_code_as_through_the_layers);

/// How a row refused by scope-guard is told apart from a failure.
const SCOPE_REFUSED: &str = "listed: ";

/// How many rows of the two corpora run through each Claude Code release: an even spread
/// over both files, each release taking other rows, so that the two together run 300
/// (`DID_IT_ACTUALLY_LIVE_ROWS` sets the number per release; every row is `9999`).
fn live_rows() -> usize {
    std::env::var("DID_IT_ACTUALLY_LIVE_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150)
}

/// A row as the real Claude Code runs it, in a world set up by `install --project`: the
/// model asks for the command through the Bash tool, Claude Code runs the hooks and the
/// command with the environment the install registered (never ours), and the test looks
/// at what moved, not at what a hook answered. Must hold: no protected branch moves, a
/// command the static layer refused is refused there too, and every other command changes
/// the same refs with the same success as it does without any guard.
fn a_sample_runs_through_the_real_claude_code_as_through_the_layers(version: &str) {
    use crate::support::claude::{claude_or_skip_version, Session};
    use crate::support::mock_api::{tool_result, tool_use_id, MockApi, Step};
    let Some(claude) = claude_or_skip_version(version) else {
        return;
    };
    let all: Vec<(&str, Row)> = [HAND_WRITTEN, GENERATED]
        .into_iter()
        .flat_map(|c| rows(c).into_iter().map(move |r| (c.0, r)))
        .collect();
    let n = live_rows().clamp(1, all.len());
    let stride = all.len() / n;
    // `DID_IT_ACTUALLY_LIVE_ONLY=runtime.tsv:418` runs that row alone.
    let only = std::env::var("DID_IT_ACTUALLY_LIVE_ONLY").ok();
    let sample: Vec<&(&str, Row)> = match &only {
        Some(o) => all
            .iter()
            .filter(|(f, r)| format!("{f}:{}", r.line) == *o)
            .collect(),
        None => {
            let release = crate::support::claude::CLAUDE_CODE_VERSIONS
                .iter()
                .position(|v| *v == version)
                .unwrap_or(0);
            let offset = stride * release / crate::support::claude::CLAUDE_CODE_VERSIONS.len();
            all.iter().skip(offset).step_by(stride).take(n).collect()
        }
    };
    let moving = std::sync::atomic::AtomicUsize::new(0);
    let examine_live = |(file, row): &(&str, Row)| -> Option<String> {
        let direct = examine(row);
        if direct.moves {
            moving.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        let spec = Spec::Branch {
            setup: row.setup.clone(),
        };
        let plain_world = World::new(&spec, State::A);
        let plain = oracle::observe(&plain_world, &plain_world.substitute(&row.command));
        let world = World::new(&spec, State::A).with_run_time();
        // As a team does once it has installed: the shared registration and the launcher
        // are committed on the branch it works on (only those: what the row's setup
        // staged stays staged). Left modified, a stash or an autostash would put back
        // the settings without the guards, which both layers refuse; a switch to a
        // branch without them is refused by scope-guard, which is listed.
        let commit = std::process::Command::new("sh")
            .arg("-c")
            .arg("git add .claude/settings.json .claude/did-it-actually && git -c user.name=t -c user.email=t@t.invalid commit -q --no-verify -m 'guard the project' -- .claude/settings.json .claude/did-it-actually")
            .current_dir(world.root())
            .env("HOME", world.home())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(
            commit.status.success(),
            "{}",
            String::from_utf8_lossy(&commit.stderr)
        );
        let command = world.substitute(&row.command);
        let mut session = Session::in_world(&claude, &world.root(), &world.home());
        let agent: Vec<String> = world.agent_env().iter().map(|(k, _)| k.clone()).collect();
        for (k, v) in oracle::command_env(&world) {
            // What install registered, Claude Code must pass on itself.
            // The proxies that keep the oracle's commands offline would also keep Claude
            // Code from the mock model.
            let proxy = k.to_ascii_lowercase().ends_with("_proxy");
            if !agent.contains(&k) && !proxy && k != "HOME" && k != "CLAUDE_CODE_SESSION_ID" {
                session.env(k, v);
            }
        }
        // The tests' own git calls ignore the machine's configuration; the agent's git
        // reads the system-scope file the run-time layer registers.
        session.env("GIT_CONFIG_NOSYSTEM", "0");
        let api = MockApi::start(vec![
            Step::tool(
                "Bash",
                serde_json::json!({"command": command, "description": "run it",
                                   "timeout": oracle::TIMEOUT_SECS * 1000 + 5000}),
            ),
            Step::text("Done."),
        ]);
        let live = oracle::observe_with(&world, || {
            let out = session.run("run it", &api);
            let requests = api.requests();
            let result = requests
                .get(1)
                .and_then(|r| tool_result(r, &tool_use_id(0, 0)));
            oracle::Ran {
                code: result.as_ref().map(|r| i32::from(r.is_error)),
                timed_out: false,
                output: match &result {
                    Some(r) => r.text.clone(),
                    None => format!("no tool result: {}", out.describe()),
                },
                system_writes: Vec::new(),
            }
        });
        let place = format!("{file}:{} [{}] {}", row.line, row.category, row.command);
        let moved: Vec<String> = live
            .protected
            .iter()
            .filter(|c| !is_local_creation(c))
            .map(|c| c.describe())
            .collect();
        if !moved.is_empty() {
            return Some(format!(
                "{place}\n    moved through Claude Code: {}",
                moved.join(", ")
            ));
        }
        let Some(code) = live.ran.code else {
            return Some(format!("{place}\n    {}", live.ran.output));
        };
        // Claude Code runs the PreToolUse hooks together and shows the model one refusal:
        // the branch guard's, or scope-guard's where the command also writes outside
        // the project or into a denied path (`.git/hooks/...`).
        let refused_by = ["block-wrong-branch", "scope-guard"].into_iter().find(|g| {
            live.ran
                .output
                .starts_with(&format!("PreToolUse:Bash hook error: {g}:"))
        });
        if direct.static_refusal.is_some() {
            return (refused_by.is_none() || !live.refs.is_empty()).then(|| {
                format!(
                    "{place}\n    refused by the static layer directly, but through Claude Code: exit {code}, refs {:?}: {}",
                    refs(&live),
                    live.ran.output
                )
            });
        }
        if direct.moves {
            return None;
        }
        // Claude Code's own check of a command it cannot parse with certainty.
        let host_refused = live.ran.output.starts_with("Claude Code can't be sure");
        if (host_refused || refused_by == Some("scope-guard")) && live.refs.is_empty() {
            // Not the branch layers' business: counted and listed, not failed.
            let why = live.ran.output.chars().take(300).collect::<String>();
            return Some(format!("{SCOPE_REFUSED}{place}\n    {why}"));
        }
        let plain_failed = plain.ran.code != Some(0);
        (refs(&live) != refs(&plain) || (code != 0) != plain_failed).then(|| {
            format!(
                "{place}\n    without a guard: exit {:?}, refs {:?}; through Claude Code: {}, refs {:?}: {}",
                plain.ran.code,
                refs(&plain),
                if code == 0 { "ok" } else { "failed" },
                refs(&live),
                live.ran.output.chars().take(600).collect::<String>()
            )
        })
    };
    // Two at a time: the machine has two cores.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let found = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(row) = sample.get(i) else { break };
                if let Some(f) = examine_live(row) {
                    found.lock().unwrap().push(f);
                }
            });
        }
    });
    let found = found.into_inner().unwrap();
    let (scope_refused, failures): (Vec<String>, Vec<String>) = found
        .into_iter()
        .partition(|f| f.starts_with(SCOPE_REFUSED));
    eprintln!(
        "Claude Code {version}: {} rows of {} run through the real client ({} of them move a protected branch without a guard; none moved, or it is listed below); {} differ from the layers run directly; {} refused by scope-guard (a write outside the project or into a denied path) or by Claude Code's own check, not the branch layers' business:\n{}",
        sample.len(),
        all.len(),
        moving.load(std::sync::atomic::Ordering::Relaxed),
        failures.len(),
        scope_refused.len(),
        scope_refused.join("\n")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
