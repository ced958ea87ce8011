//! The owner's side of the relay: while a room plays on this node, its table's subject is
//! subscribed here, and each relayed connection becomes a connection of the room like a local
//! socket's, its frames published to the link's subject.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::StreamExt;
use protocol::ErrorCode;
use store::{PlayerId, TableId};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

use super::{ALIVE_EVERY, ALIVE_WITHIN, Cluster, End, FromOwner, ToOwner};
use crate::node::NodePhase;
use crate::room::{Acting, Command, Connecting, Joining, RoomHandle};
use crate::time::TimeSource;

/// Frames queued for a relayed connection before the room cuts it off (as for a socket).
const OUTBOX: usize = 512;

/// A relayed connection as its owner knows it.
struct Linked {
    /// The room's id for the connection.
    conn: u64,
    /// The seated player, or none for a spectator.
    player: Option<PlayerId>,
    /// When the entry node last said it is alive.
    seen: Instant,
    /// The task publishing its frames: stopped without a word when the link is replaced or
    /// dropped, so that only a stream the room itself ended says `ended`.
    frames: tokio::task::AbortHandle,
}

/// What the owner side of one table needs.
struct Endpoint {
    cluster: Cluster,
    table: TableId,
    room: RoomHandle,
    time: TimeSource,
    life: watch::Receiver<NodePhase>,
    links: HashMap<String, Linked>,
}

/// Serves the relayed connections of `table` while its room plays here.
pub(crate) fn serve_table(
    cluster: Cluster,
    table: TableId,
    room: RoomHandle,
    time: TimeSource,
    life: watch::Receiver<NodePhase>,
) {
    let endpoint = Endpoint {
        cluster,
        table,
        room,
        time,
        life,
        links: HashMap::new(),
    };
    let span = tracing::info_span!("relay", table = %endpoint.table);
    tokio::spawn(tracing::Instrument::instrument(endpoint.run(), span));
}

impl Endpoint {
    async fn run(mut self) {
        let Some(mut requests) = self
            .subscribe(self.cluster.table_subject(&self.table))
            .await
        else {
            return;
        };
        let code = self.cluster.code_subject(&self.room.summary().code);
        let Some(mut joins) = self.subscribe(code).await else {
            return;
        };
        let mut sweep = tokio::time::interval(ALIVE_EVERY);
        loop {
            tokio::select! {
                () = self.room.closed() => break,
                message = requests.next() => match message {
                    Some(m) => self.handle(m).await,
                    None => break,
                },
                message = joins.next() => match message {
                    Some(m) => self.handle(m).await,
                    None => break,
                },
                _ = sweep.tick() => self.sweep().await,
            }
        }
        // Dropping the subscriptions ends them: the table's requests now find no responder
        // here, and its entry nodes look for the node that plays it next.
        drop((requests, joins));
    }

    /// Subscribes `subject`, trying again while the room lives; None once it stopped.
    async fn subscribe(&self, subject: String) -> Option<async_nats::Subscriber> {
        loop {
            match self.cluster.client.subscribe(subject.clone()).await {
                Ok(s) => return Some(s),
                Err(e) => {
                    tracing::warn!(error = %e, subject, "a relay subject could not be subscribed");
                    tokio::select! {
                        () = self.room.closed() => return None,
                        () = tokio::time::sleep(ALIVE_EVERY) => {}
                    }
                }
            }
        }
    }

    async fn handle(&mut self, message: async_nats::Message) {
        let Ok(request) = serde_json::from_slice::<ToOwner>(&message.payload) else {
            tracing::warn!("an unreadable relay message was dropped");
            return;
        };
        let answer = match request {
            ToOwner::Connect {
                link,
                player,
                last_seq,
            } => Some(self.connect(link, &player, last_seq).await),
            ToOwner::Watch { link } => Some(self.watch(link).await),
            ToOwner::Act { link, id, action } => Some(self.act(&link, id, action).await),
            ToOwner::Leave { link } => {
                if let Some(player) = self.links.get(&link).and_then(|l| l.player.clone()) {
                    self.room.send(Command::Leave { player }).await;
                }
                None
            }
            ToOwner::Close { link } => {
                if let Some(linked) = self.links.remove(&link) {
                    self.drop_link(linked).await;
                }
                None
            }
            ToOwner::Join { player, name } => Some(self.join(&player, name).await),
            ToOwner::Probe => Some(FromOwner::Known),
            ToOwner::Alive { link } => Some(match self.links.get_mut(&link) {
                Some(linked) => {
                    linked.seen = Instant::now();
                    FromOwner::Known
                }
                None => FromOwner::Unknown,
            }),
        };
        if let (Some(answer), Some(reply)) = (answer, message.reply)
            && let Ok(payload) = serde_json::to_vec(&answer)
            && let Err(e) = self.cluster.client.publish(reply, payload.into()).await
        {
            tracing::debug!(error = %e, "a relay answer was lost");
        }
    }

    async fn connect(&mut self, link: String, player: &str, last_seq: Option<u64>) -> FromOwner {
        let Ok(player) = PlayerId::parse(player) else {
            return FromOwner::Refused {
                code: ErrorCode::NotSeated,
            };
        };
        // The same link again (its entry node lost sight of this node for a moment): the
        // old connection is replaced, as a second socket of the player's replaces the first.
        if let Some(old) = self.links.remove(&link) {
            self.drop_link(old).await;
        }
        let conn = crate::ws::next_conn();
        let (tx, rx) = mpsc::channel::<Arc<str>>(OUTBOX);
        let (reply, answer) = oneshot::channel();
        let command = Command::Connect(Connecting {
            player: player.clone(),
            last_seq,
            conn,
            tx,
            reply,
        });
        if !self.room.send(command).await {
            return FromOwner::Refused {
                code: ErrorCode::TableClosed,
            };
        }
        match answer.await {
            Ok(Ok(seat)) => {
                let frames = self.spawn_frames(&link, rx);
                self.links.insert(
                    link,
                    Linked {
                        conn,
                        player: Some(player),
                        seen: Instant::now(),
                        frames,
                    },
                );
                FromOwner::Seated { seat }
            }
            Ok(Err(code)) => FromOwner::Refused { code },
            Err(_) => FromOwner::Refused {
                code: ErrorCode::TableClosed,
            },
        }
    }

    async fn join(&self, player: &str, name: String) -> FromOwner {
        let conflict = |message: String| FromOwner::Conflict { message };
        let Ok(player) = PlayerId::parse(player) else {
            return conflict("no such player".into());
        };
        let (reply, answer) = oneshot::channel();
        if !self
            .room
            .send(Command::Join(Joining {
                player,
                name,
                reply,
            }))
            .await
        {
            return conflict("the table is closed".into());
        }
        match answer.await {
            Ok(Ok(seat)) => FromOwner::Joined {
                table: self.table.to_string(),
                seat,
            },
            Ok(Err(e)) => conflict(e.to_string()),
            Err(_) => conflict("the table is closed".into()),
        }
    }

    async fn watch(&mut self, link: String) -> FromOwner {
        // The same link again (its request was answered late and sent once more).
        if let Some(old) = self.links.remove(&link) {
            self.drop_link(old).await;
        }
        let conn = crate::ws::next_conn();
        let (tx, rx) = mpsc::channel::<(Instant, Arc<str>)>(OUTBOX * 4);
        if !self.room.send(Command::Watch { conn, tx }).await {
            return FromOwner::Refused {
                code: ErrorCode::TableClosed,
            };
        }
        let frames = self.spawn_delayed_frames(&link, rx);
        self.links.insert(
            link,
            Linked {
                conn,
                player: None,
                seen: Instant::now(),
                frames,
            },
        );
        FromOwner::Watching
    }

    async fn act(&mut self, link: &str, id: u64, action: protocol::WireAction) -> FromOwner {
        let Some(Linked {
            conn,
            player: Some(player),
            ..
        }) = self.links.get(link)
        else {
            return FromOwner::Unknown;
        };
        let command = Command::Act(Acting {
            player: player.clone(),
            conn: *conn,
            id,
            action,
            received: std::time::Instant::now(),
        });
        if self.room.send(command).await {
            FromOwner::Known
        } else {
            FromOwner::Unknown
        }
    }

    /// Forgets the links whose entry node has said nothing for too long (it died, or lost
    /// NATS): to the room they are dropped connections.
    async fn sweep(&mut self) {
        let now = Instant::now();
        let gone: Vec<String> = self
            .links
            .iter()
            .filter(|(_, l)| now.duration_since(l.seen) > ALIVE_WITHIN)
            .map(|(k, _)| k.clone())
            .collect();
        for link in gone {
            if let Some(linked) = self.links.remove(&link) {
                tracing::debug!(link, "a relayed connection went silent");
                self.drop_link(linked).await;
            }
        }
    }

    async fn drop_link(&self, linked: Linked) {
        // Its entry node is gone, or attaches the link afresh: no end is published, which
        // would close a socket still open there.
        linked.frames.abort();
        let command = match linked.player {
            Some(player) => Command::Disconnect {
                player,
                conn: linked.conn,
            },
            None => Command::Unwatch { conn: linked.conn },
        };
        self.room.send(command).await;
    }

    /// Publishes a seat's frames to its link as the room sends them, then the end.
    fn spawn_frames(
        &self,
        link: &str,
        mut rx: mpsc::Receiver<Arc<str>>,
    ) -> tokio::task::AbortHandle {
        let (client, subject) = (self.cluster.client.clone(), self.cluster.link_subject(link));
        let (life, room) = (self.life.clone(), self.room.clone());
        tokio::spawn(async move {
            while let Some(frame) = rx.recv().await {
                let payload = bytes_of(&frame);
                if client.publish(subject.clone(), payload).await.is_err() {
                    break;
                }
            }
            publish_end(&client, subject, &life, &room).await;
        })
        .abort_handle()
    }

    /// Publishes a spectator's frames to its link, each once its time has come (the room's
    /// spectator delay is kept here, where the room's clock is).
    fn spawn_delayed_frames(
        &self,
        link: &str,
        mut rx: mpsc::Receiver<(Instant, Arc<str>)>,
    ) -> tokio::task::AbortHandle {
        let (client, subject) = (self.cluster.client.clone(), self.cluster.link_subject(link));
        let (time, life, room) = (self.time.clone(), self.life.clone(), self.room.clone());
        tokio::spawn(async move {
            while let Some((due, frame)) = rx.recv().await {
                time.sleep_until(due).await;
                if client
                    .publish(subject.clone(), bytes_of(&frame))
                    .await
                    .is_err()
                {
                    break;
                }
            }
            publish_end(&client, subject, &life, &room).await;
        })
        .abort_handle()
    }
}

fn bytes_of(frame: &Arc<str>) -> bytes::Bytes {
    bytes::Bytes::copy_from_slice(frame.as_bytes())
}

/// The end of a link's frames: `moved` while this node stops or once another node holds the
/// table (it plays the table next), else `ended`.
async fn publish_end(
    client: &async_nats::Client,
    subject: String,
    life: &watch::Receiver<NodePhase>,
    room: &RoomHandle,
) {
    let end = if *life.borrow() == NodePhase::Serving && !room.lost() {
        End::Ended
    } else {
        End::Moved
    };
    let mut headers = async_nats::HeaderMap::new();
    headers.insert(super::END_HEADER, end.as_str());
    let _ = client
        .publish_with_headers(subject, headers, bytes::Bytes::new())
        .await;
}
