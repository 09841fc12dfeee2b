//! A failure a report says was seen before the fix ("the new test fails on the code before
//! the fix", "修正前のコードではこのテストが失敗します", "vor dem Fix schlug der Test fehl"):
//! [`Kind::FailedBeforeFix`], backed only by a run of the turn that failed.

use super::refs::{negates, not_reported, unquoted};
use super::*;

/// Marks a sentence that tells a failure before the fix: a phrase for "before the fix" (or
/// "on the old code", "without the fix") and a word for failing of any table, in the
/// agent's own voice. Nothing where the sentence denies the failure, plans, asks or tells
/// another actor's doing.
pub fn mark_failed_before_fix(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        // The phrase first, on the sentence as written: almost no sentence holds one.
        static PHRASES: OnceLock<forms::Phrases> = OnceLock::new();
        let phrases = PHRASES.get_or_init(|| forms::Phrases::new(BEFORE_THE_FIX));
        let lower = r.sentence.to_lowercase();
        if phrases.find_in(&lower).is_none() {
            continue;
        }
        let own = unquoted(&lower);
        if phrases.find_in(&own).is_none()
            || !forms::any_in(&fold(&own), Sets::FAILED)
            || r.sentence.trim_end().ends_with(['?', '？'])
            || r.why
                .iter()
                .any(|w| not_reported(w, &["failure"]) && !polite_present_failure(&r.sentence, w))
            || negates(&own)
        {
            continue;
        }
        add_new(r, Kind::FailedBeforeFix);
    }
}

/// Whether a plan's reading (`why`) stands only on Japanese "します" where it ends "失敗します"
/// ("このテストが失敗します", "the test fails"): the polite present of a failure tells what
/// the code does, not what the agent will do.
fn polite_present_failure(sentence: &str, why: &str) -> bool {
    why.contains("(\"します\")") && sentence.contains("失敗します")
}

/// Phrases for "before the fix", "without the fix" and "on the old code", by language.
/// Bare "before" (vorher, avant) is left out: "vorher 3 passed, 1 failed" tells an earlier
/// run, not the code before the fix.
const BEFORE_THE_FIX: &[&str] = &[
    "before the fix",
    "before my fix",
    "before fixing",
    "prior to the fix",
    "without the fix",
    "on the old code",
    "against the old code",
    "with the old code",
    "vor dem fix",
    "vor der korrektur",
    "vor der behebung",
    "ohne den fix",
    "ohne die korrektur",
    "mit dem alten code",
    "auf dem alten code",
    "antes del arreglo",
    "antes de la corrección",
    "antes del fix",
    "antes de corregir",
    "sin el arreglo",
    "sin la corrección",
    "con el código anterior",
    "con el código viejo",
    "antes da correção",
    "antes do fix",
    "antes de corrigir",
    "sem a correção",
    "com o código antigo",
    "no código antigo",
    "avant le correctif",
    "avant la correction",
    "avant le fix",
    "sans le correctif",
    "sans la correction",
    "avec l'ancien code",
    "sur l'ancien code",
    "prima della correzione",
    "prima del fix",
    "senza la correzione",
    "senza il fix",
    "con il vecchio codice",
    "sul vecchio codice",
    "voor de fix",
    "zonder de fix",
    "op de oude code",
    "met de oude code",
    "före fixen",
    "utan fixen",
    "før rettelsen",
    "uden rettelsen",
    "до исправления",
    "без исправления",
    "до фикса",
    "без фикса",
    "на старом коде",
    "до виправлення",
    "без виправлення",
    "на старому коді",
    "przed poprawką",
    "bez poprawki",
    "na starym kodzie",
    "před opravou",
    "bez opravy",
    "pred opravou",
    "düzeltmeden önce",
    "düzeltme öncesi",
    "eski kodda",
    "eski kodla",
    "javítás előtt",
    "a régi kóddal",
    "a régi kódon",
    "înainte de fix",
    "înainte de corecție",
    "înainte de corectură",
    "fără fix",
    "pe codul vechi",
    "πριν τη διόρθωση",
    "πριν από τη διόρθωση",
    "χωρίς τη διόρθωση",
    "trước khi sửa",
    "trước bản sửa",
    "với code cũ",
    "trên code cũ",
    "sebelum perbaikan",
    "sebelum diperbaiki",
    "tanpa perbaikan",
    "dengan kode lama",
    "pada kode lama",
    "kabla ya marekebisho",
    "bago ang fix",
    "修正前",
    "修正する前",
    "直す前",
    "修正なし",
    "修复前",
    "修复之前",
    "修復前",
    "修復之前",
    "修正之前",
    "修改前",
    "旧代码",
    "舊程式碼",
    "수정 전",
    "수정하기 전",
    "고치기 전",
    "기존 코드에서",
    "फ़िक्स से पहले",
    "फिक्स से पहले",
    "सुधार से पहले",
    "पुराने कोड",
    "ফিক্সের আগে",
    "সংশোধনের আগে",
    "পুরনো কোডে",
    "திருத்தத்துக்கு முன்",
    "திருத்தத்திற்கு முன்",
    "قبل الإصلاح",
    "بدون الإصلاح",
    "على الكود القديم",
    "قبل از اصلاح",
    "پیش از اصلاح",
    "قبل از رفع",
    "بدون اصلاح",
    "روی کد قدیمی",
    "לפני התיקון",
    "בלי התיקון",
    "על הקוד הישן",
    "ก่อนแก้",
    "บนโค้ดเดิม",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_told_of_the_code_before_the_fix_is_read() {
        let read = |message: &str| marked_kinds(message, mark_failed_before_fix);
        for message in [
            "- **回帰テスト**: `tests/test_text.py` に `test_slugify_punctuation` を追加しました。修正前のコードではこのテストが失敗します。",
            "The new regression test fails on the old code and passes now.",
            "Vor dem Fix ist `test_parse` fehlgeschlagen.",
            "复现：修复前跑 `node --test`，只有 `'1.15'` 那条失败。",
        ] {
            assert_eq!(read(message), vec![Kind::FailedBeforeFix], "{message}");
        }
        for message in [
            // Not a failure: what the code did.
            "Before the fix, `slugify(\"a!\")` returned `'a-'`.",
            // Denied, or asked.
            "The test did not fail before the fix: it never reached the bug.",
            "Does the test fail without the fix?",
            // A bare "before" tells an earlier run.
            "`cargo test`: vorher 3 passed, 1 failed; jetzt alle grün.",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
    }
}
