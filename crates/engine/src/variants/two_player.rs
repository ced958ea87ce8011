//! 二人麻将: preset `two-player`, as decided in `docs/rules/two-player.md` (seed 003, "麻将游戏规则").
//!
//! Two seats (0 and 1). Of the 136 tiles, 71 are shuffled into the hand's wall and the other 65
//! are set aside out of play. The dealer gets 14, the other 13; chows, pungs and kongs; robbing
//! only an added kong, which scores as a self-draw. After the deal one of the set-aside tiles is
//! turned face up: its kind is the 花牌, and each tile of that kind in the winning hand is 1 fan
//! (a kong counts 4). A seat may declare ready (报听) with a discard; its hand is then locked. When
//! the 71 run out, the first-ready waiting seat gets the 海底捞月 phase: up to three draws from the
//! set-aside tiles, each checked for a self-draw win only; else the hand is drawn and nothing is
//! paid. A win's fan is its rows added up (the larger of two related rows replacing the smaller)
//! over the best reading, capped at 13, or 13 for a limit hand (役满); the loser pays
//! min(fan, 13) × 底分. The first dealer is random, the winner deals next, a drawn hand keeps the
//! dealer.
//!
//! The rules' **Decision** lines, with their sources as the rules file names them:
//! - "ready" is waiting (听牌) when the 71 run out; "first-ready" is the earlier 报听, else the seat
//!   whose hand has waited since the earlier discard (the engine records, at every discard,
//!   since when the hand has been waiting).
//! - 花牌: [`BONUS`] indicators (room option `huapai`, default 1) are turned up from the unused
//!   tiles; not a hand row, so 推倒胡 still applies.
//! - 门清报听 1 and 混全带幺 3 restored; the larger row replaces the smaller: 两杯口 > 一杯口,
//!   纯全带幺 > 混全带幺, 清一色 > 混一色, 龙七对 > 七对子, 天听 > 门清报听; the best reading is kept.
//! - The limit hands include 字一色, 清老头, 绿一色, 红孔雀, 九莲宝灯, 十三幺 and 东北新干线; two
//!   limits are both shown and pay 13.
//! - Payment: min(fan, 13) × 底分 (room option `base`, default 1) by the loser, whether by
//!   discard or self-draw; a drawn hand pays nothing.
//! - The in-game 换牌 and 搓牌 features (the server handing a player chosen unseen tiles) are not
//!   fair play and are left out.
//!
//! Choices made here where the spec is silent:
//! - **报听 goes with a discard** (as 立直 does): `DeclareReady { tile }` discards `tile`, and is
//!   offered only when the hand left waits on a tile that can still exist. From then on the hand
//!   does not change: no claims, no kongs. The engine discards each drawn tile that does not win
//!   inside the same `apply` (ordinary `Discarded` events, after a public `ReadyDeclared`), and
//!   when a tile would win the seat is offered only `SelfDrawWin` / `Win` or `Pass` (passing
//!   discards the drawn tile). No restriction follows a passed win.
//! - **天听** is 报听 on the seat's first discard before any claim or kong: the dealer's first
//!   discard, or a non-dealer discarding the tile of its first draw (its dealt 13 were waiting).
//! - **A 报听 seat is first-ready before one that did not declare**; between two undeclared seats
//!   the one waiting since the earlier discard (a non-dealer's dealt hand counts from the deal).
//! - **海底捞月**: the drawing seat's hand is locked as after 报听; a draw that does not win is laid
//!   among its discards without a claim window, and the next draw follows; after the third, the
//!   hand is drawn.
//! - **Several 花牌 indicators** (`huapai` above 1) each name a new kind: a turned-up tile of a kind
//!   already named is passed over. `huapai` 0 plays without 花牌.
//! - **Rows read literally**: 门清 and 门清自摸 both count on a concealed self-draw; 一杯口 / 两杯口
//!   count declared chows as well; 三暗刻 / 四暗刻 do not count a pung completed by a discard;
//!   平和 allows declared chows; 混老头 adds to 碰碰胡; 龙七对 needs the winning tile to make the
//!   four; 百万石 counts every tile of the hand, a kong's four included; 大车轮 may be in any
//!   suit; 清老头 is pungs and a pair only.
//! - **Limit hands** pay 13 whatever else the hand holds (花牌 included); 天和 / 地和 / 人和 use the
//!   shared first-go-around flag (地和: on the dealer's discard).
//! - **The prevalent wind** stays East: no row scores winds by seat or round.
//! - **开始时换牌** (room option `swap`, default off; seed 003: "庄家发完14张牌、闲家发完13张牌后，
//!   系统允许玩家选择需要换掉的麻将牌，不限张数"): after the deal and the 花牌, both seats at once
//!   mark any of their dealt tiles (`SwapMark`, one tile per action) and finish (`SwapDone`),
//!   once each; the dealer discards when both are done. The replacements come from the 65
//!   set-aside tiles (the top of that pile) and the tiles given back go to its bottom, so the
//!   71 tiles in play and the live wall stay as dealt: a swap never changes which tiles the
//!   other seat draws or how long the hand lasts. See `game/swap.rs`.

mod fan;
#[cfg(test)]
mod tests;

use crate::ruleset::{BeforePlay, DiscardWins, Flow};
use crate::ruleset::{
    HandResult, NextHand, OptionError, OptionSpec, RawOptions, Rules, RulesetId, WinCheck, WinScore,
};
use crate::settle::Win;
use crate::settle::{FinishedHand, PaidFor, Settlement};
use crate::shape::Forms;
use crate::table::TableState;
use crate::wall::TileSetKind;

pub use fan::CAP;

/// Tiles of the 136 shuffled into a hand's wall; the other 65 stay out of play.
pub const WALL_TILES: usize = 71;
/// 海底捞月: draws from the unused tiles for the first-ready waiting seat.
pub const SEABED_DRAWS: u8 = 3;
/// The default number of 花牌 indicators turned up.
pub const BONUS: i64 = 1;

/// 底分: points per fan.
pub const BASE: OptionSpec = OptionSpec::int("base", "底分", "Points per fan", 1..=1000, 1);
/// How many 花牌 kinds are turned up.
pub const HUAPAI: OptionSpec = OptionSpec::int(
    "huapai",
    "花牌数",
    "Face-up bonus kinds (花牌)",
    0..=4,
    BONUS,
);
/// 开始时换牌: each seat may exchange dealt tiles once, before the first discard.
pub const SWAP: OptionSpec = OptionSpec::bool("swap", "开始时换牌", "Swap dealt tiles once", false);

/// The two-player family with validated room options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoPlayer {
    /// How its hands flow (some of it set by the room's options).
    flow: Flow,
    base: i64,
    huapai: i64,
    swap: bool,
}

impl TwoPlayer {
    /// Validates options.
    ///
    /// # Errors
    /// An unknown option, or a value out of range.
    pub fn new(raw: &RawOptions) -> Result<TwoPlayer, OptionError> {
        let huapai = HUAPAI.int_in(raw);
        let swap = SWAP.bool_in(raw);
        Ok(TwoPlayer {
            flow: Flow {
                players: 2,
                wall_tiles: Some(WALL_TILES),
                bonus_indicators: usize::try_from(huapai).unwrap_or(0),
                before_play: if swap {
                    BeforePlay::SwapDealt
                } else {
                    BeforePlay::Nothing
                },
                discard_wins: DiscardWins::FirstInTurn,
                declares_ready: true,
                seabed_draws: SEABED_DRAWS,
                ..Flow::four_seats(
                    TileSetKind::Honors136,
                    Forms::STANDARD
                        .with(Forms::SEVEN_PAIRS)
                        .with(Forms::THIRTEEN_ORPHANS),
                )
            },
            base: BASE.int_in(raw),
            huapai,
            swap,
        })
    }
}

impl Rules for TwoPlayer {
    fn id(&self) -> RulesetId {
        RulesetId::TwoPlayer
    }
    fn flow(&self) -> &Flow {
        &self.flow
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        let cx = fan::Context {
            dealer: check.win.seat == check.dealer,
            from_dealer: check.win.from == Some(check.dealer),
            bonus: check.bonus,
        };
        let scored = fan::score(check.hand, check.win, &cx)?;
        Ok(WinScore {
            value: scored.total,
            items: scored.items,
        })
    }
    fn payment_for(&self, value: i64) -> i64 {
        value.min(CAP) * self.base
    }
    fn settle_win(
        &self,
        hand: &FinishedHand,
        _index: usize,
        win: &Win,
        st: &mut Settlement,
    ) -> Result<WinScore, String> {
        let cx = fan::Context {
            dealer: win.seat == hand.dealer,
            from_dealer: win.from == Some(hand.dealer),
            bonus: &hand.bonus,
        };
        let scored = fan::score(&hand.seats[win.seat], win, &cx)?;
        if let Some(loser) = hand.seats_in_play().find(|&s| s != win.seat) {
            st.pay(
                PaidFor::Win,
                loser,
                win.seat,
                self.payment_for(scored.total),
            );
        }
        Ok(WinScore {
            items: scored.items,
            value: scored.total,
        })
    }
    fn next_hand(&self, state: &TableState, result: &HandResult) -> NextHand {
        // The winner deals next; a drawn hand keeps the dealer.
        NextHand {
            dealer: result.wins.first().map_or(result.dealer, |w| w.seat),
            round_wind: state.round_wind,
            draw_bonus: state.draw_bonus,
        }
    }
}

/// The room options of the preset.
pub(crate) fn option_specs(_id: RulesetId) -> &'static [OptionSpec] {
    &[BASE, HUAPAI, SWAP]
}

/// The family as [`super::family`] registers it.
pub(crate) const FAMILY: super::Family = super::Family {
    options: option_specs,
    build: |_, options| Ok(std::sync::Arc::new(TwoPlayer::new(options)?)),
};
