//! The Beijing hand fan: every reading of the winning hand (wilds standing in) is described by
//! the same features, then scored by the preset's table (惠牌 rules, or the 2020 rules), the best
//! reading kept.

use crate::meld::MeldKind;
use crate::seat::Seat;
use crate::settle::{FanItem, SeatHand, Win};
use crate::shape::{Arrangement, Forms, Set, arrangements, waits};
use crate::tile::{Suit, Tile};

/// Which fan table scores the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Table {
    /// `beijing`: the 惠牌 rules.
    Wilds,
    /// `beijing-2020`: 第4稿.
    Y2020,
}

/// A win's fan and its lines, in the table's order.
pub(super) struct Scored {
    pub(super) total: i64,
    pub(super) items: Vec<FanItem>,
}

/// Wilds the seat would hold with `tile` (a self-drawn tile of the wild kind is a wild).
pub(super) fn wilds_with(hand: &SeatHand, tile: Tile, wild: Option<Tile>) -> u8 {
    wild.map_or(0, |w| hand.concealed.get(w) + u8::from(tile == w))
}

/// Scores a win; `Err` names the rule that forbids it.
pub(super) fn score(
    table: Table,
    hand: &SeatHand,
    win: &Win,
    dealer: Seat,
    wild: Option<Tile>,
) -> Result<Scored, String> {
    let from_discard = win.from.is_some();
    if from_discard && wild == Some(win.tile) {
        return Err("a discarded 惠牌 is dead: nobody may win on it".into());
    }
    let wilds = wilds_with(hand, win.tile, wild);
    if from_discard && !hand.is_concealed() {
        return Err("after a chow, pung or exposed kong only a self-draw wins".into());
    }
    if from_discard && wilds >= 3 {
        return Err("a hand holding three 惠牌 wins only by self-draw".into());
    }
    let mut natural = hand.concealed;
    natural.add(win.tile);
    if let Some(w) = wild {
        natural[w] = 0;
    }
    let melds = hand.melds.len() as u8;
    let forms = Forms::STANDARD.with(Forms::SEVEN_PAIRS);
    let readings = arrangements(&natural, wilds, wild, melds, forms);
    let ctx = Context {
        hand,
        win,
        dealer,
        wilds,
        wild,
    };
    let rows = |f: &Features| match table {
        Table::Wilds => wilds_rows(f),
        Table::Y2020 => y2020_rows(f),
    };
    // Robbing a concealed kong (a room option) takes a hand completed by 一条龙.
    let robbing_concealed = win.flags.robbed_concealed_kong;
    let best = readings
        .iter()
        .map(|r| ctx.features(Some(r)))
        .filter(|f| !robbing_concealed || f.dragon)
        .map(|f| rows(&f))
        .max_by_key(|s| s.total);
    let scored = match best {
        Some(s) => s,
        None if robbing_concealed => {
            return Err("only a hand completed by 一条龙 may rob a concealed kong".into());
        }
        None if wilds == 4 => rows(&ctx.features(None)),
        None => return Err("the tiles make no four sets and a pair, nor seven pairs".into()),
    };
    // 2020: 推倒和 (no row but 门清) wins only by self-draw.
    let plain = scored
        .items
        .iter()
        .all(|i| i.name == "门清" || i.name == "推倒和");
    if table == Table::Y2020 && from_discard && plain {
        return Err("推倒和 wins only by self-draw".into());
    }
    Ok(scored)
}

/// What the tables read off one reading of a win.
#[derive(Clone, Copy, Debug, Default)]
struct Features {
    self_draw: bool,
    /// The dealer won, or dealt in (庄).
    dealer_involved: bool,
    tianhe: bool,
    dihe: bool,
    /// No chow, pung or exposed kong.
    concealed: bool,
    wilds: u8,
    all_pungs: bool,
    /// Four declared melds, won on the pair (大钓).
    single_pair: bool,
    zhuo_wukui: bool,
    last_tile: bool,
    dragon: bool,
    /// Seven pairs; `Some(true)` with four of a kind (豪华).
    seven_pairs: Option<bool>,
    kong_flower: bool,
    one_suit: bool,
    /// One numbered suit and honors, both present (混一色).
    half_flush: bool,
}

struct Context<'a> {
    hand: &'a SeatHand,
    win: &'a Win,
    dealer: Seat,
    wilds: u8,
    wild: Option<Tile>,
}

impl Context<'_> {
    /// The features of a reading (or, for 四惠牌 without a shape, of no reading).
    fn features(&self, reading: Option<&Arrangement>) -> Features {
        let win = self.win;
        let self_draw = win.is_self_draw();
        let dealer_wins = win.seat == self.dealer;
        let mut f = Features {
            self_draw,
            dealer_involved: dealer_wins || win.from == Some(self.dealer),
            tianhe: dealer_wins && self_draw && win.flags.first_turn,
            dihe: !dealer_wins && win.flags.first_turn,
            concealed: self.hand.is_concealed(),
            wilds: self.wilds,
            last_tile: win.flags.last_tile,
            kong_flower: self_draw && win.flags.kong_replacement,
            ..Features::default()
        };
        match reading {
            Some(Arrangement::Standard(d)) => {
                let melds_pungs = self.hand.melds.iter().all(|m| m.meld.is_pung_or_kong());
                f.all_pungs = melds_pungs && d.sets.iter().all(|s| matches!(s, Set::Pung(_)));
                f.single_pair = self.hand.melds.len() == 4;
                f.zhuo_wukui = self.zhuo_wukui(&d.sets);
                f.dragon = self.dragon(&d.sets);
            }
            Some(Arrangement::SevenPairs(pairs)) => {
                let luxury = pairs
                    .iter()
                    .enumerate()
                    .any(|(i, p)| pairs[i + 1..].contains(p));
                f.seven_pairs = Some(luxury);
            }
            _ => {}
        }
        if let Some(r) = reading {
            let suits = self.suits(r);
            let numbered = suits.iter().filter(|&&s| s != Suit::Honor).count();
            f.one_suit = numbered == 1 && suits.len() == 1;
            f.half_flush = numbered == 1 && suits.len() == 2;
        }
        f
    }

    /// 捉五魁: 5m is the only winning tile and completes 4m_6m.
    fn zhuo_wukui(&self, sets: &[Set]) -> bool {
        let (Some(five), Some(four)) = (Tile::new(Suit::Man, 5), Tile::new(Suit::Man, 4)) else {
            return false;
        };
        if self.win.tile != five || self.wild == Some(five) || self.wilds > 0 {
            return false;
        }
        let only = waits(
            &self.hand.concealed,
            self.hand.melds.len() as u8,
            Forms::STANDARD,
        );
        only.len() == 1 && only.contains(five) && sets.contains(&Set::Chow(four))
    }

    /// 一条龙: 123, 456 and 789 of one suit among the concealed sets and declared chows.
    fn dragon(&self, sets: &[Set]) -> bool {
        let mut lows: Vec<Tile> = sets
            .iter()
            .filter_map(|s| match s {
                Set::Chow(t) => Some(*t),
                Set::Pung(_) => None,
            })
            .collect();
        lows.extend(
            self.hand
                .melds
                .iter()
                .filter(|m| m.meld.kind == MeldKind::Chow)
                .map(|m| m.meld.tile),
        );
        Suit::NUMBERED.into_iter().any(|suit| {
            [1, 4, 7]
                .into_iter()
                .all(|r| Tile::new(suit, r).is_some_and(|t| lows.contains(&t)))
        })
    }

    /// The suits of the reading's tiles (wilds as what they stand for) and of the melds.
    fn suits(&self, reading: &Arrangement) -> Vec<Suit> {
        let mut tiles: Vec<Tile> = self
            .hand
            .melds
            .iter()
            .flat_map(|m| m.meld.tiles())
            .collect();
        match reading {
            Arrangement::Standard(d) => {
                tiles.extend(d.sets.iter().flat_map(|s| s.tiles()));
                tiles.push(d.pair);
            }
            Arrangement::SevenPairs(pairs) => tiles.extend(pairs.iter().copied()),
            _ => {}
        }
        let mut suits: Vec<Suit> = tiles.iter().map(|t| t.suit()).collect();
        suits.sort();
        suits.dedup();
        suits
    }
}

/// `beijing`: rows add up; 推倒和 when none from 对对和 down applies; 天和 replaces 庄.
fn wilds_rows(f: &Features) -> Scored {
    let mut rows: Vec<(&'static str, i64)> = Vec::new();
    if f.all_pungs {
        rows.push(("对对和", 2));
    }
    if f.single_pair {
        rows.push(("大钓", 2));
    }
    if f.zhuo_wukui {
        rows.push(("捉五魁", 2));
    }
    if f.last_tile {
        rows.push(("海底捞月", if f.self_draw { 2 } else { 1 }));
    }
    if f.dragon {
        rows.push(("一条龙", 3));
    }
    if f.seven_pairs == Some(false) {
        rows.push(("七对子", 4));
    }
    if f.kong_flower {
        rows.push(("杠上开花", 5));
    }
    if f.one_suit {
        rows.push(("清一色", 6));
    }
    if f.seven_pairs == Some(true) {
        rows.push(("豪华七对子", 8));
    }
    if f.wilds == 4 {
        rows.push(("四惠牌", 8));
    }
    if f.tianhe {
        rows.push(("天和", 10));
    }
    if f.dihe {
        rows.push(("地和", 8));
    }
    let mut head = Vec::new();
    if rows.is_empty() {
        head.push(("推倒和", 1));
    }
    if f.dealer_involved && !f.tianhe {
        head.push(("庄", 1));
    }
    if f.concealed && f.wilds == 0 {
        head.push(("门清无惠", 1));
    }
    scored(head.into_iter().chain(rows))
}

/// `beijing-2020`: 推倒和 scores nothing; 门清 adds to every concealed hand; 豪华七对 adds one
/// to 七对.
fn y2020_rows(f: &Features) -> Scored {
    let mut rows: Vec<(&'static str, i64)> = Vec::new();
    if f.concealed {
        rows.push(("门清", 1));
    }
    if f.all_pungs {
        rows.push(("对对和", 1));
    }
    if f.half_flush {
        rows.push(("混一色", 1));
    }
    if f.single_pair {
        rows.push(("大钓", 1));
    }
    if f.zhuo_wukui {
        rows.push(("捉五魁", 1));
    }
    if f.last_tile {
        rows.push(("海底捞月", 1));
    }
    if f.dragon {
        rows.push(("一条龙", 3));
    }
    if let Some(luxury) = f.seven_pairs {
        rows.push(("七对", 4));
        if luxury {
            rows.push(("豪华七对", 1));
        }
    }
    if f.kong_flower {
        rows.push(("杠上开花", 1));
    }
    if f.one_suit {
        rows.push(("清一色", 5));
    }
    if rows.iter().all(|&(n, _)| n == "门清") {
        rows.insert(0, ("推倒和", 0));
    }
    scored(rows.into_iter())
}

fn scored(rows: impl Iterator<Item = (&'static str, i64)>) -> Scored {
    let items: Vec<FanItem> = rows
        .map(|(name, value)| FanItem {
            name,
            value,
            count: 1,
        })
        .collect();
    Scored {
        total: items.iter().map(|i| i.value).sum(),
        items,
    }
}
