//! What the OpenAPI document says beyond each handler's own annotation: the error body, the
//! error answers several routes share (described once under `components.responses` and
//! referenced by every operation that can answer them), the bearer scheme of the routes that
//! need a session, and the schemas of names the engine lists (ruleset presets, bot levels), so
//! the document offers exactly the names the server accepts.
//!
//! The shared answers are grouped by what causes them — a JSON body, a session, a request that
//! creates something, the database, a server failure — and each handler's annotation lists the
//! groups its extractors and calls can produce, next to its own 2xx and route-specific answers.

use std::collections::BTreeMap;

use engine::RulesetId;
use serde::Serialize;
use utoipa::openapi::content::ContentBuilder;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::response::{Response, ResponseBuilder};
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{OpenApi, Ref, RefOr};
use utoipa::{IntoResponses, Modify, PartialSchema, ToSchema};

/// The name of the security scheme; an annotation names it as `security(("bearer" = []))`.
pub const BEARER: &str = "bearer";

/// An error answer: every error of the HTTP API, whatever failed, has this shape.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    /// What failed, for programs: `bad_request`, `unauthorized`, `not_found`,
    /// `method_not_allowed`, `conflict`, `too_large`, `unsupported_media_type`,
    /// `unprocessable`, `rate_limited`, `internal`, `store_unavailable`,
    /// `service_unavailable` (the request timed out), `not_ready` or `busy`.
    pub code: String,
    /// What failed, for people. A 5xx's message never carries the cause: it names a request
    /// id, logged with the cause on the server.
    pub message: String,
}

/// An error answer several operations share, described once under `components.responses`.
struct Shared {
    /// Its status.
    status: u16,
    /// Its name under `components.responses`.
    name: &'static str,
    /// What it means, starting with its `code`.
    description: &'static str,
}

const TOO_LARGE: Shared = Shared {
    status: 413,
    name: "TooLarge",
    description: "`too_large`: the body is over 2 MiB.",
};
const UNSUPPORTED_MEDIA_TYPE: Shared = Shared {
    status: 415,
    name: "UnsupportedMediaType",
    description: "`unsupported_media_type`: the body was not sent with \
                  `Content-Type: application/json`.",
};
const UNPROCESSABLE: Shared = Shared {
    status: 422,
    name: "Unprocessable",
    description: "`unprocessable`: JSON of the wrong shape or types (a required field missing, \
                  a string for a number, a negative or too large count); the message names the \
                  field. The body is read up to its first wrong value, so a body cut short \
                  after one is answered here rather than 400.",
};
const UNAUTHORIZED: Shared = Shared {
    status: 401,
    name: "Unauthorized",
    description: "`unauthorized`: no `Authorization: Bearer <token>` header, or its token is \
                  unknown, expired or signed out.",
};
const RATE_LIMITED: Shared = Shared {
    status: 429,
    name: "RateLimited",
    description: "`rate_limited`: more requests that create things (guest sign-ups, rooms, \
                  joins by code, quick matches) from this address than the server's \
                  `--http-rate` a minute. `Retry-After` says when the next one counts.",
};
const INTERNAL: Shared = Shared {
    status: 500,
    name: "Internal",
    description: "`internal`: the server failed; the message names a request id logged with \
                  the cause.",
};
const UNAVAILABLE: Shared = Shared {
    status: 503,
    name: "Unavailable",
    description: "`store_unavailable`: the database failed or did not answer; \
                  `service_unavailable`: no answer within the server's request timeout (its \
                  quick-match wait plus 10 s). Retry later.",
};

/// Every shared answer, as `components.responses` lists them.
const SHARED: [&Shared; 7] = [
    &TOO_LARGE,
    &UNSUPPORTED_MEDIA_TYPE,
    &UNPROCESSABLE,
    &UNAUTHORIZED,
    &RATE_LIMITED,
    &INTERNAL,
    &UNAVAILABLE,
];

/// The error body as a response's content.
fn error_content() -> utoipa::openapi::content::Content {
    ContentBuilder::new()
        .schema(Some(Ref::from_schema_name(ErrorBody::name())))
        .build()
}

/// A shared answer in full, as `components.responses` holds it.
fn described(shared: &Shared) -> Response {
    let mut response = ResponseBuilder::new()
        .description(shared.description)
        .content("application/json", error_content());
    if shared.status == RATE_LIMITED.status {
        let seconds = ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::Integer))
            .minimum(Some(1))
            .build();
        response = response.header(
            "Retry-After",
            HeaderBuilder::new()
                .schema(Some(seconds))
                .description(Some(
                    "Seconds until a request from this address counts again.",
                ))
                .build(),
        );
    }
    response.build()
}

/// References to shared answers, keyed by status, as an operation lists them.
fn referenced(shared: &[&Shared]) -> BTreeMap<String, RefOr<Response>> {
    shared
        .iter()
        .map(|s| {
            (
                s.status.to_string(),
                RefOr::Ref(Ref::from_response_name(s.name)),
            )
        })
        .collect()
}

/// A group of shared answers an annotation lists in its `responses(...)`.
macro_rules! group {
    ($(#[$doc:meta])* $name:ident = [$($shared:ident),+]) => {
        $(#[$doc])*
        pub struct $name;

        impl IntoResponses for $name {
            fn responses() -> BTreeMap<String, RefOr<Response>> {
                referenced(&[$(&$shared),+])
            }
        }
    };
}

group!(
    /// What reading a JSON body can fail with besides a body that is not JSON (400, which each
    /// route describes with its own checks): 413, 415, 422.
    JsonBodyErrors = [TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, UNPROCESSABLE]
);
group!(
    /// What reading a body that need not be JSON can fail with: 413.
    BodyTooLarge = [TOO_LARGE]
);
group!(
    /// What a route that needs a session answers without a valid one: 401.
    SessionErrors = [UNAUTHORIZED]
);
group!(
    /// What a request that creates something (counted by the per-address limit) may be
    /// answered: 429 with `Retry-After`.
    RateLimitErrors = [RATE_LIMITED]
);
group!(
    /// What a route that reads or writes the database, or may wait, answers when it cannot
    /// serve now: 503.
    UnavailableErrors = [UNAVAILABLE]
);
group!(
    /// What a route that can fail on the server's side (randomness, a room that cannot
    /// start) answers then: 500.
    InternalErrors = [INTERNAL]
);

/// Adds the shared answers and the bearer scheme to the document's components.
pub struct Components;

impl Modify for Components {
    fn modify(&self, openapi: &mut OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        for shared in SHARED {
            components
                .responses
                .insert(shared.name.to_string(), RefOr::T(described(shared)));
        }
        components.add_security_scheme(
            BEARER,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("64 hex digits")
                    .description(Some(
                        "The `token` of `POST /api/guests` or `POST /api/sessions`, sent as \
                         `Authorization: Bearer <token>`; it works until its `expires_ms` or \
                         until it is renewed or signed out.",
                    ))
                    .build(),
            ),
        );
    }
}

/// A ruleset preset id: one of the engine's presets, as `GET /api/rulesets` lists them.
pub struct RulesetName;

impl PartialSchema for RulesetName {
    fn schema() -> RefOr<Schema> {
        words(
            RulesetId::ALL.iter().map(|id| id.as_str()),
            "A ruleset preset id, as `GET /api/rulesets` lists them.",
        )
    }
}

impl ToSchema for RulesetName {}

/// A bot level, as the engine names them.
pub struct BotLevel;

impl PartialSchema for BotLevel {
    fn schema() -> RefOr<Schema> {
        words(
            bot::Level::ALL.iter().map(|l| l.name()),
            "A bot level, weakest first.",
        )
    }
}

impl ToSchema for BotLevel {}

/// A string schema accepting exactly `values`.
fn words<'a>(values: impl Iterator<Item = &'a str>, description: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::Type(Type::String))
        .enum_values(Some(values))
        .description(Some(description))
        .into()
}
