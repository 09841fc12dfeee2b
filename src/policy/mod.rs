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

pub mod org;
pub use org::OrgLayer;

/// The policy file's name at the repository root.
pub const POLICY_FILE: &str = ".did-it-actually.json";
/// The environment variable that names a policy file explicitly.
pub const POLICY_ENV: &str = "DID_IT_ACTUALLY_POLICY";
/// The policy format this build understands.
pub const POLICY_VERSION: u32 = 1;
/// A larger policy file is refused unread (README, "Policy").
pub const MAX_POLICY_BYTES: u64 = 1024 * 1024;
/// The most patterns one list may hold (`branches.protected`, `scope.deny`, ...). The
/// limits keep the worst policy's compilation in tens of milliseconds: a policy with
/// millions of globs took 20 s and 4.5 GiB, past the guards' timeout.
pub const MAX_PATTERNS: usize = 256;
/// The longest pattern, in bytes.
pub const MAX_PATTERN_BYTES: usize = 256;

/// The effective policy and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub source: Source,
    /// A policy file that differs from what the user approved, and so is not in force
    /// (see [`crate::approval`]).
    pub pending: Option<crate::approval::Pending>,
    /// The keys the file sets, dotted (`branches.protected`): every other key is the
    /// built-in default, and a rule says so ([`Policy::source_of`]).
    pub set: Vec<String>,
    pub store: StorePolicy,
    pub branches: BranchPolicy,
    pub scope: ScopePolicy,
    pub audit: AuditPolicy,
    pub export: ExportPolicy,
    /// The organisation's policy, when one is deployed: combined into the sections above,
    /// kept here for where each rule came from ([`Policy::source_of`]).
    pub org: Option<Box<OrgLayer>>,
}

/// Where the policy came from: every deny names it.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// No policy file at this path: built-in defaults.
    Defaults {
        looked_for: PathBuf,
    },
    File(PathBuf),
    /// The approved copy of this file: the file itself has changed since, and is not in
    /// force until the user approves it.
    Approved {
        file: PathBuf,
    },
    /// Built-in defaults: the file at this path was never approved (or the defaults
    /// were, before it appeared).
    DefaultsUnapproved {
        file: PathBuf,
    },
}

impl Source {
    /// The path to show a user: the file, or where one would be read from.
    pub fn path(&self) -> &Path {
        match self {
            Source::Defaults { looked_for } => looked_for,
            Source::File(path)
            | Source::Approved { file: path }
            | Source::DefaultsUnapproved { file: path } => path,
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
            Source::Approved { file } => write!(
                f,
                "the approved copy of {} (the file changed since and is not in force)",
                file.display()
            ),
            Source::DefaultsUnapproved { file } => {
                write!(f, "built-in defaults ({} is not approved)", file.display())
            }
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

/// The `branches` section: which branches block-wrong-branch protects, and from what.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BranchPolicy {
    /// Glob patterns of protected branch names (`*` stays within one `/` segment, `**`
    /// crosses them).
    #[serde(default = "default_protected", deserialize_with = "glob_list")]
    pub protected: Vec<String>,
    /// Also protect each remote's default branch (`refs/remotes/<remote>/HEAD`).
    #[serde(default = "yes")]
    pub protect_remote_default: bool,
    /// What is denied on a protected branch, per kind of change.
    #[serde(default)]
    pub deny: DenySwitches,
    /// Whether force pushes to branches that are not protected are allowed.
    #[serde(default = "yes")]
    pub allow_force_push: bool,
    /// When set, commits and pushes may only land on branches matching these globs.
    #[serde(default, deserialize_with = "optional_glob_list")]
    pub allowed: Option<Vec<String>>,
    /// The organisation's `allowed`, when both levels set one: a branch must match both.
    #[serde(skip)]
    pub also_allowed: Option<Vec<String>>,
    /// Whether git itself refuses, inside every git process the agent starts, what these
    /// rules forbid (the run-time layer: `reference-transaction` and `pre-push` hooks,
    /// switched on by `install`). Off: the static layer alone decides, as before.
    #[serde(default = "yes")]
    pub run_time: bool,
    #[serde(rename = "//", default, skip_serializing)]
    _comment: Option<serde_json::Value>,
    #[serde(skip)]
    compiled: Option<Compiled>,
}

/// The branch patterns as sets: protected, allowed, and the organisation's allowed.
#[derive(Clone, Debug)]
struct Compiled {
    protected: globset::GlobSet,
    allowed: Option<globset::GlobSet>,
    also_allowed: Option<globset::GlobSet>,
}

impl PartialEq for BranchPolicy {
    fn eq(&self, other: &Self) -> bool {
        (
            &self.protected,
            self.protect_remote_default,
            &self.deny,
            self.allow_force_push,
            &self.allowed,
            &self.also_allowed,
            self.run_time,
        ) == (
            &other.protected,
            other.protect_remote_default,
            &other.deny,
            other.allow_force_push,
            &other.allowed,
            &other.also_allowed,
            other.run_time,
        )
    }
}

impl Default for BranchPolicy {
    fn default() -> Self {
        BranchPolicy {
            protected: default_protected(),
            protect_remote_default: true,
            deny: DenySwitches::default(),
            allow_force_push: true,
            allowed: None,
            also_allowed: None,
            run_time: true,
            _comment: None,
            compiled: None,
        }
        .compiled()
        .expect("the default branch patterns compile")
    }
}

/// Per kind of change, whether block-wrong-branch denies it on a protected branch.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DenySwitches {
    pub commit: bool,
    pub merge: bool,
    pub rebase: bool,
    pub cherry_pick: bool,
    pub revert: bool,
    pub am: bool,
    pub pull: bool,
    pub reset: bool,
    /// `branch -f/-d/-D/-m/-M/-c/-C`, `checkout -B`, `switch -C`, `worktree add -B`.
    pub branch: bool,
    pub update_ref: bool,
    pub fetch: bool,
    pub push: bool,
    pub force_push: bool,
    pub push_delete: bool,
    /// A command the guard cannot read (in a repository with protected branches).
    pub unresolvable: bool,
    #[serde(rename = "//", skip_serializing)]
    _comment: Option<serde_json::Value>,
}

impl Default for DenySwitches {
    fn default() -> Self {
        DenySwitches {
            commit: true,
            merge: true,
            rebase: true,
            cherry_pick: true,
            revert: true,
            am: true,
            pull: true,
            reset: true,
            branch: true,
            update_ref: true,
            fetch: true,
            push: true,
            force_push: true,
            push_delete: true,
            unresolvable: true,
            _comment: None,
        }
    }
}

/// A kind of branch change the policy can allow or deny (`branches.deny.<key>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DenyKind {
    Commit,
    Merge,
    Rebase,
    CherryPick,
    Revert,
    Am,
    Pull,
    Reset,
    Branch,
    UpdateRef,
    Fetch,
    Push,
    ForcePush,
    PushDelete,
    Unresolvable,
}

impl DenyKind {
    /// Every kind, in the policy file's order.
    pub const ALL: [DenyKind; 15] = [
        DenyKind::Commit,
        DenyKind::Merge,
        DenyKind::Rebase,
        DenyKind::CherryPick,
        DenyKind::Revert,
        DenyKind::Am,
        DenyKind::Pull,
        DenyKind::Reset,
        DenyKind::Branch,
        DenyKind::UpdateRef,
        DenyKind::Fetch,
        DenyKind::Push,
        DenyKind::ForcePush,
        DenyKind::PushDelete,
        DenyKind::Unresolvable,
    ];

    /// The key in `branches.deny`.
    pub fn key(self) -> &'static str {
        match self {
            DenyKind::Commit => "commit",
            DenyKind::Merge => "merge",
            DenyKind::Rebase => "rebase",
            DenyKind::CherryPick => "cherry_pick",
            DenyKind::Revert => "revert",
            DenyKind::Am => "am",
            DenyKind::Pull => "pull",
            DenyKind::Reset => "reset",
            DenyKind::Branch => "branch",
            DenyKind::UpdateRef => "update_ref",
            DenyKind::Fetch => "fetch",
            DenyKind::Push => "push",
            DenyKind::ForcePush => "force_push",
            DenyKind::PushDelete => "push_delete",
            DenyKind::Unresolvable => "unresolvable",
        }
    }
}

impl std::fmt::Display for DenyKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl DenySwitches {
    /// Denied where either `self` or `other` denies.
    pub fn either(&self, other: &DenySwitches) -> DenySwitches {
        DenySwitches {
            commit: self.commit || other.commit,
            merge: self.merge || other.merge,
            rebase: self.rebase || other.rebase,
            cherry_pick: self.cherry_pick || other.cherry_pick,
            revert: self.revert || other.revert,
            am: self.am || other.am,
            pull: self.pull || other.pull,
            reset: self.reset || other.reset,
            branch: self.branch || other.branch,
            update_ref: self.update_ref || other.update_ref,
            fetch: self.fetch || other.fetch,
            push: self.push || other.push,
            force_push: self.force_push || other.force_push,
            push_delete: self.push_delete || other.push_delete,
            unresolvable: self.unresolvable || other.unresolvable,
            _comment: None,
        }
    }

    /// Whether the policy denies this kind of change on a protected branch. One match, so
    /// every kind has its field and no key can select another's.
    pub fn get(&self, kind: DenyKind) -> bool {
        match kind {
            DenyKind::Commit => self.commit,
            DenyKind::Merge => self.merge,
            DenyKind::Rebase => self.rebase,
            DenyKind::CherryPick => self.cherry_pick,
            DenyKind::Revert => self.revert,
            DenyKind::Am => self.am,
            DenyKind::Pull => self.pull,
            DenyKind::Reset => self.reset,
            DenyKind::Branch => self.branch,
            DenyKind::UpdateRef => self.update_ref,
            DenyKind::Fetch => self.fetch,
            DenyKind::Push => self.push,
            DenyKind::ForcePush => self.force_push,
            DenyKind::PushDelete => self.push_delete,
            DenyKind::Unresolvable => self.unresolvable,
        }
    }
}

fn default_protected() -> Vec<String> {
    vec!["main".into(), "master".into()]
}

fn yes() -> bool {
    true
}

fn glob(pattern: &str) -> Result<globset::Glob, globset::Error> {
    globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
}

/// The patterns as one set. An error (a set too large for the regex engine) must not
/// become an empty set: that would protect nothing.
fn glob_set(patterns: &[String]) -> Result<globset::GlobSet, String> {
    let mut b = globset::GlobSetBuilder::new();
    for p in patterns {
        b.add(glob(p).map_err(|e| format!("invalid branch pattern {p:?}: {}", e.kind()))?);
    }
    b.build()
        .map_err(|e| format!("the branch patterns cannot be compiled together: {e}"))
}

/// Refuses a pattern list over the limits, before any pattern in it is parsed.
fn within_limits<E: serde::de::Error>(list: &[String]) -> Result<(), E> {
    if list.len() > MAX_PATTERNS {
        return Err(E::custom(format!(
            "this list holds {} patterns; a list may hold at most {MAX_PATTERNS} (see the README, Policy)",
            list.len()
        )));
    }
    if let Some(p) = list.iter().find(|p| p.len() > MAX_PATTERN_BYTES) {
        let start: String = p.chars().take(40).collect();
        return Err(E::custom(format!(
            "the pattern {start:?}... is {} bytes; a pattern may be at most {MAX_PATTERN_BYTES} bytes (see the README, Policy)",
            p.len()
        )));
    }
    Ok(())
}

fn glob_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let list = Vec::<String>::deserialize(d)?;
    within_limits(&list)?;
    for p in &list {
        glob(p)
            .map_err(|e| D::Error::custom(format!("invalid branch pattern {p:?}: {}", e.kind())))?;
    }
    Ok(list)
}

fn optional_glob_list<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    let list = Option::<Vec<String>>::deserialize(d)?;
    within_limits(list.as_deref().unwrap_or_default())?;
    for p in list.iter().flatten() {
        glob(p)
            .map_err(|e| D::Error::custom(format!("invalid branch pattern {p:?}: {}", e.kind())))?;
    }
    Ok(list)
}

impl BranchPolicy {
    fn compiled(mut self) -> Result<Self, String> {
        self.compiled = Some(Compiled {
            protected: glob_set(&self.protected)?,
            allowed: self.allowed.as_deref().map(glob_set).transpose()?,
            also_allowed: self.also_allowed.as_deref().map(glob_set).transpose()?,
        });
        Ok(self)
    }

    /// The rule that protects `branch`, if any: a pattern of `protected`, or the remote
    /// default branch.
    pub fn protects(&self, branch: &str, remote_defaults: &[String]) -> Option<String> {
        let hits = self.compiled.as_ref()?.protected.matches(branch);
        if let Some(&i) = hits.first() {
            return Some(format!(
                "branches.protected pattern {:?}",
                self.protected[i]
            ));
        }
        (self.protect_remote_default && remote_defaults.iter().any(|d| d == branch))
            .then(|| "branches.protect_remote_default (it is a remote's default branch)".to_owned())
    }

    /// Whether `branches.allowed` (when set) lets work land on `branch`.
    pub fn allows(&self, branch: &str) -> bool {
        let Some(c) = self.compiled.as_ref() else {
            return true;
        };
        [&c.allowed, &c.also_allowed]
            .into_iter()
            .flatten()
            .all(|set| set.is_match(branch))
    }

    /// Every `allowed` pattern in force, for messages (the organisation's after a `;`).
    pub fn describe_allowed(&self) -> String {
        let mine = self.allowed.as_deref().unwrap_or_default().join(", ");
        match &self.also_allowed {
            Some(org) => format!("{mine}; and the organisation's {}", org.join(", ")),
            None => mine,
        }
    }

    /// The protected patterns, for messages.
    pub fn describe_protected(&self) -> String {
        let mut parts: Vec<String> = self.protected.clone();
        if self.protect_remote_default {
            parts.push("the remotes' default branches".into());
        }
        parts.join(", ")
    }
}

/// The `scope` section: where scope-guard lets the agent write.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScopePolicy {
    /// The project root: absolute, or relative to the repository root. Default: the git
    /// top level, else `CLAUDE_PROJECT_DIR`, else the hook's working directory.
    #[serde(default)]
    pub root: Option<PathBuf>,
    /// Globs, relative to the root, that may be written.
    #[serde(default = "default_scope_allow", deserialize_with = "path_glob_list")]
    pub allow: Vec<String>,
    /// Globs, relative to the root, that may not be written (a deny always wins).
    #[serde(default = "default_scope_deny", deserialize_with = "path_glob_list")]
    pub deny: Vec<String>,
    /// Outside the root: `"deny"`, or `{"allow": [absolute globs]}` (`$TMPDIR` may start
    /// one). Default: the system temp directories ([`TEMP_DIRS`]), where agents keep
    /// scratch files; a policy that names `outside_root` replaces them.
    #[serde(default = "default_outside_root", deserialize_with = "outside_root")]
    pub outside_root: Vec<String>,
    /// What to do with a program whose own writes cannot be read from the command
    /// (`python -c`, `node -e`, a perl one-liner that is more than substitutions).
    #[serde(default)]
    pub unmodelled_programs: Unmodelled,
    /// Whether the agent's shell commands, and every program they start, run with their
    /// writes confined by the kernel (Landlock, on Linux) to the root, `outside_root`,
    /// the repository's own git directories and local remotes, and `run_time_writable`
    /// (the run-time layer for writes, switched on by `install`). Off: the static reading
    /// alone decides, as before.
    #[serde(default = "yes")]
    pub run_time: bool,
    /// Directories outside the root that ordinary work writes and the run-time layer
    /// leaves writable: package and build caches (`~/` is the home directory). Only
    /// directories that exist when a command starts are opened.
    #[serde(default = "default_run_time_writable")]
    pub run_time_writable: Vec<String>,
    /// The organisation's `allow`, when both levels set one: a path must match both.
    #[serde(skip)]
    pub also_allow: Option<Vec<String>>,
    /// The organisation's `outside_root`, when both levels set one: a path must match both.
    #[serde(skip)]
    pub also_outside_root: Option<Vec<String>>,
    #[serde(rename = "//", default, skip_serializing)]
    _comment: Option<serde_json::Value>,
}

impl Default for ScopePolicy {
    fn default() -> Self {
        ScopePolicy {
            root: None,
            allow: default_scope_allow(),
            deny: default_scope_deny(),
            outside_root: default_outside_root(),
            unmodelled_programs: Unmodelled::default(),
            run_time: true,
            run_time_writable: default_run_time_writable(),
            also_allow: None,
            also_outside_root: None,
            _comment: None,
        }
    }
}

/// The caches everyday builds and installs write, left writable by the run-time layer:
/// each tool's download and build cache, never its configuration (`~/.npmrc`,
/// `~/.gitconfig`, `~/.cargo/config.toml` stay outside), plus the shared-memory
/// directory POSIX semaphores live in (Python's multiprocessing, test runners).
pub const RUN_TIME_WRITABLE: &[&str] = &[
    "~/.cache",
    "~/.npm/_cacache",
    "~/.npm/_logs",
    "~/.npm/_npx",
    "~/.cargo/registry",
    "~/.cargo/git",
    "~/go/pkg/mod",
    "~/.m2/repository",
    "~/.gradle/caches",
    "~/.yarn/berry/cache",
    "~/.bun/install/cache",
    "~/.local/share/pnpm/store",
    "/dev/shm",
];

fn default_run_time_writable() -> Vec<String> {
    RUN_TIME_WRITABLE.iter().map(|p| p.to_string()).collect()
}

/// `scope.unmodelled_programs`: a program whose writes are out of static reach runs
/// (its visible targets still judged) or is denied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unmodelled {
    #[default]
    Allow,
    Deny,
}

impl Unmodelled {
    pub fn as_str(self) -> &'static str {
        match self {
            Unmodelled::Allow => "allow",
            Unmodelled::Deny => "deny",
        }
    }
}

fn default_scope_allow() -> Vec<String> {
    vec!["**".into()]
}

fn default_scope_deny() -> Vec<String> {
    [
        ".git",
        ".git/**",
        ".env",
        ".env.*",
        "**/*.pem",
        "**/*.key",
        "**/id_rsa*",
    ]
    .map(String::from)
    .to_vec()
}

/// Builds a glob for paths: `*` stays within one `/` part, `**` crosses them.
pub fn path_glob(pattern: &str) -> Result<globset::Glob, globset::Error> {
    globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .case_insensitive(CASE_INSENSITIVE_FS)
        .build()
}

/// Whether file names compare without case on this platform (macOS and Windows by
/// default).
pub const CASE_INSENSITIVE_FS: bool = cfg!(any(target_os = "macos", target_os = "windows"));

fn path_glob_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let list = Vec::<String>::deserialize(d)?;
    within_limits(&list)?;
    for p in &list {
        path_glob(p)
            .map_err(|e| D::Error::custom(format!("invalid path pattern {p:?}: {}", e.kind())))?;
    }
    Ok(list)
}

/// The system temp directories, writable outside the root by default (`mktemp`, `tee
/// /tmp/log`, scratch files): `$TMPDIR` is the one place a pattern may name the
/// environment, read when the guard runs.
pub const TEMP_DIRS: &[&str] = &["/tmp/**", "/var/tmp/**", "$TMPDIR/**"];

/// The environment variable an `outside_root` pattern may start with.
pub const TMPDIR_VAR: &str = "$TMPDIR";

fn default_outside_root() -> Vec<String> {
    TEMP_DIRS.iter().map(|p| p.to_string()).collect()
}

/// Whether `outside_root` is exactly the default temp directories.
pub fn is_default_outside_root(list: &[String]) -> bool {
    list.len() == TEMP_DIRS.len() && list.iter().zip(TEMP_DIRS).all(|(a, b)| a == b)
}

/// Where writes may go, for people: the project root, and what `scope.outside_root`
/// allows beyond it.
pub fn describe_writable(root: &std::path::Path, outside_root: &[String]) -> String {
    let outside = if outside_root.is_empty() {
        "nothing outside it".to_owned()
    } else if is_default_outside_root(outside_root) {
        "the system temp directories (/tmp, /var/tmp, $TMPDIR)".to_owned()
    } else {
        outside_root.join(", ")
    };
    format!("inside {} and {outside}", root.display())
}

fn outside_root<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let expected = "expected \"deny\" or {\"allow\": [absolute path patterns]}";
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) if s == "deny" => Ok(Vec::new()),
        serde_json::Value::Object(map) if map.len() == 1 && map.contains_key("allow") => {
            let list: Vec<String> = serde_json::from_value(map["allow"].clone()).map_err(|_| {
                D::Error::custom(format!(
                    "outside_root.allow must be a list of strings; {expected}"
                ))
            })?;
            within_limits(&list)?;
            for p in &list {
                let after_var = p.strip_prefix(TMPDIR_VAR);
                if !p.starts_with('/')
                    && !after_var.is_some_and(|r| r.is_empty() || r.starts_with('/'))
                {
                    return Err(D::Error::custom(format!(
                        "outside_root pattern {p:?} must be absolute (or start with $TMPDIR/)"
                    )));
                }
                path_glob(p).map_err(|e| {
                    D::Error::custom(format!("invalid path pattern {p:?}: {}", e.kind()))
                })?;
            }
            Ok(list)
        }
        other => Err(D::Error::custom(format!(
            "invalid outside_root {other}; {expected}"
        ))),
    }
}

/// The `audit` section: what audit-turn checks when the agent stops.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AuditPolicy {
    pub enabled: bool,
    /// Check claims that files changed.
    pub file_claims: bool,
    /// Check claims that tests, the build or a linter pass.
    pub test_claims: bool,
    /// Check claims of commits and pushes.
    pub git_claims: bool,
    /// Commands that count as running the tests (matched as leading words, wrappers
    /// unwrapped).
    pub test_commands: Vec<String>,
    /// Commands that count as building, and as linting.
    pub build_commands: Vec<String>,
    pub lint_commands: Vec<String>,
    /// Consecutive blocks of one turn before the stop goes through with a notice (1 to 7:
    /// Claude Code ends the turn itself after 8).
    #[serde(deserialize_with = "max_blocks")]
    pub max_blocks: u32,
    /// Audit subagents' stops too.
    pub subagents: bool,
    /// Paths never audited (globs relative to the project root).
    #[serde(deserialize_with = "path_glob_list")]
    pub ignore_paths: Vec<String>,
    /// Paths the tests cannot see (globs relative to the project root; one without a `/`
    /// matches at any depth): a write to one after a test run does not void the run.
    #[serde(deserialize_with = "path_glob_list")]
    pub test_irrelevant: Vec<String>,
    /// Tools that end the agent's loop in an Agent SDK app (`end_turn`, bare or behind any
    /// `mcp__<server>__`): when a batch calls one, audit-turn (registered on
    /// PostToolBatch) audits the turn and ends the loop only when its claims hold.
    pub end_turn_tools: Vec<String>,
    #[serde(rename = "//", skip_serializing)]
    _comment: Option<serde_json::Value>,
}

impl Default for AuditPolicy {
    fn default() -> Self {
        let list = |items: &[&str]| items.iter().map(|s| s.to_string()).collect();
        AuditPolicy {
            enabled: true,
            file_claims: true,
            test_claims: true,
            git_claims: true,
            // Launchers are seen through: `uv run`, `poetry run`, `pipenv run`, `hatch run`,
            // `pdm run`, `npx`, `pnpm exec`, `yarn dlx`, `bunx`, `bundle exec`, `python -m`
            // (so `uv run pytest` and `python3 -m unittest` match `pytest` and `unittest`).
            test_commands: list(&[
                "cargo test",
                "cargo nextest",
                "pytest",
                "py.test",
                "unittest",
                "python -m pytest",
                "python3 -m pytest",
                "python -m unittest",
                "python3 -m unittest",
                "go test",
                "gotestsum",
                "npm test",
                "npm run test",
                "npm t",
                "pnpm test",
                "pnpm run test",
                "yarn test",
                "yarn run test",
                "bun test",
                "bun run test",
                "jest",
                "vitest",
                "mocha",
                "ava",
                "tap",
                "node --test",
                "deno test",
                "make test",
                "make check",
                "just test",
                "mvn test",
                "mvn verify",
                "gradle test",
                "./gradlew test",
                "rspec",
                "rake test",
                "rails test",
                "phpunit",
                "vendor/bin/phpunit",
                "dotnet test",
                "ctest",
                "bazel test",
                "bazelisk test",
                "tox",
                "nox",
                "hatch test",
                "mix test",
                "swift test",
                "cabal test",
                "stack test",
                "install/test.sh",
            ]),
            build_commands: list(&[
                "cargo build",
                "cargo check",
                "npm run build",
                "pnpm build",
                "pnpm run build",
                "yarn build",
                "go build",
                "tsc",
                "npx tsc",
                "make",
                "mvn package",
                "mvn compile",
                "gradle build",
                "./gradlew build",
                "dotnet build",
                "swift build",
                "cabal build",
                "javac",
                "gcc",
                "g++",
                "clang",
                "clang++",
                "rustc",
            ]),
            lint_commands: list(&[
                "cargo clippy",
                "cargo fmt",
                "eslint",
                "npx eslint",
                "npm run lint",
                "pnpm lint",
                "yarn lint",
                "ruff",
                "flake8",
                "pylint",
                "mypy",
                "golangci-lint",
                "prettier",
                "npx prettier",
                "shellcheck",
                "black",
                "gofmt",
                "rubocop",
            ]),
            max_blocks: 3,
            subagents: true,
            ignore_paths: Vec::new(),
            test_irrelevant: list(&[
                "*.md",
                "docs/**",
                "CHANGELOG*",
                "LICENSE*",
                // What packaging and git skip: no test reads it.
                ".gitignore",
                ".npmignore",
                ".dockerignore",
                ".gitattributes",
                // pip's list of what to install: a test run sees what is installed.
                "requirements*.txt",
            ]),
            end_turn_tools: Vec::new(),
            _comment: None,
        }
    }
}

fn max_blocks<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = u32::deserialize(d)?;
    if !(1..=7).contains(&n) {
        return Err(D::Error::custom(format!(
            "audit.max_blocks is {n}; it must be 1 to 7 (Claude Code ends the turn by itself after 8 consecutive stop-hook blocks)"
        )));
    }
    Ok(n)
}

/// The `export` section: whether the ledger leaves the machine as OpenTelemetry log
/// records, and what of it is left out (docs/export.md).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExportPolicy {
    /// Send the ledger to the OTLP endpoint the standard `OTEL_EXPORTER_OTLP_*` variables
    /// name. Off by default: nothing leaves the machine unless someone turned it on.
    pub otlp: bool,
    /// What is replaced by a digest before it is sent: `message` (the agent's final
    /// messages and claim sentences), `paths`, `commands`, `output`.
    #[serde(deserialize_with = "redactions")]
    pub redact: Vec<String>,
    #[serde(rename = "//", skip_serializing)]
    _comment: Option<serde_json::Value>,
}

/// What `export.redact` may name.
pub const REDACTABLE: &[&str] = &["message", "paths", "commands", "output"];

impl ExportPolicy {
    /// Whether `what` (one of [`REDACTABLE`]) is redacted.
    pub fn redacts(&self, what: &str) -> bool {
        self.redact.iter().any(|r| r == what)
    }
}

fn redactions<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let list = Vec::<String>::deserialize(d)?;
    if let Some(bad) = list.iter().find(|r| !REDACTABLE.contains(&r.as_str())) {
        return Err(D::Error::custom(format!(
            "export.redact: unknown item {bad:?}; expected any of {}",
            REDACTABLE.join(", ")
        )));
    }
    Ok(list)
}

/// The file's shape. `"//"` keys hold comments (JSON has none of its own).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    #[serde(deserialize_with = "known_version")]
    version: u32,
    #[serde(default)]
    store: StorePolicy,
    #[serde(default, deserialize_with = "compiled_branches")]
    branches: BranchPolicy,
    #[serde(default)]
    scope: ScopePolicy,
    #[serde(default)]
    audit: AuditPolicy,
    #[serde(default)]
    export: ExportPolicy,
    #[serde(rename = "//", default)]
    _comment: Option<serde_json::Value>,
}

fn compiled_branches<'de, D: Deserializer<'de>>(d: D) -> Result<BranchPolicy, D::Error> {
    BranchPolicy::deserialize(d)?
        .compiled()
        .map_err(D::Error::custom)
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
            pending: None,
            set: Vec::new(),
            store: StorePolicy::default(),
            branches: BranchPolicy::default(),
            scope: ScopePolicy::default(),
            audit: AuditPolicy::default(),
            export: ExportPolicy::default(),
            org: None,
        }
    }

    /// The policy in force for `cwd`: what the user approved (see [`crate::approval`]).
    /// Every guard, static or run-time, reads this one.
    pub fn in_force(
        cwd: &Path,
        env: impl Fn(&str) -> Option<OsString>,
    ) -> Result<Policy, PolicyError> {
        let repo = crate::approval::in_force(cwd, &env)?;
        Policy::with_org(repo, &env)
    }

    /// `self` combined with the organisation's policy, when one is deployed
    /// ([`org::combine`]): a broken organisation policy fails closed like a broken
    /// repository one.
    fn with_org(self, env: &dyn Fn(&str) -> Option<OsString>) -> Result<Policy, PolicyError> {
        Ok(match org::read(env)? {
            Some(layer) => org::combine(self, layer),
            None => self,
        })
    }

    /// Reads the policy file that applies to `cwd` as it is on disk, approved or not
    /// (for the user's own commands: `policy check`, `policy approve`, `install`). A file
    /// named by `$DID_IT_ACTUALLY_POLICY` must exist: naming a missing file is a
    /// mistake, not a request for defaults.
    pub fn discover(
        cwd: &Path,
        env: impl Fn(&str) -> Option<OsString>,
    ) -> Result<Policy, PolicyError> {
        let explicit = env(POLICY_ENV).is_some_and(|v| !v.is_empty());
        let path = policy_path(cwd, &env);
        // Looked at before it is opened (a FIFO would hang the hook in `open`) and refused
        // unread above the size limit.
        match crate::fsutil::read_regular(&path, MAX_POLICY_BYTES) {
            Ok(bytes) => Policy::parse(&path, &bytes)?.with_org(&env),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => {
                Policy::defaults(path).with_org(&env)
            }
            Err(e) => {
                let mut message = e.to_string();
                if e.kind() == std::io::ErrorKind::InvalidData {
                    message
                        .push_str(" (a policy file may be at most 1 MiB; see the README, Policy)");
                }
                if explicit {
                    message.push_str(&format!(" (named by {POLICY_ENV})"));
                }
                Err(PolicyError::Read { message, path })
            }
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
            pending: None,
            set: keys_set(text),
            store: file.store,
            branches: file.branches,
            scope: file.scope,
            audit: file.audit,
            export: file.export,
            org: None,
        })
    }
}

/// The dotted keys a policy file's text sets, to the second level (`scope.allow`); the
/// text is known to parse.
fn keys_set(text: &str) -> Vec<String> {
    let Ok(serde_json::Value::Object(top)) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (section, value) in top {
        out.push(section.clone());
        if let serde_json::Value::Object(keys) = value {
            out.extend(keys.keys().map(|k| format!("{section}.{k}")));
        }
    }
    out
}

impl Policy {
    /// [`Policy::source_of`] the key a rule, as the guards word it, starts with
    /// (`branches.protected pattern "main"`, `branches.protect_remote_default (…)`).
    pub fn source_of_rule(&self, rule: &str) -> String {
        let key = rule
            .split(|c: char| c.is_whitespace() || c == '(')
            .next()
            .unwrap_or(rule);
        // A pattern of a list both levels add to: the level whose list holds it.
        if let (Some(org), Some(pattern)) = (&self.org, quoted(rule)) {
            if org.sets(key) && org_list(&org.own, key).is_some_and(|l| l.contains(&pattern)) {
                return org.label();
            }
            if org_list(&org.own, key).is_some() {
                return self.repo_source_of(key);
            }
        }
        self.source_of(key)
    }

    /// Where the rule at `key` (dotted, `branches.protected`) comes from, for a reason:
    /// the organisation's policy when it sets the key (with the repository's, when both
    /// do: the stricter of the two is in force), else the repository's level
    /// ([`Policy::repo_source_of`]).
    pub fn source_of(&self, key: &str) -> String {
        let repo_sets = matches!(self.source, Source::File(_) | Source::Approved { .. })
            && self.set.iter().any(|k| k == key);
        let org_decides = org::rule_of(key) == Some(org::Rule::Organisation);
        match &self.org {
            Some(org) if org.sets(key) && repo_sets && !org_decides => format!(
                "{} and {} (the stricter of the two)",
                org.label(),
                self.source
            ),
            Some(org) if org.sets(key) => org.label(),
            _ => self.repo_source_of(key),
        }
    }

    /// The repository level's part: the policy's source when it sets the key (or is the
    /// defaults), else the built-in defaults, named with the file that leaves the key unset.
    fn repo_source_of(&self, key: &str) -> String {
        let from_file = matches!(self.source, Source::File(_) | Source::Approved { .. });
        if !from_file || self.set.iter().any(|k| k == key) {
            return self.source.to_string();
        }
        format!(
            "built-in defaults ({} does not set {key})",
            self.source.path().display()
        )
    }
}

/// The first `"…"` in a rule as the guards word it (`branches.protected pattern "main"`).
fn quoted(rule: &str) -> Option<String> {
    let start = rule.find('"')? + 1;
    let len = rule[start..].find('"')?;
    Some(rule[start..start + len].to_owned())
}

/// The pattern list at `key`, for the keys whose rules name one of their patterns.
fn org_list<'a>(p: &'a Policy, key: &str) -> Option<&'a Vec<String>> {
    match key {
        "branches.protected" => Some(&p.branches.protected),
        "scope.deny" => Some(&p.scope.deny),
        "scope.allow" => Some(&p.scope.allow),
        "scope.outside_root" => Some(&p.scope.outside_root),
        _ => None,
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
            "invalid policy file /r/.did-it-actually.json:3:8: unknown field `stor`, expected one of `version`, `store`, `branches`, `scope`, `audit`, `export`, `//`"
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
    fn each_deny_key_sets_its_own_switch_and_an_unknown_key_is_an_error() {
        for kind in DenyKind::ALL {
            let text = format!(
                r#"{{"version": 1, "branches": {{"deny": {{"{}": false}}}}}}"#,
                kind.key()
            );
            let p = parse(&text).unwrap();
            for other in DenyKind::ALL {
                assert_eq!(
                    p.branches.deny.get(other),
                    other != kind,
                    "{kind} vs {other}"
                );
            }
        }
        let e = err(r#"{"version": 1, "branches": {"deny": {"pusj": false}}}"#);
        assert!(e.contains("unknown field `pusj`"), "{e}");
    }

    #[test]
    fn branch_rules() {
        let p = parse(r#"{"version": 1, "branches": {"protected": ["main", "release/*"], "allowed": ["feat/**"],
            "deny": {"commit": false}, "allow_force_push": false}}"#).unwrap();
        let b = &p.branches;
        assert!(b.protects("main", &[]).is_some());
        assert!(b.protects("release/1.0", &[]).is_some());
        assert!(b.protects("release/1.0/x", &[]).is_none());
        assert!(b.protects("develop", &["develop".into()]).is_some());
        assert!(b.allows("feat/a/b") && !b.allows("fix/x"));
        assert!(!b.deny.get(DenyKind::Commit) && b.deny.get(DenyKind::Push));
        assert!(!b.allow_force_push);
        assert_eq!(
            err(r#"{"version": 1, "branches": {"protected": ["a[b"]}}"#),
            "invalid policy file /r/.did-it-actually.json:1:49: invalid branch pattern \"a[b\": unclosed character class; missing ']'"
        );
        assert_eq!(
            err(r#"{"version": 1, "branches": {"deny": {"comit": true}}}"#),
            "invalid policy file /r/.did-it-actually.json:1:44: unknown field `comit`, expected one of `commit`, `merge`, `rebase`, `cherry_pick`, `revert`, `am`, `pull`, `reset`, `branch`, `update_ref`, `fetch`, `push`, `force_push`, `push_delete`, `unresolvable`, `//`"
        );
    }

    #[test]
    fn pattern_lists_over_the_limits_are_refused_before_compiling() {
        let list = |n: usize, len: usize| -> Vec<String> {
            (0..n)
                .map(|i| format!("{i:0>len$}*", len = len - 1))
                .collect()
        };
        let at_limit = serde_json::json!({"version": 1,
            "branches": {"protected": list(MAX_PATTERNS, MAX_PATTERN_BYTES), "allowed": list(MAX_PATTERNS, 8)},
            "scope": {"allow": list(MAX_PATTERNS, 8), "deny": list(MAX_PATTERNS, 8)}});
        let p = parse(&at_limit.to_string()).unwrap();
        let first = list(1, MAX_PATTERN_BYTES).remove(0);
        assert!(p.branches.protects(&first.replace('*', "x"), &[]).is_some());
        for (key, value) in [
            ("branches.protected", list(MAX_PATTERNS + 1, 8)),
            ("branches.allowed", list(MAX_PATTERNS + 1, 8)),
            ("scope.allow", list(MAX_PATTERNS + 1, 8)),
            ("scope.deny", list(MAX_PATTERNS + 1, 8)),
            ("audit.ignore_paths", list(MAX_PATTERNS + 1, 8)),
        ] {
            let (section, field) = key.split_once('.').unwrap();
            let policy = serde_json::json!({"version": 1, section: {field: value}});
            let e = err(&policy.to_string());
            assert!(
                e.ends_with("this list holds 257 patterns; a list may hold at most 256 (see the README, Policy)"),
                "{key}: {e}"
            );
        }
        let policy = serde_json::json!({"version": 1, "scope": {"outside_root": {"allow": list(MAX_PATTERNS + 1, 8)}}});
        assert!(err(&policy.to_string()).contains("at most 256"));
        let long = format!("/{}", "a".repeat(MAX_PATTERN_BYTES));
        let policy = serde_json::json!({"version": 1, "branches": {"protected": ["main", long]}});
        assert_eq!(
            err(&policy.to_string()),
            "invalid policy file /r/.did-it-actually.json:1:306: the pattern \"/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"... is 257 bytes; a pattern may be at most 256 bytes (see the README, Policy)"
        );
    }

    #[test]
    fn a_policy_file_over_the_size_limit_or_not_a_file_is_not_read() {
        let root = std::env::temp_dir().join(format!("dia-policy-big-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let padding = " ".repeat(MAX_POLICY_BYTES as usize);
        std::fs::write(
            root.join(POLICY_FILE),
            format!("{{\"version\": 1{padding}}}"),
        )
        .unwrap();
        let e = Policy::discover(&root, |_| None).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "cannot read the policy file {}: it is 1048590 bytes, over the limit of 1 MiB, so it was not read (a policy file may be at most 1 MiB; see the README, Policy)",
                root.join(POLICY_FILE).display()
            )
        );
        std::fs::remove_file(root.join(POLICY_FILE)).unwrap();
        std::fs::create_dir(root.join(POLICY_FILE)).unwrap();
        let e = Policy::discover(&root, |_| None).unwrap_err().to_string();
        assert!(
            e.ends_with(": it is a directory, not a regular file, so it was not opened"),
            "{e}"
        );
        std::fs::remove_dir_all(&root).unwrap();
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
    #[test]
    fn a_rule_the_file_does_not_set_is_attributed_to_the_defaults() {
        let p = Policy::parse(
            Path::new("/r/.did-it-actually.json"),
            br#"{"version": 1, "scope": {"allow": ["**"]}}"#,
        )
        .unwrap();
        assert_eq!(
            p.source_of_rule("branches.protected pattern \"main\""),
            "built-in defaults (/r/.did-it-actually.json does not set branches.protected)"
        );
        assert_eq!(p.source_of("scope.allow"), "/r/.did-it-actually.json");
        let d = Policy::defaults(PathBuf::from("/r/.did-it-actually.json"));
        assert_eq!(
            d.source_of("branches.protected"),
            "built-in defaults (no /r/.did-it-actually.json)"
        );
    }
}
