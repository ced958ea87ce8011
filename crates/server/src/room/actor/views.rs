//! What the room shows: snapshots for players and spectators, seat statuses, the lobby's
//! summary, and the stored seating.

use std::time::Duration;

use engine::Seat;
use engine::stored::{Document, StoredTableState};
use protocol::{Body, SeatStatus, ServerMessage, TableSnapshot};
use store::TableStatus;
use tokio::time::Instant;

use super::super::seat::{Occupant, SeatCtl};
use super::Room;
use super::phase::Phase;
use super::window::{HandInView, prompt_info};
use std::sync::Arc;
use tokio::sync::mpsc;

/// Where a spectator's frames go, each with the time it may be shown.
pub(super) type SpectatorTx = mpsc::Sender<(Instant, Arc<str>)>;

/// A spectator's connection: its id, its queue of frames with the time each is due, and the
/// next `seq` of its stream.
pub(super) struct Spectator {
    pub(super) conn: u64,
    pub(super) tx: SpectatorTx,
    pub(super) next_seq: u64,
}

impl Room {
    // ---- views ----

    pub(super) fn hand_no(&self) -> u64 {
        u64::from(self.table.state().hands_played)
    }

    pub(super) fn seat_of(&self, player: &store::PlayerId) -> Option<usize> {
        self.seats.iter().position(|s| s.player() == Some(player))
    }

    /// Whether `player` escaped from this table (and so may not sit or connect again).
    pub(super) fn escaped_here(&self, player: &store::PlayerId) -> bool {
        self.seats.iter().any(|s| {
            matches!(&s.occupant, super::super::seat::Occupant::Escaped { id, .. } if id == player)
        })
    }

    /// The hand a snapshot shows: the one in play, or the one whose result is being stored
    /// (until `hand_over`, the streams know it as it ended).
    fn shown_game(&self) -> Option<&engine::Game> {
        match &self.phase {
            Phase::Storing(s) => Some(&s.ended.game),
            _ => self.game(),
        }
    }

    /// The hand whose events the streams can make again: none between hands (no events, so
    /// nothing is made).
    pub(super) fn hand_in_view(&self) -> HandInView<'_> {
        match &self.phase {
            Phase::Storing(s) => self.view_of(s.ended.hand_no, s.ended.game.events()),
            Phase::Playing(p) => self.view_of(self.hand_no(), p.game.events()),
            _ => self.view_of(self.hand_no(), &[]),
        }
    }

    /// Hand `hand_no`'s `events` as this room's seats see them.
    pub(super) fn view_of<'a>(&self, hand_no: u64, events: &'a [engine::Event]) -> HandInView<'a> {
        HandInView {
            hand_no,
            events,
            players: self.settings.ruleset.rules().flow().players,
        }
    }

    pub(super) fn snapshot(&self, i: usize) -> TableSnapshot {
        let seat = Seat::ALL[i];
        TableSnapshot {
            seat: Some(i as u8),
            view: self
                .shown_game()
                .map(|g| protocol::view(&g.view(seat), g.events_for(seat))),
            prompt: self.prompts[i]
                .as_ref()
                .map(|p| prompt_info(self.hand_no(), p)),
            code: Some(self.settings.code.clone()),
            ..self.table_snapshot()
        }
    }

    /// What a spectator sees on arrival: the table without anyone's concealed tiles (nor the
    /// join code, which is the players' to share).
    pub(super) fn public_snapshot(&self) -> TableSnapshot {
        TableSnapshot {
            view: self
                .shown_game()
                .map(|g| protocol::public_view(&g.public_view(), g.events())),
            ..self.table_snapshot()
        }
    }

    /// What everyone may see of the table, without a hand's view or a prompt: as the streams
    /// have told it (seat statuses as announced, a stored hand's result once announced), so a
    /// snapshot never runs ahead of the messages it stands for while they go on.
    fn table_snapshot(&self) -> TableSnapshot {
        let players = usize::from(self.settings.ruleset.rules().flow().players);
        let state = self.table.state();
        let (hand_no, scores, draw_bonus) = match &self.phase {
            Phase::Storing(s) => (s.ended.hand_no, s.ended.scores.clone(), s.ended.draw_bonus),
            _ => (
                self.hand_no(),
                state.scores.0[..players].to_vec(),
                state.draw_bonus,
            ),
        };
        let mut seats = self.seat_infos();
        if !self.is_over() {
            // Once the match is over no stream goes on, and the final table shows the seats
            // as they are.
            for (info, &status) in seats.iter_mut().zip(&self.announced) {
                info.status = status;
            }
        }
        TableSnapshot {
            table: self.id.to_string(),
            ruleset: self.settings.ruleset.id().to_string(),
            seat: None,
            seats,
            scores,
            hand_no,
            seed_sha256: self.seed_sha256.clone(),
            view: None,
            prompt: None,
            draw_bonus,
            code: None,
            hands: self.settings.hands,
            action_seconds: self.settings.clock.action_ms / 1000,
            time_bank_seconds: self.settings.clock.bank_ms / 1000,
            claim_window_ms: self.settings.clock.claim_ms,
        }
    }

    /// Lets a spectator in: its stream starts with a snapshot of the table as it is now, shown
    /// after the room's spectator delay like every frame after it, so that nothing a spectator
    /// sees, on arrival or on reconnecting, is newer than the delay allows.
    pub(super) fn watch(&mut self, conn: u64, tx: SpectatorTx) {
        let snapshot = ServerMessage::Snapshot {
            table: Box::new(self.public_snapshot()),
        };
        let frame = serde_json::to_string(&protocol::Envelope {
            seq: Some(1),
            message: snapshot,
        })
        .unwrap_or_default();
        let due = self.now() + Duration::from_millis(self.settings.spectator_delay_ms);
        if tx.try_send((due, frame.into())).is_ok() {
            self.spectators.push(Spectator {
                conn,
                tx,
                next_seq: 2,
            });
        }
    }

    /// Sends the snapshots asked for while a claim window was held, now that every stream has
    /// caught up with the hand.
    pub(super) fn send_due_snapshots(&mut self) {
        for i in 0..self.seats.len() {
            if std::mem::take(&mut self.seats[i].snapshot_due) {
                let snapshot = self.snapshot(i);
                self.seats[i].push(ServerMessage::Snapshot {
                    table: Box::new(snapshot),
                });
            }
        }
        for (conn, tx) in std::mem::take(&mut self.watchers_due) {
            self.watch(conn, tx);
        }
    }

    /// Writes the frames sent since the last call to the transcripts, if the server keeps
    /// them, and for each seat whose stream moved the snapshot it would be sent now: called
    /// between two things the room does, where a snapshot could go out (see
    /// `crate::transcript`).
    pub(super) fn transcribe(&mut self) {
        let Some(transcripts) = self.timing.transcripts.clone() else {
            return;
        };
        // Past the stream's end (`table_closed`) a snapshot is the final table, not a point of
        // the stream.
        let held = self.hold().is_some() || self.is_over();
        let mut batch = crate::transcript::Batch::default();
        for i in 0..self.seats.len() {
            let (mut last, mut owed) = self.transcribed[i];
            for (seq, frame) in self.seats[i].frames_after(last, &self.hand_in_view()) {
                batch.frame(i, &frame);
                (last, owed) = (seq, true);
            }
            if owed && !held && !self.seats[i].snapshot_due && self.seats[i].listens() {
                batch.snapshot(i, last, &self.snapshot(i));
                owed = false;
            }
            self.transcribed[i] = (last, owed);
        }
        transcripts.write(&self.id.to_string(), batch);
    }

    /// A message for every seat's stream and every spectator, serialized once.
    pub(super) fn broadcast(&mut self, message: ServerMessage) {
        self.send(&message, None, |_, s| s.listens(), true);
    }

    /// Sends `message` to the seats `to` picks, and to the spectators when `public`. It is
    /// serialized only when somebody listens, and then once for everyone. A message that is
    /// event `index` of hand `hand` (`place`) is kept in the seats' streams by that place.
    pub(super) fn send(
        &mut self,
        message: &ServerMessage,
        place: Option<(u32, u32)>,
        to: impl Fn(usize, &SeatCtl) -> bool,
        public: bool,
    ) {
        let public = public && !self.spectators.is_empty();
        let to_seat = |(i, s): &(usize, &mut SeatCtl)| to(*i, s);
        if !public && !self.seats.iter_mut().enumerate().any(|p| to_seat(&p)) {
            return;
        }
        let body = match Body::of(message) {
            Ok(body) => body,
            Err(e) => {
                tracing::error!(error = %e, "a message could not be serialized");
                return;
            }
        };
        for (_, seat) in self.seats.iter_mut().enumerate().filter(to_seat) {
            match place {
                Some((hand, index)) => seat.push_event(hand, index, &body),
                None => seat.push_body(&body),
            };
        }
        if public {
            self.send_spectators(&body);
        }
    }

    /// A public message for the spectators, due after the room's spectator delay. A spectator
    /// that cannot keep up is dropped.
    pub(super) fn send_spectators(&mut self, body: &Body) {
        if self.spectators.is_empty() {
            return;
        }
        let due = self.now() + Duration::from_millis(self.settings.spectator_delay_ms);
        self.spectators.retain_mut(|s| {
            let frame = body.frame(Some(s.next_seq));
            s.next_seq += 1;
            s.tx.try_send((due, frame)).is_ok()
        });
    }

    pub(super) fn seat_infos(&self) -> Vec<protocol::SeatInfo> {
        let now = self.now();
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut info = s.info(i as u8, now);
                if info.status == SeatStatus::Takeover && !self.dealt() {
                    // Before the first deal nobody plays for anyone: the table waits.
                    info.status = SeatStatus::Disconnected;
                }
                info
            })
            .collect()
    }

    /// Tells every seat about seats whose status changed, and updates the lobby's summary.
    pub(super) fn refresh_statuses(&mut self) {
        if self.is_over() {
            // `table_closed` was the streams' last message: a seat's later comings and goings
            // show in the lobby only.
            self.publish_summary();
            return;
        }
        let infos = self.seat_infos();
        for (i, info) in infos.iter().enumerate() {
            if self.announced[i] != info.status {
                self.announced[i] = info.status;
                self.broadcast(ServerMessage::SeatChanged(info.clone()));
            }
        }
        self.publish_summary();
    }

    pub(super) fn publish_summary(&self) {
        let seats = self.seat_infos();
        let full = self
            .seats
            .iter()
            .all(|s| !matches!(s.occupant, Occupant::Empty));
        if let Ok(mut s) = self.summary.lock() {
            s.seats = seats;
            s.hands_played = self.hand_no();
            s.closed_to_joins = full || self.is_over();
            s.phase = self.phase.kind();
        }
    }

    /// Stores the table's carried state outside a finished hand (a player left between hands).
    /// Its write is boxed, as are the seating's (`persist_seats`): rare, they would otherwise
    /// add their size to the future of every command and timer the room handles.
    pub(super) async fn persist_carried(&self) {
        let carried = match StoredTableState::from(self.table.state()).write() {
            Ok(carried) => carried,
            Err(e) => {
                tracing::error!(error = %e, "the table's carried state could not be written");
                return;
            }
        };
        if let Err(e) = Box::pin(self.store.set_table_carried(&self.claim, &carried)).await {
            crate::metrics::bump(&self.metrics.store_failures_total);
            self.check_fenced(&e);
            tracing::error!(error = %e, "the table's carried state could not be stored");
        }
    }

    /// The seating as the store keeps it.
    pub(super) fn stored_seats(&self) -> Vec<store::SeatOccupant> {
        self.seats.iter().map(|s| s.occupant.stored()).collect()
    }

    /// Stores the table's seating (a player joins or gives the seat back); its writes
    /// are boxed, as `persist_carried`'s is.
    pub(super) async fn persist_seats(&self) {
        if let Err(e) = Box::pin(
            self.store
                .set_table_seats(&self.claim, &self.stored_seats()),
        )
        .await
        {
            crate::metrics::bump(&self.metrics.store_failures_total);
            self.check_fenced(&e);
            tracing::error!(error = %e, "seats could not be stored");
        }
        let full = self
            .seats
            .iter()
            .all(|s| !matches!(s.occupant, Occupant::Empty));
        if full
            && let Err(e) = Box::pin(
                self.store
                    .set_table_status(&self.claim, TableStatus::Playing),
            )
            .await
        {
            crate::metrics::bump(&self.metrics.store_failures_total);
            self.check_fenced(&e);
            tracing::error!(error = %e, "table status could not be stored");
        }
    }
}
