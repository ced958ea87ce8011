//! Two-player rules in play: the 71-tile wall and the unused 65 with the 花牌 turned up from
//! them, 报听 with the engine's automatic discards and the win-or-pass question, 天听, the
//! 海底捞月 phase and its first-ready rule, robbing an added kong as a self-draw, and who deals
//! next.

use super::testkit::{hand_in_play, seat, tile};
use super::*;
use crate::meld::{Meld, MeldKind};
use crate::ruleset::{HandResult, RulesetId};
use crate::table::TableState;

fn tiles(s: &str) -> Vec<Tile> {
    s.split(' ').filter(|s| !s.is_empty()).map(tile).collect()
}

/// A two-player hand in play: seat 0 holds `hands[0]` and has just drawn `drawn`; the live
/// wall is `live` (in drawing order) and the set-aside tiles are `unused` (in drawing order).
fn two_player(hands: [&str; 2], drawn: &str, live: &str, unused: &str) -> Game {
    // The testkit's hand with `unused` where the replacements would be, then set aside.
    let mut game = hand_in_play(RulesetId::TwoPlayer, hands, drawn, live, unused);
    game.wall.set_aside_unused(tiles(live).len());
    game.refresh_legal();
    game
}

fn act(game: &mut Game, s: usize, a: Action) -> Vec<Event> {
    game.apply(seat(s), a)
        .unwrap_or_else(|e| panic!("{a} refused: {e}"))
}

/// Seat 0 waits on 3p after discarding 9s; seat 1 holds nothing that claims.
const HANDS: [&str; 2] = ["123m456m789m1p2p5z5z", "1s2s4s6s8s1z2z3z4z6z7z9p9p"];

#[test]
fn a_deal_keeps_71_tiles_in_play_and_turns_up_a_bonus_kind_from_the_other_65() {
    let rules = Ruleset::with_defaults(RulesetId::TwoPlayer).expect("defaults");
    let game = Game::new(rules, 11, seat(1), Wind::East, Carried::default());
    assert_eq!(game.players(), 2);
    assert_eq!(game.wall_drawable(), 71 - 27);
    assert_eq!(game.wall.unused().len(), 65 - 1);
    assert_eq!(game.bonus().len(), 1);
    let turned = game
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::BonusTurned { .. }))
        .count();
    assert_eq!(turned, 1);
    assert_eq!(game.seat_state(seat(1)).concealed.total(), 14);
    assert_eq!(game.seat_state(seat(0)).concealed.total(), 13);
    assert!(game.legal_actions(seat(2)).is_empty());
    assert_eq!(
        game.clone().apply(seat(3), Action::Pass),
        Err(GameError::NoSuchSeat(seat(3)))
    );
    let census = game.census();
    assert!(Tile::playing().all(|t| census[t.index()] == 4));
    assert_eq!(game.finished_hand().bonus, game.bonus().to_vec());
}

#[test]
fn declaring_ready_locks_the_hand_and_the_engine_discards_for_it() {
    let mut game = two_player(HANDS, "9s", "4s 7p 3p", "6p 3p");
    let legal = game.legal_actions(seat(0)).to_vec();
    assert!(legal.contains(&Action::DeclareReady { tile: tile("9s") }));
    assert!(!legal.contains(&Action::DeclareReady { tile: tile("1p") }));
    let events = act(&mut game, 0, Action::DeclareReady { tile: tile("9s") });
    assert!(matches!(
        events[0].kind,
        EventKind::ReadyDeclared {
            first_turn: false,
            ..
        }
    ));
    assert!(game.is_ready(seat(0)));
    assert!(game.view(seat(1)).seats[0].ready);
    // Seat 1 draws 4s and throws it; seat 0 draws 7p, which the engine discards at once.
    let events = act(&mut game, 1, Action::Discard { tile: tile("4s") });
    let auto: Vec<Tile> = events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Discarded { seat: s, tile } if s == seat(0) => Some(tile),
            _ => None,
        })
        .collect();
    assert_eq!(auto, [tile("7p")]);
    assert_eq!(game.to_act(), [seat(1)].into_iter().collect());
    // Seat 1 draws and throws 3p: a ready seat may only win or pass (no chow 1p2p3p).
    act(&mut game, 1, Action::Discard { tile: tile("3p") });
    assert_eq!(game.legal_actions(seat(0)), [Action::Win, Action::Pass]);
    act(&mut game, 0, Action::Pass);
    // The 71 are out and seat 0 alone waits: 海底捞月. 6p does not win and is laid down; 3p wins.
    assert_eq!(game.seabed_seat(), Some(seat(0)));
    assert_eq!(
        game.legal_actions(seat(0)),
        [Action::SelfDrawWin, Action::Pass]
    );
    assert_eq!(game.seat_state(seat(0)).discards.last(), Some(&tile("6p")));
    act(&mut game, 0, Action::SelfDrawWin);
    let win = game.wins()[0];
    assert!(win.flags.seabed && win.flags.declared_ready && !win.flags.last_tile);
    let st = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    let names: Vec<&str> = st.fans[0].items.iter().map(|i| i.name).collect();
    assert!(
        names.contains(&"海底捞月") && names.contains(&"门清报听"),
        "{names:?}"
    );
    assert_eq!(st.deltas[seat(0)], st.fans[0].total);
    assert_eq!(st.deltas[seat(1)], -st.fans[0].total);
}

#[test]
fn the_seabed_phase_goes_to_the_first_ready_and_ends_drawn_after_three_draws() {
    // Both seats wait when the wall runs out; seat 1 declared ready, seat 0 did not.
    let mut game = two_player(
        ["123m456m789m1p2p5z5z", "123s456s789s7p8p6z6z"],
        "1z",
        "4s",
        "2z 3z 4z 7z",
    );
    game.seats[seat(1)].ready = Some(ready::Declared {
        at: 7,
        first_turn: false,
    });
    game.seats[seat(0)].waiting_since = Some(1);
    act(&mut game, 0, Action::Discard { tile: tile("1z") });
    // Seat 1 draws 4s, which does not win: the engine throws it, seat 0 passes on nothing,
    // and the wall is out.
    assert_eq!(game.seabed_seat(), Some(seat(1)));
    assert!(game.is_over());
    assert!(game.is_exhausted());
    assert_eq!(game.wall.unused().len(), 1, "three draws, no more");
    let st = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    assert_eq!(st.deltas.0, [0, 0, 0, 0], "a drawn hand pays nothing");

    // Without a 报听, the hand waiting since the earlier discard draws.
    let mut game = two_player(
        ["123m456m789m1p2p5z5z", "123s456s789s7p8p6z6z"],
        "1z",
        "4s",
        "2z 3z 4z 7z",
    );
    game.seats[seat(0)].waiting_since = Some(5);
    game.seats[seat(1)].waiting_since = Some(2);
    act(&mut game, 0, Action::Discard { tile: tile("1z") });
    act(&mut game, 1, Action::Discard { tile: tile("4s") });
    assert_eq!(game.seabed_seat(), Some(seat(1)));
}

#[test]
fn nobody_waiting_when_the_wall_runs_out_is_a_drawn_hand() {
    let mut game = two_player(
        ["123m456m789m1p4p5z6z", "1s2s4s6s8s1z2z3z4z6z7z9p9p"],
        "9s",
        "",
        "3p",
    );
    act(&mut game, 0, Action::Discard { tile: tile("9s") });
    assert!(game.is_over() && game.is_exhausted());
    assert_eq!(game.seabed_seat(), None);
}

#[test]
fn ready_on_the_first_discard_is_heavenly_ready() {
    let rules = Ruleset::with_defaults(RulesetId::TwoPlayer).expect("defaults");
    for seed in 0..2_000 {
        let mut game = Game::new(rules.clone(), seed, seat(0), Wind::East, Carried::default());
        let Some(&ready) = game
            .legal_actions(seat(0))
            .iter()
            .find(|a| matches!(a, Action::DeclareReady { .. }))
        else {
            continue;
        };
        let events = game.apply(seat(0), ready).expect("legal");
        assert!(matches!(
            events[0].kind,
            EventKind::ReadyDeclared {
                first_turn: true,
                ..
            }
        ));
        return;
    }
    panic!("no dealer could declare ready on the first discard in 2,000 deals");
}

#[test]
fn robbing_an_added_kong_counts_as_a_self_draw() {
    // Seat 0 punged 5p and draws the fourth; seat 1, concealed, waits on 2p and 5p.
    let mut game = two_player(["123m456m789m1s", "123s456s789s3p4p6z6z"], "5p", "2z", "");
    let in_play = game.in_play();
    game.seats[seat(0)].melds.push(PlacedMeld {
        meld: Meld {
            kind: MeldKind::Pung,
            tile: tile("5p"),
            from: Some(seat(1)),
            claimed: Some(tile("5p")),
        },
        in_play,
    });
    game.refresh_legal();
    act(&mut game, 0, Action::AddedKong { tile: tile("5p") });
    assert_eq!(game.legal_actions(seat(1)), [Action::Win, Action::Pass]);
    act(&mut game, 1, Action::Win);
    let st = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    let names: Vec<&str> = st.fans[0].items.iter().map(|i| i.name).collect();
    assert!(names.contains(&"门清自摸"), "{names:?}");
}

#[test]
fn the_winner_deals_next_and_a_drawn_hand_keeps_the_dealer() {
    let rules = Ruleset::with_defaults(RulesetId::TwoPlayer).expect("defaults");
    let state = TableState::new(3, 2);
    let win = crate::settle::Win {
        seat: seat(1),
        tile: tile("1m"),
        from: None,
        flags: crate::settle::WinFlags::default(),
    };
    let won = HandResult {
        dealer: seat(0),
        wins: vec![win],
    };
    assert_eq!(rules.rules().next_hand(&state, &won).dealer, seat(1));
    let drawn = HandResult {
        dealer: seat(1),
        wins: Vec::new(),
    };
    assert_eq!(rules.rules().next_hand(&state, &drawn).dealer, seat(1));
}
