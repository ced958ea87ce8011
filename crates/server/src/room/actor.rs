//! The room actor: the only owner of a table and its hand. It deals, asks bots and players for
//! decisions, enforces deadlines, logs every accepted action before its events go out, and
//! stores each finished hand.

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use engine::wall::SeededRng;
use engine::{Action, Seat, Table};
use protocol::{ErrorCode, SeatStatus, ServerMessage};
use sha2::{Digest, Sha256};
use store::{Store, TableId, UnixMillis};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::seat::{Charged, Conn, Occupant, SeatCtl};
use super::{Command, JoinError, RoomSettings, RoomSummary, Timing};

mod hand;
mod phase;
mod views;
mod window;

use phase::Phase;
use views::{Spectator, SpectatorTx};

/// A decision a player owes, with its deadline.
#[derive(Clone, Debug)]
struct Prompt {
    legal: Vec<Action>,
    /// When it was sent: the clock starts then.
    sent: Instant,
    deadline: Instant,
    deadline_ms: i64,
    /// How much of the time to the deadline is the seat's bank.
    bank_ms: u64,
}

pub struct Room {
    id: TableId,
    /// This node's claim on the table: every write of the table's play is made under it, and
    /// refused once another node holds the table.
    claim: store::Claim,
    store: Store,
    settings: RoomSettings,
    /// A room that deals after the grace whoever has come: when.
    deal_by: Option<Instant>,
    timing: Timing,
    table: Table,
    /// Where the match is (the hand in play lives there).
    phase: Phase,
    seed: u64,
    seed_sha256: Option<String>,
    seats: Vec<SeatCtl>,
    announced: Vec<SeatStatus>,
    prompts: Vec<Option<Prompt>>,
    /// Each seat's time bank left in this hand, in milliseconds.
    banks: Vec<u64>,
    log_seq: u64,
    rng: SeededRng,
    spectators: Vec<Spectator>,
    /// Spectators who arrived while a claim window was held: they are let in when it closes.
    watchers_due: Vec<(u64, SpectatorTx)>,
    metrics: Arc<crate::metrics::Metrics>,
    /// Failed writes of the action log in a row (deals, bots' and timed-out seats' actions):
    /// their retries back off, and their log lines too.
    store_backoff: super::backoff::Backoff,
    /// When to try again a bot's action whose log write failed (nothing else would wake the
    /// room for it).
    retry_at: Option<Instant>,
    summary: Arc<Mutex<RoomSummary>>,
    /// Set once another node holds the table (a write was refused as fenced, or this node
    /// found its claim taken): the room stops at once and its sockets are told the table
    /// moved. Shared with its handle.
    lost: Arc<std::sync::atomic::AtomicBool>,
    /// Per seat, the last `seq` written to the transcript, and whether a snapshot is owed
    /// to it (frames went in during a held window).
    transcribed: Vec<(u64, bool)>,
}

impl Room {
    pub fn new(
        store: Store,
        claim: store::Claim,
        settings: RoomSettings,
        occupants: Vec<Occupant>,
        timing: Timing,
        start: super::Start,
        metrics: Arc<crate::metrics::Metrics>,
    ) -> Room {
        let id = claim.table.clone();
        let players = usize::from(settings.ruleset.rules().flow().players);
        let super::Start {
            table,
            game,
            seed,
            log_seq,
            first_seq,
            seated_grace_ms,
        } = start;
        let grace = Duration::from_millis(timing.grace_ms);
        let first_grace = Duration::from_millis(seated_grace_ms);
        let now = timing.time.now();
        let wait_until = now + Duration::from_millis(timing.room_wait_ms);
        let deal_by =
            (settings.first_deal == super::FirstDeal::AfterGrace).then(|| now + first_grace);
        let seats: Vec<SeatCtl> = occupants
            .into_iter()
            .chain(std::iter::repeat(Occupant::Empty))
            .take(players)
            .map(|o| SeatCtl::new(o, timing.time.clone(), first_seq, grace, first_grace))
            .collect();
        let bank_ms = settings.clock.bank_ms;
        let summary = Arc::new(Mutex::new(RoomSummary {
            table: id.clone(),
            ruleset: settings.ruleset.id().to_string(),
            seats: Vec::new(),
            public: settings.public,
            code: settings.code.clone(),
            hands_played: 0,
            closed_to_joins: false,
            clock: settings.clock,
            phase: super::RoomPhase::Waiting,
        }));
        let room = Room {
            claim,
            id,
            store,
            settings,
            timing,
            seed_sha256: game.as_ref().map(|_| seed_commitment(seed)),
            phase: Phase::start(game, u64::from(table.state().hands_played), now, wait_until)
                .dealt_by(deal_by),
            table,
            seed,
            announced: seats.iter().map(|s| s.status(now)).collect(),
            prompts: vec![None; seats.len()],
            banks: vec![bank_ms; players],
            seats,
            log_seq,
            rng: SeededRng::new(random_u64()),
            deal_by,
            store_backoff: super::backoff::Backoff::new(
                Duration::from_secs(1),
                Duration::from_secs(30),
            ),
            retry_at: None,
            spectators: Vec::new(),
            watchers_due: Vec::new(),
            metrics,
            summary,
            lost: Arc::default(),
            transcribed: vec![(first_seq.saturating_sub(1), false); players],
        };
        room.publish_summary();
        room
    }

    pub fn summary_cell(&self) -> Arc<Mutex<RoomSummary>> {
        self.summary.clone()
    }

    pub fn lost_cell(&self) -> Arc<std::sync::atomic::AtomicBool> {
        self.lost.clone()
    }

    /// Notes a store error: one that says another node holds the table ends the room.
    pub(super) fn check_fenced(&self, error: &store::StoreError) {
        if matches!(error, store::StoreError::Fenced { .. }) {
            self.lose_table();
        }
    }

    fn lose_table(&self) {
        if !self.lost.swap(true, std::sync::atomic::Ordering::Relaxed) {
            tracing::warn!(
                epoch = self.claim.epoch.0,
                "another node holds the table now; the room stops"
            );
        }
    }

    fn is_lost(&self) -> bool {
        self.lost.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The room's task, until the match is over, the table is lost, or the server stops.
    /// Written as a block rather than an `async fn`: an `async fn`'s future keeps its argument
    /// and the local it is moved into side by side, the room twice (~1.2 KiB a table); the
    /// block's future holds it once.
    #[allow(clippy::manual_async_fn)] // an `async fn` is what this avoids (above)
    pub fn run(mut self, mut rx: mpsc::Receiver<super::Queued>) -> impl Future<Output = ()> {
        async move {
            // No wake-up's future is boxed: what a wake-up does (`progress`, `on_timer`,
            // `handle`, `hand_written`) is a future of a few hundred bytes, created and copied
            // at every wake-up and part of the room's task at the size of the largest. The rare
            // large states are boxed where they happen, so that they take memory only while
            // they run: the action log's direct append inside the store (a room's appends go
            // through the group writer), and the table's seating and carried-state writes (a
            // player joins, leaves or escapes). A finished hand is stored by a task of its own
            // (`writer::spawn`).
            loop {
                if self.is_lost() {
                    // Nothing more is sent or written: the node that holds the table now plays
                    // it from the log, and the sockets follow it there.
                    break;
                }
                self.progress().await;
                if self.is_lost() {
                    break;
                }
                self.transcribe();
                if matches!(self.phase, Phase::Closing { at } if at <= self.now()) {
                    // The match is over and stored, its last frames long sent: the room lets
                    // go of the table, and the lobby forgets it (a server runs for months).
                    tracing::debug!("the match is over; the room closes");
                    break;
                }
                let wake = self.next_wake();
                // Timers first: a deadline that has passed is kept before any command read
                // after it (an action arriving after its deadline finds the bot has decided),
                // so what happens never depends on which of the two the runtime happened to
                // poll first.
                tokio::select! {
                    biased;
                    () = self.timing.time.sleep_until_some(wake) => self.on_timer().await,
                    written = phase::written(&mut self.phase) => self.hand_written(written).await,
                    command = rx.recv() => match command {
                        Some(queued) => if self.handle(queued).await.is_break() {
                            break;
                        },
                        None => break,
                    },
                }
            }
        }
    }

    // ---- commands ----

    /// Carries out a request; `Break` after a shutdown (a lost table stops through
    /// `is_lost`). The request stays in its box until its arm's pattern takes the fields it
    /// uses: the room's task is as large as its largest wake-up, and a request held by value
    /// (or a payload moved whole into a local) would make this one the size of the largest
    /// request.
    async fn handle(&mut self, queued: super::Queued) -> ControlFlow<()> {
        match *queued {
            Command::Join(super::Joining {
                player,
                name,
                reply,
            }) => {
                let result = self.join(player, name).await;
                let _ = reply.send(result);
            }
            Command::Connect(super::Connecting {
                player,
                last_seq,
                conn,
                tx,
                reply,
            }) => {
                let result = self.connect(&player, last_seq, Conn { id: conn, tx });
                let _ = reply.send(result);
            }
            Command::Disconnect { player, conn } => {
                if let Some(i) = self.seat_of(&player) {
                    if self.seats[i].conn().is_some_and(|c| c.id == conn) {
                        self.seats[i].lose_connection();
                    }
                    // Announced either way: a send to the closed connection may have dropped
                    // it already, without a word to the table.
                    self.refresh_statuses();
                }
            }
            Command::Act(super::Acting {
                player,
                conn,
                id,
                action,
                received,
            }) => {
                if self.act(&player, conn, id, action.into()).await {
                    self.metrics
                        .action_seconds
                        .record(received.elapsed().as_secs_f64());
                }
            }
            Command::Watch { conn, tx } => {
                if !self.settings.deals.open() {
                    // A duplicate table is not watched: dropping `tx` closes the socket.
                    drop(tx);
                    return ControlFlow::Continue(());
                }
                if self.hold().is_some() {
                    // The snapshot would show the held window's events before they go out.
                    self.watchers_due.push((conn, tx));
                } else {
                    self.watch(conn, tx);
                }
                if self.is_over() {
                    // The final table, and nothing after it.
                    self.spectators.clear();
                }
            }
            Command::Unwatch { conn } => {
                self.spectators.retain(|s| s.conn != conn);
                self.watchers_due.retain(|(c, _)| *c != conn);
            }
            Command::Shutdown { done } => {
                // A hand being written is finished first: its answer is not needed, only the
                // write (a restart would replay the hand from the log anyway).
                let written = phase::written_or_none(&mut self.phase).await;
                tracing::debug!(?written, "the room stops");
                let _ = done.send(());
                return ControlFlow::Break(());
            }
            Command::Lost => self.lose_table(),
            Command::Leave { player } => {
                if let Some(i) = self.seat_of(&player) {
                    self.seats[i].hang_up();
                    self.leave_seat(i).await;
                    self.refresh_statuses();
                }
            }
        }
        ControlFlow::Continue(())
    }

    async fn join(&mut self, player: store::PlayerId, name: String) -> Result<u8, JoinError> {
        if let Some(i) = self.seat_of(&player) {
            return Ok(i as u8);
        }
        if self.escaped_here(&player) {
            return Err(JoinError::Escaped);
        }
        if self.is_over() {
            return Err(JoinError::Closed);
        }
        let Some(i) = self
            .seats
            .iter()
            .position(|s| matches!(s.occupant, Occupant::Empty))
        else {
            return Err(JoinError::Full);
        };
        // Not connected yet: the grace runs from now, as after a dropped connection.
        self.seats[i].seat_player(player, name);
        self.persist_seats().await;
        self.refresh_statuses();
        Ok(i as u8)
    }

    fn connect(
        &mut self,
        player: &store::PlayerId,
        last_seq: Option<u64>,
        conn: Conn,
    ) -> Result<u8, ErrorCode> {
        let Some(i) = self.seat_of(player) else {
            return Err(if self.escaped_here(player) {
                ErrorCode::Escaped
            } else {
                ErrorCode::NotSeated
            });
        };
        if let Some(old) = self.seats[i].reconnect(conn) {
            // A second connection replaces the first; the old one is told why.
            let _ = old.tx.try_send(
                serde_json::to_string(&protocol::Envelope {
                    seq: None,
                    message: ServerMessage::TableClosed {
                        reason: "replaced by a newer connection".into(),
                    },
                })
                .unwrap_or_default()
                .into(),
            );
        }
        // 0 is "nothing received yet": a snapshot, like no `last_seq`.
        let missed = last_seq
            .filter(|&l| l > 0)
            .and_then(|last| self.seats[i].since(last, &self.hand_in_view()));
        match missed {
            Some(frames) => {
                for f in frames {
                    if let Some(c) = self.seats[i].conn() {
                        let _ = c.tx.try_send(f);
                    }
                }
            }
            None if self.hold().is_some() => {
                // The hand has moved on behind the held window: a snapshot now would show what
                // the window's events show again when they go out. It is sent when it closes.
                tracing::debug!(seat = i, "a snapshot waits for the claim window");
                self.seats[i].snapshot_due = true;
            }
            None => {
                tracing::debug!(seat = i, "sending a snapshot");
                let snapshot = self.snapshot(i);
                self.seats[i].push(ServerMessage::Snapshot {
                    table: Box::new(snapshot),
                });
            }
        }
        if self.is_over() {
            // Nothing more will come: the session ends once this is out.
            self.seats[i].hang_up();
        }
        self.refresh_statuses();
        Ok(i as u8)
    }

    /// A player's action: accepted (its events sent) and acknowledged, or refused with its
    /// reason. True when accepted.
    async fn act(&mut self, player: &store::PlayerId, conn: u64, id: u64, action: Action) -> bool {
        let Some(i) = self.seat_of(player) else {
            return false;
        };
        if self.seats[i].conn().is_none_or(|c| c.id != conn) {
            return false;
        }
        let outcome = match &self.prompts[i] {
            None => Err((
                ErrorCode::NotYourTurn,
                "no decision is owed now".to_string(),
            )),
            Some(p) if !p.legal.contains(&action) => Err((
                ErrorCode::IllegalAction,
                format!("`{action}` is not among the legal actions"),
            )),
            Some(_) => self
                .accept(Seat::ALL[i], action, false)
                .await
                .map_err(|e| (ErrorCode::Internal, e)),
        };
        let accepted = outcome.is_ok();
        let message = match outcome {
            Ok(()) => ServerMessage::Ack { id },
            Err((code, message)) => ServerMessage::Error {
                id: Some(id),
                code,
                message,
            },
        };
        self.seats[i].reply(message);
        accepted
    }

    // ---- time ----

    /// Now, in the rooms' time.
    fn now(&self) -> Instant {
        self.timing.time.now()
    }

    fn next_wake(&self) -> Option<Instant> {
        let mut wake: Option<Instant> = None;
        let mut consider = |t: Instant| wake = Some(wake.map_or(t, |w| w.min(t)));
        match &self.phase {
            Phase::Closing { at } => return Some(*at),
            Phase::Waiting { until, retry_at } => {
                consider(*until);
                retry_at.map(&mut consider);
            }
            Phase::Between { deal_at } => consider(*deal_at),
            Phase::Playing(p) => {
                if let Some(h) = &p.hold {
                    consider(h.until);
                }
            }
            Phase::Storing(_) => {}
        }
        for p in self.prompts.iter().flatten() {
            consider(p.deadline);
        }
        if let Some(at) = self.retry_at {
            consider(at);
        }
        let now = self.now();
        let reconnect = Duration::from_millis(self.timing.reconnect_ms);
        for (i, s) in self.seats.iter().enumerate() {
            if let Some(away) = s.away() {
                for at in [
                    away.takeover_at,
                    (away.since + reconnect).max(away.takeover_at),
                ] {
                    if at > now {
                        consider(at);
                    }
                }
            }
            // Due now or earlier too: the bot answers once the room wakes.
            if let Some(at) = self.takeover_due(i) {
                consider(at);
            }
        }
        wake
    }

    async fn on_timer(&mut self) {
        if self.is_over() {
            // Only the room's closing is timed now: nobody escapes a finished match.
            return;
        }
        let now = self.now();
        if self.retry_at.is_some_and(|at| at <= now) {
            // Due: `progress` tries the bot's action again after this wake.
            self.retry_at = None;
        }
        if matches!(self.phase, Phase::Waiting { until, .. } if now >= until) {
            self.close_unplayed().await;
            return;
        }
        let reconnect = Duration::from_millis(self.timing.reconnect_ms);
        // Nobody escapes a match whose last hand is being stored: it is over.
        let last_stored = matches!(&self.phase, Phase::Storing(s) if s.last);
        for i in 0..self.seats.len() {
            if !last_stored && self.seats[i].escape_due(now, reconnect) {
                self.leave_seat(i).await;
            }
        }
        self.refresh_statuses();
        let late: Vec<usize> = (0..self.prompts.len())
            .filter(|&i| self.prompts[i].as_ref().is_some_and(|p| p.deadline <= now))
            .collect();
        for i in late {
            // The deadline passed: the bot decides for the seat.
            if let Some(action) = self.timeout_choice(i)
                && let Err(e) = self.accept(Seat::ALL[i], action, true).await
            {
                // Tried again after a backoff, not at every wake.
                let retry = self.store_failed(&e, "a timed-out seat's action");
                if let Some(p) = self.prompts[i].as_mut() {
                    p.deadline = now + retry;
                }
            }
        }
        if self.hold().is_some_and(|h| h.until <= now) {
            self.release();
        }
    }

    /// The room waited for its first deal long enough: it closes (stored as `closed`), its
    /// players are told, and it leaves the lobby. The write is boxed: once a room, it would
    /// otherwise add its size to every timer's future.
    async fn close_unplayed(&mut self) {
        tracing::info!("no hand was dealt in time; the room closes");
        if let Err(e) = Box::pin(
            self.store
                .set_table_status(&self.claim, store::TableStatus::Closed),
        )
        .await
        {
            crate::metrics::bump(&self.metrics.store_failures_total);
            self.check_fenced(&e);
            tracing::warn!(error = %e, "the closed room's status could not be stored");
        }
        self.close_streams("nobody came: no hand was dealt in time", Duration::ZERO);
        self.publish_summary();
    }

    /// Ends every stream with `table_closed` (its last message) and lets go of every socket,
    /// each closing once its queue is out (1000); the room closes `linger` from now.
    fn close_streams(&mut self, reason: &str, linger: Duration) {
        self.phase = Phase::Closing {
            at: self.now() + linger,
        };
        self.broadcast(ServerMessage::TableClosed {
            reason: reason.into(),
        });
        for seat in &mut self.seats {
            seat.hang_up();
        }
        self.spectators.clear();
    }

    /// A player leaves (or did not come back in time). Once the match has been dealt that is an
    /// escape; before the first deal there is nothing to escape from: the seat is given back,
    /// and the player may join again.
    async fn leave_seat(&mut self, i: usize) {
        if self.dealt() {
            self.escape(i).await;
        } else {
            tracing::info!(
                seat = i,
                "a player gives the seat back before the first deal"
            );
            self.seats[i].unseat();
            self.persist_seats().await;
        }
    }

    /// A player has escaped: the bot plays the seat from now on, and the escape is charged
    /// to the hand in play, or between hands to the next one (`../shared/rules/README.md`,
    /// "Escapes, in every family"). It is stored at once, with the seating that shows it, so
    /// that no restart or move of the table loses it. Once the match's last hand is over there
    /// is nothing left to escape from.
    async fn escape(&mut self, i: usize) {
        let Some(player) = self.seats[i].player().cloned() else {
            return;
        };
        let Some(charged) = self.charge_now() else {
            return;
        };
        self.seats[i].escape(charged);
        tracing::info!(seat = i, player = %player, hand = charged.hand, "escaped");
        let record = store::EscapeRecord {
            player,
            hand_no: charged.hand,
            ruleset: self.settings.ruleset.id().to_string(),
            points: self.escape_points(),
            at: UnixMillis::now(),
        };
        let seats = self.stored_seats();
        // Boxed, as the seating's other writes are: rare, it would otherwise add its size to
        // every command's future.
        if let Err(e) = Box::pin(self.store.record_escape(&self.claim, &seats, &record)).await {
            // The finished hand offers the penalty again; the seating goes with the next change.
            crate::metrics::bump(&self.metrics.store_failures_total);
            self.check_fenced(&e);
            tracing::error!(error = %e, "the escape could not be stored yet");
        }
        match &mut self.phase {
            Phase::Playing(_) => {}
            Phase::Storing(storing) => {
                // The hand being written stores the carry-over as it was: the reset is stored
                // once that write is durable (`hand_written`).
                storing.carry_reset = true;
                self.table.player_left();
            }
            Phase::Waiting { .. } | Phase::Between { .. } | Phase::Closing { .. } => {
                // Between hands: the table's carry-over restarts now (during a hand, when it
                // ends, stored with that hand), and is stored now so a restart keeps the reset.
                self.table.player_left();
                self.persist_carried().await;
            }
        }
    }

    /// The hand an escape now is charged to: the hand in play, or the next one while a result
    /// is stored or the next deal waits; none before the first deal or once the last hand is
    /// over.
    fn charge_now(&self) -> Option<Charged> {
        let hand = self.hand_no();
        match &self.phase {
            Phase::Playing(_) => Some(Charged {
                hand,
                in_play: true,
            }),
            Phase::Storing(s) if s.last => None,
            Phase::Storing(_) | Phase::Between { .. } => Some(Charged {
                hand,
                in_play: false,
            }),
            Phase::Waiting { .. } | Phase::Closing { .. } => None,
        }
    }
}

/// The published commitment to a hand's seed: SHA-256 of its decimal digits, in hex.
pub fn seed_commitment(seed: u64) -> String {
    crate::auth::hex(&Sha256::digest(seed.to_string().as_bytes()))
}

/// 64 bits from the OS (seeds of hands and tables).
pub fn random_u64() -> u64 {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        // No OS randomness: fall back on the clock rather than refuse to deal.
        return UnixMillis::now().0 as u64 ^ 0x9E37_79B9_7F4A_7C15;
    }
    u64::from_le_bytes(b)
}
