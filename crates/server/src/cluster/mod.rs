//! Several nodes: a socket reaching a node that does not play its table is relayed over NATS
//! to the node that does (CLUSTER.md, option A). Any node answers any client, and a table
//! moving between nodes (its node stopped, or died and another adopted the table) costs the
//! players on relayed sockets a pause and a snapshot, not a reconnect.
//!
//! Subjects (the version is in them: nodes of another relay format never meet):
//! - `mahjong.v1.table.<table>`: requests to the table's owner. Only the node playing the
//!   table subscribes, so NATS itself says where a table lives, and "no responders" says that
//!   no node plays it right now.
//! - `mahjong.v1.link.<link>`: the frames of one relayed connection, owner to entry node, in
//!   the order the room sent them; the last one carries the `Mahjong-End` header.
//!
//! Leases and fencing stay in the database (`store::ownership`): NATS only carries messages,
//! and a node that wrongly believes it owns a table can still write nothing to it.

mod entry;
mod owner;

use std::time::Duration;

use protocol::{ErrorCode, WireAction};
use serde::{Deserialize, Serialize};
use store::TableId;

pub(crate) use entry::{Remote, RemoteEnd, Sink};
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
}

/// Why NATS could not be reached.
#[derive(Debug, thiserror::Error)]
#[error("cannot connect to NATS at {url}: {source}")]
pub struct ClusterError {
    url: String,
    source: async_nats::ConnectError,
}

impl Cluster {
    /// Connects to NATS at `url` (several servers: comma-separated), as `node`.
    pub async fn connect(url: &str, node: &store::NodeId) -> Result<Cluster, ClusterError> {
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
        Ok(Cluster { client })
    }

    /// Where requests to a table's owner go.
    fn table_subject(table: &TableId) -> String {
        format!("mahjong.v1.table.{table}")
    }

    /// Where a link's frames go.
    fn link_subject(link: &str) -> String {
        format!("mahjong.v1.link.{link}")
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
            .send_request(Cluster::table_subject(table), request)
            .await;
        match answer {
            Ok(reply) => serde_json::from_slice(&reply.payload).ok(),
            Err(e) => {
                tracing::debug!(table = %table, error = %e, "the table's owner did not answer");
                None
            }
        }
    }

    /// Sends `message` to the owner of `table`, without an answer.
    async fn tell(&self, table: &TableId, message: &ToOwner) {
        let Ok(payload) = serde_json::to_vec(message) else {
            return;
        };
        let sent = self
            .client
            .publish(Cluster::table_subject(table), payload.into())
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
}
