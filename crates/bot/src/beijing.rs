//! The strong level in the Beijing presets. A claim there costs more than a tile: after a chow,
//! pung or exposed kong the hand may only win by self-drawing, so it gives up the three seats'
//! discards. In `beijing-2020` (no wilds, 推倒和 only by self-draw, each fan doubling) the hand
//! stays concealed unless a claim makes it ready at once (or it is open already). In `beijing`
//! the four wilds make hands ready fast and a self-draw pays three times, so staying concealed
//! cost more wins than it gained (see docs/PERFORMANCE.md): claims are taken as `basic` takes
//! them (a two-step look-ahead gained nothing measurable there and cost over 1 ms at p99).
//! Wilds count as the tiles they could stand for in every shanten and useful-tile count (the
//! shared [`Goal`] knows the wild kind), so they are never thrown for nothing; a concealed hand
//! follows seven pairs when they are as close.

use engine::shape::Forms;
use engine::view::{MeldView, SeatView};
use engine::wall::SeededRng;
use engine::{Action, RulesetId};

use crate::basic::{
    best_after_claim, common_choice, discard_tiles, fallback, pick_lowest, run, without,
};
use crate::efficiency::{Goal, Seen, candidates, meld_count};

/// Whether the view is of a Beijing preset.
pub(crate) fn applies(view: &SeatView) -> bool {
    matches!(
        view.ruleset.id(),
        RulesetId::Beijing | RulesetId::Beijing2020
    )
}

/// One decision.
pub(crate) fn decide(view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
    let goal = seven_pairs_if_as_close(view, Goal::plain(view));
    // With wilds a hand is ready fast and a self-draw pays three times: there claims are worth
    // what they are to `basic`. Without them (2020) only a concealed hand wins on a discard.
    let wilds = view.wild.is_some();
    let allowed: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|&a| wilds || !is_claim(a) || claim_worth_it(view, a, &goal))
        .collect();
    if let Some(a) = common_choice(view, &allowed, &goal, false) {
        return a;
    }
    let discards = discard_tiles(legal);
    let seen = Seen::of(view);
    let scored = candidates(view, &discards, &goal, Some(&seen));
    match pick_lowest(&scored, |c| (c.shanten, std::cmp::Reverse(c.useful)), rng) {
        Some(tile) => Action::Discard { tile },
        None => fallback(legal, rng),
    }
}

/// Seven pairs (七对子, 4 fan, and 门清无惠 without wilds) against a plain hand (推倒和, 1 fan):
/// the concealed hand follows the pairs whenever they are no further from ready.
fn seven_pairs_if_as_close(view: &SeatView, plain: Goal) -> Goal {
    if meld_count(view) > 0 {
        return plain;
    }
    let pairs = Goal {
        forms: Forms::SEVEN_PAIRS,
        ..plain
    };
    let standard = Goal {
        forms: Forms::STANDARD,
        ..plain
    };
    let hand = view.concealed;
    let best = |g: &Goal| {
        if hand.total() % 3 == 2 {
            hand.kinds()
                .iter()
                .map(|t| g.shanten(&without(&hand, t, 1), 0))
                .min()
                .unwrap_or(i8::MAX)
        } else {
            g.shanten(&hand, 0)
        }
    };
    if best(&pairs) <= best(&standard) {
        pairs
    } else {
        plain
    }
}

fn is_claim(a: Action) -> bool {
    matches!(a, Action::Pung | Action::Chow { .. } | Action::ExposedKong)
}

/// A claim is taken by an open hand, or by a concealed one it makes ready at once.
fn claim_worth_it(view: &SeatView, claim: Action, goal: &Goal) -> bool {
    let open = view
        .seats
        .get(view.seat.index())
        .is_some_and(|me| me.melds.iter().any(|m| matches!(m, MeldView::Open(_))));
    if open {
        return true;
    }
    let Some(t) = view.last_discard else {
        return false;
    };
    let hand = view.concealed;
    let melds = meld_count(view) + 1;
    let rest = match claim {
        Action::Pung => without(&hand, t, 2),
        Action::ExposedKong => return goal.shanten(&without(&hand, t, 3), melds) <= 0,
        Action::Chow { low } => {
            let mut h = hand;
            for x in run(low).into_iter().filter(|&x| x != t) {
                h.remove(x);
            }
            h
        }
        _ => return false,
    };
    best_after_claim(&rest, melds, goal) <= 0
}
