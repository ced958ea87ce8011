//! `mahjong replay`: plays a hand record again and prints the settlement it reaches.

use std::path::PathBuf;

use anyhow::Context;
use engine::record::{HandRecord, TableRecord};
use engine::stored::{Document, StoredHandRecord, StoredTableRecord};

/// Arguments of `mahjong replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A hand record or a table record (JSON), as written by `mahjong simulate --record` or
    /// `--table-record`.
    #[arg(value_name = "FILE")]
    record: PathBuf,
    /// Print the finished hand of a hand record as a `settle` line (conformance/README.md)
    /// instead of its summary: what a club keeps of a disputed hand, and `mahjong settle` reads.
    #[arg(long)]
    settle_line: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.record)
        .with_context(|| format!("cannot read {}", args.record.display()))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not JSON", args.record.display()))?;
    // A table record is told by its `hands`; anything else must be a hand record.
    if value.get("hands").is_some() {
        return replay_table(&value);
    }
    let stored = StoredHandRecord::read(&value)
        .context("neither a table record (it has no `hands`) nor a hand record")?;
    let record = HandRecord::try_from(&stored)?;
    let game = record.replay()?;
    if args.settle_line {
        anyhow::ensure!(
            game.is_over(),
            "the record stops before the hand ends ({} actions)",
            record.actions.len()
        );
        let id = engine::format::serde_json_id::Id::Text(format!("seed-{}", record.seed));
        let line =
            engine::format::SettleInput::from_hand(id, game.ruleset(), &game.finished_hand());
        println!("{}", serde_json::to_string(&line)?);
        return Ok(());
    }
    match game.settlement() {
        Some(st) => {
            let players = usize::from(game.players());
            let deltas: Vec<i64> = st.deltas.0.iter().take(players).copied().collect();
            let wins: Vec<String> = game
                .wins()
                .iter()
                .map(|w| match w.from {
                    Some(f) => format!("seat {} wins on {} from seat {f}", w.seat, w.tile),
                    None => format!("seat {} self-draws {}", w.seat, w.tile),
                })
                .collect();
            println!(
                "{}",
                serde_json::json!({
                    "ruleset": record.ruleset,
                    "seed": record.seed,
                    "actions": record.actions.len(),
                    "wins": wins,
                    "deltas": deltas,
                })
            );
            Ok(())
        }
        None => anyhow::bail!(
            "the record stops before the hand ends ({} actions)",
            record.actions.len()
        ),
    }
}

/// Replays a table record and prints where the table stood after its last hand.
fn replay_table(value: &serde_json::Value) -> anyhow::Result<()> {
    let stored = StoredTableRecord::read(value)?;
    let table = TableRecord::try_from(&stored)?;
    let replayed = table.replay()?;
    let state = replayed.state();
    // Only the seats at the table (two in `two-player`).
    let players = usize::from(replayed.ruleset().flow().players);
    let scores: Vec<i64> = state.scores.0.iter().take(players).copied().collect();
    println!(
        "{}",
        serde_json::json!({
            "ruleset": table.ruleset,
            "seed": table.seed,
            "hands": state.hands_played,
            "scores": scores,
            "next_dealer": state.dealer,
        })
    );
    Ok(())
}
