//! A loopback mock of the OpenAI Responses API (`POST /v1/responses`, SSE), so the real
//! Codex CLI can run offline while "the model" follows a [`Step`] script, in the manner of
//! [`super::mock_api`] (which speaks Anthropic Messages).
//!
//! The module also holds the small HTTP/1.1 server both non-Anthropic mocks share
//! ([`Server`]: loopback listener, one request per connection, `Connection: close`,
//! request bodies kept); [`super::mock_gemini`] plugs its own handler into it.
//!
//! Script translation: a [`Block::Text`] becomes an assistant `message` item; a
//! [`Block::ToolUse`] whose `input` is a JSON **string** becomes a `custom_tool_call`
//! (freeform tool, e.g. `apply_patch`, `input` = that string), any other input a
//! `function_call` (`arguments` = the input serialized). The block's id is the item's
//! `call_id`, so a test finds the result by the id it scripted (or by
//! [`super::mock_api::tool_use_id`]).
//!
//! Wire facts (observed on Codex CLI 0.171.0, see shared/docs/hosts.md §3.1): the agent
//! loop posts `stream: true` bodies with a non-empty `tools` list and the whole
//! conversation in `input[]`; tool results come back as `function_call_output` /
//! `custom_tool_call_output` items keyed by `call_id`.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serde_json::{json, Value};

use super::mock_api::{tool_use_id, Block, Step, EXHAUSTED_TEXT, SIDE_QUERY_TEXT};

/// How long a connection may stay silent before its handler gives up.
const READ_TIMEOUT: Duration = Duration::from_secs(30);

/// Bodies larger than this are refused.
const MAX_BODY: usize = 64 * 1024 * 1024;

// ---------------------------------------------------------------------------------------
// The shared server.
// ---------------------------------------------------------------------------------------

/// What a mock has seen; shared between the connection threads and the test.
#[derive(Default)]
pub struct State {
    pub script: Vec<Step>,
    pub next_step: usize,
    /// Agent-loop request bodies, in arrival order.
    pub requests: Vec<Value>,
    /// Side-query bodies (titles, summaries, next-speaker checks), in arrival order.
    pub side_requests: Vec<Value>,
    /// `"<METHOD> <path>"` of every request.
    pub hits: Vec<String>,
    /// Protocol problems met while serving.
    pub errors: Vec<String>,
}

impl State {
    /// Records an agent-loop request and hands out the next step (or the final
    /// [`EXHAUSTED_TEXT`] answer once the script has run out), with its index.
    pub fn next_step(&mut self, body: Value) -> (usize, Step) {
        self.requests.push(body);
        let index = self.next_step;
        self.next_step += 1;
        let step = self
            .script
            .get(index)
            .cloned()
            .unwrap_or_else(|| Step::text(EXHAUSTED_TEXT));
        (index, step)
    }
}

/// One HTTP request as the server read it.
pub struct Request {
    pub method: String,
    pub path: String,
    pub body: Vec<u8>,
}

impl Request {
    /// The path without its query string.
    pub fn route(&self) -> &str {
        self.path.split('?').next().unwrap_or("")
    }

    pub fn json(&self) -> io::Result<Value> {
        serde_json::from_slice(&self.body).map_err(|e| invalid(format!("body is not JSON: {e}")))
    }
}

/// One HTTP response.
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Response {
    pub fn json(value: &Value) -> Response {
        Response::json_status(200, value)
    }

    pub fn json_status(status: u16, value: &Value) -> Response {
        Response {
            status,
            content_type: "application/json",
            body: value.to_string().into_bytes(),
        }
    }

    pub fn sse(body: String) -> Response {
        Response {
            status: 200,
            content_type: "text/event-stream",
            body: body.into_bytes(),
        }
    }

    fn write_to(&self, out: &mut impl Write, head_only: bool) -> io::Result<()> {
        let reason = match self.status {
            200 => "OK",
            404 => "Not Found",
            _ => "Status",
        };
        let head = format!(
            "HTTP/1.1 {} {reason}\r\ncontent-type: {}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            self.status,
            self.content_type,
            self.body.len()
        );
        out.write_all(head.as_bytes())?;
        if !head_only {
            out.write_all(&self.body)?;
        }
        Ok(())
    }
}

/// Answers one request; called with the state locked.
pub type Handler = fn(&Request, &mut State) -> io::Result<Response>;

/// A running loopback server; stops accepting connections when dropped.
pub struct Server {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
    shutdown: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl Server {
    /// Binds 127.0.0.1 on a free port and answers every request with `handler`. Tool
    /// uses without an id get [`tool_use_id`]`(step, n)`.
    pub fn start(mut script: Vec<Step>, handler: Handler) -> Server {
        for (step_no, step) in script.iter_mut().enumerate() {
            let mut n = 0;
            for block in &mut step.blocks {
                if let Block::ToolUse { id, .. } = block {
                    if id.is_empty() {
                        *id = tool_use_id(step_no, n);
                    }
                    n += 1;
                }
            }
        }
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a mock API on loopback");
        let addr = listener.local_addr().expect("local address of a mock API");
        let state = Arc::new(Mutex::new(State {
            script,
            ..State::default()
        }));
        let shutdown = Arc::new(AtomicBool::new(false));
        let acceptor = {
            let state = Arc::clone(&state);
            let shutdown = Arc::clone(&shutdown);
            thread::spawn(move || {
                for conn in listener.incoming() {
                    if shutdown.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = conn else { continue };
                    let state = Arc::clone(&state);
                    thread::spawn(move || {
                        if let Err(e) = serve(stream, &state, handler) {
                            lock(&state).errors.push(e.to_string());
                        }
                    });
                }
            })
        };
        Server {
            addr,
            state,
            shutdown,
            acceptor: Some(acceptor),
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    pub fn requests(&self) -> Vec<Value> {
        self.state().requests.clone()
    }

    pub fn side_requests(&self) -> Vec<Value> {
        self.state().side_requests.clone()
    }

    /// How many script steps have been served (excluding "script exhausted" answers).
    pub fn steps_served(&self) -> usize {
        let state = self.state();
        state.next_step.min(state.script.len())
    }

    pub fn hits(&self) -> Vec<String> {
        self.state().hits.clone()
    }

    pub fn errors(&self) -> Vec<String> {
        self.state().errors.clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

fn serve(stream: TcpStream, state: &Mutex<State>, handler: Handler) -> io::Result<()> {
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let Some(request) = read_request(&mut reader)? else {
        return Ok(());
    };
    let response = {
        let mut state = lock(state);
        state
            .hits
            .push(format!("{} {}", request.method, request.path));
        handler(&request, &mut state)
    };
    let response = match response {
        Ok(r) => r,
        Err(e) => {
            lock(state).errors.push(format!("{}: {e}", request.path));
            Response::json_status(500, &json!({"error": {"message": e.to_string()}}))
        }
    };
    response.write_to(&mut writer, request.method == "HEAD")?;
    writer.flush()?;
    let _ = writer.shutdown(Shutdown::Both);
    Ok(())
}

/// Reads one HTTP/1.1 request. `Ok(None)` when the peer closed before sending anything.
fn read_request(reader: &mut impl BufRead) -> io::Result<Option<Request>> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let (Some(method), Some(path)) = (parts.next(), parts.next()) else {
        return Err(invalid(format!("malformed request line {line:?}")));
    };
    let (method, path) = (method.to_owned(), path.to_owned());
    let mut content_length = None;
    let mut chunked = false;
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(invalid("connection closed inside the headers".into()));
        }
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            content_length = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| invalid(format!("bad content-length {value:?}")))?,
            );
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.to_ascii_lowercase().contains("chunked");
        } else if name.eq_ignore_ascii_case("content-encoding")
            && !value.eq_ignore_ascii_case("identity")
        {
            return Err(invalid(format!(
                "unsupported request content-encoding {value:?}"
            )));
        }
    }
    let body = if chunked {
        read_chunked(reader)?
    } else {
        let n = content_length.unwrap_or(0);
        if n > MAX_BODY {
            return Err(invalid(format!("request body of {n} bytes is too large")));
        }
        let mut body = vec![0; n];
        reader.read_exact(&mut body)?;
        body
    };
    Ok(Some(Request { method, path, body }))
}

fn read_chunked(reader: &mut impl BufRead) -> io::Result<Vec<u8>> {
    let mut body = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(invalid("connection closed inside a chunked body".into()));
        }
        let size = line
            .trim_end_matches(['\r', '\n'])
            .split(';')
            .next()
            .unwrap_or("")
            .trim();
        let size = usize::from_str_radix(size, 16)
            .map_err(|_| invalid(format!("bad chunk size {line:?}")))?;
        if size == 0 {
            loop {
                line.clear();
                if reader.read_line(&mut line)? == 0
                    || line.trim_end_matches(['\r', '\n']).is_empty()
                {
                    return Ok(body);
                }
            }
        }
        if body.len() + size > MAX_BODY {
            return Err(invalid("chunked request body is too large".into()));
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..])?;
        let mut crlf = [0; 2];
        reader.read_exact(&mut crlf)?;
        if &crlf != b"\r\n" {
            return Err(invalid("chunk not terminated by CRLF".into()));
        }
    }
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// The ids of the scripted tool calls, in script order, as the mock assigns them.
pub fn scripted_tool_ids(script: &[Step]) -> Vec<String> {
    let mut ids = Vec::new();
    for (step_no, step) in script.iter().enumerate() {
        let mut n = 0;
        for block in &step.blocks {
            if let Block::ToolUse { id, .. } = block {
                ids.push(if id.is_empty() {
                    tool_use_id(step_no, n)
                } else {
                    id.clone()
                });
                n += 1;
            }
        }
    }
    ids
}

// ---------------------------------------------------------------------------------------
// The Responses API.
// ---------------------------------------------------------------------------------------

/// A running Responses mock; stops when dropped.
pub struct MockResponses {
    pub server: Server,
}

impl MockResponses {
    pub fn start(script: Vec<Step>) -> MockResponses {
        MockResponses {
            server: Server::start(script, responses_handler),
        }
    }

    /// The provider's `base_url` (`http://127.0.0.1:PORT/v1`).
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.server.base_url())
    }

    pub fn requests(&self) -> Vec<Value> {
        self.server.requests()
    }

    pub fn steps_served(&self) -> usize {
        self.server.steps_served()
    }

    pub fn hits(&self) -> Vec<String> {
        self.server.hits()
    }

    pub fn errors(&self) -> Vec<String> {
        self.server.errors()
    }
}

/// Whether a Responses body is an agent-loop turn (it offers tools).
fn is_agent_loop(body: &Value) -> bool {
    body.get("tools")
        .and_then(Value::as_array)
        .is_some_and(|t| !t.is_empty())
}

fn responses_handler(request: &Request, state: &mut State) -> io::Result<Response> {
    let route = request.route();
    if request.method != "POST" || !route.ends_with("/responses") {
        // Anything else (model lists, compaction, ...) gets a 404 so the client falls
        // back to its defaults rather than acting on an invented answer.
        return Ok(Response::json_status(
            404,
            &json!({"error": {"message": "not mocked"}}),
        ));
    }
    let body = request.json()?;
    let stream = body.get("stream").and_then(Value::as_bool).unwrap_or(false);
    let (id, step) = if is_agent_loop(&body) {
        let (index, step) = state.next_step(body);
        (format!("resp_{index}"), step)
    } else {
        state.side_requests.push(body);
        (
            format!("resp_side_{}", state.side_requests.len()),
            Step::text(SIDE_QUERY_TEXT),
        )
    };
    let items = output_items(&step, &id);
    Ok(if stream {
        Response::sse(sse_body(&id, &items))
    } else {
        Response::json(&completed(&id, &items))
    })
}

/// The output items of one step, in the Responses API's shape.
pub fn output_items(step: &Step, response_id: &str) -> Vec<Value> {
    step.blocks
        .iter()
        .enumerate()
        .map(|(n, block)| match block {
            Block::Text(text) => json!({
                "type": "message", "role": "assistant", "id": format!("msg_{response_id}_{n}"),
                "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }),
            Block::ToolUse { id, name, input } => match input {
                Value::String(freeform) => json!({
                    "type": "custom_tool_call", "id": format!("ctc_{id}"), "call_id": id,
                    "name": name, "input": freeform, "status": "completed",
                }),
                other => json!({
                    "type": "function_call", "id": format!("fc_{id}"), "call_id": id,
                    "name": name, "arguments": other.to_string(), "status": "completed",
                }),
            },
        })
        .collect()
}

fn completed(id: &str, items: &[Value]) -> Value {
    json!({
        "id": id, "object": "response", "status": "completed", "output": items,
        "usage": {
            "input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15,
        },
    })
}

/// `response.created`, then each item as `output_item.added` + `output_item.done`, then
/// `response.completed`.
fn sse_body(id: &str, items: &[Value]) -> String {
    let mut events = vec![json!({
        "type": "response.created",
        "response": {"id": id, "object": "response", "status": "in_progress", "output": []},
    })];
    for (index, item) in items.iter().enumerate() {
        for kind in ["response.output_item.added", "response.output_item.done"] {
            events.push(json!({"type": kind, "output_index": index, "item": item}));
        }
    }
    events.push(json!({"type": "response.completed", "response": completed(id, items)}));
    events
        .into_iter()
        .enumerate()
        .map(|(n, mut event)| {
            event["sequence_number"] = json!(n);
            let kind = event["type"].as_str().unwrap_or_default().to_owned();
            format!("event: {kind}\ndata: {event}\n\n")
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Reading what the model was told.
// ---------------------------------------------------------------------------------------

/// The `input[]` items of a request body.
pub fn input_items(request: &Value) -> &[Value] {
    request
        .get("input")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A tool output (`output` of a `*_call_output` item) as text: a string, or the text of
/// its content items.
pub fn output_text(output: &Value) -> String {
    match output {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Object(o) => o
            .get("content")
            .map(output_text)
            .unwrap_or_else(|| output.to_string()),
        other => other.to_string(),
    }
}

/// The output the host sent for `call_id`, from the latest request that carries it.
pub fn tool_output(requests: &[Value], call_id: &str) -> Option<String> {
    requests.iter().rev().find_map(|request| {
        input_items(request).iter().find_map(|item| {
            let kind = item.get("type").and_then(Value::as_str)?;
            if (kind == "function_call_output" || kind == "custom_tool_call_output")
                && item.get("call_id").and_then(Value::as_str) == Some(call_id)
            {
                Some(output_text(item.get("output").unwrap_or(&Value::Null)))
            } else {
                None
            }
        })
    })
}

/// The text of a `message` item (its `input_text` / `output_text` parts joined).
pub fn message_text(item: &Value) -> Option<String> {
    if item.get("type").and_then(Value::as_str) != Some("message") {
        return None;
    }
    let content = item.get("content")?;
    Some(match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => return None,
    })
}

/// Developer and user messages that follow the user message holding `prompt`, over all
/// requests, in order, without duplicates: hook context (developer messages) and
/// stop-hook prompts (`<hook_prompt …>` user messages).
pub fn later_messages(requests: &[Value], prompt: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for request in requests {
        let items = input_items(request);
        let Some(start) = items.iter().position(|item| {
            item.get("role").and_then(Value::as_str) == Some("user")
                && message_text(item).is_some_and(|t| t.contains(prompt))
        }) else {
            continue;
        };
        for item in &items[start + 1..] {
            let role = item.get("role").and_then(Value::as_str);
            if !matches!(role, Some("developer" | "user" | "system")) {
                continue;
            }
            if let Some(text) = message_text(item) {
                if !out.contains(&text) {
                    out.push(text);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_is_served_as_responses_sse() {
        let mock = MockResponses::start(vec![Step::new(vec![
            Block::tool("exec_command", json!({"cmd": "true"})),
            Block::tool("apply_patch", json!("*** Begin Patch\n*** End Patch\n")),
        ])]);
        let body = json!({"stream": true, "tools": [{"type": "function"}], "input": []});
        let reply = post(&mock.server.base_url(), "/v1/responses", &body);
        assert!(reply.contains("event: response.created"), "{reply}");
        assert!(reply.contains(r#""call_id":"toolu_0_0""#), "{reply}");
        assert!(reply.contains(r#""type":"custom_tool_call""#), "{reply}");
        let reply = post(&mock.server.base_url(), "/v1/responses", &body);
        assert!(reply.contains(EXHAUSTED_TEXT), "{reply}");
        assert_eq!(mock.steps_served(), 1);
        assert_eq!(mock.requests().len(), 2);
    }

    fn post(base: &str, path: &str, body: &Value) -> String {
        let addr = base.trim_start_matches("http://");
        let mut stream = TcpStream::connect(addr).unwrap();
        let body = body.to_string();
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nhost: {addr}\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut out = String::new();
        stream.read_to_string(&mut out).unwrap();
        out
    }
}
