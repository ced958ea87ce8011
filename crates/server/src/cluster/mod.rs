//! Several nodes: a socket reaching a node that does not play its table is relayed over NATS
//! to the node that does (CLUSTER.md, option A). Any node answers any client, and a table
//! moving between nodes (its node stopped, or died and another adopted the table) costs the
//! players on relayed sockets a pause and a snapshot, not a reconnect.
//!
//! Subjects, under the cluster's name (`--cluster-name`, so that several clusters may share a
//! NATS server) and the relay format's version (nodes of another format never meet):
//! - `<cluster>.v1.table.<table>`: requests to the table's owner. Only the node playing the
//!   table subscribes, so NATS itself says where a table lives, and "no responders" says that
//!   no node plays it right now.
//! - `<cluster>.v1.code.<code>`: joins by a room's code, served beside the table's subject.
//! - `<cluster>.v1.link.<link>`: the frames of one relayed connection, owner to entry node, in
//!   the order the room sent them; the last one carries the `Mahjong-End` header.
//! - `<cluster>.v1.lobby`: every node answers with its public rooms (`lobby.rs`).
//! - `<cluster>.v1.quick.<node>`: quick-match requests to the node that forms the tables.
//!
//! Leases and fencing stay in the database (`store::ownership`): NATS only carries messages,
//! and a node that wrongly believes it owns a table can still write nothing to it.

mod entry;
mod lobby;
mod owner;

use std::time::Duration;

use protocol::{ErrorCode, WireAction};
use serde::{Deserialize, Serialize};
use store::TableId;

pub(crate) use entry::{Remote, RemoteEnd, Sink};
pub(crate) use lobby::{JoinAnswer, serve_node};
pub(crate) use owner::serve_table;

/// How often an entry node says that a relayed connection is alive (and learns that its table's
/// owner still is).
const ALIVE_EVERY: Duration = Duration::from_secs(2);
/// How long a relayed connection stays without a word before its owner counts it gone (the
/// entry node died): the room then treats it as a dropped connection, and the grace and the
/// bot's takeover follow as for any other.
const ALIVE_WITHIN: Duration = Duration::from_secs(7);
/// How long a request to a table's owner may take before it counts as unanswered.
const REQUEST_WITHIN: Duration = Duration::from_secs(2);
/// The header that ends a link's frames, with why (`ended` or `moved`).
const END_HEADER: &str = "Mahjong-End";

/// Why a link's frames ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// The room ended the stream: the match is over, a newer connection took the seat, or the
    /// player escaped (the stream said which).
    Ended,
    /// The table left its node (it is stopping): another node plays it next.
    Moved,
}

impl End {
    fn as_str(self) -> &'static str {
        match self {
            End::Ended => "ended",
            End::Moved => "moved",
        }
    }
}

/// This node's connection to NATS.
#[derive(Clone, Debug)]
pub struct Cluster {
    client: async_nats::Client,
    /// The subjects' first token: the cluster's name.
    root: String,
}

/// Why NATS could not be reached.
#[derive(Debug, thiserror::Error)]
#[error("cannot connect to NATS at {url}: {source}")]
pub struct ClusterError {
    url: String,
    source: async_nats::ConnectError,
}

impl Cluster {
    /// Connects to NATS at `url` (several servers: comma-separated), as `node` of the cluster
    /// `name`.
    pub async fn connect(
        url: &str,
        name: &str,
        node: &store::NodeId,
    ) -> Result<Cluster, ClusterError> {
        let servers: Vec<&str> = url.split(',').map(str::trim).collect();
        let client = async_nats::ConnectOptions::new()
            .name(format!("mahjong {node}"))
            .connection_timeout(Duration::from_secs(5))
            .connect(servers)
            .await
            .map_err(|source| ClusterError {
                url: url.to_string(),
                source,
            })?;
        Ok(Cluster {
            client,
            root: format!("{name}.v1"),
        })
    }

    /// Sends whatever is still buffered (the `moved` ends of a stopping node's links).
    pub async fn flush(&self) {
        if let Err(e) = self.client.flush().await {
            tracing::warn!(error = %e, "NATS could not be flushed");
        }
    }

    /// Where requests to a table's owner go.
    fn table_subject(&self, table: &TableId) -> String {
        format!("{}.table.{table}", self.root)
    }

    /// Where joins by `code` go.
    fn code_subject(&self, code: &str) -> String {
        format!("{}.code.{}", self.root, code.to_ascii_uppercase())
    }

    /// Where a link's frames go.
    fn link_subject(&self, link: &str) -> String {
        format!("{}.link.{link}", self.root)
    }

    /// A name for a new link, unique among every node's: 128 random bits.
    fn new_link() -> String {
        let mut bytes = [0u8; 16];
        // Without the system's randomness, the time and a counter still keep links apart.
        if getrandom::fill(&mut bytes).is_err() {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_nanos();
            bytes = (now ^ u128::from(crate::ws::next_conn())).to_le_bytes();
        }
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Sends `message` to the owner of `table` and reads its answer: `None` when no node plays
    /// the table now, or its node did not answer in time.
    async fn ask(&self, table: &TableId, message: &ToOwner) -> Option<FromOwner> {
        let payload = serde_json::to_vec(message).ok()?;
        let request = async_nats::Request::new()
            .payload(payload.into())
            .timeout(Some(REQUEST_WITHIN));
        let answer = self
            .client
            .send_request(self.table_subject(table), request)
            .await;
        match answer {
            Ok(reply) => serde_json::from_slice(&reply.payload).ok(),
            Err(e) => {
                tracing::debug!(table = %table, error = %e, "the table's owner did not answer");
                None
            }
        }
    }

    /// Sends `message` to the room whose join code is `code`: `None` when no node has it.
    async fn ask_code(&self, code: &str, message: &ToOwner) -> Option<FromOwner> {
        let payload = serde_json::to_vec(message).ok()?;
        let request = async_nats::Request::new()
            .payload(payload.into())
            .timeout(Some(REQUEST_WITHIN));
        let reply = self
            .client
            .send_request(self.code_subject(code), request)
            .await
            .ok()?;
        serde_json::from_slice(&reply.payload).ok()
    }

    /// Whether a live room on any node has the join code `code`.
    pub(crate) async fn code_taken(&self, code: &str) -> bool {
        self.ask_code(code, &ToOwner::Probe).await.is_some()
    }

    /// Seats `player` at the room whose code is `code`, wherever it plays.
    pub(crate) async fn join_by_code(&self, code: &str, player: &store::Player) -> JoinAnswer {
        let request = ToOwner::Join {
            player: player.id.as_str().to_string(),
            name: player.display_name.clone(),
        };
        match self.ask_code(code, &request).await {
            Some(FromOwner::Joined { table, seat }) => match TableId::parse(&table) {
                Ok(table) => JoinAnswer::Seated { table, seat },
                Err(_) => JoinAnswer::NoRoom,
            },
            Some(FromOwner::Conflict { message }) => JoinAnswer::Conflict(message),
            _ => JoinAnswer::NoRoom,
        }
    }

    /// Sends `message` to the owner of `table`, without an answer.
    async fn tell(&self, table: &TableId, message: &ToOwner) {
        let Ok(payload) = serde_json::to_vec(message) else {
            return;
        };
        let sent = self
            .client
            .publish(self.table_subject(table), payload.into())
            .await;
        if let Err(e) = sent {
            tracing::debug!(table = %table, error = %e, "a message to the table's owner was lost");
        }
    }
}

/// What an entry node asks of a table's owner.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ToOwner {
    /// A player's connection, resuming after `last_seq` (answered `seated` or `refused`).
    Connect {
        link: String,
        player: String,
        last_seq: Option<u64>,
    },
    /// A spectator's connection (answered `watching` or `refused`).
    Watch { link: String },
    /// An action (answered `known` once the room has it, `unknown` if the link is not).
    Act {
        link: String,
        id: u64,
        action: WireAction,
    },
    /// The player leaves the table.
    Leave { link: String },
    /// The client's socket closed.
    Close { link: String },
    /// The link's connection is still open (answered `known` or `unknown`).
    Alive { link: String },
    /// To a join code's subject: take a seat (answered `joined` or `conflict`).
    Join { player: String, name: String },
    /// To a join code's subject: whether a room has it (answered `known`).
    Probe,
}

/// What a table's owner answers.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum FromOwner {
    /// The player is connected to this seat.
    Seated { seat: u8 },
    /// The spectator watches.
    Watching,
    /// Refused, with the code the client is told.
    Refused { code: ErrorCode },
    /// The link is the owner's.
    Known,
    /// The owner has no such link (it dropped it as gone, or the table moved).
    Unknown,
    /// Seated at the room a join code opens.
    Joined { table: String, seat: u8 },
    /// The room cannot seat the player (full, over, or the player escaped from it).
    Conflict { message: String },
}
