//! The argument types the command line (`cli`) and the commands that take them
//! (`commands::install`, `commands::loops`) share, below both: `cli` parses into them and
//! `commands` reads them, and neither imports the other for them.

use crate::hooks::Hook;
use crate::protocol::host::Host;
use clap::{Args, Subcommand};
use std::path::PathBuf;

/// `--host` of install and uninstall: one host, or every host (`all`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostChoice {
    One(Host),
    /// Install: every host whose command is on PATH. Uninstall: every host's file.
    All,
}

pub(crate) fn parse_host_choice(name: &str) -> Result<HostChoice, String> {
    if name == "all" {
        return Ok(HostChoice::All);
    }
    parse_host(name)
        .map(HostChoice::One)
        .map_err(|e| format!("{e}, or all"))
}

#[derive(Args, Clone, Debug)]
pub struct InstallArgs {
    /// The host to register the hooks with (its own hooks file, event names, tool names and
    /// answer forms), or `all`: every host whose command is on PATH (uninstall: every
    /// host).
    #[arg(long, value_name = "HOST", default_value = "claude", value_parser = parse_host_choice)]
    pub host: HostChoice,
    /// The project whose `.claude/settings.json` to change [default: the git top level of
    /// the current directory, else the current directory].
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Change `.claude/settings.local.json` (personal, not committed) instead.
    #[arg(long, conflicts_with = "user")]
    pub local: bool,
    /// Change `~/.claude/settings.json` (every project of this user) instead.
    #[arg(long, conflicts_with = "project")]
    pub user: bool,
    /// Print the resulting settings file instead of writing it.
    #[arg(long)]
    pub dry_run: bool,
    /// Print only the hook registration, as the JSON object an Agent SDK app passes as its
    /// `settings` option; writes nothing.
    #[arg(long, conflicts_with_all = ["dry_run", "local", "user", "project"])]
    pub print_settings: bool,
    /// Also register audit-turn on PostToolBatch for this turn-terminator tool (an Agent
    /// SDK app's `end_turn`, bare or MCP-served). Repeatable.
    #[arg(long, value_name = "NAME")]
    pub end_turn_tool: Vec<String>,
    /// Leave out `onFailure: "block"` (a hook that crashes or times out then lets the
    /// tool call through).
    #[arg(long)]
    pub no_fail_closed: bool,
    /// Write `onFailure: "block"` even when the `claude` on PATH is older than 2.1.295
    /// (which ignores it).
    #[arg(long)]
    pub force: bool,
    /// The binary the entries run [default: this binary].
    #[arg(long, value_name = "PATH")]
    pub binary: Option<PathBuf>,
    /// Only these hooks, comma-separated [default: all of them].
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_hook)]
    pub hooks: Vec<Hook>,
    /// Register in the host's administrator settings (Claude Code:
    /// /etc/claude-code/managed-settings.d/), which no user or project setting can switch
    /// off. Needs root to write; otherwise the files are staged and the one command an
    /// administrator runs is printed.
    #[arg(long, conflicts_with_all = ["local", "user", "project", "print_settings"])]
    pub managed: bool,
    /// With --managed: also deploy this file as the organisation's policy
    /// (/etc/did-it-actually/policy.json), which every repository's policy may tighten
    /// and never loosen.
    #[arg(long, value_name = "FILE", requires = "managed")]
    pub policy: Option<PathBuf>,
}

/// What `uninstall` takes: where to remove from, and what.
#[derive(Args, Clone, Debug)]
pub struct UninstallArgs {
    /// The host whose registration to remove, or `all`: every host's file, whatever is on
    /// PATH.
    #[arg(long, value_name = "HOST", default_value = "claude", value_parser = parse_host_choice)]
    pub host: HostChoice,
    /// The project to remove from [default: the git top level of the current directory,
    /// else the current directory].
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Remove from `.claude/settings.local.json` (personal, not committed) instead.
    #[arg(long, conflicts_with = "user")]
    pub local: bool,
    /// Remove from `~/.claude/settings.json` (every project of this user) instead.
    #[arg(long, conflicts_with = "project")]
    pub user: bool,
    /// Print the file as it would be instead of writing it.
    #[arg(long)]
    pub dry_run: bool,
    /// Only these hooks, comma-separated [default: all of them].
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_hook)]
    pub hooks: Vec<Hook>,
    /// Remove the managed install (the host's administrator settings file of ours, and
    /// the binary it ran).
    #[arg(long, conflicts_with_all = ["local", "user", "project"])]
    pub managed: bool,
}

impl From<UninstallArgs> for InstallArgs {
    fn from(u: UninstallArgs) -> InstallArgs {
        InstallArgs {
            host: u.host,
            project: u.project,
            local: u.local,
            user: u.user,
            dry_run: u.dry_run,
            print_settings: false,
            end_turn_tool: Vec::new(),
            no_fail_closed: false,
            force: false,
            binary: None,
            hooks: u.hooks,
            managed: u.managed,
            policy: None,
        }
    }
}

pub(crate) fn parse_host(name: &str) -> Result<Host, String> {
    Host::from_name(name)
        .ok_or_else(|| format!("unknown host `{name}`; expected one of {}", Host::names()))
}

pub(crate) fn parse_hook(name: &str) -> Result<Hook, String> {
    Hook::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Hook::ALL.iter().map(|h| h.name()).collect();
        format!(
            "unknown hook `{name}`; expected one of {}",
            names.join(", ")
        )
    })
}

#[derive(Subcommand, Debug)]
pub enum LoopCommand {
    /// Start a loop for the project: the next session that stops is held to the promise.
    Start {
        /// The text the agent must finish with, as <promise>TEXT</promise>.
        #[arg(long, value_name = "TEXT")]
        promise: String,
        /// Stops to block before giving up.
        #[arg(long, value_name = "N", default_value_t = crate::loops::DEFAULT_MAX_ITERATIONS)]
        max_iterations: u32,
        /// The task to re-feed at every stop.
        #[arg(long, value_name = "TEXT", conflicts_with = "prompt_file")]
        prompt: Option<String>,
        /// The task to re-feed, from a file.
        #[arg(long, value_name = "FILE")]
        prompt_file: Option<PathBuf>,
        /// The project [default: the git top level of the current directory].
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
    },
    /// Show the project's loop.
    Status {
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
    },
    /// End the project's loop.
    Cancel {
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
    },
}

/// `did-it-actually export`: the ledger as OpenTelemetry logs.
#[derive(Subcommand, Debug)]
pub enum ExportCommand {
    /// Send every unsent record of the sessions whose policy turned export on, now, to the
    /// OTLP endpoint of OTEL_EXPORTER_OTLP_*. Exits 1 when a send failed (the records
    /// stay queued in the ledger).
    Flush {
        /// Run as the detached flusher a hook starts: wait out the backoff, print nothing.
        #[arg(long, hide = true)]
        background: bool,
    },
    /// Where records go, how many wait, and the last error.
    Status,
}
