//! What was played: a table's hands, one hand's replay, histories, leaderboards, and scoring
//! finished hands.

use axum::Json;
use axum::extract::{Path, Query, State};
use engine::stored::{Document, StoredHandRecord};
use serde::{Deserialize, Serialize};
use store::{Page, Period, PlayerId, Ranking, TableId, UnixMillis};
use utoipa::ToSchema;

use super::ErrorBody;
use super::doc::{InternalErrors, RulesetName, UnavailableErrors};
use crate::AppState;
use crate::error::ApiError;

fn table_id(raw: &str) -> Result<TableId, ApiError> {
    TableId::parse(raw).map_err(|e| ApiError::BadRequest(e.to_string()))
}

/// A table's finished hands: seed, dealer, ending, per-seat deltas, settlement.
#[utoipa::path(
    get,
    path = "/api/tables/{table}/hands",
    params(("table" = String, Path, format = "uuid", description = "table id")),
    responses(
        (status = 200, description = "the table's finished hands, oldest first (none for a table that finished none, or that is not known)", body = Vec<HandOut>),
        (status = 400, description = "`bad_request`: `table` is not a table id", body = ErrorBody),
        (status = 403, description = "`forbidden`: a duplicate tournament's table while its round plays", body = ErrorBody),
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn table_hands(
    State(state): State<AppState>,
    Path(table): Path<String>,
) -> Result<Json<Vec<HandOut>>, ApiError> {
    let table = table_id(&table)?;
    crate::tournaments::refuse_if_withheld(&state, &table).await?;
    let hands = state.store.table_hands(&table).await?;
    Ok(Json(hands.iter().map(|h| HandOut::of(h, None)).collect()))
}

/// A stored hand as the API shows it.
#[derive(Serialize, ToSchema)]
pub(super) struct HandOut {
    /// The table.
    #[schema(value_type = String, format = "uuid")]
    table: TableId,
    /// The hand's number at its table, from 0.
    hand_no: u64,
    /// The ruleset preset id.
    ruleset: String,
    /// The seed, in decimal (it does not fit a JSON number exactly).
    seed: String,
    /// The dealer's seat.
    dealer: u8,
    /// `self_draw`, `discard`, `multi_win` or `drawn`.
    ending: String,
    /// Each seat's player and score change, by seat.
    seats: Vec<SeatOut>,
    /// The settlement as `hand_over` shows it (`fans`, `extras`, `deltas`, `payments`).
    #[schema(value_type = Object)]
    settlement: serde_json::Value,
    /// When the hand finished, in Unix milliseconds.
    finished_ms: i64,
    /// The replay record, as `mahjong replay` reads it (`version`, ruleset, options, seed,
    /// dealer, actions); only for one hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object)]
    record: Option<serde_json::Value>,
}

/// One seat of a stored hand.
#[derive(Serialize, ToSchema)]
pub(super) struct SeatOut {
    /// The player (null for a bot, and for a seat whose player had escaped).
    #[schema(value_type = Option<String>, format = "uuid", required = true)]
    player: Option<PlayerId>,
    /// The seat's score change.
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
#[utoipa::path(
    get,
    path = "/api/tables/{table}/hands/{hand}",
    params(
        ("table" = String, Path, format = "uuid", description = "table id"),
        ("hand" = u64, Path, description = "hand number, from 0"),
    ),
    responses(
        (status = 200, description = "the hand, with its replay `record`", body = HandOut),
        (status = 400, description = "`bad_request`: `table` is not a table id, or `hand` not a number from 0 to 2^63 - 1", body = ErrorBody),
        (status = 403, description = "`forbidden`: a duplicate tournament's table while its round plays", body = ErrorBody),
        (status = 404, description = "`not_found`: no such hand was finished at this table", body = ErrorBody),
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn hand_replay(
    State(state): State<AppState>,
    Path((table, hand)): Path<(String, u64)>,
) -> Result<Json<HandOut>, ApiError> {
    let table = table_id(&table)?;
    crate::tournaments::refuse_if_withheld(&state, &table).await?;
    let (summary, record) = state.store.hand(&table, hand).await?;
    // Written again as this build writes it, so a client gets one layout (with its version)
    // whichever build stored the hand.
    let record = StoredHandRecord::read(&record)?.write()?;
    Ok(Json(HandOut::of(&summary, Some(record))))
}

/// A page of a long list, as a query gives it.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct PageQuery {
    /// Rows to skip (default 0).
    #[serde(default)]
    #[param(default = 0)]
    pub(super) offset: u64,
    /// Rows to return: 1 to 200 (default 50). A value outside is refused (400), not clamped.
    #[serde(default = "default_limit")]
    #[param(minimum = 1, maximum = 200, default = 50)]
    pub(super) limit: u32,
}

// The range the document gives `limit` is the one `page` enforces.
const _: () = assert!(
    Page::MAX_LIMIT == 200,
    "update `limit`'s documented maximum"
);

fn default_limit() -> u32 {
    50
}

/// The page a query asks for, refused with 400 when `limit` is outside 1 to
/// [`Page::MAX_LIMIT`] or `offset` past what the database counts: a client that asks for
/// 1,000 rows learns the maximum rather than silently getting fewer.
pub(super) fn page(offset: u64, limit: u32) -> Result<Page, ApiError> {
    if !(1..=Page::MAX_LIMIT).contains(&limit) {
        return Err(ApiError::BadRequest(format!(
            "limit must be 1 to {}, not {limit}",
            Page::MAX_LIMIT
        )));
    }
    if i64::try_from(offset).is_err() {
        return Err(ApiError::BadRequest(format!(
            "offset must be at most {}, not {offset}",
            i64::MAX
        )));
    }
    Ok(Page { offset, limit })
}

/// A player as others see them: the name shown at tables and on leaderboards.
#[utoipa::path(
    get,
    path = "/api/players/{player}",
    params(("player" = String, Path, format = "uuid", description = "player id")),
    responses(
        (status = 200, description = "the player", body = PublicPlayer),
        (status = 400, description = "`bad_request`: `player` is not a player id", body = ErrorBody),
        (status = 404, description = "`not_found`: no such player", body = ErrorBody),
        UnavailableErrors,
    )
)]
pub(super) async fn player(
    State(state): State<AppState>,
    Path(player): Path<String>,
) -> Result<Json<PublicPlayer>, ApiError> {
    let player = PlayerId::parse(&player).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let p = state.store.player(&player).await?;
    Ok(Json(PublicPlayer {
        id: p.id,
        display_name: p.display_name,
    }))
}

/// A player's public face.
#[derive(Serialize, ToSchema)]
pub(super) struct PublicPlayer {
    /// The player id.
    #[schema(value_type = String, format = "uuid")]
    id: PlayerId,
    /// The name others see.
    display_name: String,
}

/// A player's hands, newest first.
#[utoipa::path(
    get,
    path = "/api/players/{player}/history",
    params(("player" = String, Path, format = "uuid", description = "player id"), PageQuery),
    responses(
        (status = 200, description = "the page of the player's hands, newest first (none for a player who finished none, or who is not known)", body = Vec<HistoryRow>),
        (status = 400, description = "`bad_request`: `player` is not a player id, or `offset` or `limit` is not a number in its range", body = ErrorBody),
        UnavailableErrors,
    )
)]
pub(super) async fn history(
    State(state): State<AppState>,
    Path(player): Path<String>,
    Query(query): Query<PageQuery>,
) -> Result<Json<Vec<HistoryRow>>, ApiError> {
    let player = PlayerId::parse(&player).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let page = page(query.offset, query.limit)?;
    let rows = state.store.player_history(&player, page).await?;
    Ok(Json(
        rows.into_iter()
            .map(|h| HistoryRow {
                table: h.table,
                hand_no: h.hand_no,
                ruleset: h.ruleset,
                seat: h.seat,
                delta: h.delta,
                ending: h.ending,
                finished_ms: h.finished.0,
            })
            .collect(),
    ))
}

/// The escapes (逃跑) recorded against a player, oldest first, with the ruleset's penalty
/// (0 where the rules set none).
#[utoipa::path(
    get,
    path = "/api/players/{player}/escapes",
    params(("player" = String, Path, format = "uuid", description = "player id")),
    responses(
        (status = 200, description = "the player's escapes, oldest first (none for a player who never escaped, or who is not known)", body = Vec<EscapeRow>),
        (status = 400, description = "`bad_request`: `player` is not a player id", body = ErrorBody),
        UnavailableErrors,
    )
)]
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
    /// The table.
    #[schema(value_type = String, format = "uuid")]
    table: TableId,
    /// The hand it happened in.
    hand_no: u64,
    /// The penalty recorded (subtracted in score leaderboards).
    points: i64,
}

/// One hand of a player's history.
#[derive(Serialize, ToSchema)]
pub(super) struct HistoryRow {
    /// The table.
    #[schema(value_type = String, format = "uuid")]
    table: TableId,
    /// The hand's number at its table, from 0.
    hand_no: u64,
    /// The ruleset preset id.
    ruleset: String,
    /// The player's seat.
    seat: u8,
    /// The player's score change.
    delta: i64,
    /// How the hand ended: `self_draw`, `discard`, `multi_win` or `drawn`.
    ending: String,
    /// When the hand finished, in Unix milliseconds.
    finished_ms: i64,
}

/// One row of a leaderboard.
#[derive(Serialize, ToSchema)]
pub(super) struct BoardRow {
    /// 1 for the best; equal values share a rank.
    rank: u64,
    /// The player.
    #[schema(value_type = String, format = "uuid")]
    player: PlayerId,
    /// The name others see.
    display_name: String,
    /// Total score in the period, escape penalties subtracted.
    score: i64,
    /// Hands played in the period.
    hands: u64,
    /// The player's rating now.
    rating: f64,
}

/// A leaderboard's query.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct BoardQuery {
    /// The hands counted: `all` (default), this `month`'s (since the 1st, 00:00 UTC) or this
    /// `week`'s (since Monday, 00:00 UTC).
    #[serde(default)]
    #[param(inline)]
    period: PeriodName,
    /// What ranks: total `score` (default) or `rating`.
    #[serde(default)]
    #[param(inline)]
    by: RankingName,
    /// Rows to skip (default 0).
    #[serde(default)]
    #[param(default = 0)]
    pub(super) offset: u64,
    /// Rows to return: 1 to 200 (default 50). A value outside is refused (400), not clamped.
    #[serde(default = "default_limit")]
    #[param(minimum = 1, maximum = 200, default = 50)]
    pub(super) limit: u32,
}

/// A leaderboard's period, as a query names it.
#[derive(Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum PeriodName {
    /// Every hand.
    #[default]
    #[serde(alias = "all_time")]
    All,
    /// Since the first of this month, 00:00 UTC.
    Month,
    /// Since this Monday, 00:00 UTC.
    Week,
}

impl From<PeriodName> for Period {
    fn from(p: PeriodName) -> Period {
        match p {
            PeriodName::All => Period::AllTime,
            PeriodName::Month => Period::Month,
            PeriodName::Week => Period::Week,
        }
    }
}

/// What a leaderboard ranks by, as a query names it.
#[derive(Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum RankingName {
    /// Total score, escape penalties subtracted.
    #[default]
    Score,
    /// Rating.
    Rating,
}

impl From<RankingName> for Ranking {
    fn from(r: RankingName) -> Ranking {
        match r {
            RankingName::Score => Ranking::Score,
            RankingName::Rating => Ranking::Rating,
        }
    }
}

/// A ruleset's leaderboard over a period, by total score or by rating.
#[utoipa::path(
    get,
    path = "/api/leaderboards/{ruleset}",
    params(("ruleset" = RulesetName, Path, description = "ruleset preset id"), BoardQuery),
    responses(
        (status = 200, description = "the page of the leaderboard, best first", body = Vec<BoardRow>),
        (status = 400, description = "`bad_request`: an unknown ruleset, `period` or `by`, or `offset` or `limit` not a number in its range", body = ErrorBody),
        UnavailableErrors,
    )
)]
pub(super) async fn leaderboard(
    State(state): State<AppState>,
    Path(ruleset): Path<String>,
    Query(q): Query<BoardQuery>,
) -> Result<Json<Vec<BoardRow>>, ApiError> {
    let id: engine::RulesetId = ruleset
        .parse()
        .map_err(|e| ApiError::BadRequest(format!("{e}")))?;
    let page = page(q.offset, q.limit)?;
    let rows = state
        .store
        .leaderboard(
            &id.to_string(),
            q.period.into(),
            q.by.into(),
            page,
            UnixMillis::now(),
        )
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
