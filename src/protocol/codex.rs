//! Codex CLI (observed on 0.171.0, shared/docs/hosts.md §3.1, §6): Claude Code's event
//! names and answer forms; the shell tool arrives as `Bash {command}` with `cwd` already
//! the call's working directory; file writes arrive as `apply_patch`, whose paths live
//! only inside the patch envelope (`tool_input.command`). Codex runs the tool on every
//! hook fault (crash, missing binary, bad JSON, timeout), so every answer here is one
//! its schema accepts.

use super::spec::{
    ContextForm, DenyForm, Forms, Host, HostSpec, NoticeForm, PostBlockForm, StopBlockForm,
    ToolRow, TranscriptFormat,
};
use super::Event;
use serde_json::{json, Map, Value};

/// The suite's name for a patch call; its input is translated into
/// `{"operations": [...]}` (see [`adapt_patch`]).
pub const APPLY_PATCH: &str = "apply_patch";

pub const SPEC: HostSpec = HostSpec {
    host: Host::Codex,
    name: "codex",
    title: "Codex CLI",
    events: &[
        ("PreToolUse", Event::PreToolUse),
        ("PostToolUse", Event::PostToolUse),
        ("Stop", Event::Stop),
        ("SubagentStop", Event::SubagentStop),
    ],
    fields: &[],
    tools: &[ToolRow {
        name: "apply_patch",
        canonical: APPLY_PATCH,
        args: &[],
        dir_arg: None,
    }],
    forms: Forms {
        deny: DenyForm::ClaudeJson,
        context: ContextForm::HookSpecific,
        post_block: PostBlockForm::Decision,
        stop_block: StopBlockForm::DecisionBlock,
        notices: NoticeForm::SystemMessage,
        allow: None,
    },
    transcript: TranscriptFormat::NotRead,
    // The tool's output is kept: the run log's output for a shell call (Codex itself
    // cuts what it shows the model; the record keeps a bounded head and tail).
    leave_out: &[],
};

/// One file operation of a patch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatchOp {
    /// `*** Add File: PATH` and its `+` lines.
    Add { path: String, content: String },
    /// `*** Update File: PATH`, maybe `*** Move to: NEW`, and its hunks: each the text
    /// the hunk leaves (context and `+` lines) and the text it replaced.
    Update {
        path: String,
        move_to: Option<String>,
        hunks: Vec<(String, String)>,
    },
    /// `*** Delete File: PATH`.
    Delete { path: String },
}

/// Why a patch could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchError {
    pub line: usize,
    pub expected: &'static str,
}

impl std::fmt::Display for PatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the apply_patch envelope is not readable at line {}: expected {}",
            self.line, self.expected
        )
    }
}

/// Reads a patch envelope (`*** Begin Patch` … `*** End Patch`), as Codex's own parser
/// does: file sections, `@@` hunk headers, ` `/`-`/`+` lines, `*** End of File`.
pub fn parse_patch(text: &str) -> Result<Vec<PatchOp>, PatchError> {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .ok_or(PatchError {
            line: 1,
            expected: "`*** Begin Patch`",
        })?;
    if lines[first].trim() != "*** Begin Patch" {
        return Err(PatchError {
            line: first + 1,
            expected: "`*** Begin Patch`",
        });
    }
    let mut ops = Vec::new();
    let mut i = first + 1;
    let at = |i: usize| lines.get(i).copied();
    loop {
        let Some(line) = at(i) else {
            return Err(PatchError {
                line: i + 1,
                expected: "`*** End Patch`",
            });
        };
        let trimmed = line.trim_end();
        if trimmed == "*** End Patch" {
            break;
        }
        if let Some(path) = trimmed.strip_prefix("*** Add File: ") {
            i += 1;
            let mut content = String::new();
            while let Some(l) = at(i).and_then(|l| l.strip_prefix('+')) {
                content.push_str(l);
                content.push('\n');
                i += 1;
            }
            ops.push(PatchOp::Add {
                path: path.trim().to_owned(),
                content,
            });
        } else if let Some(path) = trimmed.strip_prefix("*** Delete File: ") {
            ops.push(PatchOp::Delete {
                path: path.trim().to_owned(),
            });
            i += 1;
        } else if let Some(path) = trimmed.strip_prefix("*** Update File: ") {
            i += 1;
            let move_to = at(i)
                .and_then(|l| l.trim_end().strip_prefix("*** Move to: "))
                .map(|p| p.trim().to_owned());
            if move_to.is_some() {
                i += 1;
            }
            let mut hunks = Vec::new();
            let (mut new, mut old) = (Vec::new(), Vec::new());
            let mut flush = |new: &mut Vec<&str>, old: &mut Vec<&str>| {
                if !new.is_empty() || !old.is_empty() {
                    hunks.push((new.join("\n"), old.join("\n")));
                }
                new.clear();
                old.clear();
            };
            while let Some(l) = at(i) {
                if l.starts_with("*** ") && l.trim_end() != "*** End of File" {
                    break;
                }
                if l.starts_with("@@") || l.trim_end() == "*** End of File" {
                    flush(&mut new, &mut old);
                } else if let Some(t) = l.strip_prefix('+') {
                    new.push(t);
                } else if let Some(t) = l.strip_prefix('-') {
                    old.push(t);
                } else {
                    // Context (` text`, or an empty line in a hunk).
                    let t = l.strip_prefix(' ').unwrap_or(l);
                    new.push(t);
                    old.push(t);
                }
                i += 1;
            }
            flush(&mut new, &mut old);
            ops.push(PatchOp::Update {
                path: path.trim().to_owned(),
                move_to,
                hunks,
            });
        } else if trimmed.is_empty() {
            i += 1;
        } else {
            return Err(PatchError {
                line: i + 1,
                expected:
                    "`*** Add File:`, `*** Update File:`, `*** Delete File:` or `*** End Patch`",
            });
        }
    }
    Ok(ops)
}

/// Replaces a patch call's envelope by its operations, in the suite's shape:
/// `{"operations":[{"op":"add","file_path","content"} | {"op":"update","file_path",
/// "move_to"?,"hunks":[{"new","old"}]} | {"op":"delete","file_path"}]}`; an unreadable
/// envelope becomes `{"patch_error": why}`, which no guard lets through.
pub fn adapt_patch(obj: &mut Map<String, Value>) {
    let Some(Value::Object(input)) = obj.get_mut("tool_input") else {
        return;
    };
    let text = input
        .get("command")
        .or_else(|| input.get("input"))
        .or_else(|| input.get("patch"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let translated = match parse_patch(&text) {
        Ok(ops) => json!({"operations": ops.iter().map(op_json).collect::<Vec<_>>()}),
        Err(e) => json!({"patch_error": e.to_string()}),
    };
    *input = match translated {
        Value::Object(m) => m,
        _ => unreachable!("a JSON object"),
    };
}

fn op_json(op: &PatchOp) -> Value {
    match op {
        PatchOp::Add { path, content } => {
            json!({"op": "add", "file_path": path, "content": content})
        }
        PatchOp::Update {
            path,
            move_to,
            hunks,
        } => json!({"op": "update", "file_path": path, "move_to": move_to,
                    "hunks": hunks.iter().map(|(new, old)| json!({"new": new, "old": old})).collect::<Vec<_>>()}),
        PatchOp::Delete { path } => json!({"op": "delete", "file_path": path}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_kind_of_section() {
        let patch = "*** Begin Patch\n*** Add File: b.txt\n+hello\n+world\n*** Update File: src/a.rs\n*** Move to: src/c.rs\n@@ fn main\n fn main() {\n-    old();\n+    new();\n }\n*** Delete File: gone.txt\n*** End Patch\n";
        assert_eq!(
            parse_patch(patch).unwrap(),
            [
                PatchOp::Add {
                    path: "b.txt".into(),
                    content: "hello\nworld\n".into()
                },
                PatchOp::Update {
                    path: "src/a.rs".into(),
                    move_to: Some("src/c.rs".into()),
                    hunks: vec![(
                        "fn main() {\n    new();\n}".into(),
                        "fn main() {\n    old();\n}".into()
                    )]
                },
                PatchOp::Delete {
                    path: "gone.txt".into()
                },
            ]
        );
    }

    #[test]
    fn two_hunks_and_an_end_of_file_marker() {
        let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n@@\n-c\n+d\n*** End of File\n*** End Patch";
        let [PatchOp::Update { hunks, .. }] = &parse_patch(patch).unwrap()[..] else {
            panic!()
        };
        assert_eq!(
            hunks,
            &[("b".to_owned(), "a".to_owned()), ("d".into(), "c".into())]
        );
    }

    #[test]
    fn an_unreadable_envelope_says_where() {
        for (patch, line) in [
            ("", 1),
            ("hello", 1),
            ("*** Begin Patch\n*** Frobnicate: x\n*** End Patch", 2),
            ("*** Begin Patch\n*** Add File: a\n+x\n", 4),
        ] {
            assert_eq!(parse_patch(patch).unwrap_err().line, line, "{patch:?}");
        }
        let mut obj = Map::new();
        obj.insert("tool_input".into(), json!({"command": "nope"}));
        adapt_patch(&mut obj);
        assert_eq!(
            obj["tool_input"]["patch_error"],
            "the apply_patch envelope is not readable at line 1: expected `*** Begin Patch`"
        );
    }
}
