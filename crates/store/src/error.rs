//! Everything that can go wrong in the store, typed so the server can answer each case.

/// A store error.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The `DATABASE_URL` names no backend this build knows.
    #[error("DATABASE_URL `{0}` is neither postgres://… nor sqlite:…")]
    BadUrl(String),
    /// The `DATABASE_URL` names a backend but does not read as one of its URLs (a port that is
    /// not a number, say).
    #[error("DATABASE_URL `{url}` cannot be read: {why}")]
    UnreadableUrl {
        /// The URL, password hidden.
        url: String,
        /// What is wrong with it.
        why: String,
    },
    /// There is no SQLite file to read (only a store that may write creates one).
    #[error("no database at {path} yet: `mahjong db migrate` or `mahjong serve` creates it")]
    NoDatabase {
        /// The file.
        path: String,
    },
    /// The database could not be opened or reached.
    #[error("cannot reach the database at {url}: {cause}")]
    Unreachable {
        /// The URL, password hidden.
        url: String,
        /// What the driver said (in the message, so it is not repeated as a source).
        cause: sqlx::Error,
    },
    /// The database has migrations this binary does not know: it was upgraded by a newer server.
    #[error(
        "the database schema is at version {database}, newer than this server's {binary}: \
         run the newer server, or restore a backup taken before the upgrade"
    )]
    SchemaNewer {
        /// Newest migration applied to the database.
        database: i64,
        /// Newest migration this binary carries.
        binary: i64,
    },
    /// A migration failed to apply.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A player, table, hand or session that does not exist.
    #[error("{what} `{id}` not found")]
    NotFound {
        /// What kind of record.
        what: &'static str,
        /// Its id.
        id: String,
    },
    /// A finished hand that is not the table's next hand.
    #[error("table `{table}` has stored {stored} hands; hand {hand} is not the next one")]
    HandOutOfOrder {
        /// The table.
        table: String,
        /// Hands the table has stored.
        stored: u64,
        /// The hand offered.
        hand: u64,
    },
    /// A hand with this number is stored already, with different contents.
    #[error("table `{table}` hand {hand} is stored already with a different seed")]
    HandConflict {
        /// The table.
        table: String,
        /// The hand.
        hand: u64,
    },
    /// The action log already holds this sequence number: the log is append-only.
    #[error("table `{table}` action log already holds seq {seq}")]
    LogConflict {
        /// The table.
        table: String,
        /// The sequence number offered again.
        seq: u64,
    },
    /// The action-log writer stopped after taking an append and before answering: whether
    /// it was stored is unknown until the log is read back (an append queued behind the
    /// store's close is not stored).
    #[error("the action log writer stopped before confirming the append")]
    WriterStopped,
    /// A write under a claim on a table that is no longer current: another node claimed the
    /// table since (or this node released it). The write is refused; the node must stop
    /// playing the table.
    #[error("table {table} is no longer held under claim epoch {epoch}")]
    Fenced {
        /// The table.
        table: String,
        /// The epoch of the claim the write came under.
        epoch: u64,
    },
    /// A tournament code already in use.
    #[error("the code `{0}` is taken")]
    CodeTaken(String),
    /// Something no longer open to the change asked (a tournament's registration once its
    /// first round started).
    #[error("{what} is closed")]
    Closed {
        /// What is closed.
        what: &'static str,
    },
    /// A round that is not the tournament's next, or beyond its last.
    #[error("round {round} cannot start: {started} of {rounds} rounds have started")]
    RoundRefused {
        /// The round asked for.
        round: u32,
        /// Rounds started so far.
        started: u32,
        /// Rounds the tournament has.
        rounds: u32,
    },
    /// A page or other argument outside what the store accepts.
    #[error("bad argument: {0}")]
    BadArgument(String),
    /// A stored value that does not read back (hand-edited rows, a foreign writer).
    #[error("stored data does not read back: {0}")]
    Corrupt(String),
    /// Any other database failure (connection lost, constraint, timeout).
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
}

impl StoreError {
    /// Whether retrying the same call later may succeed, as opposed to an error in what was
    /// asked: the database was unreachable, the connection dropped, or the database could not
    /// take a write for now (a full disk, an I/O error, a file or a server gone read-only, a
    /// busy lock, a server shutting down). A finished hand meeting one of these waits for the
    /// database to come back instead of being refused: an operator frees the disk or fails
    /// over, and the result is stored.
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Unreachable { .. } => true,
            StoreError::Database(e) => {
                matches!(
                    e,
                    sqlx::Error::Io(_)
                        | sqlx::Error::PoolTimedOut
                        | sqlx::Error::PoolClosed
                        | sqlx::Error::WorkerCrashed
                        | sqlx::Error::Protocol(_)
                ) || e.as_database_error().is_some_and(database_cannot_write_now)
            }
            _ => false,
        }
    }
}

/// SQLite's primary result codes of a database that cannot take the write now: BUSY, LOCKED,
/// NOMEM, READONLY, IOERR, FULL, CANTOPEN, PROTOCOL (a constraint, a schema error or a corrupt
/// file is not among them).
const SQLITE_NOT_NOW: [i32; 8] = [5, 6, 7, 8, 10, 13, 14, 15];

/// PostgreSQL's SQLSTATE prefixes of the same: connection exceptions (08), a serialization
/// failure or deadlock (40001, 40P01), insufficient resources such as a full disk (53), a
/// server shutting down or starting (57P), a system error such as an I/O failure (58), and a
/// read-only transaction (25006: a standby, before or during a failover).
const POSTGRES_NOT_NOW: [&str; 7] = ["08", "40001", "40P01", "53", "57P", "58", "25006"];

fn database_cannot_write_now(e: &dyn sqlx::error::DatabaseError) -> bool {
    let code = e.code().unwrap_or_default();
    if e.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
        // The code is the extended one; its low byte is the primary code.
        let primary = code.parse::<i32>().map_or(0, |c| c & 0xff);
        SQLITE_NOT_NOW.contains(&primary)
    } else {
        POSTGRES_NOT_NOW.iter().any(|p| code.starts_with(p))
    }
}

/// Whether `e` is a unique-key violation.
pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_unique_violation())
}
