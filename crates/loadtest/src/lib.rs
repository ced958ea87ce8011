//! `mahjong loadtest`: measures the game server the way a host would size it.
//!
//! A run signs up four guests per table over HTTP, opens one room per table (the first guest
//! creates it, the other three join with its code), connects four WebSocket clients per table
//! (subprotocol `mahjong.v1`, `hello` with the guest's token), and plays whole hands: every
//! prompt is answered by a bot policy (`basic` by default) from the seat's own view, which each
//! client keeps from the stream. Actions are paced per table (`rate` actions a second, each
//! after a random think time, or as fast as possible), and the run stops after `seconds` of steady state, every socket closed
//! cleanly, with a hard deadline over the whole.
//!
//! It reports tables and sockets held, actions per second, the latency from an action to the
//! first message it causes at each socket of its table and at the last of them
//! (p50/p90/p99/p99.9/max, from HDR histograms), errors, dropped sockets, hands finished, and
//! the server's memory and CPU from its `/metrics` (or `/proc` for `server_pid`).
//!
//! The [`baseline`] server answers the same clients with the same frames and no game, so the
//! game server's figures read as a ratio of what the machine can do.
//!
//! Client sockets are spread over the source addresses 127.0.0.1 … 127.0.0.K with TCP_NODELAY:
//! loopback only, so that tens of thousands of sockets never run out of local ports.
//!
//! ```no_run
//! # async fn example() -> Result<(), loadtest::LoadError> {
//! let mut options = loadtest::Options::defaults();
//! options.addr = "127.0.0.1:8080".into();
//! options.tables = 200;
//! options.seconds = 10.0;
//! let report = loadtest::run(&options, loadtest::Target::Game).await?;
//! println!("{report}");
//! # Ok(())
//! # }
//! ```

pub mod baseline;
mod client;
mod error;
mod http;
mod measure;
mod model;
mod net;
pub mod probe;
mod report;
mod run;
mod setup;
pub mod soak;

use std::net::SocketAddr;

pub use error::LoadError;
pub use report::{Comparison, Latencies, LatencySummary, Report, ServerFigures};
pub use run::run;

/// What to load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The game server: guests, rooms, whole hands.
    Game,
    /// The [`baseline`] broadcast server: rooms by number, no game.
    Baseline,
}

impl Target {
    /// Its name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Target::Game => "game",
            Target::Baseline => "baseline",
        }
    }
}

/// How a run loads its target. Every flag is also an environment variable.
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
    /// The server's address: an IPv4 loopback address and port; or several nodes' of one
    /// cluster, comma-separated. With several, table `t` is set up through node `t mod n`
    /// and its seat `s` connects through node `(t + s) mod n`, as a load balancer would
    /// spread them: most sockets are relayed to their table's node.
    #[arg(long, env = "MAHJONG_LOADTEST_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Tables to open, four sockets each.
    #[arg(long, env = "MAHJONG_LOADTEST_TABLES", default_value_t = 20)]
    pub tables: usize,
    /// Seconds of steady state to measure, after the warm-up.
    #[arg(long, env = "MAHJONG_LOADTEST_SECONDS", default_value_t = 10.0)]
    pub seconds: f64,
    /// Seconds played once every socket is connected and before the steady state, not
    /// measured: every table deals its first hand the moment its last player connects, so the
    /// first seconds are a burst of deals and first decisions that a running server never
    /// sees again.
    #[arg(long, env = "MAHJONG_LOADTEST_WARMUP_SECONDS", default_value_t = 10.0)]
    pub warmup_seconds: f64,
    /// Actions per table per second; 0 for as fast as possible.
    #[arg(long, env = "MAHJONG_LOADTEST_RATE", default_value_t = 1.0)]
    pub rate: f64,
    /// Hard deadline over the whole run, set-up and warm-up included, in seconds (default:
    /// `warmup_seconds` + `seconds` + 300).
    #[arg(long, env = "MAHJONG_LOADTEST_DEADLINE_SECONDS")]
    pub deadline_seconds: Option<f64>,
    /// Source addresses to spread client sockets over: 127.0.0.1 … 127.0.0.K.
    #[arg(long, env = "MAHJONG_LOADTEST_SOURCE_ADDRS", default_value_t = 16)]
    pub source_addrs: u8,
    /// The rooms' ruleset preset id.
    #[arg(
        long,
        env = "MAHJONG_LOADTEST_RULESET",
        default_value = "sichuan-xuezhan"
    )]
    pub ruleset: String,
    /// The bot policy the clients play (`random`, `simple`, `basic`, `strong`).
    #[arg(long, env = "MAHJONG_LOADTEST_POLICY", default_value = "basic")]
    pub policy: bot::Level,
    /// The rooms' seconds per decision (3–300): long, so that the server's bot never plays for
    /// a paced client.
    #[arg(long, env = "MAHJONG_LOADTEST_ACTION_SECONDS", default_value_t = 120)]
    pub action_seconds: u64,
    /// Hands in each room's match (1–64).
    #[arg(long, env = "MAHJONG_LOADTEST_HANDS", default_value_t = 64)]
    pub hands: u64,
    /// The server's process id, to read its memory and CPU from /proc where `/metrics` lacks
    /// them.
    #[arg(long, env = "MAHJONG_LOADTEST_SERVER_PID")]
    pub server_pid: Option<u32>,
    /// Kept-alive HTTP connections used to set up tables.
    #[arg(long, env = "MAHJONG_LOADTEST_HTTP_CONNECTIONS", default_value_t = 8)]
    pub http_connections: usize,
    /// WebSocket handshakes in flight at once while connecting.
    #[arg(
        long,
        env = "MAHJONG_LOADTEST_CONNECT_CONCURRENCY",
        default_value_t = 128
    )]
    pub connect_concurrency: usize,
}

impl Options {
    /// The defaults of every flag.
    pub fn defaults() -> Options {
        Options {
            addr: "127.0.0.1:8080".into(),
            tables: 20,
            seconds: 10.0,
            warmup_seconds: 10.0,
            rate: 1.0,
            deadline_seconds: None,
            source_addrs: 16,
            ruleset: "sichuan-xuezhan".into(),
            policy: bot::Level::Basic,
            action_seconds: 120,
            hands: 64,
            server_pid: None,
            http_connections: 8,
            connect_concurrency: 128,
        }
    }

    /// The target address, checked to be IPv4 loopback (source addresses 127.0.0.x can reach
    /// only that).
    ///
    /// # Errors
    /// [`LoadError::Target`] for anything else.
    pub fn target_addr(&self) -> Result<SocketAddr, LoadError> {
        self.target_addrs()?
            .first()
            .copied()
            .ok_or_else(|| LoadError::Target {
                addr: self.addr.clone(),
            })
    }

    /// Every node's address, each checked as [`Options::target_addr`] checks the first.
    ///
    /// # Errors
    /// [`LoadError::Target`] when any is not an IPv4 loopback address with a port.
    pub fn target_addrs(&self) -> Result<Vec<SocketAddr>, LoadError> {
        let bad = || LoadError::Target {
            addr: self.addr.clone(),
        };
        self.addr
            .split(',')
            .map(|a| match a.trim().parse::<SocketAddr>() {
                Ok(addr @ SocketAddr::V4(v4)) if v4.ip().is_loopback() && v4.port() != 0 => {
                    Ok(addr)
                }
                _ => Err(bad()),
            })
            .collect()
    }

    /// Checks every option; reports all that are wrong at once.
    ///
    /// # Errors
    /// [`LoadError::Option`] naming each bad option.
    pub fn validate(&self) -> Result<(), LoadError> {
        let mut wrong = Vec::new();
        if self.tables == 0 {
            wrong.push("--tables must be at least 1".to_string());
        }
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            wrong.push("--seconds must be 0 or more".into());
        }
        if !(self.warmup_seconds.is_finite() && self.warmup_seconds >= 0.0) {
            wrong.push("--warmup-seconds must be 0 or more".into());
        }
        if !(self.rate.is_finite() && self.rate >= 0.0) {
            wrong.push("--rate must be 0 (as fast as possible) or more".into());
        }
        if let Some(d) = self.deadline_seconds
            && !(d.is_finite() && d > 0.0)
        {
            wrong.push("--deadline-seconds must be more than 0".into());
        }
        if self.source_addrs == 0 || self.source_addrs == u8::MAX {
            wrong.push("--source-addrs must be 1 to 254".into());
        }
        if self.ruleset.parse::<engine::RulesetId>().is_err() {
            wrong.push(format!(
                "--ruleset `{}` is not a ruleset preset",
                self.ruleset
            ));
        }
        if !(3..=300).contains(&self.action_seconds) {
            wrong.push("--action-seconds must be 3 to 300".into());
        }
        if !(1..=64).contains(&self.hands) {
            wrong.push("--hands must be 1 to 64".into());
        }
        if self.http_connections == 0 || self.connect_concurrency == 0 {
            wrong.push("--http-connections and --connect-concurrency must be at least 1".into());
        }
        if wrong.is_empty() {
            Ok(())
        } else {
            Err(LoadError::Option(wrong.join("; ")))
        }
    }
}
