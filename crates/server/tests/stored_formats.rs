//! A database written before the stored formats were versioned (`fixtures/stored-v0`: the
//! server of commit 04e4024, killed mid-play; `make.mjs` says how) must keep working: every table
//! left in play restores where it was and plays on, and every stored hand replays. What each
//! table should show is in `expected.json`, computed from the database's rows when it was made,
//! not by this server.

mod common;

use std::io::Read;
use std::path::Path;
use std::time::Duration;

use common::Client;
use serde_json::Value;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/stored-v0");
const WAIT: Duration = Duration::from_secs(20);

/// The fixture database, unpacked into `dir`.
fn unpack(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("dir");
    let packed = std::fs::File::open(Path::new(FIXTURE).join("mahjong.db.gz")).expect("fixture");
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(packed)
        .read_to_end(&mut bytes)
        .expect("gunzip");
    std::fs::write(dir.join("mahjong.db"), bytes).expect("write db");
}

fn expected() -> Vec<Value> {
    let text = std::fs::read_to_string(Path::new(FIXTURE).join("expected.json")).expect("read");
    let v: Value = serde_json::from_str(&text).expect("expected.json");
    v["tables"].as_array().cloned().expect("tables")
}

/// The first snapshot a spectator gets.
async fn snapshot(addr: std::net::SocketAddr, table: &str, token: &str) -> Value {
    let mut watcher = Client::watch(addr, table, token).await.expect("watch");
    loop {
        let m = watcher.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "snapshot" {
            return m["table"].clone();
        }
        assert_ne!(m["type"], "error", "{table}: {m}");
    }
}

/// Every discard on the table: the rivers' lengths added up.
fn discards(snapshot: &Value) -> usize {
    snapshot["view"]["seats"]
        .as_array()
        .map(|seats| {
            seats
                .iter()
                .map(|s| s["river"].as_array().map_or(0, Vec::len))
                .sum()
        })
        .unwrap_or(0)
}

/// Families whose engine discards for a seat without a logged action (two-player's locked
/// ready hand, Beijing's 海底 tile that must be thrown): their rivers hold at least the
/// logged discards.
fn discards_unlogged(ruleset: &str) -> bool {
    ruleset == "two-player" || ruleset.starts_with("beijing")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_before_versioned_formats_restores_its_tables_and_replays_its_hands() {
    let dir = std::env::temp_dir().join(format!("mahjong-stored-v0-{}", std::process::id()));
    unpack(&dir);
    let clock = server::time::ManualTime::new();
    let mut config = common::config(&dir, None);
    config.time = clock.source();
    // Seats whose players escaped before the crash are the bot's at once: at this pace, on a
    // clock that stands still, nothing moves until the test has looked.
    config.takeover_ms = 1_000;
    let running = server::start(config)
        .await
        .expect("start on the old database");
    let addr = running.addr;
    let (_, token) = common::guest(addr, "考古").await;
    let tables = expected();
    assert!(tables.len() >= 26, "the fixture has every preset twice");

    // Every table left in play is live again, where the log left it.
    let mut dealt = Vec::new();
    let mut finished_at_restore = 0;
    for t in tables.iter().filter(|t| t["status"] == "playing") {
        let id = t["table"].as_str().expect("id");
        let ruleset = t["ruleset"].as_str().expect("ruleset");
        let s = snapshot(addr, id, &token).await;
        let played = t["hands_played"].as_u64().expect("n");
        if s["hand_no"].as_u64() == Some(played + 1) {
            // The log held the whole hand but the crash came before it was stored: the
            // restored room stores it at once, settled as play settled it.
            let hands = common::stored_hands(addr, id).await;
            assert_eq!(
                hands.len() as u64,
                played + 1,
                "{ruleset} {id}: stored at restore"
            );
            let last = &hands[played as usize]["seats"];
            let scores: Vec<i64> = (0..last.as_array().map_or(0, Vec::len))
                .map(|i| {
                    t["scores"][i].as_i64().unwrap_or(0) + last[i]["delta"].as_i64().unwrap_or(0)
                })
                .collect();
            assert_eq!(
                s["scores"],
                serde_json::json!(scores),
                "{ruleset} {id}: scores"
            );
            assert!(s["view"].is_null(), "{ruleset} {id}: between hands");
            finished_at_restore += 1;
            continue;
        }
        assert_eq!(s["hand_no"], played, "{ruleset} {id}: hand");
        assert_eq!(s["scores"], t["scores"], "{ruleset} {id}: scores");
        // A hand in play is there again; a table stopped between hands deals its next one.
        assert!(
            s["view"].is_object() || t["dealt"] == false,
            "{ruleset} {id}: {s}"
        );
        let logged = t["logged_discards"].as_u64().expect("count") as usize;
        if discards_unlogged(ruleset) {
            assert!(
                discards(&s) >= logged,
                "{ruleset} {id}: rivers {}",
                discards(&s)
            );
        } else {
            assert_eq!(discards(&s), logged, "{ruleset} {id}: rivers");
        }
        if t["dealt"] == true {
            dealt.push((id.to_string(), t["hands_played"].as_u64().expect("n")));
        }
    }
    assert!(dealt.len() >= 8, "hands in play: {}", dealt.len());
    eprintln!(
        "{} hands in play restored, {finished_at_restore} stored at restore",
        dealt.len()
    );

    // Every stored hand replays: its record, and its stream to the same settlement.
    for t in &tables {
        let id = t["table"].as_str().expect("id");
        let hands = common::stored_hands(addr, id).await;
        assert_eq!(
            hands.len() as u64,
            t["stored_hands"].as_u64().expect("n"),
            "{id}"
        );
        for hand in &hands {
            let n = hand["hand_no"].as_u64().expect("hand_no");
            let path = format!("/api/tables/{id}/hands/{n}");
            let (status, replay) = common::http(addr, "GET", &path, None, None)
                .await
                .expect("get");
            assert_eq!(status, 200, "{path}: {replay}");
            assert_eq!(replay["record"]["ruleset"], t["ruleset"], "{path}");
            let (status, stream) = common::http(addr, "GET", &format!("{path}/stream"), None, None)
                .await
                .expect("get");
            assert_eq!(status, 200, "{path}/stream: {stream}");
            let over = stream["frames"]
                .as_array()
                .and_then(|f| f.last())
                .cloned()
                .unwrap_or_default();
            assert_eq!(over["type"], "hand_over", "{path}/stream");
            assert_eq!(
                over["settlement"]["deltas"], hand["settlement"]["deltas"],
                "{path}: the replay settles as the stored hand did"
            );
        }
    }

    // The restored hands play on: once the restore grace has passed, the bots finish each of
    // them and it is stored like any hand.
    clock.advance(Duration::from_secs(1));
    for (id, hand_no) in &dealt {
        common::eventually(&format!("{id} finishes hand {hand_no}"), async || {
            clock.advance(Duration::from_millis(100));
            common::stored_hands(addr, id).await.len() as u64 > *hand_no
        })
        .await;
    }
    running.task.abort();
    server::stop_rooms(&running.state).await;
    running.state.store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
