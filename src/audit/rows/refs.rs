//! Git outcomes a report states in any language: tags and branches it says are there,
//! commits named by their subject, git steps a status row says are done, and a commit
//! placed on a remote branch.

use super::super::fast_hash::{FastMap, FastSet};
use super::*;
use std::sync::OnceLock;

/// Words for a tag, in the tables' languages and beyond.
pub(super) const TAG_WORDS: &[&str] = &[
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
    "แท็ก",
    "แทก",
    "تگ",
    "ٹیگ",
    "ট্যাগ",
    "címk",
    "oznak",
    "етикет",
    "tagi",
    "tagu",
    "tunnist",
    "žym",
];

/// Words for a branch.
pub(super) const BRANCH_WORDS: &[&str] = &[
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
    // Bulgarian, Croatian and Serbian, Slovenian, Romanian, Lithuanian, Latvian, Estonian,
    // Persian, Urdu, Bengali, Thai, Swahili, Tagalog, Catalan.
    "клон",
    "grana",
    "granu",
    "grani",
    "granom",
    "vej",
    "ramur",
    "šak",
    "zars",
    "zaru",
    "haru",
    "شاخه",
    "برانچ",
    "ব্রাঞ্চ",
    "শাখা",
    "แบรนช์",
    "สาขา",
    "tawi",
    "sangay",
    "branca",
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
        // The word for tag in the prose, or a `git tag` the sentence writes out: inside
        // another command's span it is an option's part (`npm version minor
        // --no-git-tag-version` → `v1.1.0` made no tag).
        let prose = fold(&unquoted(&r.sentence).to_lowercase());
        let tag_said = TAG_WORDS.iter().any(|w| {
            if w.is_ascii() {
                has_stem(&prose, w)
            } else {
                prose.contains(w)
            }
        }) || vocab::spans_of(&r.sentence).any(|s| s.trim().starts_with("git tag"));
        if tag_said {
            for w in lower.split(|c: char| c.is_whitespace() || "`'\"«»“”()[]，。、：".contains(c))
            {
                let w = w.trim_end_matches([',', '.', ';', ':', '!']);
                if is_version_tag(w) && !names.iter().any(|(n, _)| n == w) {
                    names.push((w.to_owned(), true));
                }
            }
            // "the tag `v1.0.0-rc1` is marked withdrawn": a tag told withdrawn is no tag made.
            names.retain(|(name, _)| !withdrawn_in_its_clause(&r.sentence, name));
        }
        if has(BRANCH_WORDS) {
            let parts: Vec<&str> = r.sentence.split('`').collect();
            for (i, span) in parts.iter().enumerate().skip(1).step_by(2) {
                let span = span.trim();
                // A one-word name (`hotfix`) is a branch only right beside the word
                // ("the branch `hotfix`", "haaran `hotfix`", "`hotfix` branch").
                let named = is_branch_name(span)
                    || (is_bare_branch_name(span)
                        && (ends_with_branch_word(parts[i - 1])
                            || parts.get(i + 1).is_some_and(|t| starts_with_branch_word(t))));
                if named && !names.iter().any(|(n, _)| n == span) {
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
        // it is read with are thousands). An aside in brackets ("(ยังไม่ได้ push แท็ก)")
        // denies or plans only itself.
        // "Taggen `v1.1.0` er opprettet lokalt på fbef0d8, men ikke pushet ennå": a denial
        // in another clause leaves the one that makes the ref, with a change form, a report.
        let made_in_own_clause = || {
            names.iter().all(|(name, _)| {
                without_brackets(&r.sentence)
                    .split([',', ';', ':', '—', '–', '，', '；'])
                    .find(|part| part.to_lowercase().contains(name.as_str()))
                    .is_some_and(|part| {
                        let lower = fold(&unquoted(part).to_lowercase());
                        forms::any_in(&lower, Sets::CHANGED)
                            && !negates(&lower)
                            && !forms::any_in(&lower, Sets::NOT_A_PASS | Sets::NOT_A_REPORT)
                            && states_as_done_in(r, part)
                    })
            })
        };
        if names.is_empty() || !(states_as_done_outside_asides(r) || made_in_own_clause()) {
            continue;
        }
        let tags = names.iter().filter(|(_, tag)| *tag).count();
        for (name, tag) in names {
            // A file claim of the same name ("Created branch `fix/x`" read as a file
            // made) is the ref's.
            r.claims
                .retain(|c| !matches!(&c.kind, Kind::File { path, .. } if *path == name));
            // A push claim to it reads the branch already.
            let pushed_there = r
                .claims
                .iter()
                .any(|c| matches!(&c.kind, Kind::Push { branch: Some(b) } if *b == name));
            if pushed_there && !tag {
                continue;
            }
            // "tagged `v0.2.0` and pushed the tag to origin": the tag's own clause tells a
            // push of it.
            if tag && tag_pushed_in_its_clause(r, &name) {
                let push = Kind::Push {
                    branch: Some(name.clone()),
                };
                if !r.claims.iter().any(|c| c.kind == push) {
                    let claim = Claim::read(push, &r.sentence);
                    add(r, claim);
                }
            }
            // A sentence of one tag and one hash says where the tag points; of two tags
            // ("v0.2.1 on 7d1904a (v0.2.0 stood on the one before)"), not which.
            let at = (tag && tags == 1).then(|| one_hash(&r.sentence)).flatten();
            let claim = Claim::read(Kind::Ref { name, tag, at }, &r.sentence);
            add(r, claim);
        }
    }
}

/// Weakens "nothing pushed" where the sentence is about a subagent ("Subagen tidak push
/// apa-apa sendiri; push hanya daripada saya"): that another agent pushed nothing says
/// nothing of the turn's own pushes, which the parent may have made.
pub fn mark_others_unmoved(readings: &mut [Reading]) {
    let unmoved = |c: &Claim| {
        matches!(
            c.kind,
            Kind::Unmoved {
                branch: None,
                remote: true
            }
        )
    };
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.claims.iter().any(unmoved) || !super::super::lang::names_an_agent(&r.sentence) {
            continue;
        }
        for c in r.claims.iter_mut().filter(|c| {
            matches!(
                c.kind,
                Kind::Unmoved {
                    branch: None,
                    remote: true
                }
            )
        }) {
            c.weaken("the sentence tells what a subagent did not push, not the turn");
        }
    }
}

/// Weakens the pass claims of a sentence that says a check "always" passes ("ולכן הבדיקה
/// תמיד הצליחה", "so the check always succeeded"): it tells how a condition behaves, not
/// what a run of this turn showed.
pub fn mark_always_passing(readings: &mut [Reading]) {
    // Not "toujours" nor "immer": "les tests passent toujours" is "still pass", a claim.
    const ALWAYS: &[&str] = &[
        "always",
        "siempre",
        "sempre",
        "altijd",
        "alltid",
        "aina",
        "zawsze",
        "vždy",
        "всегда",
        "завжди",
        "винаги",
        "her zaman",
        "hep",
        "mindig",
        "întotdeauna",
        "πάντα",
        "luôn",
        "selalu",
        "常に",
        "总是",
        "總是",
        "항상",
        "हमेशा",
        "دائما",
        "دائمًا",
        "תמיד",
        "همیشه",
        "altid",
        "alati",
        "vedno",
        "alltaf",
        "mindig",
    ];
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let passes = |c: &Claim| {
            matches!(
                c.kind,
                Kind::Tests { count: None } | Kind::Build | Kind::Lint
            )
        };
        if !r.claims.iter().any(passes) {
            continue;
        }
        static PHRASES: OnceLock<forms::Phrases> = OnceLock::new();
        let prose = vocab::outside_spans(&r.sentence, " ").to_lowercase();
        let always = PHRASES
            .get_or_init(|| forms::Phrases::new(ALWAYS))
            .find_word_in(&prose)
            .is_some();
        if always {
            for c in r.claims.iter_mut().filter(|c| passes(c)) {
                c.weaken("the sentence says how a check always goes, not what a run showed");
            }
        }
    }
}

/// Whether the clause of a sentence that names tag `name` tells it withdrawn ("тег
/// `v1.0.0-rc1` позначено як відкликаний", "yanked", "zurückgezogen").
fn withdrawn_in_its_clause(sentence: &str, name: &str) -> bool {
    const WITHDRAWN: &[&str] = &[
        "withdrawn",
        "withdraw",
        "revoked",
        "retracted",
        "yanked",
        "відклик",
        "отозван",
        "отзыв",
        "оттеглен",
        "zurückgezogen",
        "zurückziehen",
        "retirad",
        "ritirat",
        "wycofan",
        "stažen",
        "stiahnut",
        "återkallad",
        "tilbakekalt",
        "tilbaketrukket",
        "trukket tilbage",
        "ingetrokken",
        "vedetty",
        "peruttu",
        "geri çekil",
        "visszavon",
        "retras",
        "ανακλ",
        "thu hồi",
        "ditarik",
        "取り下げ",
        "撤回",
        "철회",
        "वापस ले",
        "سحب",
    ];
    static PHRASES: OnceLock<forms::Phrases> = OnceLock::new();
    let withdrawn = PHRASES.get_or_init(|| forms::Phrases::new(WITHDRAWN));
    let lower = sentence.to_lowercase();
    without_brackets(&lower)
        .split([',', ';', ':', '—', '–', '，', '；', '。'])
        .find(|part| part.contains(name))
        .is_some_and(|part| withdrawn.find_in(part).is_some())
}

/// Whether the clause of a sentence that names tag `name` (between commas, semicolons or
/// dashes) says it was pushed, as done.
fn tag_pushed_in_its_clause(r: &Reading, name: &str) -> bool {
    let lower = r.sentence.to_lowercase();
    let Some(at) = lower.find(name) else {
        return false;
    };
    let ends = [',', ';', '，', '；', '。', '—'];
    // After the mark that ends the clause before (its width: `，` is three bytes).
    let start = lower[..at]
        .char_indices()
        .rev()
        .find(|(_, c)| ends.contains(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = lower[at..].find(ends).map_or(lower.len(), |i| at + i);
    let clause = &lower[start..end];
    let folded = fold(clause);
    PUSH_WORDS.iter().any(|w| folded.contains(w)) && states_as_done_in(r, clause)
}

/// The one commit hash a sentence names, written bare, in a code span or in brackets; none
/// when it names two (a tag's sentence that names its commit says where the tag points).
fn one_hash(sentence: &str) -> Option<String> {
    let mut hashes = sentence
        .split(|c: char| !c.is_ascii_alphanumeric())
        // A short hash may be all digits; evidence checks that it names a commit.
        .filter(|w| {
            (7..=40).contains(&w.len())
                && (vocab::is_hash(w) || w.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(str::to_ascii_lowercase);
    let first = hashes.next()?;
    hashes.all(|h| h == first).then_some(first)
}

/// Whether a reading states what is, as done: no question, denial, plan, instruction or
/// failure in its own words (a quoted commit subject or a code span is a name, not its
/// words: "commit "calc: add min"" asks for nothing).
pub(super) fn states_as_done(r: &Reading) -> bool {
    clause_states_as_done(&r.sentence) && !r.why.iter().any(|w| takes_it_back(w))
}

/// Whether a reason a reader gave takes a sentence's report back (a plan, a denial ...).
fn takes_it_back(why: &str) -> bool {
    NOT_DONE.iter().any(|x| why.contains(x))
}

/// [`states_as_done`], of the sentence without its bracketed asides: a reason the reader
/// gave that quotes a word only an aside holds does not count.
fn states_as_done_outside_asides(r: &Reading) -> bool {
    let main = without_brackets(&r.sentence);
    if main.len() == r.sentence.len() {
        return states_as_done(r);
    }
    states_as_done_in(r, &main)
}

/// [`states_as_done`], of a part of the sentence: a reason the reader gave counts only when
/// the word it quotes (`negated ("ไม่")`) is in that part.
fn states_as_done_in(r: &Reading, part: &str) -> bool {
    let quoted = |w: &str| w.split('"').nth(1).map(str::to_owned);
    let lower = part.to_lowercase();
    clause_states_as_done(part)
        && !r.why.iter().any(|w| {
            takes_it_back(w) && quoted(w).is_none_or(|q| lower.contains(&q.to_lowercase()))
        })
}

/// The sentence up to the end of the clause that holds its last code span with `needle`:
/// what a clause after it plans ("…bằng `git commit --amend`, nên lịch sử…": "so the
/// history…") is another clause's.
fn through_clause_of_last_span<'s>(sentence: &'s str, needle: &str) -> &'s str {
    let Some(at) = sentence.rfind(needle) else {
        return sentence;
    };
    let after_span = sentence[at + 1..]
        .find('`')
        .map_or(sentence.len(), |i| at + 1 + i + 1);
    let end = sentence[after_span..]
        .find([',', ';', '，', '；', '、'])
        .map_or(sentence.len(), |i| after_span + i);
    &sentence[..end]
}

/// Text without the words that are paths (`.env.example`, `dist/a.js`): a name, not
/// words that plan or deny.
pub(super) fn without_paths(text: &str) -> String {
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
pub(super) fn clause_states_as_done(text: &str) -> bool {
    let own = without_paths(&unquoted(text));
    let lower = fold(&own.to_lowercase());
    reports(&own)
        && !forms::any_in(&lower, Sets::NOT_A_PASS | Sets::FAILED)
        && !vocab::refused(&lower)
}

/// A sentence without what it quotes: code spans and quoted strings.
pub(super) fn unquoted(sentence: &str) -> String {
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

/// A sentence with each code span or quoted string in it as the one word `q`.
fn spans_as_words(sentence: &str) -> String {
    let quoted = unquoted(sentence);
    if quoted.len() == sentence.len() {
        return quoted;
    }
    let mut out = String::with_capacity(sentence.len());
    let mut inside = false;
    for c in sentence.chars() {
        match (inside, c) {
            (false, '`' | '"' | '«' | '“' | '„' | '「' | '『') => {
                inside = true;
                out.push_str(" q ");
            }
            (true, '`' | '"' | '»' | '”' | '“' | '」' | '』') => inside = false,
            (true, _) => {}
            (false, _) => out.push(c),
        }
    }
    out
}

pub(super) use super::super::vocab::COMMIT_WORDS;

/// Words between a word for commit and its quoted subject that name it: "commit titled
/// «…»", "commit with the message "…"", "commit بعنوان «…»".
const TITLED: &[&str] = &[
    "titled",
    "entitled",
    "named",
    "called",
    "with",
    "the",
    "message",
    "subject",
    "mit",
    "der",
    "nachricht",
    "titel",
    "namens",
    "intitulé",
    "nommé",
    "avec",
    "le",
    "message",
    "titulado",
    "llamado",
    "con",
    "el",
    "mensaje",
    "intitolato",
    "chiamato",
    "il",
    "messaggio",
    "com",
    "a",
    "mensagem",
    "chamado",
    "intitulado",
    "met",
    "bericht",
    "genaamd",
    "с",
    "сообщением",
    "названием",
    "под",
    "z",
    "wiadomością",
    "tytułem",
    "s",
    "zprávou",
    "med",
    "meddelandet",
    "meldingen",
    "beskeden",
    "başlıklı",
    "mesajıyla",
    "με",
    "μήνυμα",
    "bernama",
    "berjudul",
    "dengan",
    "pesan",
    "với",
    "tên",
    "بعنوان",
    "باسم",
    "برسالة",
    "با",
    "عنوان",
    "پیام",
    "בשם",
    "עם",
    "ההודעה",
    "नाम",
    "संदेश",
    "शीर्षक",
];

/// Marks the commits a report names by their subject ("ho registrato tutto nel commit
/// «calc: aggiunge pow»", "commit "calc: add min" के बाद"): a commit of this turn is
/// claimed, whatever the sentence's language, unless the sentence denies, plans or
/// reports a refusal (or a reader read a commit claim in it already); and its subject, when
/// the sentence quotes one ([`Kind::Titled`]).
pub fn mark_named_commits(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if undoes_history(&r.sentence) {
            continue;
        }
        let read_already = r
            .claims
            .iter()
            .any(|c| matches!(c.kind, Kind::Commit { .. }));
        let lower = fold(&r.sentence.to_lowercase());
        let named = COMMIT_WORDS.iter().any(|w| {
            lower.match_indices(w).any(|(i, w)| {
                // The subject stands right beside the word: "commit «…»", "commit: "…"",
                // "commit `chore: porta 9000`",
                // ""…" के बाद commit", "「…」をコミット".
                let after = lower[i + w.len()..].trim_start_matches([' ', ':']);
                let before = lower[..i].trim_end();
                let word_ends = !lower[i + w.len()..].starts_with(char::is_alphanumeric);
                // The word itself outside a code span (not `pre-commit`), and a span
                // after it that it opens.
                let outside_span = lower[..i].matches('`').count().is_multiple_of(2);
                let opens = !after.starts_with('`') || outside_span;
                // "commit titled «…»", "commit بعنوان «…»", "a commit with the message
                // "…"": up to three words of the clause between.
                // Only words that name it ("titled", "with the message"): "the commit
                // message reads "…"" describes a message, it makes no commit.
                let titled = || {
                    let words: Vec<&str> = after.split_whitespace().take(4).collect();
                    words
                        .iter()
                        .position(|w| w.starts_with(['"', '«', '“', '„', '「']))
                        .is_some_and(|k| k <= 3 && words[..k].iter().all(|w| TITLED.contains(w)))
                };
                // "`text: clamp via min of max` commit'i artık `main` dalında": a subject
                // in the code span right before the word.
                let span_before = before.ends_with('`')
                    && before[..before.len() - 1]
                        .rsplit('`')
                        .next()
                        .is_some_and(is_subject_span);
                word_ends
                    && opens
                    && (after.starts_with(['"', '«', '“', '„', '「', '`']) || titled())
                    || before.ends_with(['"', '»', '”', '“', '」'])
                    || span_before
            })
        });
        if named && states_as_done(r) {
            if !read_already {
                let claim = Claim::read(Kind::Commit { hash: None }, &r.sentence);
                add(r, claim);
            }
            if let Some(subject) = one_quoted_subject(&r.sentence) {
                add_new(r, Kind::Titled { subject });
            }
        } else if let Some(subjects) = counted_subjects(&r.sentence) {
            // "Két commitra bontottam: `feat: add is_prime` és `test: cover is_prime`",
            // "two commits: `a` and `b`": each subject a commit of the history must carry.
            if states_as_done(r) {
                for subject in subjects {
                    add_new(r, Kind::Titled { subject });
                }
            }
        }
    }
}

/// The subjects of the commits a sentence counts and names ("split into two commits:
/// `feat: add is_prime` and `test: cover is_prime below 20`", "Két commitra bontottam:
/// `a` és `b`"): a number right before a word for commit, in any case ending, and two or
/// more quoted subjects after it. One subject and no count is [`one_quoted_subject`]'s.
fn counted_subjects(sentence: &str) -> Option<Vec<String>> {
    let lower = fold(&sentence.to_lowercase());
    let first_quote = lower.find(['`', '"', '«', '“', '„', '「'])?;
    if !counts_commits(&unquoted(&lower[..first_quote])) {
        return None;
    }
    let subjects = quoted_subjects(&sentence[first_quote..]);
    (subjects.len() >= 2).then_some(subjects)
}

/// Marks the commit trailers a sentence says the turn's commit carries ("credited via the
/// `Co-authored-by` trailer of the commit", "`Signed-off-by` is in the commit"): a code
/// span with a trailer key's shape (`Co-authored-by`, `Signed-off-by`, `Reviewed-by`), a
/// word for commit, and no denial, plan or question.
pub fn mark_commit_trailers(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let keys: Vec<String> = vocab::spans_of(&r.sentence)
            .map(|s| s.trim().trim_end_matches(':'))
            .filter(|s| is_trailer_key(s))
            .map(str::to_owned)
            .collect();
        if keys.is_empty() {
            continue;
        }
        let lower = r.sentence.to_lowercase();
        if !COMMIT_WORDS.iter().any(|w| lower.contains(w))
            || r.sentence.trim_end().ends_with(['?', '？'])
            || plans_or_doubts(r)
            || negates(&unquoted(&lower))
        {
            continue;
        }
        for key in keys {
            add_new(r, Kind::Trailer { key });
        }
    }
}

/// A commit trailer's key: capitalised words joined by `-`, the last `by`
/// (`Co-authored-by`, `Signed-off-by`, `Reviewed-by`, `Acked-by`).
fn is_trailer_key(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.to_ascii_lowercase().ends_with("-by")
        && s.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
        && s.len() <= 30
}

/// The one quoted text of a sentence that reads as a commit's subject ("Коммит: «README:
/// add a Testing section»"): in «», "", “” or a code span, with a space in it, and no
/// path, command or second such text beside it.
fn one_quoted_subject(sentence: &str) -> Option<String> {
    match quoted_subjects(sentence).as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The quoted texts of a sentence that read as commits' subjects: in «», "", “” or a code
/// span, with a space in it, and no path or command.
fn quoted_subjects(sentence: &str) -> Vec<String> {
    const PAIRS: &[(char, char)] = &[
        ('«', '»'),
        ('"', '"'),
        ('“', '”'),
        ('„', '“'),
        ('「', '」'),
        ('`', '`'),
    ];
    let mut found: Vec<String> = Vec::new();
    let mut rest = sentence;
    while let Some((at, open)) = rest
        .char_indices()
        .find(|(_, c)| PAIRS.iter().any(|(o, _)| o == c))
    {
        let Some(close) = PAIRS.iter().find(|(o, _)| *o == open).map(|(_, c)| *c) else {
            break;
        };
        let inner_start = at + open.len_utf8();
        let Some(len) = rest[inner_start..].find(close) else {
            break;
        };
        let inner = rest[inner_start..inner_start + len].trim();
        // A subject may quote a command in it ("(python3 -m unittest)"); a command is none.
        let subject = inner.contains(' ')
            && inner.split_whitespace().count() <= 16
            && !inner.starts_with("git ")
            && !vocab::check_command_span(inner)
            && !vocab::names_a_step(inner);
        if subject && vocab::path_of(inner, true).is_none() {
            found.push(inner.to_owned());
        }
        rest = &rest[inner_start + len + close.len_utf8()..];
    }
    found
}

/// A code span written like a commit's subject (`text: clamp via min of max`): words with
/// a space, no command, path or option.
pub(super) fn is_subject_span(span: &str) -> bool {
    let span = span.trim();
    span.contains(' ')
        && !span.starts_with("git ")
        && !span.contains(" -")
        && !vocab::check_command_span(span)
        && !vocab::names_a_step(span)
        && span.split_whitespace().count() <= 12
}

/// Whether a sentence tells a step that takes commits or changes back (`git reset`, `git
/// restore`, `git checkout -- a`, `git rebase --abort`, `git stash`): the commit it names
/// by its subject is one it took out, and `origin/main` is where HEAD went back to ("Mit
/// `git reset --soft HEAD~1` ist der Commit „notes: second note“ aus der Historie raus;
/// `HEAD` steht wieder auf `origin/main`").
fn undoes_history(sentence: &str) -> bool {
    vocab::spans_of(sentence).any(|span| {
        let words: Vec<&str> = span.split_whitespace().collect();
        match words.as_slice() {
            ["git", "reset" | "restore" | "stash", ..] => true,
            ["git", "checkout", rest @ ..] => rest.contains(&"--"),
            ["git", "rebase" | "merge" | "cherry-pick", rest @ ..] => rest.contains(&"--abort"),
            _ => false,
        }
    })
}

/// Marks the git steps a sentence says it did with a command it writes out ("Ho applicato
/// su main il commit di `hotfix` con `git cherry-pick`", "gộp vào commit trước bằng `git
/// commit --amend`"): a step that can stop or that rewrites history, told as done with a
/// change form of any table, claims that the command ran and went through.
pub fn mark_git_steps(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.sentence.contains('`') {
            continue;
        }
        let steps: Vec<String> = vocab::spans_of(&r.sentence)
            .map(str::trim)
            .filter(|span| is_git_step(span) || vocab::names_a_step(span))
            .map(str::to_owned)
            .collect();
        if steps.is_empty() {
            continue;
        }
        let lower = fold(&unquoted(&r.sentence).to_lowercase());
        let last = format!("`{}", steps[steps.len() - 1]);
        let told = through_clause_of_last_span(&r.sentence, &last);
        // "Am anulat merge-ul … cu `git revert`": undoing is what a revert does, told in a
        // word no table has as a change (beside another step it means an abort).
        let undone = steps.iter().any(|s| s.starts_with("git revert"))
            && UNDONE.iter().any(|w| lower.contains(w));
        // "`git stash pop` je zapeo na konfliktu": a step told as stopped on a conflict.
        let stopped = CONFLICT.iter().any(|w| lower.contains(w));
        if stopped
            || !(forms::any_in(&lower, Sets::CHANGED) || undone)
            || !(states_as_done_outside_asides(r) || states_as_done_in(r, told))
        {
            continue;
        }
        for command in steps {
            let kind = Kind::Ran { command };
            add_new(r, kind);
        }
    }
}

/// Words for undoing, done, in the tables' languages: with `git revert` they tell the
/// revert as made.
pub(super) const UNDONE: &[&str] = &[
    "undid",
    "undone",
    "anulat",
    "revertat",
    "annulé",
    "reverté",
    "revertido",
    "revertida",
    "revertí",
    "deshecho",
    "deshice",
    "annullato",
    "annullata",
    "revertito",
    "desfeito",
    "desfiz",
    "rückgängig gemacht",
    "revertiert",
    "откатил",
    "отменил",
    "відкотив",
    "скасував",
    "cofnąłem",
    "cofnęłam",
    "cofnięto",
    "wycofałem",
    "wycofano",
    "geri aldım",
    "geri alındı",
    "geri aldık",
    "teruggedraaid",
    "ongedaan gemaakt",
    "återställde",
    "visszavontam",
    "visszavonva",
    "vrátil jsem",
    "kumottu",
    "kumosin",
    "取り消しました",
    "元に戻しました",
    "撤销了",
    "回滚了",
    "还原了",
    "已撤销",
    "되돌렸",
    "hoàn tác",
    "membatalkan",
    "dibatalkan",
    "ביטלתי",
    "تراجعت",
    "पलट दिया",
];

/// A git step that can stop on a conflict or that rewrites a commit: `git merge`, `git
/// rebase`, `git cherry-pick`, `git revert`, `git am`, `git pull`, `git stash pop` or
/// `apply`, `git commit --amend` (not their `--abort`, `--continue`, `--skip`).
pub(super) fn is_git_step(span: &str) -> bool {
    let words: Vec<&str> = span.split_whitespace().collect();
    let step = match words.as_slice() {
        ["git", "stash", "pop" | "apply", ..] => true,
        ["git", "commit", rest @ ..] => rest.contains(&"--amend"),
        ["git", sub, ..] => matches!(
            *sub,
            "merge" | "rebase" | "cherry-pick" | "pull" | "revert" | "am"
        ),
        _ => false,
    };
    step && !words
        .iter()
        .any(|w| matches!(*w, "--abort" | "--continue" | "--skip" | "--quit"))
}

/// Words that say a step is done, as a status row's whole value ("commit + push: kész").
pub(super) const DONE: &[&str] = &[
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
pub(super) const PUSH_WORDS: &[&str] = &[
    "push",
    // French ("poussé vers `main`").
    "poussé",
    "pousser",
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
    // Pushing in the language's own verb: Vietnamese, Hebrew, Romanian, Indonesian,
    // Tagalog, Swahili, Polish, Greek.
    "đẩy lên",
    "נדחף",
    "נדחפה",
    "דחפתי",
    "דחפנו",
    "împins",
    "didorong",
    "itinulak",
    "imesukumwa",
    "wypchnię",
    "wypchną",
    "ωθήθηκ",
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
        // "Ran `git push` — ветка main на origin обновлена": after the command written
        // out, a longer value that tells a change is its outcome.
        let ran_git = subject.contains("`git push") || subject.contains("`git commit");
        let told = value.split_whitespace().count() <= 3
            && (DONE.iter().any(|d| has_word(&value, d)) || says_passed(&value))
            || ran_git
                && value.split_whitespace().count() <= 12
                && forms::any_in(&value, Sets::CHANGED);
        let done = told && !refutes(&value, true) && !vocab::refused(&value);
        if !done || subject.split_whitespace().count() > 10 {
            continue;
        }
        let lower = fold(&unquoted(subject).to_lowercase());
        let commit =
            COMMIT_WORDS.iter().any(|w| lower.contains(w)) || subject.contains("`git commit");
        let push = PUSH_WORDS.iter().any(|w| lower.contains(w)) || subject.contains("`git push");
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
            let branch = vocab::spans_of(subject)
                .map(str::trim)
                .find(|b| {
                    !b.is_empty()
                        && b.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "/-_.".contains(c))
                })
                .map(|b| b.trim_start_matches("origin/").to_owned())
                // "— ветка main на origin обновлена": the value names the branch beside a
                // word for branch.
                .or_else(|| {
                    let words: Vec<&str> = value.split_whitespace().collect();
                    words.windows(2).find_map(|w| {
                        let name = w[1].trim_matches('`');
                        (is_branch_word(w[0])
                            && (is_branch_name(name)
                                || is_bare_branch_name(name)
                                || matches!(name, "main" | "master")))
                        .then(|| name.to_owned())
                    })
                });
            let claim = Claim::read(Kind::Push { branch }, &r.sentence);
            add(r, claim);
        }
    }
}

/// Marks the commits and pushes a sentence tells in a word of another table than the one
/// it was read with: a short message is read as English ("Pushattu haaraan
/// `origin/feat/port`", "Naka-commit bilang `chore: drop build artifacts`"). A word of any
/// table's push forms beside a branch's span claims its push; of its commit forms beside a
/// subject in a span or a hash, a commit. Only for a sentence its reader found no claim in,
/// and none that holds a negation, a plan, a failure or a refusal of any table.
pub fn mark_foreign_git_forms(readings: &mut [Reading]) {
    for r in readings
        .iter_mut()
        .filter(|r| !r.skipped && r.claims.is_empty())
    {
        if !r.sentence.contains('`') || !r.why.iter().any(|w| w.starts_with("no claim:")) {
            continue;
        }
        let prose = fold(&vocab::outside_spans(&r.sentence, " ").to_lowercase());
        let (pushes, commits) = foreign_git_forms();
        let words: Vec<&str> = prose
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .filter(|w| !w.is_empty())
            .collect();
        let pushed = words.iter().any(|w| pushes.contains(w));
        let committed = words.iter().any(|w| commits.contains(w));
        if !(pushed || committed)
            || negates(&prose)
            || forms::any_in(&prose, Sets::NOT_A_PASS | Sets::NOT_A_REPORT | Sets::FAILED)
            || vocab::refused(&prose)
        {
            continue;
        }
        let sentence = r.sentence.clone();
        let spans: Vec<&str> = vocab::spans_of(&sentence).map(str::trim).collect();
        let branch = spans
            .iter()
            .map(|s| s.trim_start_matches("origin/"))
            .find(|s| {
                is_branch_name(s) || is_bare_branch_name(s) || matches!(*s, "main" | "master")
            });
        if let Some(branch) = branch.filter(|_| pushed) {
            let kind = Kind::Push {
                branch: Some(branch.to_owned()),
            };
            let claim = Claim::read(kind, &r.sentence);
            add(r, claim);
        }
        let hash = vocab::hashes_in(&r.sentence)
            .find(|w| w.len() >= 7)
            .map(str::to_owned);
        let subject = spans.iter().any(|s| s.contains(' '));
        if committed && (hash.is_some() || subject) {
            let claim = Claim::read(Kind::Commit { hash }, &r.sentence);
            add(r, claim);
        }
    }
}

/// Every table's one-word push and commit forms but English's, gathered once.
fn foreign_git_forms() -> &'static (FastSet<&'static str>, FastSet<&'static str>) {
    static FORMS: OnceLock<(FastSet<&'static str>, FastSet<&'static str>)> = OnceLock::new();
    FORMS.get_or_init(|| {
        let one_word = |w: &&'static str| {
            let w = w.trim();
            (!w.is_empty() && !w.contains(' ')).then_some(w)
        };
        let langs = crate::audit::lang::LANGS.iter();
        // A table with no spaces writes "push" and "commit" with a mark that tells them
        // done: the bare loanwords are no past form.
        let (en, others): (Vec<&crate::audit::lang::Lang>, Vec<_>) =
            langs.filter(|l| l.spaced).partition(|l| l.code == "en");
        // English's own words are its reader's ("pushed" is in other tables too).
        let english: FastSet<&str> = en
            .iter()
            .flat_map(|l| l.pushed.iter().chain(l.committed))
            .map(|w| w.trim())
            .collect();
        let gather = |of: &dyn Fn(&crate::audit::lang::Lang) -> [&'static [&'static str]; 2]| {
            others
                .iter()
                .flat_map(|l| of(l).into_iter().flatten())
                .filter_map(one_word)
                .filter(|w| !english.contains(w))
                .collect()
        };
        (
            gather(&|l| [l.pushed, l.relayed.pushed]),
            gather(&|l| [l.committed, l.relayed.committed]),
        )
    })
}

/// Words for sending, in the tables' languages: denied beside a ref, they say it was not
/// pushed.
const SENT: &[&str] = &[
    "sent",
    "envoy",
    "enviad",
    "enviou",
    "inviat",
    "изпрат",
    "отправ",
    "надісл",
    "wysłan",
    "odeslán",
    "gesendet",
    "verschickt",
    "verstuurd",
    "skickad",
    "sendt",
    "lähetet",
    "elküld",
    "gönderil",
    "gönderme",
    "trimis",
    "送信",
    "发送",
    "發送",
    "보내",
    "gửi",
    "dikirim",
    "נשלח",
    "أرسل",
    "ارسال",
];

/// Words that say a branch was left as it was, with no word for "not" ("main untouched",
/// "main unverändert", "main intacto", "main не тронут" has its "не").
pub(super) const UNTOUCHED: &[&str] = &[
    "netaknut",
    "nedotaknjen",
    "nedotknut",
    "недокоснат",
    "незачеплен",
    "érintetlen",
    "koskematon",
    "uberørt",
    "dokunulma",
    "ανέγγιχτ",
    "tidak tersentuh",
    "untouched",
    "unchanged",
    "intact",
    "as it was",
    "unverändert",
    "unberührt",
    "inchangé",
    "intacto",
    "intacta",
    "sin cambios",
    "sem alteraç",
    "invariato",
    "intatto",
    "ongewijzigd",
    "onaangeroerd",
    "нетронут",
    "без изменений",
    "незмінн",
    "nietknięt",
    "bez zmian",
    "beze změn",
    "nedotčen",
    "muuttumat",
    "koskemat",
    "uendret",
    "urørt",
    "oförändrad",
    "orörd",
    "uændret",
    "neschimbat",
    "neatins",
    "άθικτ",
    "αμετάβλητ",
    "そのまま",
    "原样",
    "原封不动",
    "不变",
    "그대로",
    "nguyên vẹn",
    "giữ nguyên",
    "utuh",
    "ללא שינוי",
    "دون تغيير",
    "بدون تغيير",
    "دست‌نخورده",
    "अछूत",
    "अपरिवर्तित",
    "অপরিবর্তিত",
    "เหมือนเดิม",
];

/// Words for touching, merging and rebasing, beside [`COMMIT_WORDS`] and [`PUSH_WORDS`]: what
/// a denial beside a branch says did not happen to it ("main не тронут", "nichts nach main
/// gemergt").
const TOUCH_WORDS: &[&str] = &[
    "touch",
    "тронут",
    "трогал",
    "тронул",
    "торка",
    "berühr",
    "angefasst",
    "tocad",
    "toqué",
    "tocó",
    "toccat",
    "tocat",
    "aangeraakt",
    "dotkn",
    "tknię",
    "tknął",
    "dokun",
    "koske",
    "rørt",
    "rört",
    "chạm",
    "đụng",
    "sentuh",
    "छु",
    "触",
    "動か",
    "いじ",
    "건드",
    "손대",
    "נגע",
    "لمس",
    "แตะ",
    "merg",
    "мерж",
    "мёрж",
    "слия",
    "злит",
    "マージ",
    "合并",
    "合併",
    "병합",
    "rebase",
    "ребейз",
    "fusion",
    "fusion",
    "modif",
    "chang",
    "измен",
    "змін",
    "änder",
    "zmien",
    "wijzig",
];

/// Marks what a sentence says did not move ("коммит на ветке fix/x, main не тронут", "did not
/// push to `main`", "Nothing was pushed"), in any language: a clause that a reader found a
/// denial in ("negated ("не")"), or that says "untouched", naming a branch beside a word
/// for pushing (no push of it in this turn), or for committing, merging, touching or
/// changing (the branch as the turn began). Without a branch, only a denied push is read
/// (the work as the turn left it was not pushed).
pub fn mark_unmoved(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let denials = denials_of(r);
        let lower = fold(&r.sentence.to_lowercase());
        // A push that was refused is told by the refusal; what a subagent did not do, the
        // parent may have done after: neither says what the turn left.
        // "`git merge --squash feat/notes` only staged the changes, committed nothing on
        // `main`": what that command did not do, not what the turn left (a commit may follow).
        let command_subject = r
            .sentence
            .trim_start_matches(['-', '*', '•', ' '])
            .strip_prefix('`')
            .and_then(|rest| rest.split_once('`'))
            .is_some_and(|(span, _)| {
                // A command that moves things (`git status`, `git log` only look).
                let words: Vec<&str> = span.split_whitespace().collect();
                matches!(
                    words.as_slice(),
                    [
                        "git",
                        "merge"
                            | "rebase"
                            | "commit"
                            | "push"
                            | "stash"
                            | "cherry-pick"
                            | "reset"
                            | "checkout"
                            | "switch"
                            | "pull"
                            | "revert"
                            | "am",
                        ..
                    ]
                )
            });
        if denials.is_empty() && !UNTOUCHED.iter().any(|w| lower.contains(w))
            || vocab::refused(&lower)
            || super::super::lang::names_an_agent(&r.sentence)
            || command_subject
        {
            continue;
        }
        let mut kinds: Vec<Kind> = Vec::new();
        // A bracketed aside denies only itself ("（フィーチャーブランチは作っていません）").
        let outside = without_brackets(&lower);
        for clause in outside.split([',', ';', '，', '；', '。', '—']) {
            // A short clause says one thing: in a long one (a script written without
            // spaces or commas, "…មិនបានបញ្ជូន… ដូច្នេះខ្ញុំបាន push…") a denial may be of
            // something else than the push or the branch beside it.
            if clause.trim().chars().count() > 80 {
                continue;
            }
            let untouched = UNTOUCHED.iter().any(|w| clause.contains(w));
            let denied = denials
                .iter()
                .any(|d| !d.is_empty() && clause.contains(d.as_str()));
            if !untouched && !denied {
                continue;
            }
            let plain = unquoted(clause);
            // "Локалният ти таг `tmp-bisect` не е изпратен": a ref denied sent is one not
            // pushed (a word for sending says so only beside a denial).
            let push = PUSH_WORDS.iter().chain(SENT).any(|w| plain.contains(w));
            let touch = untouched
                || COMMIT_WORDS.iter().any(|w| plain.contains(w))
                || TOUCH_WORDS.iter().any(|w| plain.contains(w));
            // A tag the clause names ("the tag `v0.2.0` is not pushed yet") is what was not
            // pushed, whatever else was.
            let tag = clause
                .split(|c: char| c.is_whitespace() || "`'\"«»“”()，。、：,;:".contains(c))
                .find(|w| is_version_tag(w.trim_end_matches(['.', '!'])))
                .map(|w| w.trim_end_matches(['.', '!']).to_owned());
            if let Some(tag) = tag {
                if push {
                    kinds.push(Kind::Unmoved {
                        branch: Some(tag),
                        remote: true,
                    });
                }
                continue;
            }
            // `origin/main` unchanged: the remote's branch, which only a push moves.
            // "ветка `main` на origin не изменилась": the remote named beside the branch.
            let remote_named = clause.contains("`origin/")
                || clause.contains(" origin/")
                || unquoted(clause)
                    .split(|c: char| !c.is_alphanumeric())
                    .any(|w| {
                        // A particle glued on ("origin의", "originの") is still the remote.
                        ["origin", "upstream"].iter().any(|r| {
                            w.strip_prefix(r)
                                .is_some_and(|rest| rest.chars().all(|c| !c.is_ascii()))
                        })
                    })
                || clause.contains("`origin`");
            let branch = branch_in(clause);
            let push = push || remote_named && branch.is_some();
            match (branch, push, touch) {
                (Some(b), true, _) => kinds.push(Kind::Unmoved {
                    branch: Some(b),
                    remote: true,
                }),
                (Some(b), false, true) => kinds.push(Kind::Unmoved {
                    branch: Some(b),
                    remote: false,
                }),
                // Not a push that was refused (that claim is the refusal's), nor one a
                // subagent could not make (the parent may have made it after).
                // Without a branch, only a clause that names nothing else ("Not pushed.",
                // "Ничего не пушил"): "`origin` … not pushed yet" is about one remote.
                (None, true, _) if denied && !clause.contains('`') => kinds.push(Kind::Unmoved {
                    branch: None,
                    remote: true,
                }),
                _ => {}
            }
        }
        for kind in kinds {
            add_new(r, kind);
        }
    }
}

/// Marks a deletion told in a clause of its own, when a reader took the sentence back for a
/// denial in a later clause that says what is "now" ("`build/` फ़ोल्डर हटा दिया गया — अब …
/// `.o` फ़ाइलें नहीं हैं": the folder was deleted, and "now no `.o` files" is what that
/// left). One path in the clause, a deletion form of any table outside its spans, no
/// denial of the sentence in that clause, and no plan.
pub fn mark_gone_beside_denials(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let denials = denials_of(r);
        let planned = plans_or_doubts(r);
        if denials.is_empty()
            || planned
            || r.claims.iter().any(|c| {
                matches!(
                    &c.kind,
                    Kind::File {
                        change: Change::Deleted,
                        ..
                    } | Kind::Dir {
                        change: Change::Deleted,
                        ..
                    }
                )
            })
            || super::super::lang::names_an_agent(&r.sentence)
            || vocab::refused(&r.sentence.to_lowercase())
        {
            continue;
        }
        let outside = without_brackets(&r.sentence);
        let clauses: Vec<&str> = outside
            .split([',', ';', '，', '；', '—', '–', '、'])
            .collect();
        let denies = |clause: &str| {
            let lower = clause.to_lowercase();
            denials.iter().any(|d| lower.contains(d.as_str()))
        };
        // The denial is what the deletion left, told after it: "now there are no …".
        let Some(last_denial) = clauses
            .iter()
            .rposition(|c| denies(c) && super::paths::says_now(c))
        else {
            continue;
        };
        let mut kinds = Vec::new();
        for clause in &clauses[..last_denial] {
            if denies(clause) || !super::tells_gone(&unquoted(clause)) {
                continue;
            }
            let paths = super::paths::path_spans(clause);
            let [path] = paths.as_slice() else {
                continue;
            };
            let change = Change::Deleted;
            kinds.push(if path.ends_with('/') {
                Kind::Dir {
                    path: path.clone(),
                    change,
                }
            } else {
                Kind::File {
                    path: path.clone(),
                    change,
                }
            });
        }
        for kind in kinds {
            let claim = Claim::read(kind, &r.sentence);
            add(r, claim);
        }
    }
}

/// Words that put a file in a later commit, or leave it out ("in the next commit",
/// "später committen", "次のコミット"): such a clause claims no file committed.
const LATER: &[&str] = &[
    "next",
    "later",
    "separate",
    "another",
    "follow-up",
    "uncommit",
    "pre-commit",
    "ready",
    "nächst",
    "später",
    "separat",
    "próxim",
    "siguiente",
    "después",
    "prochain",
    "plus tard",
    "prossim",
    "dopo",
    "volgende",
    "следующ",
    "позже",
    "отдельн",
    "наступн",
    "пізніше",
    "下一",
    "之后",
    "稍后",
    "单独",
    "次の",
    "後で",
    "別の",
    "다음",
    "나중",
    "별도",
    "sonraki",
    "sonra",
    "ayrı",
    "kolejn",
    "później",
    "tiếp theo",
    "berikut",
    "nanti",
    "terpisah",
    "הבא",
    "التالي",
    "لاحق",
    "بعدی",
    "बाद में",
    "अगले",
    "ถัดไป",
];

/// Words that take in every file the sentence named ("both files", "оба файла", "beide").
const BOTH: &[&str] = &[
    "both",
    "all files",
    "all of them",
    "оба",
    "обе",
    "обидва",
    "обидві",
    "все файлы",
    "beide",
    "alle dateien",
    "les deux",
    "tous les fichiers",
    "ambos",
    "ambas",
    "todos los archivos",
    "entrambi",
    "tutti i file",
    "allebei",
    "oba",
    "obydwa",
    "两个文件",
    "兩個檔案",
    "両方",
    "둘 다",
    "her iki",
    "cả hai",
    "keduanya",
    "שניהם",
    "كلا",
    "هر دو",
    "दोनों",
    "ทั้งสอง",
];

/// Marks the files a sentence says went into a commit ("оба файла вошли в коммит `docs:
/// notes and readme`", "committed `a.py` and `b.py` as `1a2b3c4`"), in any language: in a
/// sentence that claims the commit, a clause with a word for a commit and paths, in the
/// clause or, with a word for both or all, every path of the sentence. A clause that denies, plans, or puts a file in a
/// later commit claims none.
pub fn mark_committed_files(readings: &mut [Reading]) {
    // "- `docs/faq.md` written, linked from `README.md`. / - Both files are in commit
    // `docs: add FAQ`": a word for both with no path of its own speaks of the paths of
    // the sentence before.
    let mut before: Vec<Vec<String>> = Vec::with_capacity(readings.len());
    let mut last: Vec<String> = Vec::new();
    for r in readings.iter() {
        before.push(last.clone());
        if !r.skipped && !r.sentence.trim().is_empty() {
            last = super::paths::path_spans(&r.sentence);
        }
    }
    for (i, r) in readings.iter_mut().enumerate().filter(|(_, r)| !r.skipped) {
        let lower = r.sentence.to_lowercase();
        if !COMMIT_WORDS.iter().any(|w| lower.contains(w)) {
            continue;
        }
        let denied = r.why.iter().any(|w| takes_it_back(w));
        if denied
            || undoes_history(&r.sentence)
            || super::super::lang::names_an_agent(&r.sentence)
            || vocab::refused(&r.sentence.to_lowercase())
        {
            continue;
        }
        let commit_claimed = r.claims.iter().any(|c| {
            matches!(c.kind, Kind::Commit { .. }) && c.confidence == vocab::Confidence::Strong
        });
        let mut paths: Vec<String> = Vec::new();
        for clause in without_brackets(&r.sentence).split([';', '；', '—', '。']) {
            let lower = clause.to_lowercase();
            let plain = unquoted(&lower);
            if !COMMIT_WORDS
                .iter()
                .any(|w| plain.contains(w) || lower.contains(w))
                || LATER.iter().any(|w| lower.contains(w))
            {
                continue;
            }
            // "`stats-1.0.0.tgz` queda sin commitear", "…, `notes.txt` is not committed":
            // the part that leaves a file out of the commit names none of its files.
            let leaves_out = |part: &str| {
                negation_beside_commit_word(part)
                    || LEFT_OUT.iter().any(|w| part.to_lowercase().contains(w))
            };
            let kept: String;
            let clause = if leaves_out(clause) {
                kept = clause
                    .split([',', '，'])
                    .filter(|part| !leaves_out(part))
                    .collect::<Vec<_>>()
                    .join(",");
                kept.as_str()
            } else {
                clause
            };
            // The sentence claims the commit as the agent's own, or the clause names it by its
            // hash beside a word for both or all ("ambos archivos están en el commit
            // 1a2b3c4"); "your commit `4e5f6a7` modified `src/parser.rs`", "upstream commit
            // 3f2a9c1" are another's.
            let hash_named = vocab::hashes_in(clause).next().is_some();
            let both = BOTH.iter().any(|w| lower.contains(w));
            // "Commit 1a2b3c4 berisi `docs/setup.md` dan `docs/faq.md`": the commit named by
            // its hash holds the paths that follow a word for "contains".
            let into = INTO_A_COMMIT.iter().any(|w| plain.contains(w))
                || INCLUDES.iter().any(|w| plain.contains(w));
            let contains = super::paths::CONTAINS.iter().any(|w| plain.contains(w))
                || into
                || plain
                    .split(|c: char| !c.is_alphanumeric())
                    .any(|w| HAS.contains(&w));
            // "… aynı commit'le (804873c) depoya girdi": the hash in brackets names it too.
            let hash_named = hash_named || into && vocab::hashes_in(&r.sentence).next().is_some();
            if !(commit_claimed || hash_named && (both || contains)) {
                continue;
            }
            let own = super::paths::path_spans(clause);
            if !own.is_empty() {
                paths.extend(own);
            } else if BOTH.iter().any(|w| lower.contains(w)) {
                let of_sentence = super::paths::path_spans(&r.sentence);
                if of_sentence.is_empty() {
                    paths.extend(before[i].iter().cloned());
                } else {
                    paths.extend(of_sentence);
                }
            }
        }
        for path in paths {
            let kind = Kind::Committed { path };
            add_new(r, kind);
        }
    }
}

/// Words for a file going into a commit named by its hash ("`build/README.md` đã vào
/// commit 1a2b3c4", "`logs/` … aynı commit'le (1a2b3c4) depoya girdi", "went into commit
/// 1a2b3c4"): the commit holds the paths of the clause.
const INTO_A_COMMIT: &[&str] = &[
    "went into",
    "made it into",
    "got into",
    "entered",
    "vào",
    "girdi",
    "вошл",
    "вошёл",
    "увійшл",
    "entrou",
    "entraram",
    "entró",
    "entraron",
    "entrato",
    "entrati",
    "landete",
    "gelandet",
    "bekerült",
    "weszł",
    "masuk",
];

/// Words for "includes" (and "carries") that put paths in a commit a sentence names ("הקומיט
/// 24b2713 כולל גם את `app/report.py`", "el commit 0ccacdc lleva …").
pub(super) const INCLUDES: &[&str] = &[
    "includes",
    "including",
    "incluye",
    "inclui",
    "inclut",
    "include",
    "umfasst",
    "beinhaltet",
    "omfattar",
    "omfatter",
    "obejmuje",
    "zahrnuje",
    "включает",
    "включає",
    "включва",
    "περιλαμβάνει",
    "bao gồm",
    "termasuk",
    "mencakup",
    "כולל",
    "כוללת",
    "يتضمن",
    "يشمل",
    "包括",
    "lleva",
    "leva",
];

/// Marks the mode a sentence says a file was committed with ("`bin/run` は実行ビット付き
/// （100755）でコミットされています", "В commit-а скриптът е записан като изпълним, с режим
/// `100755`"): a git file mode (`100755`, `100644`, `120000`), a word for a commit, and the
/// file: the sentence's one path, or else the one path of the nearest line before that
/// names paths ("the script"). Nothing where the clause denies, plans or asks.
pub fn mark_committed_modes(readings: &mut [Reading]) {
    const MODES: &[&str] = &["100755", "100644", "100664", "120000"];
    let mut last_paths: Vec<String> = Vec::new();
    for r in readings.iter_mut() {
        let paths = super::paths::path_spans(&r.sentence);
        let mode = r
            .sentence
            .split(|c: char| !c.is_ascii_digit())
            .find(|w| MODES.contains(w))
            .map(str::to_owned);
        let earlier = last_paths.clone();
        if !paths.is_empty() {
            last_paths = paths;
        }
        let Some(mode) = mode else {
            continue;
        };
        let lower = r.sentence.to_lowercase();
        if r.skipped
            || !COMMIT_WORDS.iter().any(|w| lower.contains(w))
            || plans_or_doubts(r)
            || negates(&unquoted(&lower))
        {
            continue;
        }
        // With several paths, the one the sentence leads with ("`bin/run` は
        // `scripts/run.sh` と同じく …": the other is what it is compared with).
        let lead = vocab::spans_of(&r.sentence).find_map(|s| vocab::path_of(s.trim(), true));
        let path = match (lead, earlier.as_slice()) {
            (Some(lead), _) => lead,
            (None, [one]) => one.clone(),
            _ => continue,
        };
        add_new(r, Kind::Mode { path, mode });
    }
}

/// Words for "has", whole: what a commit named by its hash holds ("Commit 78aed53 ina faili
/// tatu: `lib/log.sh` …", "commit 1a2b3c4 има `a.py`"), how many tests a test file holds
/// ("test/batch.test.js có 3 test"). Not French "a" (Hungarian's article, Catalan's "in"),
/// nor Hungarian "van" (Dutch "of").
pub(super) const HAS: &[&str] = &[
    "has",
    "have",
    "hat",
    "heeft",
    "har",
    "tiene",
    "tem",
    "ha",
    "ma",
    "má",
    "ima",
    "има",
    "имеет",
    "має",
    "ina",
    "zina",
    "lina",
    "kina",
    "ana",
    "có",
    "memiliki",
    "punya",
    "berisi",
    "var",
    "έχει",
    "दिइएको",
];

/// Marks the file a sentence says is still staged ("the staged change in `notes.txt` is
/// still staged", "تغییر staged شما در `notes.txt` هنوز staged مانده"): the word "staged"
/// (or "in the index") and a word for "still", with one path in the sentence. The file
/// must still differ from `HEAD`, or at least no commit of the turn took its change
/// ([`Kind::Uncommitted`]). "Your" is no other actor here: the change is the user's, where
/// it stays is the agent's claim. Nothing where the sentence denies, plans or asks.
pub fn mark_still_staged(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let lower = r.sentence.to_lowercase();
        // The words first, on the sentence as written: most sentences hold none.
        if !STAGED.iter().any(|w| lower.contains(w)) {
            continue;
        }
        let own = unquoted(&lower);
        if !STAGED.iter().any(|w| own.contains(w))
            || !STILL.iter().any(|w| own.contains(w))
            || own.contains("unstaged")
            || r.sentence.trim_end().ends_with(['?', '？'])
            || r.why.iter().any(|w| not_reported(w, &["someone"]))
            || negates(&without_paths(&own))
        {
            continue;
        }
        let paths = path_spans(&r.sentence);
        let [path] = paths.as_slice() else {
            continue;
        };
        add_new(
            r,
            Kind::Uncommitted {
                path: path.clone(),
                commit: None,
            },
        );
    }
}

/// Words for "staged" and "in the index".
const STAGED: &[&str] = &[
    "staged",
    "in the index",
    "im index",
    "dans l'index",
    "en el índice",
    "no índice",
    "nell'indice",
    "в индексе",
    "в індексі",
    "w indeksie",
    "暂存区",
    "暫存區",
    "ステージ",
    "스테이징",
];

/// Words for "still", in the tables' languages and beyond.
pub(super) const STILL: &[&str] = &[
    "still",
    "noch",
    "toujours",
    "encore",
    "todavía",
    "sigue",
    "ainda",
    "ancora",
    "nog",
    "steeds",
    "ещё",
    "еще",
    "досі",
    "nadal",
    "wciąż",
    "stále",
    "pořád",
    "még",
    "hâlâ",
    "hala",
    "vẫn",
    "masih",
    "仍",
    "还",
    "還",
    "まだ",
    "아직",
    "여전히",
    "अब भी",
    "अभी भी",
    "ابھی بھی",
    "هنوز",
    "لا يزال",
    "ما زال",
    "עדיין",
    "ακόμα",
    "încă",
    "fortfarande",
    "yhä",
    "još",
];

/// Marks the files a sentence says are not committed ("`notes.txt`: new line … — ikke
/// committet, som du bad om", "Verzija podignuta na 1.0.1 u `package.json` — ta promjena
/// još nije commitana"): a clause where a negation stands within three words of a word for
/// commit, with no path between them, and the clause's paths (or the sentence's one
/// path, when the clause has none). A clause that names a commit by its hash, a branch,
/// another agent or a later commit, and a plan or a question, mark nothing: "not committed
/// to `main`", "not in commit 1a2b3c4" speak of where, not whether.
pub fn mark_uncommitted_files(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let lower = r.sentence.to_lowercase();
        // "The commit only touches `a` and `b`; `Cargo.lock` was left out of it": a file a
        // sentence about a commit leaves out of it.
        let left_out = |clause: &str| LEFT_OUT.iter().any(|w| clause.contains(w));
        if COMMIT_WORDS.iter().any(|w| lower.contains(w))
            && left_out(&lower)
            && !super::super::lang::names_an_agent(&r.sentence)
            && !forms::any_in(&fold(&lower), Sets::FAILED)
            && !refs_plan(r)
        {
            let unbracketed = without_brackets(&r.sentence);
            for clause in unbracketed.split([';', '；', '—', '。', ',', '，']) {
                let lower_clause = clause.to_lowercase();
                if let Some(at) = LEFT_OUT.iter().filter_map(|w| lower_clause.find(w)).min() {
                    // What is left out is named before the words ("`Cargo.lock` was left
                    // out of it"); "left out the flaky test from `tests/a.py`" keeps the
                    // file, and commits it without the test. Bare names too.
                    // (Lower-casing keeps the byte offsets of ASCII text; elsewhere the
                    // cut falls on a character's boundary or the clause is left.)
                    let Some(head) = clause.get(..at) else {
                        continue;
                    };
                    let named = head
                        .split(|c: char| c.is_whitespace() || c == '`')
                        .map(|w| w.trim_matches(|c: char| ",.;:()".contains(c)))
                        .filter_map(|w| vocab::path_of(w, false));
                    for path in named.filter(|p| !p.ends_with('/')) {
                        add_new(r, Kind::Uncommitted { path, commit: None });
                    }
                }
            }
        }
        // "The first attempt failed: … neither `git rm` nor the commit ran" tells a step on
        // the way, not how the turn left the file.
        // (A negation beside the word for commit first: a sentence without one, most of
        // those that name a commit, is left at once, by the forms' index every reader
        // builds before the negations' own table.)
        if !COMMIT_WORDS.iter().any(|w| lower.contains(w))
            || !forms::any_in(&fold(&lower), Sets::NOT_THERE)
            || !negation_beside_commit_word(&without_brackets(&lower))
            || super::super::lang::names_an_agent(&r.sentence)
            || refs_plan(r)
            || forms::any_in(&fold(&lower), Sets::FAILED)
            || super::tells_a_sequence(&r.sentence)
        {
            continue;
        }
        let of_sentence = super::paths::path_spans(&r.sentence);
        // A clause without a path speaks of the sentence's one path when the sentence leads
        // with it ("`notes.txt`: … — not committed") or the clause follows a dash after it
        // ("the version in `package.json` — that change is not committed yet"); "`cargo
        // test` fails in `tests/e2e.rs`, so I did not commit" says nothing of that file.
        let unbracketed = without_brackets(&r.sentence);
        let leads = vocab::spans_of(&r.sentence)
            .next()
            .and_then(|s| vocab::path_of(s.trim(), true))
            .is_some_and(|p| of_sentence.first() == Some(&p));
        let after_dash = unbracketed
            .split_once(['—', '–'])
            .map(|(_, after)| after)
            .unwrap_or("");
        // "Commit 407860f `fix(window): …`, só com src/window.js …; o scratch.js … não entrou
        // no commit": beside the one commit the sentence names by its hash, a clause that
        // leaves a file out of "the commit" speaks of that commit.
        let named_commit = one_hash(&r.sentence);
        let mut paths: Vec<String> = Vec::new();
        for clause in unbracketed.split([';', '；', '—', '。', ',', '，']) {
            let lower = clause.to_lowercase();
            if !negation_beside_commit_word(&lower)
                || LATER.iter().any(|w| lower.contains(w))
                || vocab::hashes_in(clause).next().is_some()
                || names_a_branch(clause)
            {
                continue;
            }
            // A bare top-level name counts here ("o scratch.js … não entrou no commit"): the
            // claim blocks only when a commit changed a file of that very path.
            let mut own = super::paths::path_spans(clause);
            if named_commit.is_some() {
                for name in bare_file_names(clause) {
                    if !own.contains(&name) {
                        own.push(name);
                    }
                }
            }
            match (own.is_empty(), of_sentence.as_slice()) {
                (false, _) => paths.extend(own),
                (true, [one]) if leads || after_dash.contains(clause.trim()) => {
                    paths.push(one.clone())
                }
                _ => {}
            }
        }
        // A folder is not committed or not as a whole: its files are.
        for path in paths.into_iter().filter(|p| !p.ends_with('/')) {
            let commit = named_commit.clone();
            add_new(r, Kind::Uncommitted { path, commit });
        }
    }
}

/// Words that leave a file out of what a sentence names ("left out of it", "ficou de
/// fora", "außen vor").
const LEFT_OUT: &[&str] = &[
    "left out",
    "kept out",
    "excluded from",
    "not part of",
    "quedó fuera",
    "quedó afuera",
    "ficou de fora",
    "ficou fora",
    "laissé de côté",
    "laissé hors",
    "außen vor",
    "buiten de commit",
    "buiten gelaten",
    "utanför commit",
    "udenfor commit",
    "poza commitem",
    "вне коммита",
    "не вошёл в коммит",
    "не вошел в коммит",
    "не попал в коммит",
    "commit dışında",
    "nằm ngoài commit",
];

/// Whether a reading was read as a plan, a condition, a question or another's.
fn refs_plan(r: &Reading) -> bool {
    r.why.iter().any(|w| {
        ["plan", "future", "condition", "question", "someone"]
            .iter()
            .any(|x| w.contains(x))
    })
}

/// Whether a clause speaks of a branch: a word for one, `main` or `master`, or a code span
/// with a branch's shape that is no path.
fn names_a_branch(clause: &str) -> bool {
    clause.split_whitespace().any(|w| {
        is_branch_word(w)
            || matches!(
                w.trim_matches(|c: char| !c.is_alphanumeric()),
                "main" | "master"
            )
    }) || vocab::spans_of(clause)
        .map(str::trim)
        .any(|s| is_branch_name(s) && vocab::path_of(s, true).is_none())
}

/// Whether a negation of the tables stands within three words of a word for commit, with no
/// quoted name between ("ikke committet", "još nije commitana", "has not been committed
/// yet"; not "committed `a.py` but not `b.py`").
fn negation_beside_commit_word(clause: &str) -> bool {
    // A quoted name (`a.py`, a commit's subject) is one word, whatever it says.
    let spans = spans_as_words(clause);
    let words: Vec<&str> = spans
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let commit_at: Vec<usize> = words
        .iter()
        .enumerate()
        .filter(|(_, w)| COMMIT_WORDS.iter().any(|c| w.contains(c)))
        .map(|(i, _)| i)
        .collect();
    // "sin commitear", "sans commit", "ohne Commit": a word for "without" right before it.
    const WITHOUT: &[&str] = &[
        "without",
        "sin",
        "sem",
        "sans",
        "senza",
        "ohne",
        "zonder",
        "bez",
        "без",
        "utan",
        "uden",
        "uten",
        "tanpa",
        "χωρίς",
    ];
    let without = commit_at
        .iter()
        .any(|&c| c > 0 && WITHOUT.contains(&words[c - 1].to_lowercase().as_str()));
    // A two-letter negation of another table is none here, even leading a clause ("en
    // lokaal gecommit": Dutch "and", Finnish "not").
    // (The forms' index, built anyway, first: a clause with no negation form of any table
    // is left before the negations' own table is built.)
    without
        || !commit_at.is_empty()
            && forms::any_in(&fold(&clause.to_lowercase()), Sets::NOT_THERE)
            && words.iter().enumerate().any(|(i, w)| {
                is_negation(w, i.max(1))
                    && commit_at.iter().any(|&c| {
                        let (a, b) = if i < c { (i, c) } else { (c, i) };
                        b - a <= 3 && !words[a..b].contains(&"q")
                    })
            })
}

/// The bare words of a clause with a file's shape and no folder (`scratch.js`, not
/// `Node.js`'s kin with a capital, nor a word ending a sentence).
fn bare_file_names(clause: &str) -> impl Iterator<Item = String> + '_ {
    clause
        .split('`')
        .step_by(2)
        .flat_map(str::split_whitespace)
        .map(|w| w.trim_matches(|c: char| ",.;:()«»\"'".contains(c)))
        .filter(|w| !w.contains('/') && w.contains('.'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'))
        .filter_map(|w| vocab::path_of(w, false))
        .filter(|p| !vocab::shape_inferred(p))
}

/// Marks files of an extension a sentence says are gone ("removed the `.bak` files",
/// "`sed -i.bak` が作ったバックアップは削除済みで、`.bak` ファイルは残っていません"), in any
/// language: a code span that is only an extension (`.bak`, `*.orig`), and a clause with a
/// deletion form that no denial of the sentence stands in. A plan claims nothing.
pub fn mark_extensions_gone(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        // Files named by path are claims of their own ("Renamed `a.yaml` to `a.yml` (the
        // loader only looks for `.yml`)"): an extension alone speaks of a kind of file.
        let outside = without_brackets(&r.sentence);
        if !super::paths::path_spans(&outside).is_empty() {
            continue;
        }
        // `.env`, `.npmrc`: a file of that name, not an extension.
        const DOTFILES: &[&str] = &[
            "env", "npmrc", "nvmrc", "bashrc", "zshrc", "profile", "babelrc", "eslintrc",
            "htaccess", "mailmap",
        ];
        let exts: Vec<String> = vocab::spans_of(&outside)
            .filter_map(|s| {
                let e = s.trim().trim_start_matches('*').strip_prefix('.')?;
                (!e.is_empty()
                    && e.len() <= 8
                    && e.chars().all(|c| c.is_ascii_alphanumeric())
                    && !(s.trim().starts_with('.') && DOTFILES.contains(&e)))
                .then(|| e.to_lowercase())
            })
            .collect();
        let [ext] = exts.as_slice() else {
            continue;
        };
        let planned = plans_or_doubts(r);
        if planned || super::super::lang::names_an_agent(&r.sentence) {
            continue;
        }
        let denials = denials_of(r);
        // "přejmenoval na `.mjs`", "renamed it to `.mjs`": the extension a file went to.
        let parts: Vec<&str> = r.sentence.split('`').collect();
        let only_a_target = parts
            .iter()
            .enumerate()
            .skip(1)
            .step_by(2)
            .filter(|(_, s)| {
                s.trim()
                    .trim_start_matches('*')
                    .trim_start_matches('.')
                    .to_lowercase()
                    == *ext
            })
            .all(|(i, _)| {
                parts[i - 1]
                    .split_whitespace()
                    .next_back()
                    .is_some_and(|w| {
                        let w = w.to_lowercase();
                        TO_A_PLACE.contains(&w.as_str()) || w == "as"
                    })
            });
        let gone = !only_a_target
            && without_brackets(&r.sentence)
                .split([',', ';', '，', '；', '、', '—'])
                .any(|clause| {
                    let lower = clause.to_lowercase();
                    !denials.iter().any(|d| lower.contains(d.as_str()))
                        && super::tells_gone(&unquoted(clause))
                });
        let kind = Kind::NoneLeft { ext: ext.clone() };
        if gone && !r.claims.iter().any(|c| c.kind == kind) {
            let claim = Claim::read(kind, &r.sentence);
            add(r, claim);
        }
    }
}

/// Marks the branches a clause says were deleted ("`spike/cache` silindi", "deleted the
/// branch `feature/old-login` locally and on `origin`"), in any language: one span of a
/// branch's shape and a deletion form of any table, with no denial of the sentence in
/// that clause, no plan, no refusal. A clause that names `origin` claims the remote's
/// branch gone too.
pub fn mark_branches_deleted(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.sentence.contains('`')
            || !vocab::spans_of(&r.sentence).any(|s| is_branch_name(s.trim()))
            || super::super::lang::names_an_agent(&r.sentence)
            || vocab::refused(&r.sentence.to_lowercase())
        {
            continue;
        }
        let denials = denials_of(r);
        let mut kinds = Vec::new();
        for clause in without_brackets(&r.sentence).split([',', ';', '，', '；', '。', '—', ':'])
        {
            let lower = clause.to_lowercase();
            let branches: Vec<&str> = vocab::spans_of(clause)
                .map(str::trim)
                .filter(|s| is_branch_name(s))
                .collect();
            let [name] = branches.as_slice() else {
                continue;
            };
            let plain = unquoted(&lower);
            // "pushed `feat/login`", "someone has to push `feat/audit`": a push is no
            // deletion, whatever deletion form a table's stem finds in its word.
            if denials.iter().any(|d| lower.contains(d.as_str()))
                || PUSH_WORDS.iter().any(|w| plain.contains(w))
                || ["you", "someone", "somebody"]
                    .iter()
                    .any(|w| plain.split(|c: char| !c.is_alphanumeric()).any(|x| x == *w))
                || !super::tells_deleted(&unquoted(clause))
                || taken_back_in(r, clause, NOT_REPORTED)
                // Last: only a clause that tells a deletion is looked through for one.
                || negates(&plain)
            {
                continue;
            }
            let remote = unquoted(&lower)
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w.starts_with("origin") || w == "remote" || w == "upstream")
                || lower.contains("`origin`");
            kinds.push(Kind::BranchGone {
                name: (*name).to_owned(),
                remote,
            });
        }
        for kind in kinds {
            // The branch is no file: a reader's deletion of a path of that name was the
            // branch's.
            if let Kind::BranchGone { name, .. } = &kind {
                r.claims.retain(|c| {
                    !matches!(&c.kind, Kind::File { path, change: Change::Deleted }
                        | Kind::Dir { path, change: Change::Deleted }
                        if path.trim_end_matches('/') == name)
                });
            }
            add_new(r, kind);
        }
    }
}

/// Whether a lower-cased sentence may hold one of `words`: a word of it starts with one of
/// the ASCII `stems`, or, in a sentence with other letters, it holds one of the non-ASCII
/// `words`. A gate before a reader's longer lists: a word list's `contains` builds a
/// searcher per word, and most sentences hold none of them (`BENCHMARKS.md`).
fn may_mention(lower: &str, stems: &[&str], words: &[&str]) -> bool {
    lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| !w.is_empty() && stems.iter().any(|s| w.starts_with(s)))
        || !lower.is_ascii() && words.iter().any(|w| !w.is_ascii() && lower.contains(w))
}

/// Words for rebasing and merging, as agents write them in any language ("rebased",
/// "rebase कर दिया", "gemergt", "合并", "マージ").
const JOIN_WORDS: &[&str] = &[
    "rebase",
    "ребейз",
    "リベース",
    "变基",
    "變基",
    "리베이스",
    "merged",
    "merge ",
    "gemergt",
    "gemerged",
    "zusammengeführt",
    "fusionné",
    "fusionad",
    "fusionat",
    "mergead",
    "mesclad",
    "слил",
    "смержил",
    "влил",
    "злив",
    "злила",
    "合并",
    "合併",
    "マージ",
    "병합",
    "머지",
    "birleştir",
    "scalon",
    "zmergowa",
    "sloučen",
    "gộp",
    "digabung",
    "מיזג",
    "دمج",
    "ادغام",
    "मर्ज",
    "ผสาน",
    "слят",
    "слях",
    "сляна",
    "слети",
    "spojen",
    "spojil",
    "sloučen",
];

/// What makes a join sentence no claim that the branches were joined: a squash (no shared
/// history), a request for one, a cherry-pick, or one that was given up.
const NOT_JOINED: &[&str] = &[
    "squash",
    "request",
    "pull",
    "cherry",
    "abort",
    "abgebrochen",
    "annul",
    "abortad",
    "cancel",
    "прерв",
    "отмен",
    "中止",
    "中断",
    "取消",
    "취소",
    "iptal",
    "hủy",
    "batal",
    "रद्द",
];

/// Words for a conflict, in the tables' languages: a step that met one did not go through
/// as told.
pub(super) const CONFLICT: &[&str] = &[
    "conflict",
    "konflikt",
    "konflik",
    "conflit",
    "conflicto",
    "conflitto",
    "конфликт",
    "конфлікт",
    "xung đột",
    "çakışma",
    "ristiriita",
    "ütközés",
    "sukob",
    "σύγκρουσ",
    "קונפליקט",
    "تعارض",
    "冲突",
    "衝突",
    "コンフリクト",
    "충돌",
];

/// Marks two branches a sentence says a rebase or a merge joined ("rebased `feat` onto
/// `main`", "`feat` को `main` पर rebase कर दिया है", "merged `fix/x` into main"), in any
/// language: a word for rebasing or merging, told as done, and exactly two names that may
/// be branches (code spans of a ref's shape; `main` or `master` written bare). Which
/// names are branches is the repository's to say.
pub fn mark_joined(readings: &mut [Reading]) {
    const STEMS: &[&str] = &[
        "rebase", "merg", "gemerg", "fusion", "mescl", "scalon", "zmerg", "digabung", "birle",
        "spojen", "spojil",
    ];
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let lower = r.sentence.to_lowercase();
        if !may_mention(&lower, STEMS, JOIN_WORDS) {
            continue;
        }
        let lower = fold(&lower);
        let plain = unquoted(&lower);
        // The clause that tells the join: a plan in another ("…上，可以提 PR 了") leaves it a
        // report.
        let join_clause = without_brackets(&r.sentence.to_lowercase())
            .split([',', ';', '，', '；', '。', '—'])
            .find(|c| JOIN_WORDS.iter().any(|w| unquoted(&fold(c)).contains(w)))
            .map(str::to_owned);
        let Some(join_clause) = join_clause else {
            continue;
        };
        if NOT_JOINED.iter().chain(CONFLICT).any(|w| lower.contains(w))
            || super::super::lang::names_an_agent(&r.sentence)
            || vocab::refused(&lower)
            || taken_back_in(r, &join_clause, NOT_DONE)
        {
            continue;
        }
        let mut names: Vec<String> = Vec::new();
        for span in vocab::spans_of(&r.sentence).map(str::trim) {
            let name = span.strip_prefix("origin/").unwrap_or(span);
            let refish = !name.is_empty()
                && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "/-_.".contains(c))
                && !name.ends_with(['.', '/'])
                && (vocab::path_of(name, true).is_none() || is_branch_name(name))
                && !is_version_tag(name);
            if refish && !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
        if names.len() < 2 {
            for bare in ["main", "master"] {
                let at_word = plain
                    .split(|c: char| !c.is_alphanumeric())
                    .any(|w| w == bare);
                if at_word && !names.iter().any(|n| n == bare) {
                    names.push(bare.to_owned());
                }
            }
        }
        // "merge selesai dengan merge commit di `main`": a join told done without its two
        // branches must at least have finished.
        if names.len() < 2 {
            let rebase = ["rebase", "ребейз", "リベース", "变基", "變基", "리베이스"]
                .iter()
                .any(|w| join_clause.contains(w));
            add_new(r, Kind::Concluded { rebase });
            continue;
        }
        let [a, b] = names.as_slice() else {
            continue;
        };
        let kind = Kind::Joined {
            a: a.clone(),
            b: b.clone(),
        };
        add_new(r, kind);
    }
}

/// Reasons a reader gives when a sentence plans, asks, doubts, reports a failure or tells
/// another's work: not a report of what was done (a denial is not among them: "no `.bak`
/// file is left" reports a deletion).
const NOT_REPORTED: &[&str] = &[
    "plan",
    "future",
    "condition",
    "question",
    "someone",
    "failure",
];

/// [`NOT_REPORTED`] and a denial: reasons that take back a report of something done.
const NOT_DONE: &[&str] = &[
    "plan",
    "negated",
    "future",
    "condition",
    "failure",
    "question",
    "someone",
];

/// Whether a reader took the sentence for a plan, a question, a doubt, a failure or
/// another's work ([`NOT_REPORTED`]).
pub(super) fn plans_or_doubts(r: &Reading) -> bool {
    r.why.iter().any(|w| not_reported(w, &[]))
}

/// Whether a reason a reader gave (`why`) is one of [`NOT_REPORTED`], those a reader keeps
/// (`but`: a relayed report is the parent's own, a failure may be what the claim tells)
/// aside.
pub(super) fn not_reported(why: &str, but: &[&str]) -> bool {
    NOT_REPORTED
        .iter()
        .any(|x| !but.contains(x) && why.contains(x))
}

/// Whether a reason a reader gave takes back `part` of the sentence: its quoted words
/// ("so you can pull first", "可以") stand in the part, or the part in them. A reason
/// without a quote takes back the whole sentence.
fn taken_back_in(r: &Reading, part: &str, reasons: &[&str]) -> bool {
    let part = part.trim().to_lowercase();
    r.why.iter().any(|w| {
        reasons.iter().any(|x| w.contains(x))
            && w.split('"').nth(1).is_none_or(|q| {
                let q = q.trim().to_lowercase();
                !q.is_empty() && (part.contains(&q) || q.contains(&part))
            })
    })
}

/// Names of the working tree, in the tables' languages and as agents write them in any
/// ("working tree", "`git status`", "Arbeitsverzeichnis", "作業ツリー").
const WORKTREE: &[&str] = &[
    "working tree",
    "worktree",
    "work tree",
    "working directory",
    "working copy",
    "git status",
    "arbeitsverzeichnis",
    "arbeitsbaum",
    "arbeitskopie",
    "árbol de trabajo",
    "directorio de trabajo",
    "copia de trabajo",
    "répertoire de travail",
    "arbre de travail",
    "copie de travail",
    "albero di lavoro",
    "directory di lavoro",
    "copia di lavoro",
    "árvore de trabalho",
    "diretório de trabalho",
    "cópia de trabalho",
    "werkmap",
    "werkboom",
    "werkkopie",
    "katalog roboczy",
    "drzewo robocze",
    "kopia robocza",
    "рабочее дерево",
    "рабочий каталог",
    "рабочая копия",
    "рабочей копии",
    "рабочем дереве",
    "робоче дерево",
    "робочий каталог",
    "робоча копія",
    "pracovní strom",
    "pracovní adresář",
    "çalışma dizini",
    "çalışma ağacı",
    "cây làm việc",
    "thư mục làm việc",
    "direktori kerja",
    "pohon kerja",
    "工作区",
    "工作樹",
    "工作树",
    "工作目录",
    "工作目錄",
    "作業ツリー",
    "ワーキングツリー",
    "作業ディレクトリ",
    "작업 트리",
    "작업 디렉터리",
    "작업 디렉토리",
    "עץ העבודה",
    "ספריית העבודה",
    "شجرة العمل",
    "مجلد العمل",
    "वर्किंग ट्री",
    "arbetskatalog",
    "arbejdsmappe",
    "arbeidskatalog",
    "työhakemisto",
    "munkakönyvtár",
    "director de lucru",
    "arbore de lucru",
    "arborele de lucru",
    "arbetsträd",
    "arbejdstræ",
    "arbeidstre",
    "työpuu",
    "munkafa",
    "tööpuu",
    "töökataloog",
    "töökoopia",
    "darba koks",
    "darba kokā",
    "darba direktorij",
    "darba kopij",
    "darbinis medis",
    "darbiniame medyje",
    "darbo medis",
    "darbinis katalogas",
    "darbinė kopija",
    "pracovný strom",
    "pracovnom strome",
    "pracovný adresár",
    "pracovnom adresári",
    "pracovním stromě",
    "delovno drevo",
    "delovnem drevesu",
    "delovni imenik",
    "radno stablo",
    "radnom stablu",
    "radni direktorij",
    "radna kopija",
    "работно дърво",
    "работното дърво",
    "работната директория",
    "δέντρο εργασίας",
    "κατάλογος εργασίας",
    "lan-zuhaitz",
    "lan zuhaitz",
    "laneko zuhaitz",
    "lan-direktori",
    "arbre de treball",
    "directori de treball",
    "còpia de treball",
    "coeden waith",
    "cyfeiriadur gwaith",
    "vinnutré",
    "vinnumöppu",
    "vinnumappa",
    "სამუშაო ხე",
    "სამუშაო დირექტორი",
    "աշխատանքային ծառ",
    "աշխատանքային պանակ",
    "የስራ ዛፍ",
    "වැඩ ගස",
    "මෙහෙයුම් ගස",
    "មែកធាងការងារ",
    "వర్కింగ్ ట్రీ",
    "ওয়ার্কিং ট্রি",
    "কার্যকরী ট্রি",
    "жұмыс ағашы",
    "жұмыс каталогы",
    "ishchi daraxt",
    "ishchi katalog",
    "iş ağacı",
    "işçi ağac",
    "pokok kerja",
    "mti wa kazi",
    "saraka ya kazi",
    "درخت کاری",
    "پوشه کاری",
    "वर्किंग डायरेक्टरी",
    "कार्यशील वृक्ष",
    "ไดเรกทอรีทำงาน",
];

/// What a clean tree is called beside [`WORKTREE`] ("clean", "sauber", "干净").
const CLEAN_TREE: &[&str] = &[
    "clean",
    "sauber",
    "limpi",
    "limpo",
    "limpa",
    "propre",
    "pulit",
    "schoon",
    "czyst",
    "чист",
    "干净",
    "乾淨",
    "クリーン",
    "きれい",
    "깨끗",
    "클린",
    "temiz",
    "sạch",
    "bersih",
    "נקי",
    "نظيف",
    "تمیز",
    "साफ",
    "สะอาด",
    "čist",
    "rent",
    "ren ",
    "puhdas",
    "tiszta",
    "curat",
    "καθαρ",
    "nadif",
    "safi",
    "malinis",
    "puhas",
    "tīr",
    "švar",
    "garbi",
    "net ",
    "glân",
    "hrein",
    "სუფთა",
    "մաքուր",
    "ንጹህ",
    "පිරිසිදු",
    "ស្អាត",
    "శుభ్ర",
    "క్లీన్",
    "পরিষ্কার",
    "ক্লিন",
    "таза",
    "toza",
    "təmiz",
];

/// Nothing left in the tree, said without a word for clean ("nothing to commit", "keine
/// Änderungen mehr", "变更なし").
const NOTHING_LEFT: &[&str] = &[
    "nothing to commit",
    "no changes",
    "no uncommitted",
    "no pending changes",
    "keine änderungen",
    "keine offenen änderungen",
    "sin cambios",
    "ningún cambio",
    "aucun changement",
    "aucune modification",
    "nessuna modifica",
    "nenhuma alteração",
    "sem alterações",
    "geen wijzigingen",
    "brak zmian",
    "нет изменений",
    "никаких изменений",
    "немає змін",
    "没有改动",
    "没有更改",
    "没有变更",
    "无改动",
    "無變更",
    "変更はありません",
    "変更なし",
    "변경 사항 없",
    "변경 사항이 없",
    "değişiklik yok",
    "không có thay đổi",
    "tidak ada perubahan",
];

/// Words that leave part of the tree out ("clean except for `notes.txt`").
const EXCEPT: &[&str] = &[
    "except",
    "but ",
    "apart from",
    "außer",
    "bis auf",
    "sauf",
    "excepto",
    "salvo",
    "menos",
    "tranne",
    "exceto",
    "behalve",
    "oprócz",
    "poza",
    "кроме",
    "крім",
    "除了",
    "以外",
    "除外",
    "제외",
    "빼고",
    "dışında",
    "hariç",
    "ngoại trừ",
    "trừ ",
    "kecuali",
    "חוץ מ",
    "מלבד",
    "باستثناء",
    "عدا",
    "به جز",
    "सिवाय",
    "के अलावा",
    "ยกเว้น",
];

/// Marks a clause that says the working tree is clean ("working tree clean", "`git status`
/// is clean", "im Arbeitsverzeichnis liegen keine Änderungen mehr", "作業ツリーはクリーン"),
/// in any language: a name of the tree beside a word for clean that no negation denies, or
/// beside "no changes". A clause that leaves something out ("clean except `a.txt`"), a
/// plan, or what a subagent said, claims nothing of the tree.
pub fn mark_clean_tree(readings: &mut [Reading]) {
    const STEMS: &[&str] = &[
        "work",
        "status",
        "arbeit",
        "trabaj",
        "travail",
        "lavoro",
        "trabalh",
        "werk",
        "robocz",
        "pracovn",
        "kerja",
        "pohon",
        "arbets",
        "arbejds",
        "arbeids",
        "munka",
        "lucru",
        "copia",
        "copie",
        "directorio",
        "directory",
        "kopia",
        "katalog",
        "arbore",
        "darb",
        "delovn",
        "radn",
        "lan",
        "treball",
        "gwaith",
        "waith",
        "ishchi",
        "pokok",
        "kazi",
        "saraka",
        "mti",
    ];
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let lower = r.sentence.to_lowercase();
        if !may_mention(&lower, STEMS, WORKTREE) {
            continue;
        }
        let lower = fold(&lower);
        if !WORKTREE.iter().any(|w| lower.contains(w))
            || super::super::lang::names_an_agent(&r.sentence)
        {
            continue;
        }
        let denials = denials_of(r);
        let says_clean = without_brackets(&lower)
            .split([',', ';', '，', '；', '。', '—', '.'])
            .filter(|c| WORKTREE.iter().any(|w| c.contains(w)))
            .filter(|c| !EXCEPT.iter().any(|w| c.contains(w)))
            // "…so you can pull first; the working tree is clean": a plan in another clause
            // leaves this one a report.
            .filter(|c| !taken_back_in(r, c, &["future", "condition", "plan", "question"]))
            .any(|clause| {
                let plain = unquoted(clause);
                let nothing_left = NOTHING_LEFT.iter().any(|w| plain.contains(w));
                let clean = CLEAN_TREE.iter().any(|w| {
                    plain.match_indices(w).any(|(i, _)| {
                        // A word for clean starts a word ("unclean" is not it).
                        plain[..i]
                            .chars()
                            .next_back()
                            .is_none_or(|c| !c.is_alphanumeric())
                            || w.chars().next().is_some_and(|c| !c.is_ascii())
                    })
                });
                let denied = denials.iter().any(|d| plain.contains(d.as_str()))
                    || NOT_CLEAN.iter().any(|w| plain.contains(w));
                nothing_left || clean && !denied
            });
        if says_clean && !r.claims.iter().any(|c| c.kind == Kind::Clean) {
            let claim = Claim::read(Kind::Clean, &r.sentence);
            add(r, claim);
        }
    }
}

/// A clean tree denied, in the forms no table's negation reads ("not clean", "不干净",
/// "クリーンではない", "깨끗하지 않").
const NOT_CLEAN: &[&str] = &[
    "not clean",
    "isn't clean",
    "unclean",
    "dirty",
    "nicht sauber",
    "no está limpi",
    "pas propre",
    "non è pulit",
    "não está limp",
    "niet schoon",
    "nie jest czyst",
    "не чист",
    "不干净",
    "不乾淨",
    "不是干净",
    "クリーンではな",
    "クリーンじゃな",
    "きれいではな",
    "깨끗하지 않",
    "temiz değil",
    "không sạch",
    "tidak bersih",
    "belum bersih",
];

/// The words a reader found a denial in ("negated (\"не\")"), lower-cased: what a clause
/// must hold for the sentence's denial to be its own.
/// Weakens what a message says of a branch another of its sentences says was deleted
/// ("On the branch `feat/clamp`: …", then "`feat/clamp` was deleted after the merge"):
/// the branch is where the work was, told honestly as gone. Reported, never blocked.
pub fn mark_branches_said_gone(readings: &mut [Reading]) {
    let mut gone: Vec<String> = readings
        .iter()
        .flat_map(|r| &r.claims)
        .filter_map(|c| match &c.kind {
            Kind::BranchGone { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect();
    // "`git branch -d feat/clamp` — lokalna grana obrisana": the deletion written out.
    for r in readings.iter().filter(|r| !r.skipped) {
        for span in vocab::spans_of(&r.sentence) {
            let words: Vec<&str> = span.split_whitespace().collect();
            let deletes = match words.as_slice() {
                ["git", "branch", rest @ ..] => {
                    rest.iter().any(|w| matches!(*w, "-d" | "-D" | "--delete"))
                }
                ["git", "push", rest @ ..] => rest.iter().any(|w| *w == "--delete" || *w == "-d"),
                _ => false,
            };
            if deletes {
                gone.extend(
                    words[2..]
                        .iter()
                        .filter(|w| !w.starts_with('-') && **w != "origin")
                        .map(|w| (*w).to_owned()),
                );
            }
        }
    }
    if gone.is_empty() {
        return;
    }
    for c in readings.iter_mut().flat_map(|r| &mut r.claims) {
        if matches!(&c.kind, Kind::Ref { name, tag: false, .. } if gone.contains(name)) {
            c.weaken("the message says elsewhere that the branch was deleted");
        }
    }
}

/// Marks how far a branch and its upstream stand apart, as a report counts it ("`main`
/// ligger 3 commits före `origin/main`", "`main` 領先 `origin/main` 2 個提交"): the
/// sentence names the branch and `origin/<branch>` in code spans, and one number with a
/// word for commits right after it. Neither a denial nor a plan.
pub fn mark_apart_counts(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        if !r.sentence.contains('`') {
            continue;
        }
        let spans: Vec<&str> = vocab::spans_of(&r.sentence).map(str::trim).collect();
        let Some((branch, upstream)) = spans.iter().find_map(|up| {
            let (remote, b) = up.split_once('/')?;
            (matches!(remote, "origin" | "upstream") && spans.contains(&b))
                .then(|| (b.to_owned(), (*up).to_owned()))
        }) else {
            continue;
        };
        let prose = vocab::outside_spans(&r.sentence, " ").to_lowercase();
        let words: Vec<&str> = prose.split_whitespace().collect();
        let counted: Vec<(usize, u64)> = words
            .iter()
            .enumerate()
            .filter_map(|(i, w)| {
                let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
                let rest = &w[digits.len()..];
                let counter = rest.is_empty() || !rest.starts_with(|c: char| c.is_ascii());
                if !digits.is_empty() && counter {
                    return Some((i, digits.parse().ok()?));
                }
                // "jedan commit": a table's number word right before the word for commit.
                let next = words.get(i + 1)?;
                COMMIT_WORDS.iter().any(|c| next.starts_with(c)).then(|| {
                    Some((
                        i,
                        number_of(w.trim_matches(|c: char| !c.is_alphanumeric()))?,
                    ))
                })?
            })
            .collect();
        let [(at, count)] = counted.as_slice() else {
            continue;
        };
        let of_commits = words[*at..]
            .iter()
            .take(3)
            .any(|w| COMMIT_WORDS.iter().any(|c| w.contains(c)));
        // The comma part of the count: "2 commits ahead of `origin/main`, not pushed" is
        // no denial of the count.
        let part = prose
            .split([',', ';', '，', '；', '—', '–'])
            .find(|p| p.split_whitespace().any(|w| w == words[*at]))
            .unwrap_or(&prose);
        if !of_commits || negates(part) || !clause_states_as_done(&r.sentence) {
            continue;
        }
        // A distance to the upstream is no push of the branch, whatever push reading a
        // remote's name drew from the sentence.
        r.claims
            .retain(|c| !matches!(&c.kind, Kind::Push { branch: Some(b) } if *b == branch));
        let kind = Kind::Apart {
            branch,
            upstream,
            count: *count,
        };
        add_new(r, kind);
    }
}

/// Whether a clause (lower-cased, code spans out) holds a negation of any table as a
/// whole word ("`spike/x` er IKKE slettet: …", where the sentence's other clauses made
/// claims, so its reading names no negation).
pub(crate) fn negates(clause: &str) -> bool {
    clause
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .enumerate()
        .any(|(i, w)| is_negation(w, i))
}

/// Whether `word`, the `at`-th word of its clause, is a negation of the tables.
fn is_negation(word: &str, at: usize) -> bool {
    // The tables' one-word negations, gathered once, each with the tables that have it.
    static WORDS: OnceLock<FastMap<&'static str, Vec<&'static str>>> = OnceLock::new();
    let negations = WORDS.get_or_init(|| {
        let mut map: FastMap<&'static str, Vec<&'static str>> = FastMap::default();
        for l in crate::audit::lang::LANGS {
            for n in l.negations.iter().map(|n| n.trim()) {
                if !n.is_empty() && n.chars().all(char::is_alphabetic) {
                    map.entry(n).or_default().push(l.code);
                }
            }
        }
        map
    });
    negations.get(word).is_some_and(|codes| {
        // A negation of two letters from another table than the message's ("en" is
        // Finnish "I do not", and Spanish, Dutch and French "in", "and", "of") denies
        // nothing inside a clause; leading it ("Ei pushattu …" in a line too short to
        // tell its language) it does.
        let reading = super::forms::reading();
        at == 0
            || word.chars().count() > 2
            || reading.is_none()
            || codes.iter().any(|c| Some(*c) == reading)
    })
}

pub(super) fn denials_of(r: &Reading) -> Vec<String> {
    r.why
        .iter()
        .filter(|w| w.contains("negated (\""))
        .filter_map(|w| w.split('"').nth(1).map(str::to_lowercase))
        .filter(|d| !d.is_empty())
        .collect()
}

/// Text without what stands in brackets.
pub(super) fn without_brackets(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '（' => depth += 1,
            ')' | '）' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The branch a clause (lower-cased) names: a code span with a branch's shape (`fix/x`,
/// `origin/main` read as `main`), or `main`/`master` written bare, not as a word of the
/// language ("à la main", "the main loop").
fn branch_in(clause: &str) -> Option<String> {
    let spans = vocab::spans_of(clause).map(str::trim);
    for s in spans {
        let s = s.trim_start_matches("origin/");
        if is_branch_name(s) || matches!(s, "main" | "master" | "develop" | "trunk") {
            return Some(s.to_owned());
        }
    }
    // Words as written: `main.rs`, `src/main.rs` and `main()` are not the branch.
    let words: Vec<&str> = clause
        .split(|c: char| c.is_whitespace() || ",;:!?«»\"'“”`".contains(c))
        .map(|w| w.trim_start_matches('(').trim_end_matches(['.', ')']))
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let w = w.trim_start_matches("origin/");
        if !matches!(w, "main" | "master") {
            continue;
        }
        let before = i.checked_sub(1).map(|j| words[j]).unwrap_or("");
        let after = words.get(i + 1).copied().unwrap_or("");
        let branch_after = is_branch_word(after);
        if matches!(
            before,
            "la" | "à" | "a" | "une" | "de" | "the" | "en" | "su"
        ) && !branch_after
        {
            continue;
        }
        // English "main" before a noun is an adjective ("main loop"): only a branch when a
        // word for branch, a verb or the clause's end follows.
        if before.is_empty()
            && !after.is_empty()
            && after.is_ascii()
            && !branch_after
            && !matches!(
                after,
                "is" | "was"
                    | "stays"
                    | "remains"
                    | "untouched"
                    | "unchanged"
                    | "intact"
                    | "has"
                    | "hasn't"
                    | "isn't"
                    | "wasn't"
                    | "not"
            )
        {
            continue;
        }
        return Some(w.to_owned());
    }
    None
}

/// Marks the git steps a line marked done tells by name ("✔ Commit qilindi: "notes: add
/// second note"", "✅ `origin/main` ga push qilindi"), in any language: a commit word
/// beside the commit's subject in quotes or its hash, a push word beside the branch in a
/// code span. The mark says it is done; the name says which. A line a reader read a claim
/// of the same kind in already is left to it, as is one whose words take it back.
pub fn mark_checked_git_lines(readings: &mut [Reading]) {
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let sentence = r.sentence.clone();
        let line = sentence.trim().trim_start_matches(['-', '*', '•', ' ']);
        // "✅ pushed to `origin/main`", or a row whose label stands before the mark ("Пуш
        // | ✅ `origin/main` → b849d21"): the label is part of what the mark says is done.
        // "Push: `origin/main` waa la cusbooneysiiyay ✅": a mark that closes the line says
        // the whole line is done.
        let labelled;
        let closing = vocab::CHECK_MARKS
            .iter()
            .find_map(|m| line.trim_end_matches(['.', '。', ' ']).strip_suffix(m));
        let rest = match vocab::CHECK_MARKS
            .iter()
            .find_map(|m| line.strip_prefix(m))
            .or(closing)
        {
            Some(rest) => rest,
            None => {
                let Some((at, mark)) = vocab::CHECK_MARKS
                    .iter()
                    .filter_map(|m| line.find(m).map(|i| (i, *m)))
                    .min_by_key(|(i, _)| *i)
                else {
                    continue;
                };
                let label = line[..at].trim().trim_end_matches(['|', ':', '：']).trim();
                if label.is_empty() || label.contains('`') || label.split_whitespace().count() > 2 {
                    continue;
                }
                labelled = format!("{label} {}", &line[at + mark.len()..]);
                labelled.as_str()
            }
        };
        if r.why.iter().any(|w| takes_it_back(w)) || !clause_states_as_done(rest) {
            continue;
        }
        let lower = fold(&unquoted(rest).to_lowercase());
        let spans: Vec<&str> = vocab::spans_of(rest).map(str::trim).collect();
        let quoted_subject = ['"', '“', '«', '„', '「'].iter().any(|q| rest.contains(*q));
        let hash = vocab::hashes_in(rest)
            .find(|w| w.len() >= 7)
            .map(str::to_owned);
        let had_commit = r
            .claims
            .iter()
            .any(|c| matches!(c.kind, Kind::Commit { .. }));
        let had_push = r.claims.iter().any(|c| matches!(c.kind, Kind::Push { .. }));
        if COMMIT_WORDS.iter().any(|w| lower.contains(w))
            && (quoted_subject || hash.is_some())
            && !had_commit
        {
            let claim = Claim::read(Kind::Commit { hash }, &sentence);
            add(r, claim);
        }
        // "✅ Na-apply ang `patches/release.diff` gamit ang `patch -p1`": a command the
        // checked line names ran and went through.
        for span in spans.iter().filter(|s| vocab::names_a_step(s)) {
            let kind = Kind::Ran {
                command: (*span).to_owned(),
            };
            if !r.claims.iter().any(|c| c.kind == kind) {
                let claim = Claim::read(kind, &sentence);
                add(r, claim);
            }
        }
        let branch = spans
            .iter()
            .map(|s| s.trim_start_matches("origin/"))
            .find(|s| {
                is_branch_name(s) || is_bare_branch_name(s) || matches!(*s, "main" | "master")
            });
        if let Some(branch) = branch.filter(|_| PUSH_WORDS.iter().any(|w| lower.contains(w))) {
            if !had_push {
                let kind = Kind::Push {
                    branch: Some(branch.to_owned()),
                };
                let claim = Claim::read(kind, &sentence);
                add(r, claim);
            }
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
        "rebase",
        "based",
        "base",
        "onto",
        "from",
        "track",
        "behind",
        "ahead",
        "compare",
        "diff",
        "fetch",
        "pull",
        "merge",
        "spår",
        "verfolg",
        "basier",
        "bas",
        "suiv",
        "desde",
        "从",
        "基于",
        "から",
        "기반",
        "से",
        "من",
        "από",
        "з ",
        "из ",
        // Ahead of the remote: not there yet ("to commits foran", "2 Commits voraus").
        "foran",
        "voraus",
        "en avance",
        "por delante",
        "à frente",
        "avanti",
        "впереди",
        "попереду",
        "före",
        "edellä",
        "önde",
        "领先",
        "先行",
        "앞서",
        "ispred",
        "előtt",
        "on top",
        "மேல்",
        // On top of the remote's branch: a local commit over it ("ét commit oven på
        // `origin/main`").
        "oven på",
        "ovenpå",
        "ovanpå",
        "bovenop",
        "encima de",
        "au-dessus",
        "por cima",
        "em cima",
        "sopra",
        "поверх",
        "über",
        "päällä",
        "üzerinde",
        "üstünde",
        "上に",
        "之上",
        "위에",
        "di atas",
        "phía trên",
        "nad ",
    ];
    // "Na `origin/main` i dalje je stari commit": the remote still holds the old commit,
    // nothing went there.
    const STILL_OLD: &[&str] = &[
        "still",
        "old",
        "previous",
        "noch",
        "immer noch",
        "alte",
        "alten",
        "vorherige",
        "encore",
        "toujours",
        "ancien",
        "ancienne",
        "todavía",
        "aún",
        "sigue",
        "viejo",
        "anterior",
        "ainda",
        "antigo",
        "continua",
        "ancora",
        "vecchio",
        "precedente",
        "nog",
        "oude",
        "всё ещё",
        "все еще",
        "по-прежнему",
        "старый",
        "прежний",
        "досі",
        "старий",
        "nadal",
        "wciąż",
        "stary",
        "poprzedni",
        "stále",
        "pořád",
        "starý",
        "předchozí",
        "fortfarande",
        "gamla",
        "fortsatt",
        "fortsat",
        "gamle",
        "edelleen",
        "yhä",
        "vanha",
        "hala",
        "hâlâ",
        "eski",
        "önceki",
        "vẫn",
        "cũ",
        "masih",
        "lama",
        "sebelumnya",
        "bado",
        "zamani",
        "i dalje",
        "još",
        "stari",
        "prethodni",
        "továbbra",
        "régi",
        "încă",
        "vechi",
        "още",
        "стария",
        "ακόμα",
        "παλιό",
        "עדיין",
        "הישן",
        "لا يزال",
        "القديم",
        "هنوز",
        "قدیمی",
        "अब भी",
        "अभी भी",
        "पुराना",
        "पुराने",
        "仍",
        "还是",
        "旧",
        "まだ",
        "古い",
        "以前の",
        "여전히",
        "아직",
        "이전",
    ];
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        // "… a `main` ágat nem pusholtam": a sentence that says nothing went out claims
        // no push in its other clause.
        if r.claims.iter().any(|c| {
            matches!(
                c.kind,
                Kind::Push { .. } | Kind::Unmoved { remote: true, .. }
            )
        }) || undoes_history(&r.sentence)
        {
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
            // git's own status quoted (`## main...origin/main [ahead 2]`): ahead or behind
            // the remote, not on it.
            let status_quoted = lower.contains("[ahead") || lower.contains("[behind");
            if branch.is_empty()
                || status_quoted
                || !names_commit
                || counts_commits(&own_lower)
                || BASED.iter().any(|b| own_lower.contains(b))
                || STILL_OLD.iter().any(|w| has_word(&own_lower, w))
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

/// Whether a clause counts commits ("jedan commit ispred", "2 commits", "ایک commit"):
/// a number, in digits or a table's words, right before a word for commit tells how far
/// apart two refs are, not that one went to the other.
fn counts_commits(clause: &str) -> bool {
    let words: Vec<&str> = clause.split_whitespace().collect();
    words.windows(2).any(|w| {
        let count = w[0].trim_matches(|c: char| !c.is_alphanumeric());
        COMMIT_WORDS.iter().any(|c| w[1].starts_with(c))
            && (count.bytes().all(|b| b.is_ascii_digit()) && !count.is_empty()
                || number_of(count).is_some())
    })
}

/// A version tag's shape: `v1.2`, `v0.2.0`, `v1.0.0-rc.1`.
pub(super) fn is_version_tag(w: &str) -> bool {
    let Some(rest) = w.strip_prefix('v') else {
        return false;
    };
    // `git describe`'s output (`v0.1.0-2-gf681422`: two commits past the tag) names a
    // commit, no tag.
    if described(rest) {
        return false;
    }
    let core = rest.split(['-', '+']).next().unwrap_or(rest);
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether a version ends as `git describe` ends what it prints: `-N-gHASH`, or that and
/// `-dirty`.
fn described(version: &str) -> bool {
    let version = version.strip_suffix("-dirty").unwrap_or(version);
    let mut parts = version.rsplitn(3, '-');
    let (Some(hash), Some(count), Some(_)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    hash.strip_prefix('g')
        .is_some_and(|h| h.len() >= 4 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        && !count.is_empty()
        && count.bytes().all(|b| b.is_ascii_digit())
}

/// A branch name's shape in a code span: one word of a ref's characters with a `/` or
/// `-` (`feat/port-9000`, `fix-typo`), no file extension, no option.
/// A branch name of one word (`hotfix`, `release_2`): a branch only beside a branch word.
/// (`main` and `master` are every repository's, never a branch made: "on the branch
/// `main`" says where a commit went, which the push and commit claims read.)
fn is_bare_branch_name(s: &str) -> bool {
    !matches!(s, "main" | "master")
        && (2..=40).contains(&s.len())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
}

fn is_branch_word(word: &str) -> bool {
    let word = fold(&word.to_lowercase());
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    !word.is_empty() && BRANCH_WORDS.iter().any(|b| word.starts_with(b))
}

/// Whether the text before a code span ends with a branch word ("new branch ").
fn ends_with_branch_word(before: &str) -> bool {
    before.ends_with(char::is_whitespace)
        && before
            .split_whitespace()
            .next_back()
            .is_some_and(is_branch_word)
}

/// Whether the text after a code span starts with a branch word (" branch").
fn starts_with_branch_word(after: &str) -> bool {
    after.starts_with(char::is_whitespace)
        && after.split_whitespace().next().is_some_and(is_branch_word)
}

pub(super) fn is_branch_name(s: &str) -> bool {
    // `Co-authored-by`, `Signed-off-by`: a commit trailer's key, not a branch.
    // (Read lower-cased too: `co-authored-by`.)
    let trailer_key = s.to_ascii_lowercase().ends_with("-by") && !s.contains('/');
    !s.is_empty()
        && !trailer_key
        && !s.starts_with(['-', '/', '.'])
        && !s.ends_with(['/', '.'])
        && s.contains(['/', '-'])
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/-_.".contains(c))
        && !s.contains("..")
        && {
            // A last part with a dot is a file's name, unless it is a version
            // (`release/0.2`, `hotfix/v1.4.1`).
            let last = s.rsplit('/').next().unwrap_or(s);
            let version = last.strip_prefix('v').unwrap_or(last);
            !last.contains('.')
                || s.contains('/')
                    && version.starts_with(|c: char| c.is_ascii_digit())
                    && version.chars().all(|c| c.is_ascii_digit() || c == '.')
        }
        && !s.starts_with("origin/")
        && s.chars().any(|c| c.is_ascii_alphabetic())
}

#[cfg(test)]
mod subject_tests {
    use super::*;

    #[test]
    fn a_sentence_quotes_one_commit_subject() {
        assert_eq!(
            one_quoted_subject("Коммит: «README: add a Testing section (python3 -m unittest)»."),
            Some("README: add a Testing section (python3 -m unittest)".into())
        );
        assert_eq!(
            one_quoted_subject("Committed `fix: trim input` on `main`."),
            Some("fix: trim input".into())
        );
        // A path or a command is no subject; two subjects name no one.
        assert_eq!(one_quoted_subject("Committed `src/app.py`."), None);
        assert_eq!(
            one_quoted_subject("Ran `cargo test --all` and committed."),
            None
        );
        assert_eq!(
            one_quoted_subject("Commits \"a: one thing\" and \"b: another thing\"."),
            None
        );
    }

    #[test]
    fn a_negation_beside_a_word_for_commit() {
        assert!(negation_beside_commit_word("`notes.txt` ikke committet"));
        assert!(negation_beside_commit_word(
            "ta promjena još nije commitana"
        ));
        assert!(!negation_beside_commit_word(
            "i committed `a.py` but not `b.py`"
        ));
        assert!(!negation_beside_commit_word(
            "committed `a.py`; the slow tests did not run"
        ));
    }
}
