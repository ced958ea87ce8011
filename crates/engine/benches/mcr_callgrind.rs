//! Instruction counts of the Guobiao calculator, for `valgrind --tool=callgrind`.
//!
//! A plain binary (no criterion): `mcr_callgrind <kernel> <calls>` reads the public golden
//! hands (`conformance/mcr/golden_public.jsonl`), parses and scores each once (which also builds
//! the lazily made tables), then runs one kernel `<calls>` times, stepping through the hands.
//! Instruction counts are deterministic, so the cost of one call is
//!
//! ```text
//! (Ir of `mcr_callgrind <kernel> 30000` - Ir of `mcr_callgrind <kernel> 0`) / 30000
//! ```
//!
//! and the setup cancels out. Kernels:
//! - `loop`: the loop alone, with no call (its overhead is inside the other figures);
//! - `score`: [`score`] on a parsed hand, what the anchor (`anchors/pymahjonggb.py`) is held
//!   against;
//! - `line`: one input line as `mahjong score` answers it, without the IO: [`ScoreLines`] on
//!   the line's bytes (one for the run, as the command keeps one; its reader checks the UTF-8
//!   the command no longer checks), writing its answer into a reused buffer.
//!
//! Build with `cargo bench -p mahjong-engine --bench mcr_callgrind --no-run`; the binary is
//! `target/release/deps/mcr_callgrind-*`. `anchors/mcr_ir.sh` runs it with the anchor and the
//! CLI; see docs/PERFORMANCE.md.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;

use engine::format::{ScoreInput, ScoreLines};
use engine::variants::guobiao::{McrHand, score};

/// The kernels this binary can run, by name.
const KERNELS: [&str; 3] = ["loop", "score", "line"];

/// The golden file's non-blank lines.
fn golden_lines() -> Vec<String> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../conformance/mcr/golden_public.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

/// Every line parsed into a hand; each must parse and score, as the conformance test checks.
fn golden_hands(lines: &[String]) -> Vec<McrHand> {
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let input: ScoreInput = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("line {}: not a score line: {e}", i + 1));
            let hand = input
                .to_hand()
                .unwrap_or_else(|e| panic!("line {}: not a hand: {e}", i + 1));
            if let Err(e) = score(&hand) {
                panic!("line {}: does not score: {e}", i + 1);
            }
            hand
        })
        .collect()
}

/// Calls `kernel` `calls` times on the next item each time, and returns a checksum of the
/// results so that no call can be optimised away.
fn run<T>(calls: u64, items: &[T], mut kernel: impl FnMut(&T) -> u64) -> u64 {
    let mut sum = 0u64;
    let mut i = 0usize;
    for _ in 0..calls {
        i += 1;
        if i == items.len() {
            i = 0;
        }
        sum = sum.wrapping_add(black_box(kernel(black_box(&items[i]))));
    }
    sum
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = match args.as_slice() {
        [kernel, calls] => calls.parse::<u64>().ok().map(|n| (kernel.as_str(), n)),
        _ => None,
    };
    let Some((kernel, calls)) = parsed.filter(|(k, _)| KERNELS.contains(k)) else {
        eprintln!(
            "usage: mcr_callgrind <kernel> <calls>; kernels: {}",
            KERNELS.join(", ")
        );
        return ExitCode::FAILURE;
    };

    let lines = golden_lines();
    let hands = golden_hands(&lines);
    let mut buf = Vec::with_capacity(4096);
    let sum = match kernel {
        "loop" => run(calls, &hands, |h| u64::from(h.flowers)),
        "score" => run(calls, &hands, |h| score(h).map_or(0, |s| s.total as u64)),
        "line" => {
            let mut scorer = ScoreLines::default();
            run(calls, &lines, |l| {
                buf.clear();
                let written = scorer.answer_read(l.as_bytes(), &mut buf);
                written
                    .unwrap_or_else(|| scorer.answer(l, &mut buf))
                    .expect("an answer is written");
                buf.len() as u64
            })
        }
        _ => unreachable!("checked against KERNELS"),
    };
    println!("{kernel} x {calls}: checksum {sum}");
    ExitCode::SUCCESS
}
