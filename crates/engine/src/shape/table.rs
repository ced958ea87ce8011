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
//! base-5 number of the pattern (rank 1 the lowest digit), so building a key is a few
//! multiply-adds on a word of counts and needs no hashing.
//!
//! Distances ignore the physical limit of four copies across the *target* (a target may ask for
//! a fifth copy of a tile the hand already holds four of); that only ever makes a shanten
//! estimate optimistic by one in rare hands, never a win check wrong, because a zero distance
//! means the hand itself contains the target.
//!
//! # Packed vectors
//!
//! Each pattern's ten distances are stored as one `u64` ([`Packed`]): target `2m + p` in the
//! six-bit lane starting at bit `6 (2m + p)`, each lane holding a value of at most [`CAP`] (15)
//! under a zero guard bit. No real distance reaches the cap (a target is at most 3·4 + 2 = 14
//! tiles, all of which can be added), and lane 0 (no set, no pair) is always 0. The min-plus
//! combination of two suits ([`combine`]) then works on whole words: one shifted add and one
//! lane-wise minimum per entry of the first vector, instead of one add and one minimum per pair
//! of entries. Because lane 0 is 0, every combined lane is at most the smaller of its two inputs,
//! so results stay within the cap and the guard bits stay clear.
//!
//! Against byte arrays of ten entries this also shrinks the tables from 22.3 MB to 18.2 MB
//! (1,953,125 suit patterns and 78,125 honor patterns at eight bytes each, plus one byte per
//! suit pattern for the win-check table).

use std::sync::OnceLock;

/// Number of (sets, pair) targets per pattern: `m` in 0..=4 times `p` in 0..=1.
pub(crate) const TARGETS: usize = 10;
/// A distance too large to matter (no target of that size fits).
pub(crate) const FAR: u8 = 60;
/// Powers of five, for building keys incrementally.
pub(crate) const POW5: [u32; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390_625, 1_953_125];

/// Distances for the ten targets of one pattern, at index `2 * m + p`.
pub(crate) type Distances = [u8; TARGETS];

/// A pattern's ten distances packed into six-bit lanes (see the module docs).
pub(crate) type Packed = u64;

/// Bits per lane.
const LANE: usize = 6;
/// The largest value a lane holds; distances above it (only those of patterns no hand can hold)
/// read as `CAP`.
pub(crate) const CAP: u8 = 15;
/// 1 in every lane.
const ONES: Packed = {
    let mut x = 0;
    let mut l = 0;
    while l < TARGETS {
        x |= 1 << (LANE * l);
        l += 1;
    }
    x
};
/// The guard bit (the sixth) of every lane.
const GUARD: Packed = ONES << 5;
/// `CAP` in every lane.
const CAPS: Packed = ONES * CAP as Packed;
/// All bits of the even lanes (no pair).
const EVEN: Packed = {
    let mut x = 0;
    let mut l = 0;
    while l < TARGETS {
        x |= 63 << (LANE * l);
        l += 2;
    }
    x
};
/// What a key outside the table reads as: nothing costs nothing, every target is out of reach.
pub(crate) const UNREACHABLE: Packed = CAPS & !63;

/// The value of lane `l`.
#[inline]
pub(crate) fn lane(v: Packed, l: usize) -> u8 {
    ((v >> (LANE * l)) & 63) as u8
}

/// Packs ten distances, lane `l` holding `d[l]` (capped), lane 0 forced to 0.
pub(crate) fn pack(d: &Distances) -> Packed {
    d.iter()
        .enumerate()
        .skip(1)
        .fold(0, |v, (l, &x)| v | Packed::from(x.min(CAP)) << (LANE * l))
}

/// Packs ten distances in reverse order, lane `l` holding `d[9 - l]` (capped). The honors are
/// stored this way so that the last step of a standard-form distance is a plain lane-wise add
/// (see [`finish`]).
fn pack_reversed(d: &Distances) -> Packed {
    (0..TARGETS).fold(0, |v, l| {
        v | Packed::from(d[TARGETS - 1 - l].min(CAP)) << (LANE * l)
    })
}

/// Lane-wise minimum of two vectors whose lanes are at most 31 with clear guard bits. Bits above
/// the ten lanes come from `x`.
#[inline(always)]
fn min_lanes(x: Packed, y: Packed) -> Packed {
    // Per lane 32 + x - y, which never borrows from the next lane: the guard bit stays set
    // exactly when x >= y, and then the five bits below it are x - y, which is taken off x.
    let diff = (x | GUARD).wrapping_sub(y);
    let ge = diff & GUARD;
    x.wrapping_sub(diff & (ge - (ge >> 5)))
}

/// Min-plus combination of two suits' distance vectors: lane `2m + p` of the result is the best
/// split of `m` sets and `p` pairs between them.
///
/// Entry `i` of `a` plus the whole of `b` shifted up by `i` lanes lands every sum in its slot
/// `i + j`; lanes below `i` are filled with `CAP`, and lanes shifted past the tenth fall off.
/// Two pairs must not combine, so odd rows of `a` use a copy of `b` whose odd lanes are `CAP`.
/// Row 0 is `b` itself (entry 0 of `a` is 0). Sums stay at most 30, below the guard bit.
#[inline(always)]
pub(crate) fn combine(a: Packed, b: Packed) -> Packed {
    let b_even = (b & EVEN) | (CAPS & !EVEN);
    let mut acc = b;
    for i in 1..TARGETS {
        let row = if i % 2 == 0 { b } else { b_even };
        let shift = LANE * i;
        let below = CAPS & ((1 << shift) - 1);
        // Entry i of `a` in lanes i and up (the lanes below are `below`).
        let ai = (a & (63 << shift)).wrapping_mul(ONES);
        let sums = ((row << shift) | below).wrapping_add(ai);
        acc = min_lanes(acc, sums);
    }
    acc
}

/// The last step of a standard-form distance: lane `2 sets + 1` (the sets and one pair) of the
/// combination of `rest` with the honors `honors_reversed` (as stored, lane `l` holding honor
/// target `9 - l`). Shifted down by `8 - 2 sets` lanes, the honors' lane `j` holds the honor
/// target that completes `rest`'s target `j`, so one add and a minimum over the lanes finish;
/// two pairs never meet because `2 sets + 1` is odd.
#[inline(always)]
pub(crate) fn finish(rest: Packed, honors_reversed: Packed, sets: usize) -> u8 {
    // Four sets (nothing declared) is the common case and needs no shift.
    let honors = if sets >= 4 {
        honors_reversed
    } else {
        let k = 2 * sets + 1;
        let keep = (1 << (LANE * (k + 1))) - 1;
        (honors_reversed >> (LANE * (9 - k))) | (CAPS & !keep)
    };
    let sums = rest.wrapping_add(honors);
    // Fold lanes 5..9 onto 0..4 (the lanes shifted in are CAP, which no minimum below it
    // notices), then take the smallest of those five.
    let high = CAPS & !((1 << (LANE * 5)) - 1);
    let folded = min_lanes(sums, (sums >> (LANE * 5)) | high);
    (0..5).map(|l| lane(folded, l)).min().unwrap_or(CAP)
}

/// The tables, built on first use.
pub(crate) struct Tables {
    /// Numbered suits, chows allowed.
    pub suit: Vec<Packed>,
    /// Honors (pungs and pairs only), in reverse lane order (see [`finish`]).
    pub honor: Vec<Packed>,
    /// For each numbered-suit pattern: 1 when the pattern splits exactly into sets (sum ≡ 0 mod
    /// 3) or sets and one pair (sum ≡ 2 mod 3), the fast path of win checks and waits.
    pub suit_complete: Vec<bool>,
}

/// The process-wide tables.
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let suit = build(9, true);
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
        let suit = suit.iter().map(pack).collect();
        let honor = build(7, false).iter().map(pack_reversed).collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
        assert_eq!(lane(d, 2), 0);
        assert_eq!(lane(d, 3), 2, "a pair needs two more tiles");
        // 13: one tile short of a chow.
        assert_eq!(lane(t.suit[key(&[1, 0, 1])], 2), 1);
        // 1112345678999 is nine gates: four sets and a pair after any one added tile.
        let nine_gates = key(&[3, 1, 1, 1, 1, 1, 1, 1, 3]);
        assert_eq!(lane(t.suit[nine_gates], 9), 1);
        assert!(t.suit_complete[key(&[3, 1, 1, 1, 1, 1, 1, 1, 3]) + POW5[4] as usize]);
        assert!(!t.suit_complete[nine_gates]);
        // Honors never chow: 1z2z3z is three tiles from any set.
        // (Honors are stored in reverse: target `2m + p` in lane `9 - 2m - p`.)
        assert_eq!(lane(t.honor[key(&[1, 1, 1])], 9 - 2), 2);
        assert_eq!(lane(t.honor[key(&[3])], 9 - 2), 0);
    }

    /// The min-plus combination entry by entry, the definition the packed [`combine`] must
    /// meet: entry `i` of `a` plus entry `j` of `b` lands in slot `i + j`, except two pairs.
    fn combine_entrywise(a: &Distances, b: &Distances) -> Distances {
        let mut out = [u8::MAX; TARGETS];
        for (i, &ai) in a.iter().enumerate() {
            for (j, &bj) in b.iter().enumerate() {
                if i + j < TARGETS && !(i % 2 == 1 && j % 2 == 1) {
                    out[i + j] = out[i + j].min(ai + bj);
                }
            }
        }
        out
    }

    fn unpack(v: Packed) -> Distances {
        std::array::from_fn(|l| lane(v, l))
    }

    /// A distance vector as the tables hold them: nothing costs nothing, the rest within the cap.
    fn vector() -> impl Strategy<Value = Distances> {
        proptest::array::uniform9(0..=CAP).prop_map(|rest| {
            let mut d = [0; TARGETS];
            d[1..].copy_from_slice(&rest);
            d
        })
    }

    /// Suit patterns of real hands: at most four copies, at most fourteen tiles.
    fn suit_key() -> impl Strategy<Value = usize> {
        proptest::array::uniform9(0..=4u8)
            .prop_filter("a concealed part holds at most 14 tiles", |p| {
                p.iter().map(|&n| u32::from(n)).sum::<u32>() <= 14
            })
            .prop_map(|p| key(&p))
    }

    /// The cap never bites on a real pattern: every table distance is below it.
    #[test]
    fn real_distances_stay_below_the_cap() {
        let t = tables();
        for (name, table) in [("suit", &t.suit), ("honor", &t.honor)] {
            for (key, &v) in table.iter().enumerate() {
                if digit_sum(key as u32) <= 14 {
                    assert!(unpack(v).iter().all(|&d| d < CAP), "{name} pattern {key}");
                }
            }
        }
    }

    proptest! {
        /// The word-wide combination equals the entry-wise one, on any vectors the tables can
        /// hold and on pairs of real suit patterns.
        #[test]
        fn packed_combine_is_the_entrywise_combine(a in vector(), b in vector()) {
            prop_assert_eq!(unpack(combine(pack(&a), pack(&b))), combine_entrywise(&a, &b));
        }

        #[test]
        fn packed_combine_on_real_suits(k1 in suit_key(), k2 in suit_key(), k3 in suit_key()) {
            let t = tables();
            let (a, b, s) = (t.suit[k1], t.suit[k2], t.suit[k3]);
            let ab = combine_entrywise(&unpack(a), &unpack(b));
            prop_assert_eq!(unpack(combine(a, b)), ab);
            prop_assert_eq!(unpack(combine(combine(a, b), s)), combine_entrywise(&ab, &unpack(s)));
        }

        /// The last step equals the entry `2 sets + 1` of an entry-wise combination with the
        /// honors, for every number of sets.
        #[test]
        fn finish_is_the_entrywise_last_step(rest in vector(), honors in vector(), sets in 0..=4usize) {
            let want = combine_entrywise(&rest, &honors)[2 * sets + 1];
            prop_assert_eq!(finish(pack(&rest), pack_reversed(&honors), sets), want);
        }
    }
}
