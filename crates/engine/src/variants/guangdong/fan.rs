//! One win's fan: the single highest row of the 鸡平胡 table, the additions (not on 6-fan
//! rows), the 爆胡 cap and the 杠上开花 floor, over every reading of the hand, the best kept.

use super::FLOOR_FAN;
use crate::meld::MeldKind;
use crate::seat::{Seat, Wind};
use crate::settle::{FanItem, SeatHand, Win};
use crate::shape::{Forms, Set, decompositions, is_complete};
use crate::tile::{Suit, Tile};
use crate::tiles::TileCounts;

/// The rows of the fan table; a hand takes the single highest that fits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Row {
    /// 鸡胡: a complete hand matching no other row.
    Chicken,
    /// 平胡: four chows and any pair.
    AllChows,
    /// 碰碰胡: four pungs or kongs and a pair.
    AllPungs,
    /// 混一色: one suit and honors.
    HalfFlush,
    /// 清一色: one suit, no honors.
    FullFlush,
    /// 混碰: 混一色 and 碰碰胡.
    HalfFlushPungs,
    /// 清碰: 清一色 and 碰碰胡.
    FullFlushPungs,
    /// 混幺九: pungs and a pair of 1s, 9s and honors, both kinds present.
    MixedOrphans,
    /// 小三元: two dragon pungs and a dragon pair.
    LittleDragons,
    /// 小四喜: three wind pungs and a wind pair.
    LittleWinds,
    /// 字一色: honors only.
    AllHonors,
    /// 清幺九: pungs and a pair of 1s and 9s only.
    PureOrphans,
    /// 大三元: three dragon pungs.
    BigDragons,
    /// 大四喜: four wind pungs.
    BigWinds,
    /// 九莲宝灯: concealed 1112345678999 of one suit and one more of it.
    NineGates,
    /// 十三幺: one of each 1, 9 and honor, and one of them twice.
    ThirteenOrphans,
    /// 天胡: the dealer wins on his dealt fourteen.
    Heavenly,
    /// 地胡: a non-dealer wins on his first draw, before any claim.
    Earthly,
}

impl Row {
    /// The Chinese name.
    pub const fn name(self) -> &'static str {
        match self {
            Row::Chicken => "鸡胡",
            Row::AllChows => "平胡",
            Row::AllPungs => "碰碰胡",
            Row::HalfFlush => "混一色",
            Row::FullFlush => "清一色",
            Row::HalfFlushPungs => "混碰",
            Row::FullFlushPungs => "清碰",
            Row::MixedOrphans => "混幺九",
            Row::LittleDragons => "小三元",
            Row::LittleWinds => "小四喜",
            Row::AllHonors => "字一色",
            Row::PureOrphans => "清幺九",
            Row::BigDragons => "大三元",
            Row::BigWinds => "大四喜",
            Row::NineGates => "九莲宝灯",
            Row::ThirteenOrphans => "十三幺",
            Row::Heavenly => "天胡",
            Row::Earthly => "地胡",
        }
    }

    /// The row's fan.
    pub const fn fan(self) -> i64 {
        match self {
            Row::Chicken => 0,
            Row::AllChows => 1,
            Row::AllPungs | Row::HalfFlush => 2,
            Row::FullFlush | Row::HalfFlushPungs => 4,
            Row::FullFlushPungs | Row::MixedOrphans | Row::LittleDragons | Row::LittleWinds => 5,
            Row::AllHonors
            | Row::PureOrphans
            | Row::BigDragons
            | Row::BigWinds
            | Row::NineGates
            | Row::ThirteenOrphans
            | Row::Heavenly
            | Row::Earthly => 6,
        }
    }

    /// Whether the row takes no additions (the 6-fan rows).
    const fn is_limit(self) -> bool {
        self.fan() >= 6
    }
}

/// What a win is scored against besides the winner's tiles.
pub(super) struct Context {
    pub(super) dealer: Seat,
    pub(super) round_wind: Wind,
    pub(super) fan_cap: i64,
}

/// A win's fan and its lines.
#[derive(Debug)]
pub(super) struct Scored {
    /// The fan after the additions, the cap and the 杠上开花 floor.
    pub(super) total: i64,
    pub(super) items: Vec<FanItem>,
}

/// One set of a reading: a declared meld or a concealed set.
#[derive(Clone, Copy)]
struct Group {
    tile: Tile,
    chow: bool,
}

/// Scores a win in its best reading; `Err` when the tiles are no winning shape.
pub(super) fn score(ctx: &Context, hand: &SeatHand, win: &Win) -> Result<Scored, String> {
    if win.tile.is_flower() {
        return Err("Guangdong is played without flowers".into());
    }
    let mut full = hand.concealed;
    full.add(win.tile);
    let melds = hand.melds.len() as u8;
    let mut all = hand.all_tiles();
    all.add(win.tile);
    let mut rows: Vec<(Row, Vec<Group>)> = Vec::new();
    if melds == 0 && is_complete(&full, 0, Forms::THIRTEEN_ORPHANS) {
        rows.push((Row::ThirteenOrphans, Vec::new()));
    }
    let declared = hand.melds.iter().map(|m| Group {
        tile: m.meld.tile,
        chow: m.meld.kind == MeldKind::Chow,
    });
    for split in decompositions(&full) {
        let mut groups: Vec<Group> = declared.clone().collect();
        groups.extend(split.sets.iter().map(|s| match *s {
            Set::Chow(t) => Group {
                tile: t,
                chow: true,
            },
            Set::Pung(t) => Group {
                tile: t,
                chow: false,
            },
        }));
        if groups.len() == 4 {
            rows.push((
                standard_row(&all, &full, melds, &groups, split.pair),
                groups,
            ));
        }
    }
    if rows.is_empty() {
        return Err("the tiles make neither four sets and a pair nor 十三幺".into());
    }
    // 天胡 / 地胡: a self-draw in the first go-around, before any claim.
    let first = (win.flags.first_turn && win.is_self_draw()).then(|| {
        if win.seat == ctx.dealer {
            Row::Heavenly
        } else {
            Row::Earthly
        }
    });
    rows.into_iter()
        .map(|(row, groups)| {
            let row = match first {
                Some(f) if f.fan() > row.fan() => f,
                _ => row,
            };
            total(ctx, hand, win, row, &groups)
        })
        .max_by_key(|s| s.total)
        .ok_or_else(|| "no reading".to_string())
}

/// The highest row a standard reading fits.
fn standard_row(
    all: &TileCounts,
    full: &TileCounts,
    melds: u8,
    groups: &[Group],
    pair: Tile,
) -> Row {
    let suits = all.suits();
    let one_suit = suits.numbered_count() == 1;
    let honors = suits.has_honors();
    let pungs = groups.iter().all(|g| !g.chow);
    let chows = groups.iter().all(|g| g.chow);
    let count = |f: fn(Tile) -> bool| groups.iter().filter(|g| !g.chow && f(g.tile)).count();
    let dragons = count(Tile::is_dragon);
    let winds = count(Tile::is_wind);
    let tiles = all.to_tiles();
    let orphans = tiles.iter().all(|t| t.is_terminal_or_honor());
    let terminals = tiles.iter().any(|t| t.is_terminal());
    if suits.numbered_count() == 0 {
        Row::AllHonors
    } else if pungs && orphans && !honors {
        Row::PureOrphans
    } else if dragons == 3 {
        Row::BigDragons
    } else if winds == 4 {
        Row::BigWinds
    } else if melds == 0 && nine_gates(full) {
        Row::NineGates
    } else if one_suit && !honors && pungs {
        Row::FullFlushPungs
    } else if pungs && orphans && honors && terminals {
        Row::MixedOrphans
    } else if dragons == 2 && pair.is_dragon() {
        Row::LittleDragons
    } else if winds == 3 && pair.is_wind() {
        Row::LittleWinds
    } else if one_suit && !honors {
        Row::FullFlush
    } else if one_suit && pungs {
        Row::HalfFlushPungs
    } else if one_suit {
        Row::HalfFlush
    } else if pungs {
        Row::AllPungs
    } else if chows {
        Row::AllChows
    } else {
        Row::Chicken
    }
}

/// 九莲宝灯: fourteen concealed tiles of one suit holding 1112345678999.
fn nine_gates(full: &TileCounts) -> bool {
    Suit::NUMBERED.iter().any(|&suit| {
        let ranks = full.suit_slice(suit);
        full.suit_total(suit) == 14
            && ranks.first().is_some_and(|&n| n >= 3)
            && ranks.last().is_some_and(|&n| n >= 3)
            && ranks.iter().all(|&n| n >= 1)
    })
}

/// The row, its additions (unless a 6-fan row), the cap and the 杠上开花 floor.
fn total(ctx: &Context, hand: &SeatHand, win: &Win, row: Row, groups: &[Group]) -> Scored {
    let mut items = vec![item(row.name(), row.fan(), 1)];
    if !row.is_limit() {
        let seat_wind = win.seat.wind(ctx.dealer, 4).tile();
        let prevalent = ctx.round_wind.tile();
        let pungs_of = |f: &dyn Fn(Tile) -> bool| {
            groups.iter().filter(|g| !g.chow && f(g.tile)).count() as u32
        };
        let self_drawn = win.is_self_draw();
        let additions = [
            ("自摸", u32::from(self_drawn)),
            ("门清", u32::from(hand.is_concealed())),
            ("箭刻", pungs_of(&|t| t.is_dragon())),
            ("门风刻", pungs_of(&|t| t == seat_wind)),
            ("圈风刻", pungs_of(&|t| t == prevalent)),
            ("海底捞月", u32::from(self_drawn && win.flags.last_tile)),
            ("抢杠", u32::from(win.flags.robbed_kong)),
        ];
        items.extend(
            additions
                .into_iter()
                .filter(|&(_, n)| n > 0)
                .map(|(name, n)| item(name, 1, n)),
        );
    }
    let sum: i64 = items.iter().map(|i| i.value * i64::from(i.count)).sum();
    let mut total = sum.min(ctx.fan_cap);
    // 杠上开花: a win on a kong's replacement counts at least 3 fan.
    if win.flags.kong_replacement && win.is_self_draw() {
        let raised = total.max(FLOOR_FAN.min(ctx.fan_cap));
        items.push(item("杠上开花", raised - total, 1));
        total = raised;
    }
    Scored { total, items }
}

pub(super) fn item(name: &'static str, value: i64, count: u32) -> FanItem {
    FanItem { name, value, count }
}
