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

/// Marks the line of code a sentence says it took out, naming no file: a deletion form of
/// any table, and one code span written like code (brackets, `;`, `!`, `=`, not a bare
/// name: a name lives on in its callers and comments), no path, extension or folder, no
/// command. Nothing where the sentence denies, plans, asks, or tells a first step.
pub fn mark_text_removed(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if r.sentence.matches('`').count() < 2
            || r.sentence.trim_end().ends_with(['?', '？'])
            || plans_or_doubts(r)
        {
            continue;
        }
        let spans: Vec<&str> = vocab::spans_of(&r.sentence).map(str::trim).collect();
        let [text] = spans.as_slice() else {
            continue;
        };
        let code_like = text.chars().count() >= 4
            && text.contains(['(', ';', '!', '{', '='])
            && vocab::path_of(text, true).is_none()
            && extension_of(text).is_none()
            && !vocab::check_command_span(text)
            && !text.starts_with("git ");
        if !code_like || !super::endings::files_named(&r.sentence).is_empty() {
            continue;
        }
        let lower = fold(&r.sentence.to_lowercase());
        let own = unquoted(&lower);
        // The clause that takes it out, undenied ("quité el `dbg!(n);` …; el commit ya no lo
        // lleva": the second clause's denial tells it gone).
        let taken_out = own
            .split([';', '；'])
            .any(|part| super::tells_deleted(part) && !negates(part));
        if !taken_out || tells_a_sequence(&own) {
            continue;
        }
        add_new(
            r,
            Kind::TextRemoved {
                text: (*text).to_owned(),
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
/// A dotfile's whole name (`.env`, `.gitignore`) is a file, not an extension: only `*.env`
/// is.
fn extension_of(span: &str) -> Option<String> {
    const DOTFILES: &[&str] = &[
        "env",
        "gitignore",
        "gitattributes",
        "gitmodules",
        "npmrc",
        "nvmrc",
        "editorconfig",
        "dockerignore",
        "prettierrc",
        "eslintrc",
        "bashrc",
        "zshrc",
        "profile",
        "npmignore",
    ];
    let starred = span.starts_with('*');
    let e = span.trim_start_matches('*').strip_prefix('.')?;
    (!e.is_empty()
        && e.len() <= 8
        && e.chars().all(|c| c.is_ascii_alphanumeric())
        && (starred || !DOTFILES.contains(&e.to_lowercase().as_str())))
    .then(|| e.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(message: &str) -> Vec<String> {
        marked_texts(message, mark_text_gone)
    }

    #[test]
    fn a_line_of_code_said_taken_out() {
        let read = |message: &str| -> Vec<String> { marked_texts(message, mark_text_removed) };
        assert_eq!(
            read("**Limpieza:** quité el `dbg!(n);` que el subagente usó para la traza."),
            ["no file the turn wrote holds `dbg!(n);`"]
        );
        for message in [
            // A bare name, a file named, a denial, a plan.
            "Removed `_legacy_slug`.",
            "Removed `dbg!(n);` from `src/lib.rs`.",
            "I did not remove `dbg!(n);`.",
            "Should I remove `dbg!(n);`?",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
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
