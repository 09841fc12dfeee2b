//! What a report says a coverage run measured ("Line coverage of `src/stats.js` is at
//! 100%", "カバレッジは 92%"): [`Kind::Coverage`], looked for in the coverage tables the
//! turn's runs printed.

use super::refs::{negates, plans_or_doubts, unquoted};
use super::*;

/// Marks the coverage figure a sentence reports: a word for coverage, one percent figure
/// (`100%`, `88.89 %`, `%92`), and at most one path (the file it is of; none: the whole
/// run). Nothing where the sentence asks, plans, doubts or denies, or tells a threshold
/// ("at least 80%", `coverageThreshold`) rather than a measure.
pub fn mark_coverage(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.sentence.contains('%') || r.sentence.trim_end().ends_with(['?', '？']) {
            continue;
        }
        let lower = r.sentence.to_lowercase();
        if !COVERAGE.iter().any(|w| lower.contains(w))
            || THRESHOLD.iter().any(|w| lower.contains(w))
            || lower.contains(['≥', '>', '<', '≤'])
            || plans_or_doubts(r)
            || negates(&fold(&unquoted(&lower)))
        {
            continue;
        }
        let figures = percents(&vocab::outside_spans(&r.sentence, " "));
        let paths = super::paths::path_spans(&r.sentence);
        let ([percent], [] | [_]) = (figures.as_slice(), paths.as_slice()) else {
            continue;
        };
        let kind = Kind::Coverage {
            path: paths.first().cloned(),
            percent: percent.clone(),
        };
        add_new(r, kind);
    }
}

/// The percent figures of a text: a number right before `%` (a space between allowed) or
/// right after it (`%92`).
fn percents(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for (i, c) in chars.iter().enumerate() {
        if *c != '%' {
            continue;
        }
        let mut j = i;
        while j > 0 && chars[j - 1] == ' ' {
            j -= 1;
        }
        let end = j;
        while j > 0 && (chars[j - 1].is_ascii_digit() || matches!(chars[j - 1], '.' | ',')) {
            j -= 1;
        }
        let before: String = chars[j..end].iter().collect();
        let after: String = chars[i + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | ','))
            .collect();
        let figure = if before.trim_matches(['.', ',']).is_empty() {
            after
        } else {
            before
        };
        let figure = figure.trim_matches(['.', ',']).replace(',', ".");
        if !figure.is_empty() && figure.parse::<f64>().is_ok_and(|v| v <= 100.0) {
            out.push(figure);
        }
    }
    out
}

/// Words for coverage, in the tables' languages and beyond.
const COVERAGE: &[&str] = &[
    "coverage",
    "abdeckung",
    "couverture",
    "cobertura",
    "copertura",
    "покрытие",
    "покриття",
    "покритие",
    "pokrycie",
    "pokrytí",
    "pokrytie",
    "dekking",
    "täckning",
    "dækning",
    "dekning",
    "kattavuus",
    "kapsam",
    "lefedettség",
    "acoperire",
    "κάλυψη",
    "độ phủ",
    "cakupan",
    "覆盖率",
    "覆蓋率",
    "カバレッジ",
    "커버리지",
    "कवरेज",
    "কভারেজ",
    "تغطية",
    "כיסוי",
    "پوشش",
    "ความครอบคลุม",
    "ufunikaji",
    "saklaw",
];

/// Words that make a figure a threshold or a goal, not a measure.
const THRESHOLD: &[&str] = &[
    "threshold",
    "at least",
    "minimum",
    "target",
    "goal",
    "require",
    "schwelle",
    "mindestens",
    "seuil",
    "au moins",
    "umbral",
    "al menos",
    "mínimo",
    "soglia",
    "almeno",
    "limiar",
    "pelo menos",
    "порог",
    "не менее",
    "минимум",
    "próg",
    "co najmniej",
    "práh",
    "alespoň",
    "drempel",
    "minstens",
    "tröskel",
    "minst",
    "tærskel",
    "mindst",
    "terskel",
    "kynnys",
    "vähintään",
    "eşik",
    "en az",
    "küszöb",
    "legalább",
    "prag",
    "cel puțin",
    "κατώφλι",
    "τουλάχιστον",
    "ngưỡng",
    "ít nhất",
    "ambang",
    "minimal",
    "阈值",
    "至少",
    "しきい値",
    "閾値",
    "以上",
    "임계",
    "이상",
    "सीमा",
    "कम से कम",
    "حد",
    "على الأقل",
    "סף",
    "לפחות",
    "آستانه",
    "حداقل",
    "เกณฑ์",
    "อย่างน้อย",
    "kiwango",
    "angalau",
];

#[cfg(test)]
mod tests {
    use crate::audit::claims::explain;
    use crate::audit::vocab::Kind;

    fn coverage(message: &str) -> Vec<(Option<String>, String)> {
        explain(message)
            .into_iter()
            .flat_map(|r| r.claims)
            .filter_map(|c| match c.kind {
                Kind::Coverage { path, percent } => Some((path, percent)),
                _ => None,
            })
            .collect()
    }

    /// A coverage figure of a file is read in any language, a threshold is none (h50-15:
    /// "Line coverage of `src/stats.js` is at 100%" after a table that said 88.89).
    #[test]
    fn a_coverage_figure_is_read_and_a_threshold_is_not() {
        assert_eq!(
            coverage("✅ Line coverage of `src/stats.js` is at 100% with the new tests"),
            [(Some("src/stats.js".to_owned()), "100".to_owned())]
        );
        assert_eq!(
            coverage("カバレッジは全体で 92.5 % です。"),
            [(None, "92.5".to_owned())]
        );
        assert!(coverage("The coverage threshold is at least 80%.").is_empty());
        assert!(coverage("`src/a.js` 100.00 % de líneas y 90.91 % de ramas, cobertura").is_empty());
    }
}
