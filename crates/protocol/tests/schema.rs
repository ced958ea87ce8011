//! proto/schema/*.json is generated from the Rust types; this test fails when they drift apart.
//! Run with `UPDATE_SCHEMA=1` to write the files anew after changing a message type.

use std::path::Path;

use protocol::{ClientMessage, Envelope, ServerMessage, WireAction};

#[test]
fn the_committed_schema_matches_the_types() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto/schema");
    let update = std::env::var_os("UPDATE_SCHEMA").is_some();
    for (name, schema) in protocol::schemas() {
        let text = serde_json::to_string_pretty(&schema).expect("schema as JSON") + "\n";
        let path = dir.join(name);
        if update {
            std::fs::create_dir_all(&dir).expect("proto/schema");
            std::fs::write(&path, &text).expect("write schema");
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "{} is stale: run `UPDATE_SCHEMA=1 cargo test -p mahjong-protocol --test schema`",
            path.display()
        );
    }
}

#[test]
fn messages_read_and_write_as_the_prose_says() {
    let hello: ClientMessage =
        serde_json::from_str(r#"{"type":"hello","token":"abc"}"#).expect("hello");
    assert_eq!(
        hello,
        ClientMessage::Hello {
            token: "abc".into(),
            last_seq: None
        }
    );
    let act: ClientMessage =
        serde_json::from_str(r#"{"type":"act","id":7,"action":{"type":"discard","tile":"5m"}}"#)
            .expect("act");
    let ClientMessage::Act {
        id: 7,
        action: WireAction::Discard { tile },
    } = act
    else {
        panic!("{act:?}");
    };
    assert_eq!(tile.to_string(), "5m");
    assert!(
        serde_json::from_str::<ClientMessage>(
            r#"{"type":"act","id":1,"action":{"type":"discard","tile":"0m"}}"#
        )
        .is_err()
    );
    assert!(serde_json::from_str::<ClientMessage>(r#"{"type":"shout"}"#).is_err());
    let out = Envelope {
        seq: Some(3),
        message: ServerMessage::Ack { id: 7 },
    };
    assert_eq!(
        serde_json::to_string(&out).expect("json"),
        r#"{"seq":3,"type":"ack","id":7}"#
    );
    let back: Envelope = serde_json::from_str(r#"{"seq":3,"type":"ack","id":7}"#).expect("read");
    assert_eq!(back, out);
}
