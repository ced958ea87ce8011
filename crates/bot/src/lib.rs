//! Bot policies: pure functions from what a seat may know to one of its legal actions.
//!
//! A policy sees only a [`SeatView`] (never another seat's tiles or the wall) and the legal
//! actions, and draws any randomness from the [`SeededRng`] it is handed, so a bot's play is
//! reproducible. This first policy is the simple one `mahjong simulate` uses; stronger ones come
//! with the bot issue.

use engine::shape::{self, Forms};
use engine::view::SeatView;
use engine::wall::SeededRng;
use engine::{Action, Suit, TileCounts};

/// Chooses one of the legal actions.
pub trait Policy {
    /// One of `legal` (never empty); must be an element of it.
    fn decide(&self, view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action;
}

/// Plays for shanten: wins whenever it can, declares its shortest suit void, discards the tile
/// that leaves the lowest shanten (ties broken at random), and claims a pung or kong only when
/// that does not worsen its shanten.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy {
    /// The winning shapes it aims for.
    pub forms: Forms,
}

impl Greedy {
    /// A greedy policy aiming for standard hands and seven pairs.
    pub fn new() -> Greedy {
        Greedy {
            forms: Forms::STANDARD.with(Forms::SEVEN_PAIRS),
        }
    }
}

/// Declared melds as the shape kernel counts them.
fn meld_count(view: &SeatView) -> u8 {
    view.seats
        .get(view.seat.index())
        .map_or(0, |s| s.melds.len() as u8)
}

impl Policy for Greedy {
    fn decide(&self, view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
        if let Some(&win) = legal
            .iter()
            .find(|a| matches!(a, Action::Win | Action::SelfDrawWin))
        {
            return win;
        }
        let hand = view.concealed;
        let melds = meld_count(view);
        if legal
            .iter()
            .any(|a| matches!(a, Action::DeclareVoid { .. }))
        {
            let shortest = Suit::NUMBERED
                .into_iter()
                .min_by_key(|&s| hand.suit_total(s))
                .unwrap_or(Suit::Man);
            return Action::DeclareVoid { suit: shortest };
        }
        let now = shape::shanten(&hand, melds, self.forms);
        // Kongs and claims that keep shanten.
        for &a in legal {
            let keeps = match a {
                Action::ConcealedKong { tile } | Action::AddedKong { tile } => {
                    let mut h = hand;
                    let n = if matches!(a, Action::ConcealedKong { .. }) {
                        4
                    } else {
                        1
                    };
                    for _ in 0..n {
                        h.remove(tile);
                    }
                    matches!(a, Action::AddedKong { .. })
                        || shape::shanten(&h, melds + 1, self.forms) <= now
                }
                Action::Pung | Action::ExposedKong => false,
                _ => continue,
            };
            if keeps {
                return a;
            }
        }
        if let Some(&claim) = legal.iter().find(|a| matches!(a, Action::Pung)) {
            if let Some(tile) = offered_tile(view) {
                let mut h = hand;
                h.remove(tile);
                h.remove(tile);
                // After a pung the hand discards: compare the best discard afterwards.
                let best_after = h
                    .kinds()
                    .iter()
                    .map(|t| {
                        let mut x = h;
                        x.remove(t);
                        shape::shanten(&x, melds + 1, self.forms)
                    })
                    .min()
                    .unwrap_or(i8::MAX);
                if best_after < now {
                    return claim;
                }
            }
        }
        let discards: Vec<_> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Discard { tile } => Some(*tile),
                _ => None,
            })
            .collect();
        if !discards.is_empty() {
            let scored: Vec<(engine::Tile, i8)> = discards
                .iter()
                .map(|&t| {
                    let mut h = hand;
                    h.remove(t);
                    (t, shape::shanten(&h, melds, self.forms))
                })
                .collect();
            let best = scored.iter().map(|&(_, s)| s).min().unwrap_or(0);
            // 缺一门: with three numbered suits and no honors, shed the shortest suit while
            // that costs at most one step of shanten (a 定缺 seat is already forced to).
            if let Some(void) = soft_void(&hand).filter(|_| view.own_void.is_none()) {
                let shed = scored
                    .iter()
                    .filter(|&&(t, s)| t.suit() == void && s <= best + 1)
                    .min_by_key(|&&(_, s)| s);
                if let Some(&(tile, _)) = shed {
                    return Action::Discard { tile };
                }
            }
            let ties: Vec<engine::Tile> = scored
                .into_iter()
                .filter(|&(_, s)| s == best)
                .map(|(t, _)| t)
                .collect();
            let pick = ties[rng.below(ties.len() as u32) as usize];
            return Action::Discard { tile: pick };
        }
        if legal.contains(&Action::Pass) {
            return Action::Pass;
        }
        legal[rng.below(legal.len() as u32) as usize]
    }
}

/// The suit to give up when a hand of numbered tiles only holds all three suits.
fn soft_void(hand: &TileCounts) -> Option<Suit> {
    let suits = hand.suits();
    if suits.numbered_count() < 3 || suits.has_honors() {
        return None;
    }
    Suit::NUMBERED
        .into_iter()
        .min_by_key(|&s| hand.suit_total(s))
}

/// The tile on offer in a claim window: the last discard on the table.
fn offered_tile(view: &SeatView) -> Option<engine::Tile> {
    view.last_discard
}
