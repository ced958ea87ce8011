//! Starting a round: seat every entrant, write the round and its tables in one transaction,
//! then play the tables here (any node would adopt them otherwise).

use engine::ruleset::Ruleset;
use engine::stored::{Document, StoredTableState};
use store::{NewRoundTable, NewTable, RoundTableRecord, SeatOccupant, TournamentRecord};
use tournament::Entrant;
use tournament::duplicate::{group_key, groups, seating_seed};
use tournament::seating::{Pairing, Request, Round, Table, seat};

use super::config::{PairingKind, TournamentConfig};
use super::standings::Results;
use crate::AppState;
use crate::room::{Deals, FirstDeal, StoredRoom, hex_key};

/// The level of the bots that fill a short table.
pub const BOT_LEVEL: &str = "strong";

/// Why a round could not start.
#[derive(Debug, thiserror::Error)]
pub enum RoundError {
    /// Nobody registered.
    #[error("nobody has registered")]
    NoEntrants,
    /// The round before is still being played.
    #[error("round {0} is still being played")]
    Unfinished(u32),
    /// Every round has started.
    #[error("all {0} rounds have started")]
    NoneLeft(u32),
    /// The stored settings or secret do not read back.
    #[error("the tournament's settings do not read back: {0}")]
    Unreadable(String),
    /// The seating refused its request (a bug: the request is built here).
    #[error("seating: {0}")]
    Seating(#[from] tournament::seating::SeatingError),
    /// The store failed, or refused the round (another start won).
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

/// The rounds played so far as seatings.
pub fn history(tables: &[RoundTableRecord]) -> Vec<Round> {
    let mut rounds: Vec<Round> = Vec::new();
    for t in tables {
        let index = t.round as usize - 1;
        while rounds.len() <= index {
            rounds.push(Round { tables: Vec::new() });
        }
        rounds[index].tables.push(Table {
            seats: t.seats.iter().map(|s| s.map(Entrant)).collect(),
        });
    }
    rounds
}

/// Whether every table of `round` has closed.
pub fn round_over(tables: &[RoundTableRecord], round: u32) -> bool {
    tables.iter().filter(|t| t.round == round).all(|t| {
        !matches!(
            t.status,
            store::TableStatus::Open | store::TableStatus::Playing
        )
    })
}

/// Starts the tournament's next round and plays its tables on this node.
pub async fn start_next_round(
    state: &AppState,
    t: &TournamentRecord,
) -> Result<Vec<RoundTableRecord>, RoundError> {
    let config = TournamentConfig::read(&t.config).map_err(RoundError::Unreadable)?;
    let round = t.rounds_started + 1;
    if round > t.rounds {
        return Err(RoundError::NoneLeft(t.rounds));
    }
    let results = Results::load(&state.store, t).await?;
    if t.rounds_started > 0 && !round_over(&results.tables, t.rounds_started) {
        return Err(RoundError::Unfinished(t.rounds_started));
    }
    if results.entrants.is_empty() {
        return Err(RoundError::NoEntrants);
    }
    let secret = hex_key(&state.store.tournament_secret(&t.id).await?)
        .ok_or_else(|| RoundError::Unreadable("the secret is not 64 hex digits".into()))?;
    let ruleset = ruleset_of(t, &config)?;
    let players = usize::from(ruleset.rules().flow().players);
    let seating = seat_round(&results, &config, &secret, round, t.rounds, players).await?;
    let group_of = groups(seating.tables.len(), players);
    let mut tables = Vec::with_capacity(seating.tables.len());
    for (table, group) in seating.tables.iter().zip(group_of) {
        tables.push(
            new_table(
                state, t, &config, &ruleset, &results, table, &secret, round, group,
            )
            .await?,
        );
    }
    let started = state.store.start_round(&t.id, round, &tables).await?;
    for table in &started {
        if let Err(e) = crate::restore::adopt(state, &table.table).await {
            // Another node's heartbeat adopts it: the round is stored.
            tracing::warn!(table = %table.table, error = %e, "a round's table is left for adoption");
        }
    }
    tracing::info!(tournament = %t.id, round, tables = started.len(), "round started");
    Ok(started)
}

fn ruleset_of(t: &TournamentRecord, config: &TournamentConfig) -> Result<Ruleset, RoundError> {
    let id = t
        .ruleset
        .parse()
        .map_err(|e| RoundError::Unreadable(format!("{e}")))?;
    Ruleset::new(id, &config.options.to_raw()).map_err(|e| RoundError::Unreadable(e.to_string()))
}

/// The round's seating, off the async threads (a large field's search takes a moment).
async fn seat_round(
    results: &Results,
    config: &TournamentConfig,
    secret: &[u8; 32],
    round: u32,
    rounds: u32,
    players: usize,
) -> Result<Round, RoundError> {
    let entrants: Vec<Entrant> = results
        .entrants
        .iter()
        .map(|e| Entrant(e.entrant))
        .collect();
    let standing: Vec<Entrant> = results
        .standings(config)
        .iter()
        .map(|s| s.entrant)
        .collect();
    let history = history(&results.tables);
    let pairing = config.pairing;
    let seed = seating_seed(secret, round);
    let rounds_after = (rounds - round) as usize;
    tokio::task::spawn_blocking(move || {
        let pairing = match pairing {
            PairingKind::FewestRepeats => Pairing::FewestRepeats,
            PairingKind::Swiss => Pairing::Swiss {
                standing: &standing,
            },
        };
        seat(&Request {
            entrants: &entrants,
            seats: players,
            history: &history,
            rounds_after,
            pairing,
            seed,
        })
    })
    .await
    .map_err(|e| RoundError::Unreadable(format!("the seating task failed: {e}")))?
    .map_err(RoundError::from)
}

/// A table of the round as the store creates it: the room's settings (duplicate deals keyed
/// by its group), its seats, and the table's starting state.
#[allow(clippy::too_many_arguments)]
async fn new_table(
    state: &AppState,
    t: &TournamentRecord,
    config: &TournamentConfig,
    ruleset: &Ruleset,
    results: &Results,
    table: &Table,
    secret: &[u8; 32],
    round: u32,
    group: u32,
) -> Result<NewRoundTable, RoundError> {
    let deals = if config.duplicate {
        Deals::Duplicate {
            key: crate::auth::hex(&group_key(secret, round, group)),
        }
    } else {
        Deals::Random
    };
    let code = state
        .new_code()
        .await
        .map_err(|e| RoundError::Unreadable(format!("a table code: {e:?}")))?;
    let stored = StoredRoom {
        options: config.options.clone(),
        clock: config.clock,
        hands: config.hands,
        public: false,
        code,
        spectator_delay_ms: 0,
        deals: deals.clone(),
        first_deal: FirstDeal::AfterGrace,
    };
    let engine_table = engine::Table::new(ruleset.clone(), deals.table_seed());
    let seats = table
        .seats
        .iter()
        .map(
            |s| match s.and_then(|e| results.entrants.iter().find(|x| x.entrant == e.0)) {
                Some(e) => SeatOccupant::Player {
                    player: e.player.clone(),
                },
                None => SeatOccupant::Bot {
                    level: BOT_LEVEL.into(),
                },
            },
        )
        .collect();
    Ok(NewRoundTable {
        table: NewTable {
            ruleset: t.ruleset.clone(),
            options: stored
                .write()
                .map_err(|e| RoundError::Unreadable(e.to_string()))?,
            seats,
            carried: StoredTableState::from(engine_table.state())
                .write()
                .map_err(|e| RoundError::Unreadable(e.to_string()))?,
        },
        group,
        seats: table.seats.iter().map(|s| s.map(|e| e.0)).collect(),
    })
}
