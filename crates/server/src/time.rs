//! The rooms' time: the system's, or a hand-driven one that a test moves on.
//!
//! Everything a room times (decision deadlines and banks, claim windows, the grace before 托管,
//! the reconnection window, the gap between hands, how far spectators lag, how long a seat's
//! stream is kept) reads [`TimeSource`], so a test can play a table over real sockets and a real
//! database and still say exactly how much time passed. tokio's paused clock cannot do that
//! here: it jumps to the next timer whenever the runtime waits, and a room waits on SQLite's
//! worker thread, so a deadline would pass while a write was in flight.

use std::sync::Arc;
use std::time::Duration;

use store::UnixMillis;
use tokio::sync::watch;
use tokio::time::Instant;

/// Where a room's time comes from.
#[derive(Clone, Debug, Default)]
pub enum TimeSource {
    /// The system clock (tokio's, for timers).
    #[default]
    System,
    /// Time that moves only when [`ManualTime::advance`] says so.
    Manual(ManualTime),
}

impl TimeSource {
    /// Now, for timers and durations.
    pub fn now(&self) -> Instant {
        match self {
            TimeSource::System => Instant::now(),
            TimeSource::Manual(m) => m.inner.start + m.elapsed(),
        }
    }

    /// Now as Unix milliseconds, for the deadlines clients are told.
    pub fn unix_ms(&self) -> UnixMillis {
        match self {
            TimeSource::System => UnixMillis::now(),
            TimeSource::Manual(m) => {
                let ms = i64::try_from(m.elapsed().as_millis()).unwrap_or(i64::MAX);
                m.inner.start_unix.plus_ms(ms)
            }
        }
    }

    /// Waits until `at`, or for ever when there is nothing to wait for (a timer branch of a
    /// `select!` that is off).
    pub async fn sleep_until_some(&self, at: Option<Instant>) {
        match at {
            Some(at) => self.sleep_until(at).await,
            None => std::future::pending().await,
        }
    }

    /// Waits until `at`.
    pub async fn sleep_until(&self, at: Instant) {
        match self {
            TimeSource::System => tokio::time::sleep_until(at).await,
            TimeSource::Manual(m) => {
                let target = at.saturating_duration_since(m.inner.start);
                let mut rx = m.inner.elapsed.subscribe();
                // The sender lives as long as any clone of the source, this one included.
                let _ = rx.wait_for(|e| *e >= target).await;
            }
        }
    }
}

/// A hand-driven clock: it starts at the real time of its creation and moves only when told.
#[derive(Clone, Debug)]
pub struct ManualTime {
    inner: Arc<Manual>,
}

#[derive(Debug)]
struct Manual {
    start: Instant,
    start_unix: UnixMillis,
    elapsed: watch::Sender<Duration>,
}

impl ManualTime {
    /// A clock standing at the real time now.
    pub fn new() -> ManualTime {
        ManualTime {
            inner: Arc::new(Manual {
                start: Instant::now(),
                start_unix: UnixMillis::now(),
                elapsed: watch::Sender::new(Duration::ZERO),
            }),
        }
    }

    /// Moves the clock on by `by`, waking whatever was waiting for a time now passed.
    pub fn advance(&self, by: Duration) {
        self.inner.elapsed.send_modify(|e| *e += by);
    }

    /// How far the clock has moved since it was made.
    pub fn elapsed(&self) -> Duration {
        *self.inner.elapsed.borrow()
    }

    /// The source rooms read.
    pub fn source(&self) -> TimeSource {
        TimeSource::Manual(self.clone())
    }
}

impl Default for ManualTime {
    fn default() -> ManualTime {
        ManualTime::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn manual_time_moves_only_when_told_and_wakes_its_sleepers() {
        let clock = ManualTime::new();
        let time = clock.source();
        let start = time.now();
        let unix = time.unix_ms();
        let due = start + Duration::from_secs(5);
        let sleeper = tokio::spawn({
            let time = time.clone();
            async move { time.sleep_until(due).await }
        });
        clock.advance(Duration::from_secs(4));
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished(), "woke a second early");
        assert_eq!(time.now() - start, Duration::from_secs(4));
        clock.advance(Duration::from_secs(1));
        sleeper.await.expect("the sleeper wakes at its time");
        assert_eq!(time.unix_ms().0 - unix.0, 5_000);
        // A time already passed does not wait.
        time.sleep_until(start).await;
    }
}
