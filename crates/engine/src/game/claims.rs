//! The claim window after a discard, and the robbing window of a kong (an added one, or where
//! the family allows it a concealed one).
//!
//! Every seat with a claim is asked at once and answers once; the window resolves when all have
//! answered, by priority: win > pung / kong > chow. Several winners all win under 一炮多响;
//! otherwise the first in turn order after the discarder wins alone (head bump).

use super::{Game, Options, Phase, Turn};
use crate::action::Action;
use crate::event::{Audience, EventKind};
use crate::meld::{KongKind, Meld, MeldKind};
use crate::ruleset::MissedWin;
use crate::seat::{BySeat, Seat};
use crate::settle::Win;
use crate::tile::Tile;

/// What is on offer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Offer {
    /// A discard.
    Discard,
    /// The tile being added to a pung (抢杠).
    AddedKong,
    /// A concealed kong being declared, robbed only where the family allows it.
    ConcealedKong,
}

/// An open claim window.
#[derive(Clone, Debug)]
pub struct ClaimWindow {
    pub(crate) offer: Offer,
    pub(crate) from: Seat,
    pub(crate) tile: Tile,
    /// The discard followed the discarder's kong (杠上炮).
    pub(crate) after_kong: bool,
    pub(crate) options: BySeat<Options>,
    pub(crate) responses: BySeat<Option<Action>>,
    /// Each seat's would-be win: its value and the win itself.
    pub(crate) wins: BySeat<Option<(i64, Win)>>,
}

impl ClaimWindow {
    fn empty(offer: Offer, from: Seat, tile: Tile, after_kong: bool) -> Self {
        ClaimWindow {
            offer,
            from,
            tile,
            after_kong,
            options: BySeat::default(),
            responses: BySeat::default(),
            wins: BySeat::default(),
        }
    }

    /// The options each other seat has on a discard.
    pub(crate) fn for_discard(game: &Game, from: Seat, tile: Tile, after_kong: bool) -> Self {
        let mut w = ClaimWindow::empty(Offer::Discard, from, tile, after_kong);
        let rules = game.ruleset.rules();
        let forced = game.in_forced_zone();
        // Wilds never claim: a discarded wild is dead, and no chow is made with one.
        let wild = game.wild.map(|d| d.wild);
        if wild == Some(tile) {
            return w;
        }
        for seat in game
            .table_seats()
            .filter(|&s| s != from && game.seats[s].won.is_none())
        {
            let st = &game.seats[seat];
            let mut opts = Options::new();
            if let Some((value, win)) = w.win_for(game, seat) {
                w.wins[seat] = Some((value, win));
                if forced {
                    w.options[seat] = [Action::Win].into_iter().collect();
                    continue;
                }
                opts.push(Action::Win);
            }
            // 报听: the hand is locked; only a win may be taken.
            if st.ready.is_some() {
                if !opts.is_empty() {
                    opts.push(Action::Pass);
                }
                w.options[seat] = opts;
                continue;
            }
            let may = st.void != Some(tile.suit());
            let held = st.concealed.get(tile);
            if may && held >= 2 {
                opts.push(Action::Pung);
            }
            if may && held >= 3 && game.can_replace() {
                opts.push(Action::ExposedKong);
            }
            if rules.flow().chow && seat == from.next(game.players) {
                for low in chow_lows(tile) {
                    let [a, b, c] = run(low);
                    let others = [a, b, c].into_iter().filter(|&t| t != tile);
                    let natural = others.clone().all(|t| Some(t) != wild);
                    if others.clone().all(|t| st.concealed.get(t) > 0) && may && natural {
                        opts.push(Action::Chow { low });
                    }
                }
            }
            if !opts.is_empty() {
                opts.push(Action::Pass);
            }
            w.options[seat] = opts;
        }
        w
    }

    /// The seats that may rob a kong of `tile` by `from` (`offer`: added or concealed).
    pub(crate) fn for_robbing(game: &Game, from: Seat, tile: Tile, offer: Offer) -> Self {
        let mut w = ClaimWindow::empty(offer, from, tile, false);
        let forced = game.in_forced_zone();
        for seat in game
            .table_seats()
            .filter(|&s| s != from && game.seats[s].won.is_none())
        {
            if let Some((value, win)) = w.win_for(game, seat) {
                w.wins[seat] = Some((value, win));
                w.options[seat] = if forced {
                    [Action::Win].into_iter().collect()
                } else {
                    [Action::Win, Action::Pass].into_iter().collect()
                };
            }
        }
        w
    }

    /// Whether `seat` may win on the offered tile, honouring 过水 / 漏胡.
    fn win_for(&self, game: &Game, seat: Seat) -> Option<(i64, Win)> {
        let mut flags = game.base_flags(seat);
        flags.robbed_kong = self.offer != Offer::Discard;
        flags.robbed_concealed_kong = self.offer == Offer::ConcealedKong;
        flags.after_kong_discard = self.after_kong && self.offer == Offer::Discard;
        flags.last_tile = self.offer == Offer::Discard && game.wall.drawable() == 0;
        let win = Win {
            seat,
            tile: self.tile,
            from: Some(self.from),
            flags,
        };
        let (value, win) = game.judge(&game.seat_hand(seat, None), win)?;
        let st = &game.seats[seat];
        let allowed = match game.ruleset.rules().flow().missed_win {
            MissedWin::None => true,
            MissedWin::UntilDrawUnlessHigher => st.passed_win.is_none_or(|p| value > p),
            MissedWin::SameKindUntilOwnMove => !st.missed.contains(self.tile),
        };
        allowed.then_some((value, win))
    }

    /// Whether `seat` may see the offered tile: a discard and an added kong are face up, a
    /// concealed kong only to its declarer and to the seats that may rob it.
    pub(crate) fn shows_tile_to(&self, seat: Seat) -> bool {
        self.is_face_up() || seat == self.from || !self.options[seat].is_empty()
    }

    /// Whether everyone may see the offered tile: a discard or an added kong.
    pub(crate) fn is_face_up(&self) -> bool {
        self.offer != Offer::ConcealedKong
    }

    /// Whether nobody has anything to decide.
    pub(crate) fn is_empty(&self) -> bool {
        self.options.0.iter().all(|o| o.is_empty())
    }

    /// The options of `seat` if it has not answered yet.
    pub(crate) fn pending_options(&self, seat: Seat) -> Vec<Action> {
        if self.responses[seat].is_some() {
            return Vec::new();
        }
        self.options[seat].to_vec()
    }

    fn all_answered(&self) -> bool {
        self.options
            .iter()
            .all(|(s, o)| o.is_empty() || self.responses[s].is_some())
    }
}

/// Lowest tiles of the chows that could use `tile`.
fn chow_lows(tile: Tile) -> impl Iterator<Item = Tile> {
    let suit = tile.suit();
    let rank = tile.rank();
    (rank.saturating_sub(2).max(1)..=rank)
        .filter(move |&low| suit.is_numbered() && low + 2 <= 9)
        .filter_map(move |low| Tile::new(suit, low))
}

fn run(low: Tile) -> [Tile; 3] {
    let b = low.succ_in_run().unwrap_or(low);
    let c = b.succ_in_run().unwrap_or(b);
    [low, b, c]
}

impl Game {
    /// Records one seat's answer; resolves the window when everyone has answered.
    pub(super) fn respond(&mut self, seat: Seat, action: Action) {
        let Phase::Claims(window) = &mut self.phase else {
            return;
        };
        window.responses[seat] = Some(action);
        let passed_win = action != Action::Win && window.wins[seat].is_some();
        let (value, tile) = (window.wins[seat].map(|w| w.0), window.tile);
        let done = window.all_answered();
        if passed_win {
            let st = &mut self.seats[seat];
            st.passed_win = Some(
                st.passed_win
                    .map_or(value.unwrap_or(0), |p| p.max(value.unwrap_or(0))),
            );
            st.missed.insert(tile);
        }
        if action == Action::Pass {
            self.emit(Audience::Seat(seat), EventKind::Passed { seat });
        } else {
            // The seat is told its claim is in, so that its own stream says no decision is
            // owed while the window waits on others. Told every time, whether or not others
            // are still to answer: told only then, it would learn that another seat could
            // claim.
            self.emit(Audience::Seat(seat), EventKind::ClaimEntered { seat });
        }
        if done {
            let Phase::Claims(window) = std::mem::replace(&mut self.phase, Phase::Ended) else {
                return;
            };
            self.resolve(*window);
        }
    }

    fn resolve(&mut self, w: ClaimWindow) {
        let order: Vec<Seat> = (1..self.players)
            .map(|i| self.seat_after(w.from, i))
            .collect();
        let mut winners: Vec<Seat> = order
            .iter()
            .copied()
            .filter(|&s| w.responses[s] == Some(Action::Win))
            .collect();
        if !winners.is_empty() {
            if !self.ruleset.rules().flow().multi_win() {
                winners.truncate(1);
            }
            self.take_offered_tile(&w);
            let mut last = w.from;
            for (i, &s) in winners.iter().enumerate() {
                if let Some((_, win)) = w.wins[s] {
                    self.record_win(win, i == 0);
                    last = s;
                }
            }
            self.after_wins(last);
            return;
        }
        let claim = order.iter().copied().find_map(|s| match w.responses[s] {
            Some(a @ (Action::Pung | Action::ExposedKong)) => Some((s, a)),
            _ => None,
        });
        let chow = order.iter().copied().find_map(|s| match w.responses[s] {
            Some(a @ Action::Chow { .. }) => Some((s, a)),
            _ => None,
        });
        match (w.offer, claim.or(chow)) {
            (Offer::AddedKong, _) => self.complete_added_kong(w.from, w.tile),
            (Offer::ConcealedKong, _) => self.complete_concealed_kong(w.from, w.tile),
            (Offer::Discard, Some((seat, action))) => self.claim(seat, action, &w),
            (Offer::Discard, None) => self.advance_from(w.from),
        }
    }

    /// Removes the offered tile from where it lies: the discarder's pile or the kong
    /// declarer's hand.
    fn take_offered_tile(&mut self, w: &ClaimWindow) {
        match w.offer {
            Offer::Discard => {
                self.seats[w.from].discards.pop();
            }
            Offer::AddedKong | Offer::ConcealedKong => {
                self.seats[w.from].concealed.remove(w.tile);
            }
        }
    }

    fn claim(&mut self, seat: Seat, action: Action, w: &ClaimWindow) {
        self.take_offered_tile(w);
        let tile = w.tile;
        let (kind, low) = match action {
            Action::Pung => (MeldKind::Pung, tile),
            Action::ExposedKong => (MeldKind::Kong(KongKind::Exposed), tile),
            Action::Chow { low } => (MeldKind::Chow, low),
            _ => return,
        };
        let meld = Meld {
            kind,
            tile: low,
            from: Some(w.from),
            claimed: Some(tile),
        };
        let mut used = meld.tiles();
        if let Some(i) = used.iter().position(|&t| t == tile) {
            used.remove(i);
        }
        for t in used {
            self.seats[seat].concealed.remove(t);
        }
        // A claim is a move of one's own for 漏胡, but not a draw, so 过水 stays.
        self.seats[seat].missed = crate::tiles::TileSet::EMPTY;
        self.place_meld(seat, meld);
        self.emit(
            Audience::Everyone,
            EventKind::Melded {
                seat,
                meld: Some(meld),
            },
        );
        if meld.is_kong() {
            self.replacement_turn(seat);
        } else {
            self.phase = Phase::Turn(Turn {
                seat,
                drawn: None,
                after_kong: false,
                last_tile: false,
                forced_zone: false,
            });
        }
    }
}
