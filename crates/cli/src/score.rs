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
    lines::run_json(&args.files, &mut Scorer::default(), |n, e| {
        ScoreOutput::refused(None, "bad_json", format!("line {n} is not UTF-8: {e}"))
    })
}

/// The command's answers: one [`ScoreLines`] for the run, which reads most lines from their
/// bytes (a line it reads is UTF-8) and keeps their layout from line to line.
#[derive(Default)]
struct Scorer(ScoreLines);

impl lines::Answers for Scorer {
    fn read(&mut self, line: &[u8], out: &mut Vec<u8>) -> Option<serde_json::Result<()>> {
        self.0.answer_read(line, out)
    }

    fn answer(&mut self, line: &str, out: &mut Vec<u8>) -> serde_json::Result<()> {
        self.0.answer(line, out)
    }
}
