//! Tournaments (比赛) run by the server: settings ([`config`]), rounds started by the organiser
//! or by the clock ([`rounds`]), standings and exports recomputed from the stored hands
//! ([`standings`]). The competition's own logic (seatings, points, duplicate seeds) is the
//! `tournament` crate's; this module binds it to the store and the rooms.
//!
//! Every node watches the tournaments in play ([`spawn_watch`]): it ends a round once all its
//! tables have closed, and starts a scheduled round when it is due. Both are safe on several
//! nodes at once: a round ends once (a conditional update) and starts once (the store moves
//! the count of rounds only from the round before).

pub mod config;
pub mod rounds;
pub mod standings;

use std::time::Duration;

use store::{TournamentRecord, TournamentStatus, UnixMillis};

use crate::AppState;
use config::TournamentConfig;

/// How often a node looks at the tournaments in play.
const WATCH_EVERY: Duration = Duration::from_secs(1);

/// Looks after the tournaments in play every second while the server runs.
pub fn spawn_watch(state: &AppState) {
    let state = state.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(WATCH_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut failures = crate::room::backoff::Backoff::new(WATCH_EVERY, Duration::from_secs(60));
        loop {
            every.tick().await;
            match watch_once(&state).await {
                Ok(()) => {
                    failures.succeeded();
                }
                Err(e) => {
                    let retry = failures.failed();
                    if retry.log {
                        tracing::warn!(error = %e, attempt = retry.attempt, "tournaments could not be looked after");
                    }
                }
            }
        }
    });
}

/// One look: ends every round whose tables have all closed, starts every scheduled round due.
pub async fn watch_once(state: &AppState) -> Result<(), store::StoreError> {
    for t in state.store.active_tournaments().await? {
        if let Err(e) = look_after(state, &t).await {
            tracing::warn!(tournament = %t.id, error = %e, "a tournament could not be looked after");
        }
    }
    Ok(())
}

/// Whether `table`'s hands are withheld for now: a duplicate tournament's table while its
/// round plays (its seeds and replays would show the group's other tables their walls).
pub async fn withheld(
    state: &AppState,
    table: &store::TableId,
) -> Result<bool, crate::error::ApiError> {
    let Some((t, round)) = state.store.tournament_of_table(table).await? else {
        return Ok(false);
    };
    let config = TournamentConfig::read(&t.config).map_err(crate::error::ApiError::Internal)?;
    Ok(config.duplicate && round.ended.is_none())
}

/// Refuses with 403 when `table`'s hands are withheld ([`withheld`]).
pub async fn refuse_if_withheld(
    state: &AppState,
    table: &store::TableId,
) -> Result<(), crate::error::ApiError> {
    if withheld(state, table).await? {
        return Err(crate::error::ApiError::Forbidden(
            "a duplicate tournament table's hands are shown once its round is over".into(),
        ));
    }
    Ok(())
}

async fn look_after(state: &AppState, t: &TournamentRecord) -> Result<(), rounds::RoundError> {
    let mut t = t.clone();
    if t.rounds_started > 0 {
        let tables = state.store.round_tables(&t.id).await?;
        if rounds::round_over(&tables, t.rounds_started)
            && state.store.end_round(&t.id, t.rounds_started).await?
        {
            tracing::info!(tournament = %t.id, round = t.rounds_started, "round over");
            t = state.store.tournament(&t.id).await?;
        }
        if !rounds::round_over(&tables, t.rounds_started) {
            return Ok(());
        }
    }
    let Ok(config) = TournamentConfig::read(&t.config) else {
        return Ok(());
    };
    let Some(schedule) = config.schedule else {
        return Ok(());
    };
    let next = t.rounds_started + 1;
    if t.status == TournamentStatus::Finished
        || next > t.rounds
        || UnixMillis::now().0 < schedule.due_ms(next)
    {
        return Ok(());
    }
    match rounds::start_next_round(state, &t).await {
        Ok(_) | Err(rounds::RoundError::Store(store::StoreError::RoundRefused { .. })) => Ok(()),
        Err(e) => Err(e),
    }
}
