//! `/metrics` in the Prometheus text format, kept with the `metrics` crate and rendered by
//! `metrics-exporter-prometheus`; the process's own figures (memory, CPU, open files) come from
//! `metrics-process`. Each server owns its recorder (none is installed process-wide), so several
//! servers in one process, as in the tests, keep their own figures.
//!
//! Names: counters end in `_total`, and no counter shares its family name with a gauge
//! (`mahjong_ws_connections_total` counts sockets accepted, `mahjong_ws_connections_open`
//! is how many are open).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use metrics::{Counter, Gauge, Histogram, Key, KeyName, Label, Level, Metadata, Recorder, Unit};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle, PrometheusRecorder};

/// Buckets of every latency histogram, in seconds: from half a millisecond (an action on a
/// fast store) to ten seconds (a request that waited on a slow database).
const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

const META: Metadata<'static> = Metadata::new(module_path!(), Level::INFO, Some(module_path!()));

/// The server's figures.
pub struct Metrics {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    process: metrics_process::Collector,
    /// WebSocket connections accepted (players' and spectators').
    pub connections_total: Counter,
    /// WebSocket connections open now, players' and spectators': the connection cap reads it,
    /// so it is an atomic of ours, shown as a gauge.
    pub connections_open: AtomicU64,
    /// Spectators' connections open now (counted in `connections_open` too).
    pub spectators_open: AtomicU64,
    /// What the last `/readyz` found (true before the first): shown as `mahjong_ready`, and
    /// readiness logs only its changes.
    pub ready: AtomicBool,
    /// Client messages received.
    pub messages_in_total: Counter,
    /// Client messages refused (any error code).
    pub messages_refused_total: Counter,
    /// Actions accepted into a room's log (players, bots and timeouts).
    pub actions_total: Counter,
    /// Decisions the bot made for a player's seat (timeouts and 托管).
    pub takeover_actions_total: Counter,
    /// Hands finished and stored.
    pub hands_total: Counter,
    /// Finished hands the database refused for good.
    pub hand_store_failures_total: Counter,
    /// Calls of the store that failed, each attempt counted: from rooms (an action log append,
    /// a deal, seats, carried state, a status), the hand writer (each try, rating reads) and
    /// HTTP requests answered `store_unavailable`.
    pub store_failures_total: Counter,
    /// From a player's action read off its socket to its events handed to every connection.
    pub action_seconds: Histogram,
    /// One append to a table's action log.
    pub log_append_seconds: Histogram,
    /// One successful write of a finished hand (with its ratings).
    pub hand_write_seconds: Histogram,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

/// What `/metrics` reads from outside the counters when it renders: the rooms alive by phase
/// and the database pool.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// (phase, rooms in it), every phase listed.
    pub rooms_by_phase: Vec<(&'static str, usize)>,
    /// Connections of the pool: open, and idle among them.
    pub pool_open: u32,
    /// Idle connections of the pool.
    pub pool_idle: usize,
}

impl Metrics {
    /// Figures at zero, on a recorder of their own.
    pub fn new() -> Metrics {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&BUCKETS)
            // Only an empty list is refused; without buckets the histograms are summaries.
            .unwrap_or_else(|_| PrometheusBuilder::new())
            .build_recorder();
        let handle = recorder.handle();
        let process = metrics_process::Collector::default();
        metrics::with_local_recorder(&recorder, || process.describe());
        let counter = |name: &'static str, help: &'static str| {
            recorder.describe_counter(KeyName::from_const_str(name), None, help.into());
            recorder.register_counter(&Key::from_static_name(name), &META)
        };
        let histogram = |name: &'static str, help: &'static str| {
            recorder.describe_histogram(
                KeyName::from_const_str(name),
                Some(Unit::Seconds),
                help.into(),
            );
            recorder.register_histogram(&Key::from_static_name(name), &META)
        };
        let metrics = Metrics {
            connections_total: counter(
                "mahjong_ws_connections_total",
                "WebSocket connections accepted.",
            ),
            messages_in_total: counter("mahjong_ws_messages_in_total", "Client messages received."),
            messages_refused_total: counter(
                "mahjong_ws_messages_refused_total",
                "Client messages refused with an error.",
            ),
            actions_total: counter("mahjong_actions_total", "Actions accepted into room logs."),
            takeover_actions_total: counter(
                "mahjong_takeover_actions_total",
                "Decisions the bot made for a player's seat.",
            ),
            hands_total: counter("mahjong_hands_total", "Hands finished and stored."),
            hand_store_failures_total: counter(
                "mahjong_hand_store_failures_total",
                "Finished hands the database refused for good.",
            ),
            store_failures_total: counter(
                "mahjong_store_failures_total",
                "Calls of the store that failed (rooms, the hand writer, HTTP), each attempt counted.",
            ),
            action_seconds: histogram(
                "mahjong_action_broadcast_seconds",
                "From a player's action read off its socket to its events sent to the table.",
            ),
            log_append_seconds: histogram(
                "mahjong_log_append_seconds",
                "One append to a table's action log.",
            ),
            hand_write_seconds: histogram(
                "mahjong_hand_write_seconds",
                "One write of a finished hand with everything it changes.",
            ),
            connections_open: AtomicU64::new(0),
            spectators_open: AtomicU64::new(0),
            ready: AtomicBool::new(true),
            recorder,
            handle,
            process,
        };
        metrics.describe_gauges();
        metrics
    }

    fn describe_gauges(&self) {
        let r = &self.recorder;
        for (name, help) in [
            ("mahjong_rooms", "Rooms alive, by phase of their match."),
            (
                "mahjong_ws_connections_open",
                "WebSocket connections open (players' and spectators').",
            ),
            (
                "mahjong_spectators_open",
                "Spectators' WebSocket connections open.",
            ),
            (
                "mahjong_ready",
                "1 when the last /readyz found the database taking writes, else 0.",
            ),
            (
                "mahjong_db_pool_connections",
                "Database pool connections, by state.",
            ),
        ] {
            r.describe_gauge(KeyName::from_const_str(name), None, help.into());
        }
        r.describe_histogram(
            KeyName::from_const_str("mahjong_http_request_duration_seconds"),
            Some(Unit::Seconds),
            "HTTP requests by route, method and status.".into(),
        );
    }

    /// A gauge with labels, registered on first use.
    fn gauge(&self, name: &'static str, labels: Vec<Label>) -> Gauge {
        self.recorder
            .register_gauge(&Key::from_parts(name, labels), &META)
    }

    /// Records one HTTP request's latency, under its route's template (`/api/tables/{id}/hands`,
    /// never the id itself, so the label set stays as small as the API).
    pub fn http_request(&self, method: &str, route: &str, status: u16, took: Duration) {
        let labels = vec![
            Label::new("method", method.to_string()),
            Label::new("route", route.to_string()),
            Label::new("status", status.to_string()),
        ];
        self.recorder
            .register_histogram(
                &Key::from_parts("mahjong_http_request_duration_seconds", labels),
                &META,
            )
            .record(took.as_secs_f64());
    }

    /// Moves the histograms' recent samples into their buckets. Run every few seconds: samples
    /// otherwise wait in a buffer until the next scrape, and nobody may scrape.
    pub fn run_upkeep(&self) {
        self.handle.run_upkeep();
    }

    /// The text exposition, with the figures read at render time.
    pub fn render(&self, now: &Snapshot) -> String {
        for (phase, rooms) in &now.rooms_by_phase {
            self.gauge("mahjong_rooms", vec![Label::new("phase", *phase)])
                .set(*rooms as f64);
        }
        let open = |a: &AtomicU64| a.load(Ordering::Relaxed) as f64;
        self.gauge("mahjong_ws_connections_open", Vec::new())
            .set(open(&self.connections_open));
        self.gauge("mahjong_spectators_open", Vec::new())
            .set(open(&self.spectators_open));
        self.gauge("mahjong_ready", Vec::new())
            .set(if self.ready.load(Ordering::Relaxed) {
                1.0
            } else {
                0.0
            });
        self.gauge(
            "mahjong_db_pool_connections",
            vec![Label::new("state", "open")],
        )
        .set(f64::from(now.pool_open));
        self.gauge(
            "mahjong_db_pool_connections",
            vec![Label::new("state", "idle")],
        )
        .set(now.pool_idle as f64);
        metrics::with_local_recorder(&self.recorder, || self.process.collect());
        self.handle.render()
    }
}

/// Marks an answer whose cause was a store failure (set by `ApiError`), so the request is
/// counted in `mahjong_store_failures_total` like a room's.
#[derive(Clone, Copy, Debug)]
pub struct StoreFailed;

/// The HTTP layer that times every request under its route's template and counts the store
/// failures its answers report.
pub async fn observe(
    axum::extract::State(state): axum::extract::State<crate::AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let started = std::time::Instant::now();
    let method = request.method().clone();
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let response = next.run(request).await;
    if response.extensions().get::<StoreFailed>().is_some() {
        bump(&state.metrics.store_failures_total);
    }
    state.metrics.http_request(
        method.as_str(),
        &route,
        response.status().as_u16(),
        started.elapsed(),
    );
    response
}

/// Adds one to a counter.
pub fn bump(counter: &Counter) {
    counter.increment(1);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every family has one type: a counter's name (without `_total`) is never a gauge's, which
    /// Prometheus and OpenMetrics parsers reject.
    #[test]
    fn no_family_is_both_a_counter_and_a_gauge() {
        let m = Metrics::new();
        bump(&m.actions_total);
        m.action_seconds.record(0.002);
        m.http_request("GET", "/api/rulesets", 200, Duration::from_millis(3));
        let text = m.render(&Snapshot {
            rooms_by_phase: vec![("playing", 2), ("waiting", 1)],
            pool_open: 3,
            pool_idle: 1,
        });
        let mut types = std::collections::HashMap::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# TYPE ") {
                let (name, kind) = rest.split_once(' ').expect("a TYPE line");
                let family = name.strip_suffix("_total").unwrap_or(name);
                let earlier = types.insert(family.to_string(), kind.to_string());
                assert!(earlier.is_none(), "{family} is declared twice: {text}");
            }
        }
        assert_eq!(types["mahjong_actions"], "counter");
        assert_eq!(types["mahjong_rooms"], "gauge");
        assert_eq!(types["mahjong_action_broadcast_seconds"], "histogram");
        assert!(
            text.contains("mahjong_rooms{phase=\"playing\"} 2"),
            "{text}"
        );
        assert!(
            text.contains("mahjong_http_request_duration_seconds_bucket{method=\"GET\",route=\"/api/rulesets\",status=\"200\",le=\"0.005\"} 1"),
            "{text}"
        );
        assert!(text.contains("process_resident_memory_bytes"), "{text}");
    }
}
