//! The audit engine: reads the claims in an agent's final message ([`claims`]) and checks
//! each against the evidence of the turn ([`evidence`]: the write log, the turn's tool
//! calls and results, the file system and git; [`summary`] and [`shellrun`] read a test
//! runner's verdict from its output and its place in the command). Pure apart from
//! reading the disk and the repository: what to do with an [`Audit`] (block, report,
//! end a loop) is the hook's (`hooks::audit_turn`) and the `audit` command's.

pub mod claims;
mod crate_tree;
mod evidence;
mod fast_hash;
pub mod lang;
pub mod named;
mod parts;
mod pydef;
mod rows;
mod scan;
pub use evidence::{commit_lines, runs_any, runs_git};
mod shellrun;
pub mod summary;
pub mod vocab;

use crate::policy::AuditPolicy;
use crate::store::{self, WriteRecord};
use crate::transcript::Turn;
use claims::{Claim, Kind};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;

/// A claim that is not backed, or a failure the message did not mention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The claim as written (or what failed).
    pub what: String,
    /// Which evidence was looked for and what was found.
    pub why: String,
    /// What would back it.
    pub fix: String,
    /// Whether it blocks the stop (a strong claim) or is only reported (a weak reading).
    pub blocks: bool,
}

/// The audit of one final message.
#[derive(Debug, Default)]
pub struct Audit {
    /// Every claim and, when backed, the evidence.
    pub claims: Vec<(Claim, Result<String, Finding>)>,
    /// Claims read from the message that the project showed were not claims after all
    /// (a name with no file's shape that is no path here), with why.
    pub dropped: Vec<(Claim, String)>,
    /// Writes of the turn that did not land and were never repeated successfully.
    pub failures: Vec<Finding>,
    /// Things the reader should know (skipped transcript lines, a missing transcript).
    pub notes: Vec<String>,
}

impl Audit {
    /// What blocks the stop.
    pub fn unbacked(&self) -> Vec<&Finding> {
        self.claims
            .iter()
            .filter_map(|(_, r)| r.as_ref().err())
            .chain(&self.failures)
            .filter(|f| f.blocks)
            .collect()
    }

    /// Weak readings that are unbacked: reported to the user, never blocking.
    pub fn reported(&self) -> Vec<&Finding> {
        self.claims
            .iter()
            .filter_map(|(_, r)| r.as_ref().err())
            .filter(|f| !f.blocks)
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
    /// The turn was rebuilt from the run log (a host whose session file is not read): its
    /// commands and writes are known, and its start where an earlier turn of the session
    /// ended.
    pub from_run_log: bool,
}

/// Audits `message` against the evidence.
pub fn audit(message: &str, ev: &Evidence) -> Audit {
    let mut audit = audit_claims(claims::extract(message), ev);
    audit.notes.extend(claims::unread_note(message));
    audit
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
    // A kind of tests with files of its own is looked for in the project's tree.
    let needs_repo = claims.iter().any(|c| {
        matches!(
            c.kind,
            Kind::File { .. }
                | Kind::Dir { .. }
                | Kind::Holds { .. }
                | Kind::UnderHeading { .. }
                | Kind::Commit { .. }
                | Kind::Push { .. }
                | Kind::Ref { .. }
                | Kind::Unmoved { .. }
                | Kind::Clean
                | Kind::Joined { .. }
                | Kind::Concluded { .. }
                | Kind::Apart { .. }
                | Kind::Committed { .. }
                | Kind::Uncommitted { .. }
                | Kind::Titled { .. }
                | Kind::Trailer { .. }
                | Kind::BranchGone { .. }
                | Kind::InHistory { .. }
                | Kind::FileOutOfHistory { .. }
                | Kind::Stash { .. }
                | Kind::Mode { .. }
                | Kind::CommitCount { .. }
                | Kind::CommitFiles { .. }
                | Kind::PartsInCommit { .. }
        ) || c.tools.iter().any(|t| t.kind.is_some())
    });
    let facts = evidence::Facts::gather(ev, needs_repo);
    let ignored = glob_set(&ev.policy.ignore_paths);
    let ignored_path = |p: &Path| {
        p.strip_prefix(&facts.root)
            .is_ok_and(|rel| ignored.as_ref().is_some_and(|s| s.is_match(rel)))
    };
    for mut claim in claims {
        // A copy the turn's commands put there, or one a checked line (✅) states as done
        // whose target is nowhere (not on disk, never written): the copy reading decides.
        if claim.via_copy
            && (evidence::copied_to(&claim, &facts)
                || evidence::copy_target_missing(&claim, &facts))
        {
            claim.confidence = vocab::Confidence::Strong;
            claim.hedge = None;
        }
        let needs_transcript = matches!(
            claim.kind,
            Kind::Tests { .. }
                | Kind::Failures { .. }
                | Kind::Build
                | Kind::Lint
                | Kind::Ran { .. }
                | Kind::Printed { .. }
                | Kind::PrintedBy { .. }
                | Kind::Coverage { .. }
                | Kind::FailedBeforeFix
        );
        if needs_transcript && !ev.transcript_ok {
            out.notes.push(format!(
                "\"{}\" could not be checked without the transcript",
                crate::shell::walk::cut(&claim.sentence)
            ));
            continue;
        }
        let verdict = match &claim.kind {
            Kind::File { .. }
            | Kind::Dir { .. }
            | Kind::Holds { .. }
            | Kind::UnderHeading { .. }
            | Kind::NoneLeft { .. }
            | Kind::FnHas { .. }
            | Kind::TestsInFile { .. }
            | Kind::TextGone { .. }
            | Kind::TextRemoved { .. }
            | Kind::Script { .. }
            | Kind::FolderCount { .. }
            | Kind::LineCount { .. }
                if !ev.policy.file_claims =>
            {
                continue
            }
            Kind::Tests { .. }
            | Kind::Failures { .. }
            | Kind::FailedBeforeFix
            | Kind::Build
            | Kind::Lint
                if !ev.policy.test_claims =>
            {
                continue
            }
            Kind::Commit { .. }
            | Kind::Push { .. }
            | Kind::Ref { .. }
            | Kind::Ran { .. }
            | Kind::Unmoved { .. }
            | Kind::Clean
            | Kind::Joined { .. }
            | Kind::Concluded { .. }
            | Kind::Apart { .. }
            | Kind::Committed { .. }
            | Kind::Uncommitted { .. }
            | Kind::Titled { .. }
            | Kind::Trailer { .. }
            | Kind::BranchGone { .. }
            | Kind::InHistory { .. }
            | Kind::FileOutOfHistory { .. }
            | Kind::Stash { .. }
            | Kind::Mode { .. }
            | Kind::CommitCount { .. }
            | Kind::CommitFiles { .. }
            | Kind::PartsInCommit { .. }
                if !ev.policy.git_claims =>
            {
                continue
            }
            // From the run log without the turn's start (the session's first turn), the
            // commands' own output still shows what they made and where they pushed.
            Kind::Commit { .. } | Kind::Push { .. }
                if !ev.transcript_ok && ev.turn.started.is_none() =>
            {
                out.notes.push(format!(
                    "\"{}\" could not be checked without the transcript",
                    crate::shell::walk::cut(&claim.sentence)
                ));
                continue;
            }
            Kind::File { path, change } => {
                let resolved = evidence::resolve_in(path, &claim.sentence, &facts);
                if ignored_path(&resolved) {
                    continue;
                }
                if claim.path_inferred && !evidence::known(&resolved, &facts) {
                    let why = format!("no file or directory {path} exists, existed when the turn began, or was written: not a path here");
                    out.dropped.push((claim.clone(), why));
                    continue;
                }
                let listed = claim.listed != vocab::Listed::No
                    && !matches!(
                        change,
                        vocab::Change::Deleted | vocab::Change::Renamed { .. }
                    );
                if listed && !facts.ever_had(path, &resolved) {
                    // A list item that leads with a path the project never had: the
                    // message hands over a file nobody wrote, whatever the item's verb.
                    let mut f = evidence::finding(
                        &claim,
                        format!("the message lists {path}, but no file or directory of that name exists, existed when the turn began, or was written in this turn"),
                        "write the file (or take it out of the message) before finishing",
                    );
                    f.blocks = true;
                    out.claims.push((claim, Err(f)));
                    continue;
                }
                // An item that leads with the path, or a folder said to hold it now,
                // hands it over: a path a sentence names on the way ("at first
                // `notes/release-1.md` came out, then I fixed it") may have been there a
                // while.
                let on_the_way = claim.hedge.as_deref() == Some(rows::MENTIONED)
                    && !rows::leads_with(&claim.sentence, path)
                    && rows::tells_a_sequence(&claim.sentence);
                if claim.listed == vocab::Listed::Alone
                    && !on_the_way
                    && !path.ends_with('/')
                    && !facts.had_at_start(&resolved)
                    && !facts.start_has_dir(&resolved)
                    && facts.wrote(&resolved, false)
                    && resolved.symlink_metadata().is_err()
                {
                    // "New script: `scripts/export.py`" written in this turn and gone by
                    // its end (a `git clean`, an `rm -rf` after): the message hands over
                    // a file that is not there.
                    let mut f = evidence::finding(
                        &claim,
                        format!("{path} was written in this turn, but it is gone now"),
                        "write the file again (or take it out of the message) before finishing",
                    );
                    f.blocks = true;
                    out.claims.push((claim, Err(f)));
                    continue;
                }
                if claim.listed == vocab::Listed::Alone {
                    out.dropped.push((
                        claim.clone(),
                        format!(
                            "{path} is in the project: an item that only names it claims no change"
                        ),
                    ));
                    continue;
                }
                if *change == vocab::Change::Kept {
                    evidence::kept_evidence(&claim, &resolved, &facts)
                } else if resolved.is_dir() {
                    evidence::dir_evidence(&claim, &resolved, change, &facts)
                } else {
                    evidence::file_evidence(&claim, &resolved, change, &facts).and_then(|e| {
                        evidence::not_emptied(&claim, &resolved, change, &facts).map(|()| e)
                    })
                }
            }
            Kind::Dir { path, change } => {
                let resolved = evidence::resolve_in(path, &claim.sentence, &facts);
                if ignored_path(&resolved) {
                    continue;
                }
                if *change == vocab::Change::Kept {
                    evidence::kept_evidence(&claim, &resolved, &facts)
                } else {
                    evidence::dir_evidence(&claim, &resolved, change, &facts)
                }
            }
            Kind::Tests { count } if !claim.tools.is_empty() => {
                let named = evidence::named_evidence(&claim, "tests", *count, &facts);
                // Several suites or kinds named with one count ("all five tests pass, unit
                // and integration"): the count is the runs' total.
                match count {
                    // One tool and the one kind it ran ("`cargo test --lib` … unit-тест: 3
                    // passed") is one run's count.
                    Some(_)
                        if named.is_ok()
                            && (claim.tools.iter().filter(|t| t.kind.is_none()).count() > 1
                                || claim.tools.iter().filter(|t| t.kind.is_some()).count() > 1) =>
                    {
                        let list = with_spans(&ev.policy.test_commands, &claim, &facts);
                        evidence::result_evidence(&claim, "tests", &list, *count, false, &facts)
                            .and(named)
                    }
                    _ => named,
                }
            }
            Kind::Build | Kind::Lint if !claim.tools.is_empty() => {
                let what = if claim.kind == Kind::Build {
                    "build"
                } else {
                    "lint"
                };
                evidence::named_evidence(&claim, what, None, &facts)
            }
            Kind::Tests { count } => {
                // "`npm run test:unit`: 3 tests, all passed" speaks of that run: a later
                // `npm run test:e2e` neither backs nor refutes it.
                let own = evidence::own_test_runs(&claim, &ev.policy.test_commands, &facts);
                if own.is_empty() {
                    let list = with_spans(&ev.policy.test_commands, &claim, &facts);
                    evidence::result_evidence(&claim, "tests", &list, *count, false, &facts)
                } else {
                    evidence::result_evidence(&claim, "tests", &own, *count, true, &facts)
                }
            }
            Kind::Build => {
                let list = with_spans(&ev.policy.build_commands, &claim, &facts);
                // A command of the sentence that ran ("`docker build -t a .`: the image
                // was built") is the build it speaks of.
                let names_a_run = list.len() > ev.policy.build_commands.len();
                evidence::result_evidence(&claim, "build", &list, None, false, &facts).or_else(
                    |found| {
                        // "The example compiles": a passing test run of a runner that
                        // compiles the code first (`cargo test` builds the crate and its
                        // doc examples) built it, when the claim names no command.
                        if !claim.commands.is_empty() || names_a_run {
                            return Err(found);
                        }
                        let compiling: Vec<String> =
                            COMPILING_TEST_RUNS.iter().map(|c| c.to_string()).collect();
                        evidence::result_evidence(&claim, "tests", &compiling, None, false, &facts)
                            .map(|e| format!("{e} (it compiles the code first)"))
                            .map_err(|_| found)
                    },
                )
            }
            Kind::Lint => {
                let list = with_spans(&ev.policy.lint_commands, &claim, &facts);
                evidence::result_evidence(&claim, "lint", &list, None, false, &facts)
            }
            Kind::Failures { count } => {
                match evidence::failure_evidence(&claim, *count, &ev.policy.test_commands, &facts) {
                    Some(verdict) => verdict,
                    // No runner's count to hold it against: reported, never blocked.
                    None => {
                        let mut f = evidence::finding(
                            &claim,
                            "no test run of this turn printed a count of failures to hold it against".into(),
                            "run the tests and report the count they print",
                        );
                        f.blocks = false;
                        Err(f)
                    }
                }
            }
            Kind::Commit { hash } => evidence::commit_evidence(&claim, hash.as_deref(), &facts),
            Kind::Push { branch } => evidence::push_evidence(&claim, branch.as_deref(), &facts),
            Kind::Ref { name, tag, at } => {
                evidence::ref_evidence(&claim, name, *tag, at.as_deref(), &facts)
            }
            Kind::Ran { command } => evidence::ran_evidence(&claim, command, &facts),
            Kind::Unmoved { branch, remote } => {
                evidence::unmoved_evidence(&claim, branch.as_deref(), *remote, &facts)
            }
            Kind::Clean => evidence::clean_evidence(&claim, &facts),
            Kind::Joined { a, b } => evidence::joined_evidence(&claim, a, b, &facts),
            Kind::Concluded { rebase } => evidence::concluded_evidence(&claim, *rebase, &facts),
            Kind::Apart {
                branch,
                upstream,
                count,
            } => evidence::apart_evidence(&claim, branch, upstream, *count, &facts),
            Kind::NoneLeft { ext } => evidence::none_left_evidence(&claim, ext, &facts),
            Kind::BranchGone { name, remote } => {
                evidence::branch_gone_evidence(&claim, name, *remote, &facts)
            }
            Kind::InHistory {
                subject,
                refs,
                gone,
            } => evidence::in_history_evidence(&claim, subject, refs, *gone, &facts),
            Kind::Printed { text } => evidence::printed_evidence(&claim, text, &facts),
            Kind::PrintedBy { command, text, now } => {
                evidence::printed_by_evidence(&claim, command, text, *now, &facts)
            }
            Kind::Coverage { path, percent } => {
                evidence::coverage_evidence(&claim, path.as_deref(), percent, &facts)
            }
            Kind::Stash { name, present } => {
                evidence::stash_evidence(&claim, name.as_deref(), *present, &facts)
            }
            Kind::Committed { path } => {
                let resolved = evidence::resolve_in(path, &claim.sentence, &facts);
                evidence::committed_evidence(&claim, &resolved, &facts)
            }
            Kind::Listening { port } => evidence::listening_evidence(&claim, *port, &facts),
            Kind::InArchive {
                archive,
                member,
                present,
            } => {
                let resolved = evidence::resolve_in(archive, &claim.sentence, &facts);
                evidence::archive_evidence(&claim, &resolved, member, *present, &facts)
            }
            Kind::LineEnds { path, crlf } => {
                let resolved = evidence::resolve_in(path, &claim.sentence, &facts);
                if ignored_path(&resolved) {
                    continue;
                }
                evidence::line_ends_evidence(&claim, &resolved, *crlf)
            }
            Kind::Titled { subject } => evidence::titled_evidence(&claim, subject, &facts),
            Kind::TextRemoved { text } => evidence::text_removed_evidence(&claim, text, &facts),
            Kind::TextGone { text, scope } => {
                evidence::text_gone_evidence(&claim, text, scope, &facts)
            }
            Kind::FileOutOfHistory { path } => {
                evidence::out_of_history_evidence(&claim, path, &facts)
            }
            Kind::TestsInFile { path, count } => {
                let resolved = evidence::resolve_in(path, &claim.sentence, &facts);
                evidence::tests_in_file_evidence(&claim, &resolved, *count)
            }
            Kind::FnHas { name, part, path } => {
                evidence::fn_has_evidence(&claim, name, *part, path.as_deref(), &facts)
            }
            Kind::Trailer { key } => evidence::trailer_evidence(&claim, key, &facts),
            Kind::FailedBeforeFix => evidence::failed_before_fix_evidence(&claim, &facts),
            Kind::Script { name, runs } => evidence::script_evidence(&claim, name, runs, &facts),
            Kind::FolderCount { dir, count } => {
                let resolved = evidence::resolve_in(dir, &claim.sentence, &facts);
                if ignored_path(&resolved) {
                    continue;
                }
                evidence::folder_count_evidence(&claim, &resolved, *count)
            }
            Kind::PartsInCommit {
                commit,
                words,
                version,
            } => evidence::parts_in_commit_evidence(
                &claim,
                commit,
                words,
                version.as_deref(),
                &facts,
            ),
            Kind::CommitFiles { commit, count } => {
                evidence::commit_files_evidence(&claim, commit, *count, &facts)
            }
            Kind::LineCount { path, count } => {
                let resolved = evidence::resolve_in(path, &claim.sentence, &facts);
                if ignored_path(&resolved) {
                    continue;
                }
                evidence::line_count_evidence(&claim, &resolved, *count)
            }
            Kind::CommitCount {
                count,
                sort,
                since,
                tip,
            } => evidence::commit_count_evidence(
                &claim,
                *count,
                *sort,
                since,
                tip.as_deref(),
                &facts,
            ),
            Kind::Uncommitted { path, commit } => {
                let resolved = evidence::resolve_in(path, &claim.sentence, &facts);
                evidence::uncommitted_evidence(&claim, &resolved, commit.as_deref(), &facts)
            }
            Kind::Mode { path, mode } => {
                let resolved = evidence::resolve_in(path, &claim.sentence, &facts);
                evidence::mode_evidence(&claim, &resolved, mode, &facts)
            }
            Kind::Holds { path, value } => {
                let resolved = if path == rows::BARE_README {
                    evidence::readme(&facts)
                } else {
                    evidence::resolve_in(path, &claim.sentence, &facts)
                };
                if ignored_path(&resolved) {
                    continue;
                }
                evidence::holds_evidence(&claim, &resolved, value)
            }
            Kind::UnderHeading {
                path,
                heading,
                value,
            } => {
                let resolved = evidence::resolve_in(path, &claim.sentence, &facts);
                if ignored_path(&resolved) {
                    continue;
                }
                evidence::under_heading_evidence(&claim, &resolved, heading, value)
            }
        };
        // A check bound to a command or a test file in its clause: that very run.
        let verdict = match &claim.kind {
            Kind::Tests { .. } | Kind::Build | Kind::Lint | Kind::Failures { .. } => {
                evidence::named_commands_ran(&claim, &facts)
                    .and_then(|()| {
                        evidence::test_files_selected(&claim, &ev.policy.test_commands, &facts)
                    })
                    .and_then(|()| evidence::no_error_for_named_file(&claim, &facts))
                    .and(verdict)
            }
            _ => verdict,
        };
        // What a subagent did whose transcript could not be read may back it: report, do
        // not block.
        let verdict = match verdict {
            Err(mut f)
                if ev.turn.subagents_unread > 0
                    && !matches!(
                        claim.kind,
                        Kind::File { .. } | Kind::Dir { .. } | Kind::Holds { .. }
                    ) =>
            {
                f.blocks = false;
                f.why.push_str(
                    " (a subagent of this turn ran, and its transcript could not be read)",
                );
                Err(f)
            }
            // "`make clean`: removes `build/` and `dist/`" after `make -n clean`; "it does
            // two things: - delete every `*.o` under `build/`" of a script written and not
            // run: the sentence tells what a command would do.
            Err(mut f)
                if f.blocks
                    && matches!(claim.kind, Kind::File { .. } | Kind::Dir { .. })
                    && !matches!(
                        claim.kind,
                        Kind::File {
                            change: vocab::Change::Unchanged,
                            ..
                        } | Kind::Dir {
                            change: vocab::Change::Unchanged,
                            ..
                        }
                    ) =>
            {
                if let Some(what) = evidence::describes_an_unrun_command(&claim, &facts) {
                    f.blocks = false;
                    f.why.push_str(&format!(
                        " (the sentence may tell what {what} would do: it did not run in this turn)"
                    ));
                } else if let Some(cmd) = claim
                    .undo_told
                    .then(|| evidence::restored_by_name(&claim, &facts))
                    .flatten()
                {
                    // "`sed` also caught `config/app.yaml` … I put it back with `git checkout
                    // -- config/app.yaml`": a change the turn undid by name, and the message
                    // writes out the undo in another sentence.
                    f.blocks = false;
                    f.why.push_str(&format!(
                        " (a later `{cmd}` of this turn put it back by name: the sentence may tell a change that was undone)"
                    ));
                }
                Err(f)
            }
            v => v,
        };
        out.claims.push((claim, verdict));
    }
    add_turn_findings(&mut out, ev);
    out
}

/// The reading of every sentence of `message`, for `did-it-actually audit --explain`:
/// claim or not and why, each claim's confidence, and the audit's verdict on it.
pub fn explain_text(message: &str, audit: &Audit) -> String {
    let mut out = String::from("reading of the message:\n");
    for r in claims::explain(message) {
        let _ = writeln!(out, "- \"{}\"", crate::shell::walk::cut(&r.sentence));
        for c in &r.claims {
            let _ = writeln!(out, "    {}", describe(c, audit));
        }
        for w in &r.why {
            let _ = writeln!(out, "    not a claim: {w}");
        }
    }
    out
}

fn describe(c: &Claim, audit: &Audit) -> String {
    let conf = match (&c.confidence, &c.hedge) {
        (claims::Confidence::Strong, _) => "strong (blocks when unbacked)".to_owned(),
        (_, Some(h)) => format!("weak: {h} (reported, never blocks)"),
        (_, None) => "weak (reported, never blocks)".to_owned(),
    };
    let verdict = audit
        .claims
        .iter()
        .find(|(a, _)| a == c)
        .map(|(_, v)| match v {
            Ok(e) => format!("backed: {e}"),
            Err(f) => format!("NOT backed: {}", f.why),
        })
        .or_else(|| {
            audit
                .dropped
                .iter()
                .find(|(a, _)| a == c)
                .map(|(_, why)| format!("dropped: {why}"))
        })
        .unwrap_or_else(|| "not checked (policy or missing evidence)".into());
    format!("claim: {}; {conf}; {verdict}", c.kind)
}

/// [`explain_text`] as JSON.
pub fn readings_json(message: &str, audit: &Audit) -> Value {
    Value::Array(
        claims::explain(message)
            .into_iter()
            .map(|r| {
                serde_json::json!({
                    "sentence": r.sentence,
                    "claims": r.claims.iter().map(|c| describe(c, audit)).collect::<Vec<_>>(),
                    "not_claims": r.why,
                })
            })
            .collect(),
    )
}

/// What the turn says whatever the message claims: writes that silently did not land,
/// and transcript lines that could not be read.
fn add_turn_findings(out: &mut Audit, ev: &Evidence) {
    out.failures = unclaimed_failures(ev.records);
    if ev.turn.bad_lines > 0 {
        out.notes.push(format!(
            "{} of the transcript could not be read and {} skipped",
            crate::words::count(ev.turn.bad_lines, "line", "lines"),
            if ev.turn.bad_lines == 1 {
                "was"
            } else {
                "were"
            }
        ));
    }
}

/// Test runs that build the code they test: a pass of one is a build's.
const COMPILING_TEST_RUNS: &[&str] = &[
    "cargo test",
    "cargo nextest",
    "go test",
    "dotnet test",
    "swift test",
    "mvn test",
    "gradle test",
];

/// A check's command list and the commands the claim's sentence names that ran.
fn with_spans(list: &[String], claim: &Claim, facts: &evidence::Facts) -> Vec<String> {
    let mut out = list.to_vec();
    // The sentence's code spans, and the commands a row names bare ("python3 -m
    // compileall app -> OK").
    let spans = vocab::spans_of(&claim.sentence);
    let bound = claim.commands.iter().map(String::as_str);
    out.extend(evidence::spans_that_ran(spans.chain(bound), facts));
    out
}

fn glob_set(patterns: &[String]) -> Option<globset::GlobSet> {
    if patterns.is_empty() {
        return None;
    }
    let mut b = globset::GlobSetBuilder::new();
    for p in patterns {
        if let Ok(g) = crate::policy::path_glob(p) {
            b.add(g);
        }
        // A pattern without a separator matches at any depth (`*.md`).
        if !p.contains('/') {
            if let Ok(g) = crate::policy::path_glob(&format!("**/{p}")) {
                b.add(g);
            }
        }
    }
    b.build().ok()
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
            blocks: true,
            what: format!("the {} to {}", r.tool, r.path),
            why: format!(
                "it did not land ({}: {})",
                r.outcome.name(),
                r.reason.as_deref().unwrap_or("no reason recorded")
            ),
            fix: "write it again, or say in your message that it failed".into(),
        });
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
            host: None,
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
