//! The room's clock over real WebSockets: each decision's own time, the per-hand time bank a
//! late decision draws on, the bot acting when both run out, and the bank refilling next hand.
//!
//! The rooms run on a hand-driven clock (`server::time::ManualTime`): time passes only when the
//! test says, so every deadline and bank is checked to the millisecond.

mod common;

use std::time::Duration;

use common::{Client, choose, create_room, guest, http, prompt_of};
use serde_json::{Value, json};
use server::time::ManualTime;

const ACTION_MS: i64 = 3_000;
const BANK_MS: i64 = 2_000;
const WAIT: Duration = Duration::from_secs(20);

/// The next prompt; None when the hand ends first.
async fn next_prompt(c: &mut Client) -> Option<Value> {
    loop {
        let m = c.next(WAIT).await.expect("a message").expect("socket open");
        match m["type"].as_str() {
            Some("prompt") => return Some(m),
            Some("hand_over") => return None,
            Some("error") => panic!("error from the server: {m}"),
            _ => {}
        }
    }
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

/// Time from now, on the rooms' clock, to the prompt's deadline.
fn time_left(prompt: &Value, clock: &ManualTime) -> i64 {
    prompt["deadline_ms"].as_i64().expect("deadline_ms") - clock.source().unix_ms().0
}

fn ms(n: i64) -> Duration {
    Duration::from_millis(n as u64)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_decision_draws_on_the_bank_a_timeout_spends_it_and_it_refills_next_hand() {
    let (server, clock) = common::sqlite_server_on_clock(|_| {}).await;
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
    let first = next_prompt(&mut c).await.expect("a first prompt");
    assert_eq!(bank(&first), BANK_MS, "{first}");
    assert_eq!(time_left(&first, &clock), ACTION_MS + BANK_MS, "{first}");

    // Deciding a second past the decision's own time takes exactly a second from the bank.
    clock.advance(ms(ACTION_MS + 1_000));
    let legal = prompt_of(&first).expect("legal actions");
    let id = c.act(not_a_win(&legal)).await.expect("act");
    let second = loop {
        let m = c.next(WAIT).await.expect("reply").expect("open");
        match m["type"].as_str() {
            Some("ack") => assert_eq!(m["id"].as_u64(), Some(id)),
            Some("error") => panic!("the late action was refused: {m}"),
            Some("prompt") => break m,
            Some("hand_over") => panic!("the hand ended before the second prompt"),
            _ => {}
        }
    };
    assert_eq!(bank(&second), BANK_MS - 1_000, "{second}");
    assert_eq!(time_left(&second, &clock), ACTION_MS + BANK_MS - 1_000);

    // Up to a discard: a turn of its own, which nothing else can end early.
    let mut prompt = second;
    while !prompt_of(&prompt)
        .expect("legal actions")
        .iter()
        .any(|a| a["type"] == "discard")
    {
        let legal = prompt_of(&prompt).expect("legal actions");
        c.act(not_a_win(&legal)).await.expect("act");
        prompt = next_prompt(&mut c).await.expect("a turn to discard");
    }
    // A millisecond short of its deadline nothing happens; at the deadline the bot discards
    // for the seat and the bank is spent.
    let left = time_left(&prompt, &clock);
    clock.advance(ms(left - 1));
    let early = c.sync().await;
    assert!(
        early.iter().all(|m| m["type"] != "event"),
        "the bot acted before the deadline: {early:?}"
    );
    clock.advance(ms(1));
    let third = next_prompt(&mut c)
        .await
        .expect("a prompt after the timeout");
    let discards = c
        .received
        .iter()
        .rev()
        .take_while(|m| m != &&prompt)
        .filter(|m| m["event"]["kind"] == "discarded" && m["event"]["seat"] == 0)
        .count();
    assert_eq!(
        discards, 1,
        "the bot discarded for the seat at its deadline"
    );
    assert_eq!(bank(&third), 0, "{third}");
    assert_eq!(time_left(&third, &clock), ACTION_MS, "{third}");

    // The rest of the hand at once; the next hand starts with a full bank.
    let mut prompt = third;
    loop {
        let legal = prompt_of(&prompt).expect("legal actions");
        c.act(choose(&legal)).await.expect("act");
        match next_prompt(&mut c).await {
            Some(p) if p["hand_no"] == 0 => prompt = p,
            Some(p) => {
                assert_eq!(p["hand_no"], 1, "{p}");
                assert_eq!(bank(&p), BANK_MS, "the bank refills: {p}");
                break;
            }
            None => {
                // Between hands: the next deal comes once the gap has passed.
                clock.advance(Duration::from_secs(1));
                let p = next_prompt(&mut c).await.expect("the second hand's prompt");
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
