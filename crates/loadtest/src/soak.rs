//! The soak run: many short rooms, one after another, through one server process, to show that
//! a server running for months holds what its live rooms need and nothing of the rooms it has
//! closed. Each room is a guest's with three bots, one hand long, played to its end over a real
//! socket (the guest answering its own prompts); when it is over the room lingers, then closes.
//! At every checkpoint the run reads the server's resident memory and times `/metrics` and the
//! room list, next to how many rooms are alive: those must follow the rooms alive, not the rooms
//! ever made.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::error::LoadError;
use crate::http::HttpClient;
use crate::net;
use crate::setup::SignedIn;

/// What a soak run does. Every flag is also an environment variable.
#[derive(Clone, Debug, clap::Args)]
pub struct SoakOptions {
    /// The server's address: an IPv4 loopback address and port.
    #[arg(long, env = "MAHJONG_SOAK_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Rooms to create and play to their end.
    #[arg(long, env = "MAHJONG_SOAK_ROOMS", default_value_t = 20_000)]
    pub rooms: usize,
    /// Rooms in play at once.
    #[arg(long, env = "MAHJONG_SOAK_CONCURRENCY", default_value_t = 64)]
    pub concurrency: usize,
    /// Rooms started a second at most (0: as fast as they finish). A finished room lingers
    /// for 20 s, so a steady rate gives a steady number of rooms alive, reached after 20 s:
    /// memory is then compared at the same load.
    #[arg(long, env = "MAHJONG_SOAK_RATE", default_value_t = 50.0)]
    pub rate: f64,
    /// Rooms finished between two checkpoints.
    #[arg(long, env = "MAHJONG_SOAK_EVERY", default_value_t = 2_000)]
    pub every: usize,
    /// The rooms' ruleset preset id.
    #[arg(long, env = "MAHJONG_SOAK_RULESET", default_value = "sichuan")]
    pub ruleset: String,
    /// The server's process id, to read its resident memory from /proc.
    #[arg(long, env = "MAHJONG_SOAK_SERVER_PID")]
    pub server_pid: Option<u32>,
    /// Source addresses to spread sockets over: 127.0.0.1 … 127.0.0.K.
    #[arg(long, env = "MAHJONG_SOAK_SOURCE_ADDRS", default_value_t = 4)]
    pub source_addrs: u8,
}

/// The server at one checkpoint.
#[derive(Clone, Debug, Serialize)]
pub struct Checkpoint {
    /// Rooms finished so far.
    pub rooms_finished: usize,
    /// Seconds since the run started.
    pub seconds: f64,
    /// The server's resident memory, in bytes.
    pub rss_bytes: Option<f64>,
    /// Rooms alive in the server (`mahjong_rooms`, every phase).
    pub rooms_alive: f64,
    /// Bytes of `/metrics`.
    pub metrics_bytes: usize,
    /// Milliseconds to get `/metrics`.
    pub metrics_ms: f64,
    /// Rooms in the public room list.
    pub listed_rooms: usize,
    /// Milliseconds to get the room list.
    pub list_ms: f64,
}

/// What a soak run found.
#[derive(Clone, Debug, Serialize)]
pub struct SoakReport {
    /// Rooms played to their end (their `hand_over` and `table_closed` received).
    pub rooms_finished: usize,
    /// Rooms that failed (set-up, socket or protocol), with the last error.
    pub rooms_failed: usize,
    /// The last failure's words.
    pub last_error: Option<String>,
    /// Seconds the run took.
    pub seconds: f64,
    /// Every checkpoint, the first after `every` rooms.
    pub checkpoints: Vec<Checkpoint>,
    /// Resident memory at the end over its level at the first checkpoint.
    pub rss_end_over_first: Option<f64>,
    /// The server once every room has closed (up to 60 s after the last finished): what is
    /// left of 20,000 rooms.
    pub drained: Option<Checkpoint>,
}

#[derive(Deserialize)]
struct Seated {
    table: String,
}

/// Runs the soak: `options.rooms` rooms, `options.concurrency` at a time.
pub async fn soak(options: &SoakOptions) -> Result<SoakReport, LoadError> {
    let addr: SocketAddr = options
        .addr
        .parse()
        .map_err(|e| LoadError::Setup(format!("--addr {}: {e}", options.addr)))?;
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let finished = Arc::new(AtomicUsize::new(0));
    let mut workers = tokio::task::JoinSet::new();
    for w in 0..options.concurrency.max(1) {
        let (next, finished, options) = (next.clone(), finished.clone(), options.clone());
        workers.spawn(async move { worker(addr, w, &options, &next, &finished, started).await });
    }
    let mut checkpoints = Vec::new();
    let every = options.every.max(1);
    let mut due = every;
    let mut failed = 0;
    let mut last_error = None;
    loop {
        tokio::select! {
            done = workers.join_next() => match done {
                Some(Ok((f, e))) => {
                    failed += f;
                    last_error = e.or(last_error);
                }
                Some(Err(e)) => {
                    failed += 1;
                    last_error = Some(e.to_string());
                }
                None => break,
            },
            () = tokio::time::sleep(Duration::from_millis(100)) => {}
        }
        while finished.load(Ordering::Relaxed) >= due {
            checkpoints.push(checkpoint(addr, options, due, started).await);
            if let Some(c) = checkpoints.last() {
                eprintln!("soak: {}", serde_json::to_string(c).unwrap_or_default());
            }
            due += every;
        }
    }
    let rooms_finished = finished.load(Ordering::Relaxed);
    if !rooms_finished.is_multiple_of(every) || checkpoints.is_empty() {
        checkpoints.push(checkpoint(addr, options, rooms_finished, started).await);
    }
    let rss = |c: &Checkpoint| c.rss_bytes;
    let rss_end_over_first = match (
        checkpoints.first().and_then(rss),
        checkpoints.last().and_then(rss),
    ) {
        (Some(first), Some(last)) if first > 0.0 => Some(last / first),
        _ => None,
    };
    let drained = drain(addr, options, rooms_finished, started).await;
    Ok(SoakReport {
        drained,
        rooms_finished,
        rooms_failed: failed,
        last_error,
        seconds: started.elapsed().as_secs_f64(),
        checkpoints,
        rss_end_over_first,
    })
}

/// One worker: a guest of its own, playing rooms one after another while any are left.
async fn worker(
    addr: SocketAddr,
    w: usize,
    options: &SoakOptions,
    next: &AtomicUsize,
    finished: &AtomicUsize,
    started: Instant,
) -> (usize, Option<String>) {
    let source = net::source(w, options.source_addrs);
    let mut http = HttpClient::new(addr, source);
    let name = json!({ "display_name": format!("soak {w}") });
    let token = match http
        .json::<SignedIn>("POST", "/api/guests", None, Some(&name), 201)
        .await
    {
        Ok(s) => s.token,
        Err(e) => return (1, Some(e.to_string())),
    };
    let mut failed = 0;
    let mut last_error = None;
    loop {
        let k = next.fetch_add(1, Ordering::Relaxed);
        if k >= options.rooms {
            break;
        }
        if options.rate > 0.0 {
            let at = started + Duration::from_secs_f64(k as f64 / options.rate);
            tokio::time::sleep_until(at.into()).await;
        }
        match room(addr, source, &mut http, &token, options).await {
            Ok(()) => {
                finished.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => {
                failed += 1;
                last_error = Some(e);
            }
        }
    }
    (failed, last_error)
}

/// One room, created, played to its end, and left.
async fn room(
    addr: SocketAddr,
    source: std::net::IpAddr,
    http: &mut HttpClient,
    token: &str,
    options: &SoakOptions,
) -> Result<(), String> {
    let body = json!({
        "ruleset": options.ruleset,
        "bots": ["random", "random", "random"],
        "hands": 1,
        "public": true,
    });
    let seated: Seated = http
        .json("POST", "/api/rooms", Some(token), Some(&body), 201)
        .await
        .map_err(|e| e.to_string())?;
    let path = format!("/ws/tables/{}", seated.table);
    let mut socket = net::websocket(addr, source, &path)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let hello = json!({"type": "hello", "token": token}).to_string();
    socket
        .send(Message::text(hello))
        .await
        .map_err(|e| format!("hello: {e}"))?;
    let mut next_id = 1u64;
    let mut over = false;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(300);
    loop {
        let frame = tokio::time::timeout_at(deadline, socket.next())
            .await
            .map_err(|_| {
                "the room did not end within 300 s (is the server's --claim-window-ms 0?)"
                    .to_string()
            })?;
        let text = match frame {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(_))) | None => break,
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(format!("socket: {e}")),
        };
        let m: Value = serde_json::from_str(&text).map_err(|e| format!("bad frame: {e}"))?;
        match m["type"].as_str() {
            Some("hand_over") => over = true,
            Some("table_closed") => break,
            Some("error") if m["id"].is_u64() => return Err(format!("refused: {m}")),
            _ => {}
        }
        let legal = match m["type"].as_str() {
            Some("prompt") => m["legal"].as_array(),
            Some("snapshot") => m["table"]["prompt"]["legal"].as_array(),
            _ => None,
        };
        if let Some(action) = legal.and_then(|l| choose(l)) {
            let act = json!({"type": "act", "id": next_id, "action": action}).to_string();
            next_id += 1;
            socket
                .send(Message::text(act))
                .await
                .map_err(|e| format!("act: {e}"))?;
        }
    }
    let _ = socket.close(None).await;
    if over {
        Ok(())
    } else {
        Err("the socket closed before the hand was over".into())
    }
}

/// A quick legal answer: a win when offered, else the first discard, else a pass, else the
/// first action offered.
fn choose(legal: &[Value]) -> Option<Value> {
    let of = |t: &str| legal.iter().find(|a| a["type"] == t).cloned();
    of("win")
        .or_else(|| of("discard"))
        .or_else(|| of("pass"))
        .or_else(|| legal.first().cloned())
}

/// Waits for every room to close (60 s at most), then reads the server's figures.
async fn drain(
    addr: SocketAddr,
    options: &SoakOptions,
    rooms_finished: usize,
    started: Instant,
) -> Option<Checkpoint> {
    for _ in 0..120 {
        let c = checkpoint(addr, options, rooms_finished, started).await;
        if c.rooms_alive == 0.0 {
            return Some(c);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    None
}

/// The server's figures now.
async fn checkpoint(
    addr: SocketAddr,
    options: &SoakOptions,
    rooms_finished: usize,
    started: Instant,
) -> Checkpoint {
    let mut http = HttpClient::new(addr, net::source(0, 1));
    let t = Instant::now();
    let metrics = http.request("GET", "/metrics", None, None).await;
    let metrics_ms = t.elapsed().as_secs_f64() * 1e3;
    let page = metrics
        .map(|r| String::from_utf8_lossy(&r.body).into_owned())
        .unwrap_or_default();
    let rooms_alive = page
        .lines()
        .filter(|l| l.starts_with("mahjong_rooms{"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    let t = Instant::now();
    let list = http.request("GET", "/api/rooms", None, None).await;
    let list_ms = t.elapsed().as_secs_f64() * 1e3;
    let listed_rooms = list
        .ok()
        .and_then(|r| serde_json::from_slice::<Value>(&r.body).ok())
        .and_then(|v| v.as_array().map(Vec::len))
        .unwrap_or(0);
    // The server's own figure, or /proc for its process id.
    let rss_bytes = page
        .lines()
        .find_map(|l| {
            l.strip_prefix("process_resident_memory_bytes ")?
                .trim()
                .parse()
                .ok()
        })
        .or_else(|| {
            options
                .server_pid
                .and_then(crate::probe::process)
                .map(|p| p.rss_bytes)
        });
    Checkpoint {
        rooms_finished,
        seconds: started.elapsed().as_secs_f64(),
        rss_bytes,
        rooms_alive,
        metrics_bytes: page.len(),
        metrics_ms,
        listed_rooms,
        list_ms,
    }
}
