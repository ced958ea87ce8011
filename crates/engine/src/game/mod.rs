//! The hand state machine: one path for every change.
//!
//! [`Game::legal_actions`] lists what a seat may do now; [`Game::apply`] either performs one of
//! those actions and returns the events it caused, or returns [`GameError::IllegalAction`] and
//! changes nothing. Server validation, bots, the CLI and replays all go through these two calls.
//! Draws, flower replacements and kong replacements are performed by the engine itself.
//!
//! The shared flow (deal, 开始时换牌, 定缺, draw, discard, the claim window with priorities, chow, pung,
//! kongs and replacements, robbing an added kong, multi-win or head bump, 血战 play-on,
//! exhaustive draw) lives here once; the rule family answers the questions that differ through
//! [`crate::ruleset::Rules`].

mod claims;
mod deal;
mod finish;
mod follow;
mod read;
mod ready;
mod swap;
mod turn;

use arrayvec::ArrayVec;
use thiserror::Error;

use crate::action::Action;
use crate::event::{Audience, Event, EventKind};
use crate::ruleset::{Ruleset, WinCheck};
use crate::seat::{BySeat, Seat, SeatSet, Wind};
use crate::settle::{Carried, PlacedMeld, SeatHand, SettleError, Settlement, Win, WinFlags};
use crate::tile::{Suit, Tile};
use crate::tiles::TileCounts;
use crate::wall::{SeededRng, Wall, WildDraw};

pub use claims::ClaimWindow;

/// A list of legal actions; a seat never has more than this many choices.
pub type ActionList = Vec<Action>;

/// Why an action was refused. The game is unchanged after any error.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum GameError {
    /// The action is not among the seat's legal actions now.
    #[error("seat {seat} may not {action} now (legal: {legal})")]
    IllegalAction {
        /// The seat.
        seat: Seat,
        /// The refused action.
        action: Action,
        /// What the seat may do instead, in words.
        legal: String,
    },
    /// The seat is not at this table.
    #[error("seat {0} is not at this table")]
    NoSuchSeat(Seat),
    /// The hand is over.
    #[error("the hand is over")]
    HandOver,
    /// A settlement was asked of a hand still in play.
    #[error("the hand is not finished")]
    NotFinished,
    /// A hand dealt by another table (or before this table's last hand) was handed in.
    #[error("the hand was not dealt by this table in its current state")]
    NotThisTable,
}

/// Per-seat state during a hand.
#[derive(Clone, Debug, Default)]
pub(crate) struct SeatState {
    pub concealed: TileCounts,
    pub melds: Vec<PlacedMeld>,
    pub flowers: Vec<Tile>,
    /// Discards still lying in front of the seat (claimed ones are taken away).
    pub discards: Vec<Tile>,
    pub void: Option<Suit>,
    /// Set when the seat has won (血战: it then leaves play).
    pub won: Option<Win>,
    /// Whether this seat's winning tile is counted in the census (once per discard).
    pub holds_win_tile: bool,
    pub has_discarded: bool,
    /// 过水: the value of a win this seat passed since its last draw.
    pub passed_win: Option<i64>,
    /// 漏胡: kinds this seat passed a win on since its last own move.
    pub missed: crate::tiles::TileSet,
    /// 报听: declared, and when (two-player).
    pub ready: Option<ready::Declared>,
    /// The discard count at which the seat's hand last became waiting and has stayed so
    /// (two-player's first-ready rule); `None` while not waiting.
    pub waiting_since: Option<u32>,
}

impl SeatState {
    /// A draw of the seat's own (in turn, or a replacement) ends 过水 and 漏胡.
    pub(crate) fn lift_pass_restrictions(&mut self) {
        self.passed_win = None;
        self.missed = crate::tiles::TileSet::EMPTY;
    }
}

/// The phase of a hand. Each variant holds exactly what that phase needs.
#[derive(Clone, Debug)]
pub(crate) enum Phase {
    /// 定缺: every seat chooses a void suit.
    DeclareVoid,
    /// 开始时换牌: every seat, once, exchanges dealt tiles (see `swap.rs`).
    Swap(Box<swap::Swapping>),
    /// A seat's own turn.
    Turn(Turn),
    /// Other seats may claim a discard or rob a kong.
    Claims(Box<ClaimWindow>),
    /// The seat due to draw the last drawable tile (海底) chooses whether to draw it.
    LastDraw(Seat),
    /// The hand is over.
    Ended,
}

/// A seat's own turn.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    pub seat: Seat,
    /// The tile just drawn (or dealt as the dealer's 14th); `None` after a claim.
    pub drawn: Option<Tile>,
    /// The draw was a kong replacement (杠上开花 possible, 杠上炮 on the discard).
    pub after_kong: bool,
    /// The draw emptied the live wall (海底).
    pub last_tile: bool,
    /// The live wall was within the forced-win zone when the tile was drawn.
    pub forced_zone: bool,
}

/// What a replacement draw brought the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Replacement {
    /// A tile for the hand.
    Tile(Tile),
    /// Nothing: the wall is empty.
    Exhausted,
    /// A flower that won outright (八花齐); the hand is over.
    FlowerWin,
}

/// One hand in play.
#[derive(Clone, Debug)]
pub struct Game {
    ruleset: Ruleset,
    seed: u64,
    players: u8,
    dealer: Seat,
    round_wind: Wind,
    dice: [u8; 2],
    wall: Wall,
    carried: Carried,
    seats: BySeat<SeatState>,
    phase: Phase,
    /// No claim or kong has interrupted the first go-around yet.
    untouched: bool,
    kongs_made: u32,
    wins: Vec<Win>,
    events: Vec<Event>,
    actions: Vec<(Seat, Action)>,
    outcome: Option<Result<Settlement, SettleError>>,
    exhausted: bool,
    /// The dealer's 14th tile, its "draw" of the first turn (天胡).
    opening_tile: Option<Tile>,
    /// Each seat's legal actions in the current state.
    legal: BySeat<ActionList>,
    /// The indicator turned up after the deal and the wild kind, where the family has one.
    wild: Option<WildDraw>,
    /// Go-arounds following the dealer's discard (烧庄), where the family counts them.
    follow: follow::Follow,
    /// The tiles turned up as bonus indicators (two-player 花牌), in order.
    bonus: Vec<Tile>,
    /// Discards made so far in the hand (the clock of the first-ready rule).
    discards_made: u32,
    /// The 海底捞月 phase, once the wall has run out (two-player).
    seabed: Option<ready::Seabed>,
}

impl Game {
    /// Deals a new hand: shuffles the wall from `seed`, rolls the dice, breaks the wall, deals
    /// 13 tiles to each seat and a 14th to the dealer, and replaces flowers.
    pub fn new(
        ruleset: Ruleset,
        seed: u64,
        dealer: Seat,
        round_wind: Wind,
        carried: Carried,
    ) -> Game {
        let rules = ruleset.rules();
        let players = rules.flow().players;
        let mut rng = SeededRng::new(seed);
        let mut wall = Wall::shuffled(rules.flow().tiles, &mut rng, rules.flow().replacement_end);
        if let Some(keep) = rules.flow().wall_tiles {
            wall.set_aside_unused(keep);
        }
        let dice = [rng.die(), rng.die()];
        let stacks = rules.flow().wall_break.stacks(dice);
        wall.break_at(deal::break_position(dice, stacks, wall.remaining()));
        wall.set_reserve(rules.flow().reserve.after(0));
        let mut game = Game {
            ruleset,
            seed,
            players,
            dealer,
            round_wind,
            dice,
            wall,
            carried,
            seats: BySeat::default(),
            phase: Phase::Ended,
            untouched: true,
            kongs_made: 0,
            wins: Vec::new(),
            events: Vec::new(),
            actions: Vec::new(),
            outcome: None,
            exhausted: false,
            opening_tile: None,
            legal: BySeat::default(),
            wild: None,
            follow: follow::Follow::default(),
            bonus: Vec::new(),
            discards_made: 0,
            seabed: None,
        };
        game.deal();
        game.run_automatic();
        game.refresh_legal();
        game
    }

    fn rules_declare_void(&self) -> bool {
        self.ruleset.rules().flow().declares_void()
    }

    /// What `seat` may do now. Empty when it is not asked for anything.
    ///
    /// This is the one source of truth for legality: [`Game::apply`] accepts exactly these.
    /// The lists are computed once per change of state and kept.
    pub fn legal_actions(&self, seat: Seat) -> &[Action] {
        self.legal.0.get(seat.index()).map_or(&[], Vec::as_slice)
    }

    fn refresh_legal(&mut self) {
        self.legal = BySeat::from_fn(|s| self.compute_legal(s));
    }

    fn compute_legal(&self, seat: Seat) -> ActionList {
        if seat.index() >= usize::from(self.players) {
            return Vec::new();
        }
        match &self.phase {
            Phase::Ended => Vec::new(),
            Phase::DeclareVoid => {
                if self.seats[seat].void.is_some() {
                    Vec::new()
                } else {
                    Suit::NUMBERED
                        .iter()
                        .map(|&suit| Action::DeclareVoid { suit })
                        .collect()
                }
            }
            Phase::Swap(swap) => self.swap_actions(swap, seat),
            Phase::Turn(turn) if turn.seat == seat => self.turn_actions(turn),
            Phase::Turn(_) => Vec::new(),
            Phase::Claims(window) => window.pending_options(seat),
            Phase::LastDraw(s) if *s == seat => vec![Action::DrawLast, Action::DeclineLast],
            Phase::LastDraw(_) => Vec::new(),
        }
    }

    /// Seats that currently have a decision to make.
    pub fn to_act(&self) -> SeatSet {
        self.table_seats()
            .filter(|&s| !self.legal_actions(s).is_empty())
            .collect()
    }

    /// Performs `action` for `seat`, returning the events it caused.
    ///
    /// # Errors
    /// [`GameError`] when the action is not legal now; the game is then unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, GameError> {
        if seat.index() >= usize::from(self.players) {
            return Err(GameError::NoSuchSeat(seat));
        }
        if matches!(self.phase, Phase::Ended) {
            return Err(GameError::HandOver);
        }
        let legal = self.legal_actions(seat);
        if !legal.contains(&action) {
            let legal = legal.to_vec();
            let legal = if legal.is_empty() {
                "nothing: it is not this seat's decision".to_owned()
            } else {
                legal
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(GameError::IllegalAction {
                seat,
                action,
                legal,
            });
        }
        let first_new = self.events.len();
        self.actions.push((seat, action));
        match action {
            Action::DeclareVoid { suit } => self.declare_void(seat, suit),
            Action::Discard { tile } => self.discard(seat, tile),
            Action::SelfDrawWin => self.self_draw_win(seat),
            Action::ConcealedKong { tile } => self.concealed_kong(seat, tile),
            Action::AddedKong { tile } => self.added_kong(seat, tile),
            Action::Win | Action::Pung | Action::ExposedKong | Action::Chow { .. } => {
                self.respond(seat, action)
            }
            Action::Pass => self.pass(seat),
            Action::DeclareReady { tile } => self.declare_ready(seat, tile),
            Action::DrawLast => self.draw_now(seat),
            Action::DeclineLast => self.decline_last(seat),
            Action::SwapMark { tile } => self.swap_mark(seat, tile),
            Action::SwapDone => self.swap_done(seat),
        }
        self.run_automatic();
        self.refresh_legal();
        Ok(self.events[first_new..].to_vec())
    }

    fn declare_void(&mut self, seat: Seat, suit: Suit) {
        self.seats[seat].void = Some(suit);
        self.emit(Audience::Seat(seat), EventKind::VoidChosen { seat, suit });
        if self.table_seats().all(|s| self.seats[s].void.is_some()) {
            let voids = self.seats.map(|_, s| s.void);
            self.emit(Audience::Everyone, EventKind::VoidsRevealed { voids });
            let drawn = self.opening_tile;
            self.phase = Phase::Turn(Turn {
                seat: self.dealer,
                drawn,
                after_kong: false,
                last_tile: false,
                forced_zone: false,
            });
        }
    }

    // ----- shared helpers -------------------------------------------------------------------

    pub(crate) fn emit(&mut self, audience: Audience, kind: EventKind) {
        self.events.push(Event { audience, kind });
    }

    /// The seats at this table.
    pub fn table_seats(&self) -> impl Iterator<Item = Seat> + use<> {
        Seat::ALL.into_iter().take(usize::from(self.players))
    }

    fn seat_after(&self, seat: Seat, steps: u8) -> Seat {
        let mut s = seat;
        for _ in 0..steps {
            s = s.next(self.players);
        }
        s
    }

    /// The next seat after `seat` that is still playing (not won).
    fn next_in_play(&self, seat: Seat) -> Option<Seat> {
        let mut s = seat;
        for _ in 0..self.players {
            s = s.next(self.players);
            if self.seats[s].won.is_none() {
                return Some(s);
            }
        }
        None
    }

    /// Seats that have not won.
    pub fn in_play(&self) -> SeatSet {
        self.table_seats()
            .filter(|&s| self.seats[s].won.is_none())
            .collect()
    }

    /// Draws a replacement for a flower or kong, setting further flowers aside; in play
    /// (`in_play`, not during the deal's 补花) a flower that completes a win of flowers (八花齐)
    /// ends the drawing there.
    fn replacement_for(&mut self, seat: Seat, in_play: bool) -> Replacement {
        loop {
            let Some(t) = self.wall.draw_replacement() else {
                return Replacement::Exhausted;
            };
            if t.is_flower() {
                if in_play && self.set_flower_aside(seat, t) {
                    return Replacement::FlowerWin;
                }
                if !in_play {
                    self.emit(
                        Audience::Everyone,
                        EventKind::FlowerReplaced {
                            seat,
                            flower: t,
                            dealt: false,
                        },
                    );
                    self.seats[seat].flowers.push(t);
                }
                continue;
            }
            self.take_drawn(seat, t, true);
            return Replacement::Tile(t);
        }
    }

    /// Sets a flower aside for `seat` (补花) and, when it is the last of the flowers the family
    /// lets win outright (八花齐: it "wins at once, even mid-turn"), records that self-drawn win
    /// and ends the hand. Returns whether it did; the engine performs this itself, as it does
    /// every flower replacement, since no player would decline it.
    pub(super) fn set_flower_aside(&mut self, seat: Seat, flower: Tile) -> bool {
        self.emit(
            Audience::Everyone,
            EventKind::FlowerReplaced {
                seat,
                flower,
                dealt: false,
            },
        );
        if self.flower_wins(seat, flower) {
            return true;
        }
        self.seats[seat].flowers.push(flower);
        false
    }

    /// Records `flower` as `seat`'s winning tile when the family lets it win (八花齐) and ends
    /// the hand; the flower is then the win's tile, not one of the seat's set-aside flowers.
    pub(super) fn flower_wins(&mut self, seat: Seat, flower: Tile) -> bool {
        let hand = self.seat_hand(seat, None);
        let candidate = Win {
            seat,
            tile: flower,
            from: None,
            flags: self.base_flags(seat),
        };
        match self.judge(&hand, candidate) {
            Some((_, win)) => {
                self.record_win(win, true);
                self.after_wins(seat);
                true
            }
            None => false,
        }
    }

    /// The hand a win check sees for `seat`: its concealed tiles (without `tile` when the tile
    /// is already in hand) and melds.
    pub(crate) fn seat_hand(&self, seat: Seat, without: Option<Tile>) -> SeatHand {
        let st = &self.seats[seat];
        let mut concealed = st.concealed;
        if let Some(t) = without {
            concealed.remove(t);
        }
        SeatHand {
            concealed,
            melds: st.melds.clone(),
            flowers: st.flowers.clone(),
            void: st.void,
        }
    }

    /// The family's verdict on a candidate win: its value, and the win with every flag set.
    pub(crate) fn judge(&self, hand: &SeatHand, mut win: Win) -> Option<(i64, Win)> {
        let rules = self.ruleset.rules();
        if !rules.could_win(hand, win.tile, self.wild.map(|w| w.wild)) {
            return None;
        }
        // A claimed winning tile (a discard, or the robbed kong's fourth) is on the table
        // itself; 和绝张 counts the other three.
        let own = usize::from(win.from.is_some());
        win.flags.last_of_kind = self.visible_copies(win.tile).saturating_sub(own) >= 3;
        let check = WinCheck {
            hand,
            win: &win,
            dealer: self.dealer,
            round_wind: self.round_wind,
            players: self.players,
            wild: self.wild.map(|w| w.wild),
            bonus: &self.bonus,
        };
        rules.evaluate_win(&check).ok().map(|s| (s.value, win))
    }

    /// Flags common to every win at this moment (和绝张 is added by [`Game::judge`]).
    pub(crate) fn base_flags(&self, seat: Seat) -> WinFlags {
        let ready = self.seats[seat].ready;
        WinFlags {
            first_turn: self.untouched && !self.seats[seat].has_discarded,
            declared_ready: ready.is_some(),
            ready_first_turn: ready.is_some_and(|r| r.first_turn),
            seabed: self.seabed.is_some(),
            ..WinFlags::default()
        }
    }

    /// Copies of `tile` visible to everyone: discards on the table and exposed melds.
    fn visible_copies(&self, tile: Tile) -> usize {
        let mut n = 0;
        for s in self.table_seats() {
            let st = &self.seats[s];
            n += st.discards.iter().filter(|&&t| t == tile).count();
            for m in &st.melds {
                if !m.meld.is_concealed() {
                    n += m.meld.tiles().iter().filter(|&&t| t == tile).count();
                }
            }
        }
        n
    }
}

/// A list of up to eight claim options for one seat.
pub(crate) type Options = ArrayVec<Action, 8>;

#[cfg(test)]
mod beijing_tests;
#[cfg(test)]
mod guangdong_tests;
#[cfg(test)]
mod ningbo_tests;
#[cfg(test)]
mod shanghai_tests;
#[cfg(test)]
mod sichuan_tests;
#[cfg(test)]
mod suzhou_tests;
#[cfg(test)]
mod swap_tests;
#[cfg(test)]
mod testkit;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod two_player_tests;
#[cfg(test)]
mod wuhu_tests;
