//! 四川 / 成都麻将: presets `sichuan`, `sichuan-xuezhan` (血战到底, 3-fan cap) and
//! `sichuan-xuezhan-9` (血战到底, 9-fan cap), as decided in `docs/rules/sichuan.md`.
//!
//! Common to the three: 108 tiles, no chow, 缺一门 at win time, any pair as eyes, four melds +
//! pair or seven pairs, kong replacements from the live wall (杠牌顺拿牌), 一炮多响, a forced win
//! on the last four tiles, 过水.
//!
//! Decisions taken here where the spec is silent (the spec's own **Decision** lines are in the
//! code next to the rule they fix):
//! - **Scores compared for 过水** are the hand's full value (points or capped fan) as a discard
//!   win.
//! - **Ready (听牌) for 查叫** means a kind exists, not all four of which the player holds, that
//!   would make a legal win of the hand; its value is scored as a discard win with no situational
//!   extras (no 自摸, 杠上花, 抢杠, 天胡/地胡).
//! - **定缺 and winning.** In the 血战 presets a hand holding any tile of its declared void suit
//!   cannot win (the declaration implies 缺一门), and claims and kongs of that suit are refused.
//! - **花猪** in `sichuan-xuezhan` is a player holding three suits (the seed's words); in
//!   `sichuan-xuezhan-9` a player still holding its 定缺 suit. In the 9-fan preset a 花猪 pays
//!   each ready player that player's largest fan plus one (capped), and pays nobody else.
//! - **Forced win on the last four** applies to a tile that appears (is drawn, or discarded)
//!   once the live wall holds fewer than four tiles after it: a drawn tile that is one of the last
//!   four, or a discard made after one of them was drawn. Draws and discards use the same cut.
//! - **根 in the standard preset** is, as sichuan.md decides, four identical tiles in the
//!   concealed hand (the winning tile included) that are not a kong: an exposed pung with its
//!   fourth tile in hand is no 根. Kongs score their own +1 as 杠.
//! - **根 in the 血战 presets** is four identical tiles "held or konged" (sichuan.md): a kong
//!   counts, and so does an exposed pung with its fourth tile in hand.
//! - **定缺 in the standard preset** does not exist: a `void` given in a `settle` line for
//!   `sichuan` is ignored (缺一门 is checked at win time as always).
//! - **杠上花 after 引杠** (standard preset): the replacement is taken to belong to the winner's
//!   last listed kong; when that kong was claimed on a discard, the feeder pays as for a discard.
//! - **Seats given as `{"concealed": ""}`** in a `settle` line take no part in 查叫 / 查花猪.
//! - **First dealer** is drawn from the seed in all three presets; after that the standard
//!   preset passes the deal to the winner (the discarder after a multi-win; kept after a draw),
//!   the 血战 presets to the first winner of the hand (kept when nobody won). In a 血战 multi-win
//!   the first winner is the first in turn order after the discarder.
//! - **Streaks** (`sichuan-xuezhan-9`): `dealer_streak` counts hands the dealer kept before this
//!   one, so the third hand in a row (streak 2) is ×2, then ×4…; `draw_streak` drawn hands in a
//!   row before this one give ×2^streak. Both multiply the whole settlement, 查叫 and kong money
//!   included. Each multiplier stops growing at ×1024 (ten doublings) so amounts stay bounded.
//! - **Room options:** `coefficient` (房间系数, points per unit, default 1) in all presets;
//!   `kong_money` (刮风下雨, default on) and `fan_cap` (default 3 or 9) in the 血战 presets.
//! - **Escapes:** no penalty. The rules say the computer plays a departed player's seat to the
//!   end of the hand and the hand is settled normally, so `escape_penalty` keeps its default.

use crate::ruleset::OptionSpec;
use crate::ruleset::{AfterWin, BeforePlay, Flow};
use crate::ruleset::{
    HandResult, MissedWin, NextHand, OptionError, RawOptions, Rules, RulesetId, WinCheck, WinScore,
};
use crate::seat::SeatSet;
use crate::settle::Win;
use crate::settle::{FinishedHand, Settlement};
use crate::shape::Forms;
use crate::table::TableState;
use crate::wall::{ReplacementEnd, TileSetKind};

/// Which Sichuan text a room plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Preset {
    /// 成都 standard: points, the hand ends at the first win.
    Standard,
    /// 血战到底, seed 000 text: fan, 3-fan cap, 查花猪 / 查大叫, kong money.
    Xuezhan,
    /// 血战到底, seed 003 text: fan, 9-fan cap, 黄庄 and 连庄 multipliers.
    Xuezhan9,
}

/// The Sichuan family with validated room options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sichuan {
    /// How its hands flow (some of it set by the room's options).
    flow: Flow,
    id: RulesetId,
    preset: Preset,
    coefficient: i64,
    kong_money: bool,
    fan_cap: u32,
}

/// Doublings of one streak multiplier stop here (×1024), so that no settlement can overflow
/// whatever streak a table reaches; real tables never get near it.
const MAX_STREAK_DOUBLINGS: u32 = 10;

/// Live wall size at or below which a ready player must win (最后四张).
const FORCED_WIN_WALL: usize = 4;

/// 房间系数: points per unit (every preset).
pub const COEFFICIENT: OptionSpec = OptionSpec::int(
    "coefficient",
    "房间系数",
    "Points per unit",
    1..=1_000_000,
    1,
);
/// 刮风下雨 (the 血战 presets).
pub const KONG_MONEY: OptionSpec = OptionSpec::bool("kong_money", "刮风下雨", "Kong money", true);
/// The fan cap (the 血战 presets).
pub const FAN_CAP_3: OptionSpec = OptionSpec::int("fan_cap", "封顶番数", "Fan cap", 1..=13, 3);
/// The fan cap of `sichuan-xuezhan-9`.
pub const FAN_CAP_9: OptionSpec = OptionSpec::int("fan_cap", "封顶番数", "Fan cap", 1..=13, 9);

impl Sichuan {
    /// Validates options for one of the three presets.
    ///
    /// # Errors
    /// An unknown option or a value out of range.
    pub fn new(id: RulesetId, raw: &RawOptions) -> Result<Sichuan, OptionError> {
        let preset = match id {
            RulesetId::SichuanXuezhan => Preset::Xuezhan,
            RulesetId::SichuanXuezhan9 => Preset::Xuezhan9,
            // `Ruleset::new` sends only the Sichuan ids here.
            _ => Preset::Standard,
        };
        let fan_cap = if preset == Preset::Xuezhan9 {
            FAN_CAP_9
        } else {
            FAN_CAP_3
        };
        let xuezhan = preset != Preset::Standard;
        Ok(Sichuan {
            flow: Flow {
                replacement_end: ReplacementEnd::Live,
                chow: false,
                // Decision (sichuan.md): 定缺 is declared upfront in both 血战 presets.
                before_play: if xuezhan {
                    BeforePlay::DeclareVoid
                } else {
                    BeforePlay::Nothing
                },
                after_win: if xuezhan {
                    AfterWin::PlayOn
                } else {
                    AfterWin::HandEnds
                },
                missed_win: MissedWin::UntilDrawUnlessHigher,
                forced_win_wall: Some(FORCED_WIN_WALL),
                ..Flow::four_seats(
                    TileSetKind::Suits108,
                    Forms::STANDARD.with(Forms::SEVEN_PAIRS),
                )
            },
            id,
            preset,
            coefficient: COEFFICIENT.int_in(raw),
            kong_money: xuezhan && KONG_MONEY.bool_in(raw),
            fan_cap: u32::try_from(fan_cap.int_in(raw)).unwrap_or(3),
        })
    }

    pub(super) fn is_xuezhan(&self) -> bool {
        self.preset != Preset::Standard
    }

    /// Points one payer pays for a hand value (points, or capped fan → coefficient × 2^fan).
    pub(super) fn unit(&self, value: i64) -> i64 {
        match self.preset {
            Preset::Standard => value * self.coefficient,
            _ => self.coefficient << value.clamp(0, i64::from(self.fan_cap)),
        }
    }
}

impl Rules for Sichuan {
    fn id(&self) -> RulesetId {
        self.id
    }
    fn flow(&self) -> &Flow {
        &self.flow
    }
    fn payment_for(&self, value: i64) -> i64 {
        self.unit(value)
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        self.score_win(check.hand, check.win, check.dealer)
    }

    fn settle_win(
        &self,
        hand: &FinishedHand,
        index: usize,
        win: &Win,
        st: &mut Settlement,
    ) -> Result<WinScore, String> {
        let score = self.score_win(&hand.seats[win.seat], win, hand.dealer)?;
        self.pay_win(hand, index, win, score.value, st);
        Ok(score)
    }
    fn settle_after_wins(&self, hand: &FinishedHand, st: &mut Settlement) {
        let ended_by_wall = match self.preset {
            Preset::Standard => hand.wins.is_empty(),
            _ => hand.still_in().len() > 1,
        };
        let refunds = if self.is_xuezhan() && ended_by_wall {
            self.check_ready_at_wall(hand, st)
        } else {
            if self.preset == Preset::Standard && ended_by_wall {
                self.check_ready_standard(hand, st);
            }
            SeatSet::EMPTY
        };
        if self.is_xuezhan() && self.kong_money {
            self.pay_kongs(hand, refunds, st);
        }
        if self.preset == Preset::Xuezhan9 {
            self.apply_streaks(hand, st);
        }
    }

    fn next_hand(&self, state: &TableState, result: &HandResult) -> NextHand {
        let dealer = match (self.preset, result.wins.as_slice()) {
            (_, []) => state.dealer,
            (Preset::Standard, [single]) => single.seat,
            (Preset::Standard, [first, ..]) => first.from.unwrap_or(first.seat),
            (_, [first, ..]) => first.seat,
        };
        NextHand {
            dealer,
            round_wind: state.round_wind,
            draw_bonus: state.draw_bonus,
        }
    }
}

mod fan;
mod payment;

#[cfg(test)]
mod tests;

/// The room options of each preset.
pub(crate) fn option_specs(id: RulesetId) -> &'static [OptionSpec] {
    match id {
        RulesetId::SichuanXuezhan => &[COEFFICIENT, KONG_MONEY, FAN_CAP_3],
        RulesetId::SichuanXuezhan9 => &[COEFFICIENT, KONG_MONEY, FAN_CAP_9],
        _ => &[COEFFICIENT],
    }
}

/// The family as [`super::family`] registers it.
pub(crate) const FAMILY: super::Family = super::Family {
    options: option_specs,
    build: |id, options| Ok(std::sync::Arc::new(Sichuan::new(id, options)?)),
};
