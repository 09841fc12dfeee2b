//! The command line. The binary answers to its own name with subcommands, and to each
//! hook's name (an installed link) as that hook.

use crate::hooks::{Hook, HookArgs};
use crate::install::{self, Applied};
use crate::policy::{self, Policy};
use crate::runner;
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "did-it-actually",
    version,
    about = "Checks what an AI coding agent did and says against the disk and git.",
    long_about = "Checks what an AI coding agent did and says against the disk and git.\n\n\
        Hooks read one event as JSON on stdin and answer in Claude Code's hook format. \
        They are normally run by Claude Code, registered with `did-it-actually install`. \
        Each hook also answers to its own name: a link named `verify-write` to this binary \
        runs `did-it-actually verify-write`.",
    after_help = "Exit codes: hooks exit 0 with their decision as JSON (or nothing, for no opinion), \
        and 2 with a reason on stderr when their input cannot be read. Other commands exit 0 on \
        success, 1 when they find a problem, 2 on a usage error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Hook: read each write back from disk and record it (PostToolUse, PostToolUseFailure,
    /// PostToolBatch). Reads the event JSON on stdin.
    VerifyWrite,
    /// Hook: deny shell commands that would commit to, move, rewrite, delete or push to a
    /// protected branch (PreToolUse on Bash and PowerShell). Reads the event JSON on stdin.
    BlockWrongBranch,
    /// Hook: deny writes outside the policy's scope, and to the guards' own files
    /// (PreToolUse on the write tools, Bash and PowerShell). Reads the event JSON on stdin.
    ScopeGuard,
    /// Hook: when the agent stops, check what its final message claims against what the
    /// turn did; block the stop while claims are unbacked (Stop, SubagentStop; and
    /// PostToolBatch for an Agent SDK app's turn-terminator tool, see --end-turn-tool).
    AuditTurn {
        /// A tool that ends the agent's loop (bare, or behind any `mcp__<server>__`):
        /// registered on PostToolBatch, a batch that calls it is audited, and the loop
        /// ends only when the claims in its text hold. Repeatable.
        #[arg(long, value_name = "NAME")]
        end_turn_tool: Vec<String>,
    },
    /// Run the audit of audit-turn offline: every claim found, its evidence, the verdict.
    /// Exits 0 when everything is backed, 1 otherwise.
    Audit {
        /// The session transcript (JSONL).
        #[arg(long, value_name = "FILE")]
        transcript: PathBuf,
        /// The final message [default: the turn's last assistant text in the transcript].
        #[arg(long, value_name = "TEXT")]
        message: Option<String>,
        /// The turn [default: the last prompt in the transcript].
        #[arg(long, value_name = "ID")]
        prompt_id: Option<String>,
        /// The session whose write log to use [default: none].
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        /// The project directory [default: the current directory].
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// Print the audit as one JSON object.
        #[arg(long)]
        json: bool,
        /// Also show the reading of every sentence: claim or not, and why.
        #[arg(long)]
        explain: bool,
    },
    /// Completion-promise loops: keep the agent working until it keeps a promise.
    #[command(subcommand)]
    Loop(LoopCommand),
    /// Show how scope-guard judges a path: where it resolves, the rule that decides, and
    /// the verdict. Exits 0 when a write there would be allowed, 1 when denied.
    CheckPath {
        /// The path, as a tool or command would give it.
        path: String,
        /// The directory it is relative to [default: the current directory].
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// Print the judgement as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Show how the guards read a shell command: for block-wrong-branch the git
    /// invocations in it, the repository and branch each acts on, the branches it would
    /// update; for scope-guard the files it writes and what it cannot see; and each
    /// verdict. Exits 0 when both would allow it, 1 when either denies.
    Explain {
        /// The shell command, as the agent would run it.
        command: String,
        /// The directory it runs in [default: the current directory].
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// Print the analysis as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Register the hooks in a Claude Code settings file (merges; keeps every other entry).
    Install(InstallArgs),
    /// Remove exactly the entries `install` added.
    Uninstall(InstallArgs),
    /// Check that the guards really protect the project: binary, links, registrations
    /// (command, timeout, onFailure), Claude Code's version, the policy, the state
    /// directory, and a live self-test of every registered hook. Exits 1 when a check fails.
    Doctor {
        /// The project [default: the git top level of the current directory].
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
        /// Print the checks as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the write log as a table.
    Log {
        /// The session [default: the most recently written one].
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        /// Only this turn (prompt id).
        #[arg(long, value_name = "ID")]
        turn: Option<String>,
        /// Only writes that did not land.
        #[arg(long)]
        failed: bool,
        /// Print the records as JSON lines.
        #[arg(long)]
        json: bool,
    },
    /// Inspect the repository's policy file.
    #[command(subcommand)]
    Policy(PolicyCommand),
    /// Print the plugin's hooks/hooks.json (generated from the same table as `install`).
    #[command(hide = true)]
    PluginHooks,
    /// Print the name of every hook this build provides, one per line (for install.sh's links).
    #[command(hide = true)]
    HookNames,
}

#[derive(Args, Debug)]
struct InstallArgs {
    /// The project whose `.claude/settings.json` to change [default: the git top level of
    /// the current directory, else the current directory].
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Change `.claude/settings.local.json` (personal, not committed) instead.
    #[arg(long, conflicts_with = "user")]
    local: bool,
    /// Change `~/.claude/settings.json` (every project of this user) instead.
    #[arg(long, conflicts_with = "project")]
    user: bool,
    /// Print the resulting settings file instead of writing it.
    #[arg(long)]
    dry_run: bool,
    /// Print only the hook registration, as the JSON object an Agent SDK app passes as its
    /// `settings` option; writes nothing.
    #[arg(long, conflicts_with_all = ["dry_run", "local", "user", "project"])]
    print_settings: bool,
    /// Also register audit-turn on PostToolBatch for this turn-terminator tool (an Agent
    /// SDK app's `end_turn`, bare or MCP-served). Repeatable.
    #[arg(long, value_name = "NAME")]
    end_turn_tool: Vec<String>,
    /// Leave out `onFailure: "block"` (a hook that crashes or times out then lets the
    /// tool call through).
    #[arg(long)]
    no_fail_closed: bool,
    /// Write `onFailure: "block"` even when the `claude` on PATH is older than 2.1.295
    /// (which ignores it).
    #[arg(long)]
    force: bool,
    /// The binary the entries run [default: this binary].
    #[arg(long, value_name = "PATH")]
    binary: Option<PathBuf>,
    /// Only these hooks, comma-separated [default: all of them].
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_hook)]
    hooks: Vec<Hook>,
}

fn parse_hook(name: &str) -> Result<Hook, String> {
    Hook::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Hook::ALL.iter().map(|h| h.name()).collect();
        format!(
            "unknown hook `{name}`; expected one of {}",
            names.join(", ")
        )
    })
}

#[derive(Subcommand, Debug)]
enum LoopCommand {
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

#[derive(Subcommand, Debug)]
enum PolicyCommand {
    /// Write a starter `.did-it-actually.json` (every key, with its default) at the
    /// repository root; refuses to overwrite one.
    Init {
        /// The directory whose repository gets the file [default: the current directory].
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// The strict preset: programs whose own writes cannot be read from the command
        /// (`python -c`, `node -e`, perl beyond `s///`) are denied
        /// (`scope.unmodelled_programs: "deny"`).
        #[arg(long)]
        strict: bool,
    },
    /// Parse the policy that applies to a directory and say what it sets, or what is wrong.
    Check {
        /// The directory whose policy to check [default: the current directory].
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
    },
}

pub fn main() -> ExitCode {
    runner::quiet_panics();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Multicall: a link named after a hook runs that hook.
    let invoked_as = args
        .first()
        .and_then(|a| Path::new(a).file_name())
        .and_then(|n| n.to_str())
        .and_then(Hook::from_name);
    if let Some(hook) = invoked_as {
        if args.len() == 1 {
            return run_hook(hook, &HookArgs::default());
        }
        // A link given arguments (`audit-turn --end-turn-tool end_turn`): read them as
        // the subcommand's.
        let mut as_sub = vec![std::ffi::OsString::from(install::BINARY_NAME)];
        as_sub.push(hook.name().into());
        as_sub.extend(args.into_iter().skip(1));
        return dispatch(Cli::parse_from(as_sub).command);
    }
    let cli = Cli::parse_from(args);
    match std::panic::catch_unwind(|| dispatch(cli.command)) {
        Ok(code) => code,
        // A reader that stopped reading (`… | head`) is not an error of ours.
        Err(payload) if panic_text(&payload).contains("Broken pipe") => ExitCode::SUCCESS,
        Err(payload) => {
            eprintln!(
                "did-it-actually: internal error ({}); this is a bug, please report it",
                panic_text(&payload)
            );
            ExitCode::from(2)
        }
    }
}

fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

fn run_hook(hook: Hook, args: &HookArgs) -> ExitCode {
    let env = |name: &str| std::env::var_os(name);
    let output = runner::run_hook(hook, args, std::io::stdin().lock(), &env);
    // A closed stdout or stderr cannot be reported anywhere; the exit code still stands.
    let _ = std::io::stdout().write_all(output.stdout.as_bytes());
    let _ = std::io::stderr().write_all(output.stderr.as_bytes());
    ExitCode::from(output.exit_code)
}

fn dispatch(command: Command) -> ExitCode {
    match command {
        Command::VerifyWrite => run_hook(Hook::VerifyWrite, &HookArgs::default()),
        Command::BlockWrongBranch => run_hook(Hook::BlockWrongBranch, &HookArgs::default()),
        Command::ScopeGuard => run_hook(Hook::ScopeGuard, &HookArgs::default()),
        Command::AuditTurn { end_turn_tool } => run_hook(
            Hook::AuditTurn,
            &HookArgs {
                end_turn_tools: end_turn_tool,
            },
        ),
        Command::Audit {
            transcript,
            message,
            prompt_id,
            session,
            cwd,
            json,
            explain,
        } => audit_cmd(&transcript, message, prompt_id, session, cwd, json, explain),
        Command::Loop(cmd) => loop_cmd(cmd),
        Command::CheckPath { path, cwd, json } => check_path(&path, cwd, json),
        Command::Explain { command, cwd, json } => explain(&command, cwd, json),
        Command::Install(args) => install_cmd(&args, false),
        Command::Uninstall(args) => install_cmd(&args, true),
        Command::Policy(PolicyCommand::Check { cwd }) => policy_check(cwd),
        Command::Policy(PolicyCommand::Init { cwd, strict }) => policy_init(cwd, strict),
        Command::Doctor { project, json } => doctor(project, json),
        Command::Log {
            session,
            turn,
            failed,
            json,
        } => log_cmd(session, turn, failed, json),
        Command::HookNames => {
            Hook::ALL.iter().for_each(|h| println!("{}", h.name()));
            ExitCode::SUCCESS
        }
        Command::PluginHooks => {
            print!("{}", install::plugin_hooks_json(&Hook::ALL));
            ExitCode::SUCCESS
        }
    }
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("did-it-actually: {message}");
    ExitCode::from(1)
}

/// `--cwd DIR` as given, or the current directory; absolute either way.
fn working_dir(cwd: Option<PathBuf>) -> Result<PathBuf, String> {
    let cwd = match cwd {
        Some(c) => c,
        None => std::env::current_dir()
            .map_err(|e| format!("cannot read the current directory: {e}"))?,
    };
    Ok(std::path::absolute(&cwd).unwrap_or(cwd))
}

/// The working directory (see [`working_dir`]) and the policy in force there.
/// `consequence` tells the reader of a policy error what the hooks do meanwhile.
fn cwd_and_policy(cwd: Option<PathBuf>, consequence: &str) -> Result<(PathBuf, Policy), String> {
    let cwd = working_dir(cwd)?;
    let policy =
        Policy::discover(&cwd, |n| std::env::var_os(n)).map_err(|e| format!("{e}{consequence}"))?;
    Ok((cwd, policy))
}

/// The settings file `args` select.
fn settings_path(args: &InstallArgs) -> Result<PathBuf, String> {
    if args.user {
        let home = std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .ok_or("HOME is not set")?;
        return Ok(PathBuf::from(home).join(".claude/settings.json"));
    }
    let project = project_arg(args.project.clone())?;
    let file = if args.local {
        "settings.local.json"
    } else {
        "settings.json"
    };
    Ok(project.join(".claude").join(file))
}

fn install_cmd(args: &InstallArgs, uninstall: bool) -> ExitCode {
    if uninstall && (args.print_settings || !args.end_turn_tool.is_empty()) {
        return fail("--print-settings and --end-turn-tool go with `install`, not `uninstall`");
    }
    let binary = match &args.binary {
        Some(b) => std::path::absolute(b).map_err(|e| e.to_string()),
        None => std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .map_err(|e| e.to_string()),
    };
    let binary = match binary {
        Ok(b) => b.to_string_lossy().into_owned(),
        Err(e) => return fail(format!("cannot find this binary's path: {e}")),
    };
    let selected: Vec<Hook> = if args.hooks.is_empty() {
        Hook::ALL.to_vec()
    } else {
        args.hooks.clone()
    };
    let regs = install::registrations_with(&selected, &args.end_turn_tool);
    if args.print_settings {
        // An Agent SDK app passes this as its `settings` option: the SDK's own Claude Code
        // (2.1.295 or later) honours onFailure, whatever `claude` is on this PATH.
        let fail_closed = !args.no_fail_closed;
        let mut settings = serde_json::Map::new();
        if let Err(e) = install::merge(&mut settings, &regs, &binary, fail_closed) {
            return fail(e);
        }
        print!("{}", install::render_settings(&settings));
        return ExitCode::SUCCESS;
    }
    let path = match settings_path(args) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let fail_closed = !args.no_fail_closed && (uninstall || args.force || on_failure_honoured());
    let edit = |settings: &mut serde_json::Map<String, serde_json::Value>| {
        if uninstall {
            install::remove(settings, &selected);
            Ok(())
        } else {
            install::merge(settings, &regs, &binary, fail_closed)
        }
    };
    if args.dry_run {
        // The file on stdout (so it can be redirected), the diff on stderr for the reader.
        // Read and checked exactly as the real run would: what fails there fails here.
        let plan = match install::plan(&path, edit) {
            Ok(p) => p,
            Err(e) => return fail(e),
        };
        print!("{}", plan.text);
        let label = plan.target.display().to_string();
        let before = plan.original.as_deref().unwrap_or("");
        let diff = install::unified_diff(before, &plan.text, &label, &format!("{label} (after)"));
        if diff.is_empty() {
            eprintln!("did-it-actually: dry run: {label} would not change.");
        } else {
            eprint!("{diff}");
        }
        return ExitCode::SUCCESS;
    }
    let verb = if uninstall {
        "removed from"
    } else {
        "registered in"
    };
    match install::apply(&path, edit) {
        Ok(Applied::Unchanged) if uninstall => {
            println!(
                "did-it-actually: {} has none of these entries; nothing was changed.",
                path.display()
            );
            ExitCode::SUCCESS
        }
        Ok(Applied::Unchanged) => {
            println!("did-it-actually: {} is already up to date.", path.display());
            ExitCode::SUCCESS
        }
        Ok(Applied::Written { backup }) => {
            let hooks: Vec<_> = selected.iter().map(|h| h.name()).collect();
            println!(
                "did-it-actually: {} {verb} {}.",
                hooks.join(", "),
                path.display()
            );
            if let Some(b) = backup {
                println!(
                    "did-it-actually: the original was saved as {}.",
                    b.display()
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

fn print_json(value: &serde_json::Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("JSON values serialize")
    );
}

/// Whether the `claude` on PATH honours `onFailure` (2.1.295+). When it does not, says so
/// loudly and returns false, so that install writes entries that say what will happen
/// rather than a promise Claude Code ignores. No `claude` found: nothing to check.
fn on_failure_honoured() -> bool {
    let env = |n: &str| std::env::var_os(n);
    let Some((path, Some(v))) = crate::doctor::claude_version(&env) else {
        return true;
    };
    if v >= crate::doctor::ON_FAILURE_SINCE {
        return true;
    }
    eprintln!(
        "did-it-actually: WARNING: {} is Claude Code {}.{}.{}, which ignores `onFailure` (2.1.295 and later honour it).\n\
         did-it-actually: Under that version, a hook that crashes, times out or is missing lets the tool call through: the guards fail OPEN.\n\
         did-it-actually: The entries are written without `onFailure`. Update Claude Code and run install again, or pass --force to write it anyway.",
        path.display(),
        v.0,
        v.1,
        v.2
    );
    false
}

/// Whether output may be colored: a terminal, and no NO_COLOR.
fn color() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

fn doctor(project: Option<PathBuf>, json: bool) -> ExitCode {
    let project = match project_arg(project) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let binary = match std::env::current_exe().and_then(|p| p.canonicalize()) {
        Ok(b) => b,
        Err(e) => return fail(format!("cannot find this binary's path: {e}")),
    };
    let env = |n: &str| std::env::var_os(n);
    let scope = crate::doctor::Scope {
        project,
        home: std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from),
        binary,
    };
    let checks = crate::doctor::run(&scope, &env);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&checks).expect("checks serialize")
        );
    } else {
        print!("{}", crate::doctor::render(&checks, color()));
    }
    if checks.iter().any(|c| c.mark == crate::doctor::Mark::Fail) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn log_cmd(session: Option<String>, turn: Option<String>, failed: bool, json: bool) -> ExitCode {
    let env = |n: &str| std::env::var_os(n);
    let root = match crate::store::state_root(env) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let session = match session {
        Some(s) => s,
        None => {
            let newest = std::fs::read_dir(root.join("sessions"))
                .into_iter()
                .flatten()
                .flatten()
                .filter_map(|e| {
                    Some((
                        e.path()
                            .join(crate::store::WRITE_LOG)
                            .metadata()
                            .ok()?
                            .modified()
                            .ok()?,
                        e.file_name().to_string_lossy().into_owned(),
                    ))
                })
                .max();
            match newest {
                Some((_, s)) => s,
                None => {
                    return fail(format!(
                        "no session has a write log under {}",
                        root.display()
                    ))
                }
            }
        }
    };
    let id = match crate::store::SessionId::parse(&session) {
        Ok(id) => id,
        Err(e) => return fail(e),
    };
    let read = match crate::store::SessionStore::new(&root, &id).read_write_log() {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    // Writes and the guards' denials, one ledger in time order (RFC 3339 sorts as text).
    let mut entries: Vec<crate::store::Record> = read
        .records
        .into_iter()
        .filter(|r| turn.is_none() || r.prompt_id == turn)
        .filter(|r| !failed || !r.verified)
        .map(Into::into)
        .chain(
            read.denials
                .into_iter()
                .filter(|d| turn.is_none() || d.prompt_id == turn)
                .map(Into::into),
        )
        .collect();
    entries.sort_by(|a, b| a.time().cmp(b.time()));
    if json {
        for r in &entries {
            println!("{}", serde_json::to_string(r).expect("records serialize"));
        }
        return ExitCode::SUCCESS;
    }
    println!(
        "session {session}: {} record(s){}",
        entries.len(),
        if read.torn > 0 {
            format!(" ({} unreadable line(s) skipped)", read.torn)
        } else {
            String::new()
        }
    );
    println!(
        "{:<24} {:<12} {:<12} {:<16} {:<19} path",
        "time", "turn", "tool", "outcome", "by"
    );
    for entry in &entries {
        let (time, prompt, tool, outcome, by, what) = match entry {
            crate::store::Record::Write(r) => (
                &r.time,
                &r.prompt_id,
                &r.tool,
                r.outcome.name().to_owned(),
                // Who checked it: verify-write after the tool, after a failed tool, or
                // after the whole batch.
                match r.event.as_str() {
                    "PostToolUse" => "verify-write",
                    "PostToolUseFailure" => "verify-write (failed)",
                    "PostToolBatch" => "verify-write (batch)",
                    other => other,
                }
                .to_owned(),
                r.path.clone(),
            ),
            crate::store::Record::Denial(d) => (
                &d.time,
                &d.prompt_id,
                &d.tool,
                "denied".to_owned(),
                d.hook.clone(),
                d.targets.first().cloned().unwrap_or_default(),
            ),
        };
        let turn: String = prompt.as_deref().unwrap_or("-").chars().take(12).collect();
        println!("{time:<24} {turn:<12} {tool:<12} {outcome:<16} {by:<19} {what}");
    }
    ExitCode::SUCCESS
}

fn policy_init(cwd: Option<PathBuf>, strict: bool) -> ExitCode {
    let dir = match project_dir(cwd) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let path = dir.join(policy::POLICY_FILE);
    if path.exists() {
        return fail(format!(
            "{} exists already; it was left as it is",
            path.display()
        ));
    }
    const EXAMPLE: &str = include_str!("../policy.example.json");
    let text = if strict {
        EXAMPLE.replace(
            r#""unmodelled_programs": "allow""#,
            r#""unmodelled_programs": "deny""#,
        )
    } else {
        EXAMPLE.to_owned()
    };
    let preset = if strict {
        "the strict preset: every key with its default, but scope.unmodelled_programs is deny"
    } else {
        "every key with its default"
    };
    match std::fs::write(&path, text) {
        Ok(()) => {
            println!("did-it-actually: wrote {} ({preset}; edit it, then `did-it-actually policy check`).", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => fail(format!("cannot write {}: {e}", path.display())),
    }
}

/// `--project DIR` as given (install and doctor must agree on it), else the git top
/// level of the current directory.
fn project_arg(project: Option<PathBuf>) -> Result<PathBuf, String> {
    match project {
        Some(p) => working_dir(Some(p)),
        None => project_dir(None),
    }
}

fn project_dir(cwd: Option<PathBuf>) -> Result<PathBuf, String> {
    let cwd = working_dir(cwd)?;
    Ok(policy::repo_root(&cwd).unwrap_or(cwd))
}

fn loop_cmd(cmd: LoopCommand) -> ExitCode {
    use crate::loops::{self, LoopState, Status};
    let env = |n: &str| std::env::var_os(n);
    let root = match crate::store::state_root(env) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let (LoopCommand::Start { cwd, .. }
    | LoopCommand::Status { cwd }
    | LoopCommand::Cancel { cwd }) = &cmd;
    let project = match project_dir(cwd.clone()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let path = loops::state_path(&root, &project);
    match cmd {
        LoopCommand::Start {
            promise,
            max_iterations,
            prompt,
            prompt_file,
            ..
        } => {
            if loops::normalize(&promise).is_empty() {
                return fail("--promise must not be empty");
            }
            let prompt = match (prompt, prompt_file) {
                (Some(p), _) => p,
                (None, Some(f)) => match std::fs::read_to_string(&f) {
                    Ok(t) => t,
                    Err(e) => {
                        return fail(format!("cannot read the prompt file {}: {e}", f.display()))
                    }
                },
                (None, None) => "Continue the task.".to_owned(),
            };
            let state = LoopState {
                v: 1,
                project: project.clone(),
                promise,
                prompt,
                max_iterations,
                session: None,
                iteration: 0,
                status: Status::Active,
            };
            match loops::save(&path, &state) {
                Ok(()) => {
                    println!(
                        "did-it-actually: loop started for {} (state: {}).",
                        project.display(),
                        path.display()
                    );
                    println!("The next session to stop there must finish with <promise>{}</promise>; at most {max_iterations} iterations.", state.promise);
                    ExitCode::SUCCESS
                }
                Err(e) => fail(e),
            }
        }
        LoopCommand::Status { .. } => match loops::load(&path) {
            Ok(Some(s)) => {
                println!(
                    "loop for {}: {:?}, iteration {} of {}, promise {:?}, session {}",
                    s.project.display(),
                    s.status,
                    s.iteration,
                    s.max_iterations,
                    s.promise,
                    s.session.as_deref().unwrap_or("(not bound yet)")
                );
                ExitCode::SUCCESS
            }
            Ok(None) => {
                println!("no loop for {}", project.display());
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
        LoopCommand::Cancel { .. } => match std::fs::remove_file(&path) {
            Ok(()) => {
                println!(
                    "did-it-actually: the loop for {} is cancelled.",
                    project.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                println!("no loop for {}", project.display());
                ExitCode::SUCCESS
            }
            Err(e) => fail(format!("cannot remove {}: {e}", path.display())),
        },
    }
}

fn audit_cmd(
    transcript: &Path,
    message: Option<String>,
    prompt_id: Option<String>,
    session: Option<String>,
    cwd: Option<PathBuf>,
    json: bool,
    explain: bool,
) -> ExitCode {
    use crate::hooks::audit_turn::{audit, Evidence};
    let env = |n: &str| std::env::var_os(n);
    let (cwd, policy) = match cwd_and_policy(cwd, "") {
        Ok(found) => found,
        Err(e) => return fail(e),
    };
    let turn = match crate::transcript::read_turn(transcript, prompt_id.as_deref()) {
        Ok(mut t) => {
            crate::hooks::audit_turn::add_subagents(&mut t, transcript);
            t
        }
        Err(e) => return fail(format!("cannot read {}: {e}", transcript.display())),
    };
    // A session named on the command line whose log cannot be read is an error, not an
    // audit with no writes.
    let records = match session {
        None => Vec::new(),
        Some(s) => {
            let log = crate::store::state_root(env)
                .map_err(|e| e.to_string())
                .and_then(|root| {
                    let id = crate::store::SessionId::parse(&s).map_err(|e| e.to_string())?;
                    crate::store::SessionStore::new(&root, &id)
                        .read_write_log()
                        .map_err(|e| e.to_string())
                });
            match log {
                Ok(l) => l
                    .records
                    .into_iter()
                    .filter(|r| prompt_id.is_none() || r.prompt_id == prompt_id)
                    .collect(),
                Err(e) => return fail(format!("cannot read the write log of session {s}: {e}")),
            }
        }
    };
    let message = message
        .or_else(|| turn.last_assistant_text.clone())
        .unwrap_or_default();
    let ev = Evidence {
        turn: &turn,
        records: &records,
        cwd: &cwd,
        policy: &policy.audit,
        transcript_ok: true,
    };
    let result = audit(&message, &ev);
    let tool_calls = turn
        .events
        .iter()
        .filter(|e| matches!(e, crate::transcript::Event::ToolUse { .. }))
        .count();
    let unbacked = !result.unbacked().is_empty();
    if json {
        let claims: Vec<serde_json::Value> = result
            .claims
            .iter()
            .map(|(claim, verdict)| match verdict {
                Ok(evidence) => serde_json::json!({"kind": format!("{:?}", claim.kind), "sentence": claim.sentence, "backed": true, "evidence": evidence}),
                Err(f) => serde_json::json!({"kind": format!("{:?}", claim.kind), "sentence": claim.sentence, "backed": false, "why": f.why, "fix": f.fix}),
            })
            .collect();
        let failures: Vec<serde_json::Value> = result
            .failures
            .iter()
            .map(|f| serde_json::json!({"what": f.what, "why": f.why, "fix": f.fix}))
            .collect();
        print_json(&serde_json::json!({
            "message": message,
            "tool_calls": tool_calls,
            "prompt_found": turn.prompt_found,
            "write_log_records": records.len(),
            "claims": claims,
            "failures": failures,
            "notes": result.notes,
            "readings": explain.then(|| crate::hooks::audit_turn::readings_json(&message, &result)),
            "verdict": if unbacked { "block" } else { "pass" },
        }));
        return if unbacked {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        };
    }
    println!(
        "turn: {tool_calls} tool calls{}, {} write-log records",
        if turn.prompt_found {
            ""
        } else {
            " (its prompt line was not found)"
        },
        records.len()
    );
    if explain {
        print!(
            "{}",
            crate::hooks::audit_turn::explain_text(&message, &result)
        );
    }
    if result.claims.is_empty() {
        println!("no claims found in the message");
    }
    for (claim, verdict) in &result.claims {
        match verdict {
            Ok(evidence) => println!(
                "backed: {:?} in \"{}\"\n  evidence: {evidence}",
                claim.kind, claim.sentence
            ),
            Err(f) => println!(
                "NOT backed{}: {:?} in \"{}\"\n  why: {}\n  to back it: {}",
                if f.blocks {
                    ""
                } else {
                    " (weak reading: reported, never blocks)"
                },
                claim.kind,
                claim.sentence,
                f.why,
                f.fix
            ),
        }
    }
    for f in &result.failures {
        println!("failure not mentioned: {}: {}", f.what, f.why);
    }
    for n in &result.notes {
        println!("note: {n}");
    }
    if !unbacked {
        println!("verdict: the stop would go through");
        ExitCode::SUCCESS
    } else {
        println!("verdict: the stop would be blocked");
        ExitCode::from(1)
    }
}

fn check_path(path: &str, cwd: Option<PathBuf>, json: bool) -> ExitCode {
    let env = |n: &str| std::env::var_os(n);
    let (cwd, policy) =
        match cwd_and_policy(cwd, "; scope-guard denies every write until it is fixed") {
            Ok(found) => found,
            Err(e) => return fail(e),
        };
    let scope = crate::scope::Scope::new(&policy, &cwd, &env);
    let j = scope.judge(path, &cwd);
    if json {
        print_json(&serde_json::json!({
            "path": path,
            "resolved": j.resolved,
            "root": scope.root,
            "policy": policy.source.to_string(),
            "rule": j.rule,
            "verdict": if j.allowed { "allow" } else { "deny" },
            "advice": (!j.allowed).then(|| scope.advice(&j)),
        }));
        return if j.allowed {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        };
    }
    println!("path: {path}");
    println!("resolves to: {}", j.resolved.display());
    println!("project root: {}", scope.root.display());
    println!("policy: {}", policy.source);
    println!("rule: {}", j.rule);
    if j.allowed {
        println!("verdict: allow");
        ExitCode::SUCCESS
    } else {
        println!("verdict: deny. {}", scope.advice(&j));
        ExitCode::from(1)
    }
}

fn explain(command: &str, cwd: Option<PathBuf>, json: bool) -> ExitCode {
    let env = |n: &str| std::env::var_os(n);
    let (cwd, policy) = match cwd_and_policy(
        cwd,
        "; block-wrong-branch denies every command until it is fixed",
    ) {
        Ok(found) => found,
        Err(e) => return fail(e),
    };
    use crate::hooks::block_wrong_branch::{explain, Decision};
    let e = explain(command, &cwd, &policy, &env);
    let scope = crate::scope::Scope::new(&policy, &cwd, &env);
    let writes = crate::hooks::scope_guard::explain_command(command, &cwd, &scope, &env);
    let scope_reason = writes.denials.first();
    if json {
        let (verdict, reason) = match &e.decision {
            Decision::Allow => ("allow", None),
            Decision::Deny(r) => ("deny", Some(r)),
        };
        print_json(&serde_json::json!({
            "command": command,
            "cwd": cwd,
            "policy": policy.source.to_string(),
            "protected": policy.branches.describe_protected(),
            "trace": e.trace,
            "verdict": verdict,
            "reason": reason,
            "scope": {
                "root": scope.root,
                "writes": writes.notes,
                "verdict": if scope_reason.is_some() { "deny" } else { "allow" },
                "reason": scope_reason,
            },
        }));
    } else {
        print!("{}", e.text(&cwd, &policy));
        println!("scope-guard, root {}:", scope.root.display());
        if writes.notes.is_empty() && writes.denials.is_empty() {
            println!("  no write it can see");
        }
        for note in &writes.notes {
            println!("  {note}");
        }
        match scope_reason {
            None => println!("scope verdict: allow (every write it sees is in scope)"),
            Some(reason) => println!("scope verdict: deny\n{reason}"),
        }
    }
    match (&e.decision, scope_reason) {
        (Decision::Allow, None) => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    }
}

fn policy_check(cwd: Option<PathBuf>) -> ExitCode {
    let cwd = match working_dir(cwd) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    match Policy::discover(&cwd, |n| std::env::var_os(n)) {
        Ok(p) => {
            println!("policy: {}", p.source);
            println!("store.prune_after_days: {}", p.store.prune_after_days);
            let b = &p.branches;
            println!("branches.protected: {}", b.describe_protected());
            let denied: Vec<&str> = [
                "commit",
                "merge",
                "rebase",
                "cherry_pick",
                "revert",
                "am",
                "pull",
                "reset",
                "branch",
                "update_ref",
                "fetch",
                "push",
                "force_push",
                "push_delete",
                "unresolvable",
            ]
            .into_iter()
            .filter(|k| b.deny.get(k))
            .collect();
            println!(
                "branches.deny: {}",
                if denied.is_empty() {
                    "nothing".into()
                } else {
                    denied.join(", ")
                }
            );
            println!("branches.allow_force_push: {}", b.allow_force_push);
            match &b.allowed {
                Some(list) => println!("branches.allowed: {}", list.join(", ")),
                None => println!("branches.allowed: any branch"),
            }
            let scope = crate::scope::Scope::new(&p, &cwd, &|n: &str| std::env::var_os(n));
            println!("scope.root: {}", scope.root.display());
            println!("scope.allow: {}", p.scope.allow.join(", "));
            println!("scope.deny: {}", p.scope.deny.join(", "));
            if p.scope.outside_root.is_empty() {
                println!("scope.outside_root: deny");
            } else {
                println!(
                    "scope.outside_root: allow {}",
                    p.scope.outside_root.join(", ")
                );
            }
            println!(
                "scope.unmodelled_programs: {}",
                p.scope.unmodelled_programs.as_str()
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
