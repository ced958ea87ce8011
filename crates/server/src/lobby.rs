//! The lobby: every live room by table id and by join code.

use std::collections::HashMap;
use std::sync::Mutex;

use store::TableId;

use crate::room::RoomHandle;

/// Live rooms.
#[derive(Default)]
pub struct Lobby {
    rooms: Mutex<HashMap<TableId, RoomHandle>>,
    codes: Mutex<HashMap<String, TableId>>,
}

impl Lobby {
    /// Registers a room under its table id and code.
    pub fn add(&self, table: TableId, code: String, handle: RoomHandle) {
        if let Ok(mut codes) = self.codes.lock() {
            codes.insert(code, table.clone());
        }
        if let Ok(mut rooms) = self.rooms.lock() {
            rooms.insert(table, handle);
        }
    }

    /// The room of a table, while it is open.
    pub fn room(&self, table: &TableId) -> Option<RoomHandle> {
        let room = self.rooms.lock().ok()?.get(table).cloned()?;
        if room.is_closed() {
            self.forget_closed();
            return None;
        }
        Some(room)
    }

    /// Drops the rooms that have closed (their match is over), and their codes.
    fn forget_closed(&self) {
        let Ok(mut rooms) = self.rooms.lock() else {
            return;
        };
        rooms.retain(|_, r| !r.is_closed());
        if let Ok(mut codes) = self.codes.lock() {
            codes.retain(|_, t| rooms.contains_key(t));
        }
    }

    /// The table a join code opens.
    pub fn by_code(&self, code: &str) -> Option<TableId> {
        self.codes
            .lock()
            .ok()?
            .get(&code.to_ascii_uppercase())
            .cloned()
    }

    /// Whether a code is taken.
    pub fn code_taken(&self, code: &str) -> bool {
        self.codes
            .lock()
            .map(|c| c.contains_key(code))
            .unwrap_or(true)
    }

    /// Every open room.
    pub fn rooms(&self) -> Vec<RoomHandle> {
        self.forget_closed();
        self.rooms
            .lock()
            .map(|r| r.values().cloned().collect())
            .unwrap_or_default()
    }
}
