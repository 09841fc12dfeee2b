//! Where the agent may write: the project root, the policy's `scope.allow` and
//! `scope.deny` globs, `scope.outside_root`, and the guard suite's own files, which are
//! never writable by the agent it guards.
//!
//! A path is judged where the write would really land ([`fsutil::resolve`]): `..`, a
//! symlink inside the root pointing outside, a dangling symlink, all resolve first. A
//! write that reaches a whole directory (`rm -r`, moving or extracting into it) is judged
//! by what the directory holds too.

use crate::fsutil;
use crate::policy::{self, path_glob, Policy, CASE_INSENSITIVE_FS};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Entries looked at under a directory for a recursive write before the scan stops; the
/// literal parts of the rules (guarded files, `src/generated/**`) are always checked.
const SCAN_LIMIT: usize = 2_000;

/// The compiled scope of one project.
pub struct Scope {
    pub root: PathBuf,
    allow: Patterns,
    deny: Patterns,
    /// `scope.outside_root` with `$TMPDIR` read: matched against a resolved path, so each
    /// pattern's literal directories are resolved too (macOS's `/tmp` is `/private/tmp`),
    /// once, on the first write outside the root.
    outside: OutsidePatterns,
    /// The organisation's `scope.allow` and `scope.outside_root` when the repository sets
    /// its own too: a path must match both levels' patterns.
    also_allow: Option<Patterns>,
    also_outside: Option<OutsidePatterns>,
    /// Where each rule comes from, for messages ([`Policy::source_of`]).
    sources: Sources,
    /// Files and directories no agent may write: (path, what it is).
    guarded: Vec<(PathBuf, &'static str)>,
    /// Directories whose `settings*.json` files are Claude Code's settings (where the
    /// guards are registered): the project's `.claude` at the root and at
    /// `CLAUDE_PROJECT_DIR`, and the user's.
    settings_dirs: Vec<(PathBuf, &'static str)>,
    /// Where the rules come from, for messages.
    pub source: String,
    /// `scope.unmodelled_programs`.
    pub unmodelled: crate::policy::Unmodelled,
    /// `$HOME`: a path starting with `~/` means it, wherever a path is judged.
    home: Option<PathBuf>,
}

/// How a write touches its target.
#[derive(Clone, Copy, Debug)]
pub struct How {
    /// Follow a final symlink (a write through it), or act on the link itself (`rm`, `mv`
    /// of the link).
    pub follow_last: bool,
    /// Reaches everything under a directory target (`rm -r`, `mv dir`, extraction).
    pub recursive: bool,
}

impl Default for How {
    fn default() -> Self {
        How {
            follow_last: true,
            recursive: false,
        }
    }
}

/// The verdict on one path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// Where the write would land.
    pub resolved: PathBuf,
    pub allowed: bool,
    /// Why, for a person: the rule that decided.
    pub rule: String,
}

impl Scope {
    /// The scope for a hook running in `cwd`.
    pub fn new(policy: &Policy, cwd: &Path, env: &dyn Fn(&str) -> Option<OsString>) -> Scope {
        let project_dir = env("CLAUDE_PROJECT_DIR")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from);
        let base = policy::repo_root(cwd)
            .or_else(|| project_dir.clone())
            .unwrap_or_else(|| cwd.to_owned());
        let root = match &policy.scope.root {
            Some(r) if r.is_absolute() => r.clone(),
            Some(r) => base.join(r),
            None => base,
        };
        let resolve = |p: PathBuf| fsutil::resolve(&p).unwrap_or(p);
        let root = resolve(root);
        let mut guarded = vec![(
            resolve(policy.source.path().to_owned()),
            "the guard's policy file",
        )];
        if let Ok(state) = crate::store::state_root(env) {
            guarded.push((resolve(state), "the guard's state directory"));
        }
        // Both where `.claude` is and where it leads: a `.claude` that is (or becomes) a
        // symlink must not open a way around the guard.
        let mut settings_dirs = vec![
            (root.join(".claude"), "Claude Code's project settings"),
            (
                resolve(root.join(".claude")),
                "Claude Code's project settings",
            ),
        ];
        if let Some(dir) = project_dir {
            settings_dirs.push((
                resolve(dir.join(".claude")),
                "Claude Code's project settings",
            ));
        }
        if let Some(home) = env("HOME").filter(|h| !h.is_empty()) {
            settings_dirs.push((
                resolve(PathBuf::from(home).join(".claude")),
                "Claude Code's user settings",
            ));
        }
        if let Some(org) = &policy.org {
            guarded.push((resolve(org.path.clone()), "the organisation's policy file"));
        }
        Scope {
            allow: Patterns::new(&policy.scope.allow),
            deny: Patterns::new(&policy.scope.deny),
            outside: OutsidePatterns::new(&policy.scope.outside_root, env),
            also_allow: policy.scope.also_allow.as_deref().map(Patterns::new),
            also_outside: policy
                .scope
                .also_outside_root
                .as_deref()
                .map(|o| OutsidePatterns::new(o, env)),
            sources: Sources::of(policy),
            guarded,
            settings_dirs,
            source: policy.source.to_string(),
            unmodelled: policy.scope.unmodelled_programs,
            home: env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from),
            root,
        }
    }

    /// Judges a write to `raw` (as a tool gave it) from `cwd`.
    pub fn judge(&self, raw: &str, cwd: &Path) -> Judgement {
        self.judge_with(raw, cwd, How::default())
    }

    /// Judges a path given to a file tool (or to `check-path`), as a person writes one: a
    /// leading `~` or `~/` is the home directory, as a shell reads it at the start of a
    /// word and as hosts expand it in a file tool's path (read literally, a host that
    /// expands it would write elsewhere than judged). What a program receives after the
    /// shell's expansions goes to [`Scope::judge_with`] as it is (`dd of=~/x` opens
    /// `./~/x`).
    pub fn judge_tool_path(&self, raw: &str, cwd: &Path, how: How) -> Judgement {
        if let Some(rest) = raw
            .strip_prefix('~')
            .filter(|r| r.is_empty() || r.starts_with('/'))
        {
            return match &self.home {
                Some(home) => self.judge_with(&format!("{}{rest}", home.display()), cwd, how),
                None => Judgement {
                    resolved: PathBuf::from(raw),
                    allowed: false,
                    rule: "it starts with `~` (the home directory), and HOME is not set".into(),
                },
            };
        }
        self.judge_with(raw, cwd, how)
    }

    /// Judges a write to `raw` from `cwd`, as `how` describes it.
    pub fn judge_with(&self, raw: &str, cwd: &Path, how: How) -> Judgement {
        let refuse = |why: &str| Judgement {
            resolved: PathBuf::from(raw),
            allowed: false,
            rule: why.to_owned(),
        };
        if raw.contains('\0') {
            return refuse("the path contains a NUL byte");
        }
        if raw.is_empty() {
            return refuse("the path is empty");
        }
        let b = raw.as_bytes();
        if b.len() > 2 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'\\' | b'/')
        {
            return refuse("it is a Windows absolute path (it starts with a drive letter), outside the project root");
        }
        // A Windows-style path (`src\lib.rs`) is judged in both readings: as one name
        // here, and with `\` as a separator where the host would split it.
        if raw.contains('\\') {
            let unix = self.judge_one(raw, cwd, how);
            let windows = self.judge_one(&raw.replace('\\', "/"), cwd, how);
            return if unix.allowed { windows } else { unix };
        }
        self.judge_one(raw, cwd, how)
    }

    fn judge_one(&self, raw: &str, cwd: &Path, how: How) -> Judgement {
        let absolute = fsutil::absolute(Path::new(raw), cwd);
        let resolved = match (
            how.follow_last || raw.ends_with('/'),
            absolute.parent(),
            absolute.file_name(),
        ) {
            // `rm link`, `mv link x`: the link itself, in its resolved directory.
            (false, Some(parent), Some(name)) => fsutil::resolve(parent).map(|p| p.join(name)),
            _ => fsutil::resolve(&absolute),
        };
        let resolved = match resolved {
            Ok(p) => p,
            Err(e) => {
                return Judgement {
                    resolved: absolute,
                    allowed: false,
                    rule: e,
                }
            }
        };
        let mut j = self.judge_resolved(&resolved);
        if j.allowed && how.follow_last {
            if let Some(why) = shared_hard_link(&resolved) {
                j = Judgement {
                    resolved: resolved.clone(),
                    allowed: false,
                    rule: why,
                };
            }
        }
        if j.allowed && how.recursive && resolved.is_dir() {
            if let Some(inner) = self.protected_below(&resolved) {
                j = Judgement {
                    resolved,
                    allowed: false,
                    rule: inner,
                };
            }
        }
        j
    }

    fn judge_resolved(&self, resolved: &Path) -> Judgement {
        let verdict = |allowed, rule: String| Judgement {
            resolved: resolved.to_owned(),
            allowed,
            rule,
        };
        let (r, root) = (fold(resolved), fold(&self.root));
        for (path, what) in &self.guarded {
            let path = fold(path);
            if r == path || r.starts_with(&path) {
                return verdict(
                    false,
                    format!(
                        "it is {what} ({}), which the agent it guards may never change",
                        path.display()
                    ),
                );
            }
        }
        for (dir, what) in &self.settings_dirs {
            // The launcher the project's settings run (`install --project`): changed, it
            // would run something else in the guards' place.
            if r.parent() == Some(fold(dir).as_path())
                && r.file_name().is_some_and(|n| n == crate::BINARY_NAME)
            {
                return verdict(
                    false,
                    format!("it is the launcher {what} run the guards through ({}), which the agent may never change", r.display()),
                );
            }
            if is_settings_file(&r, &fold(dir)) {
                return verdict(
                    false,
                    format!("it is {what} ({}/settings*.json), where the guards are registered, which the agent may never change", dir.display()),
                );
            }
        }
        let Ok(rel) = r.strip_prefix(&root) else {
            // Both levels' lists, when both set one: the organisation's is checked too.
            let levels = [
                (&self.outside, &self.sources.outside),
                (
                    self.also_outside.as_ref().unwrap_or(&self.outside),
                    &self.sources.org_outside,
                ),
            ];
            let mut allowed_by = None;
            for (outside, source) in levels {
                match outside.first_match(&r) {
                    Some(g) => allowed_by = allowed_by.or(Some(g)),
                    None if outside.written.is_empty() => {
                        return verdict(
                            false,
                            format!(
                                "it is outside the project root {} (scope.outside_root is deny in {source})",
                                self.root.display(),
                            ),
                        )
                    }
                    None => {
                        return verdict(
                            false,
                            format!(
                                "it is outside the project root {} (scope.outside_root allows only {}, in {source})",
                                self.root.display(),
                                if policy::is_default_outside_root(&outside.written) {
                                    "the system temp directories".to_owned()
                                } else {
                                    outside.written.join(", ")
                                },
                            ),
                        )
                    }
                }
            }
            let g = allowed_by.unwrap_or_default();
            return verdict(
                true,
                format!("outside the root, allowed by scope.outside_root pattern {g:?}"),
            );
        };
        if let Some(g) = self.deny.first_match(rel) {
            return verdict(
                false,
                format!(
                    "it matches the deny pattern {g:?} (scope.deny in {})",
                    self.sources.deny(g)
                ),
            );
        }
        // `src/generated/**` protects the directory itself too: replacing or removing it
        // writes everything under it.
        let protected_dir = self
            .deny
            .list
            .iter()
            .zip(&self.deny.literal_dirs)
            .find(|(g, p)| p.as_deref() == Some(rel) && g.ends_with("/**"));
        if let Some((g, _)) = protected_dir {
            return verdict(
                false,
                format!(
                    "it is the directory the deny pattern {g:?} protects (scope.deny in {})",
                    self.sources.deny(g)
                ),
            );
        }
        if rel.as_os_str().is_empty() {
            return verdict(true, "it is the project root".into());
        }
        if let Some(org) = &self.also_allow {
            if org.first_match(rel).is_none() {
                return verdict(
                    false,
                    format!(
                        "no scope.allow pattern ({}) matches it, in {}",
                        org.list.join(", "),
                        self.sources.org_allow
                    ),
                );
            }
        }
        match self.allow.first_match(rel) {
            Some(g) => verdict(
                true,
                format!("inside the root, allowed by scope.allow pattern {g:?}"),
            ),
            None => verdict(
                false,
                format!(
                    "no scope.allow pattern ({}) matches it, in {}",
                    self.allow.list.join(", "),
                    self.sources.allow
                ),
            ),
        }
    }

    /// For a write that reaches everything under `dir`: the first thing below it that may
    /// not be written.
    fn protected_below(&self, dir: &Path) -> Option<String> {
        let d = fold(dir);
        for (path, what) in &self.guarded {
            if fold(path).starts_with(&d) && path.exists() {
                return Some(format!(
                    "it holds {what} ({}), which the agent it guards may never change",
                    path.display()
                ));
            }
        }
        for (settings, what) in &self.settings_dirs {
            if fold(settings).starts_with(&d) && has_settings_file(settings) {
                return Some(format!(
                    "it holds {what} ({}/settings*.json), which the agent may never change",
                    settings.display()
                ));
            }
        }
        let root = fold(&self.root);
        // Deny patterns that start with literal directories (`src/generated/**`): exact.
        for (pattern, prefix) in self.deny.list.iter().zip(&self.deny.literal_dirs) {
            let Some(prefix) = prefix else { continue };
            let lit = root.join(prefix);
            if lit.starts_with(&d) && lit.exists() {
                return Some(format!(
                    "it holds {}, which the deny pattern {pattern:?} protects (scope.deny in {})",
                    lit.display(),
                    self.sources.deny(pattern)
                ));
            }
        }
        // The others (`**/*.pem`) against what is there, up to a bound.
        let mut seen = 0;
        let mut queue = vec![dir.to_owned()];
        while let Some(next) = queue.pop() {
            let Ok(entries) = std::fs::read_dir(&next) else {
                continue;
            };
            for entry in entries.flatten() {
                seen += 1;
                if seen > SCAN_LIMIT {
                    return None;
                }
                let path = entry.path();
                if let Ok(rel) = fold(&path).strip_prefix(&root) {
                    if let Some(g) = self.deny.first_match(rel) {
                        return Some(format!(
                            "it holds {}, which matches the deny pattern {g:?} (scope.deny in {})",
                            path.display(),
                            self.sources.deny(g)
                        ));
                    }
                }
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    queue.push(path);
                }
            }
        }
        None
    }

    /// What the agent can do instead, for a denied path.
    /// The guard's own files and directories that exist, each with what it is: the
    /// policy, the state directory, and in each `.claude` its settings files and the
    /// launcher (what the run-time layer makes read-only).
    pub fn guarded_files(&self) -> Vec<(PathBuf, String)> {
        let mut out: Vec<(PathBuf, String)> = self
            .guarded
            .iter()
            .filter(|(p, _)| p.exists())
            .map(|(p, what)| (p.clone(), (*what).to_owned()))
            .collect();
        for (dir, what) in &self.settings_dirs {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if is_settings_file(&path, dir) {
                    out.push((path, format!("{what} (settings)")));
                } else if entry.file_name() == crate::BINARY_NAME {
                    out.push((path, format!("the launcher {what} run the guards through")));
                }
            }
        }
        out
    }

    /// The `.claude` directories that exist, resolved, once each.
    pub fn settings_dirs_present(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for (dir, _) in &self.settings_dirs {
            if let Ok(real) = std::fs::canonicalize(dir) {
                if real.is_dir() && !out.contains(&real) {
                    out.push(real);
                }
            }
        }
        out
    }

    pub fn advice(&self, j: &Judgement) -> String {
        if j.rule.contains("may never change") {
            "Leave it as it is; if it must change, ask the user to do it.".into()
        } else if j.rule.contains("outside the project root") {
            let scratch = match self.outside.scratch_dir() {
                Some(dir) => format!(" (a scratch file may go in {dir})"),
                None => String::new(),
            };
            format!(
                "Write inside {}/ instead{scratch}, or ask the user to allow that directory in scope.outside_root.",
                self.root.display()
            )
        } else if j.rule.contains("deny pattern") || j.rule.contains("hard links") {
            "Do not write it; if the task needs it, ask the user.".into()
        } else {
            "Write to a path scope.allow covers, or ask the user to widen scope.allow.".into()
        }
    }
}

fn fold(p: &Path) -> PathBuf {
    if CASE_INSENSITIVE_FS {
        PathBuf::from(p.to_string_lossy().to_lowercase())
    } else {
        p.to_owned()
    }
}

/// `settings*.json` directly inside `dir`.
fn is_settings_file(path: &Path, dir: &Path) -> bool {
    path.parent() == Some(dir)
        && path.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            let n = if CASE_INSENSITIVE_FS {
                n.to_lowercase()
            } else {
                n.to_owned()
            };
            n.starts_with("settings") && n.ends_with(".json")
        })
}

fn has_settings_file(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .is_ok_and(|entries| entries.flatten().any(|e| is_settings_file(&e.path(), dir)))
}

/// A regular file with other hard links: writing it in place changes them too, wherever
/// they are.
fn shared_hard_link(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::symlink_metadata(path).ok()?;
    (m.is_file() && m.nlink() > 1).then(|| {
        format!(
            "it is a file with {} hard links, so writing it in place changes the same file under its other names, which may be outside the project",
            m.nlink()
        )
    })
}

/// Where each scope rule comes from, for messages: computed once per scope.
struct Sources {
    allow: String,
    org_allow: String,
    outside: String,
    org_outside: String,
    /// Each deny pattern with its level's name.
    deny: Vec<(String, String)>,
}

impl Sources {
    fn of(policy: &Policy) -> Sources {
        let org = policy.org.as_ref().map(|o| o.label());
        Sources {
            allow: policy.source_of("scope.allow"),
            org_allow: org.clone().unwrap_or_default(),
            outside: policy.source_of("scope.outside_root"),
            org_outside: org.unwrap_or_else(|| policy.source_of("scope.outside_root")),
            deny: policy
                .scope
                .deny
                .iter()
                .map(|g| {
                    (
                        g.clone(),
                        policy.source_of_rule(&format!("scope.deny {g:?}")),
                    )
                })
                .collect(),
        }
    }

    fn deny(&self, pattern: &str) -> &str {
        self.deny
            .iter()
            .find(|(g, _)| g == pattern)
            .map_or("the policy", |(_, s)| s.as_str())
    }
}

/// `scope.outside_root` as the guard runs it.
struct OutsidePatterns {
    /// The patterns as the policy writes them, for messages.
    written: Vec<String>,
    /// Each pattern with `$TMPDIR` read (left out when `TMPDIR` is unset or relative),
    /// beside the pattern as written.
    expanded: Vec<(String, String)>,
    /// What is matched, each with the pattern as written: the expanded patterns, and
    /// those whose literal directories resolve elsewhere once more with them resolved.
    compiled: std::cell::OnceCell<(Patterns, Vec<String>)>,
}

impl OutsidePatterns {
    fn new(written: &[String], env: &dyn Fn(&str) -> Option<OsString>) -> OutsidePatterns {
        let tmpdir = env("TMPDIR").map(PathBuf::from).filter(|d| d.is_absolute());
        let expanded = written
            .iter()
            .filter_map(|p| {
                let e = match p.strip_prefix(policy::TMPDIR_VAR) {
                    None => p.clone(),
                    Some(rest) => {
                        let dir = tmpdir.as_ref()?.to_string_lossy().into_owned();
                        format!("{}{rest}", dir.trim_end_matches('/'))
                    }
                };
                Some((e, p.clone()))
            })
            .collect();
        OutsidePatterns {
            written: written.to_vec(),
            expanded,
            compiled: std::cell::OnceCell::new(),
        }
    }

    fn compile(&self) -> (Patterns, Vec<String>) {
        let mut list: Vec<(String, String)> = self.expanded.clone();
        for (p, w) in &self.expanded {
            let Some(lit) = p
                .strip_prefix('/')
                .and_then(literal_dirs)
                .map(|l| Path::new("/").join(l))
            else {
                continue;
            };
            if let Ok(real) = fsutil::resolve(&lit) {
                if real != lit {
                    let rest = &p[lit.as_os_str().len()..];
                    list.push((format!("{}{rest}", real.display()), w.clone()));
                }
            }
        }
        let (patterns, written): (Vec<String>, Vec<String>) = list.into_iter().unzip();
        (Patterns::new(&patterns), written)
    }

    /// The pattern, as the policy writes it, that lets a write to `resolved` through.
    fn first_match(&self, resolved: &Path) -> Option<&str> {
        let (patterns, written) = self.compiled.get_or_init(|| self.compile());
        let hit = patterns.first_match(resolved)?;
        let i = patterns.list.iter().position(|p| p == hit)?;
        Some(written[i].as_str())
    }

    /// A directory the policy lets the agent write whole (`/tmp/**`), for advice.
    fn scratch_dir(&self) -> Option<&str> {
        self.expanded.iter().find_map(|(p, _)| {
            p.strip_suffix("/**")
                .filter(|d| !d.contains(['*', '?', '[', '{']))
        })
    }
}

/// Glob patterns matched one by one, in order, each compiled only when the path holds
/// every literal piece of it: a policy with hundreds of patterns costs the few that could
/// match, not a regex compilation of all of them (which alone takes milliseconds, once per
/// tool call).
struct Patterns {
    list: Vec<String>,
    /// Per pattern, the literal pieces a matching path must contain.
    pieces: Vec<Vec<String>>,
    /// Per pattern, its leading literal directories (`src/generated` of
    /// `src/generated/**`), when it has any.
    literal_dirs: Vec<Option<PathBuf>>,
}

impl Patterns {
    fn new(list: &[String]) -> Patterns {
        Patterns {
            list: list.to_vec(),
            pieces: list.iter().map(|p| literal_pieces(p)).collect(),
            literal_dirs: list.iter().map(|p| literal_dirs(p)).collect(),
        }
    }

    /// The first pattern that matches, if any.
    fn first_match(&self, path: &Path) -> Option<&str> {
        let text = path.to_string_lossy();
        let text = if CASE_INSENSITIVE_FS {
            text.to_lowercase()
        } else {
            text.into_owned()
        };
        self.list
            .iter()
            .zip(&self.pieces)
            .find_map(|(pattern, pieces)| {
                if !pieces.iter().all(|piece| text.contains(piece.as_str())) {
                    return None;
                }
                let matcher = path_glob(pattern).ok()?.compile_matcher();
                matcher.is_match(path).then_some(pattern.as_str())
            })
    }
}

/// The components of a glob before its first wildcard, when there are any.
fn literal_dirs(pattern: &str) -> Option<PathBuf> {
    let lit: Vec<&str> = pattern
        .split('/')
        .take_while(|c| !c.contains(['*', '?', '[', '{', '\\']))
        .collect();
    (!lit.is_empty() && !lit[0].is_empty()).then(|| PathBuf::from(lit.join("/")))
}

/// The literal pieces of a glob: the text between wildcards, character classes,
/// alternatives and `/`. A pattern with escapes gets none (it is always compiled).
fn literal_pieces(pattern: &str) -> Vec<String> {
    if pattern.contains('\\') {
        return Vec::new();
    }
    let mut pieces = Vec::new();
    let mut current = String::new();
    let mut depth = 0;
    for c in pattern.chars() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            '*' | '?' | '/' if depth == 0 => pieces.push(std::mem::take(&mut current)),
            _ if depth == 0 => current.push(c),
            _ => {}
        }
        if depth > 0 && !current.is_empty() {
            pieces.push(std::mem::take(&mut current));
        }
    }
    pieces.push(current);
    pieces
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(|p| {
            if CASE_INSENSITIVE_FS {
                p.to_lowercase()
            } else {
                p
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_pieces_never_reject_a_match() {
        assert_eq!(literal_pieces("**/secret7/*.key"), ["secret7", ".key"]);
        assert_eq!(literal_pieces("src/{a,b}/x[0-9].rs"), ["src", "x", ".rs"]);
        assert!(literal_pieces("a\\*b").is_empty());
        // Each pattern matches a path that holds all its pieces, at any depth.
        let p = Patterns::new(&[
            "**/secret7/*.key".into(),
            ".env".into(),
            "src/{a,b}/**".into(),
        ]);
        assert_eq!(
            p.first_match(Path::new("secret7/k.key")),
            Some("**/secret7/*.key")
        );
        assert_eq!(
            p.first_match(Path::new("x/y/secret7/k.key")),
            Some("**/secret7/*.key")
        );
        assert_eq!(p.first_match(Path::new(".env")), Some(".env"));
        assert_eq!(p.first_match(Path::new("src/b/c/d")), Some("src/{a,b}/**"));
        assert_eq!(p.first_match(Path::new("src/c/d")), None);
        assert_eq!(p.first_match(Path::new("x/.env")), None);
    }

    #[test]
    fn deny_wins_and_guarded_files_stay_guarded() {
        let dir = std::env::temp_dir().join(format!("dia-scope-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("proj/.git")).unwrap();
        std::fs::create_dir_all(dir.join("state")).unwrap();
        let dir = std::fs::canonicalize(&dir).unwrap();
        let proj = dir.join("proj");
        let policy = Policy::parse(
            &proj.join(".did-it-actually.json"),
            br#"{"version": 1, "scope": {"allow": ["src/**", "*.md"], "deny": ["src/secret/**"], "outside_root": {"allow": ["/tmp/scratch/**"]}}}"#,
        )
        .unwrap();
        let state = dir.join("state");
        let env = move |k: &str| {
            (k == "DID_IT_ACTUALLY_STATE_DIR").then(|| state.clone().into_os_string())
        };
        let scope = Scope::new(&policy, &proj.join("src"), &env);
        assert_eq!(scope.root, proj);
        let j = |p: &str| scope.judge(p, &proj.join("src"));
        assert!(j("lib.rs").allowed);
        assert!(j("../README.md").allowed);
        assert!(!j("../Cargo.toml").allowed);
        assert!(j("secret/key")
            .rule
            .contains("deny pattern \"src/secret/**\""));
        assert!(!j("../.did-it-actually.json").allowed);
        assert!(!j("../.claude/settings.local.json").allowed);
        assert!(!j(&format!("{}/x.jsonl", dir.join("state").display())).allowed);
        assert!(j("/tmp/scratch/a/b").allowed);
        assert!(!j("/etc/passwd").allowed);
        assert!(!j("a\0b").allowed);
        assert!(
            !j("..\\..\\etc\\x").allowed,
            "a Windows-style escape is judged as one too"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The default outside the root: the system temp directories, `$TMPDIR` read from the
    /// environment, each matched where it really is (a temp directory reached through a
    /// link, as macOS's `/tmp` is); a link from there back into the project is judged where
    /// it lands; a policy that sets `outside_root` replaces the default.
    /// `~/x` is the home directory's `x` wherever a path is judged (a file tool's path,
    /// `check-path`), as in a shell command; `~name` and `x/~` are names.
    #[test]
    fn a_leading_tilde_is_the_home_directory() {
        let dir = std::env::temp_dir().join(format!("dia-scope-tilde-{}", std::process::id()));
        let proj = dir.join("proj");
        std::fs::create_dir_all(proj.join(".git")).unwrap();
        let proj = std::fs::canonicalize(&proj).unwrap();
        // A home outside the temp directories (which the defaults allow).
        let env = |k: &str| (k == "HOME").then(|| std::ffi::OsString::from("/nonexistent-home"));
        let scope = Scope::new(
            &Policy::defaults(proj.join(".did-it-actually.json")),
            &proj,
            &env,
        );
        let tool = |p: &str| scope.judge_tool_path(p, &proj, How::default());
        let bashrc = tool("~/.bashrc");
        assert!(!bashrc.allowed, "{bashrc:?}");
        assert_eq!(bashrc.resolved, Path::new("/nonexistent-home/.bashrc"));
        assert!(!tool("~").allowed);
        for name in ["~notes.md", "a/~/b.md"] {
            let j = tool(name);
            assert!(j.allowed && j.resolved.starts_with(&proj), "{name}: {j:?}");
        }
        // What a program got after the shell (`dd of=~/x`) is a relative name.
        let literal = scope.judge("~/x", &proj);
        assert!(
            literal.allowed && literal.resolved == proj.join("~/x"),
            "{literal:?}"
        );
        let no_home = Scope::new(
            &Policy::defaults(proj.join(".did-it-actually.json")),
            &proj,
            &|_: &str| None,
        );
        let j = no_home.judge_tool_path("~/.bashrc", &proj, How::default());
        assert!(!j.allowed && j.rule.contains("HOME is not set"), "{j:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temp_directories_are_writable_by_default_and_judged_where_they_land() {
        // Not under /tmp or /var/tmp, whose default patterns would match first: beside
        // the build, unless the clone itself is in a temp directory (then /dev/shm).
        let in_temp = |p: &Path| p.starts_with("/tmp") || p.starts_with("/var/tmp");
        let manifest = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).unwrap();
        let base = [manifest.join("target"), PathBuf::from("/dev/shm")]
            .into_iter()
            .find(|b| !in_temp(b) && b.is_dir())
            .expect("a directory outside the system temp directories");
        let dir = base.join(format!("dia-scope-tmp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for d in ["proj/.git", "real-tmp", "elsewhere"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        let dir = std::fs::canonicalize(&dir).unwrap();
        let proj = dir.join("proj");
        std::fs::write(proj.join(".env"), "A=1").unwrap();
        std::os::unix::fs::symlink(dir.join("real-tmp"), dir.join("tmp-link")).unwrap();
        std::os::unix::fs::symlink(proj.join(".env"), dir.join("real-tmp/env-link")).unwrap();
        let tmpdir = dir.join("tmp-link").into_os_string();
        let env = move |k: &str| (k == "TMPDIR").then(|| tmpdir.clone());
        let defaults = Policy::defaults(proj.join(".did-it-actually.json"));
        let scope = Scope::new(&defaults, &proj, &env);
        let j = |p: &Path| scope.judge(p.to_str().unwrap(), &proj);
        let through_link = j(&dir.join("tmp-link/x.log"));
        assert!(through_link.allowed, "{through_link:?}");
        assert_eq!(through_link.resolved, dir.join("real-tmp/x.log"));
        assert!(
            through_link.rule.contains("\"$TMPDIR/**\""),
            "{through_link:?}"
        );
        let back_in = j(&dir.join("tmp-link/env-link"));
        assert!(
            !back_in.allowed && back_in.rule.contains("\".env\""),
            "{back_in:?}"
        );
        let outside = j(&dir.join("elsewhere/x"));
        assert!(!outside.allowed);
        assert!(outside
            .rule
            .contains("allows only the system temp directories"));
        assert!(scope
            .advice(&outside)
            .contains("a scratch file may go in /tmp"));

        let narrowed = Policy::parse(
            &proj.join(".did-it-actually.json"),
            br#"{"version": 1, "scope": {"outside_root": "deny"}}"#,
        )
        .unwrap();
        let scope = Scope::new(&narrowed, &proj, &env);
        let taken = scope.judge(dir.join("tmp-link/x.log").to_str().unwrap(), &proj);
        assert!(!taken.allowed && taken.rule.contains("scope.outside_root is deny"));
        assert!(!scope.judge("/tmp/x", &proj).allowed);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_example_policy_is_the_defaults() {
        let example = Policy::parse(
            Path::new("/p/.did-it-actually.json"),
            include_bytes!("../policy.example.json"),
        )
        .unwrap();
        let defaults = Policy::defaults(PathBuf::from("/p/.did-it-actually.json"));
        assert_eq!(example.scope.outside_root, defaults.scope.outside_root);
        assert_eq!(example.scope.allow, defaults.scope.allow);
        assert_eq!(example.scope.deny, defaults.scope.deny);
    }
}
