//! Duplicate deals (复式): the tables of a group play the same walls, hand by hand, so that
//! players who held the same tiles can be compared.
//!
//! The scheme:
//! - A round's tables are grouped in order, as many tables to a group as a table has seats (the
//!   last group may be smaller). Each group is dealt from its own seeds.
//! - Hand *n* of every table of a group is dealt from one seed, derived from the group's key
//!   (itself from the tournament's secret, the round and the group: [`group_key`]) and *n*
//!   ([`deal_seed`]). A seed fixes the wall, the dice and
//!   the deal, which goes out from the dealer: the player in each wind (the dealer East) holds
//!   the same tiles at every table of the group, and draws the same tiles while play goes the
//!   same way. Where dealers come to differ (one table's dealer kept the deal, another's passed
//!   it), the same hands go to the same winds, so to other players.
//! - The seating puts different players in each group's tables, so every wall is played from
//!   each wind by as many different players as the group has tables; a hand is compared by
//!   its wind ([`compare`]).
//! - Each seed is committed (its SHA-256 announced) when its hand is dealt, like any room's. It
//!   is revealed only once the round is over: a seed shown at a table that finished hand *n*
//!   would tell another table of its group its wall.
//!
//! The seeds cannot be guessed from one another: each is the first 8 bytes of a SHA-256 over
//! the group's key and the hand's number, the key a SHA-256 over the secret (32 random bytes
//! kept by the server), the round and the group.

use sha2::{Digest, Sha256};

/// What every derivation starts with, so that a seed of this scheme is never one of another.
const TAG: &[u8] = b"mahjong duplicate deal v1";

/// The group of each of a round's `tables`, tables in order, `per_group` to a group.
pub fn groups(tables: usize, per_group: usize) -> Vec<u32> {
    let per_group = per_group.max(1);
    (0..tables).map(|t| (t / per_group) as u32).collect()
}

/// The key of `group` in `round`, from the tournament's secret: all a room of the group needs
/// to deal its hands ([`deal_seed`]), and nothing about any other group's or round's seeds.
pub fn group_key(secret: &[u8; 32], round: u32, group: u32) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(TAG);
    h.update(b"group");
    h.update(secret);
    h.update(round.to_be_bytes());
    h.update(group.to_be_bytes());
    h.finalize().into()
}

/// The seed of hand `hand` (1 for the first) at every table holding `key`.
pub fn deal_seed(key: &[u8; 32], hand: u32) -> u64 {
    let mut h = Sha256::new();
    h.update(TAG);
    h.update(b"hand");
    h.update(key);
    h.update(hand.to_be_bytes());
    let digest = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// The seed of round `round`'s seating: fixed by the secret, so a server restarted before the
/// round seats it exactly as it would have, and unknown to players in advance.
pub fn seating_seed(secret: &[u8; 32], round: u32) -> u64 {
    let mut h = Sha256::new();
    h.update(TAG);
    h.update(b"seating");
    h.update(secret);
    h.update(round.to_be_bytes());
    let digest = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// One seat's result of one hand at one table of a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    /// The table within the round.
    pub table: usize,
    /// The hand's number at its table (1 for the first).
    pub hand: u32,
    /// The seat's wind in that hand (0 = East, the dealer).
    pub wind: u8,
    /// The seat's score for the hand.
    pub delta: i64,
}

/// For each of `held` (the seats' hands of one group), how much better it did than the
/// average of everyone who held the same tiles (the same hand number and wind at the group's
/// tables), in hundredths of a point. A hand played at one table only compares with itself: 0.
pub fn compare(held: &[Held]) -> Vec<i64> {
    held.iter()
        .map(|h| {
            let mates: Vec<i64> = held
                .iter()
                .filter(|o| o.hand == h.hand && o.wind == h.wind)
                .map(|o| o.delta)
                .collect();
            let count = mates.len() as i64;
            let sum: i64 = mates.iter().sum();
            // delta − sum / count, in hundredths, rounded half away from zero.
            let scaled = (h.delta * count - sum) * 100;
            (scaled + scaled.signum() * count / 2) / count
        })
        .collect()
}
