//! How many files a report says a folder holds ("в `backups/` остались три самых новых
//! архива", "`dist/` now has 3 files"): [`Kind::FolderCount`], counted on disk.

use super::refs::{denials_of, negates, not_reported, unquoted, without_brackets};
use super::*;

/// Marks the count of files a clause says one folder holds: one folder span, a word for
/// "left", "remains", "has" or "contains", and one number (digits or a number word of any
/// table) outside brackets. Nothing where the clause tells a change's count (added,
/// removed, moved: "added 3 files to `docs/`"), names two numbers, denies, plans or asks.
///
/// And the count of lines a clause says one file holds (" `requirements-dev.txt` ina pins
/// 4 tu", "`notes.txt` now has 3 lines"): one file span and no folder's, the same word for
/// "has", and a number right beside a word for lines, pins, entries, rows or dependencies.
pub fn mark_folder_counts(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        // The shape first: a folder's span, or a span and a number or a word for lines
        // (most sentences have neither, and the clauses below look up every table's
        // numbers and negations).
        let line_shaped = || {
            let lower = r.sentence.to_lowercase();
            r.sentence.contains(|c: char| c.is_numeric())
                || LINE_UNITS.iter().any(|u| lower.contains(u))
        };
        if !(r.sentence.contains("/`") || r.sentence.contains('`') && line_shaped())
            || r.sentence.trim_end().ends_with(['?', '？'])
            || r.why.iter().any(|w| not_reported(w, &["someone"]))
        {
            continue;
        }
        let denials = denials_of(r);
        let mut kinds = Vec::new();
        for clause in without_brackets(&r.sentence).split(super::paths::CLAUSE_ENDS) {
            let paths = super::paths::path_spans(clause);
            let (dirs, files): (Vec<&String>, Vec<&String>) =
                paths.iter().partition(|p| p.ends_with('/'));
            let lower = clause.to_lowercase();
            let prose = unquoted(&lower);
            let words: Vec<&str> = prose
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            let states = words.iter().any(|w| {
                LEFT.contains(w)
                    || super::refs::HAS.contains(w)
                    || super::paths::CONTAINS.contains(w)
            });
            if !states
                || CHANGED.iter().any(|c| prose.contains(c))
                || denials.iter().any(|d| lower.contains(d.as_str()))
                || negates(&prose)
            {
                continue;
            }
            match (dirs.as_slice(), files.as_slice()) {
                ([dir], _) => {
                    let mut numbers: Vec<u64> = words.iter().filter_map(|w| number_of(w)).collect();
                    // "folderul `changes/` a rămas gol", "`tmp/` is left empty": none left.
                    if numbers.is_empty() && says_empty(&prose) {
                        numbers.push(0);
                    }
                    if let [count] = numbers.as_slice() {
                        kinds.push(Kind::FolderCount {
                            dir: (*dir).clone(),
                            count: *count,
                        });
                    }
                }
                ([], [file]) => {
                    if let Some(count) = count_of_lines(&words, is_line_list(file)) {
                        kinds.push(Kind::LineCount {
                            path: (*file).clone(),
                            count,
                        });
                    }
                }
                _ => {}
            }
        }
        for kind in kinds {
            add_new(r, kind);
        }
    }
}

/// Whether a file lists one entry a line (`requirements.txt`, `.env`, a CSV, a file with no
/// extension): its pins, entries and dependencies are its lines. A manifest (`package.json`,
/// `Cargo.toml`) is not: its "3 dependencies" are keys, not lines.
fn is_line_list(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_lowercase();
    match name.rsplit_once('.') {
        None => true,
        Some((stem, ext)) => {
            stem.is_empty() || ["txt", "in", "lst", "list", "csv", "tsv", "env"].contains(&ext)
        }
    }
}

/// The one number that stands right beside a word for lines or rows ("ثلاثة أسطر"), or, in a
/// file that lists one entry a line, for pins, entries or dependencies ("4 pins", "pins
/// 4").
fn count_of_lines(words: &[&str], line_list: bool) -> Option<u64> {
    let mut found = None;
    for (i, w) in words.iter().enumerate() {
        if !line_list && !LINE_WORDS.iter().any(|u| w.starts_with(u)) {
            continue;
        }
        // A stem of three letters or fewer is a word of its own ("rad", not "radera").
        let unit = |u: &&str| {
            if u.chars().nth(3).is_some() {
                w.starts_with(*u)
            } else {
                w == u
            }
        };
        if !LINE_UNITS.iter().any(unit) {
            continue;
        }
        let beside = [i.checked_sub(1), Some(i + 1)];
        let numbers: Vec<u64> = beside
            .iter()
            .flatten()
            .filter_map(|&j| words.get(j).and_then(|w| number_of(w)))
            .collect();
        match (numbers.as_slice(), found) {
            ([n], None) => found = Some(*n),
            ([n], Some(m)) if *n == m => {}
            ([], _) => {}
            _ => return None,
        }
    }
    found
}

/// Stems of the words for lines and rows themselves, by language: a count of them is of
/// any text file's lines.
const LINE_WORDS: &[&str] = &[
    "line",
    "rows",
    "zeile",
    "ligne",
    "línea",
    "linea",
    "linha",
    "riga",
    "righe",
    "regel",
    "rader",
    "linje",
    "rivi",
    "wiersz",
    "řád",
    "sorok",
    "rând",
    "satır",
    "строк",
    "строчк",
    "рядк",
    "рядок",
    "реда",
    "редове",
    "γραμμ",
    "baris",
    "mistari",
    "mstari",
    "dòng",
    "linya",
    "سطر",
    "أسطر",
    "שורות",
    "पंक्ति",
    "लाइन",
    "줄",
];

/// Stems of the words for what a file's lines are (lines, pins, entries, rows,
/// dependencies, packages), by language.
const LINE_UNITS: &[&str] = &[
    "line",
    "pins",
    "pinned",
    "entries",
    "rows",
    "dependenc",
    "package",
    "requirement",
    "zeile",
    "einträge",
    "abhängigkeit",
    "paket",
    "ligne",
    "entrées",
    "dépendance",
    "paquet",
    "línea",
    "linea",
    "linha",
    "entrada",
    "dependencia",
    "dependência",
    "paquete",
    "pacote",
    "riga",
    "righe",
    "voci",
    "dipendenz",
    "pacchett",
    "regel",
    "afhankelijkhe",
    "pakket",
    "rad",
    "rader",
    "raden",
    "linje",
    "beroende",
    "afhængighed",
    "avhengighet",
    "rivi",
    "riippuvuu",
    "paketti",
    "wiersz",
    "zależnoś",
    "pakiet",
    "řád",
    "závislost",
    "balíč",
    "sor",
    "sorok",
    "függőség",
    "csomag",
    "rând",
    "dependenț",
    "pachet",
    "satır",
    "bağımlılı",
    "строк",
    "строчк",
    "зависимост",
    "пакет",
    "рядк",
    "рядок",
    "залежніст",
    "ред",
    "реда",
    "редове",
    "γραμμ",
    "εξαρτήσ",
    "πακέτ",
    "baris",
    "dependensi",
    "mistari",
    "mstari",
    "tegemezi",
    "dòng",
    "gói",
    "linya",
    "سطر",
    "أسطر",
    "تبعي",
    "حزم",
    "خط",
    "שורות",
    "תלויות",
    "पंक्ति",
    "लाइन",
    "निर्भरता",
    "行",
    "依赖",
    "包",
    "줄",
    "패키지",
    "의존성",
];

/// Words for "left" and "remain(s)", by language.
/// Whether a clause says something is empty, in the tables' words for it (and Romanian
/// "gol", a word of its own).
fn says_empty(prose: &str) -> bool {
    static PHRASES: std::sync::OnceLock<forms::Phrases> = std::sync::OnceLock::new();
    PHRASES
        .get_or_init(|| forms::Phrases::new(super::history::EMPTY))
        .find_in(prose)
        .is_some()
        || prose
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| matches!(w, "gol" | "goală" | "goale"))
}

const LEFT: &[&str] = &[
    "rămas",
    "rămâne",
    "rămân",
    "left",
    "remain",
    "remains",
    "remaining",
    "kept",
    "keeps",
    "übrig",
    "verbleiben",
    "bleiben",
    "quedan",
    "quedaron",
    "restan",
    "restam",
    "ficaram",
    "restent",
    "reste",
    "rimangono",
    "rimasti",
    "rimaste",
    "kvar",
    "tilbage",
    "igjen",
    "остались",
    "осталось",
    "залишилися",
    "залишилось",
    "zostały",
    "zostało",
    "zůstaly",
    "zůstalo",
    "kaldı",
    "maradt",
    "jäi",
    "jäljellä",
    "rămas",
    "απέμειναν",
    "έμειναν",
    "tersisa",
    "tinggal",
    "baki",
    "imebaki",
    "zimebaki",
    "natitira",
];

/// Words that tell a change's count, not the folder's ("added 3 files to `docs/`").
const CHANGED: &[&str] = &[
    "added",
    "removed",
    "deleted",
    "moved",
    "copied",
    "created",
    "new ",
    "more",
    "hinzugefügt",
    "gelöscht",
    "entfernt",
    "añadí",
    "borré",
    "eliminé",
    "ajouté",
    "supprimé",
    "aggiunt",
    "eliminat",
    "удалил",
    "удалены",
    "удалено",
    "добавил",
    "usunął",
    "usunięto",
    "dodałem",
    "sildim",
    "ekledim",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_the_files_a_folder_holds_is_read() {
        let read = |message: &str| marked_kinds(message, mark_folder_counts);
        let count = |dir: &str, count: u64| {
            vec![Kind::FolderCount {
                dir: dir.into(),
                count,
            }]
        };
        assert_eq!(
            read("Запустил `./scripts/prune_backups.sh -k 3`: в `backups/` остались три самых новых архива (05, 06 и 07)."),
            count("backups/", 3)
        );
        assert_eq!(read("`dist/` now has 3 files."), count("dist/", 3));
        for message in [
            // A change's count, not the folder's.
            "Added 3 files to `docs/`.",
            "Removed 2 old archives from `backups/`; 3 are left there.",
            // Denied, asked, or two numbers.
            "`dist/` has no files left.",
            "Does `dist/` still have 3 files?",
            "`dist/` has 3 files and 2 folders.",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
    }

    #[test]
    fn a_count_of_the_lines_a_file_holds_is_read() {
        let read = |message: &str| marked_kinds(message, mark_folder_counts);
        let count = |path: &str, count: u64| {
            vec![Kind::LineCount {
                path: path.into(),
                count,
            }]
        };
        assert_eq!(
            read("- `requirements-dev.txt` ina pins 4 tu: `pytest==8.3.4` na tegemezi zake tatu (`iniconfig`, `packaging`, `pluggy`)."),
            count("requirements-dev.txt", 4)
        );
        assert_eq!(read("`notes.txt` now has 3 lines."), count("notes.txt", 3));
        for message in [
            "Added 3 lines to `notes.txt`.",
            "`notes.txt` has 3 lines 4 lines.",
            "`notes.txt` has no lines left.",
            "`app.py` has 3 functions.",
            // A manifest's dependencies are keys, not lines.
            "`package.json` now has 3 dependencies.",
        ] {
            assert!(read(message).is_empty(), "{message}");
        }
    }
}
