//! A loopback mock of the OpenAI Chat Completions API (`POST …/chat/completions`), for
//! hosts that speak it (Qwen Code). The script is the same [`Step`]/[`Block`] list the
//! Anthropic mock ([`super::mock_api`]) plays; it is translated here into Chat Completions
//! chunks: a text block becomes `delta.content`, a tool use becomes one
//! `delta.tool_calls[i]` entry (the whole argument JSON in one piece), then a chunk with
//! `finish_reason` (`tool_calls` or `stop`), a usage chunk and `data: [DONE]`.
//!
//! Which requests are "the agent loop" is the caller's call ([`MockChat::start_with`]):
//! only those advance the script; every other chat request (titles, Qwen's tools-bearing
//! side requests, see hosts.md §3.4) gets [`SIDE_QUERY_TEXT`]. The default rule
//! ([`MockChat::start`]) counts every request that offers `tools`.
//!
//! Wire facts (Qwen Code 0.24.4): `stream: true` with `stream_options.include_usage`;
//! tool results come back as `{"role":"tool","tool_call_id":ID,"content":TEXT}` messages.

use std::io::{self, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serde_json::{json, Value};

use super::mock_api::read_request;
pub use super::mock_api::{Block, Step, EXHAUSTED_TEXT, SIDE_QUERY_TEXT};

const READ_TIMEOUT: Duration = Duration::from_secs(30);

/// The id given to the `n`-th tool call (0-based) of script step `step` (0-based),
/// unless the test chose its own id.
pub fn tool_call_id(step: usize, n: usize) -> String {
    format!("call_{step}_{n}")
}

/// Decides whether a request body belongs to the agent loop.
pub type Classifier = Box<dyn Fn(&Value) -> bool + Send + Sync>;

struct State {
    script: Vec<Step>,
    next_step: usize,
    requests: Vec<Value>,
    side_requests: Vec<Value>,
    hits: Vec<String>,
    errors: Vec<String>,
}

/// A running mock; stops accepting connections when dropped.
pub struct MockChat {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
    shutdown: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

/// Assigns [`tool_call_id`]s to the script's tool uses that have no id, in place.
pub fn assign_ids(script: &mut [Step]) {
    for (step_no, step) in script.iter_mut().enumerate() {
        let mut n = 0;
        for block in &mut step.blocks {
            if let Block::ToolUse { id, .. } = block {
                if id.is_empty() {
                    *id = tool_call_id(step_no, n);
                }
                n += 1;
            }
        }
    }
}

impl MockChat {
    /// Serves `script`, counting every request that offers `tools` as the agent loop.
    pub fn start(script: Vec<Step>) -> MockChat {
        MockChat::start_with(
            script,
            Box::new(|body: &Value| {
                body.get("tools")
                    .and_then(Value::as_array)
                    .is_some_and(|t| !t.is_empty())
            }),
        )
    }

    /// Serves `script` to the requests `is_agent_loop` accepts, in order.
    pub fn start_with(mut script: Vec<Step>, is_agent_loop: Classifier) -> MockChat {
        assign_ids(&mut script);
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the mock chat API");
        let addr = listener.local_addr().expect("local address of the mock");
        let state = Arc::new(Mutex::new(State {
            script,
            next_step: 0,
            requests: Vec::new(),
            side_requests: Vec::new(),
            hits: Vec::new(),
            errors: Vec::new(),
        }));
        let shutdown = Arc::new(AtomicBool::new(false));
        let classify: Arc<Classifier> = Arc::new(is_agent_loop);
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
                    let classify = Arc::clone(&classify);
                    thread::spawn(move || {
                        if let Err(e) = serve(stream, &state, &**classify) {
                            lock(&state).errors.push(e.to_string());
                        }
                    });
                }
            })
        };
        MockChat {
            addr,
            state,
            shutdown,
            acceptor: Some(acceptor),
        }
    }

    /// The value for `OPENAI_BASE_URL` (with the `/v1` prefix clients append paths to).
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Bodies of the agent-loop requests, in arrival order.
    pub fn requests(&self) -> Vec<Value> {
        lock(&self.state).requests.clone()
    }

    /// Bodies of the other chat requests, in arrival order.
    pub fn side_requests(&self) -> Vec<Value> {
        lock(&self.state).side_requests.clone()
    }

    /// How many script steps have been served (excluding "script exhausted" answers).
    pub fn steps_served(&self) -> usize {
        let state = lock(&self.state);
        state.next_step.min(state.script.len())
    }

    /// `"<METHOD> <path>"` of every request.
    pub fn hits(&self) -> Vec<String> {
        lock(&self.state).hits.clone()
    }

    /// Protocol problems met while serving.
    pub fn errors(&self) -> Vec<String> {
        lock(&self.state).errors.clone()
    }
}

impl Drop for MockChat {
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

fn serve(
    stream: TcpStream,
    state: &Mutex<State>,
    classify: &(dyn Fn(&Value) -> bool + Send + Sync),
) -> io::Result<()> {
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let Some(request) = read_request(&mut reader)? else {
        return Ok(());
    };
    lock(state)
        .hits
        .push(format!("{} {}", request.method, request.path));
    let route = request.path.split('?').next().unwrap_or("");
    let (content_type, body) = match request.method.as_str() {
        "POST" if route.ends_with("/chat/completions") => chat(&request.body, state, classify)?,
        "GET" if route.ends_with("/models") => (
            "application/json",
            json!({"object": "list", "data": [{"id": "mock-model", "object": "model",
                   "created": 0, "owned_by": "mock"}]})
            .to_string(),
        ),
        _ => ("application/json", json!({}).to_string()),
    };
    let head = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    writer.write_all(head.as_bytes())?;
    if request.method != "HEAD" {
        writer.write_all(body.as_bytes())?;
    }
    writer.flush()?;
    let _ = writer.shutdown(Shutdown::Both);
    Ok(())
}

fn chat(
    body: &[u8],
    state: &Mutex<State>,
    classify: &(dyn Fn(&Value) -> bool + Send + Sync),
) -> io::Result<(&'static str, String)> {
    let body: Value = serde_json::from_slice(body).map_err(|e| {
        io::Error::new(io::ErrorKind::InvalidData, format!("body is not JSON: {e}"))
    })?;
    let stream = body.get("stream").and_then(Value::as_bool).unwrap_or(false);
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("mock-model")
        .to_owned();
    let (step, id) = {
        let mut state = lock(state);
        if classify(&body) {
            state.requests.push(body);
            let index = state.next_step;
            state.next_step += 1;
            let step = state
                .script
                .get(index)
                .cloned()
                .unwrap_or_else(|| Step::text(EXHAUSTED_TEXT));
            (step, format!("chatcmpl-mock-{index}"))
        } else {
            state.side_requests.push(body);
            let id = format!("chatcmpl-mock-side-{}", state.side_requests.len());
            (Step::text(SIDE_QUERY_TEXT), id)
        }
    };
    Ok(if stream {
        let body: String = chunks(&step, &id, &model)
            .into_iter()
            .map(|c| format!("data: {c}\n\n"))
            .chain(std::iter::once("data: [DONE]\n\n".to_owned()))
            .collect();
        ("text/event-stream", body)
    } else {
        (
            "application/json",
            completion(&step, &id, &model).to_string(),
        )
    })
}

fn finish_reason(step: &Step) -> &'static str {
    if step.stop_reason() == "tool_use" {
        "tool_calls"
    } else {
        "stop"
    }
}

fn tool_calls(step: &Step) -> Vec<Value> {
    step.blocks
        .iter()
        .filter_map(|b| match b {
            Block::ToolUse { id, name, input } => Some((id, name, input)),
            Block::Text(_) => None,
        })
        .enumerate()
        .map(|(index, (id, name, input))| {
            json!({"index": index, "id": id, "type": "function",
                   "function": {"name": name, "arguments": input.to_string()}})
        })
        .collect()
}

fn text(step: &Step) -> Option<String> {
    let texts: Vec<&str> = step
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text(t) => Some(t.as_str()),
            Block::ToolUse { .. } => None,
        })
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

/// The streamed form: one chunk per text and per tool call, the finish chunk, usage.
fn chunks(step: &Step, id: &str, model: &str) -> Vec<Value> {
    let chunk = |choices: Value| {
        json!({"id": id, "object": "chat.completion.chunk", "created": 0, "model": model,
               "choices": choices})
    };
    let mut out = vec![chunk(json!([{"index": 0,
        "delta": {"role": "assistant", "content": ""}, "finish_reason": null}]))];
    if let Some(text) = text(step) {
        out.push(chunk(json!([{"index": 0, "delta": {"content": text},
                               "finish_reason": null}])));
    }
    for call in tool_calls(step) {
        out.push(chunk(json!([{"index": 0, "delta": {"tool_calls": [call]},
                               "finish_reason": null}])));
    }
    out.push(chunk(json!([{"index": 0, "delta": {},
                           "finish_reason": finish_reason(step)}])));
    let mut usage = chunk(json!([]));
    usage["usage"] = json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15});
    out.push(usage);
    out
}

/// The non-streamed form.
fn completion(step: &Step, id: &str, model: &str) -> Value {
    let mut message = json!({"role": "assistant", "content": text(step)});
    let calls: Vec<Value> = tool_calls(step)
        .into_iter()
        .map(|mut c| {
            c.as_object_mut().map(|o| o.remove("index"));
            c
        })
        .collect();
    if !calls.is_empty() {
        message["tool_calls"] = Value::Array(calls);
    }
    json!({"id": id, "object": "chat.completion", "created": 0, "model": model,
           "choices": [{"index": 0, "message": message, "finish_reason": finish_reason(step)}],
           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
}

// ---------------------------------------------------------------------------------------
// Reading what the model was told.
// ---------------------------------------------------------------------------------------

fn messages_of(request: &Value) -> impl Iterator<Item = &Value> {
    request
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// Flattens a Chat message `content` (a string, or a list of `{type:"text", text}` parts).
pub fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| match p {
                Value::String(s) => Some(s.clone()),
                _ => p.get("text").and_then(Value::as_str).map(str::to_owned),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The content of the `role:"tool"` message answering `tool_call_id`, if the request has it.
pub fn tool_result(request: &Value, tool_call_id: &str) -> Option<String> {
    messages_of(request)
        .find(|m| {
            m.get("role").and_then(Value::as_str) == Some("tool")
                && m.get("tool_call_id").and_then(Value::as_str) == Some(tool_call_id)
        })
        .map(|m| m.get("content").map(content_text).unwrap_or_default())
}

/// Texts of the messages with `role` (one per message), oldest first.
pub fn role_texts(request: &Value, role: &str) -> Vec<String> {
    messages_of(request)
        .filter(|m| m.get("role").and_then(Value::as_str) == Some(role))
        .map(|m| m.get("content").map(content_text).unwrap_or_default())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Texts of the `user` messages, oldest first.
pub fn user_texts(request: &Value) -> Vec<String> {
    role_texts(request, "user")
}

/// Names of the tools a request offers.
pub fn tool_names(request: &Value) -> Vec<String> {
    request
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| {
            t.pointer("/function/name")
                .or_else(|| t.get("name"))
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .collect()
}
