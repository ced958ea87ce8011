//! Competition points and standings against results worked out by hand.

use tournament::Entrant;
use tournament::duplicate::{Held, compare, deal_seed, group_key, groups};
use tournament::scoring::{Points, Scoring, SeatResult, places, standings};

fn seat(e: Option<u32>, score: i64) -> SeatResult {
    SeatResult {
        entrant: e.map(Entrant),
        score,
        escaped: false,
    }
}

#[test]
fn places_share_ties() {
    assert_eq!(
        places(&[10, -5, 30, -35]),
        vec![(2, 1), (3, 1), (1, 1), (4, 1)]
    );
    assert_eq!(
        places(&[8, 8, 0, -16]),
        vec![(1, 2), (1, 2), (3, 1), (4, 1)]
    );
    assert_eq!(places(&[0, 0, 0, 0]), vec![(1, 4); 4]);
}

#[test]
fn place_points_are_shared_exactly() {
    let s = Scoring::guobiao();
    let pts = |scores: &[i64]| -> Vec<String> {
        s.table_points(scores)
            .iter()
            .map(|p| p.to_string())
            .collect()
    };
    assert_eq!(pts(&[10, -5, 30, -35]), ["2", "1", "4", "0"]);
    // Two share first: (4 + 2) / 2 each.
    assert_eq!(pts(&[8, 8, 0, -16]), ["3", "3", "1", "0"]);
    // Three share second: (2 + 1 + 0) / 3 each.
    assert_eq!(pts(&[9, -3, -3, -3]), ["4", "1", "1", "1"]);
    // Three share first: 7/3 each, exact in twelfths.
    let three = s.table_points(&[5, 5, 5, -15]);
    assert_eq!(three[0], Points::from_twelfths(28));
    assert_eq!(three[0].to_string(), "2.33");
    assert_eq!(pts(&[0, 0, 0, 0]), ["1.75", "1.75", "1.75", "1.75"]);
    // Raw points are the score.
    assert_eq!(
        Scoring::Raw.table_points(&[3, -3]),
        vec![Points::whole(3), Points::whole(-3)]
    );
}

#[test]
fn standings_rank_by_points_then_score_then_firsts() {
    let who: Vec<Entrant> = (0..6).map(Entrant).collect();
    // Table one: 0 first, 1 second, 2 third, a bot last. Table two: 3 and 4 tie first, 5 third,
    // a bot fourth (bots take places, never ranks).
    let tables = vec![
        vec![
            seat(Some(0), 30),
            seat(Some(1), 10),
            seat(Some(2), -10),
            seat(None, -30),
        ],
        vec![
            seat(Some(3), 20),
            seat(Some(4), 20),
            seat(Some(5), -10),
            seat(None, -30),
        ],
    ];
    let rows = standings(&Scoring::guobiao(), 0, &who, &tables);
    let order: Vec<(u32, u32, String, i64)> = rows
        .iter()
        .map(|r| (r.entrant.0, r.rank, r.points.to_string(), r.score))
        .collect();
    let expected: Vec<(u32, u32, String, i64)> = vec![
        (0, 1, "4".into(), 30),
        (3, 2, "3".into(), 20),
        (4, 2, "3".into(), 20),
        (1, 4, "2".into(), 10),
        // 2 and 5 are equal on every key: one rank, registration order.
        (2, 5, "1".into(), -10),
        (5, 5, "1".into(), -10),
    ];
    assert_eq!(order, expected);
    assert!(rows.iter().all(|r| r.tables == 1));
    assert_eq!(rows[0].firsts, 1);
    assert_eq!(rows[1].firsts, 1, "a shared first counts");
}

#[test]
fn ties_on_points_fall_to_score_then_firsts() {
    let who: Vec<Entrant> = (0..4).map(Entrant).collect();
    // Over two tables all but 3 end with 4 points: 0 by 4 + 0 (score 10, a first), 1 by
    // 2 + 2 (score 25, no first), 2 by 0 + 4 (score 20, a first). Score decides before firsts.
    let tables = vec![
        vec![
            seat(Some(0), 50),
            seat(Some(1), 20),
            seat(Some(2), -20),
            seat(Some(3), -50),
        ],
        vec![
            seat(Some(0), -40),
            seat(Some(1), 5),
            seat(Some(2), 40),
            seat(Some(3), -5),
        ],
    ];
    let rows = standings(&Scoring::Places(vec![4, 2, 0, 0]), 0, &who, &tables);
    let got: Vec<(u32, u32)> = rows.iter().map(|r| (r.entrant.0, r.rank)).collect();
    assert_eq!(got, vec![(1, 1), (2, 2), (0, 3), (3, 4)]);
    // Equal on points and score, firsts decide: 0 won a table, 1 did not.
    let tables = vec![
        vec![
            seat(Some(0), 10),
            seat(Some(1), 0),
            seat(Some(2), -4),
            seat(Some(3), -6),
        ],
        vec![
            seat(Some(0), -10),
            seat(Some(1), 0),
            seat(Some(2), 6),
            seat(Some(3), 4),
        ],
    ];
    let rows = standings(&Scoring::Places(vec![1, 1, 0, 0]), 0, &who, &tables);
    let got: Vec<(u32, u32, u32)> = rows
        .iter()
        .map(|r| (r.entrant.0, r.rank, r.firsts))
        .collect();
    assert_eq!(got[0..3], [(2, 1, 1), (0, 2, 1), (1, 3, 0)]);
}

#[test]
fn an_escape_costs_the_competition_penalty() {
    let who = [Entrant(0), Entrant(1)];
    let mut escaped = seat(Some(1), -20);
    escaped.escaped = true;
    let tables = vec![vec![seat(Some(0), 20), escaped]];
    let rows = standings(&Scoring::Places(vec![1, 0]), 3, &who, &tables);
    assert_eq!(rows[1].points, Points::whole(-3));
    assert_eq!(rows[1].escapes, 1);
    let raw = standings(&Scoring::Raw, 3, &who, &tables);
    assert_eq!(raw[1].points, Points::whole(-23));
}

#[test]
fn a_group_shares_seeds_hand_by_hand_and_nothing_else() {
    assert_eq!(groups(6, 4), vec![0, 0, 0, 0, 1, 1]);
    assert_eq!(groups(4, 2), vec![0, 0, 1, 1]);
    let secret = [7u8; 32];
    let other = [8u8; 32];
    let key = group_key(&secret, 1, 0);
    assert_eq!(key, group_key(&secret, 1, 0));
    for different in [
        group_key(&secret, 1, 1),
        group_key(&secret, 2, 0),
        group_key(&other, 1, 0),
    ] {
        assert_ne!(key, different);
        assert_ne!(deal_seed(&key, 1), deal_seed(&different, 1));
    }
    assert_eq!(deal_seed(&key, 1), deal_seed(&key, 1));
    assert_ne!(deal_seed(&key, 1), deal_seed(&key, 2));
}

#[test]
fn a_duplicate_hand_is_compared_with_those_who_held_the_same_tiles() {
    let held = |table, hand, wind, delta| Held {
        table,
        hand,
        wind,
        delta,
    };
    let hands = [
        held(0, 1, 0, 30),
        held(1, 1, 0, -10),
        held(2, 1, 0, 10),
        held(0, 1, 1, -30),
        // Hand 2 was played at one table only.
        held(0, 2, 0, 8),
    ];
    // East of hand 1 averaged 10: +20, −20, 0; South alone: 0; hand 2 alone: 0.
    assert_eq!(compare(&hands), vec![2000, -2000, 0, 0, 0]);
    // Thirds round to the hundredth.
    let thirds = [held(0, 1, 0, 1), held(1, 1, 0, 0), held(2, 1, 0, 0)];
    assert_eq!(compare(&thirds), vec![67, -33, -33]);
}
