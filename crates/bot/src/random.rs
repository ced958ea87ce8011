//! The baseline: any legal action, uniformly. In the swap phase (开始时换牌) that is a random
//! subset: each decision marks one of the held kinds or finishes, all equally likely.

use engine::Action;
use engine::view::SeatView;
use engine::wall::SeededRng;

use crate::Policy;

/// Picks uniformly among the legal actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Random;

impl Policy for Random {
    fn decide(&self, _view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
        let i = rng.below(legal.len().max(1) as u32) as usize;
        legal.get(i).copied().unwrap_or(Action::Pass)
    }
}
