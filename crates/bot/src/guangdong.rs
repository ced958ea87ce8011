//! Guangdong (鸡平胡) goals for the strong bot. A win pays 2^fan from each payer, a self-draw
//! from all three, so a flush or a hand of pungs is worth several chicken hands; and a room may
//! set a minimum (起胡), below which no win is allowed.
//!
//! - **Targets** (the shapes that carry fan): any four sets and a pair (鸡胡, 0), 碰碰胡 on any
//!   tiles (2), and in each suit 混一色 (2), 清一色 (4), 混碰 (4) and 清碰 (5).
//! - **Fan in sight** adds what the hand already holds: 门清 while no meld is open, a pung (held
//!   or declared) of a dragon, the seat wind or the prevalent wind. Under 起胡 a target whose
//!   fan, with a self-draw's one more, stays short counts a step further for each fan lacked.
//! - **A fan weighs two thirds of a step**: a full flush two steps further than a chicken hand
//!   is still the better plan, as it pays sixteen times as much.
//! - Ready hands are valued by the engine's verdict on each wait (nothing where 起胡 forbids the
//!   win), and claims are taken only when they leave the plan no worse; see `fan_plan.rs`,
//!   which does the planning from what this module says a Guangdong win is worth.
//!
//! Wins are always taken: the engine lists only wins that reach 起胡.
//!
//! Measured against three `basic` seats (docs/PERFORMANCE.md, Guangdong; 20,000 hands, seed 1;
//! the strong seat's mean a hand at 起胡 0 and at 起胡 3): a fan worth two thirds of a step
//! (kept) +0.37 and +10.0; half a step +0.27 and +8.6 (seed 2 at 起胡 0: +0.29 against +0.23 for
//! the kept weight, the two level there); a third of a step +0.25 and +7.1; a fan worth a whole
//! step +0.12 (it won 12 % of its hands); no weight on fan at all (speed alone) −0.11. Claims
//! only when they strictly improve the figure: +0.29 and +10.7, not kept (no clear gain at 起胡
//! 0). Weighing a self-draw's payment three times a discard's changed nothing (a self-draw is
//! always one fan more, twice the payment).

use engine::variants::guangdong;
use engine::view::SeatView;
use engine::wall::SeededRng;
use engine::{Action, Tile};

use crate::fan_plan::{self, Scheme, Shape, Target, suit_mask};
use crate::shanghai::{ALL, HONORS};

/// One fan: a doubling of the payment.
const FAN: i32 = 100;

/// The strong policy's decision in a Guangdong hand.
pub(crate) fn decide(view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
    fan_plan::decide(view, legal, rng, &scheme(view))
}

/// What a Guangdong win is worth from this seat, with the room's 起胡 and 爆胡.
fn scheme(view: &SeatView) -> Scheme {
    let options = view.ruleset.values();
    let fan = |n: i64| i32::try_from(n).unwrap_or(i32::MAX / 2 / FAN) * FAN;
    let seat_wind = view.seat.wind(view.dealer, 4).tile();
    let prevalent = view.round_wind.tile();
    let mut honor_worth = [0; 7];
    for t in Tile::playing().filter(|t| t.is_honor()) {
        if let Some(w) = honor_worth.get_mut(t.index() - 27) {
            let n =
                i32::from(t.is_dragon()) + i32::from(t == seat_wind) + i32::from(t == prevalent);
            *w = n * FAN;
        }
    }
    let target = |mask: u64, shape: Shape, fan: i32| Target {
        mask,
        shape,
        worth: fan * FAN,
    };
    // 鸡胡, 碰碰胡, and per suit 混一色, 清一色, 混碰, 清碰.
    let mut targets = vec![target(ALL, Shape::Sets, 0), target(ALL, Shape::Pungs, 2)];
    for s in 0..3 {
        let suit = suit_mask(s);
        targets.push(target(suit | HONORS, Shape::Sets, 2));
        targets.push(target(suit, Shape::Sets, 4));
        targets.push(target(suit | HONORS, Shape::Pungs, 4));
        targets.push(target(suit, Shape::Pungs, 5));
    }
    Scheme {
        targets,
        concealed: FAN,
        self_draw: FAN,
        honor_worth,
        min: fan(guangdong::MIN_FAN.int_in(options)),
        cap: fan(guangdong::FAN_CAP.int_in(options)),
        unit: guangdong::BASE.int_in(options),
    }
}

#[cfg(test)]
mod tests {
    use engine::ruleset::{RawOptions, Ruleset};

    use super::*;
    use crate::testkit::{counts, t};
    use engine::RulesetId;
    use engine::ruleset::OptionValue;

    /// South's view early in a hand of a room with 起胡 `min_fan` (see
    /// [`crate::testkit::view`]).
    fn view(min_fan: i64, concealed: &str, offered: Option<&str>, claims: &[Action]) -> SeatView {
        let mut options = RawOptions::new();
        options.insert("min_fan".into(), OptionValue::Int(min_fan));
        let ruleset = Ruleset::new(RulesetId::Guangdong, &options).expect("options");
        crate::testkit::view(ruleset, concealed, offered, claims)
    }

    fn decisions(view: &SeatView) -> Vec<Action> {
        crate::testkit::decisions(view, decide)
    }

    #[test]
    fn a_wait_under_the_minimum_is_not_ready() {
        // Ready on 1m / 9m: a chicken hand, 门清, at most 2 fan with a self-draw.
        let hand = counts("123m456p789s1199m");
        let open = view(0, "123m456p789s1199m", Some("5z"), &[Action::Pass]);
        let e = fan_plan::ready_value(&open, &scheme(&open), &hand);
        assert!(e > 0, "{e}");
        let three = view(3, "123m456p789s1199m", Some("5z"), &[Action::Pass]);
        let e = fan_plan::ready_value(&three, &scheme(&three), &hand);
        assert_eq!(e, 0);
    }

    #[test]
    fn under_the_minimum_a_chow_that_leaves_no_way_to_it_is_refused() {
        // Concealed, the hand waits on 5s: 平胡 and 门清, 2 fan on this discard (not a win
        // under 起胡 3) and 3 on a self-draw. The chow would leave an open hand without honors,
        // 2 fan at most.
        let claims = [Action::Chow { low: t("4s") }, Action::Pass];
        let v = view(3, "123m456p789s11m46s", Some("5s"), &claims);
        assert!(decisions(&v).iter().all(|&a| a == Action::Pass));
    }

    #[test]
    fn a_hand_leaning_to_one_suit_keeps_to_the_flush() {
        // Plain efficiency keeps the 56p run; the flush (16 times a chicken hand) keeps every
        // man tile.
        let v = view(0, "112355566778m56p", None, &[]);
        for a in decisions(&v) {
            let Action::Discard { tile } = a else {
                panic!("{a} is not a discard")
            };
            assert_eq!(tile.suit(), engine::Suit::Pin, "threw {tile}");
        }
    }

    #[test]
    fn a_listed_win_is_always_taken() {
        let v = view(
            0,
            "123m456p789s11m99m",
            Some("9m"),
            &[Action::Win, Action::Pung, Action::Pass],
        );
        assert!(decisions(&v).iter().all(|&a| a == Action::Win));
    }
}
