//! Skipping the JSON values of a score line that the scorer does not read (the expected `fans`
//! and `total` of a golden line), checking on the way that they are JSON: a line whose skipped
//! value is not is left to serde_json, which refuses it.
//!
//! The skipper accepts a subset of JSON: strings without escapes or control characters, values
//! nested at most [`MAX_DEPTH`] deep. Anything else gives `None` (the line is then read whole).
//! Functions take the line's bytes and an index and give the index past what they read.
//!
//! An array's elements are mostly alike (every expected fan is `{"name_zh": …, "name_en": …,
//! "points": …, "count": …}`), so after its first element is checked in full, the next ones
//! are matched against its [`Pattern`]: the same bytes, but for the text of string values and
//! the numbers. An element that does not match is checked in full and becomes the model. Many
//! are even the same bytes as one met before ([`Known`]).

use super::known::Known;

/// Skipped values nested deeper than this are left to serde_json (whose own limit is 128).
const MAX_DEPTH: u32 = 32;

/// Past JSON whitespace from `i`.
pub(super) fn ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// Where the first `"`, `\` or control character of `bytes` is, the text before it checked to
/// be UTF-8 (`None` if it is not, or if there is no such character). Eight bytes at a time while
/// they are ASCII: the expected fans are mostly text, and a byte at a time was most of their
/// cost. Always inlined, since a call per string cost more than most scans; the characters
/// outside ASCII are left to [`past_chars`]. Checking them here spares `mahjong score` checking
/// every line's UTF-8 first.
#[inline(always)]
pub(super) fn string_end(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // A byte of `x` is zero, or below `n`: the lowest flagged byte is always a true one.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let mut at = 0;
    loop {
        let stop = match bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
            Some(chunk) => {
                let x = u64::from_le_bytes(*chunk);
                let found = below(x ^ (ONES * u64::from(b'"')), 1)
                    | below(x ^ (ONES * u64::from(b'\\')), 1)
                    | below(x, 0x20)
                    | (x & HIGH);
                if found == 0 {
                    at += 8;
                    continue;
                }
                at + (found.trailing_zeros() / 8) as usize
            }
            None => {
                at + bytes
                    .get(at..)?
                    .iter()
                    .position(|&b| !(0x20..0x80).contains(&b) || b == b'"' || b == b'\\')?
            }
        };
        if *bytes.get(stop)? < 0x80 {
            return Some(stop);
        }
        at = past_chars(bytes, stop)?;
    }
}

/// Past the characters outside ASCII from `i` on (a Chinese name is all of them), checked to be
/// well-formed UTF-8: the byte sequences of the Unicode Standard's table 3-7.
#[inline(never)]
fn past_chars(b: &[u8], mut i: usize) -> Option<usize> {
    let follows = |c: u8| c & 0xC0 == 0x80;
    while let Some(&first) = b.get(i)
        && first >= 0x80
    {
        let second = *b.get(i + 1)?;
        i += match first {
            0xC2..=0xDF if follows(second) => 2,
            0xE0..=0xEF => {
                let second_ok = match first {
                    0xE0 => (0xA0..=0xBF).contains(&second),
                    0xED => (0x80..=0x9F).contains(&second),
                    _ => follows(second),
                };
                if !second_ok || !follows(*b.get(i + 2)?) {
                    return None;
                }
                3
            }
            0xF0..=0xF4 => {
                let second_ok = match first {
                    0xF0 => (0x90..=0xBF).contains(&second),
                    0xF4 => (0x80..=0x8F).contains(&second),
                    _ => follows(second),
                };
                if !second_ok || !follows(*b.get(i + 2)?) || !follows(*b.get(i + 3)?) {
                    return None;
                }
                4
            }
            _ => return None,
        };
    }
    Some(i)
}

/// Past the string whose opening quote is at `i`, if it has no escapes or control characters.
pub(super) fn past_string(b: &[u8], i: usize) -> Option<usize> {
    let start = i + 1;
    let end = start + string_end(b.get(start..)?)?;
    (*b.get(end)? == b'"').then_some(end + 1)
}

/// What is kept of a skipped field's array elements from line to line.
#[derive(Default)]
pub(super) struct Elements {
    /// The elements met before ([`Known`]).
    known: Known,
    /// The pattern of the last element checked in full.
    pattern: Pattern,
}

/// Past the value at `i`, checked to be JSON. An element of an array is looked for among those
/// met before, then matched against the pattern of the last one checked in full, and only then
/// checked in full: kept from line to line, the expected fans of a golden line are mostly
/// found.
pub(super) fn past_skipped(b: &[u8], i: usize, kept: &mut Elements) -> Option<usize> {
    if *b.get(i)? != b'[' {
        return past_value(b, i, None);
    }
    let mut i = ws(b, i + 1);
    if *b.get(i)? == b']' {
        return Some(i + 1);
    }
    loop {
        i = match kept.known.past(b, i) {
            Some(end) => end,
            None => {
                let end = match kept.pattern.past(b, i) {
                    Some(end) => end,
                    None => kept.pattern.learn(b, i)?,
                };
                kept.known.keep(b, i, end);
                end
            }
        };
        i = ws(b, i);
        match *b.get(i)? {
            b',' => i = ws(b, i + 1),
            b']' => return Some(i + 1),
            _ => return None,
        }
    }
}

/// Past the value starting at `i`, checked to be JSON; its pattern taken down by `taking` if
/// given. One loop rather than a recursion: `open` holds a bit for each container the cursor is
/// in (set for an object), innermost lowest.
fn past_value(b: &[u8], mut i: usize, mut taking: Option<&mut Taking<'_>>) -> Option<usize> {
    let mut open: u64 = 0;
    let mut depth = 0;
    loop {
        // A value starts here.
        match *b.get(i)? {
            b'"' => {
                let end = past_string(b, i)?;
                if let Some(t) = taking.as_mut() {
                    t.open(b, Part::Text, i + 1, end - 1);
                }
                i = end;
            }
            c @ (b'{' | b'[') => {
                let object = c == b'{';
                i = ws(b, i + 1);
                if *b.get(i)? != closing(object) {
                    if depth == MAX_DEPTH {
                        return None;
                    }
                    depth += 1;
                    open = open << 1 | u64::from(object);
                    if object {
                        i = past_key(b, i)?;
                    }
                    i = ws(b, i);
                    continue;
                }
                i += 1;
            }
            b't' => i = past_word(b, i, b"true")?,
            b'f' => i = past_word(b, i, b"false")?,
            b'n' => i = past_word(b, i, b"null")?,
            b'-' | b'0'..=b'9' => {
                let end = past_number(b, i)?;
                if let Some(t) = taking.as_mut() {
                    t.open(b, Part::Number, i, end);
                }
                i = end;
            }
            _ => return None,
        }
        // A value ended: close containers until one goes on after a comma.
        loop {
            if depth == 0 {
                return Some(i);
            }
            i = ws(b, i);
            let c = *b.get(i)?;
            i += 1;
            let object = open & 1 == 1;
            if c == b',' {
                if object {
                    i = past_key(b, i)?;
                }
                i = ws(b, i);
                break;
            }
            if c != closing(object) {
                return None;
            }
            depth -= 1;
            open >>= 1;
        }
    }
}

/// The byte that closes an object, or an array.
fn closing(object: bool) -> u8 {
    if object { b'}' } else { b']' }
}

/// Past an object's key and its colon, from `i` (or whitespace there).
fn past_key(b: &[u8], i: usize) -> Option<usize> {
    let i = ws(b, i);
    if *b.get(i)? != b'"' {
        return None;
    }
    let i = ws(b, past_string(b, i)?);
    (*b.get(i)? == b':').then_some(i + 1)
}

/// Past `word` (`true`, `false`, `null`) at `i`.
pub(super) fn past_word(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    b.get(i..)?.starts_with(word).then_some(i + word.len())
}

/// Past a number of JSON's grammar at `i`:
/// `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)? ([eE] [+-]? [0-9]+)?
fn past_number(b: &[u8], mut i: usize) -> Option<usize> {
    // Most numbers here are a digit or two: a fan's points and count.
    if let Some(b'1'..=b'9') = b.get(i) {
        match b.get(i + 1) {
            Some(b'0'..=b'9' | b'.' | b'e' | b'E') => {}
            _ => return Some(i + 1),
        }
    }
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    i = match *b.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => past_digits(b, i)?,
        _ => return None,
    };
    if b.get(i) == Some(&b'.') {
        i = past_digits(b, i + 1)?;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        i = past_digits(b, i)?;
    }
    Some(i)
}

/// Past one digit or more at `i`.
fn past_digits(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    while let Some(b'0'..=b'9') = b.get(i) {
        i += 1;
    }
    (i > start).then_some(i)
}

/// A value checked in full, as a model for the next ones: its bytes in turn, with the text of
/// its string values (not of its keys) and its numbers left open. A value whose bytes match it,
/// each open string holding text without escapes or control characters and each open number a
/// number, is JSON like it.
#[derive(Default)]
struct Pattern {
    /// The fixed bytes, copied from the model.
    bytes: Vec<u8>,
    /// The parts in turn.
    parts: Vec<Part>,
    /// Whether there is a model (none yet, or the last one failed or was too long).
    ready: bool,
}

/// A part of a [`Pattern`].
#[derive(Clone, Copy)]
enum Part {
    /// The next this many fixed bytes, exactly.
    Bytes(usize),
    /// The text of a string value, up to its closing quote (the next part's first byte).
    Text,
    /// A number.
    Number,
}

/// Open parts beyond this many make a value no model: matching it would cost more than it saves.
const MAX_PARTS: usize = 32;

/// A [`Pattern`] being taken down from the value being checked.
struct Taking<'p> {
    pattern: &'p mut Pattern,
    /// Where the fixed bytes since the last open part start.
    fixed: usize,
    /// Whether the value has more open parts than a model may.
    full: bool,
}

impl Taking<'_> {
    /// An open part at `b[start..end]`, after the fixed bytes before it.
    fn open(&mut self, b: &[u8], part: Part, start: usize, end: usize) {
        let p = &mut *self.pattern;
        match b.get(self.fixed..start) {
            Some(fixed) if !self.full && p.parts.len() < MAX_PARTS => {
                p.bytes.extend_from_slice(fixed);
                p.parts.extend([Part::Bytes(fixed.len()), part]);
            }
            _ => self.full = true,
        }
        self.fixed = end;
    }
}

impl Pattern {
    /// Checks the value at `i` in full and makes it the model; past it.
    fn learn(&mut self, b: &[u8], i: usize) -> Option<usize> {
        self.bytes.clear();
        self.parts.clear();
        self.ready = false;
        let mut taking = Taking {
            pattern: self,
            fixed: i,
            full: false,
        };
        let end = past_value(b, i, Some(&mut taking))?;
        let (fixed, full) = (taking.fixed, taking.full);
        let last = b.get(fixed..end)?;
        self.bytes.extend_from_slice(last);
        self.parts.push(Part::Bytes(last.len()));
        self.ready = !full;
        Some(end)
    }

    /// Past the value at `i` if it matches the model.
    fn past(&self, b: &[u8], mut i: usize) -> Option<usize> {
        if !self.ready {
            return None;
        }
        let mut fixed = 0;
        for &part in &self.parts {
            match part {
                Part::Bytes(n) => {
                    i = past_same(b, i, self.bytes.get(fixed..fixed + n)?)?;
                    fixed += n;
                }
                Part::Text => i += string_end(b.get(i..)?)?,
                Part::Number => i = past_number(b, i)?,
            }
        }
        Some(i)
    }
}

/// Past the bytes at `i` if they are `want`. Most are a key and its spacing (8 to 16 bytes),
/// compared as two words that may overlap; a shorter run a byte at a time, and a longer one (a
/// whole known element) by the C library's comparison: a call costs more than a short
/// comparison, less than a long one.
pub(super) fn past_same(b: &[u8], i: usize, want: &[u8]) -> Option<usize> {
    let n = want.len();
    let got = b.get(i..i + n)?;
    let word = |s: &[u8], at: usize| s.get(at..).and_then(<[u8]>::first_chunk::<8>).copied();
    let same = match n {
        0..8 => want.iter().zip(got).all(|(x, y)| x == y),
        8..=16 => word(want, 0) == word(got, 0) && word(want, n - 8) == word(got, n - 8),
        _ => want == got,
    };
    same.then_some(i + n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_string_end_is_the_first_quote_backslash_or_control_character() {
        let cases: [(&[u8], Option<usize>); 12] = [
            (b"", None),
            (b"abc", None),
            (b"abc\"", Some(3)),
            (b"abcdefghijklmno\"p\"", Some(15)),
            (b"abcdefgh\\\"", Some(8)),
            (b"ab\x01cdefgh\"", Some(2)),
            (b"\x7f\xe4\xb8\x89\x1f\"", Some(4)),
            ("三色三步高\"".as_bytes(), Some(15)),
            ("Mixed 三色 Chows and more\"".as_bytes(), Some(27)),
            (b"abcdefgh abcdefgh", None),
            (b"abcdefgh\xff\"", None),
            (b"\xe4\xb8\"", None),
        ];
        for (bytes, want) in cases {
            assert_eq!(string_end(bytes), want, "{bytes:?}");
        }
    }

    /// The end of text is found where the standard library finds it: the first quote,
    /// backslash or control character, if the bytes before it are UTF-8. Every two-byte
    /// start, with third bytes around the limits of the encoding.
    #[test]
    fn text_ends_where_the_standard_library_says() {
        let reference = |bytes: &[u8]| {
            let valid = std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), str::len);
            bytes[..valid]
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        };
        for a in 0x80..=0xFFu8 {
            for b in 0..=0xFFu8 {
                for c in [0x22, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0] {
                    for bytes in [
                        vec![a, b, b'"'],
                        vec![a, b, c, b'"'],
                        vec![a, b, c, 0x80, b'"'],
                        vec![b'x', a, b, c, 0xBF, b'x', b'x', b'x', b'x', b'"'],
                        [&[b'y'; 9][..], &[a, b, c, 0x80, 0x80, b'"']].concat(),
                    ] {
                        assert_eq!(string_end(&bytes), reference(&bytes), "{bytes:x?}");
                    }
                }
            }
        }
    }

    /// Whether the whole of `text` is one value the skipper takes, with no model and with the
    /// model the value before left.
    fn skips(text: &str, model: &mut Elements) -> bool {
        let alone = past_skipped(text.as_bytes(), 0, &mut Elements::default());
        let after = past_skipped(text.as_bytes(), 0, model);
        assert_eq!(alone, after, "{text}");
        alone == Some(text.len())
    }

    #[test]
    fn values_are_skipped_when_they_are_json() {
        let mut model = Elements::default();
        for json in [
            "1",
            "-0.5e+3",
            "\"x\"",
            "[]",
            "{}",
            "[1, 2, [3, {\"a\": [true, false, null]}]]",
            r#"[{"a": 1, "b": "x"}, {"a": 22, "b": "yy"}, {"a": -3.5, "b": ""}]"#,
            r#"[{"a": 1}, {"a": 1, "b": 2}, {"b": 2}, 3, "x", [4]]"#,
            r#"[{"a": "x"}, {"a": 5}, {"a": "y"}]"#,
            r#"[{"a": 1, "b": "x"}, {"a": 22, "b": "yy"}, {"a": -3.5, "b": ""}]"#,
        ] {
            assert!(skips(json, &mut model), "{json}");
        }
        for not_json in [
            "01",
            "1.",
            "-",
            "[1,]",
            "[1 2]",
            "{\"a\" 1}",
            "{\"a\": 1,}",
            "{1: 2}",
            "[}",
            "{]",
            "tru",
            "[{\"a\": 1}, {\"a\": 1x}]",
            "[{\"a\": \"x\"}, {\"a\": \"y}]",
            "[{\"a\": \"x\"}, {\"a\": \"\\n\"}]",
            "[{\"a\": 1}, {\"a\": 01}]",
            "[{\"a\": 1}, {\"a\": 1, }]",
            r#"[{"a": 1, "b": "x"}, {"a": 22, "b": "y\"}]"#,
            r#"[{"a": 1, "b": "x"}, {"a": 2, "b": "x"}, {"a": 22, "b": "x"}"#,
        ] {
            assert!(!skips(not_json, &mut model), "{not_json}");
        }
    }
}
