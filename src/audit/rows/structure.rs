//! Rows whose subject and value stand apart: a label with its value on the next line, a
//! heading over its lines, a table's header cells, a table row whose first cell names a
//! check, a status line of items.

use super::*;

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
            table_counts(&lines[start..i], readings);
            continue;
        }
        if let Some(subject) = label_subject(lines[i]) {
            let next = lines.get(i + 1).map(|l| value_line(l)).unwrap_or_default();
            // "**Testes (`unittest -v`, suíte completa):**" over "- os 3 testes de
            // `tests/test_text.py` passam": a value line that names its own test files was
            // read as its own claim; the label says which run, not that the suite passed.
            let own_files = |value: &str| {
                readings.iter().any(|r| {
                    !r.skipped
                        && value.contains(r.sentence.trim())
                        && r.claims.iter().any(|c| {
                            matches!(c.kind, Kind::Tests { .. }) && !c.test_files.is_empty()
                        })
                })
            };
            if let Some(value) = next.filter(|v| !own_files(v)) {
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
            if claim.commands.is_empty()
                && span.split_whitespace().count() >= 2
                && named_check(&span).is_some()
            {
                claim.commands.push(span.clone());
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
pub(super) fn plain_lines(message: &str) -> Vec<&str> {
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
pub(crate) fn row_text(line: &str) -> String {
    let t = line.trim_start_matches(|c: char| c.is_whitespace() || "-*•+#".contains(c));
    vocab::without_emphasis(t).trim().to_owned()
}

/// The check a label line names when its value is on the next line: "Kontrola syntaxe
/// (`bash -n`):", "**Formatering (`cargo fmt --check`):**", "`cargo clippy`:".
pub(super) fn label_subject(line: &str) -> Option<String> {
    let t = row_text(line);
    // A label ends with a colon; a heading ("### Clippy", "**`cargo fmt --check`**")
    // labels what is under it as well.
    let heading = line.starts_with('#')
        || line.starts_with("**") && line.ends_with("**") && line.matches("**").count() == 2;
    let label = t
        .strip_suffix(':')
        .or_else(|| t.strip_suffix('：'))
        .or(heading.then_some(t.as_str()))?;
    let spans = vocab::spans_of(label);
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
pub(super) fn value_line(line: &str) -> Option<String> {
    if line.starts_with(['|', '#']) || line.ends_with([':', '：']) {
        return None;
    }
    let t = row_text(line);
    (!t.is_empty() && t.split_whitespace().count() <= 12).then_some(t)
}

/// A table's cells, trimmed, without the edges' empty ones.
pub(crate) fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner
        .split('|')
        .map(|c| c.trim().replace("**", ""))
        .collect()
}

/// Rows of a table whose header cells name checks: each row's cell under one is its
/// result ("| cargo test | cargo clippy -- -D warnings |" over "| 4 件成功 | 警告 0 |").
pub(super) fn table_columns(table: &[&str], rows: &mut Vec<(String, String)>) {
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
            let Some(span) = vocab::spans_of(first)
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

/// Counts a table gives in columns whose header says passed and failed ("| Suite |
/// Passed | Failed |", "| Testu kopa | Kopā | Izdevās | Neizdevās |", in any table's
/// words): each row claims its failures (a count of 0 and a pass count: its tests pass,
/// that many). The row's own words name the suite or the kind of tests it counts.
pub(super) fn table_counts(table: &[&str], readings: &mut Vec<Reading>) {
    let Some((header, body)) = table.split_first() else {
        return;
    };
    let header = cells(header);
    let lower = |c: &str| fold(&c.to_lowercase());
    let failed_col = header.iter().position(|c| {
        let c = lower(c);
        forms::any_in(&c, Sets::FAILED) || has_word(&c, "failed") || has_word(&c, "failures")
    });
    let passed_col = header.iter().position(|c| {
        let c = lower(c);
        !forms::any_in(&c, Sets::FAILED) && c.split_whitespace().count() <= 3 && says_passed(&c)
    });
    let (Some(f), Some(p)) = (failed_col, passed_col) else {
        return;
    };
    // The rows' counts add up to the run's: one row per kind or suite ("unit 1 | 1",
    // "integration 1 | 0") is one run's parts, and a row's own count is no claim about
    // the whole run.
    let mut rows: Vec<(String, u64, u64)> = Vec::new();
    for line in body {
        let row = cells(line);
        if row.len() != header.len() {
            continue;
        }
        let leading = |c: &str| {
            let c = fold(c.trim().trim_matches(['*', '`', ' ']));
            let digits: String = c.chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<u64>().ok()
        };
        if let (Some(passed), Some(failed)) = (leading(&row[p]), leading(&row[f])) {
            rows.push((row.join(" "), passed, failed));
        }
    }
    if rows.is_empty() {
        return;
    }
    let passed: u64 = rows.iter().map(|r| r.1).sum();
    let failed: u64 = rows.iter().map(|r| r.2).sum();
    let own: String = rows
        .iter()
        .map(|r| r.0.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let shown = format!(
        "{} | {}",
        header.join(" | "),
        rows.iter()
            .map(|r| r.0.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let kind = if failed == 0 {
        Kind::Tests {
            count: Some(passed),
        }
    } else {
        Kind::Failures { count: failed }
    };
    let mut claim = Claim::read(kind, &shown);
    // Rows of several suites may be several runs: their sum is reported, not blocked,
    // when it is not one run's count.
    claim.count_sure = rows.len() == 1;
    claim.tools = super::super::named::named_in(&own, &claim.kind);
    claim.bind_spans(vocab::spans_of(&own));
    readings.push(Reading {
        sentence: shown,
        claims: vec![claim],
        why: Vec::new(),
        skipped: false,
    });
}

/// The items of a status line that lead with a check named bare, its value after it
/// with no separator ("Status: unittest OK (3) · py_compile app/report.py OK", "cargo
/// test 4개 통과 / clippy 경고 없음").
pub(super) fn status_items(line: &str, rows: &mut Vec<(String, String)>) {
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
pub(super) fn add_count(readings: &mut [Reading], span: &str, n: u64) {
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
pub(super) fn already_read(readings: &[Reading], span: &str, kind: &Kind) -> bool {
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
