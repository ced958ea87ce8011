//! Instruction counts of the shape kernel, for `valgrind --tool=callgrind`.
//!
//! A plain binary (no criterion): `callgrind <kernel> <calls>` builds the hand sets of the
//! `kernels` bench, warms the lazily built tables by calling every kernel on every hand, then
//! calls one kernel `<calls>` times, stepping through its hand set. Instruction counts are
//! deterministic, so the cost of one call is
//!
//! ```text
//! (Ir of `callgrind <kernel> 100000` - Ir of `callgrind <kernel> 0`) / 100000
//! ```
//!
//! and the setup (hand generation, table building) cancels out. The kernel `loop` runs the
//! same loop without any kernel call: its figure is the loop overhead included in the others.
//!
//! Build with `cargo bench -p mahjong-engine --bench callgrind --no-run`; the binary is
//! `target/release/deps/callgrind-*`. See `docs/PERFORMANCE.md`.

use std::hint::black_box;
use std::process::ExitCode;

use engine::TileCounts;
use engine::shape::{Forms, is_complete, shanten, waits};

#[allow(dead_code)]
#[path = "kernels.rs"]
mod kernels;

use kernels::{SET_SIZE, all_forms, shanten_hands, standard, wait_hands, warm_up, win_hands};

/// The kernels this binary can run, by name.
const KERNELS: [&str; 7] = [
    "loop",
    "win_standard",
    "win_all",
    "shanten_standard",
    "shanten_all",
    "waits_standard",
    "waits_all",
];

/// Calls `kernel` `calls` times, on the next hand of the set each time, and returns a checksum
/// of the results so that no call can be optimised away.
fn run<T: Into<u64>>(
    calls: u64,
    hands: &[TileCounts],
    forms: Forms,
    kernel: impl Fn(&TileCounts, u8, Forms) -> T,
) -> u64 {
    let mut sum = 0u64;
    let mut i = 0usize;
    for _ in 0..calls {
        i = (i + 1) & (SET_SIZE - 1);
        let out = kernel(black_box(&hands[i]), black_box(0), black_box(forms));
        sum = sum.wrapping_add(black_box(out).into());
    }
    sum
}

/// Prints what the hand sets hold: complete hands, shanten and wait counts.
fn stats(win: &[TileCounts], thirteen: &[TileCounts], ready: &[TileCounts]) {
    for (name, forms) in [("standard", standard()), ("all_forms", all_forms())] {
        let complete = win.iter().filter(|h| is_complete(h, 0, forms)).count();
        let mut by_shanten = [0usize; 8];
        for h in thirteen {
            by_shanten[(shanten(h, 0, forms) as usize).min(7)] += 1;
        }
        let waiting: Vec<u32> = ready.iter().map(|h| waits(h, 0, forms).len()).collect();
        let tenpai = waiting.iter().filter(|&&n| n > 0).count();
        let kinds: u32 = waiting.iter().sum();
        println!(
            "{name}: win set {complete}/{SET_SIZE} complete; shanten set by shanten 0..7 \
             {by_shanten:?}; waits set {tenpai}/{SET_SIZE} ready, {kinds} waiting kinds in all"
        );
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if matches!(args.as_slice(), [s] if s == "stats") {
        let (win, thirteen, ready) = (win_hands(), shanten_hands(), wait_hands());
        stats(&win, &thirteen, &ready);
        return ExitCode::SUCCESS;
    }
    let parsed = match args.as_slice() {
        [kernel, calls] => calls.parse::<u64>().ok().map(|n| (kernel.as_str(), n)),
        _ => None,
    };
    let Some((kernel, calls)) = parsed.filter(|(k, _)| KERNELS.contains(k)) else {
        eprintln!(
            "usage: callgrind <kernel> <calls>; kernels: {}",
            KERNELS.join(", ")
        );
        return ExitCode::FAILURE;
    };

    let win = win_hands();
    let thirteen = shanten_hands();
    let ready = wait_hands();
    warm_up(&win, &thirteen, &ready);

    // Results as u64 for the checksum: shanten reinterpreted as u8, waits as their mask.
    let shanten_u = |h: &TileCounts, m: u8, f: Forms| shanten(h, m, f) as u8;
    let waits_n = |h: &TileCounts, m: u8, f: Forms| waits(h, m, f).bits();
    let sum = match kernel {
        "loop" => run(calls, &win, standard(), |h: &TileCounts, _, _| h.0[0]),
        "win_standard" => run(calls, &win, standard(), is_complete),
        "win_all" => run(calls, &win, all_forms(), is_complete),
        "shanten_standard" => run(calls, &thirteen, standard(), shanten_u),
        "shanten_all" => run(calls, &thirteen, all_forms(), shanten_u),
        "waits_standard" => run(calls, &ready, standard(), waits_n),
        "waits_all" => run(calls, &ready, all_forms(), waits_n),
        _ => unreachable!("checked against KERNELS"),
    };
    println!("{kernel} x {calls}: checksum {sum}");
    ExitCode::SUCCESS
}
