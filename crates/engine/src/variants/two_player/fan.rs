//! One win's fan in 二人麻将: the limit hands (役满) first, else the added rows over every
//! reading of the hand (meld split, the winning tile's place in it, seven pairs), the best kept.

use arrayvec::ArrayVec;

use crate::meld::MeldKind;
use crate::settle::{FanItem, SeatHand, Win};
use crate::shape::{Forms, Set, decompositions, is_complete};
use crate::tile::{Suit, Tile};
use crate::tiles::TileCounts;

/// The cap of a win's fan, and the value of a limit hand (役满).
pub const CAP: i64 = 13;

/// A win's fan (capped) and the lines behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Scored {
    /// The fan paid: the rows added up and capped at [`CAP`], or [`CAP`] for a limit hand.
    pub(crate) total: i64,
    /// The lines: rows with their values, or the limit hands (each shown at [`CAP`]).
    pub(crate) items: Vec<FanItem>,
}

/// What a win needs besides the hand: who dealt and the face-up 花牌 kinds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Context<'a> {
    /// The winner is the dealer.
    pub(crate) dealer: bool,
    /// The discarder is the dealer (地和).
    pub(crate) from_dealer: bool,
    /// The 花牌 kinds.
    pub(crate) bonus: &'a [Tile],
}

/// One set of a standard reading.
#[derive(Clone, Copy, Debug)]
struct Group {
    /// The lowest tile (a chow) or the kind (a pung or kong).
    tile: Tile,
    chow: bool,
    /// A concealed pung or kong (暗刻): in hand, or a concealed kong; not one completed by a
    /// discard.
    concealed: bool,
}

/// One reading of a complete hand.
#[derive(Clone, Debug)]
enum Reading {
    /// Four sets and a pair, with the winning tile's place.
    Standard {
        groups: ArrayVec<Group, 4>,
        pair: Tile,
        /// The winning tile completed a chow from a two-sided wait (平和's 两面).
        two_sided: bool,
    },
    /// 七对子.
    SevenPairs,
    /// 十三幺.
    ThirteenOrphans,
}

/// Scores a win; `Err` names why the tiles are no win.
///
/// # Errors
/// A sentence: flowers in the hand, a robbed concealed kong, or no winning shape.
pub(crate) fn score(hand: &SeatHand, win: &Win, cx: &Context<'_>) -> Result<Scored, String> {
    if win.tile.is_flower() || !hand.flowers.is_empty() {
        return Err("二人麻将 is played without flower tiles".into());
    }
    if win.flags.robbed_concealed_kong {
        return Err("only an added kong may be robbed".into());
    }
    let readings = readings(hand, win);
    if readings.is_empty() {
        return Err(
            "the tiles make neither four sets and a pair, nor seven pairs, nor 十三幺".into(),
        );
    }
    let mut all = hand.all_tiles();
    all.add(win.tile);
    let facts = Facts::new(hand, win, &all, cx);
    let best = readings
        .iter()
        .map(|r| facts.limits(r))
        .max_by_key(Vec::len)
        .unwrap_or_default();
    if !best.is_empty() {
        let items = best.into_iter().map(|name| item(name, CAP, 1)).collect();
        return Ok(Scored { total: CAP, items });
    }
    readings
        .iter()
        .map(|r| facts.rows(r))
        .max_by_key(|s| (s.total, uncapped(&s.items)))
        .ok_or_else(|| "no reading".to_owned())
}

/// Every reading of the hand with the winning tile.
fn readings(hand: &SeatHand, win: &Win) -> Vec<Reading> {
    let mut full = hand.concealed;
    full.add(win.tile);
    let mut out = Vec::new();
    if hand.melds.is_empty() {
        if is_complete(&full, 0, Forms::SEVEN_PAIRS) {
            out.push(Reading::SevenPairs);
        }
        if is_complete(&full, 0, Forms::THIRTEEN_ORPHANS) {
            out.push(Reading::ThirteenOrphans);
        }
    }
    // A robbed kong's tile is treated as drawn (it counts as a self-draw), but it cannot
    // complete a pung: the other three copies are the robbed pung.
    let discard = win.from.is_some() && !win.flags.robbed_kong;
    let declared: ArrayVec<Group, 4> = hand
        .melds
        .iter()
        .map(|m| Group {
            tile: m.meld.tile,
            chow: m.meld.kind == MeldKind::Chow,
            concealed: m.meld.is_concealed(),
        })
        .collect();
    for d in decompositions(&full) {
        if d.sets.len() + hand.melds.len() != 4 {
            continue;
        }
        // The winning tile's place: the pair, or one of the concealed sets holding it.
        let mut places: Vec<Option<usize>> = Vec::new();
        if d.pair == win.tile {
            places.push(None);
        }
        for (i, set) in d.sets.iter().enumerate() {
            if set.tiles().contains(&win.tile) {
                places.push(Some(i));
            }
        }
        for place in places {
            let mut groups = declared.clone();
            let mut two_sided = false;
            for (i, set) in d.sets.iter().enumerate() {
                let here = place == Some(i);
                match *set {
                    Set::Chow(low) => {
                        if here {
                            let r = low.rank();
                            two_sided =
                                (win.tile == low && r <= 6) || (win.tile.rank() == r + 2 && r >= 2);
                        }
                        groups.push(Group {
                            tile: low,
                            chow: true,
                            concealed: true,
                        });
                    }
                    Set::Pung(t) => groups.push(Group {
                        tile: t,
                        chow: false,
                        concealed: !(here && discard),
                    }),
                }
            }
            out.push(Reading::Standard {
                groups,
                pair: d.pair,
                two_sided,
            });
        }
    }
    out
}

/// What the rows and limits read off the hand whatever the reading.
struct Facts<'a> {
    hand: &'a SeatHand,
    win: &'a Win,
    all: &'a TileCounts,
    cx: &'a Context<'a>,
    /// 门清: no chow, pung or exposed (or added) kong.
    concealed: bool,
    /// A self-draw, a robbed kong included.
    self_draw: bool,
}

impl<'a> Facts<'a> {
    fn new(hand: &'a SeatHand, win: &'a Win, all: &'a TileCounts, cx: &'a Context<'a>) -> Self {
        Facts {
            hand,
            win,
            all,
            cx,
            concealed: hand.is_concealed(),
            self_draw: win.from.is_none() || win.flags.robbed_kong,
        }
    }

    fn only(&self, allowed: impl Fn(Tile) -> bool) -> bool {
        Tile::playing().all(|t| self.all.get(t) == 0 || allowed(t))
    }

    /// The limit hands this reading makes, in the order of the rules text.
    fn limits(&self, r: &Reading) -> Vec<&'static str> {
        let mut out = Vec::new();
        let flags = self.win.flags;
        let all = self.all;
        let suits = all.suits();
        let std = standard(r);
        let pungs: ArrayVec<Group, 4> = std
            .map(|(g, _)| g.iter().copied().filter(|g| !g.chow).collect())
            .unwrap_or_default();
        let dragons = pungs.iter().filter(|g| g.tile.is_dragon()).count();
        let winds = pungs.iter().filter(|g| g.tile.is_wind()).count();
        let pair = std.map(|(_, p)| p);
        let all_pungs = std.is_some_and(|(g, _)| g.iter().all(|g| !g.chow));
        if dragons == 3 {
            out.push("大三元");
        }
        if matches!(r, Reading::SevenPairs) && suits.numbered_count() == 1 && !suits.has_honors() {
            let suit = numbered_suit(all);
            let wheel = suit.is_some_and(|s| {
                (1..=9).all(|rank| {
                    let want = if (2..=8).contains(&rank) { 2 } else { 0 };
                    Tile::new(s, rank).is_some_and(|t| all.get(t) == want)
                })
            });
            if wheel {
                out.push("大车轮");
            }
        }
        if pungs.iter().filter(|g| g.concealed).count() == 4 {
            out.push("四暗刻");
        }
        if consecutive_pungs(&pungs) >= 4 {
            out.push("四连刻");
        }
        if self.hand.melds.iter().filter(|m| m.meld.is_kong()).count() == 4 {
            out.push("四杠子");
        }
        if suits.numbered_count() == 1 && !suits.has_honors() && all.suit_total(Suit::Man) > 0 {
            let sum: u32 = Tile::playing()
                .filter(|t| t.suit() == Suit::Man)
                .map(|t| u32::from(all.get(t)) * u32::from(t.rank()))
                .sum();
            if sum >= 100 {
                out.push("百万石");
            }
        }
        if flags.first_turn {
            if self.cx.dealer && self.win.from.is_none() {
                out.push("天和");
            } else if !self.cx.dealer && self.win.from.is_some() && self.cx.from_dealer {
                out.push("地和");
            } else if !self.cx.dealer && self.win.from.is_none() {
                out.push("人和");
            }
        }
        if winds == 3 && pair.is_some_and(Tile::is_wind) {
            out.push("小四喜");
        }
        if winds == 4 {
            out.push("大四喜");
        }
        if suits.numbered_count() == 0 {
            out.push("字一色");
        }
        if all_pungs && self.only(|t| t.is_terminal()) {
            out.push("清老头");
        }
        if self.only(|t| GREEN.contains(&t.to_string().as_str())) {
            out.push("绿一色");
        }
        if self.only(|t| RED_PEACOCK.contains(&t.to_string().as_str())) {
            out.push("红孔雀");
        }
        if self.nine_gates() {
            out.push("九莲宝灯");
        }
        if matches!(r, Reading::ThirteenOrphans) {
            out.push("十三幺");
        }
        if let Some((groups, pair)) = std
            && northeast_express(groups, pair)
        {
            out.push("东北新干线");
        }
        out
    }

    /// 九莲宝灯: concealed, one suit, 1112345678999 and one more of that suit.
    fn nine_gates(&self) -> bool {
        if !self.hand.melds.is_empty() || self.all.total() != 14 {
            return false;
        }
        let Some(suit) = numbered_suit(self.all).filter(|_| !self.all.suits().has_honors()) else {
            return false;
        };
        (1..=9).all(|rank| {
            let need = if rank == 1 || rank == 9 { 3 } else { 1 };
            Tile::new(suit, rank).is_some_and(|t| self.all.get(t) >= need)
        })
    }

    /// The added rows of one reading, with 花牌, capped.
    fn rows(&self, r: &Reading) -> Scored {
        let flags = self.win.flags;
        let all = self.all;
        let suits = all.suits();
        let mut rows: Vec<FanItem> = Vec::new();
        let mut add = |name: &'static str, value: i64| rows.push(item(name, value, 1));
        // 1 fan.
        if self.concealed {
            add("门清", 1);
        }
        if flags.ready_first_turn {
            add("天听", 2);
        } else if flags.declared_ready && self.concealed {
            add("门清报听", 1);
        }
        if self.concealed && self.self_draw {
            add("门清自摸", 1);
        }
        let std = standard(r);
        if let Reading::Standard {
            groups,
            pair,
            two_sided,
        } = r
            && groups.iter().all(|g| g.chow)
            && *two_sided
            && !pair.is_honor()
        {
            add("平和", 1);
        }
        if self.only(|t| !t.is_terminal_or_honor()) {
            add("断幺九", 1);
        }
        if flags.last_tile && self.win.from.is_none() && !flags.seabed {
            add("河底捞月", 1);
        }
        if flags.last_tile && self.win.from.is_some() && !flags.robbed_kong {
            add("河底捞鱼", 1);
        }
        if flags.seabed {
            add("海底捞月", 1);
        }
        // 2 fan.
        let (groups, pair): (&[Group], Option<Tile>) = match std {
            Some((g, p)) => (g, Some(p)),
            None => (&[], None),
        };
        let chows: ArrayVec<Tile, 4> = groups.iter().filter(|g| g.chow).map(|g| g.tile).collect();
        let pungs: ArrayVec<Group, 4> = groups.iter().copied().filter(|g| !g.chow).collect();
        let all_pungs = std.is_some() && chows.is_empty();
        if all_pungs {
            add("碰碰胡", 2);
        }
        match identical_chow_pairs(&chows) {
            0 => {}
            1 => add("一杯口", 2),
            _ => add("两杯口", 4),
        }
        let straight = Suit::NUMBERED.into_iter().any(|s| {
            [1, 4, 7]
                .into_iter()
                .all(|rank| Tile::new(s, rank).is_some_and(|t| chows.contains(&t)))
        });
        if straight {
            add("一气通贯", 2);
        }
        let three_suits = |tiles: &[Tile]| {
            (1..=9).any(|rank| {
                Suit::NUMBERED
                    .into_iter()
                    .all(|s| Tile::new(s, rank).is_some_and(|t| tiles.contains(&t)))
            })
        };
        if three_suits(&chows) {
            add("三色同顺", 2);
        }
        if pungs.iter().filter(|g| g.concealed).count() == 3 {
            add("三暗刻", 2);
        }
        let terminals = suits.numbered_count() > 0;
        if all_pungs && self.only(Tile::is_terminal_or_honor) && terminals && suits.has_honors() {
            add("混老头", 2);
        }
        if flags.kong_replacement && self.win.from.is_none() {
            add("杠上开花", 2);
        }
        // 3 fan and more.
        if consecutive_pungs(&pungs) == 3 {
            add("三连刻", 3);
        }
        let pung_kinds: ArrayVec<Tile, 4> = pungs.iter().map(|g| g.tile).collect();
        if three_suits(&pung_kinds) {
            add("三色同刻", 3);
        }
        if matches!(r, Reading::SevenPairs) {
            // 龙七对: the winning tile made the four; a four held before is plain 七对子.
            if self.hand.concealed.get(self.win.tile) == 3 {
                add("龙七对", 6);
            } else {
                add("七对子", 3);
            }
        }
        if suits.numbered_count() == 1 {
            if suits.has_honors() {
                add("混一色", 3);
            } else {
                add("清一色", 5);
            }
        }
        if let Some(pair) = pair
            && !chows.is_empty()
        {
            let outside = groups.iter().all(|g| {
                let t = g.tile;
                t.is_terminal_or_honor() || (g.chow && t.rank() == 7)
            }) && pair.is_terminal_or_honor();
            if outside && suits.has_honors() {
                add("混全带幺", 3);
            } else if outside {
                add("纯全带幺", 4);
            }
        }
        let dragon_pungs = pungs.iter().filter(|g| g.tile.is_dragon()).count();
        if dragon_pungs == 2 && pair.is_some_and(Tile::is_dragon) {
            add("小三元", 4);
        }
        if rows.is_empty() {
            rows.push(item("推倒胡", 1, 1));
        }
        let flowers: u32 = distinct(self.cx.bonus)
            .iter()
            .map(|&t| u32::from(self.all.get(t)))
            .sum();
        if flowers > 0 {
            rows.push(item("花牌", 1, flowers));
        }
        Scored {
            total: uncapped(&rows).min(CAP),
            items: rows,
        }
    }
}

/// 绿一色's tiles: 23468 条 and 发.
const GREEN: [&str; 6] = ["2s", "3s", "4s", "6s", "8s", "6z"];
/// 红孔雀's tiles: 1579 条 and 中.
const RED_PEACOCK: [&str; 5] = ["1s", "5s", "7s", "9s", "7z"];

fn standard(r: &Reading) -> Option<(&[Group], Tile)> {
    match r {
        Reading::Standard { groups, pair, .. } => Some((groups.as_slice(), *pair)),
        _ => None,
    }
}

/// The one numbered suit of the tiles, when there is exactly one.
fn numbered_suit(all: &TileCounts) -> Option<Suit> {
    let mut found = Suit::NUMBERED
        .into_iter()
        .filter(|&s| all.suit_total(s) > 0);
    let s = found.next()?;
    found.next().is_none().then_some(s)
}

/// The longest run of pungs (or kongs) of consecutive numbers in one suit.
fn consecutive_pungs(pungs: &[Group]) -> usize {
    let has = |t: Option<Tile>| t.is_some_and(|t| pungs.iter().any(|g| g.tile == t));
    pungs
        .iter()
        .filter(|g| g.tile.suit().is_numbered())
        .map(|g| {
            let mut n = 1;
            let mut t = g.tile.succ_in_run();
            while has(t) {
                n += 1;
                t = t.and_then(Tile::succ_in_run);
            }
            n
        })
        .max()
        .unwrap_or(0)
}

/// Pairs of identical chows among `chows` (一杯口 counts one, 两杯口 two).
fn identical_chow_pairs(chows: &[Tile]) -> usize {
    let mut sorted: ArrayVec<Tile, 4> = chows.iter().copied().collect();
    sorted.sort();
    let mut pairs = 0;
    let mut i = 0;
    while i + 1 < sorted.len() {
        if sorted[i] == sorted[i + 1] {
            pairs += 1;
            i += 2;
        } else {
            i += 1;
        }
    }
    pairs
}

/// 东北新干线: 123, 456 and 789 of one suit, a pung of 东 or 北 and a pair of the other.
fn northeast_express(groups: &[Group], pair: Tile) -> bool {
    let east = Tile::new(Suit::Honor, 1);
    let north = Tile::new(Suit::Honor, 4);
    let straight = Suit::NUMBERED.into_iter().any(|s| {
        [1, 4, 7].into_iter().all(|rank| {
            let t = Tile::new(s, rank);
            groups.iter().any(|g| g.chow && Some(g.tile) == t)
        })
    });
    let pung = groups.iter().find(|g| !g.chow).map(|g| g.tile);
    let pairs = (pung == east && Some(pair) == north) || (pung == north && Some(pair) == east);
    straight && pairs
}

fn distinct(tiles: &[Tile]) -> ArrayVec<Tile, 34> {
    let mut out = ArrayVec::new();
    for &t in tiles {
        if !out.contains(&t) && !out.is_full() {
            out.push(t);
        }
    }
    out
}

/// The rows added up before the cap.
fn uncapped(items: &[FanItem]) -> i64 {
    items.iter().map(|i| i.value * i64::from(i.count)).sum()
}

fn item(name: &'static str, value: i64, count: u32) -> FanItem {
    FanItem { name, value, count }
}
