//! The records of tournaments the store keeps and returns: plain data, no competition logic.

use serde::{Deserialize, Serialize};

use crate::StoreError;
use crate::model::{NewTable, PlayerId, TableId, TableStatus, UnixMillis};

crate::model::uuid_id!(
    /// A tournament's id.
    TournamentId
);

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Players register; no round has started.
    Registering,
    /// At least one round has started and the last has not ended.
    Playing,
    /// The last round ended.
    Finished,
}

impl TournamentStatus {
    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Registering => "registering",
            TournamentStatus::Playing => "playing",
            TournamentStatus::Finished => "finished",
        }
    }

    pub(crate) fn parse(s: &str) -> Result<TournamentStatus, StoreError> {
        Ok(match s {
            "registering" => TournamentStatus::Registering,
            "playing" => TournamentStatus::Playing,
            "finished" => TournamentStatus::Finished,
            other => return Err(StoreError::Corrupt(format!("tournament status `{other}`"))),
        })
    }
}

/// A tournament to create.
#[derive(Clone, Debug, PartialEq)]
pub struct NewTournament {
    /// Its name.
    pub name: String,
    /// Who runs it.
    pub organiser: PlayerId,
    /// Ruleset preset id.
    pub ruleset: String,
    /// The server's settings document (versioned by the server).
    pub config: serde_json::Value,
    /// The code players register with.
    pub code: String,
    /// The secret keying duplicate deals: 64 hex digits.
    pub secret: String,
    /// Rounds to play.
    pub rounds: u32,
}

/// A stored tournament (its secret apart: [`crate::Store::tournament_secret`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRecord {
    /// Id.
    pub id: TournamentId,
    /// Name.
    pub name: String,
    /// Who runs it.
    pub organiser: PlayerId,
    /// Ruleset preset id.
    pub ruleset: String,
    /// The server's settings document.
    pub config: serde_json::Value,
    /// Registration code.
    pub code: String,
    /// Where it is.
    pub status: TournamentStatus,
    /// Rounds to play.
    pub rounds: u32,
    /// Rounds started so far.
    pub rounds_started: u32,
    /// Created.
    pub created: UnixMillis,
    /// Last changed.
    pub updated: UnixMillis,
}

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRecord {
    /// Registration number: 0 for the first to register.
    pub entrant: u32,
    /// The player.
    pub player: PlayerId,
    /// Their display name.
    pub display_name: String,
    /// When they registered.
    pub registered: UnixMillis,
}

/// A table of a round to start: the game table to create and its seating.
#[derive(Clone, Debug, PartialEq)]
pub struct NewRoundTable {
    /// The game table (its options carry the room's settings).
    pub table: NewTable,
    /// The duplicate group it belongs to.
    pub group: u32,
    /// Entrant numbers by seat; `None` for a bot.
    pub seats: Vec<Option<u32>>,
}

/// A table of a started round.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundTableRecord {
    /// The round, from 1.
    pub round: u32,
    /// The table's number within its round, from 0.
    pub table_no: u32,
    /// Its duplicate group.
    pub group: u32,
    /// The game table.
    pub table: TableId,
    /// Entrant numbers by seat; `None` for a bot.
    pub seats: Vec<Option<u32>>,
    /// The game table's status.
    pub status: TableStatus,
    /// Hands it has stored.
    pub hands_played: u64,
}

/// A round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRecord {
    /// Its number, from 1.
    pub round: u32,
    /// When it started.
    pub started: UnixMillis,
    /// When it ended (its last table closed).
    pub ended: Option<UnixMillis>,
}

/// A finished hand of a tournament table, with where it was played.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentHand {
    /// The round.
    pub round: u32,
    /// The table's number in the round.
    pub table_no: u32,
    /// Its duplicate group.
    pub group: u32,
    /// The game table.
    pub table: TableId,
    /// The hand's number at the table (0 for the first).
    pub hand_no: u64,
    /// Its seed.
    pub seed: u64,
    /// The dealer's seat.
    pub dealer: u8,
    /// How it ended.
    pub ending: String,
    /// Each seat's delta, in seat order.
    pub deltas: Vec<i64>,
    /// When it finished.
    pub finished: UnixMillis,
}

/// An escape penalised at a tournament table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentEscape {
    /// The game table.
    pub table: TableId,
    /// Who.
    pub player: PlayerId,
    /// The hand it was penalised in.
    pub hand_no: u64,
    /// The ruleset's penalty points.
    pub points: i64,
}
