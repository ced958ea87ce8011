//! Read access to a hand in play: what the table, the bots, the server and the tests may ask
//! of a [`Game`] without changing it (changes go through [`Game::apply`] only).

use super::{Game, Phase, SeatState};
use crate::action::Action;
use crate::event::Event;
use crate::ruleset::Ruleset;
use crate::seat::{Seat, Wind};
use crate::settle::{Carried, SettleError, Settlement, Win};
use crate::tile::Tile;
use crate::view::{PublicView, SeatView, Viewer};
use crate::wall::WildDraw;

impl Game {
    /// The ruleset.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }
    /// The seed the hand was dealt from.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The dealer.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }
    /// The prevalent wind.
    pub fn round_wind(&self) -> Wind {
        self.round_wind
    }
    /// The dice.
    pub fn dice(&self) -> [u8; 2] {
        self.dice
    }
    /// Seats at the table.
    pub fn players(&self) -> u8 {
        self.players
    }
    /// What carried into this hand.
    pub fn carried(&self) -> &Carried {
        &self.carried
    }
    /// Every event so far, with audiences.
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// The events `seat` may see.
    pub fn events_for(&self, seat: Seat) -> impl Iterator<Item = &Event> + '_ {
        self.events
            .iter()
            .filter(move |e| e.audience.includes(seat))
    }
    /// Every accepted action, in order (with the seed, the whole record of the hand).
    pub fn actions(&self) -> &[(Seat, Action)] {
        &self.actions
    }
    /// The wins so far.
    pub fn wins(&self) -> &[Win] {
        &self.wins
    }
    /// Whether the hand is over.
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Ended)
    }
    /// Whether the wall ran out.
    pub fn is_exhausted(&self) -> bool {
        self.exhausted
    }
    /// The settlement, once the hand is over.
    pub fn settlement(&self) -> Option<&Settlement> {
        self.outcome.as_ref().and_then(|o| o.as_ref().ok())
    }
    /// A settlement failure (an engine defect if it ever happens; kept, never panicked on).
    pub fn settle_error(&self) -> Option<&SettleError> {
        self.outcome.as_ref().and_then(|o| o.as_ref().err())
    }
    /// The indicator and wild kind of this hand, if its family has one.
    pub fn wild(&self) -> Option<WildDraw> {
        self.wild
    }
    /// Tiles left in the live wall.
    pub fn wall_drawable(&self) -> usize {
        self.wall.drawable()
    }
    /// What `seat` may know now.
    pub fn view(&self, seat: Seat) -> SeatView {
        SeatView::of(self, seat)
    }

    /// What a spectator may know now.
    pub fn public_view(&self) -> PublicView {
        PublicView::of(self, Viewer::Spectator)
    }

    /// The tiles turned up as bonus indicators (two-player 花牌); their kinds are the bonus
    /// kinds.
    pub fn bonus(&self) -> &[Tile] {
        &self.bonus
    }
    /// Whether `seat` has declared ready (报听).
    pub fn is_ready(&self, seat: Seat) -> bool {
        self.seats[seat].ready.is_some()
    }
    /// The seat whose turn it is (see [`crate::view::PublicView::turn`]).
    pub fn turn_seat(&self) -> Option<Seat> {
        match &self.phase {
            Phase::Turn(t) => Some(t.seat),
            Phase::DeclareVoid | Phase::Swap(_) => Some(self.dealer()),
            Phase::Claims(_) | Phase::LastDraw(_) | Phase::Ended => None,
        }
    }
    /// The seat drawing in the 海底捞月 phase, once it has begun.
    pub fn seabed_seat(&self) -> Option<Seat> {
        self.seabed.map(|s| s.seat)
    }

    /// The tile on offer in an open claim or robbing window.
    pub fn offered_tile(&self) -> Option<Tile> {
        match &self.phase {
            Phase::Claims(w) => Some(w.tile),
            _ => None,
        }
    }

    /// The tile on offer as `seat` may see it: a concealed kong's only by its declarer and the
    /// seats that may rob it.
    pub fn offered_tile_for(&self, seat: Seat) -> Option<Tile> {
        self.offered_tile_to(Viewer::Seat(seat))
    }

    /// The tile on offer in an open claim window, if `viewer` may see it: a spectator sees a
    /// discard's and an added kong's, never a concealed kong's.
    pub fn offered_tile_to(&self, viewer: Viewer) -> Option<Tile> {
        match (&self.phase, viewer) {
            (Phase::Claims(w), Viewer::Seat(seat)) if w.shows_tile_to(seat) => Some(w.tile),
            (Phase::Claims(w), Viewer::Spectator) if w.is_face_up() => Some(w.tile),
            _ => None,
        }
    }

    pub(crate) fn seat_state(&self, seat: Seat) -> &SeatState {
        &self.seats[seat]
    }
}
