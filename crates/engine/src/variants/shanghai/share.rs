//! One winner's share: the hand type, its 花, 杠开 / 大吊车, 开宝 and 荒番, the cap; and who pays
//! it (discarder, everyone, the robbed kong's declarer, 承包 partners).

use super::Shanghai;
use crate::meld::{KongKind, MeldKind};
use crate::settle::{ExtraLine, FanItem, FinishedHand, PaidFor, SeatHand, Settlement, Win};
use crate::shape::{Forms, Set, decompositions, is_complete};
use crate::tile::Tile;

/// The qualifying hand types, from the lowest.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub enum HandType {
    /// 碰碰胡: four pungs or kongs and a pair.
    PengPeng,
    /// 混一色: one suit and honors.
    HunYiSe,
    /// 混碰: 混一色 and 碰碰胡.
    HunPeng,
    /// 清一色: one suit only.
    QingYiSe,
    /// 清碰: 清一色 and 碰碰胡.
    QingPeng,
    /// 风一色: honors only.
    FengYiSe,
    /// 风碰: 风一色 and 碰碰胡.
    FengPeng,
    /// 八花齐: all eight flowers, a win of its own.
    BaHua,
}

impl HandType {
    /// The Chinese name.
    pub const fn name(self) -> &'static str {
        match self {
            HandType::PengPeng => "碰碰胡",
            HandType::HunYiSe => "混一色",
            HandType::HunPeng => "混碰",
            HandType::QingYiSe => "清一色",
            HandType::QingPeng => "清碰",
            HandType::FengYiSe => "风一色",
            HandType::FengPeng => "风碰",
            HandType::BaHua => "八花齐",
        }
    }

    /// The fixed share in 勒子, for the types that have one.
    const fn lezi(self) -> Option<i64> {
        match self {
            HandType::PengPeng | HandType::HunYiSe => None,
            HandType::HunPeng | HandType::QingYiSe => Some(1),
            HandType::QingPeng | HandType::FengYiSe | HandType::BaHua => Some(2),
            HandType::FengPeng => Some(4),
        }
    }

    /// The cap in 勒子.
    const fn cap(self) -> i64 {
        match self {
            HandType::QingPeng | HandType::FengYiSe | HandType::BaHua => 2,
            HandType::FengPeng => 4,
            _ => 1,
        }
    }
}

/// A win's share before 开宝 and 荒番.
pub(super) struct Scored {
    pub(super) share: i64,
    pub(super) cap: i64,
    pub(super) items: Vec<FanItem>,
}

/// Whether `tile` is the eighth flower of a hand holding the other seven.
pub(super) fn eight_flowers(hand: &SeatHand, tile: Tile) -> bool {
    let mut held: Vec<Tile> = hand.flowers.clone();
    held.push(tile);
    held.sort();
    held.dedup();
    tile.is_flower() && held.len() == 8 && hand.flowers.len() == 7
}

impl Shanghai {
    /// The hand type and share of a win; `Err` names why it does not qualify.
    pub(super) fn score(&self, hand: &SeatHand, win: &Win) -> Result<Scored, String> {
        let lezi = self.lezi;
        if win.tile.is_flower() {
            if !eight_flowers(hand, win.tile) {
                return Err("a flower wins only as the eighth (八花齐)".into());
            }
            let t = HandType::BaHua;
            let share = t.lezi().unwrap_or(1) * lezi;
            let items = vec![item(t.name(), share, 1)];
            return Ok(Scored {
                share,
                cap: t.cap() * lezi,
                items,
            });
        }
        let mut full = hand.concealed;
        full.add(win.tile);
        if !is_complete(&full, hand.melds.len() as u8, Forms::STANDARD) {
            return Err("the tiles make no four sets and a pair".into());
        }
        let t = hand_type(hand, &full, win.tile).ok_or_else(|| {
            "not a qualifying hand: 碰碰胡, 混一色, 清一色 or better is needed".to_string()
        })?;
        let (hua, mut items) = self.hua(hand, &full);
        let mut share = match t.lezi() {
            Some(n) => n * lezi,
            None => self.base + hua * self.hua,
        };
        items.insert(
            0,
            item(t.name(), t.lezi().map_or(self.base, |n| n * lezi), 1),
        );
        // Decision (shanghai.md): 杠开 and 大吊车 raise a share below one 勒子 to one 勒子.
        for (name, applies) in [
            ("杠开", win.flags.kong_replacement),
            ("大吊车", big_single_wait(hand, win.tile)),
        ] {
            if applies {
                items.push(item(name, lezi, 1));
                share = share.max(lezi);
            }
        }
        Ok(Scored {
            share,
            cap: t.cap() * lezi,
            items,
        })
    }

    /// 花 of the winner's hand: flowers, honor pungs, kongs; with a line per source.
    fn hua(&self, hand: &SeatHand, full: &crate::TileCounts) -> (i64, Vec<FanItem>) {
        let mut lines: Vec<(&'static str, i64, u32)> = Vec::new();
        let mut add = |name: &'static str, value: i64| match lines.iter_mut().find(|l| l.0 == name)
        {
            Some(l) => l.2 += 1,
            None => lines.push((name, value, 1)),
        };
        for _ in &hand.flowers {
            add("花牌", 1);
        }
        for m in &hand.melds {
            let t = m.meld.tile;
            match (m.meld.kind, t.is_wind(), t.is_dragon()) {
                (MeldKind::Pung, true, _) => add("风刻", 1),
                (MeldKind::Pung, _, true) => add("箭刻", 2),
                (MeldKind::Kong(KongKind::Concealed), false, false) => add("暗杠", 2),
                (MeldKind::Kong(KongKind::Concealed), true, _) => add("风暗杠", 3),
                (MeldKind::Kong(KongKind::Concealed), _, true) => add("箭暗杠", 4),
                (MeldKind::Kong(_), false, false) => add("明杠", 1),
                (MeldKind::Kong(_), true, _) => add("风明杠", 2),
                (MeldKind::Kong(_), _, true) => add("箭明杠", 3),
                _ => {}
            }
        }
        // Honors held three times are pungs: they cannot form runs.
        for t in Tile::playing().filter(|t| t.is_honor() && full.get(*t) == 3) {
            if t.is_wind() {
                add("风刻", 1);
            } else {
                add("箭刻", 2);
            }
        }
        let total = lines.iter().map(|l| l.1 * i64::from(l.2)).sum();
        let items = lines
            .into_iter()
            .map(|(name, value, count)| item(name, value, count))
            .collect();
        (total, items)
    }

    /// The share after 开宝 and 荒番 (each doubles share and cap), capped; with their lines.
    pub(super) fn multiplied(&self, hand: &FinishedHand, scored: &Scored) -> (i64, Vec<FanItem>) {
        let mut factor = 1;
        let mut items = Vec::new();
        if hand.dice.is_some_and(kaibao) {
            factor *= 2;
            items.push(item("开宝", 2, 1));
        }
        if hand.carried.draw_bonus >= 1 {
            // Decision (shanghai.md): 荒番 doubles once, whatever the counter's height.
            factor *= 2;
            items.push(item("荒番", 2, 1));
        }
        ((scored.share * factor).min(scored.cap * factor), items)
    }

    /// Pays one winner's share, and the 承包 extras.
    pub(super) fn pay(&self, hand: &FinishedHand, win: &Win, share: i64, st: &mut Settlement) {
        let robbed = win.flags.robbed_kong;
        match win.from {
            Some(declarer) if robbed => st.pay(PaidFor::Win, declarer, win.seat, 3 * share),
            Some(discarder) => st.pay(PaidFor::Win, discarder, win.seat, share),
            None => {
                for s in hand.seats_in_play().filter(|&s| s != win.seat) {
                    st.pay(PaidFor::Win, s, win.seat, share);
                }
            }
        }
        let per_pair = if win.from.is_some() && !robbed { 1 } else { 3 };
        for other in hand.seats_in_play().filter(|&s| s != win.seat) {
            let pairs = [(win.seat, other), (other, win.seat)]
                .into_iter()
                .filter(|&(by, from)| hand.claims(by, from) >= 3)
                .count() as i64;
            if pairs > 0 {
                let extra = per_pair * share * pairs;
                let name = "承包";
                st.pay(PaidFor::Extra(name), other, win.seat, extra);
                st.extras.push(ExtraLine { name, value: extra });
            }
        }
    }
}

/// The hand's type, the highest row it fits; `None` when it fits none.
fn hand_type(hand: &SeatHand, full: &crate::TileCounts, tile: Tile) -> Option<HandType> {
    let mut all = hand.all_tiles();
    all.add(tile);
    let suits = all.suits();
    let numbered = suits.numbered_count();
    let honors = suits.has_honors();
    let all_pungs = hand.melds.iter().all(|m| m.meld.is_pung_or_kong())
        && decompositions(full)
            .iter()
            .any(|d| d.sets.iter().all(|s| matches!(s, Set::Pung(_))));
    match (numbered, honors, all_pungs) {
        (0, _, true) => Some(HandType::FengPeng),
        (0, _, false) => Some(HandType::FengYiSe),
        (1, false, true) => Some(HandType::QingPeng),
        (1, false, false) => Some(HandType::QingYiSe),
        (1, true, true) => Some(HandType::HunPeng),
        (1, true, false) => Some(HandType::HunYiSe),
        (_, _, true) => Some(HandType::PengPeng),
        _ => None,
    }
}

/// 大吊车: every other meld exposed, the winning tile completes the pair.
fn big_single_wait(hand: &SeatHand, tile: Tile) -> bool {
    hand.melds.len() == 4
        && hand.melds.iter().all(|m| !m.meld.is_concealed())
        && hand.concealed.total() == 1
        && hand.concealed.get(tile) == 1
}

/// 开宝: the dice show a pair, or a 1 and a 4.
fn kaibao([a, b]: [u8; 2]) -> bool {
    a == b || (a.min(b) == 1 && a.max(b) == 4)
}

fn item(name: &'static str, value: i64, count: u32) -> FanItem {
    FanItem { name, value, count }
}
