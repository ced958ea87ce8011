//! Which node plays which table, when several server nodes share one database.
//!
//! A node is alive while its lease lies ahead of the database's clock; its heartbeat renews the
//! lease, and a node that finds its lease lapsed must stop playing its tables (another node may
//! have adopted them). A table is claimed by one conditional update that names the new owner and
//! raises the table's epoch: it succeeds only for a table nobody alive owns (or that the claiming
//! node owned before a restart under the same name). Every write of a table's play carries the
//! epoch of its claim ([`Claim`]), and a write under an older epoch is refused, so a node that
//! lost a table writes nothing to it, whatever it believes.
//!
//! Expiry compares times of one clock, the database's, never the nodes' own.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::model::{TableId, TableStatus, count, to_i64};
use crate::{Backend, Store, StoreError, on_backend};

/// A server node's name: stable across its restarts (a host name and port, say), so that a
/// restarted node takes back its own tables at once instead of waiting for its old lease.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(String);

impl NodeId {
    /// Longest name taken.
    pub const MAX_LEN: usize = 64;

    /// Reads a node name: 1 to 64 of `A-Z a-z 0-9 . _ : -`.
    pub fn parse(s: &str) -> Result<NodeId, StoreError> {
        let fits = !s.is_empty()
            && s.len() <= NodeId::MAX_LEN
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'));
        if fits {
            Ok(NodeId(s.to_string()))
        } else {
            Err(StoreError::BadArgument(format!(
                "`{s}` is not a node name (1 to {} letters, digits, `.`, `_`, `:` or `-`)",
                NodeId::MAX_LEN
            )))
        }
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// How many times a table has changed owner: raised by every claim and release.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Epoch(pub u64);

/// A node's hold on a table: the table and the epoch its claim set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The table.
    pub table: TableId,
    /// The epoch the claim set; a write under any other is refused.
    pub epoch: Epoch,
}

/// Who plays a table now, as the database says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ownership {
    /// The owner, if any node claimed the table.
    pub owner: Option<NodeId>,
    /// Whether that owner's lease is still ahead of the database's clock.
    pub alive: bool,
    /// The table's epoch.
    pub epoch: Epoch,
    /// The address the owner registered (where clients and other nodes reach it).
    pub address: Option<String>,
}

/// Which tables a node looks for to claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claimable {
    /// At start: its own from before a restart under the same name, and the orphans.
    OwnAndOrphaned,
    /// While running: the orphans only (nobody owns them, or their owner's lease lapsed).
    Orphaned,
}

/// The statuses of a table that is still played (and so owned).
const IN_PLAY: [TableStatus; 2] = [TableStatus::Open, TableStatus::Playing];

/// [`IN_PLAY`] as an SQL list of string literals.
fn in_play() -> String {
    IN_PLAY
        .iter()
        .map(|s| format!("'{}'", s.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Store {
    /// The database's clock in Unix milliseconds, as an SQL expression of this backend.
    fn db_now_ms(&self) -> &'static str {
        match self.backend {
            Backend::Postgres(_) => "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT",
            Backend::Sqlite(_) => "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
        }
    }

    /// A condition true of a table row (`game_tables`) that `$node` may claim: nobody owns it,
    /// `$node` itself owned it (before a restart), or its owner's lease has lapsed.
    fn claimable(&self, node_param: &str) -> String {
        let now = self.db_now_ms();
        format!(
            "status IN ({}) AND (owner IS NULL OR owner = {node_param} OR NOT EXISTS \
             (SELECT 1 FROM nodes n WHERE n.id = game_tables.owner AND n.expires_ms > {now}))",
            in_play()
        )
    }

    /// The statement of [`Store::claimable_tables`] (`$1`: the node), the condition of
    /// [`Store::claimable`] turned around: it starts from the owners, not from the tables.
    /// Every node asks it at every heartbeat (once a second), and read table by table it
    /// visited every table in play: at 4,000 tables, 850 pages of a connection whose cache the
    /// action log's commits had just invalidated, re-read from the file each second, to find
    /// nothing. Through the owner index it reads the distinct owners (a few index pages), asks
    /// `nodes` about each, and reads only the rows of the tables nobody owns and of the owners
    /// that lapsed. On SQLite the unary `+` keeps the planner off the status index, which it
    /// would otherwise take (without statistics it cannot know that the status matches
    /// almost every row).
    fn claimable_statement(&self, which: Claimable) -> String {
        let now = self.db_now_ms();
        let status = match self.backend {
            Backend::Postgres(_) => "status",
            Backend::Sqlite(_) => "+status",
        };
        let own = match which {
            Claimable::OwnAndOrphaned => "owner = $1 OR ",
            Claimable::Orphaned => "",
        };
        format!(
            "SELECT id FROM game_tables WHERE {status} IN ({}) AND (owner IS NULL OR {own}\
             owner IN (SELECT o FROM (SELECT DISTINCT owner AS o FROM game_tables \
             WHERE owner IS NOT NULL AND owner <> $1) AS owners WHERE NOT EXISTS \
             (SELECT 1 FROM nodes n WHERE n.id = owners.o AND n.expires_ms > {now}))) \
             ORDER BY created_ms, id",
            in_play()
        )
    }

    /// Registers `node` (or registers it again after a restart) with a lease of `lease` from
    /// now, by the database's clock.
    pub async fn register_node(
        &self,
        node: &NodeId,
        address: &str,
        lease: Duration,
    ) -> Result<(), StoreError> {
        let now = self.db_now_ms();
        let sql = format!(
            "INSERT INTO nodes (id, address, started_ms, expires_ms) VALUES ($1, $2, {now}, {now} + $3) \
             ON CONFLICT (id) DO UPDATE SET address = excluded.address, \
             started_ms = excluded.started_ms, expires_ms = excluded.expires_ms"
        );
        on_backend!(self, pool => {
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(node.as_str())
                .bind(address)
                .bind(millis(lease))
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(())
    }

    /// Renews `node`'s lease to `lease` from now. False when the lease had already lapsed (or
    /// the node was retired): the node's tables may belong to others by now, and it must stop
    /// playing them and claim them again before it writes.
    pub async fn renew_node(&self, node: &NodeId, lease: Duration) -> Result<bool, StoreError> {
        let now = self.db_now_ms();
        let sql = format!(
            "UPDATE nodes SET expires_ms = {now} + $2 WHERE id = $1 AND expires_ms > {now}"
        );
        let renewed = on_backend!(self, pool => {
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(node.as_str())
                .bind(millis(lease))
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(renewed == 1)
    }

    /// The nodes whose lease is alive, by name.
    pub async fn live_nodes(&self) -> Result<Vec<NodeId>, StoreError> {
        let sql = format!(
            "SELECT id FROM nodes WHERE expires_ms > {} ORDER BY id",
            self.db_now_ms()
        );
        let ids: Vec<String> = on_backend!(self, pool => {
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await?
        });
        Ok(ids.into_iter().map(NodeId).collect())
    }

    /// Ends `node`'s lease now (a node leaving): the tables it still owns are claimable at once.
    pub async fn retire_node(&self, node: &NodeId) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            sqlx::query("UPDATE nodes SET expires_ms = 0 WHERE id = $1")
                .bind(node.as_str())
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(())
    }

    /// Claims `table` for `node` if it may (see the module's doc): its new epoch, or None when
    /// a live node holds it or the table is over.
    pub async fn claim_table(
        &self,
        table: &TableId,
        node: &NodeId,
    ) -> Result<Option<Claim>, StoreError> {
        let sql = format!(
            "UPDATE game_tables SET owner = $2, epoch = epoch + 1 WHERE id = $1 AND {} \
             RETURNING epoch",
            self.claimable("$2")
        );
        let epoch: Option<i64> = on_backend!(self, pool => {
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                .bind(table.as_str())
                .bind(node.as_str())
                .fetch_optional(pool)
                .await?
        });
        epoch
            .map(|e| {
                Ok(Claim {
                    table: table.clone(),
                    epoch: Epoch(count(e, "epoch")?),
                })
            })
            .transpose()
    }

    /// The tables `node` may claim now, oldest first: those nobody owns, those of nodes whose
    /// lease lapsed, and with [`Claimable::OwnAndOrphaned`] its own from before a restart.
    pub async fn claimable_tables(
        &self,
        node: &NodeId,
        which: Claimable,
    ) -> Result<Vec<TableId>, StoreError> {
        let sql = self.claimable_statement(which);
        let ids: Vec<String> = on_backend!(self, pool => {
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                .bind(node.as_str())
                .fetch_all(pool)
                .await?
        });
        Ok(ids.into_iter().map(TableId::stored).collect())
    }

    /// Gives up a claimed table (a node draining): nobody owns it and its epoch is raised, so
    /// the claim's writes are refused from now on and any node may claim it. False when the
    /// claim was no longer current.
    pub async fn release_table(&self, claim: &Claim) -> Result<bool, StoreError> {
        let released = on_backend!(self, pool => {
            sqlx::query(
                "UPDATE game_tables SET owner = NULL, epoch = epoch + 1 \
                 WHERE id = $1 AND epoch = $2",
            )
            .bind(claim.table.as_str())
            .bind(epoch_i64(claim.epoch)?)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(released == 1)
    }

    /// Who plays `table` now.
    pub async fn ownership(&self, table: &TableId) -> Result<Ownership, StoreError> {
        let now = self.db_now_ms();
        let sql = format!(
            "SELECT g.owner, g.epoch, n.address, COALESCE(n.expires_ms > {now}, FALSE) \
             FROM game_tables g LEFT JOIN nodes n ON n.id = g.owner WHERE g.id = $1"
        );
        let row: Option<(Option<String>, i64, Option<String>, bool)> = on_backend!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(table.as_str())
                .fetch_optional(pool)
                .await?
        });
        let (owner, epoch, address, alive) = row.ok_or_else(|| StoreError::NotFound {
            what: "table",
            id: table.to_string(),
        })?;
        Ok(Ownership {
            owner: owner.map(NodeId),
            alive,
            epoch: Epoch(count(epoch, "epoch")?),
            address,
        })
    }
}

/// A lease's length in whole milliseconds, as the database takes it.
fn millis(lease: Duration) -> i64 {
    i64::try_from(lease.as_millis()).unwrap_or(i64::MAX)
}

/// An epoch as the database stores it.
pub(crate) fn epoch_i64(epoch: Epoch) -> Result<i64, StoreError> {
    to_i64(epoch.0, "epoch")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SQLite's plan of the heartbeat's query: through the owner index, never through the
    /// status index nor a scan of the tables.
    #[tokio::test]
    async fn claimable_tables_are_found_through_their_owners() {
        let store = Store::connect("sqlite::memory:").await.expect("opens");
        let Backend::Sqlite(pool) = &store.backend else {
            panic!("an SQLite store")
        };
        for which in [Claimable::Orphaned, Claimable::OwnAndOrphaned] {
            let sql = format!("EXPLAIN QUERY PLAN {}", store.claimable_statement(which));
            let plan: Vec<(i64, i64, i64, String)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind("node-a")
                .fetch_all(pool)
                .await
                .expect("plans");
            let steps: Vec<&str> = plan.iter().map(|(_, _, _, d)| d.as_str()).collect();
            assert!(
                steps
                    .iter()
                    .filter(|d| d.contains(" game_tables "))
                    .all(|d| d.contains("game_tables_by_owner")),
                "{which:?}: {steps:#?}"
            );
        }
    }
}
