//! Payments: who pays each win, 查叫 / 查花猪 / 查大叫 at the end, kong money and streaks.

use super::{MAX_STREAK_DOUBLINGS, Preset, Sichuan};
use crate::meld::{KongKind, MeldKind};
use crate::seat::{Seat, SeatSet};
use crate::settle::{ExtraLine, FinishedHand, PaidFor, SeatHand, Settlement, Win};

impl Sichuan {
    pub(super) fn pay_win(
        &self,
        hand: &FinishedHand,
        index: usize,
        win: &Win,
        value: i64,
        st: &mut Settlement,
    ) {
        let amount = self.unit(value);
        if let Some(from) = win.from {
            st.pay(PaidFor::Win, from, win.seat, amount);
            return;
        }
        // 引杠 then 杠上花 (standard): the feeder of the kong pays as for a discard.
        if self.preset == Preset::Standard && win.flags.kong_replacement {
            let last_kong = hand.seats[win.seat]
                .melds
                .iter()
                .rev()
                .find(|m| m.meld.is_kong());
            if let Some(m) = last_kong
                && m.meld.kind == MeldKind::Kong(KongKind::Exposed)
                && let Some(feeder) = m.meld.from
            {
                st.pay(PaidFor::Win, feeder, win.seat, amount);
                return;
            }
        }
        let earlier: SeatSet = hand.wins[..index].iter().map(|w| w.seat).collect();
        for payer in hand.seats_in_play() {
            let pays = payer != win.seat && (!self.is_xuezhan() || !earlier.contains(payer));
            if pays {
                st.pay(PaidFor::Win, payer, win.seat, amount);
            }
        }
    }

    /// 查叫 of the standard preset: each player not ready pays each ready player that player's
    /// smallest winning points.
    pub(super) fn check_ready_standard(&self, hand: &FinishedHand, st: &mut Settlement) {
        let values: Vec<(Seat, Option<i64>)> = hand
            .seats_in_play()
            .filter(|&s| hand.seats[s].is_given())
            .map(|s| (s, self.ready_value(&hand.seats[s], s, hand.dealer, false)))
            .collect();
        for &(payer, pv) in &values {
            if pv.is_some() {
                continue;
            }
            for &(payee, v) in &values {
                if let Some(v) = v {
                    let (name, amount) = ("查叫", self.unit(v));
                    st.pay(PaidFor::Extra(name), payer, payee, amount);
                    st.extras.push(ExtraLine {
                        name,
                        value: amount,
                    });
                }
            }
        }
    }

    pub(super) fn is_flower_pig(&self, sh: &SeatHand) -> bool {
        let all = sh.all_tiles();
        match self.preset {
            Preset::Xuezhan9 => sh.void.is_some_and(|v| all.suit_total(v) > 0),
            _ => all.suits().numbered_count() >= 3,
        }
    }

    /// 查花猪 and 查大叫 at the end of the wall. Returns the seats whose kong money is returned
    /// (花猪 or not ready).
    pub(super) fn check_ready_at_wall(&self, hand: &FinishedHand, st: &mut Settlement) -> SeatSet {
        let in_play = hand.still_in();
        let mut pigs = SeatSet::EMPTY;
        let mut ready: Vec<(Seat, i64)> = Vec::new();
        let mut not_ready = SeatSet::EMPTY;
        let in_play: SeatSet = in_play
            .iter()
            .filter(|&s| hand.seats[s].is_given())
            .collect();
        for s in in_play.iter() {
            let sh = &hand.seats[s];
            if self.is_flower_pig(sh) {
                pigs.insert(s);
                not_ready.insert(s);
            } else if let Some(v) = self.ready_value(sh, s, hand.dealer, true) {
                ready.push((s, v));
            } else {
                not_ready.insert(s);
            }
        }
        let cap = i64::from(self.fan_cap);
        match self.preset {
            Preset::Xuezhan9 => {
                for payer in not_ready.iter() {
                    let extra = i64::from(pigs.contains(payer));
                    for &(payee, v) in &ready {
                        let amount = self.unit((v + extra).min(cap));
                        let name = if extra == 1 { "花猪" } else { "查叫" };
                        st.pay(PaidFor::Extra(name), payer, payee, amount);
                        st.extras.push(ExtraLine {
                            name,
                            value: amount,
                        });
                    }
                }
            }
            _ => {
                for pig in pigs.iter() {
                    for payee in in_play.iter().filter(|s| !pigs.contains(*s)) {
                        let (name, amount) = ("查花猪", self.unit(cap));
                        st.pay(PaidFor::Extra(name), pig, payee, amount);
                        st.extras.push(ExtraLine {
                            name,
                            value: amount,
                        });
                    }
                }
                for payer in not_ready.iter().filter(|s| !pigs.contains(*s)) {
                    for &(payee, v) in &ready {
                        let (name, amount) = ("查大叫", self.unit(v));
                        st.pay(PaidFor::Extra(name), payer, payee, amount);
                        st.extras.push(ExtraLine {
                            name,
                            value: amount,
                        });
                    }
                }
            }
        }
        not_ready
    }

    /// 刮风下雨: exposed and added kongs 1×, concealed 2× from each player still in when the kong
    /// was made; returned (退税) when the owner ends the wall as a 花猪 or not ready.
    pub(super) fn pay_kongs(&self, hand: &FinishedHand, refunds: SeatSet, st: &mut Settlement) {
        for owner in hand.seats_in_play() {
            for m in hand.seats[owner].melds.iter() {
                let units = match m.meld.kind {
                    MeldKind::Kong(KongKind::Concealed) => 2,
                    MeldKind::Kong(_) => 1,
                    _ => continue,
                };
                let name = if units == 2 { "下雨" } else { "刮风" };
                if refunds.contains(owner) {
                    st.extras.push(ExtraLine {
                        name: "退税",
                        value: units * self.coefficient,
                    });
                    continue;
                }
                for payer in m.in_play.iter().filter(|&p| p != owner) {
                    st.pay(PaidFor::Extra(name), payer, owner, units * self.coefficient);
                }
                st.extras.push(ExtraLine {
                    name,
                    value: units * self.coefficient,
                });
            }
        }
    }

    /// 黄庄 and 连庄 multipliers of `sichuan-xuezhan-9`.
    pub(super) fn apply_streaks(&self, hand: &FinishedHand, st: &mut Settlement) {
        let draws = hand.carried.draw_streak.min(MAX_STREAK_DOUBLINGS);
        if draws > 0 {
            st.scale(1 << draws);
            st.extras.push(ExtraLine {
                name: "黄庄",
                value: 1 << draws,
            });
        }
        let kept = hand.carried.dealer_streak.min(MAX_STREAK_DOUBLINGS + 1);
        if kept >= 2 {
            st.scale(1 << (kept - 1));
            st.extras.push(ExtraLine {
                name: "连庄",
                value: 1 << (kept - 1),
            });
        }
    }
}
