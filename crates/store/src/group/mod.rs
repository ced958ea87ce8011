//! Group commit of the rooms' action logs. Every room logs each accepted action before it
//! applies it, so a busy server makes thousands of tiny appends a second. Made one by one they
//! queue for SQLite's single writer lock (whose busy handler sleeps in steps of milliseconds)
//! or each wait for PostgreSQL to flush its WAL. A writer task takes every append waiting at
//! the moment, writes them in one transaction and answers each caller: one commit for the lot,
//! and a room still hears back only after its action is durable.

use tokio::runtime::Handle;
use tokio::sync::{mpsc, oneshot};

mod thread;

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
    done: oneshot::Sender<Answer>,
}

/// What the writer says of an append.
#[derive(Debug)]
enum Answer {
    /// Written, or refused, and why.
    Done(Result<(), StoreError>),
    /// Not written: the caller writes it through the direct path, which says why if it cannot
    /// (the writer thread's fast path has no errors of its own to give).
    Direct,
}

/// What the writer is asked to do.
#[derive(Debug)]
pub(crate) enum Job {
    Append(Append),
    /// The store is closing: the appends queued before are written, the writer stops and its
    /// connection closes, and then it answers; the appends after are refused
    /// ([`StoreError::WriterStopped`]) or go the direct way, to a closed pool.
    Close(oneshot::Sender<()>),
}

/// Where a writer answers a close, once it has stopped.
type Closed = oneshot::Sender<()>;

/// The handle rooms' appends go through.
pub(crate) type Appends = mpsc::Sender<Job>;

/// The appends among `jobs` up to a close, and the close if there was one; the jobs are all
/// taken (those after a close are dropped, and their callers hear that the writer stopped).
fn take_appends(jobs: &mut Vec<Job>) -> (Vec<Append>, Option<Closed>) {
    let mut batch = Vec::with_capacity(jobs.len());
    for job in jobs.drain(..) {
        match job {
            Job::Append(a) => batch.push(a),
            Job::Close(closed) => return (batch, Some(closed)),
        }
    }
    (batch, None)
}

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
    /// This store with its action-log appends grouped into shared transactions by a writer.
    /// The writer ends when the store is closed ([`Store::close`]) or the last clone of the
    /// returned store is dropped. Other writes and every read are unchanged.
    ///
    /// On an SQLite file the writer is a thread with a connection of its own
    /// ([`thread::FileWriter`]); on PostgreSQL or an in-memory SQLite database, or should that
    /// thread not start, it is a task on the current tokio runtime, on an sqlx connection of
    /// its own. Must be called on a tokio runtime: the writer's checkpoints run on it.
    pub fn with_group_commit(mut self) -> Store {
        let appends = match self.file_writer() {
            Some(appends) => appends,
            None => self.writer_task(),
        };
        self.appends = Some(appends);
        self
    }

    /// Starts the writer thread of an SQLite file; None on another database, or when its
    /// connection does not open (said in the log, and the task writes instead).
    fn file_writer(&self) -> Option<Appends> {
        let Backend::Sqlite(pool) = &self.backend else {
            return None;
        };
        let options = pool.connect_options();
        if sqlite_in_memory(&options) {
            return None;
        }
        let file = options.get_filename().to_path_buf();
        let not_started = "the action log's writer thread did not start; a task writes instead";
        // The pool's busy timeout: connect.rs sets it and the acquire timeout both to the
        // store's connect timeout, and only the latter can be read back.
        let conn = match thread::open(&file, pool.options().get_acquire_timeout()) {
            Ok(conn) => conn,
            Err(error) => {
                tracing::warn!(%error, file = %file.display(), "{not_started}");
                return None;
            }
        };
        let (appends, rx) = mpsc::channel(QUEUE);
        let writer = thread::FileWriter::new(conn, Checkpoints::of(&self.backend));
        match writer.spawn(rx, file.clone()) {
            Ok(()) => Some(appends),
            Err(error) => {
                tracing::warn!(%error, file = %file.display(), "{not_started}");
                None
            }
        }
    }

    /// Starts the writer task on a connection of its own.
    fn writer_task(&mut self) -> Appends {
        let (appends, rx) = mpsc::channel(QUEUE);
        let backend = self.backend.writer();
        let checkpoints = Checkpoints::of(&self.backend);
        let writer = Store {
            backend: backend.clone(),
            appends: None,
            writer: None,
        };
        tokio::spawn(writer.write_appends(rx, checkpoints));
        self.writer = Some(backend);
        appends
    }

    /// Hands an append to the writer and waits for its outcome. An append the writer never
    /// received (it stopped) is written directly, and so is one it hands back unwritten
    /// ([`Answer::Direct`]); one it received and did not answer is reported, never written a
    /// second time.
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
        slot.send(Job::Append(Append {
            claim: claim.clone(),
            actions: actions.to_vec(),
            done,
        }));
        match outcome.await {
            Ok(Answer::Done(outcome)) => outcome,
            // Boxed, as above.
            Ok(Answer::Direct) => Box::pin(self.append_direct(claim, actions)).await,
            Err(_) => Err(StoreError::WriterStopped),
        }
    }

    async fn write_appends(self, mut rx: mpsc::Receiver<Job>, mut checkpoints: Checkpoints) {
        let mut jobs = Vec::with_capacity(MAX_BATCH);
        while rx.recv_many(&mut jobs, MAX_BATCH).await > 0 {
            let (batch, closed) = take_appends(&mut jobs);
            if !batch.is_empty() {
                self.write_batch(batch).await;
                if checkpoints.committed(rx.is_empty()) {
                    self.finish_checkpoint().await;
                }
            }
            if let Some(closed) = closed {
                let _ = closed.send(());
                return;
            }
        }
    }

    /// Copies, on the writer's own connection, what the pool's checkpoint left (see
    /// [`Checkpoints`]).
    async fn finish_checkpoint(&self) {
        if let Backend::Sqlite(pool) = &self.backend {
            let frames = sqlx::query_as(CHECKPOINT).fetch_one(pool).await;
            checkpointed(frames.map_err(|e| e.to_string()));
        }
    }

    /// Stops the group writer once the appends queued before are written, and waits until it
    /// has; see [`Job::Close`]. A writer already stopped has nothing to wait for.
    pub(crate) async fn stop_writer(&self) {
        if let Some(appends) = &self.appends {
            let (closed, stopped) = oneshot::channel();
            if appends.send(Job::Close(closed)).await.is_ok() {
                let _ = stopped.await;
            }
        }
    }

    /// One transaction for the whole batch; when it fails, each append is written on its own
    /// so that each caller hears its own outcome (a conflict in one room's log is not
    /// another room's failure).
    async fn write_batch(&self, batch: Vec<Append>) {
        if batch.len() > 1 && self.write_together(&batch).await {
            for a in batch {
                let _ = a.done.send(Answer::Done(Ok(())));
            }
            return;
        }
        for a in batch {
            let outcome = self.append_direct(&a.claim, &a.actions).await;
            let _ = a.done.send(Answer::Done(outcome));
        }
    }

    /// Whether the whole batch went in, in one transaction.
    async fn write_together(&self, batch: &[Append]) -> bool {
        match table_rows(batch) {
            Ok(tables) => self.insert_rows(&tables).await.is_ok(),
            Err(_) => false,
        }
    }
}

/// Each append's rows under its table's claim, for one statement; an error when an action
/// cannot be made a row.
fn table_rows(batch: &[Append]) -> Result<Vec<TableRows<'_>>, StoreError> {
    batch
        .iter()
        .map(|a| {
            Ok(TableRows {
                table: &a.claim.table,
                epoch: a.claim.epoch,
                rows: Store::rows(&a.actions)?,
            })
        })
        .collect()
}

/// Commits of the group writer between two checkpoints of SQLite's write-ahead log. SQLite's
/// own threshold is 1,000 pages; an append changes one or two.
const CHECKPOINT_EVERY: u32 = 256;

/// The statement that copies the write-ahead log's frames into the database file, as far as
/// no reader still needs them, waiting on nothing.
const CHECKPOINT: &str = "PRAGMA wal_checkpoint(PASSIVE)";

/// Checkpoints of SQLite's write-ahead log, made mostly beside the group writer rather than by
/// it. SQLite checkpoints on the connection whose commit took the log past 1,000 pages, before
/// that commit returns: the group writer's connection, nearly always, which then copied a
/// thousand pages into the database file and synced it while every room's next append waited
/// behind it (the tail of the action latency: a few milliseconds every few hundred actions,
/// so about 1 % of them). The writer's connection checkpoints nothing after a commit; every
/// [`CHECKPOINT_EVERY`] commits it asks a connection of the pool to checkpoint passively
/// (copying what no reader still needs, never waiting on the writer, which goes on appending
/// meanwhile), one checkpoint at a time.
///
/// That alone never let the log start over. SQLite writes from the start of the log again
/// only once a checkpoint has copied every frame in it, and a checkpoint beside a writer that
/// commits while it runs always leaves the frames of those commits: under a steady load the
/// log grew without bound (100–150 MB by the end of a 30 s run at 4,000 tables, against a
/// 15.5 MB database: docs/PERFORMANCE.md, "Eighth sitting"), and
/// every page read searched its index. So once the pool's checkpoint is done, the writer
/// copies the frames committed meanwhile itself, when no append waits for it
/// ([`Checkpoints::committed`] says when), and its next commit starts the log over.
///
/// Off SQLite files (PostgreSQL, an in-memory SQLite database) there is nothing to do.
pub(crate) struct Checkpoints {
    /// The pool the checkpoints run on, and the runtime they run on (the writer may be a
    /// thread of its own); None where there is nothing to checkpoint.
    pool: Option<(sqlx::SqlitePool, Handle)>,
    since: u32,
    /// The pool's checkpoint, from its start until the writer has copied what it left.
    running: Option<tokio::task::JoinHandle<()>>,
}

impl Checkpoints {
    /// Must be called on the runtime the checkpoints are to run on.
    fn of(backend: &Backend) -> Checkpoints {
        let pool = match backend {
            Backend::Sqlite(pool) if !sqlite_in_memory(&pool.connect_options()) => {
                Some((pool.clone(), Handle::current()))
            }
            _ => None,
        };
        Checkpoints {
            pool,
            since: 0,
            running: None,
        }
    }

    /// Counts a commit of the writer, and starts the pool's checkpoint when one is due and
    /// none runs. True when the writer is to copy now what the pool's checkpoint left
    /// ([`CHECKPOINT`] on its own connection): that checkpoint is done, and no append waits
    /// for the writer (`idle`). A writer never idle for a whole round of commits does not
    /// hold the checkpoints back: the pool copies again, and the log restarts at the writer's
    /// next idle moment.
    fn committed(&mut self, idle: bool) -> bool {
        let Some((pool, runtime)) = &self.pool else {
            return false;
        };
        self.since += 1;
        match &self.running {
            Some(running) if !running.is_finished() => return false,
            Some(_) if idle => {
                self.running = None;
                self.since = 0;
                return true;
            }
            _ => {}
        }
        if self.since < CHECKPOINT_EVERY {
            return false;
        }
        self.since = 0;
        let pool = pool.clone();
        self.running = Some(runtime.spawn(async move {
            if let Err(e) = sqlx::query(CHECKPOINT).execute(&pool).await {
                tracing::warn!(error = %e, "the write-ahead log could not be checkpointed");
            }
        }));
        false
    }
}

/// Says in the log what a checkpoint of the writer's left in the write-ahead log, when it left
/// anything (a reader still on an older snapshot): the log then starts over a round later.
fn checkpointed(frames: Result<(i64, i64, i64), String>) {
    match frames {
        Ok((_, log, copied)) if copied < log => {
            tracing::debug!(
                log,
                copied,
                "the writer's checkpoint left frames in the log"
            );
        }
        Ok(_) => {}
        Err(error) => tracing::warn!(%error, "the write-ahead log could not be checkpointed"),
    }
}

/// What the group writer's tests share: tables to append to, and actions to append.
#[cfg(test)]
mod fixtures {
    use super::*;

    /// Action `seq` of hand 0.
    pub(super) fn entry(seq: u64) -> LoggedAction {
        LoggedAction {
            seq,
            hand_no: 0,
            seat: 1,
            action: serde_json::json!({"type": "discard", "n": seq}),
            at: crate::UnixMillis(seq as i64),
        }
    }

    /// `n` new tables, and the claims their creation made.
    pub(super) async fn tables(store: &Store, n: usize) -> Vec<Claim> {
        let node = crate::NodeId::parse("n").expect("a node");
        let mut claims = Vec::new();
        for _ in 0..n {
            let table = crate::NewTable {
                ruleset: "sichuan".into(),
                options: serde_json::json!({}),
                seats: vec![],
                carried: serde_json::json!({}),
            };
            claims.push(store.create_table(&table, &node).await.expect("a table").1);
        }
        claims
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
            checkpoints.committed(true);
        }
        assert!(checkpoints.running.is_none(), "not due yet");
        checkpoints.committed(true);
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

    /// The writer finishes the pool's checkpoint only when no append waits for it, and a
    /// writer never idle does not hold the checkpoints back: a round of commits after the
    /// last one, the pool checkpoints again.
    #[tokio::test]
    async fn a_busy_writer_does_not_hold_the_checkpoints_back() {
        let dir = std::env::temp_dir().join(format!("mahjong-ckpt-{}", uuid::Uuid::now_v7()));
        let store = Store::connect(&crate::sqlite_url(&dir.join("test.db")))
            .await
            .expect("opens");
        let mut checkpoints = Checkpoints::of(&store.backend);
        async fn until_done(checkpoints: &Checkpoints) {
            while !checkpoints
                .running
                .as_ref()
                .expect("one runs")
                .is_finished()
            {
                tokio::task::yield_now().await;
            }
        }
        for _ in 0..CHECKPOINT_EVERY {
            assert!(!checkpoints.committed(false), "none done yet");
        }
        until_done(&checkpoints).await;
        for _ in 1..CHECKPOINT_EVERY {
            assert!(!checkpoints.committed(false), "appends wait: not now");
        }
        assert_eq!(checkpoints.since, CHECKPOINT_EVERY - 1);
        assert!(!checkpoints.committed(false));
        assert_eq!(checkpoints.since, 0, "the pool checkpoints again");
        until_done(&checkpoints).await;
        assert!(checkpoints.committed(true), "idle: the writer finishes it");
        assert!(checkpoints.running.is_none());
        assert_eq!(checkpoints.since, 0, "a round from the log's restart");
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    /// On an SQLite file the appends are written by the writer's own thread (the store keeps
    /// no sqlx writer): many rooms' appends at once all land, in order, each answered; one the
    /// fenced statement cannot write (a sequence number already logged) goes the direct way
    /// and is refused with the store's own error, alone.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_sqlite_file_is_written_by_its_thread() {
        let dir = std::env::temp_dir().join(format!("mahjong-thread-{}", uuid::Uuid::now_v7()));
        let store = Store::connect(&crate::sqlite_url(&dir.join("t.db")))
            .await
            .expect("opens")
            .with_group_commit();
        assert!(
            store.appends.is_some() && store.writer.is_none(),
            "the thread writes"
        );
        let entry = fixtures::entry;
        let claims = fixtures::tables(&store, 6).await;
        let mut rooms = tokio::task::JoinSet::new();
        for claim in claims.clone() {
            let store = store.clone();
            rooms.spawn(async move {
                for seq in 0..30 {
                    store.append_actions(&claim, &[entry(seq)]).await?;
                }
                Ok::<_, StoreError>(())
            });
        }
        while let Some(room) = rooms.join_next().await {
            room.expect("runs").expect("every append lands");
        }
        for claim in &claims {
            let held = store.actions(&claim.table, 0).await.expect("reads");
            assert_eq!(held, (0..30).map(entry).collect::<Vec<_>>());
        }
        // One room alone: a commit an append, past the commits between two checkpoints,
        // which the thread starts on the runtime.
        for seq in 30..(30 + u64::from(CHECKPOINT_EVERY) + 10) {
            store
                .append_actions(&claims[2], &[entry(seq)])
                .await
                .expect("lands");
        }
        let (conflicting, next) = ([entry(30), entry(2)], [entry(30)]);
        let (again, fine) = tokio::join!(
            store.append_actions(&claims[0], &conflicting),
            store.append_actions(&claims[1], &next)
        );
        assert!(
            matches!(again, Err(StoreError::LogConflict { seq: 2, .. })),
            "{again:?}"
        );
        fine.expect("a batch mate is stored");
        assert_eq!(store.next_action_seq(&claims[0].table).await.ok(), Some(30));
        // A closed store logs nothing more: the thread stops with it.
        store.close().await;
        let later = store.append_actions(&claims[3], &[entry(30)]).await;
        assert!(later.is_err(), "{later:?}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
