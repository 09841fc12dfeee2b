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
        if phrases.find_in(&r.sentence.to_lowercase()).is_none()
            && !PRINTED_LAST.iter().any(|w| r.sentence.contains(w))
            || plans_or_doubts(r)
        {
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
        kinds.extend(
            spans_before_a_final_verb(&r.sentence)
                .into_iter()
                .map(|text| Kind::Printed { text }),
        );
        for kind in kinds {
            add_new(r, kind);
        }
    }
}

/// Forms of "printed" that close their clause, after what was printed ("`a` と `b` を出力
/// しました", "`a` 를 출력했습니다", "`a` yazdırdı").
const PRINTED_LAST: &[&str] = &[
    "を出力",
    "と出力",
    "を表示",
    "と表示",
    "를 출력",
    "을 출력",
    "라고 출력",
    "yazdırdı",
    "kiírta",
    "kiírja",
    "yazdırıyor",
    "yazdırır",
    "छापा",
    "छापता",
    "छापती",
    "छापते",
    "छाप्छ",
    "ছাপে",
    "ছাপল",
    "چاپ کرد",
    "چاپ می",
];

/// The spans right before a form of [`PRINTED_LAST`], joined by nothing but "and" words
/// and commas ("`notes: 1 lines` と `config: 2 lines` を出力しました"): what the clause
/// says was printed. Not a path, nor a span of a few characters.
fn spans_before_a_final_verb(sentence: &str) -> Vec<String> {
    const JOINS: &[&str] = &[
        "と", "、", ",", "및", "과", "와", "ve", "és", "और", "و", "and",
    ];
    let Some(at) = PRINTED_LAST.iter().filter_map(|w| sentence.find(w)).min() else {
        return Vec::new();
    };
    // "`x` を出力しませんでした": the verb denied, up to its clause's end.
    let tail = sentence[at..]
        .split(['。', '.', ',', '、', ';', '；'])
        .next()
        .unwrap_or("");
    let tail = fold(&tail.to_lowercase());
    if forms::any_in(&tail, Sets::NOT_THERE) || negates(&tail) {
        return Vec::new();
    }
    let parts: Vec<&str> = sentence[..at].split('`').collect();
    // An odd count of parts: every span closed before the verb, and nothing but space
    // between the last one and the verb.
    if parts.len() < 3 || parts.len() % 2 == 0 || !parts[parts.len() - 1].trim().is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut i = parts.len() - 2;
    loop {
        let span = parts[i].trim();
        if span.chars().count() < 3 || vocab::path_of(span, true).is_some() {
            break;
        }
        out.push(span.to_owned());
        if i < 2 || !JOINS.contains(&parts[i - 1].trim()) {
            break;
        }
        i -= 2;
    }
    out.reverse();
    out
}

/// Marks the counts a report quotes in pytest's own summary words ("1 xfailed", "2
/// xpassed", "3 deselected", in a sentence of any language): a claim that a command of the
/// turn printed that count so ([`Kind::Printed`]). These words are no prose in any
/// language: a count beside one is the runner's line quoted. (Not "skipped": other
/// runners count skips in their own forms, unittest's `skipped=2`.)
pub fn mark_summary_counts(readings: &mut [Reading]) {
    const WORDS: &[&str] = &["xfailed", "xpassed", "deselected"];
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        // pytest writes them in lower case: most sentences are left here.
        if !WORDS.iter().any(|w| r.sentence.contains(w)) {
            continue;
        }
        let lower = r.sentence.to_lowercase();
        // A plan, a question or another's words; not a "failure" ("xfailed" holds one).
        let not_told = r
            .why
            .iter()
            .any(|w| super::refs::not_reported(w, &["failure"]));
        if r.sentence.trim_end().ends_with(['?', '？']) || not_told {
            continue;
        }
        let words: Vec<&str> = lower
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | '`' | '(' | ')' | '|'))
            .filter(|w| !w.is_empty())
            .collect();
        let mut kinds = Vec::new();
        for pair in words.windows(2) {
            let word = pair[1].trim_end_matches(|c: char| !c.is_alphanumeric());
            if !WORDS.contains(&word) || !pair[0].bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            // The clause up to the count: "no more `1 xfailed`", "ніж 1 xfailed".
            let at = lower.find(&format!("{} {word}", pair[0])).unwrap_or(0);
            let clause = lower[..at]
                .rsplit([',', ';', '.', ':', '，', '；', '。'])
                .next()
                .unwrap_or("");
            if negates(&fold(clause)) {
                continue;
            }
            kinds.push(Kind::Printed {
                text: format!("{} {word}", pair[0]),
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
