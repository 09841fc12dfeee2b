//! A loopback mock of the Anthropic Messages API, so the real Claude Code binary can run
//! offline while "the model" follows a script.
//!
//! The point is not to imitate the model but to control it: each agent-loop request gets
//! the next scripted [`Step`], and every request body is kept so a test can assert on what
//! the agent was actually told (tool results, hook feedback). Those bodies are the only
//! place where the effect of a hook on the model is visible, which is why the helpers at
//! the bottom exist.
//!
//! Wire facts (observed on Claude Code 2.1.328, see `docs/e2e-real-claude.md`):
//! - the loop posts to `/v1/messages?beta=true` with `"stream": true` and a `tools` list;
//!   side queries (titles, summaries) carry no `tools`;
//! - the client is content with one response per connection, so every response is sent
//!   with `Connection: close`, which also makes the end of an SSE stream unambiguous;
//! - besides the top-level `system` prompt, `messages` holds `role: "system"` entries:
//!   that is where hook notes (PostToolUse blocks, PostToolBatch context) land, see
//!   [`system_notes`].

use std::io::{self, BufRead, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serde_json::{json, Value};

/// Text answered to agent-loop requests once the script has run out. A distinct marker
/// so a test that under-scripted a scenario can see it in the transcript or output.
pub const EXHAUSTED_TEXT: &str = "(script exhausted)";

/// Text answered to side queries (title generation and the like).
pub const SIDE_QUERY_TEXT: &str = "Scripted session";

/// How long a connection may stay silent before its handler gives up. Generous, since
/// the client writes its request at once; it only bounds a stuck thread.
const READ_TIMEOUT: Duration = Duration::from_secs(30);

/// Bodies larger than this are refused; the agent's requests are a few hundred KB at most.
const MAX_BODY: usize = 64 * 1024 * 1024;

/// One content block of a scripted model response.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Text(String),
    /// An empty `id` is replaced by [`tool_use_id`]`(step, n)` when the script starts.
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
}

impl Block {
    pub fn text(text: impl Into<String>) -> Block {
        Block::Text(text.into())
    }

    /// A tool call whose id is assigned from its position in the script.
    pub fn tool(name: impl Into<String>, input: Value) -> Block {
        Block::ToolUse {
            id: String::new(),
            name: name.into(),
            input,
        }
    }
}

/// The id given to the `n`-th tool use (0-based, counting tool uses only) of script step
/// `step` (0-based), unless the test chose its own id.
pub fn tool_use_id(step: usize, n: usize) -> String {
    format!("toolu_{step}_{n}")
}

/// One model response: what the agent receives for one agent-loop request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Step {
    pub blocks: Vec<Block>,
}

impl Step {
    pub fn new(blocks: Vec<Block>) -> Step {
        Step { blocks }
    }

    /// A final answer: `end_turn` with one text block.
    pub fn text(text: impl Into<String>) -> Step {
        Step::new(vec![Block::text(text)])
    }

    /// A single tool call.
    pub fn tool(name: impl Into<String>, input: Value) -> Step {
        Step::new(vec![Block::tool(name, input)])
    }

    /// A parallel batch of tool calls, as `(name, input)` pairs, in one response.
    pub fn tools<N: Into<String>>(calls: Vec<(N, Value)>) -> Step {
        Step::new(
            calls
                .into_iter()
                .map(|(name, input)| Block::tool(name, input))
                .collect(),
        )
    }

    /// Mirrors the real API: a response that calls tools stops with `tool_use`.
    pub fn stop_reason(&self) -> &'static str {
        if self
            .blocks
            .iter()
            .any(|b| matches!(b, Block::ToolUse { .. }))
        {
            "tool_use"
        } else {
            "end_turn"
        }
    }
}

/// What the mock has seen; shared between the connection threads and the test.
#[derive(Default)]
struct State {
    script: Vec<Step>,
    next_step: usize,
    requests: Vec<Value>,
    side_requests: Vec<Value>,
    hits: Vec<String>,
    errors: Vec<String>,
}

/// A running mock; stops accepting connections when dropped.
pub struct MockApi {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
    shutdown: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl MockApi {
    /// Binds 127.0.0.1 on a free port and serves `script` to the agent loop, in order.
    ///
    /// Panics only if the loopback socket cannot be bound, in which case no e2e test can
    /// run anyway.
    pub fn start(mut script: Vec<Step>) -> MockApi {
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

        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the mock API on loopback");
        let addr = listener
            .local_addr()
            .expect("local address of the mock API");
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
                        if let Err(e) = serve(stream, &state) {
                            lock(&state).errors.push(e.to_string());
                        }
                    });
                }
            })
        };

        MockApi {
            addr,
            state,
            shutdown,
            acceptor: Some(acceptor),
        }
    }

    /// The value for `ANTHROPIC_BASE_URL`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Bodies of the agent-loop requests (those with `tools`), in arrival order.
    pub fn requests(&self) -> Vec<Value> {
        lock(&self.state).requests.clone()
    }

    /// Bodies of `/v1/messages` requests without `tools` (side queries), in arrival order.
    pub fn side_requests(&self) -> Vec<Value> {
        lock(&self.state).side_requests.clone()
    }

    /// How many script steps have been served (excluding "script exhausted" answers).
    pub fn steps_served(&self) -> usize {
        let state = lock(&self.state);
        state.next_step.min(state.script.len())
    }

    /// `"<METHOD> <path>"` of every request, for diagnosing an unexpected conversation.
    pub fn hits(&self) -> Vec<String> {
        lock(&self.state).hits.clone()
    }

    /// Protocol problems met while serving (malformed requests, broken connections).
    /// A test that fails mysteriously should print these.
    pub fn errors(&self) -> Vec<String> {
        lock(&self.state).errors.clone()
    }
}

impl Drop for MockApi {
    fn drop(&mut self) {
        self.shutdown.store(true, Ordering::SeqCst);
        // The acceptor blocks in accept(); a throwaway connection wakes it up to see the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

/// A poisoned lock only means a connection thread panicked; the data is still the best
/// record of the conversation, so keep using it.
fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One HTTP request as read by [`read_request`] (also used by the other hosts' mocks).
pub struct Request {
    pub method: String,
    pub path: String,
    pub body: Vec<u8>,
}

fn serve(stream: TcpStream, state: &Mutex<State>) -> io::Result<()> {
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let Some(request) = read_request(&mut reader)? else {
        return Ok(()); // connected and closed without a request (e.g. the shutdown wake-up)
    };
    lock(state)
        .hits
        .push(format!("{} {}", request.method, request.path));

    // Anything but a Messages call (GETs for settings, feature flags and the like) gets
    // an empty success, which the client treats as "nothing configured".
    let route = request.path.split('?').next().unwrap_or("");
    let response = match request.method.as_str() {
        "POST" if route.ends_with("/v1/messages/count_tokens") => {
            Response::json(&json!({"input_tokens": 10}))
        }
        "POST" if route.ends_with("/v1/messages") => messages(&request.body, state)?,
        _ => Response::json(&json!({})),
    };
    response.write_to(&mut writer, request.method == "HEAD")?;
    writer.flush()?;
    let _ = writer.shutdown(Shutdown::Both);
    Ok(())
}

/// Answers one Messages API call: the next scripted step for the agent loop, a short
/// text for side queries.
fn messages(body: &[u8], state: &Mutex<State>) -> io::Result<Response> {
    let body: Value = serde_json::from_slice(body).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("request body is not JSON: {e}"),
        )
    })?;
    let stream = body.get("stream").and_then(Value::as_bool).unwrap_or(false);
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("claude-mock")
        .to_owned();

    let (step, id) = {
        let mut state = lock(state);
        if body.get("tools").is_some() {
            state.requests.push(body);
            let index = state.next_step;
            state.next_step += 1;
            let step = state
                .script
                .get(index)
                .cloned()
                .unwrap_or_else(|| Step::text(EXHAUSTED_TEXT));
            (step, format!("msg_mock_{index}"))
        } else {
            state.side_requests.push(body);
            let id = format!("msg_mock_side_{}", state.side_requests.len());
            (Step::text(SIDE_QUERY_TEXT), id)
        }
    };

    Ok(if stream {
        Response::sse(&step, &id, &model)
    } else {
        Response::json(&message(&step, &id, &model))
    })
}

/// The non-streaming form of a response.
fn message(step: &Step, id: &str, model: &str) -> Value {
    let content: Vec<Value> = step
        .blocks
        .iter()
        .map(|block| match block {
            Block::Text(text) => json!({"type": "text", "text": text}),
            Block::ToolUse { id, name, input } => {
                json!({"type": "tool_use", "id": id, "name": name, "input": input})
            }
        })
        .collect();
    json!({
        "id": id, "type": "message", "role": "assistant", "model": model,
        "content": content, "stop_reason": step.stop_reason(), "stop_sequence": null,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    })
}

/// The streaming form: the event sequence the SDK's stream accumulator expects. A whole
/// block is sent as a single delta; the client must cope with any split, so one is enough.
fn sse_events(step: &Step, id: &str, model: &str) -> Vec<(&'static str, Value)> {
    let mut events = vec![(
        "message_start",
        json!({"type": "message_start", "message": {
            "id": id, "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        }}),
    )];
    for (index, block) in step.blocks.iter().enumerate() {
        let (start, delta) = match block {
            Block::Text(text) => (
                json!({"type": "text", "text": ""}),
                json!({"type": "text_delta", "text": text}),
            ),
            Block::ToolUse { id, name, input } => (
                json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
                json!({"type": "input_json_delta", "partial_json": input.to_string()}),
            ),
        };
        events.push((
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": start}),
        ));
        events.push((
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index, "delta": delta}),
        ));
        events.push((
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        ));
    }
    events.push((
        "message_delta",
        json!({"type": "message_delta",
               "delta": {"stop_reason": step.stop_reason(), "stop_sequence": null},
               "usage": {"output_tokens": 5}}),
    ));
    events.push(("message_stop", json!({"type": "message_stop"})));
    events
}

struct Response {
    content_type: &'static str,
    body: Vec<u8>,
}

impl Response {
    fn json(value: &Value) -> Response {
        Response {
            content_type: "application/json",
            body: value.to_string().into_bytes(),
        }
    }

    fn sse(step: &Step, id: &str, model: &str) -> Response {
        let body: String = sse_events(step, id, model)
            .into_iter()
            .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n"))
            .collect();
        Response {
            content_type: "text/event-stream",
            body: body.into_bytes(),
        }
    }

    fn write_to(&self, out: &mut impl Write, head_only: bool) -> io::Result<()> {
        // Content-Length even for SSE: with Connection: close it is redundant, but it
        // lets any client tell a complete stream from a truncated one.
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: {}\r\ncontent-length: {}\r\nrequest-id: req_mock\r\nconnection: close\r\n\r\n",
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

/// Reads one HTTP/1.1 request. `Ok(None)` when the peer closed before sending anything.
pub fn read_request(reader: &mut impl BufRead) -> io::Result<Option<Request>> {
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
            let n: usize = value
                .parse()
                .map_err(|_| invalid(format!("bad content-length {value:?}")))?;
            content_length = Some(n);
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.to_ascii_lowercase().contains("chunked");
        } else if name.eq_ignore_ascii_case("content-encoding")
            && !value.eq_ignore_ascii_case("identity")
        {
            // std has no decompressor; fail loudly rather than misread a compressed body.
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

/// Decodes a `Transfer-Encoding: chunked` body (RFC 9112 §7.1), ignoring extensions and
/// trailers.
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
            // Trailer section: header lines up to an empty line.
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

// ---------------------------------------------------------------------------------------
// Reading what the model was told.
// ---------------------------------------------------------------------------------------

/// One `tool_result` block as the model received it.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult {
    pub tool_use_id: String,
    pub is_error: bool,
    /// The result's content flattened to text (a string, or the text of its blocks).
    pub text: String,
}

/// Every `tool_result` in a request's `messages`, oldest first. A request carries the
/// whole conversation, so this includes results of earlier turns.
pub fn tool_results(request: &Value) -> Vec<ToolResult> {
    content_blocks(request)
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
        .map(|b| ToolResult {
            tool_use_id: b
                .get("tool_use_id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            is_error: b.get("is_error").and_then(Value::as_bool).unwrap_or(false),
            text: b.get("content").map(content_text).unwrap_or_default(),
        })
        .collect()
}

/// The result of one tool use, if the request carries it.
pub fn tool_result(request: &Value, tool_use_id: &str) -> Option<ToolResult> {
    tool_results(request)
        .into_iter()
        .find(|r| r.tool_use_id == tool_use_id)
}

/// All text the request shows the model: the system prompt, every message's text,
/// tool results, and the contents of tool calls, joined by newlines. Meant for
/// `contains` checks where the exact placement of a hook's message does not matter.
pub fn all_text(request: &Value) -> String {
    let mut parts = Vec::new();
    if let Some(system) = request.get("system") {
        parts.push(content_text(system));
    }
    for message in messages_of(request) {
        if let Some(content) = message.get("content") {
            parts.push(content_text(content));
        }
    }
    parts.join("\n")
}

/// Texts of the `user` messages (string content or text blocks; tool results excluded),
/// oldest first. Holds the prompt, `<system-reminder>` context and, observed on 2.1.328,
/// a Stop block as `Stop hook feedback:\n<reason>`.
pub fn user_texts(request: &Value) -> Vec<String> {
    role_texts(request, "user")
}

/// Texts of the `role: "system"` entries Claude Code puts into `messages` (not the
/// top-level `system` prompt). Observed on 2.1.328, this is where hook notes land:
/// `PostToolUse:Write hook blocking error from command: "<cmd>": <reason>`,
/// `PostToolBatch hook additional context: <text>`,
/// `Stop hook blocking error from command: "<cmd>": <reason>`.
pub fn system_notes(request: &Value) -> Vec<String> {
    role_texts(request, "system")
}

/// Texts of the messages with `role`, one entry per string content or text block.
pub fn role_texts(request: &Value, role: &str) -> Vec<String> {
    messages_of(request)
        .filter(|m| m.get("role").and_then(Value::as_str) == Some(role))
        .flat_map(|m| match m.get("content") {
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(blocks)) => blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str).map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// Flattens a content value (a string, a block, or a list of blocks) to text. Nested
/// tool results are included; tool calls contribute their name and input JSON.
pub fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .map(content_text)
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Object(block) => match block.get("type").and_then(Value::as_str) {
            Some("text") => block
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            Some("tool_result") => block.get("content").map(content_text).unwrap_or_default(),
            Some("tool_use") => format!(
                "{} {}",
                block
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
                block.get("input").map(Value::to_string).unwrap_or_default()
            ),
            _ => String::new(),
        },
        _ => String::new(),
    }
}

fn messages_of(request: &Value) -> impl Iterator<Item = &Value> {
    request
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn content_blocks(request: &Value) -> impl Iterator<Item = &Value> {
    messages_of(request).flat_map(|m| {
        m.get("content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
    })
}
