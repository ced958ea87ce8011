//! Where the vector files are and how they pair up (`conformance/README.md`): shared by the
//! conformance suite, which checks them, and the fuzz suite, which mutates them.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

/// The repository's `conformance/` folder.
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance")
}

/// Every `.jsonl` file under `dir`, at any depth, sorted.
pub fn jsonl_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(dir, &mut out);
    out.sort();
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            out.push(path);
        }
    }
}

/// Whether `file` holds expected lines (`NAME.expected.jsonl`) rather than vectors.
pub fn is_expected(file: &Path) -> bool {
    file.to_string_lossy().ends_with(".expected.jsonl")
}

/// The expected file of a vector file `NAME.jsonl`: `NAME.expected.jsonl` beside it.
pub fn expected_of(file: &Path) -> PathBuf {
    PathBuf::from(file.to_string_lossy().replace(".jsonl", ".expected.jsonl"))
}

/// The vector file an expected file answers.
pub fn input_of(expected: &Path) -> PathBuf {
    PathBuf::from(
        expected
            .to_string_lossy()
            .replace(".expected.jsonl", ".jsonl"),
    )
}

/// The settle vector files under `dir`: those with an expected file beside them.
pub fn settle_files(dir: &Path) -> Vec<PathBuf> {
    jsonl_files(dir)
        .into_iter()
        .filter(|f| !is_expected(f) && expected_of(f).exists())
        .collect()
}
