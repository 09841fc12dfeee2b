//! Checking one planned write against the disk, and saying how it differs.

use super::*;

pub(super) fn check(planned: &Planned) -> Check {
    let path = &planned.path;
    let probe = fsutil::probe(path);
    match &planned.expect {
        Expectation::Gone => match probe {
            Probe::Missing => Check::new(Outcome::Landed, None),
            _ => Check::new(
                Outcome::SourceRemains,
                "the source is still there".to_owned(),
            ),
        },
        Expectation::Present => match probe {
            Probe::Missing => {
                Check::new(Outcome::Missing, "nothing is at the destination".to_owned())
            }
            Probe::Error(e) => Check::new(
                Outcome::Unreadable,
                format!(
                    "the destination could not be examined: {}",
                    crate::fsutil::describe_io(&e)
                ),
            ),
            _ => Check::new(Outcome::Landed, None),
        },
        Expectation::Directory => match probe {
            Probe::Directory => Check::new(Outcome::Landed, None),
            Probe::Missing => {
                Check::new(Outcome::Missing, "the directory does not exist".to_owned())
            }
            Probe::Error(e) => Check::new(
                Outcome::Unreadable,
                format!(
                    "the path could not be examined: {}",
                    crate::fsutil::describe_io(&e)
                ),
            ),
            _ => Check::new(
                Outcome::WrongType,
                "a file, not a directory, is at the path".to_owned(),
            ),
        },
        Expectation::Unconfirmable(why) => match probe {
            Probe::File { .. } => Check::new(Outcome::Unconfirmed, (*why).to_owned()),
            other => not_a_file(other),
        },
        Expectation::Content(rule) => match probe {
            Probe::File { .. } => check_content(path, rule, planned.op),
            other => not_a_file(other),
        },
        Expectation::Cell(rule) => match probe {
            Probe::File { .. } => check_cell(path, rule),
            other => not_a_file(other),
        },
    }
}

pub(super) fn not_a_file(probe: Probe) -> Check {
    match probe {
        Probe::Missing => Check::new(Outcome::Missing, "the file does not exist".to_owned()),
        Probe::Directory => Check::new(
            Outcome::WrongType,
            "a directory is at the path, not a file".to_owned(),
        ),
        Probe::Special => Check::new(
            Outcome::WrongType,
            "a FIFO, socket or device is at the path, not a regular file (it was not opened)"
                .to_owned(),
        ),
        Probe::Error(e) => Check::new(
            Outcome::Unreadable,
            format!(
                "the file could not be examined: {}",
                crate::fsutil::describe_io(&e)
            ),
        ),
        Probe::File { .. } => unreachable!("callers handle files"),
    }
}

pub(super) fn check_content(path: &Path, rule: &ContentRule, op: Operation) -> Check {
    let unreadable = |e: std::io::Error| {
        Check::new(
            Outcome::Unreadable,
            format!(
                "the file could not be read: {}",
                crate::fsutil::describe_io(&e)
            ),
        )
    };
    let mut digest = None;
    if let Some(exact) = &rule.exact {
        match fsutil::compare_file(path, exact) {
            Ok((true, d)) => {
                return Check {
                    outcome: Outcome::Landed,
                    detail: None,
                    digest: Some(d),
                }
            }
            Ok((false, d)) => digest = Some(d),
            Err(e) => return unreadable(e),
        }
    }
    let disk = match fsutil::read_at_most(path, DIAGNOSE_LIMIT) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            let mut c = Check::new(
                Outcome::Differs,
                format!(
                    "the file is larger than {} MiB and differs from what was expected",
                    DIAGNOSE_LIMIT >> 20
                ),
            );
            c.digest = digest;
            return c;
        }
        Err(e) => return unreadable(e),
    };
    let digest = digest.unwrap_or_else(|| FileDigest {
        sha256: fsutil::sha256_hex(&disk),
        size: disk.len() as u64,
    });
    let with_digest = |outcome, detail: String| Check {
        outcome,
        detail: Some(detail),
        digest: Some(digest.clone()),
    };
    let whole_present = match (&rule.exact, rule.whole) {
        // Empty content is "in" every file: an empty Write holds only on an empty file.
        (Some(exact), true) => !exact.is_empty() && contains_bytes(&disk, exact),
        _ => true,
    };
    let holds =
        whole_present && contains_all(&disk, &rule.present) && contains_none(&disk, &rule.absent);
    let Some(exact) = &rule.exact else {
        if holds {
            return Check {
                outcome: Outcome::Landed,
                detail: None,
                digest: Some(digest),
            };
        }
        return match (&rule.original, disk.is_empty()) {
            (Some(orig), _) if orig.as_bytes() == disk => {
                with_digest(Outcome::NotLanded, still_original(&digest))
            }
            (_, true) => with_digest(Outcome::Empty, "the file is empty".to_owned()),
            _ => with_digest(Outcome::TextAbsent, missing_text(&disk, rule)),
        };
    };
    if normalize_newlines(&disk) == normalize_newlines(exact) {
        return with_digest(
            Outcome::Landed,
            "landed with different line endings (CRLF/LF)".to_owned(),
        );
    }
    if rule.original.is_some_and(|o| o.as_bytes() == disk) {
        return with_digest(Outcome::NotLanded, still_original(&digest));
    }
    if disk.is_empty() {
        return with_digest(
            Outcome::Empty,
            format!("the file is empty; {} bytes were expected", exact.len()),
        );
    }
    if exact.starts_with(&disk) {
        return with_digest(
            Outcome::Truncated,
            format!(
                "the file holds only the first {} of the {} bytes expected",
                disk.len(),
                exact.len()
            ),
        );
    }
    let difference = first_difference(exact, &disk);
    if holds && (rule.whole || !rule.present.is_empty()) {
        return with_digest(
            Outcome::ChangedAfter,
            format!("it landed, then the file was changed by something else (a formatter or another tool?); the written text is still there, but {difference}"),
        );
    }
    let sizes = format!(
        "{} bytes (sha256 {}) on disk, {} bytes (sha256 {}) expected",
        disk.len(),
        short(&digest.sha256),
        exact.len(),
        short(&fsutil::sha256_hex(exact))
    );
    if op == Operation::Write {
        with_digest(
            Outcome::Differs,
            format!("the file holds something else: {sizes}; {difference}"),
        )
    } else {
        with_digest(
            Outcome::TextAbsent,
            format!("{}; {sizes}; {difference}", missing_text(&disk, rule)),
        )
    }
}

pub(super) fn still_original(d: &FileDigest) -> String {
    format!(
        "the file still holds its previous content ({} bytes, sha256 {})",
        d.size,
        short(&d.sha256)
    )
}

pub(super) fn missing_text(disk: &[u8], rule: &ContentRule) -> String {
    if let Some(t) = rule.present.iter().find(|t| !contains(disk, t)) {
        return format!("the new text {} is not in the file", quote(t));
    }
    match rule.absent.iter().find(|t| contains(disk, t)) {
        Some(t) => format!("the replaced text {} is still in the file", quote(t)),
        None => "the file does not hold the expected content".to_owned(),
    }
}

pub(super) fn contains(hay: &[u8], needle: &str) -> bool {
    contains_bytes(hay, needle.as_bytes())
}

/// Substring search: linear (std's two-way search) when both sides are UTF-8, which the
/// text of a file written by an agent almost always is.
pub(super) fn contains_bytes(hay: &[u8], needle: &[u8]) -> bool {
    if needle.is_empty() {
        return true;
    }
    match (std::str::from_utf8(hay), std::str::from_utf8(needle)) {
        (Ok(h), Ok(n)) => h.contains(n),
        _ => hay.windows(needle.len()).any(|w| w == needle),
    }
}

pub(super) fn contains_all(hay: &[u8], texts: &[&str]) -> bool {
    texts.iter().all(|t| contains(hay, t))
}

pub(super) fn contains_none(hay: &[u8], texts: &[&str]) -> bool {
    !texts.iter().any(|t| contains(hay, t))
}

pub(super) fn normalize_newlines(bytes: &[u8]) -> Cow<'_, [u8]> {
    if !bytes.contains(&b'\r') {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut iter = bytes.iter().peekable();
    while let Some(&b) = iter.next() {
        if b == b'\r' && iter.peek() == Some(&&b'\n') {
            continue;
        }
        out.push(b);
    }
    Cow::Owned(out)
}

/// The lines of a text; a final newline ends the last line rather than starting another.
pub(super) fn lines_of(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes
        .strip_suffix(b"\n")
        .unwrap_or(bytes)
        .split(|&b| b == b'\n')
        .take(if bytes.is_empty() { 0 } else { usize::MAX })
}

/// "line N: expected …, found …" for the first line that differs.
pub(super) fn first_difference(expected: &[u8], disk: &[u8]) -> String {
    let mut exp = lines_of(expected);
    let mut got = lines_of(disk);
    let mut n = 1;
    loop {
        match (exp.next(), got.next()) {
            (Some(a), Some(b)) if a == b => n += 1,
            (Some(a), Some(b)) => {
                return format!(
                    "the first difference is at line {n}: expected {}, found {}",
                    quote(&String::from_utf8_lossy(a)),
                    quote(&String::from_utf8_lossy(b))
                )
            }
            (Some(a), None) => {
                return format!(
                    "the file ends before line {n} (expected {})",
                    quote(&String::from_utf8_lossy(a))
                )
            }
            (None, Some(b)) => {
                return format!(
                    "the file has more lines than expected, from line {n}: {}",
                    quote(&String::from_utf8_lossy(b))
                )
            }
            (None, None) => {
                return "the lines are equal but the line endings or the final newline differ"
                    .to_owned()
            }
        }
    }
}
