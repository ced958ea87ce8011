//! 国标麻将 (Mahjong Competition Rules, MCR): presets `guobiao` and `guobiao-house`, as decided
//! in `docs/rules/guobiao.md`.
//!
//! The calculator ([`score()`]) is usable on its own (`mahjong score`, `POST /api/score`): the
//! official table of 81 elements ([`fan`]), set combinations under the account principles,
//! every reading of the hand tried and the highest kept.
//!
//! The flow: 144 tiles, flowers set aside and replaced at once from the tail, chows, head bump
//! (one winner per discard: the first in turn order after the discarder), a win needs 8 fans
//! without flowers. Payments: a discard win — the discarder pays 8 + the total, each other
//! player 8; a self-draw — each other player pays 8 + the total. A robbed kong is paid by the
//! kong's owner as a discard.
//!
//! Decisions taken here where the spec is silent:
//! - **The match.** The deal passes to the next seat after every hand, won or drawn, so each
//!   player deals once per wind round; the prevalent wind moves on every four hands (East,
//!   South, West, North: 16 hands). Seat winds count from the dealer. Players keep their seats
//!   between rounds: the official re-seating at the start of each round (a change of who sits
//!   next to whom) is not modelled, because rooms keep a player in one seat for the match.
//! - **Flowers** count in the total a winner is paid (they are fans of the hand), never towards
//!   the minimum.
//! - **House hands** (`guobiao-house`): 天和, 地和 and 人和 need any winning shape (the 8-fan
//!   minimum is waived: the text says 牌型不限) and replace the hand's other fans; when the
//!   hand's own fans total more, those are scored instead. 四方大发 takes the place of 大四喜.
//! - **Escapes:** the rules set no penalty (`escape_penalty` keeps its default).

mod combos;
pub mod fan;
mod house;
pub mod score;

pub use fan::Fan;
pub use score::{McrHand, ScoreError, Scored, WinContext, score};

use crate::ruleset::{DiscardWins, Flow};
use crate::ruleset::{HandResult, NextHand, Rules, RulesetId, WinCheck, WinScore};
use crate::seat::Seat;
use crate::settle::{FanItem, FinishedHand, PaidFor, SeatHand, Settlement, Win};
use crate::table::TableState;
use crate::wall::TileSetKind;

/// The 8-fan minimum (起和番): a win needs this many fans, flowers excluded.
pub const MINIMUM: i64 = 8;

/// What every player pays a winner on top of the fans (底分).
pub const BASE: i64 = 8;

/// Hands in a wind round: the prevalent wind moves on after this many.
pub const HANDS_PER_ROUND: u32 = 4;

/// The Guobiao family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guobiao {
    /// How its hands flow (some of it set by the room's options).
    flow: Flow,
    id: RulesetId,
    house: bool,
}

impl Guobiao {
    /// The preset's rules (it has no room options: [`option_specs`]).
    pub fn new(id: RulesetId) -> Guobiao {
        Guobiao {
            flow: Flow {
                // Head bump: the first winner in turn order after the discarder.
                discard_wins: DiscardWins::FirstInTurn,
                match_hands: Some(4 * HANDS_PER_ROUND),
                ..Flow::four_seats(TileSetKind::Flowers144, score::FORMS)
            },
            id,
            house: id == RulesetId::GuobiaoHouse,
        }
    }

    /// Scores one win as the family does, minimum checked.
    fn score_win(
        &self,
        hand: &SeatHand,
        win: &Win,
        dealer: Seat,
        round_wind: crate::Wind,
    ) -> Result<WinScore, String> {
        let mcr = McrHand {
            concealed: hand.concealed,
            melds: hand.melds.iter().map(|m| m.meld).collect(),
            win_tile: win.tile,
            context: WinContext {
                self_drawn: win.is_self_draw(),
                last_of_kind: win.flags.last_of_kind && !win.flags.robbed_kong,
                kong_win: win.flags.kong_replacement || win.flags.robbed_kong,
                last_tile: win.flags.last_tile && !win.flags.kong_replacement,
            },
            seat_wind: win.seat.wind(dealer, 4),
            round_wind,
            flowers: u8::try_from(hand.flowers.len()).unwrap_or(u8::MAX),
        };
        let scored = score(&mcr).map_err(|e| e.to_string())?;
        if self.house
            && let Some(house) = house::score(&mcr, &scored, win, dealer)
        {
            return Ok(house);
        }
        let fans = scored.without_flowers();
        if fans < MINIMUM {
            return Err(format!(
                "{fans} fans without flowers: a Guobiao win needs at least {MINIMUM}"
            ));
        }
        Ok(WinScore {
            items: items(&scored),
            value: scored.total,
        })
    }
}

/// A scored hand's lines as settlement items.
pub(crate) fn items(scored: &Scored) -> Vec<FanItem> {
    scored
        .fans
        .iter()
        .map(|&(f, count)| FanItem {
            name: f.zh(),
            value: f.value(),
            count,
        })
        .collect()
}

impl Rules for Guobiao {
    fn id(&self) -> RulesetId {
        self.id
    }
    fn flow(&self) -> &Flow {
        &self.flow
    }
    fn payment_for(&self, value: i64) -> i64 {
        BASE + value
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        self.score_win(check.hand, check.win, check.dealer, check.round_wind)
    }

    fn settle_win(
        &self,
        hand: &FinishedHand,
        _index: usize,
        win: &Win,
        st: &mut Settlement,
    ) -> Result<WinScore, String> {
        // The referee lets through at most one win: Guobiao plays head bump.
        let scored = self.score_win(&hand.seats[win.seat], win, hand.dealer, hand.round_wind)?;
        for payer in hand.seats_in_play().filter(|&s| s != win.seat) {
            let amount = match win.from {
                Some(from) if from == payer => BASE + scored.value,
                Some(_) => BASE,
                None => BASE + scored.value,
            };
            st.pay(PaidFor::Win, payer, win.seat, amount);
        }
        Ok(scored)
    }

    fn next_hand(&self, state: &TableState, _result: &HandResult) -> NextHand {
        let played = state.hands_played + 1;
        NextHand {
            dealer: state.dealer.next(4),
            round_wind: if played.is_multiple_of(HANDS_PER_ROUND) {
                state.round_wind.next()
            } else {
                state.round_wind
            },
            draw_bonus: state.draw_bonus,
        }
    }
}

#[cfg(test)]
mod tests;

/// The room options of the presets: none.
pub(crate) fn option_specs(_id: RulesetId) -> &'static [crate::ruleset::OptionSpec] {
    &[]
}

/// The family as [`super::family`] registers it.
pub(crate) const FAMILY: super::Family = super::Family {
    options: option_specs,
    build: |id, _| Ok(std::sync::Arc::new(Guobiao::new(id))),
};
