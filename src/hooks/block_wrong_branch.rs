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
use crate::runtime::activation::{activation, Activation};
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
            call.host_name
        ));
    };
    let mut session = Analyzer::new(ctx.env);
    let analysis = analyze(command, &input.common.cwd, &mut session, ctx.env);
    let layers = Layers::of(ctx.policy, ctx.env);
    let outcome = match decide(
        &analysis,
        ctx.policy,
        &mut session,
        &input.common.cwd,
        &layers,
    ) {
        Decision::Allow => HookOutcome::silent(),
        Decision::AllowNoted(note) => HookOutcome::respond(crate::protocol::Response::new(
            crate::protocol::Verdict::Context(note),
        )),
        Decision::Deny(reason) => deny(reason),
    };
    // The command about to run meets the hooks the repository has now (a hook manager
    // installed by the last command): the run-time layer's directory holds only those,
    // or every name when the command may add one as it runs.
    // A command that runs no git (as far as anything it starts can be known) meets no
    // hook: nothing to bring up to date for it (`ls`, `cat`), the next git command will.
    let meets_hooks = analysis.runs_git || analysis.may_change_hooks();
    match layers.run_time {
        Activation::Active { hooks } if meets_hooks => {
            outcome.and(crate::state::Change::SyncGitHooks {
                hooks,
                every_name: analysis.may_change_hooks(),
            })
        }
        _ => outcome,
    }
}

/// Which layers decide: the static reading always; the run-time layer (git's own hooks)
/// when the policy wants it and the agent's environment has it switched on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers {
    pub run_time: Activation,
}

impl Layers {
    pub fn of(policy: &Policy, env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Layers {
        let run_time = if policy.branches.run_time {
            activation(env)
        } else {
            Activation::Inactive(format!("branches.run_time is false in {}", policy.source))
        };
        Layers { run_time }
    }

    /// The static layer alone, for the corpora and callers that have no environment.
    pub fn static_only() -> Layers {
        Layers {
            run_time: Activation::Inactive("not asked".into()),
        }
    }

    /// One line for `explain`: which layers decide.
    pub fn describe(&self) -> String {
        match &self.run_time {
            Activation::Active { hooks } => format!(
                "layers: static reading, and the run-time layer (git's own hooks in {}) for what only running shows",
                hooks.display()
            ),
            Activation::Inactive(why) => format!(
                "layers: static reading alone (run-time layer off: {why}): a git command it cannot read is denied, but what a script, a recipe or an interpreter it runs starts is not read, and nothing checks it"
            ),
        }
    }
}

/// Everything the guard found in a command.
#[derive(Debug, Default)]
pub struct Analysis {
    /// Branch updates, each with the git command that makes it.
    pub updates: Vec<(RefUpdate, String)>,
    /// What could not be resolved, each with the command it is in.
    pub unresolved: Vec<(String, String)>,
    /// Changes to branches whose names are computed when the command runs: the reason,
    /// the words as written, and the command. The policy decides whether their literal
    /// part rules out every protected name.
    pub unnamed: Vec<(String, Vec<String>, String)>,
    /// What would take the run-time layer out of a git command (its hooks path replaced,
    /// `push --no-verify`), each with the command it is in.
    pub bypasses: Vec<(Bypass, String)>,
    /// A readable account of the analysis, for `explain`.
    pub trace: Vec<String>,
    /// Programs it runs that start programs of their own, which the static reading does
    /// not follow (said by `explain`, decided by the run-time layer where it is on).
    pub unread: Vec<String>,
    /// It writes a git hook (git's own or one of its programs' config files counts too).
    pub writes_hook: bool,
    /// It runs git itself (where the reading sees it).
    pub runs_git: bool,
}

impl Analysis {
    /// Whether the repository may gain a hook while the command runs, for all the reading
    /// knows: it writes one or sets a hooks path, runs a program it does not follow (a
    /// package manager's install may set up a hook manager), or has a part it could not
    /// read. The run-time layer's directory then holds every hook name for it.
    pub fn may_change_hooks(&self) -> bool {
        self.writes_hook || !self.unread.is_empty() || !self.unresolved.is_empty()
    }
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
                self.out.writes_hook = true;
                self.out.trace.push(format!("command: {}", site.text));
                self.unresolved(site, format!("it writes git's configuration directly ({target}), which can change where later git commands push"));
            }
            // Writing a hook is harmless until a git command runs it.
            Some((target, GitFile::Hook)) => {
                self.out.writes_hook = true;
                self.hook_written = Some(target);
            }
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
                self.out.runs_git = true;
                if let Some(hook) = &self.hook_written {
                    let reason = format!("{} ({hook}) runs with this git command, and the guard cannot read what it does", crate::git::HOOK_WRITTEN_REASON);
                    self.out.trace.push(format!("command: {}", site.text));
                    self.unresolved(site, reason);
                }
                self.git(site, inv, state)
            }
            Runs::Program(inv) => {
                let first = inv.args.first().and_then(|w| w.text());
                if starts_unread_programs(&inv.program, first) {
                    self.out.unread.push(site.cited.clone());
                }
                Vec::new()
            }
            // A shell given a script file runs nothing the reading can see.
            Runs::Nothing => {
                let text = |k: usize| cmd.words.get(k).and_then(|w| w.text());
                if let Some(program) = text(0) {
                    if starts_unread_programs(program, text(1)) {
                        self.out.unread.push(site.cited.clone());
                    }
                }
                Vec::new()
            }
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
        if let Some(bypass) = runtime_bypass(&args, &env) {
            self.out
                .trace
                .push(format!("  takes the run-time layer out: {}", bypass.how));
            self.out.bypasses.push((bypass, site.cited.clone()));
        }
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
                Effect::Unnamed { reason, words } => {
                    self.out
                        .trace
                        .push(format!("  named when it runs: {reason}"));
                    self.out.unnamed.push((reason, words, site.cited.clone()));
                }
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

/// Programs that run what a file or a recipe says: a program named by its path (`./deploy.sh`),
/// a shell or interpreter given a file, a build tool or task runner. Only for saying what
/// was not read: the decision about what they start is the run-time layer's.
fn starts_unread_programs(program: &str, first_argument: Option<&str>) -> bool {
    const RUNNERS: [&str; 16] = [
        "make", "gmake", "just", "task", "npm", "npx", "yarn", "pnpm", "bun", "cargo", "go",
        "gradle", "mvn", "rake", "tox", "nox",
    ];
    const INTERPRETERS: [&str; 10] = [
        "sh", "bash", "zsh", "dash", "python", "python3", "node", "ruby", "perl", "deno",
    ];
    let name = program.rsplit('/').next().unwrap_or(program);
    let file_argument = first_argument.is_some_and(|a| !a.starts_with('-'));
    program.contains('/')
        || RUNNERS.contains(&name)
        || (INTERPRETERS.contains(&name) && file_argument)
}

/// What would take git's own hooks out of a git invocation: a hooks path given on its
/// command line or in its environment, the variables that carry the run-time layer
/// replaced, or a push that skips `pre-push`.
fn runtime_bypass(args: &[String], env: &[(String, Option<String>)]) -> Option<Bypass> {
    let replaced = |how: String| {
        Some(Bypass {
            how,
            only_pre_push: false,
            instead: None,
        })
    };
    let hooks_path = |kv: &str| {
        kv.split_once('=')
            .map_or(kv, |(k, _)| k)
            .eq_ignore_ascii_case("core.hooksPath")
    };
    let mut words = args.iter();
    while let Some(a) = words.next() {
        if a.starts_with(DYNAMIC) {
            continue;
        }
        let value = match a.as_str() {
            "-c" | "--config-env" => words.next().map(String::as_str),
            _ => a
                .strip_prefix("--config-env=")
                .or_else(|| a.strip_prefix("-c").filter(|v| !v.is_empty())),
        };
        if value.is_some_and(hooks_path) {
            return replaced(format!(
                "`{a}` sets core.hooksPath, which replaces the hooks git runs"
            ));
        }
    }
    if args.iter().any(|a| a == "push") && args.iter().any(|a| a == "--no-verify") {
        return Some(Bypass {
            how: "`git push --no-verify` skips the pre-push check".into(),
            only_pre_push: true,
            instead: None,
        });
    }
    // Each channel alone keeps the layer on (a command that sets GIT_CONFIG_COUNT or
    // GIT_CONFIG_PARAMETERS for its own keys is ordinary): only a hooks path of its own,
    // or both command-scope channels replaced at once, take it out.
    let set = |n: &str| env.iter().any(|(name, _)| name == n);
    for (name, value) in env {
        let names_hooks_path = match name.as_str() {
            "GIT_CONFIG_PARAMETERS" => value
                .as_deref()
                .is_none_or(|v| v.to_ascii_lowercase().contains("core.hookspath")),
            n if n.starts_with("GIT_CONFIG_KEY_") => value.as_deref().is_none_or(hooks_path),
            n => n == crate::runtime::activation::HOOKS_ENV,
        };
        if names_hooks_path {
            return replaced(format!(
                "it sets {name}, which could replace the hooks git runs"
            ));
        }
    }
    // git keeps GIT_CONFIG_SYSTEM (and GIT_CONFIG_NOSYSTEM) for the programs it starts on
    // the far side of a local transport, where the command-scope channels are cleared:
    // set by the command, a far-side program (`--upload-pack`, `--receive-pack`) updates
    // the local remote's refs without the check.
    const TRANSPORT: [&str; 6] = ["push", "fetch", "pull", "clone", "ls-remote", "archive"];
    if args.iter().any(|a| TRANSPORT.contains(&a.as_str())) {
        if let Some(name) = ["GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_SYSTEM"]
            .into_iter()
            .find(|n| set(n))
        {
            return Some(Bypass {
                how: format!("it sets {name}, which takes git's check away from the programs a push or fetch to a repository on this machine starts on its far side"),
                only_pre_push: false,
                instead: Some(format!("Run it without setting {name}")),
            });
        }
    }
    if set("GIT_CONFIG_PARAMETERS") && set("GIT_CONFIG_COUNT") {
        return replaced(
            "it replaces both GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT, which carry the run-time layer into git"
                .into(),
        );
    }
    None
}

/// What takes the run-time layer out of one git invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bypass {
    /// Said to the agent: what does it.
    pub how: String,
    /// Only this push's own `pre-push` is skipped (`--no-verify`); the other hooks, and
    /// every git command they start, still run the run-time check. Otherwise the hooks
    /// path is replaced for the invocation and everything it starts.
    pub only_pre_push: bool,
    /// What to do instead, where it is not the default advice (leave the hooks path,
    /// push without `--no-verify`).
    pub instead: Option<String>,
}

impl Bypass {
    /// Whether it matters for an invocation with these unknowns: where the invocation's
    /// own effect is read whole, its verdict stands without the run-time check (an
    /// honest `push --no-verify` of a feature branch runs). A push without `pre-push`
    /// still runs the other hooks under the run-time layer, so an unknown about hooks
    /// (written or set earlier in the command) stays covered there.
    fn matters(&self, unknowns: &[&str]) -> bool {
        unknowns
            .iter()
            .any(|reason| !(self.only_pre_push && is_about_hooks(reason)))
    }
}

/// An unknown that is only about the hooks a git command would run (which the run-time
/// layer's own hooks run before, with its check on every git command they start).
fn is_about_hooks(reason: &str) -> bool {
    reason.starts_with(crate::git::HOOK_WRITTEN_REASON)
        || reason.starts_with(crate::git::HOOKS_PATH_SET_REASON)
}

/// The guard's answer.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision {
    Allow,
    /// Allowed, with what the agent should know: the run-time layer decides what the
    /// static reading could not.
    AllowNoted(String),
    Deny(String),
}

/// Applies the policy to an analysis.
pub fn decide(
    analysis: &Analysis,
    policy: &Policy,
    session: &mut Analyzer,
    cwd: &Path,
    layers: &Layers,
) -> Decision {
    let runtime = layers.run_time.is_active();
    // Taking git's own hooks out matters only where they are what decides: a part the
    // reading could not resolve, or a program it did not read. Where the reading is
    // whole, its verdict stands (an honest `push --no-verify` of a feature branch runs).
    let bypass = |decision: Decision, defaults: &[String]| {
        if !runtime {
            return decision;
        }
        // A command's own unknowns, and those of what it starts (`` `x` (which runs `y`) ``):
        // the layer taken out of a git command is out of everything it starts.
        let started_by = |c: &str, cmd: &str| {
            c == cmd
                || c.strip_prefix(cmd)
                    .is_some_and(|rest| rest.starts_with(" (which runs "))
        };
        let unknowns_of = |cmd: &str| {
            let protected = |words: &[String]| {
                words
                    .iter()
                    .any(|w| crate::git::partial::may_be_protected(w, &policy.branches, defaults))
            };
            analysis
                .unresolved
                .iter()
                .filter(|(_, c)| started_by(c, cmd))
                .map(|(r, _)| r.as_str())
                .chain(
                    analysis
                        .unnamed
                        .iter()
                        .filter(|(_, words, c)| started_by(c, cmd) && protected(words))
                        .map(|(r, _, _)| r.as_str()),
                )
                .collect::<Vec<_>>()
        };
        let Some((b, cmd)) = analysis
            .bypasses
            .iter()
            .find(|(b, cmd)| b.matters(&unknowns_of(cmd)))
        else {
            return decision;
        };
        let instead = if let Some(instead) = &b.instead {
            instead.clone()
        } else if b.only_pre_push {
            "Run the push without `--no-verify`".to_owned()
        } else {
            "Leave git's hooks path alone: a directory of hooks is the user's to set, at their terminal (`git config core.hooksPath <dir>`; set by the agent's command it is taken out again after the command), and the run-time check then runs first and hands over to them".to_owned()
        };
        Decision::Deny(format!(
            "{HOOK}: {cmd} would run git without its run-time branch check: {}, and this git command has parts only that check can judge. {instead} (the check only refuses changes to protected branches: {}); to work on a protected branch, ask the user.",
            b.how,
            policy.branches.describe_protected()
        ))
    };
    // Nothing touched, nothing unknown: no repository access at all.
    if analysis.updates.is_empty() && analysis.unresolved.is_empty() && analysis.unnamed.is_empty()
    {
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
                // Where the rule's own key comes from: the file, or the built-in defaults
                // where the file does not set it.
                let source = policy.source_of_rule(&rule);
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
            let source = policy.source_of("branches.allow_force_push");
            return Decision::Deny(format!(
                "{HOOK}: {cmd} would force-push to {}{}. Rule: branches.allow_force_push is false in {source}. Push without --force (rebase on the remote branch first), or ask the user.",
                u.branch,
                place(&u.place)
            ));
        }
        if u.action.lands_work() && !rules.allows(&u.branch) {
            let source = policy.source_of("branches.allowed");
            return Decision::Deny(format!(
                "{HOOK}: {cmd} would {} {}{}, which branches.allowed ({}) in {source} does not include. Work on a branch that matches it.",
                u.action.verb(),
                u.branch,
                place(&u.place),
                rules.describe_allowed()
            ));
        }
    }
    // A branch named when it runs is unknown only where its literal part leaves a
    // protected name possible.
    let unknown = analysis.unresolved.iter().cloned().chain(
        analysis
            .unnamed
            .iter()
            .filter(|(_, words, _)| {
                words
                    .iter()
                    .any(|w| crate::git::partial::may_be_protected(w, rules, &defaults))
            })
            .map(|(reason, _, cmd)| (reason.clone(), cmd.clone())),
    );
    if let (Some((reason, cmd)), true) = (
        unknown.take(1).next(),
        rules.deny.get(crate::policy::DenyKind::Unresolvable),
    ) {
        let (reason, cmd) = (&reason, &cmd);
        let protected_here = unreadable
            || known_branches
                .is_some_and(|names| names.iter().any(|b| rules.protects(b, &defaults).is_some()));
        if protected_here && runtime {
            return bypass(
                Decision::AllowNoted(format!(
                "{HOOK}: {cmd} was not read before it runs ({reason}); git itself checks it as it runs (the run-time layer refuses any change to {} with the same rules).",
                rules.describe_protected()
            )),
                &defaults,
            );
        }
        if protected_here {
            return Decision::Deny(format!(
                "{HOOK}: cannot tell what {cmd} would do: {reason}. This repository has protected branches ({}), and what the guard cannot read it denies (branches.deny.unresolvable in {source}). Write the git command out plainly, without variables, eval or a wrapper shell, e.g. `git push origin HEAD:feat/<name>`.",
                rules.describe_protected()
            ));
        }
    }
    bypass(Decision::Allow, &defaults)
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
    pub layers: Layers,
    /// Programs the command runs whose own actions the static reading does not follow
    /// (a script, a build tool's recipe, an interpreter).
    pub unread: Vec<String>,
}

pub fn explain(
    command: &str,
    cwd: &Path,
    policy: &Policy,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Explanation {
    let mut session = Analyzer::new(env);
    let analysis = analyze(command, cwd, &mut session, env);
    let layers = Layers::of(policy, env);
    let decision = decide(&analysis, policy, &mut session, cwd, &layers);
    Explanation {
        trace: analysis.trace,
        decision,
        layers,
        unread: analysis.unread,
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
        out.push_str(&self.layers.describe());
        out.push('\n');
        if self.trace.is_empty() && self.unread.is_empty() {
            out.push_str("no git invocation and nothing unresolvable\n");
        }
        for line in &self.trace {
            out.push_str(line);
            out.push('\n');
        }
        for program in &self.unread {
            out.push_str(&format!(
                "not read: {program} (what it runs is not followed before it runs)\n"
            ));
        }
        let checked = if self.layers.run_time.is_active() {
            "git's own hooks check whatever it starts as it runs"
        } else {
            "nothing checks what they start: the run-time layer is off"
        };
        match &self.decision {
            Decision::Allow if !self.unread.is_empty() => out.push_str(&format!(
                "verdict: allow (no protected branch is touched by what was read; {checked})\n"
            )),
            Decision::Allow => out.push_str("verdict: allow (no protected branch is touched)\n"),
            Decision::AllowNoted(note) => {
                out.push_str("verdict: allow (the run-time layer decides)\n");
                out.push_str(note);
                out.push('\n');
            }
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
    fn what_takes_the_run_time_layer_out_and_what_does_not() {
        let args = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let out = |a: &str| runtime_bypass(&args(a), &[]);
        assert!(out("-c core.hooksPath=/dev/null commit -m x").is_some());
        assert!(out("-ccore.hookspath=x commit").is_some());
        assert!(out("--config-env=core.hooksPath=H commit").is_some());
        assert!(out("push --no-verify origin feat").is_some());
        assert!(
            out("commit --no-verify -m x").is_none(),
            "commit hooks only"
        );
        assert!(out("-c user.name=x commit").is_none());
        let env = |pairs: &[(&str, Option<&str>)]| -> Vec<(String, Option<String>)> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.map(String::from)))
                .collect()
        };
        let with = |pairs: &[(&str, Option<&str>)]| runtime_bypass(&args("commit"), &env(pairs));
        assert!(with(&[
            ("GIT_CONFIG_COUNT", Some("1")),
            ("GIT_CONFIG_KEY_0", Some("user.name"))
        ])
        .is_none());
        assert!(with(&[("GIT_CONFIG_PARAMETERS", Some("'user.name'='x'"))]).is_none());
        assert!(with(&[("GIT_CONFIG_KEY_1", Some("core.hooksPath"))]).is_some());
        let far = |a: &str, pairs: &[(&str, Option<&str>)]| runtime_bypass(&args(a), &env(pairs));
        assert!(far("fetch origin", &[("GIT_CONFIG_NOSYSTEM", Some("1"))]).is_some());
        assert!(far("push origin x", &[("GIT_CONFIG_SYSTEM", Some("/dev/null"))]).is_some());
        assert!(far("commit -m x", &[("GIT_CONFIG_NOSYSTEM", Some("1"))]).is_none());
        assert!(
            with(&[("GIT_CONFIG_PARAMETERS", None)]).is_some(),
            "a value only known when it runs"
        );
        assert!(with(&[
            ("GIT_CONFIG_PARAMETERS", Some("")),
            ("GIT_CONFIG_COUNT", Some("0"))
        ])
        .is_some());
        assert!(with(&[("DID_IT_ACTUALLY_GIT_HOOKS", Some("/x"))]).is_some());
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
