//! The rulesets a room may play, described for a client's create-room form. Everything here is
//! read from the engine: the presets (`RulesetId::ALL`), their names, each family's option
//! specs, the validated defaults, and the room's default match length.

use axum::Json;
use engine::RulesetId;
use engine::ruleset::{OptionKind, OptionSpec, Ruleset};
use serde::Serialize;
use utoipa::ToSchema;

use crate::room;

/// A preset a room may play.
#[derive(Serialize, ToSchema)]
pub(super) struct RulesetInfo {
    /// The stable preset id (`ruleset` of `POST /api/rooms`).
    id: &'static str,
    /// Its name for Chinese-speaking players.
    name_zh: &'static str,
    /// Its name in English.
    name_en: &'static str,
    /// Seats at the table.
    players: u8,
    /// Hands in a room whose creator does not say (the ruleset's full match where it has
    /// one, else 8).
    default_hands: u64,
    /// Points an escaper loses on top of the hand it escaped from (逃跑罚分), under its
    /// default options; 0 where the rules set none. It counts in leaderboards and histories,
    /// not in the hand's deltas.
    escape_penalty: i64,
    /// The room options (`options` of `POST /api/rooms`); none may be left out of a form, as
    /// each has a default.
    options: Vec<OptionInfo>,
}

/// One room option.
#[derive(Serialize, ToSchema)]
pub(super) struct OptionInfo {
    /// Its name in `options`.
    name: &'static str,
    /// What players call it, in Chinese.
    name_zh: &'static str,
    /// Its name in English.
    name_en: &'static str,
    /// `bool`, `int` or `choice` (one word of `values`).
    #[serde(rename = "type")]
    kind: &'static str,
    /// The value when it is not given.
    default: serde_json::Value,
    /// The smallest value accepted (`int`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    min: Option<i64>,
    /// The largest value accepted (`int`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    max: Option<i64>,
    /// The words accepted (`choice`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    values: Option<Vec<&'static str>>,
}

/// Every ruleset a room may play, with its room options and default match length.
#[utoipa::path(
    get,
    path = "/api/rulesets",
    responses((status = 200, description = "every preset, in the engine's order", body = Vec<RulesetInfo>))
)]
pub(super) async fn rulesets() -> Json<Vec<RulesetInfo>> {
    Json(RulesetId::ALL.into_iter().filter_map(describe).collect())
}

/// A preset as the form shows it (`None` if its defaults did not validate, which the engine's
/// tests rule out).
fn describe(id: RulesetId) -> Option<RulesetInfo> {
    let ruleset = Ruleset::with_defaults(id).ok()?;
    let defaults = ruleset.options();
    let options = ruleset
        .option_specs()
        .into_iter()
        .map(|spec| option(spec, defaults.get(spec.name)))
        .collect();
    Some(RulesetInfo {
        id: id.as_str(),
        name_zh: id.name_zh(),
        name_en: id.name_en(),
        players: ruleset.rules().players(),
        default_hands: room::default_hands(&ruleset),
        escape_penalty: ruleset.rules().escape_penalty().unwrap_or(0),
        options,
    })
}

fn option(spec: OptionSpec, default: Option<&engine::ruleset::OptionValue>) -> OptionInfo {
    let (kind, min, max, values) = match spec.kind {
        OptionKind::Bool => ("bool", None, None, None),
        OptionKind::Int { min, max } => ("int", Some(min), Some(max), None),
        OptionKind::Choice { values } => ("choice", None, None, Some(values.to_vec())),
    };
    OptionInfo {
        name: spec.name,
        name_zh: spec.name_zh,
        name_en: spec.name_en,
        kind,
        default: serde_json::to_value(default).unwrap_or_default(),
        min,
        max,
        values,
    }
}
