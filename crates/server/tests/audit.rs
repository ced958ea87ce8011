//! Hidden information, audited from the client's side over every preset.
//!
//! The promise (`proto/README.md`, "Hidden information"): a client receives only what its seat
//! may know: its own concealed tiles and draws, and public facts about the others (melds,
//! discards, flowers, tile counts; another seat's concealed kong face down); other hands only
//! when a seat wins (its hand) and when the hand ends (all). A spectator sees no concealed tile.
//!
//! The audit states that promise independently of the server: nothing from the engine or
//! protocol crates decides what an observer may see. Every message every client receives (the
//! players' and two spectators', events, prompts and snapshots) goes through a whitelist scan
//! of where tiles may appear (`audit_kit::scan`) and a model of what the observer knows, built
//! from its own stream (`audit_kit::model`); snapshots mid-hand, asked for at exact pauses by
//! players and a late spectator reconnecting, must agree with the models in full. The seed
//! committed before each deal must hash from the seed revealed after it.
//!
//! All presets' tables play at once on one server. `AUDIT_HANDS` sets the hands per preset.

mod audit_kit;
mod common;
#[path = "../../engine/tests/knobs/mod.rs"]
mod knobs;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use audit_kit::table::{self, TableReport};
use audit_kit::{Tally, disagreements, family, tally};

/// Hands per preset: `AUDIT_HANDS`, else 1 when `MAHJONG_TEST_QUICK` is set, else 2 (about
/// 15–25 s on two cores); a match holds at most 64.
fn hands_per_preset() -> u64 {
    knobs::count("AUDIT_HANDS", 2, 1).clamp(1, 64)
}

/// More matches of `TOP_UP_HANDS` hands for the families still short of a concealed kong
/// checked face down, at most this many times: the deal is the server's, so a concealed kong
/// is likely in a few hands, not certain (two-player has one in about six hands).
const TOP_UP_ROUNDS: u64 = 10;
const TOP_UP_HANDS: u64 = 4;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_observer_sees_only_what_its_seat_may_know() {
    let started = Instant::now();
    let hands = hands_per_preset();
    // Pauses hold a seat's turn while others reconnect: the bot must never step in.
    let server = common::sqlite_server_with(|c| {
        c.grace_ms = 3_600_000;
        c.reconnect_ms = 3_600_000;
    })
    .await;
    let addr = server.addr;
    let presets = common::presets(addr).await;
    assert!(presets.iter().any(|(_, n)| *n == 2), "a two-seat preset");
    let ids: Vec<String> = presets.iter().map(|(id, _)| id.clone()).collect();

    let mut tables = round(addr, &presets, hands, 0).await;
    for n in 1..=TOP_UP_ROUNDS {
        let short = short_of_kongs(&tables, &ids);
        // Once a problem is found the test fails anyway: no need to play on.
        let failing = tables
            .iter()
            .any(|t| t.clients.iter().any(|c| !c.problems.is_empty()));
        if short.is_empty() || failing {
            break;
        }
        let again: Vec<(String, usize)> = presets
            .iter()
            .filter(|(id, _)| short.contains(&family(id, &ids)))
            .cloned()
            .collect();
        tables.extend(round(addr, &again, TOP_UP_HANDS, n).await);
    }

    let by_preset = tally(&tables);
    report(&by_preset, started);
    let problems: Vec<&String> = tables
        .iter()
        .flat_map(|t| t.clients.iter().flat_map(|c| &c.problems))
        .collect();
    assert!(
        problems.is_empty(),
        "{} problems; the first:\n{}",
        problems.len(),
        problems
            .iter()
            .take(30)
            .map(|p| format!("  - {p}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let differ: Vec<String> = tables.iter().flat_map(disagreements).collect();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    check_counts(&by_preset, &ids, &tables);
    server.finish().await;
}

/// One match per preset, all at once.
async fn round(
    addr: std::net::SocketAddr,
    presets: &[(String, usize)],
    hands: u64,
    n: u64,
) -> Vec<TableReport> {
    let mut set = tokio::task::JoinSet::new();
    for (i, (id, players)) in presets.iter().enumerate() {
        let (id, players) = (id.clone(), *players);
        let seed = 0xA0D1_7000_u64 ^ (n << 32) ^ ((i as u64) << 8);
        set.spawn(async move { table::play(addr, &id, players, hands, seed).await });
    }
    let mut out = Vec::new();
    while let Some(done) = set.join_next().await {
        out.push(done.expect("a table's task"));
    }
    out
}

/// The families where no concealed kong has yet been checked face down in a late spectator's
/// snapshot and another player's; all of them while seat 0's never has been.
fn short_of_kongs(tables: &[TableReport], ids: &[String]) -> BTreeSet<String> {
    let by_preset = tally(tables);
    let mut seen: BTreeMap<String, u64> = ids.iter().map(|id| (family(id, ids), 0)).collect();
    for (preset, t) in &by_preset {
        let kongs = t
            .players
            .own_concealed_kongs
            .min(t.late.snapshots_hidden_kong)
            .min(t.players.snapshots_hidden_kong);
        *seen.entry(family(preset, ids)).or_default() += kongs;
    }
    let short: BTreeSet<String> = seen
        .into_iter()
        .filter(|(_, n)| *n == 0)
        .map(|(f, _)| f)
        .collect();
    let seat0: u64 = by_preset
        .values()
        .map(|t| t.late.snapshots_seat0_hidden)
        .sum();
    if short.is_empty() && seat0 == 0 {
        return ids.iter().map(|id| family(id, ids)).collect();
    }
    short
}

/// Prints what was checked, preset by preset.
fn report(by_preset: &BTreeMap<String, Tally>, started: Instant) {
    println!(
        "{:<18} {:>5} {:>8} {:>8} {:>6} {:>6} {:>8} {:>6} {:>6} {:>6}",
        "preset",
        "hands",
        "messages",
        "tiles",
        "snaps",
        "spec",
        "spec-msg",
        "s-snap",
        "kongs",
        "k-seen"
    );
    for (preset, t) in by_preset {
        let all = t.players.messages + t.early.messages + t.late.messages;
        let tiles = t.players.tiles + t.early.tiles + t.late.tiles;
        println!(
            "{preset:<18} {:>5} {all:>8} {tiles:>8} {:>6} {:>6} {:>8} {:>6} {:>6} {:>6}",
            t.hands_seen,
            t.players.snapshots,
            t.late.snapshots,
            t.early.messages + t.late.messages,
            t.late.snapshots_hidden_kong,
            t.players.own_concealed_kongs,
            t.players.snapshots_hidden_kong,
        );
    }
    let mut all = audit_kit::observer::Stats::default();
    for t in by_preset.values() {
        all.add(&t.players);
        all.add(&t.early);
        all.add(&t.late);
    }
    println!("events by kind: {:?}", all.kinds);
    println!("snapshots by what the seat owed: {:?}", all.phases);
    println!(
        "snaps: players' mid-hand snapshots checked; spec: the late spectator's; s-snap: spectator \
         snapshots showing a concealed kong face down; kongs: concealed kongs declared; k-seen: \
         players' snapshots showing another seat's concealed kong. {:.1?} in all.",
        started.elapsed()
    );
}

/// The run checked enough that passing means something.
fn check_counts(by_preset: &BTreeMap<String, Tally>, ids: &[String], tables: &[TableReport]) {
    for (preset, t) in by_preset {
        assert_eq!(
            t.hands_seen, t.hands,
            "{preset}: every hand was played to its end"
        );
        assert_eq!(
            t.early.hands, t.hands,
            "{preset}: the early spectator saw every hand"
        );
        assert!(
            t.players.snapshots >= t.hands,
            "{preset}: {} players' snapshots mid-hand for {} hands",
            t.players.snapshots,
            t.hands
        );
        assert!(t.players.reconnects > 0, "{preset}: players reconnected");
        let tables_of = tables.iter().filter(|r| &r.preset == preset).count() as u64;
        assert!(
            t.late.snapshots >= tables_of && t.late.messages > t.late.snapshots,
            "{preset}: the late spectator joined every table and watched ({} snapshots at {} \
             tables, {} messages)",
            t.late.snapshots,
            tables_of,
            t.late.messages
        );
        assert!(
            t.early.messages >= 50 * t.hands,
            "{preset}: spectator messages"
        );
    }
    let mut kongs: BTreeMap<String, (u64, u64, u64)> = BTreeMap::new();
    for (preset, t) in by_preset {
        let k = kongs.entry(family(preset, ids)).or_default();
        k.0 += t.players.own_concealed_kongs;
        k.1 += t.late.snapshots_hidden_kong;
        k.2 += t.players.snapshots_hidden_kong;
    }
    for (family, (declared, spectators, players)) in &kongs {
        assert!(
            *declared > 0 && *spectators > 0 && *players > 0,
            "{family}: {declared} concealed kongs declared; snapshots showing one face down: \
             {spectators} spectators', {players} other players'"
        );
    }
    let seat0: u64 = by_preset
        .values()
        .map(|t| t.late.snapshots_seat0_hidden)
        .sum();
    assert!(
        seat0 > 0,
        "a spectator snapshot showed seat 0's concealed kong"
    );
    let back: u64 = by_preset.values().map(|t| t.late.reconnects).sum();
    assert!(back > 0, "the late spectator reconnected mid-hand");
}
