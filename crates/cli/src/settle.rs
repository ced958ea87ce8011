//! `mahjong settle`: one result line per input line, errors included, in input order.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

use anyhow::Context;
use engine::format::SettleOutput;

/// Arguments of `mahjong settle`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input file (JSON Lines); standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// Output file; standard output when absent.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let input: Box<dyn BufRead> = match &args.input {
        Some(p) if p.as_os_str() != "-" => Box::new(BufReader::new(
            File::open(p).with_context(|| format!("cannot open {}", p.display()))?,
        )),
        _ => Box::new(BufReader::new(std::io::stdin())),
    };
    let out: Box<dyn Write> = match &args.output {
        Some(p) => {
            Box::new(File::create(p).with_context(|| format!("cannot create {}", p.display()))?)
        }
        None => Box::new(std::io::stdout()),
    };
    let mut out = BufWriter::new(out);
    let mut input = input;
    let mut raw = Vec::new();
    let mut n = 0usize;
    loop {
        raw.clear();
        let read = input
            .read_until(b'\n', &mut raw)
            .with_context(|| format!("cannot read line {}", n + 1))?;
        if read == 0 {
            break;
        }
        n += 1;
        // A line that is not UTF-8 is answered with an error line; the run goes on.
        let result = match std::str::from_utf8(&raw) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => settle_text(line.trim_end_matches(['\r', '\n'])),
            Err(e) => {
                SettleOutput::refused(None, "bad_json", format!("line {n} is not UTF-8: {e}"))
            }
        };
        serde_json::to_writer(&mut out, &result)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// Settles one line of text (see [`engine::format::settle_text`]).
pub fn settle_text(line: &str) -> SettleOutput {
    engine::format::settle_text(line)
}
