//! Claims in languages other than English, read through one table per language.
//!
//! Agents answer in the user's language. The English reader ([`super::claims`]) knows
//! English word order in depth; every other language is read here by one reader driven by
//! a [`Lang`] table: the forms that claim a file changed, was created, deleted or renamed,
//! the words for tests, builds, linters and formatters and for their passing, commits and
//! pushes, negation, modality (plans, offers, questions, conditions), actors other than
//! the agent, and headings whose lists are not claims. A table holds the forms agents
//! really write (perfect and past forms, dropped subjects, status bullets), not a word by
//! word translation of the English one.
//!
//! The reading is per clause: a negation or another actor voids its clause only, a modal
//! word its sentence. A verb in one clause reaches the paths listed in the clauses after
//! it ("habe Folgendes geändert: `a.rs`, `b.rs`"). Languages written without spaces
//! (Japanese, Chinese; Korean's endings attach to the stem) match their forms anywhere in
//! the clause and need a completion mark (`しました`, `了`, `했`) for a change to be
//! claimed. What no table covers is said once, as a notice, never blocked.

mod ar;
mod ca;
mod cs;
mod da;
mod de;
mod el;
mod en;
mod es;
mod fi;
mod fr;
mod hi;
mod hu;
mod id;
mod it;
mod ja;
mod ko;
mod nb;
mod nl;
mod pl;
mod pt;
mod ro;
mod ru;
mod sk;
mod sv;
mod tr;
mod uk;
mod vi;
mod zh;
// Hebrew, Persian, Thai, Bengali, Malay.
mod bn;
mod fa;
mod he;
mod ms;
mod th;
// Croatian, Estonian, Swahili, Tagalog, Lithuanian, Latvian, Slovenian, Bulgarian.
mod bg;
mod et;
mod hr;
mod lt;
mod lv;
mod sl;
mod sw;
mod tl;
// Georgian, Armenian, Amharic, Sinhala, Khmer, Telugu.
mod am;
mod hy;
mod ka;
mod km;
mod si;
mod te;
// Welsh, Basque, Icelandic, Azerbaijani, Uzbek, Kazakh.
mod az;
mod cy;
mod eu;
mod is;
mod kk;
mod uz;

use super::fast_hash::{FastMap, FastSet};
use super::vocab::{self, Change, Claim, Kind, Reading};
use std::cell::Cell;

/// What a language's agents write when they claim something, as data.
pub struct Lang {
    /// ISO 639-1 code.
    pub code: &'static str,
    /// The language's English name, for messages.
    pub name: &'static str,
    /// Words are separated by spaces: a form matches at a word's start (a stem reaches
    /// its endings). Otherwise a form matches anywhere.
    pub spaced: bool,
    /// Frequent words of agents' prose in the language, to tell it from the others.
    pub markers: &'static [&'static str],
    /// Forms that claim a file was changed, created, deleted, renamed or moved.
    pub modified: &'static [&'static str],
    pub created: &'static [&'static str],
    pub deleted: &'static [&'static str],
    pub renamed: &'static [&'static str],
    /// Words that, next to a path, make a deletion one from inside the file ("removed
    /// the import from `a.rs`"): the file changed, it was not deleted.
    pub from: &'static [&'static str],
    /// For languages without spaces: marks that the action is done (a form of the past
    /// or perfective); a change verb without one is a plan or a description.
    pub done: &'static [&'static str],
    /// Done marks that open the verb phrase, at any distance before the verb ("已将 `a`
    /// 重命名为 `b`").
    pub done_before: &'static [&'static str],
    /// Continuative endings: the verb is done when the sentence ends done ("`a.py` を修正
    /// し、`b.md` を作成しました").
    pub continuative: &'static [&'static str],
    /// Particles that make the next word a noun (の, 的, 의): with a reading verb in the
    /// clause, the change word after one is what was read.
    pub nominal: &'static [&'static str],
    /// The word for "file": a deletion of "the file `x`" is the file's.
    pub file_words: &'static [&'static str],
    pub negations: &'static [&'static str],
    /// Plans, offers, wishes, conditions, proposals: the sentence claims nothing.
    pub modal: &'static [&'static str],
    /// Actors other than the agent (the user, CI, a colleague, a passive's "by the
    /// user"): the clause is theirs.
    pub others: &'static [&'static str],
    /// Words that place the clause before this turn ("bereits", "déjà", "以前"): a state
    /// found, not a change made.
    pub earlier: &'static [&'static str],
    /// Verbs of reading and reviewing: with one, a change word after a noun particle
    /// (`の変更をレビュー`, `的修改进行了审查`, `의 변경 사항을 검토`) is what was read.
    pub read: &'static [&'static str],
    pub tests: &'static [&'static str],
    pub build: &'static [&'static str],
    pub lint: &'static [&'static str],
    pub format: &'static [&'static str],
    /// Forms that say a check passed or succeeded.
    pub passed: &'static [&'static str],
    /// Phrases that say a check found nothing ("keine Warnungen", "没有错误"): a success
    /// despite the negation in them.
    pub clean: &'static [&'static str],
    /// Forms that say a check failed: the clause reports a failure, not a pass.
    pub failed: &'static [&'static str],
    /// Forms that say the tree was formatted (by the formatter, or by hand).
    pub formatted: &'static [&'static str],
    pub committed: &'static [&'static str],
    pub pushed: &'static [&'static str],
    /// Number words agents write for small counts (digits are read everywhere).
    pub numbers: &'static [(&'static str, u64)],
    /// Words that split a sentence into clauses ("aber", "但是") besides punctuation.
    pub joins: &'static [&'static str],
    /// Heading words whose list is not the agent's claims (next steps, not changed).
    pub not_claims_headings: &'static [&'static str],
    /// Third-person forms ("hizo commit", "creó", "löschte"): what another did. Read only
    /// in a message that names a subagent, whose work the parent relays as its own claim;
    /// elsewhere they tell history ("Dana creó `src/retry.rs` en marzo").
    pub relayed: Relayed,
}

/// A table's third-person forms, by the field they join when read ([`Lang::relayed`]).
pub struct Relayed {
    pub modified: &'static [&'static str],
    pub created: &'static [&'static str],
    pub deleted: &'static [&'static str],
    pub renamed: &'static [&'static str],
    pub committed: &'static [&'static str],
    pub pushed: &'static [&'static str],
    pub formatted: &'static [&'static str],
}

impl Relayed {
    pub const NONE: Relayed = Relayed {
        modified: &[],
        created: &[],
        deleted: &[],
        renamed: &[],
        committed: &[],
        pushed: &[],
        formatted: &[],
    };

    fn is_empty(&self) -> bool {
        [
            self.modified,
            self.created,
            self.deleted,
            self.renamed,
            self.committed,
            self.pushed,
            self.formatted,
        ]
        .iter()
        .all(|f| f.is_empty())
    }
}

/// Words that name an agent the parent delegated to ("the subagent", "der Subagent", "el
/// subagente", "サブエージェント", "子代理"), in the tables' languages.
const AGENT_WORDS: &[&str] = &[
    "agent",
    "agenc",
    "агент",
    "エージェント",
    "代理",
    "에이전트",
    "סוכן",
    "وكيل",
    "الوكيل",
    "ایجنت",
    "عامل",
    "एजेंट",
    "এজেন্ট",
    "เอเจนต์",
    "πράκτορ",
    "wakala",
    "ahente",
    "aģent",
    "agens",
    // Malay and Indonesian "subagen".
    "subagen",
    "sub-agen",
    "აგენტ",
    "ագենտ",
    "գործակալ",
    "ኤጀን",
    "ወኪል",
    "ወኪሉ",
    "ඒජන්ත",
    "නියෝජිත",
    "ភ្នាក់ងារ",
    "ఏజెంట్",
];

/// The first `n` characters of `text`.
fn head_chars(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

/// Whether a message names an agent it delegated to.
pub(crate) fn names_an_agent(message: &str) -> bool {
    // Compounds glue the word on ("Aliagentti", "Alamagent", "Apakšaģents"); the short
    // ones stand at a word's start: "ajan" is Turkish for agent, and inside "spajanje"
    // (Serbian, merging) it is nothing.
    static AT_START: std::sync::OnceLock<crate::audit::rows::forms::Phrases> =
        std::sync::OnceLock::new();
    let lower = message.to_lowercase();
    AGENT_WORDS.iter().any(|w| lower.contains(w))
        || AT_START
            .get_or_init(|| crate::audit::rows::forms::Phrases::new(&["ajan", "ajen"]))
            .find_in(&lower)
            .is_some()
}

/// `lang` with its third-person forms joined to their fields: built once per table, for
/// a message that names a subagent.
fn with_relays(lang: &'static Lang) -> &'static Lang {
    static BUILT: std::sync::Mutex<Vec<(&'static str, &'static Lang)>> =
        std::sync::Mutex::new(Vec::new());
    if lang.relayed.is_empty() {
        return lang;
    }
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, l)) = built.iter().find(|(code, _)| *code == lang.code) {
        return l;
    }
    let join = |own: &'static [&'static str], more: &'static [&'static str]| {
        let all: Vec<&'static str> = own.iter().chain(more).copied().collect();
        &*Box::leak(all.into_boxed_slice())
    };
    let r = &lang.relayed;
    let l: &'static Lang = Box::leak(Box::new(Lang {
        modified: join(lang.modified, r.modified),
        created: join(lang.created, r.created),
        deleted: join(lang.deleted, r.deleted),
        renamed: join(lang.renamed, r.renamed),
        committed: join(lang.committed, r.committed),
        pushed: join(lang.pushed, r.pushed),
        formatted: join(lang.formatted, r.formatted),
        relayed: Relayed::NONE,
        ..*lang
    }));
    built.push((lang.code, l));
    l
}

/// Every language with a table, English first (its words only tell it apart; its claims
/// are read by the English reader).
pub const LANGS: &[&Lang] = &[
    &en::EN,
    // Croatian and Slovenian before Slovak, Czech and Polish, Estonian before Finnish,
    // Lithuanian and Latvian before Polish, Swahili and Tagalog before Malay and Indonesian:
    // a message that scores alike is read as the older table read it (NEIGHBOURS tells them
    // apart by letters and words).
    &hr::HR,
    &sl::SL,
    &et::ET,
    &lt::LT,
    &lv::LV,
    &sw::SW,
    &tl::TL,
    // Welsh before English's neighbours, Basque before Spanish and French, Icelandic before
    // Swedish, Danish and Norwegian, Uzbek and Azerbaijani before Turkish: a message that
    // scores alike is read as the older table read it (NEIGHBOURS tells them apart).
    &cy::CY,
    &eu::EU,
    &is::IS,
    &uz::UZ,
    &az::AZ,
    // The tables added later stand before the older ones of their script: a message that
    // scores alike in both is read as it was before them. Norwegian after Danish: a
    // message both could be ("Jeg har slettet filen") is read as Norwegian; the tables
    // read it alike.
    // Slovak before Czech, Catalan before Spanish and French, Romanian before Italian and
    // Portuguese: their neighbours' letters and words tell them apart (NEIGHBOURS).
    &fi::FI,
    &hu::HU,
    &ro::RO,
    &sk::SK,
    &ca::CA,
    &sv::SV,
    &da::DA,
    &nb::NB,
    &cs::CS,
    &de::DE,
    &fr::FR,
    &es::ES,
    &pt::PT,
    &it::IT,
    &nl::NL,
    &ru::RU,
    &uk::UK,
    &pl::PL,
    &tr::TR,
    &vi::VI,
    // Malay before Indonesian: a message that scores alike in both is read as Indonesian.
    &ms::MS,
    &id::ID,
    &ja::JA,
    &zh::ZH,
    &ko::KO,
    &hi::HI,
    &ar::AR,
    &el::EL,
    &he::HE,
    &fa::FA,
    &th::TH,
    &bn::BN,
    // Each told by a script of its own (Amharic's shared with Tigrinya: by its words).
    &ka::KA,
    &hy::HY,
    &am::AM,
    &si::SI,
    &km::KM,
    &te::TE,
    // Told by its script and words ([`bulgarian`], [`kazakh`]), not by its place.
    &bg::BG,
    &kk::KK,
];

/// The language a message is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detected {
    English,
    Known(&'static Lang),
    /// Written in a script or language no table covers.
    Unknown(&'static str),
}

impl std::fmt::Debug for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lang({})", self.code)
    }
}

impl PartialEq for Lang {
    fn eq(&self, other: &Lang) -> bool {
        self.code == other.code
    }
}
impl Eq for Lang {}

/// The message's prose: fenced blocks and code spans out, the rest lower-cased with
/// full-width digits and punctuation folded to ASCII.
fn prose(message: &str) -> String {
    let mut out = String::new();
    let mut fence = false;
    for line in message.lines() {
        if line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
                out.push(' ');
            } else if !in_code {
                out.push(c);
            }
        }
        out.push('\n');
    }
    fold(&out.to_lowercase())
}

/// Full-width digits and sentence marks as their ASCII forms (Japanese and Chinese
/// writers use both).
pub fn fold(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            // Arabic-Indic, Persian, Bengali and Thai digits.
            '٠'..='٩' => char::from(b'0' + (c as u32 - '٠' as u32) as u8),
            '۰'..='۹' => char::from(b'0' + (c as u32 - '۰' as u32) as u8),
            '০'..='৯' => char::from(b'0' + (c as u32 - '০' as u32) as u8),
            '๐'..='๙' => char::from(b'0' + (c as u32 - '๐' as u32) as u8),
            // Khmer, Telugu and Sinhala digits.
            '០'..='៩' => char::from(b'0' + (c as u32 - '០' as u32) as u8),
            '౦'..='౯' => char::from(b'0' + (c as u32 - '౦' as u32) as u8),
            '෦'..='෯' => char::from(b'0' + (c as u32 - '෦' as u32) as u8),
            '／' => '/',
            '：' => ':',
            _ => c,
        })
        .collect()
}

/// The script most of the message's letters are written in.
fn script(text: &str) -> Option<&'static str> {
    let mut counts: [(&str, usize); 17] = [
        ("latin", 0),
        ("kana", 0),
        ("han", 0),
        ("hangul", 0),
        ("cyrillic", 0),
        ("greek", 0),
        ("arabic", 0),
        ("hebrew", 0),
        ("devanagari", 0),
        ("thai", 0),
        ("bengali", 0),
        ("georgian", 0),
        ("armenian", 0),
        ("ethiopic", 0),
        ("sinhala", 0),
        ("khmer", 0),
        ("telugu", 0),
    ];
    // A bare path or identifier ("package.json에", "src/cli.js") is no word of the
    // message's language: its ASCII letters are not counted.
    let letters = text.split_whitespace().flat_map(|w| {
        let code = w.contains(['.', '/', '_']) && w.chars().any(|c| c.is_ascii_alphabetic());
        w.chars()
            .filter(move |c| c.is_alphabetic() && !(code && c.is_ascii()))
    });
    for c in letters {
        let i = match c as u32 {
            0x41..=0x24F | 0x1E00..=0x1EFF => 0,
            0x3040..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => 1,
            0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0xF900..=0xFAFF => 2,
            0xAC00..=0xD7AF | 0x1100..=0x11FF | 0x3130..=0x318F => 3,
            0x400..=0x4FF => 4,
            0x370..=0x3FF | 0x1F00..=0x1FFF => 5,
            0x600..=0x6FF | 0x750..=0x77F => 6,
            0x590..=0x5FF => 7,
            0x900..=0x97F => 8,
            0xE00..=0xE7F => 9,
            0x980..=0x9FF => 10,
            0x10A0..=0x10FF | 0x1C90..=0x1CBF | 0x2D00..=0x2D2F => 11,
            0x530..=0x58F | 0xFB13..=0xFB17 => 12,
            0x1200..=0x139F | 0x2D80..=0x2DDF | 0xAB00..=0xAB2F => 13,
            0xD80..=0xDFF => 14,
            0x1780..=0x17FF | 0x19E0..=0x19FF => 15,
            0xC00..=0xC7F => 16,
            _ => continue,
        };
        counts[i].1 += 1;
    }
    let total: usize = counts.iter().map(|c| c.1).sum();
    if total == 0 {
        return None;
    }
    // Japanese is written in kana and kanji: any share of kana makes Han text Japanese.
    let kana = counts[1].1;
    let han = counts[2].1;
    if kana * 20 >= total && kana > 0 {
        return Some("kana");
    }
    if han * 4 >= total {
        return Some("han");
    }
    counts
        .iter()
        .filter(|(_, n)| *n * 3 >= total)
        .max_by_key(|(_, n)| *n)
        .map(|(s, _)| *s)
}

/// Whether a word of `text` is one of `lang`'s marker words (for a script several
/// languages share).
fn uses_markers(lang: &Lang, text: &str) -> bool {
    text.split(|c: char| {
        c.is_whitespace()
            || c.is_ascii_punctuation()
            || matches!(
                c,
                '।' | '॥' | '،' | '؛' | '؟' | '።' | '፣' | '፤' | '፥' | '፦' | '፧'
            )
    })
    .any(|w| lang.markers.contains(&w))
}

/// Whether Arabic-script text is Persian or Urdu: their letters (ی, ک, گ, پ, چ, ژ, ے, ں,
/// ہ, ھ, ٹ, ڈ, ڑ) outnumber the Arabic forms of yeh, kaf and teh marbuta (ي, ك, ة, ى).
fn persian(text: &str) -> bool {
    let count = |set: &str| text.chars().filter(|c| set.contains(*c)).count();
    count("یکگپچژےںہھٹڈڑ") > count("يكةى")
}

/// Letters of Urdu (ے, ٹ, ڈ, ڑ, ں, ہ), Pashto (ټ, ډ, ړ, ږ, ښ, ګ, ڼ, ې, ۍ), Sorani Kurdish (ە,
/// ڕ, ڵ, ۆ, ێ) and Uyghur (ۇ, ۈ, ۋ) that Persian does not write.
const NOT_PERSIAN: [char; 23] = [
    'ے', 'ٹ', 'ڈ', 'ڑ', 'ں', 'ہ', 'ټ', 'ډ', 'ړ', 'ږ', 'ښ', 'ګ', 'ڼ', 'ې', 'ۍ', 'ە', 'ڕ', 'ڵ', 'ۆ',
    'ێ', 'ۇ', 'ۈ', 'ۋ',
];

/// Whether Hebrew-script text is Yiddish: its digraphs (װ, ײ, ױ), its pointed alef (אַ, אָ)
/// or its words.
fn yiddish(text: &str) -> bool {
    const WORDS: &[&str] = &[
        "און",
        "איז",
        "פון",
        "זענען",
        "האב",
        "ניט",
        "נישט",
        "דער",
        "דאס",
        "איך",
    ];
    text.contains(['װ', 'ײ', 'ױ'])
        || text.contains("א\u{5b7}")
        || text.contains("א\u{5b8}")
        || text
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| WORDS.contains(&w))
}

/// Whether Ethiopic-script text is Tigrinya's rather than Amharic's: its words ("እዩ",
/// "ኣብ", "ካብ", "ምስ") and its ኣ, which Amharic writes as አ, outnumber Amharic's words.
fn tigrinya(text: &str) -> bool {
    const WORDS: &[&str] = &[
        "እዩ",
        "እያ",
        "ኣብ",
        "ካብ",
        "ምስ",
        "ኩሉ",
        "ኩሎም",
        "እቲ",
        "ኣሎ",
        "ኣለዉ",
        "ነይሩ",
        "ከምኡ",
        "ግና",
        "ድማ",
        "እንተ",
        "ንምርኣይ",
        "ኣይ",
    ];
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let tigrinya = words.iter().filter(|w| WORDS.contains(w)).count()
        + text.chars().filter(|&c| c == 'ኣ').count();
    let amharic = words.iter().filter(|w| am::AM.markers.contains(w)).count();
    tigrinya > amharic
}

/// Whether Cyrillic text is Ukrainian: its letters (і, ї, є, ґ), its words ("що", "та",
/// "чи", "вони") and its past forms ("оновив", "запускав"; Russian "обновил", "запускал")
/// outnumber Russian's (ы, э, ъ, ё; "что", "и", "они"). Belarusian (ў) is neither.
fn ukrainian(text: &str) -> bool {
    const UK_WORDS: &[&str] = &[
        "що",
        "та",
        "й",
        "як",
        "вже",
        "ще",
        "усі",
        "всі",
        "з",
        "зі",
        "чи",
        "вони",
        "він",
        "вона",
        "тому",
        "досі",
        "також",
        "лише",
        "або",
        "але",
        "цей",
        "ця",
        "ці",
        "який",
        "яка",
        "які",
        "коли",
        "тепер",
        "зараз",
        "щоб",
        "бо",
        "був",
        "була",
    ];
    const RU_WORDS: &[&str] = &[
        "и",
        "что",
        "как",
        "уже",
        "ещё",
        "еще",
        "все",
        "с",
        "из",
        "это",
        "или",
        "но",
        "они",
        "он",
        "она",
        "когда",
        "теперь",
        "сейчас",
        "чтобы",
        "также",
        "только",
        "был",
        "была",
        "этот",
        "эти",
        "какой",
        "поэтому",
    ];
    let letters = |set: &str| text.chars().filter(|c| set.contains(*c)).count();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let listed = |set: &[&str]| words.iter().filter(|w| set.contains(w)).count();
    // Past forms differ too: "оновив", "створив" are not "обновил", "создал"; and the
    // masculine past ends in -в where Russian's ends in -л ("запускав", "запускал").
    let forms = |lang: &'static Lang| {
        let index = Index::new(lang);
        words.iter().filter(|w| index.is_form(w)).count()
    };
    let past_v = words
        .iter()
        .filter(|w| {
            w.chars().count() >= 5 && ["ав", "ив", "ув", "ів"].iter().any(|e| w.ends_with(e))
        })
        .count();
    !text.contains('ў')
        && letters("іїєґ") + listed(UK_WORDS) + forms(&uk::UK) + past_v
            > letters("ыэъё") + listed(RU_WORDS) + forms(&ru::RU)
}

/// Whether Cyrillic text is Kazakh: its own letters (ә, ғ, қ, ң, ө, ұ, ү, һ), which no
/// other table's language writes, and its words ("және", "үшін", "емес", "жоқ") outnumber
/// the words only Russian or Ukrainian write ("что", "это", "и", "що"). A Russian message
/// that names a Kazakh place keeps its many function words.
fn kazakh(text: &str) -> bool {
    const KK_WORDS: &[&str] = &[
        "және",
        "мен",
        "үшін",
        "бұл",
        "барлық",
        "барлығы",
        "емес",
        "жоқ",
        "тесттер",
        "тесттерді",
        "файлын",
        "файлды",
        "енді",
        "қазір",
        "бірақ",
        "әлі",
    ];
    const RU_UK_WORDS: &[&str] = &[
        "и",
        "что",
        "это",
        "все",
        "как",
        "уже",
        "или",
        "но",
        "только",
        "также",
        "был",
        "была",
        "были",
        "есть",
        "що",
        "та",
        "всі",
        "це",
        "вже",
    ];
    let letters = text.chars().filter(|c| "әғқңөұүһ".contains(*c)).count();
    if letters == 0 {
        return false;
    }
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let listed = |set: &[&str]| words.iter().filter(|w| set.contains(w)).count();
    letters + listed(KK_WORDS) > listed(RU_UK_WORDS) * 2
}

/// Whether Cyrillic text is Bulgarian: none of Russian's or Ukrainian's own letters (ы, э,
/// ё, і, ї, є, ґ), and its words ("са", "съм", "всички", "тестове", "вече", "това") and
/// its ъ inside a word ("със", "към", "съм"; Russian writes it after a prefix only) and
/// its claim forms outnumber the words only Russian or Ukrainian write ("что", "это", "все",
/// "що", "та") and their claim forms.
fn bulgarian(text: &str) -> bool {
    const BG_WORDS: &[&str] = &[
        "са",
        "съм",
        "сме",
        "е",
        "всички",
        "тестове",
        "тестовете",
        "файла",
        "файлът",
        "промените",
        "беше",
        "бяха",
        "вече",
        "също",
        "сега",
        "това",
        "този",
        "тази",
        "тези",
        "които",
        "който",
        "която",
        "ще",
        "от",
        "във",
        "със",
        "към",
        "няма",
        "грешки",
        "минаха",
        "се",
        "един",
        "една",
        "едно",
    ];
    const RU_UK_WORDS: &[&str] = &[
        "что",
        "это",
        "как",
        "уже",
        "все",
        "они",
        "был",
        "была",
        "были",
        "есть",
        "только",
        "также",
        "тесты",
        "файл",
        "що",
        "та",
        "всі",
        "усі",
        "вже",
        "також",
        "тести",
    ];
    if text.contains(['ы', 'э', 'ё', 'і', 'ї', 'є', 'ґ', 'ў']) {
        return false;
    }
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let listed = |set: &[&str]| words.iter().filter(|w| set.contains(w)).count();
    // ъ inside a word, not after a prefix before a vowel ("объект", "подъезд").
    let hard = words
        .iter()
        .filter(|w| {
            let chars: Vec<char> = w.chars().collect();
            chars
                .iter()
                .enumerate()
                .any(|(i, &c)| c == 'ъ' && !chars.get(i + 1).is_some_and(|n| "еёюя".contains(*n)))
        })
        .count();
    // Claim forms too: "създадох", "преименувах" are not "создал", "переименовал".
    let forms = |lang: &'static Lang| {
        let index = Index::new(lang);
        words.iter().filter(|w| index.is_form(w)).count()
    };
    // Bulgarian "все още", "все пак" (still, yet) are not Russian "все" (all).
    let still = words
        .windows(2)
        .filter(|w| w[0] == "все" && matches!(w[1], "още" | "пак"))
        .count();
    listed(BG_WORDS) + hard + forms(&bg::BG)
        > listed(RU_UK_WORDS) - still + forms(&ru::RU).max(forms(&uk::UK))
}

/// A language's one-word claim forms of three letters or more ("modifiqué", "gepusht").
fn word_forms(lang: &Lang) -> Vec<&'static str> {
    word_forms_iter(lang).collect()
}

/// A word as [`scores`] looks it up: without the punctuation around it.
fn trim_word(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric())
}

/// A word's first two characters, when it has two.
fn first_two(w: &str) -> Option<(char, char)> {
    let mut chars = w.chars();
    Some((chars.next()?, chars.next()?))
}

/// [`word_forms`] without collecting them.
fn word_forms_iter(lang: &Lang) -> impl Iterator<Item = &'static str> {
    [
        lang.modified,
        lang.created,
        lang.deleted,
        lang.renamed,
        lang.negations,
        lang.modal,
        lang.passed,
        lang.failed,
        lang.committed,
        lang.pushed,
        lang.tests,
        lang.earlier,
        lang.read,
        // Third-person forms are the language's words, relayed or not.
        lang.relayed.modified,
        lang.relayed.created,
        lang.relayed.deleted,
        lang.relayed.renamed,
        lang.relayed.committed,
        lang.relayed.pushed,
    ]
    .into_iter()
    .flatten()
    .copied()
    .map(str::trim_end)
    .filter(|f| !f.contains(' ') && f.chars().count() >= 3)
}

/// A table's word forms by first letter, for telling close languages apart (Russian,
/// Ukrainian and Bulgarian by their claim forms).
struct Index {
    lang: &'static Lang,
    forms: FastMap<char, Vec<&'static str>>,
}

impl Index {
    fn new(lang: &'static Lang) -> Index {
        let mut forms: FastMap<char, Vec<&'static str>> = Default::default();
        for f in word_forms(lang) {
            if let Some(c) = f.chars().next() {
                forms.entry(c).or_default().push(f);
            }
        }
        Index { lang, forms }
    }

    /// Whether `word` is one of the language's claim forms (English's are whole words:
    /// "pass" is not the stem of "passaram").
    fn is_form(&self, word: &str) -> bool {
        let Some(first) = word.chars().next() else {
            return false;
        };
        self.forms.get(&first).is_some_and(|forms| {
            forms.iter().any(|f| {
                if self.lang.code == "en" {
                    *f == word
                } else {
                    // A stem reaches its endings, not another language's longer word
                    // ("modificat" is not French "modifications").
                    word.starts_with(f) && word.chars().count() <= f.chars().count() + 3
                }
            })
        })
    }
}

/// Letters and words that tell close languages apart where their claim forms do not: a
/// table whose neighbours' letters and words outnumber its own letters in the prose is not
/// the prose's language (Slovak's ô, ä, ľ, "som", "súbor" are not Czech's ě, ř, ů;
/// Norwegian and Danish æ, ø, "jeg", "ikke" are not Swedish, nor Swedish ä, ö, "jag",
/// "och" Norwegian or Danish).
const NEIGHBOURS: &[(&str, &str, &str, &[&str])] = &[
    // Azerbaijani writes ə, which Turkish does not: Turkish words outnumbering its ə make a
    // message Turkish.
    (
        "az",
        "ə",
        "",
        &[
            "ve",
            "için",
            "değil",
            "şimdi",
            "dosya",
            "dosyası",
            "dosyasını",
            "dosyayı",
            "ile",
            "testler",
            "testleri",
            "tüm",
            "değişiklik",
            "değişiklikler",
            "yok",
            "olarak",
            "başarıyla",
            "geçti",
        ],
    ),
    // Turkish is not Azerbaijani (ə) nor Uzbek: their words make a message theirs.
    (
        "tr",
        "",
        "ə",
        &[
            "və",
            "üçün",
            "deyil",
            "fayl",
            "faylı",
            "faylını",
            "testlər",
            "yox",
            "ilə",
            "va",
            "uchun",
            "emas",
            "barcha",
            "testlar",
            "faylni",
            "faylini",
        ],
    ),
    // Uzbek writes o' and g' (oʻ, o‘), none of Turkish's or Azerbaijani's ı, ş, ç, ğ, ö, ü, ə
    // nor another table's accents.
    (
        "uz",
        "ʻ‘",
        "əışçğöüâîûáéíóúàèìòùäëïãõœæøåčćđšžěřůłńśźżőűășțėįųūāēīķļņģþðñ",
        &[
            "ve", "için", "ile", "tüm", "dosya", "testler", "və", "üçün", "ilə",
        ],
    ),
    // Basque is written without accents: Spanish's and French's, and their words, make a
    // message theirs.
    (
        "eu",
        "",
        "áéíóúàèìòùâêîôûçœãõäöüß",
        &[
            "el", "la", "los", "las", "y", "que", "es", "con", "por", "para", "del", "se", "he",
            "ha", "le", "les", "et", "je", "est", "une", "des", "sur", "avec", "pas",
        ],
    ),
    // Welsh writes ŵ and ŷ, and none of the other tables' own letters.
    ("cy", "ŵŷ", "ñçãõœäöüøåæßčšžłąęőűășțışğəþð", &[]),
    // Icelandic writes þ and ð; Danish, Norwegian and Swedish write ø, å, ä and their
    // words.
    (
        "is",
        "þð",
        "øåäü",
        &[
            "jeg", "ikke", "jag", "inte", "och", "har", "det", "den", "filen", "testene",
            "testerna", "testerne",
        ],
    ),
    // Croatian (and Serbian, Bosnian) writes none of Czech's, Slovak's, Polish's or the
    // Romance languages' accents; Slovenian, which writes none either, by its words.
    (
        "hr",
        "ćđ",
        "áéíóúýěřůäľĺŕąęśźżńłãõçâêàèìòùñ",
        &[
            "sem",
            "smo",
            "so",
            "vsi",
            "vse",
            "testi",
            "tudi",
            "ki",
            "datoteko",
            "nisem",
            "še",
            "spremembe",
            "sprememb",
            "jsem",
            "jsme",
            "jsou",
            "som",
            "sú",
            "soubor",
            "súbor",
            "všechny",
            "všetky",
            "się",
            "jest",
            "są",
            "plik",
        ],
    ),
    // Slovenian writes none of those accents nor Croatian's ć, đ; Croatian's words are not
    // its own.
    (
        "sl",
        "",
        "ćđáéíóúýěřůôäľĺŕąęśźżńłãõçâêàèìòùñ",
        &[
            "sam", "su", "svi", "sve", "testovi", "testova", "datoteku", "nisam", "nije", "nisu",
            "promjene", "promene", "što", "šta", "također", "još", "jsem", "jsou", "som", "sú",
            "soubor", "súbor", "się", "jest", "są", "plik",
        ],
    ),
    // Estonian is not Finnish: Finnish words outnumbering its õ and ü.
    (
        "et",
        "õü",
        "å",
        &[
            "että",
            "kaikki",
            "myös",
            "tiedosto",
            "tiedoston",
            "tiedostoa",
            "tiedostot",
            "testit",
            "mutta",
            "koska",
            "eivät",
            "ovat",
            "olemme",
            "läpi",
            "sekä",
            "tai",
            "joten",
            "mitään",
            "nyt",
            "vielä",
        ],
    ),
    // Latvian is not Lithuanian (ė, į, ų, ą, ę) nor Polish.
    (
        "lv",
        "āēīķļņģ",
        "ėįųąęłóśćźż",
        &[
            "testai",
            "failą",
            "failas",
            "pakeitimai",
            "pakeitimus",
            "kad",
            "taip",
            "dabar",
            "yra",
            "nėra",
            "buvo",
            "się",
            "jest",
            "są",
            "plik",
            "wszystkie",
            "nie",
        ],
    ),
    // Swahili and Tagalog are written in ASCII (Tagalog's loans keep ñ): a message with
    // another language's accents is not theirs.
    ("sw", "", DIACRITICS, &[]),
    ("tl", "", DIACRITICS, &[]),
    // Lithuanian is not Latvian (ā, ē, ī, ķ, ļ, ņ) nor Polish (ł, ó, ś, ć, ź, ż).
    (
        "lt",
        "ėįųū",
        "āēģīķļņłóśćźż",
        &[
            "un",
            "esmu",
            "arī",
            "testi",
            "fails",
            "failu",
            "failā",
            "izmaiņas",
            "nav",
            "tiek",
            "tika",
            "się",
            "jest",
            "są",
            "plik",
            "wszystkie",
            "nie",
        ],
    ),
    (
        "cs",
        "ěřů",
        "ôäľĺŕłąęśźżń",
        &[
            "som",
            "sme",
            "sú",
            "sa",
            "súbor",
            "súboru",
            "súbory",
            "všetky",
            "všetko",
            "pre",
            "bol",
            "bola",
            "bolo",
            "boli",
            "ktorý",
            "ktorá",
            "ktoré",
            "alebo",
            "tiež",
            "ešte",
            "iba",
            "teraz",
            "nie",
            "się",
            "jest",
            "są",
            "plik",
            "pliku",
            "wszystkie",
        ],
    ),
    (
        "sk",
        "ôäľĺŕ",
        "ěřůłąęśźżń",
        &[
            "jsem",
            "jsme",
            "jsou",
            "soubor",
            "souboru",
            "soubory",
            "souborů",
            "všechny",
            "všechno",
            "není",
            "nejsou",
            "který",
            "která",
            "které",
            "také",
            "ještě",
            "protože",
            "když",
            "nebo",
            "pro",
            "się",
            "jest",
            "są",
            "plik",
            "pliku",
            "wszystkie",
        ],
    ),
    (
        "ca",
        "·ï",
        "áñìùâêîôûœãõășț",
        &[
            "y", "los", "las", "pero", "archivo", "pruebas", "todos", "todas", "ahora", "también",
            "está", "están", "hecho", "cambios", "hice", "ya", "je", "j", "ai", "est", "sont",
            "fichier", "avec", "il", "gli", "sono", "anche", "della", "tutti", "è", "não",
            "arquivo", "foi", "você", "os",
        ],
    ),
    // Spanish and French are not Catalan: its words and its l·l outnumbering their own
    // letters (á, ñ; â, ê, ô, œ) make a message Catalan.
    ("es", "áñ¿¡", "·", CATALAN_WORDS),
    ("fr", "âêîôûœëÿ", "·", CATALAN_WORDS),
    // Nor is Portuguese Hungarian (whose article "a" it writes too) or Romanian.
    (
        "pt",
        "ãõçâêô",
        "őűășțşţ",
        &[
            "és",
            "hogy",
            "az",
            "egy",
            "nem",
            "fájl",
            "fájlt",
            "ezért",
            "így",
            "și",
            "şi",
            "că",
            "să",
            "fișierul",
            "testele",
        ],
    ),
    (
        "ro",
        "ăâîșțşţ",
        "àèéìòùáóúçãõêñ",
        &[
            "il", "gli", "sono", "ho", "è", "della", "che", "tutti", "anche", "non", "os", "não",
            "foi", "arquivo", "testes", "los", "las", "y", "les", "et", "je", "est",
        ],
    ),
    (
        "sv",
        "åäö",
        "æøüßþð",
        &[
            "jeg", "ikke", "og", "af", "fra", "til", "hva", "hvad", "meg", "deg", "nå", "bare",
            "uten", "uden", "feil", "fejl", "ich", "und", "nicht", "ist", "sind", "die", "der",
            "das", "habe", "wurde", "wurden", "mit", "auf", "auch", "ein", "eine", "neuer",
        ],
    ),
    (
        "nb",
        "æø",
        "äöüßþð",
        &[
            "jag", "och", "inte", "från", "är", "ich", "und", "nicht", "ist",
        ],
    ),
    (
        "da",
        "æø",
        "äöüßþð",
        &[
            "jag", "och", "inte", "från", "är", "ich", "und", "nicht", "ist",
        ],
    ),
];

/// Accented letters of the Latin-script tables' languages.
const DIACRITICS: &str = "áéíóúýàèìòùâêîôûäëïöüÿãõçœæøåčćđšžěřůľĺŕąęłńśźżőűășțşţõėįųūāēīķļņģ";

/// Words of Catalan that Spanish and French do not write.
const CATALAN_WORDS: &[&str] = &[
    "amb", "els", "però", "fitxer", "fitxers", "proves", "també", "hem", "dels", "als", "aquest",
    "aquesta", "perquè", "vaig", "sense", "canvis", "totes", "tots", "és", "són", "següent",
];

/// Whether the prose's letters and words are a neighbour's of `lang` rather than its own.
fn foreign_letters(lang: &Lang, words: &[&str]) -> bool {
    NEIGHBOURS
        .iter()
        .find(|(code, ..)| *code == lang.code)
        .is_some_and(|(_, own, foreign, foreign_words)| {
            let count = |set: &str| {
                words
                    .iter()
                    .flat_map(|w| w.chars())
                    .filter(|c| set.contains(*c))
                    .count()
            };
            fn bare<'w>(w: &&'w str) -> &'w str {
                w.trim_matches(|c: char| !c.is_alphanumeric())
            }
            let neighbour_words = words
                .iter()
                .filter(|w| foreign_words.contains(&bare(w)))
                .count();
            count(foreign) + neighbour_words > count(own)
        })
}

/// How much of the prose is each language's: a claim form two points, a marker word one.
/// A word that is a form in more than three languages ("test", "build") tells nothing.
fn scores(words: &[&str]) -> Vec<(&'static Lang, usize)> {
    let latin = Latin::for_words(words);
    let mut out: Vec<(&'static Lang, usize)> = latin.langs.iter().map(|l| (*l, 0)).collect();
    for w in words {
        let w = trim_word(w);
        let hits = latin.forms_of(w);
        let informative = hits.count_ones() <= 3;
        let markers = latin.markers.get(w).copied().unwrap_or(0);
        for (i, (_, n)) in out.iter_mut().enumerate() {
            let bit = 1u64 << i;
            *n += if hits & bit != 0 && informative {
                2
            } else {
                usize::from(markers & bit != 0)
            };
        }
    }
    // Only a table that could be the message's (three points: `detect_uncached`) is
    // worth its neighbours' letters counted.
    for (lang, n) in &mut out {
        if (*n >= 3 || lang.code == "en") && foreign_letters(lang, words) {
            *n = 0;
        }
    }
    out
}

/// Every Latin-script table in one index, built once per process: a word's claim forms
/// and marker words are looked up once for all tables (a set of tables as bits), not once
/// per table.
struct Latin {
    langs: Vec<&'static Lang>,
    /// Claim forms by their first two characters (a form of one character is not one:
    /// [`word_forms`] keeps three or more), each with its table's bit.
    forms: FastMap<(char, char), Vec<(&'static str, u64)>>,
    /// Marker and number words, each with the bits of the tables that list it.
    markers: FastMap<&'static str, u64>,
}

impl Latin {
    /// The index for the words of one message: only the forms that start as one of its
    /// words does, and only its marker words (a Latin-script message is read once; an
    /// index of every table's forms cost more than the reading).
    fn for_words(words: &[&str]) -> Latin {
        let langs: Vec<&'static Lang> = LANGS
            .iter()
            .copied()
            .filter(|l| {
                l.spaced
                    && !matches!(
                        l.code,
                        "ru" | "uk"
                            | "kk"
                            | "bg"
                            | "hi"
                            | "ar"
                            | "el"
                            | "he"
                            | "fa"
                            | "bn"
                            | "ka"
                            | "hy"
                            | "am"
                            | "si"
                            | "te"
                    )
            })
            .collect();
        assert!(langs.len() <= 64, "more Latin tables than bits");
        let wanted: FastSet<&str> = words.iter().map(|w| trim_word(w)).collect();
        let starts: FastSet<(char, char)> = wanted.iter().filter_map(|w| first_two(w)).collect();
        let mut forms: FastMap<(char, char), Vec<(&'static str, u64)>> = FastMap::default();
        let mut markers: FastMap<&'static str, u64> = FastMap::default();
        for (i, lang) in langs.iter().enumerate() {
            let bit = 1u64 << i;
            for f in word_forms_iter(lang) {
                if let Some(two) = first_two(f).filter(|two| starts.contains(two)) {
                    forms.entry(two).or_default().push((f, bit));
                }
            }
            for w in lang
                .markers
                .iter()
                .copied()
                .chain(lang.numbers.iter().map(|(w, _)| *w))
                .filter(|w| wanted.contains(w))
            {
                *markers.entry(w).or_default() |= bit;
            }
        }
        Latin {
            langs,
            forms,
            markers,
        }
    }

    /// The tables whose claim forms `word` is one of, as bits (English's are whole words:
    /// "pass" is not the stem of "passaram"; another table's stem reaches its endings, not
    /// another language's longer word: "modificat" is not French "modifications").
    fn forms_of(&self, word: &str) -> u64 {
        let Some(candidates) = first_two(word).and_then(|two| self.forms.get(&two)) else {
            return 0;
        };
        let len = word.chars().count();
        let mut hits = 0;
        for (f, bit) in candidates {
            if hits & bit != 0 {
                continue;
            }
            let english = self.langs[bit.trailing_zeros() as usize].code == "en";
            let found = if english {
                *f == word
            } else {
                word.starts_with(f) && len <= f.chars().count() + 3
            };
            if found {
                hits |= bit;
            }
        }
        hits
    }
}

/// How many prose words are enough to tell a language in Latin script.
const DETECT_WORDS: usize = 120;

/// The first number of `text` when a runner's word for passes follows it ("6 passed — 3
/// old and 3 new", "12 passing"): the run's summary quoted, whatever numbers follow.
pub(crate) fn runners_count_first(text: &str) -> Option<u64> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| w.chars().any(|c| c.is_ascii_digit()))?;
    let passes = words.get(at + 1).is_some_and(|w| {
        matches!(
            w.trim_end_matches(|c: char| !c.is_alphanumeric()),
            "passed" | "passing"
        )
    });
    let n = words[at].trim_matches(|c: char| !c.is_ascii_digit());
    passes.then(|| n.parse().ok()).flatten()
}

/// The number a word writes, in digits or in any table's words.
pub fn number_of(w: &str) -> Option<u64> {
    if let Ok(n) = w.parse() {
        return Some(n);
    }
    // Every table's number words, indexed once (the first table to list a word wins).
    static WORDS: std::sync::OnceLock<FastMap<&'static str, u64>> = std::sync::OnceLock::new();
    let words = WORDS.get_or_init(|| {
        let mut m: FastMap<&'static str, u64> = FastMap::default();
        for (word, n) in LANGS.iter().flat_map(|l| l.numbers.iter()).rev() {
            m.insert(word.trim(), *n);
        }
        m
    });
    vocab::number_word(w).or_else(|| words.get(w).copied())
}

/// "two of the three", "zwei von drei", "dos de las tres": a count of fewer than all, in
/// any table's number words ([`vocab::says_only`] reads digits).
pub fn some_of_all_words(text: &str) -> bool {
    const OF: &[&str] = &[
        "of", "out", "von", "sur", "de", "di", "из", "із", "van", "em", "z", "ze", "av", "af",
        "από", "dari", "trong", "ur", "od", "iš", "sa", "kati", "от", "з", "din", "zo", "közül",
    ];
    const ARTICLES: &[&str] = &[
        "of", "the", "den", "der", "des", "les", "los", "las", "dei", "delle", "degli", "die",
        "os", "as", "των", "số", "de", "ya",
    ];
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    words.iter().enumerate().any(|(i, w)| {
        if !words.get(i + 1).is_some_and(|w| OF.contains(&w.as_str())) {
            return false;
        }
        let Some(n) = number_of(w) else {
            return false;
        };
        let mut j = i + 2;
        while j < i + 4 && words.get(j).is_some_and(|w| ARTICLES.contains(&w.as_str())) {
            j += 1;
        }
        words
            .get(j)
            .and_then(|w| number_of(w))
            .is_some_and(|m| n < m)
    })
}

/// The language of `message`: by script first, then, for Latin script, by which table's
/// marker words it uses most (English on a tie or when none is used: a terse English
/// status line has no function words).
pub fn detect(message: &str) -> Detected {
    // A stop reads the message's claims and then asks whether it was read: told once.
    thread_local! {
        static LAST: std::cell::RefCell<Option<(String, Detected)>> = const { std::cell::RefCell::new(None) };
    }
    if let Some(d) = LAST.with(|l| {
        l.borrow()
            .as_ref()
            .filter(|(m, _)| m == message)
            .map(|(_, d)| *d)
    }) {
        return d;
    }
    let detected = detect_uncached(message);
    LAST.with(|l| *l.borrow_mut() = Some((message.to_owned(), detected)));
    detected
}

fn detect_uncached(message: &str) -> Detected {
    let text = prose(message);
    match script(&text) {
        None | Some("latin") => {}
        Some("kana") => return Detected::Known(&ja::JA),
        Some("han") => return Detected::Known(&zh::ZH),
        Some("hangul") => return Detected::Known(&ko::KO),
        Some("cyrillic") if kazakh(&text) => return Detected::Known(&kk::KK),
        Some("cyrillic") if bulgarian(&text) => return Detected::Known(&bg::BG),
        Some("cyrillic") if ukrainian(&text) => return Detected::Known(&uk::UK),
        Some("cyrillic") => return Detected::Known(&ru::RU),
        Some("greek") => return Detected::Known(&el::EL),
        // Devanagari is also Marathi's and Nepali's, Arabic script Persian's and Urdu's:
        // the table reads a message that uses its words.
        Some("devanagari") if uses_markers(&hi::HI, &text) => return Detected::Known(&hi::HI),
        Some("arabic") if !persian(&text) && uses_markers(&ar::AR, &text) => {
            return Detected::Known(&ar::AR)
        }
        // Persian: its letters (or, with none of either, its words), and none of Urdu's,
        // Pashto's, Kurdish's or Uyghur's own letters.
        Some("arabic")
            if (persian(&text) || !text.contains(['ي', 'ك', 'ة', 'ى']))
                && !text.contains(NOT_PERSIAN)
                && (persian(&text) || uses_markers(&fa::FA, &text)) =>
        {
            return Detected::Known(&fa::FA)
        }
        // Hebrew script is also Yiddish's, Bengali script Assamese's (ৰ, ৱ).
        Some("hebrew") if !yiddish(&text) => return Detected::Known(&he::HE),
        Some("thai") => return Detected::Known(&th::TH),
        Some("bengali") if !text.contains(['ৰ', 'ৱ']) => return Detected::Known(&bn::BN),
        Some("georgian") => return Detected::Known(&ka::KA),
        Some("armenian") => return Detected::Known(&hy::HY),
        // Ethiopic script is also Tigrinya's: the table reads a message that uses its words.
        Some("ethiopic") if !tigrinya(&text) => return Detected::Known(&am::AM),
        Some("sinhala") => return Detected::Known(&si::SI),
        Some("khmer") => return Detected::Known(&km::KM),
        Some("telugu") => return Detected::Known(&te::TE),
        Some(other) => return Detected::Unknown(other),
    }
    // Apostrophes split French and Italian elisions (j'ai, l'ho) into their words.
    // The first words tell the language; a long report costs no more to tell.
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, '\'' | '’'))
        .filter(|w| w.chars().any(char::is_alphabetic))
        .take(DETECT_WORDS)
        .collect();
    let scores = scores(&words);
    let english = scores
        .iter()
        .find(|(l, _)| l.code == "en")
        .map_or(0, |(_, n)| *n);
    let best = scores
        .iter()
        .filter(|(l, _)| l.code != "en")
        .max_by_key(|(_, n)| *n)
        .map(|(l, n)| (*n, *l));
    // Accented letters are rare in English: they break a tie.
    let accented = words.iter().any(|w| !w.is_ascii());
    match best {
        // Misreading English as another language could block an honest turn; misreading
        // another language as English only misses its claims. So another language needs
        // three points (a claim form and a word, or three words) and more than English.
        Some((n, lang)) if n >= 3 && (n > english || n == english && accented) => {
            Detected::Known(lang)
        }
        // Ten words and hardly an English one: another language in Latin script.
        _ if words.len() >= 10 && english * 8 < words.len() => Detected::Unknown("latin"),
        _ => Detected::English,
    }
}

/// Whether `form` occurs in `text`: at a word's start for a spaced language (a stem reaches
/// its endings; a form with a space is a phrase), anywhere otherwise.
fn has(lang: &Lang, text: &str, form: &str) -> bool {
    find(lang, text, form).is_some()
}

/// A form ending in a space is a whole word ("no ", "si "): it matches before any
/// non-letter or the end.
fn find(lang: &Lang, text: &str, form: &str) -> Option<usize> {
    let word = form.strip_suffix(' ');
    let needle = word.unwrap_or(form);
    let mut from = 0;
    while let Some(i) = super::scan::find(&text[from..], needle) {
        let at = from + i;
        let end = at + needle.len();
        let before = text[..at].chars().next_back();
        // In a table without spaces a Latin form still is a word of its own: "fail" is
        // not read in pytest's "1 xfailed".
        let starts_word = if lang.spaced {
            before.is_none_or(|c| !c.is_alphanumeric())
        } else {
            !needle.starts_with(|c: char| c.is_ascii_alphabetic())
                || before.is_none_or(|c| !c.is_ascii_alphabetic())
        };
        let ends_word = word.is_none()
            || text[end..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric());
        if starts_word && ends_word {
            return Some(at);
        }
        from = end;
    }
    None
}

/// The first pass form of `text` that is a verdict: not one that hands a thing on
/// ("`data/tags.txt` passato a `sort -u -o`", "passed to the formatter").
fn first_verdict<'f>(lang: &'f Lang, text: &str) -> Option<&'f str> {
    const TO: &[&str] = &[
        "a", "ad", "al", "alla", "allo", "ai", "agli", "to", "à", "au", "aux", "an", "zu", "zum",
        "zur", "into", "through", "naar", "till", "til", "do", "na", "в", "на", "к",
    ];
    // English "pass" is the verdict agents write in every language ("3 件すべて pass", "3
    // pass / 0 fail"), as a word of its own.
    lang.passed.iter().copied().chain(["pass "]).find(|p| {
        find(lang, text, p).is_some_and(|at| {
            // Past the rest of the word a stem starts ("passat" in "passato").
            let end = at + p.trim_end().len();
            let rest = text
                .get(end..)
                .unwrap_or("")
                .trim_start_matches(char::is_alphanumeric);
            let next = rest.split_whitespace().next().unwrap_or("").to_lowercase();
            !TO.contains(&next.as_str())
        })
    })
}

/// Whether a text tells English failures ("2 fail", "failed", "1 failing"): a word for
/// them not counted 0.
fn english_failures(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().enumerate().any(|(i, w)| {
        matches!(
            w.to_lowercase().as_str(),
            "fail" | "fails" | "failed" | "failing" | "failures" | "failure"
        ) && i.checked_sub(1).is_none_or(|j| words[j] != "0")
    })
}

fn first<'f>(lang: &Lang, text: &str, forms: &[&'f str]) -> Option<&'f str> {
    forms.iter().copied().find(|f| has(lang, text, f))
}

/// Words for an error as a label ("Error (1):", "Fehler:", "エラー"), in the tables'
/// languages and beyond.
const ERROR_LABELS: &[&str] = &[
    "error",
    "errors",
    "erreur",
    "erreurs",
    "fehler",
    "errore",
    "errori",
    "erro",
    "erros",
    "errores",
    "fout",
    "fouten",
    "błąd",
    "błędy",
    "ошибка",
    "ошибки",
    "помилка",
    "помилки",
    "chyba",
    "chyby",
    "hata",
    "hatalar",
    "lỗi",
    "kesalahan",
    "ralat",
    "fel",
    "fejl",
    "feil",
    "virhe",
    "virheet",
    "viga",
    "kļūda",
    "klaida",
    "hiba",
    "eroare",
    "σφάλμα",
    "שגיאה",
    "خطأ",
    "خطا",
    "त्रुटि",
    "ত্রুটি",
    "ข้อผิดพลาด",
    "エラー",
    "错误",
    "錯誤",
    "에러",
    "오류",
    "hitilafu",
    "mali",
    "akatsa",
    "greška",
    "napaka",
];

/// Whether a sentence (lower-cased, folded) starts with an error's label: its first word,
/// before any bracket or colon, is a word for an error.
fn labelled_an_error(sentence: &str) -> bool {
    let first = sentence
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ':' | '：' | '（' | '|'))
        .next()
        .unwrap_or("");
    ERROR_LABELS.contains(&first)
}

/// A clause: its prose (lower-cased, each code span replaced by `§`), its code spans,
/// and the paths it names with whether a "from" word stands next to each.
struct Clause {
    /// As written: the tools it names are read from it.
    raw: String,
    text: String,
    spans: Vec<String>,
    paths: Vec<(String, bool)>,
    /// The paths a location word stands before ("in `a.py`"): what was made went into
    /// the file, which is no source of it.
    inside: Vec<String>,
    /// The paths written right before a word for "to" and another path ("`.env` al
    /// `.npmignore`", "`build/` to `.gitignore`"): what was put into that file, not a file
    /// changed.
    put_in: Vec<String>,
    /// Inside brackets: an aside on what stands before it.
    aside: bool,
}

/// Words for "to" that join what was put somewhere to where it went ("`a` to `b`", "`a`
/// al `b`", "`a` zu `b`").
const TO: &[&str] = &[
    "to", "into", "al", "a", "à", "au", "zu", "zum", "zur", "naar", "aan", "till", "til", "do",
    "ao", "para", "в", "во", "к", "до", "w", "ke", "sa", "σε", "στο", "στη", "στην",
];

/// Words that put what a verb made inside a file ("Tests in `a.py` angelegt").
const INSIDE: &[&str] = &[
    "in",
    "into",
    "dans",
    "nel",
    "nella",
    "em",
    "в",
    "во",
    "у",
    "στο",
    "στη",
    "στην",
    "στα",
    "v",
    "ve",
    "vo",
    "în",
    "tiedostoon",
    "tiedostossa",
];

/// The same after the path, glued or a word after it ("`a.rs`-ben", "`a.rs` fájlban",
/// "`a.rs`-tiedostoon").
const INSIDE_AFTER: &[&str] = &[
    "-ba",
    "-be",
    " fájlba",
    " fájlban",
    "-tiedostoon",
    "-tiedostossa",
    ":ään",
    ":een",
    ":iin",
    ":hin",
    ":ssa",
    ":ssä",
];

/// Where the bracket opened at `open` closes, when it holds one code span naming a test and
/// nothing else ("(`test_x`)").
fn span_alone_in_brackets(chars: &[char], open: usize) -> Option<usize> {
    let mut i = open + 1;
    let skip = |i: &mut usize| {
        while chars.get(*i).is_some_and(|c| c.is_whitespace()) {
            *i += 1;
        }
    };
    skip(&mut i);
    if chars.get(i) != Some(&'`') {
        return None;
    }
    let len = chars.get(i + 1..)?.iter().position(|&c| c == '`')?;
    // A test's name (`test_word_count`, `Tests::sum`), not a path or a pattern.
    let name = &chars[i + 1..i + 1 + len];
    if name.is_empty()
        || !name
            .iter()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.'))
        || name.iter().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    i += 1 + len;
    i += 1;
    skip(&mut i);
    matches!(chars.get(i), Some(')' | '）')).then_some(i)
}

/// Splits a sentence into clauses at commas, semicolons, colons and the language's joining
/// words, never inside a code span.
fn clauses(lang: &Lang, sentence: &str) -> Vec<Clause> {
    let mut parts: Vec<String> = vec![String::new()];
    // Whether each part stands inside brackets.
    let mut asides: Vec<bool> = vec![false];
    let mut depth = 0usize;
    let mut in_code = false;
    // A quoted commit subject ("notes: second note", « fix: x ») is one name.
    let (mut in_straight, mut quoted) = (false, 0i32);
    let chars: Vec<char> = sentence.chars().collect();
    // The closing bracket of a bracket that names a code span only.
    let mut named_aside: Option<usize> = None;
    for (i, &c) in chars.iter().enumerate() {
        // Finnish glues its case endings with a colon ("`a.rs`:stä", "4:stä", "CI:ssä"):
        // no clause ends there.
        let glued = c == ':'
            && lang.code == "fi"
            && i > 0
            && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '`')
            && chars.get(i + 1).is_some_and(|n| n.is_alphabetic());
        match c {
            '`' => in_code = !in_code,
            '"' if !in_code => in_straight = !in_straight,
            // „…“ closes with the mark that opens “…”.
            '“' if !in_code && quoted > 0 => quoted -= 1,
            '«' | '“' | '„' | '「' | '『' if !in_code => quoted += 1,
            '»' | '”' | '」' | '』' if !in_code => quoted = (quoted - 1).max(0),
            _ => {}
        }
        // A bracket that holds one code span and nothing else names what stands before it
        // ("yalnızca biri (`test_x`) başarısız": the count, the test, its failure): the
        // clause goes on through it.
        if !in_code && matches!(c, '(' | '（') {
            if let Some(close) = span_alone_in_brackets(&chars, i) {
                named_aside = Some(close);
            }
        }
        if named_aside.is_some_and(|close| i <= close) {
            parts.last_mut().expect("a part").push(c);
            if named_aside == Some(i) {
                named_aside = None;
            }
            continue;
        }
        // A parenthesis is an aside: "Eliminado `old.o` (ya no se usa)" claims the
        // deletion; the negation inside the aside is its own.
        if !in_code
            && !in_straight
            && quoted == 0
            && !glued
            && matches!(
                c,
                ',' | ';'
                    | ':'
                    | '、'
                    | '，'
                    | '；'
                    | '：'
                    | '('
                    | ')'
                    | '（'
                    | '）'
                    | '،'
                    | '؛'
                    | '।'
                    | '፣'
                    | '፤'
                    | '፥'
                    | '፦'
                    | '՝'
                    | '៖'
            )
            // A dash before a code span opens a clause of its own ("… `config/app.yaml` —
            // `scripts/render.sh` overskriver filen"); before words it may be the verdict
            // of what precedes ("nur `cargo test --lib` – 3 Unit-Tests grün").
            || matches!(c, '—' | '–')
                && !in_code
                && chars[i + 1..]
                    .iter()
                    .find(|n| !n.is_whitespace())
                    .is_some_and(|n| *n == '`')
            // The Greek semicolon (`·`, ano teleia, or the middle dot typed for it) before
            // a space; inside a word it is Catalan's `l·l`.
            || matches!(c, '·' | '\u{387}')
                && !in_code
                && chars.get(i + 1).is_none_or(|n| n.is_whitespace())
        {
            if !in_code && !in_straight && quoted == 0 {
                match c {
                    '(' | '（' => depth += 1,
                    ')' | '）' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            parts.push(String::new());
            asides.push(depth > 0);
        } else {
            parts.last_mut().expect("one part").push(c);
        }
    }
    let mut split: Vec<(String, bool)> = Vec::new();
    for (part, aside) in parts.into_iter().zip(asides) {
        let mut rest = part.as_str();
        // A joining word ends the clause before it ("…, aber die Tests …").
        loop {
            let lower = rest.to_lowercase();
            let at = lang
                .joins
                .iter()
                .filter_map(|j| {
                    let pad = if lang.spaced {
                        format!(" {j} ")
                    } else {
                        (*j).to_owned()
                    };
                    lower.find(&pad).map(|i| (i, pad.len()))
                })
                .filter(|(i, _)| *i > 0)
                .min();
            // Lower-casing keeps byte offsets for the scripts the tables hold; a slice
            // that would fall inside a character is not split.
            match at {
                Some((i, n)) if rest.is_char_boundary(i) && rest.is_char_boundary(i + n) => {
                    split.push((rest[..i].to_owned(), aside));
                    rest = &rest[i + n..];
                }
                _ => break,
            }
        }
        split.push((rest.to_owned(), aside));
    }
    split
        .into_iter()
        .filter(|(s, _)| !s.trim().is_empty())
        .map(|(s, aside)| Clause {
            aside,
            ..clause(lang, &s)
        })
        .collect()
}

/// Whether a clause opens with a code span and has words after its last one: the span is
/// the clause's subject ("`scripts/render.sh` overskriver filen"), not one more object
/// of a verb before it ("`b.rs`", "en `c.rs`").
fn path_is_subject(lang: &Lang, c: &Clause) -> bool {
    let text = c.text.trim_start();
    // Words that may stand after a listed path: "the file", a done mark ("`b.rs` แล้ว").
    let listing = |w: &str| {
        [lang.file_words, lang.done, lang.joins]
            .iter()
            .flat_map(|l| l.iter())
            .any(|f| w == f.trim() || !lang.spaced && w.contains(f.trim()))
    };
    text.starts_with('§')
        && text.rsplit('§').next().is_some_and(|rest| {
            rest.split_whitespace()
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
                .any(|w| w.chars().any(char::is_alphabetic) && !listing(w))
        })
}

fn clause(lang: &Lang, raw: &str) -> Clause {
    let mut text = String::new();
    let mut spans = Vec::new();
    let mut code = String::new();
    let mut in_code = false;
    for c in raw.chars() {
        match (c, in_code) {
            ('`', false) => in_code = true,
            ('`', true) => {
                in_code = false;
                spans.push(std::mem::take(&mut code));
                text.push('§');
            }
            (c, true) => code.push(c),
            (c, false) => text.push(c),
        }
    }
    let original = text;
    let text = fold(&original.to_lowercase());
    // Each `§` is a span: a path when it has a path's shape.
    let mut paths = Vec::new();
    let mut inside = Vec::new();
    let mut put_in = Vec::new();
    let mut marks = text.match_indices('§').map(|(i, _)| i);
    for (k, span) in spans.iter().enumerate() {
        let at = marks.next().unwrap_or(0);
        if let Some(p) = vocab::path_of(span, true) {
            let word_before = text[..at].split_whitespace().next_back().unwrap_or("");
            let after = &text[at + '§'.len_utf8()..];
            if lang.spaced
                && (INSIDE.contains(&word_before)
                    // Croatian "u" ("test u `a.rs`"): "in", where other languages' "u" is not.
                    || lang.code == "hr" && word_before == "u"
                    || matches!(lang.code, "hu" | "fi")
                        && INSIDE_AFTER.iter().any(|w| after.starts_with(w)))
            {
                inside.push(p.clone());
            }
            // "`a` al `b`": the next thing after this span is a word for "to", then the
            // next span, a path ("bumped `Cargo.toml` to `0.2.0`" changed the file).
            let mut next = after.split_whitespace();
            if let (Some(word), Some(then)) = (next.next(), next.next()) {
                let then_a_path = spans
                    .get(k + 1)
                    .is_some_and(|s| vocab::path_of(s, true).is_some());
                if TO.contains(&word) && then.starts_with('§') && then_a_path {
                    put_in.push(p.clone());
                }
            }
            paths.push((p, beside_from(lang, &text, at, '§'.len_utf8())));
        }
    }
    // Unquoted words with a file's shape are paths too (`src/lib.rs` written bare), in
    // the case they were written in. A word ends at a space, a bracket, or where ASCII
    // meets another script (`CLAUDE.mdを追加`).
    let original = fold(&original);
    for (start, w) in bare_words(&original) {
        // A hyphen left at the end glued on a suffix of another script ("app.yaml-এ").
        let w = w
            .trim_matches(|c: char| ",.;:!?".contains(c))
            .trim_end_matches('-');
        if w.is_empty() {
            continue;
        }
        if let Some(p) = vocab::path_of(w, false) {
            // Positions in the lower-cased text: the same where lower-casing keeps lengths.
            let lower = w.to_lowercase();
            // A case ending the path was read without ("package.json'dan") follows it.
            let len = if lower.starts_with(&p.to_lowercase()) {
                p.to_lowercase().len()
            } else {
                lower.len()
            };
            let from = text
                .get(start..)
                .and_then(|t| t.find(&lower))
                .is_some_and(|i| beside_from(lang, &text, start + i, len));
            paths.push((p, from));
        }
    }
    Clause {
        raw: raw.to_owned(),
        text,
        spans,
        paths,
        inside,
        put_in,
        aside: false,
    }
}

/// The ASCII words of `text` with where each starts: runs of ASCII characters other than
/// spaces and brackets.
fn bare_words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        let in_word = c.is_ascii() && !c.is_ascii_whitespace() && !"()[]".contains(c);
        match (in_word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// Whether one of the language's "from" words stands right before or right after the
/// path at `at..at + len` ("aus §", "§ から", "从 §", "§에서").
fn beside_from(lang: &Lang, text: &str, at: usize, len: usize) -> bool {
    let before = text[..at].trim_end();
    let after = text[(at + len).min(text.len())..].trim_start();
    // "with" words too: what a file was made with is not a file made ("`dist.tgz` con
    // `notes.txt`", "mit `a.rs`").
    const WITH: &[&str] = &[
        "with", "mit", "avec", "con", "com", "met", "с", "using", "usando",
    ];
    let from = lang
        .from
        .iter()
        .chain(WITH.iter().filter(|_| lang.spaced))
        .any(|f| {
            let f = f.trim_end();
            // A form with a leading hyphen, colon or apostrophe follows the path: glued
            // ("`a.rs`-ből", "`a.rs`:stä", "`a.json`'dan"), or, a word of its own, after it
            // ("`a.rs` fájlból").
            if let Some(word) = f.strip_prefix(['-', ':', '\'', '’']) {
                return after.starts_with(f)
                    || f.starts_with('-') && word.chars().count() >= 5 && after.starts_with(word);
            }
            // Japanese and Korean particles follow their noun ("`a` から `b` を作成"
            // takes from `a`, not from `b`).
            let postposition = f
                .chars()
                .all(|c| matches!(c as u32, 0x3040..=0x30FF | 0xAC00..=0xD7AF | 0x1100..=0x11FF));
            let ends_before = before.ends_with(f)
                && (lang.spaced || !postposition)
                && (!lang.spaced
                    || before[..before.len() - f.len()]
                        .chars()
                        .next_back()
                        .is_none_or(|c| !c.is_alphanumeric()));
            // Thai and Khmer put "from" before its noun, as the spaced languages do.
            ends_before || !lang.spaced && !matches!(lang.code, "th" | "km") && after.starts_with(f)
        });
    // What a file was made with or on the basis of, in the languages without spaces:
    // Chinese puts the word before the path ("用 `a` 生成了 `b`", "基于 `a`"), Japanese
    // and Korean after it, behind the object's particle ("`a` をもとに", "`a`를 기반으로").
    const WITH_BEFORE: &[&str] = &[
        "用", "使用", "利用", "基于", "根据", "按照", "参照", "依据", "依照", "基於", "根據",
    ];
    const WITH_AFTER: &[&str] = &[
        "もとに",
        "元に",
        "基に",
        "ベースに",
        "使って",
        "使い",
        "用いて",
        "に基づ",
        "参考に",
        "기반으로",
        "바탕으로",
        "사용해",
        "사용하여",
        "이용해",
        "이용하여",
        "참고해",
        "참고하여",
    ];
    let object = after.trim_start_matches(['を', '를', '을']).trim_start();
    from || !lang.spaced
        && (WITH_BEFORE.iter().any(|w| before.ends_with(w))
            || WITH_AFTER.iter().any(|w| object.starts_with(w)))
}

/// A markdown line stripped of list marks, emphasis and links.
fn clean_line(line: &str) -> String {
    let t = line.trim();
    let t = t.trim_start_matches(['-', '*', '+', '#', ' ']);
    // A numbered item's number ("2. ", "3) "), not a count that opens a sentence.
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let t = match t[digits..]
        .strip_prefix(". ")
        .or(t[digits..].strip_prefix(") "))
    {
        Some(rest) if digits > 0 => rest,
        _ => t,
    };
    vocab::without_emphasis(t)
}

/// What a line of the message is.
enum LineKind {
    Skip(&'static str),
    Heading,
    Text { item: bool },
}

fn line_kind(t: &str) -> LineKind {
    let t = t.trim_start();
    if t.is_empty() {
        LineKind::Skip("")
    } else if t.starts_with('>') {
        LineKind::Skip("a blockquote: a quotation")
    } else if t.starts_with('#') {
        LineKind::Heading
    } else {
        let item = t.starts_with("- ")
            || t.starts_with("* ")
            || t.starts_with("+ ")
            || t.split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        let cleaned = clean_line(t);
        let bold = !item && t.starts_with("**") && t.trim_end().ends_with("**");
        let colon = !item
            && (cleaned.ends_with(':') || cleaned.ends_with('：'))
            && cleaned.chars().count() <= 60
            && !cleaned.contains('`');
        if bold || colon {
            LineKind::Heading
        } else {
            LineKind::Text { item }
        }
    }
}

/// `text` with each code span replaced by `§`, as a clause's prose is.
fn without_spans(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { "§" } else { part })
        .collect()
}

thread_local! {
    /// The item read stands under a heading that names tests ("## Test results", "## テスト"):
    /// a result it tells without a subject ("結果: 九件成功") is the tests'.
    static UNDER_TESTS: Cell<bool> = const { Cell::new(false) };
}

/// Whether a heading names tests, in its table's words or in English.
fn names_tests(lang: &Lang, heading: &str) -> bool {
    let text = fold(&heading.to_lowercase());
    first(lang, &text, lang.tests).is_some()
        || text.split_whitespace().any(|w| w.starts_with("test"))
}

/// The verb class a heading gives the verbless items under it, or that its items are not
/// claims.
enum HeadingScope {
    Neutral,
    Verb(Change),
    NotClaims(String),
}

fn heading_scope(lang: &Lang, heading: &str) -> HeadingScope {
    let text = fold(&heading.to_lowercase());
    if let Some(w) = first(lang, &text, lang.not_claims_headings)
        .or_else(|| first(lang, &text, lang.negations).filter(|_| !vocab::led_by_a_file(heading)))
        .or_else(|| first(lang, &text, lang.modal))
    {
        return HeadingScope::NotClaims(format!(
            "under the heading \"{}\" (\"{w}\")",
            heading.trim()
        ));
    }
    match change_of(lang, &text) {
        Some((c, _)) => HeadingScope::Verb(c),
        None => HeadingScope::Neutral,
    }
}

/// The change a clause's verb names (the first form in it), and the form.
fn change_of(lang: &Lang, text: &str) -> Option<(Change, &'static str)> {
    changes_in(lang, text)
        .into_iter()
        .next()
        .map(|(_, form, change)| (change, form))
}

/// How much of a text a form matches: all of it, less the trailing space that marks a
/// whole word ([`find`]).
fn matched_len(form: &str) -> usize {
    form.strip_suffix(' ').unwrap_or(form).len()
}

/// Every change form in `text`, in order: where it starts, the form, the change. Where
/// two forms start at one place, the longer (`名前を変更` before `変更`) and the rename
/// before the deletion before the creation before the edit.
fn changes_in(lang: &Lang, text: &str) -> Vec<(usize, &'static str, Change)> {
    let classes: [(&[&'static str], Change); 4] = [
        (lang.renamed, Change::Renamed { to: String::new() }),
        (lang.deleted, Change::Deleted),
        (lang.created, Change::Created),
        (lang.modified, Change::Modified),
    ];
    let mut out: Vec<(usize, usize, &'static str, Change)> = Vec::new();
    for (rank, (forms, change)) in classes.into_iter().enumerate() {
        for form in forms {
            let mut from = 0;
            while let Some(i) = find(lang, &text[from..], form) {
                out.push((from + i, rank, form, change.clone()));
                // What matched: a form's trailing space marks a whole word, and the
                // character after it may be wider than a space (a maqaf).
                from += i + matched_len(form);
            }
        }
    }
    out.sort_by_key(|(at, rank, form, _)| (*at, std::cmp::Reverse(form.len()), *rank));
    // Thai words that hold a form without being it ("โครงสร้าง": structure, not "สร้าง").
    if lang.code == "th" {
        out.retain(|(at, _, form, _)| {
            !THAI_NOT_VERBS.iter().any(|(word, f)| {
                f == form
                    && word.find(f).is_some_and(|k| {
                        at.checked_sub(k)
                            .and_then(|s| text.get(s..))
                            .is_some_and(|t| t.starts_with(word))
                    })
            })
        });
    }
    // A form inside an earlier one is not a word of its own ("修改进行": no "改进").
    let mut end = 0;
    out.retain(|(at, _, form, _)| {
        let keep = *at >= end;
        if keep {
            end = at + form.len();
        }
        keep
    });
    out.into_iter()
        .map(|(at, _, form, change)| (at, form, change))
        .collect()
}

/// Thai words that hold a change form and are not the change: "โครงสร้าง" (structure),
/// "เพิ่มเติม" (more), "ผลบิลด์" (the build's result).
const THAI_NOT_VERBS: &[(&str, &str)] = &[("โครงสร้าง", "สร้าง"), ("เพิ่มเติม", "เพิ่ม"), ("ผลบ", "ลบ")];

/// A number written in digits or as one of the language's number words, in the clause.
fn counts(lang: &Lang, text: &str) -> Vec<u64> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        // Not a version (`1.2`, `v3`), a name (`py3`) or a time (`0.4s` is a decimal).
        let before = start.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i).copied();
        let glued = before.is_some_and(|c| c == '.' || c == '#' || c.is_ascii_alphabetic())
            || after == Some('.') && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        // jest's "Test Suites 2 passed", "2 test files": suites or files, not tests.
        let lead: String = chars[start.saturating_sub(12)..start]
            .iter()
            .collect::<String>()
            .to_lowercase();
        let of_suites = lead
            .trim_end_matches([' ', ':', '：'])
            .rsplit(char::is_whitespace)
            .next()
            .is_some_and(|w| matches!(w, "suites" | "suite" | "files"));
        if !glued && !of_suites {
            let n: String = chars[start..i].iter().collect();
            if let Ok(n) = n.parse() {
                out.push(n);
            }
        }
    }
    if out.is_empty() {
        // In the order the clause writes them ("öt teszt … a három régi és a két új": five,
        // then three and two), the longest word where two start at one place.
        let mut words: Vec<(usize, usize, u64)> = lang
            .numbers
            .iter()
            .filter_map(|(w, n)| find(lang, text, w).map(|at| (at, w.len(), *n)))
            .collect();
        words.sort_by_key(|&(at, len, _)| (at, std::cmp::Reverse(len)));
        words.dedup_by_key(|w| w.0);
        out.extend(words.into_iter().map(|(_, _, n)| n));
    }
    if out.is_empty() && !lang.spaced {
        out.extend(cjk_numbers(text).into_iter().map(|(_, n)| n));
    }
    out
}

/// Numbers written in CJK numerals ("三个测试", "十二件", "两个"), with their byte offset.
fn cjk_numbers(text: &str) -> Vec<(usize, u64)> {
    let digit = |c: char| match c {
        '〇' | '零' => Some(0),
        '一' => Some(1),
        '二' | '两' | '兩' => Some(2),
        '三' => Some(3),
        '四' => Some(4),
        '五' => Some(5),
        '六' => Some(6),
        '七' => Some(7),
        '八' => Some(8),
        '九' => Some(9),
        _ => None,
    };
    let unit = |c: char| match c {
        '十' => Some(10),
        '百' => Some(100),
        '千' => Some(1000),
        _ => None,
    };
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if digit(c).is_none() && unit(c).is_none() {
            continue;
        }
        // 一 alone is also "one/a" in words (一致, 一部): only a numeral before a counter
        // or a unit counts; so does any run of two or more.
        let (mut total, mut cur, mut len) = (0u64, 0u64, 0usize);
        let mut c = c;
        loop {
            len += 1;
            if let Some(d) = digit(c) {
                cur = cur * 10 + d;
            } else if let Some(u) = unit(c) {
                total += cur.max(1) * u;
                cur = 0;
            }
            match chars.peek() {
                Some(&(_, n)) if digit(n).is_some() || unit(n).is_some() => {
                    c = n;
                    chars.next();
                }
                _ => break,
            }
        }
        let value = total + cur;
        let next = chars.peek().map(|&(_, n)| n);
        let counter = next.is_some_and(|n| "个個件项項条條つ名".contains(n));
        if len >= 2 || counter || c != '一' {
            out.push((at, value));
        }
    }
    out
}

/// Words for an error (a test that errored rather than failed), in every table's
/// language.
const ERRORS: &[&str] = &[
    "error",
    "erreur",
    "fehler",
    "errore",
    "erro ",
    "erros",
    "fout",
    "ошибк",
    "σφάλμ",
    "chyb",
    "chýb",
    "virhe",
    "hiba",
    "hibá",
    "eroare",
    "erori",
    "fel ",
    "помилк",
    "エラー",
    "错误",
    "錯誤",
    "오류",
    "에러",
];

/// The count of errors a clause reports beside its failures ("1 échec et 1 erreur"): 0
/// when it names none, or the failure form is itself the error word.
fn error_count(lang: &Lang, text: &str, failed_form: &str) -> u64 {
    ERRORS
        .iter()
        .filter(|e| !failed_form.contains(e.trim()) && !e.trim().contains(failed_form))
        .find_map(|e| {
            let at = find(lang, text, e.trim())?;
            count_beside(lang, text, at, at + e.trim().len())
                .or_else(|| count_words_before(text, at))
        })
        .unwrap_or(0)
}

/// A count up to three words before `at`, where a verb stands between it and the error
/// ("due vanno in errore": two go into error), no clause mark between.
fn count_words_before(text: &str, at: usize) -> Option<u64> {
    let before = &text[..at];
    let clause = before
        .rfind([',', ';', ':', '(', ')', '，', '；', '。'])
        .map_or(before, |i| &before[super::scan::after_char(before, i)..]);
    clause.split_whitespace().rev().take(3).find_map(|w| {
        number_of(
            &w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase(),
        )
    })
}

/// The count written next to a word at `at..end` of `text` ("2 fehlgeschlagen",
/// "échoué : 1", "失败 2 个", "zwei fehlgeschlagen"): digits or the language's number
/// words within a few characters on either side.
fn count_beside(lang: &Lang, text: &str, at: usize, end: usize) -> Option<u64> {
    const REACH: usize = 12;
    let before = &text[..at];
    // "yalnızca biri (`test_x`) başarısız": an aside in brackets between the count and
    // the failure word names the test; the count stands before it.
    let before = match before.trim_end().strip_suffix([')', '）']) {
        Some(inner) => inner
            .rfind(['(', '（'])
            .map_or(before, |open| &before[..open]),
        None => before,
    };
    let after = &text[end..];
    let near_before: String = before
        .chars()
        .rev()
        .take(REACH)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let near_after: String = after.chars().take(REACH).collect();
    let last_digits = |s: &str| -> Option<u64> {
        let t = s.trim_end_matches(|c: char| !c.is_ascii_digit());
        let d: String = t.chars().rev().take_while(char::is_ascii_digit).collect();
        let rest = &t[..t.len() - d.len()];
        (!d.is_empty() && !rest.ends_with(['.', '/']))
            .then(|| d.chars().rev().collect::<String>().parse().ok())
            .flatten()
    };
    let first_digits = |s: &str| -> Option<u64> {
        let t = s.trim_start_matches(|c: char| !c.is_ascii_digit());
        let d: String = t.chars().take_while(char::is_ascii_digit).collect();
        (!d.is_empty() && !t[d.len()..].starts_with(['.', '/']))
            .then(|| d.parse().ok())
            .flatten()
    };
    // "One" is no number word of the tables (it is also "a"), but beside a failure word
    // it is the count ("falló una prueba", "un test a échoué").
    const ONE: &[(&str, u64)] = &[
        ("one ", 1),
        ("un ", 1),
        ("une ", 1),
        ("una ", 1),
        ("uno ", 1),
        ("ein ", 1),
        ("eine ", 1),
        ("einer ", 1),
        ("um ", 1),
        ("uma ", 1),
        ("een ", 1),
        ("één ", 1),
        ("bir ", 1),
        ("biri ", 1),
        ("один", 1),
        ("одна", 1),
        ("одного", 1),
        ("ένα ", 1),
        ("μία ", 1),
        ("μια ", 1),
        ("ett ", 1),
        ("jeden ", 1),
        ("jedna ", 1),
        ("jedno ", 1),
        ("yksi ", 1),
        ("yhden ", 1),
        ("egy ", 1),
        ("jedan ", 1),
        ("üks ", 1),
        ("ühe ", 1),
        ("isang ", 1),
        ("vienas ", 1),
        ("viena ", 1),
        ("един ", 1),
        ("една ", 1),
    ];
    let word = |s: &str| {
        lang.numbers
            .iter()
            .chain(ONE.iter().filter(|_| lang.spaced))
            .filter(|(w, _)| has(lang, s, w))
            .max_by_key(|(w, _)| w.len())
            .map(|(_, n)| *n)
    };
    let cjk = |s: &str, last: bool| {
        let ns = cjk_numbers(s);
        if last {
            ns.last().map(|x| x.1)
        } else {
            ns.first().map(|x| x.1)
        }
    };
    let unspaced = !lang.spaced;
    // The side the number touches first ("échoué : 1" after, "2 échoués" before).
    let touches_after = near_after
        .trim_start_matches([' ', ':', '：', '='])
        .starts_with(|c: char| c.is_ascii_digit());
    // "نجح اختبار واحد وفشلت ثلاثة اختبارات": after a pass word, the number before the
    // failure word is the passed count; the failures' stands after it.
    let passed_before = lang.passed.iter().any(|p| has(lang, before, p));
    let after_first = passed_before
        .then(|| first_digits(&near_after).or_else(|| word(&near_after)))
        .flatten();
    after_first
        .or_else(|| touches_after.then(|| first_digits(&near_after)).flatten())
        .or_else(|| last_digits(&near_before))
        .or_else(|| word(&near_before))
        .or_else(|| word(&near_after))
        .or_else(|| {
            if unspaced {
                cjk(&near_before, true).or_else(|| cjk(&near_after, false))
            } else {
                None
            }
        })
}

/// The test count a clause claims: one number, or a ratio `n/n`; `sure` when nothing else
/// in the clause is a count.
fn test_count(lang: &Lang, text: &str) -> (Option<u64>, bool) {
    // "mind az öt sikeres — a három régi": a verdict with its count, then a dash and a
    // breakdown; the count is the verdict's.
    // Not where what follows the dash is a verdict on tests of its own ("Cả hai bước đều
    // thành công — 3 test đạt": both steps went well, then the tests' count).
    let text = match text.split_once(['—', '–']) {
        Some((verdict, breakdown))
            if first(lang, verdict, lang.passed).is_some()
                && !counts(lang, verdict).is_empty()
                && first(lang, breakdown, lang.passed).is_none()
                && first(lang, breakdown, lang.tests).is_none() =>
        {
            verdict
        }
        _ => text,
    };
    let ns = counts(lang, text);
    // One number read twice (a native numeral and its table word, "2/2") is one count.
    let all_same = ns.windows(2).all(|w| w[0] == w[1]);
    // Of several, the one beside the word for passing ("öt tesztből három sikeres": of
    // five tests, three passed).
    let beside_pass = || {
        lang.passed.iter().find_map(|p| {
            let at = find(lang, text, p)?;
            count_beside(lang, text, at, at + p.trim_end().len())
        })
    };
    match ns.as_slice() {
        [] => (None, true),
        [n, ..] if all_same => (Some(*n), true),
        // "कुल चार टेस्ट चले — तीन पुराने और एक नया": a count after a word for "in all" is
        // the whole, whatever breakdown follows.
        [a, ..] => match total_count(text) {
            Some(n) if ns.contains(&n) => (Some(n), true),
            _ => (Some(beside_pass().unwrap_or(*a)), false),
        },
    }
}

/// The number right after a word for "in all" or "total" ("in all 4 tests ran", "कुल चार
/// टेस्ट", "insgesamt sieben"), in any table's number words.
fn total_count(text: &str) -> Option<u64> {
    const TOTAL: &[&str] = &[
        "in all",
        "in total",
        "total",
        "altogether",
        "insgesamt",
        "au total",
        "en total",
        "no total",
        "in totale",
        "totaal",
        "totalt",
        "yhteensä",
        "łącznie",
        "celkem",
        "celkom",
        "összesen",
        "toplam",
        "toplamda",
        "всего",
        "в сумме",
        "загалом",
        "усього",
        "общо",
        "συνολικά",
        "tổng cộng",
        "kwa jumla",
        "jumla",
        "kabuuan",
        "kokku",
        "iš viso",
        "kopā",
        "ukupno",
        "skupaj",
        "कुल",
        "মোট",
        "மொத்தம்",
        "總共",
        "总共",
        "一共",
        "合計",
        "全部で",
        "בסך הכל",
        "إجمالاً",
        "در مجموع",
        "مجموعاً",
    ];
    let lower = text.to_lowercase();
    TOTAL.iter().find_map(|t| {
        let (i, _) = lower.match_indices(t).find(|(i, _)| {
            lower[..*i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
        })?;
        let after = &lower[i + t.len()..];
        if after.starts_with(|c: char| c.is_alphanumeric()) && t.is_ascii() {
            return None;
        }
        after
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .take(2)
            .find_map(number_of)
    })
}

/// Whether a clause writes a number right before the word for tests ("yedi test", "4
/// тест", "seven tests").
fn number_before_tests_noun(lang: &Lang, text: &str) -> bool {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .collect();
    words.windows(2).any(|w| {
        let number =
            w[0].parse::<u64>().is_ok() || lang.numbers.iter().any(|(n, _)| n.trim() == w[0]);
        number && lang.tests.iter().any(|t| w[1].starts_with(t.trim()))
    })
}

/// What a clause's change verb is, once negation, other actors and modality are out.
#[derive(Clone)]
enum Verb {
    /// The clause is voided (negated, another actor's, a plan): it claims nothing and
    /// lends no verb.
    Void,
    None,
    Change(Change, VerbFrom),
}

/// Where a clause's change verb comes from: a heading's verb makes a weak reading.
#[derive(Clone, Copy, PartialEq)]
enum VerbFrom {
    /// The clause (or a clause beside it) says it.
    Own,
    /// The verb is the heading's.
    Heading,
}

/// The verb of each clause of a sentence, or why the clause is void.
fn clause_verbs(
    lang: &Lang,
    cs: &[Clause],
    item: bool,
    heading_verb: Option<&Change>,
    why: &mut Vec<String>,
) -> Vec<Verb> {
    let mut out = Vec::new();
    for (i, c) in cs.iter().enumerate() {
        if let Some(v) = void(lang, &c.text) {
            why.push(v);
            out.push(Verb::Void);
            continue;
        }
        // Done marks later in the sentence reach a stem ("更新し、…作成しました").
        let tail: String = cs[i..]
            .iter()
            .map(|c| c.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let verb = match change_at(lang, &c.text, &tail, item) {
            Some(change) => Verb::Change(change, VerbFrom::Own),
            None => match heading_verb {
                Some(h) if !c.paths.is_empty() => Verb::Change(h.clone(), VerbFrom::Heading),
                _ => Verb::None,
            },
        };
        out.push(verb);
    }
    out
}

/// Why a clause claims nothing: negated, another actor's, or a plan.
fn void(lang: &Lang, text: &str) -> Option<String> {
    // A success phrase may hold a negation ("keine Fehler"): read it as the success.
    let mut plain = text.to_owned();
    for f in lang.clean.iter().filter(|f| has(lang, text, f)) {
        plain = plain.replace(f, " ");
    }
    if let Some(n) = first(lang, &plain, lang.negations) {
        return Some(format!("negated (\"{}\"): not a claim", n.trim()));
    }
    // "נוצר על ידי הסוכן המשנה" (made by the subagent): the other is the agent the parent
    // delegated to, whose work the parent relays as its own claim.
    if let Some(o) = lang.others.iter().copied().find(|o| {
        find(lang, text, o)
            .is_some_and(|at| !names_an_agent(&head_chars(&text[at + o.trim_end().len()..], 24)))
    }) {
        return Some(format!(
            "about someone else (\"{}\"): not the agent's claim",
            o.trim()
        ));
    }
    if let Some(m) = first(lang, text, lang.modal) {
        return Some(format!(
            "a plan, an offer or a condition (\"{}\"): not a claim",
            m.trim()
        ));
    }
    if let Some(e) = first(lang, text, lang.earlier) {
        return Some(format!(
            "anchored before this turn (\"{}\"): not a claim",
            e.trim()
        ));
    }
    None
}

/// The change a clause claims: its verb form, done (a spaced language's forms are past
/// forms; otherwise a completion mark in the sentence's rest, or a status bullet).
fn change_at(lang: &Lang, text: &str, tail: &str, item: bool) -> Option<Change> {
    // "对 `a.js` 的修改进行了审查", "`a.rs` の変更をレビューしました": the change word is a
    // noun (after 的, の, 의) and the clause's verb is a reading: nothing was changed.
    let reading = first(lang, text, lang.read).is_some();
    let forms: Vec<_> = changes_in(lang, text)
        .into_iter()
        .filter(|(at, _, _)| !(reading && after_nominal(lang, &text[..*at])))
        .collect();
    if lang.spaced || item {
        return forms.into_iter().next().map(|(_, _, change)| change);
    }
    forms
        .into_iter()
        .find(|(at, form, _)| done_at(lang, text, *at, at + matched_len(form), tail))
        .map(|(_, _, change)| change)
}

/// Whether the text before a word ends in a particle that makes it a noun.
fn after_nominal(lang: &Lang, before: &str) -> bool {
    let before = before.trim_end();
    lang.nominal.iter().any(|p| before.ends_with(p))
}

/// How far (in characters) a done mark may stand from its verb ("修正しました",
/// "更新を完了しました", "已经修改"): further, the verb is a noun ("`a.rs` の変更をレビュー
/// しました" reviewed the change, it made none).
const DONE_REACH: usize = 3;

/// Whether the verb form at `start..end` of `text` is marked done.
fn done_at(lang: &Lang, text: &str, start: usize, end: usize, tail: &str) -> bool {
    let after: String = text[end..].chars().take(DONE_REACH + 8).collect();
    let near_after = lang.done.iter().any(|d| {
        after
            .find(d)
            .is_some_and(|i| after[..i].chars().count() <= DONE_REACH)
        // Thai (and Khmer) ends the verb phrase, or the verbs joined by "และ", with its done mark:
        // "แก้ไข `a.rs` และ `b.rs` แล้ว".
    }) || matches!(lang.code, "th" | "km") && {
        let rest = tail.get(end..).unwrap_or(&text[end..]);
        lang.done.iter().any(|d| rest.contains(d))
    };
    let before: String = {
        let chars: Vec<char> = text[..start].chars().collect();
        chars[chars.len().saturating_sub(DONE_REACH + 1)..]
            .iter()
            .collect()
    };
    // 已 (已经) stands before the verb phrase, however long: "已将 `a` 重命名为 `b`".
    let near_before = lang.done.iter().any(|d| before.contains(d))
        || lang.done_before.iter().any(|d| text[..start].contains(d));
    let rest = text[end..].trim_end();
    let continuative = lang
        .continuative
        .iter()
        .any(|c| rest == *c || rest.starts_with(&format!("{c} ")))
        && lang
            .done
            .iter()
            .any(|d| tail[tail.find(rest).unwrap_or(0)..].contains(d));
    near_after || near_before || continuative
}

/// The sentence around a clause: as written, its done text, and the clauses before it.
struct Around<'a> {
    sentence: &'a str,
    sentence_text: &'a str,
    before: &'a [Clause],
    /// Every clause of the sentence.
    clauses: &'a [Clause],
}

/// Whether a clause says something failed: a failure word that no success phrase holds
/// ("没有报错", "no errors"), no zero counts ("0 failed") and no negation denies ("कोई भी
/// फ़ेल नहीं हुआ", "keiner schlug fehl").
fn reports_failure(lang: &Lang, text: &str) -> bool {
    let mut plain = text.to_owned();
    for f in lang.clean.iter().filter(|f| has(lang, text, f)) {
        plain = plain.replace(f, " ");
    }
    first(lang, &plain, lang.failed).is_some()
        && !zero_failed(lang, &plain)
        && first(lang, &plain, lang.negations).is_none()
}

/// Whether a clause says some did NOT pass: a pass form with a negation right beside it
/// ("не прошли два", "no pasaron", "ne passent pas", "zwei bestehen nicht", "没有通过",
/// "パスしませんでした", "통과하지 못했"). That is a failure reported, whatever the
/// clause's other words: a pass in the same sentence is the rest's, not the suite's.
fn denies_pass(lang: &Lang, text: &str) -> bool {
    denied_pass(lang, text).is_some()
}

/// The pass form a negation denies in `text`: the text with its success phrases out, and
/// where the form's word starts and ends in it.
fn denied_pass(lang: &Lang, text: &str) -> Option<(String, usize, usize)> {
    let mut plain = text.to_owned();
    for f in lang.clean.iter().filter(|f| has(lang, text, f)) {
        plain = plain.replace(f, " ");
    }
    let negated = |word: &str| first(lang, &format!("{word} "), lang.negations).is_some();
    for p in lang.passed {
        let mut from = 0;
        while let Some(i) = find(lang, &plain[from..], p) {
            let at = from + i;
            // A form written with a trailing space matches without it.
            let end = at + p.strip_suffix(' ').unwrap_or(p).len();
            from = end;
            // The whole word a stem starts ("прош" of "прошли").
            let word_end = if lang.spaced {
                end + plain[end..]
                    .find(|c: char| !c.is_alphanumeric())
                    .unwrap_or(plain.len() - end)
            } else {
                end
            };
            let denied = if lang.spaced {
                // The word before or the word after ("passent pas", "bestehen nicht").
                let before = plain[..at].split_whitespace().next_back().unwrap_or("");
                let after = plain[word_end..].split_whitespace().next().unwrap_or("");
                negated(before) || negated(after)
            } else {
                // A few characters before ("没通过", "未通过"), and, where the negation
                // follows the verb (Japanese, Korean), after ("パスしません", "통과하지 못").
                let before: String = {
                    let chars: Vec<char> = plain[..at].chars().collect();
                    chars[chars.len().saturating_sub(3)..].iter().collect()
                };
                let reach = if matches!(lang.code, "ja" | "ko") {
                    6
                } else {
                    0
                };
                let after: String = plain[end..].chars().take(reach).collect();
                first(lang, &format!("{before}{p}{after}"), lang.negations).is_some()
            };
            if denied {
                return Some((plain, at, word_end));
            }
        }
    }
    None
}

/// The failures a negated clause counts: a pass denied beside a count, of the tests
/// ("из шести не прошли два", "Nie przechodzi tylko jeden test", "2 件のテストはパスしません
/// でした"). Not in a plan, another's words or the past before the turn.
fn denied_pass_count(lang: &Lang, c: &Clause, sentence: &str) -> Option<Claim> {
    if first(lang, &c.text, lang.modal).is_some()
        || first(lang, &c.text, lang.others).is_some()
        || first(lang, &c.text, lang.earlier).is_some()
    {
        return None;
    }
    let (plain, at, word_end) = denied_pass(lang, &c.text)?;
    let count = count_beside(lang, &plain, at, word_end)?;
    let whole = fold(&sentence.to_lowercase());
    let spans: Vec<String> = vocab::spans_of(sentence).map(str::to_owned).collect();
    let subject = check_subject(lang, &c.text, &c.spans, &c.raw)
        .or_else(|| check_subject(lang, &whole, &spans, sentence));
    if subject != Some("tests") {
        return None;
    }
    let mut claim = Claim::read(Kind::Failures { count }, sentence);
    claim.tools = super::named::named_in_clause(&c.raw, sentence, &claim.kind);
    claim.bind_spans(c.spans.iter().map(String::as_str));
    Some(claim)
}

/// "3 din 4", "3 zo 4", "4 közül 3", "4-ből 3", "4:stä 3", "3 testiä 4:stä", "3 od 4",
/// "3 iš 4", "3 sa 4", "3 kati ya 4", "3 testi 4-st": fewer than all, in the words of the
/// tables the shared list ([`vocab::says_only`]) does not hold; and the new tables' "only"
/// words.
fn some_of(lang: &Lang, text: &str) -> bool {
    // "samo dva", "ainult kolm", "mawili tu", "lang ang tatlo", "tik du": only some.
    let only: &[&str] = match lang.code {
        "hr" => &["samo ", "jedino "],
        "sl" => &["samo ", "le ", "zgolj"],
        "bg" => &["само ", "единствено"],
        "et" => &["ainult", "vaid "],
        "sw" => &["tu ", "pekee"],
        "tl" => &["lang ", "lamang", "tanging"],
        "lt" => &["tik ", "tiktai", "vienintel"],
        "lv" => &["tikai"],
        "ka" => &["მხოლოდ"],
        "hy" => &["միայն"],
        "am" => &["ብቻ"],
        "si" => &["පමණක්", "පමණයි"],
        "km" => &["តែប៉ុណ្ណោះ", "ប៉ុណ្ណោះ", "តែមួយ"],
        "te" => &["మాత్రమే"],
        "az" => &["yalnız", "təkcə", "sadəcə"],
        "uz" => &["faqat", "atigi"],
        "kk" => &["тек ", "ғана"],
        "eu" => &["bakarrik", "soilik", "baino ez"],
        "cy" => &["dim ond", "yn unig"],
        "is" => &["aðeins", "bara ", "einungis"],
        _ => &[],
    };
    if first(lang, text, only).is_some() {
        return true;
    }
    let of: &[&str] = match lang.code {
        "ro" => &[" din ", " dintre "],
        "sk" => &[" zo ", " z ", " spomedzi "],
        "ca" => &[" sobre "],
        "hu" => &[" közül ", "-ből ", "-ból ", "ből ", "ból "],
        "fi" => &[":stä", ":sta", "stä ", "sta "],
        "hr" | "sl" => &[" od "],
        "bg" => &[" от "],
        "et" => &["-st", " st "],
        "sw" => &[" kati ya ", " kati "],
        "tl" => &[" sa ", " out of "],
        "lt" => &[" iš "],
        "lv" => &[" no "],
        // "4-დან 3", "4-ից 3", "ከ4ቱ 3", "4න් 3", "3 ក្នុងចំណោម 4", "4లో 3".
        "ka" => &["-დან", "დან "],
        "hy" => &["-ից", "ից "],
        "am" => &["ውስጥ", "ቱ "],
        "si" => &["න් ", "කින් "],
        "km" => &["ក្នុងចំណោម", "លើ"],
        "te" => &["లో ", "ింటిలో", "టిలో"],
        "az" => &["dən ", "dan ", "-dən", "-dan"],
        "uz" => &["dan ", "tadan"],
        "kk" => &["тің ", "нің ", "дің ", "-нің", "-тің", "-дің", " ішінен "],
        "eu" => &["tik ", "-tik", "tik"],
        "cy" => &[" o ", " allan o "],
        "is" => &[" af "],
        _ => return false,
    };
    let mut nums: Vec<(usize, usize, u64)> = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_ascii_digit(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                nums.push((s, i, text[s..i].parse().unwrap_or(0)));
                start = None;
            }
            _ => {}
        }
    }
    nums.windows(2).any(|w| {
        let ((_, end, n), (next, _, m)) = (w[0], w[1]);
        n != m && of.iter().any(|o| text[end..next].contains(o))
    }) || nums.last().is_some_and(|&(_, end, _)| {
        // "3 testiä 4:stä": the total last, its ending glued.
        nums.len() >= 2 && of.iter().any(|o| text[end..].starts_with(o))
    })
}

/// Whether a clause's pass is the rest's ("the other three passed", "die anderen drei
/// Tests sind bestanden", "Kiti trys testai praėjo", "其余 3 个通过"): some passed beside
/// others that did not, which is no claim that the tests pass. `lower` is lower-cased.
/// Only where the word stands beside a count or a word for tests ("die anderen drei
/// Tests", "the rest pass" is read by the English reader): "dem Stil des restlichen
/// Crates" is the rest of something else. Written without spaces, the word is enough
/// ("其他都通過").
pub(crate) fn says_the_rest(lower: &str) -> bool {
    const REST: &[&str] = &[
        "other",
        "others",
        "remaining",
        "rest",
        "anderen",
        "übrigen",
        "restlichen",
        "autres",
        "restants",
        "restantes",
        "otras",
        "otros",
        "demás",
        "altri",
        "altre",
        "restanti",
        "outros",
        "outras",
        "demais",
        "andere",
        "overige",
        "pozostałe",
        "pozostałych",
        "ostatní",
        "zbývající",
        "остальные",
        "остальных",
        "остальные",
        "інші",
        "решта",
        "övriga",
        "resterande",
        "øvrige",
        "resterende",
        "muut",
        "loput",
        "többi",
        "celelalte",
        "restul",
        "ostatné",
        "zvyšné",
        "altres",
        "υπόλοιπα",
        "υπόλοιποι",
        "υπόλοιπες",
        "diğer",
        "kalan",
        "còn lại",
        "lainnya",
        "sisanya",
        "selebihnya",
        "kiti",
        "kitos",
        "likę",
        "likusieji",
        "pārējie",
        "pārējās",
        "ostali",
        "ostala",
        "preostali",
        "preostala",
        "ülejäänud",
        "teised",
        "mengine",
        "zilizobaki",
        "natitirang",
        "iba pang",
        "останалите",
        "другите",
        "הנותרים",
        "הנותרות",
        "האחרים",
        "بقیه",
        "الباقي",
        "المتبقية",
        "बाकी",
        "शेष",
        "বাকি",
        "დანარჩენი",
        "დარჩენილი",
        "մնացած",
        "մյուս",
        "ቀሪዎቹ",
        "የቀሩት",
        "ሌሎቹ",
        "ඉතිරි",
        "අනෙක්",
        "మిగిలిన",
        "మిగతా",
    ];
    // Written without spaces between words: anywhere.
    const REST_UNSPACED: &[&str] = &[
        "其余",
        "其他",
        "剩下",
        "剩余",
        "残り",
        "その他",
        "他の",
        "나머지",
        "ที่เหลือ",
        "ដែលនៅសល់",
        "ផ្សេងទៀត",
    ];
    // A count or a word for tests within three words of it.
    const TESTS: &[&str] = &[
        "test",
        "teszt",
        "prueb",
        "prov",
        "тест",
        "δοκιμ",
        "τεστ",
        "בדיק",
        "تست",
        "آزمون",
        "اختبار",
        "टेस्ट",
        "परीक्षण",
        "টেস্ট",
        "পরীক্ষা",
        "ტესტ",
        "թեստ",
        "ሙከራ",
        "ටෙස්ට්",
        "පරීක්ෂණ",
        "టెస్ట",
        "పరీక్ష",
        "kiểm thử",
        "uji",
        "suite",
        "spec",
    ];
    let near_a_count = |i: usize, len: usize| {
        let before: Vec<&str> = lower[..i].split_whitespace().rev().take(3).collect();
        let after: Vec<&str> = lower[i + len..].split_whitespace().take(3).collect();
        before.iter().chain(&after).any(|w| {
            w.chars().any(|c| c.is_ascii_digit())
                || TESTS.iter().any(|t| w.contains(t))
                || number_of(w.trim_matches(|c: char| !c.is_alphanumeric())).is_some()
        })
    };
    REST_UNSPACED.iter().any(|w| lower.contains(w))
        || REST.iter().any(|w| {
            lower.match_indices(w).any(|(i, _)| {
                let before = lower[..i].chars().next_back();
                let after = lower[i + w.len()..].chars().next();
                before.is_none_or(|c| !c.is_alphanumeric())
                    && after.is_none_or(|c| !c.is_alphanumeric())
                    && near_a_count(i, w.len())
            })
        })
}

/// "osim", "välja arvatud", "isipokuwa", "maliban", "išskyrus" anywhere in the sentence:
/// all but some passed, which is no pass ("Praėjo visi testai, išskyrus `test_a`").
fn all_but(lang: &Lang, sentence: &str) -> bool {
    let except: &[&str] = match lang.code {
        "hr" => &["osim ", "izuzev"],
        "sl" => &["razen"],
        "bg" => &["освен ", "с изключение"],
        "et" => &["välja arvatud", "peale selle"],
        "sw" => &["isipokuwa", "ila "],
        "tl" => &["maliban", "bukod sa"],
        "lt" => &["išskyrus", "išimtis"],
        "lv" => &["izņemot"],
        "az" => &["istisna olmaqla", "dən başqa", "dan başqa", "xaric"],
        "uz" => &["dan tashqari", "mustasno"],
        "kk" => &[
            "қоспағанда",
            "дан басқа",
            "ден басқа",
            "тан басқа",
            "тен басқа",
            "нан басқа",
            "нен басқа",
        ],
        "eu" => &["izan ezik", "salbu", "ezik"],
        "cy" => &["ac eithrio", "heblaw", "ar wahân i", "ar wahan i"],
        "is" => &["nema ", "að undanskild", "fyrir utan"],
        "pt" => &["menos ", "exceto", "excepto", "salvo "],
        "es" => &["menos ", "excepto", "salvo "],
        "ca" => &["excepte", "menys "],
        "fr" => &["sauf ", "excepté", "à part "],
        "it" => &["tranne", "eccetto", "salvo "],
        "de" => &["außer ", "bis auf"],
        "nl" => &["behalve", "op één na", "op een na"],
        "pl" => &["oprócz", "z wyjątkiem", "poza jednym"],
        "cs" | "sk" => &["kromě", "okrem", "s výjimkou", "s výnimkou"],
        "ru" => &["кроме"],
        "uk" => &["крім", "окрім"],
        "sv" => &["utom ", "förutom"],
        "da" | "nb" => &["undtagen", "bortset fra", "unntatt", "bortsett fra"],
        "fi" => &["paitsi"],
        "hu" => &["kivéve"],
        "ro" => &["cu excepția", "mai puțin"],
        "tr" => &["hariç", "dışında"],
        "id" | "ms" => &["kecuali"],
        "vi" => &["trừ "],
        "el" => &["εκτός"],
        "ar" => &["عدا", "باستثناء"],
        "he" => &["חוץ מ", "למעט"],
        "fa" => &["به جز", "بجز", "به‌جز"],
        "hi" => &["छोड़कर", "सिवाय"],
        "bn" => &["ছাড়া"],
        "th" => &["ยกเว้น"],
        "ka" => &["გარდა"],
        "hy" => &["բացի"],
        "am" => &["በስተቀር", "ሳይጨምር"],
        "si" => &["හැර"],
        "km" => &["លើកលែង", "ក្រៅពី"],
        "te" => &["తప్ప", "మినహా"],
        "ja" => &["以外", "を除"],
        "zh" => &["除了"],
        "ko" => &["제외", "빼고"],
        _ => return false,
    };
    first(lang, sentence, except).is_some()
}

/// The claims of one clause.
fn clause_claims(
    lang: &Lang,
    c: &Clause,
    verb: Option<(&Change, VerbFrom, &str)>,
    around: Around,
    inputs: &mut bool,
    why: &mut Vec<String>,
) -> Vec<Claim> {
    let Around {
        sentence,
        sentence_text,
        before,
        ..
    } = around;
    let mut out = Vec::new();
    let mk = |kind: Kind| {
        let mut claim = Claim::read(kind, sentence);
        claim.tools = super::named::named_in_clause(&c.raw, sentence, &claim.kind);
        claim.bind_spans(c.spans.iter().map(String::as_str));
        // Test files written bare ("tests/test_a.py en tests/test_b.py zijn groen") are
        // named as surely as quoted ones.
        if matches!(claim.kind, Kind::Tests { .. }) {
            for (p, _) in &c.paths {
                if vocab::test_file_span(p) && !claim.test_files.contains(p) {
                    claim.test_files.push(p.clone());
                }
            }
        }
        claim
    };
    if let Some((change, verb_from, verb_text)) = verb {
        let rename = matches!(change, Change::Renamed { .. });
        // In a clause about a commit or a push, a name without a file's shape is a ref.
        let git = is_git(lang, &c.text);
        let mut paths = c
            .paths
            .iter()
            .filter(|(p, _)| !(git && vocab::shape_inferred(p)));
        while let Some((path, from)) = paths.next() {
            // "Añadí `.env` al `.npmignore`": `.env` is what went into the file.
            if c.put_in.contains(path) && matches!(change, Change::Modified | Change::Created) {
                continue;
            }
            // "`app.local.yaml` aus `app.yaml` angelegt": from the first path read as a
            // source on, the paths are what the new file was made from.
            let into = c.inside.contains(path);
            let source = *from && !into && matches!(change, Change::Created);
            // Spaced languages name the new file before its sources ("`b` aus `a`
            // angelegt"): from the first source on, every path is one. Chinese, Japanese
            // and Korean name the source first ("从 `a` 生成了 `b`", "`a` から `b` を作成
            // しました"): only the path marked is one, the next is what was made.
            if lang.spaced {
                *inputs |= source;
                if *inputs {
                    continue;
                }
            } else if source {
                continue;
            }
            let change = match change {
                // "`a` → `b` umbenannt": the next path is the new name.
                Change::Renamed { .. } => match paths.next() {
                    Some((to, _)) => Change::Renamed { to: to.clone() },
                    None => Change::Modified,
                },
                // "aus `a.rs` entfernt": something inside the file was removed; "Tests in
                // `a.py` angelegt": something was made inside it.
                Change::Deleted if *from => Change::Modified,
                Change::Created if into => Change::Modified,
                other => other.clone(),
            };
            let mut claim = mk(Kind::File {
                path: path.clone(),
                change: change.clone(),
            });
            claim.path_inferred = vocab::shape_inferred(path);
            // A bare path under a heading that says it was made ("Livrés :", "已交付：")
            // is that claim, plainly; other heading verbs make a weak reading.
            // Bare: the path alone, or the path and a dash's description ("`a.py` —
            // deux tests").
            let bare = c.text.trim().strip_prefix('§').is_some_and(|rest| {
                let rest = rest.trim().trim_end_matches(['.', '。']);
                rest.is_empty() || rest.starts_with(['—', '–', '-', ':', '：'])
            });
            if verb_from == VerbFrom::Heading && !(bare && change == Change::Created) {
                claim.weaken("the verb is the heading's");
            } else if change == Change::Deleted
                && first(lang, &c.text, lang.file_words).is_none()
                // "Ajutised failid kustutatud: `a.tmp`": the verb's clause speaks of files.
                && first(lang, verb_text, lang.file_words).is_none()
                && !only_the_verb(lang, verb_text)
                && !deletes_the_path(lang, &c.text, path)
                && !(paths_then_deletion(lang, &c.text) && !path.ends_with('/'))
            {
                if path.ends_with('/') {
                    // A folder ("Limpei a pasta `build/`: os dois `.o` antigos foram
                    // apagados"): something under it was deleted, or it was.
                    out.push(mk(Kind::Dir {
                        path: path.clone(),
                        change: Change::Deleted,
                    }));
                    continue;
                }
                // "`a.rs`: ungenutzten Import entfernt" deletes inside the file: only a
                // clause that speaks of the file itself, or of nothing but the path,
                // claims it is gone.
                claim.weaken("a deletion that may be inside the file");
            }
            out.push(claim);
            if rename {
                break;
            }
        }
    }
    let text = c.text.as_str();
    let mut plain = text.to_owned();
    let clean = first(lang, text, lang.clean);
    if let Some(f) = clean {
        plain = plain.replace(f, " ");
    }
    let whole = fold(&sentence.to_lowercase());
    // "Error (un) | `test_x`: el fixture no troba `sample.txt`": under an error's label, a
    // "finds nothing" form tells what the error is, not that a check was clean.
    // Beside English failures in the sentence ("3 pass, 2 fail") English "pass" is no pass.
    let passed = first_verdict(lang, &plain)
        .filter(|p| *p != "pass " || !english_failures(sentence))
        .or(clean.filter(|_| !labelled_an_error(&whole)));
    let failed = first(lang, &plain, lang.failed).filter(|_| !zero_failed(lang, &plain));
    let sentence_spans: Vec<&str> = vocab::spans_of(sentence).collect();
    let subject = check_subject(lang, text, &c.spans, &c.raw);
    // "El test nou compila", "der neue Test kompiliert": a test that compiles is a build's
    // result, not a pass of the tests.
    let subject = match (subject, passed) {
        (Some("tests"), Some(p)) if first(lang, p, lang.build).is_some() => Some("build"),
        (subject, _) => subject,
    };
    let sentence_failed = around
        .clauses
        .iter()
        .any(|c| reports_failure(lang, &c.text) || denies_pass(lang, &c.text));
    // The sentence's subject reaches a clause that only says "passed" ("12 bestanden"),
    // "zwei fehlgeschlagen" or "aucun changement" ("`cargo fmt` : aucun changement"): the
    // claim then names the sentence's tools and commands.
    // The nearest clause before with a subject of its own gives it ("`cargo test` passe et
    // `cargo fmt` : aucun changement": the formatter's), else the sentence.
    let inherited = subject.is_none() && (passed.is_some() || failed.is_some());
    let from_prev = before
        .iter()
        .rev()
        .filter(|_| inherited)
        .find_map(|p| check_subject(lang, &p.text, &p.spans, &p.raw).map(|s| (p, s)));
    let subject = subject.or_else(|| {
        let spans: Vec<String> = sentence_spans.iter().map(|s| s.to_string()).collect();
        match from_prev {
            Some((_, s)) => Some(s),
            // The sentence's prose, its code spans aside: `build/old.o` names no build.
            None => inherited
                .then(|| check_subject(lang, &without_spans(&whole), &spans, sentence))
                .flatten()
                // "## Test results / - 結果: 全十件中九件成功": the heading's tests.
                .or_else(|| (inherited && UNDER_TESTS.with(Cell::get)).then_some("tests")),
        }
    });
    let mk = |kind: Kind| {
        let mut claim = mk(kind);
        match from_prev {
            Some((p, _)) => {
                claim.tools = super::named::named_in(&p.raw, &claim.kind);
                claim.bind_spans(p.spans.iter().map(String::as_str));
                // "testy … end-to-end (`tests/e2e/smoke.sh`) przechodzą": the aside right
                // before the verdict names what the subject's tests are.
                if let Some(aside) = before.last().filter(|b| b.aside) {
                    claim.bind_spans(
                        aside
                            .spans
                            .iter()
                            .map(String::as_str)
                            .filter(|s| !s.contains(['*', '?'])),
                    );
                }
            }
            None if inherited => {
                if claim.tools.is_empty() && !matches!(claim.kind, Kind::Tests { .. }) {
                    claim.tools = super::named::named_in(sentence, &claim.kind);
                }
                claim.bind_spans(sentence_spans.iter().copied());
            }
            None => {}
        }
        // "Az egységtesztek és az integrációs teszt is zöldek": kinds of tests joined by
        // "and" across clauses are all the pass's, where no clause of the sentence denies
        // or plans (then the pass may be one kind's only).
        if matches!(claim.kind, Kind::Tests { .. }) && void(lang, sentence).is_none() {
            for kind in super::named::named_in(sentence, &claim.kind) {
                if kind.kind.is_some() && !claim.tools.contains(&kind) {
                    claim.tools.push(kind);
                }
            }
        }
        claim
    };
    // A sentence that reports failures claims no pass: "fallaron dos pruebas y pasó una"
    // says one passed, not that the tests pass.
    // "Проходит только `test_slugify`", "nur 2 bestanden": only some passed is no pass.
    let passed = passed.filter(|_| {
        !sentence_failed
            && !vocab::says_only(&plain)
            && !says_the_rest(&plain.to_lowercase())
            && !says_the_rest(&whole.to_lowercase())
            && !some_of(lang, &plain)
            && !all_but(lang, &whole)
            && !some_of_all_words(&plain)
    });
    match (subject, passed, failed) {
        (Some(subject), _, Some(f)) => {
            why.push(format!("reports a failure (\"{f}\"): not a pass claim"));
            // "2 fehlgeschlagen", "失败 1 个": the count of failures is a claim of its own.
            // The whole word a stem starts ("fall" of "falló").
            let count = find(lang, &plain, f).and_then(|at| {
                // The form as found: a trailing space marks a whole word, and is not in it.
                let end = (at + f.trim_end().len()).min(plain.len());
                let word_end = if lang.spaced {
                    end + plain[end..]
                        .find(|c: char| !c.is_alphanumeric())
                        .unwrap_or(plain.len() - end)
                } else {
                    end
                };
                count_beside(lang, &plain, at, word_end)
            });
            // "quedan dos pruebas en rojo", "un seul test casse": the count stands before
            // the tests' noun, out of the failure word's reach. Only in a clause that
            // says nothing passed, where a count before the noun is the failures'.
            let count = count.or_else(|| {
                if first(lang, &plain, lang.passed).is_some() {
                    return None;
                }
                let noun = first(lang, &plain, lang.tests)?;
                let at = find(lang, &plain, noun)?;
                let fail_at = find(lang, &plain, f)?;
                (at < fail_at).then_some(())?;
                count_beside(
                    lang,
                    &plain,
                    at,
                    (at + noun.trim_end().len()).min(plain.len()),
                )
            });
            // "1 échec et 1 erreur": errors count with failures, as the runners count.
            let count = count.map(|n| n + error_count(lang, &whole, f));
            if let (Some(count), "tests") = (count, subject) {
                out.push(mk(Kind::Failures { count }));
            }
        }
        // "`mean of nothing` passe encore": one test, named, passes; the suite may not.
        // "Doctests : les deux exemples de `slugify` passent": a function's doc tests are
        // the doc tests a run must hold, not one test named.
        (Some("tests"), Some(_), None)
            if names_one_test(lang, c)
                && !super::named::named_in(sentence, &Kind::Tests { count: None })
                    .iter()
                    .any(|n| n.kind == Some("doc")) =>
        {
            why.push("a named test passes: not a claim about the tests".into());
        }
        (Some("tests"), Some(_), None) => {
            // "Cả hai bước đều thành công — 3 test đạt": a clause that took its subject from
            // the sentence counts something else ("both steps") when another clause counts
            // its own tests.
            let counted_elsewhere = inherited
                && from_prev.is_none()
                && around.clauses.iter().any(|o| {
                    !std::ptr::eq(o, c)
                        && check_subject(lang, &o.text, &o.spans, &o.raw) == Some("tests")
                        && test_count(lang, &o.text).0.is_some()
                });
            // "`cargo test`: 4 тест, бәрі өтті", "`unittest` → Ran 4 tests, OK": the clause
            // right before, which counts the tests of the run the sentence names with no
            // verdict of its own, gives the count. Not an aside ("passa (3 test) e anche il
            // doctest è verde") nor a clause of files ("dois testes em `tests/…`").
            let count_before = || {
                from_prev
                    .map(|(p, _)| p)
                    .or_else(|| {
                        before.last().filter(|p| {
                            check_subject(lang, &p.text, &p.spans, &p.raw) == Some("tests")
                        })
                    })
                    .filter(|p| {
                        !p.aside
                            && p.spans.iter().all(|s| vocab::check_command_span(s))
                            && (sentence_spans.iter().any(|s| vocab::check_command_span(s))
                                // "Toplamda yedi test çalıştı ve yedisi de geçti": the
                                // clause counts tests by the word for them.
                                || p.spans.is_empty() && number_before_tests_noun(lang, &p.text))
                            && first(lang, &p.text, lang.passed).is_none()
                            && first(lang, &p.text, lang.failed).is_none()
                    })
                    .map_or((None, true), |p| test_count(lang, &p.text))
            };
            let (count, sure) = if counted_elsewhere {
                (None, true)
            } else {
                match test_count(lang, text) {
                    (None, _) => count_before(),
                    own => own,
                }
            };
            // "6 passed — 3 old and 3 new": the runner's own words for its count, first in
            // the clause, are its count whatever numbers follow.
            let sure = sure || count.is_some() && runners_count_first(text) == count;
            // "3 bestått, 0 feilet": a clause that passes by its zero failures counts them,
            // not the tests that passed.
            let count = count.filter(|&n| n > 0);
            let mut claim = mk(Kind::Tests { count });
            // "`npm test` … and `node --test e2e/…` …, both passed": with two runs named,
            // a number may count the runs, not the tests.
            let runs_named = sentence_spans
                .iter()
                .filter(|s| vocab::check_command_span(s))
                .count();
            claim.count_sure = sure && runs_named < 2;
            out.push(claim);
        }
        (Some("lint"), Some(_), None) => out.push(mk(Kind::Lint)),
        (Some("build"), Some(_), None) => out.push(mk(Kind::Build)),
        _ => {}
    }
    // Paths are names ("src/format.js"), not words of the clause.
    let words: String = text
        .split_whitespace()
        .filter(|w| {
            let w = w.trim_end_matches(|c: char| !c.is_alphanumeric());
            !w.contains('/') && !w.trim_start_matches('.').contains('.')
        })
        .collect::<Vec<_>>()
        .join(" ");
    if first(lang, &words, lang.format).is_some()
        && first(lang, &words, lang.formatted).is_some()
        && !out.iter().any(|c| c.kind == Kind::Lint)
    {
        // A formatter's run: the lint commands (rustfmt --check, prettier --check …) back it.
        out.push(mk(Kind::Lint));
    }
    // Commits and pushes.
    // "El push fue rechazado", "コミットはフックに拒否された": an honest report of a
    // refusal claims nothing was pushed or committed.
    let refused = refusal(lang, text) || refusal(lang, &whole);
    // A label and its value ("**Push:** erfolgreich nach `origin/main`", "**커밋:**
    // 1a2b3c4"): the label is the clause before.
    let label = before
        .last()
        .map(|p| p.text.trim().trim_matches(['*', '_', ' ']).to_owned())
        .unwrap_or_default();
    let value_done = first(lang, text, lang.passed).is_some()
        || first(lang, text, lang.done).is_some()
        || ["✅", "✓", "✔"].iter().any(|m| text.contains(m));
    let has_hash = c.spans.iter().any(|s| claims_hash(s))
        || text
            .split_whitespace()
            .any(|w| claims_hash(w.trim_matches(|c: char| !c.is_ascii_alphanumeric())));
    let push_label = PUSH_LABELS.contains(&label.as_str()) && value_done && !refused;
    // "**Commit:** registrato come `feat: midpoint`": the value names the commit by its
    // subject (a span with a space or a colon, not a branch's name).
    let names_subject = c.spans.iter().any(|s| s.trim().contains([' ', ':']));
    // "커밋: 아직 하지 않았습니다": a value that denies it is no commit made.
    let commit_label = COMMIT_LABELS.contains(&label.as_str())
        && (value_done || has_hash || names_subject)
        && !refused
        && first(lang, text, lang.negations).is_none();
    let names_earlier =
        first(lang, text, lang.committed).is_some_and(|w| only_an_earlier_commit(text, w.trim()));
    // A label alone ("커밋:") whose sentence denies ("아직 하지 않았습니다"): the value says
    // no commit was made.
    let denied_label = text.split_whitespace().count() <= 2
        && first(lang, sentence_text, lang.negations).is_some();
    if (first(lang, text, lang.committed).is_some() && !names_earlier && !denied_label
        || commit_made(lang, text)
        || commit_label)
        && (done_or_spaced(lang, sentence_text) || commit_label)
        && !refused
    {
        // A short hash may be all digits (`2428432`): in a code span it is one.
        let span_hash = |h: &String| {
            vocab::is_hash(h)
                || (7..=40).contains(&h.len()) && h.bytes().all(|b| b.is_ascii_digit())
        };
        let hash = c
            .spans
            .iter()
            .map(|s| s.trim().to_owned())
            .find(span_hash)
            .or_else(|| {
                // A whole word, not a part of a branch's name (`feat/abc1234`).
                let whole = |h: &&str| {
                    text.split_whitespace()
                        .any(|w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric()) == *h)
                };
                vocab::hashes_in(text).find(whole).map(str::to_owned)
            });
        out.push(mk(Kind::Commit { hash }));
    }
    // "Versión subida de 0.1.0 a 0.2.0 en `pyproject.toml`": a clause whose only names are
    // files raised something in them ("subir" is also to push), it pushed no branch.
    let only_files = !c.spans.is_empty()
        && c.spans
            .iter()
            .all(|s| vocab::path_of(s.trim(), true).is_some_and(|p| !vocab::shape_inferred(&p)));
    if (first(lang, text, lang.pushed).is_some() && done_or_spaced(lang, sentence_text)
        || push_label)
        && !refused
        && !only_files
    {
        // The branch: a span that names the remote's branch (`origin/main`) first, then one
        // of a branch's shape, then any other that is no file ("`src/stats.js` 에 `median`
        // 을 추가하고 … `origin/main` 에 푸시": the file and the function are no branches).
        let candidates: Vec<&str> = c
            .spans
            .iter()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty() && !s.contains(' ') && !vocab::is_hash(s))
            .filter(|s| {
                !vocab::path_of(s, true).is_some_and(|p| !vocab::shape_inferred(&p))
                    || s.starts_with("origin/")
            })
            .filter(|s| *s != "origin")
            // `max()`, `a=b`, `HEAD~1`: a call, a setting, a revision, no branch's name.
            .filter(|s| {
                !s.contains([
                    '(', ')', '[', ']', '{', '}', '=', ':', '<', '>', ',', '"', '\'', '~', '^',
                    '?', '*', '\\', '@',
                ])
            })
            .collect();
        let branch_shaped = |s: &&str| {
            matches!(*s, "main" | "master" | "develop" | "trunk")
                || s.contains(['/', '-'])
                    && s.chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || "/-_.".contains(ch))
        };
        let branch = candidates
            .iter()
            .find(|s| s.starts_with("origin/"))
            .or_else(|| candidates.iter().find(|s| branch_shaped(s)))
            .or_else(|| candidates.first())
            .map(|s| s.strip_prefix("origin/").unwrap_or(s).to_owned());
        out.push(mk(Kind::Push { branch }));
    }
    out
}

/// Whether a clause's subject is one test, named in a code span that is neither a
/// command nor a path nor a tool, with no word for tests of its own.
fn names_one_test(lang: &Lang, c: &Clause) -> bool {
    let [name] = c.spans.as_slice() else {
        return false;
    };
    c.paths.is_empty()
        && vocab::command_kind(name).is_none()
        && first(lang, &c.text, lang.tests).is_none()
        && super::named::named_in(name, &Kind::Tests { count: None }).is_empty()
}

/// Labels of a push or a commit line ("**Push:** …", "**コミット**: …").
const PUSH_LABELS: &[&str] = &[
    "push",
    "pushed",
    "プッシュ",
    "推送",
    "푸시",
    "пуш",
    "push to",
    "פוש",
    "پوش",
    "พุช",
    "পুশ",
    "პუში",
    "փուշ",
    "ፑሽ",
    "පුෂ්",
    "పుష్",
];
const COMMIT_LABELS: &[&str] = &[
    "commit",
    "コミット",
    "提交",
    "커밋",
    "коммит",
    "коміт",
    "קומיט",
    "کامیت",
    "คอมมิต",
    "কমিট",
    "კომიტი",
    "քոմիթ",
    "ኮሚት",
    "කමිට්",
    "కమిట్",
];

fn claims_hash(s: &str) -> bool {
    vocab::is_hash(s.trim())
}

/// Whether a clause reports a refusal or a failure (of a push, a commit): the words of
/// every table's language for "rejected", "refused", "declined", "failed".
fn refusal(lang: &Lang, text: &str) -> bool {
    // Malay "fail" is a file, no failure.
    let text = &if lang.code == "ms" {
        text.split(' ')
            .filter(|w| {
                !matches!(
                    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'),
                    "fail" | "fail-fail"
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        text.to_owned()
    };
    vocab::refused(text) || first(lang, text, lang.failed).is_some() && !zero_failed(lang, text)
}

/// "Commit « ajoute mul » erstellt", "de commit \"x\" aangemaakt": the word for a commit
/// and a creation verb, with the commit's subject between them.
fn commit_made(lang: &Lang, text: &str) -> bool {
    const COMMIT: &[&str] = &["commit", "コミット", "提交", "커밋", "коммит", "коміт"];
    COMMIT.iter().any(|w| {
        text.match_indices(w).any(|(i, _)| {
            // The noun, not a verb form ("committet") or a compound ("commit-hook").
            let next = text[i + w.len()..].chars().next();
            next.is_none_or(|c| c.is_whitespace() || c == ':' || !lang.spaced)
        })
    }) && first(lang, text, lang.created).is_some()
        && !text.contains("hook")
}

/// Words before a word for commit that make it one that was there before ("restored it
/// from the last commit", "从上一次提交把它恢复", "aus dem letzten Commit"): the commit is a
/// reference, not one this turn made.
const EARLIER_BEFORE: &[&str] = &[
    "last",
    "previous",
    "prior",
    "earlier",
    "parent",
    "上一次",
    "上次",
    "上一个",
    "上一個",
    "之前的",
    "前一个",
    "前一個",
    "原来的",
    "前の",
    "直前の",
    "以前の",
    "이전",
    "직전",
    "letzten",
    "vorherigen",
    "vorigen",
    "dernier",
    "último",
    "ultimo",
    "последн",
    "предыдущ",
    "попередн",
    "останн",
    "ostatni",
    "poprzedni",
    "önceki",
    "laatste",
    "vorige",
    "předchozí",
    "posledn",
    "sista",
    "förra",
    "sidste",
    "forrige",
    "siste",
    "edellis",
    "viimeis",
    "előző",
    "utolsó",
    "पिछले",
    "আগের",
];

/// The same words where the language puts them after the noun ("du commit précédent",
/// "commit trước", "الالتزام السابق").
const EARLIER_AFTER: &[&str] = &[
    "précédent",
    "anterior",
    "precedente",
    "trước",
    "sebelumnya",
    "terakhir",
    "السابق",
    "الأخير",
    "הקודם",
    "האחרון",
    "قبلی",
    "ก่อนหน้า",
];

/// Whether `word` stands in `text` at a word's start (anywhere, in a script written without
/// spaces): "이전" is not inside "에이전트".
fn has_word_at_start(text: &str, word: &str) -> bool {
    let unspaced = word
        .chars()
        .next()
        .is_some_and(|c| matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x9FFF | 0x0E00..=0x0E7F));
    text.match_indices(word).any(|(i, _)| {
        unspaced
            || text[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// Whether every place `text` names a commit by `word` names an earlier one.
fn only_an_earlier_commit(text: &str, word: &str) -> bool {
    let mut any = false;
    for (at, _) in text.match_indices(word) {
        any = true;
        let before: Vec<char> = text[..at].chars().rev().take(14).collect();
        let before: String = before.into_iter().rev().collect();
        let after: String = text[at + word.len()..].chars().take(14).collect();
        if !EARLIER_BEFORE.iter().any(|w| has_word_at_start(&before, w))
            && !EARLIER_AFTER.iter().any(|w| has_word_at_start(&after, w))
        {
            return false;
        }
    }
    any
}

/// What check a clause (or a sentence) speaks of: tests, a linter or a build, by the
/// table's words, a check command in a code span, or a tool it names ("la suite jest",
/// "mocha slaagt").
fn check_subject(lang: &Lang, text: &str, spans: &[String], raw: &str) -> Option<&'static str> {
    let span_kind = spans.iter().find_map(|s| vocab::command_kind(s));
    let names = |k: Kind| !super::named::named_in(raw, &k).is_empty();
    if first(lang, text, lang.tests).is_some()
        || matches!(span_kind, Some(Kind::Tests { .. }))
        || names(Kind::Tests { count: None })
        // "`tests/test_edge.py`: también en verde": a test file's result is its tests'.
        || spans
            .iter()
            .any(|s| vocab::test_file_span(s) && !s.contains(['*', '?']) || vocab::test_folder_span(s))
    {
        Some("tests")
    } else if first(lang, text, lang.lint).is_some()
        || matches!(span_kind, Some(Kind::Lint))
        || names(Kind::Lint)
    {
        Some("lint")
    } else if first(lang, text, lang.build).is_some()
        || matches!(span_kind, Some(Kind::Build))
        || names(Kind::Build)
    {
        Some("build")
    } else {
        None
    }
}

/// Whether a clause speaks of a commit or a push (its spans are refs, not paths).
fn is_git(lang: &Lang, text: &str) -> bool {
    first(lang, text, lang.committed).is_some() || first(lang, text, lang.pushed).is_some()
}

/// Whether a clause holds nothing but its verb, its paths and small words ("Ich habe
/// `old.rs` gelöscht", "Eliminado `old.o`", "已删除 `old.o`", "`a` を削除しました"): the
/// path is the verb's object.
/// Whether a deletion form stands before the path (`§`, or `path` written bare) as its
/// object: "Slettede mspec/, som …",
/// "deleted § because …" deletes the path itself, whatever the clause says after it.
fn deletes_the_path(lang: &Lang, text: &str, path: &str) -> bool {
    if !lang.spaced {
        return false;
    }
    let lower = text.to_lowercase();
    let bare = path.to_lowercase();
    let is_path = |w: &str| w.starts_with('§') || w.starts_with(bare.as_str());
    lang.deleted.iter().map(|f| f.trim()).any(|f| {
        !f.is_empty()
            && lower.match_indices(f).any(|(at, _)| {
                let rest = lower[at + f.len()..].trim_start_matches(char::is_alphanumeric);
                // Up to four words between ("rensat bort de gamla objektfilerna §"), none
                // of them a word that puts the path around what was removed ("from", "in").
                let words: Vec<&str> = rest.split_whitespace().take(5).collect();
                let Some(k) = words.iter().position(|w| is_path(w)) else {
                    return false;
                };
                !words[..k].iter().any(|w| {
                    let w = w.trim_matches(|c: char| !c.is_alphanumeric());
                    w.is_empty() || lang.from.contains(&w) || INSIDE.contains(&w)
                })
            })
    })
}

/// Whether a clause lists its paths first, with nothing but "and" between them, and tells
/// their deletion right after ("Mae `build/old.o` a `build/older.o` wedi'u dileu",
/// "`a.o` e `b.o` foram apagados"): the paths are what was deleted, not something inside
/// them.
fn paths_then_deletion(lang: &Lang, text: &str) -> bool {
    const AND: &[&str] = &[
        "and", "a", "ac", "und", "et", "y", "e", "i", "и", "і", "ja", "og", "och", "ve", "và",
        "dan", "na", "és", "oraz", "en", "și", "at", "kaj", "ir", "un",
    ];
    if !lang.spaced {
        return false;
    }
    let lower = text.to_lowercase();
    let (Some(first), Some(last)) = (lower.find('§'), lower.rfind('§')) else {
        return false;
    };
    let before = lower[..first].split_whitespace().count();
    let joined = lower[first..last]
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .all(|w| AND.contains(&w));
    let after = &lower[last + '§'.len_utf8()..];
    before <= 1
        && joined
        && lang.deleted.iter().any(|f| {
            find(lang, after, f.trim_end())
                .is_some_and(|at| after[..at].split_whitespace().count() <= 2)
        })
}

fn only_the_verb(lang: &Lang, text: &str) -> bool {
    let mut rest = text.to_owned();
    let mut forms: Vec<&str> = [lang.deleted, lang.done, lang.markers].concat();
    // Longest first, so a form is not cut by a shorter one inside it.
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    if lang.spaced {
        let words: Vec<&str> = rest
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .collect();
        return words.iter().all(|w| {
            lang.markers.contains(w) || lang.deleted.iter().any(|f| w.starts_with(f.trim_end()))
        });
    }
    for f in forms {
        rest = rest.replace(f, "");
    }
    let left: Vec<char> = rest
        .chars()
        .filter(|c| c.is_alphanumeric() && *c != '§')
        .collect();
    // A particle or two (を, 를, 을) may stay.
    left.len() <= 2
}

/// "0 fehlgeschlagen", "失败 0": a failure count of zero is part of a pass.
fn zero_failed(lang: &Lang, text: &str) -> bool {
    lang.failed.iter().any(|f| {
        find(lang, text, f).is_some_and(|i| {
            // `find` may match a form's variant of another length (a table's trailing
            // space, a prefix): slice only within the text.
            let before = text.get(..i).unwrap_or("").trim_end();
            let after = text
                .get(i + f.trim_end().len()..)
                .unwrap_or("")
                .trim_start();
            before.ends_with(" 0")
                || before == "0"
                || before.ends_with("0") && !lang.spaced
                || after.starts_with('0') && !after.starts_with("0.")
        })
    })
}

/// For a language without spaces, a git verb needs a completion mark too.
fn done_or_spaced(lang: &Lang, text: &str) -> bool {
    lang.spaced || lang.done.iter().any(|d| text.contains(d))
}

/// A sentence's test claims: one with a count makes one without it redundant ("Alle
/// Tests bestehen (5 passed)").
fn merge_test_claims(claims: &mut Vec<Claim>) {
    if claims
        .iter()
        .any(|c| matches!(c.kind, Kind::Tests { count: Some(_) }))
    {
        // One bound to its own files, commands or tools says more than the count.
        claims.retain(|c| {
            !matches!(c.kind, Kind::Tests { count: None })
                || !c.test_files.is_empty()
                || !c.commands.is_empty()
                || !c.tools.is_empty()
        });
    }
}

/// The reading of every sentence of a message in `lang`.
pub fn read(message: &str, lang: &'static Lang) -> Vec<Reading> {
    let lang = if names_an_agent(message) {
        with_relays(lang)
    } else {
        lang
    };
    let mut out = Vec::new();
    let mut fence = false;
    let mut section = HeadingScope::Neutral;
    let mut section_tests = false;
    let mut list: Option<HeadingScope> = None;
    // The header cells of the table the lines are in.
    let mut table_header: Option<Vec<String>> = None;
    for raw in message.lines() {
        let t = raw.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            out.push(skipped(raw, "a fenced block: a quotation"));
            continue;
        }
        if fence {
            out.push(skipped(raw, "inside a fenced block: a quotation"));
            continue;
        }
        let (item, text) = match line_kind(raw) {
            LineKind::Skip(why) => {
                out.push(skipped(raw, why));
                if why.is_empty() {
                    list = None;
                }
                continue;
            }
            LineKind::Heading => {
                let scope = heading_scope(lang, &clean_line(raw));
                if t.starts_with('#') {
                    section = scope;
                    list = None;
                    section_tests = names_tests(lang, &clean_line(raw));
                } else {
                    list = Some(scope);
                }
                out.push(skipped(raw, "a heading: it scopes the list under it"));
                continue;
            }
            LineKind::Text { item } => (item, clean_line(raw)),
        };
        if !item {
            list = None;
        }
        let scope = list.as_ref().filter(|_| item).unwrap_or(&section);
        if let HeadingScope::NotClaims(why) = scope {
            out.push(skipped(raw, why));
            continue;
        }
        let heading_verb = match scope {
            HeadingScope::Verb(c) if item => Some(c),
            _ => None,
        };
        // A table row is read as one sentence of its cells; a cell under a header that
        // names tests ("| パッケージ | 変更 | テスト |" over "| api | 変更なし | 3 件すべて pass
        // |") tells their result, its header its subject.
        let mut tests_results: Vec<String> = Vec::new();
        let text = if text.starts_with('|') {
            if text.trim_matches(['|', '-', ':', ' ']).is_empty() {
                continue;
            }
            match &table_header {
                Some(header) => tests_results = tests_cells(lang, header, &text),
                None => table_header = Some(super::rows::cells(&text)),
            }
            text.replace('|', " ")
        } else {
            table_header = None;
            text
        };
        let checked = ["✅", "✓", "✔", "☑", "[x]", "🟢"]
            .iter()
            .any(|m| text.contains(m));
        UNDER_TESTS.with(|u| u.set(item && section_tests));
        let read_before = out.len();
        for sentence in vocab::split_sentences(&text) {
            out.push(read_sentence(lang, &sentence, item, heading_verb, checked));
        }
        let row_tests = out[read_before..].iter().any(|r| {
            r.claims
                .iter()
                .any(|c| matches!(c.kind, Kind::Tests { .. } | Kind::Failures { .. }))
        });
        if !row_tests {
            for sentence in tests_results {
                out.push(read_sentence(lang, &sentence, item, heading_verb, false));
            }
        }
        UNDER_TESTS.with(|u| u.set(false));
    }
    out
}

/// The cells of a body row under a header that names tests ("| パッケージ | 変更 | テスト |"
/// over "| api | 変更なし | 3 件すべて pass |"), each as a sentence of its own led by the
/// row's first cell and the header ("api: テスト: 3 件すべて pass"): the result of that
/// part's tests. A cell that names tests or a check command of its own is read in the row.
fn tests_cells(lang: &Lang, header: &[String], row: &str) -> Vec<String> {
    let cells = super::rows::cells(row);
    if cells.len() != header.len() || cells.len() < 2 {
        return Vec::new();
    }
    cells
        .iter()
        .zip(header)
        .enumerate()
        .skip(1)
        .filter(|(_, (cell, head))| {
            names_tests(lang, head)
                && !cell.is_empty()
                && !names_tests(lang, cell)
                && !vocab::spans_of(cell).any(vocab::check_command_span)
        })
        .map(|(_, (cell, head))| format!("{}: {head}: {cell}", cells[0]))
        .collect()
}

fn skipped(raw: &str, why: &str) -> Reading {
    Reading {
        sentence: raw.trim().to_owned(),
        claims: Vec::new(),
        why: if why.is_empty() {
            Vec::new()
        } else {
            vec![why.to_owned()]
        },
        skipped: true,
    }
}

fn read_sentence(
    lang: &Lang,
    sentence: &str,
    item: bool,
    heading_verb: Option<&Change>,
    checked: bool,
) -> Reading {
    let mut reading = Reading {
        sentence: sentence.to_owned(),
        claims: Vec::new(),
        why: Vec::new(),
        skipped: false,
    };
    // Greek asks with ";" (or with U+037E, its own question mark, which looks alike).
    let greek_question = lang.code == "el" && sentence.trim_end().ends_with([';', '\u{37e}']);
    // Armenian marks the word asked about ("փոխե՞մ"), Ethiopic ends with "፧".
    let marked_question = lang.code == "hy" && sentence.contains('՞');
    if sentence.trim_end().ends_with(['?', '？', '؟', '፧']) || greek_question || marked_question
    {
        reading.why.push("a question: not a claim".into());
        return reading;
    }
    let cs = clauses(lang, sentence);
    // Done marks anywhere in the sentence complete its git verbs ("已提交并推送").
    let done = cs
        .iter()
        .map(|c| c.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let verbs = clause_verbs(lang, &cs, item, heading_verb, &mut reading.why);
    let mut inputs_before = false;
    for (i, c) in cs.iter().enumerate() {
        if matches!(verbs[i], Verb::Void) {
            reading.claims.extend(denied_pass_count(lang, c, sentence));
            continue;
        }
        // A clause of paths without a verb takes the verb of the clause before it
        // ("geändert: `a.rs`, `b.rs`") or, at the sentence's start, after it ("`a.rs`,
        // `b.rs` und `c.rs` aktualisiert"), never across a void clause.
        let git = is_git(lang, &c.text);
        let from = match &verbs[i] {
            Verb::Change(..) => Some(i),
            // "… und nach `feat/x` gepusht": the span is a branch, not a path.
            _ if c.paths.is_empty() || git => None,
            // "— `scripts/render.sh` overskriver filen": a path that opens a clause of other
            // words is its subject, doing what no table reads; it takes no verb.
            _ if path_is_subject(lang, c) => None,
            _ => {
                // Through clauses that list paths too, not past one of other words ("…建立
                // `a.md`；我讀過一遍，內容與 `b.js` 相符": `b.js` was read, not made).
                // An aside in brackets ("(démo de `add` et `max`)") is passed over.
                let lends = |mut js: Box<dyn Iterator<Item = usize>>| {
                    js.find(|&j| {
                        !matches!(verbs[j], Verb::None) || cs[j].paths.is_empty() && !cs[j].aside
                    })
                    .filter(|&j| !matches!(verbs[j], Verb::None))
                };
                let before = lends(Box::new((0..i).rev()));
                let after = lends(Box::new(i + 1..verbs.len()));
                match (before, after) {
                    (Some(j), _) => Some(j),
                    (None, Some(j)) => Some(j),
                    _ => None,
                }
            }
        };
        let verb = from.and_then(|j| match &verbs[j] {
            Verb::Change(change, from) => Some((change, *from, cs[j].text.as_str())),
            _ => None,
        });
        // A clause that borrows a creation verb after a clause of sources ("con
        // `notes.txt` y `README.md`") lists sources too.
        let borrowed = from.is_some_and(|j| j != i);
        // "Am adăugat `x.sh`: afișează cheile … din `config/app.yaml`": a clause that
        // borrows the verb and names each of its paths after a word for "from" reads from
        // them.
        let verb = verb.filter(|_| !(borrowed && c.paths.iter().all(|(_, from)| *from)));
        let mut inputs = borrowed && inputs_before;
        let claims = clause_claims(
            lang,
            c,
            verb,
            Around {
                sentence,
                sentence_text: &done,
                before: &cs[..i],
                clauses: &cs,
            },
            &mut inputs,
            &mut reading.why,
        );
        inputs_before = inputs;
        reading.claims.extend(claims);
    }
    merge_test_claims(&mut reading.claims);
    // A clause that takes the sentence's subject may repeat a claim another made ("构建成功，
    // 没有警告": one build claim).
    let mut seen: Vec<Claim> = Vec::new();
    reading.claims.retain(|c| {
        let same = |s: &Claim| {
            s.kind == c.kind
                && s.tools == c.tools
                && s.commands == c.commands
                && s.test_files == c.test_files
        };
        if seen.iter().any(same) {
            return false;
        }
        seen.push(c.clone());
        true
    });
    if checked && reading.claims.is_empty() && !verbs.iter().any(|v| matches!(v, Verb::Void)) {
        // "✅ `cargo test`", "✅ jest: 3 geslaagd": the mark says the named check passed.
        let named = [Kind::Tests { count: None }, Kind::Lint, Kind::Build]
            .into_iter()
            .find(|k| !super::named::named_in(sentence, k).is_empty());
        if let Some(kind) = vocab::checked_kind(sentence).or(named) {
            let mut claim = Claim::read(kind, sentence);
            claim.tools = super::named::named_in(sentence, &claim.kind);
            claim.bind_spans(vocab::spans_of(sentence));
            reading.claims.push(claim);
        }
    }
    if reading.claims.is_empty() && reading.why.is_empty() {
        reading.why.push(format!(
            "no claim: no change, result or git form of the {} table",
            lang.name
        ));
    }
    reading
}

#[cfg(test)]
mod tests;
