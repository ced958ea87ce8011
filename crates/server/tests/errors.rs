//! Every error the HTTP side answers is `{"code", "message"}` JSON with its status, over every
//! route the OpenAPI document lists: a body that is not JSON, of the wrong shape, without its
//! content type or too large, a bad path parameter, a wrong method, no session; and an unknown
//! route. Checked from outside over raw HTTP, as a client that parses one error shape would.

mod common;

use common::Answer;

/// A request sent as it is (see `common::raw`).
async fn raw(addr: std::net::SocketAddr, line: &str, headers: &str, body: &[u8]) -> Answer {
    common::raw(addr, line, headers, body)
        .await
        .expect("an HTTP answer")
}

/// The error shape: JSON, a string `code` in snake case and a non-empty `message`.
fn assert_error_shape(what: &str, answer: &Answer) {
    assert!(
        answer.status >= 400,
        "{what}: expected an error, got {}",
        answer.status
    );
    assert!(
        answer.head.contains("content-type: application/json"),
        "{what}: {} without a JSON body: {}",
        answer.status,
        answer.head
    );
    let code = answer.body["code"].as_str().unwrap_or_default();
    assert!(
        !code.is_empty() && code.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
        "{what}: code {:?}",
        answer.body
    );
    assert!(
        answer.body["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{what}: message {:?}",
        answer.body
    );
}

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_is_json_with_a_code_and_a_message() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    let (_, token) = common::guest(addr, "错误").await;
    let auth = format!("Authorization: Bearer {token}\r\n");
    let json = "Content-Type: application/json\r\n";
    let (_, doc) = common::http(addr, "GET", "/api/openapi.json", None, None)
        .await
        .expect("openapi");
    let paths = doc["paths"].as_object().cloned().unwrap_or_default();
    assert!(
        paths.len() >= 10,
        "the document lists the routes: {paths:?}"
    );
    let mut checked = 0;
    for (path, item) in &paths {
        // Every path parameter given a value no route accepts.
        let concrete: String = path
            .split('/')
            .map(|s| if s.starts_with('{') { "zz~z" } else { s })
            .collect::<Vec<_>>()
            .join("/");
        for method in METHODS {
            let line = format!("{} {concrete}", method.to_ascii_uppercase());
            if item.get(method).is_none() {
                let answer = raw(addr, &line, &auth, b"").await;
                assert_eq!(answer.status, 405, "{line}: an undeclared method");
                assert!(answer.head.contains("allow:"), "{line}: {}", answer.head);
                assert_error_shape(&line, &answer);
                checked += 1;
                continue;
            }
            let bodies: [(&str, &str, &[u8]); 5] = [
                ("no session", json, b"{}"),
                ("bad JSON", json, b"{bad"),
                (
                    "wrong types",
                    json,
                    br#"{"ruleset": 5, "display_name": [], "code": {}}"#,
                ),
                ("no content type", "", br#"{"display_name": "x"}"#),
                ("too large", json, &[b'a'; 3 << 20]),
            ];
            for (case, content_type, body) in bodies {
                let headers = if case == "no session" {
                    content_type.to_string()
                } else {
                    format!("{auth}{content_type}")
                };
                let answer = raw(addr, &line, &headers, body).await;
                // Some of these are fine for some routes (a GET ignores its body); whatever
                // fails, fails in the one shape.
                if answer.status >= 400 {
                    assert_error_shape(&format!("{line} ({case})"), &answer);
                    checked += 1;
                }
            }
        }
    }
    for (line, status) in [
        ("GET /api/no-such-route", 404),
        ("GET /no/such/page", 404),
        ("GET /ws/tables/x", 400),
        ("GET /api/players/x/history?limit=abc", 400),
    ] {
        let answer = raw(addr, line, &auth, b"").await;
        assert_eq!(answer.status, status, "{line}: {:?}", answer.body);
        assert_error_shape(line, &answer);
    }
    assert!(checked >= 3 * paths.len(), "only {checked} errors checked");
    server.finish().await;
}

/// A quick-match request that a newer one of the same player replaced in the queue is answered
/// 409 `conflict`, as the document says: the client's own doing, not a failure of the server's
/// (it was 500 `internal`, with an error logged).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replaced_quick_match_request_is_a_conflict() {
    // Nobody is seated with bots while the test looks.
    let server = common::sqlite_server_with(|c| c.quick_fill_ms = 60_000).await;
    let addr = server.addr;
    let (_, token) = common::guest(addr, "急").await;
    let ask = || {
        let token = token.clone();
        tokio::spawn(async move {
            common::http(
                addr,
                "POST",
                "/api/quickmatch",
                Some(&token),
                Some(serde_json::json!({"ruleset": "sichuan"})),
            )
            .await
        })
    };
    let first = ask();
    let queues = server.running.state.queues.clone();
    common::eventually("the first request waits", async || {
        queues.waiting("sichuan") == 1
    })
    .await;
    let second = ask();
    let (status, body) = first
        .await
        .expect("the first request's task")
        .expect("an answer");
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "conflict", "{body}");
    assert_eq!(queues.waiting("sichuan"), 1, "the newer request waits on");
    second.abort();
    server.finish().await;
}
