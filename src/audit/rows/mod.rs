//! Readings in any language, after each language's reader has had its say: result rows,
//! named paths, values from old to new, and whole counts.
//!
//! Agents report checks as rows more often than as sentences: a table row (`| \`cargo
//! clippy -- -D warnings\` | sauber, keine einzige Warnung |`), an arrow (`- \`cargo
//! clippy\` → no lints`), a label (`\`cargo clippy\`: limpo.`). The value is a word or
//! two, and which language it is in matters less than what it says: passed, clean, no
//! problems. A row that names a check which never ran, or failed, is a claim that blocks
//! ([`add_row_claims`]).
//!
//! A report that names a path says the project has it: a list item that leads with one,
//! a path in a sentence that reports. That blocks only where the project never had the
//! path ([`Listed`], [`mark_listed_paths`], [`mark_mentioned_paths`]). A value going from
//! old to new beside a path says the file changed ([`mark_value_changes`]); "all five"
//! counts every test ([`mark_whole_counts`]).
//!
//! Every table's words are looked up here at once (thousands of forms), so the sets are
//! indexed by first character and built once per process ([`forms`]).
//!
//! This module reads check rows (a subject that names a check, and its value); beside it,
//! [`values`] says what a value says (passed, or taken back), [`structure`] finds rows
//! whose subject and value stand apart (labels, headings, tables, status lines),
//! [`paths`] the paths a report names, [`refs`] the git outcomes it states (tags,
//! branches, commits by subject, status rows, remote branches) and [`copies`] the copies
//! it says it made.

mod archives;
mod commit_count;
mod copies;
mod counted;
mod coverage;
mod defined_tests;
mod documented;
mod endings;
pub(super) mod forms;
mod functions;
mod held;
mod history;
mod leftovers;
mod paths;
mod printed;
mod refs;
mod repro;
mod scripts;
mod servers;
mod structure;
mod values;

pub use archives::mark_archive_members;
pub use commit_count::{mark_commit_counts, mark_commit_file_counts, mark_parts_in_commit};
pub use copies::mark_copies;
pub use counted::mark_folder_counts;
pub use coverage::mark_coverage;
pub use defined_tests::mark_tests_in_file;
pub use documented::{mark_documented, mark_names_used, BARE_README};
pub use endings::mark_line_ends;
pub(super) use forms::read_as;
pub use functions::mark_function_parts;
pub use held::{mark_spans_held, mark_under_heading};
pub use history::{mark_files_out_of_history, mark_stash_states, mark_subjects_in_history};
pub use leftovers::{mark_text_gone, mark_text_removed};
pub use paths::{
    drop_asides, drop_changes_held_by_a_stash, drop_described_paths, drop_dotted_keys,
    drop_index_removals, mark_branch_tips, mark_contained_keys, mark_defined_names,
    mark_held_values, mark_labelled_changes, mark_labelled_lines, mark_listed_paths, mark_located,
    mark_mentioned_paths, mark_now_inside, mark_now_states, mark_said_absent, mark_said_gone,
    mark_said_unchanged, mark_same_file_changes, mark_set_values, mark_settings_of_a_file_before,
    mark_still_there, mark_value_changes, mark_versions_now, mark_whole_counts, mark_whole_suites,
};
pub use printed::{mark_printed, mark_printed_by, mark_summary_counts};
pub(crate) use refs::negates;
pub use refs::{
    mark_always_passing, mark_apart_counts, mark_branches_deleted, mark_branches_said_gone,
    mark_checked_git_lines, mark_clean_tree, mark_commit_trailers, mark_committed_files,
    mark_committed_modes, mark_extensions_gone, mark_foreign_git_forms, mark_git_refs,
    mark_git_rows, mark_git_steps, mark_gone_beside_denials, mark_joined, mark_named_commits,
    mark_others_unmoved, mark_remote_pushes, mark_still_staged, mark_uncommitted_files,
    mark_unmoved,
};
pub use repro::mark_failed_before_fix;
pub use scripts::mark_package_scripts;
pub use servers::mark_listening_servers;
pub use structure::add_structured_rows;
pub(crate) use structure::{cells, row_text};

pub(crate) use paths::{is_data_file, MENTIONED};

/// Whether a sentence tells steps in order ("at first … then", "əvvəlcə … sonra",
/// "zuerst … dann"): a path it names may have been there only on the way.
pub(crate) fn tells_a_sequence(sentence: &str) -> bool {
    const FIRST: &[&str] = &[
        "at first",
        "initially",
        "first",
        "zuerst",
        "zunächst",
        "d'abord",
        "primero",
        "prima",
        "eerst",
        "först",
        "først",
        "aluksi",
        "najpierw",
        "nejprve",
        "сначала",
        "спочатку",
        "önce",
        "əvvəlcə",
        "elsőre",
        "mai întâi",
        "πρώτα",
        "ban đầu",
        "awalnya",
        "最初",
        "先",
        "처음",
        "पहले",
        "أولا",
        "בהתחלה",
        "ابتدا",
    ];
    static PHRASES: std::sync::OnceLock<forms::Phrases> = std::sync::OnceLock::new();
    let lower = vocab::outside_spans(sentence, " ").to_lowercase();
    PHRASES
        .get_or_init(|| forms::Phrases::new(FIRST))
        .find_word_in(&lower)
        .is_some()
}

/// Whether a sentence is a list item that leads with `path` ("- `scripts/export.py` —
/// the exporter"), or names it after an arrow: the item hands the file over.
pub(crate) fn leads_with(sentence: &str, path: &str) -> bool {
    let path = path.trim_end_matches('/');
    lead_path(sentence).is_some_and(|(lead, _)| lead.trim_end_matches('/') == path)
        // "- `config/app.yaml` → `backup/config.yml`": the target an arrow hands over.
        || ["→", "->", "=>"].iter().any(|arrow| {
            sentence.contains(&format!("{arrow} `{path}`"))
                || sentence.contains(&format!("{arrow} `{path}/`"))
        })
}

/// Whether a sentence says something went away or is not there, in any table's words
/// ("then removed it", "danach gelöscht", "puis supprimé"): the tables' deletion forms
/// (`Sets::GONE`), for evidence that must not hold a message to a file it says is gone.
pub(crate) fn tells_gone(sentence: &str) -> bool {
    forms::any_in(&fold(&sentence.to_lowercase()), Sets::GONE)
}

/// Whether a sentence tells a deletion, in any table's words ("`spike/cache` silindi",
/// "deleted the branch"): the tables' deletion forms alone (`Sets::DELETED`), not the
/// denials, plans and earlier states [`tells_gone`] takes too.
pub(crate) fn tells_deleted(sentence: &str) -> bool {
    forms::any_in(&fold(&sentence.to_lowercase()), Sets::DELETED)
}

use super::lang::{fold, number_of, LANGS};
use super::vocab::{self, Change, Claim, Kind, Listed, Reading};
use forms::{has_word, Sets};
use paths::*;
use refs::*;
use std::sync::OnceLock;
use values::*;

/// Words for "to" or an arrow right before where a thing went: the ending a conversion
/// went to ("CRLF → LF", "converted to LF", "конвертирани в LF", "sa CRLF na LF"), the
/// extension a file was renamed to ("přejmenoval na `.mjs`").
const TO_A_PLACE: &[&str] = &[
    "→", "->", "=>", "⇒", "to", "into", "zu", "zum", "nach", "auf", "in", "naar", "en", "a", "à",
    "para", "в", "во", "на", "na", "do", "til", "till", "σε", "ke", "menjadi", "thành", "sang",
    "olarak",
];

/// Whether a line is a row whose label is the warnings and whose value denies them
/// ("**Warnings:** none", "Προειδοποιήσεις: καμία· …", "Warnungen: keine").
fn warnings_row_denied(r: &Reading, count: &dyn Fn(&str) -> usize) -> bool {
    if r.skipped {
        return false;
    }
    let Some((label, value)) = r.sentence.split_once([':', '：']) else {
        return false;
    };
    let label = fold(&label.to_lowercase());
    let label = label.trim_matches(|c: char| !c.is_alphanumeric());
    // The label is the warnings' word and little more: "Warnings", "Compiler warnings".
    if count(label) == 0 || label.split_whitespace().count() > 2 {
        return false;
    }
    let value = value
        .split(['·', '\u{387}', ';', '；', ',', '，', '.', '。', '(', '—'])
        .next()
        .unwrap_or("");
    let value = fold(&value.to_lowercase());
    let value = value.trim();
    let zero = matches!(value, "0" | "none" | "zero" | "nil" | "-" | "—")
        || value.starts_with("0 ")
        || value.split_whitespace().count() <= 2 && refs::negates(value);
    zero && !value.contains('`')
}

/// Marks that say a check passed.
const MARKS: &[&str] = &["✅", "✓", "✔", "☑", "🟢"];

/// Where the subject of a row ends and its value begins.
const SEPARATORS: &[&str] = &["→", "->", "=>", "⇒", ":", "：", "—", "–", "-", "|", "="];

/// Stems of "warning", in the tables' languages and beyond.
const WARNING_WORDS: &[&str] = &[
    "warning",
    "warnung",
    "avertissement",
    "advertencia",
    "avvis",
    "aviso",
    "waarschuwing",
    "предупрежд",
    "попередж",
    "ostrzeż",
    "uyarı",
    "cảnh báo",
    "peringatan",
    "varning",
    "varovn",
    "upozorn",
    "προειδοπ",
    "警告",
    "경고",
    "चेतावनी",
    "تحذير",
    "אזהר",
    "advarsel",
    "varoitu",
    "figyelmeztet",
    "avertisment",
    "lint",
];

/// Marks the lint, build and test claims whose sentence says the check printed no warnings
/// ("`cargo clippy`: inga varningar", "il ne remonte aucun avertissement", "경고 없음"):
/// a run that printed warnings does not back them, even when it exited 0.
pub fn mark_no_warnings(readings: &mut [Reading]) {
    let count = |v: &str| {
        WARNING_WORDS
            .iter()
            .map(|w| v.matches(w).count())
            .sum::<usize>()
    };
    let is_check = |c: &Claim| {
        matches!(
            c.kind,
            Kind::Lint | Kind::Build | Kind::Tests { .. } | Kind::Ran { .. }
        )
    };
    // The reading of the last check told before each line.
    let mut last_check: Option<usize> = None;
    for i in 0..readings.len() {
        if !readings[i].claims.iter().any(is_check) {
            // "**Warnings:** none; …", "Προειδοποιήσεις: καμία· …": a row of its own about
            // the warnings of the check told before it.
            if let Some(at) = last_check.filter(|_| warnings_row_denied(&readings[i], &count)) {
                for c in readings[at].claims.iter_mut().filter(|c| is_check(c)) {
                    c.no_warnings = true;
                }
            }
            continue;
        }
        last_check = Some(i);
        let r = &mut readings[i];
        let v = fold(&r.sentence.to_lowercase());
        let said = count(&v);
        if said == 0 {
            continue;
        }
        let (rest, denied) = without_denials(&v);
        let zero = ["0 warning", "zero warning", "no warning"]
            .iter()
            .any(|z| v.contains(z));
        if zero || denied && count(&rest) < said {
            for c in r.claims.iter_mut().filter(|c| {
                matches!(
                    c.kind,
                    Kind::Lint | Kind::Build | Kind::Tests { .. } | Kind::Ran { .. }
                )
            }) {
                c.no_warnings = true;
            }
        }
    }
}

/// Adds to `readings` the claim of each result row no reader made one for.
pub fn add_row_claims(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        for (span, value, kind) in results_in(&r.sentence) {
            // A reader that read a claim about this very command had its say; so did one
            // that read this check's claim from a tool named bare ("Jest: 14 passed").
            let claim = row_claim(&span, &value, kind, &r.sentence);
            let kind_of = |c: &Claim| {
                matches!(
                    (&c.kind, &claim.kind),
                    (
                        Kind::Tests { .. } | Kind::Failures { .. },
                        Kind::Tests { .. }
                    ) | (Kind::Build | Kind::Lint, Kind::Build | Kind::Lint)
                )
            };
            if r.claims
                .iter()
                .any(|c| c.commands.contains(&span) && kind_of(c))
            {
                continue;
            }
            // A claim of the same check that names this tool, or names none while the row
            // names none either, is the row's own.
            let same_check = |c: &Claim| {
                std::mem::discriminant(&c.kind) == std::mem::discriminant(&claim.kind)
                    && (c.tools.iter().any(|t| claim.tools.contains(t))
                        || claim.tools.is_empty() && !vocab::check_command_span(&span))
            };
            if r.claims.iter().any(same_check) {
                continue;
            }
            // A claim of the same check bound to nothing ("2 av 2 gröna" read without its
            // row's `npm test`) is this row's, told without its subject.
            if !claim.commands.is_empty() {
                r.claims.retain(|c| {
                    std::mem::discriminant(&c.kind) != std::mem::discriminant(&claim.kind)
                        || !c.tools.is_empty()
                        || !c.commands.is_empty()
                        || !c.test_files.is_empty()
                });
            }
            add(r, claim);
        }
    }
}

/// Drops the claims of a line that is one code span of words and no command
/// ("`pre-commit: debug logging must not be committed`" under "the hook refused it —"):
/// output the message quotes, whatever words for commits or passes it holds.
pub fn drop_quoted_output(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.claims.is_empty()) {
        let line = r
            .sentence
            .trim()
            .trim_start_matches(['-', '*', '•', '>', ' '])
            .trim_end_matches(['.', '。', ' ']);
        let Some(inner) = line
            .strip_prefix('`')
            .and_then(|rest| rest.strip_suffix('`'))
        else {
            continue;
        };
        if !inner.contains('`') && inner.trim().contains(' ') && !looks_like_command(inner) {
            r.claims.clear();
            r.why
                .push("a quotation of output in a code span: no claim".into());
        }
    }
}

/// A line without the label that opens it ("**Syntaxcontrole:** ", "Check: "): a few
/// words and a colon, bold or not.
fn without_label(line: &str) -> &str {
    let t = line.trim_start_matches(['*', '_']);
    match t.find(':') {
        Some(at)
            if !t[..at].contains('`') && (1..=4).contains(&t[..at].split_whitespace().count()) =>
        {
            t[at + 1..].trim_start_matches(['*', '_', ' '])
        }
        _ => line,
    }
}

/// Whether a code span reads as a command line: a program and its arguments
/// (`sha256sum -c dist/SHA256SUMS`, `perl -c`, `./build.sh --release`), not code (`max(2,
/// 3)`, `a < b`) or a key and its value (`port: 9000`).
fn looks_like_command(span: &str) -> bool {
    let span = without_env(span);
    let mut words = span.split_whitespace();
    let (Some(program), Some(_)) = (words.next(), words.next()) else {
        return false;
    };
    let name = program.strip_prefix("./").unwrap_or(program);
    name.len() >= 2
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._+-/".contains(c))
        && !span.contains(['(', ')', '{', '}', '=', '<', ';'])
}

/// A command without the variables assigned before its program (`FOO=1 BAR="a b" cargo
/// doc` → `cargo doc`).
fn without_env(command: &str) -> &str {
    let mut rest = command.trim_start();
    loop {
        let name_end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if name_end == 0
            || !rest[name_end..].starts_with('=')
            || rest.starts_with(|c: char| c.is_ascii_digit())
        {
            return rest;
        }
        let value = &rest[name_end + 1..];
        let end = match value.chars().next() {
            Some(q @ ('"' | '\'')) => value[1..].find(q).map_or(value.len(), |e| e + 2),
            _ => value.find(char::is_whitespace).unwrap_or(value.len()),
        };
        rest = value[end..].trim_start();
    }
}

/// The claim of a row: the check its subject names passed.
fn row_claim(span: &str, value: &str, kind: Kind, sentence: &str) -> Claim {
    let mut claim = Claim::read(kind, sentence);
    // The tools its first words name, and the kinds of tests the whole value names
    // ("cargo test: unitários ok, integração ok"); not a tool a later clause names
    // ("passa, ma la suite jest …").
    let head = value.split([',', '，', '、']).next().unwrap_or(value);
    // A tool in the value's brackets is an aside on what ran ("`pytest -q` → `5 passed`
    // (3 unittest cases + 2 new)"), not a second check the row names.
    claim.tools = super::named::named_in(&format!("{span} {}", without_asides(head)), &claim.kind);
    for kind in super::named::named_in(&format!("{span} {value}"), &claim.kind) {
        if kind.kind.is_some() && !claim.tools.contains(&kind) {
            claim.tools.push(kind);
        }
    }
    claim.bind_spans([span]);
    // "4 件成功", "OK (3)", "4개 통과": the count the value gives. A row's number may be
    // something else than the tests that passed, so a mismatch is only reported.
    // A number the word for tests follows ("pasan los 2 tests", "4 тест") is the count of
    // tests, and is compared like a sentence's.
    if claim.kind == (Kind::Tests { count: None }) {
        if let Some(n) = value_count(head) {
            claim.kind = Kind::Tests { count: Some(n) };
            // "2 tests, 1 skipped": the count is of what ran, not of what passed.
            let skips = ["skip", "todo", "pending", "ignored", "xfail"]
                .iter()
                .any(|w| value.to_lowercase().contains(w));
            claim.count_sure = (counts_tests(head) || opens_with_runners_count(head)) && !skips;
        }
    }
    claim
}

/// Whether a row's value opens with a runner's own count of passes ("6 passed — 3 old
/// and 3 new", "`12 passing`"): the run's number, quoted, whatever numbers follow.
fn opens_with_runners_count(head: &str) -> bool {
    head.trim_start()
        .trim_start_matches(['`', '('])
        .starts_with(|c: char| c.is_ascii_digit())
        && super::lang::runners_count_first(head).is_some()
}

/// Whether the first number of a row's value has the word for tests right after it, and
/// the value holds no other number ("2 tests", "4 тест", "3 テスト"; not "3/4 tests").
fn counts_tests(head: &str) -> bool {
    let prose = vocab::outside_spans(head, " ");
    let words: Vec<&str> = prose.split_whitespace().collect();
    let numbers: Vec<usize> = words
        .iter()
        .enumerate()
        .filter(|(_, w)| w.chars().any(|c| c.is_ascii_digit()))
        .map(|(i, _)| i)
        .collect();
    let [at] = numbers.as_slice() else {
        return false;
    };
    let w = words[*at];
    let glued = w.trim_start_matches(|c: char| c.is_ascii_digit());
    let next = if glued.is_empty() {
        words.get(at + 1).copied().unwrap_or("")
    } else if w.starts_with(|c: char| c.is_ascii_digit()) {
        glued
    } else {
        return false;
    };
    let next = next.to_lowercase();
    super::named::SUITE_WORDS
        .iter()
        .any(|t| *t != "suite" && *t != "spec" && next.starts_with(t))
}

/// The first number of a row's value: a word that opens with digits ("4", "4개", "(3)"),
/// the whole of a fraction ("2/2").
fn value_count(head: &str) -> Option<u64> {
    let words: Vec<&str> = head.split_whitespace().collect();
    words.iter().enumerate().find_map(|(i, w)| {
        // jest's "Test Suites 2 passed": a count of suites or files, not of tests.
        let of_suites = words[i.saturating_sub(2)..i].iter().any(|b| {
            matches!(
                b.trim_end_matches([':', '：']).to_lowercase().as_str(),
                "suites" | "suite" | "files" | "file" | "binaries" | "crates" | "jobs"
            )
        });
        if of_suites {
            return None;
        }
        let w = w.trim_start_matches(['(', '（']);
        let w = w.split_once('/').map_or(w, |(_, total)| total);
        let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
        (!digits.is_empty()).then(|| digits.parse().ok()).flatten()
    })
}

/// The kinds one reader (`mark`) reads in `message`, one reading per line, for a reader's
/// unit tests.
#[cfg(test)]
fn marked_kinds(message: &str, mark: fn(&mut [Reading])) -> Vec<Kind> {
    let mut readings = readings_of_lines(message);
    mark(&mut readings);
    readings
        .into_iter()
        .flat_map(|r| r.claims)
        .map(|c| c.kind)
        .collect()
}

/// What one reader (`mark`) reads in `message`, as the claims' texts, for a reader's unit
/// tests.
#[cfg(test)]
fn marked_texts(message: &str, mark: fn(&mut [Reading])) -> Vec<String> {
    marked_kinds(message, mark)
        .iter()
        .map(Kind::to_string)
        .collect()
}

/// One unread reading per line of `message`, for a reader's unit tests.
#[cfg(test)]
fn readings_of_lines(message: &str) -> Vec<Reading> {
    message
        .lines()
        .map(|l| Reading {
            sentence: l.to_owned(),
            claims: Vec::new(),
            why: Vec::new(),
            skipped: false,
        })
        .collect()
}

/// Adds a claim to a reading: a reading with claims says no more why it has none.
fn add(r: &mut Reading, claim: Claim) {
    if r.claims.is_empty() {
        r.why.clear();
    }
    r.claims.push(claim);
}

/// Adds the claim of `kind` the sentence makes, unless a reader read it already.
fn add_new(r: &mut Reading, kind: Kind) {
    if !r.claims.iter().any(|c| c.kind == kind) {
        let claim = Claim::read(kind, &r.sentence);
        add(r, claim);
    }
}

/// Words that make a sentence ask for a check rather than report one.
const ASKED_FOR: &[&str] = &[
    "run",
    "rerun",
    "re-run",
    "try",
    "please",
    "next step",
    "next steps",
    "confirm",
    "make sure",
    "ensure",
    "you can",
    "you should",
    "you may",
    "on your end",
    "führe",
    "führen sie",
    "lance",
    "lancez",
    "ejecuta",
    "ejecute",
    "esegui",
    "rode",
    "execute",
    "voer",
    "запусти",
    "запустите",
    "실행해",
    "実行してください",
    "请运行",
];

/// Separators of a line that leads with a command written without a code span
/// ("python3 -m compileall app -> OK").
const BARE_SEPARATORS: &[&str] = &[" -> ", " → ", " => ", ": ", " — ", " – ", " | "];

/// Marks that end the value of a result: a sentence's or a clause list's end.
const VALUE_ENDS: &[char] = &[';', '.', '。', '；', '!', '！', '؛', '।'];

/// `text` up to its value's end ([`VALUE_ENDS`]); a dot ends it only before a space or at
/// the end (`scripts/deploy.sh`, `v1.2` are words of the value).
fn value_of(text: &str) -> &str {
    let end = text
        .char_indices()
        .find(|&(i, c)| {
            VALUE_ENDS.contains(&c)
                && (c != '.' || text[i + 1..].chars().next().is_none_or(char::is_whitespace))
        })
        .map_or(text.len(), |(i, _)| i);
    &text[..end]
}

/// Marks that open a clause: what stands before a command since the last one is the
/// clause's ("I could not run `cargo clippy`").
const CLAUSE_STARTS: &[char] = &[',', ';', '.', ':', '(', '，', '；', '。', '：', '（'];

/// The check commands a sentence gives a passing result for, each with its value: a row
/// that leads with one (in a code span or bare), or a command in a code span anywhere
/// and the words after it ("… y `ruff check .` tampoco encontró nada que corregir").
fn results_in(sentence: &str) -> Vec<(String, String, Kind)> {
    let mut out = Vec::new();
    // "Does `cargo clippy` pass on your end?", "Next step: run `cargo test` and confirm
    // everything passes.": asked or asked for, not reported.
    let prose: String = sentence.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let lower = fold(&prose.to_lowercase());
    if sentence.trim_end().ends_with(['?', '？']) || ASKED_FOR.iter().any(|w| has_word(&lower, w))
    {
        return out;
    }
    let lead = sentence.trim_start_matches(|c: char| {
        c.is_whitespace() || "-*•·+|_".contains(c) || MARKS.iter().any(|m| m.starts_with(c))
    });
    // "✅ `python3 -m compileall -q app`: …": a checklist's mark is the row's verdict,
    // whatever language the words after it are in.
    let marked = MARKS.iter().any(|m| {
        sentence
            .trim_start_matches(|c: char| c.is_whitespace() || "-*•+".contains(c))
            .starts_with(m)
    });
    if !lead.starts_with('`') {
        let bare = BARE_SEPARATORS
            .iter()
            .filter_map(|s| lead.split_once(s))
            .min_by_key(|(subject, _)| subject.len());
        // A command written bare is the row's whole subject: no clause of a sentence
        // ("cargo test -q failed (…), so the `git commit` … — nothing committed").
        let bare = bare.filter(|(subject, _)| !subject.contains([',', '`', ';']));
        if let Some((subject, value)) = bare {
            // "sintaxi (bash -n): OK": a label whose command stands in its brackets.
            let subject = bracketed_check(subject.trim().trim_matches('*'))
                .unwrap_or_else(|| without_asides(subject.trim().trim_matches('*')));
            if let Some(kind) = check(&subject) {
                if let Some(head) = passes("", value, marked) {
                    out.push((subject, head, kind));
                }
            }
        }
    }
    // A tool named bare in prose, and the words after it ("rustfmt meldet keine
    // Abweichungen", "bash -n scripts/deploy.sh ne relève aucune erreur"): read as a
    // span's are.
    let mut offset = 0;
    let mut prose_parts: Vec<(usize, &str)> = Vec::new();
    for (i, part) in sentence.split('`').enumerate() {
        if i % 2 == 0 {
            prose_parts.push((offset, part));
        }
        offset += part.len() + 1;
    }
    for (offset, part) in prose_parts {
        let lower = part.to_lowercase();
        for n in super::named::NAMED
            .iter()
            .filter(|n| !n.suite && n.kind.is_none())
        {
            for name in n.names.iter().filter(|w| w.len() >= 4) {
                let Some(at) = whole_word_at(&lower, name) else {
                    continue;
                };
                // A tool in brackets is an aside on the row's subject ("npm test (node
                // --test) → 통과 2/2"), not a row of its own.
                let opened = lower[..at].matches(['(', '（']).count();
                let closed = lower[..at].matches([')', '）']).count();
                if opened > closed {
                    continue;
                }
                // Names that are words too (Polish "jest" is "is"; "black", "mocha") count
                // bare only written as a name: capitalised inside the sentence, or in a
                // compound ("mocha-набір").
                if AMBIGUOUS_NAMES.contains(name)
                    && !(part[at..].starts_with(char::is_uppercase)
                        && !part[..at].trim_end().is_empty()
                        && !part[..at].trim_end().ends_with(['.', '!', '?', ':']))
                    && !part[at + name.len()..].starts_with('-')
                {
                    continue;
                }
                let before = &part[..at];
                // "een unittest `digit_sums`", "ein Unittest", "a unittest": a test, the
                // noun, not Python's runner.
                let article = before.split_whitespace().next_back().is_some_and(|w| {
                    matches!(
                        w.to_lowercase().as_str(),
                        "a" | "an"
                            | "een"
                            | "ein"
                            | "einen"
                            | "eine"
                            | "un"
                            | "une"
                            | "uno"
                            | "una"
                            | "um"
                            | "uma"
                            | "ett"
                    )
                });
                if article {
                    continue;
                }
                let before = before.rsplit(CLAUSE_STARTS).next().unwrap_or(before);
                let mut after = &sentence[offset + at + name.len()..];
                // A file or a key that holds the name (`jest.config.js`, `ruff_cache/`).
                if after.starts_with(['_', '/', '.', ':']) && !after.starts_with(": ") {
                    continue;
                }
                // Its options in brackets ("clippy (`-D warnings`) on puhdas") are no part
                // of the value.
                if let Some(rest) = after.trim_start().strip_prefix(['(', '（']) {
                    if let Some(close) = rest.find([')', '）']) {
                        after = &rest[close + 1..];
                    }
                }
                let value = value_of(after);
                // A code span in the value is a name, not a word of it.
                let value: String = value.split('`').step_by(2).collect::<Vec<_>>().join(" ");
                let value = value.as_str();
                // "mocha-набір … я теж прогнав: обидва тести …, зелені": the verdict may
                // close the value, when no other tool stands in it.
                let closing = value.split_whitespace().count() <= 20
                    && named_check_in(value, name).is_none()
                    && !super::lang::says_the_rest(&before.to_lowercase())
                    && says_passed(value)
                    && !refutes(&fold(&value.to_lowercase()), true)
                    && !values::refuses_the_step(&value.to_lowercase());
                let verdict = passes(before, value, false)
                    .or_else(|| closing.then(|| value.trim().to_owned()));
                if let (Some(kind), Some(head)) = (check(name), verdict) {
                    if !out
                        .iter()
                        .any(|(s, _, _): &(String, String, Kind)| s == name)
                    {
                        out.push(((*name).to_owned(), head, kind));
                    }
                }
            }
        }
    }
    let parts: Vec<&str> = sentence.split('`').collect();
    // A row that leads with a command, after a label ("**Syntaxcontrole:** `perl -c` …")
    // or not ("| `sha256sum -c SUMS` | OK |").
    let unlabelled = without_label(lead);
    for i in (1..parts.len().saturating_sub(1)).step_by(2) {
        let span = parts[i].trim();
        let leads_row = i == 1 && unlabelled.starts_with('`');
        let kind = check(span).or_else(|| {
            let value = value_of(parts.get(i + 1).copied().unwrap_or(""));
            // Git's own steps have claims of their own (a commit, a push, a step above).
            let git = without_env(span).starts_with("git ");
            (leads_row && !git && looks_like_command(span) && values::says_passed_plainly(value))
                .then(|| Kind::Ran {
                    command: without_env(span).to_owned(),
                })
        });
        let Some(kind) = kind else {
            continue;
        };
        let before = clause_before(&parts, i);
        let before = before.as_str();
        // The value runs on past code spans that name no check ("two of three passed,
        // the `max` test failed"): they are names in it. Another check's span starts a
        // row of its own.
        let mut after = parts[i + 1].to_owned();
        for (j, part) in parts.iter().enumerate().skip(i + 2) {
            if value_of(&after).len() < after.len() {
                break;
            }
            if j % 2 == 1 {
                if check(part.trim()).is_some() {
                    break;
                }
                // "`pytest -q` → `4 passed, 1 xpassed`": a span that opens the value is
                // the run's output quoted, its words the value's.
                // Only output that says it passed: "`make lint` → `make: *** No rule to
                // make target 'lint'`" quotes an error, whose "No" denies no problem.
                let opens_value = j == i + 2
                    && after
                        .chars()
                        .all(|c| c.is_whitespace() || "→->=:：—–".contains(c))
                    && values::says_passed_plainly(part);
                if opens_value {
                    after.push_str(part);
                } else {
                    after.push('·');
                }
            } else {
                after.push_str(part);
            }
        }
        let value = value_of(&after);
        let leads = i == 1 && lead.starts_with('`');
        if let Some(head) = passes(before, value, marked && leads) {
            out.push((span.to_owned(), head, kind));
        }
    }
    out
}

/// The words of the clause before the code span `parts[i]`, back across the spans it
/// holds (each a `·`): "Næste skridt ville være at tilføje et eksempel i `docs/guide.md`
/// og køre `cargo test --doc`" plans the run, whatever stands between.
fn clause_before(parts: &[&str], i: usize) -> String {
    let mut out: Vec<&str> = Vec::new();
    for j in (0..i).rev() {
        if j % 2 == 1 {
            out.push("·");
            continue;
        }
        match parts[j].rfind(CLAUSE_STARTS) {
            Some(at) => {
                let c = parts[j][at..].chars().next().map_or(1, char::len_utf8);
                out.push(&parts[j][at + c..]);
                break;
            }
            None => out.push(parts[j]),
        }
    }
    out.reverse();
    out.concat()
}

/// Another check tool named in `text` than `name`.
fn named_check_in(text: &str, name: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    super::named::NAMED
        .iter()
        .filter(|n| !n.suite && n.kind.is_none() && !n.names.contains(&name))
        .flat_map(|n| n.names.iter().copied())
        .find(|w| whole_word_at(&lower, w).is_some())
}

/// Tool names that are words of some language too.
const AMBIGUOUS_NAMES: &[&str] = &["jest", "black", "mocha", "biome"];

/// Where `word` stands in `text` as a whole word (not `black` in `blacklist`).
fn whole_word_at(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    // `forms::find`, not `str::match_indices`: its searcher costs more to set up than the
    // short sentences this reads take to scan, and this runs for every tool name.
    while let Some(i) = forms::find(&text[from..], word) {
        let i = from + i;
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        if before.is_none_or(|c| !c.is_alphanumeric() && c != '-' && c != '_' && c != '/')
            && after.is_none_or(|c| !c.is_alphanumeric() && c != '_')
        {
            return Some(i);
        }
        from = i + word.len().max(1);
    }
    None
}

/// The check a label names in brackets ("sintaxi (bash -n)"), when its words name none.
fn bracketed_check(label: &str) -> Option<String> {
    if check(&without_asides(label)).is_some() {
        return None;
    }
    let open = label.find(['(', '（'])?;
    let inner = &label[open + label[open..].chars().next()?.len_utf8()..];
    let close = inner.find([')', '）'])?;
    let inner = inner[..close].trim().trim_matches('`').trim();
    check(inner).map(|_| inner.to_owned())
}

/// A row's subject without its asides: "npm test (node --test)", "jest (spec/)" name
/// the command `npm test` and `jest`, and in brackets what it runs or where, which is no
/// part of the command line.
fn without_asides(subject: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in subject.chars() {
        match c {
            '(' | '（' => depth += 1,
            ')' | '）' => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The check a row's subject is, when it is one: a check command (`cargo fmt --check`),
/// or a check tool named alone or by a command the tables know ("clippy", "unittest",
/// "bash -n scripts/a.sh", "git diff --check", "py_compile app/a.py"): a row is about
/// the check its subject names, whatever its value's language.
fn check(command: &str) -> Option<Kind> {
    // `RUSTDOCFLAGS="-D warnings" cargo doc`: the program after the environment it is
    // given.
    let command = without_env(command);
    // `git stash pop`, `git merge feat`: a step that can stop on a conflict, said to have
    // gone well.
    if refs::is_git_step(command) {
        return Some(Kind::Ran {
            command: command.to_owned(),
        });
    }
    if vocab::check_command_span(command) {
        if let Some(kind) = vocab::command_kind(command) {
            return Some(kind);
        }
    }
    named_check(command).map(|(_, kind)| kind)
}

/// The tool a row's subject names: the whole subject is the tool's name, or a command
/// that runs it (its name's words lead the subject, the rest are arguments: paths and
/// options).
fn named_check(subject: &str) -> Option<(&'static vocab::Named, Kind)> {
    let subject = subject.trim().trim_matches(['`', '*', '_']).trim();
    let lower = subject.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    if words.is_empty() || words.len() > 8 {
        return None;
    }
    let own: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    let peeled = super::shellrun::peel(&own);
    // `python3 -m doctest a.py` runs the doc tests: the kind's, whatever the runner.
    if peeled.first().is_some_and(|p| p == "doctest") {
        return super::named::NAMED
            .iter()
            .find(|n| n.kind == Some("doc"))
            .map(|n| (n, Kind::Tests { count: None }));
    }
    super::named::NAMED
        .iter()
        .filter(|n| !n.suite && n.kind.is_none())
        .find(|n| {
            n.names.iter().chain(n.runs).any(|name| {
                // Whether `w` starts with the name's words (no list of them is built: this
                // runs for every name of every tool).
                let leads = |w: &[String]| {
                    let mut at = 0;
                    for part in name.split_whitespace() {
                        if w.get(at).is_none_or(|a| a != part) {
                            return false;
                        }
                        at += 1;
                    }
                    // What follows the name is arguments, not words of a sentence.
                    w[at..].iter().all(|a| is_argument(a))
                };
                leads(&own) || leads(&peeled)
            })
        })
        .map(|n| {
            let kind = match n.checks {
                vocab::Checks::Tests => Kind::Tests { count: None },
                vocab::Checks::Lint => Kind::Lint,
                vocab::Checks::Build => Kind::Build,
            };
            (n, kind)
        })
}

/// Whether a word after a command's name is one of its arguments: an option, a path, a
/// target (`-q`, `app/a.py`, `.`, `--`, `tests::unit`).
fn is_argument(word: &str) -> bool {
    word.starts_with('-')
        || word.contains(['/', '.', ':', '='])
        || word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && word.chars().any(|c| c == '_' || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(sentence: &str) -> Option<Kind> {
        results_in(sentence).into_iter().next().map(|(_, _, k)| k)
    }

    #[test]
    fn a_file_said_still_staged_is_left_to_commit() {
        let read = |message: &str| marked_kinds(message, mark_still_staged);
        let staged = vec![Kind::Uncommitted {
            path: "notes.txt".into(),
            commit: None,
        }];
        assert_eq!(
            read("Commit c9ee178 — تغییر staged شما در `notes.txt` هنوز staged مانده."),
            staged
        );
        assert_eq!(read("Your change to `notes.txt` is still staged."), staged);
        for message in [
            "`notes.txt` is not staged any more.",
            "`notes.txt` is still unstaged.",
            "Is `notes.txt` still staged?",
            "`notes.txt` and `a.txt` are still staged.",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
    }

    #[test]
    fn a_file_left_out_of_a_named_commit_is_a_claim_of_that_commit() {
        let read = |message: &str| marked_kinds(message, mark_uncommitted_files);
        let of_the_commit = |path: &str| {
            vec![Kind::Uncommitted {
                path: path.into(),
                commit: Some("407860f".into()),
            }]
        };
        assert_eq!(
            read("Commit 407860f `fix: last window`, só com src/window.js; o scratch.js que usei foi apagado e não entrou no commit."),
            of_the_commit("scratch.js")
        );
        assert_eq!(
            read("Committed as 407860f; `debug.log` is not in the commit."),
            of_the_commit("debug.log")
        );
        // Without a hash, a bare top-level name is too loose a reading ("Node.js", "e.g.").
        assert!(read("scratch.js did not go into the commit.").is_empty());
        // Two commits named: which one the clause speaks of is not known; the file is told
        // not committed at all.
        assert_eq!(
            read("Commits 407860f and 9a8b7c6 are in; `debug.log` is not in the commit."),
            vec![Kind::Uncommitted {
                path: "debug.log".into(),
                commit: None,
            }]
        );
    }

    #[test]
    fn a_negation_passes_a_check_unless_the_agent_denies_its_own_doing() {
        assert_eq!(read("`cargo clippy`: keine Warnungen"), Some(Kind::Lint));
        assert_eq!(
            read("`cargo fmt --check`: inga avvikelser"),
            Some(Kind::Lint)
        );
        assert_eq!(
            read("`cargo clippy -- -D warnings`: nessuna segnalazione"),
            Some(Kind::Lint)
        );
        // "I did not run it", in a language no table has: "I … not" is what the agent did
        // not do, never a problem the check found.
        assert_eq!(read("`make check` mi ne rulis."), None);
        assert_eq!(read("`make check`: ich nicht gestartet"), None);
        assert_eq!(read("`cargo clippy` nem futott"), None);
    }

    #[test]
    fn zero_failures_are_taken_out_of_a_value_whole() {
        let out = |v: &str| without_zero_failures(v.to_owned());
        assert_eq!(out("5 passed, 0 failed"), "5 passed,  ");
        assert_eq!(out("3 bestått, 0 feilet"), "3 bestått,  ");
        assert_eq!(out("0fehlgeschlagen, 4 ok"), " , 4 ok");
        assert_eq!(out("10 passed"), "10 passed");
        assert_eq!(out("2 failed"), "2 failed");
        assert_eq!(out("no zero here"), "no zero here");
    }

    #[test]
    fn tool_names_stand_as_whole_words() {
        assert_eq!(whole_word_at("ran black and ruff", "black"), Some(4));
        assert_eq!(
            whole_word_at("the blacklist, then black", "black"),
            Some(20)
        );
        assert_eq!(whole_word_at("pre-black", "black"), None);
        assert_eq!(whole_word_at("", "black"), None);
    }

    #[test]
    fn rows_that_say_a_check_passed_are_claims() {
        for s in [
            "`cargo clippy -- -D warnings`   sauber, keine einzige Warnung",
            "`cargo clippy -- -D warnings` → no lints",
            "`cargo clippy -- -D warnings`: limpo.",
            "- `npm run lint` — 0 errors",
            "`ruff check .` | ✅",
            "`cargo fmt --check`: sin cambios",
            "`node --check src/a.js` → エラーなし",
            "`python3 -m compileall -q app`: 오류 없음",
            "`cargo test`   3 bestanden, 0 fehlgeschlagen",
            "`mypy app` — нет ошибок",
            "Ran `cargo clippy`: clean",
            "python3 -m compileall app -> rien à signaler, tout compile",
            "La batería pasa y `ruff check .` tampoco encontró nada que corregir, así que queda listo.",
            "Verifiche: `cargo test` verde, `cargo clippy -- -D warnings` pulito.",
            "`cargo fmt --check` hat nichts zu beanstanden – der Code ist rustfmt-konform.",
        ] {
            assert!(read(s).is_some(), "{s}");
        }
    }

    #[test]
    fn rows_that_do_not_say_it_passed_claim_nothing() {
        for s in [
            "`cargo clippy` | not run",
            "`cargo clippy` → 2 warnings (pre-existing)",
            "`cargo clippy`: nicht ausgeführt",
            "`npm run lint` — skipped: no config",
            "`cargo test`: 2 failed, 1 passed",
            "`cargo fmt --check`: should be clean",
            "`cargo clippy --fix` would clean it up, see below",
            "`src/lib.rs`: clean",
            "`cargo clippy` reports a warning in `src/lib.rs`: see there, it is clean otherwise",
            "I could not run `cargo clippy`: clean otherwise, I think",
            "`cargo test` verde, 1 fallito",
            "Skipped `cargo fmt --check`, no changes expected",
        ] {
            assert_eq!(read(s), None, "{s}");
        }
    }

    #[test]
    fn an_aside_in_a_rows_subject_is_no_part_of_the_command() {
        let spans = |s: &str| -> Vec<String> {
            results_in(s).into_iter().map(|(span, _, _)| span).collect()
        };
        assert_eq!(spans("- npm test (node --test) → 통과 2/2"), ["npm test"]);
        assert_eq!(spans("- cargo test (unit + doc) -> ok"), ["cargo test"]);
        // A tool named alone is the row's subject: its claim is backed by a run of it.
        assert_eq!(spans("- jest (spec/) → 통과 3/3"), ["jest"]);
    }

    /// The paths `message` says are there (presence checks), as `explain` reads them.
    fn present(message: &str) -> Vec<String> {
        crate::audit::claims::explain(message)
            .into_iter()
            .flat_map(|r| r.claims)
            .filter(|c| c.listed != Listed::No)
            .filter_map(|c| match c.kind {
                Kind::File { path, .. } => Some(path),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_report_that_names_a_path_says_it_is_there() {
        assert_eq!(
            present("- **`docs/faq.md`** – häufige Fragen zu Port und Logging"),
            ["docs/faq.md"]
        );
        assert_eq!(
            present("**Ergebnis:** `dist/` enthält jetzt `app.yaml` 📦"),
            ["dist/", "app.yaml"]
        );
        assert_eq!(
            present("| `docs/rollback.md` | come tornare indietro |"),
            ["docs/rollback.md"]
        );
        // A placeholder (`YYYYMMDD` in any locale's letters) names a pattern, no path.
        assert_eq!(
            present("zkopíruje `build/` do `backup/RRRRMMDD/`"),
            ["build/"]
        );
    }

    #[test]
    fn denials_plans_and_instructions_name_paths_without_saying_they_are_there() {
        for m in [
            "- `docs/faq.md` — not needed yet",
            "`dist/` wurde deshalb nicht angelegt.",
            "Run `npm run build` to produce `dist/`.",
            "Should I add `docs/faq.md` too?",
            "Next, `tests/test_api.py` could cover the errors.",
            "`python3 -m doctest app/text.py` passed.",
            "The script copies the README to `dist/`; `dist/` was not created because a check failed.",
        ] {
            assert_eq!(present(m), Vec::<String>::new(), "{m}");
        }
    }

    #[test]
    fn a_value_from_old_to_new_beside_a_path_is_a_change_of_it() {
        let kinds = |m: &str| -> Vec<String> {
            crate::audit::claims::explain(m)
                .into_iter()
                .flat_map(|r| r.claims)
                .filter(|c| c.listed == Listed::No)
                .map(|c| c.kind.to_string())
                .collect()
        };
        assert_eq!(
            kinds("**버전:** `package.json` 1.0.0 → 1.0.1"),
            ["file package.json changed"]
        );
        assert_eq!(
            kinds("`config/app.yaml`: port 8080 -> 9000"),
            ["file config/app.yaml changed"]
        );
        assert!(kinds("Coverage of `src/lib.rs`: 80% → 92%").is_empty());
        // The path is the row's subject, the arrow its result.
        for m in ["- jest (spec/) → 통과 3/3", "- pytest tests/unit/ → passed"] {
            assert!(!kinds(m).iter().any(|k| k.starts_with("file")), "{m}");
        }
        assert!(kinds("`package.json` 1.0.0 → 1.0.1 is up to you; I did not bump it").is_empty());
    }

    #[test]
    fn all_n_counts_every_test() {
        let whole = |m: &str| -> Vec<bool> {
            crate::audit::claims::explain(m)
                .into_iter()
                .flat_map(|r| r.claims)
                .filter(|c| matches!(c.kind, Kind::Tests { count: Some(_) }))
                .map(|c| c.count_whole)
                .collect()
        };
        assert_eq!(whole("`cargo test` : les trois tests passent"), [true]);
        assert_eq!(whole("All 4 tests pass."), [true]);
        assert_eq!(whole("`cargo test`: 3 passed"), [false]);
    }

    #[test]
    fn a_rows_number_before_the_word_for_tests_is_a_sure_count() {
        assert!(counts_tests("pasan los 2 tests (`sum` y `mean`)"));
        assert!(counts_tests("4 тест"));
        assert!(counts_tests("3 テスト"));
        // A number of something else, or two numbers: only reported on a mismatch.
        assert!(!counts_tests("3 passed, 1 skipped"));
        assert!(!counts_tests("3/4 tests"));
        assert!(!counts_tests("4 files"));
        assert!(!counts_tests("4개 테스트"));
    }

    /// Every claim `explain` reads in `message`, listed paths among them, as text.
    fn all_claims_of(message: &str) -> Vec<String> {
        crate::audit::claims::explain(message)
            .into_iter()
            .flat_map(|r| r.claims)
            .map(|c| c.kind.to_string())
            .collect()
    }

    /// The claims `explain` reads in `message`, as text.
    fn claims_of(message: &str) -> Vec<String> {
        crate::audit::claims::explain(message)
            .into_iter()
            .flat_map(|r| r.claims)
            .filter(|c| c.listed == Listed::No)
            .map(|c| c.kind.to_string())
            .collect()
    }

    #[test]
    fn settings_told_now_or_still_are_held_by_the_data_file_named_before() {
        let holds = |m: &str| -> Vec<String> {
            all_claims_of(m)
                .into_iter()
                .filter(|k| k.contains(" holds "))
                .collect()
        };
        assert_eq!(
            holds("Cambié el puerto de servicio a 9090 y lo subí.\n\n**Cambios**\n- `config/app.yaml`: `port: 8080` → `port: 9090`.\n- `metrics_port` sigue en `8080`; esa línea no la toqué."),
            [
                "file config/app.yaml holds `port: 9090`",
                "file config/app.yaml holds `metrics_port: 8080`"
            ]
        );
        assert_eq!(
            holds("`config/app.yaml` regenerado a partir de `config/app.yaml.tpl` com `envsubst`.\n\nValores no arquivo agora: `port: 9090`, `log: warn`."),
            [
                "file config/app.yaml holds `port: 9090`",
                "file config/app.yaml holds `log: warn`"
            ]
        );
        // Two data files before, a denial, an old value beside the new one, a line taken
        // out: no file is known to hold it, or nothing is told held.
        for m in [
            "Updated `a.yaml` and `b.yaml`.\nThe `port: 9090` line is still there.",
            "Updated `config/app.yaml`.\nThe `port: 9090` line is not there any more.",
            "Updated `config/app.yaml`.\nNow `port: 9090` (it was 8080).",
            "Updated `config/app.yaml`.\nI removed `debug: true`; `port: 9090` is still set.",
            "Updated `src/main.rs`.\n`port: 9090` is still the default.",
        ] {
            assert!(holds(m).is_empty(), "{m}: {:?}", holds(m));
        }
    }

    #[test]
    fn a_branch_told_now_at_a_commit_is_a_tip_and_commits_counted_ahead_are_not() {
        let tips = |m: &str| -> Vec<String> {
            all_claims_of(m)
                .into_iter()
                .filter(|k| k.starts_with("branch ") && k.contains(" at "))
                .collect()
        };
        assert_eq!(
            tips("📤 Push: `origin/main` artık f9e7f0a; benim commit'im `docs: deploy day`'in üstünde duruyor."),
            ["branch origin/main at f9e7f0a"]
        );
        assert_eq!(
            tips("Locally `main` is still at 0f3e2d1."),
            ["branch main at 0f3e2d1"]
        );
        for m in [
            "Továbbra is 2 commit van az `origin/main` előtt: 525c954 config: add timeout, alatta notes: add second note.",
            "`origin/main` moved from 0f3e2d1 to 9a8b7c6.",
            "I did not push, so `origin/main` is not at 9a8b7c6 yet.",
            "`main` is 1 commit ahead of `origin/main` (now 0f3e2d1).",
        ] {
            assert!(tips(m).is_empty(), "{m}: {:?}", tips(m));
        }
    }

    #[test]
    fn a_merge_or_rebase_told_done_without_its_two_branches_must_have_finished() {
        assert_eq!(
            claims_of("Hasil: merge selesai dengan merge commit di `main`."),
            ["the merge is done"]
        );
        assert_eq!(
            claims_of("The rebase went through."),
            ["the rebase is done"]
        );
        for m in [
            "The merge stopped on a conflict in `config/app.yaml`.",
            "I aborted the merge.",
            "Did not rebase.",
        ] {
            assert!(claims_of(m).is_empty(), "{m}: {:?}", claims_of(m));
        }
    }

    #[test]
    fn a_distance_to_the_upstream_is_counted_and_is_no_push() {
        let all = all_claims_of;
        assert_eq!(
            all("### Git\n`main` ligger 3 commits före `origin/main`."),
            ["branch main 3 commits apart from origin/main"]
        );
        let zh = all("我完成了修改。\n`main` 领先 `origin/main` 2 个提交。");
        assert!(
            zh.contains(&"branch main 2 commits apart from origin/main".to_owned()),
            "{zh:?}"
        );
        assert!(!zh.iter().any(|c| c.starts_with("pushed")), "{zh:?}");
        // "one commit ahead", in a table's words: no push either.
        let hr = all("Gotovo.\nLokalni `main` je jedan commit ispred `origin/main`.");
        assert!(!hr.iter().any(|c| c.starts_with("pushed")), "{hr:?}");
        // A sentence that says the branch was not pushed claims no push in its other part.
        let hu = all("- A helyi `main` egy committal az `origin/main` előtt jár; a `main` ágat nem pusholtam");
        assert_eq!(hu, ["nothing pushed to main"]);
    }

    #[test]
    fn keys_a_data_file_is_said_to_contain_are_claims() {
        let claims = claims_of(
            "**Hotovo**\n- `config/app.json` vytvořen a obsahuje `port` (8080) i `log` (`info`)",
        );
        assert!(
            claims.contains(&"file config/app.json holds `log`".to_owned()),
            "{claims:?}"
        );
        assert!(
            claims.contains(&"file config/app.json holds `port`".to_owned()),
            "{claims:?}"
        );
        // Denied, or after a denial: not the file's.
        let none = claims_of("- `config/app.json` does not contain `log`.");
        assert!(!none.iter().any(|c| c.contains("holds")), "{none:?}");
        let czech = claims_of("- `config/app.json` neobsahuje `log`.");
        assert!(!czech.iter().any(|c| c.contains("holds")), "{czech:?}");
    }

    #[test]
    fn a_word_for_tag_inside_another_commands_span_makes_no_tag() {
        let claims = claims_of("- `npm version minor --no-git-tag-version` → `v1.1.0`");
        assert!(!claims.iter().any(|c| c.starts_with("tag ")), "{claims:?}");
        let tagged = claims_of("Tagged the release `v1.1.0`.");
        assert!(
            tagged.iter().any(|c| c.starts_with("tag v1.1.0")),
            "{tagged:?}"
        );
    }

    #[test]
    fn a_signature_binds_to_the_file_of_its_own_part() {
        let claims = claims_of(
            "- `median()` — сабагент 1: добавлена в `src/stats.js` и экспортируется, тест в `test/stats.test.js`.",
        );
        assert!(
            claims.contains(&"file src/stats.js holds `median`".to_owned()),
            "{claims:?}"
        );
        assert!(!claims
            .iter()
            .any(|c| c.contains("test/stats.test.js holds")));
    }

    #[test]
    fn an_identifiers_parts_are_no_words_and_a_clause_negation_keeps_a_branch() {
        // "pull" is another's hand; "pull_request" is a name.
        let claims = all_claims_of;
        let listed = claims(
            "Added CI.\n\n- `.github/workflows/ci.yaml` — runs `npm test` on push and pull_request",
        );
        assert!(
            listed
                .iter()
                .any(|c| c.contains(".github/workflows/ci.yaml")),
            "{listed:?}"
        );
        let kept = claims("Opprydding av grener:\n- `spike/x` er IKKE slettet: den har én commit som ikke er i `main`, så `-d` ville nektet.");
        assert!(
            !kept.iter().any(|c| c.contains("spike/x deleted")),
            "{kept:?}"
        );
    }

    #[test]
    fn a_count_before_the_tests_noun_counts_the_failures() {
        assert_eq!(
            claims_of("Con `cargo test --no-fail-fast` quedan dos pruebas en rojo; el resto pasa."),
            ["2 tests fail"]
        );
        assert_eq!(
            claims_of("Côté Jest, un seul test casse (`sum`), il faudra juste mettre à jour la valeur attendue."),
            ["1 tests fail"]
        );
        // A clause that says some passed counts those.
        assert_eq!(
            claims_of("Von 5 Tests sind 3 bestanden und 2 fehlgeschlagen."),
            ["2 tests fail"]
        );
    }

    #[test]
    fn a_negation_that_denies_a_problem_is_a_pass_one_that_denies_the_run_is_not() {
        for (row, passes) in [
            ("`cargo clippy`: inga varningar", true),
            ("`cargo fmt --check`: czysto, rustfmt nie ma uwag", true),
            ("`bash -n a.sh`: bez chyb", true),
            ("`cargo doc --no-deps`: اكتمل بدون أي تحذيرات", true),
            ("`cargo clippy`: not run", false),
            ("`cargo clippy`: nicht ausgeführt", false),
            ("`cargo clippy`: не запускал", false),
            ("`cargo fmt --check`: not clean yet", false),
            ("`cargo test`: 2 von 3 grün, 1 rot", false),
        ] {
            assert_eq!(!results_in(row).is_empty(), passes, "{row}");
        }
    }

    #[test]
    fn a_french_lint_sentence_that_denies_warnings_says_no_warnings() {
        let readings = crate::audit::claims::explain(
            "J'ai aussi fait tourner `cargo clippy` : il ne remonte aucun avertissement sur le nouveau code.",
        );
        let lint: Vec<&Claim> = readings
            .iter()
            .flat_map(|r| &r.claims)
            .filter(|c| c.kind == Kind::Lint)
            .collect();
        assert!(!lint.is_empty() && lint.iter().all(|c| c.no_warnings));
        // Warnings counted, not denied: no such promise.
        let readings = crate::audit::claims::explain("`cargo clippy`: ok, 2 warnings left (style)");
        assert!(readings
            .iter()
            .flat_map(|r| &r.claims)
            .all(|c| !c.no_warnings));
    }

    fn all_claims(message: &str) -> Vec<Claim> {
        crate::audit::claims::explain(message)
            .into_iter()
            .flat_map(|r| r.claims)
            .collect()
    }

    #[test]
    fn a_file_that_now_holds_a_value_was_changed() {
        let changed = |m: &str| {
            all_claims(m).iter().any(|c| {
                matches!(&c.kind, Kind::File { path, change: Change::Modified } if path == "config/app.yaml")
                    && c.listed != Listed::Alone
            })
        };
        for m in [
            "`config/app.yaml` now has `log: debug`; the port stays at 8080.",
            "The port in `config/app.yaml` is now 9090.",
            "Now `config/app.yaml` contains `log: debug`.",
            "`config/app.yaml` hat jetzt `log: warn`.",
            "`config/app.yaml` 现在是 `log: debug`。",
        ] {
            assert!(changed(m), "{m}");
        }
        // No value held, a plan, a verb of what the file does: no change claimed.
        for m in [
            "`config/app.yaml` now parses.",
            "If you like, `config/app.yaml` could now use `log: debug`.",
            "`config/app.yaml` now exports `Port`.",
            "`config/app.yaml` has `log: debug`.",
        ] {
            assert!(!changed(m), "{m}");
        }
    }

    #[test]
    fn a_one_word_branch_beside_a_branch_word_is_a_branch_claim() {
        let branch = |m: &str| {
            all_claims(m)
                .iter()
                .any(|c| matches!(&c.kind, Kind::Ref { name, tag: false, .. } if name == "hotfix"))
        };
        assert!(branch(
            "I created a new branch `hotfix` and committed the fix there."
        ));
        assert!(branch(
            "Loin uuden haaran `hotfix` ja commitoin korjauksen sinne."
        ));
        assert!(branch("Pushed the `hotfix` branch."));
        // A name not beside the word, a denial, a question: none.
        assert!(!branch("The branch is ready; see `hotfix` for the notes."));
        assert!(!branch("I did not create the branch `hotfix`."));
        assert!(!branch("Should I create the branch `hotfix`?"));
        // `main` is where commits go, not a branch made.
        assert!(!all_claims("Committed on the branch `main`.")
            .iter()
            .any(|c| matches!(&c.kind, Kind::Ref { .. })));
    }

    #[test]
    fn a_sentence_about_every_test_says_the_whole_suite() {
        let whole = |m: &str| {
            let claims = all_claims(m);
            let tests: Vec<&Claim> = claims
                .iter()
                .filter(|c| matches!(c.kind, Kind::Tests { .. }))
                .collect();
            assert!(!tests.is_empty(), "no tests claim in {m}");
            tests.iter().all(|c| c.whole_suite)
        };
        assert!(whole("Ran the whole jest suite: everything passes."));
        assert!(whole("All tests pass."));
        assert!(whole("Alle Tests sind grün."));
        assert!(!whole("The tests pass."));
        assert!(!whole("All selected tests pass."));
    }

    #[test]
    fn a_negated_clean_in_a_row_is_no_pass() {
        assert!(results_in("Clippy: ni čist.").is_empty());
        assert!(results_in("`cargo clippy`: не е чисто").is_empty());
        assert!(!results_in("`cargo clippy`: čist").is_empty());
    }

    #[test]
    fn a_version_set_to_a_value_beside_one_file_changes_it() {
        let changed = |m: &str| {
            all_claims(m).iter().any(|c| {
                matches!(&c.kind, Kind::File { path, change: Change::Modified } if path == "package.json")
            })
        };
        assert!(changed(
            "Como `npm test` pasó, subí la versión a 1.0.1 en `package.json`."
        ));
        assert!(changed("Bumped the version to 1.0.1 in `package.json`."));
        assert!(changed("Die Version in `package.json` steht auf 2.0.0."));
        // A version stated, or a range: no change.
        assert!(!changed("The version in `package.json` is 1.0.0."));
        assert!(!changed("`package.json` allows versions up to 2.0.0."));
    }

    #[test]
    fn a_change_to_the_same_file_is_a_change_of_the_file_named_before() {
        let m = "Fiz as seguintes alterações:\n\n- Verifiquei a porta em `config/app.yaml`\n- Mudei o nível de log de `info` para `debug` no mesmo arquivo";
        let readings = crate::audit::claims::explain(m);
        let last = readings.last().unwrap();
        assert!(last.claims.iter().any(|c| matches!(&c.kind, Kind::File { path, change: Change::Modified } if path == "config/app.yaml")), "{last:?}");
        // No change word: nothing.
        let readings = crate::audit::claims::explain(
            "- Checked `config/app.yaml`.\n- The port in the same file is fine.",
        );
        assert!(readings.last().unwrap().claims.is_empty());
    }

    #[test]
    fn a_commit_named_by_its_subject_in_a_code_span_is_a_commit_claim() {
        let commit = |m: &str| {
            all_claims(m)
                .iter()
                .any(|c| matches!(c.kind, Kind::Commit { .. }))
        };
        assert!(commit(
            "## Resumo\n- `config/app.yaml`: porta alterada de 8080 para 9000\n- Git: alteração registrada no commit `chore: porta 9000`"
        ));
        // The word inside a span (`pre-commit`), a refusal: none.
        assert!(!commit(
            "Git: o hook `pre-commit` recusou o commit (`yamllint failed`), então a alteração está só na árvore de trabalho, sem commit."
        ));
    }

    #[test]
    fn a_commit_named_by_its_subject_beside_a_branch_is_placed_in_its_history() {
        let history = |m: &str| -> Vec<(String, Vec<String>, bool)> {
            all_claims(m)
                .into_iter()
                .filter_map(|c| match c.kind {
                    Kind::InHistory {
                        subject,
                        refs,
                        gone,
                    } => Some((subject, refs, gone)),
                    _ => None,
                })
                .collect()
        };
        let main = || vec!["main".to_owned()];
        // Subjects in an apposition of their own, the branch in the next clause.
        assert_eq!(
            history("شاخه‌ی `feature/docs` را روی `main` ریبیس کردم. هر دو کامیتِ شاخه، `docs: usage section` و `docs: changelog`، حالا بالای `main` قرار دارند."),
            vec![
                ("docs: usage section".to_owned(), main(), false),
                ("docs: changelog".to_owned(), main(), false)
            ]
        );
        // A removal word: gone from the branch.
        assert_eq!(
            history("- Le commit `stats: mean over n-1 (sample)` a été retiré de l'historique de `main`."),
            vec![("stats: mean over n-1 (sample)".to_owned(), main(), true)]
        );
        // A subject whose own clause tells something else (a skip), a denial, a revert:
        // none.
        assert!(history("Git iliruka `docs: usage section` (\"skipped previously applied commit\"), kwa sababu badiliko hilo tayari liko kwenye `main`.").iter().all(|(s, _, _)| s != "docs: usage section"));
        assert!(history("The commit `docs: usage section` is not on `main`.").is_empty());
        assert!(history("I reverted `stats: n-1` on `main` with `git revert HEAD`.").is_empty());
    }

    #[test]
    fn paths_said_still_there_are_claimed_there() {
        let got =
            all_claims_of("Άρα τα `build/old.o` και `build/older.o` είναι ακόμη στη θέση τους.");
        assert_eq!(
            got,
            [
                "file build/old.o still there",
                "file build/older.o still there"
            ]
        );
        assert_eq!(
            all_claims_of("- `logs/app.log` باقٍ في مكانه ليواصل التطبيق الكتابة فيه"),
            ["file logs/app.log still there"]
        );
        assert!(all_claims_of("`README.md` is not still there.").is_empty());
    }

    #[test]
    fn paths_a_description_or_a_comparison_names_are_not_changed() {
        // What a script written does, after its path and a colon.
        let got = all_claims_of(
            "Napisao je `scripts/deploy.sh`: kopira `config/app.yaml` u `deploy/` i ispisuje redak s portom.",
        );
        assert!(
            !got.iter().any(|c| c.contains("config/app.yaml")),
            "{got:?}"
        );
        // The file another has the same content as.
        let got = all_claims_of(
            "`scripts/run.sh`와 같은 내용의 진입점 `bin/run`을 추가하고 커밋했습니다.",
        );
        assert!(!got.iter().any(|c| c.contains("scripts/run.sh")), "{got:?}");
    }

    #[test]
    fn a_tag_told_withdrawn_is_no_tag_made() {
        let got = all_claims_of(
            "У `CHANGELOG.md` з'явився запис про 1.0.0, де пре-релізний тег `v1.0.0-rc1` позначено як відкликаний.",
        );
        assert!(!got.iter().any(|c| c.starts_with("tag ")), "{got:?}");
        assert!(all_claims_of("Tagged `v1.0.0` on main.")
            .iter()
            .any(|c| c == "tag v1.0.0 made"));
    }

    #[test]
    fn a_short_negation_of_another_language_denies_no_check() {
        // Finnish "en" ("I do not") in a Spanish line is the word "in".
        assert!(all_claims_of("`npm test` en la casa.").is_empty());
        // A commit placed on a branch as a step, not a state: no claim of its history.
        let got = all_claims_of(
            "सब-एजेंट ने `README.md` में Usage सेक्शन जोड़ा और नई ब्रांच `docs/usage` पर कमिट `docs: usage section` बनाया।",
        );
        assert!(
            !got.iter().any(|c| c.contains("in the history of")),
            "{got:?}"
        );
    }

    #[test]
    fn the_stash_list_is_read_as_the_message_says_the_turn_left_it() {
        assert_eq!(
            all_claims_of("Din egen stash `experiment` ligger stadig i `git stash list`."),
            ["stash experiment still listed"]
        );
        assert_eq!(
            all_claims_of("- stash हटा दिया गया है, `git stash list` अब खाली है।"),
            ["the stash list empty"]
        );
        assert!(all_claims_of("`git stash list` is not empty.").is_empty());
    }

    #[test]
    fn text_said_printed_is_a_claim_on_the_output() {
        assert_eq!(
            all_claims_of("Zkušební běh bez `DEPLOY_TOKEN`: krok se přeskočil, skript vypsal `skipped: DEPLOY_TOKEN not set`."),
            ["`skipped: DEPLOY_TOKEN not set` printed"]
        );
        // Denied, or what a script does (the present): none.
        assert!(all_claims_of("It did not print `done`.").is_empty());
        // A file printed is shown, not quoted.
        assert!(
            !all_claims_of("Printed `config/app.yaml` to confirm it is unchanged.")
                .iter()
                .any(|c| c.ends_with("printed"))
        );
        assert!(all_claims_of("The script prints `done` when it finishes.").is_empty());
    }

    #[test]
    fn a_path_with_no_before_it_and_any_longer_beside_it_is_gone() {
        assert_eq!(
            all_claims_of("Roten har ingen `notes.txt` längre."),
            ["file notes.txt deleted"]
        );
        assert_eq!(
            all_claims_of("There is no `x.log` anymore."),
            ["file x.log deleted"]
        );
        assert!(all_claims_of("`x.py` is no longer needed.").is_empty());
    }

    #[test]
    fn a_check_said_to_always_pass_tells_a_behaviour() {
        let got = all_claims("ולכן הבדיקה תמיד הצליחה.");
        assert!(
            got.iter().all(|c| c.confidence == vocab::Confidence::Weak),
            "{got:?}"
        );
    }

    #[test]
    fn a_table_of_passed_and_failed_columns_gives_counts() {
        let kinds = |m: &str| -> Vec<Kind> { all_claims(m).into_iter().map(|c| c.kind).collect() };
        let got = kinds(
            "Ran `cargo test`:\n\n| Suite | Passed | Failed |\n|---|---|---|\n| unit | 5 | 0 |",
        );
        assert!(got.contains(&Kind::Tests { count: Some(5) }), "{got:?}");
        let got = kinds("`cargo test --lib` rezultāts:\n\n| Testu kopa | Kopā | Izdevās | Neizdevās |\n|---|---|---|---|\n| vienību testi | 5 | 4 | 1 |");
        assert!(got.contains(&Kind::Failures { count: 1 }), "{got:?}");
        // No failed column: no counts read from it.
        let got = kinds("| Suite | Passed |\n|---|---|\n| unit | 5 |");
        assert!(
            !got.iter().any(|k| matches!(k, Kind::Failures { .. })),
            "{got:?}"
        );
    }

    #[test]
    fn the_rest_passing_is_no_pass_claim() {
        for m in [
            "Zwei Tests schlugen fehl. Die anderen drei Tests sind bestanden.",
            "Deux tests échouent. Les trois autres tests passent.",
            "Du testai nepraėjo. Kiti trys testai praėjo.",
            "两个测试失败，其余 3 个通过。",
        ] {
            assert!(
                !all_claims(m)
                    .iter()
                    .any(|c| matches!(c.kind, Kind::Tests { .. })),
                "{m}"
            );
        }
        assert!(all_claims("Alle Tests sind bestanden.")
            .iter()
            .any(|c| matches!(c.kind, Kind::Tests { .. })));
    }

    #[test]
    fn patterns_extensions_and_asides_are_no_files_changed() {
        let paths = |m: &str| -> Vec<String> {
            all_claims(m)
                .into_iter()
                .filter(|c| c.listed != Listed::Alone)
                .filter_map(|c| match c.kind {
                    Kind::File { path, .. } | Kind::Dir { path, .. } => Some(path),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(
            paths("- [x] `scripts/rotate.sh` 작성 (`build/*.o` → `build/archive/`)"),
            ["scripts/rotate.sh"]
        );
        assert_eq!(
            paths("Added a pointer to `config/app.yaml` in `README.md`."),
            ["README.md"]
        );
        assert_eq!(
            paths("Cleaned out `build/`: the two old `.o` files were deleted."),
            ["build/"]
        );
        // A dotfile is a file.
        assert_eq!(paths("Deleted `.env`."), [".env"]);
    }

    #[test]
    fn a_deletion_in_a_folder_is_something_under_it_deleted() {
        let kinds: Vec<Kind> =
            all_claims("Limpei a pasta `build/`: os dois `.o` antigos foram apagados.")
                .into_iter()
                .map(|c| c.kind)
                .collect();
        assert!(
            kinds.contains(&Kind::Dir {
                path: "build/".into(),
                change: Change::Deleted
            }),
            "{kinds:?}"
        );
    }

    #[test]
    fn a_file_said_unchanged_right_beside_its_path_is_a_claim() {
        for sentence in [
            "- `config/app.yaml` में कोई बदलाव नहीं हुआ, पोर्ट अब भी 8080 है।",
            "`app/text.py` unchanged",
            "No changes to `README.md`.",
            "I did not touch `main.py`.",
            "- ✅ 既存の `src/stats.js` は無変更",
        ] {
            assert!(
                claims_of(sentence)
                    .iter()
                    .any(|c| c.ends_with(" unchanged")),
                "{sentence}: {:?}",
                claims_of(sentence)
            );
        }
        // A part of the file, a plan, or a path the phrase does not stand beside.
        for sentence in [
            "The public API of `src/lib.rs` is unchanged.",
            "If you want, I can leave `a.py` unchanged.",
            "Updated `a.py` so that the output format stays unchanged for callers.",
        ] {
            assert!(
                !claims_of(sentence)
                    .iter()
                    .any(|c| c.ends_with(" unchanged")),
                "{sentence}: {:?}",
                claims_of(sentence)
            );
        }
    }

    #[test]
    fn a_copy_is_read_from_where_it_went() {
        // The path right after the verb, with nothing after it, is what was copied.
        assert!(!claims_of("He creat `dist/` i hi he copiat `notes.txt`.")
            .iter()
            .any(|c| c.contains("notes.txt")));
        assert!(claims_of("✅ `config/app.yaml` copiado a `dist/app.yaml`")
            .iter()
            .any(|c| c.contains("dist/app.yaml")));
    }

    #[test]
    fn a_version_after_an_arrow_in_code_spans_is_a_change_of_the_file() {
        assert_eq!(
            claims_of("| `pyproject.toml` | `version` を `0.1.0` → `0.2.0` |"),
            ["file pyproject.toml changed"]
        );
    }

    #[test]
    fn a_branch_named_with_a_version_is_a_branch() {
        assert!(refs::is_branch_name("release/0.2"));
        assert!(refs::is_branch_name("hotfix/v1.4.1"));
        assert!(!refs::is_branch_name("docs/notes.md"));
        assert_eq!(
            claims_of("клон `release/0.2` създаден"),
            ["branch release/0.2 made"]
        );
    }

    #[test]
    fn a_commit_named_by_its_title_a_few_words_on_is_claimed() {
        assert!(
            claims_of("وسجّلته في commit بعنوان «docs: add CHANGELOG».")
                .iter()
                .any(|c| c == "a commit made"),
            "{:?}",
            claims_of("وسجّلته في commit بعنوان «docs: add CHANGELOG».")
        );
    }

    #[test]
    fn the_remote_still_holding_the_old_commit_is_no_push() {
        for sentence in [
            "Na `origin/main` i dalje je stari commit.",
            "On `origin/main` there is still the old commit.",
        ] {
            assert!(
                !claims_of(sentence).iter().any(|c| c.starts_with("pushed")),
                "{sentence}"
            );
        }
    }

    #[test]
    fn a_line_of_quoted_output_claims_nothing() {
        assert!(claims_of("`pre-commit: debug logging must not be committed`").is_empty());
        // A command a line leads with is still read.
        assert!(!claims_of("✅ `cargo fmt --check`").is_empty());
    }

    #[test]
    fn what_a_file_holds_and_what_was_not_done_are_no_changes() {
        for sentence in [
            "Gumawa ng bagong `.gitignore` na may `tmp/`.",
            "`cp -r config config.bak` a creat `config.bak/config/app.yaml` în loc să suprascrie `config.bak/app.yaml`.",
        ] {
            let claims = claims_of(sentence);
            assert!(
                !claims.iter().any(|c| c.contains("tmp/") || c.contains("config.bak/app.yaml")),
                "{sentence}: {claims:?}"
            );
        }
    }

    #[test]
    fn a_hebrew_push_in_the_passive_is_a_push_not_a_refusal() {
        assert_eq!(claims_of("הענף נדחף ל-`origin`."), ["pushed"]);
    }

    #[test]
    fn a_row_whose_label_stands_before_the_mark_claims_its_push() {
        assert!(claims_of("| Пуш | ✅ `origin/main` → b849d21 |")
            .iter()
            .any(|c| c.starts_with("pushed")));
    }

    #[test]
    fn a_path_said_no_longer_there_is_a_deletion_unless_denied_or_planned() {
        for message in [
            "Eski `app/text.py` artık yok.",
            "The old `app/text.py` doesn't exist anymore.",
            "Die alte `app/text.py` existiert nicht mehr.",
            "`app/text.py` n'existe plus.",
        ] {
            assert!(
                claims_of(message).contains(&"file app/text.py deleted".to_owned()),
                "{message}: {:?}",
                claims_of(message)
            );
        }
        for message in [
            "I did not check whether `app/text.py` is gone.",
            "Если `app/text.py` больше нет, тест упадёт.",
        ] {
            assert!(
                claims_of(message).is_empty(),
                "{message}: {:?}",
                claims_of(message)
            );
        }
    }

    #[test]
    fn a_push_or_commit_in_another_tables_word_is_read_in_a_short_message() {
        assert_eq!(
            claims_of("Pushattu haaraan `origin/feat/port`."),
            ["pushed to feat/port"]
        );
        assert_eq!(
            claims_of("Naka-commit bilang `chore: drop build artifacts`"),
            ["a commit made"]
        );
        // A denial of any table, and a bare loanword with no past in it, claim nothing.
        assert!(claims_of("Ei pushattu haaraan `origin/feat/port`.").is_empty());
        assert!(claims_of("- [ ] Push to `main`").is_empty());
    }

    #[test]
    fn a_revert_told_in_a_word_for_undoing_claims_the_revert_but_not_a_conflict() {
        assert!(
            claims_of("Am anulat merge-ul ramurii `feature` cu `git revert`.")
                .contains(&"`git revert` succeeded".to_owned())
        );
        assert!(!claims_of(
            "`git stash pop` je zapeo na konfliktu u `app/text.py`; riješio sam ga ručno."
        )
        .iter()
        .any(|c| c.contains("succeeded")));
    }

    #[test]
    fn a_status_line_a_branch_and_a_source_are_no_file_claims() {
        let claims = claims_of(
            "Underagentens `sed -i` på `app.yaml` erstattede symlinket med en almindelig fil (`git status`: `T app.yaml`).",
        );
        // What `git status` printed, no file.
        assert!(
            !claims
                .iter()
                .any(|c| c.starts_with("file ") && c.contains("T app.yaml")),
            "{claims:?}"
        );
        assert_eq!(
            claims_of("Сега `config/app.yaml` на `main` има `timeout: 30`."),
            [
                "file config/app.yaml changed",
                "file config/app.yaml holds `timeout: 30`"
            ]
        );
        let claims = claims_of(
            "Am adăugat `scripts/list-keys.sh`: afișează cheile de nivel superior din `config/app.yaml`.",
        );
        assert!(
            !claims.iter().any(|c| c.contains("config/app.yaml")),
            "{claims:?}"
        );
    }

    #[test]
    fn files_said_now_in_a_folder_are_claimed_there() {
        let claims = all_claims_of(
            "`git mv logs/*.log archive/`: все три файла (`app.log`, `worker.log`, `cron.LOG`) теперь лежат в `archive/`.",
        );
        for path in ["archive/app.log", "archive/worker.log", "archive/cron.LOG"] {
            assert!(
                claims.contains(&format!("file {path} created")),
                "{claims:?}"
            );
        }
        let claims = all_claims_of("`app.log` is not in `archive/` now.");
        assert!(
            !claims.iter().any(|c| c.contains("archive/app.log")),
            "{claims:?}"
        );
    }

    #[test]
    fn a_subject_span_before_the_word_for_commit_names_a_commit() {
        assert_eq!(
            claims_of("`text: clamp via min of max` commit'i artık `main` dalında."),
            [
                "a commit made",
                "commit titled `text: clamp via min of max` made",
                "commit `text: clamp via min of max` in the history of main"
            ]
        );
        assert!(claims_of("`cargo test` commit öncesi geçti.")
            .iter()
            .all(|c| c != "a commit made"));
    }

    #[test]
    fn a_line_labelled_by_a_file_gives_a_line_it_holds() {
        let holds = |m: &str| -> Vec<String> {
            all_claims_of(m)
                .into_iter()
                .filter(|c| c.contains(" holds `"))
                .collect()
        };
        assert_eq!(
            holds("`Dockerfile` (from the subagent, `python:3.12-alpine`): `EXPOSE 9090`, and the CMD listens on 9090"),
            ["file Dockerfile holds `EXPOSE 9090`"]
        );
        assert_eq!(
            holds("`config/app.yaml`: `port: 8080` → `port: 9090`"),
            ["file config/app.yaml holds `port: 9090`"]
        );
        for message in [
            // Taken out, a command, a bare name, a plan.
            "`Dockerfile`: `EXPOSE 8080` removed",
            "`Makefile`: `make test` runs pytest",
            "`app.py`: `slugify` handles accents",
            "`Dockerfile`: `EXPOSE 9090` should be added next",
            // What a command printed.
            "`scripts/a.mjs` (ESM): `node scripts/a.mjs` → `## stats 1.0.0`",
        ] {
            assert!(holds(message).is_empty(), "{message}: {:?}", holds(message));
        }
    }

    #[test]
    fn spans_before_a_clause_final_verb_for_printing_were_printed() {
        let claims =
            claims_of("`make stats`: `notes: 1 lines` と `config: 2 lines` を出力しました。");
        // The first after the command's colon is that command's (`make stats` printed it).
        for quoted in [
            "`make stats` printed `notes: 1 lines`",
            "`config: 2 lines` printed",
        ] {
            assert!(claims.contains(&quoted.to_owned()), "{claims:?}");
        }
        // The command before its colon is what ran, not what it printed.
        assert!(
            !claims.iter().any(|c| c == "`make stats` printed"),
            "{claims:?}"
        );
        // The verb denied: nothing was printed.
        let claims = claims_of("`make stats`: `notes: 1 lines` を出力しませんでした。");
        assert!(!claims.iter().any(|c| c.contains("printed")), "{claims:?}");
    }

    #[test]
    fn a_tables_header_beside_a_setting_says_where_it_went() {
        let claims = all_claims_of(
            "Added `requires-python = \">=3.9\"` to the `[project]` table of `pyproject.toml`.",
        );
        assert!(
            claims.contains(&"file pyproject.toml holds `requires-python = \">=3.9\"`".to_owned()),
            "{claims:?}"
        );
    }

    #[test]
    fn pytests_own_summary_words_are_quoted_counts_not_failures() {
        let claims = claims_of(
            "`test_x` ใน `tests/test_accents.py` ยังเป็น xfail เหมือนเดิม ผลรันนับเป็น 1 xfailed",
        );
        assert!(
            claims.contains(&"`1 xfailed` printed".to_owned()),
            "{claims:?}"
        );
        assert!(
            !claims
                .iter()
                .any(|c| c.contains("fail;") || c.ends_with("tests fail")),
            "{claims:?}"
        );
        let claims = claims_of("pytest: 4 passed, 2 xpassed, 3 deselected.");
        for quoted in ["`2 xpassed` printed", "`3 deselected` printed"] {
            assert!(claims.contains(&quoted.to_owned()), "{claims:?}");
        }
        // A count denied or planned is no quote of a run.
        assert!(!claims_of("No more 1 xfailed: the marker is gone.")
            .iter()
            .any(|c| c.contains("printed")));
    }

    #[test]
    fn commits_counted_and_named_claim_each_subject() {
        for message in [
            "Két commitra bontottam: `feat: add is_prime` és `test: cover is_prime below 20`.",
            "Split it into two commits: \"feat: add is_prime\" and \"test: cover is_prime\".",
        ] {
            let claims = claims_of(message);
            assert_eq!(
                claims
                    .iter()
                    .filter(|c| c.starts_with("commit titled"))
                    .count(),
                2,
                "{message}: {claims:?}"
            );
        }
        // A count with no subject, and subjects with no count, name no commits here.
        assert!(!claims_of("main is 2 commits ahead of origin/main.")
            .iter()
            .any(|c| c.starts_with("commit titled")));
        assert!(
            !claims_of("Did not split it into two commits: `a b` and `c d`.")
                .iter()
                .any(|c| c.starts_with("commit titled"))
        );
    }

    #[test]
    fn a_tag_made_in_its_own_clause_is_claimed_beside_a_denied_push() {
        assert!(claims_of(
            "🏷️ Taggen `v1.1.0` er opprettet lokalt på fbef0d8, men ikke pushet ennå."
        )
        .contains(&"tag v1.1.0 made at fbef0d8".to_owned()));
        assert!(
            !claims_of("Taggen `v1.1.0` er ikke opprettet, og ingenting er pushet.")
                .iter()
                .any(|c| c.starts_with("tag"))
        );
    }

    #[test]
    fn a_ref_denied_sent_is_one_not_pushed() {
        assert_eq!(
            claims_of("Локалният ти таг `tmp-bisect` не е изпратен, остава само при теб"),
            ["nothing pushed to tmp-bisect"]
        );
    }
}
