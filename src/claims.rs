//! Claims in an agent's final message, extracted deterministically and explainably:
//! files changed, tests/build/lint passing, commits and pushes. Precision before recall:
//! a clause that is conditional, future, a question or reported speech makes no claim; a
//! negated part of a sentence (`without touching X`, `and no files changed`) drops only
//! that part; fenced blocks, blockquotes and tables about claims are quotations. A code
//! span is a quotation too: it can name a path or a command, never carry the verb.

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
    "touched",
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
/// Verbs of looking, not changing: a path after one is read, not written.
const READ_VERBS: &[&str] = &[
    "read",
    "reviewed",
    "checked",
    "inspected",
    "opened",
    "looked",
    "examined",
    "investigated",
    "ran",
    "viewed",
    "searched",
    "grepped",
    "scanned",
    "studied",
    "consulted",
    "found",
    "saw",
    "noticed",
    "traced",
];

/// Words that make a whole clause no claim: the future, conditions, suggestions, reported
/// speech, things done by others.
const NOT_A_STATEMENT: &[&str] = &[
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
    "says",
    "said",
    "according",
    "mentioned",
    "claimed",
    "assuming",
    "assume",
    "provided",
    "tbd",
    "pending",
    "remaining",
    "previously",
    "reads",
    "ago",
    "yesterday",
    "week",
];
/// Words that make a clause no claim when they open it: instructions and attributions
/// ("Run `make test` to …", "Per the README: …").
const NOT_A_STATEMENT_START: &[&str] = &[
    "run", "try", "make", "remember", "use", "ensure", "see", "note", "per", "check", "verify",
    "confirm",
];
/// Words that negate the part of a sentence they are in.
const NEGATIONS: &[&str] = &[
    "not",
    "never",
    "nothing",
    "unchanged",
    "untouched",
    "without",
    "neither",
    "nor",
    "no",
    "none",
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
    "yet",
    "still",
];

/// File names without an extension that are files all the same (when quoted).
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
    // "Everything passes" after a fenced `cargo test` is about the tests.
    let lower = message.to_lowercase();
    let mentions_tests = ["test", "spec", "pytest", "jest", "vitest"]
        .iter()
        .any(|w| lower.contains(w));
    let mut claims = Vec::new();
    for sentence in sentences(&prose_lines(message)) {
        for clause in clauses(&sentence) {
            claims.extend(clause_claims(&clause, &sentence, mentions_tests));
        }
    }
    claims
}

/// The message's lines that are the agent's own prose: without fenced blocks (a closing
/// fence is at least as long as its opening one), blockquotes, and tables about claims;
/// list items under a "Files changed:" line get that line's verb.
fn prose_lines(message: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut claim_table = false;
    let mut in_table = false;
    let mut list_verb: Option<String> = None;
    for line in message.lines() {
        let t = line.trim_start();
        let run = |c: char| t.chars().take_while(|&x| x == c).count();
        if let Some((c, n)) = fence {
            if run(c) >= n && t.trim_start_matches(c).trim().is_empty() {
                fence = None;
            }
            continue;
        }
        if let Some(c) = ['`', '~'].into_iter().find(|&c| run(c) >= 3) {
            fence = Some((c, run(c)));
            continue;
        }
        if t.starts_with('>') {
            continue;
        }
        if t.starts_with('|') {
            // A table whose header speaks of claims lists claims; it makes none.
            let header = !in_table;
            in_table = true;
            if header
                && t.to_lowercase()
                    .split(|c: char| !c.is_alphanumeric())
                    .any(|w| w == "claim" || w == "claims")
            {
                claim_table = true;
            }
            if claim_table {
                continue;
            }
        } else {
            in_table = false;
            claim_table = false;
        }
        // "Files changed:" followed by a list of paths.
        let cleaned = clean_markdown(t);
        let lower = cleaned.to_lowercase();
        if cleaned.ends_with(':') && lower.contains("file") {
            list_verb = lower
                .split_whitespace()
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
                .find(|w| verb_class(w).is_some())
                .map(str::to_owned);
            out.push(String::new());
            continue;
        }
        let is_item = t.starts_with("- ") || t.starts_with("* ");
        match (&list_verb, is_item) {
            (Some(verb), true)
                if !cleaned
                    .split_whitespace()
                    .any(|w| verb_class(&w.to_lowercase()).is_some()) =>
            {
                out.push(format!("{verb} {cleaned}"));
                continue;
            }
            (_, false) => list_verb = None,
            _ => {}
        }
        out.push(line.to_owned());
    }
    out
}

/// Sentences: lines (list items, table rows, headings), split at `.`/`!`/`?` followed by
/// a space (not after `e.g.` or `i.e.`), never inside a code span.
fn sentences(lines: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for raw_line in lines {
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
            // Only the last four characters matter (a whole-sentence lowercase per
            // character made a long line quadratic).
            let tail = &chars[i.saturating_sub(3)..=i];
            let is = |abbr: &str| {
                tail.len() == 4
                    && tail
                        .iter()
                        .zip(abbr.chars())
                        .all(|(a, b)| a.to_ascii_lowercase() == b)
            };
            let abbreviation = is("e.g.") || is("i.e.");
            if !in_code
                && !abbreviation
                && matches!(c, '.' | '!' | '?')
                && next.is_none_or(|n| n.is_whitespace())
            {
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

/// A line without list markers, heading marks, emphasis, links and table pipes.
fn clean_markdown(line: &str) -> String {
    let mut t = line.trim();
    for marker in ["- [x] ", "- [ ] ", "- ", "* ", "+ "] {
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
    let mut t = t.replace("**", "");
    // `[text](target)` reads as its text.
    while let Some(open) = t.find("](") {
        let Some(start) = t[..open].rfind('[') else {
            break;
        };
        let Some(close) = t[open..].find(')') else {
            break;
        };
        let text = t[start + 1..open].to_owned();
        t.replace_range(start..open + close + 1, &text);
    }
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

/// Clauses: parts joined by `;`, ` — `, or ` but `, each judged on its own; never split
/// inside a code span or a quotation.
fn clauses(sentence: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let (mut in_code, mut in_quote) = (false, false);
    let chars: Vec<char> = sentence.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '`' => in_code = !in_code,
            '"' | '“' | '”' if !in_code => in_quote = !in_quote,
            _ => {}
        }
        let rest: String = chars[i..chars.len().min(i + 5)]
            .iter()
            .collect::<String>()
            .to_lowercase();
        let split = if in_code || in_quote {
            0
        } else if c == ';' {
            1
        } else if (rest.starts_with(" — ") || rest.starts_with(" -- "))
            && sentence.trim_end().ends_with('?')
        {
            3
        } else if rest == " but " {
            5
        } else {
            0
        };
        if split > 0 {
            out.push(String::new());
            i += split;
            continue;
        }
        out.last_mut().expect("never empty").push(c);
        i += 1;
    }
    out.into_iter().filter(|c| !c.trim().is_empty()).collect()
}

/// A token of a clause: a word of prose, a code span, or a quotation.
#[derive(Debug, Clone)]
enum Token {
    Word(String),
    Code(String),
    Quote(String),
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
        let comma = word.trim_end_matches(['.', ')', ']']).ends_with(',');
        if !w.is_empty() {
            let w = match w {
                "→" | "->" | "=>" => "to",
                other => other,
            };
            out.push(Token::Word(w.to_owned()));
        }
        if comma {
            out.push(Token::Word(",".into()));
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        let opens = match c {
            '`' => Some('`'),
            '"' => Some('"'),
            '“' => Some('”'),
            // A single quote opens only at a word's start (not in `didn't`).
            '\'' if word.is_empty() => Some('\''),
            _ => None,
        };
        match opens {
            Some(close) => {
                let mut q = String::new();
                let mut closed = false;
                let mut look = chars.clone();
                while let Some(d) = look.next() {
                    if d == close || (c == '"' && d == '”') {
                        // A closing single quote is followed by a non-letter.
                        if close == '\'' && look.peek().is_some_and(|n| n.is_alphanumeric()) {
                            q.push(d);
                            continue;
                        }
                        closed = true;
                        break;
                    }
                    q.push(d);
                }
                if closed {
                    flush(&mut word, &mut out);
                    chars = look;
                    out.push(if c == '`' {
                        Token::Code(q)
                    } else {
                        Token::Quote(q)
                    });
                } else {
                    word.push(c);
                }
            }
            None if c.is_whitespace() => flush(&mut word, &mut out),
            None => word.push(c),
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
            Token::Code(_) | Token::Quote(_) => "\u{1}".into(),
        })
        .collect()
}

fn bare(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
}

/// Whether a clause states something as done: no condition, future, question, reported
/// speech.
fn is_statement(clause: &str, words: &[String]) -> bool {
    let opens_with = words
        .first()
        .is_some_and(|w| NOT_A_STATEMENT_START.contains(&bare(w)));
    !clause.trim_end().ends_with('?')
        && !opens_with
        && !words.iter().any(|w| NOT_A_STATEMENT.contains(&bare(w)))
}

/// "no errors", "zero warnings", "without regressions" state a result; they negate
/// nothing.
fn is_negation(words: &[String], i: usize) -> bool {
    let w = bare(&words[i]);
    let result = |n: &String| {
        [
            "error",
            "warning",
            "failure",
            "issue",
            "problem",
            "regression",
        ]
        .iter()
        .any(|r| n.starts_with(r))
    };
    let result_phrase = matches!(w, "no" | "without" | "zero")
        && words[i + 1..words.len().min(i + 3)].iter().any(result);
    !result_phrase && (NEGATIONS.contains(&w) || w.ends_with("n't"))
}

/// The clause without its negated parts: comma-separated parts, and `and no …` tails,
/// that hold a negation.
fn drop_negated(toks: Vec<Token>) -> Vec<Token> {
    let mut parts: Vec<Vec<Token>> = vec![Vec::new()];
    for t in toks {
        let ends_part = matches!(&t, Token::Word(w) if w == "," || w == "—");
        parts.last_mut().expect("never empty").push(t);
        if ends_part {
            parts.push(Vec::new());
        }
    }
    // Split "X and no Y" / "X and not Y" too.
    let mut split = Vec::new();
    for part in parts {
        let words = lower_words(&part);
        let mut start = 0;
        for i in 0..words.len() {
            if words[i] == "and" && i + 1 < words.len() && is_negation(&words, i + 1) {
                split.push(part[start..i].to_vec());
                start = i + 1;
            }
        }
        split.push(part[start..].to_vec());
    }
    split
        .into_iter()
        .filter(|part| {
            let words = lower_words(part);
            !(0..words.len()).any(|i| is_negation(&words, i))
        })
        .flatten()
        .collect()
}

fn clause_claims(clause: &str, sentence: &str, mentions_tests: bool) -> Vec<Claim> {
    let all = tokens(clause);
    if !is_statement(clause, &lower_words(&all)) {
        return Vec::new();
    }
    let toks = drop_negated(all);
    let words = lower_words(&toks);
    let claim = |kind| Claim {
        kind,
        sentence: sentence.to_owned(),
    };
    let mut out: Vec<Claim> = file_claims(&toks, &words).into_iter().map(claim).collect();
    // For the rest, code spans read as words (`cargo test` passes), but only prose can
    // say that something passed.
    let flat: Vec<(String, bool)> = toks
        .iter()
        .flat_map(|t| match t {
            Token::Word(w) => vec![(w.to_lowercase(), true)],
            Token::Code(q) => q
                .split_whitespace()
                .map(|x| (x.to_lowercase(), false))
                .collect(),
            Token::Quote(_) => Vec::new(),
        })
        .collect();
    out.extend(result_claims(&flat, mentions_tests).into_iter().map(claim));
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
/// bare word with `/` or a known extension. A `:line` suffix is dropped.
fn as_path(t: &Token) -> Option<String> {
    let (text, quoted) = match t {
        Token::Code(q) | Token::Quote(q) => (q.trim(), true),
        Token::Word(w) => (
            w.trim_end_matches(['.', ',', ':', ';', ')', '\''])
                .trim_start_matches(['(', '\'']),
            false,
        ),
    };
    let text = match text.rsplit_once(':') {
        Some((p, line)) if !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) => p
            .rsplit_once(':')
            .filter(|(_, l)| l.bytes().all(|b| b.is_ascii_digit()))
            .map_or(p, |(q, _)| q),
        _ => text,
    };
    if text.is_empty()
        || text.contains("://")
        || text.starts_with('-')
        || text.contains(['(', ')', '=', '<', '>', '{', '}'])
        || text.contains("::")
    {
        return None;
    }
    if quoted && BARE_FILE_NAMES.contains(&text) {
        return Some(text.to_owned());
    }
    if text.contains(char::is_whitespace)
        && (!quoted || (!text.contains('/') && !text.contains('.')))
    {
        return None;
    }
    let name = text
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(text);
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
    // Unquoted, `feat/x` or `origin/main` is a branch as often as a path: a bare word
    // needs an extension, or to start like a path does.
    let path_like_start = ["/", "./", "../", "~/"].iter().any(|p| text.starts_with(p));
    let ok = if quoted {
        slash || has_ext(false) || name.starts_with('.') && name.len() > 1
    } else {
        has_ext(true) || (slash && path_like_start)
    };
    if !ok || text.ends_with("/.") {
        return None;
    }
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
    if verbs.is_empty()
        || words
            .iter()
            .any(|w| matches!(bare(w), "shows" | "showed" | "lists" | "listed"))
    {
        return out;
    }
    let paths: Vec<(usize, String)> = toks
        .iter()
        .enumerate()
        .filter_map(|(i, t)| as_path(t).map(|p| (i, p)))
        .collect();
    let prep = |i: usize| {
        if i > 0 {
            bare(&words[i - 1]).to_owned()
        } else {
            String::new()
        }
    };
    let mut skip = std::collections::HashSet::new();
    for (i, path) in &paths {
        let i = *i;
        if skip.contains(&i) {
            continue;
        }
        // The verb that governs the path: the nearest one before it; else one after it
        // ("`a.rs` was updated", a table row "`a.rs` | Updated"), unless the path was
        // only read ("Read `a.rs` and updated the docs").
        let before = verbs.iter().rev().find(|(vi, _)| *vi < i);
        let read_before = words[..i].iter().any(|w| READ_VERBS.contains(&bare(w)));
        let Some(&(vi, class)) = before.or_else(|| {
            if read_before {
                None
            } else {
                verbs.iter().find(|(vi, _)| *vi > i)
            }
        }) else {
            continue;
        };
        let object_after_verb = vi > i && words.len() > vi + 1;
        let p = prep(i);
        let container = matches!(
            p.as_str(),
            "to" | "in" | "into" | "inside" | "within" | "of" | "from"
        );
        let path_object_before = paths.iter().any(|(j, _)| *j > vi && *j < i);
        let change = match class {
            3 => {
                let after = |prep_word: &str| {
                    paths
                        .iter()
                        .find(|(j, _)| *j > i.max(vi) && prep(*j) == prep_word)
                        .cloned()
                };
                if vi > i {
                    // "`a` was renamed to `b`"; a table row "`b` | Renamed from `a`".
                    if let Some((j, to)) = after("to") {
                        skip.insert(j);
                        Change::Renamed { to }
                    } else if let Some((j, from)) = after("from") {
                        skip.insert(j);
                        out.push(Kind::File {
                            path: from,
                            change: Change::Renamed { to: path.clone() },
                        });
                        continue;
                    } else {
                        Change::Modified
                    }
                } else if matches!(p.as_str(), "from" | "to" | "in" | "within") {
                    // Something (not this file) moved from or to it, or renamed in it.
                    Change::Modified
                } else {
                    match after("to") {
                        Some((j, to)) => {
                            skip.insert(j);
                            Change::Renamed { to }
                        }
                        None => continue,
                    }
                }
            }
            // "removed the import from `a.rs`": the file is where something was removed.
            2 if container && vi < i && !path_object_before && i > vi + 1 => Change::Modified,
            2 => Change::Deleted,
            // "added a test to `lib.rs`" / "`package.json` | Added the script": the file is
            // where something was added; "Added `target/` to `.gitignore`": the text
            // added is no file of its own.
            1 if vi < i && container && i > vi + 1 => Change::Modified,
            1 if vi < i
                && paths
                    .iter()
                    .any(|(j, _)| *j > i && matches!(prep(*j).as_str(), "to" | "into" | "in")) =>
            {
                continue
            }
            1 if object_after_verb => Change::Modified,
            1 => Change::Created,
            _ => Change::Modified,
        };
        out.push(Kind::File {
            path: path.clone(),
            change,
        });
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
/// Subjects that stand for the tests when the message is about tests ("all pass").
const TEST_PRONOUNS: &[&str] = &["everything", "all", "they", "both", "each"];

fn clean(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '/' && c != '-')
}

/// Tests, build and lint results. `words` carry whether they are prose (a word in a code
/// span can name a runner, not report that it passed).
fn result_claims(words: &[(String, bool)], mentions_tests: bool) -> Vec<Kind> {
    let mut out = Vec::new();
    let w: Vec<&str> = words.iter().map(|(s, _)| clean(s)).collect();
    let prose = |i: usize| words[i].1;
    let has_failure = w.iter().enumerate().any(|(i, x)| {
        (x.starts_with("fail") || *x == "errors" || *x == "error")
            && !(i > 0 && matches!(w[i - 1], "no" | "0" | "zero" | "without" | "lint"))
    });
    let near = |a: &[&str], b: &[&str], window: usize| {
        w.iter().enumerate().any(|(i, x)| {
            a.contains(x)
                && (i + 1..w.len().min(i + 1 + window)).any(|j| b.contains(&w[j]) && prose(j))
        })
    };
    let count = || -> Option<u64> {
        for (i, (raw, _)) in words.iter().enumerate() {
            if let Some((a, b)) = raw.split_once('/') {
                let b = b.trim_end_matches(|c: char| !c.is_ascii_digit());
                if !a.is_empty()
                    && a.chars().all(|c| c.is_ascii_digit())
                    && !b.is_empty()
                    && b.chars().all(|c| c.is_ascii_digit())
                {
                    return b.parse().ok();
                }
            }
            if let Ok(n) = w[i].parse::<u64>() {
                // "42 tests", "7 doc tests", "3 new transcript tests", "42 passed".
                let ahead = &w[i + 1..w.len().min(i + 4)];
                if ahead
                    .first()
                    .is_some_and(|x| *x == "passed" || *x == "passing")
                    || ahead.iter().any(|x| TEST_WORDS.contains(x))
                {
                    return Some(n);
                }
            }
        }
        None
    };
    let pronoun_pass = mentions_tests && near(TEST_PRONOUNS, PASS_WORDS, 2);
    let counted_pass = w
        .iter()
        .enumerate()
        .any(|(i, x)| matches!(*x, "passed" | "passing") && prose(i))
        && count().is_some();
    let test_claim =
        (near(TEST_WORDS, PASS_WORDS, 6) || pronoun_pass || counted_pass) && !has_failure;
    let added_tests = w
        .iter()
        .any(|x| matches!(*x, "added" | "wrote" | "created"))
        && !w
            .iter()
            .enumerate()
            .any(|(i, x)| PASS_WORDS.contains(x) && *x != "ok" && prose(i));
    if test_claim && !added_tests {
        out.push(Kind::Tests { count: count() });
    }
    let cargo_check =
        w.windows(2).any(|p| p == ["cargo", "check"]) && near(&["check"], BUILD_OK, 4);
    let builds = w
        .iter()
        .enumerate()
        .any(|(i, x)| matches!(*x, "compiles" | "builds") && prose(i));
    if (near(BUILD_WORDS, BUILD_OK, 3) || builds || cargo_check) && !has_failure {
        out.push(Kind::Build);
    }
    let clean_result = w.iter().enumerate().any(|(i, x)| {
        matches!(*x, "no" | "zero" | "0")
            && w[i + 1..w.len().min(i + 3)].iter().any(|n| {
                ["warning", "error", "issue", "problem"]
                    .iter()
                    .any(|r| n.starts_with(r))
            })
    });
    if (near(LINT_WORDS, LINT_OK, 6)
        || (clean_result && w.iter().any(|x| LINT_WORDS.contains(x) || *x == "check")))
        && !has_failure
    {
        out.push(Kind::Lint);
    }
    out
}

fn is_hash(t: &str) -> bool {
    (6..=40).contains(&t.len())
        && t.chars().all(|c| c.is_ascii_hexdigit())
        && t.chars().any(|c| c.is_ascii_alphabetic())
        && t.chars().any(|c| c.is_ascii_digit())
}

/// Commits and pushes.
fn git_claims(toks: &[Token], words: &[(String, bool)]) -> Vec<Kind> {
    let mut out = Vec::new();
    let w: Vec<&str> = words.iter().map(|(s, _)| clean(s)).collect();
    let raw: Vec<String> = toks
        .iter()
        .flat_map(|t| match t {
            Token::Word(x) => vec![x.clone()],
            Token::Code(q) => q.split_whitespace().map(str::to_owned).collect(),
            Token::Quote(_) => Vec::new(),
        })
        .collect();
    let committed = w.contains(&"committed")
        || w.windows(3).any(|p| {
            matches!(p[0], "created" | "made")
                && (p[1].starts_with("commit")
                    || matches!(p[1], "a" | "the" | "one") && p[2].starts_with("commit"))
        });
    if committed {
        let hash = raw
            .iter()
            .map(|x| clean(x))
            .find(|x| is_hash(x))
            .map(str::to_owned);
        out.push(Kind::Commit { hash });
    }
    let is_remote = |b: &str| {
        matches!(
            b,
            "origin" | "the" | "remote" | "github" | "upstream" | "gitlab"
        )
    };
    if let Some(i) = w.iter().position(|x| x.ends_with("pushed")) {
        let to = w[i + 1..]
            .iter()
            .position(|x| *x == "to")
            .map(|j| i + 1 + j);
        let after_to = to
            .and_then(|j| raw.get(j + 1))
            .map(|b| clean(b).to_owned())
            .filter(|b| !b.is_empty() && !is_remote(b));
        // "Pushed `feat/x` to origin": the object is the branch.
        let object = raw
            .get(i + 1)
            .map(|b| clean(b).to_owned())
            .filter(|b| (b.contains('/') || b.contains('-')) && !is_remote(b) && Some(i + 1) != to);
        let branch = after_to
            .or(object)
            .map(|b| b.strip_prefix("origin/").map(str::to_owned).unwrap_or(b));
        out.push(Kind::Push { branch });
    } else if let Some(p) = w.windows(2).position(|x| x == ["git", "push"]) {
        // "`git push -u origin feat/x` succeeded."
        if w.iter()
            .enumerate()
            .any(|(i, x)| matches!(*x, "succeeded" | "succeeds" | "worked" | "went") && words[i].1)
        {
            let args: Vec<&str> = w[p + 2..]
                .iter()
                .copied()
                .take_while(|x| !matches!(*x, "succeeded" | "succeeds" | "worked" | "went"))
                .filter(|x| !x.starts_with('-'))
                .collect();
            let branch = args
                .get(1)
                .map(|b| b.rsplit(':').next().unwrap_or(b).to_owned());
            out.push(Kind::Push { branch });
        }
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
