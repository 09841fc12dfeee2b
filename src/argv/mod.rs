//! One argument grammar for every program the guards read: a program's options are a
//! table ([`Grammar`]), and [`parse`] splits its arguments into options (by canonical
//! name, with their values) and positionals the way the program itself would.
//!
//! The rules are getopt's and git's parse-options', which agree on what matters here:
//! bundled short flags where the first one that takes a value takes the rest of the word
//! or else the next word (`-vtDIR`, `-vt DIR`, `-sSLo FILE`), `--long=value` and
//! `--long value`, `--` ending the options, and (for GNU tools and git) options after
//! positionals. Git adds unique prefixes of long options and `--no-<option>`.
//!
//! The parser is generic over the argument type ([`Arg`]): git's analysis works on
//! strings, the shell analysis on [`crate::shell::Word`]s, some of which are only known
//! when the command runs (a dynamic word is a positional, or an option's value, never an
//! option: what it would be cannot be known).

pub mod tables;

/// How an option takes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// A flag.
    Nothing,
    /// The rest of the word (`-mmsg`, `--message=msg`) or else the next word.
    Value,
    /// Only an attached value (`--force-with-lease=main`, `-S<key>`); never the next word.
    Attached,
    /// Only the next word (`git -C dir`: git refuses `-Cdir` and `-c x=y` must be two words).
    Separate,
}

/// One option: its canonical name (the long name, or the letter when there is no long
/// one), its short letter, and how it takes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opt {
    pub long: &'static str,
    pub short: Option<char>,
    pub takes: Takes,
}

pub const fn flag(long: &'static str, short: Option<char>) -> Opt {
    Opt {
        long,
        short,
        takes: Takes::Nothing,
    }
}

pub const fn value(long: &'static str, short: Option<char>) -> Opt {
    Opt {
        long,
        short,
        takes: Takes::Value,
    }
}

pub const fn attached(long: &'static str, short: Option<char>) -> Opt {
    Opt {
        long,
        short,
        takes: Takes::Attached,
    }
}

pub const fn separate(long: &'static str, short: Option<char>) -> Opt {
    Opt {
        long,
        short,
        takes: Takes::Separate,
    }
}

/// What to make of an option the table does not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// The program refuses it and does nothing (git): recorded in [`Parsed::errors`].
    Error,
    /// Taken as a flag (a file writer's many harmless options: only those that take a
    /// value, or name a target, need to be in its table).
    Flag,
}

/// A program's option grammar.
#[derive(Clone, Copy, Debug)]
pub struct Grammar {
    pub opts: &'static [Opt],
    /// Options may follow positionals (GNU, git); otherwise the first positional ends
    /// them (POSIX, and every program that runs a command: `sudo -u x git -C y`).
    pub permute: bool,
    /// Long options may be shortened to a unique prefix, and `--no-<long>` negates (git,
    /// getopt_long).
    pub abbreviate: bool,
    pub unknown: Unknown,
}

impl Grammar {
    /// A GNU tool's grammar: options anywhere, prefixes allowed, unknown options flags.
    pub const fn gnu(opts: &'static [Opt]) -> Grammar {
        Grammar {
            opts,
            permute: true,
            abbreviate: true,
            unknown: Unknown::Flag,
        }
    }

    /// Git's parse-options: like GNU, but an unknown option is refused.
    pub const fn git(opts: &'static [Opt]) -> Grammar {
        Grammar {
            opts,
            permute: true,
            abbreviate: true,
            unknown: Unknown::Error,
        }
    }

    /// A program that runs another: options end at the first positional (the command).
    pub const fn runner(opts: &'static [Opt]) -> Grammar {
        Grammar {
            opts,
            permute: false,
            abbreviate: false,
            unknown: Unknown::Flag,
        }
    }
}

/// An argument: text, or a word known only when the command runs.
pub trait Arg: Clone {
    /// The text, when it is known statically.
    fn text(&self) -> Option<&str>;
    /// An argument made of known text (the value attached to an option).
    fn literal(text: &str) -> Self;
}

impl Arg for String {
    fn text(&self) -> Option<&str> {
        Some(self)
    }

    fn literal(text: &str) -> Self {
        text.to_owned()
    }
}

/// Arguments after option parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed<A> {
    /// Options in order, by canonical name (`no-<long>` for a negation), with their value
    /// when they took one.
    pub opts: Vec<(String, Option<A>)>,
    pub positionals: Vec<A>,
    /// How many positionals came before a `--`, when there was one.
    pub dashdash: Option<usize>,
    /// Where the options ended, for a grammar that does not permute: the index in the
    /// arguments of the first positional (the command a runner runs).
    pub rest_at: usize,
    /// Options the program would reject (with [`Unknown::Error`]: unknown or ambiguous).
    pub errors: Vec<String>,
}

impl<A> Default for Parsed<A> {
    fn default() -> Self {
        Parsed {
            opts: Vec::new(),
            positionals: Vec::new(),
            dashdash: None,
            rest_at: 0,
            errors: Vec::new(),
        }
    }
}

impl<A: Arg> Parsed<A> {
    pub fn has(&self, long: &str) -> bool {
        self.opts.iter().any(|(n, _)| n == long)
    }

    /// Whether any of these options was given.
    pub fn has_any(&self, longs: &[&str]) -> bool {
        self.opts.iter().any(|(n, _)| longs.contains(&n.as_str()))
    }

    /// Whether the flag is on: set, and not negated by a later `--no-<long>`.
    pub fn on(&self, long: &str) -> bool {
        let negated = format!("no-{long}");
        self.opts
            .iter()
            .rev()
            .find(|(n, _)| n == long || *n == negated)
            .is_some_and(|(n, _)| n == long)
    }

    /// Every value given to an option, in order (as arguments: a value may be dynamic).
    pub fn args_of(&self, long: &str) -> Vec<&A> {
        self.opts
            .iter()
            .filter(|(n, _)| n == long)
            .filter_map(|(_, v)| v.as_ref())
            .collect()
    }

    /// Every known value given to an option, in order.
    pub fn values(&self, long: &str) -> Vec<&str> {
        self.args_of(long).into_iter().filter_map(A::text).collect()
    }

    /// The last value of an option.
    pub fn value(&self, long: &str) -> Option<&str> {
        self.values(long).pop()
    }

    /// The last value of an option, as an argument.
    pub fn arg(&self, long: &str) -> Option<&A> {
        self.args_of(long).pop()
    }
}

/// Splits `args` by `grammar`.
pub fn parse<A: Arg>(grammar: &Grammar, args: &[A]) -> Parsed<A> {
    let mut out = Parsed::default();
    let mut k = 0;
    while let Some(arg) = args.get(k) {
        let Some(text) = arg.text() else {
            // A word known only at run time is an argument, not an option.
            if !grammar.permute {
                break;
            }
            out.positionals.push(arg.clone());
            k += 1;
            continue;
        };
        if text == "--" {
            k += 1;
            out.dashdash = Some(out.positionals.len());
            if grammar.permute {
                out.positionals.extend(args[k..].iter().cloned());
                k = args.len();
            }
            break;
        }
        if text.len() < 2 || !text.starts_with('-') {
            if !grammar.permute {
                break;
            }
            out.positionals.push(arg.clone());
            k += 1;
            continue;
        }
        k += 1;
        if let Some(body) = text.strip_prefix("--") {
            k = long_option(grammar, body, args, k, &mut out);
        } else {
            k = short_options(grammar, text, args, k, &mut out);
        }
    }
    out.rest_at = k;
    if !grammar.permute {
        out.positionals.extend(args[k..].iter().cloned());
    }
    out
}

/// `--name`, `--name=value` or `--name value`; returns the index of the next argument.
fn long_option<A: Arg>(
    grammar: &Grammar,
    body: &str,
    args: &[A],
    mut k: usize,
    out: &mut Parsed<A>,
) -> usize {
    let (name, attached_value) = match body.split_once('=') {
        Some((n, v)) => (n, Some(A::literal(v))),
        None => (body, None),
    };
    match resolve_long(grammar, name) {
        Ok((canonical, opt)) => {
            let v = match (opt.map(|o| o.takes), attached_value) {
                (Some(Takes::Value | Takes::Separate), None) => {
                    k += 1;
                    args.get(k - 1).cloned()
                }
                (_, v) => v,
            };
            out.opts.push((canonical, v));
        }
        Err(e) => match grammar.unknown {
            Unknown::Error => out.errors.push(e),
            Unknown::Flag => out.opts.push((name.to_owned(), attached_value)),
        },
    }
    k
}

/// A bundle of short options (`-vtDIR`); returns the index of the next argument.
fn short_options<A: Arg>(
    grammar: &Grammar,
    text: &str,
    args: &[A],
    mut k: usize,
    out: &mut Parsed<A>,
) -> usize {
    for (idx, c) in text.char_indices().skip(1) {
        match grammar.opts.iter().find(|o| o.short == Some(c)) {
            Some(opt) if opt.takes == Takes::Nothing => out.opts.push((opt.long.to_owned(), None)),
            Some(opt) => {
                let rest = &text[idx + c.len_utf8()..];
                let v = match opt.takes {
                    Takes::Separate if !rest.is_empty() => {
                        out.errors
                            .push(format!("`-{c}` takes its value as the next word"));
                        None
                    }
                    _ if !rest.is_empty() => Some(A::literal(rest)),
                    Takes::Value | Takes::Separate => {
                        k += 1;
                        args.get(k - 1).cloned()
                    }
                    _ => None,
                };
                out.opts.push((opt.long.to_owned(), v));
                return k;
            }
            None => match grammar.unknown {
                Unknown::Error => {
                    out.errors.push(format!("unknown switch `{c}`"));
                    return k;
                }
                Unknown::Flag => out.opts.push((c.to_string(), None)),
            },
        }
    }
    k
}

/// Resolves a long option name: exact, else (when the grammar allows) a unique prefix;
/// `no-<name>` negates.
fn resolve_long(grammar: &Grammar, name: &str) -> Result<(String, Option<Opt>), String> {
    let longs = grammar.opts.iter().filter(|o| o.long.len() > 1);
    if let Some(o) = longs.clone().find(|o| o.long == name) {
        return Ok((o.long.to_owned(), Some(*o)));
    }
    if !grammar.abbreviate {
        return Err(format!("unknown option `--{name}`"));
    }
    let prefixed: Vec<&Opt> = longs.filter(|o| o.long.starts_with(name)).collect();
    if let [o] = prefixed.as_slice() {
        return Ok((o.long.to_owned(), Some(**o)));
    }
    if let Some(positive) = name.strip_prefix("no-") {
        if let Ok((canonical, _)) = resolve_long(grammar, positive) {
            return Ok((format!("no-{canonical}"), None));
        }
    }
    if prefixed.len() > 1 {
        return Err(format!("ambiguous option `--{name}`"));
    }
    Err(format!("unknown option `--{name}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CP: Grammar = Grammar::gnu(&[
        value("target-directory", Some('t')),
        value("suffix", Some('S')),
        flag("recursive", Some('r')),
    ]);

    fn p(g: &Grammar, args: &str) -> Parsed<String> {
        parse(
            g,
            &args
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn bundles_take_the_rest_or_the_next_word() {
        for args in [
            "-vt /x a b",
            "-vt/x a b",
            "--target-directory=/x a b",
            "--target /x a b",
            "a -vrt /x b",
        ] {
            let parsed = p(&CP, args);
            assert_eq!(parsed.value("target-directory"), Some("/x"), "{args}");
            assert_eq!(parsed.positionals, ["a", "b"], "{args}");
        }
        let parsed = p(&CP, "-vr a b");
        assert!(parsed.has("v") && parsed.has("recursive"));
    }

    #[test]
    fn dashdash_ends_options_and_runners_stop_at_the_command() {
        let parsed = p(&CP, "a -- -t b");
        assert_eq!(parsed.positionals, ["a", "-t", "b"]);
        assert_eq!(parsed.dashdash, Some(1));
        const SUDO: Grammar = Grammar::runner(&[value("user", Some('u'))]);
        for args in [
            "-u root git -C x push",
            "-uroot git -C x push",
            "-Eu root -- git -C x push",
        ] {
            let parsed = p(&SUDO, args);
            assert_eq!(parsed.value("user"), Some("root"), "{args}");
            assert_eq!(parsed.positionals, ["git", "-C", "x", "push"], "{args}");
        }
        assert_eq!(p(&SUDO, "-u root git").rest_at, 2);
    }

    #[test]
    fn git_rules_prefixes_negations_and_refusals() {
        const G: Grammar = Grammar::git(&[
            flag("force", Some('f')),
            flag("force-with-lease", None),
            separate("C", Some('C')),
        ]);
        assert!(p(&G, "--no-force").has("no-force"));
        assert!(!p(&G, "--fo").errors.is_empty(), "ambiguous");
        assert!(p(&G, "--force-w").has("force-with-lease"));
        assert!(!p(&G, "-x").errors.is_empty());
        assert!(
            !p(&G, "-Cdir").errors.is_empty(),
            "-C takes a separate word"
        );
        assert_eq!(p(&G, "-C dir").value("C"), Some("dir"));
    }
}
