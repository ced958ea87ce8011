//! The table: a sequence of hands and what carries between them.
//!
//! A [`Table`] owns the dealer rotation, the round wind, streak counters and the running scores.
//! What carries between hands is plain data ([`TableState`]), so the store can save it after
//! each hand (as a [`StoredTableState`](crate::stored::StoredTableState)) and the server can
//! restore the table from it after a restart.

use crate::game::{Game, GameError};
use crate::record::{TableHand, TableRecord};
use crate::ruleset::{HandResult, Ruleset};
use crate::seat::{BySeat, Seat, Wind};
use crate::settle::{Carried, Settlement};
use crate::wall::SeededRng;

/// What a table carries from one hand to the next.
///
/// Not a stored format: the store keeps a
/// [`StoredTableState`](crate::stored::StoredTableState).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableState {
    /// Hands finished so far.
    pub hands_played: u32,
    /// The dealer of the next hand.
    pub dealer: Seat,
    /// The prevalent wind of the next hand.
    pub round_wind: Wind,
    /// Hands in a row the next dealer has already dealt (0 for a new dealer).
    pub dealer_streak: u32,
    /// Drawn hands in a row just before the next hand.
    pub draw_streak: u32,
    /// The Shanghai 荒番 counter.
    pub draw_bonus: u32,
    /// Running score per seat.
    pub scores: BySeat<i64>,
    /// The table's first dealer, where it is known (tables saved before it was kept lack it).
    /// Families with wind rounds that end when the deal has gone once around the table
    /// (Guangdong) read it.
    pub first_dealer: Option<Seat>,
}

impl TableState {
    /// A new table whose first dealer is drawn from `seed` (families that fix East as first
    /// dealer override it when they arrive).
    pub fn new(seed: u64, players: u8) -> TableState {
        let mut rng = SeededRng::new(seed ^ 0x7AB1_E000_0000_0001);
        let dealer = Seat::new(rng.below(u32::from(players)) as u8).unwrap_or(Seat::ALL[0]);
        TableState {
            hands_played: 0,
            dealer,
            round_wind: Wind::East,
            dealer_streak: 0,
            draw_streak: 0,
            draw_bonus: 0,
            scores: BySeat::default(),
            first_dealer: Some(dealer),
        }
    }

    /// The carried facts a hand's settlement reads.
    pub fn carried(&self) -> Carried {
        Carried {
            draw_bonus: self.draw_bonus,
            dealer_streak: self.dealer_streak,
            draw_streak: self.draw_streak,
            ..Carried::default()
        }
    }
}

/// A table playing hands in sequence under one ruleset.
#[derive(Clone, Debug)]
pub struct Table {
    ruleset: Ruleset,
    state: TableState,
    record: TableRecord,
}

impl Table {
    /// A new table; `seed` decides the first dealer.
    pub fn new(ruleset: Ruleset, seed: u64) -> Table {
        let players = ruleset.rules().flow().players;
        let record = TableRecord {
            ruleset: ruleset.id(),
            options: ruleset.shared_options(),
            seed,
            hands: Vec::new(),
        };
        Table {
            state: TableState::new(seed, players),
            ruleset,
            record,
        }
    }

    /// Restores a table from its saved state (its record then starts afresh from here).
    pub fn restore(ruleset: Ruleset, state: TableState) -> Table {
        let record = TableRecord {
            ruleset: ruleset.id(),
            options: ruleset.shared_options(),
            seed: 0,
            hands: Vec::new(),
        };
        Table {
            ruleset,
            state,
            record,
        }
    }

    /// Every hand finished at this table, as a record that replays the whole table.
    pub fn record(&self) -> &TableRecord {
        &self.record
    }

    /// The carried state.
    pub fn state(&self) -> &TableState {
        &self.state
    }

    /// The ruleset.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// A seated player left the table: families whose 荒番 counter belongs to the people
    /// seated start it again.
    pub fn player_left(&mut self) {
        if self.ruleset.rules().flow().leave_resets_draw_bonus {
            self.state.draw_bonus = 0;
        }
    }

    /// Deals the next hand from `seed`.
    pub fn deal(&self, seed: u64) -> Game {
        Game::new(
            self.ruleset.clone(),
            seed,
            self.state.dealer,
            self.state.round_wind,
            self.state.carried(),
        )
    }

    /// Records a finished hand: scores, dealer, streaks.
    ///
    /// # Errors
    /// [`GameError::NotFinished`] when the hand is still being played.
    pub fn finish(&mut self, game: &Game) -> Result<Settlement, GameError> {
        let settlement = game.settlement().ok_or(GameError::NotFinished)?.clone();
        let ours = game.ruleset() == &self.ruleset
            && game.dealer() == self.state.dealer
            && game.carried() == &self.state.carried();
        if !ours {
            return Err(GameError::NotThisTable);
        }
        let result = HandResult {
            dealer: game.dealer(),
            wins: game.wins().to_vec(),
        };
        let next = self.ruleset.rules().next_hand(&self.state, &result);
        for (s, d) in settlement.deltas.iter() {
            self.state.scores[s] += d;
        }
        self.state.dealer_streak = if next.dealer == result.dealer {
            self.state.dealer_streak + 1
        } else {
            0
        };
        self.state.draw_streak = if result.wins.is_empty() {
            self.state.draw_streak + 1
        } else {
            0
        };
        self.state.dealer = next.dealer;
        self.state.round_wind = next.round_wind;
        self.state.draw_bonus = next.draw_bonus;
        self.state.hands_played += 1;
        self.record.hands.push(TableHand {
            seed: game.seed(),
            actions: game.actions().to_vec(),
        });
        Ok(settlement)
    }
}
