//! How the audit's players play and when they pause. A player picks among its prompt's legal
//! actions with a seeded random source, but always declares a concealed or added kong when one
//! is legal (so concealed kongs really occur), keeps pairs and sets (it discards a tile it holds
//! fewest copies of), and takes only about half its wins, so hands run long.
//!
//! At a prompt a player may first pause the table: while a seat owes its own turn nothing
//! happens in the hand, so a snapshot asked for then must show exactly what the observers'
//! models hold. The pausing seat picks who drops and reconnects: itself, the late spectator or
//! another player. After declaring a concealed kong a seat always has the late spectator and
//! another player reconnect at its next turn, so every concealed kong is checked face down in
//! snapshots.

use serde_json::{Value, json};

use super::facts::Own;
use super::tiles::{Rng, copies};

/// Who reconnects at a pause.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// The pausing seat itself.
    Me,
    /// The spectator that joins late and reconnects.
    Spectator,
    /// Another seat.
    Player(usize),
}

/// Percent of own turns at which a seat pauses the table.
const PAUSE_OWN_TURN: u64 = 12;
/// Percent of 定缺 and swap prompts at which a seat pauses. At 定缺 itself or the spectator
/// reconnects (the other seats owe the same decision, so none of them is asked; their choices
/// stay private until all are in). At a swap only itself, and only once the other seats'
/// swaps are done: their `swapped_hidden` would otherwise come while it is away.
const PAUSE_SETUP: u64 = 50;
/// Percent of claim prompts at which a seat drops and reconnects itself. Only itself: other
/// seats may owe a claim in the same window; nothing of the hand is sent before it closes,
/// and it does not close while this seat owes its answer.
const PAUSE_CLAIM: u64 = 10;

fn has(legal: &[Value], kinds: &[&str]) -> bool {
    legal
        .iter()
        .any(|a| kinds.contains(&a["type"].as_str().unwrap_or_default()))
}

/// Whether the prompt is the seat's own turn (nobody else owes anything while it decides).
pub fn own_turn(legal: &[Value]) -> bool {
    has(
        legal,
        &[
            "discard",
            "self_draw_win",
            "draw_last",
            "decline_last",
            "declare_ready",
            "concealed_kong",
            "added_kong",
        ],
    )
}

/// Who reconnects before `me` answers `legal`. `konged`: it declared a concealed kong since;
/// `others_swapped`: every other seat's opening swap is done.
pub fn targets(
    legal: &[Value],
    (me, players): (usize, usize),
    konged: &mut bool,
    others_swapped: bool,
    rng: &mut Rng,
) -> Vec<Target> {
    let others: Vec<usize> = (0..players).filter(|&s| s != me).collect();
    let other = rng.pick(&others).copied().unwrap_or_default();
    if own_turn(legal) {
        if std::mem::take(konged) {
            return vec![Target::Spectator, Target::Player(other)];
        }
        if rng.chance(PAUSE_OWN_TURN) {
            let all = [Target::Me, Target::Spectator, Target::Player(other)];
            return rng.pick(&all).copied().into_iter().collect();
        }
    } else if has(legal, &["declare_void"]) {
        if rng.chance(PAUSE_SETUP) {
            return rng
                .pick(&[Target::Me, Target::Spectator])
                .copied()
                .into_iter()
                .collect();
        }
    } else if has(legal, &["swap_mark", "swap_done"]) {
        if others_swapped && rng.chance(PAUSE_SETUP) {
            return vec![Target::Me];
        }
    } else if rng.chance(PAUSE_CLAIM) {
        return vec![Target::Me];
    }
    Vec::new()
}

/// Percent chances of taking a win, an exposed kong, a pung, a chow and declaring ready when
/// offered. A concealed triplet that stays concealed (few pungs, not every exposed kong) and a
/// hand that goes on (not every win taken) make concealed kongs likely.
const WIN: u64 = 50;
const EXPOSED_KONG: u64 = 50;
const PUNG: u64 = 10;
const CHOW: u64 = 25;
const READY: u64 = 10;

/// The action a player takes from `legal`, holding `own`.
pub fn choose(legal: &[Value], own: &Own, rng: &mut Rng) -> Value {
    let of = |kind: &str| -> Vec<Value> {
        legal
            .iter()
            .filter(|a| a["type"] == kind)
            .cloned()
            .collect()
    };
    for kong in ["concealed_kong", "added_kong"] {
        if let Some(a) = rng.pick(&of(kong)) {
            return a.clone();
        }
    }
    if has(legal, &["exposed_kong"]) && rng.chance(EXPOSED_KONG) {
        return json!({"type": "exposed_kong"});
    }
    for win in ["self_draw_win", "win"] {
        if has(legal, &[win]) && rng.chance(WIN) {
            return json!({"type": win});
        }
    }
    if has(legal, &["draw_last"]) {
        let take = rng.chance(80) || !has(legal, &["decline_last"]);
        return json!({"type": if take { "draw_last" } else { "decline_last" }});
    }
    let voids = of("declare_void");
    if !voids.is_empty() {
        // Give up the suit it holds least of.
        let held = |a: &Value| {
            let suit = a["suit"].as_str().unwrap_or_default();
            own.hand.iter().filter(|t| t.ends_with(suit)).count()
        };
        let least = voids.iter().map(held).min().unwrap_or_default();
        let fewest: Vec<Value> = voids.into_iter().filter(|a| held(a) == least).collect();
        return rng.pick(&fewest).cloned().unwrap_or(Value::Null);
    }
    let marks = of("swap_mark");
    if has(legal, &["swap_done"]) {
        if own.swap_marked.len() < 3
            && rng.chance(40)
            && let Some(mark) = rng.pick(&marks)
        {
            return mark.clone();
        }
        return json!({"type": "swap_done"});
    }
    let pung = of("pung");
    if !pung.is_empty() && rng.chance(PUNG) {
        return json!({"type": "pung"});
    }
    if let Some(chow) = rng.pick(&of("chow"))
        && rng.chance(CHOW)
    {
        return chow.clone();
    }
    let ready = of("declare_ready");
    if !ready.is_empty() && rng.chance(READY) {
        return fewest_copies(&ready, own, rng);
    }
    let discards = of("discard");
    if !discards.is_empty() {
        return fewest_copies(&discards, own, rng);
    }
    if has(legal, &["pass"]) {
        return json!({"type": "pass"});
    }
    rng.pick(legal).cloned().unwrap_or(Value::Null)
}

/// One of `actions` whose tile the hand holds fewest copies of: pairs and sets stay.
fn fewest_copies(actions: &[Value], own: &Own, rng: &mut Rng) -> Value {
    let held = |a: &Value| copies(&own.hand, a["tile"].as_str().unwrap_or_default());
    let least = actions.iter().map(held).min().unwrap_or_default();
    let fewest: Vec<Value> = actions
        .iter()
        .filter(|a| held(a) == least)
        .cloned()
        .collect();
    rng.pick(&fewest).cloned().unwrap_or(Value::Null)
}
