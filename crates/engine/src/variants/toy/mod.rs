//! `toy` (玩具麻将): a family that exists only in the engine's tests, to show what adding a
//! family takes. All of it is this folder plus its one line in [`super::presets!`]: the room
//! option is validated, the hands flow, the referee judges them and settling runs the template
//! without any other file knowing it is there.
//!
//! Its rules: 136 tiles, chows, four sets and a pair or seven pairs, head bump, the hand ends
//! at the first win. A win is 1 fan, one more for a self-draw and one more for seven pairs;
//! each fan is worth the room's `stake`. The discarder pays a discard win; everyone pays a
//! self-draw. The winner deals next; a drawn hand keeps the dealer.

use std::sync::Arc;

use crate::ruleset::{
    DiscardWins, Flow, HandResult, NextHand, OptionSpec, RawOptions, Rules, RulesetId, WinCheck,
    WinScore,
};
use crate::settle::{FanItem, FinishedHand, PaidFor, SeatHand, Settlement, Win};
use crate::shape::Forms;
use crate::table::TableState;
use crate::wall::TileSetKind;

#[cfg(test)]
mod tests;

/// Points per fan (the room option).
pub const STAKE: OptionSpec = OptionSpec::int("stake", "每番分", "Points per fan", 1..=100, 1);

/// The toy family with validated options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toy {
    flow: Flow,
    stake: i64,
}

impl Toy {
    fn new(options: &RawOptions) -> Toy {
        Toy {
            flow: Flow {
                discard_wins: DiscardWins::FirstInTurn,
                ..Flow::four_seats(
                    TileSetKind::Honors136,
                    Forms::STANDARD.with(Forms::SEVEN_PAIRS),
                )
            },
            stake: STAKE.int_in(options),
        }
    }

    /// The fan of a win, or why it is none.
    fn score(&self, hand: &SeatHand, win: &Win) -> Result<WinScore, String> {
        if !self.could_win(hand, win.tile, None) {
            return Err("not four sets and a pair, nor seven pairs".into());
        }
        let mut items = vec![FanItem {
            name: "和",
            value: 1,
            count: 1,
        }];
        if win.from.is_none() {
            items.push(FanItem {
                name: "自摸",
                value: 1,
                count: 1,
            });
        }
        let mut full = hand.concealed;
        full.add(win.tile);
        if hand.melds.is_empty() && crate::shape::is_complete(&full, 0, Forms::SEVEN_PAIRS) {
            items.push(FanItem {
                name: "七对",
                value: 1,
                count: 1,
            });
        }
        let value = items.iter().map(|i| i.value).sum();
        Ok(WinScore { items, value })
    }
}

impl Rules for Toy {
    fn id(&self) -> RulesetId {
        RulesetId::Toy
    }
    fn flow(&self) -> &Flow {
        &self.flow
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        self.score(check.hand, check.win)
    }
    fn settle_win(
        &self,
        hand: &FinishedHand,
        _index: usize,
        win: &Win,
        st: &mut Settlement,
    ) -> Result<WinScore, String> {
        let score = self.score(&hand.seats[win.seat], win)?;
        let amount = score.value * self.stake;
        match win.from {
            Some(discarder) => st.pay(PaidFor::Win, discarder, win.seat, amount),
            None => {
                for payer in hand.seats_in_play().filter(|&s| s != win.seat) {
                    st.pay(PaidFor::Win, payer, win.seat, amount);
                }
            }
        }
        Ok(score)
    }
    fn next_hand(&self, state: &TableState, result: &HandResult) -> NextHand {
        NextHand {
            dealer: result.wins.first().map_or(state.dealer, |w| w.seat),
            round_wind: state.round_wind,
            draw_bonus: state.draw_bonus,
        }
    }
}

/// The room options of the preset.
pub(crate) fn option_specs(_id: RulesetId) -> &'static [OptionSpec] {
    &[STAKE]
}

/// The family as [`super::family`] registers it.
pub(crate) const FAMILY: super::Family = super::Family {
    options: option_specs,
    build: |_, options| Ok(Arc::new(Toy::new(options))),
};
