//! One seat of a room: who sits there, their connection, and the stream of messages sent to
//! them (kept for a while so a reconnecting client gets only what it missed).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use protocol::{Body, SeatInfo, SeatStatus, ServerMessage};
use store::PlayerId;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::time::TimeSource;

/// Messages kept per seat for resumption at most; older ones are replaced by a snapshot.
const KEPT: usize = 1024;
/// How long a message is kept for resumption. A stream resumes a connection that blinked (a
/// phone changing networks comes back within seconds; the bot takes the seat after 3); a client away longer gets a snapshot,
/// which says the same. Kept by count alone, a busy table's seats each held up to 1,024
/// frames (~150 KiB) for as long as the table lived.
pub const KEEP_FOR: Duration = Duration::from_secs(20);

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
    },
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
            store::SeatOccupant::Escaped { player } => Occupant::Escaped {
                id: player.clone(),
                name,
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
            Occupant::Escaped { id, .. } => store::SeatOccupant::Escaped { player: id.clone() },
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
    next_seq: u64,
    /// The stream's recent messages: when sent, and the body. The body, not the frame: a
    /// broadcast's body is one allocation shared by every seat that keeps it, and a resuming
    /// client's frames are made again from it. Their sequence numbers are the last
    /// `kept.len()` before `next_seq` (every message of the stream is kept, and the oldest go
    /// first), so they are not stored: a fifth of each entry, on every seat of every table.
    kept: VecDeque<(Instant, Body)>,
    /// The room's time, which `away` and `kept` are in.
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
            next_seq: first_seq,
            kept: VecDeque::new(),
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
        self.kept.clear();
    }

    /// Turns a seated player into one who escaped; the connection goes.
    pub fn escape(&mut self) {
        if let Occupant::Player { id, name } = &self.occupant {
            self.occupant = Occupant::Escaped {
                id: id.clone(),
                name: name.clone(),
            };
            self.presence = Presence::Absent;
            self.snapshot_due = false;
            self.kept.clear();
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
        if !self.listens() || self.snapshot_due {
            return true;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        let frame = body.frame(Some(seq));
        let now = self.time.now();
        self.kept.push_back((now, body.clone()));
        while self.kept.len() > KEPT
            || self
                .kept
                .front()
                .is_some_and(|(at, _)| now.saturating_duration_since(*at) > KEEP_FOR)
        {
            self.kept.pop_front();
        }
        self.send(frame)
    }

    /// The frames of the stream after `seq` still kept, each with its `seq` (for transcripts,
    /// which take them between two things the room does).
    pub fn frames_after(&self, seq: u64) -> Vec<(u64, Arc<str>)> {
        self.kept_in_order()
            .filter(|(s, _)| *s > seq)
            .map(|(s, body)| (s, body.frame(Some(s))))
            .collect()
    }

    /// The kept messages with their sequence numbers, oldest first.
    fn kept_in_order(&self) -> impl Iterator<Item = (u64, &Body)> {
        let first = self.next_seq - self.kept.len() as u64;
        (first..).zip(self.kept.iter().map(|(_, body)| body))
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

    /// The kept messages after `last_seq`, if the stream still holds all of them; `None` (a
    /// snapshot is owed) when it does not, or when `last_seq` is one this stream never sent (a
    /// client of a run before a restart, or a wrong one). `seq` is the server's: a client's
    /// number never moves the counter.
    pub fn since(&self, last_seq: u64) -> Option<Vec<Arc<str>>> {
        if last_seq >= self.next_seq {
            return None;
        }
        if last_seq + 1 == self.next_seq {
            return Some(Vec::new());
        }
        let (first, _) = self.kept_in_order().next()?;
        if first > last_seq + 1 {
            return None;
        }
        Some(
            self.kept_in_order()
                .filter(|(s, _)| *s > last_seq)
                .map(|(s, body)| body.frame(Some(s)))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pong(id: u64) -> Body {
        Body::of(&ServerMessage::Pong { id }).expect("a pong serializes")
    }

    /// A resuming client gets what it missed while the stream still holds it, and a snapshot
    /// (`None`) once the frames it missed are older than the stream keeps.
    #[tokio::test]
    async fn frames_are_kept_for_a_while_only() {
        let clock = crate::time::ManualTime::new();
        let player = Occupant::Player {
            id: PlayerId::new(),
            name: "A".into(),
        };
        let mut seat = SeatCtl::new(player, clock.source(), 1, Duration::ZERO, Duration::ZERO);
        for id in 1..=3 {
            assert!(seat.push_body(&pong(id)));
        }
        assert_eq!(seat.since(1).map(|f| f.len()), Some(2));
        assert_eq!(seat.since(3).map(|f| f.len()), Some(0));
        clock.advance(KEEP_FOR + Duration::from_secs(1));
        assert!(seat.push_body(&pong(4)));
        assert_eq!(seat.kept.len(), 1, "old frames are dropped");
        assert!(
            seat.since(1).is_none(),
            "a client too far behind gets a snapshot"
        );
        let missed = seat.since(3).expect("the last frame is kept");
        assert_eq!(missed.len(), 1);
        assert!(missed[0].contains("\"seq\":4"), "{}", missed[0]);
        // A client ahead of the stream gets a snapshot; its number does not move the counter.
        assert!(seat.since(1_000).is_none());
        assert!(seat.push_body(&pong(5)));
        assert_eq!(
            seat.since(4).map(|f| f.len()),
            Some(1),
            "the stream goes on at 5"
        );
    }
}
