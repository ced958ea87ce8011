//! JSON Lines in, one result line per input line out, in order: the loop `settle` and `score`
//! share. A line that is not UTF-8 is answered with an error line and the run goes on.

use std::fs::File;
use std::io::{ErrorKind, Read, Write};
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
    /// Answers serialized by serde_json.
    struct Serialized<F>(F);
    impl<T: Serialize, F: Fn(&str) -> T> Answers for Serialized<F> {
        fn answer(&mut self, line: &str, out: &mut Vec<u8>) -> serde_json::Result<()> {
            serde_json::to_writer(out, &(self.0)(line))
        }
    }
    run_json(files, &mut Serialized(answer), not_utf8)
}

/// How a command answers its lines, each written as JSON by the command itself (`score` writes
/// its answers straight into bytes).
pub trait Answers {
    /// Answers a line from its bytes (the newline left out) if it can without their being
    /// checked as UTF-8 first (a reader that takes only UTF-8); `None`, with nothing written,
    /// for a line it does not answer so, which is then checked and given to
    /// [`Answers::answer`].
    fn read(&mut self, _line: &[u8], _out: &mut Vec<u8>) -> Option<serde_json::Result<()>> {
        None
    }

    /// Answers a line of text that is not blank (the newline left out).
    fn answer(&mut self, line: &str, out: &mut Vec<u8>) -> serde_json::Result<()>;
}

/// [`run`] with the answers written by `answers`.
pub fn run_json<T: Serialize>(
    files: &Files,
    answers: &mut impl Answers,
    not_utf8: impl Fn(usize, std::str::Utf8Error) -> T,
) -> anyhow::Result<()> {
    let mut input: Box<dyn Read> = match &files.input {
        Some(p) if p.as_os_str() != "-" => {
            Box::new(File::open(p).with_context(|| format!("cannot open {}", p.display()))?)
        }
        _ => Box::new(std::io::stdin().lock()),
    };
    let mut out: Box<dyn Write> = match &files.output {
        Some(p) => {
            Box::new(File::create(p).with_context(|| format!("cannot create {}", p.display()))?)
        }
        None => Box::new(std::io::stdout().lock()),
    };
    // The answers not written yet, each written straight into it.
    let mut pending = Vec::with_capacity(CHUNK + CHUNK / 2);
    let result = for_each_line(&mut *input, |n, raw| {
        match answers.read(without_newline(raw), &mut pending) {
            Some(written) => written?,
            None => match std::str::from_utf8(raw) {
                Ok(line) if line.trim().is_empty() => return Ok(()),
                Ok(line) => answers.answer(line.trim_end_matches(['\r', '\n']), &mut pending)?,
                Err(e) => serde_json::to_writer(&mut pending, &not_utf8(n, e))?,
            },
        }
        pending.push(b'\n');
        if pending.len() >= CHUNK {
            out.write_all(&pending)?;
            pending.clear();
        }
        Ok(())
    });
    // The answers before a failure are written too.
    out.write_all(&pending)?;
    out.flush()?;
    result
}

/// `raw` without its newline and the carriage returns before it.
fn without_newline(raw: &[u8]) -> &[u8] {
    let mut line = raw;
    while let [rest @ .., b'\r' | b'\n'] = line {
        line = rest;
    }
    line
}

/// Calls `each` on every line of `input` with its number (from 1) and its bytes, newline
/// included (a last line without one is given without). Lines are found in a buffer read a
/// chunk at a time, without being copied.
fn for_each_line(
    input: &mut dyn Read,
    mut each: impl FnMut(usize, &[u8]) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut buf = vec![0u8; CHUNK];
    // The bytes read but not yet given: `buf[start..end]`, a part of a line.
    let (mut start, mut end) = (0, 0);
    let mut n = 0;
    loop {
        while let Some(at) = memchr::memchr(b'\n', &buf[start..end]) {
            n += 1;
            each(n, &buf[start..=start + at])?;
            start += at + 1;
        }
        buf.copy_within(start..end, 0);
        end -= start;
        start = 0;
        if end == buf.len() {
            buf.resize(2 * buf.len(), 0);
        }
        let read = loop {
            match input.read(&mut buf[end..]) {
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                r => break r.with_context(|| format!("cannot read line {}", n + 1))?,
            }
        };
        if read == 0 {
            if end > 0 {
                each(n + 1, &buf[..end])?;
            }
            return Ok(());
        }
        end += read;
    }
}
