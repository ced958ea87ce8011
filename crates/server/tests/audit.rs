//! Hidden information, audited over whole games: four clients play 100 hands (two tables of 50)
//! and every message each received is checked against the engine's replay of the stored hand.
//! A client must receive exactly the events whose audience includes its seat, no more; and each
//! revealed seed must be the stored hand's seed, replaying to the settlement that was paid.

mod common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::{Client, choose, guest, http, prompt_of};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);
const HANDS_PER_TABLE: u64 = 50;

/// Plays every prompt until the table closes; returns every message received.
async fn play_table(mut client: Client) -> Vec<Value> {
    loop {
        let Some(m) = client.next(WAIT).await.expect("message") else {
            break;
        };
        if let Some(legal) = prompt_of(&m) {
            client.act(choose(&legal)).await.expect("act");
        }
        if m["type"] == "error" {
            panic!("error from the server: {m}");
        }
        if m["type"] == "table_closed" {
            break;
        }
    }
    client.received
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_client_learns_another_seats_hidden_tiles_and_every_seed_replays() {
    for server in common::servers().await {
        audit(server.addr).await;
        server.finish().await;
    }
}

async fn audit(addr: std::net::SocketAddr) {
    let mut tables = Vec::new();
    for t in 0..2 {
        let mut tokens = Vec::new();
        for s in 0..4 {
            tokens.push(guest(addr, &format!("audit {t}{s}")).await.1);
        }
        let (status, room) = http(
            addr,
            "POST",
            "/api/rooms",
            Some(&tokens[0]),
            Some(
                json!({"ruleset": if t == 0 { "sichuan-xuezhan" } else { "sichuan" },
                        "hands": HANDS_PER_TABLE, "action_seconds": 60}),
            ),
        )
        .await
        .expect("create room");
        assert_eq!(status, 201, "{room}");
        let table = room["table"].as_str().unwrap_or_default().to_string();
        let code = room["code"].as_str().unwrap_or_default().to_string();
        for token in &tokens[1..] {
            let (status, _) = http(
                addr,
                "POST",
                "/api/rooms/join",
                Some(token),
                Some(json!({"code": code})),
            )
            .await
            .expect("join");
            assert_eq!(status, 200);
        }
        tables.push((table, tokens));
    }
    let mut tasks = Vec::new();
    for (table, tokens) in &tables {
        for (seat, token) in tokens.iter().enumerate() {
            let client = Client::connect(addr, table, token, None)
                .await
                .expect("connect");
            let table = table.clone();
            tasks.push(tokio::spawn(async move {
                (table, seat, play_table(client).await)
            }));
        }
    }
    let mut received: BTreeMap<(String, usize), Vec<Value>> = BTreeMap::new();
    for t in tasks {
        let (table, seat, messages) = t.await.expect("client");
        received.insert((table, seat), messages);
    }
    let mut hands_checked = 0;
    for (table, _) in &tables {
        let count = common::stored_hands(addr, table).await.len() as u64;
        assert_eq!(count, HANDS_PER_TABLE, "every hand of the match is stored");
        for hand_no in 0..count {
            check_hand(addr, table, hand_no, &received).await;
            hands_checked += 1;
        }
    }
    assert!(hands_checked >= 100);
}

async fn check_hand(
    addr: std::net::SocketAddr,
    table: &str,
    hand_no: u64,
    received: &BTreeMap<(String, usize), Vec<Value>>,
) {
    let (status, stored) = http(
        addr,
        "GET",
        &format!("/api/tables/{table}/hands/{hand_no}"),
        None,
        None,
    )
    .await
    .expect("hand");
    assert_eq!(status, 200, "{stored}");
    let record: engine::record::HandRecord =
        serde_json::from_value(stored["record"].clone()).expect("a hand record");
    let game = record.replay().expect("the stored hand replays");
    let players = game.players();
    let settlement = protocol::settlement(game.settlement().expect("settled"), players);
    for seat in 0..usize::from(players) {
        let messages = &received[&(table.to_string(), seat)];
        let of_hand = |m: &&Value| m["hand_no"].as_u64() == Some(hand_no);
        // The events this seat received are exactly those the engine addressed to it.
        let got: Vec<Value> = messages
            .iter()
            .filter(|m| m["type"] == "event")
            .filter(of_hand)
            .map(|m| m["event"].clone())
            .collect();
        let expected: Vec<Value> = game
            .events()
            .iter()
            .filter(|e| e.audience.includes(engine::Seat::ALL[seat]))
            .map(|e| serde_json::to_value(protocol::wire_event(&e.kind, players)).expect("json"))
            .collect();
        assert_eq!(got, expected, "table {table} hand {hand_no} seat {seat}");
        // The seed committed before the deal is the stored one, revealed afterwards.
        let committed = messages
            .iter()
            .filter(|m| m["type"] == "hand_starting")
            .find(of_hand)
            .and_then(|m| m["seed_sha256"].as_str())
            .map(str::to_string);
        assert_eq!(committed, Some(server::room::seed_commitment(record.seed)));
        let over = messages
            .iter()
            .filter(|m| m["type"] == "hand_over")
            .find(of_hand)
            .expect("hand_over");
        assert_eq!(
            over["seed"].as_str(),
            Some(record.seed.to_string().as_str())
        );
        assert_eq!(
            over["settlement"],
            serde_json::to_value(&settlement).expect("json")
        );
        // Prompts list only this seat's own legal actions: nothing else is in them.
        for m in messages
            .iter()
            .filter(|m| m["type"] == "prompt")
            .filter(of_hand)
        {
            let keys: Vec<&str> = m
                .as_object()
                .map(|o| o.keys().map(String::as_str).collect())
                .unwrap_or_default();
            assert_eq!(
                keys.len(),
                6,
                "seq, type, hand_no, legal, deadline_ms, bank_ms: {m}"
            );
        }
    }
}
