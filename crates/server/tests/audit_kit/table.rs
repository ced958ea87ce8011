//! One audited table: a room of a preset with a guest in every seat, two spectators, and the
//! reports of all of them once the match is over.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use super::play::{self, Peers, Report, Role, Table};
use crate::common::{create_room, guest, join_room};

/// What every client of one table reported.
pub struct TableReport {
    pub preset: String,
    /// Hands in the match.
    pub hands: u64,
    pub clients: Vec<Report>,
}

/// Room options that reach more of the protocol than the defaults: two-player's opening swap
/// (`swap_marked`, `swapped`, `swapped_hidden`) and Beijing's robbing of a concealed kong (a
/// `kong_offered` without its tile).
pub fn options(preset: &str) -> Value {
    match preset {
        "two-player" => json!({"swap": true}),
        "beijing" => json!({"dragon_robs_concealed_kong": true}),
        _ => json!({}),
    }
}

/// Plays a match of `hands` hands of `preset` for `players` audited players; `seed` seeds
/// their choices.
pub async fn play(
    addr: std::net::SocketAddr,
    preset: &str,
    players: usize,
    hands: u64,
    seed: u64,
) -> TableReport {
    let mut tokens = Vec::new();
    for n in 0..players + 2 {
        tokens.push(guest(addr, &format!("audit {n}")).await.1);
    }
    let room = create_room(
        addr,
        &tokens[0],
        json!({
            "ruleset": preset,
            "options": options(preset),
            "hands": hands,
            // Long enough that no bot ever decides for a player during the run.
            "action_seconds": 300,
            "spectator_delay_seconds": 0,
            "public": false,
        }),
    )
    .await;
    let code = room["code"].as_str().unwrap_or_default().to_string();
    for token in &tokens[1..players] {
        join_room(addr, token, &code).await;
    }
    let table = Arc::new(Table {
        addr,
        id: room["table"].as_str().unwrap_or_default().to_string(),
        preset: preset.to_string(),
        players,
        trouble: Default::default(),
    });
    let mut tasks = tokio::task::JoinSet::new();
    // The early spectator is in before the players, so the first deal comes after its hello.
    let (ready_tx, ready) = oneshot::channel();
    let (_, closed) = mpsc::channel(1);
    tasks.spawn(play::spectator(
        table.clone(),
        Role::Early,
        tokens[players].clone(),
        closed,
        Some(ready_tx),
    ));
    ready.await.expect("the early spectator is in");
    let (late_tx, late_rx) = mpsc::channel(4);
    tasks.spawn(play::spectator(
        table.clone(),
        Role::Late,
        tokens[players + 1].clone(),
        late_rx,
        None,
    ));
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..players).map(|_| mpsc::channel(4)).unzip();
    for (seat, rx) in receivers.into_iter().enumerate() {
        let peers = Peers {
            players: (0..players)
                .map(|s| (s != seat).then(|| senders[s].clone()))
                .collect(),
            spectator: late_tx.clone(),
        };
        let seed = seed ^ (seat as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
        tasks.spawn(play::player(
            table.clone(),
            seat,
            tokens[seat].clone(),
            rx,
            peers,
            seed,
        ));
    }
    // The late spectator's requests end with the players.
    drop((late_tx, senders));
    let mut clients = Vec::new();
    while let Some(done) = tasks.join_next().await {
        clients.push(done.expect("a client's task"));
    }
    TableReport {
        preset: preset.to_string(),
        hands,
        clients,
    }
}
