//! A line of a room's action log (`room_actions.action`): a hand's deal or one seat's action,
//! appended before its events go out, and replayed in order to rebuild a hand after a restart.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::action::Action;

use super::{Document, StoredAction};

/// One line of a room's action log (version 1: what every build before versioned formats
/// logged). The seat (for a deal, the dealer's) is a column of its own beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type")]
pub enum LogEntry {
    /// The hand is dealt from `seed`: `{"type": "deal", "seed": "<decimal u64>"}`, the seed
    /// written as a string, for many JSON readers lose precision in numbers above 2^53.
    #[serde(rename = "deal")]
    Deal {
        /// The hand's seed.
        #[serde(with = "decimal")]
        seed: u64,
    },
    /// A seat's action, exactly as a [`StoredAction`] is written (its own `type`).
    #[serde(untagged)]
    Action(StoredAction),
}

impl Document for LogEntry {
    const KIND: &'static str = "action log entry";
    const VERSION: u32 = 1;
}

impl<'de> Deserialize<'de> for LogEntry {
    /// The `type` alone decides which of the two layouts a line has, so that a bad action is
    /// reported as the action's own error (an unknown type, a missing tile) rather than as a
    /// line that matches neither.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<LogEntry, D::Error> {
        let value = Value::deserialize(d)?;
        if value.get("type").and_then(Value::as_str) == Some("deal") {
            let deal = Deal::deserialize(value).map_err(D::Error::custom)?;
            return Ok(LogEntry::Deal { seed: deal.seed });
        }
        StoredAction::deserialize(value)
            .map(LogEntry::Action)
            .map_err(D::Error::custom)
    }
}

/// The fields of a deal line besides its `type`.
#[derive(Deserialize)]
struct Deal {
    #[serde(with = "decimal")]
    seed: u64,
}

impl From<Action> for LogEntry {
    fn from(action: Action) -> LogEntry {
        LogEntry::Action(action.into())
    }
}

/// A `u64` written as a decimal string.
mod decimal {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(n: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(n)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(|_| {
            serde::de::Error::custom(format!("seed `{text}` is not a decimal number below 2^64"))
        })
    }
}
