//! Host wire formats. A host adapter turns stdin bytes into a host-neutral [`HookInput`]
//! and renders a [`Response`] back into the host's stdout, stderr and exit code.
//! Claude Code is the first host ([`claude`]), and its names are the suite's; every other
//! host is a row of tables ([`host`]) translated into them, one module each.

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod droid;
pub mod gemini;
pub mod host;
pub mod opencode;
pub mod qwen;
pub mod spec;

use serde_json::Value;
use std::path::PathBuf;

/// The most stdin a hook accepts; beyond it the input is refused rather than buffered
/// without bound. Generous, because Claude Code sends a written file's content up to three
/// times in one PostToolUse (`tool_input.content`, `tool_response.content`, and for an
/// update `originalFile`): a 50 MB Write arrives as about 100 MB of JSON.
pub const MAX_INPUT_BYTES: usize = 256 * 1024 * 1024;

/// The host events the suite handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    PreToolUse,
    PostToolUse,
    PostToolUseFailure,
    PostToolBatch,
    Stop,
    SubagentStop,
    /// Claude Code: a settings file changed on disk (or a change is proposed), before it
    /// is loaded; a block keeps the loaded version.
    ConfigChange,
}

impl Event {
    pub const ALL: [Event; 7] = [
        Event::PreToolUse,
        Event::PostToolUse,
        Event::PostToolUseFailure,
        Event::PostToolBatch,
        Event::Stop,
        Event::SubagentStop,
        Event::ConfigChange,
    ];

    /// The event's name on the wire (`hook_event_name`).
    pub fn name(self) -> &'static str {
        match self {
            Event::PreToolUse => "PreToolUse",
            Event::PostToolUse => "PostToolUse",
            Event::PostToolUseFailure => "PostToolUseFailure",
            Event::PostToolBatch => "PostToolBatch",
            Event::Stop => "Stop",
            Event::SubagentStop => "SubagentStop",
            Event::ConfigChange => "ConfigChange",
        }
    }

    pub fn from_name(name: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|e| e.name() == name)
    }
}

/// Fields every event carries.
#[derive(Clone, Debug, PartialEq)]
pub struct Common {
    pub session_id: String,
    /// The current user prompt: the key of a turn. Older hosts may not send it.
    pub prompt_id: Option<String>,
    pub transcript_path: Option<PathBuf>,
    pub cwd: PathBuf,
    pub permission_mode: Option<String>,
    /// The host that sent the event (named at registration, or recognised: Copilot
    /// running Claude Code's hooks).
    pub host: host::Host,
}

/// One tool call as the host describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The name in the suite's vocabulary (Claude Code's), MCP prefix included (see
    /// [`crate::tools::normalize`]).
    pub name: String,
    /// The name the host and its agent know the tool by (`write_file`, `run_shell_command`,
    /// `apply_patch`): what messages to the agent say. Claude Code's: the same as `name`.
    pub host_name: String,
    pub input: Value,
    pub tool_use_id: Option<String>,
}

/// One call of a PostToolBatch: the call and the text the model saw as its result.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchCall {
    pub call: ToolCall,
    pub response: Value,
    /// How the call ended, as the host's result text shows it.
    pub result: CallResult,
}

/// How a tool call ended, read from what the model was shown. Success is recognised
/// positively (the host's own success texts and shapes): a refusal can come from any
/// hook, permission rule or the user, in any words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallResult {
    /// The host reported success (the disk still has to confirm it).
    Succeeded,
    /// The tool ran and failed (`<tool_use_error>`, an errno); the text the model saw.
    Failed(String),
    /// The call never ran: a hook, a permission rule or the user refused it; the text the
    /// model saw.
    Refused(String),
    /// Not a tool this classification knows the texts of.
    Unknown,
}

/// What the event is about, per event.
#[derive(Clone, Debug, PartialEq)]
pub enum Payload {
    PreToolUse {
        call: ToolCall,
    },
    PostToolUse {
        call: ToolCall,
        /// The tool's structured result (for Write: `type`, `filePath`, `content`, ...).
        response: Value,
    },
    PostToolUseFailure {
        call: ToolCall,
        error: String,
    },
    PostToolBatch {
        calls: Vec<BatchCall>,
    },
    Stop(StopInput),
    /// `source`: `user_settings`, `project_settings`, `local_settings`, `policy_settings`
    /// (which cannot be blocked) or `skills`; `file_path`: the changed file, or the copy
    /// holding the proposed content.
    ConfigChange {
        source: String,
        file_path: Option<PathBuf>,
    },
}

/// Stop and SubagentStop.
#[derive(Clone, Debug, PartialEq)]
pub struct StopInput {
    pub subagent: bool,
    pub stop_hook_active: bool,
    pub last_assistant_message: Option<String>,
    pub agent_id: Option<String>,
    pub agent_transcript_path: Option<PathBuf>,
    /// The host's own transcript, when it is not in Claude Code's format (Copilot's
    /// `events.jsonl`, droid's session): read only for the final message, when the event
    /// does not carry it.
    pub host_transcript_path: Option<PathBuf>,
    /// What marks this stop in that transcript, where the host writes it while the hook
    /// runs (Copilot): the final message is the one before the mark.
    pub host_stop_stamp: Option<String>,
}

/// A parsed hook input: common fields plus the event's payload.
#[derive(Clone, Debug, PartialEq)]
pub struct HookInput {
    pub event: Event,
    pub common: Common,
    pub payload: Payload,
}

/// A hook's decision, independent of any host's wire format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No opinion: the host's normal flow continues (exit 0, no output).
    Silent,
    /// Refuse a tool call that has not run yet.
    Deny(String),
    /// Something that already happened is wrong: make the agent act on it (PostToolUse
    /// block, Stop block). Where blocking would end the agent's loop instead (PostToolBatch)
    /// the adapter delivers it as context.
    Block(String),
    /// Information for the model, without error framing.
    Context(String),
    /// End the agent's loop cleanly, with the reason (an Agent SDK app's turn terminator
    /// whose claims hold). On PostToolBatch every call of the batch has resolved, so
    /// nothing is cut short.
    EndTurn(String),
}

/// What a hook answers: its verdict, plus notices for the user about degraded paths
/// (a record that could not be written, a policy that could not be read). Notices are
/// never silent: they reach the user as a system message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub verdict: Verdict,
    pub notices: Vec<String>,
}

impl Response {
    pub fn new(verdict: Verdict) -> Self {
        Response {
            verdict,
            notices: Vec::new(),
        }
    }

    pub fn silent() -> Self {
        Response::new(Verdict::Silent)
    }

    pub fn with_notice(mut self, notice: impl Into<String>) -> Self {
        self.notices.push(notice.into());
        self
    }
}

/// Bytes for the host: what to print and how to exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: u8,
}

/// Why stdin could not be turned into a [`HookInput`]. Each message is one line that
/// names what was wrong and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    Read(String),
    TooLarge {
        limit: usize,
    },
    Empty,
    NotUtf8 {
        offset: usize,
    },
    NotJson {
        line: usize,
        column: usize,
        message: String,
    },
    NotObject,
    /// An object repeated a key in an input whose duplicate content was left unread.
    RepeatedKey,
    MissingField(&'static str),
    WrongType {
        field: String,
        expected: &'static str,
    },
    UnknownEvent(String),
}

/// What a person who ran a hook by hand needs to know, after an error that says the input
/// is not a hook event at all.
pub const BY_HAND: &str = " (a hook reads the one event its host sends as JSON on stdin; to try the guards by hand: `did-it-actually explain '<command>'`, `did-it-actually check-path <path>`)";

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::Read(e) => write!(f, "could not read the hook input from stdin: {e}"),
            InputError::TooLarge { limit } => write!(
                f,
                "the hook input on stdin is larger than {} MiB, so it was not read and nothing was checked",
                limit / (1024 * 1024)
            ),
            InputError::Empty => write!(f, "stdin was empty; expected one JSON object{BY_HAND}"),
            InputError::NotUtf8 { offset } => {
                write!(f, "stdin is not UTF-8 (invalid byte at offset {offset}); expected one JSON object{BY_HAND}")
            }
            InputError::NotJson {
                line,
                column,
                message,
            } => {
                write!(
                    f,
                    "stdin is not valid JSON at line {line}, column {column}: {message}{BY_HAND}"
                )
            }
            InputError::NotObject => write!(
                f,
                "stdin is JSON but not an object; expected one JSON object{BY_HAND}"
            ),
            InputError::RepeatedKey => write!(
                f,
                "the hook input repeats a key within an object, so which of its values holds could not be told; expected one JSON object with each key once"
            ),
            InputError::MissingField(name) => write!(f, "the hook input has no `{name}` field"),
            InputError::WrongType { field, expected } => {
                write!(f, "the hook input field `{field}` should be {expected}")
            }
            InputError::UnknownEvent(name) => write!(
                f,
                "unknown hook_event_name `{name}`; expected one of {}",
                Event::ALL.map(Event::name).join(", ")
            ),
        }
    }
}

impl std::error::Error for InputError {}
