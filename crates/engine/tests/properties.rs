//! Invariants over many seeded random hands of every implemented preset:
//! tiles are conserved, settlements sum to zero (and their payments to their deltas), replays
//! reproduce, `apply` accepts exactly what `legal_actions` lists (and a refusal changes
//! nothing), nothing panics, and no seat ever sees another seat's concealed tiles or the wall.
//!
//! `PROPERTY_HANDS` sets the hands per preset with its default options (default 5,000); a
//! preset run with other room options plays a quarter of that.

mod knobs;
mod payments;
mod policy;

use engine::event::{Audience, EventKind};
use engine::record::HandRecord;
use engine::ruleset::{Ruleset, RulesetId};
use engine::settle::Carried;
use engine::stored::{Document, StoredHandRecord};
use engine::view::MeldView;
use engine::wall::SeededRng;
use engine::{Action, Game, Seat, Suit, Tile, Wind};

fn hands_per_preset() -> u64 {
    knobs::count("PROPERTY_HANDS", 5_000, 300)
}

/// Every action a seat could conceivably send, legal or not.
fn candidate_actions() -> Vec<Action> {
    let mut out = vec![
        Action::SelfDrawWin,
        Action::Win,
        Action::Pung,
        Action::ExposedKong,
        Action::Pass,
        Action::DrawLast,
        Action::DeclineLast,
    ];
    for suit in Suit::NUMBERED {
        out.push(Action::DeclareVoid { suit });
    }
    for t in Tile::playing() {
        out.push(Action::Discard { tile: t });
        out.push(Action::ConcealedKong { tile: t });
        out.push(Action::AddedKong { tile: t });
        out.push(Action::Chow { low: t });
        out.push(Action::DeclareReady { tile: t });
        out.push(Action::SwapMark { tile: t });
    }
    out.push(Action::SwapDone);
    out
}

/// A cheap fingerprint of everything `apply` could change.
fn fingerprint(game: &Game) -> (usize, usize, [u32; Tile::ALL_KINDS], Vec<Vec<Action>>) {
    let legal = game
        .table_seats()
        .map(|s| game.legal_actions(s).to_vec())
        .collect();
    (
        game.events().len(),
        game.actions().len(),
        game.census(),
        legal,
    )
}

fn assert_conserved(game: &Game) {
    let set = game.ruleset().rules().flow().tiles;
    let census = game.census();
    for (i, &n) in census.iter().enumerate() {
        let t = Tile::from_index(i as u8).expect("kind");
        assert_eq!(
            n,
            u32::from(set.copies(t)),
            "seed {}: {t} counted {n}",
            game.seed()
        );
    }
}

/// No event a seat may see reveals another seat's concealed tiles.
fn assert_events_hidden(game: &Game) {
    for seat in game.table_seats() {
        for e in game.events_for(seat) {
            match &e.kind {
                EventKind::Dealt { seat: s, .. } => assert_eq!(*s, seat, "deal leaked"),
                EventKind::Drew {
                    seat: s,
                    tile: Some(_),
                    ..
                } => assert_eq!(*s, seat, "draw leaked"),
                EventKind::VoidChosen { seat: s, .. } => assert_eq!(*s, seat, "void leaked early"),
                EventKind::SwapMarked { seat: s, .. } | EventKind::Swapped { seat: s, .. } => {
                    assert_eq!(*s, seat, "swap leaked")
                }
                EventKind::Melded {
                    seat: s,
                    meld: Some(m),
                } if m.is_concealed() => {
                    assert_eq!(*s, seat, "concealed kong leaked")
                }
                _ => {}
            }
            if let Audience::Seat(s) = e.audience {
                assert_eq!(s, seat);
            }
        }
    }
}

/// Each seat's view, during the hand, holds exactly what that seat may know, checked against
/// the tiles the seats actually hold: all of its own concealed tiles; of every seat, how many
/// concealed tiles it holds and its melds as they lie, another seat's concealed kong face down.
/// A spectator's view holds no one's concealed tiles, every concealed kong face down, and a tile
/// on offer only when every seat sees it.
fn assert_views_private(game: &Game) {
    let seed = game.seed();
    let truth = game.finished_hand();
    let public = game.public_view();
    for (s, seat) in game.table_seats().zip(&public.seats) {
        assert_eq!(seat.concealed_count, truth.seats[s].concealed.total());
        for (shown, real) in seat.melds.iter().zip(&truth.seats[s].melds) {
            assert_eq!(
                matches!(shown, MeldView::HiddenKong),
                real.meld.is_concealed(),
                "seed {seed}: a spectator sees {shown:?} for {:?}",
                real.meld
            );
        }
    }
    if let Some(tile) = public.offered {
        assert!(
            game.table_seats()
                .all(|s| game.offered_tile_for(s) == Some(tile)),
            "seed {seed}: a spectator sees the offered {tile}, which not every seat sees"
        );
    }
    for seat in game.table_seats() {
        let view = game.view(seat);
        assert_eq!(
            view.concealed, truth.seats[seat].concealed,
            "seed {seed}: seat {seat}'s view of its own tiles"
        );
        assert!(
            view.swap_marked.iter().all(|&t| {
                let marked = view.swap_marked.iter().filter(|&&m| m == t).count();
                usize::from(view.concealed.get(t)) >= marked
            }),
            "seed {seed}: seat {seat} marked tiles it does not hold"
        );
        for other in game.table_seats() {
            let (public, actual) = (&view.seats[other.index()], &truth.seats[other]);
            assert_eq!(
                public.concealed_count,
                actual.concealed.total(),
                "seed {seed}: seat {seat}'s count of seat {other}'s tiles"
            );
            assert_eq!(public.melds.len(), actual.melds.len(), "seed {seed}: melds");
            for (shown, real) in public.melds.iter().zip(&actual.melds) {
                let face_down = real.meld.is_concealed() && other != seat;
                match shown {
                    MeldView::HiddenKong => assert!(
                        face_down,
                        "seed {seed}: seat {seat} sees {:?} of seat {other} face down",
                        real.meld
                    ),
                    MeldView::Open(m) => {
                        assert!(
                            !face_down,
                            "seed {seed}: seat {seat} sees seat {other}'s concealed kong {m:?}"
                        );
                        assert_eq!(*m, real.meld, "seed {seed}: a meld shown wrong");
                    }
                }
            }
        }
    }
}

/// Plays one hand, probing refusals at every step; `deep` probes every candidate action and
/// accepts every listed one on a copy, `watched` checks every seat's view after every action.
fn play_checked(ruleset: &Ruleset, seed: u64, deep: bool, watched: bool) -> Game {
    let mut rng = SeededRng::new(seed.wrapping_mul(31).wrapping_add(7));
    let players = u64::from(ruleset.rules().flow().players);
    let dealer = Seat::new((seed % players) as u8).expect("seat");
    let carried = Carried {
        dealer_streak: (seed % 3) as u32,
        draw_streak: (seed % 2) as u32,
        ..Carried::default()
    };
    let mut game = Game::new(ruleset.clone(), seed, dealer, Wind::East, carried);
    let candidates = candidate_actions();
    let mut steps = 0;
    while !game.is_over() {
        if watched {
            assert_views_private(&game);
        }
        steps += 1;
        assert!(steps < 2_000, "seed {seed}: the hand does not end");
        let acting: Vec<Seat> = game
            .table_seats()
            .filter(|&s| !game.legal_actions(s).is_empty())
            .collect();
        assert!(
            !acting.is_empty(),
            "seed {seed}: nobody can act in a live hand"
        );
        let seat = acting[rng.below(acting.len() as u32) as usize];
        let legal = game.legal_actions(seat).to_vec();
        // Refusals change nothing: all candidates on deep hands, a sample otherwise.
        let before = fingerprint(&game);
        let probes: Vec<Action> = if deep {
            candidates.clone()
        } else {
            (0..3)
                .map(|_| candidates[rng.below(candidates.len() as u32) as usize])
                .collect()
        };
        for probe in probes {
            for other in game.table_seats() {
                let legal_here = game.legal_actions(other).contains(&probe);
                if !legal_here {
                    assert!(
                        game.apply(other, probe).is_err(),
                        "seed {seed}: {probe} accepted"
                    );
                }
            }
        }
        assert_eq!(
            fingerprint(&game),
            before,
            "seed {seed}: a refused action changed the game"
        );
        if deep {
            // Every listed action of every seat is accepted (on a copy).
            for other in game.table_seats() {
                for &a in game.legal_actions(other) {
                    let mut copy = game.clone();
                    copy.apply(other, a)
                        .unwrap_or_else(|e| panic!("seed {seed}: listed {a} refused: {e}"));
                }
            }
        }
        let action = policy::choose(&game, seat, &legal, &mut rng);
        game.apply(seat, action)
            .unwrap_or_else(|e| panic!("seed {seed}: listed action refused: {e}"));
        if deep {
            assert_conserved(&game);
        }
    }
    game
}

fn check_preset(id: RulesetId) {
    let ruleset = Ruleset::with_defaults(id).expect("defaults are valid");
    check_ruleset(&ruleset, hands_per_preset());
}

/// A preset with room options other than its defaults: a quarter of the defaults' hands, as
/// the options change only some of what the defaults' run goes through.
fn check_options(ruleset: &Ruleset) {
    check_ruleset(ruleset, hands_per_preset().div_ceil(4));
}

fn check_ruleset(ruleset: &Ruleset, hands: u64) {
    let id = ruleset.id();
    let mut wins = 0usize;
    // Two-player: hands with a 报听, hands reaching the 海底捞月 phase, tiles swapped.
    let (mut ready, mut seabed, mut swapped) = (0usize, 0usize, 0usize);
    for seed in 0..hands {
        let deep = seed % 100 == 0;
        let watched = deep || seed % 10 == 0;
        let game = play_checked(ruleset, seed, deep, watched);
        assert_conserved(&game);
        let st = game
            .settlement()
            .unwrap_or_else(|| panic!("seed {seed}: {:?}", game.settle_error()));
        assert_eq!(
            st.deltas.0.iter().sum::<i64>(),
            0,
            "seed {seed}: not zero-sum: {st:?}"
        );
        for absent in Seat::ALL.into_iter().skip(usize::from(game.players())) {
            assert_eq!(st.deltas[absent], 0, "seed {seed}: an absent seat scored");
        }
        if let Some(problem) = payments::problem(st) {
            panic!("{id} seed {seed}: {problem}");
        }
        wins += game.wins().len();
        let happened =
            |f: fn(&EventKind) -> bool| game.events().iter().any(|e| f(&e.kind)) as usize;
        ready += happened(|k| matches!(k, EventKind::ReadyDeclared { .. }));
        seabed += happened(|k| matches!(k, EventKind::SeabedStarted { .. }));
        swapped += happened(|k| matches!(k, EventKind::SwappedHidden { count: 1.., .. }));
        if matches!(id, RulesetId::Guobiao) {
            assert_guobiao_minimum(seed, st);
        }
        if matches!(id, RulesetId::Ningbo) {
            assert_ningbo_minimum(seed, st);
        }
        if watched {
            assert_events_hidden(&game);
        }
        // Replays reproduce the same events and settlement, also through the stored format.
        let record = StoredHandRecord::from(&HandRecord::of(&game));
        let json = record.write_string().expect("record serializes");
        let stored = StoredHandRecord::read_str(&json).expect("record parses");
        let back = HandRecord::try_from(&stored).expect("record converts");
        let again = back
            .replay()
            .unwrap_or_else(|e| panic!("seed {seed}: replay failed: {e}"));
        assert_eq!(
            again.events(),
            game.events(),
            "seed {seed}: replay diverged"
        );
        assert_eq!(again.settlement(), game.settlement());
    }
    // Random play rarely reaches Guobiao's 8 fans or Shanghai's qualifying hands; the other
    // presets win often.
    let share = if matches!(
        id,
        RulesetId::Guobiao | RulesetId::GuobiaoHouse | RulesetId::Shanghai
    ) {
        100
    } else {
        10
    };
    assert!(
        wins as u64 > hands / share,
        "{id}: only {wins} wins in {hands} hands"
    );
    if ruleset.rules().flow().swaps_dealt() {
        assert!(
            swapped as u64 > hands / 2,
            "{id}: tiles swapped in only {swapped} of {hands} hands"
        );
    }
    if matches!(id, RulesetId::TwoPlayer) && hands >= 1_000 {
        assert!(
            ready > 0 && seabed > 0,
            "{id}: 报听 in {ready} and 海底捞月 in {seabed} of {hands} hands"
        );
    }
}

/// No Ningbo win the state machine accepted is below 4 台 without the three-财神 bonus.
fn assert_ningbo_minimum(seed: u64, st: &engine::settle::Settlement) {
    for w in &st.fans {
        let counted: i64 = w
            .items
            .iter()
            .filter(|i| i.name != "三财神")
            .map(|i| i.value * i64::from(i.count))
            .sum();
        assert!(
            counted >= engine::variants::ningbo::MIN_TAI,
            "seed {seed}: a win of {counted} 台 without the bonus: {w:?}"
        );
    }
}

/// No win the state machine accepted is below 8 fans without flowers.
fn assert_guobiao_minimum(seed: u64, st: &engine::settle::Settlement) {
    for w in &st.fans {
        let flowers: i64 = w
            .items
            .iter()
            .filter(|i| i.name == "花牌")
            .map(|i| i.value * i64::from(i.count))
            .sum();
        assert!(
            w.total - flowers >= 8,
            "seed {seed}: a win of {} fans without flowers: {w:?}",
            w.total - flowers
        );
    }
}

#[test]
fn sichuan_invariants() {
    check_preset(RulesetId::Sichuan);
}

#[test]
fn sichuan_xuezhan_invariants() {
    check_preset(RulesetId::SichuanXuezhan);
}

#[test]
fn sichuan_xuezhan_9_invariants() {
    check_preset(RulesetId::SichuanXuezhan9);
}

#[test]
fn shanghai_invariants() {
    check_preset(RulesetId::Shanghai);
}

#[test]
fn beijing_invariants() {
    check_preset(RulesetId::Beijing);
}

#[test]
fn beijing_with_dragons_robbing_concealed_kongs_invariants() {
    let mut raw = engine::ruleset::RawOptions::new();
    raw.insert(
        "dragon_robs_concealed_kong".into(),
        engine::ruleset::OptionValue::Bool(true),
    );
    check_options(&Ruleset::new(RulesetId::Beijing, &raw).expect("a valid option"));
}

#[test]
fn beijing_2020_invariants() {
    check_preset(RulesetId::Beijing2020);
}

#[test]
fn guangdong_invariants() {
    check_preset(RulesetId::Guangdong);
}

#[test]
fn guangdong_with_a_minimum_and_a_higher_limit_invariants() {
    let mut raw = engine::ruleset::RawOptions::new();
    raw.insert("min_fan".into(), engine::ruleset::OptionValue::Int(2));
    raw.insert("fan_cap".into(), engine::ruleset::OptionValue::Int(8));
    check_options(&Ruleset::new(RulesetId::Guangdong, &raw).expect("valid options"));
}

#[test]
fn suzhou_invariants() {
    check_preset(RulesetId::Suzhou);
}

#[test]
fn suzhou_with_the_higher_base_invariants() {
    let mut raw = engine::ruleset::RawOptions::new();
    raw.insert("base".into(), engine::ruleset::OptionValue::Int(5));
    check_options(&Ruleset::new(RulesetId::Suzhou, &raw).expect("valid options"));
}

#[test]
fn wuhu_invariants() {
    check_preset(RulesetId::Wuhu);
}

#[test]
fn wuhu_with_the_discarder_paying_all_invariants() {
    let mut raw = engine::ruleset::RawOptions::new();
    raw.insert(
        "discarder_pays_all".into(),
        engine::ruleset::OptionValue::Bool(true),
    );
    raw.insert("base".into(), engine::ruleset::OptionValue::Int(2));
    check_options(&Ruleset::new(RulesetId::Wuhu, &raw).expect("valid options"));
}

#[test]
fn ningbo_invariants() {
    check_preset(RulesetId::Ningbo);
}

#[test]
fn ningbo_with_the_next_caishen_and_a_base_invariants() {
    let mut raw = engine::ruleset::RawOptions::new();
    raw.insert(
        "caishen_rule".into(),
        engine::ruleset::OptionValue::Text("next".into()),
    );
    raw.insert("base".into(), engine::ruleset::OptionValue::Int(5));
    check_options(&Ruleset::new(RulesetId::Ningbo, &raw).expect("valid options"));
}

#[test]
fn two_player_invariants() {
    check_preset(RulesetId::TwoPlayer);
}

#[test]
fn two_player_with_three_bonus_kinds_and_a_base_invariants() {
    let mut raw = engine::ruleset::RawOptions::new();
    raw.insert("huapai".into(), engine::ruleset::OptionValue::Int(3));
    raw.insert("base".into(), engine::ruleset::OptionValue::Int(5));
    check_options(&Ruleset::new(RulesetId::TwoPlayer, &raw).expect("valid options"));
}

#[test]
fn two_player_with_the_opening_swap_invariants() {
    let mut raw = engine::ruleset::RawOptions::new();
    raw.insert("swap".into(), engine::ruleset::OptionValue::Bool(true));
    check_options(&Ruleset::new(RulesetId::TwoPlayer, &raw).expect("valid options"));
}

#[test]
fn guobiao_invariants() {
    check_preset(RulesetId::Guobiao);
}

#[test]
fn guobiao_house_invariants() {
    check_preset(RulesetId::GuobiaoHouse);
}

#[test]
fn a_tampered_record_is_refused_at_its_first_bad_action() {
    let ruleset = Ruleset::with_defaults(RulesetId::SichuanXuezhan).expect("valid");
    let game = play_checked(&ruleset, 5, false, false);
    let mut record = HandRecord::of(&game);
    record.actions[3] = (
        record.actions[3].0,
        Action::Discard {
            tile: Tile::from_index(33).expect("7z"),
        },
    );
    match record.replay() {
        Err(engine::record::ReplayError::Action { index, .. }) => assert!(index <= 3),
        other => panic!(
            "expected a refusal, got {:?}",
            other.map(|g| g.actions().len())
        ),
    }
}
