//! Guangdong rules in play, on hands set up tile by tile: a win below the room's 起胡 is never
//! offered; 漏胡 bars the passed kind (and only it) until the player's next move; an added kong
//! robbed is paid by its declarer for all three; the replacement win of an exposed kong is paid
//! by the kong's feeder for all three; three winners on one discard are paid at least 3 fan.

use super::testkit::{discard, hand_in_play, seat, tile};
use super::*;
use crate::meld::{Meld, MeldKind};
use crate::ruleset::{OptionValue, RawOptions, RulesetId};

/// Seat 0 (the dealer) has drawn and must discard; seats 2 and 3 hold nothing anyone claims.
const HANDS: [&str; 4] = [
    "1m1m 2p3p 5s6s 8s 1z2z3z4z 6z 9m",
    "",
    "2m2m 3m 5m 7m 9m 1p 4p 8p 2s 4s 6s 5z",
    "3p 6p 8p 9p 3s 7s 2z2z 3z3z 4z4z 5z",
];

/// A hand in play where seat 1 holds `concealed` and a 123m chow claimed from seat 0.
fn with_chow(concealed: &str, drawn: &str, live: &str, tail: &str) -> Game {
    let mut hands = HANDS;
    hands[1] = concealed;
    let mut game = hand_in_play(RulesetId::Guangdong, hands, drawn, live, tail);
    give(&mut game, 1, MeldKind::Chow, "1m", 0);
    game
}

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

fn set_min_fan(game: &mut Game, min: i64) {
    let mut raw = RawOptions::new();
    raw.insert("min_fan".into(), OptionValue::Int(min));
    game.ruleset = Ruleset::new(RulesetId::Guangdong, &raw).expect("a valid option");
    game.refresh_legal();
}

#[test]
fn a_chicken_hand_below_the_minimum_is_not_offered() {
    // Seat 1 waits on 7z with a claimed chow: on a discard a 鸡胡 is 0 fan.
    let open = with_chow("4p5p6p 1s1s1s 9s9s9s 7z", "7z", "7z 9m", "");
    let mut game = open.clone();
    discard(&mut game, 0, "7z");
    assert_eq!(game.legal_actions(seat(1)), &[Action::Win, Action::Pass]);

    // With 起胡 1 nobody is asked: seat 1 simply draws, the other 7z, and that self-draw is
    // 1 fan (自摸), enough.
    let mut game = open;
    set_min_fan(&mut game, 1);
    discard(&mut game, 0, "7z");
    assert!(game.legal_actions(seat(1)).contains(&Action::SelfDrawWin));
    assert!(!game.legal_actions(seat(1)).contains(&Action::Win));
    game.apply(seat(1), Action::SelfDrawWin).expect("legal");
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    assert_eq!(settlement.fans[0].total, 1);
    assert_eq!(settlement.deltas.0, [-2, 6, -2, -2]);
}

#[test]
fn a_passed_win_bars_that_kind_only_until_the_players_next_move() {
    // Seat 1 waits on 9s or 7z (two pairs).
    let mut game = with_chow("4p5p6p 1s1s1s 9s9s 7z7z", "5z", "1z 7z 7z 9s 1z", "");
    discard(&mut game, 0, "5z");
    discard(&mut game, 1, "1z");
    discard(&mut game, 2, "7z");
    assert_eq!(
        game.legal_actions(seat(1)),
        &[Action::Win, Action::Pung, Action::Pass]
    );
    game.apply(seat(1), Action::Pass).expect("legal");
    // Seat 3 throws the next 7z: 漏胡, no win on that kind.
    discard(&mut game, 3, "7z");
    assert_eq!(game.legal_actions(seat(1)), &[Action::Pung, Action::Pass]);
    game.apply(seat(1), Action::Pass).expect("legal");
    // The other kind, 9s, is still open.
    discard(&mut game, 0, "9s");
    assert!(game.legal_actions(seat(1)).contains(&Action::Win));
    game.apply(seat(1), Action::Pass).expect("legal");
    // Its own draw is its next move: the restriction is gone.
    assert!(game.seats[seat(1)].missed.is_empty());
}

#[test]
fn a_robbed_added_kong_is_paid_by_its_declarer_for_all_three() {
    // Seat 0 punged 5p from seat 3 and draws the fourth; seat 1 waits on 5p (4p_6p).
    let mut hands = HANDS;
    hands[0] = "1m1m 2p3p 5s6s 8s 1z2z3z";
    hands[1] = "4p6p 1s1s1s 9s9s9s 7z7z";
    let mut game = hand_in_play(RulesetId::Guangdong, hands, "5p", "", "9m");
    give(&mut game, 0, MeldKind::Pung, "5p", 3);
    give(&mut game, 1, MeldKind::Chow, "1m", 0);
    game.apply(seat(0), Action::AddedKong { tile: tile("5p") })
        .expect("legal");
    assert_eq!(game.legal_actions(seat(1)), &[Action::Win, Action::Pass]);
    game.apply(seat(1), Action::Win).expect("legal");
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    // 鸡胡 0 + 抢杠 1 = 1 fan → 2 points, three times, all from seat 0.
    assert_eq!(settlement.fans[0].total, 1);
    assert_eq!(settlement.deltas.0, [-6, 6, 0, 0]);
}

#[test]
fn the_feeder_of_an_exposed_kong_pays_for_its_replacement_win() {
    // Seat 0 throws 7p; seat 1 kongs it and draws 5z from the tail: 鸡胡 + 自摸 = 1 fan,
    // 杠上开花 raises it to 3 → 8 points, three times, all from seat 0.
    let mut game = with_chow("7p7p7p 4s5s6s 7s8s9s 5z", "7p", "9m", "5z");
    discard(&mut game, 0, "7p");
    assert!(game.legal_actions(seat(1)).contains(&Action::ExposedKong));
    game.apply(seat(1), Action::ExposedKong).expect("legal");
    assert!(game.legal_actions(seat(1)).contains(&Action::SelfDrawWin));
    game.apply(seat(1), Action::SelfDrawWin).expect("legal");
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    assert_eq!(settlement.fans[0].total, 3);
    assert_eq!(settlement.deltas.0, [-24, 24, 0, 0]);
    assert_eq!(settlement.extras[0].name, "杠上开花包杠");
}

#[test]
fn three_winners_on_one_discard_are_each_paid_at_least_three_fan() {
    let hands = [
        "1m1m 2p3p 5s6s 8s 1z2z3z4z 6z 9m",
        "2p3p4p 1s1s1s 9s9s9s 5p",
        "2m2m2m 3s3s3s 7s7s7s 5p",
        "1p2p3p 6p6p6p 9p9p 4p6p",
    ];
    let mut game = hand_in_play(RulesetId::Guangdong, hands, "5p", "9m", "");
    give(&mut game, 1, MeldKind::Chow, "1m", 0);
    give(&mut game, 2, MeldKind::Pung, "4z", 3);
    give(&mut game, 3, MeldKind::Chow, "7p", 2);
    discard(&mut game, 0, "5p");
    for s in 1..4 {
        game.apply(seat(s), Action::Win).expect("legal");
    }
    assert_eq!(game.wins().len(), 3);
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    // 鸡胡 0 → 3 (8), 碰碰胡 2 → 3 (8), 清一色 4 (16): all from seat 0.
    let totals: Vec<i64> = settlement.fans.iter().map(|f| f.total).collect();
    assert_eq!(totals, [3, 3, 4]);
    assert_eq!(settlement.deltas.0, [-32, 8, 8, 16]);
}
