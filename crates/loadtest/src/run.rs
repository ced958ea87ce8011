//! One run: set up, connect, measure a steady state, close, report.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::client::{self, Shared};
use crate::error::LoadError;
use crate::measure::{Stats, TableClock};
use crate::probe::{self, ServerSample};
use crate::report::{Latencies, LatencySummary, Report, ServerFigures};
use crate::{Options, Target, setup};

/// How long sockets have to close at the end before they are abandoned.
const CLOSE_WITHIN: Duration = Duration::from_secs(10);
/// The hard deadline when none is given: this much beyond the steady state.
const DEFAULT_SLACK_SECONDS: f64 = 300.0;

/// Loads `target` at `options.addr` and reports.
///
/// # Errors
/// [`LoadError::Option`] or [`LoadError::Target`] for bad options; [`LoadError::Setup`] when no
/// table could be set up; [`LoadError::Deadline`] when the hard deadline passed during set-up.
/// Failures of single requests or sockets are counted in the report instead.
pub async fn run(options: &Options, target: Target) -> Result<Report, LoadError> {
    options.validate()?;
    let nodes = options.target_addrs()?;
    let addr = options.target_addr()?;
    let started = Instant::now();
    let deadline_seconds = options
        .deadline_seconds
        .unwrap_or(options.warmup_seconds + options.seconds + DEFAULT_SLACK_SECONDS);
    let hard = started + Duration::from_secs_f64(deadline_seconds);
    let players: u8 = match target {
        Target::Game => options
            .ruleset
            .parse::<engine::RulesetId>()
            .ok()
            .and_then(|id| engine::Ruleset::with_defaults(id).ok())
            .map_or(4, |r| r.rules().flow().players),
        Target::Baseline => 4,
    };
    let pid = options.server_pid;
    let idle = probe::sample_nodes(&nodes, pid).await;
    let (stop_tx, stop_rx) = watch::channel(false);
    let shared = Arc::new(Shared {
        stats: Stats::new(),
        tables: (0..options.tables)
            .map(|t| TableClock::new(t, players, options.rate))
            .collect(),
        policy: options.policy,
        action_ms: options.action_seconds * 1000,
        stop: stop_rx,
    });
    let stats = &shared.stats;

    let seatings = match target {
        Target::Game => {
            let set_up = tokio::time::timeout_at(hard, setup::game(&nodes, options, players));
            let (seatings, failed) = set_up.await.map_err(|_| LoadError::Deadline {
                seconds: deadline_seconds,
            })??;
            stats
                .counters
                .http_failures
                .fetch_add(failed, std::sync::atomic::Ordering::Relaxed);
            seatings
        }
        // The baseline's clients keep a model of a hand too, so that they cost what game
        // clients cost.
        Target::Baseline => setup::baseline(addr, options, players, "sichuan-xuezhan"),
    };
    let tables_set_up = seatings
        .iter()
        .map(|s| s.table)
        .collect::<BTreeSet<_>>()
        .len();
    let sockets_planned = seatings.len();

    // Connect every socket, a bounded number of handshakes at a time; each client plays on as
    // soon as it has said `hello`.
    let gate = Arc::new(Semaphore::new(options.connect_concurrency));
    let (ready_tx, mut ready_rx) = mpsc::unbounded_channel::<bool>();
    let mut clients = JoinSet::new();
    for seating in seatings {
        let gate = gate.clone();
        let shared = shared.clone();
        let ready = ready_tx.clone();
        clients.spawn(async move {
            let socket = {
                let _permit = gate.acquire_owned().await;
                client::connect(&seating, None, 0, &shared.stats).await
            };
            let _ = ready.send(socket.is_some());
            if let Some(socket) = socket {
                client::play(socket, seating, shared).await;
            }
        });
    }
    drop(ready_tx);
    let mut deadline_hit = false;
    for _ in 0..sockets_planned {
        match tokio::time::timeout_at(hard, ready_rx.recv()).await {
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(_) => {
                deadline_hit = true;
                break;
            }
        }
    }
    let setup_seconds = started.elapsed().as_secs_f64();

    // The warm-up: played, not measured.
    let warm = Instant::now();
    let warm_end = warm + Duration::from_secs_f64(options.warmup_seconds);
    if warm_end > hard {
        deadline_hit = true;
    }
    tokio::time::sleep_until(warm_end.min(hard)).await;
    let warmup_seconds = warm.elapsed().as_secs_f64();

    // The steady state.
    stats.reset_histograms();
    let before = stats.counters.values();
    let own_before = probe::own_process();
    let machine_before = probe::machine_busy_seconds();
    let start = probe::sample_nodes(&nodes, pid).await;
    let steady = Instant::now();
    let end = steady + Duration::from_secs_f64(options.seconds);
    if end > hard {
        deadline_hit = true;
    }
    tokio::time::sleep_until(end.min(hard)).await;
    let seconds = steady.elapsed().as_secs_f64();
    let after = stats.counters.values();
    let (recipient, last, ack) = stats.histograms();
    let own_after = probe::own_process();
    let machine_after = probe::machine_busy_seconds();
    let end_sample = probe::sample_nodes(&nodes, pid).await;

    // Close every socket cleanly.
    let _ = stop_tx.send(true);
    let closing = async { while clients.join_next().await.is_some() {} };
    if tokio::time::timeout(CLOSE_WITHIN, closing).await.is_err() {
        clients.abort_all();
    }
    for t in &shared.tables {
        t.finish(stats);
    }
    let total = stats.counters.values();

    let window =
        |f: fn(&crate::measure::CounterValues) -> u64| f(&after).saturating_sub(f(&before));
    let actions = window(|c| c.actions);
    let frames = window(|c| c.frames_in);
    let per_second = |n: u64| {
        if seconds > 0.0 {
            n as f64 / seconds
        } else {
            0.0
        }
    };
    let loadgen_cpu_seconds = match (own_before, own_after) {
        (Some(a), Some(b)) => Some(b.cpu_seconds - a.cpu_seconds),
        _ => None,
    };
    let mut server = figures(idle, start, end_sample, before.open, actions, seconds);
    server.other_cores = match (machine_before, machine_after, server.cpu_seconds) {
        (Some(a), Some(b), Some(own)) if seconds > 0.0 && pid.is_some() => {
            Some(((b - a) - own - loadgen_cpu_seconds.unwrap_or(0.0)).max(0.0) / seconds)
        }
        _ => None,
    };
    Ok(Report {
        target: target.name().into(),
        addr: nodes
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(","),
        ruleset: match target {
            Target::Game => options.ruleset.clone(),
            Target::Baseline => "none".into(),
        },
        policy: options.policy.to_string(),
        rate: options.rate,
        tables: options.tables,
        tables_set_up,
        sockets_planned,
        sockets_held: before.open,
        sockets_at_end: after.open,
        setup_seconds,
        warmup_seconds,
        seconds,
        actions,
        actions_per_second: per_second(actions),
        acks: window(|c| c.acks),
        deferred_actions: window(|c| c.deferred),
        uncaused_actions: window(|c| c.uncaused),
        frames_per_second: per_second(frames),
        mean_frame_bytes: if frames > 0 {
            window(|c| c.bytes_in) as f64 / frames as f64
        } else {
            0.0
        },
        latency_us: Latencies {
            recipient: LatencySummary::of(&recipient),
            last_recipient: LatencySummary::of(&last),
            ack: LatencySummary::of(&ack),
        },
        errors: total.errors,
        error_codes: stats.error_codes(),
        handshake_failures: total.handshake_failures,
        http_failures: total.http_failures,
        dropped_sockets: total.dropped,
        reconnects: total.reconnects,
        hands_finished: window(|c| c.hands),
        hands_total: total.hands,
        tables_closed: total.tables_closed,
        policy_fallbacks: total.fallbacks,
        server,
        loadgen_cpu_seconds,
        loadgen_rss_bytes: own_after.map(|p| p.rss_bytes),
        deadline_hit,
    })
}

fn figures(
    idle: ServerSample,
    start: ServerSample,
    end: ServerSample,
    sockets: u64,
    actions: u64,
    seconds: f64,
) -> ServerFigures {
    let delta = |f: fn(&ServerSample) -> Option<f64>| match (f(&start), f(&end)) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    let cpu_seconds = delta(|s| s.cpu_seconds);
    let cpu_us_per_action_by_thread = end
        .cpu_seconds_by_thread
        .iter()
        .filter(|_| actions > 0)
        .map(|(name, after)| {
            let before = start
                .cpu_seconds_by_thread
                .get(name)
                .copied()
                .unwrap_or(0.0);
            (name.clone(), (after - before) * 1e6 / actions as f64)
        })
        .collect();
    let rss_bytes_per_socket = match (idle.rss_bytes, end.rss_bytes) {
        (Some(a), Some(b)) if sockets > 0 => Some((b - a) / sockets as f64),
        _ => None,
    };
    ServerFigures {
        rss_bytes_per_socket,
        cpu_seconds,
        cpu_cores: cpu_seconds.filter(|_| seconds > 0.0).map(|c| c / seconds),
        cpu_us_per_action: cpu_seconds
            .filter(|_| actions > 0)
            .map(|c| c * 1e6 / actions as f64),
        actions: delta(|s| s.actions_total),
        takeover_actions: delta(|s| s.takeover_actions_total),
        hands_stored: delta(|s| s.hands_total),
        cpu_us_per_action_by_thread,
        other_cores: None,
        idle,
        start,
        end,
    }
}
