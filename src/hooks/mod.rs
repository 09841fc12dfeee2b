//! The hooks. Each is a function from a typed [`HookInput`](crate::protocol::HookInput)
//! and a [`Context`] to a [`HookOutcome`]; none prints or exits. A hook reads the disk and
//! git, and the shared state through [`Context::state`]; it never writes state: the
//! [changes](crate::state::Change) it wants come back in the outcome, for the runner.

pub mod audit_turn;
pub mod block_wrong_branch;
pub mod scope_guard;
pub mod settings_change;
pub mod table;
pub mod verify_write;

pub use table::{HookSpec, HOOKS};

use crate::policy::Policy;
use crate::protocol::{Event, HookInput, Payload, Response, Verdict};
use crate::state::{Change, State};
use crate::store::{DenialKind, DenialRecord, RECORD_VERSION};
use crate::tools;
use std::time::SystemTime;

/// The hooks this build provides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    VerifyWrite,
    BlockWrongBranch,
    ScopeGuard,
    AuditTurn,
}

impl Hook {
    pub const ALL: [Hook; 4] = [
        Hook::VerifyWrite,
        Hook::BlockWrongBranch,
        Hook::ScopeGuard,
        Hook::AuditTurn,
    ];

    /// The hook's row in the [hook table](table).
    pub fn spec(self) -> &'static HookSpec {
        HOOKS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    pub fn from_name(name: &str) -> Option<Hook> {
        Hook::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The events the hook answers; any other event is a registration mistake.
    pub fn events(self) -> &'static [Event] {
        self.spec().events
    }

    /// The event to answer for when the input is too broken to name its own: a stop
    /// hook must not block (it could never end), the guards block (exit 2).
    pub fn fallback_event(self) -> Option<Event> {
        self.spec().fallback_event
    }
}

/// What a registration passes a hook on its command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookArgs {
    /// `audit-turn --end-turn-tool NAME` (repeatable).
    pub end_turn_tools: Vec<String>,
    /// `--host NAME`: whose wire format stdin and stdout are in.
    pub host: crate::protocol::host::Host,
    /// `--event NAME`: the host's event, for hosts whose payload does not name it.
    pub event: Option<String>,
}

impl Default for HookArgs {
    fn default() -> Self {
        HookArgs {
            end_turn_tools: Vec::new(),
            host: crate::protocol::host::Host::Claude,
            event: None,
        }
    }
}

/// What a hook may consult besides its input.
#[derive(Clone)]
pub struct Context<'a> {
    pub policy: &'a Policy,
    pub now: SystemTime,
    /// The process environment (a function, so tests can give their own).
    pub env: &'a dyn Fn(&str) -> Option<std::ffi::OsString>,
    /// Turn-terminator tools named at registration (`audit-turn --end-turn-tool NAME`),
    /// besides the policy's `audit.end_turn_tools`.
    pub end_turn_tools: &'a [String],
    /// The session's shared state, to read ([`crate::state::Disk`] in a run,
    /// [`crate::state::Memory`] in a test).
    pub state: &'a dyn State,
}

/// A hook's answer and the changes to the shared state it wants made.
#[derive(Debug, PartialEq)]
pub struct HookOutcome {
    pub response: Response,
    pub changes: Vec<Change>,
    /// The answer to give instead when a change cannot be made: a stop block the loop
    /// guard could not count must not be given, since it could repeat forever.
    pub if_unsaved: Option<Response>,
}

impl HookOutcome {
    pub fn silent() -> Self {
        HookOutcome::respond(Response::silent())
    }

    /// An answer that changes nothing.
    pub fn respond(response: Response) -> Self {
        HookOutcome {
            response,
            changes: Vec::new(),
            if_unsaved: None,
        }
    }

    /// An answer and the changes it goes with.
    pub fn with_changes(response: Response, changes: Vec<Change>) -> Self {
        HookOutcome {
            response,
            changes,
            if_unsaved: None,
        }
    }

    /// The same answer, with one more change.
    pub fn and(mut self, change: Change) -> Self {
        self.changes.push(change);
        self
    }

    /// A guard's refusal of the call in `input`, recorded in the ledger so that the other
    /// hooks know the call never ran (verify-write must not read it as a lost write).
    pub fn deny(
        hook: Hook,
        input: &HookInput,
        now: SystemTime,
        rule: Option<String>,
        reason: String,
    ) -> Self {
        let record = denial_record(hook, input, now, rule, &reason);
        HookOutcome::with_changes(
            Response::new(Verdict::Deny(reason)),
            record
                .into_iter()
                .map(|r| Change::Record(r.into()))
                .collect(),
        )
    }
}

/// The ledger line for a refused call, or `None` when the event is not a tool call.
pub fn denial_record(
    hook: Hook,
    input: &HookInput,
    now: SystemTime,
    rule: Option<String>,
    reason: &str,
) -> Option<DenialRecord> {
    if let Payload::ConfigChange { source, file_path } = &input.payload {
        return Some(DenialRecord {
            v: RECORD_VERSION,
            kind: DenialKind::Denial,
            time: crate::time::rfc3339(now),
            session: input.common.session_id.clone(),
            prompt_id: input.common.prompt_id.clone(),
            tool_use_id: None,
            event: input.event.name().to_owned(),
            hook: hook.name().to_owned(),
            tool: format!("settings:{source}"),
            targets: file_path.iter().map(|f| f.display().to_string()).collect(),
            rule,
            reason: reason.to_owned(),
            host: input.common.host.record_name(),
            by: None,
            cwd: Some(input.common.cwd.display().to_string()),
        });
    }
    let Payload::PreToolUse { call } = &input.payload else {
        return None;
    };
    let targets = match tools::write_kind(&call.name) {
        Some(kind) => tools::write_targets(kind, &call.input)
            .map(|ts| ts.into_iter().map(|t| t.path).collect())
            .unwrap_or_default(),
        None => call
            .input
            .get("command")
            .and_then(|c| c.as_str())
            .map(|c| vec![c.to_owned()])
            .unwrap_or_default(),
    };
    Some(DenialRecord {
        v: RECORD_VERSION,
        kind: DenialKind::Denial,
        time: crate::time::rfc3339(now),
        session: input.common.session_id.clone(),
        prompt_id: input.common.prompt_id.clone(),
        tool_use_id: call.tool_use_id.clone(),
        event: input.event.name().to_owned(),
        hook: hook.name().to_owned(),
        tool: tools::normalize(&call.name).to_owned(),
        targets,
        rule,
        reason: reason.to_owned(),
        host: input.common.host.record_name(),
        by: None,
        cwd: Some(input.common.cwd.display().to_string()),
    })
}
