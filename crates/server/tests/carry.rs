//! The Shanghai 荒番 counter at a served table: stored with every hand, kept across a server
//! restart, reset (and stored at once) when a player leaves between hands.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{Client, choose, create_room, guest, prompt_of};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

/// A server over the SQLite database in `dir`, slow to deal the next hand so a test can act
/// between hands.
async fn start(dir: &Path) -> server::Running {
    let mut config = common::config(dir, None);
    config.next_hand_ms = 1_500;
    server::start(config).await.expect("start server")
}

async fn stop(running: server::Running) {
    server::stop_rooms(&running.state).await;
    running.task.abort();
    running.state.store.close().await;
}

/// The table's carried state as stored.
async fn stored_draw_bonus(running: &server::Running, table: &str) -> u64 {
    let id = store::TableId::parse(table).expect("table id");
    let record = running.state.store.table(&id).await.expect("table");
    record.carried["draw_bonus"].as_u64().expect("draw_bonus")
}

/// Plays until a hand ends; returns its `hand_over`.
async fn play_hand(client: &mut Client) -> Value {
    loop {
        let m = match client.next(WAIT).await {
            Ok(Some(m)) => m,
            other => panic!(
                "{other:?} after {:?}",
                &client.received[client.received.len().saturating_sub(4)..]
            ),
        };
        if let Some(legal) = prompt_of(&m) {
            client.act(choose(&legal)).await.expect("act");
        } else if m["type"] == "hand_over" {
            return m;
        } else {
            assert_ne!(m["type"], "error", "{m}");
        }
    }
}

/// The next `snapshot` the client receives.
async fn snapshot(client: &mut Client) -> Value {
    loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "snapshot" {
            return m;
        }
    }
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mahjong-carry-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_draw_bonus_survives_a_restart_and_a_leave_between_hands_resets_it_in_the_store() {
    let dir = temp_dir();
    let running = start(&dir).await;
    let addr = running.addr;
    let (_, token) = guest(addr, "荒番").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "shanghai", "hands": 40, "bots": ["basic", "basic", "basic"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    // Play until a hand is drawn: the counter is then up, and stored with that hand.
    let mut drawn = false;
    for _ in 0..40 {
        let over = play_hand(&mut client).await;
        if over["settlement"]["fans"]
            .as_array()
            .is_some_and(Vec::is_empty)
        {
            drawn = true;
            break;
        }
    }
    assert!(drawn, "no drawn hand in 40 Shanghai hands");
    let counter = stored_draw_bonus(&running, &table).await;
    assert!(counter >= 1, "a drawn hand raises the stored counter");
    drop(client);
    stop(running).await;

    // Restarted on the same database: the table comes back with its counter.
    let running = start(&dir).await;
    let addr = running.addr;
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect after the restart");
    let snap = snapshot(&mut client).await;
    assert_eq!(snap["table"]["draw_bonus"], json!(counter), "{snap}");
    assert_eq!(stored_draw_bonus(&running, &table).await, counter);
    if let Some(legal) = snap["table"]["prompt"]["legal"].as_array() {
        client.act(choose(legal)).await.expect("act");
    }

    // Between hands the player leaves: the counter belongs to the people seated, so it is 0
    // now, in the store too, without waiting for another hand.
    let mut after = counter;
    while after == 0 || !client.received.iter().any(|m| m["type"] == "hand_over") {
        play_hand(&mut client).await;
        after = stored_draw_bonus(&running, &table).await;
    }
    client.send(json!({"type": "leave"})).await.expect("leave");
    let mut reset = false;
    for _ in 0..50 {
        if stored_draw_bonus(&running, &table).await == 0 {
            reset = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        reset,
        "the stored counter ({after}) was not reset by the leave"
    );
    stop(running).await;
    let _ = std::fs::remove_dir_all(&dir);
}
