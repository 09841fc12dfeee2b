//! Everything a user or an agent reads is written for people: no `(s)` plurals, no Rust
//! `(os error N)` suffixes. Checked over every snapshot, which hold what the binary
//! printed (hook answers, command output, reports).

#[test]
fn no_snapshot_shows_a_plural_in_brackets_or_an_os_error_number() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        // The header insta writes (the expression, the source file) is not output.
        let body = text.splitn(3, "---").nth(2).unwrap_or(&text);
        for (i, line) in body.lines().enumerate() {
            if line.contains("(s) ") || line.contains("(s):") || line.contains("(os error ") {
                found.push(format!(
                    "{}: body line {}: {}",
                    path.file_name().unwrap().to_string_lossy(),
                    i + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "words not written for people:\n{}",
        found.join("\n")
    );
}
