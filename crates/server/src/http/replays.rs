//! A finished hand as a stream: the messages a client's reducer plays forward, so a replay
//! needs no rules on the client. The hand is over, so nothing in it is hidden any longer: the
//! stream holds every seat's own events (its deal, its draws) in place of their public twins,
//! and a client that reduces it once per seat has every hand at every step.

use axum::Json;
use axum::extract::{Path, State};
use engine::record::HandRecord;
use engine::stored::{Document, StoredHandRecord};
use engine::{Audience, Event};
use protocol::{Envelope, ServerMessage, WireSettlement};
use serde::Serialize;
use store::TableId;
use utoipa::ToSchema;

use super::ErrorBody;
use super::doc::UnavailableErrors;
use crate::AppState;
use crate::error::ApiError;

/// Who sat in a seat for the hand.
#[derive(Serialize, ToSchema)]
pub(super) struct StreamSeat {
    /// The seat, from 0.
    seat: u8,
    /// The player, absent for a bot (and for a seat played after its player escaped).
    #[schema(format = "uuid")]
    player: Option<String>,
    /// The name the table showed: the player's display name, or `bot`.
    name: String,
}

/// A finished hand as the messages of a stream.
#[derive(Serialize, ToSchema)]
pub(super) struct HandStream {
    /// The table.
    #[schema(format = "uuid")]
    table: String,
    /// The hand's number at its table, from 0.
    hand_no: u64,
    /// Ruleset preset id.
    ruleset: String,
    /// Who sat where.
    seats: Vec<StreamSeat>,
    /// The running scores before the hand.
    scores: Vec<i64>,
    /// The 荒番 counter the hand was played with (Shanghai; 0 elsewhere).
    draw_bonus: u32,
    /// The hand's messages, numbered from 1 as a stream is: `hand_starting`, every `event`
    /// (every seat's own ones included: `dealt`, `drew` with its tile …), then `hand_over`.
    /// Start a reducer from a snapshot made of the fields above (`view` absent) with the seat
    /// to follow, and apply these in order.
    #[schema(value_type = Vec<Object>)]
    frames: Vec<serde_json::Value>,
}

/// A finished hand as a stream of messages, everything shown.
#[utoipa::path(
    get,
    path = "/api/tables/{table}/hands/{hand}/stream",
    params(
        ("table" = String, Path, format = "uuid", description = "table id"),
        ("hand" = u64, Path, description = "hand number, from 0"),
    ),
    responses(
        (status = 200, description = "the hand as a stream of messages", body = HandStream),
        (status = 400, description = "`bad_request`: `table` is not a table id, or `hand` not a number from 0 to 2^63 - 1", body = ErrorBody),
        (status = 403, description = "`forbidden`: a duplicate tournament's table while its round plays", body = ErrorBody),
        (status = 404, description = "`not_found`: no such hand was finished at this table", body = ErrorBody),
        (status = 500, description = "`internal`: the stored record does not replay", body = ErrorBody),
        UnavailableErrors,
    )
)]
pub(super) async fn hand_stream(
    State(state): State<AppState>,
    Path((table, hand)): Path<(String, u64)>,
) -> Result<Json<HandStream>, ApiError> {
    let table = TableId::parse(&table).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    crate::tournaments::refuse_if_withheld(&state, &table).await?;
    let (summary, record) = state.store.hand(&table, hand).await?;
    let record = StoredHandRecord::read(&record)
        .and_then(|r| HandRecord::try_from(&r))
        .map_err(|e| ApiError::Internal(format!("hand {table}/{hand}: its record: {e}")))?;
    let game = record
        .replay()
        .map_err(|e| ApiError::Internal(format!("hand {table}/{hand} does not replay: {e}")))?;
    let players = game.ruleset().rules().flow().players;
    // The scores before it: the deltas of the table's earlier hands.
    let mut scores = vec![0i64; usize::from(players)];
    for earlier in state.store.table_hands(&table).await? {
        if earlier.hand_no < hand {
            for (s, seat) in scores.iter_mut().zip(&earlier.seats) {
                *s += seat.delta;
            }
        }
    }
    let mut seats = Vec::new();
    for (i, s) in summary.seats.iter().enumerate() {
        let name = match &s.player {
            Some(p) => state.store.player(p).await?.display_name,
            None => "bot".to_string(),
        };
        seats.push(StreamSeat {
            seat: i as u8,
            player: s.player.as_ref().map(ToString::to_string),
            name,
        });
    }
    let settlement: WireSettlement = serde_json::from_value(summary.fans.clone())
        .map_err(|e| ApiError::Internal(format!("hand {table}/{hand}: its settlement: {e}")))?;
    let after: Vec<i64> = scores
        .iter()
        .zip(&summary.seats)
        .map(|(s, seat)| s + seat.delta)
        .collect();
    let messages = std::iter::once(ServerMessage::HandStarting {
        hand_no: hand,
        seed_sha256: crate::room::seed_commitment(record.seed),
    })
    .chain(
        game.events()
            .iter()
            .filter(|e| shown(e))
            .map(|e| ServerMessage::Event {
                hand_no: hand,
                event: protocol::wire_event(&e.kind, players),
            }),
    )
    .chain(std::iter::once(ServerMessage::HandOver {
        hand_no: hand,
        seed: Some(record.seed.to_string()),
        settlement,
        scores: after,
        draw_bonus: record.draw_bonus,
    }));
    let frames = messages
        .zip(1u64..)
        .map(|(message, seq)| {
            serde_json::to_value(Envelope {
                seq: Some(seq),
                message,
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ApiError::Internal(format!("hand {table}/{hand}: {e}")))?;
    Ok(Json(HandStream {
        table: table.to_string(),
        hand_no: hand,
        ruleset: summary.ruleset,
        seats,
        scores,
        draw_bonus: record.draw_bonus,
        frames,
    }))
}

/// Whether an event belongs in a finished hand's stream: everything but the public twins of
/// seats' own events, whose own versions (with their tiles) take their place.
fn shown(e: &Event) -> bool {
    !matches!(e.audience, Audience::AllBut(_))
}
