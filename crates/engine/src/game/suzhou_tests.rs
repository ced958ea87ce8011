//! Suzhou rules in play, on hands set up tile by tile: two seats ready on one discard give one
//! win (head bump, the first after the discarder); a robbed added kong is 和绝张 and paid once by
//! its declarer; a self-drawn concealed win whose other three copies are on the table is
//! doubled three times; seven pairs is offered.

use super::testkit::{discard, hand_in_play, seat, tile};
use super::*;
use crate::meld::{Meld, MeldKind};
use crate::ruleset::RulesetId;

/// Seat 0 (the dealer) has drawn and must discard; seats 2 and 3 hold nothing anyone claims.
const HANDS: [&str; 4] = [
    "1m1m 2p3p 5s6s 8s 1z2z3z4z 6z 9m",
    "",
    "2m2m 3m 5m 7m 9m 1p 4p 8p 2s 4s 6s 5z",
    "3p 6p 8p 9p 3s 7s 2z2z 3z3z 4z4z 5z",
];

/// Adds a claimed meld to a seat's tiles.
fn give(game: &mut Game, s: usize, kind: MeldKind, low: &str, from: usize) {
    let in_play = game.in_play();
    game.seats[seat(s)].melds.push(PlacedMeld {
        meld: Meld {
            kind,
            tile: tile(low),
            from: Some(seat(from)),
            claimed: Some(tile(low)),
        },
        in_play,
    });
    game.refresh_legal();
}

#[test]
fn two_seats_ready_on_one_discard_give_one_win_to_the_first_after_the_discarder() {
    let mut hands = HANDS;
    hands[1] = "4p5p6p 1s1s1s 9s9s9s 7z";
    hands[2] = "2m3m4m 5p6p7p 3s4s5s 7z";
    let mut game = hand_in_play(RulesetId::Suzhou, hands, "7z", "9m", "");
    give(&mut game, 1, MeldKind::Chow, "1m", 0);
    give(&mut game, 2, MeldKind::Chow, "1p", 1);
    discard(&mut game, 0, "7z");
    assert!(game.legal_actions(seat(1)).contains(&Action::Win));
    assert!(game.legal_actions(seat(2)).contains(&Action::Win));
    game.apply(seat(2), Action::Win).expect("legal");
    game.apply(seat(1), Action::Win).expect("legal");
    assert_eq!(game.wins().len(), 1);
    assert_eq!(game.wins()[0].seat, seat(1));
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    // Seat 1: 平胡 1, open, on a discard: 1 point from seat 0.
    assert_eq!(settlement.fans[0].total, 1);
    assert_eq!(settlement.deltas.0, [-1, 1, 0, 0]);
}

#[test]
fn a_robbed_added_kong_is_last_of_kind_and_paid_once_by_its_declarer() {
    // Seat 0 punged 5p from seat 3 and draws the fourth; seat 1 waits on 5p (4p_6p).
    let mut hands = HANDS;
    hands[0] = "1m1m 2p3p 5s6s 8s 1z2z3z";
    hands[1] = "4p6p 1s1s1s 9s9s9s 7z7z";
    let mut game = hand_in_play(RulesetId::Suzhou, hands, "5p", "", "9m");
    give(&mut game, 0, MeldKind::Pung, "5p", 3);
    give(&mut game, 1, MeldKind::Chow, "1m", 0);
    game.apply(seat(0), Action::AddedKong { tile: tile("5p") })
        .expect("legal");
    assert_eq!(game.legal_actions(seat(1)), &[Action::Win, Action::Pass]);
    game.apply(seat(1), Action::Win).expect("legal");
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    // 平胡 1, 和绝张 ×2 = 2, not 自摸: seat 0 pays 2 once.
    assert_eq!(settlement.fans[0].total, 2);
    assert_eq!(settlement.deltas.0, [-2, 2, 0, 0]);
}

#[test]
fn a_concealed_self_draw_of_the_last_copy_doubles_three_times() {
    // Seat 1 (concealed) waits on 1s/4s; 1s has been thrown three times already.
    let mut hands = HANDS;
    hands[1] = "1m2m3m 4p5p6p 7s8s9s 2s3s 7z7z";
    let mut game = hand_in_play(RulesetId::Suzhou, hands, "9m", "1s", "");
    for s in [0, 2, 3] {
        game.seats[seat(s)].discards.push(tile("1s"));
    }
    discard(&mut game, 0, "9m");
    assert!(game.legal_actions(seat(1)).contains(&Action::SelfDrawWin));
    game.apply(seat(1), Action::SelfDrawWin).expect("legal");
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    // 平胡 1 × 2 (门清) × 2 (自摸) × 2 (和绝张) = 8 from each.
    assert_eq!(settlement.fans[0].total, 8);
    assert_eq!(settlement.deltas.0, [-8, 24, -8, -8]);
}

#[test]
fn seven_pairs_wins_on_a_discard() {
    let mut hands = HANDS;
    hands[1] = "1m1m 3m3m 4p4p 8p8p 2s2s 6s6s 7z";
    let mut game = hand_in_play(RulesetId::Suzhou, hands, "7z", "9m", "");
    discard(&mut game, 0, "7z");
    assert!(game.legal_actions(seat(1)).contains(&Action::Win));
    game.apply(seat(1), Action::Win).expect("legal");
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    // 七对 4, 门清 ×2 = 8 from the discarder.
    assert_eq!(settlement.fans[0].total, 8);
    assert_eq!(settlement.deltas.0, [-8, 8, 0, 0]);
}
