//! The irregular winning shapes: seven pairs, thirteen orphans and the knitted hands.
//!
//! Each returns a *distance* like the standard tables: the fewest tiles to add to the concealed
//! counts so that they hold the shape (0 = complete with 14 tiles).

use super::standard_distance;
use crate::tile::Tile;
use crate::tiles::{TileCounts, TileSet};

/// Seven pairs (七对); four of a kind counts as two pairs (龙七对, 豪华七对).
///
/// Counted eight kinds at a time: in each byte of a word of counts, `n >> 1` is the pairs of
/// that kind (two for a four of a kind) and `n & 1` its odd tile; the bytes of the five words
/// are added, then summed by one multiplication. With counts above four the byte sums may
/// spill into their neighbours; the answer is then meaningless but still in `0..=14`.
pub(super) fn seven_pairs_distance(c: &TileCounts) -> u8 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const LOW1: u64 = 0x0101_0101_0101_0101;
    let mut pairs = 0u64;
    let mut odd = 0u64;
    for w in counts_words(c) {
        pairs = pairs.wrapping_add((w >> 1) & LOW7);
        odd = odd.wrapping_add(w & LOW1);
    }
    let pairs = (pairs.wrapping_mul(LOW1) >> 56).min(7) as u8;
    let odd = (odd.wrapping_mul(LOW1) >> 56) as u8;
    14 - 2 * pairs - odd.min(7 - pairs)
}

/// The 34 counts as five words of eight bytes (the last holding the two honors left over).
#[inline(always)]
fn counts_words(c: &TileCounts) -> [u64; 5] {
    let mut words = [0u64; 5];
    for (w, chunk) in words.iter_mut().zip(c.0.chunks(8)) {
        let mut bytes = [0u8; 8];
        bytes[..chunk.len()].copy_from_slice(chunk);
        *w = u64::from_le_bytes(bytes);
    }
    words
}

/// Seven-pairs waits of a 13-tile hand one tile from complete: the kinds held an odd number of
/// times (a single becomes a pair, a triple becomes two pairs).
pub(super) fn seven_pairs_waits(c: &TileCounts) -> TileSet {
    if c.total() != 13 || seven_pairs_distance(c) != 1 {
        return TileSet::EMPTY;
    }
    c.0.iter()
        .enumerate()
        .filter(|&(_, &n)| n % 2 == 1)
        .filter_map(|(i, _)| Tile::from_index(i as u8))
        .collect()
}

/// Thirteen-orphans waits of a 13-tile hand: the missing kind when one is doubled, all thirteen
/// when all are held once.
pub(super) fn thirteen_orphans_waits(c: &TileCounts) -> TileSet {
    if c.total() != 13 || thirteen_orphans_distance(c) != 1 {
        return TileSet::EMPTY;
    }
    let has_pair = ORPHANS.iter().any(|&i| c.0[i] >= 2);
    ORPHANS
        .iter()
        .filter(|&&i| !has_pair || c.0[i] == 0)
        .filter_map(|&i| Tile::from_index(i as u8))
        .collect()
}

/// The 13 kinds of 十三幺: the terminals and the honors.
pub(super) const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Thirteen orphans (十三幺): one of each terminal and honor, one of them twice.
///
/// The thirteen counts are gathered into two words (1m 9m 1p 9p 1s, and the bytes from 9s to
/// the last honor), and each byte is tested at once for "held" and "held twice" with the
/// high-bit trick (adding 0x7f or 0x7e to the low seven bits carries into the high bit).
pub(super) fn thirteen_orphans_distance(c: &TileCounts) -> u8 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW1: u64 = 0x0101_0101_0101_0101;
    let [w0, w1, w2, _, _] = counts_words(c);
    // Bytes: 1m (0), 9m (8), 1p (9), 9p (17), 1s (18).
    let terminals = (w0 & 0xff) | (w1 & 0xffff) << 8 | (w2 & 0x00ff_ff00) << 16;
    let mut tail = [0u8; 8];
    tail.copy_from_slice(&c.0[26..34]);
    let rest = u64::from_le_bytes(tail); // 9s and the seven honors
    let held = |w: u64| ((w & LOW7).wrapping_add(LOW7) | w) & HIGH;
    let twice = |w: u64| ((w & LOW7).wrapping_add(LOW7 - LOW1) | w) & HIGH;
    let kinds = ((held(terminals) >> 7) + (held(rest) >> 7)).wrapping_mul(LOW1) >> 56;
    let pair = u64::from((twice(terminals) | twice(rest)) != 0);
    14 - (kinds + pair) as u8
}

/// The six knitted straights: 147, 258 and 369 spread over the three suits, as rank offsets
/// (0-based) for 万, 筒, 条.
pub(crate) const KNITS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The knitted hands: 全不靠 (fourteen distinct tiles from one knitted straight and the honors,
/// 七星不靠 included) when nothing is declared, and 组合龙 (a whole knitted straight plus one set
/// and a pair; the set may be a declared meld).
pub(super) fn knitted_distance(c: &TileCounts, melds: u8) -> u8 {
    knitted_bounded(c, melds, u8::MAX)
}

/// Whether `knitted_distance(c, melds) <= bound`. The scorer and the wait search ask this of
/// every hand, so it skips the standard-shape lookup of each knitted straight whose missing
/// tiles alone exceed the bound.
pub(super) fn knitted_within(c: &TileCounts, melds: u8, bound: u8) -> bool {
    knitted_bounded(c, melds, bound) <= bound
}

/// The knitted distance when it is at most `bound`; otherwise some value above `bound`.
fn knitted_bounded(c: &TileCounts, melds: u8, bound: u8) -> u8 {
    let honors = c.0[27..34].iter().filter(|&&n| n > 0).count() as u8;
    let mut best = u8::MAX;
    for knit in KNITS {
        let mut held_knit = 0u8;
        let mut rest = *c;
        for (suit, &offset) in knit.iter().enumerate() {
            for r in [offset, offset + 3, offset + 6] {
                let i = 9 * suit + r;
                if c.0[i] > 0 {
                    held_knit += 1;
                    rest.0[i] -= 1;
                }
            }
        }
        if melds == 0 {
            best = best.min(14 - (held_knit + honors).min(14));
        }
        // 组合龙: the missing straight tiles plus the distance of the rest to (1 - melds) sets
        // and a pair.
        let missing = 9 - held_knit;
        if missing <= bound.min(best) {
            best = best.min(missing + standard_distance(&rest, 1 - melds.min(1)));
        }
    }
    best
}
