//! Copies a report says it made, in any language: the target of the copy is a claim
//! that it was written in this turn.

use super::*;

/// Stems of "copied", in the tables' languages and beyond.
pub(super) const COPY_WORDS: &[&str] = &[
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
    // "`dist/` wurde deshalb nicht angelegt": a target the message itself denies elsewhere
    // was described (what a script would copy), not reported copied.
    let denied: Vec<String> = readings
        .iter()
        .filter(|r| r.why.iter().any(|w| w.contains("negated (\"")))
        .flat_map(|r| sentence_paths(&r.sentence))
        .map(|(p, _)| p.trim_end_matches('/').to_owned())
        .collect();
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
        // "He creat `dist/` i hi he copiat `notes.txt`": the path right after the verb,
        // with none after it, is what was copied; where it went is a word ("hi", "into
        // it"), and no other verb of the sentence made it.
        if let Some(object) = copied_object(&clause).filter(|o| {
            paths
                .last()
                .is_some_and(|(p, _)| p.trim_end_matches('/') == o.trim_end_matches('/'))
        }) {
            r.claims.retain(|c| {
                c.via_copy
                    || !matches!(&c.kind, Kind::File { path, .. } if path.trim_end_matches('/') == object.trim_end_matches('/'))
            });
            continue;
        }
        let Some(t) = paths.iter().rposition(|(_, from)| !from) else {
            continue;
        };
        let target = &paths[t].0;
        if denied.iter().any(|d| d == target.trim_end_matches('/')) {
            continue;
        }
        let names_target = |c: &Claim| matches!(&c.kind, Kind::File { path, .. } | Kind::Dir { path, .. } if path == target);
        if paths.iter().filter(|(p, _)| p == target).count() > 1
            || r.claims
                .iter()
                .any(|c| names_target(c) && c.confidence == vocab::Confidence::Strong)
        {
            continue;
        }
        // A weaker reading of the target (a path the report lists) gives way to the copy's.
        r.claims.retain(|c| !names_target(c));
        // Files copied into a folder ("نسخت `a.txt` و `b.md` إلى `dist/`") are each there
        // under its own name; a folder alone ("copied the build into `dist/`") changed.
        let dir = target.ends_with('/');
        let sources: Vec<&String> = paths[..t]
            .iter()
            .map(|(p, _)| p)
            .filter(|p| !p.ends_with('/'))
            .collect();
        let kinds: Vec<Kind> = if dir && !sources.is_empty() {
            sources
                .iter()
                .map(|s| Kind::File {
                    path: format!("{target}{}", s.rsplit('/').next().unwrap_or(s)),
                    change: Change::Modified,
                })
                .collect()
        } else if dir {
            vec![Kind::Dir {
                path: target.trim_end_matches('/').to_owned(),
                change: Change::Modified,
            }]
        } else {
            vec![Kind::File {
                path: target.clone(),
                change: Change::Modified,
            }]
        };
        for kind in kinds {
            let mut claim = Claim::read(kind, &r.sentence);
            claim.via_copy = true;
            claim.weaken(
                "a copy the message describes, and no copy command of this turn names where it went",
            );
            add(r, claim);
        }
    }
}

/// The code span right after a copy word of a spaced language ("copied `notes.txt`",
/// "copiat el `a`"): the copy's object, its source.
fn copied_object(clause: &str) -> Option<String> {
    const ARTICLES: &[&str] = &[
        // Articles only: "a" and "de" are also "to" and "from".
        "the", "el", "la", "les", "le", "los", "las", "die", "den", "das", "il", "lo", "o", "os",
        "het",
    ];
    let lower = clause.to_lowercase();
    let at = COPY_WORDS
        .iter()
        .filter(|w| w.is_ascii() || w.chars().all(|c| !c.is_alphabetic() || c.is_lowercase()))
        .filter_map(|w| super::super::scan::find(&lower, w.trim()).map(|i| i + w.trim().len()))
        .min()?;
    // The rest of the word the stem begins ("copiad" in "copiado").
    let rest = &lower[at..];
    let rest = rest.trim_start_matches(|c: char| c.is_alphanumeric());
    let mut rest = rest.trim_start();
    while let Some(after) = ARTICLES.iter().find_map(|a| {
        rest.strip_prefix(a)
            .filter(|r| r.starts_with(char::is_whitespace))
    }) {
        rest = after.trim_start();
    }
    let span = rest.strip_prefix('`')?;
    let end = span.find('`')?;
    Some(span[..end].trim().to_owned())
}

/// The paths a sentence names, in order, each with whether a "from" word marks it as a
/// source ("from `a`", "`a` から", "`a` 에서", "用 `a`"): code spans with a path's shape,
/// and bare words with a file's (`dist/stats.js`).
pub(super) fn sentence_paths(sentence: &str) -> Vec<(String, bool)> {
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
pub(super) const FROM_BEFORE: &[&str] = &[
    "from", "von", "aus", "de", "desde", "da", "dal", "dalla", "van", "uit", "из", "с", "з", "із",
    "zi", "ze", "z", "från", "fra", "από", "apo", "dari", "từ", "kaynak", "用", "从", "從", "से",
    "من",
];

/// Words after a path that make it a copy's source.
pub(super) const FROM_AFTER: &[&str] = &[
    "から", "에서", "से", "'dan", "'den", "dan", "den", "tan", "ten",
];
