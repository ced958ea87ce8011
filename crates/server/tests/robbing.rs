//! The robbing window (抢杠) is held like a discard's claim window: after a kong is added, its
//! `kong_offered` announcement reaches everyone at once and nothing more of the hand before the
//! window ends, whether anyone could rob it or not, and a player who could rob must answer
//! within the window.
//!
//! The rooms run on a hand-driven clock, so "nothing before the window ends" is checked a
//! millisecond before its end, and the end itself to the millisecond.
//!
//! Deals are random, so the test finds hands in the engine first (seeded deals played by bots,
//! the players' seats claiming every pung), writes each into its table's log, and restarts the
//! server: the tables resume at the moment a player may add a kong.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{Client, create_room, guest, join_room, prompt_of};
use engine::stored::{Document, LogEntry, StoredTableState};
use engine::wall::SeededRng;
use engine::{Action, Game, Seat, Table, TableState};
use serde_json::{Value, json};
use server::time::ManualTime;

const WAIT: Duration = Duration::from_secs(20);
const WINDOW: u64 = 2_000;

/// A hand found in the engine: its seed, the actions up to a moment when `adder` may add a
/// kong, and the seats that could rob that kong.
struct Found {
    seed: u64,
    actions: Vec<(Seat, Action)>,
    adder: Seat,
    kong: Action,
    robbers: Vec<Seat>,
}

/// Plays seeded hands of `table` until `players`' seats may add a kong that `wanted` judges
/// (given the seats that could rob it). Bots play the other seats; the players' seats claim
/// every pung, never win, and otherwise play as the bot would.
fn find(table: &Table, players: &[Seat], wanted: impl Fn(Seat, &[Seat]) -> bool) -> Found {
    for seed in 1..20_000u64 {
        let mut game = table.deal(seed);
        let mut rng = SeededRng::new(seed);
        let mut actions = Vec::new();
        while !game.is_over() && actions.len() < 1_000 {
            for &adder in players {
                let added = game
                    .legal_actions(adder)
                    .iter()
                    .copied()
                    .find(|a| matches!(a, Action::AddedKong { .. }));
                if let Some(kong) = added {
                    let robbers = robbers(&game, adder, kong);
                    if wanted(adder, &robbers) {
                        return Found {
                            seed,
                            actions,
                            adder,
                            kong,
                            robbers,
                        };
                    }
                }
            }
            let Some(seat) = game.to_act().iter().next() else {
                break;
            };
            let action = decide(&game, seat, players.contains(&seat), &mut rng);
            game.apply(seat, action).expect("a legal action");
            actions.push((seat, action));
        }
    }
    panic!("no hand found with the kong wanted");
}

/// The seats that could rob `adder`'s added kong.
fn robbers(game: &Game, adder: Seat, kong: Action) -> Vec<Seat> {
    let mut probe = game.clone();
    probe.apply(adder, kong).expect("a legal kong");
    probe
        .table_seats()
        .filter(|&s| probe.legal_actions(s).contains(&Action::Win))
        .collect()
}

fn decide(game: &Game, seat: Seat, player: bool, rng: &mut SeededRng) -> Action {
    let legal = game.legal_actions(seat);
    let view = game.view(seat);
    let bot = bot::Level::Basic.policy().decide(&view, legal, rng);
    if !player {
        return bot;
    }
    if legal.contains(&Action::Pung) {
        return Action::Pung;
    }
    match bot {
        Action::Discard { .. } | Action::DeclareVoid { .. } | Action::Pass => bot,
        _ => legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Discard { .. } | Action::Pass))
            .unwrap_or(bot),
    }
}

/// A server over the SQLite database in `dir`, on a hand-driven clock: claim windows held for
/// [`WINDOW`], and players who are slow to connect are neither replaced by the bot nor counted
/// as escaped.
async fn start(dir: &Path) -> (server::Running, ManualTime) {
    let clock = ManualTime::new();
    let mut config = common::config(dir, None);
    config.claim_window_ms = WINDOW;
    config.grace_ms = 60_000;
    config.reconnect_ms = 120_000;
    config.next_hand_ms = 60_000;
    config.time = clock.source();
    (server::start(config).await.expect("start server"), clock)
}

async fn stop(running: server::Running) {
    server::stop_rooms(&running.state).await;
    running.task.abort();
    running.state.store.close().await;
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mahjong-robbing-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Finds a hand for the stored table `table` and writes its deal and actions into the log, as
/// the room would have: a restarted server resumes it there.
async fn prepare(
    running: &server::Running,
    table: &str,
    players: &[Seat],
    wanted: impl Fn(Seat, &[Seat]) -> bool,
) -> Found {
    let store = &running.state.store;
    let id = store::TableId::parse(table).expect("table id");
    let record = store.table(&id).await.expect("table");
    let ruleset = engine::Ruleset::new(
        record.ruleset.parse().expect("ruleset id"),
        &engine::RawOptions::new(),
    )
    .expect("ruleset");
    let state = StoredTableState::read(&record.carried)
        .and_then(|c| TableState::try_from(&c))
        .expect("carried state");
    let found = find(&Table::restore(ruleset, state.clone()), players, wanted);
    let deal = store::LoggedAction {
        seq: 0,
        hand_no: 0,
        seat: state.dealer.index() as u8,
        action: LogEntry::Deal { seed: found.seed }
            .write()
            .expect("deal as JSON"),
        at: store::UnixMillis::now(),
    };
    let entries: Vec<store::LoggedAction> =
        std::iter::once(deal)
            .chain(found.actions.iter().zip(1..).map(|(&(seat, action), seq)| {
                store::LoggedAction {
                    seq,
                    hand_no: 0,
                    seat: seat.index() as u8,
                    action: LogEntry::from(action).write().expect("action as JSON"),
                    at: store::UnixMillis::now(),
                }
            }))
            .collect();
    // Written as the room would: under the claim its server holds on the table.
    let claim = store::Claim {
        epoch: store.ownership(&id).await.expect("owner").epoch,
        table: id,
    };
    store.append_actions(&claim, &entries).await.expect("log");
    found
}

/// Reads `client`'s messages after a kong up to its `kong_offered` announcement, which must
/// come at once (before the clock moves); a prompt offering a win on the way is answered at once
/// (a pass where the rules allow one), and returned: an early answer must not end the window.
async fn announced(client: &mut Client) -> Vec<Value> {
    let mut prompts = Vec::new();
    loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "event" {
            assert_eq!(m["event"]["kind"], "kong_offered", "announced first: {m}");
            return prompts;
        }
        if let Some(legal) = prompt_of(&m) {
            prompts.push(answer(client, &legal).await);
        }
    }
}

/// Answers a robbing prompt at once (a pass where the rules allow one); returns the prompt's
/// legal actions.
async fn answer(client: &mut Client, legal: &[Value]) -> Value {
    let reply = legal
        .iter()
        .find(|a| a["type"] == "pass")
        .cloned()
        .unwrap_or_else(|| json!({"type": "win"}));
    client.act(reply).await.expect("act");
    Value::Array(legal.to_vec())
}

/// Checks that nothing of the hand reaches `client` until the window's last millisecond has
/// passed (the clock is advanced by the caller), answering a robbing prompt if one comes.
async fn quiet(client: &mut Client) -> Vec<Value> {
    let mut prompts = Vec::new();
    for m in client.sync().await {
        assert_ne!(
            m["type"], "event",
            "something showed inside the window: {m}"
        );
        if let Some(legal) = prompt_of(&m) {
            prompts.push(answer(client, &legal).await);
        }
    }
    prompts
}

/// The first event after the window closed.
async fn first_event(client: &mut Client) -> Value {
    loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "event" {
            return m;
        }
    }
}

/// Connects `token`'s client to `table` and reads up to its snapshot.
async fn connect(addr: std::net::SocketAddr, table: &str, token: &str) -> (Client, Value) {
    let mut client = Client::connect(addr, table, token, None)
        .await
        .expect("connect");
    loop {
        let m = client.next(WAIT).await.expect("message").expect("open");
        if m["type"] == "snapshot" {
            return (client, m);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_robbing_window_lasts_the_same_whoever_could_rob() {
    let dir = temp_dir();
    let (running, _) = start(&dir).await;
    let addr = running.addr;
    let (_, alice) = guest(addr, "加杠").await;
    let (_, bob) = guest(addr, "抢杠").await;
    // Table A: Alice and three bots; she adds a kong nobody can rob.
    let a = create_room(
        addr,
        &alice,
        json!({"ruleset": "sichuan", "hands": 1, "bots": ["basic", "basic", "basic"]}),
    )
    .await;
    // Table B: Alice and Bob with two bots between them; one adds a kong the other could rob.
    let b = create_room(
        addr,
        &alice,
        json!({"ruleset": "sichuan", "hands": 1, "bots": ["basic", "basic"]}),
    )
    .await;
    join_room(addr, &bob, b["code"].as_str().unwrap_or_default()).await;
    let table_a = a["table"].as_str().unwrap_or_default().to_string();
    let table_b = b["table"].as_str().unwrap_or_default().to_string();
    let (s0, s3) = (Seat::ALL[0], Seat::ALL[3]);
    let found_a = prepare(&running, &table_a, &[s0], |_, robbers| robbers.is_empty()).await;
    let found_b = prepare(&running, &table_b, &[s0, s3], |adder, robbers| {
        robbers.contains(if adder == s0 { &s3 } else { &s0 })
    })
    .await;
    stop(running).await;
    let (running, clock) = start(&dir).await;
    let addr = running.addr;
    let window = Duration::from_millis(WINDOW);

    // Nobody could rob: the kong and its replacement draw come when the window ends, together.
    let (mut client, snapshot) = connect(addr, &table_a, &alice).await;
    let kong = serde_json::to_value(protocol::WireAction::from(found_a.kong)).expect("kong");
    let legal = prompt_of(&snapshot).unwrap_or_default();
    assert!(legal.contains(&kong), "{kong} is offered: {snapshot}");
    client.act(kong).await.expect("act");
    assert!(announced(&mut client).await.is_empty(), "nobody could rob");
    clock.advance(window - Duration::from_millis(1));
    assert!(quiet(&mut client).await.is_empty());
    clock.advance(Duration::from_millis(1));
    let event = first_event(&mut client).await;
    assert_eq!(event["event"]["meld"]["shape"], "added_kong", "{event}");
    let next = client.next(WAIT).await.expect("message").expect("open");
    assert_eq!(
        next["event"]["kind"], "drew",
        "the replacement follows at once, with no second window: {next}"
    );

    // Someone could rob: the robber is asked within the window, answers at once, and still
    // nothing shows before the window ends.
    let (mut alice_client, alice_snapshot) = connect(addr, &table_b, &alice).await;
    let (mut bob_client, bob_snapshot) = connect(addr, &table_b, &bob).await;
    let (adder, adder_snapshot, robber) = if found_b.adder == s0 {
        (&mut alice_client, &alice_snapshot, &mut bob_client)
    } else {
        (&mut bob_client, &bob_snapshot, &mut alice_client)
    };
    let kong = serde_json::to_value(protocol::WireAction::from(found_b.kong)).expect("kong");
    let legal = prompt_of(adder_snapshot).unwrap_or_default();
    assert!(legal.contains(&kong), "{kong} is offered: {adder_snapshot}");
    let window_ends = clock.source().unix_ms().0 + WINDOW as i64;
    adder.act(kong).await.expect("act");
    let (adder_prompts, robber_prompts) = tokio::join!(announced(adder), announced(robber));
    assert!(adder_prompts.is_empty(), "{adder_prompts:?}");
    let mut asked = robber_prompts;
    asked.extend(quiet(robber).await);
    assert!(quiet(adder).await.is_empty());
    assert_eq!(
        asked.len(),
        1,
        "the robber is asked once: {asked:?} (seats that could rob: {:?})",
        found_b.robbers
    );
    let prompt = robber
        .received
        .iter()
        .rev()
        .find(|m| m["type"] == "prompt")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        prompt["deadline_ms"].as_i64(),
        Some(window_ends),
        "the robber must answer by the window's end: {prompt}"
    );
    // The robber answered at once; the window still runs to its end for both.
    clock.advance(window - Duration::from_millis(1));
    assert!(quiet(adder).await.is_empty());
    assert!(quiet(robber).await.is_empty());
    clock.advance(Duration::from_millis(1));
    for who in [adder, robber] {
        // The window's outcome (the robber sees its own pass first), then the kong.
        let mut event = first_event(who).await;
        if event["event"]["kind"] == "passed" {
            event = first_event(who).await;
        }
        assert_eq!(event["event"]["kind"], "melded", "{event}");
    }
    drop((alice_client, bob_client));
    stop(running).await;
    let _ = std::fs::remove_dir_all(&dir);
}
