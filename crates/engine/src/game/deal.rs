//! Dealing a hand: the dice break, thirteen tiles each and a fourteenth to the dealer, the
//! indicator, and 补花; then the swap phase where the room has it (`swap.rs`), or play.

use super::{Game, Replacement};
use crate::event::{Audience, EventKind};
use crate::seat::{BySeat, Seat};
use crate::tile::Tile;

impl Game {
    pub(super) fn deal(&mut self) {
        let order: Vec<Seat> = (0..self.players)
            .map(|i| self.seat_after(self.dealer, i))
            .collect();
        let mut dealt: BySeat<Vec<Tile>> = BySeat::default();
        for &s in &order {
            for _ in 0..13 {
                if let Some(t) = self.wall.draw() {
                    dealt[s].push(t);
                }
            }
        }
        let fourteenth = self.wall.draw();
        if let Some(t) = fourteenth {
            dealt[self.dealer].push(t);
        }
        self.emit(
            Audience::Everyone,
            EventKind::HandStarted {
                dealer: self.dealer,
                round_wind: self.round_wind,
                dice: self.dice,
                wall: self.wall.drawable(),
            },
        );
        for &s in &order {
            for &t in &dealt[s] {
                if t.is_flower() {
                    self.seats[s].flowers.push(t);
                } else {
                    self.seats[s].concealed.add(t);
                }
            }
            self.emit(
                Audience::Seat(s),
                EventKind::Dealt {
                    seat: s,
                    tiles: dealt[s].clone(),
                },
            );
            self.emit(
                Audience::AllBut(s),
                EventKind::DealtHidden {
                    seat: s,
                    count: dealt[s].len(),
                },
            );
        }
        self.wild = self.ruleset.rules().wild_tile(&mut self.wall, self.dice);
        if let Some(w) = self.wild {
            self.emit(
                Audience::Everyone,
                EventKind::WildTurned {
                    indicator: w.indicator,
                    wild: w.wild,
                    wall: self.wall.drawable(),
                },
            );
        }
        for _ in 0..self.ruleset.rules().flow().bonus_indicators {
            // Each indicator names a kind not named yet.
            let named = self.bonus.clone();
            let Some(tile) = self.wall.turn_up_unused(|t| !named.contains(&t)) else {
                break;
            };
            self.bonus.push(tile);
            self.emit(Audience::Everyone, EventKind::BonusTurned { tile });
        }
        // 补花 after the deal, dealer first; a flower dealt as the 14th leaves the dealer with a
        // replacement as its "drawn" tile.
        let mut drawn = fourteenth.filter(|t| !t.is_flower());
        for &s in &order {
            let flowers: Vec<Tile> = dealt[s].iter().copied().filter(|t| t.is_flower()).collect();
            for f in flowers {
                self.emit(
                    Audience::Everyone,
                    EventKind::FlowerReplaced {
                        seat: s,
                        flower: f,
                        dealt: true,
                    },
                );
                if let Replacement::Tile(t) = self.replacement_for(s, false)
                    && s == self.dealer
                {
                    drawn = Some(t);
                }
            }
        }
        for &s in &order {
            if self.holds_all_flowers(s) {
                return;
            }
        }
        self.opening_tile = drawn;
        self.after_deal();
    }
}

impl Game {
    /// A seat that holds every flower once the deal's 补花 is done wins with the last it set
    /// aside (八花齐) where its family allows, before the dealer's first discard: the deal
    /// completes first so every seat holds its full hand.
    fn holds_all_flowers(&mut self, seat: Seat) -> bool {
        if self.seats[seat].flowers.len() < 8 {
            return false;
        }
        let Some(last) = self.seats[seat].flowers.pop() else {
            return false;
        };
        if self.flower_wins(seat, last) {
            return true;
        }
        self.seats[seat].flowers.push(last);
        false
    }
}

/// Where the live wall starts, from the dice: the sum picks a side counted from the dealer and
/// then `stacks` stacks into it (the sum again in most families), two tiles per stack.
pub(super) fn break_position(dice: [u8; 2], stacks: u8, tiles: usize) -> usize {
    let sum = usize::from(dice[0] + dice[1]);
    let stacks_per_side = tiles / 8;
    let side = (sum.max(1) - 1) % 4;
    ((side * stacks_per_side + usize::from(stacks)) * 2) % tiles.max(1)
}
