//! Speed one step further than useful tiles: what a discard leads to after the next useful draw.
//!
//! Useful tiles (受入) count how many draws bring a hand one step closer, but not how good the
//! hand is once there. Two hands one step from ready with the same useful tiles can differ a
//! lot: one becomes ready on a two-sided wait after most of its draws, the other on a single
//! wait. The figures here weigh each useful draw by its unseen copies and by what the best
//! discard after it leaves: the unseen copies of the waits when that is ready, the useful tiles
//! otherwise. Both are counts of unseen copies, so a figure is a product of two counts: for
//! small chances it is proportional to the chance of the two steps within the next few turns.

use engine::shape;
use engine::wall::TileSetKind;
use engine::{Tile, TileCounts};

use crate::efficiency::{Goal, Seen};

/// What one seat knows of the tiles it may still draw: its goal, its declared melds, and the
/// copies it has not seen.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outlook<'a> {
    /// The shapes aimed for.
    pub goal: &'a Goal,
    /// Declared melds.
    pub melds: u8,
    /// What the seat has seen.
    pub seen: &'a Seen,
    /// The tile set played.
    pub set: TileSetKind,
}

impl Outlook<'_> {
    /// Unseen copies of `t` that `hand` could still draw (none of a kind it holds four of, none
    /// of a suit the goal gives up).
    fn drawable(&self, hand: &TileCounts, t: Tile) -> u8 {
        if hand.get(t) >= 4 || self.goal.without.contains(&Some(t.suit())) {
            return 0;
        }
        self.seen.unseen(self.set, t)
    }

    /// Unseen copies of the kinds that complete a ready 3k+1 `hand`.
    pub fn wait_copies(&self, hand: &TileCounts) -> u32 {
        let waits = if self.goal.wild.is_none() && self.goal.without == [None, None] {
            shape::waits(hand, self.melds, self.goal.forms)
        } else {
            let mut h = *hand;
            Tile::playing()
                .filter(|&t| {
                    h.add(t);
                    let done = self.goal.shanten(&h, self.melds) < 0;
                    h.remove(t);
                    done
                })
                .collect()
        };
        waits
            .iter()
            .map(|t| u32::from(self.drawable(hand, t)))
            .sum()
    }

    /// The two-step figure of a 3k+1 `hand` at shanten `now` (at least 1): for every draw that
    /// lowers the shanten, its unseen copies times the best the hand then leaves after one
    /// discard (the wait copies of a ready hand, else the useful tiles).
    pub fn two_steps(&self, hand: &TileCounts, now: i8) -> u64 {
        let mut total = 0u64;
        let mut drawn = *hand;
        for t in Tile::playing() {
            let copies = self.drawable(hand, t);
            if copies == 0 {
                continue;
            }
            drawn.add(t);
            let best = self.after_draw(&drawn, now);
            drawn.remove(t);
            total += u64::from(copies) * u64::from(best);
        }
        total
    }

    /// The best figure a discard from the 3k+2 `hand` leaves at shanten `now` (0 or more): the
    /// wait copies of a ready hand, the two-step figure one step from ready, else the useful
    /// tiles. Discards that leave another shanten count 0.
    pub fn best_discard_figure(&self, hand: &TileCounts, now: i8) -> u64 {
        hand.kinds()
            .iter()
            .map(|t| {
                let mut h = *hand;
                h.remove(t);
                if self.goal.shanten(&h, self.melds) != now {
                    return 0;
                }
                match now {
                    0 => u64::from(self.wait_copies(&h)),
                    1 => self.two_steps(&h, 1),
                    _ => u64::from(self.goal.useful(&h, self.melds, self.seen, self.set)),
                }
            })
            .max()
            .unwrap_or(0)
    }

    /// The best a 3k+2 hand leaves after one discard, counting only discards that bring it
    /// below shanten `now`; 0 when the draw did not help.
    fn after_draw(&self, drawn: &TileCounts, now: i8) -> u32 {
        if self.goal.shanten(drawn, self.melds) >= now {
            return 0;
        }
        let mut best = 0;
        for d in drawn.kinds().iter() {
            let mut h = *drawn;
            h.remove(d);
            let s = self.goal.shanten(&h, self.melds);
            if s >= now {
                continue;
            }
            let figure = if s <= 0 {
                self.wait_copies(&h)
            } else {
                self.goal.useful(&h, self.melds, self.seen, self.set)
            };
            best = best.max(figure);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use engine::TileCounts;
    use engine::shape::Forms;
    use engine::wall::TileSetKind;

    use super::Outlook;
    use crate::efficiency::{Goal, Seen};

    fn counts(s: &str) -> TileCounts {
        TileCounts::parse(s).expect("hand")
    }

    fn goal() -> Goal {
        Goal {
            forms: Forms::STANDARD.with(Forms::SEVEN_PAIRS),
            without: [None, None],
            wild: None,
        }
    }

    #[test]
    fn wait_copies_count_unseen_copies_of_every_wait() {
        // Ready on 1m and 4m: three unseen copies of 1m (one in hand), four of 4m.
        let hand = counts("123m567p789s23m99s");
        let g = goal();
        let seen = Seen::of_hand(&hand);
        let o = Outlook {
            goal: &g,
            melds: 0,
            seen: &seen,
            set: TileSetKind::Honors136,
        };
        assert_eq!(o.wait_copies(&hand), 3 + 4);
        // Seven pairs waiting on 5z: three unseen copies.
        let pairs = counts("1122m33p44p55s66s5z");
        let seen = Seen::of_hand(&pairs);
        let o = Outlook { seen: &seen, ..o };
        assert_eq!(o.wait_copies(&pairs), 3);
    }

    #[test]
    fn two_steps_prefer_draws_that_lead_to_wide_waits() {
        // Both one step from ready: three sets and two partial sets. With the two-sided 23m
        // and 67p, a draw that pairs one of them (2m, 3m, 6p, 7p: 12 copies) leaves a
        // two-sided wait (8 copies), a draw that completes one (1m, 4m, 5p, 8p: 16 copies) a
        // single wait (3); with the edge 12m and the closed 79p the same draws leave single
        // waits or a wait on one kind: 12 × 4 + 8 × 3.
        let g = goal();
        let wide = counts("123p456s789s23m67p");
        let narrow = counts("123p456s789s12m79p");
        let seen_w = Seen::of_hand(&wide);
        let seen_n = Seen::of_hand(&narrow);
        let at = |seen| Outlook {
            goal: &g,
            melds: 0,
            seen,
            set: TileSetKind::Honors136,
        };
        let w = at(&seen_w).two_steps(&wide, 1);
        let n = at(&seen_n).two_steps(&narrow, 1);
        assert_eq!((w, n), (12 * 8 + 16 * 3, 12 * 4 + 8 * 3));
    }
}
