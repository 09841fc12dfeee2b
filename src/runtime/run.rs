//! `did-it-actually run -- AGENT [ARGS...]`: both run-time layers around an agent's whole
//! process tree, for any agent, with hooks or without.
//!
//! - **Git**: the activation variables (the same hooks directory as `install`'s for the
//!   project) go into the agent's environment, which every program it starts inherits:
//!   each git it runs, from any script, meets the branch check.
//! - **Writes**: the agent's own process is confined before it starts, so it and
//!   everything it starts write only where the policy lets the agent write, plus the
//!   agent's own state and session directories (it keeps its sessions there) and the
//!   guard's ledger (its hooks, and git's, record there). In those directories the
//!   configuration of every host (where hooks and settings live) is read-only, as
//!   `.claude` is for one command.
//!
//! It fails closed: a layer that cannot be set up stops the start with the reason, unless
//! the user asked for less (`--without`, or the policy's `run_time` switches). Nothing
//! else changes: the agent replaces this process (same process, terminal, signals and
//! exit code).

use super::activation::Layout;
use super::confine::{self, Writable};
use super::protect::Protected;
use crate::policy::Policy;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

type Lookup<'a> = &'a dyn Fn(&str) -> Option<OsString>;

/// The session a git refusal under `run` is recorded in, where the host gives its
/// commands no session of its own.
pub const SESSION_ENV: &str = "DID_IT_ACTUALLY_RUN_SESSION";
/// The agent `run` started: the host name on what its git refusals record.
pub const AGENT_ENV: &str = "DID_IT_ACTUALLY_RUN_AGENT";

/// A run-time layer the user starts the agent without.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Layer {
    /// Git's own hooks: the branch check in every git the agent starts.
    Git,
    /// The kernel's confinement of writes.
    Writes,
}

/// Where one agent keeps its own state: the directories `run` lets it write. The first
/// is made when missing (the agent would make it on its first start), the rest are
/// opened only where they exist. `~` is HOME; `$XDG_*` the variable, else its default
/// under HOME; any other `$VAR` the variable, else nothing.
pub struct AgentState {
    pub names: &'static [&'static str],
    pub dirs: &'static [&'static str],
    /// Single files the agent rewrites in place.
    pub files: &'static [&'static str],
}

/// The agents whose places are known (any other agent `N` gets `~/.N` and the XDG
/// directories named `N` that exist, and `--writable`).
pub const AGENTS: &[AgentState] = &[
    AgentState {
        names: &["claude", "claude-code"],
        dirs: &[
            "~/.claude",
            "$CLAUDE_CONFIG_DIR",
            "$XDG_CONFIG_HOME/claude",
            "$XDG_DATA_HOME/claude",
            "$XDG_STATE_HOME/claude",
        ],
        files: &["~/.claude.json", "~/.claude.json.backup"],
    },
    AgentState {
        names: &["codex"],
        dirs: &["~/.codex", "$CODEX_HOME"],
        files: &[],
    },
    AgentState {
        names: &["gemini"],
        dirs: &["~/.gemini"],
        files: &[],
    },
    AgentState {
        names: &["qwen"],
        dirs: &["~/.qwen"],
        files: &[],
    },
    AgentState {
        names: &["copilot"],
        dirs: &[
            "~/.copilot",
            "$XDG_CONFIG_HOME/.copilot",
            "$XDG_STATE_HOME/.copilot",
        ],
        files: &[],
    },
    AgentState {
        names: &["droid"],
        dirs: &["~/.factory"],
        files: &[],
    },
    AgentState {
        names: &["opencode"],
        dirs: &[
            "$XDG_DATA_HOME/opencode",
            "$XDG_CONFIG_HOME/opencode",
            "$XDG_STATE_HOME/opencode",
            "$XDG_CACHE_HOME/opencode",
        ],
        files: &[],
    },
    AgentState {
        names: &["aider"],
        dirs: &["~/.aider"],
        files: &[],
    },
    AgentState {
        names: &["pi"],
        dirs: &["~/.pi"],
        files: &[],
    },
    AgentState {
        names: &["cursor-agent", "cursor"],
        dirs: &["~/.cursor", "$XDG_CONFIG_HOME/cursor"],
        files: &[],
    },
    AgentState {
        names: &["cline"],
        dirs: &["~/.cline"],
        files: &[],
    },
    AgentState {
        names: &["crush"],
        dirs: &["$XDG_DATA_HOME/crush", "$XDG_CONFIG_HOME/crush"],
        files: &[],
    },
    AgentState {
        names: &["goose"],
        dirs: &[
            "$XDG_CONFIG_HOME/goose",
            "$XDG_DATA_HOME/goose",
            "$XDG_STATE_HOME/goose",
        ],
        files: &[],
    },
    AgentState {
        names: &["kilo", "kilocode"],
        dirs: &[
            "~/.kilocode",
            "$XDG_CONFIG_HOME/kilo",
            "$XDG_DATA_HOME/kilo",
        ],
        files: &[],
    },
    AgentState {
        names: &["openhands"],
        dirs: &["~/.openhands"],
        files: &[],
    },
];

/// Where the hosts keep the configuration that registers hooks, settings, plugins or
/// commands that run later (`~` HOME, `.` the project). Read-only under `run` wherever
/// they are in a place the agent may write, for every host, not only the one started:
/// an agent could plant code in another's hooks as well as its own.
pub const HOST_CONFIG: &[&str] = &[
    "$CLAUDE_CONFIG_DIR/settings.json",
    "~/.codex/config.toml",
    "~/.codex/hooks.json",
    "~/.codex/requirements.toml",
    "$CODEX_HOME/config.toml",
    "$CODEX_HOME/hooks.json",
    "./.codex/config.toml",
    "./.codex/hooks.json",
    "~/.gemini/settings.json",
    "~/.gemini/.env",
    "./.gemini/settings.json",
    "./.gemini/.env",
    "~/.qwen/settings.json",
    "~/.qwen/.env",
    "./.qwen/settings.json",
    "./.qwen/.env",
    "~/.copilot/hooks",
    "./.github/hooks",
    "~/.factory/settings.json",
    "./.factory/settings.json",
    "$XDG_CONFIG_HOME/opencode/opencode.json",
    "$XDG_CONFIG_HOME/opencode/opencode.jsonc",
    "$XDG_CONFIG_HOME/opencode/plugins",
    "$XDG_CONFIG_HOME/opencode/plugin",
    "./opencode.json",
    "./opencode.jsonc",
    "./.opencode/plugins",
    "./.opencode/plugin",
    "~/.cursor/hooks.json",
    "./.cursor/hooks.json",
    "~/.aider.conf.yml",
    "./.aider.conf.yml",
    "~/.pi/agent/settings.json",
    // Its `"!command"` values run when pi reads a key.
    "~/.pi/agent/models.json",
    "~/.pi/agent/extensions",
    "./.pi/settings.json",
    "./.pi/extensions",
];

/// The project-level configuration directories of the hosts: pinned where they exist, so
/// that none can be moved aside and replaced by one without the guard.
const HOST_CONFIG_DIRS: &[&str] = &[
    ".codex",
    ".gemini",
    ".qwen",
    ".github",
    ".factory",
    ".opencode",
    ".cursor",
    ".pi",
];

/// What the user asked for.
pub struct Request {
    pub program: OsString,
    pub args: Vec<OsString>,
    /// The project whose policy applies (default: the repository of the current
    /// directory, else the directory).
    pub project: Option<PathBuf>,
    /// The agent's name for its places (default: from the program's name).
    pub agent: Option<String>,
    /// More directories the agent may write.
    pub writable: Vec<PathBuf>,
    pub without: Vec<Layer>,
}

/// What `run` sets up around the agent, decided before anything starts.
pub struct Setup {
    pub agent: String,
    pub project: PathBuf,
    /// The variables added to the agent's environment.
    pub env: Vec<(String, OsString)>,
    /// The git hooks directory, where the git layer is on.
    pub git_hooks: Option<PathBuf>,
    /// The confinement, where the write layer is on.
    pub writes: Option<(Protected, Writable)>,
    /// What is off, and why (said before the agent starts).
    pub notices: Vec<String>,
}

/// The agent's name, for its places: the program's file name, or, for a launcher or an
/// interpreter (`npx @openai/codex`, `python -m aider`, `node cli.js`), the first word
/// after it that is not an option.
pub fn agent_name(program: &OsStr, args: &[OsString]) -> String {
    const LAUNCHERS: &[&str] = &[
        "node", "nodejs", "bun", "bunx", "deno", "npx", "pnpx", "uvx", "pipx", "python", "python3",
        "uv", "env",
    ];
    let stem = |word: &OsStr| -> String {
        let name = Path::new(word)
            .file_name()
            .unwrap_or(word)
            .to_string_lossy()
            .into_owned();
        let name = name.rsplit('/').next().unwrap_or(&name).to_owned();
        let name = name
            .split('@')
            .find(|p| !p.is_empty())
            .unwrap_or(&name)
            .to_owned();
        [".js", ".mjs", ".cjs", ".py", ".exe"]
            .iter()
            .find_map(|ext| name.strip_suffix(ext))
            .unwrap_or(&name)
            .to_owned()
    };
    // A package's entry file (`@qwen-code/qwen-code/cli.js`) is named by its package.
    let named = |word: &OsStr| -> String {
        let name = stem(word);
        if !ENTRY_FILES.contains(&name.as_str()) {
            return known_or_prefix(&name);
        }
        Path::new(word)
            .ancestors()
            .skip(1)
            .filter_map(|a| a.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .find(|n| {
                !matches!(
                    n.as_str(),
                    "bin" | "dist" | "build" | "lib" | "src" | "bundle"
                )
            })
            .map_or(name, |n| known_or_prefix(&n))
    };
    let first = named(program);
    if !LAUNCHERS.contains(&first.as_str()) && !first.starts_with("python3.") {
        return first;
    }
    args.iter()
        .find(|a| {
            let a = a.to_string_lossy();
            !a.starts_with('-') && !a.contains('=') && a != "run" && a != "tool"
        })
        .map(|a| {
            // `@scope/name@1.2` names `name`.
            let text = a.to_string_lossy();
            if text.starts_with('@') {
                let bare = text.rsplit('/').next().unwrap_or(&text).to_owned();
                named(OsStr::new(&bare))
            } else {
                named(a)
            }
        })
        .unwrap_or(first)
}

/// The file names a package's entry point goes by, which name nothing.
const ENTRY_FILES: &[&str] = &["cli", "index", "main", "entry", "run"];

/// `name` where an agent of [`AGENTS`] has it, else its part before a dash where that is
/// one (`qwen-code`, `codex-x86_64-unknown-linux-musl`), else `name`.
fn known_or_prefix(name: &str) -> String {
    let known = |n: &str| AGENTS.iter().any(|a| a.names.contains(&n));
    if known(name) {
        return name.to_owned();
    }
    match name.split_once('-') {
        Some((prefix, _)) if known(prefix) => prefix.to_owned(),
        _ => name.to_owned(),
    }
}

/// A place from the tables: `~/x`, `$VAR/x`, `./x` (under `project`).
fn resolve(place: &str, project: &Path, env: Lookup) -> Option<PathBuf> {
    let home = env("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .filter(|h| h.is_absolute());
    if let Some(rest) = place.strip_prefix("~/") {
        return home.map(|h| h.join(rest));
    }
    if place == "~" {
        return home;
    }
    if let Some(rest) = place.strip_prefix("./") {
        return Some(project.join(rest));
    }
    let var = place.strip_prefix('$')?;
    let (name, rest) = var.split_once('/').unwrap_or((var, ""));
    let xdg_default = match name {
        "XDG_CONFIG_HOME" => Some(".config"),
        "XDG_DATA_HOME" => Some(".local/share"),
        "XDG_STATE_HOME" => Some(".local/state"),
        "XDG_CACHE_HOME" => Some(".cache"),
        _ => None,
    };
    let base = env(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| Some(home?.join(xdg_default?)))?;
    Some(if rest.is_empty() {
        base
    } else {
        base.join(rest)
    })
}

/// The agent's own state: its known places (the first made when missing), or, for an
/// agent not in [`AGENTS`], the places named after it that exist.
fn agent_places(
    agent: &str,
    project: &Path,
    make: bool,
    env: Lookup,
) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let known = AGENTS.iter().find(|a| a.names.contains(&agent));
    let generic = [
        format!("~/.{agent}"),
        format!("$XDG_CONFIG_HOME/{agent}"),
        format!("$XDG_DATA_HOME/{agent}"),
        format!("$XDG_STATE_HOME/{agent}"),
        format!("$XDG_CACHE_HOME/{agent}"),
    ];
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut files = Vec::new();
    match known {
        Some(a) => {
            for (i, place) in a.dirs.iter().enumerate() {
                let Some(dir) = resolve(place, project, env) else {
                    continue;
                };
                if make && i == 0 && !dir.exists() {
                    let _ = std::fs::create_dir_all(&dir);
                }
                if dir.is_dir() && !dirs.contains(&dir) {
                    dirs.push(dir);
                }
            }
            files.extend(
                a.files
                    .iter()
                    .filter_map(|f| resolve(f, project, env))
                    .filter(|f| f.is_file()),
            );
        }
        None if !agent.is_empty() && !agent.contains(['/', '.']) => {
            for place in &generic {
                if let Some(dir) = resolve(place, project, env).filter(|d| d.is_dir()) {
                    if !dirs.contains(&dir) {
                        dirs.push(dir);
                    }
                }
            }
        }
        None => {}
    }
    (dirs, files)
}

/// Decides what `run` sets up. With `make`, it also writes what the layers need before
/// the agent starts (the git layer's scripts, the agent's state directory, the ledger's
/// and the caches' directories); without, it changes nothing (`--dry-run`). `Err`: the
/// agent must not start, with why.
pub fn setup(req: &Request, make: bool, env: Lookup) -> Result<Setup, String> {
    let cwd = std::env::current_dir().map_err(|e| {
        format!(
            "the current directory cannot be read ({})",
            crate::fsutil::describe_io(&e)
        )
    })?;
    let project = match &req.project {
        Some(p) => std::fs::canonicalize(p).map_err(|e| {
            format!(
                "the project {} cannot be opened ({})",
                p.display(),
                crate::fsutil::describe_io(&e)
            )
        })?,
        None => crate::policy::repo_root(&cwd).unwrap_or(cwd),
    };
    let policy = Policy::in_force(&project, env).map_err(|e| {
        format!("the policy cannot be read: {e}. Fix it (did-it-actually policy check)")
    })?;
    let pending = policy.pending.as_ref().map(|p| p.sentence(&policy.source));
    let agent = req
        .agent
        .clone()
        .unwrap_or_else(|| agent_name(&req.program, &req.args));
    let mut out = Setup {
        agent: agent.clone(),
        project: project.clone(),
        env: Vec::new(),
        git_hooks: None,
        writes: None,
        notices: Vec::new(),
    };
    let state = crate::store::state_root(env).map_err(|e| e.to_string())?;
    let session = format!(
        "run-{}-{}-{}",
        agent
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .take(40)
            .collect::<String>(),
        crate::time::rfc3339(std::time::SystemTime::now())
            .replace([':', '-'], "")
            .trim_end_matches('Z'),
        std::process::id()
    );
    out.notices.extend(pending);
    out.env.push((SESSION_ENV.into(), session.into()));
    out.env.push((AGENT_ENV.into(), agent.clone().into()));

    if req.without.contains(&Layer::Git) {
        out.notices
            .push("the git layer is off (--without git): git is not checked as it runs".into());
    } else if !policy.branches.run_time {
        out.notices.push(format!(
            "the git layer is off: branches.run_time is false in {}",
            policy.source
        ));
    } else {
        // A layout of its own, with every hook name: nothing brings it up to date while
        // the agent runs (an agent without hooks), so a hook the repository gains then
        // (a hook manager installed) still runs.
        let layout = Layout::for_run(env, &project)?;
        let without_system = layout.config_file_without_system();
        if make && (layout.intact().is_err() || !without_system.is_file()) {
            let binary = std::env::current_exe()
                .map_err(|e| format!("this binary's path cannot be found ({e})"))?;
            layout.write(
                &binary.to_string_lossy(),
                super::activation::system_config(env).as_deref(),
                Some(&project),
                super::activation::HookSet::All,
                env,
            )?;
        }
        for (k, v) in layout.env_vars(Some(&project)) {
            out.env.push((k.to_owned(), v.into()));
        }
        // `GIT_CONFIG_NOSYSTEM` would take GIT_CONFIG_SYSTEM away, which is what carries
        // the check to the far side of a local push or fetch: the same configuration
        // without the machine's system file, read.
        if env("GIT_CONFIG_NOSYSTEM").is_some_and(|v| is_true(&v.to_string_lossy())) {
            for (k, v) in out.env.iter_mut() {
                if k == "GIT_CONFIG_SYSTEM" {
                    *v = without_system.clone().into();
                }
            }
            out.env.push(("GIT_CONFIG_NOSYSTEM".into(), "0".into()));
        }
        out.git_hooks = Some(layout.hooks_dir());
    }

    if req.without.contains(&Layer::Writes) {
        out.notices
            .push("the write layer is off (--without writes): writes are not confined".into());
        return Ok(out);
    }
    if !policy.scope.run_time {
        out.notices.push(format!(
            "the write layer is off: scope.run_time is false in {}",
            policy.source
        ));
        return Ok(out);
    }
    confine::available().map_err(|why| {
        format!("its writes cannot be confined here: {why}. `--without writes` starts it with the git layer alone")
    })?;
    if make {
        confine::make_missing_caches(&policy, env, confine::CachesFor::Session);
    }
    let scope = crate::scope::Scope::new(&policy, &project, env);
    let mut allowed = confine::writable(&policy, &scope.root, env);
    if let Some(pattern) = &allowed.everywhere {
        out.notices.push(format!(
            "the write layer has nothing to confine: scope.outside_root {pattern:?} opens everything"
        ));
        return Ok(out);
    }
    let (dirs, files) = agent_places(&agent, &project, make, env);
    for dir in dirs {
        allowed
            .dirs
            .push((dir, format!("{agent}'s own state and sessions")));
    }
    allowed.files.extend(files);
    for dir in &req.writable {
        let dir = std::fs::canonicalize(dir).map_err(|e| {
            format!(
                "--writable {} cannot be opened ({})",
                dir.display(),
                crate::fsutil::describe_io(&e)
            )
        })?;
        allowed.dirs.push((dir, "--writable".into()));
    }
    // The ledger: the agent's hooks (a host with hooks) and git's (a refusal) record
    // there. The rest of the state (the git layer's scripts, approvals) stays out of reach.
    let sessions = state.join("sessions");
    if make {
        let _ = std::fs::create_dir_all(&sessions);
    }
    allowed
        .dirs
        .push((sessions.clone(), "the guard's ledger".into()));
    allowed.files.extend(confine::standard_files());
    let protected = protected(&policy, &scope, &allowed, &project, &state, env);
    out.writes = Some((protected, allowed));
    Ok(out)
}

/// What stays read-only in the places the agent may write: the guard's files (as for one
/// command), every host's configuration, and the guard's state but for its ledger.
fn protected(
    policy: &Policy,
    scope: &crate::scope::Scope,
    allowed: &Writable,
    project: &Path,
    state: &Path,
    env: Lookup,
) -> Protected {
    let mut p = super::protect::protected(policy, scope, allowed);
    let dirs = allowed.real_dirs();
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    let real_state = real(state).unwrap_or_else(|| state.to_owned());
    let beneath = |p: &Path| dirs.iter().any(|w| p.starts_with(w));
    // The state directory whole would take the ledger too: its other parts instead.
    if p.read_only.iter().any(|(path, _)| *path == real_state) {
        p.read_only.retain(|(path, _)| *path != real_state);
        for entry in std::fs::read_dir(&real_state)
            .into_iter()
            .flatten()
            .flatten()
        {
            if entry.file_name() != "sessions" {
                p.read_only
                    .push((entry.path(), "the guard's state directory".into()));
            }
        }
    }
    for place in HOST_CONFIG {
        let Some(path) = resolve(place, project, env).and_then(|p| real(&p)) else {
            continue;
        };
        if beneath(&path) && !p.read_only.iter().any(|(q, _)| *q == path) {
            p.read_only.push((
                path,
                "an agent's own configuration (hooks, settings)".into(),
            ));
        }
    }
    for dir in HOST_CONFIG_DIRS {
        if let Some(dir) = real(&project.join(dir)).filter(|d| d.is_dir()) {
            if beneath(&dir) && !p.pinned.contains(&dir) {
                p.pinned.push(dir);
            }
        }
    }
    p
}

/// git's reading of a boolean variable: anything but empty, `0`, `false`, `no`, `off`.
fn is_true(v: &str) -> bool {
    !matches!(
        v.trim().to_ascii_lowercase().as_str(),
        "" | "0" | "false" | "no" | "off"
    )
}

/// Enters the confinement and becomes the agent. Returns only when it cannot: the
/// reason, and the exit code to end with (126: not started; 127: not found).
pub fn start(setup: Setup, req: Request) -> (String, u8) {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(&req.program);
    cmd.args(&req.args);
    for (k, v) in &setup.env {
        cmd.env(k, v);
    }
    if let Some((protected, allowed)) = &setup.writes {
        if let Err(why) = confine::confine_for_good(protected, allowed) {
            return (
                format!("{why}. `--without writes` starts it with the git layer alone"),
                126,
            );
        }
    }
    let e = cmd.exec();
    let code = if e.kind() == std::io::ErrorKind::NotFound {
        127
    } else {
        126
    };
    (
        format!(
            "{} cannot be started: {}",
            Path::new(&req.program).display(),
            crate::fsutil::describe_io(&e)
        ),
        code,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(words: &[&str]) -> String {
        let args: Vec<OsString> = words[1..].iter().map(OsString::from).collect();
        agent_name(OsStr::new(words[0]), &args)
    }

    #[test]
    fn the_agent_is_named_by_its_program_or_what_a_launcher_starts() {
        assert_eq!(name(&["codex", "exec"]), "codex");
        assert_eq!(name(&["/usr/local/bin/claude", "-p", "x"]), "claude");
        assert_eq!(
            name(&["npx", "-y", "@openai/codex@0.171.0", "exec"]),
            "codex"
        );
        assert_eq!(name(&["python3", "-m", "aider", "--yes"]), "aider");
        assert_eq!(name(&["node", "/opt/gemini/bundle/gemini.js"]), "gemini");
        assert_eq!(name(&["uvx", "aider-chat"]), "aider");
        assert_eq!(name(&["env", "FOO=1", "pi"]), "pi");
        assert_eq!(
            name(&["/n/node_modules/@qwen-code/qwen-code/cli.js", "-p", "x"]),
            "qwen"
        );
        assert_eq!(name(&["codex-x86_64-unknown-linux-musl"]), "codex");
        assert_eq!(name(&["cursor-agent"]), "cursor-agent");
    }

    #[test]
    fn places_resolve_against_home_the_xdg_defaults_and_the_project() {
        let env = |k: &str| match k {
            "HOME" => Some(OsString::from("/h")),
            "XDG_DATA_HOME" => Some(OsString::from("/data")),
            _ => None,
        };
        let p = Path::new("/p");
        assert_eq!(
            resolve("~/.codex", p, &env),
            Some(PathBuf::from("/h/.codex"))
        );
        assert_eq!(
            resolve("$XDG_DATA_HOME/opencode", p, &env),
            Some(PathBuf::from("/data/opencode"))
        );
        assert_eq!(
            resolve("$XDG_CONFIG_HOME/opencode", p, &env),
            Some(PathBuf::from("/h/.config/opencode"))
        );
        assert_eq!(resolve("$CODEX_HOME", p, &env), None);
        assert_eq!(
            resolve("./.gemini/settings.json", p, &env),
            Some(PathBuf::from("/p/.gemini/settings.json"))
        );
    }

    #[test]
    fn every_hosts_hook_file_is_among_the_configuration_kept_read_only() {
        for install in crate::install::hosts::HOST_INSTALLS {
            for file in [install.user_file, install.project_file] {
                let covered = HOST_CONFIG.iter().any(|c| {
                    let c = c.trim_start_matches("~/").trim_start_matches("./");
                    file == c || file.starts_with(&format!("{c}/"))
                });
                assert!(covered, "{file} ({:?}) is not in HOST_CONFIG", install.host);
            }
        }
    }
}
