//! Errors of the HTTP API: a status and a JSON body `{"code", "message"}`.

use axum::Json;
use axum::http::StatusCode;
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// An API error.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or a value is out of range.
    #[error("{0}")]
    BadRequest(String),
    /// No valid session token.
    #[error("sign in first: a valid `Authorization: Bearer <token>` header is required")]
    Unauthorized,
    /// Signed in, but not allowed this (only a tournament's organiser starts its rounds).
    #[error("{0}")]
    Forbidden(String),
    /// Not found.
    #[error("{0} not found")]
    NotFound(String),
    /// The request conflicts with the state (a full table, say).
    #[error("{0}")]
    Conflict(String),
    /// The store failed.
    #[error("storage failed: {0}")]
    Store(#[from] store::StoreError),
    /// A document the store keeps (room settings, a hand's record, carried state) could not
    /// be read or written in its stored format.
    #[error("stored data: {0}")]
    Stored(#[from] engine::stored::StoredError),
    /// Something else failed on the server.
    #[error("internal error: {0}")]
    Internal(String),
    /// Too many requests from one address: retry after this many seconds.
    #[error("too many requests from this address: retry in {0} s")]
    TooManyRequests(u64),
    /// The server is at its cap of open connections.
    #[error("the server is at its cap of open connections: retry later")]
    Busy,
    /// The server cannot serve now (its database takes no write); the message is the
    /// server's own words, never the database's.
    #[error("not ready: {0}")]
    NotReady(String),
}

#[derive(Serialize)]
struct Body<'a> {
    code: &'a str,
    message: String,
}

impl ApiError {
    fn parts(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            ApiError::Store(store::StoreError::NotFound { .. }) => {
                (StatusCode::NOT_FOUND, "not_found")
            }
            ApiError::Store(
                store::StoreError::Closed { .. } | store::StoreError::RoundRefused { .. },
            ) => (StatusCode::CONFLICT, "conflict"),
            ApiError::Store(store::StoreError::BadArgument(_)) => {
                (StatusCode::BAD_REQUEST, "bad_request")
            }
            ApiError::Store(_) => (StatusCode::SERVICE_UNAVAILABLE, "store_unavailable"),
            ApiError::Internal(_) | ApiError::Stored(_) => {
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
            ApiError::NotReady(_) => (StatusCode::SERVICE_UNAVAILABLE, "not_ready"),
            ApiError::TooManyRequests(_) => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            ApiError::Busy => (StatusCode::SERVICE_UNAVAILABLE, "busy"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.parts();
        let store_failed = matches!(self, ApiError::Store(_)) && status.is_server_error();
        let ours = matches!(self, ApiError::NotReady(_) | ApiError::Busy);
        let message = if status.is_server_error() && !ours {
            // The cause (a database's own text, say) goes to the log, under an id the client
            // can quote; the client gets the id, never the cause.
            let id = format!("{:016x}", crate::room::random_u64());
            tracing::error!(error = %self, request_id = %id, "request failed");
            format!("the server could not complete the request (request id {id})")
        } else {
            self.to_string()
        };
        let mut answer = (status, Json(Body { code, message })).into_response();
        if store_failed {
            answer.extensions_mut().insert(crate::metrics::StoreFailed);
        }
        answer
    }
}

/// The error code of a status no handler answered with its own: axum's rejections, unknown
/// routes, wrong methods.
fn code_of(status: StatusCode) -> String {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => "too_large".into(),
        StatusCode::UNPROCESSABLE_ENTITY => "unprocessable".into(),
        StatusCode::INTERNAL_SERVER_ERROR => "internal".into(),
        _ => status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("_"),
    }
}

/// Makes every error response `{"code", "message"}` JSON. axum answers its own rejections (a
/// body that is not JSON, of the wrong shape or types, without its content type, too large; a
/// bad path or query), unknown routes and wrong methods in plain text or with no body; a
/// client parses one shape whatever failed. Headers such as `Allow` and `Retry-After` stay; a
/// server error's own text is not passed on.
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let json = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = if status.is_server_error() {
        String::new()
    } else {
        axum::body::to_bytes(body, 4096)
            .await
            .map(|b| String::from_utf8_lossy(&b).trim().to_string())
            .unwrap_or_default()
    };
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        text
    };
    let code = code_of(status);
    let mut answer = (
        status,
        Json(Body {
            code: &code,
            message,
        }),
    )
        .into_response();
    for (name, value) in &parts.headers {
        if name != CONTENT_TYPE && name != CONTENT_LENGTH {
            answer.headers_mut().insert(name.clone(), value.clone());
        }
    }
    answer
}
