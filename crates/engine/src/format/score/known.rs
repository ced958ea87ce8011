//! Elements of skipped arrays met before, kept byte for byte: an element that is one of them is
//! JSON without being checked again.
//!
//! Why: the expected fans of the golden file are 97 different objects (a fan and its count)
//! over 14,500 elements, and matching one against a [`Pattern`](super::skip::Pattern) still
//! scanned its names. An element found here costs a hash of its first bytes and one
//! comparison, eight bytes at a time. A kept element is a whole JSON value that ends its own
//! bytes (an object, an array or a string), so a line holding the same bytes at an element's
//! place holds that value there.

use super::skip::past_same;

/// Table slots; the table is emptied when half of them are taken.
const SLOTS: usize = 512;

/// The bytes of an element that name its slot; shorter elements are not kept.
const KEY: usize = 24;

/// Bytes kept at most; the table is emptied beyond.
const MAX_BYTES: usize = 64 * 1024;

/// The elements kept, in an open-addressing table over their first [`KEY`] bytes.
#[derive(Default)]
pub(super) struct Known {
    /// The elements' bytes, one after another.
    bytes: Vec<u8>,
    /// [`SLOTS`] slots once the first element is kept; an empty slot has `len` 0.
    slots: Vec<Slot>,
    /// Slots taken.
    taken: usize,
}

/// Where a kept element's bytes are, and the hash of its first [`KEY`] bytes.
#[derive(Clone, Copy, Default)]
struct Slot {
    hash: u64,
    start: usize,
    len: usize,
}

/// A hash of an element's first [`KEY`] bytes (three words mixed, then multiplied).
fn hash(key: &[u8; KEY]) -> u64 {
    let word = |k: usize| {
        key.get(8 * k..8 * k + 8)
            .and_then(<[u8]>::first_chunk::<8>)
            .map_or(0, |w| u64::from_le_bytes(*w))
    };
    let h = (word(0) ^ word(1).rotate_left(21) ^ word(2).rotate_left(42))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 29)
}

impl Known {
    /// Past the element at `i` if it is one of those kept.
    pub(super) fn past(&self, b: &[u8], i: usize) -> Option<usize> {
        let hash = hash(b.get(i..)?.first_chunk::<KEY>()?);
        let mut at = hash as usize % SLOTS;
        loop {
            let slot = self.slots.get(at)?;
            if slot.len == 0 {
                return None;
            }
            if slot.hash == hash
                && let Some(kept) = self.bytes.get(slot.start..slot.start + slot.len)
                && let Some(end) = past_same(b, i, kept)
            {
                return Some(end);
            }
            at = (at + 1) % SLOTS;
        }
    }

    /// Keeps the element `b[start..end]`, checked to be JSON.
    pub(super) fn keep(&mut self, b: &[u8], start: usize, end: usize) {
        let Some(element) = b.get(start..end) else {
            return;
        };
        let Some(key) = element.first_chunk::<KEY>() else {
            return;
        };
        if !matches!(element.last(), Some(b'}' | b']' | b'"')) {
            return;
        }
        if self.taken >= SLOTS / 2 || self.bytes.len() + element.len() > MAX_BYTES {
            self.bytes.clear();
            self.slots.clear();
            self.taken = 0;
        }
        if self.slots.is_empty() {
            self.slots.resize(SLOTS, Slot::default());
        }
        let hash = hash(key);
        let mut at = hash as usize % SLOTS;
        while self.slots.get(at).is_some_and(|s| s.len > 0) {
            at = (at + 1) % SLOTS;
        }
        if let Some(slot) = self.slots.get_mut(at) {
            *slot = Slot {
                hash,
                start: self.bytes.len(),
                len: element.len(),
            };
            self.bytes.extend_from_slice(element);
            self.taken += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_element_kept_is_found_and_no_other() {
        let line = br#"[{"name_zh": "x", "name_en": "Xy", "points": 1, "count": 1}, {"name_zh": "x", "name_en": "Xy", "points": 1, "count": 2}]"#;
        let first = 1..line.iter().position(|&b| b == b'}').map_or(0, |p| p + 1);
        let second = first.end + 2..line.len() - 1;
        let mut known = Known::default();
        assert_eq!(known.past(line, first.start), None);
        known.keep(line, first.start, first.end);
        assert_eq!(known.past(line, first.start), Some(first.end));
        assert_eq!(known.past(line, second.start), None);
        known.keep(line, second.start, second.end);
        assert_eq!(known.past(line, second.start), Some(second.end));
        assert_eq!(known.past(line, first.start), Some(first.end));
        // Short elements and numbers are not kept.
        known.keep(b"[1234567890123456789012345678]", 1, 29);
        assert_eq!(known.past(b"[1234567890123456789012345678]", 1), None);
    }

    #[test]
    fn the_table_empties_itself_when_half_full() {
        let mut known = Known::default();
        let mut lines = Vec::new();
        for n in 0..2 * SLOTS {
            lines.push(format!("{{\"a\": \"{n:030}\"}}").into_bytes());
        }
        for line in &lines {
            known.keep(line, 0, line.len());
            assert_eq!(known.past(line, 0), Some(line.len()));
        }
        assert!(known.taken <= SLOTS / 2);
        assert_eq!(known.past(&lines[0], 0), None);
    }
}
