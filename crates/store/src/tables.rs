//! Tables: their settings, seats, status and carried state.

use crate::model::{
    NewTable, SeatOccupant, TableId, TableRecord, TableStatus, UnixMillis, count, json,
};
use crate::ownership::{Claim, Epoch, NodeId, epoch_i64};
use crate::{Store, StoreError, on_backend};

/// A new table: id, ruleset, options, seats, status, carried, time, owner (or NULL), epoch.
pub(crate) const INSERT_TABLE: &str = "INSERT INTO game_tables \
     (id, ruleset, options, seats, status, carried, hands_played, created_ms, updated_ms, \
     owner, epoch) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $7, $8, $9)";

const SELECT_TABLE: &str = "SELECT id, ruleset, options, seats, status, carried, hands_played, \
                            created_ms, updated_ms FROM game_tables";

impl Store {
    /// Creates a table with status `open` and no hands played, claimed by `owner` (the node
    /// that will play it) at epoch 1.
    pub async fn create_table(
        &self,
        table: &NewTable,
        owner: &NodeId,
    ) -> Result<(TableRecord, Claim), StoreError> {
        let now = UnixMillis::now();
        let record = TableRecord {
            id: TableId::new(),
            ruleset: table.ruleset.clone(),
            options: table.options.clone(),
            seats: table.seats.clone(),
            status: TableStatus::Open,
            carried: table.carried.clone(),
            hands_played: 0,
            created: now,
            updated: now,
        };
        let seats = SeatOccupant::write_all(&record.seats)?;
        on_backend!(self, pool => {
            sqlx::query(INSERT_TABLE)
            .bind(record.id.as_str())
            .bind(&record.ruleset)
            .bind(record.options.to_string())
            .bind(&seats)
            .bind(record.status.as_str())
            .bind(record.carried.to_string())
            .bind(now.0)
            .bind(Some(owner.as_str()))
            .bind(1i64)
            .execute(pool)
            .await?
            .rows_affected()
        });
        let claim = Claim {
            table: record.id.clone(),
            epoch: Epoch(1),
        };
        Ok((record, claim))
    }

    /// One table.
    pub async fn table(&self, id: &TableId) -> Result<TableRecord, StoreError> {
        let row: Option<TableRow> = on_backend!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT_TABLE} WHERE id = $1")))
                .bind(id.as_str())
                .fetch_optional(pool)
                .await?
        });
        row.ok_or_else(|| StoreError::NotFound {
            what: "table",
            id: id.to_string(),
        })?
        .record()
    }

    /// Every table in one of `statuses`, oldest first: after a restart, the tables to restore.
    pub async fn tables_with_status(
        &self,
        statuses: &[TableStatus],
    ) -> Result<Vec<TableRecord>, StoreError> {
        let mut out = Vec::new();
        for status in statuses {
            let rows: Vec<TableRow> = on_backend!(self, pool => {
                sqlx::query_as(sqlx::AssertSqlSafe(format!(
                    "{SELECT_TABLE} WHERE status = $1 ORDER BY created_ms, id"
                )))
                .bind(status.as_str())
                .fetch_all(pool)
                .await?
            });
            for row in rows {
                out.push(row.record()?);
            }
        }
        out.sort_by(|a, b| (a.created, &a.id).cmp(&(b.created, &b.id)));
        Ok(out)
    }

    /// Changes a table's status (a match starts, ends or is abandoned).
    pub async fn set_table_status(
        &self,
        claim: &Claim,
        status: TableStatus,
    ) -> Result<(), StoreError> {
        self.set_table_column(claim, Column::Status, status.as_str().to_string())
            .await
    }

    /// Replaces a table's seating (a player joins or leaves, a bot takes a seat).
    pub async fn set_table_seats(
        &self,
        claim: &Claim,
        seats: &[SeatOccupant],
    ) -> Result<(), StoreError> {
        self.set_table_column(claim, Column::Seats, SeatOccupant::write_all(seats)?)
            .await
    }

    /// Replaces a table's carried state outside a finished hand (a seated player left, which
    /// resets the Shanghai 荒番 counter).
    pub async fn set_table_carried(
        &self,
        claim: &Claim,
        carried: &serde_json::Value,
    ) -> Result<(), StoreError> {
        self.set_table_column(claim, Column::Carried, carried.to_string())
            .await
    }

    /// Changes one column of a table under the node's claim on it: refused as
    /// [`StoreError::Fenced`] once the claim is no longer current.
    async fn set_table_column(
        &self,
        claim: &Claim,
        column: Column,
        value: String,
    ) -> Result<(), StoreError> {
        let id = &claim.table;
        let epoch = epoch_i64(claim.epoch)?;
        let sql = format!(
            "UPDATE game_tables SET {} = $1, updated_ms = $2 WHERE id = $3 AND epoch = $4",
            column.name()
        );
        let done = on_backend!(self, pool => {
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(value)
                .bind(UnixMillis::now().0)
                .bind(id.as_str())
                .bind(epoch)
                .execute(pool)
                .await?
                .rows_affected()
        });
        if done == 0 {
            return Err(self.refused(claim).await);
        }
        Ok(())
    }

    /// Why a write under `claim` changed no row: the table is not found
    /// ([`StoreError::NotFound`]), or another node holds it now ([`StoreError::Fenced`]).
    pub(crate) async fn refused(&self, claim: &Claim) -> StoreError {
        match self.ownership(&claim.table).await {
            Err(e) => e,
            Ok(_) => StoreError::Fenced {
                table: claim.table.to_string(),
                epoch: claim.epoch.0,
            },
        }
    }
}

/// The columns of a table that change outside a finished hand.
#[derive(Clone, Copy)]
enum Column {
    Status,
    Seats,
    Carried,
}

impl Column {
    fn name(self) -> &'static str {
        match self {
            Column::Status => "status",
            Column::Seats => "seats",
            Column::Carried => "carried",
        }
    }
}

#[derive(sqlx::FromRow)]
struct TableRow {
    id: String,
    ruleset: String,
    options: String,
    seats: String,
    status: String,
    carried: String,
    hands_played: i64,
    created_ms: i64,
    updated_ms: i64,
}

impl TableRow {
    fn record(self) -> Result<TableRecord, StoreError> {
        let seats = SeatOccupant::read_all(&self.seats)?;
        Ok(TableRecord {
            id: TableId::stored(self.id),
            ruleset: self.ruleset,
            options: json(&self.options, "table options")?,
            seats,
            status: TableStatus::parse(&self.status)?,
            carried: json(&self.carried, "table carried state")?,
            hands_played: count(self.hands_played, "hands_played")?,
            created: UnixMillis(self.created_ms),
            updated: UnixMillis(self.updated_ms),
        })
    }
}
