//! 八花齐 in play: the eighth flower wins at once wherever it arrives (a draw in turn, a flower's
//! replacement, a kong's replacement), only in a family that lets flowers win.

use super::*;
use crate::ruleset::RulesetId;
use crate::wall::ReplacementEnd;

fn seat(i: usize) -> Seat {
    Seat::ALL[i]
}

fn tile(s: &str) -> Tile {
    s.parse().expect("tile")
}

fn flowers(list: &str) -> Vec<Tile> {
    list.split(' ').map(tile).collect()
}

/// A hand in play: seat 0 must discard `drawn`; seat 1 holds seven flowers (1f..7f); the live
/// wall is `live` and the replacements are `tail`, each in the order they are drawn.
fn table(id: RulesetId, live: &str, tail: &str) -> Game {
    let rules = Ruleset::with_defaults(id).expect("defaults");
    let mut game = Game::new(rules, 5, seat(0), Wind::East, Carried::default());
    let hands = [
        "1m1m2m3m 4p5p6p 7s8s9s 1z2z3z",
        "2m3m4m 5m6m7m 2p3p4p 6s7s8s 9m",
        "1p1p 2s2s 3s3s 4s4s 5s5s 6z6z 7z",
        "3m3m 8p8p 9p9p 6m6m 7m7m 8m 9m 1s",
    ];
    for (i, h) in hands.iter().enumerate() {
        game.seats[seat(i)].concealed = TileCounts::parse(h).expect("notation");
        game.seats[seat(i)].flowers.clear();
        game.seats[seat(i)].has_discarded = true;
    }
    game.seats[seat(1)].flowers = flowers("1f 2f 3f 4f 5f 6f 7f");
    let mut order: Vec<Tile> = live
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(tile)
        .collect();
    let mut tail: Vec<Tile> = tail
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(tile)
        .collect();
    tail.reverse();
    order.extend(tail);
    game.wall = Wall::from_order(order, ReplacementEnd::Tail);
    game.dice = [2, 3];
    game.untouched = false;
    game.phase = Phase::Turn(Turn {
        seat: seat(0),
        drawn: Some(tile("4z")),
        after_kong: false,
        last_tile: false,
        forced_zone: false,
    });
    game.seats[seat(0)].concealed.add(tile("4z"));
    game.refresh_legal();
    game
}

fn assert_eight_flowers_won(game: &Game) {
    assert!(game.is_over(), "the hand ends at the eighth flower");
    let win = game.wins().first().expect("a win");
    assert_eq!((win.seat, win.tile, win.from), (seat(1), tile("8f"), None));
    let settlement = game.settlement().expect("settles");
    assert_eq!(settlement.fans[0].items[0].name, "八花齐");
    // Two 勒子 (20) from each of the other three, no 开宝 with dice 2 and 3.
    assert_eq!(settlement.deltas[seat(1)], 60);
    for s in [0, 2, 3] {
        assert_eq!(settlement.deltas[seat(s)], -20);
    }
    assert_eq!(
        game.seats[seat(1)].flowers.len(),
        7,
        "the eighth is the winning tile"
    );
}

#[test]
fn the_eighth_flower_drawn_in_turn_wins_at_once() {
    let mut game = table(RulesetId::Shanghai, "8f 9s 9s", "1m 2m");
    game.apply(seat(0), Action::Discard { tile: tile("4z") })
        .expect("legal");
    assert_eight_flowers_won(&game);
    // Nothing was drawn to replace it.
    assert_eq!(game.wall.remaining(), 4);
}

#[test]
fn the_eighth_flower_as_a_flowers_replacement_wins_at_once() {
    // Seat 1 holds six flowers; it draws the seventh in turn and the eighth as its replacement.
    let mut game = table(RulesetId::Shanghai, "7f 9s 9s", "8f 1m");
    game.seats[seat(1)].flowers = flowers("1f 2f 3f 4f 5f 6f");
    game.apply(seat(0), Action::Discard { tile: tile("4z") })
        .expect("legal");
    assert_eight_flowers_won(&game);
    assert_eq!(game.wall.remaining(), 3, "the tail gave the 8f and stopped");
}

#[test]
fn the_eighth_flower_as_a_kongs_replacement_wins_at_once() {
    // Seat 0 holds four 1m after the draw: a concealed kong, then 8f from the tail wins for
    // seat 0 holding the other seven.
    let mut game = table(RulesetId::Shanghai, "9s 9s", "8f 2m");
    game.seats[seat(1)].flowers.clear();
    game.seats[seat(0)].flowers = flowers("1f 2f 3f 4f 5f 6f 7f");
    game.seats[seat(0)].concealed =
        TileCounts::parse("1m1m1m1m 2m3m 4p5p6p 7s8s9s 1z2z").expect("notation");
    game.phase = Phase::Turn(Turn {
        seat: seat(0),
        drawn: Some(tile("1m")),
        after_kong: false,
        last_tile: false,
        forced_zone: false,
    });
    game.refresh_legal();
    game.apply(seat(0), Action::ConcealedKong { tile: tile("1m") })
        .expect("legal");
    assert!(game.is_over());
    let win = game.wins().first().expect("a win");
    assert_eq!((win.seat, win.tile), (seat(0), tile("8f")));
    assert_eq!(game.settlement().expect("settles").deltas[seat(0)], 60);
}

#[test]
fn a_family_without_flower_wins_replaces_the_eighth_flower() {
    let mut game = table(RulesetId::Guobiao, "8f 9s 9s", "1m 2m");
    game.apply(seat(0), Action::Discard { tile: tile("4z") })
        .expect("legal");
    assert!(!game.is_over());
    assert!(game.wins().is_empty());
    assert_eq!(game.seats[seat(1)].flowers.len(), 8);
    assert_eq!(
        game.seats[seat(1)].concealed.get(tile("1m")),
        1,
        "the replacement came from the tail"
    );
}

#[test]
fn a_seat_dealt_every_flower_wins_once_the_deal_is_replaced() {
    let rules = Ruleset::with_defaults(RulesetId::Shanghai).expect("defaults");
    let mut game = Game::new(rules, 5, seat(0), Wind::East, Carried::default());
    let all = crate::wall::TileSetKind::Flowers144.tiles();
    let (flowers, mut plain): (Vec<Tile>, Vec<Tile>) = all.into_iter().partition(|t| t.is_flower());
    // Seat 0 is dealt 13 plain tiles, seat 1 five plain tiles and the eight flowers.
    let mut order: Vec<Tile> = plain.drain(..18).collect();
    order.splice(13..13, flowers);
    order.extend(plain);
    game.wall = Wall::from_order(order, ReplacementEnd::Tail);
    game.seats = BySeat::default();
    game.dice = [2, 3];
    game.deal();
    assert!(game.is_over());
    let win = game.wins().first().expect("a win");
    assert_eq!((win.seat, win.tile, win.from), (seat(1), tile("8f"), None));
    assert_eq!(
        game.seats[seat(1)].concealed.total(),
        13,
        "its flowers were replaced"
    );
    assert_eq!(
        game.seats[seat(0)].concealed.total(),
        14,
        "the dealer never discarded"
    );
    assert_eq!(game.settlement().expect("settles").deltas[seat(1)], 60);
    // Every tile is still somewhere.
    let total: u32 = game.census().iter().sum();
    assert_eq!(total, 144);
}
