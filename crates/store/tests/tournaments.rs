//! Tournaments in the store, on both backends: registration, rounds started once and in order
//! with their tables, the tables left for any node to claim, and the hands read back by round
//! and table.

mod common;

use common::{Db, expect_err, hand, on_each_backend, players, test_node};
use serde_json::json;
use store::{
    Claimable, Escape, NewRoundTable, NewTable, NewTournament, Page, SeatOccupant, StoreError,
    TableStatus, TournamentId, TournamentStatus,
};

fn new_tournament(organiser: &store::PlayerId, code: &str, rounds: u32) -> NewTournament {
    NewTournament {
        name: "Spring cup 春季杯".into(),
        organiser: organiser.clone(),
        ruleset: "sichuan".into(),
        config: json!({"version": 1, "hands": 4}),
        code: code.into(),
        secret: "ab".repeat(32),
        rounds,
    }
}

fn round_table(players: &[store::PlayerId], seating: &[Option<u32>], group: u32) -> NewRoundTable {
    NewRoundTable {
        table: NewTable {
            ruleset: "sichuan".into(),
            options: json!({"options": {}, "hands": 4}),
            seats: seating
                .iter()
                .map(|s| match s {
                    Some(e) => SeatOccupant::Player {
                        player: players[*e as usize].clone(),
                    },
                    None => SeatOccupant::Bot {
                        level: "strong".into(),
                    },
                })
                .collect(),
            carried: json!({}),
        },
        group,
        seats: seating.to_vec(),
    }
}

async fn registered(db: &Db, n: usize) -> anyhow::Result<(TournamentId, Vec<store::PlayerId>)> {
    let ps = players(db, n).await?;
    let t = db
        .store
        .create_tournament(&new_tournament(&ps[0], "CUP-1", 2))
        .await?;
    for p in &ps {
        db.store.register_entrant(&t.id, p).await?;
    }
    Ok((t.id, ps))
}

#[tokio::test]
async fn registration_numbers_players_once_and_closes_with_the_first_round() {
    on_each_backend(|db| async move {
        let s = &db.store;
        let ps = players(&db, 3).await?;
        let t = s
            .create_tournament(&new_tournament(&ps[0], "CUP-A", 3))
            .await?;
        assert_eq!(t.status, TournamentStatus::Registering);
        assert_eq!(s.tournament(&t.id).await?, t);
        assert_eq!(s.tournament_by_code("CUP-A").await?.id, t.id);
        assert_eq!(s.tournament_secret(&t.id).await?, "ab".repeat(32));
        expect_err(
            s.create_tournament(&new_tournament(&ps[1], "CUP-A", 3))
                .await,
            |e| matches!(e, StoreError::CodeTaken(c) if c == "CUP-A"),
        )?;
        let mut bad = new_tournament(&ps[1], "CUP-B", 3);
        bad.secret = "zz".into();
        expect_err(s.create_tournament(&bad).await, |e| {
            matches!(e, StoreError::BadArgument(_))
        })?;
        let a = s.register_entrant(&t.id, &ps[2]).await?;
        let b = s.register_entrant(&t.id, &ps[0]).await?;
        let again = s.register_entrant(&t.id, &ps[2]).await?;
        assert_eq!((a.entrant, b.entrant, again.entrant), (0, 1, 0));
        let listed = s.entrants(&t.id).await?;
        assert_eq!(
            listed
                .iter()
                .map(|e| (e.entrant, e.player.clone()))
                .collect::<Vec<_>>(),
            vec![(0, ps[2].clone()), (1, ps[0].clone())]
        );
        assert_eq!(listed[0].display_name, "player 2");
        assert_eq!(s.player_tournaments(&ps[0]).await?.len(), 1);
        assert!(s.player_tournaments(&ps[1]).await?.is_empty());
        s.start_round(
            &t.id,
            1,
            &[round_table(&ps, &[Some(0), Some(1), None, None], 0)],
        )
        .await?;
        expect_err(s.register_entrant(&t.id, &ps[1]).await, |e| {
            matches!(e, StoreError::Closed { .. })
        })?;
        // A registered player asking again is answered with their number, even now.
        assert_eq!(s.register_entrant(&t.id, &ps[0]).await?.entrant, 1);
        assert_eq!(s.tournaments(Page::first(10)).await?.len(), 1);
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn rounds_start_once_in_order_with_unowned_tables() {
    on_each_backend(|db| async move {
        let s = &db.store;
        let (id, ps) = registered(&db, 6).await?;
        let tables = [
            round_table(&ps, &[Some(0), Some(1), Some(2), None], 0),
            round_table(&ps, &[Some(3), None, Some(4), Some(5)], 0),
        ];
        expect_err(s.start_round(&id, 2, &tables).await, |e| {
            matches!(
                e,
                StoreError::RoundRefused {
                    round: 2,
                    started: 0,
                    rounds: 2
                }
            )
        })?;
        let started = s.start_round(&id, 1, &tables).await?;
        assert_eq!(started.len(), 2);
        expect_err(s.start_round(&id, 1, &tables).await, |e| {
            matches!(
                e,
                StoreError::RoundRefused {
                    round: 1,
                    started: 1,
                    ..
                }
            )
        })?;
        let t = s.tournament(&id).await?;
        assert_eq!((t.status, t.rounds_started), (TournamentStatus::Playing, 1));
        // Any node may claim the round's tables; they play as the seating says.
        let claimable = s
            .claimable_tables(&test_node(), Claimable::Orphaned)
            .await?;
        for st in &started {
            assert!(claimable.contains(&st.table));
            let g = s.table(&st.table).await?;
            assert_eq!(g.status, TableStatus::Playing);
            assert_eq!(g.seats.len(), 4);
        }
        assert_eq!(s.round_tables(&id).await?, started);
        assert_eq!(started[1].seats, vec![Some(3), None, Some(4), Some(5)]);

        // Hands at the first table, one with an escape, read back by round and table.
        let claim = s
            .claim_table(&started[0].table, &test_node())
            .await?
            .expect("claimed");
        let seated = [ps[0].clone(), ps[1].clone(), ps[2].clone()];
        s.record_hand(
            &claim,
            &hand(&started[0].table, 0, &seated, [3, -1, -1, -1]),
        )
        .await?;
        let mut second = hand(&started[0].table, 1, &seated, [-2, 4, -1, -1]);
        second.escapes = vec![Escape {
            player: ps[2].clone(),
            points: 15,
        }];
        s.record_hand(&claim, &second).await?;
        let hands = s.tournament_hands(&id).await?;
        assert_eq!(hands.len(), 2);
        assert_eq!(
            (
                hands[0].round,
                hands[0].table_no,
                hands[0].group,
                hands[0].hand_no
            ),
            (1, 0, 0, 0)
        );
        assert_eq!(hands[0].deltas, vec![3, -1, -1, -1]);
        assert_eq!(hands[1].deltas, vec![-2, 4, -1, -1]);
        assert_eq!(hands[1].seed, u64::MAX - 1);
        let escapes = s.tournament_escapes(&id).await?;
        assert_eq!(escapes.len(), 1);
        assert_eq!(
            (escapes[0].player.clone(), escapes[0].points),
            (ps[2].clone(), 15)
        );

        assert!(s.end_round(&id, 1).await?);
        assert!(!s.end_round(&id, 1).await?, "a round ends once");
        assert_eq!(s.tournament(&id).await?.status, TournamentStatus::Playing);
        s.start_round(&id, 2, &tables).await?;
        expect_err(s.start_round(&id, 3, &tables).await, |e| {
            matches!(e, StoreError::RoundRefused { round: 3, .. })
        })?;
        s.end_round(&id, 2).await?;
        assert_eq!(s.tournament(&id).await?.status, TournamentStatus::Finished);
        let rounds = s.rounds(&id).await?;
        assert_eq!(rounds.len(), 2);
        assert!(rounds.iter().all(|r| r.ended.is_some()));
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn unknown_tournaments_are_not_found() {
    on_each_backend(|db| async move {
        let s = &db.store;
        let ps = players(&db, 1).await?;
        let nobody = TournamentId::new();
        expect_err(s.tournament(&nobody).await, |e| {
            matches!(
                e,
                StoreError::NotFound {
                    what: "tournament",
                    ..
                }
            )
        })?;
        expect_err(s.tournament_by_code("NOPE").await, |e| {
            matches!(e, StoreError::NotFound { .. })
        })?;
        expect_err(s.register_entrant(&nobody, &ps[0]).await, |e| {
            matches!(e, StoreError::NotFound { .. })
        })?;
        expect_err(
            s.create_tournament(&new_tournament(&store::PlayerId::new(), "X", 1))
                .await,
            |e| matches!(e, StoreError::NotFound { what: "player", .. }),
        )?;
        assert!(s.entrants(&nobody).await?.is_empty());
        Ok(())
    })
    .await;
}
