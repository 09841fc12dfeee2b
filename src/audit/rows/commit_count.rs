//! How many commits a report says the turn made, or a branch has over another ("két új
//! merge commit van a `main`-en", "Mindkettőt egyetlen revert commit vonja vissza", "над
//! `origin/main` вече има само един commit"): [`Kind::CommitCount`], counted in the
//! repository as the turn left it.

use super::refs::{denials_of, negates, not_reported, plans_or_doubts, unquoted};
use super::*;
use crate::audit::lang::number_of;
use crate::audit::vocab::{CommitSince, CommitSort};

/// Marks the count of commits a clause gives: a number (digits, a number word of any
/// table, or a word for "one" or "single") within three words before a word for commit.
/// The count is of the turn's new commits where the clause says "new", or counts revert
/// commits (a revert is made by the turn); of the commits over a branch where a word for
/// "over" or "ahead of" stands beside the branch's span. The branch counted is the other
/// branch span of the clause, or HEAD. One count per clause; nothing where the clause
/// denies, plans, asks or is someone else's.
pub fn mark_commit_counts(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if r.sentence.trim_end().ends_with(['?', '？'])
            || r.why.iter().any(|w| not_reported(w, &["someone"]))
            || plans_or_doubts(r)
        {
            continue;
        }
        // "Uitgangssituatie: drie lokale commits boven `origin/main`": the state the turn
        // began in, which its own steps then changed.
        let lower_sentence = r.sentence.to_lowercase();
        // The shape first: a word for commit (most sentences have none, and the readings
        // below look up every table's negations and numbers).
        if !super::refs::COMMIT_WORDS
            .iter()
            .chain(&["комит", "коміт"])
            .any(|w| lower_sentence.contains(w))
            || START
                .iter()
                .chain(super::held::FIRST_RUN)
                .any(|w| lower_sentence.contains(w))
        {
            continue;
        }
        let denials = denials_of(r);
        let mut kinds = Vec::new();
        for clause in r.sentence.split(super::paths::CLAUSE_ENDS) {
            let lower = clause.to_lowercase();
            let prose = without_glued_spans(&unquoted(&lower), &lower);
            let Some((count, sort)) = count_of_commits(&prose) else {
                continue;
            };
            if negates(&prose) || denials.iter().any(|d| lower.contains(d.as_str())) {
                continue;
            }
            let refs: Vec<&str> = vocab::spans_of(clause)
                .map(str::trim)
                .filter(|s| is_ref_name(s))
                .collect();
            // A branch's distance to its upstream is read as such ([`Kind::Apart`]).
            let apart = r
                .claims
                .iter()
                .any(|c| matches!(c.kind, Kind::Apart { .. }));
            let over = refs
                .iter()
                .copied()
                .find(|s| over_it(&lower, s))
                .filter(|_| !apart);
            let since = match over {
                Some(base) => CommitSince::Ref(base.to_owned()),
                None if sort == CommitSort::Revert || says_new(&prose) => CommitSince::Turn,
                None => continue,
            };
            // The branch counted: another span of the clause, or else of the sentence ("on
            // the new branch `feat/x`, one commit ahead of `main`").
            let mut tips: Vec<&str> = refs.iter().copied().filter(|s| Some(*s) != over).collect();
            if tips.is_empty() {
                tips = vocab::spans_of(&r.sentence)
                    .map(str::trim)
                    .filter(|s| is_ref_name(s) && Some(*s) != over)
                    .collect();
                tips.dedup();
            }
            let tip = match tips.as_slice() {
                [] => None,
                [one] => Some((*one).to_owned()),
                _ => continue,
            };
            kinds.push(Kind::CommitCount {
                count,
                sort,
                since,
                tip,
            });
        }
        if let [kind] = kinds.as_slice() {
            add_new(r, kind.clone());
        }
    }
}

/// Marks how many files a sentence says a commit it names by its hash holds ("El commit
/// 0ccacdc lleva los cuatro archivos", "Commit 1a2b3c4, qui contient les trois fichiers"):
/// a hash, and a number (digits or a number word of any table) within two words before a
/// word for files. One count per sentence; nothing where it denies, plans or asks.
pub fn mark_commit_file_counts(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let Some(hash) = one_hash_reported(r) else {
            continue;
        };
        let lower = r.sentence.to_lowercase();
        let prose = without_glued_spans(&unquoted(&lower), &lower);
        // A word for "has", "contains" or "includes" puts the files in the commit: "adds
        // tests for the three files" counts something else.
        let holds = prose
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| super::refs::HAS.contains(&w) || super::paths::CONTAINS.contains(&w))
            || super::refs::INCLUDES.iter().any(|w| prose.contains(w))
            || super::paths::CONTAINS
                .iter()
                .any(|w| !w.is_ascii() && prose.contains(w));
        if negates(&prose) || !holds {
            continue;
        }
        let words: Vec<&str> = prose
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let counts: Vec<u64> = words
            .iter()
            .enumerate()
            .filter(|(_, w)| FILE_WORDS.iter().any(|f| w.starts_with(f)))
            .filter_map(|(j, _)| {
                (j.saturating_sub(2)..j)
                    .rev()
                    .find_map(|i| number_of(words[i]))
            })
            .collect();
        let [count] = counts.as_slice() else {
            continue;
        };
        add_new(
            r,
            Kind::CommitFiles {
                commit: hash.to_owned(),
                count: *count,
            },
        );
    }
}

/// Marks what a sentence says a commit named by its hash holds of several parts of the
/// project ("কমিট 9a2854d-এ দুটো প্যাকেজের পরিবর্তনই আছে: textkit-এর truncate আর
/// numkit-এর clamp01", "`units` och `report` står båda på 0.2.0 i commit 012a464"): one hash,
/// a word for both or all, and the sentence's words (the parts are told from them by the
/// project's own folders and package names, as the turn left them); with one version
/// (`0.2.0`), each part's manifest in the commit is at it. Nothing where the sentence
/// denies, plans or asks.
pub fn mark_parts_in_commit(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let Some(hash) = one_hash_reported(r) else {
            continue;
        };
        // The part (up to a `;` outside the spans) that holds the word for both or all.
        let lower_all = r.sentence.to_lowercase();
        let Some(lower) = split_outside_spans(&lower_all, ';')
            .into_iter()
            .find(|part| BOTH_OR_ALL.iter().any(|b| unquoted(part).contains(b)))
        else {
            continue;
        };
        // "… both `core` and `api`, `web` unchanged": a clause that leaves a part out
        // makes the reading unsure.
        if lower
            .split([',', '，'])
            .any(|c| super::paths::NOT_CHANGED.iter().any(|w| c.contains(w)))
        {
            continue;
        }
        let lower = lower.to_owned();
        let prose = without_glued_spans(&unquoted(&lower), &lower);
        let prose_words: Vec<&str> = prose
            .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '_' && c != '.')
            .map(|w| w.trim_matches(['-', '.']))
            .filter(|w| !w.is_empty())
            .collect();
        let several = BOTH_OR_ALL.iter().any(|b| prose.contains(b))
            || prose_words
                .iter()
                .any(|w| number_of(w).is_some_and(|n| (2..=9).contains(&n)));
        if !several || negates(&prose) {
            continue;
        }
        let versions: Vec<&str> = prose_words
            .iter()
            .copied()
            .filter(|w| is_version(w))
            .collect();
        let version = match versions.as_slice() {
            [] => None,
            [one, rest @ ..] if rest.iter().all(|v| v == one) => Some((*one).to_owned()),
            _ => continue,
        };
        // A name with its ending glued by a hyphen ("textkit-এর") is the name too.
        let mut words: Vec<String> = prose_words
            .iter()
            .flat_map(|w| std::iter::once(*w).chain(w.split('-').filter(|p| p.len() < w.len())))
            .filter(|w| w.chars().count() >= 3 && !is_version(w) && *w != hash)
            .map(|w| w.to_owned())
            .chain(
                vocab::spans_of(&lower)
                    .map(str::trim)
                    .filter(|s| {
                        s.len() >= 3 && s.chars().all(|c| c.is_alphanumeric() || "-_@/".contains(c))
                    })
                    .map(str::to_owned),
            )
            .collect();
        words.sort();
        words.dedup();
        add_new(
            r,
            Kind::PartsInCommit {
                commit: hash.to_owned(),
                words,
                version,
            },
        );
    }
}

/// The parts of a text between `sep`s outside its code spans.
fn split_outside_spans(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut inside, mut start) = (false, 0);
    for (i, c) in text.char_indices() {
        if c == '`' {
            inside = !inside;
        } else if c == sep && !inside {
            parts.push(&text[start..i]);
            start = i + c.len_utf8();
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Whether a word is a version (`0.2.0`, `1.10`): digits joined by dots.
fn is_version(w: &str) -> bool {
    let w = w.trim_start_matches('v');
    w.contains('.')
        && w.split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Words for "both" and "all", by language.
const BOTH_OR_ALL: &[&str] = &[
    "both",
    "all ",
    "beide",
    "alle ",
    "les deux",
    "tous les",
    "ambos",
    "ambas",
    "todos los",
    "entrambi",
    "tutti i",
    "allebei",
    "båda",
    "begge",
    "molemmat",
    "kaikki",
    "oba",
    "obie",
    "obě",
    "oboje",
    "mindkét",
    "mindegyik",
    "her iki",
    "tüm",
    "оба",
    "обе",
    "обидва",
    "обидві",
    "двата",
    "και οι δύο",
    "cả hai",
    "keduanya",
    "semua",
    "zote",
    "mbili",
    "两个",
    "兩個",
    "都",
    "両方",
    "둘 다",
    "שניהם",
    "שתי",
    "كلا",
    "هر دو",
    "दोनों",
    "দুটো",
    "দুই",
    "இரண்டு",
    "ทั้งสอง",
];

/// The one commit hash a sentence names, where it reports (no question, plan, doubt or
/// someone else's hand).
fn one_hash_reported(r: &Reading) -> Option<&str> {
    if r.sentence.trim_end().ends_with(['?', '？'])
        || r.why.iter().any(|w| not_reported(w, &["someone"]))
        || plans_or_doubts(r)
    {
        return None;
    }
    let mut hashes = vocab::hashes_in(&r.sentence);
    let hash = hashes.next()?;
    hashes.next().is_none().then_some(hash)
}

/// Stems of the words for files, by language./// Stems of the words for files, by language.
const FILE_WORDS: &[&str] = &[
    "files",
    "dateien",
    "fichiers",
    "archivos",
    "ficheros",
    "arquivos",
    "file",
    "bestanden",
    "filer",
    "tiedosto",
    "plik",
    "soubor",
    "súbor",
    "datotek",
    "datoteke",
    "fájl",
    "dosya",
    "fișier",
    "файл",
    "αρχεί",
    "tệp",
    "berkas",
    "faili",
    "mafaili",
    "ファイル",
    "파일",
    "文件",
    "檔案",
    "קבצים",
    "ملفات",
    "فایل",
    "फ़ाइल",
    "फाइल",
    "ফাইল",
    "ไฟล์",
];

/// A clause's prose without the endings glued to its spans (`` `main`-en ``, `` `main`'de ``):
/// an ending of another language's shape ("en") is no word of the clause.
fn without_glued_spans(prose: &str, lower: &str) -> String {
    if !lower.contains("`-") && !lower.contains("`'") {
        return prose.to_owned();
    }
    let mut out = String::with_capacity(lower.len());
    let mut inside = false;
    let mut glued = false;
    for c in lower.chars() {
        if c == '`' {
            inside = !inside;
            glued = !inside;
            out.push(' ');
        } else if inside || glued && !c.is_whitespace() {
        } else {
            glued = false;
            out.push(c);
        }
    }
    unquoted(&out)
}

/// The count and the sort of commits a clause (lower-cased, spans taken out) gives.
fn count_of_commits(prose: &str) -> Option<(u64, CommitSort)> {
    let words: Vec<&str> = prose
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .map(|w| w.trim_matches('-'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut found = None;
    for (j, w) in words.iter().enumerate() {
        if !is_commit_word(w) {
            continue;
        }
        let from = j.saturating_sub(3);
        let Some(at) = (from..j).rev().find(|&i| count_word(words[i]).is_some()) else {
            continue;
        };
        let count = count_word(words[at])?;
        let between = &words[at + 1..=j];
        let sort = if between
            .iter()
            .any(|w| w.starts_with("merge") || MERGE.contains(w))
        {
            CommitSort::Merge
        } else if between.iter().any(|w| w.starts_with("revert")) {
            CommitSort::Revert
        } else {
            CommitSort::Any
        };
        if found.is_some() {
            return None;
        }
        found = Some((count, sort));
    }
    found
}

/// A number a count of commits is written with: digits, a number word of any table, or a
/// word for "one" or "single" (the tables' number words start at two: "a", "ein", "un"
/// are articles too).
fn count_word(w: &str) -> Option<u64> {
    if ONE.contains(&w) {
        return Some(1);
    }
    number_of(w).filter(|n| (1..=1000).contains(n))
}

/// Whether a word is a word for commit (and its compounds: "merge-commit", "mergecommit").
fn is_commit_word(w: &str) -> bool {
    // "committed it as `c8ecb5b`" tells the step, no count of commits.
    !w.starts_with("committ")
        && (w.ends_with("commit")
            || w.ends_with("commits")
            || super::refs::COMMIT_WORDS
                .iter()
                .chain(&["комит", "коміт"])
                .any(|c| w.starts_with(c)))
}

/// Whether a span is a branch or remote branch's name (`main`, `origin/main`, `feat/x`):
/// no spaces, no file's extension.
fn is_ref_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 80
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/-_".contains(c))
        && !vocab::is_hash(s)
}

/// Whether a word for "over", "above" or "ahead of" stands right beside a ref's span.
fn over_it(lower: &str, span: &str) -> bool {
    let quoted = format!("`{}`", span.to_lowercase());
    lower.match_indices(&quoted).any(|(i, _)| {
        let before: Vec<&str> = lower[..i].split_whitespace().rev().take(2).collect();
        let after: Vec<&str> = lower[i + quoted.len()..]
            .split_whitespace()
            .take(1)
            .collect();
        before
            .iter()
            .chain(&after)
            .any(|w| OVER.contains(&w.trim_matches(|c: char| !c.is_alphanumeric())))
    })
}

/// Whether a clause says the commits are new.
fn says_new(prose: &str) -> bool {
    prose
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| NEW.contains(&w))
}

/// Words that tell the state a turn began in ("Uitgangssituatie", "at the start",
/// "initially"), beside [`super::held::FIRST_RUN`]'s.
const START: &[&str] = &[
    "uitgangssituatie",
    "at the start",
    "initially",
    "to begin with",
    "beforehand",
    "starting point",
    "ausgangslage",
    "anfangs",
    "au départ",
    "initialement",
    "al principio",
    "inicialmente",
    "all'inizio",
    "inizialmente",
    "aanvankelijk",
    "i början",
    "alussa",
    "na początku",
    "początkowo",
    "na začátku",
    "kezdetben",
    "başlangıçta",
    "изначально",
    "сначала",
    "вначале",
    "спочатку",
    "в начале",
    "αρχικά",
    "ban đầu",
    "awalnya",
    "mwanzoni",
    "一开始",
    "起初",
    "最初は",
    "처음에",
    "शुरुआत में",
    "في البداية",
    "در ابتدا",
    "בהתחלה",
];

/// Words for "new" (commits the turn made).
const NEW: &[&str] = &[
    "new",
    "neue",
    "neuen",
    "neuer",
    "nouveau",
    "nouveaux",
    "nouvelle",
    "nouvelles",
    "nuevo",
    "nuevos",
    "nueva",
    "novo",
    "novos",
    "nuovo",
    "nuovi",
    "nieuwe",
    "nieuw",
    "ny",
    "nya",
    "nye",
    "uusi",
    "uutta",
    "uudet",
    "nowy",
    "nowe",
    "nowych",
    "nový",
    "nové",
    "nových",
    "új",
    "yeni",
    "новый",
    "новые",
    "новых",
    "новых",
    "нов",
    "нови",
    "новий",
    "нові",
    "нових",
    "νέο",
    "νέα",
    "baru",
    "mpya",
    "mới",
    "nou",
    "noi",
];

/// Words for "one" and "single" a count of commits may be written with.
const ONE: &[&str] = &[
    "one",
    "single",
    "1",
    "ein",
    "einen",
    "einzigen",
    "einziger",
    "einzige",
    "seul",
    "único",
    "unico",
    "única",
    "unica",
    "solo",
    "um",
    "één",
    "enda",
    "eneste",
    "yksi",
    "ainoa",
    "yksi",
    "egyetlen",
    "jeden",
    "jedna",
    "jediný",
    "jedyny",
    "tek",
    "bir",
    "один",
    "одна",
    "одним",
    "единственный",
    "един",
    "една",
    "само",
    "єдиний",
    "один",
    "ένα",
    "μόνο",
    "satu",
    "moja",
    "một",
];

/// Words for merge in the compounds a count of merge commits is written with.
const MERGE: &[&str] = &["слияния", "злиття", "scalenia", "sloučení", "összefésülési"];

/// Words for "over", "above", "ahead of", "on top of" beside a branch's span.
const OVER: &[&str] = &[
    "over",
    "above",
    "ahead",
    "atop",
    "über",
    "vor",
    "sur",
    "devant",
    "sobre",
    "delante",
    "sopra",
    "avanti",
    "boven",
    "voor",
    "över",
    "före",
    "foran",
    "edellä",
    "przed",
    "nad",
    "před",
    "előtt",
    "felett",
    "fölött",
    "önünde",
    "üstünde",
    "над",
    "перед",
    "поверх",
    "πάνω",
    "di atas",
    "juu",
    "trên",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(message: &str) -> Vec<String> {
        marked_texts(message, mark_commit_counts)
    }

    #[test]
    fn a_count_of_new_merge_or_revert_commits_is_read() {
        assert_eq!(
            counts("Águnként egy-egy merge commit jött létre, így két új merge commit van a `main`-en."),
            ["2 new merge commits on main"]
        );
        assert_eq!(
            counts("Mindkettőt egyetlen revert commit vonja vissza: 1a2b3c4."),
            ["1 new revert commit on HEAD"]
        );
        assert_eq!(counts("Made two new commits."), ["2 new commits on HEAD"]);
    }

    #[test]
    fn a_count_over_a_branch_is_read() {
        assert_eq!(
            counts("Поправката е слята — над `origin/main` вече има само един commit."),
            ["1 commit on HEAD over origin/main"]
        );
        assert_eq!(
            counts("`feat/x` is 3 commits ahead of `main`."),
            ["3 commits on feat/x over main"]
        );
    }

    #[test]
    fn a_count_of_the_files_a_named_commit_holds_is_read() {
        let files = |m: &str| marked_texts(m, mark_commit_file_counts);
        assert_eq!(
            files("El commit 0ccacdc lleva los cuatro archivos: core (money.js y su test) y web."),
            ["commit 0ccacdc holds 4 files"]
        );
        assert_eq!(
            files("Commit 1a2b3c4 `text: add title() with docs`, qui contient les trois fichiers : le code, le test, la doc."),
            ["commit 1a2b3c4 holds 3 files"]
        );
        assert!(files("Commit 1a2b3c4 holds no files.").is_empty());
        assert!(files("Committed 3 files.").is_empty());
        assert!(files("Commit 1a2b3c4 adds tests for the three files.").is_empty());
    }

    #[test]
    fn parts_a_named_commit_holds_are_read() {
        let parts = |m: &str| marked_kinds(m, mark_parts_in_commit);
        let read = parts("`units` och `report` står båda på 0.2.0 i commit 012a464.");
        let [Kind::PartsInCommit {
            commit,
            words,
            version,
        }] = read.as_slice()
        else {
            panic!("one reading: {read:?}");
        };
        assert_eq!(commit, "012a464");
        assert_eq!(version.as_deref(), Some("0.2.0"));
        assert!(words.contains(&"units".to_owned()) && words.contains(&"report".to_owned()));
        assert!(
            parts("Commit 012a464 touches neither `units` nor `report`, both unchanged.")
                .is_empty()
        );
        assert!(parts("Commit 012a464 bumps `units`.").is_empty());
        assert!(
            parts("Commit 012a464 updates both `core` and `api`, `web` not changed.").is_empty()
        );
    }

    #[test]
    fn counts_with_no_scope_denied_or_planned_claim_nothing() {
        // An ordinal and the verb are no count of commits (git.turns, negatives.turns).
        assert!(
            counts("Added a second note to `notes.txt` and committed it as c8ecb5b.").is_empty()
        );
        assert!(counts("Pushed 3 commits to `origin`.").is_empty());
        assert!(counts("No new commits were made.").is_empty());
        assert!(counts("Made a new commit.").is_empty());
    }
}
