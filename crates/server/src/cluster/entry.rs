//! The entry node's side of the relay: a socket whose table plays on another node. Its
//! frames come from the owner's link subject; its requests go to the table's subject. When
//! the table moves (its node stops, or dies and another adopts it) the link attaches to the
//! next owner by itself, resuming after the last `seq` it passed on.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use protocol::{ErrorCode, WireAction};
use store::{PlayerId, TableId};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::{ALIVE_EVERY, Cluster, END_HEADER, FromOwner, ToOwner};

/// Between two tries to reach a table's next owner.
const RETRY_EVERY: Duration = Duration::from_millis(250);
/// Unanswered liveness checks in a row before the owner counts as gone.
const MISSES_ALLOWED: u32 = 2;

/// Why a remote link's frames stopped, once they have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RemoteEnd {
    /// Frames still come.
    Open,
    /// The room ended the stream (the match is over, a newer connection took the seat, an
    /// escape): as for a local room.
    Ended,
    /// No node took the table on in time after it moved: the client reconnects.
    Moved,
}

/// Where a link's frames go: a seat's socket, or a spectator's (its frames already delayed
/// by the owner).
pub(crate) enum Sink {
    Seat(mpsc::Sender<Arc<str>>),
    Spectator(mpsc::Sender<(Instant, Arc<str>)>),
}

impl Sink {
    /// Hands a frame to the socket without waiting: a socket too slow to take it is cut off,
    /// as a local room cuts it (its client resumes from its last `seq`).
    fn send(&self, frame: Arc<str>) -> Result<(), mpsc::error::TrySendError<()>> {
        use mpsc::error::TrySendError::{Closed, Full};
        let unit = |full: bool| if full { Full(()) } else { Closed(()) };
        match self {
            Sink::Seat(tx) => tx.try_send(frame).map_err(|e| unit(matches!(e, Full(_)))),
            Sink::Spectator(tx) => tx
                .try_send((Instant::now(), frame))
                .map_err(|e| unit(matches!(e, Full(_)))),
        }
    }

    async fn closed(&self) {
        match self {
            Sink::Seat(tx) => tx.closed().await,
            Sink::Spectator(tx) => tx.closed().await,
        }
    }
}

/// A connection to a table another node plays.
pub(crate) struct Remote {
    cluster: Cluster,
    table: TableId,
    link: String,
    end: Arc<Mutex<RemoteEnd>>,
    pump: tokio::task::AbortHandle,
}

/// Who a link is for, and what it attaches with.
struct Attach {
    cluster: Cluster,
    table: TableId,
    link: String,
    /// The seated player, or none for a spectator.
    player: Option<PlayerId>,
    /// How long to look for a node that plays the table before giving up.
    patience: Duration,
}

impl Attach {
    fn request(&self, last_seq: Option<u64>) -> ToOwner {
        match &self.player {
            Some(player) => ToOwner::Connect {
                link: self.link.clone(),
                player: player.as_str().to_string(),
                last_seq,
            },
            None => ToOwner::Watch {
                link: self.link.clone(),
            },
        }
    }

    /// Attaches to whichever node plays the table, trying for `patience`: the seat taken
    /// (0 for a spectator), or the code the client is told.
    async fn attach(&self, last_seq: Option<u64>) -> Result<u8, ErrorCode> {
        let deadline = Instant::now() + self.patience;
        loop {
            match self.cluster.ask(&self.table, &self.request(last_seq)).await {
                Some(FromOwner::Seated { seat }) => return Ok(seat),
                Some(FromOwner::Watching) => return Ok(0),
                // A room that stopped (its node leaving, or another node holding the table
                // now) answers so until its subscription ends: the next node is looked for.
                Some(FromOwner::Refused {
                    code: ErrorCode::TableClosed,
                })
                | None
                    if Instant::now() + RETRY_EVERY < deadline =>
                {
                    tokio::time::sleep(RETRY_EVERY).await;
                }
                Some(FromOwner::Refused { code }) => return Err(code),
                Some(
                    FromOwner::Known
                    | FromOwner::Unknown
                    | FromOwner::Joined { .. }
                    | FromOwner::Conflict { .. },
                ) => return Err(ErrorCode::Internal),
                None => return Err(ErrorCode::TableClosed),
            }
        }
    }
}

impl Remote {
    /// Connects a seated player (`player`) or a spectator (`None`) to `table` on whichever
    /// node plays it, looking for one for `patience` (a table being adopted has no node for a
    /// moment); frames go to `sink`. The seat taken (0 for a spectator), or why not.
    pub(crate) async fn connect(
        cluster: &Cluster,
        table: &TableId,
        player: Option<PlayerId>,
        last_seq: Option<u64>,
        sink: Sink,
        patience: Duration,
    ) -> Result<(Remote, u8), ErrorCode> {
        let attach = Attach {
            cluster: cluster.clone(),
            table: table.clone(),
            link: Cluster::new_link(),
            player,
            patience,
        };
        // Subscribed before asking: the owner's first frames may come before its answer.
        let frames = cluster
            .client
            .subscribe(cluster.link_subject(&attach.link))
            .await
            .map_err(|e| {
                tracing::warn!(error = %e, "a relay link could not be subscribed");
                ErrorCode::Internal
            })?;
        let seat = attach.attach(last_seq).await?;
        let end = Arc::new(Mutex::new(RemoteEnd::Open));
        let link = attach.link.clone();
        let pump = tokio::spawn(pump(attach, frames, sink, last_seq, end.clone()));
        let remote = Remote {
            cluster: cluster.clone(),
            table: table.clone(),
            link,
            end,
            pump: pump.abort_handle(),
        };
        Ok((remote, seat))
    }

    /// Hands an action to the table's room; `Moving` when the table has no node right now.
    pub(crate) async fn act(&self, id: u64, action: WireAction) -> Result<(), ErrorCode> {
        let request = ToOwner::Act {
            link: self.link.clone(),
            id,
            action,
        };
        match self.cluster.ask(&self.table, &request).await {
            Some(FromOwner::Known) => Ok(()),
            _ => Err(ErrorCode::Moving),
        }
    }

    /// The player leaves the table.
    pub(crate) async fn leave(&self) {
        let request = ToOwner::Leave {
            link: self.link.clone(),
        };
        self.cluster.tell(&self.table, &request).await;
    }

    /// The client's socket closed: the owner drops the connection.
    pub(crate) async fn close(self) {
        self.pump.abort();
        let request = ToOwner::Close {
            link: self.link.clone(),
        };
        self.cluster.tell(&self.table, &request).await;
    }

    /// Why the frames stopped.
    pub(crate) fn end(&self) -> RemoteEnd {
        self.end.lock().map_or(RemoteEnd::Moved, |e| *e)
    }
}

/// Passes a link's frames on to its socket, checks that the owner still has the link, and
/// attaches to the next owner when the table moves; sets `end` when it stops.
async fn pump(
    attach: Attach,
    mut frames: async_nats::Subscriber,
    sink: Sink,
    mut last_seq: Option<u64>,
    end: Arc<Mutex<RemoteEnd>>,
) {
    let mut alive = tokio::time::interval_at(Instant::now() + ALIVE_EVERY, ALIVE_EVERY);
    let mut misses = 0;
    let finish = loop {
        let moved = tokio::select! {
            () = sink.closed() => break RemoteEnd::Ended,
            message = frames.next() => match message {
                // NATS ended the subscription: nothing more can come on this link.
                None => break RemoteEnd::Moved,
                Some(m) => match m.headers.as_ref().and_then(|h| h.get(END_HEADER)) {
                    Some(why) if why.as_str() == "moved" => true,
                    Some(_) => break RemoteEnd::Ended,
                    None => {
                        let Ok(text) = std::str::from_utf8(&m.payload) else {
                            continue;
                        };
                        if let Some(seq) = protocol::seq_of(text) {
                            last_seq = Some(seq);
                        }
                        match sink.send(text.into()) {
                            Ok(()) => {}
                            Err(mpsc::error::TrySendError::Full(())) => break RemoteEnd::Moved,
                            Err(mpsc::error::TrySendError::Closed(())) => break RemoteEnd::Ended,
                        }
                        false
                    }
                },
            },
            _ = alive.tick() => {
                let request = ToOwner::Alive { link: attach.link.clone() };
                match attach.cluster.ask(&attach.table, &request).await {
                    Some(FromOwner::Known) => {
                        misses = 0;
                        false
                    }
                    Some(_) => true,
                    None => {
                        misses += 1;
                        misses >= MISSES_ALLOWED
                    }
                }
            },
        };
        if !moved {
            continue;
        }
        // A spectator does not resume: it reconnects for a new snapshot.
        if attach.player.is_none() {
            break RemoteEnd::Moved;
        }
        tracing::debug!(table = %attach.table, "the table moved; attaching to its next node");
        match attach.attach(last_seq).await {
            Ok(_) => misses = 0,
            Err(ErrorCode::TableClosed) => break RemoteEnd::Moved,
            Err(_) => break RemoteEnd::Ended,
        }
    };
    if let Ok(mut e) = end.lock() {
        *e = finish;
    }
}
