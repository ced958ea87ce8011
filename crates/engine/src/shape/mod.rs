//! Shape analysis: is a hand complete, what does it wait on, how far is it from ready.
//!
//! The kernel every rule family, bot and 查叫 check calls. It looks at concealed tiles only:
//! declared melds are already sets, so callers pass how many there are and the kernel asks the
//! concealed part for the remaining `4 - melds` sets and a pair. Wild tiles (惠牌, 财神) are
//! taken out of the counts by the caller and passed as a number.
//!
//! Forms (winning shapes) are chosen per rule family with [`Forms`]:
//! - standard: four sets and a pair (基本和型),
//! - seven pairs (七对); four of a kind counts as two pairs (龙七对 / 豪华七对),
//! - thirteen orphans (十三幺),
//! - knitted: lesser honors and knitted tiles (全不靠, with its seven-honor form 七星不靠) and a
//!   knitted straight plus one set and a pair (组合龙), as Guobiao has them.
//!
//! Standard-form queries are table lookups (the `table` module); everything is allocation-free. No query
//! panics: counts above four (which no real hand holds) give unspecified but safe answers.

mod arrange;
mod decompose;
mod special;

pub(crate) use special::KNITS;
pub(crate) mod table;

pub use arrange::{Arrangement, arrangements, decompositions_with_wilds};
pub use decompose::{Decomposition, Set, decompositions};

use crate::tile::Tile;
use crate::tiles::{TileCounts, TileSet};
use table::{FAR, POW5, Packed, UNREACHABLE, combine, finish, tables};

/// A set of winning shapes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Forms(u8);

impl Forms {
    /// Four sets and a pair.
    pub const STANDARD: Forms = Forms(1);
    /// Seven pairs (four of a kind counts as two).
    pub const SEVEN_PAIRS: Forms = Forms(2);
    /// Thirteen orphans.
    pub const THIRTEEN_ORPHANS: Forms = Forms(4);
    /// 全不靠 / 七星不靠 and 组合龙.
    pub const KNITTED: Forms = Forms(8);

    /// Union of two sets of forms.
    pub const fn with(self, other: Forms) -> Forms {
        Forms(self.0 | other.0)
    }
    /// Whether every form of `other` is included.
    pub const fn contains(self, other: Forms) -> bool {
        self.0 & other.0 == other.0
    }
}

/// A table entry; a key outside the table (a count above four, which no real hand has) reads as
/// "far from everything" instead of panicking.
#[inline(always)]
fn lookup(table: &[Packed], key: u32) -> Packed {
    table.get(key as usize).copied().unwrap_or(UNREACHABLE)
}

/// Eight counts from `at`, one per byte (the first in the lowest), read as one word.
#[inline(always)]
fn eight(c: &TileCounts, at: usize) -> u64 {
    let mut bytes = [0u8; 8];
    if let Some(src) = c.0.get(at..at + 8) {
        bytes.copy_from_slice(src);
    }
    u64::from_le_bytes(bytes)
}

/// The base-5 number of eight digits held one per byte (the lowest digit in the lowest byte):
/// neighbouring digits are merged pairwise, then the pairs, then the halves, so three
/// multiply-adds on the whole word replace eight one at a time. Digits up to 255 cannot
/// overflow (the result stays below 2^32).
#[inline(always)]
fn base5(x: u64) -> u32 {
    const BYTES: u64 = 0x00ff_00ff_00ff_00ff;
    const HALVES: u64 = 0x0000_ffff_0000_ffff;
    let pairs = (x & BYTES) + ((x >> 8) & BYTES) * 5;
    let quads = (pairs & HALVES) + ((pairs >> 16) & HALVES) * 25;
    ((quads & 0xffff_ffff) + (quads >> 32) * 625) as u32
}

/// Per-suit keys of a hand: the base-5 pattern number of each numbered suit and the honors.
#[derive(Clone, Copy, Debug)]
struct Keys {
    suit: [u32; 3],
    honor: u32,
}

impl Keys {
    #[inline(always)]
    fn of(c: &TileCounts) -> Keys {
        let suit =
            [0, 9, 18].map(|base| base5(eight(c, base)) + u32::from(c.0[base + 8]) * POW5[8]);
        // The honors are the last seven counts: the word of the last eight, less its first.
        let honor = base5(eight(c, 26) >> 8);
        Keys { suit, honor }
    }

    #[inline(always)]
    fn distances(&self) -> [Packed; 4] {
        let t = tables();
        [
            lookup(&t.suit, self.suit[0]),
            lookup(&t.suit, self.suit[1]),
            lookup(&t.suit, self.suit[2]),
            lookup(&t.honor, self.honor),
        ]
    }
}

/// Fewest tiles to add to the concealed `counts` so that they hold `sets` sets and a pair: the
/// three suits combined word-wide, then the honors (see `table`).
#[inline]
fn standard_distance(c: &TileCounts, sets: u8) -> u8 {
    let [a, b, s, z] = Keys::of(c).distances();
    finish(combine(combine(a, b), s), z, usize::from(sets))
}

/// Fewest tiles to add so that the hand holds a complete shape of one of `forms`.
fn distance(c: &TileCounts, melds: u8, forms: Forms) -> u8 {
    let mut best = FAR;
    if forms.contains(Forms::STANDARD) && melds <= 4 {
        best = best.min(standard_distance(c, 4 - melds));
        // Every form needs 14 - 3·melds concealed tiles, so none is closer than the tiles still
        // missing: a ready hand (and a complete one) needs no other form.
        if best <= 1 {
            let needed = 14u32.saturating_sub(3 * u32::from(melds));
            if u32::from(best) + c.total() <= needed {
                return best;
            }
        }
    }
    if melds == 0 {
        if forms.contains(Forms::SEVEN_PAIRS) {
            best = best.min(special::seven_pairs_distance(c));
        }
        if forms.contains(Forms::THIRTEEN_ORPHANS) {
            best = best.min(special::thirteen_orphans_distance(c));
        }
    }
    if melds <= 1 && forms.contains(Forms::KNITTED) {
        best = best.min(special::knitted_distance(c, melds));
    }
    best
}

/// Builds the shape tables now instead of at the first win check or shanten: about 18 MB,
/// built once per process. A server calls it at start so that its first hand does not wait
/// for them and their memory is the process's own, not counted against its first tables.
pub fn prepare() {
    let _ = table::tables();
}

/// Whether concealed `counts` (3k+2 tiles, `melds` = 4 − k declared melds) form a complete hand.
///
/// The standard form uses the per-suit exact-split table: one lookup per suit.
#[inline]
pub fn is_complete(c: &TileCounts, melds: u8, forms: Forms) -> bool {
    if forms.contains(Forms::STANDARD) && is_standard_complete(c) {
        return true;
    }
    if forms == Forms::STANDARD {
        return false;
    }
    (melds == 0 && forms.contains(Forms::SEVEN_PAIRS) && special::seven_pairs_distance(c) == 0)
        || (melds == 0
            && forms.contains(Forms::THIRTEEN_ORPHANS)
            && special::thirteen_orphans_distance(c) == 0)
        || (melds <= 1
            && forms.contains(Forms::KNITTED)
            && special::knitted_distance(c, melds) == 0)
}

/// The standard form: every numbered suit splits exactly, honors are pungs and at most one pair,
/// and exactly one pair overall.
#[inline]
fn is_standard_complete(c: &TileCounts) -> bool {
    let t = tables();
    let mut pairs = 0;
    for s in 0..3 {
        let base = 9 * s;
        let mut k = 0u32;
        let mut sum = 0u32;
        for r in (0..9).rev() {
            let n = u32::from(c.0[base + r]);
            k = k * 5 + n;
            sum += n;
        }
        match sum % 3 {
            0 => {}
            2 => pairs += 1,
            _ => return false,
        }
        if sum > 0 && !t.suit_complete.get(k as usize).copied().unwrap_or(false) {
            return false;
        }
    }
    for &n in &c.0[27..34] {
        match n {
            0 | 3 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    pairs == 1
}

/// Whether non-wild `counts` plus `wilds` wild tiles form a complete hand (wilds stand for
/// any tile that could still exist, in concealed sets and the pair: never a fifth copy).
pub fn is_complete_with_wilds(c: &TileCounts, wilds: u8, melds: u8, forms: Forms) -> bool {
    if wilds == 0 {
        return is_complete(c, melds, forms);
    }
    if distance(c, melds, forms) > wilds {
        return false;
    }
    // The tables may accept a target that needs a fifth copy of a kind; the readings decide.
    let any = Tile::from_index(0).unwrap_or_else(|| unreachable!("kind 0 exists"));
    let wild = Tile::playing().find(|&t| c.get(t) == 0).unwrap_or(any);
    !arrangements(c, wilds, Some(wild), melds, forms).is_empty()
}

/// Shanten (向听): how many tile exchanges from ready. −1 is complete, 0 is ready (听牌).
/// Counts hold 3k+1 or 3k+2 concealed tiles with `melds` = 4 − k declared melds.
#[inline]
pub fn shanten(c: &TileCounts, melds: u8, forms: Forms) -> i8 {
    distance(c, melds, forms) as i8 - 1
}

/// Shanten with wild tiles: each wild fills one missing tile.
pub fn shanten_with_wilds(c: &TileCounts, wilds: u8, melds: u8, forms: Forms) -> i8 {
    (distance(c, melds, forms).saturating_sub(wilds)) as i8 - 1
}

/// The tile kinds that complete a 3k+1-tile concealed hand (its waits, 听的牌).
///
/// A kind the hand already holds four of is never a wait: no fifth copy exists. Standard-form
/// waits update one suit's key per candidate instead of re-checking the whole hand.
pub fn waits(c: &TileCounts, melds: u8, forms: Forms) -> TileSet {
    let mut out = if forms.contains(Forms::STANDARD) {
        standard_waits(c)
    } else {
        TileSet::EMPTY
    };
    if melds == 0 && forms.contains(Forms::SEVEN_PAIRS) {
        out = out.union(special::seven_pairs_waits(c));
    }
    if melds == 0 && forms.contains(Forms::THIRTEEN_ORPHANS) {
        out = out.union(special::thirteen_orphans_waits(c));
    }
    // One tile lowers the knitted distance by one at most: beyond one, no candidate can win.
    if melds <= 1 && forms.contains(Forms::KNITTED) && special::knitted_within(c, melds, 1) {
        let mut h = *c;
        for t in Tile::playing() {
            if out.contains(t) || h.get(t) >= 4 {
                continue;
            }
            h.add(t);
            if special::knitted_within(&h, melds, 0) {
                out.insert(t);
            }
            h.remove(t);
        }
    }
    out
}

/// Waits with wild tiles (slower: a distance query per candidate).
///
/// As in [`waits`], a kind the hand already holds four of is never a wait: no fifth copy
/// exists, and the distances of a count above four are unspecified.
pub fn waits_with_wilds(c: &TileCounts, wilds: u8, melds: u8, forms: Forms) -> TileSet {
    if wilds == 0 {
        return waits(c, melds, forms);
    }
    let mut out = TileSet::EMPTY;
    let mut h = *c;
    for t in Tile::playing() {
        if h.get(t) >= 4 {
            continue;
        }
        h.add(t);
        if distance(&h, melds, forms) <= wilds {
            out.insert(t);
        }
        h.remove(t);
    }
    out
}

fn standard_waits(c: &TileCounts) -> TileSet {
    let t = tables();
    let mut keys = [0u32; 3];
    let mut sums = [0u32; 3];
    let mut ok = [false; 3];
    for s in 0..3 {
        let base = 9 * s;
        for r in (0..9).rev() {
            let n = u32::from(c.0[base + r]);
            keys[s] = keys[s] * 5 + n;
            sums[s] += n;
        }
        ok[s] = sums[s] == 0
            || t.suit_complete
                .get(keys[s] as usize)
                .copied()
                .unwrap_or(false);
    }
    // Honors: pungs and one pair only.
    let mut honor_bad = 0u32; // honors that are neither 0, 2 nor 3
    let mut honor_pairs = 0u32;
    for &n in &c.0[27..34] {
        match n {
            0 | 3 => {}
            2 => honor_pairs += 1,
            _ => honor_bad += 1,
        }
    }
    let suit_pairs = |skip: usize| (0..3).filter(|&s| s != skip && sums[s] % 3 == 2).count() as u32;
    let suit_ok = |skip: usize| (0..3).all(|s| s == skip || ok[s]);

    let mut out = TileSet::EMPTY;
    // A numbered tile can only complete the hand when honors are already fine.
    if honor_bad == 0 {
        for s in 0..3 {
            if !suit_ok(s) {
                continue;
            }
            let new_sum = sums[s] + 1;
            let pairs = suit_pairs(s) + honor_pairs + u32::from(new_sum % 3 == 2);
            if new_sum % 3 == 1 || pairs != 1 {
                continue;
            }
            for (r, &step) in POW5.iter().enumerate().take(9) {
                if c.0[9 * s + r] >= 4 {
                    continue;
                }
                if t.suit_complete
                    .get((keys[s] + step) as usize)
                    .copied()
                    .unwrap_or(false)
                    && let Some(tile) = Tile::from_index((9 * s + r) as u8)
                {
                    out.insert(tile);
                }
            }
        }
    }
    // An honor completes the hand when the suits are fine and it fixes the one bad honor.
    let suits_all_ok = suit_ok(3);
    if suits_all_ok {
        let base_pairs = suit_pairs(3);
        for r in 0..7 {
            let n = c.0[27 + r];
            let (bad_after, pairs_after) = match n {
                1 => (honor_bad - 1, honor_pairs + base_pairs + 1),
                2 => (honor_bad, honor_pairs - 1 + base_pairs),
                _ => continue,
            };
            if bad_after == 0
                && pairs_after == 1
                && let Some(tile) = Tile::from_index((27 + r) as u8)
            {
                out.insert(tile);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
