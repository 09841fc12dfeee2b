//! A shell command of the turn, split the way the shell runs it: a chain of pipelines
//! (`a && b | c; d`), so a runner's verdict is read from what is its own: its exit status
//! only when nothing after it in a pipe hides it, its output only when nothing cut it.

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

/// The stages of a command: every program, with its pipe and chain context.
pub fn stages(command: &str) -> Vec<Stage> {
    let pipefail = command.contains("pipefail");
    let parts = split(command);
    let n = parts.len();
    let mut out = Vec::new();
    for (k, (pipeline, _)) in parts.iter().enumerate() {
        let and_chain = parts[k..n - 1].iter().all(|(_, op)| *op == "&&")
            && parts
                .get(k)
                .is_some_and(|(_, op)| *op == "&&" || k == n - 1);
        let progs: Vec<Vec<Vec<String>>> = pipeline.iter().map(|s| programs(s, 0)).collect();
        for (j, stage_progs) in progs.iter().enumerate() {
            let piped_into: Vec<Vec<String>> = progs[j + 1..]
                .iter()
                .filter_map(|p| p.first().cloned())
                .collect();
            let last_pipeline = k == n - 1;
            let last_stage = j == progs.len() - 1;
            for (m, argv) in stage_progs.iter().enumerate() {
                out.push(Stage {
                    argv: argv.clone(),
                    piped_into: piped_into.clone(),
                    owns_status: last_pipeline
                        && (last_stage || pipefail)
                        && m == stage_progs.len() - 1,
                    and_chain,
                });
            }
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
}
