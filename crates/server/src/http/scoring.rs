//! The engine's scoring over HTTP: `POST /api/settle` (finished hands of any ruleset) and
//! `POST /api/score` (single Guobiao hands), in the line formats `mahjong settle` and
//! `mahjong score` read, one object or an array of them.

use axum::Json;
use serde::Serialize;

use super::ErrorBody;
use crate::error::ApiError;

/// The most hands one request scores.
const MAX_HANDS: usize = 1000;

/// Answers one object with `answer`, or an array of up to [`MAX_HANDS`] in order.
fn batch<T: Serialize>(
    body: &str,
    answer: fn(&str) -> T,
) -> Result<Json<serde_json::Value>, ApiError> {
    let value: serde_json::Value = serde_json::from_str(body)
        .map_err(|e| ApiError::BadRequest(format!("the body is not JSON: {e}")))?;
    let one = |v: &serde_json::Value| {
        serde_json::to_value(answer(&v.to_string())).map_err(|e| ApiError::Internal(e.to_string()))
    };
    match &value {
        serde_json::Value::Array(items) => {
            if items.len() > MAX_HANDS {
                return Err(ApiError::BadRequest(format!(
                    "at most {MAX_HANDS} hands per request"
                )));
            }
            let out = items.iter().map(one).collect::<Result<Vec<_>, _>>()?;
            Ok(Json(serde_json::Value::Array(out)))
        }
        other => Ok(Json(one(other)?)),
    }
}

/// Settles finished hands in the `settle` format (one object, or an array of up to 1,000).
#[utoipa::path(post, path = "/api/settle", request_body(content = Object, description = "a hand, or an array of hands, in the settle format of conformance/README.md"), responses((status = 200, description = "the settlement or refusal of each hand, in order", body = Object), (status = 400, body = ErrorBody)))]
pub(super) async fn settle(body: String) -> Result<Json<serde_json::Value>, ApiError> {
    batch(&body, engine::format::settle_text)
}

/// Scores Guobiao winning hands in the format of conformance/mcr/README.md (one object,
/// or an array of up to 1,000): each gets its fans (Chinese and English names, value, count),
/// the total, and whether it reaches the 8-fan minimum.
#[utoipa::path(post, path = "/api/score", request_body(content = Object, description = "a Guobiao winning hand, or an array of them, in the format of conformance/mcr/README.md"), responses((status = 200, description = "the fans and total, or the refusal, of each hand, in order", body = Object), (status = 400, body = ErrorBody)))]
pub(super) async fn score(body: String) -> Result<Json<serde_json::Value>, ApiError> {
    batch(&body, engine::format::score_text)
}
