//! What a seat may do. Draws, flower replacements and replacement draws are not actions: the
//! engine performs them itself, so a client can never ask for a tile.

use std::fmt;

use crate::tile::{Suit, Tile};

/// One decision of one seat.
///
/// Not a stored or wire format: the store keeps a [`StoredAction`](crate::stored::StoredAction),
/// clients send the protocol's own type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// 定缺: declare the suit this seat will not keep.
    DeclareVoid {
        /// The void suit (m, p or s).
        suit: Suit,
    },
    /// Discard a tile on one's own turn.
    Discard {
        /// The tile.
        tile: Tile,
    },
    /// Win on one's own draw (自摸).
    SelfDrawWin,
    /// Declare a concealed kong (暗杠) of four held tiles.
    ConcealedKong {
        /// The kind.
        tile: Tile,
    },
    /// Add the fourth tile to an exposed pung (补杠).
    AddedKong {
        /// The kind.
        tile: Tile,
    },
    /// Win on the tile on offer (a discard, or a kong being added: 抢杠).
    Win,
    /// Claim the discard for a pung.
    Pung,
    /// Claim the discard for an exposed kong.
    ExposedKong,
    /// Claim the discard for a chow whose lowest tile is `low`.
    Chow {
        /// The chow's lowest tile.
        low: Tile,
    },
    /// Decline every claim on offer.
    Pass,
    /// Draw the last drawable tile (海底), where the family lets its drawer decline it.
    DrawLast,
    /// Decline to draw the last drawable tile: the hand is drawn (荒牌) at once.
    DeclineLast,
    /// Discard `tile` and declare ready (报听): the hand left must be waiting, and from now on
    /// it does not change (two-player). The engine then discards each drawn tile that does not
    /// win, and asks only whether to win.
    DeclareReady {
        /// The tile discarded with the declaration.
        tile: Tile,
    },
    /// 开始时换牌 (two-player room option `swap`): set aside one held copy of `tile` to be
    /// exchanged when the seat finishes its swap. A mark is final; the seat sees it alone.
    SwapMark {
        /// The kind marked.
        tile: Tile,
    },
    /// End this seat's swap: the marked tiles (perhaps none) go back to the set-aside pool and
    /// as many come from it, once per hand.
    SwapDone,
}

impl Action {
    /// The claim priority of a response: win > pung/kong > chow > pass.
    pub const fn claim_rank(self) -> u8 {
        match self {
            Action::Win => 3,
            Action::Pung | Action::ExposedKong => 2,
            Action::Chow { .. } => 1,
            _ => 0,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::DeclareVoid { suit } => write!(f, "declare void {suit}"),
            Action::Discard { tile } => write!(f, "discard {tile}"),
            Action::SelfDrawWin => write!(f, "self-draw win"),
            Action::ConcealedKong { tile } => write!(f, "concealed kong {tile}"),
            Action::AddedKong { tile } => write!(f, "added kong {tile}"),
            Action::Win => write!(f, "win"),
            Action::Pung => write!(f, "pung"),
            Action::ExposedKong => write!(f, "exposed kong"),
            Action::Chow { low } => write!(f, "chow from {low}"),
            Action::Pass => write!(f, "pass"),
            Action::DrawLast => write!(f, "draw the last tile"),
            Action::DeclineLast => write!(f, "decline the last tile"),
            Action::DeclareReady { tile } => write!(f, "discard {tile} and declare ready"),
            Action::SwapMark { tile } => write!(f, "mark {tile} to swap"),
            Action::SwapDone => write!(f, "finish the swap"),
        }
    }
}

/// Serde for suits as their notation letter.
pub mod suit_letter {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::tile::Suit;

    /// Writes the letter.
    pub fn serialize<S: Serializer>(suit: &Suit, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(suit)
    }

    /// Reads a letter of a numbered suit.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Suit, D::Error> {
        let text = String::deserialize(d)?;
        match text.parse::<Suit>() {
            Ok(s) if s.is_numbered() => Ok(s),
            _ => Err(serde::de::Error::custom(format!(
                "`{text}` is not a suit letter m, p or s"
            ))),
        }
    }
}
