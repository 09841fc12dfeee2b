//! Completion-promise loops: `did-it-actually loop start --promise TEXT` makes the next
//! stop of a session in the project keep re-feeding the task until the final message
//! holds `<promise>TEXT</promise>` (and its claims hold), or until `max_iterations`.
//!
//! The promise counts only as a complete `<promise>…</promise>` element outside code,
//! whose text, trimmed and with whitespace collapsed, equals TEXT: an untagged sentence
//! equal to TEXT, an empty or unclosed tag, a tag with other text, or a tag quoted in a
//! code span does not complete the loop. The state is written atomically; a corrupt state
//! file is reported, never silently deleted.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const DEFAULT_MAX_ITERATIONS: u32 = 20;

/// One project's loop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopState {
    pub v: u32,
    pub project: PathBuf,
    pub promise: String,
    pub prompt: String,
    pub max_iterations: u32,
    /// The session the loop is bound to (the first that stops after `loop start`).
    pub session: Option<String>,
    /// Stops blocked so far.
    pub iteration: u32,
    pub status: Status,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Active,
    Completed,
    Exhausted,
    Cancelled,
}

/// Where a project's loop state lives: `<state>/loops/<hash of the project path>.json`.
pub fn state_path(state_root: &Path, project: &Path) -> PathBuf {
    let key = crate::fsutil::sha256_hex(project.to_string_lossy().as_bytes());
    state_root
        .join("loops")
        .join(format!("{}.json", &key[..16]))
}

/// A loop state larger than this is refused unread (it holds a prompt and a few counters).
const MAX_STATE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a loop state. `Ok(None)`: no loop. `Err`: a file that is there but unreadable.
pub fn load(path: &Path) -> Result<Option<LoopState>, String> {
    match crate::fsutil::read_regular(path, MAX_STATE_BYTES) {
        Ok(bytes) => serde_json::from_slice(&bytes).map(Some).map_err(|e| {
            format!("the loop state {} is corrupt ({e}); it was left as it is: fix it or run `did-it-actually loop cancel`", path.display())
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read the loop state {}: {e}", path.display())),
    }
}

pub fn save(path: &Path, state: &LoopState) -> Result<(), String> {
    let bytes = serde_json::to_vec_pretty(state).expect("the state serializes");
    crate::fsutil::write_atomically(path, &bytes)
        .map_err(|e| format!("cannot write the loop state {}: {e}", path.display()))
}

/// What the final message says about the promise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Promise {
    /// A complete tag with the promised text.
    Kept,
    /// No complete tag; `untagged` when the message holds the text without one.
    Absent { untagged: bool },
    /// A complete tag with other text (or empty).
    Other(String),
}

/// Whitespace trimmed and collapsed.
pub fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Looks for `<promise>TEXT</promise>` in `message`, outside fenced blocks and code spans.
pub fn check(message: &str, promise: &str) -> Promise {
    let prose = outside_code(message);
    let want = normalize(promise);
    let mut other = None;
    let mut rest = prose.as_str();
    while let Some(open) = rest.find("<promise>") {
        let after = &rest[open + "<promise>".len()..];
        let Some(close) = after.find("</promise>") else {
            break;
        };
        let inner = &after[..close];
        // A tag inside the tag is no promise of the text.
        if !inner.contains("<promise>") {
            let got = normalize(inner);
            if got == want && !got.is_empty() {
                return Promise::Kept;
            }
            other.get_or_insert(got);
        }
        rest = &after[close + "</promise>".len()..];
    }
    match other {
        Some(got) => Promise::Other(got),
        None => Promise::Absent {
            untagged: !want.is_empty() && normalize(&prose).contains(&want),
        },
    }
}

/// The message with fenced blocks and code spans blanked out.
fn outside_code(message: &str) -> String {
    let mut out = String::new();
    let mut fence = false;
    for line in message.lines() {
        if line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~") {
            fence = !fence;
            out.push('\n');
            continue;
        }
        if fence {
            out.push('\n');
            continue;
        }
        let mut in_span = false;
        for c in line.chars() {
            if c == '`' {
                in_span = !in_span;
                out.push(' ');
            } else if !in_span {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promise_outcomes() {
        let p = "DONE";
        assert_eq!(check("All good. <promise>DONE</promise>", p), Promise::Kept);
        assert_eq!(check("<promise>  DONE \n</promise>", p), Promise::Kept);
        assert_eq!(
            check("<promise>all   tests\npass</promise>", "all tests pass"),
            Promise::Kept
        );
        assert_eq!(check("DONE", p), Promise::Absent { untagged: true });
        assert_eq!(
            check("I am DONE now", p),
            Promise::Absent { untagged: true }
        );
        assert_eq!(
            check("nothing here", p),
            Promise::Absent { untagged: false }
        );
        assert_eq!(
            check("<promise></promise>", p),
            Promise::Other(String::new())
        );
        assert_eq!(
            check("<promise>DONE", p),
            Promise::Absent { untagged: true }
        );
        assert_eq!(
            check("<promise>DONE</promis>", p),
            Promise::Absent { untagged: true }
        );
        assert_eq!(
            check("<promise>NOT DONE</promise>", p),
            Promise::Other("NOT DONE".into())
        );
        assert_eq!(
            check("<promise><promise>DONE</promise></promise>", p),
            Promise::Absent { untagged: true }
        );
        assert_eq!(
            check("<promise>NO</promise> then <promise>DONE</promise>", p),
            Promise::Kept
        );
        assert_eq!(
            check("Reply with `<promise>DONE</promise>` when done.", p),
            Promise::Absent { untagged: false }
        );
        assert_eq!(
            check("```\n<promise>DONE</promise>\n```", p),
            Promise::Absent { untagged: false }
        );
    }
}
