//! The claim extractor against a labelled corpus of realistic final messages
//! (`tests/corpus/claims.tsv`): every label must match, no more, no less.
//!
//! Lines: `labels<TAB>message`; labels `none` or `;`-separated `file:<change>:<path>`
//! (`file:renamed:<from>-><to>`), `tests[:N]`, `build`, `lint`, `commit[:hash]`,
//! `push[:branch]`, `dir:<change>:<path>/`; a weak reading (reported, never blocking)
//! is prefixed with `?`, a test count that may not be the passed count is suffixed with
//! `~`. `\n` in a message is a newline; `#` starts a comment line.

use did_it_actually::audit::claims::{
    extract, Change, Claim, CommitSince, CommitSort, Confidence, FnPart, Kind, Listed,
};

/// A claim's label; a weak reading (reported, never blocking) is prefixed with `?`.
fn label(claim: &Claim) -> String {
    let weak = if claim.confidence == Confidence::Weak {
        "?"
    } else {
        ""
    };
    let unsure = if claim.count_sure { "" } else { "~" };
    format!("{weak}{}{unsure}", kind_label(&claim.kind))
}

fn kind_label(kind: &Kind) -> String {
    match kind {
        Kind::Dir { path, change } => match change {
            Change::Renamed { to } => format!("dir:renamed:{path}->{to}"),
            Change::Modified => format!("dir:modified:{path}"),
            Change::Created => format!("dir:created:{path}"),
            Change::Deleted => format!("dir:deleted:{path}"),
            Change::Unchanged => format!("dir:unchanged:{path}"),
            Change::Kept => format!("dir:kept:{path}"),
        },
        Kind::File { path, change } => match change {
            Change::Modified => format!("file:modified:{path}"),
            Change::Created => format!("file:created:{path}"),
            Change::Deleted => format!("file:deleted:{path}"),
            Change::Renamed { to } => format!("file:renamed:{path}->{to}"),
            Change::Unchanged => format!("file:unchanged:{path}"),
            Change::Kept => format!("file:kept:{path}"),
        },
        Kind::Tests { count: Some(n) } => format!("tests:{n}"),
        Kind::Tests { count: None } => "tests".into(),
        Kind::Failures { count } => format!("failures:{count}"),
        Kind::Build => "build".into(),
        Kind::Lint => "lint".into(),
        Kind::Commit { hash: Some(h) } => format!("commit:{h}"),
        Kind::Commit { hash: None } => "commit".into(),
        Kind::Push { branch: Some(b) } => format!("push:{b}"),
        Kind::Push { branch: None } => "push".into(),
        Kind::Ref {
            name,
            tag: true,
            at: Some(h),
        } => format!("tag:{name}@{h}"),
        Kind::Ref {
            name, tag: true, ..
        } => format!("tag:{name}"),
        Kind::Ref {
            name,
            tag: false,
            at: Some(h),
        } => format!("branch:{name}@{h}"),
        Kind::Ref {
            name, tag: false, ..
        } => format!("branch:{name}"),
        Kind::Holds { path, value } => format!("holds:{path}={value}"),
        Kind::UnderHeading {
            path,
            heading,
            value,
        } => format!("under:{path}:{heading}={value}"),
        Kind::Ran { command } => format!("ran:{command}"),
        Kind::Unmoved {
            branch: Some(b),
            remote: true,
        } => format!("unpushed:{b}"),
        Kind::Unmoved {
            branch: None,
            remote: true,
        } => "unpushed".into(),
        Kind::Unmoved {
            branch: Some(b),
            remote: false,
        } => format!("unmoved:{b}"),
        Kind::Unmoved {
            branch: None,
            remote: false,
        } => "unmoved".into(),
        Kind::Clean => "clean".into(),
        Kind::Joined { a, b } => format!("joined:{a}+{b}"),
        Kind::Concluded { rebase: true } => "concluded:rebase".into(),
        Kind::Concluded { rebase: false } => "concluded:merge".into(),
        Kind::Apart {
            branch,
            upstream,
            count,
        } => format!("apart:{branch}+{upstream}:{count}"),
        Kind::Committed { path } => format!("committed:{path}"),
        Kind::Uncommitted { path, .. } => format!("uncommitted:{path}"),
        Kind::Listening { port } => format!("listening:{port}"),
        Kind::Titled { subject } => format!("titled:{subject}"),
        Kind::Trailer { key } => format!("trailer:{key}"),
        Kind::NoneLeft { ext } => format!("noneleft:{ext}"),
        Kind::BranchGone {
            name,
            remote: false,
        } => format!("branchgone:{name}"),
        Kind::BranchGone { name, remote: true } => format!("branchgone:{name}@origin"),
        Kind::InHistory {
            subject,
            refs,
            gone,
        } => format!(
            "{}:{subject}@{}",
            if *gone { "historygone" } else { "history" },
            refs.join("+")
        ),
        Kind::Printed { text } => format!("printed:{text}"),
        Kind::PrintedBy { command, text, .. } => format!("printed-by:{command}={text}"),
        Kind::Coverage { path, percent } => {
            format!("coverage:{}={percent}", path.as_deref().unwrap_or(""))
        }
        Kind::InArchive {
            archive,
            member,
            present,
        } => format!(
            "archive:{}:{archive}:{member}",
            if *present { "holds" } else { "lacks" }
        ),
        Kind::LineEnds { path, crlf } => {
            format!("line-ends:{}:{path}", if *crlf { "crlf" } else { "lf" })
        }
        Kind::Mode { path, mode } => format!("mode:{path}={mode}"),
        Kind::TextGone { text, scope } => format!("text-gone:{scope}:{text}"),
        Kind::TextRemoved { text } => format!("text-removed:{text}"),
        Kind::TestsInFile { path, count } => format!("tests-in:{path}={count}"),
        Kind::FileOutOfHistory { path } => format!("out-of-history:{path}"),
        Kind::FailedBeforeFix => "failed-before-fix".into(),
        Kind::FolderCount { dir, count } => format!("folder-count:{dir}={count}"),
        Kind::LineCount { path, count } => format!("line-count:{path}={count}"),
        Kind::CommitFiles { commit, count } => format!("commit-files:{commit}={count}"),
        Kind::PartsInCommit {
            commit, version, ..
        } => format!(
            "parts-in-commit:{commit}{}",
            version
                .as_deref()
                .map(|v| format!("@{v}"))
                .unwrap_or_default()
        ),
        Kind::CommitCount {
            count,
            sort,
            since,
            tip,
        } => format!(
            "commit-count:{}{}{count}{}",
            tip.as_deref().map(|t| format!("{t}:")).unwrap_or_default(),
            match sort {
                CommitSort::Any => "",
                CommitSort::Merge => "merge=",
                CommitSort::Revert => "revert=",
            },
            match since {
                CommitSince::Turn => String::new(),
                CommitSince::Ref(base) => format!(":over:{base}"),
            }
        ),
        Kind::Script { name, runs } => format!("script:{name}={}", runs.join("+")),
        Kind::FnHas { name, part, path } => format!(
            "fn-has:{}:{}{name}",
            match part {
                FnPart::Docstring => "docstring",
                FnPart::TypeHints => "type-hints",
            },
            path.as_deref().map(|p| format!("{p}:")).unwrap_or_default()
        ),
        Kind::Stash { name, present } => format!(
            "stash:{}:{}",
            name.as_deref().unwrap_or("*"),
            if *present { "present" } else { "gone" }
        ),
    }
}

#[test]
fn every_label_matches() {
    let corpus = include_str!("../corpus/claims.tsv");
    let mut total = 0;
    let mut wrong = Vec::new();
    for (i, line) in corpus.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        total += 1;
        let (labels, message) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("line {}: no tab", i + 1));
        let message = message.replace("\\n", "\n");
        let mut want: Vec<String> = if labels == "none" {
            Vec::new()
        } else {
            labels.split(';').map(str::to_owned).collect()
        };
        // A message whose prose is ASCII is English here: none may be taken for another
        // language (its table would read English words as its own). The few rows in other
        // languages ("Ничего не закоммичено.") claim nothing in theirs either.
        let prose: String = message.split('`').step_by(2).collect();
        if prose.is_ascii()
            && did_it_actually::audit::lang::detect(&message)
                != did_it_actually::audit::lang::Detected::English
        {
            wrong.push(format!(
                "line {}: read as {:?}, not English\n    {message:?}",
                i + 1,
                did_it_actually::audit::lang::detect(&message)
            ));
        }
        // A path a report only names is a presence check, not a reading of what the
        // message claims: the turn corpus plays those (`rows.rs` tests them). So is a
        // file said unchanged: the labels follow "a negation claims no change", and the
        // turn corpus plays whether the file is as the turn found it.
        let mut got: Vec<String> = extract(&message)
            .iter()
            .filter(|c| c.listed != Listed::Alone)
            .filter(|c| {
                !matches!(
                    c.kind,
                    Kind::File {
                        change: Change::Unchanged,
                        ..
                    } | Kind::Dir {
                        change: Change::Unchanged,
                        ..
                    }
                )
            })
            .map(label)
            .collect();
        want.sort();
        got.sort();
        got.dedup();
        if want != got {
            wrong.push(format!(
                "line {}: want {want:?}, got {got:?}\n    {message:?}",
                i + 1
            ));
        }
    }
    assert!(total >= 200, "only {total} cases");
    assert!(
        wrong.is_empty(),
        "{} of {total} cases differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Every message of the corpus read again with each word glued to a letter outside ASCII
/// (a Hebrew prefix with a hyphen, an accented letter, a CJK character, a Thai mark): the
/// reader slices text at many places, and a slice inside a letter is a panic that lets a
/// turn through on an internal error (heldout16 found one). No reading may panic.
#[test]
fn no_message_panics_the_reader_whatever_letters_touch_its_words() {
    let corpus = include_str!("../corpus/claims.tsv");
    // The maqaf (`־`, two bytes) and a full-width comma after a word: a suffix and a clause
    // end the readers cut at.
    for glue in ["ב-", "é", "中", "แล้ว", "ـ", "־ב", "，"] {
        for line in corpus.lines().filter(|l| !l.starts_with('#')) {
            let Some((_, message)) = line.split_once('\t') else {
                continue;
            };
            let message = message.replace("\\n", "\n");
            let before: String = message
                .split(' ')
                .map(|w| format!("{glue}{w}"))
                .collect::<Vec<_>>()
                .join(" ");
            let after: String = message
                .split(' ')
                .map(|w| format!("{w}{glue}"))
                .collect::<Vec<_>>()
                .join(" ");
            for glued in [before, after] {
                let read = std::panic::catch_unwind(|| extract(&glued));
                assert!(read.is_ok(), "the reader panicked on {glued:?}");
            }
        }
    }
}
