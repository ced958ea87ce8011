//! The whitelist scan. Every tile string anywhere in a message (any field, any depth, object
//! keys too) must sit in a place `proto/README.md` makes public or the observer's own:
//!
//! - public to everyone: a discard (`discarded.tile`, a seat's `discards` and `river`), an open
//!   meld (`melded` and a seat's `melds` with `kind` `open`, other than a concealed kong), a
//!   flower (`flower_replaced`, `flowers`), the wild and bonus indicators (`wild_turned`,
//!   `bonus_turned`, the view's `wild` and `bonus`), the prevalent wind, the tile on offer (the
//!   view's `offered`, an added kong's `kong_offered.tile`), a win (`won`: the winning tile and
//!   the winner's shown hand; a seat's `won`), and everything in `hand_ended` and `hand_over`;
//! - the observer's own, and only for a seated observer whose seat the event names: `dealt`,
//!   `drew.tile`, `swap_marked`, `swapped`, its own concealed kong face up, the view's `hand`,
//!   `drawn` and `swap_marked`, and the tiles of its prompt's legal actions.
//!
//! Anything else is a leak, so a new field that carries tiles fails the audit without the audit
//! knowing the field. Whether the tiles in an allowed place are the right ones (a prompt naming
//! only tiles the seat holds, an added kong naming a tile of a public pung …) is the model's
//! check; this one only says where tiles may be.

use serde_json::Value;

use super::tiles::{is_tile, is_tile_run};

/// One step into a JSON value.
enum Step {
    Key(String),
    Index(usize),
}

/// A tile found in a message: where (`event.meld.tiles.#`, indices as `#`), the indices
/// passed on the way, and the string.
struct Found {
    pattern: String,
    indices: Vec<usize>,
    text: String,
    /// The string is several tiles run together, a form the server never sends.
    run: bool,
}

/// Every tile in `msg` that the observer (`me`: its seat, or None for a spectator) may not be
/// sent, described for the report; the count of tiles found goes to `tiles_seen`.
pub fn leaks(msg: &Value, me: Option<usize>, tiles_seen: &mut u64) -> Vec<String> {
    let mut found = Vec::new();
    walk(msg, &mut Vec::new(), &mut found);
    *tiles_seen += found.len() as u64;
    found
        .into_iter()
        .filter(|f| f.run || !allowed(msg, me, &f.pattern, &f.indices))
        .map(|f| {
            let why = if f.run {
                "tiles in the compact notation"
            } else {
                "a tile outside the places the observer may see tiles"
            };
            format!("{why}: `{}` at {}", f.text, f.pattern)
        })
        .collect()
}

fn walk(v: &Value, path: &mut Vec<Step>, out: &mut Vec<Found>) {
    match v {
        Value::String(s) => note(s, path, out),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Step::Index(i));
                walk(item, path, out);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                path.push(Step::Key(key.clone()));
                // A tile used as a key is never in an allowed place: the pattern ends in it.
                note(key, path, out);
                walk(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn note(s: &str, path: &[Step], out: &mut Vec<Found>) {
    let run = is_tile_run(s);
    if !is_tile(s) && !run {
        return;
    }
    let mut parts = Vec::new();
    let mut indices = Vec::new();
    for step in path {
        match step {
            Step::Key(k) => parts.push(k.as_str()),
            Step::Index(i) => {
                parts.push("#");
                indices.push(*i);
            }
        }
    }
    out.push(Found {
        pattern: parts.join("."),
        indices,
        text: s.to_string(),
        run,
    });
}

/// Whether a tile at `pattern` (indices in `indices`) of `msg` is one the observer may see.
fn allowed(msg: &Value, me: Option<usize>, pattern: &str, indices: &[usize]) -> bool {
    match msg["type"].as_str() {
        Some("event") => event_allows(&msg["event"], me, pattern),
        Some("snapshot") => snapshot_allows(&msg["table"], me, pattern, indices),
        Some("prompt") => me.is_some() && matches!(pattern, "legal.#.tile" | "legal.#.low"),
        Some("hand_over") => pattern.starts_with("settlement."),
        _ => false,
    }
}

fn event_allows(e: &Value, me: Option<usize>, pattern: &str) -> bool {
    let own = me.is_some() && e["seat"].as_u64() == me.map(|s| s as u64);
    let Some(field) = pattern.strip_prefix("event.") else {
        return false;
    };
    match e["kind"].as_str().unwrap_or_default() {
        "hand_started" => field == "round_wind",
        "wild_turned" => matches!(field, "indicator" | "wild"),
        "bonus_turned" | "discarded" | "kong_offered" => field == "tile",
        "flower_replaced" => field == "flower",
        "swap_marked" | "drew" => own && field == "tile",
        "swapped" => own && matches!(field, "out.#" | "received.#"),
        "dealt" => own && field == "tiles.#",
        "melded" => {
            matches!(field, "meld.tiles.#" | "meld.claimed") && open_meld_visible(&e["meld"], own)
        }
        "won" => matches!(field, "concealed.#" | "win.tile"),
        "hand_ended" => field.starts_with("hands.") || field.starts_with("settlement."),
        _ => false,
    }
}

fn snapshot_allows(table: &Value, me: Option<usize>, pattern: &str, indices: &[usize]) -> bool {
    match pattern {
        "table.view.round_wind"
        | "table.view.wild"
        | "table.view.bonus.#"
        | "table.view.offered" => true,
        "table.view.hand.#" | "table.view.swap_marked.#" | "table.view.drawn" => me.is_some(),
        "table.prompt.legal.#.tile" | "table.prompt.legal.#.low" => me.is_some(),
        "table.view.seats.#.flowers.#"
        | "table.view.seats.#.discards.#"
        | "table.view.seats.#.river.#.tile"
        | "table.view.seats.#.won.tile" => true,
        "table.view.seats.#.melds.#.tiles.#" | "table.view.seats.#.melds.#.claimed" => {
            let (seat, meld) = (indices[0], indices[1]);
            let m = &table["view"]["seats"][seat]["melds"][meld];
            open_meld_visible(m, me == Some(seat))
        }
        _ => false,
    }
}

/// A meld's tiles may be shown when it is face up and, for a concealed kong, its owner looks.
fn open_meld_visible(meld: &Value, own: bool) -> bool {
    meld["kind"] == "open" && (meld["shape"] != "concealed_kong" || own)
}
