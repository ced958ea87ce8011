//! Tournaments: their settings, registration, rounds with their tables, and what standings and
//! exports read (the hands and escapes of the tournament's tables).
//!
//! A round starts in one transaction: the tournament's count of rounds started moves on only
//! from the round before (so two nodes, or a double click, start a round once), and the round,
//! its game tables and their seatings are written together. The game tables are created with
//! no owner, so that any live node may claim and play them, exactly as it adopts an orphaned
//! table: a node that dies between the commit and its rooms loses nothing.

mod records;

pub use records::{
    EntrantRecord, NewRoundTable, NewTournament, RoundRecord, RoundTableRecord, TournamentEscape,
    TournamentHand, TournamentId, TournamentRecord, TournamentStatus,
};

use crate::error::is_unique_violation;
use crate::model::{
    Page, PlayerId, SeatOccupant, TableId, TableStatus, UnixMillis, bits_u64, count, json,
};
use crate::tables::INSERT_TABLE;
use crate::{Store, StoreError, close_if_failed, on_backend};

const SELECT_TOURNAMENT: &str = "SELECT id, name, organiser, ruleset, config, code, status, \
     rounds, rounds_started, created_ms, updated_ms FROM tournaments";

type TournamentRow = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    i64,
    i64,
    i64,
    i64,
);

/// round, table, group, table id, hand, seed, dealer, ending, finished, seat, delta.
type HandSeatRow = (i64, i64, i64, String, i64, i64, i16, String, i64, i16, i64);

fn tournament_of(row: TournamentRow) -> Result<TournamentRecord, StoreError> {
    let (id, name, organiser, ruleset, config, code, status, rounds, started, created, updated) =
        row;
    Ok(TournamentRecord {
        id: TournamentId::stored(id),
        name,
        organiser: PlayerId::stored(organiser),
        ruleset,
        config: json(&config, "tournament config")?,
        code,
        status: TournamentStatus::parse(&status)?,
        rounds: small(rounds, "rounds")?,
        rounds_started: small(started, "rounds_started")?,
        created: UnixMillis(created),
        updated: UnixMillis(updated),
    })
}

fn small(x: i64, what: &str) -> Result<u32, StoreError> {
    u32::try_from(x).map_err(|_| StoreError::Corrupt(format!("{what} = {x}")))
}

fn seating_json(seats: &[Option<u32>]) -> Result<String, StoreError> {
    serde_json::to_string(seats).map_err(|e| StoreError::BadArgument(format!("seating: {e}")))
}

fn seating(text: &str) -> Result<Vec<Option<u32>>, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("seating: {e}")))
}

impl Store {
    /// Creates a tournament, open for registration. A code already in use is refused
    /// ([`StoreError::CodeTaken`]): the caller draws another.
    pub async fn create_tournament(
        &self,
        t: &NewTournament,
    ) -> Result<TournamentRecord, StoreError> {
        if t.secret.len() != 64 || !t.secret.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(StoreError::BadArgument(
                "a tournament secret is 64 hex digits".into(),
            ));
        }
        let now = UnixMillis::now();
        let record = TournamentRecord {
            id: TournamentId::new(),
            name: t.name.clone(),
            organiser: t.organiser.clone(),
            ruleset: t.ruleset.clone(),
            config: t.config.clone(),
            code: t.code.clone(),
            status: TournamentStatus::Registering,
            rounds: t.rounds,
            rounds_started: 0,
            created: now,
            updated: now,
        };
        let inserted = on_backend!(self, pool => {
            sqlx::query(
                "INSERT INTO tournaments (id, name, organiser, ruleset, config, code, secret, \
                 status, rounds, rounds_started, created_ms, updated_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $10)",
            )
            .bind(record.id.as_str())
            .bind(&record.name)
            .bind(record.organiser.as_str())
            .bind(&record.ruleset)
            .bind(record.config.to_string())
            .bind(&record.code)
            .bind(&t.secret)
            .bind(record.status.as_str())
            .bind(i64::from(record.rounds))
            .bind(now.0)
            .execute(pool)
            .await
            .map(|r| r.rows_affected())
        });
        match inserted {
            Ok(_) => Ok(record),
            Err(e) if is_unique_violation(&e) => Err(StoreError::CodeTaken(t.code.clone())),
            Err(e) if is_foreign_key_violation(&e) => Err(StoreError::NotFound {
                what: "player",
                id: t.organiser.to_string(),
            }),
            Err(e) => Err(e.into()),
        }
    }

    /// One tournament.
    pub async fn tournament(&self, id: &TournamentId) -> Result<TournamentRecord, StoreError> {
        self.one_tournament("id", id.as_str()).await
    }

    /// The tournament registering with `code`.
    pub async fn tournament_by_code(&self, code: &str) -> Result<TournamentRecord, StoreError> {
        self.one_tournament("code", code).await
    }

    async fn one_tournament(
        &self,
        column: &'static str,
        value: &str,
    ) -> Result<TournamentRecord, StoreError> {
        let sql = format!("{SELECT_TOURNAMENT} WHERE {column} = $1");
        let row: Option<TournamentRow> = on_backend!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(value)
                .fetch_optional(pool)
                .await?
        });
        tournament_of(row.ok_or_else(|| StoreError::NotFound {
            what: "tournament",
            id: value.to_string(),
        })?)
    }

    /// Tournaments, newest first, one page.
    pub async fn tournaments(&self, page: Page) -> Result<Vec<TournamentRecord>, StoreError> {
        let (limit, offset) = page.checked()?;
        let sql = format!("{SELECT_TOURNAMENT} ORDER BY created_ms DESC, id LIMIT $1 OFFSET $2");
        let rows: Vec<TournamentRow> = on_backend!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(limit)
                .bind(offset)
                .fetch_all(pool)
                .await?
        });
        rows.into_iter().map(tournament_of).collect()
    }

    /// The tournaments not finished, oldest first: what a node looks after.
    pub async fn active_tournaments(&self) -> Result<Vec<TournamentRecord>, StoreError> {
        let sql = format!("{SELECT_TOURNAMENT} WHERE status <> 'finished' ORDER BY created_ms, id");
        let rows: Vec<TournamentRow> = on_backend!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await?
        });
        rows.into_iter().map(tournament_of).collect()
    }

    /// The finished tournaments (of `ruleset`, if given), oldest first: what a ranking across
    /// tournaments reads.
    pub async fn finished_tournaments(
        &self,
        ruleset: Option<&str>,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        let sql = format!(
            "{SELECT_TOURNAMENT} WHERE status = 'finished' AND ($1 IS NULL OR ruleset = $1) \
             ORDER BY created_ms, id"
        );
        let rows: Vec<TournamentRow> = on_backend!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(ruleset).fetch_all(pool).await?
        });
        rows.into_iter().map(tournament_of).collect()
    }

    /// The tournaments `player` registered for, newest first.
    pub async fn player_tournaments(
        &self,
        player: &PlayerId,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        let sql = format!(
            "{SELECT_TOURNAMENT} WHERE id IN (SELECT tournament_id FROM tournament_entrants \
             WHERE player_id = $1) ORDER BY created_ms DESC, id"
        );
        let rows: Vec<TournamentRow> = on_backend!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(player.as_str())
                .fetch_all(pool)
                .await?
        });
        rows.into_iter().map(tournament_of).collect()
    }

    /// The secret keying a tournament's duplicate deals (64 hex digits).
    pub async fn tournament_secret(&self, id: &TournamentId) -> Result<String, StoreError> {
        let secret: Option<String> = on_backend!(self, pool => {
            sqlx::query_scalar("SELECT secret FROM tournaments WHERE id = $1")
                .bind(id.as_str())
                .fetch_optional(pool)
                .await?
        });
        secret.ok_or_else(|| StoreError::NotFound {
            what: "tournament",
            id: id.to_string(),
        })
    }

    /// Registers `player`, numbered after everyone before; a player registered already keeps
    /// their number. Refused once the first round has started ([`StoreError::Closed`]).
    pub async fn register_entrant(
        &self,
        id: &TournamentId,
        player: &PlayerId,
    ) -> Result<EntrantRecord, StoreError> {
        // Two registering at once may draw the same number: the loser of the key tries again.
        for _ in 0..8 {
            match self.try_register(id, player).await {
                Err(StoreError::Database(e)) if is_unique_violation(&e) => continue,
                other => return other,
            }
        }
        Err(StoreError::BadArgument(
            "registration is too busy; try again".into(),
        ))
    }

    async fn try_register(
        &self,
        id: &TournamentId,
        player: &PlayerId,
    ) -> Result<EntrantRecord, StoreError> {
        let t = self.tournament(id).await?;
        if let Some(e) = self
            .entrants(id)
            .await?
            .into_iter()
            .find(|e| &e.player == player)
        {
            return Ok(e);
        }
        if t.status != TournamentStatus::Registering {
            return Err(StoreError::Closed {
                what: "tournament registration",
            });
        }
        let display_name = self.player(player).await?.display_name;
        let now = UnixMillis::now();
        let entrant: i64 = on_backend!(self, pool => {
            sqlx::query_scalar(
                "INSERT INTO tournament_entrants (tournament_id, entrant, player_id, registered_ms) \
                 SELECT $1, (SELECT COALESCE(MAX(entrant) + 1, 0) FROM tournament_entrants \
                 WHERE tournament_id = $1), $2, $3 \
                 WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = $1 AND status = 'registering') \
                 RETURNING entrant",
            )
            .bind(id.as_str())
            .bind(player.as_str())
            .bind(now.0)
            .fetch_optional(pool)
            .await?
        })
        .ok_or(StoreError::Closed {
            what: "tournament registration",
        })?;
        Ok(EntrantRecord {
            entrant: small(entrant, "entrant")?,
            player: player.clone(),
            display_name,
            registered: now,
        })
    }

    /// Everyone registered, in registration order.
    pub async fn entrants(&self, id: &TournamentId) -> Result<Vec<EntrantRecord>, StoreError> {
        let rows: Vec<(i64, String, String, i64)> = on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT e.entrant, e.player_id, p.display_name, e.registered_ms \
                 FROM tournament_entrants e JOIN players p ON p.id = e.player_id \
                 WHERE e.tournament_id = $1 ORDER BY e.entrant",
            )
            .bind(id.as_str())
            .fetch_all(pool)
            .await?
        });
        rows.into_iter()
            .map(|(entrant, player, display_name, at)| {
                Ok(EntrantRecord {
                    entrant: small(entrant, "entrant")?,
                    player: PlayerId::stored(player),
                    display_name,
                    registered: UnixMillis(at),
                })
            })
            .collect()
    }

    /// Starts round `round` with its tables, in one transaction: refused
    /// ([`StoreError::RoundRefused`]) unless it is the tournament's next round and the
    /// tournament has rounds left. The game tables are created `playing`, owned by nobody.
    pub async fn start_round(
        &self,
        id: &TournamentId,
        round: u32,
        tables: &[NewRoundTable],
    ) -> Result<Vec<RoundTableRecord>, StoreError> {
        let now = UnixMillis::now();
        let mut rows = Vec::with_capacity(tables.len());
        for (no, t) in tables.iter().enumerate() {
            rows.push((
                TableId::new(),
                no as u32,
                t,
                SeatOccupant::write_all(&t.table.seats)?,
                seating_json(&t.seats)?,
            ));
        }
        let outcome: Result<bool, sqlx::Error> = on_backend!(self, pool => {
            async {
                let mut conn = pool.acquire().await?;
                let outcome = async {
                    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
                    let moved = sqlx::query(
                        "UPDATE tournaments SET rounds_started = $2, status = 'playing', \
                         updated_ms = $3 WHERE id = $1 AND rounds_started = $2 - 1 \
                         AND $2 <= rounds AND status <> 'finished'",
                    )
                    .bind(id.as_str())
                    .bind(i64::from(round))
                    .bind(now.0)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                    if moved == 0 {
                        tx.rollback().await?;
                        return Ok(false);
                    }
                    sqlx::query(
                        "INSERT INTO tournament_rounds (tournament_id, round_no, started_ms) \
                         VALUES ($1, $2, $3)",
                    )
                    .bind(id.as_str())
                    .bind(i64::from(round))
                    .bind(now.0)
                    .execute(&mut *tx)
                    .await?;
                    for (table_id, no, t, seats, seating) in &rows {
                        sqlx::query(INSERT_TABLE)
                            .bind(table_id.as_str())
                            .bind(&t.table.ruleset)
                            .bind(t.table.options.to_string())
                            .bind(seats)
                            .bind(TableStatus::Playing.as_str())
                            .bind(t.table.carried.to_string())
                            .bind(now.0)
                            .bind(None::<&str>)
                            .bind(0i64)
                            .execute(&mut *tx)
                            .await?;
                        sqlx::query(
                            "INSERT INTO tournament_tables (tournament_id, round_no, table_no, \
                             group_no, table_id, seats) VALUES ($1, $2, $3, $4, $5, $6)",
                        )
                        .bind(id.as_str())
                        .bind(i64::from(round))
                        .bind(i64::from(*no))
                        .bind(i64::from(t.group))
                        .bind(table_id.as_str())
                        .bind(seating)
                        .execute(&mut *tx)
                        .await?;
                    }
                    tx.commit().await?;
                    Ok(true)
                }
                .await;
                close_if_failed(&mut conn, &outcome);
                outcome
            }
            .await
        });
        if !outcome? {
            let t = self.tournament(id).await?;
            return Err(StoreError::RoundRefused {
                round,
                started: t.rounds_started,
                rounds: t.rounds,
            });
        }
        Ok(rows
            .into_iter()
            .map(|(table, table_no, t, _, _)| RoundTableRecord {
                round,
                table_no,
                group: t.group,
                table,
                seats: t.seats.clone(),
                status: TableStatus::Playing,
                hands_played: 0,
            })
            .collect())
    }

    /// Every round started, in order.
    pub async fn rounds(&self, id: &TournamentId) -> Result<Vec<RoundRecord>, StoreError> {
        let rows: Vec<(i64, i64, Option<i64>)> = on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT round_no, started_ms, ended_ms FROM tournament_rounds \
                 WHERE tournament_id = $1 ORDER BY round_no",
            )
            .bind(id.as_str())
            .fetch_all(pool)
            .await?
        });
        rows.into_iter()
            .map(|(round, started, ended)| {
                Ok(RoundRecord {
                    round: small(round, "round")?,
                    started: UnixMillis(started),
                    ended: ended.map(UnixMillis),
                })
            })
            .collect()
    }

    /// Every table of every round, by round and table number, with its game table's status.
    pub async fn round_tables(
        &self,
        id: &TournamentId,
    ) -> Result<Vec<RoundTableRecord>, StoreError> {
        let rows: Vec<(i64, i64, i64, String, String, String, i64)> = on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT t.round_no, t.table_no, t.group_no, t.table_id, t.seats, g.status, \
                 g.hands_played FROM tournament_tables t JOIN game_tables g ON g.id = t.table_id \
                 WHERE t.tournament_id = $1 ORDER BY t.round_no, t.table_no",
            )
            .bind(id.as_str())
            .fetch_all(pool)
            .await?
        });
        rows.into_iter()
            .map(|(round, no, group, table, seats, status, hands)| {
                Ok(RoundTableRecord {
                    round: small(round, "round")?,
                    table_no: small(no, "table_no")?,
                    group: small(group, "group_no")?,
                    table: TableId::stored(table),
                    seats: seating(&seats)?,
                    status: TableStatus::parse(&status)?,
                    hands_played: count(hands, "hands_played")?,
                })
            })
            .collect()
    }

    /// Ends `round` (its tables have all closed) once: false when it had ended already. The
    /// last round's end finishes the tournament.
    pub async fn end_round(&self, id: &TournamentId, round: u32) -> Result<bool, StoreError> {
        let now = UnixMillis::now();
        let ended = on_backend!(self, pool => {
            sqlx::query(
                "UPDATE tournament_rounds SET ended_ms = $3 \
                 WHERE tournament_id = $1 AND round_no = $2 AND ended_ms IS NULL",
            )
            .bind(id.as_str())
            .bind(i64::from(round))
            .bind(now.0)
            .execute(pool)
            .await?
            .rows_affected()
        });
        on_backend!(self, pool => {
            sqlx::query(
                "UPDATE tournaments SET status = 'finished', updated_ms = $3 \
                 WHERE id = $1 AND rounds = $2 AND rounds_started = $2 AND status <> 'finished'",
            )
            .bind(id.as_str())
            .bind(i64::from(round))
            .bind(now.0)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(ended == 1)
    }

    /// The tournament, round and round's end of a game table, if it is a tournament's.
    pub async fn tournament_of_table(
        &self,
        table: &TableId,
    ) -> Result<Option<(TournamentRecord, RoundRecord)>, StoreError> {
        let row: Option<(String, i64, i64, Option<i64>)> = on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT t.tournament_id, t.round_no, r.started_ms, r.ended_ms \
                 FROM tournament_tables t JOIN tournament_rounds r \
                 ON r.tournament_id = t.tournament_id AND r.round_no = t.round_no \
                 WHERE t.table_id = $1",
            )
            .bind(table.as_str())
            .fetch_optional(pool)
            .await?
        });
        let Some((id, round, started, ended)) = row else {
            return Ok(None);
        };
        let t = self.tournament(&TournamentId::stored(id)).await?;
        Ok(Some((
            t,
            RoundRecord {
                round: small(round, "round")?,
                started: UnixMillis(started),
                ended: ended.map(UnixMillis),
            },
        )))
    }

    /// Every stored hand of the tournament's tables, by round, table and hand.
    pub async fn tournament_hands(
        &self,
        id: &TournamentId,
    ) -> Result<Vec<TournamentHand>, StoreError> {
        let rows: Vec<HandSeatRow> = on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT t.round_no, t.table_no, t.group_no, t.table_id, h.hand_no, h.seed, \
                 h.dealer, h.ending, h.finished_ms, s.seat, s.delta \
                 FROM tournament_tables t \
                 JOIN hands h ON h.table_id = t.table_id \
                 JOIN hand_seats s ON s.table_id = h.table_id AND s.hand_no = h.hand_no \
                 WHERE t.tournament_id = $1 \
                 ORDER BY t.round_no, t.table_no, h.hand_no, s.seat",
            )
            .bind(id.as_str())
            .fetch_all(pool)
            .await?
        });
        let mut hands: Vec<TournamentHand> = Vec::new();
        for (round, no, group, table, hand_no, seed, dealer, ending, at, _seat, delta) in rows {
            let hand_no = count(hand_no, "hand_no")?;
            let same = hands
                .last()
                .is_some_and(|h| h.table.as_str() == table && h.hand_no == hand_no);
            if !same {
                hands.push(TournamentHand {
                    round: small(round, "round")?,
                    table_no: small(no, "table_no")?,
                    group: small(group, "group_no")?,
                    table: TableId::stored(table),
                    hand_no,
                    seed: bits_u64(seed),
                    dealer: u8::try_from(dealer)
                        .map_err(|_| StoreError::Corrupt(format!("dealer = {dealer}")))?,
                    ending,
                    deltas: Vec::new(),
                    finished: UnixMillis(at),
                });
            }
            if let Some(h) = hands.last_mut() {
                h.deltas.push(delta);
            }
        }
        Ok(hands)
    }

    /// Every escape penalised at the tournament's tables.
    pub async fn tournament_escapes(
        &self,
        id: &TournamentId,
    ) -> Result<Vec<TournamentEscape>, StoreError> {
        let rows: Vec<(String, String, i64, i64)> = on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT p.table_id, p.player_id, p.hand_no, p.points FROM escape_penalties p \
                 JOIN tournament_tables t ON t.table_id = p.table_id \
                 WHERE t.tournament_id = $1 ORDER BY p.table_id, p.hand_no, p.player_id",
            )
            .bind(id.as_str())
            .fetch_all(pool)
            .await?
        });
        rows.into_iter()
            .map(|(table, player, hand_no, points)| {
                Ok(TournamentEscape {
                    table: TableId::stored(table),
                    player: PlayerId::stored(player),
                    hand_no: count(hand_no, "hand_no")?,
                    points,
                })
            })
            .collect()
    }
}

fn is_foreign_key_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_foreign_key_violation())
}
