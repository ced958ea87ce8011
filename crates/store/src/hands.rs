//! Finished hands: stored with everything they change in one transaction, and read back as a
//! table's history or one hand's replay.

use crate::model::{
    FinishedHand, HandSummary, INITIAL_RATING, Recorded, SeatResult, TableId, UnixMillis, bits_u64,
    count, json, to_i64, u64_bits,
};
use crate::ownership::{Claim, epoch_i64};
use crate::{PlayerId, Store, StoreError, on_backend};

/// What the guarded update of the table found when it changed nothing.
enum Refused {
    /// The table stores more hands than this one's number: maybe this very hand.
    Behind { stored: i64, seed: Option<i64> },
    /// The table does not exist.
    NoTable,
    /// The table's epoch is not the claim's: another node holds it now.
    Fenced,
}

impl Store {
    /// Stores a finished hand: its row and per-seat results, the table's new carried state and
    /// status, escape penalties and rating changes, all in one transaction or not at all.
    ///
    /// The hand must be the table's next (`hand_no == hands_played`). Offering a hand already
    /// stored with the same seed (a retry after a lost reply) changes nothing and returns
    /// [`Recorded::AlreadyStored`]. The hand is written under the node's claim on its table,
    /// and refused ([`StoreError::Fenced`]) once the claim is no longer current.
    pub async fn record_hand(
        &self,
        claim: &Claim,
        hand: &FinishedHand,
    ) -> Result<Recorded, StoreError> {
        if claim.table != hand.table {
            return Err(StoreError::BadArgument(format!(
                "a hand of table {} offered under a claim on table {}",
                hand.table, claim.table
            )));
        }
        let epoch = epoch_i64(claim.epoch)?;
        let hand_no = to_i64(hand.hand_no, "hand_no")?;
        let seed = u64_bits(hand.seed);
        let carried = hand.carried.to_string();
        let fans = hand.fans.to_string();
        let record = hand.record.to_string();
        let at = hand.finished.0;
        let table = hand.table.as_str();
        let ratings = merged_ratings(hand);
        let outcome: Result<Option<Refused>, sqlx::Error> = on_backend!(self, pool => {
            async {
                let mut conn = pool.acquire().await?;
                let outcome = async {
                let mut tx = sqlx::Connection::begin(&mut *conn).await?;
                // The guarded write comes first: it takes the table's row lock (PostgreSQL) or
                // the write lock (SQLite) before anything is read, so two writers of the same
                // hand serialise here and the second sees the first's result.
                let updated = sqlx::query(
                    "UPDATE game_tables SET carried = $1, status = $2, \
                     hands_played = hands_played + 1, updated_ms = $3 \
                     WHERE id = $4 AND hands_played = $5 AND epoch = $6",
                )
                .bind(&carried)
                .bind(hand.table_status.as_str())
                .bind(at)
                .bind(table)
                .bind(hand_no)
                .bind(epoch)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if updated == 0 {
                    let stored: Option<(i64, i64)> = sqlx::query_as(
                        "SELECT hands_played, epoch FROM game_tables WHERE id = $1",
                    )
                    .bind(table)
                    .fetch_optional(&mut *tx)
                    .await?;
                    let seed: Option<i64> = sqlx::query_scalar(
                        "SELECT seed FROM hands WHERE table_id = $1 AND hand_no = $2",
                    )
                    .bind(table)
                    .bind(hand_no)
                    .fetch_optional(&mut *tx)
                    .await?;
                    tx.rollback().await?;
                    return Ok(Some(match stored {
                        None => Refused::NoTable,
                        Some((_, held)) if held != epoch => Refused::Fenced,
                        Some((stored, _)) => Refused::Behind { stored, seed },
                    }));
                }
                sqlx::query(
                    "INSERT INTO hands (table_id, hand_no, ruleset, seed, dealer, ending, fans, \
                     record, finished_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(table)
                .bind(hand_no)
                .bind(&hand.ruleset)
                .bind(seed)
                .bind(i16::from(hand.dealer))
                .bind(&hand.ending)
                .bind(&fans)
                .bind(&record)
                .bind(at)
                .execute(&mut *tx)
                .await?;
                // Seats and ratings go in one multi-row statement each: a hand costs five
                // round trips whatever the table's size.
                let mut seats = sqlx::QueryBuilder::new(
                    "INSERT INTO hand_seats (table_id, hand_no, seat, player_id, delta, ruleset, \
                     finished_ms) ",
                );
                seats.push_values(hand.seats.iter().enumerate(), |mut row, (seat, result)| {
                    row.push_bind(table)
                        .push_bind(hand_no)
                        .push_bind(i16::try_from(seat).unwrap_or(i16::MAX))
                        .push_bind(result.player.as_ref().map(PlayerId::as_str))
                        .push_bind(result.delta)
                        .push_bind(&hand.ruleset)
                        .push_bind(at);
                });
                if !hand.seats.is_empty() {
                    seats.build().execute(&mut *tx).await?;
                }
                if !hand.escapes.is_empty() {
                    let mut escapes = sqlx::QueryBuilder::new(
                        "INSERT INTO escape_penalties (player_id, table_id, hand_no, ruleset, \
                         points, at_ms) ",
                    );
                    escapes.push_values(&hand.escapes, |mut row, escape| {
                        row.push_bind(escape.player.as_str())
                            .push_bind(table)
                            .push_bind(hand_no)
                            .push_bind(&hand.ruleset)
                            .push_bind(escape.points)
                            .push_bind(at);
                    });
                    // Recorded already when they happened (`record_escape`), as a rule: offered
                    // again here in case that write did not go through.
                    escapes.push(crate::escapes::once!());
                    escapes.build().execute(&mut *tx).await?;
                }
                if !ratings.is_empty() {
                    let mut upsert = sqlx::QueryBuilder::new(
                        "INSERT INTO ratings (player_id, ruleset, rating, games, updated_ms) ",
                    );
                    upsert.push_values(&ratings, |mut row, (player, delta)| {
                        row.push_bind(player.as_str())
                            .push_bind(&hand.ruleset)
                            .push_bind(INITIAL_RATING + delta)
                            .push_bind(1i64)
                            .push_bind(at);
                    });
                    upsert.push(RATING_UPSERT);
                    upsert.build().execute(&mut *tx).await?;
                }
                tx.commit().await?;
                Ok(None)
                }
                .await;
                crate::close_if_failed(&mut conn, &outcome);
                outcome
            }
            .await
        });
        match outcome? {
            None => Ok(Recorded::Stored),
            Some(Refused::Fenced) => Err(StoreError::Fenced {
                table: hand.table.to_string(),
                epoch: claim.epoch.0,
            }),
            Some(Refused::NoTable) => Err(StoreError::NotFound {
                what: "table",
                id: hand.table.to_string(),
            }),
            Some(Refused::Behind { seed: Some(s), .. }) if s == seed => Ok(Recorded::AlreadyStored),
            Some(Refused::Behind { seed: Some(_), .. }) => Err(StoreError::HandConflict {
                table: hand.table.to_string(),
                hand: hand.hand_no,
            }),
            Some(Refused::Behind { stored, seed: None }) => Err(StoreError::HandOutOfOrder {
                table: hand.table.to_string(),
                stored: count(stored, "hands_played")?,
                hand: hand.hand_no,
            }),
        }
    }

    /// Every stored hand of a table, in order.
    pub async fn table_hands(&self, table: &TableId) -> Result<Vec<HandSummary>, StoreError> {
        let rows: Vec<HandRow> = on_backend!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {HAND_COLUMNS} FROM hands WHERE table_id = $1 ORDER BY hand_no"
            )))
            .bind(table.as_str())
            .fetch_all(pool)
            .await?
        });
        let mut seats = self.seat_rows(table, None).await?;
        rows.into_iter()
            .map(|row| {
                let mine: Vec<SeatRow> = seats.extract_if(.., |s| s.0 == row.hand_no).collect();
                row.summary(table, mine)
            })
            .collect()
    }

    /// One hand with its replay record.
    pub async fn hand(
        &self,
        table: &TableId,
        hand_no: u64,
    ) -> Result<(HandSummary, serde_json::Value), StoreError> {
        let n = to_i64(hand_no, "hand_no")?;
        let row: Option<HandRow> = on_backend!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {HAND_COLUMNS}, record FROM hands WHERE table_id = $1 AND hand_no = $2"
            )))
            .bind(table.as_str())
            .bind(n)
            .fetch_optional(pool)
            .await?
        });
        let mut row = row.ok_or_else(|| StoreError::NotFound {
            what: "hand",
            id: format!("{table}/{hand_no}"),
        })?;
        let record = json(&std::mem::take(&mut row.record), "hand record")?;
        let seats = self.seat_rows(table, Some(n)).await?;
        Ok((row.summary(table, seats)?, record))
    }

    /// Per-seat rows of a table's hands (of one hand when `hand_no` is given), in order.
    async fn seat_rows(
        &self,
        table: &TableId,
        hand_no: Option<i64>,
    ) -> Result<Vec<SeatRow>, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT hand_no, seat, player_id, delta FROM hand_seats \
                 WHERE table_id = $1 AND ($2 < 0 OR hand_no = $2) ORDER BY hand_no, seat",
            )
            .bind(table.as_str())
            .bind(hand_no.unwrap_or(-1))
            .fetch_all(pool)
            .await?
        }))
    }
}

/// The conflict clause of the ratings upsert: an existing rating moves by the change (the new
/// row carries `INITIAL_RATING + change`).
const RATING_UPSERT: &str = " ON CONFLICT (player_id, ruleset) DO UPDATE SET \
    rating = ratings.rating + (excluded.rating - 1500.0), games = ratings.games + 1, \
    updated_ms = excluded.updated_ms";

// The clause above spells the initial rating out.
const _: () = assert!(INITIAL_RATING == 1500.0);

/// One change per player (a multi-row upsert may not touch a row twice).
fn merged_ratings(hand: &FinishedHand) -> Vec<(&PlayerId, f64)> {
    let mut out: Vec<(&PlayerId, f64)> = Vec::new();
    for change in &hand.ratings {
        match out.iter_mut().find(|(p, _)| *p == &change.player) {
            Some((_, d)) => *d += change.delta,
            None => out.push((&change.player, change.delta)),
        }
    }
    out
}

/// (hand_no, seat, player, delta) as stored.
type SeatRow = (i64, i16, Option<String>, i64);

/// The columns of a [`HandRow`] but its record.
const HAND_COLUMNS: &str = "hand_no, ruleset, seed, dealer, ending, fans, finished_ms";

#[derive(sqlx::FromRow)]
struct HandRow {
    hand_no: i64,
    ruleset: String,
    seed: i64,
    dealer: i16,
    ending: String,
    fans: String,
    finished_ms: i64,
    /// Read only for a replay.
    #[sqlx(default)]
    record: String,
}

impl HandRow {
    fn summary(self, table: &TableId, seats: Vec<SeatRow>) -> Result<HandSummary, StoreError> {
        Ok(HandSummary {
            table: table.clone(),
            hand_no: count(self.hand_no, "hand_no")?,
            ruleset: self.ruleset,
            seed: bits_u64(self.seed),
            dealer: u8::try_from(self.dealer)
                .map_err(|_| StoreError::Corrupt(format!("dealer = {}", self.dealer)))?,
            ending: self.ending,
            seats: seats
                .into_iter()
                .map(|(_, _, player, delta)| SeatResult {
                    player: player.map(PlayerId::stored),
                    delta,
                })
                .collect(),
            fans: json(&self.fans, "hand fans")?,
            finished: UnixMillis(self.finished_ms),
        })
    }
}
