//! Declaring ready (报听) and the 海底捞月 phase, for the families that have them (two-player).
//!
//! A seat that declares ready discards a tile that leaves its hand waiting; from then on its
//! hand does not change. The engine plays for it: each tile it draws that does not win is
//! discarded at once (a `Discarded` event like any other), and when a drawn tile or a discard
//! would win, the seat is asked only whether to win (`SelfDrawWin` / `Win`, or `Pass`). These
//! automatic discards are part of [`Game::apply`]'s effect, so a hand's action list still
//! replays it exactly.
//!
//! When the wall runs out, the family may give one waiting seat extra draws from the tiles set
//! aside (海底捞月): the first-ready seat, i.e. the earlier 报听, else the seat whose hand has
//! been waiting since the earlier discard. Its hand is locked in the same way, and its
//! non-winning draws are discarded without a claim window.

use super::{Game, Phase, Turn};
use crate::action::Action;
use crate::event::{Audience, EventKind};
use crate::seat::Seat;
use crate::tile::Tile;

/// A seat's 报听.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Declared {
    /// The discard count of the declaring discard (earlier declarations rank first).
    pub at: u32,
    /// 天听: the seat's first discard, before any claim or kong, and (for a non-dealer) the
    /// tile it had just drawn.
    pub first_turn: bool,
}

/// The 海底捞月 phase in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seabed {
    /// The drawing seat.
    pub seat: Seat,
    /// Draws still to come.
    pub left: u8,
}

impl Game {
    /// Whether `seat`'s hand is locked: declared ready, or drawing in the 海底捞月 phase.
    pub(super) fn is_locked(&self, seat: Seat) -> bool {
        self.seats[seat].ready.is_some() || self.seabed.is_some_and(|s| s.seat == seat)
    }

    /// Whether `seat`'s concealed tiles and melds (a hand between turns) wait on a tile that
    /// can still exist: not one it holds all four of.
    pub(crate) fn is_waiting(&self, seat: Seat) -> bool {
        let st = &self.seats[seat];
        let forms = self.ruleset.rules().flow().forms;
        let melds = st.melds.len() as u8;
        let held = self.seat_hand(seat, None).all_tiles();
        crate::shape::waits(&st.concealed, melds, forms)
            .iter()
            .any(|t| held.get(t) < 4)
    }

    /// The `DeclareReady` options of a seat on its turn: each discard that leaves it waiting.
    pub(super) fn ready_options(&self, seat: Seat, discards: &[Action]) -> Vec<Action> {
        let mut out = Vec::new();
        let forms = self.ruleset.rules().flow().forms;
        let st = &self.seats[seat];
        let melds = st.melds.len() as u8;
        let mut held = self.seat_hand(seat, None).all_tiles();
        for a in discards {
            let Action::Discard { tile } = *a else {
                continue;
            };
            let mut rest = st.concealed;
            rest.remove(tile);
            held.remove(tile);
            let waits = crate::shape::waits(&rest, melds, forms);
            if waits.iter().any(|t| held.get(t) < 4) {
                out.push(Action::DeclareReady { tile });
            }
            held.add(tile);
        }
        out
    }

    /// 报听 with the discard of `tile`.
    pub(super) fn declare_ready(&mut self, seat: Seat, tile: Tile) {
        let Phase::Turn(turn) = self.phase else {
            return;
        };
        let st = &self.seats[seat];
        let first_turn = self.untouched
            && !st.has_discarded
            && (seat == self.dealer || turn.drawn == Some(tile));
        self.seats[seat].ready = Some(Declared {
            at: self.discards_made + 1,
            first_turn,
        });
        self.emit(
            Audience::Everyone,
            EventKind::ReadyDeclared { seat, first_turn },
        );
        self.discard(seat, tile);
    }

    /// `Pass`: on a claim or robbing window, the seat's answer; on a locked seat's own turn,
    /// "no win": the engine discards the drawn tile.
    pub(super) fn pass(&mut self, seat: Seat) {
        match self.phase {
            Phase::Turn(Turn {
                drawn: Some(tile), ..
            }) => {
                self.emit(Audience::Seat(seat), EventKind::Passed { seat });
                self.discard(seat, tile);
            }
            _ => self.respond(seat, Action::Pass),
        }
    }

    /// Plays the turns of locked seats that have nothing to decide: each drawn tile that does
    /// not win is discarded, until some seat has a decision or the hand ends.
    pub(super) fn run_automatic(&mut self) {
        while let Phase::Turn(turn) = self.phase {
            let Some(tile) = turn.drawn else { break };
            if !self.is_locked(turn.seat) || !self.turn_actions(&turn).is_empty() {
                break;
            }
            self.discard(turn.seat, tile);
        }
    }

    /// After `seat`'s discard: whether its hand now waits, and since when (first-ready rule).
    pub(super) fn note_waiting(&mut self, seat: Seat) {
        if self.ruleset.rules().flow().seabed_draws == 0 {
            return;
        }
        let waiting = self.is_waiting(seat);
        let since = self.discards_made;
        let st = &mut self.seats[seat];
        st.waiting_since = if waiting {
            st.waiting_since.or(Some(since))
        } else {
            None
        };
    }

    /// The wall has run out: the 海底捞月 phase for the first-ready waiting seat, where the
    /// family has it; else the hand is drawn.
    pub(super) fn wall_ran_out(&mut self) {
        let draws = self.ruleset.rules().flow().seabed_draws;
        let first_ready = self
            .table_seats()
            .filter(|&s| draws > 0 && self.seats[s].won.is_none() && self.is_waiting(s))
            .min_by_key(|&s| {
                let st = &self.seats[s];
                (
                    st.ready.map_or(u32::MAX, |r| r.at),
                    st.waiting_since.unwrap_or(u32::MAX),
                )
            });
        match first_ready {
            Some(seat) => {
                self.seabed = Some(Seabed { seat, left: draws });
                self.emit(Audience::Everyone, EventKind::SeabedStarted { seat, draws });
                self.seabed_draw(seat);
            }
            None => self.finish(true),
        }
    }

    /// The next 海底捞月 draw, or a drawn hand when none is left.
    pub(super) fn seabed_draw(&mut self, seat: Seat) {
        let Some(phase) = self.seabed.as_mut().filter(|p| p.left > 0) else {
            self.finish(true);
            return;
        };
        phase.left -= 1;
        let Some(tile) = self.wall.draw_unused() else {
            self.finish(true);
            return;
        };
        self.take_drawn(seat, tile, false);
        self.phase = Phase::Turn(Turn {
            seat,
            drawn: Some(tile),
            after_kong: false,
            last_tile: false,
            forced_zone: false,
        });
    }
}
