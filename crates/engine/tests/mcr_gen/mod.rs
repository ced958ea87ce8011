//! Generators of physically possible winning Guobiao hands for the calculator's property
//! tests: random shapes (four sets and a pair with some declared, seven pairs, seven shifted
//! pairs, thirteen orphans, the knitted hands, nine gates), never more than four copies of a
//! kind, the winning tile taken from the concealed part, flags only as a real win allows.
#![allow(dead_code)]

use engine::variants::guobiao::{McrHand, WinContext};
use engine::wall::SeededRng;
use engine::{KongKind, Meld, MeldKind, Tile, TileCounts, Wind};

/// The shapes of generated winning hands.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    Standard,
    /// Standard, from every kind, at least one set declared, won on a discard without flags:
    /// the hands that score little, down to Chicken Hand.
    Plain,
    /// 123 and 789 twice around a pair of fives (双龙会 and near misses).
    TerminalChows,
    SevenPairs,
    SevenShiftedPairs,
    ThirteenOrphans,
    HonorsAndKnitted,
    KnittedStraight,
    NineGates,
}

pub const SHAPES: usize = 9;

/// The terminals and honors of thirteen orphans.
pub const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// A random winning hand and its shape.
pub fn winning_hand(g: &mut SeededRng) -> (Shape, McrHand) {
    loop {
        let roll = below(g, 100);
        let (shape, built) = match roll {
            0..62 => {
                let palette = Palette::random(g);
                (Shape::Standard, standard(g, &palette, 0))
            }
            62..66 => (Shape::Plain, standard(g, &Palette::FULL, 1)),
            66..70 => (Shape::TerminalChows, terminal_chows(g)),
            70..79 => {
                let palette = Palette::random(g);
                (Shape::SevenPairs, seven_pairs(g, &palette))
            }
            79..81 => (Shape::SevenShiftedPairs, seven_shifted_pairs(g)),
            81..85 => (Shape::ThirteenOrphans, thirteen_orphans(g)),
            85..90 => (Shape::HonorsAndKnitted, honors_and_knitted(g)),
            90..97 => (Shape::KnittedStraight, knitted_straight(g)),
            _ => (Shape::NineGates, nine_gates(g)),
        };
        if let Some((concealed, melds)) = built
            && physical(&concealed, &melds)
        {
            let hand = finish(g, concealed, melds, matches!(shape, Shape::Plain));
            return (shape, hand);
        }
    }
}

/// Which tiles a hand may use: some suits, some ranks of the numbered suits, some honors. A
/// narrow palette makes the rarer whole-hand fans (flushes, all honors, upper tiles …) common.
pub struct Palette {
    suits: [bool; 3],
    ranks: [bool; 9],
    honors: [bool; 7],
}

impl Palette {
    const FULL: Palette = Palette {
        suits: [true; 3],
        ranks: [true; 9],
        honors: [true; 7],
    };

    fn random(g: &mut SeededRng) -> Palette {
        let mut suits = [true; 3];
        let mut honors = [true; 7];
        match below(g, 8) {
            0 | 1 => {}
            2 | 3 => {
                let keep = below(g, 3);
                suits = [keep == 0, keep == 1, keep == 2];
            }
            4 => {
                let drop = below(g, 3);
                suits = [drop != 0, drop != 1, drop != 2];
            }
            5 => suits = [false; 3],
            _ => suits = [one_in(g, 2), one_in(g, 2), one_in(g, 2)],
        }
        match below(g, 6) {
            0 => honors = [false; 7],
            1 => honors = [true, true, true, true, false, false, false],
            2 => honors = [false, false, false, false, true, true, true],
            3 => honors = std::array::from_fn(|_| one_in(g, 2)),
            _ => {}
        }
        let ranks: [bool; 9] = match below(g, 12) {
            0 => std::array::from_fn(|r| r <= 2),
            1 => std::array::from_fn(|r| (3..=5).contains(&r)),
            2 => std::array::from_fn(|r| r >= 6),
            3 => std::array::from_fn(|r| r <= 3),
            4 => std::array::from_fn(|r| r >= 5),
            5 => std::array::from_fn(|r| r == 0 || r == 8),
            6 => std::array::from_fn(|r| r % 2 == 1),
            7 => std::array::from_fn(|r| (2..=6).contains(&r)),
            8 => std::array::from_fn(|_| one_in(g, 2)),
            _ => [true; 9],
        };
        if one_in(g, 12) {
            // 绿一色: 23468 条 and 发.
            return Palette {
                suits: [false, false, true],
                ranks: [false, true, true, true, false, true, false, true, false],
                honors: [false, false, false, false, false, true, false],
            };
        }
        Palette {
            suits,
            ranks,
            honors,
        }
    }

    fn allows(&self, i: usize) -> bool {
        if i < 27 {
            self.suits[i / 9] && self.ranks[i % 9]
        } else {
            self.honors[i - 27]
        }
    }

    /// Kinds usable for pungs, kongs and pairs.
    fn kinds(&self) -> Vec<usize> {
        (0..34).filter(|&i| self.allows(i)).collect()
    }

    /// Lowest kinds of the chows within the palette.
    fn chows(&self) -> Vec<usize> {
        (0..27)
            .filter(|&i| i % 9 <= 6 && (i..i + 3).all(|j| self.allows(j)))
            .collect()
    }
}

/// Four sets and a pair; sets declared at a random rate (at least `declared` of them), kongs
/// always declared.
pub fn standard(
    g: &mut SeededRng,
    p: &Palette,
    declared: usize,
) -> Option<(TileCounts, Vec<Meld>)> {
    let kinds = p.kinds();
    let chows = p.chows();
    if kinds.is_empty() {
        return None;
    }
    let declare = below(g, 5); // out of 4: 0 never … 4 always
    let mut concealed = TileCounts::new();
    let mut melds = Vec::new();
    for _ in 0..4 {
        let roll = below(g, 20);
        if !chows.is_empty() && roll < 11 {
            let low = tile(pick(g, &chows));
            if below(g, 4) < declare {
                melds.push(meld(MeldKind::Chow, low));
            } else {
                for t in chow_tiles(low) {
                    concealed.add(t);
                }
            }
        } else if roll < 17 {
            let t = tile(pick(g, &kinds));
            if below(g, 4) < declare {
                melds.push(meld(MeldKind::Pung, t));
            } else {
                for _ in 0..3 {
                    concealed.add(t);
                }
            }
        } else {
            let kind = match below(g, 5) {
                0 | 1 => KongKind::Concealed,
                2 => KongKind::Added,
                _ => KongKind::Exposed,
            };
            melds.push(meld(MeldKind::Kong(kind), tile(pick(g, &kinds))));
        }
    }
    if melds.len() < declared {
        return None;
    }
    let pair = tile(pick(g, &kinds));
    concealed.add(pair);
    concealed.add(pair);
    Some((concealed, melds))
}

/// 123 and 789 of one suit, 123 and 789 of another or the same, a pair of fives of any suit;
/// sets declared at a random rate.
pub fn terminal_chows(g: &mut SeededRng) -> Option<(TileCounts, Vec<Meld>)> {
    let declare = below(g, 4);
    let (a, b) = (below(g, 3), below(g, 3));
    let mut concealed = TileCounts::new();
    let mut melds = Vec::new();
    for low in [9 * a, 9 * a + 6, 9 * b, 9 * b + 6] {
        if below(g, 4) < declare {
            melds.push(meld(MeldKind::Chow, tile(low)));
        } else {
            for t in chow_tiles(tile(low)) {
                concealed.add(t);
            }
        }
    }
    concealed.0[9 * below(g, 3) + 4] += 2;
    Some((concealed, melds))
}

/// Seven pairs; a kind may give two of them.
pub fn seven_pairs(g: &mut SeededRng, p: &Palette) -> Option<(TileCounts, Vec<Meld>)> {
    let mut kinds = p.kinds();
    if kinds.len() < 4 {
        kinds = (0..34).collect();
    }
    let mut c = TileCounts::new();
    for _ in 0..7 {
        let k = pick(g, &kinds);
        c.0[k] += 2;
    }
    Some((c, Vec::new()))
}

/// 连七对: seven consecutive pairs of one suit.
pub fn seven_shifted_pairs(g: &mut SeededRng) -> Option<(TileCounts, Vec<Meld>)> {
    let low = 9 * below(g, 3) + below(g, 3);
    let mut c = TileCounts::new();
    for i in low..low + 7 {
        c.0[i] = 2;
    }
    Some((c, Vec::new()))
}

pub fn thirteen_orphans(g: &mut SeededRng) -> Option<(TileCounts, Vec<Meld>)> {
    let mut c = TileCounts::new();
    for i in ORPHANS {
        c.0[i] = 1;
    }
    c.0[ORPHANS[below(g, ORPHANS.len())]] += 1;
    Some((c, Vec::new()))
}

/// The nine tiles of a random knitted straight (147, 258, 369 over the three suits).
pub fn knit(g: &mut SeededRng) -> [usize; 9] {
    let mut offsets = [0usize, 1, 2];
    g.shuffle(&mut offsets);
    std::array::from_fn(|i| 9 * (i / 3) + offsets[i / 3] + 3 * (i % 3))
}

/// 全不靠 / 七星不靠: fourteen of the sixteen tiles of a knitted straight and the honors.
pub fn honors_and_knitted(g: &mut SeededRng) -> Option<(TileCounts, Vec<Meld>)> {
    let mut candidates: Vec<usize> = knit(g).into_iter().chain(27..34).collect();
    // Drop two, from the straight alone one time in three (七星不靠).
    let greater = one_in(g, 3);
    for _ in 0..2 {
        let n = if greater {
            candidates.len() - 7
        } else {
            candidates.len()
        };
        candidates.remove(below(g, n));
    }
    let mut c = TileCounts::new();
    for i in candidates {
        c.0[i] = 1;
    }
    Some((c, Vec::new()))
}

/// 组合龙: a knitted straight, one set (concealed or declared) and a pair.
pub fn knitted_straight(g: &mut SeededRng) -> Option<(TileCounts, Vec<Meld>)> {
    let mut c = TileCounts::new();
    for i in knit(g) {
        c.0[i] += 1;
    }
    let mut melds = Vec::new();
    let declared = one_in(g, 3);
    if one_in(g, 2) {
        let low = tile(9 * below(g, 3) + below(g, 7));
        if declared {
            melds.push(meld(MeldKind::Chow, low));
        } else {
            for t in chow_tiles(low) {
                c.add(t);
            }
        }
    } else {
        let t = tile(below(g, 34));
        match (declared, below(g, 4)) {
            (false, _) => c.0[t.index()] += 3,
            (true, 0) => melds.push(meld(MeldKind::Kong(KongKind::Concealed), t)),
            (true, 1) => melds.push(meld(MeldKind::Kong(KongKind::Exposed), t)),
            (true, _) => melds.push(meld(MeldKind::Pung, t)),
        }
    }
    c.0[below(g, 34)] += 2;
    Some((c, melds))
}

/// 九莲宝灯 shapes: 1112345678999 of one suit and one more tile of it.
pub fn nine_gates(g: &mut SeededRng) -> Option<(TileCounts, Vec<Meld>)> {
    let base = 9 * below(g, 3);
    let mut c = TileCounts::new();
    for (r, n) in [3u8, 1, 1, 1, 1, 1, 1, 1, 3].into_iter().enumerate() {
        c.0[base + r] = n;
    }
    c.0[base + below(g, 9)] += 1;
    Some((c, Vec::new()))
}

/// No kind more than four times over the concealed tiles and the melds.
pub fn physical(concealed: &TileCounts, melds: &[Meld]) -> bool {
    let mut all = *concealed;
    for m in melds {
        for t in m.tiles() {
            all.add(t);
        }
    }
    all.0.iter().all(|&n| n <= 4)
}

/// Picks the winning tile among the concealed tiles and flags a real win could have (none
/// when `plain`: won on a discard).
pub fn finish(
    g: &mut SeededRng,
    mut concealed: TileCounts,
    melds: Vec<Meld>,
    plain: bool,
) -> McrHand {
    let tiles = concealed.to_tiles();
    let win = tiles[below(g, tiles.len())];
    concealed.remove(win);
    let in_melds = melds
        .iter()
        .flat_map(|m| m.tiles())
        .filter(|&t| t == win)
        .count();
    let held_elsewhere = usize::from(concealed.get(win)) + in_melds;
    let self_drawn = one_in(g, 2);
    // 杠上开花 needs a kong of one's own; 抢杠和 takes the only copy the winner holds.
    let kong_win = if self_drawn {
        melds.iter().any(Meld::is_kong) && one_in(g, 3)
    } else {
        held_elsewhere == 0 && one_in(g, 3)
    };
    // 和绝张: never with another copy in hand; always when the melds hold the other three.
    let last_of_kind = if concealed.get(win) > 0 {
        false
    } else if in_melds >= 3 {
        true
    } else {
        one_in(g, 4)
    };
    let last_tile = !kong_win && one_in(g, 6);
    let context = if plain {
        WinContext::default()
    } else {
        WinContext {
            self_drawn,
            last_of_kind,
            kong_win,
            last_tile,
        }
    };
    let flowers = if one_in(g, 2) {
        0
    } else {
        1 + below(g, 8) as u8
    };
    McrHand {
        concealed,
        melds,
        win_tile: win,
        context,
        seat_wind: Wind::ALL[below(g, 4)],
        round_wind: Wind::ALL[below(g, 4)],
        flowers,
    }
}

// Helpers.

pub fn below(g: &mut SeededRng, n: usize) -> usize {
    g.below(n as u32) as usize
}

pub fn one_in(g: &mut SeededRng, n: usize) -> bool {
    below(g, n) == 0
}

pub fn pick(g: &mut SeededRng, from: &[usize]) -> usize {
    from[below(g, from.len())]
}

/// A playing kind by index.
pub fn tile(i: usize) -> Tile {
    assert!(i < 34, "kind {i} is not a playing tile");
    tile_any(i)
}

/// Any kind by index, flowers included.
pub fn tile_any(i: usize) -> Tile {
    Tile::from_index(i as u8).expect("a kind index below 42")
}

pub fn chow_tiles(low: Tile) -> [Tile; 3] {
    [low, tile(low.index() + 1), tile(low.index() + 2)]
}

pub fn meld(kind: MeldKind, t: Tile) -> Meld {
    Meld {
        kind,
        tile: t,
        from: None,
        claimed: None,
    }
}
