//! The Beijing rules and decisions of `docs/rules/beijing.md`, through the settle format.

use serde_json::{Value, json};

use crate::ruleset::{HandResult, Ruleset, RulesetId};
use crate::seat::Seat;
use crate::settle::{Win, WinFlags};
use crate::table::TableState;
use crate::variants::testing::{deltas, score_past_the_referee, settle};

fn empty() -> Value {
    json!({"concealed": ""})
}

/// A hand of `ruleset` beijing won by `seat` holding `winner`, other seats empty; `extra` keys
/// replace the defaults (dealer 0, wild 9p so none held, base 1).
fn hand(seat: usize, winner: Value, win: Value, extra: Value) -> Value {
    let mut seats = vec![empty(), empty(), empty(), empty()];
    seats[seat] = winner;
    let mut h = json!({"id": "b", "ruleset": "beijing", "dealer": 0, "wild": "9p",
        "seats": seats, "wins": [win]});
    if let (Some(h), Some(extra)) = (h.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            h.insert(k.clone(), v.clone());
        }
    }
    h
}

/// The first winner's lines as (name, value).
fn lines(out: &Value) -> Vec<(String, i64)> {
    out["fans"][0]["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no fans: {out}"))
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap_or_default().to_owned(),
                i["value"].as_i64().unwrap_or_default(),
            )
        })
        .collect()
}

fn names(out: &Value) -> Vec<String> {
    lines(out).into_iter().map(|(n, _)| n).collect()
}

fn refused(out: &Value) -> String {
    out["error"]["message"]
        .as_str()
        .or_else(|| out["error"].as_str())
        .unwrap_or_else(|| panic!("not refused: {out}"))
        .to_owned()
}

#[test]
fn the_seed_texts_two_examples_reproduce() {
    // 实例1: East self-draws 对对和 with one round of 烧庄, base 2000.
    let out = settle(
        json!({"id": "1", "ruleset": "beijing", "options": {"base": 2000},
        "dealer": 0, "wild": "9p",
        "seats": [{"concealed": "111m333m777p5s", "melds": [{"kind": "pung", "tiles": "222s", "from": 2}]},
                  empty(), empty(), empty()],
        "wins": [{"seat": 0, "tile": "5s", "from": null}], "table": {"shaozhuang_rounds": 1}}),
    );
    assert_eq!(deltas(&out), [12000, -4000, -4000, -4000]);
    assert_eq!(names(&out), ["庄", "对对和"]);
    assert_eq!(out["extras"], json!([{"name": "烧庄", "value": 1}]));
    // 实例2: East discards to South (推倒和, a wild held so no 门清无惠); South and North are a
    // 互包 pair; three rounds of 烧庄.
    let out = settle(
        json!({"id": "2", "ruleset": "beijing", "options": {"base": 500},
        "dealer": 0, "wild": "9s",
        "seats": [empty(), {"concealed": "123m345p698s22p23s"}, empty(),
                  {"concealed": "1z1z2z3z", "melds": [
                      {"kind": "pung", "tiles": "777m", "from": 1},
                      {"kind": "pung", "tiles": "999m", "from": 1},
                      {"kind": "pung", "tiles": "111p", "from": 1}]}],
        "wins": [{"seat": 1, "tile": "4s", "from": 0}], "table": {"shaozhuang_rounds": 3}}),
    );
    assert_eq!(deltas(&out), [-6000, 3000, 2000, 1000]);
    assert_eq!(names(&out), ["推倒和", "庄"]);
}

#[test]
fn after_a_claim_or_with_three_wilds_only_a_self_draw_wins() {
    let punged = json!({"concealed": "123m456m789p5s", "melds": [{"kind": "pung", "tiles": "222s", "from": 2}]});
    let out = settle(hand(
        1,
        punged.clone(),
        json!({"seat": 1, "tile": "5s", "from": 2}),
        json!({}),
    ));
    assert!(refused(&out).contains("self-draw"), "{out}");
    let out = settle(hand(
        1,
        punged,
        json!({"seat": 1, "tile": "5s", "from": null}),
        json!({}),
    ));
    assert_eq!(names(&out), ["推倒和"]);
    // Three 9p wilds: concealed, yet only by self-draw.
    let three = json!({"concealed": "123m456m78s9p9p9p5s5s"});
    let out = settle(hand(
        1,
        three.clone(),
        json!({"seat": 1, "tile": "9s", "from": 2}),
        json!({}),
    ));
    assert!(refused(&out).contains("three"), "{out}");
    let out = settle(hand(
        1,
        three,
        json!({"seat": 1, "tile": "9s", "from": null}),
        json!({}),
    ));
    assert_eq!(deltas(&out), [-1, 3, -1, -1]);
}

#[test]
fn a_discarded_wild_is_dead_and_a_self_drawn_one_is_wild() {
    let h = json!({"concealed": "123m456m789s111z9s"});
    let out = settle(hand(
        1,
        h.clone(),
        json!({"seat": 1, "tile": "9p", "from": 2}),
        json!({}),
    ));
    assert!(refused(&out).contains("惠牌"), "{out}");
    // Self-drawn, the 9p stands in for the pair's second 9s: no 门清无惠 (a wild is held).
    let out = settle(hand(
        1,
        h,
        json!({"seat": 1, "tile": "9p", "from": null}),
        json!({}),
    ));
    assert_eq!(names(&out), ["推倒和"]);
}

#[test]
fn four_wilds_win_whatever_else_is_held() {
    let h = json!({"concealed": "1m4m7m2p5p8p3s6s9s9p9p9p1z"});
    let out = settle(hand(
        2,
        h,
        json!({"seat": 2, "tile": "9p", "from": null}),
        json!({}),
    ));
    assert_eq!(names(&out), ["四惠牌"]);
    assert_eq!(deltas(&out), [-8, -8, 24, -8]);
}

#[test]
fn the_rows_of_the_table() {
    let self_draw = |seat: usize, tile: &str| json!({"seat": seat, "tile": tile, "from": null});
    // 门清无惠 with 七对子; the dealer's win adds 庄.
    let out = settle(hand(
        0,
        json!({"concealed": "1m1m3m3m5p5p7p7p2s2s4s4s6z"}),
        self_draw(0, "6z"),
        json!({}),
    ));
    assert_eq!(
        lines(&out),
        [
            ("庄".into(), 1),
            ("门清无惠".into(), 1),
            ("七对子".into(), 4)
        ]
    );
    // Four of a kind makes 豪华七对子 in place of 七对子.
    let out = settle(hand(
        1,
        json!({"concealed": "1m1m1m1m5p5p7p7p2s2s4s4s6z"}),
        self_draw(1, "6z"),
        json!({}),
    ));
    assert_eq!(names(&out), ["门清无惠", "豪华七对子"]);
    // 清一色 and 一条龙 together.
    let out = settle(hand(
        1,
        json!({"concealed": "123456789s111s5s"}),
        self_draw(1, "5s"),
        json!({}),
    ));
    assert_eq!(names(&out), ["门清无惠", "一条龙", "清一色"]);
    // 捉五魁: 5m is the only tile that wins, in the middle of 4m_6m.
    let out = settle(hand(
        1,
        json!({"concealed": "4m6m 123p 456p 789s 1z1z"}),
        json!({"seat": 1, "tile": "5m", "from": 3}),
        json!({}),
    ));
    assert_eq!(names(&out), ["门清无惠", "捉五魁"]);
    // 大钓: four declared melds, won on the pair's tile by self-draw.
    let out = settle(hand(
        1,
        json!({"concealed": "5s", "melds": [
        {"kind": "chow", "tiles": "123m", "from": 0}, {"kind": "pung", "tiles": "777p", "from": 2},
        {"kind": "chow", "tiles": "456s", "from": 0}, {"kind": "pung", "tiles": "2z2z2z", "from": 3}]}),
        self_draw(1, "5s"),
        json!({}),
    ));
    assert_eq!(names(&out), ["大钓"]);
    // 天和 replaces 庄; 地和 for a non-dealer before its first discard.
    let mut win = self_draw(0, "6z");
    win["first_turn"] = json!(true);
    let out = settle(hand(
        0,
        json!({"concealed": "123m456m789s2s2s6z6z"}),
        win,
        json!({}),
    ));
    assert_eq!(names(&out), ["门清无惠", "天和"]);
    let out = settle(hand(
        2,
        json!({"concealed": "123m456m789s2s2s6z6z"}),
        json!({"seat": 2, "tile": "6z", "from": 0, "first_turn": true}),
        json!({}),
    ));
    assert_eq!(names(&out), ["庄", "门清无惠", "地和"]);
}

#[test]
fn hubao_partners_pay_the_whole_hand_and_a_pair_of_winners_settle_the_difference() {
    // Seat 1 claimed three times from seat 0 and once from seat 3... and seat 2 claimed three
    // times from seat 1: seat 1 has two partners, each paying the whole self-drawn hand.
    let claims = json!([[1, 0, 3], [1, 3, 1], [2, 1, 3]]);
    let h = json!({"concealed": "5s", "melds": [
        {"kind": "pung", "tiles": "111m", "from": 0}, {"kind": "pung", "tiles": "777p", "from": 0},
        {"kind": "pung", "tiles": "4s4s4s", "from": 0}, {"kind": "pung", "tiles": "2z2z2z", "from": 3}]});
    let out = settle(hand(
        1,
        h,
        json!({"seat": 1, "tile": "5s", "from": null}),
        json!({"table": {"claims": claims}}),
    ));
    // 对对和 2 + 大钓 2 = 4 fan; the usual payers would pay 3 × 4 = 12; each partner pays 12.
    assert_eq!(deltas(&out), [-12, 24, -12, 0]);
    // Two concealed winners on seat 3's discard form a pair with each other: each would pay
    // the other all of its hand, so they settle the difference; seat 3 pays nothing. The spec
    // states the rule, but no hand reaches it (only a concealed hand, which has claimed nothing,
    // wins on a discard), and the referee refuses the line: the family's scoring is asked alone.
    let line = json!({"id": "m", "ruleset": "beijing", "dealer": 0, "wild": "9p",
        "seats": [empty(), {"concealed": "123m456m789s111z5p"}, {"concealed": "1p1p3p3p6p6p7p7p2s2s4s4s5p"}, empty()],
        "wins": [{"seat": 1, "tile": "5p", "from": 3}, {"seat": 2, "tile": "5p", "from": 3}],
        "table": {"claims": [[1, 2, 3]]}});
    assert_eq!(settle(line.clone())["error"]["code"], "illegal_hand");
    let out = score_past_the_referee(line);
    // Seat 1: 门清无惠 + 推倒和 = 2; seat 2: 门清无惠 + 七对子 = 5; net 3 from seat 1 to seat 2.
    assert_eq!(deltas(&out), [0, -3, 3, 0]);
}

#[test]
fn the_dealer_keeps_the_deal_after_a_draw_or_its_own_win() {
    let rules = Ruleset::with_defaults(RulesetId::Beijing).expect("preset");
    let state = TableState::new(1, 4);
    let win = |seat: usize| Win {
        seat: Seat::ALL[seat],
        tile: "5p".parse().expect("tile"),
        from: None,
        flags: WinFlags::default(),
    };
    let next = |wins: Vec<Win>| {
        rules
            .rules()
            .next_hand(
                &state,
                &HandResult {
                    dealer: state.dealer,
                    wins,
                },
            )
            .dealer
    };
    assert_eq!(next(vec![]), state.dealer);
    assert_eq!(next(vec![win(state.dealer.index())]), state.dealer);
    let other = state.dealer.next(4);
    assert_eq!(next(vec![win(other.index())]), other);
}

/// A `beijing-2020` hand won by seat 1 (dealer 0).
fn y2020(winner: Value, win: Value, table: Value) -> Value {
    json!({"id": "y", "ruleset": "beijing-2020", "dealer": 0,
        "seats": [empty(), winner, empty(), empty()], "wins": [win], "table": table})
}

#[test]
fn in_2020_a_plain_hand_wins_only_by_self_draw_and_scores_the_base() {
    let open = json!({"concealed": "123m456m789p5s", "melds": [{"kind": "pung", "tiles": "222s", "from": 2}]});
    let out = settle(y2020(
        open,
        json!({"seat": 1, "tile": "5s", "from": null}),
        json!({}),
    ));
    assert_eq!(names(&out), ["推倒和"]);
    assert_eq!(deltas(&out), [-1, 3, -1, -1]);
    let plain = json!({"concealed": "123m456m789p234s5s"});
    let out = settle(y2020(
        plain.clone(),
        json!({"seat": 1, "tile": "5s", "from": 0}),
        json!({}),
    ));
    assert!(refused(&out).contains("推倒和"), "{out}");
    let out = settle(y2020(
        plain,
        json!({"seat": 1, "tile": "5s", "from": null}),
        json!({}),
    ));
    assert_eq!(lines(&out), [("推倒和".into(), 0), ("门清".into(), 1)]);
    assert_eq!(deltas(&out), [-2, 6, -2, -2], "2^1 from each");
    // 门清 + 清一色 on a discard: 2^6 from the discarder alone.
    let flush = json!({"concealed": "123456789s111s5s"});
    let out = settle(y2020(
        flush,
        json!({"seat": 1, "tile": "5s", "from": 3}),
        json!({}),
    ));
    assert_eq!(names(&out), ["门清", "一条龙", "清一色"]);
    assert_eq!(deltas(&out), [0, 512, 0, -512], "2^(1 + 3 + 5)");
}

#[test]
fn in_2020_floors_double_the_hand_but_not_the_kong_money() {
    let h = json!({"concealed": "123m456m789p5s", "melds": [{"kind": "kong", "tiles": "2s2s2s2s", "concealed": true}]});
    let win = json!({"seat": 1, "tile": "5s", "from": null});
    // A concealed kong keeps 门清: 1 fan → 2 from each, on floor 1 → 4; kong money 20 each.
    let out = settle(y2020(h.clone(), win.clone(), json!({"floor": 1})));
    assert_eq!(names(&out), ["推倒和", "门清"]);
    assert_eq!(deltas(&out), [-24, 72, -24, -24]);
    assert!(
        out["extras"]
            .as_array()
            .is_some_and(|e| e.iter().any(|l| l["name"] == "暗杠"))
    );
    // The floor follows the dealer's kept deals, at most two.
    let out = settle(y2020(h, win, json!({"dealer_streak": 5})));
    assert_eq!(deltas(&out), [-28, 84, -28, -28], "2 × 4 + 20 from each");
}

#[test]
fn in_2020_the_dealer_pays_each_follower_of_its_first_discard() {
    let h = json!({"concealed": "123m456m789p5s", "melds": [{"kind": "pung", "tiles": "222s", "from": 2}]});
    let out = settle(y2020(
        h,
        json!({"seat": 1, "tile": "5s", "from": null}),
        json!({"shaozhuang_rounds": 1}),
    ));
    assert_eq!(deltas(&out), [-31, 13, 9, 9]);
    assert!(
        out["extras"]
            .as_array()
            .is_some_and(|e| e.iter().any(|l| l["name"] == "跟庄"))
    );
}
