//! The current turn of a Claude Code transcript (JSONL), read backward from the end of
//! the file in chunks: time and memory depend on the size of the turn, not of the
//! session (transcripts reach hundreds of megabytes).
//!
//! Every line is parsed on its own; a line that is not JSON (raw control characters,
//! invalid UTF-8, a torn write) is skipped and counted, and the count is reported by
//! whoever reads the turn: a silent skip is how a bad line once hid a promise.
//!
//! A line longer than [`crate::fsutil::MAX_LINE_BYTES`] (a tool call that wrote a 50 MB
//! file, and the result that echoes it) is not read: only its first
//! [`crate::fsutil::LONG_LINE_HEAD`] bytes are, and the members of the line that are
//! complete there (its type, prompt id, the tool call's id and name) make the event. A
//! line whose head does not hold what the audit uses counts as a bad line.

use crate::fsutil::Line;
use serde_json::{Map, Value};
use std::path::Path;
use std::time::SystemTime;

/// What happened in one turn, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Turn {
    /// Whether the turn's first line (the user's prompt) was found.
    pub prompt_found: bool,
    /// When the turn started (the prompt line's timestamp).
    pub started: Option<SystemTime>,
    pub events: Vec<Entry>,
    /// The last text the assistant wrote in the turn.
    pub last_assistant_text: Option<String>,
    /// Whether the turn's last message line is that text (nothing came after it: no tool
    /// result, no hook feedback).
    pub ends_with_text: bool,
    /// Lines of the turn that could not be parsed.
    pub bad_lines: usize,
    /// Subagents the turn ran (the Agent, formerly Task, tool): the call's id and the
    /// agent's id, whose transcript holds what the subagent did.
    pub subagents: Vec<(String, String)>,
    /// Subagents of the turn whose transcripts could not be found or read.
    pub subagents_unread: usize,
}

/// A tool call or a tool result.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    ToolResult {
        id: String,
        is_error: bool,
        text: String,
    },
}

impl Turn {
    /// The result of a tool call, if it came.
    pub fn result_of(&self, id: &str) -> Option<(bool, &str)> {
        self.events.iter().find_map(|e| match e {
            Entry::ToolResult {
                id: rid,
                is_error,
                text,
            } if rid == id => Some((*is_error, text.as_str())),
            _ => None,
        })
    }
}

/// Reads the turn of `prompt_id` (or, without one, the turn after the last prompt) from
/// the end of the transcript at `path`.
pub fn read_turn(path: &Path, prompt_id: Option<&str>) -> std::io::Result<Turn> {
    let mut turn = Turn::default();
    let mut backward: Vec<Value> = Vec::new();
    crate::fsutil::lines_backward_long(path, |line| {
        let value = match line {
            Line::Full(bytes) => match serde_json::from_slice::<Value>(bytes) {
                Ok(value) => value,
                Err(_) => {
                    turn.bad_lines += 1;
                    return true;
                }
            },
            // A line of many megabytes is a written file's content (in the tool call, or
            // in the result's copy of it): what the audit needs is at its start.
            Line::Long { head, .. } => match salvage(head) {
                Salvaged::Whole(value) => value,
                Salvaged::Partly(value) => {
                    turn.bad_lines += 1;
                    value
                }
                Salvaged::Irrelevant => return true,
                Salvaged::Nothing => {
                    turn.bad_lines += 1;
                    return true;
                }
            },
        };
        match turn_boundary(&value, prompt_id) {
            Boundary::Inside => {
                backward.push(value);
                true
            }
            Boundary::Start => {
                turn.prompt_found = true;
                turn.started = value
                    .get("timestamp")
                    .and_then(Value::as_str)
                    .and_then(crate::time::parse_rfc3339);
                false
            }
            Boundary::Before => false,
        }
    })?;
    for value in backward.into_iter().rev() {
        collect(&value, &mut turn);
    }
    Ok(turn)
}

enum Boundary {
    /// A line of the turn.
    Inside,
    /// The turn's prompt line.
    Start,
    /// A line of an earlier turn.
    Before,
}

fn turn_boundary(line: &Value, prompt_id: Option<&str>) -> Boundary {
    if line.get("type").and_then(Value::as_str) != Some("user") {
        return Boundary::Inside;
    }
    let is_prompt = match line.pointer("/message/content") {
        Some(Value::String(_)) => true,
        Some(Value::Array(blocks)) => !blocks
            .iter()
            .any(|b| b.get("type").and_then(Value::as_str) == Some("tool_result")),
        _ => false,
    };
    // Synthetic user lines (a Stop hook's feedback) belong to the turn they continue.
    let synthetic = line.get("isMeta").and_then(Value::as_bool) == Some(true)
        || line.get("isSynthetic").and_then(Value::as_bool) == Some(true);
    match (prompt_id, line.get("promptId").and_then(Value::as_str)) {
        (Some(want), Some(got)) if got != want => Boundary::Before,
        (Some(_), Some(_)) if is_prompt && !synthetic && !is_hook_feedback(line) => Boundary::Start,
        (None, _) if is_prompt && !synthetic && !is_hook_feedback(line) => Boundary::Start,
        _ => Boundary::Inside,
    }
}

/// `Stop hook feedback:` lines are user lines too, inside the turn.
fn is_hook_feedback(line: &Value) -> bool {
    let text = match line.pointer("/message/content") {
        Some(Value::String(s)) => s.as_str(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .find_map(|b| b.get("text").and_then(Value::as_str))
            .unwrap_or(""),
        _ => "",
    };
    text.starts_with("Stop hook feedback:") || text.starts_with("SubagentStop hook feedback:")
}

fn collect(line: &Value, turn: &mut Turn) {
    let Some(blocks) = line.pointer("/message/content").and_then(Value::as_array) else {
        // A user line with plain text (hook feedback) comes after the text it answers.
        if line.get("type").and_then(Value::as_str) == Some("user") {
            turn.ends_with_text = false;
        }
        return;
    };
    let role = line.get("type").and_then(Value::as_str);
    match role {
        Some("user") => turn.ends_with_text = false,
        Some("assistant") => {
            turn.ends_with_text = blocks
                .iter()
                .any(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                && !blocks
                    .iter()
                    .any(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"));
        }
        _ => {}
    }
    for block in blocks {
        match (role, block.get("type").and_then(Value::as_str)) {
            (Some("assistant"), Some("text")) => {
                if let Some(t) = block.get("text").and_then(Value::as_str) {
                    turn.last_assistant_text = Some(t.to_owned());
                }
            }
            (Some("assistant"), Some("tool_use")) => turn.events.push(Entry::ToolUse {
                id: str_field(block, "id"),
                name: str_field(block, "name"),
                input: block.get("input").cloned().unwrap_or(Value::Null),
            }),
            (Some("user"), Some("tool_result")) => {
                let id = str_field(block, "tool_use_id");
                let text = content_text(block.get("content"));
                let agent = line
                    .pointer("/toolUseResult/agentId")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .or_else(|| {
                        text.split("agentId: ")
                            .nth(1)
                            .and_then(|r| r.split(|c: char| c.is_whitespace() || c == ')').next())
                            .filter(|a| !a.is_empty())
                            .map(str::to_owned)
                    });
                if let Some(a) = agent {
                    turn.subagents.push((id.clone(), a));
                }
                turn.events.push(Entry::ToolResult {
                    id,
                    is_error: block
                        .get("is_error")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                    text,
                });
            }
            _ => {}
        }
    }
}

/// What the head of an over-long line gave.
enum Salvaged {
    /// The line as the audit sees it: every member it uses was complete in the head.
    Whole(Value),
    /// Some of it: a tool call whose input was cut (a shell command is lost), or a block
    /// that was cut.
    Partly(Value),
    /// A line of a kind the audit does not read (an API request record, an attachment).
    Irrelevant,
    /// Nothing usable.
    Nothing,
}

/// The line the audit would have seen, from the first bytes of a line too long to read.
fn salvage(head: &[u8]) -> Salvaged {
    let Some(line) = cut_object(head) else {
        return Salvaged::Nothing;
    };
    let kind = line.members.get("type").and_then(Value::as_str);
    if kind.is_some_and(|k| k != "user" && k != "assistant") {
        return Salvaged::Irrelevant;
    }
    let (message, lossy) = match (line.members.get("message"), &line.open) {
        (Some(m), _) => (m.clone(), false),
        (None, Some((key, rest))) if key == "message" => match salvage_message(rest) {
            Some(m) => m,
            None => return Salvaged::Nothing,
        },
        // An attachment (a file the user attached, a system reminder) is not a message.
        (None, Some((key, _))) if key == "attachment" && kind.is_none() => {
            return Salvaged::Irrelevant
        }
        // Cut before the message: nothing of it is known.
        (None, _) => return Salvaged::Nothing,
    };
    let role = kind
        .or_else(|| message.get("role").and_then(Value::as_str))
        .map(str::to_owned);
    let Some(role @ ("user" | "assistant")) = role.as_deref() else {
        return Salvaged::Nothing;
    };
    let mut value = line.members;
    value.insert("type".into(), role.into());
    value.insert("message".into(), message);
    if lossy {
        Salvaged::Partly(Value::Object(value))
    } else {
        Salvaged::Whole(Value::Object(value))
    }
}

/// A message cut inside: its complete members and content blocks, plus the cut block
/// when it is a tool call whose id and name are complete (its input is what is long).
/// The flag says whether something the audit uses was lost.
fn salvage_message(bytes: &[u8]) -> Option<(Value, bool)> {
    let message = cut_object(bytes)?;
    let mut out = message.members;
    let Some((key, rest)) = message.open.filter(|(k, _)| k == "content") else {
        out.insert("content".into(), Value::Array(Vec::new()));
        return Some((Value::Object(out), true));
    };
    debug_assert_eq!(key, "content");
    let (mut blocks, open) = cut_array(rest)?;
    let mut lossy = true;
    if let Some(block) = open.and_then(cut_object) {
        let field = |k: &str| block.members.get(k).and_then(Value::as_str);
        if let (Some("tool_use"), Some(id), Some(name)) =
            (field("type"), field("id"), field("name"))
        {
            // Only a shell command's input is read (its command line). What the input
            // holds before the long member (a Write's `file_path` comes before its
            // `content`) is kept: where the turn wrote is evidence.
            lossy = matches!(crate::tools::normalize(name), "Bash" | "PowerShell");
            let input = match &block.open {
                Some((key, rest)) if key == "input" => cut_object(rest)
                    .map(|i| Value::Object(i.members))
                    .unwrap_or_else(|| serde_json::json!({})),
                _ => serde_json::json!({}),
            };
            blocks.push(
                serde_json::json!({"type": "tool_use", "id": id, "name": name, "input": input}),
            );
        }
    }
    out.insert("content".into(), Value::Array(blocks));
    Some((Value::Object(out), lossy))
}

/// The start of a JSON object: its complete members, and the member the text ends in
/// (its key and the start of its value). None when the text is not an object's start.
struct CutObject<'a> {
    members: Map<String, Value>,
    open: Option<(String, &'a [u8])>,
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// One JSON value at the start of `bytes`: Ok(Some((value, length))), Ok(None) when the
/// text ends inside it, Err when it is not JSON.
fn value_at<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<Option<(T, usize)>, ()> {
    let mut stream = serde_json::Deserializer::from_slice(bytes).into_iter::<T>();
    match stream.next() {
        Some(Ok(v)) => Ok(Some((v, stream.byte_offset()))),
        Some(Err(e)) if e.is_eof() => Ok(None),
        None => Ok(None),
        Some(Err(_)) => Err(()),
    }
}

fn cut_object(bytes: &[u8]) -> Option<CutObject<'_>> {
    let mut out = CutObject {
        members: Map::new(),
        open: None,
    };
    let mut i = skip_ws(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(bytes, i + 1);
    if bytes.get(i) == Some(&b'}') {
        return Some(out);
    }
    loop {
        let Some((key, n)) = value_at::<String>(&bytes[i..]).ok()? else {
            return Some(out);
        };
        i = skip_ws(bytes, i + n);
        match bytes.get(i) {
            Some(b':') => i = skip_ws(bytes, i + 1),
            None => return Some(out),
            Some(_) => return None,
        }
        let Some((value, n)) = value_at::<Value>(&bytes[i..]).ok()? else {
            out.open = Some((key, &bytes[i..]));
            return Some(out);
        };
        out.members.insert(key, value);
        i = skip_ws(bytes, i + n);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            Some(b'}') | None => return Some(out),
            Some(_) => return None,
        }
    }
}

/// The start of a JSON array: its complete elements and the start of the one it is cut
/// in.
fn cut_array(bytes: &[u8]) -> Option<(Vec<Value>, Option<&[u8]>)> {
    let mut items = Vec::new();
    let mut i = skip_ws(bytes, 0);
    if bytes.get(i) != Some(&b'[') {
        return None;
    }
    i = skip_ws(bytes, i + 1);
    if bytes.get(i) == Some(&b']') {
        return Some((items, None));
    }
    loop {
        let Some((value, n)) = value_at::<Value>(&bytes[i..]).ok()? else {
            return Some((items, Some(&bytes[i..])));
        };
        items.push(value);
        i = skip_ws(bytes, i + n);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            Some(b']') | None => return Some((items, None)),
            Some(_) => return None,
        }
    }
}

fn str_field(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// A tool result's content as text: a string, or the text blocks of an array.
pub fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// How many lines from its end a host transcript is searched for the final message.
const HOST_TAIL_LINES: usize = 2000;

/// The agent's final message in another host's JSONL transcript (Copilot's
/// `events.jsonl`, droid's session file), read from the end: the newest record that is
/// the assistant's text. Formats differ, so a record counts when it (or a value nested
/// in it, a few levels down) has `role: "assistant"` or a `type` naming an assistant
/// message, and text content. Bad lines are skipped. `Ok(None)`: no such record.
pub fn host_last_message(path: &Path) -> std::io::Result<Option<String>> {
    let mut found = None;
    let mut seen = 0;
    crate::fsutil::lines_backward(path, |line| {
        seen += 1;
        if let Ok(v) = serde_json::from_slice::<Value>(line) {
            found = assistant_text(&v, 0);
        }
        found.is_none() && seen < HOST_TAIL_LINES
    })?;
    Ok(found)
}

/// The final message of the turn a Copilot stop ends, from its `events.jsonl`. Copilot
/// writes that file in batches while the hook runs (about 100 ms after the hook starts,
/// observed on 1.0.102), so the file is read again, every 20 ms up to `wait`, until it
/// holds this stop's own mark (the `hook.start` record of an `agentStop` whose input's
/// `timestamp` is `stamp`): every record before it is then on disk. The message is the
/// newest `assistant.message` with text before the mark, of `agent` (none: the main
/// agent, whose records have no `agentId`), and after that agent's last user message.
/// `Ok(None)`: the turn has no final text; `Err(Unmarked)`: the mark did not come in time.
pub fn copilot_final_message(
    path: &Path,
    stamp: &str,
    agent: Option<&str>,
    wait: std::time::Duration,
) -> Result<Option<String>, HostRead> {
    let deadline = std::time::Instant::now() + wait;
    loop {
        let error = match copilot_scan(path, stamp, agent) {
            Ok(Some(message)) => return Ok(message),
            Ok(None) => HostRead::Unmarked,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => HostRead::Io(e),
            Err(e) => return Err(HostRead::Io(e)),
        };
        if std::time::Instant::now() >= deadline {
            return Err(error);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Why a host's transcript gave no final message.
#[derive(Debug)]
pub enum HostRead {
    Io(std::io::Error),
    /// The file never showed this stop's own record (Copilot writes it while the hook
    /// runs): what it holds may be an earlier turn's.
    Unmarked,
}

/// `None`: the mark is not in the file yet; `Some(message)`: it is, with the message
/// before it (if any).
fn copilot_scan(
    path: &Path,
    stamp: &str,
    agent: Option<&str>,
) -> std::io::Result<Option<Option<String>>> {
    let mut marked = false;
    let mut message = None;
    let mut seen = 0;
    crate::fsutil::lines_backward(path, |line| {
        seen += 1;
        let Ok(v) = serde_json::from_slice::<Value>(line) else {
            return seen < HOST_TAIL_LINES;
        };
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        if !marked {
            marked = kind == "hook.start" && is_stop_mark(&v, stamp);
            return seen < HOST_TAIL_LINES;
        }
        if v.get("agentId").and_then(Value::as_str) != agent {
            return seen < HOST_TAIL_LINES;
        }
        match kind {
            "assistant.message" => {
                let text = content_text(v.get("data").and_then(|d| d.get("content")));
                if !text.trim().is_empty() {
                    message = Some(text);
                    return false;
                }
                seen < HOST_TAIL_LINES
            }
            // The turn's prompt (or a stop hook's reason): no text after it.
            "user.message" => false,
            _ => seen < HOST_TAIL_LINES,
        }
    })?;
    Ok(marked.then_some(message))
}

/// Whether `record` (a `hook.start`) is the start of the `agentStop` hook whose input
/// carried `stamp`: the camelCase input's `timestamp` (milliseconds), or, for the
/// PascalCase dialect, the ISO time both carry.
fn is_stop_mark(record: &Value, stamp: &str) -> bool {
    let data = record.get("data");
    let hook = data.and_then(|d| d.get("hookType")).and_then(Value::as_str);
    if !matches!(hook, Some("agentStop" | "Stop")) {
        return false;
    }
    let same = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s == stamp,
        Some(Value::Number(n)) => n.to_string() == stamp,
        _ => false,
    };
    same(
        data.and_then(|d| d.get("input"))
            .and_then(|i| i.get("timestamp")),
    ) || same(record.get("timestamp"))
}

fn assistant_text(v: &Value, depth: usize) -> Option<String> {
    let obj = v.as_object()?;
    let is_assistant = obj.get("role").and_then(Value::as_str) == Some("assistant")
        || obj
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.contains("assistant") && t.contains("message"));
    if is_assistant {
        // The text is the record's own, or its payload's (`{"type":
        // "assistant.message", "data": {"content": …}}`, Copilot 1.0.102).
        let own = std::iter::once(obj).chain(obj.values().filter_map(Value::as_object));
        let text = own
            .flat_map(|o| {
                ["content", "text", "message"]
                    .into_iter()
                    .filter_map(move |k| o.get(k))
            })
            .map(|c| content_text(Some(c)))
            .find(|t| !t.trim().is_empty());
        if text.is_some() {
            return text;
        }
    }
    if depth >= 3 {
        return None;
    }
    obj.values()
        .find_map(|child| assistant_text(child, depth + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::fs::File;
    use std::io::Write;

    fn user_prompt(pid: &str, text: &str) -> Value {
        json!({"type": "user", "promptId": pid, "timestamp": "2026-11-30T02:00:00.000Z", "message": {"role": "user", "content": text}})
    }

    fn assistant(blocks: Value) -> Value {
        json!({"type": "assistant", "message": {"role": "assistant", "content": blocks}})
    }

    fn result(pid: &str, id: &str, err: bool, text: &str) -> Value {
        json!({"type": "user", "promptId": pid, "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "is_error": err, "content": text}]}})
    }

    fn write_lines(name: &str, lines: &[Vec<u8>]) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("dia-transcript-{name}-{}", std::process::id()));
        let mut f = File::create(&p).unwrap();
        for l in lines {
            f.write_all(l).unwrap();
            f.write_all(b"\n").unwrap();
        }
        p
    }

    fn line(v: Value) -> Vec<u8> {
        v.to_string().into_bytes()
    }

    #[test]
    fn reads_only_the_current_turn_and_counts_bad_lines() {
        let mut lines = vec![
            line(user_prompt("p1", "first")),
            line(assistant(
                json!([{"type": "tool_use", "id": "old", "name": "Bash", "input": {"command": "ls"}}]),
            )),
            line(result("p1", "old", false, "x")),
            line(user_prompt("p2", "second")),
            line(json!({"type": "attachment"})),
        ];
        lines.push(b"{\"type\": \"assistant\", \"bad\": \"\x01raw control\"}".to_vec());
        lines.push(b"\xff\xfe not utf-8".to_vec());
        lines.push(line(assistant(json!([{"type": "text", "text": "running"}, {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cargo test"}}]))));
        lines.push(line(result("p2", "t1", false, "test result: ok. 3 passed")));
        lines.push(line(assistant(
            json!([{"type": "text", "text": "All tests pass."}]),
        )));
        let p = write_lines("turn", &lines);
        let turn = read_turn(&p, Some("p2")).unwrap();
        assert!(turn.prompt_found);
        assert_eq!(turn.bad_lines, 2);
        assert_eq!(turn.events.len(), 2);
        assert_eq!(
            turn.result_of("t1"),
            Some((false, "test result: ok. 3 passed"))
        );
        assert_eq!(turn.last_assistant_text.as_deref(), Some("All tests pass."));
        assert!(turn.started.is_some());
        // A turn whose lines are not there yet: the previous turn stops the read.
        let turn = read_turn(&p, Some("p3")).unwrap();
        assert!(!turn.prompt_found && turn.events.is_empty());
        std::fs::remove_file(&p).unwrap();
    }

    #[test]
    fn a_turn_across_chunk_boundaries() {
        let mut lines = vec![line(user_prompt("p", "go"))];
        let big = "x".repeat(64 * 1024 / 3);
        for i in 0..20 {
            lines.push(line(assistant(json!([{"type": "tool_use", "id": format!("t{i}"), "name": "Bash", "input": {"command": big}}]))));
            lines.push(line(result("p", &format!("t{i}"), false, "ok")));
        }
        let p = write_lines("chunks", &lines);
        let turn = read_turn(&p, Some("p")).unwrap();
        assert_eq!(
            (turn.events.len(), turn.bad_lines, turn.prompt_found),
            (40, 0, true)
        );
        std::fs::remove_file(&p).unwrap();
    }

    #[test]
    fn empty_and_missing_files() {
        let p = write_lines("empty", &[]);
        assert_eq!(read_turn(&p, Some("p")).unwrap(), Turn::default());
        std::fs::remove_file(&p).unwrap();
        assert!(read_turn(Path::new("/nonexistent/t.jsonl"), Some("p")).is_err());
    }

    /// Copilot's events file, as 1.0.102 writes it: the stop's own `hook.start` arrives
    /// after the hook started (here, 150 ms later, from another thread); the message read
    /// is the one before that mark, of the main agent, not an earlier turn's, not a
    /// subagent's; a mark that never comes gives none within the wait.
    #[test]
    fn copilot_final_message_waits_for_the_stops_mark() {
        let event = |kind: &str, data: Value| json!({"type": kind, "data": data, "timestamp": "2026-12-04T07:02:33.000Z"});
        let mark = move |stamp: u64| {
            event(
                "hook.start",
                json!({"hookType": "agentStop", "input": {"timestamp": stamp}}),
            )
        };
        let mut sub = event(
            "assistant.message",
            json!({"content": "SUBAGENT: 12 passed"}),
        );
        sub["agentId"] = json!("a1");
        let before = vec![
            line(event("user.message", json!({"content": "run the tests"}))),
            line(event(
                "assistant.message",
                json!({"content": "All 12 tests pass."}),
            )),
            line(mark(1)),
            line(event(
                "user.message",
                json!({"content": "the stop hook's reason"}),
            )),
            line(event(
                "assistant.message",
                json!({"content": "", "toolRequests": [{"name": "bash"}]}),
            )),
            line(event(
                "assistant.message",
                json!({"content": "I ran them: 11 pass, 1 fails."}),
            )),
            line(sub),
        ];
        let p = write_lines("copilot-events", &before);
        let wait = std::time::Duration::from_millis(2000);
        // The first stop's mark is there: its message is the first one.
        assert_eq!(
            copilot_final_message(&p, "1", None, wait)
                .unwrap()
                .as_deref(),
            Some("All 12 tests pass.")
        );
        // The second stop's mark arrives later.
        let writer = {
            let p = p.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(150));
                let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
                f.write_all(&line(mark(2))).unwrap();
                f.write_all(b"\n").unwrap();
            })
        };
        assert_eq!(
            copilot_final_message(&p, "2", None, wait)
                .unwrap()
                .as_deref(),
            Some("I ran them: 11 pass, 1 fails.")
        );
        writer.join().unwrap();
        assert_eq!(
            copilot_final_message(&p, "2", Some("a1"), wait)
                .unwrap()
                .as_deref(),
            Some("SUBAGENT: 12 passed")
        );
        let short = std::time::Duration::from_millis(60);
        assert!(matches!(
            copilot_final_message(&p, "3", None, short),
            Err(HostRead::Unmarked)
        ));
        std::fs::remove_file(&p).unwrap();
        assert!(
            matches!(
                copilot_final_message(&p, "1", None, short),
                Err(HostRead::Io(_))
            ),
            "a file not written yet"
        );
    }
}
