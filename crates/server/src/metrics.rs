//! `/metrics`: counters kept by the server and the process's own figures, in the Prometheus
//! text format. Counters are plain atomics owned by the server (not a process-global recorder),
//! so several servers in one process — as in the tests — keep their own.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

/// The server's counters.
#[derive(Debug, Default)]
pub struct Metrics {
    /// WebSocket connections accepted.
    pub connections_total: AtomicU64,
    /// WebSocket connections open now.
    pub connections_open: AtomicU64,
    /// Client messages received.
    pub messages_in_total: AtomicU64,
    /// Client messages refused (any error code).
    pub messages_refused_total: AtomicU64,
    /// Actions accepted into a room's log (players, bots and timeouts).
    pub actions_total: AtomicU64,
    /// Decisions the bot made for a player's seat (timeouts and 托管).
    pub takeover_actions_total: AtomicU64,
    /// Hands finished and stored.
    pub hands_total: AtomicU64,
    /// Writes of a finished hand that failed for good.
    pub hand_store_failures_total: AtomicU64,
    /// Calls of the store from rooms that failed, each attempt counted (an action log append,
    /// a deal, seats, carried state, a status, a finished hand's try, a rating read).
    pub store_failures_total: AtomicU64,
}

/// Adds one to a counter.
pub fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

impl Metrics {
    /// The text exposition, with the live rooms counted by the caller.
    pub fn render(&self, rooms: usize) -> String {
        let mut out = String::new();
        let mut put = |name: &str, kind: &str, help: &str, value: f64| {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        };
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed) as f64;
        put("mahjong_rooms", "gauge", "Rooms running.", rooms as f64);
        put(
            "mahjong_ws_connections_total",
            "counter",
            "WebSocket connections accepted.",
            get(&self.connections_total),
        );
        put(
            "mahjong_ws_connections",
            "gauge",
            "WebSocket connections open.",
            get(&self.connections_open),
        );
        put(
            "mahjong_ws_messages_in_total",
            "counter",
            "Client messages received.",
            get(&self.messages_in_total),
        );
        put(
            "mahjong_ws_messages_refused_total",
            "counter",
            "Client messages refused with an error.",
            get(&self.messages_refused_total),
        );
        put(
            "mahjong_actions_total",
            "counter",
            "Actions accepted into room logs.",
            get(&self.actions_total),
        );
        put(
            "mahjong_takeover_actions_total",
            "counter",
            "Decisions the bot made for a player's seat.",
            get(&self.takeover_actions_total),
        );
        put(
            "mahjong_hands_total",
            "counter",
            "Hands finished and stored.",
            get(&self.hands_total),
        );
        put(
            "mahjong_hand_store_failures_total",
            "counter",
            "Finished hands that could not be stored.",
            get(&self.hand_store_failures_total),
        );
        put(
            "mahjong_store_failures_total",
            "counter",
            "Calls of the store from rooms that failed, each attempt counted.",
            get(&self.store_failures_total),
        );
        if let Some(p) = process() {
            put(
                "process_resident_memory_bytes",
                "gauge",
                "Resident memory.",
                p.rss_bytes,
            );
            put(
                "process_cpu_seconds_total",
                "counter",
                "User and system CPU time.",
                p.cpu_seconds,
            );
            put(
                "process_open_fds",
                "gauge",
                "Open file descriptors.",
                p.open_fds,
            );
        }
        out
    }
}

struct Process {
    rss_bytes: f64,
    cpu_seconds: f64,
    open_fds: f64,
}

/// The process's memory, CPU time and open files, from /proc (Linux; None elsewhere).
fn process() -> Option<Process> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: f64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    let open_fds = std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count()) as f64;
    // 4 KiB pages and 100 clock ticks a second: the values on every Linux this runs on.
    Some(Process {
        rss_bytes: pages * 4096.0,
        cpu_seconds: (utime + stime) / 100.0,
        open_fds,
    })
}
