//! The Wuhu rules and decisions of `docs/rules/wuhu.md`, through the settle format and the
//! table. Seat 1 wins unless a test says otherwise; seat 0 deals, so seat 0's share carries the
//! 底番 once more. Every expected figure is worked out by hand in the comments.

use serde_json::{Value, json};

use super::table_fan;
use crate::ruleset::{HandResult, OptionValue, RawOptions, Ruleset, RulesetId};
use crate::seat::Seat;
use crate::settle::{Win, WinFlags};
use crate::table::TableState;
use crate::variants::testing::{deltas, settle};

fn empty() -> Value {
    json!({"concealed": ""})
}

fn pung(tiles: &str, from: u8) -> Value {
    json!({"kind": "pung", "tiles": tiles, "from": from})
}

/// A hand where seat 1 holds `concealed` and `melds` and wins on `tile` from `from` (`null`
/// for a self-draw), with `flags` merged into the win.
fn hand(concealed: &str, melds: Value, tile: &str, from: Value, flags: Value) -> Value {
    let mut w = json!({"seat": 1, "tile": tile, "from": from});
    if let (Some(w), Some(flags)) = (w.as_object_mut(), flags.as_object()) {
        for (k, v) in flags {
            w.insert(k.clone(), v.clone());
        }
    }
    json!({"id": "w", "ruleset": "wuhu", "dealer": 0, "round_wind": "E",
        "seats": [empty(), {"concealed": concealed, "melds": melds}, empty(), empty()],
        "wins": [w]})
}

fn with(mut h: Value, key: &str, value: Value) -> Value {
    if let Some(o) = h.as_object_mut() {
        o.insert(key.to_owned(), value);
    }
    h
}

/// The winner's fan total and its items as (name, value, count).
fn fan_of(out: &Value) -> (i64, Vec<(String, i64, u64)>) {
    let f = &out["fans"][0];
    let items = f["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items: {out}"))
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap_or_default().to_owned(),
                i["value"].as_i64().unwrap_or(-1),
                i["count"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    (f["total"].as_i64().unwrap_or(-1), items)
}

fn lines(list: &[(&str, i64, u64)]) -> Vec<(String, i64, u64)> {
    list.iter().map(|&(n, v, c)| (n.to_owned(), v, c)).collect()
}

// ----- the seed's 2468 table -----------------------------------------------------------------

#[test]
fn the_formulas_reproduce_every_row_of_the_seed_table() {
    let sum = |(a, b): (i64, i64)| a + b;
    // 平胡: 8 支 → 6, 9–10 → 7, 11–12 → 8.
    for (zhi, fan) in [(8, 6), (9, 7), (10, 7), (11, 8), (12, 8)] {
        assert_eq!(sum(table_fan(zhi, None, false)), fan, "平胡 {zhi}");
    }
    // 押当: (支, the 押 of the row, result), every row of the seed.
    let closed: [(u32, &[u8], i64); 20] = [
        (8, &[2], 9),
        (8, &[3, 4], 10),
        (8, &[5, 6], 11),
        (8, &[7, 8], 12),
        (9, &[2, 3], 10),
        (9, &[4, 5], 11),
        (9, &[6, 7], 12),
        (9, &[8], 13),
        (10, &[2], 10),
        (10, &[3, 4], 11),
        (10, &[5, 6], 12),
        (10, &[7, 8], 13),
        (11, &[2, 3], 11),
        (11, &[4, 5], 12),
        (11, &[6, 7], 13),
        (11, &[8], 14),
        (12, &[2], 11),
        (12, &[3, 4], 12),
        (12, &[5, 6], 13),
        (12, &[7, 8], 14),
    ];
    for (zhi, yas, fan) in closed {
        for &ya in yas {
            assert_eq!(sum(table_fan(zhi, Some(ya), false)), fan, "押当 {zhi} {ya}");
            assert_eq!(table_fan(zhi, Some(ya), false).0, 4);
        }
    }
    // 自摸: 8 + 6 = 14 … 12 + 6 = 18; 自摸押当 8 支 押 2: 8 + 2 + 8 = 18.
    for zhi in 8..=12 {
        assert_eq!(table_fan(zhi, None, true), (6, i64::from(zhi)));
    }
    assert_eq!(table_fan(8, Some(2), true), (8, 10));
}

// ----- wins and their fan --------------------------------------------------------------------

#[test]
fn eight_zhi_on_a_discard_is_six_fan_paid_by_all_three() {
    // 234m 567m 88m (8 支) 456p, 1z pung on 1z from seat 3: 2 + 8/2 = 6. The dealer (seat 0)
    // pays 6 + 底番 2 = 8; seats 2 and 3 pay 6 each.
    let out = settle(hand(
        "234m567m88m456p11z",
        json!([]),
        "1z",
        json!(3),
        json!({}),
    ));
    assert_eq!(
        fan_of(&out),
        (6, lines(&[("平胡", 2, 1), ("支番", 4, 1)])),
        "{out}"
    );
    assert_eq!(deltas(&out), [-8, 20, -6, -6]);
}

#[test]
fn fewer_than_eight_zhi_is_no_win() {
    // Six m, three p, three s: the longest suit holds 6 支.
    let out = settle(hand(
        "234m567m456p789s1z",
        json!([]),
        "1z",
        json!(3),
        json!({}),
    ));
    assert_eq!(out["error"]["code"], "not_a_win", "{out}");
    assert!(
        out["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("8")),
        "{out}"
    );
}

#[test]
fn nine_zhi_rounds_half_up() {
    // 234m 567m 888m (9 支) 456p, pair 1z: 2 + ⌈9/2⌉ = 7; dealer pays 9.
    let out = settle(hand(
        "234m567m888m456p1z",
        json!([]),
        "1z",
        json!(3),
        json!({}),
    ));
    assert_eq!(fan_of(&out).0, 7, "{out}");
    assert_eq!(deltas(&out), [-9, 23, -7, -7]);
}

#[test]
fn a_closed_wait_is_yadang_on_a_discard_and_on_a_self_draw() {
    // 1_3m filled by 2m: 8 支, 押 2. Discard: 4 + ⌈10/2⌉ = 9, the dealer pays 9 + 4 = 13.
    let h = hand("13m456m88m345p111z", json!([]), "2m", json!(3), json!({}));
    let out = settle(h.clone());
    assert_eq!(
        fan_of(&out),
        (9, lines(&[("押当", 4, 1), ("支番", 5, 1)])),
        "{out}"
    );
    assert_eq!(deltas(&out), [-13, 31, -9, -9]);
    // Self-drawn: 8 + 8 + 2 = 18, the dealer pays 18 + 8 = 26.
    let out = settle(with(
        h,
        "wins",
        json!([{"seat": 1, "tile": "2m", "from": null}]),
    ));
    assert_eq!(
        fan_of(&out),
        (18, lines(&[("自摸押当", 8, 1), ("支番", 10, 1)])),
        "{out}"
    );
    assert_eq!(deltas(&out), [-26, 62, -18, -18]);
}

#[test]
fn an_odd_sum_with_yadang_rounds_up() {
    // 7_9m filled by 8m: 9 支, 押 8: 4 + ⌈17/2⌉ = 13; the dealer pays 17.
    let out = settle(hand(
        "79m234m555m345p11z",
        json!([]),
        "8m",
        json!(2),
        json!({}),
    ));
    assert_eq!(fan_of(&out).0, 13, "{out}");
    assert_eq!(deltas(&out), [-17, 43, -13, -13]);
}

#[test]
fn a_self_draw_is_six_plus_zhi() {
    // The 8-支 hand self-drawn: 6 + 8 = 14; the dealer pays 14 + 6 = 20.
    let out = settle(hand(
        "234m567m88m456p11z",
        json!([]),
        "1z",
        json!(null),
        json!({}),
    ));
    assert_eq!(fan_of(&out).0, 14, "{out}");
    assert_eq!(deltas(&out), [-20, 48, -14, -14]);
}

// ----- 嘴子 and kongs ------------------------------------------------------------------------

#[test]
fn all_pungs_is_a_zuizi() {
    // 111m 555m 999m (9 支) 777s, pair 2z, 7s from seat 3: 2 + 5 = 7, 对对胡 5 → 12.
    let out = settle(hand(
        "111m555m999m77s22z",
        json!([]),
        "7s",
        json!(3),
        json!({}),
    ));
    assert_eq!(
        fan_of(&out),
        (
            12,
            lines(&[("平胡", 2, 1), ("支番", 5, 1), ("对对胡", 5, 1)])
        ),
        "{out}"
    );
    assert_eq!(deltas(&out), [-14, 38, -12, -12]);
}

#[test]
fn the_straight_is_doubled_on_a_self_draw() {
    // 123m 456m 789m (9 支) 55p, 33z + 3z self-drawn: 6 + 9 = 15, 通天 10 → 25; the dealer
    // pays 31.
    let out = settle(hand(
        "123m456m789m55p33z",
        json!([]),
        "3z",
        json!(null),
        json!({}),
    ));
    assert_eq!(
        fan_of(&out),
        (
            25,
            lines(&[("自摸", 6, 1), ("支番", 9, 1), ("通天", 10, 1)])
        ),
        "{out}"
    );
    assert_eq!(deltas(&out), [-31, 81, -25, -25]);
}

#[test]
fn four_held_and_half_flush_are_zuizi() {
    // A 555m pung and the fourth 5m in 567m; 234m 99m, 1z pung on 1z: 11 支 → 2 + 6 = 8,
    // 四核 5, 混一色 5 → 18; the dealer pays 20.
    let out = settle(hand(
        "567m234m99m11z",
        json!([pung("555m", 0)]),
        "1z",
        json!(3),
        json!({}),
    ));
    assert_eq!(
        fan_of(&out),
        (
            18,
            lines(&[
                ("平胡", 2, 1),
                ("支番", 6, 1),
                ("四核", 5, 1),
                ("混一色", 5, 1)
            ])
        ),
        "{out}"
    );
    assert_eq!(deltas(&out), [-20, 56, -18, -18]);
    // Four concealed 1m read as 111m + 123m: 四核 too.
    let out = settle(hand(
        "1111m23m456m99m55z",
        json!([]),
        "5z",
        json!(3),
        json!({}),
    ));
    assert_eq!(fan_of(&out).0, 18, "{out}");
}

#[test]
fn kongs_and_a_kong_replacement_win() {
    // Concealed 2222m, exposed 9999m, 345m 67m 11z + 5m off the replacement: 14 支 → 6 + 14
    // = 20; 混一色 10 (self-drawn), 杠后开花 5 (never doubled), 明杠 2, 暗杠 4 → 41.
    let melds = json!([
        {"kind": "kong", "tiles": "2222m", "concealed": true},
        {"kind": "kong", "tiles": "9999m", "from": 2}
    ]);
    let out = settle(hand(
        "345m67m11z",
        melds,
        "5m",
        json!(null),
        json!({"kong_replacement": true}),
    ));
    assert_eq!(
        fan_of(&out),
        (
            41,
            lines(&[
                ("自摸", 6, 1),
                ("支番", 14, 1),
                ("混一色", 10, 1),
                ("杠后开花", 5, 1),
                ("明杠", 2, 1),
                ("暗杠", 4, 1)
            ])
        ),
        "{out}"
    );
    assert_eq!(deltas(&out), [-47, 129, -41, -41]);
}

#[test]
fn an_added_kong_counts_as_exposed() {
    // Added kong 7777p, 234m 567m 888m 1z + 1z: 9 支 → 2 + 5 = 7, 明杠 2 → 9.
    let melds = json!([{"kind": "kong", "tiles": "7777p", "from": 3, "added": true}]);
    let out = settle(hand("234m567m888m1z", melds, "1z", json!(2), json!({})));
    assert_eq!(fan_of(&out).0, 9, "{out}");
}

#[test]
fn the_best_reading_is_kept() {
    // 111m 222m 333m reads as pungs (对对胡: 2 + 5 + 5 = 12) or as three 123m with the 2m
    // closed (押当: 4 + ⌈11/2⌉ = 10): 12 is kept.
    let out = settle(hand(
        "111m22m333m555p99s",
        json!([]),
        "2m",
        json!(3),
        json!({}),
    ));
    assert_eq!(fan_of(&out).0, 12, "{out}");
    assert!(
        out["fans"][0]["items"].to_string().contains("对对胡"),
        "{out}"
    );
}

#[test]
fn a_fourteen_zhi_hand_with_four_held_self_drawn() {
    // 11m 234m 567m 789m 99m + 9m: 14 支 → 6 + 14 = 20; 9m four times (789m + 999m): 四核 10.
    let out = settle(hand(
        "11m234m567m789m99m",
        json!([]),
        "9m",
        json!(null),
        json!({}),
    ));
    assert_eq!(fan_of(&out).0, 30, "{out}");
    assert_eq!(deltas(&out), [-36, 96, -30, -30]);
}

// ----- payments ------------------------------------------------------------------------------

#[test]
fn every_share_carries_the_base_fan_when_the_dealer_wins() {
    let h = hand("234m567m88m456p11z", json!([]), "1z", json!(3), json!({}));
    let out = settle(with(h, "dealer", json!(1)));
    // 6 fan + 底番 2 from each of the three.
    assert_eq!(deltas(&out), [-8, 24, -8, -8], "{out}");
}

#[test]
fn the_discarder_pays_every_share_when_the_room_says_so() {
    let h = with(
        hand("234m567m88m456p11z", json!([]), "1z", json!(3), json!({})),
        "options",
        json!({"discarder_pays_all": true}),
    );
    // Seat 3 pays the dealer's 8 and its own and seat 2's 6.
    assert_eq!(deltas(&settle(h.clone())), [0, 20, 0, -20]);
    // A self-draw is paid by each as always.
    let self_drawn = with(h, "wins", json!([{"seat": 1, "tile": "1z", "from": null}]));
    assert_eq!(deltas(&settle(self_drawn)), [-20, 48, -14, -14]);
}

#[test]
fn base_points_multiply_every_share() {
    let h = hand("234m567m88m456p11z", json!([]), "1z", json!(3), json!({}));
    let out = settle(with(h, "options", json!({"base": 10})));
    assert_eq!(deltas(&out), [-80, 200, -60, -60], "{out}");
}

#[test]
fn a_robbed_added_kong_is_a_discard_win() {
    // Seat 2 adds 2m to its pung; seat 1 robs it with 1_3m: 押当 9, paid by all three.
    let h = json!({"id": "w", "ruleset": "wuhu", "dealer": 0, "round_wind": "E",
        "seats": [empty(),
                  {"concealed": "13m456m88m345p111z"},
                  {"concealed": "1s1s1s 2s2s2s 3z3z3z 4z", "melds": [pung("222m", 3)]},
                  empty()],
        "wins": [{"seat": 1, "tile": "2m", "from": 2, "robbed_kong": true}]});
    let out = settle(h);
    assert_eq!(fan_of(&out).0, 9, "{out}");
    assert_eq!(deltas(&out), [-13, 31, -9, -9]);
}

#[test]
fn a_drawn_hand_and_two_winners() {
    let drawn = with(
        hand("", json!([]), "1z", json!(3), json!({})),
        "wins",
        json!([]),
    );
    assert_eq!(deltas(&settle(drawn)), [0, 0, 0, 0]);
    let two = json!({"id": "w", "ruleset": "wuhu", "dealer": 0, "round_wind": "E",
        "seats": [empty(),
                  {"concealed": "234m567m88m456p11z"},
                  {"concealed": "123s456s789s555s1z"},
                  empty()],
        "wins": [{"seat": 1, "tile": "1z", "from": 3}, {"seat": 2, "tile": "1z", "from": 3}]});
    assert_eq!(settle(two)["error"]["code"], "illegal_hand");
}

#[test]
fn options_are_validated() {
    let defaults = Ruleset::with_defaults(RulesetId::Wuhu).expect("defaults");
    let want: RawOptions = [
        ("base".to_owned(), OptionValue::Int(1)),
        ("discarder_pays_all".to_owned(), OptionValue::Bool(false)),
    ]
    .into();
    assert_eq!(defaults.options(), want);
    let names: Vec<&str> = defaults.option_specs().iter().map(|s| s.name).collect();
    assert_eq!(names, ["base", "discarder_pays_all"]);
    assert_eq!(defaults.rules().payment_for(6), 6);
    let bad = [
        ("base", OptionValue::Int(0)),
        ("discarder_pays_all", OptionValue::Int(1)),
        ("fan_cap", OptionValue::Int(6)),
    ];
    for (name, value) in bad {
        let raw: RawOptions = [(name.to_owned(), value)].into();
        assert!(Ruleset::new(RulesetId::Wuhu, &raw).is_err(), "{name}");
    }
}

// ----- the table -----------------------------------------------------------------------------

#[test]
fn the_dealer_keeps_the_deal_after_his_win_or_a_drawn_hand() {
    let rules = Ruleset::with_defaults(RulesetId::Wuhu).expect("preset");
    let state = TableState::new(3, 4);
    let first = state.dealer;
    let result = |winners: &[Seat]| HandResult {
        dealer: first,
        wins: winners
            .iter()
            .map(|&seat| Win {
                seat,
                tile: "5p".parse().expect("tile"),
                from: None,
                flags: WinFlags::default(),
            })
            .collect(),
    };
    assert_eq!(rules.rules().next_hand(&state, &result(&[])).dealer, first);
    assert_eq!(
        rules.rules().next_hand(&state, &result(&[first])).dealer,
        first
    );
    let other = first.next(4).next(4);
    assert_eq!(
        rules.rules().next_hand(&state, &result(&[other])).dealer,
        first.next(4)
    );
}
