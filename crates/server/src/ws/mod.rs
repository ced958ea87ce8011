//! The WebSocket endpoint of a table: `hello` first, then actions in and the table's stream out.

mod link;

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use protocol::{ClientMessage, Envelope, ErrorCode, ServerMessage};
use store::{PlayerId, TableId, TokenHash};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::AppState;
use link::{Link, Target};

/// How long a new connection has to say `hello`.
const HELLO_WITHIN: Duration = Duration::from_secs(10);
/// Frames queued for a slow client before it is cut off (it resumes from its last `seq`).
const OUTBOX: usize = 512;
/// Request ids remembered per connection, to refuse a replayed one.
const IDS_KEPT: usize = 256;

static CONNECTIONS: AtomicU64 = AtomicU64::new(1);

/// A connection id no other connection of this process has (sockets and relayed links alike).
pub(crate) fn next_conn() -> u64 {
    CONNECTIONS.fetch_add(1, Ordering::Relaxed)
}

/// `GET /ws/tables/{table}`.
pub async fn upgrade(
    State(state): State<AppState>,
    Path(table): Path<String>,
    ws: WebSocketUpgrade,
) -> Response {
    if let Err(busy) = crate::limits::socket_allowed(&state) {
        return axum::response::IntoResponse::into_response(busy);
    }
    let table = TableId::parse(&table).ok();
    limits(ws).on_upgrade(move |socket| {
        let conn = next_conn();
        let span = tracing::info_span!("conn", conn);
        tracing::Instrument::instrument(session(state, table, socket, conn), span)
    })
}

/// The protocol's subprotocol and frame limits, with a small read buffer
/// ([`protocol::READ_BUFFER`]): every socket holds its buffer for as long as it lives
/// (STACK.md: 4 KiB instead of the default 128 KiB already took an idle socket from
/// ≈ 137 KiB to ≈ 9 KiB).
fn limits(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.protocols([protocol::SUBPROTOCOL])
        .max_message_size(protocol::MAX_CLIENT_FRAME)
        .max_frame_size(protocol::MAX_CLIENT_FRAME)
        .read_buffer_size(protocol::READ_BUFFER)
}

/// `GET /ws/tables/{table}/watch`: a spectator's read-only stream of public events.
pub async fn watch(
    State(state): State<AppState>,
    Path(table): Path<String>,
    ws: WebSocketUpgrade,
) -> Response {
    if let Err(busy) = crate::limits::socket_allowed(&state) {
        return axum::response::IntoResponse::into_response(busy);
    }
    let table = TableId::parse(&table).ok();
    limits(ws).on_upgrade(move |socket| {
        let conn = next_conn();
        let span = tracing::info_span!("spectator", conn);
        let metrics = state.metrics.clone();
        tracing::Instrument::instrument(
            async move {
                // Counted with the seats' sockets: the cap is on every open socket.
                metrics.connections_open.fetch_add(1, Ordering::Relaxed);
                metrics.spectators_open.fetch_add(1, Ordering::Relaxed);
                spectate(state, table, socket, conn).await;
                metrics.spectators_open.fetch_sub(1, Ordering::Relaxed);
                metrics.connections_open.fetch_sub(1, Ordering::Relaxed);
            },
            span,
        )
    })
}

async fn spectate(state: AppState, table: Option<TableId>, mut socket: WebSocket, conn: u64) {
    let (target, token) = match Box::pin(hello(&state, table.clone(), &mut socket)).await {
        Ok((_, target, _, token)) => (target, token),
        Err(refusal) => return Box::pin(refuse(&mut socket, refusal)).await,
    };
    if let Some(table) = &table {
        match Box::pin(crate::tournaments::withheld(&state, table)).await {
            Ok(false) => {}
            Ok(true) => {
                let why = "a duplicate tournament table is watched once its round is over";
                return Box::pin(refuse(&mut socket, (ErrorCode::NotWatchable, why.into()))).await;
            }
            Err(e) => {
                return Box::pin(refuse(&mut socket, (ErrorCode::Internal, e.to_string()))).await;
            }
        }
    }
    let (tx, mut rx) = mpsc::channel::<(Instant, Arc<str>)>(OUTBOX * 4);
    let Some(room) = Box::pin(Link::watch(target, conn, tx)).await else {
        return Box::pin(refuse(
            &mut socket,
            (ErrorCode::TableClosed, "the table is closed".into()),
        ))
        .await;
    };
    let (mut sink, mut stream) = socket.split();
    let mut bucket = Bucket::new(f64::from(state.config.client_rate.max(1)));
    // The room's spectator delay: the next frame waits here until it is due, the rest in the
    // channel (a spectator too far behind is cut off by the room), and pings are answered
    // meanwhile.
    let mut next: Option<(Instant, Arc<str>)> = None;
    let time = state.timing.time.clone();
    let mut signed_out = state.signed_out.subscribe();
    loop {
        let due = next.as_ref().map(|(due, _)| *due);
        tokio::select! {
            ended = signed_out.recv() => if session_ended(ended, token) {
                let _ = sink.send(closing(close_code(ErrorCode::BadToken), "signed_out")).await;
                break;
            },
            out = rx.recv(), if next.is_none() => match out {
                Some(frame) => next = Some(frame),
                None => {
                    // The room let go of this spectator: the match is over, it fell too far
                    // behind, or the table moved to another node.
                    let (code, reason) = room.closing(&state.life);
                    let _ = sink.send(closing(code, reason)).await;
                    break;
                }
            },
            () = time.sleep_until_some(due) => {
                if let Some((_, text)) = next.take()
                    && sink.send(Message::Text(text.as_ref().into())).await.is_err()
                {
                    break;
                }
            },
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Text(t))) => {
                    if !bucket.take() {
                        let _ = sink.send(error(None, ErrorCode::RateLimited, "too many messages: slow down")).await;
                        continue;
                    }
                    let reply = match serde_json::from_str::<ClientMessage>(&t) {
                        Ok(ClientMessage::Ping { id }) => frame(ServerMessage::Pong { id }),
                        Ok(_) => error(None, ErrorCode::NotSeated, "spectators only watch"),
                        Err(e) => error(request_id(&t), ErrorCode::BadMessage, e.to_string()),
                    };
                    let _ = sink.send(reply).await;
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
        }
    }
    Box::pin(room.close(None, conn)).await;
    let _ = sink.close().await;
}

/// Frames written by one call at most: a long backlog goes out over several wake-ups.
const BURST: usize = 32;

/// Bytes of frames written before a flush at most, unless one frame is larger. The socket's
/// write buffer keeps the size of its largest write for as long as the socket lives: written
/// whole, a deal's dozen frames made it about 1 KiB on every socket (measured with massif),
/// where what one action sends a seat (an ack, an event, a prompt) fits in this.
const BURST_BYTES: usize = 512;

/// Writes `first` and the frames already queued behind it, flushing once per
/// `BURST_BYTES`. A room's wake-up queues several frames for a seat at a time (an ack, the
/// action's events, the next prompt): one write carries them, where a flush per frame cost a
/// system call and a TCP segment each, and woke the client as often. Public for the load
/// test's bare baseline, which writes its sockets with this same function so that the two
/// servers' figures differ by the game alone.
pub async fn send_queued(
    sink: &mut SplitSink<WebSocket, Message>,
    rx: &mut mpsc::Receiver<Arc<str>>,
    first: Arc<str>,
) -> Result<(), axum::Error> {
    let mut buffered = first.len();
    tracing::trace!(len = first.len(), "frame out");
    sink.feed(Message::Text(first.as_ref().into())).await?;
    for _ in 1..BURST {
        let Ok(text) = rx.try_recv() else { break };
        if buffered + text.len() > BURST_BYTES {
            sink.flush().await?;
            buffered = 0;
        }
        buffered += text.len();
        tracing::trace!(len = text.len(), "frame out");
        sink.feed(Message::Text(text.as_ref().into())).await?;
    }
    sink.flush().await
}

fn frame(message: ServerMessage) -> Message {
    let text = serde_json::to_string(&Envelope { seq: None, message }).unwrap_or_default();
    Message::Text(text.into())
}

fn error(id: Option<u64>, code: ErrorCode, message: impl Into<String>) -> Message {
    frame(ServerMessage::Error {
        id,
        code,
        message: message.into(),
    })
}

/// A connection refused before its session: why, as an error frame.
type Refusal = (ErrorCode, String);

/// The WebSocket close code that goes with an error ending a connection: 1008 (policy) for
/// who may connect, 1009 for a frame too large, 1011 for a server failure, 1000 for a closed
/// table.
fn close_code(code: ErrorCode) -> u16 {
    match code {
        ErrorCode::TooLarge => 1009,
        ErrorCode::Internal => 1011,
        ErrorCode::TableClosed => 1000,
        ErrorCode::Moving => 1012,
        _ => 1008,
    }
}

/// Ends a connection: the `error` frame, then a close frame whose code says why and whose
/// reason is the error's code.
async fn refuse(socket: &mut WebSocket, (code, message): Refusal) {
    let _ = socket.send(error(None, code, message)).await;
    let reason = serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let _ = socket.send(closing(close_code(code), &reason)).await;
}

/// A close frame with its code and reason.
fn closing(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Whether a sign-out ends this connection: its own token's, or one it lagged too far behind
/// to know (to be safe).
fn session_ended(
    ended: Result<TokenHash, tokio::sync::broadcast::error::RecvError>,
    token: TokenHash,
) -> bool {
    match ended {
        Ok(gone) => gone == token,
        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => true,
        Err(tokio::sync::broadcast::error::RecvError::Closed) => false,
    }
}

/// The `id` of a request that does not parse, when the frame is a JSON object with a numeric
/// one: an error answering it carries the id, so the client can settle that request.
fn request_id(text: &str) -> Option<u64> {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()?
        .get("id")?
        .as_u64()
}

/// Waits for `hello` and resolves who is connecting to which room, and where it plays.
async fn hello(
    state: &AppState,
    table: Option<TableId>,
    socket: &mut WebSocket,
) -> Result<(PlayerId, Target, Option<u64>, TokenHash), Refusal> {
    let first = tokio::time::timeout(HELLO_WITHIN, socket.recv()).await;
    let text = match first {
        Ok(Some(Ok(Message::Text(t)))) => t,
        _ => {
            return Err((ErrorCode::NotAuthenticated, "send `hello` first".into()));
        }
    };
    let Ok(ClientMessage::Hello { token, last_seq }) = serde_json::from_str(&text) else {
        return Err((
            ErrorCode::NotAuthenticated,
            "the first message must be `hello`".into(),
        ));
    };
    let player = match crate::auth::player_of(state, &token).await {
        Ok(Some(p)) => p,
        Ok(None) => return Err((ErrorCode::BadToken, "unknown or expired token".into())),
        Err(e) => return Err((ErrorCode::Internal, e.to_string())),
    };
    let target = link::find(state, table.as_ref()).await?;
    Ok((player, target, last_seq, crate::auth::hash(&token)))
}

/// A seat's connection: the handshake on the upgrade's task, then the seated loop on a task of
/// its own. The upgrade's task is sized by everything it ever awaits (axum's upgrade, `hello`'s
/// store reads, finding and joining the room), about 5 KiB, and a task keeps its size for as
/// long as it lives (massif, 800 sockets: 5,120 bytes a connection); handing the loop to a
/// new task ends that one, and the socket's lifelong cost is the loop's own state.
async fn session(state: AppState, table: Option<TableId>, socket: WebSocket, conn: u64) {
    crate::metrics::bump(&state.metrics.connections_total);
    state
        .metrics
        .connections_open
        .fetch_add(1, Ordering::Relaxed);
    match Box::pin(seat(state.clone(), table, socket, conn)).await {
        Some(seated) => {
            let span = tracing::Span::current();
            tokio::spawn(tracing::Instrument::instrument(seated.play(), span));
        }
        None => {
            state
                .metrics
                .connections_open
                .fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// A connection whose player is seated: what its loop needs, and nothing of the handshake
/// (the socket already split: the whole `WebSocket` would stay in the task unused). It holds
/// the few parts of the server's state the loop uses, not the whole `AppState` (384 bytes
/// a socket, for as long as it lives).
struct Seated {
    metrics: Arc<crate::metrics::Metrics>,
    life: Arc<tokio::sync::watch::Sender<crate::node::NodePhase>>,
    signed_out: tokio::sync::broadcast::Receiver<TokenHash>,
    bucket: Bucket,
    sink: SplitSink<WebSocket, Message>,
    stream: SplitStream<WebSocket>,
    rx: mpsc::Receiver<Arc<str>>,
    room: Link,
    player: PlayerId,
    token: TokenHash,
    conn: u64,
}

/// The handshake: `hello`, then the seat in the room; a refusal is sent and ends it.
async fn seat(
    state: AppState,
    table: Option<TableId>,
    mut socket: WebSocket,
    conn: u64,
) -> Option<Seated> {
    let (player, target, last_seq, token) = match hello(&state, table, &mut socket).await {
        Ok(x) => x,
        Err(refusal) => {
            refuse(&mut socket, refusal).await;
            return None;
        }
    };
    let (tx, rx) = mpsc::channel::<Arc<str>>(OUTBOX);
    let (room, seat) = match Link::seat(target, &player, last_seq, conn, tx).await {
        Ok(linked) => linked,
        Err(Some(code)) => {
            let why = match code {
                ErrorCode::Escaped => {
                    "you escaped from this table: the bot plays your seat until the match ends"
                }
                ErrorCode::NotSeated => "you have no seat at this table",
                _ => "the table could not be reached",
            };
            refuse(&mut socket, (code, why.into())).await;
            return None;
        }
        Err(None) => {
            refuse(
                &mut socket,
                (ErrorCode::TableClosed, "the table is closed".into()),
            )
            .await;
            return None;
        }
    };
    tracing::debug!(seat, player = %player, "connected");
    let (sink, stream) = socket.split();
    Some(Seated {
        metrics: state.metrics.clone(),
        life: state.life.clone(),
        signed_out: state.signed_out.subscribe(),
        bucket: Bucket::new(f64::from(state.config.client_rate.max(1))),
        sink,
        stream,
        rx,
        room,
        player,
        token,
        conn,
    })
}

impl Seated {
    /// The seat's connection for as long as it lives: frames out from the room, actions in.
    /// A plain function around an `async move` block: the block holds each field once, where
    /// an `async fn` would hold its argument twice (as it came in, and moved into its body).
    fn play(self) -> impl Future<Output = ()> + Send {
        let Seated {
            metrics,
            life,
            mut signed_out,
            mut bucket,
            mut sink,
            mut stream,
            mut rx,
            room,
            player,
            token,
            conn,
        } = self;
        async move {
            tracing::debug!("entering the session loop");
            let mut ids: VecDeque<u64> = VecDeque::new();
            // How the server closes the socket when the session ends on its side (None: the
            // client's own close, or a broken connection).
            let mut close: Option<(u16, &'static str)> = None;
            loop {
                tokio::select! {
                    ended = signed_out.recv() => if session_ended(ended, token) {
                        close = Some((close_code(ErrorCode::BadToken), "signed_out"));
                        break;
                    },
                    out = rx.recv() => match out {
                        Some(text) => {
                            if send_queued(&mut sink, &mut rx, text).await.is_err() {
                                break;
                            }
                        }
                        // The room ended this connection's stream: the match is over, a newer
                        // connection took the seat, or the player escaped (each said in a
                        // message); or the table moved to another node.
                        None => {
                            close = Some(room.closing(&life));
                            break;
                        }
                    },
                    incoming = stream.next() => {
                        let text = match incoming {
                            Some(Ok(Message::Text(t))) => t,
                            Some(Ok(Message::Binary(_))) => {
                                let _ = sink.send(error(None, ErrorCode::BadMessage, "frames are JSON text")).await;
                                continue;
                            }
                            Some(Ok(Message::Close(_))) | None => break,
                            Some(Ok(_)) => continue,
                            Some(Err(e)) => {
                                let code = if e.to_string().contains("too long") || e.to_string().contains("Space limit") {
                                    ErrorCode::TooLarge
                                } else {
                                    ErrorCode::BadMessage
                                };
                                let _ = sink.send(error(None, code, e.to_string())).await;
                                close = Some((close_code(code), if code == ErrorCode::TooLarge { "too_large" } else { "bad_message" }));
                                break;
                            }
                        };
                        crate::metrics::bump(&metrics.messages_in_total);
                        if !bucket.take() {
                            crate::metrics::bump(&metrics.messages_refused_total);
                            let _ = sink.send(error(None, ErrorCode::RateLimited, "too many messages: slow down")).await;
                            continue;
                        }
                        let message = match serde_json::from_str::<ClientMessage>(&text) {
                            Ok(m) => m,
                            Err(e) => {
                                crate::metrics::bump(&metrics.messages_refused_total);
                                let _ = sink.send(error(request_id(&text), ErrorCode::BadMessage, e.to_string())).await;
                                continue;
                            }
                        };
                        match message {
                            ClientMessage::Hello { .. } => {
                                let _ = sink.send(error(None, ErrorCode::NotAuthenticated, "already signed in on this connection")).await;
                            }
                            ClientMessage::Ping { id } => {
                                let _ = sink.send(frame(ServerMessage::Pong { id })).await;
                            }
                            ClientMessage::Act { id, action } => {
                                if ids.contains(&id) {
                                    let _ = sink.send(error(Some(id), ErrorCode::DuplicateId, "this request id was used before")).await;
                                    continue;
                                }
                                ids.push_back(id);
                                if ids.len() > IDS_KEPT {
                                    ids.pop_front();
                                }
                                match room.act(&player, conn, id, action).await {
                                    Ok(()) => {}
                                    Err(ErrorCode::TableClosed) => {
                                        let _ = sink.send(error(Some(id), ErrorCode::TableClosed, "the table is closed")).await;
                                        close = Some((1000, "table_closed"));
                                        break;
                                    }
                                    Err(code) => {
                                        let why = "the table is moving to another server: a snapshot follows";
                                        let _ = sink.send(error(Some(id), code, why)).await;
                                    }
                                }
                            }
                            ClientMessage::Leave {} => {
                                room.leave(&player).await;
                                close = Some((1000, "left"));
                                break;
                            }
                        }
                    }
                }
            }
            Box::pin(room.close(Some(player), conn)).await;
            match close {
                Some((code, reason)) => {
                    let _ = sink.send(closing(code, reason)).await;
                }
                None => {
                    let _ = sink.close().await;
                }
            }
            metrics.connections_open.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// A token bucket: `rate` messages a second, bursts up to twice that.
struct Bucket {
    rate: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new(rate: f64) -> Bucket {
        Bucket {
            rate,
            tokens: 2.0 * rate,
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + (now - self.at).as_secs_f64() * self.rate).min(2.0 * self.rate);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
