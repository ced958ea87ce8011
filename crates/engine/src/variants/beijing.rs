//! 北京麻将: presets `beijing` (惠牌 rules) and `beijing-2020` (第4稿), as decided in
//! `docs/rules/beijing.md`.
//!
//! `beijing`: 136 tiles; after the deal the first tile of the replacement end is turned up as
//! the 惠坯 and the kind after it (惠牌) is wild. The last 7 stacks are a reserve that only
//! feeds kongs (one stack more per kong after the first). Only a concealed hand (门清) holding
//! fewer than three wilds may win on a discard or rob a kong; four wilds win at once (四惠牌).
//! Hand fan from the table of the rules file, times 底分; 烧庄 (the other three following the
//! dealer's discard, go-around after go-around) is paid by the dealer on top; 互包 pairs (three
//! claims from one player) move the whole hand fan onto the partner.
//!
//! `beijing-2020` (payments in `beijing/y2020.rs`): the same tiles, reserve, claims and dealer
//! rotation without wilds, 烧庄 or 互包; 三家杠荒牌; 上楼 floors; its own fan table (推倒和 only
//! by self-draw); points 底分 × 2^fan; kong money for a winner's kongs; 跟庄.
//!
//! Decisions taken here where the spec is silent:
//! - **Room options**: `base` (底分, default 1) for both; `doubling` (2020, default true: each
//!   fan doubles the points; false: 底分 × (1 + fan)).
//! - **A discarded 惠牌 is dead**: "wilds cannot be used to claim", so nobody may chow, pung,
//!   kong or win on it; a chow whose other tiles include the wild kind is not offered, nor a
//!   concealed kong of wilds (four wilds are 四惠牌, a win).
//! - **A self-drawn 惠牌** counts as a wild in the winning hand.
//! - **四惠牌** wins whatever the other tiles are; the seat that draws the fourth wild must win
//!   (it is the only action offered). Its fan adds the win's other rows that apply.
//! - **捉五魁** needs 5m to be the hand's only winning tile with a reading that completes 4m_6m
//!   by it; a hand holding wilds has more than one winning tile, so it never scores it.
//! - **大钓** is four declared melds (concealed kongs included) and a win on the pair's tile.
//! - **烧庄 go-arounds** start with the dealer's first discard; any claim or kong ends the run.
//! - **海底** (`beijing`): the drawer of the last drawable tile who does not win on it must throw
//!   that very tile (no kong).
//! - **2020 推倒和** is a hand with no row but 门清: otherwise every concealed hand would have a
//!   fan and the text's "推倒和 only by self-draw" would never apply to a discard.
//! - **2020 上楼**: the floor is the dealer's streak of kept deals (a drawn hand keeps the deal),
//!   at most 2; the settle format may give it as `floor`.
//! - **2020 跟庄** is the first go-around followed, paid in every hand, won or drawn; like kong
//!   money it is a fixed payment, not multiplied by 上楼 (spec Decision).
//! - **互包 counts an exposed kong** claimed on the partner's discard as one of the three claims
//!   (it takes a discard, as a pung does); an added kong adds none (spec Decision).
//! - **What a settled hand may be** (a wild kind always named, no wild in a meld, chows from the
//!   上家 only, one win or several on one discard) is the settle referee's, for every family.
//! - **一条龙 robbing a concealed kong** is the room option `dragon_robs_concealed_kong` (default
//!   off); **declining the last tile** is the `draw_last` / `decline_last` decision of the seat
//!   due to draw it. Both are in the hand flow (`concealed_kong_robbable`, `may_decline_last`).

mod fan;
mod y2020;

use crate::ruleset::{Flow, FollowDealer, LastTile, Reserve};
use crate::ruleset::{
    HandResult, NextHand, OptionError, OptionSpec, RawOptions, Rules, RulesetId, WinCheck,
    WinScore, completes_shape,
};
use crate::seat::Seat;
use crate::settle::Win;
use crate::settle::{ExtraLine, FinishedHand, PaidFor, SeatHand, Settlement};
use crate::shape::Forms;
use crate::table::TableState;
use crate::tile::Tile;
use crate::wall::{TileSetKind, Wall, WildDraw, indicator_for, next_for_indicator};

/// Tiles of the reserve (保留牌) before any kong: seven stacks.
const RESERVE: usize = 14;
/// The extra line of 烧庄.
const SHAOZHUANG: &str = "烧庄";

/// The Beijing family with validated room options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beijing {
    /// How its hands flow (some of it set by the room's options).
    flow: Flow,
    /// Which rules.
    id: RulesetId,
    /// 底分: points per fan (惠牌 rules), or the unit doubled per fan (2020).
    base: i64,
    /// 2020: each fan doubles the points (else adds 底分).
    doubling: bool,
    /// 惠牌 rules: a hand completed by 一条龙 may rob a concealed kong (seed 004; off by default).
    dragon_robs: bool,
}

/// 底分: points per fan (惠牌 rules), or the unit doubled per fan (2020).
pub const BASE: OptionSpec = OptionSpec::int("base", "底分", "Base points", 1..=1_000_000, 1);
/// 2020: each fan doubles the points (else adds 底分).
pub const DOUBLING: OptionSpec = OptionSpec::bool("doubling", "番番翻倍", "Each fan doubles", true);
/// 惠牌 rules: a hand completed by 一条龙 may rob a concealed kong.
pub const DRAGON_ROBS: OptionSpec = OptionSpec::bool(
    "dragon_robs_concealed_kong",
    "一条龙抢暗杠",
    "一条龙 may rob a concealed kong",
    false,
);

impl Beijing {
    /// Validates options for `id` (`beijing` or `beijing-2020`).
    ///
    /// # Errors
    /// An unknown option or a value out of range.
    pub fn new(id: RulesetId, raw: &RawOptions) -> Result<Beijing, OptionError> {
        let dragon_robs = DRAGON_ROBS.bool_in(raw);
        let wilds = id != RulesetId::Beijing2020;
        Ok(Beijing {
            flow: Flow {
                reserve: Reserve {
                    tiles: RESERVE,
                    per_kong: 2,
                },
                wild: wilds,
                concealed_kong_robbable: dragon_robs,
                follow_dealer: if wilds {
                    FollowDealer::Forced
                } else {
                    FollowDealer::Counted
                },
                kongers_draw: (!wilds).then_some(3),
                last_tile: LastTile {
                    thrown: wilds,
                    declinable: wilds,
                },
                ..Flow::four_seats(
                    TileSetKind::Honors136,
                    Forms::STANDARD.with(Forms::SEVEN_PAIRS),
                )
            },
            id,
            base: BASE.int_in(raw),
            doubling: DOUBLING.bool_in(raw),
            dragon_robs,
        })
    }

    fn y2020(&self) -> bool {
        self.id == RulesetId::Beijing2020
    }

    fn table(&self) -> fan::Table {
        if self.y2020() {
            fan::Table::Y2020
        } else {
            fan::Table::Wilds
        }
    }

    /// Pays one win: its hand fan to the usual payers, or all of it by each 互包 partner.
    fn pay(&self, hand: &FinishedHand, win: &crate::settle::Win, fan: i64, st: &mut Settlement) {
        let points = fan * self.base;
        let payers: Vec<Seat> = match win.from {
            Some(from) => vec![from],
            None => hand.seats_in_play().filter(|&s| s != win.seat).collect(),
        };
        let partners: Vec<Seat> = hand
            .seats_in_play()
            .filter(|&s| s != win.seat)
            .filter(|&s| hand.claims(win.seat, s) >= 3 || hand.claims(s, win.seat) >= 3)
            .collect();
        if partners.is_empty() {
            for p in payers {
                st.pay(PaidFor::Win, p, win.seat, points);
            }
        } else {
            let whole = points * payers.len() as i64;
            for p in partners {
                st.pay(PaidFor::Win, p, win.seat, whole);
            }
        }
    }

    /// 烧庄: in a hand won by anyone, the dealer pays each other seat 2^(rounds − 1) × 底分.
    fn shaozhuang(&self, hand: &FinishedHand, st: &mut Settlement) {
        let rounds = hand.carried.shaozhuang_rounds;
        if rounds == 0 || hand.wins.is_empty() {
            return;
        }
        let fan = 1i64 << (rounds - 1).min(40);
        let each = fan.saturating_mul(self.base);
        for s in hand.seats_in_play().filter(|&s| s != hand.dealer) {
            st.pay(PaidFor::Extra(SHAOZHUANG), hand.dealer, s, each);
        }
        st.extras.push(ExtraLine {
            name: SHAOZHUANG,
            value: fan,
        });
    }
}

impl Rules for Beijing {
    fn id(&self) -> RulesetId {
        self.id
    }
    fn flow(&self) -> &Flow {
        &self.flow
    }
    fn wild_indicator(&self, wild: Tile) -> Option<Tile> {
        Some(indicator_for(wild))
    }
    fn wild_tile(&self, wall: &mut Wall, _dice: [u8; 2]) -> Option<WildDraw> {
        if self.y2020() {
            return None;
        }
        let indicator = wall.set_aside_tail()?;
        Some(WildDraw {
            indicator,
            wild: next_for_indicator(indicator),
        })
    }
    fn could_win(&self, hand: &SeatHand, tile: Tile, wild: Option<Tile>) -> bool {
        // 四惠牌 wins whatever the other tiles are.
        fan::wilds_with(hand, tile, wild) == 4 || completes_shape(hand, tile, wild, self.flow.forms)
    }
    fn wins_at_once(&self, hand: &SeatHand, tile: Tile, wild: Option<Tile>) -> bool {
        fan::wilds_with(hand, tile, wild) == 4
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        if check.win.flags.robbed_concealed_kong && !self.dragon_robs {
            return Err("this room does not let a concealed kong be robbed".into());
        }
        let scored = fan::score(
            self.table(),
            check.hand,
            check.win,
            check.dealer,
            check.wild,
        )?;
        Ok(WinScore {
            value: scored.total,
            items: scored.items,
        })
    }
    fn payment_for(&self, value: i64) -> i64 {
        if self.y2020() {
            y2020::points(self.base, self.doubling, value, 0)
        } else {
            value * self.base
        }
    }
    fn settle_win(
        &self,
        hand: &FinishedHand,
        _index: usize,
        win: &Win,
        st: &mut Settlement,
    ) -> Result<WinScore, String> {
        let scored = fan::score(
            self.table(),
            &hand.seats[win.seat],
            win,
            hand.dealer,
            hand.wild,
        )?;
        if self.y2020() {
            y2020::pay(self.base, self.doubling, hand, win, scored.total, st);
        } else {
            self.pay(hand, win, scored.total, st);
        }
        Ok(WinScore {
            items: scored.items,
            value: scored.total,
        })
    }
    fn settle_after_wins(&self, hand: &FinishedHand, st: &mut Settlement) {
        if self.y2020() {
            y2020::extras(hand, st);
        } else {
            self.shaozhuang(hand, st);
        }
    }
    fn next_hand(&self, state: &TableState, result: &HandResult) -> NextHand {
        // 连庄 after a drawn hand or a win of the dealer's; otherwise the deal passes on.
        let keeps = result.wins.is_empty() || result.wins.iter().any(|w| w.seat == result.dealer);
        NextHand {
            dealer: if keeps {
                result.dealer
            } else {
                result.dealer.next(4)
            },
            round_wind: state.round_wind,
            draw_bonus: state.draw_bonus,
        }
    }
}

#[cfg(test)]
mod tests;

/// The room options of each preset.
pub(crate) fn option_specs(id: RulesetId) -> &'static [OptionSpec] {
    if id == RulesetId::Beijing2020 {
        &[BASE, DOUBLING]
    } else {
        &[BASE, DRAGON_ROBS]
    }
}

/// The family as [`super::family`] registers it.
pub(crate) const FAMILY: super::Family = super::Family {
    options: option_specs,
    build: |id, options| Ok(std::sync::Arc::new(Beijing::new(id, options)?)),
};
