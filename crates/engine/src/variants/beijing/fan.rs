//! The Beijing hand fan: every reading of the winning hand (wilds standing in), each scored by
//! the rows of the rules file's table, the best kept.

use crate::meld::MeldKind;
use crate::seat::Seat;
use crate::settle::{FanItem, SeatHand, Win};
use crate::shape::{Arrangement, Forms, Set, arrangements, waits};
use crate::tile::{Suit, Tile};

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
    let best = readings
        .iter()
        .map(|r| ctx.fans(Some(r)))
        .max_by_key(|s| s.total);
    match best {
        Some(s) => Ok(s),
        None if wilds == 4 => Ok(ctx.fans(None)),
        None => Err("the tiles make no four sets and a pair, nor seven pairs".into()),
    }
}

struct Context<'a> {
    hand: &'a SeatHand,
    win: &'a Win,
    dealer: Seat,
    wilds: u8,
    wild: Option<Tile>,
}

/// The table's rows, in its order; the first three are the plain ones.
const TUIDAO: (&str, i64) = ("推倒和", 1);
const ZHUANG: (&str, i64) = ("庄", 1);
const MENQING: (&str, i64) = ("门清无惠", 1);

impl Context<'_> {
    /// The rows a reading (or, for 四惠牌 without a shape, no reading) earns.
    fn fans(&self, reading: Option<&Arrangement>) -> Scored {
        let win = self.win;
        let self_draw = win.is_self_draw();
        let dealer_wins = win.seat == self.dealer;
        let tianhe = dealer_wins && self_draw && win.flags.first_turn;
        let dihe = !dealer_wins && win.flags.first_turn;
        let mut rows: Vec<(&'static str, i64)> = Vec::new();
        if let Some(Arrangement::Standard(d)) = reading {
            let melds_pungs = self.hand.melds.iter().all(|m| m.meld.is_pung_or_kong());
            if melds_pungs && d.sets.iter().all(|s| matches!(s, Set::Pung(_))) {
                rows.push(("对对和", 2));
            }
            if self.hand.melds.len() == 4 {
                rows.push(("大钓", 2));
            }
            if self.zhuo_wukui(&d.sets) {
                rows.push(("捉五魁", 2));
            }
        }
        if win.flags.last_tile {
            rows.push(("海底捞月", if self_draw { 2 } else { 1 }));
        }
        if let Some(Arrangement::Standard(d)) = reading
            && self.dragon(&d.sets)
        {
            rows.push(("一条龙", 3));
        }
        let luxury = match reading {
            Some(Arrangement::SevenPairs(pairs)) => Some(
                pairs
                    .iter()
                    .enumerate()
                    .any(|(i, p)| pairs[i + 1..].contains(p)),
            ),
            _ => None,
        };
        if luxury == Some(false) {
            rows.push(("七对子", 4));
        }
        if self_draw && win.flags.kong_replacement {
            rows.push(("杠上开花", 5));
        }
        if reading.is_some_and(|r| self.one_suit(r)) {
            rows.push(("清一色", 6));
        }
        if luxury == Some(true) {
            rows.push(("豪华七对子", 8));
        }
        if self.wilds == 4 {
            rows.push(("四惠牌", 8));
        }
        if tianhe {
            rows.push(("天和", 10));
        }
        if dihe {
            rows.push(("地和", 8));
        }
        let mut items = Vec::new();
        if rows.is_empty() {
            items.push(item(TUIDAO));
        }
        if (dealer_wins || win.from == Some(self.dealer)) && !tianhe {
            items.push(item(ZHUANG));
        }
        if self.hand.is_concealed() && self.wilds == 0 {
            items.push(item(MENQING));
        }
        items.extend(rows.into_iter().map(item));
        Scored {
            total: items.iter().map(|i| i.value).sum(),
            items,
        }
    }

    /// 捉五魁: 5m is the only winning tile and completes 4m_6m.
    fn zhuo_wukui(&self, sets: &[Set]) -> bool {
        let five = Tile::new(Suit::Man, 5);
        let four = Tile::new(Suit::Man, 4);
        if Some(self.win.tile) != five || self.wild == five || self.wilds > 0 {
            return false;
        }
        let only = waits(
            &self.hand.concealed,
            self.hand.melds.len() as u8,
            Forms::STANDARD,
        );
        only.len() == 1
            && five.is_some_and(|f| only.contains(f))
            && sets.contains(&Set::Chow(four.unwrap_or(self.win.tile)))
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
        [Suit::Man, Suit::Pin, Suit::Sou].into_iter().any(|suit| {
            [1, 4, 7]
                .into_iter()
                .all(|r| Tile::new(suit, r).is_some_and(|t| lows.contains(&t)))
        })
    }

    /// 清一色: the reading's tiles (wilds as what they stand for) and the melds in one suit.
    fn one_suit(&self, reading: &Arrangement) -> bool {
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
            _ => return false,
        }
        let suit = tiles.first().map(|t| t.suit());
        suit.is_some_and(|s| s != Suit::Honor && tiles.iter().all(|t| t.suit() == s))
    }
}

fn item((name, value): (&'static str, i64)) -> FanItem {
    FanItem {
        name,
        value,
        count: 1,
    }
}
