//! Notebook edits (NotebookEdit): the cells the edit replaced, inserted or deleted.

use super::*;

pub(super) fn check_cell(path: &Path, rule: &CellRule) -> Check {
    let bytes = match fsutil::read_at_most(path, DIAGNOSE_LIMIT) {
        Ok(Some(b)) => b,
        Ok(None) => {
            return Check::new(
                Outcome::Unconfirmed,
                "the notebook is too large to check".to_owned(),
            )
        }
        Err(e) => {
            return Check::new(
                Outcome::Unreadable,
                format!("the notebook could not be read: {e}"),
            )
        }
    };
    let digest = Some(FileDigest {
        sha256: fsutil::sha256_hex(&bytes),
        size: bytes.len() as u64,
    });
    let finish = |outcome, detail: Option<String>| Check {
        outcome,
        detail,
        digest: digest.clone(),
    };
    // The host sent the notebook as it wrote it: byte equality is the strongest evidence.
    if rule.updated.is_some_and(|u| u.as_bytes() == bytes) {
        return finish(Outcome::Landed, None);
    }
    if rule.original.is_some_and(|o| o.as_bytes() == bytes) {
        return finish(
            Outcome::NotLanded,
            Some("the notebook still holds its previous content".to_owned()),
        );
    }
    let notebook: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            return finish(
                Outcome::Differs,
                Some(format!("the notebook is not valid JSON: {e}")),
            )
        }
    };
    let original_count = rule
        .original
        .and_then(|o| serde_json::from_str::<Value>(o).ok())
        .map(|nb| cells_of(&nb).len());
    let cells = cells_of(&notebook);
    let verdict = cell_verdict(rule, cells, original_count);
    // The cell is right but the bytes are not what the host wrote: something (Jupyter
    // saving outputs, a formatter) changed the notebook afterwards.
    match verdict {
        (Outcome::Landed, None) if rule.updated.is_some() => finish(
            Outcome::ChangedAfter,
            Some("it landed, then the notebook was changed by something else; the edited cell is as written".to_owned()),
        ),
        (outcome, detail) => finish(outcome, detail),
    }
}

pub(super) fn cells_of(notebook: &Value) -> &[Value] {
    notebook
        .get("cells")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

pub(super) fn cell_source(cell: &Value) -> String {
    match cell.get("source") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(lines)) => lines.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// Whether the notebook's cells show the edit. Cell ids are `id` fields (nbformat 4.5);
/// older notebooks have none and are addressed by position as `cell-N`.
pub(super) fn cell_verdict(
    rule: &CellRule,
    cells: &[Value],
    original_count: Option<usize>,
) -> (Outcome, Option<String>) {
    let same_source = |cell: &Value| cell_source(cell).trim_end() == rule.source.trim_end();
    let literal = |id: &str| {
        cells
            .iter()
            .find(|c| c.get("id").and_then(Value::as_str) == Some(id))
    };
    let positional = |id: &str| {
        id.strip_prefix("cell-")
            .and_then(|n| n.parse::<usize>().ok())
    };
    let id = rule.cell_id;
    let count_is =
        |delta: isize| original_count.map(|n| cells.len() as isize == n as isize + delta);
    match rule.mode {
        CellMode::Delete => match id {
            Some(id) if literal(id).is_some() => (
                Outcome::NotLanded,
                Some(format!("cell {id} is still in the notebook")),
            ),
            // A positional id names whatever cell now sits there: only the count can tell.
            Some(id) if positional(id).is_some() => match count_is(-1) {
                Some(true) => (Outcome::Landed, None),
                Some(false) => (
                    Outcome::NotLanded,
                    Some(format!(
                        "the notebook has {} cells, not one fewer than before",
                        cells.len()
                    )),
                ),
                None => (
                    Outcome::Unconfirmed,
                    Some(format!(
                        "deleting {id} cannot be confirmed without the notebook's previous content"
                    )),
                ),
            },
            // A literal id that is gone: the delete landed.
            Some(_) => (Outcome::Landed, None),
            // No id says which cell went: only the count can tell.
            None => match count_is(-1) {
                Some(true) => (Outcome::Landed, None),
                Some(false) => (
                    Outcome::NotLanded,
                    Some(format!(
                        "the notebook has {} cells, not one fewer than before",
                        cells.len()
                    )),
                ),
                None => (
                    Outcome::Unconfirmed,
                    Some("a delete without a cell id cannot be confirmed without the notebook's previous content".to_owned()),
                ),
            },
        },
        CellMode::Insert => {
            let found = match id {
                Some(id) => literal(id).map(same_source),
                None if count_is(1) == Some(false) => None,
                None => Some(cells.iter().any(same_source)),
            };
            match found {
                Some(true) => (Outcome::Landed, None),
                Some(false) => (
                    Outcome::TextAbsent,
                    Some(format!(
                        "the inserted cell {} does not hold the new source",
                        id.unwrap_or("?")
                    )),
                ),
                None => (
                    Outcome::TextAbsent,
                    Some(match id {
                        Some(id) => format!("the inserted cell {id} is not in the notebook"),
                        None => "no cell was inserted".to_owned(),
                    }),
                ),
            }
        }
        CellMode::Replace => {
            let cell =
                id.and_then(|id| literal(id).or_else(|| positional(id).and_then(|i| cells.get(i))));
            match cell {
                Some(cell) if same_source(cell) => (Outcome::Landed, None),
                Some(cell) => (
                    Outcome::TextAbsent,
                    Some(format!(
                        "cell {} holds {}, not the new source",
                        id.unwrap_or("?"),
                        quote(&cell_source(cell))
                    )),
                ),
                None if cells.iter().any(same_source) => (Outcome::Landed, None),
                None => (
                    Outcome::TextAbsent,
                    Some("no cell holds the new source".to_owned()),
                ),
            }
        }
    }
}
