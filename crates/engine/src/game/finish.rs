//! The end of a hand: the finished-hand record, its settlement, and the tile census.

use super::{Game, Phase};
use crate::event::{Audience, EventKind};
use crate::seat::BySeat;
use crate::settle::{FinishedHand, SeatHand};
use crate::tile::Tile;

impl Game {
    /// Ends the hand and settles it through the rule family.
    pub(super) fn finish(&mut self, exhausted: bool) {
        self.exhausted = exhausted;
        self.phase = Phase::Ended;
        let hand = self.finished_hand();
        let outcome = self.ruleset.settle(&hand);
        if let Ok(settlement) = &outcome {
            let hands = Box::new(self.seats.map(|_, s| s.concealed.to_tiles()));
            self.emit(
                Audience::Everyone,
                EventKind::HandEnded {
                    exhausted,
                    hands,
                    settlement: Box::new(settlement.clone()),
                    wall: self.wall.drawable(),
                },
            );
        }
        self.outcome = Some(outcome);
    }

    /// The hand as the settlement sees it; winners' concealed tiles are those they won with.
    pub fn finished_hand(&self) -> FinishedHand {
        FinishedHand {
            players: self.players,
            dealer: self.dealer,
            round_wind: self.round_wind,
            wild: self.wild.map(|w| w.wild),
            bonus: self.bonus.clone(),
            dice: Some(self.dice),
            seats: BySeat::from_fn(|s| {
                let st = &self.seats[s];
                SeatHand {
                    concealed: st.concealed,
                    melds: st.melds.clone(),
                    flowers: st.flowers.clone(),
                    void: st.void,
                }
            }),
            wins: self.wins.clone(),
            carried: self.carried_at_end(),
        }
    }

    /// The carried state with what this hand adds to it for settling (烧庄 rounds).
    fn carried_at_end(&self) -> crate::settle::Carried {
        let mut carried = self.carried.clone();
        if self.ruleset.rules().flow().follow_dealer.counted() {
            carried.shaozhuang_rounds = self.follow.rounds;
        }
        carried
    }

    /// Copies of every kind wherever they are (wall, hands, melds, discards, flowers, winning
    /// tiles). Always equals the tile set: the conservation invariant tests check.
    pub fn census(&self) -> [u32; Tile::ALL_KINDS] {
        let mut n = [0u32; Tile::ALL_KINDS];
        for &t in self.wall.live_and_tail() {
            n[t.index()] += 1;
        }
        if let Some(w) = self.wild {
            n[w.indicator.index()] += 1;
        }
        for &t in self.wall.unused().iter().chain(self.bonus.iter()) {
            n[t.index()] += 1;
        }
        for s in self.table_seats() {
            let st = &self.seats[s];
            for t in st.concealed.to_tiles() {
                n[t.index()] += 1;
            }
            for m in &st.melds {
                for t in m.meld.tiles() {
                    n[t.index()] += 1;
                }
            }
            for &t in st.discards.iter().chain(st.flowers.iter()) {
                n[t.index()] += 1;
            }
            if let (Some(w), true) = (st.won, st.holds_win_tile) {
                n[w.tile.index()] += 1;
            }
        }
        n
    }
}
