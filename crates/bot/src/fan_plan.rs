//! Plans weighed by what a win pays, for a family whose payment doubles with each fan (the
//! strong level's Guangdong, `guangdong.rs`): a [`Scheme`] lists the shapes that carry value
//! and what they are worth, in hundredths of a doubling, and the family's minimum.
//!
//! - **Targets.** Each decision measures the hand against the scheme's targets: a set of kinds
//!   the hand may keep, with four sets or four pungs; its distance is the shanten of the hand
//!   restricted to it (a declared meld outside it rules it out).
//! - **Worth in sight.** A target's worth is its row plus what the hand already holds: 门清
//!   while no meld is open, the valued honor pungs held or declared. Under a minimum (起胡) a
//!   target whose worth, with a self-draw's doubling, stays short counts a step further for
//!   each doubling it lacks.
//! - **Figure.** A hand's figure is the lowest over the targets of its steps (each [`STEP`])
//!   less its worth (each doubling [`FAN`]): a doubling is worth two thirds of a step.
//! - **Ready hands** are valued by the engine's own verdict on each wait: its unseen copies
//!   times what the win pays as a self-draw and as a discard (nothing where the win is not
//!   allowed). A hand whose waits are all worthless is not ready; a ready hand's figure counts
//!   what its best wait is worth.
//! - **Claims and kongs** are taken when the best discard after them leaves the figure no
//!   worse, so a claim that gives up 门清 must bring the hand closer.
//! - **Defence** is the shared danger tie-break (`strong.rs`).
//!
//! Suzhou (×2 for 门清 and for 自摸, 混一色 3 fan against 平胡's 1) was tried on the same
//! planner and did not beat its own logic (docs/PERFORMANCE.md, Suzhou).

use engine::settle::{PlacedMeld, SeatHand};
use engine::shape;
use engine::view::SeatView;
use engine::wall::SeededRng;
use engine::{Action, KongKind, Meld, MeldKind, SeatSet, Tile, TileCounts};

use crate::basic::{discard_tiles, fallback, without};
use crate::efficiency::{Candidate, Seen, WinTable, own_melds, win_payment};
use crate::plan::{self, Plan};
use crate::shanghai::{OUT_OF_REACH, masked_distance};
use crate::strong::safest_discard;

/// What one step from a win weighs in a figure.
const STEP: i32 = 300;
/// What a hundredth of a doubling weighs in a figure: a doubling is two thirds of a step.
const FAN: i32 = 2;

/// The strong policy's decision under `scheme`.
pub(crate) fn decide(
    view: &SeatView,
    legal: &[Action],
    rng: &mut SeededRng,
    scheme: &Scheme,
) -> Action {
    if let Some(&win) = legal
        .iter()
        .find(|a| matches!(a, Action::Win | Action::SelfDrawWin))
    {
        return win;
    }
    let planner = Planner::new(view, scheme);
    let melds = own_melds(view);
    let hand = view.concealed;
    let discards = discard_tiles(legal);
    if discards.is_empty() {
        return plan::claim(view, legal, &planner, &hand, &melds)
            .unwrap_or_else(|| fallback(legal, rng));
    }
    let evals: Vec<(Tile, Eval)> = discards
        .iter()
        .map(|&tile| (tile, planner.eval(&without(&hand, tile, 1), &melds)))
        .collect();
    let Some(best) = evals.iter().map(|&(_, e)| e).min_by_key(|e| e.key()) else {
        return fallback(legal, rng);
    };
    if let Some(kong) = plan::own_kong(legal, &planner, &hand, &melds, best.key()) {
        return kong;
    }
    // The shared discard choice orders by a small rank: the figures and readiness in order.
    let mut ranks: Vec<(i32, bool)> = evals.iter().map(|(_, e)| (e.figure, !e.ready)).collect();
    ranks.sort_unstable();
    ranks.dedup();
    let scored: Vec<Candidate> = evals
        .iter()
        .map(|&(tile, e)| {
            let mut value = e.value;
            if !e.ready && e.figure == best.figure {
                value = planner.useful(&without(&hand, tile, 1), &melds, e.figure);
            }
            let rank = ranks.partition_point(|&r| r < (e.figure, !e.ready));
            Candidate {
                tile,
                shanten: i8::try_from(rank).unwrap_or(i8::MAX),
                useful: u32::try_from(value).unwrap_or(u32::MAX),
            }
        })
        .collect();
    safest_discard(view, &planner.seen, &scored, legal, rng)
}

/// The shape a target asks for (standard hands only: seven pairs and 十三幺 are not planned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Any four sets and a pair.
    Sets,
    /// Four pungs (or kongs) and a pair.
    Pungs,
}

/// One shape that carries value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Target {
    /// The kinds the hand may keep.
    pub(crate) mask: u64,
    /// The shape.
    pub(crate) shape: Shape,
    /// What the row is worth, in hundredths of a doubling of the payment (a Guangdong fan is
    /// 100).
    pub(crate) worth: i32,
}

/// What a family's wins are worth and must reach, in hundredths of a doubling.
#[derive(Clone, Debug)]
pub(crate) struct Scheme {
    /// The shapes measured.
    pub(crate) targets: Vec<Target>,
    /// What 门清 adds.
    pub(crate) concealed: i32,
    /// What a self-draw adds.
    pub(crate) self_draw: i32,
    /// For each honor kind (by index − 27): what its pung adds.
    pub(crate) honor_worth: [i32; 7],
    /// The least a win must be worth (0: any win).
    pub(crate) min: i32,
    /// The most any win is worth.
    pub(crate) cap: i32,
    /// The payment of a win worth 0 (the 底分).
    pub(crate) unit: i64,
}

/// The kinds of one numbered suit (0 man, 1 pin, 2 sou).
pub(crate) const fn suit_mask(suit: usize) -> u64 {
    0x1FF << (9 * suit)
}

/// The figure of one 3k+1 hand (lower is better), whether it is ready on a wait that may
/// win, and what breaks ties: a ready hand's wait value, else its useful tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Eval {
    figure: i32,
    ready: bool,
    value: i64,
}

impl Eval {
    /// The order of plans: the lower figure, then a ready hand, then the higher value.
    fn key(self) -> (i32, bool, std::cmp::Reverse<i64>) {
        (self.figure, !self.ready, std::cmp::Reverse(self.value))
    }
}

/// Everything a decision measures against, built once per decision.
struct Planner<'a> {
    view: &'a SeatView,
    scheme: &'a Scheme,
    seen: Seen,
    /// The most the valued honor pungs can add.
    honor_total: i32,
}

impl<'a> Planner<'a> {
    fn new(view: &'a SeatView, scheme: &'a Scheme) -> Planner<'a> {
        Planner {
            view,
            scheme,
            seen: Seen::of(view),
            honor_total: scheme.honor_worth.iter().sum(),
        }
    }

    /// Shanten of `hand` towards `target` ([`OUT_OF_REACH`] when a meld rules it out).
    fn distance(&self, target: Target, hand: &TileCounts, melds: &[Meld]) -> i8 {
        match target.shape {
            Shape::Sets => masked_distance(target.mask, false, hand, melds, &self.seen),
            Shape::Pungs => masked_distance(target.mask, true, hand, melds, &self.seen),
        }
    }

    /// What `target` would be worth with this hand: its row, 门清, and the valued honor pungs
    /// already held or declared.
    fn worth_in_sight(&self, target: Target, hand: &TileCounts, melds: &[Meld]) -> i32 {
        let concealed = melds
            .iter()
            .all(|m| m.kind == MeldKind::Kong(KongKind::Concealed));
        let mut worth = target.worth;
        if concealed {
            worth += self.scheme.concealed;
        }
        if self.honor_total > 0 {
            for t in Tile::playing().filter(|t| t.is_honor()) {
                let w = self.scheme.honor_worth[t.index() - 27];
                if w == 0 || target.mask & (1 << t.index()) == 0 {
                    continue;
                }
                let melded = melds.iter().any(|m| m.is_pung_or_kong() && m.tile == t);
                if melded || hand.get(t) >= 3 {
                    worth += w;
                }
            }
        }
        worth.min(self.scheme.cap)
    }

    /// The figure of a target at `steps` from a win worth `worth`.
    fn figure(&self, steps: i32, worth: i32) -> i32 {
        // A self-draw adds the last of the minimum; each doubling short of that is a step.
        let short = (self.scheme.min - worth - self.scheme.self_draw).max(0);
        STEP * (steps + (short + 99) / 100) - FAN * worth
    }

    /// A figure `target` cannot beat with this hand: each tile outside its kinds must be
    /// replaced (one of them may be the tile a win completes), and no hand is worth more than
    /// the row, 门清 and every valued honor pung.
    fn bound(&self, target: Target, hand: &TileCounts) -> i32 {
        let outside: u32 = hand
            .0
            .iter()
            .enumerate()
            .filter(|&(i, _)| target.mask & (1 << i) == 0)
            .map(|(_, &n)| u32::from(n))
            .sum();
        let steps = (outside as i32 - 1).max(1);
        let worth = (target.worth + self.scheme.concealed + self.honor_total).min(self.scheme.cap);
        STEP * steps - FAN * worth
    }

    /// The figure of a 3k+1 hand with `melds` declared.
    fn eval(&self, hand: &TileCounts, melds: &[Meld]) -> Eval {
        let mut figure = i32::MAX;
        let mut ready = false;
        for &t in &self.scheme.targets {
            if self.bound(t, hand) >= figure {
                continue;
            }
            let d = self.distance(t, hand, melds);
            if d >= OUT_OF_REACH {
                continue;
            }
            ready |= d <= 0;
            let worth = self.worth_in_sight(t, hand, melds);
            figure = figure.min(self.figure(i32::from(d).max(1), worth));
        }
        if ready && let Some((worth, value)) = self.waits(hand, melds) {
            return Eval {
                figure: -FAN * worth,
                ready: true,
                value,
            };
        }
        Eval {
            figure: figure.min(STEP * i32::from(OUT_OF_REACH)),
            ready: false,
            value: 0,
        }
    }

    /// Unseen copies of the draws that bring a 3k+1 hand below `figure` on some target.
    fn useful(&self, hand: &TileCounts, melds: &[Meld], figure: i32) -> i64 {
        let live: Vec<Target> = self
            .scheme
            .targets
            .iter()
            .filter(|t| {
                let d = self.distance(**t, hand, melds);
                d < OUT_OF_REACH
                    && self.figure(i32::from(d).max(1), self.worth_in_sight(**t, hand, melds))
                        <= figure + STEP
            })
            .copied()
            .collect();
        let keep = live.iter().fold(0u64, |m, t| m | t.mask);
        let mut total = 0;
        let mut h = *hand;
        for t in Tile::playing() {
            let left = self.seen.unseen(self.view.tile_set, t);
            if left == 0 || hand.get(t) >= 4 || keep & (1 << t.index()) == 0 || !near(hand, t) {
                continue;
            }
            h.add(t);
            // On 3k+2 tiles a shanten is already the best after a discard.
            let better = live.iter().any(|target| {
                let d = self.distance(*target, &h, melds);
                d < OUT_OF_REACH
                    && self.figure(i32::from(d).max(0), self.worth_in_sight(*target, &h, melds))
                        < figure
            });
            if better {
                total += i64::from(left);
            }
            h.remove(t);
        }
        total
    }

    /// A ready hand's waits by the engine's verdict: the most a wait is worth (as a discard
    /// win, or its self-draw less the self-draw's own doubling where only that is allowed),
    /// and for each completing kind its unseen copies times what a self-draw and a discard win
    /// pay. `None` when no wait may win.
    fn waits(&self, hand: &TileCounts, melds: &[Meld]) -> Option<(i32, i64)> {
        let view = self.view;
        let rules = view.ruleset.rules();
        let own = SeatHand {
            concealed: *hand,
            melds: melds
                .iter()
                .map(|&meld| PlacedMeld {
                    meld,
                    in_play: SeatSet::all(4),
                })
                .collect(),
            flowers: Vec::new(),
            void: None,
        };
        let table = WinTable {
            players: 4,
            wild: None,
            bonus: &view.bonus,
        };
        let pays = |t: Tile, from| win_payment(view, &own, t, from, &table).filter(|&p| p > 0);
        let mut best: Option<i32> = None;
        let mut total = 0;
        for t in shape::waits(hand, melds.len() as u8, rules.flow().forms).iter() {
            let left = i64::from(self.seen.unseen(view.tile_set, t));
            if left == 0 {
                continue;
            }
            let own_draw = pays(t, None);
            let discard = pays(t, Some(view.seat.next(4)));
            total += left * (own_draw.unwrap_or(0) + discard.unwrap_or(0));
            let worth = match (discard, own_draw) {
                (Some(p), _) => Some(self.doublings(p)),
                (None, Some(p)) => Some(self.doublings(p) - self.scheme.self_draw),
                (None, None) => None,
            };
            if let Some(w) = worth {
                best = Some(best.map_or(w, |b| b.max(w)));
            }
        }
        best.filter(|_| total > 0).map(|w| (w, total))
    }

    /// A payment in hundredths of a doubling of the unit.
    fn doublings(&self, pay: i64) -> i32 {
        let ratio = pay as f64 / self.scheme.unit.max(1) as f64;
        (100.0 * ratio.log2()).round() as i32
    }
}

impl Plan for Planner<'_> {
    type Key = (i32, bool, std::cmp::Reverse<i64>);

    fn measure(&self, hand: &TileCounts, melds: &[Meld]) -> Self::Key {
        self.eval(hand, melds).key()
    }
}

/// Whether drawing `t` can bring `hand` closer to any set or pair: the hand holds its kind or,
/// for a numbered kind, one within two ranks in its suit.
fn near(hand: &TileCounts, t: Tile) -> bool {
    if hand.get(t) > 0 {
        return true;
    }
    if t.is_honor() {
        return false;
    }
    let i = t.index();
    let low = i - (i % 9);
    (i.saturating_sub(2).max(low)..=(i + 2).min(low + 8)).any(|j| hand.0[j] > 0)
}

/// What a concealed 3k+1 `hand` is worth waiting on under `scheme` (0 when it is not ready on a
/// wait that may win).
#[cfg(test)]
pub(crate) fn ready_value(view: &SeatView, scheme: &Scheme, hand: &TileCounts) -> i64 {
    let e = Planner::new(view, scheme).eval(hand, &[]);
    if e.ready { e.value } else { 0 }
}
