//! Whole hands over real WebSockets on loopback.

mod common;

use std::time::Duration;

use common::{Client, choose, create_room, guest, http, join_room, prompt_of};
use serde_json::{Value, json};
use sha2::Digest;

const WAIT: Duration = Duration::from_secs(20);

/// Sends a `ping` and reads up to its `pong`; returns what came before it.
async fn ping(client: &mut Client, id: u64) -> Vec<Value> {
    client
        .send(json!({"type": "ping", "id": id}))
        .await
        .expect("send");
    let mut before = Vec::new();
    loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "pong" && m["id"] == id {
            return before;
        }
        before.push(m);
    }
}

/// Plays `client`'s prompts until the hand is over; returns the `hand_over` message.
async fn play_out(client: &mut Client) -> anyhow::Result<Value> {
    loop {
        let Some(m) = client.next(WAIT).await? else {
            anyhow::bail!("socket closed before the hand ended");
        };
        if let Some(legal) = prompt_of(&m) {
            client.act(choose(&legal)).await?;
            continue;
        }
        match m["type"].as_str() {
            Some("hand_over") => return Ok(m),
            Some("error") => anyhow::bail!("error from the server: {m}"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_players_play_a_hand_to_its_settlement_and_it_is_stored() {
    for server in common::servers().await {
        four_players_play_a_hand_to_its_settlement_and_it_is_stored_on(server.addr).await;
        server.finish().await;
    }
}

async fn four_players_play_a_hand_to_its_settlement_and_it_is_stored_on(
    addr: std::net::SocketAddr,
) {
    let mut tokens = Vec::new();
    for name in ["东", "南", "西", "北"] {
        tokens.push(guest(addr, name).await);
    }
    let (status, room) = http(
        addr,
        "POST",
        "/api/rooms",
        Some(&tokens[0].1),
        Some(json!({"ruleset": "sichuan-xuezhan", "hands": 1, "action_seconds": 30})),
    )
    .await
    .expect("create room");
    assert_eq!(status, 201, "{room}");
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let code = room["code"].as_str().unwrap_or_default().to_string();
    for (_, token) in &tokens[1..] {
        let (status, seated) = http(
            addr,
            "POST",
            "/api/rooms/join",
            Some(token),
            Some(json!({"code": code})),
        )
        .await
        .expect("join");
        assert_eq!(status, 200, "{seated}");
    }
    let (status, full) = http(
        addr,
        "POST",
        "/api/rooms/join",
        Some(&guest(addr, "晚到").await.1),
        Some(json!({"code": code})),
    )
    .await
    .expect("join a full table");
    assert_eq!((status, full["code"].as_str()), (409, Some("conflict")));
    let mut clients = Vec::new();
    for (_, token) in &tokens {
        clients.push(
            Client::connect(addr, &table, token, None)
                .await
                .expect("connect"),
        );
    }
    let mut tasks = Vec::new();
    for mut c in clients {
        tasks.push(tokio::spawn(async move {
            let over = play_out(&mut c).await;
            (c, over)
        }));
    }
    let mut settlements = Vec::new();
    for t in tasks {
        let (client, over) = t.await.expect("client task");
        let over = over.expect("the hand ends");
        let seed = over["seed"].as_str().unwrap_or_default().to_string();
        assert!(seed.parse::<u64>().is_ok(), "{over}");
        settlements.push(over["settlement"].clone());
        // Every client saw the seed committed before the deal, and the revealed seed matches.
        let committed: Vec<&str> = client
            .received
            .iter()
            .filter(|m| m["type"] == "hand_starting")
            .filter_map(|m| m["seed_sha256"].as_str())
            .collect();
        let digest = sha2::Sha256::digest(seed.as_bytes());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(committed, vec![hex.as_str()]);
    }
    assert!(
        settlements.windows(2).all(|w| w[0] == w[1]),
        "every seat sees one settlement"
    );
    let deltas: i64 = settlements[0]["deltas"]
        .as_array()
        .map_or(1, |d| d.iter().filter_map(Value::as_i64).sum());
    assert_eq!(deltas, 0, "a settlement sums to zero");
    // The hand is stored with its fan lines, and its replay is served.
    let hands = common::stored_hands(addr, &table).await;
    assert_eq!(hands.len(), 1);
    assert_eq!(hands[0]["settlement"], settlements[0]);
    let (status, replay) = http(
        addr,
        "GET",
        &format!("/api/tables/{table}/hands/0"),
        None,
        None,
    )
    .await
    .expect("replay");
    assert_eq!(status, 200);
    assert!(
        replay["record"]["actions"]
            .as_array()
            .is_some_and(|a| !a.is_empty()),
        "{replay}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_is_played_by_the_bot_and_resumes_where_it_left() {
    for server in common::servers().await {
        a_dropped_player_is_played_by_the_bot_and_resumes_where_it_left_on(server.addr).await;
        server.finish().await;
    }
}

async fn a_dropped_player_is_played_by_the_bot_and_resumes_where_it_left_on(
    addr: std::net::SocketAddr,
) {
    let (_, token) = guest(addr, "掉线").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "sichuan", "hands": 1, "bots": ["basic", "basic", "basic"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    // Play until the first prompt, then drop without answering.
    loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        if prompt_of(&m).is_some() {
            break;
        }
    }
    let last = client.last_seq;
    drop(client);
    // The bot takes over after the grace and finishes the hand.
    common::eventually(
        "the bot finished the hand for the dropped player",
        async || common::stored_hands(addr, &table).await.len() == 1,
    )
    .await;
    // Back with the last seq seen: exactly the missed messages follow, ending with the hand's end.
    let mut back = Client::connect(addr, &table, &token, Some(last))
        .await
        .expect("reconnect");
    let mut saw_takeover = false;
    let mut seqs = Vec::new();
    loop {
        let m = back.next(WAIT).await.expect("message").expect("open");
        if let Some(s) = m["seq"].as_u64() {
            seqs.push(s);
        }
        if m["type"] == "seat_changed" && m["status"] == "takeover" {
            saw_takeover = true;
        }
        if m["type"] == "hand_over" {
            break;
        }
    }
    assert_eq!(
        seqs.first().copied(),
        Some(last + 1),
        "resumes right after the last seen"
    );
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "no gaps");
    assert!(saw_takeover, "the seat was announced as played by the bot");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_typed_errors_and_changes_nothing() {
    for server in common::servers().await {
        bad_input_gets_typed_errors_and_changes_nothing_on(server.addr).await;
        server.finish().await;
    }
}

async fn bad_input_gets_typed_errors_and_changes_nothing_on(addr: std::net::SocketAddr) {
    let (_, token) = guest(addr, "测试").await;
    let (_, room) = http(
        addr,
        "POST",
        "/api/rooms",
        Some(&token),
        Some(json!({"ruleset": "sichuan-xuezhan", "hands": 1, "bots": ["basic", "basic", "basic"], "action_seconds": 60})),
    )
    .await
    .expect("create room");
    let table = room["table"].as_str().unwrap_or_default().to_string();
    // A bad token.
    let mut stranger = Client::connect(addr, &table, &"0".repeat(64), None)
        .await
        .expect("connect");
    let m = stranger
        .next(WAIT)
        .await
        .expect("reply")
        .expect("an error first");
    assert_eq!(
        (m["type"].as_str(), m["code"].as_str()),
        (Some("error"), Some("bad_token"))
    );
    let mut c = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    let legal = loop {
        let m = c.next(WAIT).await.expect("message").expect("open");
        if let Some(legal) = prompt_of(&m) {
            break legal;
        }
    };
    let expect_error = async |c: &mut Client, send: Value, code: &str| {
        c.send(send.clone()).await.expect("send");
        loop {
            let m = c.next(WAIT).await.expect("reply").expect("open");
            if m["type"] == "error" {
                assert_eq!(m["code"].as_str(), Some(code), "for {send}: {m}");
                return;
            }
        }
    };
    expect_error(&mut c, json!("not an object"), "bad_message").await;
    expect_error(&mut c, json!({"type": "shout"}), "bad_message").await;
    expect_error(
        &mut c,
        json!({"type": "act", "id": 1, "action": {"type": "discard", "tile": "9z"}}),
        "bad_message",
    )
    .await;
    // A legal-looking action that is not legal now.
    expect_error(
        &mut c,
        json!({"type": "act", "id": 2, "action": {"type": "pung"}}),
        "illegal_action",
    )
    .await;
    expect_error(
        &mut c,
        json!({"type": "act", "id": 2, "action": {"type": "pass"}}),
        "duplicate_id",
    )
    .await;
    // The prompt still stands: its first legal action is accepted.
    c.send(json!({"type": "act", "id": 3, "action": choose(&legal)}))
        .await
        .expect("send");
    loop {
        let m = c.next(WAIT).await.expect("reply").expect("open");
        if m["type"] == "ack" {
            assert_eq!(m["id"], 3);
            break;
        }
        assert_ne!(m["type"], "error", "{m}");
    }
    // An oversized frame closes the connection with too_large.
    let big = json!({"type": "ping", "id": 1, "pad": "x".repeat(protocol::MAX_CLIENT_FRAME)});
    c.send(big).await.expect("send");
    let mut saw = false;
    while let Ok(Some(m)) = c.next(WAIT).await {
        if m["type"] == "error" {
            assert_eq!(m["code"].as_str(), Some("too_large"), "{m}");
            saw = true;
            break;
        }
    }
    assert!(saw, "an oversized frame is refused");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flooding_connection_is_rate_limited_and_other_rooms_play_on() {
    let server = common::sqlite_server_with(|c| c.client_rate = 20).await;
    let addr = server.addr;
    let mut tables = Vec::new();
    for name in ["flood", "calm"] {
        let (_, token) = guest(addr, name).await;
        let (status, room) = http(
            addr,
            "POST",
            "/api/rooms",
            Some(&token),
            Some(json!({"ruleset": "sichuan", "hands": 1, "bots": ["basic", "basic", "basic"]})),
        )
        .await
        .expect("create room");
        assert_eq!(status, 201, "{room}");
        tables.push((
            room["table"].as_str().unwrap_or_default().to_string(),
            token,
        ));
    }
    let mut flooder = Client::connect(addr, &tables[0].0, &tables[0].1, None)
        .await
        .expect("connect");
    let mut calm = Client::connect(addr, &tables[1].0, &tables[1].1, None)
        .await
        .expect("connect");
    let calm_task = tokio::spawn(async move { play_out(&mut calm).await });
    for id in 0..500u64 {
        flooder
            .send(json!({"type": "ping", "id": id}))
            .await
            .expect("send");
    }
    let (mut pongs, mut limited) = (0, 0);
    while pongs + limited < 500 {
        let Some(m) = flooder.next(WAIT).await.expect("reply") else {
            break;
        };
        match (m["type"].as_str(), m["code"].as_str()) {
            (Some("pong"), _) => pongs += 1,
            (Some("error"), Some("rate_limited")) => limited += 1,
            _ => {}
        }
    }
    assert!(
        pongs <= 60,
        "a burst of about 40 passes, then 20 a second: {pongs} passed"
    );
    assert_eq!(
        pongs + limited,
        500,
        "every message is answered, one way or the other"
    );
    // The other room was not held up: it plays its hand to the end meanwhile.
    calm_task
        .await
        .expect("calm client")
        .expect("the other room finished its hand");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_leaves_mid_hand_has_escaped_and_the_bot_finishes_the_hand() {
    for server in common::servers().await {
        leaves_mid_hand_on(server.addr, Gone::Leaves, "sichuan", 0).await;
        server.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shanghai_player_who_escapes_has_the_fifteen_point_penalty_stored() {
    for server in common::servers().await {
        leaves_mid_hand_on(server.addr, Gone::Leaves, "shanghai", 15).await;
        server.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_never_returns_has_escaped_when_the_reconnection_window_closes() {
    for server in common::servers().await {
        leaves_mid_hand_on(server.addr, Gone::NeverReturns, "sichuan", 0).await;
        server.finish().await;
    }
}

/// How the player leaves the table.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gone {
    /// Sends `leave` mid-hand.
    Leaves,
    /// Its connection drops and it never comes back.
    NeverReturns,
}

/// A player escapes from a hand of `ruleset`; the store must hold `penalty` points for it.
async fn leaves_mid_hand_on(addr: std::net::SocketAddr, how: Gone, ruleset: &str, penalty: i64) {
    let (leaver_id, leaver) = guest(addr, "逃跑").await;
    let (_, stayer) = guest(addr, "留下").await;
    let room = create_room(
        addr,
        &leaver,
        json!({"ruleset": ruleset, "hands": 1, "bots": ["basic", "basic"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let code = room["code"].as_str().unwrap_or_default().to_string();
    join_room(addr, &stayer, &code).await;
    let mut gone = Client::connect(addr, &table, &leaver, None)
        .await
        .expect("connect");
    let mut stays = Client::connect(addr, &table, &stayer, None)
        .await
        .expect("connect");
    // The one who stays holds its first decision until seat 0 has escaped, so the hand is
    // still in play when that happens (a decision owed stops the hand).
    let staying = tokio::spawn(async move {
        let mut held = None;
        loop {
            let m = stays.next(WAIT).await.expect("message").expect("open");
            if held.is_none()
                && let Some(legal) = prompt_of(&m)
            {
                held = Some(legal);
            }
            if m["type"] == "seat_changed" && m["seat"] == 0 && m["status"] == "escaped" {
                break;
            }
        }
        if let Some(legal) = held {
            stays.act(choose(&legal)).await.expect("act");
        }
        let over = play_out(&mut stays).await;
        (stays, over)
    });
    // The leaver goes once the hand is dealt.
    loop {
        let m = gone.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "hand_starting" || prompt_of(&m).is_some() {
            match how {
                Gone::Leaves => gone.send(json!({"type": "leave"})).await.expect("leave"),
                Gone::NeverReturns => drop(gone),
            }
            break;
        }
    }
    let (stays, over) = staying.await.expect("the staying client");
    let over = over.expect("the hand ends for the one who stayed");
    assert!(over["settlement"]["deltas"].is_array());
    let escaped = stays
        .received
        .iter()
        .any(|m| m["type"] == "seat_changed" && m["seat"] == 0 && m["status"] == "escaped");
    assert!(escaped, "the others are told the seat escaped");
    assert_eq!(
        common::stored_hands(addr, &table).await.len(),
        1,
        "the bot finished and the hand is stored"
    );
    // The escape is in the store with the ruleset's penalty (Sichuan sets none: 0 points;
    // Shanghai 15).
    let (status, escapes) = http(
        addr,
        "GET",
        &format!("/api/players/{leaver_id}/escapes"),
        None,
        None,
    )
    .await
    .expect("escapes");
    assert_eq!(status, 200, "{escapes}");
    assert_eq!(
        escapes,
        json!([{"table": table, "hand_no": 0, "points": penalty}]),
        "the escape is recorded"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_see_public_events_only_and_late_by_the_room_delay() {
    let (server, clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (_, player) = guest(addr, "牌手").await;
    let (_, watcher) = guest(addr, "观众").await;
    let (status, room) = http(
        addr,
        "POST",
        "/api/rooms",
        Some(&player),
        Some(
            json!({"ruleset": "sichuan-xuezhan", "hands": 1, "bots": ["basic", "basic", "basic"],
                    "spectator_delay_seconds": 1}),
        ),
    )
    .await
    .expect("create room");
    assert_eq!(status, 201, "{room}");
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut spectator = Client::watch(addr, &table, &watcher).await.expect("watch");
    // Spectators only watch (a reply, not part of the delayed stream, comes at once).
    spectator
        .send(json!({"type": "act", "id": 1, "action": {"type": "pass"}}))
        .await
        .expect("send");
    let refused = spectator.next(WAIT).await.expect("reply").expect("open");
    assert_eq!(refused["code"], "not_seated", "{refused}");
    spectator.received.clear();
    let mut client = Client::connect(addr, &table, &player, None)
        .await
        .expect("connect");
    // The whole hand is played while the rooms' clock stands still: every public message, the
    // spectator's first snapshot included, is due a second later, and the spectator sees none
    // of it until then.
    let over = play_out(&mut client).await.expect("the hand ends");
    clock.advance(Duration::from_millis(999));
    let early = ping(&mut spectator, 1).await;
    assert!(early.is_empty(), "shown before the delay: {early:?}");
    clock.advance(Duration::from_millis(1));
    let first = spectator.next(WAIT).await.expect("message").expect("open");
    assert_eq!(first["type"], "snapshot", "{first}");
    assert!(first["table"]["seat"].is_null(), "a spectator has no seat");
    assert!(
        first["table"]["code"].is_null(),
        "the join code is the players' to share: {first}"
    );
    assert_eq!(first["table"]["hands"], 1, "{first}");
    let spectator_over = loop {
        let m = spectator.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "hand_over" {
            break m;
        }
    };
    assert_eq!(spectator_over["settlement"], over["settlement"]);
    for m in &spectator.received {
        assert_ne!(m["type"], "prompt", "no prompts for spectators");
        let e = &m["event"];
        assert_ne!(e["kind"], "dealt", "no one's dealt tiles: {m}");
        if e["kind"] == "drew" {
            assert!(e["tile"].is_null(), "no one's draws: {m}");
        }
        if let Some(hand) = m["table"]["view"]["hand"].as_array() {
            assert!(
                hand.is_empty(),
                "no concealed tiles in a spectator's view: {m}"
            );
        }
    }
    assert!(
        spectator
            .received
            .iter()
            .any(|m| m["event"]["kind"] == "discarded")
    );
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_settle_endpoint_scores_like_the_command_line() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/sichuan/public.jsonl");
    let text = std::fs::read_to_string(&path).expect("the public Sichuan vectors");
    let lines: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a vector"))
        .collect();
    let (status, answers) = http(
        addr,
        "POST",
        "/api/settle",
        None,
        Some(Value::Array(lines.clone())),
    )
    .await
    .expect("settle");
    assert_eq!(status, 200, "{answers}");
    let answers = answers.as_array().cloned().unwrap_or_default();
    assert_eq!(answers.len(), lines.len());
    for (line, answer) in lines.iter().zip(&answers) {
        let expected = engine::format::settle_text(&line.to_string());
        assert_eq!(*answer, serde_json::to_value(expected).expect("json"));
        assert_eq!(answer["id"], line["id"]);
    }
    // Hands no play can reach are refused over HTTP as the hand-worked expected lines say.
    for preset in ["sichuan", "sichuan-xuezhan", "shanghai", "beijing"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../conformance")
            .join(preset);
        let read = |name: &str| -> Vec<Value> {
            std::fs::read_to_string(dir.join(name))
                .expect("the referee vectors")
                .lines()
                .map(|l| serde_json::from_str(l).expect("a line"))
                .collect()
        };
        let (inputs, expected) = (read("referee.jsonl"), read("referee.expected.jsonl"));
        let (status, answers) = http(addr, "POST", "/api/settle", None, Some(json!(inputs)))
            .await
            .expect("settle");
        assert_eq!(status, 200, "{answers}");
        let answers = answers.as_array().cloned().unwrap_or_default();
        assert_eq!(answers.len(), expected.len());
        for (answer, want) in answers.iter().zip(&expected) {
            assert_eq!(answer["id"], want["id"]);
            match want.get("error") {
                Some(error) => assert_eq!(answer["error"]["code"], error["code"], "{answer}"),
                None => assert_eq!(answer["deltas"], want["deltas"], "{answer}"),
            }
        }
    }
    let mut unknown = lines[0].clone();
    unknown["ruleset"] = json!("nope");
    let (status, one) = http(addr, "POST", "/api/settle", None, Some(unknown))
        .await
        .expect("settle");
    assert_eq!(status, 200);
    assert_eq!(one["error"]["code"], "unknown_ruleset", "{one}");
    let (status, bad) = http(addr, "POST", "/api/settle", None, None)
        .await
        .expect("settle");
    assert_eq!((status, bad["code"].as_str()), (400, Some("bad_request")));
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_score_endpoint_scores_guobiao_hands_like_the_command_line() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/mcr/golden_public.jsonl");
    let text = std::fs::read_to_string(&path).expect("the golden Guobiao hands");
    let lines: Vec<Value> = text
        .lines()
        .take(200)
        .map(|l| serde_json::from_str(l).expect("a hand"))
        .collect();
    let (status, answers) = http(
        addr,
        "POST",
        "/api/score",
        None,
        Some(Value::Array(lines.clone())),
    )
    .await
    .expect("score");
    assert_eq!(status, 200, "{answers}");
    let answers = answers.as_array().cloned().unwrap_or_default();
    assert_eq!(answers.len(), lines.len());
    for (line, answer) in lines.iter().zip(&answers) {
        assert_eq!(answer["id"], line["id"]);
        assert_eq!(answer["total"], line["total"], "{answer}");
        assert_eq!(
            answer["fans"].as_array().map(Vec::len),
            line["fans"].as_array().map(Vec::len)
        );
    }
    let mut short = lines[0].clone();
    short["concealed"] = json!("1m");
    let (status, one) = http(addr, "POST", "/api/score", None, Some(short))
        .await
        .expect("score");
    assert_eq!(status, 200);
    assert_eq!(one["error"]["code"], "not_a_win", "{one}");
    let too_many = Value::Array(vec![lines[0].clone(); 1001]);
    let (status, _) = http(addr, "POST", "/api/score", None, Some(too_many))
        .await
        .expect("score");
    assert_eq!(status, 400);
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guobiao_hand_with_flowers_and_chows_plays_to_its_settlement() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (_, token) = guest(addr, "国标").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "guobiao", "hands": 1, "bots": ["strong", "strong", "strong"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut c = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    let over = play_out(&mut c).await.expect("the hand ends");
    let deltas = over["settlement"]["deltas"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(deltas.len(), 4, "{over}");
    assert_eq!(deltas.iter().filter_map(Value::as_i64).sum::<i64>(), 0);
    // Any winner's fans reach the minimum without flowers.
    for w in over["settlement"]["fans"]
        .as_array()
        .cloned()
        .unwrap_or_default()
    {
        let flowers: i64 = w["items"]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .filter(|i| i["name"] == "花牌")
                    .map(|i| i["value"].as_i64().unwrap_or(0) * i["count"].as_i64().unwrap_or(0))
                    .sum()
            })
            .unwrap_or(0);
        assert!(w["total"].as_i64().unwrap_or(0) - flowers >= 8, "{w}");
    }
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_player_hand_with_one_bot_plays_to_its_settlement() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (_, token) = guest(addr, "二人").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "two-player", "hands": 1, "bots": ["basic"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut c = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    // The player declares ready (报听) as soon as it may; from then on it is asked only whether
    // to win, and the server discards for it.
    let mut ready = false;
    let mut bonus_turned = false;
    let over = loop {
        let m = c
            .next(WAIT)
            .await
            .expect("reads")
            .expect("the socket stays open");
        if let Some(legal) = prompt_of(&m) {
            if ready {
                for a in &legal {
                    let kind = a["type"].as_str().unwrap_or_default();
                    assert!(
                        ["self_draw_win", "win", "pass"].contains(&kind),
                        "a ready seat is asked only whether to win: {legal:?}"
                    );
                }
            }
            let declare = legal.iter().find(|a| a["type"] == "declare_ready").cloned();
            let action = match declare {
                Some(a) if !ready => {
                    ready = true;
                    a
                }
                _ => choose(&legal),
            };
            c.act(action).await.expect("acts");
            continue;
        }
        if m["type"] == "event" && m["event"]["kind"] == "bonus_turned" {
            bonus_turned = true;
        }
        match m["type"].as_str() {
            Some("hand_over") => break m,
            Some("error") => panic!("error from the server: {m}"),
            _ => {}
        }
    };
    assert!(bonus_turned, "the 花牌 is turned up for everyone to see");
    let deltas = over["settlement"]["deltas"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(deltas.len(), 2, "{over}");
    assert_eq!(deltas.iter().filter_map(Value::as_i64).sum::<i64>(), 0);
    server.finish().await;
}

// One thread: once the clock moves, the quick-match filler woken by it runs before the test
// looks at the queue again.
#[tokio::test(flavor = "current_thread")]
async fn quick_match_seats_waiting_players_together_and_fills_with_bots() {
    let (server, clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    // A quick-match request, answered when the player is seated.
    let ask = |token: String, ruleset: &'static str| {
        tokio::spawn(async move {
            http(
                addr,
                "POST",
                "/api/quickmatch",
                Some(&token),
                Some(json!({ "ruleset": ruleset })),
            )
            .await
            .expect("quick match")
        })
    };
    // Four at once: one table, no bots.
    let mut tasks = Vec::new();
    for i in 0..4 {
        let (_, token) = guest(addr, &format!("quick {i}")).await;
        tasks.push(ask(token, "sichuan"));
    }
    let mut seated = Vec::new();
    for t in tasks {
        let (status, body) = t.await.expect("task");
        assert_eq!(status, 200, "{body}");
        seated.push(body);
    }
    assert!(
        seated.windows(2).all(|w| w[0]["table"] == w[1]["table"]),
        "{seated:?}"
    );
    let mut seats: Vec<u64> = seated.iter().filter_map(|s| s["seat"].as_u64()).collect();
    seats.sort_unstable();
    assert_eq!(seats, vec![0, 1, 2, 3]);
    // Two alone: seated together with two bots once the wait is over.
    let (_, a) = guest(addr, "quick a").await;
    let (_, b) = guest(addr, "quick b").await;
    let (ta, tb) = (
        ask(a.clone(), "sichuan-xuezhan"),
        ask(b.clone(), "sichuan-xuezhan"),
    );
    let queues = server.running.state.queues.clone();
    common::eventually("both are queued", async || {
        queues.waiting("sichuan-xuezhan") == 2
    })
    .await;
    // They wait for others until the first in line has waited the fill time (300 ms in tests).
    clock.advance(Duration::from_millis(299));
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    assert_eq!(
        queues.waiting("sichuan-xuezhan"),
        2,
        "seated before the fill time"
    );
    assert!(!ta.is_finished() && !tb.is_finished());
    clock.advance(Duration::from_millis(1));
    let (ra, rb) = (ta.await.expect("a").1, tb.await.expect("b").1);
    assert_eq!(ra["table"], rb["table"], "{ra} {rb}");
    let table = ra["table"].as_str().unwrap_or_default();
    let mut client = Client::connect(addr, table, &a, None)
        .await
        .expect("connect");
    let snapshot = client.next(WAIT).await.expect("message").expect("open");
    let bots = snapshot["table"]["seats"]
        .as_array()
        .map_or(0, |s| s.iter().filter(|x| x["status"] == "bot").count());
    assert_eq!(bots, 2, "{snapshot}");
    let (status, bad) = http(
        addr,
        "POST",
        "/api/quickmatch",
        Some(&a),
        Some(json!({"ruleset": "nope"})),
    )
    .await
    .expect("bad ruleset");
    assert_eq!((status, bad["code"].as_str()), (400, Some("bad_request")));
    // A client's countdown: the wait before bots fill, as the server is configured.
    let (status, info) = http(addr, "GET", "/api/quickmatch", None, None)
        .await
        .expect("quick match info");
    assert_eq!(
        (status, info["fill_ms"].as_u64()),
        (200, Some(300)),
        "{info}"
    );
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_claim_window_lasts_the_same_whoever_could_claim() {
    // The room sets its own window; the server's default (2 s here) is for rooms that do not.
    const WINDOW: u64 = 6_000;
    let (server, clock) = common::sqlite_server_on_clock(|c| c.claim_window_ms = 2_000).await;
    let addr = server.addr;
    let (_, token) = guest(addr, "计时").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "sichuan-xuezhan", "hands": 4, "bots": ["basic", "basic", "basic"],
               "claim_window_seconds": WINDOW / 1000}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    // A room with a free seat is listed with its window.
    let (_, other) = guest(addr, "等人").await;
    let open = create_room(
        addr,
        &other,
        json!({"ruleset": "sichuan-xuezhan", "bots": ["basic"], "claim_window_seconds": 9}),
    )
    .await;
    let (_, listed) = common::http(addr, "GET", "/api/rooms", None, None)
        .await
        .expect("rooms");
    assert!(
        listed.as_array().is_some_and(|rooms| rooms
            .iter()
            .any(|r| r["table"] == open["table"] && r["claim_window_ms"] == 9_000)),
        "the lobby shows a room's claim window: {listed}"
    );
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    // After every discard (and every added kong, which may be robbed), nothing more of the hand
    // reaches the player until the window's last millisecond has passed, whether the player
    // could claim or not; a claim the player is asked for is due at the window's end. Hands
    // are played until both kinds of window were seen.
    let (mut windows, mut with_prompt) = (0, 0);
    loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "snapshot" {
            assert_eq!(m["table"]["claim_window_ms"], WINDOW, "{m}");
        }
        if ["discarded", "kong_offered"].contains(&m["event"]["kind"].as_str().unwrap_or("")) {
            let ends = clock.source().unix_ms().0 + WINDOW as i64;
            let mut prompted = false;
            for step in [WINDOW - 1, 1] {
                for early in client.sync().await {
                    assert_ne!(early["type"], "event", "inside the window: {early}");
                    assert_ne!(early["type"], "hand_over", "inside the window: {early}");
                    if let Some(legal) = prompt_of(&early) {
                        assert_eq!(early["deadline_ms"].as_i64(), Some(ends), "{early}");
                        prompted = true;
                        client.act(choose(&legal)).await.expect("act");
                    }
                }
                clock.advance(Duration::from_millis(step));
            }
            windows += 1;
            with_prompt += usize::from(prompted);
            continue;
        }
        if let Some(legal) = prompt_of(&m) {
            client.act(choose(&legal)).await.expect("act");
        }
        if m["type"] == "hand_over" {
            if with_prompt > 0 && with_prompt < windows {
                break;
            }
            // The next hand is dealt on the room's clock.
            clock.advance(Duration::from_secs(60));
        }
        assert_ne!(
            m["type"], "table_closed",
            "4 hands without both kinds of window"
        );
    }
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_asked_for_during_a_claim_window_waits_for_it_to_close() {
    const WINDOW: u64 = 2_000;
    let (server, clock) = common::sqlite_server_on_clock(|c| c.claim_window_ms = WINDOW).await;
    let addr = server.addr;
    let (_, token) = guest(addr, "重连").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "sichuan-xuezhan", "hands": 1, "bots": ["basic", "basic", "basic"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut first = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    let (seat, tile) = loop {
        let m = first.next(WAIT).await.expect("message").expect("open");
        let e = &m["event"];
        if e["kind"] == "discarded" {
            break (e["seat"].clone(), e["tile"].clone());
        }
        if let Some(legal) = prompt_of(&m) {
            first.act(choose(&legal)).await.expect("act");
        }
    };
    // A reload within the discard's window: the hand may have moved on behind it (a bot's
    // claim), and the window's events have not gone out yet. The snapshot waits for them, so it
    // shows the window closed and nothing after it repeats what it shows.
    let mut again = Client::connect(addr, &table, &token, None)
        .await
        .expect("reconnect");
    // Asked for at once (the round trip makes sure the room has the new connection), and
    // still owed a millisecond before the window ends.
    for step in [WINDOW - 1, 1] {
        for early in again.sync().await {
            assert_ne!(early["type"], "snapshot", "inside the window: {early}");
            assert_ne!(
                early["type"], "event",
                "no event before the snapshot: {early}"
            );
        }
        clock.advance(Duration::from_millis(step));
    }
    let snapshot = loop {
        let m = again.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "snapshot" {
            break m;
        }
        assert_ne!(m["type"], "event", "no event before the snapshot: {m}");
    };
    let view = &snapshot["table"]["view"];
    assert!(
        view["offered"].is_null(),
        "the window is closed: {snapshot}"
    );
    let river = view["seats"][seat.as_u64().unwrap_or_default() as usize]["river"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        river.last().map(|d| &d["tile"]),
        Some(&tile),
        "the discard is in its river: {snapshot}"
    );
    let claimed = river.last().is_some_and(|d| d["claimed"] == true);
    let next = again.next(WAIT).await.expect("message").expect("open");
    if let Some(e) = next.get("event") {
        assert!(
            !(claimed
                && ["melded", "won"].contains(&e["kind"].as_str().unwrap_or(""))
                && (e["meld"]["claimed"] == tile || e["win"]["tile"] == tile)),
            "the window's claim comes again after the snapshot: {next}"
        );
    }
    drop(first);
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_document_lists_every_http_route() {
    let server = common::sqlite_server().await;
    let (status, doc) = http(server.addr, "GET", "/api/openapi.json", None, None)
        .await
        .expect("openapi");
    assert_eq!(status, 200);
    assert!(
        doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")),
        "{doc}"
    );
    let paths = doc["paths"].as_object().cloned().unwrap_or_default();
    for (path, method) in [
        ("/healthz", "get"),
        ("/readyz", "get"),
        ("/metrics", "get"),
        ("/api/guests", "post"),
        ("/api/sessions", "post"),
        ("/api/sessions", "delete"),
        ("/api/me", "get"),
        ("/api/rulesets", "get"),
        ("/api/rooms", "post"),
        ("/api/rooms", "get"),
        ("/api/rooms/join", "post"),
        ("/api/quickmatch", "post"),
        ("/api/quickmatch", "get"),
        ("/api/tables/{table}/hands", "get"),
        ("/api/tables/{table}/hands/{hand}", "get"),
        ("/api/tables/{table}/hands/{hand}/stream", "get"),
        ("/api/players/{player}", "get"),
        ("/api/players/{player}/history", "get"),
        ("/api/players/{player}/escapes", "get"),
        ("/api/leaderboards/{ruleset}", "get"),
        ("/api/settle", "post"),
        ("/api/score", "post"),
        ("/api/openapi.json", "get"),
        ("/api/tournaments", "post"),
        ("/api/tournaments", "get"),
        ("/api/tournaments/{tournament}", "get"),
        ("/api/tournaments/{tournament}/entrants", "post"),
        ("/api/tournaments/{tournament}/rounds", "post"),
        ("/api/tournaments/{tournament}/standings", "get"),
        ("/api/tournaments/{tournament}/hands", "get"),
        ("/api/players/{player}/tournaments", "get"),
        ("/api/rankings/tournaments", "get"),
    ] {
        assert!(
            paths.get(path).and_then(|p| p.get(method)).is_some(),
            "{method} {path} is documented"
        );
    }
    assert_eq!(
        paths.len(),
        28,
        "no route undocumented, none extra: {:?}",
        paths.keys().collect::<Vec<_>>()
    );
    let schemas = doc["components"]["schemas"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    for name in [
        "CreateRoom",
        "Seated",
        "SignedIn",
        "ErrorBody",
        "HandOut",
        "BoardRow",
    ] {
        assert!(schemas.contains_key(name), "{name} schema");
    }
    server.finish().await;
}

/// `/api/rulesets` serves each family's hand flow; the facts checked here are the rules spec's
/// (`shared/rules/*.md`), not read back from the engine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_ruleset_says_how_its_hands_flow_as_the_rules_spec_does() {
    let server = common::sqlite_server().await;
    let (status, list) = http(server.addr, "GET", "/api/rulesets", None, None)
        .await
        .expect("rulesets");
    assert_eq!(status, 200, "{list}");
    let flow = |id: &str| -> Value {
        list.as_array()
            .and_then(|l| l.iter().find(|r| r["id"] == id))
            .map(|r| r["flow"].clone())
            .unwrap_or_else(|| panic!("no {id}"))
    };
    // 血战到底: 108 tiles, no chow, 定缺 first, winners leave and the rest play on, 一炮多响,
    // kong replacements from the live end, 过水, a forced win on the last four.
    let x = flow("sichuan-xuezhan");
    assert_eq!(
        (&x["tiles"], &x["chow"], &x["before_play"], &x["after_win"]),
        (
            &json!(108),
            &json!(false),
            &json!("declare_void"),
            &json!("play_on")
        ),
        "{x}"
    );
    assert_eq!(x["discard_wins"], "every", "{x}");
    assert_eq!(x["replacement_end"], "live", "{x}");
    assert_eq!(x["missed_win"], "until_draw_unless_higher", "{x}");
    assert_eq!(x["forced_win_wall"], 4, "{x}");
    assert_eq!(x["forms"], json!(["standard", "seven_pairs"]), "{x}");
    // 成都 standard: the hand ends at the first win, no 定缺.
    let s = flow("sichuan");
    assert_eq!(
        (&s["after_win"], &s["before_play"]),
        (&json!("hand_ends"), &json!("nothing"))
    );
    // Guobiao: 144 tiles, head bump, four wind rounds of four hands, knitted shapes.
    let g = flow("guobiao");
    assert_eq!(
        (&g["tiles"], &g["discard_wins"]),
        (&json!(144), &json!("first_in_turn"))
    );
    assert_eq!(g["match_hands"], 16, "{g}");
    assert!(
        g["forms"]
            .as_array()
            .is_some_and(|f| f.contains(&json!("knitted"))),
        "{g}"
    );
    // Beijing with 惠牌: a wild each hand, 14 tiles kept back (two more a kong after the first),
    // 烧庄 forced, the 海底 tile thrown or declined.
    let b = flow("beijing");
    assert_eq!(b["wild"], true, "{b}");
    assert_eq!(b["reserve"], json!({"tiles": 14, "per_kong": 2}), "{b}");
    assert_eq!(b["follow_dealer"], "forced", "{b}");
    assert_eq!(
        (&b["last_tile_thrown"], &b["last_tile_declinable"]),
        (&json!(true), &json!(true))
    );
    // Beijing 2020: no wilds, 跟庄 counted, three kongers draw the hand.
    let b20 = flow("beijing-2020");
    assert_eq!(
        (&b20["wild"], &b20["follow_dealer"]),
        (&json!(false), &json!("counted"))
    );
    assert_eq!(b20["kongers_draw"], 3, "{b20}");
    // Ningbo: the wall broken at the larger die, a 财神, no 吃张打张, no kong after a pung.
    let n = flow("ningbo");
    assert_eq!(
        (&n["wall_break"], &n["wild"]),
        (&json!("larger_die"), &json!(true))
    );
    assert_eq!(
        (&n["no_discard_of_chowed_kind"], &n["no_kong_of_fresh_pung"]),
        (&json!(true), &json!(true))
    );
    // Shanghai: 漏胡, and a player leaving resets the 荒番 counter.
    let sh = flow("shanghai");
    assert_eq!(
        (&sh["missed_win"], &sh["leave_resets_draw_bonus"]),
        (&json!("same_kind_until_own_move"), &json!(true))
    );
    // Two-player: 71 tiles in the wall, 报听, three 海底捞月 draws.
    let t = flow("two-player");
    assert_eq!(
        (&t["wall_tiles"], &t["declares_ready"], &t["seabed_draws"]),
        (&json!(71), &json!(true), &json!(3))
    );
    // Guangdong: no seven pairs, thirteen orphans.
    assert_eq!(
        flow("guangdong")["forms"],
        json!(["standard", "thirteen_orphans"])
    );
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rulesets_are_described_as_the_engine_validates_them() {
    let server = common::sqlite_server().await;
    let (status, list) = http(server.addr, "GET", "/api/rulesets", None, None)
        .await
        .expect("rulesets");
    assert_eq!(status, 200, "{list}");
    let list = list.as_array().cloned().unwrap_or_default();
    let ids: Vec<&str> = list.iter().filter_map(|r| r["id"].as_str()).collect();
    let all: Vec<&str> = engine::RulesetId::ALL
        .iter()
        .map(|id| id.as_str())
        .collect();
    assert_eq!(ids, all, "every implemented preset, in the engine's order");
    assert!(ids.contains(&"beijing"));
    for r in &list {
        let id: engine::RulesetId = r["id"].as_str().unwrap_or_default().parse().expect("id");
        let defaults = engine::Ruleset::with_defaults(id).expect("defaults");
        for name in ["name_zh", "name_en"] {
            assert!(r[name].as_str().is_some_and(|n| !n.is_empty()), "{r}");
        }
        assert_eq!(r["players"], defaults.rules().flow().players, "{r}");
        assert_eq!(
            r["default_hands"],
            server::room::default_hands(&defaults),
            "{r}"
        );
        assert!(r["escape_penalty"].as_i64().is_some_and(|p| p >= 0), "{r}");
        let options = r["options"].as_array().cloned().unwrap_or_default();
        let described: std::collections::BTreeSet<&str> =
            options.iter().filter_map(|o| o["name"].as_str()).collect();
        let validated = defaults.options();
        assert_eq!(
            described,
            validated.keys().map(String::as_str).collect(),
            "{id}: every option described, none extra"
        );
        for o in &options {
            let name = o["name"].as_str().unwrap_or_default();
            assert_eq!(
                o["default"],
                serde_json::to_value(&validated[name]).expect("option as JSON"),
                "{id}: {o}"
            );
            // The described values are exactly the ones the engine accepts: alone, and for a
            // maximum beside every other number at its maximum (one option may bound another,
            // as Guangdong's 起胡 may not pass its 爆胡).
            let accepts_with = |v: Value, others_at_max: bool| {
                let value = serde_json::from_value(v).expect("an option value");
                let mut raw: engine::ruleset::RawOptions = [(name.to_string(), value)].into();
                if others_at_max {
                    for other in options.iter().filter(|x| x["name"] != o["name"]) {
                        if let (Some(n), Some(max)) =
                            (other["name"].as_str(), other["max"].as_i64())
                        {
                            raw.insert(n.to_string(), engine::ruleset::OptionValue::Int(max));
                        }
                    }
                }
                engine::Ruleset::new(id, &raw).is_ok()
            };
            let accepts = |v: Value| accepts_with(v, false);
            match o["type"].as_str() {
                Some("bool") => {
                    assert!(accepts(json!(true)) && accepts(json!(false)), "{id}: {o}");
                    assert!(!accepts(json!(1)), "{id}: {o}");
                }
                Some("int") => {
                    let (min, max) = (o["min"].as_i64(), o["max"].as_i64());
                    let (Some(min), Some(max)) = (min, max) else {
                        panic!("{id}: an int without its range: {o}");
                    };
                    assert!(accepts(json!(min)), "{id}: {o}");
                    assert!(accepts_with(json!(max), true), "{id}: {o}");
                    assert!(
                        !accepts(json!(min - 1)) && !accepts_with(json!(max + 1), true),
                        "{id}: {o}"
                    );
                    assert!(!accepts(json!(true)), "{id}: {o}");
                }
                Some("choice") => {
                    let values = o["values"].as_array().cloned().unwrap_or_default();
                    assert!(!values.is_empty(), "{id}: a choice without its words: {o}");
                    for v in values {
                        assert!(accepts(v), "{id}: {o}");
                    }
                    assert!(
                        !accepts(json!("no such word")) && !accepts(json!(1)),
                        "{id}: {o}"
                    );
                }
                _ => panic!("{id}: an option of unknown type: {o}"),
            }
        }
    }
    // A room takes the options as described.
    let (_, token) = guest(server.addr, "规则").await;
    create_room(
        server.addr,
        &token,
        json!({"ruleset": "sichuan-xuezhan", "options": {"fan_cap": 13, "kong_money": false}}),
    )
    .await;
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_renew_and_end() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (_, old) = guest(addr, "续期").await;
    let (status, renewed) = http(addr, "POST", "/api/sessions", Some(&old), None)
        .await
        .expect("renew");
    assert_eq!(status, 201, "{renewed}");
    let new = renewed["token"].as_str().unwrap_or_default().to_string();
    assert_ne!(new, old);
    let (status, _) = http(addr, "GET", "/api/me", Some(&old), None)
        .await
        .expect("me");
    assert_eq!(status, 401, "the old token stops working");
    let (status, me) = http(addr, "GET", "/api/me", Some(&new), None)
        .await
        .expect("me");
    assert_eq!((status, me["display_name"].as_str()), (200, Some("续期")));
    let (status, _) = http(addr, "DELETE", "/api/sessions", Some(&new), None)
        .await
        .expect("sign out");
    assert_eq!(status, 204);
    let (status, body) = http(addr, "GET", "/api/me", Some(&new), None)
        .await
        .expect("me");
    assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")));
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_the_server_stops_every_room_after_its_writes() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (_, token) = guest(addr, "停机").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "sichuan", "hands": 2, "bots": ["basic", "basic"]}),
    )
    .await;
    let code = room["code"].as_str().unwrap_or_default().to_string();
    server::stop_rooms(&server.running.state).await;
    let (_, late) = guest(addr, "来晚了").await;
    let (status, body) = http(
        addr,
        "POST",
        "/api/rooms/join",
        Some(&late),
        Some(json!({"code": code})),
    )
    .await
    .expect("join");
    // A stopped room is gone from the lobby: its code opens nothing.
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("not_found")),
        "{body}"
    );
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_back_on_a_new_connection_gets_a_snapshot_and_finishes_the_hand() {
    for server in common::servers().await {
        snapshot_on_return(server.addr).await;
        server.finish().await;
    }
}

async fn snapshot_on_return(addr: std::net::SocketAddr) {
    let (_, token) = guest(addr, "回来").await;
    let (status, room) = http(
        addr,
        "POST",
        "/api/rooms",
        Some(&token),
        Some(
            json!({"ruleset": "sichuan-xuezhan", "hands": 1, "bots": ["basic", "basic", "basic"],
                    "action_seconds": 60}),
        ),
    )
    .await
    .expect("create room");
    assert_eq!(status, 201, "{room}");
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut first = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    let mut answered = 0;
    while answered < 2 {
        let m = first.next(WAIT).await.expect("message").expect("open");
        if let Some(legal) = prompt_of(&m) {
            first.act(choose(&legal)).await.expect("act");
            answered += 1;
        }
    }
    drop(first);
    // A new device: no last seq, so the whole table comes as a snapshot.
    let mut again = Client::connect(addr, &table, &token, None)
        .await
        .expect("reconnect");
    let snapshot = loop {
        let m = again.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "snapshot" {
            break m;
        }
    };
    let view = &snapshot["table"]["view"];
    assert_eq!(snapshot["table"]["seat"], 0);
    assert_eq!(
        snapshot["table"]["draw_bonus"], 0,
        "no 荒番 outside Shanghai"
    );
    assert!(
        view["hand"].as_array().is_some_and(|h| !h.is_empty()),
        "its own tiles: {snapshot}"
    );
    let over = {
        let mut pending = prompt_of(&snapshot);
        loop {
            if let Some(legal) = pending.take() {
                again.act(choose(&legal)).await.expect("act");
            }
            let m = again.next(WAIT).await.expect("message").expect("open");
            if m["type"] == "hand_over" {
                break m;
            }
            pending = prompt_of(&m);
        }
    };
    assert!(over["settlement"]["deltas"].is_array());
}

/// Each seat's river as a client draws it from the stream: discards in order, a discard marked
/// claimed when a meld takes it or a win is made on it (a win right after another seat's
/// discard; a robbed kong's tile never lay in a river).
#[derive(Default)]
struct Rivers {
    seats: Vec<Vec<(String, bool)>>,
    /// The discard on offer: its seat.
    offer: Option<usize>,
}

impl Rivers {
    fn follow(&mut self, m: &Value) {
        let e = &m["event"];
        let seat = |v: &Value| v.as_u64().map(|s| s as usize);
        let take = |from: Option<usize>, seats: &mut Vec<Vec<(String, bool)>>| {
            if let Some(last) = from
                .and_then(|f| seats.get_mut(f))
                .and_then(|r| r.last_mut())
            {
                last.1 = true;
            }
        };
        match e["kind"].as_str() {
            Some("hand_started") => *self = Rivers::default(),
            Some("discarded") => {
                let s = seat(&e["seat"]).unwrap_or_default();
                if self.seats.len() <= s {
                    self.seats.resize(s + 1, Vec::new());
                }
                self.seats[s].push((e["tile"].as_str().unwrap_or_default().into(), false));
                self.offer = Some(s);
            }
            Some("melded") => {
                let meld = &e["meld"];
                if ["chow", "pung", "exposed_kong"].contains(&meld["shape"].as_str().unwrap_or(""))
                {
                    take(seat(&meld["from"]), &mut self.seats);
                }
                self.offer = None;
            }
            Some("won") => {
                let from = seat(&e["win"]["from"]);
                if from.is_some() && from == self.offer {
                    take(from, &mut self.seats);
                }
            }
            Some("drew") => self.offer = None,
            _ => {}
        }
    }

    fn claimed(&self) -> usize {
        self.seats.iter().flatten().filter(|d| d.1).count()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_holds_the_room_settings_and_the_claimed_discards() {
    for server in common::servers().await {
        snapshot_with_rivers(server.addr).await;
        server.finish().await;
    }
}

async fn snapshot_with_rivers(addr: std::net::SocketAddr) {
    let (_, token) = guest(addr, "河").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "sichuan-xuezhan", "hands": 8, "bots": ["basic", "basic", "basic"],
               "action_seconds": 45, "time_bank_seconds": 7}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    let mut rivers = Rivers::default();
    // Play until a discard has been claimed in the hand in play and the table waits for this
    // player's decision; then come back on a new device (the seat stays connected throughout,
    // so nothing moves meanwhile).
    loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        rivers.follow(&m);
        assert_ne!(m["type"], "table_closed", "no claim in eight hands");
        if let Some(legal) = prompt_of(&m) {
            if rivers.claimed() > 0 {
                break;
            }
            client.act(choose(&legal)).await.expect("act");
        }
    }
    let mut again = Client::connect(addr, &table, &token, None)
        .await
        .expect("reconnect");
    let snapshot = loop {
        let m = again.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "snapshot" {
            break m;
        }
    };
    let t = &snapshot["table"];
    assert_eq!(t["code"], room["code"], "the join code");
    assert_eq!(t["hands"], 8, "hands in the match");
    assert_eq!(t["action_seconds"], 45);
    assert_eq!(t["time_bank_seconds"], 7);
    let seats = t["view"]["seats"].as_array().cloned().unwrap_or_default();
    assert_eq!(seats.len(), 4, "{snapshot}");
    for (s, seat) in seats.iter().enumerate() {
        let river: Vec<(String, bool)> = seat["river"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|d| {
                let tile = d["tile"].as_str().unwrap_or_default().to_string();
                (tile, d["claimed"] == true)
            })
            .collect();
        let drawn = rivers.seats.get(s).cloned().unwrap_or_default();
        assert_eq!(river, drawn, "seat {s}'s river as the stream drew it");
        let lying: Vec<&str> = river
            .iter()
            .filter(|d| !d.1)
            .map(|d| d.0.as_str())
            .collect();
        assert_eq!(
            seat["discards"],
            json!(lying),
            "seat {s}: discards are the unclaimed"
        );
    }
    drop(client);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_when_none_is_owed_is_not_your_turn() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (_, a) = guest(addr, "甲").await;
    let (_, b) = guest(addr, "乙").await;
    let (_, room) = http(
        addr,
        "POST",
        "/api/rooms",
        Some(&a),
        Some(json!({"ruleset": "sichuan", "hands": 1, "bots": ["basic", "basic"]})),
    )
    .await
    .expect("create room");
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let code = room["code"].as_str().unwrap_or_default().to_string();
    join_room(addr, &b, &code).await;
    // The first hand waits for both players: nothing is owed yet.
    let mut c = Client::connect(addr, &table, &a, None)
        .await
        .expect("connect");
    c.send(json!({"type": "act", "id": 9, "action": {"type": "discard", "tile": "1m"}}))
        .await
        .expect("send");
    loop {
        let m = c.next(WAIT).await.expect("reply").expect("open");
        if m["type"] == "error" {
            assert_eq!(
                (m["id"].as_u64(), m["code"].as_str()),
                (Some(9), Some("not_your_turn")),
                "{m}"
            );
            break;
        }
    }
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_stream_repeats_what_was_sent() {
    for server in common::servers().await {
        a_resumed_stream_repeats_what_was_sent_on(server.addr).await;
        server.finish().await;
    }
}

/// A client that resumes from an earlier `seq` gets, for every `seq` after it, the very
/// message it was sent the first time: the server keeps its stream in its own form (events by
/// their place in the hand, prompts as prompts) and must make each frame again as it was.
async fn a_resumed_stream_repeats_what_was_sent_on(addr: std::net::SocketAddr) {
    let (_, token) = guest(addr, "重连").await;
    // A deal may end the hand (a win on a discard) before this player has decided six times;
    // a few deals in a row do not.
    let mut still = None;
    for _ in 0..5 {
        still = a_stream_left_waiting(addr, &token).await;
        if still.is_some() {
            break;
        }
    }
    let (table, first, sent) = still.expect("a hand still in play after six decisions");
    let (&snapshot_seq, _) = sent.first_key_value().expect("the stream began");
    let last = first.last_seq;
    let mut back = Client::connect(addr, &table, &token, Some(snapshot_seq))
        .await
        .expect("reconnect");
    let mut kinds = std::collections::BTreeSet::new();
    while back.last_seq < last {
        let m = back.next(WAIT).await.expect("message").expect("open");
        let Some(seq) = m["seq"].as_u64() else {
            continue;
        };
        assert_eq!(
            sent.get(&seq),
            Some(&m),
            "seq {seq} resumed differently from how it was sent"
        );
        kinds.insert(m["type"].as_str().unwrap_or_default().to_string());
    }
    assert_eq!(back.last_seq, last, "resumed to where the stream stood");
    assert!(
        kinds.contains("event") && kinds.contains("prompt"),
        "events and prompts were resumed: {kinds:?}"
    );
}

/// A one-hand room in which this player has decided six times, its stream still and waiting on
/// the player's next prompt: the table, the client, and every message it was sent by `seq`.
/// None when the hand ended first (once its room has closed).
async fn a_stream_left_waiting(
    addr: std::net::SocketAddr,
    token: &str,
) -> Option<(String, Client, std::collections::BTreeMap<u64, Value>)> {
    let room = create_room(
        addr,
        token,
        json!({"ruleset": "sichuan", "hands": 1, "bots": ["basic", "basic", "basic"], "action_seconds": 300}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut first = Client::connect(addr, &table, token, None)
        .await
        .expect("connect");
    let mut sent = std::collections::BTreeMap::new();
    let mut answered = 0;
    // Several decisions in, the hand waits on this player's next prompt: the stream is still.
    while answered < 6 {
        let m = first.next(WAIT).await.expect("message")?;
        if m["type"] == "hand_over" {
            // The one-hand room closes: the player is free for the next.
            while first.next(WAIT).await.expect("message").is_some() {}
            return None;
        }
        if let Some(seq) = m["seq"].as_u64() {
            sent.insert(seq, m.clone());
        }
        if let Some(legal) = prompt_of(&m) {
            answered += 1;
            if answered < 6 {
                first.act(choose(&legal)).await.expect("act");
            }
        }
    }
    Some((table, first, sent))
}
