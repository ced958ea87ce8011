//! An action as the store keeps it: an object tagged by `type`, tiles in the notation, a void
//! suit as its letter. Renaming or reshaping [`Action`] changes nothing here; only the
//! conversions below follow it.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::action::Action;
use crate::tile::{Suit, Tile, TileParseError};

/// One decision of one seat, as logged and recorded (version 1: the JSON every build before
/// versioned formats wrote for [`Action`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StoredAction {
    /// 定缺: the suit given up.
    DeclareVoid {
        /// Its letter: `m`, `p` or `s`.
        suit: String,
    },
    /// A discard.
    Discard {
        /// The tile, in the notation (`5m`).
        tile: String,
    },
    /// A win on one's own draw.
    SelfDrawWin,
    /// A concealed kong.
    ConcealedKong {
        /// The kind, in the notation.
        tile: String,
    },
    /// An added kong.
    AddedKong {
        /// The kind, in the notation.
        tile: String,
    },
    /// A win on the tile on offer.
    Win,
    /// A pung claimed.
    Pung,
    /// An exposed kong claimed.
    ExposedKong,
    /// A chow claimed.
    Chow {
        /// Its lowest tile, in the notation.
        low: String,
    },
    /// Every claim declined.
    Pass,
    /// The last tile drawn.
    DrawLast,
    /// The last tile declined.
    DeclineLast,
    /// A discard with a declaration of ready.
    DeclareReady {
        /// The tile discarded, in the notation.
        tile: String,
    },
    /// A tile marked for the swap.
    SwapMark {
        /// The kind, in the notation.
        tile: String,
    },
    /// The swap finished.
    SwapDone,
}

/// Why a stored action is not an [`Action`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionError {
    /// A tile that is not in the notation.
    #[error("tile {0}")]
    Tile(#[from] TileParseError),
    /// A void suit that is not a numbered suit's letter.
    #[error("`{0}` is not a suit letter m, p or s")]
    Suit(String),
}

impl From<Action> for StoredAction {
    fn from(action: Action) -> StoredAction {
        let text = |tile: Tile| tile.to_string();
        match action {
            Action::DeclareVoid { suit } => StoredAction::DeclareVoid {
                suit: suit.to_string(),
            },
            Action::Discard { tile } => StoredAction::Discard { tile: text(tile) },
            Action::SelfDrawWin => StoredAction::SelfDrawWin,
            Action::ConcealedKong { tile } => StoredAction::ConcealedKong { tile: text(tile) },
            Action::AddedKong { tile } => StoredAction::AddedKong { tile: text(tile) },
            Action::Win => StoredAction::Win,
            Action::Pung => StoredAction::Pung,
            Action::ExposedKong => StoredAction::ExposedKong,
            Action::Chow { low } => StoredAction::Chow { low: text(low) },
            Action::Pass => StoredAction::Pass,
            Action::DrawLast => StoredAction::DrawLast,
            Action::DeclineLast => StoredAction::DeclineLast,
            Action::DeclareReady { tile } => StoredAction::DeclareReady { tile: text(tile) },
            Action::SwapMark { tile } => StoredAction::SwapMark { tile: text(tile) },
            Action::SwapDone => StoredAction::SwapDone,
        }
    }
}

impl TryFrom<&StoredAction> for Action {
    type Error = ActionError;

    /// Parses the action's tile or suit; whether it is legal is the game's to say.
    fn try_from(stored: &StoredAction) -> Result<Action, ActionError> {
        Ok(match stored {
            StoredAction::DeclareVoid { suit } => Action::DeclareVoid {
                suit: numbered_suit(suit)?,
            },
            StoredAction::Discard { tile } => Action::Discard {
                tile: tile.parse()?,
            },
            StoredAction::SelfDrawWin => Action::SelfDrawWin,
            StoredAction::ConcealedKong { tile } => Action::ConcealedKong {
                tile: tile.parse()?,
            },
            StoredAction::AddedKong { tile } => Action::AddedKong {
                tile: tile.parse()?,
            },
            StoredAction::Win => Action::Win,
            StoredAction::Pung => Action::Pung,
            StoredAction::ExposedKong => Action::ExposedKong,
            StoredAction::Chow { low } => Action::Chow { low: low.parse()? },
            StoredAction::Pass => Action::Pass,
            StoredAction::DrawLast => Action::DrawLast,
            StoredAction::DeclineLast => Action::DeclineLast,
            StoredAction::DeclareReady { tile } => Action::DeclareReady {
                tile: tile.parse()?,
            },
            StoredAction::SwapMark { tile } => Action::SwapMark {
                tile: tile.parse()?,
            },
            StoredAction::SwapDone => Action::SwapDone,
        })
    }
}

/// A void suit: only the three numbered suits can be declared void.
fn numbered_suit(letter: &str) -> Result<Suit, ActionError> {
    match letter.parse::<Suit>() {
        Ok(suit) if suit.is_numbered() => Ok(suit),
        _ => Err(ActionError::Suit(letter.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_tiles_and_suits_are_errors_not_panics() {
        let tile = StoredAction::Discard { tile: "0x".into() };
        assert!(matches!(Action::try_from(&tile), Err(ActionError::Tile(_))));
        for suit in ["z", "f", "", "mm"] {
            let void = StoredAction::DeclareVoid { suit: suit.into() };
            assert_eq!(
                Action::try_from(&void),
                Err(ActionError::Suit(suit.into())),
                "{suit}"
            );
        }
    }
}
