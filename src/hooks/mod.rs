//! The hooks. Each is a function from a typed [`HookInput`](crate::protocol::HookInput)
//! and a [`Context`] to a [`HookOutcome`]; none prints or exits. Reading the disk is the
//! hooks' job; writing state is the caller's (the records come back in the outcome).

pub mod audit_turn;
pub mod block_wrong_branch;
pub mod scope_guard;
pub mod verify_write;

use crate::policy::Policy;
use crate::protocol::{Event, Response};
use crate::store::WriteRecord;
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

    pub fn name(self) -> &'static str {
        match self {
            Hook::VerifyWrite => "verify-write",
            Hook::BlockWrongBranch => "block-wrong-branch",
            Hook::ScopeGuard => "scope-guard",
            Hook::AuditTurn => "audit-turn",
        }
    }

    pub fn from_name(name: &str) -> Option<Hook> {
        Hook::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The events the hook answers; any other event is a registration mistake.
    pub fn events(self) -> &'static [Event] {
        match self {
            Hook::VerifyWrite => &[
                Event::PostToolUse,
                Event::PostToolUseFailure,
                Event::PostToolBatch,
            ],
            Hook::BlockWrongBranch | Hook::ScopeGuard => &[Event::PreToolUse],
            Hook::AuditTurn => &[Event::Stop, Event::SubagentStop],
        }
    }

    /// The event to answer for when the input is too broken to name its own: a stop
    /// hook must not block (it could never end), the guards block (exit 2).
    pub fn fallback_event(self) -> Option<Event> {
        match self {
            Hook::AuditTurn => Some(Event::Stop),
            _ => None,
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
}

/// A hook's answer and the write-log records it wants appended.
#[derive(Debug, PartialEq)]
pub struct HookOutcome {
    pub response: Response,
    pub records: Vec<WriteRecord>,
}

impl HookOutcome {
    pub fn silent() -> Self {
        HookOutcome {
            response: Response::silent(),
            records: Vec::new(),
        }
    }
}
