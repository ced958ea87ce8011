//! The room actor: the only owner of a table and its hand. It deals, asks bots and players for
//! decisions, enforces deadlines, logs every accepted action before its events go out, and
//! stores each finished hand.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use engine::wall::SeededRng;
use engine::{Action, Game, Seat, Table};
use protocol::{ErrorCode, PromptInfo, SeatStatus, ServerMessage, TableSnapshot};
use sha2::{Digest, Sha256};
use store::{FinishedHand, LoggedAction, SeatResult, Store, TableId, TableStatus, UnixMillis};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::seat::{Conn, Occupant, SeatCtl};
use super::{Command, JoinError, RoomSettings, RoomSummary, Timing};

/// A spectator's connection: its id, its queue of frames with the time each is due, and the
/// next `seq` of its stream.
struct Spectator {
    conn: u64,
    tx: mpsc::Sender<(Instant, Arc<str>)>,
    next_seq: u64,
}

/// A claim window held open: until when, and the events held back until then.
struct Hold {
    until: Instant,
    until_ms: i64,
    events: Vec<engine::Event>,
}

/// Whether an action answers a claim window (a discard or a kong that may be robbed).
fn is_claim(a: &Action) -> bool {
    matches!(
        a,
        Action::Win | Action::Pung | Action::ExposedKong | Action::Chow { .. } | Action::Pass
    )
}

/// Whether an event offers a tile to the other seats, opening a claim window.
fn opens_window(e: &engine::Event) -> bool {
    match &e.kind {
        engine::EventKind::Discarded { .. } => true,
        engine::EventKind::Melded { meld: Some(m), .. } => {
            m.kind == engine::MeldKind::Kong(engine::KongKind::Added)
        }
        _ => false,
    }
}

/// A decision a player owes, with its deadline.
#[derive(Clone, Debug)]
struct Prompt {
    legal: Vec<Action>,
    deadline: Instant,
    deadline_ms: i64,
}

pub struct Room {
    id: TableId,
    store: Store,
    settings: RoomSettings,
    timing: Timing,
    table: Table,
    game: Option<Game>,
    seed: u64,
    seed_sha256: Option<String>,
    seats: Vec<SeatCtl>,
    announced: Vec<SeatStatus>,
    prompts: Vec<Option<Prompt>>,
    log_seq: u64,
    rng: SeededRng,
    next_hand_at: Option<Instant>,
    finished: bool,
    spectators: Vec<Spectator>,
    /// The claim window being held open, if any.
    hold: Option<Hold>,
    metrics: Arc<crate::metrics::Metrics>,
    /// Players who escaped during the hand in play (their penalty is stored with the hand).
    escaped_in_hand: Vec<store::PlayerId>,
    summary: Arc<Mutex<RoomSummary>>,
}

impl Room {
    pub fn new(
        store: Store,
        id: TableId,
        settings: RoomSettings,
        occupants: Vec<Occupant>,
        timing: Timing,
        start: super::Start,
        metrics: Arc<crate::metrics::Metrics>,
    ) -> Room {
        let players = usize::from(settings.ruleset.rules().players());
        let super::Start {
            table,
            game,
            seed,
            log_seq,
        } = start;
        let seats: Vec<SeatCtl> = occupants
            .into_iter()
            .chain(std::iter::repeat(Occupant::Empty))
            .take(players)
            .map(SeatCtl::new)
            .collect();
        let summary = Arc::new(Mutex::new(RoomSummary {
            table: id.clone(),
            ruleset: settings.ruleset.id().to_string(),
            seats: Vec::new(),
            public: settings.public,
            code: settings.code.clone(),
            hands_played: 0,
            closed_to_joins: false,
        }));
        let room = Room {
            id,
            store,
            settings,
            timing,
            seed_sha256: game.as_ref().map(|_| seed_commitment(seed)),
            table,
            game,
            seed,
            announced: seats.iter().map(|s| s.status(false)).collect(),
            prompts: vec![None; seats.len()],
            seats,
            log_seq,
            rng: SeededRng::new(random_u64()),
            next_hand_at: None,
            finished: false,
            escaped_in_hand: Vec::new(),
            spectators: Vec::new(),
            hold: None,
            metrics,
            summary,
        };
        room.publish_summary();
        room
    }

    pub fn summary_cell(&self) -> Arc<Mutex<RoomSummary>> {
        self.summary.clone()
    }

    pub async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        loop {
            self.progress().await;
            let wake = self.next_wake();
            tokio::select! {
                command = rx.recv() => match command {
                    Some(Command::Shutdown { done }) => {
                        let _ = done.send(());
                        break;
                    }
                    Some(c) => self.handle(c).await,
                    None => break,
                },
                () = sleep_until(wake) => self.on_timer().await,
            }
        }
    }

    // ---- commands ----

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join {
                player,
                name,
                reply,
            } => {
                let result = self.join(player, name).await;
                let _ = reply.send(result);
            }
            Command::Connect {
                player,
                last_seq,
                conn,
                tx,
                reply,
            } => {
                let result = self.connect(&player, last_seq, Conn { id: conn, tx });
                let _ = reply.send(result);
            }
            Command::Disconnect { player, conn } => {
                if let Some(i) = self.seat_of(&player)
                    && self.seats[i].conn.as_ref().is_some_and(|c| c.id == conn)
                {
                    self.seats[i].conn = None;
                    self.seats[i].dropped_at = Some(Instant::now());
                    self.refresh_statuses();
                }
            }
            Command::Act {
                player,
                conn,
                id,
                action,
            } => self.act(&player, conn, id, action.into()).await,
            Command::Watch { conn, tx } => {
                let snapshot = ServerMessage::Snapshot {
                    table: self.public_snapshot(),
                };
                let frame = serde_json::to_string(&protocol::Envelope {
                    seq: Some(1),
                    message: snapshot,
                })
                .unwrap_or_default();
                if tx.try_send((Instant::now(), frame.into())).is_ok() {
                    self.spectators.push(Spectator {
                        conn,
                        tx,
                        next_seq: 2,
                    });
                }
            }
            Command::Unwatch { conn } => self.spectators.retain(|s| s.conn != conn),
            Command::Shutdown { .. } => {}
            Command::Leave { player } => {
                if let Some(i) = self.seat_of(&player) {
                    self.seats[i].conn = None;
                    self.escape(i);
                    self.refresh_statuses();
                }
            }
        }
    }

    async fn join(&mut self, player: store::PlayerId, name: String) -> Result<u8, JoinError> {
        if let Some(i) = self.seat_of(&player) {
            return Ok(i as u8);
        }
        if self.finished {
            return Err(JoinError::Closed);
        }
        let Some(i) = self
            .seats
            .iter()
            .position(|s| matches!(s.occupant, Occupant::Empty))
        else {
            return Err(JoinError::Full);
        };
        self.seats[i].occupant = Occupant::Player { id: player, name };
        // Not connected yet: the grace runs from now, as after a dropped connection.
        self.seats[i].dropped_at = Some(Instant::now());
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
        let i = self.seat_of(player).ok_or(ErrorCode::NotSeated)?;
        let seat = &mut self.seats[i];
        if let Some(old) = seat.conn.take() {
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
        seat.conn = Some(conn);
        seat.dropped_at = None;
        seat.escaped = false;
        let missed = last_seq.and_then(|last| seat.since(last));
        match missed {
            Some(frames) => {
                for f in frames {
                    if let Some(c) = &seat.conn {
                        let _ = c.tx.try_send(f);
                    }
                }
            }
            None => {
                tracing::debug!(seat = i, "sending a snapshot");
                let snapshot = self.snapshot(i);
                self.seats[i].push(ServerMessage::Snapshot { table: snapshot });
            }
        }
        self.refresh_statuses();
        Ok(i as u8)
    }

    async fn act(&mut self, player: &store::PlayerId, conn: u64, id: u64, action: Action) {
        let Some(i) = self.seat_of(player) else {
            return;
        };
        if self.seats[i].conn.as_ref().is_none_or(|c| c.id != conn) {
            return;
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
        let message = match outcome {
            Ok(()) => ServerMessage::Ack { id },
            Err((code, message)) => ServerMessage::Error {
                id: Some(id),
                code,
                message,
            },
        };
        self.seats[i].reply(message);
    }

    // ---- play ----

    /// Moves the table on as far as it goes without a player: deals, lets bots act, sends
    /// prompts, ends hands.
    async fn progress(&mut self) {
        for _ in 0..10_000 {
            if self.finished {
                return;
            }
            if self.game.is_none() {
                // The first hand waits for every player to connect (or to run out of time
                // and count as escaped); later hands deal on time and the bot covers absentees.
                let first = self.hand_no() == 0;
                let ready = self.seats.iter().all(|s| match s.occupant {
                    Occupant::Empty => false,
                    Occupant::Bot(_) => true,
                    Occupant::Player { .. } => !first || s.conn.is_some() || s.escaped,
                });
                let due = self.next_hand_at.is_none_or(|t| t <= Instant::now());
                if !(ready && due && self.start_hand().await) {
                    return;
                }
                continue;
            }
            if self.game.as_ref().is_some_and(Game::is_over) {
                if self.hold.is_some() {
                    // The window's events go out first, when it closes.
                    return;
                }
                self.finish_hand().await;
                continue;
            }
            if !self.bot_turn().await {
                self.refresh_prompts();
                return;
            }
        }
    }

    /// One bot decision (for a bot seat, or a player's seat the bot is playing); false when
    /// every remaining decision is a player's.
    async fn bot_turn(&mut self) -> bool {
        let Some(game) = &self.game else { return false };
        let now = Instant::now();
        let holding = self.hold.is_some();
        let owing: Vec<usize> = (0..self.seats.len())
            .filter(|&i| {
                let legal = game.legal_actions(Seat::ALL[i]);
                // While a claim window is held, only claims are answered; the next turn waits.
                !legal.is_empty() && (!holding || legal.iter().all(is_claim))
            })
            .collect();
        for i in owing {
            let seat = Seat::ALL[i];
            if !self.bot_plays(i, now) {
                continue;
            }
            let action = self.bot_choice(i);
            if let Some(action) = action {
                if let Err(e) = self.accept(seat, action, true).await {
                    tracing::error!(error = %e, "a bot's action could not be logged");
                    return false;
                }
                return true;
            }
        }
        false
    }

    fn bot_choice(&mut self, i: usize) -> Option<Action> {
        let game = self.game.as_ref()?;
        let view = game.view(Seat::ALL[i]);
        let level = match &self.seats[i].occupant {
            Occupant::Bot(level) => *level,
            _ => bot::Level::Strong,
        };
        Some(level.policy().decide(&view, &view.legal, &mut self.rng))
    }

    fn bot_plays(&self, i: usize, now: Instant) -> bool {
        let seat = &self.seats[i];
        match seat.occupant {
            Occupant::Bot(_) | Occupant::Empty => true,
            Occupant::Player { .. } => {
                seat.escaped || seat.dropped_at.is_some_and(|t| now >= t + self.grace())
            }
        }
    }

    /// Logs the action, applies it, sends its events. Checked legal by the caller or chosen
    /// from the legal list; nothing changes when the log write fails.
    async fn accept(&mut self, seat: Seat, action: Action, by_bot: bool) -> Result<(), String> {
        let Some(game) = &self.game else {
            return Err("no hand in play".into());
        };
        if !game.legal_actions(seat).contains(&action) {
            return Err(format!("`{action}` is not legal for seat {seat}"));
        }
        let entry = LoggedAction {
            seq: self.log_seq,
            hand_no: self.hand_no(),
            seat: seat.index() as u8,
            action: serde_json::to_value(action).unwrap_or_default(),
            at: UnixMillis::now(),
        };
        self.store
            .append_actions(&self.id, &[entry])
            .await
            .map_err(|e| format!("the action could not be logged: {e}"))?;
        self.log_seq += 1;
        crate::metrics::bump(&self.metrics.actions_total);
        if by_bot && matches!(self.seats[seat.index()].occupant, Occupant::Player { .. }) {
            crate::metrics::bump(&self.metrics.takeover_actions_total);
        }
        let Some(game) = &mut self.game else {
            return Err("no hand in play".into());
        };
        let events = game
            .apply(seat, action)
            .map_err(|e| format!("engine refused a legal action: {e}"))?;
        self.prompts[seat.index()] = None;
        self.distribute(&events);
        Ok(())
    }

    /// Sends events to the seats and spectators allowed to see them. After an event that offers
    /// a tile, the rest are held back until the claim window closes (see [`Room::hold_open`]).
    fn distribute(&mut self, events: &[engine::Event]) {
        for e in events {
            if let Some(hold) = &mut self.hold {
                hold.events.push(e.clone());
                continue;
            }
            self.deliver(e);
            if opens_window(e) {
                self.hold_open();
            }
        }
    }

    /// Starts holding a claim window open, when someone could read its timing: a connected
    /// player or a spectator.
    fn hold_open(&mut self) {
        let ms = self.timing.claim_window_ms;
        let watched = self.seats.iter().any(|s| s.conn.is_some()) || !self.spectators.is_empty();
        if ms == 0 || !watched {
            return;
        }
        self.hold = Some(Hold {
            until: Instant::now() + Duration::from_millis(ms),
            until_ms: UnixMillis::now().plus_ms(ms as i64).0,
            events: Vec::new(),
        });
    }

    /// Closes the held claim window: its events go out, in order.
    fn release(&mut self) {
        if let Some(hold) = self.hold.take() {
            self.distribute(&hold.events);
        }
    }

    fn deliver(&mut self, e: &engine::Event) {
        let players = self.settings.ruleset.rules().players();
        let hand_no = self.hand_no();
        {
            let wire = protocol::wire_event(&e.kind, players);
            let message = ServerMessage::Event {
                hand_no,
                event: wire,
            };
            for (i, seat) in self.seats.iter_mut().enumerate() {
                if e.audience.includes(Seat::ALL[i]) {
                    seat.push(message.clone());
                }
            }
            if e.audience.is_public() {
                self.send_spectators(&message);
            }
        }
    }

    /// Sends a prompt to every player who owes a decision and has none (or an outdated one).
    fn refresh_prompts(&mut self) {
        let Some(game) = &self.game else { return };
        let hand_no = self.hand_no();
        let action_ms = self.settings.action_ms;
        let hold = self.hold.as_ref().map(|h| (h.until, h.until_ms));
        for i in 0..self.seats.len() {
            let legal = game.legal_actions(Seat::ALL[i]).to_vec();
            if legal.is_empty() {
                self.prompts[i] = None;
                continue;
            }
            if self.prompts[i].as_ref().is_some_and(|p| p.legal == legal) {
                continue;
            }
            let mut deadline = Instant::now() + Duration::from_millis(action_ms);
            let mut deadline_ms = UnixMillis::now().plus_ms(action_ms as i64).0;
            if let Some((until, until_ms)) = hold {
                if !legal.iter().all(is_claim) {
                    // Not a claim: asked when the held window closes.
                    self.prompts[i] = None;
                    continue;
                }
                // A claim is made within the window, so the window's length never depends on
                // who could claim.
                deadline = deadline.min(until);
                deadline_ms = deadline_ms.min(until_ms);
            }
            let prompt = Prompt {
                legal,
                deadline,
                deadline_ms,
            };
            let info = prompt_info(hand_no, &prompt);
            self.prompts[i] = Some(prompt);
            self.seats[i].push(ServerMessage::Prompt(info));
        }
    }

    async fn start_hand(&mut self) -> bool {
        let seed = random_u64();
        let hand_no = self.hand_no();
        let entry = LoggedAction {
            seq: self.log_seq,
            hand_no,
            seat: self.table.state().dealer.index() as u8,
            action: serde_json::json!({"type": "deal", "seed": seed.to_string()}),
            at: UnixMillis::now(),
        };
        if let Err(e) = self.store.append_actions(&self.id, &[entry]).await {
            tracing::error!(error = %e, "the deal could not be logged; retrying later");
            self.next_hand_at = Some(Instant::now() + Duration::from_secs(1));
            return false;
        }
        self.log_seq += 1;
        self.seed = seed;
        let commitment = seed_commitment(seed);
        self.seed_sha256 = Some(commitment.clone());
        self.broadcast(ServerMessage::HandStarting {
            hand_no,
            seed_sha256: commitment.clone(),
        });
        let game = self.table.deal(seed);
        let events = game.events().to_vec();
        self.game = Some(game);
        self.prompts = vec![None; self.seats.len()];
        self.distribute(&events);
        true
    }

    async fn finish_hand(&mut self) {
        let Some(game) = self.game.take() else { return };
        let hand_no = self.hand_no();
        let settlement = match self.table.finish(&game) {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(error = %e, "a finished hand could not be settled");
                self.finished = true;
                return;
            }
        };
        let players = self.settings.ruleset.rules().players();
        let wire = protocol::settlement(&settlement, players);
        self.finished = self.table.state().hands_played as u64 >= self.settings.hands;
        let hand = FinishedHand {
            table: self.id.clone(),
            hand_no,
            ruleset: self.settings.ruleset.id().to_string(),
            seed: self.seed,
            dealer: game.dealer().index() as u8,
            ending: ending(&game).into(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| SeatResult {
                    player: s.player().cloned(),
                    delta: settlement.deltas.0[i],
                })
                .collect(),
            fans: serde_json::to_value(&wire).unwrap_or_default(),
            record: serde_json::to_value(engine::record::HandRecord::of(&game)).unwrap_or_default(),
            carried: serde_json::to_value(self.table.state()).unwrap_or_default(),
            table_status: if self.finished {
                TableStatus::Finished
            } else {
                TableStatus::Playing
            },
            escapes: self.escapes(),
            ratings: if self.finished {
                self.rating_changes().await
            } else {
                Vec::new()
            },
            finished: UnixMillis::now(),
        };
        self.store_hand(&hand).await;
        let scores: Vec<i64> = self.table.state().scores.0[..usize::from(players)].to_vec();
        self.broadcast(ServerMessage::HandOver {
            hand_no,
            seed: self.seed.to_string(),
            settlement: wire,
            scores,
        });
        self.prompts = vec![None; self.seats.len()];
        self.seed_sha256 = None;
        self.escaped_in_hand.clear();
        if self.finished {
            self.broadcast(ServerMessage::TableClosed {
                reason: "the match is over".into(),
            });
        } else {
            self.next_hand_at =
                Some(Instant::now() + Duration::from_millis(self.timing.next_hand_ms));
        }
        self.publish_summary();
    }

    /// The penalties of the players who escaped during the hand, as the ruleset sets them.
    fn escapes(&self) -> Vec<store::Escape> {
        let Some(points) = self.settings.ruleset.rules().escape_penalty() else {
            return Vec::new();
        };
        self.escaped_in_hand
            .iter()
            .map(|p| store::Escape {
                player: p.clone(),
                points,
            })
            .collect()
    }

    /// The rating changes of a table that just finished, from its final scores
    /// (`crate::rating`). A rating that cannot be read leaves that table unrated.
    async fn rating_changes(&self) -> Vec<store::RatingChange> {
        let ruleset = self.settings.ruleset.id().to_string();
        let mut placements = Vec::new();
        for (i, seat) in self.seats.iter().enumerate() {
            let rating = match seat.player() {
                Some(p) => match self.store.rating(p, &ruleset).await {
                    Ok((r, _)) => Some(r),
                    Err(e) => {
                        tracing::error!(error = %e, "ratings unavailable; the table is not rated");
                        return Vec::new();
                    }
                },
                None => None,
            };
            placements.push(crate::rating::Placement {
                rating,
                score: self.table.state().scores.0[i],
            });
        }
        let changes = crate::rating::changes(&placements);
        self.seats
            .iter()
            .zip(changes)
            .filter_map(|(s, delta)| {
                s.player().map(|p| store::RatingChange {
                    player: p.clone(),
                    delta,
                })
            })
            .collect()
    }

    /// Stores a finished hand, retrying while the database is unreachable: a result is never
    /// dropped (a retry of a stored hand changes nothing).
    async fn store_hand(&self, hand: &FinishedHand) {
        let mut wait = Duration::from_millis(50);
        for attempt in 1.. {
            match self.store.record_hand(hand).await {
                Ok(_) => {
                    crate::metrics::bump(&self.metrics.hands_total);
                    return;
                }
                Err(e) if e.is_transient() && attempt < 50 => {
                    tracing::warn!(error = %e, attempt, "storing a finished hand failed; retrying");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
                Err(e) => {
                    tracing::error!(error = %e, hand = hand.hand_no, "a finished hand was not stored");
                    crate::metrics::bump(&self.metrics.hand_store_failures_total);
                    return;
                }
            }
        }
    }

    // ---- time ----

    fn grace(&self) -> Duration {
        Duration::from_millis(self.timing.grace_ms)
    }

    fn next_wake(&self) -> Option<Instant> {
        let mut wake: Option<Instant> = self.next_hand_at.filter(|_| self.game.is_none());
        let mut consider = |t: Instant| wake = Some(wake.map_or(t, |w| w.min(t)));
        for p in self.prompts.iter().flatten() {
            consider(p.deadline);
        }
        if let Some(h) = &self.hold {
            consider(h.until);
        }
        let now = Instant::now();
        for s in &self.seats {
            if let (Some(t), false) = (s.dropped_at, s.escaped) {
                for after in [self.timing.grace_ms, self.timing.reconnect_ms] {
                    let at = t + Duration::from_millis(after);
                    if at > now {
                        consider(at);
                    }
                }
            }
        }
        wake
    }

    async fn on_timer(&mut self) {
        let now = Instant::now();
        let reconnect = Duration::from_millis(self.timing.reconnect_ms);
        for i in 0..self.seats.len() {
            let s = &self.seats[i];
            if !s.escaped && s.conn.is_none() && s.dropped_at.is_some_and(|t| now >= t + reconnect)
            {
                self.escape(i);
            }
        }
        self.refresh_statuses();
        let late: Vec<usize> = (0..self.prompts.len())
            .filter(|&i| self.prompts[i].as_ref().is_some_and(|p| p.deadline <= now))
            .collect();
        for i in late {
            // The deadline passed: the bot decides for the seat.
            if let Some(action) = self.bot_choice(i)
                && let Err(e) = self.accept(Seat::ALL[i], action, true).await
            {
                tracing::error!(error = %e, "a timed-out seat's action could not be logged");
            }
        }
        if self.hold.as_ref().is_some_and(|h| h.until <= now) {
            self.release();
        }
    }

    /// A player has escaped: the bot plays the seat from now on; during a hand, the ruleset's
    /// penalty is stored with it.
    fn escape(&mut self, i: usize) {
        self.seats[i].escaped = true;
        if self.game.is_some()
            && let Some(p) = self.seats[i].player().cloned()
            && !self.escaped_in_hand.contains(&p)
        {
            tracing::info!(seat = i, player = %p, "escaped");
            self.escaped_in_hand.push(p);
        }
    }

    // ---- views ----

    fn hand_no(&self) -> u64 {
        u64::from(self.table.state().hands_played)
    }

    fn seat_of(&self, player: &store::PlayerId) -> Option<usize> {
        self.seats.iter().position(|s| s.player() == Some(player))
    }

    fn snapshot(&self, i: usize) -> TableSnapshot {
        let players = usize::from(self.settings.ruleset.rules().players());
        TableSnapshot {
            table: self.id.to_string(),
            ruleset: self.settings.ruleset.id().to_string(),
            seat: Some(i as u8),
            seats: self.seat_infos(),
            scores: self.table.state().scores.0[..players].to_vec(),
            hand_no: self.hand_no(),
            seed_sha256: self.seed_sha256.clone(),
            view: self
                .game
                .as_ref()
                .map(|g| protocol::view(&g.view(Seat::ALL[i]))),
            prompt: self.prompts[i]
                .as_ref()
                .map(|p| prompt_info(self.hand_no(), p)),
        }
    }

    /// What a spectator sees on arrival: the table without anyone's concealed tiles.
    fn public_snapshot(&self) -> TableSnapshot {
        let players = usize::from(self.settings.ruleset.rules().players());
        TableSnapshot {
            table: self.id.to_string(),
            ruleset: self.settings.ruleset.id().to_string(),
            seat: None,
            seats: self.seat_infos(),
            scores: self.table.state().scores.0[..players].to_vec(),
            hand_no: self.hand_no(),
            seed_sha256: self.seed_sha256.clone(),
            view: self
                .game
                .as_ref()
                .map(|g| protocol::public_view(&g.view(Seat::ALL[0]))),
            prompt: None,
        }
    }

    /// A message for every seat's stream and every spectator.
    fn broadcast(&mut self, message: ServerMessage) {
        for seat in &mut self.seats {
            seat.push(message.clone());
        }
        self.send_spectators(&message);
    }

    /// A public message for the spectators, due after the room's spectator delay. A spectator
    /// that cannot keep up is dropped.
    fn send_spectators(&mut self, message: &ServerMessage) {
        if self.spectators.is_empty() {
            return;
        }
        let due = Instant::now() + Duration::from_millis(self.settings.spectator_delay_ms);
        self.spectators.retain_mut(|s| {
            let frame = serde_json::to_string(&protocol::Envelope {
                seq: Some(s.next_seq),
                message: message.clone(),
            })
            .unwrap_or_default();
            s.next_seq += 1;
            s.tx.try_send((due, frame.into())).is_ok()
        });
    }

    fn seat_infos(&self) -> Vec<protocol::SeatInfo> {
        let now = Instant::now();
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let over = s.dropped_at.is_some_and(|t| now >= t + self.grace());
                s.info(i as u8, over)
            })
            .collect()
    }

    /// Tells every seat about seats whose status changed, and updates the lobby's summary.
    fn refresh_statuses(&mut self) {
        let infos = self.seat_infos();
        for (i, info) in infos.iter().enumerate() {
            if self.announced[i] != info.status {
                self.announced[i] = info.status;
                self.broadcast(ServerMessage::SeatChanged(info.clone()));
            }
        }
        self.publish_summary();
    }

    fn publish_summary(&self) {
        let seats = self.seat_infos();
        let full = self
            .seats
            .iter()
            .all(|s| !matches!(s.occupant, Occupant::Empty));
        if let Ok(mut s) = self.summary.lock() {
            s.seats = seats;
            s.hands_played = self.hand_no();
            s.closed_to_joins = full || self.finished;
        }
    }

    async fn persist_seats(&self) {
        let seats: Vec<store::SeatOccupant> =
            self.seats.iter().map(|s| s.occupant.stored()).collect();
        if let Err(e) = self.store.set_table_seats(&self.id, &seats).await {
            tracing::error!(error = %e, "seats could not be stored");
        }
        let full = self
            .seats
            .iter()
            .all(|s| !matches!(s.occupant, Occupant::Empty));
        if full
            && let Err(e) = self
                .store
                .set_table_status(&self.id, TableStatus::Playing)
                .await
        {
            tracing::error!(error = %e, "table status could not be stored");
        }
    }
}

fn prompt_info(hand_no: u64, p: &Prompt) -> PromptInfo {
    PromptInfo {
        hand_no,
        legal: p.legal.iter().map(|&a| a.into()).collect(),
        deadline_ms: p.deadline_ms,
    }
}

fn ending(game: &Game) -> &'static str {
    match game.wins() {
        [] => "drawn",
        [w] if w.from.is_none() => "self_draw",
        [_] => "discard",
        _ => "multi_win",
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

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}
