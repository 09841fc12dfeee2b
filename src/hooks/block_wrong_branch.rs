//! block-wrong-branch: denies shell commands that would create commits on, move, rewrite,
//! delete or push to a protected branch, and stays silent for everything else.
//!
//! The command is parsed ([`crate::shell`]), every git invocation in it is found through
//! wrappers, substitutions, scripts and aliases, and each is resolved to the branch updates
//! it would make ([`crate::git`]), tracking `cd` and branch switches from one part of the
//! command to the next. What cannot be read statically is denied in a repository that has
//! protected branches: under bypassPermissions, "no decision" is no protection.

use super::{Context, Hook, HookOutcome};
use crate::git::{Action, Analyzer, Effect, GitCall, Place, RefUpdate, DYNAMIC};
use crate::policy::Policy;
use crate::protocol::Payload;
use crate::shell::exec::{self, Runs};
use crate::shell::walk::{invocation_cwd, ShellState, Site, Spawn, Visitor, Walker};
use crate::shell::{self, SimpleCommand};
use std::path::Path;

const HOOK: &str = "block-wrong-branch";

pub fn run(input: &crate::protocol::HookInput, ctx: &Context) -> HookOutcome {
    let Payload::PreToolUse { call } = &input.payload else {
        return HookOutcome::silent();
    };
    if !crate::tools::is_shell(&call.name) {
        return HookOutcome::silent();
    }
    let deny = |reason| HookOutcome::deny(Hook::BlockWrongBranch, input, ctx.now, None, reason);
    let Some(command) = call.input.get("command").and_then(|c| c.as_str()) else {
        return deny(format!(
            "{HOOK}: the {} tool input has no command (a string), so it cannot be checked.",
            call.name
        ));
    };
    let mut session = Analyzer::new(ctx.env);
    let analysis = analyze(command, &input.common.cwd, &mut session, ctx.env);
    match decide(&analysis, ctx.policy, &mut session, &input.common.cwd) {
        Decision::Allow => HookOutcome::silent(),
        Decision::Deny(reason) => deny(reason),
    }
}

/// Everything the guard found in a command.
#[derive(Debug, Default)]
pub struct Analysis {
    /// Branch updates, each with the git command that makes it.
    pub updates: Vec<(RefUpdate, String)>,
    /// What could not be resolved, each with the command it is in.
    pub unresolved: Vec<(String, String)>,
    /// A readable account of the analysis, for `explain`.
    pub trace: Vec<String>,
}

/// Analyzes `command` as run in `cwd`.
pub fn analyze<'e>(
    command: &str,
    cwd: &Path,
    session: &mut Analyzer<'e>,
    env: &'e dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Analysis {
    let guard = Guard {
        session,
        out: Analysis::default(),
        hook_written: None,
    };
    Walker::new(guard, env).run(command, cwd.to_owned()).out
}

/// The visitor: resolves each git invocation to branch updates.
struct Guard<'s, 'e> {
    session: &'s mut Analyzer<'e>,
    out: Analysis,
    /// A git hook this command wrote (any later git command may run it).
    hook_written: Option<String>,
}

impl Visitor for Guard<'_, '_> {
    fn command(
        &mut self,
        site: &Site,
        cmd: &SimpleCommand,
        runs: &Runs,
        state: &ShellState,
    ) -> Vec<Spawn> {
        match writes_what_git_runs(cmd, runs, state.cwd.as_deref()) {
            Some((target, GitFile::Config)) => {
                self.out.trace.push(format!("command: {}", site.text));
                self.unresolved(site, format!("it writes git's configuration directly ({target}), which can change where later git commands push"));
            }
            // Writing a hook is harmless until a git command runs it.
            Some((target, GitFile::Hook)) => self.hook_written = Some(target),
            None => {}
        }
        match runs {
            Runs::Unknown(reason) => {
                self.out.trace.push(format!("command: {}", site.text));
                self.unresolved(site, reason.clone());
                Vec::new()
            }
            Runs::Script { .. } | Runs::Commands(_) => {
                self.out.trace.push(format!("command: {}", site.text));
                Vec::new()
            }
            Runs::Program(exec::Invocation {
                opaque: Some(reason),
                ..
            }) => {
                self.out.trace.push(format!("command: {}", site.text));
                self.unresolved(site, reason.clone());
                Vec::new()
            }
            Runs::Program(inv) if inv.name() == "git" => {
                if let Some(hook) = &self.hook_written {
                    let reason = format!("a git hook written earlier in this command ({hook}) runs with this git command, and the guard cannot read what it does");
                    self.out.trace.push(format!("command: {}", site.text));
                    self.unresolved(site, reason);
                }
                self.git(site, inv, state)
            }
            Runs::Program(_) | Runs::Nothing => Vec::new(),
        }
    }

    fn unresolved(&mut self, site: &Site, reason: String) {
        self.out.trace.push(format!("  cannot resolve: {reason}"));
        self.out.unresolved.push((reason, site.cited.clone()));
    }

    fn note(&mut self, line: String) {
        self.out.trace.push(line);
    }
}

impl Guard<'_, '_> {
    fn git(&mut self, site: &Site, inv: &exec::Invocation, state: &ShellState) -> Vec<Spawn> {
        let cwd = invocation_cwd(inv, state);
        let mut env = if inv.clear_env {
            Vec::new()
        } else {
            state.exported.clone()
        };
        env.extend(inv.env.iter().cloned());
        let mut args: Vec<String> = inv
            .args
            .iter()
            .map(|w| match w.text() {
                Some(t) => t.to_owned(),
                None => match (current_branch_substitution(&w.raw), &cwd) {
                    (true, Some(dir)) => self
                        .session
                        .current_branch(dir)
                        .unwrap_or_else(|| format!("{DYNAMIC}{}", w.raw)),
                    _ => format!("{DYNAMIC}{}", w.raw),
                },
            })
            .collect();
        if inv.appended_unknown {
            args.push(format!(
                "{DYNAMIC}(arguments {} appends)",
                inv.appender.as_deref().unwrap_or("xargs")
            ));
        }
        let via = if inv.wrappers.is_empty() {
            String::new()
        } else {
            format!(" (through {})", inv.wrappers.join(", "))
        };
        self.out.trace.push(format!(
            "git invocation: git {}{via} in {}",
            args.iter()
                .map(|a| match a.strip_prefix(DYNAMIC) {
                    Some(raw) => raw.to_owned(),
                    None => shell::quote(a),
                })
                .collect::<Vec<_>>()
                .join(" "),
            cwd.as_ref()
                .map_or("an unknown directory".into(), |c| c.display().to_string())
        ));
        let call = GitCall {
            args,
            env,
            cwd: cwd.clone(),
        };
        let mut spawned = Vec::new();
        for effect in self.session.analyze(&call) {
            match effect {
                Effect::Note(n) => self.out.trace.push(format!("  {n}")),
                Effect::Update(u) => {
                    self.out.trace.push(format!(
                        "  -> would {} {}{}",
                        u.action.verb(),
                        u.branch,
                        place(&u.place)
                    ));
                    self.out.updates.push((u, site.cited.clone()));
                }
                Effect::Unresolvable(reason) => self.unresolved(site, reason),
                Effect::Script { text, cwd: dir } => spawned.push(Spawn {
                    text,
                    cwd: dir.or_else(|| cwd.clone()),
                    via: "a git alias or --exec".into(),
                }),
            }
        }
        spawned
    }
}

/// A file git reads or runs.
enum GitFile {
    Config,
    Hook,
}

/// A write, by any writer the scope tables know (a redirection, `tee -a`, `sed -i`, `cp`),
/// to what git reads and runs: its config files, or a hook.
fn writes_what_git_runs(
    cmd: &SimpleCommand,
    runs: &Runs,
    cwd: Option<&std::path::Path>,
) -> Option<(String, GitFile)> {
    crate::shell::writes::write_targets(cmd, runs, cwd)
        .into_iter()
        .find_map(|t| {
            let target = t.word.text().unwrap_or(&t.word.raw).to_owned();
            let what = if target.ends_with(".git/config")
                || target.ends_with("/config.worktree")
                || target.ends_with(".gitconfig")
                || target.ends_with("/.config/git/config")
            {
                GitFile::Config
            } else if target.contains(".git/hooks/") || target.ends_with(".git/hooks") {
                GitFile::Hook
            } else {
                return None;
            };
            Some((target, what))
        })
}

/// `$(git branch --show-current)` and its equivalents name the current branch: resolve
/// them instead of treating them as unknowable (agents write them often).
fn current_branch_substitution(raw: &str) -> bool {
    let raw = raw.trim_matches('"');
    let inner = raw
        .strip_prefix("$(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| raw.strip_prefix('`').and_then(|r| r.strip_suffix('`')));
    let Some(inner) = inner else { return false };
    let words: Vec<&str> = inner.split_whitespace().collect();
    matches!(
        words.as_slice(),
        ["git", "branch", "--show-current"]
            | ["git", "rev-parse", "--abbrev-ref", "HEAD"]
            | ["git", "symbolic-ref", "--short", "HEAD"]
            | ["git", "symbolic-ref", "--short", "-q", "HEAD"]
    )
}

fn place(p: &Place) -> String {
    match p {
        Place::Local => String::new(),
        Place::Remote(r) => format!(" on {r}"),
    }
}

/// The guard's answer.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision {
    Allow,
    Deny(String),
}

/// Applies the policy to an analysis.
pub fn decide(
    analysis: &Analysis,
    policy: &Policy,
    session: &mut Analyzer,
    cwd: &Path,
) -> Decision {
    // Nothing touched, nothing unknown: no repository access at all.
    if analysis.updates.is_empty() && analysis.unresolved.is_empty() {
        return Decision::Allow;
    }
    let rules = &policy.branches;
    // Branches known here: None when there is no repository. A repository that cannot
    // be opened (a format libgit2 does not read, unsafe ownership) may hold anything, so
    // it counts as having protected branches.
    let (defaults, known_branches, unreadable) = match session.repo_at(cwd) {
        Ok(Some(repo)) => {
            let defaults = repo.remote_default_branches();
            let mut known = repo.local_branches();
            known.extend(defaults.iter().cloned());
            (defaults, Some(known), false)
        }
        Ok(None) => (Vec::new(), None, false),
        Err(_) => (Vec::new(), None, true),
    };
    let source = &policy.source;
    for (u, cmd) in &analysis.updates {
        let key = u.action.deny_kind();
        // The remote defaults of the project's repository, and of the one the update
        // happens in (`git -C ../other push origin develop` where other's default is
        // develop).
        let mut here = defaults.clone();
        here.extend(u.remote_defaults.iter().cloned());
        if let Some(rule) = rules.protects(&u.branch, &here) {
            if rules.deny.get(key) {
                return Decision::Deny(format!(
                    "{HOOK}: {cmd} would {} the protected branch {}{}. Rule: {rule} (branches.deny.{key}) in {source}. {}",
                    u.action.verb(),
                    u.branch,
                    place(&u.place),
                    advice(u.action, &u.branch)
                ));
            }
            continue;
        }
        if matches!(u.action, Action::Push { force: true }) && !rules.allow_force_push {
            return Decision::Deny(format!(
                "{HOOK}: {cmd} would force-push to {}{}. Rule: branches.allow_force_push is false in {source}. Push without --force (rebase on the remote branch first), or ask the user.",
                u.branch,
                place(&u.place)
            ));
        }
        if u.action.lands_work() && !rules.allows(&u.branch) {
            return Decision::Deny(format!(
                "{HOOK}: {cmd} would {} {}{}, which branches.allowed ({}) in {source} does not include. Work on a branch that matches it.",
                u.action.verb(),
                u.branch,
                place(&u.place),
                rules.allowed.as_deref().unwrap_or_default().join(", ")
            ));
        }
    }
    if let (Some((reason, cmd)), true) = (
        analysis.unresolved.first(),
        rules.deny.get(crate::policy::DenyKind::Unresolvable),
    ) {
        let protected_here = unreadable
            || known_branches
                .is_some_and(|names| names.iter().any(|b| rules.protects(b, &defaults).is_some()));
        if protected_here {
            return Decision::Deny(format!(
                "{HOOK}: cannot tell what {cmd} would do: {reason}. This repository has protected branches ({}), and what the guard cannot read it denies (branches.deny.unresolvable in {source}). Write the git command out plainly, without variables, eval or a wrapper shell, e.g. `git push origin HEAD:feat/<name>`.",
                rules.describe_protected()
            ));
        }
    }
    Decision::Allow
}

fn advice(action: Action, branch: &str) -> String {
    match action {
        Action::Push { .. } => "Push to a feature branch instead: `git push -u origin HEAD:feat/<name>`, then open a pull request.".into(),
        Action::PushDelete | Action::Delete | Action::Rename => format!("Leave {branch} in place; if it really must go, ask the user to do it."),
        Action::ForceMove | Action::UpdateRef | Action::Alias | Action::Fetch => {
            format!("Leave {branch} where it is; create or move a feature branch instead (`git switch -c feat/<name>`).")
        }
        _ => format!("Create a feature branch first (`git switch -c feat/<name>`) and do it there; {branch} changes through pull requests."),
    }
}

/// The full analysis, for `did-it-actually explain`.
pub struct Explanation {
    /// One line per git invocation or unresolvable piece, in order.
    pub trace: Vec<String>,
    pub decision: Decision,
}

pub fn explain(
    command: &str,
    cwd: &Path,
    policy: &Policy,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Explanation {
    let mut session = Analyzer::new(env);
    let analysis = analyze(command, cwd, &mut session, env);
    let decision = decide(&analysis, policy, &mut session, cwd);
    Explanation {
        trace: analysis.trace,
        decision,
    }
}

impl Explanation {
    pub fn text(&self, cwd: &Path, policy: &Policy) -> String {
        let mut out = format!(
            "command in {}\npolicy: {}\nprotected: {}\n",
            cwd.display(),
            policy.source,
            policy.branches.describe_protected()
        );
        if self.trace.is_empty() {
            out.push_str("no git invocation and nothing unresolvable\n");
        }
        for line in &self.trace {
            out.push_str(line);
            out.push('\n');
        }
        match &self.decision {
            Decision::Allow => out.push_str("verdict: allow (no protected branch is touched)\n"),
            Decision::Deny(reason) => {
                out.push_str("verdict: deny\n");
                out.push_str(reason);
                out.push('\n');
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn current_branch_substitutions() {
        assert!(current_branch_substitution("$(git branch --show-current)"));
        assert!(current_branch_substitution(
            "\"$(git rev-parse --abbrev-ref HEAD)\""
        ));
        assert!(current_branch_substitution(
            "`git symbolic-ref --short HEAD`"
        ));
        assert!(!current_branch_substitution("$(git log -1)"));
        assert!(!current_branch_substitution("$B"));
    }

    #[test]
    fn commands_without_git_touch_nothing() {
        let env = |_: &str| None;
        let mut session = Analyzer::new(&env);
        let a = analyze(
            "ls -la && cargo test | tail -5; echo \"git push origin main\"",
            Path::new("/nonexistent"),
            &mut session,
            &env,
        );
        assert!(a.updates.is_empty() && a.unresolved.is_empty(), "{a:?}");
    }
}
