//! The client protocol: every message a client sends or receives over the WebSocket, as Rust
//! types, and their conversion from the engine's types. No logic lives here.
//!
//! Frames are JSON text. Every message has a `type`; messages of a table's stream carry a `seq`
//! (1, 2, 3 … per player and table) so that a client that reconnects can say what it last saw.
//! `proto/README.md` describes the flow; `proto/schema/*.json` is generated from these types
//! (see [`schemas`]) and a test fails when the two drift apart.

mod convert;
mod frame;
mod messages;
mod wire;

pub use convert::{public_view, settlement, view, wire_event};
pub use frame::{Body, seq_of};
pub use messages::{
    ClientMessage, Envelope, ErrorCode, PromptInfo, SeatInfo, SeatStatus, ServerMessage,
    TableSnapshot,
};
pub use wire::{
    WireAction, WireDiscard, WireEvent, WireFanItem, WireMeld, WirePaidFor, WirePayment,
    WirePublicSeat, WireSettlement, WireView, WireWin, WireWinnerFans,
};

/// The WebSocket subprotocol: the major version of this protocol.
pub const SUBPROTOCOL: &str = "mahjong.v1";

/// The largest frame a client may send, in bytes.
pub const MAX_CLIENT_FRAME: usize = 4096;

/// The read buffer a server gives each socket, in bytes. Client frames are small (an action is
/// under 100 bytes) and every socket holds its buffer for as long as it lives; a larger frame
/// is read in several steps. Shared here so that the load test's bare baseline server holds
/// what the game server holds.
pub const READ_BUFFER: usize = 1024;

/// The JSON Schema of each side of the protocol, by file name under `proto/schema/`.
pub fn schemas() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        (
            "client-message.json",
            serde_json::to_value(schemars::schema_for!(ClientMessage)).unwrap_or_default(),
        ),
        (
            "server-message.json",
            serde_json::to_value(schemars::schema_for!(Envelope)).unwrap_or_default(),
        ),
    ]
}
