//! What a report says a command printed ("skript vypsal `skipped: DEPLOY_TOKEN not set`",
//! "it printed `removed 0 files`"): the turn's output must hold it ([`Kind::Printed`]).

use super::refs::{negates, plans_or_doubts};
use super::*;

/// Marks each code span right after a word for "printed" (past, in the tables'
/// languages): a claim that a command of the turn printed it. Nothing where the clause
/// denies, plans, asks or doubts, or for a span of a few characters.
pub fn mark_printed(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.sentence.contains('`') || r.sentence.trim_end().ends_with(['?', '？']) {
            continue;
        }
        static PHRASES: std::sync::OnceLock<forms::Phrases> = std::sync::OnceLock::new();
        let phrases = PHRASES.get_or_init(|| forms::Phrases::new(PRINTED));
        if phrases.find_in(&r.sentence.to_lowercase()).is_none() || plans_or_doubts(r) {
            continue;
        }
        let mut kinds = Vec::new();
        let parts: Vec<&str> = r.sentence.split('`').collect();
        for (i, span) in parts.iter().enumerate().skip(1).step_by(2) {
            let before = parts[i - 1].to_lowercase();
            let before = before.trim_end();
            let said = PRINTED.iter().any(|w| {
                before
                    .strip_suffix(w)
                    .is_some_and(|b| b.is_empty() || !b.ends_with(char::is_alphanumeric))
            });
            // The clause up to the span: "did not print `x`", "if it printed `x`".
            let clause = before
                .rsplit([',', ';', '.', ':', '，', '；', '。'])
                .next()
                .unwrap_or(before);
            let clause = fold(clause);
            // "Printed `config/app.yaml` to confirm it": a file shown, not text quoted.
            if !said
                || span.trim().chars().count() < 3
                || vocab::path_of(span.trim(), true).is_some()
                || negates(&clause)
                || forms::any_in(&clause, Sets::NOT_A_REPORT)
            {
                continue;
            }
            kinds.push(Kind::Printed {
                text: span.trim().to_owned(),
            });
        }
        for kind in kinds {
            add_new(r, kind);
        }
    }
}

/// Past forms of "printed", "output", in the tables' languages (the present, "prints",
/// tells what a script does, not what a run showed).
const PRINTED: &[&str] = &[
    "printed",
    "it printed",
    "outputted",
    "gab aus",
    "ausgegeben",
    "a affiché",
    "affiché",
    "imprimió",
    "ha stampato",
    "stampato",
    "imprimiu",
    "drukował",
    "wypisał",
    "wypisało",
    "vypsal",
    "vypsala",
    "vypsalo",
    "vypísal",
    "vypísalo",
    "вывел",
    "вывела",
    "вывело",
    "напечатал",
    "напечатало",
    "вивів",
    "вивела",
    "вивело",
    "надрукував",
    "skrev ut",
    "printede",
    "printet",
    "tulosti",
    "yazdırdı",
    "kiírta",
    "kiírt",
    "a afișat",
    "a tipărit",
    "τύπωσε",
    "εκτύπωσε",
    "đã in ra",
    "in ra",
    "mencetak",
    "出力した",
    "を出力",
    "打印了",
    "输出了",
    "출력했",
    "छापा",
    "طبع",
    "הדפיס",
    "چاپ کرد",
];
