//! Tables: their settings, seats, status and carried state.

use sqlx::Row;

use crate::model::{
    NewTable, SeatOccupant, TableId, TableRecord, TableStatus, UnixMillis, count, json,
};
use crate::{Store, StoreError, on_backend};

const SELECT_TABLE: &str = "SELECT id, ruleset, options, seats, status, carried, hands_played, \
                            created_ms, updated_ms FROM game_tables";

impl Store {
    /// Creates a table with status `open` and no hands played.
    pub async fn create_table(&self, table: &NewTable) -> Result<TableRecord, StoreError> {
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
        let seats = seats_json(&record.seats)?;
        on_backend!(self, pool => {
            sqlx::query(
                "INSERT INTO game_tables \
                 (id, ruleset, options, seats, status, carried, hands_played, created_ms, updated_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $7)",
            )
            .bind(record.id.as_str())
            .bind(&record.ruleset)
            .bind(record.options.to_string())
            .bind(&seats)
            .bind(record.status.as_str())
            .bind(record.carried.to_string())
            .bind(now.0)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(record)
    }

    /// One table.
    pub async fn table(&self, id: &TableId) -> Result<TableRecord, StoreError> {
        let row = on_backend!(self, pool => {
            sqlx::query(sqlx::AssertSqlSafe(format!("{SELECT_TABLE} WHERE id = $1")))
                .bind(id.as_str())
                .fetch_optional(pool)
                .await?
                .map(|r| table_row(&r))
                .transpose()?
        });
        row.ok_or_else(|| StoreError::NotFound {
            what: "table",
            id: id.to_string(),
        })
    }

    /// Every table in one of `statuses`, oldest first: after a restart, the tables to restore.
    pub async fn tables_with_status(
        &self,
        statuses: &[TableStatus],
    ) -> Result<Vec<TableRecord>, StoreError> {
        let mut out = Vec::new();
        for status in statuses {
            let rows = on_backend!(self, pool => {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "{SELECT_TABLE} WHERE status = $1 ORDER BY created_ms, id"
                )))
                .bind(status.as_str())
                .fetch_all(pool)
                .await?
                .iter()
                .map(table_row)
                .collect::<Result<Vec<_>, _>>()?
            });
            out.extend(rows);
        }
        out.sort_by(|a, b| (a.created, &a.id).cmp(&(b.created, &b.id)));
        Ok(out)
    }

    /// Changes a table's status (a match starts, ends or is abandoned).
    pub async fn set_table_status(
        &self,
        id: &TableId,
        status: TableStatus,
    ) -> Result<(), StoreError> {
        let done = on_backend!(self, pool => {
            sqlx::query("UPDATE game_tables SET status = $1, updated_ms = $2 WHERE id = $3")
                .bind(status.as_str())
                .bind(UnixMillis::now().0)
                .bind(id.as_str())
                .execute(pool)
                .await?
                .rows_affected()
        });
        found(done, id)
    }

    /// Replaces a table's seating (a player joins or leaves, a bot takes a seat).
    pub async fn set_table_seats(
        &self,
        id: &TableId,
        seats: &[SeatOccupant],
    ) -> Result<(), StoreError> {
        let seats = seats_json(seats)?;
        let done = on_backend!(self, pool => {
            sqlx::query("UPDATE game_tables SET seats = $1, updated_ms = $2 WHERE id = $3")
                .bind(&seats)
                .bind(UnixMillis::now().0)
                .bind(id.as_str())
                .execute(pool)
                .await?
                .rows_affected()
        });
        found(done, id)
    }

    /// Replaces a table's carried state outside a finished hand (a seated player left, which
    /// resets the Shanghai 荒番 counter).
    pub async fn set_table_carried(
        &self,
        id: &TableId,
        carried: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let done = on_backend!(self, pool => {
            sqlx::query("UPDATE game_tables SET carried = $1, updated_ms = $2 WHERE id = $3")
                .bind(carried.to_string())
                .bind(UnixMillis::now().0)
                .bind(id.as_str())
                .execute(pool)
                .await?
                .rows_affected()
        });
        found(done, id)
    }
}

fn found(rows: u64, id: &TableId) -> Result<(), StoreError> {
    if rows == 0 {
        return Err(StoreError::NotFound {
            what: "table",
            id: id.to_string(),
        });
    }
    Ok(())
}

fn seats_json(seats: &[SeatOccupant]) -> Result<String, StoreError> {
    serde_json::to_string(seats).map_err(|e| StoreError::BadArgument(format!("seats: {e}")))
}

fn table_row<R: Row>(r: &R) -> Result<TableRecord, StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    String: for<'a> sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    i64: for<'a> sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    let text = |c: &str| r.try_get::<String, _>(c);
    let seats: Vec<SeatOccupant> = serde_json::from_str(&text("seats")?)
        .map_err(|e| StoreError::Corrupt(format!("table seats: {e}")))?;
    Ok(TableRecord {
        id: TableId::stored(text("id")?),
        ruleset: text("ruleset")?,
        options: json(&text("options")?, "table options")?,
        seats,
        status: TableStatus::parse(&text("status")?)?,
        carried: json(&text("carried")?, "table carried state")?,
        hands_played: count(r.try_get::<i64, _>("hands_played")?, "hands_played")?,
        created: UnixMillis(r.try_get::<i64, _>("created_ms")?),
        updated: UnixMillis(r.try_get::<i64, _>("updated_ms")?),
    })
}
