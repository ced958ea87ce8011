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

impl Arrangement {
    /// Calls `visit` once with every distinct reading of concealed `c` (no wilds) as a complete
    /// hand with `melds` declared melds, in the shapes of `forms`: the readings of
    /// `arrangements(c, 0, None, melds, forms)` less repeats, in another order, and without
    /// allocating for the standard, seven-pairs and thirteen-orphans shapes.
    ///
    /// Scoring runs this on every hand it scores, so it prunes before it searches: the standard
    /// split takes all the groups of the lowest kind at once (a pair, a pung, the chows it
    /// starts), so each split is reached by one path only, and counts that cannot split (a
    /// suit one tile over or under whole sets, an honor held once) are refused before any
    /// search; the knitted shapes are searched only when a knitted straight is held whole or
    /// the tiles are fourteen distinct kinds.
    pub fn for_each(c: &TileCounts, melds: u8, forms: Forms, mut visit: impl FnMut(&Arrangement)) {
        if forms.contains(Forms::STANDARD)
            && let Some(pair_group) = standard_pair_group(c)
        {
            let mut rest = *c;
            let mut sets = ArrayVec::new();
            let left = c.kinds().bits();
            split_lowest(&mut rest, left, pair_group, None, &mut sets, &mut visit);
        }
        if melds == 0
            && forms.contains(Forms::SEVEN_PAIRS)
            && seven_pairs_distance(c) == 0
            && let Some(pairs) = seven_pairs(c, 0, None)
        {
            visit(&Arrangement::SevenPairs(pairs));
        }
        if melds == 0
            && forms.contains(Forms::THIRTEEN_ORPHANS)
            && thirteen_orphans_distance(c) == 0
        {
            let pair = ORPHANS
                .iter()
                .find(|&&i| c.0[i] == 2)
                .and_then(|&i| Tile::from_index(i as u8));
            if let Some(pair) = pair {
                visit(&Arrangement::ThirteenOrphans { pair });
            }
        }
        if melds <= 1 && forms.contains(Forms::KNITTED) && knitted_possible(c, melds) {
            for a in knitted(c, melds) {
                visit(&a);
            }
        }
    }
}

/// Where the pair of a standard reading must be, when the counts allow one: every numbered
/// suit holds a multiple of three tiles but the one holding the pair, and every honor is held
/// zero, two or three times. The pair's group is its suit's index, 3 for the honors (a kind
/// index divided by 9).
fn standard_pair_group(c: &TileCounts) -> Option<usize> {
    let mut pair = None;
    for (suit, counts) in c.0[..27].chunks_exact(9).enumerate() {
        match counts.iter().map(|&n| u32::from(n)).sum::<u32>() % 3 {
            0 => {}
            2 if pair.is_none() => pair = Some(suit),
            _ => return None,
        }
    }
    for &n in &c.0[27..34] {
        match n {
            0 | 3 => {}
            2 if pair.is_none() => pair = Some(3),
            _ => return None,
        }
    }
    pair
}

/// Splits what is left of `c` (its kinds held are the bits of `left`), deciding every group of
/// the lowest kind left at once: the pair (when none is chosen yet and the kind is of
/// `pair_group`), a pung, and as chows all its other copies. Honors have no choice left (each
/// is held two or three times): they end the split as they are.
fn split_lowest(
    c: &mut TileCounts,
    left: u64,
    pair_group: usize,
    pair: Option<Tile>,
    sets: &mut ArrayVec<Set, 4>,
    visit: &mut impl FnMut(&Arrangement),
) {
    let i = left.trailing_zeros() as usize;
    if i >= 27 {
        honors_and_visit(c, left, pair, sets, visit);
        return;
    }
    let Some(t) = Tile::from_index(i as u8) else {
        return;
    };
    let held = c.0[i];
    // Chows start at ranks 1..=7 of a numbered suit.
    let chow_room = if t.rank() <= 7 {
        c.0[i + 1].min(c.0[i + 2])
    } else {
        0
    };
    let may_pair = pair.is_none() && i / 9 == pair_group;
    for pairs in 0..=u8::from(may_pair) {
        for pungs in 0..=1u8 {
            let Some(chows) = held.checked_sub(2 * pairs + 3 * pungs) else {
                continue;
            };
            if chows > chow_room || sets.len() + usize::from(pungs + chows) > sets.capacity() {
                continue;
            }
            let before = sets.len();
            if pungs == 1 {
                sets.push(Set::Pung(t));
            }
            for _ in 0..chows {
                sets.push(Set::Chow(t));
            }
            let mut rest = left & !(1 << i);
            if chows > 0 {
                for j in [i + 1, i + 2] {
                    c.0[j] -= chows;
                    if c.0[j] == 0 {
                        rest &= !(1 << j);
                    }
                }
            }
            c.0[i] = 0;
            let next_pair = if pairs == 1 { Some(t) } else { pair };
            split_lowest(c, rest, pair_group, next_pair, sets, visit);
            c.0[i] = held;
            if chows > 0 {
                c.0[i + 1] += chows;
                c.0[i + 2] += chows;
            }
            sets.truncate(before);
        }
    }
}

/// Ends a split with the honors left in `left`: a pung of each kind held three times, the pair
/// of the one held twice.
fn honors_and_visit(
    c: &TileCounts,
    left: u64,
    mut pair: Option<Tile>,
    sets: &ArrayVec<Set, 4>,
    visit: &mut impl FnMut(&Arrangement),
) {
    let mut sets = sets.clone();
    let mut kinds = left;
    while kinds != 0 {
        let i = kinds.trailing_zeros() as usize;
        kinds &= kinds - 1;
        let Some(t) = Tile::from_index(i as u8) else {
            return;
        };
        match c.0[i] {
            2 if pair.is_none() => pair = Some(t),
            3 if sets.try_push(Set::Pung(t)).is_ok() => {}
            _ => return,
        }
    }
    if let Some(pair) = pair {
        visit(&Arrangement::Standard(Decomposition { sets, pair }));
    }
}

/// A necessary condition for a knitted reading: with nothing declared, fourteen distinct
/// tiles (全不靠); or one knitted straight held whole (组合龙), looked for suit by suit.
fn knitted_possible(c: &TileCounts, melds: u8) -> bool {
    if melds == 0 && c.0.iter().all(|&n| n <= 1) && c.total() == 14 {
        return true;
    }
    // The offsets (a bit each) whose three ranks offset, +3 and +6 the suit holds.
    let held = c.kinds().bits();
    let whole = |suit: usize| {
        let ranks = held >> (9 * suit);
        (0..3).fold(0u8, |m, o| {
            m | (u8::from(ranks >> o & 0b1001001 == 0b1001001) << o)
        })
    };
    let man = whole(0);
    if man == 0 {
        return false;
    }
    let (pin, sou) = (whole(1), whole(2));
    KNITS
        .iter()
        .any(|k| man >> k[0] & pin >> k[1] & sou >> k[2] & 1 == 1)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wall::SeededRng;

    /// The readings of `arrangements` without repeats, in one order.
    fn distinct(mut readings: Vec<Arrangement>) -> Vec<Arrangement> {
        for r in &mut readings {
            if let Arrangement::Standard(d) = r {
                d.sets.sort();
            }
        }
        let key = |a: &Arrangement| format!("{a:?}");
        readings.sort_by_key(key);
        readings.dedup();
        readings
    }

    fn visited(c: &TileCounts, melds: u8, forms: Forms) -> Vec<Arrangement> {
        let mut out = Vec::new();
        Arrangement::for_each(c, melds, forms, |a| out.push(a.clone()));
        out
    }

    /// Counts of 14 − 3·melds tiles drawn from a window of kinds, so that many are complete,
    /// and now and then a hand built to be seven pairs or knitted.
    fn hand(g: &mut SeededRng) -> (TileCounts, u8) {
        let melds = [0, 0, 0, 1, 1, 2, 4][g.below(7) as usize];
        let mut c = TileCounts::new();
        match g.below(10) {
            0 => {
                while c.total() < 14 {
                    let i = g.below(34) as usize;
                    if c.0[i] <= 2 {
                        c.0[i] += 2;
                    }
                }
                return (c, 0);
            }
            1 => {
                let knit = KNITS[g.below(6) as usize];
                for (suit, &offset) in knit.iter().enumerate() {
                    for r in [offset, offset + 3, offset + 6] {
                        c.0[9 * suit + r] += 1;
                    }
                }
                let melds = g.below(2) as u8;
                while c.total() < 14 - 3 * u32::from(melds) {
                    c.0[g.below(34) as usize] += 1;
                }
                return (c, melds);
            }
            _ => {}
        }
        let lo = g.below(34) as usize;
        let narrow = g.below(2) == 0;
        let width = 1 + g.below(if narrow { 9 } else { 34 }) as usize;
        // At most four copies of a kind: a window of four kinds or more holds the tiles.
        let width = width.max(4);
        while c.total() < 14 - 3 * u32::from(melds) {
            let i = (lo + g.below(width as u32) as usize) % 34;
            if c.0[i] < 4 {
                c.0[i] += 1;
            }
        }
        (c, melds)
    }

    #[test]
    fn visiting_the_readings_finds_those_of_arrangements_once_each() {
        let all = Forms::STANDARD
            .with(Forms::SEVEN_PAIRS)
            .with(Forms::THIRTEEN_ORPHANS)
            .with(Forms::KNITTED);
        let mut g = SeededRng::new(7);
        let mut complete = 0;
        for _ in 0..60_000 {
            let (c, melds) = hand(&mut g);
            for forms in [all, Forms::STANDARD, Forms::KNITTED] {
                let want = distinct(arrangements(&c, 0, None, melds, forms));
                let got = visited(&c, melds, forms);
                assert_eq!(got.len(), distinct(got.clone()).len(), "a repeat in {c:?}");
                assert_eq!(distinct(got), want, "{c:?} with {melds} melds");
                complete += usize::from(!want.is_empty() && forms == all);
            }
        }
        assert!(complete > 5_000, "only {complete} complete hands");
    }

    #[test]
    fn a_knitted_hand_is_read_once_per_reading() {
        // 组合龙 (147m 258p 369s) with 123m 55z, and 七星不靠 (seven tiles of a straight, seven honors).
        for (text, readings) in [("147m258p369s123m55z", 1), ("14m25p369s1234567z", 1)] {
            let c = TileCounts::parse(text).expect("tiles");
            let all = arrangements(&c, 0, None, 0, Forms::KNITTED);
            assert_eq!(all.len(), readings, "{text}: {all:?}");
            assert_eq!(visited(&c, 0, Forms::KNITTED).len(), readings, "{text}");
        }
    }
}
