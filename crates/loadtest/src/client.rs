//! One player's WebSocket client: `hello`, then every prompt answered by the bot policy at the
//! table's pace, every stream message timed and taken into the seat's model, until the run
//! ends and the client closes its socket.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use engine::Action;
use engine::wall::SeededRng;
use futures_util::{SinkExt, StreamExt};
use protocol::{ClientMessage, Envelope, ErrorCode, ServerMessage, WireAction};
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::measure::{Stats, TableClock, bump};
use crate::model::SeatModel;
use crate::net::{self, Socket};

/// Where one client sits and how it connects.
#[derive(Clone, Debug)]
pub(crate) struct Seating {
    /// The table's index in this run.
    pub(crate) table: usize,
    /// The WebSocket path (`/ws/tables/{table}`).
    pub(crate) path: String,
    /// The seat.
    pub(crate) seat: u8,
    /// The session token for `hello`.
    pub(crate) token: String,
    /// The table's ruleset preset id.
    pub(crate) ruleset: String,
    /// The source address to connect from.
    pub(crate) source: IpAddr,
    /// Every node the run loads, and the one this seat connects through first.
    pub(crate) nodes: Arc<[SocketAddr]>,
    pub(crate) node: usize,
}

impl Seating {
    /// The node this seat's `attempt`-th connection goes through: its own first, then each
    /// other in turn (a node restarting sends its sockets to the next).
    pub(crate) fn addr(&self, attempt: usize) -> SocketAddr {
        self.nodes[(self.node + attempt) % self.nodes.len().max(1)]
    }
}

/// What every client of a run shares.
pub(crate) struct Shared {
    pub(crate) stats: Stats,
    pub(crate) tables: Vec<TableClock>,
    pub(crate) policy: bot::Level,
    /// The rooms' time per decision: a claim prompt with much less time left is a claim window
    /// held open by the server, whose answer takes effect only when it closes.
    pub(crate) action_ms: u64,
    /// Flips to true when the run ends.
    pub(crate) stop: watch::Receiver<bool>,
}

/// How long a client waits for the server's closing handshake.
const CLOSE_WITHIN: Duration = Duration::from_secs(3);
/// A paced answer is sent at least this long before the prompt's deadline.
const DEADLINE_MARGIN: Duration = Duration::from_millis(300);

/// Connects through the seat's `attempt`-th node and says `hello` (resuming after
/// `last_seq`); `None` (counted) when that fails.
pub(crate) async fn connect(
    seating: &Seating,
    last_seq: Option<u64>,
    attempt: usize,
    stats: &Stats,
) -> Option<Socket> {
    match open(seating, last_seq, attempt).await {
        Ok(socket) => {
            bump(&stats.counters.open);
            Some(socket)
        }
        Err(e) => {
            tracing_failure(&e);
            bump(&stats.counters.handshake_failures);
            None
        }
    }
}

async fn open(seating: &Seating, last_seq: Option<u64>, attempt: usize) -> Result<Socket, String> {
    let addr = seating.addr(attempt);
    let mut socket = net::websocket(addr, seating.source, &seating.path)
        .await
        .map_err(|e| e.to_string())?;
    let hello = ClientMessage::Hello {
        token: seating.token.clone(),
        last_seq,
    };
    let text = serde_json::to_string(&hello).map_err(|e| e.to_string())?;
    socket
        .send(Message::text(text))
        .await
        .map_err(|e| e.to_string())?;
    Ok(socket)
}

/// How long a dropped socket keeps trying to reconnect (a node restarting, a table moving to
/// another node), and how often.
const RECONNECT_WITHIN: Duration = Duration::from_secs(60);
const RECONNECT_EVERY: Duration = Duration::from_millis(250);
/// Drops in a row, with no stream message between, before a socket gives up.
const DROPS_IN_A_ROW: u32 = 10;

/// Reconnects a dropped socket through each node in turn, resuming after `last_seq`.
async fn reconnect(seating: &Seating, last_seq: Option<u64>, stats: &Stats) -> Option<Socket> {
    let until = Instant::now() + RECONNECT_WITHIN;
    for attempt in 1.. {
        if Instant::now() >= until {
            break;
        }
        if let Ok(socket) = open(seating, last_seq, attempt).await {
            bump(&stats.counters.open);
            bump(&stats.counters.reconnects);
            return Some(socket);
        }
        tokio::time::sleep(RECONNECT_EVERY).await;
    }
    None
}

fn tracing_failure(message: &str) {
    // The first few failures say why; the count says how many.
    static SHOWN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    if SHOWN.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 3 {
        eprintln!("loadtest: {message}");
    }
}

/// A decision owed: its legal actions, when to send it, and whether its effects are held back.
struct Pending {
    legal: Vec<Action>,
    at: Instant,
    held: bool,
}

/// Plays until the run ends (then closes cleanly), the table closes, or the socket drops.
pub(crate) async fn play(mut socket: Socket, seating: Seating, shared: Arc<Shared>) {
    let stats = &shared.stats;
    let Some(clock) = shared.tables.get(seating.table) else {
        return;
    };
    let mut model = SeatModel::new(seating.seat, &seating.ruleset);
    let mut rng = SeededRng::new((seating.table as u64) << 8 | u64::from(seating.seat));
    let mut pending: Option<Pending> = None;
    let mut next_id = 1u64;
    let mut last_sent: Option<(u64, Instant)> = None;
    let mut table_closed = false;
    let mut stop = shared.stop.clone();
    let mut last_seq: Option<u64> = None;
    let mut drops = 0;
    loop {
        let dropped = loop {
            if *stop.borrow() {
                close(&mut socket).await;
                break false;
            }
            let due = pending.as_ref().map(|p| p.at);
            tokio::select! {
                changed = stop.changed() => {
                    if changed.is_err() || *stop.borrow() {
                        close(&mut socket).await;
                        break false;
                    }
                }
                () = sleep_until(due) => {
                    let Some(p) = pending.take() else { continue };
                    let action = decide(&model, &p.legal, shared.policy, &mut rng, stats);
                    let id = next_id;
                    next_id += 1;
                    let message = ClientMessage::Act { id, action: WireAction::from(action) };
                    let Ok(text) = serde_json::to_string(&message) else { continue };
                    // The action is opened before it is written: the server may answer, and another
                    // client of the table read the answer, before this send returns.
                    let now = Instant::now();
                    clock.sent(now, !p.held, stats);
                    last_sent = Some((id, now));
                    bump(&stats.counters.actions);
                    if p.held {
                        bump(&stats.counters.deferred);
                    }
                    if socket.send(Message::text(text)).await.is_err() {
                        break !*stop.borrow();
                    }
                }
                incoming = socket.next() => {
                    let text = match incoming {
                        Some(Ok(Message::Text(t))) => t,
                        Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break !table_closed && !*stop.borrow(),
                        Some(Ok(_)) => continue,
                    };
                    let now = Instant::now();
                    bump(&stats.counters.frames_in);
                    stats.counters.bytes_in.fetch_add(text.len() as u64, std::sync::atomic::Ordering::Relaxed);
                    let Ok(envelope) = serde_json::from_str::<Envelope>(text.as_str()) else {
                        stats.error("unreadable_frame");
                        continue;
                    };
                    if let Some(seq) = envelope.seq {
                        clock.arrived(seating.seat, now, stats);
                        last_seq = Some(seq);
                        drops = 0;
                    }
                    match &envelope.message {
                        ServerMessage::Prompt(info) => {
                            let legal: Vec<Action> = info.legal.iter().map(|&a| a.into()).collect();
                            let left = info.deadline_ms.saturating_sub(unix_ms());
                            let left = Duration::from_millis(u64::try_from(left).unwrap_or(0));
                            let held = legal.iter().all(is_claim)
                                && left < Duration::from_millis(shared.action_ms / 2);
                            // A prompt replacing one not yet answered keeps its slot.
                            let at = match &pending {
                                Some(p) => p.at,
                                None => clock.slot(now, now + left.saturating_sub(DEADLINE_MARGIN)),
                            };
                            pending = Some(Pending { legal, at, held });
                        }
                        ServerMessage::Event { .. } => {
                            // The server prompts after the events that open a decision, and again
                            // whenever the legal actions change: an event means an owed decision was
                            // answered or is outdated.
                            pending = None;
                            model.apply(&envelope.message);
                        }
                        ServerMessage::Snapshot { table } => {
                            model.apply(&envelope.message);
                            pending = table.prompt.as_ref().map(|info| Pending {
                                legal: info.legal.iter().map(|&a| a.into()).collect(),
                                at: clock.slot(now, now),
                                held: false,
                            });
                        }
                        ServerMessage::HandStarting { .. } => {
                            pending = None;
                            model.apply(&envelope.message);
                        }
                        ServerMessage::HandOver { .. } => {
                            pending = None;
                            if seating.seat == 0 {
                                bump(&stats.counters.hands);
                            }
                        }
                        ServerMessage::TableClosed { .. } => {
                            pending = None;
                            if !table_closed && seating.seat == 0 {
                                bump(&stats.counters.tables_closed);
                            }
                            table_closed = true;
                        }
                        ServerMessage::Ack { id } => {
                            if let Some((sent_id, at)) = last_sent
                                && sent_id == *id
                            {
                                stats.ack(now.saturating_duration_since(at));
                            }
                        }
                        // The table moving to another node: the snapshot that follows asks again.
                        ServerMessage::Error { code: ErrorCode::Moving, .. } => {}
                        ServerMessage::Error { code, .. } => stats.error(error_code(*code)),
                        ServerMessage::SeatChanged(_) | ServerMessage::Pong { .. } => {}
                    }
                }
            }
        };
        stats
            .counters
            .open
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        if !dropped {
            return;
        }
        drops += 1;
        // A node restarting, or a table moving: the seat resumes through a node that serves it.
        let again = if drops <= DROPS_IN_A_ROW {
            reconnect(&seating, last_seq, stats).await
        } else {
            None
        };
        match again {
            Some(s) => {
                socket = s;
                pending = None;
            }
            None => {
                bump(&stats.counters.dropped);
                return;
            }
        }
    }
}

/// The policy's choice, or the simple rule's when there is no view or the policy strays.
fn decide(
    model: &SeatModel,
    legal: &[Action],
    policy: bot::Level,
    rng: &mut SeededRng,
    stats: &Stats,
) -> Action {
    if let Some(view) = model.view(legal) {
        let a = policy.policy().decide(&view, legal, rng);
        if legal.contains(&a) {
            return a;
        }
    }
    bump(&stats.counters.fallbacks);
    simple_choice(model, legal)
}

/// Win when possible, keep the dealt tiles (开始时换牌), pass up claims, declare 定缺 in the first
/// suit offered, else discard a tile held alone (or the last offered).
fn simple_choice(model: &SeatModel, legal: &[Action]) -> Action {
    let find = |f: &dyn Fn(&Action) -> bool| legal.iter().copied().find(|a| f(a));
    if let Some(a) = find(&|a| matches!(a, Action::Win | Action::SelfDrawWin | Action::SwapDone)) {
        return a;
    }
    if let Some(a) = find(&|a| matches!(a, Action::DeclareVoid { .. })) {
        return a;
    }
    if legal.contains(&Action::Pass) {
        return Action::Pass;
    }
    let hand = model.concealed();
    if let Some(a) = find(&|a| matches!(a, Action::Discard { tile } if hand.get(*tile) == 1)) {
        return a;
    }
    legal
        .iter()
        .rev()
        .copied()
        .find(|a| matches!(a, Action::Discard { .. }))
        .or_else(|| legal.first().copied())
        .unwrap_or(Action::Pass)
}

/// Whether an action answers a claim window (a discard, or a kong that may be robbed).
fn is_claim(a: &Action) -> bool {
    matches!(
        a,
        Action::Win | Action::Pung | Action::ExposedKong | Action::Chow { .. } | Action::Pass
    )
}

fn error_code(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::BadMessage => "bad_message",
        ErrorCode::TooLarge => "too_large",
        ErrorCode::NotAuthenticated => "not_authenticated",
        ErrorCode::BadToken => "bad_token",
        ErrorCode::NotSeated => "not_seated",
        ErrorCode::Escaped => "escaped",
        ErrorCode::NotYourTurn => "not_your_turn",
        ErrorCode::IllegalAction => "illegal_action",
        ErrorCode::DuplicateId => "duplicate_id",
        ErrorCode::RateLimited => "rate_limited",
        ErrorCode::TableClosed => "table_closed",
        ErrorCode::Moving => "moving",
        ErrorCode::NotWatchable => "not_watchable",
        ErrorCode::Internal => "internal",
    }
}

/// Sends a close frame and waits (briefly) for the server's.
async fn close(socket: &mut Socket) {
    let _ = socket.send(Message::Close(None)).await;
    let drain = async { while let Some(Ok(_)) = socket.next().await {} };
    let _ = tokio::time::timeout(CLOSE_WITHIN, drain).await;
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

/// Now, in Unix milliseconds (the server's clock: the same machine).
fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
