//! This server among the nodes sharing its database: its lease, renewed at every heartbeat,
//! and the tables it adopts, those nobody alive holds (a node that died, or left). A node plays only
//! the tables it claimed, and every write of theirs is made under its claim
//! (`store::ownership`).

use std::net::SocketAddr;
use std::time::Duration;

use store::{NodeId, Store};

use std::sync::Arc;

use tokio::time::Instant;

use crate::AppState;
use crate::room::Command;
use crate::room::backoff::Backoff;

/// How long the node's lease lasts past its last renewal (`--node-lease-ms`): the longest its
/// tables wait for another node after it dies.
fn lease(state: &AppState) -> Duration {
    Duration::from_millis(state.config.node_lease_ms)
}

/// How often the node renews its lease and looks for tables to adopt: five times a lease, at
/// most once a second.
fn heartbeat(state: &AppState) -> Duration {
    (lease(state) / 5).min(Duration::from_secs(1))
}

/// Where a node is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodePhase {
    /// Renewing its lease and adopting orphaned tables.
    Serving,
    /// Stopping its rooms: it still renews its lease (their last writes are made under it)
    /// but adopts nothing, and the streams it ends tell relayed clients the table moved.
    Draining,
    /// Stopping: it renews nothing and adopts nothing, and its lease is ended.
    Leaving,
}

/// Waits until no other node holds a live lease on the database (one that died lets its
/// lapse within a lease), and refuses to serve beside nodes still renewing theirs: without
/// NATS a node cannot reach their tables, nor they its.
pub(crate) async fn alone(
    store: &Store,
    node: &NodeId,
    lease: Duration,
) -> Result<(), crate::ServeError> {
    let until = tokio::time::Instant::now() + lease + Duration::from_secs(1);
    loop {
        let others: Vec<NodeId> = store
            .live_nodes()
            .await?
            .into_iter()
            .filter(|n| n != node)
            .collect();
        if others.is_empty() {
            return Ok(());
        }
        if tokio::time::Instant::now() >= until {
            let others = others
                .iter()
                .map(NodeId::as_str)
                .collect::<Vec<_>>()
                .join(", ");
            return Err(crate::ServeError::NotAlone { others });
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Registers the node in the database (again, after a restart under the same name).
pub(crate) async fn register(
    store: &Store,
    node: &NodeId,
    addr: SocketAddr,
    lease: Duration,
) -> Result<(), store::StoreError> {
    store.register_node(node, &addr.to_string(), lease).await?;
    tracing::debug!(node = %node, "node registered");
    Ok(())
}

/// At every heartbeat while the node serves: renews its lease, then claims and rebuilds the
/// tables nobody alive holds (another node's, once its lease lapsed, are played on here a
/// heartbeat later). A lease found lapsed (the node was paused, or the database away, for
/// longer than the lease) is registered again: a table another node claimed meanwhile refuses
/// this node's writes from then on.
pub(crate) fn spawn_heartbeat(state: &AppState, addr: SocketAddr) {
    let state = state.clone();
    let beat = heartbeat(&state);
    let mut life = state.life.subscribe();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(beat);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // An outage is logged with backoff, not once a second.
        let mut failures = Backoff::new(beat, Duration::from_secs(30));
        // When the last renewal that went through was asked for: the lease runs from no
        // earlier than that, by any clock.
        let mut renewed_at = Instant::now();
        let mut let_go = false;
        // One adoption at a time, beside the renewals: rebuilding many tables must never
        // make the node miss its own lease.
        let adopting = Arc::new(tokio::sync::Mutex::new(()));
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = life.wait_for(|p| *p == NodePhase::Leaving) => return,
            }
            let asked_at = Instant::now();
            // After a lapse, this node's own tables without a room here are claimed back too.
            let which = match renew(&state, addr).await {
                Ok(lapsed) => {
                    failures.succeeded();
                    renewed_at = asked_at;
                    let which = if lapsed || let_go {
                        store::Claimable::OwnAndOrphaned
                    } else {
                        store::Claimable::Orphaned
                    };
                    let_go = false;
                    which
                }
                Err(e) => {
                    let retry = failures.failed();
                    if retry.log {
                        tracing::warn!(error = %e, attempt = retry.attempt, "the node's lease could not be renewed");
                    }
                    // Past its lease without a renewal, the node may have lost any table:
                    // it stops playing them all (another node adopts them, or this one
                    // claims them back once the database answers).
                    if !let_go && asked_at.duration_since(renewed_at) > lease(&state) {
                        tracing::warn!(
                            "the node's lease lapsed while the database was away; its rooms stop"
                        );
                        for room in state.lobby.rooms() {
                            tokio::spawn(async move { room.send(Command::Lost).await });
                        }
                        let_go = true;
                    }
                    continue;
                }
            };
            if *state.life.borrow() == NodePhase::Serving
                && let Ok(guard) = adopting.clone().try_lock_owned()
            {
                let state = state.clone();
                tokio::spawn(async move {
                    adopt(&state, which).await;
                    drop(guard);
                });
            }
        }
    });
}

/// The lease renewed, or registered again when it had lapsed (the rooms whose table another
/// node claimed meanwhile then stop); true in that case.
async fn renew(state: &AppState, addr: SocketAddr) -> Result<bool, store::StoreError> {
    let lease = lease(state);
    if state.store.renew_node(&state.node, lease).await? {
        return Ok(false);
    }
    tracing::warn!(node = %state.node, "the node's lease had lapsed; registering again");
    register(&state.store, &state.node, addr, lease).await?;
    let lost = let_go_of_lost_tables(state).await;
    if lost > 0 {
        tracing::warn!(
            lost,
            "tables adopted by other nodes while this one was away"
        );
    }
    Ok(true)
}

/// Claims and rebuilds the tables `which` names (a table this node plays is left as it is).
async fn adopt(state: &AppState, which: store::Claimable) {
    match crate::restore::restore_rooms(state, which).await {
        Ok(0) => {}
        Ok(adopted) => tracing::info!(adopted, "tables adopted"),
        Err(e) => {
            tracing::warn!(error = %e, "adoption failed; it is tried again at the next heartbeat")
        }
    }
}

/// Stops the rooms whose table another node claimed while this node's lease had lapsed (it was
/// paused or cut off): their writes would be refused anyway, and their sockets follow the
/// table to the node that holds it now. Returns how many. A table whose owner cannot be read
/// is let go too: it is claimed back at the next adoption if nobody else took it.
async fn let_go_of_lost_tables(state: &AppState) -> usize {
    let mut lost = 0;
    for room in state.lobby.rooms() {
        let claim = room.claim();
        let kept = match state.store.ownership(&claim.table).await {
            Ok(now) => now.epoch == claim.epoch && now.owner.as_ref() == Some(&state.node),
            Err(_) => false,
        };
        if !kept {
            tokio::spawn(async move { room.send(Command::Lost).await });
            lost += 1;
        }
    }
    lost
}

/// The node leaves (after its rooms stopped): no more renewals or adoptions, and its lease
/// ends now, so that its unfinished tables are any node's to adopt at once.
pub async fn leave(state: &AppState) {
    state.life.send_replace(NodePhase::Leaving);
    if let Err(e) = state.store.retire_node(&state.node).await {
        tracing::warn!(error = %e, "the node's lease could not be ended; it lapses by itself");
    }
}
