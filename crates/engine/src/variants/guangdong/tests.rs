//! The Guangdong rules and decisions of `docs/rules/guangdong.md`, through the settle format and
//! the table. Seat 1 wins unless a test says otherwise; seat 0 deals in the East round, so seat
//! 1's seat wind is South (2z). Every expected figure is worked out by hand in the comments.

use serde_json::{Value, json};

use crate::ruleset::{HandResult, OptionValue, RawOptions, Ruleset, RulesetId};
use crate::seat::{Seat, Wind};
use crate::settle::{Win, WinFlags};
use crate::table::TableState;
use crate::variants::testing::{deltas, settle};

fn empty() -> Value {
    json!({"concealed": ""})
}

fn chow(tiles: &str, from: u8) -> Value {
    json!({"kind": "chow", "tiles": tiles, "from": from})
}

fn pung(tiles: &str, from: u8) -> Value {
    json!({"kind": "pung", "tiles": tiles, "from": from})
}

/// A hand where seat 1 holds `concealed` and `melds` and the wins are `wins`.
fn hand(concealed: &str, melds: Value, wins: Value) -> Value {
    json!({"id": "g", "ruleset": "guangdong", "dealer": 0, "round_wind": "E",
        "seats": [empty(), {"concealed": concealed, "melds": melds}, empty(), empty()],
        "wins": wins})
}

/// Seat 1 wins on `tile`, from `from` (`null` for a self-draw), with `flags` merged in.
fn one_win(tile: &str, from: Value, flags: Value) -> Value {
    let mut w = json!({"seat": 1, "tile": tile, "from": from});
    if let (Some(w), Some(flags)) = (w.as_object_mut(), flags.as_object()) {
        for (k, v) in flags {
            w.insert(k.clone(), v.clone());
        }
    }
    json!([w])
}

fn with(mut h: Value, key: &str, value: Value) -> Value {
    if let Some(o) = h.as_object_mut() {
        o.insert(key.to_owned(), value);
    }
    h
}

/// The winner's fan total and the names of its items.
fn fan_of(out: &Value, winner: usize) -> (i64, Vec<String>) {
    let f = &out["fans"][winner];
    let names = f["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items: {out}"))
        .iter()
        .filter(|i| i["value"].as_i64() != Some(0) || i["name"] != "杠上开花")
        .map(|i| i["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    (f["total"].as_i64().unwrap_or(-1), names)
}

// ----- rows --------------------------------------------------------------------------------

#[test]
fn a_chicken_hand_is_zero_fan_and_pays_the_base() {
    // 123m chow claimed; 456p 111s 999s; pair 7z. 鸡胡 0 → 1 point from the discarder.
    let out = settle(hand(
        "456p111s999s7z",
        json!([chow("123m", 0)]),
        one_win("7z", json!(0), json!({})),
    ));
    assert_eq!(fan_of(&out, 0), (0, vec!["鸡胡".to_owned()]), "{out}");
    assert_eq!(deltas(&out), [-1, 1, 0, 0]);
}

#[test]
fn all_chows_is_one_fan() {
    // 123m claimed; 456p 789s 234s; pair 7z. 平胡 1 → 2.
    let out = settle(hand(
        "456p789s234s7z",
        json!([chow("123m", 0)]),
        one_win("7z", json!(3), json!({})),
    ));
    assert_eq!(fan_of(&out, 0).0, 1, "{out}");
    assert_eq!(deltas(&out), [0, 2, 0, -2]);
}

#[test]
fn the_best_reading_is_kept() {
    // 111222333m reads as three pungs (鸡胡 with the 789p chow) or three chows (平胡 1).
    let out = settle(hand(
        "111222333m5s",
        json!([chow("789p", 0)]),
        one_win("5s", json!(3), json!({})),
    ));
    assert_eq!(fan_of(&out, 0), (1, vec!["平胡".to_owned()]), "{out}");
    assert_eq!(deltas(&out), [0, 2, 0, -2]);
}

#[test]
fn each_row_scores_its_fan() {
    // (concealed, melds, winning tile, fan, name); every win is a discard of seat 3's, seat 1
    // holds a claimed meld (no 门清), and no wind pung is seat 1's South or the East round.
    let cases = [
        ("222p333s999s5p", pung("111m", 0), "5p", 2, "碰碰胡"),
        ("456m789m333z5m", chow("123m", 0), "5m", 2, "混一色"),
        ("456m789m111m5m", chow("123m", 0), "5m", 4, "清一色"),
        ("999m333z444z5m", pung("111m", 0), "5m", 4, "混碰"),
        ("333p555p777p9p", pung("111p", 0), "9p", 5, "清碰"),
        ("999p111s333z9s", pung("111m", 0), "9s", 5, "混幺九"),
        ("999m111p999p1s", pung("111m", 0), "1s", 6, "清幺九"),
        ("111z222z333z4z", pung("555z", 0), "4z", 6, "字一色"),
        ("666z777z123m9m", pung("555z", 0), "9m", 6, "大三元"),
        ("222z333z444z9m", pung("111z", 0), "9m", 6, "大四喜"),
    ];
    for (concealed, meld, tile, fan, name) in cases {
        let out = settle(hand(
            concealed,
            json!([meld]),
            one_win(tile, json!(3), json!({})),
        ));
        assert_eq!(
            fan_of(&out, 0),
            (fan, vec![name.to_owned()]),
            "{name}: {out}"
        );
        let points = 1 << fan;
        assert_eq!(deltas(&out), [0, points, 0, -points], "{name}");
    }
}

#[test]
fn little_dragons_and_winds_add_their_pungs_and_meet_the_cap() {
    // 小三元 5 + two dragon pungs 2 = 7 → 爆胡 6 → 64; under a 13-fan limit 7 → 128.
    let little = hand(
        "666z123m456m7z",
        json!([pung("555z", 0)]),
        one_win("7z", json!(3), json!({})),
    );
    let out = settle(little.clone());
    assert_eq!(fan_of(&out, 0).0, 6, "{out}");
    assert_eq!(deltas(&out), [0, 64, 0, -64]);
    let out = settle(with(little, "options", json!({"fan_cap": 13})));
    assert_eq!(
        fan_of(&out, 0),
        (7, vec!["小三元".into(), "箭刻".into()]),
        "{out}"
    );
    assert_eq!(deltas(&out), [0, 128, 0, -128]);
    // 小四喜 5 + South (seat 1's wind) + East (the round's) = 7.
    let winds = hand(
        "222z333z567m4z",
        json!([pung("111z", 0)]),
        one_win("4z", json!(3), json!({})),
    );
    let out = settle(with(winds, "options", json!({"fan_cap": 13})));
    assert_eq!(
        fan_of(&out, 0),
        (7, vec!["小四喜".into(), "门风刻".into(), "圈风刻".into()]),
        "{out}"
    );
}

#[test]
fn six_fan_rows_take_no_additions_even_under_a_higher_limit() {
    // 大三元 with three dragon pungs, 字一色 concealed and self-drawn: 6 each, nothing added.
    let dragons = hand(
        "666z777z123m9m",
        json!([pung("555z", 0)]),
        one_win("9m", json!(3), json!({})),
    );
    let out = settle(with(dragons, "options", json!({"fan_cap": 13})));
    assert_eq!(fan_of(&out, 0), (6, vec!["大三元".into()]), "{out}");
    let honors = hand(
        "111z222z333z555z4z",
        json!([]),
        one_win("4z", json!(null), json!({})),
    );
    let out = settle(with(honors, "options", json!({"fan_cap": 13})));
    assert_eq!(fan_of(&out, 0), (6, vec!["字一色".into()]), "{out}");
    assert_eq!(deltas(&out), [-64, 192, -64, -64]);
}

#[test]
fn nine_gates_and_thirteen_orphans_are_six_fan() {
    let out = settle(hand(
        "1112345678999m",
        json!([]),
        one_win("5m", json!(3), json!({})),
    ));
    assert_eq!(fan_of(&out, 0), (6, vec!["九莲宝灯".into()]), "{out}");
    let out = settle(hand(
        "19m19p19s1234567z",
        json!([]),
        one_win("1m", json!(2), json!({})),
    ));
    assert_eq!(fan_of(&out, 0), (6, vec!["十三幺".into()]), "{out}");
    assert_eq!(deltas(&out), [0, 64, -64, 0]);
}

#[test]
fn seven_pairs_is_not_a_hand() {
    let out = settle(hand(
        "1122m3344p5566s7z",
        json!([]),
        one_win("7z", json!(3), json!({})),
    ));
    assert_eq!(out["error"]["code"], "not_a_win", "{out}");
}

#[test]
fn heavenly_and_earthly_hands_are_six_fan_self_draws() {
    // The dealer's dealt fourteen: 天胡, 64 from each.
    let out = settle(json!({"id": "g", "ruleset": "guangdong", "dealer": 0,
        "seats": [{"concealed": "123m456p789s111z5s"}, empty(), empty(), empty()],
        "wins": [{"seat": 0, "tile": "5s", "from": null, "first_turn": true}]}));
    assert_eq!(fan_of(&out, 0), (6, vec!["天胡".into()]), "{out}");
    assert_eq!(deltas(&out), [192, -64, -64, -64]);
    // Seat 2 on its first draw: 地胡.
    let out = settle(json!({"id": "g", "ruleset": "guangdong", "dealer": 0,
        "seats": [empty(), empty(), {"concealed": "123m456p789s444z5s"}, empty()],
        "wins": [{"seat": 2, "tile": "5s", "from": null, "first_turn": true}]}));
    assert_eq!(fan_of(&out, 0), (6, vec!["地胡".into()]), "{out}");
    assert_eq!(deltas(&out), [-64, -64, 192, -64]);
    // On the dealer's first discard it is an ordinary win: 鸡胡 + 门清 = 1 → 2.
    let out = settle(json!({"id": "g", "ruleset": "guangdong", "dealer": 0,
        "seats": [empty(), empty(), {"concealed": "123m456p789s444z5s"}, empty()],
        "wins": [{"seat": 2, "tile": "5s", "from": 0, "first_turn": true}]}));
    assert_eq!(fan_of(&out, 0).0, 1, "{out}");
    assert_eq!(deltas(&out), [-2, 0, 2, 0]);
}

// ----- additions ---------------------------------------------------------------------------

#[test]
fn self_draw_and_concealed_hand_each_add_one() {
    // Claimed chow, self-drawn: 鸡胡 + 自摸 = 1 → 2 from each.
    let out = settle(hand(
        "456p111s999s7z",
        json!([chow("123m", 0)]),
        one_win("7z", json!(null), json!({})),
    ));
    assert_eq!(
        fan_of(&out, 0),
        (1, vec!["鸡胡".into(), "自摸".into()]),
        "{out}"
    );
    assert_eq!(deltas(&out), [-2, 6, -2, -2]);
    // Concealed and self-drawn: 鸡胡 + 自摸 + 门清 = 2 → 4 from each.
    let out = settle(hand(
        "123m456p111s999s7z",
        json!([]),
        one_win("7z", json!(null), json!({})),
    ));
    assert_eq!(fan_of(&out, 0).0, 2, "{out}");
    assert_eq!(deltas(&out), [-4, 12, -4, -4]);
    // Concealed on a discard: 门清 alone = 1 → 2.
    let out = settle(hand(
        "123m456p111s999s7z",
        json!([]),
        one_win("7z", json!(2), json!({})),
    ));
    assert_eq!(
        fan_of(&out, 0),
        (1, vec!["鸡胡".into(), "门清".into()]),
        "{out}"
    );
}

#[test]
fn a_concealed_kong_keeps_the_hand_concealed() {
    let out = settle(hand(
        "234p567s111s8p",
        json!([{"kind": "kong", "tiles": "9999m", "concealed": true}]),
        one_win("8p", json!(3), json!({})),
    ));
    assert_eq!(
        fan_of(&out, 0),
        (1, vec!["鸡胡".into(), "门清".into()]),
        "{out}"
    );
}

#[test]
fn dragon_seat_and_prevalent_wind_pungs_add_one_each() {
    // South round: seat 1's 2z pung is both its seat wind and the prevalent wind (2), plus a
    // concealed 7z pung (1): 鸡胡 + 3 = 3 → 8.
    let h = hand(
        "123m456p777z9m",
        json!([pung("222z", 0)]),
        one_win("9m", json!(3), json!({})),
    );
    let out = settle(with(h, "round_wind", json!("S")));
    assert_eq!(
        fan_of(&out, 0),
        (
            3,
            vec![
                "鸡胡".into(),
                "箭刻".into(),
                "门风刻".into(),
                "圈风刻".into()
            ]
        ),
        "{out}"
    );
    assert_eq!(deltas(&out), [0, 8, 0, -8]);
}

#[test]
fn the_last_tile_self_drawn_adds_one() {
    // Claimed chow: 鸡胡 + 自摸 + 海底捞月 = 2 → 4 from each.
    let out = settle(hand(
        "456p111s999s7z",
        json!([chow("123m", 0)]),
        one_win("7z", json!(null), json!({"last_tile": true})),
    ));
    assert_eq!(fan_of(&out, 0).0, 2, "{out}");
    assert_eq!(deltas(&out), [-4, 12, -4, -4]);
    // On the discard after the last tile: nothing extra.
    let out = settle(hand(
        "456p111s999s7z",
        json!([chow("123m", 0)]),
        one_win("7z", json!(3), json!({"last_tile": true})),
    ));
    assert_eq!(fan_of(&out, 0).0, 0, "{out}");
}

#[test]
fn the_limit_caps_the_total() {
    // 清碰 5 + 自摸 + 门清 = 7 → 6: 64 from each.
    let out = settle(hand(
        "111p333p555p777p9p",
        json!([]),
        one_win("9p", json!(null), json!({})),
    ));
    assert_eq!(fan_of(&out, 0).0, 6, "{out}");
    assert_eq!(deltas(&out), [-64, 192, -64, -64]);
}

// ----- payments ----------------------------------------------------------------------------

/// Seat 2 had punged 5p from seat 0 and was adding the fourth: seat 1 robs it with 456p.
fn robbing(extra_flags: Value) -> Value {
    let mut flags = json!({"robbed_kong": true});
    if let (Some(f), Some(x)) = (flags.as_object_mut(), extra_flags.as_object()) {
        for (k, v) in x {
            f.insert(k.clone(), v.clone());
        }
    }
    json!({"id": "g", "ruleset": "guangdong", "dealer": 0,
        "seats": [empty(), {"concealed": "456m789s22s46p", "melds": [chow("123m", 0)]},
                  {"concealed": "1122334455z", "melds": [pung("555p", 0)]}, empty()],
        "wins": one_win("5p", json!(2), flags)})
}

#[test]
fn a_robbed_kong_adds_one_and_its_declarer_pays_for_all_three() {
    // 平胡 1 + 抢杠 1 = 2 → 4 points; seat 2 pays 3 × 4.
    let out = settle(robbing(json!({})));
    assert_eq!(
        fan_of(&out, 0),
        (2, vec!["平胡".into(), "抢杠".into()]),
        "{out}"
    );
    assert_eq!(deltas(&out), [0, 12, -12, 0]);
}

#[test]
fn a_concealed_kong_cannot_be_robbed() {
    let out = settle(robbing(json!({"robbed_concealed_kong": true})));
    assert!(out.get("error").is_some(), "{out}");
}

#[test]
fn a_kong_replacement_win_counts_at_least_three_fan() {
    // Concealed 9m kong: 鸡胡 + 自摸 + 门清 = 2 → 杠上开花 3 → 8 from each (no 包杠).
    let out = settle(hand(
        "234p567s111s8p",
        json!([{"kind": "kong", "tiles": "9999m", "concealed": true}]),
        one_win("8p", json!(null), json!({"kong_replacement": true})),
    ));
    assert_eq!(fan_of(&out, 0).0, 3, "{out}");
    assert_eq!(deltas(&out), [-8, 24, -8, -8]);
}

#[test]
fn the_feeder_of_an_exposed_kong_pays_for_all_three_on_its_replacement_win() {
    // 7p kong claimed on seat 3's discard, then 5z drawn: 鸡胡 + 自摸 = 1 → 3 → 8 points,
    // seat 3 pays 3 × 8.
    let melds = json!([chow("123m", 0),
        {"kind": "kong", "tiles": "7777p", "from": 3}]);
    let out = settle(hand(
        "456s789s5z",
        melds,
        one_win("5z", json!(null), json!({"kong_replacement": true})),
    ));
    assert_eq!(fan_of(&out, 0).0, 3, "{out}");
    assert_eq!(deltas(&out), [0, 24, 0, -24]);
    // Added to a pung instead: an ordinary self-draw, 8 from each.
    let melds = json!([chow("123m", 0),
        {"kind": "kong", "tiles": "7777p", "from": 3, "added": true}]);
    let out = settle(hand(
        "456s789s5z",
        melds,
        one_win("5z", json!(null), json!({"kong_replacement": true})),
    ));
    assert_eq!(deltas(&out), [-8, 24, -8, -8], "{out}");
    // An exposed kong made earlier, a concealed one last: the concealed one's replacement won.
    let melds = json!([{"kind": "kong", "tiles": "7777p", "from": 3},
        {"kind": "kong", "tiles": "1111m", "concealed": true}]);
    let out = settle(hand(
        "456s789s5z",
        melds,
        one_win("5z", json!(null), json!({"kong_replacement": true})),
    ));
    assert_eq!(deltas(&out), [-8, 24, -8, -8], "{out}");
}

#[test]
fn the_discarder_pays_each_winner_of_one_discard() {
    // Seat 0 discards 5p: seat 1 鸡胡 (claimed chow) 0 → 1; seat 2 碰碰胡 2 → 4.
    let out = settle(json!({"id": "g", "ruleset": "guangdong", "dealer": 0,
        "seats": [empty(),
                  {"concealed": "456p111s999s5p", "melds": [chow("123m", 0)]},
                  {"concealed": "222m333s777s5p", "melds": [pung("444z", 3)]},
                  empty()],
        "wins": [{"seat": 1, "tile": "5p", "from": 0}, {"seat": 2, "tile": "5p", "from": 0}]}));
    assert_eq!(deltas(&out), [-5, 1, 4, 0], "{out}");
}

#[test]
fn three_winners_on_one_discard_are_paid_at_least_three_fan_each() {
    // Seat 0 discards 5p: 鸡胡 0 → 3 (8), 碰碰胡 2 → 3 (8), 清一色 4 stays (16).
    let out = settle(json!({"id": "g", "ruleset": "guangdong", "dealer": 0,
        "seats": [empty(),
                  {"concealed": "234p111s999s5p", "melds": [chow("123m", 0)]},
                  {"concealed": "222m333s777s5p", "melds": [pung("444z", 3)]},
                  {"concealed": "123p666p99p46p", "melds": [chow("789p", 2)]}],
        "wins": [{"seat": 1, "tile": "5p", "from": 0}, {"seat": 2, "tile": "5p", "from": 0},
                 {"seat": 3, "tile": "5p", "from": 0}]}));
    let totals: Vec<i64> = (0..3).map(|i| fan_of(&out, i).0).collect();
    assert_eq!(totals, [3, 3, 4], "{out}");
    assert_eq!(deltas(&out), [-32, 8, 8, 16]);
}

#[test]
fn wins_on_different_tiles_cannot_share_a_hand() {
    let out = settle(json!({"id": "g", "ruleset": "guangdong", "dealer": 0,
        "seats": [empty(),
                  {"concealed": "456p111s999s5p", "melds": [chow("123m", 0)]},
                  {"concealed": "222m333s777s7z", "melds": [pung("444z", 3)]},
                  empty()],
        "wins": [{"seat": 1, "tile": "5p", "from": 0}, {"seat": 2, "tile": "7z", "from": 0}]}));
    assert_eq!(out["error"]["code"], "illegal_hand", "{out}");
}

#[test]
fn a_drawn_hand_pays_nothing() {
    let out = settle(hand("", json!([]), json!([])));
    assert_eq!(deltas(&out), [0, 0, 0, 0], "{out}");
}

// ----- options -----------------------------------------------------------------------------

#[test]
fn the_base_multiplies_every_payment() {
    let h = hand(
        "456p789s234s7z",
        json!([chow("123m", 0)]),
        one_win("7z", json!(3), json!({})),
    );
    let out = settle(with(h, "options", json!({"base": 5})));
    assert_eq!(deltas(&out), [0, 10, 0, -10], "{out}");
}

#[test]
fn a_win_below_the_minimum_is_refused() {
    let h = hand(
        "456p111s999s7z",
        json!([chow("123m", 0)]),
        one_win("7z", json!(0), json!({})),
    );
    let out = settle(with(h.clone(), "options", json!({"min_fan": 1})));
    assert_eq!(out["error"]["code"], "not_a_win", "{out}");
    // Self-drawn it is 1 fan, enough.
    let h = with(h, "wins", one_win("7z", json!(null), json!({})));
    let out = settle(with(h, "options", json!({"min_fan": 1})));
    assert_eq!(deltas(&out), [-2, 6, -2, -2], "{out}");
}

#[test]
fn options_are_validated() {
    let set = |pairs: &[(&str, i64)]| -> RawOptions {
        pairs
            .iter()
            .map(|&(k, v)| (k.to_owned(), OptionValue::Int(v)))
            .collect()
    };
    assert!(Ruleset::new(RulesetId::Guangdong, &set(&[("min_fan", 7)])).is_err());
    assert!(
        Ruleset::new(
            RulesetId::Guangdong,
            &set(&[("min_fan", 8), ("fan_cap", 8)])
        )
        .is_ok()
    );
    assert!(Ruleset::new(RulesetId::Guangdong, &set(&[("fan_cap", 2)])).is_err());
    assert!(Ruleset::new(RulesetId::Guangdong, &set(&[("colour", 2)])).is_err());
    let defaults = Ruleset::with_defaults(RulesetId::Guangdong).expect("defaults");
    assert_eq!(
        defaults.options(),
        set(&[("base", 1), ("fan_cap", 6), ("min_fan", 0)])
    );
    let names: Vec<&str> = defaults.option_specs().iter().map(|s| s.name).collect();
    assert_eq!(names, ["base", "fan_cap", "min_fan"]);
    assert_eq!(defaults.rules().payment_for(3), 8);
}

// ----- the table ---------------------------------------------------------------------------

fn result(dealer: Seat, winners: &[usize]) -> HandResult {
    HandResult {
        dealer,
        wins: winners
            .iter()
            .map(|&s| Win {
                seat: Seat::ALL[s],
                tile: "5p".parse().expect("tile"),
                from: None,
                flags: WinFlags::default(),
            })
            .collect(),
    }
}

#[test]
fn the_dealer_keeps_the_deal_after_his_win_or_a_drawn_hand() {
    let rules = Ruleset::with_defaults(RulesetId::Guangdong).expect("preset");
    let mut state = TableState::new(1, 4);
    let first = state.dealer;
    state.first_dealer = Some(first);
    let keep = rules.rules().next_hand(&state, &result(first, &[]));
    assert_eq!((keep.dealer, keep.round_wind), (first, Wind::East));
    let own = rules
        .rules()
        .next_hand(&state, &result(first, &[first.index()]));
    assert_eq!(own.dealer, first);
    // Among several winners of one discard the dealer keeps it too.
    let other = first.next(4).next(4).index();
    let several = rules
        .rules()
        .next_hand(&state, &result(first, &[first.index(), other]));
    assert_eq!(several.dealer, first);
    let lost = rules.rules().next_hand(&state, &result(first, &[other]));
    assert_eq!((lost.dealer, lost.round_wind), (first.next(4), Wind::East));
}

#[test]
fn a_round_ends_when_its_last_dealer_loses_the_deal() {
    let rules = Ruleset::with_defaults(RulesetId::Guangdong).expect("preset");
    let table = crate::Table::new(rules.clone(), 9);
    let first = table.state().dealer;
    assert_eq!(table.state().first_dealer, Some(first));
    let mut state = table.state().clone();
    let mut winds = Vec::new();
    for _ in 0..8 {
        // The seat after the dealer wins: the deal passes.
        let winner = state.dealer.next(4).index();
        let next = rules
            .rules()
            .next_hand(&state, &result(state.dealer, &[winner]));
        state.dealer = next.dealer;
        state.round_wind = next.round_wind;
        winds.push(next.round_wind);
    }
    use Wind::{East as E, South as S, West as W};
    assert_eq!(winds, [E, E, E, S, S, S, S, W]);
    assert_eq!(state.dealer, first);
}
