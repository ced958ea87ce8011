//! 四川 / 成都麻将: presets `sichuan`, `sichuan-xuezhan` (血战到底, 3-fan cap) and
//! `sichuan-xuezhan-9` (血战到底, 9-fan cap), as decided in `shared/rules/sichuan.md`.
//!
//! Common to the three: 108 tiles, no chow, 缺一门 at win time, any pair as eyes, four melds +
//! pair or seven pairs, kong replacements from the live wall (杠牌顺拿牌), 一炮多响, a forced win
//! on the last four tiles, 过水.
//!
//! Decisions taken here where the spec is silent (the spec's own **Decision** lines are in the
//! code next to the rule they fix):
//! - **Scores compared for 过水** are the hand's full value (points or capped fan) as a discard
//!   win.
//! - **Ready (听牌) for 查叫** means a kind exists, not all four of which the player holds, that
//!   would make a legal win of the hand; its value is scored as a discard win with no situational
//!   extras (no 自摸, 杠上花, 抢杠, 天胡/地胡).
//! - **定缺 and winning.** In the 血战 presets a hand holding any tile of its declared void suit
//!   cannot win (the declaration implies 缺一门), and claims and kongs of that suit are refused.
//! - **花猪** in `sichuan-xuezhan` is a player holding three suits (the seed's words); in
//!   `sichuan-xuezhan-9` a player still holding its 定缺 suit. In the 9-fan preset a 花猪 pays
//!   each ready player that player's largest fan plus one (capped), and pays nobody else.
//! - **Forced win on the last four** applies to a tile that appears (is drawn, or discarded)
//!   once the live wall holds fewer than four tiles after it: a drawn tile that is one of the last
//!   four, or a discard made after one of them was drawn. Draws and discards use the same cut.
//! - **根 in the standard preset** is four copies of a kind anywhere in the winning hand that are
//!   not a declared kong (an exposed pung plus the fourth tile in a concealed set counts); kongs
//!   score their own +1 as 杠. The seed's "四张同样的牌" does not limit it to concealed tiles.
//! - **定缺 in the standard preset** does not exist: a `void` given in a `settle` line for
//!   `sichuan` is ignored (缺一门 is checked at win time as always).
//! - **杠上花 after 引杠** (standard preset): the replacement is taken to belong to the winner's
//!   last listed kong; when that kong was claimed on a discard, the feeder pays as for a discard.
//! - **Seats given as `{"concealed": ""}`** in a `settle` line take no part in 查叫 / 查花猪.
//! - **First dealer** is drawn from the seed in all three presets; after that the standard
//!   preset passes the deal to the winner (the discarder after a multi-win; kept after a draw),
//!   the 血战 presets to the first winner of the hand (kept when nobody won). In a 血战 multi-win
//!   the first winner is the first in turn order after the discarder.
//! - **Streaks** (`sichuan-xuezhan-9`): `dealer_streak` counts hands the dealer kept before this
//!   one, so the third hand in a row (streak 2) is ×2, then ×4…; `draw_streak` drawn hands in a
//!   row before this one give ×2^streak. Both multiply the whole settlement, 查叫 and kong money
//!   included. Each multiplier stops growing at ×1024 (ten doublings) so amounts stay bounded.
//! - **Room options:** `coefficient` (房间系数, points per unit, default 1) in all presets;
//!   `kong_money` (刮风下雨, default on) and `fan_cap` (default 3 or 9) in the 血战 presets.

use crate::meld::{KongKind, MeldKind};
use crate::ruleset::{
    HandResult, MissedWin, NextHand, OptionError, RawOptions, Rules, RulesetId, WinCheck, WinScore,
    bool_option, int_option,
};
use crate::seat::{Seat, SeatSet};
use crate::settle::{
    ExtraLine, FanItem, FinishedHand, SeatHand, SettleError, Settlement, Win, WinFlags, WinnerFans,
    check_physical, describe,
};
use crate::shape::{self, Forms, Set};
use crate::table::TableState;
use crate::tile::{Suit, Tile};
use crate::tiles::TileCounts;
use crate::wall::{ReplacementEnd, TileSetKind};

/// Which Sichuan text a room plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Preset {
    /// 成都 standard: points, the hand ends at the first win.
    Standard,
    /// 血战到底, seed 000 text: fan, 3-fan cap, 查花猪 / 查大叫, kong money.
    Xuezhan,
    /// 血战到底, seed 003 text: fan, 9-fan cap, 黄庄 and 连庄 multipliers.
    Xuezhan9,
}

/// The Sichuan family with validated room options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sichuan {
    id: RulesetId,
    preset: Preset,
    coefficient: i64,
    kong_money: bool,
    fan_cap: u32,
}

/// Doublings of one streak multiplier stop here (×1024), so that no settlement can overflow
/// whatever streak a table reaches; real tables never get near it.
const MAX_STREAK_DOUBLINGS: u32 = 10;

/// Live wall size at or below which a ready player must win (最后四张).
const FORCED_WIN_WALL: usize = 4;

impl Sichuan {
    /// Validates options for one of the three presets.
    ///
    /// # Errors
    /// An unknown option or a value out of range.
    pub fn new(id: RulesetId, raw: &RawOptions) -> Result<Sichuan, OptionError> {
        let preset = match id {
            RulesetId::Sichuan => Preset::Standard,
            RulesetId::SichuanXuezhan => Preset::Xuezhan,
            RulesetId::SichuanXuezhan9 => Preset::Xuezhan9,
        };
        let known: &'static str = match preset {
            Preset::Standard => "coefficient",
            _ => "coefficient, kong_money, fan_cap",
        };
        for name in raw.keys() {
            if !known.split(", ").any(|k| k == name) {
                return Err(OptionError::Unknown {
                    ruleset: id,
                    name: name.clone(),
                    known,
                });
            }
        }
        let default_cap = if preset == Preset::Xuezhan9 { 9 } else { 3 };
        Ok(Sichuan {
            id,
            preset,
            coefficient: int_option(raw, "coefficient", 1, 1..=1_000_000)?,
            kong_money: bool_option(raw, "kong_money", preset != Preset::Standard)?,
            fan_cap: int_option(raw, "fan_cap", default_cap, 1..=13)? as u32,
        })
    }

    /// The validated options, defaults filled in.
    pub fn options(&self) -> RawOptions {
        use crate::ruleset::OptionValue;
        let mut o = RawOptions::new();
        o.insert("coefficient".into(), OptionValue::Int(self.coefficient));
        if self.preset != Preset::Standard {
            o.insert("kong_money".into(), OptionValue::Bool(self.kong_money));
            o.insert("fan_cap".into(), OptionValue::Int(i64::from(self.fan_cap)));
        }
        o
    }

    fn is_xuezhan(&self) -> bool {
        self.preset != Preset::Standard
    }

    /// Points one payer pays for a hand value (points, or capped fan → coefficient × 2^fan).
    fn unit(&self, value: i64) -> i64 {
        match self.preset {
            Preset::Standard => value * self.coefficient,
            _ => self.coefficient << value.clamp(0, i64::from(self.fan_cap)),
        }
    }
}

/// The features of one reading of a winning hand.
#[derive(Clone, Copy, Debug, Default)]
struct Reading {
    seven_pairs: bool,
    all_pungs: bool,
    terminals_everywhere: bool,
}

/// Facts about the whole winning hand that do not depend on the reading.
struct HandFacts {
    one_suit: bool,
    only_258: bool,
    /// Kinds held four times, kongs included (根).
    fours: u32,
    kongs: u32,
}

fn hand_facts(hand: &SeatHand, win_tile: Tile) -> HandFacts {
    let mut all = hand.all_tiles();
    all.add(win_tile);
    let fours = all.0.iter().filter(|&&n| n == 4).count() as u32;
    HandFacts {
        one_suit: all.suits().numbered_count() == 1,
        only_258: all.to_tiles().iter().all(|t| matches!(t.rank(), 2 | 5 | 8)),
        fours,
        kongs: hand.melds.iter().filter(|m| m.meld.is_kong()).count() as u32,
    }
}

/// Every reading of the complete hand: seven pairs and each standard arrangement.
fn readings(hand: &SeatHand, full: &TileCounts) -> Vec<Reading> {
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
    fn score_reading(&self, r: Reading, f: &HandFacts, win: &Win, dealer: Seat) -> WinScore {
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
                push("根", 1, f.fours - f.kongs);
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
    fn check_legal(&self, hand: &SeatHand, tile: Tile) -> Result<TileCounts, String> {
        if tile.suit() == Suit::Honor || tile.is_flower() {
            return Err(format!("{tile} is not a Sichuan tile"));
        }
        let mut full = hand.concealed;
        full.add(tile);
        let mut all = hand.all_tiles();
        all.add(tile);
        if let Some(void) = hand.void {
            if all.suit_total(void) > 0 {
                return Err(format!("it still holds its declared void suit {void}"));
            }
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
    fn ready_value(&self, hand: &SeatHand, seat: Seat, dealer: Seat, largest: bool) -> Option<i64> {
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

    fn score_win(&self, hand: &SeatHand, win: &Win, dealer: Seat) -> Result<WinScore, String> {
        let full = self.check_legal(hand, win.tile)?;
        let facts = hand_facts(hand, win.tile);
        readings(hand, &full)
            .into_iter()
            .map(|r| self.score_reading(r, &facts, win, dealer))
            .max_by_key(|s| s.value)
            .ok_or_else(|| "no reading of the hand is complete".to_owned())
    }
}

impl Rules for Sichuan {
    fn id(&self) -> RulesetId {
        self.id
    }
    fn tile_set(&self) -> TileSetKind {
        TileSetKind::Suits108
    }
    fn replacement_end(&self) -> ReplacementEnd {
        ReplacementEnd::Live
    }
    fn forms(&self) -> Forms {
        Forms::STANDARD.with(Forms::SEVEN_PAIRS)
    }
    fn allows_chow(&self) -> bool {
        false
    }
    fn multi_win(&self) -> bool {
        true
    }
    fn declares_void(&self) -> bool {
        // Decision (sichuan.md): 定缺 is declared upfront in both 血战 presets.
        self.is_xuezhan()
    }
    fn plays_on_after_win(&self) -> bool {
        self.is_xuezhan()
    }
    fn missed_win(&self) -> MissedWin {
        MissedWin::UntilDrawUnlessHigher
    }
    fn forced_win_wall(&self) -> Option<usize> {
        Some(FORCED_WIN_WALL)
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        self.score_win(check.hand, check.win, check.dealer)
    }

    fn settle(&self, hand: &FinishedHand) -> Result<Settlement, SettleError> {
        if self.preset == Preset::Standard && hand.seats.0.iter().any(|s| s.void.is_some()) {
            let mut without_voids = hand.clone();
            for s in &mut without_voids.seats.0 {
                s.void = None;
            }
            return self.settle(&without_voids);
        }
        check_physical(hand, TileSetKind::Suits108)?;
        if hand.players != 4 {
            return Err(SettleError::Inconsistent(
                "Sichuan is played by four".into(),
            ));
        }
        let melds = hand.seats.0.iter().flat_map(|s| &s.melds);
        if melds.clone().any(|m| m.meld.kind == MeldKind::Chow) {
            return Err(SettleError::Inconsistent("Sichuan has no chow".into()));
        }
        self.check_win_sequence(hand)?;
        let mut st = Settlement::default();
        for (i, win) in hand.wins.iter().enumerate() {
            let sh = &hand.seats[win.seat];
            let score =
                self.score_win(sh, win, hand.dealer)
                    .map_err(|reason| SettleError::NotAWin {
                        seat: win.seat,
                        hand: describe(sh),
                        tile: win.tile,
                        reason,
                    })?;
            self.pay_win(hand, i, win, score.value, &mut st);
            st.fans.push(WinnerFans {
                seat: win.seat,
                items: score.items,
                total: score.value,
            });
        }
        let ended_by_wall = match self.preset {
            Preset::Standard => hand.wins.is_empty(),
            _ => hand.still_in().len() > 1,
        };
        let refunds = if self.is_xuezhan() && ended_by_wall {
            self.check_ready_at_wall(hand, &mut st)
        } else {
            if self.preset == Preset::Standard && ended_by_wall {
                self.check_ready_standard(hand, &mut st);
            }
            SeatSet::EMPTY
        };
        if self.is_xuezhan() && self.kong_money {
            self.pay_kongs(hand, refunds, &mut st);
        }
        if self.preset == Preset::Xuezhan9 {
            self.apply_streaks(hand, &mut st);
        }
        Ok(st)
    }

    fn next_hand(&self, state: &TableState, result: &HandResult) -> NextHand {
        let dealer = match (self.preset, result.wins.as_slice()) {
            (_, []) => state.dealer,
            (Preset::Standard, [single]) => single.seat,
            (Preset::Standard, [first, ..]) => first.from.unwrap_or(first.seat),
            (_, [first, ..]) => first.seat,
        };
        NextHand { dealer }
    }
}

/// Whether a seat's tiles were given at all. The settle format lets a seat "whose hand does not
/// matter" be written `{"concealed": ""}`; such a seat takes no part in 查叫 / 查花猪, neither
/// paying nor being paid (a seat still playing always holds tiles, so this never applies in
/// play).
fn is_given(sh: &SeatHand) -> bool {
    sh.concealed.total() > 0 || !sh.melds.is_empty()
}

impl Sichuan {
    fn check_win_sequence(&self, hand: &FinishedHand) -> Result<(), SettleError> {
        if self.preset == Preset::Standard && hand.wins.len() > 1 {
            let first = hand.wins[0];
            let one_discard = first.from.is_some()
                && hand
                    .wins
                    .iter()
                    .all(|w| w.from == first.from && w.tile == first.tile);
            if !one_discard {
                return Err(SettleError::Inconsistent(
                    "the standard preset ends at the first win; several wins must share one discard"
                        .into(),
                ));
            }
        }
        if hand.wins.len() > 3 {
            return Err(SettleError::Inconsistent(
                "at most three players can win".into(),
            ));
        }
        // In 血战, a seat that has left (won) cannot discard or be robbed afterwards.
        let mut out = SeatSet::EMPTY;
        for w in &hand.wins {
            if let Some(f) = w.from {
                if out.contains(f) {
                    return Err(SettleError::Inconsistent(format!(
                        "seat {f} pays for a win after it had already won"
                    )));
                }
            }
            out.insert(w.seat);
        }
        Ok(())
    }

    fn pay_win(
        &self,
        hand: &FinishedHand,
        index: usize,
        win: &Win,
        value: i64,
        st: &mut Settlement,
    ) {
        let amount = self.unit(value);
        if let Some(from) = win.from {
            st.pay(from, win.seat, amount);
            return;
        }
        // 引杠 then 杠上花 (standard): the feeder of the kong pays as for a discard.
        if self.preset == Preset::Standard && win.flags.kong_replacement {
            let last_kong = hand.seats[win.seat]
                .melds
                .iter()
                .rev()
                .find(|m| m.meld.is_kong());
            if let Some(m) = last_kong {
                if m.meld.kind == MeldKind::Kong(KongKind::Exposed) {
                    if let Some(feeder) = m.meld.from {
                        st.pay(feeder, win.seat, amount);
                        return;
                    }
                }
            }
        }
        let earlier: SeatSet = hand.wins[..index].iter().map(|w| w.seat).collect();
        for payer in hand.seats_in_play() {
            let pays = payer != win.seat && (!self.is_xuezhan() || !earlier.contains(payer));
            if pays {
                st.pay(payer, win.seat, amount);
            }
        }
    }

    /// 查叫 of the standard preset: each player not ready pays each ready player that player's
    /// smallest winning points.
    fn check_ready_standard(&self, hand: &FinishedHand, st: &mut Settlement) {
        let values: Vec<(Seat, Option<i64>)> = hand
            .seats_in_play()
            .filter(|&s| is_given(&hand.seats[s]))
            .map(|s| (s, self.ready_value(&hand.seats[s], s, hand.dealer, false)))
            .collect();
        for &(payer, pv) in &values {
            if pv.is_some() {
                continue;
            }
            for &(payee, v) in &values {
                if let Some(v) = v {
                    st.pay(payer, payee, self.unit(v));
                    st.extras.push(ExtraLine {
                        name: "查叫",
                        value: self.unit(v),
                    });
                }
            }
        }
    }

    fn is_flower_pig(&self, sh: &SeatHand) -> bool {
        let all = sh.all_tiles();
        match self.preset {
            Preset::Xuezhan9 => sh.void.is_some_and(|v| all.suit_total(v) > 0),
            _ => all.suits().numbered_count() >= 3,
        }
    }

    /// 查花猪 and 查大叫 at the end of the wall. Returns the seats whose kong money is returned
    /// (花猪 or not ready).
    fn check_ready_at_wall(&self, hand: &FinishedHand, st: &mut Settlement) -> SeatSet {
        let in_play = hand.still_in();
        let mut pigs = SeatSet::EMPTY;
        let mut ready: Vec<(Seat, i64)> = Vec::new();
        let mut not_ready = SeatSet::EMPTY;
        let in_play: SeatSet = in_play
            .iter()
            .filter(|&s| is_given(&hand.seats[s]))
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
                        st.pay(payer, payee, amount);
                        let name = if extra == 1 { "花猪" } else { "查叫" };
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
                        st.pay(pig, payee, self.unit(cap));
                        st.extras.push(ExtraLine {
                            name: "查花猪",
                            value: self.unit(cap),
                        });
                    }
                }
                for payer in not_ready.iter().filter(|s| !pigs.contains(*s)) {
                    for &(payee, v) in &ready {
                        st.pay(payer, payee, self.unit(v));
                        st.extras.push(ExtraLine {
                            name: "查大叫",
                            value: self.unit(v),
                        });
                    }
                }
            }
        }
        not_ready
    }

    /// 刮风下雨: exposed and added kongs 1×, concealed 2× from each player still in when the kong
    /// was made; returned (退税) when the owner ends the wall as a 花猪 or not ready.
    fn pay_kongs(&self, hand: &FinishedHand, refunds: SeatSet, st: &mut Settlement) {
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
                    st.pay(payer, owner, units * self.coefficient);
                }
                st.extras.push(ExtraLine {
                    name,
                    value: units * self.coefficient,
                });
            }
        }
    }

    /// 黄庄 and 连庄 multipliers of `sichuan-xuezhan-9`.
    fn apply_streaks(&self, hand: &FinishedHand, st: &mut Settlement) {
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

#[cfg(test)]
mod tests;
