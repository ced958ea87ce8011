//! The payments of a settlement held against the rest of it (shared by the conformance, property
//! and fuzz suites): summed seat by seat they are the deltas, each moves a positive amount from
//! one seat to another, a win's payment goes to a winner, and an extra's names a line of the
//! settlement's `extras`.
#![allow(dead_code)]

use engine::BySeat;
use engine::settle::{PaidFor, Settlement};

/// What is wrong with `st`'s payments, if anything.
pub fn problem(st: &Settlement) -> Option<String> {
    // Summed here rather than by `payment_totals`, which is checked against this sum too.
    let mut sums = BySeat::<i64>::default();
    for p in &st.payments {
        sums[p.payer] -= p.amount;
        sums[p.payee] += p.amount;
    }
    if sums != st.deltas {
        return Some(format!(
            "payments sum to {:?}, the deltas are {:?}: {:?}",
            sums.0, st.deltas.0, st.payments
        ));
    }
    if st.payment_totals() != sums {
        return Some(format!(
            "payment_totals {:?}, the payments sum to {:?}",
            st.payment_totals().0,
            sums.0
        ));
    }
    for p in &st.payments {
        if p.amount <= 0 {
            return Some(format!("a payment of no positive amount: {p:?}"));
        }
        if p.payer == p.payee {
            return Some(format!("a seat pays itself: {p:?}"));
        }
        let explained = match p.paid_for {
            PaidFor::Win => st.fans.iter().any(|f| f.seat == p.payee),
            PaidFor::Extra(name) => st.extras.iter().any(|e| e.name == name),
        };
        if !explained {
            return Some(format!(
                "{p:?} has no line behind it among fans {:?} and extras {:?}",
                st.fans.iter().map(|f| f.seat).collect::<Vec<_>>(),
                st.extras.iter().map(|e| e.name).collect::<Vec<_>>()
            ));
        }
    }
    None
}
