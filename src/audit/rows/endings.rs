//! The line ends a report says a file has ("改行コードは LF で、CRLF にはなっていません",
//! "`docs/a.md` converted to LF", "이제 줄 끝은 … LF입니다"): [`Kind::LineEnds`], read from
//! the words `LF` and `CRLF`, which every language writes the same.

use super::*;

/// Marks the line ends a sentence tells a file has. The ending is asserted when the
/// sentence names one of the two and tells it as now ("이제 … LF입니다") or as where a
/// conversion went ("to LF", "→ LF"); or names both and denies one ("LF, not CRLF", "LF
/// で、CRLF にはなっていません"). The file is the one file the sentence names, or, naming
/// none, the last file an earlier line of the message names (in a command's span too).
/// Nothing where the sentence plans, doubts, asks or relays a tool's warning.
pub fn mark_line_ends(readings: &mut [Reading]) {
    // Most messages name no line ends: nothing to look for.
    if !readings.iter().any(|r| r.sentence.contains("LF")) {
        return;
    }
    let mut last_file: Option<String> = None;
    for r in readings.iter_mut() {
        let named_here = files_named(&r.sentence);
        let before = last_file.clone();
        if let Some(last) = named_here.last() {
            last_file = Some(last.clone());
        }
        if r.skipped || !r.sentence.contains("LF") {
            continue;
        }
        // The file first: a sentence with none to speak of is left before its words are.
        let own = path_spans(&r.sentence);
        let path = match own.as_slice() {
            [one] if !one.ends_with('/') => one.clone(),
            [] => match before {
                Some(p) => p,
                None => continue,
            },
            _ => continue,
        };
        let Some(crlf) = told_ending(r) else {
            continue;
        };
        add_new(r, Kind::LineEnds { path, crlf });
    }
}

/// The ending a sentence tells (`true`: CRLF), when it tells one plainly.
fn told_ending(r: &Reading) -> Option<bool> {
    let s = &r.sentence;
    let lower = s.to_lowercase();
    if s.trim_end().ends_with(['?', '？'])
        || refs::plans_or_doubts(r)
        || ["warning", "will be replaced", "would"]
            .iter()
            .any(|w| lower.contains(w))
    {
        return None;
    }
    let tokens = ending_tokens(s);
    let denials = refs::denials_of(r);
    let negates = |text: &str| {
        let lower = text.to_lowercase();
        refs::negates(&lower) || denials.iter().any(|d| lower.contains(d.as_str()))
    };
    let after_to = |at: usize| {
        let head = s[..at]
            .trim_end()
            .trim_end_matches(['(', '（', '`', '"', '“']);
        let last = head
            .rsplit(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("")
            .to_lowercase();
        TO_A_PLACE.contains(&last.as_str())
            || AS.contains(&last.as_str())
            || TO_A_PLACE
                .iter()
                .chain(AS)
                .any(|w| !w.is_ascii() && last.ends_with(w))
    };
    match tokens.as_slice() {
        [] => None,
        [(at, crlf), rest @ ..] if rest.iter().all(|(_, c)| c == crlf) => {
            // "… 已经按 LF 存储，不再含 `\r`": a denial at the end denies only itself.
            let head = &s[..super::held::contrast_tail(s)
                .filter(|&cut| rest.iter().chain([&(*at, *crlf)]).all(|(t, _)| *t < cut))
                .unwrap_or(s.len())];
            let now = paths::after_now(head).is_some();
            ((now || after_to(*at)) && !negates(head)).then_some(*crlf)
        }
        [(a, first), (b, second)] if first != second => {
            let end_a = a + if *first { 4 } else { 2 };
            let end_b = b + if *second { 4 } else { 2 };
            let between = &s[end_a..*b];
            let tail = &s[end_b..];
            let head = &s[..*a];
            if negates(head) {
                return None;
            }
            if after_to(*b) && !negates(tail) && !negates(between) {
                // "CRLF → LF", "from CRLF to LF": where it went.
                return Some(*second);
            }
            let last_word_denies = between
                .trim_end()
                .rsplit(|c: char| c.is_whitespace() || c == ',')
                .next()
                .is_some_and(negates);
            if negates(tail) && !negates(between) || last_word_denies && !negates(tail) {
                // "LF で、CRLF にはなっていません", "LF, not CRLF".
                return Some(*first);
            }
            None
        }
        _ => None,
    }
}

/// Words for "as" before the ending a file is kept in ("stored as LF", "已经按 LF 存储",
/// "als LF gespeichert").
const AS: &[&str] = &[
    "as", "als", "como", "comme", "come", "jako", "как", "як", "按", "以", "为", "為",
];

/// Where `LF` and `CRLF` stand in a sentence as words of their own (`true`: CRLF).
fn ending_tokens(s: &str) -> Vec<(usize, bool)> {
    let bytes = s.as_bytes();
    let edge = |i: Option<usize>| i.is_none_or(|i| !bytes[i].is_ascii_alphanumeric());
    let mut out = Vec::new();
    for (at, _) in s.match_indices("LF") {
        let crlf = at >= 2 && s.get(at - 2..at) == Some("CR");
        let start = if crlf { at - 2 } else { at };
        // Inside a code span the word is a name's ("`Normalize shell scripts to LF`", a
        // commit's subject), not the report's.
        let in_span = s[..start].matches('`').count() % 2 == 1;
        if edge(start.checked_sub(1)) && edge(Some(at + 2).filter(|&i| i < bytes.len())) && !in_span
        {
            out.push((start, crlf));
        }
    }
    out
}

/// The files a line names, in order: code spans and bare words with a file's shape, inside
/// a command's span too (`head -n 2 data/users.csv | cat -A`).
pub(super) fn files_named(sentence: &str) -> Vec<String> {
    sentence
        .split(|c: char| c.is_whitespace() || "`'\"()（）[]|,;".contains(c))
        .filter(|w| w.contains(['/', '.']))
        .filter_map(|w| vocab::path_of(w, false))
        // `*.sh` is a pattern of files, not one to read.
        .filter(|p| !p.ends_with('/') && !vocab::shape_inferred(p) && !p.contains(['*', '?']))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends(message: &str) -> Vec<(String, bool)> {
        let mut readings = super::super::readings_of_lines(message);
        mark_line_ends(&mut readings);
        readings
            .iter()
            .flat_map(|r| &r.claims)
            .filter_map(|c| match &c.kind {
                Kind::LineEnds { path, crlf } => Some((path.clone(), *crlf)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_ending_told_now_or_denied_beside_the_other_is_read() {
        assert_eq!(
            ends("Wrote `data/users.csv`.\nLine ends are LF, not CRLF."),
            [("data/users.csv".to_owned(), false)]
        );
        assert_eq!(
            ends("`docs/a.md` converted from CRLF to LF."),
            [("docs/a.md".to_owned(), false)]
        );
        assert_eq!(
            ends("`head -n 2 data/a.csv | cat -A` showed `^M$`.\nNow the line ends are LF."),
            [("data/a.csv".to_owned(), false)]
        );
        assert_eq!(
            ends("Wrote `data/users.csv`.\nLF, nicht CRLF."),
            [("data/users.csv".to_owned(), false)]
        );
        assert_eq!(ends("`out.txt` → CRLF"), [("out.txt".to_owned(), true)]);
    }

    #[test]
    fn a_past_state_a_plan_or_two_files_are_not_read() {
        // A cause told, not a state now.
        assert!(ends("Wrote `data/a.csv`.\nThe writer's default is CRLF (`\\r\\n`).").is_empty());
        assert!(ends("`a.txt` is LF and `b.txt` is CRLF.").is_empty());
        assert!(ends("warning: in `a.txt`, LF will be replaced by CRLF").is_empty());
        assert!(ends("Should `a.txt` be converted to LF?").is_empty());
        assert!(ends("Set ALFA to 1 in `a.env`.").is_empty());
    }
}
