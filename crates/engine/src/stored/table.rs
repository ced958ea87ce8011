//! A table's carried state as the store keeps it between hands (`game_tables.carried`), which
//! a restarted server restores the table from.

use serde::{Deserialize, Serialize};

use crate::seat::{BySeat, Seat, Wind};
use crate::table::TableState;

use super::{Document, StoredError};

/// What a table carries to its next hand (version 1: the JSON every build before versioned
/// formats wrote for [`TableState`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredTableState {
    /// Hands finished so far.
    pub hands_played: u32,
    /// The next hand's dealer.
    pub dealer: u8,
    /// The next hand's prevalent wind.
    pub round_wind: StoredWind,
    /// Hands in a row the next dealer has already dealt.
    pub dealer_streak: u32,
    /// Drawn hands in a row just before the next hand.
    pub draw_streak: u32,
    /// The Shanghai 荒番 counter.
    pub draw_bonus: u32,
    /// Running score per seat, four always (a two-player table's last two stay 0).
    pub scores: [i64; 4],
    /// The table's first dealer: `null`, or absent, in states saved before it was kept.
    #[serde(default)]
    pub first_dealer: Option<u8>,
}

impl Document for StoredTableState {
    const KIND: &'static str = "carried state";
    const VERSION: u32 = 1;
}

/// A wind as its letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StoredWind {
    /// 东.
    #[serde(rename = "E")]
    East,
    /// 南.
    #[serde(rename = "S")]
    South,
    /// 西.
    #[serde(rename = "W")]
    West,
    /// 北.
    #[serde(rename = "N")]
    North,
}

impl From<&TableState> for StoredTableState {
    fn from(state: &TableState) -> StoredTableState {
        StoredTableState {
            hands_played: state.hands_played,
            dealer: u8::from(state.dealer),
            round_wind: state.round_wind.into(),
            dealer_streak: state.dealer_streak,
            draw_streak: state.draw_streak,
            draw_bonus: state.draw_bonus,
            scores: state.scores.0,
            first_dealer: state.first_dealer.map(u8::from),
        }
    }
}

impl TryFrom<&StoredTableState> for TableState {
    type Error = StoredError;

    /// # Errors
    /// [`StoredError::Seat`] for a dealer outside the table.
    fn try_from(stored: &StoredTableState) -> Result<TableState, StoredError> {
        Ok(TableState {
            hands_played: stored.hands_played,
            dealer: seat(stored.dealer)?,
            round_wind: stored.round_wind.into(),
            dealer_streak: stored.dealer_streak,
            draw_streak: stored.draw_streak,
            draw_bonus: stored.draw_bonus,
            scores: BySeat(stored.scores),
            first_dealer: stored.first_dealer.map(seat).transpose()?,
        })
    }
}

impl From<Wind> for StoredWind {
    fn from(wind: Wind) -> StoredWind {
        match wind {
            Wind::East => StoredWind::East,
            Wind::South => StoredWind::South,
            Wind::West => StoredWind::West,
            Wind::North => StoredWind::North,
        }
    }
}

impl From<StoredWind> for Wind {
    fn from(wind: StoredWind) -> Wind {
        match wind {
            StoredWind::East => Wind::East,
            StoredWind::South => Wind::South,
            StoredWind::West => Wind::West,
            StoredWind::North => Wind::North,
        }
    }
}

/// A stored seat number as a seat.
pub(super) fn seat(number: u8) -> Result<Seat, StoredError> {
    Seat::new(number).ok_or(StoredError::Seat(number))
}
