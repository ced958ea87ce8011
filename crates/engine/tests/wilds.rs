//! Wild-tile shape analysis against brute force: for random hands with 0–4 wilds (a wild kind
//! the hand holds no natural copy of, as in Beijing where every copy of the 惠牌 is wild), the
//! engine's verdicts (`is_complete_with_wilds`) and waits (`waits_with_wilds`) must equal those
//! found by trying every substitution of the wilds — every multiset of kinds they could stand
//! for, never a fifth copy — through the plain, wild-free kernels.
//!
//! `WILD_HANDS` sets the number of hands of each kind (complete-or-not, waiting; default
//! 40,000 each).

mod knobs;

use engine::shape::{self, Forms};
use engine::wall::SeededRng;
use engine::{Tile, TileCounts, TileSet};

const FORMS: Forms = Forms::STANDARD.with(Forms::SEVEN_PAIRS);

fn hands() -> usize {
    knobs::count("WILD_HANDS", 40_000, 10_000) as usize
}

/// Calls `f` with `natural` plus every multiset of `wilds` kinds it could stand for (kinds from
/// `start` on, so each multiset comes once), until `f` says stop. Returns whether it stopped.
fn substitutions(
    natural: &mut TileCounts,
    wilds: u8,
    start: usize,
    f: &mut impl FnMut(&TileCounts) -> bool,
) -> bool {
    if wilds == 0 {
        return f(natural);
    }
    for k in start..Tile::PLAYING_KINDS {
        if natural.0[k] < 4 {
            natural.0[k] += 1;
            let stop = substitutions(natural, wilds - 1, k, f);
            natural.0[k] -= 1;
            if stop {
                return true;
            }
        }
    }
    false
}

fn brute_complete(natural: &TileCounts, wilds: u8, melds: u8) -> bool {
    let mut c = *natural;
    substitutions(&mut c, wilds, 0, &mut |h| {
        shape::is_complete(h, melds, FORMS)
    })
}

/// Natural kinds other than the wild kind that complete the hand.
fn brute_waits(natural: &TileCounts, wilds: u8, melds: u8, wild: Tile) -> TileSet {
    let mut out = TileSet::EMPTY;
    let mut c = *natural;
    substitutions(&mut c, wilds, 0, &mut |h| {
        out = out.union(shape::waits(h, melds, FORMS));
        false
    });
    without(out, wild)
}

fn without(set: TileSet, t: Tile) -> TileSet {
    let mut out = TileSet::EMPTY;
    for k in set.iter().filter(|&k| k != t) {
        out.insert(k);
    }
    out
}

/// A wild count: mostly few, as in play, but every count well represented.
fn wild_count(rng: &mut SeededRng) -> u8 {
    match rng.below(100) {
        0..25 => 0,
        25..50 => 1,
        50..75 => 2,
        75..92 => 3,
        _ => 4,
    }
}

fn kind(rng: &mut SeededRng) -> Tile {
    Tile::from_index(rng.below(Tile::PLAYING_KINDS as u32) as u8).expect("a playing kind")
}

/// `size` natural tiles beside `melds` melds: most built from a complete hand (or seven pairs)
/// with tiles dropped (for the wilds, and one more for a waiting hand) and sometimes one
/// swapped, the rest at random. Returns the natural counts and the wild kind (held by no
/// natural tile).
fn random_hand(rng: &mut SeededRng, melds: u8, size: u32) -> (TileCounts, Tile) {
    let mut c = TileCounts::default();
    let target = 14 - 3 * u32::from(melds);
    let built = rng.below(10) < 7;
    while built && c.total() < target {
        let left = target - c.total();
        let t = kind(rng);
        let seven = target == 14 && rng.below(5) == 0;
        if seven || left == 2 {
            if c.get(t) <= 2 {
                c.add(t);
                c.add(t);
            }
        } else if rng.below(2) == 0 {
            if c.get(t) <= 1 {
                (0..3).for_each(|_| c.add(t));
            }
        } else if let (Some(b), true) = (t.succ_in_run(), true)
            && let Some(d) = b.succ_in_run()
            && [t, b, d].iter().all(|&x| c.get(x) < 4)
        {
            c.add(t);
            c.add(b);
            c.add(d);
        }
    }
    while c.total() < target {
        let t = kind(rng);
        if c.get(t) < 4 {
            c.add(t);
        }
    }
    while c.total() > target {
        let tiles = c.to_tiles();
        c.remove(tiles[rng.below(tiles.len() as u32) as usize]);
    }
    // Down to the size asked for, then wilds in place of some tiles.
    for _ in 0..target - size {
        let tiles = c.to_tiles();
        let t = tiles[rng.below(tiles.len() as u32) as usize];
        c.remove(t);
    }
    if built && rng.below(4) == 0 {
        let tiles = c.to_tiles();
        if !tiles.is_empty() {
            c.remove(tiles[rng.below(tiles.len() as u32) as usize]);
            loop {
                let t = kind(rng);
                if c.get(t) < 4 {
                    c.add(t);
                    break;
                }
            }
        }
    }
    // The wild kind: one the hand holds no natural copy of.
    let wild = loop {
        let t = kind(rng);
        if c.get(t) == 0 {
            break t;
        }
    };
    (c, wild)
}

#[test]
fn verdicts_match_brute_force() {
    let mut rng = SeededRng::new(2024);
    let mut complete = [0usize; 5];
    for i in 0..hands() {
        let wilds = wild_count(&mut rng);
        let melds = if rng.below(4) == 0 {
            rng.below(3) as u8
        } else {
            0
        };
        let size = 14 - 3 * u32::from(melds) - u32::from(wilds);
        let (natural, _) = random_hand(&mut rng, melds, size);
        let engine = shape::is_complete_with_wilds(&natural, wilds, melds, FORMS);
        let brute = brute_complete(&natural, wilds, melds);
        assert_eq!(
            engine,
            brute,
            "hand {i}: {} + {wilds} wilds, {melds} melds",
            engine::format_tiles(&natural.to_tiles())
        );
        if brute {
            complete[usize::from(wilds)] += 1;
        }
    }
    // The generator reaches both verdicts at every wild count.
    assert!(complete.iter().all(|&n| n > hands() / 200), "{complete:?}");
}

#[test]
fn waits_match_brute_force() {
    let mut rng = SeededRng::new(4048);
    let mut waiting = [0usize; 5];
    for i in 0..hands() {
        let wilds = wild_count(&mut rng);
        let melds = if rng.below(4) == 0 {
            rng.below(3) as u8
        } else {
            0
        };
        let size = 13 - 3 * u32::from(melds) - u32::from(wilds);
        let (natural, wild) = random_hand(&mut rng, melds, size);
        let engine = without(shape::waits_with_wilds(&natural, wilds, melds, FORMS), wild);
        let brute = brute_waits(&natural, wilds, melds, wild);
        assert_eq!(
            engine,
            brute,
            "hand {i}: {} + {wilds} wilds ({wild}), {melds} melds",
            engine::format_tiles(&natural.to_tiles())
        );
        if !brute.is_empty() {
            waiting[usize::from(wilds)] += 1;
        }
    }
    assert!(waiting.iter().all(|&n| n > hands() / 200), "{waiting:?}");
}
