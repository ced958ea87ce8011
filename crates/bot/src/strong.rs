//! Goals and defence on top of efficiency. Every choice below was kept because it won in the
//! arena (`mahjong arena`, figures in docs/PERFORMANCE.md); the ones that lost are named too.
//!
//! - **Goals.** In the Sichuan family a flush (清一色) multiplies the hand (2 or 3 fan: ×4 or ×8),
//!   so in the 血战 presets a hand whose numbered tiles lean 70% to one suit gives up the other
//!   while that costs at most one step of shanten. In the standard preset, where the first win
//!   ends the hand, speed is worth more than the flush's 3 points: there it is not pursued.
//! - **Claims.** A pung is taken when the best discard after it keeps the hand's shanten (not
//!   only when it improves it): a claim is a free tile and the turn order skips to us. Kongs
//!   are taken whenever they keep shanten (each is a 根; kong money in 血战).
//! - **Two steps.** When not yet ready, the three most useful discards are scored one step
//!   further: for every useful draw, the best discard after it and the useful tiles that leaves.
//! - **Waits.** Among discards that leave the hand ready, the wait is chosen by what it would win
//!   (unseen copies × what a payer pays for that win), not by its tile count alone.
//! - **Defence.** A seat looks dangerous after several claims, after about eight turns, and late
//!   in the wall. Each discard gets a danger: none against a seat that cannot win on the tile's
//!   suit (its 定缺, or for 缺一门 the suit its melds or its discards have plainly given up),
//!   little when the other copies are nearly all visible or the seat threw the same kind, more
//!   for middle ranks. Danger decides among discards of equal shanten and usefulness. Folding to
//!   the safest tile when far from ready, or trading usefulness for safety, lost in the arena
//!   (bots here win fast, so a fold gives up more wins than it saves deal-ins) and is not done;
//!   so did following seven pairs whenever it is as close as a plain hand, weighing the second
//!   step's waits by value (no measurable change), and choosing among the top discards by
//!   rollouts of the bot's own next draws (24 sampled sequences: too noisy, it lost clearly),
//!   trading usefulness for safety at several rates, and choosing the 缺一门 suit by useful
//!   tiles rather than by length.
//! - **Guobiao** hands are decided in `guobiao.rs`: the 8-fan minimum makes a hand's fans part
//!   of how close it is to winning, so the plan there is measured against scoring targets.
//! - **Shanghai** hands are decided in `shanghai.rs`: only 碰碰胡, 混一色, 清一色 and the rows
//!   above them win, so the plan there is measured against those types and what they pay.
//! - **Suzhou** hands are decided in `suzhou.rs`: only its shapes count, a concealed hand
//!   follows seven pairs (8 fan against 平胡's 2) when they are closer or as close and worth
//!   more, one step from ready discards are compared two steps ahead (`speed.rs`), and an early
//!   discard win on a wide wait is let go for a self-draw that all three pay.
//! - **Wuhu** hands are decided in `wuhu.rs`: a win needs 8 tiles of one suit, so the plan
//!   there is measured against that as well as against shanten.
//! - **Ningbo** hands are decided in `ningbo.rs`: a win needs 4 台, so a ready hand is valued
//!   by the engine's own verdict on each wait, and a hand short of 台 in sight is a step further.
//! - **Guangdong** hands are decided in `guangdong.rs`: a win pays 2^fan, so flushes and pungs
//!   are weighed against speed (a fan is worth two thirds of a step), and under a room's 起胡 a
//!   hand whose fan in sight falls short is a step further for each fan it lacks.
//! - **Two-player** hands are decided in `two_player.rs`: speed first with fan as the tie-break,
//!   报听 for a concealed ready hand, and a concealed hand claims only to become ready. In the
//!   swap phase (开始时换牌) `swap.rs` gives back the dead, isolated tiles but the 花牌 kinds.

use engine::view::{PublicSeat, SeatView};
use engine::wall::{SeededRng, TileSetKind};
use engine::{Action, RulesetId, Seat, Suit, Tile};

use crate::Policy;
use crate::basic::{common_choice, discard_tiles, fallback, pick_lowest};
use crate::efficiency::{Candidate, Goal, Seen, candidates, meld_count, wait_value};
use crate::{beijing, guangdong, guobiao, ningbo, shanghai, suzhou, swap, two_player, wuhu};

/// Efficiency, goals and defence.
#[derive(Clone, Copy, Debug, Default)]
pub struct Strong;

/// Share of the hand's numbered tiles in one suit from which a flush is pursued.
const FLUSH_SHARE: f64 = 0.7;
/// Shanten a flush may cost against plain efficiency.
const FLUSH_SLACK: i8 = 1;
/// The live wall below which every opponent still in play is treated as possibly ready.
const LATE_WALL: usize = 16;
/// Turns (discards and claims) after which a seat may well be ready.
const READY_TURNS: usize = 8;

impl Policy for Strong {
    fn decide(&self, view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
        if let Some(a) = swap::decide(view, legal, swap::Keep::ConnectedAndBonus) {
            return a;
        }
        // Every preset named: a new preset does not compile until it says how it is played.
        match view.ruleset.id() {
            RulesetId::Guobiao | RulesetId::GuobiaoHouse => guobiao::decide(view, legal, rng),
            RulesetId::Shanghai => shanghai::decide(view, legal, rng),
            RulesetId::Beijing | RulesetId::Beijing2020 => beijing::decide(view, legal, rng),
            RulesetId::Wuhu => wuhu::decide(view, legal, rng),
            RulesetId::Suzhou => suzhou::decide(view, legal, rng),
            RulesetId::Ningbo => ningbo::decide(view, legal, rng),
            RulesetId::Guangdong => guangdong::decide(view, legal, rng),
            RulesetId::TwoPlayer => two_player::decide(view, legal, rng),
            RulesetId::Sichuan | RulesetId::SichuanXuezhan | RulesetId::SichuanXuezhan9 => {
                efficiency_with_flush(view, legal, rng)
            }
        }
    }
}

/// The Sichuan presets' play: efficiency with defence, going for a flush in 血战 where one is
/// near (a flush pays there, and nothing else asks for a shape).
fn efficiency_with_flush(view: &SeatView, legal: &[Action], rng: &mut SeededRng) -> Action {
    let plain = Goal::plain(view);
    let flush = if view.ruleset.rules().flow().plays_on_after_win() {
        flush_goal(view, &plain)
    } else {
        None
    };
    let goal = flush.unwrap_or(plain);
    if let Some(a) = common_choice(view, legal, &goal, true) {
        return a;
    }
    let discards = discard_tiles(legal);
    let seen = Seen::of(view);
    let mut scored = candidates(view, &discards, &goal, Some(&seen));
    if flush.is_some() {
        let plain_scored = candidates(view, &discards, &plain, Some(&seen));
        let plain_best = plain_scored.iter().map(|c| c.shanten).min();
        let flush_best = scored.iter().map(|c| c.shanten).min();
        if let (Some(p), Some(f)) = (plain_best, flush_best)
            && f > p + FLUSH_SLACK
        {
            scored = plain_scored;
        }
    }
    look_two_steps(view, &goal, &seen, &mut scored);
    value_ready_discards(view, &seen, &mut scored);
    safest_discard(view, &seen, &scored, legal, rng)
}

/// The discard of lowest shanten, then most useful tiles; danger from the seats that look ready
/// only breaks their ties, and remaining ties go to chance.
pub(crate) fn safest_discard(
    view: &SeatView,
    seen: &Seen,
    scored: &[Candidate],
    legal: &[Action],
    rng: &mut SeededRng,
) -> Action {
    let threat = threats(view);
    let key = |c: &Candidate| {
        let d = if threat.is_empty() {
            0.0
        } else {
            danger(c.tile, view, seen, &threat)
        };
        (c.shanten, std::cmp::Reverse(c.useful), (d * 1000.0) as i64)
    };
    match pick_lowest(scored, key, rng) {
        Some(tile) => Action::Discard { tile },
        None => fallback(legal, rng),
    }
}

/// The flush goal when the hand leans to one suit: give up the other numbered suits.
fn flush_goal(view: &SeatView, plain: &Goal) -> Option<Goal> {
    if view.tile_set != TileSetKind::Suits108 {
        return None;
    }
    let me = view.seats.get(view.seat.index())?;
    let mut per_suit = [0u32; 3];
    for t in view.concealed.to_tiles() {
        if let Some(i) = t.suit().numbered_index() {
            per_suit[i] += 1;
        }
    }
    for m in &me.melds {
        if let engine::view::MeldView::Open(meld) = m
            && let Some(i) = meld.tile.suit().numbered_index()
        {
            per_suit[i] += 3;
        }
    }
    let total: u32 = per_suit.iter().sum();
    let (main, &count) = per_suit.iter().enumerate().max_by_key(|&(_, n)| *n)?;
    if total == 0 || f64::from(count) < FLUSH_SHARE * f64::from(total) {
        return None;
    }
    // Melds outside the main suit make a flush impossible.
    let melded_elsewhere = me.melds.iter().any(|m| match m {
        engine::view::MeldView::Open(meld) => meld.tile.suit().numbered_index() != Some(main),
        engine::view::MeldView::HiddenKong => false,
    });
    if melded_elsewhere {
        return None;
    }
    let mut goal = *plain;
    for (i, suit) in Suit::NUMBERED.into_iter().enumerate() {
        if i != main && !goal.without.contains(&Some(suit)) {
            goal = goal.also_without(suit);
        }
    }
    Some(goal)
}

/// How threatening each other seat looks (0 = not at all): declared melds bring a seat near
/// ready, and so do the turns it has played and a late wall.
pub(crate) fn threats(view: &SeatView) -> Vec<(Seat, &PublicSeat, f64)> {
    Seat::ALL
        .into_iter()
        .zip(view.seats.iter())
        .filter(|(s, p)| *s != view.seat && p.won.is_none())
        .map(|(s, p)| {
            let turns = p.discards.len() + p.melds.len();
            let mut level = match p.melds.len() {
                0 | 1 => 0.0,
                2 => 1.0,
                _ => 2.0,
            };
            if turns >= READY_TURNS {
                level += 1.0 + (turns - READY_TURNS) as f64 / 4.0;
            }
            if view.wall_drawable < LATE_WALL {
                level += 1.0;
            }
            // A declared ready hand (报听, two-player) is ready.
            if p.ready {
                level += 3.0;
            }
            (s, p, level)
        })
        .filter(|&(_, _, level)| level > 0.0)
        .collect()
}

/// The suit a seat cannot win with: its declared 定缺; or, where a winning hand must lack a suit,
/// the third suit when its open melds show the other two, or the suit it has plainly been
/// throwing away.
fn dead_suit(seat: &PublicSeat, view: &SeatView) -> Option<Suit> {
    if seat.void.is_some() {
        return seat.void;
    }
    if view.tile_set != TileSetKind::Suits108 {
        return None;
    }
    let mut shown = [false; 3];
    for m in &seat.melds {
        if let engine::view::MeldView::Open(meld) = m
            && let Some(i) = meld.tile.suit().numbered_index()
        {
            shown[i] = true;
        }
    }
    match shown {
        [true, true, false] => return Some(Suit::Sou),
        [true, false, true] => return Some(Suit::Pin),
        [false, true, true] => return Some(Suit::Man),
        _ => {}
    }
    let mut thrown = [0usize; 3];
    for t in &seat.discards {
        if let Some(i) = t.suit().numbered_index() {
            thrown[i] += 1;
        }
    }
    let (most, &n) = thrown.iter().enumerate().max_by_key(|&(_, n)| *n)?;
    let second = thrown
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != most)
        .map(|(_, n)| *n)
        .max()?;
    (n >= 3 && n >= 2 * second.max(1) && !shown[most]).then(|| Suit::NUMBERED[most])
}

/// How dangerous discarding `tile` is, summed over the threatening seats.
pub(crate) fn danger(
    tile: Tile,
    view: &SeatView,
    seen: &Seen,
    threats: &[(Seat, &PublicSeat, f64)],
) -> f64 {
    let mut total = 0.0;
    for &(_, seat, level) in threats {
        if dead_suit(seat, view) == Some(tile.suit()) {
            continue;
        }
        let mut d = 1.0;
        if seen.get(tile) >= 3 {
            d *= 0.2;
        }
        if seat.discards.contains(&tile) {
            d *= 0.5;
        }
        if tile.suit().is_numbered() && (3..=7).contains(&tile.rank()) {
            d *= 1.3;
        }
        total += level * d;
    }
    total
}

/// Among discards that leave the hand ready, weigh the waits by what they would win: the
/// "useful" figure of a ready candidate becomes its wait value.
fn value_ready_discards(view: &SeatView, seen: &Seen, scored: &mut [Candidate]) {
    if scored.iter().all(|c| c.shanten != 0) {
        return;
    }
    for c in scored.iter_mut().filter(|c| c.shanten == 0) {
        let mut h = view.concealed;
        h.remove(c.tile);
        c.useful = u32::try_from(wait_value(view, &h, seen)).unwrap_or(u32::MAX);
    }
}

/// Two steps of efficiency for the most promising discards when the hand is not yet ready:
/// each useful draw is followed by its best discard, and the candidate is scored by the useful
/// tiles that leaves (weighted by the draw's unseen copies).
fn look_two_steps(view: &SeatView, goal: &Goal, seen: &Seen, scored: &mut [Candidate]) {
    let Some(best) = scored.iter().map(|c| c.shanten).min() else {
        return;
    };
    if best <= 0 {
        return;
    }
    let melds = meld_count(view);
    let mut order: Vec<usize> = (0..scored.len())
        .filter(|&i| scored[i].shanten == best)
        .collect();
    order.sort_by_key(|&i| std::cmp::Reverse(scored[i].useful));
    order.truncate(3);
    for i in order {
        let mut hand = view.concealed;
        hand.remove(scored[i].tile);
        let mut total = 0u64;
        for t in Tile::playing() {
            let left = seen.unseen(view.tile_set, t);
            if left == 0 || hand.get(t) >= 4 || goal.without.contains(&Some(t.suit())) {
                continue;
            }
            let mut drawn = hand;
            drawn.add(t);
            if goal.shanten(&drawn, melds) >= best {
                continue;
            }
            let mut after = 0;
            for d in drawn.kinds().iter() {
                let mut h = drawn;
                h.remove(d);
                if goal.shanten(&h, melds) < best {
                    after = after.max(goal.useful(&h, melds, seen, view.tile_set));
                }
            }
            total += u64::from(left) * u64::from(after);
        }
        scored[i].useful = u32::try_from(total / 4)
            .unwrap_or(u32::MAX)
            .max(scored[i].useful);
    }
}
