//! GitHub Copilot CLI (observed on 1.0.102, shared/docs/hosts.md §3.3, §4, §6): two
//! payload dialects, chosen by the case of the event names in the registration:
//! camelCase (`preToolUse`, `sessionId`, `toolName`, `toolArgs`, `toolResult`; no event
//! name in the payload, so the registration passes `--event`) and PascalCase (Claude
//! Code's names and nesting, Copilot's own argument names). Context must be a top-level
//! `additionalContext`; a deny must be JSON to carry its reason (exit 2's stderr never
//! reaches the model); bad JSON and timeouts let the tool run.

use super::spec::{
    ContextForm, DenyForm, Forms, Host, HostSpec, NoticeForm, PostBlockForm, StopBlockForm,
    ToolRow, TranscriptFormat,
};
use super::Event;
use serde_json::{Map, Value};

const FILE_ARGS: &[(&str, &str)] = &[
    ("path", "file_path"),
    ("file_text", "content"),
    ("old_str", "old_string"),
    ("new_str", "new_string"),
];

pub const SPEC: HostSpec = HostSpec {
    host: Host::Copilot,
    name: "copilot",
    title: "GitHub Copilot CLI",
    events: &[
        ("preToolUse", Event::PreToolUse),
        ("postToolUse", Event::PostToolUse),
        ("postToolUseFailure", Event::PostToolUseFailure),
        ("agentStop", Event::Stop),
        ("subagentStop", Event::SubagentStop),
    ],
    fields: &[
        ("sessionId", "session_id"),
        ("toolName", "tool_name"),
        ("toolArgs", "tool_input"),
        ("toolResult", "tool_response"),
        ("transcriptPath", "transcript_path"),
        ("stopHookActive", "stop_hook_active"),
    ],
    tools: &[
        ToolRow {
            name: "bash",
            canonical: "Bash",
            args: &[],
            dir_arg: None,
        },
        ToolRow {
            name: "create",
            canonical: "Write",
            args: FILE_ARGS,
            dir_arg: None,
        },
        ToolRow {
            name: "edit",
            canonical: "Edit",
            args: FILE_ARGS,
            dir_arg: None,
        },
        // The PascalCase dialect: Claude Code's tool names, Copilot's argument names.
        ToolRow {
            name: "Write",
            canonical: "Write",
            args: FILE_ARGS,
            dir_arg: None,
        },
        ToolRow {
            name: "Edit",
            canonical: "Edit",
            args: FILE_ARGS,
            dir_arg: None,
        },
    ],
    forms: Forms {
        deny: DenyForm::Permission,
        context: ContextForm::TopLevel,
        post_block: PostBlockForm::AsContext,
        stop_block: StopBlockForm::DecisionBlock,
        // Copilot treats unknown output fields as a failed hook: notices go to stderr.
        notices: NoticeForm::Stderr,
        allow: None,
    },
    transcript: TranscriptFormat::NotRead,
    leave_out: &[],
};

/// Whether an input registered for Claude Code was sent by Copilot (which runs the hooks
/// of a trusted repository's `.claude/settings.json`): Copilot stamps every event with a
/// `timestamp` and never sends `permission_mode`, which Claude Code always sends; on tool
/// events it sends no `transcript_path`, and its Stop names a transcript under
/// `.copilot/session-state/` with a `stop_reason`.
pub fn is_copilot_payload(obj: &Map<String, Value>) -> bool {
    if obj.contains_key("sessionId") || obj.contains_key("toolName") {
        return true;
    }
    if !obj.contains_key("timestamp") || obj.contains_key("permission_mode") {
        return false;
    }
    let copilot_transcript = obj
        .get("transcript_path")
        .and_then(Value::as_str)
        .is_some_and(|p| p.contains("/.copilot/session-state/"));
    (obj.contains_key("tool_name") && !obj.contains_key("transcript_path"))
        || (obj.contains_key("stop_reason") && copilot_transcript)
}

/// A stop, as the suite reads it: Copilot's `agentStop` also fires for a subagent (its
/// payload then names `agentId` and `parentAgentId`), which is a subagent's stop here;
/// the payload's `timestamp` marks the stop in `events.jsonl` (its `hook.start` record
/// repeats it), which Copilot writes while the hook runs.
pub fn adapt_stop(obj: &mut Map<String, Value>) {
    let stop = obj.get("hook_event_name").and_then(Value::as_str) == Some(Event::Stop.name());
    if !stop {
        return;
    }
    let agent = ["agentId", "agent_id"]
        .iter()
        .find_map(|k| obj.get(*k).and_then(Value::as_str).map(str::to_owned));
    let parent = ["parentAgentId", "parent_agent_id"]
        .iter()
        .any(|k| obj.get(*k).is_some_and(|v| !v.is_null()));
    if let (Some(agent), true) = (agent, parent) {
        obj.insert(
            "hook_event_name".into(),
            Value::from(Event::SubagentStop.name()),
        );
        obj.insert("agent_id".into(), Value::from(agent));
    }
    let stamp = match obj.get("timestamp") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    if let Some(stamp) = stamp {
        obj.insert(super::claude::HOST_STOP_STAMP.into(), Value::from(stamp));
    }
}
