//! The irregular winning shapes: seven pairs, thirteen orphans and the knitted hands.
//!
//! Each returns a *distance* like the standard tables: the fewest tiles to add to the concealed
//! counts so that they hold the shape (0 = complete with 14 tiles).

use super::standard_distance;
use crate::tile::Tile;
use crate::tiles::{TileCounts, TileSet};

/// Seven pairs (七对); four of a kind counts as two pairs (龙七对, 豪华七对).
pub(super) fn seven_pairs_distance(c: &TileCounts) -> u8 {
    let mut pairs = 0u8;
    let mut odd = 0u8;
    for &n in &c.0 {
        let n = n.min(4);
        pairs += n / 2;
        odd += n % 2;
    }
    let pairs = pairs.min(7);
    14 - 2 * pairs - odd.min(7 - pairs)
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
pub(super) fn thirteen_orphans_distance(c: &TileCounts) -> u8 {
    let mut kinds = 0u8;
    let mut pair = 0u8;
    for &i in &ORPHANS {
        if c.0[i] > 0 {
            kinds += 1;
        }
        if c.0[i] >= 2 {
            pair = 1;
        }
    }
    14 - kinds - pair
}

/// The six knitted straights: 147, 258 and 369 spread over the three suits, as rank offsets
/// (0-based) for 万, 筒, 条.
pub(super) const KNITS: [[usize; 3]; 6] = [
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
