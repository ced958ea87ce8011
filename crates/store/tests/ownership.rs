//! Table ownership between nodes, on both backends: a table is claimed by one live node at a
//! time, each claim raises its epoch, a lapsed or retired node's tables are claimable, a node
//! restarted under its name takes its own back at once, and a release ends the claim.

mod common;

use std::time::Duration;

use common::{Db, expect_err, on_each_backend, players, table_of};
use store::{Epoch, NodeId, StoreError, TableId, TableStatus};

const LONG: Duration = Duration::from_secs(600);

fn node(name: &str) -> NodeId {
    NodeId::parse(name).expect("a node name")
}

async fn table(db: &Db) -> anyhow::Result<TableId> {
    let ps = players(db, 1).await?;
    table_of(db, "sichuan", &ps).await
}

#[tokio::test]
async fn a_table_is_claimed_by_one_live_node_at_a_time() {
    on_each_backend(|db| async move {
        let (a, b) = (node("node-a:8080"), node("node-b:8080"));
        db.store.register_node(&a, "10.0.0.1:8080", LONG).await?;
        db.store.register_node(&b, "10.0.0.2:8080", LONG).await?;
        let t = table(&db).await?;
        assert_eq!(db.store.claimable_tables(&b).await?, vec![t.clone()]);
        let first = db.store.claim_table(&t, &a).await?.expect("a free table");
        assert_eq!(first.epoch, Epoch(1));
        assert_eq!(db.store.claim_table(&t, &b).await?, None, "a is alive");
        assert!(db.store.claimable_tables(&b).await?.is_empty());
        let seen = db.store.ownership(&t).await?;
        assert_eq!(
            (seen.owner, seen.alive, seen.epoch, seen.address.as_deref()),
            (Some(a.clone()), true, Epoch(1), Some("10.0.0.1:8080"))
        );
        // a restarted under its name takes its table back at once, under a new epoch.
        let again = db.store.claim_table(&t, &a).await?.expect("its own table");
        assert_eq!(again.epoch, Epoch(2));
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
        assert_eq!(adopted.epoch, Epoch(2));
        assert!(db.store.renew_node(&b, LONG).await?);
        // A node that leaves ends its lease: its tables are claimable at once.
        db.store.register_node(&c, "c:1", LONG).await?;
        db.store.retire_node(&b).await?;
        assert_eq!(db.store.claimable_tables(&c).await?, vec![t.clone()]);
        assert_eq!(
            db.store.claim_table(&t, &c).await?.map(|c| c.epoch),
            Some(Epoch(3))
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
        assert_eq!((seen.owner, seen.epoch), (None, Epoch(2)));
        assert_eq!(
            db.store.claim_table(&t, &b).await?.map(|c| c.epoch),
            Some(Epoch(3))
        );
        db.store.set_table_status(&t, TableStatus::Finished).await?;
        assert!(db.store.claimable_tables(&a).await?.is_empty());
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
