//! The Guobiao calculator: every reading of a winning hand scored by the official table, the
//! highest kept (`docs/rules/guobiao.md` and the conventions of
//! `conformance/mcr/README.md`).
//!
//! A reading is one arrangement of the concealed tiles (standard sets and a pair, seven pairs,
//! thirteen orphans, a knitted hand) together with the declared melds. Each reading collects its
//! fans, drops every fan implied by another ([`Fan::implied`]), and scores Chicken Hand when
//! nothing but flowers is left.

use arrayvec::ArrayVec;
use thiserror::Error;

use super::combos::{chow_fans, pung_fans};
use super::fan::{FANS, Fan};
use crate::meld::{KongKind, Meld, MeldKind};
use crate::seat::Wind;
use crate::shape::{self, Arrangement, Decomposition, Forms, Set};
use crate::tile::{Suit, Tile};
use crate::tiles::TileCounts;

/// Every Guobiao winning shape.
pub const FORMS: Forms = Forms::STANDARD
    .with(Forms::SEVEN_PAIRS)
    .with(Forms::THIRTEEN_ORPHANS)
    .with(Forms::KNITTED);

/// How the hand was won.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct WinContext {
    /// On one's own draw (自摸).
    pub self_drawn: bool,
    /// The other three copies of the winning tile were visible (和绝张).
    pub last_of_kind: bool,
    /// Self-drawn: on a kong's replacement (杠上开花); otherwise robbing a kong (抢杠和).
    pub kong_win: bool,
    /// The wall's last tile (妙手回春 self-drawn, 海底捞月 claimed).
    pub last_tile: bool,
}

/// A winning hand as the calculator takes it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct McrHand {
    /// Concealed tiles, without the winning tile.
    pub concealed: TileCounts,
    /// Declared melds (concealed kongs included).
    pub melds: Vec<Meld>,
    /// The winning tile.
    pub win_tile: Tile,
    /// How it was won.
    pub context: WinContext,
    /// 门风.
    pub seat_wind: Wind,
    /// 圈风.
    pub round_wind: Wind,
    /// Flowers set aside.
    pub flowers: u8,
}

/// A scored hand: its fans in table order with their counts, and the total.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Scored {
    /// Each fan scored, with how many times.
    pub fans: Vec<(Fan, u32)>,
    /// Σ value × count, flowers included.
    pub total: i64,
}

impl Scored {
    /// The total without Flower Tiles: what the 8-fan minimum counts.
    pub fn without_flowers(&self) -> i64 {
        self.total
            - self
                .fans
                .iter()
                .filter(|(f, _)| *f == Fan::FlowerTiles)
                .map(|&(f, n)| f.value() * i64::from(n))
                .sum::<i64>()
    }
}

/// Why a hand could not be scored.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum ScoreError {
    /// The tiles make no winning shape.
    #[error("not a winning hand: the tiles make no Guobiao winning shape")]
    NotComplete,
    /// More than four copies of a kind.
    #[error("more than four copies of {0}")]
    TooMany(Tile),
    /// Not 14 tiles (kongs counting three) with the melds given.
    #[error("a winning hand has 14 tiles (each kong counting 3); this one has {0}")]
    WrongCount(u32),
    /// A flower where a playing tile belongs.
    #[error("{0} is a flower: flowers are counted, not held")]
    Flower(Tile),
}

/// Scores the hand's best reading.
///
/// # Errors
/// [`ScoreError`] when the hand is not a physically possible winning hand.
pub fn score(hand: &McrHand) -> Result<Scored, ScoreError> {
    if hand.win_tile.is_flower() {
        return Err(ScoreError::Flower(hand.win_tile));
    }
    let mut full = hand.concealed;
    full.add(hand.win_tile);
    let melds = u8::try_from(hand.melds.len()).unwrap_or(u8::MAX);
    let count = full.total() + 3 * u32::from(melds);
    if count != 14 || melds > 4 {
        return Err(ScoreError::WrongCount(count));
    }
    let mut all = full;
    for m in &hand.melds {
        for t in m.tiles() {
            all.add(t);
        }
    }
    if let Some(t) = Tile::playing().find(|&t| all.get(t) > 4) {
        return Err(ScoreError::TooMany(t));
    }
    let readings = shape::arrangements(&full, 0, None, melds, FORMS);
    let unique_wait = shape::waits(&hand.concealed, melds, FORMS).len() == 1;
    let mut best: Option<Counts> = None;
    for arrangement in &readings {
        let counts = Reading::new(hand, &all, arrangement, unique_wait).fans();
        if best.as_ref().is_none_or(|b| counts.beats(b)) {
            best = Some(counts);
        }
    }
    let best = best.ok_or(ScoreError::NotComplete)?;
    Ok(best.scored())
}

/// Fan counts of one reading, indexed by table position.
#[derive(Clone, Copy)]
struct Counts([u8; FANS]);

impl Counts {
    fn add(&mut self, f: Fan, n: u8) {
        let c = &mut self.0[f as usize];
        *c = c.saturating_add(n);
    }

    fn total(&self) -> i64 {
        Fan::ALL
            .iter()
            .map(|&f| f.value() * i64::from(self.0[f as usize]))
            .sum()
    }

    /// Drops every fan another one present implies.
    fn exclude(&mut self) {
        let mut implied = 0u128;
        for f in Fan::ALL {
            if self.0[f as usize] > 0 {
                implied |= f.implied();
            }
        }
        for f in Fan::ALL {
            if implied & (1u128 << (f as usize)) != 0 {
                self.0[f as usize] = 0;
            }
        }
    }

    fn beats(&self, other: &Counts) -> bool {
        let (a, b) = (self.total(), other.total());
        if a != b {
            return a > b;
        }
        // Equal totals: the fans earlier in the table win (the spec's decision).
        for f in Fan::ALL {
            let (x, y) = (self.0[f as usize], other.0[f as usize]);
            if x != y {
                return x > y;
            }
        }
        false
    }

    fn scored(&self) -> Scored {
        let fans: Vec<(Fan, u32)> = Fan::ALL
            .iter()
            .filter(|&&f| self.0[f as usize] > 0)
            .map(|&f| (f, u32::from(self.0[f as usize])))
            .collect();
        Scored {
            total: self.total(),
            fans,
        }
    }
}

/// A set of a standard reading.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Group {
    kind: GroupKind,
    /// The lowest tile.
    tile: Tile,
    /// Never shown (a concealed set, or a concealed kong).
    concealed: bool,
    /// Part of the concealed tiles (not a declared meld).
    in_hand: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum GroupKind {
    Chow,
    Pung,
    Kong,
}

impl Group {
    fn from_meld(m: &Meld) -> Group {
        let (kind, concealed) = match m.kind {
            MeldKind::Chow => (GroupKind::Chow, false),
            MeldKind::Pung => (GroupKind::Pung, false),
            MeldKind::Kong(k) => (GroupKind::Kong, k == KongKind::Concealed),
        };
        Group {
            kind,
            tile: m.tile,
            concealed,
            in_hand: false,
        }
    }

    fn from_set(s: Set) -> Group {
        let (kind, tile) = match s {
            Set::Chow(t) => (GroupKind::Chow, t),
            Set::Pung(t) => (GroupKind::Pung, t),
        };
        Group {
            kind,
            tile,
            concealed: true,
            in_hand: true,
        }
    }

    fn is_pung(self) -> bool {
        self.kind != GroupKind::Chow
    }

    fn tiles(self) -> [Tile; 3] {
        match self.kind {
            GroupKind::Chow => Set::Chow(self.tile).tiles(),
            _ => [self.tile; 3],
        }
    }

    fn holds(self, t: Tile) -> bool {
        self.tiles().contains(&t)
    }
}

/// One reading of the hand.
struct Reading<'a> {
    hand: &'a McrHand,
    /// Every tile of the hand (kongs four).
    all: &'a TileCounts,
    shape: Shape,
    unique_wait: bool,
}

enum Shape {
    /// Sets and a pair; `knit` is the knitted straight of 组合龙 besides them.
    Sets {
        groups: ArrayVec<Group, 4>,
        pair: Tile,
        knit: bool,
    },
    SevenPairs(ArrayVec<Tile, 7>),
    ThirteenOrphans,
    /// 全不靠 / 七星不靠; `straight`: all nine tiles of the knitted straight are held.
    Knitted {
        straight: bool,
    },
}

impl<'a> Reading<'a> {
    fn new(
        hand: &'a McrHand,
        all: &'a TileCounts,
        arrangement: &Arrangement,
        unique_wait: bool,
    ) -> Reading<'a> {
        let sets = |d: &Decomposition, knit: bool| {
            let groups = d
                .sets
                .iter()
                .map(|&s| Group::from_set(s))
                .chain(hand.melds.iter().map(Group::from_meld))
                .collect();
            Shape::Sets {
                groups,
                pair: d.pair,
                knit,
            }
        };
        let shape = match arrangement {
            Arrangement::Standard(d) => sets(d, false),
            Arrangement::Knitted { rest: Some(d), .. } => sets(d, true),
            Arrangement::Knitted { knit, rest: None } => Shape::Knitted {
                straight: knit_complete(all, *knit),
            },
            Arrangement::SevenPairs(p) => Shape::SevenPairs(p.clone()),
            Arrangement::ThirteenOrphans { .. } => Shape::ThirteenOrphans,
        };
        Reading {
            hand,
            all,
            shape,
            unique_wait,
        }
    }

    fn fans(&self) -> Counts {
        let mut c = Counts([0; FANS]);
        let by_definition = match &self.shape {
            Shape::Sets { groups, pair, knit } => {
                self.tile_fans(&mut c);
                self.set_fans(&mut c, groups, *pair, *knit)
            }
            Shape::SevenPairs(pairs) => {
                self.tile_fans(&mut c);
                c.add(
                    if shifted(pairs) {
                        Fan::SevenShiftedPairs
                    } else {
                        Fan::SevenPairs
                    },
                    1,
                );
                true
            }
            Shape::ThirteenOrphans => {
                c.add(Fan::ThirteenOrphans, 1);
                true
            }
            Shape::Knitted { straight } => {
                let honors = (27..34).filter(|&i| self.all.0[i] > 0).count();
                c.add(
                    if honors == 7 {
                        Fan::GreaterHonorsAndKnittedTiles
                    } else {
                        Fan::LesserHonorsAndKnittedTiles
                    },
                    1,
                );
                if *straight {
                    c.add(Fan::KnittedStraight, 1);
                }
                true
            }
        };
        self.win_fans(&mut c, by_definition);
        c.exclude();
        if c.0.iter().all(|&n| n == 0) {
            c.add(Fan::ChickenHand, 1);
        }
        c.add(Fan::FlowerTiles, self.hand.flowers);
        c
    }

    /// Fans of the tiles alone, whatever their arrangement.
    fn tile_fans(&self, c: &mut Counts) {
        let all = self.all;
        let tiles = || Tile::playing().filter(|&t| all.get(t) > 0);
        let suits = all.suits();
        let numbered = suits.numbered_count();
        let honors = suits.has_honors();
        match (numbered, honors) {
            (0, _) => c.add(Fan::AllHonors, 1),
            (1, false) => c.add(Fan::FullFlush, 1),
            (1, true) => c.add(Fan::HalfFlush, 1),
            (2, _) => c.add(Fan::OneVoidedSuit, 1),
            _ => {}
        }
        if !honors {
            c.add(Fan::NoHonors, 1);
            let ranks = |lo: u8, hi: u8| tiles().all(|t| (lo..=hi).contains(&t.rank()));
            for (lo, hi, fan) in [
                (7, 9, Fan::UpperTiles),
                (4, 6, Fan::MiddleTiles),
                (1, 3, Fan::LowerTiles),
                (6, 9, Fan::UpperFour),
                (1, 4, Fan::LowerFour),
            ] {
                if ranks(lo, hi) {
                    c.add(fan, 1);
                }
            }
        }
        let winds = tiles().any(Tile::is_wind);
        let dragons = tiles().any(Tile::is_dragon);
        if numbered == 3 && winds && dragons {
            c.add(Fan::AllTypes, 1);
        }
        if tiles().all(|t| !t.is_terminal_or_honor()) {
            c.add(Fan::AllSimples, 1);
        }
        if tiles().all(is_green) {
            c.add(Fan::AllGreen, 1);
        }
        if tiles().all(is_reversible) {
            c.add(Fan::ReversibleTiles, 1);
        }
        if tiles().all(Tile::is_terminal) {
            c.add(Fan::AllTerminals, 1);
        } else if tiles().all(Tile::is_terminal_or_honor) && tiles().any(Tile::is_terminal) {
            c.add(Fan::AllTerminalsAndHonors, 1);
        }
        let kongs: ArrayVec<Tile, 4> = self
            .hand
            .melds
            .iter()
            .filter(|m| m.is_kong())
            .map(|m| m.tile)
            .collect();
        let hogs = tiles()
            .filter(|&t| all.get(t) == 4 && !kongs.contains(&t))
            .count();
        c.add(Fan::TileHog, hogs as u8);
    }

    /// Fans of a standard reading's sets and pair (and 组合龙's); returns whether the reading
    /// is concealed by definition (四暗刻, 九莲宝灯).
    fn set_fans(&self, c: &mut Counts, groups: &[Group], pair: Tile, knit: bool) -> bool {
        let pungs: ArrayVec<Group, 4> = groups.iter().copied().filter(|g| g.is_pung()).collect();
        let chows: ArrayVec<Tile, 4> = groups
            .iter()
            .filter(|g| !g.is_pung())
            .map(|g| g.tile)
            .collect();
        if knit {
            c.add(Fan::KnittedStraight, 1);
        }
        if groups.iter().all(|g| !g.is_pung()) && !pair.is_honor() {
            c.add(Fan::AllChows, 1);
        }
        if !knit {
            if pungs.len() == 4 {
                c.add(Fan::AllPungs, 1);
            }
            self.shape_fans(c, groups, pair);
        }
        for f in chow_fans(&chows, Some(pair)) {
            c.add(f, 1);
        }
        let pung_tiles: ArrayVec<Tile, 4> = pungs.iter().map(|g| g.tile).collect();
        for f in pung_fans(&pung_tiles) {
            c.add(f, 1);
        }
        self.honor_fans(c, &pungs, pair);
        self.kong_fans(c, &pungs);
        let nine_gates = !knit && self.nine_gates();
        if nine_gates {
            c.add(Fan::NineGates, 1);
        }
        let concealed = self.concealed_pungs(groups, pair);
        match concealed {
            4 => c.add(Fan::FourConcealedPungs, 1),
            3 => c.add(Fan::ThreeConcealedPungs, 1),
            2 => c.add(Fan::TwoConcealedPungs, 1),
            _ => {}
        }
        self.terminal_pungs(c, &pungs, nine_gates);
        if self.hand.melds.len() == 4
            && self.hand.melds.iter().all(|m| !m.is_concealed())
            && !self.hand.context.self_drawn
        {
            c.add(Fan::MeldedHand, 1);
        }
        if self.unique_wait
            && let Some(f) = self.wait_fan(groups, pair)
        {
            c.add(f, 1);
        }
        concealed == 4 || nine_gates
    }

    /// 全带幺, 全带五, 全双刻: every set and the pair share a trait.
    fn shape_fans(&self, c: &mut Counts, groups: &[Group], pair: Tile) {
        let every = |f: &dyn Fn(Tile) -> bool| {
            groups.iter().all(|g| g.tiles().into_iter().any(f)) && f(pair)
        };
        if every(&Tile::is_terminal_or_honor) {
            c.add(Fan::OutsideHand, 1);
        }
        let five = |t: Tile| t.suit().is_numbered() && t.rank() == 5;
        if every(&five) {
            c.add(Fan::AllFives, 1);
        }
        let even = |t: Tile| t.suit().is_numbered() && t.rank().is_multiple_of(2);
        if groups.iter().all(|g| g.is_pung() && even(g.tile)) && even(pair) {
            c.add(Fan::AllEvenPungs, 1);
        }
    }

    /// Wind and dragon pungs.
    fn honor_fans(&self, c: &mut Counts, pungs: &[Group], pair: Tile) {
        let winds = pungs.iter().filter(|g| g.tile.is_wind()).count();
        let dragons = pungs.iter().filter(|g| g.tile.is_dragon()).count() as u8;
        match (winds, pair.is_wind()) {
            (4, _) => c.add(Fan::BigFourWinds, 1),
            (3, true) => c.add(Fan::LittleFourWinds, 1),
            (3, false) => c.add(Fan::BigThreeWinds, 1),
            _ => {}
        }
        match (dragons, pair.is_dragon()) {
            (3, _) => c.add(Fan::BigThreeDragons, 1),
            (2, true) => c.add(Fan::LittleThreeDragons, 1),
            (2, false) => c.add(Fan::TwoDragonPungs, 1),
            _ => {}
        }
        c.add(Fan::DragonPung, dragons);
        if pungs.iter().any(|g| g.tile == self.hand.round_wind.tile()) {
            c.add(Fan::PrevalentWind, 1);
        }
        if pungs.iter().any(|g| g.tile == self.hand.seat_wind.tile()) {
            c.add(Fan::SeatWind, 1);
        }
    }

    fn kong_fans(&self, c: &mut Counts, pungs: &[Group]) {
        let concealed = pungs
            .iter()
            .filter(|g| g.kind == GroupKind::Kong && g.concealed)
            .count();
        let melded = pungs
            .iter()
            .filter(|g| g.kind == GroupKind::Kong && !g.concealed)
            .count();
        match (concealed + melded, concealed) {
            (4, _) => c.add(Fan::FourKongs, 1),
            (3, _) => c.add(Fan::ThreeKongs, 1),
            (2, 2) => c.add(Fan::TwoConcealedKongs, 1),
            (2, 0) => c.add(Fan::TwoMeldedKongs, 1),
            // The 1998 table has no 明暗杠: each kong scores its own (the spec's decision).
            (2, _) => {
                c.add(Fan::MeldedKong, 1);
                c.add(Fan::ConcealedKong, 1);
            }
            (1, 1) => c.add(Fan::ConcealedKong, 1),
            (1, _) => c.add(Fan::MeldedKong, 1),
            _ => {}
        }
    }

    /// Concealed pungs (暗刻): pungs never shown, less one completed by a claimed winning tile
    /// that no chow or pair of the reading could have taken instead.
    fn concealed_pungs(&self, groups: &[Group], pair: Tile) -> usize {
        let win = self.hand.win_tile;
        let mut n = groups.iter().filter(|g| g.is_pung() && g.concealed).count();
        let claimed_into_pung = !self.hand.context.self_drawn
            && groups
                .iter()
                .any(|g| g.in_hand && g.kind == GroupKind::Pung && g.tile == win)
            && pair != win
            && !groups
                .iter()
                .any(|g| g.in_hand && g.kind == GroupKind::Chow && g.holds(win));
        if claimed_into_pung {
            n -= 1;
        }
        n
    }

    /// 幺九刻: pungs of terminals and of winds no other fan counts (dragons have 箭刻; the seat
    /// and prevalent winds their own fans; three or four wind pungs theirs).
    fn terminal_pungs(&self, c: &mut Counts, pungs: &[Group], nine_gates: bool) {
        let winds = pungs.iter().filter(|g| g.tile.is_wind()).count();
        let mut n = pungs
            .iter()
            .filter(|g| {
                let t = g.tile;
                t.is_terminal()
                    || (t.is_wind()
                        && winds < 3
                        && t != self.hand.seat_wind.tile()
                        && t != self.hand.round_wind.tile())
            })
            .count();
        if nine_gates {
            // Nine Gates holds its 111 or 999 and does not count it again.
            n = n.saturating_sub(1);
        }
        c.add(Fan::PungOfTerminalsOrHonors, n as u8);
    }

    /// 九莲宝灯: 1112345678999 of one suit, concealed, before the winning tile of that suit.
    fn nine_gates(&self) -> bool {
        if !self.hand.melds.is_empty() {
            return false;
        }
        let suit = self.hand.win_tile.suit();
        if !suit.is_numbered() || self.hand.concealed.suit_total(suit) != 13 {
            return false;
        }
        self.hand.concealed.suit_slice(suit) == [3, 1, 1, 1, 1, 1, 1, 1, 3]
    }

    /// The wait the winning tile fills in this reading, when the hand had one wait only.
    fn wait_fan(&self, groups: &[Group], pair: Tile) -> Option<Fan> {
        let win = self.hand.win_tile;
        let mut best = None;
        for g in groups
            .iter()
            .filter(|g| g.in_hand && g.kind == GroupKind::Chow && g.holds(win))
        {
            let low = g.tile.rank();
            let edge = (low == 1 && win.rank() == 3) || (low == 7 && win.rank() == 7);
            if edge {
                return Some(Fan::EdgeWait);
            }
            if win.rank() == low + 1 {
                best = Some(Fan::ClosedWait);
            }
        }
        best.or((pair == win).then_some(Fan::SingleWait))
    }

    /// Fans of how the hand was won, and of its concealment.
    fn win_fans(&self, c: &mut Counts, by_definition: bool) {
        let ctx = self.hand.context;
        let open = self.hand.melds.iter().any(|m| !m.is_concealed());
        if !by_definition && !open {
            c.add(
                if ctx.self_drawn {
                    Fan::FullyConcealedHand
                } else {
                    Fan::ConcealedHand
                },
                1,
            );
        }
        if ctx.self_drawn {
            c.add(Fan::SelfDrawn, 1);
        }
        if ctx.last_of_kind {
            c.add(Fan::LastTile, 1);
        }
        if ctx.last_tile {
            c.add(
                if ctx.self_drawn {
                    Fan::LastTileDraw
                } else {
                    Fan::LastTileClaim
                },
                1,
            );
        }
        if ctx.kong_win {
            c.add(
                if ctx.self_drawn {
                    Fan::OutWithReplacementTile
                } else {
                    Fan::RobbingTheKong
                },
                1,
            );
        }
    }
}

/// Seven pairs of one suit in seven consecutive ranks (连七对).
fn shifted(pairs: &[Tile]) -> bool {
    pairs.windows(2).all(|w| w[0].succ_in_run() == Some(w[1]))
}

/// All nine tiles of a knitted straight with these rank offsets for 万, 筒, 条.
fn knit_complete(all: &TileCounts, knit: [u8; 3]) -> bool {
    knit.iter().enumerate().all(|(suit, &offset)| {
        [0u8, 3, 6]
            .iter()
            .all(|&r| all.0[9 * suit + usize::from(offset + r)] > 0)
    })
}

/// 绿一色 tiles: 23468 条 and 发.
fn is_green(t: Tile) -> bool {
    match t.suit() {
        Suit::Sou => matches!(t.rank(), 2 | 3 | 4 | 6 | 8),
        Suit::Honor => t.rank() == 6,
        _ => false,
    }
}

/// 推不倒 tiles: 1234589 筒, 245689 条, 白.
fn is_reversible(t: Tile) -> bool {
    match t.suit() {
        Suit::Pin => matches!(t.rank(), 1 | 2 | 3 | 4 | 5 | 8 | 9),
        Suit::Sou => matches!(t.rank(), 2 | 4 | 5 | 6 | 8 | 9),
        Suit::Honor => t.rank() == 5,
        _ => false,
    }
}
