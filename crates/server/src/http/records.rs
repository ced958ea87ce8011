//! What was played: a table's hands, one hand's replay, histories, leaderboards, and scoring
//! finished hands.

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::{Deserialize, Serialize};
use store::{Page, Period, PlayerId, Ranking, TableId, UnixMillis};
use utoipa::ToSchema;

use super::ErrorBody;
use crate::AppState;
use crate::error::ApiError;

fn table_id(raw: &str) -> Result<TableId, ApiError> {
    TableId::parse(raw).map_err(|e| ApiError::BadRequest(e.to_string()))
}

/// A table's finished hands: seed, dealer, ending, per-seat deltas, settlement.
#[utoipa::path(get, path = "/api/tables/{table}/hands", params(("table" = String, Path, description = "table id")), responses((status = 200, body = Vec<HandOut>), (status = 400, body = ErrorBody)))]
pub(super) async fn table_hands(
    State(state): State<AppState>,
    Path(table): Path<String>,
) -> Result<Json<Vec<HandOut>>, ApiError> {
    let table = table_id(&table)?;
    let hands = state.store.table_hands(&table).await?;
    Ok(Json(hands.iter().map(|h| HandOut::of(h, None)).collect()))
}

/// A stored hand as the API shows it.
#[derive(Serialize, ToSchema)]
pub(super) struct HandOut {
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
pub(super) struct SeatOut {
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
pub(super) async fn hand_replay(
    State(state): State<AppState>,
    Path((table, hand)): Path<(String, u64)>,
) -> Result<Json<HandOut>, ApiError> {
    let table = table_id(&table)?;
    let (summary, record) = state.store.hand(&table, hand).await?;
    Ok(Json(HandOut::of(&summary, Some(record))))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct PageQuery {
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
pub(super) async fn history(
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

/// The escapes (逃跑) recorded against a player, oldest first, with the ruleset's penalty
/// (0 where the rules set none).
#[utoipa::path(get, path = "/api/players/{player}/escapes", params(("player" = String, Path, description = "player id")), responses((status = 200, body = Vec<EscapeRow>), (status = 400, body = ErrorBody)))]
pub(super) async fn escapes(
    State(state): State<AppState>,
    Path(player): Path<String>,
) -> Result<Json<Vec<EscapeRow>>, ApiError> {
    let player = PlayerId::parse(&player).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let rows = state.store.escape_penalties(&player).await?;
    Ok(Json(
        rows.into_iter()
            .map(|(table, hand_no, points)| EscapeRow {
                table,
                hand_no,
                points,
            })
            .collect(),
    ))
}

/// One escape of a player.
#[derive(Serialize, ToSchema)]
pub(super) struct EscapeRow {
    #[schema(value_type = String)]
    table: TableId,
    /// The hand it happened in.
    hand_no: u64,
    /// The penalty recorded (subtracted in score leaderboards).
    points: i64,
}

/// One hand of a player's history.
#[derive(Serialize, ToSchema)]
pub(super) struct HistoryRow {
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
pub(super) struct BoardRow {
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
pub(super) struct BoardQuery {
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
pub(super) async fn leaderboard(
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
