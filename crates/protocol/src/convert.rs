//! From the engine's types to the wire's. The engine decides what a seat may see (`view`, an
//! event's audience); these functions only change the spelling.

use engine::settle::Settlement;
use engine::view::{MeldView, PublicSeat, SeatView};
use engine::{EventKind, KongKind, Meld, MeldKind, Seat};

use crate::wire::{
    WireEvent, WireFanItem, WireMeld, WirePublicSeat, WireSettlement, WireView, WireWin,
    WireWinnerFans,
};

fn seat(s: Seat) -> u8 {
    s.index() as u8
}

fn win(w: &engine::settle::Win) -> WireWin {
    WireWin {
        seat: seat(w.seat),
        tile: w.tile,
        from: w.from.map(seat),
    }
}

fn meld(m: &Meld) -> WireMeld {
    let shape = match m.kind {
        MeldKind::Chow => "chow",
        MeldKind::Pung => "pung",
        MeldKind::Kong(KongKind::Exposed) => "exposed_kong",
        MeldKind::Kong(KongKind::Concealed) => "concealed_kong",
        MeldKind::Kong(KongKind::Added) => "added_kong",
    };
    WireMeld::Open {
        shape: shape.to_string(),
        tiles: m.tiles().to_vec(),
        from: m.from.map(seat),
        claimed: m.claimed,
    }
}

fn public(p: &PublicSeat) -> WirePublicSeat {
    WirePublicSeat {
        melds: p
            .melds
            .iter()
            .map(|m| match m {
                MeldView::Open(m) => meld(m),
                MeldView::HiddenKong => WireMeld::HiddenKong,
            })
            .collect(),
        discards: p.discards.clone(),
        flowers: p.flowers.clone(),
        concealed: p.concealed_count,
        void: p.void.map(|s| s.to_string()),
        won: p.won.as_ref().map(win),
    }
}

/// A seat's view on the wire.
pub fn view(v: &SeatView) -> WireView {
    WireView {
        seat: seat(v.seat),
        dealer: seat(v.dealer),
        round_wind: v.round_wind.tile().to_string(),
        dice: v.dice,
        wall: v.wall_drawable,
        wild: v.wild.map(|w| w.wild),
        hand: v.concealed.to_tiles(),
        own_void: v.own_void.map(|s| s.to_string()),
        seats: v.seats.iter().map(public).collect(),
        offered: v.last_discard,
        over: v.over,
    }
}

/// What a spectator may see of a hand: `v` (any seat's view) without that seat's concealed
/// tiles and 定缺.
pub fn public_view(v: &SeatView) -> WireView {
    let mut w = view(v);
    w.hand.clear();
    w.own_void = None;
    w
}

/// A settlement on the wire, for a table of `players`.
pub fn settlement(s: &Settlement, players: u8) -> WireSettlement {
    WireSettlement {
        fans: s
            .fans
            .iter()
            .map(|w| WireWinnerFans {
                seat: seat(w.seat),
                items: w
                    .items
                    .iter()
                    .map(|i| WireFanItem {
                        name: i.name.to_string(),
                        value: i.value,
                        count: i.count,
                    })
                    .collect(),
                total: w.total,
            })
            .collect(),
        extras: s
            .extras
            .iter()
            .map(|e| WireFanItem {
                name: e.name.to_string(),
                value: e.value,
                count: 1,
            })
            .collect(),
        deltas: s
            .deltas
            .0
            .iter()
            .take(usize::from(players))
            .copied()
            .collect(),
    }
}

/// An event on the wire, for a table of `players`.
pub fn wire_event(e: &EventKind, players: u8) -> WireEvent {
    match e {
        EventKind::HandStarted {
            dealer,
            round_wind,
            dice,
            wall,
        } => WireEvent::HandStarted {
            dealer: seat(*dealer),
            round_wind: round_wind.tile().to_string(),
            dice: *dice,
            wall: *wall,
        },
        EventKind::WildTurned { indicator, wild } => WireEvent::WildTurned {
            indicator: *indicator,
            wild: *wild,
        },
        EventKind::Dealt { seat: s, tiles } => WireEvent::Dealt {
            seat: seat(*s),
            tiles: tiles.clone(),
        },
        EventKind::DealtHidden { seat: s, count } => WireEvent::DealtHidden {
            seat: seat(*s),
            count: *count,
        },
        EventKind::FlowerReplaced { seat: s, flower } => WireEvent::FlowerReplaced {
            seat: seat(*s),
            flower: *flower,
        },
        EventKind::Drew {
            seat: s,
            tile,
            replacement,
        } => WireEvent::Drew {
            seat: seat(*s),
            tile: *tile,
            replacement: *replacement,
        },
        EventKind::VoidChosen { seat: s, suit } => WireEvent::VoidChosen {
            seat: seat(*s),
            suit: suit.to_string(),
        },
        EventKind::VoidsRevealed { voids } => WireEvent::VoidsRevealed {
            voids: voids
                .0
                .iter()
                .take(usize::from(players))
                .map(|v| v.map(|s| s.to_string()))
                .collect(),
        },
        EventKind::Discarded { seat: s, tile } => WireEvent::Discarded {
            seat: seat(*s),
            tile: *tile,
        },
        EventKind::Passed { seat: s } => WireEvent::Passed { seat: seat(*s) },
        EventKind::Melded { seat: s, meld: m } => WireEvent::Melded {
            seat: seat(*s),
            meld: m.as_ref().map_or(WireMeld::HiddenKong, meld),
        },
        EventKind::Won { win: w, concealed } => WireEvent::Won {
            win: win(w),
            concealed: concealed.clone(),
        },
        EventKind::HandEnded {
            exhausted,
            hands,
            settlement: s,
        } => WireEvent::HandEnded {
            exhausted: *exhausted,
            hands: hands.0.iter().take(usize::from(players)).cloned().collect(),
            settlement: settlement(s, players),
        },
    }
}
