//! Where a room's match is: one state at a time, each holding only what means something in it
//! (the hand and its held claim window while a hand is played, the write in flight while its
//! result is stored, the deal's time between hands, the closing time once the match is over).

use engine::Game;
use protocol::ServerMessage;
use tokio::sync::oneshot;
use tokio::time::Instant;

use super::super::writer::Written;
use super::Room;
use super::window::Hold;

/// The match's phase.
pub(super) enum Phase {
    /// No hand dealt yet: the room waits for its players until `until`, then closes unplayed.
    /// `retry_at` is set when the first deal could not be logged.
    Waiting {
        until: Instant,
        retry_at: Option<Instant>,
    },
    /// A hand is being played.
    Playing(Box<InPlay>),
    /// The hand is over and its result is being written: nothing is dealt, and its result is
    /// not announced, until it is durable; commands and timers go on meanwhile.
    Storing(Box<Storing>),
    /// Between hands: the next is dealt at `deal_at` (or retried then, when its deal could not
    /// be logged).
    Between { deal_at: Instant },
    /// The match is over, or the room closed unplayed: it lets go of the table at `at`.
    Closing { at: Instant },
}

/// A hand in play.
pub(super) struct InPlay {
    pub(super) game: Game,
    /// The claim window being held open, if any.
    pub(super) hold: Option<Hold>,
}

/// A finished hand whose write is in flight.
pub(super) struct Storing {
    /// The writer's answer (`writer::spawn`).
    pub(super) written: oneshot::Receiver<Written>,
    /// What every seat is told once the hand is durable.
    pub(super) hand_over: ServerMessage,
    /// Whether it was the match's last hand.
    pub(super) last: bool,
    /// The hand as it ended, and the table as the streams know it until `hand_over`: what a
    /// snapshot shows meanwhile.
    pub(super) ended: Ended,
    /// A player left while the write was in flight: the carry-over they reset is stored once
    /// the hand (which stores the carry-over as it was) is durable, not before, so that the
    /// older write cannot land last.
    pub(super) carry_reset: bool,
}

/// A finished hand whose result is not announced yet, as the streams know it.
pub(super) struct Ended {
    pub(super) game: Game,
    pub(super) hand_no: u64,
    /// The scores and the 荒番 counter before the hand's result.
    pub(super) scores: Vec<i64>,
    pub(super) draw_bonus: u32,
}

impl Phase {
    /// The phase without what it holds, as the lobby and `/metrics` see it.
    pub(super) fn kind(&self) -> super::super::RoomPhase {
        use super::super::RoomPhase as K;
        match self {
            Phase::Waiting { .. } => K::Waiting,
            Phase::Playing(_) => K::Playing,
            Phase::Storing(_) => K::Storing,
            Phase::Between { .. } => K::Between,
            Phase::Closing { .. } => K::Closing,
        }
    }

    /// The phase of a room built from a stored table: the hand in play if there is one, the
    /// next deal due now if hands were played, else waiting for players until `until`.
    pub(super) fn start(
        game: Option<Game>,
        hands_played: u64,
        now: Instant,
        until: Instant,
    ) -> Phase {
        match game {
            Some(game) => Phase::Playing(Box::new(InPlay { game, hold: None })),
            None if hands_played > 0 => Phase::Between { deal_at: now },
            None => Phase::Waiting {
                until,
                retry_at: None,
            },
        }
    }

    /// A waiting room that deals at `deal_by` whoever has come wakes then.
    pub(super) fn dealt_by(self, deal_by: Option<Instant>) -> Phase {
        match (self, deal_by) {
            (Phase::Waiting { until, .. }, Some(at)) => Phase::Waiting {
                until,
                retry_at: Some(at),
            },
            (phase, _) => phase,
        }
    }
}

/// Waits for the writer's answer while a hand is being stored; for ever otherwise (a branch of
/// the room's `select!` that is off).
pub(super) async fn written(phase: &mut Phase) -> Written {
    match phase {
        Phase::Storing(s) => (&mut s.written).await.unwrap_or(Written::WriterGone),
        _ => std::future::pending().await,
    }
}

/// The writer's answer if a hand is being stored (waiting for it), None otherwise.
pub(super) async fn written_or_none(phase: &mut Phase) -> Option<Written> {
    match phase {
        Phase::Storing(_) => Some(written(phase).await),
        _ => None,
    }
}

impl Room {
    /// The hand in play, if any.
    pub(super) fn game(&self) -> Option<&Game> {
        match &self.phase {
            Phase::Playing(p) => Some(&p.game),
            _ => None,
        }
    }

    /// The hand in play, to change it (through `accept` only).
    pub(super) fn game_mut(&mut self) -> Option<&mut Game> {
        match &mut self.phase {
            Phase::Playing(p) => Some(&mut p.game),
            _ => None,
        }
    }

    /// The claim window held open, if any.
    pub(super) fn hold(&self) -> Option<&Hold> {
        match &self.phase {
            Phase::Playing(p) => p.hold.as_ref(),
            _ => None,
        }
    }

    /// Whether the match's first hand has been dealt.
    pub(super) fn dealt(&self) -> bool {
        !matches!(self.phase, Phase::Waiting { .. })
    }

    /// Whether the match is over (the room closes soon).
    pub(super) fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Closing { .. })
    }
}
