//! Events out to the seats, and the claim window held open after every discard and every kong
//! that may be robbed, so that its length never depends on who could claim.

use std::time::Duration;

use engine::{Action, Seat};
use protocol::{Body, PromptInfo, ServerMessage};
use tokio::time::Instant;

use super::super::seat::SeatCtl;
use super::super::stream::HandEvents;
use super::phase::Phase;
use super::{Prompt, Room};

/// A claim window held open: until when, and the events held back until then (each with
/// its place among the hand's events).
pub(super) struct Hold {
    pub(super) until: Instant,
    pub(super) until_ms: i64,
    pub(super) events: Vec<(usize, engine::Event)>,
}

/// Whether an action answers a claim window (a discard or a kong that may be robbed).
pub(super) fn is_claim(a: &Action) -> bool {
    matches!(
        a,
        Action::Win | Action::Pung | Action::ExposedKong | Action::Chow { .. } | Action::Pass
    )
}

/// Whether an event offers a tile to the other seats, opening a claim window: a discard, or a
/// kong that may be robbed. The engine announces every such kong whether or not anyone could
/// rob it, and the window is held either way, so neither the event nor the wait tells anyone
/// what the other hands hold.
fn opens_window(e: &engine::Event) -> bool {
    matches!(
        e.kind,
        engine::EventKind::Discarded { .. } | engine::EventKind::KongOffered { .. }
    )
}

impl Room {
    /// Sends events to the seats and spectators allowed to see them. After an event that offers
    /// a tile, the rest are held back until the claim window closes (see [`Room::hold_open`]).
    /// `events` are the hand's from number `first` (from 0) on.
    pub(super) fn distribute(&mut self, first: usize, events: &[engine::Event]) {
        for (index, e) in (first..).zip(events) {
            self.distribute_one(index, e);
        }
    }

    /// Event number `index` of the hand: held back while a claim window is held, else sent.
    fn distribute_one(&mut self, index: usize, e: &engine::Event) {
        if let Phase::Playing(p) = &mut self.phase
            && let Some(hold) = &mut p.hold
        {
            hold.events.push((index, e.clone()));
            return;
        }
        self.deliver(index, e);
        if opens_window(e) {
            self.hold_open();
        }
    }

    /// Starts holding a claim window open, when someone could read its timing: a connected
    /// player or a spectator.
    pub(super) fn hold_open(&mut self) {
        let ms = self.settings.clock.claim_ms;
        let watched = self.seats.iter().any(|s| s.conn().is_some()) || !self.spectators.is_empty();
        if ms == 0 || !watched {
            return;
        }
        let hold = Hold {
            until: self.now() + Duration::from_millis(ms),
            until_ms: self.timing.time.unix_ms().plus_ms(ms as i64).0,
            events: Vec::new(),
        };
        if let Phase::Playing(p) = &mut self.phase {
            p.hold = Some(hold);
        }
    }

    /// Closes the held claim window: its events go out, in order, then the snapshots asked for
    /// meanwhile.
    pub(super) fn release(&mut self) {
        let held = match &mut self.phase {
            Phase::Playing(p) => p.hold.take(),
            _ => None,
        };
        if let Some(hold) = held {
            for (index, e) in &hold.events {
                self.distribute_one(*index, e);
            }
        }
        if self.hold().is_none() {
            self.send_due_snapshots();
        }
    }

    /// Sends event number `index` of the hand to the seats and spectators allowed to see it.
    /// A seat's stream keeps its place among the hand's events, not its body.
    fn deliver(&mut self, index: usize, e: &engine::Event) {
        let players = self.settings.ruleset.rules().flow().players;
        let hand_no = self.hand_no();
        let message = event_message(hand_no, e, players);
        let place = u32::try_from(hand_no).ok().zip(u32::try_from(index).ok());
        let to = |i: usize, s: &SeatCtl| s.listens() && e.audience.includes(Seat::ALL[i]);
        self.send(&message, place, to, e.audience.is_public());
    }

    /// Sends a prompt to every player who owes a decision and has none (or an outdated one).
    pub(super) fn refresh_prompts(&mut self) {
        let hand_no = self.hand_no();
        let action_ms = self.settings.clock.action_ms;
        let hold = self.hold().map(|h| (h.until, h.until_ms));
        for i in 0..self.seats.len() {
            let Some(game) = self.game() else { return };
            let legal = game.legal_actions(Seat::ALL[i]).to_vec();
            if self.prompts[i].as_ref().is_some_and(|p| p.legal == legal) {
                continue;
            }
            // An outdated prompt ends here; the time it ran counts against the bank.
            self.charge_bank(i);
            if legal.is_empty() {
                continue;
            }
            let sent = self.now();
            let bank_ms = self.banks[i];
            let mut deadline = sent + Duration::from_millis(action_ms + bank_ms);
            let mut deadline_ms = self
                .timing
                .time
                .unix_ms()
                .plus_ms((action_ms + bank_ms) as i64)
                .0;
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
            let held = deadline.saturating_duration_since(sent).as_millis() as u64;
            let prompt = Prompt {
                legal,
                sent,
                deadline,
                deadline_ms,
                bank_ms: bank_ms.min(held.saturating_sub(action_ms)),
            };
            let info = prompt_info(hand_no, &prompt);
            self.prompts[i] = Some(prompt);
            self.seats[i].push_prompt(info);
        }
    }
}

impl Room {
    /// Ends seat `i`'s prompt, drawing on its bank for the time it took beyond the decision's
    /// own (a timeout spends whatever of the bank the deadline held).
    pub(super) fn charge_bank(&mut self, i: usize) {
        let Some(p) = self.prompts[i].take() else {
            return;
        };
        let now = self.now().min(p.deadline);
        let used = now.saturating_duration_since(p.sent).as_millis() as u64;
        let over = used.saturating_sub(self.settings.clock.action_ms);
        self.banks[i] = self.banks[i].saturating_sub(over.min(p.bank_ms));
    }
}

/// The message of event `e` of hand `hand_no`.
pub(super) fn event_message(hand_no: u64, e: &engine::Event, players: u8) -> ServerMessage {
    ServerMessage::Event {
        hand_no,
        event: protocol::wire_event(&e.kind, players),
    }
}

/// The hand whose events the seats' streams keep by their place (see `room::stream`): the
/// one in play, or the one whose result is being stored.
pub(super) struct HandInView<'a> {
    pub(super) hand_no: u64,
    pub(super) events: &'a [engine::Event],
    pub(super) players: u8,
}

impl HandEvents for HandInView<'_> {
    fn body(&self, hand: u32, index: u32) -> Option<Body> {
        if u64::from(hand) != self.hand_no {
            return None;
        }
        let e = self.events.get(usize::try_from(index).ok()?)?;
        Body::of(&event_message(self.hand_no, e, self.players)).ok()
    }
}

pub(super) fn prompt_info(hand_no: u64, p: &Prompt) -> PromptInfo {
    PromptInfo {
        hand_no,
        legal: p.legal.iter().map(|&a| a.into()).collect(),
        deadline_ms: p.deadline_ms,
        bank_ms: p.bank_ms,
    }
}
