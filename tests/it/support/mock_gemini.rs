//! A loopback mock of the Gemini API (`POST /v1beta/models/<model>:streamGenerateContent
//! ?alt=sse`), so the real Gemini CLI can run offline while "the model" follows a [`Step`]
//! script, in the manner of [`super::mock_api`]. It runs on the shared
//! [`super::mock_responses::Server`].
//!
//! Script translation: a [`Block::Text`] becomes a `{"text"}` part, a [`Block::ToolUse`]
//! a `{"functionCall": {id, name, args}}` part (the block's id is the call's id, which the
//! CLI keeps and echoes in its `functionResponse`). One SSE chunk holds the whole step.
//!
//! Requests that carry no `functionDeclarations` (next-speaker checks, loop detection,
//! summaries) are side queries: they are answered with [`SIDE_QUERY_TEXT`], or, when they
//! ask for JSON (`responseJsonSchema` / `responseSchema`), with an object filled from the
//! schema (an enum string prefers `"user"`, so the next-speaker check hands the turn back).

use std::io;

use serde_json::{json, Map, Value};

use super::mock_api::{Block, Step, SIDE_QUERY_TEXT};
use super::mock_responses::{Request, Response, Server, State};

/// A running Gemini mock; stops when dropped.
pub struct MockGemini {
    pub server: Server,
}

impl MockGemini {
    pub fn start(script: Vec<Step>) -> MockGemini {
        MockGemini {
            server: Server::start(script, gemini_handler),
        }
    }

    /// The value for `GOOGLE_GEMINI_BASE_URL` (`http://127.0.0.1:PORT`).
    pub fn base_url(&self) -> String {
        self.server.base_url()
    }

    pub fn requests(&self) -> Vec<Value> {
        self.server.requests()
    }

    pub fn side_requests(&self) -> Vec<Value> {
        self.server.side_requests()
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

/// Whether a body offers the model tools (the agent loop does, side queries do not).
fn is_agent_loop(body: &Value) -> bool {
    body.get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|tool| {
            tool.get("functionDeclarations")
                .and_then(Value::as_array)
                .is_some_and(|d| !d.is_empty())
        })
}

fn gemini_handler(request: &Request, state: &mut State) -> io::Result<Response> {
    let route = request.route();
    if request.method != "POST" {
        return Ok(Response::json_status(
            404,
            &json!({"error": {"code": 404, "message": "not mocked", "status": "NOT_FOUND"}}),
        ));
    }
    if route.ends_with(":countTokens") {
        return Ok(Response::json(&json!({"totalTokens": 10})));
    }
    let stream = route.ends_with(":streamGenerateContent");
    if !stream && !route.ends_with(":generateContent") {
        return Ok(Response::json_status(
            404,
            &json!({"error": {"code": 404, "message": "not mocked", "status": "NOT_FOUND"}}),
        ));
    }
    let model = route
        .rsplit('/')
        .next()
        .and_then(|m| m.split(':').next())
        .unwrap_or("gemini-mock")
        .to_owned();
    let body = request.json()?;
    let step = if is_agent_loop(&body) {
        state.next_step(body).1
    } else {
        let schema = body.get("generationConfig").and_then(|g| {
            g.get("responseJsonSchema")
                .or_else(|| g.get("responseSchema"))
                .cloned()
        });
        state.side_requests.push(body);
        match schema {
            Some(schema) => Step::text(fill(&schema).to_string()),
            None => Step::text(SIDE_QUERY_TEXT),
        }
    };
    let chunk = chunk(&step, &model);
    Ok(if stream {
        Response::sse(format!("data: {chunk}\r\n\r\n"))
    } else {
        Response::json(&chunk)
    })
}

/// One `GenerateContentResponse` holding the whole step.
pub fn chunk(step: &Step, model: &str) -> Value {
    let parts: Vec<Value> = step
        .blocks
        .iter()
        .map(|block| match block {
            Block::Text(text) => json!({ "text": text }),
            Block::ToolUse { id, name, input } => {
                json!({"functionCall": {"id": id, "name": name, "args": input}})
            }
        })
        .collect();
    json!({
        "candidates": [{
            "content": {"role": "model", "parts": parts},
            "finishReason": "STOP", "index": 0,
        }],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": model,
    })
}

/// A value of the shape a JSON schema asks for.
fn fill(schema: &Value) -> Value {
    let kind = schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("object")
        .to_ascii_lowercase();
    if let Some(choices) = schema.get("enum").and_then(Value::as_array) {
        let user = json!("user");
        return if choices.contains(&user) {
            user
        } else {
            choices.first().cloned().unwrap_or(json!("ok"))
        };
    }
    match kind.as_str() {
        "object" => {
            let mut out = Map::new();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (name, prop) in props {
                    out.insert(name.clone(), fill(prop));
                }
            }
            Value::Object(out)
        }
        "string" => json!("ok"),
        "boolean" => json!(false),
        "number" | "integer" => json!(0),
        "array" => json!([]),
        _ => Value::Null,
    }
}

// ---------------------------------------------------------------------------------------
// Reading what the model was told.
// ---------------------------------------------------------------------------------------

/// The `contents[]` of a request body.
pub fn contents(request: &Value) -> &[Value] {
    request
        .get("contents")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn parts(content: &Value) -> &[Value] {
    content
        .get("parts")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The text parts of a content, joined; `None` when it has none.
fn text_of(content: &Value) -> Option<String> {
    let texts: Vec<&str> = parts(content)
        .iter()
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

/// A `functionResponse.response` as text: its `output`, else its `error`, else the JSON.
pub fn response_text(response: &Value) -> String {
    for key in ["output", "error", "content"] {
        if let Some(v) = response.get(key) {
            return match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
        }
    }
    response.to_string()
}

/// Every `functionResponse` part of a request, oldest first, as `(id, text)`.
pub fn function_responses(request: &Value) -> Vec<(Option<String>, String)> {
    contents(request)
        .iter()
        .flat_map(parts)
        .filter_map(|p| p.get("functionResponse"))
        .map(|fr| {
            (
                fr.get("id").and_then(Value::as_str).map(str::to_owned),
                response_text(fr.get("response").unwrap_or(&Value::Null)),
            )
        })
        .collect()
}

/// The result for each scripted call id: matched by id (the CLI echoes the id the mock
/// gave the call); failing that, by position among the function responses of the latest
/// request.
pub fn tool_results(requests: &[Value], ids: &[String]) -> Vec<Option<String>> {
    let latest = requests.last().map(function_responses).unwrap_or_default();
    ids.iter()
        .enumerate()
        .map(|(n, id)| {
            requests
                .iter()
                .rev()
                .find_map(|r| {
                    function_responses(r)
                        .into_iter()
                        .find(|(rid, _)| rid.as_deref() == Some(id.as_str()))
                        .map(|(_, text)| text)
                })
                .or_else(|| {
                    latest
                        .get(n)
                        .filter(|(rid, _)| rid.is_none())
                        .map(|(_, t)| t.clone())
                })
        })
        .collect()
}

/// User-role text parts after the user content holding `prompt`, over all requests, in
/// order, without duplicates (e.g. an AfterAgent deny's reason, sent as a new prompt).
pub fn later_messages(requests: &[Value], prompt: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for request in requests {
        let all = contents(request);
        let Some(start) = all.iter().position(|c| {
            c.get("role").and_then(Value::as_str) == Some("user")
                && text_of(c).is_some_and(|t| t.contains(prompt))
        }) else {
            continue;
        };
        for content in &all[start + 1..] {
            if content.get("role").and_then(Value::as_str) != Some("user") {
                continue;
            }
            if let Some(text) = text_of(content) {
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
    fn side_query_schemas_are_filled() {
        let schema = json!({"type": "object", "properties": {
            "reasoning": {"type": "string"},
            "next_speaker": {"type": "string", "enum": ["model", "user"]},
        }});
        assert_eq!(
            fill(&schema),
            json!({"reasoning": "ok", "next_speaker": "user"})
        );
    }

    #[test]
    fn function_responses_match_by_id() {
        let request = json!({"contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {"role": "model", "parts": [{"functionCall": {"id": "a", "name": "x", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"id": "a", "name": "x",
                "response": {"error": "Tool execution blocked: NOPE"}}}]},
            {"role": "user", "parts": [{"text": "again"}]},
        ]});
        let requests = [request];
        assert_eq!(
            tool_results(&requests, &["a".into(), "b".into()]),
            [Some("Tool execution blocked: NOPE".into()), None]
        );
        assert_eq!(later_messages(&requests, "go"), ["again"]);
    }
}
