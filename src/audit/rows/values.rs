//! What a row's value says: passed (a mark, a pass word of any table, a problem denied),
//! or not (a failure, a check not run, a plan), in any language.

use super::*;

/// Values that say a check passed, in any language, beside each table's own.
pub(super) const PASSED: &[&str] = &[
    "ok",
    "okay",
    // "pass" written in the scripts of India that have no table: Tamil, Malayalam,
    // Kannada, Gujarati, Gurmukhi (and Tamil's own words for passed and success).
    "பாஸ்",
    "தேர்ச்சி",
    "வெற்றி",
    "പാസ്",
    "ಪಾಸ್",
    "પાસ",
    "ਪਾਸ",
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
    // Valid, correct, verified: a check's verdict in the words agents use for a syntax
    // or schema check.
    "valid",
    "correct",
    "correcte",
    "correcta",
    "correcto",
    "corretto",
    "corretta",
    "correto",
    "correta",
    "korrekt",
    "korrekte",
    "válido",
    "válida",
    "valide",
    "valido",
    "geçerli",
    "doğrulandı",
    "verified",
    "validated",
    "geprüft",
    "vérifié",
    "verificado",
    "verificato",
    "godkänd",
    "godkänt",
    "v pořádku",
    "hợp lệ",
    "gültig",
    "geldig",
    "poprawny",
    "poprawna",
    "platný",
    "platná",
    "giltig",
    "gyldig",
    "geçerlidir",
    "valida",
    "válidos",
    "有效",
    "有効",
    "유효",
    "वैध",
    "صالح",
    "صحيح",
    "έγκυρο",
    "валідний",
    "валидный",
    "корректный",
    "rent",
    "ren",
    "puhdas",
    // Clean and green in more languages: whole words only, so that a negation before one
    // ("Clippy: ni čist", "не е чисто") says the check did not pass.
    "čist",
    "čista",
    "čisto",
    "čisté",
    "čistý",
    "čistá",
    "čistě",
    "czysty",
    "czyste",
    "чист",
    "чиста",
    "чисти",
    "чистий",
    "чисте",
    "чистые",
    "tiszta",
    "curat",
    "curată",
    "καθαρό",
    "καθαρός",
    "καθαρά",
    "נקי",
    "נקיה",
    "تمیز",
    "نظيف",
    "साफ",
    "tīrs",
    "švarus",
    "švaru",
    "puhas",
    "safi",
    "malinis",
    "zelen",
    "zeleno",
    "zelena",
    "zelené",
    "zelená",
    "zöld",
    "zöldek",
    "vihreä",
    "vihreät",
    "yeşil",
    "hijau",
    "grøn",
    "grønn",
    "grön",
    "gröna",
    "roheline",
    "žalias",
    "zaļš",
    "kijani",
    "berde",
];

/// Phrases that say a check found nothing to complain about.
pub(super) const NOTHING_FOUND: &[&str] = &[
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
pub(super) const NO_BEFORE: &[&str] = &[
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
    // Beyond the tables: Swedish, Norwegian, Danish, Czech, Slovak, Ukrainian, Greek,
    // Hebrew, Arabic, Finnish, Hungarian, Romanian.
    "inga",
    "ingen",
    "inget",
    "utan",
    "ingen",
    "ikke",
    "uden",
    "uten",
    "žádné",
    "žádná",
    "žádný",
    "žádnou",
    "nijaké",
    "žiadne",
    "жодних",
    "жодної",
    "жодного",
    "немає",
    "χωρίς",
    "κανένα",
    "καμία",
    "κανένας",
    "ללא",
    "אין",
    "بدون",
    "بلا",
    "لا",
    "ei",
    "nincs",
    "fără",
    "niciun",
    "nicio",
];

pub(super) const NO_AFTER: &[&str] = &[
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
    // Hungarian puts "there is none" after the noun too.
    "sincs",
    "nincs",
    "nincsenek",
    "nincsen",
];

/// Stems of what a check finds. A value that denies one says the check was clean.
/// First-person subject pronouns: "I … not" before a check's result tells what the agent
/// did not do.
const FIRST_PERSON: &[&str] = &[
    "ich", "je", "yo", "eu", "io", "ik", "jag", "jeg", "minä", "én", "я", "mi", "ben", "saya",
    "aku", "tôi", "ego", "我", "私", "나는", "저는",
];

/// Words for what a formatter or a diff finds ("inga avvikelser", "keine Abweichungen",
/// "no changes", "差分なし"): denied, the check is clean.
const DIFFERENCES: &[&str] = &[
    "diff",
    "change",
    "avvik",
    "afvig",
    "abweich",
    "änderung",
    "écart",
    "différen",
    "modification",
    "diferen",
    "desvi",
    "cambio",
    "scostament",
    "modific",
    "afwijking",
    "verschil",
    "wijziging",
    "uwag",
    "odchyl",
    "różnic",
    "zmian",
    "rozdíl",
    "změn",
    "отклонен",
    "различ",
    "расхожд",
    "изменен",
    "відмінн",
    "змін",
    "eltér",
    "poikkeam",
    "muutok",
    "farklı",
    "değişiklik",
    "差分",
    "差异",
    "差異",
    "变更",
    "變更",
    "変更",
    "차이",
    "변경",
];

pub(super) const PROBLEMS: &[&str] = &[
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
    "כשל",
    "שגיא",
    "אזהר",
    "خطأ",
    "أخطاء",
    "تحذير",
    "مشكل",
    "خطا",
    "هشدار",
    "त्रुटि",
    "चेतावनी",
    "समस्या",
    "σφάλμ",
    "προειδοποί",
    "πρόβλημ",
    "varning",
    "chyb",
    "varován",
    "hiba",
    "figyelmeztet",
    "virhe",
    "varoitu",
    "помил",
    "попередж",
    "eroar",
    "avertism",
    "ข้อผิดพลาด",
    "คำเตือน",
    "ত্রুটি",
    "সতর্ক",
];

/// Whether the words after a command (`value`) say it passed, and neither they nor the
/// clause's words before it (`before`) take that back: the value, when they do.
pub(super) fn passes(before: &str, value: &str, marked: bool) -> Option<String> {
    let value = value.trim_start_matches(['*', '_', ' ', '\u{a0}']);
    let value = SEPARATORS
        .iter()
        .chain(&[",", "，"])
        .find_map(|s| value.strip_prefix(s))
        .unwrap_or(value);
    // What says the result is the first part of the value ("sauber, keine einzige
    // Warnung"); the rest may only take it back ("3 passed, 1 failed"), or deny a
    // problem ("שתי הדוגמאות עוברות, אין כשלים").
    let head = value
        .split([',', '，', '、', '،', '–', '—'])
        .next()
        .unwrap_or(value);
    if head.split_whitespace().count() > 12 {
        return None;
    }
    // "שתי הדוגמאות עוברות, אין כשלים": a problem denied by name after the verdict.
    let denied_later =
        value.split_whitespace().count() <= 16 && denials(&fold(&value.to_lowercase())).problem;
    // "two of the three passed", "3 件中 2 件": some passed, not the check.
    let some = vocab::says_only(value) || super::super::lang::some_of_all_words(value);
    let holds = (says_passed(head) || marked || denied_later)
        && !some
        // "hai spec còn lại của Jest đạt": the rest of the suite passed, not the suite.
        && !super::super::lang::says_the_rest(&before.to_lowercase())
        && !super::super::lang::says_the_rest(&value.to_lowercase())
        && !refutes(&fold(&value.to_lowercase()), true)
        && !refutes(&fold(&before.to_lowercase()), false)
        // "pre-commit hook отклонил его (… нет заголовка)": a check that refused the step
        // it guards failed, whatever problem the words after deny.
        && !refuses_the_step(&value.to_lowercase())
        && !refuses_the_step(&before.to_lowercase());
    holds.then(|| value.trim().to_owned())
}

/// Whether words say a check refused the step it guards ("rejected", "отклонил",
/// "rifiutato", "拒否"): [`vocab::refused`] without its words for failing and errors, which
/// a passing value denies ("no errors").
pub(super) fn refuses_the_step(text: &str) -> bool {
    const NOT_REFUSALS: &[&str] = &[
        "fail",
        "error",
        "fatal",
        "échou",
        "fall",
        "fallit",
        "falhou",
        "mislukt",
        "ошибк",
        "失敗",
        "失败",
        "실패",
        "protected",
    ];
    // What a bracket holds is an aside ("solo cae test_range (no rechaza puertos > 65535)":
    // the test's subject, not the check's verdict).
    let mut rest = super::refs::without_brackets(text);
    for w in NOT_REFUSALS {
        rest = rest.replace(w, " ");
    }
    vocab::refused(&rest)
}

/// Whether a row's value says the check passed: a mark, a pass word of any table, or a
/// problem denied, with nothing left that says it failed, was skipped or may pass.
pub(super) fn says_passed(value: &str) -> bool {
    says_passed_with(value, true)
}

/// [`says_passed`] by a mark or a word of passing, not by a problem denied: what any
/// command's row must say for the command to be claimed as gone through ("`perl -c`: syntax
/// OK"; "`bash -e` … no `LICENSE`" denies a file, not the run's trouble).
pub(super) fn says_passed_plainly(value: &str) -> bool {
    says_passed_with(value, false)
}

fn says_passed_with(value: &str, denials_pass: bool) -> bool {
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
    let (rest, denied) = without_denials(&v);
    if denied && denials_pass {
        passed = true;
        v = rest;
    }
    let bytes = forms::Bytes::of(&v);
    // A table's clean form counts as the tables match it: "ok" is no part of "hook".
    for c in forms::clean_stems() {
        if bytes.may_hold(c.text) && c.is_in(&v) {
            passed = true;
            v = v.replace(c.text, " ");
        }
    }
    for c in denied_problems(&v) {
        if bytes.may_hold(&c) && forms::contains(&v, &c) {
            passed = true;
            v = v.replace(c.as_str(), " ");
        }
    }
    for p in NOTHING_FOUND {
        if bytes.may_hold(p) && forms::contains(&v, p) {
            passed = true;
            v = v.replace(p, " ");
        }
    }
    for p in forms::passed_stems() {
        if bytes.may_hold(p.text) && p.is_in(&v) {
            passed = true;
            v = v.replace(p.text, " ");
        }
    }
    for p in PASSED {
        if bytes.may_hold(p) && has_word(&v, p) {
            passed = true;
            v = v.replace(p, " ");
        }
    }
    passed && !refutes(&v, true)
}

/// Whether `text` says a check failed (`failures`), was not run, or only may pass. The
/// phrases that say it passed are taken out first.
pub(super) fn refutes(text: &str, failures: bool) -> bool {
    let mut v = without_zero_failures(text.to_owned());
    let d = denials(&v);
    if d.negated_pass {
        return true;
    }
    v = d.rest;
    let bytes = forms::Bytes::of(&v);
    for c in forms::clean_stems() {
        if bytes.may_hold(c.text) && c.is_in(&v) {
            v = v.replace(c.text, " ");
        }
    }
    for c in denied_problems(&v)
        .iter()
        .map(String::as_str)
        .chain(NOTHING_FOUND.iter().copied())
    {
        if bytes.may_hold(c) && forms::contains(&v, c) {
            v = v.replace(c, " ");
        }
    }
    let sets = if failures {
        Sets::NOT_A_PASS | Sets::FAILED
    } else {
        Sets::NOT_A_PASS
    };
    forms::any_in(&v, sets)
}

/// `v` without its zero counts of failures ("0 failed", "0 fehlgeschlagen"): part of a
/// pass, in any table's words.
pub(super) fn without_zero_failures(v: String) -> String {
    if !v.contains('0') {
        return v;
    }
    // Each "0", then (after one space or none) the longest failure word of any table that
    // starts there: no list of "0 word" strings is built for a hook that runs once.
    let mut out = String::with_capacity(v.len());
    let mut rest = v.as_str();
    while let Some(i) = rest.find('0') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let gap = usize::from(after.starts_with(' '));
        let failure = LANGS
            .iter()
            .flat_map(|l| l.failed.iter())
            .map(|f| f.trim())
            .filter(|f| !f.is_empty() && after[gap..].starts_with(f))
            .map(str::len)
            .max();
        match failure {
            Some(len) => {
                out.push(' ');
                rest = &after[gap + len..];
            }
            None => {
                out.push('0');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `v` (lower-cased) without the problems it denies, and whether it denied one: a
/// negation of any table, or a zero, beside words that are neither the check's run nor
/// its pass ("nie ma uwag", "inga avvikelser", "कोई सिंटैक्स त्रुटि नहीं", "بدون أي
/// تحذيرات", "警告 0", "差分なし"). What the negation stands before is what it denies;
/// one that ends its clause ("… त्रुटि नहीं", "… hata yok") denies the words before it. A
/// negation of a run or a pass ("not run", "nicht ausgeführt", "не прошли") is left for
/// [`refutes`] to read: the value then says the check did not pass.
pub(super) fn without_denials(v: &str) -> (String, bool) {
    let d = denials(v);
    (d.rest, d.denied)
}

/// What the negations of a value deny.
pub(super) struct Denials {
    /// The value without its negations and what they deny.
    rest: String,
    /// A negation denied something that is neither the check's run nor its pass.
    denied: bool,
    /// A negation denied the check's run or its pass ("not run").
    negated_pass: bool,
    /// A negation denied a problem by name ("keine Warnungen", "no failures", "エラーなし").
    problem: bool,
}

/// [`without_denials`], and whether a negation denied the check's run or its pass ("ei
/// vielä ole puhdas", "not run"): the value then says it did not pass.
pub(super) fn denials(v: &str) -> Denials {
    // Each negation with its table ("" for the lists of every language).
    static NEGATIONS: OnceLock<Vec<(Vec<&'static str>, &'static str)>> = OnceLock::new();
    let negations = NEGATIONS.get_or_init(|| {
        let mut out: Vec<(Vec<&'static str>, &'static str)> = LANGS
            .iter()
            .flat_map(|l| l.negations.iter().map(|n| (*n, l.code)))
            .chain(
                NO_BEFORE
                    .iter()
                    .chain(NO_AFTER)
                    .chain(&["0", "zero", "零", "〇"])
                    .map(|n| (*n, "")),
            )
            .map(|(n, code)| (n.split_whitespace().collect::<Vec<_>>(), code))
            .filter(|(n, _)| !n.is_empty())
            .collect();
        // The longest first: "ни одной" before "ни".
        out.sort_by_key(|(n, _)| std::cmp::Reverse(n.iter().copied().map(str::len).sum::<usize>()));
        out.dedup();
        out
    });
    let reading = forms::reading();
    // What a code span holds is a name, not words of the value (`mean of nothing`).
    let v: String = v
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { "·" } else { part })
        .collect::<Vec<_>>()
        .join(" ");
    // A script without spaces writes a clause as one "word": its punctuation parts it, so
    // a negation inside ("…报错），所以目前没有新的提交") denies only its own clause.
    let v: String = v
        .chars()
        .flat_map(|c| {
            let cut = "，、。（）：；！？「」『』【】".contains(c);
            [cut.then_some(' '), Some(c), cut.then_some(' ')]
        })
        .flatten()
        .collect();
    let words: Vec<&str> = v.split_whitespace().collect();
    let mut gone = vec![false; words.len()];
    let mut denied = false;
    let mut negated_pass = false;
    let mut problem = false;
    let bare = |w: &str| -> String { w.trim_matches(|c: char| !c.is_alphanumeric()).to_owned() };
    let bare_words: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let clause_ends = |w: &str| w.ends_with([',', ';', '.', ':', '，', '；', '。', '：', '、']);
    let mut i = 0;
    while i < words.len() {
        // A negation of whole words, or one written inside a word of a script without
        // spaces ("差分なし", "경고없음").
        let found = negations.iter().find(|(n, _)| {
            n.len() <= words.len() - i && n.iter().zip(&bare_words[i..]).all(|(a, b)| a == b)
        });
        let whole = found.map(|(n, _)| n);
        // A negation of two letters from another table than the message's ("en" is
        // Finnish "I do not", and Spanish, Dutch and French "in", "and", "of") denies only
        // a problem it names.
        let foreign_short = found.is_some_and(|(n, _)| {
            n.len() == 1
                && n[0].chars().count() <= 2
                && reading.is_some()
                && !negations
                    .iter()
                    .any(|(m, code)| m == n && (code.is_empty() || Some(*code) == reading))
        });
        // Inside a word only the forms that say "none" ("なし", "없음", "没有"): a verb's
        // own negation ("入っていない") may deny anything.
        let inside = whole.is_none()
            && !words[i].is_ascii()
            && NO_AFTER.iter().chain(NO_BEFORE).any(|n| {
                !n.is_ascii()
                    && !n.contains(' ')
                    && !n.chars().any(|c| c.is_alphabetic() && c.is_lowercase())
                    && n.chars().count() >= 2
                    && words[i].contains(n)
                    && bare(words[i]) != *n
            });
        let len = match (whole, inside) {
            (Some(n), _) => n.len(),
            (None, true) => 1,
            _ => {
                i += 1;
                continue;
            }
        };
        let end = i + len;
        // The words it denies: those after it up to the clause's end (three at most), or,
        // when it ends its clause, the two before it.
        let last_of_clause = clause_ends(words[end - 1]) || end == words.len();
        let span: Vec<usize> = if inside {
            vec![i]
        } else if !last_of_clause {
            (end..words.len())
                .take(3)
                .scan(false, |stop, j| {
                    if *stop {
                        return None;
                    }
                    *stop = clause_ends(words[j]);
                    Some(j)
                })
                .collect()
        } else {
            (i.saturating_sub(2)..i)
                .filter(|&j| !clause_ends(words[j]) || j + 1 == i)
                .collect()
        };
        // A verb-final language negates the run before it ("ruff इंस्टॉल नहीं है", "kurulu
        // değil"): the word before the negation is its run, unless what follows it is a
        // problem the run was without ("ran without errors").
        let denies_a_problem = span.iter().any(|&j| {
            PROBLEMS
                .iter()
                .chain(DIFFERENCES)
                .any(|p| bare_words[j].contains(p))
        });
        if foreign_short && !denies_a_problem {
            i += 1;
            continue;
        }
        let run_before = !inside
            && !denies_a_problem
            && i.checked_sub(1)
                .is_some_and(|j| !clause_ends(words[j]) && is_run_or_pass(&bare_words[j]));
        // "`make check` mi ne rulis" (I did not run it, in a language no table has): the
        // agent's own "I … not" denies what it did, never a problem the check found.
        let mine = !inside
            && !denies_a_problem
            && i.checked_sub(1)
                .is_some_and(|j| FIRST_PERSON.contains(&bare_words[j].as_str()));
        let of_run_or_pass = span.iter().any(|&j| is_run_or_pass(&bare_words[j]))
            || (inside && is_run_or_pass(words[i]))
            || run_before
            || mine;
        negated_pass |= of_run_or_pass;
        if !span.is_empty() && !of_run_or_pass {
            denied = true;
            problem |= denies_a_problem
                || span
                    .iter()
                    .any(|&j| forms::any_in(&bare_words[j], Sets::FAILED));
            for j in (i..end).chain(span.iter().copied()) {
                gone[j] = true;
            }
        }
        i = end;
    }
    let rest = words
        .iter()
        .zip(&gone)
        .filter(|(_, g)| !**g)
        .map(|(w, _)| *w)
        .collect::<Vec<_>>()
        .join(" ");
    Denials {
        rest,
        denied,
        negated_pass,
        problem,
    }
}

/// Whether a word is a check's run or its pass: a negation of it says the check was not
/// run or did not pass.
pub(super) fn is_run_or_pass(word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    RUN_OR_PASS
        .iter()
        .any(|s| word.starts_with(s) || (!s.is_ascii() && word.contains(s)))
        || PASSED.iter().any(|p| !p.contains(' ') && word == *p)
        || LANGS
            .iter()
            .flat_map(|l| l.passed.iter())
            .map(|p| p.trim())
            .any(|p| p.chars().count() >= 3 && !p.contains(' ') && word.starts_with(p))
}

/// Stems of a check's run, its pass or its being done, in the tables' languages and
/// beyond: a negation before one denies the check, not a problem it found.
pub(super) const RUN_OR_PASS: &[&str] = &[
    // Fixing, in verb-final languages: "경고는 아직 고치지 않았습니다" (the warning is not
    // fixed yet) denies the fix, not the warning.
    "고치",
    "수정하",
    "修正",
    "直し",
    "直して",
    "修复",
    "修復",
    "ठीक",
    "düzelt",
    "run",
    "ran",
    "execut",
    "launch",
    "start",
    "tried",
    "tested",
    "checked",
    "verif",
    "pass",
    "succe",
    "fix",
    "resolv",
    "done",
    "finish",
    "complet",
    "yet",
    "work",
    "ausgeführt",
    "ausführ",
    "gelaufen",
    "lauf",
    "gestartet",
    "geprüft",
    "getestet",
    "bestanden",
    "behoben",
    "fertig",
    // Run in more languages ("`cargo clippy` nem futott", "mi ne rulis", "nu a rulat").
    "futott",
    "futtat",
    "lefut",
    "ajettu",
    "ajanut",
    "ajoin",
    "suorit",
    "käivit",
    "rulat",
    "rulis",
    "rulează",
    "paleid",
    "palaist",
    "izpild",
    "zagnal",
    "pokren",
    "izvrš",
    "пусна",
    "изпълн",
    "הרצ",
    "اجرا",
    "চালা",
    "รัน",
    "pinatakbo",
    "endesha",
    "llançat",
    "lancé",
    "exécut",
    "vérifi",
    "testé",
    "réussi",
    "corrig",
    "ejecut",
    "corrid",
    "probad",
    "verificad",
    "pasad",
    "pasa",
    "arreglad",
    "esegu",
    "lanciat",
    "verificat",
    "superat",
    "passat",
    "corrett",
    "rodad",
    "rodou",
    "testad",
    "passou",
    "passam",
    "uitgevoerd",
    "gedraaid",
    "getest",
    "geslaagd",
    "запуск",
    "запуст",
    "выполн",
    "провер",
    "прогн",
    "прош",
    "исправ",
    "uruchom",
    "wykonan",
    "sprawdz",
    "przetestow",
    "przesz",
    "napraw",
    "çalıştır",
    "koş",
    "geç",
    "chạy",
    "thực thi",
    "jalan",
    "dijalankan",
    // Malay and Indonesian prefix their verbs: "tidak berjalan" (did not run).
    "berjalan",
    "menjalan",
    "lulus",
    "実行",
    "走",
    "运行",
    "執行",
    "跑",
    "通过",
    "通過",
    "실행",
    "돌리",
    "통과",
    "चला",
    "पास",
    "تشغيل",
    "شغّل",
    "تنفيذ",
    "نجح",
    "körd",
    "kört",
    "körde",
    "godkän",
    "spušt",
    "spust",
    "prošl",
    "έτρεξ",
    "εκτελ",
    "πέρασ",
    "запущ",
    "пройш",
    "виконан",
    // Installed, available, found: a check that is not is one that did not run.
    "install",
    "instal",
    "disponib",
    "available",
    "verfügbar",
    "vorhanden",
    "установ",
    "встанов",
    "доступ",
    "zainstal",
    "nainstal",
    "dostęp",
    "kurulu",
    "yüklü",
    "cài",
    "terpasang",
    "tersedia",
    "インストール",
    "安装",
    "安裝",
    "설치",
    "इंस्टॉल",
    "उपलब्ध",
    "مثبت",
    "متاح",
    "εγκατ",
    "διαθέσιμ",
    "installerad",
    // Run and done in more of the tables' languages ("את `jest` לא הרצתי", "det har jeg
    // ikke gjort"): a negation before one denies the run, not a problem.
    "kørt",
    "kørte",
    "kjørt",
    "kjørte",
    "gjort",
    "gjord",
    "gemacht",
    "hecho",
    "feito",
    "fatto",
    "gedaan",
    "zrobi",
    "сдела",
    "зроби",
    "yapıl",
    "tehty",
    "ajettu",
    "ajoin",
    "suoritet",
    "futtat",
    "lefut",
    "rulat",
    "executat",
    "pokren",
    "zagnal",
    "käivit",
    "paleid",
    "palaid",
    "пусна",
    "изпълн",
    "הרצ",
    "הורצ",
    "اجرا",
    "چلا",
    "চালা",
    "รัน",
    "endesha",
    "pinatakbo",
    "أفعل",
    "فعلت",
    "فعل ",
    // Formatted (the participle: "keine Formatierungs-Diffs" denies a problem): "není
    // naformátovaný" says the format check does not pass.
    "formatted",
    "formatiert",
    "formaté",
    "formateado",
    "formatado",
    "formattato",
    "geformatteerd",
    "formaterad",
    "formateret",
    "formatert",
    "sformatowan",
    "naformátovan",
    "отформатирован",
    "відформатован",
    "asennet",
    "podido",
    "pude",
    "konnte",
    "potuto",
    "смог",
    "zdołał",
];

/// The phrases of `v` that deny a problem ("keine einzige warnung", "エラーなし").
pub(super) fn denied_problems(v: &str) -> Vec<String> {
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

/// Whether `form` stands in `text` as the tables match ([`forms::Stem`]).
pub(super) fn has_stem(text: &str, form: &'static str) -> bool {
    forms::Stem::new(form).is_some_and(|s| s.is_in(text))
}
