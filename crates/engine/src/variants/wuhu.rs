//! 芜湖麻将 2468: preset `wuhu`, as decided in `docs/rules/wuhu.md` (seed 003, "2020年芜湖麻将
//! 支数计算表").
//!
//! 136 tiles without flowers, chows by the 下家 (pung beats chow), pungs and kongs, four sets and
//! a pair only. A win needs at least 8 支 (tiles of one suit, melds included; 八支起胡). Its fan is
//! the table's 底番 (2, 4, 6, 8) plus 支番: 2 + ⌈支/2⌉ on a discard, 4 + ⌈(支+押)/2⌉ on a discard
//! filling a closed wait (押当, 押 its rank), 6 + 支 self-drawn, 8 + 支 + 押 self-drawn with 押当;
//! then each 嘴子 (对对胡, 通天, 四核, 混一色: 5, 10 on a self-draw; 杠后开花 5) and each kong
//! (exposed 2, concealed 4). On every win each other player pays fan × 底分 (the room option
//! `discarder_pays_all` makes a discarder pay all three shares); a payment by or to the dealer
//! adds the 底番 once more. A drawn hand pays nothing. The dealer keeps the deal after his own
//! win or a drawn hand; otherwise it passes to the next seat.
//!
//! Decisions taken here where the spec is silent (sources: the seed's table, the spec's public
//! Wuhu calculators, and what the Chinese names say, as noted):
//! - **Room options** are `base` (底分, default 1: the spec names no value) and
//!   `discarder_pays_all` (default off, as the spec's Decision says).
//! - **Head bump.** Every win is paid by all three others, so a second winner on one discard
//!   would pay the first and be paid at once; the spec names no 一炮多响 and the first seat after
//!   the discarder wins alone (截胡), as in most 136-tile tables.
//! - **The best reading.** 押当, 对对胡 and 通天 depend on how the hand is read; every reading is
//!   scored and the highest kept. 押当 is a reading in which the winning tile is the middle of a
//!   chow of the concealed tiles (`3m5m` + `4m`); the hand may have other waits too, as the
//!   table asks only which tile filled the gap.
//! - **四核** counts each kind of which the winning hand (its winning tile and melds included)
//!   holds all four copies without a declared kong of it: the spec's two cases (four concealed,
//!   or a pung and the fourth in hand) and a chow holding the fourth. Several kinds count one
//!   嘴子 each.
//! - **混一色** needs at least one honor with the one suit; a hand of one suit alone (清一色) is
//!   not in the 嘴子 list, its 支 already pays for it.
//! - **An added kong** is an exposed kong (2 fan): it is on the table, not concealed.
//! - **Robbing an added kong** (the shared flow allows it, the text is silent) is a discard win
//!   on the robbed tile: its formula and 押当 are a discard's, and `discarder_pays_all` makes the
//!   robbed player pay all three shares.
//! - **`discarder_pays_all`** moves each share as it stands: the share of a dealer who did not
//!   discard still carries the dealer's 底番.
//! - **The items shown** are the 底番 line (named 平胡, 押当, 自摸 or 自摸押当), 支番, each 嘴子
//!   and the kongs; they sum to the fan, which is uncapped.
//! - **No 漏胡 / 过水**: the text names no restriction on passing a win.
//! - **Wind rounds** move on as at every table dealing 东南西北 (`variants/rotation.rs`); winds
//!   score nothing here.

mod fan;

#[cfg(test)]
mod tests;

use crate::ruleset::{DiscardWins, Flow};
use crate::ruleset::{
    HandResult, NextHand, OptionError, OptionSpec, RawOptions, Rules, RulesetId, WinCheck, WinScore,
};
use crate::settle::{FinishedHand, PaidFor, Settlement, Win};
use crate::shape::Forms;
use crate::table::TableState;
use crate::wall::TileSetKind;

pub use fan::{MIN_ZHI, table_fan, zhi};

/// 底分: points per fan.
pub const BASE: OptionSpec = OptionSpec::int("base", "底分", "Points per fan", 1..=1_000_000, 1);
/// 点炮包三家: the discarder pays all three shares.
pub const DISCARDER_PAYS_ALL: OptionSpec = OptionSpec::bool(
    "discarder_pays_all",
    "点炮包三家",
    "Discarder pays all three shares",
    false,
);

/// The Wuhu family with validated room options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wuhu {
    /// How its hands flow (some of it set by the room's options).
    flow: Flow,
    /// 底分: the points of one fan.
    base: i64,
    /// Whether a discarder pays every share of a discard win.
    discarder_pays_all: bool,
}

impl Wuhu {
    /// Validates options.
    ///
    /// # Errors
    /// An unknown option or a value out of range or of the wrong type.
    pub fn new(raw: &RawOptions) -> Result<Wuhu, OptionError> {
        Ok(Wuhu {
            flow: Flow {
                discard_wins: DiscardWins::FirstInTurn,
                // Decision (others.md): standard shape only.
                ..Flow::four_seats(TileSetKind::Honors136, Forms::STANDARD)
            },
            base: BASE.int_in(raw),
            discarder_pays_all: DISCARDER_PAYS_ALL.bool_in(raw),
        })
    }

    /// Pays one win: each other seat's share is fan × 底分, with the 底番 once more when that
    /// seat or the winner deals; a discarder under `discarder_pays_all` pays every share.
    fn pay(&self, hand: &FinishedHand, win: &Win, scored: &fan::Scored, st: &mut Settlement) {
        let feeder = win.from.filter(|_| self.discarder_pays_all);
        for seat in hand.seats_in_play().filter(|&s| s != win.seat) {
            let dealer_involved = seat == hand.dealer || win.seat == hand.dealer;
            let fan = scored.total + if dealer_involved { scored.base_fan } else { 0 };
            st.pay(
                PaidFor::Win,
                feeder.unwrap_or(seat),
                win.seat,
                fan * self.base,
            );
        }
    }
}

impl Rules for Wuhu {
    fn id(&self) -> RulesetId {
        RulesetId::Wuhu
    }
    fn flow(&self) -> &Flow {
        &self.flow
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        let scored = fan::score(check.hand, check.win)?;
        Ok(WinScore {
            value: scored.total,
            items: scored.items,
        })
    }
    fn payment_for(&self, value: i64) -> i64 {
        value * self.base
    }
    fn settle_win(
        &self,
        hand: &FinishedHand,
        _index: usize,
        win: &Win,
        st: &mut Settlement,
    ) -> Result<WinScore, String> {
        let scored = fan::score(&hand.seats[win.seat], win)?;
        self.pay(hand, win, &scored, st);
        Ok(WinScore {
            items: scored.items,
            value: scored.total,
        })
    }
    fn next_hand(&self, state: &TableState, result: &HandResult) -> NextHand {
        super::rotation::keep_or_pass(state, result)
    }
}

/// The room options of the preset.
pub(crate) fn option_specs(_id: RulesetId) -> &'static [OptionSpec] {
    &[BASE, DISCARDER_PAYS_ALL]
}

/// The family as [`super::family`] registers it.
pub(crate) const FAMILY: super::Family = super::Family {
    options: option_specs,
    build: |_, options| Ok(std::sync::Arc::new(Wuhu::new(options)?)),
};
