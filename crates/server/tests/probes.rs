//! The probes an orchestrator polls, from outside: `/healthz` answers while the process lives,
//! whatever the database does; `/readyz` is green only while the database takes a write, and
//! answers at once (within its 1 s) when the database refuses or hangs.

mod common;

use sqlx_pg::Connection;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_the_databases_writes_and_liveness_does_not() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let get = async |path: &str| {
        common::http(addr, "GET", path, None, None)
            .await
            .expect("probe")
    };
    assert_eq!(get("/healthz").await, (200, serde_json::json!("ok")));
    let (status, ready) = get("/readyz").await;
    assert_eq!(
        (status, ready["status"].as_str()),
        (200, Some("ready")),
        "{ready}"
    );
    assert_eq!(ready["backend"], "sqlite", "{ready}");

    // Another process holds the file's write lock: the server's write waits, and readiness
    // says so on time instead of waiting with it.
    let url = store::default_url(&server.dir);
    let mut holder = sqlx_pg::SqliteConnection::connect(&url)
        .await
        .expect("open the database file");
    sqlx_pg::raw_sql("BEGIN EXCLUSIVE")
        .execute(&mut holder)
        .await
        .expect("lock");
    let (status, body) = get("/readyz").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (503, Some("not_ready")),
        "{body}"
    );
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("within 1 s")),
        "{body}"
    );
    assert_eq!(get("/healthz").await.0, 200, "alive all the same");
    sqlx_pg::raw_sql("ROLLBACK")
        .execute(&mut holder)
        .await
        .expect("unlock");
    drop(holder);
    assert_eq!(get("/readyz").await.0, 200, "ready again");

    // A database that refuses writes outright (here: the server's pool closed).
    server.running.state.store.close().await;
    let (status, body) = get("/readyz").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (503, Some("not_ready")),
        "{body}"
    );
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("refused")),
        "{body}"
    );
    assert_eq!(get("/healthz").await.0, 200, "alive all the same");
    server.finish().await;
}
