//! Test harness: a server on a free loopback port over a fresh database (SQLite, or PostgreSQL
//! when TEST_DATABASE_URL is set and the test asks for it), a minimal HTTP client, and a
//! WebSocket client that speaks the protocol.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// A running server and where its database lives.
pub struct TestServer {
    /// `sqlite` or `postgres`.
    pub backend: &'static str,
    pub addr: SocketAddr,
    pub running: server::Running,
    pub dir: PathBuf,
    /// The PostgreSQL database to drop afterwards, and the server URL to drop it from.
    pub pg: Option<(String, String)>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.running.task.abort();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl TestServer {
    /// Stops the server and drops its PostgreSQL database, if any.
    pub async fn finish(self) {
        self.running.task.abort();
        self.running.state.store.close().await;
        if let Some((admin, name)) = &self.pg
            && let Ok(mut c) = <sqlx_pg::PgConnection as sqlx_pg::Connection>::connect(admin).await
        {
            let _ = sqlx_pg::raw_sql(sqlx_pg::AssertSqlSafe(format!(
                "DROP DATABASE {name} WITH (FORCE)"
            )))
            .execute(&mut c)
            .await;
        }
    }
}

/// A server on each backend: SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
pub async fn servers() -> Vec<TestServer> {
    let mut out = vec![sqlite_server().await];
    out.extend(postgres_server().await);
    out
}

/// A server on a fresh PostgreSQL database, when TEST_DATABASE_URL names a server.
pub async fn postgres_server() -> Option<TestServer> {
    let admin = std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())?;
    let name = format!(
        "mahjong_server_test_{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let mut c = <sqlx_pg::PgConnection as sqlx_pg::Connection>::connect(&admin)
        .await
        .expect("reach TEST_DATABASE_URL");
    sqlx_pg::raw_sql(sqlx_pg::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut c)
        .await
        .expect("create test database");
    let url = with_database(&admin, &name);
    let dir = temp_dir();
    let running = server::start(config(&dir, Some(url)))
        .await
        .expect("start server on postgres");
    Some(TestServer {
        backend: "postgres",
        addr: running.addr,
        running,
        dir,
        pg: Some((admin, name)),
    })
}

/// `admin` with its database replaced by `name`.
pub fn with_database(admin: &str, name: &str) -> String {
    let (base, query) = match admin.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (admin, String::new()),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    format!("{host}/{name}{query}")
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mahjong-server-test-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Settings fast enough for tests.
pub fn config(dir: &std::path::Path, database_url: Option<String>) -> server::Config {
    let mut c = server::Config::defaults();
    c.data_dir = dir.to_path_buf();
    c.database_url = database_url;
    c.grace_ms = 200;
    c.restore_grace_ms = 200;
    // The bot answers for an absent player at once; the pace test sets its own.
    c.takeover_ms = 0;
    c.reconnect_ms = 1500;
    c.next_hand_ms = 50;
    c.quick_fill_ms = 300;
    // Fast tests hold no claim windows; the fairness test sets its own.
    c.claim_window_ms = 0;
    // Test clients answer at once, far faster than people, and sign up by the hundred from one
    // address; the limits test sets its own.
    c.client_rate = 10_000;
    c.http_rate = 1_000_000;
    c
}

/// A server on SQLite in a fresh directory.
pub async fn sqlite_server() -> TestServer {
    sqlite_server_with(|_| {}).await
}

/// A server on SQLite with settings changed by `change`.
pub async fn sqlite_server_with(change: impl FnOnce(&mut server::Config)) -> TestServer {
    let dir = temp_dir();
    let mut settings = config(&dir, None);
    change(&mut settings);
    let running = server::start(settings).await.expect("start server");
    TestServer {
        backend: "sqlite",
        addr: running.addr,
        running,
        dir,
        pg: None,
    }
}

/// A server on SQLite whose rooms run on a hand-driven clock (settings changed by `change`):
/// no deadline, claim window, grace or spectator delay passes until the test advances it.
pub async fn sqlite_server_on_clock(
    change: impl FnOnce(&mut server::Config),
) -> (TestServer, server::time::ManualTime) {
    let clock = server::time::ManualTime::new();
    let time = clock.source();
    let server = sqlite_server_with(|c| {
        c.time = time;
        change(c);
    })
    .await;
    (server, clock)
}

/// Waits until `check` holds, looking again every few milliseconds, for 20 s at most. A wait
/// for something the server does in its own time (a hand stored, a request queued), never a
/// measure of how long it took.
pub async fn eventually(what: &str, mut check: impl AsyncFnMut() -> bool) {
    for _ in 0..2_000 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("not within 20 s: {what}");
}

static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// An HTTP answer: its status, its header block (lower-cased) and its body as JSON (a string
/// when it is not JSON, null when empty).
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: Value,
}

/// Sends a request exactly as given, on a connection of its own: its request line (`GET /x`),
/// header lines (each ending in CRLF) and body. The server may answer (413, say) before it has
/// read the whole body; a write that fails then is not an error.
pub async fn raw(
    addr: SocketAddr,
    line: &str,
    headers: &str,
    body: &[u8],
) -> anyhow::Result<Answer> {
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let head = format!(
        "{line} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    let _ = stream.write_all(body).await;
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes).await;
    let text = String::from_utf8_lossy(&bytes).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").context("no header end")?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .context("no status")?
        .parse()?;
    let head = head.to_ascii_lowercase();
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    let body = if body.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&body).unwrap_or(Value::String(body))
    };
    Ok(Answer { status, head, body })
}

/// A JSON request: the status and the body.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> anyhow::Result<(u16, Value)> {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let headers = format!("{auth}Content-Type: application/json\r\n");
    let answer = raw(addr, &format!("{method} {path}"), &headers, body.as_bytes()).await?;
    Ok((answer.status, answer.body))
}

/// A chunked body's text. A body that is not text (gzip, say: read lossily, its chunk sizes
/// no longer match) ends where a chunk cannot be cut.
fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        let (Some(chunk), Some(after)) = (rest.get(..n), rest.get(n..)) else {
            break;
        };
        if n == 0 {
            break;
        }
        out.push_str(chunk);
        s = after.trim_start_matches("\r\n");
    }
    out
}

/// A signed-up guest: (player id, token).
pub async fn guest(addr: SocketAddr, name: &str) -> (String, String) {
    let (status, body) = http(
        addr,
        "POST",
        "/api/guests",
        None,
        Some(json!({"display_name": name})),
    )
    .await
    .expect("sign up");
    assert_eq!(status, 201, "{body}");
    (
        body["player"].as_str().unwrap_or_default().to_string(),
        body["token"].as_str().unwrap_or_default().to_string(),
    )
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Creates a room as the holder of `token` (`body` as `POST /api/rooms` takes it); the answer
/// must be 201. Returns the answer (`table`, `seat`, `code`).
pub async fn create_room(addr: SocketAddr, token: &str, body: Value) -> Value {
    let (status, room) = http(addr, "POST", "/api/rooms", Some(token), Some(body))
        .await
        .expect("create room");
    assert_eq!(status, 201, "{room}");
    room
}

/// Joins the room with `code` as the holder of `token`; the answer must be 200.
pub async fn join_room(addr: SocketAddr, token: &str, code: &str) {
    let (status, body) = http(
        addr,
        "POST",
        "/api/rooms/join",
        Some(token),
        Some(json!({ "code": code })),
    )
    .await
    .expect("join");
    assert_eq!(status, 200, "{body}");
}

/// Every preset a room may play, with its number of seats, as `GET /api/rulesets` lists them.
pub async fn presets(addr: SocketAddr) -> Vec<(String, usize)> {
    let (status, list) = http(addr, "GET", "/api/rulesets", None, None)
        .await
        .expect("rulesets");
    assert_eq!(status, 200, "{list}");
    let presets: Vec<(String, usize)> = list
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| {
            Some((
                r["id"].as_str()?.to_string(),
                r["players"].as_u64()? as usize,
            ))
        })
        .collect();
    assert!(presets.len() >= 12, "every preset is listed: {list}");
    presets
}

/// A table's stored hands, as `GET /api/tables/{table}/hands` lists them.
pub async fn stored_hands(addr: SocketAddr, table: &str) -> Vec<Value> {
    let (status, hands) = http(
        addr,
        "GET",
        &format!("/api/tables/{table}/hands"),
        None,
        None,
    )
    .await
    .expect("hands");
    assert_eq!(status, 200, "{hands}");
    hands.as_array().cloned().unwrap_or_default()
}

/// Where tests leave files for people and for CI (screenshots, the OpenAPI document):
/// `$CARGO_TARGET_DIR/artifacts`, else the workspace's `target/artifacts`.
pub fn artifacts() -> PathBuf {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|t| !t.is_empty())
        .map(PathBuf::from)
        .map(|t| {
            if t.is_absolute() {
                t
            } else {
                workspace.join(t)
            }
        })
        .unwrap_or_else(|| workspace.join("target"));
    target.join("artifacts")
}

/// The value of a counter or gauge in the `/metrics` text (its line without labels).
pub async fn metric(addr: SocketAddr, name: &str) -> f64 {
    let (status, text) = http(addr, "GET", "/metrics", None, None)
        .await
        .expect("metrics");
    assert_eq!(status, 200);
    text.as_str()
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("{name} in /metrics"))
}

/// A protocol client on one table.
pub struct Client {
    pub socket: Socket,
    /// Every message received, in order.
    pub received: Vec<Value>,
    pub last_seq: u64,
    /// The close frame's code and reason, once the server closed the socket.
    pub closed: Option<(u16, String)>,
    next_id: u64,
}

impl Client {
    /// Connects and says hello.
    pub async fn connect(
        addr: SocketAddr,
        table: &str,
        token: &str,
        last_seq: Option<u64>,
    ) -> anyhow::Result<Client> {
        let url = format!("ws://{addr}/ws/tables/{table}");
        let (socket, _) = tokio_tungstenite::connect_async(url).await?;
        let mut client = Client {
            socket,
            received: Vec::new(),
            last_seq: last_seq.unwrap_or(0),
            closed: None,
            next_id: 1,
        };
        client
            .send(json!({"type": "hello", "token": token, "last_seq": last_seq}))
            .await?;
        Ok(client)
    }

    /// Connects as a spectator and says hello.
    pub async fn watch(addr: SocketAddr, table: &str, token: &str) -> anyhow::Result<Client> {
        let url = format!("ws://{addr}/ws/tables/{table}/watch");
        let (socket, _) = tokio_tungstenite::connect_async(url).await?;
        let mut client = Client {
            socket,
            received: Vec::new(),
            last_seq: 0,
            closed: None,
            next_id: 1,
        };
        client
            .send(json!({"type": "hello", "token": token}))
            .await?;
        Ok(client)
    }

    pub async fn send(&mut self, v: Value) -> anyhow::Result<()> {
        self.socket
            .send(Message::Text(v.to_string().into()))
            .await?;
        Ok(())
    }

    /// Sends an action with a fresh id; returns the id.
    pub async fn act(&mut self, action: Value) -> anyhow::Result<u64> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"type": "act", "id": id, "action": action}))
            .await?;
        Ok(id)
    }

    /// A round trip through the room: an action the Sichuan rules never allow, whose refusal
    /// comes back from the room's own task after everything it had to do before. Returns the
    /// messages that arrived before the refusal (and keeps them in `received`).
    pub async fn sync(&mut self) -> Vec<Value> {
        let id = self
            .act(json!({"type": "decline_last"}))
            .await
            .expect("send");
        let mut before = Vec::new();
        loop {
            let m = self
                .next(Duration::from_secs(20))
                .await
                .expect("a reply")
                .expect("open");
            if m["type"] == "error" && m["id"].as_u64() == Some(id) {
                return before;
            }
            before.push(m);
        }
    }

    /// The next message (None when the socket closed), within `wait`.
    pub async fn next(&mut self, wait: Duration) -> anyhow::Result<Option<Value>> {
        loop {
            let frame = tokio::time::timeout(wait, self.socket.next())
                .await
                .context("no message in time")?;
            match frame {
                None => return Ok(None),
                Some(Err(e)) => bail!("socket error: {e}"),
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t)?;
                    if let Some(seq) = v["seq"].as_u64() {
                        // A snapshot starts the stream afresh (proto/README.md, "Frames").
                        assert!(
                            seq > self.last_seq || self.last_seq == 0 || v["type"] == "snapshot",
                            "seq went back: {seq} after {}",
                            self.last_seq
                        );
                        self.last_seq = seq;
                    }
                    self.received.push(v.clone());
                    return Ok(Some(v));
                }
                Some(Ok(Message::Close(frame))) => {
                    self.closed = frame.map(|f| (u16::from(f.code), f.reason.to_string()));
                    return Ok(None);
                }
                Some(Ok(_)) => continue,
            }
        }
    }
}

/// The legal actions a message asks for: a `prompt`, or a `snapshot` holding one.
pub fn prompt_of(m: &Value) -> Option<Vec<Value>> {
    let prompt = match m["type"].as_str() {
        Some("prompt") => m,
        Some("snapshot") => &m["table"]["prompt"],
        _ => return None,
    };
    prompt["legal"].as_array().cloned()
}

/// A simple player: wins when it can, declares the first void offered, discards the first
/// legal discard, passes claims.
pub fn choose(legal: &[Value]) -> Value {
    let kind = |t: &str| legal.iter().find(|a| a["type"] == t).cloned();
    kind("self_draw_win")
        .or_else(|| kind("win"))
        .or_else(|| kind("declare_void"))
        .or_else(|| kind("discard"))
        .or_else(|| kind("pass"))
        .unwrap_or_else(|| legal.first().cloned().unwrap_or(Value::Null))
}

/// Reads until the first prompt (the hand is then waiting on this player, so nothing else
/// moves on the hand-driven clock).
pub async fn until_prompt(client: &mut Client) -> Value {
    loop {
        let m = client
            .next(Duration::from_secs(20))
            .await
            .expect("message")
            .expect("open");
        if prompt_of(&m).is_some() {
            return m;
        }
    }
}

/// A guest's room of `ruleset` with three bots, `hands` long, connected, and its first hand
/// dealt: (player id, token, table, client).
pub async fn alone_with_bots(
    addr: std::net::SocketAddr,
    ruleset: &str,
    hands: u32,
) -> (String, String, String, Client) {
    let (id, token) = guest(addr, "逃跑者").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": ruleset, "hands": hands, "bots": ["basic", "basic", "basic"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    until_prompt(&mut client).await;
    (id, token, table, client)
}
