//! One seat of a room: who sits there, their connection, and the stream of messages sent to
//! them (kept for a while so a reconnecting client gets only what it missed).

use std::sync::Arc;
use std::time::Duration;

use protocol::{Body, PromptInfo, SeatInfo, SeatStatus, ServerMessage};
use store::PlayerId;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::stream::{HandEvents, Message, Stream};
use crate::time::TimeSource;

/// Who sits in a seat.
#[derive(Clone, Debug)]
pub enum Occupant {
    /// Nobody yet.
    Empty,
    /// A player.
    Player {
        /// Who.
        id: PlayerId,
        /// Display name.
        name: String,
    },
    /// A bot.
    Bot(bot::Level),
    /// A player who escaped (left mid-match, or never came back within the reconnection
    /// window): the bot plays the seat for the rest of the match, the player may not take it
    /// back, and hands dealt after the escape are not the player's results.
    Escaped {
        /// Who.
        id: PlayerId,
        /// Display name.
        name: String,
        /// The hand the escape is charged to, if known (seats stored before escapes were
        /// charged say nothing: an escape from an earlier hand).
        charged: Option<Charged>,
    },
}

/// The hand an escape is charged to (`../shared/rules/README.md`, "Escapes, in every family"):
/// the one in play when the player escaped, or the next one when they escaped between hands.
/// That hand is the escaper's, played by the bot on their account, with the ruleset's penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charged {
    /// The hand's number at its table.
    pub hand: u64,
    /// Whether it was in play when the player escaped: the carry-over an escape resets
    /// (Shanghai's 荒番) is then reset when it ends; between hands it was reset at once.
    pub in_play: bool,
}

impl Occupant {
    /// The occupant a stored seat stands for. The store keeps a player's id alone: `name` is
    /// the display name the caller looked up for it (unused for a bot's or an empty seat).
    ///
    /// # Errors
    /// [`bot::UnknownLevel`] for a bot level this build does not have.
    pub fn from_stored(
        seat: &store::SeatOccupant,
        name: String,
    ) -> Result<Occupant, bot::UnknownLevel> {
        Ok(match seat {
            store::SeatOccupant::Empty => Occupant::Empty,
            store::SeatOccupant::Bot { level } => Occupant::Bot(level.parse()?),
            store::SeatOccupant::Player { player } => Occupant::Player {
                id: player.clone(),
                name,
            },
            store::SeatOccupant::Escaped {
                player,
                hand,
                in_play,
            } => Occupant::Escaped {
                id: player.clone(),
                name,
                charged: hand.map(|hand| Charged {
                    hand,
                    in_play: *in_play,
                }),
            },
        })
    }

    /// As the store keeps it.
    pub fn stored(&self) -> store::SeatOccupant {
        match self {
            Occupant::Empty => store::SeatOccupant::Empty,
            Occupant::Player { id, .. } => store::SeatOccupant::Player { player: id.clone() },
            Occupant::Bot(level) => store::SeatOccupant::Bot {
                level: level.to_string(),
            },
            Occupant::Escaped { id, charged, .. } => store::SeatOccupant::Escaped {
                player: id.clone(),
                hand: charged.map(|c| c.hand),
                in_play: charged.is_some_and(|c| c.in_play),
            },
        }
    }
}

/// A seated player without a connection: since when (the reconnection window runs from then),
/// and from when the bot plays the seat (托管).
#[derive(Clone, Copy, Debug)]
pub struct Away {
    /// When the connection dropped (or the seat was taken, or the table restored).
    pub since: Instant,
    /// When the grace ends.
    pub takeover_at: Instant,
}

/// Where a seat's person is: one state, so a seat cannot be both connected and away.
#[derive(Clone, Debug)]
pub enum Presence {
    /// Nobody is expected on a connection: an empty seat, a bot's, an escaped player's, or a
    /// closed room's.
    Absent,
    /// The seated player is connected.
    Connected(Conn),
    /// The seated player is not connected: within the grace, then played by the bot (托管)
    /// until they come back or the reconnection window ends (an escape).
    Away(Away),
}

/// A live connection's outgoing queue.
#[derive(Clone, Debug)]
pub struct Conn {
    /// Distinguishes a connection from the one it replaced.
    pub id: u64,
    /// Serialized frames to send.
    pub tx: mpsc::Sender<Arc<str>>,
}

/// One seat.
#[derive(Debug)]
pub struct SeatCtl {
    pub occupant: Occupant,
    /// The seated player's connection or absence (`Absent` for every other occupant).
    presence: Presence,
    /// A snapshot asked for while a claim window was held, owed when it closes; nothing of the
    /// stream is sent to the seat meanwhile, as the snapshot shows it.
    pub snapshot_due: bool,
    /// The messages sent to the seat, numbered, the recent ones kept for resumption.
    stream: Stream,
    /// The room's time, which `away` and the stream are in.
    time: TimeSource,
    /// How long a dropped player has before the bot plays the seat.
    grace: Duration,
}

impl SeatCtl {
    /// A seat whose stream numbers its messages from `first_seq`, whose player (if any) has
    /// `first_grace` to connect before the bot plays the seat, and `grace` after any later drop.
    pub fn new(
        occupant: Occupant,
        time: TimeSource,
        first_seq: u64,
        grace: Duration,
        first_grace: Duration,
    ) -> SeatCtl {
        let mut seat = SeatCtl {
            occupant,
            presence: Presence::Absent,
            snapshot_due: false,
            stream: Stream::new(first_seq, time.now()),
            time,
            grace,
        };
        if seat.player().is_some() {
            // A player starts away: the grace runs until they connect.
            seat.set_away(first_grace);
        }
        seat
    }

    fn set_away(&mut self, grace: Duration) {
        let since = self.time.now();
        self.presence = Presence::Away(Away {
            since,
            takeover_at: since + grace,
        });
    }

    /// A player takes the seat, not connected yet: the grace runs from now.
    pub fn seat_player(&mut self, id: PlayerId, name: String) {
        self.occupant = Occupant::Player { id, name };
        self.set_away(self.grace);
    }

    /// The player's connection is gone: the grace and the reconnection window run from now.
    pub fn lose_connection(&mut self) {
        if self.player().is_some() {
            self.set_away(self.grace);
        } else {
            self.presence = Presence::Absent;
        }
    }

    /// The player is back on `conn`; returns the connection it replaces, if one was open.
    pub fn reconnect(&mut self, conn: Conn) -> Option<Conn> {
        match std::mem::replace(&mut self.presence, Presence::Connected(conn)) {
            Presence::Connected(old) => Some(old),
            Presence::Away(_) | Presence::Absent => None,
        }
    }

    /// Lets go of the connection without starting a grace: the player left, or the room closes.
    pub fn hang_up(&mut self) {
        self.presence = Presence::Absent;
    }

    /// The open connection, if the player is connected.
    pub fn conn(&self) -> Option<&Conn> {
        match &self.presence {
            Presence::Connected(c) => Some(c),
            _ => None,
        }
    }

    /// The seated player's absence, if they are away.
    pub fn away(&self) -> Option<Away> {
        match self.presence {
            Presence::Away(a) if self.player().is_some() => Some(a),
            _ => None,
        }
    }

    /// Whether the bot plays a seated player's seat now: they are away and their grace is over.
    pub fn in_takeover(&self, now: Instant) -> bool {
        self.away().is_some_and(|a| now >= a.takeover_at)
    }

    /// Whether the player has been away longer than the reconnection window, `window` (never
    /// before the bot has played for them: a restore's grace may be the longer).
    pub fn escape_due(&self, now: Instant, window: Duration) -> bool {
        self.away()
            .is_some_and(|a| now >= (a.since + window).max(a.takeover_at))
    }

    /// The player seated, if any (not one who escaped).
    pub fn player(&self) -> Option<&PlayerId> {
        match &self.occupant {
            Occupant::Player { id, .. } => Some(id),
            _ => None,
        }
    }

    /// The player who escaped from this seat and the hand the escape is charged to, if known.
    pub fn charged(&self) -> Option<(&PlayerId, Charged)> {
        match &self.occupant {
            Occupant::Escaped {
                id,
                charged: Some(c),
                ..
            } => Some((id, *c)),
            _ => None,
        }
    }

    /// The escaper charged with hand `hand`, if this seat's player escaped from it.
    pub fn escaped_from(&self, hand: u64) -> Option<&PlayerId> {
        self.charged()
            .and_then(|(id, c)| (c.hand == hand).then_some(id))
    }

    /// The player who sat here, seated or escaped.
    pub fn sat_here(&self) -> Option<&PlayerId> {
        match &self.occupant {
            Occupant::Player { id, .. } | Occupant::Escaped { id, .. } => Some(id),
            _ => None,
        }
    }

    /// Empties the seat (a player who never came gives it back before the first deal).
    pub fn unseat(&mut self) {
        self.occupant = Occupant::Empty;
        self.presence = Presence::Absent;
        self.snapshot_due = false;
        self.stream.clear();
    }

    /// Turns a seated player into one who escaped, charged with `charged`; the connection
    /// goes.
    pub fn escape(&mut self, charged: Charged) {
        if let Occupant::Player { id, name } = &self.occupant {
            self.occupant = Occupant::Escaped {
                id: id.clone(),
                name: name.clone(),
                charged: Some(charged),
            };
            self.presence = Presence::Absent;
            self.snapshot_due = false;
            self.stream.clear();
        }
    }

    /// How the seat is played at `now`.
    pub fn status(&self, now: Instant) -> SeatStatus {
        match &self.occupant {
            Occupant::Empty => SeatStatus::Empty,
            Occupant::Bot(_) => SeatStatus::Bot,
            Occupant::Escaped { .. } => SeatStatus::Escaped,
            Occupant::Player { .. } if self.conn().is_some() => SeatStatus::Connected,
            Occupant::Player { .. } if self.in_takeover(now) => SeatStatus::Takeover,
            Occupant::Player { .. } => SeatStatus::Disconnected,
        }
    }

    pub fn info(&self, seat: u8, now: Instant) -> SeatInfo {
        let name = match &self.occupant {
            Occupant::Empty => String::new(),
            Occupant::Player { name, .. } | Occupant::Escaped { name, .. } => name.clone(),
            Occupant::Bot(level) => format!("bot ({level})"),
        };
        SeatInfo {
            seat,
            name,
            status: self.status(now),
        }
    }

    /// Adds a message to the seat's stream and sends it if connected. A connection that cannot
    /// keep up is dropped; its client resumes from its last `seq`.
    pub fn push(&mut self, message: ServerMessage) -> bool {
        if !self.listens() {
            return true;
        }
        match Body::of(&message) {
            Ok(body) => self.push_body(&body),
            Err(e) => {
                tracing::error!(error = %e, "a message could not be serialized");
                true
            }
        }
    }

    /// As [`SeatCtl::push`], for a message already serialized for several recipients. Nothing
    /// goes out while a snapshot is owed: the snapshot, when it comes, shows all of it, and a
    /// client's first message after a `hello` is its snapshot (a `seat_changed` or a prompt
    /// ahead of it would jump `seq` on a message that is not one).
    pub fn push_body(&mut self, body: &Body) -> bool {
        self.push_message(body, Message::Body(Box::new(body.clone())))
    }

    /// Adds a prompt to the stream and sends it; the stream keeps the prompt, not its JSON.
    pub fn push_prompt(&mut self, info: PromptInfo) -> bool {
        if !self.listens() {
            return true;
        }
        match Body::of(&ServerMessage::Prompt(info.clone())) {
            Ok(body) => self.push_message(&body, Message::Prompt(Box::new(info))),
            Err(e) => {
                tracing::error!(error = %e, "a prompt could not be serialized");
                true
            }
        }
    }

    /// As [`SeatCtl::push_body`], for event `index` of hand `hand`, whose body is `body`: the
    /// stream keeps its place among the hand's events, not the body.
    pub fn push_event(&mut self, hand: u32, index: u32, body: &Body) -> bool {
        self.push_message(body, Message::Event { hand, index })
    }

    fn push_message(&mut self, body: &Body, kept: Message) -> bool {
        if !self.listens() || self.snapshot_due {
            return true;
        }
        let seq = self.stream.push(kept, self.time.now());
        self.send(body.frame(Some(seq)))
    }

    /// The frames of the stream after `seq` still kept, each with its `seq` (for transcripts,
    /// which take them between two things the room does).
    pub fn frames_after(&self, seq: u64, events: &dyn HandEvents) -> Vec<(u64, Arc<str>)> {
        self.stream.frames_after(seq, events)
    }

    /// Keeps hand `hand`'s events as their bodies, before the room lets go of the hand.
    pub fn retire(&mut self, hand: u32, events: &dyn HandEvents) {
        self.stream.retire(hand, events);
    }

    /// Whether the seat has a stream: players do, bots and empty seats do not.
    pub fn listens(&self) -> bool {
        matches!(self.occupant, Occupant::Player { .. })
    }

    /// Sends a reply that is not part of the stream.
    pub fn reply(&mut self, message: ServerMessage) -> bool {
        match Body::of(&message) {
            Ok(body) => self.send(body.frame(None)),
            Err(_) => true,
        }
    }

    fn send(&mut self, frame: Arc<str>) -> bool {
        let Presence::Connected(conn) = &self.presence else {
            return true;
        };
        if conn.tx.try_send(frame).is_err() {
            self.lose_connection();
            return false;
        }
        true
    }

    /// The kept frames after `last_seq`, if the stream still holds all of them; `None` (a
    /// snapshot is owed) when it does not (see [`Stream::since`]).
    pub fn since(&self, last_seq: u64, events: &dyn HandEvents) -> Option<Vec<Arc<str>>> {
        self.stream.since(last_seq, events)
    }
}
