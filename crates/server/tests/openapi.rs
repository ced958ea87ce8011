//! The OpenAPI document against the official schema of OpenAPI 3.1 and against the server.
//!
//! - The served document validates against the OpenAPI 3.1 JSON Schema (a copy in
//!   `tests/openapi/`, its source in the README there) and passes the structural checks that
//!   schema cannot express (`spec::structural_problems`). It is written to
//!   `target/artifacts/openapi.json`, where `.ci/openapi-check` reads it.
//! - A bounded property-based run, as an outside client over sockets: for every operation the
//!   document lists, requests generated from the document from a seed (valid ones and
//!   mutations: `generate.rs`), each answer held to the document (`conform.rs`): a declared status,
//!   the declared content type, schema and headers, no 5xx, and the status a mutation makes
//!   certain. `OPENAPI_REQUESTS` sets the requests per operation (README, "Tests"),
//!   `OPENAPI_SEED` the seed.
//! - The statuses only a state of the server can draw, each from its own server: 429 with
//!   `Retry-After` from exactly the operations that declare it once the per-address limit is
//!   spent, and a declared 503 (or an answer that needs no database) from every operation once
//!   the database is closed.

mod common;
#[path = "../../engine/tests/knobs/mod.rs"]
mod knobs;

#[path = "openapi/conform.rs"]
mod conform;
#[path = "openapi/generate.rs"]
mod generate;
#[path = "openapi/spec.rs"]
mod spec;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

use common::{Answer, Client, choose, prompt_of};
use generate::{Generator, Mutation, Request};
use serde_json::{Value, json};
use spec::{Operation, Spec};

/// The official JSON Schema of OpenAPI 3.1 documents.
const OAS_31_SCHEMA: &str = include_str!("openapi/oas-3.1-schema.json");

/// The seed of the generated requests unless `OPENAPI_SEED` gives one.
const SEED: u64 = 0x006d_6168_6a6f_6e67;

/// The served document, as a client fetches it.
async fn served(addr: SocketAddr) -> Value {
    let (status, doc) = common::http(addr, "GET", "/api/openapi.json", None, None)
        .await
        .expect("the document");
    assert_eq!(status, 200, "{doc}");
    doc
}

/// `proto/openapi.json` is the document the server serves, so that clients can generate from
/// the repository (the TypeScript SDK's types are made from it): `UPDATE_SCHEMA=1` rewrites it.
#[test]
fn the_committed_document_is_the_served_one() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto/openapi.json");
    let doc = serde_json::to_value(server::openapi()).expect("JSON");
    let text = serde_json::to_string_pretty(&doc).expect("JSON") + "\n";
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &text).expect("write proto/openapi.json");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "proto/openapi.json is not the served document: run `UPDATE_SCHEMA=1 cargo test -p \
         mahjong-server --test openapi` and commit it"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_served_document_is_valid_openapi_3_1() {
    let server = common::sqlite_server().await;
    let doc = served(server.addr).await;
    let dir = common::artifacts();
    std::fs::create_dir_all(&dir).expect("the artifacts folder");
    let text = serde_json::to_string_pretty(&doc).expect("JSON");
    std::fs::write(dir.join("openapi.json"), text).expect("write the document");

    let schema: Value = serde_json::from_str(OAS_31_SCHEMA).expect("the OpenAPI 3.1 schema");
    let validator = jsonschema::draft202012::new(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&doc)
        .map(|e| format!("{e} at `{}`", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "not OpenAPI 3.1:\n{}", errors.join("\n"));

    let spec = Spec::new(doc.clone());
    let problems = spec::structural_problems(&spec);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(
        doc,
        serde_json::to_value(server::openapi()).expect("JSON"),
        "the served document is `server::openapi()`"
    );
    assert!(
        spec.operations().len() >= 20,
        "every route is listed: {:?}",
        spec.operations()
            .iter()
            .map(Operation::name)
            .collect::<Vec<_>>()
    );
    server.finish().await;
}

/// The document must be able to fail its checks: a broken copy is caught.
#[test]
fn a_broken_document_is_caught() {
    let mut doc = serde_json::to_value(server::openapi()).expect("JSON");
    doc["paths"]["/api/me"]["get"]["responses"]["200"]
        .as_object_mut()
        .expect("a response")
        .remove("description");
    doc["paths"]["/api/rooms/join"]["post"]["security"] = json!([{"cookie": []}]);
    doc["paths"]["/api/tables/{table}/hands"]["get"]["parameters"] = json!([]);
    let schema: Value = serde_json::from_str(OAS_31_SCHEMA).expect("the OpenAPI 3.1 schema");
    let validator = jsonschema::draft202012::new(&schema).expect("the schema compiles");
    assert!(
        !validator.is_valid(&doc),
        "a response without a description"
    );
    let problems = spec::structural_problems(&Spec::new(doc)).join("\n");
    assert!(problems.contains("`cookie` is not declared"), "{problems}");
    assert!(problems.contains("`table` is not declared"), "{problems}");
}

/// A guest's hand of `ruleset` with bots, played to its end over a WebSocket: (player id,
/// table).
async fn play_a_hand(addr: SocketAddr, ruleset: &str, players: usize) -> (String, String) {
    let (player, token) = common::guest(addr, "夹具").await;
    let bots = vec!["basic"; players - 1];
    let room = common::create_room(
        addr,
        &token,
        json!({"ruleset": ruleset, "hands": 1, "bots": bots}),
    )
    .await;
    let table = room["table"].as_str().unwrap_or_default().to_string();
    let mut client = Client::connect(addr, &table, &token, None)
        .await
        .expect("connect");
    loop {
        let m = client
            .next(Duration::from_secs(30))
            .await
            .expect("a message in time")
            .expect("the socket open until the hand ends");
        if let Some(legal) = prompt_of(&m) {
            client.act(choose(&legal)).await.expect("send");
        } else if m["type"] == "hand_over" {
            break;
        }
    }
    common::eventually("the hand is stored", async || {
        !common::stored_hands(addr, &table).await.is_empty()
    })
    .await;
    (player, table)
}

/// Live values for the names the document's parameters and fields use: a table with a finished
/// hand (number 0), its player, and the join code of a room with free seats.
async fn fixtures(addr: SocketAddr) -> BTreeMap<String, Vec<Value>> {
    let presets = common::presets(addr).await;
    let (ruleset, players) = presets[0].clone();
    let (player, table) = play_a_hand(addr, &ruleset, players).await;
    let (_, host) = common::guest(addr, "东道").await;
    let open = common::create_room(addr, &host, json!({"ruleset": ruleset})).await;
    let code = open["code"].as_str().unwrap_or_default().to_string();
    let (status, cup) = common::http(
        addr,
        "POST",
        "/api/tournaments",
        Some(&host),
        Some(json!({"name": "夹具杯", "ruleset": ruleset, "rounds": 2})),
    )
    .await
    .expect("a tournament");
    assert_eq!(status, 201, "{cup}");
    BTreeMap::from([
        ("table".to_string(), vec![json!(table)]),
        ("hand".to_string(), vec![json!(0)]),
        ("player".to_string(), vec![json!(player)]),
        ("tournament".to_string(), vec![cup["id"].clone()]),
        (
            "code".to_string(),
            vec![
                json!(code),
                json!(format!(" {} ", code.to_ascii_lowercase())),
            ],
        ),
        // A tournament's options and scoring as valid for whichever preset it names: its
        // defaults, and raw scoring (places scoring needs a number per seat of that preset).
        ("/api/tournaments options".to_string(), vec![json!({})]),
        (
            "/api/tournaments scoring".to_string(),
            vec![json!({"kind": "raw"})],
        ),
        // Registering takes the tournament's code, as given or as a person might type it.
        (
            "/api/tournaments/{tournament}/entrants code".to_string(),
            vec![
                cup["code"].clone(),
                json!(format!(
                    " {} ",
                    cup["code"]
                        .as_str()
                        .unwrap_or_default()
                        .to_ascii_lowercase()
                )),
            ],
        ),
    ])
}

/// Operations only one player may use (a tournament's organiser starts its rounds): every
/// request here comes with a fresh guest's session, so a valid one reaches the operation and is
/// refused 403 by it; `tests/tournaments.rs` drives their success.
const ONE_PLAYERS: &[&str] = &["POST /api/tournaments/{tournament}/rounds"];

/// Sends `request`, with a fresh guest's session if it wants one.
async fn send(addr: SocketAddr, request: &Request, guests: &mut u32) -> Answer {
    let mut headers = request.headers.clone();
    if request.wants_session {
        *guests += 1;
        let (_, token) = common::guest(addr, &format!("客{guests}")).await;
        headers.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    common::raw(addr, &request.line, &headers, &request.body)
        .await
        .expect("an HTTP answer")
}

/// Valid requests sent to every operation at least. Each named parameter takes its fixture's
/// live value four times in five, so a valid request to a path with two of them reaches a
/// real hand about two times in three: with three, the quick run's seeded mix once sent
/// `/api/tables/{table}/hands/{hand}/stream` three requests for hands that do not exist
/// (about a one-in-twenty chance per such path); with six it is under one in three hundred.
const MIN_VALID: usize = 6;

/// The requests to send `op`, in order: each applicable mutation once; each declared limit
/// of each parameter and body field broken once, just past it; then a seeded mix of valid
/// requests and mutations up to `count` in all; then a body over the size limit where there
/// is a body.
fn requests(spec: &Spec, op: &Operation, generator: &mut Generator, count: u64) -> Vec<Request> {
    let applicable = Mutation::applicable(op);
    let mut out: Vec<Request> = applicable
        .iter()
        .map(|&m| generator.request(spec, op, m))
        .collect();
    for broken in generator.breaks(spec, op) {
        out.push(generator.breaking(spec, op, broken));
    }
    while (out.len() as u64) < count {
        let next = if generator.chance(40) {
            Mutation::Valid
        } else {
            generator.pick(&applicable)
        };
        out.push(generator.request(spec, op, next));
    }
    // An operation with many limits fills `count` with broken requests alone: a few valid
    // ones still go, since a valid body may be refused for what the schema cannot say (three
    // bots at a two-player table).
    let valid = out.iter().filter(|r| r.mutation == Mutation::Valid).count();
    for _ in valid..MIN_VALID {
        out.push(generator.request(spec, op, Mutation::Valid));
    }
    if op.body.is_some() {
        out.push(generator.request(spec, op, Mutation::TooLarge));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_answers_as_its_document_says() {
    // Absent players' seats are never taken over here: the rooms the run creates stop at their
    // creator's first turn instead of playing whole matches on the test's two cores.
    let server = common::sqlite_server_with(|c| c.takeover_ms = 3_600_000).await;
    let addr = server.addr;
    let spec = Spec::new(served(addr).await);
    let seed = knobs::count("OPENAPI_SEED", SEED, SEED);
    let count = knobs::count("OPENAPI_REQUESTS", 40, 16);
    let mut generator = Generator::new(seed, fixtures(addr).await);
    let mut problems = Vec::new();
    let mut tally: BTreeMap<String, BTreeMap<(Mutation, u16), u32>> = BTreeMap::new();
    let mut guests = 0;
    let operations = spec.operations();
    for op in &operations {
        for request in requests(&spec, op, &mut generator, count) {
            let mutation = request.mutation;
            let answer = send(addr, &request, &mut guests).await;
            for problem in conform::problems(&spec, op, &request, &answer) {
                problems.push(format!(
                    "{}: {problem}\n    {}",
                    op.name(),
                    request.describe()
                ));
            }
            *tally
                .entry(op.name())
                .or_default()
                .entry((mutation, answer.status))
                .or_default() += 1;
        }
    }
    problems.extend(wrong_methods(&spec, addr).await);
    let report = report(&tally);
    eprintln!(
        "seed {seed}, {count} requests per operation (more where it has more limits to break, \
         and one too large per body):\n{report}"
    );
    assert!(
        problems.is_empty(),
        "{} problems (seed {seed}):\n{}\n\n{report}",
        problems.len(),
        problems
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    for op in &operations {
        let seen = &tally[&op.name()];
        let reached = |s: &u16| {
            (200..300).contains(s) || (*s == 403 && ONE_PLAYERS.contains(&op.name().as_str()))
        };
        assert!(
            seen.keys()
                .any(|(m, s)| *m == Mutation::Valid && reached(s)),
            "{}: no valid request succeeded: the generator does not reach the operation\n{report}",
            op.name()
        );
    }
    server.finish().await;
}

/// A method a path does not list is answered 405 with `Allow`, in the error shape.
async fn wrong_methods(spec: &Spec, addr: SocketAddr) -> Vec<String> {
    let mut problems = Vec::new();
    let error_body = json!({"$ref": "#/components/schemas/ErrorBody"});
    for (path, item) in spec.root["paths"].as_object().into_iter().flatten() {
        let Some(method) = ["put", "patch", "delete", "post", "get"]
            .into_iter()
            .find(|m| item.get(*m).is_none())
        else {
            continue;
        };
        let concrete = path.replace('{', "x").replace('}', "");
        let line = format!("{} {concrete}", method.to_ascii_uppercase());
        let answer = common::raw(addr, &line, "", b"").await.expect("an answer");
        if answer.status != 405 || !answer.head.contains("\r\nallow:") {
            problems.push(format!("{line}: {} {}", answer.status, answer.head));
        }
        if let Some(why) = spec.misfit(&error_body, &answer.body) {
            problems.push(format!("{line}: {why}"));
        }
    }
    problems
}

/// Statuses by operation and mutation, one line per operation.
fn report(tally: &BTreeMap<String, BTreeMap<(Mutation, u16), u32>>) -> String {
    tally
        .iter()
        .map(|(op, seen)| {
            let cells: Vec<String> = seen
                .iter()
                .map(|((m, s), n)| format!("{m:?}→{s}×{n}"))
                .collect();
            format!("  {op}: {}", cells.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exactly_the_operations_that_declare_429_are_rate_limited() {
    let server = common::sqlite_server_with(|c| c.http_rate = 1).await;
    let addr = server.addr;
    let spec = Spec::new(served(addr).await);
    // The one request a minute this address may make that creates something.
    common::guest(addr, "限").await;
    let mut generator = Generator::new(SEED, BTreeMap::new());
    let mut problems = Vec::new();
    let mut limited = Vec::new();
    for op in spec.operations() {
        // No session: the limit is counted before anything else is looked at.
        let mut request = generator.request(&spec, &op, Mutation::Valid);
        request.wants_session = false;
        let answer = send(addr, &request, &mut 0).await;
        problems.extend(conform::declared(&spec, &op, &answer, false));
        if op.declares(429) != (answer.status == 429) {
            problems.push(format!(
                "{}: declares 429 {}, answered {}",
                op.name(),
                op.declares(429),
                answer.status
            ));
        }
        if answer.status == 429 {
            limited.push(op.name());
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    limited.sort();
    assert_eq!(
        limited,
        [
            "POST /api/guests",
            "POST /api/quickmatch",
            "POST /api/rooms",
            "POST /api/rooms/join",
            "POST /api/tournaments",
            "POST /api/tournaments/{tournament}/entrants",
            "POST /api/tournaments/{tournament}/rounds",
        ],
        "the requests that create things"
    );
    server.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_declares_its_answer_when_the_database_is_down() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let spec = Spec::new(served(addr).await);
    let operations = spec.operations();
    let mut tokens = Vec::new();
    for i in 0..operations.len() {
        tokens.push(common::guest(addr, &format!("断{i}")).await.1);
    }
    // The database refuses everything from here on (the server's pool closed).
    server.running.state.store.close().await;
    let mut generator = Generator::new(SEED, BTreeMap::new());
    let mut problems = Vec::new();
    let mut unavailable = 0;
    for (op, token) in operations.iter().zip(tokens) {
        let mut request = generator.request(&spec, op, Mutation::Valid);
        if request.wants_session {
            request.wants_session = false;
            request
                .headers
                .push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        let answer = send(addr, &request, &mut 0).await;
        problems.extend(
            conform::declared(&spec, op, &answer, true)
                .into_iter()
                .map(|p| format!("{}: {p}", op.name())),
        );
        unavailable += usize::from(answer.status == 503);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        unavailable >= 10,
        "only {unavailable} operations found the database down"
    );
    server.finish().await;
}
