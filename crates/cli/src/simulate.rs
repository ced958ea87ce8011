//! `mahjong simulate`: self-play with the greedy policy; speed and outcome statistics.
//!
//! Everything but the `elapsed_*` and `*_per_s` fields depends only on the arguments (not on
//! `--threads`), so two runs with one seed print the same statistics.

use std::time::Instant;

use anyhow::Context;
use bot::Level;
use engine::record::HandRecord;
use engine::stored::{Document, StoredHandRecord, StoredTableRecord};
use engine::wall::SeededRng;
use engine::{Game, Ruleset, Table};
use serde::Serialize;

use crate::parallel::{Parallel, Part};

/// Arguments of `mahjong simulate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset preset id.
    #[arg(long)]
    ruleset: String,
    /// Hands to play.
    #[arg(long, default_value_t = 1000)]
    hands: u64,
    /// Seed of the whole run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Room options as a JSON object, e.g. '{"coefficient": 100}'.
    #[arg(long, default_value = "{}")]
    options: String,
    /// Print one JSON object as the last line.
    #[arg(long)]
    json: bool,
    /// The policy of all four seats: random, simple, basic or strong.
    #[arg(long, default_value = "simple")]
    policy: String,
    /// Write the record of the last hand to this file (for `mahjong replay`).
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
    /// Write the record of the whole table (every hand) to this file (for `mahjong replay`);
    /// the run must be one table (`--hands` at most `--table-hands`).
    #[arg(long, value_name = "FILE")]
    table_record: Option<std::path::PathBuf>,
    #[command(flatten)]
    parallel: Parallel,
}

/// Outcome statistics of a run.
#[derive(Debug, Default, Serialize)]
struct Stats {
    ruleset: String,
    seed: u64,
    hands: u64,
    /// Tables the run was cut into (`--table-hands` each).
    tables: u64,
    #[serde(flatten)]
    counts: Counts,
    mean_wins_per_hand: f64,
    mean_score_per_seat: Vec<f64>,
    /// Each seat's final score, summed over the run's tables.
    final_scores: Vec<i64>,
    elapsed_s: f64,
    hands_per_s: f64,
}

/// What the hands of a run came to, summed over its tables.
#[derive(Debug, Default, Serialize)]
struct Counts {
    actions: u64,
    wins: u64,
    wins_self_draw: u64,
    wins_discard: u64,
    wins_robbed_kong: u64,
    wins_kong_replacement: u64,
    multi_win_discards: u64,
    hands_with_win: u64,
    drawn_hands: u64,
    exhausted_hands: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.actions += o.actions;
        self.wins += o.wins;
        self.wins_self_draw += o.wins_self_draw;
        self.wins_discard += o.wins_discard;
        self.wins_robbed_kong += o.wins_robbed_kong;
        self.wins_kong_replacement += o.wins_kong_replacement;
        self.multi_win_discards += o.multi_win_discards;
        self.hands_with_win += o.hands_with_win;
        self.drawn_hands += o.drawn_hands;
        self.exhausted_hands += o.exhausted_hands;
    }
}

/// One table's share of a run.
struct Played {
    counts: Counts,
    scores: Vec<i64>,
    last: Option<Game>,
    table: Table,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let ruleset = crate::play::ruleset(&args.ruleset, &args.options)?;
    let id = ruleset.id();
    let policy = args.policy.parse::<Level>()?;
    let parts = args.parallel.parts(args.hands);
    anyhow::ensure!(
        args.table_record.is_none() || parts.len() == 1,
        "--table-record writes one table: the run of {} hands is cut into {} tables of \
         --table-hands; raise --table-hands to at least --hands",
        args.hands,
        parts.len()
    );
    let start = Instant::now();
    let played = args.parallel.run(args.hands, |part| {
        play_table(part, &ruleset, policy, args.seed)
    })?;
    let elapsed = start.elapsed().as_secs_f64();
    let players = usize::from(ruleset.flow().players);
    let mut stats = Stats {
        ruleset: id.to_string(),
        seed: args.seed,
        hands: args.hands,
        tables: parts.len() as u64,
        final_scores: vec![0; players],
        ..Stats::default()
    };
    for p in &played {
        stats.counts.add(&p.counts);
        for (total, s) in stats.final_scores.iter_mut().zip(&p.scores) {
            *total += s;
        }
    }
    let n = args.hands.max(1) as f64;
    stats.mean_score_per_seat = stats.final_scores.iter().map(|&s| s as f64 / n).collect();
    stats.mean_wins_per_hand = stats.counts.wins as f64 / n;
    stats.elapsed_s = elapsed;
    stats.hands_per_s = if elapsed > 0.0 {
        args.hands as f64 / elapsed
    } else {
        0.0
    };
    let last = played.last();
    if let (Some(path), Some(game)) = (&args.record, last.and_then(|p| p.last.as_ref())) {
        let record = StoredHandRecord::from(&HandRecord::of(game));
        std::fs::write(path, record.write_pretty()?)?;
    }
    if let (Some(path), Some(p)) = (&args.table_record, last) {
        let record = StoredTableRecord::from(p.table.record());
        std::fs::write(path, record.write_string()?)?;
    }
    print_report(&stats, args.parallel.threads(), args.json)?;
    Ok(())
}

/// Plays one table's hands with `level` in every seat.
fn play_table(part: &Part, ruleset: &Ruleset, level: Level, seed: u64) -> anyhow::Result<Played> {
    let table_seed = part.table_seed(seed);
    let mut table = Table::new(ruleset.clone(), table_seed);
    let policy = level.policy();
    let mut rng = SeededRng::new(table_seed ^ 0xB07_5EED);
    let mut counts = Counts::default();
    let mut last = None;
    for hand in part.hands.clone() {
        let mut game = table.deal(hand_seed(seed, hand));
        crate::play::play_hand(&mut game, |_, view| {
            policy.decide(view, &view.legal, &mut rng)
        })
        .with_context(|| format!("hand {hand}"))?;
        table.finish(&game)?;
        count(&game, &mut counts);
        last = Some(game);
    }
    let players = usize::from(ruleset.flow().players);
    let scores = table
        .state()
        .scores
        .0
        .iter()
        .take(players)
        .copied()
        .collect();
    Ok(Played {
        counts,
        scores,
        last,
        table,
    })
}

/// Each hand's seed, derived from the run seed (SplitMix64 step) so hands are independent.
pub(crate) fn hand_seed(seed: u64, hand: u64) -> u64 {
    let mut z = seed.wrapping_add(hand.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn count(game: &Game, s: &mut Counts) {
    s.actions += game.actions().len() as u64;
    let wins = game.wins();
    s.wins += wins.len() as u64;
    if wins.is_empty() {
        s.drawn_hands += 1;
    } else {
        s.hands_with_win += 1;
    }
    if game.is_exhausted() {
        s.exhausted_hands += 1;
    }
    for (i, w) in wins.iter().enumerate() {
        if w.from.is_none() {
            s.wins_self_draw += 1;
        } else {
            s.wins_discard += 1;
        }
        if w.flags.robbed_kong {
            s.wins_robbed_kong += 1;
        }
        if w.flags.kong_replacement {
            s.wins_kong_replacement += 1;
        }
        let shares_discard =
            i > 0 && w.from.is_some() && wins[i - 1].from == w.from && wins[i - 1].tile == w.tile;
        if shares_discard {
            s.multi_win_discards += 1;
        }
    }
}

fn print_report(s: &Stats, threads: usize, json: bool) -> anyhow::Result<()> {
    let c = &s.counts;
    println!(
        "ruleset {}  seed {}  hands {}  tables {}  threads {threads}",
        s.ruleset, s.seed, s.hands, s.tables
    );
    println!(
        "wins {} (self-draw {}, discard {}, robbed kong {}, on kong replacement {}); extra winners on one discard {}",
        c.wins,
        c.wins_self_draw,
        c.wins_discard,
        c.wins_robbed_kong,
        c.wins_kong_replacement,
        c.multi_win_discards
    );
    println!(
        "hands with a win {}, drawn hands {}, wall ran out {}",
        c.hands_with_win, c.drawn_hands, c.exhausted_hands
    );
    println!("mean score per seat per hand {:?}", s.mean_score_per_seat);
    println!("{:.0} hands/s ({:.3} s)", s.hands_per_s, s.elapsed_s);
    if json {
        println!("{}", serde_json::to_string(s)?);
    }
    Ok(())
}
