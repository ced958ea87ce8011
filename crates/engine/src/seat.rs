//! Seats, winds and per-seat storage.

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// A seat at the table, numbered `0..4` in turn order. Two-player tables use seats 0 and 1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Seat(u8);

impl Seat {
    /// The four seats in turn order.
    pub const ALL: [Seat; 4] = [Seat(0), Seat(1), Seat(2), Seat(3)];

    /// Seat `i` if `i < 4`.
    pub const fn new(i: u8) -> Option<Seat> {
        if i < 4 { Some(Seat(i)) } else { None }
    }

    /// The index `0..4`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The next seat in turn order (下家) at a table of `players` seats.
    pub const fn next(self, players: u8) -> Seat {
        Seat((self.0 + 1) % players)
    }

    /// How many turns after `from` this seat plays (0 when equal).
    pub const fn distance_from(self, from: Seat, players: u8) -> u8 {
        (self.0 + players - from.0) % players
    }

    /// The seat wind of this seat in a hand dealt by `dealer`: the dealer is East.
    pub const fn wind(self, dealer: Seat, players: u8) -> Wind {
        Wind::ALL[self.distance_from(dealer, players) as usize]
    }
}

impl TryFrom<u8> for Seat {
    type Error = String;
    fn try_from(v: u8) -> Result<Self, String> {
        Seat::new(v).ok_or_else(|| format!("seat {v} is out of range 0..4"))
    }
}

impl From<Seat> for u8 {
    fn from(s: Seat) -> u8 {
        s.0
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seat({})", self.0)
    }
}

/// A wind: seat wind (门风) or round wind (圈风).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Wind {
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

impl Wind {
    /// In order 东南西北.
    pub const ALL: [Wind; 4] = [Wind::East, Wind::South, Wind::West, Wind::North];

    /// The honor tile of this wind (`1z`..`4z`).
    pub fn tile(self) -> crate::Tile {
        let rank = self as u8 + 1;
        crate::Tile::new(crate::Suit::Honor, rank)
            .unwrap_or_else(|| unreachable!("winds are 1z..4z"))
    }

    /// The next wind in round order.
    pub const fn next(self) -> Wind {
        Wind::ALL[(self as usize + 1) % 4]
    }
}

/// One value per seat. Indexing by [`Seat`] replaces `[T; 4]` indexed by `usize`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct BySeat<T>(pub [T; 4]);

impl<T> BySeat<T> {
    /// Builds from a function of the seat.
    pub fn from_fn(mut f: impl FnMut(Seat) -> T) -> Self {
        BySeat(std::array::from_fn(|i| f(Seat(i as u8))))
    }

    /// Iterates over `(seat, &value)`.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Seat(i as u8), v))
    }

    /// Maps each value.
    pub fn map<U>(&self, mut f: impl FnMut(Seat, &T) -> U) -> BySeat<U> {
        BySeat::from_fn(|s| f(s, &self.0[s.index()]))
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, s: Seat) -> &T {
        &self.0[s.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, s: Seat) -> &mut T {
        &mut self.0[s.index()]
    }
}

/// A set of seats (who has won, who pays).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct SeatSet(u8);

impl SeatSet {
    /// No seats.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The first `players` seats.
    pub const fn all(players: u8) -> SeatSet {
        SeatSet((1 << players) - 1)
    }
    /// Adds a seat.
    pub fn insert(&mut self, s: Seat) {
        self.0 |= 1 << s.0;
    }
    /// Removes a seat.
    pub fn remove(&mut self, s: Seat) {
        self.0 &= !(1 << s.0);
    }
    /// Membership.
    pub const fn contains(self, s: Seat) -> bool {
        self.0 & (1 << s.0) != 0
    }
    /// Number of seats.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// Whether empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The seats in order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        Seat::ALL.into_iter().filter(move |&s| self.contains(s))
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut set = SeatSet::EMPTY;
        for s in iter {
            set.insert(s);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_order_and_winds() {
        let s = |i| Seat::new(i).expect("seat");
        assert_eq!(s(3).next(4), s(0));
        assert_eq!(s(1).next(2), s(0));
        assert_eq!(s(2).wind(s(1), 4), Wind::South);
        assert_eq!(s(0).wind(s(1), 4), Wind::North);
        assert_eq!(s(0).distance_from(s(3), 4), 1);
        assert!(Seat::new(4).is_none());
    }
}
