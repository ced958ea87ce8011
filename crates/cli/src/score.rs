//! `mahjong score --ruleset guobiao`: Guobiao winning hands in the JSON Lines format of
//! `conformance/mcr/README.md`; per line, the fans (Chinese and English names, value,
//! count), the total and whether the hand reaches the 8-fan minimum.

use engine::format::{ScoreLines, ScoreOutput};

use crate::lines::{self, Files};

/// Arguments of `mahjong score`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ruleset whose fan table scores the hands (`guobiao`).
    #[arg(long, default_value = "guobiao")]
    ruleset: String,
    #[command(flatten)]
    files: Files,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    if args.ruleset != "guobiao" {
        anyhow::bail!(
            "`score` scores single hands with the Guobiao table (`--ruleset guobiao`); \
             `{}` hands are settled whole with `mahjong settle`",
            args.ruleset
        );
    }
    let mut scorer = ScoreLines::default();
    lines::run_json(
        &args.files,
        |line, out| scorer.answer(line, out),
        |n, e| ScoreOutput::refused(None, "bad_json", format!("line {n} is not UTF-8: {e}")),
    )
}
