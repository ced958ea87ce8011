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
            .and_then(bearer_token)
            .ok_or(ApiError::Unauthorized)?;
        let player = player_of(state, token)
            .await?
            .ok_or(ApiError::Unauthorized)?;
        Ok(Authed {
            player,
            token: hash(token),
        })
    }
}

/// A request that may be signed in: what it shows depends on who asks (a tournament's code to
/// its organiser), and no session, or a stale one, only shows less.
impl axum::extract::OptionalFromRequestParts<AppState> for Authed {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Option<Authed>, ApiError> {
        match <Authed as FromRequestParts<AppState>>::from_request_parts(parts, state).await {
            Ok(a) => Ok(Some(a)),
            Err(ApiError::Unauthorized) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// The token of an `Authorization` value of the `Bearer` scheme. The scheme's name is matched
/// without regard to case, as HTTP's authentication schemes are (RFC 9110, 11.1), so a client
/// generated from the document's `http`/`bearer` scheme that writes `bearer` is understood.
fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim_start().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

#[cfg(test)]
mod tests {
    use super::bearer_token;

    #[test]
    fn the_bearer_scheme_is_matched_without_regard_to_case() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("bearer  abc "), Some("abc"));
        assert_eq!(bearer_token("BEARER abc"), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearerabc"), None);
        assert_eq!(bearer_token("Bearer"), None);
    }
}
