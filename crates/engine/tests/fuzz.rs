//! Fuzz-style properties under `cargo test` (cargo-fuzz needs nightly, which these machines
//! lack): no input, however malformed, makes the notation parser or `settle` panic, and every
//! settlement they produce sums to zero.

use engine::format::{SettleInput, SettleOutput, settle_line};
use engine::{Tile, format_tiles, parse_tiles};
use proptest::prelude::*;
use serde_json::json;

fn tile_string(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(0u8..27, 0..max).prop_map(|idx| {
        let tiles: Vec<Tile> = idx.into_iter().filter_map(Tile::from_index).collect();
        format_tiles(&tiles)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn notation_never_panics(s in "\\PC{0,24}") {
        let _ = parse_tiles(&s);
        let _ = s.parse::<Tile>();
    }

    #[test]
    fn notation_round_trips(idx in prop::collection::vec(0u8..42, 0..20)) {
        let tiles: Vec<Tile> = idx.into_iter().filter_map(Tile::from_index).collect();
        prop_assert_eq!(parse_tiles(&format_tiles(&tiles)).expect("printed notation parses"), tiles);
    }

    #[test]
    fn settle_never_panics_and_balances(
        ruleset in prop::sample::select(vec!["sichuan", "sichuan-xuezhan", "sichuan-xuezhan-9"]),
        hands in prop::collection::vec(tile_string(14), 4),
        win_seat in 0u8..5,
        from in prop::option::of(0u8..5),
        tile in 0u8..27,
        kong in any::<bool>(),
        void in prop::option::of(prop::sample::select(vec!["m", "p", "s", "z"])),
        flags in any::<[bool; 4]>(),
        dealer_streak in 0u32..30,
        draw_streak in 0u32..30,
        no_win in any::<bool>(),
    ) {
        let tile = Tile::from_index(tile).expect("kind").to_string();
        let seats: Vec<_> = hands.iter().enumerate().map(|(i, h)| {
            let mut seat = json!({"concealed": h, "void": void});
            if kong && i == 0 {
                seat["melds"] = json!([{"kind": "kong", "tiles": "5555p", "from": 1}]);
            }
            seat
        }).collect();
        let wins = if no_win { json!([]) } else {
            json!([{"seat": win_seat, "tile": tile, "from": from, "kong_replacement": flags[0],
                    "robbed_kong": flags[1], "first_turn": flags[2], "after_kong_discard": flags[3]}])
        };
        let line = json!({"id": 1, "ruleset": ruleset, "dealer": 0, "seats": seats, "wins": wins,
                          "table": {"dealer_streak": dealer_streak, "draw_streak": draw_streak}});
        if let Ok(input) = serde_json::from_value::<SettleInput>(line)
            && let SettleOutput::Settled { deltas, .. } = settle_line(&input) {
                prop_assert_eq!(deltas.iter().sum::<i64>(), 0);
            }
    }
}
