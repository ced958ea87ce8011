//! Efficiency only: win whenever possible, keep the lowest shanten, then the most useful tiles
//! still unseen; claim and kong only when that does not set the hand back. The suit rules of the
//! family (定缺, 缺一门) are part of efficiency: a hand that cannot win is not close to winning.

use engine::Action;
use engine::view::SeatView;
use engine::wall::SeededRng;
use engine::{KongKind, Meld, MeldKind, Suit, Tile, TileCounts};

use crate::efficiency::{Candidate, Goal, Seen, candidates, meld_count};
use crate::{Policy, swap};

/// Shanten first, then useful tiles.
#[derive(Clone, Copy, Debug, Default)]
pub struct Basic;

/// Shanten only (ties at random): the cheapest sensible policy, which `mahjong simulate` uses to
/// measure the engine rather than the bot.
#[derive(Clone, Copy, Debug, Default)]
pub struct Simple;

impl Policy for Basic {
    fn decide(&self, view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
        efficient(view, legal, rng, true)
    }
}

impl Policy for Simple {
    fn decide(&self, view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
        efficient(view, legal, rng, false)
    }
}

fn efficient(view: &SeatView, legal: &[Action], rng: &mut SeededRng, count_useful: bool) -> Action {
    let keep = if count_useful {
        swap::Keep::Connected
    } else {
        swap::Keep::Used
    };
    if let Some(a) = swap::decide(view, legal, keep) {
        return a;
    }
    let goal = Goal::plain(view);
    if let Some(a) = common_choice(view, legal, &goal, false) {
        return a;
    }
    let discards = discard_tiles(legal);
    let seen = count_useful.then(|| Seen::of(view));
    let scored = candidates(view, &discards, &goal, seen.as_ref());
    let tile = pick_lowest(&scored, |c| (c.shanten, std::cmp::Reverse(c.useful)), rng);
    match tile {
        Some(tile) => Action::Discard { tile },
        None => fallback(legal, rng),
    }
}

/// What every level does the same way: win, declare 定缺, kong or claim when it does not cost
/// shanten, pass otherwise. `None` when the decision is a discard.
pub(crate) fn common_choice(
    view: &SeatView,
    legal: &[Action],
    goal: &Goal,
    pung_if_equal: bool,
) -> Option<Action> {
    if let Some(&win) = legal
        .iter()
        .find(|a| matches!(a, Action::Win | Action::SelfDrawWin))
    {
        return Some(win);
    }
    if legal
        .iter()
        .any(|a| matches!(a, Action::DeclareVoid { .. }))
    {
        return Some(Action::DeclareVoid {
            suit: choose_void(&view.concealed),
        });
    }
    let hand = view.concealed;
    let melds = meld_count(view);
    let now = goal.shanten(&hand, melds);
    if legal.contains(&Action::DrawLast) {
        // 海底: a hand that is not ready cannot win on the last tile and would have to throw
        // it, perhaps into a waiting hand; declining draws the hand at no cost.
        return Some(if now <= 0 {
            Action::DrawLast
        } else {
            Action::DeclineLast
        });
    }
    for &a in legal {
        let keeps = match a {
            Action::ConcealedKong { tile } => {
                goal.shanten(&without(&hand, tile, 4), melds + 1) <= now
            }
            Action::AddedKong { tile } => goal.shanten(&without(&hand, tile, 1), melds) <= now,
            Action::ExposedKong => view
                .last_discard
                .is_some_and(|t| goal.shanten(&without(&hand, t, 3), melds + 1) <= now),
            _ => false,
        };
        if keeps {
            return Some(a);
        }
    }
    if legal.contains(&Action::Pung)
        && let Some(t) = view.last_discard
        && best_after_claim(&without(&hand, t, 2), melds + 1, goal) < now + i8::from(pung_if_equal)
    {
        return Some(Action::Pung);
    }
    for &a in legal {
        if let Action::Chow { low } = a {
            let Some(t) = view.last_discard else { continue };
            let mut h = hand;
            for x in run(low).into_iter().filter(|&x| x != t) {
                h.remove(x);
            }
            if best_after_claim(&h, melds + 1, goal) < now {
                return Some(a);
            }
        }
    }
    if discard_tiles(legal).is_empty() && legal.contains(&Action::Pass) {
        return Some(Action::Pass);
    }
    None
}

/// The 定缺 choice: the suit with the fewest tiles; among equals, the one with fewer pairs.
pub(crate) fn choose_void(hand: &TileCounts) -> Suit {
    Suit::NUMBERED
        .into_iter()
        .min_by_key(|&s| {
            let pairs = hand.suit_slice(s).iter().filter(|&&n| n >= 2).count() as u32;
            (hand.suit_total(s), pairs)
        })
        .unwrap_or(Suit::Man)
}

/// The lowest shanten any discard leaves `hand` at.
pub(crate) fn best_after_claim(hand: &TileCounts, melds: u8, goal: &Goal) -> i8 {
    hand.kinds()
        .iter()
        .map(|t| goal.shanten(&without(hand, t, 1), melds))
        .min()
        .unwrap_or(i8::MAX)
}

/// The three tiles of the chow whose lowest tile is `low`.
pub(crate) fn run(low: Tile) -> [Tile; 3] {
    let b = low.succ_in_run().unwrap_or(low);
    [low, b, b.succ_in_run().unwrap_or(b)]
}

/// The concealed tiles and melds that a kong of one's own, or a claim of the `offered` discard,
/// leaves before any discard; `None` for any other action. The melds are listed by kind and
/// tile only (their origin does not change a plan).
pub(crate) fn after_meld(
    hand: &TileCounts,
    melds: &[Meld],
    action: Action,
    offered: Option<Tile>,
) -> Option<(TileCounts, Vec<Meld>)> {
    let meld = |kind, tile| Meld {
        kind,
        tile,
        from: None,
        claimed: None,
    };
    let mut m = melds.to_vec();
    let h = match (action, offered) {
        (Action::ConcealedKong { tile }, _) => {
            m.push(meld(MeldKind::Kong(KongKind::Concealed), tile));
            without(hand, tile, 4)
        }
        (Action::AddedKong { tile }, _) => {
            if let Some(p) = m
                .iter_mut()
                .find(|x| x.kind == MeldKind::Pung && x.tile == tile)
            {
                p.kind = MeldKind::Kong(KongKind::Added);
            }
            without(hand, tile, 1)
        }
        (Action::ExposedKong, Some(t)) => {
            m.push(meld(MeldKind::Kong(KongKind::Exposed), t));
            without(hand, t, 3)
        }
        (Action::Pung, Some(t)) => {
            m.push(meld(MeldKind::Pung, t));
            without(hand, t, 2)
        }
        (Action::Chow { low }, Some(t)) => {
            m.push(meld(MeldKind::Chow, low));
            let mut h = *hand;
            for x in run(low).into_iter().filter(|&x| x != t) {
                h.remove(x);
            }
            h
        }
        _ => return None,
    };
    Some((h, m))
}

pub(crate) fn without(hand: &TileCounts, t: Tile, n: u8) -> TileCounts {
    let mut h = *hand;
    for _ in 0..n {
        h.remove(t);
    }
    h
}

pub(crate) fn discard_tiles(legal: &[Action]) -> Vec<Tile> {
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Discard { tile } => Some(*tile),
            _ => None,
        })
        .collect()
}

/// The candidate with the lowest key (each key computed once); ties at random. `None` when
/// nothing is scored.
pub(crate) fn pick_lowest<K: Ord + Copy>(
    scored: &[Candidate],
    key: impl Fn(&Candidate) -> K,
    rng: &mut SeededRng,
) -> Option<Tile> {
    let keyed: Vec<(K, Tile)> = scored.iter().map(|c| (key(c), c.tile)).collect();
    let best = keyed.iter().map(|k| k.0).min()?;
    let ties: Vec<Tile> = keyed.iter().filter(|k| k.0 == best).map(|k| k.1).collect();
    ties.get(rng.below(ties.len().max(1) as u32) as usize)
        .copied()
}

pub(crate) fn fallback(legal: &[Action], rng: &mut SeededRng) -> Action {
    if legal.contains(&Action::Pass) {
        return Action::Pass;
    }
    let i = rng.below(legal.len().max(1) as u32) as usize;
    legal.get(i).copied().unwrap_or(Action::Pass)
}
