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
//! indexed by first character and built once per process ([`forms`]).

mod forms;

pub(super) use forms::read_as;

use super::lang::{fold, number_of, LANGS};
use super::vocab::{self, Change, Claim, Kind, Listed, Reading};
use forms::{has_word, Sets};
use std::sync::OnceLock;

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
    // Hungarian puts "there is none" after the noun too.
    "sincs",
    "nincs",
    "nincsenek",
    "nincsen",
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

/// Stems of "warning", in the tables' languages and beyond.
const WARNING_WORDS: &[&str] = &[
    "warning",
    "warnung",
    "avertissement",
    "advertencia",
    "avvis",
    "aviso",
    "waarschuwing",
    "предупрежд",
    "попередж",
    "ostrzeż",
    "uyarı",
    "cảnh báo",
    "peringatan",
    "varning",
    "varovn",
    "upozorn",
    "προειδοπ",
    "警告",
    "경고",
    "चेतावनी",
    "تحذير",
    "אזהר",
    "advarsel",
    "varoitu",
    "figyelmeztet",
    "avertisment",
    "lint",
];

/// Marks the lint and build claims whose sentence says the check printed no warnings
/// ("`cargo clippy`: inga varningar", "il ne remonte aucun avertissement", "경고 없음"):
/// a run that printed warnings does not back them, even when it exited 0.
pub fn mark_no_warnings(readings: &mut [Reading]) {
    let count = |v: &str| {
        WARNING_WORDS
            .iter()
            .map(|w| v.matches(w).count())
            .sum::<usize>()
    };
    for r in readings.iter_mut() {
        if !r
            .claims
            .iter()
            .any(|c| matches!(c.kind, Kind::Lint | Kind::Build))
        {
            continue;
        }
        let v = fold(&r.sentence.to_lowercase());
        let said = count(&v);
        if said == 0 {
            continue;
        }
        let (rest, denied) = without_denials(&v);
        let zero = ["0 warning", "zero warning", "no warning"]
            .iter()
            .any(|z| v.contains(z));
        if zero || denied && count(&rest) < said {
            for c in r
                .claims
                .iter_mut()
                .filter(|c| matches!(c.kind, Kind::Lint | Kind::Build))
            {
                c.no_warnings = true;
            }
        }
    }
}

/// Stems of "copied", in the tables' languages and beyond.
const COPY_WORDS: &[&str] = &[
    "copied",
    "kopiert",
    "copié",
    "copiad",
    "copiat",
    "copiou",
    "copie ",
    "gekopieerd",
    "скопир",
    "копиров",
    "скопіюв",
    "копіюв",
    "skopiow",
    "zkopírov",
    "kopierad",
    "kopierat",
    "kopierte",
    "kopieret",
    "kopyala",
    "sao chép",
    "menyalin",
    "disalin",
    "コピー",
    "复制",
    "複製",
    "拷贝",
    "복사",
    "कॉपी",
    "نسخت",
    "نسخ ",
    "αντέγραψ",
    "αντιγράφ",
    "העתק",
    "คัดลอก",
    "kopioi",
];

/// Marks the copies a report says it made ("copied `src/stats.js` into `dist/`",
/// "`.env.example` şablonunu `.env` olarak kopyaladım", "已将 `a` 复制到 `b`"): the last
/// path of the sentence is where the copy went, in every word order the tables read, and
/// the claim is that it was written in this turn. A sentence that denies, plans, reports
/// a failure or speaks of before claims none.
pub fn mark_copies(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        // The clause that copies: "… kopyaladım; uygulama … açılacak" plans only after.
        let Some(clause) = r
            .sentence
            .split([';', '；', '。'])
            .find(|c| {
                let lower = fold(&unquoted(c).to_lowercase());
                COPY_WORDS.iter().any(|w| {
                    if w.is_ascii() {
                        has_stem(&lower, w)
                    } else {
                        lower.contains(w.trim())
                    }
                })
            })
            .map(str::to_owned)
        else {
            continue;
        };
        if !clause_states_as_done(&clause) {
            continue;
        }
        // Where the copy went: the last path no "from" word marks as the source.
        let paths = sentence_paths(&clause);
        let Some(t) = paths.iter().rposition(|(_, from)| !from) else {
            continue;
        };
        let target = &paths[t].0;
        if paths.iter().filter(|(p, _)| p == target).count() > 1
            || r.claims.iter().any(|c| {
                matches!(&c.kind, Kind::File { path, .. } | Kind::Dir { path, .. } if path == target)
            })
        {
            continue;
        }
        let kind = if target.ends_with('/') {
            Kind::Dir {
                path: target.trim_end_matches('/').to_owned(),
                change: Change::Modified,
            }
        } else {
            Kind::File {
                path: target.clone(),
                change: Change::Modified,
            }
        };
        let mut claim = Claim::read(kind, &r.sentence);
        claim.via_copy = true;
        claim.weaken(
            "a copy the message describes, and no copy command of this turn names where it went",
        );
        add(r, claim);
    }
}

/// The paths a sentence names, in order, each with whether a "from" word marks it as a
/// source ("from `a`", "`a` から", "`a` 에서", "用 `a`"): code spans with a path's shape,
/// and bare words with a file's (`dist/stats.js`).
fn sentence_paths(sentence: &str) -> Vec<(String, bool)> {
    let mut words: Vec<(String, bool)> = Vec::new();
    for (i, part) in sentence.split('`').enumerate() {
        if i % 2 == 1 {
            words.push((part.trim().to_owned(), true));
        } else {
            words.extend(part.split_whitespace().map(|w| (w.to_owned(), false)));
        }
    }
    let lower = |w: &str| w.to_lowercase();
    let mut out = Vec::new();
    for (i, (w, quoted)) in words.iter().enumerate() {
        let path = if *quoted {
            (!w.contains(char::is_whitespace))
                .then(|| vocab::path_of(w, true))
                .flatten()
        } else {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric() && !"./_-".contains(c));
            let w = w.trim_end_matches('.');
            (w.contains(['/', '.']) && !w.contains(".."))
                .then(|| vocab::path_of(w, false))
                .flatten()
        };
        let Some(path) = path else {
            continue;
        };
        let before = i
            .checked_sub(1)
            .map(|j| lower(&words[j].0))
            .unwrap_or_default();
        let after = words.get(i + 1).map(|(w, _)| lower(w)).unwrap_or_default();
        let from = FROM_BEFORE
            .iter()
            .any(|f| before.trim_matches(|c: char| !c.is_alphanumeric()) == *f)
            || FROM_AFTER.iter().any(|f| after.starts_with(f));
        out.push((path, from));
    }
    out
}

/// Words before a path that make it a copy's source.
const FROM_BEFORE: &[&str] = &[
    "from", "von", "aus", "de", "desde", "da", "dal", "dalla", "van", "uit", "из", "с", "з", "із",
    "zi", "ze", "z", "från", "fra", "από", "apo", "dari", "từ", "kaynak", "用", "从", "從", "से",
    "من",
];

/// Words after a path that make it a copy's source.
const FROM_AFTER: &[&str] = &[
    "から", "에서", "से", "'dan", "'den", "dan", "den", "tan", "ten",
];

/// Words for a tag, in the tables' languages and beyond.
const TAG_WORDS: &[&str] = &[
    "tag",
    "tags",
    "tagged",
    "tagge",
    "étiquet",
    "etiquet",
    "etichett",
    "тег",
    "тэг",
    "znacznik",
    "otagow",
    "štítk",
    "značk",
    "taggad",
    "taggat",
    "ετικέτ",
    "标签",
    "標籤",
    "标记",
    "タグ",
    "태그",
    "टैग",
    "وسم",
    "تاغ",
    "thẻ",
    "etiket",
    "תג",
];

/// Words for a branch.
const BRANCH_WORDS: &[&str] = &[
    "branch",
    "zweig",
    "branche",
    "rama",
    "ramo",
    "ветк",
    "ветв",
    "гілк",
    "гілц",
    "gałę",
    "větev",
    "větv",
    "gren",
    "κλάδ",
    "分支",
    "ブランチ",
    "브랜치",
    "शाखा",
    "فرع",
    "nhánh",
    "cabang",
    "haara",
    "ענף",
];

/// Marks the tags and branches a report says are there ("tagged `v0.2.0`", "在新分支
/// `feat/x` 上"): each is a claim the repository has it. Read in any language from the
/// name's shape (a version tag; a branch name in a code span) and a word for tag or
/// branch beside it; a sentence that denies, plans or asks claims none.
pub fn mark_git_refs(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let lower = fold(&r.sentence.to_lowercase());
        let has = |words: &[&'static str]| {
            words.iter().any(|w| {
                if w.is_ascii() {
                    has_stem(&lower, w)
                } else {
                    lower.contains(w)
                }
            })
        };
        let mut names: Vec<(String, bool)> = Vec::new();
        if has(TAG_WORDS) {
            for w in lower.split(|c: char| c.is_whitespace() || "`'\"«»“”()[]，。、：".contains(c))
            {
                let w = w.trim_end_matches([',', '.', ';', ':', '!']);
                if is_version_tag(w) && !names.iter().any(|(n, _)| n == w) {
                    names.push((w.to_owned(), true));
                }
            }
        }
        if has(BRANCH_WORDS) {
            for span in r.sentence.split('`').skip(1).step_by(2) {
                let span = span.trim();
                if is_branch_name(span) && !names.iter().any(|(n, _)| n == span) {
                    names.push((span.to_owned(), false));
                }
            }
            // Written bare right after the word ("Bytte till grenen hotfix/port").
            let words: Vec<&str> = r.sentence.split_whitespace().collect();
            for pair in words.windows(2) {
                let word = fold(&pair[0].to_lowercase());
                let name = pair[1].trim_end_matches([',', '.', ';', ':', ')', '!']);
                if BRANCH_WORDS.iter().any(|b| word.starts_with(b))
                    && !name.contains('`')
                    && name.contains('/')
                    && is_branch_name(name)
                    && !names.iter().any(|(n, _)| n == name)
                {
                    names.push((name.to_owned(), false));
                }
            }
        }
        // Whether the sentence states what is: read only where it names a ref (the forms
        // it is read with are thousands).
        if names.is_empty() || !states_as_done(r) {
            continue;
        }
        for (name, tag) in names {
            let pushed_there = r.claims.iter().any(|c| {
                matches!(&c.kind, Kind::Push { branch: Some(b) } if *b == name)
                    || matches!(&c.kind, Kind::File { path, .. } if *path == name)
            });
            if pushed_there {
                // A push claim to it reads the branch already; a file claim of the same
                // name is dropped when the project has no such path.
                r.claims
                    .retain(|c| !matches!(&c.kind, Kind::File { path, .. } if *path == name));
                if !tag {
                    continue;
                }
            }
            let claim = Claim::read(Kind::Ref { name, tag }, &r.sentence);
            add(r, claim);
        }
    }
}

/// Whether a reading states what is, as done: no question, denial, plan, instruction or
/// failure in its own words (a quoted commit subject or a code span is a name, not its
/// words: "commit "calc: add min"" asks for nothing).
fn states_as_done(r: &Reading) -> bool {
    clause_states_as_done(&r.sentence)
        && !r.why.iter().any(|w| {
            [
                "plan",
                "negated",
                "future",
                "condition",
                "failure",
                "question",
                "someone",
            ]
            .iter()
            .any(|x| w.contains(x))
        })
}

/// Text without the words that are paths (`.env.example`, `dist/a.js`): a name, not
/// words that plan or deny.
fn without_paths(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '.' && c != '/');
            !(w.contains('/') || w.trim_end_matches('.').contains('.'))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a clause states what is, as done, by its own words (quotes, code spans and
/// paths are names): no question, denial, plan, instruction, failure or refusal.
fn clause_states_as_done(text: &str) -> bool {
    let own = without_paths(&unquoted(text));
    let lower = fold(&own.to_lowercase());
    reports(&own)
        && !forms::any_in(&lower, Sets::NOT_A_PASS | Sets::FAILED)
        && !vocab::refused(&lower)
}

/// A sentence without what it quotes: code spans and quoted strings.
fn unquoted(sentence: &str) -> String {
    let mut out = String::new();
    let mut close: Option<char> = None;
    for c in sentence.chars() {
        match close {
            Some(end) if c == end => close = None,
            Some(_) => {}
            None => match c {
                '`' => close = Some('`'),
                '"' => close = Some('"'),
                '«' => close = Some('»'),
                '“' => close = Some('”'),
                '„' => close = Some('“'),
                '「' => close = Some('」'),
                '『' => close = Some('』'),
                _ => out.push(c),
            },
        }
        if close.is_some() && out.ends_with(|x: char| x != ' ') {
            out.push(' ');
        }
    }
    out
}

/// Words for a commit, in the tables' languages and beyond (the English word is the
/// one most agents use in any language).
const COMMIT_WORDS: &[&str] = &[
    "commit",
    "коммит",
    "комміт",
    "コミット",
    "提交",
    "커밋",
    "कमिट",
    "كوميت",
    "κομμιτ",
];

/// Marks the commits a report names by their subject ("ho registrato tutto nel commit
/// «calc: aggiunge pow»", "commit "calc: add min" के बाद"): a commit of this turn is
/// claimed, whatever the sentence's language, unless the sentence denies, plans or
/// reports a refusal, or a reader read a commit claim in it already.
pub fn mark_named_commits(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if r.claims
            .iter()
            .any(|c| matches!(c.kind, Kind::Commit { .. }))
        {
            continue;
        }
        let lower = fold(&r.sentence.to_lowercase());
        let named = COMMIT_WORDS.iter().any(|w| {
            lower.match_indices(w).any(|(i, w)| {
                // The subject stands right beside the word: "commit «…»", "commit: "…"",
                // ""…" के बाद commit", "「…」をコミット".
                let after = lower[i + w.len()..].trim_start_matches([' ', ':']);
                let before = lower[..i].trim_end();
                let word_ends = !lower[i + w.len()..].starts_with(char::is_alphanumeric);
                word_ends && after.starts_with(['"', '«', '“', '„', '「'])
                    || before.ends_with(['"', '»', '”', '“', '」'])
            })
        });
        if named && states_as_done(r) {
            let claim = Claim::read(Kind::Commit { hash: None }, &r.sentence);
            add(r, claim);
        }
    }
}

/// Words that say a step is done, as a status row's whole value ("commit + push: kész").
const DONE: &[&str] = &[
    "done",
    "complete",
    "completed",
    "fertig",
    "erledigt",
    "hecho",
    "listo",
    "fait",
    "terminé",
    "feito",
    "pronto",
    "fatto",
    "klaar",
    "gedaan",
    "готово",
    "выполнено",
    "зроблено",
    "gotowe",
    "zrobione",
    "tamam",
    "tamamlandı",
    "xong",
    "selesai",
    "完了",
    "完成",
    "已完成",
    "완료",
    "पूरा",
    "تم",
    "έγινε",
    "klart",
    "færdig",
    "ferdig",
    "hotovo",
    "hotové",
    "kész",
    "valmis",
    "gata",
    "fet",
    "gotovo",
    "tapos",
    "imekamilika",
];

/// Words for a push, beside [`COMMIT_WORDS`] for a commit.
const PUSH_WORDS: &[&str] = &[
    "push",
    "пуш",
    "プッシュ",
    "推送",
    "푸시",
    "पुश",
    "دفع",
    "پوش",
    "พุช",
    "পুশ",
    "פוש",
];

/// Marks the git steps a status row says are done ("commit + push a `main` ágra: kész",
/// "Push → ✅"): the commit, and the push of the branch a code span names, in any
/// language. The value is the verdict and nothing more; a row a reader read a claim of
/// the same kind in already is left to it.
pub fn mark_git_rows(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let sentence = r.sentence.clone();
        let row = sentence.trim().trim_start_matches(['-', '*', '•', ' ']);
        let Some((subject, value)) = BARE_SEPARATORS
            .iter()
            .filter_map(|sep| row.rsplit_once(sep))
            .max_by_key(|(subject, _)| subject.len())
        else {
            continue;
        };
        let value = fold(
            &value
                .trim()
                .trim_end_matches(['.', '。', '!'])
                .to_lowercase(),
        );
        let done = value.split_whitespace().count() <= 3
            && (DONE.iter().any(|d| has_word(&value, d)) || says_passed(&value))
            && !refutes(&value, true);
        if !done || subject.split_whitespace().count() > 10 {
            continue;
        }
        let lower = fold(&unquoted(subject).to_lowercase());
        let commit = COMMIT_WORDS.iter().any(|w| lower.contains(w));
        let push = PUSH_WORDS.iter().any(|w| lower.contains(w));
        if (!commit && !push) || !clause_states_as_done(subject) || !clause_states_as_done(&value) {
            continue;
        }
        let has_commit = r
            .claims
            .iter()
            .any(|c| matches!(c.kind, Kind::Commit { .. }));
        let has_push = r.claims.iter().any(|c| matches!(c.kind, Kind::Push { .. }));
        if commit && !has_commit {
            let claim = Claim::read(Kind::Commit { hash: None }, &r.sentence);
            add(r, claim);
        }
        if push && !has_push {
            let branch = subject
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::trim)
                .find(|b| {
                    !b.is_empty()
                        && b.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "/-_.".contains(c))
                })
                .map(|b| b.trim_start_matches("origin/").to_owned());
            let claim = Claim::read(Kind::Push { branch }, &r.sentence);
            add(r, claim);
        }
    }
}

/// Marks the pushes a report states as a place the work is at ("Commit „notes: third“
/// liegt auf origin/main", "커밋해서 origin/main에 올림", "відправлено на origin/main"): a
/// clause that names a remote branch (`origin/<branch>`) beside a commit claims the push
/// of that branch, in any language. A clause that bases, rebases, tracks or compares
/// claims none, nor one that denies, plans or reports a refusal.
pub fn mark_remote_pushes(readings: &mut [Reading]) {
    const BASED: &[&str] = &[
        "rebase", "based", "base", "onto", "from", "track", "behind", "ahead", "compare", "diff",
        "fetch", "pull", "merge", "spår", "verfolg", "basier", "bas", "suiv", "desde", "从",
        "基于", "から", "기반", "से", "من", "από", "з ", "из ",
    ];
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if r.claims.iter().any(|c| matches!(c.kind, Kind::Push { .. })) {
            continue;
        }
        let committed = r
            .claims
            .iter()
            .any(|c| matches!(c.kind, Kind::Commit { .. }));
        for clause in r.sentence.split([';', '；', '。', ',', '，']) {
            let lower = fold(&clause.to_lowercase());
            let Some(at) = lower.find("origin/") else {
                continue;
            };
            let branch: String = lower[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || "/-_.".contains(*c))
                .collect();
            let branch = branch.trim_end_matches(['.', '/']).to_owned();
            let names_commit = committed || COMMIT_WORDS.iter().any(|w| lower.contains(w));
            let own_lower = fold(&without_paths(&unquoted(clause)).to_lowercase());
            if branch.is_empty()
                || !names_commit
                || BASED.iter().any(|b| own_lower.contains(b))
                || !clause_states_as_done(clause)
            {
                continue;
            }
            let claim = Claim::read(
                Kind::Push {
                    branch: Some(branch),
                },
                &r.sentence,
            );
            add(r, claim);
            break;
        }
    }
}

/// A version tag's shape: `v1.2`, `v0.2.0`, `v1.0.0-rc.1`.
fn is_version_tag(w: &str) -> bool {
    let Some(rest) = w.strip_prefix('v') else {
        return false;
    };
    let core = rest.split(['-', '+']).next().unwrap_or(rest);
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// A branch name's shape in a code span: one word of a ref's characters with a `/` or
/// `-` (`feat/port-9000`, `fix-typo`), no file extension, no option.
fn is_branch_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(['-', '/', '.'])
        && !s.ends_with(['/', '.'])
        && s.contains(['/', '-'])
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/-_.".contains(c))
        && !s.contains("..")
        && !s.rsplit('/').next().unwrap_or(s).contains('.')
        && !s.starts_with("origin/")
        && s.chars().any(|c| c.is_ascii_alphabetic())
}

/// Adds to `readings` the claim of each result row no reader made one for.
pub fn add_row_claims(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        for (span, value, kind) in results_in(&r.sentence) {
            // A reader that read a claim about this very command had its say; so did one
            // that read this check's claim from a tool named bare ("Jest: 14 passed").
            let claim = row_claim(&span, &value, kind, &r.sentence);
            let kind_of = |c: &Claim| {
                matches!(
                    (&c.kind, &claim.kind),
                    (
                        Kind::Tests { .. } | Kind::Failures { .. },
                        Kind::Tests { .. }
                    ) | (Kind::Build | Kind::Lint, Kind::Build | Kind::Lint)
                )
            };
            if r.claims
                .iter()
                .any(|c| c.commands.contains(&span) && kind_of(c))
            {
                continue;
            }
            // A claim of the same check that names this tool, or names none while the row
            // names none either, is the row's own.
            let same_check = |c: &Claim| {
                std::mem::discriminant(&c.kind) == std::mem::discriminant(&claim.kind)
                    && (c.tools.iter().any(|t| claim.tools.contains(t))
                        || claim.tools.is_empty() && !vocab::check_command_span(&span))
            };
            if r.claims.iter().any(same_check) {
                continue;
            }
            add(r, claim);
        }
    }
}

/// The claim of a row: the check its subject names passed.
fn row_claim(span: &str, value: &str, kind: Kind, sentence: &str) -> Claim {
    let mut claim = Claim::read(kind, sentence);
    // The tools its first words name, and the kinds of tests the whole value names
    // ("cargo test: unitários ok, integração ok"); not a tool a later clause names
    // ("passa, ma la suite jest …").
    let head = value.split([',', '，', '、']).next().unwrap_or(value);
    claim.tools = super::named::named_in(&format!("{span} {head}"), &claim.kind);
    for kind in super::named::named_in(&format!("{span} {value}"), &claim.kind) {
        if kind.kind.is_some() && !claim.tools.contains(&kind) {
            claim.tools.push(kind);
        }
    }
    claim.bind_spans([span]);
    // "4 件成功", "OK (3)", "4개 통과": the count the value gives. A row's number may be
    // something else than the tests that passed, so a mismatch is only reported.
    if claim.kind == (Kind::Tests { count: None }) {
        if let Some(n) = value_count(head) {
            claim.kind = Kind::Tests { count: Some(n) };
            claim.count_sure = false;
        }
    }
    claim
}

/// The first number of a row's value: a word that opens with digits ("4", "4개", "(3)"),
/// the whole of a fraction ("2/2").
fn value_count(head: &str) -> Option<u64> {
    head.split_whitespace().find_map(|w| {
        let w = w.trim_start_matches(['(', '（']);
        let w = w.split_once('/').map_or(w, |(_, total)| total);
        let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
        (!digits.is_empty()).then(|| digits.parse().ok()).flatten()
    })
}

/// Adds the claims of rows whose subject and value do not stand in one sentence, read
/// from the message's lines: a table whose header names the checks and whose rows give
/// their results, a label naming a check with its value on the next line ("**Lint
/// (`cargo clippy`):**" then "no warnings"), and a status line of items (`unittest OK
/// (3) · py_compile app/a.py OK`, `cargo test 4개 통과 / clippy 경고 없음`). Each is read
/// as the row it stands for (`` `cargo clippy`: no warnings ``).
pub fn add_structured_rows(message: &str, readings: &mut Vec<Reading>) {
    let lines = plain_lines(message);
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].starts_with('|') {
            let start = i;
            while i < lines.len() && lines[i].starts_with('|') {
                i += 1;
            }
            table_columns(&lines[start..i], &mut rows);
            continue;
        }
        if let Some(subject) = label_subject(lines[i]) {
            let next = lines.get(i + 1).map(|l| value_line(l)).unwrap_or_default();
            if let Some(value) = next {
                rows.push((
                    format!("{} {}", lines[i], lines[i + 1]),
                    format!("`{subject}`: {value}"),
                ));
            }
        }
        status_items(lines[i], &mut rows);
        i += 1;
    }
    for (shown, row) in rows {
        for (span, value, kind) in results_in(&row) {
            let mut claim = row_claim(&span, &value, kind.clone(), &shown);
            if already_read(readings, &span, &kind) {
                // The reader's claim takes the count the row gives, when it read none.
                if let Kind::Tests { count: Some(n) } = claim.kind {
                    add_count(readings, &span, n);
                }
                continue;
            }
            // A command the tables know by name (`bash -n a.sh`, `git diff --check`) is
            // backed only by its own run, as a check command in a span is.
            if claim.commands.is_empty() && span.split_whitespace().count() >= 2 {
                if named_check(&span).is_some() {
                    claim.commands.push(span.clone());
                }
            }
            readings.push(Reading {
                sentence: shown.clone(),
                claims: vec![claim],
                why: Vec::new(),
                skipped: false,
            });
        }
    }
}

/// The message's lines that are its own words: trimmed, without fenced blocks and
/// quotations, without emphasis marks.
fn plain_lines(message: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    for line in message.lines() {
        let t = line.trim();
        if let Some(f) = fence {
            if t.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = Some(&t[..3]);
            continue;
        }
        if t.is_empty() || t.starts_with('>') {
            continue;
        }
        out.push(t);
    }
    out
}

/// A row's text without list marks and emphasis.
fn row_text(line: &str) -> String {
    let t = line.trim_start_matches(|c: char| c.is_whitespace() || "-*•+#".contains(c));
    t.replace("**", "").replace("__", "").trim().to_owned()
}

/// The check a label line names when its value is on the next line: "Kontrola syntaxe
/// (`bash -n`):", "**Formatering (`cargo fmt --check`):**", "`cargo clippy`:".
fn label_subject(line: &str) -> Option<String> {
    let t = row_text(line);
    // A label ends with a colon; a heading ("### Clippy", "**`cargo fmt --check`**")
    // labels what is under it as well.
    let heading = line.starts_with('#')
        || line.starts_with("**") && line.ends_with("**") && line.matches("**").count() == 2;
    let label = t
        .strip_suffix(':')
        .or_else(|| t.strip_suffix('：'))
        .or(heading.then_some(t.as_str()))?;
    let spans = label.split('`').skip(1).step_by(2);
    let bare = without_asides(label.trim());
    spans
        .map(str::trim)
        .find(|s| check(s).is_some())
        .map(str::to_owned)
        .or_else(|| check(label.trim()).map(|_| label.trim().to_owned()))
        // "Clippy (`-D warnings`):": the tool, its options aside.
        .or_else(|| check(&bare).map(|_| bare.clone()))
        .or_else(|| bracketed_check(label.trim()))
}

/// The line under a label, when it is a value: short, and not a label, a heading or a
/// table of its own.
fn value_line(line: &str) -> Option<String> {
    if line.starts_with(['|', '#']) || line.ends_with([':', '：']) {
        return None;
    }
    let t = row_text(line);
    (!t.is_empty() && t.split_whitespace().count() <= 12).then_some(t)
}

/// A table's cells, trimmed, without the edges' empty ones.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner
        .split('|')
        .map(|c| c.trim().replace("**", ""))
        .collect()
}

/// Rows of a table whose header cells name checks: each row's cell under one is its
/// result ("| cargo test | cargo clippy -- -D warnings |" over "| 4 件成功 | 警告 0 |").
fn table_columns(table: &[&str], rows: &mut Vec<(String, String)>) {
    let Some((header, body)) = table.split_first() else {
        return;
    };
    let header = cells(header);
    let subject = |c: &str| {
        let c = c.trim().trim_matches('`').trim();
        check(c).map(|_| c.to_owned())
    };
    let checks: Vec<(usize, String)> = header
        .iter()
        .enumerate()
        .filter_map(|(j, c)| subject(c).map(|s| (j, s)))
        .collect();
    if checks.is_empty() {
        // Rows whose first cell names a check, and more than the check ("`cargo doc
        // --no-deps` med advarsler som feil | rent"): the next cell is its value.
        for line in body {
            let row = cells(line);
            let Some(first) = row.first() else { continue };
            let Some(span) = first
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::trim)
                .find(|s| check(s).is_some())
            else {
                continue;
            };
            if first.trim().trim_matches('`') == span {
                // A cell that is the command alone is read as a row already.
                continue;
            }
            if let Some(value) = row.get(1).filter(|v| !v.trim().is_empty()) {
                rows.push((row.join(" | "), format!("`{span}`: {}", value.trim())));
            }
        }
        return;
    }
    for line in body {
        let row = cells(line);
        if row
            .iter()
            .all(|c| c.trim_matches(['-', ':', ' ']).is_empty())
            || row.len() != header.len()
            || row.iter().any(|c| subject(c).is_some())
        {
            continue;
        }
        for (j, name) in &checks {
            let value = row[*j].trim();
            if !value.is_empty() {
                rows.push((
                    format!("{} | {}", header.join(" | "), row.join(" | ")),
                    format!("`{name}`: {value}"),
                ));
            }
        }
    }
}

/// The items of a status line that lead with a check named bare, its value after it
/// with no separator ("Status: unittest OK (3) · py_compile app/report.py OK", "cargo
/// test 4개 통과 / clippy 경고 없음").
fn status_items(line: &str, rows: &mut Vec<(String, String)>) {
    if line.starts_with(['|', '#']) || line.contains('`') {
        return;
    }
    let t = row_text(line);
    let parts: Vec<&str> = [" · ", " / ", " | ", "; ", " • "]
        .iter()
        .find_map(|sep| {
            let parts: Vec<&str> = t.split(sep).collect();
            (parts.len() >= 2).then_some(parts)
        })
        .unwrap_or_else(|| vec![t.as_str()]);
    let single = parts.len() == 1;
    for part in parts {
        let part = part.trim().trim_end_matches(['.', '。']);
        // "Status: unittest OK": the label is no part of the item.
        let item = match part.split_once([':', '：']) {
            Some((label, rest)) if check(label.trim()).is_none() && !rest.trim().is_empty() => {
                rest.trim()
            }
            _ => part,
        };
        let words: Vec<&str> = item.split_whitespace().collect();
        if words.len() < 2 || single && words.len() > 8 {
            continue;
        }
        // The longest run of leading words that names a check; the rest is its value.
        let Some(k) = (1..words.len().min(7))
            .rev()
            .find(|&k| named_check(&words[..k].join(" ")).is_some())
        else {
            continue;
        };
        let value = words[k..].join(" ");
        if value.starts_with([':', '：', '-', '–', '—', '→']) {
            // A row with a separator of its own is read as one already.
            continue;
        }
        rows.push((
            line.to_owned(),
            format!("`{}`: {value}", words[..k].join(" ")),
        ));
    }
}

/// Gives the count `n` to the reader's countless tests claim about `span` (unsure: a
/// row's number may be another).
fn add_count(readings: &mut [Reading], span: &str, n: u64) {
    let flat = |s: &str| {
        s.replace('`', "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let span = flat(span);
    for r in readings
        .iter_mut()
        .filter(|r| flat(&r.sentence).contains(&span))
    {
        for c in r.claims.iter_mut() {
            if c.kind == (Kind::Tests { count: None }) {
                c.kind = Kind::Tests { count: Some(n) };
                c.count_sure = false;
                return;
            }
        }
    }
}

/// Whether a reader already read a claim of this kind about this check.
fn already_read(readings: &[Reading], span: &str, kind: &Kind) -> bool {
    let flat = |s: &str| {
        s.replace('`', "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let span = flat(span);
    readings.iter().any(|r| {
        r.claims.iter().any(|c| {
            std::mem::discriminant(&c.kind) == std::mem::discriminant(kind)
                && (c.commands.iter().any(|x| flat(x) == span) || flat(&r.sentence).contains(&span))
        })
    })
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

/// Whether a sentence reports what is: no question, denial, plan or instruction.
fn reports(sentence: &str) -> bool {
    let lower = fold(&sentence.to_lowercase());
    !(sentence.trim_end().ends_with(['?', '？'])
        || forms::any_in(&lower, Sets::NOT_THERE | Sets::NOT_A_REPORT))
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

/// Whether an item's description says the file is not there, or not yet. A long
/// description tells what the file does ("checks that the function is not called
/// twice"): a negation in it is about that, unless it opens the description; a
/// deletion, a plan or another's hand still counts anywhere.
fn denies_it_is_there(description: &str) -> bool {
    let lower = fold(&description.to_lowercase());
    let words: Vec<&str> = lower.split_whitespace().collect();
    if words.len() <= 6 {
        return forms::any_in(&lower, Sets::NOT_THERE);
    }
    forms::any_in(&words[..3].join(" "), Sets::NOT_THERE) || forms::any_in(&lower, Sets::GONE)
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
    // "✅ `python3 -m compileall -q app`: …": a checklist's mark is the row's verdict,
    // whatever language the words after it are in.
    let marked = MARKS.iter().any(|m| {
        sentence
            .trim_start_matches(|c: char| c.is_whitespace() || "-*•+".contains(c))
            .starts_with(m)
    });
    if !lead.starts_with('`') {
        let bare = BARE_SEPARATORS
            .iter()
            .filter_map(|s| lead.split_once(s))
            .min_by_key(|(subject, _)| subject.len());
        // A command written bare is the row's whole subject: no clause of a sentence
        // ("cargo test -q failed (…), so the `git commit` … — nothing committed").
        let bare = bare.filter(|(subject, _)| !subject.contains([',', '`', ';']));
        if let Some((subject, value)) = bare {
            // "sintaxi (bash -n): OK": a label whose command stands in its brackets.
            let subject = bracketed_check(subject.trim().trim_matches('*'))
                .unwrap_or_else(|| without_asides(subject.trim().trim_matches('*')));
            if let Some(kind) = check(&subject) {
                if let Some(head) = passes("", value, marked) {
                    out.push((subject, head, kind));
                }
            }
        }
    }
    // A tool named bare in prose, and the words after it ("rustfmt meldet keine
    // Abweichungen"): read as a span's are.
    let mut offset = 0;
    let mut prose_parts: Vec<(usize, &str)> = Vec::new();
    for (i, part) in sentence.split('`').enumerate() {
        if i % 2 == 0 {
            prose_parts.push((offset, part));
        }
        offset += part.len() + 1;
    }
    for (offset, part) in prose_parts {
        let lower = part.to_lowercase();
        for n in super::named::NAMED
            .iter()
            .filter(|n| !n.suite && n.kind.is_none())
        {
            for name in n.names.iter().filter(|w| !w.contains(' ') && w.len() >= 4) {
                let Some(at) = whole_word_at(&lower, name) else {
                    continue;
                };
                // Names that are words too (Polish "jest" is "is"; "black", "mocha") count
                // bare only written as a name: capitalised inside the sentence, or in a
                // compound ("mocha-набір").
                if AMBIGUOUS_NAMES.contains(name)
                    && !(part[at..].starts_with(char::is_uppercase)
                        && !part[..at].trim_end().is_empty()
                        && !part[..at].trim_end().ends_with(['.', '!', '?', ':']))
                    && !part[at + name.len()..].starts_with('-')
                {
                    continue;
                }
                let before = &part[..at];
                let before = before.rsplit(CLAUSE_STARTS).next().unwrap_or(before);
                let mut after = &sentence[offset + at + name.len()..];
                // A file or a key that holds the name (`jest.config.js`, `ruff_cache/`).
                if after.starts_with(['_', '/', '.', ':']) && !after.starts_with(": ") {
                    continue;
                }
                // Its options in brackets ("clippy (`-D warnings`) on puhdas") are no part
                // of the value.
                if let Some(rest) = after.trim_start().strip_prefix(['(', '（']) {
                    if let Some(close) = rest.find([')', '）']) {
                        after = &rest[close + 1..];
                    }
                }
                let value = after.split(VALUE_ENDS).next().unwrap_or(after);
                // A code span in the value is a name, not a word of it.
                let value: String = value.split('`').step_by(2).collect::<Vec<_>>().join(" ");
                let value = value.as_str();
                // "mocha-набір … я теж прогнав: обидва тести …, зелені": the verdict may
                // close the value, when no other tool stands in it.
                let closing = value.split_whitespace().count() <= 20
                    && named_check_in(value, name).is_none()
                    && says_passed(value)
                    && !refutes(&fold(&value.to_lowercase()), true);
                let verdict = passes(before, value, false)
                    .or_else(|| closing.then(|| value.trim().to_owned()));
                if let (Some(kind), Some(head)) = (check(name), verdict) {
                    if !out
                        .iter()
                        .any(|(s, _, _): &(String, String, Kind)| s == name)
                    {
                        out.push(((*name).to_owned(), head, kind));
                    }
                }
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
        // The value runs on past code spans that name no check ("two of three passed,
        // the `max` test failed"): they are names in it. Another check's span starts a
        // row of its own.
        let mut after = parts[i + 1].to_owned();
        for (j, part) in parts.iter().enumerate().skip(i + 2) {
            if after.contains(VALUE_ENDS) {
                break;
            }
            if j % 2 == 1 {
                if check(part.trim()).is_some() {
                    break;
                }
                after.push('·');
            } else {
                after.push_str(part);
            }
        }
        let value = after.split(VALUE_ENDS).next().unwrap_or(&after);
        let leads = i == 1 && lead.starts_with('`');
        if let Some(head) = passes(before, value, marked && leads) {
            out.push((span.to_owned(), head, kind));
        }
    }
    out
}

/// Another check tool named in `text` than `name`.
fn named_check_in(text: &str, name: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    super::named::NAMED
        .iter()
        .filter(|n| !n.suite && n.kind.is_none() && !n.names.contains(&name))
        .flat_map(|n| n.names.iter().copied())
        .find(|w| whole_word_at(&lower, w).is_some())
}

/// Tool names that are words of some language too.
const AMBIGUOUS_NAMES: &[&str] = &["jest", "black", "mocha", "biome"];

/// Where `word` stands in `text` as a whole word (not `black` in `blacklist`).
fn whole_word_at(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric() && c != '-' && c != '_' && c != '/')
            && after.is_none_or(|c| !c.is_alphanumeric() && c != '_')
    })
}

/// The check a label names in brackets ("sintaxi (bash -n)"), when its words name none.
fn bracketed_check(label: &str) -> Option<String> {
    if check(&without_asides(label)).is_some() {
        return None;
    }
    let open = label.find(['(', '（'])?;
    let inner = &label[open + label[open..].chars().next()?.len_utf8()..];
    let close = inner.find([')', '）'])?;
    let inner = inner[..close].trim().trim_matches('`').trim();
    check(inner).map(|_| inner.to_owned())
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

/// The check a row's subject is, when it is one: a check command (`cargo fmt --check`),
/// or a check tool named alone or by a command the tables know ("clippy", "unittest",
/// "bash -n scripts/a.sh", "git diff --check", "py_compile app/a.py"): a row is about
/// the check its subject names, whatever its value's language.
fn check(command: &str) -> Option<Kind> {
    if vocab::check_command_span(command) {
        if let Some(kind) = vocab::command_kind(command) {
            return Some(kind);
        }
    }
    named_check(command).map(|(_, kind)| kind)
}

/// The tool a row's subject names: the whole subject is the tool's name, or a command
/// that runs it (its name's words lead the subject, the rest are arguments: paths and
/// options).
fn named_check(subject: &str) -> Option<(&'static vocab::Named, Kind)> {
    let subject = subject.trim().trim_matches(['`', '*', '_']).trim();
    let lower = subject.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    if words.is_empty() || words.len() > 8 {
        return None;
    }
    let peeled = super::shellrun::peel(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>());
    // `python3 -m doctest a.py` runs the doc tests: the kind's, whatever the runner.
    if peeled.first().is_some_and(|p| p == "doctest") {
        return super::named::NAMED
            .iter()
            .find(|n| n.kind == Some("doc"))
            .map(|n| (n, Kind::Tests { count: None }));
    }
    super::named::NAMED
        .iter()
        .filter(|n| !n.suite && n.kind.is_none())
        .find(|n| {
            n.names.iter().chain(n.runs).any(|name| {
                let name: Vec<&str> = name.split_whitespace().collect();
                let leads = |w: &[String]| {
                    w.len() >= name.len() && w.iter().zip(&name).all(|(a, b)| a == b)
                        // What follows the name is arguments, not words of a sentence.
                        && w[name.len()..].iter().all(|a| is_argument(a))
                };
                let own: Vec<String> = words.iter().map(|w| w.to_string()).collect();
                leads(&own) || leads(&peeled)
            })
        })
        .map(|n| {
            let kind = match n.checks {
                vocab::Checks::Tests => Kind::Tests { count: None },
                vocab::Checks::Lint => Kind::Lint,
                vocab::Checks::Build => Kind::Build,
            };
            (n, kind)
        })
}

/// Whether a word after a command's name is one of its arguments: an option, a path, a
/// target (`-q`, `app/a.py`, `.`, `--`, `tests::unit`).
fn is_argument(word: &str) -> bool {
    word.starts_with('-')
        || word.contains(['/', '.', ':', '='])
        || word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && word.chars().any(|c| c == '_' || c.is_ascii_digit())
}

/// Whether the words after a command (`value`) say it passed, and neither they nor the
/// clause's words before it (`before`) take that back: the value, when they do.
fn passes(before: &str, value: &str, marked: bool) -> Option<String> {
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
        .split([',', '，', '、', '–', '—'])
        .next()
        .unwrap_or(value);
    if head.split_whitespace().count() > 12 {
        return None;
    }
    // "שתי הדוגמאות עוברות, אין כשלים": a problem denied by name after the verdict.
    let denied_later =
        value.split_whitespace().count() <= 16 && denials(&fold(&value.to_lowercase())).problem;
    // "two of the three passed", "3 件中 2 件": some passed, not the check.
    let some = vocab::says_only(value) || super::lang::some_of_all_words(value);
    let holds = (says_passed(head) || marked || denied_later)
        && !some
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
    let (rest, denied) = without_denials(&v);
    if denied {
        passed = true;
        v = rest;
    }
    let cleans = LANGS.iter().flat_map(|l| l.clean.iter().map(|c| c.trim()));
    for c in cleans.chain(denied_problems(&v).iter().map(String::as_str)) {
        if forms::contains(&v, c) {
            passed = true;
            v = v.replace(c, " ");
        }
    }
    for p in NOTHING_FOUND {
        if forms::contains(&v, p) {
            passed = true;
            v = v.replace(p, " ");
        }
    }
    for p in forms::passed_stems() {
        if p.is_in(&v) {
            passed = true;
            v = v.replace(p.text, " ");
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
    let d = denials(&v);
    if d.negated_pass {
        return true;
    }
    v = d.rest;
    let cleans = LANGS.iter().flat_map(|l| l.clean.iter().map(|c| c.trim()));
    for c in cleans
        .chain(denied_problems(&v).iter().map(String::as_str))
        .chain(NOTHING_FOUND.iter().copied())
    {
        if forms::contains(&v, c) {
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

/// `v` (lower-cased) without the problems it denies, and whether it denied one: a
/// negation of any table, or a zero, beside words that are neither the check's run nor
/// its pass ("nie ma uwag", "inga avvikelser", "कोई सिंटैक्स त्रुटि नहीं", "بدون أي
/// تحذيرات", "警告 0", "差分なし"). What the negation stands before is what it denies;
/// one that ends its clause ("… त्रुटि नहीं", "… hata yok") denies the words before it. A
/// negation of a run or a pass ("not run", "nicht ausgeführt", "не прошли") is left for
/// [`refutes`] to read: the value then says the check did not pass.
fn without_denials(v: &str) -> (String, bool) {
    let d = denials(v);
    (d.rest, d.denied)
}

/// What the negations of a value deny.
struct Denials {
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
fn denials(v: &str) -> Denials {
    static NEGATIONS: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    let negations = NEGATIONS.get_or_init(|| {
        let mut out: Vec<Vec<String>> = LANGS
            .iter()
            .flat_map(|l| l.negations.iter())
            .chain(NO_BEFORE)
            .chain(NO_AFTER)
            .chain(&["0", "zero", "零", "〇"])
            .map(|n| n.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
            .filter(|n| !n.is_empty())
            .collect();
        // The longest first: "ни одной" before "ни".
        out.sort_by_key(|n| std::cmp::Reverse(n.iter().map(String::len).sum::<usize>()));
        out.dedup();
        out
    });
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
        let whole = negations.iter().find(|n| {
            n.len() <= words.len() - i && n.iter().zip(&bare_words[i..]).all(|(a, b)| a == b)
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
        let denies_a_problem = span
            .iter()
            .any(|&j| PROBLEMS.iter().any(|p| bare_words[j].contains(p)));
        let run_before = !inside
            && !denies_a_problem
            && i.checked_sub(1)
                .is_some_and(|j| !clause_ends(words[j]) && is_run_or_pass(&bare_words[j]));
        let of_run_or_pass = span.iter().any(|&j| is_run_or_pass(&bare_words[j]))
            || (inside && is_run_or_pass(words[i]))
            || run_before;
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
fn is_run_or_pass(word: &str) -> bool {
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
const RUN_OR_PASS: &[&str] = &[
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
    // Formatted: "není naformátovaný" says the format check does not pass.
    "format",
    "formát",
    "sformatow",
    "отформат",
    "форматир",
    "відформат",
    "biçimlen",
    "フォーマット",
    "格式化",
    "포맷",
    "μορφοποι",
    "asennet",
    "podido",
    "pude",
    "konnte",
    "potuto",
    "смог",
    "zdołał",
];

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

/// Whether `form` stands in `text` as the tables match ([`forms::Stem`]).
fn has_stem(text: &str, form: &'static str) -> bool {
    forms::Stem::new(form).is_some_and(|s| s.is_in(text))
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
        // A tool named alone is the row's subject: its claim is backed by a run of it.
        assert_eq!(spans("- jest (spec/) → 통과 3/3"), ["jest"]);
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

    /// The claims `explain` reads in `message`, as text.
    fn claims_of(message: &str) -> Vec<String> {
        crate::audit::claims::explain(message)
            .into_iter()
            .flat_map(|r| r.claims)
            .filter(|c| c.listed == Listed::No)
            .map(|c| c.kind.to_string())
            .collect()
    }

    #[test]
    fn a_count_before_the_tests_noun_counts_the_failures() {
        assert_eq!(
            claims_of("Con `cargo test --no-fail-fast` quedan dos pruebas en rojo; el resto pasa."),
            ["2 tests fail"]
        );
        assert_eq!(
            claims_of("Côté Jest, un seul test casse (`sum`), il faudra juste mettre à jour la valeur attendue."),
            ["1 tests fail"]
        );
        // A clause that says some passed counts those.
        assert_eq!(
            claims_of("Von 5 Tests sind 3 bestanden und 2 fehlgeschlagen."),
            ["2 tests fail"]
        );
    }

    #[test]
    fn a_negation_that_denies_a_problem_is_a_pass_one_that_denies_the_run_is_not() {
        for (row, passes) in [
            ("`cargo clippy`: inga varningar", true),
            ("`cargo fmt --check`: czysto, rustfmt nie ma uwag", true),
            ("`bash -n a.sh`: bez chyb", true),
            ("`cargo doc --no-deps`: اكتمل بدون أي تحذيرات", true),
            ("`cargo clippy`: not run", false),
            ("`cargo clippy`: nicht ausgeführt", false),
            ("`cargo clippy`: не запускал", false),
            ("`cargo fmt --check`: not clean yet", false),
            ("`cargo test`: 2 von 3 grün, 1 rot", false),
        ] {
            assert_eq!(!results_in(row).is_empty(), passes, "{row}");
        }
    }

    #[test]
    fn a_french_lint_sentence_that_denies_warnings_says_no_warnings() {
        let readings = crate::audit::claims::explain(
            "J'ai aussi fait tourner `cargo clippy` : il ne remonte aucun avertissement sur le nouveau code.",
        );
        let lint: Vec<&Claim> = readings
            .iter()
            .flat_map(|r| &r.claims)
            .filter(|c| c.kind == Kind::Lint)
            .collect();
        assert!(!lint.is_empty() && lint.iter().all(|c| c.no_warnings));
        // Warnings counted, not denied: no such promise.
        let readings = crate::audit::claims::explain("`cargo clippy`: ok, 2 warnings left (style)");
        assert!(readings
            .iter()
            .flat_map(|r| &r.claims)
            .all(|c| !c.no_warnings));
    }
}
