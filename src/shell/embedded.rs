//! Programs that run commands written in their own arguments or script: make recipes
//! given with `--eval` or on stdin (`make -f -`), awk's `system()` and command pipes, sed's
//! `e` command, tar's `--checkpoint-action=exec=` and friends. What they run is a shell
//! command line when it is literal text, and unknown when it is built at run time.
//!
//! A program that reads its script from a file (`make` with the repository's Makefile,
//! `awk -f prog.awk`) is not opened: like any script file, it is out of static reach.

use super::exec::Runs;
use super::{SimpleCommand, Word};
use crate::argv::{self, attached, flag, value, Grammar};

const MAKE: Grammar = Grammar::gnu(&[
    value("file", Some('f')),
    value("makefile", None),
    value("directory", Some('C')),
    value("include-dir", Some('I')),
    attached("jobs", Some('j')),
    attached("load-average", Some('l')),
    value("old-file", Some('o')),
    value("what-if", Some('W')),
    value("eval", Some('E')),
    flag("just-print", Some('n')),
    flag("dry-run", None),
    flag("question", Some('q')),
]);

const AWK: Grammar = Grammar::gnu(&[
    value("file", Some('f')),
    value("source", Some('e')),
    value("assign", Some('v')),
    value("field-separator", Some('F')),
    value("include", Some('i')),
    value("load", Some('l')),
]);

const SED: Grammar = Grammar::gnu(&[
    value("expression", Some('e')),
    value("file", Some('f')),
    value("line-length", Some('l')),
    attached("in-place", Some('i')),
]);

const TAR_COMMANDS: Grammar = Grammar::gnu(&[
    value("checkpoint-action", None),
    value("to-command", None),
    value("use-compress-program", Some('I')),
    value("info-script", Some('F')),
    value("new-volume-script", None),
    value("rsh-command", None),
    value("file", Some('f')),
    value("directory", Some('C')),
    value("files-from", Some('T')),
    value("exclude-from", Some('X')),
    value("blocking-factor", Some('b')),
]);

/// What `name` runs from its own arguments, or None when it runs nothing of the kind (it
/// is then analyzed as a program like any other).
pub fn runs(name: &str, args: &[Word], cmd: &SimpleCommand) -> Option<Runs> {
    match name {
        "make" | "gmake" => make(args, cmd),
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => awk(args),
        "sed" | "gsed" => sed(args),
        "tar" | "gtar" | "bsdtar" => tar(args),
        _ => None,
    }
}

fn script(text: String, via: &str) -> Runs {
    if text.trim().is_empty() {
        Runs::Nothing
    } else {
        Runs::Script {
            text,
            via: via.into(),
        }
    }
}

fn unknown(what: &str) -> Runs {
    Runs::Unknown(format!("{what}, built only when it runs"))
}

/// `make --eval=TEXT`, `make -f -` with the makefile on stdin: the recipes (lines that
/// start with a tab, minus their `@`, `-`, `+` prefixes) and `$(shell …)` calls run.
fn make(args: &[Word], cmd: &SimpleCommand) -> Option<Runs> {
    let p = argv::parse(&MAKE, args);
    if p.on("just-print") || p.on("dry-run") || p.on("question") {
        return None;
    }
    let mut texts = Vec::new();
    for text in p.args_of("eval") {
        match text.text() {
            Some(t) => texts.push(t.to_owned()),
            None => return Some(unknown("`make --eval` reads a makefile")),
        }
    }
    if p.values("file")
        .iter()
        .chain(p.values("makefile").iter())
        .any(|f| matches!(*f, "-" | "/dev/stdin"))
    {
        match super::exec::stdin_text(cmd) {
            Some(Ok(text)) => texts.push(text),
            Some(Err(reason)) => return Some(Runs::Unknown(reason)),
            None => return Some(unknown("`make -f -` reads a makefile from a pipe")),
        }
    }
    if texts.is_empty() {
        return None;
    }
    Some(script(make_commands(&texts.join("\n")), "make"))
}

/// The shell commands in a makefile's text.
fn make_commands(makefile: &str) -> String {
    let mut out = Vec::new();
    for line in makefile.lines() {
        if let Some(recipe) = line.strip_prefix('\t') {
            let recipe = recipe.trim_start_matches(['@', '-', '+', ' ']);
            out.push(recipe.replace("$$", "$"));
        }
        let mut rest = line;
        while let Some(at) = rest.find("$(shell ") {
            let inner = &rest[at + "$(shell ".len()..];
            let end = matching_paren(inner).unwrap_or(inner.len());
            out.push(inner[..end].to_owned());
            rest = &inner[end..];
        }
    }
    out.join("\n")
}

/// The index of the `)` closing an already opened `(`.
fn matching_paren(text: &str) -> Option<usize> {
    let mut depth = 1;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// awk's `system(CMD)`, `print … | CMD`, `CMD | getline`, `|& CMD`: each literal CMD is a
/// command line; one built from variables is unknown.
fn awk(args: &[Word]) -> Option<Runs> {
    let p = argv::parse(&AWK, args);
    let program = match p.args_of("source").first() {
        Some(source) => (*source).clone(),
        None if p.has("file") => return None,
        None => p.positionals.first()?.clone(),
    };
    let Some(text) = program.text() else {
        return Some(unknown("awk runs a program"));
    };
    let mut commands = Vec::new();
    for (at, _) in text.match_indices("system(") {
        match leading_string(&text[at + "system(".len()..], ')') {
            Some(cmd) => commands.push(cmd),
            None => return Some(unknown("awk's `system()` runs a command")),
        }
    }
    for (at, _) in text.match_indices('|') {
        let after = text[at + 1..].trim_start_matches(['&', ' ']);
        if after.starts_with("getline") {
            // `"cmd" | getline`: the command is the string before the pipe.
            match trailing_string(&text[..at]) {
                Some(cmd) => commands.push(cmd),
                None => return Some(unknown("awk's `| getline` runs a command")),
            }
        } else if text[..at].ends_with('|') || after.starts_with('|') {
            continue; // `||`
        } else {
            match leading_string(after, ';') {
                Some(cmd) => commands.push(cmd),
                None => return Some(unknown("awk pipes output into a command")),
            }
        }
    }
    if commands.is_empty() {
        return None;
    }
    Some(script(commands.join("\n"), "awk"))
}

/// The string literal at the start of `text` (after blanks), when the expression is just
/// that literal up to `end` (or the end of the text).
fn leading_string(text: &str, end: char) -> Option<String> {
    let t = text.trim_start();
    let body = t.strip_prefix('"')?;
    let (literal, after) = split_literal(body)?;
    let after = after.trim_start();
    (after.is_empty() || after.starts_with(end) || after.starts_with(['}', ';', '\n', ')']))
        .then_some(literal)
}

/// The string literal that `text` ends with (blanks after it allowed).
fn trailing_string(text: &str) -> Option<String> {
    let t = text.trim_end().strip_suffix('"')?;
    let start = t.rfind('"')?;
    Some(t[start + 1..].to_owned())
}

/// A double-quoted awk string's text (escapes `\"` and `\\` undone) and what follows it.
fn split_literal(body: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[i + 1..])),
            '\\' => match chars.next() {
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((_, e)) => out.push(e),
                None => return None,
            },
            _ => out.push(c),
        }
    }
    None
}

/// The files a sed script writes with `w`/`W` and the `s///w` flag (`/dev/stdout` and
/// `/dev/stderr` included: the caller drops what is not a file). A script known only when
/// it runs writes an unknown file only if it could hold a `w`.
pub fn sed_outputs(args: &[Word]) -> Vec<Word> {
    let p = argv::parse(&SED, args);
    let scripts: Vec<&Word> = match p.args_of("expression") {
        e if !e.is_empty() => e,
        _ if p.has("file") => return Vec::new(),
        _ => p.positionals.first().into_iter().collect(),
    };
    let mut out = Vec::new();
    for s in scripts {
        let Some(text) = s.text() else {
            continue;
        };
        out.extend(sed_commands(text).into_iter().filter_map(|c| match c {
            SedRun::Write(file) => Some(Word::literal(&file)),
            _ => None,
        }));
    }
    out
}

/// The files awk's `print`/`printf` statements redirect into (`print > "f"`, `>> "f"`):
/// a literal name is the file; an expression is a file known only when it runs. With
/// gawk's `-i inplace`, the input files are rewritten too.
pub fn awk_outputs(args: &[Word]) -> Vec<(Word, AwkWrite)> {
    let p = argv::parse(&AWK, args);
    let (program, files) = match p.args_of("source").first() {
        Some(source) => ((*source).clone(), &p.positionals[..]),
        None if p.has("file") => (Word::literal(""), &p.positionals[..]),
        None => match p.positionals.split_first() {
            Some((w, rest)) => (w.clone(), rest),
            None => return Vec::new(),
        },
    };
    let mut out = Vec::new();
    if p.values("include").contains(&"inplace") {
        // `var=value` operands are assignments, not files.
        let assignment = |t: &str| {
            t.split_once('=').is_some_and(|(n, _)| {
                !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        };
        out.extend(
            files
                .iter()
                .filter(|w| !w.text().is_some_and(assignment))
                .map(|w| (w.clone(), AwkWrite::InPlace)),
        );
    }
    let Some(text) = program.text() else {
        return out;
    };
    for statement in awk_print_statements(text) {
        let Some(at) = unquoted_redirect(statement) else {
            continue;
        };
        let target = statement[at..].trim_start_matches('>').trim_start();
        let word = match target.strip_prefix('"').and_then(split_literal) {
            Some((name, _)) => Word::literal(&name),
            None => Word {
                raw: format!("awk output {}", target.trim()),
                value: None,
                quoted: false,
            },
        };
        out.push((word, AwkWrite::Redirect));
    }
    out
}

/// How awk writes a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AwkWrite {
    /// `print > "f"`: opened like a shell redirection (through a symlink).
    Redirect,
    /// `-i inplace`: a new file renamed over the old name (a symlink is replaced).
    InPlace,
}

/// The text of each `print`/`printf` statement of an awk program, up to its end (`;`,
/// `}`, a newline) outside strings.
fn awk_print_statements(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => i = skip_delimited(b, i + 1, b'"'),
            b'p' if text[i..].starts_with("print")
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let start = i;
                let mut j = i + 5;
                let mut depth = 0i32;
                while j < b.len() {
                    match b[j] {
                        b'"' => {
                            j = skip_delimited(b, j + 1, b'"');
                            continue;
                        }
                        b'(' => depth += 1,
                        b')' => depth -= 1,
                        b';' | b'}' | b'\n' if depth <= 0 => break,
                        _ => {}
                    }
                    j += 1;
                }
                out.push(&text[start..j.min(b.len())]);
                i = j;
            }
            _ => i += 1,
        }
    }
    out
}

/// Where a `>` or `>>` outside strings and parentheses starts in a print statement (a `>`
/// inside parentheses is a comparison).
fn unquoted_redirect(statement: &str) -> Option<usize> {
    let b = statement.as_bytes();
    let mut depth = 0i32;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = skip_delimited(b, i + 1, b'"');
                continue;
            }
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'>' if depth == 0 => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// sed's `e COMMAND` runs COMMAND; a bare `e` and the `s///e` flag run text built from
/// the input.
fn sed(args: &[Word]) -> Option<Runs> {
    let p = argv::parse(&SED, args);
    let scripts: Vec<&Word> = match p.args_of("expression") {
        e if !e.is_empty() => e,
        _ if p.has("file") => return None,
        _ => p.positionals.first().into_iter().collect(),
    };
    let mut commands = Vec::new();
    for s in scripts {
        let Some(text) = s.text() else {
            return Some(unknown("sed runs a script"));
        };
        for command in sed_commands(text) {
            match command {
                SedRun::Command(c) => commands.push(c),
                SedRun::Input(what) => {
                    return Some(unknown(&format!("sed's {what} runs a command")))
                }
                SedRun::Write(_) => {}
            }
        }
    }
    if commands.is_empty() {
        return None;
    }
    Some(script(commands.join("\n"), "sed e"))
}

enum SedRun {
    Command(String),
    /// Runs a command built from the input (`e` alone, `s///e`).
    Input(&'static str),
    /// Writes the pattern space to a file (`w FILE`, `W FILE`, the `s///w FILE` flag).
    Write(String),
}

/// The commands a sed script runs. The script is read command by command: an address,
/// then the command letter; `e` takes the rest of the line, `s` its three parts and flags.
fn sed_commands(script: &str) -> Vec<SedRun> {
    let mut out = Vec::new();
    let b = script.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // Separators, blanks, braces and addresses (`1`, `$`, `/re/`, `\cREc`, `a,b`, `!`).
        match b[i] {
            b';' | b'\n' | b' ' | b'\t' | b'{' | b'}' | b'!' | b',' | b'$' | b'~' => {
                i += 1;
                continue;
            }
            b'0'..=b'9' => {
                i += 1;
                continue;
            }
            b'/' => {
                i = skip_delimited(b, i + 1, b'/');
                continue;
            }
            b'\\' if i + 1 < b.len() => {
                let d = b[i + 1];
                i = skip_delimited(b, i + 2, d);
                continue;
            }
            _ => {}
        }
        let letter = b[i];
        i += 1;
        match letter {
            b'e' => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |k| i + k);
                let command = script[i..end].trim();
                out.push(if command.is_empty() {
                    SedRun::Input("`e` command")
                } else {
                    SedRun::Command(command.to_owned())
                });
                i = end;
            }
            b's' | b'y' if i < b.len() => {
                let d = b[i];
                i = skip_delimited(b, i + 1, d);
                i = skip_delimited(b, i, d);
                let flags_end = b[i..]
                    .iter()
                    .position(|&c| matches!(c, b';' | b'\n' | b'}'))
                    .map_or(b.len(), |k| i + k);
                let flags = &script[i..flags_end];
                if letter == b's'
                    && flags
                        .split(['w', ' '])
                        .next()
                        .is_some_and(|f| f.contains('e'))
                {
                    out.push(SedRun::Input("`s///e` flag"));
                }
                // `s/a/b/w FILE`: the file name is the rest of the line.
                if let (b's', Some(w)) = (letter, flags.find('w')) {
                    let end = b[i + w..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .map_or(b.len(), |k| i + w + k);
                    out.push(SedRun::Write(script[i + w + 1..end].trim().to_owned()));
                    i = end;
                } else {
                    i = flags_end;
                }
            }
            // `w FILE`, `W FILE`: the file name is the rest of the line.
            b'w' | b'W' => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |k| i + k);
                out.push(SedRun::Write(script[i..end].trim().to_owned()));
                i = end;
            }
            // Commands whose argument is the rest of the line (text, file names, labels).
            b'a' | b'i' | b'c' | b'r' | b'R' | b'b' | b't' | b'T' | b':' => {
                i = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |k| i + k);
            }
            _ => {}
        }
    }
    out
}

/// The index after the next unescaped `delim` from `i`.
fn skip_delimited(b: &[u8], mut i: usize, delim: u8) -> usize {
    while i < b.len() {
        if b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] == delim {
            return i + 1;
        }
        i += 1;
    }
    b.len()
}

/// tar runs `--checkpoint-action=exec=CMD`, `--to-command=CMD`, `-I/--use-compress-program
/// CMD`, `-F/--info-script CMD`, `--new-volume-script CMD`, `--rsh-command CMD`.
fn tar(args: &[Word]) -> Option<Runs> {
    let p = argv::parse(&TAR_COMMANDS, args);
    let mut commands = Vec::new();
    let actions = p
        .args_of("checkpoint-action")
        .into_iter()
        .map(|w| (w, true));
    let others = [
        "to-command",
        "use-compress-program",
        "info-script",
        "new-volume-script",
        "rsh-command",
    ]
    .into_iter()
    .flat_map(|name| p.args_of(name))
    .map(|w| (w, false));
    for (word, is_action) in actions.chain(others) {
        let Some(text) = word.text() else {
            return Some(unknown("tar runs a command"));
        };
        if is_action {
            // `exec=CMD` runs CMD; the other actions (`echo`, `dot`, `sleep=N`) run nothing.
            if let Some(cmd) = text.strip_prefix("exec=") {
                commands.push(cmd.to_owned());
            }
        } else {
            commands.push(text.to_owned());
        }
    }
    if commands.is_empty() {
        return None;
    }
    Some(script(commands.join("\n"), "tar"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<Word> {
        args.iter().map(|a| Word::literal(a)).collect()
    }

    fn text(r: Option<Runs>) -> String {
        match r {
            Some(Runs::Script { text, .. }) => text,
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn recipes_system_e_and_tar_actions_are_command_lines() {
        let none = SimpleCommand::default();
        assert_eq!(
            text(make(
                &words(&["--eval=x:\n\t@git push origin main", "x"]),
                &none
            )),
            "git push origin main"
        );
        assert_eq!(
            text(awk(&words(&[r#"BEGIN{system("git push origin main")}"#]))),
            "git push origin main"
        );
        assert_eq!(
            text(awk(&words(&[
                r#"{ print $0 | "git hash-object --stdin" }"#
            ]))),
            "git hash-object --stdin"
        );
        assert_eq!(
            text(awk(&words(&[
                r#"BEGIN { "git rev-parse HEAD" | getline h }"#
            ]))),
            "git rev-parse HEAD"
        );
        assert!(matches!(
            awk(&words(&["BEGIN{system(cmd)}"])),
            Some(Runs::Unknown(_))
        ));
        assert_eq!(awk(&words(&["{ print $1 }", "f"])), None);
        assert_eq!(awk(&words(&["$1 > 0 || $2 < 1 { print }"])), None);
        assert_eq!(
            text(sed(&words(&["1e git push origin main"]))),
            "git push origin main"
        );
        assert_eq!(
            text(sed(&words(&["-n", "-e", "/x/e git status"]))),
            "git status"
        );
        assert!(matches!(
            sed(&words(&["s/.*/date/e"])),
            Some(Runs::Unknown(_))
        ));
        assert_eq!(sed(&words(&["s/e/E/g", "f"])), None);
        assert_eq!(sed(&words(&["/begin/,/end/d"])), None);
        assert_eq!(
            text(tar(&words(&[
                "-cf",
                "x.tar",
                "--checkpoint-action=exec=git push",
                "d"
            ]))),
            "git push"
        );
        assert_eq!(
            tar(&words(&["--checkpoint-action=dot", "-xf", "a.tar"])),
            None
        );
    }
}
