//! Finished hands and their settlement: the one place a hand's score is decided.
//!
//! The state machine builds a [`FinishedHand`] when a hand ends and has its ruleset settle it
//! ([`crate::ruleset::Ruleset::settle`]); `mahjong settle` builds the same structure from JSON.
//! So the CLI, the server and replays share one scoring path, and every hand passes the
//! [`referee`]'s checks before its family scores it.

use thiserror::Error;

pub mod referee;

use crate::meld::Meld;
use crate::seat::{BySeat, Seat, SeatSet, Wind};
use crate::tile::{Suit, Tile};
use crate::tiles::TileCounts;

/// A declared meld as it stands at the end of the hand, with who was still playing when it was
/// made (血战 kong money is paid only by those).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlacedMeld {
    /// The meld.
    pub meld: Meld,
    /// Seats still in the hand (not yet won) when it was made.
    pub in_play: SeatSet,
}

/// One seat's tiles at the end of the hand (a winner's tiles as they were when it won).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SeatHand {
    /// Concealed tiles, without any winning tile.
    pub concealed: TileCounts,
    /// Declared melds.
    pub melds: Vec<PlacedMeld>,
    /// Flowers set aside.
    pub flowers: Vec<Tile>,
    /// The suit declared void (定缺), where the family has the declaration.
    pub void: Option<Suit>,
}

impl SeatHand {
    /// Concealed tiles plus every meld tile (kongs count four).
    pub fn all_tiles(&self) -> TileCounts {
        let mut c = self.concealed;
        for m in &self.melds {
            for t in m.meld.tiles() {
                c.add(t);
            }
        }
        c
    }

    /// Whether the seat's tiles were given at all. The settle format lets a seat "whose hand does
    /// not matter" be written `{"concealed": ""}`; such a seat is exempt from the tile-count
    /// check and takes no part in end-of-wall checks such as 查叫 (a seat in play always holds
    /// tiles, so this never applies in play).
    pub fn is_given(&self) -> bool {
        self.concealed.total() > 0 || !self.melds.is_empty()
    }

    /// Whether no chow, pung or exposed/added kong has been declared (门清).
    pub fn is_concealed(&self) -> bool {
        self.melds.iter().all(|m| m.meld.is_concealed())
    }
}

/// Circumstances of a win that the tiles alone cannot show.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct WinFlags {
    /// Won on a kong's replacement tile (杠上开花).
    pub kong_replacement: bool,
    /// Won by robbing a kong (抢杠).
    pub robbed_kong: bool,
    /// The robbed kong was a concealed one (Beijing's 一条龙 room option); set with
    /// `robbed_kong`.
    pub robbed_concealed_kong: bool,
    /// The last tile of the wall, or the discard right after it (海底).
    pub last_tile: bool,
    /// The winning tile's other three copies were already visible (和绝张).
    pub last_of_kind: bool,
    /// Within the first go-around, before the winner's first discard, no claims yet.
    pub first_turn: bool,
    /// On a discard made right after the discarder's kong (杠上炮).
    pub after_kong_discard: bool,
    /// The winner had declared ready (报听) before the win (two-player).
    pub declared_ready: bool,
    /// That 报听 was 天听: made with the dealer's first discard, or by a non-dealer discarding
    /// its first drawn tile, before any claim or kong (two-player); set with `declared_ready`.
    pub ready_first_turn: bool,
    /// A self-draw in the 海底捞月 phase, on one of the extra draws from the tiles set aside
    /// after the wall ran out (two-player).
    pub seabed: bool,
}

/// One win of a hand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Win {
    /// The winner.
    pub seat: Seat,
    /// The winning tile.
    pub tile: Tile,
    /// The discarder (or the robbed kong's owner); `None` for a self-draw.
    pub from: Option<Seat>,
    /// Circumstances.
    pub flags: WinFlags,
}

impl Win {
    /// Whether the winner drew the tile itself.
    pub const fn is_self_draw(&self) -> bool {
        self.from.is_none()
    }
}

/// What the table's history decided before this hand and the hand itself cannot show.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Carried {
    /// Rounds of 烧庄 (Beijing).
    pub shaozhuang_rounds: u32,
    /// Claims between pairs: (by, from) → count; `None` means read them off the melds.
    pub claims: Option<Vec<(Seat, Seat, u32)>>,
    /// The 荒番 counter before this hand (Shanghai).
    pub draw_bonus: u32,
    /// The 上楼 floor (Beijing 2020).
    pub floor: u32,
    /// Hands in a row the dealer has kept before this one.
    pub dealer_streak: u32,
    /// Drawn hands in a row before this one.
    pub draw_streak: u32,
}

/// A finished hand, ready to settle.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FinishedHand {
    /// Seats at the table (4, or 2 for two-player).
    pub players: u8,
    /// The dealer.
    pub dealer: Seat,
    /// The prevalent wind.
    pub round_wind: Wind,
    /// The wild kind, where the family has one.
    pub wild: Option<Tile>,
    /// Face-up bonus kinds (two-player 花牌).
    pub bonus: Vec<Tile>,
    /// The dice of the hand.
    pub dice: Option<[u8; 2]>,
    /// Each seat's tiles.
    pub seats: BySeat<SeatHand>,
    /// Every win, in the order they happened.
    pub wins: Vec<Win>,
    /// Carried table state.
    pub carried: Carried,
}

impl FinishedHand {
    /// Claims `by` made from `from` in the hand (承包, 互包): the carried list when given,
    /// else the melds.
    pub fn claims(&self, by: Seat, from: Seat) -> u32 {
        match &self.carried.claims {
            Some(list) => list
                .iter()
                .filter(|&&(b, f, _)| b == by && f == from)
                .map(|&(_, _, n)| n)
                .sum(),
            None => self.seats[by]
                .melds
                .iter()
                .filter(|m| m.meld.from == Some(from))
                .count() as u32,
        }
    }

    /// The seats at the table.
    pub fn seats_in_play(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL.into_iter().take(usize::from(self.players))
    }

    /// Seats that have not won by the end of the hand.
    pub fn still_in(&self) -> SeatSet {
        let mut s = SeatSet::all(self.players);
        for w in &self.wins {
            s.remove(w.seat);
        }
        s
    }
}

/// One scoring item of a winner (a fan, points, 台 or 花, as the family counts them).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FanItem {
    /// The Chinese name used in the rules files.
    pub name: &'static str,
    /// The value of one occurrence.
    pub value: i64,
    /// How many times it counts.
    pub count: u32,
}

/// A winner's scoring.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WinnerFans {
    /// The winner.
    pub seat: Seat,
    /// Items.
    pub items: Vec<FanItem>,
    /// The family's total for the hand (after its own caps), in its own unit.
    pub total: i64,
}

/// A settlement line that is not a winner's hand fan (查叫, 花猪, kong money, 烧庄…).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ExtraLine {
    /// The Chinese name.
    pub name: &'static str,
    /// Its value (points moved, or the family's unit).
    pub value: i64,
}

/// What a [`Payment`] was for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PaidFor {
    /// A winner's hand: the payment its fans (points, 台, 花…) are worth from this payer.
    Win,
    /// A named extra line such as 刮风, 查叫 or 承包. The name is the same `&'static str` as
    /// the [`ExtraLine`] the family pushes alongside, so a client can pair the two.
    Extra(&'static str),
}

/// One transfer of a settlement: `payer` paid `payee` `amount` for `paid_for`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Payment {
    /// Who paid.
    pub payer: Seat,
    /// Who was paid.
    pub payee: Seat,
    /// How much, in the settlement's points (after any 黄庄 / 连庄 multiplier); never zero.
    pub amount: i64,
    /// What for.
    pub paid_for: PaidFor,
}

/// The result of settling a hand: per-seat deltas summing to zero, and the lines behind them.
///
/// **Invariant:** the `payments`, summed seat by seat (paid in minus paid out, see
/// [`Settlement::payment_totals`]), equal `deltas`. Families move points only through
/// [`Settlement::pay`] and [`Settlement::scale`], which keep the two together.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Settlement {
    /// Each winner's scoring, in win order.
    pub fans: Vec<WinnerFans>,
    /// Other lines.
    pub extras: Vec<ExtraLine>,
    /// Score change per seat.
    pub deltas: BySeat<i64>,
    /// Who paid whom, how much and for what, in the order the family paid them. A payment of
    /// nothing is not recorded.
    pub payments: Vec<Payment>,
}

impl Settlement {
    /// Moves `amount` from `payer` to `payee` for `paid_for`, and records the payment (unless
    /// the amount is zero, which moves nothing).
    pub fn pay(&mut self, paid_for: PaidFor, payer: Seat, payee: Seat, amount: i64) {
        self.deltas[payer] -= amount;
        self.deltas[payee] += amount;
        if amount != 0 {
            self.payments.push(Payment {
                payer,
                payee,
                amount,
                paid_for,
            });
        }
    }

    /// Multiplies every delta and every payment (黄庄 / 连庄 / 上楼 multipliers).
    pub fn scale(&mut self, factor: i64) {
        for d in &mut self.deltas.0 {
            *d *= factor;
        }
        for p in &mut self.payments {
            p.amount *= factor;
        }
    }

    /// The payments summed seat by seat: what each seat was paid minus what it paid. Equal to
    /// `deltas` (the invariant on [`Settlement`]).
    pub fn payment_totals(&self) -> BySeat<i64> {
        let mut totals = BySeat::<i64>::default();
        for p in &self.payments {
            totals[p.payer] -= p.amount;
            totals[p.payee] += p.amount;
        }
        totals
    }
}

/// Why a finished hand cannot be settled. Every variant names what is wrong.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum SettleError {
    /// A tile kind appears more often than the set holds.
    #[error("{tile} appears {count} times; at most {max} are in play")]
    TooManyCopies {
        /// The kind.
        tile: Tile,
        /// How often it appears.
        count: u32,
        /// How many the set holds.
        max: u8,
    },
    /// A tile the ruleset does not play with.
    #[error("{tile} is not part of this ruleset's tiles")]
    ForeignTile {
        /// The tile.
        tile: Tile,
    },
    /// A seat number outside the table.
    #[error("seat {seat} is not at this table of {players}")]
    NoSuchSeat {
        /// The seat.
        seat: u8,
        /// Table size.
        players: u8,
    },
    /// A winner's tiles are not a legal winning hand for the ruleset.
    #[error("seat {seat} cannot win with {hand} + {tile}: {reason}")]
    NotAWin {
        /// The winner.
        seat: Seat,
        /// Its concealed tiles and melds, in notation.
        hand: String,
        /// The winning tile.
        tile: Tile,
        /// Why not.
        reason: String,
    },
    /// A hand that cannot have happened (wrong tile count, winning twice, paying oneself…).
    #[error("inconsistent hand: {0}")]
    Inconsistent(String),
    /// A room option the ruleset does not know or a value out of range.
    #[error("{0}")]
    BadOption(#[from] crate::ruleset::OptionError),
}

/// The notation of a seat's hand for error messages: concealed tiles, then melds in brackets.
pub fn describe(sh: &SeatHand) -> String {
    let mut s = sh.concealed.to_string();
    for m in &sh.melds {
        s.push_str(&format!(" [{}]", m.meld));
    }
    s
}
