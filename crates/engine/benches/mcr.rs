//! Criterion benchmark of the Guobiao (MCR) calculator over the public golden hands.
//!
//! Every line of `conformance/mcr/golden_public.jsonl` is parsed once, before any timing,
//! into an [`McrHand`] (through the `score` format's [`ScoreInput::to_hand`]), so what is
//! measured is [`score`] alone: every reading of each hand tried and the best one kept. The
//! criterion group scores the whole file per iteration and reports hands per second
//! (`Throughput::Elements` = the number of hands); a plain timed loop before it prints one
//! quotable hands/second figure.
//!
//! Run with `cargo bench -p mahjong-engine --bench mcr`; the target is at least
//! 200,000 hands per second on one core.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::format::ScoreInput;
use engine::variants::guobiao::{McrHand, score};

/// Passes over the whole file in the plain timed loop.
const PASSES: usize = 20;

/// The public golden file, read in place from the shared directory beside the workspace.
fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../conformance/mcr/golden_public.jsonl")
}

/// Every hand of the golden file, parsed once. Every line must parse and score: the bench
/// measures winning hands only, as the conformance test checks them.
fn golden_hands() -> Vec<McrHand> {
    let path = golden_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let hands: Vec<McrHand> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, line)| {
            let input: ScoreInput = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("line {}: not a score line: {e}", i + 1));
            input
                .to_hand()
                .unwrap_or_else(|e| panic!("line {}: not a hand: {e}", i + 1))
        })
        .collect();
    for (i, hand) in hands.iter().enumerate() {
        if let Err(e) = score(hand) {
            panic!("line {}: does not score: {e}", i + 1);
        }
    }
    hands
}

/// Scores every hand once; the sum of the totals keeps the work observable.
fn score_all(hands: &[McrHand]) -> i64 {
    hands
        .iter()
        .map(|h| score(black_box(h)).map_or(0, |s| s.total))
        .sum()
}

/// Hands per second over `PASSES` passes of a plain loop, printed as one line.
fn plain_loop(hands: &[McrHand]) {
    // One untimed pass builds the lazily made tables and warms the caches.
    black_box(score_all(hands));
    let start = Instant::now();
    for _ in 0..PASSES {
        black_box(score_all(hands));
    }
    let elapsed = start.elapsed();
    let scored = (PASSES * hands.len()) as f64;
    println!(
        "mcr plain loop: {} hands x {PASSES} passes in {:.3} s = {:.0} hands/s ({:.2} us/hand)",
        hands.len(),
        elapsed.as_secs_f64(),
        scored / elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1e6 / scored,
    );
}

fn bench_mcr(c: &mut Criterion) {
    let hands = golden_hands();
    plain_loop(&hands);

    let mut g = c.benchmark_group("mcr");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("score_golden_public", |b| b.iter(|| score_all(&hands)));
    g.finish();
}

criterion_group!(benches, bench_mcr);
criterion_main!(benches);
