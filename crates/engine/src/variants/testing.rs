//! A plain rule family for testing the shared flow on what Sichuan does not use: flowers,
//! chows, head bump, a reserve at the tail, tail replacements. Scores one point per win.

use crate::ruleset::{AfterWin, DiscardWins, Flow, Reserve};
use crate::ruleset::{HandResult, NextHand, Rules, RulesetId, WinCheck, WinScore};
use crate::settle::Win;
use crate::settle::{FanItem, FinishedHand, PaidFor, Settlement};
use crate::shape::Forms;
use crate::table::TableState;
use crate::wall::TileSetKind;

/// Configurable plain rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plain {
    flow: Flow,
}

impl Plain {
    /// 一炮多响 (`multi_win`) or head bump, 血战-style play on after wins (`plays_on`), tail
    /// tiles kept back from turn draws (`reserve`, two more for every kong after the first),
    /// and an indicator turned up whose next kind is wild (`wild`).
    pub fn new(multi_win: bool, plays_on: bool, reserve: usize, wild: bool) -> Plain {
        Plain {
            flow: Flow {
                reserve: Reserve {
                    tiles: reserve,
                    per_kong: 2,
                },
                wild,
                discard_wins: if multi_win {
                    DiscardWins::Every
                } else {
                    DiscardWins::FirstInTurn
                },
                after_win: if plays_on {
                    AfterWin::PlayOn
                } else {
                    AfterWin::HandEnds
                },
                ..Flow::four_seats(
                    TileSetKind::Flowers144,
                    Forms::STANDARD
                        .with(Forms::SEVEN_PAIRS)
                        .with(Forms::THIRTEEN_ORPHANS),
                )
            },
        }
    }
}

impl Rules for Plain {
    fn id(&self) -> RulesetId {
        RulesetId::Sichuan
    }
    fn flow(&self) -> &Flow {
        &self.flow
    }
    fn wild_indicator(&self, wild: crate::Tile) -> Option<crate::Tile> {
        Some(crate::wall::indicator_for(wild))
    }
    fn wild_tile(
        &self,
        wall: &mut crate::wall::Wall,
        _dice: [u8; 2],
    ) -> Option<crate::wall::WildDraw> {
        if !self.flow.wild {
            return None;
        }
        // Flowers are passed over, as Ningbo does: a wild kind is a playing tile.
        let indicator = wall.turn_up_inside(0, |t| !t.is_flower())?;
        Some(crate::wall::WildDraw {
            indicator,
            wild: crate::wall::next_for_indicator(indicator),
        })
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        if !self.could_win(check.hand, check.win.tile, check.wild) {
            return Err("not complete".into());
        }
        Ok(WinScore {
            items: vec![FanItem {
                name: "和",
                value: 1,
                count: 1,
            }],
            value: 1,
        })
    }
    fn settle_win(
        &self,
        hand: &FinishedHand,
        _index: usize,
        win: &Win,
        st: &mut Settlement,
    ) -> Result<WinScore, String> {
        let sh = &hand.seats[win.seat];
        if !self.could_win(sh, win.tile, hand.wild) {
            return Err("not complete".into());
        }
        match win.from {
            Some(f) => st.pay(PaidFor::Win, f, win.seat, 1),
            None => {
                for s in hand.seats_in_play().filter(|&s| s != win.seat) {
                    st.pay(PaidFor::Win, s, win.seat, 1);
                }
            }
        }
        Ok(WinScore {
            items: Vec::new(),
            value: 1,
        })
    }
    fn next_hand(&self, state: &TableState, result: &HandResult) -> NextHand {
        NextHand {
            dealer: result.wins.first().map_or(state.dealer, |w| w.seat),
            round_wind: state.round_wind,
            draw_bonus: state.draw_bonus,
        }
    }
}

/// Settles a hand written as JSON in the `settle` format and returns the output as JSON (the
/// families' rule tests go through the same path as `mahjong settle`).
pub(crate) fn settle(hand: serde_json::Value) -> serde_json::Value {
    let input: crate::format::SettleInput = serde_json::from_value(hand).expect("test hand parses");
    serde_json::to_value(crate::format::settle_line(&input)).expect("serializes")
}

/// Settles a hand written as JSON in the `settle` format and returns the engine's settlement
/// itself (with what the output format does not carry, such as the payments).
pub(crate) fn settlement(hand: serde_json::Value) -> Settlement {
    let input: crate::format::SettleInput = serde_json::from_value(hand).expect("test hand parses");
    let (ruleset, finished) = input.to_hand().expect("the hand reads");
    ruleset.settle(&finished).expect("the hand settles")
}

/// Scores a hand with its family's scoring alone, past the referee: only for a rule the spec
/// states although no hand reachable in play exercises it (a 互包 pair both winning on one
/// discard), so that the rule as written stays tested.
pub(crate) fn score_past_the_referee(hand: serde_json::Value) -> serde_json::Value {
    let input: crate::format::SettleInput = serde_json::from_value(hand).expect("test hand parses");
    let (ruleset, finished) = input.to_hand().expect("the hand reads");
    let st =
        crate::ruleset::settle_checked(ruleset.rules(), &finished).expect("the family scores it");
    let out = crate::format::SettleOutput::settled(input.id.clone(), finished.players, &st);
    serde_json::to_value(out).expect("serializes")
}

/// The `deltas` of a settle output.
pub(crate) fn deltas(out: &serde_json::Value) -> Vec<i64> {
    let d = out
        .get("deltas")
        .unwrap_or_else(|| panic!("no deltas: {out}"));
    d.as_array()
        .expect("array")
        .iter()
        .map(|v| v.as_i64().expect("int"))
        .collect()
}
