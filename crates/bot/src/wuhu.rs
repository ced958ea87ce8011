//! Wuhu goals for the strong bot: a win needs 8 支 (tiles of one suit, melds included), so a
//! hand is only as close to winning as it is to a complete hand holding eight of one suit.
//!
//! - **Steps.** For each numbered suit the figure of a 3k+1 hand is the larger of its shanten
//!   and the 支 it still lacks (7 minus the suit's tiles, since the winning tile may be the
//!   eighth): each draw can bring one more tile of the suit, and the last draw is the win. The
//!   hand's figure is its lowest over the three suits, so the plan follows the suit that is
//!   closest, which is usually the longest.
//! - **Ready hands.** A hand at figure 0 is valued by the engine's own win check
//!   ([`wait_value_with`]: unseen copies × the fan the win pays); a wait the engine refuses
//!   (under 8 支) is worth nothing, and a hand whose every wait is worthless is not ready. Among
//!   ready discards the waits that pay most are kept, so 押当, more 支 and the 嘴子 are preferred
//!   when they cost nothing.
//! - **Useful tiles** are the unseen draws that lower the figure towards some suit.
//! - **Claims and kongs.** A chow, pung or exposed kong is taken when the best discard after it
//!   leaves the hand strictly closer (or ready on more); a kong of one's own whenever the hand
//!   after it is no worse (each kong adds fan and, in the planned suit, 支). Claims that only
//!   keep the figure are refused: a meld of another suit takes three tiles from the suit the
//!   hand needs.
//! - **Defence** is the danger tie-break of the other families (`strong.rs`).
//!
//! Wins are always taken: the engine lists only wins of 8 支 or more.

use engine::shape::{self, Forms};
use engine::view::SeatView;
use engine::wall::SeededRng;
use engine::{Action, Meld, Suit, Tile, TileCounts};

use crate::basic::{discard_tiles, fallback, without};
use crate::efficiency::{Candidate, Seen, own_melds, wait_value_with};
use crate::plan::{self, Plan};
use crate::strong::safest_discard;

/// The 支 a win needs (八支起胡).
const NEEDED: i8 = 8;
/// A figure no hand reaches.
const OUT_OF_REACH: i8 = 20;

/// The strong policy's decision in a Wuhu hand.
pub(crate) fn decide(view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
    if let Some(&win) = legal
        .iter()
        .find(|a| matches!(a, Action::Win | Action::SelfDrawWin))
    {
        return win;
    }
    let planner = Planner {
        view,
        seen: Seen::of(view),
    };
    let melds = own_melds(view);
    let hand = view.concealed;
    let discards = discard_tiles(legal);
    if discards.is_empty() {
        return plan::claim(view, legal, &planner, &hand, &melds)
            .unwrap_or_else(|| fallback(legal, rng));
    }
    let mut scored: Vec<Candidate> = discards
        .iter()
        .map(|&tile| {
            let e = planner.eval(&without(&hand, tile, 1), &melds);
            Candidate {
                tile,
                shanten: e.steps,
                useful: u32::try_from(e.value).unwrap_or(u32::MAX),
            }
        })
        .collect();
    let Some(best) = scored
        .iter()
        .map(|c| Eval {
            steps: c.shanten,
            value: i64::from(c.useful),
        })
        .min_by_key(|e| e.key())
    else {
        return fallback(legal, rng);
    };
    if let Some(kong) = plan::own_kong(legal, &planner, &hand, &melds, best.key()) {
        return kong;
    }
    if best.steps > 0 {
        for c in scored.iter_mut().filter(|c| c.shanten == best.steps) {
            c.useful = planner.useful(&without(&hand, c.tile, 1), &melds, best.steps);
        }
    }
    safest_discard(view, &planner.seen, &scored, legal, rng)
}

/// The figure of one 3k+1 hand: steps from a legal win (0 = ready with a wait that pays), and
/// for a ready hand what its waits are worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Eval {
    steps: i8,
    value: i64,
}

impl Eval {
    /// Lower is better.
    fn key(self) -> (i8, std::cmp::Reverse<i64>) {
        (self.steps, std::cmp::Reverse(self.value))
    }
}

impl Plan for Planner<'_> {
    type Key = (i8, std::cmp::Reverse<i64>);

    fn measure(&self, hand: &TileCounts, melds: &[Meld]) -> Self::Key {
        self.eval(hand, melds).key()
    }

    /// A claim is taken only when it leaves the hand strictly closer (or ready on more).
    fn takes(&self, _action: Action, after: Self::Key, now: Self::Key) -> bool {
        after < now
    }
}

/// What a decision measures against, built once per decision.
struct Planner<'a> {
    view: &'a SeatView,
    seen: Seen,
}

impl Planner<'_> {
    /// The figure of a 3k+1 hand with `melds` declared.
    fn eval(&self, hand: &TileCounts, melds: &[Meld]) -> Eval {
        let steps = figure(hand, melds);
        if steps == 0 {
            let value = wait_value_with(self.view, hand, melds, &self.seen);
            if value > 0 {
                return Eval { steps: 0, value };
            }
        }
        Eval {
            steps: steps.max(1),
            value: 0,
        }
    }

    /// Unseen copies of the draws that bring a 3k+1 hand at `steps` closer.
    fn useful(&self, hand: &TileCounts, melds: &[Meld], steps: i8) -> u32 {
        let mut total = 0;
        let mut h = *hand;
        for t in Tile::playing() {
            let left = self.seen.unseen(self.view.tile_set, t);
            if left == 0 || hand.get(t) >= 4 {
                continue;
            }
            h.add(t);
            // On 3k+2 tiles a shanten is already the best after a discard, and a discard
            // outside the planned suit keeps its 支: the figure is a bound for the best discard.
            if figure(&h, melds) < steps {
                total += u32::from(left);
            }
            h.remove(t);
        }
        total
    }
}

/// The figure of a 3k+1 hand: its lowest over the suits of the larger of shanten and the 支
/// still lacking (the winning tile may bring the eighth). On a 3k+2 hand, the bound for its
/// best discard.
fn figure(hand: &TileCounts, melds: &[Meld]) -> i8 {
    let shanten = shape::shanten(hand, melds.len() as u8, Forms::STANDARD);
    Suit::NUMBERED
        .into_iter()
        .map(|s| shanten.max(NEEDED - 1 - zhi(hand, melds, s)))
        .min()
        .unwrap_or(OUT_OF_REACH)
        .min(OUT_OF_REACH)
}

/// Tiles of `suit` in the concealed hand and the declared melds (a kong counts four).
fn zhi(hand: &TileCounts, melds: &[Meld], suit: Suit) -> i8 {
    let melded: usize = melds
        .iter()
        .filter(|m| m.tile.suit() == suit)
        .map(|m| m.tiles().len())
        .sum();
    (hand.suit_total(suit) as usize + melded).min(i8::MAX as usize) as i8
}
