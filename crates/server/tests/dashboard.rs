//! The Grafana dashboard in `deploy/grafana/` plots only what `/metrics` exports: every metric
//! one of its queries names is a family the server declares (a renamed metric would otherwise
//! leave an empty panel, found by an operator in the middle of an incident).

use std::collections::BTreeSet;
use std::time::Duration;

use server::metrics::{Metrics, Snapshot, bump};

/// Metric names in a PromQL expression: the words that start as the server's families do.
fn names_in(expr: &str) -> Vec<String> {
    expr.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("mahjong_") || w.starts_with("process_"))
        .map(|w| {
            ["_bucket", "_count", "_sum"]
                .iter()
                .find_map(|s| w.strip_suffix(s))
                .unwrap_or(w)
                .to_string()
        })
        .collect()
}

/// Every family `/metrics` declares once each histogram has a sample.
fn exported() -> BTreeSet<String> {
    let m = Metrics::new();
    bump(&m.actions_total);
    m.action_seconds.record(0.001);
    m.log_append_seconds.record(0.001);
    m.hand_write_seconds.record(0.01);
    m.http_request("GET", "/api/rulesets", 200, Duration::from_millis(2));
    let text = m.render(&Snapshot {
        rooms_by_phase: vec![("playing", 1)],
        pool_open: 1,
        pool_idle: 1,
    });
    text.lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_dashboard_query_names_an_exported_metric() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/grafana/mahjong.json");
    let text = std::fs::read_to_string(&path).expect("the dashboard file");
    let dashboard: serde_json::Value = serde_json::from_str(&text).expect("the dashboard is JSON");
    let exported = exported();
    let mut ids = BTreeSet::new();
    let mut queried = 0;
    for panel in dashboard["panels"].as_array().expect("panels") {
        assert!(
            ids.insert(panel["id"].as_u64().expect("a panel id")),
            "panel ids are unique"
        );
        for target in panel["targets"].as_array().expect("targets") {
            let expr = target["expr"].as_str().expect("a query");
            for name in names_in(expr) {
                assert!(
                    exported.contains(&name),
                    "panel {:?} queries {name}, which /metrics does not export ({exported:?})",
                    panel["title"]
                );
                queried += 1;
            }
        }
    }
    assert!(queried >= 10, "the dashboard queries the server's metrics");
}
