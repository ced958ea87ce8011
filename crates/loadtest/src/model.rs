//! What one client knows of its table, kept from the stream, so that it can hand the bot a
//! [`SeatView`] as the server would build one: its own concealed tiles, and for every seat the
//! public facts (melds, discards still in front of it, flowers, 定缺, wins).
//!
//! The model only steers the bot; the server decides what is legal. A fact the model got wrong
//! would make the bot play worse, never illegally: every decision is one of the prompt's legal
//! actions. It is checked against the server's own snapshots (`model/transcripts.rs`), by the
//! rules of proto/README.md, "The table from the stream".

use engine::view::{MeldView, PublicSeat, SeatView};
use engine::wall::WildDraw;
use engine::{
    Action, KongKind, Meld, MeldKind, Ruleset, RulesetId, Seat, Suit, Tile, TileCounts, Wind,
};
use protocol::{ServerMessage, TableSnapshot, WireEvent, WireMeld, WireView};

#[cfg(test)]
mod transcripts;

/// One seat's knowledge of its table.
#[derive(Default)]
pub(crate) struct SeatModel {
    seat: Option<Seat>,
    ruleset: Option<Ruleset>,
    hand: Option<HandModel>,
}

/// The hand in play.
struct HandModel {
    dealer: Seat,
    round_wind: Wind,
    dice: [u8; 2],
    wall: usize,
    wild: Option<WildDraw>,
    bonus: Vec<Tile>,
    seabed: Option<Seat>,
    concealed: TileCounts,
    own_void: Option<Suit>,
    /// Tiles marked to give back in the swap phase (开始时换牌).
    swap_marked: Vec<Tile>,
    seats: Vec<PublicSeat>,
    offered: Option<Tile>,
    over: bool,
    /// Whose turn it is (`WireView::turn`).
    turn: Option<Seat>,
    /// Still in the deal (补花), until the first event of play.
    dealing: bool,
    /// A kong that may be robbed, by seat, and whether a win robbed it already.
    kong_offer: Option<(usize, bool)>,
}

impl SeatModel {
    /// A model for `seat` at a table of `ruleset` (the preset id; the load test's rooms use its
    /// default options). Unknown ids leave the model without rules: the client then chooses by
    /// its simple rule.
    pub(crate) fn new(seat: u8, ruleset: &str) -> SeatModel {
        SeatModel {
            seat: Seat::ALL.get(usize::from(seat)).copied(),
            ruleset: ruleset_of(ruleset),
            hand: None,
        }
    }

    /// Takes one message of the stream into account.
    pub(crate) fn apply(&mut self, message: &ServerMessage) {
        match message {
            ServerMessage::Snapshot { table } => self.snapshot(table),
            // Between hands there is no hand (proto/README.md, "The table from the stream").
            ServerMessage::HandStarting { .. } | ServerMessage::HandOver { .. } => self.hand = None,
            ServerMessage::Event { event, .. } => self.event(event),
            _ => {}
        }
    }

    /// The view the bot decides on, or `None` when no hand is known.
    pub(crate) fn view(&self, legal: &[Action]) -> Option<SeatView> {
        let (seat, ruleset, h) = (self.seat?, self.ruleset.clone()?, self.hand.as_ref()?);
        Some(SeatView {
            seat,
            tile_set: ruleset.rules().flow().tiles,
            ruleset,
            dealer: h.dealer,
            round_wind: h.round_wind,
            dice: h.dice,
            wall_drawable: h.wall,
            wild: h.wild,
            bonus: h.bonus.clone(),
            seabed: h.seabed,
            concealed: h.concealed,
            own_void: h.own_void,
            swap_marked: h.swap_marked.clone(),
            seats: h.seats.clone(),
            legal: legal.to_vec(),
            last_discard: h.offered,
            over: h.over,
            turn: h.turn,
        })
    }

    /// The concealed tiles this seat holds, as far as the model knows.
    pub(crate) fn concealed(&self) -> TileCounts {
        self.hand.as_ref().map(|h| h.concealed).unwrap_or_default()
    }

    fn players(&self) -> usize {
        self.ruleset
            .as_ref()
            .map_or(4, |r| usize::from(r.rules().flow().players))
    }

    fn snapshot(&mut self, t: &TableSnapshot) {
        if let Some(s) = t.seat.and_then(|s| Seat::ALL.get(usize::from(s)).copied()) {
            self.seat = Some(s);
        }
        if let Some(r) = ruleset_of(&t.ruleset) {
            self.ruleset = Some(r);
        }
        self.hand = t.view.as_ref().map(hand_of);
    }

    fn event(&mut self, e: &WireEvent) {
        let players = self.players();
        let me = self.seat.map(Seat::index);
        if let WireEvent::HandStarted {
            dealer,
            round_wind,
            dice,
            wall,
        } = e
        {
            self.hand = Some(HandModel {
                dealer: seat(*dealer),
                round_wind: wind(round_wind),
                dice: *dice,
                wall: *wall,
                wild: None,
                bonus: Vec::new(),
                seabed: None,
                concealed: TileCounts::default(),
                own_void: None,
                swap_marked: Vec::new(),
                seats: (0..players).map(|_| empty_seat()).collect(),
                offered: None,
                over: false,
                turn: Some(seat(*dealer)),
                dealing: true,
                kong_offer: None,
            });
            return;
        }
        let Some(h) = self.hand.as_mut() else { return };
        h.dealing &= in_deal(e);
        h.turn = turn_after(h.turn, h.dealing, e);
        match e {
            WireEvent::HandStarted { .. } => {}
            WireEvent::WildTurned {
                indicator,
                wild,
                wall,
            } => {
                h.wall = *wall;
                h.wild = Some(WildDraw {
                    indicator: *indicator,
                    wild: *wild,
                });
            }
            WireEvent::BonusTurned { tile } => h.bonus.push(*tile),
            WireEvent::ReadyDeclared { seat, .. } => {
                if let Some(p) = h.seats.get_mut(usize::from(*seat)) {
                    p.ready = true;
                }
            }
            WireEvent::SeabedStarted { seat: s, .. } => h.seabed = Some(seat(*s)),
            WireEvent::Dealt { seat, tiles } => {
                if Some(usize::from(*seat)) == me {
                    h.concealed = TileCounts::from_tiles(tiles);
                }
                if let Some(p) = h.seats.get_mut(usize::from(*seat)) {
                    p.concealed_count = tiles.len() as u32;
                }
            }
            WireEvent::DealtHidden { seat, count } => {
                if let Some(p) = h.seats.get_mut(usize::from(*seat)) {
                    p.concealed_count = *count as u32;
                }
            }
            WireEvent::SwapMarked { seat, tile } if Some(usize::from(*seat)) == me => {
                h.swap_marked.push(*tile);
            }
            WireEvent::Swapped {
                seat,
                out,
                received,
            } if Some(usize::from(*seat)) == me => {
                for &t in out {
                    h.concealed.remove(t);
                }
                for &t in received {
                    h.concealed.add(t);
                }
                h.swap_marked.clear();
            }
            WireEvent::FlowerReplaced {
                seat,
                flower,
                dealt,
            } => {
                // A dealt flower leaves the hand; one drawn never entered it.
                if *dealt && Some(usize::from(*seat)) == me {
                    h.concealed.remove(*flower);
                }
                if let Some(p) = h.seats.get_mut(usize::from(*seat)) {
                    p.flowers.push(*flower);
                    if *dealt {
                        p.concealed_count = p.concealed_count.saturating_sub(1);
                    }
                }
            }
            WireEvent::Drew {
                seat, tile, wall, ..
            } => {
                h.wall = *wall;
                h.offered = None;
                h.kong_offer = None;
                if let (true, Some(t)) = (Some(usize::from(*seat)) == me, tile) {
                    h.concealed.add(*t);
                }
                if let Some(p) = h.seats.get_mut(usize::from(*seat)) {
                    p.concealed_count += 1;
                }
            }
            WireEvent::VoidChosen { seat, suit } if Some(usize::from(*seat)) == me => {
                h.own_void = suit.parse().ok();
            }
            WireEvent::VoidsRevealed { voids } => {
                for (p, v) in h.seats.iter_mut().zip(voids) {
                    p.void = v.as_deref().and_then(|s| s.parse().ok());
                }
            }
            WireEvent::Discarded { seat, tile } => {
                if Some(usize::from(*seat)) == me {
                    h.concealed.remove(*tile);
                }
                if let Some(p) = h.seats.get_mut(usize::from(*seat)) {
                    p.discards.push(*tile);
                    p.concealed_count = p.concealed_count.saturating_sub(1);
                }
                h.offered = Some(*tile);
            }
            // 抢杠: an added kong's tile is on offer until its `melded` (or the win robbing it).
            WireEvent::KongOffered { seat, tile } => {
                h.kong_offer = Some((usize::from(*seat), false));
                if let Some(t) = tile {
                    h.offered = Some(*t);
                }
            }
            WireEvent::Melded { seat, meld } => {
                let own = Some(usize::from(*seat)) == me;
                h.meld(usize::from(*seat), meld, own);
                h.offered = None;
                h.kong_offer = None;
            }
            WireEvent::Won { win, concealed } => {
                let by = usize::from(win.seat);
                let from = win.from.map(usize::from);
                match (from, &mut h.kong_offer) {
                    (Some(f), Some((k, robbed))) if *k == f => {
                        // Robbing a kong (抢杠): its tile leaves the declarer, once.
                        if !std::mem::replace(robbed, true) {
                            if Some(f) == me {
                                h.concealed.remove(win.tile);
                            }
                            if let Some(p) = h.seats.get_mut(f) {
                                p.concealed_count = p.concealed_count.saturating_sub(1);
                            }
                        }
                    }
                    (Some(f), _) => {
                        // Won on a discard: it leaves the river (once, for several winners).
                        if h.offered == Some(win.tile)
                            && let Some(p) = h.seats.get_mut(f)
                            && p.discards.last() == Some(&win.tile)
                        {
                            p.discards.pop();
                        }
                    }
                    (None, _) => {}
                }
                h.offered = None;
                if Some(by) == me {
                    h.concealed = TileCounts::from_tiles(concealed);
                }
                if let Some(p) = h.seats.get_mut(by) {
                    p.concealed_count = concealed.len() as u32;
                    p.won = Some(engine::settle::Win {
                        seat: seat(win.seat),
                        tile: win.tile,
                        from: win.from.map(seat),
                        flags: Default::default(),
                    });
                }
            }
            WireEvent::HandEnded { wall, .. } => {
                h.over = true;
                h.offered = None;
                h.wall = *wall;
            }
            WireEvent::LastOffered { .. } => h.offered = None,
            // `passed`, `last_declined` and kinds added later change nothing the bot reads.
            _ => {}
        }
    }
}

impl HandModel {
    fn meld(&mut self, by: usize, meld: &WireMeld, own: bool) {
        let WireMeld::Open {
            shape,
            tiles,
            from,
            claimed,
        } = meld
        else {
            if let Some(p) = self.seats.get_mut(by) {
                p.melds.push(MeldView::HiddenKong);
                p.concealed_count = p.concealed_count.saturating_sub(4);
            }
            return;
        };
        let (Some(&low), Some(kind)) = (tiles.first(), meld_kind(shape)) else {
            return;
        };
        let m = Meld {
            kind,
            tile: low,
            from: from.map(seat),
            claimed: *claimed,
        };
        if let (Some(f), Some(t)) = (from.map(usize::from), claimed)
            && kind != MeldKind::Kong(KongKind::Added)
            && let Some(p) = self.seats.get_mut(f)
            && p.discards.last() == Some(t)
        {
            // The claimed discard leaves its river.
            p.discards.pop();
        }
        let Some(p) = self.seats.get_mut(by) else {
            return;
        };
        if kind == MeldKind::Kong(KongKind::Added) {
            // The fourth tile joins the pung already on the table.
            if own {
                self.concealed.remove(low);
            }
            p.concealed_count = p.concealed_count.saturating_sub(1);
            let pung = p.melds.iter().position(
                |x| matches!(x, MeldView::Open(o) if o.kind == MeldKind::Pung && o.tile == low),
            );
            if let Some(i) = pung {
                p.melds.remove(i);
            }
            p.melds.push(MeldView::Open(m));
            return;
        }
        let mut from_hand = 0u32;
        let mut skip_claimed = claimed.is_some();
        for &t in tiles {
            if skip_claimed && Some(t) == *claimed {
                skip_claimed = false;
                continue;
            }
            from_hand += 1;
            if own {
                self.concealed.remove(t);
            }
        }
        p.concealed_count = p.concealed_count.saturating_sub(from_hand);
        p.melds.push(MeldView::Open(m));
    }
}

/// A meld's shape as the wire names it.
fn meld_kind(shape: &str) -> Option<MeldKind> {
    Some(match shape {
        "chow" => MeldKind::Chow,
        "pung" => MeldKind::Pung,
        "exposed_kong" => MeldKind::Kong(KongKind::Exposed),
        "concealed_kong" => MeldKind::Kong(KongKind::Concealed),
        "added_kong" => MeldKind::Kong(KongKind::Added),
        _ => return None,
    })
}

fn ruleset_of(id: &str) -> Option<Ruleset> {
    id.parse::<RulesetId>()
        .ok()
        .and_then(|id| Ruleset::with_defaults(id).ok())
}

fn seat(i: u8) -> Seat {
    Seat::ALL
        .get(usize::from(i))
        .copied()
        .unwrap_or(Seat::ALL[0])
}

fn wind(tile: &str) -> Wind {
    let rank = tile
        .parse::<Tile>()
        .ok()
        .filter(|t| t.suit() == Suit::Honor)
        .map_or(1, |t| t.rank());
    Wind::ALL
        .get(usize::from(rank.saturating_sub(1)))
        .copied()
        .unwrap_or(Wind::East)
}

fn empty_seat() -> PublicSeat {
    PublicSeat {
        melds: Vec::new(),
        discards: Vec::new(),
        flowers: Vec::new(),
        concealed_count: 0,
        void: None,
        won: None,
        ready: false,
    }
}

fn hand_of(v: &WireView) -> HandModel {
    let seats = v
        .seats
        .iter()
        .map(|p| PublicSeat {
            melds: p
                .melds
                .iter()
                .filter_map(|m| match m {
                    WireMeld::HiddenKong => Some(MeldView::HiddenKong),
                    WireMeld::Open {
                        shape,
                        tiles,
                        from,
                        claimed,
                    } => {
                        let kind = meld_kind(shape)?;
                        Some(MeldView::Open(Meld {
                            kind,
                            tile: *tiles.first()?,
                            from: from.map(seat),
                            claimed: *claimed,
                        }))
                    }
                })
                .collect(),
            discards: p.discards.clone(),
            flowers: p.flowers.clone(),
            concealed_count: p.concealed,
            void: p.void.as_deref().and_then(|s| s.parse().ok()),
            won: p.won.as_ref().map(|w| engine::settle::Win {
                seat: seat(w.seat),
                tile: w.tile,
                from: w.from.map(seat),
                flags: Default::default(),
            }),
            ready: p.ready,
        })
        .collect();
    HandModel {
        dealer: seat(v.dealer),
        round_wind: wind(&v.round_wind),
        dice: v.dice,
        wall: v.wall,
        wild: v.wild.map(|w| WildDraw {
            // The snapshot names the wild kind only; the indicator matters to no policy.
            indicator: w,
            wild: w,
        }),
        bonus: v.bonus.clone(),
        seabed: v.seabed.map(seat),
        concealed: TileCounts::from_tiles(&v.hand),
        own_void: v.own_void.as_deref().and_then(|s| s.parse().ok()),
        swap_marked: v.swap_marked.clone(),
        seats,
        offered: v.offered,
        over: v.over,
        turn: v.turn.map(seat),
        dealing: false,
        kong_offer: None,
    }
}

/// Whether `e` may be part of the deal (its flowers replaced included).
fn in_deal(e: &WireEvent) -> bool {
    matches!(
        e,
        WireEvent::WildTurned { .. }
            | WireEvent::BonusTurned { .. }
            | WireEvent::Dealt { .. }
            | WireEvent::DealtHidden { .. }
            | WireEvent::FlowerReplaced { .. }
            | WireEvent::Drew {
                replacement: true,
                ..
            }
    )
}

/// Whose turn it is after `e` (the rule `WireView::turn` states): a seat's own draw or meld
/// gives it the turn; a discard, a kong on offer, a win, a declined last tile and the hand's
/// end leave nobody in turn. A replacement draw (补花 in the deal, or after a kong or a flower
/// in play) changes nothing: in play its seat already holds the turn.
fn turn_after(turn: Option<Seat>, dealing: bool, e: &WireEvent) -> Option<Seat> {
    match e {
        WireEvent::Drew {
            seat: s,
            replacement: false,
            ..
        }
        | WireEvent::Melded { seat: s, .. } => Some(seat(*s)),
        // In play a flower is set aside as it is drawn, in its seat's turn; the deal's leave
        // the turn with the dealer.
        WireEvent::FlowerReplaced { seat: s, .. } if !dealing => Some(seat(*s)),
        WireEvent::Discarded { .. }
        | WireEvent::KongOffered { .. }
        | WireEvent::Won { .. }
        | WireEvent::LastOffered { .. }
        | WireEvent::LastDeclined { .. }
        | WireEvent::HandEnded { .. } => None,
        _ => turn,
    }
}
