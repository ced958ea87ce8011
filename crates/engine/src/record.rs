//! Replay records: a hand (ruleset + options + seed + table state + actions) and a whole table
//! (ruleset + options + table seed + each hand's seed and actions).
//!
//! Replaying a record runs the same actions through [`Game::apply`], so it reproduces the same
//! events and the same settlement, and rejects a tampered record with the first illegal action.
//!
//! These are the engine's types, free to change: a record is written and read as JSON only
//! through [`crate::stored`] ([`StoredHandRecord`](crate::stored::StoredHandRecord),
//! [`StoredTableRecord`](crate::stored::StoredTableRecord)).

use thiserror::Error;

use crate::action::Action;
use crate::game::{Game, GameError};
use crate::ruleset::{OptionError, RawOptions, Ruleset, RulesetId};
use crate::seat::{Seat, Wind};
use crate::settle::Carried;

/// A whole hand as data.
#[derive(Clone, Debug, PartialEq)]
pub struct HandRecord {
    /// The preset.
    pub ruleset: RulesetId,
    /// Its options.
    pub options: RawOptions,
    /// The seed of the wall and dice.
    pub seed: u64,
    /// The dealer.
    pub dealer: Seat,
    /// The prevalent wind.
    pub round_wind: Wind,
    /// Carried counters the settlement reads.
    pub dealer_streak: u32,
    /// Drawn hands in a row before this one.
    pub draw_streak: u32,
    /// The table's 荒番 counter (Shanghai): it doubles the hand's wins.
    pub draw_bonus: u32,
    /// Every accepted action, in order.
    pub actions: Vec<(Seat, Action)>,
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The options are not valid for the ruleset.
    #[error("bad options: {0}")]
    Options(#[from] OptionError),
    /// An action the game refused, with its position in the record.
    #[error("action {index}: {error}")]
    Action {
        /// 0-based position.
        index: usize,
        /// The refusal.
        error: GameError,
    },
}

impl HandRecord {
    /// The record of a game so far.
    pub fn of(game: &Game) -> HandRecord {
        HandRecord {
            ruleset: game.ruleset().id(),
            options: game.ruleset().options(),
            seed: game.seed(),
            dealer: game.dealer(),
            round_wind: game.round_wind(),
            dealer_streak: game.carried().dealer_streak,
            draw_streak: game.carried().draw_streak,
            draw_bonus: game.carried().draw_bonus,
            actions: game.actions().to_vec(),
        }
    }

    /// Plays the record again.
    ///
    /// # Errors
    /// [`ReplayError`] for bad options or the first refused action.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let ruleset = Ruleset::new(self.ruleset, &self.options)?;
        let carried = Carried {
            dealer_streak: self.dealer_streak,
            draw_streak: self.draw_streak,
            draw_bonus: self.draw_bonus,
            ..Carried::default()
        };
        let mut game = Game::new(ruleset, self.seed, self.dealer, self.round_wind, carried);
        for (index, &(seat, action)) in self.actions.iter().enumerate() {
            game.apply(seat, action)
                .map_err(|error| ReplayError::Action { index, error })?;
        }
        Ok(game)
    }
}

/// One hand of a table record: its seed and its actions (the rest follows from the table).
#[derive(Clone, Debug, PartialEq)]
pub struct TableHand {
    /// The hand's seed.
    pub seed: u64,
    /// Every accepted action, in order.
    pub actions: Vec<(Seat, Action)>,
}

/// A whole table as data: replaying it rebuilds every hand, the carried state and the scores.
///
/// Not a stored format: files and the store keep a
/// [`StoredTableRecord`](crate::stored::StoredTableRecord).
#[derive(Clone, Debug, PartialEq)]
pub struct TableRecord {
    /// The preset.
    pub ruleset: RulesetId,
    /// Its options, shared with the table's ruleset.
    pub options: std::sync::Arc<RawOptions>,
    /// The table's seed (the first dealer).
    pub seed: u64,
    /// The finished hands, in order.
    pub hands: Vec<TableHand>,
}

impl TableRecord {
    /// Plays every hand again and returns the table as it stood after the last one.
    ///
    /// # Errors
    /// [`ReplayError`] for bad options, a refused action, or a hand that does not end.
    pub fn replay(&self) -> Result<crate::table::Table, ReplayError> {
        let ruleset = Ruleset::new(self.ruleset, &self.options)?;
        let mut table = crate::table::Table::new(ruleset, self.seed);
        let mut index = 0;
        for hand in &self.hands {
            let mut game = table.deal(hand.seed);
            for &(seat, action) in &hand.actions {
                game.apply(seat, action)
                    .map_err(|error| ReplayError::Action { index, error })?;
                index += 1;
            }
            table
                .finish(&game)
                .map_err(|error| ReplayError::Action { index, error })?;
        }
        Ok(table)
    }
}
