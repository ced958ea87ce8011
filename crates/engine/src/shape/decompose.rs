//! Enumerating the ways a complete concealed part splits into sets and a pair, for scoring.
//!
//! Scoring needs the arrangement, not just a yes: all pungs (对对胡), terminals in every set
//! (带幺九), the wait shape and so on depend on it, and a hand such as `111222333m` reads both
//! as three pungs and as three chows. Not on the hot path: only winning hands are decomposed.

use arrayvec::ArrayVec;

use crate::tile::Tile;
use crate::tiles::TileCounts;

/// A concealed set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Set {
    /// A run; the tile is its lowest.
    Chow(Tile),
    /// Three of a kind.
    Pung(Tile),
}

impl Set {
    /// The three tiles.
    pub fn tiles(self) -> [Tile; 3] {
        match self {
            Set::Pung(t) => [t; 3],
            Set::Chow(t) => {
                let b = t.succ_in_run().unwrap_or(t);
                let c = b.succ_in_run().unwrap_or(b);
                [t, b, c]
            }
        }
    }
}

/// One arrangement of a concealed part: its sets (at most four) and its pair.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Decomposition {
    /// The concealed sets, in tile order.
    pub sets: ArrayVec<Set, 4>,
    /// The pair (将 / 雀头).
    pub pair: Tile,
}

/// Every distinct standard arrangement of concealed counts (3k+2 tiles) into k sets and a
/// pair. Empty when the counts are not a complete standard shape.
pub fn decompositions(c: &TileCounts) -> Vec<Decomposition> {
    let mut out = Vec::new();
    if c.total() % 3 != 2 {
        return out;
    }
    for pair in Tile::playing() {
        if c.get(pair) < 2 {
            continue;
        }
        let mut rest = *c;
        rest[pair] -= 2;
        let mut sets = ArrayVec::new();
        split_sets(&mut rest, 0, &mut sets, pair, &mut out);
    }
    out
}

/// Splits `c` into sets, always taking the lowest remaining tile first, so each arrangement is
/// produced exactly once.
fn split_sets(
    c: &mut TileCounts,
    from: usize,
    sets: &mut ArrayVec<Set, 4>,
    pair: Tile,
    out: &mut Vec<Decomposition>,
) {
    let Some(i) = (from..Tile::PLAYING_KINDS).find(|&i| c.0[i] > 0) else {
        out.push(Decomposition {
            sets: sets.clone(),
            pair,
        });
        return;
    };
    if sets.is_full() {
        return;
    }
    let Some(t) = Tile::from_index(i as u8) else {
        return;
    };
    if c.0[i] >= 3 {
        c.0[i] -= 3;
        sets.push(Set::Pung(t));
        split_sets(c, i, sets, pair, out);
        sets.pop();
        c.0[i] += 3;
    }
    let run = t
        .succ_in_run()
        .and_then(|b| b.succ_in_run().map(|c3| (b, c3)));
    if let Some((b, c3)) = run
        && c[b] > 0
        && c[c3] > 0
    {
        c.0[i] -= 1;
        c[b] -= 1;
        c[c3] -= 1;
        sets.push(Set::Chow(t));
        split_sets(c, i, sets, pair, out);
        sets.pop();
        c.0[i] += 1;
        c[b] += 1;
        c[c3] += 1;
    }
}
