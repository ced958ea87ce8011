//! The engine's scoring over HTTP: `POST /api/settle` (finished hands of any ruleset) and
//! `POST /api/score` (single Guobiao hands), in the line formats `mahjong settle` and
//! `mahjong score` read, one object or an array of them.

use axum::Json;
use serde::Serialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
};
use utoipa::{PartialSchema, ToSchema};

use super::ErrorBody;
use super::doc::{BodyTooLarge, InternalErrors};
use crate::error::ApiError;

/// The most hands one request scores.
const MAX_HANDS: usize = 1000;

/// What `settle` and `score` read: one hand, or an array of up to 1,000. Any JSON is read (a
/// value that is not a hand, alone or in the array, is answered with its refusal), so the
/// schema says so; only an array over the limit is refused whole.
pub(super) struct Batch;

impl PartialSchema for Batch {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(object().description(Some("one hand")))
            .item(
                ArrayBuilder::new()
                    .max_items(Some(MAX_HANDS))
                    .description(Some("up to 1,000 hands, each answered in order")),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(SchemaType::Array(vec![
                        Type::String,
                        Type::Number,
                        Type::Boolean,
                        Type::Null,
                    ]))
                    .description(Some(
                        "not a hand: read as one, and answered with its refusal",
                    )),
            )
            .into()
    }
}

impl ToSchema for Batch {}

/// What `settle` and `score` answer: an answer object for one hand, an array of them in order
/// for an array.
pub(super) struct Answers;

impl PartialSchema for Answers {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(object().description(Some("the answer to one hand")))
            .item(
                ArrayBuilder::new()
                    .items(object())
                    .max_items(Some(MAX_HANDS))
                    .description(Some("the answers to an array of hands, in order")),
            )
            .into()
    }
}

impl ToSchema for Answers {}

/// An object schema.
fn object() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(SchemaType::Type(Type::Object))
}

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
#[utoipa::path(
    post,
    path = "/api/settle",
    request_body(content = Batch, description = "a hand, or an array of up to 1,000 hands, in the settle format of conformance/README.md (read as JSON whatever the `Content-Type`)"),
    responses(
        (status = 200, description = "the settlement of each hand, or `{\"id\", \"error\": {\"code\", \"message\"}}` for one that is refused: one object for one hand, an array in order for an array", body = Answers),
        (status = 400, description = "`bad_request`: the body is not JSON, or an array of over 1,000 hands", body = ErrorBody),
        BodyTooLarge,
        InternalErrors,
    )
)]
pub(super) async fn settle(body: String) -> Result<Json<serde_json::Value>, ApiError> {
    batch(&body, engine::format::settle_text)
}

/// Scores Guobiao winning hands in the format of conformance/mcr/README.md (one object,
/// or an array of up to 1,000): each gets its fans (Chinese and English names, value, count),
/// the total, and whether it reaches the 8-fan minimum.
#[utoipa::path(
    post,
    path = "/api/score",
    request_body(content = Batch, description = "a Guobiao winning hand, or an array of up to 1,000, in the format of conformance/mcr/README.md (read as JSON whatever the `Content-Type`)"),
    responses(
        (status = 200, description = "the fans and total of each hand, or `{\"id\", \"error\": {\"code\", \"message\"}}` for one that is refused: one object for one hand, an array in order for an array", body = Answers),
        (status = 400, description = "`bad_request`: the body is not JSON, or an array of over 1,000 hands", body = ErrorBody),
        BodyTooLarge,
        InternalErrors,
    )
)]
pub(super) async fn score(body: String) -> Result<Json<serde_json::Value>, ApiError> {
    batch(&body, engine::format::score_text)
}
