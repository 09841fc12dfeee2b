//! Factory droid (observed on 0.225.2, shared/docs/hosts.md §3.5, §6): Claude Code's
//! event names and answer forms, its own tools (`Execute`, `Create`, `Edit` with
//! `old_str`/`new_str`); its Stop carries no last message. Any exit 2 blocks, every
//! other fault lets the tool run.

use super::spec::{
    ContextForm, DenyForm, Forms, Host, HostSpec, NoticeForm, PostBlockForm, StopBlockForm,
    ToolRow, TranscriptFormat,
};
use super::Event;

pub const SPEC: HostSpec = HostSpec {
    host: Host::Droid,
    name: "droid",
    title: "Factory droid",
    events: &[
        ("PreToolUse", Event::PreToolUse),
        ("PostToolUse", Event::PostToolUse),
        ("Stop", Event::Stop),
        ("SubagentStop", Event::SubagentStop),
    ],
    fields: &[],
    tools: &[
        ToolRow {
            name: "Execute",
            canonical: "Bash",
            args: &[],
            dir_arg: None,
        },
        ToolRow {
            name: "Create",
            canonical: "Write",
            args: &[],
            dir_arg: None,
        },
        ToolRow {
            name: "Edit",
            canonical: "Edit",
            args: &[("old_str", "old_string"), ("new_str", "new_string")],
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
    leave_out: &[],
};
