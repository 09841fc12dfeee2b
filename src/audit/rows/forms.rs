//! The word sets the row readers look up in any language: every table's forms at once
//! (thousands), indexed by first character so one pass over a sentence finds any of
//! them. A hook is one process per call, so the index is built on every run that reads
//! a row: it is built once for all the sets (each form tagged with the sets it is in),
//! only of the forms that can stand in the messages read (a Latin message's holds no Thai
//! form), borrows the tables' `&'static str`s, and hashes a character with one
//! multiplication ([`FastMap`]).

use super::super::fast_hash::{FastMap, FastSet};
use super::super::lang::{fold, LANGS};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::OnceLock;

/// Which sets a form is in (a bit each).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Sets(u8);

impl Sets {
    /// Denials, deletions, plans, someone else's hand, an earlier state: a path named
    /// beside one is not said to be there.
    pub const NOT_THERE: Sets = Sets(1);
    /// [`Sets::NOT_THERE`] without the negations.
    pub const GONE: Sets = Sets(1 << 1);
    /// Plans and checks not run: they take a pass back.
    pub const NOT_A_PASS: Sets = Sets(1 << 2);
    /// Failures: they take a pass back where the reader asks for them.
    pub const FAILED: Sets = Sets(1 << 3);
    /// Questions, instructions, examples: no report of what is.
    pub const NOT_A_REPORT: Sets = Sets(1 << 4);
    /// A file changed or made: the tables' change and creation forms.
    pub const CHANGED: Sets = Sets(1 << 5);
    /// The tables' third-person change and creation forms ([`super::super::lang::Lang::relayed`]):
    /// [`Sets::CHANGED`] in a message that names a subagent.
    const RELAYED: Sets = Sets(1 << 6);
    /// Deletions alone: the tables' deletion forms (the English ones as whole words),
    /// without the denials, plans, others' hands and earlier states [`Sets::GONE`] adds,
    /// for the readers that take a sentence for a deletion ("the branch already existed"
    /// tells no deletion).
    pub const DELETED: Sets = Sets(1 << 7);

    const fn or(self, other: Sets) -> Sets {
        Sets(self.0 | other.0)
    }
}

impl std::ops::BitOr for Sets {
    type Output = Sets;
    fn bitor(self, other: Sets) -> Sets {
        self.or(other)
    }
}

struct Form {
    text: &'static str,
    /// The table it is from ("" for this reader's own lists).
    lang: &'static str,
    /// Must end at a word's end (English words, the forms written with a trailing space).
    whole: bool,
    /// Three characters or fewer: a table's short form counts only in its own language.
    short: bool,
    sets: Sets,
}

/// The forms that start with one character: those that match only at a word's start, and
/// those that match anywhere (most positions of a sentence are inside a word, where only
/// the second list can match).
#[derive(Default)]
struct Bucket {
    at_start: Vec<Form>,
    anywhere: Vec<Form>,
}

/// Every form of every set, by first character: ASCII in an array, the rest hashed.
struct Forms {
    ascii: Vec<Bucket>,
    other: FastMap<char, Bucket>,
}

impl Forms {
    fn new() -> Forms {
        Forms {
            ascii: (0..128).map(|_| Bucket::default()).collect(),
            other: FastMap::default(),
        }
    }

    /// Adds `raw`, a form of the table `lang` ("" for this reader's own lists), to `sets`: a
    /// stem (it matches as the tables do: at a word's start, or anywhere in a script without
    /// case) unless `whole`.
    fn add_of(&mut self, lang: &'static str, raw: &'static str, whole: bool, sets: Sets) {
        let text = raw.trim();
        let Some(first) = text.chars().next() else {
            return;
        };
        // Only the first letter is looked up (a form is in one script): the lookup of a
        // letter outside ASCII is most of the cost of building the index.
        let first_letter = text.chars().find(|c| c.is_alphabetic());
        let whole = whole || raw.ends_with(' ') || first_letter.is_none();
        // A stem in a script with no case (CJK, Thai, Arabic ...) has no word boundary to
        // wait for.
        let anywhere = !whole
            && first_letter
                .is_some_and(|c| !c.is_ascii() && !c.is_lowercase() && !c.is_uppercase());
        let form = Form {
            text,
            lang,
            whole,
            short: text.chars().nth(3).is_none(),
            sets,
        };
        let bucket = match u8::try_from(first).ok().filter(u8::is_ascii) {
            Some(b) => &mut self.ascii[usize::from(b)],
            None => self.other.entry(first).or_default(),
        };
        if anywhere {
            bucket.anywhere.push(form);
        } else {
            bucket.at_start.push(form);
        }
    }

    fn starting_with(&self, c: char) -> Option<&Bucket> {
        match u8::try_from(c).ok().filter(u8::is_ascii) {
            Some(b) => Some(&self.ascii[usize::from(b)]),
            None => self.other.get(&c),
        }
    }

    /// Whether a form of any of `sets` stands in `text` (lower-cased, folded).
    fn any_in(&self, text: &str, sets: Sets) -> bool {
        let reading = READ_AS.with(std::cell::Cell::get);
        let sets = if sets.0 & Sets::CHANGED.0 != 0 && RELAYS.with(std::cell::Cell::get) {
            sets | Sets::RELAYED
        } else {
            sets
        };
        // An identifier's parts are no words ("pull_request" holds no "pull"); "_not_"
        // (emphasis) still holds "not".
        let mut prev: Option<char> = None;
        let mut before_prev: Option<char> = None;
        for (i, c) in text.char_indices() {
            let word_start = prev.is_none_or(|p| {
                !p.is_alphanumeric()
                    && !(p == '_' && before_prev.is_some_and(char::is_alphanumeric))
            });
            before_prev = prev;
            prev = Some(c);
            let Some(bucket) = self.starting_with(c) else {
                continue;
            };
            let at_start: &[Form] = if word_start { &bucket.at_start } else { &[] };
            for f in at_start.iter().chain(&bucket.anywhere) {
                if f.sets.0 & sets.0 == 0
                    || f.short && !f.lang.is_empty() && reading.is_some_and(|l| l != f.lang)
                    || f.lang.is_empty() && reading.is_some_and(|l| INNOCENT.contains(&(l, f.text)))
                    || !text[i..].starts_with(f.text)
                {
                    continue;
                }
                let end = i + f.text.len();
                let mut after = text[end..].chars();
                let ends_word = match (after.next(), after.next()) {
                    (None, _) => true,
                    (Some('_'), next) => next.is_none_or(|n| !n.is_alphanumeric()),
                    (Some(n), _) => !n.is_alphanumeric(),
                };
                if !f.whole || ends_word {
                    return true;
                }
            }
        }
        false
    }
}

/// The index of every set, of the forms that can stand in the messages read so far: a
/// form whose first character is outside ASCII and in none of them cannot match (the
/// texts looked up are their sentences), so a Latin message's index holds no Thai, Hindi
/// or Chinese form. Built on first use, again only when a later message (a subagent's)
/// brings a character the index was not built for.
fn forms() -> Rc<Forms> {
    let key = SEEN.with(|s| s.borrow().as_ref().map(FastSet::len));
    if let Some(forms) = BUILT.with(|b| {
        b.borrow()
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, f)| Rc::clone(f))
    }) {
        return forms;
    }
    let forms = SEEN.with(|s| {
        let seen = s.borrow();
        Rc::new(build(|c| {
            c.is_ascii() || seen.as_ref().is_none_or(|seen| seen.contains(&c))
        }))
    });
    BUILT.with(|b| *b.borrow_mut() = Some((key, Rc::clone(&forms))));
    forms
}

/// The index of the forms whose first character `can_stand` says may be in a text.
fn build(can_stand: impl Fn(char) -> bool) -> Forms {
    use Sets as S;
    let mut forms = Forms::new();
    let mut add = |lang: &'static str, list: &[&'static str], whole: bool, sets: Sets| {
        for w in list {
            if w.trim().chars().next().is_some_and(&can_stand) {
                forms.add_of(lang, w, whole, sets);
            }
        }
    };
    let not_there = S::NOT_THERE | S::GONE;
    let modal = not_there | S::NOT_A_PASS;
    for l in LANGS.iter() {
        // English is read word by word: its table's forms are whole words. Its deletions
        // and renames are read by its own reader.
        let en = l.code == "en";
        let code = l.code;
        add(code, l.negations, en, S::NOT_THERE);
        if en {
            add(code, l.deleted, true, S::DELETED);
        } else {
            add(code, l.deleted, false, not_there | S::DELETED);
            add(code, l.renamed, false, not_there);
            add(code, l.relayed.deleted, false, not_there | S::DELETED);
            add(code, l.relayed.renamed, false, not_there);
        }
        add(code, l.relayed.modified, en, S::RELAYED);
        add(code, l.relayed.created, en, S::RELAYED);
        add(code, l.modal, en, modal);
        // "he" is also Spanish and Catalan "I have" ("He copiat `a` a `b`"): the English
        // reader reads it as another's hand on its own.
        let others: Vec<&'static str> = l
            .others
            .iter()
            .copied()
            .filter(|w| !(en && *w == "he"))
            .collect();
        add(code, &others, en, not_there);
        add(code, l.earlier, en, not_there);
        add(code, l.modified, en, S::CHANGED);
        add(code, l.created, en, S::CHANGED);
        add(code, l.failed, en, S::FAILED);
    }
    let (negations, rest): (Vec<&'static str>, Vec<&'static str>) = NOT_THERE
        .iter()
        .partition(|w| matches!(**w, "not" | "n't" | "no" | "never" | "without" | "none"));
    add("", &negations, true, S::NOT_THERE);
    add("", &rest, true, not_there);
    add("", &["gone", "pruned"], true, S::DELETED);
    add("", NOT_A_PASS, true, S::NOT_A_PASS);
    add("", NOT_A_REPORT, true, S::NOT_A_REPORT);
    forms
}

/// This reader's own forms that are another word in a table's language: Portuguese "no"
/// is "in the" ("registrada no commit", "no mesmo arquivo").
const INNOCENT: &[(&str, &str)] = &[("pt", "no")];

thread_local! {
    /// The table the message is read with, where one is: a table's short forms count only
    /// in its own language (Dutch "al" is "already", Spanish and Catalan "al" is "to the").
    static READ_AS: std::cell::Cell<Option<&'static str>> = const { std::cell::Cell::new(None) };
    /// The message names a subagent: the tables' third-person forms are its relays.
    static RELAYS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The characters outside ASCII of the messages read (as written and lower-cased);
    /// `None` before any: every form then stands in the index.
    static SEEN: RefCell<Option<FastSet<char>>> = const { RefCell::new(None) };
    /// The index, and the count of characters seen it was built for.
    static BUILT: RefCell<Option<(Option<usize>, Rc<Forms>)>> = const { RefCell::new(None) };
}

/// The table the message is read as (`None`: any).
pub(super) fn reading() -> Option<&'static str> {
    READ_AS.with(std::cell::Cell::get)
}

/// Reads what follows as `message`, written in the table `code`'s language (`None`: any).
pub(in crate::audit) fn read_as(code: Option<&'static str>, message: &str) {
    READ_AS.with(|r| r.set(code));
    RELAYS.with(|r| r.set(super::super::lang::names_an_agent(message)));
    SEEN.with(|s| {
        let mut s = s.borrow_mut();
        let seen = s.get_or_insert_with(FastSet::default);
        let lower = fold(&message.to_lowercase());
        for c in message
            .chars()
            .chain(lower.chars())
            .filter(|c| !c.is_ascii())
        {
            seen.insert(c);
        }
    });
}

/// Whether `text` (lower-cased, folded) holds a form of any of `sets`.
pub(super) fn any_in(text: &str, sets: Sets) -> bool {
    forms().any_in(text, sets)
}

/// Words that take the pass out of a value: it was not run, may pass, or failed.
const NOT_A_PASS: &[&str] = &[
    "not",
    "n't",
    "never",
    // "ایک فیل": the loanword "fail" in Urdu and Persian script.
    "فیل",
    "skipped",
    "skip",
    "pending",
    "todo",
    "n/a",
    "would",
    "should",
    "might",
    "may",
    "nicht",
    "übersprungen",
    "sollte",
    "pas",
    "ignoré",
    "devrait",
    "omitido",
    "debería",
    "non ",
    "saltato",
    "dovrebbe",
    "pulado",
    "deveria",
    "niet",
    "overgeslagen",
    "zou",
    "не ",
    "пропущ",
    "должн",
    "未",
    "スキップ",
    "はず",
    "跳过",
    "應該",
    "应该",
    "안 ",
    "못",
    "건너뛰",
    "예정",
    "nie ",
    "pominięt",
    "değil",
    "atlandı",
    "chưa",
    "bỏ qua",
    "tidak",
    "belum",
    "dilewati",
    "pendiente",
    "pendente",
    "in sospeso",
    "ausstehend",
    "en attente",
    "в ожидании",
    "очікує",
    "oczekuje",
    "beklemede",
    "待定",
    "保留中",
    "대기",
    "लंबित",
    "معلق",
    "εκκρεμ",
    "väntar",
    "čeká",
];

/// Words that keep an item that leads with a path from saying the file is there: it is
/// gone, planned, someone else's, or not made ("- `docs/faq.md` — not needed").
const NOT_THERE: &[&str] = &[
    "not",
    "n't",
    "no",
    "never",
    "without",
    "unchanged",
    "untouched",
    "removed",
    "deleted",
    "gone",
    "missing",
    "planned",
    "todo",
    "later",
    "would",
    "should",
    "will",
    "optional",
    "ignored",
    "gitignored",
    "skipped",
    "left",
    "you",
    "your",
    "yourself",
    "create",
    "renamed",
    "moved",
    "deprecated",
    "absent",
    "none",
];

/// Words that keep a sentence's paths from being claims that they are there: besides
/// the words that deny it ([`NOT_THERE`]), plans, instructions and examples.
const NOT_A_REPORT: &[&str] = &[
    "next",
    "could",
    "can",
    "run",
    "if",
    "when",
    "once",
    "until",
    "e.g",
    "example",
    "such as",
    "like",
    "instead",
    "pattern",
    "glob",
    "need",
    "needs",
    "want",
    "suggest",
    "recommend",
    "consider",
    "add",
    "check",
    "see",
    "read",
    "open",
    "try",
    "use",
];

/// The bytes a text holds: a form whose first byte it lacks cannot stand in it (a test of
/// one bit before a search, for the thousands of forms a value is checked against). Taking
/// words out of the text keeps it a superset, so one set serves a value as it is cut.
pub(super) struct Bytes([u64; 4]);

impl Bytes {
    pub fn of(text: &str) -> Bytes {
        let mut set = [0u64; 4];
        for b in text.bytes() {
            set[usize::from(b >> 6)] |= 1 << (b & 63);
        }
        Bytes(set)
    }

    /// Whether `form` may stand in the text.
    pub fn may_hold(&self, form: &str) -> bool {
        form.as_bytes()
            .first()
            .is_some_and(|&b| self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0)
    }
}

pub(super) use crate::audit::scan::find;

/// Where `word` first stands in `text` with no letter or digit on either side.
pub(super) fn has_word_at(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = find(&text[from..], word) {
        let at = from + i;
        let end = at + word.len();
        if text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
            && text[end..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric())
        {
            return Some(at);
        }
        from = end.max(at + 1);
    }
    None
}

/// Whether `form` stands in `text` ([`find`]).
pub(super) fn contains(text: &str, form: &str) -> bool {
    find(text, form).is_some()
}

/// How a table's form matches: as the tables do ([`Stem::is_in`]).
#[derive(Clone, Copy)]
enum Match {
    /// A whole word (forms written with a trailing space, and forms with no letter).
    Word,
    /// Anywhere (a script without case or spaces).
    Anywhere,
    /// At a word's start.
    WordStart,
}

/// A table's form, with how it matches worked out once.
#[derive(Clone, Copy)]
pub(super) struct Stem {
    pub text: &'static str,
    how: Match,
}

impl Stem {
    pub fn new(raw: &'static str) -> Option<Stem> {
        let text = raw.trim();
        if text.is_empty() {
            return None;
        }
        let how = if raw.ends_with(' ') || !text.chars().any(char::is_alphabetic) {
            Match::Word
        } else if !text
            .chars()
            .any(|c| c.is_ascii_alphabetic() || c.is_lowercase())
        {
            Match::Anywhere
        } else {
            Match::WordStart
        };
        Some(Stem { text, how })
    }

    /// Whether the form stands in `text` (lower-cased, folded).
    pub fn is_in(&self, text: &str) -> bool {
        match self.how {
            Match::Word => has_word(text, self.text),
            Match::Anywhere => contains(text, self.text),
            Match::WordStart => {
                let mut from = 0;
                while let Some(i) = find(&text[from..], self.text) {
                    let at = from + i;
                    if text[..at]
                        .chars()
                        .next_back()
                        .is_none_or(|c| !c.is_alphanumeric())
                    {
                        return true;
                    }
                    from = at + self.text.len();
                }
                false
            }
        }
    }
}

/// Every table's words for a passed check, as [`Stem`]s.
pub(super) fn passed_stems() -> &'static [Stem] {
    static STEMS: OnceLock<Vec<Stem>> = OnceLock::new();
    STEMS.get_or_init(|| {
        LANGS
            .iter()
            .flat_map(|l| l.passed.iter().copied())
            .filter_map(Stem::new)
            .collect()
    })
}

/// Every table's words for a clean check ("sauber", "ok", "干净"), as [`Stem`]s.
pub(super) fn clean_stems() -> &'static [Stem] {
    static STEMS: OnceLock<Vec<Stem>> = OnceLock::new();
    STEMS.get_or_init(|| {
        LANGS
            .iter()
            .flat_map(|l| l.clean.iter().copied())
            .filter_map(Stem::new)
            .collect()
    })
}

/// Whether `w` stands in `text` as a word of its own (scripts without spaces: anywhere).
pub(super) fn has_word(text: &str, w: &str) -> bool {
    if !w.is_ascii() && !w.chars().any(|c| c.is_alphabetic() && c.is_lowercase()) {
        return contains(text, w);
    }
    let mut from = 0;
    while let Some(i) = find(&text[from..], w) {
        let at = from + i;
        let end = at + w.len();
        let starts = text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let ends = text[end..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric() || !w.is_ascii());
        if starts && ends {
            return true;
        }
        from = end;
    }
    false
}

/// A list of phrases indexed by their first character, for readers that look for any of
/// a hundred phrases in every sentence: one pass over the text, not one search per phrase.
pub(in crate::audit) struct Phrases {
    by_first: FastMap<char, Vec<&'static str>>,
}

impl Phrases {
    pub(in crate::audit) fn new(list: &[&'static str]) -> Phrases {
        let mut by_first: FastMap<char, Vec<&'static str>> = FastMap::default();
        for p in list {
            if let Some(c) = p.chars().next() {
                by_first.entry(c).or_default().push(p);
            }
        }
        // The longest first: "still in place" before "still".
        for v in by_first.values_mut() {
            v.sort_by_key(|p| std::cmp::Reverse(p.len()));
        }
        Phrases { by_first }
    }

    /// The first phrase that stands in `text` (lower-cased): at a word's start where the
    /// phrase begins with a letter of a spaced script.
    pub(in crate::audit) fn find_in(&self, text: &str) -> Option<&'static str> {
        self.find(text, false)
    }

    /// [`Phrases::find_in`], and at a word's end too where the phrase ends with a letter or
    /// digit of ASCII ("hep" is not "hepsi", "first" not "firstname").
    pub(in crate::audit) fn find_word_in(&self, text: &str) -> Option<&'static str> {
        self.find(text, true)
    }

    fn find(&self, text: &str, whole: bool) -> Option<&'static str> {
        let mut prev: Option<char> = None;
        for (i, c) in text.char_indices() {
            let at_start = prev.is_none_or(|p| !p.is_alphanumeric());
            prev = Some(c);
            let Some(candidates) = self.by_first.get(&c) else {
                continue;
            };
            for p in candidates {
                let ends = || {
                    !whole
                        || !p.ends_with(|e: char| e.is_ascii_alphanumeric())
                        || !text[i + p.len()..].starts_with(char::is_alphanumeric)
                };
                if (at_start || !c.is_ascii_alphabetic()) && text[i..].starts_with(p) && ends() {
                    return Some(p);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::Phrases;

    #[test]
    fn phrases_stand_at_a_words_start_and_for_whole_words_at_its_end_too() {
        let p = Phrases::new(&["hep", "still in place", "still", "空"]);
        assert_eq!(p.find_in("hepsi geçti"), Some("hep"));
        assert_eq!(p.find_word_in("hepsi geçti"), None);
        assert_eq!(p.find_word_in("testler hep geçti"), Some("hep"));
        assert_eq!(
            p.find_in("the file is still in place"),
            Some("still in place")
        );
        assert_eq!(p.find_in("distilled"), None);
        // A script without spaces has no word edges.
        assert_eq!(p.find_word_in("列表为空了"), Some("空"));
    }
}
