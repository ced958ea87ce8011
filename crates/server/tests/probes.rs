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
            .is_some_and(|m| m.contains("within 0.9 s")),
        "{body}"
    );
    assert_eq!(get("/healthz").await.0, 200, "alive all the same");
    assert_eq!(
        common::metric(addr, "mahjong_ready").await,
        0.0,
        "shown in /metrics"
    );
    sqlx_pg::raw_sql("ROLLBACK")
        .execute(&mut holder)
        .await
        .expect("unlock");
    drop(holder);
    assert_eq!(get("/readyz").await.0, 200, "ready again");
    assert_eq!(common::metric(addr, "mahjong_ready").await, 1.0);

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

/// Expired sessions are deleted when the server starts (and hourly after): a server that runs
/// for months does not keep every guest's session row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_sessions_are_deleted() {
    let dir = std::env::temp_dir().join(format!("mahjong-purge-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let url = store::default_url(&dir);
    let db = store::Store::connect(&url).await.expect("open");
    let player = db.create_player("过期").await.expect("player");
    let now = store::UnixMillis::now();
    let (stale, live) = (store::TokenHash([9; 32]), store::TokenHash([7; 32]));
    db.create_session(&stale, &player.id, now.plus_ms(-60_000))
        .await
        .expect("an expired session");
    db.create_session(&live, &player.id, now.plus_ms(3_600_000))
        .await
        .expect("a live session");
    // Seen from an hour ago, both rows are there.
    let before = now.plus_ms(-3_600_000);
    assert!(db.session(&stale, before).await.expect("read").is_some());
    let running = server::start(common::config(&dir, None))
        .await
        .expect("start server");
    common::eventually("the expired session is deleted", async || {
        db.session(&stale, before).await.expect("read").is_none()
    })
    .await;
    assert!(
        db.session(&live, now).await.expect("read").is_some(),
        "a live session stays"
    );
    running.task.abort();
    server::stop_rooms(&running.state).await;
    running.state.store.close().await;
    db.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A failing store is counted, not only logged: a player's action that cannot be logged is
/// refused (`internal`) and shows in `mahjong_store_failures_total`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn store_failures_are_counted() {
    let (server, _clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (_, _, _, mut client) = common::alone_with_bots(addr, "sichuan", 1).await;
    let legal = client
        .received
        .last()
        .and_then(common::prompt_of)
        .expect("a prompt");
    assert_eq!(
        common::metric(addr, "mahjong_store_failures_total").await,
        0.0
    );
    server.running.state.store.close().await;
    let id = client.act(common::choose(&legal)).await.expect("act");
    let refused = loop {
        let m = client
            .next(std::time::Duration::from_secs(20))
            .await
            .expect("message")
            .expect("open");
        if m["id"].as_u64() == Some(id) {
            break m;
        }
    };
    assert_eq!(
        (refused["type"].as_str(), refused["code"].as_str()),
        (Some("error"), Some("internal")),
        "{refused}"
    );
    let after_rooms = common::metric(addr, "mahjong_store_failures_total").await;
    assert!(after_rooms >= 1.0);
    // An HTTP request the store fails is answered 503 and counted the same way.
    let (status, body) = common::http(addr, "GET", "/api/leaderboards/sichuan", None, None)
        .await
        .expect("an answer");
    assert_eq!(
        (status, body["code"].as_str()),
        (503, Some("store_unavailable")),
        "{body}"
    );
    // The body names a request id to quote, never the database's own words.
    let message = body["message"].as_str().unwrap_or_default();
    assert!(message.contains("request id"), "{body}");
    assert!(!message.to_lowercase().contains("pool"), "{body}");
    assert!(common::metric(addr, "mahjong_store_failures_total").await > after_rooms);
    server.finish().await;
}

/// `/metrics` counts the rooms alive by the phase of their match, and times requests under
/// their route's template (not the path with its ids).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_show_rooms_by_phase_and_requests_by_route() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (_, _, table, _client) = common::alone_with_bots(addr, "sichuan", 1).await;
    assert!(common::stored_hands(addr, &table).await.is_empty());
    let (status, text) = common::http(addr, "GET", "/metrics", None, None)
        .await
        .expect("metrics");
    assert_eq!(status, 200);
    let text = text.as_str().unwrap_or_default().to_string();
    assert!(
        text.contains("mahjong_rooms{phase=\"playing\"} 1"),
        "one room playing: {text}"
    );
    assert!(
        text.contains("mahjong_rooms{phase=\"waiting\"} 0"),
        "{text}"
    );
    let route = "route=\"/api/tables/{table}/hands\"";
    assert!(
        text.lines().any(
            |l| l.starts_with("mahjong_http_request_duration_seconds_count")
                && l.contains(route)
                && l.contains("status=\"200\"")
        ),
        "the hands request under its template: {text}"
    );
    assert!(!text.contains(&table), "no id in a label: {text}");
    server.finish().await;
}

/// The HTTP layers an operator relies on: every answer carries its request id
/// (`x-request-id`, the client's own when it sent one), and a body is compressed for a client
/// that asks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_carry_a_request_id_and_are_compressed_when_asked() {
    let server = common::sqlite_server().await;
    let head = async |extra: &str| {
        common::raw(server.addr, "GET /api/rulesets", extra, b"")
            .await
            .expect("an HTTP answer")
            .head
    };
    let plain = head("").await;
    assert!(plain.contains("x-request-id: "), "{plain}");
    assert!(!plain.contains("content-encoding"), "{plain}");
    let own = head("X-Request-Id: probe-42\r\n").await;
    assert!(own.contains("x-request-id: probe-42"), "{own}");
    let gzip = head("Accept-Encoding: gzip\r\n").await;
    assert!(gzip.contains("content-encoding: gzip"), "{gzip}");
    server.finish().await;
}

/// `--db-pool-size` bounds the connections the server holds, however many requests come at
/// once (PostgreSQL counts them against a limit every node shares).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_holds_no_more_connections_than_its_size() {
    let server = common::sqlite_server_with(|c| c.db_pool_size = 2).await;
    let addr = server.addr;
    let sign_ups: Vec<_> = (0..24)
        .map(|i| tokio::spawn(async move { common::guest(addr, &format!("池{i}")).await }))
        .collect();
    for s in sign_ups {
        s.await.expect("a sign-up");
    }
    let (status, text) = common::http(addr, "GET", "/metrics", None, None)
        .await
        .expect("metrics");
    assert_eq!(status, 200);
    let open: f64 = text
        .as_str()
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("mahjong_db_pool_connections{state=\"open\"} "))
        .and_then(|v| v.trim().parse().ok())
        .expect("the pool's open connections");
    assert!((1.0..=2.0).contains(&open), "{open} connections open");
    server.finish().await;
}
