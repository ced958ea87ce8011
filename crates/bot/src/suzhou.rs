//! The strong level in the Suzhou preset. There 门清 and 自摸 each double the hand and 七对 is
//! 4 fan against 平胡's 1, but the hand ends at the first win, so speed is worth most.
//!
//! - **Seven pairs** is followed by a concealed hand when it is strictly closer to ready than a
//!   plain hand (七对 concealed is 8 fan against 平胡's 2), and also, one step from ready or
//!   closer, when it is as close and its two-step figure (`speed.rs`) times
//!   [`PAIRS_WORTH`] beats the plain hand's: seven pairs are slower but pay four times more.
//! - **Shapes.** Efficiency counts only the Suzhou shapes (four sets and a pair, and 七对): the
//!   shared goal's 十三幺 is not a hand here.
//! - **Claims** are taken as `basic` takes them (when they lower shanten).
//! - **Two steps.** One step from ready, discards are compared by the two-step figure of
//!   `speed.rs` (each useful draw times the waits the best ready hand after it keeps) rather
//!   than by useful tiles alone.
//! - **Waits.** Among discards that leave the hand ready, the waits are weighed by what they
//!   would win (the engine's own win check), as in the other families, and an honour wait
//!   counts [`HONOR_WAIT_PERCENT`] %: the `basic` seats throw a lone honour first, so it comes
//!   out sooner than a numbered tile the others may be building on.
//! - **Self-draw.** A self-draw is paid by all three and doubled (six times what the discarder
//!   pays), so early in the hand a discard win is let go while the hand waits on at least
//!   [`PASS_MIN_WAITS`] unseen copies, the live wall holds at least [`PASS_MIN_WALL`] tiles and
//!   no other seat has declared [`PASS_MAX_MELDS`] melds; any later win is taken.
//! - **Defence** is the danger tie-break of `strong.rs`.
//!
//! Each of the four changes of 2026-12-01 (seven pairs by figure, two steps, honour waits,
//! letting early discard wins go) measured within the noise on its own; together they lift the
//! strong seat by about 0.03 a hand over six seeds (docs/PERFORMANCE.md).
//!
//! Measured against three `basic` seats (docs/PERFORMANCE.md) and not kept: staying concealed
//! unless a claim makes the hand ready (−0.17 a hand: it won 16 % of its hands against
//! `basic`'s 28 %), passing every discard win while the wall is long (−0.08 to −0.15),
//! following seven pairs whenever they are as close as a plain hand (−0.11); the Guangdong
//! planner (`fan_plan.rs`) with Suzhou's worths (level at best); 和绝张 in the wait values; no
//! chows while concealed; pungs that only keep shanten; folding to the safest tile when two or
//! more steps from ready and a seat looks near ready (level or worse); refusing an exposed kong
//! while concealed (level); two steps also two steps from ready (level, p99 1.9 ms).

use engine::shape::Forms;
use engine::view::SeatView;
use engine::wall::SeededRng;
use engine::{Action, Seat, Tile, TileCounts};

use crate::basic::{common_choice, discard_tiles, fallback, without};
use crate::efficiency::{Goal, Seen, candidates, meld_count, own_melds, wait_value_by};
use crate::speed::Outlook;
use crate::strong::safest_discard;

/// How much more a seven-pairs figure counts than a plain hand's at the same shanten: a
/// concealed 七对 pays 8 against a concealed 平胡's 2. (Twice measured level.)
pub(crate) const PAIRS_WORTH: u64 = 4;
/// What an honour wait counts, in percent of a numbered one.
pub(crate) const HONOR_WAIT_PERCENT: i64 = 200;
/// Unseen copies of its waits from which a ready hand lets an early discard win go.
pub(crate) const PASS_MIN_WAITS: u32 = 8;
/// Live wall from which a discard win may be let go (at the deal it holds 83).
pub(crate) const PASS_MIN_WALL: usize = 40;
/// Declared melds of another seat that make every discard win worth taking (that seat may be
/// near ready).
pub(crate) const PASS_MAX_MELDS: usize = 2;

/// The strong policy's decision in a Suzhou hand.
pub(crate) fn decide(view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
    let plain = Goal {
        forms: Forms::STANDARD.with(Forms::SEVEN_PAIRS),
        ..Goal::plain(view)
    };
    let seen = Seen::of(view);
    if legal.contains(&Action::Win)
        && legal.contains(&Action::Pass)
        && waits_for_self_draw(view, &plain, &seen)
    {
        return Action::Pass;
    }
    let goal = pairs_if_closer(view, plain, &seen);
    if let Some(a) = common_choice(view, legal, &goal, false) {
        return a;
    }
    let discards = discard_tiles(legal);
    let mut scored = candidates(view, &discards, &goal, Some(&seen));
    let melds = own_melds(view);
    for c in scored.iter_mut().filter(|c| c.shanten == 0) {
        let h = without(&view.concealed, c.tile, 1);
        let value = wait_value_by(view, &h, &melds, &seen, &wait_percent);
        c.useful = u32::try_from(value).unwrap_or(u32::MAX);
    }
    if scored.iter().map(|c| c.shanten).min() == Some(1) {
        let outlook = Outlook {
            goal: &goal,
            melds: meld_count(view),
            seen: &seen,
            set: view.tile_set,
        };
        for c in scored.iter_mut().filter(|c| c.shanten == 1) {
            let h = without(&view.concealed, c.tile, 1);
            c.useful = u32::try_from(outlook.two_steps(&h, 1)).unwrap_or(u32::MAX);
        }
    }
    if scored.is_empty() {
        return fallback(legal, rng);
    }
    safest_discard(view, &seen, &scored, legal, rng)
}

/// What a wait on `t` counts, in percent (see [`HONOR_WAIT_PERCENT`]).
fn wait_percent(t: Tile) -> i64 {
    if t.suit().is_numbered() {
        100
    } else {
        HONOR_WAIT_PERCENT
    }
}

/// Whether to let the discard win on offer go, hoping for a self-draw: early in the hand
/// (the live wall at least [`PASS_MIN_WALL`]), on a wide wait (at least [`PASS_MIN_WAITS`]
/// unseen copies), while no other seat has declared [`PASS_MAX_MELDS`] melds. The last copy
/// of a kind (和绝张, doubled) is always taken.
fn waits_for_self_draw(view: &SeatView, plain: &Goal, seen: &Seen) -> bool {
    let Some(tile) = view.last_discard else {
        return false;
    };
    if view.wall_drawable < PASS_MIN_WALL || seen.unseen(view.tile_set, tile) == 0 {
        return false;
    }
    let crowded = Seat::ALL
        .into_iter()
        .zip(view.seats.iter())
        .any(|(s, p)| s != view.seat && p.melds.len() >= PASS_MAX_MELDS);
    if crowded {
        return false;
    }
    let outlook = Outlook {
        goal: plain,
        melds: meld_count(view),
        seen,
        set: view.tile_set,
    };
    outlook.wait_copies(&view.concealed) >= PASS_MIN_WAITS
}

/// Seven pairs when a concealed hand is strictly closer to them than to four sets and a pair,
/// or, one step from ready or closer, as close and with a better figure once weighted by
/// [`PAIRS_WORTH`] (only on one's own turn: claims follow the plain hand).
fn pairs_if_closer(view: &SeatView, plain: Goal, seen: &Seen) -> Goal {
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
    let to_pairs = best_shanten(&pairs, &hand);
    let to_standard = best_shanten(&standard, &hand);
    if to_pairs < to_standard {
        return pairs;
    }
    if to_pairs == to_standard && to_pairs <= 1 && hand.total() % 3 == 2 {
        let figure = |goal: &Goal| {
            let outlook = Outlook {
                goal,
                melds: 0,
                seen,
                set: view.tile_set,
            };
            outlook.best_discard_figure(&hand, to_pairs)
        };
        if figure(&pairs) * PAIRS_WORTH > figure(&standard) {
            return pairs;
        }
    }
    standard
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
