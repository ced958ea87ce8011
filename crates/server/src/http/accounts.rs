//! Guests and sessions.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use store::{PlayerId, UnixMillis};
use utoipa::ToSchema;

use super::ErrorBody;
use super::doc::{
    InternalErrors, JsonBodyErrors, RateLimitErrors, SessionErrors, UnavailableErrors,
};
use crate::AppState;
use crate::auth::{Authed, new_token};
use crate::error::ApiError;

#[derive(Deserialize, ToSchema)]
pub(super) struct SignUp {
    /// The name others see: 1 to 24 characters once surrounding spaces are trimmed, without
    /// control characters.
    #[schema(min_length = 1, max_length = 24)]
    display_name: String,
}

/// A session: who it signs in, and its token.
#[derive(Serialize, ToSchema)]
pub(super) struct SignedIn {
    /// The player's id.
    #[schema(value_type = String, format = "uuid")]
    player: PlayerId,
    /// The name others see, trimmed.
    display_name: String,
    /// The session token (64 hex digits): send it as `Authorization: Bearer <token>`.
    token: String,
    /// When the token stops working, in Unix milliseconds.
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
#[utoipa::path(
    post,
    path = "/api/guests",
    request_body = SignUp,
    responses(
        (status = 201, description = "signed up, with a fresh session", body = SignedIn),
        (status = 400, description = "`bad_request`: `display_name` is empty or over 24 characters once trimmed, or holds a control character; or the body is not JSON", body = ErrorBody),
        JsonBodyErrors,
        RateLimitErrors,
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn sign_up(
    State(state): State<AppState>,
    Json(body): Json<SignUp>,
) -> Result<(StatusCode, Json<SignedIn>), ApiError> {
    let name = display_name(&body.display_name)?;
    let player = state.store.create_player(&name).await?;
    Ok((
        StatusCode::CREATED,
        Json(issue_session(&state, player).await?),
    ))
}

/// A fresh token for `player`, stored (hashed) with the server's session lifetime.
async fn issue_session(state: &AppState, player: store::Player) -> Result<SignedIn, ApiError> {
    let (token, hash) = new_token()?;
    let seconds = i64::try_from(state.config.session_seconds).unwrap_or(i64::MAX / 1000);
    let expires = UnixMillis::now().plus_ms(seconds.saturating_mul(1000));
    state
        .store
        .create_session(&hash, &player.id, expires)
        .await?;
    Ok(SignedIn {
        player: player.id,
        display_name: player.display_name,
        token,
        expires_ms: expires.0,
    })
}

/// Signs in again with a valid token: a fresh token is issued with a new expiry and the old one
/// stops working (guests keep their account by renewing before it expires).
#[utoipa::path(
    post,
    path = "/api/sessions",
    security(("bearer" = [])),
    responses(
        (status = 201, description = "a fresh session; the old token no longer works", body = SignedIn),
        SessionErrors,
        InternalErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn renew_session(
    State(state): State<AppState>,
    authed: Authed,
) -> Result<(StatusCode, Json<SignedIn>), ApiError> {
    let player = state.store.player(&authed.player).await?;
    let signed_in = issue_session(&state, player).await?;
    state.store.delete_session(&authed.token).await?;
    Ok((StatusCode::CREATED, Json(signed_in)))
}

/// Signs out: the token stops working.
#[utoipa::path(
    delete,
    path = "/api/sessions",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "signed out: the token no longer works, and the sockets opened with it close"),
        SessionErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn sign_out(
    State(state): State<AppState>,
    authed: Authed,
) -> Result<StatusCode, ApiError> {
    state.store.delete_session(&authed.token).await?;
    // Sockets opened with the token close too (nobody listening is fine).
    let _ = state.signed_out.send(authed.token);
    Ok(StatusCode::NO_CONTENT)
}

/// A player as the API shows one.
#[derive(Serialize, ToSchema)]
pub(super) struct PlayerOut {
    /// The player's id.
    #[schema(value_type = String, format = "uuid")]
    id: PlayerId,
    /// The name others see.
    display_name: String,
    /// When the player signed up, in Unix milliseconds.
    created_ms: i64,
}

/// The signed-in player.
#[utoipa::path(
    get,
    path = "/api/me",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "the player the token signs in", body = PlayerOut),
        SessionErrors,
        UnavailableErrors,
    )
)]
pub(super) async fn me(
    State(state): State<AppState>,
    authed: Authed,
) -> Result<Json<PlayerOut>, ApiError> {
    let p = state.store.player(&authed.player).await?;
    Ok(Json(PlayerOut {
        id: p.id,
        display_name: p.display_name,
        created_ms: p.created.0,
    }))
}
