//! Ningbo goals for the strong bot: a win needs 4 台, so a hand is only as close to winning as
//! it is to a ready hand whose waits reach them.
//!
//! - **Ready hands** are valued by the engine's own win check: for every tile that would
//!   complete the hand, its unseen copies times what the win pays as a self-draw (three
//!   shares; 自摸 is one more 台) and as a discard (two shares from the discarder). A wait that
//!   reaches 4 台 neither way is worth nothing, and a hand whose every wait is worthless counts
//!   as one step from ready, so the discard that keeps a paying wait (单吊, 嵌张, a dragon pung)
//!   wins over the one that merely keeps a wide one.
//! - **台 in sight.** A hand not yet ready is measured by shanten (the 财神 standing for what it
//!   needs) plus a step while the 台 it can already count on stay short of the minimum:
//!   flowers held, 硬胡 while no 财神 is held, pairs and pungs of dragons and valued winds, one
//!   suit with or without honors (混一色 2, 清一色 4), and half a 台 each for the self-draw
//!   and a wait item most hands can still choose. Ties are broken by useful tiles.
//! - **Claims and kongs** are taken when the best discard after them leaves the figure no
//!   worse: a claim is a free tile, three claims from one player make him pay five shares of
//!   our self-draw, and four melds give 大吊.
//! - **Defence** is the shared danger tie-break (`strong.rs`).
//!
//! The 财神 is never thrown for nothing: every shanten and useful-tile count knows it stands
//! for any tile (the shared [`Goal`]).

use engine::settle::{PlacedMeld, SeatHand};
use engine::view::SeatView;
use engine::wall::SeededRng;
use engine::{Action, Meld, MeldKind, Seat, SeatSet, Suit, Tile, TileCounts};

use crate::basic::{discard_tiles, fallback};
use crate::efficiency::{Candidate, Goal, Seen, WinTable, own_melds, win_payment};
use crate::plan::{self, Plan};
use crate::strong::safest_discard;

/// The 台 a win needs.
const MIN_TAI: i32 = engine::variants::ningbo::MIN_TAI as i32;
/// Shares a self-draw brings (one from each other player).
const SELF_DRAW_SHARES: i64 = 3;
/// Shares a discard win brings (two from the discarder).
const DISCARD_SHARES: i64 = 2;

/// The strong policy's decision in a Ningbo hand.
pub(crate) fn decide(view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
    if let Some(&win) = legal
        .iter()
        .find(|a| matches!(a, Action::Win | Action::SelfDrawWin))
    {
        return win;
    }
    let planner = Planner::new(view);
    let melds = own_melds(view);
    let hand = view.concealed;
    let discards = discard_tiles(legal);
    if discards.is_empty() {
        return plan::claim(view, legal, &planner, &hand, &melds)
            .unwrap_or_else(|| fallback(legal, rng));
    }
    let scored: Vec<Candidate> = discards
        .iter()
        .map(|&tile| {
            let mut h = hand;
            h.remove(tile);
            let e = planner.eval(&h, &melds);
            Candidate {
                tile,
                shanten: e.steps,
                useful: u32::try_from(e.value).unwrap_or(u32::MAX),
            }
        })
        .collect();
    let best = scored
        .iter()
        .map(|c| Eval {
            steps: c.shanten,
            value: i64::from(c.useful),
        })
        .min_by_key(|e| (e.steps, std::cmp::Reverse(e.value)));
    if let Some(now) = best
        && let Some(kong) = plan::own_kong(legal, &planner, &hand, &melds, now.key())
    {
        return kong;
    }
    safest_discard(view, &planner.seen, &scored, legal, rng)
}

/// The figure of one 3k+1 hand: steps from a paying win (0 = ready with a wait that pays),
/// and what breaks ties: a ready hand's wait value, else its useful tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Eval {
    steps: i8,
    value: i64,
}

impl Eval {
    /// Lower is better: closer, then more valuable.
    fn key(self) -> (i8, std::cmp::Reverse<i64>) {
        (self.steps, std::cmp::Reverse(self.value))
    }
}

/// Everything a decision measures against, built once per decision.
struct Planner<'a> {
    view: &'a SeatView,
    seen: Seen,
    goal: Goal,
    wild: Option<Tile>,
    /// The turned-up indicator, face up in the wall: one copy fewer of its kind to come.
    indicator: Option<Tile>,
    /// Half-台 the seat's flowers are worth to any win of its.
    flower_halves: i32,
}

impl<'a> Planner<'a> {
    fn new(view: &'a SeatView) -> Planner<'a> {
        let flowers = view
            .seats
            .get(view.seat.index())
            .map_or(&[][..], |s| s.flowers.as_slice());
        Planner {
            view,
            seen: Seen::of(view),
            goal: Goal::plain(view),
            wild: view.wild.map(|w| w.wild),
            indicator: view.wild.map(|w| w.indicator),
            flower_halves: 2 * flower_tai(flowers, seat_wind_rank(view)),
        }
    }

    /// Copies of `t` still to come (neither seen by this seat nor the indicator).
    fn unseen(&self, t: Tile) -> i64 {
        let left = self.seen.unseen(self.view.tile_set, t);
        i64::from(left.saturating_sub(u8::from(self.indicator == Some(t))))
    }

    fn eval(&self, hand: &TileCounts, melds: &[Meld]) -> Eval {
        let sets = melds.len() as u8;
        let shanten = self.goal.shanten(hand, sets);
        if shanten <= 0 {
            let value = self.wait_value(hand, melds);
            if value > 0 {
                return Eval { steps: 0, value };
            }
            // Ready on waits that cannot reach 4 台: a step from a paying hand.
            return Eval {
                steps: 1,
                value: self.useful(hand, sets),
            };
        }
        let short = self.tai_halves(hand, melds) < 2 * MIN_TAI;
        Eval {
            steps: shanten + i8::from(short),
            value: self.useful(hand, sets),
        }
    }

    fn useful(&self, hand: &TileCounts, sets: u8) -> i64 {
        i64::from(self.goal.useful(hand, sets, &self.seen, self.view.tile_set))
    }

    /// What a ready hand waits on: for each completing tile, its copies to come times what a
    /// self-draw and a discard win would pay (nothing where the win is not allowed).
    fn wait_value(&self, hand: &TileCounts, melds: &[Meld]) -> i64 {
        let view = self.view;
        let own = SeatHand {
            concealed: *hand,
            melds: melds
                .iter()
                .map(|&meld| PlacedMeld {
                    meld,
                    in_play: SeatSet::all(4),
                })
                .collect(),
            flowers: view
                .seats
                .get(view.seat.index())
                .map(|s| s.flowers.clone())
                .unwrap_or_default(),
            void: None,
        };
        let rules = view.ruleset.rules();
        let table = WinTable {
            players: 4,
            wild: self.wild,
            bonus: &[],
        };
        let mut total = 0;
        for t in Tile::playing() {
            let left = self.unseen(t);
            if left == 0 || !rules.could_win(&own, t, self.wild) {
                continue;
            }
            let pays = |from: Option<Seat>, shares: i64| {
                win_payment(view, &own, t, from, &table).map_or(0, |p| shares * p)
            };
            let discarder = Some(view.seat.next(4));
            total += left * (pays(None, SELF_DRAW_SHARES) + pays(discarder, DISCARD_SHARES));
        }
        total
    }

    /// Half-台 the hand can count on (see the module docs).
    fn tai_halves(&self, hand: &TileCounts, melds: &[Meld]) -> i32 {
        let mut halves = self.flower_halves + 2; // 自摸 and a wait item, half each
        let wilds = self.wild.map_or(0, |w| hand.get(w));
        if wilds == 0 {
            halves += 2; // 硬胡
        }
        halves += self.honor_halves(hand, melds);
        halves += flush_halves(hand, melds, self.wild);
        halves
    }

    /// Dragons and valued winds: a pung 台 each (a wind both seat and prevalent two), half of it
    /// for a concealed pair.
    fn honor_halves(&self, hand: &TileCounts, melds: &[Meld]) -> i32 {
        let seat_wind = self.view.seat.wind(self.view.dealer, 4).tile();
        let prevalent = self.view.round_wind.tile();
        let mut halves = 0;
        for t in Tile::playing().filter(|t| t.is_honor()) {
            let worth =
                i32::from(t.is_dragon()) + i32::from(t == seat_wind) + i32::from(t == prevalent);
            if worth == 0 || Some(t) == self.wild {
                continue;
            }
            let melded = melds
                .iter()
                .any(|m| m.kind != MeldKind::Chow && m.tile == t);
            halves += worth
                * match (melded, hand.get(t)) {
                    (true, _) | (false, 3..) => 2,
                    (false, 2) => 1,
                    _ => 0,
                };
        }
        halves
    }
}

impl Plan for Planner<'_> {
    type Key = (i8, std::cmp::Reverse<i64>);

    fn measure(&self, hand: &TileCounts, melds: &[Meld]) -> Self::Key {
        self.eval(hand, melds).key()
    }

    /// The kind just chowed may not be thrown (unless going 大吊).
    fn after_claim(
        &self,
        action: Action,
        offered: Tile,
        hand: &TileCounts,
        melds: &[Meld],
    ) -> Option<Self::Key> {
        match action {
            Action::ExposedKong => Some(self.measure(hand, melds)),
            Action::Chow { .. } if melds.len() < 4 => self.best_discard(hand, melds, Some(offered)),
            _ => self.best_discard(hand, melds, None),
        }
    }
}

/// 混一色 (2) or 清一色 (4) when every numbered tile held or melded is of one suit (the 财神
/// aside: it can stand for that suit).
fn flush_halves(hand: &TileCounts, melds: &[Meld], wild: Option<Tile>) -> i32 {
    let mut suits: Vec<Suit> = hand
        .to_tiles()
        .into_iter()
        .filter(|&t| Some(t) != wild)
        .chain(melds.iter().flat_map(|m| m.tiles()))
        .map(|t| t.suit())
        .collect();
    suits.sort();
    suits.dedup();
    let honors = suits.contains(&Suit::Honor);
    match (suits.len() - usize::from(honors), honors) {
        (1, false) => 8,
        (1, true) => 4,
        _ => 0,
    }
}

/// The seat's flowers' 台, as the rules count them (own flowers, whole sets, all eight).
fn flower_tai(flowers: &[Tile], own: u8) -> i32 {
    let held = |rank: u8| flowers.iter().any(|f| f.rank() == rank);
    let seasons = (1..=4).all(held);
    let plants = (5..=8).all(held);
    if seasons && plants {
        return 8;
    }
    i32::from(held(own)) + i32::from(held(own + 4)) + 2 * i32::from(seasons) + 2 * i32::from(plants)
}

/// 1 for East … 4 for North.
fn seat_wind_rank(view: &SeatView) -> u8 {
    view.seat.wind(view.dealer, 4).tile().rank()
}
