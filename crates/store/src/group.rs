//! Group commit of the rooms' action logs. Every room logs each accepted action before it
//! applies it, so a busy server makes thousands of tiny appends a second. Made one by one they
//! queue for SQLite's single writer lock (whose busy handler sleeps in steps of milliseconds)
//! or each wait for PostgreSQL to flush its WAL. A writer task takes every append waiting at
//! the moment, writes them in one transaction and answers each caller: one commit for the lot,
//! and a room still hears back only after its action is durable.

use tokio::sync::{mpsc, oneshot};

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
                let file = options.get_filename().to_string_lossy();
                if file.is_empty() || file.contains(":memory:") {
                    return self.clone();
                }
                Backend::Sqlite(
                    pool.options()
                        .clone()
                        .max_connections(1)
                        .min_connections(0)
                        .connect_lazy_with(options.as_ref().clone()),
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
        let writer = Store {
            backend: backend.clone(),
            appends: None,
            writer: None,
        };
        tokio::spawn(writer.write_appends(rx));
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

    async fn write_appends(self, mut rx: mpsc::Receiver<Append>) {
        let mut batch = Vec::with_capacity(MAX_BATCH);
        while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
            self.write_batch(std::mem::take(&mut batch)).await;
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
