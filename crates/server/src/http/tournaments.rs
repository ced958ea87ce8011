//! Tournaments over HTTP: creating one, registering, starting rounds, and reading it whole
//! (entrants, rounds with their tables, live standings). Exports are in `tournament_exports`.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use engine::ruleset::{RawOptions, Ruleset};
use engine::stored::StoredOptions;
use serde::{Deserialize, Serialize};
use store::{PlayerId, TournamentId, TournamentRecord};
use utoipa::ToSchema;

use super::ErrorBody;
use super::doc::{
    InternalErrors, JsonBodyErrors, RateLimitErrors, RulesetName, SessionErrors, UnavailableErrors,
};
use super::records::{PageQuery, page};
use crate::AppState;
use crate::auth::Authed;
use crate::error::ApiError;
use crate::room::{self, Clock};
use crate::tournaments::config::{
    CONFIG_VERSION, PairingKind, Registration, Schedule, ScoringKind, TournamentConfig,
};
use crate::tournaments::rounds::{self, RoundError};
use crate::tournaments::standings::Results;

pub(super) fn tournament_id(raw: &str) -> Result<TournamentId, ApiError> {
    TournamentId::parse(raw).map_err(|e| ApiError::BadRequest(e.to_string()))
}

/// A tournament to create.
#[derive(Deserialize, ToSchema)]
pub(super) struct CreateTournament {
    /// Its name (1 to 80 characters, not all spaces).
    #[schema(min_length = 1, max_length = 80)]
    name: String,
    /// Ruleset preset id.
    #[schema(value_type = RulesetName)]
    ruleset: String,
    /// The ruleset's options, by name (`GET /api/rulesets`).
    #[serde(default)]
    #[schema(value_type = Object)]
    options: RawOptions,
    /// Rounds (1 to 20).
    #[schema(minimum = 1, maximum = 20)]
    rounds: u32,
    /// Hands each table plays in a round (1 to 64); by default the ruleset's match length
    /// (Guobiao: 16), else 8.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 64)]
    hands: Option<u64>,
    /// Seconds for each decision (3 to 300).
    #[serde(default = "default_action_seconds")]
    #[schema(minimum = 3, maximum = 300, default = 20)]
    action_seconds: u64,
    /// Seconds of bank per seat and hand (0 to 600).
    #[serde(default = "default_bank_seconds")]
    #[schema(maximum = 600, default = 20)]
    time_bank_seconds: u64,
    /// Seconds every claim window stays open (1 to 15); by default the server's.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 15)]
    claim_window_seconds: Option<u64>,
    /// How rounds after the first are paired.
    #[serde(default)]
    pairing: PairingKind,
    /// How tables score; by default places, 4/2/1/0 (one entry per seat).
    #[serde(default)]
    scoring: Option<ScoringKind>,
    /// Competition points off for each escape (0 to 1000).
    #[serde(default)]
    #[schema(maximum = 1000, default = 0)]
    escape_penalty: i64,
    /// Whether the tables of a group are dealt the same walls (复式).
    #[serde(default)]
    duplicate: bool,
    /// `code` (players register with the tournament's code) or `list` (the organiser
    /// registers them).
    #[serde(default)]
    registration: Registration,
    /// When rounds start by themselves; without it the organiser starts each round.
    #[serde(default)]
    schedule: Option<Schedule>,
}

fn default_action_seconds() -> u64 {
    Clock::DEFAULT.action_ms / 1000
}
fn default_bank_seconds() -> u64 {
    Clock::DEFAULT.bank_ms / 1000
}

impl CreateTournament {
    /// The settings document, every value checked.
    fn config(&self, ruleset: &Ruleset, claim_ms: u64) -> Result<TournamentConfig, ApiError> {
        let bad = |m: String| Err(ApiError::BadRequest(m));
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > 80 {
            return bad("the name must be 1 to 80 characters".into());
        }
        if !(1..=20).contains(&self.rounds) {
            return bad(format!("rounds must be 1 to 20, not {}", self.rounds));
        }
        let hands = self.hands.unwrap_or_else(|| room::default_hands(ruleset));
        if !(1..=64).contains(&hands) {
            return bad(format!("hands must be 1 to 64, not {hands}"));
        }
        if !(3..=300).contains(&self.action_seconds) || self.time_bank_seconds > 600 {
            return bad("action_seconds must be 3 to 300 and time_bank_seconds 0 to 600".into());
        }
        if self
            .claim_window_seconds
            .is_some_and(|s| !(1..=15).contains(&s))
        {
            return bad("claim_window_seconds must be 1 to 15".into());
        }
        if !(0..=1000).contains(&self.escape_penalty) {
            return bad("escape_penalty must be 0 to 1000".into());
        }
        let seats = usize::from(ruleset.rules().flow().players);
        let scoring = self.scoring.clone().unwrap_or_else(|| ScoringKind::Places {
            points: [4, 2, 1, 0][..seats.min(4)].to_vec(),
        });
        if let ScoringKind::Places { points } = &scoring
            && (points.len() != seats || points.iter().any(|p| p.abs() > 1000))
        {
            return bad(format!(
                "places scoring gives one number (-1000 to 1000) per seat: {seats} for this ruleset"
            ));
        }
        if let Some(s) = self.schedule
            && (s.round_gap_ms < 0 || s.first_round_at_ms < 0)
        {
            return bad("a schedule's times must not be negative".into());
        }
        Ok(TournamentConfig {
            version: CONFIG_VERSION,
            options: StoredOptions::from(&self.options),
            hands,
            clock: Clock {
                action_ms: self.action_seconds * 1000,
                bank_ms: self.time_bank_seconds * 1000,
                claim_ms: self.claim_window_seconds.map_or(claim_ms, |s| s * 1000),
            },
            pairing: self.pairing,
            scoring,
            escape_penalty: self.escape_penalty,
            duplicate: self.duplicate,
            registration: self.registration,
            schedule: self.schedule,
        })
    }
}

/// A tournament as the API shows it.
#[derive(Serialize, ToSchema)]
pub(super) struct TournamentOut {
    #[schema(value_type = String, format = "uuid")]
    id: TournamentId,
    name: String,
    /// Ruleset preset id.
    ruleset: String,
    /// `registering`, `playing` or `finished`.
    status: String,
    /// The organiser.
    #[schema(value_type = String, format = "uuid")]
    organiser: PlayerId,
    /// Rounds in all.
    rounds: u32,
    /// Rounds started so far.
    rounds_started: u32,
    /// The registration code: shown to the organiser only.
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<String>,
    /// Hands each table plays in a round.
    hands: u64,
    /// Pairing of later rounds.
    pairing: PairingKind,
    /// Scoring.
    scoring: ScoringKind,
    /// Competition points off per escape.
    escape_penalty: i64,
    /// Duplicate deals (复式).
    duplicate: bool,
    /// How players register.
    registration: Registration,
    /// When rounds start by themselves.
    #[serde(skip_serializing_if = "Option::is_none")]
    schedule: Option<Schedule>,
    /// Thinking time: milliseconds per decision.
    action_ms: u64,
    /// Created, in Unix milliseconds.
    created_ms: i64,
}

impl TournamentOut {
    pub(super) fn of(
        t: &TournamentRecord,
        viewer: Option<&PlayerId>,
    ) -> Result<TournamentOut, ApiError> {
        let c = TournamentConfig::read(&t.config).map_err(ApiError::Internal)?;
        Ok(TournamentOut {
            id: t.id.clone(),
            name: t.name.clone(),
            ruleset: t.ruleset.clone(),
            status: t.status.as_str().into(),
            organiser: t.organiser.clone(),
            rounds: t.rounds,
            rounds_started: t.rounds_started,
            code: (viewer == Some(&t.organiser)).then(|| t.code.clone()),
            hands: c.hands,
            pairing: c.pairing,
            scoring: c.scoring,
            escape_penalty: c.escape_penalty,
            duplicate: c.duplicate,
            registration: c.registration,
            schedule: c.schedule,
            action_ms: c.clock.action_ms,
            created_ms: t.created.0,
        })
    }
}

/// Creates a tournament; its creator is the organiser.
#[utoipa::path(
    post,
    path = "/api/tournaments",
    request_body = CreateTournament,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "the tournament, open for registration, with its code", body = TournamentOut),
        (status = 400, description = "`bad_request`: an unknown ruleset or option, a value out of its range, places scoring without one number per seat; or the body is not JSON", body = ErrorBody),
        JsonBodyErrors,
        SessionErrors,
        RateLimitErrors,
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn create_tournament(
    State(state): State<AppState>,
    authed: Authed,
    Json(body): Json<CreateTournament>,
) -> Result<(StatusCode, Json<TournamentOut>), ApiError> {
    let id = body
        .ruleset
        .parse()
        .map_err(|e| ApiError::BadRequest(format!("{e}")))?;
    let ruleset =
        Ruleset::new(id, &body.options).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let config = body.config(&ruleset, state.timing.claim_window_ms)?;
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).map_err(|e| ApiError::Internal(format!("randomness: {e}")))?;
    for _ in 0..20 {
        let new = store::NewTournament {
            name: body.name.trim().into(),
            organiser: authed.player.clone(),
            ruleset: ruleset.id().to_string(),
            config: serde_json::to_value(&config).map_err(|e| ApiError::Internal(e.to_string()))?,
            code: state.new_code().await?,
            secret: crate::auth::hex(&secret),
            rounds: body.rounds,
        };
        match state.store.create_tournament(&new).await {
            Ok(t) => {
                return Ok((
                    StatusCode::CREATED,
                    Json(TournamentOut::of(&t, Some(&authed.player))?),
                ));
            }
            Err(store::StoreError::CodeTaken(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::Internal("no free tournament code".into()))
}

/// Tournaments, newest first.
#[utoipa::path(
    get,
    path = "/api/tournaments",
    params(PageQuery),
    responses(
        (status = 200, description = "a page of tournaments, newest first", body = Vec<TournamentOut>),
        (status = 400, description = "`bad_request`: `limit` outside 1 to 200, or `offset` too large", body = ErrorBody),
        UnavailableErrors,
    )
)]
pub(super) async fn list_tournaments(
    State(state): State<AppState>,
    Query(q): Query<PageQuery>,
) -> Result<Json<Vec<TournamentOut>>, ApiError> {
    let list = state.store.tournaments(page(q.offset, q.limit)?).await?;
    Ok(Json(
        list.iter()
            .map(|t| TournamentOut::of(t, None))
            .collect::<Result<_, _>>()?,
    ))
}

/// A registered player.
#[derive(Serialize, ToSchema)]
pub(super) struct EntrantOut {
    /// Registration number, from 0.
    entrant: u32,
    #[schema(value_type = String, format = "uuid")]
    player: PlayerId,
    display_name: String,
}

/// A seat of a round's table.
#[derive(Serialize, ToSchema)]
pub(super) struct RoundSeatOut {
    /// The entrant (null: a bot, never ranked).
    #[schema(required = true)]
    entrant: Option<u32>,
    /// Who (null for a bot).
    #[schema(value_type = Option<String>, format = "uuid", required = true)]
    player: Option<PlayerId>,
    /// Their name, or the bot's.
    display_name: String,
    /// The seat's total at the table so far.
    score: i64,
}

/// A table of a round.
#[derive(Serialize, ToSchema)]
pub(super) struct RoundTableOut {
    /// Its number in the round, from 0.
    table_no: u32,
    /// Its duplicate group.
    group: u32,
    /// The game table (`/ws/tables/{table}`).
    #[schema(value_type = String, format = "uuid")]
    table: store::TableId,
    /// `playing`, `finished` or `closed`.
    status: String,
    /// Hands finished there.
    hands_played: u64,
    /// Its seats, East first.
    seats: Vec<RoundSeatOut>,
}

/// A round.
#[derive(Serialize, ToSchema)]
pub(super) struct RoundOut {
    /// From 1.
    round: u32,
    started_ms: i64,
    /// When its last table closed.
    #[schema(required = true)]
    ended_ms: Option<i64>,
    tables: Vec<RoundTableOut>,
}

/// One line of the standings.
#[derive(Serialize, ToSchema)]
pub(super) struct StandingOut {
    /// 1 for the leaders; entrants equal on points, score and firsts share a rank.
    pub(super) rank: u32,
    pub(super) entrant: u32,
    #[schema(value_type = String, format = "uuid")]
    pub(super) player: PlayerId,
    pub(super) display_name: String,
    /// Competition points (exact to 1/12; escape penalties taken off).
    pub(super) points: f64,
    /// Raw score over every table.
    pub(super) score: i64,
    /// Tables placed first (shared firsts included).
    pub(super) firsts: u32,
    /// Tables played.
    pub(super) tables: u32,
    /// Escapes.
    pub(super) escapes: u32,
}

/// A tournament whole: settings, entrants, rounds and their tables, live standings.
#[derive(Serialize, ToSchema)]
pub(super) struct TournamentDetail {
    #[serde(flatten)]
    tournament: TournamentOut,
    entrants: Vec<EntrantOut>,
    /// The rounds started, in order, with their tables.
    round_list: Vec<RoundOut>,
    standings: Vec<StandingOut>,
}

pub(super) fn standings_out(results: &Results, config: &TournamentConfig) -> Vec<StandingOut> {
    results
        .standings(config)
        .into_iter()
        .filter_map(|s| {
            let e = results.entrants.iter().find(|e| e.entrant == s.entrant.0)?;
            Some(StandingOut {
                rank: s.rank,
                entrant: s.entrant.0,
                player: e.player.clone(),
                display_name: e.display_name.clone(),
                points: s.points.as_f64(),
                score: s.score,
                firsts: s.firsts,
                tables: s.tables,
                escapes: s.escapes,
            })
        })
        .collect()
}

/// A tournament: its settings, entrants, rounds with their tables, and the standings (live
/// during a round).
#[utoipa::path(
    get,
    path = "/api/tournaments/{tournament}",
    params(("tournament" = String, Path, format = "uuid", description = "tournament id")),
    responses(
        (status = 200, description = "the tournament (its code only to the organiser, with a session)", body = TournamentDetail),
        (status = 400, description = "`bad_request`: `tournament` is not an id", body = ErrorBody),
        (status = 404, description = "`not_found`: no such tournament", body = ErrorBody),
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn tournament(
    State(state): State<AppState>,
    viewer: Option<Authed>,
    Path(id): Path<String>,
) -> Result<Json<TournamentDetail>, ApiError> {
    let t = state.store.tournament(&tournament_id(&id)?).await?;
    let config = TournamentConfig::read(&t.config).map_err(ApiError::Internal)?;
    let results = Results::load(&state.store, &t).await?;
    let seat_totals = results.table_results();
    let ended: Vec<store::RoundRecord> = state.store.rounds(&t.id).await?;
    let rounds = ended
        .iter()
        .map(|r| RoundOut {
            round: r.round,
            started_ms: r.started.0,
            ended_ms: r.ended.map(|e| e.0),
            tables: results
                .tables
                .iter()
                .zip(&seat_totals)
                .filter(|(t, _)| t.round == r.round)
                .map(|(t, totals)| RoundTableOut {
                    table_no: t.table_no,
                    group: t.group,
                    table: t.table.clone(),
                    status: t.status.as_str().into(),
                    hands_played: t.hands_played,
                    seats: t
                        .seats
                        .iter()
                        .zip(totals)
                        .map(|(s, total)| {
                            let e =
                                s.and_then(|s| results.entrants.iter().find(|e| e.entrant == s));
                            RoundSeatOut {
                                entrant: *s,
                                player: e.map(|e| e.player.clone()),
                                display_name: e
                                    .map_or_else(|| "bot".into(), |e| e.display_name.clone()),
                                score: total.score,
                            }
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    Ok(Json(TournamentDetail {
        tournament: TournamentOut::of(&t, viewer.as_ref().map(|a| &a.player))?,
        entrants: results
            .entrants
            .iter()
            .map(|e| EntrantOut {
                entrant: e.entrant,
                player: e.player.clone(),
                display_name: e.display_name.clone(),
            })
            .collect(),
        standings: standings_out(&results, &config),
        round_list: rounds,
    }))
}

/// A registration: `{"code"}` registers oneself with the tournament's code; `{"players"}`
/// (the organiser only) registers players by id.
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
pub(super) enum Register {
    /// Oneself, with the tournament's code.
    Code {
        /// The tournament's code.
        code: String,
    },
    /// Players by id (the organiser only; at most 512).
    Players {
        /// Their ids.
        #[schema(value_type = Vec<String>, max_items = 512)]
        players: Vec<String>,
    },
}

/// Registers players; a player registered already keeps their number.
#[utoipa::path(
    post,
    path = "/api/tournaments/{tournament}/entrants",
    params(("tournament" = String, Path, format = "uuid", description = "tournament id")),
    request_body = Register,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "everyone registered now, in registration order", body = Vec<EntrantOut>),
        (status = 400, description = "`bad_request`: `tournament` or a player is not an id, or `players` empty or longer than 512; or the body is not JSON", body = ErrorBody),
        (status = 403, description = "`forbidden`: a wrong code, registration by list and not the organiser, or players registered by someone else than the organiser", body = ErrorBody),
        (status = 404, description = "`not_found`: no such tournament or player", body = ErrorBody),
        (status = 409, description = "`conflict`: registration closed with the first round", body = ErrorBody),
        JsonBodyErrors,
        SessionErrors,
        RateLimitErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn register(
    State(state): State<AppState>,
    authed: Authed,
    Path(id): Path<String>,
    Json(body): Json<Register>,
) -> Result<Json<Vec<EntrantOut>>, ApiError> {
    let id = tournament_id(&id)?;
    let t = state.store.tournament(&id).await?;
    let config = TournamentConfig::read(&t.config).map_err(ApiError::Internal)?;
    let organiser = authed.player == t.organiser;
    let who: Vec<PlayerId> = match &body {
        Register::Players { players } => {
            if players.is_empty() || players.len() > 512 {
                return Err(ApiError::BadRequest("give 1 to 512 players".into()));
            }
            let players = players
                .iter()
                .map(|p| PlayerId::parse(p).map_err(|e| ApiError::BadRequest(e.to_string())))
                .collect::<Result<Vec<_>, _>>()?;
            if !organiser {
                return Err(ApiError::Forbidden(
                    "only the organiser registers other players".into(),
                ));
            }
            players
        }
        Register::Code { code } => {
            if config.registration == Registration::List && !organiser {
                return Err(ApiError::Forbidden(
                    "this tournament registers its players by the organiser's list".into(),
                ));
            }
            if !code.trim().eq_ignore_ascii_case(&t.code) {
                return Err(ApiError::Forbidden(
                    "that is not this tournament's code".into(),
                ));
            }
            vec![authed.player.clone()]
        }
    };
    for p in &who {
        state.store.register_entrant(&id, p).await?;
    }
    let all = state.store.entrants(&id).await?;
    Ok(Json(
        all.into_iter()
            .map(|e| EntrantOut {
                entrant: e.entrant,
                player: e.player,
                display_name: e.display_name,
            })
            .collect(),
    ))
}

/// Starts the next round (the organiser only): every entrant seated, bots filling short
/// tables, every table opened together.
#[utoipa::path(
    post,
    path = "/api/tournaments/{tournament}/rounds",
    params(("tournament" = String, Path, format = "uuid", description = "tournament id")),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "the round's tables", body = Vec<RoundTableOut>),
        (status = 400, description = "`bad_request`: `tournament` is not an id", body = ErrorBody),
        (status = 403, description = "`forbidden`: not the organiser", body = ErrorBody),
        (status = 404, description = "`not_found`: no such tournament", body = ErrorBody),
        (status = 409, description = "`conflict`: nobody registered, the round before still plays, every round has started, or another start of this round came first", body = ErrorBody),
        SessionErrors,
        RateLimitErrors,
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn start_round(
    State(state): State<AppState>,
    authed: Authed,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<Vec<RoundTableOut>>), ApiError> {
    let t = state.store.tournament(&tournament_id(&id)?).await?;
    if authed.player != t.organiser {
        return Err(ApiError::Forbidden(
            "only the organiser starts rounds".into(),
        ));
    }
    let started = rounds::start_next_round(&state, &t)
        .await
        .map_err(|e| match e {
            RoundError::Store(e @ store::StoreError::RoundRefused { .. }) => {
                ApiError::Conflict(e.to_string())
            }
            RoundError::Store(e) => ApiError::Store(e),
            e @ (RoundError::NoEntrants | RoundError::Unfinished(_) | RoundError::NoneLeft(_)) => {
                ApiError::Conflict(e.to_string())
            }
            e => ApiError::Internal(e.to_string()),
        })?;
    let entrants = state.store.entrants(&t.id).await?;
    Ok((
        StatusCode::CREATED,
        Json(
            started
                .into_iter()
                .map(|t| RoundTableOut {
                    table_no: t.table_no,
                    group: t.group,
                    status: t.status.as_str().into(),
                    hands_played: t.hands_played,
                    seats: t
                        .seats
                        .iter()
                        .map(|s| {
                            let e = s.and_then(|s| entrants.iter().find(|e| e.entrant == s));
                            RoundSeatOut {
                                entrant: *s,
                                player: e.map(|e| e.player.clone()),
                                display_name: e
                                    .map_or_else(|| "bot".into(), |e| e.display_name.clone()),
                                score: 0,
                            }
                        })
                        .collect(),
                    table: t.table,
                })
                .collect(),
        ),
    ))
}
