//! Quick match: players wait in a queue per ruleset; as soon as a table's worth are waiting
//! they are seated together, and when the first in line has waited `quick_fill_ms`, whoever is
//! waiting is seated with bots in the empty seats.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use engine::Ruleset;
use store::{Player, PlayerId};
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::error::ApiError;
use crate::http::Seated;
use crate::room::Occupant;
use crate::{AppState, RoomSpec};

/// The level of the bots that fill a quick-match table.
const FILL_LEVEL: bot::Level = bot::Level::Strong;

struct Waiter {
    player: Player,
    since: Instant,
    reply: oneshot::Sender<Result<Seated, ApiError>>,
}

/// The queues, by ruleset id.
#[derive(Default)]
pub struct Queues {
    waiting: Mutex<HashMap<String, Vec<Waiter>>>,
}

impl Queues {
    /// How many players wait for a table of `ruleset` (a preset id).
    pub fn waiting(&self, ruleset: &str) -> usize {
        self.waiting
            .lock()
            .map(|q| {
                q.get(ruleset)
                    .map_or(0, |w| w.iter().filter(|w| !w.reply.is_closed()).count())
            })
            .unwrap_or(0)
    }
}

/// Queues `player` for `ruleset` and waits until they are seated.
pub async fn enqueue(
    state: &AppState,
    ruleset: Ruleset,
    player: Player,
) -> Result<Seated, ApiError> {
    let (reply, seated) = oneshot::channel();
    let now = state.timing.time.now();
    let key = ruleset.id().to_string();
    {
        let mut queues = state
            .queues
            .waiting
            .lock()
            .map_err(|_| ApiError::Internal("the queue is unavailable".into()))?;
        let queue = queues.entry(key.clone()).or_default();
        // A player queues once: a newer request replaces the older one, which is told so
        // (a conflict of the client's own making, not a failure of the server's).
        for replaced in queue.extract_if(.., |w| w.player.id == player.id) {
            let _ = replaced.reply.send(Err(ApiError::Conflict(
                "replaced by a newer quick-match request of the same player".into(),
            )));
        }
        queue.retain(|w| !w.reply.is_closed());
        queue.push(Waiter {
            player,
            since: now,
            reply,
        });
    }
    seat_full_tables(state, &ruleset).await;
    let fill_after = Duration::from_millis(state.config.quick_fill_ms);
    let filler = state.clone();
    let filled = ruleset.clone();
    let due = now + fill_after;
    tokio::spawn(async move {
        filler.timing.time.sleep_until(due).await;
        fill_with_bots(&filler, &filled, fill_after).await;
    });
    seated
        .await
        .map_err(|_| ApiError::Internal("the queue was dropped".into()))?
}

/// Seats every complete group of waiting players.
async fn seat_full_tables(state: &AppState, ruleset: &Ruleset) {
    let players = usize::from(ruleset.rules().flow().players);
    loop {
        let group = take(state, ruleset, |queue| queue.len() >= players, players);
        if group.is_empty() {
            return;
        }
        seat(state, ruleset, group).await;
    }
}

/// Seats whoever is waiting, with bots, once the first in line has waited long enough.
async fn fill_with_bots(state: &AppState, ruleset: &Ruleset, after: Duration) {
    let players = usize::from(ruleset.rules().flow().players);
    let now = state.timing.time.now();
    let group = take(
        state,
        ruleset,
        |queue| queue.first().is_some_and(|w| now >= w.since + after),
        players,
    );
    if !group.is_empty() {
        seat(state, ruleset, group).await;
    }
}

/// Takes up to `n` live waiters off the queue when `ready` says so.
fn take(
    state: &AppState,
    ruleset: &Ruleset,
    ready: impl Fn(&[Waiter]) -> bool,
    n: usize,
) -> Vec<Waiter> {
    let Ok(mut queues) = state.queues.waiting.lock() else {
        return Vec::new();
    };
    let Some(queue) = queues.get_mut(&ruleset.id().to_string()) else {
        return Vec::new();
    };
    queue.retain(|w| !w.reply.is_closed());
    if !ready(queue) {
        return Vec::new();
    }
    let n = n.min(queue.len());
    queue.drain(..n).collect()
}

async fn seat(state: &AppState, ruleset: &Ruleset, group: Vec<Waiter>) {
    let players = usize::from(ruleset.rules().flow().players);
    let mut occupants: Vec<Occupant> = group
        .iter()
        .map(|w| Occupant::Player {
            id: w.player.id.clone(),
            name: w.player.display_name.clone(),
        })
        .collect();
    occupants.resize(players, Occupant::Bot(FILL_LEVEL));
    let spec = RoomSpec {
        clock: crate::room::Clock {
            claim_ms: state.timing.claim_window_ms,
            ..crate::room::Clock::DEFAULT
        },
        hands: crate::room::default_hands(ruleset),
        public: false,
        spectator_delay_ms: 0,
    };
    let opened = state
        .open_room(ruleset.clone(), engine::RawOptions::new(), spec, occupants)
        .await;
    for (seat, waiter) in group.into_iter().enumerate() {
        let answer = match &opened {
            Ok((table, code, _)) => Ok(Seated {
                table: table.clone(),
                seat: seat as u8,
                code: code.clone(),
            }),
            Err(e) => Err(ApiError::Internal(format!(
                "the table could not be opened: {e}"
            ))),
        };
        let _ = waiter.reply.send(answer);
    }
}

/// Whether `player` is waiting in any queue (for tests and the lobby).
pub fn is_waiting(state: &AppState, player: &PlayerId) -> bool {
    state
        .queues
        .waiting
        .lock()
        .map(|q| q.values().flatten().any(|w| &w.player.id == player))
        .unwrap_or(false)
}
