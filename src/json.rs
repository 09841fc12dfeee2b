//! JSON parse errors in our words: serde_json's message without its own position suffix,
//! and the position kept apart, so every caller can say "<file>:<line>:<column>: …".

pub mod stream;

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
        JsonError {
            line: e.line(),
            column: e.column(),
            message: in_our_words(message),
        }
    }
}

/// serde_json's message for an error, said so a reader can act on it.
pub(crate) fn in_our_words(message: &str) -> String {
    // JavaScript can emit a lone UTF-16 surrogate escape; serde_json's words for it
    // ("unexpected end of hex escape") do not say what is wrong.
    if message.contains("hex escape") || message.contains("surrogate") {
        format!("{message} (a \\uD800-\\uDFFF escape that is not half of a surrogate pair is not a Unicode character)")
    } else {
        message.to_owned()
    }
}

/// Whether a JSON text names a key twice in one object. serde_json keeps the last value
/// silently (as JavaScript's JSON.parse does); a tool that rewrites the file would then
/// drop the first one's text. The error carries the duplicate's line and column.
pub fn find_duplicate_key(text: &str) -> Result<(), serde_json::Error> {
    serde_json::from_str::<NoDuplicates>(text).map(|_| ())
}

struct NoDuplicates;

impl<'de> serde::Deserialize<'de> for NoDuplicates {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NoDuplicatesVisitor)
    }
}

struct NoDuplicatesVisitor;

impl<'de> serde::de::Visitor<'de> for NoDuplicatesVisitor {
    type Value = NoDuplicates;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_i64<E>(self, _: i64) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_u64<E>(self, _: u64) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_f64<E>(self, _: f64) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_str<E>(self, _: &str) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_unit<E>(self) -> Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<NoDuplicates, A::Error> {
        while seq.next_element::<NoDuplicates>()?.is_some() {}
        Ok(NoDuplicates)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<NoDuplicates, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!(
                    "duplicate key `{key}` (Claude Code would use only the last one)"
                )));
            }
            map.next_value::<NoDuplicates>()?;
        }
        Ok(NoDuplicates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duplicate_key_is_found_with_its_position_at_any_depth() {
        assert!(find_duplicate_key(r#"{"a": {"b": 1, "c": [1, {"d": 2}]}, "b": 1}"#).is_ok());
        let e = find_duplicate_key("{\n  \"hooks\": {},\n  \"x\": [{\"m\": 1, \"m\": 2}]\n}")
            .unwrap_err();
        let e = JsonError::from(&e);
        assert_eq!(
            (e.line, e.message.as_str()),
            (
                3,
                "duplicate key `m` (Claude Code would use only the last one)"
            )
        );
    }

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
