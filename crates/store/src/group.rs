//! Group commit of the rooms' action logs. Every room logs each accepted action before it
//! applies it, so a busy server makes thousands of tiny appends a second. Made one by one they
//! queue for SQLite's single writer lock (whose busy handler sleeps in steps of milliseconds)
//! or each wait for PostgreSQL to flush its WAL. A writer task takes every append waiting at
//! the moment, writes them in one transaction and answers each caller: one commit for the lot,
//! and a room still hears back only after its action is durable.

use tokio::sync::{mpsc, oneshot};

use crate::connect::sqlite_in_memory;
use crate::log::TableRows;
use crate::model::LoggedAction;
use crate::ownership::Claim;
use crate::{Backend, Store, StoreError};

/// Appends taken into one transaction at most: a bound on a batch's statement count, so one
/// commit never holds the writer for long.
const MAX_BATCH: usize = 256;
/// Appends waiting for the writer before callers wait to hand theirs over.
const QUEUE: usize = 4096;

/// One room's append and where its outcome goes.
#[derive(Debug)]
pub(crate) struct Append {
    claim: Claim,
    actions: Vec<LoggedAction>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The handle rooms' appends go through.
pub(crate) type Appends = mpsc::Sender<Append>;

impl Backend {
    /// The group writer's own connection: a pool of one, opened on the same settings as this
    /// pool's connections. On SQLite, a connection's page cache is dropped whenever another
    /// connection committed since it last read, and a pooled writer lands on a different
    /// connection batch after batch: it re-read the log's pages from the file at every commit
    /// (most of the SQLite thread's reads under load). Kept on one connection, the writer's
    /// cache stays warm between the few other writes. An in-memory SQLite database lives in
    /// its one connection, so there the writer shares the pool.
    fn writer(&self) -> Backend {
        match self {
            Backend::Postgres(pool) => Backend::Postgres(
                pool.options()
                    .clone()
                    .max_connections(1)
                    .min_connections(0)
                    .connect_lazy_with(pool.connect_options().as_ref().clone()),
            ),
            Backend::Sqlite(pool) => {
                let options = pool.connect_options();
                if sqlite_in_memory(&options) {
                    return self.clone();
                }
                // No checkpoint of its own after a commit: see `Checkpoints`.
                let options = options.as_ref().clone().pragma("wal_autocheckpoint", "0");
                Backend::Sqlite(
                    pool.options()
                        .clone()
                        .max_connections(1)
                        .min_connections(0)
                        .connect_lazy_with(options),
                )
            }
        }
    }
}

impl Store {
    /// This store with its action-log appends grouped into shared transactions by a writer
    /// task on the current tokio runtime. The writer ends when the last clone of the returned
    /// store is dropped. Other writes and every read are unchanged.
    pub fn with_group_commit(mut self) -> Store {
        let (tx, rx) = mpsc::channel(QUEUE);
        let backend = self.backend.writer();
        let checkpoints = Checkpoints::of(&self.backend);
        let writer = Store {
            backend: backend.clone(),
            appends: None,
            writer: None,
        };
        tokio::spawn(writer.write_appends(rx, checkpoints));
        self.appends = Some(tx);
        self.writer = Some(backend);
        self
    }

    /// Hands an append to the writer and waits for its outcome. An append the writer never
    /// received (it stopped) is written directly; one it received and did not answer is
    /// reported, never written a second time.
    pub(crate) async fn append_grouped(
        &self,
        appends: &Appends,
        claim: &Claim,
        actions: &[LoggedAction],
    ) -> Result<(), StoreError> {
        // A slot first, then the append: the wait for a slot does not hold the append too.
        let Ok(slot) = appends.reserve().await else {
            // Boxed: the direct path is rare, and large (`append_direct`).
            return Box::pin(self.append_direct(claim, actions)).await;
        };
        let (done, outcome) = oneshot::channel();
        slot.send(Append {
            claim: claim.clone(),
            actions: actions.to_vec(),
            done,
        });
        outcome.await.unwrap_or(Err(StoreError::WriterStopped))
    }

    async fn write_appends(self, mut rx: mpsc::Receiver<Append>, mut checkpoints: Checkpoints) {
        let mut batch = Vec::with_capacity(MAX_BATCH);
        while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
            self.write_batch(std::mem::take(&mut batch)).await;
            checkpoints.committed();
        }
    }

    /// One transaction for the whole batch; when it fails, each append is written on its own
    /// so that each caller hears its own outcome (a conflict in one room's log is not
    /// another room's failure).
    async fn write_batch(&self, batch: Vec<Append>) {
        if batch.len() > 1 {
            let mut rows = Vec::with_capacity(batch.len());
            for a in &batch {
                match Store::rows(&a.actions) {
                    Ok(r) => rows.push(TableRows {
                        table: &a.claim.table,
                        epoch: a.claim.epoch,
                        rows: r,
                    }),
                    Err(_) => {
                        rows.clear();
                        break;
                    }
                }
            }
            if rows.len() == batch.len() && self.insert_rows(&rows).await.is_ok() {
                for a in batch {
                    let _ = a.done.send(Ok(()));
                }
                return;
            }
        }
        for a in batch {
            let outcome = self.append_direct(&a.claim, &a.actions).await;
            let _ = a.done.send(outcome);
        }
    }
}

/// Commits of the group writer between two checkpoints of SQLite's write-ahead log. SQLite's
/// own threshold is 1,000 pages; an append changes one or two.
const CHECKPOINT_EVERY: u32 = 256;

/// Checkpoints of SQLite's write-ahead log, made beside the group writer rather than by it.
/// SQLite checkpoints on the connection whose commit took the log past 1,000 pages, before
/// that commit returns: the group writer's connection, nearly always, which then copied a
/// thousand pages into the database file and synced it while every room's next append waited
/// behind it (the tail of the action latency: a few milliseconds every few hundred actions,
/// so about 1 % of them). The writer's connection checkpoints nothing itself; every
/// [`CHECKPOINT_EVERY`] commits it asks a connection of the pool to checkpoint passively
/// (copying what no reader still needs, never waiting on the writer, which goes on appending
/// meanwhile), one checkpoint at a time. Off SQLite files (PostgreSQL, an in-memory SQLite
/// database) there is nothing to do.
pub(crate) struct Checkpoints {
    /// The pool the checkpoints run on; None where there is nothing to checkpoint.
    pool: Option<sqlx::SqlitePool>,
    since: u32,
    running: Option<tokio::task::JoinHandle<()>>,
}

impl Checkpoints {
    fn of(backend: &Backend) -> Checkpoints {
        let pool = match backend {
            Backend::Sqlite(pool) if !sqlite_in_memory(&pool.connect_options()) => {
                Some(pool.clone())
            }
            _ => None,
        };
        Checkpoints {
            pool,
            since: 0,
            running: None,
        }
    }

    /// Counts a commit of the writer, and starts a checkpoint when one is due and none runs.
    fn committed(&mut self) {
        let Some(pool) = &self.pool else { return };
        self.since += 1;
        if self.since < CHECKPOINT_EVERY || self.running.as_ref().is_some_and(|r| !r.is_finished())
        {
            return;
        }
        self.since = 0;
        let pool = pool.clone();
        self.running = Some(tokio::spawn(async move {
            if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(&pool)
                .await
            {
                tracing::warn!(error = %e, "the write-ahead log could not be checkpointed");
            }
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(path: &std::path::Path) -> u64 {
        std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
    }

    /// The writer's connection leaves its log to the checkpoints, which copy it into the
    /// database file once enough commits have gone by.
    #[tokio::test]
    async fn the_log_is_checkpointed_beside_the_writer() {
        let dir = std::env::temp_dir().join(format!("mahjong-ckpt-{}", uuid::Uuid::now_v7()));
        let file = dir.join("test.db");
        let store = Store::connect(&crate::sqlite_url(&file))
            .await
            .expect("opens");
        let Backend::Sqlite(writer) = store.backend.writer() else {
            panic!("an SQLite writer")
        };
        let own: i64 = sqlx::query_scalar("PRAGMA wal_autocheckpoint")
            .fetch_one(&writer)
            .await
            .expect("reads the pragma");
        assert_eq!(own, 0, "the writer checkpoints nothing itself");
        sqlx::query("CREATE TABLE scratch (x BLOB)")
            .execute(&writer)
            .await
            .expect("a table");
        for _ in 0..50 {
            sqlx::query("INSERT INTO scratch VALUES (randomblob(4000))")
                .execute(&writer)
                .await
                .expect("a page");
        }
        let before = size(&file);
        let mut checkpoints = Checkpoints::of(&store.backend);
        for _ in 1..CHECKPOINT_EVERY {
            checkpoints.committed();
        }
        assert!(checkpoints.running.is_none(), "not due yet");
        checkpoints.committed();
        let running = checkpoints.running.take().expect("due");
        running.await.expect("checkpoints");
        assert!(
            size(&file) >= before + 50 * 4000,
            "the log reached the file: {before} -> {}",
            size(&file)
        );
        writer.close().await;
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);

        let in_memory = Store::connect("sqlite::memory:").await.expect("opens");
        assert!(Checkpoints::of(&in_memory.backend).pool.is_none());
    }
}
