//! Replay records as kept: a finished hand's (`hands.record`, `mahjong simulate --record`) and a
//! whole table's (`mahjong simulate --table-record`). `mahjong replay` reads both.

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::record::{HandRecord, TableHand, TableRecord};
use crate::seat::Seat;

use super::table::seat;
use super::{Document, StoredAction, StoredError, StoredOptions, StoredWind};

/// A whole hand as data (version 1: the JSON every build before versioned formats wrote for
/// [`HandRecord`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredHandRecord {
    /// The preset id (`sichuan`).
    pub ruleset: String,
    /// Its options, every one of them with its value in play.
    pub options: StoredOptions,
    /// The seed of the wall and dice (a JSON number).
    pub seed: u64,
    /// The dealer's seat.
    pub dealer: u8,
    /// The prevalent wind.
    pub round_wind: StoredWind,
    /// Hands in a row the dealer had dealt before this one.
    #[serde(default)]
    pub dealer_streak: u32,
    /// Drawn hands in a row before this one.
    #[serde(default)]
    pub draw_streak: u32,
    /// The table's 荒番 counter (Shanghai).
    #[serde(default)]
    pub draw_bonus: u32,
    /// Every accepted action, in order, with its seat: `[seat, action]`.
    pub actions: Vec<(u8, StoredAction)>,
}

impl Document for StoredHandRecord {
    const KIND: &'static str = "hand record";
    const VERSION: u32 = 1;
}

/// A whole table as data (version 1: the JSON every build before versioned formats wrote for
/// [`TableRecord`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredTableRecord {
    /// The preset id.
    pub ruleset: String,
    /// Its options.
    pub options: StoredOptions,
    /// The table's seed (it draws the first dealer).
    pub seed: u64,
    /// The finished hands, in order.
    pub hands: Vec<StoredTableHand>,
}

impl Document for StoredTableRecord {
    const KIND: &'static str = "table record";
    const VERSION: u32 = 1;
}

/// One hand of a table record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredTableHand {
    /// The hand's seed.
    pub seed: u64,
    /// Every accepted action, in order, with its seat.
    pub actions: Vec<(u8, StoredAction)>,
}

impl From<&HandRecord> for StoredHandRecord {
    fn from(record: &HandRecord) -> StoredHandRecord {
        StoredHandRecord {
            ruleset: record.ruleset.to_string(),
            options: StoredOptions::from(&record.options),
            seed: record.seed,
            dealer: u8::from(record.dealer),
            round_wind: record.round_wind.into(),
            dealer_streak: record.dealer_streak,
            draw_streak: record.draw_streak,
            draw_bonus: record.draw_bonus,
            actions: stored_actions(&record.actions),
        }
    }
}

impl TryFrom<&StoredHandRecord> for HandRecord {
    type Error = StoredError;

    /// Parses the preset, seats and actions; whether the options suit the preset and the actions
    /// are legal is for [`HandRecord::replay`] to say.
    ///
    /// # Errors
    /// [`StoredError::Ruleset`], [`StoredError::Seat`] or [`StoredError::RecordAction`].
    fn try_from(stored: &StoredHandRecord) -> Result<HandRecord, StoredError> {
        Ok(HandRecord {
            ruleset: stored.ruleset.parse()?,
            options: stored.options.to_raw(),
            seed: stored.seed,
            dealer: seat(stored.dealer)?,
            round_wind: stored.round_wind.into(),
            dealer_streak: stored.dealer_streak,
            draw_streak: stored.draw_streak,
            draw_bonus: stored.draw_bonus,
            actions: engine_actions(&stored.actions, 0)?,
        })
    }
}

impl From<&TableRecord> for StoredTableRecord {
    fn from(record: &TableRecord) -> StoredTableRecord {
        StoredTableRecord {
            ruleset: record.ruleset.to_string(),
            options: StoredOptions::from(record.options.as_ref()),
            seed: record.seed,
            hands: record
                .hands
                .iter()
                .map(|hand| StoredTableHand {
                    seed: hand.seed,
                    actions: stored_actions(&hand.actions),
                })
                .collect(),
        }
    }
}

impl TryFrom<&StoredTableRecord> for TableRecord {
    type Error = StoredError;

    /// Parses the preset and every hand's seats and actions, actions numbered across the hands
    /// as [`TableRecord::replay`] numbers them.
    ///
    /// # Errors
    /// [`StoredError::Ruleset`], [`StoredError::Seat`] or [`StoredError::RecordAction`].
    fn try_from(stored: &StoredTableRecord) -> Result<TableRecord, StoredError> {
        let mut hands = Vec::with_capacity(stored.hands.len());
        let mut first = 0;
        for hand in &stored.hands {
            hands.push(TableHand {
                seed: hand.seed,
                actions: engine_actions(&hand.actions, first)?,
            });
            first += hand.actions.len();
        }
        Ok(TableRecord {
            ruleset: stored.ruleset.parse()?,
            options: std::sync::Arc::new(stored.options.to_raw()),
            seed: stored.seed,
            hands,
        })
    }
}

fn stored_actions(actions: &[(Seat, Action)]) -> Vec<(u8, StoredAction)> {
    actions
        .iter()
        .map(|&(s, action)| (u8::from(s), StoredAction::from(action)))
        .collect()
}

/// The actions of a record; `first` is the first one's index in the whole record, for errors.
fn engine_actions(
    actions: &[(u8, StoredAction)],
    first: usize,
) -> Result<Vec<(Seat, Action)>, StoredError> {
    actions
        .iter()
        .enumerate()
        .map(|(i, (s, action))| {
            let action = Action::try_from(action).map_err(|source| StoredError::RecordAction {
                index: first + i,
                source,
            })?;
            Ok((seat(*s)?, action))
        })
        .collect()
}
