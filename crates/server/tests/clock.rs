//! The room's clock over real WebSockets: each decision's own time, the per-hand time bank a
//! late decision draws on, the bot acting when both run out, and the bank refilling next hand.

mod common;

use std::time::Duration;

use common::{Client, choose, create_room, guest, http, prompt_of};
use serde_json::{Value, json};

const ACTION_MS: i64 = 3_000;
const BANK_MS: i64 = 2_000;

/// The next prompt, with the Unix milliseconds it arrived at; None when the hand ends first.
async fn next_prompt(c: &mut Client) -> Option<(Value, i64)> {
    loop {
        let m = c
            .next(Duration::from_secs(20))
            .await
            .expect("a message")
            .expect("socket open");
        match m["type"].as_str() {
            Some("prompt") => return Some((m, now_ms())),
            Some("hand_over") => return None,
            Some("error") => panic!("error from the server: {m}"),
            _ => {}
        }
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

/// An action that does not end the player's hand (so more prompts follow).
fn not_a_win(legal: &[Value]) -> Value {
    let kind = |t: &str| legal.iter().find(|a| a["type"] == t).cloned();
    kind("declare_void")
        .or_else(|| kind("pass"))
        .or_else(|| kind("discard"))
        .unwrap_or_else(|| choose(legal))
}

fn bank(prompt: &Value) -> i64 {
    prompt["bank_ms"].as_i64().expect("bank_ms")
}

/// Time from arrival to the prompt's deadline.
fn time_left(prompt: &Value, arrived: i64) -> i64 {
    prompt["deadline_ms"].as_i64().expect("deadline_ms") - arrived
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_decision_draws_on_the_bank_a_timeout_spends_it_and_it_refills_next_hand() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (_, token) = guest(addr, "慢").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "sichuan-xuezhan", "hands": 2,
                    "bots": ["basic", "basic", "basic"],
                    "action_seconds": ACTION_MS / 1000, "time_bank_seconds": BANK_MS / 1000}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut c = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");

    // A full bank at first: the deadline holds the decision's time and the bank.
    let (first, arrived) = next_prompt(&mut c).await.expect("a first prompt");
    assert_eq!(bank(&first), BANK_MS, "{first}");
    let left = time_left(&first, arrived);
    assert!(
        (ACTION_MS + BANK_MS - 500..=ACTION_MS + BANK_MS).contains(&left),
        "{left} ms left"
    );

    // Deciding a second past the decision's own time takes about a second from the bank.
    tokio::time::sleep(Duration::from_millis((ACTION_MS + 1_000) as u64)).await;
    let legal = prompt_of(&first).expect("legal actions");
    let id = c.act(not_a_win(&legal)).await.expect("act");
    let (second, arrived) = loop {
        let m = c
            .next(Duration::from_secs(20))
            .await
            .expect("reply")
            .expect("open");
        match m["type"].as_str() {
            Some("ack") => assert_eq!(m["id"].as_u64(), Some(id)),
            Some("error") => panic!("the late action was refused: {m}"),
            Some("prompt") => break (m, now_ms()),
            Some("hand_over") => panic!("the hand ended before the second prompt"),
            _ => {}
        }
    };
    let left_in_bank = bank(&second);
    assert!(
        (BANK_MS - 1_400..=BANK_MS - 1_000).contains(&left_in_bank),
        "bank after a decision a second late: {left_in_bank} ms"
    );
    assert!(time_left(&second, arrived) <= ACTION_MS + left_in_bank);

    // Letting the deadline of a discard pass (a turn of its own, which nothing else can end
    // early): the bot decides for the seat and the bank is spent.
    let mut prompt = second;
    while !prompt_of(&prompt)
        .expect("legal actions")
        .iter()
        .any(|a| a["type"] == "discard")
    {
        let legal = prompt_of(&prompt).expect("legal actions");
        c.act(not_a_win(&legal)).await.expect("act");
        prompt = next_prompt(&mut c).await.expect("a turn to discard").0;
    }
    let (third, arrived) = next_prompt(&mut c)
        .await
        .expect("a prompt after the timeout");
    let waited = arrived - prompt["deadline_ms"].as_i64().expect("deadline_ms");
    assert!(
        waited >= -50,
        "prompted again {waited} ms before the deadline"
    );
    assert_eq!(bank(&third), 0, "{third}");
    assert!(time_left(&third, arrived) <= ACTION_MS);

    // The rest of the hand at once; the next hand starts with a full bank.
    let mut prompt = third;
    loop {
        let legal = prompt_of(&prompt).expect("legal actions");
        c.act(choose(&legal)).await.expect("act");
        match next_prompt(&mut c).await {
            Some((p, _)) if p["hand_no"] == 0 => prompt = p,
            Some((p, _)) => {
                assert_eq!(p["hand_no"], 1, "{p}");
                assert_eq!(bank(&p), BANK_MS, "the bank refills: {p}");
                break;
            }
            None => {
                let (p, _) = next_prompt(&mut c).await.expect("the second hand's prompt");
                assert_eq!(bank(&p), BANK_MS, "the bank refills: {p}");
                break;
            }
        }
    }
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_time_bank_beyond_ten_minutes_is_refused() {
    let server = common::sqlite_server().await;
    let (_, token) = guest(server.addr, "急").await;
    let (status, body) = http(
        server.addr,
        "POST",
        "/api/rooms",
        Some(&token),
        Some(json!({"ruleset": "sichuan", "time_bank_seconds": 601})),
    )
    .await
    .expect("create room");
    assert_eq!(status, 400, "{body}");
    assert!(body.to_string().contains("time_bank_seconds"), "{body}");
    server.finish().await;
}
