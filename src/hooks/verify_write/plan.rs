//! Turning a write tool call into the writes to check: each target and what the disk must
//! show there (the exact bytes when they can be computed, else the text an edit put in
//! and took out).

use super::*;

/// Turns one tool call into the writes to check. `response` is the structured
/// PostToolUse result when there is one. `Ok(None)`: nothing to verify (an MCP dry run).
pub(super) fn plan<'a>(
    kind: WriteKind,
    input: &'a Value,
    response: Option<&'a Value>,
    cwd: &Path,
) -> Result<Option<Vec<Planned<'a>>>, String> {
    let targets = tools::write_targets(kind, input).map_err(|e| e.to_string())?;
    let resolve = |t: &Target| fsutil::absolute(Path::new(&t.path), cwd);
    let bool_of =
        |v: Option<&Value>, key: &str| v.and_then(|v| v.get(key)).and_then(Value::as_bool);
    // The host's result wins over the request: the user may have changed the content in
    // the permission dialog (`userModified`).
    let original =
        str_of(response, "originalFile").or_else(|| str_of(response, "originalFileContents"));
    let single = |op, expect| {
        Ok(Some(vec![Planned {
            path: resolve(&targets[0]),
            op,
            expect,
        }]))
    };
    match kind {
        WriteKind::Write | WriteKind::McpWriteFile => {
            // Absent from the result also when it equals the request's: the Claude Code
            // adapter does not hold that copy (`protocol::claude::ELIDE`).
            let content = str_of(response, "content")
                .or_else(|| str_of(Some(input), "content"))
                .ok_or_else(|| {
                    format!("the {} tool input has no content (a string)", kind.name())
                })?;
            let op = Operation::Write;
            single(
                op,
                Expectation::Content(ContentRule {
                    exact: Some(Cow::Borrowed(content.as_bytes())),
                    whole: true,
                    original,
                    ..ContentRule::default()
                }),
            )
        }
        WriteKind::Edit => {
            let old = str_of(response, "oldString").or_else(|| str_of(Some(input), "old_string"));
            let new = str_of(response, "newString").or_else(|| str_of(Some(input), "new_string"));
            // Without either string there is nothing to look for: say so, never "landed".
            let (Some(old), Some(new)) = (old, new) else {
                return single(
                    Operation::Edit,
                    Expectation::Unconfirmable(
                        "an Edit without old_string and new_string cannot be checked",
                    ),
                );
            };
            let all = bool_of(response, "replaceAll")
                .or_else(|| bool_of(Some(input), "replace_all"))
                .unwrap_or(false);
            let edits = [Edit { old, new, all }];
            single(
                Operation::Edit,
                Expectation::Content(edit_rule(original, &edits)),
            )
        }
        WriteKind::MultiEdit => {
            let edits = edits_of(input, "edits", "old_string", "new_string", "replace_all")?;
            single(
                Operation::MultiEdit,
                Expectation::Content(edit_rule(original, &edits)),
            )
        }
        WriteKind::McpEditFile => {
            if bool_of(Some(input), "dryRun") == Some(true) {
                return Ok(None);
            }
            let edits = edits_of(input, "edits", "oldText", "newText", "")?;
            // The MCP server replaces the first match only and matches whitespace loosely,
            // so old text may legitimately remain: only the new text is evidence.
            let present: Vec<&str> = edits
                .into_iter()
                .map(|e| e.new)
                .filter(|n| !n.is_empty())
                .collect();
            if present.is_empty() {
                return single(Operation::Edit, Expectation::Unconfirmable("an edit_file that only deletes text cannot be confirmed without the file's previous content"));
            }
            let rule = ContentRule {
                present,
                ..ContentRule::default()
            };
            single(Operation::Edit, Expectation::Content(rule))
        }
        WriteKind::NotebookEdit => {
            let mode = match str_of(Some(input), "edit_mode") {
                None | Some("replace") => CellMode::Replace,
                Some("insert") => CellMode::Insert,
                Some("delete") => CellMode::Delete,
                Some(other) => return Err(format!("unknown NotebookEdit edit_mode `{other}`")),
            };
            // For an insert the host answers with the NEW cell's id; the input's id is the
            // cell it was inserted after.
            let cell_id = match mode {
                CellMode::Insert => str_of(response, "cell_id"),
                _ => str_of(Some(input), "cell_id").or_else(|| str_of(response, "cell_id")),
            };
            let rule = CellRule {
                mode,
                cell_id,
                source: str_of(Some(input), "new_source").unwrap_or_default(),
                original: str_of(response, "original_file"),
                updated: str_of(response, "updated_file"),
            };
            single(Operation::NotebookEdit, Expectation::Cell(rule))
        }
        WriteKind::ApplyPatch => patch_plan(input, cwd).map(Some),
        WriteKind::McpMoveFile | WriteKind::McpCreateDirectory => Ok(Some(
            targets
                .iter()
                .map(|t| {
                    let (op, expect) = match t.role {
                        Role::MovedFrom => (Operation::MoveFrom, Expectation::Gone),
                        Role::MovedTo => (Operation::MoveTo, Expectation::Present),
                        Role::DirectoryCreated | Role::Written => {
                            (Operation::CreateDirectory, Expectation::Directory)
                        }
                    };
                    Planned {
                        path: resolve(t),
                        op,
                        expect,
                    }
                })
                .collect(),
        )),
    }
}

/// A patch's operations (see [`crate::protocol::codex::adapt_patch`]): an added file
/// holds exactly its lines; an updated one holds the text each hunk leaves (its old text
/// may legitimately remain elsewhere: a hunk is placed by its context, not by being
/// unique); a deleted file, and a moved file's old path, are gone.
fn patch_plan<'a>(input: &'a Value, cwd: &Path) -> Result<Vec<Planned<'a>>, String> {
    tools::write_targets(WriteKind::ApplyPatch, input).map_err(|e| e.to_string())?;
    let ops = input
        .get("operations")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let path =
        |op: &Value, key: &str| str_of(Some(op), key).map(|p| fsutil::absolute(Path::new(p), cwd));
    let mut out = Vec::new();
    for op in ops {
        let file = path(op, "file_path").ok_or("a patch operation has no file_path")?;
        match str_of(Some(op), "op") {
            Some("add") => out.push(Planned {
                path: file,
                op: Operation::Write,
                expect: Expectation::Content(ContentRule {
                    exact: str_of(Some(op), "content").map(|c| Cow::Borrowed(c.as_bytes())),
                    whole: true,
                    ..ContentRule::default()
                }),
            }),
            Some("delete") => out.push(Planned {
                path: file,
                op: Operation::Delete,
                expect: Expectation::Gone,
            }),
            Some("update") => {
                let present: Vec<&str> = op
                    .get("hunks")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|h| str_of(Some(h), "new"))
                    .filter(|n| !n.is_empty())
                    .collect();
                let expect = if present.is_empty() {
                    Expectation::Unconfirmable(
                        "a patch hunk that only deletes lines cannot be confirmed without the file's previous content",
                    )
                } else {
                    Expectation::Content(ContentRule {
                        present,
                        ..ContentRule::default()
                    })
                };
                let to = path(op, "move_to");
                if let Some(to) = to {
                    out.push(Planned {
                        path: file,
                        op: Operation::MoveFrom,
                        expect: Expectation::Gone,
                    });
                    out.push(Planned {
                        path: to,
                        op: Operation::Edit,
                        expect,
                    });
                } else {
                    out.push(Planned {
                        path: file,
                        op: Operation::Edit,
                        expect,
                    });
                }
            }
            other => return Err(format!("unknown patch operation {other:?}")),
        }
    }
    Ok(out)
}

/// A string value of an optional object.
pub(super) fn str_of<'a>(v: Option<&'a Value>, key: &str) -> Option<&'a str> {
    v.and_then(|v| v.get(key)).and_then(Value::as_str)
}

pub(super) struct Edit<'a> {
    pub(super) old: &'a str,
    pub(super) new: &'a str,
    pub(super) all: bool,
}

pub(super) fn edits_of<'a>(
    input: &'a Value,
    field: &str,
    old: &str,
    new: &str,
    all: &str,
) -> Result<Vec<Edit<'a>>, String> {
    let items = input
        .get(field)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("the tool input has no {field} (an array)"))?;
    items
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let text = |k: &str| {
                e.get(k)
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("{field}[{i}] has no {k} (a string)"))
            };
            Ok(Edit {
                old: text(old)?,
                new: text(new)?,
                all: !all.is_empty() && e.get(all).and_then(Value::as_bool).unwrap_or(false),
            })
        })
        .collect()
}

/// The rule for a sequence of string replacements: exact when the original is known and
/// every edit applies to it, else the text each edit leaves behind.
pub(super) fn edit_rule<'a>(original: Option<&'a str>, edits: &[Edit<'a>]) -> ContentRule<'a> {
    let exact = original.and_then(|orig| {
        edits
            .iter()
            .try_fold(Cow::Borrowed(orig), |text, e| {
                apply(&text, e).map(Cow::Owned)
            })
            .map(|t| Cow::Owned(t.into_owned().into_bytes()))
    });
    let mut rule = ContentRule {
        exact,
        original,
        ..ContentRule::default()
    };
    for (i, e) in edits.iter().enumerate() {
        // A later edit may rewrite what an earlier one put in: only require text that no
        // later edit touches.
        let later = &edits[i + 1..];
        let overlaps = |t: &str| {
            later
                .iter()
                .any(|l| !l.old.is_empty() && (l.old.contains(t) || t.contains(l.old)))
        };
        if !e.new.is_empty() && !overlaps(e.new) {
            rule.present.push(e.new);
        }
        // Edit refuses an old_string that is not unique (without replace_all), so after
        // any edit the old text is gone, unless the new text (or a later edit's) has it.
        let reintroduced = later.iter().any(|l| l.new.contains(e.old));
        if !e.old.is_empty() && !e.new.contains(e.old) && !reintroduced && !overlaps(e.old) {
            rule.absent.push(e.old);
        }
    }
    rule
}

pub(super) fn apply(text: &str, e: &Edit) -> Option<String> {
    if e.old.is_empty() {
        // Claude Code's way of creating a file with Edit.
        return text.is_empty().then(|| e.new.to_owned());
    }
    if !text.contains(e.old) {
        return None;
    }
    Some(if e.all {
        text.replace(e.old, e.new)
    } else {
        text.replacen(e.old, e.new, 1)
    })
}
