//! The model held to the server's own snapshots, as the TypeScript SDK's reducer is: the game
//! server runs in this process with `--transcripts`, the load generator plays a few tables of
//! every preset, and the model replayed over every recorded stream must give the bot the same
//! view as the snapshot the server would have sent at each point where it could send one.

use std::collections::BTreeMap;
use std::path::Path;

use engine::RulesetId;
use protocol::{ServerMessage, TableSnapshot};
use serde_json::Value;

use super::SeatModel;
use crate::{Options, Target};

/// Every seat's lines of every transcript: (table, seat) → lines in order.
fn read(dir: &Path) -> BTreeMap<(String, u64), Vec<Value>> {
    let mut streams: BTreeMap<(String, u64), Vec<Value>> = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("the transcripts' folder") {
        let path = entry.expect("an entry").path();
        let table = path.file_stem().map(|s| s.to_string_lossy().to_string());
        let text = std::fs::read_to_string(&path).expect("a transcript");
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).expect("a JSON line");
            let seat = v["seat"].as_u64().expect("a seat");
            streams
                .entry((table.clone().unwrap_or_default(), seat))
                .or_default()
                .push(v);
        }
    }
    streams
}

/// A view in the form a snapshot can state: the wild's kind without the tile turned up to show
/// it, and flowers in one order (a snapshot lists them in none in particular).
fn canonical(mut v: engine::view::SeatView) -> engine::view::SeatView {
    if let Some(w) = &mut v.wild {
        w.indicator = w.wild;
    }
    for s in &mut v.seats {
        s.flowers.sort();
    }
    v
}

/// Replays each stream through the model; the points checked and the first differences.
fn check(streams: &BTreeMap<(String, u64), Vec<Value>>) -> (usize, Vec<String>) {
    let (mut points, mut differences) = (0, Vec::new());
    for ((table, seat), lines) in streams {
        // A client's first message is its snapshot: the stream before it was never received.
        let Some(first) = lines.iter().position(|l| l["frame"]["type"] == "snapshot") else {
            continue;
        };
        let ruleset = lines[first]["frame"]["table"]["ruleset"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let mut model = SeatModel::new(*seat as u8, &ruleset);
        for line in &lines[first..] {
            if let Some(frame) = line.get("frame") {
                let message: ServerMessage =
                    serde_json::from_value(frame.clone()).expect("a server message");
                model.apply(&message);
                continue;
            }
            points += 1;
            let snapshot: TableSnapshot =
                serde_json::from_value(line["snapshot"].clone()).expect("a snapshot");
            let mut truth = SeatModel::new(*seat as u8, &ruleset);
            truth.apply(&ServerMessage::Snapshot {
                table: Box::new(snapshot),
            });
            let (got, want) = (
                model.view(&[]).map(canonical),
                truth.view(&[]).map(canonical),
            );
            if got != want {
                if differences.len() < 3 {
                    differences.push(format!(
                        "{table} seat {seat} after seq {}:\n model {got:?}\n  snapshot {want:?}",
                        line["after"]
                    ));
                }
                model = truth;
            }
        }
    }
    (points, differences)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_equals_the_server_snapshot_at_every_point() {
    let dir = std::env::temp_dir().join(format!("mahjong-model-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut config = server::Config::defaults();
    config.port = 0;
    config.data_dir = dir.join("data");
    config.transcripts = Some(dir.join("transcripts"));
    config.claim_window_ms = 0;
    config.next_hand_ms = 20;
    config.client_rate = 10_000;
    config.http_rate = 1_000_000;
    let running = server::start(config).await.expect("start the game server");
    for id in RulesetId::ALL {
        let mut o = Options::defaults();
        o.addr = running.addr.to_string();
        o.ruleset = id.to_string();
        o.tables = 2;
        o.seconds = 1.0;
        o.warmup_seconds = 0.2;
        o.rate = 0.0;
        o.source_addrs = 1;
        o.deadline_seconds = Some(60.0);
        let report = crate::run(&o, Target::Game).await.expect("a run");
        assert!(report.actions > 0, "{id}: nothing played");
    }
    // The rooms play on without their clients: stopped, they write nothing more.
    server::stop_rooms(&running.state).await;
    running.task.abort();
    running.state.store.close().await;
    let streams = read(&dir.join("transcripts"));
    let (points, differences) = check(&streams);
    let _ = std::fs::remove_dir_all(&dir);
    println!("{} streams, {points} points checked", streams.len());
    assert!(points > 1_000, "only {points} points");
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
