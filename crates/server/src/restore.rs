//! Crash recovery: every table still open or playing that this node may claim (its own from
//! before a restart, and the tables nobody alive holds) is claimed and rebuilt at start-up from
//! its carried state and the action log of its current hand, so players reconnect to the same
//! seats and the same hand.

use engine::ruleset::Ruleset;
use engine::stored::{Document, LogEntry, StoredTableState};
use engine::{Action, Game, Seat, Table, TableState};
use store::{LoggedAction, TableRecord};

use crate::AppState;
use crate::room::{self, Occupant, StoredRoom};

/// Why one table could not be rebuilt (it stays in the store, untouched).
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// Its stored settings do not read back.
    #[error("table {table}: {what}")]
    Unreadable {
        /// The table.
        table: String,
        /// What failed.
        what: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

/// Claims and rebuilds the unfinished tables this node may claim (`which`: at start its own
/// from before a restart too; while running, those of nodes whose lease lapsed and those nobody
/// holds); returns how many were restored. A table whose rebuilding the store interrupted is
/// released for the next round; one that cannot be read is logged and left as it was.
pub async fn restore_rooms(
    state: &AppState,
    which: store::Claimable,
) -> Result<usize, store::StoreError> {
    let tables = state.store.claimable_tables(&state.node, which).await?;
    let mut restored = 0;
    for id in tables {
        restored += usize::from(adopt(state, &id).await?);
    }
    Ok(restored)
}

/// Claims and rebuilds one table if this node may: false when it plays here already, another
/// node claimed it first, or it could not be rebuilt (logged; see [`restore_rooms`]).
pub async fn adopt(state: &AppState, id: &store::TableId) -> Result<bool, store::StoreError> {
    // A table this node plays already (its own lease lapsed for a moment) stays as it is.
    if state.lobby.room(id).is_some() {
        return Ok(false);
    }
    // Another node may claim it first: then it is that node's to play.
    let Some(claim) = state.store.claim_table(id, &state.node).await? else {
        return Ok(false);
    };
    let rebuilt = match state.store.table(id).await {
        Ok(record) => restore(state, record, claim.clone()).await,
        Err(e) => Err(e.into()),
    };
    match rebuilt {
        Ok(()) => Ok(true),
        Err(e @ RestoreError::Unreadable { .. }) => {
            // No node could play it: it stays claimed (logged once, not at every
            // adoption round) until an operator mends it and this node restarts.
            tracing::error!(table = %id, error = %e, "a table could not be restored");
            Ok(false)
        }
        Err(e @ RestoreError::Store(_)) => {
            // Claimed but not played, it would wait for this node's restart: it is let go
            // for the next adoption round, here or on another node.
            tracing::warn!(table = %id, error = %e, "a table could not be restored yet");
            if let Err(e) = state.store.release_table(&claim).await {
                tracing::warn!(table = %id, error = %e, "the table's claim could not be released");
            }
            Ok(false)
        }
    }
}

fn unreadable(record: &TableRecord, what: impl std::fmt::Display) -> RestoreError {
    RestoreError::Unreadable {
        table: record.id.to_string(),
        what: what.to_string(),
    }
}

async fn restore(
    state: &AppState,
    record: TableRecord,
    claim: store::Claim,
) -> Result<(), RestoreError> {
    let stored = StoredRoom::read(&record.options).map_err(|e| unreadable(&record, e))?;
    let id = record
        .ruleset
        .parse()
        .map_err(|e| unreadable(&record, format!("{e}")))?;
    let ruleset = Ruleset::new(id, &stored.options.to_raw()).map_err(|e| unreadable(&record, e))?;
    let carried = StoredTableState::read(&record.carried)
        .and_then(|c| TableState::try_from(&c))
        .map_err(|e| unreadable(&record, e))?;
    let table = Table::restore(ruleset.clone(), carried);
    let mut occupants = Vec::new();
    for seat in &record.seats {
        let name = match seat.player() {
            Some(player) => state.store.player(player).await?.display_name,
            None => String::new(),
        };
        occupants.push(Occupant::from_stored(seat, name).map_err(|e| unreadable(&record, e))?);
    }
    // The current hand: its deal (the seed) and every action after it, replayed through the
    // engine exactly as they were first applied.
    let log = state.store.actions(&record.id, record.hands_played).await?;
    let (game, seed) = replay_log(&table, &log).map_err(|e| unreadable(&record, e))?;
    let log_seq = state.store.next_action_seq(&record.id).await?;
    let start = room::Start {
        table,
        game,
        seed,
        log_seq,
        first_seq: u64::try_from(store::UnixMillis::now().0)
            .unwrap_or(1)
            .max(1),
        // Players reconnect after a restart on their clients' own schedule (a browser backs
        // off): they get the restore grace, counted from now, before the bot plays for them.
        seated_grace_ms: state.timing.grace_ms.max(state.timing.restore_grace_ms),
    };
    state.launch_room(claim, ruleset, &stored, occupants, start);
    tracing::info!(table = %record.id, hand = record.hands_played, actions = log.len(), "table restored");
    Ok(())
}

/// The hand in play rebuilt from its log lines: its deal (the seed) and every action after it,
/// applied as they were first applied; no hand when the log has no deal yet. The error says
/// which line failed and why.
fn replay_log(table: &Table, log: &[LoggedAction]) -> Result<(Option<Game>, u64), String> {
    let mut game = None;
    let mut seed = 0;
    for entry in log {
        let line = |e: &dyn std::fmt::Display| format!("logged line {}: {e}", entry.seq);
        match LogEntry::read(&entry.action).map_err(|e| line(&e))? {
            LogEntry::Deal { seed: s } => {
                seed = s;
                game = Some(table.deal(seed));
            }
            LogEntry::Action(stored) => {
                let action = Action::try_from(&stored).map_err(|e| line(&e))?;
                let seat = Seat::new(entry.seat)
                    .ok_or_else(|| line(&format!("seat {} is out of range", entry.seat)))?;
                let g = game
                    .as_mut()
                    .ok_or_else(|| line(&"an action before the deal"))?;
                g.apply(seat, action).map_err(|e| line(&e))?;
            }
        }
    }
    Ok((game, seed))
}
