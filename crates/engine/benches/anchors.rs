//! Our shanten against two outside implementations, in instructions per call.
//!
//! A plain binary (no criterion) for `valgrind --tool=callgrind`: `anchors <kernel> <calls>`
//! builds one deterministic set of 100,000 thirteen-tile hands, checks that our shanten and each
//! anchor agree on every hand where they answer the same question, then calls one kernel
//! `<calls>` times, one hand after the other. As in the `callgrind` bench, the cost of one call is
//!
//! ```text
//! (Ir of `anchors <kernel> 100000` - Ir of `anchors <kernel> 0`) / 100000
//! ```
//!
//! so hand generation, table building and the agreement check cancel out.
//!
//! Kernels:
//! - `loop`: the loop and its `black_box`es, no call; its cost is included in every other figure;
//! - `ours_all`: `shanten` with the standard form, seven pairs and thirteen orphans, the forms
//!   the anchors compute;
//! - `ours_standard`: `shanten` with the standard form only;
//! - `ours_knitted`: `shanten` with every form, the Guobiao knitted hands included;
//! - `riichienv`: `riichienv_core::shanten::calc_shanten_from_counts` (riichienv-core 0.4.11,
//!   standard form, seven pairs, thirteen orphans);
//! - `xiangting`: `xiangting::calculate_replacement_number` minus one (xiangting 6.0.2, same
//!   forms, and exact about the four copies of each tile).
//!
//! The hands have thirteen tiles: the shanten of a hand waiting for its next tile is what a
//! player or a bot asks, and at thirteen tiles riichienv's early exit (it skips seven pairs and
//! thirteen orphans once the standard form is ready) cannot change its answer.
//!
//! The set, shuffled: 60% random draws from the wall, 20% ready standard hands (a complete hand
//! minus a tile), 10% one step further (a tile of a complete hand exchanged, then one removed),
//! 6% seven-pairs shapes and 4% thirteen-orphans shapes (each half ready, half one step
//! further).
//!
//! Where the answers differ by design: Japanese rules do not count a four of a kind as two pairs
//! of seven pairs and ours do (龙七对), so a triple is a pair and a tile short of a second pair
//! for us and not for them; and xiangting never counts on a fifth copy of a kind the hand holds
//! four of while our tables may (see `engine::shape::table`). The check therefore skips hands
//! holding a kind four times, and hands holding a triple that seven pairs brings closest to
//! ready; it reports how many hands it compared (94,047 of the 100,000).
//!
//! Build with `cargo bench -p mahjong-engine --bench anchors --no-run`; the binary is
//! `target/release/deps/anchors-*`. Figures and commands are in `docs/PERFORMANCE.md`.

use std::hint::black_box;
use std::process::ExitCode;

use engine::TileCounts;
use engine::shape::{Forms, shanten};

/// Number of hands in the set.
const HANDS: usize = 100_000;
/// Seed of the generator, fixed so that every run sees the same hands.
const SEED: u64 = 0x5eed_0030_c0de_0001;
/// Playing kinds: 万 0..9, 筒 9..18, 条 18..27, honors 27..34.
const KINDS: usize = 34;
/// The terminals and honors.
const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// The kernels this binary can run, by name.
const KERNELS: [&str; 6] = [
    "loop",
    "ours_all",
    "ours_standard",
    "ours_knitted",
    "riichienv",
    "xiangting",
];

/// The forms the anchors compute.
fn anchor_forms() -> Forms {
    Forms::STANDARD
        .with(Forms::SEVEN_PAIRS)
        .with(Forms::THIRTEEN_ORPHANS)
}

/// Every form, the Guobiao knitted hands included.
fn every_form() -> Forms {
    anchor_forms().with(Forms::KNITTED)
}

/// SplitMix64: small, deterministic, good enough to pick tiles.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `n` tiles from a shuffled 136-tile wall.
fn random_hand(rng: &mut Rng, n: usize) -> TileCounts {
    let mut wall: [u8; 4 * KINDS] = std::array::from_fn(|i| (i / 4) as u8);
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

/// A complete standard hand (four chows or pungs and a pair, 14 tiles), honors half the time.
fn complete_standard(rng: &mut Rng) -> TileCounts {
    let kinds = if rng.below(2) == 0 { KINDS } else { 27 };
    loop {
        let mut c = TileCounts([0; KINDS]);
        for _ in 0..4 {
            if rng.below(3) == 0 {
                c.0[rng.below(kinds)] += 3;
            } else {
                let start = 9 * rng.below(3) + rng.below(7);
                for n in &mut c.0[start..start + 3] {
                    *n += 1;
                }
            }
        }
        c.0[rng.below(kinds)] += 2;
        if c.0.iter().all(|&n| n <= 4) {
            return c;
        }
    }
}

/// Seven distinct pairs, 14 tiles.
fn seven_pairs(rng: &mut Rng) -> TileCounts {
    let mut c = TileCounts([0; KINDS]);
    let mut placed = 0;
    while placed < 7 {
        let k = rng.below(KINDS);
        if c.0[k] == 0 {
            c.0[k] = 2;
            placed += 1;
        }
    }
    c
}

/// Each terminal and honor once, one of them twice, 14 tiles.
fn thirteen_orphans(rng: &mut Rng) -> TileCounts {
    let mut c = TileCounts([0; KINDS]);
    for &k in &ORPHANS {
        c.0[k] = 1;
    }
    c.0[ORPHANS[rng.below(ORPHANS.len())]] += 1;
    c
}

/// Takes away one of the held tiles, each equally likely.
fn remove_random(rng: &mut Rng, c: &mut TileCounts) {
    let mut pick = rng.below(c.total() as usize);
    for n in c.0.iter_mut() {
        let held = usize::from(*n);
        if pick < held {
            *n -= 1;
            return;
        }
        pick -= held;
    }
}

/// Replaces one held tile with another kind that still has a copy left.
fn exchange_random(rng: &mut Rng, c: &mut TileCounts) {
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

/// A 14-tile complete shape turned into a 13-tile hand: ready (one tile removed) or, with
/// `further`, one step further (a tile exchanged first).
fn near(rng: &mut Rng, mut c: TileCounts, further: bool) -> TileCounts {
    if further {
        exchange_random(rng, &mut c);
    }
    remove_random(rng, &mut c);
    c
}

/// The 100,000 hands, shuffled so that the kinds of hands alternate.
fn hands() -> Vec<TileCounts> {
    let mut rng = Rng(SEED);
    let mut out = Vec::with_capacity(HANDS);
    let per = |percent: usize| HANDS * percent / 100;
    for _ in 0..per(60) {
        out.push(random_hand(&mut rng, 13));
    }
    for _ in 0..per(20) {
        let c = complete_standard(&mut rng);
        out.push(near(&mut rng, c, false));
    }
    for _ in 0..per(10) {
        let c = complete_standard(&mut rng);
        out.push(near(&mut rng, c, true));
    }
    for i in 0..per(6) {
        let c = seven_pairs(&mut rng);
        out.push(near(&mut rng, c, i % 2 == 1));
    }
    for i in 0..per(4) {
        let c = thirteen_orphans(&mut rng);
        out.push(near(&mut rng, c, i % 2 == 1));
    }
    assert_eq!(out.len(), HANDS, "the parts must add up to the set");
    for i in (1..out.len()).rev() {
        let j = rng.below(i + 1);
        out.swap(i, j);
    }
    for h in &out {
        assert!(
            h.total() == 13 && h.0.iter().all(|&n| n <= 4),
            "generated an impossible hand {h}"
        );
    }
    out
}

fn riichienv(h: &TileCounts) -> i8 {
    riichienv_core::shanten::calc_shanten_from_counts(&h.0, 4)
}

fn xiangting(h: &TileCounts) -> i8 {
    match xiangting::calculate_replacement_number(&h.0, xiangting::PlayerCount::Four) {
        Ok(r) => r as i8 - 1,
        Err(_) => i8::MIN,
    }
}

/// Whether ours and the anchors answer the same question for `h`: no kind held four times
/// (a fifth copy, and 龙七对), and no triple in a hand that seven pairs brings closest (ours
/// reads a triple as a pair and a tile short of a second pair of the same kind).
fn same_question(h: &TileCounts) -> bool {
    if h.0.contains(&4) {
        return false;
    }
    let others = Forms::STANDARD.with(Forms::THIRTEEN_ORPHANS);
    !h.0.contains(&3) || shanten(h, 0, Forms::SEVEN_PAIRS) >= shanten(h, 0, others)
}

/// Checks ours against both anchors on every hand without a four of a kind, builds our tables,
/// and prints how the hands spread over shanten.
fn check(hands: &[TileCounts]) {
    let mut compared = 0usize;
    let mut by_shanten = [0usize; 8];
    for h in hands {
        let ours = shanten(h, 0, anchor_forms());
        by_shanten[(ours.max(0) as usize).min(7)] += 1;
        let _ = shanten(h, 0, every_form());
        if !same_question(h) {
            continue;
        }
        compared += 1;
        assert_eq!(ours, riichienv(h), "ours and riichienv-core differ on {h}");
        assert_eq!(ours, xiangting(h), "ours and xiangting differ on {h}");
    }
    println!(
        "{HANDS} hands by shanten 0..7 (standard, seven pairs, thirteen orphans): \
         {by_shanten:?}; {compared} compared with both anchors, all agree"
    );
}

/// Calls `kernel` on `calls` hands in turn; returns a checksum so that no call is optimised
/// away.
fn run(calls: usize, hands: &[TileCounts], kernel: impl Fn(&TileCounts) -> i8) -> u64 {
    let mut sum = 0u64;
    for h in hands.iter().cycle().take(calls) {
        let out = kernel(black_box(h));
        sum = sum.wrapping_add(black_box(out) as u8 as u64);
    }
    sum
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = match args.as_slice() {
        [kernel, calls] => calls.parse::<usize>().ok().map(|n| (kernel.as_str(), n)),
        _ => None,
    };
    let Some((kernel, calls)) = parsed.filter(|(k, _)| KERNELS.contains(k)) else {
        eprintln!(
            "usage: anchors <kernel> <calls>; kernels: {}",
            KERNELS.join(", ")
        );
        return ExitCode::FAILURE;
    };
    let hands = hands();
    check(&hands);
    let forms = |f: Forms| move |h: &TileCounts| shanten(h, 0, black_box(f));
    let sum = match kernel {
        "loop" => run(calls, &hands, |h| h.0[0] as i8),
        "ours_all" => run(calls, &hands, forms(anchor_forms())),
        "ours_standard" => run(calls, &hands, forms(Forms::STANDARD)),
        "ours_knitted" => run(calls, &hands, forms(every_form())),
        "riichienv" => run(calls, &hands, riichienv),
        "xiangting" => run(calls, &hands, xiangting),
        _ => unreachable!("checked against KERNELS"),
    };
    println!("{kernel} x {calls}: checksum {sum}");
    ExitCode::SUCCESS
}
