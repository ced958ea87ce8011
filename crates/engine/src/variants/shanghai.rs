//! 上海麻将: preset `shanghai`, as decided in `docs/rules/shanghai.md`.
//!
//! 144 tiles with flowers replaced from the tail, chows by the 下家 only (pung beats chow),
//! 一炮多响, 漏胡 on the passed tile kind, robbing only an added kong. Only the qualifying hand
//! types win (碰碰胡 and better, [`HandType`]); a share is 底分 + 花 or the type's fixed 勒子,
//! raised to one 勒子 by 杠开 / 大吊车, doubled by 开宝 and by 荒番, capped; 承包 pairs pay extra.
//!
//! Decisions taken here where the spec is silent:
//! - **Room options** are `base` (底分, default 2), `hua` (花分, points per 花, default 1) and
//!   `lezi` (勒子, default 10).
//! - **Winning shapes** are four sets and a pair only: the qualifying types are all standard
//!   shapes (seven pairs is not among them). An honors-only hand therefore always reads as 风碰.
//! - **花 of concealed sets.** An honor held three times in the winning hand is a pung (honors
//!   cannot form runs); suited pungs give no 花, so no split of the hand changes the count.
//! - **The value compared** for 漏胡 and by bots is the share before 开宝 and 荒番.
//! - **八花齐** wins the moment the eighth flower is set aside, however it came (a draw in turn,
//!   a flower's or a kong's replacement): the engine records it as a self-drawn win, as it does
//!   every flower replacement, since no player would decline 2 勒子. Flowers dealt are replaced
//!   first, so a seat that holds all eight after the deal's 补花 wins before the dealer's first
//!   discard (the dealer then still holds 14 tiles, which `settle` accepts for a flower win).

mod share;

use crate::ruleset::Flow;
use crate::ruleset::{
    HandResult, MissedWin, NextHand, OptionError, OptionSpec, RawOptions, Rules, RulesetId,
    WinCheck, WinScore, completes_shape,
};
use crate::settle::Win;
use crate::settle::{FinishedHand, SeatHand, Settlement};
use crate::shape::Forms;
use crate::table::TableState;
use crate::tile::Tile;
use crate::wall::TileSetKind;

pub use share::HandType;

/// Points recorded against a player who escapes mid-hand.
pub const ESCAPE_PENALTY: i64 = 15;

/// The Shanghai family with validated room options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shanghai {
    /// How its hands flow (some of it set by the room's options).
    flow: Flow,
    /// 底分.
    base: i64,
    /// 花分: points per 花.
    hua: i64,
    /// 勒子: the cap unit.
    lezi: i64,
}

/// 底分.
pub const BASE: OptionSpec = OptionSpec::int("base", "底分", "Base points", 1..=1_000_000, 2);
/// 花分: points per 花.
pub const HUA: OptionSpec = OptionSpec::int("hua", "花分", "Points per flower", 0..=1_000_000, 1);
/// 勒子: the cap unit.
pub const LEZI: OptionSpec = OptionSpec::int("lezi", "勒子", "Cap (lezi)", 1..=10_000_000, 10);

impl Shanghai {
    /// Validates options.
    ///
    /// # Errors
    /// An unknown option or a value out of range.
    pub fn new(raw: &RawOptions) -> Result<Shanghai, OptionError> {
        Ok(Shanghai {
            flow: Flow {
                missed_win: MissedWin::SameKindUntilOwnMove,
                escape_penalty: Some(ESCAPE_PENALTY),
                leave_resets_draw_bonus: true,
                ..Flow::four_seats(TileSetKind::Flowers144, Forms::STANDARD)
            },
            base: BASE.int_in(raw),
            hua: HUA.int_in(raw),
            lezi: LEZI.int_in(raw),
        })
    }
}

impl Rules for Shanghai {
    fn id(&self) -> RulesetId {
        RulesetId::Shanghai
    }
    fn flow(&self) -> &Flow {
        &self.flow
    }
    fn could_win(&self, hand: &SeatHand, tile: Tile, _wild: Option<Tile>) -> bool {
        if tile.is_flower() {
            return share::eight_flowers(hand, tile);
        }
        completes_shape(hand, tile, None, Forms::STANDARD)
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        let scored = self.score(check.hand, check.win)?;
        Ok(WinScore {
            value: scored.share,
            items: scored.items,
        })
    }
    fn payment_for(&self, value: i64) -> i64 {
        value
    }
    fn settle_win(
        &self,
        hand: &FinishedHand,
        _index: usize,
        win: &Win,
        st: &mut Settlement,
    ) -> Result<WinScore, String> {
        let scored = self.score(&hand.seats[win.seat], win)?;
        let (share, mut items) = self.multiplied(hand, &scored);
        self.pay(hand, win, share, st);
        items.extend(scored.items);
        Ok(WinScore {
            items,
            value: share,
        })
    }
    fn next_hand(&self, state: &TableState, result: &HandResult) -> NextHand {
        let dealer = match result.wins.as_slice() {
            [] => state.dealer,
            [win] => win.seat,
            // 一炮多响: the 下家 of the winner nearest to the discarder in turn order.
            [first, ..] => {
                let discarder = first.from.unwrap_or(first.seat);
                result
                    .wins
                    .iter()
                    .map(|w| w.seat)
                    .min_by_key(|s| s.distance_from(discarder, 4))
                    .unwrap_or(first.seat)
                    .next(4)
            }
        };
        // 荒番: a drawn hand adds one; a won hand played with the counter up takes one off.
        let draw_bonus = if result.wins.is_empty() {
            state.draw_bonus.saturating_add(1)
        } else {
            state.draw_bonus.saturating_sub(1)
        };
        NextHand {
            dealer,
            round_wind: state.round_wind,
            draw_bonus,
        }
    }
}

#[cfg(test)]
mod tests;

/// The room options of the preset.
pub(crate) fn option_specs(_id: RulesetId) -> &'static [OptionSpec] {
    &[BASE, HUA, LEZI]
}

/// The family as [`super::family`] registers it.
pub(crate) const FAMILY: super::Family = super::Family {
    options: option_specs,
    build: |_, options| Ok(std::sync::Arc::new(Shanghai::new(options)?)),
};
