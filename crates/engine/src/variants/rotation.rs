//! The deal's succession for the families whose dealer keeps the deal after his own win or a
//! drawn hand (连庄) and otherwise passes it to the next seat (东 → 南 → 西 → 北): `guangdong`,
//! `ningbo`, `suzhou` and `wuhu`.
//!
//! The texts say only the dealer order; the prevalent wind moves on as at every table that deals
//! in that order: a wind round ends when the deal passes from its last dealer (the seat
//! before the table's first dealer) back to the first dealer, and after North the rounds start
//! again from East. In `suzhou` and `wuhu` winds score nothing, so the round is only shown; in
//! `guangdong` and `ningbo` a pung of the prevalent wind scores (圈风刻).

use crate::ruleset::{HandResult, NextHand};
use crate::table::TableState;

/// The next hand's dealer and prevalent wind at a four-seat table with 连庄.
pub(crate) fn keep_or_pass(state: &TableState, result: &HandResult) -> NextHand {
    let keeps = result.wins.is_empty() || result.wins.iter().any(|w| w.seat == result.dealer);
    let dealer = if keeps {
        result.dealer
    } else {
        result.dealer.next(4)
    };
    let round_ends = !keeps && state.first_dealer == Some(dealer);
    NextHand {
        dealer,
        round_wind: if round_ends {
            state.round_wind.next()
        } else {
            state.round_wind
        },
        draw_bonus: state.draw_bonus,
    }
}
