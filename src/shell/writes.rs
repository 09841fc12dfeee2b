//! The files a simple command visibly writes: redirections, and the arguments of the
//! common file writers (`tee`, `cp`, `mv`, `install`, `ln`, `dd of=`, `sed -i`, `perl -i`,
//! `truncate`, `touch`, `mkdir`, `rm`, `rmdir`, `unlink`, `shred`, `curl -o/-O`,
//! `wget -O/-P`, `tar -x -C`/`tar -c -f`, `unzip -d`, `git checkout`/`restore`/`rm`/`mv`).
//! Which arguments are targets is a table per program; a target that is not literal text
//! is reported as such, and so are the arguments `xargs` appends.

use super::exec::{Invocation, Runs};
use super::{RedirectOp, SimpleCommand, Word};

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
    /// Relative paths are relative to this directory rather than the command's
    /// (`git -C dir`, `--work-tree`).
    pub base: Option<Word>,
    /// A word that is a path only when it exists (`git checkout X`: a branch, or a file).
    pub if_exists: bool,
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

/// Options that take a value, per writer, so their values are not taken for paths.
const VALUE_OPTS: &[(&str, &[&str])] = &[
    ("tee", &["--output-error"]),
    ("cp", &["-t", "--target-directory", "-S", "--suffix"]),
    ("mv", &["-t", "--target-directory", "-S", "--suffix"]),
    (
        "install",
        &[
            "-t",
            "--target-directory",
            "-S",
            "--suffix",
            "-m",
            "--mode",
            "-o",
            "--owner",
            "-g",
            "--group",
        ],
    ),
    ("ln", &["-t", "--target-directory", "-S", "--suffix"]),
    ("truncate", &["-s", "--size", "-r", "--reference"]),
    ("touch", &["-d", "--date", "-t", "-r", "--reference"]),
    ("mkdir", &["-m", "--mode"]),
    (
        "shred",
        &["-n", "--iterations", "-s", "--size", "--random-source"],
    ),
    (
        "sed",
        &["-e", "--expression", "-f", "--file", "-l", "--line-length"],
    ),
    (
        "curl",
        &[
            "-o",
            "--output",
            "--output-dir",
            "-d",
            "--data",
            "-H",
            "--header",
            "-X",
            "--request",
            "-u",
            "--user",
            "-A",
            "--user-agent",
            "-e",
            "--referer",
            "-b",
            "--cookie",
            "-c",
            "--cookie-jar",
            "-F",
            "--form",
            "-T",
            "--upload-file",
            "-x",
            "--proxy",
            "-m",
            "--max-time",
            "-w",
            "--write-out",
            "-K",
            "--config",
            "--connect-timeout",
            "--retry",
            "-r",
            "--range",
            "-E",
            "--cert",
            "--key",
            "--cacert",
            "--data-raw",
            "--data-binary",
            "--data-urlencode",
        ],
    ),
    (
        "wget",
        &[
            "-O",
            "--output-document",
            "-P",
            "--directory-prefix",
            "-o",
            "--output-file",
            "-a",
            "--append-output",
            "-t",
            "--tries",
            "-T",
            "--timeout",
            "-U",
            "--user-agent",
            "--header",
            "-e",
            "--execute",
            "-i",
            "--input-file",
            "--user",
            "--password",
        ],
    ),
];

/// Programs whose positional arguments are all targets: what `xargs` appends to them is
/// a target too.
const ALL_POSITIONALS: &[&str] = &[
    "tee", "truncate", "touch", "mkdir", "rm", "rmdir", "unlink", "shred",
];

/// Every file `cmd` visibly writes.
pub fn write_targets(cmd: &SimpleCommand, runs: &Runs) -> Vec<WriteTarget> {
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
            program_targets(inv)
                .into_iter()
                .filter(|t| !t.word.text().is_some_and(is_not_a_file)),
        );
    }
    out
}

fn program_targets(inv: &Invocation) -> Vec<WriteTarget> {
    let name = inv.name();
    let target = |w: &Word| WriteTarget {
        word: w.clone(),
        how: name.to_owned(),
        ..WriteTarget::default()
    };
    let value_opts = VALUE_OPTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .unwrap_or_default();
    let (opts, mut positionals) = split_options(&inv.args, value_opts);
    if inv.appended_unknown
        && (ALL_POSITIONALS.contains(&name) || matches!(name, "cp" | "mv" | "ln" | "install"))
    {
        // `ls | xargs rm`: the targets only exist at run time.
        positionals.push(Word {
            raw: format!(
                "(arguments {} appends)",
                inv.wrappers.last().map_or("xargs", String::as_str)
            ),
            value: None,
            quoted: false,
        });
    }
    let opt = |names: &[&str]| {
        opts.iter()
            .find(|(n, _)| names.contains(&n.as_str()))
            .map(|(_, v)| v.clone())
    };
    let has = |names: &[&str]| opts.iter().any(|(n, _)| names.contains(&n.as_str()));
    let short_flag = |letter: char| {
        opts.iter()
            .any(|(n, _)| n.starts_with('-') && !n.starts_with("--") && n.contains(letter))
    };
    match name {
        "tee" | "truncate" | "touch" | "mkdir" | "shred" => {
            positionals.iter().map(&target).collect()
        }
        "rm" | "rmdir" | "unlink" => {
            let recursive =
                name == "rm" && (short_flag('r') || short_flag('R') || has(&["--recursive"]));
            positionals
                .iter()
                .map(|w| WriteTarget {
                    no_follow: true,
                    recursive,
                    ..target(w)
                })
                .collect()
        }
        "cp" | "mv" | "install" | "ln" => copy_like(name, &opts, &positionals),
        "dd" => inv
            .args
            .iter()
            .filter_map(|w| match w.text() {
                Some(t) => t.strip_prefix("of=").map(Word::literal),
                None if w.raw.starts_with("of=") => Some(Word {
                    raw: w.raw.clone(),
                    value: None,
                    quoted: w.quoted,
                }),
                None => None,
            })
            .map(|w| target(&w))
            .collect(),
        "sed" => {
            let in_place = inv.args.iter().any(|w| {
                w.text().is_some_and(|t| {
                    t.starts_with("--in-place")
                        || (t.starts_with('-') && !t.starts_with("--") && t.contains('i'))
                })
            });
            if !in_place {
                return Vec::new();
            }
            let script_given = has(&["-e", "--expression", "-f", "--file"]);
            let files = if script_given {
                &positionals[..]
            } else {
                positionals.get(1..).unwrap_or_default()
            };
            files.iter().map(&target).collect()
        }
        "perl" => perl_targets(inv),
        "curl" => {
            let mut out: Vec<WriteTarget> = opt_values(&inv.args, &["-o", "--output"])
                .iter()
                .filter(|w| w.text() != Some("-"))
                .map(&target)
                .collect();
            if inv.args.iter().any(|w| {
                matches!(w.text(), Some("-O" | "--remote-name" | "--remote-name-all"))
                    || w.text().is_some_and(|t| {
                        t.starts_with('-') && !t.starts_with("--") && t.ends_with('O')
                    })
            }) {
                let dir = opt(&["--output-dir"]).flatten();
                out.extend(
                    positionals
                        .iter()
                        .filter_map(|u| url_file_name(u, dir.as_ref()))
                        .map(|w| target(&w)),
                );
            }
            out
        }
        "wget" => {
            let named: Vec<WriteTarget> = opt_values(&inv.args, &["-O", "--output-document"])
                .iter()
                .filter(|w| w.text() != Some("-"))
                .map(&target)
                .collect();
            if !named.is_empty()
                || opt_values(&inv.args, &["-O", "--output-document"])
                    .iter()
                    .any(|w| w.text() == Some("-"))
            {
                return named;
            }
            let dir = opt(&["-P", "--directory-prefix"]).flatten();
            positionals
                .iter()
                .filter_map(|u| url_file_name(u, dir.as_ref()))
                .map(|w| target(&w))
                .collect()
        }
        "tar" => tar_targets(inv),
        "unzip" => {
            let dirs = opt_values(&inv.args, &["-d"]);
            let dirs = if dirs.is_empty() {
                vec![Word::literal(".")]
            } else {
                dirs
            };
            dirs.iter()
                .map(|w| WriteTarget {
                    recursive: true,
                    ..target(w)
                })
                .collect()
        }
        "git" => git_targets(inv),
        _ => Vec::new(),
    }
}

/// `cp`, `mv`, `install`, `ln`: the destination (with the sources, which land inside it
/// when it is a directory), and for `mv` the sources themselves, which are removed.
fn copy_like(
    name: &str,
    opts: &[(String, Option<Word>)],
    positionals: &[Word],
) -> Vec<WriteTarget> {
    let has = |names: &[&str]| opts.iter().any(|(n, _)| names.contains(&n.as_str()));
    let short_flag = |letter: char| {
        opts.iter()
            .any(|(n, _)| n.starts_with('-') && !n.starts_with("--") && n.contains(letter))
    };
    let target_dir = opts
        .iter()
        .find(|(n, _)| n == "-t" || n == "--target-directory")
        .and_then(|(_, v)| v.clone());
    let mut out = Vec::new();
    if name == "install" && (short_flag('d') || has(&["--directory"])) {
        return positionals
            .iter()
            .map(|w| WriteTarget {
                word: w.clone(),
                how: name.into(),
                ..WriteTarget::default()
            })
            .collect();
    }
    let (sources, destination) = match (&target_dir, positionals.split_last()) {
        (Some(dir), _) => (positionals, Some(dir.clone())),
        (None, Some((last, rest))) if !rest.is_empty() => (rest, Some(last.clone())),
        // `ln -s /x/y`: the link `y` in the current directory.
        (None, Some((only, _))) if name == "ln" => {
            let base = only
                .text()
                .and_then(|t| t.trim_end_matches('/').rsplit('/').next())
                .map(Word::literal);
            (&positionals[..0], base)
        }
        _ => (&positionals[..0], None),
    };
    if name == "mv" {
        out.extend(sources.iter().map(|w| WriteTarget {
            word: w.clone(),
            how: "mv (source)".into(),
            no_follow: true,
            recursive: true,
            ..WriteTarget::default()
        }));
    }
    let copies_trees = name == "cp"
        && (short_flag('r')
            || short_flag('R')
            || short_flag('a')
            || has(&["--recursive", "--archive"]));
    let no_target_dir =
        short_flag('T') || has(&["--no-target-directory"]) || (name == "ln" && short_flag('n'));
    if let Some(dest) = destination {
        out.push(WriteTarget {
            word: dest,
            how: name.to_owned(),
            recursive: copies_trees || name == "mv",
            sources: if no_target_dir {
                Vec::new()
            } else {
                sources.to_vec()
            },
            no_follow: name == "ln" && no_target_dir,
            ..WriteTarget::default()
        });
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
        .map(|w| WriteTarget {
            word: w.clone(),
            how: "perl -i".into(),
            ..WriteTarget::default()
        })
        .collect()
}

/// `tar -x [-C dir]` writes under a directory; `tar -c/-r/-u -f file` writes the archive.
fn tar_targets(inv: &Invocation) -> Vec<WriteTarget> {
    let first = inv.args.first().and_then(Word::text).unwrap_or_default();
    let mode = |long: &[&str], letter: char| {
        (!first.starts_with("--") && !first.starts_with('-') && first.contains(letter))
            || inv.args.iter().any(|w| {
                w.text().is_some_and(|t| {
                    long.contains(&t)
                        || (t.starts_with('-') && !t.starts_with("--") && t.contains(letter))
                })
            })
    };
    let target = |w: &Word, recursive| WriteTarget {
        word: w.clone(),
        how: "tar".into(),
        recursive,
        ..WriteTarget::default()
    };
    if mode(&["--extract", "--get"], 'x') {
        let dirs = opt_values(&inv.args, &["-C", "--directory"]);
        let dirs = if dirs.is_empty() {
            vec![Word::literal(".")]
        } else {
            dirs
        };
        return dirs.iter().map(|w| target(w, true)).collect();
    }
    if mode(&["--create", "--append", "--update"], 'c')
        || mode(&["--append"], 'r')
        || mode(&["--update"], 'u')
    {
        // `tar -czf out.tgz`: `f` takes the next word (or, bundled first without a dash,
        // the first word after the bundle).
        let mut files = opt_values(&inv.args, &["-f", "--file"]);
        if files.is_empty() && !first.starts_with('-') && first.contains('f') {
            files.extend(inv.args.get(1).cloned());
        }
        return files
            .iter()
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
    let mut k = 0;
    while let Some(w) = inv.args.get(k) {
        let Some(t) = w.text() else { break };
        if !t.starts_with('-') {
            break;
        }
        match t {
            "-C" => {
                if let Some(d) = inv.args.get(k + 1) {
                    base = Some(join(&base, d));
                }
                k += 2;
            }
            "--work-tree" => {
                if let Some(d) = inv.args.get(k + 1) {
                    base = Some(join(&base, d));
                }
                k += 2;
            }
            _ if t.starts_with("--work-tree=") => {
                base = Some(join(&base, &Word::literal(&t["--work-tree=".len()..])));
                k += 1;
            }
            // git's own table of global options: which take a separate value.
            _ if crate::git::grammar::GLOBAL_VALUE.contains(&t) => k += 2,
            _ => k += 1,
        }
    }
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
    match sub {
        "checkout" => {
            let (opts, positionals) = split_options(
                rest,
                &["-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"],
            );
            if opts
                .iter()
                .any(|(n, _)| matches!(n.as_str(), "-b" | "-B" | "--orphan" | "--detach"))
            {
                return Vec::new();
            }
            match rest.iter().position(|w| w.text() == Some("--")) {
                Some(dd) => paths(&rest[dd + 1..]),
                // Without `--`: `git checkout <branch>` switches; `git checkout <tree-ish>
                // <path>…` and `git checkout <path>` restore files. A lone word is judged
                // as the path it may be (a branch name inside the root is harmless).
                None if positionals.len() >= 2 => paths(&positionals[1..]),
                None => paths(&positionals)
                    .into_iter()
                    .map(|t| WriteTarget {
                        if_exists: true,
                        ..t
                    })
                    .collect(),
            }
        }
        "restore" | "rm" | "mv" => {
            let value_opts: &[&str] = &["-s", "--source", "--pathspec-from-file"];
            let (opts, positionals) = split_options(rest, value_opts);
            // `git rm --cached` and `git restore --staged` alone touch only the index.
            let index_only = opts.iter().any(|(n, _)| n == "--cached")
                || (opts.iter().any(|(n, _)| n == "--staged" || n == "-S")
                    && !opts.iter().any(|(n, _)| n == "--worktree" || n == "-W"));
            if index_only {
                Vec::new()
            } else {
                paths(&positionals)
            }
        }
        _ => Vec::new(),
    }
}

/// Options (name, value) and positionals of a GNU-style argument list.
fn split_options(args: &[Word], value_opts: &[&str]) -> (Vec<(String, Option<Word>)>, Vec<Word>) {
    let mut opts = Vec::new();
    let mut positionals = Vec::new();
    let mut k = 0;
    while let Some(w) = args.get(k) {
        k += 1;
        let Some(t) = w.text() else {
            positionals.push(w.clone());
            continue;
        };
        if t == "--" {
            positionals.extend(args[k..].iter().cloned());
            break;
        }
        if t.len() < 2 || !t.starts_with('-') {
            positionals.push(w.clone());
            continue;
        }
        if let Some((name, value)) = t.split_once('=').filter(|_| t.starts_with("--")) {
            opts.push((name.to_owned(), Some(Word::literal(value))));
        } else if value_opts.contains(&t) {
            opts.push((t.to_owned(), args.get(k).cloned()));
            k += 1;
        } else if let Some(short) = value_opts
            .iter()
            .find(|o| o.len() == 2 && t.starts_with(*o) && !t.starts_with("--"))
        {
            opts.push(((*short).to_owned(), Some(Word::literal(&t[2..]))));
        } else {
            opts.push((t.to_owned(), None));
        }
    }
    (opts, positionals)
}

/// Every value of the given options (`-o FILE`, `-oFILE`, `--output=FILE`).
fn opt_values(args: &[Word], names: &[&str]) -> Vec<Word> {
    let mut out = Vec::new();
    let mut k = 0;
    while let Some(w) = args.get(k) {
        k += 1;
        let Some(t) = w.text() else { continue };
        for n in names {
            // `-sSo FILE`: a bundle of flags whose last one takes the next word.
            let bundled = n.len() == 2
                && !t.starts_with("--")
                && t.len() > 2
                && t.starts_with('-')
                && t.ends_with(&n[1..])
                && t[1..t.len() - 1].bytes().all(|b| b.is_ascii_alphabetic());
            if t == *n || bundled {
                if let Some(v) = args.get(k) {
                    out.push(v.clone());
                }
            } else if let Some(v) = t
                .strip_prefix(n)
                .and_then(|r| {
                    if n.starts_with("--") {
                        r.strip_prefix('=')
                    } else {
                        Some(r)
                    }
                })
                .filter(|v| !v.is_empty())
            {
                out.push(Word::literal(v));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::{exec, parse};

    fn targets(src: &str) -> Vec<(String, String)> {
        let s = parse(src);
        s.simple_commands()
            .iter()
            .flat_map(|c| write_targets(c, &exec::runs(c)))
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
        assert_eq!(targets("mv a b"), t(&[("mv (source)", "a"), ("mv", "b")]));
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
        assert_eq!(targets("ln -s /x/y"), t(&[("ln", "y")]));
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
        assert_eq!(targets("git checkout main"), t(&[("git checkout", "main")]));
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
}
