//! PostgreSQL over TLS, as managed services require it: `sslmode=require` encrypts, and
//! `verify-full` with the service's CA (`sslrootcert`) also checks whom it talks to.
//!
//! Runs against the throwaway server `.ci/pg-tls` starts (TLS or nothing: its `pg_hba.conf`
//! refuses plain connections, so a store that opens and writes there spoke TLS). Without
//! `TEST_DATABASE_TLS_URL` the tests say so and pass, unless `MAHJONG_REQUIRE_PG_TLS=1` (CI).

mod common;

use sqlx::Connection;
use store::{Store, StoreError};

/// The TLS server and its CA certificate, or `None` when none was started.
fn tls_server() -> Option<(String, String)> {
    let url = std::env::var("TEST_DATABASE_TLS_URL")
        .ok()
        .filter(|u| !u.is_empty());
    let root = std::env::var("TEST_DATABASE_TLS_ROOT")
        .ok()
        .filter(|r| !r.is_empty());
    match (url, root) {
        (Some(url), Some(root)) => Some((url, root)),
        _ => {
            assert!(
                std::env::var("MAHJONG_REQUIRE_PG_TLS").as_deref() != Ok("1"),
                "MAHJONG_REQUIRE_PG_TLS=1 but TEST_DATABASE_TLS_URL / TEST_DATABASE_TLS_ROOT are not set (see .ci/pg-tls)"
            );
            eprintln!("no TEST_DATABASE_TLS_URL: PostgreSQL over TLS not tested (see .ci/pg-tls)");
            None
        }
    }
}

/// A fresh database on the TLS server, and its URL with `query` appended.
async fn fresh_database(admin: &str, query: &str) -> String {
    let name = format!("mahjong_tls_{}", uuid::Uuid::now_v7().simple());
    let mut c = sqlx::PgConnection::connect(&format!("{admin}?sslmode=require"))
        .await
        .expect("reach the TLS server with sslmode=require");
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut c)
        .await
        .expect("create a test database");
    c.close().await.expect("close");
    format!("{}?{query}", common::with_database(admin, &name))
}

/// Opens the store, migrates it, and writes through it.
async fn open_and_write(url: &str) -> Result<Store, StoreError> {
    let store = Store::connect(url).await?;
    store.check_writable().await?;
    Ok(store)
}

#[tokio::test]
async fn sslmode_require_opens_migrates_and_writes() {
    let Some((admin, _)) = tls_server() else {
        return;
    };
    let url = fresh_database(&admin, "sslmode=require").await;
    let store = open_and_write(&url).await.expect("a store over TLS");
    let (open, _) = store.pool_use();
    assert!(open >= 1, "the pool holds a connection");
}

#[tokio::test]
async fn verify_full_with_the_services_ca_opens() {
    let Some((admin, root)) = tls_server() else {
        return;
    };
    let url = fresh_database(&admin, &format!("sslmode=verify-full&sslrootcert={root}")).await;
    open_and_write(&url)
        .await
        .expect("a store over TLS with the certificate checked");
}

#[tokio::test]
async fn verify_full_without_the_ca_is_refused_and_says_why() {
    let Some((admin, _)) = tls_server() else {
        return;
    };
    let url = fresh_database(&admin, "sslmode=verify-full").await;
    let err = open_and_write(&url)
        .await
        .expect_err("a certificate from an unknown CA must be refused");
    assert!(
        matches!(err, StoreError::Unreachable { .. }),
        "typed as unreachable: {err:?}"
    );
    let text = err.to_string();
    assert!(
        text.to_lowercase().contains("certificate"),
        "the error names the certificate: {text}"
    );
}

#[tokio::test]
async fn a_plain_connection_is_refused_by_this_server() {
    // The guard that makes the other tests mean something: this server takes TLS only.
    let Some((admin, _)) = tls_server() else {
        return;
    };
    let url = fresh_database(&admin, "sslmode=disable").await;
    let err = open_and_write(&url)
        .await
        .expect_err("plain connections are refused");
    assert!(matches!(err, StoreError::Unreachable { .. }), "{err:?}");
}
