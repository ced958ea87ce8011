//! The HTTP API: guests, rooms, the lobby, histories, leaderboards, health.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::ruleset::{RawOptions, Ruleset};
use serde::{Deserialize, Serialize};
use store::{Page, Period, PlayerId, Ranking, TableId, UnixMillis};

use crate::AppState;
use crate::RoomSpec;
use crate::auth::{Authed, new_token};
use crate::error::ApiError;
use crate::room::{self, Command, Occupant};

/// The API's routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(health))
        .route("/metrics", get(metrics))
        .route("/api/guests", post(sign_up))
        .route("/api/me", get(me))
        .route("/api/rooms", post(create_room).get(list_rooms))
        .route("/api/rooms/join", post(join_by_code))
        .route("/api/quickmatch", post(quickmatch))
        .route("/api/tables/{table}/hands", get(table_hands))
        .route("/api/tables/{table}/hands/{hand}", get(hand_replay))
        .route("/api/players/{player}/history", get(history))
        .route("/api/leaderboards/{ruleset}", get(leaderboard))
        .route("/api/settle", post(settle))
}

async fn health(State(state): State<AppState>) -> Result<&'static str, ApiError> {
    state.store.schema_version().await?;
    Ok("ok")
}

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

#[derive(Deserialize)]
struct SignUp {
    display_name: String,
}

#[derive(Serialize)]
struct SignedIn {
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

async fn me(
    State(state): State<AppState>,
    authed: Authed,
) -> Result<Json<store::Player>, ApiError> {
    Ok(Json(state.store.player(&authed.player).await?))
}

#[derive(Deserialize)]
struct CreateRoom {
    ruleset: String,
    #[serde(default)]
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
#[derive(Serialize)]
pub struct Seated {
    /// The table.
    pub table: TableId,
    /// The seat.
    pub seat: u8,
    /// The room's join code.
    pub code: String,
}

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

#[derive(Deserialize)]
struct QuickMatch {
    ruleset: String,
}

/// `POST /api/quickmatch`: waits (long poll) until the player is seated at a table, with other
/// players when enough are waiting, else with bots after the server's `quick_fill_ms`.
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

#[derive(Serialize)]
struct RoomListing {
    table: TableId,
    ruleset: String,
    code: String,
    seats: Vec<protocol::SeatInfo>,
    hands_played: u64,
}

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

#[derive(Deserialize)]
struct JoinCode {
    code: String,
}

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

async fn table_hands(
    State(state): State<AppState>,
    Path(table): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let table = table_id(&table)?;
    let hands = state.store.table_hands(&table).await?;
    Ok(Json(serde_json::Value::Array(
        hands.iter().map(summary_json).collect(),
    )))
}

fn summary_json(h: &store::HandSummary) -> serde_json::Value {
    serde_json::json!({
        "table": h.table,
        "hand_no": h.hand_no,
        "ruleset": h.ruleset,
        "seed": h.seed.to_string(),
        "dealer": h.dealer,
        "ending": h.ending,
        "seats": h.seats.iter().map(|s| serde_json::json!({"player": s.player, "delta": s.delta})).collect::<Vec<_>>(),
        "settlement": h.fans,
        "finished_ms": h.finished.0,
    })
}

async fn hand_replay(
    State(state): State<AppState>,
    Path((table, hand)): Path<(String, u64)>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let table = table_id(&table)?;
    let (summary, record) = state.store.hand(&table, hand).await?;
    let mut body = summary_json(&summary);
    body["record"] = record;
    Ok(Json(body))
}

#[derive(Deserialize)]
struct PageQuery {
    #[serde(default)]
    offset: u64,
    #[serde(default = "default_limit")]
    limit: u32,
}

fn default_limit() -> u32 {
    50
}

async fn history(
    State(state): State<AppState>,
    Path(player): Path<String>,
    Query(page): Query<PageQuery>,
) -> Result<Json<Vec<store::HistoryEntry>>, ApiError> {
    let player = PlayerId::parse(&player).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let page = Page {
        offset: page.offset,
        limit: page.limit,
    };
    Ok(Json(state.store.player_history(&player, page).await?))
}

#[derive(Deserialize)]
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

async fn leaderboard(
    State(state): State<AppState>,
    Path(ruleset): Path<String>,
    Query(q): Query<BoardQuery>,
) -> Result<Json<Vec<store::LeaderboardEntry>>, ApiError> {
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
    Ok(Json(
        state
            .store
            .leaderboard(&id.to_string(), period, ranking, page, UnixMillis::now())
            .await?,
    ))
}

/// The most hands one `POST /api/settle` scores.
const MAX_SETTLE: usize = 1000;

/// `POST /api/settle`: finished hands in the format of `mahjong settle` (one JSON object, or an
/// array of them) scored by the engine; each answer is the settlement or a refusal with its
/// code, in order, exactly as the command line writes them.
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
