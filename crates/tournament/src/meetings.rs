//! How often each pair of entrants has sat at one table: what the seating keeps low.

use crate::Entrant;
use crate::seating::Round;

/// A symmetric count of meetings between entrants `0..n` (bots are not entrants and meet
/// nobody).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meetings {
    n: usize,
    counts: Vec<u16>,
}

impl Meetings {
    /// No meetings among `n` entrants.
    pub fn new(n: usize) -> Meetings {
        Meetings {
            n,
            counts: vec![0; n * n],
        }
    }

    /// The meetings of `rounds`, among entrants numbered below `n` (an entrant at or above
    /// `n` is counted by growing the matrix).
    pub fn of_rounds(n: usize, rounds: &[Round]) -> Meetings {
        let top = rounds
            .iter()
            .flat_map(|r| r.entrants())
            .map(|e| e.index() + 1)
            .max()
            .unwrap_or(0);
        let mut m = Meetings::new(n.max(top));
        for round in rounds {
            for table in &round.tables {
                let players: Vec<Entrant> = table.entrants().collect();
                m.add_table(&players, 1);
            }
        }
        m
    }

    /// The number of entrants the matrix covers.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether it covers nobody.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// How often `a` and `b` met.
    pub fn get(&self, a: Entrant, b: Entrant) -> u16 {
        self.counts[a.index() * self.n + b.index()]
    }

    /// Adds (`by` = 1) or removes (`by` = -1) one sitting of `players` together.
    pub fn add_table(&mut self, players: &[Entrant], by: i32) {
        for (i, &a) in players.iter().enumerate() {
            for &b in &players[i + 1..] {
                self.bump(a, b, by);
            }
        }
    }

    /// Adds `by` to the count of one pair.
    pub fn bump(&mut self, a: Entrant, b: Entrant, by: i32) {
        let (ia, ib) = (
            a.index() * self.n + b.index(),
            b.index() * self.n + a.index(),
        );
        let v = (i32::from(self.counts[ia]) + by).max(0) as u16;
        self.counts[ia] = v;
        self.counts[ib] = v;
    }

    /// The most any pair met.
    pub fn most(&self) -> u16 {
        self.counts.iter().copied().max().unwrap_or(0)
    }

    /// Meetings beyond the first, summed over pairs: 0 when no pair met twice.
    pub fn repeats(&self) -> u32 {
        let mut total = 0;
        for a in 0..self.n {
            for b in a + 1..self.n {
                total += u32::from(self.counts[a * self.n + b].saturating_sub(1));
            }
        }
        total
    }
}
