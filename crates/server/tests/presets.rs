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
    let presets = common::presets(addr).await;
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

/// The tiles of a wire event's tile list.
fn tile_list(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// A two-player room with 开始时换牌 (`"swap": true`): both seats are asked to swap before the
/// dealer's first discard; the human's swap is told to it tile by tile and the bot's only by
/// its count; a seat that lets the swap prompt's deadline pass keeps its tiles; and a value
/// that is not a switch is refused when the room is created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_player_room_with_the_swap_option_swaps_before_the_first_discard() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (_, token) = guest(addr, "换牌").await;
    let (status, refused) = http(
        addr,
        "POST",
        "/api/rooms",
        Some(&token),
        Some(json!({"ruleset": "two-player", "options": {"swap": 1}, "bots": ["strong"]})),
    )
    .await
    .expect("create room");
    assert_eq!(status, 400, "{refused}");
    assert!(refused.to_string().contains("swap"), "{refused}");

    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "two-player", "options": {"swap": true}, "hands": 2,
               "bots": ["strong"], "action_seconds": 3, "time_bank_seconds": 0}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    let (mut marked, mut swapped, mut hidden) = (Vec::new(), Vec::new(), Vec::new());
    let mut hands_over = 0;
    while hands_over < 2 {
        let Some(m) = client.next(WAIT).await.expect("a message in time") else {
            panic!("the socket closed before the hands ended");
        };
        if m["type"] == "event" {
            let e = &m["event"];
            match e["kind"].as_str() {
                Some("swap_marked") => marked.push(e["tile"].as_str().unwrap_or("").to_owned()),
                Some("swapped") => swapped.push((tile_list(&e["out"]), tile_list(&e["received"]))),
                Some("swapped_hidden") => hidden.push(e["seat"].clone()),
                Some("discarded") => assert_eq!(swapped.len(), hands_over + 1, "{e}"),
                _ => {}
            }
        }
        if let Some(legal) = prompt_of(&m) {
            let marks: Vec<&Value> = legal.iter().filter(|a| a["type"] == "swap_mark").collect();
            if hands_over == 1 && !marks.is_empty() {
                // The second hand: the deadline passes and the server finishes the swap.
                continue;
            }
            let action = if marked.len() < 2 && !marks.is_empty() {
                marks[0].clone()
            } else if legal.iter().any(|a| a["type"] == "swap_done") {
                json!({"type": "swap_done"})
            } else {
                choose(&legal)
            };
            client.act(action).await.expect("send");
            continue;
        }
        match m["type"].as_str() {
            Some("hand_over") => hands_over += 1,
            Some("error") => panic!("the server refused a legal action: {m}"),
            _ => {}
        }
    }
    assert_eq!(marked.len(), 2, "{marked:?}");
    assert_eq!(swapped.len(), 2, "{swapped:?}");
    assert_eq!(swapped[0].0, marked, "the marked tiles went back");
    assert_eq!(swapped[0].1.len(), 2, "as many came in");
    assert_eq!(
        swapped[1],
        (vec![], vec![]),
        "a timed-out swap keeps the tiles"
    );
    assert_eq!(
        hidden,
        [json!(1), json!(1)],
        "the bot's swap, by count only"
    );
    let hands = common::stored_hands(addr, &table).await;
    assert_eq!(hands.len(), 2);
    server.finish().await;
}
