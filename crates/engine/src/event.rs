//! Events a hand emits, each with the audience allowed to see it.
//!
//! Hidden information is decided here, once: a tile drawn is told to its drawer only, the
//! others hear that a draw happened; a swap's marks and tiles (开始时换牌) are told to the
//! swapping seat only, the others hear how many; a concealed kong's kind is told to its owner
//! only. The server sends each seat exactly the events whose audience includes it.

use crate::meld::Meld;
use crate::seat::{BySeat, Seat, Wind};
use crate::settle::{Settlement, Win};
use crate::tile::{Suit, Tile};

/// Who may see an event.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Audience {
    /// Every seat and spectators.
    Everyone,
    /// One seat only.
    Seat(Seat),
    /// Everyone except one seat (the public twin of a private event).
    AllBut(Seat),
}

impl Audience {
    /// Whether someone at no seat (a spectator) may see the event: it is public, or the public
    /// twin of a private one.
    pub fn is_public(self) -> bool {
        matches!(self, Audience::Everyone | Audience::AllBut(_))
    }

    /// Whether `seat` may see the event.
    pub fn includes(self, seat: Seat) -> bool {
        match self {
            Audience::Everyone => true,
            Audience::Seat(s) => s == seat,
            Audience::AllBut(s) => s != seat,
        }
    }
}

/// One event and its audience.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Event {
    /// Who may see it.
    pub audience: Audience,
    /// What happened.
    pub kind: EventKind,
}

/// What happened.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EventKind {
    /// A hand began.
    HandStarted {
        /// The dealer.
        dealer: Seat,
        /// The prevalent wind.
        round_wind: Wind,
        /// The dice.
        dice: [u8; 2],
        /// Tiles in the wall after the deal.
        wall: usize,
    },
    /// An indicator was turned up after the deal; it names the wild kind (惠牌 / 财神).
    WildTurned {
        /// The tile turned up.
        indicator: Tile,
        /// The wild kind.
        wild: Tile,
        /// Tiles still drawable in turn after it.
        wall: usize,
    },
    /// A tile of the set-aside tiles was turned face up after the deal; its kind is a bonus
    /// kind (two-player 花牌).
    BonusTurned {
        /// The tile turned up.
        tile: Tile,
    },
    /// A seat's dealt tiles (to that seat).
    Dealt {
        /// The seat.
        seat: Seat,
        /// Its tiles.
        tiles: Vec<Tile>,
    },
    /// How many tiles a seat was dealt (to the others).
    DealtHidden {
        /// The seat.
        seat: Seat,
        /// How many.
        count: usize,
    },
    /// A flower was set aside and replaced; flowers are public.
    FlowerReplaced {
        /// The seat.
        seat: Seat,
        /// The flower.
        flower: Tile,
        /// It was dealt, so it leaves the seat's concealed tiles; a flower drawn (in play, or as
        /// a replacement) never entered them.
        dealt: bool,
    },
    /// A draw; `tile` only in the drawer's copy.
    Drew {
        /// The drawer.
        seat: Seat,
        /// The tile, for the drawer.
        tile: Option<Tile>,
        /// Whether it was a replacement draw.
        replacement: bool,
        /// Tiles still drawable in turn after it (a replacement taken from a kept-back reserve
        /// leaves it as it was; Beijing 保留牌).
        wall: usize,
    },
    /// A seat's own 定缺 choice (to that seat until all have chosen).
    VoidChosen {
        /// The seat.
        seat: Seat,
        /// The suit.
        suit: Suit,
    },
    /// Every seat's 定缺, revealed together.
    VoidsRevealed {
        /// Each seat's void.
        voids: BySeat<Option<Suit>>,
    },
    /// A discard.
    Discarded {
        /// The discarder.
        seat: Seat,
        /// The tile.
        tile: Tile,
    },
    /// A seat declined what it was offered (to that seat).
    Passed {
        /// The seat.
        seat: Seat,
    },
    /// A seat's claim (a chow, pung, kong or win) is in (to that seat only, as `Passed` is;
    /// every time, so that it says nothing of the other seats' answers).
    ClaimEntered {
        /// The seat.
        seat: Seat,
    },
    /// The seat due to draw the last drawable tile (海底) is asked whether to draw it, where
    /// the family lets it decline: no tile is on offer meanwhile.
    LastOffered {
        /// The seat.
        seat: Seat,
    },
    /// The seat due to draw the last drawable tile declined it; the hand ends drawn.
    LastDeclined {
        /// The seat.
        seat: Seat,
    },
    /// A seat declared ready (报听); its discard follows as a `Discarded` event. From now on the
    /// engine discards its drawn tiles that do not win.
    ReadyDeclared {
        /// The seat.
        seat: Seat,
        /// 天听: declared on the seat's first discard, before any claim or kong.
        first_turn: bool,
    },
    /// A seat marked a dealt tile to exchange (开始时换牌; to that seat only).
    SwapMarked {
        /// The seat.
        seat: Seat,
        /// The tile marked.
        tile: Tile,
    },
    /// A seat finished its swap (to that seat): the tiles it gave back to the set-aside pool
    /// and the tiles it received from it, in the same number.
    Swapped {
        /// The seat.
        seat: Seat,
        /// The tiles given back and received. Boxed: an event is the size of its largest
        /// kind, and a room keeps every event of the hand in play.
        exchange: Box<Exchange>,
    },
    /// How many tiles a seat exchanged (to the others): the tiles themselves stay hidden.
    SwappedHidden {
        /// The seat.
        seat: Seat,
        /// How many tiles it exchanged (perhaps none).
        count: usize,
    },
    /// The wall ran out and the 海底捞月 phase began: `seat`, the first-ready waiting seat,
    /// draws up to `draws` tiles from the set-aside tiles, each checked for a self-draw win.
    SeabedStarted {
        /// The drawing seat.
        seat: Seat,
        /// How many draws at most.
        draws: u8,
    },
    /// A kong declared that may be robbed (抢杠): every added kong, and a concealed kong where
    /// the family lets one be robbed. It comes whether or not any seat could rob it (so it tells
    /// nothing of the other hands); its `Melded` follows unless a win robs it. An added kong's
    /// tile is public; a concealed kong's is not shown (a seat that may rob it sees the tile on
    /// offer in its own view).
    KongOffered {
        /// The declarer.
        seat: Seat,
        /// The tile being added (`None` for a concealed kong).
        tile: Option<Tile>,
    },
    /// A claimed or declared meld; a concealed kong's kind only in the owner's copy.
    Melded {
        /// The seat.
        seat: Seat,
        /// The meld (for others, a concealed kong shows as `None`).
        meld: Option<Meld>,
    },
    /// A win; the winner's concealed tiles are shown.
    Won {
        /// The win.
        win: Win,
        /// The winner's concealed tiles, without the winning tile (a boxed slice, two words
        /// where a `Vec` is three: this kind sets an event's size).
        concealed: Box<[Tile]>,
    },
    /// The hand ended; every hand is shown.
    HandEnded {
        /// True when the wall ran out (a drawn hand or 血战 end of wall).
        exhausted: bool,
        /// Each seat's concealed tiles, boxed: inline, this once-a-hand event made every
        /// event of the hand 128 bytes, where the rest fit in 72, and a hand
        /// keeps its two hundred or so events for as long as it is played.
        hands: Box<BySeat<Vec<Tile>>>,
        /// The settlement.
        settlement: Box<Settlement>,
        /// Tiles still drawable in turn when it ended.
        wall: usize,
    },
}

/// The tiles of one seat's swap (换三张).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Exchange {
    /// The tiles given back, in the order marked.
    pub out: Vec<Tile>,
    /// The tiles received.
    pub received: Vec<Tile>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand keeps every event it made for as long as it is played, on every table a server
    /// holds: a large payload in one variant belongs in a box, not in every event.
    #[test]
    fn an_event_stays_small() {
        assert!(
            std::mem::size_of::<Event>() <= 40,
            "an event is {} bytes",
            std::mem::size_of::<Event>()
        );
    }
}
