//! Sessions: opaque random tokens, of which only the SHA-256 is stored.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use sha2::{Digest, Sha256};
use store::{PlayerId, TokenHash, UnixMillis};

use crate::AppState;
use crate::error::ApiError;

/// A fresh token (64 hex digits, 256 random bits) and its hash.
pub fn new_token() -> Result<(String, TokenHash), ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::Internal(format!("randomness: {e}")))?;
    let token = hex(&bytes);
    let hash = hash(&token);
    Ok((token, hash))
}

/// The stored form of a token.
pub fn hash(token: &str) -> TokenHash {
    TokenHash(Sha256::digest(token.as_bytes()).into())
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The player a token signs in, if it is valid now.
pub async fn player_of(state: &AppState, token: &str) -> Result<Option<PlayerId>, ApiError> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let session = state.store.session(&hash(token), UnixMillis::now()).await?;
    Ok(session.map(|s| s.player))
}

/// A request signed in with `Authorization: Bearer <token>`.
pub struct Authed {
    /// The player.
    pub player: PlayerId,
    /// The session's token hash (to end or renew it).
    pub token: TokenHash,
}

impl FromRequestParts<AppState> for Authed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Authed, ApiError> {
        let token = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or(ApiError::Unauthorized)?;
        let token = token.trim();
        let player = player_of(state, token)
            .await?
            .ok_or(ApiError::Unauthorized)?;
        Ok(Authed {
            player,
            token: hash(token),
        })
    }
}
