//! Relabels the corpora by execution (issue 11): every case of
//! `tests/corpus/block-wrong-branch.tsv` and `tests/corpus/scope-shell.tsv` is run for real
//! by the oracle (`tests/it/support/oracle.rs`) in both states of its world, and judged by the
//! built guard in the same world. Writes `<corpus>.oracle.tsv` (beside the corpora with
//! `DID_IT_ACTUALLY_ORACLE_WRITE=1`, else under target/) with the columns
//! `line, corpus, guard, oracle, class, changes, command`, and prints the counts.
//!
//! Classes: `agree`; `unrunnable`; for a disagreement, the automatic guess below unless
//! `tests/corpus/oracle-notes.tsv` (`corpus<TAB>line<TAB>class<TAB>note`) says otherwise:
//! - corpus deny, oracle allow, the guard's reason says it cannot read the command:
//!   `conservative-deny`; otherwise `review` (to be classified in the notes file);
//! - corpus allow, oracle deny: `sync-allow` when every protected move is the local main
//!   fast-forwarded to origin's main, else `guard-false-allow`.
//!
//! Slow (about three minutes): run it with `tests/oracle/relabel.sh`.
//!
//! Two fast tests hold the corpora to it on every run: every case's label must be the one
//! the oracle recorded for that very command (a disagreement only where
//! `oracle-notes.tsv` classifies it), and a fixed sample of the cases (every 25th) is run
//! again for real, so a recorded label that no longer holds on this machine fails.

use crate::support::oracle;

use oracle::{examine, Guard, Label, Spec, BRANCH_STATES, SCOPE_STATES};
use std::collections::HashMap;
use std::path::Path;

struct Case {
    line: usize,
    verdict: String,
    spec: Spec,
    /// As written in the corpus (`\n` encoding).
    raw: String,
    command: String,
}

fn corpus(file: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/corpus")
            .join(file),
    )
    .unwrap()
}

fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| (i + 1, l))
}

fn branch_cases() -> Vec<Case> {
    lines(&corpus("block-wrong-branch.tsv"))
        .map(|(line, l)| {
            let f: Vec<&str> = l.splitn(3, '\t').collect();
            Case {
                line,
                verdict: f[0].into(),
                spec: Spec::Branch { setup: f[1].into() },
                raw: f[2].into(),
                command: f[2].replace("\\n", "\n").replace("\\t", "\t"),
            }
        })
        .collect()
}

fn scope_cases() -> Vec<Case> {
    lines(&corpus("scope-shell.tsv"))
        .map(|(line, l)| {
            let f: Vec<&str> = l.splitn(4, '\t').collect();
            Case {
                line,
                verdict: f[0].into(),
                spec: Spec::Scope {
                    project: f[1].into(),
                    cwd: f[2].into(),
                },
                raw: f[3].into(),
                command: f[3].replace("\\n", "\n"),
            }
        })
        .collect()
}

fn notes() -> HashMap<(String, usize), (String, String)> {
    let text = corpus("oracle-notes.tsv");
    lines(&text)
        .map(|(_, l)| {
            let f: Vec<&str> = l.splitn(4, '\t').collect();
            (
                (f[0].to_owned(), f[1].parse().unwrap()),
                (f[2].to_owned(), f.get(3).unwrap_or(&"").to_string()),
            )
        })
        .collect()
}

struct Row {
    line: usize,
    corpus: String,
    guard: String,
    oracle: String,
    class: String,
    note: String,
    changes: String,
    command: String,
    reason: String,
}

fn relabel(name: &str, guard: Guard, cases: Vec<Case>) -> Vec<Row> {
    let threads: usize = std::env::var("DID_IT_ACTUALLY_ORACLE_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let only: Option<Vec<usize>> = std::env::var("DID_IT_ACTUALLY_ORACLE_LINES")
        .ok()
        .map(|v| v.split(',').filter_map(|x| x.parse().ok()).collect());
    let cases: Vec<Case> = cases
        .into_iter()
        .filter(|c| only.as_ref().is_none_or(|o| o.contains(&c.line)))
        .collect();
    let notes = notes();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let rows = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(c) = cases.get(i) else { break };
                let states = match guard {
                    Guard::Branch => BRANCH_STATES,
                    Guard::Scope => SCOPE_STATES,
                };
                let v = examine(guard, &c.spec, states, &c.command, true);
                let (gv, reason) = v.guard.clone().unwrap();
                let oracle = v.label.as_str().to_owned();
                let auto = match (&v.label, c.verdict.as_str()) {
                    (Label::Unrunnable(_), _) => "unrunnable",
                    // Allowed in a state where running it showed the danger.
                    _ if v.allowed_danger => "guard-false-allow",
                    (Label::Deny, "deny") | (Label::Allow, "allow") => "agree",
                    (Label::Allow, _) if oracle::unresolvable_reason(&reason) => {
                        "conservative-deny"
                    }
                    (Label::Allow, _) => "review",
                    (Label::Deny, _) if v.sync_only => "sync-allow",
                    (Label::Deny, _) => "guard-false-allow",
                };
                let (class, note) = match notes.get(&(name.to_owned(), c.line)) {
                    Some((class, note)) if auto != "agree" && auto != "unrunnable" => {
                        (class.clone(), note.clone())
                    }
                    _ => (auto.to_owned(), String::new()),
                };
                let mut changes = v.summary(guard);
                if gv != c.verdict {
                    changes = format!("GUARD DIFFERS FROM CORPUS ({reason}); {changes}");
                }
                let row = Row {
                    line: c.line,
                    corpus: c.verdict.clone(),
                    guard: gv,
                    oracle,
                    class,
                    note,
                    changes,
                    command: c.raw.clone(),
                    reason: reason.chars().take(160).collect(),
                };
                eprintln!(
                    "{name}:{} {} {} {} {}",
                    row.line, row.corpus, row.oracle, row.class, row.command
                );
                if std::env::var_os("DID_IT_ACTUALLY_ORACLE_VERBOSE").is_some() {
                    for o in &v.outcomes {
                        eprintln!(
                            "  [{:?}] exit {:?}: {}",
                            o.state,
                            o.ran.code,
                            o.ran.output.trim()
                        );
                        eprintln!("  refs {:?}\n  files {:?}", o.refs, o.files);
                    }
                }
                rows.lock().unwrap().push(row);
            });
        }
    });
    let mut rows = rows.into_inner().unwrap();
    rows.sort_by_key(|r| r.line);
    rows
}

fn write_tsv(file: &str, header: &str, rows: &[Row]) {
    // Relabelling some lines (DID_IT_ACTUALLY_ORACLE_LINES) keeps the other lines' rows.
    let mut rows: Vec<&Row> = rows.iter().collect();
    let kept: Vec<String> = if std::env::var_os("DID_IT_ACTUALLY_ORACLE_LINES").is_some()
        && std::env::var("DID_IT_ACTUALLY_ORACLE_WRITE").as_deref() == Ok("1")
    {
        corpus(file)
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter(|l| {
                let line: usize = l.split('\t').next().unwrap_or("").parse().unwrap_or(0);
                !rows.iter().any(|r| r.line == line)
            })
            .map(str::to_owned)
            .collect()
    } else {
        Vec::new()
    };
    rows.sort_by_key(|r| r.line);
    let mut text = format!(
        "# {header}\n# Written by tests/it/oracle_relabel.rs (tests/oracle/relabel.sh); see tests/corpus/ORACLE-REPORT.md.\n\
         # line\tcorpus\tguard\toracle\tclass\tchanges\tcommand\tnote\tguard's reason (cut)\n"
    );
    let mut lines: Vec<(usize, String)> = kept
        .into_iter()
        .map(|l| {
            (
                l.split('\t').next().unwrap_or("").parse().unwrap_or(0),
                format!("{l}\n"),
            )
        })
        .collect();
    for r in rows {
        lines.push((
            r.line,
            format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                r.line,
                r.corpus,
                r.guard,
                r.oracle,
                r.class,
                r.changes.replace(['\t', '\n'], " "),
                r.command.replace('\t', "\\t"),
                r.note,
                r.reason.replace(['\t', '\n'], " ")
            ),
        ));
    }
    lines.sort_by_key(|(n, _)| *n);
    for (_, l) in lines {
        text.push_str(&l);
    }
    let dir = if std::env::var("DID_IT_ACTUALLY_ORACLE_WRITE").as_deref() == Ok("1") {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
    } else {
        Path::new(env!("CARGO_TARGET_TMPDIR")).to_owned()
    };
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    eprintln!("wrote {}", path.display());
}

fn summarize(name: &str, rows: &[Row]) -> String {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in rows {
        *counts.entry(r.class.as_str()).or_default() += 1;
    }
    let overturned = rows
        .iter()
        .filter(|r| r.oracle != "unrunnable" && r.oracle != r.corpus)
        .count();
    format!(
        "{name}: {} cases, {} unrunnable, {} agree, {} disagree; by class {counts:?}",
        rows.len(),
        counts.get("unrunnable").unwrap_or(&0),
        counts.get("agree").unwrap_or(&0),
        overturned,
    )
}

#[test]
#[ignore = "slow: run tests/oracle/relabel.sh"]
fn relabel_corpora() {
    assert!(
        oracle::sandboxed()
            || std::env::var("DID_IT_ACTUALLY_ORACLE_SANDBOX").as_deref() == Ok("0"),
        "the corpora name paths outside the world (/etc/hosts, /tmp): relabel them in the sandbox"
    );
    let start = std::time::Instant::now();
    let which = std::env::var("DID_IT_ACTUALLY_ORACLE_CORPUS").unwrap_or_default();
    let mut summary = Vec::new();
    if which.is_empty() || which == "branch" {
        let rows = relabel("block-wrong-branch", Guard::Branch, branch_cases());
        write_tsv(
            "block-wrong-branch.oracle.tsv",
            "block-wrong-branch corpus relabelled by execution",
            &rows,
        );
        summary.push(summarize("block-wrong-branch", &rows));
    }
    if which.is_empty() || which == "scope" {
        let rows = relabel("scope-shell", Guard::Scope, scope_cases());
        write_tsv(
            "scope-shell.oracle.tsv",
            "scope-shell corpus relabelled by execution",
            &rows,
        );
        summary.push(summarize("scope-shell", &rows));
    }
    oracle::cleanup();
    eprintln!(
        "{}\n(sandboxed: {}; {:.0?})",
        summary.join("\n"),
        oracle::sandboxed(),
        start.elapsed()
    );
}

/// The recorded oracle rows of a corpus: line -> (command, oracle label, class).
fn recorded(file: &str) -> HashMap<usize, (String, String, String)> {
    corpus(file)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 7, "{file}: a row needs 7 columns: {l:?}");
            (
                f[0].parse().unwrap(),
                (f[6].to_owned(), f[3].to_owned(), f[4].to_owned()),
            )
        })
        .collect()
}

/// Classes where the corpus label may differ from what running the command showed, each
/// explained in `oracle-notes.tsv`.
const EXPLAINED: &[&str] = &["conservative-deny", "corpus-belief-wrong", "sync-allow"];

fn check_labels(name: &str, file: &str, cases: &[Case]) -> Vec<String> {
    let rows = recorded(file);
    let notes = notes();
    let mut wrong = Vec::new();
    for c in cases {
        match rows.get(&c.line) {
            None => wrong.push(format!(
                "{name}:{} has no oracle label (run tests/oracle/relabel.sh): {}",
                c.line, c.raw
            )),
            Some((cmd, _, _)) if *cmd != c.raw.replace('\t', "\\t") => wrong.push(format!(
                "{name}:{} changed since it was labelled (run tests/oracle/relabel.sh): {}",
                c.line, c.raw
            )),
            Some((_, label, _)) if label == "unrunnable" || *label == c.verdict => {}
            Some((_, label, class)) => {
                // A deny the guard gives because it cannot read the command, and a
                // fast-forward of main to origin's, are classified from the run itself;
                // any other difference must be explained by a note.
                let noted = notes
                    .get(&(name.to_owned(), c.line))
                    .map(|(k, _)| k.as_str());
                let automatic =
                    (class == "conservative-deny" && noted.is_none()) || class == "sync-allow";
                let explained =
                    EXPLAINED.contains(&class.as_str()) && noted == Some(class.as_str());
                if !(automatic || explained) {
                    wrong.push(format!(
                        "{name}:{}: labelled {} but running it showed {label} ({class}), and oracle-notes.tsv does not explain it: {}",
                        c.line, c.verdict, c.raw
                    ));
                }
            }
        }
    }
    wrong
}

#[test]
fn every_label_is_the_oracles() {
    let branch = branch_cases();
    let scope = scope_cases();
    let mut wrong = check_labels(
        "block-wrong-branch",
        "block-wrong-branch.oracle.tsv",
        &branch,
    );
    wrong.extend(check_labels(
        "scope-shell",
        "scope-shell.oracle.tsv",
        &scope,
    ));
    for (name, cases, min) in [
        ("block-wrong-branch", &branch, 600),
        ("scope-shell", &scope, 600),
    ] {
        let allow = cases.iter().filter(|c| c.verdict == "allow").count();
        assert!(
            cases.len() >= min,
            "{name}: {} cases, fewer than {min}",
            cases.len()
        );
        assert!(
            allow * 100 >= cases.len() * 45,
            "{name}: {allow} of {} cases allow, fewer than 45%",
            cases.len()
        );
    }
    assert!(
        wrong.is_empty(),
        "{} case(s):\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_sample_of_the_corpora_still_holds_when_run() {
    let sandboxed = oracle::sandboxed();
    assert!(
        sandboxed || std::env::var("DID_IT_ACTUALLY_ORACLE_SANDBOX").as_deref() == Ok("0"),
        "the scope corpus names paths outside the world: this test needs the sandbox (root or user namespaces, overlayfs, and unshare and chroot on PATH), which does not work here: {}; DID_IT_ACTUALLY_ORACLE_SANDBOX=0 runs the branch sample only",
        oracle::sandbox_missing().unwrap_or_default()
    );
    let mut wrong = Vec::new();
    let mut ran = 0;
    let mut corpora = vec![("block-wrong-branch", Guard::Branch, branch_cases())];
    if sandboxed {
        corpora.push(("scope-shell", Guard::Scope, scope_cases()));
    } else {
        eprintln!("no sandbox: the scope sample is skipped");
    }
    for (name, guard, cases) in corpora {
        let file = format!("{name}.oracle.tsv");
        let rows = recorded(&file);
        let sample: Vec<Case> = cases.into_iter().step_by(25).collect();
        let results = std::sync::Mutex::new(Vec::new());
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..3 {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(c) = sample.get(i) else { break };
                    let states = match guard {
                        Guard::Branch => BRANCH_STATES,
                        Guard::Scope => SCOPE_STATES,
                    };
                    let v = examine(guard, &c.spec, states, &c.command, false);
                    results.lock().unwrap().push((
                        c.line,
                        c.raw.clone(),
                        v.label.as_str().to_owned(),
                    ));
                });
            }
        });
        for (line, raw, label) in results.into_inner().unwrap() {
            ran += 1;
            let Some((_, recorded, _)) = rows.get(&line) else {
                continue;
            };
            if label != *recorded && label != "unrunnable" && recorded != "unrunnable" {
                wrong.push(format!(
                    "{name}:{line}: recorded {recorded}, running it now shows {label}: {raw}"
                ));
            }
        }
    }
    oracle::cleanup();
    eprintln!("{ran} sampled cases run again");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
