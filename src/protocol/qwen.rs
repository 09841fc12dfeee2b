//! Qwen Code (observed on 0.24.4, shared/docs/hosts.md §3.4, §6): Claude Code's event
//! names and answer forms, its own tool names (Gemini's lineage): `run_shell_command`
//! with an optional `directory`, `write_file`, `edit`. It runs the tool on every hook
//! fault except exit 2 with text on stderr.

use super::spec::{
    ContextForm, DenyForm, Forms, Host, HostSpec, NoticeForm, PostBlockForm, StopBlockForm,
    ToolRow, TranscriptFormat,
};
use super::Event;
use crate::json::stream::Elide;

pub const SPEC: HostSpec = HostSpec {
    host: Host::Qwen,
    name: "qwen",
    title: "Qwen Code",
    events: &[
        ("PreToolUse", Event::PreToolUse),
        ("PostToolUse", Event::PostToolUse),
        ("PostToolUseFailure", Event::PostToolUseFailure),
        ("Stop", Event::Stop),
        ("SubagentStop", Event::SubagentStop),
    ],
    fields: &[],
    tools: &[
        ToolRow {
            name: "run_shell_command",
            canonical: "Bash",
            args: &[],
            dir_arg: Some("directory"),
        },
        ToolRow {
            name: "write_file",
            canonical: "Write",
            args: &[],
            dir_arg: None,
        },
        ToolRow {
            name: "edit",
            canonical: "Edit",
            args: &[],
            dir_arg: None,
        },
    ],
    forms: Forms {
        deny: DenyForm::ClaudeJson,
        context: ContextForm::HookSpecific,
        post_block: PostBlockForm::Decision,
        stop_block: StopBlockForm::DecisionBlock,
        notices: NoticeForm::SystemMessage,
        allow: None,
    },
    transcript: TranscriptFormat::NotRead,
    // As Gemini CLI's: the result's `llmContent` and `returnDisplay` (a diff, the new
    // content and the old) are never read; only `error` is.
    // `llmContent` is kept: the run log's output for a shell call.
    leave_out: &[Elide::Unread {
        path: &["tool_response", "returnDisplay"],
    }],
};
