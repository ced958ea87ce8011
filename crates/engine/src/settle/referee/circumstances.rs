//! The circumstances of one win (its flags) fit together, fit the hand and fit the family: a
//! robbed concealed kong only where the room lets it; a kong's replacement drawn by a seat
//! holding a kong; a robbed kong's victim holding what was robbed; 杠上炮 after the discarder's
//! kong; 天和 / 地和 / 人和 as play sets them; 和绝张 with no copy hidden; 报听 and 海底捞月 only in
//! the family that has them, and as locked as play keeps them.

use crate::meld::MeldKind;
use crate::ruleset::Rules;
use crate::seat::Seat;
use crate::settle::{FinishedHand, SeatHand, SettleError, Win, describe};

use super::impossible;

/// The circumstances of one win fit together, the hand and the family.
pub(super) fn check(rules: &dyn Rules, hand: &FinishedHand, w: &Win) -> Result<(), SettleError> {
    let sh = &hand.seats[w.seat];
    let f = w.flags;
    if f.robbed_concealed_kong && !rules.flow().concealed_kong_robbable {
        return Err(SettleError::NotAWin {
            seat: w.seat,
            hand: describe(sh),
            tile: w.tile,
            reason: format!(
                "`{}` (with these room options) never lets a concealed kong be robbed",
                rules.id()
            ),
        });
    }
    if f.kong_replacement {
        if w.from.is_some() || f.robbed_kong {
            return impossible(format!(
                "seat {}'s win on a kong's replacement tile is drawn, not taken from another seat",
                w.seat
            ));
        }
        if !sh.melds.iter().any(|m| m.meld.is_kong()) {
            return impossible(format!(
                "seat {} wins on a kong's replacement but holds no kong",
                w.seat
            ));
        }
    }
    if f.robbed_kong {
        robbed(hand, w)?;
    }
    if f.after_kong_discard {
        kong_discard(hand, w)?;
    }
    if f.first_turn {
        first_go_around(hand, w)?;
    }
    if f.last_of_kind {
        last_of_its_kind(hand, w)?;
    }
    if f.robbed_kong && f.last_tile {
        return impossible(format!(
            "seat {}: 海底 is the wall's last tile or the discard after it, never a robbed kong",
            w.seat
        ));
    }
    if (f.declared_ready || f.ready_first_turn) && !rules.flow().declares_ready {
        return impossible(format!("`{}` has no 报听", rules.id()));
    }
    ready(w, sh)?;
    if f.seabed {
        if rules.flow().seabed_draws == 0 {
            return impossible(format!("`{}` has no 海底捞月 draws", rules.id()));
        }
        if w.from.is_some() {
            return impossible("a 海底捞月 win is a self-draw".into());
        }
    }
    Ok(())
}

/// A win in the first go-around (天和, 地和, 人和): in play, before any meld is made at all
/// (a concealed kong included) and before the winner's first discard. So the dealer, who
/// discards first, can only self-draw; a discard came from a seat between the dealer and the
/// winner; no kong's replacement, 杠上炮 or robbed added kong; and no meld on the table was
/// made while the winner was still in the hand (in 血战 others may meld after it has left).
fn first_go_around(hand: &FinishedHand, w: &Win) -> Result<(), SettleError> {
    let f = w.flags;
    if f.kong_replacement || f.after_kong_discard || (f.robbed_kong && !f.robbed_concealed_kong) {
        return impossible(format!(
            "seat {}'s win follows a kong, so it cannot be in the first go-around",
            w.seat
        ));
    }
    if let Some(from) = w.from {
        let players = hand.players;
        if from.distance_from(hand.dealer, players) >= w.seat.distance_from(hand.dealer, players) {
            return impossible(format!(
                "seat {} wins on seat {from}'s discard in the first go-around, but had to discard \
                 before seat {from} did",
                w.seat
            ));
        }
    }
    if let Some(s) = hand.seats_in_play().find(|&s| {
        hand.seats[s]
            .melds
            .iter()
            .any(|m| m.in_play.contains(w.seat))
    }) {
        return impossible(format!(
            "seat {s} made a meld before seat {}'s win, so that win cannot be in the first go-around",
            w.seat
        ));
    }
    Ok(())
}

/// 报听 (two-player) locks a hand: no kong after it; it is made with a discard, so never in the
/// first go-around; 天听 is declared before any claim or kong of the declarer. A 海底捞月 draw
/// is no kong's replacement.
fn ready(w: &Win, sh: &SeatHand) -> Result<(), SettleError> {
    let f = w.flags;
    if (f.declared_ready || f.seabed) && f.kong_replacement {
        return impossible(format!(
            "seat {} wins on a kong's replacement while its hand is locked (报听 or 海底捞月)",
            w.seat
        ));
    }
    if f.declared_ready && f.first_turn {
        return impossible(format!(
            "seat {} declared 报听 with a discard, so its win is not before its first discard",
            w.seat
        ));
    }
    if f.ready_first_turn && !sh.melds.is_empty() {
        return impossible(format!(
            "seat {} holds a meld, made before its 天听 (which comes before any claim or kong) or \
             after it (when the hand is locked)",
            w.seat
        ));
    }
    Ok(())
}

/// A robbed kong: the robbed seat is named and held the kong being made.
fn robbed(hand: &FinishedHand, w: &Win) -> Result<(), SettleError> {
    let Some(robbed) = w.from else {
        return impossible("a robbed kong needs the robbed seat as `from`".into());
    };
    if w.flags.after_kong_discard {
        return impossible("robbing a kong is not a win on a discard after a kong".into());
    }
    let victim = &hand.seats[robbed];
    if !victim.is_given() {
        return Ok(());
    }
    if w.flags.robbed_concealed_kong {
        // The robbed concealed kong's other three stay in the victim's hand.
        if victim.concealed.get(w.tile) < 3 {
            return impossible(format!(
                "seat {robbed} holds no three {} left of a robbed concealed kong",
                w.tile
            ));
        }
        return Ok(());
    }
    let has_pung = victim
        .melds
        .iter()
        .any(|m| m.meld.kind == MeldKind::Pung && m.meld.tile == w.tile);
    if !has_pung {
        return impossible(format!(
            "seat {robbed} has no pung of {} to add to, so it cannot be robbed",
            w.tile
        ));
    }
    Ok(())
}

/// 和绝张: the other three copies were in view (discards, exposed melds), so no given seat holds
/// one concealed.
fn last_of_its_kind(hand: &FinishedHand, w: &Win) -> Result<(), SettleError> {
    let hidden = |s: Seat| {
        let sh = &hand.seats[s];
        sh.concealed.get(w.tile) > 0
            || sh
                .melds
                .iter()
                .any(|m| m.meld.is_concealed() && m.meld.tile == w.tile)
    };
    if let Some(s) = hand.seats_in_play().find(|&s| hidden(s)) {
        return impossible(format!(
            "{} is the last of its kind (和绝张), but seat {s} holds one concealed",
            w.tile
        ));
    }
    Ok(())
}

/// 杠上炮: a discard win, the discarder holding a kong it had just made.
fn kong_discard(hand: &FinishedHand, w: &Win) -> Result<(), SettleError> {
    let Some(from) = w.from else {
        return impossible(format!(
            "seat {}'s self-draw cannot be on a discard after a kong",
            w.seat
        ));
    };
    let discarder: &SeatHand = &hand.seats[from];
    if discarder.is_given() && !discarder.melds.iter().any(|m| m.meld.is_kong()) {
        return impossible(format!(
            "seat {from} discarded after a kong but holds no kong"
        ));
    }
    Ok(())
}
