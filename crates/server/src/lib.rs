//! The game server: the HTTP API, the lobby, one actor per room, WebSockets to the players.
//!
//! `mahjong serve` calls [`serve`]; tests call [`start`] on a free port.

pub mod auth;
pub mod cluster;
pub mod config;
pub mod error;
pub mod http;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod node;
pub mod quick;
pub mod rating;
pub mod restore;
pub mod room;
pub mod time;
pub mod tournaments;
pub mod transcript;
pub mod web;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::routing::get;
use engine::stored::{Document, StoredOptions, StoredTableState};
use store::Store;

pub use config::Config;
use error::ApiError;
use lobby::Lobby;
use room::Timing;

/// Sign-outs a socket may lag behind before it misses one (it then closes, to be safe).
const SIGN_OUTS_QUEUED: usize = 1024;

/// What every request handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub store: Store,
    /// Live rooms.
    pub lobby: Arc<Lobby>,
    /// Settings.
    pub config: Arc<Config>,
    /// Room timings.
    pub timing: Timing,
    /// Quick-match queues.
    pub queues: Arc<quick::Queues>,
    /// Counters for `/metrics`.
    pub metrics: Arc<metrics::Metrics>,
    /// Sessions ended by signing out: every socket opened with that token closes.
    pub signed_out: tokio::sync::broadcast::Sender<store::TokenHash>,
    /// The per-address limit of the requests that create things.
    pub limiter: limits::Limiter,
    /// This node's name: the owner of the tables it creates and restores.
    pub node: store::NodeId,
    /// Whether this node serves or is leaving: its heartbeat and adoption stop when it leaves.
    pub life: Arc<tokio::sync::watch::Sender<node::NodePhase>>,
    /// NATS, when this node is one of several: the relay to and from the other nodes.
    pub cluster: Option<cluster::Cluster>,
}

impl AppState {
    /// A join code no live room uses (on any node): six letters and digits that cannot be
    /// misread.
    pub async fn new_code(&self) -> Result<String, ApiError> {
        const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        for _ in 0..100 {
            let mut bytes = [0u8; 6];
            getrandom::fill(&mut bytes)
                .map_err(|e| ApiError::Internal(format!("randomness: {e}")))?;
            let code: String = bytes
                .iter()
                .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
                .collect();
            if self.lobby.code_taken(&code) {
                continue;
            }
            match &self.cluster {
                Some(cluster) if cluster.code_taken(&code).await => continue,
                _ => return Ok(code),
            }
        }
        Err(ApiError::Internal("no free join code".into()))
    }
}

/// How a room plays, beyond its ruleset.
#[derive(Clone, Copy, Debug)]
pub struct RoomSpec {
    /// Thinking time.
    pub clock: room::Clock,
    /// Hands in the match.
    pub hands: u64,
    /// Listed in the lobby.
    pub public: bool,
    /// How far spectators are behind play.
    pub spectator_delay_ms: u64,
}

impl AppState {
    /// Creates a table in the store, starts its room and lists it in the lobby; returns the
    /// table, its join code and the room.
    pub async fn open_room(
        &self,
        ruleset: engine::Ruleset,
        options: engine::RawOptions,
        spec: RoomSpec,
        occupants: Vec<room::Occupant>,
    ) -> Result<(store::TableId, String, room::RoomHandle), ApiError> {
        let code = self.new_code().await?;
        let stored = room::StoredRoom {
            options: StoredOptions::from(&options),
            clock: spec.clock,
            hands: spec.hands,
            public: spec.public,
            code: code.clone(),
            spectator_delay_ms: spec.spectator_delay_ms,
            deals: room::Deals::Random,
            first_deal: room::FirstDeal::AllConnected,
        };
        let table = engine::Table::new(ruleset.clone(), room::random_u64());
        let (record, claim) = self
            .store
            .create_table(
                &store::NewTable {
                    ruleset: ruleset.id().to_string(),
                    options: stored.write()?,
                    seats: occupants.iter().map(room::Occupant::stored).collect(),
                    carried: StoredTableState::from(table.state()).write()?,
                },
                &self.node,
            )
            .await?;
        let start = room::Start {
            table,
            game: None,
            seed: 0,
            log_seq: 0,
            first_seq: 1,
            seated_grace_ms: self.timing.grace_ms,
        };
        let handle = self.launch_room(claim, ruleset, &stored, occupants, start);
        Ok((record.id, code, handle))
    }

    /// Starts the room of a stored table from `start` and lists it in the lobby: the one way a
    /// room comes to life, whether opened now or rebuilt after a restart.
    pub(crate) fn launch_room(
        &self,
        claim: store::Claim,
        ruleset: engine::Ruleset,
        stored: &room::StoredRoom,
        occupants: Vec<room::Occupant>,
        start: room::Start,
    ) -> room::RoomHandle {
        let table = claim.table.clone();
        let handle = room::spawn(
            self.store.clone(),
            claim,
            stored.settings(ruleset),
            occupants,
            self.timing.clone(),
            start,
            self.metrics.clone(),
        );
        if let Some(cluster) = &self.cluster {
            cluster::serve_table(
                cluster.clone(),
                table.clone(),
                handle.clone(),
                self.timing.time.clone(),
                self.life.subscribe(),
            );
        }
        self.lobby.add(table, stored.code.clone(), handle.clone());
        handle
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// The listening socket.
    // The cause is the error's source: `{e:#}` prints it after the address, once.
    #[error("cannot listen on {addr}")]
    Bind {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
    /// NATS could not be reached.
    #[error(transparent)]
    Cluster(#[from] cluster::ClusterError),
    /// A node without NATS found other nodes serving its database.
    #[error(
        "other nodes serve this database ({others}): a node without NATS serves its database \
         alone; give every node the same --nats-url, or stop the others"
    )]
    NotAlone {
        /// The other nodes' names.
        others: String,
    },
    /// Several nodes need a database they can share.
    #[error(
        "several nodes (--nats-url) need PostgreSQL: SQLite is one node's file; set \
         DATABASE_URL to postgres://…, or leave MAHJONG_NATS_URL unset to serve alone"
    )]
    ClusterOnSqlite,
    /// The transcripts' folder could not be made.
    #[error("cannot write transcripts into {dir}")]
    Transcripts {
        /// The folder.
        dir: String,
        /// Why.
        source: std::io::Error,
    },
    /// The server stopped with an IO error.
    #[error("server failed")]
    Io(#[from] std::io::Error),
}

/// The whole application's routes.
pub fn router(state: AppState) -> Router {
    let (api, _) = http::routes().split_for_parts();
    // Answers with bodies are compressed for clients that ask (gzip); the WebSocket upgrades
    // are routed after, out of its reach, as their 101 answers must stay as they are.
    let pages = api
        .merge(web::routes())
        .layer(tower_http::compression::CompressionLayer::new());
    // A request may take as long as a quick match waits for players, and some more.
    let within = std::time::Duration::from_millis(state.config.quick_fill_ms.max(20_000) + 10_000);
    pages
        .route("/ws/tables/{table}", get(ws::upgrade))
        .route("/ws/tables/{table}/watch", get(ws::watch))
        .fallback(|| async { error::ApiError::NotFound("route".into()) })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            limits::rate_limit,
        ))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            within,
        ))
        .layer(axum::middleware::map_response(error::json_errors))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            metrics::observe,
        ))
        // The access log: one line per request at its end (method, path, status, time), under
        // the request's id, which the answer carries back as `x-request-id`.
        .layer(tower_http::request_id::PropagateRequestIdLayer::x_request_id())
        .layer(
            tower_http::trace::TraceLayer::new_for_http()
                .make_span_with(access_span)
                .on_request(())
                // The answer's line says the status; a 5xx's cause is logged where it arose
                // (with its request id), and a 503 of an outage is not an ERROR per request.
                .on_failure(())
                .on_response(
                    tower_http::trace::DefaultOnResponse::new().level(tracing::Level::INFO),
                ),
        )
        .layer(tower_http::request_id::SetRequestIdLayer::x_request_id(
            tower_http::request_id::MakeRequestUuid,
        ))
        .with_state(state)
}

/// The span of one HTTP request in the access log: method, path (never the headers, which
/// carry session tokens) and the request id.
fn access_span(request: &axum::http::Request<axum::body::Body>) -> tracing::Span {
    let id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    tracing::info_span!(
        "http",
        method = %request.method(),
        path = %request.uri().path(),
        request_id = %id,
    )
}

/// The OpenAPI document of the HTTP API, as `/api/openapi.json` serves it.
pub fn openapi() -> utoipa::openapi::OpenApi {
    http::routes().split_for_parts().1
}

/// A started server.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its state (the store, the lobby).
    pub state: AppState,
    /// The serving task.
    pub task: tokio::task::JoinHandle<Result<(), std::io::Error>>,
}

/// Opens the store, binds, and serves in the background.
pub async fn start(config: Config) -> Result<Running, ServeError> {
    // Off the runtime's threads: the tables take a moment to build.
    let _ = tokio::task::spawn_blocking(engine::shape::prepare).await;
    // The port first: a port taken is said at once, not after a migration has run (and a
    // migration never runs for a server that cannot listen).
    let addr = format!("{}:{}", config.bind, config.port);
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: addr.clone(),
            source,
        })?;
    // Rooms log every action before applying it: grouped, thousands of rooms share commits.
    let options = store::StoreOptions {
        max_connections: config.db_pool_size,
        connect_timeout: std::time::Duration::from_millis(config.db_timeout_ms),
        ..store::StoreOptions::default()
    };
    let store = Store::connect_with(&config.database(), options)
        .await?
        .with_group_commit();
    let timing =
        Timing {
            grace_ms: config.grace_ms,
            restore_grace_ms: config.restore_grace_ms,
            takeover_ms: config.takeover_ms,
            room_wait_ms: config.room_wait_ms,
            reconnect_ms: config.reconnect_ms,
            next_hand_ms: config.next_hand_ms,
            claim_window_ms: config.claim_window_ms,
            time: config.time.clone(),
            transcripts: match &config.transcripts {
                Some(dir) => Some(transcript::Transcripts::open(dir.clone()).map_err(
                    |source| ServeError::Transcripts {
                        dir: dir.display().to_string(),
                        source,
                    },
                )?),
                None => None,
            },
        };
    let local = listener.local_addr()?;
    // Without TCP_NODELAY small frames wait for acknowledgements (measured here: 2.6× less
    // throughput).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let limiter = limits::limiter(config.http_rate);
    let node = config.node(local.port());
    // An empty URL (a compose file's unset variable) is no URL.
    let nats_url = config
        .nats_url
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty());
    let cluster = match nats_url {
        Some(_) if store.backend_name() != "postgres" => return Err(ServeError::ClusterOnSqlite),
        Some(url) => Some(cluster::Cluster::connect(url, &config.cluster_name, &node).await?),
        None => None,
    };
    let lease = std::time::Duration::from_millis(config.node_lease_ms);
    if cluster.is_none() {
        node::alone(&store, &node, lease).await?;
    }
    node::register(&store, &node, local, lease).await?;
    let state = AppState {
        life: Arc::new(tokio::sync::watch::channel(node::NodePhase::Serving).0),
        node,
        cluster,
        store,
        lobby: Arc::new(Lobby::default()),
        config: Arc::new(config),
        timing,
        queues: Arc::new(quick::Queues::default()),
        metrics: Arc::new(metrics::Metrics::default()),
        signed_out: tokio::sync::broadcast::channel(SIGN_OUTS_QUEUED).0,
        limiter,
    };
    let restored = restore::restore_rooms(&state, store::Claimable::OwnAndOrphaned).await?;
    if restored > 0 {
        tracing::info!(restored, "unfinished tables restored");
    }
    spawn_housekeeping(state.store.clone(), state.limiter.clone());
    tournaments::spawn_watch(&state);
    node::spawn_heartbeat(&state, local);
    if let Some(cluster) = &state.cluster {
        cluster::serve_node(state.clone(), cluster.clone());
    }
    spawn_metrics_upkeep(state.metrics.clone());
    let app = router(state.clone());
    let task = tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown_signal())
        .await
    });
    Ok(Running {
        addr: local,
        state,
        task,
    })
}

/// Moves the latency histograms' samples into their buckets every few seconds, so that they
/// never pile up between scrapes (or without any).
fn spawn_metrics_upkeep(metrics: Arc<metrics::Metrics>) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(5));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            metrics.run_upkeep();
        }
    });
}

/// How often the rate limiter forgets addresses it no longer limits.
const HOUSEKEEPING_EVERY: std::time::Duration = std::time::Duration::from_secs(60);
/// Expired sessions are deleted every this many rounds (hourly).
const PURGE_EVERY_ROUNDS: u64 = 60;

/// Deletes expired sessions at start-up and every hour after, and lets the rate limiter forget
/// quiet addresses every minute: a server runs for months, and a guest's session row, or an
/// address seen once, would otherwise stay for ever.
fn spawn_housekeeping(store: Store, limiter: limits::Limiter) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(HOUSEKEEPING_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        for round in 0u64.. {
            every.tick().await;
            limiter.retain_recent();
            if round % PURGE_EVERY_ROUNDS != 0 {
                continue;
            }
            match store.purge_expired_sessions(store::UnixMillis::now()).await {
                Ok(0) => {}
                Ok(purged) => tracing::info!(purged, "expired sessions deleted"),
                Err(e) => tracing::warn!(error = %e, "expired sessions could not be deleted"),
            }
        }
    });
}

/// Runs the server until Ctrl-C or SIGTERM.
pub async fn serve(config: Config) -> Result<(), ServeError> {
    let running = start(config).await?;
    // Where to point a browser (the listening address, or this machine when it listens on
    // every interface) and the database in use, its password hidden.
    let open = match running.addr.ip() {
        ip if ip.is_unspecified() => format!("http://localhost:{}/", running.addr.port()),
        _ => format!("http://{}/", running.addr),
    };
    tracing::info!(
        addr = %running.addr,
        open = %open,
        database = %store::redact_url(&running.state.config.database()),
        node = %running.state.node,
        "serving"
    );
    match running.task.await {
        Ok(result) => result?,
        Err(e) => return Err(ServeError::Io(std::io::Error::other(e))),
    }
    stop_rooms(&running.state).await;
    if let Some(cluster) = &running.state.cluster {
        // The stopped rooms' links were told `moved`: that must reach their entry nodes.
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        cluster.flush().await;
    }
    running.state.store.close().await;
    Ok(())
}

/// Asks every room to stop after its current work (its writes included), waiting up to ten
/// seconds in all.
pub async fn stop_rooms(state: &AppState) {
    state.life.send_replace(node::NodePhase::Draining);
    let mut waiting = Vec::new();
    for room in state.lobby.rooms() {
        let (done, stopped) = tokio::sync::oneshot::channel();
        if room.send(room::Command::Shutdown { done }).await {
            waiting.push(stopped);
        }
    }
    let count = waiting.len();
    let all = futures_util::future::join_all(waiting);
    if tokio::time::timeout(std::time::Duration::from_secs(10), all)
        .await
        .is_err()
    {
        tracing::warn!("some rooms did not stop within 10 s");
    }
    tracing::info!(rooms = count, "rooms stopped");
    node::leave(state).await;
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// Sets up logs: text, or JSON lines; `RUST_LOG` filters (default `info`).
pub fn init_logging(json: bool) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"))
        // The WebSocket library logs every frame's content at trace level, a `hello` and its
        // session token included: only its warnings and errors, whatever RUST_LOG asks.
        .add_directive(quiet("tungstenite"))
        .add_directive(quiet("tokio_tungstenite"));
    // Colours only for a terminal: a log file or a collector gets plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

/// A directive capping `target`'s logs at warn.
fn quiet(target: &str) -> tracing_subscriber::filter::Directive {
    format!("{target}=warn")
        .parse()
        .unwrap_or_else(|_| tracing_subscriber::filter::LevelFilter::WARN.into())
}
