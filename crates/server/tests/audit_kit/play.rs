//! The clients of one table, each a task: seated players that answer every prompt and pause
//! the table at some, the spectator that watches from before the first deal, and the one that
//! joins late and reconnects whenever a paused seat asks it to.
//!
//! A pause is exact, with no timing in it: the paused seat owes its turn, so nothing happens in
//! the hand until it acts (the test server's grace and reconnection windows are longer than
//! the run, so no bot steps in). An observer asked to reconnect first reads its stream up to
//! the paused seat's last event (counted in events every observer receives), then drops its
//! connection and reconnects without `last_seq`, which forces a snapshot of exactly that point.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::facts::Public;
use super::observer::{Observer, Stats};
use super::policy::{self, Target};
use super::tiles::Rng;
use crate::common::{Client, prompt_of};

/// Safety net for a message that never comes (a hang fails the test instead of stalling it).
pub const WAIT: Duration = Duration::from_secs(60);

/// The table the clients play at.
pub struct Table {
    pub addr: std::net::SocketAddr,
    pub id: String,
    pub preset: String,
    pub players: usize,
    /// A client found a problem: the test fails, so nobody pauses any more (a model thrown off
    /// by a leak could wait for events that never come).
    pub trouble: AtomicBool,
}

impl Table {
    /// Notes whether `obs` has found a problem.
    fn note(&self, obs: &Observer) {
        if !obs.problems.is_empty() {
            self.trouble.store(true, Ordering::Relaxed);
        }
    }

    fn in_trouble(&self) -> bool {
        self.trouble.load(Ordering::Relaxed)
    }
}

/// Who a client is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Seat(usize),
    /// The spectator connected before the first deal, never reconnecting.
    Early,
    /// The spectator that joins at the first pause that asks for it, and reconnects at others.
    Late,
}

/// A paused seat's request to reconnect: where it paused (hand, events every observer has had)
/// and the public state it held; answered once the snapshot is checked.
pub struct Request {
    hand_no: u64,
    counted: u64,
    public: Public,
    reply: oneshot::Sender<()>,
}

/// Where a player sends its requests: the other seats (None for itself) and the late spectator.
pub struct Peers {
    pub players: Vec<Option<mpsc::Sender<Request>>>,
    pub spectator: mpsc::Sender<Request>,
}

/// What one client checked and found.
pub struct Report {
    pub role: Role,
    pub stats: Stats,
    pub problems: Vec<String>,
    pub projections: BTreeMap<u64, Vec<String>>,
}

impl Report {
    fn of(role: Role, obs: Observer) -> Report {
        Report {
            role,
            stats: obs.stats,
            problems: obs.problems,
            projections: obs.projections,
        }
    }
}

enum Step {
    Request(Option<Request>),
    Message(anyhow::Result<Option<Value>>),
}

/// The message received, or None (the problem noted) when the connection closed early or no
/// message came in time.
fn delivered(obs: &mut Observer, received: anyhow::Result<Option<Value>>) -> Option<Value> {
    match received {
        Ok(Some(m)) => Some(m),
        Ok(None) => {
            obs.problem("the connection closed before the table did".into());
            None
        }
        Err(e) => {
            obs.problem(format!("waiting for a message: {e}"));
            None
        }
    }
}

fn label(table: &Table, role: Role) -> String {
    match role {
        Role::Seat(s) => format!("{} seat {s}", table.preset),
        Role::Early => format!("{} spectator (from the start)", table.preset),
        Role::Late => format!("{} spectator (late)", table.preset),
    }
}

/// Plays seat `seat` until the table closes.
pub async fn player(
    table: Arc<Table>,
    seat: usize,
    token: String,
    mut rx: mpsc::Receiver<Request>,
    peers: Peers,
    seed: u64,
) -> Report {
    let role = Role::Seat(seat);
    let mut obs = Observer::new(label(&table, role), Some(seat), table.players);
    let mut rng = Rng::new(seed);
    let mut konged = false;
    let mut rx_open = true;
    let mut client = Client::connect(table.addr, &table.id, &token, None)
        .await
        .expect("a player connects");
    loop {
        let step = tokio::select! {
            r = rx.recv(), if rx_open => Step::Request(r),
            m = client.next(WAIT) => Step::Message(m),
        };
        let m = match step {
            Step::Request(None) => {
                rx_open = false;
                continue;
            }
            Step::Request(Some(req)) => {
                catch_up(&mut client, &mut obs, &table, &req).await;
                client = reconnect(
                    Some(client),
                    &mut obs,
                    &table,
                    &token,
                    role,
                    Some(&req.public),
                )
                .await;
                let _ = req.reply.send(());
                continue;
            }
            Step::Message(r) => match delivered(&mut obs, r) {
                Some(m) => m,
                None => break,
            },
        };
        obs.check(&m, None);
        table.note(&obs);
        if m["type"] == "table_closed" {
            break;
        }
        let Some(legal) = prompt_of(&m).filter(|l| !l.is_empty()) else {
            continue;
        };
        let others_swapped = obs.model.others_swapped + 1 == table.players;
        let seats = (seat, table.players);
        let mut targets = policy::targets(&legal, seats, &mut konged, others_swapped, &mut rng);
        if table.in_trouble() {
            targets.clear();
        }
        for target in targets {
            match target {
                Target::Me => {
                    client = reconnect(Some(client), &mut obs, &table, &token, role, None).await
                }
                Target::Spectator => ask(&peers.spectator, &obs).await,
                Target::Player(other) => {
                    if let Some(tx) = &peers.players[other] {
                        ask(tx, &obs).await;
                    }
                }
            }
        }
        let Some(legal) = obs.owed.take().filter(|l| !l.is_empty()) else {
            obs.problem("the prompt was gone after the pause".into());
            continue;
        };
        let action = policy::choose(&legal, &obs.model.own, &mut rng);
        konged |= action["type"] == "concealed_kong";
        if let Err(e) = client.act(action).await {
            obs.problem(format!("sending an action: {e}"));
            break;
        }
    }
    Report::of(role, obs)
}

/// Watches the table as a spectator until it closes. `ready` is told once the first snapshot
/// is in (the early spectator connects before the players, so it sees every hand whole).
pub async fn spectator(
    table: Arc<Table>,
    role: Role,
    token: String,
    mut rx: mpsc::Receiver<Request>,
    ready: Option<oneshot::Sender<()>>,
) -> Report {
    let mut obs = Observer::new(label(&table, role), None, table.players);
    let mut client = None;
    if let Some(ready) = ready {
        client = Some(reconnect(None, &mut obs, &table, &token, role, None).await);
        let _ = ready.send(());
    }
    let mut rx_open = true;
    loop {
        let step = match client.as_mut() {
            Some(c) => tokio::select! {
                r = rx.recv(), if rx_open => Step::Request(r),
                m = c.next(WAIT) => Step::Message(m),
            },
            None if rx_open => Step::Request(rx.recv().await),
            None => break,
        };
        match step {
            Step::Request(None) => rx_open = false,
            Step::Request(Some(req)) => {
                if let Some(c) = client.as_mut() {
                    catch_up(c, &mut obs, &table, &req).await;
                }
                let fresh = reconnect(
                    client.take(),
                    &mut obs,
                    &table,
                    &token,
                    role,
                    Some(&req.public),
                );
                client = Some(fresh.await);
                obs.model.counted = req.counted;
                let _ = req.reply.send(());
            }
            Step::Message(r) => {
                let Some(m) = delivered(&mut obs, r) else {
                    break;
                };
                obs.check(&m, None);
                table.note(&obs);
                if m["type"] == "table_closed" {
                    break;
                }
            }
        }
    }
    Report::of(role, obs)
}

/// Asks an observer to reconnect at this seat's pause, and waits until it has.
async fn ask(tx: &mpsc::Sender<Request>, obs: &Observer) {
    let Some(public) = obs.model.public.clone() else {
        return;
    };
    let (reply, done) = oneshot::channel();
    let request = Request {
        hand_no: obs.model.hand_no,
        counted: obs.model.counted,
        public,
        reply,
    };
    if tx.send(request).await.is_ok() {
        let _ = done.await;
    }
}

/// Reads the stream up to the paused seat's last event; gives up once the table is in
/// trouble (a thrown-off model may wait for events that never come).
async fn catch_up(client: &mut Client, obs: &mut Observer, table: &Table, req: &Request) {
    let start = Instant::now();
    while (obs.model.hand_no, obs.model.counted) < (req.hand_no, req.counted) {
        if table.in_trouble() {
            return;
        }
        match client.next(Duration::from_secs(1)).await {
            Ok(Some(m)) => {
                if prompt_of(&m).is_some() {
                    obs.problem("prompted while another seat owed its turn".into());
                }
                obs.check(&m, None);
                table.note(obs);
            }
            // Nothing yet: look at the table's state again, up to the usual safety net.
            Err(_) if start.elapsed() < WAIT => {}
            other => {
                obs.problem(format!("the stream ended before the pause: {other:?}"));
                table.note(obs);
                return;
            }
        }
    }
}

/// Drops the connection (if any) and opens a new one without `last_seq`; checks every message
/// up to and including the snapshot that comes first.
async fn reconnect(
    old: Option<Client>,
    obs: &mut Observer,
    table: &Table,
    token: &str,
    role: Role,
    expected: Option<&Public>,
) -> Client {
    if old.is_some() {
        obs.stats.reconnects += 1;
    }
    drop(old);
    let opened = match role {
        Role::Seat(_) => Client::connect(table.addr, &table.id, token, None).await,
        Role::Early | Role::Late => Client::watch(table.addr, &table.id, token).await,
    };
    let mut client = opened.expect("the client reconnects");
    loop {
        match client.next(WAIT).await {
            Ok(Some(m)) => {
                let snapshot = m["type"] == "snapshot";
                obs.check(&m, if snapshot { expected } else { None });
                table.note(obs);
                if snapshot {
                    return client;
                }
            }
            other => {
                obs.problem(format!("no snapshot after reconnecting: {other:?}"));
                return client;
            }
        }
    }
}
