//! Opening a store: choosing the backend from the URL, pool settings, migrations and the check
//! that the database is not newer than this binary.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::Connection;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use crate::{Backend, Store, StoreError, on_backend};

/// The size the write-ahead log's file of an SQLite database is cut back to when the log
/// starts over: SQLite leaves it at its largest otherwise, so that one burst of writes would
/// hold its disk space for good. The group writer's log at 4,000 tables is 9–17 MB.
pub(crate) const WAL_SIZE_LIMIT: i64 = 16 << 20;

static POSTGRES: Migrator = sqlx::migrate!("../../migrations/postgres");
static SQLITE: Migrator = sqlx::migrate!("../../migrations/sqlite");

/// How a store opens its pool.
#[derive(Clone, Copy, Debug)]
pub struct StoreOptions {
    /// Most connections held at once (SQLite in memory always uses one).
    pub max_connections: u32,
    /// How long to wait for the database, when opening and for each connection.
    pub connect_timeout: Duration,
    /// Whether the store may write (and so migrate) or only reads.
    pub access: Access,
}

/// What a store may do to its database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read and write; the schema is brought up to date when the store opens (an SQLite file
    /// is created if missing).
    ReadWrite,
    /// Read only: nothing is created or migrated (`mahjong db status`).
    ReadOnly,
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions {
            max_connections: 8,
            connect_timeout: Duration::from_secs(5),
            access: Access::ReadWrite,
        }
    }
}

/// The URL of an SQLite file at `path` (created on first open).
pub fn sqlite_url(path: &Path) -> String {
    format!("sqlite://{}", path.display())
}

/// Whether `options` open a database in memory, which lives in its one connection. sqlx says so
/// only through the name it gives one (`sqlite::memory:` becomes `file:sqlx-in-memory-<n>`).
pub(crate) fn sqlite_in_memory(options: &SqliteConnectOptions) -> bool {
    let file = options.get_filename().to_string_lossy();
    file.is_empty() || file.contains(":memory:") || file.starts_with("file:sqlx-in-memory-")
}

/// The zero-setup default: `mahjong.db` in the data directory.
pub fn default_url(data_dir: &Path) -> String {
    sqlite_url(&data_dir.join("mahjong.db"))
}

impl Store {
    /// Opens the database `url` names (`postgres://…` or `sqlite:…`) with default options, and
    /// brings its schema up to date.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, StoreOptions::default()).await
    }

    /// Opens the database `url` names and brings its schema up to date.
    pub async fn connect_with(url: &str, options: StoreOptions) -> Result<Store, StoreError> {
        let unreachable = |cause| StoreError::Unreachable {
            url: redact(url),
            cause,
        };
        let writes = options.access == Access::ReadWrite;
        let backend = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let connect = PgConnectOptions::from_str(url).map_err(|e| unreadable_url(url, &e))?;
            // One direct connection first: the pool would retry until its timeout and report
            // only that, where this reports what went wrong (refused, unknown host, auth …).
            let probe = tokio::time::timeout(
                options.connect_timeout,
                PgConnection::connect_with(&connect),
            )
            .await
            .map_err(|_| unreachable(sqlx::Error::PoolTimedOut))?
            .map_err(unreachable)?;
            probe.close().await.map_err(unreachable)?;
            let pool = PgPoolOptions::new()
                .max_connections(options.max_connections.max(1))
                .acquire_timeout(options.connect_timeout)
                .connect_with(connect)
                .await
                .map_err(unreachable)?;
            Backend::Postgres(pool)
        } else if url.starts_with("sqlite:") {
            let connect = SqliteConnectOptions::from_str(url)
                .map_err(|e| unreadable_url(url, &e))?
                .create_if_missing(writes)
                .read_only(!writes)
                // WAL with FULL sync: every commit reaches the disk before it is reported, so a
                // stored hand survives a power loss or a filesystem turned read-only on a disk
                // error (with NORMAL, the fault run `deploy/faults/sqlite-read-only.sh` lost
                // the last 6 of 100 hands). It costs about a tenth of the write rate.
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Full)
                .foreign_keys(true)
                .pragma("journal_size_limit", WAL_SIZE_LIMIT.to_string())
                .busy_timeout(options.connect_timeout);
            let file = connect.get_filename().to_path_buf();
            let in_memory = sqlite_in_memory(&connect);
            if !in_memory && !writes && !file.exists() {
                return Err(StoreError::NoDatabase {
                    path: file.display().to_string(),
                });
            }
            if !in_memory
                && writes
                && let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty())
            {
                std::fs::create_dir_all(dir).map_err(|e| unreachable(sqlx::Error::Io(e)))?;
            }
            let max = if in_memory {
                1
            } else {
                options.max_connections.max(1)
            };
            // No ping before each use: an SQLite connection is a handle in this process, and a
            // ping is a round trip to its worker thread (a futex hand-off each way) that finds
            // nothing the statement itself would not report. The group writer acquires once
            // per commit; the ping was a fifth of its hand-offs.
            let pool = SqlitePoolOptions::new()
                .max_connections(max)
                .test_before_acquire(false)
                .acquire_timeout(options.connect_timeout)
                .connect_with(connect)
                .await
                .map_err(unreachable)?;
            Backend::Sqlite(pool)
        } else {
            return Err(StoreError::BadUrl(redact(url)));
        };
        let store = Store {
            backend,
            appends: None,
            writer: None,
        };
        if writes {
            store.migrate().await?;
        }
        Ok(store)
    }

    /// A write round trip: the one row of `readiness` set to now. It fails on a database that
    /// cannot be reached, or that answers reads but takes no write (a read-only or broken
    /// SQLite file, a PostgreSQL in recovery).
    pub async fn check_writable(&self) -> Result<(), StoreError> {
        let now = crate::UnixMillis::now().0;
        on_backend!(self, pool => {
            sqlx::query(
                "INSERT INTO readiness (id, checked_ms) VALUES (1, $1) \
                 ON CONFLICT (id) DO UPDATE SET checked_ms = excluded.checked_ms",
            )
            .bind(now)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// Connections of the pool: (open, idle).
    pub fn pool_use(&self) -> (u32, usize) {
        on_backend!(self, pool => (pool.size(), pool.num_idle()))
    }

    /// The newest migration applied to the database (0 for none).
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        let exists: i64 = match &self.backend {
            Backend::Postgres(pool) => {
                sqlx::query_scalar(
                    "SELECT COUNT(*) FROM information_schema.tables \
                     WHERE table_schema = current_schema() AND table_name = '_sqlx_migrations'",
                )
                .fetch_one(pool)
                .await?
            }
            Backend::Sqlite(pool) => {
                sqlx::query_scalar(
                    "SELECT COUNT(*) FROM sqlite_master \
                     WHERE type = 'table' AND name = '_sqlx_migrations'",
                )
                .fetch_one(pool)
                .await?
            }
        };
        if exists == 0 {
            return Ok(0);
        }
        let version: Option<i64> = crate::on_backend!(self, pool => {
            sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
                .fetch_one(pool)
                .await?
        });
        Ok(version.unwrap_or(0))
    }

    /// The newest migration this binary carries.
    pub fn binary_schema_version(&self) -> i64 {
        self.migrator().iter().map(|m| m.version).max().unwrap_or(0)
    }

    fn migrator(&self) -> &'static Migrator {
        match self.backend {
            Backend::Postgres(_) => &POSTGRES,
            Backend::Sqlite(_) => &SQLITE,
        }
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let database = self.schema_version().await?;
        let binary = self.binary_schema_version();
        if database > binary {
            return Err(StoreError::SchemaNewer { database, binary });
        }
        match &self.backend {
            Backend::Postgres(pool) => POSTGRES.run(pool).await?,
            Backend::Sqlite(pool) => SQLITE.run(pool).await?,
        }
        Ok(())
    }
}

/// A URL of a known backend that its driver cannot read: the driver's reason, with any copy of
/// the URL in it hidden like the URL itself.
fn unreadable_url(url: &str, error: &sqlx::Error) -> StoreError {
    let why = error.to_string().replace(url, &redact(url));
    StoreError::UnreadableUrl {
        url: redact(url),
        why,
    }
}

/// `url` with any password replaced, for messages and logs: the one in the user info, and the
/// value of any query parameter whose name says password (`?password=…`, `sslpassword=…`).
pub fn redact(url: &str) -> String {
    let (head, query) = match url.split_once('?') {
        Some((head, query)) => (head, Some(query)),
        None => (url, None),
    };
    let head = redact_userinfo(head);
    let Some(query) = query else { return head };
    let query: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, _)) if key.to_ascii_lowercase().contains("password") => {
                format!("{key}=***")
            }
            _ => pair.to_string(),
        })
        .collect();
    format!("{head}?{}", query.join("&"))
}

fn redact_userinfo(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
            if userinfo.contains(':') {
                format!("{scheme}://{user}:***@{host}{tail}")
            } else {
                format!("{scheme}://{user}@{host}{tail}")
            }
        }
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn passwords_are_hidden() {
        assert_eq!(
            redact("postgres://app:s3cret@db:5432/mahjong"),
            "postgres://app:***@db:5432/mahjong"
        );
        assert_eq!(redact("postgres://app@db/m"), "postgres://app@db/m");
        assert_eq!(redact("sqlite://data/m.db"), "sqlite://data/m.db");
        assert_eq!(
            redact("postgres://db/m?user=app&password=s3cret&sslmode=require"),
            "postgres://db/m?user=app&password=***&sslmode=require"
        );
        assert_eq!(
            redact("postgres://app:pw@db/m?sslpassword=k3y"),
            "postgres://app:***@db/m?sslpassword=***"
        );
    }
}
