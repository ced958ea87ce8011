//! The server as an operator runs it. Secrets stay secret: `--help` does not print the database
//! password it reads from the environment, and a server logging at trace level does not log a
//! session token, even the one a `hello` frame carries. Boolean settings take the usual
//! spellings, logs written to a file carry no terminal colours, and `mahjong health` (the
//! image's health check) says whether a server is ready.

#[path = "../../server/tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{Client, guest, http};
use serde_json::json;

const SECRET: &str = "s3cret-pa55word";

#[test]
fn help_does_not_print_the_database_password() {
    for args in [&["serve", "--help"][..], &["db", "--help"][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_mahjong"))
            .args(args)
            .env("DATABASE_URL", format!("postgres://app:{SECRET}@db:5432/m"))
            .output()
            .expect("run mahjong");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("DATABASE_URL"), "{args:?}: {text}");
        assert!(
            !text.contains(SECRET),
            "{args:?} printed the password: {text}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trace_log_holds_no_session_token() {
    let dir = std::env::temp_dir().join(format!("mahjong-secrets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let log = std::fs::File::create(dir.join("server.log")).expect("log file");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mahjong"))
        .args(["serve", "--port", &port.to_string(), "--data-dir"])
        .arg(&dir)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "trace")
        .stdout(log)
        .stderr(Stdio::null())
        .spawn()
        .expect("start mahjong serve");
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
    let mut up = false;
    for _ in 0..200 {
        if let Ok((200, _)) = http(addr, "GET", "/healthz", None, None).await {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(up, "the server did not come up");
    let (_, token) = guest(addr, "秘密").await;
    let (status, room) = http(
        addr,
        "POST",
        "/api/rooms",
        Some(&token),
        Some(json!({"ruleset": "sichuan", "bots": ["basic", "basic", "basic"]})),
    )
    .await
    .expect("create room");
    assert_eq!(status, 201, "{room}");
    let table = room["table"].as_str().unwrap_or_default();
    let mut client = Client::connect(addr, table, &token, None)
        .await
        .expect("connect");
    let first = client.next(Duration::from_secs(20)).await.expect("message");
    assert!(first.is_some(), "the session started");
    drop(client);
    // The container's health check: ready (exit 0) while the server serves.
    let health = |path: &str| {
        Command::new(env!("CARGO_BIN_EXE_mahjong"))
            .args([
                "health",
                "--addr",
                &format!("127.0.0.1:{port}"),
                "--path",
                path,
            ])
            .output()
            .expect("run mahjong health")
    };
    let ready = health("/readyz");
    assert!(
        ready.status.success() && String::from_utf8_lossy(&ready.stdout).contains("ready"),
        "{ready:?}"
    );
    let missing = health("/no-such-probe");
    assert!(
        !missing.status.success(),
        "a 404 is not healthy: {missing:?}"
    );
    let _ = child.kill();
    let _ = child.wait();
    let logged = std::fs::read_to_string(dir.join("server.log")).expect("read log");
    assert!(
        logged.contains("TRACE"),
        "the server logged at trace level: {} bytes",
        logged.len()
    );
    assert!(
        !logged.contains(&token),
        "the session token is in the trace log"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first line `mahjong serve` logs with `MAHJONG_LOG_JSON` set to `value` (its stdout is a
/// pipe, not a terminal), or its error when it refuses the value.
fn first_log_line(value: &str) -> String {
    let dir = std::env::temp_dir().join(format!("mahjong-bool-{}-{value}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_mahjong"))
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(&dir)
        .env_remove("DATABASE_URL")
        .env("MAHJONG_LOG_JSON", value)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mahjong serve");
    let mut line = String::new();
    if let Some(out) = child.stdout.take() {
        let _ = BufReader::new(out).read_line(&mut line);
    }
    if line.is_empty()
        && let Some(err) = child.stderr.take()
    {
        let _ = BufReader::new(err).read_line(&mut line);
    }
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    line
}

#[test]
fn boolean_settings_take_the_usual_spellings_and_logs_to_a_pipe_are_plain() {
    for (values, json) in [
        (["1", "true", "yes", "on", "TRUE"], true),
        (["0", "false", "no", "off", "Off"], false),
    ] {
        for value in values {
            let line = first_log_line(value);
            assert_eq!(
                line.starts_with('{'),
                json,
                "MAHJONG_LOG_JSON={value}: {line}"
            );
            assert!(line.contains("serving"), "MAHJONG_LOG_JSON={value}: {line}");
            // The start-up line says where to point a browser and which database is in use.
            assert!(line.contains("http://127.0.0.1:"), "{line}");
            assert!(line.contains("mahjong.db"), "{line}");
            assert!(!line.contains('\u{1b}'), "colours in a pipe: {line:?}");
        }
    }
    let refused = first_log_line("maybe");
    assert!(
        refused.contains("invalid value 'maybe'"),
        "an unknown spelling is refused: {refused}"
    );
}

/// A port already taken is said at once, before the database is touched: no migration runs
/// for a server that cannot listen.
#[test]
fn a_taken_port_is_refused_before_the_database_is_touched() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = taken.local_addr().expect("addr").port();
    let dir = std::env::temp_dir().join(format!("mahjong-taken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_mahjong"))
        .args(["serve", "--port", &port.to_string(), "--data-dir"])
        .arg(&dir)
        .env_remove("DATABASE_URL")
        .output()
        .expect("run mahjong serve");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("cannot listen"), "{said}");
    // The cause once, not once in the message and again as its source.
    let cause = "Address already in use";
    assert_eq!(said.matches(cause).count(), 1, "{said}");
    assert!(
        !dir.join("mahjong.db").exists(),
        "the database was created before the port was known to be free"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pool's size and the database wait are settings, checked before anything starts.
#[test]
fn pool_settings_out_of_range_are_refused() {
    for (flag, value) in [("--db-pool-size", "0"), ("--db-timeout-ms", "5")] {
        let out = Command::new(env!("CARGO_BIN_EXE_mahjong"))
            .args(["serve", "--port", "0", flag, value])
            .env_remove("DATABASE_URL")
            .output()
            .expect("run mahjong serve");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flag} {value}: {said}");
        assert!(said.contains(flag), "the flag is named: {said}");
    }
}

/// A second node on a database another node serves, without NATS, is refused with a clear
/// error (it could reach none of the other's tables, nor they its); so is a node with NATS on
/// SQLite, one machine's file.
#[tokio::test]
async fn a_node_without_nats_does_not_serve_beside_another() {
    let dir = std::env::temp_dir().join(format!("mahjong-alone-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let serve = |port: u16| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mahjong"));
        command
            .args([
                "serve",
                "--port",
                &port.to_string(),
                "--node-lease-ms",
                "500",
            ])
            .arg("--data-dir")
            .arg(&dir)
            .env_remove("DATABASE_URL")
            .env_remove("MAHJONG_NATS_URL")
            .env("RUST_LOG", "warn");
        command
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    // Killed and waited for when the test ends, passed or failed.
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let first = Killed(
        serve(port)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the first node"),
    );
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
    let mut up = false;
    for _ in 0..200 {
        if let Ok((200, _)) = http(addr, "GET", "/healthz", None, None).await {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(up, "the first node did not come up");
    let second = exits_within(serve(0), Duration::from_secs(10));
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{said}");
    assert!(said.contains("other nodes serve this database"), "{said}");
    drop(first);
    let mut with_nats = serve(0);
    with_nats.args(["--nats-url", "nats://127.0.0.1:4222"]);
    let clustered = exits_within(with_nats, Duration::from_secs(10));
    let said = String::from_utf8_lossy(&clustered.stderr);
    assert!(!clustered.status.success(), "{said}");
    assert!(said.contains("need PostgreSQL"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `command` to its end, which must come within `limit` (it is killed, and the test
/// fails, otherwise).
fn exits_within(mut command: Command, limit: Duration) -> std::process::Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mahjong serve");
    let until = std::time::Instant::now() + limit;
    while child.try_wait().expect("poll the child").is_none() {
        if std::time::Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mahjong serve still runs after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("its output")
}
