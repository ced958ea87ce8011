//! The HTTP API: guests, rulesets, rooms, the lobby, histories, leaderboards, probes.

use std::sync::OnceLock;

use axum::Json;
use axum::extract::State;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;

mod accounts;
mod doc;
mod health;
mod records;
mod replays;
mod rooms;
mod rulesets;
mod scoring;
mod tournament_exports;
mod tournaments;

use doc::Components;

pub use doc::ErrorBody;
pub use rooms::Seated;
pub(crate) use rooms::{RoomListing, local_listings, quick_ruleset};

/// The API's routes.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(health::health))
        .routes(routes!(health::ready))
        .routes(routes!(metrics))
        .routes(routes!(openapi_json))
        .routes(routes!(accounts::sign_up))
        .routes(routes!(accounts::renew_session, accounts::sign_out))
        .routes(routes!(accounts::me))
        .routes(routes!(rulesets::rulesets))
        .routes(routes!(rooms::create_room, rooms::list_rooms))
        .routes(routes!(rooms::join_by_code))
        .routes(routes!(rooms::quickmatch, rooms::quickmatch_info))
        .routes(routes!(records::table_hands))
        .routes(routes!(records::hand_replay))
        .routes(routes!(replays::hand_stream))
        .routes(routes!(records::player))
        .routes(routes!(records::history))
        .routes(routes!(records::escapes))
        .routes(routes!(records::leaderboard))
        .routes(routes!(
            tournaments::create_tournament,
            tournaments::list_tournaments
        ))
        .routes(routes!(tournaments::tournament))
        .routes(routes!(tournaments::register))
        .routes(routes!(tournaments::start_round))
        .routes(routes!(tournament_exports::standings))
        .routes(routes!(tournament_exports::hands))
        .routes(routes!(tournament_exports::player_tournaments))
        .routes(routes!(tournament_exports::tournament_ranking))
        .routes(routes!(scoring::settle))
        .routes(routes!(scoring::score))
}

/// The document's frame; every path is added from its handler's annotation, and
/// [`doc::Components`] adds the shared error answers and the bearer scheme.
#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "mahjong server",
        description = "HTTP API of the authoritative mahjong server. Play happens over WebSockets: see proto/README.md.\n\nThe routes marked with the `bearer` scheme need `Authorization: Bearer <token>`, the token of `POST /api/guests` or `POST /api/sessions`. Every error is `{\"code\", \"message\"}` JSON (`ErrorBody`) with the status each operation lists; besides those, an unknown route is answered 404 `not_found` and a method a path does not list 405 `method_not_allowed` with `Allow`."
    ),
    modifiers(&Components),
    components(schemas(ErrorBody, doc::RulesetName, doc::BotLevel))
)]
struct ApiDoc;

/// The OpenAPI 3.1 document of this API, built once from the annotated handlers.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    responses((status = 200, description = "the OpenAPI 3.1 document of this API", body = Object))
)]
async fn openapi_json() -> Json<&'static utoipa::openapi::OpenApi> {
    static DOCUMENT: OnceLock<utoipa::openapi::OpenApi> = OnceLock::new();
    Json(DOCUMENT.get_or_init(crate::openapi))
}

/// Counters and process figures in the Prometheus text format.
#[utoipa::path(
    get,
    path = "/metrics",
    responses((status = 200, description = "Prometheus text (format 0.0.4)", body = String, content_type = "text/plain"))
)]
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
