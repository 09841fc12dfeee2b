//! A recursive-descent parser for the subset of bash grammar that decides what runs:
//! lists and pipelines, subshells and groups, `if`/`while`/`until`/`for`/`select`/`case`,
//! function bodies, quoting (`'…'`, `"…"`, `$'…'`, backslashes), command substitution
//! (`$( … )`, backticks), parameter and arithmetic expansion (recognized, not evaluated),
//! redirections and heredocs.
//!
//! It works on bytes: every byte the grammar cares about is ASCII, so splitting there
//! never cuts a UTF-8 character. Its cost is linear in the input.

use super::{
    Assignment, Heredoc, Node, PipedText, Redirect, RedirectOp, Script, SimpleCommand, Word,
};

/// Nesting deeper than this (substitutions in substitutions, subshells in subshells) is
/// reported as a problem instead of followed: it is never needed by a real command, and
/// an adversarial input must not exhaust the stack.
pub const MAX_DEPTH: usize = 32;

/// Parses a script.
pub fn parse(src: &str) -> Script {
    parse_at_depth(src, 0)
}

pub(crate) fn parse_at_depth(src: &str, depth: usize) -> Script {
    let mut p = Parser {
        s: src.as_bytes(),
        i: 0,
        depth,
        problems: Vec::new(),
        fatal: false,
        heredoc_skip: None,
        conditional: 0,
    };
    if depth > MAX_DEPTH {
        p.fail(format!(
            "commands are nested more than {MAX_DEPTH} levels deep"
        ));
        return Script {
            nodes: Vec::new(),
            problems: p.problems,
        };
    }
    let nodes = p.parse_list(&[], false);
    if !p.fatal && p.i < p.s.len() {
        let rest = String::from_utf8_lossy(&p.s[p.i..p.s.len().min(p.i + 20)]).into_owned();
        p.fail(format!("unexpected text at byte {}: {rest:?}", p.i));
    }
    Script {
        nodes,
        problems: p.problems,
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
    problems: Vec<String>,
    /// Set by an error after which nothing more can be parsed reliably.
    fatal: bool,
    /// How many conditional regions enclose the current position (see
    /// [`SimpleCommand::conditional`]).
    conditional: usize,
    /// Heredoc bodies follow the line of their `<<`: when the parser consumes the newline
    /// at `.0`, it continues at `.1`, after the bodies.
    heredoc_skip: Option<(usize, usize)>,
}

fn is_meta(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'
    )
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// Moves past `n` bytes, never past the end: an escape at the very end of the input
    /// (`"\`) must leave the position at the end, where the slices taken from it hold.
    fn skip(&mut self, n: usize) {
        self.i = (self.i + n).min(self.s.len());
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }

    fn starts_with(&self, text: &str) -> bool {
        self.s[self.i..].starts_with(text.as_bytes())
    }

    fn fail(&mut self, problem: String) {
        self.problems.push(problem);
        self.fatal = true;
    }

    fn eat_newline(&mut self) {
        let at = self.i;
        self.i += 1;
        if let Some((nl, resume)) = self.heredoc_skip {
            if nl == at {
                self.i = resume;
                self.heredoc_skip = None;
            }
        }
    }

    /// Skips blanks, line continuations and comments; newlines too when `newlines`.
    fn skip_blank(&mut self, newlines: bool) {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\\' if self.peek_at(1) == Some(b'\n') => self.i += 2,
                b'\n' if newlines => self.eat_newline(),
                b'#' => {
                    while self.peek().is_some_and(|b| b != b'\n') {
                        self.i += 1;
                    }
                }
                _ => break,
            }
        }
    }

    /// The bare word at the cursor if it is one of `words` (an unquoted keyword followed
    /// by a delimiter), without consuming it.
    /// Skips the NAME of `coproc NAME { …; }` / `coproc NAME ( … )`: a word followed by
    /// a group. A word followed by anything else is the command itself.
    fn skip_coproc_name(&mut self) {
        let rest = &self.s[self.i..];
        let end = rest.iter().position(|&b| is_meta(b)).unwrap_or(rest.len());
        if end == 0 {
            return;
        }
        let after = rest[end..]
            .iter()
            .position(|&b| b != b' ' && b != b'\t')
            .map(|k| end + k);
        let group_follows = after.is_some_and(|k| {
            rest[k] == b'(' || (rest[k] == b'{' && rest.get(k + 1).is_none_or(|&b| is_meta(b)))
        });
        if group_follows {
            self.i += end;
            self.skip_blank(false);
        }
    }

    fn keyword(&self, words: &[&'static str]) -> Option<&'static str> {
        let rest = &self.s[self.i..];
        let end = rest.iter().position(|&b| is_meta(b)).unwrap_or(rest.len());
        let word = &rest[..end];
        words.iter().copied().find(|k| k.as_bytes() == word)
    }

    fn expect_keyword(&mut self, k: &'static str) -> bool {
        self.skip_blank(true);
        if self.keyword(&[k]).is_some() {
            self.i += k.len();
            true
        } else {
            if !self.fatal {
                self.fail(format!("expected `{k}` at byte {}", self.i));
            }
            false
        }
    }

    fn enter(&mut self) -> bool {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            if !self.fatal {
                self.fail(format!(
                    "commands are nested more than {MAX_DEPTH} levels deep"
                ));
            }
            return false;
        }
        true
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// A list of pipelines up to EOF, a `)` (when `paren`), or one of `terms` at command
    /// position; the terminator is not consumed.
    /// Runs `f` with the commands it parses marked conditional when `when` holds.
    fn conditionally<T>(&mut self, when: bool, f: impl FnOnce(&mut Self) -> T) -> T {
        self.conditional += usize::from(when);
        let out = f(self);
        self.conditional -= usize::from(when);
        out
    }

    fn parse_list(&mut self, terms: &[&'static str], paren: bool) -> Vec<Node> {
        let mut nodes = Vec::new();
        // The pipeline after `&&` or `||` runs only when the one before it succeeded (or
        // failed).
        let mut after_and_or = false;
        loop {
            // Every round consumes input or ends the list; a round that does neither is
            // text no rule takes (`;;` outside a case), which the guard must not spin on.
            let round_start = self.i;
            self.skip_blank(true);
            while self.peek() == Some(b';') && !self.starts_with(";;") && !self.starts_with(";&") {
                self.i += 1;
                self.skip_blank(true);
            }
            if self.fatal {
                break;
            }
            match self.peek() {
                None => break,
                Some(b')') if paren => break,
                Some(b')') => {
                    self.fail(format!("unbalanced `)` at byte {}", self.i));
                    break;
                }
                _ => {}
            }
            if (self.starts_with(";;") || self.starts_with(";&")) && terms.contains(&";;") {
                break;
            }
            if self.keyword(terms).is_some() {
                break;
            }
            let pipeline = self.conditionally(after_and_or, |p| p.parse_pipeline(terms));
            after_and_or = false;
            self.skip_blank(false);
            let background =
                self.peek() == Some(b'&') && !self.starts_with("&&") && !self.starts_with("&>");
            if background {
                self.i += 1;
                nodes.push(Node::Subshell(pipeline));
            } else {
                nodes.extend(pipeline);
            }
            if self.starts_with("&&") || self.starts_with("||") {
                self.i += 2;
                after_and_or = true;
            } else if self.peek() == Some(b';')
                && !self.starts_with(";;")
                && !self.starts_with(";&")
            {
                self.i += 1;
            } else if self.peek() == Some(b'\n') {
                self.eat_newline();
            } else if !background {
                // A terminator, EOF, or something the next round reports.
                match self.peek() {
                    None | Some(b')') => {}
                    _ if self.starts_with(";;") || self.starts_with(";&") => {}
                    _ if self.keyword(terms).is_some() => {}
                    Some(b) => {
                        self.fail(format!("unexpected `{}` at byte {}", b as char, self.i));
                    }
                }
            }
            if self.i == round_start && !self.fatal {
                let what = self
                    .peek()
                    .map_or("end of input".to_owned(), |b| format!("`{}`", b as char));
                self.fail(format!("unexpected {what} at byte {}", self.i));
            }
        }
        nodes
    }

    fn parse_pipeline(&mut self, terms: &[&'static str]) -> Vec<Node> {
        self.skip_blank(false);
        if self.keyword(&["!"]).is_some() {
            self.i += 1;
            self.skip_blank(false);
        }
        // `time [-p] pipeline`: a reserved word, so what follows may be a group.
        if self.keyword(&["time"]).is_some() {
            self.i += "time".len();
            self.skip_blank(false);
            if self.keyword(&["-p"]).is_some() {
                self.i += 2;
                self.skip_blank(false);
            }
        }
        let mut stages = vec![self.parse_command(terms)];
        while self.peek() == Some(b'|') && !self.starts_with("||") && !self.fatal {
            self.i += if self.starts_with("|&") { 2 } else { 1 };
            self.skip_blank(true);
            stages.push(self.parse_command(terms));
        }
        if stages.len() == 1 {
            return stages.pop().unwrap_or_default();
        }
        for k in 1..stages.len() {
            let text = piped_text(&stages[k - 1]);
            if let [Node::Simple(cmd)] = stages[k].as_mut_slice() {
                cmd.piped_text = Some(text);
            }
        }
        stages.into_iter().map(Node::Subshell).collect()
    }

    fn parse_command(&mut self, terms: &[&'static str]) -> Vec<Node> {
        self.skip_blank(false);
        if self.fatal {
            return Vec::new();
        }
        // `coproc [NAME] compound` or `coproc simple-command`: the command runs (in the
        // background) like any other.
        if self.keyword(&["coproc"]).is_some() {
            self.i += "coproc".len();
            self.skip_blank(false);
            self.skip_coproc_name();
            return self.parse_command(terms);
        }
        if self.starts_with("((") {
            let mut nodes = Vec::new();
            self.skip_balanced_parens_running_substitutions(&mut nodes);
            return self.trailing_redirects(nodes);
        }
        if self.peek() == Some(b'(') {
            self.i += 1;
            if !self.enter() {
                return Vec::new();
            }
            let inner = self.parse_list(&[], true);
            self.leave();
            if self.peek() == Some(b')') {
                self.i += 1;
            } else if !self.fatal {
                self.fail("unterminated `(`: no matching `)`".into());
            }
            return self.trailing_redirects(vec![Node::Subshell(inner)]);
        }
        let compound = [
            "{", "if", "while", "until", "for", "select", "case", "function",
        ];
        let Some(k) = self.keyword(&compound) else {
            return self.parse_simple(terms);
        };
        self.i += k.len();
        if !self.enter() {
            return Vec::new();
        }
        let mut nodes = Vec::new();
        let mut if_round = 0usize;
        match k {
            "{" => {
                nodes = self.parse_list(&["}"], false);
                self.expect_keyword("}");
            }
            "if" => loop {
                // The first condition always runs; what follows it may not.
                let first = if_round == 0;
                if_round += 1;
                let cond = self.conditionally(!first, |p| p.parse_list(&["then"], false));
                nodes.extend(cond);
                if !self.expect_keyword("then") {
                    break;
                }
                let body =
                    self.conditionally(true, |p| p.parse_list(&["elif", "else", "fi"], false));
                nodes.extend(body);
                self.skip_blank(true);
                match self.keyword(&["elif", "else", "fi"]) {
                    Some("elif") => self.i += 4,
                    Some("else") => {
                        self.i += 4;
                        let body = self.conditionally(true, |p| p.parse_list(&["fi"], false));
                        nodes.extend(body);
                        self.expect_keyword("fi");
                        break;
                    }
                    Some(_) => {
                        self.i += 2;
                        break;
                    }
                    None => {
                        self.expect_keyword("fi");
                        break;
                    }
                }
            },
            "while" | "until" => {
                nodes.extend(self.parse_list(&["do"], false));
                if self.expect_keyword("do") {
                    let body = self.conditionally(true, |p| p.parse_list(&["done"], false));
                    nodes.extend(body);
                    self.expect_keyword("done");
                }
            }
            "for" | "select" => {
                self.skip_blank(false);
                // `for NAME in WORDS`: the loop the walker can unroll; anything else
                // (`for ((…))`, `for NAME` over "$@", `select`) runs its body once with
                // the variable unknown.
                let mut unrollable: Option<(String, Vec<Word>)> = None;
                if self.starts_with("((") {
                    self.skip_balanced_parens();
                } else {
                    let name = self.parse_word(&mut nodes);
                    self.skip_blank(true);
                    if self.keyword(&["in"]).is_some() {
                        self.i += 2;
                        let mut items = Vec::new();
                        loop {
                            self.skip_blank(false);
                            match self.peek() {
                                None | Some(b';') | Some(b'\n') => break,
                                _ if self.fatal => break,
                                _ => items.push(self.parse_word(&mut nodes)),
                            }
                        }
                        let valid = name.text().is_some_and(|n| {
                            n.bytes().next().is_some_and(is_name_start) && n.bytes().all(is_name)
                        });
                        if k == "for" && valid && !name.quoted {
                            unrollable = Some((name.raw.clone(), items));
                        }
                    }
                }
                self.skip_blank(true);
                while self.peek() == Some(b';') {
                    self.i += 1;
                    self.skip_blank(true);
                }
                if self.expect_keyword("do") {
                    let body = self.conditionally(true, |p| p.parse_list(&["done"], false));
                    self.expect_keyword("done");
                    match unrollable {
                        Some((var, items)) => nodes.push(Node::For { var, items, body }),
                        None => nodes.extend(body),
                    }
                }
            }
            "case" => {
                self.skip_blank(false);
                self.parse_word(&mut nodes);
                if self.expect_keyword("in") {
                    loop {
                        self.skip_blank(true);
                        if self.fatal || self.peek().is_none() {
                            self.expect_keyword("esac");
                            break;
                        }
                        if self.keyword(&["esac"]).is_some() {
                            self.i += 4;
                            break;
                        }
                        if self.peek() == Some(b'(') {
                            self.i += 1;
                        }
                        // Patterns up to `)`.
                        loop {
                            self.skip_blank(true);
                            match self.peek() {
                                Some(b')') => {
                                    self.i += 1;
                                    break;
                                }
                                Some(b'|') => self.i += 1,
                                None => {
                                    self.fail("unterminated case pattern".into());
                                    break;
                                }
                                _ if self.fatal => break,
                                _ => {
                                    let before = self.i;
                                    self.parse_word(&mut nodes);
                                    if self.i == before {
                                        self.fail(format!(
                                            "unexpected `{}` in a case pattern",
                                            self.s[self.i] as char
                                        ));
                                    }
                                }
                            }
                        }
                        let arm =
                            self.conditionally(true, |p| p.parse_list(&[";;", "esac"], false));
                        nodes.extend(arm);
                        for op in [";;&", ";;", ";&"] {
                            if self.starts_with(op) {
                                self.i += op.len();
                                break;
                            }
                        }
                    }
                }
            }
            "function" => {
                self.skip_blank(false);
                self.parse_word(&mut nodes);
                self.skip_blank(false);
                if self.starts_with("()") {
                    self.i += 2;
                }
                self.skip_blank(true);
                let body = self.conditionally(true, |p| p.parse_command(terms));
                nodes.extend(body);
            }
            _ => unreachable!("every compound keyword is handled"),
        }
        self.leave();
        self.trailing_redirects(nodes)
    }

    /// Redirections after a compound command (`done > log`, `} > out`) apply to all of
    /// it: they are kept as a command of their own (no words, only redirections), so what
    /// they write is seen; substitutions in them run first.
    fn trailing_redirects(&mut self, mut nodes: Vec<Node>) -> Vec<Node> {
        let mut redirects = Vec::new();
        loop {
            self.skip_blank(false);
            if self.fatal || !self.at_redirect() {
                break;
            }
            let mut pre = Vec::new();
            redirects.extend(self.parse_redirect(&mut pre));
            nodes.splice(0..0, pre);
        }
        if !redirects.is_empty() {
            nodes.push(Node::Simple(SimpleCommand {
                redirects,
                ..SimpleCommand::default()
            }));
        }
        nodes
    }

    fn at_redirect(&self) -> bool {
        let rest = &self.s[self.i..];
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        // `<(…)` and `>(…)` are process substitutions, words rather than redirections.
        let process_substitution = digits == 0 && rest.get(1) == Some(&b'(');
        (matches!(rest.get(digits), Some(b'<' | b'>')) && !process_substitution)
            || rest.starts_with(b"&>")
    }

    fn parse_simple(&mut self, terms: &[&'static str]) -> Vec<Node> {
        let mut cmd = SimpleCommand::default();
        let mut pre = Vec::new();
        loop {
            self.skip_blank(false);
            if self.fatal {
                break;
            }
            let Some(b) = self.peek() else { break };
            if cmd.words.first().is_some_and(|w| w.raw == "[[")
                && !cmd.words.iter().any(|w| w.raw == "]]")
                && matches!(b, b'<' | b'>')
            {
                // Inside `[[ … ]]`, `<` and `>` compare strings.
                self.i += 1;
                cmd.words
                    .push(Word::literal(if b == b'<' { "<" } else { ">" }));
                continue;
            }
            if self.at_redirect() {
                let r = self.parse_redirect(&mut pre);
                cmd.redirects.extend(r);
                continue;
            }
            match b {
                b'\n' | b';' | b'&' | b'|' | b')' => break,
                b'(' => {
                    // `name() { …; }`: a function definition. Its body is analyzed where
                    // it is defined: whatever it runs, the script may run.
                    if cmd.words.len() == 1 && self.starts_with("()") {
                        self.i += 2;
                        self.skip_blank(true);
                        let body = self.conditionally(true, |p| p.parse_command(terms));
                        pre.extend(body);
                        return pre;
                    }
                    if cmd.words.is_empty() && cmd.assignments.is_empty() {
                        break;
                    }
                    self.fail(format!("unexpected `(` at byte {}", self.i));
                    break;
                }
                _ => {
                    let word = self.parse_word(&mut pre);
                    match assignment(&word) {
                        Some(a) if cmd.words.is_empty() => cmd.assignments.push(a),
                        _ => cmd.words.push(word),
                    }
                }
            }
        }
        if !cmd.words.is_empty() || !cmd.assignments.is_empty() || !cmd.redirects.is_empty() {
            cmd.conditional = self.conditional > 0;
            pre.push(Node::Simple(cmd));
        }
        pre
    }

    fn parse_redirect(&mut self, pre: &mut Vec<Node>) -> Option<Redirect> {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
        let fd = std::str::from_utf8(&self.s[start..self.i])
            .ok()
            .and_then(|d| d.parse().ok());
        let ops: [(&str, RedirectOp); 12] = [
            ("<<<", RedirectOp::HereString),
            ("<<-", RedirectOp::Heredoc),
            ("<<", RedirectOp::Heredoc),
            ("<>", RedirectOp::ReadWrite),
            ("<&", RedirectOp::DupIn),
            ("<", RedirectOp::Read),
            ("&>>", RedirectOp::AppendAll),
            ("&>", RedirectOp::WriteAll),
            (">>", RedirectOp::Append),
            (">|", RedirectOp::Write),
            (">&", RedirectOp::DupOut),
            (">", RedirectOp::Write),
        ];
        let (text, op) = ops.into_iter().find(|(t, _)| self.starts_with(t))?;
        self.i += text.len();
        self.skip_blank(false);
        let target = self.parse_word(pre);
        if target.raw.is_empty() && !self.fatal {
            self.fail(format!("`{text}` at byte {} has no target", self.i));
            return None;
        }
        let heredoc =
            (op == RedirectOp::Heredoc).then(|| self.read_heredoc(&target, text == "<<-", pre));
        Some(Redirect {
            fd,
            op,
            target,
            heredoc,
        })
    }

    /// Reads the body of a heredoc whose delimiter is `delim`; the body starts on the line
    /// after the current one (after earlier heredocs of the same line).
    fn read_heredoc(&mut self, delim: &Word, strip_tabs: bool, pre: &mut Vec<Node>) -> Heredoc {
        let expands = !delim.quoted;
        let delimiter = unquote_delimiter(&delim.raw);
        let nl = match self.s[self.i..].iter().position(|&b| b == b'\n') {
            Some(k) => self.i + k,
            None => {
                self.problems
                    .push(format!("the heredoc `{}` has no body", delimiter));
                return Heredoc {
                    body: String::new(),
                    expands,
                };
            }
        };
        let mut at = match self.heredoc_skip {
            Some((n, resume)) if n == nl => resume,
            _ => nl + 1,
        };
        let mut body = Vec::new();
        let mut closed = false;
        while at < self.s.len() {
            let end = self.s[at..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(self.s.len(), |k| at + k);
            let mut line = &self.s[at..end];
            if strip_tabs {
                while let [b'\t', rest @ ..] = line {
                    line = rest;
                }
            }
            at = (end + 1).min(self.s.len());
            if line == delimiter.as_bytes()
                || line.strip_suffix(b"\r") == Some(delimiter.as_bytes())
            {
                closed = true;
                break;
            }
            body.extend_from_slice(line);
            body.push(b'\n');
        }
        if !closed {
            self.problems
                .push(format!("the heredoc `{delimiter}` is not closed"));
        }
        self.heredoc_skip = Some((nl, at.max(nl + 1)));
        let body = String::from_utf8_lossy(&body).into_owned();
        if expands {
            pre.push(Node::Subshell(substitutions_in(
                &body,
                self.depth + 1,
                &mut self.problems,
            )));
        }
        Heredoc { body, expands }
    }

    /// Skips `(( … ))` (or `$(( … ))` from its first `(`), counting parentheses.
    /// Command substitutions in `s[start..end]` (a `${…}` or `$((…))` body, which the
    /// shell expands before it uses the value), added to `pre`.
    fn substitutions_between(&mut self, start: usize, end: usize, pre: &mut Vec<Node>) {
        let body = String::from_utf8_lossy(&self.s[start..end.max(start)]).into_owned();
        if body.contains("$(") || body.contains('`') {
            pre.push(Node::Subshell(substitutions_in(
                &body,
                self.depth + 1,
                &mut self.problems,
            )));
        }
    }

    /// [`Self::skip_balanced_parens`], keeping the command substitutions inside.
    fn skip_balanced_parens_running_substitutions(&mut self, pre: &mut Vec<Node>) {
        let start = self.i;
        self.skip_balanced_parens();
        self.substitutions_between(start, self.i, pre);
    }

    fn skip_balanced_parens(&mut self) {
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            self.i += 1;
            match b {
                b'(' => depth += 1,
                b')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
        self.fail("unterminated `((`".into());
    }

    /// One word; command substitutions inside it are parsed and their commands appended
    /// to `pre` (they run before the command that holds the word).
    fn parse_word(&mut self, pre: &mut Vec<Node>) -> Word {
        let start = self.i;
        let mut value: Vec<u8> = Vec::new();
        let mut dynamic = false;
        let mut quoted = false;
        while let Some(b) = self.peek() {
            if self.fatal {
                break;
            }
            match b {
                b'<' | b'>' if self.peek_at(1) == Some(b'(') => {
                    // `<(cmd)` / `>(cmd)`: cmd runs; the word is a /dev/fd path.
                    self.i += 2;
                    dynamic = true;
                    if !self.enter() {
                        break;
                    }
                    // A substitution runs in a subshell: its `cd` and assignments stay there.
                    let inner = self.parse_list(&[], true);
                    pre.push(Node::Subshell(inner));
                    self.leave();
                    if self.peek() == Some(b')') {
                        self.i += 1;
                    } else if !self.fatal {
                        self.fail("unterminated process substitution: no matching `)`".into());
                    }
                }
                _ if is_meta(b) => {
                    // `NAME=(a b)`: an array assignment; its elements do not run.
                    if b == b'(' && is_assignment_prefix(&self.s[start..self.i]) {
                        self.skip_balanced_parens();
                        dynamic = true;
                        continue;
                    }
                    break;
                }
                b'\\' => {
                    self.i += 1;
                    match self.peek() {
                        Some(b'\n') => self.i += 1,
                        Some(_) => {
                            quoted = true;
                            let len = utf8_len(self.s[self.i]);
                            value.extend_from_slice(
                                &self.s[self.i..(self.i + len).min(self.s.len())],
                            );
                            self.i += len;
                        }
                        None => {}
                    }
                }
                b'\'' => {
                    quoted = true;
                    self.i += 1;
                    match self.s[self.i..].iter().position(|&c| c == b'\'') {
                        Some(k) => {
                            value.extend_from_slice(&self.s[self.i..self.i + k]);
                            self.i += k + 1;
                        }
                        None => self.fail(format!(
                            "unterminated single quote starting at byte {}",
                            self.i - 1
                        )),
                    }
                }
                b'"' => {
                    quoted = true;
                    self.i += 1;
                    self.parse_double_quoted(&mut value, &mut dynamic, pre);
                }
                b'$' => match self.peek_at(1) {
                    Some(b'\'') => {
                        quoted = true;
                        self.i += 2;
                        self.parse_ansi_c(&mut value);
                    }
                    Some(b'"') => {
                        self.i += 1;
                    }
                    _ => self.parse_dollar(&mut value, &mut dynamic, pre),
                },
                b'`' => {
                    self.parse_backticks(pre);
                    dynamic = true;
                }
                // bash expands `~` at a word's start, and after the `=` (or a `:` in the
                // value) of a word that looks like an assignment (`of=~/x`, `P=a:~/b`).
                b'~' if self.i == start || tilde_after_assignment(&self.s[start..self.i]) => {
                    dynamic = true;
                    value.push(b);
                    self.i += 1;
                }
                b'{' if brace_expansion(&self.s[self.i..]) => {
                    dynamic = true;
                    value.push(b);
                    self.i += 1;
                }
                _ => {
                    value.push(b);
                    self.i += 1;
                }
            }
        }
        // A word cut short by an error (an unterminated quote) has no reliable value.
        let dynamic = dynamic || self.fatal;
        Word {
            raw: String::from_utf8_lossy(&self.s[start..self.i]).into_owned(),
            value: (!dynamic).then(|| String::from_utf8_lossy(&value).into_owned()),
            quoted,
        }
    }

    fn parse_double_quoted(
        &mut self,
        value: &mut Vec<u8>,
        dynamic: &mut bool,
        pre: &mut Vec<Node>,
    ) {
        loop {
            let Some(b) = self.peek() else {
                self.fail("unterminated double quote".into());
                return;
            };
            match b {
                b'"' => {
                    self.i += 1;
                    return;
                }
                b'\\' => {
                    match self.peek_at(1) {
                        Some(c @ (b'$' | b'`' | b'"' | b'\\')) => value.push(c),
                        Some(b'\n') => {}
                        Some(c) => value.extend_from_slice(&[b'\\', c]),
                        None => {}
                    }
                    self.skip(2);
                }
                b'$' => self.parse_dollar(value, dynamic, pre),
                b'`' => {
                    self.parse_backticks(pre);
                    *dynamic = true;
                }
                b'\n' => {
                    value.push(b);
                    self.eat_newline_in_word();
                }
                _ => {
                    value.push(b);
                    self.i += 1;
                }
            }
            if self.fatal {
                return;
            }
        }
    }

    /// A newline inside quotes is text, not a line end: heredoc bodies still start after
    /// the line's real end, so no skip applies here.
    fn eat_newline_in_word(&mut self) {
        self.i += 1;
    }

    /// `$…` outside single quotes: `$( … )`, `$(( … ))`, `${ … }`, `$name`, or a lone `$`.
    fn parse_dollar(&mut self, value: &mut Vec<u8>, dynamic: &mut bool, pre: &mut Vec<Node>) {
        match self.peek_at(1) {
            Some(b'(') if self.peek_at(2) == Some(b'(') => {
                self.i += 1;
                self.skip_balanced_parens_running_substitutions(pre);
                *dynamic = true;
            }
            Some(b'(') => {
                self.i += 2;
                *dynamic = true;
                if !self.enter() {
                    return;
                }
                // A substitution runs in a subshell: its `cd` and assignments stay there.
                let inner = self.parse_list(&[], true);
                pre.push(Node::Subshell(inner));
                self.leave();
                if self.peek() == Some(b')') {
                    self.i += 1;
                } else if !self.fatal {
                    self.fail("unterminated `$(`: no matching `)`".into());
                }
            }
            Some(b'{') => {
                self.i += 2;
                *dynamic = true;
                let start = self.i;
                let mut depth = 1;
                while let Some(b) = self.peek() {
                    self.i += 1;
                    match b {
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                // `${X:-$(cmd)}` runs cmd.
                                self.substitutions_between(start, self.i - 1, pre);
                                return;
                            }
                        }
                        b'\\' => self.skip(1),
                        _ => {}
                    }
                }
                self.fail("unterminated `${`".into());
            }
            Some(c) if is_name_start(c) => {
                self.i += 1;
                while self.peek().is_some_and(is_name) {
                    self.i += 1;
                }
                *dynamic = true;
            }
            Some(c) if c.is_ascii_digit() || b"@*#?$!-".contains(&c) => {
                self.i += 2;
                *dynamic = true;
            }
            _ => {
                value.push(b'$');
                self.i += 1;
            }
        }
    }

    fn parse_backticks(&mut self, pre: &mut Vec<Node>) {
        self.i += 1;
        let mut text = Vec::new();
        loop {
            match self.peek() {
                None => {
                    self.fail("unterminated backquote".into());
                    return;
                }
                Some(b'`') => {
                    self.i += 1;
                    break;
                }
                Some(b'\\') if matches!(self.peek_at(1), Some(b'`' | b'\\' | b'$')) => {
                    text.push(self.s[self.i + 1]);
                    self.i += 2;
                }
                Some(b) => {
                    text.push(b);
                    self.i += 1;
                }
            }
        }
        let inner = parse_at_depth(&String::from_utf8_lossy(&text), self.depth + 1);
        if !inner.problems.is_empty() {
            self.problems.extend(inner.problems);
            self.fatal = true;
        }
        pre.push(Node::Subshell(inner.nodes));
    }

    fn parse_ansi_c(&mut self, value: &mut Vec<u8>) {
        loop {
            let Some(b) = self.peek() else {
                self.fail("unterminated $'…' quote".into());
                return;
            };
            self.i += 1;
            match b {
                b'\'' => return,
                b'\\' => {
                    let Some(c) = self.peek() else { continue };
                    self.i += 1;
                    match c {
                        b'n' => value.push(b'\n'),
                        b't' => value.push(b'\t'),
                        b'r' => value.push(b'\r'),
                        b'a' => value.push(7),
                        b'b' => value.push(8),
                        b'e' | b'E' => value.push(27),
                        b'f' => value.push(12),
                        b'v' => value.push(11),
                        b'x' => {
                            let hex: Vec<u8> = self.s[self.i..]
                                .iter()
                                .take(2)
                                .take_while(|c| c.is_ascii_hexdigit())
                                .copied()
                                .collect();
                            self.i += hex.len();
                            let n =
                                u8::from_str_radix(std::str::from_utf8(&hex).unwrap_or("0"), 16)
                                    .unwrap_or(0);
                            value.push(n);
                        }
                        b'0'..=b'7' => {
                            let mut n = u32::from(c - b'0');
                            for _ in 0..2 {
                                match self.peek() {
                                    Some(d @ b'0'..=b'7') => {
                                        n = n * 8 + u32::from(d - b'0');
                                        self.i += 1;
                                    }
                                    _ => break,
                                }
                            }
                            value.push((n & 0xff) as u8);
                        }
                        other => value.push(other),
                    }
                }
                other => value.push(other),
            }
        }
    }
}

/// Command substitutions inside an expanding heredoc body (they run when it is read).
fn substitutions_in(body: &str, depth: usize, problems: &mut Vec<String>) -> Vec<Node> {
    let mut p = Parser {
        s: body.as_bytes(),
        i: 0,
        depth,
        problems: Vec::new(),
        fatal: false,
        heredoc_skip: None,
        conditional: 0,
    };
    let mut nodes = Vec::new();
    let mut scratch = Vec::new();
    let mut dynamic = false;
    while let Some(b) = p.peek() {
        if p.fatal {
            break;
        }
        match b {
            b'\\' => p.skip(2),
            b'$' => p.parse_dollar(&mut scratch, &mut dynamic, &mut nodes),
            b'`' => p.parse_backticks(&mut nodes),
            _ => p.i += 1,
        }
    }
    problems.extend(p.problems);
    nodes
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xf0..=0xff => 4,
        0xe0..=0xef => 3,
        0xc0..=0xdf => 2,
        _ => 1,
    }
}

/// Whether `~` after this word text starts a tilde prefix, as bash reads `NAME=~…` and
/// `NAME=…:~…` (unquoted).
fn tilde_after_assignment(raw: &[u8]) -> bool {
    let Some(eq) = raw.iter().position(|&b| b == b'=') else {
        return false;
    };
    let name = raw[..eq].strip_suffix(b"+").unwrap_or(&raw[..eq]);
    !name.is_empty()
        && is_name_start(name[0])
        && name.iter().all(|&b| is_name(b))
        && matches!(raw.last(), Some(b'=' | b':'))
        && !raw[eq..].iter().any(|&b| matches!(b, b'\'' | b'"' | b'\\'))
}

fn is_assignment_prefix(raw: &[u8]) -> bool {
    let Some(eq) = raw.iter().position(|&b| b == b'=') else {
        return false;
    };
    let name = raw[..eq].strip_suffix(b"+").unwrap_or(&raw[..eq]);
    eq + 1 == raw.len()
        && !name.is_empty()
        && is_name_start(name[0])
        && name.iter().all(|&b| is_name(b))
}

/// `NAME=value` (or `NAME+=value`) with an unquoted name.
fn assignment(word: &Word) -> Option<Assignment> {
    let eq = word.raw.find('=')?;
    let name = word.raw[..eq].strip_suffix('+').unwrap_or(&word.raw[..eq]);
    let bytes = name.as_bytes();
    if bytes.is_empty() || !is_name_start(bytes[0]) || !bytes.iter().all(|&b| is_name(b)) {
        return None;
    }
    let prefix_len = eq + 1;
    let value = word
        .value
        .as_ref()
        .map(|v| v[prefix_len.min(v.len())..].to_owned());
    Some(Assignment {
        name: name.to_owned(),
        value: Word {
            raw: word.raw[prefix_len..].to_owned(),
            value,
            quoted: word.quoted,
        },
    })
}

/// Whether `{` starts a brace expansion (`{a,b}` or `{1..3}`) in the rest of the word.
fn brace_expansion(rest: &[u8]) -> bool {
    let end = rest.iter().position(|&b| b == b'}' || is_meta(b));
    match end {
        Some(k) if rest[k] == b'}' => {
            let inner = &rest[1..k];
            inner.contains(&b',') || inner.windows(2).any(|w| w == b"..")
        }
        _ => false,
    }
}

fn unquote_delimiter(raw: &str) -> String {
    raw.chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .collect()
}

/// What a pipeline stage writes to the next one, when it is an echo/printf of literal
/// words or a `cat` of a heredoc.
fn piped_text(stage: &[Node]) -> PipedText {
    let [Node::Simple(cmd)] = stage else {
        return PipedText::Unknown;
    };
    let words: Option<Vec<&str>> = cmd.words.iter().map(Word::text).collect();
    let Some(words) = words else {
        return PipedText::Unknown;
    };
    match words.split_first() {
        Some((&"echo", args)) => {
            let mut args = args;
            let mut escapes = false;
            while let Some((flag, rest)) = args.split_first() {
                match *flag {
                    "-n" => {}
                    "-e" => escapes = true,
                    "-E" => escapes = false,
                    _ => break,
                }
                args = rest;
            }
            let text = args.join(" ");
            PipedText::Known(if escapes { unescape(&text) } else { text })
        }
        Some((&"printf", [format, args @ ..])) => {
            let mut out = unescape(format);
            for a in args {
                out = out.replacen("%s", a, 1);
            }
            PipedText::Known(out)
        }
        Some((&"cat", [])) => match cmd.redirects.iter().find_map(|r| match (&r.heredoc, r.op) {
            (Some(h), _) => Some(h.body.clone()),
            (None, RedirectOp::HereString) => r.target.text().map(|t| format!("{t}\n")),
            _ => None,
        }) {
            Some(body) => PipedText::Known(body),
            None => PipedText::Unknown,
        },
        _ => PipedText::Unknown,
    }
}

fn unescape(text: &str) -> String {
    text.replace("\\n", "\n")
        .replace("\\t", "\t")
        .replace("\\\\", "\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(src: &str) -> Vec<Vec<String>> {
        let script = parse(src);
        assert!(script.problems.is_empty(), "{src:?}: {:?}", script.problems);
        script
            .simple_commands()
            .iter()
            .map(|c| {
                c.words
                    .iter()
                    .map(|w| w.value.clone().unwrap_or_else(|| format!("<{}>", w.raw)))
                    .collect()
            })
            .collect()
    }

    fn w(list: &[&[&str]]) -> Vec<Vec<String>> {
        list.iter()
            .map(|c| c.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn lists_and_pipelines() {
        assert_eq!(
            words("a 1; b 2 && c || d | e |& f & g\nh"),
            w(&[
                &["a", "1"],
                &["b", "2"],
                &["c"],
                &["d"],
                &["e"],
                &["f"],
                &["g"],
                &["h"]
            ])
        );
    }

    #[test]
    fn quoting() {
        assert_eq!(
            words(r#"git commit -m 'use git push --force' "a b" c\ d $'x\ty' "q\"r" 'it'\''s'"#),
            w(&[&[
                "git",
                "commit",
                "-m",
                "use git push --force",
                "a b",
                "c d",
                "x\ty",
                "q\"r",
                "it's"
            ]])
        );
    }

    #[test]
    fn dynamic_words_have_no_value() {
        let s = parse("$G push origin \"$B\" ~/x {a,b} ${X:-main} $(echo hi) `id` $((1+2)) a{b}");
        let c = &s.simple_commands()[2];
        let values: Vec<_> = c.words.iter().map(|w| w.value.is_some()).collect();
        assert_eq!(
            values,
            [false, true, true, false, false, false, false, false, false, false, true]
        );
    }

    #[test]
    fn substitutions_run_first() {
        assert_eq!(
            words("echo $(git push origin main) `git log`"),
            w(&[
                &["git", "push", "origin", "main"],
                &["git", "log"],
                &["echo", "<$(git push origin main)>", "<`git log`>"]
            ])
        );
        assert_eq!(
            words("x=\"$(git commit -m 'a)b')\""),
            w(&[&["git", "commit", "-m", "a)b"], &[]])
        );
    }

    #[test]
    fn compound_commands() {
        assert_eq!(
            words(
                "if git diff --quiet; then git commit -m x; elif true; then :; else git push; fi"
            ),
            w(&[
                &["git", "diff", "--quiet"],
                &["git", "commit", "-m", "x"],
                &["true"],
                &[":"],
                &["git", "push"]
            ])
        );
        assert_eq!(
            words("for b in main dev; do git push origin $b; done"),
            w(&[&["git", "push", "origin", "<$b>"]])
        );
        // The loop's redirection stays, as a command of its own.
        assert_eq!(
            words("while false; do x; done > log"),
            w(&[&["false"], &["x"], &[]])
        );
        assert_eq!(
            words("case $1 in a|b) git push;; (c) git commit ;& *) z;; esac"),
            w(&[&["git", "push"], &["git", "commit"], &["z"]])
        );
        assert_eq!(
            words("{ a; b; } && (c; d)"),
            w(&[&["a"], &["b"], &["c"], &["d"]])
        );
        assert_eq!(
            words("f() { git push; }; f"),
            w(&[&["git", "push"], &["f"]])
        );
        assert_eq!(words("function g { x; }"), w(&[&["x"]]));
    }

    #[test]
    fn subshells_are_marked() {
        let s = parse("(cd x && a) ; b | c ; d &");
        assert!(matches!(&s.nodes[0], Node::Subshell(inner) if inner.len() == 2));
        assert!(matches!(&s.nodes[1], Node::Subshell(_)));
        assert!(matches!(&s.nodes[2], Node::Subshell(_)));
        assert!(matches!(&s.nodes[3], Node::Subshell(_)));
    }

    #[test]
    fn heredocs() {
        let s = parse("bash <<'EOF' > out\ngit push origin main\nEOF\necho done");
        let cmds = s.simple_commands();
        assert_eq!(cmds.len(), 2);
        let h = cmds[0].redirects[0].heredoc.as_ref().unwrap();
        assert_eq!(h.body, "git push origin main\n");
        assert!(!h.expands);
        assert_eq!(cmds[0].redirects[1].op, RedirectOp::Write);
        assert_eq!(cmds[1].words[0].text(), Some("done").map(|_| "echo"));
        // Two heredocs on one line, tab stripping, and a substitution in an expanding body.
        let s = parse("cat <<A <<-B\na\nA\n\tb\n\tB\ncat <<C\n$(git push)\nC\n");
        let cmds = s.simple_commands();
        assert_eq!(cmds[0].redirects[0].heredoc.as_ref().unwrap().body, "a\n");
        assert_eq!(cmds[0].redirects[1].heredoc.as_ref().unwrap().body, "b\n");
        assert_eq!(cmds[1].words[0].text(), Some("git"));
        assert_eq!(cmds[2].words[0].text(), Some("cat"));
    }

    #[test]
    fn assignments_and_redirects() {
        let s = parse("GIT_DIR=../x A=\"b c\" git 2>&1 >/dev/null status <in &>all");
        let c = s.simple_commands()[0];
        assert_eq!(c.assignments.len(), 2);
        assert_eq!(c.assignments[1].value.text(), Some("b c"));
        assert_eq!(
            c.words.iter().map(|w| w.raw.as_str()).collect::<Vec<_>>(),
            ["git", "status"]
        );
        let ops: Vec<_> = c.redirects.iter().map(|r| (r.fd, r.op)).collect();
        assert_eq!(
            ops,
            [
                (Some(2), RedirectOp::DupOut),
                (None, RedirectOp::Write),
                (None, RedirectOp::Read),
                (None, RedirectOp::WriteAll)
            ]
        );
        let s = parse("arr=(a b) x");
        assert_eq!(s.simple_commands()[0].assignments[0].name, "arr");
    }

    #[test]
    fn compound_redirections_and_comparisons() {
        let s = parse(
            "{ echo a; } > out; for x in y; do :; done >> log; [[ b > a ]] && diff <(ls a) >(cat)",
        );
        let cmds = s.simple_commands();
        let redirect_only: Vec<_> = cmds
            .iter()
            .filter(|c| c.words.is_empty())
            .map(|c| c.redirects[0].target.raw.clone())
            .collect();
        assert_eq!(redirect_only, ["out", "log"]);
        let test = cmds
            .iter()
            .find(|c| c.words.first().is_some_and(|w| w.raw == "[["))
            .unwrap();
        assert!(test.redirects.is_empty());
        assert_eq!(test.words.len(), 5);
        assert!(cmds
            .iter()
            .any(|c| c.words.first().and_then(Word::text) == Some("ls")));
        assert!(s.problems.is_empty(), "{:?}", s.problems);
    }

    #[test]
    fn piped_text_is_known_for_literal_echo() {
        let s = parse("echo 'git push origin main' | bash");
        let bash = s.simple_commands()[1];
        assert_eq!(
            bash.piped_text,
            Some(PipedText::Known("git push origin main".into()))
        );
        let s = parse("curl x | sh");
        assert_eq!(s.simple_commands()[1].piped_text, Some(PipedText::Unknown));
        let s = parse("printf 'git %s\\n' push | sh");
        assert_eq!(
            s.simple_commands()[1].piped_text,
            Some(PipedText::Known("git push\n".into()))
        );
    }

    #[test]
    fn problems_are_reported() {
        for bad in [
            "git push 'origin main",
            "echo \"x",
            "echo $(git push",
            "echo `x",
            "a )",
            "if x; then y",
            "(a",
        ] {
            assert!(!parse(bad).problems.is_empty(), "{bad:?} parsed cleanly");
        }
        let deep = "$(".repeat(100) + &")".repeat(100);
        let s = parse(&deep);
        assert!(
            s.problems.iter().any(|p| p.contains("nested")),
            "{:?}",
            s.problems
        );
    }

    /// Found by tests/it/property.rs: an escape as the last byte ran the position past the
    /// end (a slice panic), and `;;` outside a `case` made the list loop spin forever.
    #[test]
    fn truncated_escapes_and_stray_case_terminators_are_problems_not_panics_or_hangs() {
        for bad in [
            "\"\\",
            "${a\\",
            "`\\",
            "$'\\",
            ";;",
            ";; '",
            "echo a ;; echo b",
            ";&",
        ] {
            let s = parse(bad);
            assert!(!s.problems.is_empty(), "{bad:?} parsed cleanly");
        }
        assert!(parse("case x in x) a;; y) b;& esac").problems.is_empty());
    }

    #[test]
    fn large_inputs_are_linear() {
        let big = "echo hello world; ".repeat(50_000);
        assert_eq!(parse(&big).simple_commands().len(), 50_000);
        let nul = "echo a\0b";
        assert_eq!(parse(nul).simple_commands().len(), 1);
    }
}
