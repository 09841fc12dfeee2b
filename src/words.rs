//! Words for people: counts with the right noun form, no `(s)`.

/// `n` and the noun that goes with it: `1 write`, `2 writes`. `plural` is the noun's
/// plural form (English plurals are not all `+s`: `1 entry`, `2 entries`).
pub fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "thing", "things"), "1 thing");
        assert_eq!(count(0, "thing", "things"), "0 things");
        assert_eq!(count(2, "entry", "entries"), "2 entries");
    }
}
