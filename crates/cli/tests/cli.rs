//! The `mahjong` binary end to end: `settle` over the shared vectors and bad lines, `simulate`
//! determinism, `replay` of a recorded hand.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use serde_json::Value;

mod common;
use common::{mahjong, run_piped};

fn run_with_stdin(args: &[&str], input: &str) -> (String, bool) {
    let out = run_piped(args, input.as_bytes());
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        out.status.success(),
    )
}

#[test]
fn settle_survives_a_line_that_is_not_utf8() {
    let mut child = mahjong()
        .arg("settle")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"{\"id\": \"x\xff\"}\n").expect("writes");
    stdin
        .write_all(br#"{"id": "ok", "ruleset": "sichuan", "dealer": 0, "seats": [{},{},{},{}]}"#)
        .expect("writes");
    drop(stdin);
    let out = child.wait_with_output().expect("finishes");
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["error"]["code"], "bad_json");
    assert_eq!(lines[1]["deltas"], serde_json::json!([0, 0, 0, 0]));
}

#[test]
fn settle_answers_every_line_in_order() {
    let vectors =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/sichuan/public.jsonl");
    let good = std::fs::read_to_string(vectors).expect("shared vectors");
    let input = format!(
        "{good}not json\n{{\"id\": 9, \"ruleset\": \"mars\", \"dealer\": 0, \"seats\": []}}\n"
    );
    let (out, ok) = run_with_stdin(&["settle"], &input);
    assert!(ok);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), good.lines().count() + 2);
    assert_eq!(lines[0]["id"], "sc-seed-pengpeng-gang");
    assert_eq!(lines[0]["deltas"], serde_json::json!([-3, 9, -3, -3]));
    let n = lines.len();
    assert_eq!(lines[n - 2]["error"]["code"], "bad_json");
    assert_eq!(lines[n - 1]["id"], 9);
    assert_eq!(lines[n - 1]["error"]["code"], "unknown_ruleset");
}

#[test]
fn score_reproduces_the_golden_guobiao_hands_and_refuses_bad_lines() {
    let golden =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/mcr/golden_public.jsonl");
    let good = std::fs::read_to_string(golden).expect("shared vectors");
    let input = format!(
        "{good}not json\n{{\"id\": 7, \"concealed\": \"1m\", \"win_tile\": \"1m\", \"seat_wind\": \"E\", \"round_wind\": \"E\"}}\n"
    );
    let (out, ok) = run_with_stdin(&["score", "--ruleset", "guobiao"], &input);
    assert!(ok);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), good.lines().count() + 2);
    for (got, want) in lines.iter().zip(good.lines()) {
        let want: Value = serde_json::from_str(want).expect("golden line");
        assert_eq!(got["id"], want["id"]);
        assert_eq!(got["total"], want["total"], "{got}");
        assert_eq!(got["legal"], true, "{got}");
    }
    let n = lines.len();
    assert_eq!(lines[n - 2]["error"]["code"], "bad_json");
    assert_eq!(lines[n - 1]["id"], 7);
    assert_eq!(lines[n - 1]["error"]["code"], "not_a_win");
    let (_, ok) = run_with_stdin(&["score", "--ruleset", "sichuan"], "");
    assert!(!ok, "only the Guobiao table scores single hands");
}

/// Runs the binary, which must succeed, and reads the JSON object its stdout ends with.
fn run_json(args: &[&str]) -> Value {
    let out = mahjong().args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    last_json(&String::from_utf8_lossy(&out.stdout))
}

fn last_json(out: &str) -> Value {
    serde_json::from_str(out.lines().last().expect("a last line")).expect("JSON")
}

fn without_timings(mut v: Value) -> Value {
    let obj = v.as_object_mut().expect("object");
    obj.retain(|k, _| !k.ends_with("_per_s") && !k.starts_with("elapsed_"));
    v
}

#[test]
fn simulate_is_deterministic_and_replayable() {
    let dir = std::env::temp_dir().join(format!("mahjong-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let record = dir.join("last.json");
    let args = [
        "simulate",
        "--ruleset",
        "sichuan-xuezhan-9",
        "--hands",
        "40",
        "--seed",
        "12",
        "--json",
    ];
    let a = mahjong()
        .args(args)
        .arg("--record")
        .arg(&record)
        .output()
        .expect("runs");
    let b = mahjong().args(args).output().expect("runs");
    assert!(a.status.success() && b.status.success());
    let (a, b) = (
        last_json(&String::from_utf8_lossy(&a.stdout)),
        last_json(&String::from_utf8_lossy(&b.stdout)),
    );
    assert!(a["hands_per_s"].as_f64().is_some_and(|r| r > 0.0));
    assert_eq!(without_timings(a.clone()), without_timings(b));
    assert_eq!(a["hands"], 40);
    let replay = mahjong().arg("replay").arg(&record).output().expect("runs");
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    let replayed = last_json(&String::from_utf8_lossy(&replay.stdout));
    assert_eq!(replayed["ruleset"], "sichuan-xuezhan-9");
    assert_eq!(replayed["deltas"].as_array().map(Vec::len), Some(4));
    // The hand written as a settle line settles to the same deltas.
    let line = mahjong()
        .args(["replay", "--settle-line"])
        .arg(&record)
        .output()
        .expect("runs");
    assert!(
        line.status.success(),
        "{}",
        String::from_utf8_lossy(&line.stderr)
    );
    let line = String::from_utf8_lossy(&line.stdout).into_owned();
    assert!(line.contains("\"ruleset\":\"sichuan-xuezhan-9\""), "{line}");
    let (settled, ok) = run_with_stdin(&["settle"], &line);
    assert!(ok, "{settled}");
    assert_eq!(last_json(&settled)["deltas"], replayed["deltas"], "{line}");
    // The whole table replays to the same final scores.
    let table = dir.join("table.json");
    let run = mahjong()
        .args(args)
        .arg("--table-record")
        .arg(&table)
        .output()
        .expect("runs");
    let stats = last_json(&String::from_utf8_lossy(&run.stdout));
    let replay = mahjong().arg("replay").arg(&table).output().expect("runs");
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    let replayed = last_json(&String::from_utf8_lossy(&replay.stdout));
    assert_eq!(replayed["scores"], stats["final_scores"]);
    assert_eq!(replayed["hands"], 40);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let out = mahjong()
        .args(["simulate", "--ruleset", "three-player", "--hands", "1"])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown ruleset `three-player`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("two-player"),
        "the known presets are listed: {stderr}"
    );
    let out = mahjong()
        .args([
            "simulate",
            "--ruleset",
            "sichuan",
            "--options",
            "{\"fan_cap\": 5}",
        ])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("fan_cap"));
}

#[test]
fn arena_reports_every_level_and_refuses_bad_lineups() {
    let report = run_json(&[
        "arena",
        "--ruleset",
        "sichuan-xuezhan",
        "--hands",
        "24",
        "--seats",
        "strong,basic,random,basic",
        "--seed",
        "3",
        "--json",
    ]);
    let levels = report["levels"].as_array().expect("levels");
    assert_eq!(levels.len(), 3);
    let total: f64 = levels
        .iter()
        .map(|l| {
            l["mean_score_per_hand"].as_f64().expect("mean") * l["seats"].as_f64().expect("seats")
        })
        .sum();
    assert!(total.abs() < 1e-6, "zero-sum across seats: {total}");
    for l in levels {
        assert_eq!(
            l["seat_hands"].as_u64(),
            Some(24 * l["seats"].as_u64().expect("seats"))
        );
        assert!(l["ci95"].as_f64().is_some_and(|c| c >= 0.0));
        assert!(l["decisions"].as_u64().is_some_and(|d| d > 0));
    }
    let bad = mahjong()
        .args(["arena", "--ruleset", "sichuan", "--seats", "strong,basic"])
        .output()
        .expect("runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("played by 4"));
    let bad = mahjong()
        .args([
            "arena",
            "--ruleset",
            "sichuan",
            "--seats",
            "strong,basic,basic,genius",
        ])
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown bot level"));
}

#[test]
fn two_player_arenas_seat_two_and_settle_prints_two_deltas() {
    let report = run_json(&[
        "arena",
        "--ruleset",
        "two-player",
        "--hands",
        "20",
        "--seats",
        "strong,basic",
        "--json",
    ]);
    let levels = report["levels"].as_array().expect("levels");
    assert_eq!(levels.len(), 2);
    let bad = mahjong()
        .args([
            "arena",
            "--ruleset",
            "two-player",
            "--seats",
            "strong,basic,basic,basic",
        ])
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("played by 2"));
    let mut child = mahjong()
        .arg("settle")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawns");
    let line = r#"{"id": "tp", "ruleset": "two-player", "dealer": 0, "seats": [{"concealed": ""}, {"concealed": "456m678s345p9m", "melds": [{"kind": "chow", "tiles": "123p", "from": 0}]}], "wins": [{"seat": 1, "tile": "9m", "from": 0}]}"#;
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "{line}").expect("writes");
    }
    let out = child.wait_with_output().expect("finishes");
    let result = last_json(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(result["deltas"], serde_json::json!([-1, 1]));
    // A two-player table replays to two scores.
    let dir = std::env::temp_dir().join(format!("mahjong-cli-tp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let record = dir.join("table.json");
    let sim = mahjong()
        .args([
            "simulate",
            "--ruleset",
            "two-player",
            "--hands",
            "6",
            "--json",
        ])
        .arg("--table-record")
        .arg(&record)
        .output()
        .expect("runs");
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    let stats = last_json(&String::from_utf8_lossy(&sim.stdout));
    let replay = mahjong().arg("replay").arg(&record).output().expect("runs");
    let replayed = last_json(&String::from_utf8_lossy(&replay.stdout));
    assert_eq!(replayed["scores"].as_array().map(Vec::len), Some(2));
    assert_eq!(replayed["scores"], stats["final_scores"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn db_status_reads_db_migrate_creates_and_bad_urls_are_refused() {
    let dir = std::env::temp_dir().join(format!("mahjong-cli-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = |action: &str| {
        mahjong()
            .args(["db", action, "--data-dir"])
            .arg(&dir)
            .env_remove("DATABASE_URL")
            .output()
            .expect("run mahjong db")
    };
    // `status` only reads: on a fresh directory it says there is nothing, and creates nothing.
    let nothing = db("status");
    assert!(!nothing.status.success());
    assert!(
        String::from_utf8_lossy(&nothing.stderr).contains("no database at"),
        "{}",
        String::from_utf8_lossy(&nothing.stderr)
    );
    assert!(!dir.join("mahjong.db").exists(), "status created a file");
    let migrated = db("migrate");
    assert!(
        migrated.status.success(),
        "{}",
        String::from_utf8_lossy(&migrated.stderr)
    );
    assert!(dir.join("mahjong.db").exists(), "migrate creates the file");
    let out = db("status");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(status["backend"], "sqlite");
    assert_eq!(status["schema_version"], status["binary_schema_version"]);
    let bad = mahjong()
        .args(["db", "status", "--database-url", "mysql://nowhere/x"])
        .output()
        .expect("run mahjong db status");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("neither postgres"));
    // A port that is not one is named as such, with the password hidden.
    let port = mahjong()
        .args([
            "db",
            "status",
            "--database-url",
            "postgres://app:s3cret@localhost:99999/x",
        ])
        .output()
        .expect("run mahjong db status");
    let said = String::from_utf8_lossy(&port.stderr);
    assert!(!port.status.success());
    assert!(said.contains("invalid port"), "{said}");
    assert!(!said.contains("s3cret"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `v` without its timings, at any depth (rates `*_per_s` and `elapsed_*`).
fn strip_timings(v: &mut Value) {
    match v {
        Value::Object(obj) => {
            obj.retain(|k, _| !k.ends_with("_per_s") && !k.starts_with("elapsed_"));
            obj.values_mut().for_each(strip_timings);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_timings),
        _ => {}
    }
}

#[test]
fn self_play_gives_the_same_statistics_on_any_number_of_threads() {
    let simulate = [
        "simulate",
        "--ruleset",
        "sichuan-xuezhan-9",
        "--hands",
        "45",
        "--seed",
        "4",
        "--table-hands",
        "7",
        "--json",
    ];
    let arena = [
        "arena",
        "--ruleset",
        "guangdong",
        "--hands",
        "30",
        "--seats",
        "strong,basic,random,basic",
        "--seed",
        "4",
        "--table-hands",
        "7",
        "--json",
    ];
    for (args, tables) in [(&simulate[..], 7), (&arena[..], 5)] {
        let runs: Vec<Value> = ["1", "2", "5"]
            .iter()
            .map(|threads| {
                let mut all = args.to_vec();
                all.extend(["--threads", threads]);
                let mut report = run_json(&all);
                strip_timings(&mut report);
                report
            })
            .collect();
        assert_eq!(runs[0]["tables"], tables, "{}", runs[0]);
        assert_eq!(runs[0], runs[1], "one thread against two: {}", args[0]);
        assert_eq!(runs[0], runs[2], "one thread against five: {}", args[0]);
    }
    // A run no longer than a table is one table, and only such a run writes a table record.
    let mut one_table = simulate.to_vec();
    one_table[8] = "45";
    let mut whole = run_json(&one_table);
    strip_timings(&mut whole);
    assert_eq!(whole["tables"], 1);
    let out = mahjong()
        .args(simulate)
        .args(["--table-record", "/dev/null"])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--table-record writes one table"),
        "{stderr}"
    );
}
