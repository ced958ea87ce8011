//! Room options: the values a room's creator sends, how each family lists the options it has
//! (name, names for players, accepted values) and reads them with the ranges it lists.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::RulesetId;

/// One room option value as it arrives from JSON or the command line.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    /// A switch.
    Bool(bool),
    /// A number.
    Int(i64),
    /// A word.
    Text(String),
}

/// Room options before validation: name → value.
pub type RawOptions = BTreeMap<String, OptionValue>;

/// Why room options were refused.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum OptionError {
    /// An option the ruleset does not have.
    #[error("ruleset `{ruleset}` has no option `{name}` (options: {known})")]
    Unknown {
        /// The ruleset.
        ruleset: RulesetId,
        /// The option given.
        name: String,
        /// The options it has.
        known: &'static str,
    },
    /// A value of the wrong type or out of range.
    #[error("option `{name}`: {problem}")]
    BadValue {
        /// The option.
        name: String,
        /// What is wrong.
        problem: String,
    },
}

/// Refuses the first option of `raw` not named in `known` (a comma-separated list, also shown
/// in the error).
///
/// # Errors
/// [`OptionError::Unknown`] naming the option and the ones `ruleset` has.
pub fn reject_unknown(
    raw: &RawOptions,
    ruleset: RulesetId,
    known: &'static str,
) -> Result<(), OptionError> {
    match raw.keys().find(|k| !known.split(", ").any(|n| n == *k)) {
        Some(name) => Err(OptionError::Unknown {
            ruleset,
            name: name.clone(),
            known,
        }),
        None => Ok(()),
    }
}

/// Reads an integer option within `range`.
///
/// # Errors
/// [`OptionError::BadValue`] for a non-integer or out-of-range value.
fn int_option(
    raw: &RawOptions,
    name: &str,
    default: i64,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i64, OptionError> {
    match raw.get(name) {
        None => Ok(default),
        Some(OptionValue::Int(v)) if range.contains(v) => Ok(*v),
        Some(v) => Err(OptionError::BadValue {
            name: name.to_owned(),
            problem: format!(
                "expected an integer in {}..={}, got {v:?}",
                range.start(),
                range.end()
            ),
        }),
    }
}

/// Reads a boolean option.
///
/// # Errors
/// [`OptionError::BadValue`] for a non-boolean value.
fn bool_option(raw: &RawOptions, name: &str, default: bool) -> Result<bool, OptionError> {
    match raw.get(name) {
        None => Ok(default),
        Some(OptionValue::Bool(v)) => Ok(*v),
        Some(v) => Err(OptionError::BadValue {
            name: name.to_owned(),
            problem: format!("expected true or false, got {v:?}"),
        }),
    }
}

/// Reads a word option that must be one of `values`.
///
/// # Errors
/// [`OptionError::BadValue`] for a value that is not one of the words.
fn choice_option(
    raw: &RawOptions,
    name: &str,
    default: &'static str,
    values: &'static [&'static str],
) -> Result<&'static str, OptionError> {
    let bad = |v: &OptionValue| OptionError::BadValue {
        name: name.to_owned(),
        problem: format!("expected one of {}, got {v:?}", values.join(", ")),
    };
    match raw.get(name) {
        None => Ok(default),
        Some(v @ OptionValue::Text(word)) => values
            .iter()
            .copied()
            .find(|w| w == word)
            .ok_or_else(|| bad(v)),
        Some(v) => Err(bad(v)),
    }
}

/// The values a room option accepts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionKind {
    /// `true` or `false`.
    Bool,
    /// An integer from `min` to `max`, both included.
    Int {
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// One word of a fixed list.
    Choice {
        /// The words accepted; the first is not necessarily the default.
        values: &'static [&'static str],
    },
}

/// One room option as a room's creator chooses it: its name, what players call it and the
/// values it accepts. Each family lists its options next to the code that validates them; a
/// preset's defaults are the [`Ruleset::options`](super::Ruleset::options) of
/// [`Ruleset::with_defaults`](super::Ruleset::with_defaults), so they are not written twice.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OptionSpec {
    /// The option's name in [`RawOptions`].
    pub name: &'static str,
    /// What players call it, in Chinese.
    pub name_zh: &'static str,
    /// Its name in English.
    pub name_en: &'static str,
    /// The values accepted.
    pub kind: OptionKind,
}

impl OptionSpec {
    /// An integer option accepting `range`.
    pub const fn int(
        name: &'static str,
        name_zh: &'static str,
        name_en: &'static str,
        range: std::ops::RangeInclusive<i64>,
    ) -> OptionSpec {
        OptionSpec {
            name,
            name_zh,
            name_en,
            kind: OptionKind::Int {
                min: *range.start(),
                max: *range.end(),
            },
        }
    }

    /// A word from `values`.
    pub const fn choice(
        name: &'static str,
        name_zh: &'static str,
        name_en: &'static str,
        values: &'static [&'static str],
    ) -> OptionSpec {
        OptionSpec {
            name,
            name_zh,
            name_en,
            kind: OptionKind::Choice { values },
        }
    }

    /// A switch.
    pub const fn bool(name: &'static str, name_zh: &'static str, name_en: &'static str) -> Self {
        OptionSpec {
            name,
            name_zh,
            name_en,
            kind: OptionKind::Bool,
        }
    }

    /// Reads this integer option from `raw` (`default` when absent), within the range the spec
    /// lists, so the range a room's creator is shown is the one enforced.
    ///
    /// # Errors
    /// [`OptionError::BadValue`] for a non-integer or out-of-range value.
    pub fn read_int(&self, raw: &RawOptions, default: i64) -> Result<i64, OptionError> {
        let range = match self.kind {
            OptionKind::Int { min, max } => min..=max,
            OptionKind::Bool | OptionKind::Choice { .. } => i64::MIN..=i64::MAX,
        };
        int_option(raw, self.name, default, range)
    }

    /// Reads this switch from `raw` (`default` when absent).
    ///
    /// # Errors
    /// [`OptionError::BadValue`] for a non-boolean value.
    pub fn read_bool(&self, raw: &RawOptions, default: bool) -> Result<bool, OptionError> {
        bool_option(raw, self.name, default)
    }

    /// Reads this word option from `raw` (`default` when absent), among the words the spec
    /// lists.
    ///
    /// # Errors
    /// [`OptionError::BadValue`] for a value that is not one of the words.
    pub fn read_choice(
        &self,
        raw: &RawOptions,
        default: &'static str,
    ) -> Result<&'static str, OptionError> {
        let values = match self.kind {
            OptionKind::Choice { values } => values,
            OptionKind::Bool | OptionKind::Int { .. } => &[],
        };
        choice_option(raw, self.name, default, values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Ruleset;

    /// Every integer option of `specs` at its lowest (or highest) listed value, so options
    /// that bound each other (起胡 under 爆胡) stay consistent, with `name` set to `value`.
    fn at_end(specs: &[OptionSpec], high: bool, name: &str, value: OptionValue) -> RawOptions {
        let mut raw = RawOptions::new();
        for spec in specs {
            if let OptionKind::Int { min, max } = spec.kind {
                let end = if high { max } else { min };
                raw.insert(spec.name.to_owned(), OptionValue::Int(end));
            }
        }
        raw.insert(name.to_owned(), value);
        raw
    }

    /// Every listed option of every preset: an integer option accepts both ends of the range
    /// it lists and refuses the values just outside; a word option accepts each listed word
    /// and refuses another; a switch accepts a boolean and refuses a number.
    #[test]
    fn every_preset_enforces_the_values_it_lists() {
        for id in RulesetId::ALL {
            let listed = Ruleset::with_defaults(id).expect("defaults").option_specs();
            for spec in &listed {
                let accepts = |high: bool, v: OptionValue| {
                    Ruleset::new(id, &at_end(&listed, high, spec.name, v)).is_ok()
                };
                let name = spec.name;
                match spec.kind {
                    OptionKind::Int { min, max } => {
                        assert!(accepts(false, OptionValue::Int(min)), "{id} {name} {min}");
                        assert!(accepts(true, OptionValue::Int(max)), "{id} {name} {max}");
                        assert!(!accepts(false, OptionValue::Int(min - 1)), "{id} {name}");
                        assert!(!accepts(true, OptionValue::Int(max + 1)), "{id} {name}");
                    }
                    OptionKind::Choice { values } => {
                        for &w in values {
                            assert!(accepts(false, OptionValue::Text(w.into())), "{id} {w}");
                        }
                        assert!(!accepts(false, OptionValue::Text("neither".into())), "{id}");
                    }
                    OptionKind::Bool => {
                        assert!(accepts(false, OptionValue::Bool(true)), "{id} {name}");
                        assert!(!accepts(false, OptionValue::Int(1)), "{id} {name}");
                    }
                }
            }
        }
    }
}
