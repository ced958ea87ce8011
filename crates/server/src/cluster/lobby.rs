//! What crosses nodes besides a table's own traffic: the lobby's public rooms, gathered from
//! every node; joins by code, which reach the room wherever it plays; and quick match, whose
//! tables are formed on one node (the live node first by name) for players waiting on any, so
//! that players on different nodes are seated together.

use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use store::{NodeId, PlayerId, TableId};
use tokio::time::Instant;

use super::Cluster;
use crate::AppState;
use crate::error::ApiError;
use crate::http::{RoomListing, Seated};
use crate::node::NodePhase;

/// How long the lobby waits for the other nodes' rooms: an answer later than this leaves that
/// node's rooms out of this one listing.
const LISTING_WITHIN: Duration = Duration::from_millis(150);

impl Cluster {
    /// Every node answers the lobby's question on this subject.
    fn lobby_subject(&self) -> String {
        format!("{}.lobby", self.root)
    }

    /// Where quick-match requests for `node` go (its name hex-encoded: a name may hold `.`,
    /// which separates a subject's tokens).
    fn quick_subject(&self, node: &NodeId) -> String {
        let hex: String = node.as_str().bytes().map(|b| format!("{b:02x}")).collect();
        format!("{}.quick.{hex}", self.root)
    }
}

/// The answer to a join by code sent to whichever node has the room.
pub(crate) enum JoinAnswer {
    /// Seated.
    Seated { table: TableId, seat: u8 },
    /// The room cannot seat the player (full, over, or the player escaped from it).
    Conflict(String),
    /// No node has a room with this code.
    NoRoom,
}

/// A quick-match request forwarded to the node that forms the tables.
#[derive(Serialize, Deserialize)]
struct QuickRequest {
    ruleset: String,
    player: String,
}

/// Its answer.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum QuickAnswer {
    Seated { seated: Seated },
    Conflict { message: String },
    Failed { message: String },
}

/// Answers the other nodes: this node's public rooms, and the quick-match requests sent to it.
pub(crate) fn serve_node(state: AppState, cluster: Cluster) {
    tokio::spawn(async move {
        let lobby = cluster.client.subscribe(cluster.lobby_subject()).await;
        let quick = cluster
            .client
            .subscribe(cluster.quick_subject(&state.node))
            .await;
        let (mut lobby, mut quick) = match (lobby, quick) {
            (Ok(l), Ok(q)) => (l, q),
            (Err(e), _) | (_, Err(e)) => {
                tracing::error!(error = %e, "the lobby's subjects could not be subscribed");
                return;
            }
        };
        let mut life = state.life.subscribe();
        loop {
            tokio::select! {
                () = async {
                    let _ = life.wait_for(|p| *p != NodePhase::Serving).await;
                } => return,
                Some(m) = lobby.next() => {
                    let rooms = crate::http::local_listings(&state);
                    reply(&cluster, m.reply, &rooms).await;
                }
                Some(m) = quick.next() => {
                    let (state, cluster) = (state.clone(), cluster.clone());
                    tokio::spawn(async move {
                        let answer = quick_here(&state, &m.payload).await;
                        reply(&cluster, m.reply, &answer).await;
                    });
                }
                else => return,
            }
        }
    });
}

async fn reply<T: Serialize>(cluster: &Cluster, to: Option<async_nats::Subject>, answer: &T) {
    if let (Some(to), Ok(payload)) = (to, serde_json::to_vec(answer))
        && let Err(e) = cluster.client.publish(to, payload.into()).await
    {
        tracing::debug!(error = %e, "a lobby answer was lost");
    }
}

/// Queues a forwarded quick-match request here, as if it had come in over HTTP.
async fn quick_here(state: &AppState, payload: &[u8]) -> QuickAnswer {
    let failed = |message: String| QuickAnswer::Failed { message };
    let Ok(request) = serde_json::from_slice::<QuickRequest>(payload) else {
        return failed("an unreadable quick-match request".into());
    };
    let ruleset = match crate::http::quick_ruleset(&request.ruleset) {
        Ok(r) => r,
        Err(e) => return failed(e.to_string()),
    };
    let player = match PlayerId::parse(&request.player) {
        Ok(id) => match state.store.player(&id).await {
            Ok(p) => p,
            Err(e) => return failed(e.to_string()),
        },
        Err(e) => return failed(e.to_string()),
    };
    match crate::quick::enqueue(state, ruleset, player).await {
        Ok(seated) => QuickAnswer::Seated { seated },
        Err(ApiError::Conflict(message)) => QuickAnswer::Conflict { message },
        Err(e) => failed(e.to_string()),
    }
}

impl Cluster {
    /// The public rooms every node answers with within [`LISTING_WITHIN`] (this node's too).
    pub(crate) async fn listings(&self) -> Vec<RoomListing> {
        let inbox = self.client.new_inbox();
        let Ok(mut answers) = self.client.subscribe(inbox.clone()).await else {
            return Vec::new();
        };
        let asked = self
            .client
            .publish_with_reply(self.lobby_subject(), inbox, Vec::new().into())
            .await;
        if asked.is_err() {
            return Vec::new();
        }
        let until = Instant::now() + LISTING_WITHIN;
        let mut rooms = Vec::new();
        while let Ok(Some(answer)) = tokio::time::timeout_at(until, answers.next()).await {
            if let Ok(more) = serde_json::from_slice::<Vec<RoomListing>>(&answer.payload) {
                rooms.extend(more);
            }
        }
        rooms
    }

    /// Queues `player` for `ruleset` on `matchmaker`, waiting up to `within`: None when that
    /// node did not answer (it is gone, or stopping).
    pub(crate) async fn quick_match(
        &self,
        matchmaker: &NodeId,
        ruleset: &str,
        player: &PlayerId,
        within: Duration,
    ) -> Option<Result<Seated, ApiError>> {
        let request = QuickRequest {
            ruleset: ruleset.to_string(),
            player: player.as_str().to_string(),
        };
        let payload = serde_json::to_vec(&request).ok()?;
        let request = async_nats::Request::new()
            .payload(payload.into())
            .timeout(Some(within));
        let answer = self
            .client
            .send_request(self.quick_subject(matchmaker), request)
            .await
            .ok()?;
        Some(match serde_json::from_slice(&answer.payload).ok()? {
            QuickAnswer::Seated { seated } => Ok(seated),
            QuickAnswer::Conflict { message } => Err(ApiError::Conflict(message)),
            QuickAnswer::Failed { message } => Err(ApiError::Internal(message)),
        })
    }
}
