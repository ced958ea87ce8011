//! Seatings checked from outside: everyone seated once per round, bots spread, repeat meetings
//! counted from the rounds themselves.

use tournament::Entrant;
use tournament::meetings::Meetings;
use tournament::seating::{Pairing, Request, Round, SeatingError, seat, table_sizes};

fn entrants(n: u32) -> Vec<Entrant> {
    (0..n).map(Entrant).collect()
}

/// Plays `rounds` rounds of fewest-repeats seating for `n` entrants.
fn schedule(n: u32, seats: usize, rounds: usize, seed: u64) -> Vec<Round> {
    let who = entrants(n);
    let mut history: Vec<Round> = Vec::new();
    for r in 0..rounds {
        let round = seat(&Request {
            entrants: &who,
            seats,
            history: &history,
            rounds_after: rounds - r - 1,
            pairing: Pairing::FewestRepeats,
            seed: seed * 1000 + r as u64,
        })
        .expect("seated");
        history.push(round);
    }
    history
}

/// Every entrant exactly once, every table `seats` wide, bots at most one apart per table.
fn check_round(round: &Round, n: u32, seats: usize) {
    let mut seen: Vec<u32> = round.entrants().map(|e| e.0).collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..n).collect::<Vec<_>>(), "everyone once: {round:?}");
    assert!(round.tables.iter().all(|t| t.seats.len() == seats));
    let bots: Vec<usize> = round.tables.iter().map(|t| t.bots()).collect();
    let (lo, hi) = (
        bots.iter().min().expect("present"),
        bots.iter().max().expect("present"),
    );
    assert!(hi - lo <= 1, "bots spread evenly: {bots:?}");
    assert!(
        round.tables.iter().all(|t| t.bots() < seats),
        "no table of bots alone"
    );
}

#[test]
fn sixteen_entrants_over_four_rounds_never_meet_twice() {
    for seed in 0..20 {
        let rounds = schedule(16, 4, 4, seed);
        for r in &rounds {
            check_round(r, 16, 4);
        }
        let met = Meetings::of_rounds(16, &rounds);
        assert_eq!(met.most(), 1, "seed {seed}: a pair met twice");
    }
}

#[test]
fn five_rounds_of_sixteen_are_a_whole_resolvable_design() {
    // The affine plane of order 4: five rounds in which every pair meets exactly once.
    let rounds = schedule(16, 4, 5, 3);
    let met = Meetings::of_rounds(16, &rounds);
    assert_eq!(met.most(), 1);
    for a in 0..16 {
        for b in a + 1..16 {
            assert_eq!(met.get(Entrant(a), Entrant(b)), 1, "{a} and {b}");
        }
    }
}

#[test]
fn a_short_field_gets_bots_spread_and_shared_out() {
    // 13 entrants: four tables, three with a bot; over four rounds nobody sits with a bot
    // more than once more than anyone else.
    let rounds = schedule(13, 4, 4, 9);
    let mut with_bots = [0u32; 13];
    for r in &rounds {
        check_round(r, 13, 4);
        assert_eq!(r.tables.len(), 4);
        for t in &r.tables {
            if t.bots() > 0 {
                for e in t.entrants() {
                    with_bots[e.index()] += 1;
                }
            }
        }
    }
    let (lo, hi) = (
        with_bots.iter().min().expect("present"),
        with_bots.iter().max().expect("present"),
    );
    assert!(hi - lo <= 1, "bot tables shared out: {with_bots:?}");
}

#[test]
fn the_same_request_seats_the_same_round() {
    assert_eq!(schedule(20, 4, 3, 5), schedule(20, 4, 3, 5));
    assert_ne!(schedule(20, 4, 1, 5), schedule(20, 4, 1, 6));
}

#[test]
fn two_player_tables_pair_everyone_anew() {
    let rounds = schedule(10, 2, 5, 1);
    for r in &rounds {
        check_round(r, 10, 2);
    }
    assert_eq!(Meetings::of_rounds(10, &rounds).most(), 1);
}

#[test]
fn swiss_seats_by_standing_and_steers_round_repeats() {
    let who = entrants(16);
    let first = seat(&Request {
        entrants: &who,
        seats: 4,
        history: &[],
        rounds_after: 1,
        pairing: Pairing::Swiss { standing: &who },
        seed: 1,
    })
    .expect("round 1");
    // Round 1 is random even for Swiss: not simply the standing in blocks.
    let blocks: Vec<Vec<u32>> = first
        .tables
        .iter()
        .map(|t| {
            let mut v: Vec<u32> = t.entrants().map(|e| e.0).collect();
            v.sort_unstable();
            v
        })
        .collect();
    assert_ne!(blocks[0], vec![0, 1, 2, 3]);
    // Standing: round 1's tables' members in order, so that the Swiss blocks would repeat
    // every meeting; the swaps must break them up.
    let standing: Vec<Entrant> = first.tables.iter().flat_map(|t| t.entrants()).collect();
    let history = vec![first];
    let second = seat(&Request {
        entrants: &who,
        seats: 4,
        history: &history,
        rounds_after: 0,
        pairing: Pairing::Swiss {
            standing: &standing,
        },
        seed: 2,
    })
    .expect("round 2");
    check_round(&second, 16, 4);
    let both = [history[0].clone(), second.clone()];
    assert!(
        Meetings::of_rounds(16, &both).repeats() <= 4,
        "swaps lower the repeats"
    );
    // The leader still sits among the top of the standing.
    let leader_table = second
        .tables
        .iter()
        .position(|t| t.entrants().any(|e| e == standing[0]))
        .expect("present");
    assert_eq!(leader_table, 0);
}

#[test]
fn bad_requests_are_refused() {
    let who = entrants(4);
    let base = Request {
        entrants: &who,
        seats: 4,
        history: &[],
        rounds_after: 0,
        pairing: Pairing::FewestRepeats,
        seed: 1,
    };
    assert_eq!(
        seat(&Request {
            entrants: &[],
            ..base
        }),
        Err(SeatingError::NoEntrants)
    );
    assert_eq!(
        seat(&Request { seats: 5, ..base }),
        Err(SeatingError::Seats(5))
    );
    let twice = [Entrant(1), Entrant(1)];
    assert_eq!(
        seat(&Request {
            entrants: &twice,
            ..base
        }),
        Err(SeatingError::Twice(Entrant(1)))
    );
    let short = [Entrant(0)];
    assert_eq!(
        seat(&Request {
            pairing: Pairing::Swiss { standing: &short },
            ..base
        }),
        Err(SeatingError::Standing)
    );
}

#[test]
fn tables_hold_everyone_with_the_fewest_seats_left_to_bots() {
    assert_eq!(table_sizes(16, 4), vec![4, 4, 4, 4]);
    assert_eq!(table_sizes(13, 4), vec![4, 3, 3, 3]);
    assert_eq!(table_sizes(5, 4), vec![3, 2]);
    assert_eq!(table_sizes(3, 4), vec![3]);
    assert_eq!(table_sizes(7, 2), vec![2, 2, 2, 1]);
}
