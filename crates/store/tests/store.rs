//! The store's behaviour, the same suite on SQLite and (with TEST_DATABASE_URL) PostgreSQL.

mod common;

use common::{Db, expect_err, hand, on_each_backend, players, table_of};
use serde_json::json;
use store::{
    Escape, EscapeRecord, Page, Period, PlayerId, Ranking, Recorded, SeatOccupant, Store,
    StoreError, TableId, TableStatus, TokenHash, UnixMillis,
};

const DAY: i64 = 86_400_000;

#[tokio::test]
async fn players_and_sessions() {
    on_each_backend(|db| async move {
        let s = &db.store;
        let p = s.create_player("小明").await?;
        assert_eq!(s.player(&p.id).await?, p);
        s.rename_player(&p.id, "Ming").await?;
        assert_eq!(s.player(&p.id).await?.display_name, "Ming");
        expect_err(s.player(&PlayerId::new()).await, |e| {
            matches!(e, StoreError::NotFound { what: "player", .. })
        })?;
        let now = UnixMillis::now();
        let live = TokenHash([7; 32]);
        let stale = TokenHash([9; 32]);
        s.create_session(&live, &p.id, now.plus_ms(DAY)).await?;
        s.create_session(&stale, &p.id, now.plus_ms(-1)).await?;
        let found = s.session(&live, now).await?.expect("live session");
        assert_eq!(found.player, p.id);
        assert_eq!(
            s.session(&stale, now).await?,
            None,
            "expired sessions do not open"
        );
        assert_eq!(s.session(&TokenHash([1; 32]), now).await?, None);
        expect_err(
            s.create_session(&TokenHash([2; 32]), &PlayerId::new(), now)
                .await,
            |e| matches!(e, StoreError::NotFound { what: "player", .. }),
        )?;
        assert_eq!(s.purge_expired_sessions(now).await?, 1);
        s.delete_session(&live).await?;
        assert_eq!(s.session(&live, now).await?, None);
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn tables_keep_seats_status_and_carried_state() {
    on_each_backend(|db| async move {
        let s = &db.store;
        let ps = players(&db, 1).await?;
        let claim = table_of(&db, "shanghai", &ps).await?;
        let id = claim.table.clone();
        let t = s.table(&id).await?;
        assert_eq!(
            (t.status, t.hands_played, t.ruleset.as_str()),
            (TableStatus::Open, 0, "shanghai")
        );
        assert_eq!(
            t.seats[0],
            SeatOccupant::Player {
                player: ps[0].clone()
            }
        );
        let seats = vec![SeatOccupant::Empty; 4];
        s.set_table_seats(&claim, &seats).await?;
        s.set_table_status(&claim, TableStatus::Playing).await?;
        s.set_table_carried(&claim, &json!({"huang_fan": 0, "dealer": 2}))
            .await?;
        let t = s.table(&id).await?;
        assert_eq!(t.seats, seats);
        assert_eq!(t.carried, json!({"huang_fan": 0, "dealer": 2}));
        let other = table_of(&db, "sichuan", &[]).await?;
        let playing = s.tables_with_status(&[TableStatus::Playing]).await?;
        assert_eq!(playing.iter().map(|t| &t.id).collect::<Vec<_>>(), vec![&id]);
        let both = s
            .tables_with_status(&[TableStatus::Open, TableStatus::Playing])
            .await?;
        assert_eq!(both.len(), 2);
        assert!(both.iter().any(|t| t.id == other.table));
        expect_err(
            s.set_table_status(&common::unknown_table(), TableStatus::Closed)
                .await,
            |e| matches!(e, StoreError::NotFound { what: "table", .. }),
        )?;
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_finished_hand_is_stored_whole_and_a_retry_stores_nothing_more() {
    on_each_backend(|db| async move {
        let s = &db.store;
        let ps = players(&db, 2).await?;
        let claim = table_of(&db, "sichuan", &ps).await?;
        let id = claim.table.clone();
        let mut h0 = hand(&id, 0, &ps, [3, -1, -1, -1]);
        h0.escapes = vec![Escape {
            player: ps[1].clone(),
            points: 15,
        }];
        assert_eq!(s.record_hand(&claim, &h0).await?, Recorded::Stored);
        assert_eq!(s.record_hand(&claim, &h0).await?, Recorded::AlreadyStored);
        let t = s.table(&id).await?;
        assert_eq!(t.hands_played, 1);
        assert_eq!(t.carried, h0.carried);
        assert_eq!(t.status, TableStatus::Playing);
        assert_eq!(db.count("SELECT COUNT(*) FROM hands").await?, 1);
        assert_eq!(db.count("SELECT COUNT(*) FROM hand_seats").await?, 4);
        assert_eq!(db.count("SELECT COUNT(*) FROM escape_penalties").await?, 1);
        assert_eq!(s.escape_penalties(&ps[1]).await?, vec![(id.clone(), 0, 15)]);
        assert_eq!(s.rating(&ps[0], "sichuan").await?, (1501.5, 1));
        // A different hand under a stored number, a gap, an unknown table.
        let mut clash = hand(&id, 0, &ps, [0; 4]);
        clash.seed = 1;
        expect_err(s.record_hand(&claim, &clash).await, |e| {
            matches!(e, StoreError::HandConflict { hand: 0, .. })
        })?;
        expect_err(
            s.record_hand(&claim, &hand(&id, 5, &ps, [0; 4])).await,
            |e| {
                matches!(
                    e,
                    StoreError::HandOutOfOrder {
                        stored: 1,
                        hand: 5,
                        ..
                    }
                )
            },
        )?;
        let ghost = common::unknown_table();
        expect_err(
            s.record_hand(&ghost, &hand(&ghost.table, 0, &ps, [0; 4]))
                .await,
            |e| matches!(e, StoreError::NotFound { what: "table", .. }),
        )?;
        let h1 = hand(&id, 1, &ps, [-2, 6, -2, -2]);
        assert_eq!(s.record_hand(&claim, &h1).await?, Recorded::Stored);
        assert_eq!(s.rating(&ps[0], "sichuan").await?, (1500.5, 2));
        // Read back: the table's hands and one hand's replay.
        let hands = s.table_hands(&id).await?;
        assert_eq!(hands.len(), 2);
        assert_eq!(hands[0].seed, u64::MAX, "the whole u64 range survives");
        assert_eq!(
            hands[1].seats.iter().map(|r| r.delta).collect::<Vec<_>>(),
            vec![-2, 6, -2, -2]
        );
        assert_eq!(hands[1].seats[0].player.as_ref(), Some(&ps[0]));
        assert_eq!(hands[1].seats[3].player, None);
        assert_eq!(hands[0].fans, h0.fans);
        let (summary, record) = s.hand(&id, 1).await?;
        assert_eq!(summary, hands[1]);
        assert_eq!(record, h1.record);
        expect_err(s.hand(&id, 2).await, |e| {
            matches!(e, StoreError::NotFound { what: "hand", .. })
        })?;
        Ok(())
    })
    .await;
}

/// An escape is stored when it happens, with the seating that shows it, both or neither; it
/// is stored once however often it is offered (again by its finished hand), and never under a
/// claim that is no longer current.
#[tokio::test]
async fn an_escape_is_stored_once_with_its_seat() {
    on_each_backend(|db| async move {
        let s = &db.store;
        let ps = players(&db, 2).await?;
        let claim = table_of(&db, "shanghai", &ps).await?;
        let id = claim.table.clone();
        let mut seats = s.table(&id).await?.seats;
        seats[1] = SeatOccupant::Escaped {
            player: ps[1].clone(),
            hand: Some(0),
            in_play: true,
        };
        let escape = EscapeRecord {
            player: ps[1].clone(),
            hand_no: 0,
            ruleset: "shanghai".into(),
            points: 15,
            at: UnixMillis::now(),
        };
        s.record_escape(&claim, &seats, &escape).await?;
        s.record_escape(&claim, &seats, &escape).await?;
        assert_eq!(
            s.table(&id).await?.seats,
            seats,
            "the seat shows the escape"
        );
        assert_eq!(s.escape_penalties(&ps[1]).await?, vec![(id.clone(), 0, 15)]);
        // The hand escaped from offers it again: nothing more is stored.
        let mut h0 = hand(&id, 0, &ps, [3, -1, -1, -1]);
        h0.escapes = vec![Escape {
            player: ps[1].clone(),
            points: 15,
        }];
        assert_eq!(s.record_hand(&claim, &h0).await?, Recorded::Stored);
        assert_eq!(db.count("SELECT COUNT(*) FROM escape_penalties").await?, 1);
        // Another claim on the table fences this one: neither the seat nor the penalty.
        s.release_table(&claim).await?;
        let node = store::NodeId::parse("other-node")?;
        let _ = s
            .register_node(&node, "127.0.0.1:1", std::time::Duration::from_secs(60))
            .await;
        let _newer = s.claim_table(&id, &node).await?.expect("claimed");
        let later = EscapeRecord {
            player: ps[0].clone(),
            ..escape
        };
        let mut stale = seats.clone();
        stale[0] = SeatOccupant::Escaped {
            player: ps[0].clone(),
            hand: Some(1),
            in_play: false,
        };
        expect_err(s.record_escape(&claim, &stale, &later).await, |e| {
            matches!(e, StoreError::Fenced { .. })
        })?;
        assert_eq!(s.table(&id).await?.seats, seats);
        assert_eq!(s.escape_penalties(&ps[0]).await?, vec![]);
        // A negative penalty is refused before anything is written.
        let negative = EscapeRecord {
            points: -1,
            ..later
        };
        expect_err(s.record_escape(&claim, &stale, &negative).await, |e| {
            matches!(e, StoreError::BadArgument(_))
        })?;
        Ok(())
    })
    .await;
}

/// Nothing of the write may remain, on the hand's tables nor on the table's state.
async fn nothing_partial(db: &Db, id: &TableId) -> anyhow::Result<()> {
    assert_eq!(db.count("SELECT COUNT(*) FROM hands").await?, 0);
    assert_eq!(db.count("SELECT COUNT(*) FROM hand_seats").await?, 0);
    assert_eq!(db.count("SELECT COUNT(*) FROM escape_penalties").await?, 0);
    assert_eq!(db.count("SELECT COUNT(*) FROM ratings").await?, 0);
    let t = db.store.table(id).await?;
    assert_eq!(t.hands_played, 0);
    assert_eq!(t.carried["huang_fan"], 0);
    Ok(())
}

#[tokio::test]
async fn a_failed_statement_leaves_nothing_and_the_retry_stores_once() {
    on_each_backend(|db| async move {
        let ps = players(&db, 2).await?;
        let claim = table_of(&db, "sichuan", &ps).await?;
        let id = claim.table.clone();
        let mut h = hand(&id, 0, &ps, [3, -1, -1, -1]);
        h.escapes = vec![Escape {
            player: ps[1].clone(),
            points: 15,
        }];
        // The penalty is the last statement but the ratings: fail it after the table, the
        // hand and its seats are written.
        if db.name == "postgres" {
            db.execute(
                "CREATE FUNCTION fail_now() RETURNS trigger LANGUAGE plpgsql AS \
                 $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$; \
                 CREATE TRIGGER fail_penalty BEFORE INSERT ON escape_penalties \
                 FOR EACH ROW EXECUTE FUNCTION fail_now();",
            )
            .await?;
        } else {
            db.execute(
                "CREATE TRIGGER fail_penalty BEFORE INSERT ON escape_penalties \
                 BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
            )
            .await?;
        }
        let err = expect_err(db.store.record_hand(&claim, &h).await, |e| {
            matches!(e, StoreError::Database(_))
        })?;
        assert!(err.to_string().contains("injected failure"), "{err}");
        nothing_partial(&db, &id).await?;
        db.execute("DROP TRIGGER fail_penalty ON escape_penalties")
            .await
            .or(db.execute("DROP TRIGGER fail_penalty").await)?;
        assert_eq!(db.store.record_hand(&claim, &h).await?, Recorded::Stored);
        assert_eq!(
            db.store.record_hand(&claim, &h).await?,
            Recorded::AlreadyStored
        );
        assert_eq!(db.count("SELECT COUNT(*) FROM hands").await?, 1);
        assert_eq!(db.count("SELECT COUNT(*) FROM escape_penalties").await?, 1);
        assert_eq!(db.store.table(&id).await?.hands_played, 1);
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_dropped_connection_leaves_nothing_and_the_retry_stores_once() {
    on_each_backend(|db| async move {
        if db.name != "postgres" {
            // An SQLite file has no connection to lose; the failed-statement test covers it.
            return Ok(());
        }
        let ps = players(&db, 2).await?;
        let claim = table_of(&db, "sichuan", &ps).await?;
        let id = claim.table.clone();
        let mut h = hand(&id, 0, &ps, [3, -1, -1, -1]);
        h.escapes = vec![Escape {
            player: ps[1].clone(),
            points: 15,
        }];
        // The server side kills the writing connection in the middle of the transaction.
        db.execute(
            "CREATE FUNCTION drop_me() RETURNS trigger LANGUAGE plpgsql AS \
             $$ BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$; \
             CREATE TRIGGER drop_me BEFORE INSERT ON escape_penalties \
             FOR EACH ROW EXECUTE FUNCTION drop_me();",
        )
        .await?;
        let err = db
            .store
            .record_hand(&claim, &h)
            .await
            .expect_err("the connection dropped");
        assert!(
            err.is_transient(),
            "a dropped connection is worth a retry: {err:?}"
        );
        nothing_partial(&db, &id).await?;
        db.execute("DROP TRIGGER drop_me ON escape_penalties")
            .await?;
        assert_eq!(db.store.record_hand(&claim, &h).await?, Recorded::Stored);
        assert_eq!(
            db.store.record_hand(&claim, &h).await?,
            Recorded::AlreadyStored
        );
        assert_eq!(db.count("SELECT COUNT(*) FROM hands").await?, 1);
        assert_eq!(db.count("SELECT COUNT(*) FROM hand_seats").await?, 4);
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn two_writers_of_the_same_hand_store_it_once() {
    on_each_backend(|db| async move {
        let ps = players(&db, 2).await?;
        let claim = table_of(&db, "sichuan", &ps).await?;
        let id = claim.table.clone();
        for n in 0..5 {
            let h = hand(&id, n, &ps, [3, -1, -1, -1]);
            let (a, b) = tokio::join!(
                db.store.record_hand(&claim, &h),
                db.store.record_hand(&claim, &h)
            );
            let mut got = [a?, b?];
            got.sort_by_key(|r| *r == Recorded::AlreadyStored);
            assert_eq!(got, [Recorded::Stored, Recorded::AlreadyStored]);
        }
        assert_eq!(db.count("SELECT COUNT(*) FROM hands").await?, 5);
        assert_eq!(db.store.rating(&ps[0], "sichuan").await?, (1507.5, 5));
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn the_action_log_is_append_only() {
    on_each_backend(|db| async move {
        let s = &db.store;
        let claim = table_of(&db, "sichuan", &[]).await?;
        let id = claim.table.clone();
        let at = UnixMillis::now();
        let entry = |seq, hand_no, seat| store::LoggedAction {
            seq,
            hand_no,
            seat,
            action: json!({"type": "discard", "tile": "5p"}),
            at,
        };
        s.append_actions(&claim, &[entry(0, 0, 0), entry(1, 0, 1)])
            .await?;
        assert_eq!(s.next_action_seq(&id).await?, 2);
        s.append_actions(&claim, &[entry(2, 1, 2)]).await?;
        s.append_actions(&claim, &[]).await?;
        assert_eq!(s.next_action_seq(&id).await?, 3);
        assert_eq!(s.next_action_seq(&TableId::new()).await?, 0);
        let err = expect_err(
            s.append_actions(&claim, &[entry(3, 1, 3), entry(1, 1, 0)])
                .await,
            |e| matches!(e, StoreError::LogConflict { seq: 1, .. }),
        )?;
        assert!(err.to_string().contains("seq 1"));
        assert_eq!(
            s.actions(&id, 0).await?.len(),
            3,
            "a refused batch adds nothing"
        );
        let from_1 = s.actions(&id, 1).await?;
        assert_eq!(from_1, vec![entry(2, 1, 2)]);
        expect_err(
            s.append_actions(&common::unknown_table(), &[entry(0, 0, 0)])
                .await,
            |e| matches!(e, StoreError::NotFound { what: "table", .. }),
        )?;
        Ok(())
    })
    .await;
}

/// Many rooms appending at once through the group-commit writer: every append is stored in
/// order, and one room's conflict or missing table fails that room's append alone.
#[tokio::test]
async fn grouped_appends_are_each_stored_or_refused_on_their_own() {
    on_each_backend(|db| async move {
        let s = db.store.clone().with_group_commit();
        let mut tables = Vec::new();
        for _ in 0..8 {
            tables.push(table_of(&db, "sichuan", &[]).await?);
        }
        let entry = |seq| store::LoggedAction {
            seq,
            hand_no: 0,
            seat: (seq % 4) as u8,
            action: json!({"type": "discard", "tile": "5p", "n": seq}),
            at: UnixMillis(seq as i64),
        };
        // Every table appends 25 actions, one at a time, all tables at once.
        let mut tasks = tokio::task::JoinSet::new();
        for claim in tables.clone() {
            let s = s.clone();
            tasks.spawn(async move {
                for seq in 0..25 {
                    s.append_actions(&claim, &[entry(seq)]).await?;
                }
                Ok::<_, StoreError>(())
            });
        }
        // Meanwhile, appends that must fail: a table that does not exist, a seq already held.
        let ghost = tokio::spawn({
            let s = s.clone();
            async move {
                s.append_actions(&common::unknown_table(), &[entry(0)])
                    .await
            }
        });
        while let Some(done) = tasks.join_next().await {
            done??;
        }
        expect_err(ghost.await?, |e| {
            matches!(e, StoreError::NotFound { what: "table", .. })
        })?;
        for claim in &tables {
            let held = s.actions(&claim.table, 0).await?;
            assert_eq!(held, (0..25).map(entry).collect::<Vec<_>>());
        }
        expect_err(
            s.append_actions(&tables[0], &[entry(25), entry(3)]).await,
            |e| matches!(e, StoreError::LogConflict { seq: 3, .. }),
        )?;
        assert_eq!(
            s.next_action_seq(&tables[0].table).await?,
            25,
            "a refused append adds nothing"
        );
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn leaderboards_rank_by_score_and_rating_over_periods_with_pages() {
    on_each_backend(|db| async move {
        let s = &db.store;
        let ps = players(&db, 4).await?;
        let claim = table_of(&db, "sichuan", &ps).await?;
        let id = claim.table.clone();
        let now = UnixMillis::now();
        // An old hand (60 days ago) with an escape, and two recent hands.
        let mut h0 = hand(&id, 0, &ps, [10, -10, 0, 0]);
        h0.finished = now.plus_ms(-60 * DAY);
        h0.escapes = vec![Escape {
            player: ps[2].clone(),
            points: 15,
        }];
        let h1 = hand(&id, 1, &ps, [-3, 1, 1, 1]);
        let h2 = hand(&id, 2, &ps, [-3, 5, -1, -1]);
        for h in [&h0, &h1, &h2] {
            s.record_hand(&claim, h).await?;
        }
        let board = |period, ranking, page| s.leaderboard("sichuan", period, ranking, page, now);
        let all = board(Period::AllTime, Ranking::Score, Page::first(10)).await?;
        let scores: Vec<(usize, i64, u64)> = all
            .iter()
            .map(|e| {
                (
                    ps.iter().position(|p| *p == e.player).unwrap_or(9),
                    e.score,
                    e.rank,
                )
            })
            .collect();
        // Totals: p0 4, p1 -4, p2 0 - 15 = -15, p3 0.
        assert_eq!(scores, vec![(0, 4, 1), (3, 0, 2), (1, -4, 3), (2, -15, 4)]);
        assert_eq!(all[0].hands, 3);
        assert_eq!(all[0].display_name, "player 0");
        let month = board(Period::Month, Ranking::Score, Page::first(10)).await?;
        let p1 = month
            .iter()
            .find(|e| e.player == ps[1])
            .map(|e| (e.score, e.hands));
        assert_eq!(p1, Some((6, 2)), "the old hand is outside the month");
        // Equal scores (p2 and p3 at 0: the penalty is outside the month) share a rank; pages
        // follow one order.
        let ranks: Vec<u64> = month.iter().map(|e| e.rank).collect();
        assert_eq!(ranks, vec![1, 2, 2, 4]);
        let first = board(
            Period::Month,
            Ranking::Score,
            Page {
                offset: 0,
                limit: 2,
            },
        )
        .await?;
        let second = board(
            Period::Month,
            Ranking::Score,
            Page {
                offset: 2,
                limit: 2,
            },
        )
        .await?;
        assert_eq!([first, second].concat(), month);
        // By rating: ratings move by half the hand's delta in this fixture.
        let by_rating = board(Period::AllTime, Ranking::Rating, Page::first(10)).await?;
        assert_eq!(by_rating[0].player, ps[0]);
        assert_eq!(by_rating[0].rating, 1502.0);
        assert!(by_rating.windows(2).all(|w| w[0].rating >= w[1].rating));
        assert!(
            board(Period::Week, Ranking::Score, Page::first(10))
                .await?
                .len()
                == 4
        );
        assert!(
            s.leaderboard(
                "shanghai",
                Period::AllTime,
                Ranking::Score,
                Page::first(10),
                now
            )
            .await?
            .is_empty()
        );
        expect_err(
            board(Period::AllTime, Ranking::Score, Page::first(0)).await,
            |e| matches!(e, StoreError::BadArgument(_)),
        )?;
        // A player's history, newest first, paged.
        let hist = s.player_history(&ps[1], Page::first(10)).await?;
        assert_eq!(
            hist.iter()
                .map(|h| (h.hand_no, h.delta))
                .collect::<Vec<_>>(),
            vec![(2, 5), (1, 1), (0, -10)]
        );
        assert_eq!(hist[0].seat, 1);
        let page2 = s
            .player_history(
                &ps[1],
                Page {
                    offset: 1,
                    limit: 1,
                },
            )
            .await?;
        assert_eq!(page2, vec![hist[1].clone()]);
        Ok(())
    })
    .await;
}

#[test]
fn periods_start_at_utc_calendar_boundaries() {
    // 2026-11-29 is a Sunday; 15:00 UTC.
    let now = UnixMillis(1_795_964_400_000);
    assert_eq!(Period::Month.start(now), UnixMillis(1_793_491_200_000)); // 2026-11-01
    assert_eq!(Period::Week.start(now), UnixMillis(1_795_392_000_000)); // 2026-11-23 (Monday)
    // On a Monday the week starts that midnight.
    let monday = UnixMillis(1_795_964_400_000 + 86_400_000);
    assert_eq!(
        Period::Week.start(monday),
        UnixMillis(1_795_392_000_000 + 7 * 86_400_000)
    );
    assert_eq!(Period::AllTime.start(now), UnixMillis(i64::MIN));
    assert!("fortnight".parse::<Period>().is_err());
}

#[tokio::test]
async fn reopening_is_idempotent_and_a_newer_schema_is_refused() {
    on_each_backend(|db| async move {
        let version = db.store.schema_version().await?;
        assert_eq!(version, db.store.binary_schema_version());
        let again = Store::connect(&db.url).await?;
        assert_eq!(again.schema_version().await?, version);
        again.close().await;
        db.execute(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (99991231000000, 'from the future', TRUE, X'00', 0)",
        )
        .await
        .or(db
            .execute(
                "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
                 VALUES (99991231000000, 'from the future', TRUE, '\\x00'::bytea, 0)",
            )
            .await)?;
        let err = expect_err(Store::connect(&db.url).await, |e| matches!(e, StoreError::SchemaNewer { .. }))?;
        assert!(err.to_string().contains("99991231000000"), "{err}");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn bad_urls_and_unreachable_databases_are_clear_errors() {
    expect_err(Store::connect("mysql://localhost/x").await, |e| {
        matches!(e, StoreError::BadUrl(_))
    })
    .expect("bad scheme");
    let options = store::StoreOptions {
        max_connections: 1,
        connect_timeout: std::time::Duration::from_secs(2),
        access: store::Access::ReadWrite,
    };
    let err = expect_err(
        Store::connect_with("postgres://app:secret@127.0.0.1:1/none", options).await,
        |e| matches!(e, StoreError::Unreachable { .. }),
    )
    .expect("nothing listens on port 1");
    assert!(err.is_transient());
    assert!(
        !err.to_string().contains("secret"),
        "passwords never reach messages: {err}"
    );
    // A file where the database's directory should be.
    let (url, dir) = common::sqlite_url();
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("blocker"), b"").expect("file");
    let blocked = store::sqlite_url(&dir.join("blocker").join("x.db"));
    expect_err(Store::connect(&blocked).await, |e| {
        matches!(e, StoreError::Unreachable { .. })
    })
    .expect("cannot create a directory under a file");
    let _ = url;
    let _ = std::fs::remove_dir_all(&dir);
}
