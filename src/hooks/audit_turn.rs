//! audit-turn: when the agent stops, checks what its final message claims against the
//! evidence of the turn (the write log, the turn's tool calls and results in the
//! transcript, the file system and git), and blocks the stop while claims are unbacked,
//! within the loop guard's cap. It also runs completion-promise loops.
//!
//! Nothing here is silent: a cap reached, a transcript that could not be read, lines that
//! were skipped, all reach the user as a system message.

use super::{Context, HookOutcome};
use crate::claims::{self, Change, Claim, Kind};
use crate::git::repo::Repo;
use crate::loop_guard::{self, LoopGuard};
use crate::loops::{self, Promise, Status};
use crate::policy::AuditPolicy;
use crate::protocol::{BatchCall, CallResult, HookInput, Payload, Response, StopInput, Verdict};
use crate::shell::{self, exec::Runs};
use crate::store::{self, SessionId, SessionStore, WriteRecord};
use crate::tools;
use crate::transcript::{self, Event, Turn};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

const HOOK: &str = "audit-turn";
/// A file's modification time may trail the turn's start by this much (clock steps,
/// coarse timestamps) and still count as changed in the turn.
const MTIME_SLACK: Duration = Duration::from_secs(2);
/// How long to wait for the transcript to hold the final message.
const TRANSCRIPT_WAIT: Duration = Duration::from_millis(3000);

/// A claim that is not backed, or a failure the message did not mention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The claim as written (or what failed).
    pub what: String,
    /// Which evidence was looked for and what was found.
    pub why: String,
    /// What would back it.
    pub fix: String,
}

/// The audit of one final message.
#[derive(Debug, Default)]
pub struct Audit {
    /// Every claim and, when backed, the evidence.
    pub claims: Vec<(Claim, Result<String, Finding>)>,
    /// Writes of the turn that did not land and were never repeated successfully.
    pub failures: Vec<Finding>,
    /// Things the reader should know (skipped transcript lines, a missing transcript).
    pub notes: Vec<String>,
}

impl Audit {
    pub fn unbacked(&self) -> Vec<&Finding> {
        self.claims
            .iter()
            .filter_map(|(_, r)| r.as_ref().err())
            .chain(&self.failures)
            .collect()
    }
}

/// The evidence of a turn.
pub struct Evidence<'a> {
    pub turn: &'a Turn,
    /// Write-log records of this turn.
    pub records: &'a [WriteRecord],
    pub cwd: &'a Path,
    pub policy: &'a AuditPolicy,
    pub transcript_ok: bool,
}

/// Audits `message` against the evidence.
pub fn audit(message: &str, ev: &Evidence) -> Audit {
    audit_claims(claims::extract(message), ev)
}

/// Audits claims already read from a message against the evidence.
pub fn audit_claims(claims: Vec<Claim>, ev: &Evidence) -> Audit {
    let mut out = Audit::default();
    if claims.is_empty() {
        // Nothing to back; only the turn's silent write failures remain to report.
        add_turn_findings(&mut out, ev);
        return out;
    }
    // The repository is opened only for the claims that need it.
    let needs_repo = claims
        .iter()
        .any(|c| matches!(c.kind, Kind::File { .. } | Kind::Commit { hash: Some(_) }));
    let repo = if needs_repo {
        Repo::open(ev.cwd, None).ok().flatten()
    } else {
        None
    };
    let root = crate::policy::repo_root(ev.cwd).unwrap_or_else(|| ev.cwd.to_owned());
    let ignored = ignore_set(&ev.policy.ignore_paths);
    let runs = command_runs(ev.turn);
    for claim in claims {
        let needs_transcript = matches!(
            claim.kind,
            Kind::Tests { .. } | Kind::Build | Kind::Lint | Kind::Commit { .. } | Kind::Push { .. }
        );
        if needs_transcript && !ev.transcript_ok {
            out.notes.push(format!(
                "\"{}\" could not be checked without the transcript",
                crate::shell::walk::cut(&claim.sentence)
            ));
            continue;
        }
        let verdict = match &claim.kind {
            Kind::File { .. } if !ev.policy.file_claims => continue,
            Kind::Dir { .. } => continue,
            Kind::Tests { .. } | Kind::Build | Kind::Lint if !ev.policy.test_claims => continue,
            Kind::Commit { .. } | Kind::Push { .. } if !ev.policy.git_claims => continue,
            Kind::File { path, change } => {
                let resolved = resolve_claimed(path, ev, &root);
                if resolved
                    .strip_prefix(&root)
                    .is_ok_and(|rel| ignored.as_ref().is_some_and(|s| s.is_match(rel)))
                {
                    continue;
                }
                file_evidence(&claim, &resolved, change, ev, repo.as_ref())
            }
            Kind::Tests { count } => {
                result_evidence(&claim, "tests", &ev.policy.test_commands, *count, &runs, ev)
            }
            Kind::Build => {
                result_evidence(&claim, "build", &ev.policy.build_commands, None, &runs, ev)
            }
            Kind::Lint => {
                result_evidence(&claim, "lint", &ev.policy.lint_commands, None, &runs, ev)
            }
            Kind::Commit { hash } => {
                commit_evidence(&claim, hash.as_deref(), &runs, repo.as_ref(), ev)
            }
            Kind::Push { branch } => push_evidence(&claim, branch.as_deref(), &runs, ev),
        };
        out.claims.push((claim, verdict));
    }
    add_turn_findings(&mut out, ev);
    out
}

/// What the turn says whatever the message claims: writes that silently did not land,
/// and transcript lines that could not be read.
fn add_turn_findings(out: &mut Audit, ev: &Evidence) {
    out.failures = unclaimed_failures(ev.records);
    if ev.turn.bad_lines > 0 {
        out.notes.push(format!(
            "{} line(s) of the transcript could not be read and were skipped",
            ev.turn.bad_lines
        ));
    }
}

fn ignore_set(patterns: &[String]) -> Option<globset::GlobSet> {
    if patterns.is_empty() {
        return None;
    }
    let mut b = globset::GlobSetBuilder::new();
    for p in patterns {
        if let Ok(g) = crate::policy::path_glob(p) {
            b.add(g);
        }
    }
    b.build().ok()
}

/// Where a path named in a message is: relative to the working directory, else a
/// basename that names exactly one file written in the turn.
fn resolve_claimed(path: &str, ev: &Evidence, root: &Path) -> PathBuf {
    let direct = crate::fsutil::absolute(Path::new(path), ev.cwd);
    if direct.exists() || path.contains('/') {
        return crate::fsutil::canonical(&direct);
    }
    let from_root = root.join(path);
    if from_root.exists() {
        return crate::fsutil::canonical(&from_root);
    }
    let mut candidates: Vec<PathBuf> = ev
        .records
        .iter()
        .map(|r| PathBuf::from(&r.path))
        .filter(|p| p.file_name().is_some_and(|n| n == path))
        .collect();
    candidates.sort();
    candidates.dedup();
    match candidates.as_slice() {
        [one] => one.clone(),
        _ => crate::fsutil::canonical(&direct),
    }
}

fn not_backed(claim: &Claim, why: String, fix: &str) -> Result<String, Finding> {
    Err(Finding {
        what: claim.sentence.clone(),
        why,
        fix: fix.to_owned(),
    })
}

fn file_evidence(
    claim: &Claim,
    path: &Path,
    change: &Change,
    ev: &Evidence,
    repo: Option<&Repo>,
) -> Result<String, Finding> {
    let shown = path.display();
    let here: Vec<&WriteRecord> = ev
        .records
        .iter()
        .filter(|r| Path::new(&r.path) == path)
        .collect();
    if let Some(r) = here.iter().rev().find(|r| r.verified) {
        return Ok(format!(
            "the write log holds a verified {} to {shown} in this turn ({})",
            r.tool,
            r.tool_use_id.as_deref().unwrap_or("?")
        ));
    }
    let failed = here.last();
    let changed = changed_in_turn(path, change, ev, repo);
    match (changed, failed) {
        (Ok(how), _) => Ok(how),
        (Err(_), Some(r)) => not_backed(
            claim,
            format!(
                "the only write to {shown} in this turn did not land ({}: {})",
                outcome_name(r),
                r.reason.as_deref().unwrap_or("no reason recorded")
            ),
            "write the file again and check it landed, or correct the message",
        ),
        (Err(why), None) => not_backed(
            claim,
            why,
            "make the change (or correct the message) before finishing",
        ),
    }
}

fn outcome_name(r: &WriteRecord) -> &'static str {
    r.outcome.name()
}

/// Whether the file system shows the claimed change made in this turn (by a tool the
/// write log does not see, such as Bash).
fn changed_in_turn(
    path: &Path,
    change: &Change,
    ev: &Evidence,
    repo: Option<&Repo>,
) -> Result<String, String> {
    let shown = path.display();
    let exists = path.symlink_metadata().is_ok();
    match change {
        Change::Deleted => {
            return if exists {
                Err(format!(
                    "{shown} still exists and no write in this turn removed it"
                ))
            } else {
                Ok(format!("{shown} is gone"))
            };
        }
        Change::Renamed { to } => {
            let to = crate::fsutil::absolute(Path::new(to), ev.cwd);
            return match (exists, to.exists()) {
                (false, true) => Ok(format!("{shown} is gone and {} exists", to.display())),
                (true, _) => Err(format!("{shown} still exists")),
                (false, false) => Err(format!("{} does not exist", to.display())),
            };
        }
        Change::Modified | Change::Created => {}
    }
    if !exists {
        return Err(format!(
            "{shown} does not exist, and no write to it was recorded in this turn"
        ));
    }
    let recent = match (ev.turn.started, path.metadata().and_then(|m| m.modified())) {
        (Some(start), Ok(mtime)) => mtime + MTIME_SLACK >= start,
        _ => true,
    };
    let differs = repo.and_then(|r| r.differs_from_head(path));
    match (recent, differs) {
        (true, Some(true)) | (true, None) if ev.turn.started.is_some() || differs == Some(true) => {
            Ok(format!("{shown} changed during this turn"))
        }
        (false, _) => Err(format!("no write to {shown} was recorded in this turn, and the file was last modified before the turn started")),
        _ => Err(format!("no write to {shown} was recorded in this turn, and it does not differ from the last commit")),
    }
}

/// A shell command the turn ran, with where it stands and how it ended.
struct Run {
    /// The programs it runs (argv, wrappers and nested shells seen through).
    programs: Vec<Vec<String>>,
    command: String,
    /// Its place in the turn (index of the call).
    at: usize,
    ok: bool,
    output: String,
}

fn command_runs(turn: &Turn) -> Vec<Run> {
    turn.events
        .iter()
        .enumerate()
        .filter_map(|(at, e)| match e {
            Event::ToolUse { id, name, input } if tools::is_shell(name) => {
                let command = input.get("command").and_then(|c| c.as_str())?.to_owned();
                let (is_error, text) = turn.result_of(id)?;
                Some(Run {
                    programs: programs(&command, 0),
                    command,
                    at,
                    ok: !is_error,
                    output: text.to_owned(),
                })
            }
            _ => None,
        })
        .collect()
}

/// Every program a command runs, as argv (static words only), through wrappers and
/// nested shells.
fn programs(command: &str, depth: usize) -> Vec<Vec<String>> {
    let script = shell::parse(command);
    let mut out = Vec::new();
    for cmd in script.simple_commands() {
        match shell::exec::runs(cmd) {
            Runs::Program(inv) => {
                let mut argv = vec![inv.program.clone()];
                argv.extend(inv.args.iter().map(|w| w.text().unwrap_or("").to_owned()));
                out.push(argv);
            }
            Runs::Script { text, .. } if depth < 4 => out.extend(programs(&text, depth + 1)),
            Runs::Commands(cmds) => {
                for c in cmds {
                    out.extend(
                        c.words
                            .first()
                            .and_then(|w| w.text())
                            .map(|p| vec![p.to_owned()]),
                    );
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether argv starts with the words of `pattern` (`cargo test`, `./gradlew test`).
fn runs_command(argv: &[String], pattern: &str) -> bool {
    let words: Vec<&str> = pattern.split_whitespace().collect();
    let Some((first, rest)) = words.split_first() else {
        return false;
    };
    let program = &argv[0];
    let base = program.rsplit('/').next().unwrap_or(program);
    let program_matches = program == first || (!first.contains('/') && base == *first);
    program_matches
        && argv.len() > rest.len()
        && argv[1..=rest.len()].iter().zip(rest).all(|(a, b)| a == b)
}

fn matches_any(run: &Run, patterns: &[String]) -> bool {
    run.programs
        .iter()
        .any(|argv| patterns.iter().any(|p| runs_command(argv, p)))
}

/// The turn's position of its last file write: a write tool call that did not fail, or
/// a shell command that visibly writes a file (other than a test, build or lint run).
fn last_write(turn: &Turn, runs: &[Run], ev: &Evidence) -> Option<usize> {
    let tool_write = turn
        .events
        .iter()
        .enumerate()
        .rev()
        .find_map(|(at, e)| match e {
            Event::ToolUse { id, name, .. }
                if tools::write_kind(name).is_some()
                    && turn.result_of(id).is_some_and(|(err, _)| !err) =>
            {
                Some(at)
            }
            _ => None,
        });
    let checks: Vec<String> = ev
        .policy
        .test_commands
        .iter()
        .chain(&ev.policy.build_commands)
        .chain(&ev.policy.lint_commands)
        .cloned()
        .collect();
    let shell_write = runs
        .iter()
        .rev()
        .find(|r| r.ok && !matches_any(r, &checks) && writes_files(&r.command))
        .map(|r| r.at);
    tool_write.max(shell_write)
}

fn writes_files(command: &str) -> bool {
    shell::parse(command)
        .simple_commands()
        .iter()
        .any(|c| !shell::writes::write_targets(c, &shell::exec::runs(c)).is_empty())
}

/// Whether a run's output reports failures.
fn output_fails(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    text.contains("test result: FAILED")
        || text.contains("FAILED")
        || words.windows(2).any(|w| {
            w[0].trim_matches(|c: char| !c.is_ascii_digit())
                .parse::<u64>()
                .is_ok_and(|n| n > 0)
                && w[1].trim_end_matches([',', '.', ';']).starts_with("failed")
        })
        || text
            .lines()
            .any(|l| l.trim_start().starts_with("error[") || l.trim_start().starts_with("error:"))
}

/// The number of passing tests a runner reported: cargo's `test result: ok. N passed`
/// lines summed (one per test binary), else the first `N passed`.
fn reported_count(text: &str) -> Option<u64> {
    let number_before_passed = |line: &str| {
        let w: Vec<&str> = line.split_whitespace().collect();
        w.windows(2).find_map(|p| {
            (p[1].trim_end_matches([',', ';', '.']) == "passed")
                .then(|| p[0].parse::<u64>().ok())
                .flatten()
        })
    };
    let cargo: Vec<u64> = text
        .lines()
        .filter(|l| l.contains("test result:"))
        .filter_map(number_before_passed)
        .collect();
    if !cargo.is_empty() {
        return Some(cargo.iter().sum());
    }
    text.lines().find_map(number_before_passed)
}

fn result_evidence(
    claim: &Claim,
    what: &str,
    patterns: &[String],
    count: Option<u64>,
    runs: &[Run],
    ev: &Evidence,
) -> Result<String, Finding> {
    if !ev.transcript_ok {
        return not_backed(
            claim,
            format!("the transcript could not be read, so no {what} run of this turn can be seen"),
            "run it again",
        );
    }
    let matching: Vec<&Run> = runs.iter().filter(|r| matches_any(r, patterns)).collect();
    let fix = format!("run the {what} command after your last edit and report its result");
    let Some(last) = matching.last() else {
        return not_backed(
            claim,
            format!(
                "no {what} command ran in this turn (looked for: {})",
                patterns
                    .iter()
                    .take(6)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
                    + ", …"
            ),
            &fix,
        );
    };
    let after = last_write(ev.turn, runs, ev);
    let fresh: Vec<&&Run> = matching
        .iter()
        .filter(|r| after.is_none_or(|w| r.at > w))
        .collect();
    let Some(run) = fresh.last() else {
        return not_backed(
            claim,
            format!(
                "`{}` ran, but before the turn's last file write",
                crate::shell::walk::cut(&last.command)
            ),
            &fix,
        );
    };
    if !run.ok || output_fails(&run.output) {
        return not_backed(
            claim,
            format!(
                "the last {what} run (`{}`) failed",
                crate::shell::walk::cut(&run.command)
            ),
            &fix,
        );
    }
    if let (Some(said), Some(reported)) = (count, reported_count(&run.output)) {
        if said != reported {
            return not_backed(
                claim,
                format!(
                    "the message says {said}, and `{}` reported {reported} passed",
                    crate::shell::walk::cut(&run.command)
                ),
                "report the number the run printed",
            );
        }
    }
    Ok(format!(
        "`{}` ran after the last write and succeeded",
        crate::shell::walk::cut(&run.command)
    ))
}

/// A run of `git <sub>` (after git's global options).
fn git_sub<'r>(run: &'r Run, sub: &str) -> Option<&'r Vec<String>> {
    run.programs.iter().find(|argv| {
        argv[0].rsplit('/').next() == Some("git") && {
            let mut k = 1;
            while argv.get(k).is_some_and(|a| a.starts_with('-')) {
                k += if matches!(argv[k].as_str(), "-C" | "-c") {
                    2
                } else {
                    1
                };
            }
            argv.get(k).map(String::as_str) == Some(sub)
                && !argv
                    .iter()
                    .any(|a| a == "--dry-run" || a == "-n" && sub == "push")
        }
    })
}

fn commit_evidence(
    claim: &Claim,
    hash: Option<&str>,
    runs: &[Run],
    repo: Option<&Repo>,
    ev: &Evidence,
) -> Result<String, Finding> {
    if !ev.transcript_ok {
        return not_backed(
            claim,
            "the transcript could not be read, so no commit of this turn can be seen".into(),
            "commit again",
        );
    }
    let Some(run) = runs
        .iter()
        .rev()
        .find(|r| r.ok && git_sub(r, "commit").is_some())
    else {
        return not_backed(
            claim,
            "no successful `git commit` ran in this turn".into(),
            "commit, then report the commit it made",
        );
    };
    if let Some(h) = hash {
        let found = repo.and_then(|r| r.commit_of(h)).is_some();
        if !found && !run.output.contains(h) {
            return not_backed(
                claim,
                format!(
                    "`{}` ran, but no commit {h} is in the repository",
                    crate::shell::walk::cut(&run.command)
                ),
                "report the hash `git log -1 --format=%h` prints",
            );
        }
    }
    Ok(format!(
        "`{}` succeeded in this turn",
        crate::shell::walk::cut(&run.command)
    ))
}

fn push_evidence(
    claim: &Claim,
    branch: Option<&str>,
    runs: &[Run],
    ev: &Evidence,
) -> Result<String, Finding> {
    if !ev.transcript_ok {
        return not_backed(
            claim,
            "the transcript could not be read, so no push of this turn can be seen".into(),
            "push again",
        );
    }
    let pushes: Vec<&Run> = runs
        .iter()
        .filter(|r| r.ok && git_sub(r, "push").is_some())
        .collect();
    let Some(last) = pushes.last() else {
        return not_backed(
            claim,
            "no successful `git push` ran in this turn".into(),
            "push, then report where it went",
        );
    };
    if let Some(b) = branch {
        if !pushes
            .iter()
            .any(|r| r.command.contains(b) || r.output.contains(b))
        {
            return not_backed(
                claim,
                format!(
                    "`{}` succeeded, but nothing shows it went to {b}",
                    crate::shell::walk::cut(&last.command)
                ),
                "push to that branch, or name the branch it went to",
            );
        }
    }
    Ok(format!(
        "`{}` succeeded in this turn",
        crate::shell::walk::cut(&last.command)
    ))
}

/// Writes of the turn that did not land, unless a later write to the same path did.
fn unclaimed_failures(records: &[WriteRecord]) -> Vec<Finding> {
    // Walked newest first: a path is settled once a verified write to it is seen, and
    // reported at most once (by exact path: `/a/b.rs` must not hide `/a/b.rs.bak`).
    let mut verified_later: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut reported: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut out = Vec::new();
    for r in records.iter().rev() {
        if r.verified {
            verified_later.insert(&r.path);
            continue;
        }
        // A tool that failed showed the agent its error; a write that reported success
        // and did not land is the silent failure this is for.
        let settled = r.outcome.agent_was_told()
            || r.outcome == store::Outcome::Unconfirmed
            || verified_later.contains(r.path.as_str());
        if settled || !reported.insert(&r.path) {
            continue;
        }
        out.push(Finding {
            what: format!("the {} to {}", r.tool, r.path),
            why: format!(
                "it did not land ({}: {})",
                outcome_name(r),
                r.reason.as_deref().unwrap_or("no reason recorded")
            ),
            fix: "write it again, or say in your message that it failed".into(),
        });
    }
    out.reverse();
    out
}

/// The reason shown to the agent for a block.
fn block_reason(findings: &[&Finding], notes: &[String], then: &str) -> String {
    let mut text = format!(
        "{HOOK}: {} thing(s) in your final message are not backed by what happened in this turn:",
        findings.len()
    );
    for (i, f) in findings.iter().enumerate() {
        let _ = write!(
            text,
            "\n{}. \"{}\": {}. To back it: {}.",
            i + 1,
            crate::shell::walk::cut(&f.what),
            f.why,
            f.fix
        );
    }
    for n in notes {
        let _ = write!(text, "\n(Note: {n}.)");
    }
    text.push('\n');
    text.push_str(then);
    text
}

fn list_for_user(findings: &[&Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("\"{}\" ({})", crate::shell::walk::cut(&f.what), f.why))
        .collect::<Vec<_>>()
        .join("; ")
}

pub fn run(input: &HookInput, ctx: &Context) -> Result<HookOutcome, String> {
    match &input.payload {
        Payload::Stop(stop) => stop_event(input, stop, ctx),
        Payload::PostToolBatch { calls } => Ok(end_turn_batch(input, calls, ctx)),
        _ => Ok(HookOutcome::silent()),
    }
}

/// What the audit needs from the transcript, decided from the claims before reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Need {
    /// Nothing: no claim needs it (and the message came with the event).
    Nothing,
    /// The turn's start and its shell writes, for file claims: what is already written
    /// (the start of the turn does not lag), so no waiting.
    Start,
    /// The turn's tool results (test runs, commits, pushes), which the host writes
    /// asynchronously: worth a short wait when the transcript visibly lags.
    Results,
}

fn need_of(claims: &[Claim]) -> Need {
    claims
        .iter()
        .map(|c| match c.kind {
            Kind::File { .. } => Need::Start,
            _ => Need::Results,
        })
        .max()
        .unwrap_or(Need::Nothing)
}

/// The transcript as the audit could have it: the turn, a note for the user, and whether
/// it could be read at all.
struct Transcript {
    turn: Turn,
    note: Option<String>,
    ok: bool,
}

impl Transcript {
    fn unread(note: Option<String>) -> Transcript {
        Transcript {
            turn: Turn::default(),
            note,
            ok: false,
        }
    }
}

fn stop_event(input: &HookInput, stop: &StopInput, ctx: &Context) -> Result<HookOutcome, String> {
    let policy = &ctx.policy.audit;
    let session = SessionId::parse(&input.common.session_id).map_err(|e| e.to_string())?;
    let state_root = store::state_root(ctx.env).map_err(|e| e.to_string())?;
    let store = SessionStore::new(&state_root, &session);
    let cwd = &input.common.cwd;
    let project = crate::policy::repo_root(cwd).unwrap_or_else(|| cwd.clone());
    let loop_path = loops::state_path(&state_root, &project);
    let mut loop_note = None;
    let active_loop = match loops::load(&loop_path) {
        Ok(Some(l))
            if l.status == Status::Active
                && l.session.as_ref().is_none_or(|s| s == session.as_str())
                && !stop.subagent =>
        {
            Some(l)
        }
        Ok(_) => None,
        // A broken loop file stops the loop, not the audit: the note says why.
        Err(e) => {
            loop_note = Some(e.to_string());
            None
        }
    };
    if (!policy.enabled || (stop.subagent && !policy.subagents)) && active_loop.is_none() {
        return Ok(HookOutcome::silent());
    }
    // The message first: it decides whether the transcript is needed at all.
    let (message, claims, transcript) = match &stop.last_assistant_message {
        Some(m) => {
            let claims = if policy.enabled {
                claims::extract(m)
            } else {
                Vec::new()
            };
            let transcript = read_transcript(input, stop, need_of(&claims), Some(m));
            (m.clone(), claims, transcript)
        }
        // An older host sends no message: the transcript's last text is the message.
        None => {
            let transcript = read_transcript(input, stop, Need::Results, None);
            let message = transcript
                .turn
                .last_assistant_text
                .clone()
                .unwrap_or_default();
            let claims = if policy.enabled {
                claims::extract(&message)
            } else {
                Vec::new()
            };
            (message, claims, transcript)
        }
    };
    let log = store
        .read_turn_records(input.common.prompt_id.as_deref())
        .map_err(|e| e.to_string())?;
    let ev = Evidence {
        turn: &transcript.turn,
        records: &log.records,
        cwd,
        policy,
        transcript_ok: transcript.ok,
    };
    let mut audit = audit_claims(claims, &ev);
    audit.notes.extend(transcript.note);
    audit.notes.extend(loop_note);
    if log.torn > 0 {
        audit.notes.push(format!(
            "{} line(s) of the write log could not be read and were skipped",
            log.torn
        ));
    }
    let unbacked = audit.unbacked();
    let notes_for_user = notes_for_user(&audit.notes);
    if let Some(mut state) = active_loop {
        return Ok(loop_stop(
            &mut state,
            &loop_path,
            session.as_str(),
            &message,
            &unbacked,
            &audit.notes,
            notes_for_user,
        ));
    }
    let agent = stop.agent_id.clone().unwrap_or_else(|| "main".into());
    let prompt_id = input.common.prompt_id.clone().unwrap_or_default();
    let guard = LoopGuard::new(&store);
    if unbacked.is_empty() {
        let mut response = Response::silent();
        response.notices.extend(notes_for_user);
        if let Err(e) = guard.reset(&prompt_id, &agent) {
            response.notices.push(format!("{HOOK}: {e}"));
        }
        return Ok(HookOutcome {
            response,
            records: Vec::new(),
        });
    }
    // Without the counter a block could repeat forever: the stop goes through, and the
    // user is told both why and what was unbacked.
    let decision = match guard.block(&prompt_id, &agent, policy.max_blocks) {
        Ok(d) => d,
        Err(e) => {
            return Ok(HookOutcome {
                response: Response::silent().with_notice(format!(
                    "{HOOK}: the stop goes through unchecked because the stop-block counter failed ({e}); claims unbacked: {}",
                    list_for_user(&unbacked)
                )),
                records: Vec::new(),
            })
        }
    };
    let response = match decision {
        loop_guard::Decision::Block(_) => {
            let mut r = Response::new(Verdict::Block(block_reason(
                &unbacked,
                &audit.notes,
                "Do what is missing, or correct the message, then finish.",
            )));
            r.notices.extend(notes_for_user);
            r
        }
        loop_guard::Decision::CapReached(n) => Response::silent().with_notice(format!(
            "{HOOK}: the stop goes through after {n} blocks in a row (audit.max_blocks), with claims still unbacked: {}",
            list_for_user(&unbacked)
        )),
    };
    Ok(HookOutcome {
        response,
        records: Vec::new(),
    })
}

fn notes_for_user(notes: &[String]) -> Option<String> {
    (!notes.is_empty()).then(|| format!("{HOOK}: {}.", notes.join("; ")))
}

/// The keys of a turn-terminator tool's input that hold its final words, in order.
const END_TURN_TEXT_KEYS: [&str; 4] = ["message", "text", "content", "summary"];

/// The agent's final words in a turn-terminator call: the first string among
/// [`END_TURN_TEXT_KEYS`], else every string in the input, one paragraph each (the
/// input's JSON syntax would only hide sentences from the claim reader).
fn end_turn_message(input: &Value) -> String {
    if let Some(text) = END_TURN_TEXT_KEYS
        .iter()
        .find_map(|k| input.get(k).and_then(Value::as_str))
    {
        return text.to_owned();
    }
    fn strings<'v>(v: &'v Value, out: &mut Vec<&'v str>) {
        match v {
            Value::String(s) => out.push(s),
            Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
            Value::Object(map) => map.values().for_each(|i| strings(i, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    strings(input, &mut out);
    out.join("\n\n")
}

/// PostToolBatch in an Agent SDK app whose loop ends with a tool (`end_turn`): no Stop
/// event follows such an end, so the audit happens here. A batch that calls no such tool
/// is none of this hook's business. Backed: the loop ends cleanly after the batch (every
/// call of it has resolved). Unbacked: the list goes to the agent as context, so it can
/// fix it and call the tool again; the loop guard bounds that like a stop block.
fn end_turn_batch(input: &HookInput, calls: &[BatchCall], ctx: &Context) -> HookOutcome {
    let names: Vec<&str> = ctx
        .end_turn_tools
        .iter()
        .chain(&ctx.policy.audit.end_turn_tools)
        .map(String::as_str)
        .collect();
    let Some(end) = calls
        .iter()
        .find(|b| names.iter().any(|n| tools::is_tool(&b.call.name, n)))
    else {
        return HookOutcome::silent();
    };
    let tool = end.call.name.as_str();
    let stop_reason = format!("{tool} called");
    let end_loop = |notice: Option<String>| {
        let mut r = Response::new(Verdict::EndTurn(stop_reason.clone()));
        r.notices.extend(notice);
        HookOutcome {
            response: r,
            records: Vec::new(),
        }
    };
    let policy = &ctx.policy.audit;
    if !policy.enabled {
        return end_loop(None);
    }
    // An audit that cannot run must not keep the loop going forever: it ends, and the
    // user is told why.
    let fail = |e: String| end_loop(Some(format!("{HOOK}: the loop ends unaudited: {e}")));
    let session = match SessionId::parse(&input.common.session_id) {
        Ok(s) => s,
        Err(e) => return fail(e.to_string()),
    };
    let store = match store::state_root(ctx.env) {
        Ok(root) => SessionStore::new(&root, &session),
        Err(e) => return fail(e.to_string()),
    };
    let message = end_turn_message(&end.call.input);
    let claims = claims::extract(&message);
    let need = need_of(&claims);
    // The summary is a tool argument, never assistant text: nothing to wait for. The
    // batch's own results are not in the transcript yet; they come from the event.
    let mut transcript = match need {
        Need::Nothing => Transcript::unread(None),
        _ => read_transcript_once(
            input.common.transcript_path.as_deref(),
            input.common.prompt_id.as_deref(),
        ),
    };
    if need == Need::Start {
        // As for a stop: file claims do not depend on it (and in an SDK session the
        // transcript file may not exist yet at the first batch).
        transcript.note = None;
    }
    if need != Need::Nothing {
        add_batch(&mut transcript.turn, calls);
    }
    let log = match store.read_turn_records(input.common.prompt_id.as_deref()) {
        Ok(l) => l,
        Err(e) => return fail(e.to_string()),
    };
    let ev = Evidence {
        turn: &transcript.turn,
        records: &log.records,
        cwd: &input.common.cwd,
        policy,
        transcript_ok: transcript.ok,
    };
    let mut audit = audit_claims(claims, &ev);
    audit.notes.extend(transcript.note);
    let unbacked = audit.unbacked();
    let notes = notes_for_user(&audit.notes);
    let prompt_id = input.common.prompt_id.clone().unwrap_or_default();
    let guard = LoopGuard::new(&store);
    let agent = format!("end-turn:{tool}");
    if unbacked.is_empty() {
        let reset = guard
            .reset(&prompt_id, &agent)
            .err()
            .map(|e| format!("{HOOK}: {e}"));
        let mut out = end_loop(notes);
        out.response.notices.extend(reset);
        return out;
    }
    match guard.block(&prompt_id, &agent, policy.max_blocks) {
        Ok(loop_guard::Decision::Block(_)) => {
            let again = format!("Do what is missing, or correct the message, then call {tool} again.");
            let mut r = Response::new(Verdict::Block(block_reason(&unbacked, &audit.notes, &again)));
            r.notices.extend(notes);
            HookOutcome {
                response: r,
                records: Vec::new(),
            }
        }
        Ok(loop_guard::Decision::CapReached(n)) => end_loop(Some(format!(
            "{HOOK}: the loop ends after {n} audits in a row found claims unbacked (audit.max_blocks): {}",
            list_for_user(&unbacked)
        ))),
        Err(e) => end_loop(Some(format!(
            "{HOOK}: the loop ends unchecked because the block counter failed ({e}); claims unbacked: {}",
            list_for_user(&unbacked)
        ))),
    }
}

/// Adds the batch's calls and results to the turn: at PostToolBatch they are not in the
/// transcript yet, and a test run in the same batch as the terminator counts.
fn add_batch(turn: &mut Turn, calls: &[BatchCall]) {
    for (i, b) in calls.iter().enumerate() {
        let id = b
            .call
            .tool_use_id
            .clone()
            .unwrap_or_else(|| format!("batch-{i}"));
        if turn.result_of(&id).is_some() {
            continue;
        }
        let (is_error, text) = match &b.result {
            CallResult::Failed(t) | CallResult::Refused(t) => (true, t.clone()),
            _ => match &b.response {
                Value::String(s) => (false, s.clone()),
                other => (false, transcript::content_text(Some(other))),
            },
        };
        turn.events.push(transcript::Event::ToolUse {
            id: id.clone(),
            name: b.call.name.clone(),
            input: b.call.input.clone(),
        });
        turn.events
            .push(transcript::Event::ToolResult { id, is_error, text });
    }
}

/// The turn from the transcript (the subagent's own for SubagentStop), read as far as
/// `need` asks, and a note when it could not be read.
fn read_transcript(
    input: &HookInput,
    stop: &StopInput,
    need: Need,
    message: Option<&str>,
) -> Transcript {
    if need == Need::Nothing {
        return Transcript::unread(None);
    }
    let (path, prompt) = if stop.subagent {
        (stop.agent_transcript_path.as_deref(), None)
    } else {
        (
            input.common.transcript_path.as_deref(),
            input.common.prompt_id.as_deref(),
        )
    };
    let Some(path) = path else {
        let note = (need == Need::Results).then(|| {
            "the host sent no transcript path, so tool calls of this turn could not be checked"
                .to_owned()
        });
        return Transcript::unread(note);
    };
    let mut first = read_transcript_once(Some(path), prompt);
    if need == Need::Start {
        // File claims are checked against the write log, the disk and git; the transcript
        // only sharpens "changed in this turn". Without it there is nothing to report.
        first.note = None;
    }
    let Some(expected) = message
        .map(str::trim)
        .filter(|_| need == Need::Results && first.ok)
    else {
        return first;
    };
    // Claude Code writes the transcript asynchronously: when the stop fires, the last
    // tool results may not be there yet. The final message is written last, so once the
    // transcript holds it, it holds the whole turn; wait for that, briefly, and only
    // while the transcript visibly lags.
    let caught_up = |t: &Turn| {
        t.ends_with_text && t.last_assistant_text.as_deref().map(str::trim) == Some(expected)
    };
    let deadline = std::time::Instant::now() + TRANSCRIPT_WAIT;
    let mut current = first;
    loop {
        if caught_up(&current.turn) {
            return current;
        }
        if std::time::Instant::now() >= deadline {
            current.note = Some(format!("the transcript had not caught up with the final message after {} ms; the audit used what it held", TRANSCRIPT_WAIT.as_millis()));
            return current;
        }
        std::thread::sleep(Duration::from_millis(25));
        let next = read_transcript_once(Some(path), prompt);
        if !next.ok {
            return next;
        }
        current = next;
    }
}

/// One read of the turn. A path that does not exist or is not a regular file (`/dev/null`,
/// a FIFO, a session run without persistence) is not read, and never waited for.
fn read_transcript_once(path: Option<&Path>, prompt: Option<&str>) -> Transcript {
    let Some(path) = path else {
        return Transcript::unread(Some(
            "the host sent no transcript path, so tool calls of this turn could not be checked"
                .into(),
        ));
    };
    let unreadable = |why: String| {
        Transcript::unread(Some(format!(
            "the transcript {} could not be read ({why})",
            path.display()
        )))
    };
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => {}
        Ok(_) => return unreadable("it is not a regular file".into()),
        Err(e) => return unreadable(e.to_string()),
    }
    match transcript::read_turn(path, prompt) {
        Ok(turn) => Transcript {
            turn,
            note: None,
            ok: true,
        },
        Err(e) => unreadable(e.to_string()),
    }
}

fn loop_stop(
    state: &mut loops::LoopState,
    path: &Path,
    session: &str,
    message: &str,
    unbacked: &[&Finding],
    notes: &[String],
    notes_for_user: Option<String>,
) -> HookOutcome {
    state.session.get_or_insert_with(|| session.to_owned());
    let promise = loops::check(message, &state.promise);
    let mut response = if promise == Promise::Kept && unbacked.is_empty() {
        state.status = Status::Completed;
        Response::silent().with_notice(format!(
            "{HOOK}: the loop is complete: the promise was kept after {} iteration(s).",
            state.iteration
        ))
    } else if state.iteration >= state.max_iterations {
        state.status = Status::Exhausted;
        Response::silent().with_notice(format!(
            "{HOOK}: the loop stops after {} iterations (max_iterations) without the promise kept{}.",
            state.iteration,
            if unbacked.is_empty() { String::new() } else { format!("; unbacked: {}", list_for_user(unbacked)) }
        ))
    } else {
        state.iteration += 1;
        let mut reason = format!(
            "{}\n\n({HOOK}: iteration {} of {}.",
            state.prompt, state.iteration, state.max_iterations
        );
        match &promise {
            Promise::Kept => {
                let _ = write!(reason, " The promise is there, but what the message claims does not hold yet:\n{}", block_reason(unbacked, notes, "Do what is missing, or correct the message, then finish."));
            }
            Promise::Absent { untagged: true } => reason.push_str(" Your message holds the promised text, but a promise counts only as the tag <promise>…</promise>."),
            Promise::Other(got) => {
                let _ = write!(reason, " The tag holds \"{got}\", not the promised text.");
            }
            Promise::Absent { untagged: false } => {}
        }
        let _ = write!(
            reason,
            " When it is true, finish with <promise>{}</promise>.)",
            state.promise
        );
        Response::new(Verdict::Block(reason))
    };
    if let Err(e) = loops::save(path, state) {
        response.notices.push(format!("{HOOK}: {e}"));
    }
    response.notices.extend(notes_for_user);
    HookOutcome {
        response,
        records: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_matching_and_counts() {
        let argv = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        assert!(runs_command(&argv("cargo test --workspace"), "cargo test"));
        assert!(runs_command(&argv("/usr/bin/cargo test"), "cargo test"));
        assert!(!runs_command(&argv("cargo build"), "cargo test"));
        assert!(runs_command(&argv("./gradlew test"), "./gradlew test"));
        assert_eq!(
            programs("cd x && timeout 60 cargo test 2>&1 | tail -5", 0)[1],
            argv("cargo test")
        );
        assert_eq!(
            reported_count(
                "test result: ok. 3 passed; 0 failed\n\ntest result: ok. 4 passed; 0 failed"
            ),
            Some(7)
        );
        assert_eq!(reported_count("===== 12 passed in 0.3s ====="), Some(12));
        assert!(output_fails("test result: FAILED. 1 passed; 2 failed"));
        assert!(output_fails("== 1 failed, 3 passed =="));
        assert!(!output_fails("test result: ok. 3 passed; 0 failed"));
    }

    #[test]
    fn each_unlanded_path_is_reported_once_unless_a_later_write_landed() {
        let rec = |path: &str, verified: bool| WriteRecord {
            v: 1,
            time: String::new(),
            session: "s".into(),
            prompt_id: None,
            tool_use_id: None,
            event: "PostToolUse".into(),
            tool: "Write".into(),
            path: path.into(),
            op: store::Operation::Write,
            verified,
            outcome: if verified {
                store::Outcome::Landed
            } else {
                store::Outcome::NotLanded
            },
            reason: None,
            sha256: None,
            size: None,
        };
        let records = [
            rec("/a/b.rs.bak", false),
            rec("/a/b.rs", false),
            rec("/a/b.rs", false),
            rec("/a/c.rs", false),
            rec("/a/c.rs", true),
        ];
        let found: Vec<String> = unclaimed_failures(&records)
            .into_iter()
            .map(|f| f.what)
            .collect();
        assert_eq!(found, ["the Write to /a/b.rs.bak", "the Write to /a/b.rs"]);
    }
}
