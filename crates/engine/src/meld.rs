//! Declared melds (副露 and 暗杠).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::seat::Seat;
use crate::tile::Tile;

/// How a kong was made. Each kind pays and scores differently in most rule families.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum KongKind {
    /// 明杠: claimed on a discard with three in hand.
    Exposed,
    /// 暗杠: four in hand, declared on one's own turn; stays face down.
    Concealed,
    /// 补杠 / 加杠: a drawn or held fourth tile added to an exposed pung.
    Added,
}

/// The shape of a meld.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum MeldKind {
    /// 吃: a run; `tile` is its lowest tile.
    Chow,
    /// 碰: three of a kind.
    Pung,
    /// 杠: four of a kind.
    Kong(KongKind),
}

/// One declared meld. `from` is the seat whose discard completed it (`None` for a concealed
/// kong); `claimed` is the tile taken from that discard.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Meld {
    /// The shape.
    pub kind: MeldKind,
    /// The lowest tile (the tile itself for pungs and kongs).
    pub tile: Tile,
    /// The discarder the meld was claimed from.
    pub from: Option<Seat>,
    /// The claimed tile (for chows, which of the three it was).
    pub claimed: Option<Tile>,
}

impl Meld {
    /// The tiles of the meld, lowest first (3 or 4 of them).
    pub fn tiles(&self) -> arrayvec::ArrayVec<Tile, 4> {
        let mut out = arrayvec::ArrayVec::new();
        match self.kind {
            MeldKind::Chow => {
                let mut t = Some(self.tile);
                for _ in 0..3 {
                    if let Some(x) = t {
                        out.push(x);
                        t = x.succ_in_run();
                    }
                }
            }
            MeldKind::Pung => out.extend([self.tile; 3]),
            MeldKind::Kong(_) => out.extend([self.tile; 4]),
        }
        out
    }

    /// Whether this meld is a kong of any kind.
    pub const fn is_kong(&self) -> bool {
        matches!(self.kind, MeldKind::Kong(_))
    }

    /// Whether this meld keeps the hand concealed (门清): only a concealed kong does.
    pub const fn is_concealed(&self) -> bool {
        matches!(self.kind, MeldKind::Kong(KongKind::Concealed))
    }

    /// Pungs and kongs (刻子).
    pub const fn is_pung_or_kong(&self) -> bool {
        matches!(self.kind, MeldKind::Pung | MeldKind::Kong(_))
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::tile::format_tiles(&self.tiles()))
    }
}
