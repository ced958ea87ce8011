//! Scoring over generated legal winning hands of every Sichuan preset: every one settles, the
//! deltas sum to zero, the winner gains, and fan stays within the cap.

use engine::format::{SettleInput, SettleOutput, settle_line};
use engine::wall::SeededRng;
use engine::{Tile, TileCounts, format_tiles};
use serde_json::{Value, json};

/// A random complete hand in at most two suits: four sets (some declared) and a pair.
fn winning_hand(rng: &mut SeededRng) -> (String, Vec<Value>, String) {
    loop {
        let suits = [rng.below(3) as usize, rng.below(3) as usize];
        let mut counts = TileCounts::new();
        let mut concealed: Vec<Tile> = Vec::new();
        let mut melds = Vec::new();
        let mut ok = true;
        for set in 0..5 {
            let suit = suits[rng.below(2) as usize];
            let pair = set == 4;
            let kind = if pair { 3 } else { rng.below(3) };
            let rank = if kind == 1 {
                rng.below(7)
            } else {
                rng.below(9)
            } as usize;
            let base = 9 * suit + rank;
            let tiles: Vec<usize> = match kind {
                0 => vec![base; 3],
                1 => vec![base, base + 1, base + 2],
                2 => vec![base; 4],
                _ => vec![base; 2],
            };
            for &i in &tiles {
                counts.0[i] += 1;
                if counts.0[i] > 4 {
                    ok = false;
                }
            }
            let ts: Vec<Tile> = tiles
                .iter()
                .filter_map(|&i| Tile::from_index(i as u8))
                .collect();
            let declare = kind == 2 || (kind == 0 && rng.below(3) == 0);
            if declare {
                let text = format_tiles(&ts);
                let meld = match kind {
                    2 if rng.below(2) == 0 => {
                        json!({"kind": "kong", "tiles": text, "concealed": true})
                    }
                    2 => json!({"kind": "kong", "tiles": text, "from": 1 + rng.below(3)}),
                    _ => json!({"kind": "pung", "tiles": text, "from": 1 + rng.below(3)}),
                };
                melds.push(meld);
            } else {
                concealed.extend(ts);
            }
        }
        if !ok || concealed.is_empty() {
            continue;
        }
        let win = concealed.remove(rng.below(concealed.len() as u32) as usize);
        concealed.sort();
        return (format_tiles(&concealed), melds, win.to_string());
    }
}

fn settle(line: Value) -> Value {
    let input: SettleInput = serde_json::from_value(line).expect("parses");
    let out = settle_line(&input);
    if let SettleOutput::Refused { error, .. } = &out {
        panic!("{input:?}: {}", error.message);
    }
    serde_json::to_value(out).expect("serializes")
}

#[test]
fn generated_wins_settle_in_every_preset() {
    let mut rng = SeededRng::new(2026);
    for n in 0..3000 {
        let (concealed, melds, tile) = winning_hand(&mut rng);
        // The winner is seat 0; the melds' `from` fields name the other seats.
        let self_draw = rng.below(2) == 0;
        let kong = melds.iter().any(|m| m["kind"] == "kong");
        let win = json!({
            "seat": 0, "tile": tile, "from": if self_draw { Value::Null } else { json!(1) },
            "kong_replacement": self_draw && kong && rng.below(2) == 0,
        });
        for (ruleset, cap) in [
            ("sichuan", None),
            ("sichuan-xuezhan", Some(3)),
            ("sichuan-xuezhan-9", Some(9)),
        ] {
            let line = json!({"id": n, "ruleset": ruleset, "dealer": rng.below(4),
                "seats": [{"concealed": concealed, "melds": melds}, {"concealed": ""}, {"concealed": ""}, {"concealed": ""}],
                "wins": [win]});
            let out = settle(line);
            let deltas: Vec<i64> = out["deltas"]
                .as_array()
                .expect("deltas")
                .iter()
                .filter_map(Value::as_i64)
                .collect();
            assert_eq!(deltas.iter().sum::<i64>(), 0, "{out}");
            assert!(deltas[0] > 0, "the winner gains: {out}");
            let total = out["fans"][0]["total"].as_i64().expect("total");
            if let Some(cap) = cap {
                assert!(
                    (0..=cap).contains(&total),
                    "{ruleset}: {total} fan outside 0..={cap}: {out}"
                );
            } else {
                assert!(total >= 1, "{out}");
            }
        }
    }
}
