//! JSON parse errors in our words: serde_json's message without its own position suffix,
//! and the position kept apart, so every caller can say "<file>:<line>:<column>: …".

/// Where a JSON document went wrong, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl From<&serde_json::Error> for JsonError {
    fn from(e: &serde_json::Error) -> Self {
        let full = e.to_string();
        let message = match full.rfind(" at line ") {
            Some(i) => &full[..i],
            None => &full,
        };
        // JavaScript can emit a lone UTF-16 surrogate escape; serde_json's words for it
        // ("unexpected end of hex escape") do not say what is wrong.
        let message = if message.contains("hex escape") || message.contains("surrogate") {
            format!("{message} (a \\uD800-\\uDFFF escape that is not half of a surrogate pair is not a Unicode character)")
        } else {
            message.to_owned()
        };
        JsonError {
            line: e.line(),
            column: e.column(),
            message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_is_split_from_the_message() {
        let e = serde_json::from_str::<serde_json::Value>("{\n  \"a\": ,\n}").unwrap_err();
        assert_eq!(
            JsonError::from(&e),
            JsonError {
                line: 2,
                column: 8,
                message: "expected value".into()
            }
        );
    }
}
