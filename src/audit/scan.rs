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

/// The first code point of each block of ten decimal digits outside ASCII that messages
/// write counts in: Arabic-Indic, Persian and Urdu, Devanagari, Bengali, Gurmukhi,
/// Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala, Thai, Lao, Tibetan,
/// Myanmar, Khmer, Mongolian, and the full-width digits of CJK text.
const DIGIT_ZEROS: &[u32] = &[
    0x0660, 0x06F0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66, 0x0DE6,
    0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x17E0, 0x1810, 0xFF10,
];

/// The ASCII digit a script's decimal digit stands for.
fn ascii_digit(c: char) -> Option<char> {
    let code = c as u32;
    DIGIT_ZEROS
        .iter()
        .find(|&&zero| (zero..zero + 10).contains(&code))
        .and_then(|zero| char::from_digit(code - zero, 10))
}

/// `text` with every decimal digit of another script written as its ASCII digit
/// ("कुल ९ टेस्ट" as "कुल 9 टेस्ट"); borrowed when there is none.
pub fn ascii_digits(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() || !text.chars().any(|c| ascii_digit(c).is_some()) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(text.chars().map(|c| ascii_digit(c).unwrap_or(c)).collect())
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

    #[test]
    fn digits_of_other_scripts_are_read_as_ascii() {
        assert_eq!(ascii_digits("कुल ९ टेस्ट, ८ पास"), "कुल 9 टेस्ट, 8 पास");
        assert_eq!(ascii_digits("۳ تست از ۱۲"), "3 تست از 12");
        assert_eq!(ascii_digits("٤ نجحت"), "4 نجحت");
        assert_eq!(ascii_digits("１０件中９件"), "10件中9件");
        assert!(matches!(
            ascii_digits("5 passed"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert!(matches!(
            ascii_digits("五件"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
