//! The pure rules engine of the mahjong server.
//!
//! Everything here is a function of its inputs: no IO, clocks, async or global randomness.
//! Randomness arrives as a seed, so a hand replays exactly from (ruleset, options, seed,
//! actions). See `ARCHITECTURE.md` at the repository root for the map.

pub mod meld;
pub mod seat;
pub mod shape;
pub mod tile;
pub mod tiles;

pub use meld::{KongKind, Meld, MeldKind};
pub use seat::{BySeat, Seat, SeatSet, Wind};
pub use tile::{Suit, Tile, TileParseError, format_tiles, parse_tiles};
pub use tiles::{SuitSet, TileCounts, TileSet};
