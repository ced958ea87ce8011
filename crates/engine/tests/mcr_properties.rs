//! Properties of the Guobiao (MCR) calculator over generated hands.
//!
//! Winning hands are built from random shapes (four sets and a pair with some sets declared,
//! seven pairs, seven shifted pairs, thirteen orphans, the knitted hands, nine gates), never
//! more than four copies of a kind, the winning tile taken from the concealed part, and flags
//! only as a real win allows them. Every such hand must score, and its result must be
//! well-formed: the total is the sum of the fans, fans come once each in table order, no fan
//! stands beside one it implies, Chicken Hand stands alone, flowers are Flower Tiles and nothing
//! else. The same hand through the JSON line format gives the same result, and exchanging the
//! numbered suits changes nothing unless a suit-specific fan (All Green, Reversible Tiles) is
//! involved.
//!
//! Garbage — arbitrary counts, melds and flags through `score`, arbitrary and mutated JSON
//! lines through `score_text` — may be refused but never panics.
//!
//! `MCR_PROPERTY_HANDS` sets the number of generated winning hands (default 20,000).

mod mcr_gen;

mod knobs;

use std::path::Path;
use std::sync::OnceLock;

use engine::format::score_text;
use engine::variants::guobiao::{Fan, McrHand, Scored, WinContext, score};
use engine::wall::SeededRng;
use engine::{KongKind, Meld, MeldKind, Tile, TileCounts, Wind, format_tiles};
use proptest::prelude::*;
use serde_json::{Value, json};

use mcr_gen::*;

fn winning_hands() -> u64 {
    knobs::count("MCR_PROPERTY_HANDS", 20_000, 2_000)
}

#[test]
fn generated_winning_hands_score_and_are_well_formed() {
    let mut failures: Vec<(usize, String)> = Vec::new();
    let mut shapes = [0u32; SHAPES];
    let mut fans_seen = [false; Fan::ALL.len()];
    for seed in 0..winning_hands() {
        let mut g = SeededRng::new(seed);
        let (shape, hand) = winning_hand(&mut g);
        shapes[shape as usize] += 1;
        if let Err(why) = check_winning(&hand, &mut fans_seen) {
            failures.push((hand_size(&hand), format!("seed {seed} ({shape:?}): {why}")));
        }
    }
    // Smallest hands (fewest concealed tiles and melds) first: the easiest to read.
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} generated winning hands fail:\n{}",
        failures.len(),
        failures
            .iter()
            .take(12)
            .map(|(_, f)| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The generator must keep reaching every shape and most of the table.
    assert!(
        shapes.iter().all(|&n| n > 0),
        "shapes generated: {shapes:?}"
    );
    let seen = fans_seen.iter().filter(|&&s| s).count();
    if winning_hands() >= 20_000 {
        assert!(
            seen >= 75,
            "only {seen} of 81 fans occurred; missing: {:?}",
            Fan::ALL
                .iter()
                .filter(|&&f| !fans_seen[position(f)])
                .collect::<Vec<_>>()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn garbage_hands_never_panic(hand in garbage_hand()) {
        if let Ok(scored) = score(&hand)
            && let Err(why) = well_formed(&hand, &scored)
        {
            return Err(TestCaseError::fail(format!("{why}: {}", describe(&hand))));
        }
    }

    #[test]
    fn random_text_never_panics(line in "\\PC{0,96}") {
        check_text(&line)?;
    }

    #[test]
    fn json_like_lines_never_panic(seed in any::<u64>()) {
        let line = json_like_line(&mut SeededRng::new(seed));
        check_text(&line)?;
    }

    #[test]
    fn mutated_golden_lines_never_panic(seed in any::<u64>()) {
        let lines = golden_lines();
        let mut g = SeededRng::new(seed);
        let line = &lines[below(&mut g, lines.len())];
        let mutated = mutate(&mut g, line);
        check_text(&mutated)?;
    }
}

// ---------------------------------------------------------------------------------------------
// The properties.

/// Every property of a generated winning hand.
fn check_winning(hand: &McrHand, fans_seen: &mut [bool]) -> Result<(), String> {
    let scored = score(hand).map_err(|e| format!("refused ({e}): {}", describe(hand)))?;
    well_formed(hand, &scored).map_err(|e| format!("{e}: {}", describe(hand)))?;
    for &(f, _) in &scored.fans {
        fans_seen[position(f)] = true;
    }

    // Flowers change nothing but Flower Tiles.
    if hand.flowers > 0 {
        let bare = score(&McrHand {
            flowers: 0,
            ..hand.clone()
        })
        .map_err(|e| format!("refused without flowers ({e}): {}", describe(hand)))?;
        let without: Vec<_> = scored
            .fans
            .iter()
            .copied()
            .filter(|&(f, _)| f != Fan::FlowerTiles)
            .collect();
        if bare.fans != without || bare.total != scored.without_flowers() {
            return Err(format!(
                "flowers changed more than Flower Tiles: {} vs {} without flowers: {}",
                show(&scored),
                show(&bare),
                describe(hand)
            ));
        }
    }

    // The JSON line format reads the same hand.
    let out = serde_json::to_value(score_text(&line_of(hand))).map_err(|e| e.to_string())?;
    let want: Vec<(String, u64)> = scored
        .fans
        .iter()
        .map(|&(f, n)| (f.en().to_owned(), u64::from(n)))
        .collect();
    let got: Vec<(String, u64)> = out["fans"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    (
                        f["name_en"].as_str().unwrap_or_default().to_owned(),
                        f["count"].as_u64().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    if got != want || out["total"].as_i64() != Some(scored.total) {
        return Err(format!(
            "the line format disagrees: {out} vs {}: {}",
            show(&scored),
            line_of(hand)
        ));
    }

    // The three numbered suits are interchangeable, except for the fans that name a suit.
    let suit_specific = |s: &Scored| {
        s.fans
            .iter()
            .any(|&(f, _)| matches!(f, Fan::AllGreen | Fan::ReversibleTiles))
    };
    for perm in [[1, 2, 0], [2, 0, 1], [1, 0, 2]] {
        let moved = permute_suits(hand, perm);
        let other = score(&moved).map_err(|e| {
            format!(
                "refused after exchanging suits {perm:?} ({e}): {}",
                describe(&moved)
            )
        })?;
        if !suit_specific(&scored) && !suit_specific(&other) && other != scored {
            return Err(format!(
                "exchanging suits {perm:?} changed the result: {} vs {}: {} vs {}",
                show(&scored),
                show(&other),
                describe(hand),
                describe(&moved)
            ));
        }
    }
    Ok(())
}

/// The properties every scored hand has, winning by construction or not.
fn well_formed(hand: &McrHand, s: &Scored) -> Result<(), String> {
    let sum: i64 = s.fans.iter().map(|&(f, n)| f.value() * i64::from(n)).sum();
    if sum != s.total {
        return Err(format!("total {} but the fans sum to {sum}", s.total));
    }
    if s.fans.iter().any(|&(_, n)| n == 0) {
        return Err(format!("a fan with count 0: {}", show(s)));
    }
    if s.fans
        .windows(2)
        .any(|w| position(w[0].0) >= position(w[1].0))
    {
        return Err(format!("fans out of table order: {}", show(s)));
    }
    let flowers = i64::from(hand.flowers);
    if s.without_flowers() != s.total - flowers {
        return Err(format!(
            "without_flowers {} but total {} with {flowers} flowers",
            s.without_flowers(),
            s.total
        ));
    }
    let flower_count = s
        .fans
        .iter()
        .find(|&&(f, _)| f == Fan::FlowerTiles)
        .map(|&(_, n)| i64::from(n));
    if flower_count != (flowers > 0).then_some(flowers) {
        return Err(format!(
            "{flowers} flowers but Flower Tiles {flower_count:?}: {}",
            show(s)
        ));
    }
    let chicken = s.fans.iter().any(|&(f, _)| f == Fan::ChickenHand);
    let others = s
        .fans
        .iter()
        .filter(|&&(f, _)| !matches!(f, Fan::ChickenHand | Fan::FlowerTiles))
        .count();
    if chicken && others > 0 {
        return Err(format!("Chicken Hand beside other fans: {}", show(s)));
    }
    for &(f, _) in &s.fans {
        for &(g, _) in &s.fans {
            if f.implied() & (1u128 << (g as usize)) != 0 {
                return Err(format!("{f:?} scored beside {g:?}, which it implies"));
            }
        }
    }
    Ok(())
}

/// `score_text` on any line: no panic (a panic inside would come back as `internal_error`),
/// and a scored line is well-formed.
fn check_text(line: &str) -> Result<(), TestCaseError> {
    let out = serde_json::to_value(score_text(line))
        .map_err(|e| TestCaseError::fail(format!("output does not serialize: {e}")))?;
    prop_assert_ne!(
        out["error"]["code"].as_str(),
        Some("internal_error"),
        "the engine panicked on {:?}",
        line
    );
    if let Some(fans) = out["fans"].as_array() {
        let sum: i64 = fans
            .iter()
            .map(|f| f["points"].as_i64().unwrap_or(0) * f["count"].as_i64().unwrap_or(0))
            .sum();
        prop_assert_eq!(Some(sum), out["total"].as_i64(), "{}", line);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Winning hands.

/// The hand with the numbered suits exchanged: suit `s` becomes suit `perm[s]`.
fn permute_suits(hand: &McrHand, perm: [usize; 3]) -> McrHand {
    let map = |t: Tile| {
        let i = t.index();
        if i < 27 {
            tile(9 * perm[i / 9] + i % 9)
        } else {
            t
        }
    };
    let mut concealed = TileCounts::new();
    for t in hand.concealed.to_tiles() {
        concealed.add(map(t));
    }
    McrHand {
        concealed,
        melds: hand
            .melds
            .iter()
            .map(|m| Meld {
                tile: map(m.tile),
                ..*m
            })
            .collect(),
        win_tile: map(hand.win_tile),
        ..hand.clone()
    }
}

// ---------------------------------------------------------------------------------------------
// Garbage.

/// Anything `McrHand` can hold: concealed counts (usually the right number of tiles, from a
/// random window of kinds so that some complete; sometimes arbitrary counts), melds of any kind
/// on any tile (flowers included), any winning tile, any flags and up to 255 flowers.
fn garbage_hand() -> impl Strategy<Value = McrHand> {
    let any_meld = (0u8..5, 0u8..42).prop_map(|(k, t)| {
        let kind = match k {
            0 => MeldKind::Chow,
            1 => MeldKind::Pung,
            2 => MeldKind::Kong(KongKind::Exposed),
            3 => MeldKind::Kong(KongKind::Concealed),
            _ => MeldKind::Kong(KongKind::Added),
        };
        meld(kind, Tile::from_index(t).expect("a kind"))
    });
    prop::collection::vec(any_meld, 0..=5)
        .prop_flat_map(|melds| {
            let n = 13usize.saturating_sub(3 * melds.len());
            let counts = prop_oneof![
                4 => (0usize..34, 1usize..=34, prop::collection::vec(0usize..34, n..=n)),
                1 => (0usize..34, 1usize..=34, prop::collection::vec(0usize..34, 0..=20)),
            ]
            .prop_map(|(lo, width, picks)| {
                let mut c = TileCounts::new();
                for x in picks {
                    c.0[(lo + x % width) % 34] += 1;
                }
                c
            });
            let arbitrary = prop::collection::vec(0u8..=6, 34).prop_map(|v| {
                let mut c = TileCounts::new();
                c.0.copy_from_slice(&v);
                c
            });
            (
                Just(melds),
                prop_oneof![6 => counts, 1 => arbitrary],
                0u8..42,
                any::<[bool; 4]>(),
                0usize..4,
                0usize..4,
                any::<u8>(),
            )
        })
        .prop_map(
            |(melds, concealed, win, flags, seat, round, flowers)| McrHand {
                concealed,
                melds,
                win_tile: Tile::from_index(win).expect("a kind"),
                context: WinContext {
                    self_drawn: flags[0],
                    last_of_kind: flags[1],
                    kong_win: flags[2],
                    last_tile: flags[3],
                },
                seat_wind: Wind::ALL[seat],
                round_wind: Wind::ALL[round],
                flowers,
            },
        )
}

/// The fields of a score line.
const FIELDS: [&str; 11] = [
    "id",
    "concealed",
    "melds",
    "win_tile",
    "self_drawn",
    "last_of_kind",
    "kong_win",
    "last_tile",
    "seat_wind",
    "round_wind",
    "flowers",
];

/// A line that looks like the format: a generated winning hand's line or plausible values for
/// every field, then a few fields removed, re-rolled or given a value of a random type, and
/// now and then an unknown field or a cut.
fn json_like_line(g: &mut SeededRng) -> String {
    let mut obj = serde_json::Map::new();
    if one_in(g, 3) {
        let (_, hand) = winning_hand(g);
        if let Ok(Value::Object(m)) = serde_json::from_str(&line_of(&hand)) {
            obj = m;
        }
    } else {
        for key in FIELDS {
            obj.insert(key.to_owned(), plausible(g, key));
        }
    }
    for _ in 0..below(g, 4) {
        let key = FIELDS[below(g, FIELDS.len())];
        match below(g, 4) {
            0 => {
                obj.remove(key);
            }
            1 => {
                obj.insert(key.to_owned(), random_value(g, 2));
            }
            2 => {
                obj.insert(random_string(g, 6), random_value(g, 2));
            }
            _ => {
                obj.insert(key.to_owned(), plausible(g, key));
            }
        }
    }
    let line = Value::Object(obj).to_string();
    if one_in(g, 10) {
        // Cut short: no longer JSON, but the id may still be readable.
        let cut = below(g, line.len() + 1);
        return line.chars().take(cut).collect();
    }
    line
}

/// A value of the right type for a field, not always a valid one.
fn plausible(g: &mut SeededRng, key: &str) -> Value {
    match key {
        "id" if one_in(g, 4) => json!(random_string(g, 6)),
        "id" => json!(below(g, 1000)),
        "concealed" => {
            let n = below(g, 17);
            json!(tile_string(g, n))
        }
        "melds" => {
            let n = below(g, 6);
            Value::Array((0..n).map(|_| json_meld(g)).collect())
        }
        "win_tile" => {
            let n = [1, 1, 1, 1, 0, 2][below(g, 6)];
            json!(tile_string(g, n))
        }
        "seat_wind" | "round_wind" => json!(["E", "S", "W", "N", "X", "east", ""][below(g, 7)]),
        "flowers" => json!(below(g, 12) as i64 - 1),
        _ => json!(one_in(g, 2)),
    }
}

fn json_meld(g: &mut SeededRng) -> Value {
    if one_in(g, 8) {
        return random_value(g, 1);
    }
    let kind = ["chow", "pung", "kong", "kong", "Chow", "eye", ""][below(g, 7)];
    let n = [3, 3, 4, 4, 0, 2, 5][below(g, 7)];
    let mut m = json!({"kind": kind, "tiles": tile_string(g, n)});
    if one_in(g, 2) {
        m["concealed"] = json!(one_in(g, 2));
    }
    if one_in(g, 10) {
        m["from"] = json!(below(g, 4));
    }
    m
}

fn random_value(g: &mut SeededRng, depth: u32) -> Value {
    match below(g, if depth == 0 { 6 } else { 8 }) {
        0 => Value::Null,
        1 => json!(one_in(g, 2)),
        2 => json!(i64::from(g.below(u32::MAX)) - i64::from(u32::MAX / 2)),
        3 => json!(f64::from(g.below(1000)) / 7.0),
        4 => json!(random_string(g, 10)),
        5 => {
            let n = below(g, 16);
            json!(tile_string(g, n))
        }
        6 => Value::Array(
            (0..below(g, 4))
                .map(|_| random_value(g, depth - 1))
                .collect(),
        ),
        _ => {
            let mut m = serde_json::Map::new();
            for _ in 0..below(g, 4) {
                m.insert(random_string(g, 5), random_value(g, depth - 1));
            }
            Value::Object(m)
        }
    }
}

/// Notation, mostly valid: random kinds (flowers included), printed the project's way, with an
/// odd character now and then.
fn tile_string(g: &mut SeededRng, n: usize) -> String {
    let tiles: Vec<Tile> = (0..n)
        .map(|_| {
            let kinds = if one_in(g, 8) { 42 } else { 34 };
            tile_any(below(g, kinds))
        })
        .collect();
    let mut s = format_tiles(&tiles);
    if one_in(g, 10) {
        let junk = ['0', 'x', 'z', 'm', '9', ' ', '\u{4e07}'][below(g, 7)];
        let at = below(g, s.chars().count() + 1);
        s = s
            .chars()
            .take(at)
            .chain([junk])
            .chain(s.chars().skip(at))
            .collect();
    }
    s
}

fn random_string(g: &mut SeededRng, max: usize) -> String {
    const CHARS: &[char] = &[
        'a', 'z', '1', '9', '0', '"', '\\', '{', '}', '[', ']', ':', ',', ' ', '\u{82b1}', '-',
        'e', '.',
    ];
    (0..below(g, max + 1))
        .map(|_| CHARS[below(g, CHARS.len())])
        .collect()
}

/// A few character edits of a golden line: delete, insert, replace, cut, or duplicate a span.
fn mutate(g: &mut SeededRng, line: &str) -> String {
    const CHARS: &[char] = &[
        '0', '1', '5', '9', 'm', 'p', 's', 'z', 'f', '"', ',', ':', '{', '}', '[', ']', '-', 't',
        'e', ' ',
    ];
    let mut chars: Vec<char> = line.chars().collect();
    for _ in 0..1 + below(g, 4) {
        let at = below(g, chars.len() + 1);
        match below(g, 5) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 => chars.insert(at, CHARS[below(g, CHARS.len())]),
            2 if at < chars.len() => chars[at] = CHARS[below(g, CHARS.len())],
            3 if one_in(g, 4) => chars.truncate(at),
            _ => {
                let end = (at + below(g, 20)).min(chars.len());
                let span: Vec<char> = chars[at..end].to_vec();
                let to = below(g, chars.len() + 1);
                chars.splice(to..to, span);
            }
        }
    }
    chars.into_iter().collect()
}

fn golden_lines() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/mcr/golden_public.jsonl");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect()
    })
}

// ---------------------------------------------------------------------------------------------
fn position(f: Fan) -> usize {
    Fan::ALL
        .iter()
        .position(|&g| g == f)
        .expect("every fan is in the table")
}

/// Orders failing hands for the report: fewer tiles in hand and fewer melds first.
fn hand_size(hand: &McrHand) -> usize {
    hand.concealed.total() as usize * 8 + hand.melds.len()
}

/// The hand as a line of the score format.
fn line_of(hand: &McrHand) -> String {
    let melds: Vec<Value> = hand
        .melds
        .iter()
        .map(|m| {
            let kind = match m.kind {
                MeldKind::Chow => "chow",
                MeldKind::Pung => "pung",
                MeldKind::Kong(_) => "kong",
            };
            json!({"kind": kind, "tiles": format_tiles(&m.tiles()), "concealed": m.is_concealed()})
        })
        .collect();
    json!({
        "id": 1,
        "concealed": format_tiles(&hand.concealed.to_tiles()),
        "melds": melds,
        "win_tile": hand.win_tile.to_string(),
        "self_drawn": hand.context.self_drawn,
        "last_of_kind": hand.context.last_of_kind,
        "kong_win": hand.context.kong_win,
        "last_tile": hand.context.last_tile,
        "seat_wind": hand.seat_wind,
        "round_wind": hand.round_wind,
        "flowers": hand.flowers,
    })
    .to_string()
}

/// A hand for a failure message: its score-format line, and its melds exactly as given (the
/// line reads an added kong as an exposed one and cannot show a malformed meld).
fn describe(hand: &McrHand) -> String {
    let melds: Vec<_> = hand.melds.iter().map(|m| (m.kind, m.tile)).collect();
    format!("{} melds {melds:?}", line_of(hand))
}

fn show(s: &Scored) -> String {
    let fans: Vec<String> = s.fans.iter().map(|(f, n)| format!("{f:?}×{n}")).collect();
    format!("{} = {}", fans.join(" + "), s.total)
}
