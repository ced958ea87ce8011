//! 国标麻将 (Mahjong Competition Rules, MCR): presets `guobiao` and `guobiao-house`, as decided
//! in `shared/rules/guobiao.md`.
//!
//! The calculator ([`score`]) is usable on its own (`mahjong score`, `POST /api/score`): the
//! official table of 81 elements ([`fan`]), set combinations under the account principles
//! ([`combos`]), every reading of the hand tried and the highest kept.

mod combos;
pub mod fan;
pub mod score;

pub use fan::Fan;
pub use score::{McrHand, ScoreError, Scored, WinContext, score};

/// The 8-fan minimum (起和番): a win needs this many fans, flowers excluded.
pub const MINIMUM: i64 = 8;
