//! Transcripts (`--transcripts DIR`): every seat's stream written down as it is sent, with the
//! snapshot the room would send that seat at each point where it could send one.
//!
//! They are for client developers: a client's reducer (the table kept from the stream) is right
//! when, replayed over a transcript, it equals the snapshot at every one of those points. The
//! SDK's transcript test (`clients/typescript`) checks its reducer exactly so. A point where a
//! snapshot could go out is between two things the room does (a command, a timer), outside a
//! held claim window (a snapshot asked for then waits for the window to close), not while the
//! seat owes a snapshot already, and not once the match is over (its streams have ended).
//!
//! One file per table, `DIR/<table>.jsonl`, one JSON object a line, in the order sent:
//! `{"seat": 0, "frame": <the frame as sent, with its seq>}` and
//! `{"seat": 0, "after": <seq>, "snapshot": <TableSnapshot>}`, the table as the seat would be
//! shown it once every frame up to `after` is applied.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;

/// Where the rooms' transcripts go. Cloned into every room.
#[derive(Clone, Debug)]
pub struct Transcripts {
    dir: PathBuf,
}

/// The lines one room writes at one point, appended to its file at once.
#[derive(Default)]
pub struct Batch {
    text: String,
}

impl Batch {
    /// A frame of `seat`'s stream, as sent (JSON text with its `seq`).
    pub fn frame(&mut self, seat: usize, frame: &str) {
        self.text
            .push_str(&format!("{{\"seat\":{seat},\"frame\":{frame}}}\n"));
    }

    /// The snapshot `seat` would be sent now, once it has every frame up to `after`.
    pub fn snapshot(&mut self, seat: usize, after: u64, snapshot: &protocol::TableSnapshot) {
        match serde_json::to_string(snapshot) {
            Ok(s) => self.text.push_str(&format!(
                "{{\"seat\":{seat},\"after\":{after},\"snapshot\":{s}}}\n"
            )),
            Err(e) => tracing::error!(error = %e, "a transcript's snapshot could not be written"),
        }
    }
}

impl Transcripts {
    /// Transcripts into `dir`, made if missing.
    pub fn open(dir: PathBuf) -> std::io::Result<Transcripts> {
        std::fs::create_dir_all(&dir)?;
        Ok(Transcripts { dir })
    }

    /// Appends `batch` to `table`'s file. It is written on the room's own task, before the
    /// room goes on, so a transcript is complete as soon as the room has moved on: a
    /// diagnostic's cost, paid only with `--transcripts`.
    pub fn write(&self, table: &str, batch: Batch) {
        if batch.text.is_empty() {
            return;
        }
        let path = self.dir.join(format!("{table}.jsonl"));
        let written = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(batch.text.as_bytes()));
        if let Err(e) = written {
            tracing::error!(error = %e, path = %path.display(), "a transcript could not be written");
        }
    }
}
