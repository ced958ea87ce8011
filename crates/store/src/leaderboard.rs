//! Leaderboards and histories: read-only queries over finished hands, penalties and ratings.

use crate::model::{
    HistoryEntry, INITIAL_RATING, LeaderboardEntry, Page, Period, PlayerId, Ranking, TableId,
    UnixMillis, count,
};
use crate::{Store, StoreError, on_backend};

/// Per player over the period: hands, and score with escape penalties subtracted. `$1` is the
/// ruleset, `$2` the period's start.
const BOARD: &str = "WITH totals AS ( \
        SELECT player_id, SUM(delta) AS score, COUNT(*) AS hands FROM hand_seats \
        WHERE ruleset = $1 AND finished_ms >= $2 AND player_id IS NOT NULL \
        GROUP BY player_id \
    ), penalties AS ( \
        SELECT player_id, SUM(points) AS points FROM escape_penalties \
        WHERE ruleset = $1 AND at_ms >= $2 GROUP BY player_id \
    ), board AS ( \
        SELECT t.player_id, CAST(t.score - COALESCE(p.points, 0) AS BIGINT) AS score, \
            CAST(t.hands AS BIGINT) AS hands, COALESCE(r.rating, $5) AS rating \
        FROM totals t \
        LEFT JOIN penalties p ON p.player_id = t.player_id \
        LEFT JOIN ratings r ON r.player_id = t.player_id AND r.ruleset = $1 \
    )";

impl Store {
    /// A leaderboard of one ruleset over a period, ranked by total score or by rating, one page
    /// of it. Players who played no hand of the ruleset in the period are not listed; equal
    /// values share a rank, and ties are listed by player id so pages never overlap.
    pub async fn leaderboard(
        &self,
        ruleset: &str,
        period: Period,
        ranking: Ranking,
        page: Page,
        now: UnixMillis,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        let (limit, offset) = page.checked()?;
        let order = match ranking {
            Ranking::Score => "score DESC",
            Ranking::Rating => "rating DESC",
        };
        let sql = format!(
            "{BOARD} SELECT CAST(RANK() OVER (ORDER BY {order}) AS BIGINT) AS place, \
             b.player_id, pl.display_name, b.score, b.hands, b.rating \
             FROM board b JOIN players pl ON pl.id = b.player_id \
             ORDER BY {order}, b.player_id LIMIT $3 OFFSET $4"
        );
        let rows: Vec<(i64, String, String, i64, i64, f64)> = on_backend!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(ruleset)
                .bind(period.start(now).0)
                .bind(limit)
                .bind(offset)
                .bind(INITIAL_RATING)
                .fetch_all(pool)
                .await?
        });
        rows.into_iter()
            .map(|(rank, player, display_name, score, hands, rating)| {
                Ok(LeaderboardEntry {
                    rank: count(rank, "rank")?,
                    player: PlayerId::stored(player),
                    display_name,
                    score,
                    hands: count(hands, "hands")?,
                    rating,
                })
            })
            .collect()
    }

    /// A player's hands, newest first, one page.
    pub async fn player_history(
        &self,
        player: &PlayerId,
        page: Page,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        let (limit, offset) = page.checked()?;
        let rows: Vec<(String, i64, String, i16, i64, String, i64)> = on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT s.table_id, s.hand_no, s.ruleset, s.seat, s.delta, h.ending, s.finished_ms \
                 FROM hand_seats s JOIN hands h ON h.table_id = s.table_id AND h.hand_no = s.hand_no \
                 WHERE s.player_id = $1 \
                 ORDER BY s.finished_ms DESC, s.table_id, s.hand_no DESC LIMIT $2 OFFSET $3",
            )
            .bind(player.as_str())
            .bind(limit)
            .bind(offset)
            .fetch_all(pool)
            .await?
        });
        rows.into_iter()
            .map(|(table, hand_no, ruleset, seat, delta, ending, finished)| {
                Ok(HistoryEntry {
                    table: TableId::stored(table),
                    hand_no: count(hand_no, "hand_no")?,
                    ruleset,
                    seat: u8::try_from(seat)
                        .map_err(|_| StoreError::Corrupt(format!("seat = {seat}")))?,
                    delta,
                    ending,
                    finished: UnixMillis(finished),
                })
            })
            .collect()
    }

    /// A player's rating in a ruleset and the rating changes behind it ([`INITIAL_RATING`] and 0
    /// before the first).
    pub async fn rating(&self, player: &PlayerId, ruleset: &str) -> Result<(f64, u64), StoreError> {
        let row: Option<(f64, i64)> = on_backend!(self, pool => {
            sqlx::query_as("SELECT rating, games FROM ratings WHERE player_id = $1 AND ruleset = $2")
                .bind(player.as_str())
                .bind(ruleset)
                .fetch_optional(pool)
                .await?
        });
        match row {
            Some((rating, games)) => Ok((rating, count(games, "rated games")?)),
            None => Ok((INITIAL_RATING, 0)),
        }
    }

    /// Escape penalties recorded against a player: (table, hand, points), oldest first.
    pub async fn escape_penalties(
        &self,
        player: &PlayerId,
    ) -> Result<Vec<(TableId, u64, i64)>, StoreError> {
        let rows: Vec<(String, i64, i64)> = on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT table_id, hand_no, points FROM escape_penalties \
                 WHERE player_id = $1 ORDER BY at_ms, id",
            )
            .bind(player.as_str())
            .fetch_all(pool)
            .await?
        });
        rows.into_iter()
            .map(|(t, h, p)| Ok((TableId::stored(t), count(h, "hand_no")?, p)))
            .collect()
    }
}
