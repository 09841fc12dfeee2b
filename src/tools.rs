//! Tool names and write targets: which tool calls write, and where.
//!
//! The table [`WRITE_TOOLS`] is the one place that knows the write tools. The installer
//! builds its matcher from it, verify-write and scope-guard take their targets from it.

use serde_json::Value;

/// Strips an MCP prefix: `mcp__<server>__<tool>` becomes `<tool>`.
///
/// The server part ends at the first `__` after `mcp__` (server names may contain single
/// underscores and dashes, plugin servers look like `plugin_<plugin>_<server>`). A name
/// without a complete prefix is returned unchanged.
pub fn normalize(name: &str) -> &str {
    let Some(rest) = name.strip_prefix("mcp__") else {
        return name;
    };
    match rest.find("__") {
        Some(end) if end > 0 && end + 2 < rest.len() => &rest[end + 2..],
        _ => name,
    }
}

/// Whether `name` (raw, with any MCP prefix) is the tool `bare`: bare, behind
/// `mcp__<server>__` (the server ending at the first `__`, see [`normalize`]), or behind a
/// server whose own name holds `__` (`mcp__my__sh__Bash`), which the registered matchers'
/// greedy `mcp__.+__` also take. `not_mcp__x__end_turn` and `mcp__end_turn` are not.
pub fn is_tool(name: &str, bare: &str) -> bool {
    if name == bare || normalize(name) == bare {
        return true;
    }
    name.strip_prefix("mcp__").is_some_and(|rest| {
        rest.rfind("__")
            .filter(|&i| i > 0)
            .is_some_and(|i| &rest[i + 2..] == bare)
    })
}

/// The shell tools the branch and scope guards read commands from.
pub const SHELL_TOOLS: [&str; 2] = ["Bash", "PowerShell"];

/// Whether a tool runs shell commands: Bash or PowerShell, bare or MCP-served (an Agent SDK
/// app's own `mcp__sh__Bash`).
pub fn is_shell(name: &str) -> bool {
    SHELL_TOOLS.iter().any(|t| is_tool(name, t))
}

/// The Claude Code matcher for every shell tool, bare or behind any MCP server prefix. A
/// plain `Bash|PowerShell` matches exact names only, so an MCP shell would run unguarded.
pub fn shell_tools_matcher() -> String {
    format!("^(mcp__.+__)?({})$", SHELL_TOOLS.join("|"))
}

/// What a write tool does to the file system; each kind has its own evidence rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteKind {
    /// Replaces a file's whole content (Claude Code `Write`).
    Write,
    /// Replaces one string (or every occurrence) in a file (`Edit`).
    Edit,
    /// A sequence of edits applied in order (`MultiEdit`, older hosts).
    MultiEdit,
    /// Replaces, inserts or deletes one Jupyter cell (`NotebookEdit`).
    NotebookEdit,
    /// MCP filesystem server `write_file {path, content}`.
    McpWriteFile,
    /// MCP filesystem server `edit_file {path, edits: [{oldText, newText}], dryRun}`.
    McpEditFile,
    /// MCP filesystem server `move_file {source, destination}`.
    McpMoveFile,
    /// MCP filesystem server `create_directory {path}`.
    McpCreateDirectory,
    /// A patch of several files (Codex's `apply_patch`, its envelope read by
    /// [`crate::protocol::codex`] into `{"operations": [...]}`).
    ApplyPatch,
}

impl WriteKind {
    /// A tool only another host's adapter produces (Codex's patch, translated): Claude
    /// Code has no such tool, so its matcher leaves it out.
    pub fn host_only(self) -> bool {
        self == WriteKind::ApplyPatch
    }

    /// The tool's name as the table spells it (after [`normalize`]).
    pub fn name(self) -> &'static str {
        WRITE_TOOLS
            .iter()
            .find(|t| t.kind == self)
            .map_or("write tool", |t| t.name)
    }
}

/// One known write tool: its name after [`normalize`] and what it does.
#[derive(Debug)]
pub struct ToolSpec {
    pub name: &'static str,
    pub kind: WriteKind,
}

/// Every write tool the suite knows, by normalized name.
pub const WRITE_TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "Write",
        kind: WriteKind::Write,
    },
    ToolSpec {
        name: "Edit",
        kind: WriteKind::Edit,
    },
    ToolSpec {
        name: "MultiEdit",
        kind: WriteKind::MultiEdit,
    },
    ToolSpec {
        name: "NotebookEdit",
        kind: WriteKind::NotebookEdit,
    },
    ToolSpec {
        name: "write_file",
        kind: WriteKind::McpWriteFile,
    },
    ToolSpec {
        name: "edit_file",
        kind: WriteKind::McpEditFile,
    },
    ToolSpec {
        name: "move_file",
        kind: WriteKind::McpMoveFile,
    },
    ToolSpec {
        name: "create_directory",
        kind: WriteKind::McpCreateDirectory,
    },
    ToolSpec {
        name: "apply_patch",
        kind: WriteKind::ApplyPatch,
    },
];

/// The write kind of a (raw or normalized) tool name, or `None` for a tool that does not write.
pub fn write_kind(tool_name: &str) -> Option<WriteKind> {
    let known = |name: &str| WRITE_TOOLS.iter().find(|t| t.name == name).map(|t| t.kind);
    // The registered matcher's `mcp__.+__` is greedy, so `mcp__my__fs__write_file` (a
    // server whose name holds `__`) reaches the hooks too: the last segment must decide
    // as well, or the guards would wave through a write they were called to judge.
    known(normalize(tool_name)).or_else(|| {
        let rest = tool_name.strip_prefix("mcp__")?;
        let last = rest.rfind("__").filter(|&i| i > 0)?;
        known(&rest[last + 2..])
    })
}

/// The Claude Code matcher (a JavaScript regex, anchored) for every write tool, bare or
/// behind any MCP server prefix.
pub fn write_tools_matcher() -> String {
    let names: Vec<&str> = WRITE_TOOLS
        .iter()
        .filter(|t| !t.kind.host_only())
        .map(|t| t.name)
        .collect();
    format!("^(mcp__.+__)?({})$", names.join("|"))
}

/// What happens at one path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The file's content is written or edited.
    Written,
    /// A directory is created.
    DirectoryCreated,
    /// The path is moved away (a move's source).
    MovedFrom,
    /// The path receives a moved file (a move's destination).
    MovedTo,
}

/// One path a tool call writes, as the tool was given it (not yet resolved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub path: String,
    pub role: Role,
}

/// A tool input that lacks the field naming its target.
#[derive(Debug, PartialEq, Eq)]
pub struct TargetError {
    pub tool: String,
    pub expected: &'static str,
    /// Why the input could not be read, when more is known than the missing field.
    pub detail: Option<String>,
}

impl std::fmt::Display for TargetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.detail {
            Some(detail) => write!(f, "the {} tool input cannot be read: {detail}", self.tool),
            None => write!(
                f,
                "the {} tool input has no {} (a non-empty string)",
                self.tool, self.expected
            ),
        }
    }
}

/// The paths a write tool call touches, in the order they are written.
pub fn write_targets(kind: WriteKind, input: &Value) -> Result<Vec<Target>, TargetError> {
    let tool = kind.name().to_owned();
    let field = |names: &'static [&'static str]| -> Result<String, TargetError> {
        names
            .iter()
            .find_map(|n| input.get(*n).and_then(Value::as_str))
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .ok_or(TargetError {
                tool: tool.clone(),
                expected: names[0],
                detail: None,
            })
    };
    let one = |names, role| field(names).map(|path| vec![Target { path, role }]);
    match kind {
        WriteKind::Write | WriteKind::Edit | WriteKind::MultiEdit => {
            one(&["file_path"], Role::Written)
        }
        WriteKind::NotebookEdit => one(&["notebook_path"], Role::Written),
        // Gemini-style hosts spell it `file_path`; the MCP filesystem server says `path`.
        WriteKind::McpWriteFile | WriteKind::McpEditFile => {
            one(&["path", "file_path"], Role::Written)
        }
        WriteKind::McpCreateDirectory => one(&["path"], Role::DirectoryCreated),
        WriteKind::ApplyPatch => patch_targets(input),
        WriteKind::McpMoveFile => Ok(vec![
            Target {
                path: field(&["source"])?,
                role: Role::MovedFrom,
            },
            Target {
                path: field(&["destination"])?,
                role: Role::MovedTo,
            },
        ]),
    }
}

/// The paths of a patch's operations: an added or updated file is written, a deleted
/// one (and a moved one's old path) is moved away, a move's new path receives the file.
/// A patch that could not be read, or that touches nothing, has no target: the guards
/// refuse what they cannot place.
fn patch_targets(input: &Value) -> Result<Vec<Target>, TargetError> {
    let error = || TargetError {
        tool: "apply_patch".into(),
        expected: "operations",
        detail: Some(
            input
                .get("patch_error")
                .and_then(Value::as_str)
                .unwrap_or("the patch touches no file")
                .to_owned(),
        ),
    };
    let ops = input
        .get("operations")
        .and_then(Value::as_array)
        .filter(|ops| !ops.is_empty())
        .ok_or_else(error)?;
    let mut out = Vec::new();
    for op in ops {
        let path = |key: &str| {
            op.get(key)
                .and_then(Value::as_str)
                .filter(|p| !p.is_empty())
                .map(str::to_owned)
        };
        let file = path("file_path").ok_or_else(error)?;
        match (op.get("op").and_then(Value::as_str), path("move_to")) {
            (Some("update"), Some(to)) => {
                out.push(Target {
                    path: file,
                    role: Role::MovedFrom,
                });
                out.push(Target {
                    path: to,
                    role: Role::MovedTo,
                });
            }
            (Some("add" | "update"), _) => out.push(Target {
                path: file,
                role: Role::Written,
            }),
            (Some("delete"), _) => out.push(Target {
                path: file,
                role: Role::MovedFrom,
            }),
            _ => return Err(error()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn normalize_seed_cases() {
        assert_eq!(normalize("mcp__telegram-tools__end_turn"), "end_turn");
        assert_eq!(normalize("mcp__some-server-name__Write"), "Write");
        assert_eq!(normalize("mcp__plugin_fs_files__write_file"), "write_file");
        for unchanged in [
            "end_turn",
            "Read",
            "mcp__incomplete",
            "not_mcp__server__tool",
        ] {
            assert_eq!(normalize(unchanged), unchanged);
        }
    }

    #[test]
    fn normalize_edge_cases() {
        // Empty server or empty tool: not a complete prefix.
        assert_eq!(normalize("mcp____Write"), "mcp____Write");
        assert_eq!(normalize("mcp__server__"), "mcp__server__");
        // The server ends at the FIRST `__`; the tool keeps any later ones.
        assert_eq!(normalize("mcp__a__b__c"), "b__c");
        assert_eq!(normalize(""), "");
    }

    /// A minimal valid input for each kind, with `p` as the path.
    fn input_for(kind: WriteKind, p: &str) -> Value {
        match kind {
            WriteKind::Write => json!({"file_path": p, "content": "x"}),
            WriteKind::Edit => json!({"file_path": p, "old_string": "a", "new_string": "b"}),
            WriteKind::MultiEdit => json!({"file_path": p, "edits": []}),
            WriteKind::NotebookEdit => json!({"notebook_path": p, "new_source": "x"}),
            WriteKind::McpWriteFile => json!({"path": p, "content": "x"}),
            WriteKind::McpEditFile => json!({"path": p, "edits": []}),
            WriteKind::McpMoveFile => json!({"source": p, "destination": "/dst"}),
            WriteKind::McpCreateDirectory => json!({"path": p}),
            WriteKind::ApplyPatch => {
                json!({"operations": [{"op": "add", "file_path": p, "content": "x"}]})
            }
        }
    }

    /// Derived from the table: every tool, bare and behind several server prefixes, is
    /// recognized, yields its target, and is matched by the installer's matcher.
    #[test]
    fn every_tool_under_every_prefix() {
        let prefixes = [
            "",
            "mcp__fs__",
            "mcp__some-server-name__",
            "mcp__plugin_x_fs__",
            // A server name holding `__`: the matcher takes it, so write_kind must too.
            "mcp__my__fs__",
        ];
        for spec in WRITE_TOOLS {
            for prefix in prefixes {
                let name = format!("{prefix}{}", spec.name);
                assert_eq!(write_kind(&name), Some(spec.kind), "{name}");
                let targets = write_targets(spec.kind, &input_for(spec.kind, "/p/f")).unwrap();
                assert_eq!(targets[0].path, "/p/f", "{name}");
                assert_eq!(matcher_matches(&name), !spec.kind.host_only(), "{name}");
            }
        }
        for other in [
            "Read",
            "Bash",
            "mcp__fs__read_file",
            "Writer",
            "xWrite",
            "mcp__Write",
        ] {
            assert_eq!(write_kind(other), None, "{other}");
            assert!(!matcher_matches(other), "{other} matched");
        }
    }

    #[test]
    fn tool_names_match_bare_or_behind_any_mcp_prefix() {
        for yes in [
            "end_turn",
            "mcp__ctl__end_turn",
            "mcp__my__ctl__end_turn",
            "mcp__plugin_x_ctl__end_turn",
        ] {
            assert!(is_tool(yes, "end_turn"), "{yes}");
        }
        for no in [
            "not_mcp__x__end_turn",
            "mcp__incomplete",
            "mcp__end_turn",
            "mcp____end_turn",
            "end_turn2",
            "mcp__ctl__end_turn_now",
            "",
        ] {
            assert!(!is_tool(no, "end_turn"), "{no}");
        }
        assert!(is_shell("mcp__sh__Bash") && is_shell("mcp__a__b__PowerShell") && is_shell("Bash"));
        assert!(!is_shell("mcp__sh__bash") && !is_shell("run_command") && !is_shell("xBash"));
        assert_eq!(shell_tools_matcher(), "^(mcp__.+__)?(Bash|PowerShell)$");
    }

    /// The matcher is `^(mcp__.+__)?(A|B|…)$`; check it without a regex engine.
    fn matcher_matches(name: &str) -> bool {
        let m = write_tools_matcher();
        let alts = m
            .trim_start_matches("^(mcp__.+__)?(")
            .trim_end_matches(")$")
            .split('|')
            .collect::<Vec<_>>();
        alts.iter().any(|alt| {
            name == *alt
                || name
                    .strip_suffix(alt)
                    .and_then(|p| p.strip_prefix("mcp__"))
                    .is_some_and(|mid| mid.len() > 2 && mid.ends_with("__"))
        })
    }

    #[test]
    fn move_has_two_targets() {
        let t = write_targets(
            WriteKind::McpMoveFile,
            &json!({"source": "/a", "destination": "/b"}),
        )
        .unwrap();
        assert_eq!(
            t,
            vec![
                Target {
                    path: "/a".into(),
                    role: Role::MovedFrom
                },
                Target {
                    path: "/b".into(),
                    role: Role::MovedTo
                },
            ]
        );
    }

    #[test]
    fn missing_or_empty_path_is_an_error() {
        for input in [json!({}), json!({"file_path": ""}), json!({"file_path": 3})] {
            let err = write_targets(WriteKind::Write, &input).unwrap_err();
            assert_eq!(err.expected, "file_path");
            assert_eq!(
                err.to_string(),
                "the Write tool input has no file_path (a non-empty string)"
            );
        }
        let err = write_targets(WriteKind::McpMoveFile, &json!({"source": "/a"})).unwrap_err();
        assert_eq!(err.expected, "destination");
    }

    #[test]
    fn gemini_style_file_path_for_write_file() {
        let t = write_targets(WriteKind::McpWriteFile, &json!({"file_path": "/g"})).unwrap();
        assert_eq!(t[0].path, "/g");
    }
}
