//! What the server promises a player, checked from outside over real sockets: the stream's
//! `seq` is the server's own, and an escape sticks. Each test states the promise as
//! proto/README.md words it and drives the server as a client would.

mod common;

use std::time::Duration;

use common::{Client, create_room, guest, prompt_of};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

/// Reads until the first prompt (the hand is then waiting on this player, so nothing else
/// moves on the hand-driven clock).
async fn until_prompt(client: &mut Client) -> Value {
    loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        if prompt_of(&m).is_some() {
            return m;
        }
    }
}

/// A `last_seq` the server never sent (far ahead, or the largest number) gets a snapshot
/// numbered by the server's own stream, which then goes on from it; it never becomes the
/// stream's counter (10^15 + 1) nor wraps it to 0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_last_seq_the_server_never_sent_gets_the_servers_snapshot() {
    let (server, _clock) = common::sqlite_server_on_clock(|_| {}).await;
    let addr = server.addr;
    let (_, token) = guest(addr, "序号").await;
    let room = create_room(
        addr,
        &token,
        json!({"ruleset": "sichuan", "hands": 1, "bots": ["basic", "basic", "basic"]}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut first = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    until_prompt(&mut first).await;
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
