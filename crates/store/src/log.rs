//! Each room's action log: append-only, read back for crash recovery and replays.

use crate::error::is_unique_violation;
use crate::model::{LoggedAction, TableId, UnixMillis, count, json, to_i64};
use crate::ownership::{Claim, Epoch, epoch_i64};
use crate::{Backend, Store, StoreError, on_backend};

/// Rows in one INSERT: 6 parameters each, well under either backend's parameter limit.
const ROWS_PER_STATEMENT: usize = 128;

/// `INSERT … VALUES ($1, …, $6), ($7, …)` for `rows` rows (placeholders only, no values).
fn insert_statement(rows: usize) -> String {
    let mut sql = String::from(
        "INSERT INTO room_actions (table_id, seq, hand_no, seat, action, at_ms) VALUES ",
    );
    push_tuples(&mut sql, rows, 6, 0);
    sql
}

/// Appends `count` tuples of `width` placeholders, numbered on from `$after + 1`:
/// `($1, $2), ($3, $4)` for 2 of width 2 after 0.
fn push_tuples(sql: &mut String, count: usize, width: usize, after: usize) {
    for t in 0..count {
        if t > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for c in 0..width {
            if c > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!("${}", after + t * width + c + 1));
        }
        sql.push(')');
    }
}

/// One logged action as its row's columns: seq, hand_no, seat, action (JSON text), at_ms.
pub(crate) type Row = (i64, i64, i16, String, i64);

/// One table's part of an append: the epoch of the claim it is made under, and its rows.
pub(crate) struct TableRows<'a> {
    pub(crate) table: &'a TableId,
    pub(crate) epoch: Epoch,
    pub(crate) rows: Vec<Row>,
}

impl Store {
    /// Appends accepted actions to a table's log, all or none, under the node's claim on the
    /// table. A sequence number already in the log is refused ([`StoreError::LogConflict`]):
    /// the log is never rewritten; so is an append under a claim no longer current
    /// ([`StoreError::Fenced`]). On a store made [`Store::with_group_commit`], the append
    /// shares a transaction with other rooms'.
    pub async fn append_actions(
        &self,
        claim: &Claim,
        actions: &[LoggedAction],
    ) -> Result<(), StoreError> {
        if actions.is_empty() {
            return Ok(());
        }
        match &self.appends {
            Some(appends) => self.append_grouped(appends, claim, actions).await,
            // Boxed: see `append_direct`.
            None => Box::pin(self.append_direct(claim, actions)).await,
        }
    }

    /// Appends in a transaction of its own. Its future holds a transaction's state on either
    /// backend (~14.5 KiB), so `append_actions` and `append_grouped` box it: inline, it would
    /// be the size of every append's future (and of every room action's, which waits on one),
    /// though a server's appends go through the group writer, and come here only once it has
    /// stopped. Boxed, the grouped path's future is a few hundred bytes: it only waits on
    /// channels.
    pub(crate) async fn append_direct(
        &self,
        claim: &Claim,
        actions: &[LoggedAction],
    ) -> Result<(), StoreError> {
        let rows = TableRows {
            table: &claim.table,
            epoch: claim.epoch,
            rows: Store::rows(actions)?,
        };
        match self.insert_rows(&[rows]).await {
            Err(StoreError::Database(e)) if is_unique_violation(&e) => {
                Err(self.log_conflict(&claim.table, actions).await)
            }
            Err(StoreError::Database(e))
                if e.as_database_error()
                    .is_some_and(|d| d.is_foreign_key_violation()) =>
            {
                Err(StoreError::NotFound {
                    what: "table",
                    id: claim.table.to_string(),
                })
            }
            other => other,
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
    /// round trip for many rows, which is what a grouped commit spends its time on. The
    /// tables' epochs are read after the rows are written, under a share lock on PostgreSQL (a
    /// claim's update waits for this transaction to end, and this read for a claim's), and a
    /// table whose epoch is not the one its rows were offered under refuses the whole
    /// transaction. Writing first takes SQLite's write lock at the first statement: a read
    /// first would make the transaction a reader that fails to become a writer whenever
    /// another connection committed in between ("database is locked", without waiting).
    pub(crate) async fn insert_rows(&self, tables: &[TableRows<'_>]) -> Result<(), StoreError> {
        if let Backend::Sqlite(pool) = &self.backend
            && insert_fenced_sqlite(pool, tables).await?
        {
            return Ok(());
        }
        self.insert_rows_in_transaction(tables).await
    }

    /// [`Store::insert_rows`] as a transaction of several statements: the rows in chunks, then
    /// the fence read, then the commit.
    async fn insert_rows_in_transaction(&self, tables: &[TableRows<'_>]) -> Result<(), StoreError> {
        let rows: Vec<(&str, &Row)> = tables
            .iter()
            .flat_map(|t| t.rows.iter().map(move |r| (t.table.as_str(), r)))
            .collect();
        let fence = self.fence_statement(tables.len());
        on_backend!(self, pool => {
            async {
                let mut conn = pool.acquire().await?;
                let outcome = async {
                    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
                    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
                        let mut query =
                            sqlx::query(sqlx::AssertSqlSafe(insert_statement(chunk.len())));
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
                    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(fence));
                    for t in tables {
                        query = query.bind(t.table.as_str());
                    }
                    let held: Vec<(String, i64)> = query.fetch_all(&mut *tx).await?;
                    check_epochs(tables, &held)?;
                    tx.commit().await?;
                    Ok::<(), StoreError>(())
                }
                .await;
                crate::close_if_failed(&mut conn, &outcome);
                outcome
            }
            .await
        })
    }

    /// `SELECT id, epoch FROM game_tables WHERE id IN ($1, …, $n)`, share-locked where the
    /// backend has row locks (SQLite's one writer needs none).
    fn fence_statement(&self, tables: usize) -> String {
        let params = (1..=tables)
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let lock = match self.backend {
            Backend::Postgres(_) => " FOR SHARE",
            Backend::Sqlite(_) => "",
        };
        format!("SELECT id, epoch FROM game_tables WHERE id IN ({params}){lock}")
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

/// Bound parameters in one fenced SQLite insert at most: under the bundled SQLite's limit
/// (`SQLITE_MAX_VARIABLE_NUMBER`, 32,766). A larger batch goes through the transaction.
const MAX_FENCED_PARAMETERS: usize = 30_000;

/// Every table's rows in one SQLite statement that inserts them only if every table holds the
/// epoch its rows came under: true when it wrote them all, false when it wrote nothing (a
/// table gone or fenced, or a batch too large for one statement), for the transaction to
/// write them or say why not.
///
/// One statement is one round trip to SQLite's connection thread, where the transaction
/// (begin, insert, fence read, commit) made four, each a futex hand-off each way: at the
/// server's action rate a batch is one or two actions, so the hand-offs were most of the
/// writer's cost besides the commit's `fsync`. A lone statement is its own transaction, and
/// its fence is read under the write lock it holds, so no claim can change in between.
async fn insert_fenced_sqlite(
    pool: &sqlx::SqlitePool,
    tables: &[TableRows<'_>],
) -> Result<bool, StoreError> {
    let Some(insert) = FencedInsert::of(tables)? else {
        return Ok(false);
    };
    let mut query = sqlx::query(sqlx::AssertSqlSafe(insert.sql.as_str()));
    for parameter in insert.parameters() {
        query = match parameter {
            Parameter::Text(text) => query.bind(text),
            Parameter::Int(int) => query.bind(int),
        };
    }
    let written = query.execute(pool).await?.rows_affected();
    Ok(written == insert.rows as u64)
}

/// One bound value of the fenced insert.
pub(crate) enum Parameter<'a> {
    Text(&'a str),
    Int(i64),
}

/// A batch as the one fenced SQLite insert: its statement, and its values in the order the
/// statement numbers its placeholders. Both SQLite writers (the pool's, through sqlx, and the
/// group writer's thread, through rusqlite) bind from it, so the statement and the order of
/// its values are written once.
pub(crate) struct FencedInsert<'a> {
    pub(crate) sql: String,
    /// Rows it writes when the fence holds.
    pub(crate) rows: usize,
    tables: &'a [TableRows<'a>],
    epochs: Vec<i64>,
}

impl<'a> FencedInsert<'a> {
    /// None when the batch has no rows, or binds too many values for one statement.
    pub(crate) fn of(tables: &'a [TableRows<'a>]) -> Result<Option<FencedInsert<'a>>, StoreError> {
        let rows: usize = tables.iter().map(|t| t.rows.len()).sum();
        if rows == 0 || rows * 6 + tables.len() * 2 > MAX_FENCED_PARAMETERS {
            return Ok(None);
        }
        let epochs = tables
            .iter()
            .map(|t| epoch_i64(t.epoch))
            .collect::<Result<_, _>>()?;
        Ok(Some(FencedInsert {
            sql: fenced_insert_statement(rows, tables.len()),
            rows,
            tables,
            epochs,
        }))
    }

    /// How many values the statement binds.
    pub(crate) fn parameter_count(&self) -> usize {
        self.rows * 6 + self.tables.len() * 2
    }

    /// The values, `$1` first: every row's six columns, then every table's id and epoch.
    pub(crate) fn parameters(&self) -> impl Iterator<Item = Parameter<'_>> {
        use Parameter::{Int, Text};
        let rows = self.tables.iter().flat_map(|t| {
            t.rows
                .iter()
                .flat_map(move |(seq, hand_no, seat, action, at)| {
                    [
                        Text(t.table.as_str()),
                        Int(*seq),
                        Int(*hand_no),
                        Int(i64::from(*seat)),
                        Text(action.as_str()),
                        Int(*at),
                    ]
                })
        });
        let fence = (self.tables.iter().zip(&self.epochs))
            .flat_map(|(t, epoch)| [Text(t.table.as_str()), Int(*epoch)]);
        rows.chain(fence)
    }
}

/// `INSERT … SELECT` of `rows` rows (`$1` … `$6·rows`) guarded by `tables` (id, epoch) pairs
/// after them: nothing is inserted unless each pair names a table holding that epoch.
fn fenced_insert_statement(rows: usize, tables: usize) -> String {
    let mut sql = String::from(
        "INSERT INTO room_actions (table_id, seq, hand_no, seat, action, at_ms) \
         SELECT column1, column2, column3, column4, column5, column6 FROM (VALUES ",
    );
    push_tuples(&mut sql, rows, 6, 0);
    sql.push_str(") WHERE NOT EXISTS (SELECT 1 FROM (VALUES ");
    push_tuples(&mut sql, tables, 2, rows * 6);
    sql.push_str(
        ") AS fence WHERE NOT EXISTS (SELECT 1 FROM game_tables AS g \
         WHERE g.id = fence.column1 AND g.epoch = fence.column2))",
    );
    sql
}

/// Refuses the append unless every table exists and holds the epoch its rows came under.
fn check_epochs(tables: &[TableRows<'_>], held: &[(String, i64)]) -> Result<(), StoreError> {
    for t in tables {
        let Some((_, epoch)) = held.iter().find(|(id, _)| id == t.table.as_str()) else {
            return Err(StoreError::NotFound {
                what: "table",
                id: t.table.to_string(),
            });
        };
        if *epoch != epoch_i64(t.epoch)? {
            return Err(StoreError::Fenced {
                table: t.table.to_string(),
                epoch: t.epoch.0,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_number_their_placeholders_in_order() {
        assert!(
            insert_statement(2)
                .ends_with("VALUES ($1, $2, $3, $4, $5, $6), ($7, $8, $9, $10, $11, $12)")
        );
        let fenced = fenced_insert_statement(1, 2);
        assert!(fenced.contains("FROM (VALUES ($1, $2, $3, $4, $5, $6)) WHERE NOT EXISTS"));
        assert!(fenced.contains("(VALUES ($7, $8), ($9, $10)) AS fence"));
    }
}
