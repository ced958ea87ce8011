//! An escape survives the server going away before the hand escaped from ends: a player
//! `leave`s a 3-hand Shanghai room in its first hand, and `mahjong serve` is killed (SIGKILL)
//! or stopped (SIGTERM, an ordinary deploy) while the bot still plays that hand. Started
//! again, the server finishes the match, and everything the escape promised holds: the escape
//! is recorded once, charged to the hand escaped from, that hand is the escaper's and the
//! later ones nobody's, and the leaderboard subtracts the penalty. On SQLite, and on
//! PostgreSQL when `TEST_DATABASE_URL` names a server.

#[path = "../../server/tests/common/mod.rs"]
mod common;

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{Client, guest, http};
use serde_json::{Value, json};

/// Shanghai's escape penalty (shanghai.md, "Escape and leaving").
const PENALTY: i64 = 15;

/// How the server goes away.
#[derive(Clone, Copy, Debug)]
enum Stop {
    Kill,
    Term,
}

/// `mahjong serve` on `port` over `dir` (or `database`), the bot taking `takeover_ms` over each
/// decision it makes for an escaper.
fn serve(dir: &std::path::Path, port: u16, database: Option<&str>, takeover_ms: u64) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mahjong"));
    command
        .args(["serve", "--port", &port.to_string()])
        .args(["--takeover-ms", &takeover_ms.to_string()])
        .args(["--next-hand-ms", "50", "--claim-window-ms", "0"])
        .args(["--node-lease-ms", "1000", "--data-dir"])
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
    for _ in 0..400 {
        if let Ok((200, _)) = http(addr, "GET", "/healthz", None, None).await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not come up");
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

async fn get(addr: std::net::SocketAddr, path: &str) -> Value {
    let (status, body) = http(addr, "GET", path, None, None).await.expect(path);
    assert_eq!(status, 200, "{path}: {body}");
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_escape_outlives_a_restart_before_its_hand_ends() {
    for stop in [Stop::Kill, Stop::Term] {
        escaped_then_restarted(None, stop).await;
    }
    let Some(admin) = std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        eprintln!("TEST_DATABASE_URL unset: the PostgreSQL half is skipped");
        return;
    };
    use sqlx_pg::Connection;
    for stop in [Stop::Kill, Stop::Term] {
        let name = format!("mahjong_escape_test_{}_{stop:?}", std::process::id()).to_lowercase();
        let mut c = sqlx_pg::PgConnection::connect(&admin)
            .await
            .expect("reach TEST_DATABASE_URL");
        for sql in [
            format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            format!("CREATE DATABASE {name}"),
        ] {
            sqlx_pg::raw_sql(sqlx_pg::AssertSqlSafe(sql))
                .execute(&mut c)
                .await
                .expect("create the test database");
        }
        let url = common::with_database(&admin, &name);
        escaped_then_restarted(Some(&url), stop).await;
        let _ = sqlx_pg::raw_sql(sqlx_pg::AssertSqlSafe(format!(
            "DROP DATABASE {name} WITH (FORCE)"
        )))
        .execute(&mut c)
        .await;
    }
}

async fn escaped_then_restarted(database: Option<&str>, stop: Stop) {
    eprintln!(
        "== {stop:?} on {}",
        database.map_or("SQLite", |_| "PostgreSQL")
    );
    let dir = std::env::temp_dir().join(format!("mahjong-escape-{}-{stop:?}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let port = free_port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
    // Half a second for each of the escaper's decisions: the hand is far from over when the
    // server goes away.
    let mut child = serve(&dir, port, database, 500);
    healthy(addr).await;
    let (player, token) = guest(addr, "逃跑者").await;
    let (status, room) = http(
        addr,
        "POST",
        "/api/rooms",
        Some(&token),
        Some(json!({"ruleset": "shanghai", "hands": 3, "bots": ["basic", "basic", "basic"]})),
    )
    .await
    .expect("create room");
    assert_eq!(status, 201, "{room}");
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    common::until_prompt(&mut client).await;
    client.send(json!({"type": "leave"})).await.expect("leave");
    while client
        .next(Duration::from_secs(20))
        .await
        .ok()
        .flatten()
        .is_some()
    {}
    assert_eq!(client.closed, Some((1000, "left".to_string())));
    let expected = json!([{"table": table, "hand_no": 0, "points": PENALTY}]);
    let path = format!("/api/players/{player}/escapes");
    let mut recorded = Value::Null;
    for _ in 0..100 {
        recorded = get(addr, &path).await;
        if recorded == expected {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(recorded, expected, "recorded when it happens");
    assert_eq!(
        get(addr, &format!("/api/tables/{table}/hands")).await,
        json!([]),
        "the hand escaped from is still in play when the server goes away"
    );
    match stop {
        Stop::Kill => child.kill().expect("SIGKILL"),
        Stop::Term => {
            let status = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status()
                .expect("run kill");
            assert!(status.success());
        }
    }
    let _ = child.wait();
    let mut child = serve(&dir, port, database, 10);
    healthy(addr).await;
    let mut hands = Vec::new();
    for _ in 0..1_200 {
        hands = common::stored_hands(addr, &table).await;
        if hands.len() == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(hands.len(), 3, "the restarted server finishes the match");
    assert_eq!(get(addr, &path).await, expected, "{stop:?}: recorded once");
    let credited: Vec<Value> = hands
        .iter()
        .map(|h| h["seats"][0]["player"].clone())
        .collect();
    assert_eq!(
        credited,
        [json!(player), Value::Null, Value::Null],
        "{stop:?}: the hand escaped from is the escaper's: {hands:?}"
    );
    let board = get(addr, "/api/leaderboards/shanghai").await;
    let row = board
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["player"] == json!(player)))
        .cloned()
        .unwrap_or_else(|| panic!("the escaper is on the board: {board}"));
    assert_eq!(row["hands"], 1, "{stop:?}: {row}");
    let delta = hands[0]["seats"][0]["delta"].as_i64().unwrap_or_default();
    assert_eq!(row["score"], json!(delta - PENALTY), "{stop:?}: {row}");
    child.kill().expect("stop");
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
