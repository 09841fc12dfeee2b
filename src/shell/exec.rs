//! What one simple command runs, through its wrappers.
//!
//! `sudo -u x env A=1 timeout 5 nice -n 5 git push` runs `git push` with `A=1`; `bash -lc
//! 'git push'` and `eval 'git push'` run a script; `echo … | sh` and `sh <<EOF` run the
//! text they are fed; `$G push` runs something that cannot be known. The wrappers and
//! their options are tables, so adding one is a line.

use super::{PipedText, RedirectOp, SimpleCommand, Word};
use crate::argv::{self, tables};

/// What a simple command runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Runs {
    /// Nothing that executes a program (assignments only, `command -v`, an interactive
    /// shell with no input).
    Nothing,
    /// A program with its arguments, after unwrapping.
    Program(Invocation),
    /// A shell script given as text (`bash -c`, `eval`, a heredoc or a pipe into a shell).
    Script { text: String, via: String },
    /// Something runs that cannot be known statically; the reason says what.
    Unknown(String),
    /// Commands another program runs (`find -exec`), each to analyze as written.
    Commands(Vec<SimpleCommand>),
}

/// A program invocation after wrappers are peeled off.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Invocation {
    /// The command name as written (`/usr/bin/git`, `git`).
    pub program: String,
    pub args: Vec<Word>,
    /// Environment assignments in force, in order; the value is None when dynamic.
    pub env: Vec<(String, Option<String>)>,
    /// `env -i`: the inherited environment is gone.
    pub clear_env: bool,
    /// A directory the wrapper changes to first (`env -C`, `sudo -D`); None inside when
    /// dynamic.
    pub chdir: Option<Option<String>>,
    /// `xargs` and `parallel` append arguments that only exist at run time.
    pub appended_unknown: bool,
    /// Which wrapper appends them (for messages).
    pub appender: Option<String>,
    /// The text `xargs -I` or `parallel` replaces with its input at run time: a word
    /// holding it is only known when it runs.
    pub placeholder: Option<String>,
    /// The wrappers peeled off, outermost first (for `explain`).
    pub wrappers: Vec<String>,
    /// Why the program's effect cannot be read (an interpreter whose inline code calls
    /// git); its file arguments are still known.
    pub opaque: Option<String>,
    /// A command line the program runs from its own arguments (a make recipe given with
    /// `--eval`, awk's `system()`, sed's `e`, tar's `--checkpoint-action=exec=`), and how:
    /// walked as a script, while the program's own file arguments stay known.
    pub embedded: Option<(String, String)>,
}

impl Invocation {
    /// The program's base name, without directories or a Windows `.exe`.
    pub fn name(&self) -> &str {
        let base = self
            .program
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(&self.program);
        base.strip_suffix(".exe").unwrap_or(base)
    }
}

/// Shells whose `-c` argument (or stdin) is a script.
const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "ash",
    "yash",
    "posh",
    "fish",
    "pwsh",
    "powershell",
];
/// Shell options that take the next word as their value.
const SHELL_VALUE_OPTS: &[&str] = &["-o", "+o", "-O", "+O", "--rcfile", "--init-file"];

/// Interpreters and the options that take inline code.
const INTERPRETERS: &[(&str, &[&str])] = &[
    ("python", &["-c"]),
    ("python2", &["-c"]),
    ("python3", &["-c"]),
    ("pypy", &["-c"]),
    ("pypy3", &["-c"]),
    ("perl", &["-e", "-E"]),
    ("ruby", &["-e"]),
    ("node", &["-e", "--eval", "-p", "--print"]),
    ("nodejs", &["-e", "--eval", "-p", "--print"]),
    ("bun", &["-e", "--eval"]),
    ("deno", &["eval"]),
    ("php", &["-r"]),
    ("lua", &["-e"]),
    ("Rscript", &["-e"]),
    ("osascript", &["-e"]),
];

/// What `cmd` runs. Wrappers nest (`sudo env timeout 5 git`), up to a fixed depth.
pub fn runs(cmd: &SimpleCommand) -> Runs {
    let mut inv = Invocation {
        env: cmd
            .assignments
            .iter()
            .map(|a| (a.name.clone(), a.value.value.clone()))
            .collect(),
        ..Invocation::default()
    };
    // Owned: a wrapper may make new words (`env -S` splits its string into them).
    let mut words: Vec<Word> = cmd.words.clone();
    for _ in 0..16 {
        let Some((first, rest)) = words.split_first() else {
            return Runs::Nothing;
        };
        let Some(program) = first.text() else {
            return Runs::Unknown(format!(
                "the command name `{}` is only known when it runs",
                first.raw
            ));
        };
        inv.program = program.to_owned();
        let name = inv.name().to_owned();
        match name.as_str() {
            "env" => match env_command(rest, &mut inv) {
                Ok(next) => {
                    inv.wrappers.push(name);
                    words = next;
                    continue;
                }
                Err(runs) => return *runs,
            },
            "command"
                if rest
                    .first()
                    .and_then(Word::text)
                    .is_some_and(|o| o == "-v" || o == "-V") =>
            {
                return Runs::Nothing;
            }
            "su" | "runuser" => {
                if let Some(script) = argv::parse(&tables::SU, rest).arg("command") {
                    return script_or_unknown(script, &name);
                }
                if name == "runuser" {
                    if let Some(k) = rest.iter().position(|w| w.text() == Some("--")) {
                        inv.wrappers.push(name);
                        words = rest[k + 1..].to_vec();
                        continue;
                    }
                }
                return Runs::Nothing;
            }
            "flock" => {
                let own = argv::parse(&tables::FLOCK, rest);
                // `-c CMD` before the lock file, or (flock checks the word itself) after it.
                let after_file = rest
                    .get(own.rest_at + 1)
                    .filter(|w| matches!(w.text(), Some("-c" | "--command")))
                    .and(rest.get(own.rest_at + 2));
                if let Some(script) = own.arg("command").or(after_file) {
                    return script_or_unknown(script, "flock");
                }
                // `flock FILE cmd…`: the lock file, then the command.
                inv.wrappers.push(name);
                words = rest.get(own.rest_at + 1..).unwrap_or_default().to_vec();
                continue;
            }
            "watch" => {
                let own = argv::parse(&tables::WATCH, rest);
                return join_script(&rest[own.rest_at.min(rest.len())..], "watch");
            }
            "eval" => return join_script(rest, "eval"),
            // `npx -c 'cmd'` runs a command line.
            "npx" => {
                let row = tables::wrapper_row("npx").expect("npx is a wrapper row");
                if let Some(script) = argv::parse(&row.grammar, rest).arg("call") {
                    return script_or_unknown(script, "npx -c");
                }
            }
            "trap" => {
                // `trap 'cmd' SIGNAL…` runs cmd later; `trap -p`, `trap - SIG` run nothing.
                return match rest.first() {
                    Some(w) if w.text().is_some_and(|t| t.starts_with('-')) => Runs::Nothing,
                    Some(w) if rest.len() > 1 => script_or_unknown(w, "trap"),
                    _ => Runs::Nothing,
                };
            }
            "script" => {
                return match argv::parse(&tables::SCRIPT, rest).arg("command") {
                    Some(cmd) => script_or_unknown(cmd, "script"),
                    None => Runs::Nothing,
                };
            }
            "source" | "." => {
                return match rest.first().and_then(Word::text) {
                    Some("/dev/stdin" | "-" | "/proc/self/fd/0") => match stdin_text(cmd) {
                        Some(Ok(text)) => Runs::Script {
                            text,
                            via: format!("{name} /dev/stdin"),
                        },
                        Some(Err(reason)) => Runs::Unknown(reason),
                        None => Runs::Nothing,
                    },
                    Some(_) => Runs::Nothing,
                    None if !rest.is_empty() => {
                        Runs::Unknown(format!("`{name}` reads a file named only when it runs"))
                    }
                    None => Runs::Nothing,
                };
            }
            "find" => return find_exec(rest),
            _ => {}
        }
        if let Some(w) = tables::wrapper_row(&name) {
            let mut from = 0;
            if w.name == "nice" {
                // `nice -5 cmd`: an old-style adjustment is a flag of its own.
                from = rest
                    .iter()
                    .position(|a| {
                        !a.text()
                            .is_some_and(|t| t.starts_with('-') && t[1..].parse::<i32>().is_ok())
                    })
                    .unwrap_or(rest.len());
            }
            // Only the wrapper's own options: `sudo git branch -D main` is no chdir.
            let own = argv::parse(&w.grammar, &rest[from..]);
            if let Some(dir) = own.arg("chdir") {
                inv.chdir = Some(dir.value.clone());
            }
            let start = from + own.rest_at + w.operands;
            // `xargs -I R` / `-i` substitutes its input for R instead of appending it;
            // `parallel` substitutes `{}` and its relatives: placeholders are run-time
            // words, never literal names.
            let placeholder = match w.name {
                "xargs" => own
                    .value("replace")
                    .map(str::to_owned)
                    .or_else(|| own.has("i").then(|| "{}".to_owned())),
                // Without a placeholder in the command, parallel appends its inputs.
                "parallel"
                    if rest[(start).min(rest.len())..]
                        .iter()
                        .any(|a| a.text().is_some_and(|t| t.contains('{') && t.contains('}'))) =>
                {
                    Some("{".to_owned())
                }
                _ => None,
            };
            if w.appends && placeholder.is_none() {
                inv.appended_unknown = true;
                inv.appender = Some(name.clone());
            }
            if placeholder.is_some() {
                inv.placeholder = placeholder;
            }
            inv.wrappers.push(name);
            words = rest.get(start..).unwrap_or_default().to_vec();
            if words.is_empty() && w.appends {
                // `xargs` alone runs `echo`.
                return Runs::Nothing;
            }
            continue;
        }
        if let Some(w) = tables::sub_wrapper_row(&name) {
            let after_sub = match rest.first().and_then(Word::text) {
                _ if w.subcommands.is_empty() => Some(0),
                Some(sub) if w.subcommands.contains(&sub) => Some(1),
                _ => None,
            };
            if let Some(from) = after_sub {
                let own = argv::parse(&w.grammar, &rest[from..]);
                inv.wrappers.push(format!(
                    "{name}{}",
                    rest.first()
                        .filter(|_| from == 1)
                        .and_then(Word::text)
                        .map(|s| format!(" {s}"))
                        .unwrap_or_default()
                ));
                words = rest
                    .get(from + own.rest_at + w.operands..)
                    .unwrap_or_default()
                    .to_vec();
                if words.is_empty() {
                    return Runs::Nothing;
                }
                continue;
            }
        }
        match name.as_str() {
            "nix-shell" => {
                let own = argv::parse(&tables::NIX_SHELL, rest);
                return match own.arg("run").or(own.arg("command")) {
                    Some(script) => script_or_unknown(script, "nix-shell --run"),
                    None => Runs::Nothing,
                };
            }
            // `nix develop … -c cmd…`, `nix shell PKG… --command cmd…`.
            "nix" if matches!(rest.first().and_then(Word::text), Some("develop" | "shell")) => {
                let at = rest
                    .iter()
                    .position(|w| matches!(w.text(), Some("-c" | "--command")));
                match at {
                    Some(k) => {
                        inv.wrappers.push(name);
                        words = rest[k + 1..].to_vec();
                        continue;
                    }
                    None => return Runs::Nothing,
                }
            }
            _ => {}
        }
        if SHELLS.contains(&name.as_str()) {
            return shell(&name, rest, cmd);
        }
        if let Some((_, code_opts)) = INTERPRETERS.iter().find(|(n, _)| {
            *n == name || name.starts_with(&format!("{n}.")) && n.starts_with("python")
        }) {
            inv.opaque = interpreter(&name, rest, code_opts, cmd);
            inv.args = rest.to_vec();
            return Runs::Program(inv);
        }
        let mut rest: Vec<Word> = rest.to_vec();
        if let Some(p) = &inv.placeholder {
            if inv.wrappers.last().is_some_and(|w| w == "parallel") {
                // The inputs after `:::` are not part of the command.
                if let Some(k) = rest
                    .iter()
                    .position(|w| matches!(w.text(), Some(":::" | "::::" | ":::+" | "::::+")))
                {
                    rest.truncate(k);
                }
            }
            for w in &mut rest {
                if w.text().is_some_and(|t| t.contains(p.as_str())) {
                    w.value = None;
                }
            }
        }
        let rest = rest.as_slice();
        match super::embedded::runs(&name, rest, cmd) {
            Some(Runs::Script { text, via }) => inv.embedded = Some((text, via)),
            Some(Runs::Unknown(reason)) => inv.opaque = Some(reason),
            _ => {}
        }
        inv.args = rest.to_vec();
        return Runs::Program(inv);
    }
    Runs::Unknown("wrappers are nested more than 16 deep".into())
}

/// The commands `find -exec/-execdir/-ok/-okdir … ;` runs; `{}` is a file name, only
/// known when it runs.
fn find_exec(args: &[Word]) -> Runs {
    let mut commands = Vec::new();
    let mut k = 0;
    while let Some(w) = args.get(k) {
        k += 1;
        if !matches!(w.text(), Some("-exec" | "-execdir" | "-ok" | "-okdir")) {
            continue;
        }
        let mut words = Vec::new();
        while let Some(a) = args.get(k) {
            k += 1;
            match a.text() {
                Some(";" | "+") => break,
                Some(t) if t.contains("{}") => words.push(Word {
                    raw: t.to_owned(),
                    value: None,
                    quoted: false,
                }),
                _ => words.push(a.clone()),
            }
        }
        commands.push(SimpleCommand {
            words,
            ..SimpleCommand::default()
        });
    }
    if commands.is_empty() {
        Runs::Nothing
    } else {
        Runs::Commands(commands)
    }
}

/// `env [OPTION]… [-] [NAME=VALUE]… [COMMAND [ARG]…]`, options by [`tables::ENV`]: every
/// spelling of `-S` (`-S STR`, `-SSTR`, `-vS STR`, `--split-string=STR`, `--split STR`)
/// makes the string (and what follows) a command line.
fn env_command(args: &[Word], inv: &mut Invocation) -> Result<Vec<Word>, Box<Runs>> {
    let own = argv::parse(&tables::ENV, args);
    for (name, value) in &own.opts {
        match (name.as_str(), value) {
            ("ignore-environment", _) => {
                inv.clear_env = true;
                inv.env.clear();
            }
            ("unset", Some(v)) => match v.text() {
                Some(n) => inv.env.retain(|(e, _)| e != n),
                None => {
                    return Err(Box::new(Runs::Unknown(format!(
                        "`env -u` is given `{}`, only known when it runs",
                        v.raw
                    ))))
                }
            },
            ("chdir", Some(v)) => inv.chdir = Some(v.text().map(str::to_owned)),
            ("split-string", Some(v)) => {
                let Some(text) = v.text() else {
                    return Err(Box::new(Runs::Unknown(
                        "`env -S` splits a string only known when it runs".into(),
                    )));
                };
                // The split words take the option's place, and env reads them as it
                // reads its arguments: options, assignments, then the command.
                let mut next = match env_split(text, &inv.env, inv.clear_env) {
                    Ok(words) => words,
                    // env refuses the string (exit 125) and runs nothing.
                    Err(()) => return Err(Box::new(Runs::Nothing)),
                };
                next.extend(args[own.rest_at.min(args.len())..].iter().cloned());
                return env_command(&next, inv);
            }
            _ => {}
        }
    }
    let mut k = own.rest_at;
    // `env -` is `env -i`.
    if args.get(k).and_then(Word::text) == Some("-") {
        inv.clear_env = true;
        inv.env.clear();
        k += 1;
    }
    while let Some(w) = args.get(k) {
        let Some(t) = w.text() else {
            return Err(Box::new(Runs::Unknown(format!(
                "`env` is given `{}`, only known when it runs",
                w.raw
            ))));
        };
        match t.split_once('=') {
            Some((name, value)) if !name.is_empty() => {
                inv.env.push((name.to_owned(), Some(value.to_owned())))
            }
            _ => return Ok(args[k..].to_vec()),
        }
        k += 1;
    }
    Ok(Vec::new())
}

/// `env -S STRING` as coreutils splits it: blanks separate words; `'…'` is literal
/// (`\\` and `\'` aside); `"…"` and bare text take the escapes `\"`, `\'`, `\\`, `\$`,
/// `\#`, `\_` (a blank inside quotes, a separator outside), `\f \n \r \t \v`, and `\c`
/// (the rest is ignored); `${NAME}` is the variable's value; a `#` that starts a word
/// starts a comment. No shell syntax: no redirection, no `~`, no `$NAME`, no globbing.
/// Err when env refuses the string (an unbraced `$`, an unknown escape, an open quote).
fn env_split(text: &str, env: &[(String, Option<String>)], cleared: bool) -> Result<Vec<Word>, ()> {
    let b = text.as_bytes();
    let mut words: Vec<Word> = Vec::new();
    // The word being built: its bytes, and whether it holds a value known only at run time.
    let mut cur: Option<(Vec<u8>, bool)> = None;
    let finish = |cur: &mut Option<(Vec<u8>, bool)>, words: &mut Vec<Word>| {
        if let Some((bytes, dynamic)) = cur.take() {
            let t = String::from_utf8_lossy(&bytes).into_owned();
            words.push(Word {
                raw: t.clone(),
                value: (!dynamic).then_some(t),
                quoted: false,
            });
        }
    };
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match (quote, c) {
            (None, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) => finish(&mut cur, &mut words),
            (None, b'#') if cur.is_none() => break,
            (None, b'\'' | b'"') => {
                quote = Some(c);
                cur.get_or_insert_with(|| (Vec::new(), false));
            }
            (Some(q), _) if c == q => quote = None,
            (Some(b'\''), b'\\') if matches!(b.get(i + 1), Some(b'\\' | b'\'')) => {
                cur.get_or_insert_with(|| (Vec::new(), false))
                    .0
                    .push(b[i + 1]);
                i += 1;
            }
            (Some(b'\''), _) => cur.get_or_insert_with(|| (Vec::new(), false)).0.push(c),
            (_, b'\\') => {
                let e = *b.get(i + 1).ok_or(())?;
                i += 1;
                let ch = match e {
                    b'c' if quote.is_none() => break,
                    b'_' if quote.is_none() => {
                        finish(&mut cur, &mut words);
                        i += 1;
                        continue;
                    }
                    b'_' => b' ',
                    b'"' | b'\'' | b'\\' | b'$' | b'#' => e,
                    b'f' => 0x0c,
                    b'n' => b'\n',
                    b'r' => b'\r',
                    b't' => b'\t',
                    b'v' => 0x0b,
                    _ => return Err(()),
                };
                cur.get_or_insert_with(|| (Vec::new(), false)).0.push(ch);
            }
            (_, b'$') => {
                if b.get(i + 1) != Some(&b'{') {
                    return Err(());
                }
                let end = i + 2 + b[i + 2..].iter().position(|&x| x == b'}').ok_or(())?;
                let name = std::str::from_utf8(&b[i + 2..end]).map_err(|_| ())?;
                let word = cur.get_or_insert_with(|| (Vec::new(), false));
                match env.iter().rev().find(|(n, _)| n == name) {
                    Some((_, Some(v))) => word.0.extend_from_slice(v.as_bytes()),
                    // Unset after `env -i`: empty. Otherwise the hook cannot see it.
                    None if cleared => {}
                    _ => {
                        word.0.extend_from_slice(&b[i..=end]);
                        word.1 = true;
                    }
                }
                i = end;
            }
            _ => cur.get_or_insert_with(|| (Vec::new(), false)).0.push(c),
        }
        i += 1;
    }
    if quote.is_some() {
        return Err(());
    }
    finish(&mut cur, &mut words);
    Ok(words)
}

fn join_words(words: &[Word]) -> Option<String> {
    let parts: Option<Vec<&str>> = words.iter().map(Word::text).collect();
    parts.map(|p| p.join(" "))
}

fn join_script(words: &[Word], via: &str) -> Runs {
    match join_words(words) {
        Some(text) if text.trim().is_empty() => Runs::Nothing,
        Some(text) => Runs::Script {
            text,
            via: via.into(),
        },
        None => Runs::Unknown(format!("`{via}` runs text that is only known when it runs")),
    }
}

fn script_or_unknown(script: &Word, via: &str) -> Runs {
    match script.text() {
        Some(text) => Runs::Script {
            text: text.to_owned(),
            via: format!("{via} -c"),
        },
        None => Runs::Unknown(format!(
            "`{via} -c` runs `{}`, only known when it runs",
            script.raw
        )),
    }
}

/// A shell: `-c SCRIPT`, or a script on stdin (a heredoc, a here-string, a pipe).
fn shell(name: &str, args: &[Word], cmd: &SimpleCommand) -> Runs {
    let mut k = 0;
    let mut command_mode = false;
    let mut stdin_mode = false;
    while let Some(w) = args.get(k) {
        let Some(t) = w.text() else {
            return Runs::Unknown(format!(
                "`{name}` is given `{}`, only known when it runs",
                w.raw
            ));
        };
        if t == "--" || t == "-" {
            k += 1;
            break;
        }
        if SHELL_VALUE_OPTS.contains(&t) {
            k += 2;
            continue;
        }
        if let Some(flags) = t.strip_prefix('-').filter(|f| !f.starts_with('-')) {
            command_mode |= flags.contains('c')
                || (name.starts_with("pwsh") || name.starts_with("powershell"))
                    && flags.eq_ignore_ascii_case("command");
            stdin_mode |= flags.contains('s');
        } else if !t.starts_with("--") && !t.starts_with('+') {
            break;
        }
        k += 1;
    }
    if command_mode {
        return match args.get(k) {
            Some(script) => script_or_unknown(script, name),
            None => Runs::Nothing,
        };
    }
    if args.get(k).is_some() && !stdin_mode {
        // A script file: its text is not ours to read (see the README's limits).
        return Runs::Nothing;
    }
    match stdin_text(cmd) {
        Some(Ok(text)) => Runs::Script {
            text,
            via: format!("{name} reading stdin"),
        },
        Some(Err(reason)) => Runs::Unknown(reason),
        None => Runs::Nothing,
    }
}

/// The text on a command's stdin: a heredoc, a here-string or a pipe. None when stdin is
/// not redirected or piped (or comes from a file).
pub(super) fn stdin_text(cmd: &SimpleCommand) -> Option<Result<String, String>> {
    for r in cmd.redirects.iter().rev() {
        if r.fd.unwrap_or(0) != 0 {
            continue;
        }
        match (r.op, &r.heredoc) {
            (RedirectOp::Heredoc, Some(h)) => return Some(Ok(h.body.clone())),
            (RedirectOp::HereString, _) => {
                return Some(r.target.text().map(str::to_owned).ok_or_else(|| {
                    format!(
                        "the here-string `{}` is only known when it runs",
                        r.target.raw
                    )
                }))
            }
            (RedirectOp::Read, _) => return None,
            _ => {}
        }
    }
    match &cmd.piped_text {
        Some(PipedText::Known(text)) => Some(Ok(text.clone())),
        Some(PipedText::Unknown) => Some(Err(
            "a shell reads a script from a pipe whose text is only known when it runs".into(),
        )),
        None => None,
    }
}

/// An interpreter with inline code (or code on stdin) that mentions git is opaque: the
/// guard cannot tell which git command it builds. Otherwise it is a program like any
/// other (`perl -pi -e … file` still writes `file`).
fn interpreter(
    name: &str,
    args: &[Word],
    code_opts: &[&str],
    cmd: &SimpleCommand,
) -> Option<String> {
    let mut code: Vec<String> = Vec::new();
    let mut script_file = false;
    for (k, w) in args.iter().enumerate() {
        let Some(t) = w.text() else {
            script_file = true;
            continue;
        };
        if code_opts.contains(&t) {
            match args.get(k + 1) {
                // Code only known when it runs may call git as well as any other.
                Some(c) if c.text().is_none() => {
                    return Some(format!(
                        "`{name}` runs inline code that is only known when it runs"
                    ));
                }
                Some(c) => code.push(c.text().unwrap_or_default().to_owned()),
                None => {}
            }
        } else if let Some(c) = code_opts.iter().find_map(|o| {
            o.strip_prefix('-')
                .filter(|_| o.len() == 2)
                .and_then(|_| t.strip_prefix(o))
                .filter(|c| !c.is_empty())
        }) {
            code.push(c.to_owned());
        } else if !t.starts_with('-') {
            // A script file (or some option's value): stdin is then data, not code.
            script_file = true;
        }
    }
    // Without inline code or a script file, stdin is the program.
    let stdin_is_code = code.is_empty() && !script_file;
    match stdin_text(cmd) {
        Some(Ok(text)) => code.push(text),
        Some(Err(_)) if stdin_is_code => {
            return Some(format!(
                "`{name}` runs code from a pipe whose text is only known when it runs"
            ));
        }
        _ => {}
    }
    if code.iter().any(|c| mentions_git(c)) {
        return Some(format!("`{name}` runs inline code that calls git"));
    }
    None
}

/// Whether code text contains the word `git` (not as part of `digit`, `.github`, …).
pub fn mentions_git(code: &str) -> bool {
    let b = code.as_bytes();
    code.match_indices("git").any(|(i, _)| {
        let before = i.checked_sub(1).map(|j| b[j]);
        let after = b.get(i + 3).copied();
        let boundary = |c: Option<u8>| {
            c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'.'))
        };
        boundary(before) && boundary(after)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::parse;

    fn run_of(src: &str) -> Runs {
        let script = parse(src);
        assert!(script.problems.is_empty(), "{:?}", script.problems);
        runs(script.simple_commands().last().unwrap())
    }

    fn program(src: &str) -> (String, Vec<String>) {
        match run_of(src) {
            Runs::Program(inv) => (
                inv.name().to_owned(),
                inv.args.iter().map(|w| w.raw.clone()).collect(),
            ),
            other => panic!("{src:?}: {other:?}"),
        }
    }

    #[test]
    fn wrappers_are_unwrapped() {
        for src in [
            "git push origin main",
            "sudo git push origin main",
            "sudo -u root -E git push origin main",
            "doas -u root git push origin main",
            "env git push origin main",
            "env -i PATH=/bin GIT_DIR=x git push origin main",
            "command git push origin main",
            "exec git push origin main",
            "nohup git push origin main",
            "nice -n 5 git push origin main",
            "nice -5 git push origin main",
            "time git push origin main",
            "timeout 5 git push origin main",
            "timeout -s KILL 5s git push origin main",
            "stdbuf -oL git push origin main",
            "\\git push origin main",
            "/usr/bin/git push origin main",
            "VAR=1 git push origin main",
            "busybox git push origin main",
            "sudo env timeout 5 nice git push origin main",
            "runuser -u x -- git push origin main",
            "flock /tmp/l git push origin main",
        ] {
            assert_eq!(
                program(src),
                (
                    "git".to_owned(),
                    vec!["push".into(), "origin".into(), "main".into()]
                ),
                "{src}"
            );
        }
    }

    #[test]
    fn env_and_chdir_are_kept() {
        // env stops reading options at the first assignment (coreutils' `+` getopt
        // string): `env B=2 -C x cmd` runs `-C` (checked with coreutils 9).
        let Runs::Program(inv) = run_of("A=1 env -u A -C ../x B=2 git status") else {
            panic!()
        };
        assert_eq!(inv.env, [("B".to_owned(), Some("2".to_owned()))]);
        assert_eq!(inv.chdir, Some(Some("../x".to_owned())));
        let Runs::Program(inv) = run_of("sudo -D /srv git status") else {
            panic!()
        };
        assert_eq!(inv.chdir, Some(Some("/srv".to_owned())));
        // A bundle of sudo's own options: `-E` a flag, `-u` taking the next word.
        let Runs::Program(inv) = run_of("sudo -Eu root -D/srv git status") else {
            panic!()
        };
        assert_eq!(
            (inv.program.as_str(), inv.chdir),
            ("git", Some(Some("/srv".to_owned())))
        );
        let Runs::Program(inv) = run_of("env B=2 -C /x git status") else {
            panic!()
        };
        assert_eq!(inv.program, "-C");
        let Runs::Program(inv) = run_of("xargs -n 1 git push origin") else {
            panic!()
        };
        assert!(inv.appended_unknown);
    }

    #[test]
    fn scripts_are_found() {
        let script = |src| match run_of(src) {
            Runs::Script { text, .. } => text,
            other => panic!("{src:?}: {other:?}"),
        };
        assert_eq!(
            script("bash -c 'git push origin main'"),
            "git push origin main"
        );
        assert_eq!(script("bash -lc 'git push'"), "git push");
        assert_eq!(script("sh -ec 'git push'"), "git push");
        assert_eq!(script("zsh -o errexit -c 'git push'"), "git push");
        assert_eq!(script("busybox sh -c 'git push'"), "git push");
        assert_eq!(script("eval 'git push' origin"), "git push origin");
        assert_eq!(script("echo 'git push' | bash"), "git push");
        assert_eq!(script("bash <<EOF\ngit push\nEOF"), "git push\n");
        assert_eq!(script("bash <<< 'git push'"), "git push");
        assert_eq!(script("su -c 'git push' root"), "git push");
        assert_eq!(script("watch -n 1 git status"), "git status");
        assert_eq!(script("pwsh -Command 'git push'"), "git push");
        assert_eq!(script("script -qc 'git push' /dev/null"), "git push");
        assert_eq!(script("trap 'git push' EXIT"), "git push");
        assert_eq!(script("source /dev/stdin <<< 'git push'"), "git push");
    }

    #[test]
    fn env_split_string_is_not_shell() {
        let program = |src| match run_of(src) {
            Runs::Program(inv) => (
                inv.program,
                inv.args
                    .iter()
                    .map(|w| w.value.clone().unwrap_or_else(|| format!("<{}>", w.raw)))
                    .collect::<Vec<_>>(),
            ),
            other => panic!("{src:?}: {other:?}"),
        };
        let v = |p: &str, a: &[&str]| (p.to_owned(), a.iter().map(|s| s.to_string()).collect());
        assert_eq!(program("env -S 'git push'"), v("git", &["push"]));
        // Redirections, `~` and `;` are plain text to env (verified with coreutils 9.1).
        assert_eq!(
            program("env -S 'echo x > ~/f; ls'"),
            v("echo", &["x", ">", "~/f;", "ls"])
        );
        assert_eq!(
            program(r#"env -S 'tee "a b" c\_d' x"#),
            v("tee", &["a b", "c", "d", "x"])
        );
        // Options and assignments inside the string are env's own.
        let Runs::Program(inv) = run_of("env -S '-u X -C /srv A=1 git status'") else {
            panic!()
        };
        assert_eq!(inv.chdir, Some(Some("/srv".to_owned())));
        assert_eq!(inv.env, vec![("A".to_owned(), Some("1".to_owned()))]);
        // `${V}` is the variable; a bare `$V` makes env refuse and run nothing.
        assert_eq!(
            program("V=x env -S 'touch ${V}.txt'"),
            v("touch", &["x.txt"])
        );
        assert_eq!(
            program("env -S 'touch ${HOME}/f'"),
            v("touch", &["<${HOME}/f>"])
        );
        assert_eq!(run_of("env -S 'touch $HOME/f'"), Runs::Nothing);
        assert_eq!(run_of("env -S 'a \\q'"), Runs::Nothing);
        assert_eq!(program("env -S 'ls # a comment'"), v("ls", &[]));
    }

    #[test]
    fn find_exec_runs_commands() {
        let Runs::Commands(cmds) =
            run_of("find . -name '*.rs' -exec git add {} \\; -execdir git push origin main +")
        else {
            panic!()
        };
        let words: Vec<Vec<Option<&str>>> = cmds
            .iter()
            .map(|c| c.words.iter().map(Word::text).collect())
            .collect();
        assert_eq!(
            words,
            [
                vec![Some("git"), Some("add"), None],
                vec![Some("git"), Some("push"), Some("origin"), Some("main")]
            ]
        );
    }

    #[test]
    fn unknowns_and_nothings() {
        assert!(matches!(run_of("$G push"), Runs::Unknown(_)));
        assert!(matches!(run_of("eval \"$CMD\""), Runs::Unknown(_)));
        assert!(matches!(run_of("curl x | sh"), Runs::Unknown(_)));
        assert!(matches!(run_of("bash -c \"$X\""), Runs::Unknown(_)));
        assert!(matches!(
            run_of("python3 -c 'import os; os.system(\"git push origin main\")'"),
            Runs::Program(Invocation {
                opaque: Some(_),
                ..
            })
        ));
        assert!(matches!(
            run_of("python3 -c 'print(1)'"),
            Runs::Program(Invocation { opaque: None, .. })
        ));
        assert_eq!(run_of("bash deploy.sh"), Runs::Nothing);
        assert_eq!(run_of("command -v git"), Runs::Nothing);
        assert_eq!(run_of("A=1"), Runs::Nothing);
        assert_eq!(run_of("sudo"), Runs::Nothing);
    }

    #[test]
    fn git_as_a_word() {
        assert!(mentions_git("os.system('git push')"));
        assert!(mentions_git("git"));
        assert!(!mentions_git("digit .github gitlab"));
    }
}
