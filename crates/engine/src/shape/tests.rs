//! Shape kernel tests: each form, wilds, and agreement with a slow reference on random hands.

use super::*;
use crate::tile::parse_tiles;

fn counts(s: &str) -> TileCounts {
    TileCounts::parse(s).expect("valid notation")
}

const ALL: Forms = Forms::STANDARD
    .with(Forms::SEVEN_PAIRS)
    .with(Forms::THIRTEEN_ORPHANS);

#[test]
fn standard_wins() {
    assert!(is_complete(
        &counts("123m456p789s11122z"),
        0,
        Forms::STANDARD
    ));
    assert!(is_complete(&counts("11122233344455m"), 0, Forms::STANDARD));
    assert!(is_complete(&counts("11122233344456m"), 0, Forms::STANDARD));
    assert!(!is_complete(
        &counts("12345678m123p11z9s"),
        0,
        Forms::STANDARD
    ));
    assert!(is_complete(&counts("55m"), 4, Forms::STANDARD));
    assert!(is_complete(&counts("23455m"), 3, Forms::STANDARD));
    assert!(!is_complete(&counts("1z2z"), 4, Forms::STANDARD));
    assert!(!is_complete(
        &counts("1133557799m1133p"),
        0,
        Forms::STANDARD
    ));
    assert!(is_complete(
        &counts("1133557799m1133p"),
        0,
        Forms::SEVEN_PAIRS
    ));
    assert!(
        is_complete(&counts("11112233445566m"), 0, Forms::SEVEN_PAIRS),
        "four as two pairs"
    );
    assert!(is_complete(&counts("19m19p19s12345677z"), 0, ALL));
    assert!(!is_complete(
        &counts("19m19p19s12345677z"),
        0,
        Forms::STANDARD
    ));
}

#[test]
fn knitted_wins() {
    // 全不靠: 147m 258p 369s + five honors.
    assert!(is_complete(
        &counts("147m258p369s12345z"),
        0,
        Forms::KNITTED
    ));
    // 组合龙 + 123s + 55z.
    assert!(is_complete(
        &counts("147m258p369s123s55z"),
        0,
        Forms::KNITTED
    ));
    assert!(is_complete(&counts("147m258p369s55z"), 1, Forms::KNITTED));
    assert!(!is_complete(&counts("147m258p369s55z"), 1, Forms::STANDARD));
}

#[test]
fn waits_and_shanten() {
    let w = waits(&counts("1112345678999m"), 0, Forms::STANDARD);
    assert_eq!(w.len(), 9, "nine gates waits on all nine");
    let w = waits(&counts("123m456p789s1122z"), 0, Forms::STANDARD);
    assert_eq!(w, parse_tiles("1z2z").expect("ok").into_iter().collect());
    let w = waits(&counts("1m9m1p9p1s9s1234567z"), 0, ALL);
    assert_eq!(w.len(), 13);
    assert!(
        waits(&counts("1111m"), 3, Forms::STANDARD).is_empty(),
        "no fifth 1m"
    );
    assert_eq!(waits(&counts("1112m"), 3, Forms::STANDARD).len(), 2);
    assert_eq!(shanten(&counts("123m456p789s1122z"), 0, Forms::STANDARD), 0);
    assert_eq!(
        shanten(&counts("123m456p789s11223z"), 0, Forms::STANDARD),
        -1 + 1
    );
    assert_eq!(shanten(&counts("159m159p159s1357z"), 0, Forms::STANDARD), 8);
    assert_eq!(
        shanten(&counts("1133557799m113p"), 0, Forms::SEVEN_PAIRS),
        0
    );
}

#[test]
fn wilds_fill_missing_tiles() {
    // One declared meld; the wild is the second 1z.
    assert!(is_complete_with_wilds(
        &counts("123m456p789s1z"),
        1,
        1,
        Forms::STANDARD
    ));
    assert!(!is_complete_with_wilds(
        &counts("123m456p789s1z2z"),
        0,
        1,
        Forms::STANDARD
    ));
    assert!(is_complete_with_wilds(
        &counts("13m456p789s1z"),
        2,
        1,
        Forms::STANDARD
    ));
    assert_eq!(
        shanten_with_wilds(&counts("13m456p789s1z"), 1, 1, Forms::STANDARD),
        0
    );
    let w = waits_with_wilds(&counts("456p789s"), 1, 2, Forms::STANDARD);
    assert!(
        w.len() >= 30,
        "a wild plus a single honor waits on almost anything: {w:?}"
    );
}

/// A kind held four times is never a wait, wilds or not: 33335566s6677z and a wild listed 3s
/// (on the way to word-wide seven pairs), because adding a fifth 3s made seven pairs of it (two pairs and an odd tile).
#[test]
fn no_fifth_copy_is_a_wait_with_wilds() {
    let c = counts("33335566s6677z");
    let all = Forms::STANDARD
        .with(Forms::SEVEN_PAIRS)
        .with(Forms::THIRTEEN_ORPHANS)
        .with(Forms::KNITTED);
    let three = parse_tiles("3s").expect("ok")[0];
    let w = waits_with_wilds(&c, 1, 0, all);
    assert!(w.len() > 30, "any drawn tile pairs with the wild: {w:?}");
    assert!(!w.contains(three), "{w:?}");
}

#[test]
fn decompositions_enumerate_every_reading() {
    let d = decompositions(&counts("11122233344m"));
    // 111 222 333 44 and 123 123 123 44
    // and 11 123 234 234
    assert_eq!(d.len(), 3, "{d:?}");
    assert!(decompositions(&counts("12345678m123p11z9s")).is_empty());
}

/// A slow, obviously correct recursive check of the standard form.
fn reference_complete(c: &mut TileCounts, need_pair: bool) -> bool {
    let Some(i) = (0..34).find(|&i| c.0[i] > 0) else {
        return !need_pair;
    };
    if need_pair && c.0[i] >= 2 {
        c.0[i] -= 2;
        let ok = reference_complete(c, false);
        c.0[i] += 2;
        if ok {
            return true;
        }
    }
    if c.0[i] >= 3 {
        c.0[i] -= 3;
        let ok = reference_complete(c, need_pair);
        c.0[i] += 3;
        if ok {
            return true;
        }
    }
    if i < 27 && i % 9 <= 6 && c.0[i + 1] > 0 && c.0[i + 2] > 0 {
        for j in i..i + 3 {
            c.0[j] -= 1;
        }
        let ok = reference_complete(c, need_pair);
        for j in i..i + 3 {
            c.0[j] += 1;
        }
        if ok {
            return true;
        }
    }
    false
}

/// A small xorshift so the test needs no RNG crate and stays deterministic.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn random_hand(state: &mut u64, n: usize, kinds: u64) -> TileCounts {
    let mut c = TileCounts::new();
    let mut placed = 0;
    while placed < n {
        let i = (xorshift(state) % kinds) as usize;
        if c.0[i] < 4 {
            c.0[i] += 1;
            placed += 1;
        }
    }
    c
}

#[test]
fn table_agrees_with_reference_on_random_hands() {
    let mut state = 0x9E37_79B9_7F4A_7C15;
    for round in 0..20_000 {
        // Dense hands in one or two suits complete often enough to test both answers.
        let kinds = if round % 2 == 0 { 9 } else { 18 };
        let mut c = random_hand(&mut state, 14, kinds);
        let fast = is_complete(&c, 0, Forms::STANDARD);
        assert_eq!(fast, reference_complete(&mut c, true), "{c}");
        assert_eq!(fast, standard_distance(&c, 4) == 0, "{c}");
        // Waits agree with adding each tile and checking.
        c.remove(c.to_tiles()[0]);
        let w = waits(&c, 0, Forms::STANDARD);
        for t in Tile::playing() {
            let mut h = c;
            if h.get(t) >= 4 {
                assert!(!w.contains(t));
                continue;
            }
            h.add(t);
            assert_eq!(w.contains(t), reference_complete(&mut h, true), "{c} + {t}");
        }
        // A hand with waits is ready; one without is not, unless it waits on a fifth copy.
        let sh = shanten(&c, 0, Forms::STANDARD);
        if w.is_empty() {
            assert!(sh >= 0, "{c}");
        } else {
            assert_eq!(sh, 0, "{c}");
        }
    }
}

/// Shanten agrees with its definition on random 13-tile hands: 0 means ready; n > 0 means no
/// single exchange (draw one, discard one) reaches n − 1 or better, and some exchange does.
#[test]
fn shanten_matches_exchange_definition() {
    let mut state = 0x2545_F491_4F6C_DD1D;
    let ready = |h: &TileCounts| !waits(h, 0, Forms::STANDARD).is_empty();
    let mut checked = 0;
    for round in 0..3000 {
        let kinds = if round % 3 == 0 { 9 } else { 27 };
        let c = random_hand(&mut state, 13, kinds);
        let sh = shanten(&c, 0, Forms::STANDARD);
        if sh == 0 {
            // Ready, unless the only wait is a fifth copy of a tile held four times.
            if !ready(&c) {
                assert!(c.0.contains(&4), "{c}: shanten 0 but no waits");
            }
            continue;
        }
        if sh > 2 {
            continue;
        }
        let mut best = i8::MAX;
        for t in Tile::playing() {
            if c.get(t) >= 4 {
                continue;
            }
            let mut drawn = c;
            drawn.add(t);
            for d in drawn.kinds().iter() {
                let mut after = drawn;
                after.remove(d);
                best = best.min(shanten(&after, 0, Forms::STANDARD));
            }
        }
        assert_eq!(
            best,
            sh - 1,
            "{c}: shanten {sh}, best exchange reaches {best}"
        );
        checked += 1;
    }
    assert!(checked > 500, "only {checked} hands at shanten 1–2");
}

/// The direct seven-pairs and thirteen-orphans waits agree with adding each tile and checking.
#[test]
fn special_waits_agree_with_completion() {
    let mut state = 0x1234_5678_9ABC_DEF1;
    let forms = Forms::SEVEN_PAIRS
        .with(Forms::THIRTEEN_ORPHANS)
        .with(Forms::KNITTED);
    let pairs_like = |state: &mut u64| {
        // Six pairs and a single, or thirteen orphans with one dropped, so waits are common.
        let mut c = TileCounts::new();
        if xorshift(state).is_multiple_of(2) {
            while c.total() < 12 {
                let i = (xorshift(state) % 34) as usize;
                if c.0[i] <= 2 {
                    c.0[i] += 2;
                }
            }
            let i = (xorshift(state) % 34) as usize;
            if c.0[i] < 4 {
                c.0[i] += 1
            } else {
                c.0[(i + 1) % 34] += 1
            }
        } else {
            for i in [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33] {
                c.0[i] = 1;
            }
            let drop =
                [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33][(xorshift(state) % 13) as usize];
            c.0[drop] -= 1;
            let dup = [0, 8, 9, 17, 27][(xorshift(state) % 5) as usize];
            c.0[dup] += 1;
        }
        c
    };
    for _ in 0..3000 {
        let c = pairs_like(&mut state);
        if c.total() != 13 {
            continue;
        }
        let w = waits(&c, 0, forms);
        for t in Tile::playing() {
            let mut h = c;
            if h.get(t) >= 4 {
                continue;
            }
            h.add(t);
            assert_eq!(w.contains(t), is_complete(&h, 0, forms), "{c} + {t}");
        }
    }
}

/// Readings with wilds exist exactly when the hand is complete, and each reading covers every
/// real tile, with the wilds making up the difference.
#[test]
fn wild_readings_agree_with_the_wild_win_check() {
    let mut state = 0xDEAD_BEEF_CAFE_F00D;
    let wild: Tile = "5z".parse().expect("tile");
    let mut complete = 0;
    for round in 0..4000 {
        let wilds = (round % 4) as u8;
        let kinds = if round % 2 == 0 { 9 } else { 18 };
        let c = random_hand(&mut state, 14 - usize::from(wilds), kinds);
        let readings = decompositions_with_wilds(&c, wilds, wild);
        let is_win = is_complete_with_wilds(&c, wilds, 0, Forms::STANDARD);
        assert_eq!(
            !readings.is_empty(),
            is_win,
            "{c} + {wilds} wilds: {readings:?}"
        );
        complete += usize::from(is_win);
        for d in &readings {
            let mut covered = TileCounts::new();
            for set in &d.sets {
                for t in set.tiles() {
                    covered.add(t);
                }
            }
            covered.add(d.pair);
            covered.add(d.pair);
            assert_eq!(covered.total(), 14);
            let extra: u32 = Tile::playing()
                .map(|t| u32::from(covered.get(t).saturating_sub(c.get(t))))
                .sum();
            assert_eq!(extra, u32::from(wilds), "{c}: {d:?}");
            assert!(
                Tile::playing().all(|t| covered.get(t) >= c.get(t)),
                "{c}: {d:?}"
            );
        }
    }
    assert!(complete > 200, "only {complete} complete hands");
}

#[test]
fn arrangements_of_every_shape() {
    let all = Forms::STANDARD
        .with(Forms::SEVEN_PAIRS)
        .with(Forms::THIRTEEN_ORPHANS)
        .with(Forms::KNITTED);
    let a = arrangements(&counts("19m19p19s12345677z"), 0, None, 0, all);
    assert_eq!(
        a,
        vec![Arrangement::ThirteenOrphans {
            pair: "7z".parse().expect("tile")
        }]
    );
    let a = arrangements(&counts("11223344556677m"), 0, None, 0, all);
    assert!(a.iter().any(|x| matches!(x, Arrangement::SevenPairs(_))));
    assert!(
        a.iter().any(|x| matches!(x, Arrangement::Standard(_))),
        "also 123 123 456 456 77"
    );
    let a = arrangements(&counts("147m258p369s12345z"), 0, None, 0, all);
    assert_eq!(
        a,
        vec![Arrangement::Knitted {
            knit: [0, 1, 2],
            rest: None
        }]
    );
    let a = arrangements(&counts("147m258p369s123s55z"), 0, None, 0, all);
    assert!(
        a.iter()
            .any(|x| matches!(x, Arrangement::Knitted { rest: Some(_), .. })),
        "{a:?}"
    );
    // Seven pairs with a wild: 112233445566m + 7m + wild.
    let wild = Some("5z".parse().expect("tile"));
    let a = arrangements(&counts("1122334455667m"), 1, wild, 0, Forms::SEVEN_PAIRS);
    assert_eq!(a.len(), 1);
    assert!(arrangements(&counts("123m"), 0, None, 0, all).is_empty());
}

/// Impossible counts (more than four copies) never make a query panic.
#[test]
fn impossible_counts_do_not_panic() {
    let mut c = counts("123m456p789s11z");
    c.0[0] = 200;
    c.0[30] = 9;
    let all = Forms::STANDARD
        .with(Forms::SEVEN_PAIRS)
        .with(Forms::THIRTEEN_ORPHANS)
        .with(Forms::KNITTED);
    let _ = is_complete(&c, 0, all);
    let _ = shanten(&c, 0, all);
    let _ = waits(&c, 0, all);
    let _ = is_complete_with_wilds(&c, 2, 0, all);
    let _ = shanten_with_wilds(&c, 2, 0, all);
    let _ = waits_with_wilds(&c, 1, 0, all);
    let _ = arrangements(&c, 1, Tile::from_index(5), 0, all);
    let _ = decompositions(&c);
}
