//! Wuhu rules in play, on hands set up tile by tile: a complete hand under 8 支 is never offered
//! the win (八支起胡), a discard win is paid by all three with the dealer's 底番 once more, a
//! closed wait filled from a discard scores 押当, and two seats ready on one discard give one
//! win (head bump).

use super::testkit::{discard, hand_in_play, seat};
use super::*;
use crate::ruleset::RulesetId;

/// Seat 0 (the dealer) has drawn and must discard; seats 2 and 3 hold nothing anyone claims.
const HANDS: [&str; 4] = [
    "1m1m 2p3p 5s6s 8s 1z2z3z4z 6z 9m",
    "",
    "2m2m 3m 5m 7m 9m 1p 4p 8p 2s 4s 6s 5z",
    "3p 6p 8p 9p 3s 7s 2z2z 3z3z 4z4z 5z",
];

#[test]
fn a_complete_hand_under_eight_zhi_is_never_offered_the_win() {
    // Seat 1 waits on 7z, but its longest suit holds 6 支.
    let mut hands = HANDS;
    hands[1] = "2m3m4m 5m6m7m 4p5p6p 7s8s9s 7z";
    let mut game = hand_in_play(RulesetId::Wuhu, hands, "7z", "7z", "");
    discard(&mut game, 0, "7z");
    assert!(!game.legal_actions(seat(1)).contains(&Action::Win));
    // Seat 1 draws the other 7z: no self-draw either.
    assert!(!game.legal_actions(seat(1)).contains(&Action::SelfDrawWin));
    assert!(game.wins().is_empty());
}

#[test]
fn a_discard_win_is_paid_by_all_three() {
    // 234m 567m 88m (8 支) 456p 11z; the dealer throws 1z: 2 + 4 = 6 fan.
    let mut hands = HANDS;
    hands[1] = "2m3m4m 5m6m7m 8m8m 4p5p6p 1z1z";
    let mut game = hand_in_play(RulesetId::Wuhu, hands, "1z", "9m", "");
    discard(&mut game, 0, "1z");
    assert!(game.legal_actions(seat(1)).contains(&Action::Win));
    game.apply(seat(1), Action::Win).expect("legal");
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    assert_eq!(settlement.fans[0].total, 6);
    // The dealer pays 6 + 底番 2; the other two 6 each.
    assert_eq!(settlement.deltas.0, [-8, 20, -6, -6]);
}

#[test]
fn a_closed_wait_filled_from_a_discard_scores_yadang() {
    // 1_3m filled by the dealer's 2m: 8 支, 押 2 → 4 + ⌈10/2⌉ = 9.
    let mut hands = HANDS;
    hands[1] = "1m3m 4m5m6m 8m8m 3p4p5p 1z1z1z";
    let mut game = hand_in_play(RulesetId::Wuhu, hands, "2m", "9m", "");
    discard(&mut game, 0, "2m");
    game.apply(seat(1), Action::Win).expect("legal");
    // Seat 2 could pung the 2m; the win takes precedence once it has answered.
    game.apply(seat(2), Action::Pass).expect("legal");
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    assert_eq!(settlement.fans[0].total, 9);
    assert_eq!(settlement.fans[0].items[0].name, "押当");
    // The dealer pays 9 + 底番 4.
    assert_eq!(settlement.deltas.0, [-13, 31, -9, -9]);
}

#[test]
fn two_seats_ready_on_one_discard_give_one_win_to_the_first_after_the_discarder() {
    let mut hands = HANDS;
    hands[1] = "2m3m4m 5m6m7m 8m8m8m 4p5p6p 7z";
    hands[2] = "1s2s3s 4s5s6s 7s8s9s 9s9s9s 7z";
    let mut game = hand_in_play(RulesetId::Wuhu, hands, "7z", "9m", "");
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
    // 9 支 on a discard: 2 + 5 = 7; the dealer pays 9.
    assert_eq!(settlement.deltas.0, [-9, 23, -7, -7]);
}
