//! What the server promises a player, checked from outside over real sockets: the stream's
//! `seq` is the server's own, and an escape sticks. Each test states the promise as
//! proto/README.md words it and drives the server as a client would.

mod common;

use std::time::Duration;

use common::{Client, create_room, guest, prompt_of};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(20);

/// A `last_seq` the server never sent (far ahead, or the largest number) gets a snapshot
/// numbered by the server's own stream, which then goes on from it; it never becomes the
/// stream's counter (10^15 + 1) nor wraps it to 0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_last_seq_the_server_never_sent_gets_the_servers_snapshot() {
    let (server, _clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (_, token, table, first) = common::alone_with_bots(addr, "sichuan", 1).await;
    let mut seen = first.last_seq;
    drop(first);
    for claimed in [1_000_000_000_000_000, u64::MAX] {
        let mut back = Client::connect(addr, &table, &token, Some(claimed))
            .await
            .expect("reconnect");
        let snapshot = back.next(WAIT).await.expect("message").expect("open");
        assert_eq!(snapshot["type"], "snapshot", "{snapshot}");
        let seq = snapshot["seq"].as_u64().expect("a snapshot has a seq");
        assert!(
            seq > seen && seq < seen + 50,
            "last_seq {claimed}: the snapshot is numbered by the server's stream (after {seen}), got {seq}"
        );
        // The stream goes on from the snapshot: a round trip, then what follows it.
        back.sync().await;
        seen = back.last_seq;
        drop(back);
    }
    // And the true last seq resumes exactly after it.
    let mut resumed = Client::connect(addr, &table, &token, Some(seen))
        .await
        .expect("reconnect");
    let next = resumed.next(WAIT).await.expect("message").expect("open");
    assert_eq!(next["seq"].as_u64(), Some(seen + 1), "{next}");
    server.finish().await;
}

/// Escaped means the bot plays the seat for the rest of the match: the escaper's `hello` is
/// refused with `escaped` (no snapshot, no prompt), and so is joining again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_escaped_player_does_not_get_the_seat_back() {
    let (server, _clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (_, token, table, mut client) = common::alone_with_bots(addr, "sichuan", 4).await;
    client.send(json!({"type": "leave"})).await.expect("leave");
    drop(client);
    // The bot finishes the hand for the seat (the next one waits for the hand-driven clock).
    common::eventually("the hand the player escaped from is stored", async || {
        common::stored_hands(addr, &table).await.len() == 1
    })
    .await;
    let mut back = Client::connect(addr, &table, &token, None)
        .await
        .expect("reconnect");
    let answer = back.next(WAIT).await.expect("message").expect("an answer");
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "escaped", "{answer}");
    // Then the server closes the socket with 1008 (policy) and the code as the reason.
    let close = tokio::time::timeout(WAIT, back.socket.next())
        .await
        .expect("a close frame in time");
    match close {
        Some(Ok(Message::Close(Some(frame)))) => {
            assert_eq!(u16::from(frame.code), 1008, "{frame:?}");
            assert_eq!(frame.reason.as_str(), "escaped", "{frame:?}");
        }
        other => panic!("expected a close frame, got {other:?}"),
    }
    let (_, room) = common::http(addr, "GET", "/api/rooms", None, None)
        .await
        .expect("rooms");
    assert!(
        room.as_array()
            .is_none_or(|rooms| rooms.iter().all(|r| r["table"] != json!(table))),
        "a table with an escaped seat is not listed as having a free seat: {room}"
    );
    server.finish().await;
}

/// How an escape counts (proto/README.md, "Reconnection"): the hand escaped from is the
/// escaper's; hands dealt after it are stored for the table but credited to no one; for the
/// rating the escaper ranks last (against three bots at 1500: −16 whatever the scores).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hands_after_an_escape_are_not_the_escapers_and_the_escape_ranks_last() {
    let (server, clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (player, _, table, mut client) = common::alone_with_bots(addr, "sichuan-xuezhan", 3).await;
    client.send(json!({"type": "leave"})).await.expect("leave");
    drop(client);
    for played in 1..=3 {
        common::eventually("the bots finish the hand", async || {
            if played > 1 {
                // The next hand is dealt on the room's clock, timed from when the room hears
                // the last hand stored, which can be after the hand shows: advanced once,
                // right after, the clock could pass before the deal was set.
                clock.advance(Duration::from_secs(60));
            }
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
        [json!(player), Value::Null, Value::Null],
        "only the hand escaped from is the escaper's: {hands:?}"
    );
    let (_, history) = common::http(
        addr,
        "GET",
        &format!("/api/players/{player}/history"),
        None,
        None,
    )
    .await
    .expect("history");
    assert_eq!(
        history.as_array().map(Vec::len),
        Some(1),
        "the escaper's history holds the one hand: {history}"
    );
    // The row says how the hand ended, as its stored hand does.
    assert_eq!(history[0]["ending"], hands[0]["ending"], "{history}");
    // The player's page names them (the name `alone_with_bots` signed up with).
    let (status, me) = common::http(addr, "GET", &format!("/api/players/{player}"), None, None)
        .await
        .expect("player");
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["id"], json!(player), "{me}");
    assert!(
        me["display_name"].as_str().is_some_and(|n| !n.is_empty()),
        "{me}"
    );
    for (path, code) in [
        ("/api/players/nope".to_string(), 400),
        (
            format!(
                "/api/players/{}",
                "0".repeat(8) + "-0000-4000-8000-" + &"0".repeat(12)
            ),
            404,
        ),
    ] {
        let (status, body) = common::http(addr, "GET", &path, None, None)
            .await
            .expect("player");
        assert_eq!(status, code, "{path}: {body}");
    }
    let (_, board) = common::http(
        addr,
        "GET",
        "/api/leaderboards/sichuan-xuezhan?by=rating",
        None,
        None,
    )
    .await
    .expect("leaderboard");
    let row = board
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["player"] == json!(player)))
        .unwrap_or_else(|| panic!("the escaper is on the board: {board}"));
    assert_eq!(row["hands"], 1, "{row}");
    assert_eq!(row["score"], hands[0]["seats"][0]["delta"], "{row}");
    assert_eq!(
        row["rating"], 1484.0,
        "ranked last against three bots: {row}"
    );
    server.finish().await;
}

/// A request that does not parse is answered `bad_message` with its `id`, so the client can
/// settle that request; a tile is written exactly (`" 5m"` and `"5 m"` are not tiles).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_request_is_answered_with_its_id_and_spaced_tiles_are_refused() {
    let (server, _clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (_, _, _, mut client) = common::alone_with_bots(addr, "sichuan", 1).await;
    for (id, tile) in [(77, " 5m"), (78, "5 m"), (79, "5m ")] {
        client
            .send(json!({"type": "act", "id": id, "action": {"type": "discard", "tile": tile}}))
            .await
            .expect("send");
        let answer = loop {
            let m = client.next(WAIT).await.expect("message").expect("open");
            if m["type"] == "error" {
                break m;
            }
        };
        assert_eq!(answer["code"], "bad_message", "{tile:?}: {answer}");
        assert_eq!(
            answer["id"], id,
            "{tile:?}: the error names the request: {answer}"
        );
    }
    server.finish().await;
}

/// Signing out ends the session everywhere: a seat's socket and a spectator's socket opened
/// with the token close (1008, reason `signed_out`), and the token opens nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_out_closes_the_sockets_opened_with_the_token() {
    let (server, _clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (_, token, table, mut seat) = common::alone_with_bots(addr, "sichuan", 1).await;
    let mut watcher = Client::watch(addr, &table, &token).await.expect("watch");
    watcher.next(WAIT).await.expect("a snapshot").expect("open");
    let (status, _) = common::http(addr, "DELETE", "/api/sessions", Some(&token), None)
        .await
        .expect("sign out");
    assert_eq!(status, 204);
    for client in [&mut seat, &mut watcher] {
        let close = loop {
            let frame = tokio::time::timeout(WAIT, client.socket.next())
                .await
                .expect("closed in time");
            match frame {
                Some(Ok(Message::Close(frame))) => break frame,
                Some(Ok(_)) => continue,
                other => panic!("expected a close frame, got {other:?}"),
            }
        };
        let frame = close.expect("a close frame with a code");
        assert_eq!(u16::from(frame.code), 1008, "{frame:?}");
        assert_eq!(frame.reason.as_str(), "signed_out", "{frame:?}");
    }
    let mut again = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    let answer = again.next(WAIT).await.expect("message").expect("open");
    assert_eq!(answer["code"], "bad_token", "{answer}");
    server.finish().await;
}

/// A room's claim window is one of its settings, in range: 1 to 15 seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_window_out_of_range_is_refused() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (_, token) = guest(addr, "设置").await;
    for bad in [json!(0), json!(16)] {
        let (status, body) = common::http(
            addr,
            "POST",
            "/api/rooms",
            Some(&token),
            Some(json!({"ruleset": "sichuan", "claim_window_seconds": bad})),
        )
        .await
        .expect("create");
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body["code"].is_string(), "a typed error: {body}");
    }
    server.finish().await;
}

/// A player whose connection drops is announced to the table (`seat_changed`, `disconnected`),
/// even when the room noticed the drop first by failing to send to it. Five tables, as the
/// two ways the room learns of a drop race each other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_connection_is_announced_to_the_table() {
    let (server, _clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    for _ in 0..5 {
        let (_, away) = guest(addr, "离开").await;
        let (_, stays) = guest(addr, "留下").await;
        let room = create_room(
            addr,
            &away,
            json!({"ruleset": "sichuan", "hands": 1, "bots": ["basic", "basic"]}),
        )
        .await;
        let table = room["table"].as_str().unwrap_or_default().to_string();
        let code = room["code"].as_str().unwrap_or_default().to_string();
        common::join_room(addr, &stays, &code).await;
        let mut gone = Client::connect(addr, &table, &away, None)
            .await
            .expect("connect");
        let mut player = Client::connect(addr, &table, &stays, None)
            .await
            .expect("connect");
        loop {
            let m = gone.next(WAIT).await.expect("message").expect("open");
            if m["type"] == "event" {
                break;
            }
        }
        drop(gone);
        common::eventually("the table is told seat 0 dropped", async || {
            player.sync().await;
            player
                .received
                .iter()
                .rfind(|m| m["type"] == "seat_changed" && m["seat"] == 0)
                .is_some_and(|m| m["status"] == "disconnected")
        })
        .await;
    }
    server.finish().await;
}

/// Reads raw frames until the server's close frame: its code and reason.
async fn close_frame(client: &mut Client) -> (u16, String) {
    loop {
        let frame = tokio::time::timeout(WAIT, client.socket.next())
            .await
            .expect("a frame in time");
        match frame {
            Some(Ok(Message::Close(Some(f)))) => return (u16::from(f.code), f.reason.to_string()),
            Some(Ok(Message::Text(t))) => {
                let m: Value = serde_json::from_str(&t).expect("JSON");
                if let Some(legal) = prompt_of(&m) {
                    client.act(common::choose(&legal)).await.expect("act");
                }
            }
            Some(Ok(_)) => {}
            other => panic!("expected a close frame, got {other:?}"),
        }
    }
}

/// The server closes the socket itself, with a code: 1000 `ended` after `table_closed` (the
/// match is over), 1000 `left` after `leave`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_closes_a_finished_or_left_table_with_a_code() {
    let (server, _clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (_, _, _, mut client) = common::alone_with_bots(addr, "sichuan", 1).await;
    let first = client
        .received
        .last()
        .and_then(prompt_of)
        .expect("the first prompt");
    client.act(common::choose(&first)).await.expect("act");
    // Play the one hand out: table_closed, then the close frame.
    assert_eq!(close_frame(&mut client).await, (1000, "ended".to_string()));
    let (_, _, _, mut leaving) = common::alone_with_bots(addr, "sichuan", 1).await;
    leaving.send(json!({"type": "leave"})).await.expect("leave");
    assert_eq!(close_frame(&mut leaving).await, (1000, "left".to_string()));
    server.finish().await;
}

/// A finished match's room stays while its players' streams are kept (20 s): a player who
/// blinked as the match ended resumes to `table_closed` and the close, a spectator gets the
/// final table and the close. Then the room is gone: `hello` is refused with `table_closed`
/// (1000), the join code opens nothing and the lobby no longer lists it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_closes_its_room() {
    let (server, clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (_, token) = guest(addr, "终局").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "sichuan", "hands": 2, "bots": ["basic", "basic", "basic"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let code = room["code"].as_str().unwrap_or_default().to_string();
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    // Both hands, the second dealt once the clock passes the gap between hands.
    let last = loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        if let Some(legal) = prompt_of(&m) {
            client.act(common::choose(&legal)).await.expect("act");
        }
        if m["type"] == "hand_over" {
            clock.advance(Duration::from_millis(100));
        }
        if m["type"] == "hand_over" && m["hand_no"] == 1 {
            // The player blinks before the table closes.
            break client.last_seq;
        }
    };
    drop(client);
    let (_, watcher) = guest(addr, "看客").await;
    // The room has seen the player go (its final table says so): `table_closed` stays the
    // stream's last message all the same.
    common::eventually("the room sees the player go", async || {
        let mut spectator = Client::watch(addr, &table, &watcher).await.expect("watch");
        let last_view = spectator.next(WAIT).await.expect("message").expect("open");
        last_view["table"]["seats"][0]["status"] == "disconnected"
    })
    .await;
    let mut back = Client::connect(addr, &table, &token, Some(last))
        .await
        .expect("reconnect");
    let closed = back.next(WAIT).await.expect("message").expect("open");
    assert_eq!(
        (closed["type"].as_str(), closed["seq"].as_u64()),
        (Some("table_closed"), Some(last + 1)),
        "{closed}"
    );
    let after = tokio::time::timeout(WAIT, back.socket.next())
        .await
        .expect("a frame in time");
    match after {
        Some(Ok(Message::Close(Some(f)))) => {
            assert_eq!((u16::from(f.code), f.reason.as_str()), (1000, "ended"));
        }
        other => panic!("the stream ends with table_closed, then the close: {other:?}"),
    }
    let mut spectator = Client::watch(addr, &table, &watcher).await.expect("watch");
    let last_view = spectator.next(WAIT).await.expect("message").expect("open");
    assert_eq!(last_view["type"], "snapshot", "{last_view}");
    assert_eq!(close_frame(&mut spectator).await.0, 1000);

    clock.advance(Duration::from_secs(21));
    common::eventually("the room closes", async || {
        let mut late = Client::connect(addr, &table, &token, Some(last))
            .await
            .expect("connect");
        let m = late.next(WAIT).await.expect("message").expect("open");
        m["type"] == "error" && m["code"] == "table_closed"
    })
    .await;
    let (status, body) = common::http(
        addr,
        "POST",
        "/api/rooms/join",
        Some(&watcher),
        Some(json!({"code": code})),
    )
    .await
    .expect("join");
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("not_found")),
        "{body}"
    );
    let (_, listed) = common::http(addr, "GET", "/api/rooms", None, None)
        .await
        .expect("rooms");
    assert!(
        !listed.to_string().contains(&table),
        "the lobby lists a closed room: {listed}"
    );
    server.finish().await;
}
