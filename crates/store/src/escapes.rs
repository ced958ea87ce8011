//! Escapes (逃跑), recorded the moment they happen: the seat that shows the escape and the
//! penalty against the player, in one transaction under the node's claim on the table. A
//! finished hand offers its escapes again ([`crate::Store::record_hand`]), which then changes
//! nothing: each escape is stored once, however often it is offered.

use crate::model::{EscapeRecord, SeatOccupant, UnixMillis, to_i64};
use crate::ownership::{Claim, epoch_i64};
use crate::{Store, StoreError, on_backend};

/// What makes an escape penalty's insert store it once: nothing, when that player's escape
/// from that hand is stored already (by `record_escape` or by its hand). A macro, so that
/// `concat!` can put it into a statement written whole.
macro_rules! once {
    () => {
        " ON CONFLICT (player_id, table_id, hand_no) DO NOTHING"
    };
}
pub(crate) use once;

/// Inserts an escape penalty, once.
const INSERT_ESCAPE: &str = concat!(
    "INSERT INTO escape_penalties (player_id, table_id, hand_no, ruleset, points, at_ms) \
     VALUES ($1, $2, $3, $4, $5, $6)",
    once!()
);

impl Store {
    /// Stores a player's escape as it happens: the table's new seating (`seats`, where the
    /// player's seat shows the escape) and the penalty `escape` records, both or neither.
    /// Offering the same escape again changes nothing. Refused as [`StoreError::Fenced`] once
    /// the claim is no longer current (another node plays the table, and records what happens
    /// there).
    pub async fn record_escape(
        &self,
        claim: &Claim,
        seats: &[SeatOccupant],
        escape: &EscapeRecord,
    ) -> Result<(), StoreError> {
        let seats = SeatOccupant::write_all(seats)?;
        let epoch = epoch_i64(claim.epoch)?;
        let hand_no = to_i64(escape.hand_no, "hand_no")?;
        if escape.points < 0 {
            return Err(StoreError::BadArgument(format!(
                "an escape penalty of {} points (it is never negative)",
                escape.points
            )));
        }
        let table = claim.table.as_str();
        let updated: Result<u64, sqlx::Error> = on_backend!(self, pool => {
            async {
                let mut conn = pool.acquire().await?;
                let outcome = async {
                    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
                    let updated = sqlx::query(
                        "UPDATE game_tables SET seats = $1, updated_ms = $2 \
                         WHERE id = $3 AND epoch = $4",
                    )
                    .bind(&seats)
                    .bind(UnixMillis::now().0)
                    .bind(table)
                    .bind(epoch)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                    if updated == 0 {
                        tx.rollback().await?;
                        return Ok(0);
                    }
                    sqlx::query(INSERT_ESCAPE)
                        .bind(escape.player.as_str())
                        .bind(table)
                        .bind(hand_no)
                        .bind(&escape.ruleset)
                        .bind(escape.points)
                        .bind(escape.at.0)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(updated)
                }
                .await;
                crate::close_if_failed(&mut conn, &outcome);
                outcome
            }
            .await
        });
        if updated? == 0 {
            return Err(self.refused(claim).await);
        }
        Ok(())
    }
}
