//! Limits from outside: the requests that create things are limited per client address (429
//! `rate_limited` with `Retry-After`, in the one error shape), join-code guesses included, while
//! reads are not; and open WebSocket connections are capped (503 `busy`).

mod common;

use serde_json::json;

/// A JSON POST: the status, the header block (lower-cased) and the body.
async fn post(
    addr: std::net::SocketAddr,
    path: &str,
    token: Option<&str>,
    body: serde_json::Value,
) -> (u16, String, serde_json::Value) {
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let headers = format!("{auth}Content-Type: application/json\r\n");
    let answer = common::raw(
        addr,
        &format!("POST {path}"),
        &headers,
        body.to_string().as_bytes(),
    )
    .await
    .expect("an HTTP answer");
    (answer.status, answer.head, answer.body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_requests_are_limited_per_address_and_sockets_are_capped() {
    const RATE: u32 = 5;
    let server = common::sqlite_server_with(|c| {
        c.http_rate = RATE;
        c.max_connections = 2;
    })
    .await;
    let addr = server.addr;
    // A burst of the quota passes; the next sign-up is refused, with when to retry.
    let mut token = String::new();
    for i in 0..RATE {
        let (status, _, body) =
            post(addr, "/api/guests", None, json!({"display_name": "限流"})).await;
        assert_eq!(status, 201, "sign-up {i}: {body}");
        token = body["token"].as_str().unwrap_or_default().to_string();
    }
    let (status, head, body) =
        post(addr, "/api/guests", None, json!({"display_name": "限流"})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    let retry: u64 = head
        .lines()
        .find_map(|l| l.strip_prefix("retry-after:"))
        .and_then(|v| v.trim().parse().ok())
        .expect("a Retry-After header");
    assert!((1..=60).contains(&retry), "retry after {retry} s");
    // Join-code guesses count against the same address: no guessing by the hundred.
    let (status, _, body) = post(
        addr,
        "/api/rooms/join",
        Some(&token),
        json!({"code": "ZZZZZZ"}),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    // Reads are not limited.
    for _ in 0..3 * RATE {
        let (status, _) = common::http(addr, "GET", "/api/rooms", None, None)
            .await
            .expect("rooms");
        assert_eq!(status, 200);
    }
    // Two sockets open; a third is refused until one closes.
    let url = |addr| format!("ws://{addr}/ws/tables/x/watch");
    let first = tokio_tungstenite::connect_async(url(addr))
        .await
        .expect("first");
    let second = tokio_tungstenite::connect_async(url(addr))
        .await
        .expect("second");
    let mut refused = false;
    for _ in 0..50 {
        match tokio_tungstenite::connect_async(url(addr)).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 503);
                refused = true;
                break;
            }
            // The first two may not be counted yet.
            Ok(extra) => drop(extra),
            Err(e) => panic!("{e}"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(refused, "a third socket is refused at the cap");
    drop((first, second));
    server.finish().await;
}
