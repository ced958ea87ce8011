//! The strong level in the Suzhou preset. There 门清 and 自摸 each double the hand and 七对 is
//! 4 fan against 平胡's 1, but the hand ends at the first win, so speed is worth most.
//!
//! - **Seven pairs** is followed by a concealed hand when it is strictly closer to ready than a
//!   plain hand (七对 concealed is 8 fan against 平胡's 2).
//! - **Shapes.** Efficiency counts only the Suzhou shapes (four sets and a pair, and 七对): the
//!   shared goal's 十三幺 is not a hand here.
//! - **Claims** are taken as `basic` takes them (when they lower shanten).
//! - **Waits.** Among discards that leave the hand ready, the waits are weighed by what they
//!   would win (the engine's own win check), as in the other families.
//! - **Defence** is the danger tie-break of `strong.rs`.
//!
//! Measured against three `basic` seats (docs/PERFORMANCE.md, 5,000 hands, seed 1) and not
//! kept: staying concealed unless a claim makes the hand ready (−0.17 a hand: it won 16 % of
//! its hands against `basic`'s 28 %), passing discard wins while the wall is long to wait for a
//! self-draw that all three pay (−0.08 to −0.15), and following seven pairs whenever they are
//! as close as a plain hand (−0.11). Wins are always taken.
//!
//! Tried later and not kept (20,000 hands, seeds 1 and 2, docs/PERFORMANCE.md): the Guangdong
//! planner (`fan_plan.rs`) with Suzhou's worths, at several weights of a doubling against a
//! step (level at best, −0.09 at Guangdong's weight); 和绝张 in the wait values; no chows while
//! concealed (with or without the ones that make the hand ready); pungs that only keep shanten.

use engine::shape::Forms;
use engine::view::SeatView;
use engine::wall::SeededRng;
use engine::{Action, RulesetId, TileCounts};

use crate::basic::{common_choice, discard_tiles, fallback, without};
use crate::efficiency::{Goal, Seen, candidates, meld_count, wait_value};
use crate::strong::safest_discard;

/// Whether `view` is of the Suzhou preset.
pub(crate) fn applies(view: &SeatView) -> bool {
    view.ruleset.id() == RulesetId::Suzhou
}

/// The strong policy's decision in a Suzhou hand.
pub(crate) fn decide(view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
    let plain = Goal {
        forms: Forms::STANDARD.with(Forms::SEVEN_PAIRS),
        ..Goal::plain(view)
    };
    let goal = pairs_if_closer(view, plain);
    if let Some(a) = common_choice(view, legal, &goal, false) {
        return a;
    }
    let discards = discard_tiles(legal);
    let seen = Seen::of(view);
    let mut scored = candidates(view, &discards, &goal, Some(&seen));
    for c in scored.iter_mut().filter(|c| c.shanten == 0) {
        let h = without(&view.concealed, c.tile, 1);
        c.useful = u32::try_from(wait_value(view, &h, &seen)).unwrap_or(u32::MAX);
    }
    if scored.is_empty() {
        return fallback(legal, rng);
    }
    safest_discard(view, &seen, &scored, legal, rng)
}

/// Seven pairs when a concealed hand is strictly closer to them than to four sets and a pair.
fn pairs_if_closer(view: &SeatView, plain: Goal) -> Goal {
    let standard = Goal {
        forms: Forms::STANDARD,
        ..plain
    };
    if meld_count(view) > 0 {
        return standard;
    }
    let pairs = Goal {
        forms: Forms::SEVEN_PAIRS,
        ..plain
    };
    let hand = view.concealed;
    if best_shanten(&pairs, &hand) < best_shanten(&standard, &hand) {
        pairs
    } else {
        standard
    }
}

/// Shanten of a 3k+1 hand, or of the best discard of a 3k+2 hand.
fn best_shanten(goal: &Goal, hand: &TileCounts) -> i8 {
    if hand.total() % 3 == 2 {
        hand.kinds()
            .iter()
            .map(|t| goal.shanten(&without(hand, t, 1), 0))
            .min()
            .unwrap_or(i8::MAX)
    } else {
        goal.shanten(hand, 0)
    }
}
