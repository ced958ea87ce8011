//! 开始时换牌 (two-player room option `swap`): which dealt tiles a bot gives back.
//!
//! A swapped tile is replaced by an unseen one from the set-aside pile, so a tile is worth
//! giving back when it is worth less than a random tile. The engine asks for one mark at a time
//! (`SwapMark`) and then `SwapDone`, so a policy decides one tile per call: it marks the first
//! tile its rule gives up, given the tiles already marked, and finishes when none is left.
//!
//! - A tile is **dead** when no reading of the hand uses it: without it the shanten is the same
//!   (a hand with some tiles taken out is still measured, the missing tiles counting as tiles to
//!   draw). Giving a dead tile back never sets the hand back.
//! - A dead tile may still be a good one to keep: a lone 4m becomes a partial with any of 2m–6m.
//!   An **isolated** tile has no copy and no tile of its suit within two ranks (an honor: no
//!   copy), so it helps only as often as a random tile would.
//!
//! `simple` gives back every dead tile; `basic` every dead and isolated tile; `strong` the same
//! but never a tile of a 花牌 kind, which is a fan in any winning hand. `random` is not here: it
//! picks uniformly among the legal marks and `SwapDone`, a random subset.

use engine::view::SeatView;
use engine::{Action, Suit, Tile, TileCounts};

use crate::basic::without;
use crate::efficiency::{Goal, meld_count};

/// What a level gives back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Keep every tile a reading of the hand uses (`simple`).
    Used,
    /// Keep also the tiles with a neighbour (`basic`).
    Connected,
    /// Keep also the 花牌 kinds (`strong`).
    ConnectedAndBonus,
}

/// The swap decision when the seat is asked to swap: a mark or `SwapDone`; `None` otherwise.
pub(crate) fn decide(view: &SeatView, legal: &[Action], keep: Keep) -> Option<Action> {
    if !legal.contains(&Action::SwapDone) {
        return None;
    }
    let goal = Goal::plain(view);
    let melds = meld_count(view);
    let mut hand = view.concealed;
    for &t in &view.swap_marked {
        hand.remove(t);
    }
    let now = goal.shanten(&hand, melds);
    let mark = legal
        .iter()
        .filter_map(|a| match *a {
            Action::SwapMark { tile } => Some(tile),
            _ => None,
        })
        .filter(|&t| hand.get(t) > 0)
        .filter(|&t| keep == Keep::Used || isolated(&hand, t))
        .filter(|t| keep != Keep::ConnectedAndBonus || !view.bonus.contains(t))
        .find(|&t| goal.shanten(&without(&hand, t, 1), melds) <= now);
    Some(mark.map_or(Action::SwapDone, |tile| Action::SwapMark { tile }))
}

/// Whether `t` is the only copy in `hand` and, in a numbered suit, has no tile of its suit
/// within two ranks.
fn isolated(hand: &TileCounts, t: Tile) -> bool {
    if hand.get(t) != 1 {
        return false;
    }
    if t.suit() == Suit::Honor {
        return true;
    }
    let rank = t.rank();
    (rank.saturating_sub(2).max(1)..=(rank + 2).min(9))
        .filter(|&r| r != rank)
        .filter_map(|r| Tile::new(t.suit(), r))
        .all(|n| hand.get(n) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().expect("tile")
    }

    #[test]
    fn isolation_looks_two_ranks_either_way() {
        let hand = TileCounts::parse("1m5m9m1z2z2z6p8p").expect("notation");
        assert!(isolated(&hand, t("1m")));
        assert!(isolated(&hand, t("5m")));
        assert!(isolated(&hand, t("1z")));
        assert!(!isolated(&hand, t("2z")), "a pair");
        assert!(!isolated(&hand, t("6p")), "8p is two ranks away");
    }
}
