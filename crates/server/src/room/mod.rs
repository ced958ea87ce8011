//! Rooms: one actor task per table owns the table, its current hand and its seats; everything
//! else talks to it through [`RoomHandle`]. No lock guards game state.

mod actor;
pub(crate) mod backoff;
mod seat;
mod stream;
mod writer;

use std::sync::{Arc, Mutex};

use engine::ruleset::Ruleset;
use engine::stored::{Document, StoredOptions};
use protocol::{ErrorCode, SeatInfo, WireAction};
use store::{PlayerId, Store, TableId};
use tokio::sync::{mpsc, oneshot};

pub use seat::Occupant;

/// What a room is set up with.
#[derive(Clone, Debug)]
pub struct RoomSettings {
    /// The ruleset with its validated options.
    pub ruleset: Ruleset,
    /// How long a player has to decide before the bot acts for them.
    pub clock: Clock,
    /// Hands in the match.
    pub hands: u64,
    /// Listed in the lobby.
    pub public: bool,
    /// The code that joins it.
    pub code: String,
    /// How far spectators are behind play, in milliseconds.
    pub spectator_delay_ms: u64,
    /// Where its hands' seeds come from.
    pub deals: Deals,
    /// When its first hand is dealt.
    pub first_deal: FirstDeal,
}

/// When a room deals its first hand. Its JSON is part of the stored room settings: a renamed
/// variant is a new version of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstDeal {
    /// Once every seated player has connected; a room nobody completes closes unplayed after
    /// the room wait (`--room-wait-ms`).
    #[default]
    AllConnected,
    /// Once every seated player has connected, or the seated players' grace has passed,
    /// whichever comes first: then the bot plays an absent player's seat until they come (and
    /// one who never comes has escaped). A tournament's table is played whoever shows up.
    AfterGrace,
}

/// Where a room's seeds come from. Its JSON is part of the stored room settings: a renamed
/// variant or field is a new version of them.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Deals {
    /// A fresh random seed for every hand (and the table's first dealer).
    #[default]
    Random,
    /// A table of a duplicate tournament group (复式): the table's start and every hand are
    /// dealt from seeds derived from the group's key (`tournament::duplicate`), the same at
    /// every table of the group. Seeds are committed as always but not revealed in
    /// `hand_over` (the round's export reveals them), and the table admits no spectators: a
    /// table ahead in its hands would show the others their walls.
    Duplicate {
        /// The group's key, 64 hex digits.
        key: String,
    },
}

impl Deals {
    /// The seed of hand `hand_no` (0 for the first); `None` asks for a random one.
    pub fn seed(&self, hand_no: u64) -> Option<u64> {
        match self {
            Deals::Random => None,
            Deals::Duplicate { key } => {
                let key = hex_key(key)?;
                let hand = u32::try_from(hand_no.saturating_add(1)).unwrap_or(u32::MAX);
                Some(tournament::duplicate::deal_seed(&key, hand))
            }
        }
    }

    /// The seed a new table is set up from (its first dealer): hand "0" of the key.
    pub fn table_seed(&self) -> u64 {
        match self {
            Deals::Random => random_u64(),
            Deals::Duplicate { key } => hex_key(key)
                .map(|k| tournament::duplicate::deal_seed(&k, 0))
                .unwrap_or_else(random_u64),
        }
    }

    /// Whether `hand_over` reveals the seed and spectators may watch.
    pub fn open(&self) -> bool {
        matches!(self, Deals::Random)
    }
}

/// 64 hex digits as 32 bytes.
pub fn hex_key(hex: &str) -> Option<[u8; 32]> {
    if hex.len() != 64 {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(key)
}

/// A room's thinking time: a fixed time for every decision, and a bank per seat and hand that
/// a decision draws on once its own time is spent. The bank lets a player think hard about
/// the few decisions that matter without slowing every turn; it refills when a hand starts.
/// Its JSON is part of the stored room and tournament settings: a renamed field is a new
/// version of both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Clock {
    /// Milliseconds for each decision.
    pub action_ms: u64,
    /// Milliseconds of bank per seat and hand.
    #[serde(default)]
    pub bank_ms: u64,
    /// Milliseconds every discard's (and robbable kong's) claim window stays open while anyone
    /// plays or watches, whoever could claim: a person must read the prompt and click, and the
    /// length never depends on who could claim, so timing tells nobody anything.
    #[serde(default = "default_claim_ms")]
    pub claim_ms: u64,
}

fn default_claim_ms() -> u64 {
    Clock::DEFAULT.claim_ms
}

impl Clock {
    /// What a room gets unless its creator says otherwise. The claim window: reading a pung or
    /// chow prompt and clicking takes a person 1.5 to 3 s, and a phone's round trip adds to it;
    /// 4 s covers that, at a cost of 4 s after every discard at a table someone watches.
    pub const DEFAULT: Clock = Clock {
        action_ms: 20_000,
        bank_ms: 20_000,
        claim_ms: 4_000,
    };
}

/// A room's match length when its creator does not say: the ruleset's full match where it
/// defines one (Guobiao: 16 hands), else 8.
pub fn default_hands(ruleset: &Ruleset) -> u64 {
    ruleset.rules().flow().match_hands.map_or(8, u64::from)
}

/// Timings shared by every room.
#[derive(Clone, Debug)]
pub struct Timing {
    /// After a dropped connection, before the bot plays the seat.
    pub grace_ms: u64,
    /// After a restore, before the bot plays the seat of a player who has not reconnected.
    pub restore_grace_ms: u64,
    /// How long the bot takes over each decision of a seat it plays for a player (托管).
    pub takeover_ms: u64,
    /// How long a room waits for its first deal before it closes.
    pub room_wait_ms: u64,
    /// After a dropped connection, before the player counts as escaped.
    pub reconnect_ms: u64,
    /// Between hands.
    pub next_hand_ms: u64,
    /// The claim window of rooms whose creator does not set one, and of quick-match rooms.
    pub claim_window_ms: u64,
    /// Where the time all of these are measured in comes from.
    pub time: crate::time::TimeSource,
    /// Where every seat's stream is written down with its snapshots (`--transcripts`), if
    /// anywhere.
    pub transcripts: Option<crate::transcript::Transcripts>,
}

/// What the lobby shows of a room.
#[derive(Clone, Debug)]
pub struct RoomSummary {
    /// The table.
    pub table: TableId,
    /// Ruleset preset id.
    pub ruleset: String,
    /// Seats.
    pub seats: Vec<SeatInfo>,
    /// Listed publicly.
    pub public: bool,
    /// Its join code.
    pub code: String,
    /// Hands played.
    pub hands_played: u64,
    /// Every seat is taken or the match is over.
    pub closed_to_joins: bool,
    /// The room's thinking time and claim window.
    pub clock: Clock,
    /// Where its match is.
    pub phase: RoomPhase,
}

/// Where a room's match is, as `/metrics` counts rooms (`actor::phase::Phase` without what
/// each phase holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomPhase {
    /// No hand dealt yet.
    Waiting,
    /// A hand in play.
    Playing,
    /// A finished hand being written.
    Storing,
    /// Between hands.
    Between,
    /// The match is over; the room closes soon.
    Closing,
}

impl RoomPhase {
    /// Every phase, in the order of their discriminants.
    pub const ALL: [RoomPhase; 5] = [
        RoomPhase::Waiting,
        RoomPhase::Playing,
        RoomPhase::Storing,
        RoomPhase::Between,
        RoomPhase::Closing,
    ];

    /// Its name as a metric label.
    pub fn as_str(self) -> &'static str {
        match self {
            RoomPhase::Waiting => "waiting",
            RoomPhase::Playing => "playing",
            RoomPhase::Storing => "storing",
            RoomPhase::Between => "between_hands",
            RoomPhase::Closing => "closing",
        }
    }

    /// How many of `phases` are in each phase, every phase listed.
    pub fn count(phases: impl Iterator<Item = RoomPhase>) -> Vec<(&'static str, usize)> {
        let mut counts = [0usize; 5];
        for p in phases {
            counts[p as usize] += 1;
        }
        RoomPhase::ALL
            .iter()
            .zip(counts)
            .map(|(p, n)| (p.as_str(), n))
            .collect()
    }
}

/// A request to a room, as it waits in the room's queue: boxed. The queue keeps blocks of 32
/// slots, each the size of what it holds, for as long as the table lives: slots of a pointer
/// make a block of under 300 bytes a table, where requests by value (32 bytes, their large
/// payloads boxed) kept a kilobyte. The large requests were a box each already; the small
/// ones (a disconnection, a departure: a few a socket) now cost one too.
type Queued = Box<Command>;

/// A request to a room.
pub enum Command {
    /// Take a seat (or find the one already held).
    Join(Joining),
    /// A connection for a seated player.
    Connect(Connecting),
    /// A connection closed.
    Disconnect {
        /// Who.
        player: PlayerId,
        /// Which connection (a newer one may have replaced it).
        conn: u64,
    },
    /// An action from a connection; the answer (`ack` or `error`) goes back on it.
    Act(Acting),
    /// A spectator's connection: public events only, each due at its time.
    Watch {
        /// The connection's id.
        conn: u64,
        /// Where its frames go, each with the time it may be shown.
        tx: mpsc::Sender<(tokio::time::Instant, Arc<str>)>,
    },
    /// A spectator's connection closed.
    Unwatch {
        /// Which.
        conn: u64,
    },
    /// The player leaves the table (an escape when a hand is in play).
    Leave {
        /// Who.
        player: PlayerId,
    },
    /// This node found the table claimed by another (its lease lapsed while it was paused or
    /// cut off): the room stops at once, writing nothing, and its sockets follow the table.
    Lost,
    /// The server is stopping: the room finishes what it is doing (every write included) and
    /// stops; the hand resumes from the log at the next start.
    Shutdown {
        /// Answered when the room has stopped.
        done: oneshot::Sender<()>,
    },
}

/// A request for a seat.
pub struct Joining {
    /// Who.
    pub player: PlayerId,
    /// Their display name.
    pub name: String,
    /// The seat taken.
    pub reply: oneshot::Sender<Result<u8, JoinError>>,
}

/// An action from a connection.
pub struct Acting {
    /// Who.
    pub player: PlayerId,
    /// From which connection.
    pub conn: u64,
    /// The client's request id.
    pub id: u64,
    /// The action.
    pub action: WireAction,
    /// When its frame was read off the socket (for `mahjong_action_broadcast_seconds`).
    pub received: std::time::Instant,
}

/// A connection for a seated player; `last_seq` resumes a stream.
pub struct Connecting {
    /// Who.
    pub player: PlayerId,
    /// The last `seq` the client saw, when resuming.
    pub last_seq: Option<u64>,
    /// The connection's id.
    pub conn: u64,
    /// Where its frames go.
    pub tx: mpsc::Sender<Arc<str>>,
    /// The player's seat, or why not.
    pub reply: oneshot::Sender<Result<u8, ErrorCode>>,
}

/// Why a seat could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// Every seat is taken.
    #[error("the table is full")]
    Full,
    /// The match is over.
    #[error("the table is closed")]
    Closed,
    /// The player escaped from this table: the bot plays the seat to the end of the match.
    #[error("you escaped from this table; the bot plays your seat until the match ends")]
    Escaped,
}

/// A room's address.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    tx: mpsc::Sender<Queued>,
    summary: Arc<Mutex<RoomSummary>>,
    claim: store::Claim,
    lost: Arc<std::sync::atomic::AtomicBool>,
}

impl RoomHandle {
    /// Whether the room has stopped (its match is over, or the server is stopping).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// The claim the room plays its table under.
    pub fn claim(&self) -> &store::Claim {
        &self.claim
    }

    /// Whether the room stopped because another node holds its table now.
    pub fn lost(&self) -> bool {
        self.lost.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Waits until the room has stopped.
    pub async fn closed(&self) {
        self.tx.closed().await;
    }

    /// Sends a command; false when the room has stopped. The command is boxed and offered
    /// before the returned future is first polled, so the future holds only the box's fate:
    /// a socket's task holds the size of what it awaits for as long as it lives. The wait for
    /// space in a full queue is boxed too, as it is rare (the channel's send future is about
    /// 200 bytes).
    pub fn send(&self, command: Command) -> impl Future<Output = bool> + Send + '_ {
        let offered = self.tx.try_send(Box::new(command));
        async move {
            match offered {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Closed(_)) => false,
                Err(mpsc::error::TrySendError::Full(queued)) => {
                    Box::pin(self.tx.send(queued)).await.is_ok()
                }
            }
        }
    }

    /// The room as the lobby shows it.
    pub fn summary(&self) -> RoomSummary {
        match self.summary.lock() {
            Ok(s) => s.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }
}

/// Where a room starts: its table, the hand in play (rebuilt from the log after a restart), and
/// the log's next sequence number.
pub struct Start {
    /// The table and what it carries.
    pub table: engine::Table,
    /// The hand in play, if any.
    pub game: Option<engine::Game>,
    /// That hand's seed.
    pub seed: u64,
    /// The next action-log sequence number.
    pub log_seq: u64,
    /// The `seq` each seat's stream starts from: 1 for a new table. A table rebuilt after a
    /// restart starts from the restore's Unix time in milliseconds, above every `seq` the
    /// previous run sent (a seat gets far fewer than one message a millisecond), so a stream's
    /// numbers never go back without the server keeping them or trusting a client's.
    pub first_seq: u64,
    /// How long the seated players have to connect before the bot plays their seats: the
    /// room's grace for a new table, the restore grace for a rebuilt one.
    pub seated_grace_ms: u64,
}

/// What the store keeps of a room's settings (in the table's `options`), so a restarted server
/// can rebuild it: a versioned document of the server's own ([`Document`]: written with
/// `version` 1, read when it says 1 or nothing, refused otherwise). Its parts are the server's
/// types ([`Clock`], [`Deals`], [`FirstDeal`]), whose JSON is therefore part of this layout, and
/// the engine's stored options, never an engine type whose JSON could change.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct StoredRoom {
    /// The ruleset's options as given.
    pub options: StoredOptions,
    /// Thinking time (flattened: `action_ms`, `bank_ms`).
    #[serde(flatten)]
    pub clock: Clock,
    /// Hands in the match.
    pub hands: u64,
    /// Listed in the lobby.
    pub public: bool,
    /// Join code.
    pub code: String,
    /// How far spectators are behind play, in milliseconds.
    #[serde(default)]
    pub spectator_delay_ms: u64,
    /// Where its seeds come from (random unless a duplicate tournament table).
    #[serde(default)]
    pub deals: Deals,
    /// When its first hand is dealt.
    #[serde(default)]
    pub first_deal: FirstDeal,
}

impl Document for StoredRoom {
    const KIND: &'static str = "room settings";
    const VERSION: u32 = 1;
}

impl StoredRoom {
    /// The settings a room plays by, with its validated ruleset.
    pub fn settings(&self, ruleset: Ruleset) -> RoomSettings {
        RoomSettings {
            ruleset,
            clock: self.clock,
            hands: self.hands,
            public: self.public,
            code: self.code.clone(),
            spectator_delay_ms: self.spectator_delay_ms,
            deals: self.deals.clone(),
            first_deal: self.first_deal,
        }
    }
}

pub use actor::{random_u64, seed_commitment};

/// Starts a room for a stored table whose seats are `occupants`.
pub fn spawn(
    store: Store,
    claim: store::Claim,
    settings: RoomSettings,
    occupants: Vec<Occupant>,
    timing: Timing,
    start: Start,
    metrics: Arc<crate::metrics::Metrics>,
) -> RoomHandle {
    let (tx, rx) = mpsc::channel(256);
    let table_id = claim.table.clone();
    let room = actor::Room::new(
        store,
        claim.clone(),
        settings,
        occupants,
        timing,
        start,
        metrics,
    );
    let summary = room.summary_cell();
    let lost = room.lost_cell();
    let span = tracing::info_span!("room", table = %table_id);
    tokio::spawn(tracing::Instrument::instrument(room.run(rx), span));
    RoomHandle {
        tx,
        summary,
        claim,
        lost,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table keeps its queue's blocks of 32 slots, each the size of a queued request: a
    /// pointer.
    #[test]
    fn a_queued_request_is_a_pointer() {
        assert_eq!(
            std::mem::size_of::<Queued>(),
            std::mem::size_of::<usize>(),
            "a queued request is {} bytes",
            std::mem::size_of::<Queued>()
        );
    }
}
