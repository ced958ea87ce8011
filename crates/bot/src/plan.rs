//! What the strong level's per-family planners (`guobiao.rs`, `shanghai.rs`, `wuhu.rs`,
//! `ningbo.rs`, `fan_plan.rs`) share: each measures a hand in its own way, and the kongs of
//! one's own turn and the claims are chosen the same way from that measure.

use engine::view::SeatView;
use engine::{Action, Meld, Tile, TileCounts};

use crate::basic::{after_meld, without};

/// A family's measure of a hand, lower being better.
pub(crate) trait Plan {
    /// What hands are compared by (lower is better).
    type Key: Ord + Copy;

    /// The measure of a 3k+1 hand with `melds` declared.
    fn measure(&self, hand: &TileCounts, melds: &[Meld]) -> Self::Key;

    /// The best measure any discard from a 3k+2 hand leaves (never `barred`); `None` when
    /// there is no discard to make.
    fn best_discard(
        &self,
        hand: &TileCounts,
        melds: &[Meld],
        barred: Option<Tile>,
    ) -> Option<Self::Key> {
        hand.kinds()
            .iter()
            .filter(|&t| Some(t) != barred)
            .map(|t| self.measure(&without(hand, t, 1), melds))
            .min()
    }

    /// The measure a claim of `offered` by `action` leaves, given the hand and melds right
    /// after it (before its discard; an exposed kong draws its replacement instead).
    fn after_claim(
        &self,
        action: Action,
        _offered: Tile,
        hand: &TileCounts,
        melds: &[Meld],
    ) -> Option<Self::Key> {
        match action {
            Action::ExposedKong => Some(self.measure(hand, melds)),
            _ => self.best_discard(hand, melds, None),
        }
    }

    /// Whether a claim by `action` that leaves `after` is worth taking from `now`: by default
    /// when it is no worse (a claim is a free tile).
    fn takes(&self, _action: Action, after: Self::Key, now: Self::Key) -> bool {
        after <= now
    }
}

/// A concealed or added kong on one's own turn, when the hand after it measures no worse than
/// `now` (the best discard now): the first such kong among `legal`.
pub(crate) fn own_kong<P: Plan>(
    legal: &[Action],
    plan: &P,
    hand: &TileCounts,
    melds: &[Meld],
    now: P::Key,
) -> Option<Action> {
    legal.iter().copied().find(|&a| {
        after_meld(hand, melds, a, None).is_some_and(|(h, m)| plan.measure(&h, &m) <= now)
    })
}

/// In a claim window: the claim the plan takes that leaves the best measure (the first of
/// equals), else `None` (pass).
pub(crate) fn claim<P: Plan>(
    view: &SeatView,
    legal: &[Action],
    plan: &P,
    hand: &TileCounts,
    melds: &[Meld],
) -> Option<Action> {
    let t = view.last_discard?;
    let now = plan.measure(hand, melds);
    let mut best: Option<(P::Key, Action)> = None;
    for &a in legal {
        let Some((h, m)) = after_meld(hand, melds, a, Some(t)) else {
            continue;
        };
        let Some(after) = plan.after_claim(a, t, &h, &m) else {
            continue;
        };
        if plan.takes(a, after, now) && best.is_none_or(|(b, _)| after < b) {
            best = Some((after, a));
        }
    }
    best.map(|(_, a)| a)
        .or_else(|| legal.contains(&Action::Pass).then_some(Action::Pass))
}
