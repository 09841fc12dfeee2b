//! An organisation's policy: one file an administrator deploys to every machine
//! (`/etc/did-it-actually/policy.json`, root-owned), in the repository policy's format. It
//! binds every project on the machine. A repository's policy may tighten it (more
//! protected branches, a narrower scope, more deny patterns) and never loosen it: each key
//! has one [`Rule`] saying how the two levels combine, and the [`RULES`] table is the
//! one place that says it (`policy check` prints it, the docs copy it, a test holds the
//! table to the file format).
//!
//! The file is not subject to the user's approval (only root can change it), but it is
//! checked: a malformed file fails every guard closed, as a repository's does, and a file
//! this user can write is reported, since an agent running as this user could loosen it.

use super::*;

/// Where an administrator deploys the organisation's policy.
pub const ORG_POLICY_PATH: &str = "/etc/did-it-actually/policy.json";
/// Names another file for the organisation's policy: for staging and tests. `policy check`
/// and `doctor` say when it is in use, and a managed install pins it in the host's managed
/// settings, where no project can set it.
pub const ORG_POLICY_ENV: &str = "DID_IT_ACTUALLY_ORG_POLICY";

/// How a key of the organisation's policy and the repository's combine when both set it.
/// When only one level sets a key, that level's value is the one in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The larger number (a longer log, more blocks before a turn goes through).
    Max,
    /// Every pattern of both lists (more protected branches, more deny patterns).
    Union,
    /// On when either level turns it on.
    EitherOn,
    /// Allowed only when both levels allow it.
    BothAllow,
    /// A path or branch must match a pattern of each level's list.
    MatchBoth,
    /// `deny` when either level says `deny`.
    DenyWins,
    /// Only the entries both lists hold (fewer ignored paths, fewer writable caches).
    Intersection,
    /// The organisation's value: these lists say what counts as evidence, so a repository
    /// adding to them could loosen the audit.
    Organisation,
    /// The organisation's policy may not set it (it is a property of each repository).
    RepositoryOnly,
}

impl Rule {
    /// The rule in words, for `policy check` and the docs.
    pub fn describe(self) -> &'static str {
        match self {
            Rule::Max => "the larger of the two",
            Rule::Union => "every pattern of both",
            Rule::EitherOn => "on if either turns it on",
            Rule::BothAllow => "allowed only if both allow it",
            Rule::MatchBoth => "must match a pattern of each",
            Rule::DenyWins => "deny if either says deny",
            Rule::Intersection => "only the entries both hold",
            Rule::Organisation => "the organisation's (a repository cannot widen what counts)",
            Rule::RepositoryOnly => "the repository's (the organisation may not set it)",
        }
    }
}

/// Every key of the policy format, with how the two levels combine.
pub const RULES: &[(&str, Rule)] = &[
    ("store.prune_after_days", Rule::Max),
    ("branches.protected", Rule::Union),
    ("branches.protect_remote_default", Rule::EitherOn),
    ("branches.deny", Rule::EitherOn),
    ("branches.allow_force_push", Rule::BothAllow),
    ("branches.allowed", Rule::MatchBoth),
    ("branches.run_time", Rule::EitherOn),
    ("scope.root", Rule::RepositoryOnly),
    ("scope.allow", Rule::MatchBoth),
    ("scope.deny", Rule::Union),
    ("scope.outside_root", Rule::MatchBoth),
    ("scope.unmodelled_programs", Rule::DenyWins),
    ("scope.run_time", Rule::EitherOn),
    ("scope.run_time_writable", Rule::Intersection),
    ("audit.enabled", Rule::EitherOn),
    ("audit.file_claims", Rule::EitherOn),
    ("audit.test_claims", Rule::EitherOn),
    ("audit.git_claims", Rule::EitherOn),
    ("audit.test_commands", Rule::Organisation),
    ("audit.build_commands", Rule::Organisation),
    ("audit.lint_commands", Rule::Organisation),
    ("audit.max_blocks", Rule::Max),
    ("audit.subagents", Rule::EitherOn),
    ("audit.ignore_paths", Rule::Intersection),
    ("audit.test_irrelevant", Rule::Intersection),
    ("audit.end_turn_tools", Rule::Union),
    ("export.otlp", Rule::EitherOn),
    ("export.redact", Rule::Union),
];

/// The rule of `key`.
pub fn rule_of(key: &str) -> Option<Rule> {
    RULES.iter().find(|(k, _)| *k == key).map(|(_, r)| *r)
}

/// The organisation's layer of a policy in force: its file and its own rules.
#[derive(Clone, Debug, PartialEq)]
pub struct OrgLayer {
    pub path: PathBuf,
    /// The path was named by [`ORG_POLICY_ENV`], not the deployed default.
    pub moved: bool,
    /// The organisation's policy on its own, before the repository's was combined in.
    pub own: Box<Policy>,
    /// Why this user could change the file, when they could (an agent running as this
    /// user could then loosen it).
    pub writable: Option<String>,
    /// Keys the repository sets that the organisation's value overrode, for `policy check`.
    pub overrode: Vec<String>,
}

impl OrgLayer {
    /// How a reason names this level.
    pub fn label(&self) -> String {
        format!("the organisation policy {}", self.path.display())
    }

    /// Whether the organisation's own policy sets `key` (dotted).
    pub fn sets(&self, key: &str) -> bool {
        self.own.set.iter().any(|k| k == key)
    }
}

/// The organisation policy's path, and whether [`ORG_POLICY_ENV`] moved it.
pub fn org_path(env: &dyn Fn(&str) -> Option<OsString>) -> (PathBuf, bool) {
    match env(ORG_POLICY_ENV).filter(|v| !v.is_empty()) {
        Some(p) => (PathBuf::from(p), true),
        None => (PathBuf::from(ORG_POLICY_PATH), false),
    }
}

/// Reads the organisation's policy: `None` when there is none (the common case: one
/// `stat`). A file named by [`ORG_POLICY_ENV`] must exist.
pub fn read(env: &dyn Fn(&str) -> Option<OsString>) -> Result<Option<OrgLayer>, PolicyError> {
    let (path, moved) = org_path(env);
    let bytes = match crate::fsutil::read_regular(&path, MAX_POLICY_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !moved => return Ok(None),
        Err(e) => {
            let mut message = e.to_string();
            if moved {
                message.push_str(&format!(" (named by {ORG_POLICY_ENV})"));
            }
            return Err(PolicyError::Read { path, message });
        }
    };
    let own = Policy::parse(&path, &bytes)?;
    if own
        .set
        .iter()
        .any(|k| rule_of(k) == Some(Rule::RepositoryOnly))
    {
        let (line, column) = key_position(&bytes, "root");
        return Err(PolicyError::Invalid {
            path,
            line,
            column,
            message: "an organisation policy may not set scope.root: each repository has its own root (set it in the repository's .did-it-actually.json)".into(),
        });
    }
    let writable = writable_by_user(&path);
    Ok(Some(OrgLayer {
        path,
        moved,
        own: Box::new(own),
        writable,
        overrode: Vec::new(),
    }))
}

/// Where `"key"` first appears in the file, for an error (1-based line and column).
fn key_position(bytes: &[u8], key: &str) -> (usize, usize) {
    let needle = format!("\"{key}\"");
    let at = bytes
        .windows(needle.len())
        .position(|w| w == needle.as_bytes())
        .unwrap_or(0);
    line_column(bytes, at)
}

/// Why the user running this could change the file (or its directory), if they could.
fn writable_by_user(path: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let uid = unsafe { libc::geteuid() };
        if uid == 0 {
            return None;
        }
        let check = |p: &Path, what: &str| -> Option<String> {
            let m = std::fs::metadata(p).ok()?;
            if m.uid() == uid {
                return Some(format!("{what} {} belongs to this user", p.display()));
            }
            (m.mode() & 0o002 != 0)
                .then(|| format!("{what} {} is writable by everyone", p.display()))
        };
        check(path, "the file").or_else(|| check(path.parent()?, "its directory"))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// The repository's policy combined with the organisation's: each key by its [`Rule`].
pub fn combine(mut repo: Policy, mut org: OrgLayer) -> Policy {
    let o = &*org.own;
    let repo_set = repo.set.clone();
    let repo_sets = |k: &str| repo_set.iter().any(|s| s == k);
    let mut overrode = Vec::new();
    for &(key, rule) in RULES {
        if !org.sets(key) {
            continue;
        }
        let both = repo_sets(key);
        if rule == Rule::Organisation && both {
            overrode.push(key.to_owned());
        }
        apply(&mut repo, o, key, rule, both);
    }
    org.overrode = overrode;
    if let Ok(b) = repo.branches.clone().compiled() {
        repo.branches = b;
    }
    repo.org = Some(Box::new(org));
    repo
}

/// Applies one key the organisation sets. `both`: the repository sets it too.
fn apply(p: &mut Policy, o: &Policy, key: &str, rule: Rule, both: bool) {
    // Only the organisation sets it: its value, whatever the rule.
    let take = !both;
    match key {
        "store.prune_after_days" => {
            p.store.prune_after_days = if take {
                o.store.prune_after_days
            } else {
                p.store.prune_after_days.max(o.store.prune_after_days)
            }
        }
        "branches.protected" => union_into(&mut p.branches.protected, &o.branches.protected, take),
        "branches.protect_remote_default" => {
            p.branches.protect_remote_default =
                o.branches.protect_remote_default || (both && p.branches.protect_remote_default)
        }
        "branches.deny" => {
            p.branches.deny = if take {
                o.branches.deny.clone()
            } else {
                p.branches.deny.either(&o.branches.deny)
            }
        }
        "branches.allow_force_push" => {
            p.branches.allow_force_push =
                o.branches.allow_force_push && (take || p.branches.allow_force_push)
        }
        "branches.allowed" => {
            if take {
                p.branches.allowed = o.branches.allowed.clone();
            } else {
                p.branches.also_allowed = o.branches.allowed.clone();
            }
        }
        "branches.run_time" => {
            p.branches.run_time = o.branches.run_time || (both && p.branches.run_time)
        }
        "scope.allow" => {
            if take {
                p.scope.allow = o.scope.allow.clone();
            } else {
                p.scope.also_allow = Some(o.scope.allow.clone());
            }
        }
        "scope.deny" => union_into(&mut p.scope.deny, &o.scope.deny, take),
        "scope.outside_root" => {
            if take {
                p.scope.outside_root = o.scope.outside_root.clone();
            } else {
                p.scope.also_outside_root = Some(o.scope.outside_root.clone());
            }
        }
        "scope.unmodelled_programs" => {
            if take || o.scope.unmodelled_programs == Unmodelled::Deny {
                p.scope.unmodelled_programs = o.scope.unmodelled_programs;
            }
        }
        "scope.run_time" => p.scope.run_time = o.scope.run_time || (both && p.scope.run_time),
        "scope.run_time_writable" => intersect_into(
            &mut p.scope.run_time_writable,
            &o.scope.run_time_writable,
            take,
        ),
        "audit.enabled" => p.audit.enabled = o.audit.enabled || (both && p.audit.enabled),
        "audit.file_claims" => {
            p.audit.file_claims = o.audit.file_claims || (both && p.audit.file_claims)
        }
        "audit.test_claims" => {
            p.audit.test_claims = o.audit.test_claims || (both && p.audit.test_claims)
        }
        "audit.git_claims" => {
            p.audit.git_claims = o.audit.git_claims || (both && p.audit.git_claims)
        }
        "audit.test_commands" => p.audit.test_commands = o.audit.test_commands.clone(),
        "audit.build_commands" => p.audit.build_commands = o.audit.build_commands.clone(),
        "audit.lint_commands" => p.audit.lint_commands = o.audit.lint_commands.clone(),
        "audit.max_blocks" => {
            p.audit.max_blocks = if take {
                o.audit.max_blocks
            } else {
                p.audit.max_blocks.max(o.audit.max_blocks)
            }
        }
        "audit.subagents" => p.audit.subagents = o.audit.subagents || (both && p.audit.subagents),
        "audit.ignore_paths" => {
            intersect_into(&mut p.audit.ignore_paths, &o.audit.ignore_paths, take)
        }
        "audit.test_irrelevant" => {
            intersect_into(&mut p.audit.test_irrelevant, &o.audit.test_irrelevant, take)
        }
        "audit.end_turn_tools" => {
            union_into(&mut p.audit.end_turn_tools, &o.audit.end_turn_tools, take)
        }
        "export.otlp" => p.export.otlp = o.export.otlp || (both && p.export.otlp),
        "export.redact" => union_into(&mut p.export.redact, &o.export.redact, take),
        // Refused when the organisation's file is read.
        "scope.root" => {}
        _ => debug_assert!(false, "no combination for {key} ({rule:?})"),
    }
}

fn union_into(list: &mut Vec<String>, org: &[String], take: bool) {
    if take {
        *list = org.to_vec();
        return;
    }
    for item in org {
        if !list.contains(item) {
            list.push(item.clone());
        }
    }
}

fn intersect_into(list: &mut Vec<String>, org: &[String], take: bool) {
    if take {
        *list = org.to_vec();
    } else {
        list.retain(|item| org.contains(item));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Policy {
        Policy::parse(Path::new("/r/.did-it-actually.json"), text.as_bytes()).unwrap()
    }

    fn layer(text: &str) -> OrgLayer {
        OrgLayer {
            path: PathBuf::from(ORG_POLICY_PATH),
            moved: false,
            own: Box::new(Policy::parse(Path::new(ORG_POLICY_PATH), text.as_bytes()).unwrap()),
            writable: None,
            overrode: Vec::new(),
        }
    }

    #[test]
    fn the_table_names_every_key_of_the_format() {
        // Every second-level key the format accepts, from the example file that documents it.
        let example: serde_json::Value =
            serde_json::from_str(include_str!("../../policy.example.json")).unwrap();
        let mut keys = Vec::new();
        for (section, v) in example.as_object().unwrap() {
            if let Some(obj) = v.as_object() {
                keys.extend(
                    obj.keys()
                        .filter(|k| *k != "//")
                        .map(|k| format!("{section}.{k}")),
                );
            }
        }
        assert!(keys.len() > 20, "{keys:?}");
        for key in &keys {
            assert!(rule_of(key).is_some(), "no combination rule for {key}");
        }
        for (key, _) in RULES {
            assert!(
                keys.iter().any(|k| k == key),
                "{key} is not in policy.example.json"
            );
        }
    }

    #[test]
    fn a_repository_tightens_and_never_loosens() {
        let org = layer(
            r#"{"version": 1,
                "branches": {"protected": ["main", "release/*"], "allow_force_push": false,
                             "deny": {"fetch": false}},
                "scope": {"deny": [".env", "secrets/**"], "unmodelled_programs": "deny",
                          "outside_root": {"allow": ["/tmp/**"]}},
                "audit": {"max_blocks": 5, "test_commands": ["make test"]}}"#,
        );
        let repo = parse(
            r#"{"version": 1,
                "branches": {"protected": ["dev"], "allow_force_push": true,
                             "deny": {"fetch": true, "push": false}, "run_time": false},
                "scope": {"deny": ["vendor/**"], "unmodelled_programs": "allow",
                          "outside_root": {"allow": ["/tmp/**", "/var/tmp/**"]}},
                "audit": {"max_blocks": 2, "test_commands": ["true"]}}"#,
        );
        let p = combine(repo, org);
        assert_eq!(p.branches.protected, ["dev", "main", "release/*"]);
        assert!(p.branches.protects("release/1.0", &[]).is_some());
        assert!(
            !p.branches.allow_force_push,
            "the organisation forbids force pushes"
        );
        // The repository denies fetch on top; it cannot allow push (the organisation left
        // the default, deny, in place by not naming it... but it set `deny`, so its
        // switches hold: push stays denied).
        assert!(p.branches.deny.fetch);
        assert!(p.branches.deny.push);
        assert!(
            !p.branches.run_time,
            "the organisation did not set run_time: the repository's false holds"
        );
        assert_eq!(p.scope.deny, ["vendor/**", ".env", "secrets/**"]);
        assert_eq!(p.scope.unmodelled_programs, Unmodelled::Deny);
        assert_eq!(
            p.scope.also_outside_root.as_deref(),
            Some(&["/tmp/**".to_owned()][..])
        );
        assert_eq!(p.audit.max_blocks, 5);
        assert_eq!(p.audit.test_commands, ["make test"]);
        let o = p.org.as_ref().unwrap();
        assert_eq!(o.overrode, ["audit.test_commands"]);
    }

    #[test]
    fn keys_only_one_level_sets_come_from_that_level() {
        let org = layer(r#"{"version": 1, "branches": {"allowed": ["feat/*"]}}"#);
        let p = combine(parse(r#"{"version": 1}"#), org);
        assert!(p.branches.allows("feat/x"));
        assert!(!p.branches.allows("main"));
        let org = layer(r#"{"version": 1, "branches": {"allowed": ["feat/*", "fix/*"]}}"#);
        let p = combine(
            parse(r#"{"version": 1, "branches": {"allowed": ["fix/*", "main"]}}"#),
            org,
        );
        assert!(p.branches.allows("fix/a"), "both allow it");
        assert!(
            !p.branches.allows("main"),
            "the repository alone cannot allow main"
        );
        assert!(!p.branches.allows("feat/a"), "the repository narrowed it");
    }

    #[test]
    fn reasons_name_the_level_of_their_rule() {
        let org = layer(r#"{"version": 1, "branches": {"protected": ["release/*"]}}"#);
        let p = combine(
            parse(r#"{"version": 1, "branches": {"protected": ["main"]}}"#),
            org,
        );
        assert_eq!(
            p.source_of_rule(r#"branches.protected pattern "release/*""#),
            format!("the organisation policy {ORG_POLICY_PATH}")
        );
        assert_eq!(
            p.source_of_rule(r#"branches.protected pattern "main""#),
            "/r/.did-it-actually.json"
        );
        let org = layer(r#"{"version": 1, "branches": {"allow_force_push": false}}"#);
        let p = combine(parse(r#"{"version": 1}"#), org);
        assert_eq!(
            p.source_of("branches.allow_force_push"),
            format!("the organisation policy {ORG_POLICY_PATH}")
        );
    }

    #[test]
    fn an_organisation_may_not_set_the_root() {
        let dir = std::env::temp_dir().join(format!("dia-org-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("policy.json");
        std::fs::write(&file, "{\"version\": 1,\n \"scope\": {\"root\": \"/srv\"}}").unwrap();
        let env = |k: &str| (k == ORG_POLICY_ENV).then(|| file.clone().into_os_string());
        let err = read(&env).unwrap_err().to_string();
        assert!(
            err.contains(":2:12: an organisation policy may not set scope.root"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
