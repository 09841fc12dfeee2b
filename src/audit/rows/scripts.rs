//! The package scripts a report says the project has, and the tools it says they run
//! ("package.json에 `start` 스크립트를 넣어서", "`npm test` lance maintenant les trois suites :
//! node:test, jest et mocha"): [`Kind::Script`], read from `package.json`.

use super::refs::{denials_of, negates, not_reported, unquoted};
use super::*;

/// Marks the package scripts a sentence says there are: a script's name in a span beside a
/// word for script, in a sentence that names `package.json` or a package manager (a
/// `deploy` script may be a file's), or a span that runs one (`npm test`, `pnpm run
/// lint`). The tools (of the check tables) the clause names after it are what the script
/// is said to run. Nothing where the clause denies, plans, asks or tells another's doing.
pub fn mark_package_scripts(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        // The shape first: a span, and a word for script or a package manager.
        let lower = r.sentence.to_lowercase();
        if !r.sentence.contains('`')
            || !(SCRIPT_WORDS.iter().any(|w| lower.contains(w))
                || MANAGERS.iter().any(|m| lower.contains(m)))
            || r.sentence.trim_end().ends_with(['?', '？'])
            || r.why
                .iter()
                .any(|w| not_reported(w, &["someone", "failure"]))
        {
            continue;
        }
        let of_packages = lower.contains("package.json")
            || lower
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| MANAGERS.contains(&w));
        let denials = denials_of(r);
        let mut kinds = Vec::new();
        for clause in r.sentence.split([';', '；', '。']) {
            // "package.json 里没有 `build` 脚本": a denial the reading found (in any script)
            // or a negation word of the tables.
            let lower = clause.to_lowercase();
            if denials.iter().any(|d| lower.contains(d.as_str())) || negates(&unquoted(&lower)) {
                continue;
            }
            for (name, after, by_word) in scripts_named(clause, of_packages) {
                let runs: Vec<String> = super::super::named::tools_named(&clause_rest(after))
                    .iter()
                    .map(|n| n.names[0])
                    .filter(|name| !common_word(name))
                    .map(str::to_owned)
                    .collect();
                // A run of a script that names no tool ("`npm test`: 4 passed") is the
                // run's claim, read by the tests readers.
                if by_word || !runs.is_empty() {
                    kinds.push(Kind::Script { name, runs });
                }
            }
        }
        for kind in kinds {
            add_new(r, kind);
        }
    }
}

/// The scripts a clause names, each with the text after it and whether a word for script
/// named it: a span beside a word for script (when `of_packages`), or a span that runs a
/// package script.
fn scripts_named(clause: &str, of_packages: bool) -> Vec<(String, &str, bool)> {
    let mut out = Vec::new();
    let parts: Vec<&str> = clause.split('`').collect();
    let mut at = 0;
    for (i, part) in parts.iter().enumerate() {
        let start = at;
        at += part.len() + 1;
        if i % 2 == 0 {
            continue;
        }
        let span = part.trim();
        let after = clause.get(at.min(clause.len())..).unwrap_or("");
        let before = &clause[..start.saturating_sub(1)];
        let words: Vec<String> = span.split_whitespace().map(str::to_owned).collect();
        if let Some(name) = super::super::shellrun::package_script(&words) {
            out.push((name, after, false));
        } else if of_packages
            && is_script_name(span)
            && (script_word_leads(after) || script_word_ends(before))
        {
            out.push((span.to_owned(), after, true));
        }
    }
    out
}

/// A script's name: lower-case letters, digits and `:`, `-`, `_` (`test`, `test:e2e`).
fn is_script_name(span: &str) -> bool {
    !span.is_empty()
        && span.len() <= 40
        && span.starts_with(|c: char| c.is_ascii_lowercase())
        && span
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || ":-_".contains(c))
}

/// Whether text right after a span opens with a word for script ("`start` script",
/// "`start`-Skript", "`start` スクリプト").
fn script_word_leads(after: &str) -> bool {
    let t = after
        .trim_start_matches(['-', ' ', '\u{a0}'])
        .to_lowercase();
    SCRIPT_WORDS.iter().any(|w| t.starts_with(w))
}

/// Whether text right before a span ends with a word for script ("the script `test`",
/// "l'script `test`", "скрипт `start`").
fn script_word_ends(before: &str) -> bool {
    let t = before.trim_end().to_lowercase();
    let last = t
        .rsplit(|c: char| c.is_whitespace() || c == '\'' || c == '’')
        .next()
        .unwrap_or("");
    SCRIPT_WORDS
        .iter()
        .any(|w| last.trim_end_matches([':', '«', '"']) == *w || last == format!("{w}s"))
}

/// The rest of a clause after a script, up to the clause's end, without the commands in
/// spans of several words (in "`npm test` 2/2, `mocha mspec` 2 passing" mocha ran apart).
fn clause_rest(after: &str) -> String {
    let rest = after.split(['.', '!', '\n']).next().unwrap_or("");
    rest.split('`')
        .enumerate()
        .filter(|(i, part)| i % 2 == 0 || !part.trim().contains(char::is_whitespace))
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a tool's name is a common word of the message's language: Polish "jest" is
/// "is" ("piąty jest pominięty").
fn common_word(tool: &str) -> bool {
    const COMMON: &[(&str, &str)] = &[("jest", "pl")];
    COMMON
        .iter()
        .any(|(name, code)| *name == tool && forms::reading() == Some(*code))
}

/// Package managers a sentence may name beside a script.
const MANAGERS: &[&str] = &["npm", "pnpm", "yarn", "bun"];

/// Words for a script, in the tables' languages (most borrow the English one).
const SCRIPT_WORDS: &[&str] = &[
    "script",
    "skript",
    "skrypt",
    "scriptet",
    "skriptet",
    "scriptje",
    "guion",
    "スクリプト",
    "스크립트",
    "скрипт",
    "сценарий",
    "脚本",
    "腳本",
    "סקריפט",
    "سكربت",
    "سكريبت",
    "اسکریپت",
    "स्क्रिप्ट",
    "স্ক্রিপ্ট",
    "σκριπτ",
    "σενάριο",
    "skrip",
    "kịch bản",
    "สคริปต์",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_script_and_what_it_runs_are_read() {
        let read = |message: &str| marked_kinds(message, mark_package_scripts);
        let script = |name: &str, runs: &[&str]| Kind::Script {
            name: name.into(),
            runs: runs.iter().map(|r| (*r).to_owned()).collect(),
        };
        assert_eq!(
            read("package.json에 `start` 스크립트를 넣어서 이제 실행됩니다."),
            vec![script("start", &[])]
        );
        assert_eq!(
            read("`npm pkg set` で `start` スクリプトを追加しました。"),
            vec![script("start", &[])]
        );
        assert_eq!(
            read("- `package.json`: `npm test` now runs all three suites: node:test, jest (`spec/`) and mocha (`mspec/`)."),
            vec![script("test", &["jest", "mocha", "node:test"])]
        );
        assert_eq!(
            read("`npm run lint` runs eslint over `src/`."),
            vec![script("lint", &["eslint"])]
        );
        // A command in a span of its own is a run apart from the script's.
        assert!(read("`npm test` 2/2, `mocha mspec` 2 passing.").is_empty());
        for message in [
            // A script that is a file's, with no package manager named.
            "The `deploy` script in `scripts/deploy.sh` copies the build.",
            // Denied, or asked.
            "`npm test` no longer runs jest.",
            "Should the `lint` script run eslint in package.json?",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
    }
}
