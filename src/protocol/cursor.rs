//! Cursor (from its documentation and third-party captures only: its CLI cannot run
//! here; shared/docs/hosts.md §2, hook-protocol.md §7). `hooks.json` version 1:
//! `preToolUse` (tool `Shell` with `working_directory`) or `beforeShellExecution
//! {command, cwd}`, `postToolUse`, `afterFileEdit {file_path, edits}`, `stop`. Answers:
//! `{"permission":"allow"|"deny",…}`, `additional_context`, `followup_message`. It fails
//! open unless a registration says `failClosed: true`, which the installer writes.

use super::spec::{
    ContextForm, DenyForm, Forms, Host, HostSpec, NoticeForm, PostBlockForm, StopBlockForm,
    ToolRow, TranscriptFormat,
};
use super::Event;
use serde_json::{json, Map, Value};

pub const SPEC: HostSpec = HostSpec {
    host: Host::Cursor,
    name: "cursor",
    title: "Cursor",
    events: &[
        ("preToolUse", Event::PreToolUse),
        ("beforeShellExecution", Event::PreToolUse),
        ("postToolUse", Event::PostToolUse),
        ("afterFileEdit", Event::PostToolUse),
        ("stop", Event::Stop),
        ("subagentStop", Event::SubagentStop),
    ],
    fields: &[
        ("conversation_id", "session_id"),
        ("generation_id", "prompt_id"),
    ],
    tools: &[
        ToolRow {
            name: "Shell",
            canonical: "Bash",
            args: &[],
            dir_arg: Some("working_directory"),
        },
        ToolRow {
            name: "Write",
            canonical: "Write",
            args: &[("path", "file_path"), ("contents", "content")],
            dir_arg: None,
        },
        ToolRow {
            name: "StrReplace",
            canonical: "Edit",
            args: &[("path", "file_path")],
            dir_arg: None,
        },
    ],
    forms: Forms {
        deny: DenyForm::CursorPermission,
        context: ContextForm::TopLevelSnake,
        post_block: PostBlockForm::AsContext,
        stop_block: StopBlockForm::Followup,
        notices: NoticeForm::Stderr,
        allow: Some(r#"{"permission":"allow"}"#),
    },
    transcript: TranscriptFormat::NotRead,
    leave_out: &[],
};

/// Cursor's event-shaped payloads: `beforeShellExecution {command, cwd}` is a shell
/// call, `afterFileEdit {file_path, edits}` a finished edit; a `cwd` missing from the
/// payload is the first workspace root.
pub fn adapt(obj: &mut Map<String, Value>) {
    if !obj.contains_key("cwd") {
        if let Some(root) = obj.get("workspace_roots").and_then(|r| r.get(0)).cloned() {
            obj.insert("cwd".into(), root);
        }
    }
    if obj.contains_key("tool_name") {
        return;
    }
    if let Some(command) = obj.get("command").cloned() {
        obj.insert("tool_name".into(), json!("Bash"));
        obj.insert("tool_input".into(), json!({"command": command}));
    } else if let Some(path) = obj.get("file_path").cloned() {
        let edits: Vec<Value> = obj
            .get("edits")
            .and_then(Value::as_array)
            .map(|edits| {
                edits
                    .iter()
                    .map(|e| json!({"old_string": e.get("old_string"), "new_string": e.get("new_string")}))
                    .collect()
            })
            .unwrap_or_default();
        obj.insert("tool_name".into(), json!("MultiEdit"));
        obj.insert(
            "tool_input".into(),
            json!({"file_path": path, "edits": edits}),
        );
    }
}
