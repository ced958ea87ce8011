//! `mahjong score` byte for byte: its answers are those the format's serde reading and writing
//! give (the path every line took before the command read and wrote lines itself), and it finds
//! lines as it did.

use std::path::Path;

mod common;
use common::run_piped;

/// `mahjong score` writes, byte for byte, what the format's serde path gives: each golden hand
/// read as a `ScoreInput` and answered by `score_line`, serialized by serde_json; the odd lines of
/// tests/score/odd.jsonl (other layouts, escapes, every kind of error) as the command answered
/// them before it had a reader and writer of its own (odd.expected.jsonl, written by the binary
/// at `b9d62f2`); a line that is not UTF-8; and the golden hands again, after the odd lines.
#[test]
fn score_writes_the_bytes_of_the_serde_path() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let golden = std::fs::read_to_string(dir.join("../../conformance/mcr/golden_public.jsonl"))
        .expect("golden hands");
    let odd = std::fs::read(dir.join("tests/score/odd.jsonl")).expect("odd lines");
    let odd_answers =
        std::fs::read_to_string(dir.join("tests/score/odd.expected.jsonl")).expect("their answers");
    let mut input = golden.as_bytes().to_vec();
    input.extend_from_slice(&odd);
    input.extend_from_slice(b"{\"id\": \"x\xff\"}\n");
    input.extend_from_slice(golden.as_bytes());

    let mut want = String::new();
    let serde_path = |want: &mut String| {
        for line in golden.lines() {
            let hand: engine::format::ScoreInput = serde_json::from_str(line).expect("a hand");
            let answer = engine::format::score_line(&hand);
            want.push_str(&serde_json::to_string(&answer).expect("serializes"));
            want.push('\n');
        }
    };
    serde_path(&mut want);
    want.push_str(&odd_answers);
    want.push_str(concat!(
        r#"{"id":null,"error":{"code":"bad_json","message":"#,
        r#""line 3086 is not UTF-8: invalid utf-8 sequence of 1 bytes from index 9"}}"#,
        "\n"
    ));
    serde_path(&mut want);

    let out = run_bytes(&["score"], input);
    let (got, want) = (String::from_utf8_lossy(&out), want);
    if let Some((n, (g, w))) = got
        .lines()
        .zip(want.lines())
        .enumerate()
        .find(|(_, (g, w))| g != w)
    {
        panic!("answer {} differs:\n got {g}\nwant {w}", n + 1);
    }
    assert_eq!(got.len(), want.len(), "as many answers");
}

/// The line handling of `mahjong score`, as before it found lines itself: carriage returns,
/// a line longer than its 64 KiB buffer, blank lines (Unicode spaces too), a line cut inside a
/// character (the newline is the byte that breaks it), a last line without a newline.
#[test]
fn score_finds_lines_as_before() {
    let golden = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/mcr/golden_public.jsonl"),
    )
    .expect("golden hands");
    let hands: Vec<&str> = golden.lines().take(4).collect();
    let long = format!(
        "{}, \"note\": \"{}\"}}",
        hands[2].trim_end_matches('}'),
        "x".repeat(200_000)
    );
    let mut input = Vec::new();
    for part in [
        format!(
            "{}\r\n{}\r\r\n{long}\n   \n\u{3000}\n\n",
            hands[0], hands[1]
        )
        .as_bytes(),
        &hands[3].as_bytes()[..20],
        b"\xe4\n{\"id\": 5, \"x\": \"\xe4\xb8\"}\n",
        format!("{}\r", hands[3]).as_bytes(),
    ] {
        input.extend_from_slice(part);
    }
    let answer = |line: &str| {
        let hand: engine::format::ScoreInput = serde_json::from_str(line).expect("a hand");
        serde_json::to_string(&engine::format::score_line(&hand)).expect("serializes")
    };
    let not_utf8 = |n: usize, what: &str| {
        format!(
            r#"{{"id":null,"error":{{"code":"bad_json","message":"line {n} is not UTF-8: {what}"}}}}"#
        )
    };
    let want = [
        answer(hands[0]),
        answer(hands[1]),
        answer(&long),
        not_utf8(7, "invalid utf-8 sequence of 1 bytes from index 20"),
        not_utf8(8, "invalid utf-8 sequence of 2 bytes from index 16"),
        answer(hands[3]),
    ]
    .map(|l| l + "\n")
    .concat();
    assert_eq!(String::from_utf8_lossy(&run_bytes(&["score"], input)), want);
}

/// Runs the binary with `input` on stdin; its stdout. It must succeed.
fn run_bytes(args: &[&str], input: Vec<u8>) -> Vec<u8> {
    let out = run_piped(args, &input);
    assert!(out.status.success());
    out.stdout
}
