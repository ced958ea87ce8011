//! From the engine's types to the wire's. The engine decides what a seat may see (`view`, an
//! event's audience); these functions only change the spelling.

use engine::settle::{PaidFor, Settlement};
use engine::view::{MeldView, PublicSeat, PublicView, SeatView};
use engine::{Event, EventKind, KongKind, Meld, MeldKind, Seat};

use crate::wire::{
    WireDiscard, WireEvent, WireFanItem, WireMeld, WirePaidFor, WirePayment, WirePublicSeat,
    WireSettlement, WireView, WireWin, WireWinnerFans,
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
        river: Vec::new(),
        flowers: p.flowers.clone(),
        concealed: p.concealed_count,
        void: p.void.map(|s| s.to_string()),
        won: p.won.as_ref().map(win),
        ready: p.ready,
    }
}

/// A seat's view on the wire. `seen` are the hand's events the seat may see (`Game::events_for`):
/// they give each river its claimed discards, which the view no longer holds.
pub fn view<'a>(v: &SeatView, seen: impl IntoIterator<Item = &'a Event>) -> WireView {
    let seen: Vec<&Event> = seen.into_iter().collect();
    WireView {
        seat: Some(seat(v.seat)),
        hand: v.concealed.to_tiles(),
        own_void: v.own_void.map(|s| s.to_string()),
        swap_marked: v.swap_marked.clone(),
        drawn: drawn(v.seat, seen.iter().copied()),
        ..table_view(&v.public(), seen)
    }
}

/// The tile `me` drew in its turn, from its events: the rule `WireView::drawn` states.
fn drawn<'a>(me: Seat, events: impl IntoIterator<Item = &'a Event>) -> Option<engine::Tile> {
    let mut drawn = None;
    for e in events {
        match &e.kind {
            EventKind::Drew {
                seat,
                tile: Some(t),
                ..
            } if *seat == me => drawn = Some(*t),
            EventKind::Discarded { .. } | EventKind::Won { .. } | EventKind::HandEnded { .. } => {
                drawn = None
            }
            EventKind::Melded { seat, .. }
            | EventKind::KongOffered { seat, .. }
            | EventKind::Swapped { seat, .. }
                if *seat == me =>
            {
                drawn = None
            }
            _ => {}
        }
    }
    drawn
}

/// What a spectator may see of a hand: the engine's public view, and the public events (which
/// give each river its claimed discards). No seat, no hand, no 定缺 of one's own.
pub fn public_view<'a>(v: &PublicView, events: impl IntoIterator<Item = &'a Event>) -> WireView {
    table_view(v, events.into_iter().filter(|e| e.audience.is_public()))
}

/// The table as a viewer sees it, with no one's own tiles: what a seat's view and a spectator's
/// have in common.
fn table_view<'a>(v: &PublicView, seen: impl IntoIterator<Item = &'a Event>) -> WireView {
    let mut w = WireView {
        seat: None,
        dealer: seat(v.dealer),
        round_wind: v.round_wind.tile().to_string(),
        dice: v.dice,
        wall: v.wall_drawable,
        wild: v.wild.map(|w| w.wild),
        bonus: v.bonus.clone(),
        seabed: v.seabed.map(seat),
        hand: Vec::new(),
        own_void: None,
        swap_marked: Vec::new(),
        seats: v.seats.iter().map(public).collect(),
        offered: v.offered,
        over: v.over,
        turn: v.turn.map(seat),
        drawn: None,
        last_discard: None,
    };
    let seen: Vec<&Event> = seen.into_iter().collect();
    w.last_discard = seen.iter().rev().find_map(|e| match e.kind {
        EventKind::Discarded { seat: s, .. } => Some(seat(s)),
        _ => None,
    });
    for (seat, river) in w.seats.iter_mut().zip(rivers(seen, v.seats.len())) {
        seat.river = river;
    }
    w
}

/// Every seat's river from the events: each discard in order, marked claimed when a chow, pung,
/// exposed kong or win takes it (always the discarder's newest discard; several winners of one
/// discard mark it once). A robbed kong's tile never lay in a river.
fn rivers<'a>(events: impl IntoIterator<Item = &'a Event>, seats: usize) -> Vec<Vec<WireDiscard>> {
    let mut rivers: Vec<Vec<WireDiscard>> = vec![Vec::new(); seats];
    for e in events {
        let taken_from = match &e.kind {
            EventKind::Discarded { seat, tile } => {
                if let Some(r) = rivers.get_mut(seat.index()) {
                    r.push(WireDiscard {
                        tile: *tile,
                        claimed: false,
                    });
                }
                None
            }
            EventKind::Melded { meld: Some(m), .. } => match m.kind {
                MeldKind::Chow | MeldKind::Pung | MeldKind::Kong(KongKind::Exposed) => m.from,
                // A concealed kong takes nothing; an added kong keeps its pung's claim.
                MeldKind::Kong(_) => None,
            },
            EventKind::Won { win, .. } if !win.flags.robbed_kong => win.from,
            _ => None,
        };
        if let Some(d) = taken_from
            .and_then(|from| rivers.get_mut(from.index()))
            .and_then(|r| r.last_mut())
        {
            d.claimed = true;
        }
    }
    rivers
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
                        name_en: engine::english(i.name).unwrap_or_default().to_string(),
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
                name_en: engine::english(e.name).unwrap_or_default().to_string(),
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
        payments: s
            .payments
            .iter()
            .map(|p| WirePayment {
                payer: seat(p.payer),
                payee: seat(p.payee),
                amount: p.amount,
                paid_for: match p.paid_for {
                    PaidFor::Win => WirePaidFor::Win,
                    PaidFor::Extra(name) => WirePaidFor::Extra {
                        name: name.to_string(),
                    },
                },
            })
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
        EventKind::WildTurned {
            indicator,
            wild,
            wall,
        } => WireEvent::WildTurned {
            indicator: *indicator,
            wild: *wild,
            wall: *wall,
        },
        EventKind::BonusTurned { tile } => WireEvent::BonusTurned { tile: *tile },
        EventKind::ReadyDeclared {
            seat: s,
            first_turn,
        } => WireEvent::ReadyDeclared {
            seat: seat(*s),
            first_turn: *first_turn,
        },
        EventKind::SeabedStarted { seat: s, draws } => WireEvent::SeabedStarted {
            seat: seat(*s),
            draws: *draws,
        },
        EventKind::SwapMarked { seat: s, tile } => WireEvent::SwapMarked {
            seat: seat(*s),
            tile: *tile,
        },
        EventKind::Swapped { seat: s, exchange } => WireEvent::Swapped {
            seat: seat(*s),
            out: exchange.out.clone(),
            received: exchange.received.clone(),
        },
        EventKind::SwappedHidden { seat: s, count } => WireEvent::SwappedHidden {
            seat: seat(*s),
            count: *count,
        },
        EventKind::Dealt { seat: s, tiles } => WireEvent::Dealt {
            seat: seat(*s),
            tiles: tiles.clone(),
        },
        EventKind::DealtHidden { seat: s, count } => WireEvent::DealtHidden {
            seat: seat(*s),
            count: *count,
        },
        EventKind::FlowerReplaced {
            seat: s,
            flower,
            dealt,
        } => WireEvent::FlowerReplaced {
            seat: seat(*s),
            flower: *flower,
            dealt: *dealt,
        },
        EventKind::Drew {
            seat: s,
            tile,
            replacement,
            wall,
        } => WireEvent::Drew {
            seat: seat(*s),
            tile: *tile,
            replacement: *replacement,
            wall: *wall,
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
        EventKind::ClaimEntered { seat: s } => WireEvent::ClaimEntered { seat: seat(*s) },
        EventKind::LastOffered { seat: s } => WireEvent::LastOffered { seat: seat(*s) },
        EventKind::LastDeclined { seat: s } => WireEvent::LastDeclined { seat: seat(*s) },
        EventKind::KongOffered { seat: s, tile } => WireEvent::KongOffered {
            seat: seat(*s),
            tile: *tile,
        },
        EventKind::Melded { seat: s, meld: m } => WireEvent::Melded {
            seat: seat(*s),
            meld: m.as_ref().map_or(WireMeld::HiddenKong, meld),
        },
        EventKind::Won { win: w, concealed } => WireEvent::Won {
            win: win(w),
            concealed: concealed.to_vec(),
        },
        EventKind::HandEnded {
            exhausted,
            hands,
            settlement: s,
            wall,
        } => WireEvent::HandEnded {
            exhausted: *exhausted,
            hands: hands.0.iter().take(usize::from(players)).cloned().collect(),
            settlement: settlement(s, players),
            wall: *wall,
        },
    }
}

#[cfg(test)]
mod tests {
    use engine::settle::{Win, WinFlags};
    use engine::{Audience, Event, EventKind, KongKind, Meld, MeldKind, Seat, Tile};

    use super::{rivers, settlement};
    use crate::wire::WireSettlement;

    fn t(s: &str) -> Tile {
        s.parse().expect("a tile")
    }

    fn public(kind: EventKind) -> Event {
        Event {
            audience: Audience::Everyone,
            kind,
        }
    }

    fn discard(seat: usize, tile: &str) -> Event {
        public(EventKind::Discarded {
            seat: Seat::ALL[seat],
            tile: t(tile),
        })
    }

    fn meld(seat: usize, kind: MeldKind, tile: &str, from: Option<usize>) -> Event {
        public(EventKind::Melded {
            seat: Seat::ALL[seat],
            meld: Some(Meld {
                kind,
                tile: t(tile),
                from: from.map(|f| Seat::ALL[f]),
                claimed: from.map(|_| t(tile)),
            }),
        })
    }

    fn won(seat: usize, tile: &str, from: usize, robbed_kong: bool) -> Event {
        public(EventKind::Won {
            win: Win {
                seat: Seat::ALL[seat],
                tile: t(tile),
                from: Some(Seat::ALL[from]),
                flags: WinFlags {
                    robbed_kong,
                    ..WinFlags::default()
                },
            },
            concealed: Box::default(),
        })
    }

    /// Each river as `tile` or `tile*` (claimed).
    fn check(events: &[Event], expected: [&str; 4]) {
        let got: Vec<String> = rivers(events, 4)
            .iter()
            .map(|r| {
                r.iter()
                    .map(|d| format!("{}{}", d.tile, if d.claimed { "*" } else { "" }))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn a_river_marks_what_claims_and_discard_wins_take_and_nothing_else() {
        check(
            &[
                discard(0, "5m"),
                meld(1, MeldKind::Pung, "5m", Some(0)),
                discard(1, "1z"),
                discard(2, "3p"),
                meld(3, MeldKind::Chow, "2p", Some(2)),
                discard(3, "9s"),
                // Two winners on one discard take it once.
                won(0, "9s", 3, false),
                won(1, "9s", 3, false),
                discard(2, "7s"),
            ],
            ["5m*", "1z", "3p* 7s", "9s*"],
        );
        check(
            &[
                discard(0, "5m"),
                meld(1, MeldKind::Pung, "5m", Some(0)),
                discard(1, "2s"),
                // The added kong keeps its pung's claim; its robbing takes no river tile; a
                // concealed kong takes nothing either.
                meld(1, MeldKind::Kong(KongKind::Added), "5m", Some(0)),
                meld(2, MeldKind::Kong(KongKind::Concealed), "4p", None),
                won(3, "5m", 1, true),
                discard(2, "6p"),
                meld(0, MeldKind::Kong(KongKind::Exposed), "6p", Some(2)),
            ],
            ["5m*", "2s", "6p*", ""],
        );
    }

    #[test]
    fn a_settlement_names_who_paid_whom_for_what() {
        use engine::settle::{ExtraLine, PaidFor, Settlement};
        let mut st = Settlement::default();
        st.pay(PaidFor::Win, Seat::ALL[1], Seat::ALL[0], 4);
        st.pay(PaidFor::Extra("刮风"), Seat::ALL[3], Seat::ALL[2], 2);
        st.extras.push(ExtraLine {
            name: "刮风",
            value: 2,
        });
        let wire = settlement(&st, 4);
        let json = serde_json::to_value(&wire).expect("json");
        assert_eq!(json["deltas"], serde_json::json!([4, -4, 2, -2]));
        assert_eq!(
            json["payments"],
            serde_json::json!([
                {"payer": 1, "payee": 0, "amount": 4, "for": {"kind": "win"}},
                {"payer": 3, "payee": 2, "amount": 2, "for": {"kind": "extra", "name": "刮风"}},
            ])
        );
        let back: WireSettlement = serde_json::from_value(json).expect("reads back");
        assert_eq!(back, wire);
    }

    #[test]
    fn a_settlement_stored_before_payments_still_reads() {
        let old = r#"{"fans":[],"extras":[],"deltas":[1,-1,0,0]}"#;
        let read: WireSettlement = serde_json::from_str(old).expect("an old stored settlement");
        assert!(read.payments.is_empty());
        assert_eq!(read.deltas, [1, -1, 0, 0]);
    }
}
