//! English. Its claims are read by the English reader ([`crate::audit::claims`]), which
//! knows English word order in depth; this table holds the same vocabulary, and the words
//! that tell an English message from the others.

use super::Lang;
use crate::audit::claims as c;

pub const EN: Lang = Lang {
    code: "en",
    name: "English",
    spaced: true,
    markers: &[
        "we", "the", "and", "to", "of", "is", "are", "was", "were", "have", "has", "it", "this",
        "that", "with", "for", "all", "now", "not", "so", "but", "be", "by", "from", "as", "also",
        "which", "into", "after", "before", "then", "i've", "there", "its", "my", "your", "you",
        "only", "both", "one", "what", "no", "ran", "on", "at", "if", "or", "via", "done",
        "changes", "files", "file", "new", "still", "did", "does", "it's", "i'm", "i'll", "any",
        "didn", "don", "doesn", "isn", "wasn", "haven", "hasn", "won", "couldn", "ll", "ve",
    ],
    modified: c::MODIFY_VERBS,
    created: c::CREATE_VERBS,
    deleted: c::DELETE_VERBS,
    renamed: c::RENAME_VERBS,
    from: &["from", "in", "out of"],
    done: &[],
    negations: c::NEGATIONS,
    modal: c::MODAL,
    others: c::OTHERS,
    earlier: &["already", "previously", "earlier"],
    read: c::READ_VERBS,
    tests: c::TEST_WORDS,
    build: c::BUILD_WORDS,
    lint: c::LINT_WORDS,
    format: &[
        "format",
        "formatter",
        "rustfmt",
        "prettier",
        "black",
        "gofmt",
    ],
    passed: c::PASS_WORDS,
    clean: c::LINT_OK,
    failed: &["fail", "failed", "failing", "fails", "broken", "red"],
    formatted: &["formatted", "reformatted"],
    committed: &["committed"],
    pushed: &["pushed"],
    numbers: &[
        ("two", 2),
        ("three", 3),
        ("four", 4),
        ("five", 5),
        ("six", 6),
        ("seven", 7),
        ("eight", 8),
        ("nine", 9),
        ("ten", 10),
    ],
    joins: &["but", "although", "though", "because", "since", "so that"],
    not_claims_headings: c::HEADING_NOT,
};
