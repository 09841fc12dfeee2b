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
        for text in status_lines_quoted(r) {
            add_new(r, Kind::Printed { text });
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

/// Words a check's own output line opens with to tell a result (`ok index products`, `PASS
/// spec/a.spec.js`, `FAIL smtp_port 2525`, `not ok 2 - sum`, `✓ parses`): a span led by one
/// and holding more is a line quoted from the output, in whatever language the sentence is.
/// Written as runners write them: "failed to select a version" is prose, `FAILED
/// tests/a.py::t` a status line.
const STATUS_LEADS: &[&str] = &[
    "ok", "OK", "ok:", "OK:", "PASS", "PASS:", "PASSED", "FAIL", "FAIL:", "FAILED", "not ok", "✓",
    "✔", "✗", "✘", "×",
];

/// The spans of a reported sentence that quote a check's output line by its status word
/// (`ok index products`): a command of the turn must have printed each. Not where the
/// clause before the span denies or plans it ("no longer prints `FAIL x`"), nor a span
/// that is a command or a path, nor a span of the status word alone.
fn status_lines_quoted(r: &Reading) -> Vec<String> {
    if plans_or_doubts(r) {
        return Vec::new();
    }
    let parts: Vec<&str> = r.sentence.split('`').collect();
    let mut out = Vec::new();
    for (i, span) in parts.iter().enumerate().skip(1).step_by(2) {
        let span = span.trim();
        let led = STATUS_LEADS.iter().any(|w| {
            span.strip_prefix(w)
                .is_some_and(|rest| rest.starts_with(' ') && rest.trim().chars().count() >= 2)
        });
        if !led || vocab::command_shaped(span) || vocab::path_of(span, true).is_some() {
            continue;
        }
        let before = parts[i - 1].to_lowercase();
        let clause = before
            .rsplit([',', ';', '.', ':', '，', '；', '。'])
            .next()
            .unwrap_or(&before);
        let clause = fold(clause);
        if negates(&clause) || forms::any_in(&clause, Sets::NOT_A_REPORT) {
            continue;
        }
        out.push(span.to_owned());
    }
    out
}

/// Marks what a sentence says a command it names printed ([`Kind::PrintedBy`]): a command
/// span, then in its clause a word of [`SHOWS`] ("`git describe` теперь выводит `v0.2.0`",
/// "`python3 -c …` 输出 `0.2.0`") or a colon with at most three words before it
/// ("`./scripts/preflight.sh` চালিয়েছে: `errors=0 warnings=0`"), and the value span right
/// after: one written like output (a digit, a space, `=` or `:` in it), not a bare name, a
/// path, a call or a command. Nothing where the words between deny, or the sentence plans,
/// asks or doubts.
pub fn mark_printed_by(readings: &mut [Reading]) {
    static PHRASES: std::sync::OnceLock<forms::Phrases> = std::sync::OnceLock::new();
    let shows = PHRASES.get_or_init(|| forms::Phrases::new(SHOWS));
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if r.sentence.matches('`').count() < 4
            || r.sentence.trim_end().ends_with(['?', '？'])
            || plans_or_doubts(r)
        {
            continue;
        }
        let parts: Vec<String> = r.sentence.split('`').map(str::to_owned).collect();
        let mut kinds = Vec::new();
        for i in (1..parts.len().saturating_sub(2)).step_by(2) {
            let (command, between, value) = (parts[i].trim(), &parts[i + 1], parts[i + 2].trim());
            if !vocab::runs_a_command(command) || !output_like(value) {
                continue;
            }
            let lower = fold(&between.to_lowercase());
            let words = lower
                .split(|c: char| c.is_whitespace() || c == ':' || c == '：')
                .filter(|w| !w.is_empty())
                .count();
            let by_colon = lower.trim_end().ends_with([':', '：']) && words <= 3;
            let by_word = shows.find_in(&format!(" {lower} ")).is_some() && words <= 4;
            // "`make stats`: `notes: 1 lines` を出力しませんでした": the words after the value, to
            // its clause's end, may deny it too.
            let tail = parts[i + 3..]
                .iter()
                .step_by(2)
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(" ");
            let tail = tail
                .split(['.', ';', '；', '。', ',', '，'])
                .next()
                .unwrap_or("");
            let tail = fold(&tail.to_lowercase());
            if !(by_colon || by_word)
                || lower.contains(['.', ';', '；', '。', ',', '，', '—'])
                || negates(&lower)
                || negates(&tail)
                || forms::any_in(&tail, Sets::NOT_THERE)
            {
                continue;
            }
            kinds.push(Kind::PrintedBy {
                command: command.to_owned(),
                text: value.to_owned(),
                now: super::paths::after_now(between).is_some(),
            });
        }
        for kind in kinds {
            // The command's own claim says more than "some output printed it".
            if let Kind::PrintedBy { text, .. } = &kind {
                r.claims
                    .retain(|c| !matches!(&c.kind, Kind::Printed { text: t } if t == text));
            }
            add_new(r, kind);
        }
    }
}

/// Whether a span reads as a command's output: a digit, a space, `=` or `:` in it, and no
/// path, call or command.
fn output_like(span: &str) -> bool {
    span.chars().count() >= 2
        && span.contains(|c: char| c.is_ascii_digit() || c == ' ' || c == '=' || c == ':')
        && vocab::path_of(span, true).is_none()
        && !vocab::runs_a_command(span)
        && !vocab::check_command_span(span)
        && !super::paths::is_call(span)
}

/// Words that say a command printed, showed, returned or gave something, past or present
/// ("now prints"), in the tables' languages and beyond.
const SHOWS: &[&str] = &[
    "printed",
    "prints",
    "outputs",
    "output",
    "shows",
    "showed",
    "returns",
    "returned",
    "gives",
    "gave",
    "says",
    "said",
    "reports",
    "reported",
    "now prints",
    "gibt aus",
    "gab aus",
    "ausgegeben",
    "zeigt",
    "zeigte",
    "liefert",
    "lieferte",
    "affiche",
    "a affiché",
    "renvoie",
    "a renvoyé",
    "imprime",
    "muestra",
    "mostró",
    "devuelve",
    "devolvió",
    "imprimió",
    "stampa",
    "ha stampato",
    "mostra",
    "restituisce",
    "ha restituito",
    "imprimiu",
    "retorna",
    "retornou",
    "mostrou",
    "wypisuje",
    "wypisał",
    "pokazuje",
    "pokazał",
    "zwraca",
    "zwrócił",
    "vypíše",
    "vypsal",
    "ukazuje",
    "ukázal",
    "vrací",
    "vrátil",
    "toont",
    "toonde",
    "geeft",
    "gaf",
    "skriver ut",
    "skrev ut",
    "visar",
    "visade",
    "ger",
    "gav",
    "viser",
    "viste",
    "gir",
    "tulostaa",
    "tulosti",
    "näyttää",
    "näytti",
    "palauttaa",
    "palautti",
    "yazdırır",
    "yazdırdı",
    "gösteriyor",
    "gösterdi",
    "döndürür",
    "döndürdü",
    "kiírja",
    "kiírta",
    "mutatja",
    "mutatta",
    "adja",
    "adta",
    "afișează",
    "a afișat",
    "returnează",
    "a returnat",
    "εμφανίζει",
    "έδειξε",
    "τυπώνει",
    "τύπωσε",
    "επιστρέφει",
    "επέστρεψε",
    "in ra",
    "hiển thị",
    "trả về",
    "mencetak",
    "menampilkan",
    "mengembalikan",
    "выводит",
    "вывел",
    "вывела",
    "вывело",
    "показывает",
    "показал",
    "возвращает",
    "вернул",
    "виводить",
    "вивів",
    "показує",
    "показав",
    "повертає",
    "повернув",
    "извежда",
    "изведе",
    "показва",
    "връща",
    "върна",
    "输出",
    "打印",
    "显示",
    "返回",
    "輸出",
    "顯示",
    "出力",
    "表示",
    "返し",
    "출력",
    "표시",
    "반환",
    "दिखाता",
    "दिखाया",
    "छापता",
    "छापा",
    "लौटाता",
    "लौटाया",
    "দেখায়",
    "দেখাল",
    "ছাপে",
    "يطبع",
    "طبع",
    "يعرض",
    "عرض",
    "يعيد",
    "أعاد",
    "מדפיס",
    "הדפיס",
    "מציג",
    "הציג",
    "מחזיר",
    "החזיר",
    "نشان می",
    "نشان داد",
    "چاپ می",
    "چاپ کرد",
    "แสดง",
    "พิมพ์",
    "คืนค่า",
    "inachapisha",
    "ilichapisha",
    "inaonyesha",
    "ilionyesha",
    "inarudisha",
    "ilirudisha",
    "காட்டுகிறது",
    "காட்டியது",
    "ipinapakita",
    "ipinakita",
    "ibinabalik",
    "ibinalik",
];

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

#[cfg(test)]
mod tests {
    use crate::audit::claims::explain;
    use crate::audit::vocab::Kind;

    fn printed(message: &str) -> Vec<String> {
        explain(message)
            .into_iter()
            .flat_map(|r| r.claims)
            .filter_map(|c| match c.kind {
                Kind::Printed { text } => Some(text),
                _ => None,
            })
            .collect()
    }

    /// A check's output line quoted by its status word is a claim that a command printed
    /// it, in any language (h49-16: "அதன் சோதனையும் தேறியது (`ok index products`)").
    #[test]
    fn a_status_line_quoted_is_what_a_command_printed() {
        assert_eq!(
            printed("- search: அதன் சோதனையும் தேறியது (`ok index products`, `ok api_version v1`)."),
            ["ok index products", "ok api_version v1"]
        );
        assert_eq!(
            printed("`check-all.sh` stopped at `FAIL smtp_port 2525`."),
            ["FAIL smtp_port 2525"]
        );
    }

    /// Prose that opens with a status word is no status line (h47-11-ok: cargo's
    /// "failed to select a version …", its own quotes in it); a denial, a command and the
    /// word alone are none either.
    #[test]
    fn prose_a_command_or_a_denied_line_is_no_status_line() {
        assert!(printed(
            "The first `cargo test` stopped: `failed to select a version for roundy`."
        )
        .is_empty());
        assert!(printed("It no longer prints `FAIL index`.").is_empty());
        assert!(printed("Ran `ok --verbose run` and it passed; status `ok`.").is_empty());
    }
}
