//! Tournaments driven as an organiser and players would: over HTTP and real sockets, every
//! result checked against an independent reading of what the API documents (the hands export
//! summed and placed by this file's own arithmetic), never against the server's own scoring.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use common::{Client, choose, eventually, guest, http, prompt_of};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);

/// Each wind's dealt tiles at one table.
type DealtByWind = BTreeMap<u64, Vec<String>>;

/// The organiser's token and the tournament's answer.
async fn create(addr: std::net::SocketAddr, body: Value) -> (String, Value) {
    let (_, token) = guest(addr, "organiser 主办").await;
    let (status, t) = http(addr, "POST", "/api/tournaments", Some(&token), Some(body))
        .await
        .expect("create");
    assert_eq!(status, 201, "{t}");
    (token, t)
}

/// `n` guests registered with the code: (player id, token) in registration order.
async fn register(addr: std::net::SocketAddr, t: &Value, n: usize) -> Vec<(String, String)> {
    let path = format!(
        "/api/tournaments/{}/entrants",
        t["id"].as_str().unwrap_or_default()
    );
    let mut out = Vec::new();
    for i in 0..n {
        let (id, token) = guest(addr, &format!("棋手 {i}")).await;
        let (status, body) = http(
            addr,
            "POST",
            &path,
            Some(&token),
            Some(json!({"code": t["code"]})),
        )
        .await
        .expect("register");
        assert_eq!(status, 200, "{body}");
        out.push((id, token));
    }
    out
}

async fn detail(addr: std::net::SocketAddr, id: &str) -> Value {
    let (status, body) = http(addr, "GET", &format!("/api/tournaments/{id}"), None, None)
        .await
        .expect("detail");
    assert_eq!(status, 200, "{body}");
    body
}

/// Plays a seat to the table's close, as a simple client: returns every message it got.
async fn play_seat(addr: std::net::SocketAddr, table: String, token: String) -> Vec<Value> {
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    loop {
        match client.next(WAIT).await.expect("a message") {
            None => break,
            Some(m) if m["type"] == "table_closed" => break,
            Some(m) => {
                if let Some(legal) = prompt_of(&m) {
                    client.act(choose(&legal)).await.expect("act");
                }
            }
        }
    }
    client.received
}

/// Plays every entrant's seat of `tables` (a round's tables as the API lists them) to the end.
async fn play_round(
    addr: std::net::SocketAddr,
    tables: &Value,
    players: &[(String, String)],
) -> Vec<Vec<Value>> {
    let tokens: HashMap<&str, &str> = players
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let mut tasks = tokio::task::JoinSet::new();
    for table in tables.as_array().expect("tables") {
        let id = table["table"].as_str().expect("table id").to_string();
        for seat in table["seats"].as_array().expect("seats") {
            if let Some(player) = seat["player"].as_str() {
                let token = tokens[player].to_string();
                tasks.spawn(play_seat(addr, id.clone(), token));
            }
        }
    }
    let mut streams = Vec::new();
    while let Some(done) = tasks.join_next().await {
        streams.push(done.expect("a seat's task"));
    }
    streams
}

async fn start_round(addr: std::net::SocketAddr, token: &str, id: &str) -> Value {
    let (status, tables) = http(
        addr,
        "POST",
        &format!("/api/tournaments/{id}/rounds"),
        Some(token),
        None,
    )
    .await
    .expect("start a round");
    assert_eq!(status, 201, "{tables}");
    tables
}

/// Waits until round `round` is over by the API.
async fn round_ends(addr: std::net::SocketAddr, id: &str, round: usize) {
    eventually("the round is over", async || {
        detail(addr, id).await["round_list"][round - 1]["ended_ms"].is_i64()
    })
    .await;
}

/// Points by place at a table (4/2/1/0), equal totals sharing the places they take.
fn place_points(totals: &[i64], by_place: &[f64]) -> Vec<f64> {
    totals
        .iter()
        .map(|t| {
            let above = totals.iter().filter(|o| *o > t).count();
            let equal = totals.iter().filter(|o| *o == t).count();
            by_place[above..above + equal].iter().sum::<f64>() / equal as f64
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sixteen_player_duplicate_tournament_plays_four_rounds() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (organiser, t) = create(
        addr,
        json!({"name": "Duplicate cup 复式杯", "ruleset": "sichuan", "rounds": 4, "hands": 1,
               "duplicate": true, "escape_penalty": 2}),
    )
    .await;
    let id = t["id"].as_str().expect("id").to_string();
    assert_eq!(t["status"], "registering");
    let players = register(addr, &t, 16).await;
    let entrant_of: HashMap<String, u64> = detail(addr, &id).await["entrants"]
        .as_array()
        .expect("entrants")
        .iter()
        .map(|e| {
            (
                e["player"].as_str().unwrap_or_default().to_string(),
                e["entrant"].as_u64().unwrap_or(99),
            )
        })
        .collect();
    assert_eq!(entrant_of.len(), 16);

    let mut seen_hand_overs = 0;
    for round in 1..=4 {
        let tables = start_round(addr, &organiser, &id).await;
        // Every entrant seated once; four full tables, no bot.
        let mut seated: Vec<String> = tables
            .as_array()
            .expect("tables")
            .iter()
            .flat_map(|t| t["seats"].as_array().cloned().unwrap_or_default())
            .filter_map(|s| s["player"].as_str().map(String::from))
            .collect();
        seated.sort();
        seated.dedup();
        assert_eq!(seated.len(), 16, "round {round}: every entrant seated once");
        // A round starts once, and only after the one before.
        let (status, _) = http(
            addr,
            "POST",
            &format!("/api/tournaments/{id}/rounds"),
            Some(&organiser),
            None,
        )
        .await
        .expect("again");
        assert_eq!(status, 409, "round {round} started twice");
        let streams = play_round(addr, &tables, &players).await;
        for m in streams
            .iter()
            .flatten()
            .filter(|m| m["type"] == "hand_over")
        {
            seen_hand_overs += 1;
            assert!(
                m.get("seed").is_none(),
                "a duplicate table revealed its seed: {m}"
            );
        }
        round_ends(addr, &id, round).await;
    }
    assert!(seen_hand_overs >= 16 * 4, "every seat saw its hands end");
    let d = detail(addr, &id).await;
    assert_eq!(d["status"], "finished");
    let rounds = d["round_list"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 4);

    // Repeat meetings: no pair of the 16 sits together twice in four rounds (the bound the
    // seating keeps, and states in its documentation).
    let mut met: BTreeMap<(u64, u64), u32> = BTreeMap::new();
    let mut seat_entrant: HashMap<(String, usize), Option<u64>> = HashMap::new();
    let mut table_round: HashMap<String, (u64, u64)> = HashMap::new();
    for r in rounds {
        for table in r["tables"].as_array().expect("tables") {
            let tid = table["table"].as_str().unwrap_or_default().to_string();
            table_round.insert(
                tid.clone(),
                (
                    r["round"].as_u64().unwrap_or(0),
                    table["group"].as_u64().unwrap_or(0),
                ),
            );
            let es: Vec<Option<u64>> = table["seats"]
                .as_array()
                .expect("seats")
                .iter()
                .map(|s| s["entrant"].as_u64())
                .collect();
            for (i, e) in es.iter().enumerate() {
                seat_entrant.insert((tid.clone(), i), *e);
                for f in &es[i + 1..] {
                    if let (Some(a), Some(b)) = (e, f) {
                        *met.entry(((*a).min(*b), (*a).max(*b))).or_default() += 1;
                    }
                }
            }
        }
    }
    assert_eq!(met.values().max(), Some(&1), "a pair met twice");
    assert_eq!(
        met.len(),
        16 * 4 * 6 / 4 * 4 / 4,
        "every table's six pairs are new"
    );

    // The standings recomputed from the hands export: per table, each seat's total; places
    // by total, 4/2/1/0 shared; then points, score, firsts.
    let (status, hands) = http(
        addr,
        "GET",
        &format!("/api/tournaments/{id}/hands"),
        None,
        None,
    )
    .await
    .expect("hands");
    assert_eq!(status, 200);
    let hands = hands.as_array().expect("hands").clone();
    assert_eq!(hands.len(), 16, "a hand per table and round");
    let mut totals: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for h in &hands {
        let t = totals
            .entry(h["table"].as_str().unwrap_or_default().to_string())
            .or_insert_with(|| vec![0; 4]);
        for s in h["seats"].as_array().expect("seats") {
            t[s["seat"].as_u64().unwrap_or(0) as usize] += s["delta"].as_i64().unwrap_or(0);
        }
    }
    let mut mine: HashMap<u64, (f64, i64, u32)> = HashMap::new();
    for (table, seats) in &totals {
        let pts = place_points(seats, &[4.0, 2.0, 1.0, 0.0]);
        let best = seats.iter().max().copied().unwrap_or(0);
        for (i, (&total, p)) in seats.iter().zip(pts).enumerate() {
            let e = seat_entrant[&(table.clone(), i)].expect("no bot at a full field");
            let row = mine.entry(e).or_default();
            row.0 += p;
            row.1 += total;
            row.2 += u32::from(total == best);
        }
    }
    let (_, standings) = http(
        addr,
        "GET",
        &format!("/api/tournaments/{id}/standings"),
        None,
        None,
    )
    .await
    .expect("standings");
    let standings = standings.as_array().expect("standings").clone();
    assert_eq!(standings.len(), 16);
    let mut previous: Option<(f64, i64, u32)> = None;
    for s in &standings {
        let e = s["entrant"].as_u64().expect("entrant");
        let (points, score, firsts) = mine[&e];
        assert!(
            (s["points"].as_f64().unwrap_or(-1.0) - points).abs() < 1e-9,
            "{s} vs {points}"
        );
        assert_eq!(
            (s["score"].as_i64(), s["firsts"].as_u64()),
            (Some(score), Some(u64::from(firsts))),
            "{s}"
        );
        assert_eq!(s["tables"], 4);
        if let Some(p) = previous {
            assert!(
                (p.0, p.1, p.2) >= (points, score, firsts) || p.0 > points,
                "standings out of order at {s}"
            );
        }
        previous = Some((points, score, firsts));
    }

    // Duplicate: the tables of a group were dealt from the same seed (revealed now the rounds
    // are over), and each wind was dealt the same tiles at every table of the group.
    let mut seeds: BTreeMap<(u64, u64), Vec<String>> = BTreeMap::new();
    for h in &hands {
        let seed = h["seed"]
            .as_str()
            .expect("seeds revealed once the round is over")
            .to_string();
        seeds
            .entry((
                h["round"].as_u64().unwrap_or(0),
                h["group"].as_u64().unwrap_or(0),
            ))
            .or_default()
            .push(seed);
    }
    let mut distinct: Vec<&String> = Vec::new();
    for ((round, group), s) in &seeds {
        assert!(
            s.len() == 4 && s.iter().all(|x| x == &s[0]),
            "round {round} group {group}: {s:?}"
        );
        distinct.push(&s[0]);
    }
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        seeds.len(),
        "each group and round its own seed"
    );
    let mut walls: BTreeMap<(u64, u64), Vec<DealtByWind>> = BTreeMap::new();
    for h in &hands {
        let table = h["table"].as_str().unwrap_or_default();
        let (status, stream) = http(
            addr,
            "GET",
            &format!("/api/tables/{table}/hands/0/stream"),
            None,
            None,
        )
        .await
        .expect("stream");
        assert_eq!(status, 200, "{stream}");
        let dealer = h["dealer"].as_u64().unwrap_or(0);
        let mut by_wind = BTreeMap::new();
        for f in stream["frames"].as_array().expect("frames") {
            if f["event"]["kind"] == "dealt" {
                let seat = f["event"]["seat"].as_u64().unwrap_or(0);
                let tiles: Vec<String> =
                    serde_json::from_value(f["event"]["tiles"].clone()).unwrap_or_default();
                by_wind.insert((seat + 4 - dealer) % 4, tiles);
            }
        }
        assert_eq!(by_wind.len(), 4, "every seat's deal in the stream");
        walls.entry(table_round[table]).or_default().push(by_wind);
    }
    for (key, deals) in &walls {
        assert!(
            deals.iter().all(|d| d == &deals[0]),
            "{key:?}: the group's deals differ"
        );
    }

    // Exports as CSV: a line per entrant, a line per seat of each hand.
    let csv = common::raw(
        addr,
        &format!("GET /api/tournaments/{id}/standings?format=csv"),
        "",
        b"",
    )
    .await
    .expect("csv");
    assert_eq!(csv.status, 200);
    assert!(csv.head.contains("text/csv"), "{}", csv.head);
    let text = csv.body.as_str().unwrap_or_default().to_string();
    assert_eq!(text.lines().count(), 17, "{text}");
    assert!(text.starts_with("rank,entrant,player,name,points,score,firsts,tables,escapes"));
    let csv = common::raw(
        addr,
        &format!("GET /api/tournaments/{id}/hands?format=csv"),
        "",
        b"",
    )
    .await
    .expect("csv");
    assert_eq!(
        csv.body.as_str().unwrap_or_default().lines().count(),
        1 + 16 * 4
    );

    // A player's tournaments carry their line of the standings.
    let (_, theirs) = http(
        addr,
        "GET",
        &format!("/api/players/{}/tournaments", players[3].0),
        None,
        None,
    )
    .await
    .expect("player's tournaments");
    assert_eq!(theirs[0]["tournament"]["id"], id.as_str());
    assert_eq!(theirs[0]["standing"]["entrant"], entrant_of[&players[3].0]);

    // The ranking across tournaments: one finished tournament, so each player's placing is
    // (16 − rank) / 15 and the leaders have its win.
    let (status, ranking) = http(
        addr,
        "GET",
        "/api/rankings/tournaments?ruleset=sichuan",
        None,
        None,
    )
    .await
    .expect("ranking");
    assert_eq!(status, 200, "{ranking}");
    let ranking = ranking.as_array().cloned().unwrap_or_default();
    assert_eq!(ranking.len(), 16);
    for s in &standings {
        let line = ranking
            .iter()
            .find(|r| r["player"] == s["player"])
            .expect("every entrant ranked");
        let rank = s["rank"].as_f64().unwrap_or(0.0);
        assert_eq!(line["wins"], u64::from(rank == 1.0), "{line}");
        assert_eq!(line["tournaments"], 1);
        let placing = line["mean_placing"].as_f64().unwrap_or(-1.0);
        assert!((placing - (16.0 - rank) / 15.0).abs() < 1e-9, "{line}");
    }
    let (_, none) = http(
        addr,
        "GET",
        "/api/rankings/tournaments?ruleset=guobiao",
        None,
        None,
    )
    .await
    .expect("ranking");
    assert_eq!(none, json!([]));
    let (status, _) = http(
        addr,
        "GET",
        "/api/rankings/tournaments?ruleset=nope",
        None,
        None,
    )
    .await
    .expect("ranking");
    assert_eq!(status, 400);
    server.finish().await;
}

/// Plays a seat until its `count`-th `hand_over` (or the table's close).
async fn play_hands(addr: std::net::SocketAddr, table: String, token: String, count: usize) {
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    let mut over = 0;
    while over < count {
        match client.next(WAIT).await.expect("a message") {
            None => break,
            Some(m) if m["type"] == "table_closed" => break,
            Some(m) => {
                over += usize::from(m["type"] == "hand_over");
                if let Some(legal) = prompt_of(&m) {
                    client.act(choose(&legal)).await.expect("act");
                }
            }
        }
    }
}

/// What a restart must keep of a tournament: entrants, seatings, rounds, standings.
fn durable(d: &Value) -> Value {
    let tables: Vec<Value> = d["round_list"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["tables"].as_array().cloned().unwrap_or_default())
        .map(|t| json!({"table": t["table"], "seats": t["seats"].as_array().map(|s| s.iter().map(|x| x["entrant"].clone()).collect::<Vec<_>>())}))
        .collect();
    json!({
        "entrants": d["entrants"],
        "rounds_started": d["rounds_started"],
        "tables": tables,
        "standings": d["standings"],
    })
}

async fn stop(running: server::Running) {
    server::stop_rooms(&running.state).await;
    running.task.abort();
    running.state.store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_in_the_middle_of_a_round_loses_nothing() {
    let dir = std::env::temp_dir().join(format!("mahjong-tournament-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let start = || async {
        let mut config = common::config(&dir, None);
        // Room enough between hands for the restart to fall mid-round.
        config.next_hand_ms = 1_500;
        server::start(config).await.expect("start server")
    };
    let running = start().await;
    let addr = running.addr;
    let (organiser, t) = create(
        addr,
        json!({"name": "Restart open", "ruleset": "sichuan", "rounds": 2, "hands": 2,
               "duplicate": true, "scoring": {"kind": "raw"}}),
    )
    .await;
    let id = t["id"].as_str().expect("id").to_string();
    let players = register(addr, &t, 5).await;
    let tables = start_round(addr, &organiser, &id).await;
    // Five entrants: two tables, the empty seats played by bots, marked as such.
    let tables_list = tables.as_array().expect("tables");
    assert_eq!(tables_list.len(), 2);
    let bots: Vec<usize> = tables_list
        .iter()
        .map(|t| {
            t["seats"]
                .as_array()
                .map_or(0, |s| s.iter().filter(|x| x["entrant"].is_null()).count())
        })
        .collect();
    assert_eq!(bots.iter().sum::<usize>(), 3);
    assert!(
        tables_list
            .iter()
            .flat_map(|t| t["seats"].as_array().cloned().unwrap_or_default())
            .filter(|s| s["entrant"].is_null())
            .all(|s| s["display_name"] == "bot")
    );

    // Every seat plays the first hand of two.
    let tokens: HashMap<&str, &str> = players
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let mut tasks = tokio::task::JoinSet::new();
    for table in tables_list {
        for seat in table["seats"].as_array().expect("seats") {
            if let Some(p) = seat["player"].as_str() {
                tasks.spawn(play_hands(
                    addr,
                    table["table"].as_str().unwrap_or_default().to_string(),
                    tokens[p].to_string(),
                    1,
                ));
            }
        }
    }
    while tasks.join_next().await.is_some() {}
    // The round plays on: a duplicate table's hands and seeds are withheld.
    let first = tables_list[0]["table"].as_str().expect("table").to_string();
    let (status, body) = http(
        addr,
        "GET",
        &format!("/api/tables/{first}/hands"),
        None,
        None,
    )
    .await
    .expect("hands");
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["code"], "forbidden");
    let (status, _) = http(
        addr,
        "GET",
        &format!("/api/tables/{first}/hands/0/stream"),
        None,
        None,
    )
    .await
    .expect("stream");
    assert_eq!(status, 403);
    // Nor is it watched: a spectator is refused with its own code.
    let mut spectator = Client::watch(addr, &first, &organiser)
        .await
        .expect("watch");
    let refusal = spectator
        .next(WAIT)
        .await
        .expect("an answer")
        .expect("an error frame");
    assert_eq!(refusal["code"], "not_watchable", "{refusal}");
    assert!(spectator.next(WAIT).await.expect("closed").is_none());
    assert_eq!(
        spectator.closed.as_ref().map(|c| c.1.as_str()),
        Some("not_watchable")
    );
    let (_, hands) = http(
        addr,
        "GET",
        &format!("/api/tournaments/{id}/hands"),
        None,
        None,
    )
    .await
    .expect("export");
    let hands = hands.as_array().cloned().unwrap_or_default();
    assert_eq!(hands.len(), 2, "each table's first hand is stored");
    assert!(
        hands.iter().all(|h| h["seed"].is_null()),
        "seeds withheld while the round plays"
    );

    let before = durable(&detail(addr, &id).await);
    assert_eq!(
        before["standings"].as_array().map(Vec::len),
        Some(5),
        "bots are never ranked"
    );
    stop(running).await;

    // Restarted: the same tournament, and its tables play on.
    let running = start().await;
    let addr = running.addr;
    let after = detail(addr, &id).await;
    assert_eq!(durable(&after), before, "the restart lost something");
    assert_eq!(after["status"], "playing");
    let mut tasks = tokio::task::JoinSet::new();
    for table in tables_list {
        for seat in table["seats"].as_array().expect("seats") {
            if let Some(p) = seat["player"].as_str() {
                tasks.spawn(play_seat(
                    addr,
                    table["table"].as_str().unwrap_or_default().to_string(),
                    tokens[p].to_string(),
                ));
            }
        }
    }
    while tasks.join_next().await.is_some() {}
    round_ends(addr, &id, 1).await;
    let (status, _) = http(
        addr,
        "GET",
        &format!("/api/tables/{first}/hands"),
        None,
        None,
    )
    .await
    .expect("hands");
    assert_eq!(status, 200, "shown once the round is over");
    let (_, hands) = http(
        addr,
        "GET",
        &format!("/api/tournaments/{id}/hands"),
        None,
        None,
    )
    .await
    .expect("export");
    let hands = hands.as_array().cloned().unwrap_or_default();
    assert_eq!(hands.len(), 4);
    assert!(
        hands.iter().all(|h| h["seed"].is_string()),
        "seeds revealed with the round"
    );
    // Raw scoring: each entrant's points are their score, the sum of their seats' deltas.
    let d = detail(addr, &id).await;
    for s in d["standings"].as_array().expect("standings") {
        let e = s["entrant"].as_u64();
        let mine: i64 = hands
            .iter()
            .flat_map(|h| h["seats"].as_array().cloned().unwrap_or_default())
            .filter(|x| x["entrant"].as_u64() == e)
            .map(|x| x["delta"].as_i64().unwrap_or(0))
            .sum();
        assert_eq!(s["score"].as_i64(), Some(mine), "{s}");
        assert_eq!(s["points"].as_f64(), Some(mine as f64), "{s}");
    }
    // The next round starts on the restarted server.
    let round2 = start_round(addr, &organiser, &id).await;
    assert_eq!(round2.as_array().map(Vec::len), Some(2));
    stop(running).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scheduled_round_starts_by_itself_when_due() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let now_ms = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0),
    )
    .unwrap_or(0);
    // Round 1 is due now, round 2 a day later: the watch starts the first only.
    let (organiser, t) = create(
        addr,
        json!({"name": "On the clock", "ruleset": "sichuan", "rounds": 2, "hands": 1,
               "schedule": {"first_round_at_ms": now_ms, "round_gap_ms": 86_400_000}}),
    )
    .await;
    let id = t["id"].as_str().expect("id").to_string();
    let players = register(addr, &t, 4).await;
    eventually("the scheduled round started", async || {
        detail(addr, &id).await["rounds_started"] == 1
    })
    .await;
    let d = detail(addr, &id).await;
    let tables = d["round_list"][0]["tables"].clone();
    assert_eq!(tables.as_array().map(Vec::len), Some(1));
    play_round(addr, &tables, &players).await;
    round_ends(addr, &id, 1).await;
    // Round 2 is not due for a day, so the watch leaves it; the organiser may still start it
    // by hand (a schedule starts rounds, it does not lock them).
    assert_eq!(detail(addr, &id).await["rounds_started"], 1);
    let (status, _) = http(
        addr,
        "POST",
        &format!("/api/tournaments/{id}/rounds"),
        Some(&organiser),
        None,
    )
    .await
    .expect("start");
    assert_eq!(status, 201);
    server.finish().await;
}
