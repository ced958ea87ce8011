//! Count arrays and tile sets: the hot structures of shape analysis.

use std::fmt;
use std::ops::{Index, IndexMut};

use crate::tile::{Suit, Tile, TileParseError, format_tiles, parse_tiles};

/// How many copies of each playing kind a hand holds (`[u8; 34]`). Flowers are never counted
/// here: they leave the hand as soon as they are drawn.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileCounts(pub [u8; Tile::PLAYING_KINDS]);

impl TileCounts {
    /// The empty hand.
    pub const fn new() -> Self {
        TileCounts([0; Tile::PLAYING_KINDS])
    }

    /// Counts the playing tiles of `tiles`; flowers are ignored.
    pub fn from_tiles(tiles: &[Tile]) -> Self {
        let mut c = Self::new();
        for &t in tiles {
            if !t.is_flower() {
                let n = &mut c.0[t.index()];
                *n = n.saturating_add(1);
            }
        }
        c
    }

    /// Parses notation; flowers are rejected by the caller when they matter.
    ///
    /// # Errors
    /// The notation error.
    pub fn parse(s: &str) -> Result<Self, TileParseError> {
        parse_tiles(s).map(|t| Self::from_tiles(&t))
    }

    /// Total number of tiles.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&c| u32::from(c)).sum()
    }

    /// Copies of `tile` (0 for flowers).
    pub fn get(&self, tile: Tile) -> u8 {
        self.0.get(tile.index()).copied().unwrap_or(0)
    }

    /// Adds one copy of a playing tile. Flowers are ignored. Counts saturate at 255: input is
    /// checked for more than four copies before it gets here, and a saturated count still
    /// fails that check, never wraps.
    pub fn add(&mut self, tile: Tile) {
        if let Some(c) = self.0.get_mut(tile.index()) {
            *c = c.saturating_add(1);
        }
    }

    /// Removes one copy; returns false (and changes nothing) when there is none.
    pub fn remove(&mut self, tile: Tile) -> bool {
        match self.0.get_mut(tile.index()) {
            Some(c) if *c > 0 => {
                *c -= 1;
                true
            }
            _ => false,
        }
    }

    /// The nine counts of one numbered suit, or the seven honor counts (padded with zeros).
    pub fn suit_slice(&self, suit: Suit) -> &[u8] {
        match suit {
            Suit::Man => &self.0[0..9],
            Suit::Pin => &self.0[9..18],
            Suit::Sou => &self.0[18..27],
            Suit::Honor => &self.0[27..34],
            Suit::Flower => &[],
        }
    }

    /// Number of tiles of one suit.
    pub fn suit_total(&self, suit: Suit) -> u32 {
        self.suit_slice(suit).iter().map(|&c| u32::from(c)).sum()
    }

    /// The suits present.
    pub fn suits(&self) -> SuitSet {
        let mut s = SuitSet::default();
        for suit in [Suit::Man, Suit::Pin, Suit::Sou, Suit::Honor] {
            if self.suit_total(suit) > 0 {
                s.insert(suit);
            }
        }
        s
    }

    /// The tiles held, sorted, each copy listed.
    pub fn to_tiles(&self) -> Vec<Tile> {
        Tile::playing()
            .flat_map(|t| std::iter::repeat_n(t, usize::from(self.get(t))))
            .collect()
    }

    /// The kinds held at least once.
    pub fn kinds(&self) -> TileSet {
        TileSet(self.marked(nonzero_bytes))
    }

    /// The kinds held exactly `n` times.
    pub fn kinds_held(&self, n: u8) -> TileSet {
        let n = u64::from_le_bytes([n; 8]);
        TileSet(self.marked(|word| !nonzero_bytes(word ^ n) & HIGH_BITS))
    }

    /// A bit per kind whose count `mark` marks: the counts are read eight to a word, and `mark`
    /// sets the high bit of each byte it marks. Scoring asks this of every hand, so it costs a
    /// handful of word operations instead of a branch per kind.
    fn marked(&self, mark: impl Fn(u64) -> u64) -> u64 {
        let mut out = 0u64;
        for (k, chunk) in self.0.chunks(8).enumerate() {
            let mut bytes = [0u8; 8];
            bytes[..chunk.len()].copy_from_slice(chunk);
            // The high bit of byte j moves to bit j (a multiplication that adds no carries).
            let marks = (mark(u64::from_le_bytes(bytes)) >> 7).wrapping_mul(0x0102_0408_1020_4080);
            out |= (marks >> 56) << (8 * k);
        }
        // The padding of the last word is not a kind.
        out & ((1u64 << Tile::PLAYING_KINDS) - 1)
    }
}

/// The low seven bits of every byte of a word.
const LOW_BITS: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The high bit of every byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The high bit of every non-zero byte of `word`, and nothing else (no carry crosses a byte).
const fn nonzero_bytes(word: u64) -> u64 {
    (((word & LOW_BITS) + LOW_BITS) | word) & HIGH_BITS
}

impl Default for TileCounts {
    fn default() -> Self {
        Self::new()
    }
}

impl Index<Tile> for TileCounts {
    type Output = u8;
    fn index(&self, t: Tile) -> &u8 {
        &self.0[t.index().min(Tile::PLAYING_KINDS - 1)]
    }
}

impl IndexMut<Tile> for TileCounts {
    fn index_mut(&mut self, t: Tile) -> &mut u8 {
        &mut self.0[t.index().min(Tile::PLAYING_KINDS - 1)]
    }
}

impl fmt::Display for TileCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_tiles(&self.to_tiles()))
    }
}

impl fmt::Debug for TileCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TileCounts({self})")
    }
}

/// A set of tile kinds as a 64-bit mask (waits, discard restrictions).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TileSet(u64);

impl TileSet {
    /// No kinds.
    pub const EMPTY: TileSet = TileSet(0);

    /// Adds a kind.
    pub fn insert(&mut self, t: Tile) {
        self.0 |= 1 << t.index();
    }

    /// Whether the kind is in the set.
    pub const fn contains(self, t: Tile) -> bool {
        self.0 & (1 << t.index()) != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Kinds in either set.
    pub const fn union(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }

    /// Number of kinds.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The raw mask (bit i = kind index i).
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The kinds, in index order.
    pub fn iter(self) -> impl Iterator<Item = Tile> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Tile::from_index(i)
        })
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> Self {
        let mut s = TileSet::EMPTY;
        for t in iter {
            s.insert(t);
        }
        s
    }
}

impl fmt::Debug for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tiles: Vec<Tile> = self.iter().collect();
        write!(f, "{{{}}}", format_tiles(&tiles))
    }
}

/// A set of suits (缺一门 checks, 清一色 / 混一色).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct SuitSet(u8);

impl SuitSet {
    /// Adds a suit.
    pub fn insert(&mut self, s: Suit) {
        self.0 |= 1 << (s as u8);
    }
    /// Whether the suit is present.
    pub const fn contains(self, s: Suit) -> bool {
        self.0 & (1 << (s as u8)) != 0
    }
    /// Union.
    pub const fn union(self, other: SuitSet) -> SuitSet {
        SuitSet(self.0 | other.0)
    }
    /// Number of numbered suits present (万 筒 条).
    pub const fn numbered_count(self) -> u32 {
        (self.0 & 0b111).count_ones()
    }
    /// Whether honors are present.
    pub const fn has_honors(self) -> bool {
        self.contains(Suit::Honor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_read_a_word_at_a_time_agree_with_each_count() {
        // Counts of every size a byte holds, in every position, the padding word included.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..4000 {
            let mut c = TileCounts::new();
            for n in c.0.iter_mut() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *n = match round % 3 {
                    0 => (state % 5) as u8,
                    1 => (state % 256) as u8,
                    _ => [0, 1, 4, 127, 128, 255][(state % 6) as usize],
                };
            }
            let naive = |keep: &dyn Fn(u8) -> bool| {
                let mut set = TileSet::EMPTY;
                for t in Tile::playing() {
                    if keep(c.get(t)) {
                        set.insert(t);
                    }
                }
                set
            };
            assert_eq!(c.kinds(), naive(&|n| n > 0), "{:?}", c.0);
            for k in [0, 1, 2, 4, 128, 255] {
                assert_eq!(c.kinds_held(k), naive(&|n| n == k), "{k} in {:?}", c.0);
            }
        }
    }
}
