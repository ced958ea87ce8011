//! What the store keeps of the engine, as formats of its own.
//!
//! The engine's types ([`Action`](crate::Action), [`HandRecord`](crate::record::HandRecord),
//! [`TableState`](crate::TableState) …) are free to change; a database, a replay file or a
//! crashed table's action log written by an earlier build is not. So everything kept as JSON
//! outside a running process goes through a boundary type here, with serde attributes of its
//! own that spell out the stored layout, converted to and from the engine's types in one place.
//! Reading one back parses it (tiles, seats, preset ids) and reports what does not parse as a
//! [`StoredError`]; nothing on this path panics.
//!
//! # Versions
//!
//! Every document is a JSON object with a `version` field: the layout it was written in. This
//! build writes the version in the table below; a document without the field was written before
//! formats were versioned and reads as version 1, whose layout is exactly what those builds
//! wrote (the fixtures of `crates/server/tests/fixtures/stored-v0` hold each kind). A version
//! this build does not know is refused with [`StoredError::UnknownVersion`], naming it, never
//! guessed at. The field name is the one the server's tournament settings have carried from
//! their first version.
//!
//! | document | type | where it is kept | version |
//! |---|---|---|---|
//! | a line of a room's action log | [`LogEntry`] | `room_actions.action` | 1 |
//! | a finished hand's record | [`StoredHandRecord`] | `hands.record`, `mahjong simulate --record` | 1 |
//! | a whole table's record | [`StoredTableRecord`] | `mahjong simulate --table-record` | 1 |
//! | a table's carried state | [`StoredTableState`] | `game_tables.carried` | 1 |
//!
//! Pieces of a document (an action inside a record, the room options) carry no version of
//! their own: the document's version covers them.
//!
//! # Changing a layout
//!
//! A change to what a kind stores is a new version: keep the old layout's type and add the new
//! one, raise [`Document::VERSION`], read every older version (converting it to the engine's
//! type as it always did), and commit a fixture of the new version beside the old ones. A change
//! to an engine type that the conversions here absorb (a renamed variant, a new field with a
//! value the old layout implies) needs no new version; the fixture tests tell which it is.

mod action;
mod error;
mod log;
mod options;
mod record;
mod table;
mod version;

pub use action::{ActionError, StoredAction};
pub use error::StoredError;
pub use log::LogEntry;
pub use options::{StoredOptionValue, StoredOptions};
pub use record::{StoredHandRecord, StoredTableHand, StoredTableRecord};
pub use table::{StoredTableState, StoredWind};
pub use version::{Document, VERSION_FIELD};
