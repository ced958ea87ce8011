//! The conformance vectors: every file of the repository's `conformance/` folder, and of the
//! folder named by `MAHJONG_EXTRA_VECTORS` when it is set (held-out files in the same formats).
//!
//! Two formats, told apart by their files (`conformance/README.md`):
//! - `settle`: every `NAME.jsonl` has a `NAME.expected.jsonl` beside it, one expected line per
//!   input line by `id`. The deltas must match exactly, and each winner's fan total; an expected
//!   `error` must be a refusal, with the same `code` when the expected line names one.
//! - Guobiao golden hands (`score`): lines carrying `win_tile` and their expected `fans` and
//!   `total` in the line itself. Same fans by name, points and count, same total.
//!
//! Every settle line that settles also has its payments held against its deltas and lines
//! (`payments::problem`): the output format does not carry them, the engine's settlement does.
//!
//! A `.jsonl` file in neither format, an input line without an expected line or an expected line
//! without an input line fails the run, naming the file and line, so a vector cannot be skipped.

mod payments;
mod vector_files;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use engine::format::{SettleInput, SettleOutput, score_text, settle_line, settle_text};
use engine::ruleset::RulesetId;
use serde_json::Value;

/// The environment variable naming a folder of extra vector files.
const EXTRA: &str = "MAHJONG_EXTRA_VECTORS";

#[test]
fn every_repository_vector_holds_and_every_preset_has_some() {
    let report = check_folder(&vector_files::repository());
    report.assert_clean();
    let missing: Vec<&str> = RulesetId::ALL
        .iter()
        .map(|id| id.as_str())
        .filter(|id| !report.presets.contains(*id))
        .collect();
    assert!(
        missing.is_empty(),
        "presets without a settle vector in conformance/: {missing:?}"
    );
    assert!(
        report.golden_lines >= 3000,
        "only {} Guobiao golden hands",
        report.golden_lines
    );
    // Files as listed in conformance/README.md; a file dropped by mistake shows here.
    assert!(report.files >= 20, "only {} vector files", report.files);
}

#[test]
fn extra_vectors_hold() {
    let Some(dir) = std::env::var_os(EXTRA) else {
        eprintln!("{EXTRA} is not set: only the repository's vectors were checked");
        return;
    };
    let dir = PathBuf::from(dir);
    assert!(dir.is_dir(), "{EXTRA}={} is not a folder", dir.display());
    let report = check_folder(&dir);
    report.assert_clean();
    assert!(
        report.files > 0,
        "{EXTRA}={} holds no vector file",
        dir.display()
    );
    eprintln!(
        "{EXTRA}: {} files, {} settle lines, {} golden hands",
        report.files, report.settle_lines, report.golden_lines
    );
}

/// The checker itself: a wrong expected line among good ones fails the run and is named.
#[test]
fn a_wrong_expected_line_is_named_by_file_and_line() {
    let dir = std::env::temp_dir().join(format!("mahjong-vectors-{}", std::process::id()));
    let sub = dir.join("sichuan");
    fs::create_dir_all(&sub).expect("temp folder");
    let src = vector_files::repository().join("sichuan");
    let input = fs::read_to_string(src.join("public.jsonl")).expect("vectors");
    let expected = fs::read_to_string(src.join("public.expected.jsonl")).expect("expected");
    let mut lines: Vec<Value> = expected
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    lines[1]["deltas"][0] = Value::from(lines[1]["deltas"][0].as_i64().unwrap_or(0) + 1);
    let wrong: Vec<String> = lines.iter().map(Value::to_string).collect();
    fs::write(sub.join("public.jsonl"), &input).expect("write");
    fs::write(sub.join("public.expected.jsonl"), wrong.join("\n")).expect("write");
    // An input line with no expected line, in a second file.
    fs::write(sub.join("orphan.jsonl"), input.lines().next().unwrap_or("")).expect("write");
    fs::write(sub.join("orphan.expected.jsonl"), "").expect("write");
    let report = check_folder(&dir);
    fs::remove_dir_all(&dir).ok();
    let named: Vec<String> = report.failures.iter().map(ToString::to_string).collect();
    assert_eq!(report.failures.len(), 2, "{named:#?}");
    let named_as =
        |place: &str, words: &str| named.iter().any(|n| n.contains(place) && n.contains(words));
    assert!(
        named_as("public.expected.jsonl:2", "sc-seed-qing-gang"),
        "{named:#?}"
    );
    assert!(named_as("orphan.jsonl:1", "no expected line"), "{named:#?}");
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

// ----- the checker ---------------------------------------------------------------------------

/// One vector that did not hold, where it is written.
struct Failure {
    file: PathBuf,
    line: usize,
    id: String,
    problem: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{} (id {}): {}",
            self.file.display(),
            self.line,
            self.id,
            self.problem
        )
    }
}

#[derive(Default)]
struct Report {
    files: usize,
    settle_lines: usize,
    golden_lines: usize,
    /// The presets the settle lines play.
    presets: BTreeSet<String>,
    failures: Vec<Failure>,
}

impl Report {
    fn fail(&mut self, file: &Path, line: usize, id: &str, problem: String) {
        self.failures.push(Failure {
            file: file.to_owned(),
            line,
            id: id.to_owned(),
            problem,
        });
    }

    fn assert_clean(&self) {
        assert!(
            self.failures.is_empty(),
            "{} vectors failed:\n{}",
            self.failures.len(),
            self.failures
                .iter()
                .take(40)
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// Every vector file under `root`, at any depth, checked.
fn check_folder(root: &Path) -> Report {
    let mut report = Report::default();
    for file in vector_files::jsonl_files(root) {
        if vector_files::is_expected(&file) {
            if !vector_files::input_of(&file).exists() {
                report.fail(&file, 0, "-", "an expected file without its vectors".into());
            }
            continue;
        }
        report.files += 1;
        let expected = vector_files::expected_of(&file);
        if expected.exists() {
            check_settle(&file, &expected, &mut report);
        } else if is_golden(&file) {
            check_golden(&file, &mut report);
        } else {
            report.fail(
                &file,
                0,
                "-",
                "neither a settle file (no .expected.jsonl beside it) nor Guobiao golden hands"
                    .into(),
            );
        }
    }
    report
}

/// Non-empty lines with their 1-based numbers.
fn numbered_lines(file: &Path) -> Vec<(usize, String)> {
    fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.to_owned()))
        .collect()
}

/// Golden hands carry their own answer: a winning tile and the expected fans.
fn is_golden(file: &Path) -> bool {
    numbered_lines(file).first().is_some_and(|(_, l)| {
        serde_json::from_str::<Value>(l)
            .is_ok_and(|v| v.get("win_tile").is_some() && v.get("fans").is_some())
    })
}

fn check_settle(input: &Path, expected: &Path, report: &mut Report) {
    // Expected lines by id, with their line numbers; each must be used exactly once.
    let mut want: HashMap<String, (usize, Value)> = HashMap::new();
    for (n, line) in numbered_lines(expected) {
        match serde_json::from_str::<Value>(&line) {
            Ok(v) => {
                let id = v["id"].to_string();
                if want.insert(id.clone(), (n, v)).is_some() {
                    report.fail(
                        expected,
                        n,
                        &id,
                        "a second expected line for this id".into(),
                    );
                }
            }
            Err(e) => report.fail(expected, n, "-", format!("not JSON: {e}")),
        }
    }
    let mut used = BTreeSet::new();
    for (n, line) in numbered_lines(input) {
        report.settle_lines += 1;
        // Read as `mahjong settle` reads it: a line it must refuse is a vector too.
        let raw: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        let id = raw["id"].to_string();
        let Some((exp_line, exp)) = want.get(&id) else {
            report.fail(input, n, &id, "no expected line for this id".into());
            continue;
        };
        if !used.insert(id.clone()) {
            report.fail(input, n, &id, "a second vector with this id".into());
        }
        let got = serde_json::to_value(settle_text(&line)).expect("output serializes");
        if let Some(problem) = settle_mismatch(&got, exp) {
            report.fail(expected, *exp_line, &id, problem);
        } else if let (Some(ruleset), Some(_)) = (raw["ruleset"].as_str(), got.get("deltas")) {
            // A preset counts as covered by the hands it settles, not by refusals.
            report.presets.insert(ruleset.to_owned());
            if let Some(problem) = payments_problem(&line) {
                report.fail(input, n, &id, problem);
            }
        }
    }
    for (id, (n, _)) in &want {
        if !used.contains(id) {
            report.fail(
                expected,
                *n,
                id,
                "an expected line without its vector".into(),
            );
        }
    }
}

/// What is wrong with the payments of a line that settled, if anything.
fn payments_problem(line: &str) -> Option<String> {
    let settled = serde_json::from_str::<SettleInput>(line)
        .map_err(|e| e.to_string())
        .and_then(|input| input.to_hand().map_err(|e| e.to_string()))
        .and_then(|(ruleset, hand)| ruleset.settle(&hand).map_err(|e| e.to_string()));
    match settled {
        Ok(st) => payments::problem(&st),
        Err(e) => Some(format!("settled as a line, but not as a settlement: {e}")),
    }
}

/// What differs between a settle answer and its expected line, if anything.
fn settle_mismatch(got: &Value, exp: &Value) -> Option<String> {
    if let Some(error) = exp.get("error") {
        let code = got["error"]["code"].as_str();
        return match (code, error.get("code").and_then(Value::as_str)) {
            (None, _) => Some(format!("expected a refusal, got {got}")),
            (Some(c), Some(w)) if c != w => Some(format!("refused with {c}, expected {w}: {got}")),
            _ => None,
        };
    }
    if got.get("deltas") != exp.get("deltas") {
        return Some(format!(
            "deltas {} expected {}: {got}",
            got["deltas"], exp["deltas"]
        ));
    }
    // Item names are the family's to choose; the winners and their totals must agree.
    let totals = |v: &Value| -> BTreeMap<String, Value> {
        v.as_array()
            .into_iter()
            .flatten()
            .map(|f| (f["seat"].to_string(), f["total"].clone()))
            .collect()
    };
    match exp.get("fans") {
        Some(fans) if totals(&got["fans"]) != totals(fans) => Some(format!(
            "fan totals {:?} expected {:?}",
            totals(&got["fans"]),
            totals(fans)
        )),
        _ => None,
    }
}

/// The fans of a golden line as (Chinese name, English name, points, count), sorted.
fn golden_fans(v: &Value) -> Vec<(String, String, i64, i64)> {
    let mut out: Vec<_> = v["fans"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            (
                f["name_zh"].as_str().unwrap_or_default().to_owned(),
                f["name_en"].as_str().unwrap_or_default().to_owned(),
                f["points"].as_i64().unwrap_or_default(),
                f["count"].as_i64().unwrap_or_default(),
            )
        })
        .collect();
    out.sort();
    out
}

fn check_golden(file: &Path, report: &mut Report) {
    for (n, line) in numbered_lines(file) {
        report.golden_lines += 1;
        let want: Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                report.fail(file, n, "-", format!("not JSON: {e}"));
                continue;
            }
        };
        let got = serde_json::to_value(score_text(&line)).expect("output serializes");
        if golden_fans(&got) != golden_fans(&want) || got["total"] != want["total"] {
            report.fail(
                file,
                n,
                &want["id"].to_string(),
                format!(
                    "got {} {:?}, expected {} {:?}",
                    got["total"],
                    golden_fans(&got),
                    want["total"],
                    golden_fans(&want)
                ),
            );
        }
    }
}
