//! The repository's policy: `.did-it-actually.json` at the repository root, or the file
//! named by `$DID_IT_ACTUALLY_POLICY`. An absent file means safe defaults; a malformed one
//! is an error with path, line and column, and the guards fail closed until it is fixed.
//!
//! Every key is documented in `policy.example.json` at the top of the repository. Unknown
//! keys are errors: a misspelt key that silently does nothing is a guard that is off.

use serde::de::{Deserializer, Error as _};
use serde::Deserialize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The policy file's name at the repository root.
pub const POLICY_FILE: &str = ".did-it-actually.json";
/// The environment variable that names a policy file explicitly.
pub const POLICY_ENV: &str = "DID_IT_ACTUALLY_POLICY";
/// The policy format this build understands.
pub const POLICY_VERSION: u32 = 1;

/// The effective policy and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub source: Source,
    pub store: StorePolicy,
}

/// Where the policy came from: every deny names it.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// No policy file at this path: built-in defaults.
    Defaults {
        looked_for: PathBuf,
    },
    File(PathBuf),
}

impl Source {
    /// The path to show a user: the file, or where one would be read from.
    pub fn path(&self) -> &Path {
        match self {
            Source::Defaults { looked_for } => looked_for,
            Source::File(path) => path,
        }
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Defaults { looked_for } => {
                write!(f, "built-in defaults (no {})", looked_for.display())
            }
            Source::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// The `store` section: how long the write logs of idle sessions are kept.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorePolicy {
    #[serde(default = "default_prune_days", deserialize_with = "positive_days")]
    pub prune_after_days: u32,
    #[serde(rename = "//", default, skip_serializing)]
    _comment: Option<serde_json::Value>,
}

impl StorePolicy {
    pub fn prune_after(&self) -> Duration {
        Duration::from_secs(u64::from(self.prune_after_days) * 86_400)
    }
}

impl Default for StorePolicy {
    fn default() -> Self {
        StorePolicy {
            prune_after_days: default_prune_days(),
            _comment: None,
        }
    }
}

fn default_prune_days() -> u32 {
    14
}

fn positive_days<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let days = u32::deserialize(d)?;
    if days == 0 {
        return Err(D::Error::custom(
            "prune_after_days must be at least 1 (a session in use is never pruned, but 0 would prune every other session at once)",
        ));
    }
    Ok(days)
}

/// The file's shape. `"//"` keys hold comments (JSON has none of its own).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    #[serde(deserialize_with = "known_version")]
    version: u32,
    #[serde(default)]
    store: StorePolicy,
    #[serde(rename = "//", default)]
    _comment: Option<serde_json::Value>,
}

fn known_version<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v = u32::deserialize(d)?;
    if v != POLICY_VERSION {
        return Err(D::Error::custom(format!(
            "unsupported policy version {v}; this build of did-it-actually reads version {POLICY_VERSION}"
        )));
    }
    Ok(v)
}

/// A policy that cannot be used, with enough detail to fix it.
#[derive(Debug, PartialEq, Eq)]
pub enum PolicyError {
    Read {
        path: PathBuf,
        message: String,
    },
    Invalid {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

impl std::fmt::Display for PolicyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PolicyError::Read { path, message } => {
                write!(
                    f,
                    "cannot read the policy file {}: {message}",
                    path.display()
                )
            }
            PolicyError::Invalid {
                path,
                line,
                column,
                message,
            } => write!(
                f,
                "invalid policy file {}:{line}:{column}: {message}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for PolicyError {}

impl PolicyError {
    /// The policy file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            PolicyError::Read { path, .. } | PolicyError::Invalid { path, .. } => path,
        }
    }
}

/// The repository root that holds `cwd`: the nearest ancestor with a `.git` entry (a
/// directory, or a file in worktrees and submodules). None outside a repository.
pub fn repo_root(cwd: &Path) -> Option<PathBuf> {
    cwd.ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The policy file that applies to `cwd`: `$DID_IT_ACTUALLY_POLICY` if set, else
/// `.did-it-actually.json` at the repository root (or in `cwd` outside a repository).
pub fn policy_path(cwd: &Path, env: impl Fn(&str) -> Option<OsString>) -> PathBuf {
    if let Some(explicit) = env(POLICY_ENV).filter(|v| !v.is_empty()) {
        let explicit = PathBuf::from(explicit);
        return if explicit.is_absolute() {
            explicit
        } else {
            cwd.join(explicit)
        };
    }
    repo_root(cwd)
        .unwrap_or_else(|| cwd.to_owned())
        .join(POLICY_FILE)
}

impl Policy {
    /// The built-in defaults, as if no file existed at `looked_for`.
    pub fn defaults(looked_for: PathBuf) -> Policy {
        Policy {
            source: Source::Defaults { looked_for },
            store: StorePolicy::default(),
        }
    }

    /// Loads the policy that applies to `cwd`. A file named by `$DID_IT_ACTUALLY_POLICY`
    /// must exist: naming a missing file is a mistake, not a request for defaults.
    pub fn discover(
        cwd: &Path,
        env: impl Fn(&str) -> Option<OsString>,
    ) -> Result<Policy, PolicyError> {
        let explicit = env(POLICY_ENV).is_some_and(|v| !v.is_empty());
        let path = policy_path(cwd, env);
        match std::fs::read(&path) {
            Ok(bytes) => Policy::parse(&path, &bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => {
                Ok(Policy::defaults(path))
            }
            Err(e) => Err(PolicyError::Read {
                message: if explicit {
                    format!("{e} (named by {POLICY_ENV})")
                } else {
                    e.to_string()
                },
                path,
            }),
        }
    }

    /// Parses policy file bytes; `path` is only used in errors and as the source.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Policy, PolicyError> {
        let invalid = |line, column, message| PolicyError::Invalid {
            path: path.to_owned(),
            line,
            column,
            message,
        };
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let (line, column) = line_column(bytes, e.valid_up_to());
            invalid(line, column, "the file is not UTF-8".into())
        })?;
        let file: PolicyFile = serde_json::from_str(text).map_err(|e| {
            let e = crate::json::JsonError::from(&e);
            let message = if e.message.starts_with("missing field `version`") {
                format!(
                    "{}; start the file with \"version\": {POLICY_VERSION}",
                    e.message
                )
            } else {
                e.message
            };
            invalid(e.line, e.column, message)
        })?;
        let _ = file.version;
        Ok(Policy {
            source: Source::File(path.to_owned()),
            store: file.store,
        })
    }
}

/// 1-based line and column of a byte offset.
fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = offset
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Policy, PolicyError> {
        Policy::parse(Path::new("/r/.did-it-actually.json"), text.as_bytes())
    }

    fn err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn minimal_and_full_files() {
        let p = parse(r#"{"version": 1}"#).unwrap();
        assert_eq!(p.store.prune_after_days, 14);
        let p =
            parse(r#"{"version": 1, "//": "hi", "store": {"//": ["a"], "prune_after_days": 3}}"#)
                .unwrap();
        assert_eq!(p.store.prune_after(), Duration::from_secs(3 * 86_400));
        assert_eq!(p.source, Source::File("/r/.did-it-actually.json".into()));
    }

    #[test]
    fn errors_carry_path_line_and_column() {
        assert_eq!(
            err("{\n  \"version\": 1,\n  \"stor\": {}\n}"),
            "invalid policy file /r/.did-it-actually.json:3:8: unknown field `stor`, expected one of `version`, `store`, `//`"
        );
        assert_eq!(
            err("{\"version\": 1,\n \"store\": {\"prune_after_days\": \"7\"}}"),
            "invalid policy file /r/.did-it-actually.json:2:34: invalid type: string \"7\", expected u32"
        );
        assert_eq!(
            err("{\"version\": 1, \"store\": {\"prune_after_days\": 0}}"),
            "invalid policy file /r/.did-it-actually.json:1:47: prune_after_days must be at least 1 (a session in use is never pruned, but 0 would prune every other session at once)"
        );
        assert_eq!(
            err("{\"version\": 2}"),
            "invalid policy file /r/.did-it-actually.json:1:14: unsupported policy version 2; this build of did-it-actually reads version 1"
        );
        assert_eq!(
            err("{}"),
            "invalid policy file /r/.did-it-actually.json:1:2: missing field `version`; start the file with \"version\": 1"
        );
        assert_eq!(
            err("{\"version\": 1,,}"),
            "invalid policy file /r/.did-it-actually.json:1:15: key must be a string"
        );
        let bad_utf8 = Policy::parse(Path::new("/p.json"), b"{\n \"version\": \xff}").unwrap_err();
        assert_eq!(
            bad_utf8.to_string(),
            "invalid policy file /p.json:2:13: the file is not UTF-8"
        );
    }

    #[test]
    fn discovery_uses_repo_root_and_env_override() {
        let root = std::env::temp_dir().join(format!("dia-policy-{}", std::process::id()));
        let sub = root.join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let no_env = |_: &str| None;
        let p = Policy::discover(&sub, no_env).unwrap();
        assert_eq!(
            p.source,
            Source::Defaults {
                looked_for: root.join(POLICY_FILE)
            }
        );
        std::fs::write(
            root.join(POLICY_FILE),
            r#"{"version":1,"store":{"prune_after_days":2}}"#,
        )
        .unwrap();
        assert_eq!(
            Policy::discover(&sub, no_env)
                .unwrap()
                .store
                .prune_after_days,
            2
        );
        let missing = |k: &str| (k == POLICY_ENV).then(|| OsString::from("/nonexistent/p.json"));
        let e = Policy::discover(&sub, missing).unwrap_err().to_string();
        assert!(
            e.starts_with("cannot read the policy file /nonexistent/p.json:"),
            "{e}"
        );
        assert!(e.ends_with("(named by DID_IT_ACTUALLY_POLICY)"), "{e}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
