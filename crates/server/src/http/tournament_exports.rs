//! A tournament's exports (standings and every hand, as JSON or CSV, each hand linked to its
//! replay) and a player's tournaments.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use store::{PlayerId, TableId};
use utoipa::ToSchema;

use super::ErrorBody;
use super::doc::{InternalErrors, UnavailableErrors};
use super::tournaments::{StandingOut, TournamentOut, standings_out, tournament_id};
use crate::AppState;
use crate::error::ApiError;
use crate::tournaments::config::TournamentConfig;
use crate::tournaments::standings::Results;

/// The format an export is asked in.
#[derive(Clone, Copy, Default, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(super) enum Format {
    /// JSON (default).
    #[default]
    Json,
    /// CSV (RFC 4180, a header line first).
    Csv,
}

/// `?format=`.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct FormatQuery {
    /// `json` (default) or `csv`.
    #[serde(default)]
    #[param(inline)]
    format: Format,
}

/// One field of a CSV line, quoted when it must be.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> Response {
    let mut out = header.join(",");
    out.push_str("\r\n");
    for row in rows {
        out.push_str(&row.iter().map(|f| field(f)).collect::<Vec<_>>().join(","));
        out.push_str("\r\n");
    }
    ([(header::CONTENT_TYPE, "text/csv; charset=utf-8")], out).into_response()
}

/// The standings, live during a round.
#[utoipa::path(
    get,
    path = "/api/tournaments/{tournament}/standings",
    params(("tournament" = String, Path, format = "uuid", description = "tournament id"), FormatQuery),
    responses(
        (status = 200, description = "the standings, leaders first", content(
            (Vec<StandingOut> = "application/json"),
            (String = "text/csv"),
        )),
        (status = 400, description = "`bad_request`: `tournament` is not an id, or `format` is neither `json` nor `csv`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such tournament", body = ErrorBody),
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn standings(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<FormatQuery>,
) -> Result<Response, ApiError> {
    let t = state.store.tournament(&tournament_id(&id)?).await?;
    let config = TournamentConfig::read(&t.config).map_err(ApiError::Internal)?;
    let rows = standings_out(&Results::load(&state.store, &t).await?, &config);
    Ok(match q.format {
        Format::Json => Json(rows).into_response(),
        Format::Csv => csv(
            &[
                "rank", "entrant", "player", "name", "points", "score", "firsts", "tables",
                "escapes",
            ],
            rows.into_iter().map(|r| {
                vec![
                    r.rank.to_string(),
                    r.entrant.to_string(),
                    r.player.to_string(),
                    r.display_name,
                    tournament::scoring::Points::from_twelfths((r.points * 12.0).round() as i64)
                        .to_string(),
                    r.score.to_string(),
                    r.firsts.to_string(),
                    r.tables.to_string(),
                    r.escapes.to_string(),
                ]
            }),
        ),
    })
}

/// One seat of an exported hand.
#[derive(Serialize, ToSchema)]
pub(super) struct HandSeatOut {
    /// The seat, from 0.
    seat: u8,
    /// Its wind in the hand (0 East, the dealer).
    wind: u8,
    /// The entrant (null: a bot).
    #[schema(required = true)]
    entrant: Option<u32>,
    /// The player (null: a bot).
    #[schema(value_type = Option<String>, format = "uuid", required = true)]
    player: Option<PlayerId>,
    /// The seat's score for the hand.
    delta: i64,
    /// Duplicate tournaments: how much better than the average of the group's seats that held
    /// the same tiles (same hand, same wind); 0 otherwise.
    duplicate_difference: f64,
}

/// One hand of the tournament.
#[derive(Serialize, ToSchema)]
pub(super) struct TournamentHandOut {
    round: u32,
    table_no: u32,
    group: u32,
    #[schema(value_type = String, format = "uuid")]
    table: TableId,
    /// The hand's number at its table, from 0.
    hand_no: u64,
    /// The seed (decimal); null while a duplicate round plays, revealed once it is over.
    #[schema(required = true)]
    seed: Option<String>,
    dealer: u8,
    /// `self_draw`, `discard`, `multi_win` or `drawn`.
    ending: String,
    finished_ms: i64,
    /// The hand's replay: `GET` it for the record, or `…/stream` for every seat's messages.
    replay: String,
    seats: Vec<HandSeatOut>,
}

/// Every finished hand of the tournament, by round, table and hand, each linked to its replay.
/// A duplicate round's seeds are revealed once the round is over.
#[utoipa::path(
    get,
    path = "/api/tournaments/{tournament}/hands",
    params(("tournament" = String, Path, format = "uuid", description = "tournament id"), FormatQuery),
    responses(
        (status = 200, description = "the hands (CSV: a line per seat of each hand)", content(
            (Vec<TournamentHandOut> = "application/json"),
            (String = "text/csv"),
        )),
        (status = 400, description = "`bad_request`: `tournament` is not an id, or `format` is neither `json` nor `csv`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such tournament", body = ErrorBody),
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn hands(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<FormatQuery>,
) -> Result<Response, ApiError> {
    let t = state.store.tournament(&tournament_id(&id)?).await?;
    let config = TournamentConfig::read(&t.config).map_err(ApiError::Internal)?;
    let results = Results::load(&state.store, &t).await?;
    let ended: Vec<u32> = state
        .store
        .rounds(&t.id)
        .await?
        .iter()
        .filter(|r| r.ended.is_some())
        .map(|r| r.round)
        .collect();
    let players = results
        .hands
        .first()
        .map_or(4, |h| u8::try_from(h.deltas.len()).unwrap_or(4));
    let diffs = if config.duplicate {
        results.duplicate_differences(players)
    } else {
        results
            .hands
            .iter()
            .map(|h| vec![0; h.deltas.len()])
            .collect()
    };
    let out: Vec<TournamentHandOut> = results
        .hands
        .iter()
        .zip(diffs)
        .map(|(h, diff)| {
            let seating = results.tables.iter().find(|t| t.table == h.table);
            TournamentHandOut {
                round: h.round,
                table_no: h.table_no,
                group: h.group,
                table: h.table.clone(),
                hand_no: h.hand_no,
                seed: (!config.duplicate || ended.contains(&h.round)).then(|| h.seed.to_string()),
                dealer: h.dealer,
                ending: h.ending.clone(),
                finished_ms: h.finished.0,
                replay: format!("/api/tables/{}/hands/{}", h.table, h.hand_no),
                seats: h
                    .deltas
                    .iter()
                    .zip(diff)
                    .enumerate()
                    .map(|(seat, (&delta, d))| {
                        let entrant = seating.and_then(|t| t.seats.get(seat).copied().flatten());
                        HandSeatOut {
                            seat: seat as u8,
                            wind: ((seat + usize::from(players) - usize::from(h.dealer))
                                % usize::from(players.max(1)))
                                as u8,
                            entrant,
                            player: entrant.and_then(|e| {
                                results
                                    .entrants
                                    .iter()
                                    .find(|x| x.entrant == e)
                                    .map(|x| x.player.clone())
                            }),
                            delta,
                            duplicate_difference: d as f64 / 100.0,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(match q.format {
        Format::Json => Json(out).into_response(),
        Format::Csv => csv(
            &[
                "round",
                "table_no",
                "group",
                "table",
                "hand_no",
                "seed",
                "dealer",
                "ending",
                "finished_ms",
                "seat",
                "wind",
                "entrant",
                "player",
                "delta",
                "duplicate_difference",
                "replay",
            ],
            out.into_iter().flat_map(|h| {
                h.seats
                    .iter()
                    .map(|s| {
                        vec![
                            h.round.to_string(),
                            h.table_no.to_string(),
                            h.group.to_string(),
                            h.table.to_string(),
                            h.hand_no.to_string(),
                            h.seed.clone().unwrap_or_default(),
                            h.dealer.to_string(),
                            h.ending.clone(),
                            h.finished_ms.to_string(),
                            s.seat.to_string(),
                            s.wind.to_string(),
                            s.entrant.map(|e| e.to_string()).unwrap_or_default(),
                            s.player.as_ref().map(|p| p.to_string()).unwrap_or_default(),
                            s.delta.to_string(),
                            format!("{:.2}", s.duplicate_difference),
                            h.replay.clone(),
                        ]
                    })
                    .collect::<Vec<_>>()
            }),
        ),
    })
}

/// A player's tournament: the tournament and where they stand in it.
#[derive(Serialize, ToSchema)]
pub(super) struct PlayerTournamentOut {
    tournament: TournamentOut,
    /// Their line of the standings (null before their first table).
    #[schema(required = true)]
    standing: Option<StandingOut>,
    /// Entrants in all.
    entrants: u32,
}

/// The tournaments a player registered for, newest first, with their standing in each.
#[utoipa::path(
    get,
    path = "/api/players/{player}/tournaments",
    params(("player" = String, Path, format = "uuid", description = "player id")),
    responses(
        (status = 200, description = "their tournaments, newest first", body = Vec<PlayerTournamentOut>),
        (status = 400, description = "`bad_request`: `player` is not an id", body = ErrorBody),
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn player_tournaments(
    State(state): State<AppState>,
    Path(player): Path<String>,
) -> Result<Json<Vec<PlayerTournamentOut>>, ApiError> {
    let player = PlayerId::parse(&player).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let mut out = Vec::new();
    for t in state.store.player_tournaments(&player).await? {
        let config = TournamentConfig::read(&t.config).map_err(ApiError::Internal)?;
        let results = Results::load(&state.store, &t).await?;
        let standing = standings_out(&results, &config)
            .into_iter()
            .find(|s| s.player == player && s.tables > 0);
        out.push(PlayerTournamentOut {
            tournament: TournamentOut::of(&t, None)?,
            standing,
            entrants: results.entrants.len() as u32,
        });
    }
    Ok(Json(out))
}

/// `?ruleset=`.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct RankingQuery {
    /// Only the tournaments of this preset (default: every preset).
    #[serde(default)]
    #[param(value_type = Option<super::doc::RulesetName>)]
    ruleset: Option<String>,
}

/// One player's line of the ranking across tournaments.
#[derive(Serialize, ToSchema)]
pub(super) struct RankingOut {
    /// 1 for the best; players equal on wins, podiums and mean placing share a rank.
    rank: u32,
    #[schema(value_type = String, format = "uuid")]
    player: PlayerId,
    display_name: String,
    /// Finished tournaments played.
    tournaments: u32,
    /// Won (ranked first, shared firsts included).
    wins: u32,
    /// Ranked third or better.
    podiums: u32,
    /// The mean of (entrants − rank) / (entrants − 1) over their tournaments: 1 for always
    /// first, 0 for always last (a tournament of one counts 1).
    mean_placing: f64,
}

/// A ranking across finished tournaments: players by wins, then podiums, then mean placing.
#[utoipa::path(
    get,
    path = "/api/rankings/tournaments",
    params(RankingQuery),
    responses(
        (status = 200, description = "every player of a finished tournament, best first", body = Vec<RankingOut>),
        (status = 400, description = "`bad_request`: `ruleset` is not a preset id", body = ErrorBody),
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn tournament_ranking(
    State(state): State<AppState>,
    Query(q): Query<RankingQuery>,
) -> Result<Json<Vec<RankingOut>>, ApiError> {
    if let Some(r) = &q.ruleset {
        r.parse::<engine::RulesetId>()
            .map_err(|e| ApiError::BadRequest(format!("{e}")))?;
    }
    // Per player: name, tournaments, wins, podiums, sum of placings.
    let mut rows: std::collections::BTreeMap<PlayerId, (String, u32, u32, u32, f64)> =
        std::collections::BTreeMap::new();
    for t in state
        .store
        .finished_tournaments(q.ruleset.as_deref())
        .await?
    {
        let config = TournamentConfig::read(&t.config).map_err(ApiError::Internal)?;
        let standings = standings_out(&Results::load(&state.store, &t).await?, &config);
        let n = standings.len() as f64;
        for s in standings {
            let row = rows
                .entry(s.player.clone())
                .or_insert_with(|| (s.display_name.clone(), 0, 0, 0, 0.0));
            row.1 += 1;
            row.2 += u32::from(s.rank == 1);
            row.3 += u32::from(s.rank <= 3);
            row.4 += if n > 1.0 {
                (n - f64::from(s.rank)) / (n - 1.0)
            } else {
                1.0
            };
        }
    }
    let mut out: Vec<RankingOut> = rows
        .into_iter()
        .map(
            |(player, (display_name, tournaments, wins, podiums, placings))| RankingOut {
                rank: 0,
                player,
                display_name,
                tournaments,
                wins,
                podiums,
                mean_placing: placings / f64::from(tournaments.max(1)),
            },
        )
        .collect();
    let key = |r: &RankingOut| (r.wins, r.podiums, (r.mean_placing * 1e9).round() as i64);
    out.sort_by_key(|r| std::cmp::Reverse(key(r)));
    for i in 0..out.len() {
        out[i].rank = if i > 0 && key(&out[i]) == key(&out[i - 1]) {
            out[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    Ok(Json(out))
}
