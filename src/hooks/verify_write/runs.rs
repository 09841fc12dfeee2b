//! The run log: every shell command the agent ran, as the host reported it after the call
//! (`kind: "run"` ledger records). On hosts whose own session file is not read, it is the
//! turn's evidence for claims about tests, builds, lint, commits and pushes.

use crate::protocol::{HookInput, ToolCall};
use crate::state::Change;
use crate::store::{bounded_output, RunKind, RunRecord, RECORD_VERSION};
use serde_json::Value;

/// The records of one shell call: its run, and the run-time layer's refusals its git
/// hooks printed but could not record (the ledger is out of the confined command's
/// reach). `result` is the host's response, or its error text when the host reported the
/// call as failed.
pub fn record(
    input: &HookInput,
    call: &ToolCall,
    result: Result<&Value, &str>,
    now: std::time::SystemTime,
) -> Vec<Change> {
    let run = run_record(input, call, result, now);
    let mut out = Vec::new();
    if let Change::Record(crate::store::Record::Run(r)) = &run {
        out.extend(unrecorded_refusals(input, call, &r.output, now));
    }
    out.insert(0, run);
    out
}

/// The refusals of git's hooks in `output` that say they were not recorded.
fn unrecorded_refusals(
    input: &HookInput,
    call: &ToolCall,
    output: &str,
    now: std::time::SystemTime,
) -> Vec<Change> {
    use crate::runtime::refs::{REFUSAL_START, UNRECORDED};
    // Every shell call passes here: the common case, no such line, costs one search.
    if !output.contains(UNRECORDED) {
        return Vec::new();
    }
    let lines: Vec<&str> = output.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix(REFUSAL_START) else {
            continue;
        };
        // Only a refusal its hook said it could not record (else it is in the ledger).
        let next_refusal = lines[i + 1..]
            .iter()
            .position(|l| l.starts_with(REFUSAL_START))
            .map_or(lines.len(), |k| i + 1 + k);
        if !lines[i + 1..next_refusal]
            .iter()
            .any(|l| l.starts_with(UNRECORDED))
        {
            continue;
        }
        let hook = rest.split(" hook)").next().unwrap_or("git");
        out.push(Change::Record(
            crate::store::DenialRecord {
                prompt_id: input.common.prompt_id.clone(),
                tool_use_id: call.tool_use_id.clone(),
                host: input.common.host.record_name(),
                cwd: Some(input.common.cwd.display().to_string()),
                ..crate::runtime::refs::denial_record(
                    hook,
                    input.common.session_id.clone(),
                    line.to_string(),
                    now,
                )
            }
            .into(),
        ));
    }
    out
}

fn run_record(
    input: &HookInput,
    call: &ToolCall,
    result: Result<&Value, &str>,
    now: std::time::SystemTime,
) -> Change {
    let (text, failed) = match result {
        Ok(response) => {
            let text = output_of(response);
            let failed = exit_code_in(&text).is_some_and(|c| c != 0);
            (text, failed)
        }
        Err(error) => (error.to_owned(), true),
    };
    let (output, output_bytes) = bounded_output(text.as_bytes());
    Change::Record(
        RunRecord {
            v: RECORD_VERSION,
            kind: RunKind::Run,
            time: crate::time::rfc3339(now),
            session: input.common.session_id.clone(),
            prompt_id: input.common.prompt_id.clone(),
            tool_use_id: call.tool_use_id.clone(),
            event: input.event.name().to_owned(),
            tool: crate::tools::normalize(&call.name).to_owned(),
            command: call
                .input
                .get("command")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            cwd: input.common.cwd.to_string_lossy().into_owned(),
            failed,
            output,
            output_bytes,
            host: input.common.host.record_name(),
        }
        .into(),
    )
}

/// What the call printed: another host's text (kept by its adapter), Claude Code's
/// `stdout` and `stderr`, or the response as it is.
fn output_of(response: &Value) -> String {
    if let Some(text) = response
        .get(crate::protocol::claude::HOST_OUTPUT)
        .and_then(Value::as_str)
    {
        return text.to_owned();
    }
    let field = |k: &str| response.get(k).and_then(Value::as_str).unwrap_or_default();
    match (field("stdout"), field("stderr")) {
        ("", "") => response.as_str().map_or_else(
            || {
                if response.is_null() {
                    String::new()
                } else {
                    response.to_string()
                }
            },
            str::to_owned,
        ),
        (out, "") => out.to_owned(),
        ("", err) => err.to_owned(),
        (out, err) => format!("{out}\n{err}"),
    }
}

/// The exit code a host wrote into the text it showed the model (`Exit Code: 1`,
/// `Exit code: 0`, `exit code 2`), if it did.
fn exit_code_in(text: &str) -> Option<i32> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find("exit code")?;
    let rest = lower[at + "exit code".len()..].trim_start_matches([':', ' ']);
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_output_is_what_the_host_showed() {
        assert_eq!(output_of(&json!({"stdout": "a", "stderr": "b"})), "a\nb");
        assert_eq!(output_of(&json!({"stdout": "a", "stderr": ""})), "a");
        assert_eq!(
            output_of(&json!({crate::protocol::claude::HOST_OUTPUT: "Exit Code: 1"})),
            "Exit Code: 1"
        );
        assert_eq!(output_of(&json!("plain")), "plain");
        assert_eq!(output_of(&Value::Null), "");
    }

    #[test]
    fn exit_codes_are_read_from_the_hosts_words() {
        assert_eq!(exit_code_in("Output: x\nExit Code: 1\n"), Some(1));
        assert_eq!(exit_code_in("Exit code: 0\nWall time: 0 seconds"), Some(0));
        assert_eq!(exit_code_in("process ended with exit code 2"), Some(2));
        assert_eq!(exit_code_in("3 passed"), None);
    }

    #[test]
    fn a_huge_output_keeps_its_head_and_tail_and_its_length() {
        let mut big = vec![b'a'; 100 * 1024 * 1024];
        big.extend_from_slice(b"\n5 passed, 0 failed\n");
        let (kept, whole) = bounded_output(&big);
        assert_eq!(whole, big.len() as u64);
        assert!(
            kept.len() < crate::store::RUN_OUTPUT_KEEP + 100,
            "{}",
            kept.len()
        );
        assert!(kept.ends_with("5 passed, 0 failed\n"));
        assert!(kept.contains("bytes of output left out"));
        // Not UTF-8: read lossily, never an error.
        let (kept, whole) = bounded_output(&[0xff, 0xfe, b'o', b'k']);
        assert_eq!(whole, 4);
        assert!(kept.ends_with("ok"));
    }
}
