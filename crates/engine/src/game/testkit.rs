//! Hands set up tile by tile for the families' rules-in-play tests.

use super::*;
use crate::ruleset::RulesetId;
use crate::wall::ReplacementEnd;

pub(super) fn seat(i: usize) -> Seat {
    Seat::ALL[i]
}

pub(super) fn tile(s: &str) -> Tile {
    s.parse().expect("tile")
}

/// A hand in play: seat 0 holds `hands[0]` and has just drawn `drawn`; the live wall is `live`
/// and the replacements are `tail`, each in the order they are drawn; no 开宝 (dice 2 and 3).
/// One hand per seat at the table.
pub(super) fn hand_in_play<'a>(
    id: RulesetId,
    hands: impl AsRef<[&'a str]>,
    drawn: &str,
    live: &str,
    tail: &str,
) -> Game {
    let rules = Ruleset::with_defaults(id).expect("defaults");
    let mut game = Game::new(rules, 5, seat(0), Wind::East, Carried::default());
    for (i, h) in hands.as_ref().iter().enumerate() {
        game.seats[seat(i)].concealed = TileCounts::parse(h).expect("notation");
        game.seats[seat(i)].flowers.clear();
        game.seats[seat(i)].has_discarded = true;
    }
    let list =
        |s: &str| -> Vec<Tile> { s.split(' ').filter(|s| !s.is_empty()).map(tile).collect() };
    let mut order = list(live);
    order.extend(list(tail).into_iter().rev());
    game.wall = Wall::from_order(order, ReplacementEnd::Tail);
    game.dice = [2, 3];
    game.untouched = false;
    game.phase = Phase::Turn(Turn {
        seat: seat(0),
        drawn: Some(tile(drawn)),
        after_kong: false,
        last_tile: false,
        forced_zone: false,
    });
    game.seats[seat(0)].concealed.add(tile(drawn));
    game.refresh_legal();
    game
}

pub(super) fn discard(game: &mut Game, s: usize, t: &str) {
    game.apply(seat(s), Action::Discard { tile: tile(t) })
        .expect("legal discard");
}
