//! Serialize once, frame per recipient. A table's event goes to every seat and spectator with
//! the same body and only its `seq` differs, so the room turns the message into JSON once and
//! each recipient's frame is that text with its `seq` put in front. The frame is the same text
//! `serde_json::to_string(&Envelope { seq, message })` gives (the envelope's `seq` comes first
//! and the message is flattened after it), without `flatten`'s detour through a map for every
//! recipient.

use std::sync::Arc;

use crate::ServerMessage;

/// A message serialized once, without its place in a stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Body(Arc<str>);

impl Body {
    /// Serializes `message`. It cannot fail for the protocol's own types (every map key is a
    /// string); an error is returned rather than assumed away.
    pub fn of(message: &ServerMessage) -> Result<Body, serde_json::Error> {
        serde_json::to_string(message).map(|s| Body(s.into()))
    }

    /// The frame of this message at `seq` in a stream (`None`: a reply outside the stream).
    pub fn frame(&self, seq: Option<u64>) -> Arc<str> {
        let Some(seq) = seq else {
            return self.0.clone();
        };
        // A body only comes from `of`, and a message is an internally tagged enum: always a
        // JSON object that holds at least `type`, so the brace is always there.
        let rest = self.0.strip_prefix('{').unwrap_or(&self.0);
        let seq = seq.to_string();
        let mut out = String::with_capacity(self.0.len() + seq.len() + 8);
        out.push_str("{\"seq\":");
        out.push_str(&seq);
        out.push(',');
        out.push_str(rest);
        out.into()
    }

    /// The serialized message.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The `seq` of a frame `Body::frame` made, read off its front without parsing the rest (a
/// relay keeps the last one it passed on, to resume from it); `None` for a reply.
pub fn seq_of(frame: &str) -> Option<u64> {
    let rest = frame.strip_prefix("{\"seq\":")?;
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    rest[..digits].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Envelope;
    use crate::{ErrorCode, SeatInfo, SeatStatus};

    fn samples() -> Vec<ServerMessage> {
        vec![
            ServerMessage::Pong { id: 1 },
            ServerMessage::Ack { id: 7 },
            ServerMessage::SeatChanged(SeatInfo {
                seat: 2,
                name: "王 \"小\" 明".into(),
                status: SeatStatus::Takeover,
            }),
            ServerMessage::Error {
                id: Some(3),
                code: ErrorCode::IllegalAction,
                message: "not your turn\n".into(),
            },
        ]
    }

    #[test]
    fn a_frame_is_the_envelope_text() {
        for message in samples() {
            let body = Body::of(&message).expect("serializes");
            for seq in [None, Some(1), Some(u64::MAX)] {
                let expected = serde_json::to_string(&Envelope {
                    seq,
                    message: message.clone(),
                })
                .expect("serializes");
                assert_eq!(&*body.frame(seq), expected.as_str());
                assert_eq!(seq_of(&body.frame(seq)), seq);
                let back: Envelope = serde_json::from_str(&body.frame(seq)).expect("reads");
                assert_eq!(back.seq, seq);
                assert_eq!(back.message, message);
            }
        }
    }
}
