//! Tiles as the protocol writes them (`docs/RULES.md`, "Tile notation"), multisets of them, and
//! a small seeded random source for the players' choices (the test needs no crate for it).

use serde_json::Value;

/// Whether `s` is one tile in the protocol's notation: a rank and a suit letter (`5m`, `7z`,
/// `3f`). Every tile the server sends has exactly this form.
pub fn is_tile(s: &str) -> bool {
    let &[rank, suit] = s.as_bytes() else {
        return false;
    };
    let top = match suit {
        b'm' | b'p' | b's' => b'9',
        b'z' => b'7',
        b'f' => b'8',
        _ => return false,
    };
    (b'1'..=top).contains(&rank)
}

/// Whether `s` is two or more tiles run together in the compact notation of the rule pages
/// (`123m44z`). The server never sends that form, so a string like it anywhere in a message is
/// reported: it could name concealed tiles where the scan looks only for single tiles.
pub fn is_tile_run(s: &str) -> bool {
    let mut tiles = 0;
    let mut ranks = 0;
    for c in s.chars() {
        if c.is_ascii_digit() {
            ranks += 1;
        } else if "mpszf".contains(c) && ranks > 0 {
            tiles += ranks;
            ranks = 0;
        } else {
            return false;
        }
    }
    ranks == 0 && tiles >= 2
}

/// The strings of a JSON array (missing or non-string items are left out).
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// `tiles` sorted, so two multisets compare equal exactly when they hold the same tiles.
pub fn sorted(mut tiles: Vec<String>) -> Vec<String> {
    tiles.sort();
    tiles
}

/// Removes one copy of `tile` from `tiles`; false when there was none.
pub fn remove_one(tiles: &mut Vec<String>, tile: &str) -> bool {
    match tiles.iter().position(|t| t == tile) {
        Some(i) => {
            tiles.remove(i);
            true
        }
        None => false,
    }
}

/// How many copies of `tile` are in `tiles`.
pub fn copies(tiles: &[String], tile: &str) -> usize {
    tiles.iter().filter(|t| *t == tile).count()
}

/// The next tile of the same suit (`3s` → `4s`), for the chows a prompt offers; none after a 9
/// or for honours and flowers.
pub fn next_in_suit(tile: &str) -> Option<String> {
    let &[rank, suit] = tile.as_bytes() else {
        return None;
    };
    (matches!(suit, b'm' | b'p' | b's') && (b'1'..b'9').contains(&rank))
        .then(|| format!("{}{}", char::from(rank + 1), char::from(suit)))
}

/// A seeded SplitMix64 stream: the players' choices are random but repeatable for a seed.
pub struct Rng(u64);

impl Rng {
    /// A stream for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` at least 1).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// True with probability `percent` in 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One item of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}
