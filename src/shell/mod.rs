//! Static analysis of shell command lines: what would run, in which order, with which
//! literal arguments, and what cannot be known without running it.
//!
//! [`parse`] turns a script into a tree of [`Node`]s: simple commands in execution order,
//! with subshells marked (a `cd` inside one does not leak out). Command substitutions are
//! parsed too and placed before the command that contains them, since they run first.
//! Control flow is not evaluated: every branch of an `if`, every `case` arm and every loop
//! body is taken as run once, which over-approximates what the script can do. Whatever the
//! parser cannot resolve (an unterminated quote, a too-deep nesting) is reported in
//! [`Script::problems`] rather than guessed.
//!
//! [`exec`] then says what one simple command runs, seeing through wrappers such as
//! `sudo`, `env`, `timeout`, `xargs` and `bash -c`.

mod embedded;
pub mod exec;
pub mod expand;
pub mod nested;
mod parse;
pub mod walk;
pub mod writes;

pub use parse::parse;

/// A parsed script.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    pub nodes: Vec<Node>,
    /// What could not be parsed; the nodes hold what came before it.
    pub problems: Vec<String>,
}

/// One step of a script.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Simple(SimpleCommand),
    /// Runs in a child shell: `( … )`, a member of a multi-command pipeline, a command
    /// sent to the background with `&`. Directory changes inside do not leak out.
    Subshell(Vec<Node>),
    /// `for VAR in ITEMS; do BODY; done`: the body runs once per item with VAR set to it
    /// (the items' own substitutions run before, as nodes of their own).
    For {
        var: String,
        items: Vec<Word>,
        body: Vec<Node>,
    },
}

/// A simple command: `VAR=value … word … [redirections]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimpleCommand {
    pub assignments: Vec<Assignment>,
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// Text a previous pipeline member writes to this command's stdin, when that member
    /// is an `echo`/`printf` of literal words (`echo 'git push' | bash`).
    pub piped_text: Option<PipedText>,
    /// It may not run: it is in an `if`/`case` branch, a loop or function body, or after
    /// `&&`/`||`. A variable it assigns has no one known value afterwards.
    pub conditional: bool,
}

/// What a command's stdin receives from the pipeline before it.
#[derive(Clone, Debug, PartialEq)]
pub enum PipedText {
    Known(String),
    Unknown,
}

/// `NAME=value` before a command (or alone).
#[derive(Clone, Debug, PartialEq)]
pub struct Assignment {
    pub name: String,
    pub value: Word,
}

/// One shell word after quote removal.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Word {
    /// The word as written.
    pub raw: String,
    /// The word's value when it is static text; None when it depends on the run
    /// (variables, command substitutions, `~`, brace expansion).
    pub value: Option<String>,
    /// Whether any part was quoted (a quoted word is never a keyword or an assignment).
    pub quoted: bool,
}

impl Word {
    pub fn literal(text: &str) -> Word {
        Word {
            raw: text.to_owned(),
            value: Some(text.to_owned()),
            quoted: false,
        }
    }

    /// The static value, if any.
    pub fn text(&self) -> Option<&str> {
        self.value.as_deref()
    }
}

impl crate::argv::Arg for Word {
    fn text(&self) -> Option<&str> {
        Word::text(self)
    }

    fn literal(text: &str) -> Self {
        Word::literal(text)
    }
}

/// A redirection: `[fd]op target`. Heredoc bodies are kept as their target's `body`.
#[derive(Clone, Debug, PartialEq)]
pub struct Redirect {
    pub fd: Option<u32>,
    pub op: RedirectOp,
    pub target: Word,
    /// For `<<` and `<<-`: the body, and whether it is expanded (unquoted delimiter).
    pub heredoc: Option<Heredoc>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Heredoc {
    pub body: String,
    pub expands: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedirectOp {
    /// `>`, `>|`
    Write,
    /// `>>`
    Append,
    /// `<`
    Read,
    /// `<>`
    ReadWrite,
    /// `&>` (stdout and stderr)
    WriteAll,
    /// `&>>`
    AppendAll,
    /// `>&` (duplicate, or write both when the target is not a number)
    DupOut,
    /// `<&`
    DupIn,
    /// `<<`, `<<-`
    Heredoc,
    /// `<<<`
    HereString,
}

impl Script {
    /// Every simple command, depth first, in execution order.
    pub fn simple_commands(&self) -> Vec<&SimpleCommand> {
        fn walk<'a>(nodes: &'a [Node], out: &mut Vec<&'a SimpleCommand>) {
            for n in nodes {
                match n {
                    Node::Simple(c) => out.push(c),
                    Node::Subshell(inner) => walk(inner, out),
                    Node::For { body, .. } => walk(body, out),
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.nodes, &mut out);
        out
    }
}

/// Quotes a string for a POSIX shell, so that it reads back as one word.
pub fn quote(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./-_".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}
