//! 广东鸡平胡: preset `guangdong`, as decided in `docs/rules/guangdong.md`.
//!
//! 136 tiles without flowers, chows by the 下家 (pung beats chow), pungs and kongs, 一炮多响,
//! 漏胡 on the passed tile kind as in Shanghai, robbing only an added kong. Winning shapes are four
//! sets and a pair, and 十三幺; seven pairs is not a hand. A win takes the single highest row of
//! the fan table (鸡胡 0 … 6), plus the additions (自摸, 门清, dragon pungs, seat- and
//! prevalent-wind pungs, 海底捞月, 抢杠) unless the row is worth 6; the total is capped at the
//! 爆胡 limit. One payer pays 底分 × 2^fan: everyone on a self-draw, the discarder on a discard
//! (each winner of 一炮多响), the kong's feeder all three on 杠上开花包杠, the robbed player all
//! three on 抢杠. No kong money. The dealer keeps the deal after his own win or a drawn hand.
//!
//! Decisions taken here where the spec is silent (sources: the common 鸡平胡 rule pages the
//! spec's own Decisions rely on, as noted):
//! - **Room options** are `base` (底分, default 1), `fan_cap` (爆胡, default 6, 3..=13: the
//!   payment floors of 3 fan need room below the cap) and `min_fan` (起胡, default 0, at most
//!   the cap).
//! - **The best reading.** A hand that splits several ways (`111222333m` as pungs or chows) is
//!   scored in every split and the highest total is kept, as players would claim it.
//! - **抢杠 is not also 自摸.** A robbed kong is *paid* as a self-draw (the robbed player pays
//!   for all three) but its winner did not draw the tile: it takes the 抢杠 addition and not
//!   the 自摸 one, so one circumstance is not counted twice.
//! - **海底捞月** is a self-draw of the last tile of the wall (a kong's replacement included
//!   when it is the last tile): the name says "fishing the moon", i.e. drawing it. A win on the
//!   discard after the last tile scores nothing extra.
//! - **地胡** is a self-draw on the non-dealer's first draw only, as the table says; a win on
//!   the dealer's first discard is an ordinary win.
//! - **杠上开花 is part of the win's fan**: a win on a kong's replacement below 3 fan counts 3
//!   (the 杠上开花 line shows the raise), so it also counts 3 against 起胡 and for the value bots
//!   weigh. The 一炮三响 floor depends on the other winners, so it is a payment rule only:
//!   the 起胡 test uses each hand's own fan.
//! - **起胡** compares the total after the additions, the cap and the 杠上开花 floor; a win below
//!   it is not offered in play and is refused by `settle`.
//! - **杠上开花包杠** applies when the last kong the winner declared (the one whose replacement
//!   won) is an exposed kong claimed on a discard; a concealed or added kong's replacement
//!   wins are ordinary self-draws paid by all three.
//! - **Wind rounds** (东→南→西→北): the table's first dealer (drawn from the table's seed: 执位
//!   at random) opens the East round, and a round ends when the deal passes from its last
//!   dealer (the seat before the first dealer) to the first dealer again. After North the
//!   rounds start again from East; a match's length is the room's business. A table saved
//!   before [`TableState::first_dealer`] was kept stays in its round.

mod fan;

#[cfg(test)]
mod tests;

use crate::ruleset::Flow;
use crate::ruleset::{
    HandResult, MissedWin, NextHand, OptionError, OptionSpec, RawOptions, Rules, RulesetId,
    WinCheck, WinScore,
};
use crate::seat::Seat;
use crate::settle::{ExtraLine, FinishedHand, PaidFor, Settlement, Win};
use crate::shape::Forms;
use crate::table::TableState;
use crate::wall::TileSetKind;

pub use fan::Row;

/// The fan a win on a kong's replacement (杠上开花) and each winner of 一炮三响 is paid at least.
pub const FLOOR_FAN: i64 = 3;

/// The Guangdong family with validated room options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guangdong {
    /// How its hands flow (some of it set by the room's options).
    flow: Flow,
    /// 底分: the points of a 0-fan win per payer.
    base: i64,
    /// 爆胡: a total above it counts as it.
    fan_cap: i64,
    /// 起胡: the least fan a win needs.
    min_fan: i64,
}

/// 底分.
pub const BASE: OptionSpec = OptionSpec::int("base", "底分", "Base points", 1..=1_000_000, 1);
/// 爆胡: the fan limit.
pub const FAN_CAP: OptionSpec = OptionSpec::int("fan_cap", "爆胡番数", "Fan limit", 3..=13, 6);
/// 起胡: the least fan a win needs.
pub const MIN_FAN: OptionSpec =
    OptionSpec::int("min_fan", "起胡番数", "Minimum fan to win", 0..=13, 0);

impl Guangdong {
    /// Validates options.
    ///
    /// # Errors
    /// An unknown option, a value out of range, or a minimum above the cap.
    pub fn new(raw: &RawOptions) -> Result<Guangdong, OptionError> {
        let g = Guangdong {
            flow: Flow {
                missed_win: MissedWin::SameKindUntilOwnMove,
                // Decision (others.md): four sets and a pair, and 十三幺; no seven pairs.
                ..Flow::four_seats(
                    TileSetKind::Honors136,
                    Forms::STANDARD.with(Forms::THIRTEEN_ORPHANS),
                )
            },
            base: BASE.int_in(raw),
            fan_cap: FAN_CAP.int_in(raw),
            min_fan: MIN_FAN.int_in(raw),
        };
        if g.min_fan > g.fan_cap {
            return Err(OptionError::BadValue {
                name: MIN_FAN.name.to_owned(),
                problem: format!(
                    "a minimum of {} fan is above the {}-fan limit: no hand could win",
                    g.min_fan, g.fan_cap
                ),
            });
        }
        Ok(g)
    }

    /// Points one payer pays for a win of `fan`: 底分 × 2^fan.
    fn points(&self, fan: i64) -> i64 {
        self.base << fan.clamp(0, 40)
    }

    /// Scores a win and applies 起胡; `Err` names the rule that forbids it.
    fn judge(&self, hand: &FinishedHand, win: &Win) -> Result<fan::Scored, String> {
        let ctx = fan::Context {
            dealer: hand.dealer,
            round_wind: hand.round_wind,
            fan_cap: self.fan_cap,
        };
        self.admit(&ctx, &hand.seats[win.seat], win)
    }

    fn admit(
        &self,
        ctx: &fan::Context,
        hand: &crate::settle::SeatHand,
        win: &Win,
    ) -> Result<fan::Scored, String> {
        if win.flags.robbed_concealed_kong {
            return Err("only an added kong may be robbed".into());
        }
        let scored = fan::score(ctx, hand, win)?;
        if scored.total < self.min_fan {
            return Err(format!(
                "{} fan is below this room's minimum of {} (起胡)",
                scored.total, self.min_fan
            ));
        }
        Ok(scored)
    }

    /// Pays one win of `fan`: the discarder, everyone, or the one who pays for all three.
    fn pay(&self, hand: &FinishedHand, win: &Win, fan: i64, st: &mut Settlement) {
        let points = self.points(fan);
        let others: Vec<Seat> = hand.seats_in_play().filter(|&s| s != win.seat).collect();
        let all_three = points * others.len() as i64;
        match win.from {
            // 抢杠包三家: paid as a self-draw, all of it by the robbed player.
            Some(robbed) if win.flags.robbed_kong => {
                let name = "抢杠包三家";
                st.pay(PaidFor::Extra(name), robbed, win.seat, all_three);
                st.extras.push(ExtraLine {
                    name,
                    value: all_three,
                });
            }
            Some(discarder) => st.pay(PaidFor::Win, discarder, win.seat, points),
            None => match kong_feeder(hand, win) {
                // 杠上开花包杠: the feeder of the exposed kong pays for all three.
                Some(feeder) => {
                    let name = "杠上开花包杠";
                    st.pay(PaidFor::Extra(name), feeder, win.seat, all_three);
                    st.extras.push(ExtraLine {
                        name,
                        value: all_three,
                    });
                }
                None => {
                    for payer in others {
                        st.pay(PaidFor::Win, payer, win.seat, points);
                    }
                }
            },
        }
    }
}

/// On a win on a kong's replacement, the seat whose discard made that kong (the last kong the
/// winner declared) when it was an exposed kong.
fn kong_feeder(hand: &FinishedHand, win: &Win) -> Option<Seat> {
    if !win.flags.kong_replacement || win.from.is_some() {
        return None;
    }
    let last = hand.seats[win.seat]
        .melds
        .iter()
        .rev()
        .find(|m| m.meld.is_kong())?;
    let exposed = last.meld.kind == crate::meld::MeldKind::Kong(crate::meld::KongKind::Exposed);
    exposed.then_some(last.meld.from).flatten()
}

impl Rules for Guangdong {
    fn id(&self) -> RulesetId {
        RulesetId::Guangdong
    }
    fn flow(&self) -> &Flow {
        &self.flow
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        let ctx = fan::Context {
            dealer: check.dealer,
            round_wind: check.round_wind,
            fan_cap: self.fan_cap,
        };
        let scored = self.admit(&ctx, check.hand, check.win)?;
        Ok(WinScore {
            value: scored.total,
            items: scored.items,
        })
    }
    fn payment_for(&self, value: i64) -> i64 {
        self.points(value)
    }
    fn settle_win(
        &self,
        hand: &FinishedHand,
        _index: usize,
        win: &Win,
        st: &mut Settlement,
    ) -> Result<WinScore, String> {
        let scored = self.judge(hand, win)?;
        let mut items = scored.items;
        let mut total = scored.total;
        // 一炮三响: three winners on one discard are each paid at least 3 fan.
        let three_on_a_discard = hand.wins.len() == 3
            && hand
                .wins
                .iter()
                .all(|w| w.from.is_some() && !w.flags.robbed_kong);
        if three_on_a_discard {
            let raised = total.max(FLOOR_FAN.min(self.fan_cap));
            items.push(fan::item("一炮三响", raised - total, 1));
            total = raised;
        }
        self.pay(hand, win, total, st);
        Ok(WinScore {
            items,
            value: total,
        })
    }
    fn next_hand(&self, state: &TableState, result: &HandResult) -> NextHand {
        // 连庄 after the dealer's own win (among several too) or a drawn hand.
        super::rotation::keep_or_pass(state, result)
    }
}

/// The room options of the preset.
pub(crate) fn option_specs(_id: RulesetId) -> &'static [OptionSpec] {
    &[BASE, FAN_CAP, MIN_FAN]
}

/// The family as [`super::family`] registers it.
pub(crate) const FAMILY: super::Family = super::Family {
    options: option_specs,
    build: |_, options| Ok(std::sync::Arc::new(Guangdong::new(options)?)),
};
