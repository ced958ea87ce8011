//! A seat's stream: its messages numbered in order, and the recent ones kept so that a client
//! that reconnects gets only what it missed (`hello` with its last `seq`).
//!
//! What is kept is as little as makes the frame again. Most of a seat's stream is the hand's
//! events, which the room keeps for the whole hand anyway: an event is kept as its place in
//! them and its body made again if a client resumes. Other messages (prompts, seat changes,
//! a hand's result) keep their body. Kept as bodies, the events were most of a seat's memory
//! beyond what a bare socket costs (about 2.6 KiB a seat at 4,000 tables).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use protocol::{Body, PromptInfo, ServerMessage};
use tokio::time::Instant;

/// Messages kept per seat at most; older ones are replaced by a snapshot.
const KEPT: usize = 1024;

/// How long a message is kept for resumption. A stream resumes a connection that blinked (a
/// phone changing networks comes back within seconds; the bot takes the seat after 3); a
/// client away longer gets a snapshot, which says the same. Kept by count alone, a busy
/// table's seats each held up to 1,024 frames (~150 KiB) for as long as the table lived.
pub const KEEP_FOR: Duration = Duration::from_secs(20);

/// A message of the stream as kept.
#[derive(Clone, Debug)]
pub enum Message {
    /// Event number `index` (from 0) of hand `hand`, as the room's [`HandEvents`] make it.
    Event {
        /// The hand's number.
        hand: u32,
        /// The event's place among the hand's events.
        index: u32,
    },
    /// A prompt, as the prompt: a discard's prompt lists every tile in hand, and its JSON is
    /// four times the size.
    Prompt(Box<PromptInfo>),
    /// Any other message, as sent. Boxed, as the prompt is: every variant is then one word,
    /// and an entry of the queue 24 bytes, not 32 (the few messages kept this way pay a
    /// 16-byte box).
    Body(Box<Body>),
}

/// Makes the body of a hand's event again, for the hands whose events the room still holds.
pub trait HandEvents {
    /// The body of event `index` of hand `hand`; `None` when the room no longer holds it.
    fn body(&self, hand: u32, index: u32) -> Option<Body>;
}

/// A kept message and when it was sent, in milliseconds from the stream's `base`.
#[derive(Debug)]
struct Kept {
    at_ms: u64,
    message: Message,
}

/// One seat's stream.
#[derive(Debug)]
pub struct Stream {
    next_seq: u64,
    /// What `Kept::at_ms` counts from.
    base: Instant,
    /// The recent messages, oldest first. Their sequence numbers are the last `kept.len()`
    /// before `next_seq` (every message of the stream is kept, and the oldest go first), so
    /// they are not stored.
    kept: VecDeque<Kept>,
}

impl Stream {
    /// A stream that numbers its messages from `first_seq`.
    pub fn new(first_seq: u64, now: Instant) -> Stream {
        Stream {
            next_seq: first_seq,
            base: now,
            kept: VecDeque::new(),
        }
    }

    fn ms(&self, at: Instant) -> u64 {
        at.saturating_duration_since(self.base).as_millis() as u64
    }

    /// Numbers and keeps `message`, sent at `now`; returns its `seq`. Messages older than
    /// [`KEEP_FOR`] go, and the queue gives back room it no longer needs (a seat's burst at a
    /// deal or a reconnection would otherwise hold its high-water mark for the table's life).
    pub fn push(&mut self, message: Message, now: Instant) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        let at_ms = self.ms(now);
        let oldest = at_ms.saturating_sub(KEEP_FOR.as_millis() as u64);
        while self.kept.len() >= KEPT || self.kept.front().is_some_and(|k| k.at_ms < oldest) {
            self.kept.pop_front();
        }
        self.fit(self.kept.len() + 1);
        self.kept.push_back(Kept { at_ms, message });
        seq
    }

    /// Sizes the queue for `len` messages within an eighth or so: it grows by an eighth, not
    /// twice over, and gives back what it no longer needs. A queue that doubled and kept its
    /// high-water mark held twice its messages on average, and a seat holds a dozen or so.
    fn fit(&mut self, len: usize) {
        let capacity = self.kept.capacity();
        if capacity < len {
            self.kept.reserve_exact(len - self.kept.len() + len / 8);
        } else if capacity > len + len / 4 + 2 {
            self.kept.shrink_to(len + len / 8);
        }
    }

    /// Forgets every kept message (the seat's player is gone); numbering goes on.
    pub fn clear(&mut self) {
        self.kept = VecDeque::new();
    }

    /// Keeps the events of hand `hand` as their bodies, before the room lets go of the hand.
    /// An event the room cannot make ends what the stream can resume: it forgets everything
    /// up to it, and a client that missed it gets a snapshot.
    pub fn retire(&mut self, hand: u32, events: &dyn HandEvents) {
        let mut lost = None;
        for (i, kept) in self.kept.iter_mut().enumerate() {
            if let Message::Event { hand: h, index } = kept.message
                && h == hand
            {
                match events.body(h, index) {
                    Some(body) => kept.message = Message::Body(Box::new(body)),
                    None => lost = Some(i),
                }
            }
        }
        if let Some(i) = lost {
            self.kept.drain(..=i);
        }
    }

    /// The kept messages with their sequence numbers, oldest first.
    fn in_order(&self) -> impl Iterator<Item = (u64, &Message)> {
        let first = self.next_seq - self.kept.len() as u64;
        (first..).zip(self.kept.iter().map(|k| &k.message))
    }

    /// The kept frames after `seq`, each with its `seq`, as far as they can be made.
    pub fn frames_after(&self, seq: u64, events: &dyn HandEvents) -> Vec<(u64, Arc<str>)> {
        self.in_order()
            .filter(|(s, _)| *s > seq)
            .map_while(|(s, m)| Some((s, body(m, events)?.frame(Some(s)))))
            .collect()
    }

    /// The frames after `last_seq`, if the stream still holds all of them; `None` (a snapshot
    /// is owed) when it does not, or when `last_seq` is one this stream never sent (a client
    /// of a run before a restart, or a wrong one). `seq` is the server's: a client's number
    /// never moves the counter.
    pub fn since(&self, last_seq: u64, events: &dyn HandEvents) -> Option<Vec<Arc<str>>> {
        if last_seq >= self.next_seq {
            return None;
        }
        if last_seq + 1 == self.next_seq {
            return Some(Vec::new());
        }
        let (first, _) = self.in_order().next()?;
        if first > last_seq + 1 {
            return None;
        }
        self.in_order()
            .filter(|(s, _)| *s > last_seq)
            .map(|(s, m)| Some(body(m, events)?.frame(Some(s))))
            .collect()
    }
}

fn body(message: &Message, events: &dyn HandEvents) -> Option<Body> {
    match message {
        Message::Event { hand, index } => events.body(*hand, *index),
        Message::Prompt(info) => Body::of(&ServerMessage::Prompt(PromptInfo::clone(info))).ok(),
        Message::Body(body) => Some(Body::clone(body)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pong(id: u64) -> Body {
        Body::of(&ServerMessage::Pong { id }).expect("a pong serializes")
    }

    /// No hand's events: what a stream holding only bodies needs.
    struct NoEvents;

    impl HandEvents for NoEvents {
        fn body(&self, _: u32, _: u32) -> Option<Body> {
            None
        }
    }

    /// Hand 7's events, as pongs numbered by their place; no other hand's.
    struct Hand7;

    impl HandEvents for Hand7 {
        fn body(&self, hand: u32, index: u32) -> Option<Body> {
            (hand == 7).then(|| pong(1000 + u64::from(index)))
        }
    }

    #[test]
    fn a_kept_message_is_small() {
        assert_eq!(std::mem::size_of::<Message>(), 16);
        assert_eq!(std::mem::size_of::<Kept>(), 24);
    }

    /// A resuming client gets what it missed while the stream still holds it, and a snapshot
    /// (`None`) once the frames it missed are older than the stream keeps.
    #[tokio::test(start_paused = true)]
    async fn frames_are_kept_for_a_while_only() {
        let mut stream = Stream::new(1, Instant::now());
        for id in 1..=3 {
            stream.push(Message::Body(Box::new(pong(id))), Instant::now());
        }
        assert_eq!(stream.since(1, &NoEvents).map(|f| f.len()), Some(2));
        assert_eq!(stream.since(3, &NoEvents).map(|f| f.len()), Some(0));
        tokio::time::advance(KEEP_FOR + Duration::from_secs(1)).await;
        assert_eq!(
            stream.push(Message::Body(Box::new(pong(4))), Instant::now()),
            4
        );
        assert_eq!(stream.kept.len(), 1, "old frames are dropped");
        assert!(
            stream.since(1, &NoEvents).is_none(),
            "a client too far behind gets a snapshot"
        );
        let missed = stream.since(3, &NoEvents).expect("the last frame is kept");
        assert_eq!(missed.len(), 1);
        assert!(missed[0].contains("\"seq\":4"), "{}", missed[0]);
        // A client ahead of the stream gets a snapshot; its number does not move the counter.
        assert!(stream.since(1_000, &NoEvents).is_none());
        stream.push(Message::Body(Box::new(pong(5))), Instant::now());
        assert_eq!(
            stream.since(4, &NoEvents).map(|f| f.len()),
            Some(1),
            "the stream goes on at 5"
        );
    }

    /// An event is made again from the hand's events; once the room lets go of its hand,
    /// the event's body kept at that moment stands for it.
    #[tokio::test(start_paused = true)]
    async fn events_are_made_again_until_their_hand_retires() {
        let now = Instant::now();
        let mut stream = Stream::new(1, now);
        stream.push(Message::Body(Box::new(pong(1))), now);
        stream.push(Message::Event { hand: 7, index: 0 }, now);
        stream.push(Message::Event { hand: 7, index: 1 }, now);
        let frames = stream.since(1, &Hand7).expect("all kept");
        assert_eq!(frames.len(), 2);
        assert!(frames[0].contains("\"seq\":2") && frames[0].contains("1000"));
        assert!(frames[1].contains("\"seq\":3") && frames[1].contains("1001"));
        assert!(
            stream.since(1, &NoEvents).is_none(),
            "an event the room no longer holds cannot be resumed"
        );
        stream.retire(7, &Hand7);
        assert_eq!(stream.since(1, &NoEvents), Some(frames.clone()));
        assert_eq!(stream.frames_after(0, &NoEvents).len(), 3);
    }

    /// A prompt kept as the prompt makes the same frame as the one sent.
    #[tokio::test(start_paused = true)]
    async fn a_prompt_is_made_again_as_sent() {
        let info = PromptInfo {
            hand_no: 3,
            legal: vec![protocol::WireAction::Pass, protocol::WireAction::Win],
            deadline_ms: 1_700_000_000_000,
            bank_ms: 500,
        };
        let sent = Body::of(&ServerMessage::Prompt(info.clone())).expect("serializes");
        let now = Instant::now();
        let mut stream = Stream::new(1, now);
        let seq = stream.push(Message::Prompt(Box::new(info)), now);
        assert_eq!(
            stream.since(0, &NoEvents),
            Some(vec![sent.frame(Some(seq))])
        );
    }

    /// An event the room cannot make when its hand retires ends the resumable stream there.
    #[tokio::test(start_paused = true)]
    async fn an_event_lost_at_retirement_owes_a_snapshot() {
        let now = Instant::now();
        let mut stream = Stream::new(1, now);
        stream.push(Message::Event { hand: 8, index: 0 }, now);
        stream.push(Message::Body(Box::new(pong(2))), now);
        stream.retire(8, &Hand7);
        assert!(stream.since(0, &NoEvents).is_none());
        assert_eq!(stream.since(1, &NoEvents).map(|f| f.len()), Some(1));
    }

    /// The queue holds little more than its messages: it does not double as it grows, and a
    /// burst's room is given back once the stream is quiet again.
    #[tokio::test(start_paused = true)]
    async fn the_queue_fits_its_messages() {
        let mut stream = Stream::new(1, Instant::now());
        for id in 0..200 {
            stream.push(Message::Body(Box::new(pong(id))), Instant::now());
            let len = stream.kept.len();
            assert!(
                stream.kept.capacity() <= len + len / 4 + 2,
                "{len} kept in room for {}",
                stream.kept.capacity()
            );
        }
        tokio::time::advance(KEEP_FOR + Duration::from_secs(1)).await;
        stream.push(Message::Body(Box::new(pong(1))), Instant::now());
        assert_eq!(stream.kept.len(), 1);
        assert!(stream.kept.capacity() <= 16, "{}", stream.kept.capacity());
    }
}
