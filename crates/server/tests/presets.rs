//! Every preset the server offers plays a whole hand online: one human (a scripted client that
//! wins when it may, discards the first legal tile and passes claims) and bots in the other
//! seats, to a settlement that every seat agrees on, sums to zero and is stored.

mod common;

use std::time::Duration;

use common::{Client, choose, create_room, guest, http, prompt_of};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);

/// Plays one hand of `ruleset` with a human in one seat; returns the human's `hand_over`.
async fn one_hand(addr: std::net::SocketAddr, ruleset: String, players: usize) -> (String, Value) {
    let (_, token) = guest(addr, &format!("玩家 {ruleset}")).await;
    let bots: Vec<&str> = ["strong", "basic", "random"]
        .into_iter()
        .cycle()
        .take(players - 1)
        .collect();
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": ruleset, "hands": 1, "bots": bots}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    assert!(!table.is_empty(), "{ruleset}: {room}");
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    loop {
        let Some(m) = client.next(WAIT).await.expect("a message in time") else {
            panic!("{ruleset}: the socket closed before the hand ended");
        };
        if let Some(legal) = prompt_of(&m) {
            client.act(choose(&legal)).await.expect("send");
            continue;
        }
        match m["type"].as_str() {
            Some("hand_over") => return (table, m),
            Some("error") => panic!("{ruleset}: the server refused a legal action: {m}"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_preset_plays_a_whole_hand_with_a_human_and_bots() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (status, list) = http(addr, "GET", "/api/rulesets", None, None)
        .await
        .expect("rulesets");
    assert_eq!(status, 200, "{list}");
    let presets: Vec<(String, usize)> = list
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter_map(|r| {
            Some((
                r["id"].as_str()?.to_string(),
                r["players"].as_u64()? as usize,
            ))
        })
        .collect();
    assert!(presets.len() >= 12, "{list}");
    let mut tables = tokio::task::JoinSet::new();
    for (id, players) in presets.clone() {
        tables.spawn(async move { (id.clone(), players, one_hand(addr, id, players).await) });
    }
    while let Some(done) = tables.join_next().await {
        let (id, players, (table, over)) = done.expect("the hand's task");
        let settlement = &over["settlement"];
        let deltas: Vec<i64> = settlement["deltas"]
            .as_array()
            .map(|d| d.iter().filter_map(Value::as_i64).collect())
            .unwrap_or_default();
        assert_eq!(deltas.len(), players, "{id}: {over}");
        assert_eq!(deltas.iter().sum::<i64>(), 0, "{id}: {over}");
        let hands = common::stored_hands(addr, &table).await;
        assert_eq!(hands.len(), 1, "{id}: the hand is stored");
        assert_eq!(&hands[0]["settlement"], settlement, "{id}");
    }
    server.finish().await;
}
