//! A client developer's hidden-information audit kit, written from `proto/README.md` alone (no
//! engine or protocol code decides what an observer may see):
//!
//! - `scan`: the whitelist of places a tile may appear in a message for a given observer;
//! - `facts`, `model` and `view`: what an observer may know, built from its stream, and the
//!   snapshot checks against it;
//! - `observer`: every message through both, plus the seed commitments;
//! - `policy`, `play`, `table`: players choosing among legal actions and pausing the table for
//!   exact mid-hand snapshots, spectators, and one audited room per preset.

pub mod facts;
pub mod model;
pub mod observer;
pub mod play;
pub mod policy;
pub mod scan;
pub mod table;
pub mod tiles;
pub mod view;

use std::collections::BTreeMap;

use observer::Stats;
use play::Role;
use table::TableReport;

/// A preset's family: the shortest other preset id it extends (`sichuan-xuezhan-9` →
/// `sichuan`), else itself (`two-player`).
pub fn family(preset: &str, presets: &[String]) -> String {
    presets
        .iter()
        .filter(|p| preset.starts_with(&format!("{p}-")))
        .min_by_key(|p| p.len())
        .unwrap_or(&preset.to_string())
        .clone()
}

/// A preset's counts over all its tables.
#[derive(Default, Debug)]
pub struct Tally {
    /// Hands planned and hands every seat saw settled.
    pub hands: u64,
    pub hands_seen: u64,
    pub players: Stats,
    pub early: Stats,
    pub late: Stats,
}

/// Adds up the reports by preset.
pub fn tally(tables: &[TableReport]) -> BTreeMap<String, Tally> {
    let mut out: BTreeMap<String, Tally> = BTreeMap::new();
    for t in tables {
        let tally = out.entry(t.preset.clone()).or_default();
        tally.hands += t.hands;
        let seats: Vec<u64> = t
            .clients
            .iter()
            .filter(|c| matches!(c.role, Role::Seat(_)))
            .map(|c| c.stats.hands)
            .collect();
        tally.hands_seen += seats.iter().copied().min().unwrap_or_default();
        for c in &t.clients {
            match c.role {
                Role::Seat(_) => tally.players.add(&c.stats),
                Role::Early => tally.early.add(&c.stats),
                Role::Late => tally.late.add(&c.stats),
            }
        }
    }
    out
}

/// Every client's events of each hand must be the same list (as every observer may see them):
/// the early spectator's too. Returns the disagreements.
pub fn disagreements(t: &TableReport) -> Vec<String> {
    let mut out = Vec::new();
    let Some(first) = t.clients.iter().find(|c| c.role == Role::Seat(0)) else {
        return vec![format!("{}: no report from seat 0", t.preset)];
    };
    for c in t.clients.iter().filter(|c| c.role != Role::Late) {
        for (hand, events) in &first.projections {
            let theirs = c.projections.get(hand);
            if theirs != Some(events) {
                let at = theirs.map_or(0, |e| {
                    e.iter().zip(events).take_while(|(a, b)| a == b).count()
                });
                out.push(format!(
                    "{} hand {hand}: {:?} saw other events than seat 0 from event {at}: {:?} vs {:?}",
                    t.preset,
                    c.role,
                    theirs.and_then(|e| e.get(at)),
                    events.get(at)
                ));
            }
        }
    }
    out
}
