//! The hook table: one row per hook, read by everything that needs to know the hooks (the
//! runner's dispatch, the installer and the plugin's `hooks/hooks.json`, doctor, the
//! CLI's help). Adding a hook, or registering one on another event, is one edit here.

use super::{Context, Hook, HookOutcome};
use crate::protocol::{Event, HookInput};

/// Which tool calls a registration matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matcher {
    /// The write tools (built-in and MCP): [`crate::tools::write_tools_matcher`].
    WriteTools,
    /// The shell tools: [`crate::tools::shell_tools_matcher`].
    ShellTools,
}

/// What the host does when the hook itself fails (crashes, times out, is missing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailMode {
    /// The call is refused (`onFailure: "block"`): a guard that cannot run must not let
    /// the call through.
    Closed,
    /// The event goes on (a stop hook that fails must let the agent stop).
    Open,
}

/// When a registration is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    Always,
    /// Only when the install names turn-terminator tools (`--end-turn-tool`): an Agent SDK
    /// app's loop ends with a tool call, not a Stop.
    EndTurnTools,
}

/// One place a hook is registered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventBinding {
    pub event: Event,
    pub matcher: Option<Matcher>,
    pub timeout_secs: u32,
    pub fail: FailMode,
    pub when: When,
}

/// What a hook does when the policy file cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokenPolicy {
    /// Denies every call with the policy's error: a guard does not guess its rules.
    FailClosed,
    /// Works with the built-in defaults and says so (a stop hook must not keep the agent
    /// from stopping over a typo; verify-write's checks do not depend on the policy).
    UseDefaults,
}

/// One hook.
pub struct HookSpec {
    pub hook: Hook,
    /// The subcommand and the link name.
    pub name: &'static str,
    /// One line for `--help` (no final period, as clap shows doc comments).
    pub summary: &'static str,
    /// Every event it answers; any other is a registration mistake.
    pub events: &'static [Event],
    pub bindings: &'static [EventBinding],
    /// The event to answer for when the input is too broken to name its own.
    pub fallback_event: Option<Event>,
    pub broken_policy: BrokenPolicy,
    /// The hook itself: a pure function of the input and the context.
    pub run: fn(&HookInput, &Context) -> Result<HookOutcome, String>,
}

const fn reg(
    event: Event,
    matcher: Option<Matcher>,
    timeout_secs: u32,
    fail: FailMode,
) -> EventBinding {
    EventBinding {
        event,
        matcher,
        timeout_secs,
        fail,
        when: When::Always,
    }
}

pub const VERIFY_WRITE: HookSpec = HookSpec {
    hook: Hook::VerifyWrite,
    name: "verify-write",
    summary: "Hook: read each write back from disk and record it, and record each shell command that ran (PostToolUse, PostToolUseFailure, PostToolBatch). Reads the event JSON on stdin",
    events: &[
        Event::PostToolUse,
        Event::PostToolUseFailure,
        Event::PostToolBatch,
    ],
    bindings: &[
        reg(Event::PostToolUse, Some(Matcher::WriteTools), 30, FailMode::Closed),
        reg(
            Event::PostToolUseFailure,
            Some(Matcher::WriteTools),
            30,
            FailMode::Closed,
        ),
        // The run log: a recorder that fails must not turn a command into an error.
        reg(Event::PostToolUse, Some(Matcher::ShellTools), 10, FailMode::Open),
        reg(
            Event::PostToolUseFailure,
            Some(Matcher::ShellTools),
            10,
            FailMode::Open,
        ),
        reg(Event::PostToolBatch, None, 30, FailMode::Closed),
    ],
    fallback_event: None,
    broken_policy: BrokenPolicy::UseDefaults,
    run: |input, ctx| Ok(super::verify_write::run(input, ctx)),
};

pub const BLOCK_WRONG_BRANCH: HookSpec = HookSpec {
    hook: Hook::BlockWrongBranch,
    name: "block-wrong-branch",
    summary: "Hook: deny shell commands that would commit to, move, rewrite, delete or push to a protected branch (PreToolUse on Bash and PowerShell). Reads the event JSON on stdin",
    events: &[Event::PreToolUse],
    bindings: &[reg(
        Event::PreToolUse,
        Some(Matcher::ShellTools),
        10,
        FailMode::Closed,
    )],
    fallback_event: None,
    broken_policy: BrokenPolicy::FailClosed,
    run: |input, ctx| Ok(super::block_wrong_branch::run(input, ctx)),
};

pub const SCOPE_GUARD: HookSpec = HookSpec {
    hook: Hook::ScopeGuard,
    name: "scope-guard",
    summary: "Hook: deny writes outside the policy's scope, and to the guards' own files (PreToolUse on the write tools, Bash and PowerShell). Reads the event JSON on stdin",
    // ConfigChange (Claude Code): a settings change that takes a guard out is not loaded.
    events: &[Event::PreToolUse, Event::ConfigChange],
    bindings: &[
        reg(Event::PreToolUse, Some(Matcher::WriteTools), 10, FailMode::Closed),
        reg(Event::PreToolUse, Some(Matcher::ShellTools), 10, FailMode::Closed),
        reg(Event::ConfigChange, None, 10, FailMode::Closed),
    ],
    fallback_event: None,
    broken_policy: BrokenPolicy::FailClosed,
    run: |input, ctx| Ok(super::scope_guard::run(input, ctx)),
};

pub const AUDIT_TURN: HookSpec = HookSpec {
    hook: Hook::AuditTurn,
    name: "audit-turn",
    summary: "Hook: when the agent stops, check what its final message claims against what the turn did; block the stop while claims are unbacked (Stop, SubagentStop; and PostToolBatch for an Agent SDK app's turn-terminator tool, see --end-turn-tool)",
    // PostToolBatch: an Agent SDK app's turn terminator (`--end-turn-tool`).
    events: &[Event::Stop, Event::SubagentStop, Event::PostToolBatch],
    bindings: &[
        reg(Event::Stop, None, 60, FailMode::Open),
        reg(Event::SubagentStop, None, 60, FailMode::Open),
        // A failure here ends the loop (as a failing stop audit lets the stop through)
        // rather than leaving the app without its terminator: fail closed.
        EventBinding {
            event: Event::PostToolBatch,
            matcher: None,
            timeout_secs: 60,
            fail: FailMode::Closed,
            when: When::EndTurnTools,
        },
    ],
    // A stop hook must not block when its input is unreadable: it could never end.
    fallback_event: Some(Event::Stop),
    broken_policy: BrokenPolicy::UseDefaults,
    run: super::audit_turn::run,
};

/// Every hook, in the order they are registered and listed.
pub const HOOKS: [&HookSpec; 4] = [
    &VERIFY_WRITE,
    &BLOCK_WRONG_BRANCH,
    &SCOPE_GUARD,
    &AUDIT_TURN,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hook_has_one_row_and_registers_on_events_it_answers() {
        for (k, spec) in HOOKS.iter().enumerate() {
            assert_eq!(Hook::ALL[k], spec.hook, "HOOKS follows Hook::ALL");
            assert_eq!(spec.hook.name(), spec.name);
            for r in spec.bindings {
                assert!(
                    spec.events.contains(&r.event),
                    "{} on {:?}",
                    spec.name,
                    r.event
                );
            }
        }
    }
}
