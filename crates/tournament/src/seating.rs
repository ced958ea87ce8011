//! Who sits where in a round (排座).
//!
//! Every entrant registered and not withdrawn is seated in every round. The tables are as few
//! as hold everyone; when the entrants do not fill them, the empty seats are spread so that no
//! table has more than one bot more than another, and bots play them (never ranked).
//!
//! - **Fewest repeat meetings** (the default): round 1 is random; every round is chosen together
//!   with the rounds still to come, by simulated annealing over swaps of two players of one
//!   round, minimising Σ m(m−1) over pairs of entrants (m: the times the pair sits at one table,
//!   the rounds played included) and, beside it, how unevenly the bot tables fall. Planning the
//!   rounds to come with this one keeps a good later round possible: 16 entrants at tables of
//!   four get four rounds in which no two meet twice (the affine plane of order 4 has five such
//!   rounds), where seating each round alone can leave a fourth round with no such seating.
//!   Only this round is kept: the next is planned afresh from what was played.
//! - **Swiss** (瑞士制): from round 2, entrants sit by their standing, the first four together
//!   and so on; then players of neighbouring tables are swapped wherever that lowers the
//!   repeat meetings, so a Swiss field meets new opponents where its standing allows.
//!
//! Within a table the seats (and so who deals first) are shuffled by the seed.

use engine::wall::SeededRng;

use crate::Entrant;
use crate::meetings::Meetings;

/// One table of a round: its seats in order (seat 0 is East, the first dealer), each held by an
/// entrant or played by a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The seats, East first.
    pub seats: Vec<Option<Entrant>>,
}

impl Table {
    /// The entrants at the table, in seat order.
    pub fn entrants(&self) -> impl Iterator<Item = Entrant> + '_ {
        self.seats.iter().flatten().copied()
    }

    /// How many seats bots play.
    pub fn bots(&self) -> usize {
        self.seats.iter().filter(|s| s.is_none()).count()
    }
}

/// The seating of one round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// Its tables, numbered from 0.
    pub tables: Vec<Table>,
}

impl Round {
    /// Every entrant seated, table by table.
    pub fn entrants(&self) -> impl Iterator<Item = Entrant> + '_ {
        self.tables.iter().flat_map(Table::entrants)
    }
}

/// How later rounds are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing<'a> {
    /// As few repeat meetings as the rounds allow.
    FewestRepeats,
    /// By standing: `standing` lists every entrant to seat, the leader first.
    Swiss {
        /// The standings, best first.
        standing: &'a [Entrant],
    },
}

/// What a round is seated from.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The entrants to seat, each exactly once.
    pub entrants: &'a [Entrant],
    /// Seats per table (the ruleset's players: 2 to 4).
    pub seats: usize,
    /// The rounds already seated, in order.
    pub history: &'a [Round],
    /// Rounds still to come after this one, planned beside it (fewest repeats only).
    pub rounds_after: usize,
    /// How the round is paired.
    pub pairing: Pairing<'a>,
    /// The seed of every random choice.
    pub seed: u64,
}

/// Why a round cannot be seated.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeatingError {
    /// Nobody to seat.
    #[error("no entrants to seat")]
    NoEntrants,
    /// A table must have 2 to 4 seats.
    #[error("a table has 2 to 4 seats, not {0}")]
    Seats(usize),
    /// An entrant listed twice.
    #[error("entrant {0:?} is listed twice")]
    Twice(Entrant),
    /// The Swiss standing does not list exactly the entrants to seat.
    #[error("the standing must list exactly the entrants to seat")]
    Standing,
}

/// At most this many rounds are planned together: beyond it the search grows slower while
/// gaining little (rounds that far ahead are planned again anyway).
const PLAN_ROUNDS: usize = 6;
/// Annealing steps per entrant and planned round.
const STEPS_PER_SEAT: usize = 6_000;
/// The weight of the bot tables' unevenness (Σ s² over entrants, s: sittings at a table with a
/// bot) against the repeat meetings (Σ m(m−1)): sitting with a bot round after round while
/// another never does weighs more than a second meeting.
const SHORT_WEIGHT: i64 = 4;

/// Seats one round.
pub fn seat(request: &Request<'_>) -> Result<Round, SeatingError> {
    validate(request)?;
    let mut rng = SeededRng::new(request.seed);
    let sizes = table_sizes(request.entrants.len(), request.seats);
    let tables = match request.pairing {
        Pairing::Swiss { standing } if !request.history.is_empty() => {
            swiss(standing, &sizes, request.history)
        }
        _ => {
            let planned = 1 + request.rounds_after.min(PLAN_ROUNDS - 1);
            let mut plan = Plan::new(request, &sizes, planned, &mut rng);
            plan.anneal(&mut rng);
            plan.rounds.swap_remove(0)
        }
    };
    Ok(Round {
        tables: tables
            .into_iter()
            .map(|humans| seat_table(humans, request.seats, &mut rng))
            .collect(),
    })
}

fn validate(request: &Request<'_>) -> Result<(), SeatingError> {
    if request.entrants.is_empty() {
        return Err(SeatingError::NoEntrants);
    }
    if !(2..=4).contains(&request.seats) {
        return Err(SeatingError::Seats(request.seats));
    }
    let mut sorted = request.entrants.to_vec();
    sorted.sort();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(SeatingError::Twice(w[0]));
    }
    if let Pairing::Swiss { standing } = request.pairing {
        let mut s = standing.to_vec();
        s.sort();
        if s != sorted {
            return Err(SeatingError::Standing);
        }
    }
    Ok(())
}

/// Entrants per table: as few tables as hold everyone, the empty seats spread evenly (the
/// fuller tables first).
pub fn table_sizes(entrants: usize, seats: usize) -> Vec<usize> {
    let tables = entrants.div_ceil(seats).max(1);
    let base = entrants / tables;
    let fuller = entrants % tables;
    (0..tables)
        .map(|t| base + usize::from(t < fuller))
        .collect()
}

/// A table's entrants and bots in a seeded seat order.
fn seat_table(humans: Vec<Entrant>, seats: usize, rng: &mut SeededRng) -> Table {
    let mut table: Vec<Option<Entrant>> = humans.into_iter().map(Some).collect();
    table.resize(seats, None);
    rng.shuffle(&mut table);
    Table { seats: table }
}

/// Swiss: by standing, then swaps between neighbouring tables while they lower the repeats.
fn swiss(standing: &[Entrant], sizes: &[usize], history: &[Round]) -> Vec<Vec<Entrant>> {
    let n = standing.iter().map(|e| e.index() + 1).max().unwrap_or(0);
    let met = Meetings::of_rounds(n, history);
    let mut place = vec![0usize; n];
    for (i, e) in standing.iter().enumerate() {
        place[e.index()] = i;
    }
    let mut tables = Vec::with_capacity(sizes.len());
    let mut next = standing.iter().copied();
    for &size in sizes {
        tables.push(next.by_ref().take(size).collect::<Vec<_>>());
    }
    let cost = |table: &[Entrant], without: Entrant, with: Entrant| -> i64 {
        table
            .iter()
            .filter(|&&x| x != without)
            .map(|&x| i64::from(met.get(with, x)))
            .sum()
    };
    for _pass in 0..64 {
        let mut improved = false;
        for t in 0..tables.len().saturating_sub(1) {
            // The swap that saves most meetings; among equals, the one that moves the lowest
            // standings (the leaders stay at the top table where they can).
            let mut best: Option<((i64, usize), usize, usize)> = None;
            for i in 0..tables[t].len() {
                for j in 0..tables[t + 1].len() {
                    let (a, b) = (tables[t][i], tables[t + 1][j]);
                    let before = cost(&tables[t], a, a) + cost(&tables[t + 1], b, b);
                    let after = cost(&tables[t], a, b) + cost(&tables[t + 1], b, a);
                    let gain = (before - after, place[a.index()] + place[b.index()]);
                    if gain.0 > 0 && best.is_none_or(|(g, _, _)| gain > g) {
                        best = Some((gain, i, j));
                    }
                }
            }
            if let Some((_, i, j)) = best {
                let a = tables[t][i];
                tables[t][i] = tables[t + 1][j];
                tables[t + 1][j] = a;
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    tables
}

/// The rounds being planned: this one and some to come, each a list of tables of entrants.
struct Plan {
    rounds: Vec<Vec<Vec<Entrant>>>,
    /// Which tables have a bot (the same in every planned round).
    short: Vec<bool>,
    met: Meetings,
    /// Per entrant, the rounds sat at a table with a bot (played and planned).
    shorts: Vec<i64>,
    /// Σ m(m−1) over pairs.
    meet_cost: i64,
    /// That sum over the rounds played alone: the plan cannot go below it.
    meet_floor: i64,
}

fn pair_cost(m: u16) -> i64 {
    let m = i64::from(m);
    m * (m - 1)
}

impl Plan {
    fn new(request: &Request<'_>, sizes: &[usize], planned: usize, rng: &mut SeededRng) -> Plan {
        let n = request
            .entrants
            .iter()
            .map(|e| e.index() + 1)
            .max()
            .unwrap_or(0);
        let mut met = Meetings::of_rounds(n, request.history);
        let n = met.len();
        let mut shorts = vec![0i64; n];
        for round in request.history {
            for table in &round.tables {
                if table.bots() > 0 {
                    for e in table.entrants() {
                        shorts[e.index()] += 1;
                    }
                }
            }
        }
        let short: Vec<bool> = sizes.iter().map(|&s| s < request.seats).collect();
        let mut rounds = Vec::with_capacity(planned);
        for _ in 0..planned {
            let mut order = request.entrants.to_vec();
            rng.shuffle(&mut order);
            let mut next = order.into_iter();
            let tables: Vec<Vec<Entrant>> = sizes
                .iter()
                .map(|&size| next.by_ref().take(size).collect())
                .collect();
            for (t, table) in tables.iter().enumerate() {
                met.add_table(table, 1);
                if short[t] {
                    for e in table {
                        shorts[e.index()] += 1;
                    }
                }
            }
            rounds.push(tables);
        }
        let history = Meetings::of_rounds(n, request.history);
        let all_pairs = |m: &Meetings| -> i64 {
            let mut total = 0;
            for a in 0..n as u32 {
                for b in a + 1..n as u32 {
                    total += pair_cost(m.get(Entrant(a), Entrant(b)));
                }
            }
            total
        };
        Plan {
            meet_cost: all_pairs(&met),
            meet_floor: all_pairs(&history),
            rounds,
            short,
            met,
            shorts,
        }
    }

    fn short_cost(&self) -> i64 {
        SHORT_WEIGHT * self.shorts.iter().map(|s| s * s).sum::<i64>()
    }

    /// Whether nothing better can be found: no meeting beyond those played repeats, and the
    /// bot tables fall as evenly as they can.
    fn settled(&self, entrants: &[Entrant]) -> bool {
        let (lo, hi) = entrants
            .iter()
            .map(|e| self.shorts[e.index()])
            .fold((i64::MAX, i64::MIN), |(lo, hi), s| (lo.min(s), hi.max(s)));
        self.meet_cost == self.meet_floor && hi - lo <= 1
    }

    /// The change in cost if `a` (at table `ta`) and `b` (at `tb`) of round `r` swapped.
    fn delta(&self, r: usize, ta: usize, a: Entrant, tb: usize, b: Entrant) -> i64 {
        let mut d = 0;
        for &x in &self.rounds[r][ta] {
            if x != a {
                d += 2 * i64::from(self.met.get(b, x)) - 2 * (i64::from(self.met.get(a, x)) - 1);
            }
        }
        for &y in &self.rounds[r][tb] {
            if y != b {
                d += 2 * i64::from(self.met.get(a, y)) - 2 * (i64::from(self.met.get(b, y)) - 1);
            }
        }
        if self.short[ta] != self.short[tb] {
            let (into_short, out_of_short) = if self.short[ta] { (b, a) } else { (a, b) };
            let (si, so) = (
                self.shorts[into_short.index()],
                self.shorts[out_of_short.index()],
            );
            d += SHORT_WEIGHT * ((2 * si + 1) + (-2 * so + 1));
        }
        d
    }

    fn swap(&mut self, r: usize, ta: usize, i: usize, tb: usize, j: usize) {
        let (a, b) = (self.rounds[r][ta][i], self.rounds[r][tb][j]);
        for &x in &self.rounds[r][ta] {
            if x != a {
                self.meet_cost += 2 * i64::from(self.met.get(b, x));
                self.meet_cost -= 2 * (i64::from(self.met.get(a, x)) - 1);
                self.met.bump(a, x, -1);
                self.met.bump(b, x, 1);
            }
        }
        for &y in &self.rounds[r][tb] {
            if y != b {
                self.meet_cost += 2 * i64::from(self.met.get(a, y));
                self.meet_cost -= 2 * (i64::from(self.met.get(b, y)) - 1);
                self.met.bump(b, y, -1);
                self.met.bump(a, y, 1);
            }
        }
        if self.short[ta] != self.short[tb] {
            let (into_short, out_of_short) = if self.short[ta] { (b, a) } else { (a, b) };
            self.shorts[into_short.index()] += 1;
            self.shorts[out_of_short.index()] -= 1;
        }
        self.rounds[r][ta][i] = b;
        self.rounds[r][tb][j] = a;
    }

    /// Simulated annealing over swaps; the best plan seen is kept.
    fn anneal(&mut self, rng: &mut SeededRng) {
        let tables = self.short.len();
        let entrants: Vec<Entrant> = self.rounds[0].iter().flatten().copied().collect();
        if tables < 2 {
            return;
        }
        let steps = STEPS_PER_SEAT * entrants.len() * self.rounds.len();
        let (hot, cold) = (4.0_f64, 0.05_f64);
        let cooling = (cold / hot).powf(1.0 / steps as f64);
        let mut temperature = hot;
        let mut cost = self.meet_cost + self.short_cost();
        let mut best = (cost, self.rounds.clone());
        for step in 0..steps {
            if step % 256 == 0 && self.settled(&entrants) {
                return;
            }
            temperature *= cooling;
            let r = rng.below(self.rounds.len() as u32) as usize;
            let ta = rng.below(tables as u32) as usize;
            let mut tb = rng.below(tables as u32 - 1) as usize;
            if tb >= ta {
                tb += 1;
            }
            let i = rng.below(self.rounds[r][ta].len() as u32) as usize;
            let j = rng.below(self.rounds[r][tb].len() as u32) as usize;
            let (a, b) = (self.rounds[r][ta][i], self.rounds[r][tb][j]);
            let d = self.delta(r, ta, a, tb, b);
            let take = d <= 0 || {
                let u = f64::from(rng.below(1 << 24)) / f64::from(1u32 << 24);
                u < (-(d as f64) / temperature).exp()
            };
            if take {
                self.swap(r, ta, i, tb, j);
                cost += d;
                if cost < best.0 {
                    best = (cost, self.rounds.clone());
                }
            }
        }
        if best.0 < cost {
            self.rounds = best.1;
        }
    }
}
