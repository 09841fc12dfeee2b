//! Substring search for the readers' word lists: most lookups are a short form in a
//! sentence, where setting up `str::find`'s two-way searcher costs more than the scan.

/// Where `form` first stands in `text`: a byte search from the form's first byte. A match
/// of a whole UTF-8 form starts at a character boundary (its first byte is no
/// continuation byte), so the index can slice `text`.
pub(crate) fn find(text: &str, form: &str) -> Option<usize> {
    let (hay, needle) = (text.as_bytes(), form.as_bytes());
    let Some((&first, rest)) = needle.split_first() else {
        return Some(0);
    };
    let mut from = 0;
    while let Some(i) = hay[from..].iter().position(|&b| b == first) {
        let at = from + i;
        if hay[at + 1..].starts_with(rest) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Where the character at byte `at` of `text` ends: the start of what follows a mark found
/// there (`，` is three bytes).
pub(crate) fn after_char(text: &str, at: usize) -> usize {
    at + text[at..].chars().next().map_or(1, char::len_utf8)
}

/// Every place `form` stands in `text`, not overlapping (as `str::match_indices`).
pub(crate) fn find_all<'t>(text: &'t str, form: &'t str) -> impl Iterator<Item = usize> + 't {
    let mut from = 0;
    std::iter::from_fn(move || {
        if from > text.len() {
            return None;
        }
        let at = from + find(&text[from..], form)?;
        from = at + form.len().max(1);
        Some(at)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_as_str_find_does() {
        for (text, form) in [
            ("hello world", "world"),
            ("aaa", "aa"),
            ("Ünïcödé `a.rs` 作業ツリー", "ツリー"),
            ("abc", "abcd"),
            ("", "a"),
            ("abc", ""),
            ("x→y", "→"),
        ] {
            assert_eq!(find(text, form), text.find(form), "{text:?} {form:?}");
            if !form.is_empty() {
                assert_eq!(
                    find_all(text, form).collect::<Vec<_>>(),
                    text.match_indices(form).map(|(i, _)| i).collect::<Vec<_>>()
                );
            }
        }
    }
}
