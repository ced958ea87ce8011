//! The Guobiao calculator: every reading of a winning hand scored by the official table, the
//! highest kept (`docs/rules/guobiao.md` and the conventions of
//! `conformance/mcr/README.md`).
//!
//! A reading is one arrangement of the concealed tiles (standard sets and a pair, seven pairs,
//! thirteen orphans, a knitted hand) together with the declared melds. Each reading collects its
//! fans, drops every fan implied by another ([`Fan::implied`]), and scores Chicken Hand when
//! nothing but flowers is left.
//!
//! Every hand a table or `mahjong score` sees goes through here, so the work is arranged for
//! speed (`docs/PERFORMANCE.md`, "Guobiao scoring"): the readings are visited without being
//! collected ([`Arrangement::for_each`]); what does not depend on the reading (the fans of the
//! tiles alone, as bit masks of kinds) is found once per hand; fans are counted in a table with
//! a bit mask of the fans present, so exclusions, totals and comparisons visit only those; and
//! the unique-wait question, which asks for all the hand's waits, is asked only of a hand with a
//! reading whose wait fan it decides.

use arrayvec::ArrayVec;
use thiserror::Error;

use super::combos::{chow_fans, pung_fans};
use super::fan::{FANS, Fan};
use crate::meld::{KongKind, Meld, MeldKind};
use crate::seat::Wind;
use crate::shape::{self, Arrangement, Forms, Set};
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
    if let Some(i) = all.0.iter().position(|&n| n > 4)
        && let Some(t) = Tile::from_index(i as u8)
    {
        return Err(ScoreError::TooMany(t));
    }
    let mut facts = Facts::new(hand, &all, melds);
    let mut best: Option<(i64, Counts)> = None;
    Arrangement::for_each(&full, melds, FORMS, |arrangement| {
        let counts = facts.reading(arrangement);
        let total = counts.total();
        if best
            .as_ref()
            .is_none_or(|(best_total, b)| counts.beats(total, b, *best_total))
        {
            best = Some((total, counts));
        }
    });
    let (total, best) = best.ok_or(ScoreError::NotComplete)?;
    Ok(best.scored(total))
}

/// The value of each fan by table position, for totals without a look-up through [`Fan`].
const VALUES: [i64; FANS] = {
    let mut out = [0; FANS];
    let mut f = 0;
    while f < FANS {
        out[f] = Fan::ALL[f].value();
        f += 1;
    }
    out
};

/// The fan at table position `i`.
fn fan_at(i: usize) -> Fan {
    Fan::ALL[i]
}

/// The positions of the set bits of `mask`, lowest first: fans in table order.
fn positions(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// Fan counts of one reading, indexed by table position, and a bit per fan present (exactly the
/// fans whose count is not zero).
#[derive(Clone, Copy)]
struct Counts {
    n: [u8; FANS],
    present: u128,
}

impl Counts {
    const NONE: Counts = Counts {
        n: [0; FANS],
        present: 0,
    };

    fn add(&mut self, f: Fan, n: u8) {
        if n > 0 {
            let c = &mut self.n[f as usize];
            *c = c.saturating_add(n);
            self.present |= 1u128 << (f as usize);
        }
    }

    fn total(&self) -> i64 {
        positions(self.present)
            .map(|i| VALUES[i] * i64::from(self.n[i]))
            .sum()
    }

    /// Drops every fan another one present implies.
    fn exclude(&mut self) {
        let implied = positions(self.present).fold(0u128, |m, i| m | fan_at(i).implied());
        for i in positions(self.present & implied) {
            self.n[i] = 0;
        }
        self.present &= !implied;
    }

    /// Whether this reading (of total `total`) scores above `other` (of `other_total`).
    fn beats(&self, total: i64, other: &Counts, other_total: i64) -> bool {
        if total != other_total {
            return total > other_total;
        }
        // Equal totals: the fans earlier in the table win (the spec's decision).
        for i in positions(self.present | other.present) {
            let (x, y) = (self.n[i], other.n[i]);
            if x != y {
                return x > y;
            }
        }
        false
    }

    fn scored(&self, total: i64) -> Scored {
        let mut fans = Vec::with_capacity(self.present.count_ones() as usize);
        fans.extend(positions(self.present).map(|i| (fan_at(i), u32::from(self.n[i]))));
        Scored { fans, total }
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

/// What scoring knows of the hand whatever its reading, found once per hand; the fans of the
/// tiles and the unique wait only when a reading first asks.
struct Facts<'a> {
    hand: &'a McrHand,
    /// Every tile of the hand (kongs four).
    all: &'a TileCounts,
    melds: u8,
    /// The declared melds as sets.
    meld_groups: ArrayVec<Group, 4>,
    /// A meld other than a concealed kong: the hand is not concealed.
    open: bool,
    /// 全求人: four melds, none concealed, won on a discard.
    melded_hand: bool,
    /// 九莲宝灯 when the reading is a standard one.
    nine_gates: bool,
    /// The seat and prevalent winds' kinds, a bit each.
    seat_wind: u64,
    round_wind: u64,
    /// The fans of the tiles alone, once a reading asked for them.
    tiles: Option<Counts>,
    /// Whether the hand before the winning tile waited on one kind only, once asked.
    unique_wait: Option<bool>,
}

impl<'a> Facts<'a> {
    fn new(hand: &'a McrHand, all: &'a TileCounts, melds: u8) -> Facts<'a> {
        Facts {
            hand,
            all,
            melds,
            meld_groups: hand.melds.iter().map(Group::from_meld).collect(),
            open: hand.melds.iter().any(|m| !m.is_concealed()),
            melded_hand: hand.melds.len() == 4
                && hand.melds.iter().all(|m| !m.is_concealed())
                && !hand.context.self_drawn,
            nine_gates: nine_gates(hand),
            seat_wind: 1 << hand.seat_wind.tile().index(),
            round_wind: 1 << hand.round_wind.tile().index(),
            tiles: None,
            unique_wait: None,
        }
    }

    /// The fans of one reading, exclusions applied, Chicken Hand and flowers added.
    fn reading(&mut self, arrangement: &Arrangement) -> Counts {
        let (mut c, by_definition) = match arrangement {
            Arrangement::Standard(d) => {
                let mut c = self.tile_fans();
                let by_definition = self.set_fans(&mut c, &d.sets, d.pair, false);
                (c, by_definition)
            }
            Arrangement::Knitted { rest: Some(d), .. } => {
                let mut c = self.tile_fans();
                let by_definition = self.set_fans(&mut c, &d.sets, d.pair, true);
                (c, by_definition)
            }
            Arrangement::Knitted { knit, rest: None } => {
                let mut c = Counts::NONE;
                let honors = self.all.0[27..34].iter().filter(|&&n| n > 0).count();
                c.add(
                    if honors == 7 {
                        Fan::GreaterHonorsAndKnittedTiles
                    } else {
                        Fan::LesserHonorsAndKnittedTiles
                    },
                    1,
                );
                if knit_complete(self.all, *knit) {
                    c.add(Fan::KnittedStraight, 1);
                }
                (c, true)
            }
            Arrangement::SevenPairs(pairs) => {
                let mut c = self.tile_fans();
                c.add(
                    if shifted(pairs) {
                        Fan::SevenShiftedPairs
                    } else {
                        Fan::SevenPairs
                    },
                    1,
                );
                (c, true)
            }
            Arrangement::ThirteenOrphans { .. } => {
                let mut c = Counts::NONE;
                c.add(Fan::ThirteenOrphans, 1);
                (c, true)
            }
        };
        self.win_fans(&mut c, by_definition);
        c.exclude();
        if c.present == 0 {
            c.add(Fan::ChickenHand, 1);
        }
        c.add(Fan::FlowerTiles, self.hand.flowers);
        c
    }

    /// Fans of the tiles alone, whatever their arrangement: found on the first call, copied
    /// after.
    fn tile_fans(&mut self) -> Counts {
        *self
            .tiles
            .get_or_insert_with(|| tile_fans(self.all, self.meld_groups.as_slice()))
    }

    /// Whether the hand waited on one kind only. The waits of the knitted shapes are looked
    /// for only when one of them is a tile away: 组合龙 with eight tiles of a knitted straight
    /// held, 全不靠 with thirteen of a straight and the honors.
    fn unique_wait(&mut self) -> bool {
        let (concealed, melds) = (&self.hand.concealed, self.melds);
        *self.unique_wait.get_or_insert_with(|| {
            let near_knitted = melds <= 1 && {
                let held = knit_held(concealed);
                let honors = concealed.0[27..34].iter().filter(|&&n| n > 0).count() as u8;
                held >= 8 || (melds == 0 && held + honors >= 13)
            };
            let forms = if near_knitted {
                FORMS
            } else {
                Forms::STANDARD
                    .with(Forms::SEVEN_PAIRS)
                    .with(Forms::THIRTEEN_ORPHANS)
            };
            shape::waits(concealed, melds, forms).len() == 1
        })
    }

    /// Fans of a standard reading's sets and pair (and 组合龙's); returns whether the reading
    /// is concealed by definition (四暗刻, 九莲宝灯).
    fn set_fans(&mut self, c: &mut Counts, sets: &[Set], pair: Tile, knit: bool) -> bool {
        let mut groups: ArrayVec<Group, 4> = ArrayVec::new();
        for &s in sets {
            groups.push(Group::from_set(s));
        }
        for &g in &self.meld_groups {
            if groups.try_push(g).is_err() {
                break;
            }
        }
        let groups = groups.as_slice();
        // Pungs and kongs by their tiles and as a mask of kinds (no two share a kind).
        let mut pungs: ArrayVec<Tile, 4> = ArrayVec::new();
        let mut pung_kinds = 0u64;
        let mut chows: ArrayVec<Tile, 4> = ArrayVec::new();
        let (mut concealed_kongs, mut melded_kongs) = (0, 0);
        for g in groups {
            match g.kind {
                GroupKind::Chow => chows.push(g.tile),
                kind => {
                    pungs.push(g.tile);
                    pung_kinds |= 1 << g.tile.index();
                    if kind == GroupKind::Kong {
                        if g.concealed {
                            concealed_kongs += 1;
                        } else {
                            melded_kongs += 1;
                        }
                    }
                }
            }
        }
        if knit {
            c.add(Fan::KnittedStraight, 1);
        }
        if pungs.is_empty() && !pair.is_honor() {
            c.add(Fan::AllChows, 1);
        }
        if !knit {
            if pungs.len() == 4 {
                c.add(Fan::AllPungs, 1);
            }
            shape_fans(c, groups, pair);
        }
        for f in chow_fans(&chows, Some(pair)) {
            c.add(f, 1);
        }
        for f in pung_fans(&pungs) {
            c.add(f, 1);
        }
        let winds = (pung_kinds & kinds::WINDS).count_ones();
        self.honor_fans(c, pung_kinds, winds, pair);
        kong_fans(c, concealed_kongs, melded_kongs);
        let nine_gates = !knit && self.nine_gates;
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
        // 幺九刻: pungs of terminals and of winds no other fan counts (dragons have 箭刻; the
        // seat and prevalent winds their own fans; three or four wind pungs theirs).
        let mut terminal_pungs = (pung_kinds & kinds::TERMINALS).count_ones();
        if winds < 3 {
            let plain_winds = kinds::WINDS & !self.seat_wind & !self.round_wind;
            terminal_pungs += (pung_kinds & plain_winds).count_ones();
        }
        if nine_gates {
            // Nine Gates holds its 111 or 999 and does not count it again.
            terminal_pungs = terminal_pungs.saturating_sub(1);
        }
        c.add(Fan::PungOfTerminalsOrHonors, terminal_pungs as u8);
        if self.melded_hand {
            c.add(Fan::MeldedHand, 1);
        }
        if let Some(f) = self.wait_fan(groups, pair)
            && self.unique_wait()
        {
            c.add(f, 1);
        }
        concealed == 4 || nine_gates
    }

    /// Wind and dragon pungs, from the pungs' kinds (`winds` of them winds).
    fn honor_fans(&self, c: &mut Counts, pung_kinds: u64, winds: u32, pair: Tile) {
        let dragons = (pung_kinds & kinds::DRAGONS).count_ones() as u8;
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
        if pung_kinds & self.round_wind != 0 {
            c.add(Fan::PrevalentWind, 1);
        }
        if pung_kinds & self.seat_wind != 0 {
            c.add(Fan::SeatWind, 1);
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

    /// The wait the winning tile fills in this reading, if the hand waited on one kind only.
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
        if !by_definition && !self.open {
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

/// The kinds for which `$held` holds, a bit per kind index (playing kinds only).
macro_rules! kinds_where {
    (|$t:ident| $held:expr) => {{
        let mut mask = 0u64;
        let mut i = 0u8;
        while (i as usize) < Tile::PLAYING_KINDS {
            if let Some($t) = Tile::from_index(i)
                && $held
            {
                mask |= 1 << i;
            }
            i += 1;
        }
        mask
    }};
}

/// Kind masks of the tile fans.
mod kinds {
    use super::{is_green, is_reversible};
    use crate::tile::{Suit, Tile};

    pub(super) const SUITS: [u64; 3] = [
        kinds_where!(|t| matches!(t.suit(), Suit::Man)),
        kinds_where!(|t| matches!(t.suit(), Suit::Pin)),
        kinds_where!(|t| matches!(t.suit(), Suit::Sou)),
    ];
    pub(super) const HONORS: u64 = kinds_where!(|t| t.is_honor());
    pub(super) const WINDS: u64 = kinds_where!(|t| t.is_wind());
    pub(super) const DRAGONS: u64 = kinds_where!(|t| t.is_dragon());
    pub(super) const TERMINALS: u64 = kinds_where!(|t| t.is_terminal());
    pub(super) const TERMINALS_AND_HONORS: u64 = kinds_where!(|t| t.is_terminal_or_honor());
    pub(super) const GREEN: u64 = kinds_where!(|t| is_green(t));
    pub(super) const REVERSIBLE: u64 = kinds_where!(|t| is_reversible(t));
    /// Numbered kinds of ranks `lo..=hi`.
    pub(super) const fn ranks(lo: u8, hi: u8) -> u64 {
        kinds_where!(|t| t.suit().is_numbered() && t.rank() >= lo && t.rank() <= hi)
    }
}

/// Fans of the tiles alone, whatever their arrangement, from the kinds the hand holds.
fn tile_fans(all: &TileCounts, melds: &[Group]) -> Counts {
    let mut c = Counts::NONE;
    let held = all.kinds().bits();
    let only = |mask: u64| held & !mask == 0;
    let any = |mask: u64| held & mask != 0;
    let numbered = kinds::SUITS.iter().filter(|&&s| any(s)).count();
    let honors = any(kinds::HONORS);
    match (numbered, honors) {
        (0, _) => c.add(Fan::AllHonors, 1),
        (1, false) => c.add(Fan::FullFlush, 1),
        (1, true) => c.add(Fan::HalfFlush, 1),
        (2, _) => c.add(Fan::OneVoidedSuit, 1),
        _ => {}
    }
    if !honors {
        c.add(Fan::NoHonors, 1);
        const RANKS: [(u64, Fan); 5] = [
            (kinds::ranks(7, 9), Fan::UpperTiles),
            (kinds::ranks(4, 6), Fan::MiddleTiles),
            (kinds::ranks(1, 3), Fan::LowerTiles),
            (kinds::ranks(6, 9), Fan::UpperFour),
            (kinds::ranks(1, 4), Fan::LowerFour),
        ];
        for (mask, fan) in RANKS {
            if only(mask) {
                c.add(fan, 1);
            }
        }
    }
    if numbered == 3 && any(kinds::WINDS) && any(kinds::DRAGONS) {
        c.add(Fan::AllTypes, 1);
    }
    if !any(kinds::TERMINALS_AND_HONORS) {
        c.add(Fan::AllSimples, 1);
    }
    if only(kinds::GREEN) {
        c.add(Fan::AllGreen, 1);
    }
    if only(kinds::REVERSIBLE) {
        c.add(Fan::ReversibleTiles, 1);
    }
    if only(kinds::TERMINALS) {
        c.add(Fan::AllTerminals, 1);
    } else if only(kinds::TERMINALS_AND_HONORS) && any(kinds::TERMINALS) {
        c.add(Fan::AllTerminalsAndHonors, 1);
    }
    // Four of a kind not declared as a kong (a kong's kind is held four times exactly).
    let fours = all.kinds_held(4).len() as u8;
    let kongs = melds.iter().filter(|g| g.kind == GroupKind::Kong).count() as u8;
    c.add(Fan::TileHog, fours.saturating_sub(kongs));
    c
}

/// 全带幺, 全带五, 全双刻: every set and the pair share a trait. A chow holds a terminal when
/// it starts at 1 or 7, and a five when it starts at 3, 4 or 5.
fn shape_fans(c: &mut Counts, groups: &[Group], pair: Tile) {
    let numbered = |t: Tile| t.suit().is_numbered();
    let outside = |g: &Group| match g.kind {
        GroupKind::Chow => matches!(g.tile.rank(), 1 | 7),
        _ => g.tile.is_terminal_or_honor(),
    };
    if pair.is_terminal_or_honor() && groups.iter().all(outside) {
        c.add(Fan::OutsideHand, 1);
    }
    let five = |t: Tile| numbered(t) && t.rank() == 5;
    let fives = |g: &Group| match g.kind {
        GroupKind::Chow => matches!(g.tile.rank(), 3..=5),
        _ => five(g.tile),
    };
    if five(pair) && groups.iter().all(fives) {
        c.add(Fan::AllFives, 1);
    }
    let even = |t: Tile| numbered(t) && t.rank().is_multiple_of(2);
    if even(pair) && groups.iter().all(|g| g.is_pung() && even(g.tile)) {
        c.add(Fan::AllEvenPungs, 1);
    }
}

fn kong_fans(c: &mut Counts, concealed: u8, melded: u8) {
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

/// 九莲宝灯: 1112345678999 of one suit, concealed, before the winning tile of that suit.
fn nine_gates(hand: &McrHand) -> bool {
    if !hand.melds.is_empty() {
        return false;
    }
    let suit = hand.win_tile.suit();
    suit.is_numbered() && hand.concealed.suit_slice(suit) == [3, 1, 1, 1, 1, 1, 1, 1, 3]
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

/// The most tiles of one knitted straight `c` holds (0..=9).
fn knit_held(c: &TileCounts) -> u8 {
    // held[suit][offset]: how many of ranks offset, offset + 3, offset + 6 the suit holds.
    let mut held = [[0u8; 3]; 3];
    for (suit, row) in held.iter_mut().enumerate() {
        for (r, &n) in c.0[9 * suit..9 * suit + 9].iter().enumerate() {
            row[r % 3] += u8::from(n > 0);
        }
    }
    crate::shape::KNITS
        .iter()
        .map(|p| held[0][p[0]] + held[1][p[1]] + held[2][p[2]])
        .max()
        .unwrap_or(0)
}

/// 绿一色 tiles: 23468 条 and 发.
const fn is_green(t: Tile) -> bool {
    match t.suit() {
        Suit::Sou => matches!(t.rank(), 2 | 3 | 4 | 6 | 8),
        Suit::Honor => t.rank() == 6,
        _ => false,
    }
}

/// 推不倒 tiles: 1234589 筒, 245689 条, 白.
const fn is_reversible(t: Tile) -> bool {
    match t.suit() {
        Suit::Pin => matches!(t.rank(), 1 | 2 | 3 | 4 | 5 | 8 | 9),
        Suit::Sou => matches!(t.rank(), 2 | 4 | 5 | 6 | 8 | 9),
        Suit::Honor => t.rank() == 5,
        _ => false,
    }
}
