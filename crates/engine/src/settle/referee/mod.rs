//! The referee: one statement of what a finished hand of a family may be.
//!
//! Clubs settle disputed hands with `mahjong settle` and `POST /api/settle`; a hand that no play
//! could have reached must be refused, never scored. Every check lives here, once, and reads the
//! family only through its [`Rules`] hooks (tile set, chows, 一炮多响, 血战, wilds, 定缺, robbing a
//! concealed kong, 报听…), so a new family gets them all by answering its hooks. Every hand
//! finished in play passes them (the engine's `referee` property test); the family's scoring
//! ([`crate::ruleset::settle_checked`]) runs only after them, through [`crate::ruleset::Ruleset::settle`].
//!
//! What is checked, in order (the first problem is the answer):
//! 1. the table: seat count, dice 1–6, a wild kind exactly where the family turns one up, bonus
//!    kinds (none twice), carried claim counts (between two seats, at most four, and what the
//!    given seats' melds show);
//! 2. each seat: tiles held for its melds, a 定缺 only where the family declares one, and every
//!    meld one the family lets that seat make (no chow where there is none, a chow only from the
//!    上家, no wild in a meld, nothing of the declared void suit, made while its owner and the
//!    seat it came from were still in the hand, after the hand's first winners only);
//! 3. no more copies of a kind than are in play (the wild's indicator is out of it);
//! 4. the wins as the family's flow allows them: distinct winners, none paying itself, one win
//!    where the hand ends at the first win, several only on one discard (or one robbed kong)
//!    where 一炮多响 is played, in 血战 no payer that had already left, no win once 三家杠荒牌
//!    has drawn the hand;
//! 5. each win's circumstances fit together, the hand and the family (`referee/circumstances.rs`);
//! 6. each win is one the family accepts in play ([`Rules::evaluate_win`], the same judgement
//!    the table makes when the win is claimed).

mod circumstances;

use crate::meld::{KongKind, MeldKind};
use crate::ruleset::{Rules, WinCheck};
use crate::seat::{Seat, SeatSet};
use crate::tile::Tile;

use super::{FinishedHand, PlacedMeld, SettleError, Win, describe};

/// Checks that `hand` is a finished hand the family of `rules` can reach in play.
///
/// # Errors
/// The first problem found: [`SettleError::NotAWin`] for a win the family does not accept,
/// [`SettleError::NoSuchSeat`] for a seat outside the table, else the kind of impossibility.
pub fn check(rules: &dyn Rules, hand: &FinishedHand) -> Result<(), SettleError> {
    table(rules, hand)?;
    for s in hand.seats_in_play() {
        seat(rules, hand, s)?;
    }
    copies(rules, hand)?;
    wins_in_order(rules, hand)?;
    for win in &hand.wins {
        circumstances::check(rules, hand, win)?;
    }
    for win in &hand.wins {
        admitted(rules, hand, win)?;
    }
    Ok(())
}

pub(super) fn impossible(why: String) -> Result<(), SettleError> {
    Err(SettleError::Inconsistent(why))
}

/// Seats, dice, the wild and bonus kinds, carried claim counts.
fn table(rules: &dyn Rules, hand: &FinishedHand) -> Result<(), SettleError> {
    let id = rules.id();
    if hand.players != rules.flow().players {
        return impossible(format!("`{id}` is played by {}", rules.flow().players));
    }
    if hand.dealer.index() >= usize::from(hand.players) {
        return Err(SettleError::NoSuchSeat {
            seat: hand.dealer.index() as u8,
            players: hand.players,
        });
    }
    if let Some(die) = hand.dice.iter().flatten().find(|d| !(1..=6).contains(*d)) {
        return impossible(format!("a die shows {die}; dice show 1 to 6"));
    }
    let set = rules.flow().tiles;
    match hand.wild {
        None if rules.flow().wild => {
            return impossible(format!(
                "a `{id}` hand always turns up a wild kind: give `wild`"
            ));
        }
        Some(w) if !rules.flow().wild => {
            return impossible(format!("`{id}` has no wild tile, but {w} is given as one"));
        }
        Some(w) if w.is_flower() || set.copies(w) == 0 => {
            return impossible(format!("{w} cannot be the wild kind of `{id}`"));
        }
        _ => {}
    }
    if hand.bonus.len() > rules.flow().bonus_indicators {
        return impossible(format!(
            "{} bonus kinds given; `{id}` turns up {}",
            hand.bonus.len(),
            rules.flow().bonus_indicators
        ));
    }
    if let Some(b) = hand
        .bonus
        .iter()
        .find(|b| b.is_flower() || set.copies(**b) == 0)
    {
        return Err(SettleError::ForeignTile { tile: *b });
    }
    if let Some((i, b)) = hand
        .bonus
        .iter()
        .enumerate()
        .find(|(i, b)| hand.bonus[..*i].contains(b))
    {
        return impossible(format!(
            "bonus kind {b} is given twice (at {i}); each indicator names a new kind"
        ));
    }
    claims(hand)
}

/// The carried claim counts (承包, 互包): between two seats at the table, no more than the four
/// melds a seat can make, and for a seat whose tiles are given, what its melds show (every
/// claim leaves a meld that stays; the counts replace the melds in scoring, so they must agree).
fn claims(hand: &FinishedHand) -> Result<(), SettleError> {
    let Some(list) = &hand.carried.claims else {
        return Ok(());
    };
    for &(by, from, _) in list {
        for s in [by, from] {
            if s.index() >= usize::from(hand.players) {
                return Err(SettleError::NoSuchSeat {
                    seat: s.index() as u8,
                    players: hand.players,
                });
            }
        }
        if by == from {
            return impossible(format!("seat {by} is counted as claiming from itself"));
        }
    }
    for by in hand.seats_in_play() {
        let listed: u32 = hand.seats_in_play().map(|f| hand.claims(by, f)).sum();
        if listed > 4 {
            return impossible(format!(
                "seat {by} is counted {listed} claims; a seat makes four melds at most"
            ));
        }
        let sh = &hand.seats[by];
        if !sh.is_given() {
            continue;
        }
        for from in hand.seats_in_play().filter(|&f| f != by) {
            let shown = sh
                .melds
                .iter()
                .filter(|m| m.meld.from == Some(from))
                .count() as u32;
            let counted = hand.claims(by, from);
            if counted != shown {
                return impossible(format!(
                    "seat {by} is counted {counted} claims from seat {from}, but its melds show {shown}"
                ));
            }
        }
    }
    Ok(())
}

/// One seat: its tile count, its 定缺 and its melds.
fn seat(rules: &dyn Rules, hand: &FinishedHand, s: Seat) -> Result<(), SettleError> {
    let sh = &hand.seats[s];
    hand_size(hand, s)?;
    if sh.void.is_some() && !rules.flow().declares_void() {
        return impossible(format!(
            "seat {s} has a 定缺 suit, but `{}` declares none",
            rules.id()
        ));
    }
    for m in &sh.melds {
        meld(rules, hand, s, m)?;
    }
    Ok(())
}

/// Every given seat holds 13 tiles counting each meld as three (a seat left as "" does not
/// matter to the result and is exempt; a winner's tiles are those it won with). A flower win
/// can come during the deal's 补花, before the dealer has discarded its 14th tile.
fn hand_size(hand: &FinishedHand, s: Seat) -> Result<(), SettleError> {
    let sh = &hand.seats[s];
    let is_winner = hand.wins.iter().any(|w| w.seat == s);
    if !sh.is_given() && !is_winner {
        return Ok(());
    }
    let expected = 13u32.saturating_sub(3 * sh.melds.len() as u32);
    let total = sh.concealed.total();
    let flower_win = hand.wins.iter().any(|w| w.tile.is_flower());
    let dealer_holds_fourteenth = flower_win && s == hand.dealer && total == expected + 1;
    if total != expected && !dealer_holds_fourteenth {
        return impossible(format!(
            "seat {s} holds {total} concealed tiles with {} melds; expected {expected}",
            sh.melds.len(),
        ));
    }
    Ok(())
}

/// Whether seat `s` could have made meld `m` under the family's rules.
fn meld(
    rules: &dyn Rules,
    hand: &FinishedHand,
    s: Seat,
    m: &PlacedMeld,
) -> Result<(), SettleError> {
    let id = rules.id();
    let meld = m.meld;
    if let Some(f) = meld.from
        && f.index() >= usize::from(hand.players)
    {
        return Err(SettleError::NoSuchSeat {
            seat: f.index() as u8,
            players: hand.players,
        });
    }
    if meld.from == Some(s) {
        return impossible(format!("seat {s} claims {meld} from itself"));
    }
    if meld.kind == MeldKind::Chow {
        if !rules.flow().chow {
            return impossible(format!("`{id}` has no chow, but seat {s} holds {meld}"));
        }
        if let Some(f) = meld.from
            && f.next(hand.players) != s
        {
            return impossible(format!(
                "seat {s} chows {meld} from seat {f}; only the 上家 (the seat before it) may be chowed from"
            ));
        }
    }
    if let Some(w) = hand.wild
        && meld.tiles().contains(&w)
    {
        return impossible(format!(
            "seat {s} holds {meld}, but a wild ({w}) is never claimed, konged or used to claim"
        ));
    }
    let suit = meld.tile.suit();
    if let Some(void) = hand.seats[s].void
        && void == suit
    {
        return impossible(format!("seat {s} melds {meld} of its declared void suit"));
    }
    if !m.in_play.contains(s) {
        return impossible(format!("seat {s} made {meld} after it had left the hand"));
    }
    // An added kong keeps the `from` of its pung, which may have been claimed before that seat
    // left.
    if let Some(f) = meld.from
        && !m.in_play.contains(f)
        && meld.kind != MeldKind::Kong(KongKind::Added)
    {
        return impossible(format!(
            "seat {s} claims {meld} from seat {f}, which had already left the hand"
        ));
    }
    // The seats gone when the meld was made are the hand's first winners, in order.
    let gone: SeatSet = SeatSet::all(hand.players)
        .iter()
        .filter(|&p| !m.in_play.contains(p))
        .collect();
    let first_winners: SeatSet = hand
        .wins
        .iter()
        .take(gone.len() as usize)
        .map(|w| w.seat)
        .collect();
    if gone != first_winners {
        return impossible(format!(
            "{meld} of seat {s} was made when {} had left, who are not the hand's first winners",
            describe_seats(gone)
        ));
    }
    Ok(())
}

fn describe_seats(set: SeatSet) -> String {
    let seats: Vec<String> = set.iter().map(|s| format!("seat {s}")).collect();
    seats.join(", ")
}

/// No kind more often than the tile set holds it, and no tile the set lacks. Winners on one
/// discard (一炮多响) share one tile.
fn copies(rules: &dyn Rules, hand: &FinishedHand) -> Result<(), SettleError> {
    let set = rules.flow().tiles;
    let mut seen = [0u32; Tile::ALL_KINDS];
    for s in hand.seats_in_play() {
        let sh = &hand.seats[s];
        for t in sh
            .all_tiles()
            .to_tiles()
            .into_iter()
            .chain(sh.flowers.iter().copied())
        {
            seen[t.index()] += 1;
        }
    }
    let mut previous: Option<&Win> = None;
    for w in &hand.wins {
        if !previous.is_some_and(|p| same_discard(p, w)) {
            seen[w.tile.index()] += 1;
        }
        previous = Some(w);
    }
    // The indicator naming the wild kind is turned up and out of play.
    let indicator = hand.wild.and_then(|w| rules.wild_indicator(w));
    for (i, &count) in seen.iter().enumerate() {
        let Some(tile) = Tile::from_index(i as u8) else {
            continue;
        };
        let max = set.copies(tile) - u8::from(indicator == Some(tile) && set.copies(tile) > 0);
        if count > 0 && max == 0 {
            return Err(SettleError::ForeignTile { tile });
        }
        if count > u32::from(max) {
            return Err(SettleError::TooManyCopies { tile, count, max });
        }
    }
    Ok(())
}

/// Two wins on one tile given up by one seat: one discard (一炮多响) or one robbed kong, whose
/// circumstances (杠上炮, 海底, 和绝张) are the same for every winner.
pub(super) fn same_discard(a: &Win, b: &Win) -> bool {
    a.from.is_some()
        && a.from == b.from
        && a.tile == b.tile
        && a.flags.robbed_kong == b.flags.robbed_kong
        && a.flags.robbed_concealed_kong == b.flags.robbed_concealed_kong
        && a.flags.after_kong_discard == b.flags.after_kong_discard
        && a.flags.last_tile == b.flags.last_tile
        && a.flags.last_of_kind == b.flags.last_of_kind
}

/// The wins as the family's flow allows them.
fn wins_in_order(rules: &dyn Rules, hand: &FinishedHand) -> Result<(), SettleError> {
    let mut winners = SeatSet::EMPTY;
    for w in &hand.wins {
        for s in std::iter::once(w.seat).chain(w.from) {
            if s.index() >= usize::from(hand.players) {
                return Err(SettleError::NoSuchSeat {
                    seat: s.index() as u8,
                    players: hand.players,
                });
            }
        }
        if w.from == Some(w.seat) {
            return impossible(format!("seat {} wins on its own discard", w.seat));
        }
        if winners.contains(w.seat) {
            return impossible(format!("seat {} wins twice", w.seat));
        }
        if let Some(f) = w.from
            && winners.contains(f)
        {
            return impossible(format!(
                "seat {f} gives seat {} its win after seat {f} had already won and left",
                w.seat
            ));
        }
        winners.insert(w.seat);
    }
    let id = rules.id();
    if let Some(n) = rules.flow().kongers_draw {
        let kongers = hand
            .seats_in_play()
            .filter(|&s| hand.seats[s].melds.iter().any(|m| m.meld.is_kong()))
            .count();
        if kongers > n || (kongers == n && !hand.wins.is_empty()) {
            return impossible(format!(
                "{kongers} seats hold kongs: in `{id}` the hand is drawn when {n} have made one (三家杠荒牌)"
            ));
        }
    }
    if rules.flow().plays_on_after_win() {
        if hand.wins.len() >= usize::from(hand.players) {
            return impossible(format!(
                "{} wins: the hand ends once all but one player have won",
                hand.wins.len()
            ));
        }
        return Ok(());
    }
    let [first, rest @ ..] = hand.wins.as_slice() else {
        return Ok(());
    };
    if rest.is_empty() {
        return Ok(());
    }
    if !rules.flow().multi_win() {
        return impossible(format!(
            "`{id}` ends the hand at its first win and plays no 一炮多响: {} wins given",
            hand.wins.len()
        ));
    }
    if !rest.iter().all(|w| same_discard(first, w)) {
        return impossible(
            "the hand ends at its first win: several wins must all take one discard (一炮多响) or one robbed kong"
                .into(),
        );
    }
    Ok(())
}

/// The win is one the family accepts at the table.
fn admitted(rules: &dyn Rules, hand: &FinishedHand, w: &Win) -> Result<(), SettleError> {
    let sh = &hand.seats[w.seat];
    let check = WinCheck {
        hand: sh,
        win: w,
        dealer: hand.dealer,
        round_wind: hand.round_wind,
        players: hand.players,
        wild: hand.wild,
        bonus: &hand.bonus,
    };
    rules
        .evaluate_win(&check)
        .map(|_| ())
        .map_err(|reason| SettleError::NotAWin {
            seat: w.seat,
            hand: describe(sh),
            tile: w.tile,
            reason,
        })
}
