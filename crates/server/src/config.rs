//! The server's settings: every flag is also an environment variable, and none is required.

use std::path::PathBuf;

/// Settings of `mahjong serve`.
#[derive(clap::Args, Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "MAHJONG_BIND", default_value = "127.0.0.1")]
    pub bind: String,
    /// Port to listen on (0 picks a free one).
    #[arg(long, env = "MAHJONG_PORT", default_value_t = 8080)]
    pub port: u16,
    /// The database: `postgres://…` or `sqlite:…` (default: `mahjong.db` in the data directory).
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,
    /// Where the default SQLite file lives.
    #[arg(long, env = "MAHJONG_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,
    /// Seconds a session token stays valid.
    #[arg(long, env = "MAHJONG_SESSION_SECONDS", default_value_t = 30 * 24 * 3600)]
    pub session_seconds: u64,
    /// Milliseconds after a dropped connection before the bot plays the seat (托管).
    #[arg(long, env = "MAHJONG_GRACE_MS", default_value_t = 3000)]
    pub grace_ms: u64,
    /// Milliseconds a restored table's players have to reconnect after a restart before the bot
    /// plays their seats: a browser that lost its server backs off between attempts, and a
    /// restart takes some seconds, so the drop's grace would hand a whole table to the bot.
    #[arg(long, env = "MAHJONG_RESTORE_GRACE_MS", default_value_t = 15_000)]
    pub restore_grace_ms: u64,
    /// Milliseconds the bot takes over each decision of a seat it plays for a player who
    /// dropped or escaped (托管): about a brisk player's pace, so the people at the table keep
    /// their rhythm and a table whose players are all away does not race through its match.
    #[arg(long, env = "MAHJONG_TAKEOVER_MS", default_value_t = 1_500)]
    pub takeover_ms: u64,
    /// Milliseconds a room may wait for its first deal (every seat taken, every player
    /// connected) before it closes: a room nobody joins does not stay open for ever.
    #[arg(long, env = "MAHJONG_ROOM_WAIT_MS", default_value_t = 1_800_000)]
    pub room_wait_ms: u64,
    /// Milliseconds a dropped player has to come back before the seat counts as escaped.
    #[arg(long, env = "MAHJONG_RECONNECT_MS", default_value_t = 120_000)]
    pub reconnect_ms: u64,
    /// Milliseconds between a hand's end and the next deal.
    #[arg(long, env = "MAHJONG_NEXT_HAND_MS", default_value_t = 3000)]
    pub next_hand_ms: u64,
    /// Milliseconds every discard's claim window stays open at a table where people play or
    /// watch, whoever could claim, so that timing never tells who could; claims are made within
    /// it. The default of rooms whose creator sets none (`claim_window_seconds`) and of
    /// quick-match rooms (0: no hold, for tests and bot-only benchmarks).
    #[arg(long, env = "MAHJONG_CLAIM_WINDOW_MS", default_value_t = 4000)]
    pub claim_window_ms: u64,
    /// Milliseconds a quick-match player waits for others before bots fill the table.
    #[arg(long, env = "MAHJONG_QUICK_FILL_MS", default_value_t = 15_000)]
    pub quick_fill_ms: u64,
    /// Messages per second one connection may send, sustained (twice as many in a burst);
    /// the excess is refused with `rate_limited`.
    #[arg(long, env = "MAHJONG_CLIENT_RATE", default_value_t = 50)]
    pub client_rate: u32,
    /// Requests a minute per client address that create something (guest sign-ups, rooms,
    /// join-code guesses, quick matches); the excess is answered 429 with `Retry-After`.
    #[arg(long, env = "MAHJONG_HTTP_RATE", default_value_t = 30)]
    pub http_rate: u32,
    /// Count requests against the first `X-Forwarded-For` address instead of the peer's: only
    /// behind a proxy that sets it (anyone else could claim any address).
    #[arg(long, env = "MAHJONG_TRUST_FORWARDED_FOR", value_parser = clap::builder::BoolishValueParser::new())]
    pub trust_forwarded_for: bool,
    /// WebSocket connections (seats and spectators) open at once; more are refused with 503
    /// `busy`.
    #[arg(long, env = "MAHJONG_MAX_CONNECTIONS", default_value_t = 50_000)]
    pub max_connections: u64,
    /// Database connections the server holds at most (1–1,000). PostgreSQL counts them
    /// against its `max_connections`, shared by every node.
    #[arg(long, env = "MAHJONG_DB_POOL_SIZE", default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub db_pool_size: u32,
    /// How long to wait for the database, when opening it and for each connection, in
    /// milliseconds (100–600,000).
    #[arg(long, env = "MAHJONG_DB_TIMEOUT_MS", default_value_t = 5_000,
          value_parser = clap::value_parser!(u64).range(100..=600_000))]
    pub db_timeout_ms: u64,
    /// This node's name, stable across its restarts: a node restarted under its name takes
    /// back its unfinished tables at once (default: the host's name and the port, `host:8080`).
    #[arg(long, env = "MAHJONG_NODE_NAME", value_parser = node_name)]
    pub node_name: Option<String>,
    /// How long this node's lease lasts past its last renewal, in milliseconds (500–60,000):
    /// how long its tables wait for another node when it dies. It renews every fifth of it
    /// (at most every second).
    #[arg(long, env = "MAHJONG_NODE_LEASE_MS", default_value_t = 5_000,
          value_parser = clap::value_parser!(u64).range(500..=60_000))]
    pub node_lease_ms: u64,
    /// NATS, for several nodes on one PostgreSQL database (`nats://host:4222`, several
    /// comma-separated): a socket reaching a node that does not play its table is relayed
    /// through it to the node that does. Without it the node serves alone.
    #[arg(long, env = "MAHJONG_NATS_URL")]
    pub nats_url: Option<String>,
    /// Write every seat's stream, with the snapshot it would be sent at each point where one
    /// could go out, to `DIR/<table>.jsonl`: for testing a client's reducer against the server
    /// (proto/README.md, "Transcripts"). Off by default; it costs a line per frame.
    #[arg(long, env = "MAHJONG_TRANSCRIPTS", value_name = "DIR")]
    pub transcripts: Option<std::path::PathBuf>,
    /// The cluster's name on NATS (letters, digits, `_` and `-`): the nodes of one cluster
    /// share it, and clusters sharing a NATS server never hear each other.
    #[arg(long, env = "MAHJONG_CLUSTER_NAME", default_value = "mahjong", value_parser = cluster_name)]
    pub cluster_name: String,
    /// Logs as JSON lines instead of text.
    #[arg(long, env = "MAHJONG_LOG_JSON", value_parser = clap::builder::BoolishValueParser::new())]
    pub log_json: bool,
    /// Where the rooms' time comes from: the system's, or a test's hand-driven clock.
    #[arg(skip)]
    pub time: crate::time::TimeSource,
}

impl Config {
    /// The settings with every default, for tests and embedding.
    pub fn defaults() -> Config {
        Config {
            bind: "127.0.0.1".into(),
            port: 0,
            database_url: None,
            data_dir: PathBuf::from("data"),
            session_seconds: 30 * 24 * 3600,
            grace_ms: 3000,
            restore_grace_ms: 15_000,
            takeover_ms: 1_500,
            room_wait_ms: 1_800_000,
            reconnect_ms: 120_000,
            next_hand_ms: 3000,
            client_rate: 50,
            http_rate: 30,
            trust_forwarded_for: false,
            max_connections: 50_000,
            quick_fill_ms: 15_000,
            claim_window_ms: 4000,
            db_pool_size: 8,
            db_timeout_ms: 5_000,
            node_name: None,
            node_lease_ms: 5_000,
            nats_url: None,
            transcripts: None,
            cluster_name: "mahjong".into(),
            log_json: false,
            time: crate::time::TimeSource::System,
        }
    }

    /// This node's name: the one set, or the host's name and `port` (the port listened on).
    pub fn node(&self, port: u16) -> store::NodeId {
        let set = self
            .node_name
            .as_deref()
            .and_then(|n| store::NodeId::parse(n).ok());
        set.unwrap_or_else(|| default_node(port))
    }

    /// The database URL, or the SQLite default.
    pub fn database(&self) -> String {
        self.database_url
            .clone()
            .unwrap_or_else(|| store::default_url(&self.data_dir))
    }
}

/// Checks a `--cluster-name` as the flag is read: one token of a NATS subject.
fn cluster_name(s: &str) -> Result<String, String> {
    let fits = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if !s.is_empty() && s.len() <= 64 && s.chars().all(fits) {
        Ok(s.to_string())
    } else {
        Err("1 to 64 letters, digits, `_` or `-`".into())
    }
}

/// Checks a `--node-name` as the flag is read.
fn node_name(s: &str) -> Result<String, String> {
    store::NodeId::parse(s)
        .map(|n| n.as_str().to_string())
        .map_err(|e| e.to_string())
}

/// The host's name (letters, digits, `.`, `_` and `-` kept, anything else made `-`) and `port`.
fn default_node(port: u16) -> store::NodeId {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default();
    let host: String = host
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .take(store::NodeId::MAX_LEN - 6)
        .collect();
    let host = if host.is_empty() {
        "localhost".to_string()
    } else {
        host
    };
    store::NodeId::parse(&format!("{host}:{port}"))
        .unwrap_or_else(|_| store::NodeId::parse("localhost").expect("a valid name"))
}
