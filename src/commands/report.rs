//! `did-it-actually report`: a window of time (the last 7 days unless told otherwise) across
//! every session and project of this machine's ledger: what the guards refused (by rule,
//! host and layer, with the most frequent reasons), the claims audit-turn found unbacked
//! (by class, blocked or only reported), the writes that were lost, the Claude Code
//! sessions the guards never saw, and each project's and host's sessions and stops.
//! Markdown to read, JSON for tools, HTML (one self-contained page with a chart) to look at.
//!
//! Everything a person reads comes from one list of [`Section`]s, which the Markdown and
//! the HTML only lay out: the two cannot say different things. Text from the ledger was
//! written by agents, so the HTML escapes all of it, and the page forbids scripts besides.

use super::*;
use crate::audit::vocab::ClaimClass;
use crate::store::{AuditRecord, DenialRecord, LogRead, SessionId, SessionStore, WriteRecord};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The window when `--since` is not given.
const DEFAULT_SINCE: Duration = Duration::from_secs(7 * DAY);
/// How many of the most frequent refusal reasons are shown.
const TOP_REASONS: usize = 10;
/// The chart's most bars per series: a longer window shows a bar per few days.
const MAX_BARS: u64 = 62;
/// How much of a transcript's beginning is read for the directory its session ran in
/// (it is on the first lines; a transcript can be tens of megabytes).
const TRANSCRIPT_HEAD: u64 = 1 << 20;
const DAY: u64 = 86_400;
/// How a record without a host names its host (Claude Code's hooks write none).
const CLAUDE: &str = "claude";
/// The project of a session that says nowhere where it ran.
const UNKNOWN: &str = "(unknown)";

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Markdown,
    Json,
    Html,
}

/// `--since`: how long before now, or from when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Since {
    Ago(Duration),
    At(SystemTime),
}

/// `--since` as clap reads it: `30m`, `12h`, `7d`, `2w`, or a date.
pub fn parse_since(text: &str) -> Result<Since, String> {
    if let Some(d) = parse_duration(text) {
        return Ok(Since::Ago(d));
    }
    parse_instant(text, false).map(Since::At).ok_or_else(|| {
        format!("{text:?} is neither a duration (30m, 12h, 7d, 2w) nor a date (2026-05-01, or 2026-05-01T09:30:00Z in UTC)")
    })
}

/// `--until` as clap reads it: a date means the end of that day (the day is in the window).
pub fn parse_until(text: &str) -> Result<SystemTime, String> {
    parse_instant(text, true).ok_or_else(|| {
        format!("{text:?} is not a date (2026-05-01, or 2026-05-01T09:30:00Z in UTC)")
    })
}

fn parse_duration(text: &str) -> Option<Duration> {
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let n: u64 = text[..split].parse().ok()?;
    let unit = match &text[split..] {
        "m" => 60,
        "h" => 3600,
        "d" => DAY,
        "w" => 7 * DAY,
        _ => return None,
    };
    n.checked_mul(unit).map(Duration::from_secs)
}

/// `YYYY-MM-DD` (its midnight, or the next one for the end of a window) or RFC 3339 in UTC.
fn parse_instant(text: &str, end_of_day: bool) -> Option<SystemTime> {
    if text.len() == 10 {
        let midnight = crate::time::parse_rfc3339(&format!("{text}T00:00:00Z"))?;
        return Some(if end_of_day {
            midnight + Duration::from_secs(DAY)
        } else {
            midnight
        });
    }
    crate::time::parse_rfc3339(text)
}

/// The stretch of time a report covers: from `since` (included) to `until` (not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub since: SystemTime,
    pub until: SystemTime,
}

impl Window {
    /// `--since` counts back from now; `--until` defaults to now.
    pub fn new(
        since: Option<Since>,
        until: Option<SystemTime>,
        now: SystemTime,
    ) -> Result<Window, String> {
        let until = until.unwrap_or(now);
        let since = match since.unwrap_or(Since::Ago(DEFAULT_SINCE)) {
            Since::Ago(d) => now.checked_sub(d).unwrap_or(UNIX_EPOCH),
            Since::At(t) => t,
        };
        if since >= until {
            return Err(format!(
                "the window is empty: it would start at {} and end at {}",
                crate::time::rfc3339(since),
                crate::time::rfc3339(until)
            ));
        }
        Ok(Window { since, until })
    }

    fn holds(&self, t: SystemTime) -> bool {
        self.since <= t && t < self.until
    }

    /// Whether a record's time (RFC 3339) is in the window; a time that cannot be read
    /// is in no window.
    fn holds_time(&self, time: &str) -> bool {
        crate::time::parse_rfc3339(time).is_some_and(|t| self.holds(t))
    }

    /// The chart's bars: the window's UTC days, `per` days to a bar so that there are
    /// at most [`MAX_BARS`]. Each bar's first day and its length in days.
    fn days(&self) -> Vec<(SystemTime, u64)> {
        let first = day_of(self.since);
        let last = day_of(self.until - Duration::from_nanos(1));
        let n = (last - first) / DAY + 1;
        let per = n.div_ceil(MAX_BARS);
        (0..n.div_ceil(per))
            .map(|i| {
                let start = first + i * per * DAY;
                let len = per.min((last - start) / DAY + 1);
                (UNIX_EPOCH + Duration::from_secs(start), len)
            })
            .collect()
    }
}

/// The first second (since the epoch) of `t`'s UTC day.
fn day_of(t: SystemTime) -> u64 {
    let secs = t.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    secs - secs % DAY
}

fn date(t: SystemTime) -> String {
    crate::time::rfc3339(t)[..10].to_owned()
}

pub struct Args {
    pub since: Option<Since>,
    pub until: Option<SystemTime>,
    pub project: Option<PathBuf>,
    pub format: Format,
    pub output: Option<PathBuf>,
}

pub fn run(args: Args, env: &Env, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let now = SystemTime::now();
    let window = Window::new(args.since, args.until, now).map_err(CommandError::new)?;
    let root = crate::store::state_root(env.as_fn()).map_err(CommandError::new)?;
    let project = match args.project {
        Some(p) => Some(crate::fsutil::canonical(
            &env.working_dir(Some(p)).map_err(CommandError::new)?,
        )),
        None => None,
    };
    let report = Report::gather(root, transcripts_dir(env), window, project, now);
    let text = match args.format {
        Format::Markdown => report.markdown(),
        Format::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&report.json()).expect("JSON values serialize")
        ),
        Format::Html => report.html(),
    };
    match &args.output {
        Some(file) => {
            crate::fsutil::write_atomically(file, text.as_bytes())
                .map_err(|e| CommandError::new(format!("cannot write {}: {e}", file.display())))?;
            writeln!(out, "report written to {}", file.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Where Claude Code keeps its session transcripts: `$CLAUDE_CONFIG_DIR/projects`, else
/// `~/.claude/projects`.
fn transcripts_dir(env: &Env) -> Option<PathBuf> {
    let set = |name: &str| env.var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    set("CLAUDE_CONFIG_DIR")
        .map(|d| d.join("projects"))
        .or_else(|| set("HOME").map(|h| h.join(".claude/projects")))
}

/// Whether `place` is `project` or under it, as written or with its links resolved.
fn under(place: &Path, project: &Path) -> bool {
    place.starts_with(project) || crate::fsutil::canonical(place).starts_with(project)
}

/// The project a directory belongs to: its git top level, else the directory.
fn project_of(dir: &Path) -> String {
    crate::policy::repo_root(dir)
        .unwrap_or_else(|| dir.to_owned())
        .display()
        .to_string()
}

/// One session's records in the window (and, with `--project`, in the project).
struct Session {
    id: String,
    /// The project it worked in, when anything says where it ran.
    project: Option<String>,
    /// The host of its first record that names one, else Claude Code.
    host: String,
    log: LogRead,
}

/// What the ledger under the state root holds for the window.
#[derive(Default)]
struct Ledger {
    /// The sessions with a record in the window.
    sessions: Vec<Session>,
    /// Session directories, all told.
    directories: usize,
    /// Ledgers read: those written to since the window began (an older one cannot hold a
    /// record of it).
    read: usize,
    /// What could not be read, and why.
    unreadable: Vec<(String, String)>,
    /// Lines that are not records of this version (a crashed writer, another version).
    skipped_lines: usize,
}

impl Ledger {
    fn read(
        root: &Path,
        window: &Window,
        project: Option<&Path>,
        cwds: &HashMap<String, String>,
    ) -> Ledger {
        let mut ledger = Ledger::default();
        let dir = root.join("sessions");
        let mut entries: Vec<std::fs::DirEntry> = match std::fs::read_dir(&dir) {
            Ok(entries) => entries.flatten().collect(),
            // Nothing recorded yet on this machine.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return ledger,
            Err(e) => {
                ledger
                    .unreadable
                    .push((dir.display().to_string(), e.to_string()));
                return ledger;
            }
        };
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            if !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            ledger.directories += 1;
            let name = entry.file_name().to_string_lossy().into_owned();
            match ledger.read_session(root, &name, window, project, cwds) {
                Ok(Some(session)) => ledger.sessions.push(session),
                Ok(None) => {}
                Err(why) => ledger.unreadable.push((format!("session {name}"), why)),
            }
        }
        ledger
    }

    /// The session's records in the window; `None` when it has none there.
    fn read_session(
        &mut self,
        root: &Path,
        name: &str,
        window: &Window,
        project: Option<&Path>,
        cwds: &HashMap<String, String>,
    ) -> Result<Option<Session>, String> {
        let id = SessionId::parse(name).map_err(|e| e.to_string())?;
        let store = SessionStore::new(root, &id);
        let modified = match store.write_log_path().metadata() {
            Ok(m) => m.modified().unwrap_or(UNIX_EPOCH),
            // A directory with loop state and no ledger yet.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.to_string()),
        };
        if modified < window.since {
            return Ok(None);
        }
        self.read += 1;
        let log = store.read_write_log().map_err(|e| e.to_string())?;
        self.skipped_lines += log.torn + log.other_version;
        let place = session_place(&log, cwds.get(name).map(String::as_str));
        let log = in_window(log, window, project, place.as_deref());
        if is_empty(&log) {
            return Ok(None);
        }
        Ok(Some(Session {
            id: name.to_owned(),
            project: place.as_deref().map(project_of),
            host: session_host(&log),
            log,
        }))
    }
}

fn is_empty(log: &LogRead) -> bool {
    log.records.is_empty() && log.denials.is_empty() && log.runs.is_empty() && log.audits.is_empty()
}

/// Where a session ran: its transcript's working directory, else the first one its
/// records name (a command's, a refusal's, a written file's).
fn session_place(log: &LogRead, transcript_cwd: Option<&str>) -> Option<PathBuf> {
    transcript_cwd
        .or_else(|| log.runs.first().map(|r| r.cwd.as_str()))
        .or_else(|| log.denials.iter().find_map(|d| d.cwd.as_deref()))
        .map(PathBuf::from)
        .or_else(|| {
            log.records
                .first()
                .and_then(|w| Path::new(&w.path).parent().map(Path::to_owned))
        })
}

fn session_host(log: &LogRead) -> String {
    log.records
        .iter()
        .filter_map(|w| w.host.as_deref())
        .chain(log.denials.iter().filter_map(|d| d.host.as_deref()))
        .chain(log.runs.iter().filter_map(|r| r.host.as_deref()))
        .chain(log.audits.iter().filter_map(|a| a.host.as_deref()))
        .next()
        .unwrap_or(CLAUDE)
        .to_owned()
}

/// The records in the window and, with a project, those made there: a write by its path,
/// a command or a refusal by where it ran, a stop by where its session ran.
fn in_window(
    log: LogRead,
    window: &Window,
    project: Option<&Path>,
    session_place: Option<&Path>,
) -> LogRead {
    let here = |place: Option<&Path>| project.is_none_or(|p| place.is_some_and(|at| under(at, p)));
    LogRead {
        records: log
            .records
            .into_iter()
            .filter(|w| window.holds_time(&w.time) && here(Some(Path::new(&w.path))))
            .collect(),
        denials: log
            .denials
            .into_iter()
            .filter(|d| {
                window.holds_time(&d.time)
                    && here(d.cwd.as_deref().map(Path::new).or(session_place))
            })
            .collect(),
        runs: log
            .runs
            .into_iter()
            .filter(|r| window.holds_time(&r.time) && here(Some(Path::new(&r.cwd))))
            .collect(),
        audits: log
            .audits
            .into_iter()
            .filter(|a| window.holds_time(&a.time) && here(session_place))
            .collect(),
        torn: 0,
        other_version: 0,
    }
}

/// Whether the transcripts could be looked through.
#[derive(Debug, PartialEq, Eq)]
enum Scan {
    /// Neither `CLAUDE_CONFIG_DIR` nor `HOME` is set.
    NoDir,
    /// The directory does not exist: Claude Code has not run as this user.
    Absent,
    Unreadable(String),
    Read,
}

/// A Claude Code session with a transcript in the window and no ledger.
struct Unguarded {
    session: String,
    /// Where it ran (its transcript's `cwd`), when the transcript says.
    cwd: Option<String>,
    /// When its transcript was last written.
    time: SystemTime,
}

/// What Claude Code's transcripts say: which sessions ran, where, and which of them the
/// guards never saw.
struct Transcripts {
    dir: Option<PathBuf>,
    scan: Scan,
    /// Transcripts last written in the window.
    in_window: usize,
    unguarded: Vec<Unguarded>,
    /// Each session's working directory (for the project of a session whose records
    /// name none), from the transcripts written since the window began.
    cwds: HashMap<String, String>,
    /// Project directories and transcripts that could not be read, and why.
    problems: Vec<(String, String)>,
}

impl Transcripts {
    fn scan(
        dir: Option<PathBuf>,
        root: &Path,
        window: &Window,
        project: Option<&Path>,
    ) -> Transcripts {
        let mut t = Transcripts {
            dir: dir.clone(),
            scan: Scan::Read,
            in_window: 0,
            unguarded: Vec::new(),
            cwds: HashMap::new(),
            problems: Vec::new(),
        };
        let Some(dir) = dir else {
            t.scan = Scan::NoDir;
            return t;
        };
        let projects = match sorted_entries(&dir) {
            Ok(p) => p,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                t.scan = Scan::Absent;
                return t;
            }
            Err(e) => {
                t.scan = Scan::Unreadable(e.to_string());
                return t;
            }
        };
        for project_dir in projects.into_iter().filter(|p| p.is_dir()) {
            match sorted_entries(&project_dir) {
                Ok(files) => {
                    for file in files {
                        t.look_at(&file, root, window, project);
                    }
                }
                Err(e) => t
                    .problems
                    .push((project_dir.display().to_string(), e.to_string())),
            }
        }
        t.unguarded
            .sort_by(|a, b| (a.time, &a.session).cmp(&(b.time, &b.session)));
        t
    }

    /// One transcript (`<session id>.jsonl`); its subagents' live in a directory beside it.
    fn look_at(&mut self, file: &Path, root: &Path, window: &Window, project: Option<&Path>) {
        let (Some(session), Some("jsonl")) = (
            file.file_stem().and_then(|s| s.to_str()),
            file.extension().and_then(|e| e.to_str()),
        ) else {
            return;
        };
        let Ok(time) = file.metadata().and_then(|m| m.modified()) else {
            return;
        };
        if time < window.since {
            return;
        }
        let cwd = match transcript_cwd(file) {
            Ok(cwd) => cwd,
            Err(e) => {
                self.problems.push((file.display().to_string(), e));
                None
            }
        };
        if let Some(c) = &cwd {
            self.cwds.insert(session.to_owned(), c.clone());
        }
        if !window.holds(time) {
            return;
        }
        self.in_window += 1;
        // audit-turn records every stop of a guarded session: a session that stopped
        // has a ledger directory.
        let guarded = root.join("sessions").join(session).is_dir();
        let here = project.is_none_or(|p| cwd.as_deref().is_some_and(|c| under(Path::new(c), p)));
        if !guarded && here {
            self.unguarded.push(Unguarded {
                session: session.to_owned(),
                cwd,
                time,
            });
        }
    }
}

fn sorted_entries(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .collect();
    all.sort();
    Ok(all)
}

/// The `cwd` of the first line of a transcript that has one.
fn transcript_cwd(file: &Path) -> Result<Option<String>, String> {
    use std::io::{BufRead, Read};
    let f = std::fs::File::open(file).map_err(|e| e.to_string())?;
    let reader = std::io::BufReader::new(f.take(TRANSCRIPT_HEAD));
    for line in reader.split(b'\n') {
        let line = line.map_err(|e| e.to_string())?;
        let Ok(value) = serde_json::from_slice::<Value>(&line) else {
            continue;
        };
        if let Some(cwd) = value.get("cwd").and_then(Value::as_str) {
            return Ok(Some(cwd.to_owned()));
        }
    }
    Ok(None)
}

/// One row of the refusals: who refused, by which rule, in which layer, for which host.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RefusalKey {
    hook: String,
    rule: String,
    layer: String,
    host: String,
}

/// The rule a refusal names: its own, else the one its reason gives ("Rule: … in …").
fn rule_of(d: &DenialRecord) -> String {
    let from_reason = || {
        let after = d.reason.split_once("Rule: ")?.1;
        let end = after
            .find(" in ")
            .or_else(|| after.find(". "))
            .unwrap_or(after.len());
        Some(after[..end].trim_end_matches('.').to_owned())
    };
    d.rule
        .clone()
        .or_else(from_reason)
        .unwrap_or_else(|| "(none named)".to_owned())
}

/// `static` for a hook's refusal before the call ran, `run-time` for git's own.
fn layer_of(d: &DenialRecord) -> String {
    d.by.clone().unwrap_or_else(|| "static".to_owned())
}

fn host_of(host: &Option<String>) -> String {
    host.clone().unwrap_or_else(|| CLAUDE.to_owned())
}

/// Each key and how often it came, the most frequent first (then in key order).
fn tally<K: Ord>(keys: impl IntoIterator<Item = K>) -> Vec<(K, usize)> {
    let mut counts: BTreeMap<K, usize> = BTreeMap::new();
    for k in keys {
        *counts.entry(k).or_default() += 1;
    }
    let mut rows: Vec<(K, usize)> = counts.into_iter().collect();
    // Stable: equal counts keep the key order.
    rows.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    rows
}

/// Unbacked claims of one class: those that blocked the stop, those only reported (a
/// weak reading, a host that cannot send the agent back, the loop guard's limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ClaimCount {
    blocked: usize,
    reported: usize,
}

fn unbacked_by_class<'a>(
    audits: impl IntoIterator<Item = &'a AuditRecord>,
) -> Vec<(ClaimClass, ClaimCount)> {
    let mut by: BTreeMap<ClaimClass, ClaimCount> = BTreeMap::new();
    for a in audits {
        for c in a.claims.iter().filter(|c| !c.backed) {
            let n = by.entry(ClaimClass::of_text(&c.claim)).or_default();
            if c.blocks && a.blocked {
                n.blocked += 1;
            } else {
                n.reported += 1;
            }
        }
    }
    let mut rows: Vec<_> = by.into_iter().collect();
    rows.sort_by_key(|(_, c)| std::cmp::Reverse(c.blocked + c.reported));
    rows
}

/// A write that did not land and that the agent was not told about.
fn is_lost(w: &WriteRecord) -> bool {
    !w.verified && !w.outcome.agent_was_told()
}

/// One project's or host's sessions and stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    sessions: usize,
    stops: usize,
    blocked: usize,
    unguarded: usize,
}

/// One bar of the chart: from `day`, `days` long.
#[derive(Debug, PartialEq, Eq)]
struct Bar {
    day: String,
    days: u64,
    refusals: usize,
    unbacked: usize,
}

/// What a person reads, laid out by the Markdown and the HTML alike.
struct Section {
    title: String,
    blocks: Vec<Block>,
}

enum Block {
    Para(String),
    /// A table: its heading and rows.
    Table(Vec<&'static str>, Vec<Vec<Cell>>),
    List(Vec<String>),
}

enum Cell {
    Text(String),
    /// A path or an id: set as code.
    Code(String),
    Num(usize),
}

struct Report {
    window: Window,
    /// When the report was made: what the ledger still keeps depends on it.
    now: SystemTime,
    project: Option<PathBuf>,
    root: PathBuf,
    ledger: Ledger,
    transcripts: Transcripts,
}

impl Report {
    fn gather(
        root: PathBuf,
        transcripts: Option<PathBuf>,
        window: Window,
        project: Option<PathBuf>,
        now: SystemTime,
    ) -> Report {
        let transcripts = Transcripts::scan(transcripts, &root, &window, project.as_deref());
        let ledger = Ledger::read(&root, &window, project.as_deref(), &transcripts.cwds);
        Report {
            window,
            now,
            project,
            root,
            ledger,
            transcripts,
        }
    }

    fn sessions(&self) -> impl Iterator<Item = &Session> {
        self.ledger.sessions.iter()
    }

    fn denials(&self) -> impl Iterator<Item = &DenialRecord> {
        self.sessions().flat_map(|s| &s.log.denials)
    }

    fn audits(&self) -> impl Iterator<Item = &AuditRecord> {
        self.sessions().flat_map(|s| &s.log.audits)
    }

    fn writes(&self) -> usize {
        self.sessions().map(|s| s.log.records.len()).sum()
    }

    fn is_empty(&self) -> bool {
        self.ledger.sessions.is_empty() && self.transcripts.unguarded.is_empty()
    }

    fn refusals(&self) -> Vec<(RefusalKey, usize)> {
        tally(self.denials().map(|d| RefusalKey {
            hook: d.hook.clone(),
            rule: rule_of(d),
            layer: layer_of(d),
            host: host_of(&d.host),
        }))
    }

    fn top_reasons(&self) -> Vec<(&str, usize)> {
        let mut all = tally(self.denials().map(|d| d.reason.as_str()));
        all.truncate(TOP_REASONS);
        all
    }

    /// Each lost write, the oldest first, with its session.
    fn lost(&self) -> Vec<(&str, &WriteRecord)> {
        let mut all: Vec<(&str, &WriteRecord)> = self
            .sessions()
            .flat_map(|s| s.log.records.iter().map(move |w| (s.id.as_str(), w)))
            .filter(|(_, w)| is_lost(w))
            .collect();
        all.sort_by(|a, b| (&a.1.time, a.0).cmp(&(&b.1.time, b.0)));
        all
    }

    /// Sessions and stops by project, or by host: `key` names a session's group, and
    /// `stop_key` a stop's (a host is each record's own).
    fn counts(
        &self,
        key: impl Fn(&Session) -> String,
        stop_key: impl Fn(&Session, &AuditRecord) -> String,
        unguarded_key: impl Fn(&Unguarded) -> String,
    ) -> Vec<(String, Counts)> {
        let mut by: BTreeMap<String, Counts> = BTreeMap::new();
        for s in self.sessions() {
            by.entry(key(s)).or_default().sessions += 1;
            for a in &s.log.audits {
                let c = by.entry(stop_key(s, a)).or_default();
                c.stops += 1;
                c.blocked += usize::from(a.blocked);
            }
        }
        for u in &self.transcripts.unguarded {
            by.entry(unguarded_key(u)).or_default().unguarded += 1;
        }
        let mut rows: Vec<_> = by.into_iter().collect();
        rows.sort_by_key(|(_, c)| std::cmp::Reverse(c.sessions + c.unguarded));
        rows
    }

    fn by_project(&self) -> Vec<(String, Counts)> {
        let unknown = || UNKNOWN.to_owned();
        self.counts(
            |s| s.project.clone().unwrap_or_else(unknown),
            |s, _| s.project.clone().unwrap_or_else(unknown),
            |u| {
                u.cwd
                    .as_deref()
                    .map(|c| project_of(Path::new(c)))
                    .unwrap_or_else(unknown)
            },
        )
    }

    fn by_host(&self) -> Vec<(String, Counts)> {
        self.counts(
            |s| s.host.clone(),
            |_, a| host_of(&a.host),
            // Only Claude Code's transcripts are looked through.
            |_| CLAUDE.to_owned(),
        )
    }

    fn bars(&self) -> Vec<Bar> {
        let days = self.window.days();
        let mut bars: Vec<Bar> = days
            .iter()
            .map(|(start, len)| Bar {
                day: date(*start),
                days: *len,
                refusals: 0,
                unbacked: 0,
            })
            .collect();
        let per = days.first().map_or(1, |(_, len)| *len);
        let first = days.first().map_or(0, |(start, _)| day_of(*start));
        let index = |time: &str| {
            let t = crate::time::parse_rfc3339(time)?;
            usize::try_from((day_of(t).checked_sub(first)? / DAY) / per).ok()
        };
        for d in self.denials() {
            if let Some(bar) = index(&d.time).and_then(|i| bars.get_mut(i)) {
                bar.refusals += 1;
            }
        }
        for a in self.audits() {
            if let Some(bar) = index(&a.time).and_then(|i| bars.get_mut(i)) {
                bar.unbacked += a.claims.iter().filter(|c| !c.backed).count();
            }
        }
        bars
    }

    /// Whether the window reaches back past the age at which idle sessions' ledgers are
    /// removed (`store.prune_after_days`, by default): what was there is gone.
    fn reaches_pruned(&self) -> bool {
        self.window.since + crate::policy::StorePolicy::default().prune_after() < self.now
    }

    fn span(&self) -> String {
        format!(
            "{} to {}",
            crate::time::rfc3339(self.window.since),
            crate::time::rfc3339(self.window.until)
        )
    }

    /// What the report read: the window, the project, the ledgers and the transcripts.
    fn looked_at(&self) -> Vec<Block> {
        let l = &self.ledger;
        let whose = match &self.project {
            Some(p) => format!("the project {} (and what is under it)", p.display()),
            None => "every project".to_owned(),
        };
        let transcripts = match (&self.transcripts.scan, &self.transcripts.dir) {
            (Scan::Read, Some(dir)) => format!(
                "{} last written in the window under {}",
                crate::words::count(
                    self.transcripts.in_window,
                    "Claude Code transcript",
                    "Claude Code transcripts"
                ),
                dir.display()
            ),
            (Scan::Absent, Some(dir)) => {
                format!(
                    "no Claude Code transcripts ({} does not exist)",
                    dir.display()
                )
            }
            (Scan::Unreadable(e), Some(dir)) => format!(
                "not the Claude Code transcripts: {} cannot be read ({e})",
                dir.display()
            ),
            _ => "not the Claude Code transcripts: neither CLAUDE_CONFIG_DIR nor HOME is set"
                .to_owned(),
        };
        let mut blocks = vec![
            Block::Para(format!("From {} (UTC), {whose}.", self.span())),
            Block::Para(format!(
                "Read: the ledgers of {} under {} ({} written to since the window began), and {transcripts}.",
                crate::words::count(l.directories, "session", "sessions"),
                self.root.join("sessions").display(),
                l.read
            )),
        ];
        if self.reaches_pruned() {
            blocks.push(Block::Para(format!(
                "The window reaches back further than {} days: the ledger of a session idle that long is removed (store.prune_after_days), so what such sessions did is not counted, and a guarded one among them shows as a session the guards never saw.",
                crate::policy::StorePolicy::default().prune_after_days
            )));
        }
        blocks
    }

    /// What could not be read: said first, so a short report is not taken for a whole one.
    fn problems(&self) -> Option<Section> {
        let l = &self.ledger;
        let mut items: Vec<String> = l
            .unreadable
            .iter()
            .map(|(what, why)| format!("{what}: {why}"))
            .collect();
        items.extend(
            self.transcripts
                .problems
                .iter()
                .map(|(what, why)| format!("transcript {what}: {why}")),
        );
        if l.skipped_lines > 0 {
            items.push(format!(
                "{} of the ledgers read {} not records of this version, and skipped",
                crate::words::count(l.skipped_lines, "line", "lines"),
                if l.skipped_lines == 1 { "was" } else { "were" }
            ));
        }
        if items.is_empty() {
            return None;
        }
        let title = match l.unreadable.len() {
            0 => "Not read".to_owned(),
            n => format!(
                "Not read ({})",
                crate::words::count(n, "unreadable ledger", "unreadable ledgers")
            ),
        };
        Some(Section {
            title,
            blocks: vec![
                Block::Para("What follows leaves out what these hold:".to_owned()),
                Block::List(items),
            ],
        })
    }

    fn refusals_section(&self) -> Section {
        let rows = self.refusals();
        let total: usize = rows.iter().map(|(_, n)| n).sum();
        let mut blocks = Vec::new();
        if total == 0 {
            blocks.push(Block::Para("None: the guards refused nothing.".to_owned()));
        } else {
            let join = |t: Vec<(String, usize)>| {
                t.iter()
                    .map(|(k, n)| format!("{k} {n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            blocks.push(Block::Para(format!(
                "By layer (static: a hook, before the call ran; run-time: git's own hooks, as it ran): {}. By host: {}.",
                join(tally(self.denials().map(layer_of))),
                join(tally(self.denials().map(|d| host_of(&d.host))))
            )));
            blocks.push(Block::Table(
                vec!["guard", "rule", "layer", "host", "refusals"],
                rows.into_iter()
                    .map(|(k, n)| {
                        vec![
                            Cell::Text(k.hook),
                            Cell::Text(k.rule),
                            Cell::Text(k.layer),
                            Cell::Text(k.host),
                            Cell::Num(n),
                        ]
                    })
                    .collect(),
            ));
            blocks.push(Block::Para("The most frequent reasons:".to_owned()));
            blocks.push(Block::List(
                self.top_reasons()
                    .into_iter()
                    .map(|(reason, n)| format!("{n}× {}", crate::shell::walk::cut(reason)))
                    .collect(),
            ));
        }
        Section {
            title: format!("Refusals ({total})"),
            blocks,
        }
    }

    fn claims_section(&self) -> Section {
        let rows = unbacked_by_class(self.audits());
        let blocked: usize = rows.iter().map(|(_, c)| c.blocked).sum();
        let reported: usize = rows.iter().map(|(_, c)| c.reported).sum();
        let stops = self.audits().count();
        let blocks = if stops == 0 {
            vec![Block::Para(
                "None: audit-turn audited no stop in this window.".to_owned(),
            )]
        } else if rows.is_empty() {
            vec![Block::Para(format!(
                "None: every claim audit-turn read at {} was backed.",
                crate::words::count(stops, "stop", "stops")
            ))]
        } else {
            vec![
                Block::Para(format!(
                    "Claims of the final messages at {} that the turn's evidence did not back. Blocked: the agent was sent back; only reported: the user was told (a weak reading, a host that cannot send the agent back, or the loop guard's limit).",
                    crate::words::count(stops, "stop", "stops")
                )),
                Block::Table(
                    vec!["claim", "blocked", "only reported"],
                    rows.into_iter()
                        .map(|(class, c)| {
                            vec![
                                Cell::Text(class.title().to_owned()),
                                Cell::Num(c.blocked),
                                Cell::Num(c.reported),
                            ]
                        })
                        .collect(),
                ),
            ]
        };
        let title = match blocked + reported {
            0 => "Unbacked claims (0)".to_owned(),
            n => format!("Unbacked claims ({n}: {blocked} blocked, {reported} only reported)"),
        };
        Section { title, blocks }
    }

    fn lost_section(&self) -> Section {
        let lost = self.lost();
        let title = format!("Lost writes ({})", lost.len());
        let blocks = if self.writes() == 0 {
            vec![Block::Para(
                "None: verify-write read back no write in this window.".to_owned(),
            )]
        } else if lost.is_empty() {
            vec![Block::Para(format!(
                "None: every one of {} verify-write read back landed, or the agent was told it failed.",
                crate::words::count(self.writes(), "write", "writes")
            ))]
        } else {
            vec![
                Block::Para(
                    "Writes verify-write read back and did not find on disk, while the agent was not told: the file is not what the agent believes.".to_owned(),
                ),
                Block::Table(
                    vec!["time", "file", "outcome", "host", "session"],
                    lost.into_iter()
                        .map(|(session, w)| {
                            vec![
                                Cell::Text(w.time.clone()),
                                Cell::Code(w.path.clone()),
                                Cell::Text(w.outcome.name().to_owned()),
                                Cell::Text(host_of(&w.host)),
                                Cell::Code(session.to_owned()),
                            ]
                        })
                        .collect(),
                ),
            ]
        };
        Section { title, blocks }
    }

    fn unguarded_section(&self) -> Section {
        let t = &self.transcripts;
        let dir = t
            .dir
            .as_deref()
            .map(|d| d.display().to_string())
            .unwrap_or_default();
        let not_checked = |why: String| Section {
            title: "Sessions the guards never saw (not checked)".to_owned(),
            blocks: vec![Block::Para(format!("Not checked: {why}."))],
        };
        match &t.scan {
            Scan::NoDir => {
                return not_checked(
                    "neither CLAUDE_CONFIG_DIR nor HOME is set, so Claude Code's transcripts cannot be found".to_owned(),
                )
            }
            Scan::Absent => return not_checked(format!(
                "{dir} does not exist (Claude Code has not run as this user, or keeps its sessions elsewhere: set CLAUDE_CONFIG_DIR)"
            )),
            Scan::Unreadable(e) => return not_checked(format!("cannot read {dir}: {e}")),
            Scan::Read => {}
        }
        let blocks = if t.unguarded.is_empty() {
            vec![Block::Para(format!(
                "None: each of the {} in the window has a ledger.",
                crate::words::count(t.in_window, "Claude Code session", "Claude Code sessions")
            ))]
        } else {
            vec![
                Block::Para(format!(
                    "Claude Code sessions whose transcript (under {dir}) was last written in the window and that have no ledger: no guard ran in them (not installed for that project, or taken out). A session still in its first turn shows here until its first stop."
                )),
                Block::Table(
                    vec!["last written", "project", "session"],
                    t.unguarded
                        .iter()
                        .map(|u| {
                            vec![
                                Cell::Text(crate::time::rfc3339(u.time)),
                                match &u.cwd {
                                    Some(c) => Cell::Code(project_of(Path::new(c))),
                                    None => Cell::Text(UNKNOWN.to_owned()),
                                },
                                Cell::Code(u.session.clone()),
                            ]
                        })
                        .collect(),
                ),
            ]
        };
        Section {
            title: format!("Sessions the guards never saw ({})", t.unguarded.len()),
            blocks,
        }
    }

    fn counts_section(
        &self,
        title: &str,
        column: &'static str,
        rows: Vec<(String, Counts)>,
    ) -> Section {
        // A project is a path; "(unknown)" is not.
        let code = |name: &str| column == "project" && name != UNKNOWN;
        Section {
            title: title.to_owned(),
            blocks: vec![Block::Table(
                vec![
                    column,
                    "sessions",
                    "stops audited",
                    "stops blocked",
                    "unguarded sessions",
                ],
                rows.into_iter()
                    .map(|(name, c)| {
                        vec![
                            if code(&name) {
                                Cell::Code(name)
                            } else {
                                Cell::Text(name)
                            },
                            Cell::Num(c.sessions),
                            Cell::Num(c.stops),
                            Cell::Num(c.blocked),
                            Cell::Num(c.unguarded),
                        ]
                    })
                    .collect(),
            )],
        }
    }

    /// Everything after the opening lines, in the order a person reads it.
    fn sections(&self) -> Vec<Section> {
        let mut all: Vec<Section> = self.problems().into_iter().collect();
        if self.is_empty() {
            // The transcripts' state still matters: "nothing" from an unread directory
            // is not nothing.
            if self.transcripts.scan != Scan::Read {
                all.push(self.unguarded_section());
            }
            return all;
        }
        all.push(self.refusals_section());
        all.push(self.claims_section());
        all.push(self.lost_section());
        all.push(self.unguarded_section());
        all.push(self.counts_section("Projects", "project", self.by_project()));
        all.push(self.counts_section("Hosts", "host", self.by_host()));
        all
    }

    fn empty_line(&self) -> Option<Block> {
        self.is_empty().then(|| {
            Block::Para(
                "Nothing in this window: no session recorded a write, a command, a refusal or a stop, and no Claude Code session ran without the guards.".to_owned(),
            )
        })
    }

    fn markdown(&self) -> String {
        let mut s = String::from("# did-it-actually report\n\n");
        for block in self.looked_at().iter().chain(self.empty_line().as_ref()) {
            md_block(&mut s, block);
        }
        for section in self.sections() {
            s.push_str(&format!("## {}\n\n", section.title));
            for block in &section.blocks {
                md_block(&mut s, block);
            }
        }
        s
    }

    fn json(&self) -> Value {
        let l = &self.ledger;
        let t = &self.transcripts;
        let rows = |v: Vec<(String, Counts)>, key: &str| -> Vec<Value> {
            v.into_iter()
                .map(|(name, c)| {
                    json!({key: name, "sessions": c.sessions, "stops_audited": c.stops,
                        "stops_blocked": c.blocked, "unguarded_sessions": c.unguarded})
                })
                .collect()
        };
        let claims = unbacked_by_class(self.audits());
        json!({
            "window": {"since": crate::time::rfc3339(self.window.since), "until": crate::time::rfc3339(self.window.until)},
            "project": self.project.as_ref().map(|p| p.display().to_string()),
            "state_dir": self.root.display().to_string(),
            "empty": self.is_empty(),
            "ledgers": {
                "sessions": l.directories,
                "read": l.read,
                "unreadable": l.unreadable.iter().map(|(what, why)| json!({"what": what, "why": why})).collect::<Vec<_>>(),
                "skipped_lines": l.skipped_lines,
                "window_reaches_pruned": self.reaches_pruned(),
            },
            "refusals": {
                "total": self.denials().count(),
                "by_layer": tally(self.denials().map(layer_of)).into_iter().map(|(k, n)| json!({"layer": k, "count": n})).collect::<Vec<_>>(),
                "by_host": tally(self.denials().map(|d| host_of(&d.host))).into_iter().map(|(k, n)| json!({"host": k, "count": n})).collect::<Vec<_>>(),
                "by_rule": self.refusals().into_iter().map(|(k, n)| json!({"hook": k.hook, "rule": k.rule, "layer": k.layer, "host": k.host, "count": n})).collect::<Vec<_>>(),
                "top_reasons": self.top_reasons().into_iter().map(|(r, n)| json!({"reason": r, "count": n})).collect::<Vec<_>>(),
            },
            "unbacked_claims": {
                "stops_audited": self.audits().count(),
                "blocked": claims.iter().map(|(_, c)| c.blocked).sum::<usize>(),
                "reported": claims.iter().map(|(_, c)| c.reported).sum::<usize>(),
                "by_class": claims.iter().map(|(class, c)| json!({"class": class.id(), "title": class.title(), "blocked": c.blocked, "reported": c.reported})).collect::<Vec<_>>(),
            },
            "writes": self.writes(),
            "lost_writes": self.lost().into_iter().map(|(session, w)| json!({"time": w.time, "session": session, "path": w.path, "outcome": w.outcome.name(), "host": host_of(&w.host)})).collect::<Vec<_>>(),
            "unguarded_sessions": {
                "checked": t.scan == Scan::Read,
                "transcripts_dir": t.dir.as_ref().map(|d| d.display().to_string()),
                "why_not": match &t.scan {
                    Scan::Read => None,
                    Scan::NoDir => Some("neither CLAUDE_CONFIG_DIR nor HOME is set".to_owned()),
                    Scan::Absent => Some("the directory does not exist".to_owned()),
                    Scan::Unreadable(e) => Some(e.clone()),
                },
                "transcripts_in_window": t.in_window,
                "unreadable": t.problems.iter().map(|(what, why)| json!({"what": what, "why": why})).collect::<Vec<_>>(),
                "sessions": t.unguarded.iter().map(|u| json!({
                    "session": u.session,
                    "cwd": u.cwd,
                    "project": u.cwd.as_deref().map(|c| project_of(Path::new(c))),
                    "time": crate::time::rfc3339(u.time),
                })).collect::<Vec<_>>(),
            },
            "projects": rows(self.by_project(), "project"),
            "hosts": rows(self.by_host(), "host"),
            "days": self.bars().into_iter().map(|b| json!({"day": b.day, "days": b.days, "refusals": b.refusals, "unbacked_claims": b.unbacked})).collect::<Vec<_>>(),
        })
    }

    fn html(&self) -> String {
        let mut s = String::new();
        let (from, to) = (
            date(self.window.since),
            date(self.window.until - Duration::from_nanos(1)),
        );
        s.push_str(&format!(
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>did-it-actually report, {from} to {to}</title>\n<style>{HTML_STYLE}</style>\n</head>\n<body>\n\
             <h1>did-it-actually report</h1>\n"
        ));
        for block in self.looked_at().iter().chain(self.empty_line().as_ref()) {
            html_block(&mut s, block);
        }
        if !self.is_empty() {
            s.push_str(&chart(&self.bars()));
        }
        for section in self.sections() {
            s.push_str(&format!("<h2>{}</h2>\n", esc(&section.title)));
            for block in &section.blocks {
                html_block(&mut s, block);
            }
        }
        s.push_str("</body>\n</html>\n");
        s
    }
}

fn md_block(s: &mut String, block: &Block) {
    match block {
        Block::Para(text) => s.push_str(&format!("{text}\n\n")),
        Block::List(items) => {
            for item in items {
                s.push_str(&format!("- {}\n", crate::shell::walk::cut(item)));
            }
            s.push('\n');
        }
        Block::Table(head, rows) => {
            s.push_str(&format!("| {} |\n", head.join(" | ")));
            let rule: Vec<&str> = head.iter().map(|_| "---").collect();
            s.push_str(&format!("|{}|\n", rule.join("|")));
            for row in rows {
                let cells: Vec<String> = row.iter().map(md_cell).collect();
                s.push_str(&format!("| {} |\n", cells.join(" | ")));
            }
            s.push('\n');
        }
    }
}

/// A table cell: one line, its bars escaped (a path or a reason may hold either).
fn md_cell(cell: &Cell) -> String {
    let line = |t: &str| t.replace('\n', " ").replace('|', "\\|");
    match cell {
        Cell::Text(t) => line(t),
        Cell::Code(t) => format!("`{}`", line(t).replace('`', "'")),
        Cell::Num(n) => n.to_string(),
    }
}

/// Text for HTML: every character that could open markup or close an attribute, escaped.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn html_block(s: &mut String, block: &Block) {
    match block {
        Block::Para(text) => s.push_str(&format!("<p>{}</p>\n", esc(text))),
        Block::List(items) => {
            s.push_str("<ul>\n");
            for item in items {
                s.push_str(&format!("<li>{}</li>\n", esc(item)));
            }
            s.push_str("</ul>\n");
        }
        Block::Table(head, rows) => {
            s.push_str("<table>\n<thead><tr>");
            for h in head {
                s.push_str(&format!("<th>{}</th>", esc(h)));
            }
            s.push_str("</tr></thead>\n<tbody>\n");
            for row in rows {
                s.push_str("<tr>");
                for (i, cell) in row.iter().enumerate() {
                    s.push_str(&match cell {
                        // A row's key (a guard, a host) is not broken at its hyphens.
                        Cell::Text(t) if i == 0 => format!("<td class=\"k\">{}</td>", esc(t)),
                        Cell::Text(t) => format!("<td>{}</td>", esc(t)),
                        Cell::Code(t) => format!("<td><code>{}</code></td>", esc(t)),
                        Cell::Num(n) => format!("<td class=\"n\">{n}</td>"),
                    });
                }
                s.push_str("</tr>\n");
            }
            s.push_str("</tbody>\n</table>\n");
        }
    }
}

const HTML_STYLE: &str = "
body{font:15px/1.5 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;background:#fff}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.25rem .6rem;text-align:left;vertical-align:top}
th{background:#f4f4f4}td.k{white-space:nowrap}td.n{text-align:right;font-variant-numeric:tabular-nums}
code{font:13px ui-monospace,monospace;word-break:break-all}
figure{margin:1rem 0}svg{max-width:100%;height:auto}figcaption{color:#555}
.refusals{fill:#2b6cb0}.unbacked{fill:#c53030}.axis{stroke:#999}.label{font:11px system-ui,sans-serif;fill:#555}
.key{display:inline-block;width:.8em;height:.8em;margin:0 .3em 0 1em}.key.refusals{background:#2b6cb0}.key.unbacked{background:#c53030}
@media (prefers-color-scheme:dark){body{background:#161616;color:#e6e6e6}th{background:#262626}th,td{border-color:#444}h2{border-color:#444}.label,figcaption{fill:#aaa;color:#aaa}}
";

/// The chart: for each bar (a day, or a few), the refusals and the unbacked claims side by
/// side. Each bar carries its series, first day and count as data attributes, and its
/// count as a tooltip.
fn chart(bars: &[Bar]) -> String {
    const H: f64 = 180.0;
    const TOP: f64 = 10.0;
    const LEFT: f64 = 36.0;
    // A week's bars are wide; a year's narrow, and the page scales them down to fit.
    let group = (640.0 / bars.len().max(1) as f64).clamp(24.0, 80.0);
    let bar = (group * 0.38).floor();
    let max = bars
        .iter()
        .map(|b| b.refusals.max(b.unbacked))
        .max()
        .unwrap_or(0)
        .max(1);
    let width = LEFT + group * bars.len() as f64 + 8.0;
    let height = TOP + H + 34.0;
    let per_day = bars.first().is_none_or(|b| b.days == 1);
    let mut s = format!(
        "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"refusals and unbacked claims per {}\">\n",
        if per_day { "day" } else { "few days" }
    );
    let base = TOP + H;
    s.push_str(&format!(
        "<line class=\"axis\" x1=\"{LEFT}\" y1=\"{base}\" x2=\"{width}\" y2=\"{base}\"/>\n\
         <text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{max}</text>\n\
         <text class=\"label\" x=\"{}\" y=\"{base}\" text-anchor=\"end\">0</text>\n",
        LEFT - 4.0,
        TOP + 8.0,
        LEFT - 4.0
    ));
    // About a dozen date labels, whatever the number of bars.
    let every = bars.len().div_ceil(12).max(1);
    for (i, b) in bars.iter().enumerate() {
        let x = LEFT + group * i as f64 + (group - 2.0 * bar) / 2.0;
        for (offset, class, n, what) in [
            (0.0, "refusals", b.refusals, ("refusal", "refusals")),
            (
                bar,
                "unbacked",
                b.unbacked,
                ("unbacked claim", "unbacked claims"),
            ),
        ] {
            let h = H * n as f64 / max as f64;
            let y = base - h;
            s.push_str(&format!(
                "<rect class=\"{class}\" data-series=\"{class}\" data-day=\"{}\" data-days=\"{}\" data-count=\"{n}\" x=\"{}\" y=\"{y:.1}\" width=\"{bar}\" height=\"{h:.1}\"><title>{}{}: {}</title></rect>\n",
                b.day,
                b.days,
                x + offset,
                b.day,
                if b.days > 1 { format!(" ({} days)", b.days) } else { String::new() },
                crate::words::count(n, what.0, what.1)
            ));
        }
        if i % every == 0 {
            s.push_str(&format!(
                "<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                x + bar,
                base + 16.0,
                &b.day[5..]
            ));
        }
    }
    s.push_str(&format!(
        "</svg>\n<figcaption><span class=\"key refusals\"></span>refusals <span class=\"key unbacked\"></span>unbacked claims, per {} (UTC)</figcaption>\n</figure>\n",
        if per_day {
            "day".to_owned()
        } else {
            format!("{} days", bars[0].days)
        }
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> SystemTime {
        crate::time::parse_rfc3339(text).unwrap()
    }

    #[test]
    fn since_reads_a_duration_or_a_date_and_until_ends_its_day() {
        assert_eq!(
            parse_since("7d"),
            Ok(Since::Ago(Duration::from_secs(7 * DAY)))
        );
        assert_eq!(
            parse_since("12h"),
            Ok(Since::Ago(Duration::from_secs(12 * 3600)))
        );
        assert_eq!(
            parse_since("2w"),
            Ok(Since::Ago(Duration::from_secs(14 * DAY)))
        );
        assert_eq!(
            parse_since("30m"),
            Ok(Since::Ago(Duration::from_secs(1800)))
        );
        assert_eq!(
            parse_since("2026-05-01"),
            Ok(Since::At(at("2026-05-01T00:00:00Z")))
        );
        assert_eq!(
            parse_since("2026-05-01T09:30:00Z"),
            Ok(Since::At(at("2026-05-01T09:30:00Z")))
        );
        assert_eq!(parse_until("2026-05-01"), Ok(at("2026-05-02T00:00:00Z")));
        assert_eq!(
            parse_until("2026-05-01T09:30:00Z"),
            Ok(at("2026-05-01T09:30:00Z"))
        );
        for bad in [
            "",
            "7",
            "d",
            "7 d",
            "7y",
            "-1d",
            "2026-5-1",
            "yesterday",
            "99999999999999999999d",
        ] {
            assert!(parse_since(bad).is_err(), "{bad}");
        }
        assert!(parse_until("7d").is_err());
    }

    #[test]
    fn the_window_counts_back_from_now_and_holds_its_start_but_not_its_end() {
        let now = at("2026-05-08T12:00:00Z");
        let w = Window::new(None, None, now).unwrap();
        assert_eq!((w.since, w.until), (at("2026-05-01T12:00:00Z"), now));
        assert!(w.holds_time("2026-05-01T12:00:00.000Z"));
        assert!(!w.holds_time("2026-05-01T11:59:59.999Z"));
        assert!(!w.holds_time("2026-05-08T12:00:00.000Z"));
        assert!(!w.holds_time("not a time"));
        let w = Window::new(
            Some(Since::At(at("2026-05-01T00:00:00Z"))),
            Some(at("2026-05-03T00:00:00Z")),
            now,
        )
        .unwrap();
        assert!(w.holds_time("2026-05-02T23:59:59Z"));
        let backwards = Window::new(Some(Since::At(now)), Some(at("2026-05-01T00:00:00Z")), now);
        assert!(backwards.unwrap_err().contains("the window is empty"));
    }

    #[test]
    fn a_window_has_a_bar_per_day_and_a_long_one_a_bar_per_few_days() {
        let w = Window::new(
            Some(Since::At(at("2026-05-01T12:00:00Z"))),
            Some(at("2026-05-08T12:00:00Z")),
            at("2026-05-08T12:00:00Z"),
        )
        .unwrap();
        let days = w.days();
        // The partial first and last days are bars of their own.
        assert_eq!(days.len(), 8);
        assert_eq!(date(days[0].0), "2026-05-01");
        assert_eq!(date(days[7].0), "2026-05-08");
        assert!(days.iter().all(|(_, n)| *n == 1));
        // Ending at midnight: that day is not in the window.
        let w = Window::new(
            Some(Since::At(at("2026-05-01T00:00:00Z"))),
            Some(at("2026-05-03T00:00:00Z")),
            at("2026-06-01T00:00:00Z"),
        )
        .unwrap();
        assert_eq!(w.days().len(), 2);
        // A year: bars of 6 days (366 / 62, up), the last shorter.
        let w = Window::new(
            Some(Since::At(at("2026-01-01T00:00:00Z"))),
            Some(at("2027-01-02T00:00:00Z")),
            at("2027-01-02T00:00:00Z"),
        )
        .unwrap();
        let days = w.days();
        assert!(days.len() as u64 <= MAX_BARS, "{}", days.len());
        assert_eq!(days[0].1, 6);
        assert_eq!(days.iter().map(|(_, n)| n).sum::<u64>(), 366);
    }

    fn denial(
        hook: &str,
        rule: Option<&str>,
        reason: &str,
        by: Option<&str>,
        host: Option<&str>,
    ) -> DenialRecord {
        DenialRecord {
            v: 1,
            kind: crate::store::DenialKind::Denial,
            time: "2026-05-02T10:00:00.000Z".into(),
            session: "s".into(),
            prompt_id: None,
            tool_use_id: None,
            event: "PreToolUse".into(),
            hook: hook.into(),
            tool: "Bash".into(),
            targets: vec![],
            rule: rule.map(Into::into),
            reason: reason.into(),
            host: host.map(Into::into),
            by: by.map(Into::into),
            cwd: None,
        }
    }

    #[test]
    fn a_refusal_is_grouped_by_its_rule_named_or_read_from_its_reason() {
        let named = denial(
            "scope-guard",
            Some("scope.root"),
            "scope-guard: outside",
            None,
            None,
        );
        assert_eq!(rule_of(&named), "scope.root");
        let read = denial(
            "block-wrong-branch",
            None,
            "block-wrong-branch: `git push origin HEAD:main` would push to the protected branch main on origin. Rule: branches.protected pattern \"main\" (branches.deny.push) in built-in defaults. Push to a feature branch instead.",
            None,
            None,
        );
        assert_eq!(
            rule_of(&read),
            "branches.protected pattern \"main\" (branches.deny.push)"
        );
        let force = denial(
            "block-wrong-branch",
            None,
            "x would force-push. Rule: branches.allow_force_push is false. Push without --force.",
            None,
            None,
        );
        assert_eq!(rule_of(&force), "branches.allow_force_push is false");
        let none = denial("scope-guard", None, "scope-guard: no command", None, None);
        assert_eq!(rule_of(&none), "(none named)");
        let run_time = denial(
            "block-wrong-branch",
            Some("r"),
            "x",
            Some("run-time"),
            Some("codex"),
        );
        assert_eq!(
            (layer_of(&read), layer_of(&run_time)),
            ("static".into(), "run-time".into())
        );
        assert_eq!(
            (host_of(&read.host), host_of(&run_time.host)),
            ("claude".into(), "codex".into())
        );
        assert_eq!(
            tally(["b", "a", "b", "c", "a", "b"]),
            [("b", 3), ("a", 2), ("c", 1)]
        );
    }

    fn audit(blocked: bool, claims: &[(&str, bool, bool)]) -> AuditRecord {
        AuditRecord {
            v: 1,
            kind: crate::store::AuditKind::Audit,
            time: "2026-05-02T10:00:00.000Z".into(),
            session: "s".into(),
            prompt_id: None,
            agent: "main".into(),
            message: String::new(),
            claims: claims
                .iter()
                .map(|(claim, backed, blocks)| crate::store::ClaimVerdict {
                    claim: (*claim).into(),
                    sentence: String::new(),
                    backed: *backed,
                    detail: String::new(),
                    blocks: *blocks,
                })
                .collect(),
            blocked,
            host: None,
        }
    }

    #[test]
    fn unbacked_claims_are_grouped_by_kind_and_blocked_only_when_the_stop_was() {
        let audits = [
            audit(
                true,
                &[
                    ("file src/a.rs changed", false, true),
                    ("file src/b.rs changed", false, true),
                    ("12 tests pass", false, false),
                    ("the build succeeds", true, false),
                ],
            ),
            // A blocking claim at a stop the loop guard let through: only reported.
            audit(
                false,
                &[
                    ("the tests pass", false, true),
                    ("commit 1a2b3c4 made", false, true),
                ],
            ),
        ];
        let rows = unbacked_by_class(&audits);
        let get = |class| rows.iter().find(|(c, _)| *c == class).map(|(_, n)| *n);
        assert_eq!(
            get(ClaimClass::FileChanged),
            Some(ClaimCount {
                blocked: 2,
                reported: 0
            })
        );
        assert_eq!(
            get(ClaimClass::Tests),
            Some(ClaimCount {
                blocked: 0,
                reported: 2
            })
        );
        assert_eq!(
            get(ClaimClass::Commit),
            Some(ClaimCount {
                blocked: 0,
                reported: 1
            })
        );
        // A backed claim is no row.
        assert_eq!(get(ClaimClass::Build), None);
        // The most frequent first.
        assert_eq!(rows.len(), 3);
        assert!(matches!(rows[2].0, ClaimClass::Commit));
    }

    /// A state root and a transcripts directory in a scratch directory, with records
    /// written by the store itself.
    struct World(PathBuf);

    impl World {
        fn new(name: &str) -> World {
            let dir =
                std::env::temp_dir().join(format!("dia-report-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(dir.join("state/sessions")).unwrap();
            World(dir)
        }

        fn append(&self, session: &str, record: crate::store::Record) {
            let id = SessionId::parse(session).unwrap();
            SessionStore::new(&self.0.join("state"), &id)
                .append(&[record])
                .unwrap();
        }

        fn transcript(&self, session: &str, first_lines: &str) {
            let dir = self.0.join("claude/projects/-work-p");
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(format!("{session}.jsonl")), first_lines).unwrap();
        }

        fn report(&self, window: Window, project: Option<&str>) -> Report {
            Report::gather(
                self.0.join("state"),
                Some(self.0.join("claude/projects")),
                window,
                project.map(PathBuf::from),
                SystemTime::now(),
            )
        }
    }

    impl Drop for World {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn now_window() -> Window {
        Window::new(None, None, SystemTime::now() + Duration::from_secs(60)).unwrap()
    }

    fn stamped<T>(mut d: T, set: impl FnOnce(&mut T)) -> T {
        set(&mut d);
        d
    }

    #[test]
    fn the_window_and_the_project_choose_the_records_and_unguarded_sessions_are_found() {
        let w = World::new("window");
        let now = crate::time::rfc3339(SystemTime::now());
        let in_a = |cwd: &str, time: &str| {
            stamped(
                denial("scope-guard", Some("scope.root"), "r", None, None),
                |d| {
                    d.cwd = Some(cwd.into());
                    d.time = time.into();
                    d.session = "s1".into();
                },
            )
        };
        w.append("s1", in_a("/work/a", &now).into());
        w.append("s1", in_a("/work/b", &now).into());
        // Long before the window.
        w.append("s1", in_a("/work/a", "2020-01-01T00:00:00.000Z").into());
        w.append(
            "s2",
            crate::store::Record::Audit(stamped(audit(true, &[("pushed", false, true)]), |a| {
                a.time = now.clone()
            })),
        );
        w.transcript(
            "s2",
            "{\"type\":\"summary\"}\n{\"cwd\":\"/work/b\",\"sessionId\":\"s2\"}\n",
        );
        w.transcript("s3", "{\"cwd\":\"/work/a\"}\n");
        // A session's subagent transcripts are not sessions.
        std::fs::create_dir_all(w.0.join("claude/projects/-work-p/s3/subagents")).unwrap();
        std::fs::write(
            w.0.join("claude/projects/-work-p/s3/subagents/agent-1.jsonl"),
            "{}\n",
        )
        .unwrap();

        let all = w.report(now_window(), None);
        assert_eq!(all.denials().count(), 2);
        assert_eq!(all.ledger.sessions.len(), 2);
        // s2 has a ledger; s3 none.
        let unguarded: Vec<&str> = all
            .transcripts
            .unguarded
            .iter()
            .map(|u| u.session.as_str())
            .collect();
        assert_eq!(unguarded, ["s3"]);
        assert_eq!(all.transcripts.in_window, 2);
        // The stop's project is its transcript's.
        let s2 = all.ledger.sessions.iter().find(|s| s.id == "s2").unwrap();
        assert_eq!(s2.project.as_deref(), Some("/work/b"));
        assert_eq!(s2.host, "claude");

        let b = w.report(now_window(), Some("/work/b"));
        assert_eq!(b.denials().count(), 1);
        assert_eq!(b.audits().count(), 1);
        assert!(b.transcripts.unguarded.is_empty());

        let old = Window::new(
            Some(Since::At(at("2019-12-31T00:00:00Z"))),
            Some(at("2020-01-02T00:00:00Z")),
            SystemTime::now(),
        )
        .unwrap();
        // The ledger was written since: read; its one old record is in this window.
        let past = w.report(old, None);
        assert_eq!(past.denials().count(), 1);
        // Sessions idle that long may have been pruned: the report says so.
        assert!(past.reaches_pruned() && !all.reaches_pruned());
        assert!(past.markdown().contains("store.prune_after_days"));
        assert!(past.transcripts.unguarded.is_empty());
    }

    #[test]
    fn what_cannot_be_read_is_named_and_an_empty_window_says_what_was_looked_at() {
        let w = World::new("unreadable");
        // A ledger that is a directory, and a directory whose name is no session id.
        std::fs::create_dir_all(w.0.join("state/sessions/s1/writes.jsonl")).unwrap();
        std::fs::create_dir_all(w.0.join("state/sessions/.hidden")).unwrap();
        // The transcripts' directory is a file.
        std::fs::create_dir_all(w.0.join("claude")).unwrap();
        std::fs::write(w.0.join("claude/projects"), "").unwrap();
        let r = w.report(now_window(), None);
        let names: Vec<&str> = r
            .ledger
            .unreadable
            .iter()
            .map(|(n, _)| n.as_str())
            .collect();
        assert_eq!(names, ["session .hidden", "session s1"]);
        assert!(matches!(r.transcripts.scan, Scan::Unreadable(_)));
        assert!(r.is_empty());
        let md = r.markdown();
        assert!(md.contains("Nothing in this window"), "{md}");
        assert!(md.contains("## Not read (2 unreadable ledgers)"), "{md}");
        assert!(md.contains("- session s1: "), "{md}");
        assert!(md.contains("Not checked: cannot read"), "{md}");
        assert!(md.contains("Read: the ledgers of 2 sessions under"), "{md}");
        let json = r.json();
        assert_eq!(json["empty"], true);
        assert_eq!(json["unguarded_sessions"]["checked"], false);
        assert_eq!(json["ledgers"]["unreadable"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn html_escapes_what_the_ledger_says() {
        assert_eq!(
            esc("<script>alert('x') & \"y\"</script>"),
            "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;"
        );
        let mut s = String::new();
        html_block(
            &mut s,
            &Block::Table(vec!["a"], vec![vec![Cell::Code("<b>".into())]]),
        );
        assert!(s.contains("<code>&lt;b&gt;</code>"), "{s}");
    }

    #[test]
    fn the_chart_has_two_bars_per_day_with_their_counts() {
        let bars = [
            Bar {
                day: "2026-05-01".into(),
                days: 1,
                refusals: 3,
                unbacked: 0,
            },
            Bar {
                day: "2026-05-02".into(),
                days: 1,
                refusals: 1,
                unbacked: 2,
            },
        ];
        let svg = chart(&bars);
        assert_eq!(svg.matches("<rect").count(), 4);
        assert!(
            svg.contains(
                "data-series=\"refusals\" data-day=\"2026-05-01\" data-days=\"1\" data-count=\"3\""
            ),
            "{svg}"
        );
        assert!(
            svg.contains(
                "data-series=\"unbacked\" data-day=\"2026-05-02\" data-days=\"1\" data-count=\"2\""
            ),
            "{svg}"
        );
        assert!(
            svg.contains("<title>2026-05-02: 2 unbacked claims</title>"),
            "{svg}"
        );
    }
}
