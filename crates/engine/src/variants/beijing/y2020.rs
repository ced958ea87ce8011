//! `beijing-2020` payments: points per payer from the fan and the 上楼 floor, kong money for the
//! winner's kongs, and 跟庄.

use crate::meld::{KongKind, MeldKind};
use crate::settle::{ExtraLine, FinishedHand, PaidFor, Settlement, Win};

/// Kong money for an exposed (or added) kong, from each payer.
const EXPOSED_KONG: i64 = 10;
/// Kong money for a concealed kong, from each other player.
const CONCEALED_KONG: i64 = 20;
/// What the dealer pays each other player when the first go-around follows its discard.
const GENZHUANG: i64 = 10;
/// The extra line of 跟庄.
const GENZHUANG_NAME: &str = "跟庄";
/// The highest 上楼 floor.
const TOP_FLOOR: u32 = 2;

/// Points one payer pays for `fan` on `floor`: 底分 × 2^fan (or 底分 × (1 + fan)), doubled
/// per floor.
pub(super) fn points(base: i64, doubling: bool, fan: i64, floor: u32) -> i64 {
    let fan = fan.clamp(0, 40);
    let hand = if doubling {
        base.saturating_mul(1 << fan)
    } else {
        base.saturating_mul(1 + fan)
    };
    hand.saturating_mul(1 << floor.min(TOP_FLOOR))
}

/// The hand's 上楼 floor: as given, or the dealer's streak of kept deals, at most two.
fn floor(hand: &FinishedHand) -> u32 {
    hand.carried
        .floor
        .max(hand.carried.dealer_streak)
        .min(TOP_FLOOR)
}

/// Pays one win: the discarder alone, or each other player on a self-draw (包庄), then the
/// winner's kong money (never multiplied by the floor).
pub(super) fn pay(
    base: i64,
    doubling: bool,
    hand: &FinishedHand,
    win: &Win,
    fan: i64,
    st: &mut Settlement,
) {
    let each = points(base, doubling, fan, floor(hand));
    let others: Vec<_> = hand.seats_in_play().filter(|&s| s != win.seat).collect();
    match win.from {
        Some(from) => st.pay(PaidFor::Win, from, win.seat, each),
        None => others
            .iter()
            .for_each(|&s| st.pay(PaidFor::Win, s, win.seat, each)),
    }
    for m in &hand.seats[win.seat].melds {
        let (kind, value) = match m.meld.kind {
            MeldKind::Kong(KongKind::Concealed) => ("暗杠", CONCEALED_KONG),
            MeldKind::Kong(_) => ("明杠", EXPOSED_KONG),
            _ => continue,
        };
        let payers: Vec<_> = match (m.meld.kind, win.from) {
            (MeldKind::Kong(KongKind::Concealed), _) | (_, None) => others.clone(),
            (_, Some(from)) => vec![from],
        };
        for &p in &payers {
            st.pay(PaidFor::Extra(kind), p, win.seat, value);
        }
        st.extras.push(ExtraLine {
            name: kind,
            value: value * payers.len() as i64,
        });
    }
}

/// 跟庄: the other three followed the dealer's first discard; the dealer pays each of them.
pub(super) fn extras(hand: &FinishedHand, st: &mut Settlement) {
    if hand.carried.shaozhuang_rounds == 0 {
        return;
    }
    for s in hand.seats_in_play().filter(|&s| s != hand.dealer) {
        st.pay(PaidFor::Extra(GENZHUANG_NAME), hand.dealer, s, GENZHUANG);
    }
    st.extras.push(ExtraLine {
        name: GENZHUANG_NAME,
        value: GENZHUANG,
    });
}
