//! Shanghai goals for the strong bot: only 碰碰胡, 混一色, 清一色 and the rows above them win, so a
//! hand is only as close to winning as it is to one of those types.
//!
//! - **Targets.** Each decision measures the hand against the qualifying types (a [`Target`]):
//!   碰碰胡 on any tiles, and in each suit 混一色, 清一色, 混碰 and 清碰; 风碰 on honors alone. A
//!   target is a set of kinds the hand may keep, with four sets or four pungs; its distance is
//!   the shanten of the hand restricted to it (a declared meld outside it rules it out: a chow
//!   ends 碰碰胡, a meld of a second suit ends the flushes). A pung must still be makeable: a
//!   pair whose other two copies are visible can only be the pair.
//! - **Value.** 碰碰胡 and 混一色 pay 底分 + 花 (about 4 with the default options), the others a
//!   fixed 勒子 or more (10, 20, 40). A type that pays 底分 + 花 counts two steps further than
//!   its distance, or one step once another seat shows melds that could belong to a
//!   qualifying hand (a race: it may win first); none when its 底分 + 花 already reaches a
//!   勒子. The figure of a hand is its lowest over the targets.
//! - **Ready hands.** A ready hand is valued by the engine's own win check
//!   ([`wait_value_with`]: unseen copies × the share the win pays, 大吊车 and 花 included): a
//!   wait that does not qualify is worth nothing, and a hand whose every wait is worthless is
//!   not ready. Among ready discards the waits that pay most are kept.
//! - **Claims and kongs.** A chow, pung or kong is taken when the best discard after it leaves
//!   the figure no worse (and a ready hand waiting on no less): a claim is a free tile, and
//!   four claimed melds make any qualifying win a 大吊车 of one 勒子. A claim that breaks the
//!   only close target (a chow against 碰碰胡, a pung of a second suit against a flush) raises
//!   the figure and is refused.
//! - **Defence.** The same danger tie-break as the other families (`strong.rs`). A hand with
//!   no qualifying type left in reach has no useful tiles, so danger alone picks its discards.
//!
//! Wins are always taken: the engine lists only wins of a qualifying type. 八花齐 needs no plan
//! (flowers are set aside by the engine), and the rules have no concealed-only type (no 七对,
//! no 门清), so no claim is refused for keeping the hand closed.
//!
//! Kept because it won in the arena (docs/PERFORMANCE.md, Shanghai; 10,000 hands against three
//! `basic` seats unless said): the targets alone took the strong level from +1.2 a hand (its
//! Sichuan logic, which sat ready on waits that could not qualify) to +12.4; the two-step
//! value penalty to +15.8, and claims at an equal figure to +16.7. A flat two steps lost to the
//! same bot without them (−0.55 ± 0.21 a seat, two seats each); dropping to one step in a race
//! made that level (+0.02 ± 0.19) for about 0.8 a hand against `basic`. What lost or changed
//! nothing: one or three steps (+13.4, +14.2), steps scaled by the 花 already held, no chows at
//! all (−0.7), useful tiles weighted by the value of the target they serve, a smaller penalty
//! late in the wall, no penalty once three melds are down, and a race read from discards too.

use engine::shape::{self, Forms};
use engine::variants::shanghai;
use engine::view::{MeldView, SeatView};
use engine::wall::SeededRng;
use engine::{Action, KongKind, Meld, MeldKind, Tile, TileCounts};

use crate::basic::{discard_tiles, fallback};
use crate::efficiency::{Candidate, Seen, own_melds, wait_value_with};
use crate::plan::{self, Plan};
use crate::strong::safest_discard;

/// Shanten from which a target is out of reach.
pub(crate) const OUT_OF_REACH: i8 = 20;
/// Every playing kind.
pub(crate) const ALL: u64 = (1 << 34) - 1;
/// The honor kinds.
pub(crate) const HONORS: u64 = 0x7F << 27;
/// Steps added to a type that pays 底分 + 花 rather than a fixed 勒子, while no other seat
/// shows melds that could belong to a qualifying hand.
const LOW_SHARE_STEPS: i8 = 2;
/// The same once another seat shows such melds: it may win first, so speed is worth more.
const LOW_SHARE_STEPS_IN_A_RACE: i8 = 1;

/// The strong policy's decision in a Shanghai hand.
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
    let Some(best) = scored
        .iter()
        .map(|c| Eval {
            steps: c.shanten,
            value: i64::from(c.useful),
        })
        .min_by_key(|e| (e.steps, std::cmp::Reverse(e.value)))
    else {
        return fallback(legal, rng);
    };
    if let Some(kong) = plan::own_kong(legal, &planner, &hand, &melds, best.key()) {
        return kong;
    }
    if best.steps > 0 {
        let live = planner.live(&hand, &melds, best.steps);
        for c in scored.iter_mut().filter(|c| c.shanten == best.steps) {
            let mut h = hand;
            h.remove(c.tile);
            c.useful = planner.useful(&h, &melds, best.steps, &live);
        }
    }
    safest_discard(view, &planner.seen, &scored, legal, rng)
}

/// One qualifying type as a shape to reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Target {
    /// The kinds the hand may keep.
    mask: u64,
    /// Pungs (or kongs) only, else any four sets.
    pungs: bool,
    /// Whether the type pays 底分 + 花 (碰碰胡, 混一色) rather than a fixed 勒子.
    low: bool,
}

/// The targets measured at every decision: 碰碰胡, 风碰, and per suit 混一色, 清一色, 混碰, 清碰.
fn targets() -> [Target; 14] {
    let target = |mask: u64, pungs: bool, low: bool| Target { mask, pungs, low };
    let mut out = [target(ALL, true, true); 14];
    out[1] = target(HONORS, true, false);
    for s in 0..3 {
        let suit = 0x1FFu64 << (9 * s);
        out[2 + 4 * s] = target(suit | HONORS, false, true);
        out[3 + 4 * s] = target(suit, false, false);
        out[4 + 4 * s] = target(suit | HONORS, true, false);
        out[5 + 4 * s] = target(suit, true, false);
    }
    out
}

/// The figure of one 3k+1 hand: steps from a qualifying win (0 = ready with a wait that pays),
/// and for a ready hand what its waits are worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Eval {
    steps: i8,
    value: i64,
}

impl Eval {
    /// Lower is better: closer, then (when ready) waiting on more.
    fn key(self) -> (i8, std::cmp::Reverse<i64>) {
        (self.steps, std::cmp::Reverse(self.value))
    }
}

/// Everything a decision measures against, built once per decision.
struct Planner<'a> {
    view: &'a SeatView,
    seen: Seen,
    targets: [Target; 14],
    /// Steps added to the types that pay 底分 + 花 while that share is below one 勒子.
    low_steps: i8,
}

impl<'a> Planner<'a> {
    fn new(view: &'a SeatView) -> Planner<'a> {
        let options = view.ruleset.values();
        let flowers = view
            .seats
            .get(view.seat.index())
            .map_or(0, |s| s.flowers.len() as i64);
        let low_share = shanghai::BASE.int_in(options)
            + shanghai::HUA.int_in(options) * (flowers + known_hua(view));
        Planner {
            view,
            seen: Seen::of(view),
            targets: targets(),
            low_steps: if low_share >= shanghai::LEZI.int_in(options) {
                0
            } else if racing(view) {
                LOW_SHARE_STEPS_IN_A_RACE
            } else {
                LOW_SHARE_STEPS
            },
        }
    }

    /// Distance to `target` plus the steps its share costs.
    fn figure(&self, target: Target, hand: &TileCounts, melds: &[Meld]) -> i8 {
        let d = distance(target, hand, melds, &self.seen);
        if target.low { d + self.low_steps } else { d }
    }

    /// The figure of a 3k+1 hand with `melds` declared.
    fn eval(&self, hand: &TileCounts, melds: &[Meld]) -> Eval {
        let mut steps = OUT_OF_REACH;
        let mut ready = false;
        for &t in &self.targets {
            let d = distance(t, hand, melds, &self.seen);
            ready |= d == 0;
            steps = steps.min(if t.low { d + self.low_steps } else { d });
        }
        if ready {
            let value = wait_value_with(self.view, hand, melds, &self.seen);
            if value > 0 {
                return Eval { steps: 0, value };
            }
        }
        Eval {
            steps: steps.max(1),
            value: 0,
        }
    }

    /// Targets worth following from this 3k+2 hand: those at the best figure (one draw cannot
    /// bring any other below it).
    fn live(&self, hand: &TileCounts, melds: &[Meld], best: i8) -> Vec<Target> {
        self.targets
            .iter()
            .filter(|t| self.figure(**t, hand, melds) <= best)
            .copied()
            .collect()
    }

    /// Unseen copies of the draws that bring a 3k+1 hand at `steps` closer to a live target.
    fn useful(&self, hand: &TileCounts, melds: &[Meld], steps: i8, live: &[Target]) -> u32 {
        let mut total = 0;
        let mut h = *hand;
        let keep = live.iter().fold(0u64, |m, t| m | t.mask);
        for t in Tile::playing() {
            let left = self.seen.unseen(self.view.tile_set, t);
            if left == 0 || hand.get(t) >= 4 || keep & (1 << t.index()) == 0 {
                continue;
            }
            h.add(t);
            // On 3k+2 tiles a shanten is already the best after a discard.
            if live
                .iter()
                .any(|target| self.figure(*target, &h, melds) < steps)
            {
                total += u32::from(left);
            }
            h.remove(t);
        }
        total
    }
}

impl Plan for Planner<'_> {
    type Key = (i8, std::cmp::Reverse<i64>);

    fn measure(&self, hand: &TileCounts, melds: &[Meld]) -> Self::Key {
        self.eval(hand, melds).key()
    }
}

/// Whether another seat has declared melds that could all belong to a qualifying hand (pungs
/// and kongs only, or one numbered suit with honors): a seat that may win soon.
fn racing(view: &SeatView) -> bool {
    view.seats
        .iter()
        .enumerate()
        .filter(|&(i, p)| i != view.seat.index() && p.won.is_none() && !p.melds.is_empty())
        .any(|(_, p)| {
            let mut pungs = true;
            let mut suits = 0u8;
            for m in &p.melds {
                if let MeldView::Open(meld) = m {
                    pungs &= meld.is_pung_or_kong();
                    if let Some(i) = meld.tile.suit().numbered_index() {
                        suits |= 1 << i;
                    }
                }
            }
            pungs || suits.count_ones() <= 1
        })
}

/// 花 the hand holds whatever its final shape: honor pungs (in hand or declared) and kongs.
fn known_hua(view: &SeatView) -> i64 {
    let mut hua = 0;
    for m in own_melds(view) {
        let t = m.tile;
        hua += match (m.kind, t.is_wind(), t.is_dragon()) {
            (MeldKind::Pung, true, _) => 1,
            (MeldKind::Pung, _, true) => 2,
            (MeldKind::Kong(KongKind::Concealed), false, false) => 2,
            (MeldKind::Kong(KongKind::Concealed), true, _) => 3,
            (MeldKind::Kong(KongKind::Concealed), _, true) => 4,
            (MeldKind::Kong(_), false, false) => 1,
            (MeldKind::Kong(_), true, _) => 2,
            (MeldKind::Kong(_), _, true) => 3,
            _ => 0,
        };
    }
    for t in Tile::playing().filter(|t| t.is_honor() && view.concealed.get(*t) >= 3) {
        hua += if t.is_wind() { 1 } else { 2 };
    }
    hua
}

/// Shanten of `hand` towards `target` with `melds` declared ([`OUT_OF_REACH`] when a meld
/// rules it out). `seen` tells which pungs can still be completed.
fn distance(target: Target, hand: &TileCounts, melds: &[Meld], seen: &Seen) -> i8 {
    masked_distance(target.mask, target.pungs, hand, melds, seen)
}

/// Shanten of `hand` towards four sets and a pair (four pungs and a pair when `pungs`) made
/// only of the kinds in `mask` (bit = tile index), with `melds` declared; [`OUT_OF_REACH`]
/// when a meld rules it out. `seen` tells which pungs can still be completed.
pub(crate) fn masked_distance(
    mask: u64,
    pungs: bool,
    hand: &TileCounts,
    melds: &[Meld],
    seen: &Seen,
) -> i8 {
    let outside = |x: &Meld| x.tiles().iter().any(|t| mask & (1 << t.index()) == 0);
    if melds
        .iter()
        .any(|x| outside(x) || (pungs && !x.is_pung_or_kong()))
    {
        return OUT_OF_REACH;
    }
    let mut c = *hand;
    for (i, n) in c.0.iter_mut().enumerate() {
        if mask & (1 << i) == 0 {
            *n = 0;
        }
    }
    let m = melds.len() as u8;
    if pungs {
        pung_shanten(&c, 4u8.saturating_sub(m), seen)
    } else {
        shape::shanten(&c, m, Forms::STANDARD).min(OUT_OF_REACH)
    }
}

/// Shanten towards `sets` pungs and a pair from the kinds held in `hand`: a pung needs its
/// missing copies still unseen, so a pair whose other two copies are visible can only be the
/// pair. A set or pair of a kind not held costs three or two tiles.
fn pung_shanten(hand: &TileCounts, sets: u8, seen: &Seen) -> i8 {
    const DEAD: i8 = OUT_OF_REACH;
    // For every held kind: (tiles it lacks as a pung, tiles it lacks as the pair).
    let mut all = [(DEAD, DEAD); 14];
    let mut len = 0;
    for t in hand.kinds().iter().take(all.len()) {
        let n = hand.get(t).min(3) as i8;
        // Seen counts the hand's own copies too (a draw being weighed may add one more).
        let left = 4 - seen.get(t).max(hand.get(t)).min(4) as i8;
        let lacks = |want: i8| {
            let missing = (want - n).max(0);
            if missing <= left { missing } else { DEAD }
        };
        all[len] = (lacks(3), lacks(2));
        len += 1;
    }
    let kinds = &mut all[..len];
    kinds.sort_unstable();
    let sets = usize::from(sets);
    // The cheapest `sets` pungs among the kinds other than the pair's, fresh kinds costing 3.
    let pungs = |skip: Option<usize>| -> i8 {
        let mut total = 0i8;
        let mut taken = 0;
        for (i, &(pung, _)) in kinds.iter().enumerate() {
            if taken == sets {
                break;
            }
            if Some(i) == skip {
                continue;
            }
            total = total.saturating_add(pung.min(3));
            taken += 1;
        }
        total + 3 * (sets - taken) as i8
    };
    let mut best = 2 + pungs(None);
    for (i, &(_, pair)) in kinds.iter().enumerate() {
        if pair < DEAD {
            best = best.min(pair + pungs(Some(i)));
        }
    }
    (best - 1).min(OUT_OF_REACH)
}

#[cfg(test)]
mod tests {
    use engine::ruleset::Ruleset;

    use super::*;
    use crate::testkit::{counts, t};
    use engine::RulesetId;

    /// South's view early in a Shanghai hand (see [`crate::testkit::view`]).
    fn view(concealed: &str, offered: Option<&str>, claims: &[Action]) -> SeatView {
        let ruleset = Ruleset::with_defaults(RulesetId::Shanghai).expect("defaults");
        crate::testkit::view(ruleset, concealed, offered, claims)
    }

    fn decisions(view: &SeatView) -> Vec<Action> {
        crate::testkit::decisions(view, decide)
    }

    #[test]
    fn a_listed_win_is_always_taken() {
        let v = view(
            "111m222p333s44z55z",
            Some("4z"),
            &[Action::Win, Action::Pung, Action::Pass],
        );
        assert!(decisions(&v).iter().all(|&a| a == Action::Win));
    }

    #[test]
    fn a_hand_leaning_to_one_suit_keeps_to_the_flush() {
        // Plain efficiency keeps the 56p run and throws 1m; the flush keeps every man tile.
        let v = view("112355566778m56p", None, &[]);
        for a in decisions(&v) {
            let Action::Discard { tile } = a else {
                panic!("{a} is not a discard")
            };
            assert_eq!(tile.suit(), engine::Suit::Pin, "threw {tile}");
        }
    }

    #[test]
    fn a_pung_heavy_hand_claims_pungs_toward_pengpeng() {
        let v = view(
            "11m22p33s55m77p9s15z",
            Some("1m"),
            &[Action::Pung, Action::Pass],
        );
        assert!(decisions(&v).iter().all(|&a| a == Action::Pung));
    }

    #[test]
    fn a_chow_that_ends_pengpeng_is_refused() {
        // The chow would complete a run (plain efficiency takes it), but with a chow down no
        // qualifying type is near: 碰碰胡 is gone and the flushes are far.
        let v = view(
            "111m222p33s44s89s7z",
            Some("7s"),
            &[Action::Chow { low: t("7s") }, Action::Pass],
        );
        assert!(decisions(&v).iter().all(|&a| a == Action::Pass));
    }

    #[test]
    fn an_off_suit_pung_is_refused_in_a_flush_hand() {
        let v = view(
            "1234567m99m55z33p",
            Some("3p"),
            &[Action::Pung, Action::Pass],
        );
        assert!(decisions(&v).iter().all(|&a| a == Action::Pass));
    }

    #[test]
    fn a_wait_that_cannot_qualify_is_not_kept() {
        // Discarding 6m waits on 4m/7m (eight tiles) for a hand that is no qualifying type;
        // discarding 5m waits on 4z/6m for 碰碰胡.
        let v = view("111m222p333s44z566m", None, &[]);
        assert!(
            decisions(&v)
                .iter()
                .all(|&a| a == Action::Discard { tile: t("5m") })
        );
    }

    #[test]
    fn a_hand_that_cannot_qualify_is_not_ready() {
        let v = view("111m222p333s44z56m", None, &[]);
        let planner = Planner::new(&v);
        // Ready in shape on 4m/7m, but a win there is no qualifying type.
        let plain = planner.eval(&counts("111m222p333s44z56m"), &[]);
        assert!(plain.steps > 0 && plain.value == 0, "{plain:?}");
        let ready = planner.eval(&counts("111m222p333s44z66m"), &[]);
        assert_eq!(ready.steps, 0);
        assert!(ready.value > 0);
    }

    #[test]
    fn only_melds_that_could_qualify_make_a_race() {
        let open = |kind: MeldKind, tile: &str| {
            MeldView::Open(Meld {
                kind,
                tile: t(tile),
                from: None,
                claimed: None,
            })
        };
        let mut v = view("111m222p333s44z566m", None, &[]);
        assert!(!racing(&v));
        // A chow and a pung of another suit: no qualifying type is left to that seat.
        v.seats[2].melds = vec![open(MeldKind::Chow, "1m"), open(MeldKind::Pung, "5p")];
        assert!(!racing(&v));
        // Pungs only: it may be on its way to 碰碰胡.
        v.seats[3].melds = vec![open(MeldKind::Pung, "9s"), open(MeldKind::Pung, "2p")];
        assert!(racing(&v));
        assert_eq!(Planner::new(&v).low_steps, LOW_SHARE_STEPS_IN_A_RACE);
    }

    #[test]
    fn a_pair_whose_copies_are_gone_is_only_the_pair() {
        let hand = "111m55m222p33s44s7z";
        let mut v = view(hand, None, &[]);
        let seen = Seen::of(&v);
        // Two trips, three pairs: one pair is the pair, the other two become pungs.
        assert_eq!(pung_shanten(&counts(hand), 4, &seen), 1);
        // Both other 3s and both other 4s are visible: one of those pairs can be the pair, the
        // other cannot grow, so the fourth pung starts from 7z.
        v.seats[0].discards = vec![t("3s"), t("3s"), t("4s"), t("4s")];
        let seen = Seen::of(&v);
        assert_eq!(pung_shanten(&counts(hand), 4, &seen), 2);
    }
}
