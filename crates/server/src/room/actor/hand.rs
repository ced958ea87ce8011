//! A hand's life in the room: dealing, bots' and players' decisions through one path
//! (`accept`: logged, then applied), and the finished hand stored with everything it changes.

use std::time::Duration;

use engine::record::HandRecord;
use engine::stored::{Document, LogEntry, StoredHandRecord, StoredTableState};
use engine::{Action, Game, Seat, TableState};
use protocol::ServerMessage;
use serde_json::Value;
use store::{FinishedHand, LoggedAction, SeatResult, TableStatus, UnixMillis};
use tokio::time::Instant;

use super::super::seat::{Occupant, SeatCtl};
use super::super::writer::{self, Written};
use super::phase::{InPlay, Phase, Storing};
use super::window::is_claim;
use super::{Room, random_u64, seed_commitment};

impl Room {
    // ---- play ----

    /// Moves the table on as far as it goes without a player: deals, lets bots act, sends
    /// prompts, ends hands.
    pub(super) async fn progress(&mut self) {
        for _ in 0..10_000 {
            let now = self.now();
            match &self.phase {
                Phase::Closing { .. } | Phase::Storing(_) => return,
                Phase::Waiting { retry_at, .. } => {
                    // The first hand waits for every player to connect (or to run out of time
                    // and give the seat back), or, at a table that deals after the grace
                    // whoever has come, for that time.
                    let graced = self.deal_by.is_some_and(|t| t <= now);
                    let ready = self.seats.iter().all(|s| match s.occupant {
                        Occupant::Empty => false,
                        Occupant::Bot(_) | Occupant::Escaped { .. } => true,
                        Occupant::Player { .. } => graced || s.conn().is_some(),
                    });
                    let due = retry_at.is_none_or(|t| t <= now);
                    if !(ready && due && self.start_hand().await) {
                        return;
                    }
                    continue;
                }
                Phase::Between { deal_at } => {
                    // Later hands deal on time; the bot covers absentees.
                    if *deal_at > now || !self.start_hand().await {
                        return;
                    }
                    continue;
                }
                Phase::Playing(p) if p.game.is_over() => {
                    if p.hold.is_some() {
                        // The window's events go out first, when it closes.
                        return;
                    }
                    self.finish_hand();
                    continue;
                }
                Phase::Playing(_) => {}
            }
            if !self.bot_turn().await {
                self.refresh_prompts();
                return;
            }
        }
    }

    /// One bot decision (for a bot seat, or a player's seat the bot is playing); false when
    /// every remaining decision is a player's.
    pub(super) async fn bot_turn(&mut self) -> bool {
        let Some(game) = self.game() else {
            return false;
        };
        let now = self.now();
        let holding = self.hold().is_some();
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
                    let retry = self.store_failed(&e, "a bot's action");
                    self.retry_at = Some(now + retry);
                    return false;
                }
                return true;
            }
        }
        false
    }

    pub(super) fn bot_choice(&mut self, i: usize) -> Option<Action> {
        let view = self.game()?.view(Seat::ALL[i]);
        let level = match &self.seats[i].occupant {
            Occupant::Bot(level) => *level,
            _ => bot::Level::Strong,
        };
        Some(level.policy().decide(&view, &view.legal, &mut self.rng))
    }

    /// The action taken for seat `i` when its prompt's deadline passes: the bot's choice, except
    /// in the swap phase (开始时换牌), where the seat finishes its swap with what it marked. The
    /// bot marks one tile per decision, so letting it swap would re-prompt the absent player once
    /// per tile, each time with a fresh deadline, and would change a player's dealt tiles beyond
    /// what the player chose.
    pub(super) fn timeout_choice(&mut self, i: usize) -> Option<Action> {
        if self
            .game()?
            .legal_actions(Seat::ALL[i])
            .contains(&Action::SwapDone)
        {
            return Some(Action::SwapDone);
        }
        self.bot_choice(i)
    }

    /// Whether the bot answers seat `i`'s decision now: a bot's (or an empty seat's) at once; a
    /// person's seat only when [`Room::takeover_due`] says so.
    pub(super) fn bot_plays(&self, i: usize, now: Instant) -> bool {
        match self.seats[i].occupant {
            Occupant::Bot(_) | Occupant::Empty => true,
            Occupant::Player { .. } | Occupant::Escaped { .. } => {
                self.takeover_due(i).is_some_and(|at| now >= at)
            }
        }
    }

    /// When the bot answers the decision a person's seat owes (托管): `takeover_ms` after it was
    /// asked, and for a player who may still come back not before their grace ends. The bot
    /// plays at the table's pace, not the machine's: a player who dropped comes back to the
    /// hand they left, a few decisions on, and a table whose people are all away does not race
    /// through its match. None while the seat owes nothing, or is a bot's.
    pub(super) fn takeover_due(&self, i: usize) -> Option<Instant> {
        let seat = &self.seats[i];
        let grace_ends = match seat.occupant {
            Occupant::Escaped { .. } => None,
            Occupant::Player { .. } => Some(seat.away()?.takeover_at),
            Occupant::Bot(_) | Occupant::Empty => return None,
        };
        let prompt = self.prompts[i].as_ref()?;
        // A prompt the hand has moved past (a hand over while its last window is held) is owed
        // to nobody.
        if self.game()?.legal_actions(Seat::ALL[i]) != prompt.legal.as_slice() {
            return None;
        }
        let paced = prompt.sent + Duration::from_millis(self.timing.takeover_ms);
        Some(grace_ends.map_or(paced, |g| g.max(paced)))
    }

    /// Logs the action, applies it, sends its events. Checked legal by the caller or chosen
    /// from the legal list; nothing changes when the log write fails.
    pub(super) async fn accept(
        &mut self,
        seat: Seat,
        action: Action,
        by_bot: bool,
    ) -> Result<(), String> {
        let Some(game) = self.game() else {
            return Err("no hand in play".into());
        };
        if !game.legal_actions(seat).contains(&action) {
            return Err(format!("`{action}` is not legal for seat {seat}"));
        }
        let logged = LogEntry::from(action)
            .write()
            .map_err(|e| format!("the action could not be logged: {e}"))?;
        let entry = LoggedAction {
            seq: self.log_seq,
            hand_no: self.hand_no(),
            seat: seat.index() as u8,
            action: logged,
            at: UnixMillis::now(),
        };
        let started = std::time::Instant::now();
        if let Err(e) = self.store.append_actions(&self.claim, &[entry]).await {
            crate::metrics::bump(&self.metrics.store_failures_total);
            self.check_fenced(&e);
            return Err(format!("the action could not be logged: {e}"));
        }
        self.metrics
            .log_append_seconds
            .record(started.elapsed().as_secs_f64());
        self.log_seq += 1;
        self.store_succeeded();
        crate::metrics::bump(&self.metrics.actions_total);
        if by_bot
            && matches!(
                self.seats[seat.index()].occupant,
                Occupant::Player { .. } | Occupant::Escaped { .. }
            )
        {
            crate::metrics::bump(&self.metrics.takeover_actions_total);
        }
        let Some(game) = self.game_mut() else {
            return Err("no hand in play".into());
        };
        let events = game
            .apply(seat, action)
            .map_err(|e| format!("engine refused a legal action: {e}"))?;
        // The engine's events so far end with the action's.
        let first = game.events().len() - events.len();
        self.charge_bank(seat.index());
        self.distribute(first, &events);
        Ok(())
    }

    /// The room lets go of a hand that ended: the seats' streams keep its events' bodies
    /// for as long as they keep the events.
    fn retire_hand(&mut self, ended: &super::phase::Ended) {
        let Ok(hand) = u32::try_from(ended.hand_no) else {
            return;
        };
        let events = self.view_of(ended.hand_no, ended.game.events());
        for seat in &mut self.seats {
            seat.retire(hand, &events);
        }
    }

    /// Deals the next hand: its seed is logged and committed to before the deal's events go out.
    pub(super) async fn start_hand(&mut self) -> bool {
        let hand_no = self.hand_no();
        let seed = self.settings.deals.seed(hand_no).unwrap_or_else(random_u64);
        let logged = match (LogEntry::Deal { seed }).write() {
            Ok(logged) => logged,
            Err(e) => {
                // Not a store failure that a retry could mend: the table stops.
                tracing::error!(error = %e, "a deal could not be written to the log; the table stops");
                self.phase = Phase::Closing { at: self.now() };
                return false;
            }
        };
        let entry = LoggedAction {
            seq: self.log_seq,
            hand_no,
            seat: self.table.state().dealer.index() as u8,
            action: logged,
            at: UnixMillis::now(),
        };
        if let Err(e) = self.store.append_actions(&self.claim, &[entry]).await {
            crate::metrics::bump(&self.metrics.store_failures_total);
            self.check_fenced(&e);
            let retry = self.now() + self.store_failed(&e.to_string(), "the deal");
            match &mut self.phase {
                Phase::Waiting { retry_at, .. } => *retry_at = Some(retry),
                phase => *phase = Phase::Between { deal_at: retry },
            }
            return false;
        }
        self.log_seq += 1;
        self.store_succeeded();
        self.seed = seed;
        let commitment = seed_commitment(seed);
        self.seed_sha256 = Some(commitment.clone());
        self.broadcast(ServerMessage::HandStarting {
            hand_no,
            seed_sha256: commitment.clone(),
        });
        let game = self.table.deal(seed);
        let events = game.events().to_vec();
        self.phase = Phase::Playing(Box::new(InPlay { game, hold: None }));
        self.publish_summary();
        self.prompts = vec![None; self.seats.len()];
        self.banks = vec![self.settings.clock.bank_ms; self.seats.len()];
        self.distribute(0, &events);
        true
    }

    /// The hand is over: settles it and gives its result to the writer. The room announces it,
    /// and deals again, once the writer says it is durable (`hand_written`).
    pub(super) fn finish_hand(&mut self) {
        let now = self.now();
        let in_play = match std::mem::replace(&mut self.phase, Phase::Closing { at: now }) {
            Phase::Playing(in_play) => in_play,
            other => {
                self.phase = other;
                return;
            }
        };
        let game = in_play.game;
        let hand_no = self.hand_no();
        let players = self.settings.ruleset.rules().flow().players;
        let before = (
            self.table.state().scores.0[..usize::from(players)].to_vec(),
            self.table.state().draw_bonus,
        );
        let settlement = match self.table.finish(&game) {
            Ok(s) => s,
            Err(e) => {
                // The phase stays Closing: the table stops.
                tracing::error!(error = %e, "a finished hand could not be settled; the table stops");
                return;
            }
        };
        if self.escaped_during(hand_no) {
            // The carried 荒番 counter belongs to the people seated (Shanghai): it starts again
            // from the next hand, stored with this one.
            self.table.player_left();
        }
        let wire = protocol::settlement(&settlement, players);
        let (fans, record, carried) = match hand_documents(&wire, &game, self.table.state()) {
            Ok(documents) => documents,
            Err(e) => {
                // The phase stays Closing: the table stops, as for a hand it cannot settle.
                tracing::error!(error = %e, "a finished hand could not be written; the table stops");
                return;
            }
        };
        let last = self.table.state().hands_played as u64 >= self.settings.hands;
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
                    player: credited(s, hand_no).cloned(),
                    delta: settlement.deltas.0[i],
                })
                .collect(),
            fans,
            record,
            carried,
            table_status: if last {
                TableStatus::Finished
            } else {
                TableStatus::Playing
            },
            escapes: self.escapes(hand_no),
            ratings: Vec::new(),
            finished: UnixMillis::now(),
        };
        let job = writer::Job {
            claim: self.claim.clone(),
            hand,
            rated: last.then(|| self.rated_seats()),
        };
        let written = writer::spawn(
            self.store.clone(),
            self.metrics.clone(),
            self.timing.time.clone(),
            job,
        );
        let scores: Vec<i64> = self.table.state().scores.0[..usize::from(players)].to_vec();
        self.phase = Phase::Storing(Box::new(Storing {
            written,
            hand_over: ServerMessage::HandOver {
                hand_no,
                seed: self.settings.deals.open().then(|| self.seed.to_string()),
                settlement: wire,
                scores,
                draw_bonus: self.table.state().draw_bonus,
            },
            last,
            ended: super::phase::Ended {
                game,
                hand_no,
                scores: before.0,
                draw_bonus: before.1,
            },
            carry_reset: false,
        }));
        self.prompts = vec![None; self.seats.len()];
        self.publish_summary();
    }

    /// The writer answered: the result goes out, and the table moves on to its next hand or
    /// to its end.
    pub(super) async fn hand_written(&mut self, written: Written) {
        let now = self.now();
        let storing = match std::mem::replace(&mut self.phase, Phase::Closing { at: now }) {
            Phase::Storing(storing) => storing,
            other => {
                self.phase = other;
                return;
            }
        };
        self.retire_hand(&storing.ended);
        if matches!(written, Written::Lost) {
            // Another node holds the table: it finishes the hand from the log and stores it.
            self.check_fenced(&store::StoreError::Fenced {
                table: self.claim.table.to_string(),
                epoch: self.claim.epoch.0,
            });
            return;
        }
        if !matches!(written, Written::Durable) {
            tracing::warn!(
                ?written,
                "the finished hand was not stored; the table goes on"
            );
        }
        if storing.carry_reset {
            self.persist_carried().await;
        }
        let mut hand_over = storing.hand_over;
        if let ServerMessage::HandOver { draw_bonus, .. } = &mut hand_over {
            // A player who left meanwhile reset it.
            *draw_bonus = self.table.state().draw_bonus;
        }
        self.broadcast(hand_over);
        self.seed_sha256 = None;
        if storing.last {
            self.close_streams("the match is over", super::super::stream::KEEP_FOR);
        } else {
            self.phase = Phase::Between {
                deal_at: self.now() + Duration::from_millis(self.timing.next_hand_ms),
            };
        }
        self.publish_summary();
    }

    /// Whether a player escaped while hand `hand_no` was in play (an escape between hands
    /// reset the carry-over at once).
    fn escaped_during(&self, hand_no: u64) -> bool {
        self.seats.iter().any(|s| {
            s.charged()
                .is_some_and(|(_, c)| c.hand == hand_no && c.in_play)
        })
    }

    /// The ruleset's escape penalty (逃跑罚分). An escape is recorded even where the rules set
    /// none (0 points), so organisers see who left.
    pub(super) fn escape_points(&self) -> i64 {
        self.settings
            .ruleset
            .rules()
            .flow()
            .escape_penalty
            .unwrap_or(0)
    }

    /// The players charged with escaping hand `hand_no`, each with the ruleset's penalty: offered
    /// again with the hand, in case their record did not go through when they escaped.
    pub(super) fn escapes(&self, hand_no: u64) -> Vec<store::Escape> {
        let points = self.escape_points();
        self.seats
            .iter()
            .filter_map(|s| s.escaped_from(hand_no))
            .map(|p| store::Escape {
                player: p.clone(),
                points,
            })
            .collect()
    }

    /// A write of the action log failed (`what`): how long to wait before trying again, logged
    /// with the same backoff.
    pub(super) fn store_failed(&mut self, error: &str, what: &str) -> Duration {
        let retry = self.store_backoff.failed();
        if retry.log {
            tracing::warn!(
                error,
                attempt = retry.attempt,
                retry_in_ms = retry.wait.as_millis() as u64,
                "{what} could not be logged; the table waits, and retries"
            );
        }
        retry.wait
    }

    /// A write of the action log went through: a run of failures, if any, has ended.
    fn store_succeeded(&mut self) {
        let failures = self.store_backoff.succeeded();
        if failures > 0 {
            tracing::info!(failures, "the action log takes writes again");
        }
    }

    /// Each seat's part in rating the match that just finished.
    fn rated_seats(&self) -> Vec<writer::RatedSeat> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, seat)| writer::RatedSeat {
                player: seat.sat_here().cloned(),
                escaped: matches!(seat.occupant, Occupant::Escaped { .. }),
                score: self.table.state().scores.0[i],
            })
            .collect()
    }
}

/// Whose result a seat's share of hand `hand_no` is: the seated player's, and an escaper's for
/// the hand its escape is charged to (it cannot leave a losing hand to dodge it, nor leave
/// between hands to keep a lead), but not for later hands, which the bot plays for the table
/// alone.
fn credited(seat: &SeatCtl, hand_no: u64) -> Option<&store::PlayerId> {
    match &seat.occupant {
        Occupant::Player { id, .. } => Some(id),
        Occupant::Escaped { .. } => seat.escaped_from(hand_no),
        _ => None,
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

/// The JSON a finished hand is stored as: its settlement as `hand_over` shows it, its record,
/// and the table's carried state after it.
fn hand_documents(
    wire: &protocol::WireSettlement,
    game: &Game,
    carried: &TableState,
) -> Result<(Value, Value, Value), String> {
    let fans = serde_json::to_value(wire).map_err(|e| format!("settlement: {e}"))?;
    let record = StoredHandRecord::from(&HandRecord::of(game))
        .write()
        .map_err(|e| e.to_string())?;
    let carried = StoredTableState::from(carried)
        .write()
        .map_err(|e| e.to_string())?;
    Ok((fans, record, carried))
}
