//! What a host is, as data: the types of a host's row ([`HostSpec`]: its events, field
//! names, tools and answer forms). The rows themselves live in each host's module, which
//! imports only this file; [`super::host`] lists them and reads them, so no module and
//! the table it belongs to import each other.

use super::Event;

/// A host the hooks answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host {
    Claude,
    Codex,
    Gemini,
    Copilot,
    Qwen,
    Droid,
    Cursor,
    Opencode,
}

/// One of a host's tools, in the suite's vocabulary.
#[derive(Debug)]
pub struct ToolRow {
    /// The name the host sends.
    pub name: &'static str,
    /// The suite's name for it: `Bash` for a shell, `Write`/`Edit` for file tools,
    /// `apply_patch` for Codex's patch envelope.
    pub canonical: &'static str,
    /// The host's argument names that differ, and the suite's name for each.
    pub args: &'static [(&'static str, &'static str)],
    /// A shell tool's argument holding the directory the command runs in (relative to
    /// the event's `cwd`), which becomes the call's working directory.
    pub dir_arg: Option<&'static str>,
}

/// Which form each answer takes on a host.
#[derive(Clone, Copy, Debug)]
pub struct Forms {
    /// How a tool call is refused before it runs.
    pub deny: DenyForm,
    /// How context reaches the model after a tool ran.
    pub context: ContextForm,
    /// How "a write that did not land" reaches the model after the tool ran.
    pub post_block: PostBlockForm,
    /// How the end of a turn is refused, with the prompt to go on.
    pub stop_block: StopBlockForm,
    /// Where notices for the user go.
    pub notices: NoticeForm,
    /// What a pre-tool hook prints to let a call through, when silence is not enough.
    pub allow: Option<&'static str>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DenyForm {
    /// `{"hookSpecificOutput":{"hookEventName":…,"permissionDecision":"deny",…}}`.
    ClaudeJson,
    /// `{"decision":"deny","reason":R}` (Gemini).
    Decision,
    /// `{"permissionDecision":"deny","permissionDecisionReason":R}` (Copilot).
    Permission,
    /// `{"permission":"deny","agent_message":R,"user_message":R}` (Cursor).
    CursorPermission,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContextForm {
    /// `hookSpecificOutput.additionalContext`, with the host's event name.
    HookSpecific,
    /// A top-level `additionalContext` (Copilot ignores the nested form).
    TopLevel,
    /// A top-level `additional_context` (Cursor).
    TopLevelSnake,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PostBlockForm {
    /// `{"decision":"block","reason":R}`: the host shows R in place of the tool output.
    Decision,
    /// Delivered as context: the host has no post-tool block.
    AsContext,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopBlockForm {
    /// `{"decision":"block","reason":P}`.
    DecisionBlock,
    /// `{"decision":"deny","reason":P}` (Gemini's AfterAgent).
    DecisionDeny,
    /// `{"followup_message":P}` (Cursor).
    Followup,
    /// The host cannot refuse the end of a turn (opencode): what would have been refused
    /// is reported to the user instead.
    Unsupported,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeForm {
    /// A top-level `systemMessage`.
    SystemMessage,
    /// Standard error (a host that treats unknown output fields as a failed hook).
    Stderr,
}

/// The transcript a host names, as far as the suite reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TranscriptFormat {
    /// Claude Code's JSONL: read for the turn's tool calls and the last message.
    Claude,
    /// Another format: not read as Claude's (it would read as an empty turn).
    NotRead,
}

/// Everything the suite knows about one host's wire format.
#[derive(Debug)]
pub struct HostSpec {
    pub host: Host,
    /// The `--host` name.
    pub name: &'static str,
    /// The product's name, for people.
    pub title: &'static str,
    /// The host's event names and the suite's event for each.
    pub events: &'static [(&'static str, Event)],
    /// Top-level fields the host spells its own way, and the suite's name for each.
    pub fields: &'static [(&'static str, &'static str)],
    pub tools: &'static [ToolRow],
    pub forms: Forms,
    pub transcript: TranscriptFormat,
    /// What the reader leaves out of this host's input (`json::stream::Elide`, in the
    /// host's own names): copies and results the adapter never reads, so a large write
    /// costs one copy of its content, not four.
    pub leave_out: &'static [crate::json::stream::Elide],
}
