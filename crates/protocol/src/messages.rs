//! The messages themselves: what a client sends, what the server sends back.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::wire::{WireAction, WireEvent, WireSettlement, WireView};

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message on a connection: who this is, and for a reconnection the last `seq`
    /// received, so that only what was missed is sent (or a snapshot if that is too old).
    Hello {
        /// The session token from sign-in.
        token: String,
        /// The last `seq` this client received on this table's stream.
        #[serde(default)]
        last_seq: Option<u64>,
    },
    /// An action for the client's seat; `id` comes back in the `ack` or `error`.
    Act {
        /// The client's id for this request.
        id: u64,
        /// The action: one of the latest prompt's legal actions.
        action: WireAction,
    },
    /// A keep-alive; answered by `pong`.
    Ping {
        /// Echoed back.
        id: u64,
    },
    /// Leave the table. During a hand this is an escape: the bot finishes the hand and the
    /// ruleset's penalty is recorded.
    Leave {},
}

/// Who sits in a seat and how they are connected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatInfo {
    /// Seat index.
    pub seat: u8,
    /// Display name ("bot (strong)" for a bot seat).
    pub name: String,
    /// Connection status.
    pub status: SeatStatus,
}

/// How a seat is being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatStatus {
    /// Nobody sits there yet.
    Empty,
    /// A bot's seat.
    Bot,
    /// A player, connected.
    Connected,
    /// A player whose connection dropped: the bot takes over after a short grace.
    Disconnected,
    /// A player's seat played by the bot (托管) until they reconnect.
    Takeover,
    /// A player who escaped: the bot plays the seat for good.
    Escaped,
}

/// A decision the seat owes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PromptInfo {
    /// The hand it belongs to.
    pub hand_no: u64,
    /// Every legal action; the server accepts exactly these.
    pub legal: Vec<WireAction>,
    /// When the server acts for the seat (Unix milliseconds), the seat's time bank included.
    pub deadline_ms: i64,
    /// How much of the time to `deadline_ms` is the seat's time bank, in milliseconds: a client
    /// shows `deadline_ms - bank_ms` as the decision's own time running out, then the bank.
    /// Time taken beyond the decision's own comes out of the bank, which refills each hand.
    /// No bank lengthens a claim window: there it counts only what fits in the window.
    pub bank_ms: u64,
}

/// Everything a (re)connecting client needs to draw the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TableSnapshot {
    /// The table's id.
    pub table: String,
    /// Ruleset preset id.
    pub ruleset: String,
    /// The client's seat (absent for a spectator).
    pub seat: Option<u8>,
    /// Every seat.
    pub seats: Vec<SeatInfo>,
    /// Running scores by seat.
    pub scores: Vec<i64>,
    /// The current hand's number (hands played before it).
    pub hand_no: u64,
    /// SHA-256 (hex) of the current hand's seed, committed before the deal.
    pub seed_sha256: Option<String>,
    /// The seat's view of the current hand (absent between hands); a spectator's view holds
    /// no concealed tiles.
    pub view: Option<WireView>,
    /// The decision the seat owes, if any.
    pub prompt: Option<PromptInfo>,
    /// The table's 荒番 counter (Shanghai) the current hand is played with, or the next one
    /// will be between hands: while it is 1 or more, a won hand's shares double. 0 elsewhere.
    #[serde(default)]
    pub draw_bonus: u32,
    /// The room's join code (for a seated player; absent for a spectator).
    #[serde(default)]
    pub code: Option<String>,
    /// Hands in the match: the table closes after that many.
    #[serde(default)]
    pub hands: u64,
    /// The room's time for every decision, in seconds.
    #[serde(default)]
    pub action_seconds: u64,
    /// The room's time bank per seat and hand, in seconds.
    #[serde(default)]
    pub time_bank_seconds: u64,
    /// How long, in milliseconds, every discard's (and robbable kong's) claim window stays open
    /// at this table, whoever could claim: a claim prompt's deadline is the window's end.
    #[serde(default)]
    pub claim_window_ms: u64,
}

/// Why a request failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame is not JSON, or not a message of this protocol.
    BadMessage,
    /// The frame is larger than the protocol allows.
    TooLarge,
    /// The first message was not `hello`, or came twice.
    NotAuthenticated,
    /// The token is unknown or expired.
    BadToken,
    /// The player has no seat at this table.
    NotSeated,
    /// The player escaped from this table (left mid-match, or did not come back in time): the
    /// bot plays the seat until the match ends, and the player may watch but not sit again.
    Escaped,
    /// The seat owes no decision now.
    NotYourTurn,
    /// The action is not among the seat's legal actions.
    IllegalAction,
    /// The request id was used before on this connection.
    DuplicateId,
    /// Too many messages: slow down.
    RateLimited,
    /// The table is closed.
    TableClosed,
    /// The table is moving to another server (its server stopped or failed): the request
    /// changed nothing; a snapshot follows on this connection once the table plays again.
    Moving,
    /// The table admits no spectators: a duplicate tournament table (复式) while its round
    /// plays, since a table ahead would show the others their walls.
    NotWatchable,
    /// The server failed; the request changed nothing.
    Internal,
}

/// A message from the server, with its place in the table's stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Envelope {
    /// Position in this player's stream of this table (1, 2, 3 …); absent on replies
    /// (`ack`, `pong`, `error`), which are not replayed on reconnection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// The message.
    #[serde(flatten)]
    pub message: ServerMessage,
}

/// What the server says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The whole table as this seat sees it: after `hello`, and instead of missed messages
    /// that are no longer kept.
    Snapshot {
        /// The snapshot (boxed: it is far larger than every other message).
        table: Box<TableSnapshot>,
    },
    /// A hand is about to be dealt; its seed is committed.
    HandStarting {
        /// The hand's number.
        hand_no: u64,
        /// SHA-256 (hex) of the seed's decimal digits.
        seed_sha256: String,
    },
    /// Something happened in the hand.
    Event {
        /// The hand.
        hand_no: u64,
        /// What happened.
        event: WireEvent,
    },
    /// The seat owes a decision.
    Prompt(PromptInfo),
    /// The hand is over: its seed is revealed so anyone can replay it.
    HandOver {
        /// The hand.
        hand_no: u64,
        /// The seed, in decimal (it does not fit a JSON number exactly). Absent at a table of
        /// a duplicate tournament (复式), whose group's other tables are dealt the same seed:
        /// it is revealed once the round is over, in the tournament's hands.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<String>,
        /// The settlement.
        settlement: WireSettlement,
        /// Running scores after it.
        scores: Vec<i64>,
        /// The table's 荒番 counter after it, which the next hand is played with (Shanghai; 0
        /// elsewhere): the snapshot's `draw_bonus` between hands.
        #[serde(default)]
        draw_bonus: u32,
    },
    /// A seat's occupant or connection changed.
    SeatChanged(SeatInfo),
    /// The table closed; no more hands.
    TableClosed {
        /// Why.
        reason: String,
    },
    /// A request was accepted.
    Ack {
        /// Its id.
        id: u64,
    },
    /// The answer to `ping`.
    Pong {
        /// Its id.
        id: u64,
    },
    /// A request failed and changed nothing.
    Error {
        /// The request's id, when it had one.
        id: Option<u64>,
        /// What kind of failure.
        code: ErrorCode,
        /// For people.
        message: String,
    },
}
