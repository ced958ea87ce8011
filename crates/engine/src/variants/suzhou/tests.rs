//! The Suzhou rules and decisions of `docs/rules/suzhou.md`, through the settle format and the
//! table. Seat 1 wins unless a test says otherwise; seat 0 deals. Every expected figure is
//! worked out by hand in the comments.

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
    json!({"id": "s", "ruleset": "suzhou", "dealer": 0, "round_wind": "E",
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

/// The first winner's fan total and its items as (name, value).
fn fan_of(out: &Value) -> (i64, Vec<(String, i64)>) {
    let f = &out["fans"][0];
    let items = f["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items: {out}"))
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap_or_default().to_owned(),
                i["value"].as_i64().unwrap_or(-1),
            )
        })
        .collect();
    (f["total"].as_i64().unwrap_or(-1), items)
}

fn lines(pairs: &[(&str, i64)]) -> Vec<(String, i64)> {
    pairs.iter().map(|&(n, v)| (n.to_owned(), v)).collect()
}

// ----- shape and suit fan --------------------------------------------------------------------

#[test]
fn a_plain_hand_is_one_fan_paid_once_by_the_discarder() {
    // 123m claimed; 456p 789s 234s; pair 7z: 平胡 1, no suit row, open, on a discard.
    let out = settle(hand(
        "456p789s234s7z",
        json!([chow("123m", 0)]),
        one_win("7z", json!(3), json!({})),
    ));
    assert_eq!(fan_of(&out), (1, lines(&[("平胡", 1)])), "{out}");
    assert_eq!(deltas(&out), [0, 1, 0, -1]);
}

#[test]
fn each_shape_and_suit_row_scores_its_fan() {
    // (concealed, meld, tile, total, lines); every win is an open hand's discard win from seat 3.
    let cases = [
        (
            "222p333s999s5p",
            pung("111m", 0),
            "5p",
            2,
            vec![("碰碰胡", 2)],
        ),
        (
            "456m789m111m5m",
            chow("123m", 0),
            "5m",
            3,
            vec![("平胡", 1), ("清一色", 2)],
        ),
        (
            "456m789m333z5m",
            chow("123m", 0),
            "5m",
            3,
            vec![("平胡", 1), ("混一色", 2)],
        ),
        (
            "999m333z444z5m",
            pung("111m", 0),
            "5m",
            4,
            vec![("碰碰胡", 2), ("混一色", 2)],
        ),
        (
            "333p555p777p9p",
            pung("111p", 0),
            "9p",
            4,
            vec![("碰碰胡", 2), ("清一色", 2)],
        ),
        (
            "111z222z333z4z",
            pung("555z", 0),
            "4z",
            8,
            vec![("碰碰胡", 2), ("字一色", 6)],
        ),
    ];
    for (concealed, meld, tile, total, want) in cases {
        let out = settle(hand(
            concealed,
            json!([meld]),
            one_win(tile, json!(3), json!({})),
        ));
        assert_eq!(fan_of(&out), (total, lines(&want)), "{concealed}: {out}");
        assert_eq!(deltas(&out), [0, total, 0, -total], "{concealed}");
    }
}

#[test]
fn seven_pairs_is_four_fan_and_always_concealed() {
    // 七对 4, 门清 ×2 → 8, from the discarder (seat 2).
    let out = settle(hand(
        "1122m3344p5566s7z",
        json!([]),
        one_win("7z", json!(2), json!({})),
    ));
    assert_eq!(
        fan_of(&out),
        (8, lines(&[("七对", 4), ("门清", 4)])),
        "{out}"
    );
    assert_eq!(deltas(&out), [0, 8, -8, 0]);
}

#[test]
fn four_of_a_kind_counts_as_two_pairs_and_adds_nothing() {
    // 1111m 33p 55p 77s 22z and 7z + 7z: seven pairs with the four as two; 七对 4, 门清 → 8.
    let out = settle(hand(
        "1111m3355p77s22z7z",
        json!([]),
        one_win("7z", json!(3), json!({})),
    ));
    assert_eq!(fan_of(&out).0, 8, "{out}");
}

#[test]
fn all_honors_seven_pairs_self_drawn_doubles_twice() {
    // 七对 4 + 字一色 6 = 10; 门清 ×2 → 20; 自摸 ×2 → 40, from each of the three.
    let out = settle(hand(
        "1122334455667z",
        json!([]),
        one_win("7z", json!(null), json!({})),
    ));
    assert_eq!(
        fan_of(&out),
        (
            40,
            lines(&[("七对", 4), ("字一色", 6), ("门清", 10), ("自摸", 20)])
        ),
        "{out}"
    );
    assert_eq!(deltas(&out), [-40, 120, -40, -40]);
}

#[test]
fn the_best_reading_is_kept() {
    // 111 222 333 444m 55s: 碰碰胡 2 (not three chows, 平胡 1); 门清 ×2 → 4.
    let out = settle(hand(
        "111222333444m5s",
        json!([]),
        one_win("5s", json!(3), json!({})),
    ));
    assert_eq!(
        fan_of(&out),
        (4, lines(&[("碰碰胡", 2), ("门清", 2)])),
        "{out}"
    );
    // 112233m 445566p 77s: seven pairs 4 rather than four chows 1; 门清 → 8.
    let out = settle(hand(
        "112233m445566p7s",
        json!([]),
        one_win("7s", json!(3), json!({})),
    ));
    assert_eq!(fan_of(&out).0, 8, "{out}");
}

// ----- doublings -----------------------------------------------------------------------------

#[test]
fn concealed_self_drawn_last_of_kind_multiplies_by_eight() {
    // 平胡 1 ×2 (门清) ×2 (自摸) ×2 (和绝张) = 8 from each; with 底分 5, 40 from each.
    let h = hand(
        "123m456p789s23s77z",
        json!([]),
        one_win("4s", json!(null), json!({"last_of_kind": true})),
    );
    let out = settle(h.clone());
    assert_eq!(
        fan_of(&out),
        (
            8,
            lines(&[("平胡", 1), ("门清", 1), ("自摸", 2), ("和绝张", 4)])
        ),
        "{out}"
    );
    assert_eq!(deltas(&out), [-8, 24, -8, -8]);
    let out = settle(with(h, "options", json!({"base": 5})));
    assert_eq!(deltas(&out), [-40, 120, -40, -40], "{out}");
}

#[test]
fn a_concealed_kong_keeps_the_hand_concealed_and_an_exposed_one_does_not() {
    // Concealed kong of 5m; 456p 789s 23s 77z, self-drawn 4s: 平胡 1, 门清 → 2, 自摸 → 4.
    let concealed = json!({"kind": "kong", "tiles": "5555m", "concealed": true});
    let out = settle(hand(
        "456p789s23s77z",
        json!([concealed]),
        one_win("4s", json!(null), json!({})),
    ));
    assert_eq!(fan_of(&out).0, 4, "{out}");
    assert_eq!(deltas(&out), [-4, 12, -4, -4]);
    // The same kong claimed on seat 2's discard: 平胡 1, 自摸 → 2 from each. No kong money.
    let exposed = json!({"kind": "kong", "tiles": "5555m", "from": 2});
    let out = settle(hand(
        "456p789s23s77z",
        json!([exposed]),
        one_win("4s", json!(null), json!({})),
    ));
    assert_eq!(fan_of(&out).0, 2, "{out}");
    assert_eq!(deltas(&out), [-2, 6, -2, -2]);
}

#[test]
fn a_robbed_added_kong_is_last_of_kind_and_paid_by_its_declarer_once() {
    // Seat 2 adds 5p to its pung; seat 1 (4p_6p, an open chow) robs it: 平胡 1, 和绝张 → 2,
    // not 自摸; seat 2 pays 2 as a discarder would.
    let h = json!({"id": "s", "ruleset": "suzhou", "dealer": 0, "round_wind": "E",
        "seats": [empty(),
                  {"concealed": "4p6p 789s 234s 7z7z", "melds": [chow("123m", 0)]},
                  {"concealed": "1s1s1s 2z2z2z 3z3z3z 4z", "melds": [pung("555p", 3)]},
                  empty()],
        "wins": [{"seat": 1, "tile": "5p", "from": 2, "robbed_kong": true}]});
    let out = settle(h);
    assert_eq!(
        fan_of(&out),
        (2, lines(&[("平胡", 1), ("和绝张", 1)])),
        "{out}"
    );
    assert_eq!(deltas(&out), [0, 2, -2, 0]);
}

#[test]
fn a_kong_replacement_win_is_a_self_draw() {
    // Exposed kong of 9s from seat 3; replacement 4s: 平胡 1, 自摸 → 2 from each.
    let kong = json!({"kind": "kong", "tiles": "9999s", "from": 3});
    let out = settle(hand(
        "123m456p23s77z",
        json!([kong]),
        one_win("4s", json!(null), json!({"kong_replacement": true})),
    ));
    assert_eq!(deltas(&out), [-2, 6, -2, -2], "{out}");
}

// ----- refusals and the drawn hand -----------------------------------------------------------

#[test]
fn a_drawn_hand_pays_nothing() {
    let out = settle(hand("", json!([]), json!([])));
    assert_eq!(deltas(&out), [0, 0, 0, 0], "{out}");
}

#[test]
fn what_is_no_win_here_is_refused() {
    // Thirteen orphans is not a Suzhou hand.
    let out = settle(hand(
        "19m19p19s1234567z",
        json!([]),
        one_win("1m", json!(2), json!({})),
    ));
    assert_eq!(out["error"]["code"], "not_a_win", "{out}");
    // Two winners on one discard: no 一炮多响.
    let two = json!({"id": "s", "ruleset": "suzhou", "dealer": 0, "round_wind": "E",
        "seats": [empty(),
                  {"concealed": "456p789s234s7z", "melds": [chow("123m", 0)]},
                  {"concealed": "222p333s999s7z", "melds": [pung("111m", 0)]},
                  empty()],
        "wins": [{"seat": 1, "tile": "7z", "from": 3}, {"seat": 2, "tile": "7z", "from": 3}]});
    let out = settle(two);
    assert_eq!(out["error"]["code"], "illegal_hand", "{out}");
    // A robbed concealed kong.
    let out = settle(hand(
        "456p789s234s7z",
        json!([chow("123m", 0)]),
        one_win(
            "7z",
            json!(3),
            json!({"robbed_kong": true, "robbed_concealed_kong": true}),
        ),
    ));
    assert!(out.get("error").is_some(), "{out}");
}

#[test]
fn options_are_validated() {
    let set = |v: i64| -> RawOptions { [("base".to_owned(), OptionValue::Int(v))].into() };
    assert!(Ruleset::new(RulesetId::Suzhou, &set(1)).is_ok());
    let five = Ruleset::new(RulesetId::Suzhou, &set(5)).expect("5 is allowed");
    assert_eq!(five.rules().payment_for(3), 15);
    for bad in [0, 2, 3, 4, 6] {
        assert!(Ruleset::new(RulesetId::Suzhou, &set(bad)).is_err(), "{bad}");
    }
    let unknown: RawOptions = [("fan_cap".to_owned(), OptionValue::Int(6))].into();
    assert!(Ruleset::new(RulesetId::Suzhou, &unknown).is_err());
    let defaults = Ruleset::with_defaults(RulesetId::Suzhou).expect("defaults");
    assert_eq!(defaults.options(), set(1));
    let names: Vec<&str> = defaults.option_specs().iter().map(|s| s.name).collect();
    assert_eq!(names, ["base"]);
}

// ----- the table -----------------------------------------------------------------------------

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
    let rules = Ruleset::with_defaults(RulesetId::Suzhou).expect("preset");
    let state = TableState::new(1, 4);
    let first = state.dealer;
    let keep = rules.rules().next_hand(&state, &result(first, &[]));
    assert_eq!((keep.dealer, keep.round_wind), (first, Wind::East));
    let own = rules
        .rules()
        .next_hand(&state, &result(first, &[first.index()]));
    assert_eq!(own.dealer, first);
    let other = first.next(4).next(4).index();
    let lost = rules.rules().next_hand(&state, &result(first, &[other]));
    assert_eq!((lost.dealer, lost.round_wind), (first.next(4), Wind::East));
}

#[test]
fn the_deal_goes_round_east_south_west_north() {
    let rules = Ruleset::with_defaults(RulesetId::Suzhou).expect("preset");
    let mut state = TableState::new(9, 4);
    let first = state.dealer;
    let mut winds = Vec::new();
    for _ in 0..5 {
        let winner = state.dealer.next(4).index();
        let next = rules
            .rules()
            .next_hand(&state, &result(state.dealer, &[winner]));
        state.dealer = next.dealer;
        state.round_wind = next.round_wind;
        winds.push(next.round_wind);
    }
    use Wind::{East as E, South as S};
    assert_eq!(winds, [E, E, E, S, S]);
    assert_eq!(state.dealer, first.next(4));
}
