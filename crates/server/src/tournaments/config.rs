//! A tournament's settings as the store keeps them: a versioned document of the server's own
//! (`version` 1), never an internal type, so a later server reads what an earlier one wrote.

use engine::stored::StoredOptions;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::room::Clock;

/// The settings document's version this server writes.
pub const CONFIG_VERSION: u32 = 1;

/// How later rounds are paired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PairingKind {
    /// As few repeat meetings as the rounds allow (round 1 at random).
    #[default]
    FewestRepeats,
    /// Swiss (瑞士制): from round 2 by standing, neighbours swapped to avoid repeat meetings.
    Swiss,
}

/// How a table's result becomes competition points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScoringKind {
    /// The sum of raw scores.
    Raw,
    /// Points by place at each table, first place first (one per seat), ties sharing the
    /// places they take; raw score breaks ties in the standings.
    Places {
        /// Points for first, second … place.
        points: Vec<i64>,
    },
}

impl ScoringKind {
    /// The competition's scoring.
    pub fn scoring(&self) -> tournament::scoring::Scoring {
        match self {
            ScoringKind::Raw => tournament::scoring::Scoring::Raw,
            ScoringKind::Places { points } => tournament::scoring::Scoring::Places(points.clone()),
        }
    }
}

/// How players come in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Registration {
    /// Anyone with the tournament's code registers themselves.
    #[default]
    Code,
    /// Only the organiser registers players (by their ids).
    List,
}

/// Rounds started by the clock instead of the organiser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Schedule {
    /// When round 1 starts (Unix milliseconds).
    #[schema(minimum = 0)]
    pub first_round_at_ms: i64,
    /// Between the starts of two rounds (milliseconds); a round never starts before the one
    /// before it is over.
    #[schema(minimum = 0)]
    pub round_gap_ms: i64,
}

impl Schedule {
    /// When round `round` (from 1) is due.
    pub fn due_ms(&self, round: u32) -> i64 {
        self.first_round_at_ms.saturating_add(
            self.round_gap_ms
                .saturating_mul(i64::from(round.saturating_sub(1))),
        )
    }
}

/// The stored settings (version 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// The document's version.
    pub version: u32,
    /// The ruleset's options (the engine's stored form: their JSON is this document's).
    pub options: StoredOptions,
    /// Hands each table plays in a round.
    pub hands: u64,
    /// Thinking time and claim window.
    pub clock: Clock,
    /// How rounds after the first are paired.
    pub pairing: PairingKind,
    /// How tables score.
    pub scoring: ScoringKind,
    /// Competition points taken off for each escape (on top of the ruleset's penalty, which
    /// is in the raw score).
    pub escape_penalty: i64,
    /// Whether the tables of a group are dealt the same walls (复式).
    pub duplicate: bool,
    /// How players register.
    pub registration: Registration,
    /// When rounds start by themselves, if they do.
    pub schedule: Option<Schedule>,
}

impl TournamentConfig {
    /// Reads a stored document, refusing a version this server does not know.
    pub fn read(value: &serde_json::Value) -> Result<TournamentConfig, String> {
        let version = value["version"].as_u64().unwrap_or(0);
        if version != u64::from(CONFIG_VERSION) {
            return Err(format!(
                "tournament settings version {version}; this server reads {CONFIG_VERSION}"
            ));
        }
        serde_json::from_value(value.clone()).map_err(|e| format!("tournament settings: {e}"))
    }
}
