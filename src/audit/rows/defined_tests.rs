//! The tests a report says a test file holds ("test/batch.test.js có 3 test: …", "`tests/
//! test_api.py` now has 5 tests"): [`Kind::TestsInFile`], counted from the file's own
//! definitions.

use super::refs::{negates, unquoted};
use super::*;

/// Marks the count of tests a sentence says one test file holds: the file (a path with
/// "test" or "spec" in it, in a span or bare), a word for "has" or "contains", and a
/// number right before a word for tests of any table. Nothing where the sentence tells new
/// or added tests (a count of the change, not of the file), denies, plans or asks.
pub fn mark_tests_in_file(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        // The shape first: a word for "has" or "contains" and a digit or number word.
        let lower = r.sentence.to_lowercase();
        let words = || {
            lower
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
        };
        if !words().any(|w| super::refs::HAS.contains(&w) || super::paths::CONTAINS.contains(&w))
            || !(lower.contains(|c: char| c.is_ascii_digit())
                || words().any(|w| number_of(w).is_some()))
        {
            continue;
        }
        let files: Vec<String> = super::endings::files_named(&r.sentence)
            .into_iter()
            .filter(|p| is_test_file(p))
            .collect();
        let [path] = files.as_slice() else {
            continue;
        };
        // The clause that names the file, from the file on: the file, then a word for
        // "has", then the count ("test/batch.test.js có 3 test"). A count in another clause
        // ("…; riferisce la suite tutta verde, 5 test superati") is a run's.
        let Some(at) = lower.find(&path.to_lowercase()) else {
            continue;
        };
        // The span's closing mark is no opening of another.
        let after_file = lower[at + path.len()..].trim_start_matches(['`', '"', '\'']);
        let clause = after_file
            .split([';', '；', ',', '，', '.', '。'])
            .next()
            .unwrap_or("");
        let own = unquoted(clause);
        let words: Vec<&str> = own
            .split(|c: char| c.is_whitespace() || ":()（）`".contains(c))
            .filter(|w| !w.is_empty())
            .collect();
        let Some(has_at) = words
            .iter()
            .position(|w| super::refs::HAS.contains(w) || super::paths::CONTAINS.contains(w))
        else {
            continue;
        };
        let whole = unquoted(&lower);
        if r.sentence.trim_end().ends_with(['?', '？'])
            // A subagent's report relayed is the parent's claim, and a test of a failure
            // ("the case where `fn` rejects") is still a test the file holds: only a plan,
            // a condition or a question take the count back.
            || r
                .why
                .iter()
                .any(|w| super::refs::not_reported(w, &["someone", "failure"]))
            || negates(&own)
            || NEW_WORDS.iter().any(|w| whole.contains(w))
        {
            continue;
        }
        let Some(count) = words[has_at..].windows(2).find_map(|w| {
            let n = number_of(w[0])?;
            has_tests_word(w[1]).then_some(n)
        }) else {
            continue;
        };
        add_new(
            r,
            Kind::TestsInFile {
                path: path.clone(),
                count,
            },
        );
    }
}

/// Whether a path is a test file's: "test" or "spec" in its name or folder.
fn is_test_file(path: &str) -> bool {
    let lower = path.to_lowercase();
    (lower.contains("test") || lower.contains("spec"))
        && lower
            .rsplit('/')
            .next()
            .is_some_and(|name| name.contains('.'))
}

/// Whether a word starts with a word for tests of any table.
fn has_tests_word(word: &str) -> bool {
    static WORDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    let words = WORDS.get_or_init(|| {
        let mut out: Vec<&'static str> = LANGS
            .iter()
            .flat_map(|l| l.tests.iter().map(|t| t.trim()))
            .filter(|t| !t.is_empty() && !t.contains(' '))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    });
    words.iter().any(|t| word.starts_with(t))
}

/// Words that tell tests new or added: the count is the change's.
const NEW_WORDS: &[&str] = &[
    "new",
    "added",
    "more",
    "neu",
    "nouveau",
    "nouvea",
    "nuev",
    "nov",
    "nuov",
    "nieuw",
    "нов",
    "добав",
    "додан",
    "dodan",
    "dodał",
    "yeni",
    "eklen",
    "mới",
    "thêm",
    "baru",
    "tambah",
    "新",
    "追加",
    "새",
    "추가",
    "नए",
    "नया",
    "जोड़",
    "جدید",
    "اضافه",
    "جديد",
    "أضف",
    "חדש",
    "νέ",
    "uj",
    "új",
    "hozzáad",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn read(message: &str) -> Vec<String> {
        marked_texts(message, mark_tests_in_file)
    }

    #[test]
    fn a_count_of_tests_a_test_file_holds() {
        assert_eq!(
            read("**Test (subagent):** test/batch.test.js có 3 test: giữ thứ tự đầu vào, danh sách rỗng, và trường hợp `fn` bị reject."),
            ["file test/batch.test.js defines 3 tests"]
        );
        assert_eq!(
            read("`tests/test_api.py` now has five tests."),
            ["file tests/test_api.py defines 5 tests"]
        );
        for message in [
            // A count of the change, a denial, a plan, a run, a run's count in another
            // clause, "has" before the file.
            "Il subagente ha aggiunto `truncate` con i suoi test in `tests/test_truncate.py`; riferisce la suite tutta verde, 5 test superati.",
            "It has 3 tests in `tests/test_api.py`.",
            "`tests/test_api.py` has 2 new tests.",
            "Added 2 tests to `tests/test_api.py`.",
            "`tests/test_api.py` has no tests yet.",
            "`npm test`: 5 tests pass.",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
    }
}
