//! The CLI commands, one file each. Every command is a function from its arguments, the
//! [`Env`] and an output writer to an exit status, or a [`CommandError`] that `main`
//! prints. The argument types live in [`crate::args`]; the hooks themselves run through
//! [`crate::runner`].

pub mod audit;
pub mod check_path;
pub mod doctor;
pub mod explain;
pub mod export;
pub mod install;
pub mod log;
pub mod loops;
pub mod managed;
pub mod policy;
pub mod receipt;
pub mod report;
pub mod run;
pub mod status;

pub(crate) use crate::args::{InstallArgs, LoopCommand};
pub(crate) use crate::hooks::Hook;
pub(crate) use crate::install::Applied;
pub(crate) use crate::policy::Policy;
pub(crate) use std::ffi::OsString;
pub(crate) use std::io::Write;
pub(crate) use std::path::{Path, PathBuf};
pub(crate) use std::process::ExitCode;

/// A variable lookup: the shape every shared service takes the environment in.
pub type Lookup = dyn Fn(&str) -> Option<OsString>;

/// What a command may consult besides its arguments: the process environment (a
/// function, so a test can give its own) and the working directory.
pub struct Env {
    var: Box<Lookup>,
    cwd: Option<PathBuf>,
}

impl Env {
    /// The real process environment and working directory.
    pub fn process() -> Env {
        Env {
            var: Box::new(|n: &str| std::env::var_os(n)),
            cwd: std::env::current_dir().ok(),
        }
    }

    /// An environment of given variables, in `cwd`.
    pub fn fixed(vars: Vec<(String, OsString)>, cwd: PathBuf) -> Env {
        Env {
            var: Box::new(move |n: &str| vars.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone())),
            cwd: Some(cwd),
        }
    }

    pub fn var(&self, name: &str) -> Option<OsString> {
        (self.var)(name)
    }

    /// The variable lookup, as the shared services take it.
    pub fn as_fn(&self) -> &Lookup {
        &*self.var
    }

    /// `--cwd DIR` as given, or the working directory; absolute either way.
    pub fn working_dir(&self, cwd: Option<PathBuf>) -> Result<PathBuf, String> {
        let cwd = match cwd.or_else(|| self.cwd.clone()) {
            Some(c) => c,
            None => return Err("cannot read the current directory".into()),
        };
        Ok(std::path::absolute(&cwd).unwrap_or(cwd))
    }
}

/// Why a command stopped before the end of its work.
#[derive(Debug, PartialEq, Eq)]
pub enum CommandError {
    /// It could not do its work: the message says why, for the reader; the process
    /// exits 1.
    Failed(String),
    /// Whoever read the output stopped reading (`| head`): there is no one left to tell,
    /// and nothing went wrong, so the process exits 0 without a word, as ripgrep does.
    OutputClosed,
}

impl CommandError {
    pub fn new(message: impl std::fmt::Display) -> CommandError {
        CommandError::Failed(message.to_string())
    }
}

impl From<std::io::Error> for CommandError {
    fn from(e: std::io::Error) -> Self {
        match e.kind() {
            std::io::ErrorKind::BrokenPipe => CommandError::OutputClosed,
            _ => CommandError::Failed(format!("cannot write the output: {e}")),
        }
    }
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::Failed(message) => f.write_str(message),
            CommandError::OutputClosed => f.write_str("the output was closed"),
        }
    }
}

/// The working directory (see [`Env::working_dir`]) and the policy in force there.
/// `consequence` tells the reader of a policy error what the hooks do meanwhile.
pub(crate) fn cwd_and_policy(
    env: &Env,
    cwd: Option<PathBuf>,
    consequence: &str,
) -> Result<(PathBuf, Policy), String> {
    let cwd = env.working_dir(cwd)?;
    let policy = Policy::in_force(&cwd, env.as_fn()).map_err(|e| format!("{e}{consequence}"))?;
    Ok((cwd, policy))
}

pub(crate) fn print_json(out: &mut dyn Write, value: &serde_json::Value) -> std::io::Result<()> {
    writeln!(
        out,
        "{}",
        serde_json::to_string_pretty(value).expect("JSON values serialize")
    )
}

/// `--project DIR` as given (install and doctor must agree on it), else the git top
/// level of the working directory.
pub(crate) fn project_arg(env: &Env, project: Option<PathBuf>) -> Result<PathBuf, String> {
    match project {
        Some(p) => env.working_dir(Some(p)),
        None => project_dir(env, None),
    }
}

pub(crate) fn project_dir(env: &Env, cwd: Option<PathBuf>) -> Result<PathBuf, String> {
    let cwd = env.working_dir(cwd)?;
    Ok(crate::policy::repo_root(&cwd).unwrap_or(cwd))
}

/// Whether output may be coloured: a terminal, and no `NO_COLOR`.
pub(crate) fn color(env: &Env) -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && env.var("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// A writer that colours whole lines by what they say (verdicts, backed and unbacked
/// claims, refused rows) on the way to a terminal; everything else passes as it is.
pub(crate) struct Painter<'a> {
    inner: &'a mut dyn Write,
    line: Vec<u8>,
}

impl<'a> Painter<'a> {
    pub(crate) fn new(inner: &'a mut dyn Write) -> Painter<'a> {
        Painter {
            inner,
            line: Vec::new(),
        }
    }

    fn flush_line(&mut self) -> std::io::Result<()> {
        let text = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        let body = text.trim_end_matches('\n');
        let red = [
            "verdict: deny",
            "scope verdict: deny",
            "NOT backed",
            "verdict: the stop would be blocked",
            "failure not mentioned",
            "WARNING",
        ];
        let green = [
            "verdict: allow",
            "scope verdict: allow",
            "backed:",
            "verdict: the stop would go through",
        ];
        let code = if red.iter().any(|p| body.starts_with(p)) || body.contains(" refused ") {
            Some("31")
        } else if green.iter().any(|p| body.starts_with(p)) {
            Some("32")
        } else {
            None
        };
        match code {
            Some(c) => write!(self.inner, "\x1b[{c}m{body}\x1b[0m{}", &text[body.len()..]),
            None => self.inner.write_all(text.as_bytes()),
        }
    }
}

impl Write for Painter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            self.line.push(b);
            if b == b'\n' {
                self.flush_line()?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.line.is_empty() {
            self.flush_line()?;
        }
        self.inner.flush()
    }
}

impl Drop for Painter<'_> {
    fn drop(&mut self) {
        let _ = Write::flush(self);
    }
}
