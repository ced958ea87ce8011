//! The baseline: a bare WebSocket broadcast server with the game server's socket handling and
//! message sizes but no game, no store and no room actor, so that the game server's figures
//! read as a ratio of what the machine can do.
//!
//! `GET /ws/baseline/{room}/{seat}` (subprotocol `mahjong.v1`, `hello` first, as on the game
//! server). When a room's four seats have said `hello`, each gets a hand's opening (`event`
//! `hand_started` and `dealt`) and seat 0 a `prompt` to discard. Each `act` from a seat is
//! answered as a discard turn of the game: an `ack` to the sender, then to all four seats the
//! `discarded` event and the next seat's `drew`, and a `prompt` of fourteen discards to the next
//! seat. Frames are the protocol's own types, serialized once per recipient with its `seq`, as
//! the game server does. `GET /metrics` gives the process's memory, CPU and open files, and the
//! connections open.
//!
//! Architecture Invariant: the baseline knows nothing of the game: it never checks an action.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use engine::Tile;
use futures_util::{SinkExt, StreamExt};
use protocol::{ClientMessage, Envelope, PromptInfo, ServerMessage, WireAction, WireEvent};
use tokio::sync::mpsc;

use crate::error::LoadError;

/// Seats per room.
const SEATS: usize = 4;
/// Frames queued for a slow client before it is cut off (as on the game server).
const OUTBOX: usize = 512;
/// How long a new connection has to say `hello` (as on the game server).
const HELLO_WITHIN: Duration = Duration::from_secs(10);

/// A running baseline server.
pub struct BaselineServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The serving task.
    pub task: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// Binds `listen` (e.g. `127.0.0.1:0`) and serves in the background.
///
/// # Errors
/// [`LoadError::Listen`] when the address cannot be bound.
pub async fn start(listen: &str) -> Result<BaselineServer, LoadError> {
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|source| LoadError::Listen {
            addr: listen.to_string(),
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| LoadError::Listen {
        addr: listen.to_string(),
        source,
    })?;
    // TCP_NODELAY on accepted sockets, as on the game server.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let app = router();
    let task = tokio::spawn(async move { axum::serve(listener, app.into_make_service()).await });
    Ok(BaselineServer { addr, task })
}

/// The baseline's routes.
pub fn router() -> Router {
    Router::new()
        .route("/ws/baseline/{room}/{seat}", get(upgrade))
        .route("/metrics", get(metrics))
        .with_state(Arc::new(Baseline::default()))
}

/// Rooms by number, and counters.
#[derive(Default)]
struct Baseline {
    /// Held only to find or drop a room, never across an `.await`.
    rooms: Mutex<HashMap<u64, Arc<Mutex<Room>>>>,
    connections: AtomicU64,
    messages_in: AtomicU64,
}

/// One room: each seat's outbox and stream position.
#[derive(Default)]
struct Room {
    seats: [Option<mpsc::Sender<Arc<str>>>; SEATS],
    next_seq: [u64; SEATS],
    started: bool,
}

/// The tiles of every prompt: fourteen discards, as in a turn of the game.
fn hand() -> Vec<Tile> {
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p"
        .split(' ')
        .filter_map(|t| t.parse().ok())
        .collect()
}

impl Room {
    /// Adds a message to seat `i`'s stream, serialized for it alone (its `seq`), as the game
    /// server does; a seat that cannot keep up loses its socket.
    fn push(&mut self, i: usize, message: ServerMessage) {
        let Some(tx) = &self.seats[i] else { return };
        self.next_seq[i] += 1;
        let envelope = Envelope {
            seq: Some(self.next_seq[i]),
            message,
        };
        if let Ok(text) = serde_json::to_string(&envelope)
            && tx.try_send(text.into()).is_err()
        {
            self.seats[i] = None;
        }
    }

    fn reply(&mut self, i: usize, message: ServerMessage) {
        let Some(tx) = &self.seats[i] else { return };
        if let Ok(text) = serde_json::to_string(&Envelope { seq: None, message })
            && tx.try_send(text.into()).is_err()
        {
            self.seats[i] = None;
        }
    }

    fn prompt(&mut self, i: usize) {
        let deadline_ms = unix_ms() + 20_000;
        let legal = hand()
            .into_iter()
            .map(|tile| WireAction::Discard { tile })
            .collect();
        self.push(
            i,
            ServerMessage::Prompt(PromptInfo {
                hand_no: 0,
                legal,
                deadline_ms,
                bank_ms: 0,
            }),
        );
    }

    /// Every seat is here: a hand's opening to each, and the first prompt.
    fn start(&mut self) {
        self.started = true;
        let tiles = hand();
        for i in 0..SEATS {
            self.push(
                i,
                ServerMessage::Event {
                    hand_no: 0,
                    event: WireEvent::HandStarted {
                        dealer: 0,
                        round_wind: "1z".into(),
                        dice: [3, 4],
                        wall: 55,
                    },
                },
            );
            self.push(
                i,
                ServerMessage::Event {
                    hand_no: 0,
                    event: WireEvent::Dealt {
                        seat: i as u8,
                        tiles: tiles[..13].to_vec(),
                    },
                },
            );
        }
        self.prompt(0);
    }

    /// A discard turn: ack, `discarded` and `drew` to all, the next seat's prompt.
    fn act(&mut self, from: usize, id: u64, action: WireAction) {
        let tile = match action {
            WireAction::Discard { tile } => tile,
            _ => hand()[0],
        };
        let next = (from + 1) % SEATS;
        self.reply(from, ServerMessage::Ack { id });
        for i in 0..SEATS {
            self.push(
                i,
                ServerMessage::Event {
                    hand_no: 0,
                    event: WireEvent::Discarded {
                        seat: from as u8,
                        tile,
                    },
                },
            );
        }
        for i in 0..SEATS {
            self.push(
                i,
                ServerMessage::Event {
                    hand_no: 0,
                    event: WireEvent::Drew {
                        seat: next as u8,
                        tile: (i == next).then_some(tile),
                        replacement: false,
                        wall: 70,
                    },
                },
            );
        }
        self.prompt(next);
    }
}

async fn upgrade(
    State(state): State<Arc<Baseline>>,
    Path((room, seat)): Path<(u64, usize)>,
    ws: WebSocketUpgrade,
) -> Response {
    // The game server's limits: its subprotocol, 4 KiB frames, its read buffer.
    ws.protocols([protocol::SUBPROTOCOL])
        .max_message_size(protocol::MAX_CLIENT_FRAME)
        .max_frame_size(protocol::MAX_CLIENT_FRAME)
        .read_buffer_size(protocol::READ_BUFFER)
        .on_upgrade(move |socket| async move {
            state.connections.fetch_add(1, Ordering::Relaxed);
            session(&state, room, seat, socket).await;
            state.connections.fetch_sub(1, Ordering::Relaxed);
        })
}

fn frame(message: ServerMessage) -> Message {
    let text = serde_json::to_string(&Envelope { seq: None, message }).unwrap_or_default();
    Message::Text(text.into())
}

fn error(code: protocol::ErrorCode, message: &str) -> Message {
    frame(ServerMessage::Error {
        id: None,
        code,
        message: message.into(),
    })
}

async fn session(state: &Baseline, room_no: u64, seat: usize, mut socket: WebSocket) {
    // `hello` first, parsed as the game server parses it (the token is not checked).
    let first = tokio::time::timeout(HELLO_WITHIN, socket.recv()).await;
    let hello = match first {
        Ok(Some(Ok(Message::Text(t)))) => serde_json::from_str::<ClientMessage>(&t).ok(),
        _ => None,
    };
    if seat >= SEATS || !matches!(hello, Some(ClientMessage::Hello { .. })) {
        let _ = socket
            .send(error(
                protocol::ErrorCode::NotAuthenticated,
                "send `hello` first",
            ))
            .await;
        return;
    }
    let room = {
        let mut rooms = match state.rooms.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        rooms.entry(room_no).or_default().clone()
    };
    let (tx, mut rx) = mpsc::channel::<Arc<str>>(OUTBOX);
    with(&room, |r| {
        r.seats[seat] = Some(tx);
        if !r.started && r.seats.iter().all(Option::is_some) {
            r.start();
        }
    });
    let (mut sink, mut stream) = socket.split();
    loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(text) => {
                    if server::ws::send_queued(&mut sink, &mut rx, text).await.is_err() {
                        break;
                    }
                }
                None => break,
            },
            incoming = stream.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                state.messages_in.fetch_add(1, Ordering::Relaxed);
                match serde_json::from_str::<ClientMessage>(&text) {
                    Ok(ClientMessage::Act { id, action }) => with(&room, |r| r.act(seat, id, action)),
                    Ok(ClientMessage::Ping { id }) => {
                        let _ = sink.send(frame(ServerMessage::Pong { id })).await;
                    }
                    Ok(ClientMessage::Leave {}) => break,
                    Ok(ClientMessage::Hello { .. }) | Err(_) => {
                        let _ = sink.send(error(protocol::ErrorCode::BadMessage, "not an action")).await;
                    }
                }
            }
        }
    }
    let empty = with(&room, |r| {
        r.seats[seat] = None;
        r.seats.iter().all(Option::is_none)
    });
    if empty {
        let mut rooms = match state.rooms.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        rooms.remove(&room_no);
    }
    let _ = sink.close().await;
}

/// Runs `f` on the room under its lock (held for the few sends of one message, never across an
/// `.await`).
fn with<R>(room: &Mutex<Room>, f: impl FnOnce(&mut Room) -> R) -> R {
    let mut guard = match room.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    f(&mut guard)
}

async fn metrics(State(state): State<Arc<Baseline>>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut put = |name: &str, kind: &str, value: f64| {
        let _ = writeln!(out, "# TYPE {name} {kind}\n{name} {value}");
    };
    put(
        "baseline_ws_connections",
        "gauge",
        state.connections.load(Ordering::Relaxed) as f64,
    );
    put(
        "baseline_ws_messages_in_total",
        "counter",
        state.messages_in.load(Ordering::Relaxed) as f64,
    );
    if let Some(p) = crate::probe::own_process() {
        put("process_resident_memory_bytes", "gauge", p.rss_bytes);
        put("process_cpu_seconds_total", "counter", p.cpu_seconds);
        put("process_open_fds", "gauge", p.open_fds);
    }
    out
}

fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
