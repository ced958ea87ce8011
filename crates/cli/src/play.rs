//! What `simulate` and `arena` share: reading the ruleset arguments and playing a hand through.

use anyhow::Context;
use engine::ruleset::{RawOptions, Ruleset};
use engine::view::SeatView;
use engine::{Action, Game, Seat};

/// The ruleset of `--ruleset` and `--options` (a JSON object).
pub fn ruleset(id: &str, options: &str) -> anyhow::Result<Ruleset> {
    let options: RawOptions =
        serde_json::from_str(options).context("--options must be a JSON object")?;
    Ok(Ruleset::new(id.parse()?, &options)?)
}

/// Plays `game` to its end, asking `decide` for every seat with a decision, in seat order.
pub fn play_hand(
    game: &mut Game,
    mut decide: impl FnMut(Seat, &SeatView) -> Action,
) -> anyhow::Result<()> {
    let mut guard = 0u32;
    while !game.is_over() {
        guard += 1;
        anyhow::ensure!(guard < 10_000, "hand did not end after 10000 decisions");
        for seat in game.table_seats().collect::<Vec<Seat>>() {
            if game.legal_actions(seat).is_empty() {
                continue;
            }
            let view = game.view(seat);
            let action = decide(seat, &view);
            game.apply(seat, action)
                .with_context(|| format!("seat {seat}'s policy chose an illegal action"))?;
            if game.is_over() {
                break;
            }
        }
    }
    if let Some(e) = game.settle_error() {
        anyhow::bail!("settlement failed: {e}");
    }
    Ok(())
}
