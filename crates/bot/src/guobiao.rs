//! Guobiao goals for the strong bot: a win needs 8 fans without flowers, so a hand is only as
//! close to winning as it is to a shape that scores them.
//!
//! - **Targets.** Each decision measures the hand against a few shapes (a [`Target`]): the
//!   plain hand, 清一色 and 混一色 in each suit, 七对, 全不靠 / 组合龙, 十三幺, 碰碰和, 大于五 and
//!   小于五, 推不倒, 清龙, the six 花龙 and the seven 三色三同顺. A target is a set of kinds the
//!   hand may keep, or three fixed chows, or pungs only; its distance is the shanten of the hand
//!   restricted to it (a declared meld outside it rules it out).
//! - **Fans.** A target that scores 8 on its own is sure; the others (the plain hand, 混一色 6,
//!   碰碰和 6) add a penalty of one step per two fans missing, counting the fans already in hand
//!   (箭刻 and wind pungs, 门前清). A candidate's figure is the lowest distance plus penalty.
//! - **Ready hands.** A ready hand is valued by the engine's own win check
//!   ([`wait_value_with`]: unseen copies × what the win pays): a wait that scores under 8 is
//!   worth nothing, and a hand whose every wait is worthless counts as one step from ready.
//! - **Claims.** A chow, pung or kong is taken only when the best discard after it lowers the
//!   figure (a kong: when it keeps it), so a claim never breaks the plan it serves.
//! - **Defence.** The same danger tie-break as the other families (`strong.rs`).
//!
//! Wins are always taken: the engine lists only wins that reach the minimum.
//!
//! Kept because it won in the arena (docs/PERFORMANCE.md, Guobiao): the whole of the above took
//! the strong level from level with `basic` (+0.47 ± 1.23 a hand with the Sichuan logic, which
//! sat ready on waits that could not score 8) to +8.5 ± 0.46 over 20,000 hands. Claims are
//! worth it: taking none lost clearly (+5.2 against +8.1 on the same 5,000 hands). What lost or
//! changed nothing: a pung that only keeps the figure (as in Sichuan; +7.7), capping the plain
//! hand's penalty at two steps, and leaving 门前清 out of the fans already held (both inside
//! the noise).

use engine::shape::{self, Forms};
use engine::view::SeatView;
use engine::wall::SeededRng;
use engine::{Action, Meld, MeldKind, Suit, Tile, TileCounts};

use crate::basic::{discard_tiles, fallback, run};
use crate::efficiency::{Candidate, Seen, own_melds, wait_value_with};
use crate::plan::{self, Plan};
use crate::strong::safest_discard;

/// Fans a win needs, flowers excluded.
const MINIMUM: i64 = 8;
/// Shanten from which a target is out of reach.
const OUT_OF_REACH: i8 = 20;
/// Every playing kind.
const ALL: u64 = (1 << 34) - 1;
/// The honor kinds.
const HONORS: u64 = 0x7F << 27;

/// The strong policy's decision in a Guobiao hand.
pub(crate) fn decide(view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
    if let Some(&win) = legal
        .iter()
        .find(|a| matches!(a, Action::Win | Action::SelfDrawWin))
    {
        return win;
    }
    let planner = Planner::new(view);
    let melds = own_melds(view);
    let hand = view.concealed;
    let discards = discard_tiles(legal);
    if discards.is_empty() {
        return plan::claim(view, legal, &planner, &hand, &melds)
            .unwrap_or_else(|| fallback(legal, rng));
    }
    let mut scored: Vec<Candidate> = discards
        .iter()
        .map(|&tile| {
            let mut h = hand;
            h.remove(tile);
            let e = planner.eval(&h, &melds);
            Candidate {
                tile,
                shanten: e.steps,
                useful: u32::try_from(e.value).unwrap_or(u32::MAX),
            }
        })
        .collect();
    let Some(best) = scored.iter().map(|c| c.shanten).min() else {
        return fallback(legal, rng);
    };
    if let Some(kong) = plan::own_kong(legal, &planner, &hand, &melds, best) {
        return kong;
    }
    if best > 0 {
        let live = planner.live(&hand, &melds, best);
        for c in scored.iter_mut().filter(|c| c.shanten == best) {
            let mut h = hand;
            h.remove(c.tile);
            c.useful = planner.useful(&h, &melds, best, &live);
        }
    }
    safest_discard(view, &planner.seen, &scored, legal, rng)
}

/// Claims and kongs are weighed by steps alone; a claim is taken when its best discard brings
/// the hand closer to a scoring win, an exposed kong when it keeps it as close (a step further
/// when it opens a concealed hand).
impl Plan for Planner<'_> {
    type Key = i8;

    fn measure(&self, hand: &TileCounts, melds: &[Meld]) -> i8 {
        self.eval(hand, melds).steps
    }

    fn after_claim(
        &self,
        action: Action,
        _offered: Tile,
        hand: &TileCounts,
        melds: &[Meld],
    ) -> Option<i8> {
        match action {
            // The kong is the only meld: the hand was concealed before it.
            Action::ExposedKong => Some(
                self.measure(hand, melds)
                    .saturating_add(i8::from(melds.len() == 1)),
            ),
            _ => self.best_discard(hand, melds, None),
        }
    }

    fn takes(&self, action: Action, after: i8, now: i8) -> bool {
        match action {
            Action::ExposedKong => after <= now,
            _ => after < now,
        }
    }
}

/// A target shape: what the hand may keep, and the fans it scores on its own.
#[derive(Clone, Copy, Debug)]
struct Target {
    shape: Shape,
    /// Fans the shape scores by itself (8 or more: sure to reach the minimum).
    fans: i64,
}

#[derive(Clone, Copy, Debug)]
enum Shape {
    /// Only the kinds in the mask, in one of `forms`.
    Keep { mask: u64, forms: Forms },
    /// Three fixed chows (their lowest tiles), one more set and a pair.
    Chows([Tile; 3]),
    /// Pungs (or kongs) and a pair.
    Pungs,
}

/// The figure of one 3k+1 hand: steps from a scoring win (0 = ready with a wait that scores),
/// and for a ready hand what its waits are worth.
#[derive(Clone, Copy, Debug)]
struct Eval {
    steps: i8,
    value: i64,
}

/// Everything a decision measures against, built once per decision.
struct Planner<'a> {
    view: &'a SeatView,
    seen: Seen,
    targets: Vec<Target>,
    /// The honor kinds whose pung scores (dragons, the seat and round winds), with its fans.
    honor_fans: [i64; 7],
}

impl<'a> Planner<'a> {
    fn new(view: &'a SeatView) -> Planner<'a> {
        let mut honor_fans = [0i64; 7];
        for f in honor_fans.iter_mut().skip(4) {
            *f = 2;
        }
        let seat_wind = view.seat.wind(view.dealer, 4).tile();
        let round_wind = view.round_wind.tile();
        for w in [seat_wind, round_wind] {
            if let Some(f) = honor_fans.get_mut(w.index() - 27) {
                *f += 2;
            }
        }
        Planner {
            view,
            seen: Seen::of(view),
            targets: targets(),
            honor_fans,
        }
    }

    /// The figure of a 3k+1 hand with `melds` declared.
    fn eval(&self, hand: &TileCounts, melds: &[Meld]) -> Eval {
        let plain = shape::shanten(
            hand,
            melds.len() as u8,
            engine::variants::guobiao::score::FORMS,
        );
        if plain == 0 {
            let value = wait_value_with(self.view, hand, melds, &self.seen);
            if value > 0 {
                return Eval { steps: 0, value };
            }
        }
        let bonus = self.bonus(hand, melds);
        let steps = self
            .targets
            .iter()
            .map(|t| self.figure(t, hand, melds, bonus))
            .min()
            .unwrap_or(OUT_OF_REACH)
            .max(plain)
            .max(1);
        Eval { steps, value: 0 }
    }

    /// Targets worth following from this 3k+2 hand: within two steps of the best.
    fn live(&self, hand: &TileCounts, melds: &[Meld], best: i8) -> Vec<Target> {
        let bonus = self.bonus(hand, melds);
        self.targets
            .iter()
            .filter(|t| self.figure(t, hand, melds, bonus) <= best + 2)
            .copied()
            .collect()
    }

    /// Unseen copies of the draws that bring a 3k+1 hand at `steps` closer to a live target.
    fn useful(&self, hand: &TileCounts, melds: &[Meld], steps: i8, live: &[Target]) -> u32 {
        let mut total = 0;
        let mut h = *hand;
        for t in Tile::playing() {
            let left = self.seen.unseen(self.view.tile_set, t);
            if left == 0 || hand.get(t) >= 4 {
                continue;
            }
            h.add(t);
            let bonus = self.bonus(&h, melds);
            // On 3k+2 tiles a shanten is already the best after a discard.
            if live
                .iter()
                .any(|target| self.figure(target, &h, melds, bonus) < steps)
            {
                total += u32::from(left);
            }
            h.remove(t);
        }
        total
    }

    /// Distance to `target` plus one step per two fans it still lacks.
    fn figure(&self, target: &Target, hand: &TileCounts, melds: &[Meld], bonus: i64) -> i8 {
        let d = distance(target.shape, hand, melds);
        if d >= OUT_OF_REACH {
            return OUT_OF_REACH;
        }
        let mut fans = target.fans + bonus;
        if let Shape::Pungs = target.shape {
            // 双暗刻 on top of 碰碰和.
            if hand.0.iter().filter(|&&n| n >= 3).count() >= 2 {
                fans += 2;
            }
        }
        let missing = (MINIMUM - fans).max(0);
        d + ((missing + 1) / 2) as i8
    }

    /// Fans the hand already holds whatever its shape: honor pungs that score, 门前清.
    fn bonus(&self, hand: &TileCounts, melds: &[Meld]) -> i64 {
        let mut fans = 0;
        for (i, &f) in self.honor_fans.iter().enumerate() {
            if f == 0 {
                continue;
            }
            let held = hand.0.get(27 + i).copied().unwrap_or(0) >= 3;
            let melded = melds
                .iter()
                .any(|m| m.is_pung_or_kong() && m.tile.index() == 27 + i);
            if held || melded {
                fans += f;
            }
        }
        if melds.iter().all(Meld::is_concealed) {
            fans += 2;
        }
        fans
    }
}

/// Shanten of `hand` towards `shape` with `melds` declared ([`OUT_OF_REACH`] when a meld
/// rules it out).
fn distance(shape: Shape, hand: &TileCounts, melds: &[Meld]) -> i8 {
    let m = melds.len() as u8;
    match shape {
        Shape::Keep { mask, forms } => {
            if melds
                .iter()
                .any(|x| x.tiles().iter().any(|t| mask & (1 << t.index()) == 0))
            {
                return OUT_OF_REACH;
            }
            let mut c = *hand;
            for (i, n) in c.0.iter_mut().enumerate() {
                if mask & (1 << i) == 0 {
                    *n = 0;
                }
            }
            shape::shanten(&c, m, forms).min(OUT_OF_REACH)
        }
        Shape::Chows(lows) => {
            let mut done = [false; 3];
            let mut free = 0;
            for x in melds {
                match lows
                    .iter()
                    .zip(done.iter_mut())
                    .find(|(l, d)| x.kind == MeldKind::Chow && x.tile == **l && !**d)
                {
                    Some((_, d)) => *d = true,
                    None => free += 1,
                }
            }
            if free > 1 {
                return OUT_OF_REACH;
            }
            let mut rest = *hand;
            let mut missing = 0i8;
            let mut open = 0u8;
            for (&low, _) in lows.iter().zip(done).filter(|(_, d)| !d) {
                open += 1;
                for t in run(low) {
                    if !rest.remove(t) {
                        missing += 1;
                    }
                }
            }
            missing + shape::shanten(&rest, m + open, Forms::STANDARD).min(OUT_OF_REACH)
        }
        Shape::Pungs => {
            if melds.iter().any(|x| !x.is_pung_or_kong()) {
                return OUT_OF_REACH;
            }
            pungs_distance(hand, 4u8.saturating_sub(m)) - 1
        }
    }
}

/// Tiles to add so that `hand` holds `sets` pungs and a pair.
fn pungs_distance(hand: &TileCounts, sets: u8) -> i8 {
    let (mut trips, mut pairs, mut singles) = (0i8, 0i8, 0i8);
    for &n in &hand.0 {
        match n {
            0 => {}
            1 => singles += 1,
            2 => pairs += 1,
            _ => trips += 1,
        }
    }
    let sets = sets as i8;
    // The pair from a pair, else a single, else nothing; then the sets, cheapest first.
    let mut best = i8::MAX;
    for (pair_cost, dp, ds) in [(0, 1, 0), (1, 0, 1), (2, 0, 0)] {
        if pairs < dp || singles < ds {
            continue;
        }
        let (p, s) = (pairs - dp, singles - ds);
        let mut need = sets;
        let mut cost = pair_cost;
        let from_trips = trips.min(need);
        need -= from_trips;
        let from_pairs = p.min(need);
        need -= from_pairs;
        cost += from_pairs;
        let from_singles = s.min(need);
        need -= from_singles;
        cost += 2 * from_singles + 3 * need;
        best = best.min(cost);
    }
    best
}

/// The targets measured at every decision.
fn targets() -> Vec<Target> {
    let standard_or_pairs = Forms::STANDARD.with(Forms::SEVEN_PAIRS);
    let keep = |mask: u64, forms: Forms, fans: i64| Target {
        shape: Shape::Keep { mask, forms },
        fans,
    };
    let mut out = vec![
        keep(ALL, Forms::STANDARD, 0),
        keep(ALL, Forms::SEVEN_PAIRS, 24),
        keep(ALL, Forms::KNITTED, 12),
        keep(ALL, Forms::THIRTEEN_ORPHANS, 88),
        Target {
            shape: Shape::Pungs,
            fans: 6,
        },
        keep(ranks_mask(6..=9), standard_or_pairs, 12),
        keep(ranks_mask(1..=4), standard_or_pairs, 12),
        keep(reversible_mask(), standard_or_pairs, 8),
    ];
    for s in 0..3 {
        let suit = 0x1FFu64 << (9 * s);
        out.push(keep(suit, standard_or_pairs, 24));
        out.push(keep(suit | HONORS, Forms::STANDARD, 6));
        let t = |r: u8| tile(Suit::NUMBERED[s], r);
        out.push(Target {
            shape: Shape::Chows([t(1), t(4), t(7)]),
            fans: 16,
        });
    }
    for [a, b, c] in [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ] {
        out.push(Target {
            shape: Shape::Chows([
                tile(Suit::NUMBERED[a], 1),
                tile(Suit::NUMBERED[b], 4),
                tile(Suit::NUMBERED[c], 7),
            ]),
            fans: 8,
        });
    }
    for r in 1..=7 {
        out.push(Target {
            shape: Shape::Chows(Suit::NUMBERED.map(|s| tile(s, r))),
            fans: 8,
        });
    }
    out
}

fn tile(suit: Suit, rank: u8) -> Tile {
    Tile::new(suit, rank).unwrap_or_else(|| unreachable!("ranks 1..=9 exist in every suit"))
}

fn ranks_mask(ranks: std::ops::RangeInclusive<u8>) -> u64 {
    let mut mask = 0;
    for s in Suit::NUMBERED {
        for r in ranks.clone() {
            mask |= 1 << tile(s, r).index();
        }
    }
    mask
}

/// 推不倒: 1234589p, 245689s and 白.
fn reversible_mask() -> u64 {
    let mut mask = 1 << tile(Suit::Honor, 5).index();
    for r in [1, 2, 3, 4, 5, 8, 9] {
        mask |= 1 << tile(Suit::Pin, r).index();
    }
    for r in [2, 4, 5, 6, 8, 9] {
        mask |= 1 << tile(Suit::Sou, r).index();
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(s: &str) -> TileCounts {
        TileCounts::parse(s).expect("hand")
    }

    #[test]
    fn pungs_distance_counts_missing_tiles() {
        // Four pungs and a pair, complete.
        assert_eq!(pungs_distance(&counts("111m222p333s444z55z"), 4), 0);
        // Ready on a pair wait.
        assert_eq!(pungs_distance(&counts("111m222p333s444z5z"), 4), 1);
        // Five pairs: one stays the pair, four need a third tile each.
        assert_eq!(pungs_distance(&counts("11m22p33s44z55z6z7z"), 4), 4);
    }

    #[test]
    fn a_fixed_straight_counts_its_missing_tiles() {
        let lows = [tile(Suit::Man, 1), tile(Suit::Man, 4), tile(Suit::Man, 7)];
        // 123456789m with 11p and 45s: ready (needs 3s or 6s... one set short of a wait).
        assert_eq!(
            distance(Shape::Chows(lows), &counts("123456789m11p45s"), &[]),
            0
        );
        assert_eq!(
            distance(Shape::Chows(lows), &counts("12345689m11p45s1z"), &[]),
            1
        );
    }
}
