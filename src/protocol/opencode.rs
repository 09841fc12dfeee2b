//! opencode (observed on 1.18.33, shared/docs/hosts.md §3.6, §4, §6): no command hooks.
//! It runs JS plugins in its own process; the plugin the installer writes
//! (`install/opencode.rs`) forwards each hook to this binary on stdin, as opencode gave
//! it with its own names: `{"hook_event_name": "tool.execute.before" |
//! "tool.execute.after" | "session.idle", "sessionID", "callID", "tool", "args", "cwd",
//! "tool_response": <the after hook's output>, "last_assistant_message"}`, and reads the
//! answer in Claude Code's forms (a deny becomes a thrown error, which opencode shows the
//! model; context and a post-tool block are appended to the tool's output). opencode has
//! no way to refuse the end of a turn (`session.idle` is an event, not a gate): the
//! audit reports there.

use super::spec::{
    ContextForm, DenyForm, Forms, Host, HostSpec, NoticeForm, PostBlockForm, StopBlockForm,
    ToolRow, TranscriptFormat,
};
use super::Event;
use serde_json::Value;

const FILE_ARGS: &[(&str, &str)] = &[
    ("filePath", "file_path"),
    ("oldString", "old_string"),
    ("newString", "new_string"),
    ("replaceAll", "replace_all"),
];

pub const SPEC: HostSpec = HostSpec {
    host: Host::Opencode,
    name: "opencode",
    title: "opencode",
    events: &[
        ("tool.execute.before", Event::PreToolUse),
        ("tool.execute.after", Event::PostToolUse),
        ("session.idle", Event::Stop),
    ],
    fields: &[
        ("sessionID", "session_id"),
        ("callID", "tool_use_id"),
        ("tool", "tool_name"),
        ("args", "tool_input"),
    ],
    tools: &[
        ToolRow {
            name: "bash",
            canonical: "Bash",
            args: &[],
            dir_arg: Some("workdir"),
        },
        ToolRow {
            name: "write",
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
        // Offered to GPT models in place of write/edit: Codex's patch envelope.
        ToolRow {
            name: "apply_patch",
            canonical: super::codex::APPLY_PATCH,
            args: &[("patchText", "command")],
            dir_arg: None,
        },
    ],
    forms: Forms {
        deny: DenyForm::ClaudeJson,
        context: ContextForm::HookSpecific,
        post_block: PostBlockForm::Decision,
        stop_block: StopBlockForm::Unsupported,
        notices: NoticeForm::SystemMessage,
        allow: None,
    },
    transcript: TranscriptFormat::NotRead,
    leave_out: &[],
};

/// The tool names the plugin forwards for each kind of hook: the shell tools and the
/// write tools, in opencode's names (the plugin has no matcher of its own).
pub fn tool_names(shell: bool) -> Vec<&'static str> {
    SPEC.tools
        .iter()
        .filter(|t| (t.canonical == "Bash") == shell)
        .map(|t| t.name)
        .collect()
}

/// A failed call, from the after hook's output: a shell command's non-zero `exit`
/// (opencode runs it and reports the status in `metadata`), with the text it showed.
pub fn failure(response: &Value) -> Option<String> {
    let exit = response.get("metadata")?.get("exit")?.as_i64()?;
    (exit != 0).then(|| {
        let shown = response.get("output").and_then(Value::as_str).unwrap_or("");
        format!("Exit Code: {exit}\n{shown}")
    })
}
