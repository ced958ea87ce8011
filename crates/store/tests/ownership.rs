//! Table ownership between nodes, on both backends (the tables are created by a node that never
//! registers, at epoch 1, so anyone may claim them): a table is claimed by one live node at a
//! time, each claim raises its epoch, a lapsed or retired node's tables are claimable, a node
//! restarted under its name takes its own back at once, and a release ends the claim.

mod common;

use std::time::Duration;

use common::{Db, expect_err, hand, on_each_backend, players, table_of};
use store::{Claim, Claimable, Epoch, NodeId, StoreError, TableId, TableStatus};

const LONG: Duration = Duration::from_secs(600);

fn node(name: &str) -> NodeId {
    NodeId::parse(name).expect("a node name")
}

async fn table(db: &Db) -> anyhow::Result<TableId> {
    let ps = players(db, 1).await?;
    Ok(table_of(db, "sichuan", &ps).await?.table)
}

#[tokio::test]
async fn a_table_is_claimed_by_one_live_node_at_a_time() {
    on_each_backend(|db| async move {
        let (a, b) = (node("node-a:8080"), node("node-b:8080"));
        db.store.register_node(&a, "10.0.0.1:8080", LONG).await?;
        db.store.register_node(&b, "10.0.0.2:8080", LONG).await?;
        let t = table(&db).await?;
        assert_eq!(
            db.store
                .claimable_tables(&b, Claimable::OwnAndOrphaned)
                .await?,
            vec![t.clone()]
        );
        let first = db.store.claim_table(&t, &a).await?.expect("a free table");
        assert_eq!(first.epoch, Epoch(2));
        assert_eq!(db.store.claim_table(&t, &b).await?, None, "a is alive");
        assert!(
            db.store
                .claimable_tables(&b, Claimable::OwnAndOrphaned)
                .await?
                .is_empty()
        );
        // Its own table is a's to take back at a restart, not while it runs.
        let own = db
            .store
            .claimable_tables(&a, Claimable::OwnAndOrphaned)
            .await?;
        assert_eq!(own, vec![t.clone()]);
        assert!(
            db.store
                .claimable_tables(&a, Claimable::Orphaned)
                .await?
                .is_empty()
        );
        let seen = db.store.ownership(&t).await?;
        assert_eq!(
            (seen.owner, seen.alive, seen.epoch, seen.address.as_deref()),
            (Some(a.clone()), true, Epoch(2), Some("10.0.0.1:8080"))
        );
        // a restarted under its name takes its table back at once, under a new epoch.
        let again = db.store.claim_table(&t, &a).await?.expect("its own table");
        assert_eq!(again.epoch, Epoch(3));
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_lapsed_or_retired_node_loses_its_tables_and_cannot_renew() {
    on_each_backend(|db| async move {
        let (a, b, c) = (node("a"), node("b"), node("c"));
        db.store.register_node(&b, "b:1", LONG).await?;
        // A lease of nothing: lapsed as soon as it is written.
        db.store.register_node(&a, "a:1", Duration::ZERO).await?;
        let t = table(&db).await?;
        db.store.claim_table(&t, &a).await?.expect("free");
        assert!(
            !db.store.renew_node(&a, LONG).await?,
            "a lapsed lease is not renewed"
        );
        assert!(!db.store.ownership(&t).await?.alive);
        let adopted = db.store.claim_table(&t, &b).await?.expect("a lapsed");
        assert_eq!(adopted.epoch, Epoch(3));
        assert!(db.store.renew_node(&b, LONG).await?);
        // A node that leaves ends its lease: its tables are claimable at once.
        db.store.register_node(&c, "c:1", LONG).await?;
        assert_eq!(db.store.live_nodes().await?, vec![b.clone(), c.clone()]);
        db.store.retire_node(&b).await?;
        assert_eq!(db.store.live_nodes().await?, vec![c.clone()]);
        assert_eq!(
            db.store
                .claimable_tables(&c, Claimable::OwnAndOrphaned)
                .await?,
            vec![t.clone()]
        );
        assert_eq!(
            db.store.claim_table(&t, &c).await?.map(|c| c.epoch),
            Some(Epoch(4))
        );
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_release_ends_the_claim_and_finished_tables_are_nobodys() {
    on_each_backend(|db| async move {
        let (a, b) = (node("a"), node("b"));
        db.store.register_node(&a, "a:1", LONG).await?;
        db.store.register_node(&b, "b:1", LONG).await?;
        let t = table(&db).await?;
        let claim = db.store.claim_table(&t, &a).await?.expect("free");
        assert!(db.store.release_table(&claim).await?);
        assert!(!db.store.release_table(&claim).await?, "released already");
        let seen = db.store.ownership(&t).await?;
        assert_eq!((seen.owner, seen.epoch), (None, Epoch(3)));
        let by_b = db.store.claim_table(&t, &b).await?.expect("released");
        assert_eq!(by_b.epoch, Epoch(4));
        db.store
            .set_table_status(&by_b, TableStatus::Finished)
            .await?;
        assert!(
            db.store
                .claimable_tables(&a, Claimable::OwnAndOrphaned)
                .await?
                .is_empty()
        );
        db.store.retire_node(&b).await?;
        assert_eq!(
            db.store.claim_table(&t, &a).await?,
            None,
            "a finished table"
        );
        expect_err(db.store.ownership(&TableId::new()).await, |e| {
            matches!(e, StoreError::NotFound { what: "table", .. })
        })?;
        Ok(())
    })
    .await;
}

#[test]
fn node_names_are_checked() {
    for bad in ["", "a b", "a/b", "ä", &"x".repeat(65)] {
        assert!(NodeId::parse(bad).is_err(), "{bad:?}");
    }
    for good in [
        "node-1",
        "mahjong-2.example.org:8080",
        "n_3",
        &"x".repeat(64),
    ] {
        assert_eq!(NodeId::parse(good).expect(good).as_str(), good);
    }
}

/// Asserts that `r` was refused as a write under `old`, a claim no longer current.
fn fenced<T: std::fmt::Debug>(r: Result<T, StoreError>, old: &Claim) -> anyhow::Result<()> {
    expect_err(
        r,
        |e| matches!(e, StoreError::Fenced { epoch, .. } if *epoch == old.epoch.0),
    )?;
    Ok(())
}

/// A node that lost its table (its lease lapsed and another node claimed the table) can write
/// nothing to it: not an action, not a hand, not the table's state; the new owner can. Through
/// the group commit, the fenced append is refused on its own and a batch mate is stored.
#[tokio::test]
async fn a_node_that_lost_its_table_writes_nothing_to_it() {
    on_each_backend(|db| async move {
        let grouped = db.store.clone().with_group_commit();
        let (a, b) = (node("a"), node("b"));
        db.store.register_node(&a, "a:1", Duration::ZERO).await?;
        db.store.register_node(&b, "b:1", LONG).await?;
        let ps = players(&db, 2).await?;
        let t = table_of(&db, "sichuan", &ps).await?.table;
        let old = db.store.claim_table(&t, &a).await?.expect("free");
        grouped.append_actions(&old, &[common::entry(0)]).await?;
        let new = db.store.claim_table(&t, &b).await?.expect("a lapsed");
        fenced(
            db.store.append_actions(&old, &[common::entry(1)]).await,
            &old,
        )?;
        let other = table_of(&db, "sichuan", &ps).await?;
        let (second, first_of_other) = ([common::entry(1)], [common::entry(0)]);
        let (stale, fine) = tokio::join!(
            grouped.append_actions(&old, &second),
            grouped.append_actions(&other, &first_of_other)
        );
        fenced(stale, &old)?;
        fine?;
        let first = hand(&t, 0, &ps, [3, -1, -1, -1]);
        fenced(db.store.record_hand(&old, &first).await, &old)?;
        let closed = db.store.set_table_status(&old, TableStatus::Closed).await;
        fenced(closed, &old)?;
        assert!(!db.store.release_table(&old).await?);
        // The new owner writes as before: the log holds the old owner's first action and the
        // new owner's, nothing else.
        grouped.append_actions(&new, &[common::entry(1)]).await?;
        db.store.record_hand(&new, &first).await?;
        assert_eq!(db.store.actions(&t, 0).await?.len(), 2);
        assert_eq!(db.store.table(&t).await?.hands_played, 1);
        assert_eq!(db.count("SELECT COUNT(*) FROM room_actions").await?, 3);
        Ok(())
    })
    .await;
}

/// The fence costs no failures under load: eight rooms appending at once, each on a connection
/// of its own (no group commit), all get every append in. (Reading the epoch before writing
/// made SQLite's transactions readers that could not become writers: "database is locked".)
#[tokio::test]
async fn rooms_appending_at_once_all_get_in() {
    on_each_backend(|db| async move {
        let ps = players(&db, 1).await?;
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..8 {
            let claim = table_of(&db, "sichuan", &ps).await?;
            let store = db.store.clone();
            tasks.spawn(async move {
                for seq in 0..40 {
                    store.append_actions(&claim, &[common::entry(seq)]).await?;
                }
                Ok::<_, StoreError>(())
            });
        }
        while let Some(done) = tasks.join_next().await {
            done??;
        }
        assert_eq!(db.count("SELECT COUNT(*) FROM room_actions").await?, 320);
        Ok(())
    })
    .await;
}
