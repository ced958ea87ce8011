//! What one seat may know: the only redacted projection of a hand.
//!
//! A [`SeatView`] holds the seat's own concealed tiles and, for every seat, only public facts:
//! melds (a concealed kong's kind hidden from the others), discards, flowers, how many concealed
//! tiles it holds, its 定缺 once revealed, and whether it has won. By construction it has no
//! field for another seat's concealed tiles or for the wall order.

use crate::action::Action;
use crate::game::Game;
use crate::meld::{KongKind, Meld, MeldKind};
use crate::seat::{Seat, Wind};
use crate::settle::Win;
use crate::tile::{Suit, Tile};

/// A meld as one seat sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MeldView {
    /// Face up.
    Open(Meld),
    /// Another seat's concealed kong: face down.
    HiddenKong,
}

/// Public facts about one seat.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PublicSeat {
    /// Melds.
    pub melds: Vec<MeldView>,
    /// Discards still in front of the seat.
    pub discards: Vec<Tile>,
    /// Flowers set aside.
    pub flowers: Vec<Tile>,
    /// Number of concealed tiles.
    pub concealed_count: u32,
    /// Its 定缺, once every seat has declared.
    pub void: Option<Suit>,
    /// Its win, if it has won.
    pub won: Option<Win>,
    /// Whether the seat has declared ready (报听, two-player): the engine now discards for it.
    pub ready: bool,
}

/// What one seat may know now.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SeatView {
    /// Whose view.
    pub seat: Seat,
    /// The ruleset being played (preset and room options are public).
    pub ruleset: crate::ruleset::Ruleset,
    /// The tiles the hand is played with (which kinds exist, and how many of each).
    pub tile_set: crate::wall::TileSetKind,
    /// The dealer.
    pub dealer: Seat,
    /// The prevalent wind.
    pub round_wind: Wind,
    /// The dice.
    pub dice: [u8; 2],
    /// Tiles left in the live wall.
    pub wall_drawable: usize,
    /// The indicator and wild kind, where the family has one (public).
    pub wild: Option<crate::wall::WildDraw>,
    /// The tiles turned up as bonus indicators (two-player 花牌, public); their kinds score.
    pub bonus: Vec<Tile>,
    /// The seat drawing in the 海底捞月 phase, once the wall has run out (two-player).
    pub seabed: Option<Seat>,
    /// Own concealed tiles (`to_tiles()` lists them sorted).
    pub concealed: crate::tiles::TileCounts,
    /// Own 定缺 (known to self before the reveal).
    pub own_void: Option<Suit>,
    /// Every seat's public facts, by seat.
    pub seats: Vec<PublicSeat>,
    /// The tiles this seat has marked to give back in the swap phase (开始时换牌; its own).
    pub swap_marked: Vec<Tile>,
    /// What this seat may do now.
    pub legal: Vec<Action>,
    /// The tile on offer in an open claim window (a discard or a kong being added).
    pub last_discard: Option<Tile>,
    /// Whether the hand is over.
    pub over: bool,
    /// The seat whose turn it is (see [`PublicView::turn`]).
    pub turn: Option<Seat>,
}

/// Who looks at a hand: a seat, or a spectator (who is no seat, and sees only what every seat
/// may see).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Viewer {
    /// A player, at its seat.
    Seat(Seat),
    /// A spectator.
    Spectator,
}

impl Viewer {
    /// Whether this viewer sees `seat`'s concealed tiles (its own, and no one else's).
    fn is(self, seat: Seat) -> bool {
        self == Viewer::Seat(seat)
    }
}

/// What a spectator may know now: every seat's public facts, no one's concealed tiles, every
/// concealed kong face down, and the tile on offer only when it is face up.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PublicView {
    /// The dealer.
    pub dealer: Seat,
    /// The prevalent wind.
    pub round_wind: Wind,
    /// The dice.
    pub dice: [u8; 2],
    /// Tiles left in the live wall.
    pub wall_drawable: usize,
    /// The indicator and wild kind, where the family has one.
    pub wild: Option<crate::wall::WildDraw>,
    /// The tiles turned up as bonus indicators (two-player 花牌).
    pub bonus: Vec<Tile>,
    /// The seat drawing in the 海底捞月 phase (two-player).
    pub seabed: Option<Seat>,
    /// Every seat's public facts, by seat.
    pub seats: Vec<PublicSeat>,
    /// The tile on offer in an open claim window, when this viewer may see it.
    pub offered: Option<Tile>,
    /// Whether the hand is over.
    pub over: bool,
    /// The seat whose turn it is: the one holding a turn's tiles, which discards next (the
    /// dealer from the deal until its first discard, through 定缺 and the swap). `None` while a
    /// claim or robbing window is open, while the last tile is offered (海底), and once the hand
    /// is over.
    pub turn: Option<Seat>,
}

impl PublicView {
    /// The table as `viewer` sees it: a seat sees its own concealed kongs face up, and the
    /// tile a concealed kong offers when it declared it or may rob it.
    pub(crate) fn of(game: &Game, viewer: Viewer) -> PublicView {
        let revealed = game
            .table_seats()
            .all(|s| game.seat_state(s).void.is_some());
        let seats = game
            .table_seats()
            .map(|s| {
                let st = game.seat_state(s);
                let melds = st
                    .melds
                    .iter()
                    .map(|m| match m.meld.kind {
                        MeldKind::Kong(KongKind::Concealed) if !viewer.is(s) => {
                            MeldView::HiddenKong
                        }
                        _ => MeldView::Open(m.meld),
                    })
                    .collect();
                PublicSeat {
                    melds,
                    discards: st.discards.clone(),
                    flowers: st.flowers.clone(),
                    concealed_count: st.concealed.total(),
                    void: if revealed { st.void } else { None },
                    won: st.won,
                    ready: st.ready.is_some(),
                }
            })
            .collect();
        PublicView {
            dealer: game.dealer(),
            round_wind: game.round_wind(),
            dice: game.dice(),
            wall_drawable: game.wall_drawable(),
            wild: game.wild(),
            bonus: game.bonus().to_vec(),
            seabed: game.seabed_seat(),
            seats,
            offered: game.offered_tile_to(viewer),
            over: game.is_over(),
            turn: game.turn_seat(),
        }
    }
}

impl SeatView {
    /// The table as this seat sees it, without its own tiles (its concealed kongs stay face up,
    /// and a tile on offer that only it may see stays shown).
    pub fn public(&self) -> PublicView {
        PublicView {
            dealer: self.dealer,
            round_wind: self.round_wind,
            dice: self.dice,
            wall_drawable: self.wall_drawable,
            wild: self.wild,
            bonus: self.bonus.clone(),
            seabed: self.seabed,
            seats: self.seats.clone(),
            offered: self.last_discard,
            over: self.over,
            turn: self.turn,
        }
    }

    pub(crate) fn of(game: &Game, seat: Seat) -> SeatView {
        let table = PublicView::of(game, Viewer::Seat(seat));
        let own = game.seat_state(seat);
        SeatView {
            seat,
            ruleset: game.ruleset().clone(),
            tile_set: game.ruleset().rules().flow().tiles,
            dealer: table.dealer,
            round_wind: table.round_wind,
            dice: table.dice,
            wall_drawable: table.wall_drawable,
            wild: table.wild,
            bonus: table.bonus,
            seabed: table.seabed,
            concealed: own.concealed,
            own_void: own.void,
            seats: table.seats,
            swap_marked: game.swap_marked(seat).to_vec(),
            legal: game.legal_actions(seat).to_vec(),
            last_discard: table.offered,
            over: table.over,
            turn: table.turn,
        }
    }
}
