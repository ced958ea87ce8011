//! Two-player scoring: every item of the repository's vectors by name (the shared vector test
//! checks totals and deltas only), the refusals, the options, and rows that the vectors leave
//! to one side (the best reading, 平和's wait, 龙七对's four).

use std::collections::HashMap;

use serde_json::Value;

use super::fan::{CAP, Context, score};
use crate::format::{SettleInput, settle_line};
use crate::ruleset::{OptionError, OptionValue, RawOptions, Ruleset, RulesetId};
use crate::settle::{SeatHand, Win, WinFlags};
use crate::tiles::TileCounts;
use crate::{Seat, Tile};

fn vectors() -> (String, String) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../conformance/two-player/");
    let read = |name: &str| std::fs::read_to_string(format!("{dir}{name}")).expect("vectors");
    (read("project.jsonl"), read("project.expected.jsonl"))
}

#[test]
fn the_vectors_name_every_item_they_expect() {
    let (input, expected) = vectors();
    let want: HashMap<String, Value> = expected
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("expected line"))
        .map(|v| (v["id"].as_str().unwrap_or_default().to_owned(), v))
        .collect();
    let mut names_seen = std::collections::BTreeSet::new();
    for line in input.lines() {
        let parsed: SettleInput = serde_json::from_str(line).expect("vector line");
        let got = serde_json::to_value(settle_line(&parsed)).expect("output");
        let id = got["id"].as_str().unwrap_or_default().to_owned();
        let exp = &want[&id];
        let names = |fans: &Value, key: &str| -> Vec<Vec<String>> {
            fans.as_array()
                .map(|a| {
                    a.iter()
                        .map(|f| {
                            f[key]
                                .as_array()
                                .map(|items| {
                                    items
                                        .iter()
                                        .map(|i| {
                                            i.get("name")
                                                .unwrap_or(i)
                                                .as_str()
                                                .unwrap_or_default()
                                                .to_owned()
                                        })
                                        .collect()
                                })
                                .unwrap_or_default()
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let got_names = names(&got["fans"], "items");
        assert_eq!(got_names, names(&exp["fans"], "items"), "{id}: {got}");
        names_seen.extend(got_names.into_iter().flatten());
    }
    // Every row and limit of the rules file appears in some vector.
    for name in [
        "推倒胡",
        "门清",
        "门清报听",
        "门清自摸",
        "平和",
        "断幺九",
        "河底捞月",
        "河底捞鱼",
        "海底捞月",
        "花牌",
        "天听",
        "碰碰胡",
        "一杯口",
        "一气通贯",
        "三色同顺",
        "三暗刻",
        "混老头",
        "杠上开花",
        "三连刻",
        "三色同刻",
        "七对子",
        "混一色",
        "混全带幺",
        "纯全带幺",
        "两杯口",
        "小三元",
        "清一色",
        "龙七对",
        "大三元",
        "大车轮",
        "四暗刻",
        "四连刻",
        "四杠子",
        "百万石",
        "天和",
        "地和",
        "人和",
        "小四喜",
        "大四喜",
        "字一色",
        "清老头",
        "绿一色",
        "红孔雀",
        "九莲宝灯",
        "十三幺",
        "东北新干线",
    ] {
        assert!(names_seen.contains(name), "no vector shows {name}");
    }
}

fn hand(concealed: &str) -> SeatHand {
    SeatHand {
        concealed: TileCounts::parse(concealed).expect("notation"),
        ..SeatHand::default()
    }
}

fn win(tile: &str, from: Option<u8>, flags: WinFlags) -> Win {
    Win {
        seat: Seat::ALL[0],
        tile: tile.parse::<Tile>().expect("tile"),
        from: from.and_then(Seat::new),
        flags,
    }
}

fn names(concealed: &str, tile: &str, from: Option<u8>) -> (i64, Vec<&'static str>) {
    let cx = Context {
        dealer: false,
        from_dealer: false,
        bonus: &[],
    };
    let s = score(&hand(concealed), &win(tile, from, WinFlags::default()), &cx).expect("a win");
    (s.total, s.items.iter().map(|i| i.name).collect())
}

#[test]
fn a_single_or_edge_wait_is_no_pinghe() {
    // 12m waiting on 3m is an edge wait; 46m on 5m a closed one; 34m on 5m two-sided.
    assert!(
        !names("12m456p678s234s88p", "3m", Some(1))
            .1
            .contains(&"平和")
    );
    assert!(
        !names("46m456p678s234s88p", "5m", Some(1))
            .1
            .contains(&"平和")
    );
    assert!(
        names("34m456p678s234s88p", "5m", Some(1))
            .1
            .contains(&"平和")
    );
    // An honor pair is never 平和.
    assert!(
        !names("34m456p678s234s11z", "5m", Some(1))
            .1
            .contains(&"平和")
    );
}

#[test]
fn a_pung_completed_by_a_discard_is_not_concealed() {
    // 111m 222p in hand, 44s + 4s from a discard: two concealed pungs, not three.
    let (_, on_discard) = names("111m222p789s44s55z", "4s", Some(1));
    assert!(!on_discard.contains(&"三暗刻"), "{on_discard:?}");
    let (_, self_drawn) = names("111m222p789s44s55z", "4s", None);
    assert!(self_drawn.contains(&"三暗刻"), "{self_drawn:?}");
}

#[test]
fn the_cap_holds_and_limits_pay_it() {
    let (total, items) = names("1112345678999m", "5m", Some(1));
    assert_eq!((total, items), (CAP, vec!["九莲宝灯"]));
}

#[test]
fn robbing_a_concealed_kong_and_flowers_are_refused() {
    let cx = Context {
        dealer: false,
        from_dealer: false,
        bonus: &[],
    };
    let flags = WinFlags {
        robbed_kong: true,
        robbed_concealed_kong: true,
        ..WinFlags::default()
    };
    assert!(score(&hand("34m456p678s234s88p"), &win("5m", Some(1), flags), &cx).is_err());
    assert!(score(&hand("34m456p678s234s88p"), &win("1f", None, flags), &cx).is_err());
    let plain = WinFlags::default();
    assert!(score(&hand("14m456p678s234s88p"), &win("5m", Some(1), plain), &cx).is_err());
}

fn settle(line: &str) -> Value {
    let parsed: SettleInput = serde_json::from_str(line).expect("line");
    serde_json::to_value(settle_line(&parsed)).expect("output")
}

#[test]
fn lines_that_are_not_two_player_hands_are_refused() {
    let four_seats = r#"{"id": 1, "ruleset": "two-player", "dealer": 0, "seats": [{"concealed": ""}, {"concealed": ""}, {"concealed": ""}, {"concealed": ""}], "wins": []}"#;
    assert_eq!(settle(four_seats)["error"]["code"], "bad_input");
    let seat_two = r#"{"id": 2, "ruleset": "two-player", "dealer": 2, "seats": [{"concealed": ""}, {"concealed": ""}], "wins": []}"#;
    assert_eq!(settle(seat_two)["error"]["code"], "bad_input");
    let seabed_discard = r#"{"id": 3, "ruleset": "two-player", "dealer": 0, "seats": [{"concealed": "34m456p678s234s88p"}, {"concealed": ""}], "wins": [{"seat": 0, "tile": "5m", "from": 1, "seabed": true}]}"#;
    assert_eq!(settle(seabed_discard)["error"]["code"], "illegal_hand");
    let flower_bonus = r#"{"id": 4, "ruleset": "two-player", "dealer": 0, "bonus": ["1f"], "seats": [{"concealed": "34m456p678s234s88p"}, {"concealed": ""}], "wins": [{"seat": 0, "tile": "5m", "from": 1}]}"#;
    assert_eq!(settle(flower_bonus)["error"]["code"], "illegal_hand");
}

#[test]
fn options_are_the_base_the_bonus_count_and_the_swap() {
    let defaults = Ruleset::with_defaults(RulesetId::TwoPlayer).expect("defaults");
    let o = defaults.options();
    assert_eq!(o.get("base"), Some(&OptionValue::Int(1)));
    assert_eq!(o.get("huapai"), Some(&OptionValue::Int(1)));
    assert_eq!(o.get("swap"), Some(&OptionValue::Bool(false)));
    assert!(
        !defaults.rules().flow().swaps_dealt(),
        "开始时换牌 is off by default"
    );
    let mut raw = RawOptions::new();
    raw.insert("huapai".into(), OptionValue::Int(5));
    assert!(Ruleset::new(RulesetId::TwoPlayer, &raw).is_err());
    let mut raw = RawOptions::new();
    raw.insert("swap".into(), OptionValue::Bool(true));
    let swapping = Ruleset::new(RulesetId::TwoPlayer, &raw).expect("swap is an option");
    assert!(swapping.rules().flow().swaps_dealt());
    assert_eq!(
        swapping.options().get("swap"),
        Some(&OptionValue::Bool(true))
    );
    for bad in [OptionValue::Int(1), OptionValue::Text("yes".into())] {
        raw.insert("swap".into(), bad);
        assert!(matches!(
            Ruleset::new(RulesetId::TwoPlayer, &raw),
            Err(OptionError::BadValue { name, .. }) if name == "swap"
        ));
    }
    let mut raw = RawOptions::new();
    raw.insert("swaps".into(), OptionValue::Bool(true));
    assert!(matches!(
        Ruleset::new(RulesetId::TwoPlayer, &raw),
        Err(OptionError::Unknown { name, .. }) if name == "swaps"
    ));
    assert_eq!(defaults.rules().flow().players, 2);
    assert_eq!(defaults.rules().payment_for(20), CAP);
}
