//! Tile efficiency: shanten that respects a family's suit rules, what each seat can see, and the
//! useful tiles still unseen (受入).

use engine::shape::{self, Forms};
use engine::view::{MeldView, SeatView};
use engine::wall::TileSetKind;
use engine::{Meld, Suit, Tile, TileCounts};

/// Copies of each kind this seat can see: its own tiles, every discard, every open meld.
#[derive(Clone, Copy, Debug)]
pub struct Seen([u8; Tile::PLAYING_KINDS]);

impl Seen {
    /// What `view` shows.
    pub fn of(view: &SeatView) -> Seen {
        let mut seen = view.concealed.0;
        for seat in &view.seats {
            for &t in &seat.discards {
                bump(&mut seen, t);
            }
            for m in &seat.melds {
                if let MeldView::Open(meld) = m {
                    for t in meld.tiles() {
                        bump(&mut seen, t);
                    }
                }
            }
        }
        Seen(seen)
    }

    /// Copies of `t` seen.
    pub fn get(&self, t: Tile) -> u8 {
        self.0.get(t.index()).copied().unwrap_or(0)
    }

    /// Copies of `t` not seen: still in the wall or in other hands.
    pub fn unseen(&self, set: TileSetKind, t: Tile) -> u8 {
        set.copies(t).saturating_sub(self.get(t))
    }
}

#[cfg(test)]
impl Seen {
    /// Nothing seen but `hand` (tests).
    pub(crate) fn of_hand(hand: &TileCounts) -> Seen {
        Seen(hand.0)
    }
}

fn bump(seen: &mut [u8; Tile::PLAYING_KINDS], t: Tile) {
    if let Some(n) = seen.get_mut(t.index()) {
        *n = n.saturating_add(1);
    }
}

/// The shapes a hand aims for and the suits it must do without.
#[derive(Clone, Copy, Debug)]
pub struct Goal {
    /// Winning shapes of the family.
    pub forms: Forms,
    /// Suits whose tiles cannot stay in a winning hand (a declared 定缺, or a suit given up for
    /// 缺一门 or for a flush). `None` entries are unused.
    pub without: [Option<Suit>; 2],
    /// The wild kind (惠牌), whose copies stand for any tile.
    pub wild: Option<Tile>,
}

impl Goal {
    /// The family's plain goal for this view. Where a winning hand must lack a suit but none is
    /// declared (成都 standard), the suit given up is chosen now: the one whose loss leaves the
    /// hand closest to ready, the shorter on a tie.
    pub fn plain(view: &SeatView) -> Goal {
        let sichuan = view.tile_set == TileSetKind::Suits108;
        let wild = view.wild.map(|w| w.wild);
        let forms = if wild.is_some() {
            view.ruleset.rules().flow().forms
        } else if sichuan {
            Forms::STANDARD.with(Forms::SEVEN_PAIRS)
        } else {
            Forms::STANDARD
                .with(Forms::SEVEN_PAIRS)
                .with(Forms::THIRTEEN_ORPHANS)
        };
        let mut goal = Goal {
            forms,
            without: [view.own_void, None],
            wild,
        };
        if sichuan && view.own_void.is_none() {
            let melds = meld_count(view);
            let hand = view.concealed;
            let give_up = Suit::NUMBERED.into_iter().min_by_key(|&s| {
                let shanten = shape::shanten(&strip(&hand, [Some(s), None]), melds, forms);
                (shanten, hand.suit_total(s))
            });
            goal.without[0] = give_up;
        }
        goal
    }

    /// The same goal, also doing without `suit`.
    pub fn also_without(mut self, suit: Suit) -> Goal {
        if self.without[0].is_none() {
            self.without[0] = Some(suit);
        } else {
            self.without[1] = Some(suit);
        }
        self
    }

    /// Shanten of `hand` towards this goal: tiles of a suit done without count as missing.
    pub fn shanten(&self, hand: &TileCounts, melds: u8) -> i8 {
        let mut natural = strip(hand, self.without);
        match self.wild {
            Some(w) if natural.get(w) > 0 => {
                let wilds = natural.get(w);
                natural[w] = 0;
                shape::shanten_with_wilds(&natural, wilds, melds, self.forms)
            }
            _ => shape::shanten(&natural, melds, self.forms),
        }
    }

    /// Useful tiles of a 3k+1 hand: unseen copies of every kind that lowers its shanten.
    pub fn useful(&self, hand: &TileCounts, melds: u8, seen: &Seen, set: TileSetKind) -> u32 {
        let now = self.shanten(hand, melds);
        let mut total = 0;
        let mut h = *hand;
        for t in Tile::playing() {
            let left = seen.unseen(set, t);
            if left == 0 || hand.get(t) >= 4 || self.without.contains(&Some(t.suit())) {
                continue;
            }
            h.add(t);
            if self.shanten(&h, melds) < now {
                total += u32::from(left);
            }
            h.remove(t);
        }
        total
    }
}

/// The hand without the tiles of the given suits.
fn strip(hand: &TileCounts, suits: [Option<Suit>; 2]) -> TileCounts {
    let mut c = *hand;
    for suit in suits.into_iter().flatten() {
        if let Some(i) = suit.numbered_index() {
            for n in &mut c.0[9 * i..9 * i + 9] {
                *n = 0;
            }
        }
    }
    c
}

/// One discard and what it leaves.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// The tile discarded.
    pub tile: Tile,
    /// Shanten after it.
    pub shanten: i8,
    /// Useful tiles after it (computed for the best candidates only, else 0).
    pub useful: u32,
}

/// Scores every discard: shanten for all, and, given what the seat has seen, useful tiles for
/// those at the best shanten (without `seen`, useful tiles stay 0).
pub fn candidates(
    view: &SeatView,
    discards: &[Tile],
    goal: &Goal,
    seen: Option<&Seen>,
) -> Vec<Candidate> {
    let hand = view.concealed;
    let melds = meld_count(view);
    let mut out: Vec<Candidate> = discards
        .iter()
        .map(|&tile| {
            let mut h = hand;
            h.remove(tile);
            Candidate {
                tile,
                shanten: goal.shanten(&h, melds),
                useful: 0,
            }
        })
        .collect();
    let Some(seen) = seen else { return out };
    let best = out.iter().map(|c| c.shanten).min().unwrap_or(0);
    for c in &mut out {
        if c.shanten == best {
            let mut h = hand;
            h.remove(c.tile);
            c.useful = goal.useful(&h, melds, seen, view.tile_set);
        }
    }
    out
}

/// Declared melds of this seat.
pub fn meld_count(view: &SeatView) -> u8 {
    view.seats
        .get(view.seat.index())
        .map_or(0, |s| s.melds.len() as u8)
}

/// What a ready 3k+1 hand is worth waiting on: for every kind that would make a legal win,
/// its unseen copies times what one payer would pay for that win (as a discard win; the family
/// scores it from this seat's own tiles only).
pub fn wait_value(view: &SeatView, hand: &TileCounts, seen: &Seen) -> i64 {
    wait_value_with(view, hand, &own_melds(view), seen)
}

/// This seat's declared melds (its own concealed kongs included: it sees their kind).
pub fn own_melds(view: &SeatView) -> Vec<Meld> {
    view.seats
        .get(view.seat.index())
        .map(|me| {
            me.melds
                .iter()
                .filter_map(|m| match m {
                    MeldView::Open(meld) => Some(*meld),
                    MeldView::HiddenKong => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// [`wait_value`] for the concealed `hand` with the declared `melds` (which may be a claim
/// being considered rather than the view's own).
pub fn wait_value_with(view: &SeatView, hand: &TileCounts, melds: &[Meld], seen: &Seen) -> i64 {
    wait_value_by(view, hand, melds, seen, &|_| 100)
}

/// [`wait_value_with`] with each wait's worth scaled by `weight(t)` percent.
/// The table a win would be judged at, past the seat's own view: how many play, the wild kind
/// and the face-up bonus kinds, which the planners fill in as their families need.
pub(crate) struct WinTable<'a> {
    pub(crate) players: u8,
    pub(crate) wild: Option<Tile>,
    pub(crate) bonus: &'a [Tile],
}

impl WinTable<'_> {
    /// The table of `view` as it is: its seats, its wild kind and its face-up bonus kinds.
    pub(crate) fn of(view: &SeatView) -> WinTable<'_> {
        WinTable {
            players: view.seats.len() as u8,
            wild: view.wild.map(|w| w.wild),
            bonus: &view.bonus,
        }
    }
}

/// This seat's hand as the engine's win check reads it: `hand` concealed, `melds` declared
/// (which may be a claim being considered rather than the view's own), its own flowers and
/// 定缺. `None` when the view lacks its own seat.
pub(crate) fn seat_hand(
    view: &SeatView,
    hand: &TileCounts,
    melds: &[Meld],
) -> Option<engine::settle::SeatHand> {
    use engine::settle::{PlacedMeld, SeatHand};
    let me = view.seats.get(view.seat.index())?;
    Some(SeatHand {
        concealed: *hand,
        melds: melds
            .iter()
            .map(|&meld| PlacedMeld {
                meld,
                in_play: engine::SeatSet::all(4),
            })
            .collect(),
        flowers: me.flowers.clone(),
        void: view.own_void,
    })
}

/// What `own` winning on `tile` pays by the engine's own verdict (`from`: the discarder, `None`
/// for a self-draw), in the family's payment for the hand's value; `None` when the engine does
/// not accept the win. The planners value waits only through this, so they price a wait exactly
/// as the table would.
pub(crate) fn win_payment(
    view: &SeatView,
    own: &engine::settle::SeatHand,
    tile: Tile,
    from: Option<engine::Seat>,
    table: &WinTable<'_>,
) -> Option<i64> {
    use engine::ruleset::WinCheck;
    use engine::settle::{Win, WinFlags};
    let win = Win {
        seat: view.seat,
        tile,
        from,
        flags: WinFlags::default(),
    };
    let check = WinCheck {
        hand: own,
        win: &win,
        dealer: view.dealer,
        round_wind: view.round_wind,
        players: table.players,
        wild: table.wild,
        bonus: table.bonus,
    };
    let rules = view.ruleset.rules();
    rules
        .evaluate_win(&check)
        .ok()
        .map(|s| rules.payment_for(s.value))
}

pub(crate) fn wait_value_by(
    view: &SeatView,
    hand: &TileCounts,
    melds: &[Meld],
    seen: &Seen,
    weight: &dyn Fn(Tile) -> i64,
) -> i64 {
    let Some(own) = seat_hand(view, hand, melds) else {
        return 0;
    };
    let rules = view.ruleset.rules();
    let from = Some(view.seat.next(view.seats.len().max(1) as u8));
    let table = WinTable::of(view);
    let mut total = 0;
    for t in Tile::playing() {
        let left = seen.unseen(view.tile_set, t);
        if left == 0 {
            continue;
        }
        if !rules.could_win(&own, t, table.wild) {
            continue;
        }
        if let Some(pays) = win_payment(view, &own, t, from, &table) {
            total += i64::from(left) * pays * weight(t);
        }
    }
    total / 100
}
