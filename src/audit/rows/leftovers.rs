//! Text a report says no file holds any more ("রিপোজিটরির কোনো `.js` ফাইলে আর `new Buffer`
//! নেই", "no `console.log` left in `src/`"): [`Kind::TextGone`], checked against the
//! project's files of that kind or under that folder.

use super::refs::{negates, plans_or_doubts, unquoted};
use super::*;

/// Marks the text a sentence says is gone from a kind of file or a folder: one code span of
/// text (no path, extension or command), one extension span (`.js`, `*.js`) or one folder
/// span (`src/`), a denial and a word for "any more" or "left" of any table in its own
/// words. Nothing where the sentence plans, asks or speaks of another's work.
pub fn mark_text_gone(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if r.sentence.matches('`').count() < 4
            || r.sentence.trim_end().ends_with(['?', '？'])
            || plans_or_doubts(r)
        {
            continue;
        }
        let mut texts = Vec::new();
        let mut scopes = Vec::new();
        for span in vocab::spans_of(&r.sentence).map(str::trim) {
            if let Some(ext) = extension_of(span) {
                scopes.push(ext);
            } else if span.ends_with('/') && vocab::path_of(span, true).is_some() {
                scopes.push(span.to_owned());
            } else if vocab::path_of(span, true).is_none()
                && !vocab::check_command_span(span)
                && span.chars().count() >= 3
                && !span.starts_with("git ")
            {
                texts.push(span.to_owned());
            }
        }
        let ([text], [scope]) = (texts.as_slice(), scopes.as_slice()) else {
            continue;
        };
        // The shape first, the words last: the first negation test of a process builds the
        // tables' negation index.
        let lower = fold(&r.sentence.to_lowercase());
        let own = unquoted(&lower);
        if !super::tells_gone(&own) && !ANY_MORE.iter().any(|w| own.contains(w)) || !negates(&own) {
            continue;
        }
        add_new(
            r,
            Kind::TextGone {
                text: text.clone(),
                scope: scope.clone(),
            },
        );
    }
}

/// Words for "any more", "left" and "no longer" beside a denial, in the tables'
/// languages and beyond (a table's gone forms, [`super::tells_gone`], read the rest).
const ANY_MORE: &[&str] = &[
    "any more",
    "anymore",
    "left",
    "no longer",
    "remain",
    "mehr",
    "plus",
    "más",
    "mais",
    "più",
    "meer",
    "больше",
    "більше",
    "już",
    "už",
    "artık",
    "nữa",
    "lagi",
    "もう",
    "已经没有",
    "不再",
    "더 이상",
    "আর",
    "अब",
    "دیگر",
    "بعد الآن",
];

/// The extension a span names alone (`.js`, `*.js`), lower-cased.
fn extension_of(span: &str) -> Option<String> {
    let e = span.trim_start_matches('*').strip_prefix('.')?;
    (!e.is_empty() && e.len() <= 8 && e.chars().all(|c| c.is_ascii_alphanumeric()))
        .then(|| e.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(message: &str) -> Vec<String> {
        marked_kinds(message, mark_text_gone)
            .iter()
            .map(Kind::to_string)
            .collect()
    }

    #[test]
    fn text_said_gone_from_a_kind_of_file_or_a_folder() {
        assert_eq!(
            read("রিপোজিটরির কোনো `.js` ফাইলে আর `new Buffer` নেই।"),
            ["no *.js file holds `new Buffer`"]
        );
        assert_eq!(
            read("No `debugger;` statement is left in `src/`."),
            ["no file under src/ holds `debugger;`"]
        );
        for message in [
            // No denial: a thing done.
            "Replaced `new Buffer` in every `.js` file.",
            // A plan, and a sentence with two texts.
            "Should I remove `new Buffer` from the `.js` files?",
            "No `new Buffer` or `Buffer()` left in `.js` files.",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
    }
}
