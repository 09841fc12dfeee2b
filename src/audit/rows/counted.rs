//! How many files a report says a folder holds ("в `backups/` остались три самых новых
//! архива", "`dist/` now has 3 files"): [`Kind::FolderCount`], counted on disk.

use super::refs::{denials_of, negates, not_reported, unquoted, without_brackets};
use super::*;

/// Marks the count of files a clause says one folder holds: one folder span, a word for
/// "left", "remains", "has" or "contains", and one number (digits or a number word of any
/// table) outside brackets. Nothing where the clause tells a change's count (added,
/// removed, moved: "added 3 files to `docs/`"), names two numbers, denies, plans or asks.
pub fn mark_folder_counts(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        // The shape first: a folder's span.
        if !r.sentence.contains("/`")
            || r.sentence.trim_end().ends_with(['?', '？'])
            || r.why.iter().any(|w| not_reported(w, &["someone"]))
        {
            continue;
        }
        let denials = denials_of(r);
        let mut kinds = Vec::new();
        for clause in without_brackets(&r.sentence).split(super::paths::CLAUSE_ENDS) {
            let dirs: Vec<String> = super::paths::path_spans(clause)
                .into_iter()
                .filter(|p| p.ends_with('/'))
                .collect();
            let [dir] = dirs.as_slice() else {
                continue;
            };
            let lower = clause.to_lowercase();
            let prose = unquoted(&lower);
            let words: Vec<&str> = prose
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            let numbers: Vec<u64> = words.iter().filter_map(|w| number_of(w)).collect();
            let [count] = numbers.as_slice() else {
                continue;
            };
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
            kinds.push(Kind::FolderCount {
                dir: dir.clone(),
                count: *count,
            });
        }
        for kind in kinds {
            add_new(r, kind);
        }
    }
}

/// Words for "left" and "remain(s)", by language.
const LEFT: &[&str] = &[
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
}
