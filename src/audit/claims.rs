//! Claims in an agent's final message, extracted deterministically and explainably:
//! files (and directories) changed, tests/build/lint passing, commits and pushes.
//!
//! A sentence is a claim only when its actor is the agent in this turn: first person ("I",
//! "we"), the dropped first person of a clause that opens with its past-tense verb
//! ("Updated `a.rs`"), or the implied subject of a heading-led list or a status row.
//! Second- and third-person subjects, passives with a named agent ("by Alice"), sentences
//! anchored in the past ("in 0.3.1", "already"), opinions and reports of CI or of the
//! user are not claims. Negation and modality apply to the part of the sentence they
//! govern (a comma part, or a subordinate clause: "since nothing uses it", "so you can
//! open a PR"), not to the whole sentence. Headings scope the list under them both ways
//! ("Files changed:" / "Files looked at, not changed:"). Fenced blocks, blockquotes and
//! tables about claims are quotations; a code span can name a path or a command, never
//! carry the verb.
//!
//! Every claim carries a [`Confidence`]: an explicit claim with a concrete object is
//! [`Confidence::Strong`] and blocks a stop when unbacked; a weaker reading (a passive, a
//! verb supplied by a heading, a pronoun for the tests, a path whose shape is not a
//! file's, a count from a sentence with two counts) is [`Confidence::Weak`] and is only
//! reported. [`explain`] gives the reading of every sentence, claim or not, and why.

use super::vocab::*;
pub use super::vocab::{
    Change, Claim, CommitSince, CommitSort, Confidence, FnPart, Kind, Listed, Reading,
};

/// Conditions: opening a sentence, they make all of it no claim; later, only their part.
const CONDITIONAL: &[&str] = &[
    "if", "once", "unless", "assuming", "assume", "provided", "until",
];
/// Reported speech: the whole clause is someone else's words.
const REPORTED: &[&str] = &["says", "said", "according", "mentioned", "claimed", "reads"];
/// Words that anchor a part of a sentence in the past, before this turn.
const PAST: &[&str] = &[
    "previously",
    "ago",
    "yesterday",
    "already",
    "earlier",
    "originally",
    "formerly",
    "historically",
    "pre-existing",
    "preexisting",
];
/// Opinions and reviews: a judgement, not a report of an action.
const OPINION: &[&str] = &[
    "think", "believe", "seems", "seem", "looks", "look", "appears", "probably", "likely", "lgtm",
    "nit", "opinion", "feel", "guess", "suspect",
];
/// Words before a verb that are no subject ("Also updated …", "✅ Fixed …").
const FILLERS: &[&str] = &[
    "also",
    "then",
    "finally",
    "additionally",
    "lastly",
    "first",
    "firstly",
    "second",
    "secondly",
    "third",
    "just",
    "now",
    "successfully",
    "and",
    "plus",
    "ok",
    "okay",
    "done",
    "so",
    "all",
    "both",
    "quickly",
    "carefully",
    "manually",
    "further",
    "likewise",
    "again",
    "afterwards",
    "meanwhile",
    "here",
    "today",
    "only",
];
/// Words that open a subordinate part of a sentence.
const SUBORDINATORS: &[&str] = &[
    "since", "because", "so", "which", "whereas", "although", "though", "while", "if", "once",
    "unless", "until", "when", "whenever", "where",
];
/// Words that make a clause no claim when they open it: instructions and attributions
/// ("Run `make test` to …", "Per the README: …").
const NOT_A_STATEMENT_START: &[&str] = &[
    "run", "try", "make", "remember", "use", "ensure", "see", "note", "per", "check", "verify",
    "confirm",
];

/// Every claim in `message`.
pub fn extract(message: &str) -> Vec<Claim> {
    explain(message)
        .into_iter()
        .flat_map(|r| r.claims)
        .collect()
}

/// The notice for a message no table reads, once per message. A message in Latin script
/// that no table recognises is still read as English (a terse English status line has
/// few function words); it is unread only when that finds no claim.
pub fn unread_note(message: &str) -> Option<String> {
    match super::lang::detect(message) {
        // Terse English has few function words: unread only when English finds nothing.
        super::lang::Detected::Unknown("latin") if !extract(message).is_empty() => None,
        super::lang::Detected::Unknown(script) => Some(format!(
            "the final message is written in {} that did-it-actually has no claim table for, so only its rows of check commands and their results were checked (read: {})",
            match script {
                "latin" => "a language".to_owned(),
                other => format!("{other} script"),
            },
            super::lang::LANGS.iter().map(|l| l.name).collect::<Vec<_>>().join(", ")
        )),
        _ => None,
    }
}

/// The lines of a message in a script no table reads, each a reading with no claim yet
/// (fenced blocks and quotations skipped).
fn unread_lines(message: &str) -> Vec<Reading> {
    prose_lines(message)
        .into_iter()
        .filter(|l| !l.text.trim().is_empty())
        .map(|l| Reading {
            sentence: l.text.trim().to_owned(),
            claims: Vec::new(),
            why: vec![l.skip.clone().unwrap_or_else(|| {
                "no claim table for its language: only rows of check commands are read".into()
            })],
            skipped: l.skip.is_some(),
        })
        .collect()
}

/// The reading of every sentence of `message` (and of every line skipped as a quotation),
/// in the message's language.
pub fn explain(message: &str) -> Vec<Reading> {
    // "कुल ९ टेस्ट, ८ पास", "۳ تست": counts in a script's own digits are read as counts.
    let message = &*super::scan::ascii_digits(message);
    // In a script no table reads, only what needs no words is read: a check command
    // beside a mark or a result (`✅ \`cargo fmt --check\``, a table of commands and
    // their results). What says a path is there, or a ref, needs the language's words
    // for "not" and "later".
    let detected = super::lang::detect(message);
    super::rows::read_as(
        match detected {
            super::lang::Detected::Known(l) => Some(l.code),
            super::lang::Detected::English => Some("en"),
            super::lang::Detected::Unknown(_) => None,
        },
        message,
    );
    let unread = matches!(detected, super::lang::Detected::Unknown(script) if script != "latin");
    let mut readings = if unread {
        unread_lines(message)
    } else {
        explain_in_language(message, detected)
    };
    super::rows::drop_asides(&mut readings);
    super::rows::add_row_claims(&mut readings);
    super::rows::add_structured_rows(message, &mut readings);
    super::rows::mark_no_warnings(&mut readings);
    if unread {
        return readings;
    }
    super::rows::mark_git_refs(&mut readings);
    super::rows::mark_named_commits(&mut readings);
    super::rows::mark_git_steps(&mut readings);
    super::rows::mark_git_rows(&mut readings);
    super::rows::mark_checked_git_lines(&mut readings);
    super::rows::mark_foreign_git_forms(&mut readings);
    super::rows::mark_unmoved(&mut readings);
    super::rows::mark_clean_tree(&mut readings);
    super::rows::mark_joined(&mut readings);
    super::rows::mark_subjects_in_history(&mut readings);
    super::rows::mark_files_out_of_history(&mut readings);
    super::rows::mark_stash_states(&mut readings);
    super::rows::mark_printed(&mut readings);
    super::rows::mark_printed_by(&mut readings);
    super::rows::mark_summary_counts(&mut readings);
    super::rows::mark_gone_beside_denials(&mut readings);
    super::rows::mark_committed_files(&mut readings);
    super::rows::mark_committed_modes(&mut readings);
    super::rows::mark_uncommitted_files(&mut readings);
    super::rows::mark_still_staged(&mut readings);
    super::rows::mark_commit_trailers(&mut readings);
    super::rows::mark_extensions_gone(&mut readings);
    super::rows::mark_said_gone(&mut readings);
    super::rows::mark_still_there(&mut readings);
    super::rows::mark_located(&mut readings);
    super::rows::mark_set_values(&mut readings);
    super::rows::mark_labelled_lines(&mut readings);
    super::rows::mark_listening_servers(&mut readings);
    super::rows::mark_line_ends(&mut readings);
    super::rows::mark_function_parts(&mut readings);
    super::rows::mark_tests_in_file(&mut readings);
    super::rows::mark_failed_before_fix(&mut readings);
    super::rows::mark_package_scripts(&mut readings);
    super::rows::mark_folder_counts(&mut readings);
    super::rows::mark_coverage(&mut readings);
    super::rows::mark_text_gone(&mut readings);
    super::rows::mark_text_removed(&mut readings);
    super::rows::mark_archive_members(&mut readings);
    super::rows::mark_now_inside(&mut readings);
    super::rows::mark_branches_deleted(&mut readings);
    super::rows::mark_copies(&mut readings);
    super::rows::mark_remote_pushes(&mut readings);
    super::rows::mark_apart_counts(&mut readings);
    super::rows::mark_listed_paths(&mut readings);
    super::rows::mark_labelled_changes(&mut readings);
    super::rows::mark_value_changes(&mut readings);
    super::rows::mark_now_states(&mut readings);
    super::rows::mark_versions_now(&mut readings);
    super::rows::mark_held_values(&mut readings);
    super::rows::mark_spans_held(&mut readings);
    super::rows::mark_under_heading(&mut readings);
    super::rows::mark_documented(&mut readings);
    super::rows::mark_names_used(&mut readings);
    super::rows::mark_commit_counts(&mut readings);
    super::rows::mark_commit_file_counts(&mut readings);
    super::rows::mark_parts_in_commit(&mut readings);
    super::rows::mark_settings_of_a_file_before(&mut readings);
    super::rows::mark_branch_tips(&mut readings);
    super::rows::mark_defined_names(&mut readings);
    super::rows::mark_contained_keys(&mut readings);
    super::rows::mark_same_file_changes(&mut readings);
    super::rows::mark_mentioned_paths(&mut readings);
    super::rows::mark_said_absent(&mut readings);
    super::rows::mark_branches_said_gone(&mut readings);
    super::rows::mark_said_unchanged(&mut readings);
    super::rows::mark_whole_counts(&mut readings);
    super::rows::mark_whole_suites(&mut readings);
    super::rows::mark_others_unmoved(&mut readings);
    super::rows::mark_always_passing(&mut readings);
    super::rows::drop_described_paths(&mut readings);
    super::rows::drop_dotted_keys(&mut readings);
    super::rows::drop_changes_held_by_a_stash(&mut readings);
    super::rows::drop_index_removals(&mut readings);
    super::rows::drop_quoted_output(&mut readings);
    mark_undo_told(&mut readings);
    readings
}

/// Marks the file claims whose path another sentence puts back with a command it writes
/// out (`git checkout -- config/app.yaml`, `git restore config/app.yaml`).
fn mark_undo_told(readings: &mut [Reading]) {
    let restored: Vec<String> = readings
        .iter()
        .flat_map(|r| super::vocab::spans_of(&r.sentence))
        .filter_map(|span| {
            let words: Vec<&str> = span.split_whitespace().collect();
            match words.as_slice() {
                ["git", "restore", rest @ ..] | ["git", "checkout", rest @ ..]
                    if words[1] == "restore" || rest.contains(&"--") =>
                {
                    Some(
                        rest.iter()
                            .filter(|a| !a.starts_with('-') && **a != "HEAD")
                            .map(|a| a.trim_start_matches("./").to_owned())
                            .collect::<Vec<_>>(),
                    )
                }
                _ => None,
            }
        })
        .flatten()
        .collect();
    if restored.is_empty() {
        return;
    }
    for c in readings.iter_mut().flat_map(|r| r.claims.iter_mut()) {
        if let Kind::File { path, .. } = &c.kind {
            if restored.iter().any(|p| p == path.trim_start_matches("./")) {
                c.undo_told = true;
            }
        }
    }
}

fn explain_in_language(message: &str, detected: super::lang::Detected) -> Vec<Reading> {
    use super::lang::Detected;
    let (mut readings, read_as) = match detected {
        Detected::Known(lang) => (super::lang::read(message, lang), Some(lang.code)),
        Detected::Unknown("latin") | Detected::English => (explain_english(message), None),
        Detected::Unknown(_) => return Vec::new(),
    };
    // Agents mix languages: English run lines in a Russian report ("Ran `mocha` — 2
    // passing"), a Dutch line under aider's English ones ("Gepusht naar origin/main."). A
    // sentence the message's reader reads nothing in, and that is another language by
    // itself, is read by that language's reader.
    for r in &mut readings {
        let unread =
            !r.skipped && r.claims.is_empty() && r.why.iter().all(|w| w.starts_with("no claim"));
        if !unread || r.sentence.split_whitespace().count() < 2 {
            continue;
        }
        let own = match super::lang::detect(&r.sentence) {
            Detected::English if read_as.is_some() => explain_english(&r.sentence),
            Detected::Known(lang) if read_as != Some(lang.code) => {
                super::lang::read(&r.sentence, lang)
            }
            _ => continue,
        };
        let claims: Vec<Claim> = own.into_iter().flat_map(|e| e.claims).collect();
        if !claims.is_empty() {
            r.claims = claims;
            r.why.clear();
        }
    }
    readings
}

/// The English reader.
fn explain_english(message: &str) -> Vec<Reading> {
    // "Everything passes" after a fenced `cargo test` is about the tests.
    let lower = message.to_lowercase();
    let mentions_tests = ["test", "spec", "pytest", "jest", "vitest"]
        .iter()
        .any(|w| lower.contains(w));
    // "I handed it to a subagent. It added …": a pronoun then stands for the subagent,
    // and what it did is relayed as the parent's own claim.
    let relays = lower
        .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'')
        .any(is_subagent);
    let mut out = Vec::new();
    for line in prose_lines(message) {
        if let Some(why) = line.skip {
            if !line.text.trim().is_empty() {
                out.push(Reading {
                    sentence: line.text.trim().to_owned(),
                    claims: Vec::new(),
                    why: vec![why],
                    skipped: true,
                });
            }
            continue;
        }
        for sentence in sentences(&line.text) {
            let mut reading = Reading {
                sentence: sentence.clone(),
                claims: Vec::new(),
                why: Vec::new(),
                skipped: false,
            };
            for clause in clauses(&sentence) {
                let claims = clause_claims(
                    &clause,
                    &sentence,
                    Context {
                        line: line.ctx,
                        mentions_tests,
                        relays,
                    },
                    &mut reading.why,
                );
                reading.claims.extend(claims);
            }
            if reading.claims.is_empty() && reading.why.is_empty() {
                reading
                    .why
                    .push("no claim: no change, result or git verb in the agent's voice".into());
            }
            out.push(reading);
        }
    }
    out
}

/// Where a line's sentences stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineCtx {
    Prose,
    /// A list item whose verb comes from the heading above it.
    HeadingVerb,
    /// A checklist item (`✅ cargo test`): the mark says it passed.
    Checkmark,
}

struct Line {
    text: String,
    ctx: LineCtx,
    /// Why the line is not read at all.
    skip: Option<String>,
}

/// What a heading says about the list (or the section) under it.
#[derive(Clone, Debug, PartialEq)]
enum Scope {
    Neutral,
    /// Items without a verb of their own take this one ("Files changed:").
    Verb(String),
    /// Items are not the agent's claims ("Files looked at, not changed:", "Next steps").
    NotClaims(String),
}

fn heading_scope(text: &str) -> Scope {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-'))
        .filter(|w| !w.is_empty())
        .collect();
    if let Some(w) = words
        .iter()
        .find(|w| HEADING_NOT.contains(w) || w.ends_with("n't"))
        .filter(|_| !super::vocab::led_by_a_file(text))
    {
        return Scope::NotClaims(format!("under the heading \"{}\" (\"{w}\")", text.trim()));
    }
    if lower.contains("to do") || lower.contains("to-do") || lower.contains("out of scope") {
        return Scope::NotClaims(format!("under the heading \"{}\"", text.trim()));
    }
    match words.iter().find(|w| verb_class(w).is_some()) {
        Some(v) => Scope::Verb((*v).to_owned()),
        None => Scope::Neutral,
    }
}

/// Whether a list item is a path and nothing else, or a path and a dash's description
/// (`docs/api.md`, "`docs/api.md` — the endpoints").
fn is_bare_path(item: &str) -> bool {
    let t = item.trim();
    let t = ["—", "–", " - ", ": "]
        .iter()
        .filter_map(|d| t.split_once(d).map(|(head, _)| head))
        .min_by_key(|head| head.len())
        .unwrap_or(t);
    let t = t.trim().trim_end_matches(['.', ',', ';']).trim_matches('`');
    !t.is_empty() && !t.contains(char::is_whitespace) && (t.contains('/') || t.contains('.'))
}

const CHECKMARKS: &[&str] = &["✅", "✓", "✔", "✔️", "☑", "☑️", "[x]", "[X]", "🟢"];

/// The message's lines, each with where it stands: fenced blocks (a closing fence is at
/// least as long as its opening one), blockquotes and tables about claims are skipped as
/// quotations; headings scope the list (a `Heading:` line) or the section (a markdown
/// heading) under them.
fn prose_lines(message: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut claim_table = false;
    let mut in_table = false;
    let mut list_scope: Option<Scope> = None;
    let mut section_scope = Scope::Neutral;
    let skip = |text: &str, why: &str| Line {
        text: text.to_owned(),
        ctx: LineCtx::Prose,
        skip: Some(why.to_owned()),
    };
    for line in message.lines() {
        let t = line.trim_start();
        let run = |c: char| t.chars().take_while(|&x| x == c).count();
        if let Some((c, n)) = fence {
            if run(c) >= n && t.trim_start_matches(c).trim().is_empty() {
                fence = None;
            }
            out.push(skip(line, "inside a fenced block: a quotation"));
            continue;
        }
        if let Some(c) = ['`', '~'].into_iter().find(|&c| run(c) >= 3) {
            fence = Some((c, run(c)));
            out.push(skip(line, "a fenced block: a quotation"));
            continue;
        }
        if t.starts_with('>') {
            out.push(skip(line, "a blockquote: a quotation"));
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
                out.push(skip(line, "a table of claims: a quotation"));
                continue;
            }
        } else {
            in_table = false;
            claim_table = false;
        }
        let cleaned = clean_markdown(t);
        let is_item = t.starts_with("- ")
            || t.starts_with("* ")
            || t.starts_with("+ ")
            || t.split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if t.is_empty() {
            out.push(skip(line, ""));
            continue;
        }
        let md_heading = t.starts_with('#');
        let bold_heading = !is_item
            && t.starts_with("**")
            && t.trim_end().ends_with("**")
            && !t[2..].contains("**")
            && cleaned.split_whitespace().count() <= 6;
        let colon_heading = !is_item
            && cleaned.ends_with(':')
            && cleaned.split_whitespace().count() <= 8
            && !cleaned.contains('`');
        if md_heading {
            section_scope = heading_scope(&cleaned);
            list_scope = None;
        } else if colon_heading || bold_heading {
            list_scope = Some(heading_scope(&cleaned));
        } else if !is_item {
            list_scope = None;
        }
        if colon_heading || bold_heading {
            out.push(skip(line, "a heading: it scopes the list under it"));
            continue;
        }
        let scope = list_scope
            .clone()
            .filter(|_| is_item)
            .unwrap_or_else(|| section_scope.clone());
        if let Scope::NotClaims(why) = &scope {
            if !md_heading {
                out.push(skip(line, why));
                continue;
            }
        }
        // A mark opens the line ("✅ `cargo test`"), or follows each check of a short
        // status line ("jest ✔ · node:test ✔ · mocha ✔").
        let check = CHECKMARKS.iter().any(|m| {
            cleaned.starts_with(m)
                || t.trim_start_matches(['-', '*', ' ']).starts_with(m)
                || cleaned.chars().count() <= 80 && cleaned.contains(&format!(" {m}"))
        });
        let has_verb = cleaned
            .split_whitespace()
            .any(|w| verb_class(&w.to_lowercase()).is_some());
        match &scope {
            Scope::Verb(verb) if is_item && !has_verb => out.push(Line {
                text: format!("{verb} {cleaned}"),
                // "Delivered:" over "- `docs/api.md`": an item that is nothing but a path
                // under a heading that says it was made is that claim, plainly.
                ctx: if CREATE_VERBS.contains(&verb.as_str()) && is_bare_path(&cleaned) {
                    LineCtx::Prose
                } else {
                    LineCtx::HeadingVerb
                },
                skip: None,
            }),
            _ => out.push(Line {
                text: line.to_owned(),
                ctx: if check {
                    LineCtx::Checkmark
                } else {
                    LineCtx::Prose
                },
                skip: None,
            }),
        }
    }
    out
}

/// Sentences of a line (a list item, a table row, a heading), split at `.`/`!`/`?`
/// followed by a space (not after `e.g.` or `i.e.`), never inside a code span.
fn sentences(raw_line: &str) -> Vec<String> {
    split_sentences(&clean_markdown(raw_line))
}

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

/// Whether `chars` starts with `pattern` (lowercase), ignoring case.
fn starts_with_folded(chars: &[char], pattern: &str) -> bool {
    let mut chars = chars.iter();
    pattern.chars().all(|p| {
        chars
            .next()
            .is_some_and(|c| c.to_lowercase().eq(std::iter::once(p)))
    })
}

/// Clauses: parts joined by `;`, ` — `, ` but ` or `, which`, each judged on its own; never split
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
        // Compared char by char: a lowercased copy of the next five chars at every char
        // was a third of a stop's instructions.
        let rest = &chars[i..];
        let split = if in_code || in_quote {
            0
        } else if c == ';' {
            1
        } else if (starts_with_folded(rest, " — ") || starts_with_folded(rest, " -- "))
            && sentence.trim_end().ends_with('?')
        {
            3
        } else if starts_with_folded(rest, " but ") {
            5
        } else if starts_with_folded(rest, ", which ")
            && !["i ", "we ", "i've ", "we've ", "i'd "]
                .iter()
                .any(|p| starts_with_folded(&rest[8..], p))
        {
            // "Added `build.js`, which copies `a.js` into `dist/`": what the file does is
            // no change this turn made; the relative clause is judged on its own. Not
            // "`a.rs`, which I updated": the agent's verb reaches back to the path.
            2
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

fn lower_words(tokens: &[Token]) -> Vec<String> {
    tokens
        .iter()
        .map(|t| match t {
            // One pass, one allocation (a lowercase copy, then a replaced copy of it,
            // was two per word of every clause).
            Token::Word(w) => w
                .chars()
                .flat_map(char::to_lowercase)
                .map(|c| if c == '’' { '\'' } else { c })
                .collect(),
            Token::Code(_) | Token::Quote(_) => "\u{1}".into(),
        })
        .collect()
}

fn bare(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
}

/// Whether a clause states something as done: no condition, future, question, reported
/// speech.
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
    // "Ran rustfmt: no changes": the formatter's result, not a negated claim.
    let formatter_result = |n: &String| {
        matches!(bare(n), "change" | "changes" | "diff" | "diffs")
            && words.iter().any(|x| FORMATTERS.contains(&bare(x)))
    };
    let result_phrase = matches!(w, "no" | "without" | "zero")
        && words[i + 1..words.len().min(i + 3)]
            .iter()
            .any(|n| result(n) || formatter_result(n));
    !result_phrase && (NEGATIONS.contains(&w) || w.ends_with("n't"))
}

/// Whether a word is a past-tense action this reader knows: a change verb, or a git one.
fn is_claim_verb(w: &str) -> bool {
    let w = bare(w);
    verb_class(w).is_some()
        || matches!(
            w,
            "committed" | "pushed" | "force-pushed" | "re-pushed" | "amended"
        )
}

/// A word that marks a test count, a version or an issue number as a number of another
/// kind (`#12`).
fn is_issue_ref(w: &str) -> bool {
    w.strip_prefix('#')
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}

fn is_version(w: &str) -> bool {
    let v = w.trim_start_matches(['v', 'V']);
    v.contains('.')
        && v.split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// A part of a clause: a comma part, an `and no …` tail, or a subordinate clause.
struct Segment {
    toks: Vec<Token>,
    /// Opened by a subordinator (`since`, `so`, `because`, `which`, `if`, …).
    sub: bool,
}

fn segments(toks: Vec<Token>) -> Vec<Segment> {
    let mut out = vec![Segment {
        toks: Vec::new(),
        sub: false,
    }];
    let n = toks.len();
    let words = lower_words(&toks);
    let mut depth = 0usize;
    for (i, t) in toks.into_iter().enumerate() {
        let w = bare(&words[i]);
        match words[i].as_str() {
            "(" => depth += 1,
            ")" => depth = depth.saturating_sub(1),
            _ => {}
        }
        let boundary_after =
            depth == 0 && matches!(&t, Token::Word(x) if x == "," || x == "—" || x == "–");
        let current_empty = out.last().is_some_and(|s| s.toks.is_empty());
        let sub_start = !current_empty
            && SUBORDINATORS.contains(&w)
            // "so far", "and so on", "as well"
            && !(w == "so" && words.get(i + 1).is_some_and(|x| matches!(bare(x), "far" | "on")))
            || (w == "now" && words.get(i + 1).is_some_and(|x| bare(x) == "that"));
        let neg_tail =
            !current_empty && matches!(w, "and" | "or") && i + 1 < n && is_negation(&words, i + 1);
        // "… and only touched `b.rs`": a coordinated verb opens a part of its own.
        let coordinated = !current_empty
            && depth == 0
            && matches!(w, "and" | "then")
            && words[i + 1..]
                .iter()
                .map(|x| bare(x))
                .find(|x| !FILLERS.contains(x) && !matches!(*x, "only" | "also"))
                .is_some_and(is_claim_verb);
        if current_empty && SUBORDINATORS.contains(&w) && out.len() > 1 {
            out.last_mut().expect("never empty").sub = true;
        }
        if sub_start {
            out.push(Segment {
                toks: Vec::new(),
                sub: true,
            });
        } else if neg_tail || coordinated {
            out.push(Segment {
                toks: Vec::new(),
                sub: false,
            });
        }
        out.last_mut().expect("never empty").toks.push(t);
        if boundary_after {
            out.push(Segment {
                toks: Vec::new(),
                sub: false,
            });
        }
    }
    out.into_iter().filter(|s| !s.toks.is_empty()).collect()
}

/// Why a part of a sentence is not the agent's claim about this turn, if it is not.
/// Which words stand inside brackets: "(", "[", or their full-width forms.
fn in_brackets(words: &[String]) -> Vec<bool> {
    let mut depth = 0usize;
    words
        .iter()
        .map(|w| {
            let opens = w.chars().filter(|c| matches!(c, '(' | '（' | '[')).count();
            let closes = w.chars().filter(|c| matches!(c, ')' | '）' | ']')).count();
            let inside = depth > 0 || opens > 0;
            depth = (depth + opens).saturating_sub(closes);
            // A word that only opens and closes its own brackets ("(2)") is no aside.
            inside && !(opens > 0 && opens == closes && depth == 0 && w.len() < 4)
        })
        .collect()
}

fn segment_not_claim(words: &[String], sub: bool) -> Option<String> {
    let b: Vec<&str> = words.iter().map(|w| bare(w)).collect();
    // "bumped the version in `package.json` (no git tag, as you asked)": an aside in
    // brackets does not take back the clause around it.
    let aside = in_brackets(words);
    if let Some(i) = (0..words.len()).find(|&i| !aside[i] && is_negation(words, i)) {
        return Some(format!("negated (\"{}\")", b[i]));
    }
    if let Some(w) = b
        .iter()
        .zip(&aside)
        .filter(|(_, a)| !**a)
        .map(|(w, _)| w)
        .find(|w| MODAL.contains(w))
    {
        return Some(format!("the future, a need or a suggestion (\"{w}\")"));
    }
    if sub {
        if let Some(w) = b
            .iter()
            .take(2)
            .find(|w| CONDITIONAL.contains(w) || matches!(**w, "when" | "whenever"))
        {
            return Some(format!("a condition (\"{w}\")"));
        }
    }
    if let Some(w) = b.iter().find(|w| PAST.contains(w) || **w == "previous") {
        return Some(format!("anchored in the past (\"{w}\")"));
    }
    for (i, w) in b.iter().enumerate() {
        let next = b.get(i + 1).copied().unwrap_or("");
        let raw_next = words.get(i + 1).map(String::as_str).unwrap_or("");
        let anchored = match *w {
            "in" | "since" | "until" | "of"
                if is_version(raw_next.trim_end_matches([',', '.'])) =>
            {
                (*w != "of" || i > 0 && b[i - 1] == "as").then(|| format!("{w} {next}"))
            }
            "in" | "by" if is_hash(next) => Some(format!("{w} {next}")),
            "in" if is_issue_ref(raw_next) => Some(format!("in {raw_next}")),
            // "in this PR", "in the refactor PR", "in upstream", "from the PR".
            "in" | "from" | "by"
                if b[i + 1..b.len().min(i + 4)]
                    .iter()
                    .any(|x| matches!(*x, "pr" | "pr's" | "mr" | "upstream" | "pull")) =>
            {
                Some(format!("{w} {next} …"))
            }
            "last" | "this" | "that"
                if *w == "last"
                    && matches!(
                        next,
                        "week"
                            | "month"
                            | "year"
                            | "release"
                            | "version"
                            | "commit"
                            | "session"
                            | "time"
                            | "turn"
                            | "sprint"
                    ) =>
            {
                Some(format!("last {next}"))
            }
            "used" if next == "to" => Some("used to".into()),
            "back" if next == "in" || next == "when" => Some(format!("back {next}")),
            _ => None,
        };
        if let Some(a) = anchored {
            return Some(format!("anchored in the past (\"{a}\")"));
        }
    }
    if let Some(w) = b.iter().find(|w| OPINION.contains(w) || **w == "review") {
        return Some(format!("an opinion or a review (\"{w}\")"));
    }
    None
}

/// Whose action a part of a sentence reports.
#[derive(Clone, Debug, PartialEq)]
enum Actor {
    /// "I updated", "We added".
    FirstPerson,
    /// "Updated `a.rs`": the first person with its pronoun dropped.
    Dropped,
    /// "`a.rs` | Updated", "`a.rs`: updated": a status row about a path.
    PathStatus,
    /// "`a.rs` was updated": whoever did it goes unnamed.
    Passive,
    /// Someone or something else, or a property rather than an action.
    Other(String),
    /// No verb of its own: the actor of the part before it.
    Inherit,
}

fn actor(toks: &[Token], words: &[String], relays: bool) -> Actor {
    let Some(v) = words.iter().position(|w| is_claim_verb(w)) else {
        return Actor::Inherit;
    };
    // A label ("Tests:", "Files:") is no subject.
    let start = words[..v]
        .iter()
        .position(|w| w == ":")
        .filter(|&c| c < 5)
        .map_or(0, |c| c + 1);
    let mut subject: Vec<usize> = (start..v)
        .filter(|&i| {
            let b = bare(&words[i]);
            !b.is_empty()
                && !FILLERS.contains(&b)
                && b != ":"
                && !b.chars().all(|c| !c.is_alphanumeric())
        })
        .collect();
    let named_after = || {
        let b: Vec<&str> = words.iter().map(|w| bare(w)).collect();
        b.get(v + 1).filter(|w| **w == "by").and_then(|_| {
            let mut k = v + 2;
            while b
                .get(k)
                .is_some_and(|w| matches!(*w, "the" | "a" | "an" | "our"))
            {
                k += 1;
            }
            let who = b.get(k).copied().unwrap_or("");
            let means = who.ends_with("ing")
                || matches!(
                    who,
                    "hand" | "default" | "design" | "mistake" | "accident" | "itself" | "me" | "us"
                );
            (!who.is_empty() && !means).then(|| format!("done by \"{who}\""))
        })
    };
    if subject.iter().any(|&i| {
        matches!(
            bare(&words[i]),
            "i" | "we" | "i've" | "we've" | "i'd" | "we'd" | "i'm" | "we're"
        )
    }) {
        return Actor::FirstPerson;
    }
    // "has been updated" reads as "been updated"; "has created" as "created".
    while subject
        .last()
        .is_some_and(|&i| matches!(bare(&words[i]), "has" | "have" | "had"))
    {
        subject.pop();
    }
    if let Some(&last) = subject.last() {
        match bare(&words[last]) {
            "was" | "were" | "been" | "being" | "got" | "gotten" => {
                return match named_after() {
                    Some(who) => Actor::Other(who),
                    None => Actor::Passive,
                }
            }
            "is" | "are" | "get" | "gets" => {
                return if matches!(bare(&words[v]), "committed" | "pushed") {
                    Actor::Passive
                } else {
                    Actor::Other(format!(
                        "a property (\"{} {}\"), not an action",
                        bare(&words[last]),
                        bare(&words[v])
                    ))
                };
            }
            _ => {}
        }
    }
    if subject.is_empty() {
        return match named_after() {
            Some(who) => Actor::Other(who),
            None => Actor::Dropped,
        };
    }
    let pathish = subject.iter().all(|&i| match &toks[i] {
        Token::Code(_) => true,
        Token::Quote(_) => false,
        Token::Word(w) => as_path(&toks[i]).is_some() || w.chars().all(|c| !c.is_alphanumeric()),
    });
    if pathish {
        return Actor::PathStatus;
    }
    let said: Vec<&str> = subject.iter().map(|&i| bare(&words[i])).collect();
    // "The subagent added `x`", "a sub-agent ran the suite": the parent relays work of its
    // own turn, and what it relays is its claim, backed only by what a transcript of the
    // turn shows (the subagent's is read with it).
    if said.iter().any(|w| is_subagent(w))
        || (relays && matches!(said.as_slice(), ["it" | "they" | "he" | "she"]))
    {
        return Actor::FirstPerson;
    }
    Actor::Other(format!(
        "the subject is \"{}\", not the agent",
        said.join(" ")
    ))
}

/// A word naming a subagent of the turn ("subagent", "sub-agent", "subagents").
fn is_subagent(w: &str) -> bool {
    matches!(
        w,
        "subagent" | "subagents" | "sub-agent" | "sub-agents" | "subagent's" | "sub-agent's"
    )
}

/// What the message around a clause says about how to read it.
#[derive(Clone, Copy)]
struct Context {
    /// Where the clause's line stands.
    line: LineCtx,
    /// The message speaks of tests ("Everything passes" is then about them).
    mentions_tests: bool,
    /// The message names a subagent: a lone pronoun subject ("It added …") is the
    /// subagent whose work the parent relays.
    relays: bool,
}

fn clause_claims(clause: &str, sentence: &str, at: Context, why: &mut Vec<String>) -> Vec<Claim> {
    let (ctx, mentions_tests) = (at.line, at.mentions_tests);
    let all = tokens(clause);
    let words = lower_words(&all);
    let b: Vec<&str> = words.iter().map(|w| bare(w)).collect();
    if clause.trim_end().ends_with('?') {
        why.push("a question".into());
        return Vec::new();
    }
    let label_end = words
        .iter()
        .take(4)
        .position(|w| w == ":")
        .map_or(0, |c| c + 1);
    let opener = b[label_end..]
        .iter()
        .find(|w| !w.is_empty() && !FILLERS.contains(w))
        .copied()
        .unwrap_or("");
    if NOT_A_STATEMENT_START.contains(&b.first().copied().unwrap_or("")) {
        why.push(format!("an instruction (\"{}\")", b[0]));
        return Vec::new();
    }
    if let Some(w) = b.iter().find(|w| REPORTED.contains(w)) {
        why.push(format!("reported speech (\"{w}\")"));
        return Vec::new();
    }
    let when_conditional = matches!(opener, "when" | "whenever")
        && !b
            .iter()
            .skip_while(|w| **w != opener)
            .nth(1)
            .is_some_and(|w| matches!(*w, "i" | "we"));
    if CONDITIONAL.contains(&opener) || when_conditional {
        why.push(format!("a condition (\"{opener}\")"));
        return Vec::new();
    }
    let lower = clause.to_lowercase();
    if lower.contains("to the chat") || lower.contains("to the context") {
        why.push("added to the conversation, not changed".into());
        return Vec::new();
    }
    // Each part judged on its own: the main parts together (a verb reaches the paths of
    // the comma parts after it), each subordinate part alone.
    let mut main: Vec<Token> = Vec::new();
    let mut main_conf: Vec<Option<String>> = Vec::new();
    let mut groups: Vec<(Vec<Token>, Option<String>)> = Vec::new();
    let mut main_modal = false;
    let mut last_actor = Actor::Dropped;
    // A main part that reports someone else's work (or the past) carries over to the
    // comma parts after it that name no actor of their own ("CI is green: the run
    // passed, 212 tests passed").
    let mut others_before = false;
    for seg in segments(all) {
        let w = lower_words(&seg.toks);
        let text = tokens_text(&seg.toks);
        if !seg.sub && main_modal {
            why.push(format!("\"{text}\": continues the future or a suggestion"));
            continue;
        }
        if let Some(reason) = segment_not_claim(&w, seg.sub) {
            if !seg.sub && reason.starts_with("the future") {
                main_modal = true;
            }
            if !seg.sub && reason.starts_with("anchored") {
                others_before = true;
            }
            why.push(format!("\"{text}\": {reason}"));
            continue;
        }
        if others_before && !seg.sub && actor(&seg.toks, &w, at.relays) != Actor::FirstPerson {
            why.push(format!(
                "\"{text}\": continues a report of someone else's work"
            ));
            continue;
        }
        let has_result = w.iter().any(|x| {
            let c = clean(x);
            PASS_WORDS.contains(&c) || BUILD_OK.contains(&c) || LINT_OK.contains(&c)
        });
        let has_verb = w.iter().any(|x| is_claim_verb(x));
        if (has_result || !has_verb) && !seg.sub {
            // Results elsewhere: "pass on main", "green on master".
            let elsewhere = w.windows(2).find(|p| {
                bare(&p[0]) == "on"
                    && matches!(
                        bare(&p[1]),
                        "main" | "master" | "trunk" | "develop" | "origin" | "upstream"
                    )
            });
            if let Some(o) = w
                .iter()
                .find(|x| OTHERS.contains(&bare(x)) || is_issue_ref(x))
                .or(elsewhere.map(|p| &p[1]))
                .filter(|_| has_result || has_verb)
            {
                why.push(format!(
                    "\"{text}\": a report of someone else's work (\"{}\")",
                    bare(o)
                ));
                others_before = !seg.sub;
                continue;
            }
        }
        let mut a = actor(&seg.toks, &w, at.relays);
        if a == Actor::Inherit || (a == Actor::Dropped && !seg.sub && !main.is_empty()) {
            a = last_actor.clone();
        }
        let hedge = match &a {
            Actor::Other(who) => {
                why.push(format!("\"{text}\": not the agent's action: {who}"));
                others_before = !seg.sub;
                continue;
            }
            Actor::Passive => Some("a passive: the actor is not named".to_owned()),
            Actor::FirstPerson => None,
            _ if seg.sub => Some("said in a subordinate clause".to_owned()),
            _ => None,
        };
        // A relative clause ("…, which I updated") speaks of the part before it.
        let relative = w.first().is_some_and(|x| bare(x) == "which");
        if seg.sub && !relative {
            groups.push((seg.toks, hedge));
        } else {
            others_before = false;
            last_actor = a;
            main_conf.extend(std::iter::repeat_n(hedge, seg.toks.len()));
            main.extend(seg.toks);
        }
    }
    groups.insert(0, (main, None));
    let mut out = Vec::new();
    for (g, (toks, group_hedge)) in groups.into_iter().enumerate() {
        if toks.is_empty() {
            continue;
        }
        let hedge_at = |i: usize| {
            if g == 0 {
                main_conf.get(i).cloned().flatten()
            } else {
                group_hedge.clone()
            }
        };
        let first_hedge = if g == 0 {
            main_conf.iter().find_map(|h| h.clone())
        } else {
            group_hedge.clone()
        };
        let words = lower_words(&toks);
        for (at, kind, inferred) in file_claims(&toks, &words) {
            let mut c = Claim::new(kind, sentence);
            if let Some(h) = hedge_at(at) {
                c.weaken(&h);
            }
            if inferred {
                c.path_inferred = true;
                c.weaken("the name does not have a file's shape");
            }
            out.push(c);
        }
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
        let results = result_claims(&flat, mentions_tests);
        let none_yet = results.is_empty();
        for (kind, weak, count_sure) in results {
            let mut c = Claim::new(kind, sentence);
            // The tools this clause names (not the sentence's: "formatted with `cargo
            // fmt`; `cargo clippy` is clean" is two claims, one tool each).
            c.tools = super::named::named_in_clause(clause, sentence, &c.kind);
            c.bind_spans(code_spans(&toks));
            c.count_sure = count_sure;
            if let Some(h) = &first_hedge {
                c.weaken(h);
            }
            if let Some(w) = weak {
                c.weaken(w);
            }
            out.push(c);
        }
        // "✅ `cargo test`": the mark says the command passed.
        if none_yet && ctx == LineCtx::Checkmark {
            let named = [Kind::Tests { count: None }, Kind::Lint, Kind::Build]
                .into_iter()
                .find(|k| !super::named::named_in(clause, k).is_empty());
            if let Some(kind) = checked_command(&toks).or(named) {
                let mut c = Claim::new(kind, sentence);
                c.tools = super::named::named_in(clause, &c.kind);
                c.bind_spans(code_spans(&toks));
                if let Some(h) = &first_hedge {
                    c.weaken(h);
                }
                out.push(c);
            }
        }
        for kind in git_claims(&toks, &flat) {
            let mut c = Claim::new(kind, sentence);
            if let Some(h) = &first_hedge {
                c.weaken(h);
            }
            out.push(c);
        }
    }
    if ctx == LineCtx::HeadingVerb {
        for c in &mut out {
            c.weaken("the verb comes from the heading above the list");
        }
    }
    out
}

/// The code spans of a clause's tokens.
fn code_spans(toks: &[Token]) -> impl Iterator<Item = &str> {
    toks.iter().filter_map(|t| match t {
        Token::Code(c) => Some(c.as_str()),
        _ => None,
    })
}

fn tokens_text(toks: &[Token]) -> String {
    toks.iter()
        .map(|t| match t {
            Token::Word(w) => w.clone(),
            Token::Code(c) => format!("`{c}`"),
            Token::Quote(q) => format!("\"{q}\""),
        })
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" ,", ",")
        .replace(" :", ":")
}

/// Which kind of change a verb says was made to a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VerbClass {
    Modify,
    Create,
    Delete,
    Rename,
}

fn verb_class(word: &str) -> Option<VerbClass> {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
    if MODIFY_VERBS.contains(&w) {
        Some(VerbClass::Modify)
    } else if CREATE_VERBS.contains(&w) {
        Some(VerbClass::Create)
    } else if DELETE_VERBS.contains(&w) {
        Some(VerbClass::Delete)
    } else if RENAME_VERBS.contains(&w) {
        Some(VerbClass::Rename)
    } else {
        None
    }
}

/// File and directory claims: the token index of the path, the claim, and whether the
/// path's shape was inferred.
fn file_claims(toks: &[Token], words: &[String]) -> Vec<(usize, Kind, bool)> {
    let mut out = Vec::new();
    let verbs: Vec<(usize, VerbClass)> = words
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
    // "Set `log: debug` in your `config/app.yaml` to see the requests" is an instruction:
    // "set" is also the imperative, which says whose file, why or when.
    let bares: Vec<&str> = words.iter().map(|w| bare(w)).collect();
    if verbs.iter().all(|(i, _)| bare(&words[*i]) == "set")
        && (bares
            .iter()
            .any(|w| matches!(*w, "your" | "you" | "if" | "when" | "want" | "need"))
            || bares.windows(2).any(|p| {
                p[0] == "to"
                    && matches!(
                        p[1],
                        "see"
                            | "get"
                            | "enable"
                            | "disable"
                            | "make"
                            | "turn"
                            | "use"
                            | "allow"
                            | "avoid"
                            | "show"
                            | "print"
                            | "trace"
                            | "debug"
                            | "reproduce"
                    )
            }))
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
            "to" | "in" | "into" | "inside" | "within" | "of" | "from" | "under"
        );
        let path_object_before = paths.iter().any(|(j, _)| *j > vi && *j < i);
        let change = match class {
            VerbClass::Rename => {
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
                        let inferred = shape_inferred(&from);
                        out.push((
                            j,
                            Kind::File {
                                path: from,
                                change: Change::Renamed { to: path.clone() },
                            },
                            inferred,
                        ));
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
            VerbClass::Delete if container && vi < i && !path_object_before && i > vi + 1 => {
                Change::Modified
            }
            VerbClass::Delete => Change::Deleted,
            // "added a test to `lib.rs`" / "`package.json` | Added the script": the file is
            // where something was added; "Added `target/` to `.gitignore`": the text
            // added is no file of its own.
            VerbClass::Create if vi < i && container && i > vi + 1 => Change::Modified,
            VerbClass::Create
                if vi < i
                    && paths.iter().any(|(j, _)| {
                        *j > i && matches!(prep(*j).as_str(), "to" | "into" | "in")
                    }) =>
            {
                continue
            }
            VerbClass::Create if object_after_verb => Change::Modified,
            VerbClass::Create => Change::Created,
            VerbClass::Modify => Change::Modified,
        };
        let dir_word = words
            .get(i + 1)
            .is_some_and(|w| matches!(bare(w), "directory" | "folder" | "dir" | "tree"));
        let kind = if path.ends_with('/') || dir_word {
            Kind::Dir {
                path: path.trim_end_matches('/').to_owned() + "/",
                change,
            }
        } else {
            Kind::File {
                path: path.clone(),
                change,
            }
        };
        out.push((i, kind, shape_inferred(path) && !dir_word));
    }
    out
}

/// Subjects that stand for the tests when the message is about tests ("all pass").
const TEST_PRONOUNS: &[&str] = &["everything", "all", "they", "both", "each"];

fn clean(w: &str) -> &str {
    let c = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '/' && c != '-');
    // `node --test`, `deno test`: the flag names the tests too.
    if c == "--test" {
        "test"
    } else {
        c
    }
}

/// Tests, build and lint results. `words` carry whether they are prose (a word in a code
/// span can name a runner, not report that it passed).
/// Each with why it is a weak reading, if it is, and whether its count is sure.
fn result_claims(
    words: &[(String, bool)],
    mentions_tests: bool,
) -> Vec<(Kind, Option<&'static str>, bool)> {
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
    let (count, count_sure) = pass_count(words, &w);
    let pronoun_pass = mentions_tests && near(TEST_PRONOUNS, PASS_WORDS, 2);
    let counted_pass = w
        .iter()
        .enumerate()
        .any(|(i, x)| matches!(*x, "passed" | "passing" | "pass" | "passes") && prose(i))
        && count.is_some();
    // "Only `test_a` passes", "the other 4 pass", "2 of 3 pass": some passed, not all.
    let some = w
        .iter()
        .any(|x| matches!(*x, "only" | "other" | "others" | "rest" | "remaining"))
        || says_only(&w.join(" "))
        || super::lang::some_of_all_words(&w.join(" "));
    let test_claim =
        (near(TEST_WORDS, PASS_WORDS, 6) || pronoun_pass || counted_pass) && !has_failure && !some;
    let added_tests = w
        .iter()
        .any(|x| matches!(*x, "added" | "wrote" | "created"))
        && !w
            .iter()
            .enumerate()
            .any(|(i, x)| PASS_WORDS.contains(x) && *x != "ok" && prose(i));
    if test_claim && !added_tests {
        let explicit = near(TEST_WORDS, PASS_WORDS, 6) || counted_pass;
        let weak = (!explicit).then_some("\"all\" or \"everything\" stands for the tests");
        out.push((Kind::Tests { count }, weak, count_sure));
    }
    let cargo_check =
        w.windows(2).any(|p| p == ["cargo", "check"]) && near(&["check"], BUILD_OK, 4);
    // "It compiles", "the project builds on stable"; not "debug builds are slower".
    let builds = w.iter().enumerate().any(|(i, x)| {
        matches!(*x, "compiles" | "builds")
            && prose(i)
            && (i > 0
                && matches!(
                    w[i - 1],
                    "it" | "everything"
                        | "project"
                        | "crate"
                        | "code"
                        | "app"
                        | "workspace"
                        | "now"
                        | "package"
                        | "library"
                        | "binary"
                        | "all"
                        | "still"
                        | "typescript"
                        | "program"
                        | "module"
                        | "tree"
                        | "branch"
                        | "this"
                )
                || w.get(i + 1).is_some_and(|n| {
                    matches!(
                        *n,
                        "cleanly"
                            | "fine"
                            | "successfully"
                            | "without"
                            | "with"
                            | "on"
                            | "again"
                            | "ok"
                            | "now"
                    )
                }))
    });
    if (near(BUILD_WORDS, BUILD_OK, 3) || builds || cargo_check) && !has_failure {
        out.push((Kind::Build, None, true));
    }
    let clean_result = w.iter().enumerate().any(|(i, x)| {
        matches!(*x, "no" | "zero" | "0")
            && w[i + 1..w.len().min(i + 3)].iter().any(|n| {
                [
                    "warning",
                    "error",
                    "issue",
                    "problem",
                    "lint",
                    "finding",
                    "diagnostic",
                ]
                .iter()
                .any(|r| n.starts_with(r))
            })
    });
    if (near(LINT_WORDS, LINT_OK, 6)
        || (clean_result && w.iter().any(|x| LINT_WORDS.contains(x) || *x == "check")))
        && !has_failure
    {
        out.push((Kind::Lint, None, true));
    }
    if let Some(n) = failure_count(&w, mentions_tests) {
        out.push((Kind::Failures { count: n }, None, true));
    }
    // "Formatted with rustfmt", "ran `cargo fmt`": the formatter ran (a lint command).
    let formatted = w
        .iter()
        .any(|x| matches!(*x, "formatted" | "reformatted" | "ran"));
    let formatter = w.iter().enumerate().any(|(i, x)| {
        FORMATTERS.contains(x) && (*x != "fmt" || i > 0 && matches!(w[i - 1], "cargo" | "go"))
    });
    if formatted && formatter && !has_failure && !out.iter().any(|(k, _, _)| *k == Kind::Lint) {
        out.push((Kind::Lint, None, true));
    }
    out
}

fn number(w: &str) -> Option<u64> {
    w.parse().ok().or_else(|| number_word(w))
}

/// The count of failed tests a clause reports as the state now ("1 test fails", "2
/// failed", "one failure remains"): the number right before the failure word, or before
/// a test noun right before it. Not one that was fixed ("fixed the 2 failing tests").
fn failure_count(w: &[&str], mentions_tests: bool) -> Option<u64> {
    if w.iter().any(|x| {
        x.starts_with("fix")
            || matches!(
                *x,
                "resolved" | "before" | "previously" | "earlier" | "were" | "was" | "had" | "used"
            )
    }) {
        return None;
    }
    let is_fail = |x: &str| {
        matches!(
            x,
            "fail"
                | "fails"
                | "failed"
                | "failing"
                | "failure"
                | "failures"
                | "errors"
                | "error"
                | "red"
                | "broken"
        )
    };
    // "two tests still fail", "one test is still red": words between the tests and the
    // failure that change nothing.
    const BETWEEN: &[&str] = &[
        "is",
        "are",
        "still",
        "remain",
        "remains",
        "currently",
        "now",
        "keep",
        "keeps",
        "also",
        "stay",
        "stays",
    ];
    // Failures and errors add up, as the runners count them ("one failure and one
    // error" is two); each kind is counted once.
    let (mut failures, mut errors) = (None, None);
    for (i, x) in w.iter().enumerate() {
        if !is_fail(x) || i == 0 {
            continue;
        }
        let n = number(w[i - 1])
            .filter(|_| {
                mentions_tests
                    || matches!(*x, "failed" | "failing" | "failures" | "failure")
                    || x.starts_with("error") && failures.is_some()
            })
            .or_else(|| {
                let mut j = i - 1;
                while j > 0 && BETWEEN.contains(&w[j]) {
                    j -= 1;
                }
                (j >= 1 && TEST_WORDS.contains(&w[j]))
                    .then(|| number(w[j - 1]))
                    .flatten()
                    .or_else(|| {
                        (i >= 2 && TEST_WORDS.contains(&w[i - 1]))
                            .then(|| number(w[i - 2]))
                            .flatten()
                    })
            });
        if let Some(n) = n {
            let slot = if x.starts_with("error") {
                &mut errors
            } else {
                &mut failures
            };
            slot.get_or_insert(n);
        }
    }
    // "0 failed" is part of a pass, which the pass claim checks.
    match (failures, errors) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)).filter(|n| *n > 0),
    }
}

/// Formatters a message names when it says the code was formatted.
const FORMATTERS: &[&str] = &["rustfmt", "fmt", "prettier", "black", "gofmt", "biome"];

/// The number of tests a clause says passed: the one tied to the pass word ("42 passed",
/// "all 42 pass", "12/12", "42 tests pass"), and whether it is sure (false when the clause
/// holds another test count: "added 3 tests, all 45 pass").
fn pass_count(words: &[(String, bool)], w: &[&str]) -> (Option<u64>, bool) {
    let mut found: Vec<(u8, usize, u64)> = Vec::new();
    let pass_at = w
        .iter()
        .position(|x| PASS_WORDS.contains(x) || matches!(*x, "pass" | "passing"))
        .unwrap_or(w.len());
    let mut others = 0;
    for (i, (raw, _)) in words.iter().enumerate() {
        if raw.starts_with('#') {
            continue;
        }
        if let Some((a, b)) = raw.split_once('/') {
            let a = a.trim_start_matches(|c: char| !c.is_ascii_digit());
            let b = b.trim_end_matches(|c: char| !c.is_ascii_digit());
            if !a.is_empty()
                && a.chars().all(|c| c.is_ascii_digit())
                && !b.is_empty()
                && b.chars().all(|c| c.is_ascii_digit())
            {
                if let Ok(n) = b.parse() {
                    found.push((3, i, n));
                }
                continue;
            }
        }
        // Number words too ("three tests pass"), but not "one" ("one of the tests").
        let Some(n) = w[i]
            .parse::<u64>()
            .ok()
            .or_else(|| number_word(w[i]).filter(|n| *n > 1))
        else {
            continue;
        };
        let ahead = &w[i + 1..w.len().min(i + 4)];
        let before = if i > 0 { w[i - 1] } else { "" };
        // "two of the three": the number after "of" is the whole, not the count passed.
        if before == "of" || before == "the" && i > 1 && w[i - 2] == "of" {
            continue;
        }
        // jest's "Test Suites: 4 passed" counts suites, not tests.
        if w[i.saturating_sub(3)..i]
            .iter()
            .any(|x| matches!(*x, "suites" | "suite" | "files" | "jobs"))
        {
            continue;
        }
        let adjacent_pass = ahead
            .first()
            .is_some_and(|x| matches!(*x, "passed" | "passing" | "pass" | "passes" | "ok"));
        let test_noun = ahead.iter().any(|x| TEST_WORDS.contains(x));
        // "1 test suite", "2 test files": not a count of tests.
        if ahead.iter().take(2).any(|x| {
            matches!(
                *x,
                "suite" | "suites" | "files" | "file" | "binaries" | "crates"
            )
        }) {
            continue;
        }
        if matches!(
            before,
            "added" | "wrote" | "created" | "new" | "adds" | "with"
        ) && !adjacent_pass
        {
            if test_noun {
                others += 1;
            }
            continue;
        }
        if adjacent_pass
            || before == "all"
                && (test_noun || ahead.first().is_some_and(|x| PASS_WORDS.contains(x)))
        {
            found.push((3, i, n));
        } else if test_noun {
            found.push((2, i, n));
        }
    }
    // The strongest tie to a pass word; among equals, the nearest to it.
    let chosen = found
        .iter()
        .max_by_key(|(s, i, _)| (*s, std::cmp::Reverse(i.abs_diff(pass_at))))
        .map(|(_, _, n)| *n);
    let distinct = {
        let mut v: Vec<u64> = found.iter().map(|(_, _, n)| *n).collect();
        v.sort_unstable();
        v.dedup();
        v.len()
    };
    (chosen, chosen.is_none() || others == 0 && distinct <= 1)
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
    // aider's report: "Commit 3f2a9c1 fix: handle empty input" (not "Commit 3f2a9c1
    // introduced the bug", which is history).
    let aider = w.first() == Some(&"commit")
        && w.get(1).is_some_and(|h| is_hash(h))
        && !w.get(2).is_some_and(|x| x.ends_with("ed"));
    // Codex's "Ran `git commit` — 1a2b3c4 feat: min", "Ran `git push` — main updated": a
    // run line whose outcome after the dash is not a refusal or a failure.
    let ran_line = |sub: &str| {
        w.first() == Some(&"ran")
            && w.windows(2).any(|p| p == ["git", sub])
            && raw
                .iter()
                .any(|x| matches!(x.as_str(), "—" | "–" | "->" | "→" | "-"))
            && !refused(&raw.join(" ").to_lowercase())
    };
    // Gemini's labels: "**Commit:** 1a2b3c4", "**Push:** succeeded to `origin/main`".
    let label = |name: &str| {
        w.first() == Some(&name)
            && (raw.get(1).is_some_and(|r| r == ":")
                || raw.first().is_some_and(|r| r.ends_with(':')))
    };
    let success = w.iter().any(|x| {
        matches!(
            *x,
            "succeeded"
                | "successful"
                | "successfully"
                | "done"
                | "ok"
                | "complete"
                | "completed"
                | "✅"
                | "✓"
                | "✔"
        )
    });
    let labelled = |name: &str| {
        label(name)
            && !refused(&raw.join(" ").to_lowercase())
            && (success || name == "commit" && raw.iter().any(|x| is_hash(clean(x))))
    };
    let committed = aider
        || labelled("commit")
        || ran_line("commit")
        || w.contains(&"committed")
        || w.windows(3).any(|p| {
            matches!(p[0], "created" | "made")
                && (p[1].starts_with("commit")
                    || matches!(p[1], "a" | "the" | "one") && p[2].starts_with("commit"))
        });
    if committed {
        // "(beaadba), parent 9c4a24b": the commit's own hash, not its parent's; one in
        // parentheses is a hash even when it happens to be all letters.
        let not_its_own = ["parent", "base", "onto", "after", "from", "atop", "of"];
        let hash = raw
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                !i.checked_sub(1)
                    .is_some_and(|j| not_its_own.contains(&clean(&raw[j]).to_lowercase().as_str()))
            })
            .map(|(i, x)| {
                // A short hash may be all digits (`5508052`): in a code span or in
                // brackets it is one.
                let parenthesised = x.starts_with(['(', '`'])
                    || i.checked_sub(1).is_some_and(|j| raw[j].ends_with('('));
                (parenthesised, clean(x))
            })
            .find(|(parenthesised, c)| {
                is_hash(c)
                    || *parenthesised
                        && (7..=40).contains(&c.len())
                        && c.chars().all(|ch| ch.is_ascii_hexdigit())
            })
            .map(|(_, c)| c.to_owned());
        out.push(Kind::Commit { hash });
    }
    let is_remote = |b: &str| {
        matches!(
            b,
            "origin" | "the" | "remote" | "github" | "upstream" | "gitlab"
        )
    };
    if ran_line("push") || labelled("push") {
        // The branch is the span's own (`git push origin feat/x`), never the prose's.
        let branch = toks.iter().find_map(|t| match t {
            Token::Code(q) if q.contains("git push") => q
                .split_whitespace()
                .skip_while(|x| *x != "push")
                .skip(1)
                .filter(|x| !x.starts_with('-'))
                .nth(1)
                .map(|b| b.rsplit(':').next().unwrap_or(b).to_owned()),
            _ => None,
        });
        // A label's value names the ref: "**Push:** succeeded to `origin/main`".
        let branch = branch.or_else(|| {
            toks.iter().find_map(|t| match t {
                Token::Code(q) if !q.contains(char::is_whitespace) && !is_hash(q) => {
                    Some(q.strip_prefix("origin/").unwrap_or(q).to_owned())
                }
                _ => None,
            })
        });
        out.push(Kind::Push { branch });
    } else if let Some(i) = w.iter().position(|x| x.ends_with("pushed")) {
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
        // "Pushed the branch to origin as `fix/x`": the name it was pushed under.
        let named_as = w[i + 1..]
            .iter()
            .position(|x| matches!(*x, "as" | "into" | "named"))
            .and_then(|j| raw.get(i + 1 + j + 1))
            .map(|b| clean(b).to_owned())
            .filter(|b| b.contains(['/', '-', '_']) && !is_remote(b));
        let branch = after_to
            .or(named_as)
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
        // A file said unchanged claims no change: it claims the file is as the turn found
        // it.
        for (m, path) in [
            ("I did not change `src/lib.rs`.", "src/lib.rs"),
            ("Left `a.rs` unchanged.", "a.rs"),
            ("No changes to `a.rs`.", "a.rs"),
        ] {
            assert_eq!(kinds(m), [file(path, Change::Unchanged)], "{m:?}");
        }
        for m in [
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
        assert_eq!(kinds("5 passed, 1 failed"), [Kind::Failures { count: 1 }]);
        assert_eq!(
            kinds("One failure and one error remain."),
            [Kind::Failures { count: 2 }]
        );
        assert!(kinds("Fixed the 2 failing tests.").is_empty());
        // Some passed is no claim that the tests pass.
        assert!(kinds("The other 4 tests pass.").is_empty());
        assert!(kinds("2 of 3 tests pass.").is_empty());
        assert!(kinds("Only `test_slugify` passes.").is_empty());
        assert_eq!(
            kinds("3 of 3 tests pass."),
            [Kind::Tests { count: Some(3) }]
        );
        // Codex's run lines: the outcome after the dash decides.
        assert_eq!(
            kinds("Ran `git push origin feat/x` — done"),
            [Kind::Push {
                branch: Some("feat/x".into())
            }]
        );
        assert!(kinds("Ran `git push origin main` — rejected (non-fast-forward)").is_empty());
        assert!(kinds("Ran `git push` — the remote's hook declined it").is_empty());
        assert_eq!(
            kinds("Ran `git commit` — 1a2b3c4 feat: min"),
            [Kind::Commit {
                hash: Some("1a2b3c4".into())
            }]
        );
        // "Set" is a status line's verb, or an instruction that says whose file or why.
        assert_eq!(
            kinds("- Set `log: debug` in `config/app.yaml`."),
            [
                Kind::File {
                    path: "config/app.yaml".into(),
                    change: Change::Modified
                },
                // The setting the line gives is what the file holds now.
                Kind::Holds {
                    path: "config/app.yaml".into(),
                    value: "log: debug".into()
                }
            ]
        );
        assert!(
            kinds("Set `log: debug` in your `config/app.yaml` to see the requests.").is_empty()
        );
        // The parent relays its subagent's work: its own claim.
        assert_eq!(
            kinds("The subagent added `docs/usage.md`."),
            [Kind::File {
                path: "docs/usage.md".into(),
                change: Change::Created
            }]
        );
        assert!(kinds("Added tests for the parser.").is_empty());
        // "It" after a subagent is named is the subagent: relayed, the parent's claim.
        assert_eq!(
            kinds("I gave the docs to a subagent. It added `docs/usage.md`."),
            [Kind::File {
                path: "docs/usage.md".into(),
                change: Change::Created
            }]
        );
        // Without a subagent, "it" is the code or a tool: not the agent's action.
        assert!(extract("It added `docs/usage.md` to the index.")
            .iter()
            .all(|c| c.confidence == Confidence::Weak));
    }
}
