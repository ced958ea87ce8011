//! The shared flow on the plain test family: flowers, chows, head bump, multi-win, play-on,
//! reserve, tail replacements and robbing, with the invariants checked at every step.

use super::*;
use crate::variants::testing::Plain;

fn plain(multi_win: bool, plays_on: bool, reserve: usize) -> Ruleset {
    Ruleset::plain(Plain::new(multi_win, plays_on, reserve, false))
}

#[derive(Default, Debug)]
struct Seen {
    chows: usize,
    pungs: usize,
    kongs: usize,
    flowers: usize,
    wins: usize,
    robbed: usize,
    multi: usize,
    exhausted: usize,
}

fn conserved(game: &Game) {
    let set = game.ruleset().rules().flow().tiles;
    for (i, &n) in game.census().iter().enumerate() {
        let t = Tile::from_index(i as u8).expect("kind");
        assert_eq!(n, u32::from(set.copies(t)), "{t}");
    }
}

/// Plays with a claim-happy random policy and checks the invariants after every action.
fn play(rules: &Ruleset, seed: u64, seen: &mut Seen) -> Game {
    let mut rng = SeededRng::new(seed);
    let mut game = Game::new(
        rules.clone(),
        seed,
        Seat::ALL[(seed % 4) as usize],
        Wind::East,
        Carried::default(),
    );
    conserved(&game);
    for s in game.table_seats() {
        assert!(
            game.seats[s].concealed.total() >= 13,
            "deal gives 13 playing tiles after 补花"
        );
    }
    let mut steps = 0;
    while !game.is_over() {
        steps += 1;
        assert!(steps < 3000);
        let seat = game
            .table_seats()
            .find(|&s| !game.legal_actions(s).is_empty())
            .expect("someone acts");
        let legal = game.legal_actions(seat).to_vec();
        let pick = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Win | Action::SelfDrawWin))
            .or_else(|| {
                legal
                    .iter()
                    .copied()
                    .find(|a| a.claim_rank() > 0 && rng.below(3) > 0)
            })
            .or_else(|| {
                legal
                    .iter()
                    .copied()
                    .find(|a| matches!(a, Action::AddedKong { .. } | Action::ConcealedKong { .. }))
            })
            .unwrap_or_else(|| legal[rng.below(legal.len() as u32) as usize]);
        match pick {
            Action::Chow { .. } => seen.chows += 1,
            Action::Pung => seen.pungs += 1,
            Action::ExposedKong | Action::ConcealedKong { .. } | Action::AddedKong { .. } => {
                seen.kongs += 1
            }
            _ => {}
        }
        game.apply(seat, pick).expect("a listed action is accepted");
        conserved(&game);
        // A chow is only ever offered to the discarder's next seat.
        if let Phase::Claims(w) = &game.phase {
            for (s, opts) in w.options.iter() {
                if opts.iter().any(|a| matches!(a, Action::Chow { .. })) {
                    assert_eq!(s, w.from.next(4));
                }
            }
        }
    }
    let st = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    assert_eq!(st.deltas.0.iter().sum::<i64>(), 0);
    seen.flowers += game
        .table_seats()
        .map(|s| game.seats[s].flowers.len())
        .sum::<usize>();
    seen.wins += game.wins().len();
    seen.robbed += game.wins().iter().filter(|w| w.flags.robbed_kong).count();
    seen.multi += game
        .wins()
        .windows(2)
        .filter(|p| p[0].from.is_some() && p[0].from == p[1].from && p[0].tile == p[1].tile)
        .count();
    if game.is_exhausted() {
        seen.exhausted += 1;
        // The hand is drawn when only the reserve is left: its tiles are still in the wall.
        let reserve = game.ruleset().rules().flow().reserve.after(game.kongs_made);
        let taken = game.wall.order().len() - game.wall.remaining() - game.wall.live_drawn();
        assert_eq!(game.wall.drawable(), 0);
        assert!(reserve == 0 || game.wall.remaining() <= reserve.saturating_sub(taken));
    }
    game
}

#[test]
fn flowers_chows_kongs_and_head_bump() {
    let rules = plain(false, false, 14);
    let mut seen = Seen::default();
    for seed in 0..400 {
        let game = play(&rules, seed, &mut seen);
        assert!(game.wins().len() <= 1, "head bump: one winner");
    }
    assert!(
        seen.flowers > 0 && seen.chows > 0 && seen.pungs > 0 && seen.kongs > 0,
        "{seen:?}"
    );
    assert!(seen.wins > 0 && seen.exhausted > 0, "{seen:?}");
    assert_eq!(seen.multi, 0);
}

#[test]
fn multi_win_and_play_on() {
    let rules = plain(true, true, 0);
    let mut seen = Seen::default();
    let mut several = 0;
    for seed in 0..400 {
        let game = play(&rules, seed, &mut seen);
        assert!(game.wins().len() <= 3);
        several += usize::from(game.wins().len() >= 2);
    }
    assert!(
        several > 0,
        "play-on lets a hand have several wins: {seen:?}"
    );
    assert!(seen.multi > 0, "one discard with several winners: {seen:?}");
}

#[test]
fn wild_tiles_complete_hands() {
    let rules = Ruleset::plain(Plain::new(false, false, 0, true));
    let mut seen = Seen::default();
    let mut wild_wins = 0;
    for seed in 0..300 {
        let game = play(&rules, seed, &mut seen);
        let w = game.wild().expect("an indicator is turned up");
        assert_eq!(w.wild, crate::wall::next_for_indicator(w.indicator));
        for win in game.wins() {
            let hand = &game.finished_hand().seats[win.seat];
            let mut full = hand.concealed;
            full.add(win.tile);
            let plain = crate::shape::is_complete(
                &full,
                hand.melds.len() as u8,
                rules.rules().flow().forms,
            );
            wild_wins += usize::from(!plain);
        }
    }
    assert!(
        seen.wins > 0 && wild_wins > 0,
        "some wins need the wild: {seen:?} {wild_wins}"
    );
}

/// Seat 1 holds a pung of 5p and draws the fourth 5p; seat 2 holds `two` (ready on 5p, or
/// not). Built by hand.
fn added_kong_table(two: &str) -> Game {
    let rules = plain(false, false, 0);
    let mut game = Game::new(rules, 1, Seat::ALL[1], Wind::East, Carried::default());
    let five = "5p".parse::<Tile>().expect("tile");
    let pung = crate::Meld {
        kind: crate::MeldKind::Pung,
        tile: five,
        from: Some(Seat::ALL[0]),
        claimed: Some(five),
    };
    game.seats[Seat::ALL[1]].concealed = TileCounts::parse("123m456m789m5p1z").expect("tiles");
    game.seats[Seat::ALL[1]].melds = vec![PlacedMeld {
        meld: pung,
        in_play: SeatSet::all(4),
    }];
    game.seats[Seat::ALL[2]].concealed = TileCounts::parse(two).expect("tiles");
    game.phase = Phase::Turn(Turn {
        seat: Seat::ALL[1],
        drawn: Some(five),
        after_kong: false,
        last_tile: false,
        forced_zone: false,
    });
    game.refresh_legal();
    assert!(
        game.legal_actions(Seat::ALL[1])
            .contains(&Action::AddedKong { tile: five })
    );
    game
}

/// The announcement every seat and spectator gets of a kong that may be robbed.
fn kong_offered(seat: usize, tile: Option<Tile>) -> Event {
    Event {
        audience: Audience::Everyone,
        kind: EventKind::KongOffered {
            seat: Seat::ALL[seat],
            tile,
        },
    }
}

#[test]
fn robbing_an_added_kong() {
    let mut game = added_kong_table("123s456s789s46p11z");
    let five = "5p".parse::<Tile>().expect("tile");
    let events = game
        .apply(Seat::ALL[1], Action::AddedKong { tile: five })
        .expect("legal");
    // Announced; the kong is not laid down while seat 2 may rob it.
    assert_eq!(events, [kong_offered(1, Some(five))]);
    assert_eq!(
        game.legal_actions(Seat::ALL[2]),
        &[Action::Win, Action::Pass]
    );
    game.apply(Seat::ALL[2], Action::Win).expect("robs");
    let win = game.wins()[0];
    assert!(win.flags.robbed_kong && win.from == Some(Seat::ALL[1]));
    assert!(game.is_over());
    // The pung stays a pung; the robbed tile left seat 1's hand.
    assert_eq!(
        game.seats[Seat::ALL[1]].melds[0].meld.kind,
        crate::MeldKind::Pung
    );
    assert_eq!(game.seats[Seat::ALL[1]].concealed.get(five), 0);
}

#[test]
fn an_added_kong_nobody_can_rob_is_announced_the_same_way() {
    // Seat 2 does not wait on 5p: the kong is laid down at once, after the same announcement,
    // so the announcement tells nothing about the other hands.
    let mut game = added_kong_table("123s456s789s13p11z");
    let five = "5p".parse::<Tile>().expect("tile");
    let events = game
        .apply(Seat::ALL[1], Action::AddedKong { tile: five })
        .expect("legal");
    assert_eq!(events.first(), Some(&kong_offered(1, Some(five))));
    assert!(matches!(
        events.get(1).map(|e| &e.kind),
        Some(EventKind::Melded { meld: Some(m), .. }) if m.kind == crate::MeldKind::Kong(crate::KongKind::Added)
    ));
}

#[test]
fn refused_actions_name_the_legal_ones() {
    let mut game = Game::new(
        plain(false, false, 0),
        3,
        Seat::ALL[0],
        Wind::East,
        Carried::default(),
    );
    let err = game
        .apply(Seat::ALL[2], Action::Pass)
        .expect_err("not its decision");
    assert!(matches!(err, GameError::IllegalAction { .. }));
    assert!(err.to_string().contains("nothing"));
    let bad = Action::Discard {
        tile: "1f".parse().expect("tile"),
    };
    let err = game
        .apply(Seat::ALL[0], bad)
        .expect_err("flowers are never discarded");
    assert!(err.to_string().contains("discard"), "{err}");
}
