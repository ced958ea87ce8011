//! Room options: the values a room's creator sends, each preset's options declared once as
//! data (name, names for players, accepted values, default), and their validation.

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
        /// The options it has, comma-separated (`none` when it has none).
        known: String,
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

/// What values an option takes, and the one it has when a room does not set it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionKind {
    /// `true` or `false`.
    Bool {
        /// When not given.
        default: bool,
    },
    /// An integer in `min..=max`.
    Int {
        /// The smallest accepted.
        min: i64,
        /// The largest accepted.
        max: i64,
        /// When not given.
        default: i64,
    },
    /// One word of `values`.
    Choice {
        /// The accepted words.
        values: &'static [&'static str],
        /// When not given.
        default: &'static str,
    },
}

/// One room option of a preset, declared once: its name, what players call it, the values it
/// takes and its default. A family lists its presets' specs; [`validate`] checks a room's
/// options against them and fills in the defaults, and the family and the bots read the
/// validated values through the same spec ([`OptionSpec::int_in`] …), so the range shown is
/// the range enforced and no default is written twice.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OptionSpec {
    /// The name in a room's `options`.
    pub name: &'static str,
    /// What players call it, in Chinese.
    pub name_zh: &'static str,
    /// Its name in English.
    pub name_en: &'static str,
    /// The values it takes and its default.
    pub kind: OptionKind,
}

impl OptionSpec {
    /// An integer option in `range`, `default` when not given.
    pub const fn int(
        name: &'static str,
        name_zh: &'static str,
        name_en: &'static str,
        range: std::ops::RangeInclusive<i64>,
        default: i64,
    ) -> OptionSpec {
        OptionSpec {
            name,
            name_zh,
            name_en,
            kind: OptionKind::Int {
                min: *range.start(),
                max: *range.end(),
                default,
            },
        }
    }

    /// A word option among `values`, `default` when not given.
    pub const fn choice(
        name: &'static str,
        name_zh: &'static str,
        name_en: &'static str,
        values: &'static [&'static str],
        default: &'static str,
    ) -> OptionSpec {
        OptionSpec {
            name,
            name_zh,
            name_en,
            kind: OptionKind::Choice { values, default },
        }
    }

    /// A switch, `default` when not given.
    pub const fn bool(
        name: &'static str,
        name_zh: &'static str,
        name_en: &'static str,
        default: bool,
    ) -> OptionSpec {
        OptionSpec {
            name,
            name_zh,
            name_en,
            kind: OptionKind::Bool { default },
        }
    }

    /// The value when a room does not set it.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Bool { default } => OptionValue::Bool(default),
            OptionKind::Int { default, .. } => OptionValue::Int(default),
            OptionKind::Choice { default, .. } => OptionValue::Text(default.to_owned()),
        }
    }

    /// The value `raw` gives this option, checked against the spec, or its default.
    ///
    /// # Errors
    /// [`OptionError::BadValue`] for a value of the wrong type or outside the spec.
    fn read(&self, raw: &RawOptions) -> Result<OptionValue, OptionError> {
        let Some(value) = raw.get(self.name) else {
            return Ok(self.default_value());
        };
        let accepted = match (self.kind, value) {
            (OptionKind::Bool { .. }, OptionValue::Bool(_)) => true,
            (OptionKind::Int { min, max, .. }, OptionValue::Int(v)) => (min..=max).contains(v),
            (OptionKind::Choice { values, .. }, OptionValue::Text(word)) => {
                values.contains(&word.as_str())
            }
            _ => false,
        };
        if accepted {
            return Ok(value.clone());
        }
        let expected = match self.kind {
            OptionKind::Bool { .. } => "true or false".to_owned(),
            OptionKind::Int { min, max, .. } => format!("an integer in {min}..={max}"),
            OptionKind::Choice { values, .. } => format!("one of {}", values.join(", ")),
        };
        Err(OptionError::BadValue {
            name: self.name.to_owned(),
            problem: format!("expected {expected}, got {value:?}"),
        })
    }

    /// This integer option's value in validated `options` (its default if they lack it).
    pub fn int_in(&self, options: &RawOptions) -> i64 {
        match (options.get(self.name), self.kind) {
            (Some(OptionValue::Int(v)), _) => *v,
            (_, OptionKind::Int { default, .. }) => default,
            _ => 0,
        }
    }

    /// This switch's value in validated `options` (its default if they lack it).
    pub fn bool_in(&self, options: &RawOptions) -> bool {
        match (options.get(self.name), self.kind) {
            (Some(OptionValue::Bool(v)), _) => *v,
            (_, OptionKind::Bool { default }) => default,
            _ => false,
        }
    }

    /// This word option's value in validated `options`, as the spec's own word (its default if
    /// they lack it or name another).
    pub fn word_in(&self, options: &RawOptions) -> &'static str {
        let OptionKind::Choice { values, default } = self.kind else {
            return "";
        };
        match options.get(self.name) {
            Some(OptionValue::Text(w)) => {
                values.iter().copied().find(|v| v == w).unwrap_or(default)
            }
            _ => default,
        }
    }
}

/// Checks a room's `raw` options against the preset's `specs`: an option the preset does not
/// have, or a value the spec does not take, is refused; every option the preset has is filled
/// in, its default when not given. The result is what the ruleset keeps and records give back.
///
/// # Errors
/// [`OptionError::Unknown`] for the first unknown option, else [`OptionError::BadValue`] for
/// the first bad value in the specs' order.
pub fn validate(
    ruleset: RulesetId,
    specs: &[OptionSpec],
    raw: &RawOptions,
) -> Result<RawOptions, OptionError> {
    if let Some(name) = raw.keys().find(|k| !specs.iter().any(|s| s.name == *k)) {
        let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
        return Err(OptionError::Unknown {
            ruleset,
            name: name.clone(),
            known: if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            },
        });
    }
    specs
        .iter()
        .map(|spec| Ok((spec.name.to_owned(), spec.read(raw)?)))
        .collect()
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
            if let OptionKind::Int { min, max, .. } = spec.kind {
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
                    OptionKind::Int { min, max, .. } => {
                        assert!(accepts(false, OptionValue::Int(min)), "{id} {name} {min}");
                        assert!(accepts(true, OptionValue::Int(max)), "{id} {name} {max}");
                        assert!(!accepts(false, OptionValue::Int(min - 1)), "{id} {name}");
                        assert!(!accepts(true, OptionValue::Int(max + 1)), "{id} {name}");
                    }
                    OptionKind::Choice { values, .. } => {
                        for &w in values {
                            assert!(accepts(false, OptionValue::Text(w.into())), "{id} {w}");
                        }
                        assert!(!accepts(false, OptionValue::Text("neither".into())), "{id}");
                    }
                    OptionKind::Bool { .. } => {
                        assert!(accepts(false, OptionValue::Bool(true)), "{id} {name}");
                        assert!(!accepts(false, OptionValue::Int(1)), "{id} {name}");
                    }
                }
            }
        }
    }
}
