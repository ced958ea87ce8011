//! How the engine's property suites play a hand: a mixed random policy, shared so that each
//! suite plays the same kind of hands.

use engine::shape::{self, Forms};
use engine::wall::SeededRng;
use engine::{Action, Game, Seat, Tile};

/// A mixed policy: wins most of the time (sometimes passes, to exercise 过水), claims at
/// random, discards greedily or at random.
pub fn choose(game: &Game, seat: Seat, legal: &[Action], rng: &mut SeededRng) -> Action {
    let roll = rng.below(100);
    if let Some(&w) = legal
        .iter()
        .find(|a| matches!(a, Action::Win | Action::SelfDrawWin))
        && (roll < 85
            || !legal
                .iter()
                .any(|a| matches!(a, Action::Pass | Action::Discard { .. })))
    {
        return w;
    }
    let discards: Vec<Tile> = legal
        .iter()
        .filter_map(|a| {
            if let Action::Discard { tile } = a {
                Some(*tile)
            } else {
                None
            }
        })
        .collect();
    if !discards.is_empty() && roll < 70 {
        let view = game.view(seat);
        let hand = view.concealed;
        let melds = view.seats[seat.index()].melds.len() as u8;
        let forms = Forms::STANDARD.with(Forms::SEVEN_PAIRS);
        let best = discards
            .iter()
            .min_by_key(|&&t| {
                let mut h = hand;
                h.remove(t);
                shape::shanten(&h, melds, forms)
            })
            .copied();
        if let Some(tile) = best {
            return Action::Discard { tile };
        }
    }
    legal[rng.below(legal.len() as u32) as usize]
}
