//! Tournaments (比赛), the parts that are the competition's own and touch no IO: who sits where
//! in each round ([`seating`]), how a table's result becomes competition points and how players
//! stand ([`scoring`]), and how the tables of a duplicate group (复式) are dealt the same walls
//! ([`duplicate`]).
//!
//! Everything here is deterministic: a seating is a function of the entrants, the rounds
//! already played and a seed, so a server that restarts between two rounds seats the next one
//! exactly as it would have, and a test can recompute what the server did.

pub mod duplicate;
pub mod meetings;
pub mod scoring;
pub mod seating;

/// A registered player of one tournament, numbered by the order of registration (0 first).
/// The server maps it to its player id; the order is the last tie-break of the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entrant(pub u32);

impl Entrant {
    /// Its index into per-entrant arrays.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
