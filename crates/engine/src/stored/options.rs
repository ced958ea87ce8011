//! Room options as documents keep them: a JSON object of name → value, each value a switch, a
//! number or a word, as a room's creator sent them. Kept apart from [`RawOptions`] so that a
//! change to how the engine holds option values cannot change what old documents mean.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ruleset::{OptionValue, RawOptions};

/// One option value as stored (written bare: `true`, `2`, `"same"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StoredOptionValue {
    /// A switch.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A word.
    Text(String),
}

/// Room options as stored: name → value. Validating them is the ruleset's to do, as for options
/// that arrive from a client.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StoredOptions(pub BTreeMap<String, StoredOptionValue>);

impl StoredOptions {
    /// The options in the engine's terms, for [`Ruleset::new`](crate::Ruleset::new).
    pub fn to_raw(&self) -> RawOptions {
        self.0
            .iter()
            .map(|(name, value)| (name.clone(), value.to_raw()))
            .collect()
    }
}

impl From<&RawOptions> for StoredOptions {
    fn from(raw: &RawOptions) -> StoredOptions {
        StoredOptions(
            raw.iter()
                .map(|(name, value)| (name.clone(), StoredOptionValue::from(value)))
                .collect(),
        )
    }
}

impl StoredOptionValue {
    fn to_raw(&self) -> OptionValue {
        match self {
            StoredOptionValue::Bool(b) => OptionValue::Bool(*b),
            StoredOptionValue::Int(i) => OptionValue::Int(*i),
            StoredOptionValue::Text(t) => OptionValue::Text(t.clone()),
        }
    }
}

impl From<&OptionValue> for StoredOptionValue {
    fn from(value: &OptionValue) -> StoredOptionValue {
        match value {
            OptionValue::Bool(b) => StoredOptionValue::Bool(*b),
            OptionValue::Int(i) => StoredOptionValue::Int(*i),
            OptionValue::Text(t) => StoredOptionValue::Text(t.clone()),
        }
    }
}
