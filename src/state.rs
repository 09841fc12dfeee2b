//! The state the hooks share, as a hook sees it: what it may read ([`State`]: the turn's
//! write log, the project's loop, the stop-block counter) and what it may ask to change
//! ([`Change`]). Hooks never write: they return changes, and the runner applies them
//! ([`Disk::apply`]), each under its own file's lock. So a hook runs in-process against
//! [`Memory`] in a test exactly as it runs against the disk.

use crate::loop_guard::{Count, LoopGuard};
use crate::loops::{self, LoopState};
use crate::store::{self, LogRead, Record, SessionId, SessionStore, StoreError};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// What a hook may read of the shared state of its session.
pub trait State {
    /// The write-log records of a turn: by its prompt id; without one, those written
    /// since `started`.
    fn turn_log(
        &self,
        prompt_id: Option<&str>,
        started: Option<SystemTime>,
    ) -> Result<LogRead, StoreError>;

    /// The project's completion-promise loop, if one was ever started. `Err`: a loop
    /// file that is there and cannot be read.
    fn project_loop(&self, project: &Path) -> Result<Option<LoopState>, String>;

    /// Stops blocked in a row for this turn and agent.
    fn stop_blocks(&self, prompt_id: &str, agent: &str) -> u32;

    /// The final message of the turn's last blocked stop.
    fn blocked_message(&self, prompt_id: &str, agent: &str) -> Option<String>;

    /// When the session's last turn ended ([`Change::TurnEnded`]).
    fn turn_ended(&self) -> Option<SystemTime>;

    /// The records written since `t` (the last turn's end), exactly.
    fn turn_log_since(&self, t: SystemTime) -> Result<LogRead, StoreError>;
}

/// A change a hook wants made to the shared state.
// A hook makes a handful per call, moved once into the store: boxing the record would buy
// nothing measurable.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A ledger line (a write checked, a call refused).
    Record(Record),
    /// The project's loop, as it is after this stop.
    Loop(LoopState),
    /// What the stop did to the turn's stop-block counter.
    StopBlocks {
        prompt_id: String,
        agent: String,
        count: Count,
        /// The message of a blocked stop, kept to recognise it when repeated.
        message: Option<String>,
    },
    /// A turn ended (its stop went through), on a host whose own session file is not
    /// read: the next turn's evidence is what the ledger holds after this.
    TurnEnded(SystemTime),
    /// The run-time layer's hooks directory brought up to date with the hooks the
    /// repository has now, before the agent's command runs (see
    /// [`crate::runtime::activation::Layout::sync`]).
    SyncGitHooks {
        hooks: PathBuf,
        /// The command may add a hook as it runs: every name, for it.
        every_name: bool,
    },
}

/// Why a change could not be made.
#[derive(Debug)]
pub struct Unsaved {
    pub change: Change,
    pub error: String,
}

/// The state on disk, under the state root (`DID_IT_ACTUALLY_STATE_DIR`, else the
/// platform's state directory), for one session.
pub struct Disk {
    /// `None`: no state directory can be named (`StoreError::NoStateDir`).
    root: Option<PathBuf>,
    session: SessionId,
}

impl Disk {
    pub fn new(env: impl Fn(&str) -> Option<OsString>, session: SessionId) -> Disk {
        Disk {
            root: store::state_root(env).ok(),
            session,
        }
    }

    /// The session whose state this is.
    pub fn session(&self) -> &SessionId {
        &self.session
    }

    fn root(&self) -> Result<&Path, StoreError> {
        self.root.as_deref().ok_or(StoreError::NoStateDir)
    }

    fn store(&self) -> Result<SessionStore, String> {
        let root = self.root().map_err(|e| e.to_string())?;
        Ok(SessionStore::new(root, &self.session))
    }

    /// Makes the changes: all records in one append, then the rest in order. Returns the
    /// changes that could not be made, with why, and whether this append created the
    /// session's log (the moment to prune old sessions).
    pub fn apply(&self, changes: Vec<Change>) -> (Vec<Unsaved>, bool) {
        let mut lines: Vec<Record> = Vec::new();
        let mut rest = Vec::new();
        for change in changes {
            match change {
                Change::Record(r) => lines.push(r),
                other => rest.push(other),
            }
        }
        let mut unsaved = Vec::new();
        let mut created = false;
        if !lines.is_empty() {
            match self
                .store()
                .and_then(|s| s.append(&lines).map_err(|e| e.to_string()))
            {
                Ok(c) => created = c,
                Err(error) => unsaved.extend(lines.into_iter().map(|r| Unsaved {
                    change: Change::Record(r),
                    error: error.clone(),
                })),
            }
        }
        for change in rest {
            if let Err(error) = self.apply_one(&change) {
                unsaved.push(Unsaved { change, error });
            }
        }
        (unsaved, created)
    }

    /// A change other than a record ([`Disk::apply`] appends those together).
    fn apply_one(&self, change: &Change) -> Result<(), String> {
        match change {
            Change::Record(_) => unreachable!("records are appended in one write by apply"),
            Change::Loop(state) => {
                let root = self.root().map_err(|e| e.to_string())?;
                loops::save(&loops::state_path(root, &state.project), state)
            }
            Change::StopBlocks {
                prompt_id,
                agent,
                count,
                message,
            } => LoopGuard::new(&self.store()?)
                .apply(prompt_id, agent, *count, message.as_deref())
                .map_err(|e| e.to_string()),
            Change::TurnEnded(at) => self
                .store()?
                .mark_turn_ended(*at)
                .map_err(|e| e.to_string()),
            Change::SyncGitHooks { hooks, every_name } => crate::runtime::activation::Layout {
                root: hooks.parent().unwrap_or(hooks).to_owned(),
            }
            .sync(*every_name, &|n: &str| std::env::var_os(n))
            .map(|_| ())
            .map_err(|e| format!("the repository's own git hooks added since the last command may not run: the run-time layer's hooks could not be brought up to date ({e})")),
        }
    }

    /// Removes other sessions untouched for `max_age`; the errors, for the user.
    pub fn prune_others(&self, max_age: Duration, now: SystemTime) -> Vec<String> {
        match self.store() {
            Ok(s) => s
                .prune_others(max_age, now)
                .errors
                .into_iter()
                .map(|e| e.to_string())
                .collect(),
            Err(e) => vec![e],
        }
    }
}

impl State for Disk {
    fn turn_log(
        &self,
        prompt_id: Option<&str>,
        started: Option<SystemTime>,
    ) -> Result<LogRead, StoreError> {
        SessionStore::new(self.root()?, &self.session).read_turn_log(prompt_id, started)
    }

    fn project_loop(&self, project: &Path) -> Result<Option<LoopState>, String> {
        let root = self.root().map_err(|e| e.to_string())?;
        loops::load(&loops::state_path(root, project))
    }

    fn stop_blocks(&self, prompt_id: &str, agent: &str) -> u32 {
        self.store()
            .map_or(0, |s| LoopGuard::new(&s).count(prompt_id, agent))
    }

    fn blocked_message(&self, prompt_id: &str, agent: &str) -> Option<String> {
        self.store()
            .ok()
            .and_then(|s| LoopGuard::new(&s).blocked_message(prompt_id, agent))
    }

    fn turn_ended(&self) -> Option<SystemTime> {
        self.store().ok()?.turn_ended()
    }

    fn turn_log_since(&self, t: SystemTime) -> Result<LogRead, StoreError> {
        SessionStore::new(self.root()?, &self.session).read_since(t, Duration::ZERO, None)
    }
}

/// The state in memory, for running hooks in-process in tests: what was read is what was
/// put in, and [`Memory::apply`] makes the changes a hook returned, as the runner would.
#[derive(Debug, Default)]
pub struct Memory {
    pub log: RefCell<Vec<Record>>,
    pub loops: RefCell<HashMap<PathBuf, LoopState>>,
    pub stop_blocks: RefCell<HashMap<(String, String), u32>>,
    pub blocked_messages: RefCell<HashMap<(String, String), String>>,
    pub turn_ended: RefCell<Option<SystemTime>>,
}

impl Memory {
    pub fn apply(&self, changes: Vec<Change>) {
        for change in changes {
            match change {
                Change::Record(r) => self.log.borrow_mut().push(r),
                Change::Loop(state) => {
                    self.loops.borrow_mut().insert(state.project.clone(), state);
                }
                Change::TurnEnded(at) => *self.turn_ended.borrow_mut() = Some(at),
                // Nothing of git's in memory.
                Change::SyncGitHooks { .. } => {}
                Change::StopBlocks {
                    prompt_id,
                    agent,
                    count,
                    message,
                } => {
                    let key = (prompt_id.clone(), agent.clone());
                    match message {
                        Some(m) => self.blocked_messages.borrow_mut().insert(key, m),
                        None => self.blocked_messages.borrow_mut().remove(&key),
                    };
                    let mut blocks = self.stop_blocks.borrow_mut();
                    match count {
                        Count::Block => {
                            blocks.retain(|(p, a), _| a != &agent || p == &prompt_id);
                            *blocks.entry((prompt_id, agent)).or_default() += 1;
                        }
                        Count::Reset => {
                            blocks.remove(&(prompt_id, agent));
                        }
                    }
                }
            }
        }
    }
}

impl State for Memory {
    fn turn_log(
        &self,
        prompt_id: Option<&str>,
        _started: Option<SystemTime>,
    ) -> Result<LogRead, StoreError> {
        let mut out = LogRead::default();
        for r in self.log.borrow().iter() {
            if prompt_id.is_none() || r.prompt_id() == prompt_id {
                match r.clone() {
                    Record::Write(w) => out.records.push(w),
                    Record::Denial(d) => out.denials.push(d),
                    Record::Run(r) => out.runs.push(r),
                    Record::Audit(a) => out.audits.push(a),
                }
            }
        }
        Ok(out)
    }

    fn project_loop(&self, project: &Path) -> Result<Option<LoopState>, String> {
        Ok(self.loops.borrow().get(project).cloned())
    }

    fn stop_blocks(&self, prompt_id: &str, agent: &str) -> u32 {
        self.stop_blocks
            .borrow()
            .get(&(prompt_id.to_owned(), agent.to_owned()))
            .copied()
            .unwrap_or(0)
    }

    fn blocked_message(&self, prompt_id: &str, agent: &str) -> Option<String> {
        self.blocked_messages
            .borrow()
            .get(&(prompt_id.to_owned(), agent.to_owned()))
            .cloned()
    }

    fn turn_ended(&self) -> Option<SystemTime> {
        *self.turn_ended.borrow()
    }

    fn turn_log_since(&self, t: SystemTime) -> Result<LogRead, StoreError> {
        let mut out = LogRead::default();
        for r in self.log.borrow().iter() {
            if crate::time::parse_rfc3339(r.time()).is_some_and(|at| at < t) {
                continue;
            }
            match r.clone() {
                Record::Write(w) => out.records.push(w),
                Record::Denial(d) => out.denials.push(d),
                Record::Run(r) => out.runs.push(r),
                Record::Audit(a) => out.audits.push(a),
            }
        }
        Ok(out)
    }
}
