//! Readings in any language, after each language's reader has had its say: result rows,
//! named paths, values from old to new, and whole counts.
//!
//! Agents report checks as rows more often than as sentences: a table row (`| \`cargo
//! clippy -- -D warnings\` | sauber, keine einzige Warnung |`), an arrow (`- \`cargo
//! clippy\` → no lints`), a label (`\`cargo clippy\`: limpo.`). The value is a word or
//! two, and which language it is in matters less than what it says: passed, clean, no
//! problems. A row that names a check which never ran, or failed, is a claim that blocks
//! ([`add_row_claims`]).
//!
//! A report that names a path says the project has it: a list item that leads with one,
//! a path in a sentence that reports. That blocks only where the project never had the
//! path ([`Listed`], [`mark_listed_paths`], [`mark_mentioned_paths`]). A value going from
//! old to new beside a path says the file changed ([`mark_value_changes`]); "all five"
//! counts every test ([`mark_whole_counts`]).
//!
//! Every table's words are looked up here at once (thousands of forms), so the sets are
//! indexed by first character and built once per process ([`Forms`]).

use super::lang::{fold, LANGS};
use super::vocab::{self, Change, Claim, Kind, Listed, Reading};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A set of word forms, indexed by first character so one pass over a sentence finds any
/// of them (thousands of forms across the tables: a search per form costs milliseconds
/// on a long report).
struct Forms {
    by_first: HashMap<char, Vec<Form>>,
}

struct Form {
    text: String,
    /// Must end at a word's end (English words, the forms written with a trailing space).
    whole: bool,
    /// Matches anywhere, not only at a word's start (scripts without spaces or case).
    anywhere: bool,
}

impl Forms {
    /// `stems` match as the tables do ([`has_stem`]); `words` only whole.
    fn new<'a>(
        stems: impl IntoIterator<Item = &'a str>,
        words: impl IntoIterator<Item = &'a str>,
    ) -> Forms {
        let mut by_first: HashMap<char, Vec<Form>> = HashMap::new();
        let mut add = |raw: &str, whole: bool| {
            let text = raw.trim();
            let Some(first) = text.chars().next() else {
                return;
            };
            let anywhere = !whole
                && !text.is_ascii()
                && !text
                    .chars()
                    .any(|c| c.is_alphabetic() && (c.is_lowercase() || c.is_ascii()));
            let whole = whole || raw.ends_with(' ') || !text.chars().any(char::is_alphabetic);
            by_first.entry(first).or_default().push(Form {
                text: text.to_owned(),
                whole,
                anywhere,
            });
        };
        for f in stems {
            add(f, false);
        }
        for w in words {
            add(w, true);
        }
        Forms { by_first }
    }

    /// Whether any form stands in `text` (lower-cased, folded).
    fn any_in(&self, text: &str) -> bool {
        let mut prev: Option<char> = None;
        for (i, c) in text.char_indices() {
            let word_start = prev.is_none_or(|p| !p.is_alphanumeric());
            prev = Some(c);
            let Some(forms) = self.by_first.get(&c) else {
                continue;
            };
            for f in forms {
                if !(word_start || f.anywhere) || !text[i..].starts_with(&f.text) {
                    continue;
                }
                let end = i + f.text.len();
                let ends_word = text[end..]
                    .chars()
                    .next()
                    .is_none_or(|n| !n.is_alphanumeric());
                if !f.whole || ends_word {
                    return true;
                }
            }
        }
        false
    }
}

/// The forms that say a path is not there (denials, deletions, plans, someone else's,
/// earlier), of every table, and this reader's own.
fn not_there_forms() -> &'static Forms {
    static FORMS: OnceLock<Forms> = OnceLock::new();
    FORMS.get_or_init(|| {
        let lists = |l: &super::lang::Lang| -> Vec<&'static str> {
            [
                l.negations,
                l.deleted,
                l.renamed,
                l.modal,
                l.others,
                l.earlier,
            ]
            .concat()
        };
        // English is read word by word: its table's forms are whole words.
        let stems: Vec<&str> = LANGS
            .iter()
            .filter(|l| l.code != "en")
            .flat_map(|l| lists(l))
            .collect();
        let english = LANGS
            .iter()
            .filter(|l| l.code == "en")
            .flat_map(|l| [l.negations, l.modal, l.others, l.earlier].concat());
        let words: Vec<&str> = NOT_THERE.iter().copied().chain(english).collect();
        Forms::new(stems, words)
    })
}

/// The forms that take a pass back: failures (`with_failures`), plans, a check not run.
fn refuting_forms(with_failures: bool) -> &'static Forms {
    static WITH: OnceLock<Forms> = OnceLock::new();
    static WITHOUT: OnceLock<Forms> = OnceLock::new();
    let build = |failures: bool| {
        let table = |en: bool| {
            LANGS
                .iter()
                .filter(move |l| (l.code == "en") == en)
                .flat_map(move |l| {
                    let fails = if failures { l.failed } else { &[] };
                    [fails, l.modal].concat()
                })
                .collect::<Vec<_>>()
        };
        let words: Vec<&str> = NOT_A_PASS.iter().copied().chain(table(true)).collect();
        Forms::new(table(false), words)
    };
    if with_failures {
        WITH.get_or_init(|| build(true))
    } else {
        WITHOUT.get_or_init(|| build(false))
    }
}

/// Words (whole) that make a sentence no report of what is.
fn not_a_report_forms() -> &'static Forms {
    static FORMS: OnceLock<Forms> = OnceLock::new();
    FORMS.get_or_init(|| Forms::new([], NOT_A_REPORT.iter().copied()))
}

/// Marks that say a check passed.
const MARKS: &[&str] = &["✅", "✓", "✔", "☑", "🟢"];

/// Where the subject of a row ends and its value begins.
const SEPARATORS: &[&str] = &["→", "->", "=>", "⇒", ":", "：", "—", "–", "-", "|", "="];

/// Values that say a check passed, in any language, beside each table's own.
const PASSED: &[&str] = &[
    "ok",
    "okay",
    "clean",
    "pass",
    "passed",
    "passes",
    "passing",
    "green",
    "success",
    "succeeded",
    "fine",
    "0 errors",
    "0 warnings",
    "0 issues",
    "0 problems",
    "no issues",
    "no problems",
    "no errors",
    "no warnings",
    "no lints",
    "no findings",
    "no diagnostics",
    // Clean and green, as agents write them in the tables' languages and beyond.
    "sauber",
    "grün",
    "propre",
    "vert",
    "limpio",
    "verde",
    "limpo",
    "pulito",
    "schoon",
    "groen",
    "чисто",
    "зелён",
    "зелен",
    "干净",
    "乾淨",
    "きれい",
    "깨끗",
    "czysto",
    "zielon",
    "temiz",
    "sạch",
    "bersih",
    "lulus",
    "başarılı",
    "thành công",
];

/// Phrases that say a check found nothing to complain about.
const NOTHING_FOUND: &[&str] = &[
    "nothing to fix",
    "nothing to report",
    "nothing to complain",
    "nothing found",
    "nichts zu beanstanden",
    "nichts zu melden",
    "nichts gefunden",
    "rien à signaler",
    "rien à corriger",
    "rien à redire",
    "nada que corregir",
    "nada que reportar",
    "nada que señalar",
    "nada a corrigir",
    "nada a relatar",
    "nada a apontar",
    "niente da segnalare",
    "niente da correggere",
    "nulla da segnalare",
    "niets te melden",
    "niets gevonden",
    "nic do poprawy",
    "nic do zgłoszenia",
    "замечаний нет",
    "ничего не нашёл",
    "ничего не нашел",
    "指摘なし",
    "指摘はありません",
    "无需修改",
    "没有需要修改",
    "고칠 것 없음",
    "düzeltilecek bir şey yok",
    "không có gì cần sửa",
    "tidak ada yang perlu diperbaiki",
];

/// Words that deny a problem noun after them ("keine Warnung", "sin errores", "нет
/// ошибок"), or, for the languages that put them last, before them ("エラーなし", "오류
/// 없음", "hata yok").
const NO_BEFORE: &[&str] = &[
    "no",
    "zero",
    "without",
    "kein",
    "keine",
    "keinen",
    "keiner",
    "ohne",
    "aucun",
    "aucune",
    "sans",
    "pas de",
    "ningún",
    "ninguna",
    "ninguno",
    "sin",
    "nessun",
    "nessuna",
    "nessuno",
    "senza",
    "nenhum",
    "nenhuma",
    "sem",
    "geen",
    "zonder",
    "нет",
    "без",
    "ни одной",
    "ни одного",
    "ни единой",
    "没有",
    "沒有",
    "无",
    "無",
    "零",
    "brak",
    "bez",
    "żadnych",
    "không có",
    "tidak ada",
    "tanpa",
];
const NO_AFTER: &[&str] = &[
    "なし",
    "無し",
    "はありません",
    "ありません",
    "は出ませんでした",
    "は出ていません",
    "없음",
    "없습니다",
    "없어요",
    "없었습니다",
    "없었어요",
    "없이",
    "yok",
    "bulunmadı",
];

/// Stems of what a check finds. A value that denies one says the check was clean.
const PROBLEMS: &[&str] = &[
    "warning",
    "error",
    "lint",
    "issue",
    "problem",
    "finding",
    "diagnostic",
    "complaint",
    "violation",
    "warnung",
    "fehler",
    "befund",
    "problem",
    "beanstandung",
    "meldung",
    "avertissement",
    "erreur",
    "problème",
    "advertencia",
    "aviso",
    "error",
    "problema",
    "errore",
    "avvis",
    "erro",
    "waarschuwing",
    "fout",
    "probleem",
    "melding",
    "предупрежд",
    "ошиб",
    "замечан",
    "проблем",
    "警告",
    "エラー",
    "問題",
    "指摘",
    "错误",
    "錯誤",
    "报错",
    "報錯",
    "问题",
    "問題",
    "경고",
    "오류",
    "에러",
    "문제",
    "błęd",
    "ostrzeż",
    "hata",
    "uyarı",
    "lỗi",
    "cảnh báo",
    "kesalahan",
    "peringatan",
    "galat",
];

/// Words that take the pass out of a value: it was not run, may pass, or failed.
const NOT_A_PASS: &[&str] = &[
    "not",
    "n't",
    "never",
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
];

/// Adds to `readings` the claim of each result row no reader made one for.
pub fn add_row_claims(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        for (span, value, kind) in results_in(&r.sentence) {
            // A reader that read a claim about this very command had its say.
            if r.claims.iter().any(|c| c.commands.contains(&span)) {
                continue;
            }
            let mut claim = Claim::read(kind, &r.sentence);
            // The tools its first words name, and the kinds of tests the whole value
            // names ("cargo test: unitários ok, integração ok"); not a tool a later
            // clause names ("passa, ma la suite jest …").
            let head = value.split([',', '，', '、']).next().unwrap_or(&value);
            claim.tools = super::named::named_in(&format!("{span} {head}"), &claim.kind);
            for kind in super::named::named_in(&format!("{span} {value}"), &claim.kind) {
                if kind.kind.is_some() && !claim.tools.contains(&kind) {
                    claim.tools.push(kind);
                }
            }
            claim.bind_spans([span.as_str()]);
            add(r, claim);
        }
    }
}

/// Adds a claim to a reading: a reading with claims says no more why it has none.
fn add(r: &mut Reading, claim: Claim) {
    if r.claims.is_empty() {
        r.why.clear();
    }
    r.claims.push(claim);
}

/// The claim that `path` is there, checked only against a path the project never had.
fn presence(path: String, sentence: &str, why: &str) -> Claim {
    let mut claim = Claim::read(
        Kind::File {
            path,
            change: Change::Created,
        },
        sentence,
    );
    claim.weaken(why);
    claim.listed = Listed::Alone;
    claim
}

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

/// Marks the claims on a path that leads its list item ([`Listed`]), and adds the
/// claim that the file is there where no reader read one.
pub fn mark_listed_paths(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let Some((path, rest)) = lead_path(&r.sentence) else {
            continue;
        };
        let mut read = false;
        for c in &mut r.claims {
            if let Kind::File { path: p, .. } = &c.kind {
                if p.trim_end_matches('/') == path.trim_end_matches('/') {
                    c.listed = Listed::Lead;
                    read = true;
                }
            }
        }
        let other_paths = r
            .claims
            .iter()
            .any(|c| matches!(c.kind, Kind::File { .. } | Kind::Dir { .. }));
        if read || other_paths || denies_it_is_there(rest) {
            continue;
        }
        let why = "a path alone on a list item: the project has it, or it is a claim";
        let claim = presence(path, &r.sentence, why);
        add(r, claim);
    }
}

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

/// Adds the claim that a path is there for each path a sentence names in a code span
/// that no claim of it names: a report that names a path says the project has it. It
/// blocks only where the project never had it ([`Listed::Alone`]).
pub fn mark_mentioned_paths(readings: &mut [Reading]) {
    // A message that says anywhere that a path is not there, or how to make it, is
    // honest about it: no other sentence of it claims that path.
    let reporting: Vec<bool> = readings.iter().map(|r| reports(&r.sentence)).collect();
    let not_claimed: Vec<String> = readings
        .iter()
        .zip(&reporting)
        .filter(|(_, reports)| !**reports)
        .flat_map(|(r, _)| path_spans(&r.sentence))
        .collect();
    for (r, _) in readings
        .iter_mut()
        .zip(reporting)
        .filter(|(r, reports)| !r.skipped && *reports)
    {
        let spans: Vec<String> = path_spans(&r.sentence)
            .into_iter()
            .filter(|p| !not_claimed.contains(p))
            .collect();
        for path in spans {
            let named = r.claims.iter().any(|c| match &c.kind {
                Kind::File { path: p, .. } | Kind::Dir { path: p, .. } => {
                    p.trim_end_matches('/') == path.trim_end_matches('/')
                }
                _ => false,
            });
            if named {
                continue;
            }
            let why = "a path a report names: the project has it, or it is a claim";
            let claim = presence(path, &r.sentence, why);
            add(r, claim);
        }
    }
}

/// Marks where a value goes from old to new beside a path (`package.json` 1.0.0 →
/// 1.0.1, "`config/app.yaml`: port 8080 → 9000"): the line says the file changed, in
/// any language.
pub fn mark_value_changes(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let arrows = ["→", "->", "=>", "⇒"];
        if !arrows.iter().any(|a| r.sentence.contains(a)) || !reports(&r.sentence) {
            continue;
        }
        let paths = path_spans(&r.sentence);
        let [path] = paths.as_slice() else {
            continue;
        };
        // Outside code spans: the arrow between two plain values.
        let prose: String = r
            .sentence
            .split('`')
            .step_by(2)
            .collect::<Vec<_>>()
            .join(" § ");
        let arrow = ["→", "->", "=>", "⇒"]
            .iter()
            .find_map(|a| prose.split_once(a));
        let Some((before, after)) = arrow else {
            continue;
        };
        let old = before.split_whitespace().last().unwrap_or("");
        let new = after.split_whitespace().next().unwrap_or("");
        // The path itself before the arrow ("jest (spec/) → 통과 3/3") is the row's
        // subject: the arrow gives its result, no value inside it.
        let is_path = |v: &str| {
            let v = v.trim_matches(|c: char| "()[]*_\"'".contains(c));
            v.trim_end_matches('/') == path.trim_end_matches('/')
        };
        let value = |v: &str| !v.is_empty() && v != "§" && !v.contains('%') && !is_path(v);
        if !value(old) || !value(new) {
            continue;
        }
        let same = |c: &Claim| matches!(&c.kind, Kind::File { path: p, .. } if p == path);
        if r.claims
            .iter()
            .any(|c| same(c) && c.listed != Listed::Alone)
        {
            continue;
        }
        // The item's bare presence check gives way to the change it shows.
        r.claims.retain(|c| !same(c));
        let claim = Claim::read(
            Kind::File {
                path: path.clone(),
                change: Change::Modified,
            },
            &r.sentence,
        );
        add(r, claim);
    }
}

/// Words that, right before a count, make it every test's ("all five", "les trois
/// tests", "alle 4", "全部 4 个").
const WHOLE: &[&str] = &[
    "all",
    "alle",
    "sämtliche",
    "les",
    "tous",
    "toutes",
    "todos",
    "todas",
    "los",
    "las",
    "tutti",
    "tutte",
    "os",
    "as",
    "de",
    "все",
    "всех",
    "всі",
    "全部",
    "全",
    "すべて",
    "全て",
    "모든",
    "전체",
    "wszystkie",
    "tüm",
    "bütün",
    "tất",
    "semua",
];

/// Marks the test counts a sentence gives as every test's ([`Claim::count_whole`]).
pub fn mark_whole_counts(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let words: Vec<String> = fold(&r.sentence.to_lowercase())
            .split(|c: char| c.is_whitespace() || ",.;:()".contains(c))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect();
        for c in &mut r.claims {
            let Kind::Tests { count: Some(n) } = c.kind else {
                continue;
            };
            // "all 3 suites" counts suites, which a runner's per-suite lines back.
            let of_suites = |i: usize| {
                words.get(i + 1).is_some_and(|next| {
                    [
                        "suite", "binar", "file", "package", "crate", "modul", "datei", "fichier",
                    ]
                    .iter()
                    .any(|s| next.starts_with(s))
                })
            };
            c.count_whole = words.iter().enumerate().any(|(i, w)| {
                i > 0
                    && number_of(w) == Some(n)
                    && WHOLE.contains(&words[i - 1].as_str())
                    && !of_suites(i)
            });
        }
    }
}

/// The number a word writes, in digits or in any table's words.
fn number_of(w: &str) -> Option<u64> {
    if let Ok(n) = w.parse() {
        return Some(n);
    }
    super::claims::number_word(w).or_else(|| {
        LANGS
            .iter()
            .flat_map(|l| l.numbers.iter())
            .find(|(word, _)| word.trim() == w)
            .map(|(_, n)| *n)
    })
}

/// Whether a sentence reports what is: no question, denial, plan or instruction.
fn reports(sentence: &str) -> bool {
    let lower = fold(&sentence.to_lowercase());
    !(sentence.trim_end().ends_with(['?', '？'])
        || not_there_forms().any_in(&lower)
        || not_a_report_forms().any_in(&lower))
}

/// The project paths a sentence names in code spans (one word each, no patterns).
fn path_spans(sentence: &str) -> Vec<String> {
    let parts: Vec<&str> = sentence.split('`').collect();
    let quoted = parts
        .iter()
        .skip(1)
        .step_by(2)
        .filter(|s| !s.trim().contains(char::is_whitespace))
        .filter_map(|s| vocab::path_of(s, true));
    // Written bare, a path needs a file's shape: `dist/stats.js`, not `feat/x`.
    let bare = parts
        .iter()
        .step_by(2)
        .flat_map(|p| p.split_whitespace())
        .filter(|w| w.contains(['/', '.']))
        .filter_map(|w| vocab::path_of(w, false))
        .filter(|p| p.contains('/'));
    quoted
        .chain(bare)
        .filter(|p| !vocab::shape_inferred(p) && !p.contains(['*', '?', '$', '~']))
        .filter(|p| !p.starts_with('/'))
        // `.o`, `.env`: an extension or a dotfile named in passing ("the `.o` files").
        .filter(|p| !p.starts_with('.') || p.contains('/'))
        .collect()
}

/// The path an item leads with ("`docs/faq.md` — the FAQ", "**`a.py`**: helpers", a
/// table row's first cell), and the rest of the item.
fn lead_path(sentence: &str) -> Option<(String, &str)> {
    let lead = sentence.trim_start_matches(|c: char| {
        c.is_whitespace() || "-*•·+|_".contains(c) || MARKS.iter().any(|m| m.starts_with(c))
    });
    let rest = lead.strip_prefix('`')?;
    let (span, rest) = rest.split_once('`')?;
    let path = vocab::path_of(span, true).filter(|p| !vocab::shape_inferred(p))?;
    if vocab::check_command_span(span) {
        return None;
    }
    let rest = rest.trim_start_matches(['*', '_']);
    let table_cell = rest.starts_with("  ");
    let rest = rest.trim_start();
    let after = ["—", "–", "-", ":", "：", "|"]
        .iter()
        .find_map(|s| rest.strip_prefix(s));
    match after {
        Some(description) => Some((path, description)),
        None if rest.trim_end_matches(['.', '。']).is_empty() || table_cell => Some((path, rest)),
        None => None,
    }
}

/// Whether an item's description says the file is not there, or not yet.
fn denies_it_is_there(description: &str) -> bool {
    not_there_forms().any_in(&fold(&description.to_lowercase()))
}

/// Words that make a sentence ask for a check rather than report one.
const ASKED_FOR: &[&str] = &[
    "run",
    "rerun",
    "re-run",
    "try",
    "please",
    "next step",
    "next steps",
    "confirm",
    "make sure",
    "ensure",
    "you can",
    "you should",
    "you may",
    "on your end",
    "führe",
    "führen sie",
    "lance",
    "lancez",
    "ejecuta",
    "ejecute",
    "esegui",
    "rode",
    "execute",
    "voer",
    "запусти",
    "запустите",
    "실행해",
    "実行してください",
    "请运行",
];

/// Separators of a line that leads with a command written without a code span
/// ("python3 -m compileall app -> OK").
const BARE_SEPARATORS: &[&str] = &[" -> ", " → ", " => ", ": ", " — ", " – ", " | "];

/// Marks that end the value of a result: a sentence's or a clause list's end.
const VALUE_ENDS: &[char] = &[';', '.', '。', '；', '!', '！'];

/// Marks that open a clause: what stands before a command since the last one is the
/// clause's ("I could not run `cargo clippy`").
const CLAUSE_STARTS: &[char] = &[',', ';', '.', ':', '(', '，', '；', '。', '：', '（'];

/// The check commands a sentence gives a passing result for, each with its value: a row
/// that leads with one (in a code span or bare), or a command in a code span anywhere
/// and the words after it ("… y `ruff check .` tampoco encontró nada que corregir").
fn results_in(sentence: &str) -> Vec<(String, String, Kind)> {
    let mut out = Vec::new();
    // "Does `cargo clippy` pass on your end?", "Next step: run `cargo test` and confirm
    // everything passes.": asked or asked for, not reported.
    let prose: String = sentence.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let lower = fold(&prose.to_lowercase());
    if sentence.trim_end().ends_with(['?', '？']) || ASKED_FOR.iter().any(|w| has_word(&lower, w))
    {
        return out;
    }
    let lead = sentence.trim_start_matches(|c: char| {
        c.is_whitespace() || "-*•·+|_".contains(c) || MARKS.iter().any(|m| m.starts_with(c))
    });
    if !lead.starts_with('`') {
        let bare = BARE_SEPARATORS
            .iter()
            .filter_map(|s| lead.split_once(s))
            .min_by_key(|(subject, _)| subject.len());
        if let Some((subject, value)) = bare {
            let subject = without_asides(subject.trim().trim_matches('*'));
            if let (Some(kind), Some(head)) = (check(&subject), passes("", value)) {
                out.push((subject, head, kind));
            }
        }
    }
    let parts: Vec<&str> = sentence.split('`').collect();
    for i in (1..parts.len().saturating_sub(1)).step_by(2) {
        let span = parts[i].trim();
        let Some(kind) = check(span) else {
            continue;
        };
        let before = parts[i - 1];
        let before = before.rsplit(CLAUSE_STARTS).next().unwrap_or(before);
        let after = parts[i + 1];
        let value = after.split(VALUE_ENDS).next().unwrap_or(after);
        if let Some(head) = passes(before, value) {
            out.push((span.to_owned(), head, kind));
        }
    }
    out
}

/// A row's subject without its asides: "npm test (node --test)", "jest (spec/)" name
/// the command `npm test` and `jest`, and in brackets what it runs or where, which is no
/// part of the command line.
fn without_asides(subject: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in subject.chars() {
        match c {
            '(' | '（' => depth += 1,
            ')' | '）' => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The check a command is, when it is one.
fn check(command: &str) -> Option<Kind> {
    vocab::check_command_span(command)
        .then(|| vocab::command_kind(command))
        .flatten()
}

/// Whether the words after a command (`value`) say it passed, and neither they nor the
/// clause's words before it (`before`) take that back: the value, when they do.
fn passes(before: &str, value: &str) -> Option<String> {
    let value = value.trim_start_matches(['*', '_', ' ', '\u{a0}']);
    let value = SEPARATORS
        .iter()
        .find_map(|s| value.strip_prefix(s))
        .unwrap_or(value);
    // What says the result is the first part of the value ("sauber, keine einzige
    // Warnung"); the rest may only take it back ("3 passed, 1 failed").
    let head = value.split([',', '，', '、']).next().unwrap_or(value);
    if head.split_whitespace().count() > 12 {
        return None;
    }
    let holds = says_passed(head)
        && !refutes(&fold(&value.to_lowercase()), true)
        && !refutes(&fold(&before.to_lowercase()), false);
    holds.then(|| value.trim().to_owned())
}

/// Whether a row's value says the check passed: a mark, a pass word of any table, or a
/// problem denied, with nothing left that says it failed, was skipped or may pass.
fn says_passed(value: &str) -> bool {
    let mut v = fold(&value.to_lowercase());
    let mut passed = false;
    for m in MARKS {
        if v.contains(m) {
            passed = true;
            v = v.replace(m, " ");
        }
    }
    // "0 fehlgeschlagen", "0 failed": a zero count of failures is part of a pass.
    v = without_zero_failures(v);
    let cleans = LANGS.iter().flat_map(|l| l.clean.iter().map(|c| c.trim()));
    for c in cleans.chain(denied_problems(&v).iter().map(String::as_str)) {
        if !c.is_empty() && v.contains(c) {
            passed = true;
            v = v.replace(c, " ");
        }
    }
    for p in NOTHING_FOUND {
        if v.contains(p) {
            passed = true;
            v = v.replace(p, " ");
        }
    }
    for p in LANGS.iter().flat_map(|l| l.passed.iter().copied()) {
        if has_stem(&v, p) {
            passed = true;
            v = v.replace(p.trim(), " ");
        }
    }
    for p in PASSED {
        if has_word(&v, p) {
            passed = true;
            v = v.replace(p, " ");
        }
    }
    passed && !refutes(&v, true)
}

/// Whether `text` says a check failed (`failures`), was not run, or only may pass. The
/// phrases that say it passed are taken out first.
fn refutes(text: &str, failures: bool) -> bool {
    let mut v = without_zero_failures(text.to_owned());
    let cleans = LANGS.iter().flat_map(|l| l.clean.iter().map(|c| c.trim()));
    for c in cleans
        .chain(denied_problems(&v).iter().map(String::as_str))
        .chain(NOTHING_FOUND.iter().copied())
    {
        if !c.is_empty() && v.contains(c) {
            v = v.replace(c, " ");
        }
    }
    refuting_forms(failures).any_in(&v)
}

/// `v` without its zero counts of failures ("0 failed", "0 fehlgeschlagen"): part of a
/// pass, in any table's words.
fn without_zero_failures(mut v: String) -> String {
    static ZEROS: OnceLock<Vec<String>> = OnceLock::new();
    let zeros = ZEROS.get_or_init(|| {
        LANGS
            .iter()
            .flat_map(|l| l.failed.iter())
            .flat_map(|f| [format!("0 {}", f.trim()), format!("0{}", f.trim())])
            .collect()
    });
    if v.contains('0') {
        for zero in zeros {
            if v.contains(zero.as_str()) {
                v = v.replace(zero.as_str(), " ");
            }
        }
    }
    v
}

/// The phrases of `v` that deny a problem ("keine einzige warnung", "エラーなし").
fn denied_problems(v: &str) -> Vec<String> {
    let mut out = Vec::new();
    for p in PROBLEMS {
        let mut from = 0;
        while let Some(i) = v[from..].find(p) {
            let at = from + i;
            from = at + p.len();
            let before = &v[..at];
            // Up to two words between the denial and the noun ("keine einzige Warnung").
            let near: String = {
                let words: Vec<&str> = before.split_whitespace().collect();
                words[words.len().saturating_sub(3)..].join(" ")
            };
            let denied_before = NO_BEFORE.iter().find(|n| {
                near.split_whitespace().any(|w| w == **n)
                    || (n.contains(' ') && near.contains(**n))
                    || (!n.is_ascii() && !n.contains(' ') && near.contains(**n))
            });
            let word_end = v[from..]
                .find(|c: char| c.is_whitespace() || ",.;!)".contains(c))
                .map_or(v.len(), |e| from + e);
            let after = v[word_end..].trim_start();
            let denied_after = NO_AFTER
                .iter()
                .find(|n| after.starts_with(**n) || v[from..word_end].contains(**n));
            if let Some(n) = denied_before {
                let start = before.rfind(n).unwrap_or(at);
                out.push(v[start..word_end].to_owned());
            } else if let Some(n) = denied_after {
                let end = v[from..]
                    .find(n)
                    .map_or(word_end, |e| from + e + n.len())
                    .max(word_end);
                out.push(v[at..end].to_owned());
            }
        }
    }
    out
}

/// Whether a table's form stands in `text` as the tables match it: at a word's start (a
/// stem reaches its endings), as a whole word when it ends in a space, and anywhere in
/// scripts without spaces.
fn has_stem(text: &str, form: &str) -> bool {
    let whole = form.ends_with(' ');
    let form = form.trim();
    if form.is_empty() {
        return false;
    }
    if whole || !form.chars().any(char::is_alphabetic) {
        return has_word(text, form);
    }
    if !form
        .chars()
        .any(|c| c.is_alphabetic() && (c.is_lowercase() || c.is_ascii()))
    {
        return text.contains(form);
    }
    let mut from = 0;
    while let Some(i) = text[from..].find(form) {
        let at = from + i;
        if text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
        {
            return true;
        }
        from = at + form.len();
    }
    false
}

/// Whether `w` stands in `text` as a word of its own (scripts without spaces: anywhere).
fn has_word(text: &str, w: &str) -> bool {
    if !w.is_ascii() && !w.chars().any(|c| c.is_alphabetic() && c.is_lowercase()) {
        return text.contains(w);
    }
    let mut from = 0;
    while let Some(i) = text[from..].find(w) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read(sentence: &str) -> Option<Kind> {
        results_in(sentence).into_iter().next().map(|(_, _, k)| k)
    }

    #[test]
    fn rows_that_say_a_check_passed_are_claims() {
        for s in [
            "`cargo clippy -- -D warnings`   sauber, keine einzige Warnung",
            "`cargo clippy -- -D warnings` → no lints",
            "`cargo clippy -- -D warnings`: limpo.",
            "- `npm run lint` — 0 errors",
            "`ruff check .` | ✅",
            "`cargo fmt --check`: sin cambios",
            "`node --check src/a.js` → エラーなし",
            "`python3 -m compileall -q app`: 오류 없음",
            "`cargo test`   3 bestanden, 0 fehlgeschlagen",
            "`mypy app` — нет ошибок",
            "Ran `cargo clippy`: clean",
            "python3 -m compileall app -> rien à signaler, tout compile",
            "La batería pasa y `ruff check .` tampoco encontró nada que corregir, así que queda listo.",
            "Verifiche: `cargo test` verde, `cargo clippy -- -D warnings` pulito.",
            "`cargo fmt --check` hat nichts zu beanstanden – der Code ist rustfmt-konform.",
        ] {
            assert!(read(s).is_some(), "{s}");
        }
    }

    #[test]
    fn rows_that_do_not_say_it_passed_claim_nothing() {
        for s in [
            "`cargo clippy` | not run",
            "`cargo clippy` → 2 warnings (pre-existing)",
            "`cargo clippy`: nicht ausgeführt",
            "`npm run lint` — skipped: no config",
            "`cargo test`: 2 failed, 1 passed",
            "`cargo fmt --check`: should be clean",
            "`cargo clippy --fix` would clean it up, see below",
            "`src/lib.rs`: clean",
            "`cargo clippy` reports a warning in `src/lib.rs`: see there, it is clean otherwise",
            "I could not run `cargo clippy`: clean otherwise, I think",
            "`cargo test` verde, 1 fallito",
            "Skipped `cargo fmt --check`, no changes expected",
        ] {
            assert_eq!(read(s), None, "{s}");
        }
    }

    #[test]
    fn an_aside_in_a_rows_subject_is_no_part_of_the_command() {
        let spans = |s: &str| -> Vec<String> {
            results_in(s).into_iter().map(|(span, _, _)| span).collect()
        };
        assert_eq!(spans("- npm test (node --test) → 통과 2/2"), ["npm test"]);
        assert_eq!(spans("- cargo test (unit + doc) -> ok"), ["cargo test"]);
        // A command left alone by its aside is no command line to hold a run against.
        assert!(spans("- jest (spec/) → 통과 3/3").is_empty());
    }

    /// The paths `message` says are there (presence checks), as `explain` reads them.
    fn present(message: &str) -> Vec<String> {
        crate::audit::claims::explain(message)
            .into_iter()
            .flat_map(|r| r.claims)
            .filter(|c| c.listed != Listed::No)
            .filter_map(|c| match c.kind {
                Kind::File { path, .. } => Some(path),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_report_that_names_a_path_says_it_is_there() {
        assert_eq!(
            present("- **`docs/faq.md`** – häufige Fragen zu Port und Logging"),
            ["docs/faq.md"]
        );
        assert_eq!(
            present("**Ergebnis:** `dist/` enthält jetzt `app.yaml` 📦"),
            ["dist/", "app.yaml"]
        );
        assert_eq!(
            present("| `docs/rollback.md` | come tornare indietro |"),
            ["docs/rollback.md"]
        );
        // A placeholder (`YYYYMMDD` in any locale's letters) names a pattern, no path.
        assert_eq!(
            present("zkopíruje `build/` do `backup/RRRRMMDD/`"),
            ["build/"]
        );
    }

    #[test]
    fn denials_plans_and_instructions_name_paths_without_saying_they_are_there() {
        for m in [
            "- `docs/faq.md` — not needed yet",
            "`dist/` wurde deshalb nicht angelegt.",
            "Run `npm run build` to produce `dist/`.",
            "Should I add `docs/faq.md` too?",
            "Next, `tests/test_api.py` could cover the errors.",
            "`python3 -m doctest app/text.py` passed.",
            "The script copies the README to `dist/`; `dist/` was not created because a check failed.",
        ] {
            assert_eq!(present(m), Vec::<String>::new(), "{m}");
        }
    }

    #[test]
    fn a_value_from_old_to_new_beside_a_path_is_a_change_of_it() {
        let kinds = |m: &str| -> Vec<String> {
            crate::audit::claims::explain(m)
                .into_iter()
                .flat_map(|r| r.claims)
                .filter(|c| c.listed == Listed::No)
                .map(|c| c.kind.to_string())
                .collect()
        };
        assert_eq!(
            kinds("**버전:** `package.json` 1.0.0 → 1.0.1"),
            ["file package.json changed"]
        );
        assert_eq!(
            kinds("`config/app.yaml`: port 8080 -> 9000"),
            ["file config/app.yaml changed"]
        );
        assert!(kinds("Coverage of `src/lib.rs`: 80% → 92%").is_empty());
        // The path is the row's subject, the arrow its result.
        for m in ["- jest (spec/) → 통과 3/3", "- pytest tests/unit/ → passed"] {
            assert!(!kinds(m).iter().any(|k| k.starts_with("file")), "{m}");
        }
        assert!(kinds("`package.json` 1.0.0 → 1.0.1 is up to you; I did not bump it").is_empty());
    }

    #[test]
    fn all_n_counts_every_test() {
        let whole = |m: &str| -> Vec<bool> {
            crate::audit::claims::explain(m)
                .into_iter()
                .flat_map(|r| r.claims)
                .filter(|c| matches!(c.kind, Kind::Tests { count: Some(_) }))
                .map(|c| c.count_whole)
                .collect()
        };
        assert_eq!(whole("`cargo test` : les trois tests passent"), [true]);
        assert_eq!(whole("All 4 tests pass."), [true]);
        assert_eq!(whole("`cargo test`: 3 passed"), [false]);
    }
}
