//! A run's result: one serializable object (`--json` prints it as one line) and its
//! human-readable form.

use std::collections::BTreeMap;
use std::fmt;

use hdrhistogram::Histogram;
use serde::Serialize;

use crate::probe::ServerSample;

/// Everything one run measured. Counts of failures (errors, dropped sockets) cover the whole
/// run; rates, latencies and hands cover the steady state only.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// `game` or `baseline`.
    pub target: String,
    /// The server's address (every node's, comma-separated, for a cluster).
    pub addr: String,
    /// The rooms' ruleset.
    pub ruleset: String,
    /// The clients' bot policy.
    pub policy: String,
    /// Actions per table per second asked for (0: as fast as possible).
    pub rate: f64,
    /// Tables asked for.
    pub tables: usize,
    /// Tables set up (all four seats taken).
    pub tables_set_up: usize,
    /// Sockets the set-up tables need.
    pub sockets_planned: usize,
    /// Sockets open when the steady state began.
    pub sockets_held: u64,
    /// Sockets still open when it ended.
    pub sockets_at_end: u64,
    /// Seconds from the start until every socket was connected (sign-ups, rooms, connections).
    pub setup_seconds: f64,
    /// Seconds played after that and before the steady state, not measured.
    pub warmup_seconds: f64,
    /// Seconds of steady state measured.
    pub seconds: f64,
    /// Actions sent in the steady state.
    pub actions: u64,
    /// `actions` per second.
    pub actions_per_second: f64,
    /// `ack` replies received in the steady state.
    pub acks: u64,
    /// Of `actions`, claims answered while the server held the claim window open: their
    /// effects come when the window closes, so they are not timed.
    pub deferred_actions: u64,
    /// Timed actions after which no socket of the table received anything before the next.
    pub uncaused_actions: u64,
    /// Frames received per second, over every socket.
    pub frames_per_second: f64,
    /// Mean size of a received frame, in bytes.
    pub mean_frame_bytes: f64,
    /// Latencies, in microseconds.
    pub latency_us: Latencies,
    /// `error` replies and unreadable frames.
    pub errors: u64,
    /// `errors` by code.
    pub error_codes: BTreeMap<String, u64>,
    /// WebSocket connections that failed.
    pub handshake_failures: u64,
    /// Tables whose HTTP set-up failed.
    pub http_failures: u64,
    /// Sockets closed unexpectedly (not at the end of the run, not after their table closed)
    /// that could not reconnect.
    pub dropped_sockets: u64,
    /// Sockets closed early that reconnected (a node restarting, a table moving).
    pub reconnects: u64,
    /// Hands finished in the steady state.
    pub hands_finished: u64,
    /// Hands finished over the whole run.
    pub hands_total: u64,
    /// Tables whose match ended during the run.
    pub tables_closed: u64,
    /// Decisions the policy could not make from the client's view (the simple rule chose).
    pub policy_fallbacks: u64,
    /// The server's figures.
    pub server: ServerFigures,
    /// This process's CPU seconds in the steady state (it shares the machine with the server).
    pub loadgen_cpu_seconds: Option<f64>,
    /// This process's resident memory at the end of the steady state, in bytes.
    pub loadgen_rss_bytes: Option<f64>,
    /// The hard deadline cut the run short.
    pub deadline_hit: bool,
}

/// Latency summaries, in microseconds.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Latencies {
    /// From an action to the first message it causes at each socket of the table.
    pub recipient: LatencySummary,
    /// From an action to that message at the last socket to get one.
    pub last_recipient: LatencySummary,
    /// From an action to its `ack`.
    pub ack: LatencySummary,
}

/// One latency distribution, in microseconds.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct LatencySummary {
    /// Samples.
    pub count: u64,
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// 99.9th percentile.
    pub p999: u64,
    /// Largest.
    pub max: u64,
    /// Mean.
    pub mean: f64,
}

impl LatencySummary {
    /// The summary of a histogram of microseconds.
    pub fn of(h: &Histogram<u64>) -> LatencySummary {
        if h.is_empty() {
            return LatencySummary::default();
        }
        LatencySummary {
            count: h.len(),
            p50: h.value_at_quantile(0.50),
            p90: h.value_at_quantile(0.90),
            p99: h.value_at_quantile(0.99),
            p999: h.value_at_quantile(0.999),
            max: h.max(),
            mean: h.mean(),
        }
    }
}

/// The server's figures: samples before the set-up, at the start and at the end of the
/// steady state, and what follows from them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ServerFigures {
    /// Before any table was set up.
    pub idle: ServerSample,
    /// When the steady state began.
    pub start: ServerSample,
    /// When it ended (every socket still open).
    pub end: ServerSample,
    /// Resident memory added since idle, per socket held, in bytes.
    pub rss_bytes_per_socket: Option<f64>,
    /// CPU seconds used in the steady state.
    pub cpu_seconds: Option<f64>,
    /// Cores busy on average in the steady state.
    pub cpu_cores: Option<f64>,
    /// CPU microseconds per action sent in the steady state.
    pub cpu_us_per_action: Option<f64>,
    /// Actions the server accepted in the steady state (its own count).
    pub actions: Option<f64>,
    /// Of those, decisions its bot made for a player's seat (a client too late).
    pub takeover_actions: Option<f64>,
    /// Hands it stored in the steady state.
    pub hands_stored: Option<f64>,
    /// CPU microseconds per action by thread name (the first node's process, given by
    /// `--server-pid`): which of the server's threads spend its CPU.
    pub cpu_us_per_action_by_thread: BTreeMap<String, f64>,
    /// Cores the rest of the machine kept busy in the steady state: every core's busy time
    /// less the server's (given by `--server-pid`) and the load generator's. Near zero on a
    /// quiet machine; anything else (a build, a server left over from an earlier run) competes
    /// with both and makes latencies incomparable across runs.
    pub other_cores: Option<f64>,
}

/// A game run and a baseline run under the same load.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The game server's run.
    pub game: Report,
    /// The baseline's run.
    pub baseline: Report,
    /// Game ÷ baseline: actions per second.
    pub actions_per_second_ratio: Option<f64>,
    /// Game ÷ baseline: p99 to the last recipient.
    pub p99_last_recipient_ratio: Option<f64>,
    /// Game ÷ baseline: CPU per action.
    pub cpu_per_action_ratio: Option<f64>,
    /// Game ÷ baseline: memory per socket.
    pub rss_per_socket_ratio: Option<f64>,
}

fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => Some(a / b),
        _ => None,
    }
}

impl Comparison {
    /// The two runs and their ratios.
    pub fn of(game: Report, baseline: Report) -> Comparison {
        let p99 = |r: &Report| Some(r.latency_us.last_recipient.p99 as f64);
        Comparison {
            actions_per_second_ratio: ratio(
                Some(game.actions_per_second),
                Some(baseline.actions_per_second),
            ),
            p99_last_recipient_ratio: ratio(p99(&game), p99(&baseline)),
            cpu_per_action_ratio: ratio(
                game.server.cpu_us_per_action,
                baseline.server.cpu_us_per_action,
            ),
            rss_per_socket_ratio: ratio(
                game.server.rss_bytes_per_socket,
                baseline.server.rss_bytes_per_socket,
            ),
            game,
            baseline,
        }
    }
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "?".into(), |v| format!("{v:.digits$}"))
}

fn ms(us: u64) -> String {
    format!("{:.2}", us as f64 / 1000.0)
}

impl fmt::Display for LatencySummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "p50 {} · p90 {} · p99 {} · p99.9 {} · max {} ms ({} samples)",
            ms(self.p50),
            ms(self.p90),
            ms(self.p99),
            ms(self.p999),
            ms(self.max),
            self.count
        )
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rate = if self.rate > 0.0 {
            format!("{} actions/table/s", self.rate)
        } else {
            "as fast as possible".into()
        };
        writeln!(
            f,
            "{} server at {} — {} tables ({} set up), {}, {} policy, ruleset {}",
            self.target,
            self.addr,
            self.tables,
            self.tables_set_up,
            rate,
            self.policy,
            self.ruleset
        )?;
        writeln!(
            f,
            "  sockets: {} planned, {} held, {} at the end; set-up {:.1} s; warm-up {:.1} s; steady {:.1} s{}",
            self.sockets_planned,
            self.sockets_held,
            self.sockets_at_end,
            self.setup_seconds,
            self.warmup_seconds,
            self.seconds,
            if self.deadline_hit {
                " (cut by the hard deadline)"
            } else {
                ""
            }
        )?;
        writeln!(
            f,
            "  actions: {} ({:.1}/s; {} deferred by held claim windows, {} caused nothing); frames in {:.0}/s, {:.0} B mean",
            self.actions,
            self.actions_per_second,
            self.deferred_actions,
            self.uncaused_actions,
            self.frames_per_second,
            self.mean_frame_bytes
        )?;
        writeln!(
            f,
            "  latency to each recipient:    {}",
            self.latency_us.recipient
        )?;
        writeln!(
            f,
            "  latency to the last recipient: {}",
            self.latency_us.last_recipient
        )?;
        writeln!(f, "  latency to the ack:           {}", self.latency_us.ack)?;
        writeln!(
            f,
            "  hands finished: {} ({} in all, {} tables closed); policy fallbacks {}",
            self.hands_finished, self.hands_total, self.tables_closed, self.policy_fallbacks
        )?;
        writeln!(
            f,
            "  failures: {} errors {:?}, {} handshakes, {} HTTP, {} dropped sockets ({} reconnected)",
            self.errors,
            self.error_codes,
            self.handshake_failures,
            self.http_failures,
            self.dropped_sockets,
            self.reconnects
        )?;
        let s = &self.server;
        writeln!(
            f,
            "  server: RSS {} MiB idle → {} MiB ({} B/socket); CPU {} s ({} cores, {} µs/action); accepted {} actions, {} by its bot, {} hands stored",
            opt(s.idle.rss_bytes.map(|b| b / 1048576.0), 1),
            opt(s.end.rss_bytes.map(|b| b / 1048576.0), 1),
            opt(s.rss_bytes_per_socket, 0),
            opt(s.cpu_seconds, 2),
            opt(s.cpu_cores, 2),
            opt(s.cpu_us_per_action, 1),
            opt(s.actions, 0),
            opt(s.takeover_actions, 0),
            opt(s.hands_stored, 0),
        )?;
        if !s.cpu_us_per_action_by_thread.is_empty() {
            let threads: Vec<String> = s
                .cpu_us_per_action_by_thread
                .iter()
                .map(|(name, us)| format!("{name} {us:.1}"))
                .collect();
            writeln!(
                f,
                "  server CPU per action by thread (µs): {}",
                threads.join(", ")
            )?;
        }
        write!(
            f,
            "  load generator: CPU {} s, RSS {} MiB; the rest of the machine {} cores",
            opt(self.loadgen_cpu_seconds, 2),
            opt(self.loadgen_rss_bytes.map(|b| b / 1048576.0), 1),
            opt(s.other_cores, 2)
        )
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.game)?;
        writeln!(f, "{}", self.baseline)?;
        write!(
            f,
            "game ÷ baseline: actions/s {}, p99 to the last recipient {}, CPU per action {}, memory per socket {}",
            opt(self.actions_per_second_ratio, 2),
            opt(self.p99_last_recipient_ratio, 2),
            opt(self.cpu_per_action_ratio, 2),
            opt(self.rss_per_socket_ratio, 2)
        )
    }
}
