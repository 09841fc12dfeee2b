//! Claims in an agent's final message, extracted deterministically and explainably:
//! files changed, tests/build/lint passing, commits and pushes. Precision before recall:
//! a sentence that is negated, conditional, future, a question, reported speech, or inside
//! a fenced block makes no claim; text inside a code span is a quotation (it can name a
//! path or a command, never carry a verb).

/// What a claim says happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    File { path: String, change: Change },
    Tests { count: Option<u64> },
    Build,
    Lint,
    Commit { hash: Option<String> },
    Push { branch: Option<String> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Modified,
    Created,
    Deleted,
    Renamed { to: String },
}

/// One claim and the sentence it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub kind: Kind,
    pub sentence: String,
}

/// Verbs that claim a file changed, by the change they claim.
const MODIFY_VERBS: &[&str] = &[
    "updated",
    "modified",
    "changed",
    "edited",
    "rewrote",
    "rewritten",
    "fixed",
    "refactored",
    "replaced",
    "implemented",
    "patched",
    "adjusted",
    "tweaked",
    "extended",
    "reworked",
    "cleaned",
    "reformatted",
    "converted",
    "migrated",
    "documented",
    "corrected",
    "amended",
];
const CREATE_VERBS: &[&str] = &[
    "created",
    "added",
    "wrote",
    "written",
    "generated",
    "saved",
    "introduced",
    "scaffolded",
];
const DELETE_VERBS: &[&str] = &["removed", "deleted", "dropped"];
const RENAME_VERBS: &[&str] = &["renamed", "moved"];

/// Words that make a clause no claim: negation, the future, conditions, suggestions,
/// reported speech.
const NOT_A_STATEMENT: &[&str] = &[
    "not",
    "never",
    "nothing",
    "unchanged",
    "untouched",
    "without",
    "neither",
    "nor",
    "didn't",
    "don't",
    "doesn't",
    "haven't",
    "hasn't",
    "wasn't",
    "weren't",
    "isn't",
    "aren't",
    "won't",
    "can't",
    "cannot",
    "couldn't",
    "shouldn't",
    "no",
    "will",
    "i'll",
    "we'll",
    "you'll",
    "it'll",
    "going",
    "should",
    "could",
    "would",
    "might",
    "may",
    "can",
    "need",
    "needs",
    "want",
    "plan",
    "let",
    "if",
    "once",
    "unless",
    "next",
    "todo",
    "please",
    "consider",
    "recommend",
    "suggest",
    "try",
    "says",
    "said",
    "according",
    "asked",
    "requested",
    "expects",
    "expected",
    "tbd",
    "pending",
    "remaining",
    "still",
    "yet",
];

/// File names without an extension that are files all the same.
const BARE_FILE_NAMES: &[&str] = &[
    "Makefile",
    "Dockerfile",
    "Justfile",
    "Gemfile",
    "Rakefile",
    "Procfile",
    "LICENSE",
    "README",
    "CHANGELOG",
    "Containerfile",
    "Vagrantfile",
    "Jenkinsfile",
    "CODEOWNERS",
];

/// Extensions a bare (unquoted) token must have to be taken for a file.
const FILE_EXTENSIONS: &[&str] = &[
    "rs",
    "py",
    "js",
    "mjs",
    "cjs",
    "ts",
    "tsx",
    "jsx",
    "md",
    "txt",
    "json",
    "jsonl",
    "toml",
    "yaml",
    "yml",
    "go",
    "java",
    "kt",
    "c",
    "h",
    "cc",
    "cpp",
    "hpp",
    "rb",
    "sh",
    "bash",
    "zsh",
    "css",
    "scss",
    "html",
    "sql",
    "lock",
    "cfg",
    "ini",
    "xml",
    "csv",
    "ipynb",
    "swift",
    "php",
    "vue",
    "svelte",
    "env",
    "conf",
    "proto",
    "gradle",
    "tf",
    "lua",
    "ex",
    "exs",
    "erl",
    "hs",
    "ml",
    "scala",
    "cs",
    "fs",
    "r",
    "pl",
    "pm",
    "rst",
    "adoc",
    "tex",
    "svg",
    "png",
    "jpg",
    "gif",
    "pdf",
    "log",
    "bak",
    "patch",
    "diff",
    "dockerfile",
    "nix",
    "zig",
    "dart",
];

/// Every claim in `message`.
pub fn extract(message: &str) -> Vec<Claim> {
    let mut claims = Vec::new();
    for sentence in sentences(&strip_fences(message)) {
        for clause in clauses(&sentence) {
            claims.extend(clause_claims(&clause, &sentence));
        }
    }
    claims
}

/// The message without fenced code blocks (what is inside them is quoted, not said).
fn strip_fences(message: &str) -> String {
    let mut out = String::new();
    let mut fence: Option<&str> = None;
    for line in message.lines() {
        let t = line.trim_start();
        match fence {
            Some(f) if t.starts_with(f) => fence = None,
            Some(_) => {}
            None if t.starts_with("```") || t.starts_with("~~~") => fence = Some(&t[..3]),
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// Sentences: lines (list items, table rows, headings), split at `.`/`!`/`?` followed by
/// a space, never inside a code span.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for raw_line in text.lines() {
        let line = clean_markdown(raw_line);
        let mut current = String::new();
        let mut in_code = false;
        let chars: Vec<char> = line.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            current.push(c);
            if c == '`' {
                in_code = !in_code;
            }
            let next = chars.get(i + 1);
            if !in_code && matches!(c, '.' | '!' | '?') && next.is_none_or(|n| n.is_whitespace()) {
                out.push(std::mem::take(&mut current));
            }
        }
        if !current.trim().is_empty() {
            out.push(current);
        }
    }
    out.into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A line without list markers, heading marks, emphasis and table pipes.
fn clean_markdown(line: &str) -> String {
    let mut t = line.trim();
    for marker in ["- [x] ", "- [ ] ", "- ", "* ", "+ ", "> "] {
        if let Some(rest) = t.strip_prefix(marker) {
            t = rest;
        }
    }
    let t = t.trim_start_matches('#').trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let t = if digits > 0 && t[digits..].starts_with(". ") {
        &t[digits + 2..]
    } else {
        t
    };
    let t = t.replace("**", "").replace("__", "");
    if t.starts_with('|') {
        if t.trim_matches(|c| c == '|' || c == '-' || c == ':' || c == ' ')
            .is_empty()
        {
            return String::new();
        }
        return t
            .split('|')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
            + ".";
    }
    t
}

/// Clauses: parts joined by `;` or `, but` / ` but `, each judged on its own.
fn clauses(sentence: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut in_code = false;
    let chars: Vec<char> = sentence.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            in_code = !in_code;
        }
        let rest: String = chars[i..chars.len().min(i + 5)].iter().collect();
        if !in_code && (c == ';' || rest.to_lowercase() == " but ") {
            out.push(String::new());
            i += if c == ';' { 1 } else { 5 };
            continue;
        }
        out.last_mut().expect("never empty").push(c);
        i += 1;
    }
    out.into_iter().filter(|c| !c.trim().is_empty()).collect()
}

/// A token of a clause: a word of prose, or a code span / quoted string (a quotation).
#[derive(Debug, Clone)]
enum Token {
    Word(String),
    Quoted(String),
}

fn tokens(clause: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = clause.chars().peekable();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        let w = word.trim_matches(|c: char| {
            matches!(c, ',' | ':' | '(' | ')' | '!' | '?' | '*' | '[' | ']')
        });
        let w = w
            .trim_end_matches(['.', ',', ':', ';', ')'])
            .trim_start_matches('(');
        if !w.is_empty() {
            out.push(Token::Word(w.to_owned()));
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            '`' | '"' | '“' | '”' => {
                flush(&mut word, &mut out);
                let close = match c {
                    '“' => '”',
                    other => other,
                };
                let mut q = String::new();
                let mut closed = false;
                for d in chars.by_ref() {
                    if d == close || (c == '"' && d == '”') {
                        closed = true;
                        break;
                    }
                    q.push(d);
                }
                if closed {
                    out.push(Token::Quoted(q));
                } else {
                    word.push_str(&q);
                }
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    out
}

fn lower_words(tokens: &[Token]) -> Vec<String> {
    tokens
        .iter()
        .map(|t| match t {
            Token::Word(w) => w.to_lowercase().replace('’', "'"),
            Token::Quoted(_) => "\u{1}".into(),
        })
        .collect()
}

/// Whether a clause states something as done: no negation, condition, future, question,
/// reported speech. "no errors" and "no warnings" are results, not negations.
fn is_statement(clause: &str, words: &[String]) -> bool {
    if clause.trim_end().ends_with('?') {
        return false;
    }
    !words.iter().enumerate().any(|(i, w)| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
        let result_phrase = matches!(w, "no" | "without" | "zero")
            && words.get(i + 1).is_some_and(|n| {
                n.starts_with("error")
                    || n.starts_with("warning")
                    || n.starts_with("failure")
                    || n.starts_with("issue")
                    || n.starts_with("regression")
            });
        !result_phrase && (NOT_A_STATEMENT.contains(&w) || w.ends_with("n't"))
    })
}

fn clause_claims(clause: &str, sentence: &str) -> Vec<Claim> {
    let toks = tokens(clause);
    let words = lower_words(&toks);
    if !is_statement(clause, &words) {
        return Vec::new();
    }
    let claim = |kind| Claim {
        kind,
        sentence: sentence.to_owned(),
    };
    let mut out: Vec<Claim> = file_claims(&toks, &words).into_iter().map(claim).collect();
    // For the rest, code spans read as words (`cargo test` passes).
    let flat: Vec<String> = toks
        .iter()
        .flat_map(|t| match t {
            Token::Word(w) => vec![w.to_lowercase()],
            Token::Quoted(q) => q.split_whitespace().map(str::to_lowercase).collect(),
        })
        .collect();
    out.extend(result_claims(&flat).into_iter().map(claim));
    out.extend(git_claims(&toks, &flat).into_iter().map(claim));
    out
}

fn verb_class(word: &str) -> Option<u8> {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
    if MODIFY_VERBS.contains(&w) {
        Some(0)
    } else if CREATE_VERBS.contains(&w) {
        Some(1)
    } else if DELETE_VERBS.contains(&w) {
        Some(2)
    } else if RENAME_VERBS.contains(&w) {
        Some(3)
    } else {
        None
    }
}

/// A token that names a file: a quoted path (with `/` or `.`, or a known bare name), or a
/// bare word with `/` or a known extension.
fn as_path(t: &Token) -> Option<String> {
    let (text, quoted) = match t {
        Token::Quoted(q) => (q.trim(), true),
        Token::Word(w) => (
            w.trim_end_matches(['.', ',', ':', ';', ')', '\''])
                .trim_start_matches(['(', '\'']),
            false,
        ),
    };
    if text.is_empty()
        || text.contains("://")
        || text.starts_with('-')
        || text.contains(['(', ')', '=', '<', '>', '{', '}'])
    {
        return None;
    }
    if BARE_FILE_NAMES.contains(&text) {
        return Some(text.to_owned());
    }
    if !quoted && text.contains(char::is_whitespace) {
        return None;
    }
    if quoted && text.split_whitespace().count() > 1 && !text.contains('/') && !text.contains('.') {
        return None;
    }
    let name = text.rsplit('/').next().unwrap_or(text);
    let ext = name
        .rsplit_once('.')
        .map(|(stem, e)| (stem, e.to_ascii_lowercase()));
    let has_ext = |known: bool| match &ext {
        Some((stem, e)) => {
            !e.is_empty()
                && e.chars().all(|c| c.is_ascii_alphanumeric())
                && e.chars().any(|c| c.is_ascii_alphabetic())
                && (!stem.is_empty() || name.starts_with('.'))
                && (!known || FILE_EXTENSIONS.contains(&e.as_str()))
        }
        None => false,
    };
    let slash = text.contains('/') && text.chars().any(|c| c.is_alphanumeric());
    let ok = if quoted {
        slash || has_ext(false) || name.starts_with('.') && name.len() > 1
    } else {
        slash || has_ext(true)
    };
    if !ok || text.ends_with("/.") {
        return None;
    }
    // `e.g`, `i.e`, version numbers.
    if matches!(text.to_ascii_lowercase().as_str(), "e.g" | "i.e" | "etc")
        || text.starts_with(|c: char| c.is_ascii_digit()) && !slash
    {
        return None;
    }
    Some(text.to_owned())
}

fn file_claims(toks: &[Token], words: &[String]) -> Vec<Kind> {
    let mut out = Vec::new();
    let verbs: Vec<(usize, u8)> = words
        .iter()
        .enumerate()
        .filter_map(|(i, w)| verb_class(w).map(|c| (i, c)))
        .collect();
    if verbs.is_empty() {
        return out;
    }
    let mut skip = std::collections::HashSet::new();
    for (i, t) in toks.iter().enumerate() {
        if skip.contains(&i) {
            continue;
        }
        let Some(path) = as_path(t) else { continue };
        // The verb that governs the path: the nearest one before it, else after it
        // ("`a.rs` was updated").
        let Some(&(vi, class)) = verbs
            .iter()
            .rev()
            .find(|(vi, _)| *vi < i)
            .or_else(|| verbs.iter().find(|(vi, _)| *vi > i))
        else {
            continue;
        };
        let between = |a: usize, b: usize| &words[a.min(b) + 1..a.max(b)];
        let preposition_before = i > 0
            && matches!(
                words[i - 1].as_str(),
                "to" | "in" | "into" | "inside" | "within" | "of"
            );
        let change = match class {
            3 => {
                // `renamed a to b`: the next path after "to".
                let to = toks
                    .iter()
                    .enumerate()
                    .skip(i + 1)
                    .find(|(j, t)| words[j - 1] == "to" && as_path(t).is_some())
                    .map(|(j, t)| (j, as_path(t).unwrap_or_default()));
                match to {
                    Some((j, to)) => {
                        skip.insert(j);
                        Change::Renamed { to }
                    }
                    None => continue,
                }
            }
            2 => Change::Deleted,
            // "added a test to `lib.rs`": the file is where something was added.
            1 if vi < i && preposition_before && !between(vi, i).is_empty() => Change::Modified,
            1 => Change::Created,
            _ => Change::Modified,
        };
        out.push(Kind::File { path, change });
    }
    out
}

const TEST_WORDS: &[&str] = &[
    "test", "tests", "suite", "specs", "spec", "pytest", "jest", "vitest", "nextest", "ctest",
    "rspec", "unittest",
];
const PASS_WORDS: &[&str] = &[
    "pass",
    "passes",
    "passed",
    "passing",
    "green",
    "succeed",
    "succeeds",
    "succeeded",
    "ok",
];
const BUILD_WORDS: &[&str] = &[
    "build",
    "builds",
    "compiles",
    "compile",
    "compiled",
    "compilation",
];
const BUILD_OK: &[&str] = &[
    "succeeds",
    "succeeded",
    "passes",
    "passed",
    "green",
    "clean",
    "cleanly",
    "successfully",
    "works",
    "fine",
    "ok",
];
const LINT_WORDS: &[&str] = &[
    "clippy",
    "lint",
    "linter",
    "linting",
    "eslint",
    "ruff",
    "flake8",
    "pylint",
    "rustfmt",
    "prettier",
    "fmt",
    "golangci-lint",
    "mypy",
    "shellcheck",
    "biome",
];
const LINT_OK: &[&str] = &[
    "clean",
    "passes",
    "passed",
    "green",
    "happy",
    "ok",
    "succeeds",
    "succeeded",
];

fn clean(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '/' && c != '-')
}

/// Tests, build and lint results.
fn result_claims(words: &[String]) -> Vec<Kind> {
    let mut out = Vec::new();
    let w: Vec<&str> = words.iter().map(|s| clean(s)).collect();
    let has_failure = w.iter().enumerate().any(|(i, x)| {
        (x.starts_with("fail") || *x == "errors" || *x == "error")
            && !(i > 0 && matches!(w[i - 1], "no" | "0" | "zero" | "without"))
    });
    let near = |a: &[&str], b: &[&str], window: usize| {
        w.iter().enumerate().any(|(i, x)| {
            a.contains(x)
                && w[i + 1..w.len().min(i + 1 + window)]
                    .iter()
                    .any(|y| b.contains(y))
        })
    };
    let count_re = || -> Option<u64> {
        for (i, x) in w.iter().enumerate() {
            // "12/12 tests"
            if let Some((a, b)) = words[i].split_once('/') {
                if a.chars().all(|c| c.is_ascii_digit())
                    && !a.is_empty()
                    && b.trim_end_matches(|c: char| !c.is_ascii_digit())
                        .parse::<u64>()
                        .is_ok()
                {
                    return b
                        .trim_end_matches(|c: char| !c.is_ascii_digit())
                        .parse()
                        .ok();
                }
            }
            if let Ok(n) = x.parse::<u64>() {
                let next = w.get(i + 1).copied().unwrap_or("");
                if TEST_WORDS.contains(&next) || next == "passed" || next == "passing" {
                    return Some(n);
                }
            }
        }
        None
    };
    let test_claim = (near(TEST_WORDS, PASS_WORDS, 4)
        || (w.contains(&"passed") && count_re().is_some()))
        && !has_failure;
    let added_tests = w
        .iter()
        .any(|x| matches!(*x, "added" | "wrote" | "created"))
        && !w.iter().any(|x| PASS_WORDS.contains(x) && *x != "ok");
    if test_claim && !added_tests {
        out.push(Kind::Tests { count: count_re() });
    }
    if (near(BUILD_WORDS, BUILD_OK, 3) || w.contains(&"compiles") || w.contains(&"builds"))
        && !has_failure
        && !test_claim
    {
        out.push(Kind::Build);
    }
    let no_warnings = w
        .windows(2)
        .any(|p| matches!(p[0], "no" | "zero" | "0") && p[1].starts_with("warning"));
    if (near(LINT_WORDS, LINT_OK, 4) || (no_warnings && w.iter().any(|x| LINT_WORDS.contains(x))))
        && !has_failure
    {
        out.push(Kind::Lint);
    }
    out
}

fn is_hash(t: &str) -> bool {
    (7..=40).contains(&t.len())
        && t.chars().all(|c| c.is_ascii_hexdigit())
        && t.chars().any(|c| c.is_ascii_alphabetic())
        && t.chars().any(|c| c.is_ascii_digit())
}

/// Commits and pushes.
fn git_claims(toks: &[Token], words: &[String]) -> Vec<Kind> {
    let mut out = Vec::new();
    let w: Vec<&str> = words.iter().map(|s| clean(s)).collect();
    let raw: Vec<String> = toks
        .iter()
        .flat_map(|t| match t {
            Token::Word(x) => vec![x.clone()],
            Token::Quoted(q) => q.split_whitespace().map(str::to_owned).collect(),
        })
        .collect();
    let committed = w.contains(&"committed")
        || w.windows(3).any(|p| {
            matches!(p[0], "created" | "made")
                && matches!(p[1], "a" | "the" | "one")
                && p[2].starts_with("commit")
        });
    if committed {
        let hash = raw
            .iter()
            .map(|x| clean(x))
            .find(|x| is_hash(x))
            .map(str::to_owned);
        out.push(Kind::Commit { hash });
    }
    if let Some(i) = w.iter().position(|x| *x == "pushed") {
        let branch = w[i + 1..]
            .iter()
            .position(|x| *x == "to")
            .and_then(|j| raw.get(i + 2 + j))
            .map(|b| clean(b).to_owned())
            .filter(|b| {
                !b.is_empty()
                    && !matches!(
                        b.as_str(),
                        "origin" | "the" | "remote" | "github" | "upstream"
                    )
            });
        let branch = branch.map(|b| b.strip_prefix("origin/").map(str::to_owned).unwrap_or(b));
        out.push(Kind::Push { branch });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(m: &str) -> Vec<Kind> {
        extract(m).into_iter().map(|c| c.kind).collect()
    }

    fn file(path: &str, change: Change) -> Kind {
        Kind::File {
            path: path.into(),
            change,
        }
    }

    #[test]
    fn files() {
        assert_eq!(
            kinds("I updated `src/lib.rs`."),
            [file("src/lib.rs", Change::Modified)]
        );
        assert_eq!(
            kinds("Created tests/foo.rs"),
            [file("tests/foo.rs", Change::Created)]
        );
        assert_eq!(kinds("Wrote out.txt."), [file("out.txt", Change::Created)]);
        assert_eq!(
            kinds("Added a test to `src/lib.rs`."),
            [file("src/lib.rs", Change::Modified)]
        );
        assert_eq!(
            kinds("Renamed `a.rs` to `b.rs`."),
            [file("a.rs", Change::Renamed { to: "b.rs".into() })]
        );
        assert_eq!(
            kinds("Deleted `old/config.yml`"),
            [file("old/config.yml", Change::Deleted)]
        );
        assert_eq!(
            kinds("- `my file.txt`: updated"),
            [file("my file.txt", Change::Modified)]
        );
        assert_eq!(
            kinds("| `src/a.rs` | modified |"),
            [file("src/a.rs", Change::Modified)]
        );
        assert_eq!(
            kinds("I updated `a.rs` but did not touch `b.rs`."),
            [file("a.rs", Change::Modified)]
        );
        assert!(kinds("removed the old config").is_empty());
    }

    #[test]
    fn not_claims() {
        for m in [
            "I did not change `src/lib.rs`.",
            "Left `a.rs` unchanged.",
            "No changes to `a.rs`.",
            "I will update `a.rs`.",
            "You may want to update `a.rs`.",
            "Should I update `a.rs`?",
            "```\nI updated `a.rs`\ntest result: ok. 5 passed\n```",
            "The issue says all tests pass.",
            "Once the tests pass, push.",
        ] {
            assert!(kinds(m).is_empty(), "{m:?}: {:?}", kinds(m));
        }
    }

    #[test]
    fn results_and_git() {
        assert_eq!(kinds("All tests pass."), [Kind::Tests { count: None }]);
        assert_eq!(kinds("42 tests passed"), [Kind::Tests { count: Some(42) }]);
        assert_eq!(
            kinds("`cargo test` is green"),
            [Kind::Tests { count: None }]
        );
        assert_eq!(kinds("12/12 tests pass"), [Kind::Tests { count: Some(12) }]);
        assert_eq!(kinds("The build succeeds."), [Kind::Build]);
        assert_eq!(kinds("clippy is clean."), [Kind::Lint]);
        assert_eq!(
            kinds("Committed as abc1234."),
            [Kind::Commit {
                hash: Some("abc1234".into())
            }]
        );
        assert_eq!(
            kinds("Pushed to `feat/x`."),
            [Kind::Push {
                branch: Some("feat/x".into())
            }]
        );
        assert!(kinds("5 passed, 1 failed").is_empty());
        assert!(kinds("Added tests for the parser.").is_empty());
    }
}
