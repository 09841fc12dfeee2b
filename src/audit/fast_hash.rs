//! A hasher for the audit's word indexes: tables built once per process from our own word
//! lists and looked up for every word of a message. SipHash's resistance to chosen keys
//! buys nothing there, and costs a tenth of a long report's audit.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate over the key's bytes (FxHash's shape).
#[derive(Default)]
pub struct FastHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    fn add(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        for b in chunks.remainder() {
            self.add(u64::from(*b));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_that_differ_are_told_apart() {
        let words = [
            "a",
            "ab",
            "ba",
            "abcdefgh",
            "abcdefghi",
            "ä",
            "ü",
            "tests",
            "test",
        ];
        let set: FastSet<&str> = words.iter().copied().collect();
        assert_eq!(set.len(), words.len());
        assert!(words.iter().all(|w| set.contains(w)));
        assert!(!set.contains("abcdefg"));
        let map: FastMap<char, usize> = "aäbß".chars().enumerate().map(|(i, c)| (c, i)).collect();
        assert_eq!(map.get(&'ß'), Some(&3));
        assert_eq!(map.get(&'c'), None);
    }
}
