//! The pure rules engine of the mahjong server.
//!
//! Everything here is a function of its inputs: no IO, clocks, async or global randomness.
//! Randomness arrives as a seed, so a hand replays exactly from (ruleset, options, seed,
//! actions). See `ARCHITECTURE.md` at the repository root for the map.
//!
//! ```
//! use engine::{Game, Ruleset, RulesetId, Seat, Wind, settle::Carried};
//!
//! let rules = Ruleset::with_defaults(RulesetId::Sichuan).unwrap();
//! let mut game = Game::new(rules, 42, Seat::ALL[0], Wind::East, Carried::default());
//! // The dealer acts first; every legal action is listed, and only those are accepted.
//! let first = game.legal_actions(Seat::ALL[0])[0];
//! game.apply(Seat::ALL[0], first).unwrap();
//! ```

pub mod action;
pub mod event;
pub mod format;
pub mod game;
pub mod glossary;
pub mod meld;
pub mod record;
pub mod ruleset;
pub mod seat;
pub mod settle;
pub mod shape;
pub mod stored;
pub mod table;
pub mod tile;
pub mod tiles;
pub mod variants;
pub mod view;
pub mod wall;

pub use action::Action;
pub use event::{Audience, Event, EventKind, Exchange};
pub use game::{Game, GameError};
pub use glossary::english;
pub use meld::{KongKind, Meld, MeldKind};
pub use ruleset::{RawOptions, Ruleset, RulesetId};
pub use seat::{BySeat, Seat, SeatSet, Wind};
pub use table::{Table, TableState};
pub use tile::{Suit, Tile, TileParseError, format_tiles, parse_tiles};
pub use tiles::{SuitSet, TileCounts, TileSet};
