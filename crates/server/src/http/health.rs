//! Probes for a load balancer or an orchestrator: `/healthz` says the process is alive (it never
//! touches the database, so a database outage does not get a healthy server restarted), and
//! `/readyz` says it can serve: its database takes a write, within a second even while the
//! database is down.

use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::error::ApiError;
use crate::http::ErrorBody;

/// How long readiness waits for its write: a probe must answer on time while the database
/// hangs (a PostgreSQL that stopped answering held it 5 s, the pool's acquire timeout).
/// 0.9 s, so that the answer, HTTP included, is out within the second a probe allows.
const READY_WITHIN: Duration = Duration::from_millis(900);

/// Whether the process is alive.
#[utoipa::path(
    get,
    path = "/healthz",
    responses((status = 200, description = "`ok`: the process is alive", body = String, content_type = "text/plain"))
)]
pub(super) async fn health() -> &'static str {
    "ok"
}

/// A ready server and its pool.
#[derive(Serialize, ToSchema)]
pub(super) struct Ready {
    /// `ready`.
    status: &'static str,
    /// `postgres` or `sqlite`.
    backend: &'static str,
    /// The pool's open connections.
    pool_open: u32,
    /// Of those, the idle ones.
    pool_idle: usize,
}

/// Whether the server can serve: its database took a write just now.
#[utoipa::path(get, path = "/readyz", responses(
    (status = 200, description = "the database took a write", body = Ready),
    (status = 503, description = "`not_ready`: the database did not take a write within 0.9 s", body = ErrorBody),
))]
pub(super) async fn ready(State(state): State<AppState>) -> Result<Json<Ready>, ApiError> {
    // Logged when readiness changes, not at every probe: a load balancer asks every second
    // or two through an outage.
    let was_ready = |now: bool| state.metrics.ready.swap(now, Ordering::Relaxed);
    match tokio::time::timeout(READY_WITHIN, state.store.check_writable()).await {
        Ok(Ok(())) => {
            if !was_ready(true) {
                tracing::info!("ready: the database takes writes again");
            }
        }
        Ok(Err(e)) => {
            if was_ready(false) {
                tracing::warn!(error = %e, "not ready: the database refused a write");
            }
            return Err(ApiError::NotReady("the database refused a write".into()));
        }
        Err(_) => {
            if was_ready(false) {
                tracing::warn!("not ready: the database did not answer within 0.9 s");
            }
            return Err(ApiError::NotReady(
                "the database did not take a write within 0.9 s".into(),
            ));
        }
    }
    let (pool_open, pool_idle) = state.store.pool_use();
    Ok(Json(Ready {
        status: "ready",
        backend: state.store.backend_name(),
        pool_open,
        pool_idle,
    }))
}
