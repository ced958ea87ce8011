//! A database written by an earlier server keeps what it holds when a newer one opens it: its
//! schema is migrated in place, not replaced.

mod common;

use std::path::Path;

use sqlx::Connection;
use sqlx::migrate::Migrator;
use store::{Store, TableId, UnixMillis};

/// The last SQLite migration before the action log was rebuilt around its key.
const BEFORE_CLUSTERED_LOG: i64 = 20261203000001;

#[tokio::test]
async fn the_action_log_survives_its_rebuild() {
    let (url, dir) = common::sqlite_url();
    std::fs::create_dir_all(&dir).expect("a directory for the file");
    let table = TableId::new();
    {
        let options: sqlx::sqlite::SqliteConnectOptions = url
            .parse::<sqlx::sqlite::SqliteConnectOptions>()
            .expect("an SQLite URL")
            .create_if_missing(true);
        let mut conn = sqlx::SqliteConnection::connect_with(&options)
            .await
            .expect("opens");
        let migrations = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations/sqlite");
        Migrator::new(migrations.as_path())
            .await
            .expect("reads the migrations")
            .run_to(BEFORE_CLUSTERED_LOG, &mut conn)
            .await
            .expect("the schema of an earlier server");
        sqlx::query(
            "INSERT INTO game_tables (id, ruleset, options, seats, status, carried, created_ms, \
             updated_ms) VALUES ($1, 'shanghai', '{}', '[]', 'playing', '{}', 1, 1)",
        )
        .bind(table.as_str())
        .execute(&mut conn)
        .await
        .expect("a table");
        for seq in 0..40i64 {
            sqlx::query(
                "INSERT INTO room_actions (table_id, seq, hand_no, seat, action, at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(table.as_str())
            .bind(seq)
            .bind(seq / 10)
            .bind((seq % 4) as i16)
            .bind(format!("{{\"type\":\"discard\",\"n\":{seq}}}"))
            .bind(1_000 + seq)
            .execute(&mut conn)
            .await
            .expect("a logged action");
        }
        conn.close().await.expect("closes");
    }

    let store = Store::connect(&url).await.expect("a newer server opens it");
    assert_eq!(
        store.schema_version().await.expect("a version"),
        store.binary_schema_version()
    );
    let from_hand_2 = store.actions(&table, 2).await.expect("reads the log");
    let seqs: Vec<u64> = from_hand_2.iter().map(|a| a.seq).collect();
    assert_eq!(seqs, (20..40).collect::<Vec<u64>>());
    let last = from_hand_2.last().expect("rows");
    assert_eq!(
        (last.hand_no, last.seat, last.at),
        (3, 3, UnixMillis(1_039))
    );
    assert_eq!(last.action, serde_json::json!({"type": "discard", "n": 39}));
    assert_eq!(store.next_action_seq(&table).await.expect("next"), 40);
    store.close().await;

    let mut conn = sqlx::SqliteConnection::connect(&url).await.expect("opens");
    let schema: String =
        sqlx::query_scalar("SELECT sql FROM sqlite_master WHERE name = 'room_actions'")
            .fetch_one(&mut conn)
            .await
            .expect("the log's table");
    assert!(schema.contains("WITHOUT ROWID"), "{schema}");
    let indexes: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'room_actions' \
         AND sql IS NOT NULL",
    )
    .fetch_one(&mut conn)
    .await
    .expect("the log's indexes");
    assert_eq!(indexes, 0, "the log is one b-tree");
    conn.close().await.expect("closes");
    let _ = std::fs::remove_dir_all(dir);
}
