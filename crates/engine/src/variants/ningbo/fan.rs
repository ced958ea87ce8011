//! One win's 台: every reading of the hand is scored (each way the 财神 can stand in, and each
//! group the winning tile can be seen to complete), and the reading with the most 台 is kept.
//! The three-财神 bonus is added on top and kept apart, since it does not count toward the
//! 4-台 minimum.

use crate::meld::MeldKind;
use crate::seat::{Seat, Wind};
use crate::settle::{FanItem, SeatHand, Win};
use crate::shape::{
    Arrangement, Decomposition, Forms, Set, arrangements, decompositions_with_wilds,
};
use crate::tile::{Suit, Tile};
use crate::tiles::TileCounts;

/// The least 台 a win needs, the three-财神 bonus not counted.
pub const MIN_TAI: i64 = 4;
/// The bonus for winning with three 财神 (always a self-draw).
pub const THREE_CAISHEN_TAI: i64 = 3;

/// What a win is scored against besides the winner's tiles.
pub(super) struct Context {
    pub(super) dealer: Seat,
    pub(super) round_wind: Wind,
    /// The 财神 kind.
    pub(super) wild: Option<Tile>,
}

/// A win's 台 and its lines.
#[derive(Debug)]
pub(super) struct Scored {
    /// Every item, the bonus included: what the win is paid on.
    pub(super) total: i64,
    pub(super) items: Vec<FanItem>,
}

/// Copies of the 财神 the seat holds with `tile` (a self-drawn 财神 is one more).
pub(super) fn wilds_with(hand: &SeatHand, tile: Tile, wild: Option<Tile>) -> u8 {
    wild.map_or(0, |w| hand.concealed.get(w) + u8::from(tile == w))
}

/// Scores a win in its best reading; `Err` names the rule that forbids it.
pub(super) fn score(ctx: &Context, hand: &SeatHand, win: &Win) -> Result<Scored, String> {
    refuse_claimed(ctx, hand, win)?;
    let wilds = wilds_with(hand, win.tile, ctx.wild);
    let mut natural = hand.concealed;
    natural.add(win.tile);
    if let Some(w) = ctx.wild {
        natural[w] = 0;
    }
    let melds = hand.melds.len() as u8;
    let readings = arrangements(&natural, wilds, ctx.wild, melds, Forms::STANDARD);
    let flowers = flower_items(hand, win.seat.wind(ctx.dealer, 4));
    let best = readings
        .iter()
        .filter_map(|r| match r {
            Arrangement::Standard(d) => Some(d),
            _ => None,
        })
        .map(|d| read(ctx, hand, win, &natural, wilds, d))
        .map(|r| r.items(ctx, hand, win, &flowers))
        .max_by_key(|items| sum(items));
    let Some(mut items) = best else {
        return Err("the tiles make no four sets and a pair".into());
    };
    let counted = sum(&items);
    if wilds >= 3 {
        items.push(item("三财神", THREE_CAISHEN_TAI, 1));
    }
    if counted < MIN_TAI {
        return Err(format!(
            "{counted} 台 is below the minimum of {MIN_TAI} (the three-财神 bonus does not count)"
        ));
    }
    Ok(Scored {
        total: sum(&items),
        items,
    })
}

/// The rules that keep a hand from winning on another player's tile (a discard or a robbed
/// kong): a discarded 财神 is never claimed, three 财神 and a 财神 single wait win only by
/// self-draw, and only an added kong may be robbed.
fn refuse_claimed(ctx: &Context, hand: &SeatHand, win: &Win) -> Result<(), String> {
    if win.tile.is_flower() {
        return Err("a flower never wins: it is set aside for a replacement".into());
    }
    if win.flags.robbed_concealed_kong {
        return Err("only an added kong may be robbed".into());
    }
    if win.is_self_draw() {
        return Ok(());
    }
    if ctx.wild == Some(win.tile) {
        return Err("a discarded 财神 is never claimed".into());
    }
    if wilds_with(hand, win.tile, ctx.wild) >= 3 {
        return Err("a hand holding three 财神 wins only by self-draw".into());
    }
    if single_caishen_wait(hand, ctx.wild) {
        return Err("a 财神 single wait (财神单吊) wins only by self-draw".into());
    }
    Ok(())
}

/// 财神单吊: the hand before the winning tile is complete sets and one lone 财神, which waits
/// for any tile as the pair. Tested as "the hand with one more 财神 reads with a pair of 财神",
/// since that pair then leaves sets only.
fn single_caishen_wait(hand: &SeatHand, wild: Option<Tile>) -> bool {
    let Some(w) = wild else { return false };
    let wilds = hand.concealed.get(w);
    if wilds == 0 {
        return false;
    }
    let mut natural = hand.concealed;
    natural[w] = 0;
    decompositions_with_wilds(&natural, wilds + 1, w)
        .iter()
        .any(|d| d.pair == w)
}

/// One group of a reading: a declared meld or a concealed set.
#[derive(Clone, Copy)]
struct Group {
    tile: Tile,
    chow: bool,
    /// A concealed set (the winning tile may be one of its tiles).
    concealed: bool,
}

/// A wait item: the shape the winning tile completed.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Wait {
    /// 边张: 3 of 12 or 7 of 89.
    Edge,
    /// 嵌张: the middle of a run.
    Closed,
    /// 单吊: the pair.
    Single,
    /// 对倒: one of two pairs made a pung.
    DualPung,
}

impl Wait {
    const fn name(self) -> &'static str {
        match self {
            Wait::Edge => "边张",
            Wait::Closed => "嵌张",
            Wait::Single => "单吊",
            Wait::DualPung => "对倒",
        }
    }
}

/// What the table reads off one reading of a win.
struct Reading {
    groups: Vec<Group>,
    pair: Tile,
    /// 硬胡: no 财神, or each standing for its own face.
    hard: bool,
    /// A wait item some placement of the winning tile gives.
    wait: Option<Wait>,
}

/// The reading of decomposition `d`: its groups, what the 财神 stand for, and the best wait
/// item the winning tile can be seen to complete.
fn read(
    ctx: &Context,
    hand: &SeatHand,
    win: &Win,
    natural: &TileCounts,
    wilds: u8,
    d: &Decomposition,
) -> Reading {
    let mut groups: Vec<Group> = hand
        .melds
        .iter()
        .map(|m| Group {
            tile: m.meld.tile,
            chow: m.meld.kind == MeldKind::Chow,
            concealed: false,
        })
        .collect();
    groups.extend(d.sets.iter().map(|s| match *s {
        Set::Chow(t) => Group {
            tile: t,
            chow: true,
            concealed: true,
        },
        Set::Pung(t) => Group {
            tile: t,
            chow: false,
            concealed: true,
        },
    }));
    let stand_ins = stand_ins(natural, d);
    let hard = wilds == 0 || stand_ins.kinds().iter().all(|t| Some(t) == ctx.wild);
    // The winning tile is a 财神 (self-drawn): it may be seen as any tile the 财神 stand for.
    let kinds: Vec<Tile> = if ctx.wild == Some(win.tile) {
        stand_ins.kinds().iter().collect()
    } else {
        vec![win.tile]
    };
    let wait = kinds
        .iter()
        .flat_map(|&k| waits_for(&groups, d.pair, k))
        .max();
    Reading {
        groups,
        pair: d.pair,
        hard,
        wait,
    }
}

/// The tiles the 财神 stand for in `d`: the reading's tiles less the natural ones.
fn stand_ins(natural: &TileCounts, d: &Decomposition) -> TileCounts {
    let mut covered = TileCounts::new();
    for t in d.sets.iter().flat_map(|s| s.tiles()) {
        covered.add(t);
    }
    covered.add(d.pair);
    covered.add(d.pair);
    for t in Tile::playing() {
        covered[t] = covered.get(t).saturating_sub(natural.get(t));
    }
    covered
}

/// The wait items of every group the tile `k` could have completed.
fn waits_for(groups: &[Group], pair: Tile, k: Tile) -> Vec<Wait> {
    let mut out: Vec<Wait> = groups
        .iter()
        .filter(|g| g.concealed)
        .filter_map(|g| {
            if !g.chow {
                return (g.tile == k).then_some(Wait::DualPung);
            }
            if k.suit() != g.tile.suit() || k.rank() < g.tile.rank() {
                return None;
            }
            match k.rank() - g.tile.rank() {
                1 => Some(Wait::Closed),
                0 if g.tile.rank() == 7 => Some(Wait::Edge),
                2 if g.tile.rank() == 1 => Some(Wait::Edge),
                _ => None,
            }
        })
        .collect();
    if pair == k {
        out.push(Wait::Single);
    }
    out
}

impl Reading {
    /// The reading's items, in the order of the table.
    fn items(
        &self,
        ctx: &Context,
        hand: &SeatHand,
        win: &Win,
        flowers: &[FanItem],
    ) -> Vec<FanItem> {
        let mut items = Vec::new();
        let self_drawn = win.is_self_draw();
        if self_drawn && win.flags.first_turn {
            items.push(if win.seat == ctx.dealer {
                item("天胡", 8, 1)
            } else {
                item("地胡", 6, 1)
            });
        }
        if let Some(flush) = self.flush() {
            items.push(flush);
        }
        items.push(self.shape(ctx, win));
        let seat_wind = win.seat.wind(ctx.dealer, 4).tile();
        let prevalent = ctx.round_wind.tile();
        let pungs = |f: &dyn Fn(Tile) -> bool| {
            self.groups.iter().filter(|g| !g.chow && f(g.tile)).count() as u32
        };
        let counted = [
            ("箭刻", pungs(&|t| t.is_dragon())),
            ("门风刻", pungs(&|t| t == seat_wind)),
            ("圈风刻", pungs(&|t| t == prevalent)),
        ];
        items.extend(
            counted
                .into_iter()
                .filter(|&(_, n)| n > 0)
                .map(|(name, n)| item(name, 1, n)),
        );
        if let Some(w) = self.wait {
            items.push(item(w.name(), 1, 1));
        }
        let circumstances = [
            ("大吊", hand.melds.len() == 4),
            ("自摸", self_drawn),
            ("杠上花", self_drawn && win.flags.kong_replacement),
            ("抢杠", win.flags.robbed_kong),
            ("海底", self_drawn && win.flags.last_tile),
            ("硬胡", self.hard),
        ];
        items.extend(
            circumstances
                .into_iter()
                .filter(|&(_, applies)| applies)
                .map(|(name, _)| item(name, 1, 1)),
        );
        items.extend(flowers.iter().cloned());
        items
    }

    /// 字一色, 清一色 or 混一色, from the suits of every tile (财神 as what they stand for).
    fn flush(&self) -> Option<FanItem> {
        let mut suits: Vec<Suit> = self
            .groups
            .iter()
            .map(|g| g.tile.suit())
            .chain([self.pair.suit()])
            .collect();
        suits.sort();
        suits.dedup();
        let honors = suits.contains(&Suit::Honor);
        let numbered = suits.len() - usize::from(honors);
        match (numbered, honors) {
            (0, _) => Some(item("字一色", 8, 1)),
            (1, false) => Some(item("清一色", 4, 1)),
            (1, true) => Some(item("混一色", 2, 1)),
            _ => None,
        }
    }

    /// 碰碰胡, 平胡 (all chows, the pair not a valued wind) or 排胡.
    fn shape(&self, ctx: &Context, win: &Win) -> FanItem {
        let valued_wind =
            self.pair == win.seat.wind(ctx.dealer, 4).tile() || self.pair == ctx.round_wind.tile();
        if self.groups.iter().all(|g| !g.chow) {
            item("碰碰胡", 2, 1)
        } else if self.groups.iter().all(|g| g.chow) && !valued_wind {
            item("平胡", 1, 1)
        } else {
            item("排胡", 0, 1)
        }
    }
}

/// The flowers' 台: each of the seat's own flowers 1 (East 春 or 梅, South 夏 or 兰, West 秋 or 竹,
/// North 冬 or 菊), a whole set of four (春夏秋冬 or 梅兰竹菊) 2, all eight 8 in place of both.
fn flower_items(hand: &SeatHand, seat_wind: Wind) -> Vec<FanItem> {
    let held = |rank: u8| {
        hand.flowers
            .iter()
            .any(|f| f.suit() == Suit::Flower && f.rank() == rank)
    };
    let seasons = (1..=4).all(held);
    let plants = (5..=8).all(held);
    if seasons && plants {
        return vec![item("八花", 8, 1)];
    }
    let mut out = Vec::new();
    let own = wind_rank(seat_wind);
    let own_flowers = u32::from(held(own)) + u32::from(held(own + 4));
    if own_flowers > 0 {
        out.push(item("正花", 1, own_flowers));
    }
    if seasons {
        out.push(item("春夏秋冬", 2, 1));
    }
    if plants {
        out.push(item("梅兰竹菊", 2, 1));
    }
    out
}

/// 1 for East … 4 for North: the rank of the seat's season (春夏秋冬) and, plus four, its plant.
fn wind_rank(w: Wind) -> u8 {
    w.tile().rank()
}

fn sum(items: &[FanItem]) -> i64 {
    items.iter().map(|i| i.value * i64::from(i.count)).sum()
}

pub(super) fn item(name: &'static str, value: i64, count: u32) -> FanItem {
    FanItem { name, value, count }
}
