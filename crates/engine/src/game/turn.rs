//! A seat's own turn: drawing, discarding, kongs and the self-drawn win.

use super::{Game, Phase, Replacement, Turn};
use crate::action::Action;
use crate::event::{Audience, EventKind};
use crate::game::claims::{ClaimWindow, Offer};
use crate::meld::{KongKind, Meld, MeldKind};
use crate::seat::Seat;
use crate::settle::{PlacedMeld, Win, WinFlags};
use crate::tile::Tile;
use crate::wall::ReplacementEnd;

impl Game {
    /// A drawn tile goes into `seat`'s hand: the seat sees which, the others only that it drew.
    /// Every draw takes this path (the turn's, a replacement's, 海底捞月's), so no draw can show
    /// its tile to the wrong seat.
    pub(super) fn take_drawn(&mut self, seat: Seat, tile: Tile, replacement: bool) {
        self.seats[seat].concealed.add(tile);
        let wall = self.wall.drawable();
        self.emit(
            Audience::Seat(seat),
            EventKind::Drew {
                seat,
                tile: Some(tile),
                replacement,
                wall,
            },
        );
        self.emit(
            Audience::AllBut(seat),
            EventKind::Drew {
                seat,
                tile: None,
                replacement,
                wall,
            },
        );
    }

    /// The actions of the seat whose turn it is.
    pub(super) fn turn_actions(&self, turn: &Turn) -> Vec<Action> {
        let seat = turn.seat;
        let rules = self.ruleset.rules();
        let st = &self.seats[seat];
        let claimed = self.just_claimed(turn);
        let mut out = Vec::new();
        if let Some(t) = turn.drawn {
            let win = Win {
                seat,
                tile: t,
                from: None,
                flags: self.turn_flags(turn),
            };
            let hand = self.seat_hand(seat, Some(t));
            let wins = self.judge(&hand, win).is_some();
            // 报听 and 海底捞月: the hand is locked; the only question is whether to win.
            if self.is_locked(seat) {
                return if wins {
                    vec![Action::SelfDrawWin, Action::Pass]
                } else {
                    Vec::new()
                };
            }
            if wins {
                // 最后四张: a ready player whose tile appears must win; so must 四惠牌.
                let wild = self.wild.map(|w| w.wild);
                if turn.forced_zone || rules.wins_at_once(&hand, t, wild) {
                    return vec![Action::SelfDrawWin];
                }
                out.push(Action::SelfDrawWin);
            }
        }
        // 海底: where the family says so, the last drawable tile is won on or thrown at once.
        if rules.flow().last_tile.thrown
            && turn.last_tile
            && !turn.after_kong
            && let Some(t) = turn.drawn
        {
            out.push(Action::Discard { tile: t });
            return out;
        }
        if self.can_replace() {
            for t in Tile::playing() {
                // Four wilds are not a kong: they are 四惠牌.
                let wild = self.wild.is_some_and(|w| w.wild == t);
                let may = st.void != Some(t.suit()) && !wild;
                if st.concealed.get(t) == 4 && may {
                    out.push(Action::ConcealedKong { tile: t });
                }
            }
            // 碰后不能马上杠: where the family says so, not the pung just made.
            let just_punged = claimed
                .filter(|m| {
                    m.kind == MeldKind::Pung && rules.flow().after_claim.no_kong_of_fresh_pung
                })
                .map(|m| m.tile);
            for m in &st.melds {
                let barred = just_punged == Some(m.meld.tile);
                if m.meld.kind == MeldKind::Pung && st.concealed.get(m.meld.tile) > 0 && !barred {
                    out.push(Action::AddedKong { tile: m.meld.tile });
                }
            }
        }
        // 烧庄: a seat holding the dealer's first discarded wind follows it on its first discard.
        let forced = (rules.flow().follow_dealer.forces() && !st.has_discarded)
            .then(|| self.follow.forced_wind(seat, self.dealer))
            .flatten()
            .filter(|&w| st.concealed.get(w) > 0);
        if let Some(w) = forced {
            out.push(Action::Discard { tile: w });
            return out;
        }
        // 定缺: tiles of the void suit go first while any are held.
        let void_held = st.void.filter(|&v| st.concealed.suit_total(v) > 0);
        let first_discard = out.len();
        for t in st.concealed.kinds().iter() {
            if void_held.is_none_or(|v| t.suit() == v) {
                out.push(Action::Discard { tile: t });
            }
        }
        // 吃张打张: where the family bars it, not the kind just chowed, unless the chow was the
        // fourth meld (大吊: either of the last two tiles may go). Never bars every discard.
        let chowed = claimed
            .filter(|m| {
                m.kind == MeldKind::Chow && rules.flow().after_claim.no_discard_of_chowed_kind
            })
            .filter(|_| st.melds.len() < 4)
            .and_then(|m| m.claimed);
        if let Some(c) = chowed {
            let others = out[first_discard..]
                .iter()
                .any(|a| *a != Action::Discard { tile: c });
            if others {
                out.retain(|a| *a != Action::Discard { tile: c });
            }
        }
        if rules.flow().declares_ready {
            let ready = self.ready_options(seat, &out[first_discard..]);
            out.extend(ready);
        }
        out
    }

    /// The meld `turn` follows when the seat has just claimed a discard (a chow or pung: the
    /// turn then has no drawn tile and the claimed meld is the seat's last).
    fn just_claimed(&self, turn: &Turn) -> Option<Meld> {
        if turn.drawn.is_some() || turn.after_kong {
            return None;
        }
        self.seats[turn.seat]
            .melds
            .last()
            .map(|m| m.meld)
            .filter(|m| m.claimed.is_some() && !m.is_kong())
    }

    fn turn_flags(&self, turn: &Turn) -> WinFlags {
        WinFlags {
            kong_replacement: turn.after_kong,
            last_tile: turn.last_tile,
            ..self.base_flags(turn.seat)
        }
    }

    fn current_turn(&self) -> Option<Turn> {
        match &self.phase {
            Phase::Turn(t) => Some(*t),
            _ => None,
        }
    }

    /// Whether a kong's replacement tile can still be drawn.
    pub(super) fn can_replace(&self) -> bool {
        match self.ruleset.rules().flow().replacement_end {
            ReplacementEnd::Live => self.wall.drawable() > 0,
            ReplacementEnd::Tail => self.wall.remaining() > 0,
        }
    }

    pub(super) fn discard(&mut self, seat: Seat, tile: Tile) {
        let Some(turn) = self.current_turn() else {
            return;
        };
        let st = &mut self.seats[seat];
        st.concealed.remove(tile);
        st.discards.push(tile);
        st.has_discarded = true;
        self.discards_made += 1;
        if self.seabed.is_some() {
            // 海底捞月: a draw that did not win is laid down unclaimable; the next draw follows.
            self.emit(Audience::Everyone, EventKind::Discarded { seat, tile });
            self.seabed_draw(seat);
            return;
        }
        self.note_waiting(seat);
        let after_dealer = seat.distance_from(self.dealer, self.players);
        self.follow.discarded(after_dealer, tile);
        self.emit(Audience::Everyone, EventKind::Discarded { seat, tile });
        let window = ClaimWindow::for_discard(self, seat, tile, turn.after_kong);
        if window.is_empty() {
            self.advance_from(seat);
        } else {
            self.phase = Phase::Claims(Box::new(window));
        }
    }

    pub(super) fn self_draw_win(&mut self, seat: Seat) {
        let Some(turn) = self.current_turn() else {
            return;
        };
        let Some(tile) = turn.drawn else { return };
        let candidate = Win {
            seat,
            tile,
            from: None,
            flags: self.turn_flags(&turn),
        };
        let hand = self.seat_hand(seat, Some(tile));
        let Some((_, win)) = self.judge(&hand, candidate) else {
            return;
        };
        self.seats[seat].concealed.remove(tile);
        self.record_win(win, true);
        self.after_wins(seat);
    }

    /// Declares a concealed kong; where the family lets one be robbed, the seats that could
    /// rob it are asked first.
    pub(super) fn concealed_kong(&mut self, seat: Seat, tile: Tile) {
        if self.ruleset.rules().flow().concealed_kong_robbable {
            // Announced whether or not anyone could rob it, so the announcement tells nothing
            // about the other hands.
            self.emit(
                Audience::Everyone,
                EventKind::KongOffered { seat, tile: None },
            );
            let window = ClaimWindow::for_robbing(self, seat, tile, Offer::ConcealedKong);
            if !window.is_empty() {
                self.phase = Phase::Claims(Box::new(window));
                return;
            }
        }
        self.complete_concealed_kong(seat, tile);
    }

    /// Lays the concealed kong down once nobody robbed it, and draws the replacement.
    pub(super) fn complete_concealed_kong(&mut self, seat: Seat, tile: Tile) {
        for _ in 0..4 {
            self.seats[seat].concealed.remove(tile);
        }
        let meld = Meld {
            kind: MeldKind::Kong(KongKind::Concealed),
            tile,
            from: None,
            claimed: None,
        };
        self.place_meld(seat, meld);
        self.emit(
            Audience::Seat(seat),
            EventKind::Melded {
                seat,
                meld: Some(meld),
            },
        );
        self.emit(
            Audience::AllBut(seat),
            EventKind::Melded { seat, meld: None },
        );
        self.replacement_turn(seat);
    }

    pub(super) fn added_kong(&mut self, seat: Seat, tile: Tile) {
        // Announced whether or not anyone could rob it (see `concealed_kong`).
        let offered = Some(tile);
        self.emit(
            Audience::Everyone,
            EventKind::KongOffered {
                seat,
                tile: offered,
            },
        );
        let window = ClaimWindow::for_robbing(self, seat, tile, Offer::AddedKong);
        if window.is_empty() {
            self.complete_added_kong(seat, tile);
        } else {
            self.phase = Phase::Claims(Box::new(window));
        }
    }

    /// Turns the pung into a kong once nobody robbed it, and draws the replacement.
    pub(super) fn complete_added_kong(&mut self, seat: Seat, tile: Tile) {
        self.seats[seat].concealed.remove(tile);
        let in_play = self.in_play();
        let melds = &mut self.seats[seat].melds;
        let Some(index) = melds
            .iter()
            .position(|m| m.meld.kind == MeldKind::Pung && m.meld.tile == tile)
        else {
            return;
        };
        // The kong moves to the end of the list: the last kong listed is the one whose
        // replacement is drawn next (the settle format's convention for 杠上花).
        let mut placed = melds.remove(index);
        placed.meld.kind = MeldKind::Kong(KongKind::Added);
        placed.in_play = in_play;
        let meld = placed.meld;
        melds.push(placed);
        self.after_kong_declared();
        self.emit(
            Audience::Everyone,
            EventKind::Melded {
                seat,
                meld: Some(meld),
            },
        );
        self.replacement_turn(seat);
    }

    /// Adds a meld made now, recording who is still in play.
    pub(super) fn place_meld(&mut self, seat: Seat, meld: Meld) {
        self.follow.interrupted();
        let in_play = self.in_play();
        self.seats[seat].melds.push(PlacedMeld { meld, in_play });
        self.untouched = false;
        if meld.is_kong() {
            self.after_kong_declared();
        }
    }

    fn after_kong_declared(&mut self) {
        self.untouched = false;
        self.kongs_made += 1;
        let reserve = self.ruleset.rules().flow().reserve.after(self.kongs_made);
        self.wall.set_reserve(reserve);
    }

    /// The turn after a kong: a replacement draw.
    pub(super) fn replacement_turn(&mut self, seat: Seat) {
        // 三家杠荒牌: enough different seats have made kongs; the hand is drawn.
        if let Some(n) = self.ruleset.rules().flow().kongers_draw {
            let kongers = self
                .table_seats()
                .filter(|&s| self.seats[s].melds.iter().any(|m| m.meld.is_kong()))
                .count();
            if kongers >= n {
                self.finish(true);
                return;
            }
        }
        // A replacement draw is a draw: it lifts 过水 and 漏胡.
        self.seats[seat].lift_pass_restrictions();
        let replacement = self.replacement_for(seat, true);
        let forced_zone = self.in_forced_zone();
        match replacement {
            Replacement::Exhausted => self.finish(true),
            Replacement::FlowerWin => {}
            Replacement::Tile(t) => {
                self.phase = Phase::Turn(Turn {
                    seat,
                    drawn: Some(t),
                    after_kong: true,
                    last_tile: self.wall.drawable() == 0,
                    forced_zone,
                });
            }
        }
    }

    /// Whether a tile that has just appeared (drawn, or discarded) is one of the last tiles of
    /// the live wall in which a ready player must win: measured after the tile appeared, the
    /// live wall holds fewer than the family's number (最后四张: the tile is one of the last
    /// four drawn, or a discard made after one of them was drawn).
    pub(super) fn in_forced_zone(&self) -> bool {
        self.ruleset
            .rules()
            .flow()
            .forced_win_wall
            .is_some_and(|n| self.wall.drawable() < n)
    }

    /// `seat` draws in turn; an empty live wall ends the hand. Where the family lets the drawer
    /// of the last tile decline it, that seat is asked first.
    pub(super) fn draw_turn(&mut self, seat: Seat) {
        self.seats[seat].lift_pass_restrictions();
        if self.ruleset.rules().flow().last_tile.declinable && self.wall.drawable() == 1 {
            self.phase = Phase::LastDraw(seat);
            self.emit(Audience::Everyone, EventKind::LastOffered { seat });
            return;
        }
        self.draw_now(seat);
    }

    /// The seat asked about the last tile declined it: the hand is drawn.
    pub(super) fn decline_last(&mut self, seat: Seat) {
        self.emit(Audience::Everyone, EventKind::LastDeclined { seat });
        self.finish(true);
    }

    /// `seat` takes the next tile of the live wall.
    pub(super) fn draw_now(&mut self, seat: Seat) {
        let Some(mut tile) = self.wall.draw() else {
            self.wall_ran_out();
            return;
        };
        if tile.is_flower() {
            if self.set_flower_aside(seat, tile) {
                return;
            }
            match self.replacement_for(seat, true) {
                Replacement::Tile(t) => tile = t,
                Replacement::FlowerWin => return,
                Replacement::Exhausted => {
                    self.finish(true);
                    return;
                }
            }
        } else {
            self.take_drawn(seat, tile, false);
        }
        self.phase = Phase::Turn(Turn {
            seat,
            drawn: Some(tile),
            after_kong: false,
            last_tile: self.wall.drawable() == 0,
            forced_zone: self.in_forced_zone(),
        });
    }

    /// After a discard nobody claimed: the next seat still in play draws.
    pub(super) fn advance_from(&mut self, seat: Seat) {
        match self.next_in_play(seat) {
            Some(next) if next != seat => self.draw_turn(next),
            _ => self.finish(false),
        }
    }

    /// Records a win; `holds_tile` is false for the second and later winners of one discard.
    pub(super) fn record_win(&mut self, win: Win, holds_tile: bool) {
        let st = &mut self.seats[win.seat];
        st.won = Some(win);
        st.holds_win_tile = holds_tile;
        let concealed = st.concealed.to_tiles().into_boxed_slice();
        self.wins.push(win);
        self.emit(Audience::Everyone, EventKind::Won { win, concealed });
    }

    /// After wins: end the hand, or (血战) play on from the seat after `last_winner`.
    pub(super) fn after_wins(&mut self, last_winner: Seat) {
        let plays_on = self.ruleset.rules().flow().plays_on_after_win();
        if !plays_on || self.in_play().len() <= 1 {
            self.finish(false);
            return;
        }
        self.advance_from(last_winner);
    }
}
