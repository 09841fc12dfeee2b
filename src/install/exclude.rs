//! The files install writes that hold this machine's paths (`.claude/settings.local.json`,
//! the run-time layer's variables) and the backups it makes of files it changes
//! (`*.did-it-actually.bak`) are never meant to be committed: install lists them in the
//! repository's own `.git/info/exclude` (local to this clone, committed nowhere, unlike
//! `.gitignore`), so `git add .claude` does not take them; uninstall takes the lines away.

use std::path::{Path, PathBuf};

/// The block's first line, by which it is recognised.
const START: &str =
    "# did-it-actually: this machine's files (install adds these lines, uninstall removes them)";
/// What the block ignores, relative to the repository's top level.
const PATTERNS: &[&str] = &["/.claude/settings.local.json", "*.did-it-actually.bak"];

/// The exclude file of the repository `project` is in, if it is one.
fn exclude_file(project: &Path) -> Option<PathBuf> {
    let repo = git2::Repository::discover(project).ok()?;
    Some(repo.commondir().join("info").join("exclude"))
}

/// Adds the block (once). Whether the file changed.
pub fn add(project: &Path) -> Result<bool, String> {
    let Some(file) = exclude_file(project) else {
        return Ok(false);
    };
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    if text.lines().any(|l| l == START) {
        return Ok(false);
    }
    let mut out = text;
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(START);
    out.push('\n');
    for p in PATTERNS {
        out.push_str(p);
        out.push('\n');
    }
    write(&file, &out).map(|()| true)
}

/// Removes the block, and nothing else. Whether the file changed.
pub fn remove(project: &Path) -> Result<bool, String> {
    let Some(file) = exclude_file(project) else {
        return Ok(false);
    };
    let Ok(text) = std::fs::read_to_string(&file) else {
        return Ok(false);
    };
    let Some(out) = without_block(&text) else {
        return Ok(false);
    };
    write(&file, &out).map(|()| true)
}

/// `text` without the block, or `None` when it has none.
fn without_block(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| *l == START)?;
    let mut end = at + 1;
    while end < lines.len() && PATTERNS.contains(&lines[end]) {
        end += 1;
    }
    let kept: Vec<&str> = lines[..at].iter().chain(&lines[end..]).copied().collect();
    let mut out = kept.join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    Some(out)
}

/// (`write_atomically` makes the `info` directory where there is none.)
fn write(file: &Path, text: &str) -> Result<(), String> {
    crate::fsutil::write_atomically(file, text.as_bytes()).map_err(|e| {
        format!(
            "cannot write {}: {}",
            file.display(),
            crate::fsutil::describe_io(&e)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_goes_as_it_came_and_leaves_the_rest() {
        let before = "# git's own comment\n*.log\n";
        let mut with = before.to_owned();
        with.push_str(START);
        with.push('\n');
        for p in PATTERNS {
            with.push_str(p);
            with.push('\n');
        }
        with.push_str("build/\n");
        assert_eq!(
            without_block(&with).as_deref(),
            Some("# git's own comment\n*.log\nbuild/\n")
        );
        assert_eq!(without_block(before), None);
    }
}
