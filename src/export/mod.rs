//! The ledger leaves the machine as OpenTelemetry log records (docs/export.md).
//!
//! - **Nothing is sent unless turned on**: `export.otlp` in the policy in force (the
//!   organisation's or the repository's). A session whose project has it on gets an
//!   `export.json` beside its ledger, holding how far it was sent and what is redacted;
//!   a session without one is never read by the exporter.
//! - **The hot path never waits on the network**: the ledger is the queue. A hook that
//!   wrote records only checks one file's time ([`kick`]) and, at most every
//!   [`KICK_INTERVAL`], starts a detached flusher (`did-it-actually export flush
//!   --background`), which sends batches and exits.
//! - **Loses nothing, sends nothing twice**: a session's cursor moves past a batch only
//!   after the receiver accepted it (2xx), written atomically; a failed send leaves it
//!   where it was and backs off ([`Backoff`]). One flusher at a time (a lock). The one
//!   window left is a receiver that accepted a batch and whose answer never arrived (or a
//!   flusher killed in the instant between the answer and the cursor's rename): that
//!   batch is sent again, with the same `did_it_actually.record.id`s, by which a
//!   collector can drop the repeat.

pub mod http;
pub mod record;
pub mod wire;

use crate::store::{self, Record};
use record::{LogRecord, Redact};
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::fs;
use std::io::{BufRead, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

type Lookup<'a> = &'a dyn Fn(&str) -> Option<OsString>;

/// A session's export state, beside its ledger.
pub const SESSION_FILE: &str = "export.json";
/// The most records one request carries (the OpenTelemetry SDKs' default batch).
pub const BATCH: usize = 512;
/// A hook starts a flusher at most this often.
pub const KICK_INTERVAL: Duration = Duration::from_secs(2);
/// The longest wait between attempts while the receiver fails.
pub const MAX_BACKOFF: Duration = Duration::from_secs(300);

/// How a session is exported: how far it was sent, and what is redacted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionExport {
    pub v: u32,
    /// The byte offset in `writes.jsonl` of the first line not yet accepted.
    pub cursor: u64,
    pub redact: Vec<String>,
}

/// The exporter's own directory under the state root: the lock, the backoff, and the
/// file whose time a hook checks.
fn dir(root: &Path) -> PathBuf {
    root.join("export")
}

/// Called by a hook after it appended records for `session`. With export on: makes sure
/// the session is marked for export, and starts a flusher when one is due. Costs one
/// `stat` when nothing is due; never waits on the network; never fails the hook (what
/// goes wrong is the flusher's to report, in `export status`).
/// What went wrong is returned for the hook to report (a notice): the call itself is
/// never refused over export.
pub fn kick(
    policy: &crate::policy::Policy,
    root: &Path,
    session_dir: &Path,
    env: Lookup,
) -> Option<String> {
    if !policy.export.otlp {
        return None;
    }
    let marker = session_dir.join(SESSION_FILE);
    if !marker.exists() {
        let first = SessionExport {
            v: 1,
            cursor: 0,
            redact: policy.export.redact.clone(),
        };
        if let Err(e) = crate::fsutil::write_atomically(
            &marker,
            &serde_json::to_vec(&first).unwrap_or_default(),
        ) {
            return Some(format!(
                "export is on, but {} could not be written ({}): this session's records are not sent",
                marker.display(),
                crate::fsutil::describe_io(&e)
            ));
        }
    }
    let due = dir(root).join("due");
    let now = SystemTime::now();
    if fs::metadata(&due)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t > now)
    {
        return None;
    }
    set_due(root, now + KICK_INTERVAL);
    spawn_flusher(env).err().map(|e| {
        format!(
            "export is on, but its flusher could not be started ({}); the records wait in the ledger (`did-it-actually export flush` sends them)",
            crate::fsutil::describe_io(&e)
        )
    })
}

/// Sets the time before which no hook starts a flusher (the `due` file's mtime).
fn set_due(root: &Path, at: SystemTime) {
    let due = dir(root).join("due");
    let _ = fs::create_dir_all(dir(root));
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&due);
    if let Ok(f) = file {
        let _ = f.set_modified(at);
    }
}

/// Starts `did-it-actually export flush --background`, detached: its own process group,
/// no standard streams, not waited for.
fn spawn_flusher(env: Lookup) -> std::io::Result<()> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["export", "flush", "--background"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0);
    // The state directory the hook used, whatever the environment said.
    if let Ok(root) = store::state_root(env) {
        cmd.env("DID_IT_ACTUALLY_STATE_DIR", root);
    }
    cmd.spawn().map(|_| ())
}

/// Where and how batches are sent, from the standard OpenTelemetry variables (the ones
/// Claude Code's own telemetry reads), the signal-specific ones first.
#[derive(Clone, Debug)]
pub struct Target {
    pub endpoint: String,
    pub json: bool,
    pub headers: Vec<(String, String)>,
    pub timeout: Duration,
    pub origin: wire::Origin,
}

/// The variable of `name` for logs, else the general one.
fn otel(env: Lookup, name: &str) -> Option<String> {
    [
        format!("OTEL_EXPORTER_OTLP_LOGS_{name}"),
        format!("OTEL_EXPORTER_OTLP_{name}"),
    ]
    .iter()
    .find_map(|k| env(k).filter(|v| !v.is_empty()))
    .map(|v| v.to_string_lossy().into_owned())
}

impl Target {
    pub fn from_env(env: Lookup) -> Result<Target, String> {
        let endpoint = match env("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT").filter(|v| !v.is_empty()) {
            // The signal's own endpoint is used as it is.
            Some(e) => e.to_string_lossy().into_owned(),
            None => match otel(env, "ENDPOINT") {
                Some(base) => format!("{}/v1/logs", base.trim_end_matches('/')),
                None => "http://localhost:4318/v1/logs".to_owned(),
            },
        };
        let json = match otel(env, "PROTOCOL").as_deref() {
            None | Some("http/protobuf") => false,
            Some("http/json") => true,
            Some("grpc") => return Err(
                "OTEL_EXPORTER_OTLP_PROTOCOL is grpc, which this exporter does not speak; set http/protobuf (a collector's OTLP receiver takes both on port 4318)".into(),
            ),
            Some(other) => {
                return Err(format!(
                    "OTEL_EXPORTER_OTLP_PROTOCOL is {other:?}; expected http/protobuf or http/json"
                ))
            }
        };
        let headers = otel(env, "HEADERS")
            .map(|h| {
                h.split(',')
                    .filter_map(|kv| kv.split_once('='))
                    .map(|(k, v)| (k.trim().to_owned(), percent_decode(v.trim())))
                    .filter(|(k, _)| !k.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let timeout = otel(env, "TIMEOUT")
            .and_then(|t| t.parse::<u64>().ok())
            .map_or(Duration::from_secs(10), Duration::from_millis);
        Ok(Target {
            endpoint,
            json,
            headers,
            timeout,
            origin: origin(env),
        })
    }
}

/// `%XX` escapes, as `OTEL_EXPORTER_OTLP_HEADERS` values may carry them.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The resource: `service.name` (`OTEL_SERVICE_NAME`, else did-it-actually), its
/// version, the machine, and `OTEL_RESOURCE_ATTRIBUTES`.
fn origin(env: Lookup) -> wire::Origin {
    use record::Value;
    let var = |k: &str| {
        env(k)
            .filter(|v| !v.is_empty())
            .map(|v| v.to_string_lossy().into_owned())
    };
    let mut resource = vec![
        (
            "service.name".to_owned(),
            Value::Str(var("OTEL_SERVICE_NAME").unwrap_or_else(|| "did-it-actually".into())),
        ),
        (
            "service.version".to_owned(),
            Value::Str(env!("CARGO_PKG_VERSION").into()),
        ),
    ];
    if let Some(host) = fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
    {
        resource.push(("host.name".into(), Value::Str(host)));
    }
    for kv in var("OTEL_RESOURCE_ATTRIBUTES")
        .unwrap_or_default()
        .split(',')
    {
        if let Some((k, v)) = kv.split_once('=') {
            let k = k.trim().to_owned();
            resource.retain(|(have, _)| *have != k);
            resource.push((k, Value::Str(percent_decode(v.trim()))));
        }
    }
    wire::Origin {
        resource,
        scope_name: "did-it-actually",
        scope_version: env!("CARGO_PKG_VERSION"),
    }
}

/// The backoff while the receiver fails, kept between flushers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backoff {
    pub failures: u32,
    /// Seconds since the epoch before which no flusher sends.
    pub next_attempt: u64,
    pub last_error: Option<String>,
    /// When a batch was last accepted.
    pub last_success: Option<u64>,
}

impl Backoff {
    fn path(root: &Path) -> PathBuf {
        dir(root).join("state.json")
    }

    pub fn read(root: &Path) -> Backoff {
        fs::read(Backoff::path(root))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    fn write(&self, root: &Path) {
        let _ = crate::fsutil::write_atomically(
            &Backoff::path(root),
            &serde_json::to_vec(self).unwrap_or_default(),
        );
    }

    /// The wait after `failures` consecutive failures: 1 s, doubling, at most
    /// [`MAX_BACKOFF`].
    pub fn delay(failures: u32) -> Duration {
        let secs = 1u64 << failures.saturating_sub(1).min(16);
        Duration::from_secs(secs).min(MAX_BACKOFF)
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// What one flush did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Flushed {
    pub sent: usize,
    pub batches: usize,
    /// Sessions whose records are all accepted.
    pub sessions: usize,
    /// Lines the exporter skipped: commands that ran (not exported), unreadable lines.
    pub skipped: usize,
    pub error: Option<String>,
    /// Another flusher holds the lock.
    pub busy: bool,
    /// The backoff said to wait.
    pub waiting: Option<u64>,
}

/// Sends every exported session's unsent records, in batches, until all are accepted or
/// a send fails. `respect_backoff`: a background flusher waits out the backoff; a person
/// running `export flush` tries now.
pub fn flush(root: &Path, env: Lookup, respect_backoff: bool) -> Flushed {
    let mut done = Flushed::default();
    let _ = fs::create_dir_all(dir(root));
    // A background flusher leaves when another runs; a person's flush waits for it.
    let _lock = match Lock::take(&dir(root).join("lock"), !respect_backoff) {
        Ok(Some(lock)) => lock,
        Ok(None) => {
            done.busy = true;
            return done;
        }
        Err(e) => {
            done.error = Some(format!(
                "{}: {}",
                dir(root).join("lock").display(),
                crate::fsutil::describe_io(&e)
            ));
            return done;
        }
    };
    let mut backoff = Backoff::read(root);
    let now = unix_now();
    if respect_backoff && backoff.next_attempt > now {
        done.waiting = Some(backoff.next_attempt - now);
        return done;
    }
    let target = match Target::from_env(env) {
        Ok(t) => t,
        Err(e) => {
            fail(root, &mut backoff, &e);
            done.error = Some(e);
            return done;
        }
    };
    let url = match http::Url::parse(&target.endpoint) {
        Ok(u) => u,
        Err(e) => {
            fail(root, &mut backoff, &e);
            done.error = Some(e);
            return done;
        }
    };
    let mut client = http::Client::new(url, target.timeout, target.headers.clone());
    let content_type = if target.json {
        "application/json"
    } else {
        "application/x-protobuf"
    };
    for session in exported_sessions(root) {
        loop {
            let batch = match next_batch(&session, BATCH) {
                Ok(b) => b,
                Err(e) => {
                    done.error = Some(format!("{}: {e}", session.display()));
                    break;
                }
            };
            done.skipped += batch.skipped;
            if batch.records.is_empty() {
                // Only skipped lines: move past them.
                if batch.end > batch.state.cursor {
                    let _ = commit(&session, &batch.state, batch.end);
                }
                done.sessions += 1;
                break;
            }
            let body = if target.json {
                wire::json(&target.origin, &batch.records)
            } else {
                wire::protobuf(&target.origin, &batch.records)
            };
            if let Err(e) = client.post(content_type, &body) {
                let why = format!("{}: {e}", target.endpoint);
                fail(root, &mut backoff, &why);
                done.error = Some(why);
                return done;
            }
            // Accepted: only now does the cursor move.
            if let Err(e) = commit(&session, &batch.state, batch.end) {
                done.error = Some(format!(
                    "{}: the batch was accepted but its cursor could not be saved ({e}); it will be sent again",
                    session.display()
                ));
                return done;
            }
            done.sent += batch.records.len();
            done.batches += 1;
        }
    }
    backoff.failures = 0;
    backoff.next_attempt = 0;
    backoff.last_error = None;
    if done.sent > 0 {
        backoff.last_success = Some(unix_now());
    }
    backoff.write(root);
    done
}

/// The detached flusher a hook starts: passes until one finds nothing to send (records
/// the session writes meanwhile go in the next pass), a pause between passes so a busy
/// turn's records travel in few batches. It then lets the next hook start another at once.
pub fn flush_in_background(root: &Path, env: Lookup) {
    loop {
        let done = flush(root, env, true);
        if done.busy || done.error.is_some() || done.waiting.is_some() {
            return;
        }
        if done.sent == 0 {
            set_due(root, SystemTime::now());
            return;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

fn fail(root: &Path, backoff: &mut Backoff, why: &str) {
    backoff.failures = backoff.failures.saturating_add(1);
    let wait = Backoff::delay(backoff.failures);
    backoff.next_attempt = unix_now() + wait.as_secs();
    backoff.last_error = Some(why.to_owned());
    backoff.write(root);
    // No hook starts a flusher before the backoff ends.
    set_due(root, SystemTime::now() + wait);
}

/// The session directories marked for export, oldest ledger first.
pub fn exported_sessions(root: &Path) -> Vec<PathBuf> {
    let mut all: Vec<(SystemTime, PathBuf)> = fs::read_dir(root.join("sessions"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(SESSION_FILE).is_file())
        .map(|p| {
            let t = p
                .join(store::WRITE_LOG)
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(UNIX_EPOCH);
            (t, p)
        })
        .collect();
    all.sort();
    all.into_iter().map(|(_, p)| p).collect()
}

/// Reads a session's export state.
pub fn session_state(session: &Path) -> Option<SessionExport> {
    fs::read(session.join(SESSION_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
}

/// How many bytes of a session's ledger are not yet accepted (0 when not exported).
pub fn unsent_bytes(session: &Path) -> Option<u64> {
    let state = session_state(session)?;
    let len = session
        .join(store::WRITE_LOG)
        .metadata()
        .map_or(0, |m| m.len());
    Some(len.saturating_sub(state.cursor))
}

struct Batch {
    state: SessionExport,
    records: Vec<LogRecord>,
    /// The offset after the last whole line read.
    end: u64,
    skipped: usize,
}

/// Up to `max` log records from the session's cursor, whole lines only (a line still
/// being written has no newline yet and waits for the next flush).
fn next_batch(session: &Path, max: usize) -> std::io::Result<Batch> {
    let state = session_state(session).unwrap_or_default();
    let redact = Redact::of(&state.redact);
    let mut file = fs::File::open(session.join(store::WRITE_LOG))?;
    file.seek(SeekFrom::Start(state.cursor))?;
    let mut reader = std::io::BufReader::new(file.take(64 * 1024 * 1024));
    let mut end = state.cursor;
    let mut records = Vec::new();
    let mut skipped = 0;
    let observed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut line = Vec::new();
    while records.len() < max {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 || line.last() != Some(&b'\n') {
            break;
        }
        let at = end;
        end += n as u64;
        let text = &line[..line.len() - 1];
        let id = match store::chain::split(text) {
            Some((link, _)) => link.to_owned(),
            // A record from before the chain: its offset in its session names it.
            None => format!(
                "{}@{at}",
                session
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            ),
        };
        match serde_json::from_slice::<Record>(text)
            .ok()
            .and_then(|r| record::log_record(&r, &id, observed, redact))
        {
            Some(r) => records.push(r),
            None => skipped += 1,
        }
    }
    Ok(Batch {
        state,
        records,
        end,
        skipped,
    })
}

/// Moves the session's cursor to `end`, atomically.
fn commit(session: &Path, state: &SessionExport, end: u64) -> std::io::Result<()> {
    let next = SessionExport {
        cursor: end,
        ..state.clone()
    };
    crate::fsutil::write_atomically(
        &session.join(SESSION_FILE),
        &serde_json::to_vec(&next).unwrap_or_default(),
    )
}

/// An exclusive `flock` held while it lives (closing the file releases it).
struct Lock {
    _file: fs::File,
}

impl Lock {
    /// `Ok(None)`: another holds it (and `wait` is false).
    fn take(path: &Path, wait: bool) -> std::io::Result<Option<Lock>> {
        use std::os::unix::io::AsRawFd;
        let f = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)?;
        // SAFETY: flock on a descriptor we own.
        let how = if wait {
            libc::LOCK_EX
        } else {
            libc::LOCK_EX | libc::LOCK_NB
        };
        let r = unsafe { libc::flock(f.as_raw_fd(), how) };
        Ok((r == 0).then_some(Lock { _file: f }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_five_minutes() {
        assert_eq!(Backoff::delay(1), Duration::from_secs(1));
        assert_eq!(Backoff::delay(2), Duration::from_secs(2));
        assert_eq!(Backoff::delay(5), Duration::from_secs(16));
        assert_eq!(Backoff::delay(40), MAX_BACKOFF);
    }

    #[test]
    fn the_standard_variables_name_the_target() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| OsString::from(*v))
            }
        };
        let t = Target::from_env(&vars(&[])).unwrap();
        assert_eq!(t.endpoint, "http://localhost:4318/v1/logs");
        assert!(!t.json);
        let t = Target::from_env(&vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318/"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
            (
                "OTEL_EXPORTER_OTLP_HEADERS",
                "authorization=Bearer%20x,team=a",
            ),
            ("OTEL_EXPORTER_OTLP_LOGS_TIMEOUT", "1500"),
        ]))
        .unwrap();
        assert_eq!(t.endpoint, "http://c:4318/v1/logs");
        assert!(t.json);
        assert_eq!(
            t.headers,
            [
                ("authorization".to_owned(), "Bearer x".to_owned()),
                ("team".to_owned(), "a".to_owned())
            ]
        );
        assert_eq!(t.timeout, Duration::from_millis(1500));
        let t = Target::from_env(&vars(&[(
            "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
            "http://c:9999/custom",
        )]))
        .unwrap();
        assert_eq!(t.endpoint, "http://c:9999/custom");
        assert!(
            Target::from_env(&vars(&[("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")]))
                .unwrap_err()
                .contains("grpc")
        );
    }
}
