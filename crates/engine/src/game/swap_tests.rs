//! 开始时换牌 in play (two-player room option `swap`): the phase after the deal, one swap per
//! seat, tiles exchanged with the set-aside pile and conserved, hidden from the other seat, and
//! every wrong swap refused with nothing changed.

use super::testkit::seat;
use super::*;
use crate::ruleset::{OptionValue, RawOptions, RulesetId};
use crate::wall::TileSetKind;

fn two_player(swap: bool) -> Ruleset {
    let mut raw = RawOptions::new();
    raw.insert("swap".into(), OptionValue::Bool(swap));
    Ruleset::new(RulesetId::TwoPlayer, &raw).expect("valid options")
}

fn deal(swap: bool, seed: u64) -> Game {
    Game::new(
        two_player(swap),
        seed,
        seat(0),
        Wind::East,
        Carried::default(),
    )
}

fn act(game: &mut Game, s: usize, a: Action) -> Vec<Event> {
    game.apply(seat(s), a)
        .unwrap_or_else(|e| panic!("{a} refused: {e}"))
}

fn conserved(game: &Game) {
    for (i, &n) in game.census().iter().enumerate() {
        let t = Tile::from_index(i as u8).expect("kind");
        assert_eq!(n, u32::from(TileSetKind::Honors136.copies(t)), "{t}");
    }
}

/// Refused as illegal, with the game exactly as it was.
fn refused(game: &mut Game, s: usize, a: Action) {
    let before = (game.events().len(), game.actions().len(), game.census());
    let legal = game.legal_actions(seat(s)).to_vec();
    match game.apply(seat(s), a) {
        Err(GameError::IllegalAction { action, .. }) => assert_eq!(action, a),
        other => panic!("{a} should be refused, got {other:?}"),
    }
    assert_eq!(
        before,
        (game.events().len(), game.actions().len(), game.census())
    );
    assert_eq!(legal, game.legal_actions(seat(s)));
}

/// Marks the first `n` tiles (in sorted order) of the seat's hand.
fn mark_first(game: &mut Game, s: usize, n: usize) -> Vec<Tile> {
    let tiles: Vec<Tile> = game.seats[seat(s)].concealed.to_tiles()[..n].to_vec();
    for &t in &tiles {
        act(game, s, Action::SwapMark { tile: t });
    }
    tiles
}

#[test]
fn without_the_option_the_dealer_discards_at_once_and_swaps_are_refused() {
    let mut game = deal(false, 3);
    assert!(!game.is_swapping());
    assert!(
        game.legal_actions(seat(0))
            .iter()
            .any(|a| matches!(a, Action::Discard { .. }))
    );
    let held = game.seats[seat(0)].concealed.to_tiles()[0];
    refused(&mut game, 0, Action::SwapMark { tile: held });
    refused(&mut game, 0, Action::SwapDone);
    refused(&mut game, 1, Action::SwapDone);
}

#[test]
fn with_the_option_both_seats_swap_before_the_first_discard() {
    let game = deal(true, 3);
    assert!(game.is_swapping());
    assert_eq!(game.to_act(), SeatSet::all(2), "both seats swap at once");
    for s in 0..2 {
        let legal = game.legal_actions(seat(s));
        assert!(legal.contains(&Action::SwapDone));
        let kinds = game.seats[seat(s)].concealed.kinds();
        let marks: Vec<Tile> = legal
            .iter()
            .filter_map(|a| match a {
                Action::SwapMark { tile } => Some(*tile),
                _ => None,
            })
            .collect();
        assert_eq!(
            marks,
            kinds.iter().collect::<Vec<_>>(),
            "one mark per held kind"
        );
        assert!(
            !legal
                .iter()
                .any(|a| matches!(a, Action::Discard { .. } | Action::SelfDrawWin))
        );
    }
    assert_eq!(
        game.wall_drawable(),
        71 - 27,
        "the deal is as without a swap"
    );
}

#[test]
fn a_swap_exchanges_with_the_set_aside_pile_and_conserves_every_tile() {
    let mut game = deal(true, 9);
    let live = game.wall.live_and_tail().to_vec();
    let pile = game.wall.unused().to_vec();
    let out = mark_first(&mut game, 1, 3);
    assert_eq!(game.swap_marked(seat(1)), out.as_slice());
    assert_eq!(
        game.seats[seat(1)].concealed.total(),
        13,
        "marks stay in hand"
    );
    let events = act(&mut game, 1, Action::SwapDone);
    conserved(&game);
    let received: Vec<Tile> = pile.iter().rev().take(3).copied().collect();
    assert_eq!(game.seats[seat(1)].concealed.total(), 13);
    for t in &received {
        assert!(game.seats[seat(1)].concealed.get(*t) > 0, "{t} received");
    }
    assert_eq!(
        game.wall.live_and_tail(),
        live.as_slice(),
        "the 71 stay as dealt"
    );
    assert_eq!(
        game.wall.unused().len(),
        pile.len(),
        "as many back as taken"
    );
    assert_eq!(
        &game.wall.unused()[..3],
        out.as_slice(),
        "returned to the bottom"
    );
    assert!(events.iter().any(|e| e.kind
        == EventKind::Swapped {
            seat: seat(1),
            exchange: Box::new(crate::event::Exchange {
                out: out.clone(),
                received: received.clone(),
            }),
        }));
    assert!(game.is_swapping(), "the dealer has not finished");
    act(&mut game, 0, Action::SwapDone);
    assert!(!game.is_swapping());
    assert!(matches!(game.phase, Phase::Turn(t) if t.seat == seat(0)));
    conserved(&game);
}

#[test]
fn each_seat_swaps_once_and_only_tiles_it_holds() {
    let mut game = deal(true, 21);
    let hand = game.seats[seat(0)].concealed;
    let missing = Tile::playing()
        .find(|&t| hand.get(t) == 0)
        .expect("a kind not held");
    refused(&mut game, 0, Action::SwapMark { tile: missing });
    let single = Tile::playing()
        .find(|&t| hand.get(t) == 1)
        .expect("a kind held once");
    act(&mut game, 0, Action::SwapMark { tile: single });
    refused(&mut game, 0, Action::SwapMark { tile: single });
    act(&mut game, 0, Action::SwapDone);
    assert!(game.legal_actions(seat(0)).is_empty(), "done is done");
    let held = game.seats[seat(0)].concealed.to_tiles()[0];
    refused(&mut game, 0, Action::SwapMark { tile: held });
    refused(&mut game, 0, Action::SwapDone);
    act(&mut game, 1, Action::SwapDone);
    // Play has begun: the swap is out of phase for both.
    refused(&mut game, 0, Action::SwapDone);
    refused(&mut game, 1, Action::SwapMark { tile: held });
}

#[test]
fn the_other_seat_learns_only_how_many_tiles_were_swapped() {
    let mut game = deal(true, 5);
    let out = mark_first(&mut game, 0, 4);
    act(&mut game, 0, Action::SwapDone);
    act(&mut game, 1, Action::SwapDone);
    let mut counts = Vec::new();
    for e in game.events_for(seat(1)) {
        match &e.kind {
            EventKind::SwapMarked { seat: s, .. } | EventKind::Swapped { seat: s, .. } => {
                assert_eq!(*s, seat(1), "seat 0's swap leaked: {e:?}")
            }
            EventKind::SwappedHidden { seat: s, count } => counts.push((*s, *count)),
            _ => {}
        }
    }
    assert_eq!(counts, [(seat(0), out.len())]);
    let marked: Vec<Tile> = game
        .events_for(seat(0))
        .filter_map(|e| match e.kind {
            EventKind::SwapMarked { tile, .. } => Some(tile),
            _ => None,
        })
        .collect();
    assert_eq!(marked, out, "a seat hears its own marks");
    assert!(game.view(seat(1)).swap_marked.is_empty());
}

#[test]
fn a_dealer_that_swaps_its_fourteenth_tile_draws_a_received_one_instead() {
    let mut game = deal(true, 13);
    let opening = game.opening_tile.expect("a fourteenth tile");
    let copies = game.seats[seat(0)].concealed.get(opening);
    for _ in 0..copies {
        act(&mut game, 0, Action::SwapMark { tile: opening });
    }
    let events = act(&mut game, 0, Action::SwapDone);
    let received = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Swapped { exchange, .. } => Some(exchange.received.clone()),
            _ => None,
        })
        .expect("swapped");
    act(&mut game, 1, Action::SwapDone);
    let Phase::Turn(turn) = game.phase else {
        panic!("the dealer's turn")
    };
    assert_eq!(turn.drawn, received.first().copied());
    let drawn = turn.drawn.expect("a drawn tile");
    assert!(game.seats[seat(0)].concealed.get(drawn) > 0);
}

#[test]
fn an_empty_swap_changes_nothing_but_the_phase() {
    let mut game = deal(true, 17);
    let before = game.seats.map(|_, s| s.concealed);
    act(&mut game, 1, Action::SwapDone);
    act(&mut game, 0, Action::SwapDone);
    assert_eq!(before, game.seats.map(|_, s| s.concealed));
    let hidden = game
        .events_for(seat(0))
        .filter(|e| matches!(e.kind, EventKind::SwappedHidden { count: 0, .. }))
        .count();
    assert_eq!(hidden, 1);
    let record = crate::record::HandRecord::of(&game);
    let replayed = record.replay().expect("the swap replays");
    assert_eq!(replayed.events(), game.events());
}

#[test]
fn marks_never_outrun_the_set_aside_pile() {
    let mut game = deal(true, 2);
    // Leave the pile two tiles: one mark each, then only `SwapDone`.
    while game.wall.unused().len() > 2 {
        game.wall.draw_unused();
    }
    game.refresh_legal();
    mark_first(&mut game, 0, 1);
    mark_first(&mut game, 1, 1);
    assert_eq!(game.legal_actions(seat(0)), [Action::SwapDone]);
    assert_eq!(game.legal_actions(seat(1)), [Action::SwapDone]);
    act(&mut game, 0, Action::SwapDone);
    act(&mut game, 1, Action::SwapDone);
    assert_eq!(game.wall.unused().len(), 2);
}
