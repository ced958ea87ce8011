//! Seating the clients: on the game server, guests signed up over HTTP, one room per table
//! created by its first player and joined by the others with the room's code; on the baseline
//! server, rooms are just numbers.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Deserialize;
use serde_json::json;

use crate::client::Seating;
use crate::error::LoadError;
use crate::http::HttpClient;
use crate::{Options, net};

/// A guest's sign-up answer (what the load clients need of it).
#[derive(Deserialize)]
pub(crate) struct SignedIn {
    pub(crate) token: String,
}

#[derive(Deserialize)]
struct Seated {
    table: String,
    seat: u8,
    code: String,
}

/// Seats for `options.tables` tables of `players` on the game server's `nodes`, and how many
/// tables could not be set up (they are left out); an error only when none could be. Worker
/// `w` sets its tables up through node `w mod n` (with at least one worker per node).
pub(crate) async fn game(
    nodes: &[SocketAddr],
    options: &Options,
    players: u8,
) -> Result<(Vec<Seating>, u64), LoadError> {
    let next = Arc::new(AtomicUsize::new(0));
    let nodes: Arc<[SocketAddr]> = nodes.into();
    let mut workers = tokio::task::JoinSet::new();
    for w in 0..options.http_connections.max(nodes.len()) {
        let next = next.clone();
        let options = options.clone();
        let source = net::source(w, options.source_addrs);
        let (nodes, node) = (nodes.clone(), w % nodes.len().max(1));
        workers.spawn(async move {
            let mut client = HttpClient::new(nodes[node], source);
            let mut out = Vec::new();
            let mut failures = 0u64;
            let mut last_error = None;
            loop {
                let t = next.fetch_add(1, Ordering::Relaxed);
                if t >= options.tables {
                    break;
                }
                match table(&mut client, t, &options, players).await {
                    Ok(seats) => out.extend(seats.into_iter().map(|(seat, path, token)| Seating {
                        table: t,
                        path,
                        seat,
                        token,
                        ruleset: options.ruleset.clone(),
                        source: net::source(0, 1),
                        nodes: nodes.clone(),
                        node: (node + usize::from(seat)) % nodes.len(),
                    })),
                    Err(e) => {
                        failures += 1;
                        last_error = Some(e);
                    }
                }
            }
            (out, failures, last_error)
        });
    }
    let mut seatings = Vec::new();
    let mut failed = 0;
    let mut last_error = None;
    while let Some(done) = workers.join_next().await {
        if let Ok((seats, failures, error)) = done {
            seatings.extend(seats);
            failed += failures;
            last_error = error.or(last_error);
        }
    }
    if seatings.is_empty() {
        return Err(LoadError::Setup(match last_error {
            Some(e) => e.to_string(),
            None => "no table could be set up".into(),
        }));
    }
    if let Some(e) = last_error {
        eprintln!("loadtest: some tables could not be set up, e.g.: {e}");
    }
    Ok((place(seatings, options.source_addrs), failed))
}

/// One table: four guests, a room, three joins; each seat with its path and token.
async fn table(
    client: &mut HttpClient,
    t: usize,
    options: &Options,
    players: u8,
) -> Result<Vec<(u8, String, String)>, LoadError> {
    let mut tokens = Vec::new();
    for s in 0..players {
        let name = json!({ "display_name": format!("load {t}.{s}") });
        let signed: SignedIn = client
            .json("POST", "/api/guests", None, Some(&name), 201)
            .await?;
        tokens.push(signed.token);
    }
    let mut seats = Vec::new();
    let mut code = String::new();
    for (i, token) in tokens.into_iter().enumerate() {
        let seated: Seated = if i == 0 {
            let room = json!({
                "ruleset": options.ruleset,
                "options": {},
                "bots": [],
                "action_seconds": options.action_seconds,
                "time_bank_seconds": 0,
                "hands": options.hands,
                "public": false,
            });
            client
                .json("POST", "/api/rooms", Some(&token), Some(&room), 201)
                .await?
        } else {
            let join = json!({ "code": code });
            client
                .json("POST", "/api/rooms/join", Some(&token), Some(&join), 200)
                .await?
        };
        code = seated.code;
        seats.push((seated.seat, format!("/ws/tables/{}", seated.table), token));
    }
    Ok(seats)
}

/// Seats for `options.tables` rooms of `players` on the baseline server at `addr`; the
/// clients model their hands as in `ruleset`.
pub(crate) fn baseline(
    addr: SocketAddr,
    options: &Options,
    players: u8,
    ruleset: &str,
) -> Vec<Seating> {
    let nodes: Arc<[SocketAddr]> = vec![addr].into();
    let seatings = (0..options.tables)
        .flat_map(|t| {
            let nodes = nodes.clone();
            (0..players).map(move |seat| Seating {
                table: t,
                path: format!("/ws/baseline/{t}/{seat}"),
                seat,
                token: "baseline".into(),
                ruleset: ruleset.to_string(),
                source: net::source(0, 1),
                nodes: nodes.clone(),
                node: 0,
            })
        })
        .collect();
    place(seatings, options.source_addrs)
}

/// Spreads the sockets over the source addresses, round robin.
fn place(mut seatings: Vec<Seating>, sources: u8) -> Vec<Seating> {
    for (k, s) in seatings.iter_mut().enumerate() {
        s.source = net::source(k, sources);
    }
    seatings
}
