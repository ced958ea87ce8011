//! The store failing during play. A finished hand is written beside the room, not inside it:
//! while the database refuses the write (a PostgreSQL restarting), the room still answers its
//! players and spectators, tells nobody the result and deals nothing; once the database takes
//! the write, the result goes out and the next hand is dealt. A bot's action the store refused
//! is tried again after a backoff, by the room itself.
//!
//! The hand-writer test runs on PostgreSQL (a trigger refuses the hand with the code a
//! restarting server sends) and without TEST_DATABASE_URL says so and passes; the bots' test
//! runs on SQLite.

mod common;

use std::time::Duration;

use common::{Client, TestServer};
use serde_json::Value;

/// The server on PostgreSQL, and the URL of its database; None without TEST_DATABASE_URL.
async fn postgres_server() -> Option<(TestServer, String)> {
    let server = common::postgres_server().await?;
    let (admin, name) = server.pg.clone()?;
    Some((server, common::with_database(&admin, &name)))
}

async fn execute(url: &str, sql: &str) {
    let mut c = <sqlx_pg::PgConnection as sqlx_pg::Connection>::connect(url)
        .await
        .expect("reach the test database");
    sqlx_pg::raw_sql(sqlx_pg::AssertSqlSafe(sql.to_string()))
        .execute(&mut c)
        .await
        .expect("run SQL beside the server");
}

/// The finished hands refused as a restarting PostgreSQL refuses them (57P01,
/// admin_shutdown): a failure worth retrying.
const REFUSE_HANDS: &str = "
CREATE FUNCTION refuse_hands() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the database is restarting' USING ERRCODE = '57P01';
END $$;
CREATE TRIGGER refuse_hands BEFORE INSERT ON hands FOR EACH ROW EXECUTE FUNCTION refuse_hands();
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_room_serves_its_players_while_a_finished_hand_waits_for_the_database() {
    let Some((server, url)) = postgres_server().await else {
        eprintln!("no TEST_DATABASE_URL: the hand writer is not tested on PostgreSQL");
        return;
    };
    let addr = server.addr;
    let (_, _, table, mut client) = common::alone_with_bots(addr, "shanghai", 2).await;
    execute(&url, REFUSE_HANDS).await;
    let failures = "mahjong_store_failures_total";
    // Play the hand out; once it is over nothing comes until its result is stored.
    let mut quiet = 0;
    let first_prompt = client.received.last().and_then(common::prompt_of);
    if let Some(legal) = first_prompt {
        client.act(common::choose(&legal)).await.expect("act");
    }
    while common::metric(addr, failures).await as u64 == 0 {
        match client.next(Duration::from_millis(200)).await {
            Ok(Some(m)) => {
                assert_ne!(
                    m["type"], "hand_over",
                    "a result was sent before it was stored"
                );
                if let Some(legal) = common::prompt_of(&m) {
                    client.act(common::choose(&legal)).await.expect("act");
                }
            }
            Ok(None) => panic!("the socket closed"),
            Err(_) => {
                quiet += 1;
                assert!(quiet < 100, "the hand neither ended nor was written");
            }
        }
    }
    // The write keeps failing, and the room keeps answering: a round trip through it, and a
    // spectator let in with a snapshot.
    let before = client.sync().await;
    assert!(
        before.iter().all(|m| m["type"] != "hand_over"),
        "no result before it is stored: {before:?}"
    );
    let (_, watcher) = common::guest(addr, "看客").await;
    let mut spectator = Client::watch(addr, &table, &watcher).await.expect("watch");
    let first = spectator
        .next(Duration::from_secs(20))
        .await
        .expect("the room answers a spectator")
        .expect("open");
    assert_eq!(first["type"], "snapshot", "{first}");
    common::eventually("the writer retries", async || {
        common::metric(addr, failures).await as u64 >= 2
    })
    .await;
    assert!(common::stored_hands(addr, &table).await.is_empty());
    assert!(
        client.sync().await.iter().all(|m| m["type"] != "hand_over"),
        "still nothing told"
    );
    // The database is back: the result goes out, stored, and the next hand is dealt.
    execute(&url, "DROP TRIGGER refuse_hands ON hands").await;
    let over = loop {
        let m = client
            .next(Duration::from_secs(30))
            .await
            .expect("the result once stored")
            .expect("open");
        if m["type"] == "hand_over" {
            break m;
        }
    };
    assert_eq!(over["hand_no"], 0);
    assert_eq!(common::stored_hands(addr, &table).await.len(), 1);
    let next: Value = common::until_prompt(&mut client).await;
    assert_eq!(next["hand_no"], 1, "the next hand is dealt: {next}");
    server.finish().await;
}

/// A bot's action that could not be logged is tried again by itself once the store is back,
/// after a backoff: nothing else would wake the room (a bot has no deadline), and the table
/// would wait for ever for a player's command. On SQLite, a trigger refuses the bots' rows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_action_refused_by_the_store_is_tried_again() {
    let (server, clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (_, _, _, mut client) = common::alone_with_bots(addr, "sichuan", 1).await;
    let url = store::default_url(&server.dir);
    let side = async |sql: &str| {
        let mut c = <sqlx_pg::SqliteConnection as sqlx_pg::Connection>::connect(&url)
            .await
            .expect("open the database file");
        sqlx_pg::raw_sql(sqlx_pg::AssertSqlSafe(sql.to_string()))
            .execute(&mut c)
            .await
            .expect("run SQL beside the server");
    };
    side(
        "CREATE TRIGGER refuse_bots BEFORE INSERT ON room_actions WHEN NEW.seat <> 0 \
         BEGIN SELECT RAISE(ABORT, 'the disk is gone'); END",
    )
    .await;
    // The player's own actions are logged; the first bot's that follows is refused. The
    // player may be the dealer, whose discard comes first and whose claim window is held on
    // the hand-driven clock: the player plays, and time passes, until a bot has acted.
    let mut prompt = client.received.last().and_then(common::prompt_of);
    let mut refused = false;
    for _ in 0..50 {
        if let Some(legal) = prompt.take() {
            client.act(common::choose(&legal)).await.expect("act");
        }
        if common::metric(addr, "mahjong_store_failures_total").await >= 1.0 {
            refused = true;
            break;
        }
        clock.advance(Duration::from_secs(5));
        if let Ok(Some(m)) = client.next(Duration::from_millis(200)).await {
            prompt = common::prompt_of(&m);
        }
    }
    assert!(refused, "no bot's action was refused");
    let seen = client.sync().await.len();
    side("DROP TRIGGER refuse_bots").await;
    // Nothing but time passes: the room tries again after its backoff (which grew with each
    // refusal), and the bots play on.
    let mut bots_acted = false;
    for _ in 0..200 {
        let Ok(m) = client.next(Duration::from_millis(500)).await else {
            clock.advance(Duration::from_secs(2));
            continue;
        };
        let m = m.expect("open");
        if m["type"] == "event" && m["event"]["seat"].as_u64().is_some_and(|s| s != 0) {
            bots_acted = true;
            break;
        }
    }
    assert!(bots_acted, "a bot acted again after {seen} messages");
    server.finish().await;
}
