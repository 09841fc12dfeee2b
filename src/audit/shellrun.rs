//! A shell command of the turn, split the way the shell runs it: a chain of pipelines
//! (`a && b | c; d`), so a runner's verdict is read from what is its own: its exit status
//! only when nothing after it in a pipe hides it, its output only when nothing cut it.

use super::summary;
use crate::shell::{self, exec::Runs};

/// One program of a command, and what stands around it.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    pub argv: Vec<String>,
    /// The programs its output is piped into, in order.
    pub piped_into: Vec<Vec<String>>,
    /// Whether the command's exit status is this program's (the last of the last
    /// pipeline, or a pipe under `pipefail` ending the command).
    pub owns_status: bool,
    /// Whether every program after it runs only if it succeeded (`a && b && c`): a
    /// command that succeeded then ran it successfully.
    pub and_chain: bool,
    /// Whether the shell ran it, as far as the exit status shows.
    pub ran: Ran,
}

/// Splits at top-level `;`, `&&`, `||`, `&`, newlines (each with the operator after it),
/// and each part at `|` into pipeline stages.
fn split(command: &str) -> Vec<(Vec<String>, &'static str)> {
    let mut out: Vec<(Vec<String>, &'static str)> = Vec::new();
    let mut stages: Vec<String> = vec![String::new()];
    let (mut single, mut double, mut depth) = (false, false, 0i32);
    let chars: Vec<char> = command.chars().collect();
    let mut i = 0;
    let flush =
        |stages: &mut Vec<String>, op: &'static str, out: &mut Vec<(Vec<String>, &'static str)>| {
            let s: Vec<String> = std::mem::take(stages)
                .into_iter()
                .map(|x| x.trim().to_owned())
                .filter(|x| !x.is_empty())
                .collect();
            if !s.is_empty() {
                out.push((s, op));
            }
            stages.push(String::new());
        };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let cur = stages.last_mut().expect("never empty");
        if single {
            single = c != '\'';
            cur.push(c);
        } else if c == '\\' {
            cur.push(c);
            if let Some(n) = next {
                cur.push(n);
                i += 1;
            }
        } else if double {
            double = c != '"';
            cur.push(c);
        } else if c == '\'' {
            single = true;
            cur.push(c);
        } else if c == '"' {
            double = true;
            cur.push(c);
        } else if c == '(' || c == '{' {
            depth += 1;
            cur.push(c);
        } else if (c == ')' || c == '}') && depth > 0 {
            depth -= 1;
            cur.push(c);
        } else if depth > 0 {
            cur.push(c);
        } else if c == '|' && next == Some('|') {
            flush(&mut stages, "||", &mut out);
            i += 1;
        } else if c == '&' && next == Some('&') {
            flush(&mut stages, "&&", &mut out);
            i += 1;
        } else if c == '|' {
            if next == Some('&') {
                i += 1;
            }
            stages.push(String::new());
        } else if c == ';' || c == '\n' {
            flush(&mut stages, ";", &mut out);
        } else if c == '&' && next != Some('>') && !cur.ends_with('>') && !cur.ends_with('<') {
            flush(&mut stages, "&", &mut out);
        } else {
            cur.push(c);
        }
        i += 1;
    }
    flush(&mut stages, "", &mut out);
    out
}

/// Every program a piece of shell runs, as argv (static words only), through wrappers
/// and nested shells.
pub fn programs(command: &str, depth: usize) -> Vec<Vec<String>> {
    let script = shell::parse(command);
    let mut out = Vec::new();
    for cmd in script.simple_commands() {
        match shell::exec::runs(cmd) {
            Runs::Program(inv) => {
                let mut argv = vec![inv.program.clone()];
                argv.extend(inv.args.iter().map(|w| w.text().unwrap_or("").to_owned()));
                out.push(argv);
            }
            Runs::Script { text, .. } if depth < 4 => out.extend(programs(&text, depth + 1)),
            // A shell given a file (`bash -n a.sh`, `sh ./build.sh`): what the file runs is
            // not read here, but the command as written is a stage of its own, which a
            // claim naming it can find.
            Runs::Unknown(_) | Runs::Nothing => {
                let argv: Vec<String> = cmd
                    .words
                    .iter()
                    .map(|w| w.text().unwrap_or("").to_owned())
                    .collect();
                let program = argv
                    .first()
                    .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
                if matches!(program, "sh" | "bash" | "zsh" | "dash" | "ksh") && argv.len() > 1 {
                    out.push(argv);
                }
            }
            Runs::Commands(cmds) => {
                for c in cmds {
                    out.extend(
                        c.words
                            .first()
                            .and_then(|w| w.text())
                            .map(|p| vec![p.to_owned()]),
                    );
                }
            }
            _ => {}
        }
    }
    out
}

/// The exit status of a program that is an `if`'s condition whose `then` branch only
/// prints a literal (`if cargo fmt --check >/dev/null; then echo "fmt: ok"; fi`): the
/// literal in the output says the condition held, its absence that it did not (`if !`
/// turns it round). `None` for any other program or shape.
pub fn status_by_branch(command: &str, argv: &[String], output: &str) -> Option<bool> {
    let parts = split(command);
    for (k, (pipeline, _)) in parts.iter().enumerate() {
        let [cond] = pipeline.as_slice() else {
            continue;
        };
        let (Some("if"), cond) = strip_keyword(cond) else {
            continue;
        };
        let (negated, cond) = match cond.strip_prefix('!') {
            Some(rest) => (true, rest.trim_start()),
            None => (false, cond),
        };
        if programs(cond, 0).first().map(|p| peel(p)) != Some(peel(argv)) {
            continue;
        }
        let [then] = parts.get(k + 1)?.0.as_slice() else {
            return None;
        };
        let (Some("then"), body) = strip_keyword(then) else {
            return None;
        };
        let closes = parts.get(k + 2).is_some_and(|(p, _)| {
            matches!(
                strip_keyword(p.first().map(String::as_str).unwrap_or("")).0,
                Some("fi" | "else")
            )
        });
        let words = shlex::split(body)?;
        let literal = match words.as_slice() {
            [echo, text] if echo == "echo" || echo == "printf" => text,
            _ => return None,
        };
        if !closes || literal.trim().is_empty() || body.contains(['$', '`']) {
            return None;
        }
        let printed = output.lines().any(|l| l.trim() == literal.trim());
        return Some(printed != negated);
    }
    None
}

/// The stages of a command: every program, with its pipe and chain context, as written
/// (whether each ran is not known without the command's exit status).
pub fn stages(command: &str) -> Vec<Stage> {
    stages_run(command, None)
}

/// The stages of a command that exited with an error (`failed`) or not: each knows
/// whether the shell can have run it ([`Ran`]).
pub fn stages_run(command: &str, failed: Option<bool>) -> Vec<Stage> {
    stages_seen(command, failed, "")
}

/// [`stages_run`], knowing the command's output too: a test runner's summary in it tells
/// that runner's own status (`npm test && cp a dist/` that printed `1 failing` stopped
/// at the tests), when the command runs one runner only.
pub fn stages_seen(command: &str, failed: Option<bool>, output: &str) -> Vec<Stage> {
    let mut out = Vec::new();
    let outer = Outer {
        ran: Ran::Yes,
        owns_status: true,
        and_chain: true,
        piped_into: Vec::new(),
    };
    push_stages(command, failed, false, &outer, 0, output, &mut out);
    out
}

/// The status a part's test runner reported in `output` (its summary: any failure, or
/// all passed), when the part is one runner's run.
fn status_in_output(part: &[String], output: &str) -> Option<bool> {
    if output.is_empty() {
        return None;
    }
    // A pipeline's status is its last stage's.
    let text = part.last()?;
    let argv = peel(programs(text, 0).first()?);
    let runner = summary::runner_of(&argv);
    let is_test = match runner {
        summary::Runner::Other => false,
        summary::Runner::Cargo => argv.iter().any(|a| a == "test"),
        _ => true,
    };
    if !is_test {
        return None;
    }
    summary::parse(runner, output)
        .filter(|s| s.counted || s.failed > 0)
        .map(|s| s.ok())
}

/// What stands around a nested script (`bash -c '…'`): its stages inherit it.
struct Outer {
    ran: Ran,
    owns_status: bool,
    and_chain: bool,
    piped_into: Vec<Vec<String>>,
}

fn push_stages(
    command: &str,
    failed: Option<bool>,
    errexit: bool,
    outer: &Outer,
    depth: usize,
    output: &str,
    out: &mut Vec<Stage>,
) {
    let pipefail = command.contains("pipefail");
    let parts = split(command);
    let ran = ran_of_parts(&parts, failed, errexit, output);
    let n = parts.len();
    for (k, (pipeline, _)) in parts.iter().enumerate() {
        let and_chain = parts[k..n - 1].iter().all(|(_, op)| *op == "&&")
            && parts
                .get(k)
                .is_some_and(|(_, op)| *op == "&&" || k == n - 1);
        let texts: Vec<&str> = pipeline
            .iter()
            .enumerate()
            .map(|(j, t)| {
                if j == 0 {
                    strip_keyword(t).1
                } else {
                    t.as_str()
                }
            })
            .collect();
        let progs: Vec<Vec<Vec<String>>> = texts.iter().map(|s| programs(s, 0)).collect();
        let here = ran[k].and(outer.ran);
        for (j, stage_progs) in progs.iter().enumerate() {
            let mut piped_into: Vec<Vec<String>> = progs[j + 1..]
                .iter()
                .filter_map(|p| p.first().cloned())
                .collect();
            piped_into.extend(outer.piped_into.iter().cloned());
            let last_pipeline = k == n - 1;
            let last_stage = j == progs.len() - 1;
            let owns = outer.owns_status && last_pipeline && (last_stage || pipefail);
            if depth < 4 {
                if let Some((script, e)) = nested_script(texts[j]) {
                    // The script's own exit status is the command's when it owns it.
                    let inner_failed = if owns && here == Ran::Yes {
                        failed
                    } else {
                        None
                    };
                    let inner = Outer {
                        ran: here,
                        owns_status: owns,
                        and_chain: outer.and_chain && and_chain && (last_stage || pipefail),
                        piped_into,
                    };
                    push_stages(
                        &script,
                        inner_failed,
                        errexit || e,
                        &inner,
                        depth + 1,
                        output,
                        out,
                    );
                    continue;
                }
            }
            // Only the pipeline's status decides what runs next: a stage piped into
            // another (`git push | tail`) without pipefail is in no chain.
            let chained = outer.and_chain && and_chain && (last_stage || pipefail);
            for (m, argv) in stage_progs.iter().enumerate() {
                out.push(Stage {
                    argv: argv.clone(),
                    piped_into: piped_into.clone(),
                    owns_status: owns && m == stage_progs.len() - 1,
                    and_chain: chained,
                    ran: here,
                });
            }
        }
    }
}

/// The script a stage hands to a shell (`bash -ec '…'`), and whether the shell was
/// started with `-e`.
fn nested_script(text: &str) -> Option<(String, bool)> {
    let script = shell::parse(text);
    let [cmd] = script.simple_commands()[..] else {
        return None;
    };
    let Runs::Script { text: inner, via } = shell::exec::runs(cmd) else {
        return None;
    };
    if !via.ends_with(" -c") {
        return None;
    }
    let errexit = cmd.words.iter().skip(1).any(|w| {
        w.text().is_some_and(|t| {
            t.strip_prefix('-')
                .is_some_and(|f| !f.starts_with('-') && f.contains('e'))
        })
    });
    Some((inner, errexit))
}

/// Whether the shell can have run a stage, from the command's operators (`&&`, `||`,
/// `;`, `set -e`, `if`/`case`/loops) and its exit status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ran {
    /// On every reading consistent with the exit status.
    #[default]
    Yes,
    /// On none: an earlier stage decided it would not run (`false && rm x`).
    No,
    /// On some readings only (`a && b` that failed: `a` or `b` failed).
    Maybe,
}

impl Ran {
    fn and(self, other: Ran) -> Ran {
        match (self, other) {
            (Ran::No, _) | (_, Ran::No) => Ran::No,
            (Ran::Yes, Ran::Yes) => Ran::Yes,
            _ => Ran::Maybe,
        }
    }
}

/// Shell keywords that open and close compound commands, and those that start a
/// branch or a body inside one.
const OPENERS: &[&str] = &["if", "case", "while", "until", "for", "select"];
const CLOSERS: &[&str] = &["fi", "esac", "done"];
const INNER: &[&str] = &["then", "elif", "else", "do"];

/// A part's leading keyword (`then git commit` → `then`, `git commit`).
fn strip_keyword(text: &str) -> (Option<&'static str>, &str) {
    let t = text.trim_start();
    for kw in OPENERS.iter().chain(CLOSERS).chain(INNER) {
        if let Some(rest) = t.strip_prefix(kw) {
            if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                return (Some(kw), rest.trim_start());
            }
        }
    }
    (None, t)
}

/// A unit of the top-level list: one part, or a compound command spanning parts.
struct Unit {
    first: usize,
    last: usize,
    /// The status when it is known from the program (`true`, `false`, `set -e`).
    fixed: Option<bool>,
    /// `set -e` (or `set -o errexit`) turns on here.
    sets_errexit: bool,
}

/// Units (parts joined into compound commands) of a split command; a part that is the
/// only test runner's run takes the status its summary in `output` shows.
fn units(parts: &[(Vec<String>, &'static str)], output: &str) -> Vec<Unit> {
    let seen: Vec<Option<bool>> = parts
        .iter()
        .map(|(p, _)| status_in_output(p, output))
        .collect();
    let one_runner = seen.iter().filter(|s| s.is_some()).count() == 1;
    let mut out = Vec::new();
    let mut k = 0;
    while k < parts.len() {
        let first_text = parts[k].0.first().map(String::as_str).unwrap_or("");
        let (kw, rest) = strip_keyword(first_text);
        if kw.is_some_and(|kw| OPENERS.contains(&kw)) && parts[k].0.len() == 1 {
            let mut depth = 0usize;
            let mut end = parts.len() - 1;
            for (j, (p, _)) in parts.iter().enumerate().skip(k) {
                let (kw, _) = strip_keyword(p.first().map(String::as_str).unwrap_or(""));
                match kw {
                    Some(o) if OPENERS.contains(&o) => depth += 1,
                    Some(c) if CLOSERS.contains(&c) => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            end = j;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            out.push(Unit {
                first: k,
                last: end,
                fixed: None,
                sets_errexit: false,
            });
            k = end + 1;
            continue;
        }
        let words: Vec<&str> = rest.split_whitespace().collect();
        let single = parts[k].0.len() == 1;
        let sets_errexit = single
            && words.first() == Some(&"set")
            && words[1..].iter().any(|w| {
                w.strip_prefix('-')
                    .is_some_and(|f| !f.starts_with('-') && f.contains('e'))
            })
            || single && words.windows(3).any(|w| w == ["set", "-o", "errexit"]);
        let fixed = match (single, words.as_slice()) {
            (true, ["true"] | [":"]) => Some(true),
            (true, ["false"]) => Some(false),
            _ if sets_errexit => Some(true),
            _ if one_runner && parts[k].1 != "&" => seen[k],
            _ => None,
        };
        out.push(Unit {
            first: k,
            last: k,
            fixed,
            sets_errexit,
        });
        k += 1;
    }
    out
}

/// Readings of a list past this many unknown statuses are not enumerated.
const MAX_FREE: usize = 12;

/// Whether each part ran, over every assignment of success or failure to the parts
/// whose status is not known that ends with the command's exit status.
fn ran_of_parts(
    parts: &[(Vec<String>, &'static str)],
    failed: Option<bool>,
    errexit: bool,
    output: &str,
) -> Vec<Ran> {
    let units = units(parts, output);
    let free: Vec<usize> = (0..units.len())
        .filter(|&u| units[u].fixed.is_none())
        .collect();
    let mut unit_ran = vec![Ran::Maybe; units.len()];
    if free.len() <= MAX_FREE {
        let (mut always, mut ever, mut any) =
            (vec![true; units.len()], vec![false; units.len()], false);
        for bits in 0u32..(1 << free.len()) {
            let ok_of = |u: usize| {
                units[u].fixed.unwrap_or_else(|| {
                    let i = free.iter().position(|&f| f == u).expect("free");
                    bits & (1 << i) == 0
                })
            };
            let mut ran = vec![false; units.len()];
            let (mut last_ok, mut errexit_on, mut stopped) = (true, errexit, false);
            for (u, unit) in units.iter().enumerate() {
                let prev_op = if u == 0 {
                    ";"
                } else {
                    parts[units[u - 1].last].1
                };
                let runs = !stopped
                    && match prev_op {
                        "&&" => last_ok,
                        "||" => !last_ok,
                        _ => true,
                    };
                if !runs {
                    continue;
                }
                ran[u] = true;
                let op = parts[unit.last].1;
                let ok = ok_of(u) || op == "&";
                errexit_on |= unit.sets_errexit;
                last_ok = ok;
                if !ok && errexit_on && !matches!(op, "&&" | "||") {
                    stopped = true;
                }
            }
            if failed.is_some_and(|f| f == last_ok) {
                continue;
            }
            any = true;
            for u in 0..units.len() {
                always[u] &= ran[u];
                ever[u] |= ran[u];
            }
        }
        if any {
            for u in 0..units.len() {
                unit_ran[u] = match (always[u], ever[u]) {
                    (true, _) => Ran::Yes,
                    (false, false) => Ran::No,
                    _ => Ran::Maybe,
                };
            }
        }
    }
    if let Some(r) = unit_ran.first_mut() {
        if *r == Ran::Maybe {
            *r = Ran::Yes;
        }
    }
    let mut out = vec![Ran::Maybe; parts.len()];
    for (u, unit) in units.iter().enumerate() {
        for (k, slot) in out
            .iter_mut()
            .enumerate()
            .take(unit.last + 1)
            .skip(unit.first)
        {
            // Inside a compound command only its head surely runs with it.
            *slot = if k == unit.first {
                unit_ran[u]
            } else {
                unit_ran[u].and(Ran::Maybe)
            };
        }
    }
    out
}

/// Whether a pipe cuts the end of a stage's output (`| head -16`), given the output seen.
pub fn cut_by_pipe(stage: &Stage, output: &str) -> Option<String> {
    for p in &stage.piped_into {
        let name = p[0].rsplit('/').next().unwrap_or(&p[0]);
        let limit = match name {
            "head" => Some(head_lines(&p[1..])),
            "sed" if p.iter().any(|a| a == "-n" || a.ends_with('q')) => Some(None),
            "less" | "more" => None,
            _ => None,
        };
        if let Some(limit) = limit {
            let lines = output.lines().count();
            // Fewer lines than the limit: nothing was cut.
            if limit.is_none_or(|n| lines >= n) {
                return Some(p.join(" "));
            }
        }
    }
    None
}

fn head_lines(args: &[String]) -> Option<usize> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "-n" || a == "--lines" {
            return it.next().and_then(|v| v.parse().ok());
        }
        if let Some(v) = a.strip_prefix("--lines=") {
            return v.parse().ok();
        }
        if let Some(v) = a.strip_prefix("-n") {
            return v.parse().ok();
        }
        if let Some(v) = a.strip_prefix('-') {
            if let Ok(n) = v.parse() {
                return Some(n);
            }
        }
        if a == "-c" || a.starts_with("--bytes") {
            return None;
        }
    }
    Some(10)
}

/// Launchers that run the program after them (`uv run pytest`, `npx jest`).
const LAUNCHERS: &[&[&str]] = &[
    &["uv", "run"],
    &["uvx"],
    &["poetry", "run"],
    &["pipenv", "run"],
    &["hatch", "run"],
    &["pdm", "run"],
    &["rye", "run"],
    &["pixi", "run"],
    &["npx"],
    &["bunx"],
    &["bun", "x"],
    &["bun", "run"],
    &["pnpm", "exec"],
    &["pnpm", "dlx"],
    &["yarn", "dlx"],
    &["yarn", "exec"],
    &["npm", "exec"],
    &["bundle", "exec"],
    &["dotnet", "tool", "run"],
];

/// The argv without its launchers and their options (`uv run --frozen pytest -q` →
/// `pytest -q`); `python -m X` reads as `X`.
/// The package script a package manager's command runs (`npm test`, `npm run lint`,
/// `pnpm build`, `yarn test`, `bun run e2e`): its name.
pub fn package_script(argv: &[String]) -> Option<String> {
    let program = argv
        .first()
        .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
    if !matches!(program, "npm" | "pnpm" | "yarn" | "bun") {
        return None;
    }
    let args: Vec<&str> = argv[1..]
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let name = match args.as_slice() {
        ["test" | "t" | "tst", ..] if program != "bun" => "test",
        ["start", ..] if program == "npm" => "start",
        ["run" | "run-script", name, ..] => name,
        [name, ..] if !matches!(program, "npm" | "bun") => name,
        _ => return None,
    };
    Some(name.to_owned())
}

pub fn peel(argv: &[String]) -> Vec<String> {
    let base = |s: &str| s.rsplit('/').next().unwrap_or(s).to_owned();
    let mut v: Vec<String> = argv.to_vec();
    for _ in 0..4 {
        let Some(first) = v.first().map(|s| base(s)) else {
            break;
        };
        let mut peeled = false;
        for l in LAUNCHERS {
            if first == l[0]
                && v.len() > l.len()
                && v[1..l.len()].iter().zip(&l[1..]).all(|(a, b)| a == b)
            {
                let mut rest: Vec<String> = v[l.len()..].to_vec();
                while rest.first().is_some_and(|a| a.starts_with('-')) {
                    let opt = rest.remove(0);
                    // Options with a value: `uv run --with x`, `npx -p x`.
                    if matches!(
                        opt.as_str(),
                        "--with" | "-p" | "--package" | "--python" | "--env" | "-e"
                    ) && !rest.is_empty()
                    {
                        rest.remove(0);
                    }
                }
                v = rest;
                peeled = true;
                break;
            }
        }
        if !peeled
            && first.starts_with("python")
            && v.get(1).is_some_and(|a| a == "-m")
            && v.len() > 2
        {
            v = v[2..].to_vec();
            peeled = true;
        }
        if !peeled {
            break;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn an_ifs_condition_status_shows_in_its_then_branchs_message() {
        let cmd =
            r#"if cargo fmt --check >/dev/null 2>&1; then echo "fmt: ok"; fi; cargo test -q 2>&1"#;
        let fmt = argv("cargo fmt --check");
        assert_eq!(
            status_by_branch(cmd, &fmt, "running 3 tests\n...\n"),
            Some(false)
        );
        assert_eq!(
            status_by_branch(cmd, &fmt, "fmt: ok\nrunning 3 tests\n"),
            Some(true)
        );
        let negated = r#"if ! cargo fmt --check; then echo "needs fmt"; fi"#;
        assert_eq!(status_by_branch(negated, &fmt, "needs fmt\n"), Some(false));
        // A message with a variable, or a branch that does more: not told.
        let var = r#"if cargo fmt --check; then echo "ok $x"; fi"#;
        assert_eq!(status_by_branch(var, &fmt, ""), None);
        assert_eq!(
            status_by_branch("cargo fmt --check && echo ok", &fmt, ""),
            None
        );
    }

    #[test]
    fn stages_know_their_pipes_and_chains() {
        let s = stages("cd x && cargo test 2>&1 | head -16");
        let t = s.iter().find(|s| s.argv[0] == "cargo").unwrap();
        assert!(!t.owns_status);
        assert_eq!(t.piped_into, vec![argv("head -16")]);
        assert_eq!(cut_by_pipe(t, &"x\n".repeat(16)), Some("head -16".into()));
        assert_eq!(cut_by_pipe(t, "x\ny\n"), None);
        let s = stages("git commit -m 'a && b' && git push origin main");
        assert_eq!(s.len(), 2);
        assert!(s[0].and_chain && !s[0].owns_status && s[1].owns_status);
        let s = stages("set -o pipefail; pytest | tee log");
        assert!(
            s.iter()
                .find(|s| s.argv[0] == "pytest")
                .unwrap()
                .owns_status
        );
    }

    #[test]
    fn a_shell_given_a_file_is_a_stage_of_its_own() {
        let s = stages("bash -n scripts/backup.sh 2>&1");
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(s[0].argv, argv("bash -n scripts/backup.sh"));
        assert_eq!(stages("sh ./build.sh && cargo test").len(), 2);
    }

    fn ran(command: &str, failed: bool) -> Vec<(String, Ran)> {
        stages_run(command, Some(failed))
            .into_iter()
            .map(|s| (s.argv.join(" "), s.ran))
            .collect()
    }

    fn ran_of(command: &str, failed: bool, program: &str) -> Ran {
        ran(command, failed)
            .into_iter()
            .find(|(a, _)| a.starts_with(program))
            .unwrap_or_else(|| panic!("no {program} in {command}"))
            .1
    }

    #[test]
    fn what_ran_follows_the_operators_and_the_exit_status() {
        use Ran::*;
        // `&&`: a command that failed may have stopped anywhere; one that succeeded ran all.
        assert_eq!(
            ran_of("cargo test && git commit -qam x", true, "git"),
            Maybe
        );
        assert_eq!(ran_of("cargo test && git commit -qam x", false, "git"), Yes);
        assert_eq!(ran_of("false && rm build/old.o", true, "rm"), No);
        assert_eq!(ran_of("true || touch x", false, "touch"), No);
        assert_eq!(ran_of("make || touch x", false, "touch"), Maybe);
        assert_eq!(ran_of("make || touch x", true, "touch"), Yes);
        // `;` runs the next whatever happened.
        assert_eq!(ran_of("false; rm x", false, "rm"), Yes);
        assert_eq!(ran_of("cp a b; git push origin main", true, "git"), Yes);
        // `set -e` stops at the first failure outside an `&&`/`||` list.
        assert_eq!(ran_of("set -e; false; rm x", true, "rm"), No);
        assert_eq!(ran_of("set -e; cp a b; rm x", true, "rm"), Maybe);
        assert_eq!(ran_of("set -e; cp a b; rm x", false, "rm"), Yes);
        assert_eq!(ran_of("set -e; false || true; rm x", false, "rm"), Yes);
        assert_eq!(ran_of("bash -ec 'false; rm x'", true, "rm"), No);
        assert_eq!(ran_of("sh -c 'set -e; false; rm x'", true, "rm"), No);
        assert_eq!(ran_of("bash -c 'false; rm x'", false, "rm"), Yes);
        // A nested script whose status is not the command's is not judged by it.
        assert_eq!(
            ran_of("bash -ec 'cp a b; rm x'; echo done", false, "rm"),
            Maybe
        );
        // A branch of an `if` may or may not have run; its condition did.
        assert_eq!(
            ran_of("if cargo test; then git push; fi", false, "cargo"),
            Yes
        );
        assert_eq!(
            ran_of("if cargo test; then git push; fi", false, "git"),
            Maybe
        );
        // Background jobs do not decide anything.
        assert_eq!(ran_of("sleep 1 & rm x", false, "rm"), Yes);
        // A stage piped into another is in no `&&` chain: its status is hidden.
        let s = stages_run("a && git push origin main 2>&1 | tail -n 4", Some(false));
        let push = s.iter().find(|s| s.argv[0] == "git").unwrap();
        assert!(!push.and_chain && !push.owns_status);
    }

    #[test]
    fn launchers_are_peeled() {
        assert_eq!(peel(&argv("uv run --frozen pytest -q")), argv("pytest -q"));
        assert_eq!(
            peel(&argv("python3 -m unittest discover")),
            argv("unittest discover")
        );
        assert_eq!(peel(&argv("npx --yes jest --ci")), argv("jest --ci"));
        assert_eq!(peel(&argv("poetry run python -m pytest")), argv("pytest"));
        assert_eq!(peel(&argv("cargo test")), argv("cargo test"));
    }

    #[test]
    fn a_runners_summary_tells_its_own_status() {
        let ran = |command: &str, failed: bool, output: &str, program: &str| {
            stages_seen(command, Some(failed), output)
                .into_iter()
                .find(|s| s.argv[0] == program)
                .map(|s| s.ran)
        };
        // The tests failed (their summary says so): the copy after `&&` never ran.
        let failing = "# tests 3\n# pass 2\n# fail 1\n";
        let c = "node --test && mkdir -p dist && cp src/a.js dist/";
        assert_eq!(ran(c, true, failing, "cp"), Some(Ran::No));
        assert_eq!(ran(c, true, failing, "mkdir"), Some(Ran::No));
        // Without the output either stage may have failed.
        assert_eq!(ran(c, true, "", "cp"), Some(Ran::Maybe));
        // The tests passed: what failed came after them, and the next stage ran.
        let passing = "# tests 3\n# pass 3\n# fail 0\n";
        assert_eq!(ran(c, true, passing, "mkdir"), Some(Ran::Yes));
        // Two runners in one command: whose summary it is cannot be told.
        let two = "node --test a.js && node --test b.js && cp a dist/";
        assert_eq!(ran(two, true, failing, "cp"), Some(Ran::Maybe));
    }
}
