//! Shanghai rules in play, on hands set up tile by tile: 八花齐 wins at once wherever the eighth
//! flower arrives (a draw in turn, a flower's or a kong's replacement, the deal) and only in a
//! family that lets flowers win; 漏胡 bars the passed kind until the player's next move; the
//! 下家 alone may chow and a pung beats it; 一炮多响; only an added kong can be robbed.

use super::testkit::{discard, hand_in_play, seat, tile};
use super::*;
use crate::meld::{Meld, MeldKind};
use crate::ruleset::RulesetId;
use crate::wall::ReplacementEnd;

fn flowers(list: &str) -> Vec<Tile> {
    list.split(' ').map(tile).collect()
}

/// Seat 0 must discard 4z; seat 1 holds seven flowers (1f..7f).
fn table(id: RulesetId, live: &str, tail: &str) -> Game {
    let hands = [
        "1m1m2m3m 4p5p6p 7s8s9s 1z2z3z",
        "2m3m4m 5m6m7m 2p3p4p 6s7s8s 9m",
        "1p1p 2s2s 3s3s 4s4s 5s5s 6z6z 7z",
        "3m3m 8p8p 9p9p 6m6m 7m7m 8m 9m 1s",
    ];
    let mut game = hand_in_play(id, hands, "4z", live, tail);
    game.seats[seat(1)].flowers = flowers("1f 2f 3f 4f 5f 6f 7f");
    game
}

fn assert_eight_flowers_won(game: &Game) {
    assert!(game.is_over(), "the hand ends at the eighth flower");
    let win = game.wins().first().expect("a win");
    assert_eq!((win.seat, win.tile, win.from), (seat(1), tile("8f"), None));
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
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
    assert_eq!(
        game.settlement()
            .unwrap_or_else(|| panic!("{:?}", game.settle_error()))
            .deltas[seat(0)],
        60
    );
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
    assert_eq!(
        game.settlement()
            .unwrap_or_else(|| panic!("{:?}", game.settle_error()))
            .deltas[seat(1)],
        60
    );
    // Every tile is still somewhere.
    let total: u32 = game.census().iter().sum();
    assert_eq!(total, 144);
}

/// Seat 2 waits on 5p and 9s with 碰碰胡; seats 1 and 3 can claim nothing.
const WAITING: [&str; 4] = [
    "1m2m3m 4p6p7p 7s8s9s 1z2z3z 4z",
    "2m3m4m 5m6m7m 1p2p 6s7s8s 9m 4s",
    "1m1m1m 2p2p2p 3s3s3s 5p5p 9s9s",
    "3m3m 8p8p 9p9p 6m6m 7m7m 8m 9m 1s",
];

#[test]
fn a_passed_win_bars_that_kind_until_the_players_next_move() {
    let mut game = hand_in_play(RulesetId::Shanghai, WAITING, "5p", "5p 9s", "");
    discard(&mut game, 0, "5p");
    assert_eq!(
        game.legal_actions(seat(2)),
        &[Action::Win, Action::Pung, Action::Pass]
    );
    game.apply(seat(2), Action::Pass).expect("legal");
    // Seat 1 draws the last 5p and throws it: 漏胡, no win for seat 2 on that kind.
    discard(&mut game, 1, "5p");
    assert_eq!(game.legal_actions(seat(2)), &[Action::Pung, Action::Pass]);
    game.apply(seat(2), Action::Pass).expect("legal");
    // Its own draw (9s) is its next move: it may win on it at once.
    assert!(game.legal_actions(seat(2)).contains(&Action::SelfDrawWin));
}

#[test]
fn a_passed_win_leaves_other_kinds_open() {
    let mut game = hand_in_play(RulesetId::Shanghai, WAITING, "5p", "9s", "");
    discard(&mut game, 0, "5p");
    game.apply(seat(2), Action::Pass).expect("legal");
    discard(&mut game, 1, "9s");
    assert!(game.legal_actions(seat(2)).contains(&Action::Win));
}

#[test]
fn two_players_win_on_one_discard_and_the_discarder_pays_both() {
    let mut hands = WAITING;
    hands[3] = "1s1s1s 4m4m4m 7p7p7p 9m9m9m 5p";
    let mut game = hand_in_play(RulesetId::Shanghai, hands, "5p", "9s", "");
    discard(&mut game, 0, "5p");
    game.apply(seat(2), Action::Win).expect("legal");
    game.apply(seat(3), Action::Win).expect("legal");
    assert!(game.is_over());
    assert_eq!(game.wins().len(), 2);
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    // Two 碰碰胡 shares of 底分 2 (seat 3's 1s pung gives no 花), both from seat 0.
    assert_eq!(settlement.deltas[seat(0)], -4);
    assert_eq!(
        (settlement.deltas[seat(2)], settlement.deltas[seat(3)]),
        (2, 2)
    );
}

#[test]
fn only_the_next_seat_may_chow_and_a_pung_beats_it() {
    let hands = [
        "1m2m3m 4p6p7p 7s8s9s 1z2z3z 4z",
        "2m3m4m 5m6m7m 4p6p 6s7s8s 9m 4s",
        "5p5p 1m 3m 5m 7m 9m 1s 3s 5s 7s 9s 2z",
        "4p6p 8p9p 6m7m 8m 9m 1s 2s 3s 5z 6z",
    ];
    let mut game = hand_in_play(RulesetId::Shanghai, hands, "5p", "9s", "");
    discard(&mut game, 0, "5p");
    assert!(
        game.legal_actions(seat(1))
            .contains(&Action::Chow { low: tile("4p") })
    );
    assert!(
        !game
            .legal_actions(seat(3))
            .iter()
            .any(|a| matches!(a, Action::Chow { .. })),
        "seat 3 is not seat 0's 下家"
    );
    game.apply(seat(1), Action::Chow { low: tile("4p") })
        .expect("legal");
    game.apply(seat(2), Action::Pung).expect("legal");
    assert!(game.seats[seat(1)].melds.is_empty(), "the chow gave way");
    assert_eq!(game.seats[seat(2)].melds.len(), 1);
    assert!(game.seats[seat(2)].melds[0].meld.is_pung_or_kong());
}

#[test]
fn an_added_kong_can_be_robbed_and_a_concealed_one_cannot() {
    // Seat 2 waits on 5p with 清一色 (one 勒子). Seat 0 holds four 5p: its concealed kong
    // offers seat 2 nothing.
    let mut hands = WAITING;
    hands[0] = "1m2m3m 5p5p5p 7s8s9s 1z2z3z 4z";
    hands[2] = "1p1p1p 2p3p4p 4p6p 7p8p9p 3p3p";
    let mut game = hand_in_play(RulesetId::Shanghai, hands, "5p", "", "7z 7z");
    game.apply(seat(0), Action::ConcealedKong { tile: tile("5p") })
        .expect("legal");
    assert!(game.legal_actions(seat(2)).is_empty());
    assert!(
        game.legal_actions(seat(0))
            .contains(&Action::Discard { tile: tile("7z") })
    );

    // Seat 0 holds an exposed pung of 5p and draws the fourth: seat 2 may rob it.
    let mut hands = WAITING;
    hands[0] = "1m2m3m 7s8s9s 1z2z3z 4z";
    hands[2] = "1p1p1p 2p3p4p 4p6p 7p8p9p 3p3p";
    let mut game = hand_in_play(RulesetId::Shanghai, hands, "5p", "", "7z");
    let in_play = game.in_play();
    game.seats[seat(0)].melds.push(PlacedMeld {
        meld: Meld {
            kind: MeldKind::Pung,
            tile: tile("5p"),
            from: Some(seat(3)),
            claimed: Some(tile("5p")),
        },
        in_play,
    });
    game.refresh_legal();
    game.apply(seat(0), Action::AddedKong { tile: tile("5p") })
        .expect("legal");
    assert_eq!(game.legal_actions(seat(2)), &[Action::Win, Action::Pass]);
    game.apply(seat(2), Action::Win).expect("legal");
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    // 清一色 is one 勒子 (10); the declarer pays three shares, nobody else pays.
    assert_eq!(settlement.deltas[seat(0)], -30);
    assert_eq!(settlement.deltas[seat(2)], 30);
}
