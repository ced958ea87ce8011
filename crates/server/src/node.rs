//! This server among the nodes sharing its database: its lease, renewed at every heartbeat,
//! and the tables it adopts, those nobody alive holds (a node that died, or left). A node plays only
//! the tables it claimed, and every write of theirs is made under its claim
//! (`store::ownership`).

use std::net::SocketAddr;
use std::time::Duration;

use store::{NodeId, Store};

use crate::AppState;
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
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = life.wait_for(|p| *p == NodePhase::Leaving) => return,
            }
            match beat_once(&state, addr).await {
                Ok(()) => {
                    failures.succeeded();
                }
                Err(e) => {
                    let retry = failures.failed();
                    if retry.log {
                        tracing::warn!(error = %e, attempt = retry.attempt, "the node's heartbeat failed");
                    }
                }
            }
        }
    });
}

/// One heartbeat: the lease renewed (or registered again), then the orphans adopted.
async fn beat_once(state: &AppState, addr: SocketAddr) -> Result<(), store::StoreError> {
    let lease = lease(state);
    if !state.store.renew_node(&state.node, lease).await? {
        tracing::warn!(node = %state.node, "the node's lease had lapsed; registering again");
        register(&state.store, &state.node, addr, lease).await?;
        let lost = let_go_of_lost_tables(state).await?;
        if lost > 0 {
            tracing::warn!(
                lost,
                "tables adopted by other nodes while this one was away"
            );
        }
    }
    if *state.life.borrow() != NodePhase::Serving {
        return Ok(());
    }
    let adopted = crate::restore::restore_rooms(state, store::Claimable::Orphaned).await?;
    if adopted > 0 {
        tracing::info!(adopted, "tables adopted");
    }
    Ok(())
}

/// Stops the rooms whose table another node claimed while this node's lease had lapsed (it was
/// paused or cut off): their writes would be refused anyway, and their sockets follow the
/// table to the node that holds it now. Returns how many.
async fn let_go_of_lost_tables(state: &AppState) -> Result<usize, store::StoreError> {
    let mut lost = 0;
    for room in state.lobby.rooms() {
        let claim = room.claim();
        let now = state.store.ownership(&claim.table).await?;
        if now.epoch != claim.epoch || now.owner.as_ref() != Some(&state.node) {
            room.send(crate::room::Command::Lost).await;
            lost += 1;
        }
    }
    Ok(lost)
}

/// The node leaves (after its rooms stopped): no more renewals or adoptions, and its lease
/// ends now, so that its unfinished tables are any node's to adopt at once.
pub async fn leave(state: &AppState) {
    state.life.send_replace(NodePhase::Leaving);
    if let Err(e) = state.store.retire_node(&state.node).await {
        tracing::warn!(error = %e, "the node's lease could not be ended; it lapses by itself");
    }
}
