//! Stores finished hands and reports hands per second on each backend: SQLite always, and
//! PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a server.
//!
//! `cargo bench -p mahjong-store --bench hands` — BENCH_HANDS sets the hands per run (default
//! 2,000). Each hand is written as the server writes it: one transaction holding the table's
//! carried state, the hand (a ~1 KiB replay record and its fan lines), four seat rows and four
//! rating changes. Two runs per backend: one table at a time (a room's own latency), and eight
//! tables writing at once (a busy server).

use std::time::Instant;

use serde_json::json;
use sqlx::Connection;
use store::{
    Claim, FinishedHand, NewTable, NodeId, PlayerId, RatingChange, SeatOccupant, SeatResult, Store,
    TableId, TableStatus, UnixMillis,
};

fn main() -> anyhow::Result<()> {
    let hands: u64 = std::env::var("BENCH_HANDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let dir =
            std::env::temp_dir().join(format!("mahjong-bench-{}", uuid::Uuid::now_v7().simple()));
        let url = store::sqlite_url(&dir.join("bench.db"));
        let result = bench("sqlite", &url, hands).await;
        let _ = std::fs::remove_dir_all(&dir);
        result?;
        let admin = std::env::var("BENCH_DATABASE_URL")
            .or_else(|_| std::env::var("TEST_DATABASE_URL"))
            .ok()
            .filter(|u| !u.is_empty());
        if let Some(admin) = admin {
            let name = format!("mahjong_bench_{}", uuid::Uuid::now_v7().simple());
            let mut c = sqlx::PgConnection::connect(&admin).await?;
            sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                .execute(&mut c)
                .await?;
            let url = replace_database(&admin, &name);
            let result = bench("postgres", &url, hands).await;
            sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE {name} WITH (FORCE)"
            )))
            .execute(&mut c)
            .await?;
            result?;
        } else {
            println!("postgres: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)");
        }
        Ok(())
    })
}

async fn bench(backend: &str, url: &str, hands: u64) -> anyhow::Result<()> {
    let store = Store::connect(url).await?;
    let mut players = Vec::new();
    for i in 0..32 {
        players.push(store.create_player(&format!("bench {i}")).await?.id);
    }
    // One table at a time.
    let table = new_table(&store, &players[..4]).await?;
    let start = Instant::now();
    for n in 0..hands {
        store
            .record_hand(&table, &finished(&table.table, n, &players[..4]))
            .await?;
    }
    let serial = hands as f64 / start.elapsed().as_secs_f64();
    // Eight tables at once.
    let mut tables = Vec::new();
    for k in 0..8 {
        tables.push(new_table(&store, &players[4 * k..4 * k + 4]).await?);
    }
    let per_table = hands.div_ceil(8);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for (k, table) in tables.into_iter().enumerate() {
        let store = store.clone();
        let seated: Vec<PlayerId> = players[4 * k..4 * k + 4].to_vec();
        tasks.push(tokio::spawn(async move {
            for n in 0..per_table {
                store
                    .record_hand(&table, &finished(&table.table, n, &seated))
                    .await?;
            }
            Ok::<_, store::StoreError>(())
        }));
    }
    for t in tasks {
        t.await??;
    }
    let parallel = (per_table * 8) as f64 / start.elapsed().as_secs_f64();
    println!(
        "{backend}: {serial:.0} hands/s one table at a time, {parallel:.0} hands/s with 8 tables writing ({hands} hands each)"
    );
    println!(
        "{}",
        json!({"backend": backend, "hands": hands, "serial_hands_per_s": serial, "parallel8_hands_per_s": parallel})
    );
    store.close().await;
    Ok(())
}

async fn new_table(store: &Store, players: &[PlayerId]) -> anyhow::Result<Claim> {
    let seats = players
        .iter()
        .map(|p| SeatOccupant::Player { player: p.clone() })
        .collect();
    let node = NodeId::parse("bench")?;
    let (_, claim) = store
        .create_table(
            &NewTable {
                ruleset: "sichuan".into(),
                options: json!({}),
                seats,
                carried: json!({"dealer": 0}),
            },
            &node,
        )
        .await?;
    Ok(claim)
}

fn finished(table: &TableId, n: u64, players: &[PlayerId]) -> FinishedHand {
    let actions: Vec<String> = (0..60)
        .map(|i| format!("{} discard {}m", i % 4, 1 + i % 9))
        .collect();
    let deltas = [3i64, -1, -1, -1];
    FinishedHand {
        table: table.clone(),
        hand_no: n,
        ruleset: "sichuan".into(),
        seed: n.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        dealer: (n % 4) as u8,
        ending: "self_draw".into(),
        seats: players
            .iter()
            .zip(deltas)
            .map(|(p, delta)| SeatResult {
                player: Some(p.clone()),
                delta,
            })
            .collect(),
        fans: json!([{"seat": 0, "lines": [{"name": "清一色", "points": 3}, {"name": "根", "points": 1}], "payers": [1, 2, 3]}]),
        record: json!({"seed": n, "dealer": n % 4, "actions": actions}),
        carried: json!({"dealer": (n + 1) % 4, "scores": [3 * n as i64, -(n as i64), -(n as i64), -(n as i64)]}),
        table_status: TableStatus::Playing,
        escapes: vec![],
        ratings: players
            .iter()
            .zip(deltas)
            .map(|(p, d)| RatingChange {
                player: p.clone(),
                delta: d as f64,
            })
            .collect(),
        finished: UnixMillis::now(),
    }
}

fn replace_database(admin: &str, name: &str) -> String {
    let (base, query) = match admin.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (admin, String::new()),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    format!("{host}/{name}{query}")
}
