//! The HTTP API: guests, rulesets, rooms, the lobby, histories, leaderboards, probes.

use axum::extract::State;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;

mod accounts;
mod health;
mod records;
mod rooms;
mod rulesets;
mod scoring;

pub use rooms::Seated;

/// The API's routes.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(health::health))
        .routes(routes!(health::ready))
        .routes(routes!(metrics))
        .routes(routes!(accounts::sign_up))
        .routes(routes!(accounts::renew_session, accounts::sign_out))
        .routes(routes!(accounts::me))
        .routes(routes!(rulesets::rulesets))
        .routes(routes!(rooms::create_room, rooms::list_rooms))
        .routes(routes!(rooms::join_by_code))
        .routes(routes!(rooms::quickmatch))
        .routes(routes!(records::table_hands))
        .routes(routes!(records::hand_replay))
        .routes(routes!(records::history))
        .routes(routes!(records::escapes))
        .routes(routes!(records::leaderboard))
        .routes(routes!(scoring::settle))
        .routes(routes!(scoring::score))
}

/// The document's frame; every path is added from its handler's annotation.
#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "mahjong server",
        description = "HTTP API of the authoritative mahjong server. Play happens over WebSockets: see proto/README.md."
    ),
    components(schemas(ErrorBody))
)]
struct ApiDoc;

/// An error answer.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    /// `bad_request`, `unauthorized`, `not_found`, `method_not_allowed`, `conflict`,
    /// `too_large`, `unsupported_media_type`, `unprocessable`, `store_unavailable`,
    /// `not_ready` or `internal`.
    pub code: String,
    /// For people.
    pub message: String,
}

/// Counters and process figures in the Prometheus text format.
#[utoipa::path(get, path = "/metrics", responses((status = 200, description = "Prometheus text", body = String, content_type = "text/plain")))]
async fn metrics(
    State(state): State<AppState>,
) -> ([(axum::http::HeaderName, &'static str); 1], String) {
    let (pool_open, pool_idle) = state.store.pool_use();
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4",
        )],
        state.metrics.render(&crate::metrics::Snapshot {
            rooms_by_phase: crate::room::RoomPhase::count(
                state.lobby.rooms().iter().map(|r| r.summary().phase),
            ),
            pool_open,
            pool_idle,
        }),
    )
}
