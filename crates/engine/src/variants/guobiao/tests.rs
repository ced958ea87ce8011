//! The Guobiao rules and decisions of `docs/rules/guobiao.md`, through the settle format.

use serde_json::{Value, json};

use crate::ruleset::{HandResult, Ruleset, RulesetId};
use crate::seat::{Seat, Wind};
use crate::table::TableState;
use crate::variants::testing::{deltas, settle};

fn hand(ruleset: &str, winner: Value, win: Value) -> Value {
    let empty = json!({"concealed": ""});
    json!({"id": "g", "ruleset": ruleset, "dealer": 0, "round_wind": "E",
           "seats": [winner, empty, empty, empty], "wins": [win]})
}

/// 清龙 16 + 平和 2 + 门前清 2 (+ 单钓将?) on a discard from seat 2.
const STRAIGHT: &str = "123456789m234p5s";

#[test]
fn a_discard_win_is_paid_eight_plus_the_fans_by_the_discarder_and_eight_by_the_others() {
    let out = settle(hand(
        "guobiao",
        json!({"concealed": STRAIGHT}),
        json!({"seat": 0, "tile": "5s", "from": 2}),
    ));
    let total = out["fans"][0]["total"].as_i64().expect("total");
    assert!(total >= 8, "{out}");
    assert_eq!(deltas(&out), [24 + total, -8, -8 - total, -8], "{out}");
}

#[test]
fn a_self_drawn_win_is_paid_eight_plus_the_fans_by_everyone() {
    let out = settle(hand(
        "guobiao",
        json!({"concealed": STRAIGHT, "flowers": "1f2f"}),
        json!({"seat": 0, "tile": "5s", "from": null}),
    ));
    let total = out["fans"][0]["total"].as_i64().expect("total");
    let names: Vec<&str> = out["fans"][0]["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["name"].as_str())
        .collect();
    assert!(
        names.contains(&"不求人") && names.contains(&"花牌"),
        "{out}"
    );
    let each = 8 + total;
    assert_eq!(deltas(&out), [3 * each, -each, -each, -each], "{out}");
}

#[test]
fn a_hand_below_eight_fans_is_no_win_and_flowers_do_not_help() {
    // 平和 2 + 一般高 1 + 喜相逢 1 + 无字 1 … well below 8, with eight flowers.
    let out = settle(hand(
        "guobiao",
        json!({"concealed": "123m123m345p67s99s", "melds": [], "flowers": "1f2f3f4f5f6f7f8f"}),
        json!({"seat": 0, "tile": "5s", "from": 1}),
    ));
    assert_eq!(out["error"]["code"], "not_a_win", "{out}");
    assert!(
        out["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("at least 8")),
        "{out}"
    );
}

#[test]
fn two_winners_on_one_discard_are_refused_head_bump_has_one() {
    let empty = json!({"concealed": ""});
    let out = settle(json!({"id": "h", "ruleset": "guobiao", "dealer": 0,
        "seats": [{"concealed": STRAIGHT}, {"concealed": "123456789p234m5s"}, empty, empty],
        "wins": [{"seat": 0, "tile": "5s", "from": 2}, {"seat": 1, "tile": "5s", "from": 2}]}));
    assert!(out.get("error").is_some(), "{out}");
}

#[test]
fn the_deal_passes_every_hand_and_the_wind_moves_on_every_four() {
    let rules = Ruleset::with_defaults(RulesetId::Guobiao).expect("preset");
    let mut state = TableState::new(7, 4);
    state.dealer = Seat::ALL[0];
    let mut winds = Vec::new();
    let mut dealers = Vec::new();
    for _ in 0..16 {
        winds.push(state.round_wind);
        dealers.push(state.dealer.index());
        let next = rules.rules().next_hand(
            &state,
            &HandResult {
                dealer: state.dealer,
                wins: Vec::new(),
            },
        );
        state.dealer = next.dealer;
        state.round_wind = next.round_wind;
        state.hands_played += 1;
    }
    assert_eq!(dealers, [0, 1, 2, 3].repeat(4));
    let expected: Vec<Wind> = Wind::ALL.iter().flat_map(|&w| [w; 4]).collect();
    assert_eq!(winds, expected);
}

#[test]
fn options_are_refused_the_presets_have_none() {
    let mut raw = crate::RawOptions::new();
    raw.insert("base".into(), crate::ruleset::OptionValue::Int(2));
    assert!(Ruleset::new(RulesetId::Guobiao, &raw).is_err());
}

#[test]
fn heavenly_hand_scores_168_in_the_house_preset_and_its_fans_in_the_official_one() {
    let win = json!({"seat": 0, "tile": "5s", "from": null, "first_turn": true});
    let house = settle(hand(
        "guobiao-house",
        json!({"concealed": STRAIGHT}),
        win.clone(),
    ));
    assert_eq!(house["fans"][0]["items"][0]["name"], "天和", "{house}");
    assert_eq!(house["fans"][0]["total"], 168, "{house}");
    let official = settle(hand("guobiao", json!({"concealed": STRAIGHT}), win));
    assert!(
        official["fans"][0]["total"].as_i64() < Some(168),
        "{official}"
    );
}

#[test]
fn earthly_and_human_hands_need_no_minimum() {
    // A chicken-ish hand: 平和 and little else, below 8 in the official preset.
    let weak = json!({"concealed": "123m123m345p67s99s"});
    let earthly = settle(hand(
        "guobiao-house",
        json!({"concealed": "123m123m345p67s99s"}),
        json!({"seat": 0, "tile": "5s", "from": null, "first_turn": true}),
    ));
    // Seat 0 is the dealer here: a self-drawn first-turn win is 天和.
    assert_eq!(earthly["fans"][0]["total"], 168, "{earthly}");
    let empty = json!({"concealed": ""});
    let human = settle(json!({"id": "r", "ruleset": "guobiao-house", "dealer": 1,
        "seats": [weak, empty, empty, empty],
        "wins": [{"seat": 0, "tile": "5s", "from": 3, "first_turn": true}]}));
    assert_eq!(human["fans"][0]["items"][0]["name"], "人和", "{human}");
    assert_eq!(human["fans"][0]["total"], 108, "{human}");
    let earthly = settle(json!({"id": "e", "ruleset": "guobiao-house", "dealer": 1,
        "seats": [{"concealed": "123m123m345p67s99s"}, empty, empty, empty],
        "wins": [{"seat": 0, "tile": "5s", "from": null, "first_turn": true}]}));
    assert_eq!(earthly["fans"][0]["items"][0]["name"], "地和", "{earthly}");
}

#[test]
fn big_four_winds_with_a_pair_of_green_is_168_in_the_house_preset() {
    let winner = json!({"concealed": "111z222z333z444z6z"});
    let win = json!({"seat": 0, "tile": "6z", "from": 1});
    let house = settle(hand("guobiao-house", winner.clone(), win.clone()));
    let names: Vec<&str> = house["fans"][0]["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["name"].as_str())
        .collect();
    assert!(
        names.contains(&"四方大发") && !names.contains(&"大四喜"),
        "{house}"
    );
    let official = settle(hand("guobiao", winner, win));
    assert_eq!(
        house["fans"][0]["total"].as_i64().expect("house total") - 80,
        official["fans"][0]["total"]
            .as_i64()
            .expect("official total"),
        "{house}\n{official}"
    );
}
