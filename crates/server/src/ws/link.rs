//! A socket's way to its table's room: the room's channel when the table plays on this node,
//! the relay (`cluster`) when another node plays it.

use std::sync::Arc;
use std::time::Duration;

use protocol::{ErrorCode, WireAction};
use store::{PlayerId, TableId, TableStatus};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

use super::Refusal;
use crate::AppState;
use crate::cluster::{Cluster, Remote, RemoteEnd, Sink};
use crate::node::NodePhase;
use crate::room::{Acting, Command, Connecting, RoomHandle};

/// Where a table plays, as a socket finds it.
pub(crate) enum Target {
    /// On this node.
    Here(RoomHandle),
    /// On another node (or on none for a moment, while one adopts it): looked for during
    /// `patience`.
    Elsewhere {
        cluster: Cluster,
        table: TableId,
        patience: Duration,
    },
}

/// Finds where `table` plays: here, or (with several nodes) wherever the store says a table
/// is still open or playing.
pub(crate) async fn find(state: &AppState, table: Option<&TableId>) -> Result<Target, Refusal> {
    let closed = || (ErrorCode::TableClosed, "no such table is open".to_string());
    let table = table.ok_or_else(closed)?;
    if let Some(room) = state.lobby.room(table) {
        return Ok(Target::Here(room));
    }
    let Some(cluster) = &state.cluster else {
        return Err(closed());
    };
    let record = match state.store.table(table).await {
        Ok(r) => r,
        Err(store::StoreError::NotFound { .. }) => return Err(closed()),
        Err(e) => return Err((ErrorCode::Internal, e.to_string())),
    };
    // A table without a node (waiting for players or playing) is adopted within a lease and
    // a heartbeat or two.
    let patience = match record.status {
        TableStatus::Open | TableStatus::Playing => {
            Duration::from_millis(state.config.node_lease_ms * 2) + Duration::from_secs(3)
        }
        TableStatus::Finished | TableStatus::Closed => return Err(closed()),
    };
    Ok(Target::Elsewhere {
        cluster: cluster.clone(),
        table: table.clone(),
        patience,
    })
}

/// A socket's open way to its room. The relay's end is boxed: a seated socket's task holds
/// its link for as long as it lives, and most links are to a room on this node.
pub(crate) enum Link {
    Here(RoomHandle),
    Elsewhere(Box<Remote>),
}

/// Why a seat's connection was not made: the code the client is told, or the table closed.
pub(crate) type SeatRefusal = Option<ErrorCode>;

impl Link {
    /// Connects `player`'s socket (`conn`) to its seat; frames go to `tx`.
    pub(crate) async fn seat(
        target: Target,
        player: &PlayerId,
        last_seq: Option<u64>,
        conn: u64,
        tx: mpsc::Sender<Arc<str>>,
    ) -> Result<(Link, u8), SeatRefusal> {
        match target {
            Target::Here(room) => {
                let (reply, answer) = oneshot::channel();
                let command = Command::Connect(Connecting {
                    player: player.clone(),
                    last_seq,
                    conn,
                    tx,
                    reply,
                });
                if !room.send(command).await {
                    return Err(None);
                }
                match answer.await {
                    Ok(Ok(seat)) => Ok((Link::Here(room), seat)),
                    Ok(Err(code)) => Err(Some(code)),
                    Err(_) => Err(None),
                }
            }
            Target::Elsewhere {
                cluster,
                table,
                patience,
            } => {
                let sink = Sink::Seat(tx);
                match Remote::connect(
                    &cluster,
                    &table,
                    Some(player.clone()),
                    last_seq,
                    sink,
                    patience,
                )
                .await
                {
                    Ok((remote, seat)) => Ok((Link::Elsewhere(Box::new(remote)), seat)),
                    Err(ErrorCode::TableClosed) => Err(None),
                    Err(code) => Err(Some(code)),
                }
            }
        }
    }

    /// Connects a spectator's socket (`conn`); frames go to `tx`, each with when it is due.
    pub(crate) async fn watch(
        target: Target,
        conn: u64,
        tx: mpsc::Sender<(Instant, Arc<str>)>,
    ) -> Option<Link> {
        match target {
            Target::Here(room) => room
                .send(Command::Watch { conn, tx })
                .await
                .then_some(Link::Here(room)),
            Target::Elsewhere {
                cluster,
                table,
                patience,
            } => {
                let sink = Sink::Spectator(tx);
                Remote::connect(&cluster, &table, None, None, sink, patience)
                    .await
                    .ok()
                    .map(|(remote, _)| Link::Elsewhere(Box::new(remote)))
            }
        }
    }

    /// Hands an action to the room: `TableClosed` when it has stopped, `Moving` when its table
    /// has no node right now.
    pub(crate) async fn act(
        &self,
        player: &PlayerId,
        conn: u64,
        id: u64,
        action: WireAction,
    ) -> Result<(), ErrorCode> {
        match self {
            Link::Here(room) => {
                let command = Command::Act(Acting {
                    player: player.clone(),
                    conn,
                    id,
                    action,
                    received: std::time::Instant::now(),
                });
                if room.send(command).await {
                    Ok(())
                } else if room.lost() {
                    // Another node holds the table now: the socket follows it (1012).
                    Err(ErrorCode::Moving)
                } else {
                    Err(ErrorCode::TableClosed)
                }
            }
            Link::Elsewhere(remote) => Box::pin(remote.act(id, action)).await,
        }
    }

    /// The player leaves the table.
    pub(crate) async fn leave(&self, player: &PlayerId) {
        match self {
            Link::Here(room) => {
                room.send(Command::Leave {
                    player: player.clone(),
                })
                .await;
            }
            Link::Elsewhere(remote) => Box::pin(remote.leave()).await,
        }
    }

    /// The socket closed: the room drops the connection (`player`'s, or a spectator's).
    pub(crate) async fn close(self, player: Option<PlayerId>, conn: u64) {
        match self {
            Link::Here(room) => {
                let command = match player {
                    Some(player) => Command::Disconnect { player, conn },
                    None => Command::Unwatch { conn },
                };
                room.send(command).await;
            }
            Link::Elsewhere(remote) => remote.close().await,
        }
    }

    /// How the socket closes once the room stopped sending: 1012 `moved` when the table left
    /// for another node (this node stopping, another node holding it now, or no node taking it
    /// on in time), so the client
    /// reconnects at once; else 1000 `ended`.
    pub(crate) fn closing(&self, life: &watch::Sender<NodePhase>) -> (u16, &'static str) {
        let moved = match self {
            Link::Here(room) => room.lost() || *life.borrow() != NodePhase::Serving,
            Link::Elsewhere(remote) => remote.end() == RemoteEnd::Moved,
        };
        if moved {
            (1012, "moved")
        } else {
            (1000, "ended")
        }
    }
}
