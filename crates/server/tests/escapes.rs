//! Escapes (逃跑) as proto/README.md ("Reconnection") and the rules ("Escapes, in every family")
//! promise them, seen from outside: an escape shows in `GET /api/players/{p}/escapes` the
//! moment it happens, not when its hand ends; an escape between two hands (a `leave` right
//! after `hand_over`, or staying away past the reconnection window then) is an escape from the
//! next hand, which is the escaper's, played by the bot, with the ruleset's penalty. A restart
//! in between is `crates/cli/tests/escapes.rs`.

mod common;

use std::time::Duration;

use common::{Client, choose, http, prompt_of};
use serde_json::{Value, json};

/// Shanghai's escape penalty (shanghai.md, "Escape and leaving").
const PENALTY: i64 = 15;

/// The escapes recorded against `player`.
async fn escapes(addr: std::net::SocketAddr, player: &str) -> Vec<Value> {
    let (status, body) = http(
        addr,
        "GET",
        &format!("/api/players/{player}/escapes"),
        None,
        None,
    )
    .await
    .expect("escapes");
    assert_eq!(status, 200, "{body}");
    body.as_array().cloned().unwrap_or_default()
}

/// Plays the seat with [`choose`] until the hand's `hand_over`, which is returned.
async fn play_to_hand_over(client: &mut Client, first: Option<Value>) -> Value {
    let mut pending = first.as_ref().and_then(prompt_of);
    loop {
        if let Some(legal) = pending.take() {
            client.act(choose(&legal)).await.expect("act");
        }
        let m = client
            .next(Duration::from_secs(20))
            .await
            .expect("a message")
            .expect("open");
        if m["type"] == "hand_over" {
            return m;
        }
        pending = prompt_of(&m);
    }
}

/// A player who leaves in the middle of a hand has its escape recorded at once: it shows
/// before the hand ends (the bot, at the table's pace on the room's clock, has not finished
/// it), charged to the hand in play, with the ruleset's penalty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_escape_is_recorded_the_moment_it_happens() {
    let (server, _clock) = common::sqlite_server_on_clock(|c| c.takeover_ms = 1_000).await;
    let addr = server.addr;
    let (player, _, table, mut client) = common::alone_with_bots(addr, "shanghai", 3).await;
    client.send(json!({"type": "leave"})).await.expect("leave");
    while client
        .next(Duration::from_secs(20))
        .await
        .ok()
        .flatten()
        .is_some()
    {}
    assert_eq!(client.closed.as_ref().map(|c| c.0), Some(1000));
    common::eventually("the escape is recorded", async || {
        !escapes(addr, &player).await.is_empty()
    })
    .await;
    assert_eq!(
        escapes(addr, &player).await,
        [json!({"table": table, "hand_no": 0, "points": PENALTY})]
    );
    assert!(
        common::stored_hands(addr, &table).await.is_empty(),
        "the hand escaped from is still in play"
    );
    server.finish().await;
}

/// How a player gets away between two hands.
#[derive(Clone, Copy, Debug)]
enum Between {
    /// `leave` right after `hand_over`.
    Leaves,
    /// The socket drops right after `hand_over`, and the player stays away past the
    /// reconnection window before the next deal.
    StaysAway,
}

/// An escape between hands is an escape from the next hand: that hand is the escaper's (its
/// stored seat names them), the penalty is recorded against it, and the hands after it are
/// nobody's. The leaderboard's score is the escaper's two hands less the penalty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_escape_between_hands_is_charged_the_next_hand() {
    for how in [Between::Leaves, Between::StaysAway] {
        // The next deal waits longer than the reconnection window (1.5 s): the escape happens
        // with no hand in play.
        let (server, clock) = common::sqlite_server_on_clock(|c| c.next_hand_ms = 10_000).await;
        let addr = server.addr;
        let (player, _, table, mut client) = common::alone_with_bots(addr, "shanghai", 3).await;
        let first = client.received.last().cloned();
        let over = play_to_hand_over(&mut client, first).await;
        assert_eq!(over["hand_no"], 0, "{over}");
        match how {
            Between::Leaves => client.send(json!({"type": "leave"})).await.expect("leave"),
            // The reconnection window runs on the room's clock, advanced below.
            Between::StaysAway => drop(client),
        }
        // A tenth of a second at a time: the window (1.5 s) passes long before the deal (10 s).
        common::eventually("the escape is recorded", async || {
            clock.advance(Duration::from_millis(100));
            !escapes(addr, &player).await.is_empty()
        })
        .await;
        assert_eq!(
            escapes(addr, &player).await,
            [json!({"table": table, "hand_no": 1, "points": PENALTY})],
            "{how:?}: the escape is from the next hand"
        );
        for played in 2..=3 {
            common::eventually("the bots finish the hand", async || {
                clock.advance(Duration::from_secs(20));
                common::stored_hands(addr, &table).await.len() == played
            })
            .await;
        }
        let hands = common::stored_hands(addr, &table).await;
        let credited: Vec<Value> = hands
            .iter()
            .map(|h| h["seats"][0]["player"].clone())
            .collect();
        assert_eq!(
            credited,
            [json!(player), json!(player), Value::Null],
            "{how:?}: the hand escaped from is the escaper's, the next nobody's: {hands:?}"
        );
        let (_, board) = http(addr, "GET", "/api/leaderboards/shanghai", None, None)
            .await
            .expect("leaderboard");
        let row = board
            .as_array()
            .and_then(|rows| rows.iter().find(|r| r["player"] == json!(player)))
            .cloned()
            .unwrap_or_else(|| panic!("the escaper is on the board: {board}"));
        let played: i64 = hands[..2]
            .iter()
            .map(|h| h["seats"][0]["delta"].as_i64().unwrap_or_default())
            .sum();
        assert_eq!(row["hands"], 2, "{how:?}: {row}");
        assert_eq!(row["score"], json!(played - PENALTY), "{how:?}: {row}");
        server.finish().await;
    }
}
