//! Every reading of a complete hand, in every winning shape, with or without wild tiles.
//!
//! Scoring chooses the best reading, so it needs them all: a standard hand may read as several
//! splits, as seven pairs too, and a hand with wilds reads once for every way the wilds can
//! stand in. Wilds stand only in the standard and seven-pairs shapes (the families with wilds,
//! Beijing and Ningbo, have no thirteen orphans or knitted hands). A set or pair made of wilds
//! alone reads as the wild kind itself, and no reading holds a fifth copy of any kind: a wild
//! stands for a tile that could exist. Not on the hot path: only winning hands are arranged.

use arrayvec::ArrayVec;

use super::decompose::{Decomposition, Set, decompositions};
use super::special::{
    KNITS, ORPHANS, knitted_within, seven_pairs_distance, thirteen_orphans_distance,
};
use super::{Forms, is_complete};
use crate::tile::Tile;
use crate::tiles::TileCounts;

/// One reading of a complete concealed part.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Arrangement {
    /// Sets and a pair (with wilds substituted).
    Standard(Decomposition),
    /// Seven pairs; a four of a kind appears as two equal pairs.
    SevenPairs(ArrayVec<Tile, 7>),
    /// Thirteen orphans, with its doubled kind.
    ThirteenOrphans {
        /// The kind held twice.
        pair: Tile,
    },
    /// A knitted hand on one knitted straight: the rank offset (0, 1 or 2 for 147, 258, 369)
    /// of 万, 筒 and 条; `rest` is the set and pair of 组合龙, `None` for 全不靠.
    Knitted {
        /// Rank offsets per suit.
        knit: [u8; 3],
        /// What completes 组合龙 besides the straight.
        rest: Option<Decomposition>,
    },
}

/// Every reading of concealed non-wild `c` plus `wilds` copies of `wild` as a complete hand
/// with `melds` declared melds, in the shapes of `forms`. Empty when it is not complete.
pub fn arrangements(
    c: &TileCounts,
    wilds: u8,
    wild: Option<Tile>,
    melds: u8,
    forms: Forms,
) -> Vec<Arrangement> {
    let mut out = Vec::new();
    let wild_kind = wild.filter(|_| wilds > 0);
    if forms.contains(Forms::STANDARD) {
        let splits = match wild_kind {
            None => decompositions(c),
            Some(w) => decompositions_with_wilds(c, wilds, w),
        };
        out.extend(splits.into_iter().map(Arrangement::Standard));
    }
    if melds == 0
        && forms.contains(Forms::SEVEN_PAIRS)
        && seven_pairs_distance(c) <= wilds
        && let Some(pairs) = seven_pairs(c, wilds, wild_kind)
    {
        out.push(Arrangement::SevenPairs(pairs));
    }
    if wilds > 0 {
        return out;
    }
    if melds == 0 && forms.contains(Forms::THIRTEEN_ORPHANS) && thirteen_orphans_distance(c) == 0 {
        let pair = ORPHANS
            .iter()
            .find(|&&i| c.0[i] == 2)
            .and_then(|&i| Tile::from_index(i as u8));
        if let Some(pair) = pair {
            out.push(Arrangement::ThirteenOrphans { pair });
        }
    }
    if melds <= 1 && forms.contains(Forms::KNITTED) && knitted_within(c, melds, 0) {
        out.extend(knitted(c, melds));
    }
    out
}

fn seven_pairs(c: &TileCounts, wilds: u8, wild: Option<Tile>) -> Option<ArrayVec<Tile, 7>> {
    let mut pairs = ArrayVec::new();
    let mut w = wilds;
    for t in Tile::playing() {
        let n = c.get(t);
        for _ in 0..n / 2 {
            pairs.try_push(t).ok()?;
        }
        if n % 2 == 1 {
            w = w.checked_sub(1)?;
            pairs.try_push(t).ok()?;
        }
    }
    while w >= 2 {
        pairs.try_push(wild?).ok()?;
        w -= 2;
    }
    (pairs.is_full() && w == 0).then_some(pairs)
}

fn knitted(c: &TileCounts, melds: u8) -> Vec<Arrangement> {
    let mut out = Vec::new();
    for knit in KNITS {
        let offsets = [knit[0] as u8, knit[1] as u8, knit[2] as u8];
        let mut rest = *c;
        let mut whole = true;
        let mut held = 0;
        for (suit, &offset) in knit.iter().enumerate() {
            for r in [offset, offset + 3, offset + 6] {
                let i = 9 * suit + r;
                if rest.0[i] > 0 {
                    rest.0[i] -= 1;
                    held += 1;
                } else {
                    whole = false;
                }
            }
        }
        if whole && is_complete(&rest, 3 + melds, Forms::STANDARD) {
            for d in decompositions(&rest) {
                out.push(Arrangement::Knitted {
                    knit: offsets,
                    rest: Some(d),
                });
            }
        }
        // 全不靠: fourteen distinct tiles of this straight and the honors.
        let honors = c.0[27..34].iter().filter(|&&n| n == 1).count();
        let distinct = c.0.iter().all(|&n| n <= 1);
        if melds == 0 && distinct && held + honors == 14 && c.total() == 14 {
            out.push(Arrangement::Knitted {
                knit: offsets,
                rest: None,
            });
        }
    }
    out
}

/// Standard splits with wilds: the lowest real tile always goes into the next set or the pair,
/// which may take real copies or wilds for each of its other places.
pub fn decompositions_with_wilds(c: &TileCounts, wilds: u8, wild: Tile) -> Vec<Decomposition> {
    let mut out = Vec::new();
    if (c.total() + u32::from(wilds)) % 3 != 2 {
        return out;
    }
    let mut sets = ArrayVec::new();
    split(&mut c.clone(), wilds, None, &mut sets, wild, &mut out);
    // A wild never stands for a fifth copy of a kind.
    out.retain(|d| {
        let mut covered = [0u8; Tile::PLAYING_KINDS];
        for t in d
            .sets
            .iter()
            .flat_map(|s| s.tiles())
            .chain([d.pair, d.pair])
        {
            covered[t.index()] += 1;
        }
        covered.iter().all(|&n| n <= 4)
    });
    for d in &mut out {
        d.sets.sort();
    }
    out.sort_by(|a, b| (a.pair, a.sets.as_slice()).cmp(&(b.pair, b.sets.as_slice())));
    out.dedup();
    out
}

fn split(
    c: &mut TileCounts,
    w: u8,
    pair: Option<Tile>,
    sets: &mut ArrayVec<Set, 4>,
    wild: Tile,
    out: &mut Vec<Decomposition>,
) {
    let Some(i) = (0..Tile::PLAYING_KINDS).find(|&i| c.0[i] > 0) else {
        finish_with_wilds(w, pair, sets, wild, out);
        return;
    };
    let Some(t) = Tile::from_index(i as u8) else {
        return;
    };
    let held = c.0[i];
    if pair.is_none() {
        for real in 1..=held.min(2) {
            if 2 - real <= w {
                c.0[i] -= real;
                split(c, w - (2 - real), Some(t), sets, wild, out);
                c.0[i] += real;
            }
        }
    }
    if sets.is_full() {
        return;
    }
    for real in 1..=held.min(3) {
        if 3 - real <= w {
            c.0[i] -= real;
            sets.push(Set::Pung(t));
            split(c, w - (3 - real), pair, sets, wild, out);
            sets.pop();
            c.0[i] += real;
        }
    }
    // Chows holding `t` as their lowest real tile; places below it are wilds.
    if !t.suit().is_numbered() {
        return;
    }
    let rank = t.rank();
    for low in rank.saturating_sub(2).max(1)..=rank.min(7) {
        let below = rank - low;
        if below > w {
            continue;
        }
        let above: Vec<usize> = (rank + 1..=low + 2)
            .map(|r| i + usize::from(r - rank))
            .collect();
        c.0[i] -= 1;
        sets.push(Set::Chow(
            Tile::from_index((i - usize::from(below)) as u8).unwrap_or(t),
        ));
        fill_above(c, w - below, &above, pair, sets, wild, out);
        sets.pop();
        c.0[i] += 1;
    }
}

/// Fills the places of a chow above its lowest real tile, each by a real copy or a wild.
fn fill_above(
    c: &mut TileCounts,
    w: u8,
    places: &[usize],
    pair: Option<Tile>,
    sets: &mut ArrayVec<Set, 4>,
    wild: Tile,
    out: &mut Vec<Decomposition>,
) {
    let Some((&first, rest)) = places.split_first() else {
        split(c, w, pair, sets, wild, out);
        return;
    };
    if c.0[first] > 0 {
        c.0[first] -= 1;
        fill_above(c, w, rest, pair, sets, wild, out);
        c.0[first] += 1;
    }
    if w > 0 {
        fill_above(c, w - 1, rest, pair, sets, wild, out);
    }
}

/// Only wilds are left: they make the pair if it is missing, then pungs, all of the wild kind.
fn finish_with_wilds(
    w: u8,
    pair: Option<Tile>,
    sets: &ArrayVec<Set, 4>,
    wild: Tile,
    out: &mut Vec<Decomposition>,
) {
    let (pair, w) = match pair {
        Some(p) => (p, w),
        None if w >= 2 => (wild, w - 2),
        None => return,
    };
    if w % 3 != 0 {
        return;
    }
    let mut sets = sets.clone();
    for _ in 0..w / 3 {
        if sets.try_push(Set::Pung(wild)).is_err() {
            return;
        }
    }
    out.push(Decomposition { sets, pair });
}
