//! What a run counts and times: counters shared by every client, latency histograms, and one
//! [`TableClock`] per table that paces its actions and times what each action causes.
//!
//! Latency is timed per table. When a client sends an action, the table's clock opens it (and
//! closes the one before); the first message of the stream (anything with a `seq`) that then
//! reaches each of the table's sockets is that action's arrival there. Each arrival is one sample
//! of "per recipient"; when every socket has had one, or the next action at the table closes it,
//! the slowest arrival is one sample of "to the last recipient". Replies (`ack`, `error`) are
//! not part of the stream; the `ack` is timed on its own.
//!
//! Paced (`--rate R`), actions at a table are at least 1/R s apart, so what arrives between two
//! of them is what the first caused. Each paced decision also waits a think time drawn
//! uniformly from [0, 1/R) after its prompt arrives, as a player would. Without it every table
//! answers the instant the server's claim window closes, the tables' rhythms (a discard, a
//! 2 s window, the next discard) lock into phase, and the run measures thousands of tables
//! acting in the same millisecond every two seconds, which no room of people does. As fast as possible (`--rate 0`), several seats answer one
//! claim window at once, and a message may be credited to a later action than the one that
//! caused it: figures at rate 0 are throughput figures.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use engine::wall::SeededRng;
use hdrhistogram::Histogram;
use tokio::time::Instant;

/// The longest latency recorded exactly, in microseconds; longer ones count as this.
const MAX_US: u64 = 120_000_000;

/// Counters every client adds to.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    /// Actions sent.
    pub(crate) actions: AtomicU64,
    /// Actions whose effects the server holds back by design (a claim answered while the claim
    /// window is held open): not timed.
    pub(crate) deferred: AtomicU64,
    /// Timed actions after which no socket of the table got anything before the next action.
    pub(crate) uncaused: AtomicU64,
    /// `ack` replies.
    pub(crate) acks: AtomicU64,
    /// `error` replies, and frames that are not the protocol.
    pub(crate) errors: AtomicU64,
    /// WebSocket connections that failed (TCP connect, handshake, or `hello` not sent).
    pub(crate) handshake_failures: AtomicU64,
    /// HTTP requests that failed.
    pub(crate) http_failures: AtomicU64,
    /// Sockets that closed before the end of the run without their table closing, and could
    /// not reconnect.
    pub(crate) dropped: AtomicU64,
    /// Sockets that closed early and reconnected (to the same node or another) with their
    /// last `seq`: a node restarting, or a table moving.
    pub(crate) reconnects: AtomicU64,
    /// Sockets open now.
    pub(crate) open: AtomicU64,
    /// Hands finished (one per table and hand).
    pub(crate) hands: AtomicU64,
    /// Tables whose match ended during the run.
    pub(crate) tables_closed: AtomicU64,
    /// Frames received.
    pub(crate) frames_in: AtomicU64,
    /// Bytes of frames received.
    pub(crate) bytes_in: AtomicU64,
    /// Decisions where the policy gave no legal action and the simple rule chose.
    pub(crate) fallbacks: AtomicU64,
}

/// A copy of the counters at one moment.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CounterValues {
    pub(crate) actions: u64,
    pub(crate) deferred: u64,
    pub(crate) uncaused: u64,
    pub(crate) acks: u64,
    pub(crate) errors: u64,
    pub(crate) handshake_failures: u64,
    pub(crate) http_failures: u64,
    pub(crate) dropped: u64,
    pub(crate) reconnects: u64,
    pub(crate) open: u64,
    pub(crate) hands: u64,
    pub(crate) tables_closed: u64,
    pub(crate) frames_in: u64,
    pub(crate) bytes_in: u64,
    pub(crate) fallbacks: u64,
}

impl Counters {
    pub(crate) fn values(&self) -> CounterValues {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        CounterValues {
            actions: get(&self.actions),
            deferred: get(&self.deferred),
            uncaused: get(&self.uncaused),
            acks: get(&self.acks),
            errors: get(&self.errors),
            handshake_failures: get(&self.handshake_failures),
            http_failures: get(&self.http_failures),
            dropped: get(&self.dropped),
            reconnects: get(&self.reconnects),
            open: get(&self.open),
            hands: get(&self.hands),
            tables_closed: get(&self.tables_closed),
            frames_in: get(&self.frames_in),
            bytes_in: get(&self.bytes_in),
            fallbacks: get(&self.fallbacks),
        }
    }
}

/// Adds one.
pub(crate) fn bump(c: &AtomicU64) {
    c.fetch_add(1, Ordering::Relaxed);
}

/// The latency histograms, in microseconds.
pub(crate) struct Histograms {
    /// From an action to its first arrival at each socket of the table.
    pub(crate) recipient: Histogram<u64>,
    /// From an action to its arrival at the last socket that got one.
    pub(crate) last: Histogram<u64>,
    /// From an action to its `ack`.
    pub(crate) ack: Histogram<u64>,
}

impl Histograms {
    fn new() -> Histograms {
        let h = || {
            Histogram::new_with_bounds(1, MAX_US, 3)
                .expect("1 µs to 120 s at 3 significant figures is a valid range")
        };
        Histograms {
            recipient: h(),
            last: h(),
            ack: h(),
        }
    }
}

/// Everything the clients of one run share.
pub(crate) struct Stats {
    pub(crate) counters: Counters,
    /// Held for a few nanoseconds per sample, never across an `.await`.
    histograms: Mutex<Histograms>,
    /// `error` replies by code.
    error_codes: Mutex<BTreeMap<String, u64>>,
}

impl Stats {
    pub(crate) fn new() -> Stats {
        Stats {
            counters: Counters::default(),
            histograms: Mutex::new(Histograms::new()),
            error_codes: Mutex::new(BTreeMap::new()),
        }
    }

    fn with_histograms<R>(&self, f: impl FnOnce(&mut Histograms) -> R) -> R {
        let mut guard = match self.histograms.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        f(&mut guard)
    }

    /// Forgets every sample (at the start of the steady state).
    pub(crate) fn reset_histograms(&self) {
        self.with_histograms(|h| {
            h.recipient.reset();
            h.last.reset();
            h.ack.reset();
        });
    }

    /// The histograms as they are now.
    pub(crate) fn histograms(&self) -> (Histogram<u64>, Histogram<u64>, Histogram<u64>) {
        self.with_histograms(|h| (h.recipient.clone(), h.last.clone(), h.ack.clone()))
    }

    /// Times an `ack`.
    pub(crate) fn ack(&self, latency: Duration) {
        bump(&self.counters.acks);
        self.with_histograms(|h| h.ack.saturating_record(micros(latency)));
    }

    /// Counts an `error` reply with its code.
    pub(crate) fn error(&self, code: &str) {
        bump(&self.counters.errors);
        let mut codes = match self.error_codes.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        *codes.entry(code.to_string()).or_default() += 1;
    }

    /// The `error` replies by code.
    pub(crate) fn error_codes(&self) -> BTreeMap<String, u64> {
        match self.error_codes.lock() {
            Ok(g) => g.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX).max(1)
}

/// One table's pacing and the action being timed there.
pub(crate) struct TableClock {
    /// Sockets at the table.
    seats: u8,
    /// Time between two actions; zero for as fast as possible.
    interval: Duration,
    /// Held briefly, never across an `.await`.
    inner: Mutex<ClockInner>,
}

struct ClockInner {
    next_slot: Option<Instant>,
    open: Option<OpenAction>,
    /// Draws think times: the table's own, reproducible stream.
    think: SeededRng,
}

/// Think times are drawn in millionths of the interval.
const THINK_STEPS: u32 = 1_000_000;

impl ClockInner {
    /// A fraction of the interval in [0, 1).
    fn think_fraction(&mut self) -> f64 {
        f64::from(self.think.below(THINK_STEPS)) / f64::from(THINK_STEPS)
    }
}

struct OpenAction {
    sent: Instant,
    /// Sockets (by seat bit) that have had their first message since.
    arrived: u8,
    slowest: Duration,
    timed: bool,
}

impl TableClock {
    /// A clock for table number `table` of `seats` sockets, `rate` actions a second (0: no
    /// pacing).
    pub(crate) fn new(table: usize, seats: u8, rate: f64) -> TableClock {
        let interval = if rate > 0.0 {
            Duration::from_secs_f64(1.0 / rate)
        } else {
            Duration::ZERO
        };
        TableClock {
            seats,
            interval,
            inner: Mutex::new(ClockInner {
                next_slot: None,
                open: None,
                think: SeededRng::new(table as u64),
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ClockInner> {
        match self.inner.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// When a decision that arrived at `now` may be sent: after a think time, at the table's
    /// next free slot, but no later than `latest` (so a paced client never lets the server's
    /// clock decide for it).
    pub(crate) fn slot(&self, now: Instant, latest: Instant) -> Instant {
        if self.interval.is_zero() {
            return now;
        }
        let mut inner = self.lock();
        let thought = now + self.interval.mul_f64(inner.think_fraction());
        let slot = inner.next_slot.map_or(thought, |s| s.max(thought));
        inner.next_slot = Some(slot + self.interval);
        slot.min(latest).max(now)
    }

    /// An action was sent at `now`; `timed` says whether its latency counts.
    pub(crate) fn sent(&self, now: Instant, timed: bool, stats: &Stats) {
        let previous = self.lock().open.replace(OpenAction {
            sent: now,
            arrived: 0,
            slowest: Duration::ZERO,
            timed,
        });
        if let Some(p) = previous {
            close(p, stats);
        }
    }

    /// A stream message reached the socket of `seat` at `now`.
    pub(crate) fn arrived(&self, seat: u8, now: Instant, stats: &Stats) {
        let bit = 1u8 << (seat & 7);
        let all = if self.seats >= 8 {
            u8::MAX
        } else {
            (1u8 << self.seats) - 1
        };
        let (sample, done) = {
            let mut inner = self.lock();
            let Some(open) = inner.open.as_mut() else {
                return;
            };
            if open.arrived & bit != 0 {
                return;
            }
            open.arrived |= bit;
            let latency = now.saturating_duration_since(open.sent);
            open.slowest = open.slowest.max(latency);
            let sample = open.timed.then_some(latency);
            let done = if open.arrived & all == all {
                inner.open.take()
            } else {
                None
            };
            (sample, done)
        };
        if let Some(latency) = sample {
            stats.with_histograms(|h| h.recipient.saturating_record(micros(latency)));
        }
        if let Some(d) = done {
            close(d, stats);
        }
    }

    /// Closes the action being timed (at the end of the run).
    pub(crate) fn finish(&self, stats: &Stats) {
        let open = self.lock().open.take();
        if let Some(o) = open {
            close(o, stats);
        }
    }
}

fn close(action: OpenAction, stats: &Stats) {
    if !action.timed {
        return;
    }
    if action.arrived == 0 {
        bump(&stats.counters.uncaused);
        return;
    }
    stats.with_histograms(|h| h.last.saturating_record(micros(action.slowest)));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paced slots come after a think time shorter than the interval, at least an interval
    /// apart, and tables think differently (so they do not act in step).
    #[test]
    fn paced_slots_think_and_keep_the_pace() {
        let now = Instant::now();
        let interval = Duration::from_secs(1);
        let far = now + Duration::from_secs(3600);
        let clock = TableClock::new(7, 4, 1.0);
        let mut last: Option<Instant> = None;
        for _ in 0..50 {
            let slot = clock.slot(now, far);
            assert!(slot >= now);
            if let Some(prev) = last {
                assert!(slot >= prev + interval, "slots closer than the pace");
                assert!(
                    slot < prev + interval * 2,
                    "a think time longer than the interval"
                );
            } else {
                assert!(slot < now + interval);
            }
            last = Some(slot);
        }
        let firsts: Vec<Instant> = (0..20)
            .map(|t| TableClock::new(t, 4, 1.0).slot(now, far))
            .collect();
        let distinct = firsts
            .iter()
            .filter(|a| firsts.iter().filter(|b| b == a).count() == 1)
            .count();
        assert!(distinct >= 18, "tables think alike: {firsts:?}");
        // No later than the deadline allows, and no pacing at rate 0.
        assert_eq!(clock.slot(now, now), now);
        assert_eq!(TableClock::new(1, 4, 0.0).slot(now, far), now);
    }
}
