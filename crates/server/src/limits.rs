//! Limits a public server needs: the requests that create things (guest sign-ups, rooms, join
//! codes, quick matches) are rate-limited per client address, so that nobody mints accounts
//! or guesses join codes by the thousand (300 guesses in 0.2 s went through before); and open
//! WebSocket connections are capped, so a flood of sockets finds a clear refusal rather than a
//! server out of memory.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::AppState;
use crate::error::ApiError;

/// The per-address limiter of the requests that create things.
pub type Limiter = Arc<DefaultKeyedRateLimiter<IpAddr>>;

/// A limiter allowing `per_minute` requests a minute per address, all of them at once at most.
pub fn limiter(per_minute: u32) -> Limiter {
    let rate = NonZeroU32::new(per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
    Arc::new(DefaultKeyedRateLimiter::keyed(Quota::per_minute(rate)))
}

/// Whether a request is one the limiter counts: the requests that create a guest, a room, a
/// seat by code, a quick-match wait, a tournament, its registrations or a round's tables.
fn limited(method: &Method, path: &str) -> bool {
    let tournament_part = path
        .strip_prefix("/api/tournaments/")
        .is_some_and(|rest| rest.ends_with("/entrants") || rest.ends_with("/rounds"));
    method == Method::POST
        && (tournament_part
            || matches!(
                path,
                "/api/guests"
                    | "/api/rooms"
                    | "/api/rooms/join"
                    | "/api/quickmatch"
                    | "/api/tournaments"
            ))
}

/// The address a request counts against: the peer's, or with `--trust-forwarded-for` (behind a
/// proxy that sets it) the first address of `X-Forwarded-For`.
fn client(request: &Request, trust_forwarded: bool) -> Option<IpAddr> {
    if trust_forwarded
        && let Some(ip) = request
            .headers()
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .and_then(|v| v.trim().parse().ok())
    {
        return Some(ip);
    }
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(peer)| peer.ip())
}

/// The middleware: a counted request over its address's quota is answered 429 `rate_limited`
/// with `Retry-After`.
pub async fn rate_limit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if !limited(request.method(), request.uri().path()) {
        return next.run(request).await;
    }
    let Some(ip) = client(&request, state.config.trust_forwarded_for) else {
        return next.run(request).await;
    };
    match state.limiter.check_key(&ip) {
        Ok(()) => next.run(request).await,
        Err(not_until) => {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            let mut answer = ApiError::TooManyRequests(seconds).into_response();
            if let Ok(value) = seconds.to_string().parse() {
                answer.headers_mut().insert(header::RETRY_AFTER, value);
            }
            answer
        }
    }
}

/// Whether another WebSocket may open: the seats' and spectators' sockets open now are under
/// `--max-connections`.
pub fn socket_allowed(state: &AppState) -> Result<(), ApiError> {
    let open = state
        .metrics
        .connections_open
        .load(std::sync::atomic::Ordering::Relaxed);
    if open >= state.config.max_connections {
        tracing::warn!(open, "a connection was refused: the server is at its cap");
        return Err(ApiError::Busy);
    }
    Ok(())
}
