//! The wall: tile sets, the seeded shuffle, dice, live and replacement ends, the reserve.
//!
//! **Randomness.** A hand's randomness is a `u64` seed fed to ChaCha8 (`rand_chacha::ChaCha8Rng`,
//! a portable, documented stream cipher RNG, unlike `StdRng`). The shuffle is our own
//! Fisher–Yates with rejection sampling ([`SeededRng::below`]) so that the wall a seed gives can
//! never change with a dependency upgrade. The dealt wall is also recorded with each hand.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::tile::{Suit, Tile};

/// The deterministic random source of one hand.
pub struct SeededRng(ChaCha8Rng);

impl SeededRng {
    /// The stream for `seed`.
    pub fn new(seed: u64) -> Self {
        SeededRng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform integer in `0..n` (`n > 0`), by rejection: no modulo bias.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let n = n.max(1);
        let zone = u32::MAX - (u32::MAX % n);
        loop {
            let x = self.0.next_u32();
            if x < zone {
                return x % n;
            }
        }
    }

    /// A die: 1..=6.
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// Shuffles in place (Fisher–Yates, highest index first).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Which tiles a rule family plays with.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum TileSetKind {
    /// 108: the three numbered suits (Sichuan).
    Suits108,
    /// 136: suits and honors.
    Honors136,
    /// 144: suits, honors and eight flowers.
    Flowers144,
}

impl TileSetKind {
    /// Every tile of the set, four copies of each playing kind and one of each flower.
    pub fn tiles(self) -> Vec<Tile> {
        let mut out = Vec::with_capacity(self.len());
        for t in Tile::playing() {
            if t.suit() == Suit::Honor && self == TileSetKind::Suits108 {
                continue;
            }
            out.extend([t; 4]);
        }
        if self == TileSetKind::Flowers144 {
            out.extend((1..=8).filter_map(|r| Tile::new(Suit::Flower, r)));
        }
        out
    }

    /// Number of tiles.
    pub const fn len(self) -> usize {
        match self {
            TileSetKind::Suits108 => 108,
            TileSetKind::Honors136 => 136,
            TileSetKind::Flowers144 => 144,
        }
    }

    /// Never empty; here for the `len` convention.
    pub const fn is_empty(self) -> bool {
        false
    }

    /// Copies of `t` in the set.
    pub fn copies(self, t: Tile) -> u8 {
        match (self, t.suit()) {
            (TileSetKind::Suits108, Suit::Honor | Suit::Flower) => 0,
            (TileSetKind::Honors136, Suit::Flower) => 0,
            (_, Suit::Flower) => 1,
            _ => 4,
        }
    }
}

/// Where kong and flower replacements come from.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum ReplacementEnd {
    /// The tail of the wall (补牌 from the last stack).
    Tail,
    /// The live end, in normal order (Sichuan 杠牌顺拿牌).
    Live,
}

/// The wall of one hand after the break: `tiles[front..back]` are still in the wall, drawn in
/// turn from the front; replacements come from the back (or the front, see
/// [`ReplacementEnd`]). The last `reserve` tiles are never drawn in turn (Beijing 保留牌).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wall {
    tiles: Vec<Tile>,
    front: usize,
    back: usize,
    reserve: usize,
    replacement: ReplacementEnd,
    /// Tiles of the set kept out of play for the whole hand (two-player: the 65 of 136 not
    /// drawn into the hand's wall); only indicators and the 海底捞月 draws are taken from them.
    #[serde(default)]
    unused: Vec<Tile>,
}

impl Wall {
    /// Shuffles `set` with `rng` into a wall broken at the front, with no reserve.
    pub fn shuffled(set: TileSetKind, rng: &mut SeededRng, replacement: ReplacementEnd) -> Wall {
        let mut tiles = set.tiles();
        rng.shuffle(&mut tiles);
        Wall::from_order(tiles, replacement)
    }

    /// A wall in a given order (replays, tests and crash recovery store the order).
    pub fn from_order(tiles: Vec<Tile>, replacement: ReplacementEnd) -> Wall {
        let back = tiles.len();
        Wall {
            tiles,
            front: 0,
            back,
            reserve: 0,
            replacement,
            unused: Vec::new(),
        }
    }

    /// Keeps the first `keep` tiles of the shuffled order as the hand's wall and sets the rest
    /// aside, out of play (two-player's 71 of 136). Only before anything is drawn.
    pub fn set_aside_unused(&mut self, keep: usize) {
        if self.front == 0 && self.back == self.tiles.len() && keep < self.tiles.len() {
            self.unused = self.tiles.split_off(keep);
            self.back = self.tiles.len();
        }
    }

    /// The tiles set aside out of play (census and the record; never sent).
    pub fn unused(&self) -> &[Tile] {
        &self.unused
    }

    /// Takes the next tile from the tiles set aside (two-player's 海底捞月 draws).
    pub fn draw_unused(&mut self) -> Option<Tile> {
        self.unused.pop()
    }

    /// Exchanges `out` for as many tiles of the set-aside pool (开始时换牌): the replacements
    /// are taken first, from the top of the pile where the 海底捞月 draws come from, and only
    /// then are `out` put at its bottom, so a seat never gets back a tile it gave away and the
    /// few later draws from the pile never reach them. `None`, with nothing changed, when the
    /// pile holds fewer than `out.len()` tiles.
    pub fn exchange_unused(&mut self, out: &[Tile]) -> Option<Vec<Tile>> {
        let keep = self.unused.len().checked_sub(out.len())?;
        let mut received = self.unused.split_off(keep);
        received.reverse();
        self.unused.splice(0..0, out.iter().copied());
        Some(received)
    }

    /// Turns up one tile of the set-aside tiles as an indicator (two-player's 花牌): the first,
    /// from the top of that pile, that `keep` accepts. `None` when none is left.
    pub fn turn_up_unused(&mut self, keep: impl Fn(Tile) -> bool) -> Option<Tile> {
        let i = self.unused.iter().rposition(|&t| keep(t))?;
        Some(self.unused.remove(i))
    }

    /// Breaks the wall: the live end starts `position` tiles into the shuffled order (the
    /// dice decide it), and the tiles before it become the tail.
    pub fn break_at(&mut self, position: usize) {
        if !self.tiles.is_empty() && self.front == 0 {
            let n = self.tiles.len();
            self.tiles.rotate_left(position % n);
        }
    }

    /// Sets how many tiles, counted from the original tail, are kept back from turn draws.
    pub fn set_reserve(&mut self, reserve: usize) {
        self.reserve = reserve;
    }

    /// Tiles still in the wall, reserve included.
    pub fn remaining(&self) -> usize {
        self.back - self.front
    }

    /// Tiles that may still be drawn in turn: the live wall, less what is left of the reserve.
    /// The reserve is measured from the original tail, so replacements taken from the tail use
    /// it up instead of moving it (Beijing 保留牌).
    pub fn drawable(&self) -> usize {
        let taken_from_tail = self.tiles.len() - self.back;
        self.remaining()
            .saturating_sub(self.reserve.saturating_sub(taken_from_tail))
    }

    /// Draws the next tile in turn, if the live wall is not used up.
    pub fn draw(&mut self) -> Option<Tile> {
        if self.drawable() == 0 {
            return None;
        }
        let t = self.tiles.get(self.front).copied();
        self.front += 1;
        t
    }

    /// Draws a replacement tile for a kong or a flower.
    pub fn draw_replacement(&mut self) -> Option<Tile> {
        if self.remaining() == 0 {
            return None;
        }
        match self.replacement {
            ReplacementEnd::Live => self.draw(),
            ReplacementEnd::Tail => {
                self.back -= 1;
                self.tiles.get(self.back).copied()
            }
        }
    }

    /// Removes the tail tile from play without giving it to anyone (a turned-up indicator).
    pub fn set_aside_tail(&mut self) -> Option<Tile> {
        if self.remaining() == 0 {
            return None;
        }
        self.back -= 1;
        self.tiles.get(self.back).copied()
    }

    /// Turns up a tile inside the wall as an indicator that stays where it lies (Ningbo's 财神):
    /// counting `depth` tiles in from the tail end, the first that `keep` accepts is taken out
    /// of every draw, so the live end and the replacements pass over it ("财神这一张跳过") and
    /// every other tile keeps its place in the order. `None` when no such tile is left.
    pub fn turn_up_inside(&mut self, depth: usize, keep: impl Fn(Tile) -> bool) -> Option<Tile> {
        let mut i = self.back.checked_sub(depth + 1)?;
        loop {
            if i < self.front {
                return None;
            }
            let t = *self.tiles.get(i)?;
            if keep(t) {
                self.tiles.remove(i);
                self.back -= 1;
                return Some(t);
            }
            i = i.checked_sub(1)?;
        }
    }

    /// The tiles still in the wall, reserve included (census and the record; never sent).
    pub fn live_and_tail(&self) -> &[Tile] {
        &self.tiles[self.front..self.back]
    }

    /// Tiles drawn from the live end so far (the deal included).
    pub fn live_drawn(&self) -> usize {
        self.front
    }

    /// The whole order as dealt, less a tile turned up inside the wall (for the record; never
    /// sent to clients).
    pub fn order(&self) -> &[Tile] {
        &self.tiles
    }
}

/// The kind an indicator points to (惠坯 → 惠牌, Ningbo's `next` 财神): suits 1→2…8→9, 9→1;
/// winds 东→南→西→北→东; dragons 中→发, 发→白, 白→中 (the order Beijing's text gives).
/// Flowers point to themselves (they are never indicators in any family).
pub fn next_for_indicator(indicator: Tile) -> Tile {
    let rank = indicator.rank();
    let next = match indicator.suit() {
        Suit::Man | Suit::Pin | Suit::Sou => rank % 9 + 1,
        Suit::Honor if rank <= 4 => rank % 4 + 1,
        Suit::Honor => match rank {
            7 => 6,
            6 => 5,
            _ => 7,
        },
        Suit::Flower => rank,
    };
    Tile::new(indicator.suit(), next).unwrap_or(indicator)
}

/// The indicator that names `wild` under [`next_for_indicator`] (the kind before it in its
/// cycle).
pub fn indicator_for(wild: Tile) -> Tile {
    Tile::playing()
        .find(|&t| t.suit() == wild.suit() && next_for_indicator(t) == wild)
        .unwrap_or(wild)
}

/// An indicator turned up after the deal and the wild kind it names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WildDraw {
    /// The tile turned up (set aside, never drawn).
    pub indicator: Tile,
    /// The wild kind: every copy stands for any tile in a winning hand.
    pub wild: Tile,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_wall() {
        let a = Wall::shuffled(
            TileSetKind::Suits108,
            &mut SeededRng::new(7),
            ReplacementEnd::Tail,
        );
        let b = Wall::shuffled(
            TileSetKind::Suits108,
            &mut SeededRng::new(7),
            ReplacementEnd::Tail,
        );
        let c = Wall::shuffled(
            TileSetKind::Suits108,
            &mut SeededRng::new(8),
            ReplacementEnd::Tail,
        );
        assert_eq!(a, b);
        assert_ne!(a.order(), c.order());
        assert_eq!(a.order().len(), 108);
    }

    #[test]
    fn indicators_point_to_the_next_kind() {
        let t = |s: &str| s.parse::<Tile>().expect("tile");
        assert_eq!(next_for_indicator(t("9m")), t("1m"));
        assert_eq!(next_for_indicator(t("4p")), t("5p"));
        assert_eq!(next_for_indicator(t("4z")), t("1z"));
        assert_eq!(next_for_indicator(t("7z")), t("6z"));
        assert_eq!(next_for_indicator(t("6z")), t("5z"));
        assert_eq!(next_for_indicator(t("5z")), t("7z"));
    }

    #[test]
    fn a_tile_turned_up_inside_the_wall_is_skipped_by_both_ends() {
        let t = |s: &str| s.parse::<Tile>().expect("tile");
        let order: Vec<Tile> = ["1m", "2m", "3m", "4m", "5m", "6m"]
            .iter()
            .map(|s| t(s))
            .collect();
        // Two tiles in from the tail (its second stack's top): 4m.
        let mut w = Wall::from_order(order.clone(), ReplacementEnd::Tail);
        assert_eq!(w.turn_up_inside(2, |_| true), Some(t("4m")));
        assert_eq!(w.remaining(), 5);
        assert_eq!(w.draw_replacement(), Some(t("6m")));
        assert_eq!(w.draw_replacement(), Some(t("5m")));
        assert_eq!(
            w.draw_replacement(),
            Some(t("3m")),
            "the tail passes over it"
        );
        let mut w = Wall::from_order(order.clone(), ReplacementEnd::Tail);
        w.turn_up_inside(2, |_| true);
        let live: Vec<Tile> = std::iter::from_fn(|| w.draw()).collect();
        assert_eq!(live, [t("1m"), t("2m"), t("3m"), t("5m"), t("6m")]);
        // A tile refused (a flower) is left in place and the next toward the tail is taken.
        let mut w = Wall::from_order(order, ReplacementEnd::Tail);
        assert_eq!(w.turn_up_inside(2, |x| x != t("4m")), Some(t("3m")));
        assert_eq!(w.turn_up_inside(9, |_| true), None);
    }

    #[test]
    fn ends_and_reserve() {
        let set = TileSetKind::Flowers144;
        assert_eq!(set.tiles().len(), 144);
        assert_eq!(TileSetKind::Honors136.tiles().len(), 136);
        let mut w = Wall::from_order(set.tiles(), ReplacementEnd::Tail);
        w.set_reserve(14);
        assert_eq!(w.drawable(), 130);
        assert_eq!(
            w.draw_replacement().map(|t| t.to_string()),
            Some("8f".into())
        );
        assert_eq!(w.drawable(), 130, "a replacement comes out of the reserve");
        for _ in 0..130 {
            assert!(w.draw().is_some());
        }
        assert_eq!(w.draw(), None);
        assert_eq!(w.remaining(), 13);
    }
}
