//! `mahjong serve` killed with SIGKILL in the middle of a hand, and either started again under
//! its name or replaced by another node on the same database (which adopts the table once the
//! dead node's lease lapses): the table is rebuilt from the store, the player reconnects to the
//! same seat and hand, and the hand ends with the settlement a replay of its log gives, stored
//! once.

#[path = "../../server/tests/common/mod.rs"]
mod common;

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{Client, choose, guest, http, prompt_of};
use engine::stored::Document;
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

fn serve(dir: &std::path::Path, port: u16, database: Option<&str>) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mahjong"));
    command
        .args(["serve", "--port", &port.to_string(), "--grace-ms", "10000"])
        .args(["--node-lease-ms", "1000"])
        .args([
            "--next-hand-ms",
            "50",
            "--claim-window-ms",
            "0",
            "--data-dir",
        ])
        .arg(dir)
        .env_remove("DATABASE_URL");
    if let Some(url) = database {
        command.args(["--database-url", url]);
    }
    command
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start mahjong serve")
}

async fn healthy(addr: std::net::SocketAddr) {
    for _ in 0..200 {
        if let Ok((200, _)) = http(addr, "GET", "/healthz", None, None).await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not come up");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_resumes_the_hand_it_was_playing() {
    killed_and_resumed(None, Back::SameNode).await;
    killed_and_resumed(None, Back::AnotherNode).await;
    if let Some(admin) = std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
    {
        use sqlx_pg::Connection;
        let name = format!("mahjong_restart_test_{}", std::process::id());
        let mut c = sqlx_pg::PgConnection::connect(&admin)
            .await
            .expect("reach TEST_DATABASE_URL");
        let _ = sqlx_pg::raw_sql(sqlx_pg::AssertSqlSafe(format!(
            "DROP DATABASE IF EXISTS {name}"
        )))
        .execute(&mut c)
        .await;
        sqlx_pg::raw_sql(sqlx_pg::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut c)
            .await
            .expect("create test database");
        let url = common::with_database(&admin, &name);
        killed_and_resumed(Some(&url), Back::SameNode).await;
        killed_and_resumed(Some(&url), Back::AnotherNode).await;
        let _ = sqlx_pg::raw_sql(sqlx_pg::AssertSqlSafe(format!(
            "DROP DATABASE {name} WITH (FORCE)"
        )))
        .execute(&mut c)
        .await;
    }
}

/// Who plays the table after the kill.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Back {
    /// The server started again on its port: the same node name, which takes its tables back
    /// at once.
    SameNode,
    /// Another node (another port, so another name) on the same database: it adopts the table
    /// when the dead node's lease lapses.
    AnotherNode,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Connects to `table` on `addr` until the node serves it (a node adopting it may not yet):
/// the client and the first message, a snapshot.
async fn when_served(
    addr: std::net::SocketAddr,
    table: &str,
    token: &str,
    last: u64,
) -> (Client, Value) {
    for _ in 0..200 {
        if let Ok(mut client) = Client::connect(addr, table, token, Some(last)).await
            && let Ok(Some(first)) = client.next(WAIT).await
            && first["type"] == "snapshot"
        {
            return (client, first);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("table {table} not served on {addr} within 10 s");
}

async fn killed_and_resumed(database: Option<&str>, back: Back) {
    let dir = std::env::temp_dir().join(format!("mahjong-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let port = free_port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
    let mut child = serve(&dir, port, database);
    healthy(addr).await;
    let (_, token) = guest(addr, "重启").await;
    let (status, room) = http(
        addr,
        "POST",
        "/api/rooms",
        Some(&token),
        Some(
            json!({"ruleset": "sichuan-xuezhan", "hands": 1, "action_seconds": 120,
                    "bots": ["basic", "basic", "basic"]}),
        ),
    )
    .await
    .expect("create room");
    assert_eq!(status, 201, "{room}");
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    // Three decisions, each acknowledged: `ack` means the action is in the table's log.
    let mut acked: Vec<Value> = Vec::new();
    let mut waiting: Option<(u64, Value)> = None;
    while acked.len() < 3 || waiting.is_some() {
        let m = client.next(WAIT).await.expect("message").expect("open");
        assert_ne!(m["type"], "hand_over", "the hand ended before the crash");
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "ack"
            && let Some((id, action)) = waiting.take()
        {
            assert_eq!(m["id"].as_u64(), Some(id), "{m}");
            acked.push(action);
        }
        if let Some(legal) = prompt_of(&m)
            && waiting.is_none()
            && acked.len() < 3
        {
            let action = choose(&legal);
            let id = client.act(action.clone()).await.expect("act");
            waiting = Some((id, action));
        }
    }
    // Killed without warning, right after the last acknowledgement.
    let last = client.last_seq;
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    drop(client);
    let port = match back {
        Back::SameNode => port,
        Back::AnotherNode => free_port(),
    };
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
    let mut child = serve(&dir, port, database);
    healthy(addr).await;
    let (mut client, first) = when_served(addr, &table, &token, last).await;
    assert_eq!(
        first["type"], "snapshot",
        "a restarted server sends the whole table: {first}"
    );
    // A restored table numbers its streams from the restore's time: forward, never back.
    assert!(
        first["seq"].as_u64().is_some_and(|s| s > last),
        "seq never goes back: {first}"
    );
    assert_acked_in_view(&acked, &first);
    let view = &first["table"]["view"];
    assert!(view.is_object(), "the same hand is in play: {first}");
    let mut pending = prompt_of(&first);
    let over = loop {
        if let Some(legal) = pending.take() {
            client.act(choose(&legal)).await.expect("act");
        }
        let m = client.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "hand_over" {
            break m;
        }
        pending = prompt_of(&m);
    };
    // The stored hand replays, from its seed and actions, to the settlement that was paid.
    let (status, stored) = http(
        addr,
        "GET",
        &format!("/api/tables/{table}/hands/0"),
        None,
        None,
    )
    .await
    .expect("replay");
    assert_eq!(status, 200, "{stored}");
    let record = engine::stored::StoredHandRecord::read(&stored["record"])
        .and_then(|r| engine::record::HandRecord::try_from(&r))
        .expect("a hand record");
    assert_eq!(
        record.seed.to_string(),
        over["seed"].as_str().unwrap_or_default()
    );
    // The log the hand was finished from starts, for this seat, with every acknowledged action.
    let own: Vec<Value> = record
        .actions
        .iter()
        .filter(|(seat, _)| seat.index() == 0)
        .map(|&(_, a)| serde_json::to_value(protocol::WireAction::from(a)).expect("json"))
        .collect();
    assert!(
        own.len() >= acked.len() && own[..acked.len()] == acked[..],
        "acknowledged {acked:?}, the stored hand has {own:?}"
    );
    let replayed = record.replay().expect("the record replays");
    let deltas: Vec<i64> = replayed.settlement().expect("settled").deltas.0.to_vec();
    let paid: Vec<i64> = over["settlement"]["deltas"]
        .as_array()
        .map(|d| d.iter().filter_map(|x| x.as_i64()).collect())
        .unwrap_or_default();
    assert_eq!(deltas, paid);
    let stored_deltas: Vec<i64> = stored["seats"]
        .as_array()
        .map(|s| s.iter().filter_map(|x| x["delta"].as_i64()).collect())
        .unwrap_or_default();
    assert_eq!(stored_deltas, paid);
    child.kill().expect("stop");
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The resumed hand shows what the acknowledged actions did: the declared void, and the
/// discards in order at the head of the seat's river.
fn assert_acked_in_view(acked: &[Value], snapshot: &Value) {
    let view = &snapshot["table"]["view"];
    assert!(view.is_object(), "the same hand is in play: {snapshot}");
    for action in acked.iter().filter(|a| a["type"] == "declare_void") {
        assert_eq!(view["own_void"], action["suit"], "the void: {snapshot}");
    }
    let discarded: Vec<&Value> = acked
        .iter()
        .filter(|a| a["type"] == "discard")
        .map(|a| &a["tile"])
        .collect();
    let river: Vec<&Value> = view["seats"][0]["river"]
        .as_array()
        .map(|r| r.iter().map(|d| &d["tile"]).collect())
        .unwrap_or_default();
    assert!(
        river.len() >= discarded.len() && river[..discarded.len()] == discarded[..],
        "acknowledged discards {discarded:?}, the resumed river {river:?}"
    );
}
