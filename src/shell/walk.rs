//! Walks a script the way a shell would run it, and shows each simple command to a
//! [`Visitor`] with the shell's state at that point: the directory (through `cd`,
//! `pushd`, `popd`; a subshell's changes stay in it) and the exported environment.
//! Scripts run by wrappers (`bash -c`, `eval`, a pipe into a shell) and commands run by
//! other programs (`find -exec`) are walked too, within fixed depth and size limits.

use super::exec::{self, Invocation, Runs};
use super::expand;
use super::{Node, SimpleCommand};
use std::ffi::OsString;
use std::path::PathBuf;

/// Scripts inside scripts (`bash -c "eval '…'"`) deeper than this are not followed.
pub const MAX_SCRIPT_DEPTH: usize = 8;
/// At most this many simple commands are walked; beyond, the rest is unresolvable.
pub const MAX_COMMANDS: usize = 100_000;
/// Command text quoted in a reason is cut to this many characters.
const QUOTE_CHARS: usize = 160;

/// The shell's state as the script goes.
#[derive(Clone, Debug, Default)]
pub struct ShellState {
    /// None once a `cd` went somewhere only known at run time.
    pub cwd: Option<PathBuf>,
    dir_stack: Vec<Option<PathBuf>>,
    /// `export`ed variables (value None when dynamic).
    pub exported: Vec<(String, Option<String>)>,
    /// `alias NAME=VALUE` definitions made earlier in the command (value None when
    /// dynamic). Bash expands them in a later line when `expand_aliases` is on, as in the
    /// shells agents run commands in; counting them on the same line too only denies more.
    pub aliases: Vec<(String, Option<String>)>,
    /// Shell variables with one known value: a `for` loop's variable inside its body.
    /// Not exported: a child shell (`bash -c`) does not see them.
    pub vars: Vec<(String, String)>,
    /// Every name a plain assignment (`NAME=value`) set, known value or not: when the
    /// agent's shell inherited NAME from the environment, it is exported, and the
    /// assignment changes what programs see.
    assigned: Vec<String>,
}

/// A `for` loop over more items than this is walked once, its variable unknown.
const MAX_LOOP_ITEMS: usize = 64;

/// Where a visited command is.
pub struct Site {
    /// The command as written (cut to a quotable length).
    pub text: String,
    /// How a message should quote it: as the agent wrote it, and what it runs inside
    /// when that differs (`` `bash -c 'git push'` (which runs `git push`) ``).
    pub cited: String,
    pub depth: usize,
}

/// A script a visitor learned that a command runs (a git alias, `rebase --exec`), to be
/// walked in a child shell.
pub struct Spawn {
    pub text: String,
    pub cwd: Option<PathBuf>,
    pub via: String,
}

pub trait Visitor {
    /// Every simple command, in execution order, with what it runs.
    fn command(
        &mut self,
        site: &Site,
        cmd: &SimpleCommand,
        runs: &Runs,
        state: &ShellState,
    ) -> Vec<Spawn>;
    /// Something the walk itself cannot follow (a parse error, the limits).
    fn unresolved(&mut self, site: &Site, reason: String);
    /// A line for a human-readable account (`explain`).
    fn note(&mut self, _line: String) {}
}

pub struct Walker<'e, V> {
    pub visitor: V,
    env: &'e dyn Fn(&str) -> Option<OsString>,
    outer: Option<String>,
    commands: usize,
}

impl<'e, V: Visitor> Walker<'e, V> {
    pub fn new(visitor: V, env: &'e dyn Fn(&str) -> Option<OsString>) -> Self {
        Walker {
            visitor,
            env,
            outer: None,
            commands: 0,
        }
    }

    /// Walks `text` as a script run in `cwd`.
    pub fn run(mut self, text: &str, cwd: PathBuf) -> V {
        let mut state = ShellState {
            cwd: Some(cwd),
            ..ShellState::default()
        };
        self.script(text, "the command", &mut state, 0);
        self.visitor
    }

    fn site(&self, text: &str, depth: usize) -> Site {
        let text = cut(text);
        let cited = match &self.outer {
            Some(outer) if *outer != text => format!("`{outer}` (which runs `{text}`)"),
            _ => format!("`{text}`"),
        };
        Site { text, cited, depth }
    }

    fn script(&mut self, text: &str, via: &str, state: &mut ShellState, depth: usize) {
        if depth > MAX_SCRIPT_DEPTH {
            let site = self.site(text, depth);
            self.visitor.unresolved(
                &site,
                format!("scripts are nested more than {MAX_SCRIPT_DEPTH} deep"),
            );
            return;
        }
        let parsed = super::parse(text);
        if !parsed.problems.is_empty() {
            let site = self.site(text, depth);
            for p in &parsed.problems {
                self.visitor
                    .unresolved(&site, format!("{via} cannot be parsed: {p}"));
            }
        }
        self.walk(&parsed.nodes, state, depth);
    }

    fn walk(&mut self, nodes: &[Node], state: &mut ShellState, depth: usize) {
        for node in nodes {
            match node {
                Node::Simple(cmd) => self.simple(cmd, state, depth),
                Node::Subshell(inner) => {
                    let mut child = state.clone();
                    self.walk(inner, &mut child, depth);
                }
                Node::For { var, items, body } => self.for_loop(var, items, body, state, depth),
            }
        }
    }

    /// A `for` loop over items known statically (literal words, brace expansions, globs
    /// of files that exist) runs its body once per item with the variable set; otherwise
    /// once with the variable unknown. After the loop the variable is unknown (a `break`
    /// may have ended it early).
    fn for_loop(
        &mut self,
        var: &str,
        items: &[super::Word],
        body: &[Node],
        state: &mut ShellState,
        depth: usize,
    ) {
        let values = loop_items(items, state);
        match values {
            Some(values) if values.len() <= MAX_LOOP_ITEMS => {
                for value in values {
                    state.vars.retain(|(n, _)| n != var);
                    state.vars.push((var.to_owned(), value));
                    self.walk(body, state, depth);
                }
            }
            _ => {
                state.vars.retain(|(n, _)| n != var);
                self.walk(body, state, depth);
            }
        }
        state.vars.retain(|(n, _)| n != var);
    }

    fn simple(&mut self, cmd: &SimpleCommand, state: &mut ShellState, depth: usize) {
        self.commands += 1;
        let text = command_text(cmd);
        let expanded = expand_command(cmd, state, self.env);
        let cmd = expanded.as_ref().unwrap_or(cmd);
        track_assignments(cmd, state, self.env);
        if depth == 0 {
            self.outer = Some(cut(&text));
        }
        if self.commands > MAX_COMMANDS {
            if self.commands == MAX_COMMANDS + 1 {
                let site = self.site(&text, depth);
                self.visitor.unresolved(
                    &site,
                    format!("the command holds more than {MAX_COMMANDS} simple commands"),
                );
            }
            return;
        }
        if let Some(expanded) = alias_expansion(cmd, state) {
            let site = self.site(&text, depth);
            match expanded {
                Ok(script) => {
                    self.visitor.note(format!(
                        "  an alias defined earlier expands to: {}",
                        cut(&script)
                    ));
                    self.script(&script, "an alias", state, depth + 1);
                }
                Err(reason) => self.visitor.unresolved(&site, reason),
            }
            // The command itself is still seen: its redirections write as written.
        }
        let runs = with_environment(exec::runs(cmd), state, self.env);
        let site = self.site(&text, depth);
        let spawned = self.visitor.command(&site, cmd, &runs, state);
        if let Runs::Program(inv) = &runs {
            if inv.name() == "alias" {
                define_aliases(inv, state);
            }
        }
        match &runs {
            Runs::Script { text: script, via } => {
                self.visitor
                    .note(format!("  runs a script ({via}): {}", cut(script)));
                if via == "eval" {
                    self.script(script, via, state, depth + 1);
                } else {
                    let mut child = child_shell(state);
                    self.script(script, via, &mut child, depth + 1);
                }
            }
            Runs::Commands(commands) => {
                for inner in commands {
                    self.simple(inner, state, depth + 1);
                }
            }
            Runs::Program(exec::Invocation {
                embedded: Some((script, via)),
                ..
            }) => {
                self.visitor
                    .note(format!("  runs a script ({via}): {}", cut(script)));
                let mut child = child_shell(state);
                self.script(script, via, &mut child, depth + 1);
            }
            Runs::Program(inv) => match inv.name() {
                "cd" | "pushd" | "popd" | "chdir" => self.change_dir(inv, state),
                "export" | "declare" | "typeset" => export(inv, state),
                "unset" => {
                    for w in &inv.args {
                        if let Some(name) = w.text() {
                            state.exported.retain(|(n, _)| n != name);
                        }
                    }
                }
                _ => {}
            },
            Runs::Nothing | Runs::Unknown(_) => {}
        }
        for spawn in spawned {
            self.visitor
                .note(format!("  runs a script: {}", cut(&spawn.text)));
            let mut child = ShellState {
                cwd: spawn.cwd.or_else(|| state.cwd.clone()),
                dir_stack: Vec::new(),
                exported: state.exported.clone(),
                aliases: Vec::new(),
                vars: Vec::new(),
                assigned: state.assigned.clone(),
            };
            self.script(&spawn.text, &spawn.via, &mut child, depth + 1);
        }
    }

    fn change_dir(&mut self, inv: &Invocation, state: &mut ShellState) {
        let is_flag =
            |w: &&super::Word| w.text().is_some_and(|t| t.starts_with('-') && t.len() > 1);
        // `cd -P` resolves symlinks; plain `cd` is logical (`..` undoes the last part).
        let physical = inv
            .args
            .iter()
            .filter(is_flag)
            .any(|w| w.text().is_some_and(|t| t.contains('P')));
        let dir = inv.args.iter().find(|w| !is_flag(w));
        match inv.name() {
            "popd" => {
                state.cwd = state.dir_stack.pop().flatten();
                return;
            }
            "pushd" => state.dir_stack.push(state.cwd.clone()),
            _ => {}
        }
        let home = || (self.env)("HOME").map(PathBuf::from);
        let target = match dir {
            None => home(),
            Some(w) => match (w.text(), w.raw.strip_prefix('~')) {
                (Some("-"), _) => None,
                (Some(d), _) => state.cwd.as_ref().map(|c| c.join(d)),
                // `cd ~`, `cd ~/x`: the home directory.
                (None, Some(rest))
                    if (rest.is_empty() || rest.starts_with('/'))
                        && !rest.contains(['$', '`', '"', '\'', '\\']) =>
                {
                    home().map(|h| h.join(rest.trim_start_matches('/')))
                }
                (None, _) => None,
            },
        };
        state.cwd = target.map(|t| {
            if physical {
                crate::fsutil::resolve(&t).unwrap_or(t)
            } else {
                crate::fsutil::lexical(&t)
            }
        });
    }
}

/// The state a child shell (`bash -c`, a program's embedded script) starts with: the
/// directory and the exported variables, not the shell's own variables.
fn child_shell(state: &ShellState) -> ShellState {
    ShellState {
        vars: Vec::new(),
        ..state.clone()
    }
}

/// The values a `for` loop's items take, when all are known.
fn loop_items(items: &[super::Word], state: &ShellState) -> Option<Vec<String>> {
    let known = expand::Known {
        cwd: state.cwd.as_deref(),
        vars: &state.vars,
    };
    let mut out = Vec::new();
    for w in items {
        let values = match w.text() {
            Some(t) => vec![t.to_owned()],
            None => expand::fields(&w.raw, &known)?,
        };
        for v in values {
            // An unquoted glob names the files it matches (itself when none does).
            if !w.quoted && v.contains(['*', '?', '[']) {
                out.extend(glob_files(&v, state.cwd.as_deref()?)?);
            } else {
                out.push(v);
            }
            if out.len() > MAX_LOOP_ITEMS {
                return None;
            }
        }
    }
    Some(out)
}

/// The files a glob with wildcards only in its last part matches, sorted as bash sorts
/// them (the pattern itself when nothing matches); None for wildcards in a directory part.
fn glob_files(pattern: &str, cwd: &std::path::Path) -> Option<Vec<String>> {
    let (dir, last) = match pattern.rsplit_once('/') {
        Some((d, l)) => (Some(if d.is_empty() { "/" } else { d }), l),
        None => (None, pattern),
    };
    if dir.is_some_and(|d| d.contains(['*', '?', '['])) {
        return None;
    }
    let glob = globset::Glob::new(last).ok()?.compile_matcher();
    let base = cwd.join(dir.unwrap_or("."));
    let mut names: Vec<String> = std::fs::read_dir(base)
        .ok()?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| glob.is_match(n) && (last.starts_with('.') || !n.starts_with('.')))
        .collect();
    names.sort();
    if names.is_empty() {
        return Some(vec![pattern.to_owned()]);
    }
    Some(
        names
            .into_iter()
            .map(|n| match dir {
                Some("/") => format!("/{n}"),
                Some(d) => format!("{d}/{n}"),
                None => n,
            })
            .collect(),
    )
}

/// The command with its dynamic words expanded where the expansion is static
/// ([`expand`]); None when nothing changes.
fn expand_command(
    cmd: &SimpleCommand,
    state: &ShellState,
    env: &dyn Fn(&str) -> Option<OsString>,
) -> Option<SimpleCommand> {
    let known = expand::Known {
        cwd: state.cwd.as_deref(),
        vars: &state.vars,
    };
    let one = |w: &super::Word| -> Option<super::Word> {
        if w.value.is_some() {
            return None;
        }
        // `> $(mktemp)`: the file mktemp made (and printed).
        if let Some(made) = made_by_mktemp(&w.raw, state, env) {
            return Some(super::Word {
                raw: made.clone(),
                value: Some(made),
                quoted: true,
            });
        }
        match expand::fields(&w.raw, &known)?.as_slice() {
            [v] => Some(super::Word {
                raw: v.clone(),
                value: Some(v.clone()),
                quoted: w.quoted,
            }),
            _ => None,
        }
    };
    let mut changed = false;
    let mut out = cmd.clone();
    let mut words = Vec::with_capacity(cmd.words.len());
    for w in &cmd.words {
        let made = || made_by_mktemp(&w.raw, state, env).map(|m| vec![m]);
        match (w.value.is_none())
            .then(|| made().or_else(|| expand::fields(&w.raw, &known)))
            .flatten()
        {
            Some(fields) => {
                changed = true;
                words.extend(fields.into_iter().map(|v| super::Word {
                    raw: v.clone(),
                    value: Some(v),
                    quoted: w.quoted,
                }));
            }
            None => words.push(w.clone()),
        }
    }
    out.words = words;
    for r in &mut out.redirects {
        if let Some(w) = one(&r.target) {
            r.target = w;
            changed = true;
        }
    }
    for a in &mut out.assignments {
        if a.value.value.is_none() {
            if let Some(v) = expand::assigned(&a.value.raw, &known) {
                a.value = super::Word {
                    raw: v.clone(),
                    value: Some(v),
                    quoted: true,
                };
                changed = true;
            }
        }
    }
    changed.then_some(out)
}

/// A plain assignment (`NAME=value`, no command) that always runs gives NAME its value
/// when the value is known; one that may not run (in an `if` branch, after `&&`, in a
/// loop), or whose value is known only when it runs, leaves NAME unknown. A command that
/// sets names (`read`, `unset`, `declare`, …) leaves them unknown.
fn track_assignments(
    cmd: &SimpleCommand,
    state: &mut ShellState,
    env: &dyn Fn(&str) -> Option<OsString>,
) {
    if cmd.words.is_empty() {
        for a in &cmd.assignments {
            // `NAME+=x` appends.
            let name = a.name.trim_end_matches('+').to_owned();
            state.vars.retain(|(n, _)| *n != name);
            if !state.assigned.contains(&name) {
                state.assigned.push(name.clone());
            }
            if !cmd.conditional && name == a.name {
                let value = a
                    .value
                    .value
                    .clone()
                    .or_else(|| made_by_mktemp(&a.value.raw, state, env));
                if let Some(v) = value {
                    state.vars.push((name, v));
                }
            }
        }
        return;
    }
    if state.vars.is_empty() {
        return;
    }
    let sets_names = cmd.words.first().and_then(|w| w.text()).is_some_and(|p| {
        matches!(
            p,
            "read"
                | "unset"
                | "declare"
                | "typeset"
                | "local"
                | "export"
                | "readonly"
                | "mapfile"
                | "readarray"
                | "printf"
                | "getopts"
        )
    });
    if sets_names {
        for w in &cmd.words[1..] {
            let name = w.text().unwrap_or(&w.raw);
            let name = name.split('=').next().unwrap_or(name);
            state.vars.retain(|(n, _)| n != name);
        }
    }
}

/// Environment variables a modelled program reads (mktemp's `TMPDIR`) that the agent's
/// shell inherits from the host, as this hook did.
const INHERITED_READS: &[&str] = &["TMPDIR"];

/// The environment a program runs with, as far as it is known: the host's values of
/// [`INHERITED_READS`]; a plain assignment to a variable the host exports (which
/// changes the exported value); what the script exported; then the program's own
/// assignments (`TMPDIR=/w mktemp`), which win. `env -i` starts from nothing.
fn with_environment(
    mut runs: Runs,
    state: &ShellState,
    env: &dyn Fn(&str) -> Option<OsString>,
) -> Runs {
    let Runs::Program(inv) = &mut runs else {
        return runs;
    };
    if inv.clear_env {
        return runs;
    }
    let mut in_force: Vec<(String, Option<String>)> = INHERITED_READS
        .iter()
        .filter_map(|n| Some((n.to_string(), Some(env(n)?.into_string().ok()?))))
        .collect();
    for name in &state.assigned {
        if env(name).is_some() {
            let known = state.vars.iter().find(|(n, _)| n == name);
            in_force.push((name.clone(), known.map(|(_, v)| v.clone())));
        }
    }
    if in_force.is_empty() && state.exported.is_empty() {
        return runs;
    }
    in_force.extend(state.exported.iter().cloned());
    in_force.append(&mut inv.env);
    inv.env = in_force;
    runs
}

/// `NAME=$(mktemp …)`: NAME holds the path mktemp makes and prints (its `XXXXXX` standing
/// for the letters chosen when it runs), so `> "$NAME"` is judged where it lands instead
/// of as a path known only at run time. Only a lone `mktemp` that makes one file or
/// directory with a known name counts.
fn made_by_mktemp(
    raw: &str,
    state: &ShellState,
    env: &dyn Fn(&str) -> Option<OsString>,
) -> Option<String> {
    let inner = raw
        .strip_prefix("$(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| raw.strip_prefix('`').and_then(|r| r.strip_suffix('`')))?;
    if inner.contains(['$', '`', '(', ')', ';', '&', '|', '<', '>', '\n']) {
        return None;
    }
    let parsed = super::parse(inner);
    let [Node::Simple(cmd)] = parsed.nodes.as_slice() else {
        return None;
    };
    if !parsed.problems.is_empty() || !cmd.redirects.is_empty() {
        return None;
    }
    let runs = with_environment(exec::runs(cmd), state, env);
    let Runs::Program(inv) = &runs else {
        return None;
    };
    if inv.name() != "mktemp" || !inv.wrappers.is_empty() {
        return None;
    }
    match super::writes::write_targets(cmd, &runs, None).as_slice() {
        [one] => one.word.text().map(str::to_owned),
        _ => None,
    }
}

/// The directory an invocation runs in: the shell's, changed by a wrapper's own option
/// (`env -C`, `sudo -D`).
pub fn invocation_cwd(inv: &Invocation, state: &ShellState) -> Option<PathBuf> {
    match &inv.chdir {
        None => state.cwd.clone(),
        Some(Some(d)) => state
            .cwd
            .as_ref()
            .map(|c| crate::fsutil::lexical(&c.join(d))),
        Some(None) => None,
    }
}

/// `export NAME=VALUE …` (and `declare -x`).
fn export(inv: &Invocation, state: &mut ShellState) {
    let declares_export = inv.args.iter().any(|w| {
        w.text()
            .is_some_and(|t| t.starts_with('-') && t.contains('x'))
    });
    if inv.name() != "export" && !declares_export {
        return;
    }
    for w in &inv.args {
        let raw = w.value.as_deref().unwrap_or(&w.raw);
        if let Some((name, value)) = raw.split_once('=') {
            if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                state.exported.retain(|(n, _)| n != name);
                state
                    .exported
                    .push((name.to_owned(), w.value.as_ref().map(|_| value.to_owned())));
            }
        }
    }
}

/// A simple command as written: assignments, words and redirections (a heredoc's body
/// left out).
pub fn command_text(cmd: &SimpleCommand) -> String {
    use super::RedirectOp::*;
    let assigned = cmd
        .assignments
        .iter()
        .map(|a| format!("{}={}", a.name, a.value.raw));
    let words = cmd.words.iter().map(|w| w.raw.clone());
    let redirects = cmd.redirects.iter().map(|r| {
        let op = match r.op {
            Write => ">",
            Append => ">>",
            Read => "<",
            ReadWrite => "<>",
            WriteAll => "&>",
            AppendAll => "&>>",
            DupOut => ">&",
            DupIn => "<&",
            Heredoc => "<<",
            HereString => "<<<",
        };
        let fd = r.fd.map(|f| f.to_string()).unwrap_or_default();
        format!("{fd}{op}{}", r.target.raw)
    });
    cut(&assigned
        .chain(words)
        .chain(redirects)
        .collect::<Vec<_>>()
        .join(" "))
}

/// One line, at most [`QUOTE_CHARS`] characters.
pub fn cut(text: &str) -> String {
    let one_line = text.replace('\n', " ⏎ ");
    match one_line.char_indices().nth(QUOTE_CHARS) {
        Some((i, _)) => format!("{}…", &one_line[..i]),
        None => one_line,
    }
}

/// `alias a='…' b='…'`: remembers each definition.
fn define_aliases(inv: &Invocation, state: &mut ShellState) {
    for w in &inv.args {
        let (name, value) = match (w.text(), w.raw.split_once('=')) {
            (Some(t), _) => match t.split_once('=') {
                Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
                None => continue,
            },
            (None, Some((n, _))) => (n.to_owned(), None),
            (None, None) => continue,
        };
        state.aliases.retain(|(n, _)| *n != name);
        state.aliases.push((name, value));
    }
}

/// The script a command stands for when its name is an alias defined earlier in the
/// command: the alias's text followed by the rest of the command as written.
fn alias_expansion(cmd: &SimpleCommand, state: &ShellState) -> Option<Result<String, String>> {
    let first = cmd.words.first()?;
    let name = first.text().filter(|_| !first.quoted)?;
    let (_, value) = state.aliases.iter().rev().find(|(n, _)| n == name)?;
    let Some(value) = value else {
        return Some(Err(format!(
            "`{name}` is an alias defined earlier in the command as text only known when it runs"
        )));
    };
    let mut text = value.clone();
    for w in &cmd.words[1..] {
        text.push(' ');
        text.push_str(&w.raw);
    }
    Some(Ok(text))
}
