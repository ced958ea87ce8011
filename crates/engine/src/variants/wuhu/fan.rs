//! One win's fan: 底番 + 支番 by the seed's 2468 table, the 嘴子 and the kongs, over every
//! reading of the hand, the best kept.

use crate::meld::{KongKind, MeldKind};
use crate::settle::{FanItem, SeatHand, Win};
use crate::shape::{Set, decompositions};
use crate::tile::{Suit, Tile};
use crate::tiles::TileCounts;

/// The least 支 a win needs (八支起胡).
pub const MIN_ZHI: u32 = 8;
/// One 嘴子's fan; doubled on a self-draw except 杠后开花.
pub const ZUIZI: i64 = 5;
/// Fan of each exposed (or added) kong.
pub const EXPOSED_KONG: i64 = 2;
/// Fan of each concealed kong.
pub const CONCEALED_KONG: i64 = 4;

/// A win's fan, its 底番 (paid once more by or to the dealer) and its lines.
#[derive(Debug)]
pub(super) struct Scored {
    pub(super) total: i64,
    pub(super) base_fan: i64,
    pub(super) items: Vec<FanItem>,
}

/// One set of a reading: a declared meld or a concealed set.
#[derive(Clone, Copy)]
struct Group {
    tile: Tile,
    chow: bool,
}

/// What one reading of the hand shows.
struct Reading {
    /// 押: the rank of the winning tile when it is the middle of a concealed chow.
    ya: Option<u8>,
    /// 对对胡: every set a pung or kong.
    all_pungs: bool,
    /// 通天: 123, 456 and 789 of one suit.
    straight: bool,
}

/// Scores a win in its best reading; `Err` names the rule that forbids it.
pub(super) fn score(hand: &SeatHand, win: &Win) -> Result<Scored, String> {
    if win.tile.is_flower() {
        return Err("Wuhu is played without flowers".into());
    }
    if win.flags.robbed_concealed_kong {
        return Err("only an added kong may be robbed".into());
    }
    let mut all = hand.all_tiles();
    all.add(win.tile);
    let zhi = zhi(&all);
    if zhi < MIN_ZHI {
        return Err(format!(
            "{zhi} 支: a win needs at least {MIN_ZHI} tiles of one suit (八支起胡)"
        ));
    }
    let readings = readings(hand, win);
    if readings.is_empty() {
        return Err("the tiles are not four sets and a pair".into());
    }
    readings
        .iter()
        .map(|r| total(hand, win, &all, zhi, r))
        .max_by_key(|s| s.total)
        .ok_or_else(|| "no reading".to_string())
}

/// 支: the tiles of the hand's largest suit, melds included (a kong counts four).
pub fn zhi(all: &TileCounts) -> u32 {
    Suit::NUMBERED
        .into_iter()
        .map(|s| all.suit_total(s))
        .max()
        .unwrap_or(0)
}

/// Every standard reading of the hand with the winning tile.
fn readings(hand: &SeatHand, win: &Win) -> Vec<Reading> {
    let mut full = hand.concealed;
    full.add(win.tile);
    let declared: Vec<Group> = hand
        .melds
        .iter()
        .map(|m| Group {
            tile: m.meld.tile,
            chow: m.meld.kind == MeldKind::Chow,
        })
        .collect();
    decompositions(&full)
        .into_iter()
        .filter(|d| d.sets.len() + declared.len() == 4)
        .map(|d| {
            let mut groups = declared.clone();
            groups.extend(d.sets.iter().map(|s| match *s {
                Set::Chow(t) => Group {
                    tile: t,
                    chow: true,
                },
                Set::Pung(t) => Group {
                    tile: t,
                    chow: false,
                },
            }));
            let ya = d.sets.iter().find_map(|s| match *s {
                Set::Chow(low) if low.succ_in_run() == Some(win.tile) => Some(win.tile.rank()),
                _ => None,
            });
            Reading {
                ya,
                all_pungs: groups.iter().all(|g| !g.chow),
                straight: straight(&groups),
            }
        })
        .collect()
}

/// 通天: chows starting at 1, 4 and 7 of one suit among the groups.
fn straight(groups: &[Group]) -> bool {
    Suit::NUMBERED.into_iter().any(|suit| {
        [1, 4, 7].into_iter().all(|rank| {
            groups
                .iter()
                .any(|g| g.chow && Tile::new(suit, rank) == Some(g.tile))
        })
    })
}

/// The 底番 and 支番 of the 2468 table: discard 2 + ⌈支/2⌉, discard with 押当
/// 4 + ⌈(支+押)/2⌉, self-draw 6 + 支, self-draw with 押当 8 + 支 + 押.
pub fn table_fan(zhi: u32, ya: Option<u8>, self_drawn: bool) -> (i64, i64) {
    let zhi = i64::from(zhi);
    let half_up = |n: i64| (n + 1) / 2;
    match (self_drawn, ya) {
        (false, None) => (2, half_up(zhi)),
        (false, Some(y)) => (4, half_up(zhi + i64::from(y))),
        (true, None) => (6, zhi),
        (true, Some(y)) => (8, zhi + i64::from(y)),
    }
}

/// The name of the 底番 line.
fn base_name(ya: Option<u8>, self_drawn: bool) -> &'static str {
    match (self_drawn, ya.is_some()) {
        (false, false) => "平胡",
        (false, true) => "押当",
        (true, false) => "自摸",
        (true, true) => "自摸押当",
    }
}

/// One reading's lines and total.
fn total(hand: &SeatHand, win: &Win, all: &TileCounts, zhi: u32, r: &Reading) -> Scored {
    let self_drawn = win.is_self_draw();
    let (base_fan, zhi_fan) = table_fan(zhi, r.ya, self_drawn);
    let mut items = vec![
        item(base_name(r.ya, self_drawn), base_fan, 1),
        item("支番", zhi_fan, 1),
    ];
    let zuizi = if self_drawn { 2 * ZUIZI } else { ZUIZI };
    let four_held = four_held(hand, all);
    let suits = all.suits();
    // 对对胡 does not combine with 通天 or 四核.
    let zuizi_lines = [
        ("对对胡", u32::from(r.all_pungs)),
        ("通天", u32::from(r.straight && !r.all_pungs)),
        ("四核", if r.all_pungs { 0 } else { four_held }),
        (
            "混一色",
            u32::from(suits.numbered_count() == 1 && suits.has_honors()),
        ),
    ];
    items.extend(
        zuizi_lines
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .map(|(name, n)| item(name, zuizi, n)),
    );
    if win.flags.kong_replacement && self_drawn {
        items.push(item("杠后开花", ZUIZI, 1));
    }
    let kongs = |kinds: &[KongKind]| {
        hand.melds
            .iter()
            .filter(|m| matches!(m.meld.kind, MeldKind::Kong(k) if kinds.contains(&k)))
            .count() as u32
    };
    let exposed = kongs(&[KongKind::Exposed, KongKind::Added]);
    let concealed = kongs(&[KongKind::Concealed]);
    if exposed > 0 {
        items.push(item("明杠", EXPOSED_KONG, exposed));
    }
    if concealed > 0 {
        items.push(item("暗杠", CONCEALED_KONG, concealed));
    }
    let total = items.iter().map(|i| i.value * i64::from(i.count)).sum();
    Scored {
        total,
        base_fan,
        items,
    }
}

/// 四核: kinds of which the winning hand holds all four copies, none declared as a kong.
fn four_held(hand: &SeatHand, all: &TileCounts) -> u32 {
    Tile::playing()
        .filter(|&t| all.get(t) == 4)
        .filter(|&t| {
            !hand
                .melds
                .iter()
                .any(|m| m.meld.is_kong() && m.meld.tile == t)
        })
        .count() as u32
}

fn item(name: &'static str, value: i64, count: u32) -> FanItem {
    FanItem { name, value, count }
}
