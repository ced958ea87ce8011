//! The TypeScript SDK's own tests (`clients/typescript/test`, node's test runner) against this
//! build of the server: the transcript test that holds the SDK's reducer to the server's
//! snapshots over every preset, the table connection against a scripted socket, the HTTP
//! client and the headless bot. They run from the committed `dist/` (the package's build, kept
//! fresh by `npm run check` in CI), so no package is installed or fetched here.
//!
//! Without node the test says so and passes, unless `MAHJONG_REQUIRE_NODE` is set (CI sets it).

use std::path::PathBuf;
use std::process::Command;

/// Node's major version, if node runs here.
fn node_major() -> Option<u32> {
    let out = Command::new("node").arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.trim()
        .trim_start_matches('v')
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// Whether node has `WebSocket` without a flag (22 and later).
fn websocket_built_in() -> bool {
    Command::new("node")
        .args([
            "-e",
            "process.exit(typeof WebSocket === 'function' ? 0 : 1)",
        ])
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn the_typescript_sdk_passes_its_tests() {
    let required = std::env::var_os("MAHJONG_REQUIRE_NODE").is_some();
    match node_major() {
        Some(v) if v >= 20 => {}
        found => {
            assert!(
                !required,
                "node 20 or later is required here (found {found:?})"
            );
            eprintln!(
                "skipped: the TypeScript SDK's tests need node 20 or later (found {found:?})"
            );
            return;
        }
    }
    let package = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../clients/typescript");
    let mut tests: Vec<PathBuf> = std::fs::read_dir(package.join("test"))
        .expect("clients/typescript/test")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    tests.sort();
    assert!(!tests.is_empty(), "no SDK tests found");
    let mut node = Command::new("node");
    if !websocket_built_in() {
        node.arg("--experimental-websocket");
    }
    let out = node
        .arg("--test")
        .args(&tests)
        .current_dir(&package)
        .env("MAHJONG_BIN", env!("CARGO_BIN_EXE_mahjong"))
        .output()
        .expect("node runs");
    let report = String::from_utf8_lossy(&out.stdout);
    // The tests' own summaries (`# {…}`) and the runner's counts; everything when one failed.
    for line in report.lines() {
        if !out.status.success() || line.starts_with("# {") || line.starts_with("# pass") {
            println!("{line}");
        }
    }
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "the SDK's tests failed (node --test, above)"
    );
}
