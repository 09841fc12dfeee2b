//! Claude Code's hook wire format (observed on 2.1.328; see shared/docs/hook-protocol.md).
//!
//! Parsing is tolerant of unknown fields (new ones appear every release) and strict about
//! the fields a hook needs. Rendering picks, per event, the one output form that has the
//! intended effect: a PreToolUse deny JSON, a PostToolUse `decision: block`, PostToolBatch
//! context only (a block there ends the agent's loop), a Stop `decision: block`.

use super::{
    BatchCall, CallResult, Common, Event, HookInput, InputError, Output, Payload, Response,
    StopInput, ToolCall, Verdict, MAX_INPUT_BYTES,
};
use crate::json::stream::{read_value, Elide, ReadError};
use serde_json::{json, Map, Value};
use std::io::Read;
use std::path::PathBuf;

/// Where a host adapter puts a transcript in another format than Claude Code's.
pub const HOST_TRANSCRIPT: &str = "did_it_actually_host_transcript_path";
/// What marks this stop in the host's own transcript (Copilot's `timestamp`, which its
/// `hook.start` record of the stop repeats): the final message is the one before it.
pub const HOST_STOP_STAMP: &str = "did_it_actually_host_stop_stamp";
/// Where a host adapter keeps the tool's own name (`write_file`) beside the suite's
/// (`Write`), for what the agent is told.
pub const HOST_TOOL_NAME: &str = "did_it_actually_host_tool_name";
/// Where a host adapter keeps the text a tool's result showed the model (its own result
/// shape is not Claude Code's), as `{HOST_OUTPUT: text}` in place of `tool_response`.
pub const HOST_OUTPUT: &str = "did_it_actually_host_output";

/// Claude Code caps additionalContext and systemMessage strings at 10,000 characters.
pub const MAX_MESSAGE_CHARS: usize = 10_000;

/// A parse failure, with the event when the input got far enough to name one: the
/// fail-closed answer depends on it.
#[derive(Debug, PartialEq)]
pub struct ParseFailure {
    pub error: InputError,
    pub event: Option<Event>,
}

/// Parses one hook input.
pub fn parse(reader: impl Read) -> Result<HookInput, ParseFailure> {
    parse_object(read_object(reader, ELIDE)?)
}

/// The copy of a written file's content that is not read: a PostToolUse of Write sends it
/// as `tool_input.content` and again as `tool_response.content`, which differs only when
/// the user changed it in the permission dialog. Left out when equal, it reads as absent,
/// and the verifier takes the request's content (the same bytes) in its place.
pub(super) const ELIDE: &[Elide] = &[Elide::SameAs {
    path: &["tool_response", "content"],
    same_as: &["tool_input", "content"],
}];

/// Stdin as one JSON object, or why not. At most [`MAX_INPUT_BYTES`] are read (more is an
/// error, not a truncation), through a small buffer: the input is never held whole, and
/// what `leave_out` names (the host's `HostSpec::leave_out`; Claude Code's is [`ELIDE`])
/// is not held at all.
pub fn read_object(
    reader: impl Read,
    leave_out: &'static [Elide],
) -> Result<Map<String, Value>, ParseFailure> {
    let fail = |error| ParseFailure { error, event: None };
    let value = read_value(reader, MAX_INPUT_BYTES, leave_out).map_err(|e| {
        fail(match e {
            ReadError::Io(e) => InputError::Read(e.to_string()),
            ReadError::TooLarge => InputError::TooLarge {
                limit: MAX_INPUT_BYTES,
            },
            ReadError::Empty => InputError::Empty,
            ReadError::NotUtf8 { offset } => InputError::NotUtf8 { offset },
            ReadError::Syntax(e) => InputError::NotJson {
                line: e.line,
                column: e.column,
                message: e.message,
            },
            ReadError::RepeatedKey => InputError::RepeatedKey,
        })
    })?;
    match value {
        Value::Object(obj) => Ok(obj),
        _ => Err(fail(InputError::NotObject)),
    }
}

/// A hook input in Claude Code's shape (other hosts' adapters translate into it).
pub fn parse_object(obj: Map<String, Value>) -> Result<HookInput, ParseFailure> {
    let fail = |error| ParseFailure { error, event: None };
    let name = required_str(&obj, "hook_event_name").map_err(fail)?;
    let event =
        Event::from_name(name).ok_or_else(|| fail(InputError::UnknownEvent(name.into())))?;
    parse_event(event, obj).map_err(|error| ParseFailure {
        error,
        event: Some(event),
    })
}

fn parse_event(event: Event, mut obj: Map<String, Value>) -> Result<HookInput, InputError> {
    let common = Common {
        session_id: required_str(&obj, "session_id")?.to_owned(),
        prompt_id: optional_str(&obj, "prompt_id")?.map(str::to_owned),
        transcript_path: optional_str(&obj, "transcript_path")?.map(PathBuf::from),
        cwd: PathBuf::from(required_str(&obj, "cwd")?),
        permission_mode: optional_str(&obj, "permission_mode")?.map(str::to_owned),
        host: super::spec::Host::Claude,
    };
    let payload = match event {
        Event::PreToolUse => Payload::PreToolUse {
            call: tool_call(&mut obj, "")?,
        },
        Event::PostToolUse => Payload::PostToolUse {
            response: obj.remove("tool_response").unwrap_or(Value::Null),
            call: tool_call(&mut obj, "")?,
        },
        Event::PostToolUseFailure => Payload::PostToolUseFailure {
            error: optional_str(&obj, "error")?.unwrap_or_default().to_owned(),
            call: tool_call(&mut obj, "")?,
        },
        Event::PostToolBatch => {
            let calls = match obj.remove("tool_calls") {
                Some(Value::Array(items)) => items
                    .into_iter()
                    .enumerate()
                    .map(|(i, item)| batch_call(item, i))
                    .collect::<Result<_, _>>()?,
                Some(_) => {
                    return Err(InputError::WrongType {
                        field: "tool_calls".into(),
                        expected: "an array",
                    })
                }
                None => return Err(InputError::MissingField("tool_calls")),
            };
            Payload::PostToolBatch { calls }
        }
        Event::ConfigChange => Payload::ConfigChange {
            source: optional_str(&obj, "source")?.unwrap_or_default().to_owned(),
            file_path: optional_str(&obj, "file_path")?.map(PathBuf::from),
        },
        Event::Stop | Event::SubagentStop => Payload::Stop(StopInput {
            subagent: event == Event::SubagentStop,
            stop_hook_active: optional_bool(&obj, "stop_hook_active")?.unwrap_or(false),
            last_assistant_message: optional_str(&obj, "last_assistant_message")?
                .map(str::to_owned),
            agent_id: optional_str(&obj, "agent_id")?.map(str::to_owned),
            agent_transcript_path: optional_str(&obj, "agent_transcript_path")?.map(PathBuf::from),
            host_transcript_path: optional_str(&obj, HOST_TRANSCRIPT)?.map(PathBuf::from),
            host_stop_stamp: optional_str(&obj, HOST_STOP_STAMP)?.map(str::to_owned),
        }),
    };
    Ok(HookInput {
        event,
        common,
        payload,
    })
}

fn batch_call(item: Value, index: usize) -> Result<BatchCall, InputError> {
    let Value::Object(mut obj) = item else {
        return Err(InputError::WrongType {
            field: format!("tool_calls[{index}]"),
            expected: "an object",
        });
    };
    let prefix = format!("tool_calls[{index}].");
    let response = obj.remove("tool_response").unwrap_or(Value::Null);
    let call = tool_call(&mut obj, &prefix)?;
    Ok(BatchCall {
        result: batch_result(&call.name, &response),
        response,
        call,
    })
}

/// The errno names a failed file operation reports in Node.js (Claude Code's runtime).
const FS_ERRNOS: &[&str] = &[
    "EACCES",
    "EBUSY",
    "EEXIST",
    "EINVAL",
    "EIO",
    "EISDIR",
    "ELOOP",
    "EMFILE",
    "ENAMETOOLONG",
    "ENOENT",
    "ENOSPC",
    "ENOTDIR",
    "EPERM",
    "EROFS",
    "ETXTBSY",
    "EXDEV",
];

/// The texts Claude Code's write tools answer on success, as the start of the result
/// (read from the 2.1.328 and 2.1.332 binaries): Write `File created successfully at: …`
/// or `The file … has been updated successfully.`; Edit `The file … has been updated
/// successfully.` / `… has been updated. All occurrences were successfully replaced.`;
/// NotebookEdit `Updated cell …`, `Inserted cell …`, `Deleted cell …`; MultiEdit (older
/// hosts) `Applied N edits to …`.
fn is_success_text(tool: &str, text: &str) -> bool {
    let t = text.trim_start();
    let file_updated = || {
        t.starts_with("The file ")
            && (t.contains(" has been updated successfully")
                || t.contains(" has been updated. All occurrences were successfully replaced"))
    };
    match tool {
        "Write" => t.starts_with("File created successfully at: ") || file_updated(),
        "Edit" => file_updated(),
        "MultiEdit" => t.starts_with("Applied ") || file_updated(),
        "NotebookEdit" => ["Updated cell ", "Inserted cell ", "Deleted cell "]
            .iter()
            .any(|p| t.starts_with(p)),
        _ => false,
    }
}

/// How a write tool's call of a batch ended, from the result the model saw
/// (`tool_response` in PostToolBatch is that text, not the structured result).
pub fn batch_result(tool_name: &str, response: &Value) -> CallResult {
    let Some(kind) = crate::tools::write_kind(tool_name) else {
        return CallResult::Unknown;
    };
    let name = kind.name();
    let text = match response {
        Value::String(s) => s.as_str(),
        // An MCP server answers with content blocks; a refusal arrives as a bare string.
        Value::Array(_) | Value::Object(_)
            if !matches!(name, "Write" | "Edit" | "MultiEdit" | "NotebookEdit") =>
        {
            return match response.get("isError").or_else(|| response.get("is_error")) {
                Some(Value::Bool(true)) => CallResult::Failed(response.to_string()),
                _ => CallResult::Succeeded,
            };
        }
        // No result at all (an older host): nothing tells a refusal; let the disk decide.
        Value::Null => return CallResult::Unknown,
        other => return CallResult::Refused(other.to_string()),
    };
    if let Some(error) = tool_error_text(text) {
        return CallResult::Failed(error.to_owned());
    }
    if is_success_text(name, text) {
        return CallResult::Succeeded;
    }
    if matches!(name, "Write" | "Edit" | "MultiEdit" | "NotebookEdit") {
        CallResult::Refused(text.to_owned())
    } else {
        // An MCP tool's plain-text answer: success texts differ per server.
        if text.trim_start().starts_with("Successfully ") {
            CallResult::Succeeded
        } else {
            CallResult::Refused(text.to_owned())
        }
    }
}

/// The error text of a result, when the tool ran and failed: Claude Code wraps tool
/// errors in `<tool_use_error>`, and execution errors start with an errno name
/// (`ENOENT: no such file or directory, open '…'`) or `Error: `.
fn tool_error_text(text: &str) -> Option<&str> {
    let t = text.trim_start();
    if let Some(rest) = t.strip_prefix("<tool_use_error>") {
        return Some(rest.trim_end().trim_end_matches("</tool_use_error>"));
    }
    let errno = t
        .split_once(": ")
        .is_some_and(|(name, _)| FS_ERRNOS.contains(&name));
    (errno || t.starts_with("Error: ")).then_some(t)
}

/// `tool_name`, `tool_input` and `tool_use_id` of an object; `prefix` names its place in
/// errors (`tool_calls[2].`).
fn tool_call(obj: &mut Map<String, Value>, prefix: &str) -> Result<ToolCall, InputError> {
    let with_prefix = |e: InputError| match e {
        InputError::MissingField(f) if !prefix.is_empty() => InputError::WrongType {
            field: format!("{prefix}{f}"),
            expected: "present",
        },
        InputError::WrongType { field, expected } => InputError::WrongType {
            field: format!("{prefix}{field}"),
            expected,
        },
        other => other,
    };
    let name = required_str(obj, "tool_name")
        .map_err(with_prefix)?
        .to_owned();
    let tool_use_id = optional_str(obj, "tool_use_id")
        .map_err(with_prefix)?
        .map(str::to_owned);
    let host_name = optional_str(obj, HOST_TOOL_NAME)
        .map_err(with_prefix)?
        .map(str::to_owned);
    let input = match obj.remove("tool_input") {
        Some(v @ Value::Object(_)) => v,
        Some(_) => {
            return Err(with_prefix(InputError::WrongType {
                field: "tool_input".into(),
                expected: "an object",
            }))
        }
        None => return Err(with_prefix(InputError::MissingField("tool_input"))),
    };
    Ok(ToolCall {
        host_name: host_name.unwrap_or_else(|| name.clone()),
        name,
        input,
        tool_use_id,
    })
}

fn required_str<'a>(
    obj: &'a Map<String, Value>,
    field: &'static str,
) -> Result<&'a str, InputError> {
    optional_str(obj, field)?.ok_or(InputError::MissingField(field))
}

fn optional_str<'a>(
    obj: &'a Map<String, Value>,
    field: &'static str,
) -> Result<Option<&'a str>, InputError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(InputError::WrongType {
            field: field.into(),
            expected: "a string",
        }),
    }
}

fn optional_bool(
    obj: &Map<String, Value>,
    field: &'static str,
) -> Result<Option<bool>, InputError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(InputError::WrongType {
            field: field.into(),
            expected: "a boolean",
        }),
    }
}

/// Renders a hook's response for `event`.
pub fn render(event: Event, response: &Response) -> Output {
    let mut out = Map::new();
    match (&response.verdict, event) {
        (Verdict::Silent, _) => {}
        (Verdict::EndTurn(reason), _) => {
            out.insert("continue".into(), json!(false));
            out.insert("stopReason".into(), json!(cap(reason)));
        }
        (Verdict::Deny(reason) | Verdict::Block(reason), Event::PreToolUse) => {
            out.insert(
                "hookSpecificOutput".into(),
                json!({
                    "hookEventName": event.name(),
                    "permissionDecision": "deny",
                    "permissionDecisionReason": cap(reason),
                }),
            );
        }
        // A block after a batch ends the agent's loop (observed): deliver it as context so
        // the agent can still repair what went wrong.
        (
            Verdict::Deny(text) | Verdict::Block(text) | Verdict::Context(text),
            Event::PostToolBatch,
        )
        | (
            Verdict::Context(text),
            Event::PreToolUse | Event::PostToolUse | Event::PostToolUseFailure,
        ) => {
            out.insert(
                "hookSpecificOutput".into(),
                json!({"hookEventName": event.name(), "additionalContext": cap(text)}),
            );
        }
        (Verdict::Deny(reason) | Verdict::Block(reason), _) => {
            out.insert("decision".into(), json!("block"));
            out.insert("reason".into(), json!(cap(reason)));
        }
        // Stop and ConfigChange have no additionalContext: what the model should know
        // goes to the user.
        (Verdict::Context(text), Event::Stop | Event::SubagentStop | Event::ConfigChange) => {
            out.insert("systemMessage".into(), json!(cap(text)));
        }
    }
    if !response.notices.is_empty() {
        let notices = response.notices.join("\n");
        let merged = match out.get("systemMessage").and_then(Value::as_str) {
            Some(existing) => format!("{existing}\n{notices}"),
            None => notices,
        };
        out.insert("systemMessage".into(), json!(cap(&merged)));
    }
    let stdout = if out.is_empty() {
        String::new()
    } else {
        Value::Object(out).to_string()
    };
    Output {
        stdout,
        stderr: String::new(),
        exit_code: 0,
    }
}

/// The fail-closed answer when a hook could not decide: a deny or block on guarding
/// events; on Stop (where blocking could loop forever) and PostToolBatch (where a block
/// ends the session) the message goes to the model as context and to the user. When the
/// event is unknown the input was unreadable: exit 2 with the reason on stderr, which
/// every event treats as blocking.
pub fn render_failure(hook: &str, event: Option<Event>, message: &str) -> Output {
    let text = format!("{hook}: {message}");
    let Some(event) = event else {
        return Output {
            stdout: String::new(),
            stderr: format!("{text}\n"),
            exit_code: 2,
        };
    };
    let verdict = match event {
        Event::Stop | Event::SubagentStop => Verdict::Silent,
        _ => Verdict::Block(text.clone()),
    };
    render(event, &Response::new(verdict).with_notice(text))
}

/// Truncates to [`MAX_MESSAGE_CHARS`] characters on a character boundary.
fn cap(text: &str) -> String {
    const NOTE: &str = "\n[... truncated by did-it-actually]";
    match text.char_indices().nth(MAX_MESSAGE_CHARS - NOTE.len()) {
        Some((cut, _)) if text.chars().count() > MAX_MESSAGE_CHARS => {
            format!("{}{NOTE}", &text[..cut])
        }
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(event: &str) -> Value {
        json!({"session_id": "s1", "prompt_id": "p1", "cwd": "/proj",
               "transcript_path": "/t.jsonl", "hook_event_name": event,
               "some_future_field": {"x": 1}})
    }

    #[test]
    fn parses_observed_pre_tool_use() {
        let raw = r#"{"session_id":"beb5","transcript_path":"/home/u/.claude/projects/-tmp-proj/beb5.jsonl",
 "cwd":"/home/u/proj","prompt_id":"f5b2","permission_mode":"bypassPermissions",
 "effort":{"level":"medium"},"hook_event_name":"PreToolUse","tool_name":"Bash",
 "tool_input":{"command":"git push origin main","description":"push"},"tool_use_id":"toolu_2_0"}"#;
        let input = parse(raw.as_bytes()).unwrap();
        assert_eq!(input.event, Event::PreToolUse);
        assert_eq!(input.common.session_id, "beb5");
        assert_eq!(input.common.prompt_id.as_deref(), Some("f5b2"));
        let Payload::PreToolUse { call } = input.payload else {
            panic!()
        };
        assert_eq!(call.name, "Bash");
        assert_eq!(call.tool_use_id.as_deref(), Some("toolu_2_0"));
        assert_eq!(call.input["command"], "git push origin main");
    }

    #[test]
    fn parses_batch_and_stop() {
        let mut v = base("PostToolBatch");
        v["tool_calls"] = json!([{"tool_name": "Write", "tool_input": {"file_path": "/a"},
                                  "tool_use_id": "t1", "tool_response": "File created"}]);
        let input = parse(v.to_string().as_bytes()).unwrap();
        let Payload::PostToolBatch { calls } = input.payload else {
            panic!()
        };
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].response, "File created");

        let mut v = base("SubagentStop");
        v["stop_hook_active"] = json!(true);
        v["last_assistant_message"] = json!("done");
        let input = parse(v.to_string().as_bytes()).unwrap();
        let Payload::Stop(stop) = input.payload else {
            panic!()
        };
        assert!(stop.subagent && stop.stop_hook_active);
        assert_eq!(stop.last_assistant_message.as_deref(), Some("done"));
    }

    #[test]
    fn input_errors_name_what_is_wrong() {
        let err = |bytes: &[u8]| parse(bytes).unwrap_err();
        assert_eq!(err(b"  \n").error, InputError::Empty);
        assert_eq!(
            err(b"{\"a\":\"\xff\"}").error,
            InputError::NotUtf8 { offset: 6 }
        );
        assert_eq!(
            err(b"{\n \"a\": }").error.to_string(),
            format!(
                "stdin is not valid JSON at line 2, column 7: expected value{}",
                super::super::BY_HAND
            )
        );
        assert_eq!(err(b"[1]").error, InputError::NotObject);
        assert_eq!(
            err(b"{}").error,
            InputError::MissingField("hook_event_name")
        );
        assert_eq!(
            err(br#"{"hook_event_name":"Nope"}"#).error.to_string(),
            "unknown hook_event_name `Nope`; expected one of PreToolUse, PostToolUse, \
             PostToolUseFailure, PostToolBatch, Stop, SubagentStop, ConfigChange"
        );
        let mut v = base("PostToolUse");
        v["tool_name"] = json!("Write");
        let e = err(v.to_string().as_bytes());
        assert_eq!(e.event, Some(Event::PostToolUse));
        assert_eq!(
            e.error.to_string(),
            "the hook input has no `tool_input` field"
        );
        v["tool_input"] = json!("not an object");
        assert_eq!(
            err(v.to_string().as_bytes()).error.to_string(),
            "the hook input field `tool_input` should be an object"
        );
        let mut v = base("PostToolBatch");
        v["tool_calls"] = json!([{"tool_name": "Write", "tool_input": {}}, {"tool_name": 3}]);
        assert_eq!(
            err(v.to_string().as_bytes()).error.to_string(),
            "the hook input field `tool_calls[1].tool_name` should be a string"
        );
        // A lone surrogate escape is not a Unicode scalar value.
        assert!(matches!(
            err(br#"{"hook_event_name":"Stop","x":"\ud800"}"#).error,
            InputError::NotJson { .. }
        ));
    }

    #[test]
    fn the_second_copy_of_a_written_file_is_not_held() {
        let post = |response_content: &str| {
            let mut v = base("PostToolUse");
            v["tool_name"] = json!("Write");
            v["tool_use_id"] = json!("t1");
            v["tool_input"] = json!({"file_path": "/proj/a.txt", "content": "line\n\"x\"\n"});
            v["tool_response"] =
                json!({"type": "create", "content": response_content, "userModified": false});
            // serde_json writes keys sorted: tool_input before tool_response, the order
            // Claude Code sends them in (the copy is only compared with one read before).
            parse(v.to_string().as_bytes()).unwrap()
        };
        let Payload::PostToolUse { call, response } = post("line\n\"x\"\n").payload else {
            panic!("not a PostToolUse")
        };
        assert_eq!(call.input["content"], "line\n\"x\"\n");
        assert_eq!(response.get("content"), None);
        assert_eq!(response["type"], "create");
        // Changed in the permission dialog: both copies are kept.
        let Payload::PostToolUse { response, .. } = post("line\n\"y\"\n").payload else {
            panic!("not a PostToolUse")
        };
        assert_eq!(response["content"], "line\n\"y\"\n");
        // A repeated key after the copy was left out: refused, not guessed at.
        let raw = br#"{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/w","tool_name":"Write","tool_input":{"file_path":"/w/a","content":"x"},"tool_response":{"content":"x"},"tool_input":{"file_path":"/w/a","content":"y"}}"#;
        let e = parse(&raw[..]).unwrap_err();
        assert_eq!(e.error, InputError::RepeatedKey);
        assert_eq!(
            e.error.to_string(),
            "the hook input repeats a key within an object, so which of its values holds could not be told; expected one JSON object with each key once"
        );
    }

    #[test]
    fn too_large_input_is_refused() {
        let big = std::io::repeat(b' ').take(MAX_INPUT_BYTES as u64 + 10);
        assert_eq!(
            read_object(big, ELIDE).unwrap_err().error,
            InputError::TooLarge {
                limit: MAX_INPUT_BYTES
            }
        );
    }

    #[test]
    fn renders_each_event_as_the_host_expects() {
        let deny = Response::new(Verdict::Deny("no".into()));
        assert_eq!(
            render(Event::PreToolUse, &deny).stdout,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#
        );
        let block = Response::new(Verdict::Block("bad".into()));
        assert_eq!(
            render(Event::PostToolUse, &block).stdout,
            r#"{"decision":"block","reason":"bad"}"#
        );
        assert_eq!(
            render(Event::PostToolBatch, &block).stdout,
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolBatch","additionalContext":"bad"}}"#
        );
        assert_eq!(
            render(Event::Stop, &block).stdout,
            r#"{"decision":"block","reason":"bad"}"#
        );
        let silent = render(Event::PostToolUse, &Response::silent());
        assert_eq!((silent.stdout.as_str(), silent.exit_code), ("", 0));
        let noticed = Response::silent().with_notice("log unwritable");
        assert_eq!(
            render(Event::Stop, &noticed).stdout,
            r#"{"systemMessage":"log unwritable"}"#
        );
    }

    #[test]
    fn failures_fail_closed_per_event() {
        let f = render_failure("verify-write", None, "stdin was empty");
        assert_eq!(f.exit_code, 2);
        assert_eq!(f.stderr, "verify-write: stdin was empty\n");
        let f = render_failure("audit-turn", Some(Event::Stop), "boom");
        assert_eq!(f.exit_code, 0);
        assert_eq!(f.stdout, r#"{"systemMessage":"audit-turn: boom"}"#);
        let f = render_failure("scope-guard", Some(Event::PreToolUse), "boom");
        assert!(f.stdout.contains(r#""permissionDecision":"deny""#));
    }

    #[test]
    fn long_messages_are_capped() {
        let long = "é".repeat(20_000);
        let out = render(Event::PostToolBatch, &Response::new(Verdict::Context(long)));
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        let text = v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap();
        assert_eq!(text.chars().count(), MAX_MESSAGE_CHARS);
        assert!(text.ends_with("[... truncated by did-it-actually]"));
    }

    #[test]
    fn batch_results_tell_success_failure_and_refusal_apart() {
        let r = |tool: &str, v: Value| batch_result(tool, &v);
        let ok = CallResult::Succeeded;
        // Every success text of the write tools (2.1.328 / 2.1.332).
        for (tool, text) in [
            ("Write", "File created successfully at: /p/a.txt (file state is current in your context — no need to Read it back)"),
            ("Write", "The file /p/a.txt has been updated successfully."),
            ("Write", "The file /p/a.txt has been updated successfully. The user modified your proposed content before accepting it."),
            ("Edit", "The file /p/a.rs has been updated successfully."),
            ("Edit", "The file /p/a.rs has been updated. All occurrences were successfully replaced."),
            ("MultiEdit", "Applied 2 edits to /p/a.rs:"),
            ("NotebookEdit", "Updated cell abc with print(1)"),
            ("NotebookEdit", "Inserted cell def with x = 2"),
            ("NotebookEdit", "Deleted cell abc"),
            ("mcp__fs__write_file", "Successfully wrote to /p/a.txt"),
        ] {
            assert_eq!(r(tool, json!(text)), ok, "{tool}: {text}");
        }
        assert_eq!(
            r(
                "mcp__fs__write_file",
                json!([{"type": "text", "text": "Successfully wrote to /p/a"}])
            ),
            ok
        );
        // Tool errors: the tool ran and failed.
        for text in [
            "<tool_use_error>Error calling tool (Write): ENOTDIR: not a directory, mkdir '/p/f/x'</tool_use_error>",
            "EACCES: permission denied, open '/p/a.txt'",
            "ENOSPC: no space left on device, write",
            "Error: something broke",
        ] {
            assert!(matches!(r("Write", json!(text)), CallResult::Failed(_)), "{text}");
        }
        assert!(matches!(
            r(
                "mcp__fs__write_file",
                json!({"content": [], "isError": true})
            ),
            CallResult::Failed(_)
        ));
        // Refusals, in any words: our bare deny text (a path with `..`), the prefixed one,
        // a permission denial, another hook's text.
        for text in [
            "scope-guard: the Write to /tmp/outside.txt is not allowed: it is outside the project root /p (…).",
            "PreToolUse:Write hook error: scope-guard: the Write to /tmp/x is not allowed",
            "Permission to use Write has been denied.",
            "The user doesn't want to proceed with this tool use. The tool use was rejected.",
            "blocked by policy",
            "",
        ] {
            assert!(matches!(r("Write", json!(text)), CallResult::Refused(_)), "{text:?}");
            assert!(matches!(r("Edit", json!(text)), CallResult::Refused(_)), "{text:?}");
        }
        assert!(matches!(
            r("mcp__fs__write_file", json!("denied by a hook")),
            CallResult::Refused(_)
        ));
        // Not a write tool, or no result at all: nothing to tell.
        assert_eq!(r("Bash", json!("x")), CallResult::Unknown);
        assert_eq!(r("Write", Value::Null), CallResult::Unknown);
    }
}
