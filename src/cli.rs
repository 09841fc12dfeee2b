//! The command line's types (clap), and `main`: the binary answers to its own name with
//! subcommands, each run by its file in [`crate::commands`], and to each hook's name (an
//! installed link) as that hook.

use crate::args::{parse_host, InstallArgs, LoopCommand, UninstallArgs};
use crate::hooks::{Hook, HookArgs};
use crate::install;
use crate::protocol::host::Host;
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
        Hooks read one event as JSON on stdin and answer in their host's hook format \
        (Claude Code's unless `--host` names another). They are normally run by the host, \
        registered with `did-it-actually install`. \
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
    // The hooks' help comes from the hook table.
    #[command(about = crate::hooks::table::VERIFY_WRITE.summary)]
    VerifyWrite(HookOpts),
    #[command(about = crate::hooks::table::BLOCK_WRONG_BRANCH.summary)]
    BlockWrongBranch(HookOpts),
    #[command(about = crate::hooks::table::SCOPE_GUARD.summary)]
    ScopeGuard(HookOpts),
    #[command(about = crate::hooks::table::AUDIT_TURN.summary)]
    AuditTurn {
        #[command(flatten)]
        opts: HookOpts,
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
    /// What the last turn of a session really did, from the ledger: files written, commands
    /// run, tests, commits and pushes, the guards' refusals, and each claim of the final
    /// message with its evidence. Markdown (for a pull request), or JSON.
    Receipt {
        /// The session [default: the most recently written one].
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        /// Claude Code's transcript of the session: the final message, and the turn's
        /// tool calls as evidence.
        #[arg(long, value_name = "FILE")]
        transcript: Option<PathBuf>,
        /// The final message whose claims to check [default: the transcript's].
        #[arg(long, value_name = "TEXT")]
        message: Option<String>,
        /// The project directory [default: the current directory].
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// Print the receipt as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// A window of time (the last 7 days by default) across every session and project of
    /// this machine's ledger: the guards' refusals by rule, host and layer; the unbacked
    /// claims by class, blocked or only reported; the lost writes; the Claude Code
    /// sessions the guards never saw; sessions and stops per project and host.
    Report {
        /// The window's start: a duration back from now (30m, 12h, 7d, 2w) or a date
        /// (2026-05-01, or 2026-05-01T09:30:00Z in UTC) [default: 7d].
        #[arg(long, value_name = "DURATION|DATE", value_parser = crate::commands::report::parse_since)]
        since: Option<crate::commands::report::Since>,
        /// The window's end, not included: a date (a day is included whole) or an RFC 3339
        /// time in UTC [default: now].
        #[arg(long, value_name = "DATE", value_parser = crate::commands::report::parse_until)]
        until: Option<std::time::SystemTime>,
        /// Only what happened in this directory or under it.
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
        /// Markdown to read, JSON for tools, or one HTML page with a chart.
        #[arg(long, value_enum, default_value = "markdown")]
        format: crate::commands::report::Format,
        /// Write the report to this file instead of standard output.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Completion-promise loops: keep the agent working until it keeps a promise.
    #[command(subcommand)]
    Loop(LoopCommand),
    /// The ledger as OpenTelemetry log records, to the team's collector (on when the
    /// policy's export.otlp is): flush now, or see what waits.
    #[command(subcommand)]
    Export(crate::args::ExportCommand),
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
    /// Remove exactly what `install` added, leaving each file as install found it.
    Uninstall(UninstallArgs),
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
    /// One screen: where the guards are registered (every host), what the policy protects,
    /// and the newest session's last refusals and unlanded writes. Exits 1 when nothing is
    /// registered.
    Status {
        /// The project [default: the git top level of the current directory].
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
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
    /// What git runs for the run-time layer (`reference-transaction`, `pre-push`, and a
    /// hand-over for every other hook): `git-hook NAME ARGS...`, git's input on stdin.
    #[command(hide = true)]
    GitHook {
        /// The git hook's name.
        name: String,
        /// git's arguments to the hook.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<std::ffi::OsString>,
    },
    /// Start any agent inside both run-time layers, with hooks or without.
    ///
    /// Every git it starts, from any script, meets the branch check, and the kernel confines the
    /// writes of the agent and of everything it starts to the project, the temp
    /// directories, the caches of the policy and the agent's own state, where every
    /// host's configuration stays read-only. A layer that cannot be set up stops the
    /// start, with why. The agent replaces this process: same terminal, signals and exit
    /// code.
    #[command(
        after_help = "Examples:\n  did-it-actually run -- aider --yes\n  did-it-actually run -- codex\n  did-it-actually run --dry-run -- gemini"
    )]
    Run {
        /// The project whose policy applies [default: the git repository of the current
        /// directory, else the directory].
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
        /// The agent's name, for where it keeps its state [default: from the program's
        /// name: claude, codex, gemini, qwen, copilot, droid, opencode, aider, pi, …].
        #[arg(long, value_name = "NAME")]
        agent: Option<String>,
        /// Another directory the agent may write. Repeatable.
        #[arg(long, value_name = "DIR")]
        writable: Vec<PathBuf>,
        /// Start without a layer: `git` or `writes`. Repeatable.
        #[arg(long, value_name = "LAYER", value_enum)]
        without: Vec<crate::runtime::run::Layer>,
        /// Print what would be set up (layers, writable places, read-only files, the
        /// variables) and start nothing.
        #[arg(long)]
        dry_run: bool,
        /// The agent's program and its arguments, after `--`.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            required = true,
            value_name = "AGENT"
        )]
        command: Vec<std::ffi::OsString>,
    },
    /// Run a command with its writes, and those of every program it starts, confined by
    /// the kernel to where the policy lets the agent write (Landlock, Linux): the shell
    /// prefix the agent's shell tool runs every command through once install has set it
    /// (Claude Code's CLAUDE_CODE_SHELL_PREFIX).
    Confine {
        /// One command for the shell (how a shell prefix is called), or `--` and a
        /// program with its arguments.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
        command: Vec<std::ffi::OsString>,
    },
}

/// What every hook takes on its command line.
#[derive(Args, Debug, Default)]
pub struct HookOpts {
    /// The host whose event JSON arrives on stdin and whose answer form is printed.
    #[arg(long, value_name = "HOST", default_value = "claude", value_parser = parse_host)]
    pub host: Option<Host>,
    /// The host's name of the event, for hosts whose payload does not name it (Copilot's
    /// camelCase hooks).
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
}

impl HookOpts {
    fn into_args(self, end_turn_tools: Vec<String>) -> HookArgs {
        HookArgs {
            end_turn_tools,
            host: self.host.unwrap_or(Host::Claude),
            event: self.event,
        }
    }
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
    /// Put the policy file in force. The guards apply only a policy the user approved:
    /// a file written or changed by anything else (the agent, a checkout, a pull) waits
    /// for this. Refuses to run under an agent.
    Approve {
        /// The directory whose repository's policy to approve [default: the current directory].
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
    },
    /// Parse the policy that applies to a directory and say what it sets, or what is wrong.
    Check {
        /// The directory whose policy to check [default: the current directory].
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
    },
}

/// The process, as the binary's C `main` runs it (see `src/main.rs`): what Rust's own
/// start-up would have done that matters here, then [`main`]; its exit code.
pub fn process_main() -> i32 {
    // Rust's runtime makes sure 0, 1 and 2 are open (else the first file opened would
    // become stdout or stderr) and ignores SIGPIPE (a host that stops reading gets an
    // error, not a killed hook).
    // SAFETY: plain libc calls on descriptors and a signal disposition, before any
    // thread exists.
    unsafe {
        for fd in 0..3 {
            if libc::fcntl(fd, libc::F_GETFD) == -1 {
                let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
                if null != fd && null >= 0 {
                    libc::close(null);
                }
            }
        }
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let code = match std::panic::catch_unwind(main) {
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
    };
    // Nothing flushes stdout after a C `main` returns.
    let _ = std::io::stdout().flush();
    (0..=u8::MAX)
        .find(|n| ExitCode::from(*n) == code)
        .map_or(1, i32::from)
}

pub fn main() -> ExitCode {
    runner::quiet_panics();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The host runs a hook once per tool call: its plain command lines skip building
    // clap's whole command tree (a quarter of a hook's instructions). Anything else
    // (`--help`, a mistake) goes through clap, which stays the definition.
    if let Some((hook, hook_args)) = hook_fast_path(&args) {
        return run_hook(hook, &hook_args);
    }
    // git runs this in every git process of the agent's: no clap either.
    if args.get(1).is_some_and(|a| a == GIT_HOOK) {
        return crate::runtime::hook::main(&args[2..]);
    }
    // The shell prefix: every command of the agent's shell tool, so no clap either.
    if args.get(1).is_some_and(|a| a == CONFINE)
        && !args.get(2).is_some_and(|a| a == "--help" || a == "-h")
    {
        return crate::runtime::confine::main(&args[2..]);
    }
    // Multicall: a link named after a hook runs that hook.
    if let Some(hook) = linked_hook(&args) {
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
    // A panic here is caught once, in `process_main`.
    dispatch(Cli::parse_from(args).command)
}

/// The subcommand git's hook scripts run (see [`crate::runtime::activation::script`]).
const GIT_HOOK: &str = "git-hook";

/// The subcommand the agent's shell tool runs its commands through.
pub const CONFINE: &str = "confine";

/// The hook a multicall link is named after (`…/bin/scope-guard`), if the binary was
/// started through one.
fn linked_hook(args: &[std::ffi::OsString]) -> Option<Hook> {
    args.first()
        .and_then(|a| Path::new(a).file_name())
        .and_then(|n| n.to_str())
        .and_then(Hook::from_name)
}

/// A hook's command line as the installer writes it (`did-it-actually HOOK [--host H]
/// [--event E]`, `--end-turn-tool T` for audit-turn, or a link named after the hook),
/// read without clap; `None` for anything else, which clap then reads (and explains).
/// `cli::tests::the_fast_path_reads_what_clap_reads` holds the two to the same answers.
fn hook_fast_path(args: &[std::ffi::OsString]) -> Option<(Hook, HookArgs)> {
    let name = |a: &std::ffi::OsString| a.to_str().and_then(Hook::from_name);
    let (hook, rest) = match linked_hook(args) {
        Some(hook) => (hook, args.get(1..)?),
        None => (name(args.get(1)?)?, args.get(2..)?),
    };
    let mut out = HookArgs::default();
    let mut host_given = false;
    let mut i = 0;
    while i < rest.len() {
        let arg = rest[i].to_str()?;
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (arg, None),
        };
        let value = match inline {
            Some(v) => v,
            None => {
                i += 1;
                rest.get(i)?.to_str()?
            }
        };
        match flag {
            // Repeated, clap reports the conflict.
            "--host" if !host_given && !value.is_empty() => {
                out.host = Host::from_name(value)?;
                host_given = true;
            }
            "--event" if out.event.is_none() && !value.starts_with('-') => {
                out.event = Some(value.to_owned())
            }
            "--end-turn-tool" if hook == Hook::AuditTurn && !value.starts_with('-') => {
                out.end_turn_tools.push(value.to_owned())
            }
            _ => return None,
        }
        i += 1;
    }
    Some((hook, out))
}

fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

fn run_hook(hook: Hook, args: &HookArgs) -> ExitCode {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        // A person ran it: waiting for JSON that never comes helps nobody.
        eprintln!(
            "{}: this is a hook: it reads one event as JSON on stdin, as {} sends it, and answers on stdout. \
             It is run by the host, registered with `did-it-actually install`. To try the guards by hand: \
             `did-it-actually explain '<command>'` or `did-it-actually check-path <path>`.",
            hook.name(),
            args.host.spec().title
        );
        return ExitCode::from(2);
    }
    let env = |name: &str| std::env::var_os(name);
    let output = runner::run_hook(hook, args, std::io::stdin().lock(), &env);
    // A closed stdout or stderr cannot be reported anywhere; the exit code still stands.
    // One line, as a shell or a log expects it (every host's JSON reader takes it).
    let mut stdout = output.stdout;
    if !stdout.is_empty() && !stdout.ends_with('\n') {
        stdout.push('\n');
    }
    let _ = std::io::stdout().write_all(stdout.as_bytes());
    let _ = std::io::stderr().write_all(output.stderr.as_bytes());
    ExitCode::from(output.exit_code)
}

fn dispatch(command: Command) -> ExitCode {
    use crate::commands;
    let env = commands::Env::process();
    let stdout = std::io::stdout();
    let mut locked = stdout.lock();
    // On a terminal (and without NO_COLOR) verdicts are coloured; doctor colours its own
    // marks.
    // A report may be JSON or HTML, which colour would break.
    let paint = commands::color(&env)
        && !matches!(command, Command::Doctor { .. } | Command::Report { .. });
    let mut painter;
    let out: &mut dyn Write = if paint {
        painter = commands::Painter::new(&mut locked);
        &mut painter
    } else {
        &mut locked
    };
    let result = match command {
        Command::VerifyWrite(opts) => {
            return run_hook(Hook::VerifyWrite, &opts.into_args(Vec::new()))
        }
        Command::BlockWrongBranch(opts) => {
            return run_hook(Hook::BlockWrongBranch, &opts.into_args(Vec::new()))
        }
        Command::ScopeGuard(opts) => {
            return run_hook(Hook::ScopeGuard, &opts.into_args(Vec::new()))
        }
        Command::AuditTurn {
            opts,
            end_turn_tool,
        } => return run_hook(Hook::AuditTurn, &opts.into_args(end_turn_tool)),
        Command::Audit {
            transcript,
            message,
            prompt_id,
            session,
            cwd,
            json,
            explain,
        } => commands::audit::run(
            &transcript,
            message,
            prompt_id,
            session,
            cwd,
            json,
            explain,
            &env,
            out,
        ),
        Command::Loop(cmd) => commands::loops::run(cmd, &env, out),
        Command::Export(cmd) => commands::export::run(cmd, &env, out),
        Command::CheckPath { path, cwd, json } => {
            commands::check_path::run(&path, cwd, json, &env, out)
        }
        Command::Explain { command, cwd, json } => {
            commands::explain::run(&command, cwd, json, &env, out)
        }
        Command::Install(args) => commands::install::run(&args, false, &env, out),
        Command::Uninstall(args) => commands::install::run(&args.into(), true, &env, out),
        Command::Policy(PolicyCommand::Check { cwd }) => commands::policy::check(cwd, &env, out),
        Command::Policy(PolicyCommand::Approve { cwd }) => {
            commands::policy::approve(cwd, &env, out)
        }
        Command::Policy(PolicyCommand::Init { cwd, strict }) => {
            commands::policy::init(cwd, strict, &env, out)
        }
        Command::Doctor { project, json } => commands::doctor::run(project, json, &env, out),
        Command::Log {
            session,
            turn,
            failed,
            json,
        } => commands::log::run(session, turn, failed, json, &env, out),
        Command::Status { project } => commands::status::run(project, &env, out),
        Command::Receipt {
            session,
            transcript,
            message,
            cwd,
            json,
        } => commands::receipt::run(
            commands::receipt::Args {
                session,
                transcript,
                message,
                cwd,
                json,
            },
            &env,
            out,
        ),
        Command::Report {
            since,
            until,
            project,
            format,
            output,
        } => commands::report::run(
            commands::report::Args {
                since,
                until,
                project,
                format,
                output,
            },
            &env,
            out,
        ),
        Command::HookNames => Hook::ALL
            .iter()
            .try_for_each(|h| writeln!(out, "{}", h.name()))
            .map(|()| ExitCode::SUCCESS)
            .map_err(Into::into),
        Command::PluginHooks => write!(out, "{}", install::plugin_hooks_json(&Hook::ALL))
            .map(|()| ExitCode::SUCCESS)
            .map_err(Into::into),
        // Reached when the fast path did not take it (`git-hook --help`).
        Command::GitHook { name, args } => {
            let mut all = vec![std::ffi::OsString::from(name)];
            all.extend(args);
            Ok(crate::runtime::hook::main(&all))
        }
        Command::Confine { command } => Ok(crate::runtime::confine::main(&command)),
        Command::Run {
            project,
            agent,
            writable,
            without,
            dry_run,
            mut command,
        } => {
            let program = command.remove(0);
            let req = crate::runtime::run::Request {
                program,
                args: command,
                project,
                agent,
                writable,
                without,
            };
            commands::run::run(req, dry_run, &env, out)
        }
    };
    match result {
        Ok(code) => code,
        Err(commands::CommandError::OutputClosed) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("did-it-actually: {e}");
            ExitCode::from(1)
        }
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

    /// What clap makes of a hook's command line, as `dispatch` would run it.
    fn by_clap(args: &[&str]) -> Option<(Hook, HookArgs)> {
        let cli = Cli::try_parse_from(args).ok()?;
        Some(match cli.command {
            Command::VerifyWrite(o) => (Hook::VerifyWrite, o.into_args(Vec::new())),
            Command::BlockWrongBranch(o) => (Hook::BlockWrongBranch, o.into_args(Vec::new())),
            Command::ScopeGuard(o) => (Hook::ScopeGuard, o.into_args(Vec::new())),
            Command::AuditTurn {
                opts,
                end_turn_tool,
            } => (Hook::AuditTurn, opts.into_args(end_turn_tool)),
            _ => return None,
        })
    }

    #[test]
    fn the_fast_path_reads_what_clap_reads() {
        let lines: &[&[&str]] = &[
            &["did-it-actually", "verify-write"],
            &["did-it-actually", "block-wrong-branch", "--host", "codex"],
            &["did-it-actually", "scope-guard", "--host=gemini"],
            &[
                "did-it-actually",
                "audit-turn",
                "--host",
                "copilot",
                "--event",
                "agentStop",
            ],
            &[
                "did-it-actually",
                "audit-turn",
                "--end-turn-tool",
                "end_turn",
                "--end-turn-tool=done",
            ],
            &["/usr/local/bin/scope-guard"],
            &["/x/audit-turn", "--host", "droid"],
            &["did-it-actually", "--host", "codex", "verify-write"],
            &["did-it-actually", "verify-write", "--host", "nope"],
            &["did-it-actually", "verify-write", "--host"],
            &[
                "did-it-actually",
                "verify-write",
                "--host",
                "codex",
                "--host",
                "qwen",
            ],
            &["did-it-actually", "verify-write", "--end-turn-tool", "x"],
            &["did-it-actually", "verify-write", "--help"],
            &["did-it-actually", "verify-write", "extra"],
            &["did-it-actually", "verify-write", "--event", "--host"],
            &["did-it-actually", "audit-turn", "--end-turn-tool"],
            &["did-it-actually", "explain", "ls"],
            &["did-it-actually"],
        ];
        for line in lines {
            let os: Vec<std::ffi::OsString> = line.iter().map(Into::into).collect();
            let fast = hook_fast_path(&os);
            // A link is read by clap as the subcommand of the same name.
            let as_clap: Vec<&str> = match Path::new(line[0]).file_name().and_then(|n| n.to_str()) {
                Some(n) if Hook::from_name(n).is_some() => {
                    [&["did-it-actually", n][..], &line[1..]].concat()
                }
                _ => line.to_vec(),
            };
            let slow = by_clap(&as_clap);
            match (&fast, &slow) {
                (Some((h1, a1)), Some((h2, a2))) => {
                    assert_eq!(h1, h2, "{line:?}");
                    assert_eq!(a1.host, a2.host, "{line:?}");
                    assert_eq!(a1.event, a2.event, "{line:?}");
                    assert_eq!(a1.end_turn_tools, a2.end_turn_tools, "{line:?}");
                }
                // The fast path may leave a line to clap, never read one clap refuses.
                (None, _) => {}
                (Some(_), None) => panic!("the fast path read {line:?}, which clap refuses"),
            }
        }
        assert!(hook_fast_path(&["did-it-actually".into(), "verify-write".into()]).is_some());
    }
}
