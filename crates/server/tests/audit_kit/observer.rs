//! One observer (a seat or a spectator) checking every message it receives: the whitelist
//! scan, then the message against its model, the seed commitments, and counts for the report.

use std::collections::BTreeMap;

use serde_json::Value;
use sha2::Digest;

use super::facts::Public;
use super::model::Model;
use super::policy;
use super::scan;
use super::view;

/// Counts of what an observer checked.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub messages: u64,
    /// Tile strings found by the scan, allowed or not.
    pub tiles: u64,
    /// Snapshots of a hand in play compared with a model or a paused seat's view.
    pub snapshots: u64,
    /// Those showing another seat's concealed kong face down, and seat 0's among them.
    pub snapshots_hidden_kong: u64,
    pub snapshots_seat0_hidden: u64,
    /// Hands whose `hand_over` (and seed) it checked.
    pub hands: u64,
    pub own_concealed_kongs: u64,
    pub hidden_kongs_seen: u64,
    pub reconnects: u64,
    /// Events received, by kind.
    pub kinds: BTreeMap<String, u64>,
    /// Snapshots checked, by what the seat owed then (`own turn`, `claim`, `deal`: 定缺 or the
    /// opening swap; `nothing`: another seat's pause).
    pub phases: BTreeMap<&'static str, u64>,
}

impl Stats {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Stats) {
        self.messages += other.messages;
        self.tiles += other.tiles;
        self.snapshots += other.snapshots;
        self.snapshots_hidden_kong += other.snapshots_hidden_kong;
        self.snapshots_seat0_hidden += other.snapshots_seat0_hidden;
        self.hands += other.hands;
        self.own_concealed_kongs += other.own_concealed_kongs;
        self.hidden_kongs_seen += other.hidden_kongs_seen;
        self.reconnects += other.reconnects;
        for (kind, n) in &other.kinds {
            *self.kinds.entry(kind.clone()).or_default() += n;
        }
        for (phase, n) in &other.phases {
            *self.phases.entry(phase).or_default() += n;
        }
    }
}

/// An observer's checks and what it has seen.
pub struct Observer {
    /// Preset and observer, for the report.
    pub label: String,
    pub model: Model,
    pub stats: Stats,
    pub problems: Vec<String>,
    /// Each hand's committed seed hash (`hand_starting`, or a snapshot's `seed_sha256`).
    commitments: BTreeMap<u64, String>,
    /// Each finished hand's events as every observer sees them (`model::projection`).
    pub projections: BTreeMap<u64, Vec<String>>,
    /// The legal actions of the decision the seat owes, if any.
    pub owed: Option<Vec<Value>>,
}

impl Observer {
    /// An observer for seat `me` (None: a spectator) at a table of `players`.
    pub fn new(label: String, me: Option<usize>, players: usize) -> Observer {
        Observer {
            label,
            model: Model::new(me, players),
            stats: Stats::default(),
            problems: Vec::new(),
            commitments: BTreeMap::new(),
            projections: BTreeMap::new(),
            owed: None,
        }
    }

    /// Records a problem found outside the model.
    pub fn problem(&mut self, what: String) {
        self.problems.push(format!("{}: {what}", self.label));
    }

    /// Checks one received message. `expected`: for a snapshot asked for at a pause, the public
    /// state the paused seat held.
    pub fn check(&mut self, m: &Value, expected: Option<&Public>) {
        self.stats.messages += 1;
        let me = self.model.me;
        for leak in scan::leaks(m, me, &mut self.stats.tiles) {
            self.model.problems.push(format!("LEAK: {leak}"));
        }
        let hand_no = m["hand_no"].as_u64().unwrap_or_default();
        match m["type"].as_str().unwrap_or_default() {
            "snapshot" => self.snapshot(&m["table"], expected),
            "hand_starting" => {
                let sha = m["seed_sha256"].as_str().unwrap_or_default().to_string();
                self.commitments.insert(hand_no, sha);
            }
            "event" => {
                let kind = m["event"]["kind"].as_str().unwrap_or_default().to_string();
                *self.stats.kinds.entry(kind).or_default() += 1;
                self.model.event(hand_no, &m["event"]);
                if m["event"]["kind"] == "hand_ended" {
                    self.projections
                        .insert(hand_no, self.model.projection.clone());
                }
            }
            "prompt" => match me {
                None => self.model.problems.push("a spectator was prompted".into()),
                Some(_) => {
                    let legal = m["legal"].as_array().cloned().unwrap_or_default();
                    self.model.check_prompt(&legal);
                    self.owed = Some(legal);
                }
            },
            "hand_over" => self.hand_over(hand_no, m),
            "error" => self
                .model
                .problems
                .push("the server answered an error".into()),
            _ => {}
        }
        self.stats.own_concealed_kongs = self.model.own_concealed_kongs;
        self.stats.hidden_kongs_seen = self.model.hidden_kongs_seen;
        if !self.model.problems.is_empty() {
            let mut text = m.to_string();
            if text.len() > 700 {
                let cut = (0..=700).rev().find(|&i| text.is_char_boundary(i));
                text.truncate(cut.unwrap_or_default());
                text.push('…');
            }
            for p in std::mem::take(&mut self.model.problems) {
                self.problems
                    .push(format!("{}: {p}\n      in {text}", self.label));
            }
        }
    }

    fn snapshot(&mut self, table: &Value, expected: Option<&Public>) {
        let exact = self.model.public.is_some();
        let seen = view::check(&mut self.model, table, exact, expected);
        if seen.mid_hand && (exact || expected.is_some()) {
            let phase = match table["prompt"]["legal"].as_array() {
                None => "nothing",
                Some(legal) if policy::own_turn(legal) => "own turn",
                Some(legal) if legal.iter().any(|a| a["type"] == "pass") => "claim",
                Some(_) => "deal",
            };
            *self.stats.phases.entry(phase).or_default() += 1;
            self.stats.snapshots += 1;
            self.stats.snapshots_hidden_kong += u64::from(seen.hidden_kongs > 0);
            self.stats.snapshots_seat0_hidden += u64::from(seen.seat0_hidden);
        }
        let hand_no = table["hand_no"].as_u64().unwrap_or_default();
        if let Some(sha) = table["seed_sha256"].as_str() {
            let known = self.commitments.entry(hand_no).or_insert(sha.to_string());
            if known != sha {
                self.model
                    .problems
                    .push(format!("the snapshot's seed hash {sha}; committed {known}"));
            }
        }
        if self.model.me.is_some() {
            let prompt = table["prompt"]["legal"].as_array().cloned();
            if let Some(legal) = &prompt {
                self.model.check_prompt(legal);
            }
            // After a pause the seat owes exactly what it owed before.
            if (exact || expected.is_some()) && prompt != self.owed {
                self.model.problems.push(format!(
                    "the snapshot's prompt {prompt:?}; the seat owed {:?}",
                    self.owed
                ));
            }
            self.owed = prompt;
        }
    }

    /// The revealed seed must hash to the commitment made before the deal.
    fn hand_over(&mut self, hand_no: u64, m: &Value) {
        self.stats.hands += 1;
        let seed = m["seed"].as_str().unwrap_or_default();
        if seed.is_empty() || !seed.bytes().all(|b| b.is_ascii_digit()) {
            self.model
                .problems
                .push(format!("the seed {seed:?} is not decimal digits"));
        }
        let digest = sha2::Sha256::digest(seed.as_bytes());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        match self.commitments.get(&hand_no) {
            Some(sha) if *sha == hex => {}
            Some(sha) => self
                .model
                .problems
                .push(format!("seed {seed} hashes to {hex}; {sha} was committed")),
            None => self.model.problems.push(format!(
                "hand {hand_no}'s seed was revealed without a commitment"
            )),
        }
    }
}
