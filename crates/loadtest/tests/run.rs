//! Whole runs over real sockets: the game server started in this process on a fresh SQLite
//! file, and the baseline server. No timing is asserted: only that the run played, recorded
//! every latency and met no failure.

use std::path::PathBuf;

use loadtest::{Options, Report, Target};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mahjong-loadtest-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn options(addr: std::net::SocketAddr) -> Options {
    let mut o = Options::defaults();
    o.addr = addr.to_string();
    o.tables = 20;
    o.seconds = 3.0;
    o.warmup_seconds = 1.0;
    o.rate = 0.0;
    o.source_addrs = 4;
    o.deadline_seconds = Some(120.0);
    o
}

/// Every timed action closed with a latency or counted as having caused nothing; an action
/// open at either edge of the steady state may fall on either side, one per table at most.
fn assert_every_latency_recorded(r: &Report) {
    let timed = r.actions - r.deferred_actions;
    let closed = r.latency_us.last_recipient.count + r.uncaused_actions;
    let slack = r.tables as u64;
    assert!(
        closed + slack >= timed && closed <= timed + slack,
        "{closed} actions closed of {timed} timed:\n{r}"
    );
    assert!(
        r.latency_us.ack.count + slack >= r.actions,
        "{} acks for {} actions:\n{r}",
        r.latency_us.ack.count,
        r.actions
    );
    assert!(r.latency_us.recipient.count >= r.latency_us.last_recipient.count);
    assert!(
        r.latency_us.last_recipient.count > 0,
        "no latency recorded:\n{r}"
    );
    assert!(r.latency_us.last_recipient.max > 0);
}

fn assert_no_failure(r: &Report) {
    assert_eq!(r.errors, 0, "errors:\n{r}");
    assert_eq!(r.dropped_sockets, 0, "dropped sockets:\n{r}");
    assert_eq!(r.handshake_failures, 0, "failed handshakes:\n{r}");
    assert_eq!(r.http_failures, 0, "failed HTTP requests:\n{r}");
    assert_eq!(r.sockets_held, 80, "sockets held:\n{r}");
    assert!(!r.deadline_hit, "the hard deadline passed:\n{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plays_whole_hands_on_the_game_server() {
    let dir = temp_dir("game");
    let mut config = server::Config::defaults();
    config.port = 0;
    config.data_dir = dir.clone();
    // Unheld claim windows, a quick next deal and no rate limit: many hands in a short run.
    config.claim_window_ms = 0;
    config.next_hand_ms = 50;
    config.client_rate = 10_000;
    // 80 guests and their rooms signed up from a few loopback addresses.
    config.http_rate = 1_000_000;
    let running = server::start(config).await.expect("start the game server");
    let mut o = options(running.addr);
    // Hands end at the first win: several finish in a few seconds.
    o.ruleset = "sichuan".into();
    let report = loadtest::run(&o, Target::Game).await.expect("run");
    running.task.abort();
    running.state.store.close().await;
    let _ = std::fs::remove_dir_all(&dir);

    println!("{report}");
    assert_no_failure(&report);
    assert_eq!(report.tables_set_up, 20);
    assert!(report.actions > 0, "no action:\n{report}");
    assert!(report.hands_total > 0, "no hand finished:\n{report}");
    assert_eq!(report.policy_fallbacks, 0, "the bot strayed:\n{report}");
    assert_every_latency_recorded(&report);
    assert!(
        report.server.end.rss_bytes.is_some(),
        "no server memory read"
    );
    assert!(report.server.cpu_seconds.is_some(), "no server CPU read");
    let json = serde_json::to_value(&report).expect("serialize");
    assert!(
        json["latency_us"]["last_recipient"]["p99"]
            .as_u64()
            .is_some()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loads_the_baseline_server() {
    let baseline = loadtest::baseline::start("127.0.0.1:0")
        .await
        .expect("start the baseline");
    let mut o = options(baseline.addr);
    o.seconds = 2.0;
    o.warmup_seconds = 1.0;
    let report = loadtest::run(&o, Target::Baseline).await.expect("run");
    baseline.task.abort();

    println!("{report}");
    assert_no_failure(&report);
    assert!(report.actions > 0, "no action:\n{report}");
    assert_every_latency_recorded(&report);
    // Each action is a discard turn: an ack, two events to each of four seats and a prompt.
    assert!(
        report.frames_per_second > report.actions_per_second * 8.0,
        "{report}"
    );
    assert!(
        report.server.end.rss_bytes.is_some(),
        "no baseline memory read"
    );
}

#[tokio::test]
async fn refuses_bad_options() {
    let mut o = Options::defaults();
    o.tables = 0;
    o.rate = -1.0;
    o.ruleset = "nowhere".into();
    o.warmup_seconds = f64::NAN;
    let e = loadtest::run(&o, Target::Game)
        .await
        .expect_err("bad options");
    let text = e.to_string();
    assert!(text.contains("--tables") && text.contains("--rate") && text.contains("--ruleset"));
    assert!(text.contains("--warmup-seconds"), "{text}");
    o = Options::defaults();
    o.addr = "10.0.0.1:80".into();
    assert!(matches!(
        loadtest::run(&o, Target::Game).await,
        Err(loadtest::LoadError::Target { .. })
    ));
}
