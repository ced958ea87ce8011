//! The Guobiao golden hands of `shared/conformance/mcr/*.jsonl`, read in place: every line must
//! give the same fans, the same counts and the same total. Held-out files in the same format
//! are picked up without any change here.

use std::fs;
use std::path::{Path, PathBuf};

use engine::format::score_text;
use serde_json::Value;

fn mcr_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/mcr")
}

/// The fans of a line as (Chinese name, English name, points, count), sorted.
fn fans(v: &Value) -> Vec<(String, String, i64, i64)> {
    let mut out: Vec<_> = v["fans"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    (
                        f["name_zh"].as_str().unwrap_or_default().to_owned(),
                        f["name_en"].as_str().unwrap_or_default().to_owned(),
                        f["points"].as_i64().unwrap_or_default(),
                        f["count"].as_i64().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
fn every_golden_hand_scores_exactly() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for entry in fs::read_dir(mcr_dir()).expect("shared/conformance/mcr exists") {
        let path = entry.expect("dir entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        let text = fs::read_to_string(&path).expect("readable vector file");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let want: Value = serde_json::from_str(line).expect("vector line is JSON");
            let got = serde_json::to_value(score_text(line)).expect("output serializes");
            checked += 1;
            if fans(&got) != fans(&want) || got["total"] != want["total"] {
                wrong.push(format!(
                    "{} line {}: got {} {:?}\n  want {} {:?}",
                    path.display(),
                    want["id"],
                    got["total"],
                    fans(&got),
                    want["total"],
                    fans(&want)
                ));
            }
        }
    }
    assert!(checked >= 3000, "only {checked} golden hands found");
    assert!(
        wrong.is_empty(),
        "{} of {checked} hands differ:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
