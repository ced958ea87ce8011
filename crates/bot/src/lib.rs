//! Bot policies: pure functions from what a seat may know to one of its legal actions.
//!
//! A policy sees only a [`SeatView`] (never another seat's tiles or the wall) and the legal
//! actions, and draws any randomness from the [`SeededRng`] it is handed, so a bot's play is
//! reproducible. The server uses them for 托管, time-outs and empty seats; `mahjong simulate` and
//! `mahjong arena` for self-play. Three levels:
//! - [`Random`]: any legal action (a baseline);
//! - [`Simple`]: shanten only, the cheap policy `mahjong simulate` uses to measure the engine;
//! - [`Basic`]: efficiency only (shanten, then useful tiles unseen);
//! - [`Strong`]: efficiency with the family's goals and defence (in Guobiao: targets that reach
//!   the 8-fan minimum; in Shanghai: the qualifying hand types and what they pay; in Ningbo:
//!   ready hands whose waits reach the 4-台 minimum; in Suzhou: its shapes and seven pairs; in
//!   Wuhu: the 8 支 a win needs; in Guangdong: hands that carry fan, and the room's 起胡; in
//!   two-player: 报听 for a concealed ready hand and waits by fan; in Beijing: a concealed hand
//!   in `beijing-2020`, and with the 惠牌 wilds a discard win let go when a self-draw is worth
//!   more).
//!
//! In the two-player swap phase (开始时换牌) every level but `random` gives back the tiles its
//! rule in `swap.rs` finds worth less than an unseen one.

mod basic;
mod beijing;
mod efficiency;
mod fan_plan;
mod guangdong;
mod guobiao;
mod ningbo;
mod plan;
mod random;
mod shanghai;
mod speed;
mod strong;
mod suzhou;
mod swap;
#[cfg(test)]
mod testkit;
mod two_player;
mod wuhu;

use std::fmt;
use std::str::FromStr;

use engine::Action;
use engine::view::SeatView;
use engine::wall::SeededRng;

pub use basic::{Basic, Simple};
pub use efficiency::{Goal, Seen};
pub use random::Random;
pub use strong::Strong;

/// Chooses one of the legal actions.
pub trait Policy {
    /// One of `legal` (never empty); must be an element of it.
    fn decide(&self, view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action;
}

/// A policy level, by name (`random`, `simple`, `basic`, `strong`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Any legal action.
    Random,
    /// Shanten only.
    Simple,
    /// Efficiency only.
    Basic,
    /// Goals and defence.
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Random, Level::Simple, Level::Basic, Level::Strong];

    /// The policy of this level.
    pub fn policy(self) -> &'static dyn Policy {
        match self {
            Level::Random => &Random,
            Level::Simple => &Simple,
            Level::Basic => &Basic,
            Level::Strong => &Strong,
        }
    }

    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Simple => "simple",
            Level::Basic => "basic",
            Level::Strong => "strong",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown level name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown bot level `{}` (levels: random, simple, basic, strong)",
            self.0
        )
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| UnknownLevel(s.to_owned()))
    }
}
