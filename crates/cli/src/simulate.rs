//! `mahjong simulate`: self-play with the greedy policy; speed and outcome statistics.
//!
//! Everything but the `elapsed_*` and `*_per_s` fields depends only on the arguments, so two
//! runs with one seed print the same statistics.

use std::time::Instant;

use bot::Level;
use engine::record::HandRecord;
use engine::stored::{Document, StoredHandRecord, StoredTableRecord};
use engine::wall::SeededRng;
use engine::{Game, Table};
use serde::Serialize;

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
    /// Write the record of the whole table (every hand) to this file (for `mahjong replay`).
    #[arg(long, value_name = "FILE")]
    table_record: Option<std::path::PathBuf>,
}

/// Outcome statistics of a run.
#[derive(Debug, Default, Serialize)]
struct Stats {
    ruleset: String,
    seed: u64,
    hands: u64,
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
    mean_wins_per_hand: f64,
    mean_score_per_seat: Vec<f64>,
    final_scores: Vec<i64>,
    elapsed_s: f64,
    hands_per_s: f64,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let ruleset = crate::play::ruleset(&args.ruleset, &args.options)?;
    let id = ruleset.id();
    let mut table = Table::new(ruleset, args.seed);
    let policy = args.policy.parse::<Level>()?.policy();
    let mut rng = SeededRng::new(args.seed ^ 0xB07_5EED);
    let mut stats = Stats {
        ruleset: id.to_string(),
        seed: args.seed,
        ..Stats::default()
    };
    let mut last: Option<Game> = None;
    let start = Instant::now();
    for hand in 0..args.hands {
        let mut game = table.deal(hand_seed(args.seed, hand));
        crate::play::play_hand(&mut game, |_, view| {
            policy.decide(view, &view.legal, &mut rng)
        })?;
        table.finish(&game)?;
        count(&game, &mut stats);
        last = Some(game);
    }
    let elapsed = start.elapsed().as_secs_f64();
    let players = table.ruleset().rules().flow().players;
    stats.hands = args.hands;
    stats.final_scores = table
        .state()
        .scores
        .0
        .iter()
        .take(usize::from(players))
        .copied()
        .collect();
    let n = args.hands.max(1) as f64;
    stats.mean_score_per_seat = stats.final_scores.iter().map(|&s| s as f64 / n).collect();
    stats.mean_wins_per_hand = stats.wins as f64 / n;
    stats.elapsed_s = elapsed;
    stats.hands_per_s = if elapsed > 0.0 {
        args.hands as f64 / elapsed
    } else {
        0.0
    };
    if let (Some(path), Some(game)) = (&args.record, &last) {
        let record = StoredHandRecord::from(&HandRecord::of(game));
        std::fs::write(path, record.write_pretty()?)?;
    }
    if let Some(path) = &args.table_record {
        let record = StoredTableRecord::from(table.record());
        std::fs::write(path, record.write_string()?)?;
    }
    print_report(&stats, args.json)?;
    Ok(())
}

/// Each hand's seed, derived from the run seed (SplitMix64 step) so hands are independent.
pub(crate) fn hand_seed(seed: u64, hand: u64) -> u64 {
    let mut z = seed.wrapping_add(hand.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn count(game: &Game, s: &mut Stats) {
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

fn print_report(s: &Stats, json: bool) -> anyhow::Result<()> {
    println!("ruleset {}  seed {}  hands {}", s.ruleset, s.seed, s.hands);
    println!(
        "wins {} (self-draw {}, discard {}, robbed kong {}, on kong replacement {}); extra winners on one discard {}",
        s.wins,
        s.wins_self_draw,
        s.wins_discard,
        s.wins_robbed_kong,
        s.wins_kong_replacement,
        s.multi_win_discards
    );
    println!(
        "hands with a win {}, drawn hands {}, wall ran out {}",
        s.hands_with_win, s.drawn_hands, s.exhausted_hands
    );
    println!("mean score per seat per hand {:?}", s.mean_score_per_seat);
    println!("{:.0} hands/s ({:.3} s)", s.hands_per_s, s.elapsed_s);
    if json {
        println!("{}", serde_json::to_string(s)?);
    }
    Ok(())
}
