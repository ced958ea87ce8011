//! What the command-line tests share: the binary under test, and a run of it fed from stdin.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The `mahjong` binary this test run built.
pub fn mahjong() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mahjong"))
}

/// Runs `mahjong args…` with `input` on its stdin, and waits for it. The input is fed from a
/// thread: a large one would otherwise fill the pipes both ways and block.
pub fn run_piped(args: &[&str], input: &[u8]) -> Output {
    let mut child = mahjong()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mahjong runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("finishes");
    feeder.join().expect("feeder").expect("writes");
    out
}
