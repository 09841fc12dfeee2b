//! Paths a report names: a list item that leads with one, a path in a sentence that
//! reports, a value going from old to new beside one; and counts of every test ("all
//! five").

use super::*;

/// The claim that `path` is there, checked only against a path the project never had.
pub(super) fn presence(path: String, sentence: &str, why: &str) -> Claim {
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

/// Words that open a relative clause after a comma: what it says describes a file.
const RELATIVE: &[&str] = &[
    ", which ",
    ", that ",
    ", die ",
    ", das ",
    ", der ",
    ", qui ",
    ", que ",
    ", che ",
    ", który",
    ", która",
    ", которы",
    ", который",
    ", яка ",
    ", який ",
    ", som ",
    ", joka ",
    ", amely",
];

/// Words that say something is not there at all ("there is no", "walang", "не существует",
/// "不存在"): a clause with one beside a path says the project lacks it.
const ABSENT: &[&str] = &[
    "there is no",
    "there's no",
    "there are no",
    "no such",
    "does not exist",
    "doesn't exist",
    "do not exist",
    "don't exist",
    "gibt es kein",
    "existiert nicht",
    "existieren nicht",
    "nicht vorhanden",
    "no existe",
    "no hay",
    "n'existe pas",
    "il n'y a pas",
    "il n'y a aucun",
    "non esiste",
    "non c'è",
    "non ci sono",
    "não existe",
    "não há",
    "bestaat niet",
    "er is geen",
    "nie istnieje",
    "nie ma ",
    "не существует",
    "отсутству",
    "не існує",
    "немає",
    "не найден",
    "не знайдено",
    "不存在",
    "存在しない",
    "存在しません",
    "존재하지 않",
    "mevcut değil",
    "bulunmuyor",
    "không tồn tại",
    "không có thư mục",
    "không có tệp",
    "tidak ada",
    "walang",
    "hakuna",
    "אין ",
    "לא קיים",
    "لا يوجد",
    "غير موجود",
    "وجود ندارد",
    "मौजूद नहीं",
    "ไม่มี",
    "nincs",
    "finns inte",
    "findes ikke",
    "finnes ikke",
    "ei ole olemassa",
    "neexistuje",
    "nu există",
];

/// Weakens what a message claims of a path that one of its clauses says is not there at
/// all ("…ay nagtitira ng 7 pinakabagong file sa `logs/`…", then "walang `logs/` na folder
/// sa repo"): the path is what a script or a step works on, told honestly as absent, and
/// the claim of it is reported, never blocked. A deletion claim is left alone: a path gone
/// is what it says.
pub fn mark_said_absent(readings: &mut [Reading]) {
    let absent: Vec<String> = readings
        .iter()
        .filter(|r| !r.skipped && r.sentence.contains('`'))
        .flat_map(|r| {
            let lower = r.sentence.to_lowercase();
            lower
                .split([',', ';', '，', '；', '。', '.', ':'])
                .filter(|clause| clause.contains('`') || clause.contains('/'))
                .filter(|clause| ABSENT.iter().any(|w| clause.contains(w)))
                .flat_map(path_spans)
                .collect::<Vec<_>>()
        })
        .map(|p| p.trim_end_matches('/').to_owned())
        .collect();
    if absent.is_empty() {
        return;
    }
    for r in readings.iter_mut() {
        for c in &mut r.claims {
            let path = match &c.kind {
                Kind::File { path, change } | Kind::Dir { path, change }
                    if *change != Change::Deleted =>
                {
                    path
                }
                _ => continue,
            };
            if absent.iter().any(|a| a == path.trim_end_matches('/')) {
                c.weaken("the message says elsewhere that the path is not there");
            }
        }
    }
}

/// Why a path a sentence names on the way is claimed there ([`mark_mentioned_paths`]).
pub(crate) const MENTIONED: &str = "a path a report names: the project has it, or it is a claim";

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
        // What a relative clause says a file does ("`build.js`, which copies `a.js` into
        // `dist/`") names paths it works on, not paths the project has.
        let reported = RELATIVE
            .iter()
            .filter_map(|w| r.sentence.find(w))
            .min()
            .map_or(r.sentence.as_str(), |at| &r.sentence[..at]);
        let spans: Vec<String> = path_spans(reported)
            .into_iter()
            .filter(|p| {
                !not_claimed.contains(p)
                    && !is_aside(&r.sentence, p)
                    && !is_a_calls_value(&r.sentence, p)
            })
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
            let why = MENTIONED;
            let claim = presence(path, &r.sentence, why);
            add(r, claim);
        }
    }
}

/// A label line's label and value ("**Archivo:** `notes.txt`"): a label of three words
/// at most, before a colon.
fn label_line(sentence: &str) -> Option<(&str, &str)> {
    let (label, value) = sentence
        .trim()
        .trim_start_matches(['-', '*', '•', ' '])
        .split_once([':', '：'])?;
    let words = label.split_whitespace().count();
    ((1..=3).contains(&words) && !label.contains('`')).then(|| (label.trim(), value.trim()))
}

/// Marks the change a block of labels states about the file one of them names
/// ("**Archivo:** `notes.txt`", then "**Cambio:** añadido el encabezado `# Notas`"): a
/// label whose whole value is a path, and a label after it whose value says a change was
/// made, claim that the file changed, in any language.
pub fn mark_labelled_changes(readings: &mut [Reading]) {
    let mut file: Option<(usize, String)> = None;
    for i in 0..readings.len() {
        let r = &readings[i];
        let Some((_, value)) = label_line(&r.sentence).filter(|_| !r.skipped) else {
            file = None;
            continue;
        };
        let span = value.trim_end_matches(['.', '。']);
        if let Some(path) = span
            .strip_prefix('`')
            .and_then(|s| s.strip_suffix('`'))
            .filter(|p| !p.contains('`'))
            .and_then(|p| vocab::path_of(p, true))
            .filter(|p| !vocab::shape_inferred(p))
        {
            file = Some((i, path));
            continue;
        }
        let Some((at, path)) = file.clone() else {
            continue;
        };
        let lower = fold(&unquoted(value).to_lowercase());
        if !forms::any_in(&lower, Sets::CHANGED) || !clause_states_as_done(value) {
            continue;
        }
        let sentence = format!("{} {}", readings[at].sentence, readings[i].sentence);
        if add_change(&mut readings[at], &path, &sentence) {
            file = None;
        }
    }
}

/// Marks where a value goes from old to new beside a path (`package.json` 1.0.0 →
/// 1.0.1, "`config/app.yaml`: port 8080 → 9000"): the line says the file changed, in
/// any language.
pub fn mark_value_changes(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let arrows = ["→", "->", "=>", "⇒"];
        let arrow = arrows.iter().any(|a| r.sentence.contains(a));
        if !(arrow || version_change(&r.sentence) || version_set(&r.sentence))
            || !reports(&r.sentence)
        {
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
        let (mut old, mut new) = match arrows.iter().find_map(|a| prose.split_once(a)) {
            Some((before, after)) => (
                before.split_whitespace().last().unwrap_or(""),
                after.split_whitespace().next().unwrap_or(""),
            ),
            None => ("0", "1"),
        };
        // "`version` を `0.1.0` → `0.2.0`": values in code spans on both sides of the
        // arrow, neither of them a path.
        let spanned = spans_beside_arrow(&r.sentence, &arrows);
        // "`python3 -m pytest -q` → `5 passed` (… `tests/test_text.py`)": a command's
        // arrow gives what it printed; the path says where, nothing changed.
        if spanned.as_ref().is_some_and(|(a, _)| {
            vocab::check_command_span(a) || a.contains(' ') && vocab::command_shaped(a)
        }) {
            continue;
        }
        if let (Some((a, b)), "§", "§") = (&spanned, old, new) {
            if vocab::path_of(a, true).is_none() && vocab::path_of(b, true).is_none() {
                (old, new) = (a.as_str(), b.as_str());
            }
        }
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
        let sentence = r.sentence.clone();
        add_change(r, path, &sentence);
    }
}

/// Phrases that say a file was not changed, beside [`UNTOUCHED`]'s ("not modified", "nicht
/// geändert", "कोई बदलाव नहीं", "変更なし").
pub(super) const NOT_CHANGED: &[&str] = &[
    "not changed",
    "not modified",
    "not touched",
    "not been changed",
    "not been modified",
    "no changes",
    "no change",
    "didn't touch",
    "did not touch",
    "didn't change",
    "did not change",
    "didn't modify",
    "did not modify",
    "left alone",
    "left as is",
    "nicht geändert",
    "nicht verändert",
    "nicht angefasst",
    "keine änderung",
    "pas modifié",
    "non modifié",
    "pas touché",
    "aucune modification",
    "aucun changement",
    "no modificado",
    "no se modificó",
    "no se ha modificado",
    "sin tocar",
    "ningún cambio",
    "no toqué",
    "não modificado",
    "não foi alterado",
    "não alterado",
    "não mexi",
    "nenhuma alteração",
    "non modificato",
    "nessuna modifica",
    "non toccato",
    "niet gewijzigd",
    "niet aangepast",
    "не изменён",
    "не изменен",
    "не менял",
    "не трогал",
    "не изменялся",
    "не змінено",
    "не змінював",
    "не чіпав",
    "без змін",
    "niezmienion",
    "nie zmieniałem",
    "nie zmienion",
    "nezměněn",
    "nezměnil",
    "inte ändrad",
    "inte ändrat",
    "ikke ændret",
    "ikke endret",
    "ei muutettu",
    "ennallaan",
    "değişmedi",
    "değiştirilmedi",
    "değişiklik yok",
    "dokunulmadı",
    "aynı kaldı",
    "δεν άλλαξε",
    "χωρίς αλλαγές",
    "változatlan",
    "nem módosult",
    "nem változott",
    "nemodificat",
    "fără modificări",
    "nepromijenjen",
    "nepromenjen",
    "bez promjena",
    "bez promena",
    "непроменен",
    "без промени",
    "không thay đổi",
    "không sửa",
    "tidak berubah",
    "tidak diubah",
    "tanpa perubahan",
    "tidak disentuh",
    "hindi binago",
    "walang pagbabago",
    "haijabadilishwa",
    "bila mabadiliko",
    "変更なし",
    "変更していません",
    "変更はありません",
    "無変更",
    "触っていません",
    "未修改",
    "没有修改",
    "未改动",
    "没有改动",
    "未更改",
    "没有更改",
    "没动",
    "변경 없음",
    "변경하지 않",
    "수정하지 않",
    "변경되지 않",
    "कोई बदलाव नहीं",
    "नहीं बदला",
    "नहीं बदली",
    "नहीं बदले",
    "कोई परिवर्तन नहीं",
    "কোনো পরিবর্তন নেই",
    "পরিবর্তন করিনি",
    "لم يتغير",
    "لم أغير",
    "لم يتم تعديل",
    "لم تتغير",
    "לא שונה",
    "לא השתנה",
    "بدون تغییر",
    "تغییری نکرد",
    "ไม่เปลี่ยนแปลง",
    "ไม่ได้แก้ไข",
    "sense canvis",
    "no modificat",
    "muutmata",
    "nepakeistas",
    "nemainīts",
    "nespremenjen",
    "nezmenený",
    "bez zmien",
    // Not touched, in the languages' own verbs.
    "ছুঁইনি",
    "হাত দিইনি",
    "छुआ नहीं",
    "नहीं छुआ",
    "हाथ नहीं लगाया",
    "いじっていません",
    "没有动",
    "没碰",
    "未动",
    "건드리지 않",
    "손대지 않",
    "لم ألمس",
    "دست نزدم",
    "dokunmadım",
    "nicht angerührt",
    "non touché",
    "no he tocado",
    "não toquei",
    "non ho toccato",
    "не тронут",
    "nie ruszałem",
    "nietknięt",
    "niet aangeraakt",
    "inte rört",
    "không đụng",
    "không động",
    "tidak saya sentuh",
    "ไม่ได้แตะ",
    "netaknut",
    "nedotknut",
];

/// Marks the files a report says it left unchanged ("`config/app.yaml` में कोई बदलाव नहीं
/// हुआ", "`app/text.py` unchanged", "no changes to `README.md`"): a claim the file is as
/// the turn found it. The phrase must stand right beside the path (two words between at
/// most), so "the public API of `src/lib.rs` is unchanged" says nothing of the file.
pub fn mark_said_unchanged(readings: &mut [Reading]) {
    // "the first `sed` matched nothing, so `config/app.yaml` was left as it was … then it
    // has `port: 9090`": a file another sentence says changed was unchanged only for a
    // while, a moment of the story.
    let changed: Vec<String> = readings
        .iter()
        .flat_map(|r| &r.claims)
        .filter_map(|c| match &c.kind {
            Kind::File { path, change } if *change != Change::Unchanged => Some(path.clone()),
            _ => None,
        })
        .collect();
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        // A denial is the claim here; a plan, a question, a condition or another's hand
        // is none.
        let lower = fold(&r.sentence.to_lowercase());
        if r.sentence.trim_end().ends_with(['?', '？'])
            || forms::any_in(&lower, Sets::NOT_A_REPORT)
            || r.why.iter().any(|w| {
                [
                    "plan",
                    "condition",
                    "question",
                    "someone",
                    "future",
                    "instruction",
                ]
                .iter()
                .any(|x| w.contains(x))
            })
            || super::super::lang::names_an_agent(&r.sentence)
        {
            continue;
        }
        let plain = refs::without_brackets(&r.sentence);
        for clause in plain.split(CLAUSE_ENDS) {
            let phrases = refs::UNTOUCHED.iter().chain(NOT_CHANGED);
            let Some((path, _)) = path_beside_phrase(clause, phrases, Side::Either) else {
                continue;
            };
            let path = &path;
            let told_changed = changed.iter().any(|p| {
                p == path
                    && !r
                        .claims
                        .iter()
                        .any(|c| matches!(&c.kind, Kind::File { path: q, .. } if q == p))
            });
            if told_changed {
                continue;
            }
            r.claims.retain(|c| {
                !matches!(&c.kind, Kind::File { path: p, change: Change::Modified | Change::Created } if p == path)
            });
            let kind = Kind::File {
                path: path.clone(),
                change: Change::Unchanged,
            };
            add_new(r, kind);
        }
    }
}

/// Where a clause ends for [`path_beside_phrase`].
pub(super) const CLAUSE_ENDS: [char; 10] =
    [',', ';', '，', '；', '。', '—', '、', '•', '·', '\u{387}'];

/// Which side of the path a phrase may stand on.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Either,
    After,
}

/// The one path a clause names in a code span when one of `phrases` stands right beside
/// it (two words between at most, no other span): "`app/text.py` unchanged", "Eski
/// `app/text.py` artık yok". Not when the path only names whose part the phrase is about
/// ("the public API of `src/lib.rs` is unchanged").
fn path_beside_phrase<'p>(
    clause: &str,
    phrases: impl Iterator<Item = &'p &'p str>,
    side: Side,
) -> Option<(String, &'p str)> {
    // One path in a code span first: most clauses have none, and the phrases are many.
    if !clause.contains('`') {
        return None;
    }
    let paths = path_spans(clause);
    let [path] = paths.as_slice() else {
        return None;
    };
    let lower = fold(&clause.to_lowercase());
    let (at, phrase) = phrases
        .filter_map(|p| phrase_at(&lower, p).map(|i| (i, *p)))
        .min_by_key(|(i, _)| *i)?;
    let (start, end) = span_place(&lower, path)?;
    let between = if at >= end {
        &lower[end..at]
    } else if side == Side::Either && at + phrase.len() <= start {
        &lower[at + phrase.len()..start]
    } else {
        return None;
    };
    let between = between.trim_matches(|c: char| c.is_whitespace() || c == ':' || c == '：');
    // "`config/app.yaml` | `port` ongewijzigd": a name between is what stayed.
    if between.split_whitespace().count() > 2
        || between.chars().count() > 14
        || between.contains('`')
    {
        return None;
    }
    let word_before = lower[..start].split_whitespace().next_back().unwrap_or("");
    if at >= end && OF_WORDS.contains(&word_before) {
        return None;
    }
    Some((path.clone(), phrase))
}

/// Marks the files a report says are no longer there ("Eski `app/text.py` artık yok",
/// "`old.py` no longer exists", "`x` n'existe plus"), in any language: a deletion claim,
/// though the phrase holds a word for "not". The phrase stands right after the one path
/// of its clause; a plan, a question, a condition, another's hand or a denial before the
/// path claims nothing.
pub fn mark_said_gone(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.sentence.contains('`') || r.sentence.trim_end().ends_with(['?', '？']) {
            continue;
        }
        let plain = refs::without_brackets(&r.sentence);
        let mut found: Vec<String> = Vec::new();
        for clause in plain.split(CLAUSE_ENDS) {
            let (path, rest) = match path_beside_phrase(clause, NO_LONGER.iter(), Side::After) {
                Some((path, phrase)) => (path, fold(&clause.to_lowercase()).replace(phrase, " ")),
                None => match no_path_any_longer(clause) {
                    Some(found) => found,
                    None => continue,
                },
            };
            // "I did not check whether `x` is gone", "Если `x` больше нет, …": a denial, a
            // plan or a condition beside the phrase.
            if refs::negates(&rest) || forms::any_in(&rest, Sets::NOT_A_PASS | Sets::NOT_A_REPORT) {
                continue;
            }
            found.push(path);
        }
        if found.is_empty() {
            continue;
        }
        let lower = fold(&r.sentence.to_lowercase());
        if forms::any_in(&lower, Sets::NOT_A_REPORT) || refs::plans_or_doubts(r) {
            continue;
        }
        for path in found {
            let change = Change::Deleted;
            let kind = if path.ends_with('/') {
                Kind::Dir { path, change }
            } else {
                Kind::File { path, change }
            };
            add_new(r, kind);
        }
    }
}

/// A path a clause says is no longer there with a word for "no" right before it and one
/// for "any longer" beside it ("Roten har ingen `notes.txt` längre", "kein `x` mehr",
/// "no `x` anymore", "больше нет `x`"), and the clause without those words.
fn no_path_any_longer(clause: &str) -> Option<(String, String)> {
    const NO: &[&str] = &[
        "no",
        "ingen",
        "inget",
        "inga",
        "kein",
        "keine",
        "keinen",
        "geen",
        "aucun",
        "aucune",
        "nessun",
        "nessuna",
        "ningún",
        "ninguna",
        "nenhum",
        "nenhuma",
        "нет",
        "немає",
        "ei",
        "žádný",
        "żadnego",
        "nincs",
        "yok",
    ];
    const LONGER: &[&str] = &[
        "längre",
        "lenger",
        "længere",
        "mehr",
        "anymore",
        "more",
        "longer",
        "meer",
        "più",
        "plus",
        "más",
        "mais",
        "już",
        "už",
        "больше",
        "більше",
        "enää",
        "artık",
        "már",
    ];
    let said = |list: &[&str]| {
        clause.split_whitespace().any(|w| {
            let w = w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            list.contains(&w.as_str())
        })
    };
    if !said(LONGER) || !said(NO) {
        return None;
    }
    let parts: Vec<&str> = clause.split('`').collect();
    for (i, span) in parts.iter().enumerate().skip(1).step_by(2) {
        let Some(path) = vocab::path_of(span.trim(), true) else {
            continue;
        };
        let before = fold(&parts[i - 1].to_lowercase());
        let after = fold(&parts.get(i + 1).copied().unwrap_or("").to_lowercase());
        let words_before: Vec<&str> = before.split_whitespace().rev().take(3).collect();
        let words_after: Vec<&str> = after
            .split_whitespace()
            .take(2)
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .collect();
        let no_right_before = words_before.first().is_some_and(|w| NO.contains(w));
        let longer = words_after.iter().any(|w| LONGER.contains(w))
            || words_before.iter().any(|w| LONGER.contains(w));
        if no_right_before && longer {
            let mut rest = format!("{before} {after}");
            for w in words_before.iter().chain(&words_after) {
                if NO.contains(w) || LONGER.contains(w) {
                    rest = rest.replacen(w, " ", 1);
                }
            }
            return Some((path, rest));
        }
    }
    None
}

/// Phrases that say a thing is no longer there, in the tables' languages: each holds a
/// word for "not" that is no denial of a change.
pub(super) const NO_LONGER: &[&str] = &[
    "no longer exists",
    "no longer exist",
    "no longer there",
    "no longer present",
    "is gone",
    "are gone",
    "doesn't exist anymore",
    "does not exist anymore",
    "existiert nicht mehr",
    "gibt es nicht mehr",
    "ist nicht mehr da",
    "ist weg",
    "sind weg",
    "n'existe plus",
    "n’existe plus",
    "n'est plus là",
    "n’est plus là",
    "a disparu",
    "ya no existe",
    "ya no está",
    "ya no existen",
    "ya no están",
    "não existe mais",
    "já não existe",
    "deixou de existir",
    "non esiste più",
    "non c'è più",
    "non c’è più",
    "bestaat niet meer",
    "is weg",
    "zijn weg",
    "finns inte längre",
    "finns inte kvar",
    "är borta",
    "findes ikke længere",
    "findes ikke mere",
    "er væk",
    "finnes ikke lenger",
    "finnes ikke mer",
    "er borte",
    "ei ole enää",
    "ei enää ole",
    "on poissa",
    "już nie istnieje",
    "już nie ma",
    "już go nie ma",
    "už neexistuje",
    "už tam není",
    "už nie je",
    "nu mai există",
    "a dispărut",
    "már nem létezik",
    "már nincs",
    "eltűnt",
    "artık yok",
    "artık mevcut değil",
    "больше нет",
    "больше не существует",
    "уже нет",
    "більше немає",
    "більше не існує",
    "вже немає",
    "вече не съществува",
    "вече го няма",
    "δεν υπάρχει πια",
    "δεν υπάρχει πλέον",
    "もう存在しません",
    "もうありません",
    "存在しなくなりました",
    "なくなりました",
    "已不存在",
    "不再存在",
    "已经不存在",
    "已經不存在",
    "已经没有了",
    "더 이상 존재하지 않",
    "더 이상 없",
    "không còn tồn tại",
    "không còn nữa",
    "đã không còn",
    "sudah tidak ada",
    "tidak ada lagi",
    "wala na",
    "haipo tena",
    "haupo tena",
    "כבר לא קיים",
    "כבר לא קיימת",
    "لم يعد موجود",
    "لم تعد موجودة",
    "دیگر وجود ندارد",
    "अब मौजूद नहीं",
    "আর নেই",
    "ไม่มีแล้ว",
];

/// Marks the files a report says now stand in a folder ("`git mv logs/*.log archive/`: все
/// три файла (`app.log`, `worker.log`, `cron.LOG`) теперь лежат в `archive/`"): each name
/// written before the folder, with a word for "now" between, is a claim that the folder
/// holds it. It blocks only where the project never had that path; a denial, a plan or a
/// question claims nothing.
pub fn mark_now_inside(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.sentence.contains('`') || r.sentence.trim_end().ends_with(['?', '？']) {
            continue;
        }
        let sentence = r.sentence.clone();
        let spans: Vec<&str> = vocab::spans_of(&sentence).map(str::trim).collect();
        // The folder is the sentence's last span, and its only one.
        let Some(dir) = spans.last().filter(|d| d.ends_with('/') && d.len() > 1) else {
            continue;
        };
        if spans
            .iter()
            .filter(|s| s.ends_with('/') && !s.contains(' '))
            .count()
            != 1
        {
            continue;
        }
        let Some(dir_at) = sentence.rfind(&format!("`{dir}`")) else {
            continue;
        };
        let Some(now) = after_now(&sentence[..dir_at]) else {
            continue;
        };
        let now_at = dir_at - now.len();
        let names: Vec<&str> = vocab::spans_of(&sentence[..now_at])
            .map(str::trim)
            .filter(|n| {
                !n.contains(['/', ' ', '*'])
                    && n.contains('.')
                    && !n.starts_with('.')
                    && vocab::path_of(n, true).is_some()
            })
            .collect();
        let lower = fold(&refs::unquoted(&r.sentence).to_lowercase());
        if names.is_empty()
            || refs::negates(&lower)
            || forms::any_in(&lower, Sets::NOT_A_PASS | Sets::NOT_A_REPORT)
            || refs::plans_or_doubts(r)
        {
            continue;
        }
        for name in names {
            let path = format!("{dir}{name}");
            if r.claims
                .iter()
                .any(|c| matches!(&c.kind, Kind::File { path: p, .. } if *p == path))
            {
                continue;
            }
            let claim = presence(path, &sentence, "a file a report says is now in a folder");
            add(r, claim);
        }
    }
}

/// Words that join a path to the noun before it ("the API of `a.rs`", "die Ausgabe von").
const OF_WORDS: &[&str] = &[
    "of", "in", "from", "for", "inside", "within", "de", "del", "della", "dello", "dei", "du",
    "des", "von", "vom", "im", "aus", "из", "в", "во", "на", "у", "z", "ze", "w", "we", "v", "ve",
    "em", "no", "na", "nel", "nella", "van", "från", "av", "af", "dari", "di", "của", "trong", "ở",
    "sa", "dalam", "içinde", "του", "της", "στο", "din", "iz", "od",
];

/// Where `phrase` stands in `text` with word edges where its script has them.
fn phrase_at(text: &str, phrase: &str) -> Option<usize> {
    super::super::scan::find_all(text, phrase).find(|&i| {
        let spaced = phrase
            .chars()
            .next()
            .is_some_and(|c| c.is_lowercase() || c.is_ascii());
        !spaced
            || text[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
                && (phrase.ends_with(|c: char| !c.is_alphanumeric())
                    || text[i + phrase.len()..]
                        .chars()
                        .next()
                        .is_none_or(|c| !c.is_alphanumeric())
                    || phrase.chars().count() >= 9)
    })
}

/// Where the code span holding `path` stands in `text`: its opening and closing backticks'
/// places (after the closing one).
fn span_place(text: &str, path: &str) -> Option<(usize, usize)> {
    let mut at: usize = 0;
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 && part.trim().trim_start_matches("./") == path.to_lowercase() {
            return Some((at.saturating_sub(1), at + part.len() + 1));
        }
        at += part.len() + 1;
    }
    None
}

/// The code spans right before and right after the first arrow outside code spans
/// ("`0.1.0` → `0.2.0`").
fn spans_beside_arrow(sentence: &str, arrows: &[&str]) -> Option<(String, String)> {
    let parts: Vec<&str> = sentence.split('`').collect();
    (2..parts.len()).step_by(2).find_map(|i| {
        let between = parts[i].trim();
        let after_ok = parts.get(i + 1).is_some() && i + 2 <= parts.len();
        (arrows.contains(&between) && after_ok).then(|| {
            (
                parts[i - 1].trim().to_owned(),
                parts[i + 1].trim().to_owned(),
            )
        })
    })
}

/// Words for "the same file": a sentence with one speaks of the file the sentence before
/// it named.
const SAME_FILE: &[&str] = &[
    "same file",
    "that file",
    "this file",
    "mesmo arquivo",
    "mesmo ficheiro",
    "mismo archivo",
    "mismo fichero",
    "même fichier",
    "stesso file",
    "derselben datei",
    "dieselbe datei",
    "gleichen datei",
    "hetzelfde bestand",
    "samma fil",
    "samme fil",
    "same fil",
    "той же файл",
    "том же файле",
    "тому ж файлі",
    "тому самому файлі",
    "tym samym pliku",
    "stejném souboru",
    "rovnakom súbore",
    "aynı dosya",
    "同じファイル",
    "同一文件",
    "같은 파일",
    "cùng tệp",
    "cùng file",
    "file yang sama",
    "berkas yang sama",
    "ίδιο αρχείο",
    "samassa tiedostossa",
    "ugyanabban a fájlban",
    "același fișier",
    "mateix fitxer",
    "אותו קובץ",
    "همان فایل",
    "नफ़ाइल",
    "उसी फ़ाइल",
    "उसी फाइल",
    "নফাইল",
    "একই ফাইল",
    "ไฟล์เดียวกัน",
];

/// Marks the change a sentence states of "the same file" ("Mudei o nível de log de
/// `info` para `debug` no mesmo arquivo"): the file the nearest sentence before it
/// named, in any language, where the sentence says a change was made and names no path
/// of its own.
pub fn mark_same_file_changes(readings: &mut [Reading]) {
    let mut last_path: Option<String> = None;
    for r in readings.iter_mut() {
        let paths = path_spans(&r.sentence);
        if let Some(p) = paths.last() {
            last_path = Some(p.clone());
            continue;
        }
        let Some(path) = last_path.clone() else {
            continue;
        };
        if r.skipped
            || r.claims
                .iter()
                .any(|c| matches!(c.kind, Kind::File { .. } | Kind::Dir { .. }))
        {
            continue;
        }
        let lower = fold(&unquoted(&r.sentence).to_lowercase());
        if !SAME_FILE.iter().any(|w| lower.contains(w))
            || !forms::any_in(&lower, Sets::CHANGED)
            || !clause_states_as_done(&r.sentence)
        {
            continue;
        }
        let claim = Claim::read(
            Kind::File {
                path,
                change: Change::Modified,
            },
            &r.sentence,
        );
        add(r, claim);
    }
}

/// Whether a sentence sets a version to a value ("bumped the version to 1.0.1", "subí la
/// versión a 1.0.1", "Version auf 2.0.0 angehoben"): a word for version, then a word for
/// "to" right before a version number, in any language. A version stated without "to"
/// ("the version is 1.0.0") is a state, not a change.
fn version_set(sentence: &str) -> bool {
    const VERSION: &[&str] = &[
        "version",
        "versión",
        "versão",
        "versione",
        "versie",
        "versjon",
        "versio",
        "verze",
        "verzi",
        "verzia",
        "verziót",
        "versiunea",
        "wersj",
        "верси",
        "sürüm",
        "phiên bản",
        "versi",
        "έκδοσ",
        "גרס",
        "نسخه",
        "إصدار",
        "संस्करण",
        "वर्ज़न",
        "সংস্করণ",
        "เวอร์ชัน",
        "バージョン",
        "版本",
        "버전",
    ];
    const TO: &[&str] = &[
        "to", "a", "à", "auf", "naar", "na", "till", "til", "до", "на", "ke", "kepada", "lên",
        "thành", "para", "σε", "la", "på", "→",
    ];
    let lower = sentence.to_lowercase();
    if !VERSION.iter().any(|v| lower.contains(v)) {
        return false;
    }
    let is_version = |w: &str| {
        let w = w.trim_matches(|c: char| "`'\"*_(),.;:«»“”„。，、；：（）".contains(c));
        let w = w.strip_prefix('v').unwrap_or(w);
        w.split('.').count() >= 2
            && w.split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    let words: Vec<&str> = lower.split_whitespace().collect();
    // "versions up to 2.0", "from 1.0 to 2.0" (a range or a change `version_change`
    // reads) set nothing by this rule.
    words.iter().enumerate().skip(1).any(|(i, w)| {
        TO.contains(&words[i - 1])
            && is_version(w)
            && !(i >= 2 && matches!(words[i - 2], "up" | "bis" | "jusqu'à" | "hasta" | "fino"))
    })
        // "升到 1.0.1", "に 1.0.1 へ": the scripts without spaces write "to" inside.
        || ["到", "为", "為", "へ", "로", "으로"].iter().any(|t| {
            words.iter().any(|w| w.ends_with(t)) && words.iter().any(|w| is_version(w))
        })
}

/// Words right before a path that make it what a change points at, not what changed ("a
/// pointer to `config/app.yaml` in the README", "einen Verweis auf `a.md`").
const REFERENCE_TO: &[&str] = &[
    "pointer to",
    "link to",
    "links to",
    "linked to",
    "reference to",
    "references to",
    "points to",
    "pointing to",
    "refers to",
    "referring to",
    "mention of",
    "see",
    "verweis auf",
    "link auf",
    "link zu",
    "hinweis auf",
    "lien vers",
    "renvoi vers",
    "référence à",
    "enlace a",
    "referencia a",
    "link para",
    "referência a",
    "riferimento a",
    "collegamento a",
    "verwijzing naar",
    "link naar",
    "ссылку на",
    "ссылка на",
    "посилання на",
    "odkaz na",
    "odnośnik do",
    "link do",
    "länk till",
    "hänvisning till",
    "henvisning til",
    "lenke til",
    "link til",
    "hivatkozás",
    "trimitere la",
    "referință la",
    "bağlantı",
    "liên kết đến",
    "tautan ke",
    "pautan ke",
    // What something follows or is set by, not what the verb changed ("the port in the
    // note follows `config/app.yaml`").
    "according to",
    "follows",
    "based on",
    "in line with",
    "gemäß",
    "laut",
    "selon",
    "d'après",
    "según",
    "segundo",
    "conforme",
    "secondo",
    "volgens",
    "согласно",
    "відповідно до",
    "według",
    "zgodnie z",
    "podle",
    "odkazuje na",
    "enligt",
    "ifølge",
    "theo",
    "dựa trên",
    "menurut",
    "mengikut",
    "mengikuti",
    "merujuk ke",
    "merujuk pada",
    "berdasarkan",
    "sesuai dengan",
    "ayon sa",
    "nagtuturo sa",
    "tumuturo sa",
    "根据",
    "按照",
    "के अनुसार",
    "حسب",
    "وفقًا لـ",
];

/// Words a few words before a path that make it what the sentence did NOT do ("instead
/// of overwriting `config.bak/app.yaml`", "în loc să suprascrie `a`", "statt `a` zu
/// ändern"); [`INSTEAD_AFTER`] for the languages that write them after the path.
const INSTEAD_BEFORE: &[&str] = &[
    "instead of",
    "rather than",
    "in place of",
    "statt",
    "anstatt",
    "anstelle",
    "au lieu de",
    "au lieu d'",
    "plutôt que",
    "en lugar de",
    "en vez de",
    "em vez de",
    "ao invés de",
    "em lugar de",
    "invece di",
    "anziché",
    "al posto di",
    "in plaats van",
    "вместо",
    "замість",
    "zamiast",
    "místo",
    "namiesto",
    "istället för",
    "i stället för",
    "i stedet for",
    "i stedet for at",
    "în loc să",
    "în loc de",
    "umjesto",
    "umesto",
    "namesto",
    "vietoj",
    "nevis",
    "thay vì",
    "thay cho",
    "alih-alih",
    "bukannya",
    "sa halip na",
    "badala ya",
    "而不是",
    "而非",
    "بدلاً من",
    "بدلا من",
    "به جای",
    "بجای",
    "במקום",
    "แทนที่จะ",
    "αντί για",
    "αντί να",
    "вместо да",
];

/// The same, after the path ("`a` yerine", "`a` を上書きする代わりに", "`a` 대신").
const INSTEAD_AFTER: &[&str] = &[
    "yerine",
    "代わりに",
    "대신",
    "के बजाय",
    "के स्थान पर",
    "helyett",
    "sijaan",
    "asemel",
];

/// Words that open a relative clause ("…, which copies `config/app.yaml` to …", "…,
/// který zkopíruje `config/app.yaml`"): a path in one describes what a path named before
/// it does, and is no path the sentence's verb changed.
const RELATIVE_PRONOUNS: &[&str] = &[
    "which",
    "who",
    "který",
    "která",
    "které",
    "ktorý",
    "ktorá",
    "ktoré",
    "który",
    "która",
    "które",
    "который",
    "которая",
    "которое",
    "которые",
    "який",
    "яка",
    "яке",
    "які",
    "който",
    "която",
    "което",
    "welche",
    "welcher",
    "welches",
    "qui",
    "lequel",
    "laquelle",
    "el cual",
    "la cual",
    "il quale",
    "la quale",
    "che",
    "welke",
    "som",
    "joka",
    "jota",
    "amely",
    "ami",
    "amelyik",
    "care",
    "yang",
    "koji",
    "koja",
    "koje",
    "kuris",
    "kuri",
    "kurš",
    "kura",
    "mis",
    "mille",
    "που",
    "mà",
];

/// Takes out the file claims that are no file's change: a pattern (`build/*.o` names
/// files, not one file), a path in brackets after another path of the clause (what the
/// first one does: "`scripts/rotate.sh` 작성 (`build/*.o` → `build/archive/`)"), and a
/// path a reference points at ("a pointer to `config/app.yaml` in the README").
pub fn drop_asides(readings: &mut [Reading]) {
    for r in readings.iter_mut() {
        let before = r.claims.len();
        let sentence = r.sentence.clone();
        r.claims.retain(|c| match &c.kind {
            // "`scripts/rotate.sh` — memindahkan berkas `logs/*.log` ke `logs/archive/`":
            // what a script moves, not a file renamed to a pattern.
            Kind::File {
                change: Change::Renamed { to },
                ..
            } if to.contains(['*', '?']) => false,
            Kind::File { path, .. } | Kind::Dir { path, .. } => {
                !path.contains(['*', '?']) && !is_extension(path) && !is_aside(&sentence, path)
            }
            _ => true,
        });
        if r.claims.is_empty() && before > 0 {
            r.why.push("its paths are patterns or asides (in brackets after another path, or what a reference points at): no file's change".into());
        }
    }
}

/// Whether a path is a file extension named in passing ("the two old `.o` files"): a dot
/// and up to four letters, and none of the dotfiles that short (`.env`, `.git`).
fn is_extension(path: &str) -> bool {
    path.strip_prefix('.').is_some_and(|ext| {
        (1..=4).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
            && !matches!(ext, "env" | "git" | "npm" | "nvm" | "vim" | "ssh" | "aws")
    })
}

/// Words that join a list of paths ("`a.rs`, `b.rs` and `c.rs`"), in the tables'
/// languages: a bracket of paths and these adds paths to its verb.
const LIST_GLUE: &[&str] = &[
    "and",
    "also",
    "plus",
    "und",
    "sowie",
    "et",
    "y",
    "e",
    "i",
    "en",
    "och",
    "og",
    "ja",
    "és",
    "și",
    "ve",
    "dan",
    "na",
    "at",
    "và",
    "и",
    "і",
    "та",
    "a",
    "oraz",
    "kai",
    "και",
    "ו",
    "و",
    "和",
    "与",
    "與",
    "及",
    "、",
    "그리고",
    "및",
    "と",
];

/// Nouns of reference ("link", "Verweis", "lien"): a path a word of direction after one
/// points at is what the reference names.
const REFERENCE_NOUNS: &[&str] = &[
    "link",
    "pointer",
    "reference",
    "verweis",
    "lien",
    "enlace",
    "collegament",
    "riferiment",
    "verwijzing",
    "ссылк",
    "посилан",
    "odkaz",
    "odnośnik",
    "referência",
    "referencia",
];

/// Whether every place `sentence` names `path` in a code span is an aside: in brackets
/// after another path the sentence names outside them, or right after a word of
/// reference ([`REFERENCE_TO`]).
fn is_aside(sentence: &str, path: &str) -> bool {
    let mut spans: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for (i, part) in sentence.split('`').enumerate() {
        if i % 2 == 1 {
            spans.push((at, part));
        }
        at += part.len() + 1;
    }
    let in_brackets = |at: usize| {
        let before = &sentence[..at];
        before.matches(['(', '（']).count() > before.matches([')', '）']).count()
    };
    let first_outside = spans
        .iter()
        .find(|(at, s)| !in_brackets(*at) && vocab::path_of(s, true).is_some())
        .map(|(at, _)| *at);
    let trimmed = path.trim_end_matches('/');
    // Where each place starts, and where the words before it end (before the span's
    // opening backtick; right before a bare path).
    let mut places: Vec<(usize, usize)> = spans
        .iter()
        .filter(|(_, s)| s.trim().trim_end_matches('/') == trimmed)
        .map(|(at, _)| (*at, at - 1))
        .collect();
    // Written bare ("(đóng gói notes.txt, config/ và README.md)"), outside the spans.
    let mut offset = 0;
    for (i, part) in sentence.split('`').enumerate() {
        if i % 2 == 0 {
            for (at, _) in part.match_indices(trimmed) {
                let before_ok = part[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_alphanumeric() && !"/._".contains(c));
                let after = &part[at + trimmed.len()..];
                let after = after.strip_prefix('/').unwrap_or(after);
                let after_ok = match after.chars().next() {
                    None => true,
                    Some('.') => after[1..].chars().next().is_none_or(char::is_whitespace),
                    Some(c) => !c.is_alphanumeric() && !"/_".contains(c),
                };
                if before_ok && after_ok {
                    places.push((offset + at, offset + at));
                }
            }
        }
        offset += part.len() + 1;
    }
    if places.is_empty() {
        return false;
    }
    // In brackets after a path, with an arrow or an example: what the first path does or
    // holds ("`scripts/rotate.sh` (`build/*.o` → `build/archive/`)"); "(and `b.rs`)" is
    // one more path changed.
    let bracket_text = |at: usize| {
        let open = sentence[..at].rfind(['(', '（']).unwrap_or(0);
        let close = sentence[at..]
            .find([')', '）'])
            .map_or(sentence.len(), |c| at + c);
        sentence[open..close].to_lowercase()
    };
    let describes = |at: usize| {
        let t = bracket_text(at);
        [
            "→", "->", "=>", "e.g.", "z. b.", "z.b.", "p. ex.", "ex:", "例如", "例：",
        ]
        .iter()
        .any(|w| t.contains(w))
    };
    // Or words of its own beside its paths: what the thing before does with them ("`dist`
    // (đóng gói notes.txt, config/ và README.md)"), not more paths the verb took.
    let more_than_paths = |at: usize| {
        let t = bracket_text(at);
        t.split('`')
            .step_by(2)
            .flat_map(str::split_whitespace)
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '/' && c != '.'))
            .filter(|w| !w.is_empty() && !w.contains(['/', '.']))
            .any(|w| !LIST_GLUE.contains(&w) && !w.chars().all(|c| c.is_ascii_digit()))
    };
    let bracketed = places.iter().all(|&(at, _)| {
        in_brackets(at)
            && (describes(at) || more_than_paths(at))
            && first_outside.is_some_and(|f| f < at)
    });
    let referenced = places.iter().all(|&(_, end)| {
        let before = sentence[..end].to_lowercase();
        let before = before.trim_end();
        let right_after = REFERENCE_TO.iter().any(|w| {
            before.ends_with(w)
                && before[..before.len() - w.len()]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_alphanumeric())
        });
        // "two relative links: one to `notes.txt`, one to `config/app.yaml`": a word of
        // direction, and a word of reference a few words before it.
        let words: Vec<&str> = before
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .collect();
        let toward = words
            .last()
            .is_some_and(|w| ["to", "auf", "zu", "vers", "naar", "на", "para", "a"].contains(w));
        let named = words
            .iter()
            .rev()
            .skip(1)
            .take(6)
            .any(|w| REFERENCE_NOUNS.iter().any(|n| w.starts_with(n)));
        right_after || toward && named
    });
    // In a relative clause after another path ("`scripts/snapshot.sh`, který zkopíruje
    // `config/app.yaml` do …"): what that path does with it.
    let relative = places.iter().all(|&(at, end)| {
        let clause_start = sentence[..end]
            .rfind([',', ';', ':', '(', '，', '；', '：'])
            .map_or(0, |i| crate::audit::scan::after_char(sentence, i));
        let opens = sentence[clause_start..end].trim_start().to_lowercase();
        let first_word = opens
            .split(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("");
        let two_words: String = opens
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ");
        let relative_opening = RELATIVE_PRONOUNS
            .iter()
            .any(|w| *w == first_word || *w == two_words);
        relative_opening && first_outside.is_some_and(|f| f < at && f < clause_start)
    });
    // "a new `.gitignore` with `tmp/`", "bagong `.gitignore` na may `tmp/`": a path right
    // after another and a word for containing is what the first holds.
    let contained = places.iter().all(|&(_, end)| {
        let before = &sentence[..end];
        let Some(close) = before.rfind('`') else {
            return false;
        };
        let between = before[close + 1..].to_lowercase();
        let words: Vec<&str> = between.split_whitespace().collect();
        let opened = before[..close].matches('`').count() % 2 == 1;
        // A folder holds files ("`dist/` now holds `app.yaml`": a path there); a file
        // holds text.
        let holder = before[..close].rsplit('`').next().unwrap_or("").trim();
        opened
            && !holder.ends_with('/')
            && !is_extension(holder)
            && vocab::path_of(holder, true).is_some()
            && words.len() <= 3
            && CONTAINING
                .iter()
                .any(|c| words.contains(c) || c.contains(' ') && between.contains(c))
    });
    // "… în loc să suprascrie `config.bak/app.yaml`": what was not done instead.
    let instead = places.iter().all(|&(at, end)| {
        let clause_start = sentence[..end]
            .rfind([',', ';', ':', '(', '，', '；', '：', '.'])
            .map_or(0, |i| crate::audit::scan::after_char(sentence, i));
        let before: Vec<String> = sentence[clause_start..end]
            .to_lowercase()
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        let near_before = before[before.len().saturating_sub(5)..].join(" ");
        // After the span's closing backtick, or the bare path's end.
        let close = if end < at {
            sentence[at..]
                .find('`')
                .map_or(sentence.len(), |i| at + i + 1)
        } else {
            at + trimmed.len()
        };
        let near_after: String = sentence
            .get(close..)
            .unwrap_or("")
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" ");
        let word_in = |text: &str, w: &str| {
            crate::audit::scan::find_all(text, w).any(|i| {
                text[..i]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_alphanumeric())
            })
        };
        INSTEAD_BEFORE.iter().any(|w| word_in(&near_before, w))
            || INSTEAD_AFTER.iter().any(|w| near_after.contains(w))
    });
    bracketed || referenced || relative || instead || contained
}

/// Words for holding, between two paths: the second is what the first holds ("a new
/// `.gitignore` with `tmp/`").
const CONTAINING: &[&str] = &[
    // Only words that hold: the short prepositions ("з", "с", "z", "s") are also "from".
    "with",
    "containing",
    "contains",
    "holding",
    "listing",
    "mit",
    "enthält",
    "avec",
    "contenant",
    "contiene",
    "contendo",
    "contém",
    "bevat",
    "содержащий",
    "содержит",
    "що містить",
    "zawierający",
    "obsahující",
    "som innehåller",
    "jossa",
    "içeren",
    "dengan",
    "berisi",
    "có",
    "chứa",
    "na may",
    "yenye",
    "que conté",
    "que contiene",
    "qui contient",
    "die enthält",
    "tartalmazó",
    "conținând",
    "koji sadrži",
    "съдържащ",
    "تحتوي",
    "يحتوي",
    "שמכיל",
    "حاوی",
    "ที่มี",
    "包含",
    "含有",
];

/// Phrases that set a value, verb first ("set to `debug`", "sat til", "mis à", "设置为"):
/// after one, as after "now", a file's value is what it holds.
const SET_TO: &[&str] = &[
    "set to",
    "changed to",
    "sat til",
    "ændret til",
    "satt till",
    "ändrad till",
    "ändrat till",
    "satt til",
    "endret til",
    "gesetzt auf",
    "geändert auf",
    "mis à",
    "passé à",
    "réglé sur",
    "puesto en",
    "puesto a",
    "cambiado a",
    "configurado a",
    "configurado como",
    "configurado para",
    "definido como",
    "definido para",
    "alterado para",
    "mudado para",
    "impostato a",
    "impostato su",
    "cambiato in",
    "ingesteld op",
    "gezet op",
    "gewijzigd naar",
    "gewijzigd in",
    "ustawiony na",
    "ustawiono na",
    "zmieniony na",
    "zmieniono na",
    "nastaven na",
    "nastaveno na",
    "změněn na",
    "změněno na",
    "установлен в",
    "установлено в",
    "установлен на",
    "изменён на",
    "изменено на",
    "змінено на",
    "встановлено в",
    "встановлено на",
    "asetettu arvoon",
    "muutettu arvoon",
    "beállítva",
    "setat la",
    "schimbat la",
    "đặt thành",
    "đổi thành",
    "diatur ke",
    "diubah ke",
    "diubah menjadi",
    "设置为",
    "设为",
    "改为",
    "設定為",
    "設為",
    "改為",
];

/// Words for "now", in the tables' languages and beyond: a file that "now has" a value
/// was changed.
const NOW: &[&str] = &[
    "now",
    "แล้ว",
    "jetzt",
    "nun",
    "maintenant",
    "désormais",
    "ahora",
    "agora",
    "ora",
    "adesso",
    "nu",
    "nå",
    "teraz",
    "теперь",
    "тепер",
    "сега",
    "nyní",
    "teď",
    "nyt",
    "most",
    "acum",
    "τώρα",
    "artık",
    "şimdi",
    "giờ",
    "sekarang",
    "kini",
    "ara",
    "sada",
    "zdaj",
    "dabar",
    "tagad",
    "nüüd",
    "sasa",
    "ngayon",
    "现在",
    "現在",
    "今は",
    "이제",
    "अब",
    "الآن",
    "עכשיו",
    "اکنون",
    "حالا",
    "ตอนนี้",
    "এখন",
    "اب",
];

/// Whether a sentence says a state is back or still as before ("`config/app.yaml` dabar
/// vėl su `port: 8080`", "is back to", "ist wieder"): no change of the turn's.
pub(super) fn says_again(sentence: &str) -> bool {
    const AGAIN: &[&str] = &[
        "again",
        "back",
        "still",
        "wieder",
        "immer noch",
        "noch",
        "de nouveau",
        "à nouveau",
        "toujours",
        "encore",
        "otra vez",
        "de nuevo",
        "vuelve a",
        "volvió a",
        "sigue",
        "todavía",
        "ancora",
        "di nuovo",
        "torna a",
        "ainda",
        "novamente",
        "de novo",
        "volta a",
        "voltou a",
        "weer",
        "nog",
        "опять",
        "снова",
        "всё ещё",
        "все ще",
        "знову",
        "знов",
        "znowu",
        "nadal",
        "zase",
        "opět",
        "stále",
        "igen",
        "még",
        "újra",
        "jälleen",
        "yhä",
        "edelleen",
        "tekrar",
        "hâlâ",
        "lại",
        "vẫn",
        "lagi",
        "masih",
        "vėl",
        "vis dar",
        "atkal",
        "joprojām",
        "jälle",
        "ikka",
        "opet",
        "još",
        "spet",
        "še",
        "отново",
        "все още",
        "igen",
        "fortfarande",
        "igjen",
        "fremdeles",
        "stadig",
        "πάλι",
        "ακόμα",
        "ξανά",
        "שוב",
        "עדיין",
        "دوباره",
        "هنوز",
        "مجدداً",
        "لا يزال",
        "फिर",
        "अब भी",
        "আবার",
        "এখনও",
        "อีกครั้ง",
        "ยังคง",
        "又",
        "仍",
        "还是",
        "還是",
        "再び",
        "まだ",
        "また",
        "다시",
        "여전히",
        "tena",
        "bado",
        "muli",
        "pa rin",
    ];
    let lower = sentence.to_lowercase();
    AGAIN.iter().any(|w| {
        lower.match_indices(w).any(|(i, _)| {
            let before = lower[..i].chars().next_back();
            let after = lower[i + w.len()..].chars().next();
            let unspaced = w.chars().next().is_some_and(
                |c| matches!(c as u32, 0x3040..=0x30ff | 0x4e00..=0x9fff | 0x0e00..=0x0e7f),
            );
            unspaced
                || before.is_none_or(|c| !c.is_alphanumeric())
                    && after.is_none_or(|c| !c.is_alphanumeric())
        })
    })
}

/// A span that names a branch where a file stands, not a value: `main`, `HEAD`,
/// `origin/main`, `feat/x`.
fn names_a_branch(span: &str) -> bool {
    matches!(span, "main" | "master" | "HEAD")
        || span.starts_with("origin/")
        || span.contains('/') && refs::is_branch_name(span)
}

/// Words that mark a state reached after the words that give it ("ใช้พอร์ต 7070 แล้ว").
const THAI_DONE: &[&str] = &["แล้ว"];

/// Marks the files a sentence says now show a version ("`src/version.js` i linia `Current
/// version` w `README.md` też pokazują teraz 1.1.0", "`Cargo.toml` and `README.md` now say
/// 0.3.0"): two or more paths before a word for "now", in its clause, and one version
/// (`1.1.0`, `v2.0`) right after it: each file as the turn left it holds the version. One
/// path is [`mark_now_states`]'s. Nothing where the sentence denies, plans, asks or takes
/// something out.
pub fn mark_versions_now(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if r.sentence.matches('`').count() < 4 || r.sentence.trim_end().ends_with(['?', '？']) {
            continue;
        }
        let Some(after) = after_now(&r.sentence) else {
            continue;
        };
        let now_at = r.sentence.len() - after.len();
        let head = r.sentence[..now_at]
            .rsplit([';', '；', '。', '.', ':'])
            .next()
            .unwrap_or("");
        // A path's dot is no clause's end: the clause starts at the last end outside spans.
        let head_start = now_at - head.len();
        let head = if head.matches('`').count() % 2 == 1 {
            &r.sentence[..now_at]
        } else {
            &r.sentence[head_start..now_at]
        };
        let paths = path_spans(head);
        let version: Vec<&str> = after
            .split([';', '；', '。', ','])
            .next()
            .unwrap_or("")
            .split_whitespace()
            .take(3)
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .filter(|w| is_version(w))
            .collect();
        let ([_, _, ..], [version]) = (paths.as_slice(), version.as_slice()) else {
            continue;
        };
        let version = (*version).to_owned();
        let lower = fold(&r.sentence.to_lowercase());
        if refs::plans_or_doubts(r)
            || says_taken_out(&r.sentence)
            || refs::negates(&refs::unquoted(&lower))
            || !clause_states_as_done(&r.sentence)
        {
            continue;
        }
        for path in paths {
            add_new(
                r,
                Kind::Holds {
                    path,
                    value: version.clone(),
                },
            );
        }
    }
}

/// Whether a word is a version: `1.1.0`, `v2.0`, digits joined by dots, two parts or more.
fn is_version(w: &str) -> bool {
    let core = w.strip_prefix('v').unwrap_or(w);
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Marks a file a sentence says now holds a value ("`config/app.yaml` now has `log:
/// debug`", "The port in `config/app.yaml` is now 9090", "`app.yaml` hat jetzt `log:
/// warn`"): one path, a word for "now", and after it a value (a code span that is no
/// path, or a number) claim that the file changed, in any language. A state without a
/// value ("`a.rs` now compiles", "`.env` is now ignored") may come from a change
/// elsewhere, and is left alone.
pub fn mark_now_states(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let paths = path_spans(&r.sentence);
        let [path] = paths.as_slice() else {
            continue;
        };
        // "the port in the note follows `config/app.yaml` now": what the note follows.
        if is_aside(&r.sentence, path) {
            continue;
        }
        let Some(after_now) = after_now(&r.sentence) else {
            continue;
        };
        // The path stands before the value: it is what holds it ("`a.yaml` now has
        // `x`", "Now `a.yaml` has `x`").
        let quoted_path = format!("`{path}`");
        let path_at = r.sentence.find(&quoted_path);
        let now_at = r.sentence.len() - after_now.len();
        let path_first = after_now.trim_start().starts_with(&quoted_path);
        // The path may also come after the value ("lokitaso on nyt `debug` tiedostossa
        // `config/app.yaml`"): the sentence's one path holds it.
        if path_at.is_none() {
            continue;
        }
        let english = r.sentence[..now_at].to_lowercase().ends_with("now");
        let before_now = r.sentence[..now_at].trim_end();
        let before_now =
            &before_now[..before_now.len() - before_now.rsplit(' ').next().map_or(0, str::len)];
        let after_now = if path_first {
            &after_now.trim_start()[quoted_path.len()..]
        } else {
            after_now
        };
        // Where the value stands: after "now", or, in a language that marks the state
        // after it ("`config/app.yaml` ใช้พอร์ต 7070 แล้ว"), between the path and the mark.
        let path_end = path_at.map_or(0, |at| at + quoted_path.len());
        let marked_after = THAI_DONE.iter().any(|d| r.sentence[..now_at].ends_with(d));
        let value_at = if marked_after && path_end <= now_at {
            &r.sentence[path_end..now_at]
        } else {
            after_now
        };
        // The value stands in the clause of "now": "… 改為 0.2.0；用 `tomllib` 讀回來" read it
        // back with a module, which the file does not hold.
        let value_at = value_at.split([';', '；', '。']).next().unwrap_or(value_at);
        // Before a mark that ends the sentence ("จาก `info` เป็น `debug` แล้ว") the value is
        // the last span, nearest the mark; after "now", the first.
        // "`config/app.yaml` на `main` има `timeout: 30`": the branch says where, not what.
        let mut spans = vocab::spans_of(value_at).filter(|s| !names_a_branch(s.trim()));
        let value_span = if marked_after {
            spans.last()
        } else {
            spans.next()
        };
        let value_span = value_span
            .map(str::trim)
            .filter(|v| !v.is_empty() && vocab::path_of(v, true).is_none())
            .map(str::to_owned);
        let value_number = value_at
            .split_whitespace()
            .take(3)
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            // Seven digits and more is a short hash as often as a value ("der Tag zeigt
            // jetzt auf 5607837").
            .find(|w| w.parse::<u64>().is_ok() && w.len() < 7)
            .map(str::to_owned);
        if (value_span.is_none() && value_number.is_none())
            || says_again(&r.sentence)
            || !clause_states_as_done(&r.sentence)
        {
            continue;
        }
        // In English the verb tells a value held ("has", "is") from what the file does
        // ("exports"); a data file's state is its text, so what it does with a value
        // ("listens on port `9000`") is still a value it holds.
        let holding = !english || holds_a_value(before_now, after_now);
        let data = is_data_file(path);
        let sentence = r.sentence.clone();
        if holding {
            add_change(r, path, &sentence);
        }
        // In a data file, the value itself, to be found in the file as the turn left it: a
        // code span, or a number of two digits or more (a port, a timeout; "3 scripts"
        // counts entries, it is no value). A program's "now exports `Claim`" may hold its
        // value through another file.
        let value = value_span.or(value_number.filter(|n| n.len() >= 2));
        if let Some(value) = value.filter(|_| data && !says_taken_out(&sentence)) {
            let claim = Claim::read(
                Kind::Holds {
                    path: path.to_owned(),
                    value,
                },
                &sentence,
            );
            add(r, claim);
        }
    }
}

/// Words that replace, rename or put a name instead of another: a sentence with one says
/// what went away as much as what came.
const AWAY: &[&str] = &[
    "replac",
    "renam",
    "instead",
    "rather",
    "ersetz",
    "umbenann",
    "remplac",
    "renomm",
    "reemplaz",
    "renombr",
    "sostitu",
    "rinomin",
    "substitu",
    "vervang",
    "hernoem",
    "zastąp",
    "zamieni",
    "заменил",
    "замін",
    "переимен",
    "перейм",
    "替换",
    "替換",
    "重命名",
    "置き換",
    "置換",
    "改名",
    "名前を変更",
    "대체",
    "바꿨",
    "이름을",
    "değiştir",
    "yerine",
    "nahrad",
    "přejmen",
    "helyett",
    "átnevez",
    "thay",
    "đổi tên",
    "ganti",
    "מחליף",
    "החלפ",
    "استبدل",
    "بدلا",
    "جایگزین",
    "बदल",
    "প্রতিস্থাপন",
    "แทน",
];

/// Marks a value a data file holds by its shape, with no word for "now" (which
/// [`mark_now_states`] reads): a code span written as a setting (`port: 8080`, `log=debug`)
/// that is the sentence's one value beside its one data file ("descarté los cambios de
/// `config/app.yaml`, que vuelve a tener `port: 8080`"), or a table row giving the file an
/// old value and a new one ("| `package-lock.json` | 1.0.0 | 1.1.0 |"). The file as the
/// turn left it must hold the setting, or the new value. A sentence that takes the value
/// out, replaces it, or gives another number beside it ("`port: 8080` → 9090") claims
/// nothing of it.
pub fn mark_held_values(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let paths = path_spans(&r.sentence);
        let [path] = paths.as_slice() else {
            continue;
        };
        if !is_data_file(path) || !states_as_done_or_state(r) {
            continue;
        }
        // A setting is the file's when the sentence claims the file's change, or tells its
        // state as back to it ("que vuelve a tener `port: 8080`"); "Set `log: debug` in
        // your `config/app.yaml`" is the user's to do.
        let changed = r.claims.iter().any(|c| {
            matches!(&c.kind, Kind::File { path: p, .. } if p == path)
                && c.confidence == vocab::Confidence::Strong
        });
        let setting = (changed
            || says_again(&r.sentence) && clause_states_as_done(&r.sentence)
            || labelled_by_its_setting(&r.sentence, path))
        .then(|| setting_span(&r.sentence))
        .flatten();
        let Some(value) = table_row_new_value(&r.sentence, path).or(setting) else {
            continue;
        };
        let lower = r.sentence.to_lowercase();
        if says_taken_out(&r.sentence) || AWAY.iter().any(|w| lower.contains(w)) {
            continue;
        }
        let kind = Kind::Holds {
            path: path.clone(),
            value,
        };
        if !r
            .claims
            .iter()
            .any(|c| matches!(&c.kind, Kind::Holds { path: p, .. } if p == path))
        {
            let claim = Claim::read(kind, &r.sentence);
            add(r, claim);
        }
    }
}

/// Verbs that set a value, in the tables' languages ("set `port` to `9000`", "ตั้ง
/// `engines.node` เป็น `>=20`", "`timeout` auf `30` gesetzt").
const SET_VERBS: &[&str] = &[
    "set ",
    "configured",
    "changed",
    "updated",
    "bumped",
    "gesetzt",
    "setze",
    "eingestellt",
    "geändert",
    "défini",
    "mis ",
    "réglé",
    "configuré",
    "passé",
    "establecí",
    "puse",
    "configuré",
    "cambié",
    "fijé",
    "defini",
    "coloquei",
    "configurei",
    "alterei",
    "mudei",
    "impostat",
    "messo",
    "configurat",
    "cambiat",
    "ingesteld",
    "gezet",
    "aangepast",
    "ustawi",
    "zmieni",
    "nastavi",
    "установил",
    "выставил",
    "поставил",
    "задал",
    "изменил",
    "встановив",
    "виставив",
    "змінив",
    "ayarla",
    "değiştir",
    "ตั้ง",
    "đặt",
    "thiết lập",
    "đổi",
    "mengatur",
    "atur",
    "ubah",
    "menetapkan",
    "設定",
    "に変更",
    "设置",
    "设为",
    "设成",
    "改为",
    "설정",
    "변경",
    "הגדרתי",
    "קבעתי",
    "שיניתי",
    "ضبطت",
    "عينت",
    "عيّنت",
    "غيرت",
    "تنظیم",
    "सेट",
    "satte",
    "ställde in",
    "ändrade",
    "sat ",
    "endret",
    "ændrede",
    "asetin",
    "muutin",
    "beállít",
    "όρισα",
    "έθεσα",
    "setat",
    "зададох",
    "настроих",
    "postavio",
    "nastavil",
];

/// Words for "to" between a key and the value it was set to, in the tables' languages.
const TO_WORDS: &[&str] = &[
    "to",
    "auf",
    "zu",
    "à",
    "a",
    "en",
    "para",
    "na",
    "на",
    "в",
    "до",
    "ke",
    "menjadi",
    "jadi",
    "เป็น",
    "thành",
    "là",
    "に",
    "を",
    "로",
    "으로",
    "olarak",
    "til",
    "till",
    "op",
    "naar",
    "σε",
    "ל",
    "إلى",
    "الى",
    "به",
    "को",
    "kwa",
    "sa",
    "la",
    "în",
    "into",
    "as",
    "为",
    "成",
];

/// Marks a value a sentence says it set in a data file, the key and the value in spans of
/// their own ("Set `port` to `9000` in `config/app.yaml`", "ตั้ง `engines.node` เป็น `>=20`
/// ใน package.json แล้ว"): the file holds both. Only the one data file the sentence names
/// (in a span or bare), exactly two other spans, a key's shape first and a value without a
/// space after it; nothing where the sentence denies, plans or asks.
pub fn mark_set_values(readings: &mut [Reading]) {
    static SET: OnceLock<forms::Phrases> = OnceLock::new();
    let set = SET.get_or_init(|| forms::Phrases::new(SET_VERBS));
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let lower = fold(&r.sentence.to_lowercase());
        if !r.sentence.contains('`')
            || set.find_in(&lower).is_none()
            || !states_as_done_or_state(r)
            || r.sentence.trim_end().ends_with(['?', '？'])
        {
            continue;
        }
        let spans: Vec<&str> = vocab::spans_of(&r.sentence).map(str::trim).collect();
        let mut files: Vec<String> = spans
            .iter()
            .filter_map(|s| vocab::path_of(s, true))
            .chain(
                vocab::outside_spans(&r.sentence, " ")
                    .split_whitespace()
                    .map(|w| {
                        w.trim_matches(|c: char| {
                            !c.is_alphanumeric() && c != '.' && c != '/' && c != '_' && c != '-'
                        })
                    })
                    .filter(|w| w.contains('.'))
                    .filter_map(|w| vocab::path_of(w, false)),
            )
            .filter(|p| is_data_file(p))
            .collect();
        files.sort();
        files.dedup();
        // A dotted key (`engines.node`) has a file's shape too: only the data file is the
        // file here.
        let others: Vec<&str> = spans
            .iter()
            .copied()
            .filter(|s| vocab::path_of(s, true).is_none_or(|p| !files.contains(&p)))
            .collect();
        let ([file], [key, value]) = (files.as_slice(), others.as_slice()) else {
            continue;
        };
        // The value follows the key by a word for "to" ("`port` to `9000`", "auf `30`",
        // "เป็น `>=20`"): "`port` und `region` … gesetzt" names two keys.
        let between = r
            .sentence
            .split_once(&format!("`{key}`"))
            .and_then(|(_, rest)| rest.split_once(&format!("`{value}`")))
            .map(|(between, _)| vocab::outside_spans(between, " ").to_lowercase());
        if !between.is_some_and(|b| {
            b.split_whitespace().count() <= 4
                && (b.trim().is_empty()
                    || ["=", ":", "→", "->"].contains(&b.trim())
                    // Split on spaces: Thai's vowel marks are no letters to `char`.
                    || b.split_whitespace()
                        .map(|w| w.trim_matches(|c: char| c.is_ascii_punctuation()))
                        .any(|w| TO_WORDS.contains(&w)))
        }) {
            continue;
        }
        let key = key.trim_end_matches(':');
        if !is_key(key)
            || !key.chars().any(|c| c.is_ascii_alphabetic())
            || value.is_empty()
            || value.contains(char::is_whitespace)
            || value.chars().count() > 40
            || *value == key
        {
            continue;
        }
        if refs::negates(&refs::unquoted(&lower)) {
            continue;
        }
        let kind = Kind::Holds {
            path: file.clone(),
            value: format!("{key}: {value}"),
        };
        add_new(r, kind);
    }
}

/// Marks what a line labelled by a file says the file holds ("`Dockerfile` (from the
/// subagent, `python:3.12-alpine`): `EXPOSE 9090`, and …", "`config/app.yaml`: `port:
/// 8080` → `port: 9090`"): the line leads with the file's span, a bracketed aside may
/// follow, then a colon and a span written like a line of the file (a space, `=` or `: `
/// in it; no command, path or bare name), or, after an arrow, the span it points to. The
/// file as the turn left it holds its words. Nothing where the line takes the text out,
/// replaces it, denies or plans.
pub fn mark_labelled_lines(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let Some((path, value)) = labelled_line(&r.sentence) else {
            continue;
        };
        if r.claims
            .iter()
            .any(|c| matches!(&c.kind, Kind::Holds { path: p, .. } if *p == path))
            || !states_as_done_or_state(r)
        {
            continue;
        }
        let lower = r.sentence.to_lowercase();
        if says_taken_out(&r.sentence)
            || AWAY.iter().any(|w| lower.contains(w))
            || refs::negates(&refs::unquoted(&fold(&lower)))
        {
            continue;
        }
        let claim = Claim::read(Kind::Holds { path, value }, &r.sentence);
        add(r, claim);
    }
}

/// The file a line leads with and the line of it the label gives ([`mark_labelled_lines`]).
fn labelled_line(sentence: &str) -> Option<(String, String)> {
    let line = sentence
        .trim_start_matches(|c: char| c.is_whitespace() || "-*•·+".contains(c))
        .trim_start_matches('*');
    let rest = line.strip_prefix('`')?;
    let (file, rest) = rest.split_once('`')?;
    let path = vocab::path_of(file.trim(), true)?;
    if path.ends_with('/') || path.contains(['*', '?']) || is_extension(&path) {
        return None;
    }
    let mut rest = rest.trim_start_matches('*').trim_start();
    // An aside on the file: "(from the subagent, `python:3.12-alpine`)".
    if let Some(inner) = rest.strip_prefix(['(', '（']) {
        let close = inner.find([')', '）'])?;
        rest = inner[close..].trim_start_matches([')', '）']);
    }
    let rest = rest
        .trim_start_matches('*')
        .trim_start()
        .strip_prefix([':', '：'])?
        .trim_start();
    let (literal, after) = rest.strip_prefix('`')?.split_once('`')?;
    let after = after.trim_start();
    let value = match ["→", "->", "=>"].iter().find_map(|a| after.strip_prefix(a)) {
        // "`node scripts/a.mjs` → `## stats 1.0.0`": what a command printed, not a line.
        // "`discountBadge(2000, 25)` → `<s>20.00</s> -25%`": what a call gives, not a line.
        Some(_)
            if looks_like_command(literal)
                || vocab::check_command_span(literal)
                || is_call(literal.trim()) =>
        {
            return None
        }
        Some(target) => target.trim_start().strip_prefix('`')?.split_once('`')?.0,
        None => literal,
    };
    let value = value.trim();
    let line_like = value.contains(' ') || value.contains('=') || value.contains(": ");
    (line_like
        && value.chars().count() <= 80
        && !looks_like_command(value)
        && !vocab::check_command_span(value)
        && vocab::path_of(value, true).is_none())
    .then(|| (path, value.to_owned()))
}

/// Whether a line labels a data file with a setting: the file's span, a colon, and right
/// after it the setting's span ("- `config/app.yaml`: `port: 9000` también"): what the
/// file holds, as a report lists it.
fn labelled_by_its_setting(sentence: &str, path: &str) -> bool {
    let line = sentence.trim_start_matches(|c: char| c.is_whitespace() || "-*•·".contains(c));
    line.strip_prefix('`')
        .and_then(|rest| rest.strip_prefix(path))
        .and_then(|rest| rest.strip_prefix('`'))
        .and_then(|rest| rest.trim_start().strip_prefix([':', '：']))
        .is_some_and(|rest| rest.trim_start().starts_with('`'))
        && !refs::negates(&vocab::outside_spans(sentence, " ").to_lowercase())
}

/// Whether no reason a reader gave takes the sentence back (a plan, a denial, a
/// condition): a state ("que vuelve a tener …") as much as a change told as done.
fn states_as_done_or_state(r: &Reading) -> bool {
    !refs::plans_or_doubts(r) && !r.why.iter().any(|w| w.contains("negated"))
}

/// The sentence's one code span that is a setting (`port: 8080`, `log=debug`, `"version":
/// "1.1.0"`), when it has no other span than paths and no number outside its spans.
pub(super) fn setting_span(sentence: &str) -> Option<String> {
    // A table's header (`[project]`, `[tool.pytest.ini_options]`) says where the setting
    // went, no value of its own.
    let header = |s: &str| {
        s.strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .is_some_and(|inner| is_key(inner.trim_matches('[').trim_matches(']')))
    };
    let others: Vec<&str> = vocab::spans_of(sentence)
        .map(str::trim)
        .filter(|s| vocab::path_of(s, true).is_none() && !header(s))
        .collect();
    let [span] = others.as_slice() else {
        return None;
    };
    setting_of(span)?;
    // "`port: 8080` → 9090": another value beside it is the new one, or the old.
    (!number_outside_spans(sentence)).then(|| (*span).to_owned())
}

/// A table row's new value for a data file: the row's cells (`   ` between them, as the
/// tables' readers join them, or one space where the row is three cells) are the file and
/// two versions or numbers that differ, old then new.
fn table_row_new_value(sentence: &str, path: &str) -> Option<String> {
    let mut cells: Vec<&str> = sentence
        .split("   ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    // A reader that joins a row's cells with one space: the row is the file and two
    // values, nothing else.
    if cells.len() < 3 {
        cells = sentence.trim_end_matches('.').split_whitespace().collect();
        if cells.len() != 3 {
            return None;
        }
    }
    let [first, .., old, new] = cells.as_slice() else {
        return None;
    };
    if cells.len() < 3 || first.trim_matches('`') != path {
        return None;
    }
    let versionish = |v: &str| {
        let v = v.trim_matches('`').trim_start_matches('v');
        v.contains(|c: char| c.is_ascii_digit())
            && v.chars().all(|c| c.is_ascii_digit() || c == '.')
            && !v.starts_with('.')
            && !v.ends_with('.')
    };
    (versionish(old) && versionish(new) && old != new).then(|| new.trim_matches('`').to_owned())
}

/// Words that say a file holds what follows ("`config/app.json` vytvořen a obsahuje
/// `port` i `log`"), in the tables' languages.
pub(super) const CONTAINS: &[&str] = &[
    "contains",
    "contain",
    "includes",
    "enthält",
    "enthalten",
    "contient",
    "contiene",
    "contienen",
    "contém",
    "bevat",
    "innehåller",
    "indeholder",
    "inneholder",
    "sisältää",
    "tartalmaz",
    "zawiera",
    "obsahuje",
    "vsebuje",
    "sadrži",
    "conține",
    "içerir",
    "içeriyor",
    "содержит",
    "містить",
    "съдържа",
    "περιέχει",
    "chứa",
    "berisi",
    "mengandung",
    "naglalaman",
    "מכיל",
    "يحتوي",
    "شامل",
    "包含",
    "含む",
    "含ま",
    "포함",
];

/// Words that say a settings file requires what follows ("`jest.config.js` exige además un
/// 90 % de cobertura (`coverageThreshold`)"): a setting it holds, named by its key.
const REQUIRES: &[&str] = &[
    "requires",
    "enforces",
    "exige",
    "exigem",
    "impose",
    "impone",
    "verlangt",
    "erfordert",
    "erzwingt",
    "richiede",
    "vereist",
    "kräver",
    "kræver",
    "krever",
    "edellyttää",
    "megköveteli",
    "wymaga",
    "vyžaduje",
    "zahteva",
    "zahtijeva",
    "impune",
    "necesită",
    "gerektirir",
    "требует",
    "вимагає",
    "изисква",
    "απαιτεί",
    "yêu cầu",
    "memerlukan",
    "mewajibkan",
    "דורש",
    "يتطلب",
    "يفرض",
    "الزامی",
    "要求",
    "强制",
    "必須",
    "요구",
    "आवश्यक",
];

/// Whether a file is settings a report may say holds a key: a data file, or a tool's
/// configuration written as code or a dotfile (`jest.config.js`, `vite.config.ts`,
/// `.eslintrc.cjs`, `.prettierrc`).
fn is_settings_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_lowercase();
    let stem = name.rsplit_once('.').map_or(name.as_str(), |(s, _)| s);
    is_data_file(path)
        || stem.ends_with(".config")
        || (name.starts_with('.') && (stem.ends_with("rc") || name.ends_with("rc")))
}

/// Marks the keys a sentence says a settings file contains ("`config/app.json` created, and
/// it contains `port` (8080) and `log` (`info`)", "`jest.config.js` requires 90% line
/// coverage (`coverageThreshold`)"): each code span after the word for "contains" or
/// "requires" that is a key's shape, up to a negation ("… `port`, but not `log`"). The
/// file as the turn left it must hold each. One settings file only, told as done.
pub fn mark_contained_keys(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let paths = path_spans(&r.sentence);
        let [path] = paths.as_slice() else {
            continue;
        };
        if !is_settings_file(path) || !states_as_done(r) || says_taken_out(&r.sentence) {
            continue;
        }
        let lower = r.sentence.to_lowercase();
        let Some(at) = CONTAINS
            .iter()
            .chain(REQUIRES)
            .filter_map(|w| {
                lower.match_indices(w).find_map(|(i, _)| {
                    let outside = lower[..i].matches('`').count().is_multiple_of(2);
                    // A word of its own ("neobsahuje" is "does not contain").
                    let starts = lower[..i]
                        .chars()
                        .next_back()
                        .is_none_or(|c| !c.is_alphanumeric());
                    (outside
                        && starts
                        && lower[..i].contains(&format!("`{}`", path.to_lowercase())))
                    .then_some(i)
                })
            })
            .min()
        else {
            continue;
        };
        // "does not contain", "nie zawiera": the words from the file to the verb.
        let from_file = lower[..at]
            .rfind('`')
            .map_or(&lower[..at], |i| &lower[i + 1..at]);
        if refs::negates(from_file) {
            continue;
        }
        let tail = &r.sentence[at..];
        // Up to the first negation: what follows it the file lacks.
        let mut keys = Vec::new();
        for (i, part) in tail.split('`').enumerate() {
            if i % 2 == 0 {
                if i > 0 && refs::negates(&part.to_lowercase()) {
                    break;
                }
                continue;
            }
            let key = part.trim();
            let keyish = (2..=40).contains(&key.len())
                && key
                    .chars()
                    .all(|c| c.is_alphanumeric() || "_-.".contains(c))
                && key.starts_with(|c: char| c.is_alphabetic());
            if keyish && vocab::path_of(key, true).is_none() {
                keys.push(key.to_owned());
            }
        }
        for key in keys {
            let kind = Kind::Holds {
                path: path.clone(),
                value: key,
            };
            add_new(r, kind);
        }
    }
}

/// Marks the functions a sentence says a program file has, by their signature ("`app/text.py`:
/// nueva función `truncate(text, width)`", "`src/lib.rs` gained `parse_port(s: &str)`"):
/// the file as the turn left it must hold the name, in any language. One file and one
/// signature only, told as done; a sentence that takes the name out, replaces or renames it
/// claims nothing of it.
pub fn mark_defined_names(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let signatures: Vec<String> = vocab::spans_of(&r.sentence)
            .filter_map(signature_name)
            .collect();
        let [name] = signatures.as_slice() else {
            continue;
        };
        // With several files, the one in the signature's own comma part ("`median()` …
        // добавлена в `src/stats.js`, тест в `test/stats.test.js`").
        let paths = path_spans(&r.sentence);
        let paths = if paths.len() > 1 {
            r.sentence
                .split([',', ';', '，', '；'])
                .find(|part| {
                    vocab::spans_of(part).any(|s| signature_name(s).as_ref() == Some(name))
                })
                .map(path_spans)
                .unwrap_or_default()
        } else {
            paths
        };
        let [path] = paths.as_slice() else {
            continue;
        };
        if is_data_file(path) || vocab::shape_inferred(path) {
            continue;
        }
        let lower = r.sentence.to_lowercase();
        // A deletion form of any table ("đã bỏ `.lower()`", "hat `x()` entfernt"), another's
        // hand or an earlier state takes the name out of what the file now holds.
        // "❌ `make lint` (first run): `app/text.py:10` has a debug `print(…)`": a failure
        // told is what a check found then, not what the file holds now.
        let failure = r.sentence.contains(['❌', '✗', '✘'])
            || forms::any_in(&fold(&refs::unquoted(&lower)), Sets::FAILED);
        if says_taken_out(&r.sentence)
            || failure
            || forms::any_in(&fold(&refs::unquoted(&lower)), Sets::GONE)
            || AWAY.iter().any(|w| lower.contains(w))
            || !states_as_done(r)
        {
            continue;
        }
        let kind = Kind::Holds {
            path: path.clone(),
            value: name.clone(),
        };
        add_new(r, kind);
    }
}

/// The name a code span defines or calls when it is a signature (`truncate(text, width)`,
/// `Config::load()`, `slug.make(x)`): its last segment before the brackets.
fn signature_name(span: &str) -> Option<String> {
    let span = span.trim();
    let (head, _) = span.split_once('(')?;
    // `export_name("Q3 Report")`: a call with its values says what the code does, no
    // signature a file gained.
    if !span.ends_with(')') || head.is_empty() || is_call_with_values(span) {
        return None;
    }
    let name = head.rsplit(['.', ':']).next()?;
    let ident = |w: &str| {
        w.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    (name.len() >= 3 && ident(name) && head.split(['.', ':']).filter(|s| !s.is_empty()).all(ident))
        .then(|| name.to_owned())
}

/// Files whose state is the text of their values: configuration and data.
pub(crate) fn is_data_file(path: &str) -> bool {
    const DATA: &[&str] = &[
        "yaml",
        "yml",
        "json",
        "toml",
        "ini",
        "cfg",
        "conf",
        "env",
        "properties",
        "xml",
    ];
    let name = path.rsplit('/').next().unwrap_or(path);
    // Git's own settings are INI: `.git/config`, `~/.gitconfig`.
    name.starts_with(".env")
        || name == ".gitconfig"
        || path.ends_with(".git/config")
        || name
            .rsplit_once('.')
            .is_some_and(|(_, ext)| DATA.contains(&ext.to_lowercase().as_str()))
}

/// Whether a sentence about a value says it was taken out ("now drops `debug`", "no longer
/// lists `x`"): the value is what the file lacks.
pub(super) fn says_taken_out(sentence: &str) -> bool {
    const OUT: &[&str] = &[
        "drop",
        "omit",
        "exclud",
        "remov",
        "delet",
        "strip",
        "ignor",
        "skip",
        "without",
        "no longer",
        "instead of",
        "hide",
        "hides",
        "lacks",
    ];
    let lower = refs::unquoted(sentence).to_lowercase();
    OUT.iter().any(|w| {
        lower
            .match_indices(w)
            .any(|(i, _)| !lower[..i].ends_with(|c: char| c.is_alphanumeric()))
    })
}

/// Claims that `path` changed, read from `sentence`, where no reader's claim of that path
/// stands already in `r`: the item's bare presence check of the path gives way to the
/// change it shows. Whether it claimed it.
fn add_change(r: &mut Reading, path: &str, sentence: &str) -> bool {
    let same = |c: &Claim| matches!(&c.kind, Kind::File { path: p, .. } if p == path);
    if r.claims
        .iter()
        .any(|c| same(c) && c.listed != Listed::Alone)
    {
        return false;
    }
    r.claims.retain(|c| !same(c));
    let claim = Claim::read(
        Kind::File {
            path: path.to_owned(),
            change: Change::Modified,
        },
        sentence,
    );
    add(r, claim);
    true
}

/// Whether the verb of an English sentence says the file holds the value ("has",
/// "contains", "is", "sets", "reads"), not what it does with it ("`src/lib.rs` now
/// exports `Claim`" may come from a change elsewhere, a `pub use` of a module that
/// changed). After another language's word for "now" the value is read as held.
/// `before_now` ends before "now", `after_now` starts after it (and after the path, when
/// the path follows "now").
fn holds_a_value(before_now: &str, after_now: &str) -> bool {
    const HOLDS: &[&str] = &[
        "has", "have", "contains", "contain", "is", "are", "reads", "says", "sets", "holds",
        "lists", "shows", "defaults", "points", "uses", "pins", "requires",
    ];
    // The verb stands right after "now" ("now has"), or before it ("is now").
    let next = after_now.split_whitespace().next().unwrap_or("");
    let prev = before_now.split_whitespace().next_back().unwrap_or("");
    let bare = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    HOLDS.contains(&bare(next).as_str()) || HOLDS.contains(&bare(prev).as_str())
}

/// The text after the first word for "now" in a sentence's own words (not in a code
/// span), within its first clause that holds one.
/// Whether a text says "now" in any table's words ("now", "jetzt", "अब", "现在"), as a word.
pub(super) fn says_now(text: &str) -> bool {
    after_now(text).is_some_and(|_| {
        let lower = text.to_lowercase();
        NOW.iter().any(|now| {
            lower.match_indices(now).any(|(j, _)| {
                let before = lower[..j].chars().next_back();
                let after = lower[j + now.len()..].chars().next();
                !now.is_ascii() && now.chars().next().is_some_and(|c| c as u32 >= 0x3000)
                    || before.is_none_or(|c| !c.is_alphanumeric())
                        && after.is_none_or(|c| !c.is_alphanumeric())
            })
        })
    })
}

pub(super) fn after_now(sentence: &str) -> Option<&str> {
    let mut at = 0;
    for (i, part) in sentence.split('`').enumerate() {
        if i % 2 == 0 {
            let lower = part.to_lowercase();
            for now in NOW.iter().chain(SET_TO) {
                // Scripts without spaces between words have no word edges to look for.
                let unspaced = matches!(
                    *now,
                    "现在"
                        | "現在"
                        | "今は"
                        | "ตอนนี้"
                        | "แล้ว"
                        | "设置为"
                        | "设为"
                        | "改为"
                        | "設定為"
                        | "設為"
                        | "改為"
                );
                let found = if !unspaced {
                    forms::has_word_at(&lower, now)
                } else {
                    forms::find(&lower, now)
                };
                // Lower-casing keeps these scripts' byte lengths.
                if let Some(j) = found.filter(|_| lower.len() == part.len()) {
                    return Some(&sentence[at + j + now.len()..]);
                }
            }
        }
        at += part.len() + 1;
    }
    None
}

/// Whether a text tells a state, not a step: a word for "now" ("حالا", "jetzt") or for
/// "still", "again" ("yhä", "wieder").
pub(super) fn tells_a_state(text: &str) -> bool {
    after_now(text).is_some() || says_again(text)
}

/// Whether a sentence takes a version from one value to another in words ("from 0.1.0 to
/// 0.2.0", "dinaikkan dari 0.1.0 ke 0.2.0", "von 1.4 auf 1.5"): two different versions
/// with a word or two between them, in any language.
fn version_change(sentence: &str) -> bool {
    let is_version = |w: &str| {
        let w = w.trim_matches(|c: char| "`'\"*_(),.;:«»“”„。，、；：（）".contains(c));
        let w = w.strip_prefix('v').unwrap_or(w);
        w.contains('.')
            && w.split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    // "3.11 and 3.12", "1.0 или 1.1": a list of versions, not a change.
    const LISTS: &[&str] = &[
        "and",
        "or",
        "und",
        "oder",
        "et",
        "ou",
        "y",
        "o",
        "e",
        "i",
        "og",
        "och",
        "en",
        "и",
        "или",
        "і",
        "або",
        "ve",
        "veya",
        "và",
        "hoặc",
        "dan",
        "atau",
        "και",
        "ή",
        "oraz",
        "lub",
        "albo",
        "nebo",
        "és",
        "vagy",
        "și",
        "sau",
        "ja",
        "tai",
        "와",
        "과",
        "和",
        "或",
        "と",
        "及",
        "و",
        "או",
        "และ",
        "หรือ",
        "और",
        "या",
        "/",
        "-",
        "–",
        "—",
        "vs",
        "vs.",
    ];
    let words: Vec<&str> = sentence.split_whitespace().collect();
    words.iter().enumerate().any(|(i, a)| {
        is_version(a)
            && !a.ends_with(',')
            && !words[i + 1..]
                .iter()
                .take(1)
                .any(|w| LISTS.contains(&w.to_lowercase().as_str()))
            && words.iter().skip(i + 2).take(2).any(|b| {
                is_version(b)
                    && b.trim_matches(|c: char| !c.is_alphanumeric())
                        != a.trim_matches(|c: char| !c.is_alphanumeric())
            })
    })
}

/// Words that, right before a count, make it every test's ("all five", "les trois
/// tests", "alle 4", "全部 4 个").
pub(super) const WHOLE: &[&str] = &[
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
    "전부",
    "모두",
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

/// Words that, a few words before a word for tests, make them every test ("the whole
/// suite", "all tests", "alle Tests", "toute la suite", "所有测试", "모든 테스트").
const WHOLE_SUITE: &[&str] = &[
    "whole",
    "entire",
    "full",
    "complete",
    "every",
    "all",
    "alle",
    "gesamte",
    "ganze",
    "komplette",
    "vollständige",
    "toute",
    "tous",
    "entière",
    "complète",
    "todos",
    "todas",
    "entera",
    "completa",
    "completo",
    "tutti",
    "tutta",
    "intera",
    "inteira",
    "hele",
    "hela",
    "heel",
    "volledige",
    "wszystkie",
    "cały",
    "całą",
    "całe",
    "všechny",
    "celou",
    "celá",
    "všetky",
    "celú",
    "все",
    "весь",
    "всю",
    "всі",
    "усі",
    "весь",
    "увесь",
    "уся",
    "цілий",
    "цілком",
    "tüm",
    "bütün",
    "kaikki",
    "koko",
    "minden",
    "teljes",
    "toate",
    "întreaga",
    "όλα",
    "όλες",
    "όλοι",
    "ολόκληρη",
    "כל",
    "همه",
    "تمام",
    "جميع",
    "كل",
    "सभी",
    "पूरा",
    "पूरी",
    "সব",
    "পুরো",
    "ทั้งหมด",
    "tất",
    "toàn",
    "semua",
    "seluruh",
    "所有",
    "全部",
    "整个",
    "整個",
    "全体",
    "すべて",
    "全て",
    "모든",
    "전체",
    "tamamı",
    "tamamen",
    "hepsi",
    "kokonaan",
];

/// Words that make a run of all tests a selection ("all selected tests", "todos los
/// tests filtrados").
const SELECTED: &[&str] = &[
    "selected",
    "matching",
    "matched",
    "filtered",
    "targeted",
    "relevant",
    "related",
    "ausgewählt",
    "gefiltert",
    "sélectionn",
    "filtr",
    "seleccionad",
    "selezionat",
    "selecionad",
    "geselecteerd",
    "выбран",
    "відібран",
    "vybran",
    "wybran",
    "seçil",
    "valitut",
    "kiválasztott",
    "selectat",
    "選択",
    "选中",
    "筛选",
    "선택",
];

/// Marks the test claims whose sentence says the whole suite passed ([`Claim::whole_suite`]):
/// a word for all or whole a few words before a word for tests, or "everything", where
/// no word of the sentence says the tests were a selection.
pub fn mark_whole_suites(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r
            .claims
            .iter()
            .any(|c| matches!(c.kind, Kind::Tests { .. }))
        {
            continue;
        }
        let lower = fold(&unquoted(&r.sentence).to_lowercase());
        if SELECTED.iter().any(|s| lower.contains(s)) {
            continue;
        }
        let words: Vec<&str> = lower
            .split(|c: char| c.is_whitespace() || ",.;:()!".contains(c))
            .filter(|w| !w.is_empty())
            .collect();
        let suite_word = |w: &str| {
            super::super::named::SUITE_WORDS
                .iter()
                .any(|s| w.contains(s))
        };
        let whole = words.iter().enumerate().any(|(i, w)| {
            (WHOLE_SUITE.contains(w)
                || WHOLE_SUITE
                    .iter()
                    .any(|x| !x.is_ascii() && x.chars().count() >= 2 && w.starts_with(x)))
                && words[i.saturating_sub(3)..]
                    .iter()
                    .take(7)
                    .any(|x| suite_word(x))
        }) || words.iter().any(|w| {
            matches!(
                *w,
                "everything"
                    | "alles"
                    | "tout"
                    | "todo"
                    | "tutto"
                    | "всё"
                    | "все"
                    | "wszystko"
                    | "všechno"
                    | "allt"
                    | "alt"
                    | "전부"
                    | "모두"
                    | "全部"
            )
        });
        if whole {
            for c in &mut r.claims {
                if matches!(c.kind, Kind::Tests { .. }) {
                    c.whole_suite = true;
                }
            }
        }
    }
}

/// Whether a sentence reports what is: no question, denial, plan or instruction.
pub(super) fn reports(sentence: &str) -> bool {
    let lower = fold(&sentence.to_lowercase());
    !(sentence.trim_end().ends_with(['?', '？'])
        || forms::any_in(&lower, Sets::NOT_THERE | Sets::NOT_A_REPORT))
}

/// The project paths a sentence names in code spans (one word each, no patterns).
pub(super) fn path_spans(sentence: &str) -> Vec<String> {
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
pub(super) fn lead_path(sentence: &str) -> Option<(String, &str)> {
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

/// Whether an item's description says the file is not there, or not yet. A long
/// description tells what the file does ("checks that the function is not called
/// twice"): a negation in it is about that, unless it opens the description; a
/// deletion, a plan or another's hand still counts anywhere.
pub(super) fn denies_it_is_there(description: &str) -> bool {
    let lower = fold(&description.to_lowercase());
    let words: Vec<&str> = lower.split_whitespace().collect();
    if words.len() <= 6 {
        return forms::any_in(&lower, Sets::NOT_THERE);
    }
    forms::any_in(&words[..3].join(" "), Sets::NOT_THERE) || forms::any_in(&lower, Sets::GONE)
}

/// Drops the deleted- and changed-file claims of a sentence that takes a file out of the
/// index only ("removed `.env` from the index with `git rm --cached`", "Podagent je uklonio
/// `.env` iz indeksa"): git stops tracking it, and the file stays on disk as it was.
pub fn drop_index_removals(readings: &mut [Reading]) {
    for r in readings.iter_mut() {
        if r.claims.is_empty() {
            continue;
        }
        let lower = r.sentence.to_lowercase();
        if !FROM_THE_INDEX.iter().any(|w| lower.contains(w)) {
            continue;
        }
        r.claims.retain(|c| {
            !matches!(
                c.kind,
                Kind::File {
                    change: Change::Modified | Change::Deleted,
                    ..
                }
            )
        });
    }
}

/// Words that take a file out of the index, not off the disk.
const FROM_THE_INDEX: &[&str] = &[
    "--cached",
    "from the index",
    "aus dem index",
    "de l'index",
    "del índice",
    "do índice",
    "dall'indice",
    "uit de index",
    "из индекса",
    "з індексу",
    "z indeksu",
    "z indexu",
    "az indexből",
    "indeksten",
    "index'ten",
    "khỏi index",
    "dari index",
    "从索引",
    "インデックスから",
    "인덱스에서",
    "इंडेक्स से",
    "از ایندکس",
    "من الفهرس",
    "от индекса",
    "iz indeksa",
    "din index",
    "stop tracking",
    "untrack",
];

/// Drops the changed-file claims of a sentence that puts the change in a stash ("Ang
/// laman ng stash: ang pagbabago sa `pyproject.toml` (0.1.0 → 0.2.0)", "ใน stash มีการแก้
/// `pyproject.toml`", "stashed my edit to `app.py`"): the stash holds it, and the file is as
/// it was. Not where the stash came back (`pop`, `apply`).
pub fn drop_changes_held_by_a_stash(readings: &mut [Reading]) {
    for r in readings.iter_mut() {
        if r.claims.is_empty() {
            continue;
        }
        let lower = r.sentence.to_lowercase();
        if !lower.contains("stash") || lower.contains("pop") || lower.contains("apply") {
            continue;
        }
        r.claims.retain(|c| {
            !matches!(
                c.kind,
                Kind::File {
                    change: Change::Modified,
                    ..
                }
            )
        });
    }
}

/// Drops the file claims on dotted names that are a setting's keys: `server.log` beside
/// `server.port` or `worker.threads` ("`docs/config.md` — новий: `server.port`,
/// `server.log`/`worker.log`, `worker.threads`"). A name without a folder whose first part
/// another span of the sentence also starts, with a last part no file has, is a key of
/// that section, not a file.
pub fn drop_dotted_keys(readings: &mut [Reading]) {
    let dotted = |s: &str| -> Option<(String, String)> {
        let (head, last) = s.rsplit_once('.')?;
        let first = head.split('.').next()?;
        let word =
            |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        (!s.contains('/') && word(first) && word(last))
            .then(|| (first.to_owned(), last.to_lowercase()))
    };
    for r in readings.iter_mut() {
        if r.claims.is_empty() || r.sentence.matches('`').count() < 4 {
            continue;
        }
        let spans: Vec<(String, String)> = vocab::spans_of(&r.sentence)
            .filter_map(|s| dotted(s.trim()))
            .collect();
        let key_sections: Vec<&String> = spans
            .iter()
            .filter(|(_, last)| !vocab::FILE_EXTENSIONS.contains(&last.as_str()))
            .map(|(first, _)| first)
            .collect();
        if key_sections.is_empty() {
            continue;
        }
        r.claims.retain(|c| {
            let Kind::File { path, .. } = &c.kind else {
                return true;
            };
            !dotted(path).is_some_and(|(first, _)| key_sections.contains(&&first))
        });
    }
}

/// Drops the file claims on paths a sentence names only to say what another file does or
/// is like: after a path and a colon that a description follows ("Napisao je
/// `scripts/deploy.sh`: kopira `config/app.yaml` u `deploy/`", what the script does), and
/// right beside a word for "same as" ("`scripts/run.sh`와 같은 내용의 `bin/run`", "the
/// same content as `scripts/run.sh`"). And a file told made where another sentence of the
/// message says it (or its folder) was deleted later is history the message tells: weak.
pub fn drop_described_paths(readings: &mut [Reading]) {
    let deleted: Vec<String> = readings
        .iter()
        .flat_map(|r| &r.claims)
        .filter_map(|c| match &c.kind {
            Kind::File {
                path,
                change: Change::Deleted,
            }
            | Kind::Dir {
                path,
                change: Change::Deleted,
            } => Some(path.trim_end_matches('/').to_owned()),
            _ => None,
        })
        .collect();
    for r in readings
        .iter_mut()
        .filter(|r| !r.skipped && !r.claims.is_empty())
    {
        let described = described_after_colon(&r.sentence);
        let compared = compared_paths(&r.sentence);
        r.claims.retain(|c| match &c.kind {
            Kind::File { path, change } | Kind::Dir { path, change } => {
                let made = matches!(change, Change::Created | Change::Modified);
                !(made && (described.contains(path) || compared.contains(path)))
            }
            Kind::Committed { path } => !described.contains(path) && !compared.contains(path),
            _ => true,
        });
        for c in &mut r.claims {
            let (Kind::File { path, change } | Kind::Dir { path, change }) = &c.kind else {
                continue;
            };
            let path = path.trim_end_matches('/');
            let under = |d: &String| path == d || path.starts_with(&format!("{d}/"));
            if matches!(change, Change::Created | Change::Modified) && deleted.iter().any(under) {
                c.weaken("the message says elsewhere that it was deleted");
            }
        }
    }
}

/// The paths named after "`path`:" where a description follows the colon (a word, not a
/// path or a list of them).
fn described_after_colon(sentence: &str) -> Vec<String> {
    let Some(at) = sentence.match_indices("`:").map(|(i, _)| i).find(|&i| {
        let before = &sentence[..i];
        let span = before.rsplit('`').next().unwrap_or("");
        before.matches('`').count() % 2 == 1 && vocab::path_of(span.trim(), true).is_some()
    }) else {
        return Vec::new();
    };
    let after = &sentence[at + 2..];
    if !after.trim_start().starts_with(char::is_alphabetic) {
        return Vec::new();
    }
    path_spans(after)
}

/// The paths a sentence names right beside a word for "same as": compared with, not
/// changed.
fn compared_paths(sentence: &str) -> Vec<String> {
    const SAME_AFTER: &[&str] = &[
        "와 같은",
        "과 같은",
        "와 동일",
        "과 동일",
        "と同じ",
        "と同様",
        "相同",
        "一样",
        "一樣",
        "ile aynı",
        "ile özdeş",
        "gibi",
        "की तरह",
        "जैसा",
        "जैसी",
        "जैसे",
        "سان",
    ];
    // Phrases, not the one-word "like" or "as" ("saved as `x`", "jako `x`" name what was
    // made).
    const SAME_BEFORE: &[&str] = &[
        "same as",
        "identical to",
        "same content as",
        "a copy of",
        "gleich wie",
        "genauso wie",
        "identisch mit",
        "même que",
        "identique à",
        "mismo que",
        "igual que",
        "idéntico a",
        "mesmo que",
        "idêntico a",
        "stesso di",
        "uguale a",
        "identico a",
        "hetzelfde als",
        "identiek aan",
        "samma som",
        "identisk med",
        "samme som",
        "sama kuin",
        "такой же, как",
        "такий самий, як",
        "taki sam jak",
        "identyczny z",
        "stejný jako",
        "la fel ca",
        "identic cu",
        "ίδιο με",
        "giống như",
        "sama seperti",
        "זהה ל",
    ];
    let mut out = Vec::new();
    let parts: Vec<&str> = sentence.split('`').collect();
    for (i, span) in parts.iter().enumerate().skip(1).step_by(2) {
        let Some(path) = vocab::path_of(span.trim(), true) else {
            continue;
        };
        let before = parts[i - 1].trim_end().to_lowercase();
        let after = parts
            .get(i + 1)
            .map_or(String::new(), |a| a.trim_start().to_lowercase());
        let said_before = SAME_BEFORE.iter().any(|w| {
            before
                .strip_suffix(w)
                .is_some_and(|b| b.is_empty() || !b.ends_with(char::is_alphanumeric))
        });
        if said_before || SAME_AFTER.iter().any(|w| after.starts_with(w)) {
            out.push(path);
        }
    }
    out
}

/// Words that place a thing at a path, written before it ("the release binary is at
/// `target/release/calc`", "das Binary liegt unter `dist/app`", "le rapport se trouve dans
/// `out/report.html`").
const LOCATED_BEFORE: &[&str] = &[
    "is at",
    "is located at",
    "is located in",
    "lives at",
    "lives in",
    "can be found at",
    "can be found in",
    "is available at",
    "sits at",
    "sits in",
    "liegt unter",
    "liegt in",
    "liegt jetzt unter",
    "liegt jetzt in",
    "befindet sich in",
    "befindet sich unter",
    "se trouve dans",
    "se trouve à",
    "se trouve sous",
    "est disponible dans",
    "está en",
    "se encuentra en",
    "queda en",
    "está em",
    "fica em",
    "se encontra em",
    "si trova in",
    "si trova sotto",
    "è in",
    "staat in",
    "staat onder",
    "bevindt zich in",
    "ligger i",
    "ligger under",
    "finns i",
    "findes i",
    "finnes i",
    "находится в",
    "лежит в",
    "знаходиться в",
    "лежить у",
    "znajduje się w",
    "jest w",
    "se nachází v",
    "je v",
    "sijaitsee",
    "nằm ở",
    "nằm tại",
    "berada di",
    "ada di",
    "terletak di",
    "נמצא ב",
    "موجود في",
    "βρίσκεται στο",
    "βρίσκεται στη",
    "се намира в",
    "nalazi se u",
    "se află în",
    "位于",
    "存放在",
];

/// The same, written after the path ("`target/release/calc` にあります", "`dist/app`에
/// 있습니다", "`out/app` में है", "`bin/calc` konumunda").
const LOCATED_AFTER: &[&str] = &[
    "にあります",
    "に置かれています",
    "에 있습니다",
    "에 있어요",
    "에 있음",
    "में है",
    "में मौजूद है",
    "konumunda",
    "konumuna",
];

/// Marks the paths a report places something at ("The release binary is at
/// `target/release/calc`"): the path is there as the turn left it ([`Change::Kept`]). One
/// path, right after (or, in the languages that put it first, right before) the words that
/// place it; nothing where the sentence denies, plans, asks or doubts, or the line
/// already reads the path otherwise.
pub fn mark_located(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.sentence.contains('`')
            || r.sentence.trim_end().ends_with(['?', '？'])
            || refs::plans_or_doubts(r)
        {
            continue;
        }
        let parts: Vec<&str> = r.sentence.split('`').collect();
        let paths: Vec<String> = parts
            .iter()
            .skip(1)
            .step_by(2)
            .filter_map(|span| vocab::path_of(span.trim(), true))
            .collect();
        // A path outside the project (`~/.config/app.toml`, `/etc/hosts`) is another's.
        let [path] = paths.as_slice() else {
            continue;
        };
        if path.starts_with(['~', '/', '$']) {
            continue;
        }
        if r.claims.iter().any(|c| {
            matches!(&c.kind, Kind::File { path: p, .. } | Kind::Dir { path: p, .. } if p == path)
        }) {
            continue;
        }
        let Some(i) = parts
            .iter()
            .enumerate()
            .skip(1)
            .step_by(2)
            .find(|(_, span)| vocab::path_of(span.trim(), true).as_ref() == Some(path))
            .map(|(i, _)| i)
        else {
            continue;
        };
        let before = fold(&parts[i - 1].trim_end().to_lowercase());
        let after = parts
            .get(i + 1)
            .map_or(String::new(), |a| a.trim_start().to_lowercase());
        let placed_before = LOCATED_BEFORE.iter().any(|w| {
            before.strip_suffix(w).is_some_and(|b| {
                b.is_empty() || !b.ends_with(char::is_alphanumeric) || !w.is_ascii()
            })
        });
        let placed_after = LOCATED_AFTER.iter().any(|w| after.starts_with(w));
        if !(placed_before || placed_after) || refs::negates(&fold(&r.sentence.to_lowercase())) {
            continue;
        }
        let kind = Kind::File {
            path: path.clone(),
            change: Change::Kept,
        };
        add_new(r, kind);
    }
}

/// Whether a span is a call given values (`f("a b")`, `parse_port('0')`, `mean(3, 4)`):
/// what it returns is told beside it, no path or definition.
pub(super) fn is_call_with_values(span: &str) -> bool {
    is_call(span)
        && span.split_once('(').is_some_and(|(_, args)| {
            args.contains(['"', '\''])
                || args.split([',', '(', ')', '[']).any(|a| {
                    a.trim()
                        .starts_with(|c: char| c.is_ascii_digit() || c == '-')
                })
        })
}

/// Whether a path a sentence names is the value a call beside it gives ("`export_name("Q3
/// Report")` अझै `q3_report.csv` दिन्छ", "`out_path(2)` → `out/2.json`"): a call with values
/// stands before it in its clause.
pub(super) fn is_a_calls_value(sentence: &str, path: &str) -> bool {
    let quoted = format!("`{path}`");
    sentence.split(CLAUSE_ENDS).any(|clause| {
        clause
            .find(&quoted)
            .is_some_and(|at| vocab::spans_of(&clause[..at]).any(|s| is_call_with_values(s.trim())))
    })
}

/// Whether a span is a call: a name, then its arguments in brackets (`f(x)`,
/// `calc::max(1, 2)`, `s.strip()`).
pub(super) fn is_call(span: &str) -> bool {
    span.split_once('(').is_some_and(|(name, rest)| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || "_.:".contains(c))
            && name.starts_with(|c: char| c.is_alphabetic() || c == '_')
            && rest.ends_with(')')
    })
}

/// Marks the paths a report says are still there ("`logs/app.log` باقٍ في مكانه", "τα
/// `build/old.o` και `build/older.o` είναι ακόμη στη θέση τους", "`README.md` ligger kvar i
/// roten"): each path of the clause is there as the turn left it ([`Change::Kept`]).
/// Nothing where the clause denies, plans, asks or doubts.
pub fn mark_still_there(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.sentence.contains('`') || r.sentence.trim_end().ends_with(['?', '？']) {
            continue;
        }
        static PHRASES: OnceLock<forms::Phrases> = OnceLock::new();
        let phrases = PHRASES.get_or_init(|| forms::Phrases::new(STILL_THERE));
        let lower = fold(&r.sentence.to_lowercase());
        if phrases.find_in(&lower).is_none()
            || forms::any_in(&lower, Sets::NOT_A_REPORT)
            || refs::plans_or_doubts(r)
        {
            continue;
        }
        let plain = refs::without_brackets(&r.sentence);
        for clause in plain.split(CLAUSE_ENDS) {
            let prose = fold(&vocab::outside_spans(clause, " ").to_lowercase());
            let Some(phrase) = phrases.find_in(&prose) else {
                continue;
            };
            let rest = prose.replacen(phrase, " ", 1);
            if refs::negates(&rest) || forms::any_in(&rest, Sets::NOT_A_PASS) {
                continue;
            }
            // "`export_name("Q3 Report")` अझै `q3_report.csv` दिन्छ": what a call still
            // returns, no file that is still there.
            if vocab::spans_of(clause).any(|s| is_call(s.trim())) {
                continue;
            }
            let paths = path_spans(clause);
            // "`port: 9090` ยังอยู่ และบรรทัด `second note` ใน `notes.txt` หายไป": of a clause
            // joined by "and", the values are those of the part that says "still".
            let own = part_saying(clause, phrases);
            let own_paths = path_spans(own);
            // "บรรทัด `ops: rotate logs weekly` ใน `notes.txt` ยังอยู่ครบ": a line still in
            // the one file the clause names is a value the file holds.
            let values: Vec<&str> = vocab::spans_of(own)
                .map(str::trim)
                .filter(|s| {
                    !s.is_empty()
                        && vocab::path_of(s, true).is_none()
                        && !s.starts_with("git ")
                        && !vocab::check_command_span(s)
                })
                .collect();
            if !values.is_empty() && own_paths.is_empty() && paths.len() == 1 {
                // The value is told of no file of its own part.
                continue;
            }
            if let ([path], false) = (own_paths.as_slice(), values.is_empty()) {
                for value in values {
                    let kind = Kind::Holds {
                        path: path.clone(),
                        value: value.to_owned(),
                    };
                    add_new(r, kind);
                }
                continue;
            }
            for path in paths {
                let kind = Kind::File {
                    path: path.clone(),
                    change: Change::Kept,
                };
                // The path is there, not made nor taken away: a reading of it as made, or
                // as deleted by the verb of a clause before ("`a.o`: διαγράφηκε· το `b.o`
                // μένει"), gives way.
                r.claims.retain(|c| {
                    !matches!(&c.kind, Kind::File { path: p, change: Change::Created | Change::Modified | Change::Deleted } if *p == path)
                });
                add_new(r, kind);
            }
        }
    }
}

/// The part of a clause, split at its "and" words, whose prose holds one of `phrases`: the
/// whole clause where it has one part, or no part holds them alone.
fn part_saying<'c>(clause: &'c str, phrases: &forms::Phrases) -> &'c str {
    const AND: &[&str] = &[
        " and ",
        " und ",
        " et ",
        " y ",
        " e ",
        " и ",
        " і ",
        " i ",
        " ja ",
        " og ",
        " och ",
        " ve ",
        " và ",
        " dan ",
        " na ",
        " és ",
        " oraz ",
        " și ",
        " at ",
        " a ",
        " และ",
        "，并且",
        "并且",
        " 그리고 ",
        " و",
    ];
    let mut cuts: Vec<usize> = AND
        .iter()
        .flat_map(|w| clause.match_indices(w).map(|(i, _)| i))
        .filter(|i| clause[..*i].matches('`').count() % 2 == 0)
        .collect();
    if cuts.is_empty() {
        return clause;
    }
    cuts.sort_unstable();
    let mut bounds = vec![0];
    bounds.extend(cuts);
    bounds.push(clause.len());
    let parts: Vec<&str> = bounds.windows(2).map(|w| &clause[w[0]..w[1]]).collect();
    let saying: Vec<&&str> = parts
        .iter()
        .filter(|p| {
            phrases
                .find_in(&fold(&vocab::outside_spans(p, " ").to_lowercase()))
                .is_some()
        })
        .collect();
    match saying.as_slice() {
        [one] => one,
        _ => clause,
    }
}

/// Marks settings a report tells as the state of a file it named before, in a sentence that
/// names no file ("Valores no arquivo agora: `port: 9090`, `log: warn`." after "`config/app.yaml`
/// regenerado …"; "`metrics_port` sigue en `8080`" below "`config/app.yaml`: `port: 8080` →
/// `port: 9090`"): each setting (`key: value`, `key=value`, or a key's span and its value's
/// span) in the clause that tells it as now or still, and in the bare list of settings that
/// follows it, is a value the one data file of the nearest earlier line naming paths must
/// hold. Nothing where that clause denies, plans or asks, takes out or replaces, or where
/// the line names another number (an old value beside the new one).
pub fn mark_settings_of_a_file_before(readings: &mut [Reading]) {
    static STILL: OnceLock<forms::Phrases> = OnceLock::new();
    let still = STILL.get_or_init(|| forms::Phrases::new(STILL_WORDS));
    let mut file: Option<String> = None;
    for r in readings.iter_mut() {
        let paths = path_spans(&r.sentence);
        if !paths.is_empty() {
            let data: Vec<&String> = paths.iter().filter(|p| is_data_file(p)).collect();
            file = match data.as_slice() {
                [one] => Some((*one).clone()),
                _ => None,
            };
            continue;
        }
        let Some(path) = file.as_ref() else {
            continue;
        };
        if r.skipped
            || !r.sentence.contains('`')
            || r.sentence.trim_end().ends_with(['?', '？'])
            || refs::plans_or_doubts(r)
            || says_taken_out(&r.sentence)
        {
            continue;
        }
        let lower = fold(&r.sentence.to_lowercase());
        if AWAY.iter().any(|w| lower.contains(w))
            || forms::any_in(&lower, Sets::GONE)
            || forms::any_in(&lower, Sets::NOT_A_REPORT)
            || number_outside_spans(&r.sentence)
        {
            continue;
        }
        let plain = refs::without_brackets(&r.sentence);
        let mut values: Vec<String> = Vec::new();
        let mut listing = false;
        for clause in plain.split(CLAUSE_ENDS) {
            let prose = fold(&vocab::outside_spans(clause, " ").to_lowercase());
            let told = after_now(clause).is_some() || still.find_in(&prose).is_some();
            // "`port: 9090`, `log: warn`": a clause of settings alone goes on the list.
            let bare = prose
                .split_whitespace()
                .all(|w| w.chars().count() <= 3 || w.chars().all(|c| !c.is_alphanumeric()));
            if told {
                // The phrase stands in for itself ("ما زال" holds a negation, and what
                // follows it does not lead the clause).
                let rest = still
                    .find_in(&prose)
                    .map_or(prose.clone(), |p| prose.replacen(p, " still ", 1));
                if refs::negates(&rest) || forms::any_in(&rest, Sets::NOT_A_PASS) {
                    listing = false;
                    continue;
                }
                listing = true;
            } else if !(listing && bare) {
                listing = false;
                continue;
            }
            values.extend(settings_in(clause));
        }
        for value in values {
            let kind = Kind::Holds {
                path: path.clone(),
                value,
            };
            add_new(r, kind);
        }
    }
}

/// The settings a clause writes: `key: value` and `key=value` spans, or a key's span right
/// before its value's (`metrics_port` … `8080`) when the clause has just those two.
fn settings_in(clause: &str) -> Vec<String> {
    // "Met `ensure_ascii=False` opnieuw gedraaid", "ran it with `--port=9000`": what a
    // command ran with is its argument, not a file's setting.
    let spans: Vec<&str> = clause
        .split('`')
        .collect::<Vec<_>>()
        .chunks(2)
        .filter_map(|pair| match pair {
            [before, span] if !after_a_with_word(before) => Some(span.trim()),
            _ => None,
        })
        .filter(|s| !s.is_empty())
        .collect();
    let settings: Vec<String> = spans
        .iter()
        .filter_map(|s| setting_of(s))
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    if !settings.is_empty() {
        return settings;
    }
    // A value by its own span is a number (`8080`, `30s`) or a switch (`true`): two names
    // (`main` … `main`) are no key and its value.
    let valueish = |v: &str| {
        v.starts_with(|c: char| c.is_ascii_digit())
            || matches!(v, "true" | "false" | "on" | "off" | "yes" | "no")
    };
    match spans.as_slice() {
        [key, value]
            if is_key(key)
                && vocab::path_of(key, true).is_none()
                && key.contains(['_', '.', '-'])
                && valueish(value)
                && !value.contains(char::is_whitespace) =>
        {
            vec![format!("{key}: {value}")]
        }
        _ => Vec::new(),
    }
}

/// Whether the text before a span ends in a word for "with" or "using" ("met `a=b`", "with
/// `--x`", "mit `a=b`"), in the tables' languages.
fn after_a_with_word(before: &str) -> bool {
    const WITH: &[&str] = &[
        "with",
        "using",
        "mit",
        "avec",
        "con",
        "com",
        "met",
        "med",
        "z",
        "ze",
        "с",
        "со",
        "usando",
        "utilisant",
        "ile",
        "dengan",
        "kwa",
        "gamit",
        "με",
        "עם",
        "使用",
        "用",
    ];
    let lower = before.trim_end().to_lowercase();
    let last = lower
        .rsplit(|c: char| c.is_whitespace() || c == '(' || c == ',')
        .next()
        .unwrap_or("");
    WITH.contains(&last)
}

/// A span written as a setting (`port: 8080`, `log=debug`, `"version": "1.1.0"`): its key
/// and value.
fn setting_of(span: &str) -> Option<(&str, &str)> {
    // YAML's `key: value` has a space after the colon; `test:ci` is a name.
    let (key, value) = span.split_once('=').or_else(|| span.split_once(": "))?;
    let key = key.trim().trim_matches('"');
    let value = value.trim().trim_matches(['"', ',']);
    (is_key(key) && !value.is_empty() && !value.contains(char::is_whitespace))
        .then_some((key, value))
}

/// A setting's key: a letter or `_` first, then letters, digits, `_`, `.` and `-`.
fn is_key(key: &str) -> bool {
    key.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
}

/// Whether a line writes a number of two digits or more outside its code spans (an old
/// value, a count): the settings it names may not be the state it tells.
fn number_outside_spans(sentence: &str) -> bool {
    sentence
        .split('`')
        .step_by(2)
        .flat_map(|part| part.split(|c: char| !c.is_ascii_digit()))
        .any(|w| w.len() >= 2)
}

/// Marks a branch a sentence says now (or still) points at a commit ("📤 Push: `origin/main`
/// artık 1a2b3c4", "`main` is still at 0f3e2d1"): the one branch span (`main`, `master`,
/// `origin/…`, a name with a `/`), one commit hash of seven to forty hex digits, and a word
/// for "now" or "still". The branch (or origin's) must point at that commit as the turn
/// left it. Nothing where the line names two commits (a move from one to the other), or
/// denies, plans or asks.
pub fn mark_branch_tips(readings: &mut [Reading]) {
    static STILL: OnceLock<forms::Phrases> = OnceLock::new();
    let still = STILL.get_or_init(|| forms::Phrases::new(STILL_WORDS));
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.sentence.contains('`') || r.sentence.trim_end().ends_with(['?', '？']) {
            continue;
        }
        let branches: Vec<&str> = vocab::spans_of(&r.sentence)
            .map(str::trim)
            .filter(|s| names_a_branch(s) && *s != "HEAD")
            .collect();
        let [branch] = branches.as_slice() else {
            continue;
        };
        let hashes: Vec<&str> = r
            .sentence
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| {
                (7..=40).contains(&w.len())
                    && w.bytes()
                        .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
                    && w.bytes().any(|b| b.is_ascii_digit())
            })
            .collect();
        let [hash] = hashes.as_slice() else {
            continue;
        };
        // "Továbbra is 2 commit van az `origin/main` előtt: 525c954 …": a count of commits
        // apart, and the commits listed, not where the branch points. Another number, a
        // colon between the branch and the hash, or a distance read: none of the branch's
        // tip.
        let quoted = format!("`{branch}`");
        let between = r
            .sentence
            .find(&quoted)
            .zip(r.sentence.find(hash))
            // (`get`: the hash may stand inside the branch's own span.)
            .and_then(|(b, h)| {
                if b < h {
                    r.sentence.get(b + quoted.len()..h)
                } else {
                    r.sentence.get(h + hash.len()..b)
                }
            })
            .unwrap_or("");
        let other_number = vocab::outside_spans(&r.sentence, " ")
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w != *hash && w.bytes().any(|b| b.is_ascii_digit()));
        if other_number
            || between.contains([':', '：'])
            || r.claims
                .iter()
                .any(|c| matches!(c.kind, Kind::Apart { .. }))
        {
            continue;
        }
        // The clause that names the branch tells it ("…; benim commit'im … duruyor" is
        // another's).
        let Some(clause) = r
            .sentence
            .split([';', '；', '—'])
            .find(|c| c.contains(&quoted) && c.contains(hash))
        else {
            continue;
        };
        let prose = fold(&vocab::outside_spans(clause, " ").to_lowercase());
        let told = after_now(clause).is_some() || still.find_in(&prose).is_some();
        if !told || refs::plans_or_doubts(r) || refs::negates(&prose) {
            continue;
        }
        let kind = Kind::Ref {
            name: (*branch).to_owned(),
            tag: false,
            at: Some((*hash).to_owned()),
        };
        add_new(r, kind);
    }
}

/// Words for "still", in the tables' languages: a state that has not changed.
const STILL_WORDS: &[&str] = &[
    "still",
    "remains",
    "stays",
    "sigue",
    "siguen",
    "todavía",
    "noch",
    "weiterhin",
    "toujours",
    "reste",
    "ancora",
    "rimane",
    "resta ",
    "ainda",
    "continua",
    "nog steeds",
    "blijft",
    "fortfarande",
    "fortsatt",
    "stadig",
    "edelleen",
    "yhä",
    "wciąż",
    "nadal",
    "stále",
    "pořád",
    "még mindig",
    "továbbra is",
    "всё ещё",
    "все еще",
    "по-прежнему",
    "досі",
    "все ще",
    "仍",
    "依然",
    "还是",
    "まだ",
    "のまま",
    "여전히",
    "그대로",
    "hâlâ",
    "vẫn",
    "masih",
    "tetap",
    "עדיין",
    "لا يزال",
    "ما زال",
    "همچنان",
    "هنوز",
    "مانده",
    "अब भी",
    "अभी भी",
    "ยังคง",
    "ακόμη",
    "ακόμα",
    "i dalje",
    "još uvijek",
    "încă",
    "bado",
    "pa rin",
];

/// Phrases that say a thing is still where it was, in the tables' languages.
const STILL_THERE: &[&str] = &[
    "still there",
    "still in place",
    "ยังอยู่",
    "stays in place",
    "stays where it is",
    "left in place",
    "remains in place",
    "kept in place",
    "is still in the",
    "ist noch da",
    "noch vorhanden",
    "weiterhin vorhanden",
    "bleibt liegen",
    "bleibt an seinem platz",
    "reste en place",
    "est toujours là",
    "toujours présent",
    "sigue ahí",
    "sigue en su sitio",
    "sigue en su lugar",
    "permanece en su lugar",
    "continua no lugar",
    "continua lá",
    "permanece no lugar",
    "resta al suo posto",
    "è ancora lì",
    "rimane al suo posto",
    "staat er nog",
    "blijft staan",
    "ligger kvar",
    "finns kvar",
    "är kvar",
    "ligger igjen",
    "finnes fortsatt",
    "er der fortsatt",
    "er der stadig",
    "findes stadig",
    "on yhä paikallaan",
    "on edelleen paikallaan",
    "jäi paikalleen",
    "zostaje na miejscu",
    "nadal jest na miejscu",
    "wciąż jest na miejscu",
    "zůstává na místě",
    "je stále na místě",
    "zostáva na mieste",
    "остаётся на месте",
    "остается на месте",
    "остался на месте",
    "всё ещё на месте",
    "все еще на месте",
    "залишається на місці",
    "досі на місці",
    "ακόμη στη θέση",
    "ακόμα στη θέση",
    "παραμένει στη θέση",
    "μένει",
    "μένουν",
    "yerinde duruyor",
    "yerinde kalıyor",
    "yerinde kaldı",
    "باقٍ في مكانه",
    "باق في مكانه",
    "باقية في مكانها",
    "لا يزال في مكانه",
    "נשאר במקומו",
    "עדיין במקומו",
    "هنوز سر جایش",
    "سر جای خود",
    "अपनी जगह पर है",
    "अब भी मौजूद",
    "そのまま残",
    "残ったまま",
    "仍在原处",
    "还在原处",
    "保留在原处",
    "그대로 남아",
    "그대로 있",
    "vẫn còn nguyên",
    "vẫn nằm",
    "tetap di tempatnya",
    "masih di tempatnya",
    "még a helyén",
    "a helyén maradt",
    "rămâne pe loc",
    "a rămas pe loc",
    "și acum e acolo",
];
