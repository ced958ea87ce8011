//! How much the heavy suites play. Each reads its count from an environment variable named in
//! README ("Tests"); without it, the full count CI runs, or a small one when
//! `MAHJONG_TEST_QUICK` is set (the quick inner loop). One file, included by every crate's
//! heavy suites (`#[path]`), so the quick switch means the same everywhere.
#![allow(dead_code)]

/// `name`'s value if set (and a number), else `quick` in the quick loop, else `full`.
pub fn count(name: &str, full: u64, quick: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick_loop() { quick } else { full })
}

/// Whether `MAHJONG_TEST_QUICK` asks for the quick inner loop (set, and not `0`).
pub fn quick_loop() -> bool {
    std::env::var_os("MAHJONG_TEST_QUICK").is_some_and(|v| !v.is_empty() && v != "0")
}
