//! JSON Lines in, one result line per input line out, in order: the loop `settle` and `score`
//! share. A line that is not UTF-8 is answered with an error line and the run goes on.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

use anyhow::Context;
use serde::Serialize;

/// Where the lines come from and go.
#[derive(clap::Args, Debug)]
pub struct Files {
    /// Input file (JSON Lines); standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// Output file; standard output when absent.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// How much input is read, and output gathered before it is written, at a time.
const CHUNK: usize = 64 * 1024;

/// Answers every non-blank line with `answer`, and a line that is not UTF-8 with `not_utf8`
/// (given the line number and the decoding error).
pub fn run<T: Serialize>(
    files: &Files,
    answer: impl Fn(&str) -> T,
    not_utf8: impl Fn(usize, std::str::Utf8Error) -> T,
) -> anyhow::Result<()> {
    run_json(
        files,
        |line, out| serde_json::to_writer(out, &answer(line)),
        not_utf8,
    )
}

/// [`run`] with `answer` writing each line's JSON itself into a buffer (for `score`, which
/// writes its answers straight into bytes).
pub fn run_json<T: Serialize>(
    files: &Files,
    mut answer: impl FnMut(&str, &mut Vec<u8>) -> serde_json::Result<()>,
    not_utf8: impl Fn(usize, std::str::Utf8Error) -> T,
) -> anyhow::Result<()> {
    let mut input: Box<dyn BufRead> = match &files.input {
        Some(p) if p.as_os_str() != "-" => Box::new(BufReader::with_capacity(
            CHUNK,
            File::open(p).with_context(|| format!("cannot open {}", p.display()))?,
        )),
        _ => Box::new(BufReader::with_capacity(CHUNK, std::io::stdin().lock())),
    };
    let out: Box<dyn Write> = match &files.output {
        Some(p) => {
            Box::new(File::create(p).with_context(|| format!("cannot create {}", p.display()))?)
        }
        None => Box::new(std::io::stdout().lock()),
    };
    let mut out = BufWriter::with_capacity(CHUNK, out);
    // One line in, its answer out: both buffers reused from line to line.
    let mut raw = Vec::new();
    let mut answered = Vec::new();
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
        answered.clear();
        match std::str::from_utf8(&raw) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => answer(line.trim_end_matches(['\r', '\n']), &mut answered)?,
            Err(e) => serde_json::to_writer(&mut answered, &not_utf8(n, e))?,
        }
        answered.push(b'\n');
        out.write_all(&answered)?;
    }
    out.flush()?;
    Ok(())
}
