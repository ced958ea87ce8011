//! Ningbo rules in play, on hands set up tile by tile (财神 9p unless a test turns one up from
//! the wall): the kind just chowed may not be thrown unless going 大吊; a pung is not made a
//! kong on the turn it was claimed; a discarded 财神 is dead; three 财神 and a 财神 single wait
//! win only by self-draw; a win below 4 台 is never offered; head bump; a flower drawn is set
//! aside and replaced from the tail, passing over the 财神 turned up inside the wall.

use super::testkit::{discard, hand_in_play, seat, tile};
use super::*;
use crate::meld::{Meld, MeldKind};
use crate::ruleset::{OptionValue, RawOptions, RulesetId};
use crate::table::Table;

/// Seat 0 (the dealer) has drawn and must discard; seats 2 and 3 claim nothing below.
const HANDS: [&str; 4] = [
    "1m1m 2p3p 5s6s 8s 1z2z3z4z 6z 9m",
    "",
    "2m2m 3m 5m 7m 9m 1p 4p 8p 2s 4s 6s 5z",
    "3p 6p 8p 1s 3s 7s 2z2z 3z3z 4z4z 5z",
];

/// A Ningbo hand in play where seat 1 holds `seat_one`, with 9p as the 财神.
fn ningbo(seat_one: &str, drawn: &str, live: &str, tail: &str) -> Game {
    let mut hands = HANDS;
    hands[1] = seat_one;
    let mut game = hand_in_play(RulesetId::Ningbo, hands, drawn, live, tail);
    game.wild = Some(WildDraw {
        indicator: tile("9p"),
        wild: tile("9p"),
    });
    game.refresh_legal();
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

/// Every seat that may claim the tile on offer passes.
fn pass_all(game: &mut Game) {
    for s in 0..4 {
        if game.legal_actions(seat(s)).contains(&Action::Pass) {
            game.apply(seat(s), Action::Pass).expect("legal pass");
        }
    }
}

fn discards_of(game: &Game, s: usize) -> Vec<Tile> {
    game.legal_actions(seat(s))
        .iter()
        .filter_map(|a| match a {
            Action::Discard { tile } => Some(*tile),
            _ => None,
        })
        .collect()
}

#[test]
fn the_kind_just_chowed_may_not_be_thrown_unless_going_big_single_wait() {
    let mut game = ningbo("1m2m 3m 4p5p6p 7s8s9s 1z1z 5z5z", "3m", "", "9m");
    discard(&mut game, 0, "3m");
    let chow = Action::Chow { low: tile("1m") };
    assert_eq!(game.legal_actions(seat(1)), &[chow, Action::Pass]);
    game.apply(seat(1), chow).expect("legal");
    let thrown = discards_of(&game, 1);
    assert!(!thrown.contains(&tile("3m")), "{thrown:?}");
    assert!(thrown.contains(&tile("5z")));

    // With three melds down the chow is the fourth: 3m or 5z may go (大吊).
    let mut game = ningbo("1m2m 3m 5z", "3m", "", "9m");
    give(&mut game, 1, MeldKind::Chow, "4p", 0);
    give(&mut game, 1, MeldKind::Pung, "7s", 2);
    give(&mut game, 1, MeldKind::Pung, "8s", 3);
    discard(&mut game, 0, "3m");
    game.apply(seat(1), chow).expect("legal");
    assert_eq!(discards_of(&game, 1), [tile("3m"), tile("5z")]);
}

#[test]
fn a_pung_is_not_made_a_kong_on_the_turn_it_was_claimed() {
    let mut game = ningbo("7z7z7z 4p5p6p 7s8s9s 1z1z 3m 9m", "7z", "1p 1p 1p 2s", "3s");
    discard(&mut game, 0, "7z");
    assert!(game.legal_actions(seat(1)).contains(&Action::ExposedKong));
    game.apply(seat(1), Action::Pung).expect("legal");
    let kong = Action::AddedKong { tile: tile("7z") };
    assert!(!game.legal_actions(seat(1)).contains(&kong));
    discard(&mut game, 1, "3m");
    pass_all(&mut game);
    for s in [2, 3, 0] {
        discard(&mut game, s, "1p");
        pass_all(&mut game);
    }
    // Its own turn after a draw: now the fourth 7z may be added.
    assert!(
        game.legal_actions(seat(1)).contains(&kong),
        "{:?}",
        game.legal_actions(seat(1))
    );
}

#[test]
fn a_discarded_caishen_is_dead() {
    let mut game = ningbo("9p9p 4p5p6p 7s8s9s 1z1z 3m 3s 8m", "9p", "2s", "");
    discard(&mut game, 0, "9p");
    assert!(
        game.legal_actions(seat(1))
            .iter()
            .all(|a| !matches!(a, Action::Pung | Action::Pass))
    );
    assert!(matches!(game.phase, Phase::Turn(t) if t.seat == seat(1)));
}

#[test]
fn a_caishen_single_wait_wins_only_by_self_draw() {
    // 456s 789s 777z and a lone 财神 with 666z claimed: 5z thrown is not offered, 5z drawn is.
    let mut game = ningbo("4s5s6s 7s8s9s 7z7z7z 9p", "5z", "5z 8m", "");
    give(&mut game, 1, MeldKind::Pung, "6z", 2);
    discard(&mut game, 0, "5z");
    assert!(!game.legal_actions(seat(1)).contains(&Action::Win));
    assert!(game.legal_actions(seat(1)).contains(&Action::SelfDrawWin));
    game.apply(seat(1), Action::SelfDrawWin).expect("legal");
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    // 混一色 2 + 箭刻 ×2 + 单吊 1 + 自摸 1 = 6 from each.
    assert_eq!(settlement.fans[0].total, 6);
    assert_eq!(settlement.deltas.0, [-6, 18, -6, -6]);
}

#[test]
fn three_caishen_win_only_by_self_draw() {
    let mut game = ningbo("4s5s6s 7z7z7z 9p9p9p 5z", "5z", "5z", "");
    give(&mut game, 1, MeldKind::Chow, "1m", 0);
    discard(&mut game, 0, "5z");
    assert!(!game.legal_actions(seat(1)).contains(&Action::Win));
    assert!(game.legal_actions(seat(1)).contains(&Action::SelfDrawWin));
    game.apply(seat(1), Action::SelfDrawWin).expect("legal");
    let fans = &game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()))
        .fans[0];
    assert!(fans.items.iter().any(|i| i.name == "三财神"), "{fans:?}");
}

#[test]
fn a_win_below_four_tai_is_not_offered() {
    // 123m 45p 789s 234s 5m5m: 6p thrown is 平胡 + 硬胡 = 2 台; only the chow is offered.
    let mut game = ningbo("1m2m3m 4p5p 7s8s9s 2s3s4s 5m5m", "6p", "", "9m");
    discard(&mut game, 0, "6p");
    assert_eq!(
        game.legal_actions(seat(1)),
        &[Action::Chow { low: tile("4p") }, Action::Pass]
    );
}

#[test]
fn the_first_winner_in_turn_order_takes_the_discard() {
    // Seats 1 and 2 both win on 7z (碰碰胡 2 + 单吊 1 + 硬胡 1 = 4): seat 1 alone is paid, 8.
    let mut hands = HANDS;
    hands[1] = "6m6m6m 7p7p7p 1s1s1s 9s9s9s 7z";
    hands[2] = "4m4m4m 6p6p6p 7s7s7s 2s2s2s 7z";
    let mut game = hand_in_play(RulesetId::Ningbo, hands, "7z", "", "9m");
    game.wild = Some(WildDraw {
        indicator: tile("9p"),
        wild: tile("9p"),
    });
    game.refresh_legal();
    discard(&mut game, 0, "7z");
    game.apply(seat(2), Action::Win).expect("legal");
    game.apply(seat(1), Action::Win).expect("legal");
    assert_eq!(game.wins().len(), 1);
    assert_eq!(game.wins()[0].seat, seat(1));
    assert_eq!(
        game.settlement()
            .unwrap_or_else(|| panic!("{:?}", game.settle_error()))
            .deltas
            .0,
        [-8, 8, 0, 0]
    );
}

#[test]
fn a_flower_drawn_is_replaced_from_the_tail_past_the_turned_up_caishen() {
    // The 财神 stack is the smaller die's from the tail: with dice 1 and 4 the tail's first
    // tile, 9p, is turned up and stays in the wall; seat 1 draws its own flower 夏 (2f), and
    // the replacement passes over 9p to 2p, completing 1p_3p.
    let mut game = ningbo("1m2m3m 1p3p 4s5s6s 7s8s9s 5z5z", "6z", "2f 8m", "9p 2p");
    game.wild = game.ruleset.rules().wild_tile(&mut game.wall, [1, 4]);
    assert_eq!(
        game.wild().map(|w| (w.indicator, w.wild)),
        Some((tile("9p"), tile("9p")))
    );
    game.refresh_legal();
    discard(&mut game, 0, "6z");
    assert_eq!(game.seats[seat(1)].flowers, [tile("2f")]);
    assert!(matches!(game.phase, Phase::Turn(t) if t.drawn == Some(tile("2p"))));
    game.apply(seat(1), Action::SelfDrawWin).expect("legal");
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    // 平胡 1 + 嵌张 1 + 自摸 1 + 硬胡 1 + 正花 1 = 5 from each.
    assert_eq!(settlement.fans[0].total, 5);
    assert_eq!(settlement.deltas.0, [-5, 15, -5, -5]);
}

#[test]
fn dealt_hands_turn_up_a_caishen_that_no_draw_takes() {
    let next: RawOptions = [(
        "caishen_rule".to_owned(),
        OptionValue::Text("next".to_owned()),
    )]
    .into();
    for (raw, same) in [(RawOptions::new(), true), (next, false)] {
        let rules = Ruleset::new(RulesetId::Ningbo, &raw).expect("options");
        for seed in 0..40 {
            let mut game = Table::new(rules.clone(), seed).deal(seed);
            let w = game.wild().expect("a 财神 is turned up");
            assert!(!w.indicator.is_flower());
            let expected = if same {
                w.indicator
            } else {
                crate::wall::next_for_indicator(w.indicator)
            };
            assert_eq!(w.wild, expected);
            // Play the hand out by throwing each drawn tile and passing every claim: the
            // census holds the 144 tiles, the indicator among them, to the end.
            while !game.is_over() {
                let Some(s) = game.to_act().iter().next() else {
                    break;
                };
                let legal = game.legal_actions(s).to_vec();
                let action = legal
                    .iter()
                    .copied()
                    .find(|a| matches!(a, Action::Pass | Action::DrawLast))
                    .or_else(|| match game.phase {
                        Phase::Turn(t) => t.drawn.map(|tile| Action::Discard { tile }),
                        _ => None,
                    })
                    .filter(|a| legal.contains(a))
                    .unwrap_or(legal[0]);
                game.apply(s, action).expect("legal");
                let total: u32 = game.census().iter().sum();
                assert_eq!(total, 144);
            }
        }
    }
}
