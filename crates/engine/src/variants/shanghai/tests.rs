//! The Shanghai rules and decisions of `docs/rules/shanghai.md`, through the settle format and
//! the table.

use serde_json::{Value, json};

use crate::ruleset::{HandResult, Ruleset, RulesetId};
use crate::seat::Seat;
use crate::settle::{Win, WinFlags};
use crate::table::TableState;
use crate::variants::testing::{deltas, settle};

fn empty() -> Value {
    json!({"concealed": ""})
}

/// A 碰碰胡 of seat 1 (no honors, no flowers): share 底分 2 + 0 花.
fn pengpeng(win: Value, extra: Value) -> Value {
    let mut h = json!({"id": "s", "ruleset": "shanghai", "dealer": 0, "dice": [2, 5],
        "seats": [empty(), {"concealed": "111m222p333s444m5p"}, empty(), empty()],
        "wins": [win]});
    if let (Some(h), Some(extra)) = (h.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            h.insert(k.clone(), v.clone());
        }
    }
    h
}

#[test]
fn a_discard_win_is_paid_by_the_discarder_alone() {
    let out = settle(pengpeng(
        json!({"seat": 1, "tile": "5p", "from": 3}),
        json!({}),
    ));
    assert_eq!(deltas(&out), [0, 2, 0, -2], "{out}");
}

#[test]
fn a_hand_that_does_not_qualify_cannot_win() {
    let out = settle(json!({"id": "s", "ruleset": "shanghai", "dealer": 0,
        "seats": [empty(), {"concealed": "123m456p789s111m5p"}, empty(), empty()],
        "wins": [{"seat": 1, "tile": "5p", "from": 3}]}));
    assert_eq!(out["error"]["code"], "not_a_win", "{out}");
}

#[test]
fn kaibao_and_huangfan_each_double_share_and_cap() {
    let kaibao = settle(pengpeng(
        json!({"seat": 1, "tile": "5p", "from": 3}),
        json!({"dice": [1, 4]}),
    ));
    assert_eq!(deltas(&kaibao), [0, 4, 0, -4], "{kaibao}");
    let both = settle(pengpeng(
        json!({"seat": 1, "tile": "5p", "from": 3}),
        json!({"dice": [3, 3], "table": {"draw_bonus": 3}}),
    ));
    assert_eq!(deltas(&both), [0, 8, 0, -8], "{both}");
}

#[test]
fn a_kong_replacement_win_raises_the_share_to_one_lezi() {
    let out = settle(
        json!({"id": "s", "ruleset": "shanghai", "dealer": 0, "dice": [2, 5],
        "seats": [empty(), {"concealed": "222p333s444m5p",
                            "melds": [{"kind": "kong", "tiles": "1111m", "concealed": true}]},
                  empty(), empty()],
        "wins": [{"seat": 1, "tile": "5p", "from": null, "kong_replacement": true}]}),
    );
    assert_eq!(deltas(&out), [-10, 30, -10, -10], "{out}");
}

#[test]
fn a_robbed_kong_is_paid_three_shares_by_its_declarer() {
    let out = settle(pengpeng(
        json!({"seat": 1, "tile": "5p", "from": 2, "robbed_kong": true}),
        json!({}),
    ));
    assert_eq!(deltas(&out), [0, 6, -6, 0], "{out}");
}

#[test]
fn three_claims_from_one_player_make_a_chengbao_pair() {
    // Seat 1 claimed three pungs from seat 2; it wins on seat 3's discard: seat 2 pays one
    // extra share.
    let out = settle(
        json!({"id": "s", "ruleset": "shanghai", "dealer": 0, "dice": [2, 5],
        "seats": [empty(), {"concealed": "444m5p", "melds": [
            {"kind": "pung", "tiles": "111m", "from": 2},
            {"kind": "pung", "tiles": "222p", "from": 2},
            {"kind": "pung", "tiles": "333s", "from": 2}]}, empty(), empty()],
        "wins": [{"seat": 1, "tile": "5p", "from": 3}]}),
    );
    assert_eq!(deltas(&out), [0, 4, -2, -2], "{out}");
    assert!(out["extras"].to_string().contains("承包"), "{out}");
}

#[test]
fn the_draw_bonus_follows_the_seed_texts_example_and_a_leave_resets_it() {
    let rules = Ruleset::with_defaults(RulesetId::Shanghai).expect("preset");
    let mut state = TableState::new(1, 4);
    let drawn = HandResult {
        dealer: state.dealer,
        wins: Vec::new(),
    };
    let mut counters = Vec::new();
    for _ in 0..3 {
        let next = rules.rules().next_hand(&state, &drawn);
        state.draw_bonus = next.draw_bonus;
        assert_eq!(next.dealer, state.dealer, "a drawn hand keeps the dealer");
        counters.push(state.draw_bonus);
    }
    let won = HandResult {
        dealer: state.dealer,
        wins: vec![Win {
            seat: Seat::ALL[2],
            tile: "5p".parse().expect("tile"),
            from: None,
            flags: WinFlags::default(),
        }],
    };
    let next = rules.rules().next_hand(&state, &won);
    counters.push(next.draw_bonus);
    assert_eq!(counters, [1, 2, 3, 2]);
    assert_eq!(next.dealer, Seat::ALL[2], "the winner deals next");
    let mut table = crate::Table::restore(rules, state);
    table.player_left();
    assert_eq!(table.state().draw_bonus, 0);
}

#[test]
fn after_a_multi_win_the_next_dealer_follows_the_winner_nearest_the_discarder() {
    let rules = Ruleset::with_defaults(RulesetId::Shanghai).expect("preset");
    let state = TableState::new(1, 4);
    let win = |seat: usize| Win {
        seat: Seat::ALL[seat],
        tile: "5p".parse().expect("tile"),
        from: Some(Seat::ALL[1]),
        flags: WinFlags::default(),
    };
    let result = HandResult {
        dealer: state.dealer,
        wins: vec![win(0), win(3)],
    };
    // Seat 3 is nearer to the discarder (seat 1) than seat 0 is: seat 0 (its 下家) deals.
    assert_eq!(
        rules.rules().next_hand(&state, &result).dealer,
        Seat::ALL[0]
    );
}

/// Plays a hand out: every listed win is taken, otherwise a legal action drawn from `seed`.
fn play_out(game: &mut crate::Game, seed: u64) {
    let mut rng = crate::wall::SeededRng::new(seed);
    while !game.is_over() {
        let Some(s) = game
            .table_seats()
            .find(|&s| !game.legal_actions(s).is_empty())
        else {
            panic!("a hand in play always owes someone an action");
        };
        let legal = game.legal_actions(s).to_vec();
        let a = legal
            .iter()
            .copied()
            .find(|a| matches!(a, crate::Action::Win | crate::Action::SelfDrawWin))
            .unwrap_or_else(|| legal[rng.below(legal.len() as u32) as usize]);
        game.apply(s, a).expect("legal");
    }
}

/// The next hand at `table` that ends `won` or drawn, over the first seeds that give one.
fn next_hand(table: &crate::Table, won: bool) -> crate::Game {
    for seed in 0..5_000u64 {
        let mut game = table.deal(seed);
        play_out(&mut game, seed);
        if game.wins().is_empty() != won {
            return game;
        }
    }
    panic!(
        "no seed below 5,000 gives a {} hand",
        if won { "won" } else { "drawn" }
    );
}

/// Whether a settlement doubled its wins by 荒番, and by exactly two: the same hand settled
/// with the counter at 0 pays half.
fn doubled_by_draw_bonus(game: &crate::Game) -> bool {
    let settlement = game
        .settlement()
        .unwrap_or_else(|| panic!("{:?}", game.settle_error()));
    let named = settlement
        .fans
        .iter()
        .all(|w| w.items.iter().any(|i| i.name == "荒番"));
    let mut plain = game.finished_hand();
    plain.carried.draw_bonus = 0;
    let rules = Ruleset::with_defaults(RulesetId::Shanghai).expect("preset");
    let plain = rules.settle(&plain).expect("settles");
    let halved = settlement
        .deltas
        .iter()
        .all(|(s, d)| *d == 2 * plain.deltas[s]);
    named && halved && !settlement.fans.is_empty()
}

#[test]
fn played_hands_follow_the_draw_bonus_example_across_a_restart() {
    let rules = Ruleset::with_defaults(RulesetId::Shanghai).expect("preset");
    let mut table = crate::Table::new(rules.clone(), 3);
    let mut counters = Vec::new();
    for hand in 0..3 {
        let game = next_hand(&table, false);
        table.finish(&game).expect("finished");
        counters.push(table.state().draw_bonus);
        if hand == 1 {
            // The server stores the carried state after every hand and restores the table
            // from it: the counter comes back with it.
            use crate::stored::{Document, StoredTableState};
            let saved = StoredTableState::from(table.state())
                .write_string()
                .expect("serializes");
            let stored = StoredTableState::read_str(&saved).expect("parses");
            let state = TableState::try_from(&stored).expect("converts");
            let before = table.state().clone();
            table = crate::Table::restore(rules.clone(), state);
            assert_eq!(table.state(), &before);
        }
    }
    assert_eq!(counters, [1, 2, 3], "三局荒牌: 荒番(1), (2), (3)");
    let game = next_hand(&table, true);
    assert!(
        doubled_by_draw_bonus(&game),
        "the fourth hand's win is doubled"
    );
    // Its record replays to the same doubled settlement.
    let again = crate::record::HandRecord::of(&game)
        .replay()
        .expect("replays");
    assert_eq!(again.settlement(), game.settlement());
    table.finish(&game).expect("finished");
    assert_eq!(table.state().draw_bonus, 2, "第5局 荒番(2)");
    let game = next_hand(&table, true);
    assert!(doubled_by_draw_bonus(&game), "荒番(2) still doubles");
    table.finish(&game).expect("finished");
    assert_eq!(table.state().draw_bonus, 1);
    table.player_left();
    assert_eq!(table.state().draw_bonus, 0, "a leave resets it");
    let game = next_hand(&table, true);
    assert!(!doubled_by_draw_bonus(&game), "no 荒番 once reset");
}
