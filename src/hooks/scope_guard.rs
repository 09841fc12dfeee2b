//! scope-guard: denies writes outside the scope the repository's policy allows, and any
//! write to the guard suite's own policy, settings and state.
//!
//! Write tools are judged by their targets (the same tool table as verify-write); shell
//! commands by the writes they visibly make ([`crate::shell::writes`]), found through the
//! same walk as block-wrong-branch's. A target that is not a literal path is denied: it
//! could point anywhere.

use super::{Context, Hook, HookOutcome};
use crate::fsutil;
use crate::policy::Unmodelled;
use crate::protocol::Payload;
use crate::scope::{How, Scope};
use crate::shell::exec::Runs;
use crate::shell::walk::{invocation_cwd, ShellState, Site, Spawn, Visitor, Walker};
use crate::shell::writes::{write_targets, LinkKind, WriteTarget};
use crate::shell::SimpleCommand;
use crate::tools;
use std::path::{Path, PathBuf};

const HOOK: &str = "scope-guard";

pub fn run(input: &crate::protocol::HookInput, ctx: &Context) -> HookOutcome {
    if let Payload::ConfigChange { source, file_path } = &input.payload {
        let file = file_path.as_deref();
        return match super::settings_change::refusal(source, file, ctx.env, &input.common.cwd) {
            Some(why) => HookOutcome::deny(
                Hook::ScopeGuard,
                input,
                ctx.now,
                Some("the settings that register the guards".into()),
                super::settings_change::reason(source, file, &why),
            ),
            None => HookOutcome::silent(),
        };
    }
    let Payload::PreToolUse { call } = &input.payload else {
        return HookOutcome::silent();
    };
    let cwd = &input.common.cwd;
    let scope = Scope::new(ctx.policy, cwd, ctx.env);
    let name = tools::normalize(&call.host_name);
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
                let j = scope.judge_tool_path(&t.path, cwd, how);
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
            Some(command) => {
                let e = explain_command(command, cwd, &scope, ctx.env, Some(ctx.policy));
                match e.denials.into_iter().next() {
                    Some(r) => Some((None, r)),
                    None if !e.deferred.is_empty() => {
                        return HookOutcome::respond(crate::protocol::Response::new(
                            crate::protocol::Verdict::Context(e.deferred.join("\n")),
                        ))
                    }
                    None => None,
                }
            }
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
    explain_command(command, cwd, scope, env, None).denials
}

/// What scope-guard makes of a shell command: the writes it sees (one line each, with
/// where they land), what it cannot see, and the denials.
pub struct ScopeExplanation {
    pub notes: Vec<String>,
    pub denials: Vec<String>,
    /// Writes only running shows, left to the run-time layer: what the agent is told.
    pub deferred: Vec<String>,
    /// Who decided the names only running shows, where there were any (for `explain`).
    pub run_time: Option<String>,
    /// Each literal place a write lands: as written, and resolved.
    pub landed: Vec<(String, PathBuf)>,
}

impl ScopeExplanation {
    /// The guard's own surfaces among the places the command writes, each with how it is
    /// held (from [`crate::runtime::surfaces`]).
    pub fn surfaces(
        &self,
        root: &Path,
        env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
    ) -> Vec<String> {
        let root = fsutil::canonical(root);
        let state = crate::store::state_root(env)
            .ok()
            .map(|s| fsutil::canonical(&s));
        self.landed
            .iter()
            .filter_map(|(landed, real)| {
                let s = crate::runtime::surfaces::of_path(
                    &fsutil::canonical(real),
                    &root,
                    state.as_deref(),
                )?;
                Some(format!(
                    "`{landed}` is a protected surface, {} ({}): {}; to change it: {}",
                    s.name, s.why, s.layers, s.change
                ))
            })
            .collect()
    }
}

/// Whether the run-time layer decides the writes the static reading cannot name: the
/// kernel confines the agent's commands to the root and the places the policy allows,
/// `scope.allow` is the whole root (the kernel keeps the root, not shapes inside it), and
/// the guard's own files can be made read-only in the commands' view here.
pub fn run_time_decides(
    policy: &crate::policy::Policy,
    scope: &Scope,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Result<(), String> {
    use crate::runtime::{confine, protect};
    confine::activation(policy, env)?;
    if policy.scope.allow.iter().any(|p| p != "**") {
        return Err(format!(
            "scope.allow in {} narrows the root ({}), which the kernel cannot",
            scope.source,
            policy.scope.allow.join(", ")
        ));
    }
    let writable = confine::writable(policy, &scope.root, env);
    protect::probe(&protect::protected(policy, scope, &writable))
}

pub fn explain_command(
    command: &str,
    cwd: &Path,
    scope: &Scope,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
    policy: Option<&crate::policy::Policy>,
) -> ScopeExplanation {
    let layer = match policy {
        Some(p) => RunTime::Unasked(p),
        None => RunTime::Off("not asked".into()),
    };
    let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let w = Walker::new(
        Writes {
            scope,
            home,
            denials: Vec::new(),
            notes: Vec::new(),
            links: Vec::new(),
            made_dirs: Vec::new(),
            layer,
            env,
            deferred: Vec::new(),
            landed: Vec::new(),
        },
        env,
    )
    .run(command, cwd.to_owned());
    let run_time = match &w.layer {
        RunTime::On => Some("names only known when the command runs: the kernel decides them (run-time layer for writes on, the guard's files read-only to the command)".to_owned()),
        RunTime::Off(why) => Some(format!("names only known when the command runs: denied ({why})")),
        RunTime::Unasked(_) => None,
    };
    ScopeExplanation {
        notes: w.notes,
        denials: w.denials,
        deferred: w.deferred,
        run_time,
        landed: w.landed,
    }
}

/// The run-time layer for writes, asked once, on the first name the reading cannot know.
enum RunTime<'p> {
    Unasked(&'p crate::policy::Policy),
    On,
    Off(String),
}

struct Writes<'s> {
    scope: &'s Scope,
    home: Option<PathBuf>,
    denials: Vec<String>,
    notes: Vec<String>,
    /// Links made earlier in the command: (where, what it leads to), both absolute.
    links: Vec<(PathBuf, PathBuf)>,
    /// Places an earlier write in the command may have made a directory (`mkdir`, a
    /// recursive copy's destination).
    made_dirs: Vec<PathBuf>,
    layer: RunTime<'s>,
    env: &'s dyn Fn(&str) -> Option<std::ffi::OsString>,
    deferred: Vec<String>,
    /// Each literal place a write lands: as written, and resolved.
    landed: Vec<(String, PathBuf)>,
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
        for target in write_targets(cmd, runs, program_cwd.as_deref()) {
            let cwd = if target.how.starts_with("redirection") {
                state.cwd.clone()
            } else {
                program_cwd.clone()
            };
            let deferred = self.deferred.len();
            match self.judge(site, &target, cwd.as_deref()) {
                Some(reason) => self.denials.push(reason),
                None if self.deferred.len() > deferred => {}
                None if target.git_changes.is_some() => self.notes.push(format!(
                    "rewrites the files that differ under `{}` ({}): allowed",
                    target.word.raw, target.how
                )),
                None => self.notes.push(format!(
                    "writes `{}` ({}): allowed",
                    target.word.raw, target.how
                )),
            }
        }
        if let Runs::Program(inv) = runs {
            if let Some(why) = crate::shell::nested::unguarded_agent(inv, &state.exported) {
                self.denials.push(format!(
                    "{HOOK}: {} is not allowed: {why}. An agent started from the agent's shell must run guarded: start it plainly (its project settings register the guards), and ask the user for anything that needs the hooks off.",
                    site.cited
                ));
            }
            if let Some(why) = crate::shell::writes::unmodelled(inv, cmd) {
                match self.scope.unmodelled {
                    Unmodelled::Deny => self.denials.push(format!(
                        "{HOOK}: {} {why}, whose writes cannot be read from the command, and scope.unmodelled_programs is deny in {}. Write the files with the edit tools, or with a command whose targets are spelled out.",
                        site.cited, self.scope.source
                    )),
                    Unmodelled::Allow => self.notes.push(format!(
                        "{} {why}: the files it writes are not seen, beyond the literal names above (scope.unmodelled_programs is allow)",
                        site.cited
                    )),
                }
            }
        }
        Vec::new()
    }

    fn unresolved(&mut self, site: &Site, reason: String) {
        if self.run_time_decides() {
            self.deferred.push(format!(
                "{HOOK}: what {} writes is only known when it runs ({reason}); the kernel keeps its writes inside {} and the places the policy allows, and the guard's files are read-only to it.",
                site.cited, self.scope.root.display()
            ));
            return;
        }
        self.denials.push(format!(
            "{HOOK}: cannot tell what {} writes: {reason}. Write the command out plainly so its targets can be checked.",
            site.cited
        ));
    }
}

impl Writes<'_> {
    /// Whether the run-time layer decides what the reading cannot know (asked once).
    fn run_time_decides(&mut self) -> bool {
        if let RunTime::Unasked(policy) = self.layer {
            self.layer = match run_time_decides(policy, self.scope, self.env) {
                Ok(()) => RunTime::On,
                Err(why) => RunTime::Off(format!("run-time layer for writes off: {why}")),
            };
        }
        matches!(self.layer, RunTime::On)
    }

    /// A write target only known when the command runs: left to the run-time layer, with
    /// a note, where it decides; else the denial.
    fn only_known_at_run_time(
        &mut self,
        site: &Site,
        word: &str,
        how: &str,
        denial: String,
    ) -> Option<String> {
        if !self.run_time_decides() {
            return Some(denial);
        }
        self.deferred.push(format!(
            "{HOOK}: {} writes to `{word}` ({how}), a path only known when it runs: the kernel keeps it inside {} and the places the policy allows, and the guard's files are read-only to it.",
            site.cited, self.scope.root.display()
        ));
        None
    }

    fn judge(&mut self, site: &Site, target: &WriteTarget, cwd: Option<&Path>) -> Option<String> {
        let root = self.scope.root.display();
        let dynamic = |word: &crate::shell::Word| {
            format!(
                "{HOOK}: {} writes to `{}` ({}), a path only known when it runs, which could be outside scope. Write to a literal path inside {root}/.",
                site.cited, word.raw, target.how
            )
        };
        let Some(path) = self.literal(&target.word) else {
            let denial = dynamic(&target.word);
            return self.only_known_at_run_time(site, &target.word.raw, &target.how, denial);
        };
        let base = match &target.base {
            None => cwd.map(Path::to_path_buf),
            Some(b) => match self.literal(b) {
                Some(b) => cwd
                    .map(|c| c.join(&b))
                    .or_else(|| Some(PathBuf::from(&b)).filter(|p| p.is_absolute())),
                None => {
                    let denial = dynamic(b);
                    return self.only_known_at_run_time(site, &b.raw, &target.how, denial);
                }
            },
        };
        let cwd = match (base, Path::new(&path).is_absolute()) {
            (Some(c), _) => c,
            (None, true) => PathBuf::from("/"),
            (None, false) => {
                let denial = format!(
                    "{HOOK}: {} writes to `{path}` ({}) relative to a directory only known when it runs (after a `cd` to a variable). Use an absolute path inside {root}/.",
                    site.cited, target.how
                );
                return self.only_known_at_run_time(site, &path, &target.how, denial);
            }
        };
        if target.if_exists && std::fs::symlink_metadata(cwd.join(&path)).is_err() {
            return None;
        }
        if let Some(dir) = target.needs_dir.as_ref().and_then(|d| self.literal(d)) {
            let at = self.through_links(&fsutil::absolute(Path::new(&dir), &cwd), true);
            if !(dir.ends_with('/') || at.is_dir() || self.made_dirs.contains(&at)) {
                return None;
            }
        }
        if let Some(changes) = &target.git_changes {
            // git rewrites only the files that differ: those are judged (git replaces a
            // file rather than writing through a link). When the guard cannot list them,
            // the whole pathspec is judged below.
            if let Ok(files) = crate::git::repo::rewritten_files(&cwd, &path, changes) {
                for file in files {
                    let text = file.to_string_lossy();
                    let how = How {
                        follow_last: false,
                        recursive: text.ends_with('/'),
                    };
                    let j = self.scope.judge_with(&text, &cwd, how);
                    if !j.allowed {
                        return Some(format!(
                            "{HOOK}: {} would rewrite {} ({}), which is not allowed: {}. {}",
                            site.cited,
                            file.display(),
                            target.how,
                            j.rule,
                            self.scope.advice(&j)
                        ));
                    }
                }
                return None;
            }
        }
        let how = How {
            follow_last: !target.no_follow,
            recursive: target.recursive,
        };
        // A copy, move or link into an existing directory lands at DIR/<source name>
        // (a directory reached through a link made earlier in the command too).
        let dest = self.through_links(&fsutil::absolute(Path::new(&path), &cwd), true);
        let may_be_dir = path.ends_with('/') || dest.is_dir() || self.made_dirs.contains(&dest);
        let into_dir = !target.into_dir_never
            && !target.sources.is_empty()
            && (may_be_dir || target.into_dir_always);
        // Several sources need a directory to land in: without one, cp, mv, ln and
        // install stop before doing anything ("target is not a directory").
        if target.sources.len() > 1 && !into_dir && !target.into_dir_never {
            return None;
        }
        // Each place it lands, with the source that lands there when there is one.
        let mut dynamic_source: Option<String> = None;
        let mut landing: Vec<(String, Option<String>)> = if into_dir {
            let mut names = Vec::new();
            for source in &target.sources {
                let Some(src) = self.literal(source) else {
                    // A source named only at run time lands somewhere directly in the
                    // directory: judged as the directory's whole content.
                    names.push((format!("{}/", path.trim_end_matches('/')), None));
                    dynamic_source = Some(source.raw.clone());
                    continue;
                };
                let name = Path::new(src.trim_end_matches('/'))
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned());
                names.push((
                    format!(
                        "{}/{}",
                        path.trim_end_matches('/'),
                        name.unwrap_or_default()
                    ),
                    Some(src),
                ));
            }
            names
        } else {
            let source = match target.sources.as_slice() {
                [one] => self.literal(one),
                _ => None,
            };
            self.expand(&target.word, &path, &cwd)
                .into_iter()
                .map(|p| (p, source.clone()))
                .collect()
        };
        if target.parents {
            // `mkdir -p a/b/c` makes every missing directory on the way.
            let mut made = Vec::new();
            for (landed, _) in &landing {
                let mut prefix = PathBuf::new();
                for part in Path::new(landed).components() {
                    prefix.push(part);
                    let p = prefix.to_string_lossy().into_owned();
                    let missing =
                        std::fs::symlink_metadata(self.through_links(&cwd.join(&prefix), true))
                            .is_err();
                    if missing
                        && !landing.iter().any(|(l, _)| *l == p)
                        && !made.iter().any(|(l, _)| *l == p)
                    {
                        made.push((p, None));
                    }
                }
            }
            landing.extend(made);
        }
        for (landed, _) in &landing {
            let real =
                self.through_links(&fsutil::absolute(Path::new(landed), &cwd), how.follow_last);
            let real_text = real.to_string_lossy();
            let judged: &str = if self.links.is_empty() {
                landed
            } else {
                &real_text
            };
            // A directory standing for names only known at run time: all of it.
            let how = if into_dir && landed.ends_with('/') {
                How {
                    recursive: true,
                    ..how
                }
            } else {
                how
            };
            // Which of these are the guard's own surfaces is `explain`'s to say (off the
            // hook's path): here only where each lands.
            if !self.landed.iter().any(|(l, _)| l == landed) {
                self.landed.push((landed.clone(), real.clone()));
            }
            let j = self.scope.judge_with(judged, &cwd, how);
            if !j.allowed {
                // A name only known when it runs, landing in a directory that holds what
                // may not be written.
                let named = match &dynamic_source {
                    Some(src) if landed.ends_with('/') => {
                        format!(" a file named `{src}`, only known when it runs, into")
                    }
                    _ => String::new(),
                };
                return Some(format!(
                    "{HOOK}: {} would write{named} {} ({}), which is not allowed: {}. {}",
                    site.cited,
                    shown(landed, &j.resolved),
                    target.how,
                    j.rule,
                    self.scope.advice(&j)
                ));
            }
        }
        self.remember_links(target, &landing, &cwd);
        if target.recursive
            || target.parents
            || target.how.starts_with("mkdir")
            || target.how == "install"
        {
            for (landed, _) in &landing {
                let made = self.through_links(&fsutil::absolute(Path::new(landed), &cwd), true);
                self.made_dirs.push(made);
            }
        }
        None
    }

    /// After an allowed write: the links it made (or moved, or removed) in this command,
    /// which later writes through the same names follow.
    fn remember_links(
        &mut self,
        target: &WriteTarget,
        landing: &[(String, Option<String>)],
        cwd: &Path,
    ) {
        let at = |p: &str| fsutil::lexical(&fsutil::absolute(Path::new(p), cwd));
        if target.no_follow && target.link.is_none() {
            // `rm link`, `mv link elsewhere`: the name no longer leads anywhere.
            for (landed, _) in landing {
                let gone = at(landed);
                self.links.retain(|(l, _)| !l.starts_with(&gone));
            }
            return;
        }
        let Some(kind) = target.link else {
            return;
        };
        for (landed, source) in landing {
            let Some(source) = source else { continue };
            let place = at(landed);
            let parent = place.parent().unwrap_or(Path::new("/")).to_owned();
            let points_to = match kind {
                LinkKind::Symbolic => fsutil::lexical(&parent.join(source)),
                LinkKind::Hard => self.through_links(&at(source), true),
                LinkKind::Moved => {
                    let from = at(source);
                    match self.links.iter().rposition(|(l, _)| *l == from) {
                        Some(k) => self.links.remove(k).1,
                        None => match std::fs::read_link(&from) {
                            // The link's text now reads from its new directory.
                            Ok(text) => fsutil::lexical(&parent.join(text)),
                            Err(_) => continue,
                        },
                    }
                }
            };
            self.links.retain(|(l, _)| *l != place);
            self.links.push((place, points_to));
        }
    }

    /// `path` with the links made earlier in this command followed (the last part only
    /// when `follow_last`). Links on disk are left to the judge, which follows them.
    fn through_links(&self, path: &Path, follow_last: bool) -> PathBuf {
        let mut p = fsutil::lexical(path);
        if self.links.is_empty() {
            return p;
        }
        // At most as many hops as the kernel follows.
        for _ in 0..40 {
            let parts: Vec<_> = p.components().collect();
            let mut next = None;
            for k in 1..=parts.len() {
                if k == parts.len() && !follow_last {
                    break;
                }
                let prefix: PathBuf = parts[..k].iter().collect();
                if let Some((_, to)) = self.links.iter().rev().find(|(l, _)| *l == prefix) {
                    let rest: PathBuf = parts[k..].iter().collect();
                    next = Some(fsutil::lexical(&to.join(rest)));
                    break;
                }
            }
            match next {
                Some(n) => p = n,
                None => return p,
            }
        }
        p
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
