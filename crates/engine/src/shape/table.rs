//! The per-suit distance tables behind win checks, waits and shanten.
//!
//! For one suit's count pattern `h` (nine ranks, 0..=4 copies each) and a target of `m` sets
//! (`0..=4`) plus `p` pairs (`0..=1`) placed anywhere in that suit, the table holds the *distance*:
//! the fewest tiles that must be added to `h` so that it contains such a target (tiles of `h`
//! left over are ignored). A hand is complete exactly when the per-suit distances of one split of
//! its sets add up to zero, and shanten is the smallest total distance minus one; wild tiles
//! (惠牌, 财神) fill missing tiles, so a hand with `w` wilds is complete when the distance is `w`.
//!
//! The table is computed once per process from a rank-by-rank recursion (below), about a quarter
//! of a second, and then every query is a handful of array reads. It is dense, indexed by the
//! base-5 number of the pattern (rank 1 the lowest digit), so building a key is nine
//! multiply-adds and needs no hashing.
//!
//! Distances ignore the physical limit of four copies across the *target* (a target may ask for
//! a fifth copy of a tile the hand already holds four of); that only ever makes a shanten
//! estimate optimistic by one in rare hands, never a win check wrong, because a zero distance
//! means the hand itself contains the target.

use std::sync::OnceLock;

/// Number of (sets, pair) targets per pattern: `m` in 0..=4 times `p` in 0..=1.
pub(crate) const TARGETS: usize = 10;
/// A distance too large to matter (no target of that size fits).
pub(crate) const FAR: u8 = 60;
/// Powers of five, for building keys incrementally.
pub(crate) const POW5: [u32; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390_625, 1_953_125];

/// Distances for the ten targets of one pattern, at index `2 * m + p`.
pub(crate) type Distances = [u8; TARGETS];

/// The tables, built on first use.
pub(crate) struct Tables {
    /// Numbered suits, chows allowed.
    pub suit: Vec<Distances>,
    /// Honors: pungs and pairs only.
    pub honor: Vec<Distances>,
    /// For each numbered-suit pattern: 1 when the pattern splits exactly into sets (sum ≡ 0 mod
    /// 3) or sets and one pair (sum ≡ 2 mod 3), the fast path of win checks and waits.
    pub suit_complete: Vec<bool>,
}

/// The process-wide tables.
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let suit = build(9, true);
        let honor = build(7, false);
        let suit_complete = suit
            .iter()
            .enumerate()
            .map(|(key, d)| {
                let sum = digit_sum(key as u32);
                match sum % 3 {
                    0 => d[2 * (sum / 3).min(4) as usize] == 0 && sum <= 12,
                    2 => d[2 * ((sum - 2) / 3).min(4) as usize + 1] == 0 && sum <= 14,
                    _ => false,
                }
            })
            .collect();
        Tables {
            suit,
            honor,
            suit_complete,
        }
    })
}

fn digit_sum(mut key: u32) -> u32 {
    let mut s = 0;
    while key > 0 {
        s += key % 5;
        key /= 5;
    }
    s
}

/// Builds the distance table for patterns of `len` ranks, level by level: a pattern of ranks
/// `r..len` decides what the target places at rank `r` (a pung, `k` chows starting there, a
/// pair) and hands the rest, with the chows' tiles at `r+1` and `r+2` taken out, to the table
/// of one rank fewer. Missing tiles at each rank cost one each; taking a chow tile out of a
/// rank that has none costs one and leaves zero, which is what makes the recursion exact.
fn build(len: usize, runs: bool) -> Vec<Distances> {
    let mut empty = [FAR; TARGETS];
    empty[0] = 0;
    let mut prev: Vec<Distances> = vec![empty];
    let mut prev_sums: Vec<u8> = vec![0];
    for (l, &keys) in POW5.iter().enumerate().take(len + 1).skip(1) {
        let keys = keys as usize;
        let mut cur = vec![[FAR; TARGETS]; keys];
        let mut sums = vec![0u8; keys];
        for (key, out) in cur.iter_mut().enumerate() {
            let key = key as u32;
            let h0 = (key % 5) as u8;
            let rest = key / 5;
            let sum = h0 + prev_sums[rest as usize];
            sums[key as usize] = sum;
            // A concealed part never holds more than 14 tiles; larger patterns stay unused.
            if sum > 14 {
                continue;
            }
            let h1 = if l >= 2 { (rest % 5) as u8 } else { 0 };
            let h2 = if l >= 3 { ((rest / 5) % 5) as u8 } else { 0 };
            let max_chows = if runs && l >= 3 { 4 } else { 0 };
            for pung in 0..=1u8 {
                for pair in 0..=1u8 {
                    if pung == 1 && pair == 1 {
                        continue; // five copies of one tile
                    }
                    for k in 0..=max_chows {
                        let here = 3 * pung + 2 * pair + k;
                        if here > 4 {
                            break;
                        }
                        let cost =
                            here.saturating_sub(h0) + k.saturating_sub(h1) + k.saturating_sub(h2);
                        let child_key = if k == 0 {
                            rest
                        } else {
                            rest - u32::from(h1.min(k)) - 5 * u32::from(h2.min(k))
                        };
                        let child = &prev[child_key as usize];
                        relax(out, child, cost, pung + k, pair);
                    }
                }
            }
        }
        prev = cur;
        prev_sums = sums;
    }
    prev
}

fn relax(out: &mut Distances, child: &Distances, cost: u8, sets: u8, pair: u8) {
    for m in 0..=4u8 {
        for p in 0..=1u8 {
            let d = child[usize::from(2 * m + p)];
            if d >= FAR {
                continue;
            }
            let (tm, tp) = (m + sets, p + pair);
            if tm > 4 || tp > 1 {
                continue;
            }
            let slot = &mut out[usize::from(2 * tm + tp)];
            *slot = (*slot).min(d + cost);
        }
    }
}

/// Min-plus combination of two suits' distance vectors: the best split of `m` sets and `p`
/// pairs between them.
///
/// With the layout `2m + p`, adding `a`'s entry `i` to `b`'s entry `j` lands in slot `i + j`,
/// except that two pairs (odd `i`, odd `j`) must not combine; so odd rows of `a` use a copy of
/// `b` whose odd entries are blocked. Each row is one shifted add-and-min over a byte array,
/// which the compiler turns into a few vector instructions.
#[inline]
pub(crate) fn combine(a: &Distances, b: &Distances) -> Distances {
    let mut b_even = [u8::MAX; TARGETS];
    for j in (0..TARGETS).step_by(2) {
        b_even[j] = b[j];
    }
    let mut out = [u8::MAX; 2 * TARGETS];
    for (i, &ai) in a.iter().enumerate() {
        let row = if i % 2 == 0 { b } else { &b_even };
        let dst = &mut out[i..i + TARGETS];
        for (d, &bj) in dst.iter_mut().zip(row.iter()) {
            *d = (*d).min(ai.saturating_add(bj));
        }
    }
    let mut result = [0u8; TARGETS];
    result.copy_from_slice(&out[..TARGETS]);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(pattern: &[u8]) -> usize {
        pattern
            .iter()
            .enumerate()
            .map(|(i, &c)| c as usize * POW5[i] as usize)
            .sum()
    }

    #[test]
    fn small_patterns() {
        let t = tables();
        // 123: one set, nothing missing.
        let d = t.suit[key(&[1, 1, 1])];
        assert_eq!(d[2], 0);
        assert_eq!(d[3], 2, "a pair needs two more tiles");
        // 13: one tile short of a chow.
        assert_eq!(t.suit[key(&[1, 0, 1])][2], 1);
        // 1112345678999 is nine gates: four sets and a pair after any one added tile.
        let nine_gates = key(&[3, 1, 1, 1, 1, 1, 1, 1, 3]);
        assert_eq!(t.suit[nine_gates][9], 1);
        assert!(t.suit_complete[key(&[3, 1, 1, 1, 1, 1, 1, 1, 3]) + POW5[4] as usize]);
        assert!(!t.suit_complete[nine_gates]);
        // Honors never chow: 1z2z3z is three tiles from any set.
        assert_eq!(t.honor[key(&[1, 1, 1])][2], 2);
        assert_eq!(t.honor[key(&[3])][2], 0);
    }
}
