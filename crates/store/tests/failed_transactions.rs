//! A transaction that fails must leave its pooled connection as it found it. SQLite ends a
//! transaction by itself on some errors (a full disk, an I/O error, `RAISE(ROLLBACK)`), and
//! the connection is then reused for the next write: if it came back believing a transaction
//! was still open, its next transactions would nest inside one that never commits, holding
//! SQLite's write lock for good and reporting writes as stored that no other connection sees.

mod common;

use std::time::Duration;

use common::{Db, expect_err, hand, on_each_backend, players, table_of};
use store::{Access, Escape, Recorded, Store, StoreError, StoreOptions};

/// Fails an insert into `table` whose `column` is 15 by ending the whole transaction (as
/// SQLite does on a full disk), and one whose `column` is 16 by failing the statement only.
async fn install_failures(db: &Db, table: &str, column: &str) -> anyhow::Result<()> {
    let sql = if db.name == "sqlite" {
        format!(
            "CREATE TRIGGER fail_{table} BEFORE INSERT ON {table} \
             BEGIN SELECT CASE NEW.{column} \
               WHEN 15 THEN RAISE(ROLLBACK, 'transaction ended') \
               WHEN 16 THEN RAISE(ABORT, 'statement failed') END; END;"
        )
    } else {
        format!(
            "CREATE FUNCTION fail_{table}() RETURNS trigger LANGUAGE plpgsql AS \
             $$ BEGIN IF NEW.{column} IN (15, 16) THEN RAISE EXCEPTION 'injected'; END IF; \
             RETURN NEW; END $$; \
             CREATE TRIGGER fail_{table} BEFORE INSERT ON {table} \
             FOR EACH ROW EXECUTE FUNCTION fail_{table}();"
        )
    };
    db.execute(&sql).await
}

/// A store on one connection, so that every write goes through the one that failed.
async fn one_connection(db: &Db) -> anyhow::Result<Store> {
    let options = StoreOptions {
        max_connections: 1,
        connect_timeout: Duration::from_millis(500),
        ..StoreOptions::default()
    };
    Ok(Store::connect_with(&db.url, options).await?)
}

/// A write on a connection of its own, which fails if another holds the write lock.
async fn side_write(db: &Db) -> anyhow::Result<()> {
    db.execute("UPDATE players SET display_name = display_name")
        .await
}

#[tokio::test]
async fn a_failed_hand_write_leaves_no_transaction_open_on_its_connection() {
    on_each_backend(|db| async move {
        install_failures(&db, "escape_penalties", "points").await?;
        let store = one_connection(&db).await?;
        let ps = players(&db, 2).await?;
        let claim = table_of(&db, "sichuan", &ps).await?;
        let id = claim.table.clone();
        let mut first = hand(&id, 0, &ps, [3, -1, -1, -1]);
        for points in [15, 16] {
            first.escapes = vec![Escape {
                player: ps[1].clone(),
                points,
            }];
            expect_err(store.record_hand(&claim, &first).await, |e| {
                matches!(e, StoreError::Database(_))
            })?;
        }
        first.escapes.clear();
        assert_eq!(store.record_hand(&claim, &first).await?, Recorded::Stored);
        // Seen from beside the store: the hand is durable, and the write lock is free.
        assert_eq!(db.count("SELECT COUNT(*) FROM hands").await?, 1);
        side_write(&db).await?;
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_failed_log_append_leaves_no_transaction_open_on_its_connection() {
    on_each_backend(|db| async move {
        install_failures(&db, "room_actions", "seq").await?;
        let store = one_connection(&db).await?;
        let ps = players(&db, 1).await?;
        let claim = table_of(&db, "sichuan", &ps).await?;
        for seq in [15, 16] {
            expect_err(
                store.append_actions(&claim, &[common::entry(seq)]).await,
                |e| matches!(e, StoreError::Database(_)),
            )?;
        }
        store.append_actions(&claim, &[common::entry(0)]).await?;
        assert_eq!(db.count("SELECT COUNT(*) FROM room_actions").await?, 1);
        side_write(&db).await?;
        Ok(())
    })
    .await;
}

/// A database that cannot take a write for now (here, one that takes no write at all: an
/// SQLite file opened read-only, a PostgreSQL database whose transactions are read-only, as on
/// a standby) is worth a retry: a finished hand waits for it instead of being refused. An
/// error in what was written is not.
#[tokio::test]
async fn a_database_that_cannot_take_writes_now_is_worth_a_retry_and_a_refused_write_is_not() {
    on_each_backend(|db| async move {
        install_failures(&db, "room_actions", "seq").await?;
        let ps = players(&db, 1).await?;
        let claim = table_of(&db, "sichuan", &ps).await?;
        let refused = expect_err(
            db.store.append_actions(&claim, &[common::entry(16)]).await,
            |e| matches!(e, StoreError::Database(_)),
        )?;
        assert!(!refused.is_transient(), "{refused:?}");
        if db.name == "postgres" {
            let name = db.url.rsplit('/').next().unwrap_or_default();
            db.execute(&format!(
                "ALTER DATABASE {name} SET default_transaction_read_only = on"
            ))
            .await?;
        }
        // Opened as `mahjong db status` opens it: no migration, and on SQLite no write.
        let options = StoreOptions {
            access: Access::ReadOnly,
            ..StoreOptions::default()
        };
        let read_only = Store::connect_with(&db.url, options).await?;
        let err = expect_err(
            read_only.append_actions(&claim, &[common::entry(0)]).await,
            |e| matches!(e, StoreError::Database(_)),
        )?;
        assert!(err.is_transient(), "{err:?}");
        Ok(())
    })
    .await;
}
