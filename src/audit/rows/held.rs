//! Text a report says stands in a data file, told as a state ("`Zürich` und `Kraków`
//! stehen als echtes UTF-8 in der Datei", "फ़ाइल में सारी कुंजियाँ … लिखी हैं: `Host`, `Port`",
//! "`pull.rebase = true` e setat în `.git/config`"): [`Kind::Holds`], each span looked for
//! in the file as the turn left it.

use super::endings::files_named;
use super::refs::{denials_of, negates, plans_or_doubts, unquoted};
use super::*;

/// Marks the spans a sentence says a data file holds. The file is the one a word for "in"
/// puts the spans in (`in `config/app.ini``, `` `.git/config`-ban ``), or, where the
/// sentence says "in the file" in its own words, the data file it names or, naming none,
/// the last data file an earlier line named. The spans are the sentence's other code spans
/// (no path, command or elision) before that place, or, with none before it, after it. A
/// contrast at the end ("…, not as `\u` escapes", "…, nu global") denies only itself: its
/// spans are no claim, and it does not take back the rest. Nothing where the sentence asks,
/// plans, doubts, tells steps in order, takes a value out, replaces one or moves a value
/// from old to new (other readers read those).
pub fn mark_spans_held(readings: &mut [Reading]) {
    for i in 0..readings.len() {
        let r = &readings[i];
        // The shape first: a span of a data file, or "in the file" in the sentence's words.
        if r.skipped
            || r.sentence.matches('`').count() < 2
            || !(vocab::spans_of(&r.sentence).any(|s| is_data_file(s.trim()))
                || says_in_the_file(&r.sentence))
        {
            continue;
        }
        let before = last_file_before(readings, i, is_data_file);
        let r = &mut readings[i];
        let Some((path, place, by_span)) = place_of(&r.sentence, before) else {
            continue;
        };
        let sentence = &r.sentence;
        let tail = contrast_tail(sentence);
        let head = &sentence[..tail.unwrap_or(sentence.len())];
        // A command beside the place says what ran there, not what the file holds; "in
        // `a.yaml`" alone places many things (a change, a conflict, a check), a setting
        // written out as the sentence's one value only.
        if !told_plainly(r, head)
            || vocab::spans_of(sentence).any(|s| names_a_run(s.trim()))
            || by_span && setting_span(head).is_none()
        {
            continue;
        }
        let values = held_spans(head, &path, place);
        for value in values {
            add_new(
                r,
                Kind::Holds {
                    path: path.clone(),
                    value,
                },
            );
        }
    }
}

/// Marks the spans a sentence says stand under a heading of a file ("在 `## [Unreleased]` 下
/// 新增了 `zscore` 条目", "`retries = 3` under `[server]` of `app.ini`"): one heading span
/// (a Markdown `#` heading, an INI or TOML `[section]`) with a word for "under" or "in"
/// beside it, the one file of its kind the sentence names (or, naming none, the last an
/// earlier line named), and the other spans (no path or command), each a
/// [`Kind::UnderHeading`]. The same sentences as [`mark_spans_held`] claim nothing.
pub fn mark_under_heading(readings: &mut [Reading]) {
    for i in 0..readings.len() {
        let r = &readings[i];
        if r.skipped || r.sentence.matches('`').count() < 4 || !r.sentence.contains(['#', '[']) {
            continue;
        }
        let headings: Vec<&str> = vocab::spans_of(&r.sentence)
            .map(str::trim)
            .filter(|s| heading_level(s).is_some())
            .collect();
        let [heading] = headings.as_slice() else {
            continue;
        };
        let Some(at) = r.sentence.find(&format!("`{heading}`")) else {
            continue;
        };
        let end = at + heading.len() + 2;
        let ahead = r.sentence[..at].trim_end().to_lowercase();
        let last_word = ahead.rsplit(char::is_whitespace).next().unwrap_or("");
        let after = r.sentence[end..].to_lowercase();
        if !UNDER_BEFORE.contains(&last_word) && !UNDER_AFTER.iter().any(|w| after.starts_with(w)) {
            continue;
        }
        let markdown = heading.starts_with('#');
        let fits = |p: &String| has_headings(p) && is_data_file(p) != markdown;
        let own: Vec<String> = path_spans(&r.sentence).into_iter().filter(fits).collect();
        let path = match own.as_slice() {
            [one] => one.clone(),
            [] => match last_file_before(readings, i, has_headings).filter(fits) {
                Some(p) => p,
                None => continue,
            },
            _ => continue,
        };
        if !told_plainly(r, &r.sentence) {
            continue;
        }
        let values: Vec<String> = vocab::spans_of(&r.sentence)
            .map(str::trim)
            .filter(|s| *s != *heading && is_value_span(s, &path))
            .map(str::to_owned)
            .collect();
        let heading = heading.to_string();
        let r = &mut readings[i];
        for value in values {
            add_new(
                r,
                Kind::UnderHeading {
                    path: path.clone(),
                    heading: heading.clone(),
                    value,
                },
            );
        }
    }
}

/// The level of a heading a span is: `#` to `######` then a space, or one INI or TOML
/// `[section]` (a dotted name, no list of values).
pub(super) fn heading_level(span: &str) -> Option<usize> {
    if span.starts_with('#') {
        let n = span.chars().take_while(|c| *c == '#').count();
        return (n <= 6 && span[n..].starts_with(' ') && span.len() > n + 1).then_some(n);
    }
    let name = span.strip_prefix('[')?.strip_suffix(']')?;
    (name.starts_with(|c: char| c.is_alphabetic())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "._-".contains(c)))
    .then_some(1)
}

/// Whether a file has headings a report may place text under: Markdown and text, or a data
/// file with sections.
fn has_headings(path: &str) -> bool {
    let lower = path.to_lowercase();
    [
        ".md",
        ".markdown",
        ".rst",
        ".txt",
        ".ini",
        ".toml",
        ".cfg",
        ".conf",
    ]
    .iter()
    .any(|x| lower.ends_with(x))
        || lower.ends_with(".git/config")
        || lower.ends_with(".gitconfig")
}

/// Whether a sentence tells what is plainly: no question, plan, doubt, steps in order,
/// value taken out or replaced, move from old to new, or denial outside a contrast at its
/// end.
pub(super) fn told_plainly(r: &Reading, head: &str) -> bool {
    let lower = head.to_lowercase();
    !(r.sentence.trim_end().ends_with(['?', '？'])
        || plans_or_doubts(r)
        || tells_a_sequence(head)
        || FIRST_RUN.iter().any(|w| lower.contains(w))
        || says_taken_out(head)
        || ["→", "->", "=>", "⇒"].iter().any(|a| head.contains(a))
        || AWAY_WORDS.iter().any(|w| lower.contains(w))
        || negates(&without_paths(&unquoted(&lower)))
        || denials_of(r).iter().any(|d| lower.contains(d.as_str()))
        || !clause_states_as_done(head))
}

/// Whether a span names a run: a command, or a commit by its hash.
fn names_a_run(s: &str) -> bool {
    vocab::check_command_span(s) || s.starts_with("git ") || vocab::is_hash(s)
}

/// Words that tell a first run or an earlier state ("Перший запуск вивів …", "the first
/// run printed …"): what the file held then.
pub(super) const FIRST_RUN: &[&str] = &[
    "first run",
    "first time",
    "before the fix",
    "earlier",
    "erste",
    "ersten",
    "premier",
    "première",
    "primer",
    "primera",
    "primeir",
    "prima volta",
    "eerste",
    "перш",
    "перв",
    "pierwsz",
    "první",
    "első",
    "ilk",
    "lần đầu",
    "pertama",
    "第一次",
    "一开始",
    "最初",
    "처음",
    "पहले",
    "पहली",
    "اول",
    "أول",
    "ראשון",
    "πρώτ",
    "първ",
    "prvn",
    "началь",
];

/// Whether a span is a value a file may hold: no path, command or elision.
pub(super) fn is_value_span(s: &str, path: &str) -> bool {
    !s.is_empty()
        && s != path
        && !s.contains('…')
        && !s.contains("...")
        && vocab::path_of(s, true).is_none()
        && !vocab::check_command_span(s)
        && !s.starts_with("git ")
}

/// Words for "under" or "in" before a heading's span.
const UNDER_BEFORE: &[&str] = &[
    "under",
    "below",
    "in",
    "unter",
    "unterhalb",
    "im",
    "sous",
    "dans",
    "bajo",
    "debajo",
    "en",
    "sob",
    "em",
    "no",
    "na",
    "sotto",
    "nel",
    "nella",
    "onder",
    "под",
    "в",
    "у",
    "pod",
    "w",
    "v",
    "alatt",
    "dưới",
    "trong",
    "bawah",
    "di",
    "زیر",
    "در",
    "تحت",
    "في",
    "στο",
    "στην",
    "sub",
    "în",
];

/// The same after the span (`` `## [Unreleased]` 下 ``, `` `## API` 아래 ``).
const UNDER_AFTER: &[&str] = &[
    "下",
    " 下",
    "底下",
    " 底下",
    "の下",
    " の下",
    "に",
    " に",
    "아래",
    " 아래",
    "에",
    " 에",
    " के नीचे",
    " में",
    " altında",
    " altına",
    "'da",
    "'de",
    " alatt",
    " alá",
    "-ban",
    "-ben",
    " সেকশনে",
    " এর নিচে",
    "中",
    " 中",
];

/// Whether a sentence says "in the file" in its own words.
fn says_in_the_file(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    IN_THE_FILE.iter().any(|w| lower.contains(w))
}

/// The last file of a kind an earlier line of the message names.
fn last_file_before(readings: &[Reading], i: usize, kind: impl Fn(&str) -> bool) -> Option<String> {
    readings[..i].iter().rev().find_map(|r| {
        files_named(&r.sentence)
            .into_iter()
            .filter(|p| kind(p))
            .last()
    })
}

/// The data file a sentence puts its spans in, and where in the sentence the words that
/// place them stand (its start and end).
fn place_of(sentence: &str, before: Option<String>) -> Option<(String, (usize, usize), bool)> {
    // A word for "in" right before a data file's span, or a postposition right after it.
    for (i, span) in sentence.split('`').enumerate().skip(1).step_by(2) {
        let Some(path) = vocab::path_of(span.trim(), true).filter(|p| is_data_file(p)) else {
            continue;
        };
        let start = sentence
            .split('`')
            .take(i)
            .map(|s| s.len() + 1)
            .sum::<usize>();
        let end = start + span.len() + 1;
        let ahead = sentence[..start - 1].trim_end().to_lowercase();
        let last_word = ahead.rsplit(char::is_whitespace).next().unwrap_or("");
        let after = sentence[end..].to_lowercase();
        if IN_BEFORE.contains(&last_word) || IN_AFTER.iter().any(|w| after.starts_with(w)) {
            return Some((path, (start - 1, end), true));
        }
    }
    // "in the file" in the sentence's own words.
    let lower = unquoted(&sentence.to_lowercase());
    let phrase = IN_THE_FILE.iter().find(|w| lower.contains(*w))?;
    let at = sentence.to_lowercase().find(phrase)?;
    let place = (at, at + phrase.len());
    let own: Vec<String> = path_spans(sentence)
        .into_iter()
        .filter(|p| is_data_file(p))
        .collect();
    match own.as_slice() {
        [one] => Some((one.clone(), place, false)),
        [] => before.map(|p| (p, place, false)),
        _ => None,
    }
}

/// The spans a sentence says the file holds: before the place within its part (up to a
/// `;`), or after it when none stand before.
fn held_spans(head: &str, path: &str, (begin, end): (usize, usize)) -> Vec<String> {
    let (begin, end) = (begin.min(head.len()), end.min(head.len()));
    // Before the place, from the last `;` or label colon outside the spans ("Met
    // `ensure_ascii=False` opnieuw gedraaid: nu staan `"Zürich"` … in het bestand").
    let part_start =
        last_outside_spans(&head[..begin], &[';', '；', ':', '：']).map_or(0, |i| i + 1);
    let part_end = head[end..]
        .find([';', '；'])
        .map_or(head.len(), |i| end + i);
    let value = |span: &&str| is_value_span(span.trim(), path);
    let spans = |text: &str| -> Vec<String> {
        vocab::spans_of(text)
            .filter(value)
            .map(|s| s.trim().to_owned())
            .collect()
    };
    let before = spans(&head[part_start..begin]);
    if !before.is_empty() {
        return before;
    }
    spans(&head[end..part_end])
}

/// The byte offset of the last of `marks` outside the code spans of a text.
fn last_outside_spans(text: &str, marks: &[char]) -> Option<usize> {
    let mut inside = false;
    let mut last = None;
    for (i, c) in text.char_indices() {
        if c == '`' {
            inside = !inside;
        } else if !inside && marks.contains(&c) {
            last = Some(i);
        }
    }
    last
}

/// Where a contrast at the end of a sentence starts: a last part, after a comma or a dash,
/// of at most five words that opens with a denial ("…, not as `\u` escapes", "…, nicht als
/// `\u`-Escapes", "…, nu global").
pub(super) fn contrast_tail(sentence: &str) -> Option<usize> {
    let cut = sentence.rfind([',', '，', '—', '–'])?;
    let sep_len = sentence[cut..].chars().next()?.len_utf8();
    let tail = &sentence[cut + sep_len..];
    let plain = vocab::outside_spans(tail, " x ");
    let words: Vec<&str> = plain
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .collect();
    let opens_denied = words.iter().take(2).any(|w| negates(&w.to_lowercase()));
    // A script written without spaces opens its denial with a character of its own ("，不再含
    // `\r`", "，没有 `x`").
    let opens_denied_unspaced = words.len() <= 2
        && tail
            .trim_start()
            .starts_with(['不', '没', '沒', '未', '无', '無', '非']);
    (!words.is_empty() && words.len() <= 5 && (opens_denied || opens_denied_unspaced))
        .then_some(cut)
}

/// Words for "in" before a data file's span ("in `a.ini`", "în `.git/config`").
const IN_BEFORE: &[&str] = &[
    "in", "im", "în", "dans", "en", "em", "no", "na", "nel", "nella", "в", "у", "w", "v", "ve",
    "σε", "στο", "trong", "di", "dalam", "i",
];

/// The same after the span, glued or a word after it (`` `a.ini` में ``, `` `a.ini`-ban ``,
/// `` `a.ini`'de ``, `` `a.ini` に ``).
const IN_AFTER: &[&str] = &[
    " में",
    " मध्ये",
    "-ban",
    "-ben",
    " fájlban",
    "'de",
    "'da",
    "'te",
    "'ta",
    " dosyasında",
    "に",
    " に",
    "에",
    " 에",
    "中",
    " 中",
    "里",
    "内",
    " 내",
    "-এ",
    " এ",
    " ফাইলে",
    " میں",
];

/// Words for "in the file" in the tables' languages and beyond.
const IN_THE_FILE: &[&str] = &[
    "in the file",
    "in der datei",
    "in het bestand",
    "dans le fichier",
    "en el archivo",
    "en el fichero",
    "no arquivo",
    "nel file",
    "в файле",
    "у файлі",
    "в файлі",
    "w pliku",
    "v souboru",
    "a fájlban",
    "dosyada",
    "trong tệp",
    "trong file",
    "di berkas",
    "di file",
    "στο αρχείο",
    "във файла",
    "în fișier",
    "faili",
    "ファイルに",
    "ファイル内",
    "文件中",
    "文件里",
    "檔案中",
    "파일에",
    "फ़ाइल में",
    "फाइल में",
    "फाइलमध्ये",
    "ফাইলে",
    "در فایل",
    "في الملف",
    "בקובץ",
    "ในไฟล์",
];

/// Words that replace or rename: what went away is told beside what came.
const AWAY_WORDS: &[&str] = &[
    "replac",
    "renam",
    "instead",
    "ersetz",
    "remplac",
    "reemplaz",
    "substitu",
    "заменил",
    "замін",
    "替换",
    "置き換",
    "대체",
    "yerine",
    "helyett",
    "thay",
    "ganti",
    "بدلا",
    "جایگزین",
    "बदल",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn read(message: &str) -> Vec<String> {
        marked_texts(message, mark_spans_held)
    }

    #[test]
    fn spans_said_to_stand_in_a_data_file() {
        assert_eq!(
            read("Wrote `data/cities.json`.\n`Zürich` und `Kraków` stehen als echtes UTF-8 in der Datei, nicht als `\\u`-Escapes."),
            ["file data/cities.json holds `Zürich`", "file data/cities.json holds `Kraków`"]
        );
        assert_eq!(
            read("✅ `pull.rebase = true` e setat în `.git/config`, doar pentru acest repo, nu global."),
            ["file .git/config holds `pull.rebase = true`"]
        );
        assert_eq!(
            read("`config/app.ini` updated.\nIn the file every key keeps its case: `Host`, `MaxConnections`."),
            ["file config/app.ini holds `Host`", "file config/app.ini holds `MaxConnections`"]
        );
        for message in [
            // A value from old to new, a denial, a plan, a step before the last.
            "In `config/app.ini`, `debug = true` → `debug = false`.",
            "`debug = true` is not in `config/app.ini`.",
            "Should `debug = true` stay in `config/app.ini`?",
            "`config/app.ini` written.\nAt first the file had `host` in the file lower-cased.",
            // No data file to hold it.
            "`parse()` is defined in `src/app.py`.",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
    }

    #[test]
    fn spans_said_to_stand_under_a_heading() {
        let read = |message: &str| -> Vec<String> { marked_texts(message, mark_under_heading) };
        assert_eq!(
            read("- `CHANGELOG.md`：在 `## [Unreleased]` 下新增了 `zscore` 条目。"),
            ["file CHANGELOG.md holds `zscore` under `## [Unreleased]`"]
        );
        assert_eq!(
            read("Edited `app.ini`.\n`retries = 3` now sits under `[db]`."),
            ["file app.ini holds `retries = 3` under `[db]`"]
        );
        for message in [
            // Two headings, a move, a first step, a list of values that is no section.
            "In `CHANGELOG.md`, `zscore` went from `## [1.0.0]` to `## [Unreleased]`.",
            "`CHANGELOG.md`: at first I put `zscore` under `## [1.0.0]`, then moved it.",
            "`matrix` in `ci.toml` is now `[3.10, 3.11]` under `[jobs]` and `[build]`.",
            // A heading of a Markdown file is no INI section.
            "`retries = 3` under `[db]` in `README.md`.",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
    }

    #[test]
    fn a_contrast_at_the_end_is_found() {
        assert!(contrast_tail("stehen in der Datei, nicht als `\\u`-Escapes").is_some());
        assert!(contrast_tail("set in `.git/config`, for this repo, not global.").is_some());
        assert!(
            contrast_tail("The file holds `a`, and the tests do not read it at all.").is_none()
        );
        assert!(contrast_tail("`scripts/port.sh` 已经按 LF 存储，不再含 `\\r`").is_some());
    }
}
