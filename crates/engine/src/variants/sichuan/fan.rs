//! Scoring one win: the readings of the hand, the base row and the extras of each preset.

use super::{Preset, Sichuan};
use crate::ruleset::WinScore;
use crate::seat::Seat;
use crate::settle::{FanItem, SeatHand, Win, WinFlags};
use crate::shape::{self, Forms, Set};
use crate::tile::{Suit, Tile};
use crate::tiles::TileCounts;

/// The features of one reading of a winning hand.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Reading {
    seven_pairs: bool,
    all_pungs: bool,
    terminals_everywhere: bool,
}

/// Facts about the whole winning hand that do not depend on the reading.
pub(super) struct HandFacts {
    one_suit: bool,
    only_258: bool,
    /// Kinds held four times, kongs included (根 of the 血战 presets: "held or konged").
    fours: u32,
    /// Kinds four times in the concealed hand with the winning tile (根 of the standard
    /// preset: not a kong, and not a pung with its fourth tile in hand).
    concealed_fours: u32,
    kongs: u32,
}

pub(super) fn hand_facts(hand: &SeatHand, win_tile: Tile) -> HandFacts {
    let mut all = hand.all_tiles();
    all.add(win_tile);
    let fours = all.0.iter().filter(|&&n| n == 4).count() as u32;
    let mut concealed = hand.concealed;
    concealed.add(win_tile);
    let concealed_fours = concealed.0.iter().filter(|&&n| n == 4).count() as u32;
    HandFacts {
        concealed_fours,
        one_suit: all.suits().numbered_count() == 1,
        only_258: all.to_tiles().iter().all(|t| matches!(t.rank(), 2 | 5 | 8)),
        fours,
        kongs: hand.melds.iter().filter(|m| m.meld.is_kong()).count() as u32,
    }
}

/// Every reading of the complete hand: seven pairs and each standard arrangement.
pub(super) fn readings(hand: &SeatHand, full: &TileCounts) -> Vec<Reading> {
    let mut out = Vec::new();
    if hand.melds.is_empty() && shape::is_complete(full, 0, Forms::SEVEN_PAIRS) {
        out.push(Reading {
            seven_pairs: true,
            ..Reading::default()
        });
    }
    let melds_pungs = hand.melds.iter().all(|m| m.meld.is_pung_or_kong());
    let melds_terminal = hand
        .melds
        .iter()
        .all(|m| m.meld.tiles().iter().any(|t| t.is_terminal()));
    for d in shape::decompositions(full) {
        let all_pungs = melds_pungs && d.sets.iter().all(|s| matches!(s, Set::Pung(_)));
        let terminals_everywhere = melds_terminal
            && d.pair.is_terminal()
            && d.sets
                .iter()
                .all(|s| s.tiles().iter().any(|t| t.is_terminal()));
        out.push(Reading {
            seven_pairs: false,
            all_pungs,
            terminals_everywhere,
        });
    }
    out
}

impl Sichuan {
    /// Scores one reading: the base row (highest single row) plus extras.
    pub(super) fn score_reading(
        &self,
        r: Reading,
        f: &HandFacts,
        win: &Win,
        dealer: Seat,
    ) -> WinScore {
        let self_draw = win.is_self_draw();
        let flags = win.flags;
        let tianhu = flags.first_turn && self_draw && win.seat == dealer;
        let dihu = flags.first_turn && !self_draw && win.from == Some(dealer) && win.seat != dealer;
        let dragon = r.seven_pairs && f.fours > 0; // 龙七对
        let mut rows: Vec<(&'static str, i64)> = Vec::new();
        match self.preset {
            Preset::Standard => {
                rows.push(("平胡", 1));
                if r.all_pungs {
                    rows.push(("对对胡", 2));
                }
                if flags.robbed_kong {
                    rows.push(("抢杠胡", 2));
                }
                if f.one_suit {
                    rows.push(("清一色", 3));
                }
                if r.terminals_everywhere {
                    rows.push(("幺九", 3));
                }
                if r.seven_pairs {
                    rows.push(("七对", 3));
                }
                if f.one_suit && r.all_pungs {
                    rows.push(("清对", 4));
                }
                if r.all_pungs && f.only_258 {
                    rows.push(("将对", 4));
                }
                // Decision (sichuan.md): the 8-point 清七对 is seven pairs of one suit.
                if r.seven_pairs && f.one_suit {
                    rows.push(("清七对", 8));
                }
                if tianhu {
                    rows.push(("天胡", 8));
                }
                if dihu {
                    rows.push(("地胡", 8));
                }
            }
            Preset::Xuezhan => {
                rows.push(("平胡", 0));
                if r.all_pungs {
                    rows.push(("对对胡", 1));
                }
                if f.one_suit {
                    rows.push(("清一色", 2));
                }
                if r.terminals_everywhere {
                    rows.push(("带幺九", 2));
                }
                if r.seven_pairs {
                    rows.push(("七对", 2));
                }
                if f.one_suit && r.all_pungs {
                    rows.push(("清对", 3));
                }
                if r.all_pungs && f.only_258 {
                    rows.push(("将对", 3));
                }
                if dragon {
                    rows.push(("龙七对", 3));
                }
                if r.seven_pairs && f.one_suit {
                    rows.push((if dragon { "清龙七对" } else { "清七对" }, 3));
                }
                if f.one_suit && r.terminals_everywhere {
                    rows.push(("清幺九", 3));
                }
                if tianhu {
                    rows.push(("天胡", 3));
                }
                if dihu {
                    rows.push(("地胡", 3));
                }
            }
            Preset::Xuezhan9 => {
                rows.push(("平胡", 0));
                if r.all_pungs {
                    rows.push(("大对子", 2));
                }
                if f.one_suit {
                    rows.push(("清一色", 3));
                }
                if r.seven_pairs {
                    rows.push((
                        if dragon { "龙七对" } else { "七对" },
                        if dragon { 5 } else { 4 },
                    ));
                }
                if f.one_suit && r.all_pungs {
                    rows.push(("清大对", 5));
                }
                if r.seven_pairs && f.one_suit {
                    rows.push(if dragon {
                        ("清龙七对", 8)
                    } else {
                        ("清七对", 7)
                    });
                }
            }
        }
        // The single highest row; on a tie the later (more specific) row names it.
        let (name, base) = rows
            .iter()
            .copied()
            .reduce(|best, row| if row.1 >= best.1 { row } else { best })
            .unwrap_or(("平胡", 0));
        let mut items = vec![FanItem {
            name,
            value: base,
            count: 1,
        }];
        let mut push = |name: &'static str, value: i64, count: u32| {
            if count > 0 {
                items.push(FanItem { name, value, count });
            }
        };
        // 龙七对 rows already contain one 根 (the four of a kind that makes the dragon).
        let dragon_row = matches!(name, "龙七对" | "清龙七对");
        let roots = f.fours - u32::from(dragon_row);
        match self.preset {
            Preset::Standard => {
                push("杠", 1, f.kongs);
                push("根", 1, f.concealed_fours);
                push("杠上花", 2, u32::from(flags.kong_replacement && self_draw));
                push("抢杠", 1, u32::from(flags.robbed_kong));
            }
            Preset::Xuezhan => {
                push("根", 1, roots);
                push("杠上花", 1, u32::from(flags.kong_replacement && self_draw));
                push(
                    "杠上炮",
                    1,
                    u32::from(flags.after_kong_discard && !self_draw),
                );
                push("抢杠", 1, u32::from(flags.robbed_kong));
            }
            Preset::Xuezhan9 => {
                push("自摸", 1, u32::from(self_draw));
                push("根", 1, roots);
            }
        }
        let raw: i64 = items.iter().map(|i| i.value * i64::from(i.count)).sum();
        let value = if self.is_xuezhan() {
            raw.min(i64::from(self.fan_cap))
        } else {
            raw
        };
        WinScore { items, value }
    }

    /// The legality checks shared by every preset; `Ok` carries the complete concealed counts.
    pub(super) fn check_legal(&self, hand: &SeatHand, tile: Tile) -> Result<TileCounts, String> {
        if tile.suit() == Suit::Honor || tile.is_flower() {
            return Err(format!("{tile} is not a Sichuan tile"));
        }
        let mut full = hand.concealed;
        full.add(tile);
        let mut all = hand.all_tiles();
        all.add(tile);
        if let Some(void) = hand.void
            && all.suit_total(void) > 0
        {
            return Err(format!("it still holds its declared void suit {void}"));
        }
        if all.suits().numbered_count() > 2 {
            return Err("a winning hand must lack one suit (缺一门)".into());
        }
        let melds = hand.melds.len() as u8;
        if !shape::is_complete(&full, melds, Forms::STANDARD.with(Forms::SEVEN_PAIRS)) {
            return Err("the tiles do not form four sets and a pair, or seven pairs".into());
        }
        Ok(full)
    }

    /// The best value a ready hand could win with on a discard, over all its winning kinds, or
    /// the smallest (standard 查叫 pays the smallest). `None` when not ready.
    pub(super) fn ready_value(
        &self,
        hand: &SeatHand,
        seat: Seat,
        dealer: Seat,
        largest: bool,
    ) -> Option<i64> {
        let melds = hand.melds.len() as u8;
        let all = hand.all_tiles();
        let waits = shape::waits(
            &hand.concealed,
            melds,
            Forms::STANDARD.with(Forms::SEVEN_PAIRS),
        );
        let mut best: Option<i64> = None;
        for t in waits.iter().filter(|&t| all.get(t) < 4) {
            let from = Seat::ALL.into_iter().find(|&s| s != seat);
            let win = Win {
                seat,
                tile: t,
                from,
                flags: WinFlags::default(),
            };
            if let Ok(score) = self.score_win(hand, &win, dealer) {
                best = Some(match best {
                    None => score.value,
                    Some(b) if largest => b.max(score.value),
                    Some(b) => b.min(score.value),
                });
            }
        }
        best
    }

    pub(super) fn score_win(
        &self,
        hand: &SeatHand,
        win: &Win,
        dealer: Seat,
    ) -> Result<WinScore, String> {
        let full = self.check_legal(hand, win.tile)?;
        let facts = hand_facts(hand, win.tile);
        readings(hand, &full)
            .into_iter()
            .map(|r| self.score_reading(r, &facts, win, dealer))
            .max_by_key(|s| s.value)
            .ok_or_else(|| "no reading of the hand is complete".to_owned())
    }
}
