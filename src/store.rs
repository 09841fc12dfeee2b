//! The state the hooks share: one directory per session holding the write log
//! (`writes.jsonl`, append-only, one [`WriteRecord`] per line) and, beside it, loop state.
//!
//! PostToolUse hooks of one batch run in parallel, so appends take an exclusive advisory
//! lock and write each record with a single `write` call: records are never lost or
//! interleaved. A reader skips (and counts) lines it cannot parse, so a torn line from a
//! crashed writer never poisons the rest.

use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The write log's file name inside a session directory.
pub const WRITE_LOG: &str = "writes.jsonl";
/// When the last turn ended, for hosts whose session file is not read.
const TURN_ENDED: &str = "turn-ended";
/// The current record version. Readers skip records of other versions (and count them).
pub const RECORD_VERSION: u32 = 1;
/// Session ids longer than this are refused (real ones are 36-byte UUIDs).
pub const MAX_SESSION_ID_BYTES: usize = 128;

/// Where state lives: `$DID_IT_ACTUALLY_STATE_DIR`, else `$XDG_STATE_HOME/did-it-actually`,
/// else `~/.local/state/did-it-actually`. `env` is the process environment (a parameter so
/// tests can pass their own).
pub fn state_root(env: impl Fn(&str) -> Option<OsString>) -> Result<PathBuf, StoreError> {
    let non_empty = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = non_empty("DID_IT_ACTUALLY_STATE_DIR") {
        return Ok(dir);
    }
    if let Some(dir) = non_empty("XDG_STATE_HOME").filter(|d| d.is_absolute()) {
        return Ok(dir.join("did-it-actually"));
    }
    match non_empty("HOME") {
        Some(home) => Ok(home.join(".local/state/did-it-actually")),
        None => Err(StoreError::NoStateDir),
    }
}

/// The session whose write log was written last under `root`, if any.
pub fn newest_session(root: &Path) -> Option<String> {
    sessions_newest_first(root).into_iter().next()
}

/// The sessions with a write log under `root`, the newest first.
pub fn sessions_newest_first(root: &Path) -> Vec<String> {
    let mut all: Vec<(std::time::SystemTime, String)> = fs::read_dir(root.join("sessions"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let modified = e.path().join(WRITE_LOG).metadata().ok()?.modified().ok()?;
            Some((modified, e.file_name().to_string_lossy().into_owned()))
        })
        .collect();
    all.sort_by(|a, b| b.cmp(a));
    all.into_iter().map(|(_, s)| s).collect()
}

/// A session id that is safe to use as a directory name: it comes from stdin and must
/// never escape the state directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionId(String);

impl SessionId {
    pub fn parse(raw: &str) -> Result<SessionId, StoreError> {
        let invalid = |why: &'static str| StoreError::InvalidSessionId {
            id: raw.chars().take(40).collect(),
            why,
        };
        if raw.is_empty() {
            return Err(invalid("it is empty"));
        }
        if raw.len() > MAX_SESSION_ID_BYTES {
            return Err(invalid("it is longer than 128 bytes"));
        }
        if raw.starts_with('.') {
            return Err(invalid("it starts with a dot"));
        }
        if !raw
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        {
            return Err(invalid(
                "only letters, digits, '-', '_' and '.' are allowed",
            ));
        }
        Ok(SessionId(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What a write did, from the tool's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    Write,
    Edit,
    MultiEdit,
    NotebookEdit,
    MoveFrom,
    MoveTo,
    CreateDirectory,
    /// A file a patch deleted.
    Delete,
}

/// How a verification ended. Only [`Outcome::Landed`] and [`Outcome::ChangedAfter`] count
/// as a write that happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The disk holds exactly what the tool was asked to write.
    Landed,
    /// The write landed, then something else changed the file; the written text is
    /// still there.
    ChangedAfter,
    /// No file (or directory) at the path.
    Missing,
    /// Something other than what was expected is at the path (a directory, a FIFO, ...).
    WrongType,
    /// The file exists but could not be read.
    Unreadable,
    /// The file still holds its content from before the write.
    NotLanded,
    /// The file is empty although content was written.
    Empty,
    /// The file holds a prefix of what was written.
    Truncated,
    /// The text the edit put in is not in the file.
    TextAbsent,
    /// The file holds something else.
    Differs,
    /// A move's source is still there.
    SourceRemains,
    /// The tool itself reported an error; nothing was written.
    ToolFailed,
    /// What the host sent can neither confirm nor refute the write (a deletion without
    /// the file's previous content); the file exists.
    Unconfirmed,
    /// The call never ran: a hook (ours or another) or a permission rule refused it, and
    /// the agent was told so. Not a lost write.
    Refused,
}

impl Outcome {
    pub fn is_verified(self) -> bool {
        matches!(self, Outcome::Landed | Outcome::ChangedAfter)
    }

    /// A write that was never attempted, or failed in front of the agent: the agent saw
    /// the error, so it is not a silent loss to report or to redo.
    pub fn agent_was_told(self) -> bool {
        matches!(self, Outcome::ToolFailed | Outcome::Refused)
    }

    /// The name as it appears in the log (`not_landed`).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Landed => "landed",
            Outcome::ChangedAfter => "changed_after",
            Outcome::Missing => "missing",
            Outcome::WrongType => "wrong_type",
            Outcome::Unreadable => "unreadable",
            Outcome::NotLanded => "not_landed",
            Outcome::Empty => "empty",
            Outcome::Truncated => "truncated",
            Outcome::TextAbsent => "text_absent",
            Outcome::Differs => "differs",
            Outcome::SourceRemains => "source_remains",
            Outcome::ToolFailed => "tool_failed",
            Outcome::Unconfirmed => "unconfirmed",
            Outcome::Refused => "refused",
        }
    }
}

/// One line of the write log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WriteRecord {
    pub v: u32,
    /// RFC 3339, UTC.
    pub time: String,
    pub session: String,
    /// The turn (the user prompt) the write belongs to.
    pub prompt_id: Option<String>,
    pub tool_use_id: Option<String>,
    /// The host event that verified it (PostToolUse, PostToolBatch, PostToolUseFailure).
    pub event: String,
    /// The tool's normalized name.
    pub tool: String,
    /// The canonical path (symlinks resolved where the path exists).
    pub path: String,
    pub op: Operation,
    pub verified: bool,
    pub outcome: Outcome,
    pub reason: Option<String>,
    /// SHA-256 of the file on disk after the write, when it is a readable file.
    pub sha256: Option<String>,
    pub size: Option<u64>,
    /// The host whose hook wrote the record (`codex`, `gemini`, …); absent: Claude Code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

/// One line of the ledger recording a tool call a guard refused before it ran. Allows are
/// not recorded: a guard that lets a call through costs no write.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DenialRecord {
    pub v: u32,
    /// Always [`DenialKind::Denial`]: what tells this line from a [`WriteRecord`].
    pub kind: DenialKind,
    /// RFC 3339, UTC.
    pub time: String,
    pub session: String,
    pub prompt_id: Option<String>,
    pub tool_use_id: Option<String>,
    /// The host event the guard answered (PreToolUse).
    pub event: String,
    /// The guard that refused (`scope-guard`).
    pub hook: String,
    /// The tool's normalized name.
    pub tool: String,
    /// What the call would have touched: paths for a write tool, the command for a shell.
    pub targets: Vec<String>,
    /// The rule that decided, when the guard names one apart from its reason.
    pub rule: Option<String>,
    /// The reason the agent was given.
    pub reason: String,
    /// The host whose hook refused it; absent: Claude Code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// The layer that refused: [`BY_RUN_TIME`] for git's own hooks; absent: the static
    /// layer (a hook before the tool ran).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// The directory the refused call ran in (which project it belongs to, for
    /// `status`); absent in records written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
}

/// [`DenialRecord::by`] of a refusal made inside git, at run time.
pub const BY_RUN_TIME: &str = "run-time";

/// The marker of a [`DenialRecord`] (`"kind": "denial"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DenialKind {
    Denial,
}

/// One line of the ledger recording a shell command the agent ran, as the host reported
/// it after the call: the turn's evidence on hosts whose own session file is not read
/// (what ran, where, whether it failed, and a bounded head and tail of its output).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub v: u32,
    /// Always [`RunKind::Run`]: what tells this line from the others.
    pub kind: RunKind,
    /// RFC 3339, UTC.
    pub time: String,
    pub session: String,
    pub prompt_id: Option<String>,
    pub tool_use_id: Option<String>,
    /// The host event (PostToolUse, PostToolUseFailure).
    pub event: String,
    /// The tool's name in the suite's vocabulary (`Bash`).
    pub tool: String,
    pub command: String,
    pub cwd: String,
    /// Whether the host reported the call as failed (a non-zero exit, an error).
    pub failed: bool,
    /// The output the host reported: whole up to [`RUN_OUTPUT_KEEP`] bytes, else its
    /// head and tail with the count of what was left out between them.
    pub output: String,
    /// The output's whole length, in bytes.
    pub output_bytes: u64,
    /// The host whose hook recorded it; absent: Claude Code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

/// The marker of a [`RunRecord`] (`"kind": "run"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunKind {
    Run,
}

/// How much of a command's output a run record keeps: this many bytes, half from its
/// start and half from its end (a runner's summary is at the end).
pub const RUN_OUTPUT_KEEP: usize = 8 * 1024;

/// `output` cut to [`RUN_OUTPUT_KEEP`] bytes (head and tail, at character boundaries of
/// its lossy UTF-8 reading), and its whole length.
pub fn bounded_output(output: &[u8]) -> (String, u64) {
    let whole = output.len() as u64;
    if output.len() <= RUN_OUTPUT_KEEP {
        return (String::from_utf8_lossy(output).into_owned(), whole);
    }
    let half = RUN_OUTPUT_KEEP / 2;
    let head = String::from_utf8_lossy(&output[..half]);
    let tail = String::from_utf8_lossy(&output[output.len() - half..]);
    let left_out = output.len() - 2 * half;
    (
        format!("{head}\n[… {left_out} bytes of output left out …]\n{tail}"),
        whole,
    )
}

/// The marker of an [`AuditRecord`] (`"kind": "audit"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuditKind {
    Audit,
}

/// audit-turn's reading of a final message at a stop: the message, and each claim with
/// its evidence or why it is not backed. The receipt shows it as audit-turn judged it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditRecord {
    pub v: u32,
    /// Always [`AuditKind::Audit`]: what tells this line from the others.
    pub kind: AuditKind,
    /// RFC 3339, UTC.
    pub time: String,
    pub session: String,
    pub prompt_id: Option<String>,
    /// `main`, or the subagent's id.
    pub agent: String,
    /// The final message, kept as a run's output is ([`bounded_output`]).
    pub message: String,
    pub claims: Vec<ClaimVerdict>,
    /// Whether the stop was refused (the agent sent back).
    pub blocked: bool,
    /// The host whose hook recorded it; absent: Claude Code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

/// One claim of an audited message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimVerdict {
    /// What the claim says happened ("file src/a.rs changed").
    pub claim: String,
    pub sentence: String,
    pub backed: bool,
    /// The evidence, or why it is not backed.
    pub detail: String,
    /// For an unbacked claim: whether it blocks (a strong reading) or is only reported.
    pub blocks: bool,
}

/// One line of the ledger: a write checked by verify-write, a call a guard refused, a
/// shell command that ran, or audit-turn's reading of a final message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Record {
    /// Tried first: only a denial, a run and an audit have `kind`.
    Denial(DenialRecord),
    Run(RunRecord),
    Audit(AuditRecord),
    Write(WriteRecord),
}

impl Record {
    /// When it was written (RFC 3339, UTC).
    pub fn time(&self) -> &str {
        match self {
            Record::Denial(d) => &d.time,
            Record::Run(r) => &r.time,
            Record::Audit(a) => &a.time,
            Record::Write(w) => &w.time,
        }
    }

    fn version(&self) -> u32 {
        match self {
            Record::Denial(d) => d.v,
            Record::Run(r) => r.v,
            Record::Audit(a) => a.v,
            Record::Write(w) => w.v,
        }
    }

    pub fn prompt_id(&self) -> Option<&str> {
        match self {
            Record::Denial(d) => d.prompt_id.as_deref(),
            Record::Run(r) => r.prompt_id.as_deref(),
            Record::Audit(a) => a.prompt_id.as_deref(),
            Record::Write(w) => w.prompt_id.as_deref(),
        }
    }
}

impl From<WriteRecord> for Record {
    fn from(r: WriteRecord) -> Record {
        Record::Write(r)
    }
}

impl From<RunRecord> for Record {
    fn from(r: RunRecord) -> Record {
        Record::Run(r)
    }
}

impl From<DenialRecord> for Record {
    fn from(r: DenialRecord) -> Record {
        Record::Denial(r)
    }
}

/// Problems with the state directory. Each message names the path involved.
#[derive(Debug)]
pub enum StoreError {
    NoStateDir,
    InvalidSessionId {
        id: String,
        why: &'static str,
    },
    Io {
        path: PathBuf,
        action: &'static str,
        source: io::Error,
    },
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::NoStateDir => write!(
                f,
                "no state directory: set DID_IT_ACTUALLY_STATE_DIR, XDG_STATE_HOME or HOME"
            ),
            StoreError::InvalidSessionId { id, why } => {
                write!(f, "session id {id:?} cannot name a state directory: {why}")
            }
            StoreError::Io {
                path,
                action,
                source,
            } => {
                write!(
                    f,
                    "could not {action} {}: {}",
                    path.display(),
                    crate::fsutil::describe_io(source)
                )
            }
        }
    }
}

impl std::error::Error for StoreError {}

fn io_err<'a>(path: &'a Path, action: &'static str) -> impl FnOnce(io::Error) -> StoreError + 'a {
    move |source| StoreError::Io {
        path: path.to_owned(),
        action,
        source,
    }
}

/// One session's directory under the state root.
#[derive(Clone, Debug)]
pub struct SessionStore {
    root: PathBuf,
    dir: PathBuf,
}

impl SessionStore {
    pub fn new(root: &Path, session: &SessionId) -> SessionStore {
        SessionStore {
            root: root.to_owned(),
            dir: root.join("sessions").join(session.as_str()),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn write_log_path(&self) -> PathBuf {
        self.dir.join(WRITE_LOG)
    }

    /// When the session's last turn ended (a stop that went through), on hosts whose
    /// own session file is not read: the next turn's records are those after it.
    pub fn turn_ended(&self) -> Option<SystemTime> {
        self.turn_ends().pop()
    }

    /// When each of the session's turns ended, oldest first (the newest 64).
    pub fn turn_ends(&self) -> Vec<SystemTime> {
        let text =
            crate::fsutil::read_regular(&self.dir.join(TURN_ENDED), 4096).unwrap_or_default();
        String::from_utf8_lossy(&text)
            .lines()
            .filter_map(|l| crate::time::parse_rfc3339(l.trim()))
            .collect()
    }

    /// Records that a turn ended at `at`, keeping the newest 64 ends.
    pub fn mark_turn_ended(&self, at: SystemTime) -> Result<(), StoreError> {
        let path = self.dir.join(TURN_ENDED);
        fs::create_dir_all(&self.dir).map_err(io_err(&self.dir, "create"))?;
        let mut ends = self.turn_ends();
        ends.push(at);
        let keep = ends.len().saturating_sub(64);
        let text: String = ends[keep..]
            .iter()
            .map(|t| format!("{}\n", crate::time::rfc3339(*t)))
            .collect();
        crate::fsutil::write_atomically(&path, text.as_bytes()).map_err(io_err(&path, "write"))
    }

    /// Creates the session directory if needed; returns true when it is new (the moment
    /// to prune other sessions: once per session, not once per tool call).
    fn ensure_dir(&self) -> Result<bool, StoreError> {
        if self.dir.is_dir() {
            return Ok(false);
        }
        fs::create_dir_all(&self.dir).map_err(io_err(&self.dir, "create the state directory"))?;
        Ok(true)
    }

    /// Appends records under an exclusive lock, all in one write. Returns whether the
    /// session directory was created by this call.
    pub fn append(&self, records: &[Record]) -> Result<bool, StoreError> {
        if records.is_empty() {
            return Ok(false);
        }
        let created = self.ensure_dir()?;
        let path = self.write_log_path();
        // Read too: the last byte says whether the log ends on a line.
        let mut file = crate::fsutil::open_checked(
            &path,
            OpenOptions::new().create(true).read(true).append(true),
        )
        .map_err(io_err(&path, "open the write log"))?;
        file.lock().map_err(io_err(&path, "lock the write log"))?;
        // Each record carries the link of the chain (see [`chain`]), from the last record
        // that has one: read under the lock, so no other writer comes between.
        let mut prev = chain::last(&path);
        let mut buf = Vec::with_capacity(600 * records.len());
        for record in records {
            // Serializing a plain struct of strings and numbers cannot fail.
            let body = serde_json::to_vec(record).expect("a record serializes");
            prev = chain::push_linked(&mut buf, &prev, &body);
            buf.push(b'\n');
        }
        append_lines(&mut file, buf, |f, b| f.write_all(b))
            .map_err(io_err(&path, "append to the write log"))?;
        Ok(created)
    }

    /// Every record of the session, oldest first.
    pub fn read_write_log(&self) -> Result<LogRead, StoreError> {
        let path = self.write_log_path();
        match File::open(&path) {
            Ok(file) => {
                read_records(BufReader::new(file)).map_err(io_err(&path, "read the write log"))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(LogRead::default()),
            Err(e) => Err(io_err(&path, "open the write log")(e)),
        }
    }

    /// The records of one turn: read backward from the end of the log until a record of
    /// another turn (a session's turns follow each other), so the cost is the turn's, not
    /// the log's.
    pub fn read_turn_records(&self, prompt_id: Option<&str>) -> Result<LogRead, StoreError> {
        let path = self.write_log_path();
        let mut out = LogRead::default();
        let result = crate::fsutil::lines_backward(&path, |line| {
            match serde_json::from_slice::<Record>(line) {
                Ok(r) if r.prompt_id() != prompt_id => false,
                Ok(r) => {
                    out.add(r);
                    true
                }
                Err(_) => {
                    out.torn += 1;
                    true
                }
            }
        });
        match result {
            Ok(()) => {
                // Read backward: each list oldest first again.
                out.records.reverse();
                out.denials.reverse();
                out.runs.reverse();
                out.audits.reverse();
                Ok(out)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(LogRead::default()),
            Err(e) => Err(io_err(&path, "read the write log")(e)),
        }
    }

    /// The write-log records of a turn: by its prompt id; without one, those written since
    /// the turn started (the transcript's turn boundary), read backward from the end.
    pub fn read_turn_log(
        &self,
        prompt_id: Option<&str>,
        started: Option<SystemTime>,
    ) -> Result<LogRead, StoreError> {
        let store = self;
        if prompt_id.is_some() {
            return store.read_turn_records(prompt_id);
        }
        let Some(start) = started else {
            // Neither the turn nor its start is known: the newest records of one prompt.
            let mut last: Option<Option<String>> = None;
            let _ = crate::fsutil::lines_backward(&store.write_log_path(), |line| {
                match serde_json::from_slice::<Record>(line) {
                    Ok(Record::Write(w)) => {
                        last = Some(w.prompt_id);
                        false
                    }
                    Ok(Record::Denial(d)) => {
                        last = Some(d.prompt_id);
                        false
                    }
                    Ok(Record::Run(r)) => {
                        last = Some(r.prompt_id);
                        false
                    }
                    // An audit ends a turn: it is no evidence of the next one.
                    Ok(Record::Audit(_)) | Err(_) => true,
                }
            });
            return store.read_turn_records(last.flatten().as_deref());
        };
        // A transcript's clock and the records' may differ by a little.
        store.read_since(start, Duration::from_secs(2), prompt_id)
    }

    /// The records written at `start` or later (less `slack`), read backward from the end.
    pub fn read_since(
        &self,
        start: SystemTime,
        slack: Duration,
        prompt_id: Option<&str>,
    ) -> Result<LogRead, StoreError> {
        let store = self;
        let mut out = LogRead::default();
        let result = crate::fsutil::lines_backward(&store.write_log_path(), |line| {
            match serde_json::from_slice::<Record>(line) {
                Ok(r) => {
                    let t = crate::time::parse_rfc3339(r.time());
                    if t.is_some_and(|t| t + slack < start) {
                        return false;
                    }
                    match r {
                        Record::Write(w) if w.v == RECORD_VERSION => out.records.push(w),
                        Record::Denial(d) if d.v == RECORD_VERSION => out.denials.push(d),
                        Record::Run(r) if r.v == RECORD_VERSION => out.runs.push(r),
                        Record::Audit(a) if a.v == RECORD_VERSION => out.audits.push(a),
                        _ => out.other_version += 1,
                    }
                    true
                }
                Err(_) => {
                    out.torn += 1;
                    true
                }
            }
        });
        match result {
            Ok(()) => {
                // Read backward: each list oldest first again.
                out.records.reverse();
                out.denials.reverse();
                out.runs.reverse();
                out.audits.reverse();
                Ok(out)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(LogRead::default()),
            Err(_) => store.read_turn_records(prompt_id),
        }
    }

    /// Removes the directories of sessions untouched for longer than `max_age`. This
    /// session is never removed, nor is any session written within `max_age` (in use).
    pub fn prune_others(&self, max_age: Duration, now: SystemTime) -> PruneReport {
        let mut report = PruneReport::default();
        let sessions = self.root.join("sessions");
        let Ok(entries) = fs::read_dir(&sessions) else {
            return report;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path == self.dir || !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let idle = now
                .duration_since(last_modified(&path))
                .unwrap_or(Duration::ZERO);
            if idle <= max_age {
                continue;
            }
            // Records the exporter has not yet handed over are kept until it has: the
            // ledger is its queue.
            if crate::export::unsent_bytes(&path).is_some_and(|b| b > 0) {
                report.kept_for_export += 1;
                continue;
            }
            match fs::remove_dir_all(&path) {
                Ok(()) => report.removed += 1,
                Err(e) => report.errors.push(format!("{}: {e}", path.display())),
            }
        }
        report
    }
}

/// Appends `lines` (whole lines) to a locked log with `write`, never leaving part of a
/// line behind: when the log ends inside a line (a writer killed mid-record), they start
/// on a fresh line, so the fragment stays a torn line of its own instead of swallowing the
/// first record; when the write fails part-way (a full disk), the log is cut back to its
/// length before.
/// The ledger as evidence: each record ends with `"chain": H`, where `H` is the SHA-256
/// of the previous record's `H` and this record without it. An edited, inserted or
/// removed record breaks the chain from there, which `doctor` and `receipt` say. The
/// records of a ledger from before the chain (no link) are read as they are, and said to
/// be unchained; an unlinked record after a linked one is an edit.
pub mod chain {
    use std::io;
    use std::path::Path;

    const KEY: &[u8] = b",\"chain\":\"";
    /// `,"chain":"` + 64 hex digits + `"}`.
    const SUFFIX_LEN: usize = KEY.len() + 64 + 2;

    /// The link a record line ends with, and the line without it (as the record was
    /// serialized), if it has one.
    pub fn split(line: &[u8]) -> Option<(&str, Vec<u8>)> {
        let n = line.len();
        if n < SUFFIX_LEN + 2 || !line.ends_with(b"\"}") {
            return None;
        }
        let start = n - SUFFIX_LEN;
        if &line[start..start + KEY.len()] != KEY {
            return None;
        }
        let hex = std::str::from_utf8(&line[start + KEY.len()..n - 2]).ok()?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut body = line[..start].to_vec();
        body.push(b'}');
        Some((hex, body))
    }

    pub fn link(prev: &str, body: &[u8]) -> String {
        let mut seed = Vec::with_capacity(prev.len() + 1 + body.len());
        seed.extend_from_slice(prev.as_bytes());
        seed.push(b'\n');
        seed.extend_from_slice(body);
        crate::fsutil::sha256_hex(&seed)
    }

    /// Writes `body` (a serialized record, `{…}`) with its link after `prev`; the link.
    pub fn push_linked(buf: &mut Vec<u8>, prev: &str, body: &[u8]) -> String {
        let h = link(prev, body);
        buf.extend_from_slice(&body[..body.len() - 1]);
        buf.extend_from_slice(KEY);
        buf.extend_from_slice(h.as_bytes());
        buf.extend_from_slice(b"\"}");
        h
    }

    /// The link of the last linked record (a torn line after it is skipped); empty for a
    /// log with none.
    pub fn last(path: &Path) -> String {
        let mut found = String::new();
        let mut seen = 0;
        let _ = crate::fsutil::lines_backward(path, |line| {
            seen += 1;
            if let Some((h, _)) = split(line) {
                found = h.to_owned();
                return false;
            }
            seen < 64
        });
        found
    }

    /// What reading a ledger's chain found.
    #[derive(Debug, Default, PartialEq, Eq)]
    pub struct Check {
        pub records: usize,
        /// Records from before the chain (no link, before the first linked one).
        pub unchained: usize,
        /// Lines that are not records (a crashed writer's torn line).
        pub torn: usize,
        /// The first line (1-based) where the chain does not hold, and why.
        pub broken: Option<(usize, &'static str)>,
    }

    impl Check {
        /// One sentence for `doctor` and `receipt`.
        pub fn describe(&self) -> String {
            match self.broken {
                Some((line, why)) => {
                    format!("EDITED: line {line} {why}; what it records from there is not evidence")
                }
                None if self.unchained > 0 => format!(
                    "{} records, the first {} from before the hash chain, the rest intact",
                    self.records, self.unchained
                ),
                None => format!("{} records, hash chain intact", self.records),
            }
        }
    }

    /// Reads the ledger at `path` and checks every link.
    pub fn verify(path: &Path) -> io::Result<Check> {
        use std::io::BufRead;
        let file = std::fs::File::open(path)?;
        let mut out = Check::default();
        let mut prev: Option<String> = None;
        for (i, line) in io::BufReader::new(file).split(b'\n').enumerate() {
            let line = line?;
            if line.is_empty() {
                continue;
            }
            if serde_json::from_slice::<serde_json::Value>(&line).is_err() {
                out.torn += 1;
                continue;
            }
            out.records += 1;
            match (split(&line), &prev) {
                (None, None) => out.unchained += 1,
                (None, Some(_)) => {
                    out.broken.get_or_insert((
                        i + 1,
                        "is a record without its link, after linked ones (inserted or rewritten)",
                    ));
                }
                (Some((h, body)), _) => {
                    let expected = link(prev.as_deref().unwrap_or(""), &body);
                    if expected != h {
                        out.broken.get_or_insert((
                            i + 1,
                            "does not follow from the record before it (edited, or one before it removed)",
                        ));
                    }
                    prev = Some(h.to_owned());
                }
            }
        }
        Ok(out)
    }
}

fn append_lines(
    file: &mut File,
    mut lines: Vec<u8>,
    write: impl FnOnce(&mut File, &[u8]) -> io::Result<()>,
) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    let len = file.metadata()?.len();
    if len > 0 {
        let mut last = [0u8];
        file.read_exact_at(&mut last, len - 1)?;
        if last[0] != b'\n' {
            lines.insert(0, b'\n');
        }
    }
    write(file, &lines).inspect_err(|_| {
        // Best effort: if this fails too, the next append starts on a fresh line.
        let _ = file.set_len(len);
    })
}

/// The newest modification time of a directory and the files directly inside it.
fn last_modified(dir: &Path) -> SystemTime {
    let mtime = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
    let mut newest = mtime(dir).unwrap_or(SystemTime::UNIX_EPOCH);
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            if let Some(t) = mtime(&entry.path()) {
                newest = newest.max(t);
            }
        }
    }
    newest
}

/// What pruning did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct PruneReport {
    /// Idle sessions kept because export has not sent all their records.
    pub kept_for_export: usize,
    pub removed: usize,
    pub errors: Vec<String>,
}

/// The records of a write log and how many lines were skipped.
#[derive(Debug, Default, PartialEq)]
pub struct LogRead {
    pub records: Vec<WriteRecord>,
    /// The calls the guards refused, oldest first.
    pub denials: Vec<DenialRecord>,
    /// The shell commands that ran, oldest first.
    pub runs: Vec<RunRecord>,
    /// audit-turn's readings of final messages, oldest first.
    pub audits: Vec<AuditRecord>,
    /// Lines that are not a complete record (a crashed writer, a manual edit).
    pub torn: usize,
    /// Complete records of another version than [`RECORD_VERSION`].
    pub other_version: usize,
}

impl LogRead {
    /// Files one parsed line: by kind, or as another version.
    fn add(&mut self, record: Record) {
        match record {
            r if r.version() != RECORD_VERSION => self.other_version += 1,
            Record::Write(w) => self.records.push(w),
            Record::Denial(d) => self.denials.push(d),
            Record::Run(r) => self.runs.push(r),
            Record::Audit(a) => self.audits.push(a),
        }
    }
}

pub fn read_records(reader: impl BufRead) -> io::Result<LogRead> {
    let mut out = LogRead::default();
    for line in reader.split(b'\n') {
        let line = line?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<Record>(&line) {
            Ok(r) => out.add(r),
            Err(_) => out.torn += 1,
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(n: usize) -> WriteRecord {
        WriteRecord {
            v: RECORD_VERSION,
            time: "2026-11-30T00:00:00.000Z".into(),
            session: "s".into(),
            prompt_id: Some("p".into()),
            tool_use_id: Some(format!("t{n}")),
            event: "PostToolUse".into(),
            tool: "Write".into(),
            path: format!("/p/ü {n}.txt"),
            op: Operation::Write,
            verified: true,
            outcome: Outcome::Landed,
            reason: None,
            sha256: Some("00".repeat(32)),
            size: Some(12),
            host: None,
        }
    }

    fn denial(prompt: &str) -> DenialRecord {
        DenialRecord {
            v: RECORD_VERSION,
            kind: DenialKind::Denial,
            time: "2026-11-30T00:00:00.000Z".into(),
            session: "s".into(),
            prompt_id: Some(prompt.into()),
            tool_use_id: Some("toolu_9".into()),
            event: "PreToolUse".into(),
            hook: "scope-guard".into(),
            tool: "Write".into(),
            targets: vec!["/outside.txt".into()],
            rule: Some("outside the project root".into()),
            reason: "scope-guard: no".into(),
            host: None,
            by: None,
            cwd: None,
        }
    }

    #[test]
    fn denials_and_writes_share_the_log_and_are_told_apart() {
        let line = serde_json::to_string(&Record::from(denial("p"))).unwrap();
        assert!(line.contains(r#""kind":"denial""#), "{line}");
        let read = read_records(
            format!("{line}\n{}\n", serde_json::to_string(&record(1)).unwrap()).as_bytes(),
        )
        .unwrap();
        assert_eq!(read.denials, [denial("p")]);
        assert_eq!(read.records, [record(1)]);
        assert_eq!((read.torn, read.other_version), (0, 0));
    }

    fn temp_root(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dia-store-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_ledger_is_a_hash_chain_that_shows_an_edit() {
        let root = temp_root("chain");
        let session = SessionId::parse("chain").unwrap();
        let store = SessionStore::new(&root, &session);
        let path = store.write_log_path();
        // A ledger from before the chain: read as it is, said to be unchained.
        fs::create_dir_all(store.dir()).unwrap();
        fs::write(
            &path,
            format!(
                "{}\n",
                serde_json::to_string(&Record::from(record(0))).unwrap()
            ),
        )
        .unwrap();
        for n in 1..=3 {
            store
                .append(&[record(n).into(), denial("p").into()])
                .unwrap();
        }
        let check = chain::verify(&path).unwrap();
        assert_eq!((check.records, check.unchained, check.broken), (7, 1, None));
        assert_eq!(store.read_write_log().unwrap().records.len(), 4);
        let lines: Vec<String> = fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        let write = |l: &[String]| fs::write(&path, l.join("\n") + "\n").unwrap();
        // An edited record.
        let mut edited = lines.clone();
        edited[3] = edited[3].replace("\"tool\":\"Write\"", "\"tool\":\"Edit\"");
        assert_ne!(edited[3], lines[3]);
        write(&edited);
        assert_eq!(chain::verify(&path).unwrap().broken.map(|b| b.0), Some(4));
        // A record removed.
        let mut removed = lines.clone();
        removed.remove(2);
        write(&removed);
        assert_eq!(chain::verify(&path).unwrap().broken.map(|b| b.0), Some(3));
        // A record inserted without its link.
        let mut inserted = lines.clone();
        inserted.insert(4, serde_json::to_string(&Record::from(record(9))).unwrap());
        write(&inserted);
        assert_eq!(chain::verify(&path).unwrap().broken.map(|b| b.0), Some(5));
        // A torn line from a crashed writer is not an edit, and the chain goes on after it.
        let mut torn = lines.clone();
        torn.push("{\"v\":1,\"ti".into());
        write(&torn);
        store.append(&[record(5).into()]).unwrap();
        let check = chain::verify(&path).unwrap();
        assert_eq!((check.torn, check.broken), (1, None), "{check:?}");
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn session_ids_cannot_escape() {
        for bad in [
            "", "../x", "/abs", "a/b", ".", "..", ".hidden", "a\0b", "a b", "ü",
        ] {
            assert!(SessionId::parse(bad).is_err(), "{bad:?} accepted");
        }
        assert!(SessionId::parse(&"a".repeat(129)).is_err());
        for good in [
            "beb5c0de-1234-4abc-8def-0123456789ab",
            "a",
            &"a".repeat(128),
            "x.y_z-1",
        ] {
            assert!(SessionId::parse(good).is_ok(), "{good:?} refused");
        }
        let err = SessionId::parse("a/../x").unwrap_err().to_string();
        assert_eq!(
            err,
            r#"session id "a/../x" cannot name a state directory: only letters, digits, '-', '_' and '.' are allowed"#
        );
    }

    #[test]
    fn state_root_precedence() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        assert_eq!(
            state_root(env(&[("DID_IT_ACTUALLY_STATE_DIR", "/s"), ("HOME", "/h")])).unwrap(),
            PathBuf::from("/s")
        );
        assert_eq!(
            state_root(env(&[("XDG_STATE_HOME", "/x"), ("HOME", "/h")])).unwrap(),
            PathBuf::from("/x/did-it-actually")
        );
        // A relative XDG_STATE_HOME is invalid per the XDG spec and ignored.
        assert_eq!(
            state_root(env(&[("XDG_STATE_HOME", "rel"), ("HOME", "/h")])).unwrap(),
            PathBuf::from("/h/.local/state/did-it-actually")
        );
        assert!(state_root(env(&[])).is_err());
    }

    #[test]
    fn records_round_trip_and_torn_lines_are_counted() {
        let root = temp_root("roundtrip");
        let store = SessionStore::new(&root, &SessionId::parse("s").unwrap());
        assert!(
            store.append(&[record(1).into()]).unwrap(),
            "first append creates the dir"
        );
        assert!(!store.append(&[record(2).into(), record(3).into()]).unwrap());
        let mut f = OpenOptions::new()
            .append(true)
            .open(store.write_log_path())
            .unwrap();
        f.write_all(b"{\"v\":1,\"time\":\"tor\n\n{\"v\":99}\n")
            .unwrap();
        let mut other = serde_json::to_value(record(4)).unwrap();
        other["v"] = 2.into();
        writeln!(f, "{other}").unwrap();
        store.append(&[record(5).into()]).unwrap();
        let read = store.read_write_log().unwrap();
        let ids: Vec<_> = read
            .records
            .iter()
            .map(|r| r.tool_use_id.clone().unwrap())
            .collect();
        assert_eq!(ids, ["t1", "t2", "t3", "t5"]);
        assert_eq!(read.records[0], record(1));
        assert_eq!((read.torn, read.other_version), (2, 1));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_failed_append_leaves_no_partial_line() {
        let root = temp_root("partial");
        let store = SessionStore::new(&root, &SessionId::parse("s").unwrap());
        store.append(&[record(1).into()]).unwrap();
        let path = store.write_log_path();
        let before = fs::read(&path).unwrap();
        // A disk that fills up half-way through the record: part of it is written.
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(&path)
            .unwrap();
        let line = format!("{}\n", serde_json::to_string(&record(2)).unwrap());
        let err = append_lines(&mut file, line.into_bytes(), |f, b| {
            f.write_all(&b[..b.len() / 2])?;
            Err(io::Error::from_raw_os_error(28))
        })
        .unwrap_err();
        assert_eq!(err.raw_os_error(), Some(28));
        assert_eq!(fs::read(&path).unwrap(), before, "cut back to where it was");
        // With space again, the next record is whole.
        store.append(&[record(3).into()]).unwrap();
        let read = store.read_write_log().unwrap();
        assert_eq!((read.records.len(), read.torn), (2, 0));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn an_append_after_a_fragment_starts_on_a_fresh_line() {
        let root = temp_root("fragment");
        let store = SessionStore::new(&root, &SessionId::parse("s").unwrap());
        store.append(&[record(1).into()]).unwrap();
        // A writer killed in the middle of its record.
        let mut f = OpenOptions::new()
            .append(true)
            .open(store.write_log_path())
            .unwrap();
        f.write_all(b"{\"v\":1,\"time\":\"20").unwrap();
        store.append(&[record(2).into(), record(3).into()]).unwrap();
        let read = store.read_write_log().unwrap();
        let ids: Vec<_> = read
            .records
            .iter()
            .map(|r| r.tool_use_id.clone().unwrap())
            .collect();
        assert_eq!(ids, ["t1", "t2", "t3"]);
        assert_eq!(read.torn, 1, "the fragment is a torn line of its own");
        assert_eq!(store.read_turn_records(Some("p")).unwrap().records.len(), 3);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_turn_is_read_from_the_end() {
        let root = temp_root("turn");
        let store = SessionStore::new(&root, &SessionId::parse("s").unwrap());
        let with_prompt = |n, p: &str| WriteRecord {
            prompt_id: Some(p.into()),
            ..record(n)
        };
        store
            .append(&[
                with_prompt(1, "a").into(),
                with_prompt(2, "b").into(),
                denial("b").into(),
                with_prompt(3, "b").into(),
            ])
            .unwrap();
        let turn = store.read_turn_records(Some("b")).unwrap();
        let ids: Vec<_> = turn
            .records
            .iter()
            .map(|r| r.tool_use_id.clone().unwrap())
            .collect();
        assert_eq!(ids, ["t2", "t3"]);
        assert_eq!(turn.denials, [denial("b")]);
        assert!(store
            .read_turn_records(Some("c"))
            .unwrap()
            .records
            .is_empty());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn missing_log_reads_empty() {
        let store = SessionStore::new(&temp_root("missing"), &SessionId::parse("s").unwrap());
        assert_eq!(store.read_write_log().unwrap(), LogRead::default());
    }

    #[test]
    fn prune_removes_only_idle_other_sessions() {
        let root = temp_root("prune");
        let mine = SessionStore::new(&root, &SessionId::parse("mine").unwrap());
        let old = SessionStore::new(&root, &SessionId::parse("old").unwrap());
        mine.append(&[record(1).into()]).unwrap();
        old.append(&[record(1).into()]).unwrap();
        let now = SystemTime::now();
        // Everything is fresh: nothing goes.
        assert_eq!(mine.prune_others(Duration::from_secs(3600), now).removed, 0);
        // Seen from two hours later, "old" is idle; "mine" is kept because it is in use.
        let later = now + Duration::from_secs(7200);
        assert_eq!(
            mine.prune_others(Duration::from_secs(3600), later).removed,
            1
        );
        assert!(!old.dir().exists());
        assert!(mine.dir().exists());
        fs::remove_dir_all(&root).unwrap();
    }
}
