//! What a report says an archive holds or leaves out ("`dist/site.zip` bây giờ chỉ còn
//! `index.html`, `about.html` và `contact.html`; … `pricing-2024.html` không còn trong gói
//! nữa", "O `.env` local ficou fora do tarball"): [`Kind::InArchive`], checked against the
//! archive's own listing.

use super::*;

/// How an archive's file name ends.
const ARCHIVE_ENDINGS: &[&str] = &[
    ".zip", ".whl", ".jar", ".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tar.xz", ".tbz2", ".txz",
];

/// Words for an archive or a package of files, in the tables' languages.
const ARCHIVE_WORDS: &[&str] = &[
    "archive",
    "tarball",
    "bundle",
    "zip file",
    "archiv",
    "archief",
    "arkiv",
    "arkisto",
    "arşiv",
    "archiwum",
    "архив",
    "архів",
    "pacote",
    "paquete",
    "pacchetto",
    "pakket",
    "gói",
    "kifurushi",
    "safn",
    "arsip",
    "アーカイブ",
    "压缩包",
    "归档",
    "壓縮檔",
    "아카이브",
    "압축 파일",
    "آرشیو",
    "أرشيف",
    "ארכיון",
    "आर्काइव",
];

/// Words that put a file outside an archive ("ficou fora do tarball", "excluded").
const OUTSIDE: &[&str] = &[
    "out of",
    "outside",
    "exclude",
    "left out",
    "fora ",
    "fuera",
    "hors ",
    "außerhalb",
    "ausgeschlossen",
    "buiten",
    "utanför",
    "udenfor",
    "utenfor",
    "poza ",
    "mimo ",
    "вне ",
    "за пределами",
    "исключ",
    "dışında",
    "ngoài",
    "nje ",
    "di luar",
    "خارج",
    "מחוץ",
    "除外",
    "제외",
    "बाहर",
    "kívül",
    "έξω",
];

/// Words that say an archive holds what follows: "contains" and "only" ("bây giờ chỉ còn
/// …", "now holds only …").
const HOLDS: &[&str] = &[
    "holds",
    "has only",
    "only",
    "nur",
    "seulement",
    "solo",
    "sólo",
    "apenas",
    "só",
    "somente",
    "alleen",
    "bara",
    "kun",
    "tylko",
    "только",
    "лише",
    "sadece",
    "chỉ",
    "hanya",
    "只",
    "だけ",
    "만 ",
];

/// Words for "in" that may stand before an archive or its word ("Í safninu:", "in the
/// tarball", "trong gói").
const IN: &[&str] = &[
    "in",
    "im",
    "inside",
    "dans",
    "en",
    "em",
    "no",
    "na",
    "nel",
    "nella",
    "in het",
    "i",
    "í",
    "в",
    "во",
    "w",
    "v",
    "ve",
    "içinde",
    "trong",
    "dalam",
    "di",
    "σε",
    "στο",
    "στο",
    "في",
    "ב",
    "में",
];

/// Whether a path is an archive's by its name.
fn is_archive(path: &str) -> bool {
    let lower = path.to_lowercase();
    ARCHIVE_ENDINGS.iter().any(|e| lower.ends_with(e)) && lower.len() > 4
}

/// The archives a text names, as spans, bare words or inside a command's span, each once.
fn archives_named(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in text.split(|c: char| c.is_whitespace() || "`'\"()（）[]|,;“”«»".contains(c)) {
        let w = w.trim_end_matches(['.', ':', '。', '：']);
        if is_archive(w) && vocab::path_of(w, false).is_some() && !out.iter().any(|o| o == w) {
            out.push(w.to_owned());
        }
    }
    out
}

/// Marks what a clause says an archive holds (the paths it names beside a word for "holds",
/// "only", or "in" before the archive) or leaves out (beside a denial or a word for
/// "outside"; a deletion in the clause may be of the files the archive was made from). The archive is the one the clause names, or, for a clause with a word
/// for an archive, the one its sentence or the nearest earlier line names. Nothing where
/// the sentence plans, asks or reports a failure.
pub fn mark_archive_members(readings: &mut [Reading]) {
    // An archive is named by its file name somewhere, or nothing here is about one.
    let names_an_archive = |s: &str| {
        let b = s.as_bytes();
        (0..b.len().saturating_sub(3)).any(|i| {
            b[i] == b'.'
                && matches!(
                    b[i + 1..]
                        .get(..3)
                        .map(|e| e.to_ascii_lowercase())
                        .as_deref(),
                    Some(b"zip" | b"tar" | b"tgz" | b"whl" | b"jar" | b"txz")
                )
        }) || s.contains(".tbz2")
    };
    if !readings.iter().any(|r| names_an_archive(&r.sentence)) {
        return;
    }
    let mut last: Option<String> = None;
    for r in readings.iter_mut() {
        let here = archives_named(&r.sentence);
        let before = last.clone();
        if !here.is_empty() {
            last = match here.as_slice() {
                [one] => Some(one.clone()),
                _ => None,
            };
        }
        if r.skipped
            || !r.sentence.contains('`')
            || r.sentence.trim_end().ends_with(['?', '？'])
            || refs::plans_or_doubts(r)
        {
            continue;
        }
        let lower_sentence = fold(&r.sentence.to_lowercase());
        if forms::any_in(&refs::unquoted(&lower_sentence), Sets::FAILED) {
            continue;
        }
        let denials = refs::denials_of(r);
        let plain = refs::without_brackets(&r.sentence);
        for clause in plain.split([';', '；', '。', '—']) {
            let lower = fold(&clause.to_lowercase());
            let prose = fold(&vocab::outside_spans(clause, " ").to_lowercase());
            let word = ARCHIVE_WORDS.iter().find(|w| prose.contains(*w)).copied();
            let in_clause = archives_named(clause);
            let archive = match (in_clause.as_slice(), word) {
                ([one], _) => one.clone(),
                ([], Some(_)) => match (here.as_slice(), &before) {
                    ([one], _) => one.clone(),
                    ([], Some(b)) => b.clone(),
                    _ => continue,
                },
                _ => continue,
            };
            let members: Vec<String> = members_named(clause)
                .into_iter()
                .filter(|m| {
                    !is_archive(m)
                        && m.as_str() != archive
                        && !archive.starts_with(m.trim_end_matches('/'))
                })
                .collect();
            if members.is_empty() {
                continue;
            }
            let absent = refs::negates(&prose)
                || denials.iter().any(|d| prose.contains(d.as_str()))
                || OUTSIDE.iter().any(|w| prose.contains(w));
            let holds = HOLDS.iter().any(|w| has_word(&prose, w))
                || super::paths::CONTAINS.iter().any(|w| prose.contains(w))
                || in_before_archive(&lower, &archive, word);
            if !absent && !holds {
                continue;
            }
            // What the clause names as the archive's members is told of the archive, and
            // the archive as a thing made: neither is a file the turn made or committed
            // ("Commitei o `.gitattributes` e gerei de novo: `dist/a.tgz` agora tem só
            // `README.md` …").
            // (A file told left out may be one the clause says changed: "`backups/` added
            // to `.gitignore`, so the archive stays out of git".)
            if !absent {
                r.claims.retain(|c| match &c.kind {
                    Kind::File { path, change } => {
                        !(matches!(change, Change::Created | Change::Modified)
                            && members.contains(path))
                    }
                    Kind::Committed { path } => !members.contains(path) && *path != archive,
                    _ => true,
                });
            }
            for member in members {
                add_new(
                    r,
                    Kind::InArchive {
                        archive: archive.clone(),
                        member,
                        present: !absent,
                    },
                );
            }
        }
    }
}

/// The paths a clause names as members: its path spans, and dotfiles named by their own
/// span (`.env`, which [`path_spans`] takes for an extension).
fn members_named(clause: &str) -> Vec<String> {
    let mut out = path_spans(clause);
    for span in vocab::spans_of(clause).map(str::trim) {
        let dotfile = span.starts_with('.')
            && span.len() > 2
            && !span[1..].contains(['.', '/', ' '])
            && matches!(
                &span[1..],
                "env" | "npmrc" | "gitignore" | "npmignore" | "DS_Store"
            );
        if dotfile && !out.iter().any(|o| o == span) {
            out.push(span.to_owned());
        }
    }
    out
}

/// Whether a word for "in" stands right before the archive (its span or name) or the word
/// for an archive ("in `dist/a.tgz`", "Í safninu:", "trong gói"), or the archive leads the
/// clause followed by a colon ("`dist/a.tgz`: `a`, `b`").
fn in_before_archive(lower: &str, archive: &str, word: Option<&str>) -> bool {
    let archive = archive.to_lowercase();
    let targets = [Some(archive.as_str()), word].into_iter().flatten();
    for target in targets {
        for (at, _) in lower.match_indices(target) {
            const ARTICLES: &[&str] = &[
                "the", "der", "die", "das", "dem", "le", "la", "les", "el", "los", "las", "o", "a",
                "il", "lo", "het", "de",
            ];
            let head = lower[..at].trim_end_matches(['`', ' ']);
            let mut words = head.split_whitespace().rev();
            let last = match words.next() {
                Some(w) if ARTICLES.contains(&w) => words.next().unwrap_or(""),
                Some(w) => w,
                None => "",
            };
            if IN.contains(&last) {
                return true;
            }
            // "`dist/a.tgz`: `a`, `b`", "In the archive: …": a short lead, then a colon.
            let after = lower[at + target.len()..]
                .trim_start_matches(|c: char| c == '`' || c.is_alphanumeric());
            if head.split_whitespace().count() <= 3 && after.trim_start().starts_with([':', '：'])
            {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(message: &str) -> Vec<(String, String, bool)> {
        let mut readings = super::super::readings_of_lines(message);
        mark_archive_members(&mut readings);
        readings
            .iter()
            .flat_map(|r| &r.claims)
            .filter_map(|c| match &c.kind {
                Kind::InArchive {
                    archive,
                    member,
                    present,
                } => Some((archive.clone(), member.clone(), *present)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn what_an_archive_holds_or_leaves_out_is_read() {
        assert_eq!(
            read("`dist/site.zip` now holds only `index.html` and `about.html`."),
            [
                ("dist/site.zip".into(), "index.html".into(), true),
                ("dist/site.zip".into(), "about.html".into(), true)
            ]
        );
        assert_eq!(
            read("`npm pack` made `stats-1.0.0.tgz`.\nThe local `.env` stayed out of the tarball."),
            [("stats-1.0.0.tgz".into(), ".env".into(), false)]
        );
        assert_eq!(
            read("`dist/config.tgz` made with `tar czf`.\nIn the archive: `config/app.yaml` and `notes.txt`."),
            [
                ("dist/config.tgz".into(), "config/app.yaml".into(), true),
                ("dist/config.tgz".into(), "notes.txt".into(), true)
            ]
        );
    }

    #[test]
    fn an_archive_beside_other_files_is_no_listing() {
        // Files committed beside an archive left out of the commit.
        assert!(
            read("Committed `docs/a.md` and `docs/b.md`; `dist/a.tgz` is not committed.")
                .is_empty()
        );
        assert!(read("Should `notes.txt` go into `dist/a.tgz` too?").is_empty());
        assert!(
            read("`tar czf dist/a.tgz docs` failed: `docs/x.md` could not be read.").is_empty()
        );
    }
}
