#![allow(dead_code)]
//! The harness that runs each test on both backends: a fresh SQLite file always, and a fresh
//! PostgreSQL database whenever TEST_DATABASE_URL names a server.

use std::future::Future;
use std::path::PathBuf;

use serde_json::json;
use sqlx::Connection;
use store::{
    Claim, FinishedHand, NewTable, NodeId, PlayerId, RatingChange, SeatOccupant, SeatResult, Store,
    StoreError, TableId, TableStatus, UnixMillis,
};

/// One backend under test: its URL (for side connections) and an open store.
pub struct Db {
    /// `sqlite` or `postgres`.
    pub name: &'static str,
    /// Where the database is.
    pub url: String,
    /// The store open on it.
    pub store: Store,
}

impl Db {
    /// Runs raw SQL beside the store (installing a failure trigger, say).
    pub async fn execute(&self, sql: &str) -> anyhow::Result<()> {
        if self.name == "postgres" {
            let mut c = sqlx::PgConnection::connect(&self.url).await?;
            sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_string()))
                .execute(&mut c)
                .await?;
            c.close().await?;
        } else {
            let mut c = sqlx::SqliteConnection::connect(&self.url).await?;
            sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_string()))
                .execute(&mut c)
                .await?;
            c.close().await?;
        }
        Ok(())
    }

    /// A count read beside the store.
    pub async fn count(&self, sql: &str) -> anyhow::Result<i64> {
        let n = if self.name == "postgres" {
            let mut c = sqlx::PgConnection::connect(&self.url).await?;
            let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
                .fetch_one(&mut c)
                .await?;
            c.close().await?;
            n
        } else {
            let mut c = sqlx::SqliteConnection::connect(&self.url).await?;
            let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
                .fetch_one(&mut c)
                .await?;
            c.close().await?;
            n
        };
        Ok(n)
    }
}

/// A fresh SQLite file in its own directory.
pub fn sqlite_url() -> (String, PathBuf) {
    let dir = std::env::temp_dir().join(format!("mahjong-store-{}", uuid::Uuid::now_v7().simple()));
    let url = store::sqlite_url(&dir.join("test.db"));
    (url, dir)
}

/// The PostgreSQL server to test against, if any.
pub fn postgres_admin_url() -> Option<String> {
    std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
}

/// `admin` with its database replaced by `name`.
pub fn with_database(admin: &str, name: &str) -> String {
    let (base, query) = match admin.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (admin, String::new()),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let path_start = base[scheme_end..].find('/').map(|i| scheme_end + i);
    let host = path_start.map_or(base, |i| &base[..i]);
    format!("{host}/{name}{query}")
}

/// Runs `test` on every backend available, each on a fresh database.
pub async fn on_each_backend<F, Fut>(test: F)
where
    F: Fn(Db) -> Fut,
    Fut: Future<Output = anyhow::Result<()>>,
{
    let (url, dir) = sqlite_url();
    let store = Store::connect(&url).await.expect("open sqlite");
    let result = test(Db {
        name: "sqlite",
        url,
        store,
    })
    .await;
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = result {
        panic!("sqlite: {e:#}");
    }
    if let Some(admin) = postgres_admin_url() {
        let name = format!("mahjong_test_{}", uuid::Uuid::now_v7().simple());
        let mut c = sqlx::PgConnection::connect(&admin)
            .await
            .expect("reach TEST_DATABASE_URL");
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut c)
            .await
            .expect("create test database");
        let url = with_database(&admin, &name);
        let store = Store::connect(&url).await.expect("open postgres");
        let result = test(Db {
            name: "postgres",
            url,
            store: store.clone(),
        })
        .await;
        store.close().await;
        let _ = sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
            "DROP DATABASE {name} WITH (FORCE)"
        )))
        .execute(&mut c)
        .await;
        if let Err(e) = result {
            panic!("postgres: {e:#}");
        }
    }
}

/// Asserts that `r` is the error `matches` describes.
pub fn expect_err<T: std::fmt::Debug>(
    r: Result<T, StoreError>,
    matches: impl Fn(&StoreError) -> bool,
) -> anyhow::Result<StoreError> {
    match r {
        Err(e) if matches(&e) => Ok(e),
        other => anyhow::bail!("unexpected result: {other:?}"),
    }
}

/// A table of `ruleset` seating `players`, bots in the remaining seats, and the claim its
/// creation made.
pub async fn table_of(db: &Db, ruleset: &str, players: &[PlayerId]) -> anyhow::Result<Claim> {
    let seats = players
        .iter()
        .map(|p| SeatOccupant::Player { player: p.clone() })
        .chain(std::iter::repeat(SeatOccupant::Bot {
            level: "basic".into(),
        }))
        .take(4)
        .collect();
    let (_, claim) = db
        .store
        .create_table(
            &NewTable {
                ruleset: ruleset.into(),
                options: json!({}),
                seats,
                carried: json!({"dealer": 0, "scores": [0, 0, 0, 0], "huang_fan": 0}),
            },
            &test_node(),
        )
        .await?;
    Ok(claim)
}

/// A claim on a table that does not exist.
pub fn unknown_table() -> Claim {
    Claim {
        table: TableId::new(),
        epoch: store::Epoch(1),
    }
}

/// The node the tests' tables are created by (never registered: its tables are anyone's to
/// claim).
pub fn test_node() -> NodeId {
    NodeId::parse("test-node").expect("a node name")
}

/// Hand `hand_no` of `table`, with the given score changes.
pub fn hand(table: &TableId, hand_no: u64, players: &[PlayerId], deltas: [i64; 4]) -> FinishedHand {
    FinishedHand {
        table: table.clone(),
        hand_no,
        ruleset: "sichuan".into(),
        seed: u64::MAX - hand_no,
        dealer: (hand_no % 4) as u8,
        ending: "discard".into(),
        seats: (0..4)
            .map(|i| SeatResult {
                player: players.get(i).cloned(),
                delta: deltas[i],
            })
            .collect(),
        fans: json!([{"seat": 0, "lines": [{"name": "平胡", "points": 1}]}]),
        record: json!({"seed": hand_no, "actions": ["d 1m", "d 2m"]}),
        carried: json!({"dealer": (hand_no + 1) % 4, "huang_fan": hand_no + 1}),
        table_status: TableStatus::Playing,
        escapes: vec![],
        ratings: players
            .iter()
            .zip(deltas)
            .map(|(p, d)| RatingChange {
                player: p.clone(),
                delta: d as f64 / 2.0,
            })
            .collect(),
        finished: UnixMillis::now(),
    }
}

/// `n` new players.
pub async fn players(db: &Db, n: usize) -> anyhow::Result<Vec<PlayerId>> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push(db.store.create_player(&format!("player {i}")).await?.id);
    }
    Ok(out)
}

/// Action `seq` of hand 0, a discard by the first seat.
pub fn entry(seq: u64) -> store::LoggedAction {
    store::LoggedAction {
        seq,
        hand_no: 0,
        seat: 0,
        action: json!({"type": "discard", "tile": "5p"}),
        at: store::UnixMillis::now(),
    }
}
