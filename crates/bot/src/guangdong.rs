//! Guangdong (鸡平胡) goals for the strong bot. A win pays 2^fan from each payer, a self-draw
//! from all three, so a flush or a hand of pungs is worth several chicken hands; and a room may
//! set a minimum (起胡), below which no win is allowed.
//!
//! - **Targets.** Each decision measures the hand against the shapes that carry fan: any four
//!   sets and a pair (鸡胡), 碰碰胡 on any tiles, and in each suit 混一色, 清一色, 混碰 and 清碰.
//!   A target is a set of kinds the hand may keep, with four sets or four pungs; its distance
//!   is the shanten of the hand restricted to it (a declared meld outside it rules it out).
//! - **Fan in sight.** A target's fan is its row plus the additions the hand already holds: 门清
//!   while no meld is open, a pung (held or declared) of a dragon, the seat wind or the
//!   prevalent wind. Under 起胡 a target whose fan, with a self-draw's one more, stays short
//!   of the minimum counts a step further for each fan it lacks.
//! - **Figure.** A hand's figure is the lowest over the targets of its steps (each worth
//!   [`STEP`]) less its fan (each worth [`FAN`]): a full flush one step further than a chicken
//!   hand is still the better plan, as it pays sixteen times as much.
//! - **Ready hands** are valued by the engine's own verdict on each wait: its unseen copies
//!   times what the win pays as a self-draw and as a discard (nothing where 起胡 forbids the
//!   win). A hand whose waits are all worthless is not ready; a ready hand's figure counts the
//!   fan its waits score.
//! - **Claims and kongs** are taken when the best discard after them leaves the figure no
//!   worse, so a claim that gives up 门清 must bring the hand closer.
//! - **Defence** is the shared danger tie-break (`strong.rs`).
//!
//! Wins are always taken: the engine lists only wins that reach 起胡.
//!
//! Measured against three `basic` seats (docs/PERFORMANCE.md, Guangdong; 20,000 hands, seed 1;
//! the strong seat's mean a hand at 起胡 0 and at 起胡 3): a fan worth two thirds of a step
//! (kept) +0.37 and +10.0; half a step +0.27 and +8.6 (seed 2 at 起胡 0: +0.29 against +0.23 for
//! the kept weight, the two level there); a third of a step +0.25 and +7.1; a fan worth a whole
//! step +0.12 (it won 12 % of its hands); no weight on fan at all (speed alone) −0.11. Claims
//! only when they strictly improve the figure: +0.29 and +10.7, not kept (no clear gain at 起胡
//! 0). Weighing a self-draw's payment three times a discard's changed nothing (a self-draw is
//! always one fan more, twice the payment).

use engine::ruleset::{OptionValue, WinCheck};
use engine::settle::{PlacedMeld, SeatHand, Win, WinFlags};
use engine::shape;
use engine::view::SeatView;
use engine::wall::SeededRng;
use engine::{Action, KongKind, Meld, MeldKind, RulesetId, SeatSet, Tile, TileCounts};

use crate::basic::{after_meld, discard_tiles, fallback, without};
use crate::efficiency::{Candidate, Seen, own_melds};
use crate::shanghai::{ALL, HONORS, OUT_OF_REACH, masked_distance};
use crate::strong::safest_discard;

/// What one step from a win weighs in a figure.
const STEP: i32 = 3;
/// What one fan weighs in a figure: two thirds of a step.
const FAN: i32 = 2;

/// Whether `view` is of the Guangdong preset.
pub(crate) fn applies(view: &SeatView) -> bool {
    view.ruleset.id() == RulesetId::Guangdong
}

/// The strong policy's decision in a Guangdong hand.
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
        return claim(view, legal, &planner, &hand, &melds).unwrap_or_else(|| fallback(legal, rng));
    }
    let evals: Vec<(Tile, Eval)> = discards
        .iter()
        .map(|&tile| (tile, planner.eval(&without(&hand, tile, 1), &melds)))
        .collect();
    let Some(best) = evals.iter().map(|&(_, e)| e).min_by_key(|e| e.key()) else {
        return fallback(legal, rng);
    };
    if let Some(kong) = own_kong(legal, &planner, &hand, &melds, best) {
        return kong;
    }
    let scored: Vec<Candidate> = evals
        .iter()
        .map(|&(tile, e)| {
            let mut value = e.value;
            if !e.ready && e.figure == best.figure {
                value = planner.useful(&without(&hand, tile, 1), &melds, e.figure);
            }
            Candidate {
                tile,
                shanten: e.rank(),
                useful: u32::try_from(value).unwrap_or(u32::MAX),
            }
        })
        .collect();
    safest_discard(view, &planner.seen, &scored, legal, rng)
}

/// A concealed or added kong on one's own turn, when the hand after it is at least as good as
/// after the best discard now (the replacement may bring 杠上开花, at least 3 fan).
fn own_kong(
    legal: &[Action],
    planner: &Planner<'_>,
    hand: &TileCounts,
    melds: &[Meld],
    now: Eval,
) -> Option<Action> {
    legal.iter().copied().find(|&a| {
        after_meld(hand, melds, a, None).is_some_and(|(h, m)| planner.eval(&h, &m).at_least(now))
    })
}

/// In a claim window: the claim whose best discard after it leaves the figure no worse, else
/// `None` (pass).
fn claim(
    view: &SeatView,
    legal: &[Action],
    planner: &Planner<'_>,
    hand: &TileCounts,
    melds: &[Meld],
) -> Option<Action> {
    let t = view.last_discard?;
    let now = planner.eval(hand, melds);
    let mut best: Option<(Eval, Action)> = None;
    for &a in legal {
        let Some((h, m)) = after_meld(hand, melds, a, Some(t)) else {
            continue;
        };
        let after = match a {
            Action::ExposedKong => planner.eval(&h, &m),
            _ => planner.best_discard(&h, &m),
        };
        if after.at_least(now) && best.is_none_or(|(b, _)| after.key() < b.key()) {
            best = Some((after, a));
        }
    }
    best.map(|(_, a)| a)
        .or_else(|| legal.contains(&Action::Pass).then_some(Action::Pass))
}

/// One shape that carries fan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Target {
    /// The kinds the hand may keep.
    mask: u64,
    /// Pungs (or kongs) only, else any four sets.
    pungs: bool,
    /// The fan of its row.
    fan: i32,
}

/// 鸡胡, 碰碰胡, and per suit 混一色, 清一色, 混碰, 清碰.
fn targets() -> [Target; 14] {
    let target = |mask: u64, pungs: bool, fan: i32| Target { mask, pungs, fan };
    let mut out = [target(ALL, false, 0); 14];
    out[1] = target(ALL, true, 2);
    for s in 0..3 {
        let suit = 0x1FFu64 << (9 * s);
        out[2 + 4 * s] = target(suit | HONORS, false, 2);
        out[3 + 4 * s] = target(suit, false, 4);
        out[4 + 4 * s] = target(suit | HONORS, true, 4);
        out[5 + 4 * s] = target(suit, true, 5);
    }
    out
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

    /// No worse than `other`.
    fn at_least(self, other: Eval) -> bool {
        self.key() <= other.key()
    }

    /// The figure and readiness as one number for the shared discard choice (which breaks
    /// its ties by value, then danger).
    fn rank(self) -> i8 {
        (2 * self.figure + i32::from(!self.ready)).clamp(-128, 127) as i8
    }
}

/// Everything a decision measures against, built once per decision.
struct Planner<'a> {
    view: &'a SeatView,
    seen: Seen,
    targets: [Target; 14],
    /// 起胡.
    min_fan: i32,
    /// 爆胡.
    fan_cap: i32,
    /// For each honor kind (by index − 27): the fan its pung adds (dragons, seat and prevalent
    /// winds; a wind that is both counts two).
    honor_worth: [i32; 7],
    /// Their sum.
    honor_fan: i32,
}

impl<'a> Planner<'a> {
    fn new(view: &'a SeatView) -> Planner<'a> {
        let options = view.ruleset.options();
        let option = |name: &str, default: i64| match options.get(name) {
            Some(OptionValue::Int(n)) => i32::try_from(*n).unwrap_or(default as i32),
            _ => default as i32,
        };
        let seat_wind = view.seat.wind(view.dealer, 4).tile();
        let prevalent = view.round_wind.tile();
        let mut honor_worth = [0; 7];
        for t in Tile::playing().filter(|t| t.is_honor()) {
            if let Some(w) = honor_worth.get_mut(t.index() - 27) {
                *w = i32::from(t.is_dragon())
                    + i32::from(t == seat_wind)
                    + i32::from(t == prevalent);
            }
        }
        Planner {
            view,
            seen: Seen::of(view),
            targets: targets(),
            min_fan: option("min_fan", 0),
            fan_cap: option("fan_cap", 6),
            honor_worth,
            honor_fan: honor_worth.iter().sum(),
        }
    }

    /// The fan `target` would hold with this hand: its row, 门清, and the valued honor pungs
    /// already held or declared.
    fn fan_in_sight(&self, target: Target, hand: &TileCounts, melds: &[Meld]) -> i32 {
        let concealed = melds
            .iter()
            .all(|m| m.kind == MeldKind::Kong(KongKind::Concealed));
        let mut fan = target.fan + i32::from(concealed);
        for t in Tile::playing().filter(|t| t.is_honor()) {
            let worth = self.honor_worth[t.index() - 27];
            if worth == 0 || target.mask & (1 << t.index()) == 0 {
                continue;
            }
            let melded = melds.iter().any(|m| m.is_pung_or_kong() && m.tile == t);
            if melded || hand.get(t) >= 3 {
                fan += worth;
            }
        }
        fan.min(self.fan_cap)
    }

    /// The figure of `target` at `steps` from a win with `fan` in sight.
    fn figure(&self, steps: i32, fan: i32) -> i32 {
        // A self-draw adds the last fan; each fan short of that is a step further.
        let short = (self.min_fan - fan - 1).max(0);
        STEP * (steps + short) - FAN * fan
    }

    /// A figure `target` cannot beat with this hand: each tile outside its kinds must be
    /// replaced (one of them may be the tile a win completes), and no hand holds more fan
    /// than the row, 门清 and every valued honor pung.
    fn bound(&self, target: Target, hand: &TileCounts) -> i32 {
        let outside: u32 = hand
            .0
            .iter()
            .enumerate()
            .filter(|&(i, _)| target.mask & (1 << i) == 0)
            .map(|(_, &n)| u32::from(n))
            .sum();
        let steps = (outside as i32 - 1).max(1);
        let fan = (target.fan + 1 + self.honor_fan).min(self.fan_cap);
        STEP * steps - FAN * fan
    }

    /// The figure of a 3k+1 hand with `melds` declared.
    fn eval(&self, hand: &TileCounts, melds: &[Meld]) -> Eval {
        let mut figure = i32::MAX;
        let mut ready = false;
        for &t in &self.targets {
            if self.bound(t, hand) >= figure {
                continue;
            }
            let d = masked_distance(t.mask, t.pungs, hand, melds, &self.seen);
            if d >= OUT_OF_REACH {
                continue;
            }
            ready |= d <= 0;
            let fan = self.fan_in_sight(t, hand, melds);
            figure = figure.min(self.figure(i32::from(d).max(1), fan));
        }
        if ready && let Some((fan, value)) = self.waits(hand, melds) {
            return Eval {
                figure: -FAN * fan,
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

    /// The best figure among the discards of a 3k+2 hand.
    fn best_discard(&self, hand: &TileCounts, melds: &[Meld]) -> Eval {
        hand.kinds()
            .iter()
            .map(|d| self.eval(&without(hand, d, 1), melds))
            .min_by_key(|e| e.key())
            .unwrap_or(Eval {
                figure: i32::MAX,
                ready: false,
                value: 0,
            })
    }

    /// Unseen copies of the draws that bring a 3k+1 hand below `figure` on some target.
    fn useful(&self, hand: &TileCounts, melds: &[Meld], figure: i32) -> i64 {
        let live: Vec<Target> = self
            .targets
            .iter()
            .filter(|t| {
                let d = masked_distance(t.mask, t.pungs, hand, melds, &self.seen);
                d < OUT_OF_REACH
                    && self.figure(i32::from(d).max(1), self.fan_in_sight(**t, hand, melds))
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
                let d = masked_distance(target.mask, target.pungs, &h, melds, &self.seen);
                d < OUT_OF_REACH
                    && self.figure(i32::from(d).max(0), self.fan_in_sight(*target, &h, melds))
                        < figure
            });
            if better {
                total += i64::from(left);
            }
            h.remove(t);
        }
        total
    }

    /// A ready hand's waits by the engine's verdict: the most fan a wait scores (as a discard
    /// win, or one less than its self-draw where only that is allowed), and for each
    /// completing kind its unseen copies times what a self-draw and a discard win pay.
    /// `None` when no wait may win.
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
        let fan_of = |t: Tile, from| {
            let win = Win {
                seat: view.seat,
                tile: t,
                from,
                flags: WinFlags::default(),
            };
            let check = WinCheck {
                hand: &own,
                win: &win,
                dealer: view.dealer,
                round_wind: view.round_wind,
                players: 4,
                wild: None,
            };
            rules.evaluate_win(&check).ok().map(|s| s.value)
        };
        let mut best: Option<i32> = None;
        let mut total = 0;
        for t in shape::waits(hand, melds.len() as u8, rules.forms()).iter() {
            let left = i64::from(self.seen.unseen(view.tile_set, t));
            if left == 0 {
                continue;
            }
            let own_draw = fan_of(t, None);
            let discard = fan_of(t, Some(view.seat.next(4)));
            let pay = |f: Option<i64>| f.map_or(0, |f| rules.payment_for(f));
            total += left * (pay(own_draw) + pay(discard));
            let fan = discard.or(own_draw.map(|f| f - 1));
            if let Some(f) = fan {
                best = Some(best.map_or(f as i32, |b| b.max(f as i32)));
            }
        }
        best.filter(|_| total > 0).map(|f| (f, total))
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

#[cfg(test)]
mod tests {
    use engine::Seat;
    use engine::ruleset::{RawOptions, Ruleset};
    use engine::view::PublicSeat;
    use engine::wall::TileSetKind;

    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().expect("tile")
    }

    fn counts(s: &str) -> TileCounts {
        TileCounts::parse(s).expect("hand")
    }

    /// South's view early in a hand of a room with 起胡 `min_fan`: nobody has discarded or
    /// claimed, `concealed` in hand, and `offered` on the table (a claim window) or not
    /// (South's own turn, every discard legal).
    fn view(min_fan: i64, concealed: &str, offered: Option<&str>, claims: &[Action]) -> SeatView {
        let concealed = counts(concealed);
        let seat = |n: u32| PublicSeat {
            melds: Vec::new(),
            discards: Vec::new(),
            flowers: Vec::new(),
            concealed_count: n,
            void: None,
            won: None,
        };
        let legal = match offered {
            Some(_) => claims.to_vec(),
            None => concealed
                .kinds()
                .iter()
                .map(|tile| Action::Discard { tile })
                .collect(),
        };
        let mut options = RawOptions::new();
        options.insert("min_fan".into(), OptionValue::Int(min_fan));
        SeatView {
            seat: Seat::ALL[1],
            ruleset: Ruleset::new(RulesetId::Guangdong, &options).expect("options"),
            tile_set: TileSetKind::Honors136,
            dealer: Seat::ALL[0],
            round_wind: engine::Wind::East,
            dice: [2, 5],
            wall_drawable: 80,
            wild: None,
            concealed,
            own_void: None,
            seats: vec![seat(13), seat(concealed.total()), seat(13), seat(13)],
            legal,
            last_discard: offered.map(t),
            over: false,
        }
    }

    /// The decisions over a few seeds (ties go to chance).
    fn decisions(view: &SeatView) -> Vec<Action> {
        (0..8)
            .map(|seed| decide(view, &view.legal, &mut SeededRng::new(seed)))
            .collect()
    }

    #[test]
    fn a_wait_under_the_minimum_is_not_ready() {
        // Ready on 1m / 9m: a chicken hand, 门清, at most 2 fan with a self-draw.
        let hand = counts("123m456p789s1199m");
        let open = view(0, "123m456p789s1199m", Some("5z"), &[Action::Pass]);
        let e = Planner::new(&open).eval(&hand, &[]);
        assert!(e.ready && e.value > 0, "{e:?}");
        let three = view(3, "123m456p789s1199m", Some("5z"), &[Action::Pass]);
        let e = Planner::new(&three).eval(&hand, &[]);
        assert!(!e.ready && e.value == 0, "{e:?}");
    }

    #[test]
    fn under_the_minimum_a_chow_that_leaves_no_way_to_it_is_refused() {
        // Concealed, the hand waits on 5s: 平胡 and 门清, 2 fan on this discard (not a win
        // under 起胡 3) and 3 on a self-draw. The chow would leave an open hand without honors,
        // 2 fan at most.
        let claims = [Action::Chow { low: t("4s") }, Action::Pass];
        let v = view(3, "123m456p789s11m46s", Some("5s"), &claims);
        assert!(decisions(&v).iter().all(|&a| a == Action::Pass));
    }

    #[test]
    fn a_hand_leaning_to_one_suit_keeps_to_the_flush() {
        // Plain efficiency keeps the 56p run; the flush (16 times a chicken hand) keeps every
        // man tile.
        let v = view(0, "112355566778m56p", None, &[]);
        for a in decisions(&v) {
            let Action::Discard { tile } = a else {
                panic!("{a} is not a discard")
            };
            assert_eq!(tile.suit(), engine::Suit::Pin, "threw {tile}");
        }
    }

    #[test]
    fn a_listed_win_is_always_taken() {
        let v = view(
            0,
            "123m456p789s11m99m",
            Some("9m"),
            &[Action::Win, Action::Pung, Action::Pass],
        );
        assert!(decisions(&v).iter().all(|&a| a == Action::Win));
    }
}
