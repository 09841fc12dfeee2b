//! How the run-time layer is switched on for the agent's commands, and only for them.
//!
//! Git reads `core.hooksPath` from the environment of each git process. The agent's host
//! puts the variables below into the environment of every command the agent runs (Claude
//! Code: the `env` of its settings), so every git the agent starts, through any script,
//! build recipe or interpreter, runs our `reference-transaction` and `pre-push` hooks; the
//! user's own terminal never has them. Three channels, because each can be lost on its
//! own:
//!
//! - `GIT_CONFIG_PARAMETERS` (what `git -c` adds to): a command that sets
//!   `GIT_CONFIG_COUNT` for its own keys does not touch it.
//! - `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_0` / `GIT_CONFIG_VALUE_0`: a command that sets
//!   `GIT_CONFIG_PARAMETERS` itself does not touch these.
//! - `GIT_CONFIG_SYSTEM` naming a file that includes the real system configuration and
//!   sets the hooks path: git removes the first two from the programs it starts on the
//!   other side of a local transport (`receive-pack` of a push to a path, `upload-pack`
//!   of a clone), not this one, so a push to a local remote with `--no-verify` still
//!   meets the remote's `reference-transaction`. It is the lowest scope: a repository's
//!   own `core.hooksPath` (husky) wins over it, which the first two channels beat.
//!
//! The hooks directory holds one script per git hook: ours decide, every other one (and
//! ours after deciding) hands over to the repository's own hook, found where git would
//! have found it without us. Each script present is a process per event (about a
//! millisecond of git's time whatever it does), so a project's directory holds only ours
//! and the names the repository and its local remotes have hooks of their own for
//! ([`HookSet::Needed`]), brought up to date as the repository gains or loses hooks
//! ([`Layout::sync`]: before each command of an agent whose host runs our hooks, and at
//! each install); `run` and user-wide installs, which nothing brings up to date, keep
//! every name ([`HookSet::All`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The hooks git runs that the run-time layer decides in.
pub const GUARDED: [&str; 2] = ["reference-transaction", "pre-push"];

/// Every hook name git 2.47 looks up in the hooks directory that a script of ours can
/// hand over to unchanged. Left out, because a hook's mere presence changes what git does
/// and no stand-in can do git's default: `push-to-checkout` (it replaces the work tree
/// update), `proc-receive` (it speaks a protocol). `fsmonitor-watchman` is named by
/// `core.fsmonitor`, not looked up here.
pub const HOOK_NAMES: [&str; 25] = [
    "applypatch-msg",
    "pre-applypatch",
    "post-applypatch",
    "pre-commit",
    "pre-merge-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-rebase",
    "post-checkout",
    "post-merge",
    "pre-push",
    "pre-receive",
    "update",
    "post-receive",
    "post-update",
    "reference-transaction",
    "pre-auto-gc",
    "post-rewrite",
    "sendemail-validate",
    "p4-changelist",
    "p4-prepare-changelist",
    "p4-post-changelist",
    "p4-pre-submit",
    "post-index-change",
];

/// Which hook names a layout's directory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HookSet {
    /// Every name of [`HOOK_NAMES`]: whatever hook a repository gains, it runs.
    All,
    /// Ours and the names the project's repository and its local remotes have hooks of
    /// their own for, as [`Layout::sync`] last saw them.
    Needed,
}

/// The names of [`HOOK_NAMES`] the repository at `project`, or one of its local remotes,
/// has an executable hook of its own for, where git would find it without us: with ours
/// ([`GUARDED`]), the names a [`HookSet::Needed`] directory holds. `ours`: the layout's
/// hooks directory, never the repository's own.
pub fn own_hook_names(
    project: &Path,
    ours: &Path,
    env: &dyn Fn(&str) -> Option<OsString>,
) -> Vec<&'static str> {
    // A repository that cannot be read may have any hook: every name, so none is skipped.
    let Some(own) = super::hook::own_hooks_dir(project, ours, env) else {
        return HOOK_NAMES.to_vec();
    };
    let mut dirs: Vec<PathBuf> = vec![own];
    for remote in super::confine::local_remote_git_dirs(project) {
        match super::hook::own_hooks_dir(&remote, ours, env) {
            Some(d) => dirs.push(d),
            None => return HOOK_NAMES.to_vec(),
        }
    }
    HOOK_NAMES
        .iter()
        .copied()
        .filter(|n| dirs.iter().any(|d| is_executable(&d.join(n))))
        .collect()
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// What [`Layout::write`] was given, kept beside the scripts so that [`Layout::sync`]
/// writes the same ones.
#[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Inputs {
    binary: String,
    system_config: Option<PathBuf>,
    project: Option<PathBuf>,
    hooks: HookSet,
}

/// The second line of every hook script of ours, by which it is recognised.
pub const MARKER: &str = "# did-it-actually run-time layer";

/// The variable that names our hooks directory: the static layer reads it to know that
/// the run-time layer is active, and the hooks to know their own directory.
pub const HOOKS_ENV: &str = "DID_IT_ACTUALLY_GIT_HOOKS";
/// The project whose policy the hooks apply (the static layer applies the same one).
pub const PROJECT_ENV: &str = "DID_IT_ACTUALLY_PROJECT";
/// Claude Code's shell prefix: every command of its Bash tool runs as `PREFIX COMMAND`.
/// The run-time layer for writes puts [`CONFINE_LINK`] there.
pub const SHELL_PREFIX_ENV: &str = "CLAUDE_CODE_SHELL_PREFIX";
/// The name of the script that runs `confine` (a shell prefix is one program, without
/// arguments of its own).
pub const CONFINE_LINK: &str = "did-it-actually-confine";

/// Where one install's run-time files live: `<state root>/git/<project>-<hash>/` for a
/// project (`hooks/`, `config`), `<state root>/git/user/` for a user-wide install. One
/// directory per install, so an uninstall takes away exactly its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub root: PathBuf,
}

impl Layout {
    pub fn new(
        env: impl Fn(&str) -> Option<OsString>,
        project: Option<&Path>,
    ) -> Result<Layout, String> {
        let state = crate::store::state_root(env).map_err(|e| e.to_string())?;
        let key = match project {
            None => "user".to_owned(),
            Some(p) => crate::fsutil::path_key(p),
        };
        Ok(Layout {
            root: state.join("git").join(key),
        })
    }

    /// `did-it-actually run`'s own, for `project`: `<state root>/git/run-<project>-<hash>/`.
    pub fn for_run(
        env: impl Fn(&str) -> Option<OsString>,
        project: &Path,
    ) -> Result<Layout, String> {
        let state = crate::store::state_root(env).map_err(|e| e.to_string())?;
        Ok(Layout {
            root: state
                .join("git")
                .join(format!("run-{}", crate::fsutil::path_key(project))),
        })
    }

    pub fn hooks_dir(&self) -> PathBuf {
        self.root.join("hooks")
    }

    /// The system-scope configuration the agent's git reads instead of the machine's
    /// (which it includes).
    pub fn config_file(&self) -> PathBuf {
        self.root.join("config")
    }

    /// The same configuration without the machine's system configuration: for an agent
    /// whose user runs git with `GIT_CONFIG_NOSYSTEM` (which would also take this file,
    /// the far side's channel, away): `run` gives it this file and `GIT_CONFIG_NOSYSTEM=0`.
    pub fn config_file_without_system(&self) -> PathBuf {
        self.root.join("config-nosystem")
    }

    /// The variables that switch the layer on, for the host's environment settings.
    /// `project`: the project whose policy applies; `None` for a user-wide install, where
    /// each repository's own policy applies.
    pub fn env_vars(&self, project: Option<&Path>) -> Vec<(&'static str, String)> {
        let hooks = self.hooks_dir().to_string_lossy().into_owned();
        let mut vars = vec![
            (
                "GIT_CONFIG_PARAMETERS",
                format!("'core.hooksPath'={}", sq_quote(&hooks)),
            ),
            ("GIT_CONFIG_COUNT", "1".to_owned()),
            ("GIT_CONFIG_KEY_0", "core.hooksPath".to_owned()),
            ("GIT_CONFIG_VALUE_0", hooks.clone()),
            (
                "GIT_CONFIG_SYSTEM",
                self.config_file().to_string_lossy().into_owned(),
            ),
            (HOOKS_ENV, hooks),
        ];
        if let Some(p) = project {
            vars.push((PROJECT_ENV, p.to_string_lossy().into_owned()));
        }
        vars
    }

    /// Writes the hooks directory (one script per hook, running `binary`) and the
    /// system-scope configuration that includes `system_config`. Idempotent.
    /// The lines every script of ours starts with: the state directory and the project
    /// this install guards, fixed here and not read from the environment, which a command
    /// of the agent can change for the programs it starts (`DID_IT_ACTUALLY_STATE_DIR=/tmp/x
    /// git push`); and `$DID_IT_ACTUALLY_POLICY` and `$DID_IT_ACTUALLY_ORG_POLICY` taken
    /// away (the guards apply the approved policy and the deployed organisation policy
    /// only, see [`crate::approval`] and [`crate::policy::org`]).
    pub fn pins(&self, project: Option<&Path>) -> String {
        let quote = |p: &Path| {
            shlex::try_quote(&p.to_string_lossy())
                .map(|q| q.into_owned())
                .unwrap_or_else(|_| "''".into())
        };
        // `<state>/git/<key>`: the state root is two levels up.
        let state = self
            .root
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new("/"));
        // The organisation's policy is read from where it is deployed: a command of the
        // agent naming another file for git must not trade it for a looser one.
        let mut out = format!(
            "DID_IT_ACTUALLY_STATE_DIR={}
export DID_IT_ACTUALLY_STATE_DIR
unset {} {}
",
            quote(state),
            crate::policy::POLICY_ENV,
            crate::policy::org::ORG_POLICY_ENV
        );
        if let Some(p) = project {
            out.push_str(&format!(
                "{PROJECT_ENV}={}
export {PROJECT_ENV}
",
                quote(p)
            ));
        }
        out
    }

    pub fn write(
        &self,
        binary: &str,
        system_config: Option<&Path>,
        project: Option<&Path>,
        hooks: HookSet,
        env: &dyn Fn(&str) -> Option<OsString>,
    ) -> Result<(), String> {
        let dir = self.hooks_dir();
        std::fs::create_dir_all(&dir).map_err(|e| {
            format!(
                "cannot create {}: {}",
                dir.display(),
                crate::fsutil::describe_io(&e)
            )
        })?;
        let inputs = Inputs {
            binary: binary.to_owned(),
            system_config: system_config.map(Path::to_path_buf),
            project: project.map(Path::to_path_buf),
            hooks,
        };
        self.write_scripts(&inputs, env)?;
        let text = serde_json::to_string(&inputs).unwrap_or_default();
        crate::fsutil::write_atomically(&self.inputs_file(), text.as_bytes()).map_err(|e| {
            format!(
                "cannot write {}: {}",
                self.inputs_file().display(),
                crate::fsutil::describe_io(&e)
            )
        })?;
        for (file, system) in [
            (self.config_file(), system_config),
            (self.config_file_without_system(), None),
        ] {
            let config = config_text(&dir, system);
            crate::fsutil::write_atomically(&file, config.as_bytes()).map_err(|e| {
                format!(
                    "cannot write {}: {}",
                    file.display(),
                    crate::fsutil::describe_io(&e)
                )
            })?;
        }
        Ok(())
    }

    fn inputs_file(&self) -> PathBuf {
        self.root.join("inputs.json")
    }

    /// The names `inputs` wants, each written; a script of ours for any other name
    /// removed. Whether anything changed.
    fn write_scripts(
        &self,
        inputs: &Inputs,
        env: &dyn Fn(&str) -> Option<OsString>,
    ) -> Result<bool, String> {
        let dir = self.hooks_dir();
        // Which names, and which of them a repository has a hook of its own for (ours
        // hand over to it; where there is none, they end without looking for one).
        let (names, own): (Vec<&str>, Vec<&str>) = match (inputs.hooks, &inputs.project) {
            (HookSet::Needed, Some(project)) => {
                let own = own_hook_names(project, &dir, env);
                let names = HOOK_NAMES
                    .iter()
                    .copied()
                    .filter(|n| GUARDED.contains(n) || own.contains(n))
                    .collect();
                (names, own)
            }
            _ => (HOOK_NAMES.to_vec(), HOOK_NAMES.to_vec()),
        };
        let pins = self.pins(inputs.project.as_deref());
        let mut changed = false;
        for name in HOOK_NAMES {
            let path = dir.join(name);
            if names.contains(&name) {
                let text = script(
                    &inputs.binary,
                    name,
                    inputs.system_config.as_deref(),
                    &pins,
                    own.contains(&name),
                );
                changed |= write_executable(&path, &text)?;
            } else {
                changed |= remove_if_ours(&path)?;
            }
        }
        Ok(changed)
    }

    /// Brings a [`HookSet::Needed`] directory up to date with the hooks the repository
    /// and its local remotes have now (a hook manager installed since, a hook removed),
    /// or, with `every_name` (the next command may add a hook as it runs), gives it every
    /// name until the next sync. Whether anything changed; nothing to do for the other
    /// layouts.
    pub fn sync(
        &self,
        every_name: bool,
        env: &dyn Fn(&str) -> Option<OsString>,
    ) -> Result<bool, String> {
        let Ok(text) = std::fs::read_to_string(self.inputs_file()) else {
            return Ok(false);
        };
        let inputs: Inputs = serde_json::from_str(&text)
            .map_err(|e| format!("{} cannot be read: {e}", self.inputs_file().display()))?;
        if inputs.hooks != HookSet::Needed {
            return Ok(false);
        }
        if every_name {
            let all = Inputs {
                hooks: HookSet::All,
                ..inputs
            };
            return self.write_scripts(&all, env);
        }
        self.write_scripts(&inputs, env)
    }

    /// Removes what [`Layout::write`] wrote (only scripts of ours).
    /// The script the agent's shell tool runs each command through.
    pub fn confine_link(&self) -> PathBuf {
        self.root.join(CONFINE_LINK)
    }

    /// Writes [`Layout::confine_link`]: a script that runs `binary confine`, or, where the
    /// binary is gone, refuses the command and says what to install (a host runs a shell
    /// prefix as one program, without arguments of its own). Idempotent.
    pub fn write_confine_link(&self, binary: &str, project: Option<&Path>) -> Result<(), String> {
        write_executable(
            &self.confine_link(),
            &confine_script(binary, &self.pins(project)),
        )
        .map(|_| ())
    }

    /// The binary the confine script runs, if it is ours.
    pub fn confine_binary(&self) -> Option<PathBuf> {
        let text = std::fs::read_to_string(self.confine_link()).ok()?;
        is_ours(&text).then_some(())?;
        let line = text.lines().find_map(|l| l.strip_prefix("bin="))?;
        shlex::split(line)?.into_iter().next().map(PathBuf::from)
    }

    pub fn remove(&self) -> Result<bool, String> {
        let dir = self.hooks_dir();
        let mut removed = false;
        if std::fs::read_to_string(self.confine_link()).is_ok_and(|t| is_ours(&t)) {
            let _ = std::fs::remove_file(self.confine_link());
            removed = true;
        }
        for name in HOOK_NAMES {
            removed |= remove_if_ours(&dir.join(name))?;
        }
        let _ = std::fs::remove_dir(&dir);
        let _ = std::fs::remove_file(self.inputs_file());
        for file in [self.config_file(), self.config_file_without_system()] {
            if std::fs::read_to_string(&file).is_ok_and(|t| t.contains(MARKER)) {
                let _ = std::fs::remove_file(&file);
                removed = true;
            }
        }
        let _ = std::fs::remove_dir(&self.root);
        Ok(removed)
    }

    /// Whether every script is in place and ours.
    pub fn intact(&self) -> Result<(), String> {
        let dir = self.hooks_dir();
        for name in HOOK_NAMES {
            let path = dir.join(name);
            match std::fs::read_to_string(&path) {
                Ok(t) if is_ours(&t) => {}
                Ok(_) => return Err(format!("{} is not a did-it-actually hook", path.display())),
                // Only ours must be there (a project's directory holds the names its
                // repository has hooks for).
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && !GUARDED.contains(&name) => {}
                Err(e) => {
                    return Err(format!(
                        "{} cannot be read ({})",
                        path.display(),
                        crate::fsutil::describe_io(&e)
                    ))
                }
            }
        }
        Ok(())
    }
}

/// Removes the hook script at `path` if it is one of ours (never a file of anyone else's);
/// whether it did.
fn remove_if_ours(path: &Path) -> Result<bool, String> {
    if !std::fs::read_to_string(path).is_ok_and(|t| is_ours(&t)) {
        return Ok(false);
    }
    std::fs::remove_file(path).map(|()| true).map_err(|e| {
        format!(
            "cannot remove {}: {}",
            path.display(),
            crate::fsutil::describe_io(&e)
        )
    })
}

/// Writes `text` as an executable at `path`; whether it was not already so.
fn write_executable(path: &Path, text: &str) -> Result<bool, String> {
    use std::os::unix::fs::PermissionsExt;
    if std::fs::read_to_string(path).is_ok_and(|t| t == text) {
        return Ok(false);
    }
    crate::fsutil::write_atomically(path, text.as_bytes())
        .and_then(|()| std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)))
        .map(|()| true)
        .map_err(|e| {
            format!(
                "cannot write {}: {}",
                path.display(),
                crate::fsutil::describe_io(&e)
            )
        })
}

/// Puts the variables into a settings file's `env` (Claude Code gives them to every
/// command the agent runs, and to its hooks), keeping every other variable.
pub fn merge_env(
    settings: &mut serde_json::Map<String, serde_json::Value>,
    vars: &[(&'static str, String)],
) -> Result<(), String> {
    let env = settings
        .entry("env")
        .or_insert_with(|| serde_json::Value::Object(Default::default()));
    let Some(env) = env.as_object_mut() else {
        return Err("its \"env\" is not an object".into());
    };
    for (k, v) in vars {
        if let Some(existing) = env.get(*k).and_then(|e| e.as_str()) {
            let (ours, switch) = if *k == SHELL_PREFIX_ENV {
                (
                    existing.ends_with(&format!("/{CONFINE_LINK}")),
                    "scope.run_time",
                )
            } else {
                (env.contains_key(HOOKS_ENV), "branches.run_time")
            };
            if existing != v && !ours {
                return Err(format!(
                    "its env already sets {k} ({existing:?}), which the run-time layer needs; remove it, or set {switch} to false in the policy"
                ));
            }
        }
    }
    for (k, v) in vars {
        env.insert((*k).to_owned(), serde_json::Value::String(v.clone()));
    }
    Ok(())
}

/// Takes the run-time layer's variables out of a settings file's `env` (only when it is
/// ours: the marker variable is there), and `env` itself when nothing else is left.
pub fn remove_env(
    settings: &mut serde_json::Map<String, serde_json::Value>,
    branches: bool,
    writes: bool,
) {
    let Some(env) = settings.get_mut("env").and_then(|e| e.as_object_mut()) else {
        return;
    };
    let prefix_ours = env
        .get(SHELL_PREFIX_ENV)
        .and_then(|v| v.as_str())
        .is_some_and(|v| v.ends_with(&format!("/{CONFINE_LINK}")));
    if writes && prefix_ours {
        env.remove(SHELL_PREFIX_ENV);
    }
    if branches && env.contains_key(HOOKS_ENV) {
        for k in ENV_NAMES.iter().filter(|k| **k != PROJECT_ENV) {
            env.remove(*k);
        }
    }
    // The project is named for either layer: it goes with the last of them.
    if !env.contains_key(HOOKS_ENV) && !env.contains_key(SHELL_PREFIX_ENV) {
        env.remove(PROJECT_ENV);
    }
    if env.is_empty() {
        settings.remove("env");
    }
}

/// Every variable [`Layout::env_vars`] can set.
pub const ENV_NAMES: [&str; 7] = [
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_KEY_0",
    "GIT_CONFIG_VALUE_0",
    "GIT_CONFIG_SYSTEM",
    HOOKS_ENV,
    PROJECT_ENV,
];

/// Whether a hook script is one of ours.
pub fn is_ours(text: &str) -> bool {
    text.lines().nth(1).is_some_and(|l| l.starts_with(MARKER))
}

/// The script git runs for hook `name`. Most hook runs need no decision: every hook but
/// ours, `reference-transaction` in any state but `prepared`, and a prepared transaction
/// that names no branch (HEAD, `AUTO_MERGE`, remote-tracking refs). For those, in a plain
/// repository (`.git` a directory here, no `GIT_DIR`) whose configuration files name no
/// hooks path and include nothing (either could move the repository's own hooks), the
/// script hands over to `.git/hooks/<name>` itself, with shell builtins only: a commit
/// then starts our binary once, for the branch it moves. Everything else goes to the
/// binary ([`crate::runtime::hook`]); where the binary is gone, the script refuses and
/// says what to install (git stops before the change, or the push).
///
/// `has_own` false: no repository this layout serves has a hook of its own by this
/// name (a [`HookSet::Needed`] directory, brought up to date before each command), so
/// `reference-transaction` ends at once where it decides nothing, without looking for one
/// (four of a commit's five runs).
pub fn script(
    binary: &str,
    name: &str,
    system_config: Option<&Path>,
    pins: &str,
    has_own: bool,
) -> String {
    let quote = |s: &str| {
        shlex::try_quote(s)
            .map(|q| q.into_owned())
            .unwrap_or_else(|_| "''".into())
    };
    let bin = quote(binary);
    let sysconf = quote(&system_config.map_or(String::new(), |p| p.to_string_lossy().into_owned()));
    let missing = format!(
        r#"echo "did-it-actually: git's {name} hook cannot run: $bin is missing, so the agent's git refuses (the run-time branch guard fails closed). Install did-it-actually again (install/install.sh), then run: did-it-actually doctor" >&2
exit 1"#
    );
    let own = format!(
        r#"own=
if [ -z "${{GIT_DIR-}}" ] && [ -d .git ]; then
  own=.git/hooks/{name}
  for f in .git/config .git/config.worktree "${{GIT_CONFIG_GLOBAL:-$HOME/.gitconfig}}" "${{XDG_CONFIG_HOME:-$HOME/.config}}/git/config" {sysconf}; do
    [ -f "$f" ] || continue
    while IFS= read -r l || [ -n "$l" ]; do
      case $l in *[hH][oO][oO][kK][sS][pP][aA][tT][hH]*|*[iI][nN][cC][lL][uU][dD][eE]*) own=; break 2 ;; esac
    done < "$f"
  done
fi"#
    );
    let hand_over = r#"if [ -n "$own" ]; then
  if [ -f "$own" ] && [ -x "$own" ]; then exec "$own" "$@"; fi
  exit 0
fi"#;
    let to_binary = format!(r#"if [ -x "$bin" ]; then exec "$bin" git-hook {name} "$@"; fi"#);
    let body = match name {
        "pre-push" => format!("{to_binary}\n{missing}"),
        "reference-transaction" if !has_own => format!(
            r#"[ "${{1-}}" = prepared ] || exit 0
input= branch=
while IFS= read -r l; do
  input="$input$l
"
  case $l in *" refs/heads/"*) branch=1 ;; esac
done
[ -n "$branch" ] || exit 0
if [ -x "$bin" ]; then printf '%s' "$input" | "$bin" git-hook --no-own {name} "$@"; exit $?; fi
{missing}"#
        ),
        "reference-transaction" => format!(
            r#"{own}
if [ "${{1-}}" != prepared ]; then
{hand_over}
{to_binary}
{missing}
fi
input= branch=
while IFS= read -r l; do
  input="$input$l
"
  case $l in *" refs/heads/"*) branch=1 ;; esac
done
if [ -z "$branch" ] && [ -n "$own" ]; then
  if [ -f "$own" ] && [ -x "$own" ]; then printf '%s' "$input" | "$own" "$@"; exit $?; fi
  exit 0
fi
if [ -x "$bin" ]; then printf '%s' "$input" | "$bin" git-hook {name} "$@"; exit $?; fi
{missing}"#
        ),
        _ => format!("{own}\n{hand_over}\n{to_binary}\n{missing}"),
    };
    format!(
        "#!/bin/sh\n{MARKER}: git's {name} hook for the agent's commands (written by `did-it-actually install`).\nbin={bin}\n{pins}{body}\n"
    )
}

/// The shell prefix of the agent's shell tool: `binary confine COMMAND`, failing closed
/// with what to install where the binary is gone.
pub fn confine_script(binary: &str, pins: &str) -> String {
    let bin = shlex::try_quote(binary)
        .map(|q| q.into_owned())
        .unwrap_or_else(|_| "''".into());
    format!(
        r#"#!/bin/sh
{MARKER}: the shell prefix every command of the agent's shell tool runs through (written by `did-it-actually install`).
bin={bin}
{pins}if [ -x "$bin" ]; then exec "$bin" confine "$@"; fi
echo "did-it-actually: this command did not run: the agent's commands run through $bin, which is missing (the run-time layer for writes fails closed). Install did-it-actually again (install/install.sh), then run: did-it-actually doctor" >&2
exit 126
"#
    )
}

fn config_text(hooks: &Path, system_config: Option<&Path>) -> String {
    let mut out = format!(
        "{MARKER}: the system-scope git configuration of the agent's commands (GIT_CONFIG_SYSTEM).\n"
    );
    if let Some(sys) = system_config {
        out.push_str(&format!(
            "[include]\n\tpath = {}\n",
            git_config_quote(&sys.to_string_lossy())
        ));
    }
    out.push_str(&format!(
        "[core]\n\thooksPath = {}\n",
        git_config_quote(&hooks.to_string_lossy())
    ));
    out
}

/// Git's config-file quoting: a value in double quotes, with `\` and `"` escaped.
fn git_config_quote(value: &str) -> String {
    format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Git's `sq_quote` (what `GIT_CONFIG_PARAMETERS` holds): single quotes, a `'` as `'\''`.
fn sq_quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', "'\\''"))
}

/// What the static layer knows of the run-time layer, from its own environment (the
/// host gives its hooks the same variables as the agent's commands).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Every git the agent starts runs the hooks in this directory.
    Active { hooks: PathBuf },
    /// Not active, and why (for `explain`, `status` and `doctor`).
    Inactive(String),
}

impl Activation {
    pub fn is_active(&self) -> bool {
        matches!(self, Activation::Active { .. })
    }
}

/// Reads the activation from `env`: the marker variable, the hooks path in git's
/// command-scope configuration, and the scripts in place.
pub fn activation(env: &dyn Fn(&str) -> Option<OsString>) -> Activation {
    let Some(hooks) = env(HOOKS_ENV).filter(|v| !v.is_empty()).map(PathBuf::from) else {
        return Activation::Inactive(format!(
            "the agent's environment does not have {HOOKS_ENV} (install registers it)"
        ));
    };
    let params = env("GIT_CONFIG_PARAMETERS").unwrap_or_default();
    if !params.to_string_lossy().contains(&*hooks.to_string_lossy()) {
        return Activation::Inactive(
            "GIT_CONFIG_PARAMETERS does not name the run-time hooks, so git would not run them"
                .into(),
        );
    }
    let layout = Layout {
        root: hooks.parent().map(Path::to_owned).unwrap_or_default(),
    };
    if layout.hooks_dir() != hooks {
        return Activation::Inactive(format!(
            "{} is not a did-it-actually hooks directory",
            hooks.display()
        ));
    }
    match layout.intact() {
        Ok(()) => Activation::Active { hooks },
        Err(e) => Activation::Inactive(format!("the run-time hooks are broken: {e}")),
    }
}

/// The environment the agent's commands get: `env`, with the `env` of the Claude Code
/// settings that apply to `dir` on top (the user's, the project's, the project's personal
/// file, in Claude Code's order). For commands a person runs (`explain`, `status`,
/// `doctor`) to answer as the agent's hooks would.
pub fn agent_env<'e>(
    dir: &Path,
    env: &'e dyn Fn(&str) -> Option<OsString>,
) -> impl Fn(&str) -> Option<OsString> + 'e {
    let mut files = Vec::new();
    if let Some(home) = env("HOME").filter(|h| !h.is_empty()) {
        files.push(PathBuf::from(home).join(".claude/settings.json"));
    }
    let project = crate::policy::repo_root(dir).unwrap_or_else(|| dir.to_owned());
    files.push(project.join(".claude/settings.json"));
    files.push(project.join(".claude/settings.local.json"));
    let mut vars: Vec<(String, String)> = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let Ok(serde_json::Value::Object(settings)) = serde_json::from_str(&text) else {
            continue;
        };
        if let Some(serde_json::Value::Object(e)) = settings.get("env") {
            for (k, v) in e {
                if let Some(v) = v.as_str() {
                    vars.retain(|(n, _)| n != k);
                    vars.push((k.clone(), v.to_owned()));
                }
            }
        }
    }
    move |name: &str| {
        vars.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| OsString::from(v))
            .or_else(|| env(name))
    }
}

/// The system configuration git reads when `GIT_CONFIG_SYSTEM` is not set, asked of the
/// `git` on PATH (`git var GIT_CONFIG_SYSTEM`, git 2.42 and later), else `/etc/gitconfig`.
pub fn system_config(env: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let mut cmd = std::process::Command::new("git");
    cmd.args(["var", "GIT_CONFIG_SYSTEM"])
        .env_remove("GIT_CONFIG_SYSTEM")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if let Some(path) = env("PATH") {
        cmd.env("PATH", path);
    }
    let asked = cmd
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty());
    Some(PathBuf::from(
        asked.unwrap_or_else(|| "/etc/gitconfig".into()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pins_take_both_policy_variables_away() {
        let layout = Layout {
            root: PathBuf::from("/s/git/p-1"),
        };
        let pins = layout.pins(Some(Path::new("/w/p")));
        assert!(
            pins.contains("unset DID_IT_ACTUALLY_POLICY DID_IT_ACTUALLY_ORG_POLICY\n"),
            "{pins}"
        );
        assert!(pins.contains("DID_IT_ACTUALLY_STATE_DIR=/s\n"), "{pins}");
    }

    #[test]
    fn the_scripts_name_their_hook_and_refuse_without_the_binary() {
        for name in HOOK_NAMES {
            for hand_over in [true, false] {
                let s = script("/opt/dia bin/did-it-actually", name, None, "", hand_over);
                assert!(is_ours(&s), "{s}");
                assert!(s.contains("bin='/opt/dia bin/did-it-actually'"), "{s}");
                let call = if hand_over || name != "reference-transaction" {
                    format!("git-hook {name} \"$@\"")
                } else {
                    format!("git-hook --no-own {name} \"$@\"")
                };
                assert!(s.contains(&call), "{s}");
                assert!(s.ends_with("exit 1\n"), "{s}");
            }
        }
    }

    #[test]
    fn the_variables_quote_as_git_reads_them() {
        let l = Layout {
            root: PathBuf::from("/s/it's/git"),
        };
        let vars = l.env_vars(Some(Path::new("/p")));
        assert_eq!(
            vars[0],
            (
                "GIT_CONFIG_PARAMETERS",
                "'core.hooksPath'='/s/it'\\''s/git/hooks'".to_owned()
            )
        );
        assert!(vars.contains(&(PROJECT_ENV, "/p".to_owned())));
        assert_eq!(
            config_text(Path::new("/h\"x"), Some(Path::new("/etc/gitconfig"))),
            format!("{MARKER}: the system-scope git configuration of the agent's commands (GIT_CONFIG_SYSTEM).\n[include]\n\tpath = \"/etc/gitconfig\"\n[core]\n\thooksPath = \"/h\\\"x\"\n")
        );
    }

    #[test]
    fn activation_needs_the_marker_the_parameters_and_the_scripts() {
        let tmp = std::env::temp_dir().join(format!("dia-activation-{}", std::process::id()));
        assert!(Layout::new(|_| None, None).is_err(), "no state directory");
        let l = Layout { root: tmp.clone() };
        let vars = l.env_vars(None);
        let env = |n: &str| vars.iter().find(|(k, _)| *k == n).map(|(_, v)| v.into());
        assert!(!activation(&env).is_active(), "no scripts yet");
        l.write("/bin/true", None, None, HookSet::All, &|_: &str| None)
            .unwrap();
        assert_eq!(
            activation(&env),
            Activation::Active {
                hooks: l.hooks_dir()
            }
        );
        let without_params = |n: &str| {
            if n == "GIT_CONFIG_PARAMETERS" {
                None
            } else {
                env(n)
            }
        };
        assert!(!activation(&without_params).is_active());
        assert!(l.remove().unwrap());
        assert!(!tmp.exists());
    }

    #[test]
    fn the_env_merges_beside_foreign_variables_and_leaves_with_them_intact() {
        let l = Layout {
            root: PathBuf::from("/s/git/p-1"),
        };
        let mut settings: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(r#"{"env": {"FOO": "1"}, "hooks": {}}"#).unwrap();
        let before = settings.clone();
        merge_env(&mut settings, &l.env_vars(Some(Path::new("/p")))).unwrap();
        assert_eq!(settings["env"]["FOO"], "1");
        assert_eq!(settings["env"][HOOKS_ENV], "/s/git/p-1/hooks");
        // Idempotent, and a second install (another path) replaces its own values.
        merge_env(&mut settings, &l.env_vars(Some(Path::new("/q")))).unwrap();
        assert_eq!(settings["env"][PROJECT_ENV], "/q");
        remove_env(&mut settings, true, true);
        assert_eq!(settings, before);
        let mut foreign: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(r#"{"env": {"GIT_CONFIG_COUNT": "2"}}"#).unwrap();
        let e = merge_env(&mut foreign, &l.env_vars(None)).unwrap_err();
        assert!(e.contains("already sets GIT_CONFIG_COUNT"), "{e}");
    }
}
