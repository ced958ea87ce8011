//! `mahjong arena`: policies against each other at one table, seats rotating every hand so each
//! policy plays every seat equally often.
//!
//! Reports per policy level: win rate and deal-in rate (per seat-hand), mean score per hand with
//! a 95% confidence interval (normal approximation over hands; a level in several seats counts
//! its seats' mean per hand as one sample), decisions per second and the p99 decision time.
//! The hands are played on every core as tables of `--table-hands` (see `parallel`): everything
//! but the timings depends only on the arguments, not on `--threads`.

use std::time::Instant;

use anyhow::Context;
use bot::Level;
use engine::wall::SeededRng;
use engine::{Ruleset, Seat, Table};
use serde::Serialize;

use crate::parallel::{Parallel, Part};
use crate::simulate::hand_seed;

/// Arguments of `mahjong arena`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset preset id.
    #[arg(long)]
    ruleset: String,
    /// Hands to play.
    #[arg(long, default_value_t = 1000)]
    hands: u64,
    /// One policy level per seat: random, basic or strong.
    #[arg(long, default_value = "strong,basic,basic,basic")]
    seats: String,
    /// Seed of the whole run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Room options as a JSON object.
    #[arg(long, default_value = "{}")]
    options: String,
    /// Print one JSON object as the last line.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    parallel: Parallel,
}

/// Per-level results.
#[derive(Debug, Serialize)]
struct LevelReport {
    level: String,
    seats: usize,
    seat_hands: u64,
    wins: u64,
    win_rate: f64,
    deal_ins: u64,
    deal_in_rate: f64,
    mean_score_per_hand: f64,
    ci95: f64,
    decisions: u64,
    decisions_per_s: f64,
    elapsed_p99_decision_us: f64,
}

/// The whole report.
#[derive(Debug, Serialize)]
struct Report {
    ruleset: String,
    seed: u64,
    hands: u64,
    /// Tables the run was cut into (`--table-hands` each).
    tables: u64,
    seats: Vec<String>,
    levels: Vec<LevelReport>,
    elapsed_s: f64,
    hands_per_s: f64,
}

#[derive(Default)]
struct Tally {
    wins: u64,
    deal_ins: u64,
    decisions: u64,
    decide_ns: u128,
    latencies: Vec<u32>,
    /// Per hand: the mean score of this level's seats.
    per_hand: Vec<f64>,
}

impl Tally {
    /// Adds a later table's tally (its hands after ours, so sample order is table order).
    fn append(&mut self, mut o: Tally) {
        self.wins += o.wins;
        self.deal_ins += o.deal_ins;
        self.decisions += o.decisions;
        self.decide_ns += o.decide_ns;
        self.latencies.append(&mut o.latencies);
        self.per_hand.append(&mut o.per_hand);
    }
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let ruleset = crate::play::ruleset(&args.ruleset, &args.options)?;
    let id = ruleset.id();
    let players = usize::from(ruleset.flow().players);
    let lineup: Vec<Level> = args
        .seats
        .split(',')
        .map(|s| s.trim().parse::<Level>())
        .collect::<Result<_, _>>()?;
    anyhow::ensure!(
        lineup.len() == players,
        "--seats names {} policies; `{id}` is played by {players}",
        lineup.len()
    );
    let mut levels: Vec<Level> = lineup.clone();
    levels.sort();
    levels.dedup();
    let arena = Arena {
        ruleset: &ruleset,
        lineup: &lineup,
        levels: &levels,
        seed: args.seed,
    };
    let start = Instant::now();
    let tables = args.parallel.run(args.hands, |part| arena.play(part))?;
    let elapsed = start.elapsed().as_secs_f64();
    let mut tallies: Vec<Tally> = levels.iter().map(|_| Tally::default()).collect();
    for table in tables {
        for (total, t) in tallies.iter_mut().zip(table) {
            total.append(t);
        }
    }
    let reports = levels
        .iter()
        .zip(tallies.iter_mut())
        .map(|(&level, t)| {
            level_report(
                level,
                lineup.iter().filter(|&&l| l == level).count(),
                args.hands,
                t,
            )
        })
        .collect();
    let report = Report {
        ruleset: id.to_string(),
        seed: args.seed,
        hands: args.hands,
        tables: args.parallel.parts(args.hands).len() as u64,
        seats: lineup.iter().map(ToString::to_string).collect(),
        levels: reports,
        elapsed_s: elapsed,
        hands_per_s: if elapsed > 0.0 {
            args.hands as f64 / elapsed
        } else {
            0.0
        },
    };
    print_report(&report, args.parallel.threads(), args.json)
}

/// What every table of a run shares.
struct Arena<'a> {
    ruleset: &'a Ruleset,
    lineup: &'a [Level],
    /// The distinct levels, in order: the tallies' order.
    levels: &'a [Level],
    seed: u64,
}

impl Arena<'_> {
    /// Plays one table's hands; one tally per level.
    fn play(&self, part: &Part) -> anyhow::Result<Vec<Tally>> {
        let players = self.lineup.len();
        let slot = |l: Level| self.levels.iter().position(|&x| x == l).unwrap_or(0);
        let mut tallies: Vec<Tally> = self.levels.iter().map(|_| Tally::default()).collect();
        let table_seed = part.table_seed(self.seed);
        let mut table = Table::new(self.ruleset.clone(), table_seed);
        let mut rng = SeededRng::new(table_seed ^ 0xA7E7A);
        for hand in part.hands.clone() {
            // Policy i sits at seat (i + hand) mod players.
            let at = |seat: Seat| {
                self.lineup[(seat.index() + players - (hand as usize % players)) % players]
            };
            let mut game = table.deal(hand_seed(self.seed, hand));
            crate::play::play_hand(&mut game, |seat, view| {
                let level = at(seat);
                let t0 = Instant::now();
                let action = level.policy().decide(view, &view.legal, &mut rng);
                let ns = t0.elapsed().as_nanos();
                let tally = &mut tallies[slot(level)];
                tally.decisions += 1;
                tally.decide_ns += ns;
                tally.latencies.push(ns.min(u128::from(u32::MAX)) as u32);
                action
            })
            .with_context(|| format!("hand {hand}"))?;
            let settlement = table.finish(&game)?;
            for w in game.wins() {
                tallies[slot(at(w.seat))].wins += 1;
                if let Some(from) = w.from {
                    tallies[slot(at(from))].deal_ins += 1;
                }
            }
            for (i, &level) in self.levels.iter().enumerate() {
                let seats: Vec<Seat> = game.table_seats().filter(|&s| at(s) == level).collect();
                let sum: i64 = seats.iter().map(|&s| settlement.deltas[s]).sum();
                tallies[i]
                    .per_hand
                    .push(sum as f64 / seats.len().max(1) as f64);
            }
        }
        Ok(tallies)
    }
}

fn level_report(level: Level, seats: usize, hands: u64, t: &mut Tally) -> LevelReport {
    let n = t.per_hand.len().max(1) as f64;
    let mean = t.per_hand.iter().sum::<f64>() / n;
    let var = t.per_hand.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let seat_hands = hands * seats as u64;
    t.latencies.sort_unstable();
    let p99 = t
        .latencies
        .get((t.latencies.len() as f64 * 0.99) as usize)
        .or(t.latencies.last())
        .copied()
        .unwrap_or(0);
    let secs = t.decide_ns as f64 / 1e9;
    LevelReport {
        level: level.to_string(),
        seats,
        seat_hands,
        wins: t.wins,
        win_rate: t.wins as f64 / seat_hands.max(1) as f64,
        deal_ins: t.deal_ins,
        deal_in_rate: t.deal_ins as f64 / seat_hands.max(1) as f64,
        mean_score_per_hand: mean,
        ci95: 1.96 * (var / n).sqrt(),
        decisions: t.decisions,
        decisions_per_s: if secs > 0.0 {
            t.decisions as f64 / secs
        } else {
            0.0
        },
        elapsed_p99_decision_us: f64::from(p99) / 1000.0,
    }
}

fn print_report(r: &Report, threads: usize, json: bool) -> anyhow::Result<()> {
    println!(
        "ruleset {}  seed {}  hands {}  seats {}  tables {}  threads {threads}",
        r.ruleset,
        r.seed,
        r.hands,
        r.seats.join(","),
        r.tables
    );
    for l in &r.levels {
        println!(
            "{:<7} seats {}  win {:.3}  deal-in {:.3}  score/hand {:+.3} ± {:.3}  {:.0} decisions/s  p99 {:.1} µs",
            l.level,
            l.seats,
            l.win_rate,
            l.deal_in_rate,
            l.mean_score_per_hand,
            l.ci95,
            l.decisions_per_s,
            l.elapsed_p99_decision_us
        );
    }
    println!("{:.0} hands/s ({:.1} s)", r.hands_per_s, r.elapsed_s);
    if json {
        println!("{}", serde_json::to_string(r)?);
    }
    Ok(())
}
