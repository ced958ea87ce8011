//! The hand-written reading and writing of score lines against the path every line took before
//! them ([`read_whole`]: serde_json reads the line whole as a [`ScoreInput`], and serde_json
//! writes the [`ScoreOutput`]): the answers must be the same bytes, errors included.

use super::*;
use crate::wall::SeededRng;

/// The bytes of the whole reading's answer.
fn want(line: &str) -> String {
    serde_json::to_string(&read_whole(line)).expect("an answer serializes")
}

/// `score_text`, `score_json` and `scorer` (whose layout and patterns come from the lines before)
/// answer `line` with the bytes of the whole reading.
fn check(scorer: &mut ScoreLines, line: &str) {
    let want = want(line);
    let got = serde_json::to_string(&score_text(line)).expect("an answer serializes");
    assert_eq!(got, want, "score_text: {line}");
    let mut alone = Vec::new();
    score_json(line, &mut alone).expect("an answer is written");
    assert_eq!(String::from_utf8_lossy(&alone), want, "score_json: {line}");
    let mut bytes = Vec::new();
    scorer
        .answer(line, &mut bytes)
        .expect("an answer is written");
    assert_eq!(String::from_utf8_lossy(&bytes), want, "ScoreLines: {line}");
}

/// The file's non-blank lines, from the repository's root.
fn lines_of(path: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    let text = std::fs::read_to_string(&path).expect("a test file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

fn golden() -> Vec<String> {
    lines_of("conformance/mcr/golden_public.jsonl")
}

#[test]
fn odd_lines_are_answered_as_read_whole() {
    let hand =
        r#""concealed": "123456789m234p5s", "win_tile": "5s", "seat_wind": "E", "round_wind": "S""#;
    let mut scorer = ScoreLines::default();
    for id in [
        "7",
        "-3",
        "9223372036854775807",
        "9223372036854775808",
        "1.5",
        "\"a\"",
        "\"a\\\"b\"",
        "\"\\u0031\"",
        "null",
        "[1]",
        "{}",
        "true",
    ] {
        check(&mut scorer, &format!("{{\"id\": {id}, {hand}}}"));
    }
    for line in [
        format!("{{\"id\": 1, {hand}, \"fans\": [{{\"name_zh\": \"x\"}}], \"total\": 3}}"),
        format!("{{\"id\": 1, {hand}, \"flowers\": 9}}"),
        format!("{{\"id\": 1, {hand}, \"id\": 2}}"),
        format!("{{\"id\": 1, {hand}}} trailing"),
        r#"{"id": 2, "concealed": "\u0031\u0032\u0033m456789m234p5s", "win_tile": "5s", "seat_wind": "E", "round_wind": "S"}"#.to_owned(),
        r#"{"id": 3, "concealed": "1m", "win_tile": "1m", "seat_wind": "E", "round_wind": "E"}"#.to_owned(),
        r#"{"id": 4, "concealed": "5p", "melds": [{"kind": "chow", "tiles": "234s"}, {"kind": "pung", "tiles": "555m"}, {"kind": "chow", "tiles": "234s"}, {"kind": "chow", "tiles": "234s", "concealed": false}], "win_tile": "5p", "self_drawn": true, "seat_wind": "N", "round_wind": "W"}"#.to_owned(),
        r#"{"id": 5, "concealed": "5p", "melds": [{"kind": "chow", "tiles": "234s", "from": 1}], "win_tile": "5p", "seat_wind": "N", "round_wind": "W"}"#.to_owned(),
        r#"{"id": 6, "concealed": "12x", "win_tile": "5p", "seat_wind": "N", "round_wind": "W"}"#.to_owned(),
        r#"{"id": 7, "concealed": "", "win_tile": "5p", "seat_wind": "Q", "round_wind": "W"}"#.to_owned(),
        r#"{"concealed": "1m", "win_tile": "1m", "seat_wind": "E", "round_wind": "E"}"#.to_owned(),
        "not json".to_owned(),
        "{}".to_owned(),
    ] {
        check(&mut scorer, &line);
    }
    for line in lines_of("crates/cli/tests/score/odd.jsonl") {
        check(&mut scorer, &line);
    }
}

#[test]
fn golden_lines_are_answered_as_read_whole() {
    let mut scorer = ScoreLines::default();
    for line in golden() {
        check(&mut scorer, &line);
    }
}

/// What a mutation may put into a line: JSON's structure, digits, letters, escapes, spacing,
/// control and non-ASCII characters.
const PIECES: [&str; 24] = [
    "\"", "{", "}", "[", "]", ",", ":", "\\", "\\\"", "0", "7", "-", ".", "e", "true", "null", " ",
    "\t", "\r", "\u{1}", "x", "三", "\u{feff}", "1z",
];

/// `line` with one random edit: a character removed, replaced or inserted, a stretch repeated,
/// or the spacing changed everywhere.
fn mutate(line: &str, rng: &mut SeededRng) -> String {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let pick = |rng: &mut SeededRng| chars[rng.below(chars.len() as u32) as usize].0;
    let piece = PIECES[rng.below(PIECES.len() as u32) as usize];
    let at = pick(rng);
    let next = line[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    match rng.below(6) {
        0 => format!("{}{}", &line[..at], &line[next..]),
        1 => format!("{}{piece}{}", &line[..at], &line[next..]),
        2 => format!("{}{piece}{}", &line[..at], &line[at..]),
        3 => {
            let (a, b) = (at.min(pick(rng)), at.max(pick(rng)));
            format!("{}{}", &line[..b], &line[a..])
        }
        4 => line.replace(", ", ","),
        _ => line.replace(": ", ":").replacen(", ", " ,  ", 3),
    }
}

/// Golden lines with random edits, in turn with unedited ones (so that the scorer's layout and
/// patterns come and go), answered as read whole. `MAHJONG_TEST_QUICK` takes one line in ten.
#[test]
fn edited_lines_are_answered_as_read_whole() {
    let quick = std::env::var_os("MAHJONG_TEST_QUICK").is_some_and(|v| !v.is_empty() && v != "0");
    let mut rng = SeededRng::new(30);
    let mut scorer = ScoreLines::default();
    let mut read = 0;
    for (n, line) in golden().iter().enumerate() {
        if quick && n % 10 != 0 {
            continue;
        }
        check(&mut scorer, line);
        for _ in 0..3 {
            let edited = mutate(line, &mut rng);
            let twice = mutate(&edited, &mut rng);
            for l in [edited, twice] {
                read += usize::from(want(&l).contains("\"fans\""));
                check(&mut scorer, &l);
            }
        }
    }
    // Edits that keep a line scored: the scorer's own reading was tried, not only refusals.
    assert!(read > 100, "{read} edited lines scored");
}
