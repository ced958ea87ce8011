//! The version every stored document carries, read before the document itself so that a layout
//! this build does not know is refused by its number rather than misread field by field.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::StoredError;

/// The field of a stored document that names its layout's version.
pub const VERSION_FIELD: &str = "version";

/// A kind of document the store keeps: its name in errors, and the one layout this build writes.
///
/// The provided methods are the only way documents are read and written, so every kind follows
/// the same rule: written with `version`, read when `version` is [`Document::VERSION`] or absent
/// (a document from before versions, which is version 1), refused otherwise.
pub trait Document: Serialize + DeserializeOwned {
    /// What the document is, for errors ("hand record").
    const KIND: &'static str;
    /// The version this build writes and reads.
    const VERSION: u32;

    /// The document with its version, as a JSON value (what the store's JSON columns take).
    ///
    /// # Errors
    /// [`StoredError::Write`] if serde refuses it (none of this crate's kinds can fail so).
    fn write(&self) -> Result<Value, StoredError> {
        serde_json::to_value(Versioned::of(self)).map_err(|source| StoredError::Write {
            kind: Self::KIND,
            source,
        })
    }

    /// The document with its version, as compact JSON text (its fields in declared order).
    ///
    /// # Errors
    /// As [`Document::write`].
    fn write_string(&self) -> Result<String, StoredError> {
        serde_json::to_string(&Versioned::of(self)).map_err(|source| StoredError::Write {
            kind: Self::KIND,
            source,
        })
    }

    /// The document with its version, as indented JSON text for people to read.
    ///
    /// # Errors
    /// As [`Document::write`].
    fn write_pretty(&self) -> Result<String, StoredError> {
        serde_json::to_string_pretty(&Versioned::of(self)).map_err(|source| StoredError::Write {
            kind: Self::KIND,
            source,
        })
    }

    /// Reads a stored document.
    ///
    /// # Errors
    /// [`StoredError::BadVersion`] or [`StoredError::UnknownVersion`] for a version this build
    /// cannot read, [`StoredError::Layout`] for a document that is not the layout of its version.
    fn read(value: &Value) -> Result<Self, StoredError> {
        let version = version_of(Self::KIND, value)?;
        if version != u64::from(Self::VERSION) {
            return Err(StoredError::UnknownVersion {
                kind: Self::KIND,
                version,
                reads: Self::VERSION,
            });
        }
        Self::deserialize(value).map_err(|source| StoredError::Layout {
            kind: Self::KIND,
            source,
        })
    }

    /// Reads a stored document from JSON text (a file).
    ///
    /// # Errors
    /// [`StoredError::Layout`] for text that is not JSON, else as [`Document::read`].
    fn read_str(text: &str) -> Result<Self, StoredError> {
        let value: Value = serde_json::from_str(text).map_err(|source| StoredError::Layout {
            kind: Self::KIND,
            source,
        })?;
        Self::read(&value)
    }
}

/// The version a document says it has: 1 when it says none, for it was written before there
/// were versions.
fn version_of(kind: &'static str, value: &Value) -> Result<u64, StoredError> {
    match value.get(VERSION_FIELD) {
        None => Ok(1),
        Some(v) => v.as_u64().ok_or_else(|| StoredError::BadVersion {
            kind,
            found: v.to_string(),
        }),
    }
}

/// A document as written: its version first, then its own fields.
#[derive(Serialize)]
struct Versioned<'a, T> {
    version: u32,
    #[serde(flatten)]
    body: &'a T,
}

impl<'a, T: Document> Versioned<'a, T> {
    fn of(body: &'a T) -> Self {
        Versioned {
            version: T::VERSION,
            body,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::stored::LogEntry;

    #[test]
    fn a_document_says_its_version_first_and_reads_back() {
        let entry = LogEntry::Deal { seed: u64::MAX };
        let text = entry.write_string().expect("writes");
        assert_eq!(
            text,
            r#"{"version":1,"type":"deal","seed":"18446744073709551615"}"#
        );
        assert_eq!(LogEntry::read_str(&text).expect("reads"), entry);
        let value = entry.write().expect("writes");
        assert_eq!(value[VERSION_FIELD], json!(LogEntry::VERSION));
    }

    #[test]
    fn no_version_is_version_1_and_any_other_is_refused_by_its_number() {
        let old = json!({"type": "pass"});
        assert!(LogEntry::read(&old).is_ok());
        for version in [0, 2, 77] {
            let v = json!({"type": "pass", "version": version});
            match LogEntry::read(&v) {
                Err(e @ StoredError::UnknownVersion { .. }) => {
                    assert!(e.to_string().contains(&format!("version {version}")), "{e}");
                }
                other => panic!("version {version}: {other:?}"),
            }
        }
        for bad in [json!("1"), json!(-1), json!(1.5), json!(null)] {
            let v = json!({"type": "pass", "version": bad});
            assert!(
                matches!(LogEntry::read(&v), Err(StoredError::BadVersion { .. })),
                "{v}"
            );
        }
    }

    #[test]
    fn text_that_is_not_json_is_a_layout_error() {
        assert!(matches!(
            LogEntry::read_str("{"),
            Err(StoredError::Layout { .. })
        ));
    }
}
