//! Self-play on every core: a run of many hands is cut into tables of a fixed size, the tables
//! are played on a pool of threads, and their results are put back together in table order.
//!
//! The cut depends only on the arguments (`--hands`, `--table-hands`), never on the thread
//! count, and every table's seeds derive from the run's seed and the table's number: the same
//! seed gives the same statistics on one thread or on many. The first table keeps the run's own
//! seeds, so a run of one table plays exactly the hands it played before tables were cut.

use std::num::NonZeroUsize;
use std::ops::Range;

use rayon::prelude::*;

use crate::simulate::hand_seed;

/// How a run is spread over tables and threads (shared by `simulate` and `arena`).
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Parallel {
    /// Threads that play tables at once (default: every core).
    #[arg(long)]
    threads: Option<NonZeroUsize>,
    /// Hands one table plays before a fresh table is sat; the unit of work of a thread.
    #[arg(long, default_value_t = NonZeroUsize::new(1000).unwrap_or(NonZeroUsize::MIN))]
    table_hands: NonZeroUsize,
}

/// One table of a run: its number and the run's hands it plays.
#[derive(Clone, Debug)]
pub struct Part {
    /// The table's number in the run, from 0.
    pub index: u64,
    /// The hands of the run (global numbers) this table plays, in order.
    pub hands: Range<u64>,
}

impl Part {
    /// The seed of this table (its first dealer): the run's seed for the first table.
    pub fn table_seed(&self, seed: u64) -> u64 {
        if self.index == 0 {
            seed
        } else {
            hand_seed(seed.rotate_left(29) ^ 0x7AB1E, self.index)
        }
    }
}

impl Parallel {
    /// The threads the run uses.
    pub fn threads(&self) -> usize {
        self.threads
            .or_else(|| std::thread::available_parallelism().ok())
            .map_or(1, NonZeroUsize::get)
    }

    /// The tables a run of `hands` hands is cut into.
    pub fn parts(&self, hands: u64) -> Vec<Part> {
        let size = self.table_hands.get() as u64;
        let tables = hands.div_ceil(size).max(1);
        (0..tables)
            .map(|index| Part {
                index,
                hands: index * size..((index + 1) * size).min(hands),
            })
            .collect()
    }

    /// Plays every part on the pool and returns their results in table order; the first
    /// error (in table order) stops the run.
    ///
    /// # Errors
    /// The pool cannot be built, or a table failed.
    pub fn run<T: Send>(
        &self,
        hands: u64,
        play: impl Fn(&Part) -> anyhow::Result<T> + Sync,
    ) -> anyhow::Result<Vec<T>> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads())
            .build()?;
        let parts = self.parts(hands);
        pool.install(|| parts.par_iter().map(&play).collect())
    }
}
