//! Fans made by combining sets: chows with chows (一般高, 清龙, 三色三步高 …) and pungs with
//! pungs (双同刻, 三同刻, 一色三节高 …), under the account principles of the rule book.
//!
//! - A fan over four sets uses them all; nothing else is combined (一色四同顺, 一色四步高,
//!   一色双龙会, 三色双龙会, 一色四节高).
//! - A fan over three sets is taken when one exists; the fourth set may then combine once with
//!   one of the three (套算一次).
//! - Otherwise pairs combine, each set new to the account joining once: the pairs taken form a
//!   forest, so four sets give at most three pair fans. Among equal choices the fans earlier in
//!   the official table are taken (greedy over a matroid finds that choice).

use arrayvec::ArrayVec;

use super::fan::Fan;
use crate::tile::Tile;

/// A chow by its lowest tile: suit index 0..3 and rank 1..7.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Run {
    suit: u8,
    rank: u8,
}

impl Run {
    fn of(t: Tile) -> Option<Run> {
        let suit = t.suit().numbered_index()? as u8;
        Some(Run {
            suit,
            rank: t.rank(),
        })
    }
}

/// The sets of `tiles` in numbered suits, in order of rank: every check below reads ranks in
/// that order, and any subset of them keeps it.
fn by_rank(tiles: &[Tile]) -> ArrayVec<Run, 4> {
    let mut sets: ArrayVec<Run, 4> = tiles.iter().filter_map(|&t| Run::of(t)).collect();
    sets.sort_unstable_by_key(|s| s.rank);
    sets
}

/// The fans of the hand's chows (given by their lowest tiles), with `pair` the hand's pair.
pub(super) fn chow_fans(chows: &[Tile], pair: Option<Tile>) -> ArrayVec<Fan, 4> {
    let runs = by_rank(chows);
    if runs.len() < 2 {
        return ArrayVec::new();
    }
    if runs.len() == 4
        && let Some(f) = four_chows(&runs, pair)
    {
        return std::iter::once(f).collect();
    }
    if let Some(best) = three_and_one(&runs, three_chows, two_chows) {
        return best;
    }
    pair_forest(&runs, two_chows)
}

/// The fans of the hand's suited pungs and kongs (given by their tiles).
pub(super) fn pung_fans(pungs: &[Tile]) -> ArrayVec<Fan, 4> {
    let sets = by_rank(pungs);
    if sets.len() < 2 {
        return ArrayVec::new();
    }
    if sets.len() == 4 && one_suit(&sets) && stepped(&sets, 1) {
        return std::iter::once(Fan::FourPureShiftedPungs).collect();
    }
    if let Some(best) = three_and_one(&sets, three_pungs, two_pungs) {
        return best;
    }
    pair_forest(&sets, two_pungs)
}

fn one_suit(sets: &[Run]) -> bool {
    sets.iter().all(|s| s.suit == sets[0].suit)
}

/// Distinct suits, one per set.
fn each_suit(sets: &[Run]) -> bool {
    sets.iter()
        .enumerate()
        .all(|(i, a)| sets[i + 1..].iter().all(|b| b.suit != a.suit))
}

/// Ranks (of sets in order of rank) forming r, r+step, r+2·step, ….
fn stepped(sets: &[Run], step: u8) -> bool {
    sets.windows(2).all(|w| w[1].rank == w[0].rank + step)
}

/// The ranks of three sets in order of rank are `want`.
fn ranks_are(sets: &[Run], want: [u8; 3]) -> bool {
    sets.len() == 3 && sets.iter().zip(want).all(|(s, r)| s.rank == r)
}

fn four_chows(runs: &[Run], pair: Option<Tile>) -> Option<Fan> {
    if one_suit(runs) {
        if stepped(runs, 0) {
            return Some(Fan::QuadrupleChow);
        }
        if stepped(runs, 1) || stepped(runs, 2) {
            return Some(Fan::FourPureShiftedChows);
        }
    }
    // 双龙会: 123 and 789 twice around a pair of fives.
    let pair = pair.and_then(Run::of).filter(|p| p.rank == 5)?;
    let lows = runs.iter().filter(|r| r.rank == 1).count();
    let highs = runs.iter().filter(|r| r.rank == 7).count();
    if lows != 2 || highs != 2 {
        return None;
    }
    let pairs_up = |suit: u8| {
        runs.iter().any(|r| r.suit == suit && r.rank == 1)
            && runs.iter().any(|r| r.suit == suit && r.rank == 7)
    };
    if one_suit(runs) && runs[0].suit == pair.suit {
        return Some(Fan::PureTerminalChows);
    }
    let suits: ArrayVec<u8, 4> = runs.iter().map(|r| r.suit).collect();
    let other_suits = suits.iter().all(|&s| s != pair.suit);
    if other_suits && suits.iter().all(|&s| pairs_up(s)) && !one_suit(runs) {
        return Some(Fan::ThreeSuitedTerminalChows);
    }
    None
}

fn three_chows(runs: &[Run]) -> Option<Fan> {
    if one_suit(runs) {
        if stepped(runs, 0) {
            return Some(Fan::PureTripleChow);
        }
        if ranks_are(runs, [1, 4, 7]) {
            return Some(Fan::PureStraight);
        }
        if stepped(runs, 1) || stepped(runs, 2) {
            return Some(Fan::PureShiftedChows);
        }
        return None;
    }
    if !each_suit(runs) {
        return None;
    }
    if stepped(runs, 0) {
        Some(Fan::MixedTripleChow)
    } else if ranks_are(runs, [1, 4, 7]) {
        Some(Fan::MixedStraight)
    } else if stepped(runs, 1) {
        Some(Fan::MixedShiftedChows)
    } else {
        None
    }
}

fn two_chows(a: Run, b: Run) -> Option<Fan> {
    if a.suit != b.suit {
        return (a.rank == b.rank).then_some(Fan::MixedDoubleChow);
    }
    match a.rank.abs_diff(b.rank) {
        0 => Some(Fan::PureDoubleChow),
        3 => Some(Fan::ShortStraight),
        6 => Some(Fan::TwoTerminalChows),
        _ => None,
    }
}

fn three_pungs(sets: &[Run]) -> Option<Fan> {
    if one_suit(sets) {
        return stepped(sets, 1).then_some(Fan::PureShiftedPungs);
    }
    if !each_suit(sets) {
        return None;
    }
    if stepped(sets, 0) {
        Some(Fan::TriplePung)
    } else if stepped(sets, 1) {
        Some(Fan::MixedShiftedPungs)
    } else {
        None
    }
}

fn two_pungs(a: Run, b: Run) -> Option<Fan> {
    (a.suit != b.suit && a.rank == b.rank).then_some(Fan::DoublePung)
}

/// The best fan over three of the sets, with what the remaining set (if any) adds combined
/// once with one of them.
fn three_and_one(
    sets: &[Run],
    three: fn(&[Run]) -> Option<Fan>,
    two: fn(Run, Run) -> Option<Fan>,
) -> Option<ArrayVec<Fan, 4>> {
    if sets.len() < 3 {
        return None;
    }
    let mut best: Option<ArrayVec<Fan, 4>> = None;
    for skip in 0..sets.len() {
        if sets.len() == 3 && skip > 0 {
            break;
        }
        let trio: ArrayVec<Run, 4> = sets
            .iter()
            .enumerate()
            .filter(|&(i, _)| sets.len() == 3 || i != skip)
            .map(|(_, &s)| s)
            .collect();
        let Some(f) = three(&trio) else { continue };
        let mut fans = ArrayVec::new();
        fans.push(f);
        if sets.len() == 4 {
            let extra = trio.iter().filter_map(|&s| two(sets[skip], s)).min();
            if let Some(e) = extra {
                fans.push(e);
            }
        }
        if best.as_ref().is_none_or(|b| better(&fans, b)) {
            best = Some(fans);
        }
    }
    best
}

/// Pair fans forming a forest, earliest in the table first.
fn pair_forest(sets: &[Run], two: fn(Run, Run) -> Option<Fan>) -> ArrayVec<Fan, 4> {
    let mut edges: ArrayVec<(Fan, usize, usize), 6> = ArrayVec::new();
    for i in 0..sets.len() {
        for j in i + 1..sets.len() {
            if let Some(f) = two(sets[i], sets[j]) {
                edges.push((f, i, j));
            }
        }
    }
    edges.sort_unstable();
    let mut component = [0usize, 1, 2, 3];
    let mut out = ArrayVec::new();
    for (f, i, j) in edges {
        let (a, b) = (component[i], component[j]);
        if a == b {
            continue;
        }
        for c in &mut component {
            if *c == b {
                *c = a;
            }
        }
        out.push(f);
    }
    out
}

/// Whether fan list `a` beats `b`: a larger total, or the same total with fans earlier in the
/// official table.
pub(super) fn better(a: &[Fan], b: &[Fan]) -> bool {
    let total = |l: &[Fan]| l.iter().map(|f| f.value()).sum::<i64>();
    let (ta, tb) = (total(a), total(b));
    if ta != tb {
        return ta > tb;
    }
    let mut sa: ArrayVec<Fan, 4> = a.iter().copied().collect();
    let mut sb: ArrayVec<Fan, 4> = b.iter().copied().collect();
    sa.sort_unstable();
    sb.sort_unstable();
    sa < sb
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(s: &str) -> Vec<Tile> {
        crate::tile::parse_tiles(s).expect("tiles")
    }

    #[test]
    fn four_chows_without_a_three_fan_give_at_most_three_pair_fans() {
        // 123m 123m 456m 123p: 一般高, 喜相逢 (the first 123m with 123p), 连六.
        let fans = chow_fans(&tiles("1m1m4m1p"), tiles("5s").first().copied());
        assert_eq!(
            fans.as_slice(),
            [
                Fan::PureDoubleChow,
                Fan::MixedDoubleChow,
                Fan::ShortStraight
            ]
        );
    }

    #[test]
    fn a_straight_and_the_fourth_chow_combine_once() {
        let fans = chow_fans(&tiles("1m4m7m1p"), tiles("2z").first().copied());
        assert_eq!(fans.as_slice(), [Fan::PureStraight, Fan::MixedDoubleChow]);
    }

    #[test]
    fn pungs_of_one_rank_in_two_suits_twice_are_two_double_pungs() {
        let fans = pung_fans(&tiles("2m2p5m5s"));
        assert_eq!(fans.as_slice(), [Fan::DoublePung, Fan::DoublePung]);
        assert_eq!(
            pung_fans(&tiles("2m3m4m5m")).as_slice(),
            [Fan::FourPureShiftedPungs]
        );
    }

    #[test]
    fn the_suit_of_the_honors_never_combines() {
        assert!(pung_fans(&tiles("1z1z")).is_empty());
    }
}
