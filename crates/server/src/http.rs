//! The HTTP API: guests, rooms, the lobby, histories, leaderboards, health.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use engine::ruleset::{RawOptions, Ruleset};
use serde::{Deserialize, Serialize};
use store::{Page, Period, PlayerId, Ranking, TableId, UnixMillis};
use utoipa::{OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::RoomSpec;
use crate::auth::{Authed, new_token};
use crate::error::ApiError;
use crate::room::{self, Command, Occupant};

/// The API's routes.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(health))
        .routes(routes!(metrics))
        .routes(routes!(sign_up))
        .routes(routes!(renew_session, sign_out))
        .routes(routes!(me))
        .routes(routes!(create_room, list_rooms))
        .routes(routes!(join_by_code))
        .routes(routes!(quickmatch))
        .routes(routes!(table_hands))
        .routes(routes!(hand_replay))
        .routes(routes!(history))
        .routes(routes!(leaderboard))
        .routes(routes!(settle))
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
    /// `bad_request`, `unauthorized`, `not_found`, `conflict`, `store_unavailable` or `internal`.
    pub code: String,
    /// For people.
    pub message: String,
}

/// Whether the server and its database answer.
#[utoipa::path(get, path = "/healthz", responses((status = 200, description = "`ok`", body = String), (status = 503, description = "the database does not answer", body = ErrorBody)))]
async fn health(State(state): State<AppState>) -> Result<&'static str, ApiError> {
    state.store.schema_version().await?;
    Ok("ok")
}

/// Counters and process figures in the Prometheus text format.
#[utoipa::path(get, path = "/metrics", responses((status = 200, description = "Prometheus text", body = String, content_type = "text/plain")))]
async fn metrics(
    State(state): State<AppState>,
) -> ([(axum::http::HeaderName, &'static str); 1], String) {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4",
        )],
        state.metrics.render(state.lobby.rooms().len()),
    )
}

#[derive(Deserialize, ToSchema)]
struct SignUp {
    display_name: String,
}

#[derive(Serialize, ToSchema)]
struct SignedIn {
    #[schema(value_type = String)]
    player: PlayerId,
    display_name: String,
    token: String,
    expires_ms: i64,
}

/// The longest display name, in characters.
const MAX_NAME: usize = 24;

fn display_name(raw: &str) -> Result<String, ApiError> {
    let name = raw.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME || name.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(format!(
            "display_name must be 1 to {MAX_NAME} characters, without control characters"
        )));
    }
    Ok(name.to_string())
}

/// Signs up a guest and issues a session token (send it as `Authorization: Bearer <token>`).
#[utoipa::path(post, path = "/api/guests", request_body = SignUp, responses((status = 201, body = SignedIn), (status = 400, body = ErrorBody)))]
async fn sign_up(
    State(state): State<AppState>,
    Json(body): Json<SignUp>,
) -> Result<(StatusCode, Json<SignedIn>), ApiError> {
    let name = display_name(&body.display_name)?;
    let player = state.store.create_player(&name).await?;
    let (token, hash) = new_token()?;
    let seconds = i64::try_from(state.config.session_seconds).unwrap_or(i64::MAX / 1000);
    let expires = UnixMillis::now().plus_ms(seconds.saturating_mul(1000));
    state
        .store
        .create_session(&hash, &player.id, expires)
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(SignedIn {
            player: player.id,
            display_name: player.display_name,
            token,
            expires_ms: expires.0,
        }),
    ))
}

/// Signs in again with a valid token: a fresh token is issued with a new expiry and the old one
/// stops working (guests keep their account by renewing before it expires).
#[utoipa::path(post, path = "/api/sessions", responses((status = 201, body = SignedIn), (status = 401, body = ErrorBody)))]
async fn renew_session(
    State(state): State<AppState>,
    authed: Authed,
) -> Result<(StatusCode, Json<SignedIn>), ApiError> {
    let player = state.store.player(&authed.player).await?;
    let (token, hash) = new_token()?;
    let seconds = i64::try_from(state.config.session_seconds).unwrap_or(i64::MAX / 1000);
    let expires = UnixMillis::now().plus_ms(seconds.saturating_mul(1000));
    state
        .store
        .create_session(&hash, &player.id, expires)
        .await?;
    state.store.delete_session(&authed.token).await?;
    Ok((
        StatusCode::CREATED,
        Json(SignedIn {
            player: player.id,
            display_name: player.display_name,
            token,
            expires_ms: expires.0,
        }),
    ))
}

/// Signs out: the token stops working.
#[utoipa::path(delete, path = "/api/sessions", responses((status = 204, description = "signed out"), (status = 401, body = ErrorBody)))]
async fn sign_out(State(state): State<AppState>, authed: Authed) -> Result<StatusCode, ApiError> {
    state.store.delete_session(&authed.token).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A player as the API shows one.
#[derive(Serialize, ToSchema)]
struct PlayerOut {
    #[schema(value_type = String)]
    id: PlayerId,
    display_name: String,
    created_ms: i64,
}

/// The signed-in player.
#[utoipa::path(get, path = "/api/me", responses((status = 200, body = PlayerOut), (status = 401, body = ErrorBody)))]
async fn me(State(state): State<AppState>, authed: Authed) -> Result<Json<PlayerOut>, ApiError> {
    let p = state.store.player(&authed.player).await?;
    Ok(Json(PlayerOut {
        id: p.id,
        display_name: p.display_name,
        created_ms: p.created.0,
    }))
}

#[derive(Deserialize, ToSchema)]
struct CreateRoom {
    /// Ruleset preset id (`sichuan`, `sichuan-xuezhan`, `sichuan-xuezhan-9` …).
    ruleset: String,
    /// The ruleset's options (see README).
    #[serde(default)]
    #[schema(value_type = Object)]
    options: RawOptions,
    /// Bot levels for the seats after the creator's (fewer: the rest wait for players).
    #[serde(default)]
    bots: Vec<String>,
    #[serde(default = "default_action_seconds")]
    action_seconds: u64,
    #[serde(default = "default_hands")]
    hands: u64,
    #[serde(default = "default_public")]
    public: bool,
    /// How far spectators are behind play (0 to 600 seconds).
    #[serde(default)]
    spectator_delay_seconds: u64,
}

fn default_action_seconds() -> u64 {
    20
}
fn default_hands() -> u64 {
    8
}
fn default_public() -> bool {
    true
}

/// Where a player sits.
#[derive(Serialize, ToSchema)]
pub struct Seated {
    /// The table.
    #[schema(value_type = String)]
    pub table: TableId,
    /// The seat.
    pub seat: u8,
    /// The room's join code.
    pub code: String,
}

/// Creates a room; the creator takes seat 0 and bots the next seats.
#[utoipa::path(post, path = "/api/rooms", request_body = CreateRoom, responses((status = 201, body = Seated), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn create_room(
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
    let players = usize::from(ruleset.rules().players());
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
    if body.spectator_delay_seconds > 600 {
        return Err(ApiError::BadRequest(
            "spectator_delay_seconds must be 0 to 600".into(),
        ));
    }
    if !(1..=64).contains(&body.hands) {
        return Err(ApiError::BadRequest("hands must be 1 to 64".into()));
    }
    let player = state.store.player(&authed.player).await?;
    let mut occupants = vec![Occupant::Empty];
    occupants.extend(bots.iter().map(|&l| Occupant::Bot(l)));
    let room = RoomSpec {
        action_ms: body.action_seconds * 1000,
        hands: body.hands,
        public: body.public,
        spectator_delay_ms: body.spectator_delay_seconds * 1000,
    };
    let (table, code, handle) = state
        .open_room(ruleset, body.options.clone(), room, occupants)
        .await?;
    let seat = join(&handle, player).await?;
    Ok((StatusCode::CREATED, Json(Seated { table, seat, code })))
}

async fn join(handle: &room::RoomHandle, player: store::Player) -> Result<u8, ApiError> {
    let (reply, answer) = tokio::sync::oneshot::channel();
    let sent = handle
        .send(Command::Join {
            player: player.id,
            name: player.display_name,
            reply,
        })
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
struct QuickMatch {
    ruleset: String,
}

/// Waits (long poll) until the player is seated: with other players when a table's worth wait,
/// else with bots after the server's quick-match wait.
#[utoipa::path(post, path = "/api/quickmatch", request_body = QuickMatch, responses((status = 200, body = Seated), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn quickmatch(
    State(state): State<AppState>,
    authed: Authed,
    Json(body): Json<QuickMatch>,
) -> Result<Json<Seated>, ApiError> {
    let id = body
        .ruleset
        .parse()
        .map_err(|e| ApiError::BadRequest(format!("{e}")))?;
    let ruleset =
        Ruleset::new(id, &RawOptions::new()).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let player = state.store.player(&authed.player).await?;
    Ok(Json(crate::quick::enqueue(&state, ruleset, player).await?))
}

#[derive(Serialize, ToSchema)]
struct RoomListing {
    #[schema(value_type = String)]
    table: TableId,
    ruleset: String,
    code: String,
    /// Each seat: `seat`, `name`, `status` (as in proto/README.md).
    #[schema(value_type = Vec<Object>)]
    seats: Vec<protocol::SeatInfo>,
    hands_played: u64,
}

/// Public rooms with a free seat.
#[utoipa::path(get, path = "/api/rooms", responses((status = 200, body = Vec<RoomListing>)))]
async fn list_rooms(State(state): State<AppState>) -> Json<Vec<RoomListing>> {
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
        })
        .collect();
    rooms.sort_by(|a, b| a.table.cmp(&b.table));
    Json(rooms)
}

#[derive(Deserialize, ToSchema)]
struct JoinCode {
    code: String,
}

/// Takes a seat at the room a join code opens.
#[utoipa::path(post, path = "/api/rooms/join", request_body = JoinCode, responses((status = 200, body = Seated), (status = 404, body = ErrorBody), (status = 409, description = "the table is full or closed", body = ErrorBody)))]
async fn join_by_code(
    State(state): State<AppState>,
    authed: Authed,
    Json(body): Json<JoinCode>,
) -> Result<Json<Seated>, ApiError> {
    let table = state
        .lobby
        .by_code(body.code.trim())
        .ok_or_else(|| ApiError::NotFound(format!("room with code `{}`", body.code.trim())))?;
    let handle = state
        .lobby
        .room(&table)
        .ok_or_else(|| ApiError::NotFound("room".into()))?;
    let player = state.store.player(&authed.player).await?;
    let seat = join(&handle, player).await?;
    Ok(Json(Seated {
        table,
        seat,
        code: body.code.trim().to_ascii_uppercase(),
    }))
}

fn table_id(raw: &str) -> Result<TableId, ApiError> {
    TableId::parse(raw).map_err(|e| ApiError::BadRequest(e.to_string()))
}

/// A table's finished hands: seed, dealer, ending, per-seat deltas, settlement.
#[utoipa::path(get, path = "/api/tables/{table}/hands", params(("table" = String, Path, description = "table id")), responses((status = 200, body = Vec<HandOut>), (status = 400, body = ErrorBody)))]
async fn table_hands(
    State(state): State<AppState>,
    Path(table): Path<String>,
) -> Result<Json<Vec<HandOut>>, ApiError> {
    let table = table_id(&table)?;
    let hands = state.store.table_hands(&table).await?;
    Ok(Json(hands.iter().map(|h| HandOut::of(h, None)).collect()))
}

/// A stored hand as the API shows it.
#[derive(Serialize, ToSchema)]
struct HandOut {
    #[schema(value_type = String)]
    table: TableId,
    hand_no: u64,
    ruleset: String,
    /// The seed, in decimal (it does not fit a JSON number exactly).
    seed: String,
    dealer: u8,
    /// `self_draw`, `discard`, `multi_win` or `drawn`.
    ending: String,
    seats: Vec<SeatOut>,
    /// The settlement as `hand_over` shows it (`fans`, `extras`, `deltas`).
    #[schema(value_type = Object)]
    settlement: serde_json::Value,
    finished_ms: i64,
    /// The replay record (ruleset, options, seed, dealer, actions); only for one hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    record: Option<serde_json::Value>,
}

/// One seat of a stored hand.
#[derive(Serialize, ToSchema)]
struct SeatOut {
    /// The player (absent for a bot).
    #[schema(value_type = Option<String>)]
    player: Option<PlayerId>,
    delta: i64,
}

impl HandOut {
    fn of(h: &store::HandSummary, record: Option<serde_json::Value>) -> HandOut {
        HandOut {
            table: h.table.clone(),
            hand_no: h.hand_no,
            ruleset: h.ruleset.clone(),
            seed: h.seed.to_string(),
            dealer: h.dealer,
            ending: h.ending.clone(),
            seats: h
                .seats
                .iter()
                .map(|s| SeatOut {
                    player: s.player.clone(),
                    delta: s.delta,
                })
                .collect(),
            settlement: h.fans.clone(),
            finished_ms: h.finished.0,
            record,
        }
    }
}

/// One hand with its replay record.
#[utoipa::path(get, path = "/api/tables/{table}/hands/{hand}", params(("table" = String, Path, description = "table id"), ("hand" = u64, Path, description = "hand number, from 0")), responses((status = 200, body = HandOut), (status = 404, body = ErrorBody)))]
async fn hand_replay(
    State(state): State<AppState>,
    Path((table, hand)): Path<(String, u64)>,
) -> Result<Json<HandOut>, ApiError> {
    let table = table_id(&table)?;
    let (summary, record) = state.store.hand(&table, hand).await?;
    Ok(Json(HandOut::of(&summary, Some(record))))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct PageQuery {
    #[serde(default)]
    offset: u64,
    #[serde(default = "default_limit")]
    limit: u32,
}

fn default_limit() -> u32 {
    50
}

/// A player's hands, newest first.
#[utoipa::path(get, path = "/api/players/{player}/history", params(("player" = String, Path, description = "player id"), PageQuery), responses((status = 200, body = Vec<HistoryRow>), (status = 400, body = ErrorBody)))]
async fn history(
    State(state): State<AppState>,
    Path(player): Path<String>,
    Query(page): Query<PageQuery>,
) -> Result<Json<Vec<HistoryRow>>, ApiError> {
    let player = PlayerId::parse(&player).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let page = Page {
        offset: page.offset,
        limit: page.limit,
    };
    let rows = state.store.player_history(&player, page).await?;
    Ok(Json(
        rows.into_iter()
            .map(|h| HistoryRow {
                table: h.table,
                hand_no: h.hand_no,
                ruleset: h.ruleset,
                seat: h.seat,
                delta: h.delta,
                finished_ms: h.finished.0,
            })
            .collect(),
    ))
}

/// One hand of a player's history.
#[derive(Serialize, ToSchema)]
struct HistoryRow {
    #[schema(value_type = String)]
    table: TableId,
    hand_no: u64,
    ruleset: String,
    seat: u8,
    delta: i64,
    finished_ms: i64,
}

/// One row of a leaderboard.
#[derive(Serialize, ToSchema)]
struct BoardRow {
    /// 1 for the best; equal values share a rank.
    rank: u64,
    #[schema(value_type = String)]
    player: PlayerId,
    display_name: String,
    /// Total score in the period, escape penalties subtracted.
    score: i64,
    hands: u64,
    rating: f64,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct BoardQuery {
    #[serde(default = "default_period")]
    period: String,
    #[serde(default = "default_by")]
    by: String,
    #[serde(default)]
    offset: u64,
    #[serde(default = "default_limit")]
    limit: u32,
}

fn default_period() -> String {
    "all".into()
}
fn default_by() -> String {
    "score".into()
}

/// A ruleset's leaderboard over a period, by total score or by rating.
#[utoipa::path(get, path = "/api/leaderboards/{ruleset}", params(("ruleset" = String, Path, description = "ruleset preset id"), BoardQuery), responses((status = 200, body = Vec<BoardRow>), (status = 400, body = ErrorBody)))]
async fn leaderboard(
    State(state): State<AppState>,
    Path(ruleset): Path<String>,
    Query(q): Query<BoardQuery>,
) -> Result<Json<Vec<BoardRow>>, ApiError> {
    let id: engine::RulesetId = ruleset
        .parse()
        .map_err(|e| ApiError::BadRequest(format!("{e}")))?;
    let period: Period = q.period.parse()?;
    let ranking = match q.by.as_str() {
        "score" => Ranking::Score,
        "rating" => Ranking::Rating,
        other => {
            return Err(ApiError::BadRequest(format!(
                "by `{other}`: expected score or rating"
            )));
        }
    };
    let page = Page {
        offset: q.offset,
        limit: q.limit,
    };
    let rows = state
        .store
        .leaderboard(&id.to_string(), period, ranking, page, UnixMillis::now())
        .await?;
    Ok(Json(
        rows.into_iter()
            .map(|e| BoardRow {
                rank: e.rank,
                player: e.player,
                display_name: e.display_name,
                score: e.score,
                hands: e.hands,
                rating: e.rating,
            })
            .collect(),
    ))
}

/// The most hands one `POST /api/settle` scores.
const MAX_SETTLE: usize = 1000;

/// Scores finished hands in the `settle` format (one object, or an array of up to 1,000).
#[utoipa::path(post, path = "/api/settle", request_body(content = Object, description = "a hand, or an array of hands, in the settle format of shared/conformance/README.md"), responses((status = 200, description = "the settlement or refusal of each hand, in order", body = Object), (status = 400, body = ErrorBody)))]
async fn settle(body: String) -> Result<Json<serde_json::Value>, ApiError> {
    let value: serde_json::Value = serde_json::from_str(&body)
        .map_err(|e| ApiError::BadRequest(format!("the body is not JSON: {e}")))?;
    let one = |v: &serde_json::Value| {
        serde_json::to_value(engine::format::settle_text(&v.to_string()))
            .map_err(|e| ApiError::Internal(e.to_string()))
    };
    match &value {
        serde_json::Value::Array(items) => {
            if items.len() > MAX_SETTLE {
                return Err(ApiError::BadRequest(format!(
                    "at most {MAX_SETTLE} hands per request"
                )));
            }
            let out = items.iter().map(one).collect::<Result<Vec<_>, _>>()?;
            Ok(Json(serde_json::Value::Array(out)))
        }
        other => Ok(Json(one(other)?)),
    }
}
