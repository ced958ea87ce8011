//! Writing a finished hand as a `settle` line: what a club keeps of a disputed hand, and how the
//! engine's tests check that every hand finished in play settles the same from its line.

use super::serde_json_id::Id;
use super::{ClaimInput, MeldInput, SeatInput, SettleInput, TableInput, WinInput};
use crate::meld::{KongKind, MeldKind};
use crate::ruleset::Ruleset;
use crate::seat::SeatSet;
use crate::settle::{FinishedHand, PlacedMeld, SeatHand, Win};
use crate::tile::format_tiles;

impl SettleInput {
    /// The line of `hand` as `ruleset` plays it; reading it back ([`SettleInput::to_hand`])
    /// gives the same hand.
    pub fn from_hand(id: Id, ruleset: &Ruleset, hand: &FinishedHand) -> SettleInput {
        let players = hand.players;
        SettleInput {
            id,
            ruleset: ruleset.id().as_str().to_owned(),
            options: ruleset.options(),
            dealer: hand.dealer.index() as u8,
            round_wind: hand.round_wind,
            wild: hand.wild.map(|w| w.to_string()),
            bonus: hand.bonus.iter().map(ToString::to_string).collect(),
            dice: hand.dice,
            seats: hand
                .seats_in_play()
                .map(|s| seat_line(&hand.seats[s], players))
                .collect(),
            wins: hand.wins.iter().map(win_line).collect(),
            table: TableInput {
                shaozhuang_rounds: hand.carried.shaozhuang_rounds,
                claims: hand.carried.claims.as_ref().map(|list| {
                    list.iter()
                        .map(|&(by, from, count)| ClaimInput {
                            by: by.index() as u8,
                            from: from.index() as u8,
                            count,
                        })
                        .collect()
                }),
                draw_bonus: hand.carried.draw_bonus,
                floor: hand.carried.floor,
                dealer_streak: hand.carried.dealer_streak,
                draw_streak: hand.carried.draw_streak,
            },
        }
    }
}

fn seat_line(sh: &SeatHand, players: u8) -> SeatInput {
    SeatInput {
        concealed: sh.concealed.to_string(),
        melds: sh.melds.iter().map(|m| meld_line(m, players)).collect(),
        flowers: format_tiles(&sh.flowers),
        void: sh.void.map(|v| v.to_string()),
    }
}

fn meld_line(m: &PlacedMeld, players: u8) -> MeldInput {
    let (kind, concealed, added) = match m.meld.kind {
        MeldKind::Chow => ("chow", false, false),
        MeldKind::Pung => ("pung", false, false),
        MeldKind::Kong(KongKind::Exposed) => ("kong", false, false),
        MeldKind::Kong(KongKind::Concealed) => ("kong", true, false),
        MeldKind::Kong(KongKind::Added) => ("kong", false, true),
    };
    MeldInput {
        kind: kind.to_owned(),
        tiles: format_tiles(&m.meld.tiles()),
        from: m.meld.from.map(|f| f.index() as u8),
        concealed,
        added,
        in_play: (m.in_play != SeatSet::all(players))
            .then(|| m.in_play.iter().map(|s| s.index() as u8).collect()),
    }
}

fn win_line(w: &Win) -> WinInput {
    let f = w.flags;
    WinInput {
        seat: w.seat.index() as u8,
        tile: w.tile.to_string(),
        from: w.from.map(|s| s.index() as u8),
        kong_replacement: f.kong_replacement,
        robbed_kong: f.robbed_kong,
        robbed_concealed_kong: f.robbed_concealed_kong,
        last_tile: f.last_tile,
        last_of_kind: f.last_of_kind,
        first_turn: f.first_turn,
        after_kong_discard: f.after_kong_discard,
        declared_ready: f.declared_ready,
        ready_first_turn: f.ready_first_turn,
        seabed: f.seabed,
    }
}
