//! Each room's action log: append-only, read back for crash recovery and replays.

use crate::error::is_unique_violation;
use crate::model::{LoggedAction, TableId, UnixMillis, count, json, to_i64};
use crate::{Store, StoreError, on_backend};

/// Rows in one INSERT: 6 parameters each, well under either backend's parameter limit.
const ROWS_PER_STATEMENT: usize = 128;

/// `INSERT … VALUES ($1, …, $6), ($7, …)` for `rows` rows (placeholders only, no values).
fn insert_statement(rows: usize) -> String {
    let mut sql = String::from(
        "INSERT INTO room_actions (table_id, seq, hand_no, seat, action, at_ms) VALUES ",
    );
    for r in 0..rows {
        let p = r * 6;
        if r > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!(
            "(${}, ${}, ${}, ${}, ${}, ${})",
            p + 1,
            p + 2,
            p + 3,
            p + 4,
            p + 5,
            p + 6
        ));
    }
    sql
}

/// One logged action as its row's columns: seq, hand_no, seat, action (JSON text), at_ms.
pub(crate) type Row = (i64, i64, i16, String, i64);

impl Store {
    /// Appends accepted actions to a table's log, all or none. A sequence number already in
    /// the log is refused ([`StoreError::LogConflict`]): the log is never rewritten. On a store
    /// made [`Store::with_group_commit`], the append shares a transaction with other rooms'.
    pub async fn append_actions(
        &self,
        table: &TableId,
        actions: &[LoggedAction],
    ) -> Result<(), StoreError> {
        if actions.is_empty() {
            return Ok(());
        }
        match &self.appends {
            Some(appends) => self.append_grouped(appends, table, actions).await,
            None => self.append_direct(table, actions).await,
        }
    }

    /// Appends in a transaction of its own.
    pub(crate) async fn append_direct(
        &self,
        table: &TableId,
        actions: &[LoggedAction],
    ) -> Result<(), StoreError> {
        let rows = Store::rows(actions)?;
        match self.insert_rows(&[(table.as_str(), rows)]).await {
            Ok(()) => Ok(()),
            Err(e) if is_unique_violation(&e) => Err(self.log_conflict(table, actions).await),
            Err(e)
                if e.as_database_error()
                    .is_some_and(|d| d.is_foreign_key_violation()) =>
            {
                Err(StoreError::NotFound {
                    what: "table",
                    id: table.to_string(),
                })
            }
            Err(e) => Err(e.into()),
        }
    }

    pub(crate) fn rows(actions: &[LoggedAction]) -> Result<Vec<Row>, StoreError> {
        actions
            .iter()
            .map(|a| {
                Ok((
                    to_i64(a.seq, "seq")?,
                    to_i64(a.hand_no, "hand_no")?,
                    i16::from(a.seat),
                    a.action.to_string(),
                    a.at.0,
                ))
            })
            .collect()
    }

    /// Inserts every table's rows in one transaction, a multi-row statement per chunk: one
    /// round trip for many rows, which is what a grouped commit spends its time on.
    pub(crate) async fn insert_rows(&self, tables: &[(&str, Vec<Row>)]) -> Result<(), sqlx::Error> {
        let rows: Vec<(&str, &Row)> = tables
            .iter()
            .flat_map(|(table, rows)| rows.iter().map(move |r| (*table, r)))
            .collect();
        on_backend!(self, pool => {
            async {
                let mut conn = pool.acquire().await?;
                let outcome = async {
                let mut tx = sqlx::Connection::begin(&mut *conn).await?;
                for chunk in rows.chunks(ROWS_PER_STATEMENT) {
                    let mut query = sqlx::query(sqlx::AssertSqlSafe(insert_statement(chunk.len())));
                    for (table, (seq, hand_no, seat, action, at)) in chunk {
                        query = query
                            .bind(*table)
                            .bind(seq)
                            .bind(hand_no)
                            .bind(seat)
                            .bind(action.as_str())
                            .bind(at);
                    }
                    query.execute(&mut *tx).await?;
                }
                tx.commit().await
                }
                .await;
                crate::close_if_failed(&mut conn, &outcome);
                outcome
            }
            .await
        })
    }

    /// The first offered sequence number that the log already holds.
    async fn log_conflict(&self, table: &TableId, actions: &[LoggedAction]) -> StoreError {
        let held = self.actions(table, 0).await.unwrap_or_default();
        let seq = actions
            .iter()
            .map(|a| a.seq)
            .find(|s| held.iter().any(|h| h.seq == *s))
            .or_else(|| actions.first().map(|a| a.seq))
            .unwrap_or(0);
        StoreError::LogConflict {
            table: table.to_string(),
            seq,
        }
    }

    /// The sequence number the table's next logged action takes (0 for an empty log).
    pub async fn next_action_seq(&self, table: &TableId) -> Result<u64, StoreError> {
        let next: Option<i64> = on_backend!(self, pool => {
            sqlx::query_scalar("SELECT MAX(seq) + 1 FROM room_actions WHERE table_id = $1")
                .bind(table.as_str())
                .fetch_one(pool)
                .await?
        });
        count(next.unwrap_or(0), "seq")
    }

    /// A table's logged actions from hand `from_hand` on, in order.
    pub async fn actions(
        &self,
        table: &TableId,
        from_hand: u64,
    ) -> Result<Vec<LoggedAction>, StoreError> {
        let from = to_i64(from_hand, "hand_no")?;
        let rows: Vec<(i64, i64, i16, String, i64)> = on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT seq, hand_no, seat, action, at_ms FROM room_actions \
                 WHERE table_id = $1 AND hand_no >= $2 ORDER BY seq",
            )
            .bind(table.as_str())
            .bind(from)
            .fetch_all(pool)
            .await?
        });
        rows.into_iter()
            .map(|(seq, hand_no, seat, action, at)| {
                Ok(LoggedAction {
                    seq: count(seq, "seq")?,
                    hand_no: count(hand_no, "hand_no")?,
                    seat: u8::try_from(seat)
                        .map_err(|_| StoreError::Corrupt(format!("seat = {seat}")))?,
                    action: json(&action, "logged action")?,
                    at: UnixMillis(at),
                })
            })
            .collect()
    }
}
