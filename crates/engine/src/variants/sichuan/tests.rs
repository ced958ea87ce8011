//! One test per rule and decision of `docs/rules/sichuan.md`, through the settle format.

use serde_json::{Value, json};

use crate::format::SettleOutput;
use crate::seat::Seat;
use crate::settle::{PaidFor, Payment};
use crate::variants::testing::{deltas, settle, settlement};

fn error_code(out: &Value) -> String {
    out["error"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("no error: {out}"))
        .to_owned()
}

fn hand(ruleset: &str, seats: Value, wins: Value) -> Value {
    json!({"id": "t", "ruleset": ruleset, "dealer": 0, "seats": seats, "wins": wins})
}

fn empty() -> Value {
    json!({"concealed": ""})
}

#[test]
fn seven_pairs_with_two_roots_is_five_points() {
    // 七对 3 + 2 根 = 双龙七对 5, paid by the discarder.
    let seats = json!([{"concealed": "1111m22m44p66p999p"}, empty(), empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        seats,
        json!([{"seat": 0, "tile": "9p", "from": 1}]),
    ));
    assert_eq!(deltas(&out), [5, -5, 0, 0], "{out}");
}

#[test]
fn full_flush_with_two_roots_is_five_points() {
    // 清一色 3 + 二根 2: four 1s across 111+123 and four 9s across 789+999.
    let seats = json!([{"concealed": "111123789999s5s"}, empty(), empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        seats,
        json!([{"seat": 0, "tile": "5s", "from": 2}]),
    ));
    assert_eq!(deltas(&out), [5, 0, -5, 0], "{out}");
}

#[test]
fn chicken_with_one_root_is_two_points_self_drawn() {
    let seats = json!([empty(), {"concealed": "111123m456p789p5p"}, empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        seats,
        json!([{"seat": 1, "tile": "5p", "from": null}]),
    ));
    assert_eq!(deltas(&out), [-2, 6, -2, -2], "{out}");
}

#[test]
fn robbing_a_kong_scores_its_row_and_the_extra() {
    // 平胡 shape robbed: 抢杠胡 row 2 + 抢杠 1 = 3, paid by the kong's owner.
    let seats = json!([{"concealed": "123m456m78p99p", "melds": [{"kind": "pung", "tiles": "555p", "from": 1}]},
        {"concealed": "123s456s789s1s", "melds": [{"kind": "pung", "tiles": "666p", "from": 2}]}, empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        seats,
        json!([{"seat": 0, "tile": "6p", "from": 1, "robbed_kong": true}]),
    ));
    assert_eq!(deltas(&out), [3, -3, 0, 0], "{out}");
}

#[test]
fn kong_bloom_adds_two_and_fed_kong_is_paid_by_the_feeder() {
    let concealed_kong = json!([empty(), {"concealed": "123m456m99p78p", "melds": [{"kind": "kong", "tiles": "5555p", "concealed": true}]}, empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        concealed_kong,
        json!([{"seat": 1, "tile": "9p", "from": null, "kong_replacement": true}]),
    ));
    // 平胡 1 + 杠 1 + 杠上花 2 = 4 from each.
    assert_eq!(deltas(&out), [-4, 12, -4, -4], "{out}");
    let fed = json!([empty(), {"concealed": "123m456m99p78p", "melds": [{"kind": "kong", "tiles": "5555p", "from": 3}]}, empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        fed,
        json!([{"seat": 1, "tile": "9p", "from": null, "kong_replacement": true}]),
    ));
    assert_eq!(
        deltas(&out),
        [0, 4, 0, -4],
        "引杠 then 杠上花: the feeder pays as a discard: {out}"
    );
}

#[test]
fn impossible_facts_are_refused() {
    let winner = json!({"concealed": "123m456m789m1122p"});
    let cases = [
        // A chow in Sichuan.
        (
            json!([{"concealed": "456m789m1122p", "melds": [{"kind": "chow", "tiles": "123m", "from": 3}]}, empty(), empty(), empty()]),
            json!([{"seat": 0, "tile": "2p", "from": 1}]),
        ),
        // 杠上花 without a kong.
        (
            json!([winner.clone(), empty(), empty(), empty()]),
            json!([{"seat": 0, "tile": "2p", "from": null, "kong_replacement": true}]),
        ),
        // A robbed kong with nobody robbed.
        (
            json!([winner.clone(), empty(), empty(), empty()]),
            json!([{"seat": 0, "tile": "2p", "from": null, "robbed_kong": true}]),
        ),
        // A first-go-around win after a claim.
        (
            json!([{"concealed": "456m789m1122p", "melds": [{"kind": "pung", "tiles": "111m", "from": 3}]}, empty(), empty(), empty()]),
            json!([{"seat": 0, "tile": "2p", "from": null, "first_turn": true}]),
        ),
        // A non-winner holding one tile.
        (
            json!([winner, {"concealed": "1s"}, empty(), empty()]),
            json!([{"seat": 0, "tile": "2p", "from": 1}]),
        ),
    ];
    for (seats, wins) in cases {
        let out = settle(hand("sichuan", seats.clone(), wins));
        assert_eq!(error_code(&out), "illegal_hand", "{seats}: {out}");
    }
    let flood = format!("{}123m456m789m234p", "1".repeat(256));
    let seats = json!([{"concealed": flood}, empty(), empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        seats,
        json!([{"seat": 0, "tile": "5p", "from": 3}]),
    ));
    assert_eq!(error_code(&out), "bad_input", "{out}");
}

#[test]
fn kong_bloom_pays_by_the_kong_just_made() {
    // The added kong of 5s was made last (it is listed last): a self-draw paid by all three,
    // even though an earlier exposed kong of 7s was fed by seat 2.
    let seats = json!([{"concealed": "123m456m9m", "melds": [
        {"kind": "kong", "tiles": "7777s", "from": 2},
        {"kind": "kong", "tiles": "5555s", "from": 1, "added": true}]}, empty(), empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        seats,
        json!([{"seat": 0, "tile": "9m", "from": null, "kong_replacement": true}]),
    ));
    // 平胡 1 + 2 杠 + 杠上花 2 = 5 from each.
    assert_eq!(deltas(&out), [15, -5, -5, -5], "{out}");
}

#[test]
fn the_standard_preset_ignores_a_void() {
    let seats = json!([{"concealed": "123m456m789m1122p", "void": "p"}, empty(), empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        seats,
        json!([{"seat": 0, "tile": "2p", "from": 1}]),
    ));
    assert_eq!(deltas(&out), [1, -1, 0, 0], "{out}");
}

#[test]
fn three_suits_cannot_win() {
    let seats = json!([{"concealed": "123m456p789s1122s"}, empty(), empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        seats,
        json!([{"seat": 0, "tile": "2s", "from": 1}]),
    ));
    assert_eq!(error_code(&out), "not_a_win");
}

#[test]
fn heavenly_and_earthly_hands() {
    let seats = json!([{"concealed": "123m456m789m1122p"}, empty(), empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        seats,
        json!([{"seat": 0, "tile": "2p", "from": null, "first_turn": true}]),
    ));
    assert_eq!(deltas(&out), [24, -8, -8, -8], "天胡 8: {out}");
    let seats = json!([empty(), {"concealed": "123m456m789m1122p"}, empty(), empty()]);
    let out = settle(hand(
        "sichuan",
        seats,
        json!([{"seat": 1, "tile": "2p", "from": 0, "first_turn": true}]),
    ));
    assert_eq!(deltas(&out), [-8, 8, 0, 0], "地胡 8: {out}");
}

#[test]
fn one_discard_several_winners_discarder_pays_each() {
    let seats = json!([empty(), {"concealed": "123m456m789m1122p"}, {"concealed": "123s456s789s333s2p"}, empty()]);
    let wins = json!([{"seat": 1, "tile": "2p", "from": 0}, {"seat": 2, "tile": "2p", "from": 0}]);
    let out = settle(hand("sichuan", seats, wins));
    // Seat 1 平胡 1; seat 2 平胡 1 + 根 1 (333s and the 3s of 123s); the discarder pays each.
    assert_eq!(deltas(&out), [-3, 1, 2, 0], "{out}");
}

#[test]
fn drawn_hand_not_ready_pays_each_ready_its_smallest() {
    // Seat 0 waits on 3p (平胡 1) or 6p? 45p waits 3p/6p: both 平胡 → 1. Seat 1 waits 清一色 (3).
    let seats = json!([
        {"concealed": "123m456m789m45p99p"},
        {"concealed": "1112345678999s"},
        {"concealed": "13579m13579p135s"},
        {"concealed": "2468m2468p24688s"}
    ]);
    let out = settle(hand("sichuan", seats, json!([])));
    assert_eq!(deltas(&out), [2, 6, -4, -4], "{out}");
}

#[test]
fn xuezhan_flower_pig_and_ready_checks_at_the_wall() {
    // Seat 0 won by self-draw (清一色 2 fan → 4 from each). At the wall: seat 1 holds three
    // suits (花猪) and pays 8 (the cap) to seats 2 and 3; seat 3 is not ready and pays seat 2
    // its largest fan: nine gates waits on 1s or 9s with a 根, 清一色 2 + 根 1 = 3 → 8.
    let seats = json!([
        {"concealed": "112233456789p5p", "void": "s"},
        {"concealed": "13m189p2468s1357s", "void": "m"},
        {"concealed": "1112345678999s", "void": "m"},
        {"concealed": "1357m2468p1379p9m", "void": "s"}
    ]);
    let out = settle(hand(
        "sichuan-xuezhan",
        seats,
        json!([{"seat": 0, "tile": "5p", "from": null}]),
    ));
    assert_eq!(deltas(&out), [12, -20, 12, -4], "{out}");
}

#[test]
fn xuezhan_kong_money_and_refund() {
    // Seat 0 wins 平胡 (0 fan → 1) on seat 3's discard; the wall then runs out. Seat 2 is ready
    // (平胡 on 2s), seats 1 and 3 are not and pay it 1 each; seat 1's concealed kong money is
    // returned because it ends not ready.
    let seats = json!([
        {"concealed": "111m234m567m88m34p", "void": "s"},
        {"concealed": "234599m1789p", "void": "s", "melds": [{"kind": "kong", "tiles": "6666p", "concealed": true}]},
        {"concealed": "123s456s789s555p2s", "void": "m"},
        {"concealed": "13579m2468s1357s", "void": "p"}
    ]);
    let win = json!([{"seat": 0, "tile": "5p", "from": 3}]);
    let out = settle(hand("sichuan-xuezhan", seats.clone(), win.clone()));
    assert_eq!(deltas(&out), [1, -1, 2, -2], "{out}");
    // Ready instead (single wait on 1p, 平胡 + the kong's 根 = 1 fan): the concealed kong
    // collects 2 from each of the three, and seat 3 pays both ready seats.
    let mut ready = seats;
    ready[1]["concealed"] = json!("234m999m1p789p");
    let out = settle(hand("sichuan-xuezhan", ready.clone(), win.clone()));
    assert_eq!(deltas(&out), [-1, 8, -1, -6], "{out}");
    let mut h = hand("sichuan-xuezhan", ready, win);
    h["options"] = json!({"kong_money": false});
    assert_eq!(deltas(&settle(h)), [1, 2, 1, -4], "kong money off");
}

#[test]
fn an_exposed_kong_is_paid_as_gua_feng_by_each_seat_still_in() {
    // Seat 2's exposed kong of 5p was made while seats 0, 1 and 2 were still in (seat 3 had
    // already won): 刮风 is 1 from each of seats 0 and 1, recorded as its own payments after
    // seat 3's win, which seat 0's discard paid.
    let seats = json!([
        {"concealed": "", "void": "s"},
        {"concealed": "", "void": "s"},
        {"concealed": "123s456s789s2s", "void": "m",
         "melds": [{"kind": "kong", "tiles": "5555p", "from": 1, "in_play": [0, 1, 2]}]},
        {"concealed": "111m234m567m999m8m", "void": "s"}
    ]);
    let mut h = hand(
        "sichuan-xuezhan",
        seats,
        json!([{"seat": 3, "tile": "8m", "from": 0}]),
    );
    h["options"] = json!({"coefficient": 10});
    let st = settlement(h);
    let seat = |i: u8| Seat::new(i).expect("seat");
    let (win, gua_feng) = st.payments.split_first().expect("payments");
    assert_eq!(
        (win.payer, win.payee, win.paid_for),
        (seat(0), seat(3), PaidFor::Win),
        "{st:?}"
    );
    let from = |payer: u8| Payment {
        payer: seat(payer),
        payee: seat(2),
        amount: 10,
        paid_for: PaidFor::Extra("刮风"),
    };
    assert_eq!(gua_feng, [from(0), from(1)], "{st:?}");
    assert!(st.extras.iter().any(|e| e.name == "刮风"), "{st:?}");
    assert_eq!(st.payment_totals(), st.deltas, "{st:?}");
}

#[test]
fn xuezhan_nine_dragon_pairs_and_streaks() {
    // 龙七对 5 (its own 根 included), 自摸 +1 = 6 fan → 64 from each.
    let seats = json!([{"concealed": "1111m22m44m66p99p5p", "void": "s"}, {"concealed": "", "void": "m"}, {"concealed": "", "void": "m"}, {"concealed": "", "void": "m"}]);
    let out = settle(hand(
        "sichuan-xuezhan-9",
        seats.clone(),
        json!([{"seat": 0, "tile": "5p", "from": null}]),
    ));
    assert_eq!(deltas(&out), [192, -64, -64, -64], "{out}");
    let mut streak = hand(
        "sichuan-xuezhan-9",
        seats,
        json!([{"seat": 0, "tile": "5p", "from": null}]),
    );
    streak["table"] = json!({"draw_streak": 1, "dealer_streak": 2});
    assert_eq!(
        deltas(&settle(streak)),
        [768, -256, -256, -256],
        "黄庄 ×2 and 连庄 ×2"
    );
}

#[test]
fn xuezhan_caps_and_coefficient() {
    // 清七对 with a root: 清龙七对 3 fan in the 3-fan preset, capped at 3 even with 自摸 extras.
    let seats = json!([{"concealed": "1111223344556s", "void": "m"}, {"concealed": ""}, {"concealed": ""}, {"concealed": ""}]);
    let mut h = hand(
        "sichuan-xuezhan",
        seats,
        json!([{"seat": 0, "tile": "6s", "from": 2, "after_kong_discard": true}]),
    );
    h["options"] = json!({"coefficient": 10});
    assert_eq!(deltas(&settle(h)), [80, 0, -80, 0]);
}

#[test]
fn options_are_validated() {
    let mut h = hand(
        "sichuan-xuezhan",
        json!([empty(), empty(), empty(), empty()]),
        json!([]),
    );
    h["options"] = json!({"fan_cap": 99});
    assert_eq!(error_code(&settle(h.clone())), "bad_option");
    h["options"] = json!({"kong_money": "yes"});
    assert_eq!(error_code(&settle(h.clone())), "bad_option");
    h["ruleset"] = json!("sichuan");
    h["options"] = json!({"kong_money": true});
    assert_eq!(
        error_code(&settle(h)),
        "bad_option",
        "the standard preset has no kong money"
    );
}

#[test]
fn void_suit_blocks_a_win() {
    let seats = json!([{"concealed": "123m456m789m1122p", "void": "p"}, empty(), empty(), empty()]);
    let out = settle(hand(
        "sichuan-xuezhan",
        seats,
        json!([{"seat": 0, "tile": "2p", "from": 1}]),
    ));
    assert_eq!(error_code(&out), "not_a_win");
    let _ = SettleOutput::refused(None, "x", String::new());
}

#[test]
fn seats_not_given_take_no_part_in_ready_checks() {
    // Seat 0 won; seat 2 is ready; seats 1 and 3 were left out of the line as not mattering.
    let seats = json!([
        {"concealed": "111m234m567m88m34p", "void": "s"},
        empty(),
        {"concealed": "123s456s789s555p2s", "void": "m"},
        empty()
    ]);
    let out = settle(hand(
        "sichuan-xuezhan",
        seats,
        json!([{"seat": 0, "tile": "5p", "from": 1}]),
    ));
    assert_eq!(deltas(&out), [1, -1, 0, 0], "{out}");
}
