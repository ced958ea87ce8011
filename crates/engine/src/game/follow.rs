//! Go-arounds in which the other three follow the dealer's discard with the same tile (烧庄 in
//! Beijing, 跟庄 in its 2020 rules), counted from the dealer's first discard while no claim or
//! kong breaks the turn order.

use crate::seat::Seat;
use crate::tile::Tile;

/// The run of followed go-arounds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Follow {
    /// Complete go-arounds of four equal discards.
    pub(crate) rounds: u32,
    /// The dealer's first discard (a wind there must be followed).
    pub(crate) dealer_first: Option<Tile>,
    /// The tile of the go-around in progress and how many have discarded it.
    current: Option<(Tile, u8)>,
    /// A go-around failed, or the order was broken: no more rounds count.
    broken: bool,
}

impl Follow {
    /// A discard by the seat `after_dealer` places after the dealer (0 for the dealer).
    pub(crate) fn discarded(&mut self, after_dealer: u8, tile: Tile) {
        if after_dealer == 0 && self.dealer_first.is_none() {
            self.dealer_first = Some(tile);
        }
        if self.broken {
            return;
        }
        self.current = match self.current {
            None if after_dealer == 0 => Some((tile, 1)),
            Some((t, n)) if t == tile && after_dealer == n => {
                if n == 3 {
                    self.rounds += 1;
                    None
                } else {
                    Some((t, n + 1))
                }
            }
            _ => {
                self.broken = true;
                None
            }
        };
    }

    /// A claim or a kong: the turn order is broken.
    pub(crate) fn interrupted(&mut self) {
        self.broken = true;
        self.current = None;
    }

    /// The wind `seat` must discard on its first discard if it holds it: the dealer's first
    /// discard, when that is a wind.
    pub(crate) fn forced_wind(&self, seat: Seat, dealer: Seat) -> Option<Tile> {
        self.dealer_first.filter(|t| seat != dealer && t.is_wind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().expect("tile")
    }

    #[test]
    fn rounds_count_until_a_go_around_breaks() {
        let mut f = Follow::default();
        for _ in 0..2 {
            for pos in 0..4 {
                f.discarded(pos, t("1z"));
            }
        }
        assert_eq!(f.rounds, 2);
        f.discarded(0, t("5m"));
        f.discarded(1, t("6m"));
        for pos in 0..4 {
            f.discarded(pos, t("2z"));
        }
        assert_eq!(f.rounds, 2, "a later matching go-around does not count");
        let mut f = Follow::default();
        f.discarded(0, t("1z"));
        f.interrupted();
        for pos in 1..4 {
            f.discarded(pos, t("1z"));
        }
        assert_eq!(f.rounds, 0);
        assert_eq!(f.dealer_first, Some(t("1z")));
    }
}
