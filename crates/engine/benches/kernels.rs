//! Criterion benchmarks of the shape kernel: win check, shanten and waits.
//!
//! Every benchmark runs one kernel call per iteration, stepping through a fixed set of 64
//! deterministic hands (complete, nearly complete, ready and random ones), so criterion's
//! per-iteration estimate is the time of one call averaged over a representative mix.
//!
//! Run with `cargo bench -p mahjong-engine --bench kernels`; the figures are kept in
//! `docs/PERFORMANCE.md`. The hand sets are shared with the `callgrind` bench binary, which
//! counts instructions per call instead of timing.

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use engine::TileCounts;
use engine::shape::{Forms, is_complete, shanten, waits};

/// Number of hands in each set: a power of two, so the rotating index is a mask.
pub const SET_SIZE: usize = 64;

/// Seed of the generator; fixed so that every run measures the same hands.
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// First kind index of the honors (东南西北白发中); `0..27` are 万, 筒, 条.
const HONOR_BASE: usize = 27;
/// Number of playing kinds.
const KINDS: usize = 34;
/// The terminals and honors, one of each, for thirteen orphans.
const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// The standard form alone.
pub fn standard() -> Forms {
    Forms::STANDARD
}

/// Standard form, seven pairs and thirteen orphans.
pub fn all_forms() -> Forms {
    Forms::STANDARD
        .with(Forms::SEVEN_PAIRS)
        .with(Forms::THIRTEEN_ORPHANS)
}

/// xorshift64: small, deterministic and good enough to pick tiles.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `1 / n`.
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Whether no kind is held more than four times.
fn legal(c: &TileCounts) -> bool {
    c.0.iter().all(|&n| n <= 4)
}

/// `n` tiles drawn from a shuffled 136-tile wall.
fn random_hand(rng: &mut XorShift, n: usize) -> TileCounts {
    let mut wall = [0u8; 4 * KINDS];
    for (i, slot) in wall.iter_mut().enumerate() {
        *slot = (i / 4) as u8;
    }
    // Partial Fisher–Yates: only the first `n` places are needed.
    for i in 0..n {
        let j = i + rng.below(wall.len() - i);
        wall.swap(i, j);
    }
    let mut c = TileCounts([0; KINDS]);
    for &k in &wall[..n] {
        c.0[usize::from(k)] += 1;
    }
    c
}

/// A random complete standard hand: four chows or pungs and a pair, 14 tiles.
/// With `honors` false only the numbered suits are used (as in Sichuan mahjong).
fn complete_standard(rng: &mut XorShift, honors: bool) -> TileCounts {
    let kinds = if honors { KINDS } else { HONOR_BASE };
    loop {
        let mut c = TileCounts([0; KINDS]);
        for _ in 0..4 {
            if rng.one_in(3) {
                c.0[rng.below(kinds)] += 3;
            } else {
                let start = 9 * rng.below(3) + rng.below(7);
                for i in start..start + 3 {
                    c.0[i] += 1;
                }
            }
        }
        c.0[rng.below(kinds)] += 2;
        if legal(&c) {
            return c;
        }
    }
}

/// Random seven pairs; one time in six a four of a kind stands for two of the pairs.
fn seven_pairs(rng: &mut XorShift) -> TileCounts {
    let mut kinds: Vec<usize> = (0..KINDS).collect();
    rng.shuffle(&mut kinds);
    let mut c = TileCounts([0; KINDS]);
    if rng.one_in(6) {
        c.0[kinds[0]] = 4;
        for &k in &kinds[1..6] {
            c.0[k] = 2;
        }
    } else {
        for &k in &kinds[..7] {
            c.0[k] = 2;
        }
    }
    c
}

/// Random thirteen orphans: each terminal and honor once, one of them twice.
fn thirteen_orphans(rng: &mut XorShift) -> TileCounts {
    let mut c = TileCounts([0; KINDS]);
    for &k in &ORPHANS {
        c.0[k] = 1;
    }
    c.0[ORPHANS[rng.below(ORPHANS.len())]] += 1;
    c
}

/// Takes away one tile chosen uniformly among the tiles held.
fn remove_random(rng: &mut XorShift, c: &mut TileCounts) {
    let total: usize = c.0.iter().map(|&n| usize::from(n)).sum();
    let mut pick = rng.below(total);
    for n in c.0.iter_mut() {
        let held = usize::from(*n);
        if pick < held {
            *n -= 1;
            return;
        }
        pick -= held;
    }
}

/// Replaces one held tile with a different kind that still has a copy left.
fn swap_random(rng: &mut XorShift, c: &mut TileCounts) {
    let before = *c;
    remove_random(rng, c);
    loop {
        let k = rng.below(KINDS);
        if c.0[k] < 4 && c.0[k] + 1 != before.0[k] {
            c.0[k] += 1;
            return;
        }
    }
}

/// Makes one hand from the random stream.
type Generator = dyn Fn(&mut XorShift) -> TileCounts;

/// Builds a set of `SET_SIZE` hands from `(how many, generator)` parts, in a shuffled order
/// so that the kinds of hands alternate as they would in play.
fn build(rng: &mut XorShift, parts: &[(usize, &Generator)]) -> Vec<TileCounts> {
    let mut hands = Vec::with_capacity(SET_SIZE);
    for &(n, make) in parts {
        for _ in 0..n {
            let hand = make(rng);
            assert!(legal(&hand), "generated an impossible hand {hand}");
            hands.push(hand);
        }
    }
    assert_eq!(
        hands.len(),
        SET_SIZE,
        "hand set parts must add up to SET_SIZE"
    );
    rng.shuffle(&mut hands);
    hands
}

/// 64 fourteen-tile hands for the win check: 28 complete standard hands (16 with honors),
/// 8 seven pairs, 4 thirteen orphans, 12 complete hands with one tile exchanged (near misses)
/// and 12 random draws from the wall.
pub fn win_hands() -> Vec<TileCounts> {
    let mut rng = XorShift(SEED);
    build(
        &mut rng,
        &[
            (16, &|r| complete_standard(r, true)),
            (12, &|r| complete_standard(r, false)),
            (8, &seven_pairs),
            (4, &thirteen_orphans),
            (12, &|r| {
                let mut c = any_standard(r);
                swap_random(r, &mut c);
                c
            }),
            (12, &|r| random_hand(r, 14)),
        ],
    )
}

/// 64 thirteen-tile hands for shanten: 16 ready standard hands, 12 one step further (a tile
/// exchanged), 6 ready and 4 one-away seven pairs, 2 ready and 2 one-away thirteen orphans,
/// and 22 random draws from the wall (mostly 2 to 5 away, as hands are early in play).
pub fn shanten_hands() -> Vec<TileCounts> {
    let mut rng = XorShift(SEED ^ 0x5151);
    build(
        &mut rng,
        &[
            (16, &|r| {
                let c = any_standard(r);
                minus_one(r, c)
            }),
            (12, &|r| {
                let c = any_standard(r);
                let mut c = minus_one(r, c);
                swap_random(r, &mut c);
                c
            }),
            (6, &|r| {
                let c = seven_pairs(r);
                minus_one(r, c)
            }),
            (4, &|r| {
                let c = seven_pairs(r);
                let mut c = minus_one(r, c);
                swap_random(r, &mut c);
                c
            }),
            (2, &|r| {
                let c = thirteen_orphans(r);
                minus_one(r, c)
            }),
            (2, &|r| {
                let c = thirteen_orphans(r);
                let mut c = minus_one(r, c);
                swap_random(r, &mut c);
                c
            }),
            (22, &|r| random_hand(r, 13)),
        ],
    )
}

/// 64 thirteen-tile hands for waits: 44 ready standard hands (24 with honors), 8 ready seven
/// pairs, 4 ready thirteen orphans and 8 random draws (mostly not ready).
pub fn wait_hands() -> Vec<TileCounts> {
    let mut rng = XorShift(SEED ^ 0xa1a1);
    build(
        &mut rng,
        &[
            (24, &|r| {
                let c = complete_standard(r, true);
                minus_one(r, c)
            }),
            (20, &|r| {
                let c = complete_standard(r, false);
                minus_one(r, c)
            }),
            (8, &|r| {
                let c = seven_pairs(r);
                minus_one(r, c)
            }),
            (4, &|r| {
                let c = thirteen_orphans(r);
                minus_one(r, c)
            }),
            (8, &|r| random_hand(r, 13)),
        ],
    )
}

/// A complete standard hand, with honors half of the time.
fn any_standard(rng: &mut XorShift) -> TileCounts {
    let honors = rng.one_in(2);
    complete_standard(rng, honors)
}

/// The hand with one random tile taken away.
fn minus_one(rng: &mut XorShift, mut c: TileCounts) -> TileCounts {
    remove_random(rng, &mut c);
    c
}

/// Calls every kernel once on every hand, which also builds the lazily made tables, and
/// checks that the sets are what their documentation says.
pub fn warm_up(win: &[TileCounts], thirteen: &[TileCounts], ready: &[TileCounts]) {
    let complete = win
        .iter()
        .filter(|c| is_complete(c, 0, all_forms()))
        .count();
    assert!(
        complete >= 40,
        "only {complete} complete hands in the win set"
    );
    for c in thirteen {
        black_box(shanten(c, 0, standard()));
        black_box(shanten(c, 0, all_forms()));
    }
    let tenpai = ready
        .iter()
        .filter(|c| !waits(c, 0, all_forms()).is_empty())
        .count();
    assert!(tenpai >= 56, "only {tenpai} ready hands in the waits set");
    for c in ready {
        black_box(waits(c, 0, standard()));
    }
}

/// Benchmarks `kernel` with one call per iteration, on the next hand of the set each time.
/// The declared-meld count and the forms go through `black_box`, as they come from the
/// ruleset at run time in the engine.
fn per_call<T>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    hands: &[TileCounts],
    forms: Forms,
    kernel: impl Fn(&TileCounts, u8, Forms) -> T,
) {
    g.bench_function(name, |b| {
        let mut i = 0usize;
        b.iter(|| {
            i = (i + 1) & (SET_SIZE - 1);
            kernel(black_box(&hands[i]), black_box(0), black_box(forms))
        })
    });
}

fn bench_kernels(c: &mut Criterion) {
    let win = win_hands();
    let thirteen = shanten_hands();
    let ready = wait_hands();
    warm_up(&win, &thirteen, &ready);

    let mut g = c.benchmark_group("win_check");
    g.throughput(Throughput::Elements(1));
    per_call(&mut g, "standard", &win, standard(), is_complete);
    per_call(&mut g, "all_forms", &win, all_forms(), is_complete);
    g.finish();

    let mut g = c.benchmark_group("shanten");
    g.throughput(Throughput::Elements(1));
    per_call(&mut g, "standard", &thirteen, standard(), shanten);
    per_call(&mut g, "all_forms", &thirteen, all_forms(), shanten);
    g.finish();

    let mut g = c.benchmark_group("waits");
    g.throughput(Throughput::Elements(1));
    per_call(&mut g, "standard", &ready, standard(), waits);
    per_call(&mut g, "all_forms", &ready, all_forms(), waits);
    g.finish();
}

criterion_group!(benches, bench_kernels);
criterion_main!(benches);
