//! Gemini CLI (observed on 0.61.0, shared/docs/hosts.md §3.2, §6): its own event names
//! (`BeforeTool`, `AfterTool`, `AfterAgent`), `{"decision":"deny"}` answers, a shell
//! tool whose `dir_path` is relative to `cwd`, file paths as the model sent them (maybe
//! relative), and the final answer in `AfterAgent`'s `prompt_response`. Gemini runs the
//! tool on exit 1 and on a timeout; exit 2 with text on stderr refuses it.

use super::spec::{
    ContextForm, DenyForm, Forms, Host, HostSpec, NoticeForm, PostBlockForm, StopBlockForm,
    ToolRow, TranscriptFormat,
};
use super::Event;
use crate::json::stream::Elide;
use serde_json::{Map, Value};

pub const SPEC: HostSpec = HostSpec {
    host: Host::Gemini,
    name: "gemini",
    title: "Gemini CLI",
    events: &[
        ("BeforeTool", Event::PreToolUse),
        ("AfterTool", Event::PostToolUse),
        ("AfterAgent", Event::Stop),
    ],
    fields: &[("prompt_response", "last_assistant_message")],
    tools: &[
        ToolRow {
            name: "run_shell_command",
            canonical: "Bash",
            args: &[],
            dir_arg: Some("dir_path"),
        },
        ToolRow {
            name: "write_file",
            canonical: "Write",
            args: &[],
            dir_arg: None,
        },
        ToolRow {
            name: "replace",
            canonical: "Edit",
            args: &[("allow_multiple", "replace_all")],
            dir_arg: None,
        },
    ],
    forms: Forms {
        deny: DenyForm::Decision,
        context: ContextForm::HookSpecific,
        // AfterTool's deny is not a documented block of what already ran: the model is
        // told by context, which Gemini appends to the tool's output.
        post_block: PostBlockForm::AsContext,
        stop_block: StopBlockForm::DecisionDeny,
        notices: NoticeForm::SystemMessage,
        allow: None,
    },
    transcript: TranscriptFormat::NotRead,
    // A `write_file` result repeats the content in `returnDisplay` as a diff, the new
    // content and the old: left out. `llmContent` (what the model was shown) is the run
    // log's output for a shell call, and `error` says a call failed.
    leave_out: &[Elide::Unread {
        path: &["tool_response", "returnDisplay"],
    }],
};

/// Gemini's own shapes: nothing beyond the tables yet (kept as the host's hook point).
pub fn adapt(_obj: &mut Map<String, Value>) {}
