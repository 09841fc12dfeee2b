//! What a report says a Python function has ("`chunk` یک docstring با مثال دارد", "added
//! type hints to `slugify`, `clamp` and `snake_to_camel` in `app/text.py`"):
//! [`Kind::FnHas`], read from the words `docstring` and `type hint(s)` / `type
//! annotation(s)`, which agents write in English in any language.

use super::refs::{negates, plans_or_doubts, unquoted};
use super::*;
use crate::audit::vocab::FnPart;

/// The words that name a part of a function, each with the part.
const PARTS: &[(&str, FnPart)] = &[
    ("docstring", FnPart::Docstring),
    ("doc string", FnPart::Docstring),
    ("type hint", FnPart::TypeHints),
    ("type-hint", FnPart::TypeHints),
    ("typehint", FnPart::TypeHints),
    ("type annotation", FnPart::TypeHints),
];

/// Marks each function a sentence names in a code span as having the part it names. Only
/// a sentence that names one part, tells it as done or as a state, and names functions
/// as spans of a name's shape (`chunk`, `chunk(xs, n)`, `app.lists.chunk`); the file is
/// the one `.py` file the sentence names, if it names one. Nothing where the sentence
/// denies ("no docstring"), plans, asks or relays another's words.
pub fn mark_function_parts(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        // Most sentences name no part. The words past their first letter, which a
        // sentence may capitalise, are looked for before the sentence is lower-cased.
        if !PARTS.iter().any(|(w, _)| r.sentence.contains(&w[1..])) {
            continue;
        }
        let lower = r.sentence.to_lowercase();
        let parts: Vec<FnPart> = PARTS
            .iter()
            .filter(|(w, _)| lower.contains(w))
            .map(|(_, p)| *p)
            .collect();
        let [part, rest @ ..] = parts.as_slice() else {
            continue;
        };
        if rest.iter().any(|p| p != part)
            || !r.sentence.contains('`')
            || r.sentence.trim_end().ends_with(['?', '？'])
            || plans_or_doubts(r)
            || negates(&fold(&unquoted(&lower)))
        {
            continue;
        }
        let files: Vec<String> = path_spans(&r.sentence)
            .into_iter()
            .filter(|p| p.ends_with(".py"))
            .collect();
        let path = match files.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            _ => continue,
        };
        let mut names: Vec<String> = Vec::new();
        for span in vocab::spans_of(&r.sentence) {
            if let Some(name) = function_name(span.trim()) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        for name in names {
            add_new(
                r,
                Kind::FnHas {
                    name,
                    part: *part,
                    path: path.clone(),
                },
            );
        }
    }
}

/// The function a span names: a name's shape (`chunk`), called (`chunk(xs, n)`), or
/// reached through its module (`app.lists.chunk`); not a path, a keyword or a literal.
fn function_name(span: &str) -> Option<String> {
    let head = span.split('(').next().unwrap_or(span);
    if head.len() != span.len() && !span.trim_end().ends_with(')') {
        return None;
    }
    if vocab::path_of(span, true).is_some() && head.len() == span.len() {
        return None;
    }
    let name = head.rsplit('.').next().unwrap_or(head);
    let shaped = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    const NOT_FUNCTIONS: &[&str] = &[
        "None", "True", "False", "str", "int", "float", "bool", "list", "dict", "self",
    ];
    (shaped && !NOT_FUNCTIONS.contains(&name)).then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(message: &str) -> Vec<Kind> {
        marked_kinds(message, mark_function_parts)
    }

    fn has(name: &str, part: FnPart, path: Option<&str>) -> Kind {
        Kind::FnHas {
            name: name.into(),
            part,
            path: path.map(str::to_owned),
        }
    }

    #[test]
    fn functions_named_beside_a_part_have_it() {
        let hints = |name| has(name, FnPart::TypeHints, Some("app/text.py"));
        assert_eq!(
            read(
                "أضفت تلميحات الأنواع (type hints) إلى الدوال العامة الثلاث في `app/text.py`: `slugify` و`clamp` و`snake_to_camel`."
            ),
            [hints("slugify"), hints("clamp"), hints("snake_to_camel")]
        );
        assert_eq!(
            read(
                "`chunk` یک docstring با مثال دارد: `chunk([1, 2, 3, 4, 5], 2)` → `[[1, 2], [3, 4], [5]]`."
            ),
            [has("chunk", FnPart::Docstring, None)]
        );
    }

    #[test]
    fn a_part_denied_or_planned_claims_nothing() {
        for message in [
            "The subagent did not write a docstring for `chunk`.",
            "Should I add type hints to `clamp`?",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
    }
}
