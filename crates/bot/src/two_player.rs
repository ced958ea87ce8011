//! The strong level in the two-player preset (二人麻将). There a concealed hand earns 门清, 门清自摸
//! and 门清报听 (a fan each) and the rows add up to 13, while the 71-tile wall gives each seat only
//! about twenty draws, so the plan is speed first, with fan as the tie-break:
//!
//! - **Shapes.** Four sets and a pair, seven pairs (七对子 3) and 十三幺 count, as in the engine.
//! - **Waits.** Among discards that leave the hand ready, the waits are weighed by what they
//!   would win (the engine's own fan for each tile, times its unseen copies).
//! - **报听.** A discard that leaves the hand ready is made as 报听 when the hand is concealed
//!   (门清报听 1, or 天听 2 on the first discard), since the engine then discards for it and only
//!   the win is given up for a better wait; an open hand gains nothing by it and keeps its
//!   freedom.
//! - **Claims** are taken as `basic` takes them (when they lower shanten), except that a
//!   concealed hand claims only when the claim makes it ready: the three 门清 rows are worth
//!   giving up only for the win in reach.
//! - **Defence** is the danger tie-break of `strong.rs`; a seat that has declared ready is the
//!   threat it tells everyone it is.

use engine::view::SeatView;
use engine::wall::SeededRng;
use engine::{Action, Tile};

use crate::basic::{best_after_claim, common_choice, discard_tiles, fallback, run, without};
use crate::efficiency::{Goal, Seen, candidates, meld_count, wait_value};
use crate::strong::safest_discard;

/// The strong policy's decision in a two-player hand.
pub(crate) fn decide(view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
    let goal = Goal::plain(view);
    let concealed = is_concealed(view);
    let legal: Vec<Action> = if concealed {
        legal
            .iter()
            .copied()
            .filter(|&a| !is_claim(a) || claim_makes_ready(view, a, &goal))
            .collect()
    } else {
        legal.to_vec()
    };
    if let Some(a) = common_choice(view, &legal, &goal, false) {
        return a;
    }
    let discards = discard_tiles(&legal);
    let seen = Seen::of(view);
    let mut scored = candidates(view, &discards, &goal, Some(&seen));
    for c in scored.iter_mut().filter(|c| c.shanten == 0) {
        let h = without(&view.concealed, c.tile, 1);
        c.useful = u32::try_from(wait_value(view, &h, &seen)).unwrap_or(u32::MAX);
    }
    if scored.is_empty() {
        return fallback(&legal, rng);
    }
    let choice = safest_discard(view, &seen, &scored, &legal, rng);
    match choice {
        Action::Discard { tile } if concealed && legal.contains(&ready(tile)) => ready(tile),
        other => other,
    }
}

fn ready(tile: Tile) -> Action {
    Action::DeclareReady { tile }
}

fn is_claim(a: Action) -> bool {
    matches!(a, Action::Pung | Action::ExposedKong | Action::Chow { .. })
}

/// Whether no chow, pung or open kong has been declared.
fn is_concealed(view: &SeatView) -> bool {
    view.seats.get(view.seat.index()).is_none_or(|me| {
        me.melds.iter().all(|m| match m {
            engine::view::MeldView::Open(meld) => meld.is_concealed(),
            engine::view::MeldView::HiddenKong => true,
        })
    })
}

/// Whether claiming the offered tile with `a` leaves the hand ready after its best discard
/// (an exposed kong: ready as it stands).
fn claim_makes_ready(view: &SeatView, a: Action, goal: &Goal) -> bool {
    let Some(t) = view.last_discard else {
        return false;
    };
    let melds = meld_count(view) + 1;
    let hand = view.concealed;
    match a {
        Action::Pung => best_after_claim(&without(&hand, t, 2), melds, goal) <= 0,
        Action::ExposedKong => goal.shanten(&without(&hand, t, 3), melds) <= 0,
        Action::Chow { low } => {
            let mut h = hand;
            for x in run(low).into_iter().filter(|&x| x != t) {
                h.remove(x);
            }
            best_after_claim(&h, melds, goal) <= 0
        }
        _ => false,
    }
}
