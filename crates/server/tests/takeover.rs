//! 托管 and coming back, checked from outside over real sockets on a hand-driven clock: the bot
//! plays an absent player's seat at the table's pace, a restored table gives its players the
//! restore grace before the bot plays for them, and a player who comes back gets its snapshot
//! before anything else of its stream (proto/README.md, "Reconnection" and "Takeover").

mod common;

use std::path::Path;
use std::time::Duration;

use common::{Client, prompt_of};
use serde_json::{Value, json};
use server::time::ManualTime;

const WAIT: Duration = Duration::from_secs(20);

/// The table as a spectator arriving now sees it: its arrival snapshot (the rooms here have no
/// spectator delay and hold no claim window, so it comes at once). The room answers a watcher
/// after everything due by then, so this is also the table after the clock's last step.
async fn glance(addr: std::net::SocketAddr, table: &str, token: &str) -> Value {
    let mut watcher = Client::watch(addr, table, token).await.expect("watch");
    let first = watcher.next(WAIT).await.expect("message").expect("open");
    assert_eq!(
        first["type"], "snapshot",
        "a spectator starts with a snapshot: {first}"
    );
    first
}

/// A spectator who has arrived: its arrival snapshot is read, so the room has let it in and
/// everything it does from now on reaches it.
async fn arrived(addr: std::net::SocketAddr, table: &str, token: &str) -> Client {
    let mut spectator = Client::watch(addr, table, token).await.expect("watch");
    let first = spectator.next(WAIT).await.expect("message").expect("open");
    assert_eq!(first["type"], "snapshot", "{first}");
    spectator
}

/// Seat `seat`'s discards so far in the hand on show (hand number, count).
fn discards(snapshot: &Value, seat: usize) -> (u64, usize) {
    let table = &snapshot["table"];
    let river = table["view"]["seats"][seat]["river"]
        .as_array()
        .map_or(0, Vec::len);
    (table["hand_no"].as_u64().unwrap_or(0), river)
}

/// Every seat's discards in the hand on show.
fn all_discards(snapshot: &Value) -> usize {
    snapshot["table"]["view"]["seats"]
        .as_array()
        .map_or(0, |seats| {
            seats
                .iter()
                .map(|s| s["river"].as_array().map_or(0, Vec::len))
                .sum()
        })
}

/// From the last message received, reads (answering what the player is asked with
/// `common::choose`) until a prompt that asks for a discard, and returns it unanswered.
async fn until_discard_prompt(client: &mut Client) -> Value {
    let mut m = client.received.last().cloned().unwrap_or_default();
    loop {
        if let Some(legal) = prompt_of(&m) {
            if legal.iter().any(|a| a["type"] == "discard") {
                return m;
            }
            client.act(common::choose(&legal)).await.expect("act");
        }
        m = client.next(WAIT).await.expect("message").expect("open");
    }
}

/// The decision time of the bot playing for an absent player, set for the pace test.
const TAKEOVER_MS: u64 = 1_500;
/// The clock's step: the room acts only when it moves, so everything happens at a step.
const STEP_MS: u64 = 250;

/// With its only player gone, the bot plays the seat at the table's pace: nothing before the
/// grace ends, then each of the seat's discards at least the takeover time after the last,
/// so the three bots cannot race through the match either (every round waits on the seat).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_plays_an_absent_players_seat_at_the_tables_pace() {
    let (server, clock) = common::sqlite_server_on_clock(|c| c.takeover_ms = TAKEOVER_MS).await;
    let addr = server.addr;
    let (_, _, table, mut client) = common::alone_with_bots(addr, "shanghai", 50).await;
    let (_, watcher) = common::guest(addr, "看客").await;
    until_discard_prompt(&mut client).await;
    let start = discards(&glance(addr, &table, &watcher).await, 0);
    drop(client);
    common::eventually("the room sees the player gone", async || {
        let snapshot = glance(addr, &table, &watcher).await;
        snapshot["table"]["seats"][0]["status"] == "disconnected"
    })
    .await;
    let mut last = (start, 0u64);
    let mut seen = 0;
    let mut elapsed = 0;
    while elapsed < 30_000 {
        clock.advance(Duration::from_millis(STEP_MS));
        elapsed += STEP_MS;
        eprintln!("step {elapsed}");
        let now = discards(&glance(addr, &table, &watcher).await, 0);
        if now == last.0 {
            continue;
        }
        if now.0 == last.0.0 {
            assert_eq!(
                now.1,
                last.0.1 + 1,
                "one discard per step at most, at {elapsed} ms"
            );
            // The takeover time since the seat was asked: since the player's own prompt
            // (before the drop) or since the seat's last discard at the soonest.
            assert!(
                elapsed - last.1 >= TAKEOVER_MS,
                "the seat discarded {} ms after its last discard, under {TAKEOVER_MS} ms",
                elapsed - last.1
            );
            seen += 1;
        }
        last = (now, elapsed);
    }
    // The bot does play: a seat is asked to discard about once a round.
    let hands = last.0.0 - start.0;
    assert!(
        seen >= 5,
        "the bot discarded for the seat {seen} times in 30 s, at least {TAKEOVER_MS} ms apart \
         in one hand, and {hands} hands went by (a race plays a hand a step)"
    );
    server.finish().await;
}

/// Stops a server as a crash would leave its store: the next one restores from it.
async fn stop(running: server::Running) {
    running.task.abort();
    server::stop_rooms(&running.state).await;
    running.state.store.close().await;
}

/// A server on the SQLite database in `dir`, on its own hand-driven clock.
async fn start_in(dir: &Path, restore_grace_ms: u64) -> (server::Running, ManualTime) {
    let clock = ManualTime::new();
    let mut config = common::config(dir, None);
    config.time = clock.source();
    config.restore_grace_ms = restore_grace_ms;
    (server::start(config).await.expect("start server"), clock)
}

/// After a restart the table waits for its players: the bot does not play a player's seat
/// until the restore grace (counted from the restore) has passed, however short the grace after
/// a dropped connection. The player who then comes back gets its snapshot first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restored_table_gives_its_players_the_restore_grace() {
    const RESTORE_GRACE_MS: u64 = 1_000;
    let dir = std::env::temp_dir().join(format!("mahjong-takeover-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (running, clock) = start_in(&dir, RESTORE_GRACE_MS).await;
    let addr = running.addr;
    let (token, table, mut client) = alone_with_windows(addr, 4).await;
    to_discard_prompt(&mut client, &clock).await;
    let last = client.last_seq;
    drop(client);
    stop(running).await;

    // The same store, restarted; the room's claim windows (1 s) are held while a spectator
    // watches.
    let (running, clock) = start_in(&dir, RESTORE_GRACE_MS).await;
    let addr = running.addr;
    let (_, watcher) = common::guest(addr, "看客").await;
    let before = glance(addr, &table, &watcher).await;
    let mut elapsed = 0;
    while elapsed + STEP_MS < RESTORE_GRACE_MS {
        clock.advance(Duration::from_millis(STEP_MS));
        elapsed += STEP_MS;
        let now = glance(addr, &table, &watcher).await;
        assert_eq!(
            all_discards(&now),
            all_discards(&before),
            "the table waits for the player's discard at {elapsed} ms of a {RESTORE_GRACE_MS} ms grace"
        );
    }
    // From here a discard holds a claim window open, and a spectator arriving in one waits
    // for it: the spectator stays.
    let mut spectator = arrived(addr, &table, &watcher).await;
    clock.advance(Duration::from_millis(2 * STEP_MS));
    loop {
        let m = spectator.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "event" && m["event"]["kind"] == "discarded" {
            assert_eq!(m["event"]["seat"], 0, "the seat whose turn it was: {m}");
            break;
        }
    }
    // Inside a claim window (the bots discard at once, and each discard holds one open while
    // the spectator watches), the player comes back with the seq it had before the restart.
    let mut back = Client::connect(addr, &table, &token, Some(last))
        .await
        .expect("reconnect");
    let early = back.sync().await;
    assert!(
        !early.iter().any(|m| m["seq"].is_u64()),
        "the window was held and nothing of the stream came before it closed: {early:?}"
    );
    clock.advance(Duration::from_millis(1_000));
    let first = first_of_stream(&mut back, early).await;
    assert_eq!(
        first["type"], "snapshot",
        "the snapshot comes first: {first}"
    );
    assert!(first["seq"].as_u64().is_some_and(|s| s > last), "{first}");
    drop(spectator);
    stop(running).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A room of `ruleset` with three bots whose claim windows last 1 s, its creator connected:
/// (token, table, client).
async fn alone_with_windows(addr: std::net::SocketAddr, hands: u32) -> (String, String, Client) {
    let (_, token) = common::guest(addr, "久别").await;
    let room = common::create_room(
        addr,
        &token,
        json!({"ruleset": "shanghai", "hands": hands, "claim_window_seconds": 1,
               "bots": ["basic", "basic", "basic"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    (token, table, client)
}

/// Claim windows hold the bots' discards until the clock moves: it moves a window at a time,
/// the player answering what it is asked, until the player is asked to discard (no window is
/// held then; a spectator arriving in one would wait for it).
async fn to_discard_prompt(client: &mut Client, clock: &ManualTime) {
    loop {
        for m in client.sync().await {
            if let Some(legal) = prompt_of(&m) {
                if legal.iter().any(|a| a["type"] == "discard") {
                    return;
                }
                client.act(common::choose(&legal)).await.expect("act");
            }
        }
        clock.advance(Duration::from_millis(1_000));
    }
}

/// The first message of the seat's stream (one with a `seq`), among `early` (what came before
/// a round trip) or after it.
async fn first_of_stream(client: &mut Client, early: Vec<Value>) -> Value {
    if let Some(m) = early.into_iter().find(|m| m["seq"].is_u64()) {
        return m;
    }
    loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        if m["seq"].is_u64() {
            return m;
        }
    }
}

/// A player away longer than the server keeps its stream (20 s) gets a snapshot, and it is the
/// first message of the stream after `hello`, also when the player comes back inside a claim
/// window (the snapshot then waits for the window; nothing of the stream goes ahead of it).
/// After the snapshot, `seq` goes up by one a message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_long_absence_the_snapshot_comes_first() {
    let (server, clock) = common::sqlite_server_on_clock(|c| c.reconnect_ms = 120_000).await;
    let addr = server.addr;
    let (token, table, mut client) = alone_with_windows(addr, 50).await;
    to_discard_prompt(&mut client, &clock).await;
    let (_, watcher) = common::guest(addr, "看客").await;
    // A spectator keeps the table watched, so claim windows are held while the player is away.
    let mut spectator = arrived(addr, &table, &watcher).await;
    let mut held = 0;
    for _ in 0..4 {
        let last = client.last_seq;
        drop(client);
        loop {
            let m = match spectator.next(Duration::from_secs(5)).await {
                Ok(Some(m)) => m,
                other => panic!("{other:?}: {:?}", spectator.received),
            };
            if m["type"] == "seat_changed" && m["seat"] == 0 && m["status"] == "disconnected" {
                break;
            }
        }
        for _ in 0..50 {
            clock.advance(Duration::from_millis(500));
        }
        client = Client::connect(addr, &table, &token, Some(last))
            .await
            .expect("reconnect");
        let early = client.sync().await;
        if !early.iter().any(|m| m["seq"].is_u64()) {
            held += 1;
        }
        clock.advance(Duration::from_millis(1_000));
        let first = first_of_stream(&mut client, early).await;
        assert_eq!(
            first["type"], "snapshot",
            "the snapshot comes first: {first}"
        );
        let mut seq = first["seq"].as_u64().expect("seq");
        assert!(seq > last, "{first}");
        // The stream goes on from the snapshot, one by one, through one more window.
        if let Some(legal) = prompt_of(&first) {
            client.act(common::choose(&legal)).await.expect("act");
        }
        clock.advance(Duration::from_millis(1_000));
        for m in client.sync().await {
            if let Some(s) = m["seq"].as_u64() {
                assert_eq!(s, seq + 1, "{m}");
                seq = s;
            }
        }
    }
    assert!(held >= 1, "no return fell inside a claim window");
    drop(spectator);
    server.finish().await;
}

/// Before the first deal nobody plays for anyone and nobody escapes: a player who took a seat
/// and never connected shows `disconnected` past the grace (not `takeover`), and when the
/// reconnection window closes gives the seat back (`empty`) instead of escaping; joining again
/// seats them, and the first hand is dealt once they connect.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_never_came_gives_the_seat_back_before_the_first_deal() {
    let (server, clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (player, token) = common::guest(addr, "未到").await;
    let room = common::create_room(
        addr,
        &token,
        json!({"ruleset": "sichuan", "hands": 1, "bots": ["basic", "basic", "basic"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let code = room["code"].as_str().unwrap_or_default().to_string();
    let (_, watcher) = common::guest(addr, "看客").await;
    clock.advance(Duration::from_millis(1_000));
    let waiting = glance(addr, &table, &watcher).await;
    assert_eq!(
        waiting["table"]["seats"][0]["status"], "disconnected",
        "{waiting}"
    );
    assert!(waiting["table"]["view"].is_null(), "no hand yet: {waiting}");
    clock.advance(Duration::from_millis(1_000));
    common::eventually("the seat is given back", async || {
        let now = glance(addr, &table, &watcher).await;
        now["table"]["seats"][0]["status"] == "empty" && now["table"]["view"].is_null()
    })
    .await;
    let (_, escapes) = common::http(
        addr,
        "GET",
        &format!("/api/players/{player}/escapes"),
        None,
        None,
    )
    .await
    .expect("escapes");
    assert_eq!(
        escapes.as_array().map(Vec::len),
        Some(0),
        "no escape: {escapes}"
    );
    common::join_room(addr, &token, &code).await;
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    let prompt = common::until_prompt(&mut client).await;
    assert!(
        prompt_of(&prompt).is_some(),
        "the first hand is dealt: {prompt}"
    );
    server.finish().await;
}

/// A room whose first hand is never dealt (a seat nobody takes) closes when the server's wait
/// is over: its player's stream ends with `table_closed` and the close, and it leaves the lobby
/// with its join code.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_nobody_joins_closes() {
    let (server, clock) = common::sqlite_server_on_clock(|c| c.room_wait_ms = 5_000).await;
    let addr = server.addr;
    let (_, token) = common::guest(addr, "空等").await;
    let room = common::create_room(
        addr,
        &token,
        json!({"ruleset": "sichuan", "hands": 1, "bots": ["basic", "basic"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let code = room["code"].as_str().unwrap_or_default().to_string();
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    let first = client.next(WAIT).await.expect("message").expect("open");
    assert_eq!(first["type"], "snapshot", "{first}");
    let (_, listed) = common::http(addr, "GET", "/api/rooms", None, None)
        .await
        .expect("rooms");
    assert!(listed.to_string().contains(&table), "listed while it waits");
    clock.advance(Duration::from_millis(5_000));
    let closed = loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "table_closed" {
            break m;
        }
    };
    assert!(closed["seq"].is_u64(), "in the stream: {closed}");
    assert!(
        client.next(WAIT).await.expect("the close").is_none(),
        "the stream ends there"
    );
    let (_, watcher) = common::guest(addr, "后来").await;
    common::eventually("its join code opens nothing", async || {
        let (status, _) = common::http(
            addr,
            "POST",
            "/api/rooms/join",
            Some(&watcher),
            Some(json!({"code": code})),
        )
        .await
        .expect("join");
        status == 404
    })
    .await;
    let (_, listed) = common::http(addr, "GET", "/api/rooms", None, None)
        .await
        .expect("rooms");
    assert!(
        !listed.to_string().contains(&table),
        "gone from the lobby: {listed}"
    );
    server.finish().await;
}
