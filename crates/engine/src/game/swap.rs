//! 开始时换牌: after the deal, where the family's room option allows it (two-player `swap`),
//! each seat exchanges any of its dealt tiles, once, before the dealer's first discard.
//!
//! **Actions.** [`Game::legal_actions`] cannot list every subset of a hand, so a swap is spelled
//! one tile at a time: `SwapMark { tile }` sets aside one held copy of `tile`, and `SwapDone`
//! ends the seat's swap, exchanging what it marked (perhaps nothing). The legal list names
//! every kind the seat still holds an unmarked copy of, and `SwapDone`, so it stays the one
//! source of truth. A mark is final: every mark starts a new decision on the server's clock, so
//! an undo would let a seat hold the table as long as it liked, while marks alone are bounded
//! by the fourteen tiles of a hand. A client that lets its player change their mind keeps the
//! selection itself and sends the marks on confirming.
//!
//! **Where the tiles go.** The replacements come from the tiles the family set aside out of
//! play (two-player: 65 of the 136, less the 花牌 indicators), from the top of that pile, and
//! the tiles given back go to its bottom, after the replacements are taken. So the 71 tiles of
//! the hand's wall stay as they were dealt: a swap never changes which tiles the other seat
//! will draw or how many draws the hand has, a seat never gets back a tile it gave away, and
//! the three 海底捞月 draws from the top of the pile never reach a returned tile. Drawing the
//! replacements from the live wall instead would shorten the hand by the number swapped and
//! move every later draw of both seats.
//!
//! **Order.** Both seats swap at the same time, as both declare 定缺 at the same time in the
//! families that have it: neither learns anything from the other's swap before making its own
//! (its count is only told once that seat is done), and an online table waits once, not twice.
//! Marks are taken from the pile only when a seat is done, in the order the seats finish.
//!
//! **Hidden information.** A seat's marks are told to it alone (`SwapMarked`); when it is done,
//! it is told the tiles it gave back and received (`Swapped`) and the others only how many
//! (`SwappedHidden`), as a draw is told to its drawer and counted to the others.
//!
//! **After.** When every seat is done the hand goes on as after an ordinary deal: the dealer
//! discards first. If the dealer gave back every copy of its fourteenth tile (its "draw" of
//! the first turn, which 天和 is judged on), the first tile it received takes that place; a
//! non-dealer whose hand now waits has waited since the deal (two-player's first-ready rule).

use super::{Game, Phase, Turn};
use crate::action::Action;
use crate::event::{Audience, EventKind};
use crate::seat::{BySeat, Seat, SeatSet};
use crate::tile::Tile;
use crate::tiles::TileCounts;

/// The swap phase in progress.
#[derive(Clone, Debug, Default)]
pub(crate) struct Swapping {
    /// Each seat's marked tiles, in the order marked; emptied when the seat is done.
    marked: BySeat<Vec<Tile>>,
    /// The seats that have finished their swap.
    done: SeatSet,
}

impl Swapping {
    /// Tiles marked by every seat still swapping: what the set-aside pile must still cover.
    fn pending(&self) -> usize {
        self.marked.iter().map(|(_, m)| m.len()).sum()
    }
}

impl Game {
    /// Where the deal leaves the hand: the swap phase when the family's option is on, else the
    /// first turn (or 定缺).
    pub(super) fn after_deal(&mut self) {
        if self.ruleset.rules().flow().swaps_dealt() {
            self.phase = Phase::Swap(Box::default());
        } else {
            self.begin_play();
        }
    }

    /// The legal actions of `seat` in the swap phase: a mark for every kind it holds an
    /// unmarked copy of (while the set-aside pile can cover one more), and `SwapDone`.
    pub(super) fn swap_actions(&self, swap: &Swapping, seat: Seat) -> Vec<Action> {
        if swap.done.contains(seat) {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.wall.unused().len() > swap.pending() {
            let marked = TileCounts::from_tiles(&swap.marked[seat]);
            let held = &self.seats[seat].concealed;
            out.extend(
                held.kinds()
                    .iter()
                    .filter(|&t| held.get(t) > marked.get(t))
                    .map(|tile| Action::SwapMark { tile }),
            );
        }
        out.push(Action::SwapDone);
        out
    }

    /// `SwapMark`: one more copy of `tile` to give back.
    pub(super) fn swap_mark(&mut self, seat: Seat, tile: Tile) {
        let Phase::Swap(swap) = &mut self.phase else {
            return;
        };
        swap.marked[seat].push(tile);
        self.emit(Audience::Seat(seat), EventKind::SwapMarked { seat, tile });
    }

    /// `SwapDone`: exchanges the seat's marked tiles, and starts play once every seat is done.
    pub(super) fn swap_done(&mut self, seat: Seat) {
        let players = self.players;
        let Phase::Swap(swap) = &mut self.phase else {
            return;
        };
        let marked = std::mem::take(&mut swap.marked[seat]);
        swap.done.insert(seat);
        let everyone_done = swap.done == SeatSet::all(players);
        // The legal list offers a mark only while the pile covers it, so the exchange succeeds;
        // were it ever refused, the seat keeps its hand.
        let (out, received) = match self.wall.exchange_unused(&marked) {
            Some(received) => (marked, received),
            None => (Vec::new(), Vec::new()),
        };
        self.exchange_in_hand(seat, &out, &received);
        let count = out.len();
        self.emit(
            Audience::Seat(seat),
            EventKind::Swapped {
                seat,
                exchange: Box::new(crate::event::Exchange { out, received }),
            },
        );
        self.emit(
            Audience::AllBut(seat),
            EventKind::SwappedHidden { seat, count },
        );
        if everyone_done {
            self.begin_play();
        }
    }

    /// Takes `out` from the seat's concealed tiles and adds `received`; keeps the dealer's
    /// opening tile one it still holds.
    fn exchange_in_hand(&mut self, seat: Seat, out: &[Tile], received: &[Tile]) {
        let hand = &mut self.seats[seat].concealed;
        for &t in out {
            hand.remove(t);
        }
        for &t in received {
            hand.add(t);
        }
        if seat == self.dealer
            && let Some(t) = self.opening_tile
            && self.seats[seat].concealed.get(t) == 0
        {
            self.opening_tile = received.first().copied();
        }
    }

    /// The first decision of the hand once the tiles are final: the dealer's turn, or 定缺.
    pub(super) fn begin_play(&mut self) {
        if self.ruleset.rules().flow().seabed_draws > 0 {
            // A non-dealer's dealt hand may already wait: it has waited since the deal.
            for s in self.table_seats().filter(|&s| s != self.dealer) {
                self.seats[s].waiting_since = self.is_waiting(s).then_some(0);
            }
        }
        let first = Turn {
            seat: self.dealer,
            drawn: self.opening_tile,
            after_kong: false,
            last_tile: false,
            forced_zone: false,
        };
        self.phase = if self.rules_declare_void() {
            Phase::DeclareVoid
        } else {
            Phase::Turn(first)
        };
    }

    /// The tiles `seat` has marked to give back, during the swap phase (its own knowledge).
    pub fn swap_marked(&self, seat: Seat) -> &[Tile] {
        match &self.phase {
            Phase::Swap(swap) => swap.marked.0.get(seat.index()).map_or(&[], Vec::as_slice),
            _ => &[],
        }
    }

    /// Whether the hand is in its swap phase (开始时换牌): some seat has not finished its swap.
    pub fn is_swapping(&self) -> bool {
        matches!(self.phase, Phase::Swap(_))
    }
}
