//! Errors of the HTTP API: a status and a JSON body `{"code", "message"}`.

use axum::Json;
use axum::http::StatusCode;
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
    /// Not found.
    #[error("{0} not found")]
    NotFound(String),
    /// The request conflicts with the state (a full table, say).
    #[error("{0}")]
    Conflict(String),
    /// The store failed.
    #[error("storage failed: {0}")]
    Store(#[from] store::StoreError),
    /// Something else failed on the server.
    #[error("internal error: {0}")]
    Internal(String),
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
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            ApiError::Store(store::StoreError::NotFound { .. }) => {
                (StatusCode::NOT_FOUND, "not_found")
            }
            ApiError::Store(store::StoreError::BadArgument(_)) => {
                (StatusCode::BAD_REQUEST, "bad_request")
            }
            ApiError::Store(_) => (StatusCode::SERVICE_UNAVAILABLE, "store_unavailable"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.parts();
        if status.is_server_error() {
            tracing::error!(error = %self, "request failed");
        }
        (
            status,
            Json(Body {
                code,
                message: self.to_string(),
            }),
        )
            .into_response()
    }
}
