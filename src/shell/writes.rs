//! The files a simple command visibly writes: redirections, and the arguments of the
//! common file writers (`tee`, `cp`, `mv`, `install`, `dd of=`, `sed -i`, `perl -i`,
//! `truncate`, `touch`, `mkdir`, `ln`, `rm`, `curl -o`, `wget -O`, `tar -C`, `unzip -d`,
//! `git checkout -- <path>`, `git restore`, `git rm`, `git mv`). Which arguments are
//! targets is a table per program; a target that is not literal text is reported as such.

use super::exec::{Invocation, Runs};
use super::{RedirectOp, SimpleCommand, Word};

/// One path a command writes (or deletes, or creates).
#[derive(Clone, Debug, PartialEq)]
pub struct WriteTarget {
    pub word: Word,
    /// How it is written, for messages (`redirection >`, `tee`, `cp`).
    pub how: String,
}

/// Targets that are not files.
const NOT_FILES: &[&str] = &[
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/zero",
];

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
    ("rm", &[]),
    ("rmdir", &[]),
    ("unlink", &[]),
    (
        "shred",
        &["-n", "--iterations", "-s", "--size", "--random-source"],
    ),
    (
        "sed",
        &["-e", "--expression", "-f", "--file", "-l", "--line-length"],
    ),
    ("perl", &["-e", "-E", "-I", "-M", "-m"]),
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
            // `>&2` duplicates a descriptor; `>&file` writes a file.
            RedirectOp::DupOut
                if r.target
                    .text()
                    .is_some_and(|t| t.parse::<u32>().is_err() && t != "-") =>
            {
                ">&"
            }
            _ => continue,
        };
        if r.target
            .text()
            .is_some_and(|t| NOT_FILES.contains(&t) || t.starts_with("/dev/fd/"))
        {
            continue;
        }
        out.push(WriteTarget {
            word: r.target.clone(),
            how: format!("redirection {op}"),
        });
    }
    if let Runs::Program(inv) = runs {
        out.extend(program_targets(inv));
    }
    out
}

fn program_targets(inv: &Invocation) -> Vec<WriteTarget> {
    let name = inv.name();
    let target = |w: &Word| WriteTarget {
        word: w.clone(),
        how: name.to_owned(),
    };
    let value_opts = VALUE_OPTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .unwrap_or_default();
    let (opts, positionals) = split_options(&inv.args, value_opts);
    let opt = |names: &[&str]| {
        opts.iter()
            .find(|(n, _)| names.contains(&n.as_str()))
            .map(|(_, v)| v.clone())
    };
    let has = |names: &[&str]| opts.iter().any(|(n, _)| names.contains(&n.as_str()));
    match name {
        "tee" | "truncate" | "touch" | "mkdir" | "rm" | "rmdir" | "unlink" | "shred" => {
            positionals.iter().map(&target).collect()
        }
        "cp" | "mv" | "install" | "ln" => {
            let mut out = Vec::new();
            if name == "mv" {
                // Moving a file away writes (removes) it at the source.
                let sources = if opt(&["-t", "--target-directory"]).is_some() {
                    &positionals[..]
                } else {
                    &positionals[..positionals.len().saturating_sub(1)]
                };
                out.extend(sources.iter().map(|w| WriteTarget {
                    word: w.clone(),
                    how: "mv (source)".into(),
                }));
            }
            if name == "install" && has(&["-d", "--directory"]) {
                out.extend(positionals.iter().map(&target));
            } else if let Some(Some(dir)) = opt(&["-t", "--target-directory"]) {
                out.push(target(&dir));
            } else if name == "ln" && positionals.len() == 1 {
                // `ln -s /x/y` creates `y` in the current directory.
                if let Some(base) = positionals[0]
                    .text()
                    .and_then(|t| t.trim_end_matches('/').rsplit('/').next())
                {
                    out.push(target(&Word::literal(base)));
                }
            } else if let Some(last) = positionals.last().filter(|_| positionals.len() >= 2) {
                out.push(target(last));
            }
            out
        }
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
        "perl" => {
            let in_place = inv.args.iter().any(|w| {
                w.text().is_some_and(|t| {
                    t.starts_with('-')
                        && !t.starts_with("--")
                        && t[1..]
                            .split(['e', 'E'])
                            .next()
                            .is_some_and(|f| f.contains('i'))
                })
            });
            let code_given = has(&["-e", "-E"])
                || inv.args.iter().any(|w| {
                    w.text().is_some_and(|t| {
                        t.starts_with('-')
                            && !t.starts_with("--")
                            && (t.ends_with('e') || t.ends_with('E'))
                    })
                });
            if !in_place {
                return Vec::new();
            }
            let files = if code_given {
                &positionals[..]
            } else {
                positionals.get(1..).unwrap_or_default()
            };
            files.iter().map(&target).collect()
        }
        "curl" => opt_values(&inv.args, &["-o", "--output"])
            .into_iter()
            .map(|w| target(&w))
            .collect(),
        "wget" => opt_values(&inv.args, &["-O", "--output-document"])
            .into_iter()
            .map(|w| target(&w))
            .collect(),
        "tar" => {
            let extracting = inv
                .args
                .first()
                .and_then(Word::text)
                .is_some_and(|t| !t.starts_with("--") && t.contains('x'))
                || inv.args.iter().any(|w| {
                    w.text().is_some_and(|t| {
                        t == "--extract"
                            || t == "--get"
                            || (t.starts_with('-') && !t.starts_with("--") && t.contains('x'))
                    })
                });
            if !extracting {
                return Vec::new();
            }
            let dirs = opt_values(&inv.args, &["-C", "--directory"]);
            if dirs.is_empty() {
                vec![target(&Word::literal("."))]
            } else {
                dirs.into_iter().map(|w| target(&w)).collect()
            }
        }
        "unzip" => {
            let dirs = opt_values(&inv.args, &["-d"]);
            if dirs.is_empty() {
                vec![target(&Word::literal("."))]
            } else {
                dirs.into_iter().map(|w| target(&w)).collect()
            }
        }
        "git" => git_targets(inv),
        _ => Vec::new(),
    }
}

/// `git checkout [<tree-ish>] -- <paths>`, `git restore <paths>`, `git rm`, `git mv`.
fn git_targets(inv: &Invocation) -> Vec<WriteTarget> {
    // Skip git's global options to the subcommand.
    let mut k = 0;
    while let Some(t) = inv.args.get(k).and_then(Word::text) {
        if !t.starts_with('-') {
            break;
        }
        k += if matches!(t, "-C" | "-c") { 2 } else { 1 };
    }
    let Some(sub) = inv.args.get(k).and_then(Word::text) else {
        return Vec::new();
    };
    let rest = &inv.args[k + 1..];
    let how = format!("git {sub}");
    let paths = |words: &[Word]| -> Vec<WriteTarget> {
        words
            .iter()
            .map(|w| WriteTarget {
                word: w.clone(),
                how: how.clone(),
            })
            .collect()
    };
    match sub {
        "checkout" => match rest.iter().position(|w| w.text() == Some("--")) {
            Some(dd) => paths(&rest[dd + 1..]),
            None => Vec::new(),
        },
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
        assert_eq!(targets("perl -pi -e 's/a/b/' f"), t(&[("perl", "f")]));
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
        assert_eq!(targets("tar -czf a.tgz src"), t(&[]));
        assert_eq!(
            targets("git checkout HEAD -- a b"),
            t(&[("git checkout", "a"), ("git checkout", "b")])
        );
        assert_eq!(targets("git checkout main"), t(&[]));
        assert_eq!(targets("git restore --staged a"), t(&[]));
        assert_eq!(targets("git restore -s HEAD a"), t(&[("git restore", "a")]));
        assert_eq!(targets("sudo tee /etc/x"), t(&[("tee", "/etc/x")]));
        assert_eq!(
            targets("cat f > \"$OUT\""),
            t(&[("redirection >", "<\"$OUT\">")])
        );
    }
}
