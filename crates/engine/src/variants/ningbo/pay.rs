//! Who pays a Ningbo win, and how many shares: the discarder two, everyone one on a self-draw,
//! the robbed player five; the claim relations (吃碰三摊) and the feeder of a 杠上开花 kong move
//! the payment onto the players they name.

use crate::meld::{KongKind, MeldKind};
use crate::seat::Seat;
use crate::settle::{ExtraLine, FinishedHand, PaidFor, Settlement, Win};

/// Shares the discarder pays (放冲 ×2).
pub const DISCARD_SHARES: i64 = 2;
/// Shares the player whose added kong was robbed pays (抢杠 ×5).
pub const ROBBED_SHARES: i64 = 5;
/// Shares a related player (or the feeder of a 杠上开花 kong) pays on a self-draw, the others
/// paying nothing (×5).
pub const SELF_DRAW_RELATION_SHARES: i64 = 5;
/// Shares a related player pays on a discard win, beside the discarder (×2; ×4 when the
/// discarder is the related player).
pub const DISCARD_RELATION_SHARES: i64 = 2;
/// The extra line of a payment a relation moves (吃碰三摊).
const RELATION: &str = "吃碰三摊";
/// Melds claimed between two players that make a relation.
pub const RELATION_CLAIMS: u32 = 3;

/// Pays one win worth `share` points per share.
pub(super) fn pay(hand: &FinishedHand, win: &Win, share: i64, st: &mut Settlement) {
    match win.from {
        None => pay_self_draw(hand, win, share, st),
        Some(from) => {
            let (shares, name) = if win.flags.robbed_kong {
                (ROBBED_SHARES, "抢杠")
            } else {
                (DISCARD_SHARES, "放冲")
            };
            st.pay(PaidFor::Extra(name), from, win.seat, share * shares);
            st.extras.push(ExtraLine {
                name,
                value: share * shares,
            });
            for payer in others(hand, win.seat) {
                let n = relations(hand, win.seat, payer);
                if n > 0 {
                    let amount = share * DISCARD_RELATION_SHARES * i64::from(n);
                    st.pay(PaidFor::Extra(RELATION), payer, win.seat, amount);
                    st.extras.push(ExtraLine {
                        name: RELATION,
                        value: amount,
                    });
                }
            }
        }
    }
}

/// A self-draw: one share from each, unless relations or a kong's feeder name who pays. Each
/// named player pays five shares, doubled for every further reason that names it (two melds
/// claimed from the feeder and a 杠上开花 on the third: ×5 ×2); the others pay nothing.
fn pay_self_draw(hand: &FinishedHand, win: &Win, share: i64, st: &mut Settlement) {
    let feeder = kong_feeder(hand, win);
    let named: Vec<(Seat, u32)> = others(hand, win.seat)
        .map(|p| {
            (
                p,
                relations(hand, win.seat, p) + u32::from(feeder == Some(p)),
            )
        })
        .filter(|&(_, n)| n > 0)
        .collect();
    if named.is_empty() {
        for payer in others(hand, win.seat) {
            st.pay(PaidFor::Win, payer, win.seat, share);
        }
        return;
    }
    for (payer, reasons) in named {
        let amount = (share * SELF_DRAW_RELATION_SHARES) << (reasons - 1).min(8);
        let name = if feeder == Some(payer) {
            "杠上开花包"
        } else {
            RELATION
        };
        st.pay(PaidFor::Extra(name), payer, win.seat, amount);
        st.extras.push(ExtraLine {
            name,
            value: amount,
        });
    }
}

/// The other seats at the table.
fn others(hand: &FinishedHand, winner: Seat) -> impl Iterator<Item = Seat> + '_ {
    hand.seats_in_play().filter(move |&s| s != winner)
}

/// Relations between the winner and `other`: one for each direction in which three or more
/// melds were claimed ("反之一样", and "能算的都要算": both directions count).
pub(super) fn relations(hand: &FinishedHand, winner: Seat, other: Seat) -> u32 {
    u32::from(hand.claims(winner, other) >= RELATION_CLAIMS)
        + u32::from(hand.claims(other, winner) >= RELATION_CLAIMS)
}

/// On a win on a kong's replacement, the seat whose discard made that kong (the last kong the
/// winner declared) when it was an exposed kong.
pub(super) fn kong_feeder(hand: &FinishedHand, win: &Win) -> Option<Seat> {
    if !win.flags.kong_replacement || win.from.is_some() {
        return None;
    }
    let last = hand.seats[win.seat]
        .melds
        .iter()
        .rev()
        .find(|m| m.meld.is_kong())?;
    let exposed = last.meld.kind == MeldKind::Kong(KongKind::Exposed);
    exposed.then_some(last.meld.from).flatten()
}
