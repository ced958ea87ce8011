//! Rooms: creating, listing, joining, quick match.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use engine::ruleset::{RawOptions, Ruleset};
use serde::{Deserialize, Serialize};
use store::TableId;
use utoipa::ToSchema;

use super::ErrorBody;
use super::doc::{
    BotLevel, InternalErrors, JsonBodyErrors, RateLimitErrors, RulesetName, SessionErrors,
    UnavailableErrors,
};
use crate::AppState;
use crate::RoomSpec;
use crate::auth::Authed;
use crate::error::ApiError;
use crate::room::{self, Command, Occupant};

#[derive(Deserialize, ToSchema)]
pub(super) struct CreateRoom {
    /// Ruleset preset id (`sichuan`, `sichuan-xuezhan`, `sichuan-xuezhan-9` …).
    #[schema(value_type = RulesetName)]
    ruleset: String,
    /// The ruleset's options, by name, as `GET /api/rulesets` lists them for the preset; an
    /// option left out takes its default.
    #[serde(default)]
    #[schema(value_type = Object)]
    options: RawOptions,
    /// Bot levels for the seats after the creator's (fewer: the rest wait for players); at
    /// most the preset's seats less one.
    #[serde(default)]
    #[schema(value_type = Vec<BotLevel>, max_items = 3)]
    bots: Vec<String>,
    /// Seconds for each decision (3 to 300).
    #[serde(default = "default_action_seconds")]
    #[schema(minimum = 3, maximum = 300, default = default_action_seconds)]
    action_seconds: u64,
    /// Seconds of bank per seat and hand, drawn on once a decision's own time is spent
    /// (0 to 600).
    #[serde(default = "default_time_bank_seconds")]
    #[schema(maximum = 600, default = default_time_bank_seconds)]
    time_bank_seconds: u64,
    /// Hands in the match (1 to 64); by default the ruleset's full match where it has one
    /// (Guobiao: 16), else 8.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 64)]
    hands: Option<u64>,
    /// Whether the room is listed in `GET /api/rooms`.
    #[serde(default = "default_public")]
    #[schema(default = true)]
    public: bool,
    /// How far spectators are behind play (0 to 600 seconds).
    #[serde(default)]
    #[schema(maximum = 600, default = 0)]
    spectator_delay_seconds: u64,
    /// How long every discard's claim window stays open, whoever could claim (1 to 15 seconds);
    /// by default the server's (`--claim-window-ms`, 4 s).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 15)]
    claim_window_seconds: Option<u64>,
}

fn default_action_seconds() -> u64 {
    room::Clock::DEFAULT.action_ms / 1000
}
fn default_time_bank_seconds() -> u64 {
    room::Clock::DEFAULT.bank_ms / 1000
}
fn default_public() -> bool {
    true
}

/// Where a player sits.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct Seated {
    /// The table (its WebSocket is `/ws/tables/{table}`).
    #[schema(value_type = String, format = "uuid")]
    pub table: TableId,
    /// The seat, from 0.
    pub seat: u8,
    /// The room's join code.
    pub code: String,
}

/// Creates a room; the creator takes seat 0 and bots the next seats.
#[utoipa::path(
    post,
    path = "/api/rooms",
    request_body = CreateRoom,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "the room, with its creator in seat 0", body = Seated),
        (status = 400, description = "`bad_request`: an unknown ruleset, option or bot level, an option or a number out of its range, more bots than seats less one; or the body is not JSON", body = ErrorBody),
        (status = 409, description = "`conflict`: the room closed before its creator was seated (the server is stopping)", body = ErrorBody),
        JsonBodyErrors,
        SessionErrors,
        RateLimitErrors,
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn create_room(
    State(state): State<AppState>,
    authed: Authed,
    Json(body): Json<CreateRoom>,
) -> Result<(StatusCode, Json<Seated>), ApiError> {
    let id = body
        .ruleset
        .parse()
        .map_err(|e| ApiError::BadRequest(format!("{e}")))?;
    let ruleset =
        Ruleset::new(id, &body.options).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let players = usize::from(ruleset.rules().flow().players);
    if body.bots.len() >= players {
        return Err(ApiError::BadRequest(format!(
            "at most {} bots: the creator takes a seat",
            players - 1
        )));
    }
    let bots = body
        .bots
        .iter()
        .map(|b| {
            b.parse::<bot::Level>()
                .map_err(|e| ApiError::BadRequest(e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if !(3..=300).contains(&body.action_seconds) {
        return Err(ApiError::BadRequest(
            "action_seconds must be 3 to 300".into(),
        ));
    }
    if body.time_bank_seconds > 600 {
        return Err(ApiError::BadRequest(
            "time_bank_seconds must be 0 to 600".into(),
        ));
    }
    if body.spectator_delay_seconds > 600 {
        return Err(ApiError::BadRequest(
            "spectator_delay_seconds must be 0 to 600".into(),
        ));
    }
    let claim_ms = match body.claim_window_seconds {
        None => state.timing.claim_window_ms,
        Some(s) if (1..=15).contains(&s) => s * 1000,
        Some(_) => {
            return Err(ApiError::BadRequest(
                "claim_window_seconds must be 1 to 15".into(),
            ));
        }
    };
    let hands = body.hands.unwrap_or_else(|| room::default_hands(&ruleset));
    if !(1..=64).contains(&hands) {
        return Err(ApiError::BadRequest("hands must be 1 to 64".into()));
    }
    let player = state.store.player(&authed.player).await?;
    let mut occupants = vec![Occupant::Empty];
    occupants.extend(bots.iter().map(|&l| Occupant::Bot(l)));
    let room = RoomSpec {
        clock: room::Clock {
            action_ms: body.action_seconds * 1000,
            bank_ms: body.time_bank_seconds * 1000,
            claim_ms,
        },
        hands,
        public: body.public,
        spectator_delay_ms: body.spectator_delay_seconds * 1000,
    };
    let (table, code, handle) = state
        .open_room(ruleset, body.options.clone(), room, occupants)
        .await?;
    let seat = join(&handle, player).await?;
    Ok((StatusCode::CREATED, Json(Seated { table, seat, code })))
}

pub(super) async fn join(handle: &room::RoomHandle, player: store::Player) -> Result<u8, ApiError> {
    let (reply, answer) = tokio::sync::oneshot::channel();
    let sent = handle
        .send(Command::Join(room::Joining {
            player: player.id,
            name: player.display_name,
            reply,
        }))
        .await;
    if !sent {
        return Err(ApiError::Conflict("the table is closed".into()));
    }
    answer
        .await
        .map_err(|_| ApiError::Conflict("the table is closed".into()))?
        .map_err(|e| ApiError::Conflict(e.to_string()))
}

#[derive(Deserialize, ToSchema)]
pub(super) struct QuickMatch {
    /// The preset to play, with its default options.
    #[schema(value_type = RulesetName)]
    ruleset: String,
}

/// Waits (long poll) until the player is seated: with other players when a table's worth wait,
/// else with bots after the server's quick-match wait.
#[utoipa::path(
    post,
    path = "/api/quickmatch",
    request_body = QuickMatch,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "seated at a new private table", body = Seated),
        (status = 400, description = "`bad_request`: an unknown ruleset; or the body is not JSON", body = ErrorBody),
        (status = 409, description = "`conflict`: a newer quick-match request of the same player for the same ruleset took this one's place in the queue", body = ErrorBody),
        JsonBodyErrors,
        SessionErrors,
        RateLimitErrors,
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn quickmatch(
    State(state): State<AppState>,
    authed: Authed,
    Json(body): Json<QuickMatch>,
) -> Result<Json<Seated>, ApiError> {
    let ruleset = quick_ruleset(&body.ruleset)?;
    let player = state.store.player(&authed.player).await?;
    // With several nodes, one forms every quick-match table (the live node first by name), so
    // that players waiting on different nodes are seated together; when it does not answer,
    // the players of this node are matched here.
    if let Some(cluster) = &state.cluster {
        let matchmaker = state.store.live_nodes().await?.into_iter().next();
        if let Some(matchmaker) = matchmaker.filter(|m| *m != state.node) {
            let within = std::time::Duration::from_millis(state.config.quick_fill_ms)
                + std::time::Duration::from_secs(10);
            let forwarded = cluster
                .quick_match(&matchmaker, &body.ruleset, &player.id, within)
                .await;
            if let Some(answer) = forwarded {
                return answer.map(Json);
            }
        }
    }
    Ok(Json(crate::quick::enqueue(&state, ruleset, player).await?))
}

/// How the quick-match queue waits, for a client's countdown.
#[derive(Serialize, ToSchema)]
pub(super) struct QuickMatchInfo {
    /// Milliseconds the first in line waits for people before bots fill the table
    /// (`--quick-fill-ms`).
    fill_ms: u64,
}

/// How long a quick match waits for people before bots fill the table.
#[utoipa::path(
    get,
    path = "/api/quickmatch",
    responses((status = 200, description = "the queue's wait before bots fill a table", body = QuickMatchInfo))
)]
pub(super) async fn quickmatch_info(State(state): State<AppState>) -> Json<QuickMatchInfo> {
    Json(QuickMatchInfo {
        fill_ms: state.config.quick_fill_ms,
    })
}

/// The ruleset a quick match plays: a preset with its default options.
pub(crate) fn quick_ruleset(name: &str) -> Result<Ruleset, ApiError> {
    let id = name
        .parse()
        .map_err(|e| ApiError::BadRequest(format!("{e}")))?;
    Ruleset::new(id, &RawOptions::new()).map_err(|e| ApiError::BadRequest(e.to_string()))
}

/// A public room with a free seat.
#[derive(Serialize, Deserialize, ToSchema)]
pub(crate) struct RoomListing {
    /// The table.
    #[schema(value_type = String, format = "uuid")]
    table: TableId,
    /// Its ruleset preset id.
    ruleset: String,
    /// Its join code.
    code: String,
    /// Each seat: `seat`, `name`, `status` (as in proto/README.md).
    #[schema(value_type = Vec<Object>)]
    seats: Vec<protocol::SeatInfo>,
    /// Hands finished so far.
    hands_played: u64,
    /// The room's time for every decision, in seconds.
    action_seconds: u64,
    /// Its claim window after every discard, in milliseconds.
    claim_window_ms: u64,
}

/// Public rooms with a free seat.
#[utoipa::path(
    get,
    path = "/api/rooms",
    responses((status = 200, description = "the public rooms with a free seat, oldest first", body = Vec<RoomListing>))
)]
pub(super) async fn list_rooms(State(state): State<AppState>) -> Json<Vec<RoomListing>> {
    let mut rooms = local_listings(&state);
    if let Some(cluster) = &state.cluster {
        rooms.extend(cluster.listings().await);
        rooms.sort_by(|a, b| a.table.cmp(&b.table));
        rooms.dedup_by(|a, b| a.table == b.table);
    }
    Json(rooms)
}

/// This node's public rooms with a free seat, by table id.
pub(crate) fn local_listings(state: &AppState) -> Vec<RoomListing> {
    let mut rooms: Vec<RoomListing> = state
        .lobby
        .rooms()
        .into_iter()
        .map(|h| h.summary())
        .filter(|s| s.public && !s.closed_to_joins)
        .map(|s| RoomListing {
            table: s.table,
            ruleset: s.ruleset,
            code: s.code,
            seats: s.seats,
            hands_played: s.hands_played,
            action_seconds: s.clock.action_ms / 1000,
            claim_window_ms: s.clock.claim_ms,
        })
        .collect();
    rooms.sort_by(|a, b| a.table.cmp(&b.table));
    rooms
}

#[derive(Deserialize, ToSchema)]
pub(super) struct JoinCode {
    /// The room's join code (case and surrounding spaces do not matter).
    code: String,
}

/// Takes a seat at the room a join code opens.
#[utoipa::path(
    post,
    path = "/api/rooms/join",
    request_body = JoinCode,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "seated (or already seated there: the same seat)", body = Seated),
        (status = 400, description = "`bad_request`: the body is not JSON", body = ErrorBody),
        (status = 404, description = "`not_found`: no live room has this code", body = ErrorBody),
        (status = 409, description = "`conflict`: the table is full or closed, or the player escaped from it", body = ErrorBody),
        JsonBodyErrors,
        SessionErrors,
        RateLimitErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn join_by_code(
    State(state): State<AppState>,
    authed: Authed,
    Json(body): Json<JoinCode>,
) -> Result<Json<Seated>, ApiError> {
    let code = body.code.trim().to_ascii_uppercase();
    let not_found = || ApiError::NotFound(format!("room with code `{code}`"));
    let player = state.store.player(&authed.player).await?;
    let here = state
        .lobby
        .by_code(&code)
        .and_then(|table| state.lobby.room(&table).map(|room| (table, room)));
    let (table, seat) = match (here, &state.cluster) {
        (Some((table, room)), _) => (table, join(&room, player).await?),
        // A room on another node, reached through NATS.
        (None, Some(cluster)) => match cluster.join_by_code(&code, &player).await {
            crate::cluster::JoinAnswer::Seated { table, seat } => (table, seat),
            crate::cluster::JoinAnswer::Conflict(message) => {
                return Err(ApiError::Conflict(message));
            }
            crate::cluster::JoinAnswer::NoRoom => return Err(not_found()),
        },
        (None, None) => return Err(not_found()),
    };
    Ok(Json(Seated { table, seat, code }))
}
