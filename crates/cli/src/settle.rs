//! `mahjong settle`: one result line per input line, errors included, in input order.

use engine::format::SettleOutput;

use crate::lines::{self, Files};

/// Arguments of `mahjong settle`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    files: Files,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    lines::run(&args.files, engine::format::settle_text, |n, e| {
        SettleOutput::refused(None, "bad_json", format!("line {n} is not UTF-8: {e}"))
    })
}
