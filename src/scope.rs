//! Where the agent may write: the project root, the policy's `scope.allow` and
//! `scope.deny` globs, `scope.outside_root`, and the guard suite's own files, which are
//! never writable by the agent it guards.
//!
//! A path is judged where the write would really land ([`fsutil::resolve`]): `..`, a
//! symlink inside the root pointing outside, a dangling symlink, all resolve first.

use crate::fsutil;
use crate::policy::{self, path_glob, Policy, CASE_INSENSITIVE_FS};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The compiled scope of one project.
pub struct Scope {
    pub root: PathBuf,
    allow: Patterns,
    deny: Patterns,
    outside: Patterns,
    /// Files and directories no agent may write: (path, what it is).
    guarded: Vec<(PathBuf, &'static str)>,
    /// Globs relative to the root with the same standing (`.claude/settings*.json`).
    guarded_rel: Patterns,
    /// Where the rules come from, for messages.
    pub source: String,
}

/// Glob patterns matched one by one, in order, each compiled only when the path holds
/// every literal piece of it: a policy with hundreds of patterns costs the few that could
/// match, not a regex compilation of all of them (which alone would take milliseconds,
/// once per tool call).
struct Patterns {
    list: Vec<String>,
    /// Per pattern, the literal pieces a matching path must contain.
    pieces: Vec<Vec<String>>,
}

impl Patterns {
    fn new(list: &[String]) -> Patterns {
        Patterns {
            list: list.to_vec(),
            pieces: list.iter().map(|p| literal_pieces(p)).collect(),
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
        let repo = policy::repo_root(cwd);
        let base = repo
            .clone()
            .or_else(|| {
                env("CLAUDE_PROJECT_DIR")
                    .filter(|d| !d.is_empty())
                    .map(PathBuf::from)
            })
            .unwrap_or_else(|| cwd.to_owned());
        let root = match &policy.scope.root {
            Some(r) if r.is_absolute() => r.clone(),
            Some(r) => base.join(r),
            None => base,
        };
        let root = fsutil::resolve(&root).unwrap_or(root);
        let mut guarded = vec![(
            fsutil::resolve(policy.source.path())
                .unwrap_or_else(|_| policy.source.path().to_owned()),
            "the guard's policy file",
        )];
        if let Ok(state) = crate::store::state_root(env) {
            guarded.push((
                fsutil::resolve(&state).unwrap_or(state),
                "the guard's state directory",
            ));
        }
        if let Some(home) = env("HOME").filter(|h| !h.is_empty()) {
            for f in ["settings.json", "settings.local.json"] {
                let p = PathBuf::from(&home).join(".claude").join(f);
                guarded.push((
                    fsutil::resolve(&p).unwrap_or(p),
                    "Claude Code's user settings, where the guards are registered",
                ));
            }
        }
        Scope {
            allow: Patterns::new(&policy.scope.allow),
            deny: Patterns::new(&policy.scope.deny),
            outside: Patterns::new(&policy.scope.outside_root),
            guarded,
            guarded_rel: Patterns::new(&[".claude/settings*.json".to_owned()]),
            source: policy.source.to_string(),
            root,
        }
    }

    /// Judges a write to `raw` (as the tool or the command gave it) from `cwd`.
    pub fn judge(&self, raw: &str, cwd: &Path) -> Judgement {
        let refuse = |why: String| Judgement {
            resolved: PathBuf::from(raw),
            allowed: false,
            rule: why,
        };
        if raw.contains('\0') {
            return refuse("the path contains a NUL byte".into());
        }
        if raw.is_empty() {
            return refuse("the path is empty".into());
        }
        // A Windows-style path (`src\\lib.rs`) is judged in both readings: as one name
        // here, and with `\\` as a separator where the host would split it.
        if raw.contains('\\') {
            let unix = self.judge_one(raw, cwd);
            let windows = self.judge_one(&raw.replace('\\', "/"), cwd);
            return if unix.allowed { windows } else { unix };
        }
        self.judge_one(raw, cwd)
    }

    fn judge_one(&self, raw: &str, cwd: &Path) -> Judgement {
        let absolute = fsutil::absolute(Path::new(raw), cwd);
        let resolved = match fsutil::resolve(&absolute) {
            Ok(p) => p,
            Err(e) => {
                return Judgement {
                    resolved: absolute,
                    allowed: false,
                    rule: e,
                }
            }
        };
        let verdict = |allowed, rule: String| Judgement {
            resolved: resolved.clone(),
            allowed,
            rule,
        };
        let fold = |p: &Path| {
            if CASE_INSENSITIVE_FS {
                PathBuf::from(p.to_string_lossy().to_lowercase())
            } else {
                p.to_owned()
            }
        };
        let (r, root) = (fold(&resolved), fold(&self.root));
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
        let Ok(rel) = r.strip_prefix(&root) else {
            return match self.outside.first_match(&r) {
                Some(g) => verdict(
                    true,
                    format!("outside the root, allowed by scope.outside_root pattern {g:?}"),
                ),
                None => verdict(
                    false,
                    format!(
                        "it is outside the project root {} (scope.outside_root is deny in {})",
                        self.root.display(),
                        self.source
                    ),
                ),
            };
        };
        if let Some(g) = self.guarded_rel.first_match(rel) {
            return verdict(false, format!("it is Claude Code's project settings ({g}), where the guards are registered, which the agent may never change"));
        }
        if let Some(g) = self.deny.first_match(rel) {
            return verdict(
                false,
                format!(
                    "it matches the deny pattern {g:?} (scope.deny in {})",
                    self.source
                ),
            );
        }
        match self.allow.first_match(rel) {
            Some(g) => verdict(
                true,
                format!("inside the root, allowed by scope.allow pattern {g:?}"),
            ),
            None if rel.as_os_str().is_empty() => verdict(true, "it is the project root".into()),
            None => verdict(
                false,
                format!(
                    "no scope.allow pattern ({}) matches it, in {}",
                    self.allow.list.join(", "),
                    self.source
                ),
            ),
        }
    }

    /// What the agent can do instead, for a denied path.
    pub fn advice(&self, j: &Judgement) -> String {
        if j.rule.contains("may never change") {
            "Leave it as it is; if it must change, ask the user to do it.".into()
        } else if j.rule.contains("outside the project root") {
            format!(
                "Write inside {}/ instead, or ask the user to allow that directory in scope.outside_root.",
                self.root.display()
            )
        } else if j.rule.contains("deny pattern") {
            "Do not write it; if the task needs it, ask the user.".into()
        } else {
            "Write to a path scope.allow covers, or ask the user to widen scope.allow.".into()
        }
    }
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
}
