//! The files a simple command visibly writes: redirections, and the arguments of the
//! common file writers (`tee`, `cp`, `mv`, `install`, `ln`, `dd of=`, `sed -i`, `perl -i`,
//! `truncate`, `touch`, `mkdir`, `rm`, `rmdir`, `unlink`, `shred`, `curl -o/-O`,
//! `wget -O/-P`, `tar -x -C`/`tar -c -f`, `unzip -d`, `git checkout`/`restore`/`rm`/`mv`).
//! Which arguments are targets is a table per program; a target that is not literal text
//! is reported as such, and so are the arguments `xargs` appends.

mod programs;

pub use programs::{patched_files, unmodelled};

use super::exec::{Invocation, Runs};
use super::{RedirectOp, SimpleCommand, Word};
use crate::argv::{self, tables};
use std::path::Path;

/// One path a command writes (or deletes, or creates).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct WriteTarget {
    pub word: Word,
    /// How it is written, for messages (`redirection >`, `tee`, `cp`).
    pub how: String,
    /// Acts on a final symlink itself (`rm link`, `mv link x`), not on what it points to.
    pub no_follow: bool,
    /// Reaches everything under a directory target (`rm -r`, moving a directory,
    /// extracting into it).
    pub recursive: bool,
    /// For a copy, move or link destination: the sources, whose names land inside the
    /// destination when it is a directory.
    pub sources: Vec<Word>,
    /// The destination is never a directory the sources land in (`-T`).
    pub into_dir_never: bool,
    /// The destination is always a directory the sources land in (`-t DIR`; `install -D
    /// -t` makes it).
    pub into_dir_always: bool,
    /// It happens only if this path is a directory (a source of `mv a b dest`: with
    /// several sources, mv does nothing unless dest is one).
    pub needs_dir: Option<Word>,
    /// Relative paths are relative to this directory rather than the command's
    /// (`git -C dir`, `--work-tree`).
    pub base: Option<Word>,
    /// A word that is a path only when it exists (`git checkout X`: a branch, or a file).
    pub if_exists: bool,
    /// Every missing directory above it is created too (`mkdir -p`, `install -D`).
    pub parents: bool,
    /// It puts a link (or moves one) where it lands, so that later writes in the same
    /// command through that name reach what the link points to.
    pub link: Option<LinkKind>,
    /// git rewrites the files under the target (a pathspec) that differ from a tree:
    /// which ones is read from the repository when the write is judged.
    pub git_changes: Option<GitChanges>,
}

/// Which files under a pathspec a git command rewrites in the work tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GitChanges {
    /// Tracked files whose work-tree copy differs from the index (`git checkout -- P`,
    /// `git restore P`).
    FromIndex,
    /// Files that differ, staged or not, from this tree-ish (`git reset --hard T`, `git
    /// checkout T -- P`, `git restore -s T P`, `git stash`).
    FromTree(String),
    /// Files that differ between HEAD and this tree-ish (a branch switch: `git checkout
    /// T`, `git switch T`).
    Switch(String),
    /// Files a stash changes (`git stash pop|apply [STASH]`).
    FromStash(String),
    /// Files git does not track (`git clean`): untracked ones, ignored ones too with
    /// `-x`, only ignored ones with `-X`.
    Untracked { ignored: bool, only_ignored: bool },
}

/// How a write target makes a link at its landing place; the source is [`WriteTarget::sources`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// `ln -s SRC DEST`, `cp -s`: a symbolic link whose text is SRC as written.
    Symbolic,
    /// `ln SRC DEST`, `cp -l`: a second name for SRC's file.
    Hard,
    /// `mv SRC DEST`: whatever SRC was (a link among them) is now at DEST.
    Moved,
}

/// Targets that are not files.
const NOT_FILES: &[&str] = &[
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/zero",
    "/dev/full",
];

fn is_not_a_file(t: &str) -> bool {
    // `/dev/fd/3` is a descriptor; `/dev/fd/../../tmp/x` is a path like any other.
    NOT_FILES.contains(&t)
        || t.strip_prefix("/dev/fd/")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Every file `cmd` visibly writes. `cwd` is where the program runs, when known: a
/// patch named by a file (`patch -i fix.diff`, `patch < fix.diff`) is read from there to
/// learn which files it changes.
pub fn write_targets(cmd: &SimpleCommand, runs: &Runs, cwd: Option<&Path>) -> Vec<WriteTarget> {
    let mut out = Vec::new();
    for r in &cmd.redirects {
        let op = match r.op {
            RedirectOp::Write => ">",
            RedirectOp::Append => ">>",
            RedirectOp::WriteAll => "&>",
            RedirectOp::AppendAll => "&>>",
            RedirectOp::ReadWrite => "<>",
            // `>&2` duplicates a descriptor; `>&file` writes a file, and so may `>&"$X"`:
            // a target known only when it runs is judged (and denied) as one.
            RedirectOp::DupOut
                if r.target
                    .text()
                    .is_none_or(|t| t.parse::<u32>().is_err() && t != "-") =>
            {
                ">&"
            }
            _ => continue,
        };
        if r.target.text().is_some_and(is_not_a_file) {
            continue;
        }
        out.push(WriteTarget {
            word: r.target.clone(),
            how: format!("redirection {op}"),
            ..WriteTarget::default()
        });
    }
    if let Runs::Program(inv) = runs {
        out.extend(
            program_targets(inv, cmd, cwd)
                .into_iter()
                .filter(|t| !t.word.text().is_some_and(is_not_a_file)),
        );
    }
    out
}

/// What the program of `inv` writes by its arguments (and, for an interpreter, by the
/// literal file names its inline code writes).
fn program_targets(inv: &Invocation, cmd: &SimpleCommand, cwd: Option<&Path>) -> Vec<WriteTarget> {
    let name = inv.name();
    match name {
        "dd" => return dd_targets(inv),
        "tar" => return tar_targets(inv),
        "git" => return git_targets(inv),
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => {
            return super::embedded::awk_outputs(&inv.args)
                .into_iter()
                .map(|(w, how)| WriteTarget {
                    no_follow: how == super::embedded::AwkWrite::InPlace,
                    ..target(&w, "awk")
                })
                .collect()
        }
        "perl" => {
            let mut out = perl_targets(inv);
            out.extend(programs::interpreter_writes(inv, cmd));
            return out;
        }
        _ => {}
    }
    if programs::language(name).is_some() {
        return programs::interpreter_writes(inv, cmd);
    }
    let Some(row) = tables::writer_row(name) else {
        return Vec::new();
    };
    if row.targets != tables::Targets::Own {
        return programs::by_table(inv, row);
    }
    match name {
        "cp" | "mv" | "install" | "ln" => copy_like(inv, row),
        "chmod" | "chown" | "chgrp" => programs::ownership(inv, row),
        "split" | "csplit" => programs::split(inv, row),
        "mktemp" => programs::mktemp(inv, row),
        "sqlite3" => programs::sqlite(inv),
        "ssh-keygen" => programs::ssh_keygen(inv, row),
        "openssl" => programs::openssl(inv),
        "zip" => programs::zip(inv, row),
        "rsync" => programs::rsync(inv, row),
        "patch" => programs::patch(inv, row, cmd, cwd),
        "vi" | "vim" | "nvim" | "ex" | "view" | "vimdiff" => programs::editor(inv, row),
        "cargo" => programs::cargo(inv, row),
        "sed" => sed_targets(inv, row),
        "curl" => curl_targets(inv, row),
        "wget" => wget_targets(inv, row),
        "unzip" => unzip_targets(inv, row),
        _ => Vec::new(),
    }
}

/// A target a writer names.
fn target(w: &Word, how: &str) -> WriteTarget {
    WriteTarget {
        word: w.clone(),
        how: how.to_owned(),
        ..WriteTarget::default()
    }
}

/// The words `xargs` (or `parallel`) appends at run time, as one target only known then.
fn appended(inv: &Invocation) -> Word {
    Word {
        raw: format!(
            "(arguments {} appends)",
            inv.appender.as_deref().unwrap_or("xargs")
        ),
        value: None,
        quoted: false,
    }
}

/// `sed -i`: the files after the script (`-e`/`-f` given, every positional), and the files
/// its `w` commands write (with or without `-i`).
fn sed_targets(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let p = argv::parse(&row.grammar, &inv.args);
    let mut out: Vec<WriteTarget> = super::embedded::sed_outputs(&inv.args)
        .iter()
        .map(|w| target(w, "sed w"))
        .collect();
    if !p.has("in-place") {
        return out;
    }
    // Without -e or -f, the first positional is the script.
    let mut files: Vec<Word> = if p.has_any(&["expression", "file"]) {
        p.positionals.clone()
    } else {
        p.positionals.get(1..).unwrap_or_default().to_vec()
    };
    if inv.appended_unknown {
        files.push(appended(inv));
    }
    // sed -i writes a new file and renames it over the old name: a symlink there is
    // replaced, not written through, unless `--follow-symlinks`.
    let no_follow = !p.has("follow-symlinks");
    out.extend(files.iter().map(|w| WriteTarget {
        no_follow,
        ..target(w, "sed")
    }));
    out
}

/// `curl -o FILE`, `-O` (the URL's file name, in `--output-dir`).
fn curl_targets(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let p = argv::parse(&row.grammar, &inv.args);
    let mut out: Vec<WriteTarget> = p
        .args_of("output")
        .into_iter()
        .filter(|w| w.text() != Some("-"))
        .map(|w| target(w, "curl"))
        .collect();
    for opt in [
        "cookie-jar",
        "dump-header",
        "trace",
        "trace-ascii",
        "stderr",
    ] {
        out.extend(
            p.args_of(opt)
                .into_iter()
                .filter(|w| w.text() != Some("-"))
                .map(|w| target(w, &format!("curl --{opt}"))),
        );
    }
    if p.has_any(&["remote-name", "remote-name-all"]) {
        let dir = p.arg("output-dir");
        out.extend(
            p.positionals
                .iter()
                .filter_map(|u| url_file_name(u, dir))
                .map(|w| target(&w, "curl")),
        );
    }
    out
}

/// `wget -O FILE` (`-` is stdout), else the URLs' file names in `-P DIR`; `-o`/`-a` logs.
fn wget_targets(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let p = argv::parse(&row.grammar, &inv.args);
    let mut out: Vec<WriteTarget> = ["output-file", "append-output"]
        .iter()
        .flat_map(|o| p.args_of(o))
        .filter(|w| w.text() != Some("-"))
        .map(|w| target(w, "wget log"))
        .collect();
    let documents = p.args_of("output-document");
    if !documents.is_empty() {
        out.extend(
            documents
                .into_iter()
                .filter(|w| w.text() != Some("-"))
                .map(|w| target(w, "wget")),
        );
        return out;
    }
    let dir = p.arg("directory-prefix");
    out.extend(
        p.positionals
            .iter()
            .filter_map(|u| url_file_name(u, dir))
            .map(|w| target(&w, "wget")),
    );
    out
}

/// `unzip ARCHIVE -d DIR`: everything under DIR (the current directory without `-d`).
fn unzip_targets(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let p = argv::parse(&row.grammar, &inv.args);
    // Listing, testing, printing to stdout and zipinfo mode write nothing.
    if p.has_any(&["l", "t", "p", "v", "Z", "c"]) {
        return Vec::new();
    }
    let dirs = p.args_of("d");
    let dot = Word::literal(".");
    let dirs = if dirs.is_empty() { vec![&dot] } else { dirs };
    dirs.into_iter()
        .map(|w| WriteTarget {
            recursive: true,
            ..target(w, "unzip")
        })
        .collect()
}

/// `dd of=FILE`: the last `of=` wins, as dd reads its operands.
fn dd_targets(inv: &Invocation) -> Vec<WriteTarget> {
    inv.args
        .iter()
        .rev()
        .find_map(|w| match w.text() {
            Some(t) => t.strip_prefix("of=").map(Word::literal),
            None => w.raw.strip_prefix("of=").map(|rest| Word {
                raw: rest.to_owned(),
                value: None,
                quoted: w.quoted,
            }),
        })
        .map(|word| WriteTarget {
            word,
            how: "dd".into(),
            ..WriteTarget::default()
        })
        .into_iter()
        .collect()
}

/// `cp`, `mv`, `install`, `ln`: the destination (with the sources, which land inside it
/// when it is a directory), and for `mv` the sources themselves, which are removed.
fn copy_like(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let name = row.name;
    let p = argv::parse(&row.grammar, &inv.args);
    let mut positionals = p.positionals.clone();
    if inv.appended_unknown {
        // `ls | xargs cp -t dir`: the sources (or the destination) only exist at run time.
        positionals.push(appended(inv));
    }
    let target_dir = p.arg("target-directory").cloned();
    let mut out = Vec::new();
    if name == "install" && p.has("directory") {
        return positionals.iter().map(|w| target(w, name)).collect();
    }
    let (sources, destination) = match (&target_dir, positionals.split_last()) {
        (Some(dir), _) => (&positionals[..], Some(dir.clone())),
        (None, Some((last, rest))) if !rest.is_empty() => (rest, Some(last.clone())),
        // `ln -s /x/y`: the link `y` in the current directory.
        (None, Some(_)) if name == "ln" => (&positionals[..], Some(Word::literal("./"))),
        _ => (&positionals[..0], None),
    };
    let copies_trees = name == "cp" && p.has_any(&["recursive", "R", "archive"]);
    let no_target_dir = p.has("no-target-directory") || (name == "ln" && p.has("no-dereference"));
    // `install -D`, `cp --parents`: the leading directories are made too.
    let parents = (name == "install" && p.has("D")) || (name == "cp" && p.has("parents"));
    // A tool that replaces its destination (a new link, a moved or installed file) does
    // not write through a final symlink: it puts a new file where the link was.
    let replaces = matches!(name, "ln" | "mv" | "install") || p.has("remove-destination");
    let link = match name {
        "ln" if p.has("symbolic") => Some(LinkKind::Symbolic),
        "ln" => Some(LinkKind::Hard),
        "cp" if p.has("symbolic") => Some(LinkKind::Symbolic),
        "cp" if p.has("link") => Some(LinkKind::Hard),
        "mv" => Some(LinkKind::Moved),
        _ => None,
    };
    if let Some(dest) = destination {
        out.push(WriteTarget {
            recursive: copies_trees || name == "mv",
            // With `-T` the sources do not land inside the destination, but the one
            // source still says what a link made there points to.
            into_dir_never: no_target_dir,
            into_dir_always: target_dir.is_some(),
            sources: sources.to_vec(),
            no_follow: replaces,
            parents,
            link,
            ..target(&dest, name)
        });
    }
    // After the destination, so that a link moved there is known before its old name
    // is forgotten.
    if name == "mv" {
        let needs_dir = (sources.len() > 1 && target_dir.is_none())
            .then(|| positionals.last().cloned())
            .flatten();
        out.extend(sources.iter().map(|w| WriteTarget {
            no_follow: true,
            recursive: true,
            needs_dir: needs_dir.clone(),
            ..target(w, "mv (source)")
        }));
    }
    out
}

/// `perl -i … file…`: the files after the code (`-e CODE`, or a bundle ending in `e`).
fn perl_targets(inv: &Invocation) -> Vec<WriteTarget> {
    let mut in_place = false;
    let mut code_given = false;
    let mut files = Vec::new();
    let mut k = 0;
    while let Some(w) = inv.args.get(k) {
        k += 1;
        match w.text() {
            Some(t) if t.starts_with('-') && !t.starts_with("--") && t.len() > 1 => {
                let flags = &t[1..];
                // `-i.bak`: everything after `i` is the backup suffix.
                let before_i = flags.split('i').next().unwrap_or(flags);
                if flags.contains('i') && !before_i.contains(['e', 'E']) {
                    in_place = true;
                }
                let letters = if flags.contains('i') && !before_i.contains(['e', 'E']) {
                    before_i
                } else {
                    flags
                };
                if letters.ends_with(['e', 'E']) {
                    code_given = true;
                    k += 1;
                }
            }
            Some("--") => {
                files.extend(inv.args[k..].iter().cloned());
                break;
            }
            _ => files.push(w.clone()),
        }
    }
    if !in_place {
        return Vec::new();
    }
    let files = if code_given {
        &files[..]
    } else {
        files.get(1..).unwrap_or_default()
    };
    files
        .iter()
        // perl -i renames a new file over the old name, replacing a symlink there.
        .map(|w| WriteTarget {
            no_follow: true,
            ..target(w, "perl -i")
        })
        .collect()
}

/// `tar -x [-C dir]` writes under a directory; `tar -c/-r/-u -f file` writes the archive.
/// An old-style first word without a dash (`tar czf out.tgz`) is a bundle of letters.
fn tar_targets(inv: &Invocation) -> Vec<WriteTarget> {
    let mut args = inv.args.clone();
    if let Some(first) = args.first_mut() {
        if let Some(t) = first
            .text()
            .filter(|t| !t.starts_with('-') && !t.is_empty())
        {
            *first = Word::literal(&format!("-{t}"));
        }
    }
    let p = argv::parse(&tables::TAR, &args);
    let target = |w: &Word, recursive| WriteTarget {
        word: w.clone(),
        how: "tar".into(),
        recursive,
        ..WriteTarget::default()
    };
    // `-O`/`--to-stdout` extracts to stdout; `--to-command` feeds a program.
    if p.has_any(&["extract", "get"]) && !p.has_any(&["to-stdout", "to-command"]) {
        let dirs = p.args_of("directory");
        let dot = Word::literal(".");
        let dirs = if dirs.is_empty() { vec![&dot] } else { dirs };
        return dirs.into_iter().map(|w| target(w, true)).collect();
    }
    if p.has_any(&["create", "append", "update"]) {
        return p
            .args_of("file")
            .into_iter()
            .filter(|w| w.text() != Some("-"))
            .map(|w| target(w, false))
            .collect();
    }
    Vec::new()
}

/// The file name a download takes from its URL (`…/x.tgz?y` -> `x.tgz`), in `dir`.
fn url_file_name(url: &Word, dir: Option<&Word>) -> Option<Word> {
    let u = url.text()?;
    if !u.contains("://") {
        return None;
    }
    let path = u.split(['?', '#']).next()?;
    let name = path
        .rsplit('/')
        .next()
        .filter(|n| !n.is_empty() && !path.ends_with("://"))?;
    Some(match dir {
        Some(d) => match d.text() {
            Some(d) => Word::literal(&format!("{}/{name}", d.trim_end_matches('/'))),
            None => Word {
                raw: format!("{}/{name}", d.raw),
                value: None,
                quoted: false,
            },
        },
        None => Word::literal(name),
    })
}

/// `git checkout [<tree-ish>] [--] <paths>`, `git restore <paths>`, `git rm`, `git mv`,
/// relative to `-C` and `--work-tree` when given.
fn git_targets(inv: &Invocation) -> Vec<WriteTarget> {
    let mut base: Option<Word> = None;
    let join = |base: &Option<Word>, dir: &Word| -> Word {
        match (base.as_ref().and_then(Word::text), dir.text()) {
            (_, Some(d)) if d.starts_with('/') => dir.clone(),
            (Some(b), Some(d)) => Word::literal(&format!("{b}/{d}")),
            (None, _) => dir.clone(),
            _ => Word {
                raw: dir.raw.clone(),
                value: None,
                quoted: false,
            },
        }
    };
    // git's global options, by git's own table: `-C` and `--work-tree` move where
    // relative paths land.
    let globals = argv::parse(&tables::GIT_GLOBAL, &inv.args);
    for (name, value) in &globals.opts {
        if let (Some(dir), "C" | "work-tree") = (value, name.as_str()) {
            base = Some(join(&base, dir));
        }
    }
    // Which files git rewrites is read from the repository found from the directory; a
    // work tree or git directory set apart from it is not modelled (the pathspec is
    // judged whole).
    let repo_elsewhere = globals
        .opts
        .iter()
        .any(|(n, _)| n == "work-tree" || n == "git-dir")
        || inv
            .env
            .iter()
            .any(|(n, _)| n == "GIT_WORK_TREE" || n == "GIT_DIR");
    let k = globals.rest_at;
    // The work tree named in the environment (`GIT_WORK_TREE=/x git checkout -- a`)
    // is where the paths land; one known only when it runs makes them unreadable.
    if let Some((_, value)) = inv.env.iter().rev().find(|(n, _)| n == "GIT_WORK_TREE") {
        let dir = match value {
            Some(v) => Word::literal(v),
            None => Word {
                raw: "$GIT_WORK_TREE".into(),
                value: None,
                quoted: false,
            },
        };
        base = Some(join(&base, &dir));
    }
    let Some(sub) = inv.args.get(k).and_then(Word::text) else {
        return Vec::new();
    };
    let rest = &inv.args[k + 1..];
    let how = format!("git {sub}");
    // A pathspec with magic (`:/x`, `:(top)x`) or a glob git expands itself (`'src/*'`)
    // names paths the guard cannot list: judged as unreadable, like a variable.
    let pathspec = |w: &Word| match w.text() {
        Some(t) if t.starts_with(':') || t.contains(['*', '?', '[']) => Word {
            raw: w.raw.clone(),
            value: None,
            quoted: w.quoted,
        },
        _ => w.clone(),
    };
    let paths = |words: &[Word]| -> Vec<WriteTarget> {
        words
            .iter()
            .map(|w| WriteTarget {
                word: pathspec(w),
                how: how.clone(),
                recursive: true,
                base: base.clone(),
                ..WriteTarget::default()
            })
            .collect()
    };
    // What git rewrites under pathspecs (the whole tree without any): the files that
    // differ, read from the repository when judged.
    let rewrites = |words: &[Word], changes: GitChanges| -> Vec<WriteTarget> {
        let dot = [Word::literal(".")];
        let words = if words.is_empty() { &dot[..] } else { words };
        words
            .iter()
            .map(|w| WriteTarget {
                word: pathspec(w),
                how: how.clone(),
                recursive: true,
                base: base.clone(),
                git_changes: (!repo_elsewhere).then(|| changes.clone()),
                ..WriteTarget::default()
            })
            .collect()
    };
    let rev = |w: &Word| w.text().map(str::to_owned);
    let after_dashdash = |p: &argv::Parsed<Word>| -> Vec<Word> {
        p.dashdash
            .map(|n| p.positionals[n..].to_vec())
            .unwrap_or_default()
    };
    match sub {
        "checkout" => {
            let p = argv::parse(&tables::GIT_CHECKOUT_PATHS, rest);
            let start = p.positionals.first();
            if p.has_any(&["b", "B", "orphan", "detach"]) {
                // A new branch (or a detached HEAD) at START: the tree moves there.
                return match start.and_then(rev) {
                    Some(r) => rewrites(&[], GitChanges::Switch(r)),
                    None if start.is_some() => paths(&[Word::literal(".")]),
                    None => Vec::new(),
                };
            }
            match p.dashdash {
                // `git checkout -- P…` restores from the index; `git checkout T -- P…`
                // from T.
                Some(0) => rewrites(&after_dashdash(&p), GitChanges::FromIndex),
                Some(_) => match start.and_then(rev) {
                    Some(r) => rewrites(&after_dashdash(&p), GitChanges::FromTree(r)),
                    None => paths(&after_dashdash(&p)),
                },
                // `git checkout T P…` restores P from T.
                None if p.positionals.len() >= 2 => match start.and_then(rev) {
                    Some(r) => rewrites(&p.positionals[1..], GitChanges::FromTree(r)),
                    None => paths(&p.positionals[1..]),
                },
                // A lone word is a branch or commit to switch to, or a path to restore
                // from the index when it is one.
                None => match start {
                    Some(w) => {
                        let mut out = match rev(w) {
                            Some(r) => rewrites(&[], GitChanges::Switch(r)),
                            None => paths(&[Word::literal(".")]),
                        };
                        out.extend(
                            rewrites(std::slice::from_ref(w), GitChanges::FromIndex)
                                .into_iter()
                                .map(|t| WriteTarget {
                                    if_exists: true,
                                    ..t
                                }),
                        );
                        out
                    }
                    None => Vec::new(),
                },
            }
        }
        "switch" => {
            let p = argv::parse(&tables::GIT_SWITCH_TREE, rest);
            let creates = p.has_any(&["create", "force-create", "orphan"]);
            match (p.positionals.first(), creates) {
                (Some(w), _) => match rev(w) {
                    Some(r) => rewrites(&[], GitChanges::Switch(r)),
                    None => paths(&[Word::literal(".")]),
                },
                // `git switch -c new` stays on HEAD's tree.
                (None, _) => Vec::new(),
            }
        }
        "restore" => {
            let p = argv::parse(&tables::GIT_RESTORE_RM_MV, rest);
            // `git restore --staged` alone touches only the index.
            if p.has("staged") && !p.has("worktree") {
                return Vec::new();
            }
            match p.arg("source") {
                Some(s) => match rev(s) {
                    Some(r) => rewrites(&p.positionals, GitChanges::FromTree(r)),
                    None => paths(&p.positionals),
                },
                None => rewrites(&p.positionals, GitChanges::FromIndex),
            }
        }
        "rm" | "mv" => {
            let p = argv::parse(&tables::GIT_RESTORE_RM_MV, rest);
            // `git rm --cached` touches only the index.
            if p.has("cached") {
                Vec::new()
            } else {
                paths(&p.positionals)
            }
        }
        "reset" => {
            let p = argv::parse(&tables::GIT_RESET_TREE, rest);
            if !p.has_any(&["hard", "merge", "keep"]) || p.dashdash.is_some() {
                return Vec::new();
            }
            match p.positionals.first() {
                None => rewrites(&[], GitChanges::FromTree("HEAD".into())),
                Some(w) => match rev(w) {
                    Some(r) => rewrites(&[], GitChanges::FromTree(r)),
                    None => paths(&[Word::literal(".")]),
                },
            }
        }
        "stash" => {
            let (verb, args) = match rest.first().and_then(Word::text) {
                Some(v) if !v.starts_with('-') => (v, &rest[1..]),
                _ => ("push", rest),
            };
            let p = argv::parse(&tables::GIT_STASH, args);
            match verb {
                "push" | "save" => {
                    let specs = if verb == "push" {
                        p.positionals.clone()
                    } else {
                        Vec::new()
                    };
                    let mut out = rewrites(&specs, GitChanges::FromTree("HEAD".into()));
                    if p.has_any(&["include-untracked", "all"]) {
                        out.extend(rewrites(
                            &specs,
                            GitChanges::Untracked {
                                ignored: p.has("all"),
                                only_ignored: false,
                            },
                        ));
                    }
                    out
                }
                "pop" | "apply" | "branch" => {
                    let which = if verb == "branch" {
                        p.positionals.get(1)
                    } else {
                        p.positionals.first()
                    };
                    match which.map(rev) {
                        Some(None) => paths(&[Word::literal(".")]),
                        Some(Some(r)) => rewrites(&[], GitChanges::FromStash(r)),
                        None => rewrites(&[], GitChanges::FromStash("stash@{0}".into())),
                    }
                }
                _ => Vec::new(),
            }
        }
        "clean" => {
            let p = argv::parse(&tables::GIT_CLEAN, rest);
            // Without -f (or -i), clean.requireForce makes git refuse.
            if p.has("dry-run") || !p.has_any(&["force", "interactive"]) {
                return Vec::new();
            }
            rewrites(
                &p.positionals,
                GitChanges::Untracked {
                    ignored: p.has("x"),
                    only_ignored: p.has("X"),
                },
            )
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::{exec, parse};

    fn targets(src: &str) -> Vec<(String, String)> {
        let s = parse(src);
        s.simple_commands()
            .iter()
            .flat_map(|c| write_targets(c, &exec::runs(c), None))
            .map(|t| {
                (
                    t.how,
                    t.word.value.unwrap_or_else(|| format!("<{}>", t.word.raw)),
                )
            })
            .collect()
    }

    fn t(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn redirections() {
        assert_eq!(
            targets("echo a > x 2>&1 >> y &> z; grep q f 2>/dev/null; cmd >&out <in"),
            t(&[
                ("redirection >", "x"),
                ("redirection >>", "y"),
                ("redirection &>", "z"),
                ("redirection >&", "out")
            ])
        );
        assert_eq!(
            targets("cat <<EOF > gen.txt\nbody\nEOF"),
            t(&[("redirection >", "gen.txt")])
        );
    }

    #[test]
    fn writers() {
        assert_eq!(
            targets("tee -a log.txt other"),
            t(&[("tee", "log.txt"), ("tee", "other")])
        );
        assert_eq!(targets("cp -r a b dest/"), t(&[("cp", "dest/")]));
        assert_eq!(targets("cp -t dir a b"), t(&[("cp", "dir")]));
        assert_eq!(targets("mv a b"), t(&[("mv", "b"), ("mv (source)", "a")]));
        assert_eq!(
            targets("install -m 644 f /usr/x"),
            t(&[("install", "/usr/x")])
        );
        assert_eq!(
            targets("install -d a b"),
            t(&[("install", "a"), ("install", "b")])
        );
        assert_eq!(targets("dd if=a of=/tmp/b bs=1"), t(&[("dd", "/tmp/b")]));
        assert_eq!(
            targets("sed -i 's/a/b/' f g"),
            t(&[("sed", "f"), ("sed", "g")])
        );
        assert_eq!(targets("sed -i.bak -e 's/a/b/' f"), t(&[("sed", "f")]));
        assert_eq!(targets("sed 's/a/b/' f"), t(&[]));
        assert_eq!(targets("perl -pi -e 's/a/b/' f"), t(&[("perl -i", "f")]));
        assert_eq!(targets("perl -i -pe 's/a/b/' f"), t(&[("perl -i", "f")]));
        assert_eq!(targets("perl -pe 's/a/b/' f"), t(&[]));
        assert_eq!(targets("truncate -s 0 f"), t(&[("truncate", "f")]));
        assert_eq!(targets("touch -d now f"), t(&[("touch", "f")]));
        assert_eq!(targets("mkdir -p a/b"), t(&[("mkdir", "a/b")]));
        assert_eq!(targets("ln -s /x/y link"), t(&[("ln", "link")]));
        assert_eq!(targets("ln -s /x/y"), t(&[("ln", "./")]));
        assert_eq!(targets("rm -rf build"), t(&[("rm", "build")]));
        assert_eq!(
            targets("curl -sSo out.bin http://x"),
            t(&[("curl", "out.bin")])
        );
        assert_eq!(
            targets("curl -o out.bin http://x"),
            t(&[("curl", "out.bin")])
        );
        assert_eq!(targets("wget -O f.tgz http://x"), t(&[("wget", "f.tgz")]));
        assert_eq!(targets("tar -xzf a.tgz -C /opt"), t(&[("tar", "/opt")]));
        assert_eq!(targets("tar -tzf a.tgz"), t(&[]));
        assert_eq!(
            targets("git checkout HEAD -- a b"),
            t(&[("git checkout", "a"), ("git checkout", "b")])
        );
        // A branch switch rewrites what differs (read when judged); a path restores it.
        assert_eq!(
            targets("git checkout main"),
            t(&[("git checkout", "."), ("git checkout", "main")])
        );
        assert_eq!(
            targets("git checkout HEAD~1 .env"),
            t(&[("git checkout", ".env")])
        );
        assert_eq!(
            targets("git -C sub checkout -- a"),
            t(&[("git checkout", "a")])
        );
        assert_eq!(targets("git checkout -b new"), t(&[]));
        assert_eq!(
            targets("tee /dev/null; dd if=a of=/dev/null; curl -o - http://x"),
            t(&[])
        );
        assert_eq!(
            targets("curl -O http://h/p/id_rsa?x=1"),
            t(&[("curl", "id_rsa")])
        );
        assert_eq!(
            targets("wget -P dl http://h/a.tgz"),
            t(&[("wget", "dl/a.tgz")])
        );
        assert_eq!(targets("tar -czf out.tgz src"), t(&[("tar", "out.tgz")]));
        assert_eq!(
            targets("ls | xargs rm"),
            t(&[("rm", "<(arguments xargs appends)>")])
        );
        assert_eq!(targets("git restore --staged a"), t(&[]));
        assert_eq!(targets("git restore -s HEAD a"), t(&[("git restore", "a")]));
        assert_eq!(targets("sudo tee /etc/x"), t(&[("tee", "/etc/x")]));
        assert_eq!(
            targets("cat f > \"$OUT\""),
            t(&[("redirection >", "<\"$OUT\">")])
        );
    }

    #[test]
    fn more_writers() {
        let cases: &[(&str, &[(&str, &str)])] = &[
            ("sort -o out.txt in.txt", &[("sort", "out.txt")]),
            ("sort -uo out.txt in.txt", &[("sort", "out.txt")]),
            ("sort in.txt", &[]),
            ("uniq in.txt out.txt", &[("uniq", "out.txt")]),
            ("uniq -c in.txt", &[]),
            ("chmod 600 a b", &[("chmod", "a"), ("chmod", "b")]),
            ("chmod -x a", &[("chmod", "a")]),
            ("chmod --reference=r a", &[("chmod", "a")]),
            ("chown -R u:g d", &[("chown", "d")]),
            ("split -l 1 in.txt ../p", &[("split", "../paa")]),
            ("split -d -l 1 in.txt p", &[("split", "p00")]),
            ("split in.txt", &[("split", "xaa")]),
            ("csplit -f ../q in.txt 2", &[("csplit", "../q00")]),
            ("mktemp -p .. f.XXX", &[("mktemp", "../f.XXX")]),
            ("mktemp -d", &[("mktemp", "/tmp/tmp.XXXXXXXXXX")]),
            ("mktemp -u", &[]),
            ("TMPDIR=/w mktemp -t", &[("mktemp", "/w/tmp.XXXXXXXXXX")]),
            (
                "sqlite3 -batch db.sqlite 'select 1'",
                &[("sqlite3", "db.sqlite")],
            ),
            ("sqlite3 :memory: 'select 1'", &[]),
            (
                "ssh-keygen -q -t ed25519 -N '' -f k",
                &[("ssh-keygen -f", "k"), ("ssh-keygen -f", "k.pub")],
            ),
            ("ssh-keygen -l -f k", &[]),
            (
                "openssl genrsa -out k.pem 2048",
                &[("openssl -out", "k.pem")],
            ),
            ("zip -qr out src", &[("zip", "out.zip")]),
            ("rsync -a src/ ../dst", &[("rsync", "../dst")]),
            ("rsync -a src host:dst", &[]),
            ("rsync -n -a src ../dst", &[]),
            (
                "patch -o ../out.c a.c fix.diff",
                &[("patch -o", "../out.c")],
            ),
            (
                "patch -p1 <<'EOF'\n--- a/src/x.rs\n+++ b/src/x.rs\nEOF",
                &[("patch", "src/x.rs")],
            ),
            ("vim -es -c 'w! ../v' -c 'q!' f", &[("vim :w", "../v")]),
            ("ex -sc wq f", &[("ex", "f")]),
            ("vim -c q f", &[]),
            ("awk '{print > \"o.txt\"}' in", &[("awk", "o.txt")]),
            ("awk '$1 > 2 {print}' in", &[]),
            ("gawk -i inplace '{print}' f", &[("awk", "f")]),
            ("sed -n 'w o.txt' in", &[("sed w", "o.txt")]),
            ("sed 's/a/b/w o.txt' in", &[("sed w", "o.txt")]),
            (
                "python3 -c 'open(\"../x\", \"w\")'",
                &[("python3 inline code", "../x")],
            ),
            (
                "node -e 'require(\"fs\").writeFileSync(\"o\", \"x\")'",
                &[("node inline code", "o")],
            ),
            (
                "python3 - <<'EOF'\nopen('h.txt', 'w')\nEOF",
                &[("python3 inline code", "h.txt")],
            ),
            (
                "cargo build --target-dir ../t",
                &[("cargo --target-dir", "../t")],
            ),
            (
                "CARGO_TARGET_DIR=/t cargo test",
                &[("CARGO_TARGET_DIR", "/t")],
            ),
            ("cargo test", &[]),
            (
                "curl -sS -c jar.txt http://x",
                &[("curl --cookie-jar", "jar.txt")],
            ),
            (
                "wget -q -o log.txt http://h/a",
                &[("wget log", "log.txt"), ("wget", "a")],
            ),
        ];
        for (src, want) in cases {
            let src = src.replace("\\n", "\n");
            assert_eq!(targets(&src), t(want), "{src}");
        }
    }

    #[test]
    fn unmodelled_programs() {
        let why = |src: &str| {
            let s = parse(src);
            let c = s.simple_commands()[0].clone();
            match exec::runs(&c) {
                exec::Runs::Program(inv) => unmodelled(&inv, &c),
                _ => None,
            }
        };
        assert_eq!(
            why("python3 -c 'print(1)'").as_deref(),
            Some("runs inline code")
        );
        assert_eq!(
            why("node -e \"$X\"").as_deref(),
            Some("runs code only known when it runs")
        );
        assert_eq!(why("perl -pi -e 's/a/b/g' f"), None);
        assert!(why("perl -e 'system(1)'").is_some());
        assert!(why("perl -pi -e 's/a/b/e' f").is_some());
        assert_eq!(why("python3 script.py"), None);
        assert_eq!(why("ls"), None);
    }
}
