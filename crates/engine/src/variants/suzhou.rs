//! 苏州麻将: preset `suzhou`, as decided in `docs/rules/suzhou.md` (seed 003, "苏州麻将算钱规则").
//!
//! 136 tiles without flowers, chows by the 下家 (pung beats chow), pungs and kongs, robbing an
//! added kong, head bump (no 一炮多响). Winning shapes are four sets and a pair, and 七对. A win's
//! fan is its shape fan (七对 4, 碰碰胡 2, else 平胡 1) plus its suit fan (字一色 6, 清一色 2,
//! 混一色 2, else 0), doubled once for each of 门清, 自摸 and 和绝张; there is no cap. The points
//! are fan × 底分: on a self-draw each other player pays them, on a discard the discarder pays
//! them once, and the player whose added kong is robbed pays as a discarder. No kong money, no
//! dealer bonus; a drawn hand pays nothing. The dealer keeps the deal after his own win or a
//! drawn hand, otherwise it passes to the next seat.
//!
//! Decisions taken here where the spec is silent (sources: the seed's own words, and what the
//! Chinese names say, as noted):
//! - **Room option** `base` (底分) takes exactly the text's two values, 1 or 5 ("一般为1或者5"),
//!   default 1; 2 to 4 are refused with a message. The create-room form shows it as a number
//!   from 1 to 5, since an option's description has only a range.
//! - **The best reading.** The shape fan is the highest over every reading of the hand
//!   (`112233m445566p77s` is 七对 4, not 平胡 1), as players claim it; the suit fan and the
//!   doublings do not depend on the reading.
//! - **七对 with four of a kind** counts the four as two pairs, as the shape kernel reads seven
//!   pairs everywhere; the text has no 龙七对 row, so the four adds nothing.
//! - **和绝张 when robbing a kong.** The robbed tile's other three copies are the exposed pung it
//!   was being added to, so robbing an added kong is always 和绝张 (the text's condition, read
//!   literally). The shared flow's `last_of_kind` flag, which counts only discards and melds
//!   other than the robbed one, is therefore widened here.
//! - **A robbed kong is not 自摸**: the winner did not draw the tile, and the robbed player pays
//!   as for a discard, so it does not double as one.
//! - **The items shown** are the shape and suit fans, then one line per doubling whose value is
//!   what that doubling added, so the lines sum to the total.
//! - **No 漏胡 / 过水**: the text names no restriction on passing a win, so none applies.
//! - **Wind rounds** move on as at every table dealing 东南西北 (`variants/rotation.rs`); winds
//!   score nothing here.

#[cfg(test)]
mod tests;

use crate::ruleset::{DiscardWins, Flow};
use crate::ruleset::{
    HandResult, NextHand, OptionError, OptionSpec, RawOptions, Rules, RulesetId, WinCheck, WinScore,
};
use crate::settle::{FanItem, FinishedHand, PaidFor, SeatHand, Settlement, Win};
use crate::shape::{Forms, Set, decompositions, is_complete};
use crate::table::TableState;
use crate::wall::TileSetKind;

/// The 底分 values the text allows ("一般为1或者5").
pub const BASES: [i64; 2] = [1, 5];

/// 底分: points per fan.
pub const BASE: OptionSpec =
    OptionSpec::int("base", "底分（1或5）", "Points per fan (1 or 5)", 1..=5, 1);

/// The Suzhou family with validated room options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suzhou {
    /// How its hands flow (some of it set by the room's options).
    flow: Flow,
    /// 底分: the points of one fan ("一番对应1分", times the room's base).
    base: i64,
}

impl Suzhou {
    /// Validates options.
    ///
    /// # Errors
    /// An unknown option, or a 底分 other than 1 or 5.
    pub fn new(raw: &RawOptions) -> Result<Suzhou, OptionError> {
        let base = BASE.int_in(raw);
        if !BASES.contains(&base) {
            return Err(OptionError::BadValue {
                name: BASE.name.to_owned(),
                problem: format!("底分 is 1 or 5 (一般为1或者5), got {base}"),
            });
        }
        Ok(Suzhou {
            flow: Flow {
                discard_wins: DiscardWins::FirstInTurn,
                // Decision (others.md): four sets and a pair, and 七对.
                ..Flow::four_seats(
                    TileSetKind::Honors136,
                    Forms::STANDARD.with(Forms::SEVEN_PAIRS),
                )
            },
            base,
        })
    }

    /// Pays one win of `fan`: everyone on a self-draw, else the discarder (or the robbed player)
    /// once.
    fn pay(&self, hand: &FinishedHand, win: &Win, fan: i64, st: &mut Settlement) {
        let points = fan * self.base;
        match win.from {
            Some(payer) => st.pay(PaidFor::Win, payer, win.seat, points),
            None => {
                for payer in hand.seats_in_play().filter(|&s| s != win.seat) {
                    st.pay(PaidFor::Win, payer, win.seat, points);
                }
            }
        }
    }
}

/// A win's fan and its lines.
#[derive(Debug)]
struct Scored {
    total: i64,
    items: Vec<FanItem>,
}

/// Scores a win: the best shape fan, the suit fan, the doublings. `Err` names why it is no win.
fn score(hand: &SeatHand, win: &Win) -> Result<Scored, String> {
    if win.flags.robbed_concealed_kong {
        return Err("only an added kong may be robbed".into());
    }
    if win.tile.is_flower() {
        return Err("Suzhou is played without flowers".into());
    }
    let (shape_name, shape_fan) = best_shape(hand, win)
        .ok_or("the tiles make neither four sets and a pair nor seven pairs")?;
    let mut items = vec![item(shape_name, shape_fan)];
    let mut all = hand.all_tiles();
    all.add(win.tile);
    if let Some((name, fan)) = suit_fan(&all) {
        items.push(item(name, fan));
    }
    let mut total: i64 = items.iter().map(|i| i.value).sum();
    let doublings = [
        ("门清", hand.is_concealed()),
        ("自摸", win.is_self_draw()),
        ("和绝张", win.flags.last_of_kind || win.flags.robbed_kong),
    ];
    for (name, applies) in doublings {
        if applies {
            items.push(item(name, total));
            total *= 2;
        }
    }
    Ok(Scored { total, items })
}

/// The shape row of the best reading: 七对 4, 碰碰胡 2, 平胡 1 (any other complete hand).
fn best_shape(hand: &SeatHand, win: &Win) -> Option<(&'static str, i64)> {
    let mut full = hand.concealed;
    full.add(win.tile);
    if hand.melds.is_empty() && is_complete(&full, 0, Forms::SEVEN_PAIRS) {
        return Some(("七对", 4));
    }
    let declared_pungs = hand.melds.iter().all(|m| m.meld.is_pung_or_kong());
    decompositions(&full)
        .iter()
        .filter(|d| d.sets.len() + hand.melds.len() == 4)
        .map(|d| {
            let pungs = declared_pungs && d.sets.iter().all(|s| matches!(s, Set::Pung(_)));
            if pungs {
                ("碰碰胡", 2)
            } else {
                ("平胡", 1)
            }
        })
        .max_by_key(|&(_, fan)| fan)
}

/// The suit row: 字一色 6 (honors only), 清一色 2 (one suit), 混一色 2 (one suit and honors).
fn suit_fan(all: &crate::tiles::TileCounts) -> Option<(&'static str, i64)> {
    let suits = all.suits();
    match (suits.numbered_count(), suits.has_honors()) {
        (0, _) => Some(("字一色", 6)),
        (1, false) => Some(("清一色", 2)),
        (1, true) => Some(("混一色", 2)),
        _ => None,
    }
}

fn item(name: &'static str, value: i64) -> FanItem {
    FanItem {
        name,
        value,
        count: 1,
    }
}

impl Rules for Suzhou {
    fn id(&self) -> RulesetId {
        RulesetId::Suzhou
    }
    fn flow(&self) -> &Flow {
        &self.flow
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        let scored = score(check.hand, check.win)?;
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
        let scored = score(&hand.seats[win.seat], win)?;
        self.pay(hand, win, scored.total, st);
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
    &[BASE]
}

/// The family as [`super::family`] registers it.
pub(crate) const FAMILY: super::Family = super::Family {
    options: option_specs,
    build: |_, options| Ok(std::sync::Arc::new(Suzhou::new(options)?)),
};
