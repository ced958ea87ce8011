//! Beijing rules in play, on hands set up tile by tile: wilds never claim, four wilds must
//! win, only a concealed hand wins on a discard, and the dealer's first discarded wind is
//! followed and counted as 烧庄.

use super::testkit::{discard, hand_in_play, seat, tile};
use super::*;
use crate::meld::{KongKind, Meld, MeldKind};
use crate::ruleset::{RawOptions, RulesetId};

/// A Beijing hand in play with 9p wild (8p turned up).
fn beijing(hands: [&str; 4], drawn: &str, live: &str) -> Game {
    let mut game = hand_in_play(RulesetId::Beijing, hands, drawn, live, "");
    game.wild = Some(WildDraw {
        indicator: tile("8p"),
        wild: tile("9p"),
    });
    game.refresh_legal();
    game
}

const CLAIMERS: [&str; 4] = [
    "1m2m3m 4m5m6m 1s2s3s 4s5s6s 7p",
    "8p9p 5p6p 1z1z 2z2z 3z3z 4z4z 5z",
    "9p9p 1m1m 2s2s 3s 5s 7s 2p 3p 4p 6z",
    "3m3m 6m6m 7m7m 8m 9m 8s 9s 6z 7z 7z",
];

#[test]
fn a_discarded_wild_is_dead() {
    let mut game = beijing(CLAIMERS, "9p", "2z 3z");
    discard(&mut game, 0, "9p");
    for s in 1..4 {
        assert!(
            !game.legal_actions(seat(s)).contains(&Action::Pass),
            "seat {s} may not claim a wild"
        );
    }
    assert!(matches!(game.phase, Phase::Turn(t) if t.seat == seat(1)));
}

#[test]
fn no_chow_is_made_with_a_wild() {
    let mut game = beijing(CLAIMERS, "2z", "3z");
    discard(&mut game, 0, "7p");
    let legal = game.legal_actions(seat(1));
    assert!(legal.contains(&Action::Chow { low: tile("5p") }));
    assert!(legal.contains(&Action::Chow { low: tile("6p") }));
    assert!(
        !legal.contains(&Action::Chow { low: tile("7p") }),
        "7p 8p 9p would use the wild 9p"
    );
}

#[test]
fn after_a_claim_a_discard_no_longer_wins() {
    let mut hands = CLAIMERS;
    hands[2] = "1m1m1m 2s3s4s 5s6s7s 7p7p 8p8p";
    let game = {
        let mut g = beijing(hands, "2z", "3z");
        discard(&mut g, 0, "7p");
        g
    };
    assert!(game.legal_actions(seat(2)).contains(&Action::Win));
    hands[2] = "1m1m1m 5s6s7s 7p7p 8p8p";
    let mut game = beijing(hands, "2z", "3z");
    game.seats[seat(2)].melds.push(PlacedMeld {
        meld: Meld {
            kind: MeldKind::Pung,
            tile: tile("5z"),
            from: Some(seat(1)),
            claimed: Some(tile("5z")),
        },
        in_play: SeatSet::EMPTY,
    });
    game.refresh_legal();
    discard(&mut game, 0, "7p");
    assert_eq!(game.legal_actions(seat(2)), &[Action::Pung, Action::Pass]);
}

#[test]
fn the_fourth_wild_must_win_at_once_and_four_wilds_make_no_kong() {
    let hands = [
        "1m2m3m 4m5m6m 1s2s 4s 9p9p9p 7z",
        "2m3m4m 5m6m7m 2p3p4p 6s7s8s 1z",
        "1p1p 2s2s 3s3s 4s4s 5s5s 6z6z 7z",
        "3m3m 8p8p 6m6m 7m7m 8m 9m 1s 3z 4z",
    ];
    let game = beijing(hands, "9p", "2z");
    assert_eq!(game.legal_actions(seat(0)), &[Action::SelfDrawWin]);
}

#[test]
fn the_dealers_first_wind_is_followed_and_each_follow_round_is_counted() {
    let hands = [
        "2m3m4m 5m6m7m 2s3s4s 6s7s 8s 8s",
        "1z 1m2m3m 4p5p6p 7s8s9s 5z6z7z",
        "1z 1m2m3m 4p5p6p 7s8s9s 5z6z7z",
        "1z 4m5m6m 1p2p3p 4s5s6s 5z6z7z",
    ];
    let mut game = beijing(hands, "1z", "2z 3z 4z 2z 3z");
    for s in 0..4 {
        game.seats[seat(s)].has_discarded = false;
    }
    game.refresh_legal();
    discard(&mut game, 0, "1z");
    let discards: Vec<Action> = game
        .legal_actions(seat(1))
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Discard { .. }))
        .collect();
    assert_eq!(discards, [Action::Discard { tile: tile("1z") }]);
    discard(&mut game, 1, "1z");
    discard(&mut game, 2, "1z");
    discard(&mut game, 3, "1z");
    assert_eq!(game.follow.rounds, 1);
    assert_eq!(game.finished_hand().carried.shaozhuang_rounds, 1);
    // The dealer discards something else: the run is over for good.
    discard(&mut game, 0, "2z");
    assert_eq!(game.follow.rounds, 1);
}

#[test]
fn the_last_drawable_tile_is_won_on_or_thrown() {
    let mut hands = CLAIMERS;
    hands[1] = "8p9p 5p6p 1z1z1z 2z2z 3z3z 4z 5z";
    // The live wall is one tile, the fourth 1z; the reserve holds the rest. Seat 1 draws it,
    // the last drawable tile: it may not kong it, only throw it.
    let reserve = "2m 2m 2m 5m 5m 5m 8m 8m 1p 1p 1p 2p 2p 3p";
    let mut game = beijing(hands, "6z", &format!("1z {reserve}"));
    game.wall.set_reserve(14);
    discard(&mut game, 0, "6z");
    assert_eq!(
        game.legal_actions(seat(1)),
        &[Action::DrawLast, Action::DeclineLast],
        "the last tile's drawer is asked first"
    );
    game.apply(seat(1), Action::DrawLast).expect("legal");
    assert_eq!(
        game.legal_actions(seat(1)),
        &[Action::Discard { tile: tile("1z") }]
    );
}

#[test]
fn declining_the_last_tile_draws_the_hand_and_nobody_pays() {
    let reserve = "2m 2m 2m 5m 5m 5m 8m 8m 1p 1p 1p 2p 2p 3p";
    let mut game = beijing(CLAIMERS, "6z", &format!("1z {reserve}"));
    game.wall.set_reserve(14);
    discard(&mut game, 0, "6z");
    for s in [0, 2, 3] {
        assert!(
            game.legal_actions(seat(s)).is_empty(),
            "only seat 1 decides"
        );
    }
    let events = game.apply(seat(1), Action::DeclineLast).expect("legal");
    assert!(
        events
            .iter()
            .any(|e| matches!(e.kind, EventKind::LastDeclined { seat: s } if s == seat(1)))
    );
    assert!(game.is_over() && game.is_exhausted());
    assert!(game.wins().is_empty());
    assert_eq!(game.wall_drawable(), 1, "the last tile stays in the wall");
    let settlement = game.settlement().expect("settled");
    assert!(settlement.deltas.iter().all(|(_, &p)| p == 0));
}

#[test]
fn in_2020_the_last_tile_is_drawn_without_asking() {
    let hands = CLAIMERS.map(|h| h.replace("9p9p", "1p1p"));
    let hands = [&*hands[0], &*hands[1], &*hands[2], &*hands[3]];
    let mut game = hand_in_play(RulesetId::Beijing2020, hands, "6z", "1z", "");
    discard(&mut game, 0, "6z");
    assert!(matches!(game.phase, Phase::Turn(t) if t.seat == seat(1) && t.last_tile));
}

#[test]
fn in_2020_a_third_player_to_kong_draws_the_hand() {
    let hands = [
        "1m1m1m 4m5m6m 1s2s3s 4s5s6s 7p",
        "8p9p 5p6p 1z1z 3z3z 4z 5z",
        "9p9p 1p1p 2s2s 3s 5s 7s 6z",
        "3m3m 6m6m 7m7m 8m 9m 8s 9s 6z 7z 7z",
    ];
    let mut game = hand_in_play(RulesetId::Beijing2020, hands, "1m", "2z", "3p 3p");
    assert!(game.wild.is_none(), "the 2020 rules have no wilds");
    for (s, t) in [(1, "2z"), (2, "7s")] {
        let in_play = game.in_play();
        game.seats[seat(s)].melds.push(PlacedMeld {
            meld: Meld {
                kind: MeldKind::Kong(KongKind::Exposed),
                tile: tile(t),
                from: Some(seat(3)),
                claimed: Some(tile(t)),
            },
            in_play,
        });
    }
    game.refresh_legal();
    game.apply(seat(0), Action::ConcealedKong { tile: tile("1m") })
        .expect("legal");
    assert!(game.is_over(), "三家杠荒牌");
    assert!(game.wins().is_empty());
    assert_eq!(game.wall.remaining(), 3, "no replacement was drawn");
}

/// Seat 0 has drawn its fourth 5m; seat 1 waits on 5m with 一条龙 (4m_6m in 1m–9m), seat 2 on
/// 5m without it, seat 3 on nothing.
const ROBBERS: [&str; 4] = [
    "5m5m5m 1s2s3s 4s5s6s 7p8p 2z2z",
    "1m2m3m 4m6m 7m8m9m 1p1p1p 3z3z",
    "3m4m 6m7m8m 2p3p4p 5p6p7p 4z4z",
    "3m3m 6m6m 7m7m 8s 9s 8p 6z 7z 7z 1z",
];

fn robbing_game(option: bool) -> Game {
    let mut game = beijing(ROBBERS, "5m", "2z 3z 4z 1z 2z 3z");
    let mut raw = RawOptions::new();
    raw.insert(
        "dragon_robs_concealed_kong".into(),
        crate::ruleset::OptionValue::Bool(option),
    );
    game.ruleset = Ruleset::new(RulesetId::Beijing, &raw).expect("option");
    game.refresh_legal();
    game
}

#[test]
fn with_the_option_only_a_dragon_may_rob_a_concealed_kong_and_only_it_sees_the_tile() {
    let mut game = robbing_game(true);
    game.apply(seat(0), Action::ConcealedKong { tile: tile("5m") })
        .expect("legal");
    assert_eq!(game.legal_actions(seat(1)), &[Action::Win, Action::Pass]);
    assert!(
        game.legal_actions(seat(2)).is_empty(),
        "a plain hand on 5m may not rob a concealed kong"
    );
    for (s, sees) in [(0, true), (1, true), (2, false), (3, false)] {
        let shown = game.view(seat(s)).last_discard;
        assert_eq!(
            shown.is_some(),
            sees,
            "seat {s} sees the kong's tile: {shown:?}"
        );
    }
    game.apply(seat(1), Action::Win).expect("legal");
    let win = game.wins()[0];
    assert_eq!((win.seat, win.from), (seat(1), Some(seat(0))));
    assert!(win.flags.robbed_kong && win.flags.robbed_concealed_kong);
    assert!(game.is_over());
    assert_eq!(game.seats[seat(0)].concealed.get(tile("5m")), 3);
    let settlement = game.settlement().expect("settled");
    let lines = &settlement.fans[0].items;
    assert!(lines.iter().any(|l| l.name == "一条龙"), "{lines:?}");
    assert!(settlement.deltas[seat(0)] < 0 && settlement.deltas[seat(1)] > 0);
}

#[test]
fn a_passed_rob_lays_the_concealed_kong_down() {
    let mut game = robbing_game(true);
    game.apply(seat(0), Action::ConcealedKong { tile: tile("5m") })
        .expect("legal");
    let events = game.apply(seat(1), Action::Pass).expect("legal");
    let kong = events
        .iter()
        .find(|e| matches!(e.kind, EventKind::Melded { .. }))
        .expect("the kong is laid down");
    assert!(matches!(kong.audience, Audience::Seat(s) if s == seat(0)));
    assert!(game.seats[seat(0)].melds.iter().any(|m| m.meld.is_kong()));
    assert!(matches!(game.phase, Phase::Turn(t) if t.seat == seat(0) && t.after_kong));
}

#[test]
fn without_the_option_a_concealed_kong_is_never_robbed() {
    let mut game = robbing_game(false);
    game.apply(seat(0), Action::ConcealedKong { tile: tile("5m") })
        .expect("legal");
    assert!(game.legal_actions(seat(1)).is_empty());
    assert!(matches!(game.phase, Phase::Turn(t) if t.seat == seat(0) && t.after_kong));
}
