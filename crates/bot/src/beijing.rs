//! The strong level in the Beijing presets. A claim there costs more than a tile: after a chow,
//! pung or exposed kong the hand may only win by self-drawing, so it gives up the three seats'
//! discards.
//!
//! **`beijing-2020`** (no wilds, 推倒和 only by self-draw, each fan doubling): the hand stays
//! concealed unless a claim makes it ready at once (or it is open already), and a concealed
//! hand follows seven pairs (七对, 4 fan and 门清) whenever they are as close as a plain hand.
//!
//! **`beijing`** (惠牌 wilds): the four wilds make hands ready fast (a hand ends after about
//! seven go-arounds, with 40 of the 68 live tiles left) and a self-draw pays three times, so
//! speed is worth most. Discards, claims and kongs are `basic`'s: shanten, then useful tiles,
//! with the wilds standing in for any tile (the shared [`Goal`] knows the wild kind). What the
//! strong level adds is the choice between a discard win and a self-draw. A self-draw is paid
//! by all three seats, a discard win by the discarder alone, and the rules have no 过水: a
//! ready hand that lets a discard go may still win on the next one. So a discard win is let go
//! when the race of [`race`] says the self-draw is worth more: the chance of drawing a winning
//! tile before another seat wins, over the go-arounds the live wall still holds, times three
//! payments, less what another seat's win would cost, against the one payment on offer.
//! Another seat wins in a go-around with the chance [`OTHERS_WIN_PER_ROUND`]: the other three
//! take about three quarters of the wins of a seven-go-around hand.
//!
//! Measured against three `basic` seats (docs/PERFORMANCE.md), the race lifts the strong seat
//! by about 0.03 a hand, and following seven pairs when as close (kept in 2020) cost about
//! 0.015 a hand here. Not kept, each level with `basic` or worse over 20,000 hands: staying
//! concealed unless a claim makes the hand ready (or one step from ready), a two-step
//! look-ahead, 清一色 and 对对和 targets, choosing by worth, folding, danger and fewer-copies
//! tie-breaks, 互包 avoidance, and weighing honour waits up or down.

use engine::shape::Forms;
use engine::view::{MeldView, SeatView};
use engine::wall::SeededRng;
use engine::{Action, Seat, Tile};

use crate::basic::{
    best_after_claim, common_choice, discard_tiles, fallback, pick_lowest, run, without,
};
use crate::efficiency::{
    Goal, Seen, WinTable, candidates, meld_count, own_melds, seat_hand, win_payment,
};
use crate::speed::Outlook;

/// The chance that one of the other seats wins in one go-around of the table (see the module
/// docs; over 200,000 hands 0.10 and 0.12 measured alike, 0.15 gave back half the gain).
pub(crate) const OTHERS_WIN_PER_ROUND: f64 = 0.12;
/// What another seat's win costs this seat, in fan (a self-draw costs its hand fan, a win on
/// another seat's discard nothing; 1 is about the mean).
pub(crate) const OTHERS_WIN_COST_FAN: i64 = 1;

/// One decision.
pub(crate) fn decide(view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
    let wilds = view.wild.is_some();
    if wilds
        && legal.contains(&Action::Win)
        && legal.contains(&Action::Pass)
        && self_draw_worth_more(view)
    {
        return Action::Pass;
    }
    let goal = if wilds {
        Goal::plain(view)
    } else {
        seven_pairs_if_as_close(view, Goal::plain(view))
    };
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

/// Seven pairs (七对, 4 fan, and 门清) against a plain hand (`beijing-2020`): the concealed hand
/// follows the pairs whenever they are no further from ready.
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

/// Whether the ready hand should let the discard win on offer go and wait for a self-draw (see
/// the module docs).
fn self_draw_worth_more(view: &SeatView) -> bool {
    let Some(tile) = view.last_discard else {
        return false;
    };
    let Some(own) = seat_hand(view, &view.concealed, &own_melds(view)) else {
        return false;
    };
    let players = view.seats.len().max(1);
    let table = WinTable::of(view);
    let from = discarder(view, tile);
    let (Some(on_offer), Some(drawn)) = (
        win_payment(view, &own, tile, Some(from), &table),
        // The tile on offer stands for every winning tile a self-draw could bring.
        win_payment(view, &own, tile, None, &table),
    ) else {
        return false;
    };
    let seen = Seen::of(view);
    let plain = Goal::plain(view);
    let outlook = Outlook {
        goal: &plain,
        melds: meld_count(view),
        seen: &seen,
        set: view.tile_set,
    };
    let unseen: u32 = Tile::playing()
        .map(|t| u32::from(seen.unseen(view.tile_set, t)))
        .sum();
    if unseen == 0 {
        return false;
    }
    let per_draw = f64::from(outlook.wait_copies(&view.concealed)) / f64::from(unseen);
    let (first, beaten) = race(view.wall_drawable / players, per_draw, OTHERS_WIN_PER_ROUND);
    let others_win = view.ruleset.rules().payment_for(OTHERS_WIN_COST_FAN);
    let payers = (players - 1) as f64;
    first * payers * drawn as f64 - beaten * others_win as f64 > on_offer as f64
}

/// A race over `draws` go-arounds: in each, another seat wins with the chance `hazard`, and if
/// none has, this seat's draw wins with the chance `per_draw`. Returns the chances that this
/// seat wins first and that another seat does.
pub(crate) fn race(draws: usize, per_draw: f64, hazard: f64) -> (f64, f64) {
    let (mut first, mut beaten, mut open) = (0.0, 0.0, 1.0);
    for _ in 0..draws {
        beaten += open * hazard;
        open *= 1.0 - hazard;
        first += open * per_draw;
        open *= 1.0 - per_draw;
    }
    (first, beaten)
}

/// The seat whose discard is on offer: the one whose last discard it is (the dealer when that
/// could be either, as the dealer's discard pays 庄 and so makes the win worth more to take);
/// for a kong being robbed, no discard shows it, and the next seat stands in.
fn discarder(view: &SeatView, tile: Tile) -> Seat {
    let players = view.seats.len().max(1) as u8;
    let mut found = None;
    for (seat, public) in Seat::ALL.into_iter().zip(&view.seats) {
        if seat == view.seat || public.discards.last() != Some(&tile) {
            continue;
        }
        if seat == view.dealer {
            return seat;
        }
        found.get_or_insert(seat);
    }
    found.unwrap_or(view.seat.next(players))
}

#[cfg(test)]
mod tests {
    use engine::ruleset::Ruleset;
    use engine::wall::WildDraw;

    use super::*;
    use crate::testkit::t;
    use engine::RulesetId;

    /// South's view of a `beijing` hand (惠牌 南, shown by 东) in a claim window: `concealed`
    /// in hand, `offered` just discarded by seat `from` (East deals), `wall` live tiles left.
    fn view(concealed: &str, offered: &str, from: usize, wall: usize) -> SeatView {
        let ruleset = Ruleset::with_defaults(RulesetId::Beijing).expect("preset");
        let legal = [Action::Win, Action::Pass];
        let mut v = crate::testkit::view(ruleset, concealed, Some(offered), &legal);
        v.wild = Some(WildDraw {
            indicator: t("1z"),
            wild: t("2z"),
        });
        v.wall_drawable = wall;
        v.seats[from].discards.push(t(offered));
        v
    }

    fn decisions(view: &SeatView) -> Vec<Action> {
        crate::testkit::decisions(view, decide)
    }

    /// Three sets, 3s and 99s with a wild (南): it wins on 1s–5s, 9s and the wild itself.
    const WIDE: &str = "123m456p789p3s99s2z";

    #[test]
    fn the_race_adds_up() {
        assert_eq!(race(0, 0.2, 0.1), (0.0, 0.0));
        let (first, beaten) = race(15, 0.2, 0.12);
        assert!(first > 0.0 && beaten > 0.0 && first + beaten <= 1.0);
        assert!(race(15, 0.3, 0.12).0 > first);
        assert!(race(15, 0.2, 0.2).0 < first);
        assert!(race(3, 0.2, 0.12).0 < first);
    }

    #[test]
    fn an_early_one_fan_discard_win_on_a_wide_wait_is_let_go() {
        // West's 5s pays 1 (推倒和); a self-draw pays 1 from each of three.
        let v = view(WIDE, "5s", 2, 60);
        assert!(decisions(&v).iter().all(|&a| a == Action::Pass));
    }

    #[test]
    fn a_discard_win_is_taken_late_from_the_dealer_or_on_a_narrow_wait() {
        // Two go-arounds left: too few draws to expect the self-draw.
        let late = view(WIDE, "5s", 2, 8);
        assert!(decisions(&late).iter().all(|&a| a == Action::Win));
        // The dealer's discard pays 庄 too: 2 on offer.
        let dealer = view(WIDE, "5s", 0, 60);
        assert!(decisions(&dealer).iter().all(|&a| a == Action::Win));
        // No wild: a two-sided wait on 2s / 5s, and 门清无惠 makes the discard win worth 2.
        let narrow = view("123m456p789p34s99s", "5s", 2, 60);
        assert!(decisions(&narrow).iter().all(|&a| a == Action::Win));
    }
}
