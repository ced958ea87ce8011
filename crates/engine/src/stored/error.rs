//! Why a stored document could not be read, written or turned into the engine's types.

use thiserror::Error;

use crate::ruleset::RulesetIdError;

use super::ActionError;

/// Why a stored document could not be read, written or converted. Each variant names the
/// document kind or the value at fault, so a log line says what to mend.
#[derive(Debug, Error)]
pub enum StoredError {
    /// A version this build does not read: written by a newer build, or not by this server.
    #[error("{kind} version {version}: this build reads version {reads}")]
    UnknownVersion {
        /// The document kind.
        kind: &'static str,
        /// The version found.
        version: u64,
        /// The version this build reads.
        reads: u32,
    },
    /// A `version` field that is not a whole number.
    #[error("{kind}: version {found} is not a whole number")]
    BadVersion {
        /// The document kind.
        kind: &'static str,
        /// The field's JSON.
        found: String,
    },
    /// A document that is not the layout of its version (or not JSON).
    #[error("{kind}: {source}")]
    Layout {
        /// The document kind.
        kind: &'static str,
        /// What serde found wrong.
        #[source]
        source: serde_json::Error,
    },
    /// A document serde would not write.
    #[error("{kind} could not be written: {source}")]
    Write {
        /// The document kind.
        kind: &'static str,
        /// What serde refused.
        #[source]
        source: serde_json::Error,
    },
    /// A logged action that is not an action.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// An action of a record that is not an action; `index` counts from 0 over the whole
    /// record, as [`ReplayError`](crate::record::ReplayError) counts.
    #[error("action {index}: {source}")]
    RecordAction {
        /// Its position.
        index: usize,
        /// What is wrong with it.
        #[source]
        source: ActionError,
    },
    /// A seat number outside `0..4`.
    #[error("seat {0} is out of range 0..4")]
    Seat(u8),
    /// A preset id this build does not know.
    #[error(transparent)]
    Ruleset(#[from] RulesetIdError),
}
