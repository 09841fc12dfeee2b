//! Commits a report names by their subject and places in a branch's history, or says are
//! gone from it, in any language: "هر دو کامیتِ شاخه، `docs: usage section` و `docs:
//! changelog`، حالا بالای `main` قرار دارند" (both of the branch's commits are now on top
//! of `main`), "Le commit `stats: mean over n-1 (sample)` a été retiré de l'historique de
//! `main`". Evidence looks the subject up in the branches' histories as the turn left them
//! ([`Kind::InHistory`]).

use super::refs::{is_branch_name, is_subject_span, negates, plans_or_doubts, CONFLICT, UNDONE};
use super::*;

/// Marks each subject span placed beside a branch span: a claim that a commit of that
/// subject is in the branch's history (or, told with a word for removal, that none is).
/// The subject's own clause must name the branch, or be no more than the subjects
/// themselves (an apposition: "the branch's two commits, `a` and `b`, are now on `main`").
/// A commit placed must be told as a state ("now", "still"): "made the commit `a` on
/// `feat`" tells a step, which a later amend may have rewritten. A commit said gone from
/// history without a branch is gone from HEAD's. Nothing where the clause denies, plans,
/// asks, or tells a revert or a conflict.
pub fn mark_subjects_in_history(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.sentence.contains('`') || r.sentence.trim_end().ends_with(['?', '？']) {
            continue;
        }
        let spans: Vec<&str> = vocab::spans_of(&r.sentence).map(str::trim).collect();
        // A sentence that names a file speaks of its content: `timeout: 30` beside
        // `config/app.yaml` is a value, not a commit.
        if !spans.iter().any(|s| subject(s))
            || spans
                .iter()
                .any(|s| vocab::path_of(s, true).is_some_and(|p| p.contains('.')))
        {
            continue;
        }
        // The prose plans or asks, not a subject's words (`stats: add median module`).
        let prose = fold(&vocab::outside_spans(&r.sentence, " ").to_lowercase());
        if forms::any_in(&prose, Sets::NOT_A_REPORT) || plans_or_doubts(r) {
            continue;
        }
        let clauses = clauses_outside_spans(&r.sentence);
        let mut kinds = Vec::new();
        for s in spans.iter().copied().filter(|s| subject(s)) {
            let quoted = format!("`{s}`");
            let Some(own) = clauses.iter().find(|c| c.contains(&quoted)) else {
                continue;
            };
            let names_ref =
                |text: &str| vocab::spans_of(text).any(|x| ref_of_span(x.trim()).is_some());
            let bare = vocab::outside_spans(own, " ").split_whitespace().count() <= 3;
            // A removal with no branch: the subject must be the clause's one span ("Nu is
            // de commit `wip` uit de geschiedenis verdwenen"), not the commit that removed
            // something else ("commit `keep case` đã bỏ `.lower()`").
            let removes_it = vocab::spans_of(own).count() == 1
                && removal_in(&fold(&own.to_lowercase())).is_some();
            let scope = if names_ref(own) || !bare && removes_it {
                *own
            } else if bare {
                r.sentence.as_str()
            } else {
                continue;
            };
            let mut refs: Vec<String> = vocab::spans_of(scope)
                .filter_map(|x| ref_of_span(x.trim()))
                .collect();
            let prose = fold(&vocab::outside_spans(scope, " ").to_lowercase());
            let (gone, rest) = match removal_in(&prose) {
                Some(phrase) => (true, prose.replacen(phrase, " ", 1)),
                None => (false, prose.clone()),
            };
            // "`fix: a` on `main` is reverted", "`git revert` of `fix: a`": the commit stays
            // in the history; a conflict stopped whatever the clause tells.
            let reverted = vocab::spans_of(scope).any(|x| x.trim().starts_with("git revert"))
                || UNDONE.iter().chain(CONFLICT).any(|w| prose.contains(w));
            // "two local commits, `a` and `b`, now sit on top of `docs: colleague note`":
            // commits placed on another commit are HEAD's.
            let on_a_commit = vocab::spans_of(scope).filter(|x| subject(x.trim())).count() >= 2;
            if negates(&rest)
                || reverted
                || !gone && (refs.is_empty() && !on_a_commit || !tells_a_state(scope))
            {
                continue;
            }
            if refs.is_empty() {
                refs.push("HEAD".to_owned());
            }
            kinds.push(Kind::InHistory {
                subject: s.to_owned(),
                refs,
                gone,
            });
        }
        // A commit told gone is no commit made ("de commit `wip` is uit de geschiedenis
        // verdwenen").
        if kinds
            .iter()
            .any(|k| matches!(k, Kind::InHistory { gone: true, .. }))
        {
            r.claims
                .retain(|c| !matches!(c.kind, Kind::Commit { hash: None }));
        }
        for kind in kinds {
            add_new(r, kind);
        }
    }
}

/// A code span that may be a commit's subject: words with a space, no command or path,
/// and no branch.
fn subject(span: &str) -> bool {
    // `timeout: 30`, `debug: true`: a key and its value.
    let value = span.split_once(": ").is_some_and(|(key, value)| {
        !key.contains(' ')
            && (value.parse::<f64>().is_ok() || matches!(value, "true" | "false" | "null"))
    });
    is_subject_span(span) && !value && ref_of_span(span).is_none() && !span.contains('/')
}

/// The branch a code span names (`main`, `feature/docs`, `origin/main`), as written.
fn ref_of_span(span: &str) -> Option<String> {
    let name = span.strip_prefix("origin/").unwrap_or(span);
    (is_branch_name(name) || matches!(name, "main" | "master" | "develop" | "trunk"))
        .then(|| span.to_owned())
}

/// The clauses of a sentence, split at commas, semicolons and dashes outside code spans
/// (a subject may hold a comma: `fix: a, b`).
fn clauses_outside_spans(sentence: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_span = false;
    for (i, c) in sentence.char_indices() {
        if c == '`' {
            in_span = !in_span;
        } else if !in_span && CLAUSE_ENDS.contains(&c) {
            out.push(&sentence[start..i]);
            start = i + c.len_utf8();
        }
    }
    out.push(&sentence[start..]);
    out
}

/// The words of a clause (lower-cased, code spans out) that tell a removal ("retiré",
/// "dropped", "no longer there"), in any table's language: the first found.
fn removal_in(prose: &str) -> Option<&'static str> {
    let at_word_start = |w: &str| {
        prose.match_indices(w).any(|(i, _)| {
            prose[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
        })
    };
    NO_LONGER
        .iter()
        .copied()
        .find(|p| prose.contains(p))
        .or_else(|| {
            vocab::DELETE_VERBS
                .iter()
                .copied()
                .find(|w| has_word(prose, w))
        })
        .or_else(|| {
            LANGS
                .iter()
                .filter(|l| l.code != "en")
                .flat_map(|l| l.deleted.iter().copied())
                .find(|w| w.chars().count() >= 4 && at_word_start(w))
        })
}

/// Marks the file a sentence says no commit holds: one path, and a clause with a word for
/// the history that denies it or tells it removed ("`.env` is gone from the history too",
/// "`.env` го няма вече и в историята", "`secrets.txt` wurde aus der Historie entfernt").
/// Nothing where the clause says it is still there, or the sentence plans, asks or doubts.
pub fn mark_files_out_of_history(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let lower = r.sentence.to_lowercase();
        if !HISTORY.iter().any(|w| lower.contains(w))
            || r.sentence.trim_end().ends_with(['?', '？'])
            || plans_or_doubts(r)
        {
            continue;
        }
        let mut paths = super::paths::path_spans(&r.sentence);
        if paths.is_empty() {
            paths = super::endings::files_named(&r.sentence);
        }
        let [path] = paths.as_slice() else {
            continue;
        };
        let out = clauses_outside_spans(&r.sentence)
            .into_iter()
            .flat_map(|c| c.split([':', '：']))
            .any(|clause| {
                let prose = fold(&vocab::outside_spans(clause, " ").to_lowercase());
                HISTORY
                    .iter()
                    .any(|w| prose.contains(&fold(w)) || prose.contains(w))
                    && !super::refs::STILL.iter().any(|w| prose.contains(w))
                    && (negates(&prose) || removal_in(&prose).is_some())
            });
        if out {
            add_new(r, Kind::FileOutOfHistory { path: path.clone() });
        }
    }
}

/// Words for the history of commits, in the tables' languages and beyond.
const HISTORY: &[&str] = &[
    "history",
    "historie",
    "verlauf",
    "historique",
    "historial",
    "histórico",
    "historico",
    "cronologia",
    "storia",
    "geschiedenis",
    "истори",
    "історі",
    "histori",
    "történet",
    "geçmiş",
    "lịch sử",
    "riwayat",
    "历史",
    "歷史",
    "履歴",
    "히스토리",
    "이력",
    "इतिहास",
    "تاریخچه",
    "سجل",
    "التاريخ",
    "היסטורי",
    "ιστορικ",
];

/// Marks what a report says of the stash list as the turn left it: empty ("`git stash
/// list` अब खाली है"), or a stash named still in it ("Din egen stash `experiment` ligger
/// stadig i `git stash list`"), or gone from it ([`Kind::Stash`]). Nothing where the
/// clause denies, plans, asks or doubts.
pub fn mark_stash_states(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let stash = |text: &str| {
            text.as_bytes()
                .windows(5)
                .any(|w| w.eq_ignore_ascii_case(b"stash"))
        };
        if !r.sentence.contains('`')
            || !stash(&r.sentence)
            || r.sentence.trim_end().ends_with(['?', '？'])
        {
            continue;
        }
        let lower = fold(&r.sentence.to_lowercase());
        let prose = fold(&vocab::outside_spans(&r.sentence, " ").to_lowercase());
        if !lower.contains("stash")
            || forms::any_in(&prose, Sets::NOT_A_REPORT)
            || plans_or_doubts(r)
        {
            continue;
        }
        let mut kinds = Vec::new();
        for clause in clauses_outside_spans(&r.sentence) {
            let clause_lower = fold(&clause.to_lowercase());
            if !clause_lower.contains("stash") {
                continue;
            }
            let prose = fold(&vocab::outside_spans(clause, " ").to_lowercase());
            let listed = vocab::spans_of(clause).any(|s| s.trim().starts_with("git stash list"));
            let names: Vec<&str> = vocab::spans_of(clause)
                .map(str::trim)
                .filter(|s| {
                    !s.is_empty()
                        && !s.starts_with("git ")
                        && !s.contains([' ', '/', '.'])
                        && !s.starts_with("stash@")
                })
                .collect();
            static PHRASES: OnceLock<forms::Phrases> = OnceLock::new();
            let empty = PHRASES
                .get_or_init(|| forms::Phrases::new(EMPTY))
                .find_in(&prose)
                .is_some();
            let removed = removal_in(&prose);
            let rest = removed.map_or(prose.clone(), |p| prose.replacen(p, " ", 1));
            if negates(&rest) {
                continue;
            }
            if empty && listed && names.is_empty() {
                kinds.push(Kind::Stash {
                    name: None,
                    present: false,
                });
            } else if let [name] = names.as_slice() {
                if removed.is_some() {
                    kinds.push(Kind::Stash {
                        name: Some((*name).to_owned()),
                        present: false,
                    });
                } else if says_again(clause) {
                    kinds.push(Kind::Stash {
                        name: Some((*name).to_owned()),
                        present: true,
                    });
                }
            }
        }
        for kind in kinds {
            add_new(r, kind);
        }
    }
}

/// Words for "empty", in the tables' languages.
pub(super) const EMPTY: &[&str] = &[
    "empty",
    "leer",
    "vide",
    "vacía",
    "vacío",
    "vazia",
    "vazio",
    "vuota",
    "vuoto",
    "leeg",
    "tom",
    "tomt",
    "tyhjä",
    "pusta",
    "pusty",
    "prázdn",
    "пуст",
    "порожн",
    "празен",
    "празна",
    "boş",
    "üres",
    "goal",
    "άδει",
    "trống",
    "kosong",
    "खाली",
    "فارغ",
    "ריק",
    "خالی",
    "空",
    "비어",
    "ว่าง",
    "খালি",
    "tühi",
    "tuščias",
    "tukšs",
    "tukša",
    "prazn",
];

#[cfg(test)]
mod out_of_history_tests {
    use super::*;

    fn read(message: &str) -> Vec<String> {
        marked_texts(message, mark_files_out_of_history)
    }

    #[test]
    fn a_file_said_gone_from_the_history() {
        for message in [
            "- `.env` го няма вече и в историята: в `origin` не е останал commit, който да го съдържа.",
            "`.env` is gone from the history too.",
            "`secrets.txt` wurde aus der Historie entfernt.",
        ] {
            assert_eq!(read(message).len(), 1, "{message}");
        }
        for message in [
            // Still there, not about the history, a question.
            "Ali `.env` je i dalje u istoriji: commit `add local env` ga sadrži.",
            "`.env` is untracked now, but it is still in the history.",
            "`.env` is no longer tracked.",
            "Should `.env` be removed from the history?",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
    }
}
