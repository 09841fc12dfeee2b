//! Writers whose targets need more than a table row: the output of `sort -o` and
//! `uniq IN OUT` (table rows), and by code of their own `chmod`/`chown`/`chgrp` (the mode
//! or owner comes first), `split`/`csplit` (files named from a prefix), `mktemp`,
//! `sqlite3`, `ssh-keygen`, `openssl`, `zip`, `rsync`, `patch`, the `vi` family and `ex`,
//! and the file writes a `python -c`/`node -e`/`perl -e`/`ruby -e` one-liner spells out
//! with literal names.
//!
//! Each function takes the invocation (and, for `patch`, the command, whose stdin may be
//! the patch) and returns what it writes. A name made at run time (`mktemp`'s `XXXXXX`)
//! is judged by its directory, where the file lands.

use super::WriteTarget;
use crate::argv::{self, tables};
use crate::shell::exec::Invocation;
use crate::shell::{RedirectOp, SimpleCommand, Word};
use std::path::Path;

fn target(w: Word, how: &str) -> WriteTarget {
    WriteTarget {
        word: w,
        how: how.to_owned(),
        ..WriteTarget::default()
    }
}

fn dynamic(raw: String) -> Word {
    Word {
        raw,
        value: None,
        quoted: false,
    }
}

/// Joins a directory word and a file name (both may be dynamic).
fn join(dir: &Word, name: &str) -> Word {
    match dir.text() {
        Some(d) => Word::literal(&format!("{}/{name}", d.trim_end_matches('/'))),
        None => dynamic(format!("{}/{name}", dir.raw)),
    }
}

/// Appends a suffix to a word (a prefix and the first name made from it).
fn suffixed(w: &Word, suffix: &str) -> Word {
    match w.text() {
        Some(t) => Word::literal(&format!("{t}{suffix}")),
        None => dynamic(format!("{}{suffix}", w.raw)),
    }
}

/// What the table rows with [`tables::Targets`] other than `Own` write.
pub fn by_table(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let p = argv::parse(&row.grammar, &inv.args);
    let recursive = p.has_any(row.recursive_with);
    let parents = p.has_any(row.parents_with);
    let mut words: Vec<Word> = match row.targets {
        tables::Targets::Positionals => p.positionals.clone(),
        tables::Targets::Nth(n) => p.positionals.get(n).cloned().into_iter().collect(),
        tables::Targets::From(n) => p.positionals.get(n..).unwrap_or_default().to_vec(),
        tables::Targets::Options(names) => {
            names.iter().flat_map(|n| p.args_of(n)).cloned().collect()
        }
        tables::Targets::Own => return Vec::new(),
    };
    // `ls | xargs rm`: what xargs appends lands among the targets.
    let appends_targets = matches!(
        row.targets,
        tables::Targets::Positionals | tables::Targets::From(_)
    );
    if inv.appended_unknown && appends_targets {
        words.push(super::appended(inv));
    }
    words
        .into_iter()
        .map(|w| WriteTarget {
            recursive,
            parents,
            no_follow: row.acts_on_link,
            ..target(w, row.name)
        })
        .collect()
}

/// `chmod MODE FILE…` (a mode may look like an option: `chmod -x f`), `chown OWNER FILE…`,
/// `chgrp GROUP FILE…`; with `--reference=RFILE` every positional is a file.
pub fn ownership(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let name = row.name;
    let p = argv::parse(&row.grammar, &inv.args);
    // An option-like mode (`-x`, `-rw`) was parsed as flags: the positionals are all files.
    let dash_mode = name == "chmod"
        && inv.args.iter().filter_map(Word::text).any(|t| {
            t.len() > 1
                && t.starts_with('-')
                && !t.starts_with("--")
                && t[1..].chars().all(|c| "rwxXst".contains(c))
        });
    let skip = usize::from(!(p.has("reference") || dash_mode));
    let recursive = p.has_any(row.recursive_with);
    let mut files: Vec<Word> = p.positionals.iter().skip(skip).cloned().collect();
    if inv.appended_unknown {
        files.push(super::appended(inv));
    }
    files
        .into_iter()
        .map(|w| WriteTarget {
            recursive,
            ..target(w, name)
        })
        .collect()
}

/// `split [FILE [PREFIX]]` writes PREFIXaa… (`-d`: PREFIX00…); `csplit -f PREFIX`
/// writes PREFIX00…. The first name stands for the rest: they land in the same directory.
pub fn split(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let name = row.name;
    let p = argv::parse(&row.grammar, &inv.args);
    if p.has("filter") {
        // `--filter=CMD` sends each piece to a command instead of a file.
        return Vec::new();
    }
    let extra = p.value("additional-suffix").unwrap_or("");
    let (prefix, first) = if name == "csplit" {
        let prefix = p
            .arg("prefix")
            .cloned()
            .unwrap_or_else(|| Word::literal("xx"));
        (prefix, "00")
    } else {
        let prefix = p
            .positionals
            .get(1)
            .cloned()
            .unwrap_or_else(|| Word::literal("x"));
        let numeric = p.has_any(&["d", "x", "numeric-suffixes", "hex-suffixes"]);
        (prefix, if numeric { "00" } else { "aa" })
    };
    vec![target(suffixed(&prefix, &format!("{first}{extra}")), name)]
}

/// `mktemp [-d] [-p DIR | --tmpdir[=DIR] | -t] [TEMPLATE]`: the file is made in DIR, or
/// `$TMPDIR`, or `/tmp` (with `-t` or no template); `-u` makes nothing.
pub fn mktemp(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let p = argv::parse(&row.grammar, &inv.args);
    if p.has("dry-run") {
        return Vec::new();
    }
    let template = p.positionals.first();
    let tmpdir = || -> Word {
        match inv.env.iter().rev().find(|(n, _)| n == "TMPDIR") {
            Some((_, Some(v))) if !v.is_empty() => Word::literal(v),
            Some((_, None)) => dynamic("$TMPDIR".into()),
            _ => Word::literal("/tmp"),
        }
    };
    // `-p DIR` and `--tmpdir=DIR` name the directory; an empty one, `--tmpdir` alone,
    // `-t` and no template at all mean $TMPDIR or /tmp.
    let given = p.args_of("p").into_iter().chain(p.args_of("tmpdir")).last();
    let dir = match given {
        Some(d) if d.text() != Some("") => Some(d.clone()),
        _ if p.has_any(&["p", "tmpdir", "t"]) || template.is_none() => Some(tmpdir()),
        _ => None,
    };
    let name = template.map_or_else(|| Word::literal("tmp.XXXXXXXXXX"), |t| t.clone());
    let word = match dir {
        // `-p DIR` puts a relative template under DIR; `-t` takes only its last part.
        Some(d) => match name.text() {
            Some(t) if !t.starts_with('/') => join(&d, t.rsplit('/').next().unwrap_or(t)),
            Some(_) => name,
            None => dynamic(format!("{}/{}", d.raw, name.raw)),
        },
        None => name,
    };
    vec![target(word, "mktemp")]
}

/// cargo's new package (`cargo new PATH`, `cargo init PATH`, `.` by default), and its
/// build directory when it is moved: `--target-dir DIR`, `--artifact-dir DIR`,
/// `CARGO_TARGET_DIR`, `cargo install --root DIR`; with `--manifest-path DIR/Cargo.toml`
/// (or `-C DIR`) and no target directory, the package's own `target/` and `Cargo.lock`.
pub fn cargo(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let p = argv::parse(&row.grammar, &inv.args);
    let tree = |w: Word, how: &str| WriteTarget {
        recursive: true,
        ..target(w, how)
    };
    let mut out: Vec<WriteTarget> = ["target-dir", "artifact-dir", "root"]
        .iter()
        .flat_map(|o| p.args_of(o).into_iter().map(move |w| (o, w)))
        .map(|(o, w)| tree(w.clone(), &format!("cargo --{o}")))
        .collect();
    let env_dir = inv.env.iter().rev().find(|(n, _)| n == "CARGO_TARGET_DIR");
    if let Some((_, v)) = env_dir {
        let w = v
            .as_deref()
            .map_or_else(|| dynamic("$CARGO_TARGET_DIR".into()), Word::literal);
        out.push(tree(w, "CARGO_TARGET_DIR"));
    }
    // `cargo new PATH`, `cargo init [PATH]`: the package made there.
    if let Some(sub) = p.positionals.first().and_then(Word::text) {
        if matches!(sub, "new" | "init") {
            let path = p
                .positionals
                .get(1)
                .cloned()
                .unwrap_or_else(|| Word::literal("."));
            // The directory it makes or fills (its new files are cargo's own: a
            // manifest, src/, a .gitignore), not a licence to everything under it.
            out.push(target(path, &format!("cargo {sub}")));
        }
    }
    let target_dir_set = p.has("target-dir") || env_dir.is_some();
    let package_dir = match (p.arg("manifest-path"), p.arg("C")) {
        (Some(m), _) => Some(match m.text() {
            Some(t) => Word::literal(t.rsplit_once('/').map_or(".", |(d, _)| d)),
            None => dynamic(m.raw.clone()),
        }),
        (None, Some(c)) => Some(c.clone()),
        _ => None,
    };
    if let Some(dir) = package_dir.filter(|d| d.text() != Some(".")) {
        out.push(target(
            join(&dir, "Cargo.lock"),
            "cargo (the package's lock file)",
        ));
        if !target_dir_set {
            out.push(tree(join(&dir, "target"), "cargo (the package's target/)"));
        }
    }
    out
}

/// `sqlite3 [OPTIONS] FILE [SQL]`: the database file (made when absent, even for a read).
pub fn sqlite(inv: &Invocation) -> Vec<WriteTarget> {
    // sqlite3 takes `-opt` and `--opt` alike; these take a value.
    const VALUED: &[&str] = &[
        "cmd",
        "init",
        "separator",
        "newline",
        "nullvalue",
        "vfs",
        "lookaside",
        "pagecache",
        "heap",
        "maxsize",
        "mmap",
        "escape",
        "zip",
    ];
    let mut k = 0;
    while let Some(w) = inv.args.get(k) {
        match w.text() {
            Some(t) if t.starts_with('-') => {
                let opt = t.trim_start_matches('-');
                if opt == "readonly" || opt == "version" || opt == "help" {
                    return Vec::new();
                }
                k += if VALUED.contains(&opt) { 2 } else { 1 };
            }
            Some(":memory:") | Some("") => return Vec::new(),
            _ => return vec![target(w.clone(), "sqlite3")],
        }
    }
    Vec::new()
}

/// `ssh-keygen -f FILE` writes FILE and FILE.pub (generating, changing a passphrase or a
/// comment, removing a host); the reading modes (`-l`, `-y`, `-F`, `-B`, `-e`, `-i`, `-Q`)
/// write nothing. Without `-f`, a new key goes to `~/.ssh/`.
pub fn ssh_keygen(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let p = argv::parse(&row.grammar, &inv.args);
    // `~/.ssh/…`, read as the home directory by the judge (an unquoted `~`).
    let home_ssh = |rest: &str| Word {
        raw: format!("~/.ssh/{rest}"),
        value: None,
        quoted: false,
    };
    if p.has("A") {
        // Host keys for every missing type, under `-f PREFIX` or in /etc/ssh.
        let dir = match p.arg("f") {
            Some(prefix) => join(prefix, "etc/ssh"),
            None => Word::literal("/etc/ssh"),
        };
        return vec![WriteTarget {
            recursive: true,
            ..target(dir, "ssh-keygen -A")
        }];
    }
    if p.has("R") {
        // Removes a host from known_hosts (and keeps a `.old` copy).
        let file = p
            .arg("f")
            .cloned()
            .unwrap_or_else(|| home_ssh("known_hosts"));
        return vec![
            target(file.clone(), "ssh-keygen -R"),
            target(suffixed(&file, ".old"), "ssh-keygen -R"),
        ];
    }
    if p.has("s") {
        // Signing writes `KEY-cert.pub` beside each public key named.
        return p
            .positionals
            .iter()
            .map(|k| {
                let cert = match k.text() {
                    Some(t) => {
                        Word::literal(&format!("{}-cert.pub", t.strip_suffix(".pub").unwrap_or(t)))
                    }
                    None => dynamic(format!("{}-cert.pub", k.raw)),
                };
                target(cert, "ssh-keygen -s")
            })
            .collect();
    }
    // The reading modes write nothing.
    if p.has_any(&["l", "y", "F", "B", "e", "i", "Q", "D", "Y", "H", "T"]) {
        return Vec::new();
    }
    match p.arg("f") {
        Some(f) => vec![
            target(f.clone(), "ssh-keygen -f"),
            target(suffixed(f, ".pub"), "ssh-keygen -f"),
        ],
        None => vec![WriteTarget {
            recursive: true,
            ..target(home_ssh(""), "ssh-keygen")
        }],
    }
}

/// `openssl <command> … -out FILE -keyout FILE`: single-dash long options.
pub fn openssl(inv: &Invocation) -> Vec<WriteTarget> {
    let mut out = Vec::new();
    let mut k = 0;
    while let Some(w) = inv.args.get(k) {
        k += 1;
        let Some(t) = w.text() else { continue };
        let opt = t.trim_start_matches('-');
        if t.starts_with('-') && matches!(opt, "out" | "keyout" | "certout" | "CAserial") {
            if let Some(v) = inv.args.get(k) {
                out.push(target(v.clone(), &format!("openssl {t}")));
                k += 1;
            }
        }
    }
    out
}

/// `zip [OPTIONS] ARCHIVE FILES…`: the archive (`.zip` added to a name without one), or
/// `--out`'s file; `-m` removes the files it stores.
pub fn zip(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let p = argv::parse(&row.grammar, &inv.args);
    let mut out = Vec::new();
    let archive = p.positionals.first().map(|a| match a.text() {
        Some(t) if !t.rsplit('/').next().unwrap_or(t).contains('.') => {
            Word::literal(&format!("{t}.zip"))
        }
        _ => a.clone(),
    });
    match p.arg("output-file") {
        Some(o) => out.push(target(o.clone(), "zip --out")),
        None => out.extend(archive.map(|a| target(a, "zip"))),
    }
    if p.has("move") {
        out.extend(p.positionals.iter().skip(1).map(|w| WriteTarget {
            no_follow: true,
            recursive: true,
            ..target(w.clone(), "zip -m (source)")
        }));
    }
    out
}

/// `rsync [OPTIONS] SRC… DEST`: DEST like a recursive copy's destination (a remote
/// `host:path` is not a local file); `--remove-source-files` deletes the sources;
/// `--backup-dir`, `--log-file`, `--write-batch`, `--partial-dir` and `--temp-dir` write
/// where they say.
pub fn rsync(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let p = argv::parse(&row.grammar, &inv.args);
    if p.has_any(&["dry-run", "list-only"]) {
        return Vec::new();
    }
    let remote = |w: &Word| {
        w.text().is_some_and(|t| {
            t.contains("::")
                || t.starts_with("rsync://")
                || t.split_once(':')
                    .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
        })
    };
    let mut out = Vec::new();
    for opt in [
        "backup-dir",
        "log-file",
        "write-batch",
        "only-write-batch",
        "partial-dir",
        "temp-dir",
    ] {
        out.extend(p.args_of(opt).into_iter().map(|w| WriteTarget {
            recursive: opt != "log-file" && !opt.ends_with("batch"),
            ..target(w.clone(), &format!("rsync --{opt}"))
        }));
    }
    if p.positionals.len() < 2 {
        return out;
    }
    let (dest, sources) = p.positionals.split_last().expect("two or more");
    if p.has("remove-source-files") {
        out.extend(sources.iter().filter(|s| !remote(s)).map(|w| WriteTarget {
            no_follow: true,
            recursive: true,
            ..target(w.clone(), "rsync --remove-source-files")
        }));
    }
    if !remote(dest) {
        // `rsync -a src/ dest`: the contents of src land in dest; `src` (no slash): dest/src.
        let sources = sources
            .iter()
            .filter(|s| !s.text().is_some_and(|t| t.ends_with('/')))
            .cloned()
            .collect();
        out.push(WriteTarget {
            recursive: true,
            sources,
            ..target(dest.clone(), "rsync")
        });
    }
    out
}

/// `patch [-o OUT] [-d DIR] [-pN] [ORIGFILE [PATCHFILE]]`: `-o` names the one file it
/// writes; otherwise ORIGFILE, or the files the patch names (read from `-i FILE`, the
/// `< FILE` redirection or a heredoc; GNU patch refuses names with `..` or a leading
/// `/`), under DIR. A patch that cannot be read names files under DIR, judged as the
/// whole directory.
pub fn patch(
    inv: &Invocation,
    row: &tables::Writer,
    cmd: &SimpleCommand,
    cwd: Option<&Path>,
) -> Vec<WriteTarget> {
    let p = argv::parse(&row.grammar, &inv.args);
    if p.has_any(&["dry-run", "help", "version"]) {
        return Vec::new();
    }
    let mut out: Vec<WriteTarget> = p
        .args_of("reject-file")
        .into_iter()
        .filter(|w| w.text() != Some("-"))
        .map(|w| target(w.clone(), "patch -r"))
        .collect();
    if let Some(o) = p.arg("output") {
        out.push(target(o.clone(), "patch -o"));
        return out;
    }
    let dir = p.arg("directory").cloned();
    let under = |w: Word| WriteTarget {
        base: dir.clone(),
        ..target(w, "patch")
    };
    if let Some(orig) = p.positionals.first() {
        out.push(under(orig.clone()));
        return out;
    }
    let strip: Option<usize> = p.value("strip").and_then(|s| s.parse().ok());
    // `-i FILE` is read after `-d DIR`'s change of directory; `< FILE` by the shell.
    let read = |file: &str, base: Option<&str>| -> Option<String> {
        let mut path = cwd?.to_path_buf();
        if let Some(b) = base {
            path.push(b);
        }
        path.push(file);
        read_small(&path)
    };
    let text: Option<String> = match p.arg("input") {
        Some(f) => f.text().and_then(|f| match &dir {
            Some(d) => d.text().and_then(|d| read(f, Some(d))),
            None => read(f, None),
        }),
        None => cmd.redirects.iter().rev().find_map(|r| match r.op {
            RedirectOp::Heredoc => r.heredoc.as_ref().map(|h| h.body.clone()),
            RedirectOp::HereString => r.target.text().map(str::to_owned),
            RedirectOp::Read => r.target.text().and_then(|f| read(f, None)),
            _ => None,
        }),
    };
    match text {
        Some(text) => out.extend(
            patched_files(&text, strip)
                .into_iter()
                .map(|f| under(Word::literal(&f))),
        ),
        // A patch that cannot be read may name any file under the directory.
        None => out.push(WriteTarget {
            recursive: true,
            ..under(Word::literal("."))
        }),
    }
    out
}

/// A patch file's text, when it is small enough to read in a hook (1 MiB).
fn read_small(path: &std::path::Path) -> Option<String> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).ok()?;
    let mut buf = String::new();
    f.by_ref().take(1 << 20).read_to_string(&mut buf).ok()?;
    Some(buf)
}

/// The files a unified or context diff names (`+++ `/`--- ` lines, and git's
/// `diff --git a/x b/y`), with `-pN` applied; without `-p`, both the base name (POSIX)
/// and the whole name (what GNU patch tries first) are given. Names GNU patch refuses
/// (absolute, or with `..`) are left out.
pub fn patched_files(text: &str, strip: Option<usize>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for line in text.lines() {
        let name = if let Some(rest) = line.strip_prefix("+++ ").or(line.strip_prefix("--- ")) {
            rest.split('\t').next().unwrap_or(rest).trim().to_owned()
        } else if let Some(rest) = line.strip_prefix("*** ") {
            rest.split('\t').next().unwrap_or(rest).trim().to_owned()
        } else {
            continue;
        };
        if name == "/dev/null" || name.is_empty() || name.ends_with(" ****") {
            continue;
        }
        let candidates: Vec<String> = match strip {
            Some(n) => vec![name.splitn(n + 1, '/').nth(n).unwrap_or("").to_owned()],
            None => vec![
                name.clone(),
                name.rsplit('/').next().unwrap_or(&name).to_owned(),
            ],
        };
        for c in candidates {
            let dangerous = c.starts_with('/') || c.split('/').any(|part| part == "..");
            if !c.is_empty() && !dangerous && !names.contains(&c) {
                names.push(c);
            }
        }
    }
    names
}

/// `vim`, `vi`, `nvim`, `ex`, `view` given commands (`-c CMD`, `--cmd CMD`, `+CMD`):
/// `:w FILE`/`:saveas FILE`/`:write >> FILE` write FILE; a bare `:w`, `:wq`, `:x`, `:wa`
/// writes the files being edited. Without commands an editor run by an agent has no
/// terminal to be told to quit, so the files it edits are taken as written. `-w`/`-W`
/// record the keys typed into a file.
pub fn editor(inv: &Invocation, row: &tables::Writer) -> Vec<WriteTarget> {
    let name = row.name;
    let ex_mode = name == "ex"
        || inv.args.iter().filter_map(Word::text).any(|t| {
            t.len() > 1 && t.starts_with('-') && !t.starts_with("--") && t[1..].contains(['e', 'E'])
        });
    let grammar = if ex_mode {
        &tables::EDITOR_EX
    } else {
        &row.grammar
    };
    let p = argv::parse(grammar, &inv.args);
    let is_command = |w: &Word| w.text().is_some_and(|t| t.starts_with('+'));
    let files: Vec<&Word> = p.positionals.iter().filter(|w| !is_command(w)).collect();
    let mut commands: Vec<&Word> = p.args_of("c");
    commands.extend(p.args_of("cmd"));
    commands.extend(p.positionals.iter().filter(|w| is_command(w)));
    let mut out: Vec<WriteTarget> = ["w", "W"]
        .iter()
        .flat_map(|o| p.args_of(o))
        .map(|w| target(w.clone(), &format!("{name} -w")))
        .collect();
    let mut writes_edited = commands.is_empty() && !p.has("R") && name != "view";
    for c in commands {
        let Some(text) = c.text() else {
            out.push(target(dynamic(c.raw.clone()), &format!("{name} -c")));
            continue;
        };
        // `+N` is a line number, `+/pat` a search.
        let text = text.strip_prefix('+').unwrap_or(text);
        for part in text.split('|') {
            let part = part.trim().trim_start_matches(':').trim_start();
            // A range before the command (`%w`, `1,5w`).
            let part = part.trim_start_matches(|c: char| {
                c.is_ascii_digit() || matches!(c, '%' | ',' | '.' | '$' | '\'' | '<' | '>')
            });
            let (cmd, arg) = match part.find(|c: char| c.is_whitespace() || c == '>') {
                Some(k) => (&part[..k], part[k..].trim()),
                None => (part, ""),
            };
            let cmd = cmd.trim_end_matches('!');
            let writes = matches!(
                cmd,
                "w" | "write"
                    | "wq"
                    | "x"
                    | "xit"
                    | "exit"
                    | "sav"
                    | "saveas"
                    | "up"
                    | "update"
                    | "wa"
                    | "wall"
                    | "wqa"
                    | "wqall"
                    | "xa"
                    | "xall"
            );
            if !writes {
                continue;
            }
            // `:w !cmd` pipes the buffer into a command; `:w >> FILE` appends.
            let file = arg.trim_start_matches('>').trim();
            if arg.starts_with('!') || file.is_empty() {
                if !arg.starts_with('!') {
                    writes_edited = true;
                }
                continue;
            }
            out.push(target(Word::literal(file), &format!("{name} :{cmd}")));
        }
    }
    if writes_edited {
        out.extend(files.into_iter().map(|w| target(w.clone(), name)));
    }
    out
}

/// The language of an interpreter whose inline code is read for the files it writes.
pub fn language(program: &str) -> Option<Language> {
    let base = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match base {
        "python" | "pypy" => Some(Language::Python),
        "node" | "nodejs" | "bun" | "deno" => Some(Language::Node),
        "perl" => Some(Language::Perl),
        "ruby" => Some(Language::Ruby),
        _ => None,
    }
}

/// The code an interpreter runs from its own arguments (`-c`, `-e`, bundles ending in the
/// code option) or from stdin (a heredoc or here-string, when no script file is named):
/// each piece, or None for a piece only known when it runs.
pub fn inline_code(inv: &Invocation, cmd: &SimpleCommand) -> Vec<Option<String>> {
    let Some(language) = language(inv.name()) else {
        return Vec::new();
    };
    let name = inv.name();
    let (short, long): (&[char], &[&str]) = match language {
        Language::Python => (&['c'], &[]),
        Language::Node if name.starts_with("deno") => (&[], &["eval"]),
        Language::Node => (&['e', 'p'], &["--eval", "--print"]),
        Language::Perl => (&['e', 'E'], &[]),
        Language::Ruby => (&['e'], &[]),
    };
    let mut code = Vec::new();
    let mut script = false;
    let mut k = 0;
    while let Some(w) = inv.args.get(k) {
        k += 1;
        let Some(t) = w.text() else {
            script = true;
            break;
        };
        if long.contains(&t) {
            code.push(inv.args.get(k).and_then(|c| c.text().map(str::to_owned)));
            k += 1;
        } else if t == "--" || t == "-" {
            break;
        } else if let Some(letters) = t.strip_prefix('-').filter(|l| !l.starts_with('-')) {
            // `-c CODE`, `-cCODE`, `-pe CODE`, `-ne'CODE'`: the code option takes the rest
            // of the bundle, or the next word.
            if let Some(at) = letters.find(|c| short.contains(&c)) {
                let rest = &letters[at + 1..];
                if rest.is_empty() {
                    code.push(inv.args.get(k).and_then(|c| c.text().map(str::to_owned)));
                    k += 1;
                } else {
                    code.push(Some(rest.to_owned()));
                }
                if language == Language::Python {
                    // Everything after `-c CODE` is the code's own argv.
                    break;
                }
            }
        } else if !t.starts_with('-') {
            // A script file (or `deno run FILE`): what follows is its argv.
            script = !(name.starts_with("deno") && t == "eval");
            if !script {
                code.push(inv.args.get(k).and_then(|c| c.text().map(str::to_owned)));
            }
            break;
        }
    }
    if code.is_empty() && !script {
        for r in &cmd.redirects {
            match r.op {
                RedirectOp::Heredoc => {
                    code.push(r.heredoc.as_ref().and_then(|h| {
                        // An unquoted delimiter expands the body: known only when it runs
                        // where it holds an expansion.
                        (!h.expands || !h.body.contains(['$', '`'])).then(|| h.body.clone())
                    }))
                }
                RedirectOp::HereString => code.push(r.target.text().map(str::to_owned)),
                _ => {}
            }
        }
        match &cmd.piped_text {
            Some(crate::shell::PipedText::Known(t)) => code.push(Some(t.clone())),
            Some(crate::shell::PipedText::Unknown) => code.push(None),
            None => {}
        }
    }
    code
}

/// The files an interpreter's inline code writes by literal name, as targets.
pub fn interpreter_writes(inv: &Invocation, cmd: &SimpleCommand) -> Vec<WriteTarget> {
    let Some(language) = language(inv.name()) else {
        return Vec::new();
    };
    let how = format!("{} inline code", inv.name());
    inline_code(inv, cmd)
        .into_iter()
        .flatten()
        .flat_map(|code| inline_code_writes(language, &code))
        .map(|f| target(Word::literal(&f), &how))
        .collect()
}

/// Why the program's own writes are out of static reach, when they are: an interpreter
/// running code given inline or on stdin (what the code writes beyond the literal names
/// [`inline_code_writes`] finds is not seen). A perl or ruby filter whose code is only
/// substitutions (`perl -pi -e 's/a/b/g' f`) is read fully: its files are its targets.
pub fn unmodelled(inv: &Invocation, cmd: &SimpleCommand) -> Option<String> {
    let language = language(inv.name())?;
    let code = inline_code(inv, cmd);
    if code.is_empty() {
        return None;
    }
    let filter_only = matches!(language, Language::Perl | Language::Ruby)
        && code
            .iter()
            .all(|c| c.as_deref().is_some_and(substitutions_only));
    if filter_only {
        return None;
    }
    Some(if code.iter().any(Option::is_none) {
        "runs code only known when it runs".to_owned()
    } else {
        "runs inline code".to_owned()
    })
}

/// Whether perl/ruby code is nothing but `s///`, `tr///` or `y///` expressions (without
/// the `e` flag, which evaluates code), separated by `;`.
fn substitutions_only(code: &str) -> bool {
    const CALLS: &[&str] = &[
        "system", "exec", "qx", "`", "open", "unlink", "rename", "mkdir", "rmdir", "print", "File",
        "IO", "require", "use ", "eval", "do ", "syscall", "chmod", "link",
    ];
    let trimmed = code.trim();
    let starts = ["s", "tr", "y"].iter().any(|op| {
        trimmed
            .strip_prefix(op)
            .and_then(|r| r.chars().next())
            .is_some_and(|d| !d.is_alphanumeric() && !d.is_whitespace() && d != '_')
    });
    if !starts || CALLS.iter().any(|c| trimmed.contains(c)) {
        return false;
    }
    // The flags after the last delimiter must not hold `e`.
    trimmed.split(';').all(|expr| {
        let e = expr.trim();
        if e.is_empty() {
            return true;
        }
        let Some(delim) = e
            .strip_prefix("tr")
            .or_else(|| e.strip_prefix('s'))
            .or_else(|| e.strip_prefix('y'))
            .and_then(|r| r.chars().next())
        else {
            return false;
        };
        let flags = e.rsplit(delim).next().unwrap_or("");
        flags.chars().all(|c| c.is_ascii_alphabetic()) && !flags.contains('e')
    })
}

/// The files an interpreter's inline code visibly writes by literal name:
/// `open("f", "w")` and `Path("f").write_text` (Python), `fs.writeFileSync("f")` and its
/// kin (Node), `open(FH, ">f")`/`open(my $fh, '>', "f")` (Perl), `File.write("f")`
/// (Ruby). What else the code does is not seen: see `scope.unmodelled_programs`.
pub fn inline_code_writes(language: Language, code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let calls: &[&str] = match language {
        Language::Python => &[
            "open(",
            "Path(",
            "os.remove(",
            "os.unlink(",
            "os.rmdir(",
            "os.makedirs(",
            "os.mkdir(",
            "shutil.rmtree(",
            "os.rename(",
            "os.replace(",
            "shutil.copy(",
            "shutil.copyfile(",
            "shutil.copy2(",
            "shutil.move(",
        ],
        Language::Node => &[
            "writeFileSync(",
            "appendFileSync(",
            "writeFile(",
            "appendFile(",
            "mkdirSync(",
            "rmSync(",
            "unlinkSync(",
            "rmdirSync(",
            "copyFileSync(",
            "renameSync(",
            "cpSync(",
            "createWriteStream(",
        ],
        Language::Perl => &["open("],
        Language::Ruby => &[
            "File.write(",
            "File.open(",
            "FileUtils.rm",
            "FileUtils.mkdir",
            "FileUtils.touch(",
            "FileUtils.cp(",
            "FileUtils.mv(",
            "File.delete(",
        ],
    };
    for call in calls {
        for (at, _) in code.match_indices(call) {
            let args = &code[at + call.len()..];
            let literals = string_literals(args);
            let Some(first) = literals.first() else {
                continue;
            };
            match (language, *call) {
                (Language::Python, "open(") => {
                    // The mode is the second literal; only w, a, x and + write.
                    if literals
                        .get(1)
                        .is_some_and(|m| m.contains(['w', 'a', 'x', '+']))
                    {
                        out.push(first.clone());
                    }
                }
                (Language::Python, "Path(") => {
                    let after = args.split_once(')').map_or("", |(_, a)| a);
                    if [
                        ".write_text",
                        ".write_bytes",
                        ".touch",
                        ".mkdir",
                        ".unlink",
                        ".rmdir",
                    ]
                    .iter()
                    .any(|m| after.starts_with(m))
                    {
                        out.push(first.clone());
                    }
                }
                // Copies and moves write their second argument (a move also removes
                // its first).
                (Language::Python, c) if c.contains("copy") => {
                    out.extend(literals.get(1).cloned());
                }
                (Language::Python, c)
                    if c.contains("move") || c.contains("rename") || c.contains("replace") =>
                {
                    out.extend(literals.iter().take(2).cloned());
                }
                (Language::Node, "copyFileSync(" | "cpSync(") => {
                    out.extend(literals.get(1).cloned());
                }
                (Language::Node, "renameSync(") => out.extend(literals.iter().take(2).cloned()),
                (Language::Perl, _) => {
                    // `open(F, ">f")`, `open(my $fh, '>>', 'f')`.
                    let mode = literals
                        .iter()
                        .position(|l| l.starts_with('>') || l.starts_with("+<"));
                    if let Some(m) = mode {
                        let l = &literals[m];
                        let inline = l.trim_start_matches(['>', '+', '<']).trim();
                        if !inline.is_empty() {
                            out.push(inline.to_owned());
                        } else if let Some(f) = literals.get(m + 1) {
                            out.push(f.clone());
                        }
                    }
                }
                (Language::Ruby, "File.open(") => {
                    if literals.get(1).is_some_and(|m| m.contains(['w', 'a', '+'])) {
                        out.push(first.clone());
                    }
                }
                (Language::Ruby, c) if c.contains("cp(") || c.contains("mv(") => {
                    out.extend(literals.iter().take(2).cloned());
                }
                _ => out.push(first.clone()),
            }
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Python,
    Node,
    Perl,
    Ruby,
}

/// The string literals among a call's arguments, up to its closing parenthesis (quotes
/// `'…'`, `"…"`, and backquotes without `${`).
fn string_literals(args: &str) -> Vec<String> {
    let b = args.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            q @ (b'\'' | b'"' | b'`') => {
                let mut j = i + 1;
                let mut s = Vec::new();
                while j < b.len() && b[j] != q {
                    if b[j] == b'\\' && j + 1 < b.len() {
                        j += 1;
                    }
                    s.push(b[j]);
                    j += 1;
                }
                let text = String::from_utf8_lossy(&s).into_owned();
                if !(q == b'`' && text.contains("${")) && depth == 0 {
                    out.push(text);
                }
                i = j + 1;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patch_names() {
        let text = "--- a/src/x.rs\n+++ b/src/x.rs\n@@\n--- /dev/null\n+++ b/../out/y\n";
        assert_eq!(patched_files(text, Some(1)), vec!["src/x.rs".to_owned()]);
        assert_eq!(
            patched_files(text, None),
            vec!["a/src/x.rs", "x.rs", "b/src/x.rs", "y"]
        );
    }

    #[test]
    fn inline_code() {
        let py = |c| inline_code_writes(Language::Python, c);
        assert_eq!(py(r#"open("../x", "w").write("y")"#), vec!["../x"]);
        assert_eq!(py(r#"open('f').read()"#), Vec::<String>::new());
        assert_eq!(py(r#"open("f", mode="a")"#), vec!["f"]);
        assert_eq!(py(r#"Path("a/b").write_text("x")"#), vec!["a/b"]);
        assert_eq!(py(r#"Path("a/b").read_text()"#), Vec::<String>::new());
        assert_eq!(
            py(r#"import shutil; shutil.copy("a", "/tmp/b")"#),
            vec!["/tmp/b"]
        );
        let node = |c| inline_code_writes(Language::Node, c);
        assert_eq!(
            node(r#"require("fs").writeFileSync("../o.txt", "x")"#),
            vec!["../o.txt"]
        );
        assert_eq!(node(r#"fs.readFileSync("a")"#), Vec::<String>::new());
        let perl = |c| inline_code_writes(Language::Perl, c);
        assert_eq!(perl(r#"open(F, ">out.txt"); print F 1"#), vec!["out.txt"]);
        assert_eq!(perl(r#"open(my $fh, '>>', "log")"#), vec!["log"]);
        assert_eq!(perl(r#"open(F, "<in")"#), Vec::<String>::new());
        let ruby = |c| inline_code_writes(Language::Ruby, c);
        assert_eq!(ruby(r#"File.write("x", "y")"#), vec!["x"]);
    }
}
