//! The `settle` vectors of `shared/conformance/<ruleset>/*.jsonl`, read in place, and the
//! repository's own vectors in `tests/vectors/` (presets the shared folder does not cover yet).
//!
//! Every `NAME.jsonl` with a `NAME.expected.jsonl` beside it in a directory of an implemented
//! ruleset is checked line by line: the deltas must match exactly, and an expected `error` must
//! be an error. Held-out files in the same layout are picked up without any change here.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use engine::format::{SettleInput, SettleOutput, settle_line};
use engine::ruleset::RulesetId;
use serde_json::Value;

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance")
}

/// One `check` per vector file pair.
fn check(input: &Path, expected: &Path) -> usize {
    let text = fs::read_to_string(input).expect("readable vector file");
    let want: HashMap<String, Value> = fs::read_to_string(expected)
        .expect("readable expected file")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("expected line is JSON");
            (v["id"].to_string(), v)
        })
        .collect();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let parsed: SettleInput = serde_json::from_str(line).expect("vector line parses");
        let id = serde_json::to_value(&parsed.id).expect("id").to_string();
        let exp = want
            .get(&id)
            .unwrap_or_else(|| panic!("{}: no expected line for {id}", input.display()));
        let got = serde_json::to_value(settle_line(&parsed)).expect("output serializes");
        if exp.get("error").is_some() {
            assert!(
                got.get("error").is_some(),
                "{id}: expected an error, got {got}"
            );
        } else {
            assert_eq!(
                got.get("deltas"),
                exp.get("deltas"),
                "{id}: {got}\nexpected {exp}"
            );
            // Item names are the family's to choose; the winners and their totals must agree.
            if let Some(fans) = exp.get("fans") {
                let totals = |v: &Value| -> Vec<(Value, Value)> {
                    v.as_array()
                        .map(|a| {
                            a.iter()
                                .map(|f| (f["seat"].clone(), f["total"].clone()))
                                .collect()
                        })
                        .unwrap_or_default()
                };
                assert_eq!(
                    totals(&got["fans"]),
                    totals(fans),
                    "{id}: fan totals differ"
                );
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn settle_vectors_of_implemented_rulesets() {
    let dir = conformance_dir();
    let mut total = 0;
    let mut rulesets = 0;
    for entry in fs::read_dir(&dir).expect("shared/conformance exists next to the repository") {
        let path = entry.expect("dir entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        // Only directories named after a ruleset this build implements (the Sichuan
        // presets share the `sichuan*` directories).
        let implemented = name.parse::<RulesetId>().is_ok();
        if !path.is_dir() || !implemented {
            continue;
        }
        rulesets += 1;
        total += check_dir(&path, false);
    }
    assert!(
        rulesets >= 2,
        "found {rulesets} implemented ruleset directories in {}",
        dir.display()
    );
    assert!(total >= 5, "only {total} vectors checked");
}

#[test]
fn settle_vectors_kept_in_the_repository() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    let total = check_dir(&dir, true);
    assert!(total >= 10, "only {total} vectors checked");
}

/// Checks every `X.jsonl` of `dir` against its `X.expected.jsonl` (skipped when absent, unless
/// `require_expected`); returns the vectors checked.
fn check_dir(dir: &Path, require_expected: bool) -> usize {
    let mut total = 0;
    for file in fs::read_dir(dir).expect("a vectors directory") {
        let file = file.expect("entry").path();
        let fname = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if !fname.ends_with(".jsonl") || fname.ends_with(".expected.jsonl") {
            continue;
        }
        let expected = file.with_file_name(fname.replace(".jsonl", ".expected.jsonl"));
        if require_expected || expected.exists() {
            total += check(&file, &expected);
        }
    }
    total
}

#[test]
fn refusals_name_the_problem() {
    let cases = [
        (
            r#"{"id":"a","ruleset":"nope","dealer":0,"seats":[]}"#,
            "unknown_ruleset",
        ),
        (
            r#"{"id":"b","ruleset":"sichuan","options":{"colour":1},"dealer":0,"seats":[{},{},{},{}]}"#,
            "bad_option",
        ),
        (
            r#"{"id":"c","ruleset":"sichuan","dealer":0,"seats":[{"concealed":"12x"},{},{},{}]}"#,
            "bad_tiles",
        ),
        (
            r#"{"id":"d","ruleset":"sichuan","dealer":0,"seats":[{},{},{}]}"#,
            "bad_input",
        ),
        // Three suits: not 缺一门.
        (
            r#"{"id":"e","ruleset":"sichuan","dealer":0,"seats":[{"concealed":"123m456p789s1122s"},{},{},{}],"wins":[{"seat":0,"tile":"1s","from":1}]}"#,
            "not_a_win",
        ),
        // Five copies of 1m.
        (
            r#"{"id":"f","ruleset":"sichuan","dealer":0,"seats":[{"concealed":"111m"},{"concealed":"11m"},{},{}]}"#,
            "illegal_hand",
        ),
    ];
    for (line, code) in cases {
        let input: SettleInput = serde_json::from_str(line).expect("parses");
        match settle_line(&input) {
            SettleOutput::Refused { error, .. } => {
                assert_eq!(error.code, code, "{line}: {}", error.message)
            }
            other => panic!("{line}: expected {code}, got {other:?}"),
        }
    }
}
