//! What a report says a document tells ("**README:** nova seção `## API`, que também avisa
//! que `clamp` levanta `ValueError`", "README inaeleza kigezo kipya `sep`", "`README.md` now
//! mentions `clamp`"): [`Kind::Holds`], each span looked for in the document as the turn
//! left it. A document that explains, lists or warns of a name writes the name: the words of
//! the span stand in it, whatever the language of the sentence around them.

use super::held::{is_value_span, told_plainly};
use super::refs::unquoted;
use super::*;

/// The path a bare "README" stands for; evidence looks up the project's own README.
pub const BARE_README: &str = "README";

/// Marks the spans a sentence says a document mentions, documents, describes, explains,
/// lists or warns of: one document the sentence names (a Markdown, reStructuredText or
/// AsciiDoc file, a README or a changelog, or the word "README"), a word of the
/// [`DESCRIBES`] table outside the spans, and the value spans of the part (up to a `;`)
/// that holds the word. Nothing where the sentence asks, plans, doubts, denies, takes a
/// value out, replaces one or names a run (another reader reads a command's output).
pub fn mark_documented(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if r.sentence.matches('`').count() < 2 {
            continue;
        }
        let Some(doc) = document_of(&r.sentence) else {
            continue;
        };
        let Some(part) = part_describing(&r.sentence) else {
            continue;
        };
        if vocab::spans_of(&r.sentence).any(|s| names_a_run(s.trim()))
            || !told_plainly(r, &r.sentence)
        {
            continue;
        }
        let value = |s: &&str| is_value_span(s, &doc) && super::held::heading_level(s).is_none();
        let values: Vec<String> = vocab::spans_of(told_of(part, &doc))
            .map(str::trim)
            .filter(value)
            .map(str::to_owned)
            .collect();
        for value in values {
            add_new(
                r,
                Kind::Holds {
                    path: doc.clone(),
                    value,
                },
            );
        }
    }
}

/// Marks the name a sentence says source files call, import or use ("Hívók: az api
/// (`src/order.js`) és a web (`src/badge.js`) is már `formatAmount`-ot hív", "`src/cli.py`
/// now imports `slugify`"): source files the sentence names, one identifier span (or one
/// file and several), and a word of the [`USES`] table outside the spans. Each file as the
/// turn left it holds the name. Nothing where the sentence asks, plans, doubts, denies,
/// takes a name out or replaces one ("instead of").
pub fn mark_names_used(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if r.sentence.matches('`').count() < 4 {
            continue;
        }
        // The part (up to a `;`) that holds the word: "`slug()` added to `a/__init__.py`;
        // `slugify` in `app/text.py` now calls `textkit.slug`" puts no name in the first file.
        let Some(part) = r.sentence.split([';', '；']).find(|part| {
            let prose = vocab::outside_spans(part, " ").to_lowercase();
            USES.iter().any(|w| word_at_start(&prose, w))
        }) else {
            continue;
        };
        let spans: Vec<&str> = vocab::spans_of(part).map(str::trim).collect();
        let files: Vec<String> = spans
            .iter()
            .filter_map(|s| vocab::path_of(s, true))
            .filter(|p| is_source_file(p))
            .collect();
        let names: Vec<&str> = spans
            .iter()
            .copied()
            .filter(|s| is_identifier(s) && vocab::path_of(s, true).is_none())
            .collect();
        if files.is_empty()
            || names.is_empty()
            || files.len() > 1 && names.len() > 1
            || !told_plainly(r, &r.sentence)
            || super::paths::says_taken_out(&r.sentence)
        {
            continue;
        }
        let kinds: Vec<Kind> = files
            .iter()
            .flat_map(|path| {
                names.iter().map(move |name| Kind::Holds {
                    path: path.clone(),
                    value: (*name).to_owned(),
                })
            })
            .collect();
        for kind in kinds {
            add_new(r, kind);
        }
    }
}

/// Whether a path is a program's source file.
fn is_source_file(path: &str) -> bool {
    const SOURCE: &[&str] = &[
        "js", "mjs", "cjs", "ts", "tsx", "jsx", "py", "rs", "go", "rb", "java", "kt", "swift", "c",
        "h", "cc", "cpp", "hpp", "cs", "php", "sh", "lua", "scala", "ex", "exs",
    ];
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| SOURCE.contains(&ext.to_ascii_lowercase().as_str()))
}

/// Whether a span is a name in code (`formatAmount`, `calc::max`, `app.slugify`): letters,
/// digits and `_`, joined by `.` or `::`, starting with a letter or `_`.
fn is_identifier(s: &str) -> bool {
    s.len() >= 2
        && s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == ':')
        && !s.ends_with(['.', ':'])
}

/// Stems of the words that say code calls, imports or uses a name, in the tables'
/// languages and beyond (matched at a word's start).
const USES: &[&str] = &[
    "calls",
    "imports",
    "now uses",
    "ruft",
    "importiert",
    "appelle",
    "importe",
    "llama",
    "importa",
    "chiama",
    "roept",
    "importeert",
    "anropar",
    "importerar",
    "kalder",
    "importerer",
    "kaller",
    "kutsuu",
    "tuo ",
    "wywołuje",
    "importuje",
    "volá",
    "hív",
    "importál",
    "çağırıyor",
    "çağırır",
    "içe aktarıyor",
    "apelează",
    "importă",
    "вызывает",
    "импортирует",
    "викликає",
    "імпортує",
    "извиква",
    "импортира",
    "καλεί",
    "εισάγει",
    "gọi",
    "memanggil",
    "mengimpor",
    "impordib",
    "kutsub",
    "inaita",
    "inaingiza",
    "יבוא",
    "קורא ל",
    "مستورد",
    "يستدعي",
    "يستورد",
    "فراخوانی",
    "कॉल",
    "इम्पोर्ट",
    "調用",
    "调用",
    "导入",
    "導入",
    "呼び出",
    "インポート",
    "호출",
    "가져오",
];

/// The one document a sentence names:/// The one document a sentence names: a document's span (or bare path), or, with none,
/// the word "README" outside the spans.
fn document_of(sentence: &str) -> Option<String> {
    let mut docs: Vec<String> = paths::path_spans(sentence)
        .into_iter()
        .filter(|p| is_document(p))
        .collect();
    docs.dedup();
    match docs.as_slice() {
        [one] => Some(one.clone()),
        [] => {
            let plain = unquoted(sentence);
            let readme = plain
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w.eq_ignore_ascii_case("readme") && !plain.contains(&format!("{w}.")));
            readme.then(|| BARE_README.to_owned())
        }
        _ => None,
    }
}

/// Where in a part what a document tells stands: after the document's name ("`README.md`
/// now mentions `x`", "**README:** … `x`"), or, with no span after it, in the comma part
/// that names it ("`x` is documented in `README.md`"). Spans of other clauses ("changed
/// `port` with `jq …`, and wrote `docs/config.md` describing `port`") are not the
/// document's.
fn told_of<'s>(part: &'s str, doc: &str) -> &'s str {
    // ASCII lower case keeps every byte where it was.
    let lower = part.to_ascii_lowercase();
    let name = if doc == BARE_README { "readme" } else { doc };
    let Some(at) = lower.find(&name.to_ascii_lowercase()) else {
        return part;
    };
    let mut end = at + name.len();
    // Past the span's closing backtick.
    if part[end..].starts_with('`') {
        end += 1;
    }
    let after = &part[end..];
    if vocab::spans_of(after).next().is_some() {
        return after;
    }
    // Up to the nearest comma, dash or colon: "`./preflight.sh`: `errors=0 warnings=1` —
    // `docs/upgrade.md` …" gives the document none of the script's output.
    let start = part[..at]
        .rfind([',', '，', '、', '—', '–', ':', '：'])
        .map_or(0, |i| {
            i + part[i..].chars().next().map_or(1, char::len_utf8)
        });
    &part[start..at]
}

/// Whether a path is a document: Markdown, reStructuredText, AsciiDoc, or a README or a
/// changelog of any extension.
fn is_document(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_lowercase();
    [".md", ".markdown", ".rst", ".adoc"]
        .iter()
        .any(|x| name.ends_with(x))
        || name.starts_with("readme")
        || name.starts_with("changelog")
}

/// The part of a sentence (up to a `;`) whose words, outside the spans, say a document
/// mentions, describes or lists what it names.
fn part_describing(sentence: &str) -> Option<&str> {
    sentence.split([';', '；']).find(|part| {
        let prose = vocab::outside_spans(part, " ").to_lowercase();
        DESCRIBES.iter().any(|w| word_at_start(&prose, w))
    })
}

/// Whether `word` stands in `text` at a word's start (anywhere in a script without spaces
/// between words, or without case).
fn word_at_start(text: &str, word: &str) -> bool {
    let caseless = word
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() && !c.is_lowercase() && !c.is_uppercase());
    text.match_indices(word).any(|(i, _)| {
        caseless
            || text[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// Whether a span names a run: a command, or a commit by its hash.
fn names_a_run(s: &str) -> bool {
    vocab::check_command_span(s) || s.starts_with("git ") || vocab::is_hash(s)
}

/// Stems of the words that say a document mentions, documents, describes, explains, lists
/// or warns of something, in the tables' languages and beyond (matched at a word's start).
const DESCRIBES: &[&str] = &[
    // English
    "mention",
    "document",
    "describ",
    "explain",
    "warns",
    "lists",
    "listed",
    "covers",
    // German
    "erwähnt",
    "dokumentiert",
    "beschreibt",
    "beschrieben",
    "erklärt",
    "erläutert",
    "warnt",
    "listet",
    // French
    "mentionne",
    "documente",
    "décrit",
    "explique",
    "avertit",
    "prévient",
    "signale",
    // Spanish, Portuguese, Catalan, Italian
    "menciona",
    "documenta",
    "describe",
    "descreve",
    "descriu",
    "descrive",
    "explica",
    "spiega",
    "advierte",
    "adverte",
    "adverteix",
    "avisa",
    "avverte",
    "avvisa",
    "enumera",
    "elenca",
    "menziona",
    // Dutch, Scandinavian
    "vermeldt",
    "noemt",
    "documenteert",
    "beschrijft",
    "waarschuwt",
    "nämner",
    "nævner",
    "nevner",
    "dokumenterar",
    "dokumenterer",
    "beskriver",
    "förklarar",
    "forklarer",
    "varnar",
    "advarer",
    // Finnish, Estonian, Hungarian
    "mainitsee",
    "dokumentoi",
    "kuvaa",
    "kuvailee",
    "selittää",
    "varoittaa",
    "luettelee",
    "mainib",
    "kirjeldab",
    "selgitab",
    "hoiatab",
    "említi",
    "dokumentálja",
    "leírja",
    "ismerteti",
    "elmagyarázza",
    "figyelmeztet",
    "felsorolja",
    // Slavic, Baltic, Romanian
    "wspomina",
    "dokumentuje",
    "opisuje",
    "wyjaśnia",
    "objaśnia",
    "ostrzega",
    "wymienia",
    "zmiňuje",
    "popisuje",
    "vysvětluje",
    "varuje",
    "spomína",
    "vysvetľuje",
    "spominje",
    "dokumentira",
    "objašnjava",
    "upozorava",
    "omenja",
    "pojasnjuje",
    "opozarja",
    "aprašo",
    "paaiškina",
    "įspėja",
    "apraksta",
    "brīdina",
    "menționează",
    "documentează",
    "descrie",
    "explică",
    "avertizează",
    "упомина",
    "документир",
    "описыва",
    "описан",
    "объясня",
    "предупрежда",
    "перечисл",
    "згаду",
    "документу",
    "описує",
    "поясню",
    "попереджа",
    "споменава",
    "документира",
    "описва",
    "обяснява",
    "предупреждава",
    "изброява",
    // Greek, Turkish
    "αναφέρει",
    "τεκμηριώνει",
    "περιγράφει",
    "εξηγεί",
    "προειδοποιεί",
    "bahsed",
    "belgeli",
    "açıklı",
    "anlatı",
    "uyarı",
    "listel",
    // Arabic, Persian, Hebrew, Urdu
    "يذكر",
    "يوثق",
    "يصف",
    "يشرح",
    "يحذر",
    "يسرد",
    "توضیح",
    "شرح",
    "هشدار",
    "مستند",
    "מזכיר",
    "מתעד",
    "מתאר",
    "מסביר",
    "מזהיר",
    // South and South-East Asian
    "उल्लेख",
    "वर्णन",
    "समझा",
    "चेतावनी",
    "सूचीबद्ध",
    "উল্লেখ",
    "বর্ণনা",
    "ব্যাখ্যা",
    "সতর্ক",
    "குறிப்பிட",
    "விவரி",
    "விளக்க",
    "எச்சரி",
    "பட்டியலி",
    "వివరి",
    "ప్రస్తావ",
    "హెచ్చరి",
    "กล่าวถึง",
    "อธิบาย",
    "เตือน",
    "đề cập",
    "mô tả",
    "giải thích",
    "cảnh báo",
    "liệt kê",
    "menyebut",
    "mendokumentasikan",
    "menjelaskan",
    "menerangkan",
    "memperingatkan",
    "mencantumkan",
    "binabanggit",
    "inilalarawan",
    "ipinapaliwanag",
    "nagbababala",
    // Swahili (the verb carries its subject: "inaeleza", "it explains")
    "inaeleza",
    "inaelezea",
    "imeeleza",
    "inataja",
    "imetaja",
    "inaonya",
    "inaorodhesha",
    // Chinese, Japanese, Korean
    "提到",
    "说明",
    "說明",
    "描述",
    "解释",
    "解釋",
    "警告",
    "列出",
    "写明",
    "注明",
    "記載",
    "言及",
    "記述",
    "언급",
    "설명",
    "경고",
    "나열",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn held(message: &str) -> Vec<String> {
        marked_kinds(message, mark_documented)
            .into_iter()
            .filter_map(|k| match k {
                Kind::Holds { path, value } => Some(format!("{path}:{value}")),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_document_that_explains_a_name_holds_it() {
        assert_eq!(
            held("**README:** nova seção `## API`, que também avisa que `clamp` levanta `ValueError`."),
            ["README:clamp", "README:ValueError"]
        );
        assert_eq!(
            held("`README.md` now mentions `--sep` and `--upper`."),
            ["README.md:--sep", "README.md:--upper"]
        );
    }

    #[test]
    fn a_name_source_files_call_is_held_by_each() {
        let used = |m: &str| -> Vec<String> {
            marked_kinds(m, mark_names_used)
                .into_iter()
                .filter_map(|k| match k {
                    Kind::Holds { path, value } => Some(format!("{path}:{value}")),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(
            used("Hívók: az api (`src/order.js`) és a web (`src/badge.js`) is már `formatAmount`-ot hív."),
            ["src/order.js:formatAmount", "src/badge.js:formatAmount"]
        );
        assert_eq!(
            used("`src/cli.py` now imports `slugify`."),
            ["src/cli.py:slugify"]
        );
        assert!(used("`src/cli.py` calls `slugify` instead of `slug`.").is_empty());
        assert!(used("`src/cli.py` no longer calls `slug`.").is_empty());
    }

    #[test]
    fn a_denial_a_removal_or_a_run_claims_nothing() {
        assert!(held("`README.md` no longer mentions `npm install -g stats`.").is_empty());
        assert!(held("I removed the `--old` flag that `README.md` described.").is_empty());
        assert!(held("Ran `npm test`; `README.md` describes it.").is_empty());
        assert!(held("`README.md` and `docs/api.md` describe `mean`.").is_empty());
        assert_eq!(
            held("Đổi `port` trong `config/app.json` bằng `jq --arg port 9090 '.port = $port'` (ghi ra file tạm rồi `mv` đè lên), và viết `docs/config.md` mô tả `port` và `log`."),
            ["docs/config.md:port", "docs/config.md:log"]
        );
        assert_eq!(
            held("The `--sep` flag is documented in `README.md`."),
            ["README.md:--sep"]
        );
    }
}
