//! Every error the HTTP side answers is `{"code", "message"}` JSON with its status, over every
//! route the OpenAPI document lists: a body that is not JSON, of the wrong shape, without its
//! content type or too large, a bad path parameter, a wrong method, no session; and an unknown
//! route. Checked from outside over raw HTTP, as a client that parses one error shape would.

mod common;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// An answer: status, lower-cased header block, body as JSON (a string when it is not JSON).
struct Answer {
    status: u16,
    head: String,
    body: Value,
}

/// Sends a request as it is: its request line, header lines and body.
async fn raw(addr: std::net::SocketAddr, line: &str, headers: &str, body: &[u8]) -> Answer {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let head = format!(
        "{line} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.expect("write");
    // The server may answer (413) before the whole body is read; a failed write is fine then.
    let _ = stream.write_all(body).await;
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes).await;
    let text = String::from_utf8_lossy(&bytes).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Answer {
        status,
        head: head.to_ascii_lowercase(),
        body: serde_json::from_str(&body).unwrap_or(Value::String(body)),
    }
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
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
