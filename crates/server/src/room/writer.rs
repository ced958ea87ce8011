//! The finished hands' writer. A room hands it a finished hand and goes on serving its players
//! (commands, reconnections, timers) while the write is in flight; the writer answers once the
//! hand is durable, and only then does the room announce the result and deal again. While the
//! database is unreachable or cannot take the write (a full disk, a file or a server gone
//! read-only: `StoreError::is_transient`) it retries for as long as it takes, backing off to
//! one attempt every 30 s and logging with the same backoff: a result is never dropped, and an
//! outage is a few lines in the log, not one a second.

use std::sync::Arc;
use std::time::Duration;

use store::{FinishedHand, PlayerId, Store, StoreError};
use tokio::sync::oneshot;

use super::backoff::Backoff;
use crate::metrics::{Metrics, bump};
use crate::time::TimeSource;

/// The writer's answer.
#[derive(Debug)]
pub enum Written {
    /// The hand is stored.
    Durable,
    /// The database refused the hand for good (a constraint, not an outage): logged and
    /// counted in `hand_store_failures_total`; the table goes on (its actions stay in the log).
    Refused,
    /// The writer stopped without answering (the runtime is shutting down).
    WriterGone,
    /// Another node holds the table now (the write was fenced): it stores the hand.
    Lost,
}

/// One seat's part in the rating of a match that just finished.
#[derive(Clone, Debug)]
pub struct RatedSeat {
    /// The player credited with the seat, if a person sat there.
    pub player: Option<PlayerId>,
    /// Whether that player escaped (rated as last).
    pub escaped: bool,
    /// The seat's final score.
    pub score: i64,
}

/// A finished hand to store; for the match's last hand, the seats to rate (the ratings are
/// read and changed by the writer, so the room never waits on them either).
pub struct Job {
    /// The node's claim on the table, which the write is made under.
    pub claim: store::Claim,
    pub hand: FinishedHand,
    pub rated: Option<Vec<RatedSeat>>,
}

/// Starts writing `job`; the answer comes on the returned channel.
pub fn spawn(
    store: Store,
    metrics: Arc<Metrics>,
    time: TimeSource,
    job: Job,
) -> oneshot::Receiver<Written> {
    let (tx, rx) = oneshot::channel();
    tokio::spawn(async move {
        let written = write(&store, &metrics, &time, job).await;
        let _ = tx.send(written);
    });
    rx
}

async fn write(store: &Store, metrics: &Metrics, time: &TimeSource, mut job: Job) -> Written {
    let mut backoff = Backoff::new(Duration::from_millis(100), Duration::from_secs(30));
    let hand_no = job.hand.hand_no;
    loop {
        let started = std::time::Instant::now();
        match attempt_once(store, &mut job).await {
            Ok(()) => {
                bump(&metrics.hands_total);
                metrics
                    .hand_write_seconds
                    .record(started.elapsed().as_secs_f64());
                let failures = backoff.succeeded();
                if failures > 0 {
                    tracing::info!(hand = hand_no, failures, "the finished hand is stored");
                }
                return Written::Durable;
            }
            Err(StoreError::Fenced { .. }) => return Written::Lost,
            Err(e) if e.is_transient() => {
                bump(&metrics.store_failures_total);
                let retry = backoff.failed();
                if retry.log {
                    tracing::warn!(
                        error = %e, hand = hand_no, attempt = retry.attempt,
                        "storing a finished hand failed; the table waits, and retries"
                    );
                }
                time.sleep_until(time.now() + retry.wait).await;
            }
            Err(e) => {
                bump(&metrics.store_failures_total);
                bump(&metrics.hand_store_failures_total);
                tracing::error!(error = %e, hand = hand_no, "the database refused a finished hand");
                return Written::Refused;
            }
        }
    }
}

/// One try: the ratings first (once), then the hand with everything it changes.
async fn attempt_once(store: &Store, job: &mut Job) -> Result<(), StoreError> {
    if let Some(seats) = job.rated.take() {
        match ratings(store, &job.hand.ruleset, &seats).await {
            Ok(changes) => job.hand.ratings = changes,
            Err(e) if e.is_transient() => {
                job.rated = Some(seats);
                return Err(e);
            }
            // A rating that cannot be read for good leaves the match unrated; its hand is
            // still stored.
            Err(e) => tracing::error!(error = %e, "ratings unreadable; the match is not rated"),
        }
    }
    store.record_hand(&job.claim, &job.hand).await.map(|_| ())
}

/// The rating changes of a finished match, from its final scores (`crate::rating`).
async fn ratings(
    store: &Store,
    ruleset: &str,
    seats: &[RatedSeat],
) -> Result<Vec<store::RatingChange>, StoreError> {
    let mut placements = Vec::with_capacity(seats.len());
    for seat in seats {
        let rating = match &seat.player {
            Some(p) => Some(store.rating(p, ruleset).await?.0),
            None => None,
        };
        placements.push(if seat.escaped {
            crate::rating::Placement::escaped(rating, seat.score)
        } else {
            crate::rating::Placement {
                rating,
                score: seat.score,
            }
        });
    }
    let changes = crate::rating::changes(&placements);
    Ok(seats
        .iter()
        .zip(changes)
        .filter_map(|(s, delta)| {
            s.player.as_ref().map(|p| store::RatingChange {
                player: p.clone(),
                delta,
            })
        })
        .collect())
}
