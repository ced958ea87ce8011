//! What one observer may know of the hand in play, built from its own stream alone, as
//! `proto/README.md` describes the events: its own concealed tiles (dealt, drawn, swapped,
//! discarded, melded) and every seat's public facts and concealed count. Each event is checked
//! against it as it is applied (another seat's private event is a leak; a tile the observer
//! lets go of must be one it held), and snapshots are compared with it in `view.rs`.

use serde_json::Value;

use super::facts::{Meld, Own, Public, SeatFacts, Win};
use super::tiles::{copies, next_in_suit, remove_one, sorted, strings};

/// What is on offer: a discard, or a kong that may be robbed (no tile for a concealed kong).
#[derive(Clone, Debug)]
pub enum Offer {
    Discard { seat: usize, tile: String },
    Kong { seat: usize, tile: Option<String> },
}

/// One observer's model of the hand in play.
pub struct Model {
    /// The observer's seat; None for a spectator.
    pub me: Option<usize>,
    pub players: usize,
    pub hand_no: u64,
    /// The hand in play; None before the first deal and between hands.
    pub public: Option<Public>,
    pub own: Own,
    /// What is on offer and whether a claim already took it.
    pub offer: Option<(Offer, bool)>,
    /// Still dealing: a flower replaced now may have been dealt (and counted) rather than drawn.
    deal_phase: bool,
    /// Per seat: a flower was replaced and its replacement draw has not come yet.
    pending: Vec<bool>,
    /// Events of this hand every observer receives (see `projection`), as a count and as text.
    pub counted: u64,
    pub projection: Vec<String>,
    /// Other seats whose opening swap is done this hand (their `swapped_hidden`).
    pub others_swapped: usize,
    /// Concealed kongs this seat declared, and other seats' concealed kongs seen face down.
    pub own_concealed_kongs: u64,
    pub hidden_kongs_seen: u64,
    /// What went wrong, in order.
    pub problems: Vec<String>,
}

impl Model {
    /// A model for `me` (None: a spectator) at a table of `players`.
    pub fn new(me: Option<usize>, players: usize) -> Model {
        Model {
            me,
            players,
            hand_no: 0,
            public: None,
            own: Own::default(),
            offer: None,
            deal_phase: false,
            pending: vec![false; players],
            counted: 0,
            projection: Vec::new(),
            others_swapped: 0,
            own_concealed_kongs: 0,
            hidden_kongs_seen: 0,
            problems: Vec::new(),
        }
    }

    /// Adopts a snapshot's view as the state of hand `hand_no` (the view already checked).
    pub fn adopt(&mut self, hand_no: u64, public: Option<Public>, own: Own) {
        if self.hand_no != hand_no || public.is_none() {
            self.offer = None;
        }
        self.hand_no = hand_no;
        self.public = public;
        self.own = own;
        self.deal_phase = false;
        self.pending = vec![false; self.players];
    }

    /// The tile on offer now, as the view's `offered` shows it: None once a claim took it, and
    /// None for a concealed kong (its tile is not public).
    pub fn offered(&self) -> Option<&str> {
        match &self.offer {
            Some((Offer::Discard { tile, .. }, false)) => Some(tile),
            Some((Offer::Kong { tile, .. }, false)) => tile.as_deref(),
            _ => None,
        }
    }

    /// Whether a concealed kong that may be robbed is on offer (its tile is shown only to a
    /// seat that could rob it).
    pub fn concealed_kong_on_offer(&self) -> bool {
        matches!(&self.offer, Some((Offer::Kong { tile: None, .. }, false)))
    }

    fn fail(&mut self, what: String) {
        self.problems.push(what);
    }

    fn leak(&mut self, what: &str) {
        self.problems.push(format!("LEAK: {what}"));
    }

    /// Applies one event of hand `hand_no`.
    pub fn event(&mut self, hand_no: u64, e: &Value) {
        let kind = e["kind"].as_str().unwrap_or_default().to_string();
        if kind == "hand_started" {
            self.start(hand_no, e);
        }
        if self.public.is_none() || self.hand_no != hand_no {
            return self.fail(format!(
                "an event of hand {hand_no} outside the hand in play"
            ));
        }
        if let Some(p) = projection(&kind, e) {
            self.counted += 1;
            self.projection.push(p);
        }
        let seat = e["seat"].as_u64().map(|s| s as usize);
        if seat.is_some_and(|s| s >= self.players) {
            return self.fail("an event for a seat the table does not have".into());
        }
        let own = seat.is_some() && seat == self.me;
        let s = seat.unwrap_or_default();
        let tile = e["tile"].as_str().map(String::from);
        // A claim (`melded`, `won`) reads the offer; anything else but a pass ends it.
        if !matches!(
            kind.as_str(),
            "passed" | "claim_entered" | "won" | "melded" | "void_chosen" | "swap_marked"
        ) {
            self.offer = None;
        }
        if matches!(
            kind.as_str(),
            "discarded" | "melded" | "won" | "kong_offered" | "ready_declared"
        ) || (kind == "drew" && e["replacement"] != true)
        {
            self.deal_phase = false;
        }
        match kind.as_str() {
            "hand_started" | "last_declined" | "last_offered" => {}
            "wild_turned" => self.public_mut().wild = e["wild"].as_str().map(String::from),
            "bonus_turned" => self.public_mut().bonus.extend(tile),
            "ready_declared" => self.public_mut().seats[s].ready = true,
            "seabed_started" => self.public_mut().seabed = seat.map(|s| s as u64),
            "dealt_hidden" | "swapped_hidden" if own => {
                self.fail("the observer's own tiles sent as another seat's".into())
            }
            "dealt_hidden" => {
                self.public_mut().seats[s].concealed = e["count"].as_u64().unwrap_or(0) as usize
            }
            "swapped_hidden" => self.others_swapped += 1,
            "dealt" | "swap_marked" | "swapped" | "void_chosen" | "passed" | "claim_entered"
                if !own =>
            {
                self.leak(&format!("another seat's private `{kind}` event"))
            }
            "dealt" => {
                self.own.hand = sorted(strings(&e["tiles"]));
                let n = self.own.hand.len();
                self.public_mut().seats[s].concealed = n;
            }
            "swap_marked" => self.swap_mark(tile.unwrap_or_default()),
            "swapped" => self.swapped(e),
            "void_chosen" => self.own.void = e["suit"].as_str().map(String::from),
            "passed" | "claim_entered" => {}
            "voids_revealed" => self.voids(e),
            "flower_replaced" => self.flower(s, own, e["flower"].as_str().unwrap_or_default()),
            "drew" => self.drew(s, own, tile, e["replacement"] == true),
            "discarded" => self.discarded(s, own, tile.unwrap_or_default()),
            "kong_offered" => self.kong_offered(s, own, tile),
            "melded" => {
                self.melded(s, own, &e["meld"]);
                self.offer = None;
            }
            "won" => self.won(e),
            "hand_ended" => self.ended(e),
            other => self.fail(format!("an event kind the audit does not know: {other}")),
        }
    }

    fn start(&mut self, hand_no: u64, e: &Value) {
        self.hand_no = hand_no;
        self.public = Some(Public {
            dealer: e["dealer"].as_u64().unwrap_or_default(),
            round_wind: e["round_wind"].as_str().unwrap_or_default().to_string(),
            dice: e["dice"]
                .as_array()
                .map(|d| d.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default(),
            seats: vec![SeatFacts::default(); self.players],
            ..Public::default()
        });
        self.own = Own::default();
        self.offer = None;
        self.deal_phase = true;
        self.pending = vec![false; self.players];
        self.counted = 0;
        self.projection.clear();
        self.others_swapped = 0;
    }

    /// The hand in play (`event` returns early when there is none).
    fn public_mut(&mut self) -> &mut Public {
        self.public.get_or_insert_with(Public::default)
    }

    /// Takes `n` from `seat`'s concealed count, reporting a count that would go below zero.
    fn take(&mut self, seat: usize, n: usize) {
        let facts = &mut self.public_mut().seats[seat];
        match facts.concealed.checked_sub(n) {
            Some(left) => facts.concealed = left,
            None => self.fail(format!("seat {seat} gives up {n} tiles of fewer")),
        }
    }

    /// Takes one tile from the observer's hand, reporting a tile it does not hold.
    fn let_go(&mut self, tile: &str, how: &str) {
        if !remove_one(&mut self.own.hand, tile) {
            self.fail(format!(
                "the seat {how} {tile}, which its hand (as sent) lacks"
            ));
        }
    }

    fn swap_mark(&mut self, tile: String) {
        if copies(&self.own.swap_marked, &tile) >= copies(&self.own.hand, &tile) {
            self.fail(format!(
                "marked {tile} for the swap without an unmarked copy"
            ));
        }
        self.own.swap_marked.push(tile);
        self.own.swap_marked.sort();
    }

    fn swapped(&mut self, e: &Value) {
        let (out, received) = (strings(&e["out"]), strings(&e["received"]));
        if sorted(out.clone()) != self.own.swap_marked || out.len() != received.len() {
            self.fail(format!(
                "the swap gave back {out:?} for {received:?}; marked {:?}",
                self.own.swap_marked
            ));
        }
        for t in &out {
            self.let_go(t, "swapped out");
        }
        self.own.hand.extend(received);
        self.own.hand.sort();
        self.own.swap_marked.clear();
    }

    fn voids(&mut self, e: &Value) {
        let voids: Vec<Option<String>> = (0..self.players)
            .map(|i| e["voids"][i].as_str().map(String::from))
            .collect();
        if let Some(me) = self.me
            && voids[me] != self.own.void
        {
            self.fail(format!("voids_revealed gives the seat {:?}", voids[me]));
        }
        for (facts, void) in self.public_mut().seats.iter_mut().zip(voids) {
            facts.void = void;
        }
    }

    /// A flower set aside: dealt ones were counted in the hand; one drawn (in play, or as a
    /// replacement) never was.
    fn flower(&mut self, seat: usize, own: bool, flower: &str) {
        let dealt = self.deal_phase && !self.pending[seat];
        if own && dealt != self.own.hand.iter().any(|t| t == flower) {
            self.fail(format!(
                "flower {flower}: the audit took it as {} the hand",
                if dealt { "dealt in" } else { "drawn outside" }
            ));
        }
        if dealt {
            self.take(seat, 1);
            if own {
                self.let_go(flower, "set aside");
            }
        }
        self.pending[seat] = true;
        self.public_mut().seats[seat]
            .flowers
            .push(flower.to_string());
    }

    fn drew(&mut self, seat: usize, own: bool, tile: Option<String>, replacement: bool) {
        if replacement {
            self.pending[seat] = false;
        }
        self.public_mut().seats[seat].concealed += 1;
        match (own, tile) {
            (true, Some(t)) => {
                self.own.hand.push(t);
                self.own.hand.sort();
            }
            (true, None) => self.fail("the seat's own draw came without its tile".into()),
            (false, Some(t)) => self.leak(&format!("another seat's drawn tile {t}")),
            (false, None) => {}
        }
    }

    fn discarded(&mut self, seat: usize, own: bool, tile: String) {
        self.take(seat, 1);
        if own {
            self.let_go(&tile, "discarded");
        }
        self.public_mut().seats[seat]
            .river
            .push((tile.clone(), false));
        self.offer = Some((Offer::Discard { seat, tile }, false));
    }

    fn kong_offered(&mut self, seat: usize, own: bool, tile: Option<String>) {
        if let Some(t) = &tile {
            // A tile named here must be public already: the fourth copy of a face-up pung.
            let pung = self.public_mut().seats[seat].melds.iter().any(|m| {
                matches!(m, Meld::Open { shape, tiles, .. } if shape == "pung" && tiles.first() == Some(t))
            });
            if !pung && !own {
                self.leak(&format!(
                    "kong_offered names {t}, and seat {seat} has no pung of it"
                ));
            }
        }
        self.offer = Some((Offer::Kong { seat, tile }, false));
    }

    /// Marks the discard on offer as taken by a claim; false when `tile` from `from` is not it.
    fn take_discard(&mut self, from: usize, tile: &str) -> bool {
        let fits = matches!(&self.offer, Some((Offer::Discard { seat, tile: t }, _)) if *seat == from && t == tile);
        if !fits {
            return false;
        }
        if let Some((_, taken)) = &mut self.offer
            && !*taken
        {
            *taken = true;
            let river = &mut self.public_mut().seats[from].river;
            if let Some(last) = river.last_mut() {
                last.1 = true;
            }
        }
        true
    }

    fn melded(&mut self, seat: usize, own: bool, meld: &Value) {
        let meld = match Meld::parse(meld) {
            Ok(m) => m,
            Err(e) => return self.fail(e),
        };
        let (shape, tiles, claimed, from) = match &meld {
            Meld::Hidden => {
                if own {
                    self.fail("the seat's own concealed kong came face down".into());
                }
                self.hidden_kongs_seen += 1;
                self.take(seat, 4);
                self.public_mut().seats[seat].melds.push(meld);
                return;
            }
            Meld::Open {
                shape,
                tiles,
                claimed,
                from,
            } => (shape.clone(), tiles.clone(), claimed.clone(), *from),
        };
        let mut from_hand = tiles.clone();
        let mut replaces = None;
        match shape.as_str() {
            "concealed_kong" => {
                if !own {
                    self.leak(&format!("seat {seat}'s concealed kong face up: {tiles:?}"));
                }
                self.own_concealed_kongs += u64::from(own);
            }
            "added_kong" => {
                let melds = &mut self.public_mut().seats[seat].melds;
                let pung = melds.iter().position(|m| {
                    matches!(m, Meld::Open { shape, tiles: t, .. } if shape == "pung" && t.first() == tiles.first())
                });
                if pung.is_none() {
                    self.fail(format!("an added kong of {tiles:?} without its pung"));
                }
                replaces = pung;
                from_hand = tiles.first().cloned().into_iter().collect();
            }
            "chow" | "pung" | "exposed_kong" => {
                let claimed = claimed.unwrap_or_default();
                let from = from.map_or(usize::MAX, |f| f as usize);
                if !self.take_discard(from, &claimed) {
                    self.fail(format!("a {shape} on {claimed} from {from}, not on offer"));
                }
                remove_one(&mut from_hand, &claimed);
            }
            other => return self.fail(format!("a meld shape the audit does not know: {other}")),
        }
        self.take(seat, from_hand.len());
        if own {
            for t in &from_hand {
                self.let_go(t, "melded");
            }
        }
        let melds = &mut self.public_mut().seats[seat].melds;
        match replaces {
            // An added kong takes its pung's place.
            Some(i) => melds[i] = meld,
            None => melds.push(meld),
        }
    }

    fn won(&mut self, e: &Value) {
        let Some(win) = Win::parse(&e["win"]) else {
            return self.fail(format!("a win without its seat or tile: {e}"));
        };
        let shown = sorted(strings(&e["concealed"]));
        let seat = win.seat as usize;
        if seat >= self.players {
            return self.fail("a win for a seat the table does not have".into());
        }
        match win.from.map(|f| f as usize) {
            // A self-draw: the winning tile was in the hand, and is shown apart from it.
            None => {
                let mut before = shown.clone();
                before.push(win.tile.clone());
                self.check_shown(seat, sorted(before));
            }
            Some(from) => {
                let robbed =
                    matches!(&self.offer, Some((Offer::Kong { seat, .. }, _)) if *seat == from);
                if robbed {
                    if let Some((Offer::Kong { tile: Some(t), .. }, _)) = &self.offer
                        && *t != win.tile
                    {
                        self.fail(format!("a robbed kong of {t} won as {}", win.tile));
                    }
                    if let Some((_, taken)) = &mut self.offer
                        && !*taken
                    {
                        *taken = true;
                        self.take(from, 1);
                        if self.me == Some(from) {
                            self.let_go(&win.tile, "was robbed of");
                        }
                    }
                } else if !self.take_discard(from, &win.tile) {
                    self.fail(format!("a win on {} from {from}, not on offer", win.tile));
                }
                self.check_shown(seat, shown.clone());
            }
        }
        if self.me == Some(seat) {
            self.own.hand = shown.clone();
        }
        let facts = &mut self.public_mut().seats[seat];
        facts.concealed = shown.len();
        facts.won = Some(win);
    }

    /// A winner's hand as shown must be what the observer knew: its own tiles exactly, another
    /// seat's count.
    fn check_shown(&mut self, seat: usize, hand: Vec<String>) {
        let count = self.public.as_ref().map_or(0, |p| p.seats[seat].concealed);
        if self.me == Some(seat) {
            if hand != self.own.hand {
                self.fail(format!("own win shows {hand:?}; held {:?}", self.own.hand));
            }
        } else if hand.len() != count {
            self.fail(format!(
                "seat {seat} wins with {} tiles; it held {count}",
                hand.len()
            ));
        }
    }

    fn ended(&mut self, e: &Value) {
        let hands = e["hands"].as_array().cloned().unwrap_or_default();
        if hands.len() != self.players {
            self.fail(format!("hand_ended shows {} hands", hands.len()));
        }
        for (seat, hand) in hands.iter().enumerate().take(self.players) {
            let hand = sorted(strings(hand));
            let count = self.public.as_ref().map_or(0, |p| p.seats[seat].concealed);
            if self.me == Some(seat) && hand != self.own.hand {
                self.fail(format!(
                    "own hand at the end {hand:?}; held {:?}",
                    self.own.hand
                ));
            } else if hand.len() != count {
                self.fail(format!(
                    "seat {seat} ends with {} tiles; it held {count}",
                    hand.len()
                ));
            }
        }
        self.public = None;
    }

    /// Checks a prompt's legal actions name only tiles the seat holds (a chow: the two tiles
    /// besides the one on offer).
    pub fn check_prompt(&mut self, legal: &[Value]) {
        for action in legal {
            let tile = action["tile"].as_str().unwrap_or_default();
            let holds = match action["type"].as_str().unwrap_or_default() {
                "discard" | "declare_ready" | "swap_mark" | "concealed_kong" | "added_kong" => {
                    self.own.hand.iter().any(|t| t == tile)
                }
                "chow" => {
                    let low = action["low"].as_str().unwrap_or_default().to_string();
                    let mid = next_in_suit(&low);
                    let high = mid.as_deref().and_then(next_in_suit);
                    let mut need: Vec<String> =
                        [Some(low), mid, high].into_iter().flatten().collect();
                    let offered = self.offered().map(String::from).unwrap_or_default();
                    let mut hand = self.own.hand.clone();
                    need.len() == 3
                        && remove_one(&mut need, &offered)
                        && need.iter().all(|t| remove_one(&mut hand, t))
                }
                _ => true,
            };
            if !holds {
                self.leak(&format!(
                    "a prompt offers {action}, not from the seat's tiles"
                ));
            }
        }
    }
}

/// An event as every observer sees it (None: an event only its own seat receives). Every
/// observer's list for a hand must be the same: nobody is told more or less of what happened.
pub fn projection(kind: &str, e: &Value) -> Option<String> {
    let seat = &e["seat"];
    Some(match kind {
        "passed" | "claim_entered" | "void_chosen" | "swap_marked" => return None,
        "dealt" => format!("dealt {seat} {}", strings(&e["tiles"]).len()),
        "dealt_hidden" => format!("dealt {seat} {}", e["count"]),
        "drew" => format!("drew {seat} {}", e["replacement"]),
        "swapped" => format!("swapped {seat} {}", strings(&e["out"]).len()),
        "swapped_hidden" => format!("swapped {seat} {}", e["count"]),
        "melded" if Meld::parse(&e["meld"]).is_ok_and(|m| m.is_concealed_kong()) => {
            format!("concealed kong {seat}")
        }
        _ => e.to_string(),
    })
}
