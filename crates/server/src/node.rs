//! This server among the nodes sharing its database: its lease, renewed every second, and the
//! tables it adopts, those nobody alive holds (a node that died, or left). A node plays only
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
    /// Stopping: it renews nothing and adopts nothing, and its lease is ended.
    Leaving,
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

/// Renews the node's lease every second while it serves. A lease found lapsed (the node was
/// paused, or the database away, for longer than the lease) is registered again: a table
/// another node claimed meanwhile refuses this node's writes from then on.
pub(crate) fn spawn_heartbeat(state: &AppState, addr: SocketAddr) {
    let (store, node) = (state.store.clone(), state.node.clone());
    let (lease, beat) = (lease(state), heartbeat(state));
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
            match store.renew_node(&node, lease).await {
                Ok(true) => {
                    failures.succeeded();
                }
                Ok(false) => {
                    tracing::warn!(node = %node, "the node's lease had lapsed; registering again");
                    if let Err(e) = register(&store, &node, addr, lease).await {
                        tracing::warn!(error = %e, "the node could not register again");
                    }
                }
                Err(e) => {
                    let retry = failures.failed();
                    if retry.log {
                        tracing::warn!(
                            error = %e, attempt = retry.attempt,
                            "the node's lease could not be renewed"
                        );
                    }
                }
            }
        }
    });
}

/// At every heartbeat while the node serves, claims and rebuilds the tables nobody alive
/// holds: another node's, once its lease lapsed, are played on here a heartbeat later.
pub(crate) fn spawn_adoption(state: &AppState) {
    let state = state.clone();
    let beat = heartbeat(&state);
    let mut life = state.life.subscribe();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(beat);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut failures = Backoff::new(beat, Duration::from_secs(30));
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = life.wait_for(|p| *p == NodePhase::Leaving) => return,
            }
            match crate::restore::restore_rooms(&state, store::Claimable::Orphaned).await {
                Ok(adopted) => {
                    failures.succeeded();
                    if adopted > 0 {
                        tracing::info!(adopted, "tables adopted");
                    }
                }
                Err(e) => {
                    let retry = failures.failed();
                    if retry.log {
                        tracing::warn!(error = %e, attempt = retry.attempt, "adoption failed");
                    }
                }
            }
        }
    });
}

/// The node leaves (after its rooms stopped): no more renewals or adoptions, and its lease
/// ends now, so that its unfinished tables are any node's to adopt at once.
pub async fn leave(state: &AppState) {
    state.life.send_replace(NodePhase::Leaving);
    if let Err(e) = state.store.retire_node(&state.node).await {
        tracing::warn!(error = %e, "the node's lease could not be ended; it lapses by itself");
    }
}
