//! scope-guard: denies writes outside the scope the repository's policy allows, and any
//! write to the guard suite's own policy, settings and state.
//!
//! Write tools are judged by their targets (the same tool table as verify-write); shell
//! commands by the writes they visibly make ([`crate::shell::writes`]), found through the
//! same walk as block-wrong-branch's. A target that is not a literal path is denied: it
//! could point anywhere.

use super::{Context, Hook, HookOutcome};
use crate::protocol::Payload;
use crate::scope::{How, Scope};
use crate::shell::exec::Runs;
use crate::shell::walk::{invocation_cwd, ShellState, Site, Spawn, Visitor, Walker};
use crate::shell::writes::{write_targets, WriteTarget};
use crate::shell::SimpleCommand;
use crate::tools;
use std::path::{Path, PathBuf};

const HOOK: &str = "scope-guard";

pub fn run(input: &crate::protocol::HookInput, ctx: &Context) -> HookOutcome {
    let Payload::PreToolUse { call } = &input.payload else {
        return HookOutcome::silent();
    };
    let cwd = &input.common.cwd;
    let scope = Scope::new(ctx.policy, cwd, ctx.env);
    let name = tools::normalize(&call.name);
    // (rule, reason): the rule is kept apart for the ledger.
    let denial: Option<(Option<String>, String)> = if let Some(kind) = tools::write_kind(&call.name)
    {
        match tools::write_targets(kind, &call.input) {
            Ok(targets) => targets.iter().find_map(|t| {
                // A move takes the whole tree at its source (the link itself, not what it
                // points to) and puts it at its destination, as `mv` does in a shell.
                let how = match t.role {
                    tools::Role::MovedFrom => How {
                        follow_last: false,
                        recursive: true,
                    },
                    tools::Role::MovedTo => How {
                        follow_last: true,
                        recursive: true,
                    },
                    _ => How::default(),
                };
                let j = scope.judge_with(&t.path, cwd, how);
                (!j.allowed).then(|| {
                    let reason = format!(
                        "{HOOK}: the {name} to {} is not allowed: {}. {}",
                        shown(&t.path, &j.resolved),
                        j.rule,
                        scope.advice(&j)
                    );
                    (Some(j.rule.to_string()), reason)
                })
            }),
            Err(e) => Some((
                None,
                format!("{HOOK}: cannot tell where this {name} writes: {e}."),
            )),
        }
    } else if tools::is_shell(&call.name) {
        match call.input.get("command").and_then(|c| c.as_str()) {
            Some(command) => check_command(command, cwd, &scope, ctx.env).into_iter().next().map(|r| (None, r)),
            None => Some((None, format!("{HOOK}: the {name} tool input has no command (a string), so its writes cannot be checked."))),
        }
    } else {
        None
    };
    match denial {
        Some((rule, reason)) => HookOutcome::deny(Hook::ScopeGuard, input, ctx.now, rule, reason),
        None => HookOutcome::silent(),
    }
}

/// The path as given, and where it resolves when that differs.
fn shown(raw: &str, resolved: &Path) -> String {
    if Path::new(raw) == resolved {
        raw.to_owned()
    } else {
        format!("{raw} (which resolves to {})", resolved.display())
    }
}

/// Every denial for the writes of a shell command, in order.
pub fn check_command(
    command: &str,
    cwd: &Path,
    scope: &Scope,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Vec<String> {
    let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    Walker::new(
        Writes {
            scope,
            home,
            denials: Vec::new(),
        },
        env,
    )
    .run(command, cwd.to_owned())
    .denials
}

struct Writes<'s> {
    scope: &'s Scope,
    home: Option<PathBuf>,
    denials: Vec<String>,
}

impl Visitor for Writes<'_> {
    fn command(
        &mut self,
        site: &Site,
        cmd: &SimpleCommand,
        runs: &Runs,
        state: &ShellState,
    ) -> Vec<Spawn> {
        // Redirections happen in the shell's directory; a program's own targets in the
        // directory its wrapper moved to (`env -C dir cp …`).
        let program_cwd = match runs {
            Runs::Program(inv) => invocation_cwd(inv, state),
            _ => state.cwd.clone(),
        };
        for target in write_targets(cmd, runs) {
            let cwd = if target.how.starts_with("redirection") {
                state.cwd.clone()
            } else {
                program_cwd.clone()
            };
            if let Some(reason) = self.judge(site, &target, cwd.as_deref()) {
                self.denials.push(reason);
            }
        }
        Vec::new()
    }

    fn unresolved(&mut self, site: &Site, reason: String) {
        self.denials.push(format!(
            "{HOOK}: cannot tell what {} writes: {reason}. Write the command out plainly so its targets can be checked.",
            site.cited
        ));
    }
}

impl Writes<'_> {
    fn judge(&self, site: &Site, target: &WriteTarget, cwd: Option<&Path>) -> Option<String> {
        let root = self.scope.root.display();
        let dynamic = |word: &crate::shell::Word| {
            format!(
                "{HOOK}: {} writes to `{}` ({}), a path only known when it runs, which could be outside scope. Write to a literal path inside {root}/.",
                site.cited, word.raw, target.how
            )
        };
        let Some(path) = self.literal(&target.word) else {
            return Some(dynamic(&target.word));
        };
        let base = match &target.base {
            None => cwd.map(Path::to_path_buf),
            Some(b) => match self.literal(b) {
                Some(b) => cwd
                    .map(|c| c.join(&b))
                    .or_else(|| Some(PathBuf::from(&b)).filter(|p| p.is_absolute())),
                None => return Some(dynamic(b)),
            },
        };
        let cwd = match (base, Path::new(&path).is_absolute()) {
            (Some(c), _) => c,
            (None, true) => PathBuf::from("/"),
            (None, false) => {
                return Some(format!(
                    "{HOOK}: {} writes to `{path}` ({}) relative to a directory only known when it runs (after a `cd` to a variable). Use an absolute path inside {root}/.",
                    site.cited, target.how
                ))
            }
        };
        if target.if_exists && std::fs::symlink_metadata(cwd.join(&path)).is_err() {
            return None;
        }
        let how = How {
            follow_last: !target.no_follow,
            recursive: target.recursive,
        };
        // A copy, move or link into an existing directory lands at DIR/<source name>.
        let into_dir =
            !target.sources.is_empty() && (path.ends_with('/') || cwd.join(&path).is_dir());
        let landing: Vec<String> = if into_dir {
            let mut names = Vec::new();
            for source in &target.sources {
                let Some(src) = self.literal(source) else {
                    return Some(dynamic(source));
                };
                let name = Path::new(src.trim_end_matches('/'))
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned());
                names.push(format!(
                    "{}/{}",
                    path.trim_end_matches('/'),
                    name.unwrap_or_default()
                ));
            }
            names
        } else {
            self.expand(&target.word, &path, &cwd)
        };
        for landed in landing {
            let j = self.scope.judge_with(&landed, &cwd, how);
            if !j.allowed {
                return Some(format!(
                    "{HOOK}: {} would write {} ({}), which is not allowed: {}. {}",
                    site.cited,
                    shown(&landed, &j.resolved),
                    target.how,
                    j.rule,
                    self.scope.advice(&j)
                ));
            }
        }
        None
    }

    /// The word's literal text, `~/…` read as the home directory.
    fn literal(&self, word: &crate::shell::Word) -> Option<String> {
        word.text()
            .map(str::to_owned)
            .or_else(|| self.tilde(&word.raw))
    }

    /// An unquoted glob (`certs/*`) names the files it matches, as the shell expands it:
    /// each is judged. Wildcards before the last part are judged as their literal
    /// directory, recursively (everything under it may be named). No match: the word
    /// itself, as the shell passes it on.
    fn expand(&self, word: &crate::shell::Word, path: &str, cwd: &Path) -> Vec<String> {
        let wild = |s: &str| s.contains(['*', '?', '[']);
        if word.quoted || !wild(path) {
            return vec![path.to_owned()];
        }
        let (dir, last) = match path.rsplit_once('/') {
            Some((d, l)) => (if d.is_empty() { "/" } else { d }, l),
            None => (".", path),
        };
        if wild(dir) {
            let literal: Vec<&str> = dir.split('/').take_while(|c| !wild(c)).collect();
            let literal = if literal.is_empty() {
                ".".to_owned()
            } else {
                literal.join("/")
            };
            return vec![format!("{literal}/")];
        }
        let Ok(glob) = globset::Glob::new(last).map(|g| g.compile_matcher()) else {
            return vec![path.to_owned()];
        };
        let matches: Vec<String> = std::fs::read_dir(cwd.join(dir))
            .map(|entries| {
                entries
                    .flatten()
                    .filter(|e| {
                        glob.is_match(e.file_name())
                            && (last.starts_with('.')
                                || !e.file_name().to_string_lossy().starts_with('.'))
                    })
                    .map(|e| format!("{dir}/{}", e.file_name().to_string_lossy()))
                    .collect()
            })
            .unwrap_or_default();
        if matches.is_empty() {
            vec![path.to_owned()]
        } else {
            matches
        }
    }

    /// `~` and `~/…` (unquoted, otherwise literal) are the home directory.
    fn tilde(&self, raw: &str) -> Option<String> {
        let rest = raw.strip_prefix('~')?;
        if !(rest.is_empty() || rest.starts_with('/'))
            || rest.contains(['$', '`', '\'', '"', '\\', '{'])
        {
            return None;
        }
        Some(format!("{}{rest}", self.home.as_ref()?.display()))
    }
}
