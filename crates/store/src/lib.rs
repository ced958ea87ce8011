//! Persistence for the mahjong server: players and sessions, tables and their carried state,
//! finished hands with per-seat deltas and fan lines, escape penalties, each room's action log,
//! ratings, tournaments (registration, rounds, seatings), and the leaderboards and histories
//! read from them.
//!
//! Two backends sit behind one [`Store`]: PostgreSQL (production, and what several server nodes
//! share) and an SQLite file (the zero-setup default). The `DATABASE_URL` picks one; migrations
//! (`migrations/postgres`, `migrations/sqlite`) run when the store opens, and a database whose
//! schema is newer than this binary is refused with [`StoreError::SchemaNewer`].
//!
//! The store keeps plain records: ruleset ids, JSON documents and numbers. It does not know the
//! engine's types; the server turns a settlement into a [`FinishedHand`] and back.
//!
//! The SQL is written once for both backends (the same statements mean the same thing on each:
//! times are Unix milliseconds, JSON is text, `$n` placeholders, `ON CONFLICT`, window
//! functions); [`on_backend!`] compiles each statement against the backend's own driver.

mod connect;
mod error;
mod escapes;
mod group;
mod hands;
mod leaderboard;
mod log;
mod model;
mod ownership;
mod players;
mod tables;
mod tournaments;

pub use connect::{Access, StoreOptions, default_url, redact as redact_url, sqlite_url};
pub use error::StoreError;
pub use model::{
    Escape, EscapeRecord, FinishedHand, HandSummary, HistoryEntry, INITIAL_RATING,
    LeaderboardEntry, LoggedAction, NewTable, Page, Period, Player, PlayerId, Ranking,
    RatingChange, Recorded, SeatOccupant, SeatResult, Session, TableId, TableRecord, TableStatus,
    TokenHash, UnixMillis,
};
pub use ownership::{Claim, Claimable, Epoch, NodeId, Ownership};
pub use tournaments::{
    EntrantRecord, NewRoundTable, NewTournament, RoundRecord, RoundTableRecord, TournamentEscape,
    TournamentHand, TournamentId, TournamentRecord, TournamentStatus,
};

use sqlx::{PgPool, SqlitePool};

/// The store: a pool on one of the two backends. Cheap to clone (the pool is shared).
#[derive(Clone, Debug)]
pub struct Store {
    backend: Backend,
    /// Where action-log appends go when they are grouped ([`Store::with_group_commit`]).
    appends: Option<group::Appends>,
    /// The group writer's own connection, closed with the store's.
    writer: Option<Backend>,
}

#[derive(Clone, Debug)]
enum Backend {
    Postgres(PgPool),
    Sqlite(SqlitePool),
}

/// Runs `$body` with `$pool` bound to the backend's own pool: the statement text is shared and
/// each driver compiles it for itself.
macro_rules! on_backend {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.backend {
            $crate::Backend::Postgres($pool) => $body,
            $crate::Backend::Sqlite($pool) => $body,
        }
    };
}
pub(crate) use on_backend;

/// Keeps a connection whose transaction failed out of the pool: it is closed when dropped.
///
/// SQLite ends a transaction by itself on some failures (a full disk, an I/O error, a trigger's
/// `RAISE(ROLLBACK)`), and PostgreSQL on some others; sqlx's rollback on drop then fails and
/// sqlx still counts the transaction as open. On that connection, the next `begin` would open
/// a savepoint instead, which on SQLite starts a transaction that a rollback to the savepoint
/// never ends: from then on the connection holds the write lock (every other writer gets
/// "database is locked") and its "committed" writes are seen by no one and lost on close.
/// Closing the connection ends whatever it held; the pool opens a fresh one.
pub(crate) fn close_if_failed<DB: sqlx::Database, T, E>(
    conn: &mut sqlx::pool::PoolConnection<DB>,
    outcome: &Result<T, E>,
) {
    if outcome.is_err() {
        conn.close_on_drop();
    }
}

impl Store {
    /// Which backend this store runs on: `"postgres"` or `"sqlite"`.
    pub fn backend_name(&self) -> &'static str {
        match self.backend {
            Backend::Postgres(_) => "postgres",
            Backend::Sqlite(_) => "sqlite",
        }
    }

    /// Closes every connection; later calls fail. The action log's group writer first writes
    /// the appends it was given.
    pub async fn close(&self) {
        self.stop_writer().await;
        on_backend!(self, pool => pool.close().await);
        match &self.writer {
            Some(Backend::Postgres(pool)) => pool.close().await,
            Some(Backend::Sqlite(pool)) => pool.close().await,
            None => {}
        }
    }
}
