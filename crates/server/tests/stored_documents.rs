//! Every kind of document the store keeps, held line by line to what the code before versioned
//! formats wrote (`fixtures/stored-v0`, written by the server of commit 04e4024 and, for the
//! table records, `mahjong simulate` of commit e5ded1e; never regenerated). Each line must
//! load into its boundary type, convert into the engine's or the server's type, and convert
//! back to JSON equal to the line but for the version now written beside it; hand records must
//! replay to the settlements that were stored with them; and a version this build does not
//! know must be refused by its number. One `check` per kind.

use std::path::Path;

use engine::record::{HandRecord, TableRecord};
use engine::stored::{
    Document, LogEntry, StoredError, StoredHandRecord, StoredOptions, StoredTableRecord,
    StoredTableState, VERSION_FIELD,
};
use engine::{Action, RawOptions, Ruleset, TableState};
use serde_json::{Value, json};
use server::room::{Occupant, RoomSettings, StoredRoom};
use server::tournaments::config::TournamentConfig;
use store::SeatOccupant;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/stored-v0");

/// The lines of a fixture file, as JSON.
fn lines(file: &str) -> Vec<Value> {
    let path = Path::new(FIXTURE).join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{file}:{}: {e}", i + 1)))
        .collect()
}

/// A document as written, without the version field (which must be this build's).
fn unversioned<D: Document>(doc: &D, at: &str) -> Value {
    let mut written = doc.write().unwrap_or_else(|e| panic!("{at}: {e}"));
    let version = written
        .as_object_mut()
        .and_then(|o| o.remove(VERSION_FIELD))
        .unwrap_or_else(|| panic!("{at}: written without `{VERSION_FIELD}`"));
    assert_eq!(version, json!(D::VERSION), "{at}: the version written");
    written
}

/// One kind's check: every line of `file` read as a `D`, converted `there` into the engine's or
/// server's type and `back`, and written again: equal to the line but for its version. Returns
/// the converted values, in order, for the kind's own checks.
fn check<D: Document, T>(
    file: &str,
    mut there: impl FnMut(&D) -> Result<T, String>,
    back: impl Fn(&T) -> D,
) -> Vec<T> {
    let all = lines(file);
    assert!(!all.is_empty(), "{file} is empty");
    let mut converted = Vec::new();
    for (i, line) in all.iter().enumerate() {
        let at = format!("{file}:{}", i + 1);
        let stored = D::read(line).unwrap_or_else(|e| panic!("{at}: {e}"));
        let value = there(&stored).unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!(&unversioned(&back(&value), &at), line, "{at}: written back");
        converted.push(value);
    }
    refuses_unknown_versions::<D>(&all[0], file);
    converted
}

/// The kind's first line, said to be of a later version (and of none before 1), is refused
/// with the error that names the version.
fn refuses_unknown_versions<D: Document>(line: &Value, file: &str) {
    for version in [0, u64::from(D::VERSION) + 1] {
        let mut later = line.clone();
        later[VERSION_FIELD] = json!(version);
        match D::read(&later) {
            Err(StoredError::UnknownVersion {
                kind,
                version: found,
                ..
            }) => {
                assert_eq!((kind, found), (D::KIND, version), "{file}");
            }
            other => panic!("{file}: version {version} read as {:?}", other.map(|_| ())),
        }
    }
}

/// A log line in the engine's terms.
#[derive(Debug)]
enum Logged {
    Deal(u64),
    Action(Action),
}

#[test]
fn log_entries() {
    let read = check::<LogEntry, Logged>(
        "actions.jsonl",
        |entry| match entry {
            LogEntry::Deal { seed } => Ok(Logged::Deal(*seed)),
            LogEntry::Action(stored) => Action::try_from(stored)
                .map(Logged::Action)
                .map_err(|e| e.to_string()),
        },
        |logged| match logged {
            Logged::Deal(seed) => LogEntry::Deal { seed: *seed },
            Logged::Action(action) => LogEntry::from(*action),
        },
    );
    assert!(read.iter().any(|l| matches!(l, Logged::Deal(_))));
    // The fixture's hands never offered the 海底 tile: those two actions are held to the JSON
    // the engine's own serde wrote for them (snake_case variant names, no fields).
    for (action, was) in [
        (Action::DrawLast, json!({"type": "draw_last"})),
        (Action::DeclineLast, json!({"type": "decline_last"})),
    ] {
        assert_eq!(unversioned(&LogEntry::from(action), "draw_last"), was);
        let back = match LogEntry::read(&was) {
            Ok(LogEntry::Action(stored)) => Action::try_from(&stored).ok(),
            _ => None,
        };
        assert_eq!(back, Some(action));
    }
}

#[test]
fn hand_records_replay_to_their_stored_settlements() {
    let records = check::<StoredHandRecord, HandRecord>(
        "records.jsonl",
        |stored| HandRecord::try_from(stored).map_err(|e| e.to_string()),
        |record| StoredHandRecord::from(record),
    );
    let settlements = lines("settlements.jsonl");
    assert_eq!(records.len(), settlements.len(), "paired line by line");
    for (i, (record, settled)) in records.iter().zip(&settlements).enumerate() {
        let game = record
            .replay()
            .unwrap_or_else(|e| panic!("records.jsonl:{}: {e}", i + 1));
        let deltas = &game.settlement().expect("the hand is over").deltas.0;
        let stored: Vec<i64> = settled["deltas"]
            .as_array()
            .map(|d| d.iter().filter_map(Value::as_i64).collect())
            .unwrap_or_default();
        assert_eq!(
            deltas[..stored.len()],
            stored[..],
            "records.jsonl:{}: {}",
            i + 1,
            record.ruleset
        );
    }
}

#[test]
fn table_records_replay_to_what_the_old_replay_printed() {
    let records = check::<StoredTableRecord, TableRecord>(
        "table-records.jsonl",
        |stored| TableRecord::try_from(stored).map_err(|e| e.to_string()),
        |record| StoredTableRecord::from(record),
    );
    let replays = lines("table-replays.jsonl");
    assert_eq!(records.len(), replays.len(), "paired line by line");
    for (record, was) in records.iter().zip(&replays) {
        let table = record
            .replay()
            .unwrap_or_else(|e| panic!("{}: {e}", record.ruleset));
        let state = table.state();
        let players = usize::from(table.ruleset().flow().players);
        let now = json!({
            "ruleset": record.ruleset.to_string(),
            "seed": record.seed,
            "hands": state.hands_played,
            "scores": state.scores.0[..players],
            "next_dealer": u8::from(state.dealer),
        });
        assert_eq!(&now, was, "{}", record.ruleset);
    }
}

#[test]
fn carried_states() {
    let states = check::<StoredTableState, TableState>(
        "carried.jsonl",
        |stored| TableState::try_from(stored).map_err(|e| e.to_string()),
        |state| StoredTableState::from(state),
    );
    // Line i is the carried state of the table `expected.json` lists i-th: rooms.jsonl and
    // seats.jsonl are paired with it through this.
    for (state, table) in states.iter().zip(tables()) {
        assert_eq!(u64::from(state.hands_played), table["hands_played"]);
        let scores = &state.scores.0[..table["scores"].as_array().map_or(0, Vec::len)];
        assert_eq!(json!(scores), table["scores"], "{}", table["table"]);
    }
}

#[test]
fn room_settings() {
    let tables = tables();
    let mut n = 0;
    let rooms = check::<StoredRoom, (RawOptions, RoomSettings)>(
        "rooms.jsonl",
        |stored| {
            // What a room is rebuilt with: the table's preset (a column of its own, paired
            // through expected.json) with these options, and these settings.
            let id = tables[n]["ruleset"].as_str().unwrap_or_default();
            n += 1;
            let options = stored.options.to_raw();
            let id = id.parse().map_err(|e| format!("{e}"))?;
            let ruleset = Ruleset::new(id, &options).map_err(|e| e.to_string())?;
            Ok((options, stored.settings(ruleset)))
        },
        |(options, settings)| StoredRoom {
            options: StoredOptions::from(options),
            clock: settings.clock,
            hands: settings.hands,
            public: settings.public,
            code: settings.code.clone(),
            spectator_delay_ms: settings.spectator_delay_ms,
            deals: settings.deals.clone(),
            first_deal: settings.first_deal,
        },
    );
    assert_eq!(rooms.len(), tables.len());
    assert!(
        rooms.iter().any(|(_, s)| !s.deals.open()),
        "a duplicate table's settings"
    );
}

#[test]
fn seat_occupants() {
    for (i, line) in lines("seats.jsonl").iter().enumerate() {
        let at = format!("seats.jsonl:{}", i + 1);
        let seats =
            SeatOccupant::read_all(&line.to_string()).unwrap_or_else(|e| panic!("{at}: {e}"));
        let occupants: Vec<Occupant> = seats
            .iter()
            .map(|s| Occupant::from_stored(s, "名字".into()))
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{at}: {e}"));
        let back: Vec<SeatOccupant> = occupants.iter().map(Occupant::stored).collect();
        let written = SeatOccupant::write_all(&back).unwrap_or_else(|e| panic!("{at}: {e}"));
        let written: Value = serde_json::from_str(&written).expect("JSON");
        assert_eq!(&written, line, "{at}: written back");
    }
}

#[test]
fn tournament_settings() {
    for (i, line) in lines("tournaments.jsonl").iter().enumerate() {
        let at = format!("tournaments.jsonl:{}", i + 1);
        let config = TournamentConfig::read(line).unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!(&serde_json::to_value(&config).expect("JSON"), line, "{at}");
    }
}

/// The tables of the fixture database, in the order of its per-table files.
fn tables() -> Vec<Value> {
    let text = std::fs::read_to_string(Path::new(FIXTURE).join("expected.json")).expect("read");
    let v: Value = serde_json::from_str(&text).expect("expected.json");
    v["tables"].as_array().cloned().expect("tables")
}
