//! The group writer of an SQLite file: a thread of its own, on a connection of its own.
//!
//! Through sqlx, the group writer was a task that handed each batch to its connection's worker
//! thread and waited to be handed the answer back: an append woke the writer's task, the
//! task woke SQLite's thread, SQLite's thread woke the task, and the task woke the room. Each
//! hand-off is a futex and usually a context switch, and at the server's action rate a batch
//! is one or two appends, so the hand-offs were a large part of what an action cost beyond a
//! broadcast, and of its latency's tail (docs/PERFORMANCE.md). Here the thread that takes the
//! appends runs SQLite itself: an append wakes it once, its answer wakes the room once.
//!
//! The statement is the same fenced insert the sqlx path makes (`log::fenced_insert_statement`),
//! so the fence is the same: the rows go in only while every table holds the epoch they came
//! under, read under the write lock the statement holds. A batch it does not write whole (a
//! table gone or fenced, a sequence number already logged, a failing disk) is handed back,
//! append by append, for its caller to write through the store's direct path, which says why
//! in the store's own errors: this thread has only a fast path, and no error of its own reaches
//! a room. The direct writes run on the caller's task, on the runtime, concurrently; a room
//! waits for each append before its next, so its log's order is kept.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};
use tokio::sync::mpsc;

use super::{
    Answer, Append, CHECKPOINT, Checkpoints, Closed, Job, MAX_BATCH, checkpointed, table_rows,
    take_appends,
};
use crate::StoreError;
use crate::connect::WAL_SIZE_LIMIT;
use crate::log::{FencedInsert, Parameter};

/// Prepared statements kept: one per (rows, tables) shape of a batch; a batch is nearly always
/// one to four appends of one to three rows.
const STATEMENTS_KEPT: usize = 32;

/// The writer's state on its thread.
pub(super) struct FileWriter {
    conn: Connection,
    checkpoints: Checkpoints,
}

/// Opens the writer's connection to the SQLite file at `path`, on the settings the store's
/// pool uses (write-ahead log, every commit synced, foreign keys, a busy timeout), except that
/// it checkpoints only when told and cuts the log back when it starts over (see `Checkpoints`).
/// The file exists: the store created and migrated it.
pub(super) fn open(path: &Path, busy: Duration) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(busy)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    conn.pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT)?;
    conn.set_prepared_statement_cache_capacity(STATEMENTS_KEPT);
    Ok(conn)
}

impl FileWriter {
    pub(super) fn new(conn: Connection, checkpoints: Checkpoints) -> FileWriter {
        FileWriter { conn, checkpoints }
    }

    /// Starts the writer's thread; it ends when the store closes ([`Job::Close`]) or every
    /// sender of `rx` is gone, and its connection closes with it.
    pub(super) fn spawn(self, rx: mpsc::Receiver<Job>, file: PathBuf) -> std::io::Result<()> {
        std::thread::Builder::new()
            .name("log-writer".into())
            .spawn(move || {
                let _watch = Watch;
                tracing::debug!(file = %file.display(), "the action log's writer thread runs");
                // The writer, and so its connection, is gone before the close is answered.
                if let Some(closed) = self.run(rx) {
                    let _ = closed.send(());
                }
            })
            .map(|_| ())
    }

    /// Writes batches until the store closes (the close returned, to be answered) or every
    /// sender is gone.
    fn run(mut self, mut rx: mpsc::Receiver<Job>) -> Option<Closed> {
        let mut jobs = Vec::with_capacity(MAX_BATCH);
        while let Some(first) = rx.blocking_recv() {
            jobs.push(first);
            while jobs.len() < MAX_BATCH {
                match rx.try_recv() {
                    Ok(more) => jobs.push(more),
                    Err(_) => break,
                }
            }
            let (batch, closed) = take_appends(&mut jobs);
            if !batch.is_empty() {
                self.write_batch(batch);
                if self.checkpoints.committed(rx.is_empty()) {
                    self.finish_checkpoint();
                }
            }
            if closed.is_some() {
                return closed;
            }
        }
        None
    }

    /// Copies what the pool's checkpoint left (see `Checkpoints`).
    fn finish_checkpoint(&self) {
        let frames = self.conn.query_row(CHECKPOINT, [], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        });
        checkpointed(frames.map_err(|e| e.to_string()));
    }

    /// The whole batch in one fenced statement, its own transaction; when that does not write
    /// it, each append back to its caller for the direct path, so that each hears its own
    /// outcome.
    fn write_batch(&mut self, batch: Vec<Append>) {
        let written = self.insert(&batch).unwrap_or_else(|e| {
            tracing::debug!(error = %e, "a grouped append goes the direct way");
            false
        });
        for a in batch {
            let _ = a.done.send(if written {
                Answer::Done(Ok(()))
            } else {
                Answer::Direct
            });
        }
    }

    /// True when the statement wrote every row; false when it wrote none (a table not at its
    /// epoch, or a batch too large for one statement).
    fn insert(&self, batch: &[Append]) -> Result<bool, InsertError> {
        let tables = table_rows(batch)?;
        let Some(insert) = FencedInsert::of(&tables)? else {
            return Ok(false);
        };
        let mut statement = self.conn.prepare_cached(&insert.sql)?;
        // Bound by position: the statement numbers its placeholders `$1` … in the order they
        // appear, which is the order of `parameters`.
        if statement.parameter_count() != insert.parameter_count() {
            return Ok(false);
        }
        for (at, parameter) in (1..).zip(insert.parameters()) {
            match parameter {
                Parameter::Text(text) => statement.raw_bind_parameter(at, text)?,
                Parameter::Int(int) => statement.raw_bind_parameter(at, int)?,
            }
        }
        Ok(statement.raw_execute()? == insert.rows)
    }
}

/// Says in the log when the writer's thread ends by a panic: from then on every append goes
/// the direct way, a transaction of its own, which nothing else would tell.
struct Watch;

impl Drop for Watch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            tracing::error!(
                "the action log's writer thread stopped on a panic; appends go the direct way"
            );
        }
    }
}

/// Why the fenced statement did not run: either sends the batch the direct way.
#[derive(Debug, thiserror::Error)]
enum InsertError {
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[cfg(test)]
mod tests {
    use tokio::sync::oneshot;

    use super::*;
    use crate::Store;
    use crate::group::CHECKPOINT_EVERY;
    use crate::group::fixtures::{entry, tables};
    use crate::model::LoggedAction;
    use crate::ownership::{Claim, Epoch};

    /// A fresh SQLite file in a directory of its own, its store, `rooms` tables on it, and
    /// the writer's thread started on it (the sender its appends go to).
    async fn started(rooms: usize) -> (std::path::PathBuf, Store, Vec<Claim>, mpsc::Sender<Job>) {
        let dir = std::env::temp_dir().join(format!("mahjong-writer-{}", uuid::Uuid::now_v7()));
        let file = dir.join("t.db");
        let store = Store::connect(&crate::sqlite_url(&file))
            .await
            .expect("opens");
        let claims = tables(&store, rooms).await;
        let conn = open(&file, Duration::from_secs(5)).expect("the writer's connection");
        let (writer, rx) = mpsc::channel(16);
        FileWriter::new(conn, Checkpoints::of(&store.backend))
            .spawn(rx, file.clone())
            .expect("starts");
        (dir, store, claims, writer)
    }

    /// Offers one append to the thread; the receiver hears its answer.
    async fn offer(
        writer: &mpsc::Sender<Job>,
        claim: &Claim,
        actions: Vec<LoggedAction>,
    ) -> oneshot::Receiver<Answer> {
        let (done, answer) = oneshot::channel();
        let append = Append {
            claim: claim.clone(),
            actions,
            done,
        };
        writer
            .send(Job::Append(append))
            .await
            .expect("the thread takes it");
        answer
    }

    fn written(answer: Result<Answer, oneshot::error::RecvError>) -> bool {
        matches!(answer, Ok(Answer::Done(Ok(()))))
    }

    /// The thread itself writes what it can (answered written: no direct path involved) and
    /// hands back, unwritten, an append it cannot write whole: a sequence number already
    /// logged, a claim whose epoch is not the table's. Past the commits between two
    /// checkpoints it goes on answering (the pool's checkpoint runs on the runtime, the thread
    /// only finishes it).
    /// A close is answered once the thread has stopped and let go of its queue.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_thread_writes_what_it_can_and_hands_back_the_rest() {
        let (dir, store, claims, writer) = started(2).await;

        // Two rooms at once: one batch or two, each written by the thread.
        let first = offer(&writer, &claims[0], vec![entry(0), entry(1)]).await;
        let other = offer(&writer, &claims[1], vec![entry(0)]).await;
        assert!(written(first.await) && written(other.await));
        let held = store.actions(&claims[0].table, 0).await.expect("reads");
        assert_eq!(held, vec![entry(0), entry(1)]);

        let again = offer(&writer, &claims[0], vec![entry(2), entry(1)]).await;
        assert!(matches!(again.await, Ok(Answer::Direct)), "a conflict");
        let stale = Claim {
            table: claims[1].table.clone(),
            epoch: Epoch(claims[1].epoch.0 + 1),
        };
        let fenced = offer(&writer, &stale, vec![entry(1)]).await;
        assert!(
            matches!(fenced.await, Ok(Answer::Direct)),
            "not at its epoch"
        );
        let next = |table| store.next_action_seq(table);
        assert_eq!(
            next(&claims[0].table).await.ok(),
            Some(2),
            "nothing of it written"
        );
        assert_eq!(
            next(&claims[1].table).await.ok(),
            Some(1),
            "nothing of it written"
        );

        let last = u64::from(CHECKPOINT_EVERY) + 10;
        for seq in 1..=last {
            let answer = offer(&writer, &claims[1], vec![entry(seq)]).await;
            assert!(written(answer.await), "append {seq}");
        }
        assert_eq!(next(&claims[1].table).await.ok(), Some(last + 1));

        let (closed, stopped) = oneshot::channel();
        writer.send(Job::Close(closed)).await.expect("taken");
        stopped.await.expect("answered once stopped");
        assert!(writer.is_closed(), "the thread let go of its queue");
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Under rooms appending without pause the write-ahead log still starts over: the pool's
    /// checkpoints alone left the frames committed while they ran, so the log only grew
    /// (checked: without the writer's part the file reaches 6,300–6,600 frames here; with it,
    /// 900–1,900). Measured while the writer's connection is open: its close would
    /// checkpoint and remove the log.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_log_starts_over_under_rooms_appending_without_pause() {
        const ROOMS: usize = 2;
        let (dir, store, claims, writer) = started(ROOMS).await;

        // Each room's next append as soon as its last is answered: the writer commits
        // throughout, as under a server's load, and is idle only between its batches.
        let each = u64::from(CHECKPOINT_EVERY) * 8;
        let rooms = claims.into_iter().map(|claim| {
            let writer = writer.clone();
            tokio::spawn(async move {
                for seq in 0..each {
                    let answer = offer(&writer, &claim, vec![entry(seq)]).await;
                    assert!(written(answer.await), "append {seq}");
                }
            })
        });
        for room in rooms.collect::<Vec<_>>() {
            room.await.expect("every append written");
        }
        // The log's file keeps the size of its longest run of frames (16 MiB at most once it
        // starts over): a frame is a 4 KiB page and its 24-byte header.
        let log = std::fs::metadata(dir.join("t.db-wal")).map_or(0, |m| m.len());
        let frames = log / (4096 + 24);
        let appends = each * ROOMS as u64;
        assert!(
            frames < u64::from(CHECKPOINT_EVERY) * 16,
            "{frames} frames in the log after {appends} appends"
        );
        let (closed, stopped) = oneshot::channel();
        writer.send(Job::Close(closed)).await.expect("taken");
        stopped.await.expect("answered once stopped");
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}
