//! Git configuration as the analysis sees it: `-c` and environment overrides, settings made
//! earlier in the same command, and the keys whose values git runs as commands or reads
//! files from.

use super::*;

/// Configuration layers for one invocation: the command's own (`-c`, `--config-env`,
/// `GIT_CONFIG_*`) first, then what earlier `git config` calls in the command set, then the
/// repository's files.
pub(super) struct Overrides {
    pub(super) pairs: Vec<(String, String)>,
    /// Keys whose command-line value could not be known.
    pub(super) unknown: Vec<String>,
}

/// Canonical form of a config key: section and variable name are case-insensitive,
/// a subsection (the middle part) is not.
pub(super) fn config_key(key: &str) -> String {
    match (key.find('.'), key.rfind('.')) {
        (Some(first), Some(last)) if first != last => format!(
            "{}{}{}",
            key[..first].to_ascii_lowercase(),
            &key[first..last],
            key[last..].to_ascii_lowercase()
        ),
        _ => key.to_ascii_lowercase(),
    }
}

/// `git config` options that read or remove rather than set.
pub(super) const CONFIG_READS: &[&str] = &[
    "--get",
    "--get-all",
    "--get-regexp",
    "--get-urlmatch",
    "--unset",
    "--unset-all",
    "-l",
    "--list",
    "--rename-section",
    "--remove-section",
    "-e",
    "--edit",
];

/// Configuration keys whose value is a command git runs (through the shell): `-c
/// core.fsmonitor='git push …' status` runs a push.
pub(super) fn runs_command(key: &str) -> bool {
    let k = config_key(key);
    const EXACT: &[&str] = &[
        "core.fsmonitor",
        "core.pager",
        "core.editor",
        "core.sshcommand",
        "core.askpass",
        "sequence.editor",
        "diff.external",
        "gpg.program",
        "gpg.ssh.program",
        "credential.helper",
        "uploadpack.packobjectshook",
    ];
    let parts: Vec<&str> = k.split('.').collect();
    EXACT.contains(&k.as_str())
        || parts.first() == Some(&"pager")
        || matches!(
            (parts.first(), parts.last()),
            (Some(&"diff"), Some(&("command" | "textconv")))
                | (Some(&"filter"), Some(&("clean" | "smudge" | "process")))
                | (Some(&"merge"), Some(&"driver"))
                | (Some(&"remote"), Some(&("receivepack" | "uploadpack")))
        )
}

/// What a setting makes git run from files instead of from its value: hooks from a
/// directory, or configuration (which can hold aliases and commands) from a file.
pub(super) fn runs_files(key: &str) -> Option<&'static str> {
    let k = config_key(key);
    let parts: Vec<&str> = k.split('.').collect();
    match (parts.first(), parts.last()) {
        _ if k == "core.hookspath" => Some("the hooks in that directory"),
        (Some(&("include" | "includeif")), Some(&"path")) => Some("the configuration in that file"),
        _ => None,
    }
}

/// Why a key in a repository's own configuration file plants code that the user's own git
/// runs later (a program, hooks from a directory, configuration from a file), or moves
/// git's checks; `None` for everyday keys (`user.email`, `branch.*.remote`, `remote.*.url`).
pub fn plants_code(key: &str, value: &str) -> Option<&'static str> {
    let k = config_key(key);
    let parts: Vec<&str> = k.split('.').collect();
    if let Some(what) = runs_files(&k) {
        return Some(what);
    }
    if runs_command(&k) {
        return Some("a program git runs");
    }
    const MORE: &[&str] = &[
        "core.gitproxy",
        "interactive.difffilter",
        "web.browser",
        "protocol.ext.allow",
        "protocol.allow",
    ];
    let bang = value.trim_start().starts_with('!');
    match (parts.first(), parts.last()) {
        _ if MORE.contains(&k.as_str()) => Some("a program git runs"),
        (Some(&"alias"), _) if bang => Some("a shell command run as a git alias"),
        (Some(&"submodule"), Some(&"update")) if bang => {
            Some("a shell command run by git submodule update")
        }
        (Some(&"credential"), Some(&"helper")) => Some("a credential helper program"),
        (Some(&"gpg"), Some(&"program")) => Some("a signing program"),
        (Some(&("mergetool" | "difftool" | "browser")), Some(&"cmd")) => Some("a program git runs"),
        (Some(&"core"), Some(&"worktree")) => Some("where git works (moves every check)"),
        _ => None,
    }
}

/// Environment variables whose value is a command git (or ssh, or a pager) runs.
pub(super) const COMMAND_VARIABLES: &[&str] = &[
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "EDITOR",
    "VISUAL",
    "GIT_PAGER",
    "PAGER",
    "GIT_EXTERNAL_DIFF",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_PROXY_COMMAND",
];

/// The script a command-holding setting runs, if `key` is one.
pub(super) fn command_setting(key: &str, value: &str, cwd: Option<PathBuf>) -> Option<Effect> {
    if let Some(what) = runs_files(key) {
        let off = matches!(value, "" | "/dev/null");
        return (!off).then(|| {
            Effect::Unresolvable(format!(
                "`{key}` makes later git commands run {what} (`{}`), which the guard cannot read",
                value.trim_start_matches(DYNAMIC)
            ))
        });
    }
    if !runs_command(key) {
        return None;
    }
    if is_dynamic(value) {
        return Some(Effect::Unresolvable(format!(
            "the command in `{key}` is only known when it runs"
        )));
    }
    let text = value.strip_prefix('!').unwrap_or(value);
    Some(Effect::Script {
        text: text.to_owned(),
        cwd,
    })
}

/// `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n` and `GIT_CONFIG_PARAMETERS`.
pub(super) fn config_from_env(env: &dyn Fn(&str) -> Option<Option<String>>, ov: &mut Overrides) {
    if let Some(count) = env("GIT_CONFIG_COUNT") {
        let n: usize = count.and_then(|c| c.parse().ok()).unwrap_or(0);
        for i in 0..n.min(100) {
            match (
                env(&format!("GIT_CONFIG_KEY_{i}")).flatten(),
                env(&format!("GIT_CONFIG_VALUE_{i}")),
            ) {
                (Some(k), Some(Some(v))) => ov.pairs.push((k, v)),
                (Some(k), _) => ov.unknown.push(k),
                _ => {}
            }
        }
    }
    if let Some(Some(params)) = env("GIT_CONFIG_PARAMETERS") {
        for item in shlex::split(&params).unwrap_or_default() {
            match item.split_once('=') {
                Some((k, v)) => ov.pairs.push((k.to_owned(), v.to_owned())),
                None => ov.pairs.push((item, "true".into())),
            }
        }
    }
}

impl Analyzer<'_> {
    pub(super) fn lookup(
        &mut self,
        ov: &Overrides,
        repo: Option<usize>,
        key: &str,
    ) -> Option<String> {
        let k = config_key(key);
        if let Some((_, v)) = ov.pairs.iter().rev().find(|(n, _)| config_key(n) == k) {
            return Some(v.clone());
        }
        if let Some((_, v)) = self
            .config_set
            .iter()
            .rev()
            .find(|(n, _)| config_key(n) == k)
        {
            return Some(v.clone());
        }
        match repo {
            Some(idx) => self.opened[idx].config_str(key),
            None => git2::Config::open_default()
                .ok()?
                .snapshot()
                .ok()?
                .get_string(key)
                .ok(),
        }
    }

    /// `git config KEY VALUE` (also `set`, `--add`): later parts of the command see the
    /// value. A key that holds a command makes that command a script to analyze.
    pub(super) fn config(&mut self, rest: &[String], top: Option<PathBuf>) -> Vec<Effect> {
        let mut positionals = Vec::new();
        let mut k = 0;
        while let Some(a) = rest.get(k) {
            k += 1;
            match a.as_str() {
                "-f" | "--file" | "--blob" | "--type" | "--default" | "--comment" | "--value" => {
                    k += 1
                }
                s if s.starts_with('-') => {
                    if CONFIG_READS.contains(&s) {
                        return Vec::new();
                    }
                }
                _ => positionals.push(a.clone()),
            }
        }
        if positionals.first().map(String::as_str) == Some("set") {
            positionals.remove(0);
        }
        let [key, value] = positionals.as_slice() else {
            return Vec::new();
        };
        if is_dynamic(key) {
            return vec![Effect::Unresolvable(format!(
                "`git config {}` sets a key only known when it runs",
                &key[1..]
            ))];
        }
        self.config_set.push((key.clone(), value.clone()));
        if runs_files(key).is_some() {
            // Setting it is harmless (`git config core.hooksPath .husky`); a later git
            // command in the same command that would run those files is not (see
            // `files_set_here`).
            return Vec::new();
        }
        command_setting(key, value, top).into_iter().collect()
    }

    /// A setting made earlier in this command that makes git run hooks or read config
    /// from files, as the reason a later git command cannot be read.
    pub(super) fn files_set_here(&self) -> Option<String> {
        self.config_set.iter().find_map(|(key, value)| {
            let what = runs_files(key)?;
            (!matches!(value.as_str(), "" | "/dev/null")).then(|| {
                format!(
                    "`{key}` {} runs {what} (`{}`), which the guard cannot read",
                    SET_EARLIER,
                    value.trim_start_matches(DYNAMIC)
                )
            })
        })
    }

    /// Records an upstream (`branch -u`, `checkout -b x --track r/b`) for later
    /// `push.default=upstream` resolution.
    pub(super) fn set_upstream(&mut self, idx: usize, branch: &str, upstream: &str) {
        let remotes = self.opened[idx].remote_names();
        let (remote, merge) = match remotes
            .iter()
            .find(|r| upstream.starts_with(&format!("{r}/")))
        {
            Some(r) => (r.clone(), upstream[r.len() + 1..].to_owned()),
            None => (".".to_owned(), upstream.to_owned()),
        };
        self.config_set
            .push((format!("branch.{branch}.remote"), remote));
        self.config_set.push((
            format!("branch.{branch}.merge"),
            format!("refs/heads/{merge}"),
        ));
    }

    /// The branch `branch` pushes to under push.default=upstream (its `merge` ref). A key
    /// set both in the repository and with `-c` has several values, and git refuses.
    pub(super) fn upstream_of(
        &mut self,
        ov: &Overrides,
        idx: usize,
        branch: &str,
    ) -> Option<String> {
        let key = format!("branch.{branch}.merge");
        let same = |(k, _): &&(String, String)| config_key(k) == config_key(&key);
        // `git config key value` earlier in the command replaces the file's value; `-c`
        // adds one.
        let mut values = match self.config_set.iter().rev().find(same) {
            Some((_, v)) => vec![v.clone()],
            None => self.opened[idx].config_all(&key),
        };
        values.extend(ov.pairs.iter().filter(same).map(|(_, v)| v.clone()));
        values.dedup();
        match values.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }
}

/// The words after the key in the reason a setting made earlier in the command gives.
const SET_EARLIER: &str = "was set earlier in this command, so this git command";
