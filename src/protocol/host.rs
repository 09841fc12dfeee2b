//! The hosts, as data: for each, the names of its events, the fields it spells its own
//! way, its tools (name and argument names, translated into the suite's vocabulary) and
//! the forms its answers take. One row per host ([`HOSTS`]); the modules beside this one
//! hold each host's row and what a table cannot say (Codex's patch envelope).
//!
//! Decoding is one function for all hosts ([`decode`]): host bytes -> the host's JSON
//! with its names replaced by the suite's (Claude Code's, the first host) -> the typed
//! [`HookInput`]. Encoding ([`encode`], [`encode_failure`]) is one function reading the
//! host's [`Forms`]. The host is named at registration (`--host`), never guessed, except
//! for the one file two hosts read (Copilot runs the hooks of `.claude/settings.json`,
//! with its own argument names): see [`copilot::is_copilot_payload`].

use super::claude::{self, ParseFailure};
use super::{codex, copilot, cursor, droid, gemini, opencode, qwen};
use super::{Event, HookInput, InputError, Output, Response, Verdict};
use serde_json::{json, Map, Value};
use std::path::Path;

pub use super::spec::{
    ContextForm, DenyForm, Forms, Host, HostSpec, NoticeForm, PostBlockForm, StopBlockForm,
    ToolRow, TranscriptFormat,
};

impl Host {
    /// The name a record carries: none for Claude Code (records made before hosts were
    /// named are Claude Code's).
    pub fn record_name(self) -> Option<String> {
        (self != Host::Claude).then(|| self.name().to_owned())
    }

    pub const ALL: [Host; 8] = [
        Host::Claude,
        Host::Codex,
        Host::Gemini,
        Host::Copilot,
        Host::Qwen,
        Host::Droid,
        Host::Cursor,
        Host::Opencode,
    ];

    /// The host's row in [`HOSTS`].
    pub fn spec(self) -> &'static HostSpec {
        HOSTS[self as usize]
    }

    /// The name `--host` takes.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    pub fn from_name(name: &str) -> Option<Host> {
        Host::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The names `--host` takes, for messages.
    pub fn names() -> String {
        Host::ALL.map(Host::name).join(", ")
    }
}

/// The Claude Code row: its names are the suite's.
pub const CLAUDE: HostSpec = HostSpec {
    host: Host::Claude,
    name: "claude",
    title: "Claude Code",
    events: &[],
    fields: &[],
    tools: &[],
    forms: Forms {
        deny: DenyForm::ClaudeJson,
        context: ContextForm::HookSpecific,
        post_block: PostBlockForm::Decision,
        stop_block: StopBlockForm::DecisionBlock,
        notices: NoticeForm::SystemMessage,
        allow: None,
    },
    transcript: TranscriptFormat::Claude,
    leave_out: claude::ELIDE,
};

/// Every host, in [`Host`] order.
pub const HOSTS: [&HostSpec; 8] = [
    &CLAUDE,
    &codex::SPEC,
    &gemini::SPEC,
    &copilot::SPEC,
    &qwen::SPEC,
    &droid::SPEC,
    &cursor::SPEC,
    &opencode::SPEC,
];

/// How an input was read: the host, and for Copilot which of its two payload dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dialect {
    pub host: Host,
    /// Copilot's camelCase events (`preToolUse`), whose answers differ from its
    /// PascalCase (Claude-compatible) ones.
    pub camel: bool,
}

impl Dialect {
    /// The dialect of a registration for `host`: for Copilot, the camelCase hooks file
    /// the installer writes (its PascalCase dialect only arrives through Claude Code's
    /// settings, recognised by [`decode`]).
    pub fn of(host: Host) -> Dialect {
        Dialect {
            host,
            camel: host == Host::Copilot,
        }
    }
}

/// Decodes one hook input of `host`. `event` is the event named at registration
/// (`--event`), for hosts whose payload does not name it (Copilot's camelCase hooks).
pub fn decode(
    host: Host,
    event: Option<&str>,
    stdin: impl std::io::Read,
) -> Result<(HookInput, Dialect), ParseFailure> {
    // Copilot's payload in Claude Code's settings is told apart only once read; its
    // result holds nothing Claude Code's rule would leave out.
    let obj = claude::read_object(stdin, host.spec().leave_out)?;
    let mut dialect = Dialect::of(host);
    if host == Host::Claude {
        if !copilot::is_copilot_payload(&obj) {
            return claude::parse_object(obj).map(|i| (i, dialect));
        }
        // Copilot running the hooks of `.claude/settings.json`: its argument names.
        dialect.host = Host::Copilot;
    }
    let spec = dialect.host.spec();
    let named = obj
        .get("hook_event_name")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| event.map(str::to_owned));
    let Some(name) = named else {
        return Err(ParseFailure {
            error: InputError::MissingField("hook_event_name"),
            event: None,
        });
    };
    let Some(canonical) = canonical_event(spec, &name) else {
        return Err(ParseFailure {
            error: InputError::UnknownEvent(name),
            event: None,
        });
    };
    dialect.camel = dialect.host == Host::Copilot && name.starts_with(char::is_lowercase);
    let obj = translate(spec, canonical, obj).map_err(|error| ParseFailure {
        error,
        event: Some(canonical),
    })?;
    claude::parse_object(obj).map(|mut i| {
        i.common.host = dialect.host;
        (i, dialect)
    })
}

/// The suite's event for a host's event name (its own, or the suite's where it uses them).
fn canonical_event(spec: &HostSpec, name: &str) -> Option<Event> {
    spec.events
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, e)| *e)
        .or_else(|| Event::from_name(name))
}

/// The host's JSON with the suite's names.
fn translate(
    spec: &HostSpec,
    event: Event,
    mut obj: Map<String, Value>,
) -> Result<Map<String, Value>, InputError> {
    for (from, to) in spec.fields {
        if !obj.contains_key(*to) {
            if let Some(v) = obj.remove(*from) {
                obj.insert((*to).to_owned(), v);
            }
        }
    }
    obj.insert("hook_event_name".into(), json!(event.name()));
    if spec.transcript == TranscriptFormat::NotRead {
        if let Some(path) = obj.remove("transcript_path") {
            obj.insert(claude::HOST_TRANSCRIPT.into(), path);
        }
    }
    match spec.host {
        Host::Gemini => gemini::adapt(&mut obj),
        Host::Cursor => cursor::adapt(&mut obj),
        Host::Copilot => copilot::adapt_stop(&mut obj),
        _ => {}
    }
    let Some(name) = obj
        .get("tool_name")
        .and_then(Value::as_str)
        .map(str::to_owned)
    else {
        return Ok(obj);
    };
    if let Some(row) = spec.tools.iter().find(|r| r.name == name) {
        obj.insert("tool_name".into(), json!(row.canonical));
        obj.insert(claude::HOST_TOOL_NAME.into(), json!(name));
        if let Some(Value::Object(args)) = obj.get_mut("tool_input") {
            rename_args(row, args);
        }
        if let Some(arg) = row.dir_arg {
            if let Some(dir) = shell_dir(&obj, arg)? {
                obj.insert("cwd".into(), json!(dir));
            }
        }
        if row.canonical == codex::APPLY_PATCH {
            codex::adapt_patch(&mut obj);
        }
    }
    if matches!(event, Event::PostToolUse) {
        if let Some(error) = host_failure(spec.host, obj.get("tool_response")) {
            obj.insert(
                "hook_event_name".into(),
                json!(Event::PostToolUseFailure.name()),
            );
            obj.insert("error".into(), json!(error));
        }
        // The structured result is Claude Code's; another host's would be misread. What
        // the host showed the model is kept as text, for the run log.
        let shown = host_output_text(obj.get("tool_response"));
        obj.insert(
            "tool_response".into(),
            match shown {
                Some(text) => json!({ claude::HOST_OUTPUT: text }),
                None => Value::Null,
            },
        );
    }
    Ok(obj)
}

fn rename_args(row: &ToolRow, args: &mut Map<String, Value>) {
    for (from, to) in row.args {
        if !args.contains_key(*to) {
            if let Some(v) = args.remove(*from) {
                args.insert((*to).to_owned(), v);
            }
        }
    }
}

/// A shell call's working directory: the event's `cwd` joined with the tool's own
/// directory argument, when it has one.
fn shell_dir(obj: &Map<String, Value>, arg: &str) -> Result<Option<String>, InputError> {
    let dir = match obj.get("tool_input").and_then(|i| i.get(arg)) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(d)) if d.is_empty() => return Ok(None),
        Some(Value::String(d)) => d,
        // A directory the guard cannot read would have the command judged in the wrong
        // place: an input error, like a mistyped field, which the guards refuse.
        Some(_) => {
            return Err(InputError::WrongType {
                field: format!("tool_input.{arg}"),
                expected: "a string (the directory the command runs in)",
            })
        }
    };
    let Some(cwd) = obj.get("cwd").and_then(Value::as_str) else {
        return Ok(None);
    };
    Ok(Some(
        crate::fsutil::absolute(Path::new(dir), Path::new(cwd))
            .to_string_lossy()
            .into_owned(),
    ))
}

/// The error text of a tool that ran and failed, from the host's post-tool result.
/// The text a host's tool result showed the model: a string as it is, else the field
/// each host keeps it in (Gemini's and Qwen's `llmContent`, Copilot's `textResultForLlm`,
/// an `output`), else the result as JSON.
fn host_output_text(response: Option<&Value>) -> Option<String> {
    let r = response.filter(|r| !r.is_null())?;
    if let Some(text) = r.as_str() {
        return Some(text.to_owned());
    }
    for key in [
        "llmContent",
        "textResultForLlm",
        "text_result_for_llm",
        "output",
    ] {
        if let Some(text) = r.get(key).and_then(Value::as_str) {
            return Some(text.to_owned());
        }
    }
    Some(r.to_string())
}

fn host_failure(host: Host, response: Option<&Value>) -> Option<String> {
    let r = response?;
    match host {
        Host::Copilot => {
            let kind = r
                .get("resultType")
                .or_else(|| r.get("result_type"))
                .and_then(Value::as_str)?;
            (kind != "success").then(|| {
                r.get("textResultForLlm")
                    .or_else(|| r.get("text_result_for_llm"))
                    .and_then(Value::as_str)
                    .unwrap_or(kind)
                    .to_owned()
            })
        }
        Host::Gemini | Host::Qwen => r
            .get("error")
            .filter(|e| !e.is_null())
            .map(|e| e.as_str().map_or_else(|| e.to_string(), str::to_owned)),
        Host::Droid => {
            let parsed: Value = serde_json::from_str(r.as_str()?).ok()?;
            (parsed.get("success") == Some(&Value::Bool(false))).then(|| {
                parsed
                    .get("error")
                    .map_or_else(|| parsed.to_string(), |e| e.to_string())
            })
        }
        Host::Opencode => opencode::failure(r),
        _ => None,
    }
}

/// Renders a hook's response for `event` in the host's forms.
pub fn encode(dialect: Dialect, event: Event, response: &Response) -> Output {
    if dialect.host == Host::Claude {
        return claude::render(event, response);
    }
    let forms = forms_of(dialect);
    let mut out = Map::new();
    let tool_event = matches!(
        event,
        Event::PreToolUse | Event::PostToolUse | Event::PostToolUseFailure | Event::PostToolBatch
    );
    match (&response.verdict, event) {
        (Verdict::Silent, Event::PreToolUse) => {
            if let Some(allow) = forms.allow {
                out = serde_json::from_str(allow).expect("the allow form is a JSON object");
            }
        }
        (Verdict::Silent, _) => {}
        (Verdict::EndTurn(reason), _) => {
            out.insert("continue".into(), json!(false));
            out.insert("stopReason".into(), json!(reason));
        }
        (Verdict::Deny(reason) | Verdict::Block(reason), Event::PreToolUse) => {
            deny(&mut out, forms.deny, event, reason)
        }
        (Verdict::Deny(text) | Verdict::Block(text), _)
            if tool_event && forms.post_block == PostBlockForm::AsContext =>
        {
            context(&mut out, forms.context, dialect, event, text)
        }
        (Verdict::Context(text), _) if tool_event => {
            context(&mut out, forms.context, dialect, event, text)
        }
        (Verdict::Deny(reason) | Verdict::Block(reason), Event::Stop | Event::SubagentStop) => {
            match forms.stop_block {
                StopBlockForm::DecisionBlock => {
                    out.insert("decision".into(), json!("block"));
                    out.insert("reason".into(), json!(reason));
                }
                StopBlockForm::DecisionDeny => {
                    out.insert("decision".into(), json!("deny"));
                    out.insert("reason".into(), json!(reason));
                }
                StopBlockForm::Followup => {
                    out.insert("followup_message".into(), json!(reason));
                }
                StopBlockForm::Unsupported => notice(&mut out, forms.notices, reason),
            }
        }
        (Verdict::Deny(reason) | Verdict::Block(reason), _) => {
            out.insert("decision".into(), json!("block"));
            out.insert("reason".into(), json!(reason));
        }
        // A turn's end has no context channel: what the model should know goes to the user.
        (Verdict::Context(text), _) => notice(&mut out, forms.notices, text),
    }
    let mut stderr = String::new();
    if !response.notices.is_empty() {
        let notices = response.notices.join("\n");
        match forms.notices {
            NoticeForm::SystemMessage => notice(&mut out, NoticeForm::SystemMessage, &notices),
            NoticeForm::Stderr => stderr = format!("{notices}\n"),
        }
    }
    Output {
        stdout: if out.is_empty() {
            String::new()
        } else {
            Value::Object(out).to_string()
        },
        stderr,
        exit_code: 0,
    }
}

/// The answer when a hook could not decide: the host's deny on a pre-tool event, the
/// reason as context after a tool, and on a turn's end the stop goes through (a stop
/// that can never pass would trap the agent) with the reason for the user. When the
/// input was too broken to name its event: exit 2 with the reason on stderr, which
/// every host here treats as a refusal.
pub fn encode_failure(dialect: Dialect, hook: &str, event: Option<Event>, message: &str) -> Output {
    if dialect.host == Host::Claude {
        return claude::render_failure(hook, event, message);
    }
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
    encode(dialect, event, &Response::new(verdict).with_notice(text))
}

fn forms_of(dialect: Dialect) -> Forms {
    let forms = dialect.host.spec().forms;
    if dialect.host == Host::Copilot && !dialect.camel {
        // PascalCase hooks take Claude Code's deny; context stays top-level.
        return Forms {
            deny: DenyForm::ClaudeJson,
            ..forms
        };
    }
    forms
}

fn deny(out: &mut Map<String, Value>, form: DenyForm, event: Event, reason: &str) {
    match form {
        DenyForm::ClaudeJson => {
            out.insert(
                "hookSpecificOutput".into(),
                json!({"hookEventName": event.name(), "permissionDecision": "deny",
                       "permissionDecisionReason": reason}),
            );
        }
        DenyForm::Decision => {
            out.insert("decision".into(), json!("deny"));
            out.insert("reason".into(), json!(reason));
        }
        DenyForm::Permission => {
            out.insert("permissionDecision".into(), json!("deny"));
            out.insert("permissionDecisionReason".into(), json!(reason));
        }
        DenyForm::CursorPermission => {
            out.insert("permission".into(), json!("deny"));
            out.insert("agent_message".into(), json!(reason));
            out.insert("user_message".into(), json!(reason));
        }
    }
}

fn context(
    out: &mut Map<String, Value>,
    form: ContextForm,
    dialect: Dialect,
    event: Event,
    text: &str,
) {
    match form {
        ContextForm::HookSpecific => {
            let name = host_event_name(dialect.host, event);
            out.insert(
                "hookSpecificOutput".into(),
                json!({"hookEventName": name, "additionalContext": text}),
            );
        }
        ContextForm::TopLevel => {
            out.insert("additionalContext".into(), json!(text));
        }
        ContextForm::TopLevelSnake => {
            out.insert("additional_context".into(), json!(text));
        }
    }
}

fn notice(out: &mut Map<String, Value>, form: NoticeForm, text: &str) {
    if form != NoticeForm::SystemMessage {
        return;
    }
    let merged = match out.get("systemMessage").and_then(Value::as_str) {
        Some(existing) => format!("{existing}\n{text}"),
        None => text.to_owned(),
    };
    out.insert("systemMessage".into(), json!(merged));
}

/// The host's own name of `event` (the first of its names that means it).
pub fn host_event_name(host: Host, event: Event) -> &'static str {
    let find = |event: Event| {
        host.spec()
            .events
            .iter()
            .find(|(_, e)| *e == event)
            .map(|(n, _)| *n)
    };
    find(event)
        // A failure some hosts report on their post-tool event (read as a failure here).
        .or_else(|| {
            (event == Event::PostToolUseFailure)
                .then(|| find(Event::PostToolUse))
                .flatten()
        })
        .unwrap_or(event.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A guard that cannot decide refuses the call in the host's own deny, on exit 0
    /// with JSON only on stdout (hosts that fail open read anything else as "allow").
    #[test]
    fn an_internal_error_is_each_hosts_deny() {
        for host in Host::ALL {
            let out = encode_failure(
                Dialect::of(host),
                "scope-guard",
                Some(Event::PreToolUse),
                "boom",
            );
            let v: Value = serde_json::from_str(&out.stdout)
                .unwrap_or_else(|e| panic!("{host:?}: {e}: {out:?}"));
            let denied = match host.spec().forms.deny {
                DenyForm::ClaudeJson => v["hookSpecificOutput"]["permissionDecision"] == "deny",
                DenyForm::Decision => v["decision"] == "deny",
                DenyForm::Permission => v["permissionDecision"] == "deny",
                DenyForm::CursorPermission => v["permission"] == "deny",
            };
            assert!(denied && out.exit_code == 0, "{host:?}: {out:?}");
            assert!(
                out.stdout.contains("scope-guard: boom"),
                "{host:?}: {out:?}"
            );
            // The turn's end is never held on our own error.
            let stop = encode_failure(Dialect::of(host), "audit-turn", Some(Event::Stop), "boom");
            assert!(
                !stop.stdout.contains("\"block\"")
                    && !stop.stdout.contains("\"deny\"")
                    && stop.exit_code == 0,
                "{host:?}: {stop:?}"
            );
        }
    }

    #[test]
    fn copilot_is_recognised_in_claude_settings_and_claude_is_not_mistaken() {
        let copilot = br#"{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-12-01T06:25:30.868Z","cwd":"/w","tool_name":"Write","tool_input":{"path":"/w/b.txt","file_text":"x"}}"#;
        let (input, dialect) = decode(Host::Claude, None, &copilot[..]).unwrap();
        assert_eq!(dialect.host, Host::Copilot);
        let super::super::Payload::PreToolUse { call } = &input.payload else {
            panic!()
        };
        assert_eq!(call.input["file_path"], "/w/b.txt");
        assert_eq!(call.input["content"], "x");
        let claude = br#"{"hook_event_name":"PreToolUse","session_id":"s","transcript_path":"/t.jsonl","permission_mode":"default","cwd":"/w","tool_name":"Write","tool_input":{"file_path":"/w/b.txt","content":"x"}}"#;
        assert_eq!(
            decode(Host::Claude, None, &claude[..]).unwrap().1.host,
            Host::Claude
        );
    }

    #[test]
    fn a_failed_tool_is_told_apart_with_the_unread_parts_left_out() {
        // Gemini's and Qwen's results repeat the content in parts never read (left out by
        // their `leave_out`); the `error` beside them still makes the event a failure.
        for (host, event) in [(Host::Gemini, "AfterTool"), (Host::Qwen, "PostToolUse")] {
            let post = |error: Value| {
                json!({"session_id": "s", "cwd": "/w", "hook_event_name": event,
                       "tool_name": "write_file",
                       "tool_input": {"file_path": "/w/a.txt", "content": "x\n"},
                       "tool_response": {"llmContent": "wrote x\n", "error": error,
                                         "returnDisplay": {"fileDiff": "+x", "newContent": "x\n"}}})
                .to_string()
            };
            let (input, _) = decode(host, None, post(json!("EACCES: denied")).as_bytes()).unwrap();
            let super::super::Payload::PostToolUseFailure { error, call } = &input.payload else {
                panic!("{host:?}: {:?}", input.payload)
            };
            assert_eq!(error, "EACCES: denied");
            assert_eq!(call.input["content"], "x\n");
            let (input, _) = decode(host, None, post(Value::Null).as_bytes()).unwrap();
            assert!(
                matches!(input.payload, super::super::Payload::PostToolUse { .. }),
                "{host:?}: {:?}",
                input.payload
            );
            // A syntax error inside a part left out is still the input's error.
            let broken = post(Value::Null).replace(r#""+x""#, r#""+x"#);
            assert!(matches!(
                decode(host, None, broken.as_bytes()).unwrap_err().error,
                InputError::NotJson { .. }
            ));
        }
    }

    /// A shell call whose directory argument cannot be read is refused, never judged in
    /// the event's `cwd` instead.
    #[test]
    fn an_unreadable_shell_directory_is_an_input_error() {
        let input = br#"{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git push origin HEAD:main","dir_path":["../other"]}}"#;
        let failure = decode(Host::Gemini, None, &input[..]).unwrap_err();
        assert_eq!(failure.event, Some(Event::PreToolUse));
        assert_eq!(
            failure.error.to_string(),
            "the hook input field `tool_input.dir_path` should be a string (the directory the command runs in)"
        );
        let ok = br#"{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"sub"}}"#;
        assert_eq!(
            decode(Host::Gemini, None, &ok[..]).unwrap().0.common.cwd,
            Path::new("/w/sub")
        );
    }
}
