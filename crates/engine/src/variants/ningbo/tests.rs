//! The Ningbo rules and decisions of `docs/rules/ningbo.md`, through the settle format and
//! the table. Seat 1 wins unless a test says otherwise; seat 0 deals in the East round, so seat
//! 1's seat wind is South (2z). The 财神 is 9p unless a test says otherwise, a kind no hand
//! below holds by accident. Every expected figure is worked out by hand in the comments.

use serde_json::{Value, json};

use crate::ruleset::{HandResult, OptionValue, RawOptions, Ruleset, RulesetId};
use crate::seat::{Seat, Wind};
use crate::settle::{Win, WinFlags};
use crate::table::TableState;
use crate::variants::testing::{deltas, settle};

fn empty() -> Value {
    json!({"concealed": ""})
}

fn meld(kind: &str, tiles: &str, from: u8) -> Value {
    json!({"kind": kind, "tiles": tiles, "from": from})
}

/// A hand where seat 1 holds `concealed` and `melds` and the wins are `wins`.
fn hand(concealed: &str, melds: Value, wins: Value) -> Value {
    json!({"id": "n", "ruleset": "ningbo", "dealer": 0, "round_wind": "E", "wild": "9p",
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

fn seat_one(h: Value, key: &str, value: Value) -> Value {
    let mut h = h;
    if let Some(o) = h["seats"][1].as_object_mut() {
        o.insert(key.to_owned(), value);
    }
    h
}

/// The winner's 台 total and its items as `name×count`, 0-台 items included.
fn tai_of(out: &Value) -> (i64, Vec<String>) {
    let f = &out["fans"][0];
    let names = f["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items: {out}"))
        .iter()
        .map(|i| {
            let name = i["name"].as_str().unwrap_or_default();
            match i["count"].as_i64() {
                Some(1) => name.to_owned(),
                n => format!("{name}×{}", n.unwrap_or(0)),
            }
        })
        .collect();
    (f["total"].as_i64().unwrap_or(-1), names)
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

fn refused(out: &Value, why: &str) {
    assert_eq!(out["error"]["code"], "not_a_win", "{out}");
    let message = out["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(why), "{why}: {out}");
}

/// 123m chowed from seat 0; 13p 456s 789s and a 5z pair: waits on 2p in the middle.
fn closed_wait(win: Value) -> Value {
    hand("13p456s789s5z5z", json!([meld("chow", "123m", 0)]), win)
}

// ----- the rows ----------------------------------------------------------------------------

#[test]
fn all_pungs_with_a_single_wait_and_no_caishen_reach_four() {
    // 碰碰胡 2 + 单吊 1 + 硬胡 1 = 4; the discarder pays two shares, 8.
    let out = settle(hand(
        "222p333s555s7z",
        json!([meld("pung", "111m", 0)]),
        one_win("7z", json!(3), json!({})),
    ));
    assert_eq!(
        tai_of(&out),
        (4, names(&["碰碰胡", "单吊", "硬胡"])),
        "{out}"
    );
    assert_eq!(deltas(&out), [0, 8, 0, -8]);
}

#[test]
fn all_chows_self_drawn_is_paid_a_share_by_each() {
    // 平胡 1 (pair 5m, no wind) + 单吊 1 + 自摸 1 + 硬胡 1 = 4, one share of 4 from each.
    let out = settle(hand(
        "456p789s234s5m",
        json!([meld("chow", "123m", 0)]),
        one_win("5m", json!(null), json!({})),
    ));
    assert_eq!(
        tai_of(&out),
        (4, names(&["平胡", "单吊", "自摸", "硬胡"])),
        "{out}"
    );
    assert_eq!(deltas(&out), [-4, 12, -4, -4]);
}

#[test]
fn a_valued_wind_pair_makes_all_chows_a_plain_hand() {
    // The same chows with a pair of seat 1's own wind (2z): 排胡 0, so 单吊 + 自摸 + 硬胡 = 3.
    let out = settle(hand(
        "456p789s234s2z",
        json!([meld("chow", "123m", 0)]),
        one_win("2z", json!(null), json!({})),
    ));
    refused(&out, "3 台 is below the minimum of 4");
}

#[test]
fn a_hand_below_four_tai_cannot_win() {
    // 平胡 1 + 硬胡 1 on a two-sided wait: 2 台 on a discard, 3 self-drawn; both refused.
    let h = hand(
        "45p789s234s5m5m",
        json!([meld("chow", "123m", 0)]),
        one_win("6p", json!(3), json!({})),
    );
    refused(&settle(h.clone()), "2 台 is below the minimum of 4");
    let h = with(h, "wins", one_win("6p", json!(null), json!({})));
    refused(&settle(h), "3 台 is below the minimum of 4");
}

#[test]
fn the_flushes_and_all_honors_score_their_rows() {
    // (concealed, meld, winning tile, 台, items); every win a discard of seat 3's (×2).
    let cases = [
        // 混一色 2 + 排胡 0 + 单吊 1 + 硬胡 1 (3z is West: nobody's wind here).
        (
            "456m789m333z5m",
            meld("chow", "123m", 0),
            "5m",
            4,
            vec!["混一色", "排胡", "单吊", "硬胡"],
        ),
        // 清一色 4 + 排胡 0 + 单吊 1 + 硬胡 1.
        (
            "456m789m111m5m",
            meld("chow", "123m", 0),
            "5m",
            6,
            vec!["清一色", "排胡", "单吊", "硬胡"],
        ),
        // 字一色 8 + 碰碰胡 2 + 箭刻 1 (5z) + 门风刻 1 (2z) + 圈风刻 1 (1z) + 单吊 1 + 硬胡 1.
        (
            "111z222z333z4z",
            meld("pung", "555z", 0),
            "4z",
            15,
            vec![
                "字一色",
                "碰碰胡",
                "箭刻",
                "门风刻",
                "圈风刻",
                "单吊",
                "硬胡",
            ],
        ),
    ];
    for (concealed, m, tile, tai, items) in cases {
        let out = settle(hand(
            concealed,
            json!([m]),
            one_win(tile, json!(3), json!({})),
        ));
        assert_eq!(tai_of(&out), (tai, names(&items)), "{out}");
        assert_eq!(deltas(&out), [0, 2 * tai, 0, -2 * tai]);
    }
}

#[test]
fn dragon_seat_wind_and_prevalent_wind_pungs_count_one_each() {
    // 666z 箭刻 1, 222z seat 1's South 门风刻 1, 单吊 1, 硬胡 1 = 4.
    let h = hand(
        "666z222z456p1s",
        json!([meld("chow", "123m", 0)]),
        one_win("1s", json!(3), json!({})),
    );
    let out = settle(h.clone());
    assert_eq!(
        tai_of(&out),
        (4, names(&["排胡", "箭刻", "门风刻", "单吊", "硬胡"])),
        "{out}"
    );
    // In the South round 222z is the prevalent wind too: 5.
    let out = settle(with(h, "round_wind", json!("S")));
    assert_eq!(tai_of(&out).0, 5, "{out}");
    assert_eq!(deltas(&out), [0, 10, 0, -10]);
}

#[test]
fn each_wait_shape_scores_one() {
    // Self-drawn: 平胡 1 + the wait 1 + 自摸 1 + 硬胡 1 = 4, or 排胡 with a dragon pung for 对倒.
    let cases = [
        ("12p456s789s5z5z", "3p", "边张"),
        ("89p456s789s5z5z", "7p", "边张"),
        ("13p456s789s5z5z", "2p", "嵌张"),
    ];
    for (concealed, tile, wait) in cases {
        let out = settle(hand(
            concealed,
            json!([meld("chow", "123m", 0)]),
            one_win(tile, json!(null), json!({})),
        ));
        assert_eq!(
            tai_of(&out),
            (4, names(&["平胡", wait, "自摸", "硬胡"])),
            "{wait}: {out}"
        );
        assert_eq!(deltas(&out), [-4, 12, -4, -4]);
    }
    // 对倒: 11p and 7z7z wait on either; 7z makes a dragon pung: 箭刻 1 + 对倒 1 + 自摸 + 硬胡.
    let out = settle(hand(
        "11p7z7z456s789s",
        json!([meld("chow", "123m", 0)]),
        one_win("7z", json!(null), json!({})),
    ));
    assert_eq!(
        tai_of(&out),
        (4, names(&["排胡", "箭刻", "对倒", "自摸", "硬胡"])),
        "{out}"
    );
}

#[test]
fn a_wait_item_counts_when_the_tile_completes_it_in_some_reading() {
    // 234p + 4p waits on 4p as the pair (单吊) and on 1p/4p with 44p as the pair: 4p scores 单吊
    // (箭刻 1 + 单吊 1 + 自摸 1 + 硬胡 1 = 4); 1p, two-sided only, stays at 3.
    let h = |tile: &str| {
        json!({"id": "n", "ruleset": "ningbo", "dealer": 0, "wild": "9p",
            "seats": [empty(), {"concealed": "123m789s5z5z5z2p3p4p4p"}, empty(), empty()],
            "wins": one_win(tile, json!(null), json!({}))})
    };
    let out = settle(h("4p"));
    assert_eq!(
        tai_of(&out),
        (4, names(&["排胡", "箭刻", "单吊", "自摸", "硬胡"])),
        "{out}"
    );
    refused(&settle(h("1p")), "3 台");
}

#[test]
fn four_melds_down_is_a_big_single_wait() {
    // 123m 456p from seat 0, 999s from seat 2, 555z from seat 3; 8s on seat 0's discard:
    // 排胡 0 + 箭刻 1 + 单吊 1 + 大吊 1 + 硬胡 1 = 4, seat 0 pays 8 (two claims: no relation).
    let out = settle(hand(
        "8s",
        json!([
            meld("chow", "123m", 0),
            meld("chow", "456p", 0),
            meld("pung", "999s", 2),
            meld("pung", "555z", 3)
        ]),
        one_win("8s", json!(0), json!({})),
    ));
    assert_eq!(
        tai_of(&out),
        (4, names(&["排胡", "箭刻", "单吊", "大吊", "硬胡"])),
        "{out}"
    );
    assert_eq!(deltas(&out), [-8, 8, 0, 0]);
}

/// A concealed 2p kong; 345m 678s 11z 55z; 5z on the replacement.
fn kong_flower(kong: Value, extra: &[Value]) -> Value {
    let mut melds = extra.to_vec();
    melds.push(kong);
    hand(
        "345m678s1z1z5z5z",
        Value::Array(melds),
        one_win("5z", json!(null), json!({"kong_replacement": true})),
    )
}

#[test]
fn a_win_on_a_concealed_kongs_replacement_is_paid_by_all() {
    // 排胡 0 + 箭刻 1 + 对倒 1 + 自摸 1 + 杠上花 1 + 硬胡 1 = 5 from each.
    let kong = json!({"kind": "kong", "tiles": "2222p", "concealed": true});
    let out = settle(kong_flower(kong, &[]));
    assert_eq!(
        tai_of(&out),
        (
            5,
            names(&["排胡", "箭刻", "对倒", "自摸", "杠上花", "硬胡"])
        ),
        "{out}"
    );
    assert_eq!(deltas(&out), [-5, 15, -5, -5]);
}

#[test]
fn a_robbed_kong_scores_one_and_its_declarer_pays_five_shares() {
    // 2p robbed from seat 0's added kong: 平胡 1 + 嵌张 1 + 抢杠 1 + 硬胡 1 = 4, ×5 = 20.
    let out = settle(closed_wait(one_win(
        "2p",
        json!(0),
        json!({"robbed_kong": true}),
    )));
    assert_eq!(
        tai_of(&out),
        (4, names(&["平胡", "嵌张", "抢杠", "硬胡"])),
        "{out}"
    );
    assert_eq!(deltas(&out), [-20, 20, 0, 0]);
    let concealed = settle(closed_wait(one_win(
        "2p",
        json!(0),
        json!({"robbed_concealed_kong": true}),
    )));
    refused(&concealed, "never lets a concealed kong be robbed");
}

#[test]
fn the_last_tile_self_drawn_scores_one() {
    // 平胡 1 + 嵌张 1 + 自摸 1 + 海底 1 + 硬胡 1 = 5; on the last discard it is only 3 (refused).
    let out = settle(closed_wait(one_win(
        "2p",
        json!(null),
        json!({"last_tile": true}),
    )));
    assert_eq!(
        tai_of(&out),
        (5, names(&["平胡", "嵌张", "自摸", "海底", "硬胡"])),
        "{out}"
    );
    refused(
        &settle(closed_wait(one_win(
            "2p",
            json!(3),
            json!({"last_tile": true}),
        ))),
        "3 台",
    );
}

#[test]
fn heavenly_and_earthly_hands() {
    // 123m 456m 789p 234s 1s pair, 4s drawn: 天胡 8 + 平胡 1 + 自摸 1 + 硬胡 1 = 11 from each.
    let first = |seat: usize| {
        let mut seats = vec![empty(), empty(), empty(), empty()];
        seats[seat] = json!({"concealed": "123m456m789p11s23s"});
        json!({"id": "n", "ruleset": "ningbo", "dealer": 0, "wild": "9p", "seats": seats,
            "wins": [{"seat": seat, "tile": "4s", "from": null, "first_turn": true}]})
    };
    let out = settle(first(0));
    assert_eq!(
        tai_of(&out),
        (11, names(&["天胡", "平胡", "自摸", "硬胡"])),
        "{out}"
    );
    assert_eq!(deltas(&out), [33, -11, -11, -11]);
    // 地胡 6 for a non-dealer: 9 from each.
    let out = settle(first(2));
    assert_eq!(tai_of(&out).0, 9, "{out}");
    assert_eq!(deltas(&out), [-9, -9, 27, -9]);
}

// ----- the 财神 -------------------------------------------------------------------------------

#[test]
fn a_caishen_standing_for_its_own_face_keeps_the_hand_hard() {
    // 财神 5s, held once inside 456s: 平胡 1 + 嵌张 1 + 自摸 1 + 硬胡 1 = 4.
    let h = with(
        closed_wait(one_win("2p", json!(null), json!({}))),
        "wild",
        json!("5s"),
    );
    let out = settle(h);
    assert_eq!(
        tai_of(&out),
        (4, names(&["平胡", "嵌张", "自摸", "硬胡"])),
        "{out}"
    );
}

#[test]
fn a_caishen_standing_for_another_tile_loses_the_hard_hand() {
    // 财神 9p stands for 6s (or 9s) in 78s: 平胡 1 + 嵌张 1 + 自摸 1 = 3, refused.
    let out = settle(hand(
        "13p456s78s5z5z9p",
        json!([meld("chow", "123m", 0)]),
        one_win("2p", json!(null), json!({})),
    ));
    refused(&out, "3 台");
    // The same shape with a natural 9s wins with 硬胡.
    let out = settle(hand(
        "13p456s78s5z5z9s",
        json!([meld("chow", "123m", 0)]),
        one_win("2p", json!(null), json!({})),
    ));
    assert_eq!(tai_of(&out).0, 4, "{out}");
}

#[test]
fn the_best_reading_of_the_caishen_is_kept() {
    // 666z claimed; 5z5z 456s 789s 1p and a 财神 (9p); 1p self-drawn. The 财神 as 5z makes 555z
    // with 11p the pair: 箭刻 ×2 + 单吊 1 + 自摸 1 = 4. As 1p (111p, 5z pair) it would be
    // 箭刻 1 + 对倒 1 + 自摸 1 = 3. The first is kept.
    let out = settle(hand(
        "5z5z456s789s1p9p",
        json!([meld("pung", "666z", 2)]),
        one_win("1p", json!(null), json!({})),
    ));
    assert_eq!(
        tai_of(&out),
        (4, names(&["排胡", "箭刻×2", "单吊", "自摸"])),
        "{out}"
    );
    assert_eq!(deltas(&out), [-4, 12, -4, -4]);
}

#[test]
fn three_caishen_add_three_that_do_not_count_toward_the_minimum() {
    // 777z 456s 5z5z, two 财神 held and the third self-drawn: read as 999p (the 财神 as their own
    // face) the hand is 箭刻 1 + 对倒 1 + 自摸 1 + 硬胡 1 = 4, + 三财神 3 = 7 from each.
    let out = settle(hand(
        "456s7z7z7z5z5z9p9p",
        json!([meld("chow", "123m", 0)]),
        one_win("9p", json!(null), json!({})),
    ));
    let (tai, items) = tai_of(&out);
    assert_eq!(tai, 7, "{out}");
    assert!(items.contains(&"三财神".to_owned()), "{out}");
    assert_eq!(deltas(&out), [-7, 21, -7, -7]);
    // Without the dragon pung the hand counts 3 before the bonus: refused, bonus or not.
    let out = settle(hand(
        "456s789s5z5z9p9p",
        json!([meld("chow", "123m", 0)]),
        one_win("9p", json!(null), json!({})),
    ));
    refused(&out, "does not count");
}

#[test]
fn three_caishen_win_only_by_self_draw() {
    // 456s 777z 999p(三财神) with a lone 5z: 5z discarded is refused.
    let out = settle(hand(
        "456s7z7z7z5z9p9p9p",
        json!([meld("chow", "123m", 0)]),
        one_win("5z", json!(3), json!({})),
    ));
    refused(&out, "three 财神 wins only by self-draw");
}

#[test]
fn a_caishen_single_wait_wins_only_by_self_draw() {
    // 666z claimed; 456s 789s 777z complete and a lone 财神: it waits for anything.
    let h = |from: Value| {
        hand(
            "456s789s7z7z7z9p",
            json!([meld("pung", "666z", 2)]),
            one_win("5z", from, json!({})),
        )
    };
    refused(&settle(h(json!(3))), "财神单吊");
    // Self-drawn: 混一色 2 (索子 and honors) + 箭刻 ×2 + 单吊 1 + 自摸 1 = 6 (the 财神 stands
    // for 5z: no 硬胡).
    let out = settle(h(json!(null)));
    assert_eq!(
        tai_of(&out),
        (6, names(&["混一色", "排胡", "箭刻×2", "单吊", "自摸"])),
        "{out}"
    );
}

#[test]
fn a_discarded_caishen_is_never_claimed() {
    let out = settle(hand(
        "222p333s555s7z",
        json!([meld("pung", "111m", 0)]),
        one_win("9p", json!(3), json!({})),
    ));
    refused(&out, "discarded 财神");
}

// ----- flowers ------------------------------------------------------------------------------

#[test]
fn flowers_score_the_seats_own_the_sets_and_all_eight() {
    // The self-drawn 平胡 of 4 台 (平胡, 嵌张, 自摸, 硬胡) with flowers; seat 1 is South (夏 2f,
    // 兰 6f).
    let h = |flowers: &str| {
        seat_one(
            closed_wait(one_win("2p", json!(null), json!({}))),
            "flowers",
            json!(flowers),
        )
    };
    let out = settle(h("2f6f"));
    assert_eq!(
        tai_of(&out),
        (6, names(&["平胡", "嵌张", "自摸", "硬胡", "正花×2"])),
        "{out}"
    );
    // 1f 3f are other seats' flowers: nothing.
    assert_eq!(tai_of(&settle(h("1f3f"))).0, 4);
    // 春夏秋冬: 正花 1 (夏) + the set 2.
    let out = settle(h("1f2f3f4f"));
    assert_eq!(tai_of(&out).0, 7, "{out}");
    assert!(tai_of(&out).1.contains(&"春夏秋冬".to_owned()));
    // 梅兰竹菊 likewise.
    assert_eq!(tai_of(&settle(h("5f6f7f8f"))).0, 7);
    // All eight: 8 in place of the rest.
    let out = settle(h("1f2f3f4f5f6f7f8f"));
    assert_eq!(
        tai_of(&out),
        (12, names(&["平胡", "嵌张", "自摸", "硬胡", "八花"])),
        "{out}"
    );
}

#[test]
fn flowers_count_toward_the_minimum() {
    // 平胡 1 + 硬胡 1 on a two-sided discard is 2; with 夏 and 兰 it is 4 and wins.
    let h = seat_one(
        hand(
            "45p789s234s5m5m",
            json!([meld("chow", "123m", 0)]),
            one_win("6p", json!(3), json!({})),
        ),
        "flowers",
        json!("2f6f"),
    );
    let out = settle(h);
    assert_eq!(tai_of(&out).0, 4, "{out}");
    assert_eq!(deltas(&out), [0, 8, 0, -8]);
}

// ----- payments -----------------------------------------------------------------------------

/// 123m and 456p chowed and a 555z pung, all from `from`; 7z7z 1s1s; 7z wins.
fn three_claims(from: u8, win_from: Value) -> Value {
    hand(
        "7z7z1s1s",
        json!([
            meld("chow", "123m", from),
            meld("chow", "456p", from),
            meld("pung", "555z", from)
        ]),
        one_win("7z", win_from, json!({})),
    )
}

#[test]
fn three_melds_from_one_player_make_him_pay_five_shares_of_a_self_draw() {
    // 箭刻 ×2 (555z, 777z) + 对倒 1 + 自摸 1 + 硬胡 1 = 5; seat 0 alone pays 5 × 5 = 25.
    let out = settle(three_claims(0, json!(null)));
    assert_eq!(tai_of(&out).0, 5, "{out}");
    assert_eq!(deltas(&out), [-25, 25, 0, 0]);
}

#[test]
fn three_melds_from_one_player_on_a_discard_win() {
    // 箭刻 ×2 + 对倒 1 + 硬胡 1 = 4. Seat 3 discards: seat 3 pays 2 × 4, seat 0 (three claims)
    // 2 × 4 more.
    let out = settle(three_claims(0, json!(3)));
    assert_eq!(tai_of(&out).0, 4, "{out}");
    assert_eq!(deltas(&out), [-8, 16, 0, -8]);
    // Seat 0 discards itself: ×4 = 16.
    let out = settle(three_claims(0, json!(0)));
    assert_eq!(deltas(&out), [-16, 16, 0, 0]);
}

#[test]
fn claims_the_other_way_count_too_and_both_directions_double() {
    // Seat 1 claimed three of seat 0's discards (its melds), and seat 2 three of seat 1's
    // (反之一样: the table says so of seat 2, whose tiles are not given).
    let h = with(
        three_claims(0, json!(null)),
        "table",
        json!({"claims": [{"by": 1, "from": 0, "count": 3}, {"by": 2, "from": 1, "count": 3}]}),
    );
    // Seat 0 and seat 2 are each named once: 5 × 5 each.
    assert_eq!(deltas(&settle(h)), [-25, 50, -25, 0]);
    // Three claims each way between seats 1 and 0: ×5 ×2 = 50 from seat 0.
    let h = with(
        three_claims(0, json!(null)),
        "table",
        json!({"claims": [{"by": 1, "from": 0, "count": 3}, {"by": 0, "from": 1, "count": 3}]}),
    );
    assert_eq!(deltas(&settle(h)), [-50, 50, 0, 0]);
}

#[test]
fn the_feeder_of_a_kong_pays_five_shares_of_its_replacement_win() {
    // An exposed 2p kong claimed from seat 0, 5 台 as above: seat 0 pays 25.
    let kong = json!({"kind": "kong", "tiles": "2222p", "from": 0});
    assert_eq!(
        deltas(&settle(kong_flower(kong.clone(), &[]))),
        [-25, 25, 0, 0]
    );
    // Two melds claimed from seat 0 before the kong: ×5 ×2 = 50. Seat 1 holds 1z1z5z5z now.
    let h = hand(
        "1z1z5z5z",
        json!([meld("chow", "345m", 0), meld("chow", "678s", 0), kong]),
        one_win("5z", json!(null), json!({"kong_replacement": true})),
    );
    let out = settle(h);
    assert_eq!(tai_of(&out).0, 5, "{out}");
    assert_eq!(deltas(&out), [-50, 50, 0, 0]);
}

#[test]
fn the_base_multiplies_every_share() {
    let h = with(
        hand(
            "222p333s555s7z",
            json!([meld("pung", "111m", 0)]),
            one_win("7z", json!(3), json!({})),
        ),
        "options",
        json!({"base": 10}),
    );
    assert_eq!(deltas(&settle(h)), [0, 80, 0, -80]);
}

#[test]
fn a_drawn_hand_pays_nothing() {
    let out = settle(hand("", json!([]), json!([])));
    assert_eq!(deltas(&out), [0, 0, 0, 0]);
}

// ----- refusals -----------------------------------------------------------------------------

#[test]
fn impossible_hands_are_refused() {
    let base = hand(
        "222p333s555s7z",
        json!([meld("pung", "111m", 0)]),
        one_win("7z", json!(3), json!({})),
    );
    let illegal = |h: Value, why: &str| {
        let out = settle(h);
        assert_eq!(out["error"]["code"], "illegal_hand", "{out}");
        let message = out["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(why), "{why}: {out}");
    };
    // No 一炮多响.
    let two = json!([{"seat": 1, "tile": "7z", "from": 3}, {"seat": 2, "tile": "7z", "from": 3}]);
    let mut h = with(base.clone(), "wins", two);
    h["seats"][2] = json!({"concealed": "222m333m555m777m7z"});
    illegal(h, "一炮多响");
    // Every hand turns up a 财神.
    let mut h = base.clone();
    if let Some(o) = h.as_object_mut() {
        o.remove("wild");
    }
    illegal(h, "give `wild`");
    // A 财神 in a meld, and four copies under `same`.
    illegal(
        with(base.clone(), "wild", json!("1m")),
        "a wild (1m) is never claimed",
    );
    let mut h = with(base.clone(), "wild", json!("2p"));
    h["seats"][2] = json!({"concealed": "2p1s2s3s4s5s6s7s8s9s1z1z1z"});
    illegal(h.clone(), "2p appears 4 times; at most 3 are in play");
    // Under `next` four are live: the tiles pass, and seat 1's three 财神 (222p) are judged by
    // the rules of play (three 财神 win only by self-draw).
    let out = settle(with(h, "options", json!({"caishen_rule": "next"})));
    refused(&out, "three 财神 wins only by self-draw");
}

#[test]
fn options_are_validated() {
    let text = |k: &str, v: &str| -> RawOptions {
        [(k.to_owned(), OptionValue::Text(v.to_owned()))].into()
    };
    assert!(Ruleset::new(RulesetId::Ningbo, &text("caishen_rule", "next")).is_ok());
    let bad = Ruleset::new(RulesetId::Ningbo, &text("caishen_rule", "seven"));
    assert!(
        bad.as_ref()
            .is_err_and(|e| e.to_string().contains("same, next")),
        "{bad:?}"
    );
    let number: RawOptions = [("caishen_rule".to_owned(), OptionValue::Int(1))].into();
    assert!(Ruleset::new(RulesetId::Ningbo, &number).is_err());
    let zero: RawOptions = [("base".to_owned(), OptionValue::Int(0))].into();
    assert!(Ruleset::new(RulesetId::Ningbo, &zero).is_err());
    assert!(Ruleset::new(RulesetId::Ningbo, &text("colour", "red")).is_err());
    let defaults = Ruleset::with_defaults(RulesetId::Ningbo).expect("defaults");
    let expected: RawOptions = [
        ("base".to_owned(), OptionValue::Int(1)),
        ("caishen_rule".to_owned(), OptionValue::Text("same".into())),
    ]
    .into();
    assert_eq!(defaults.options(), expected);
    let names: Vec<&str> = defaults.option_specs().iter().map(|s| s.name).collect();
    assert_eq!(names, ["base", "caishen_rule"]);
    assert_eq!(defaults.rules().payment_for(5), 5);
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
    let rules = Ruleset::with_defaults(RulesetId::Ningbo).expect("preset");
    let mut state = TableState::new(1, 4);
    let first = state.dealer;
    state.first_dealer = Some(first);
    let drawn = rules.rules().next_hand(&state, &result(first, &[]));
    assert_eq!((drawn.dealer, drawn.round_wind), (first, Wind::East));
    let own = rules
        .rules()
        .next_hand(&state, &result(first, &[first.index()]));
    assert_eq!(own.dealer, first);
    let other = first.next(4).next(4).index();
    let lost = rules.rules().next_hand(&state, &result(first, &[other]));
    assert_eq!((lost.dealer, lost.round_wind), (first.next(4), Wind::East));
}

#[test]
fn the_wind_round_advances_when_the_deal_returns_to_the_first_dealer() {
    let rules = Ruleset::with_defaults(RulesetId::Ningbo).expect("preset");
    let table = crate::Table::new(rules.clone(), 9);
    let mut state = table.state().clone();
    let first = state.dealer;
    let mut winds = Vec::new();
    for _ in 0..8 {
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
