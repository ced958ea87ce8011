//! The settle referee against play, in every preset and in the room options that change what a
//! hand may be:
//! - every hand finished in play, written as a `settle` line (`SettleInput::from_hand`) and read
//!   back, is the same hand and settles exactly as the table settled it;
//! - each kind of edit that makes the hand one no play can reach (a fifth copy, a tile short, a
//!   chow from a seat other than the 上家, a second win where the hand ends at the first, a
//!   second winner on one discard where there is no 一炮多响, a die of 7, a robbed concealed kong where the family forbids it, a pung of the wild kind, a meld
//!   of the declared void suit, a win on one's own discard, a kong's replacement taken from a
//!   discard, a first-go-around win after a claim, claim counts the melds do not show, a 和绝张
//!   with a copy held concealed, a 血战 meld made after a seat that never won had left, a claim
//!   from oneself) is refused with its error code.
//!
//! Every kind of edit must find a hand to bend in every preset where it applies, so a policy
//! that stopped making chows, pungs or discard wins would fail the test rather than pass it
//! unexercised. `REFEREE_HANDS` sets the hands per preset (default 3,000).

mod knobs;
mod policy;

use std::collections::BTreeMap;

use engine::format::serde_json_id::Id;
use engine::format::{SettleInput, SettleOutput, settle_text};
use engine::meld::MeldKind;
use engine::ruleset::{OptionValue, RawOptions, Ruleset, RulesetId};
use engine::settle::{Carried, FinishedHand, Win, WinFlags};
use engine::wall::SeededRng;
use engine::{Game, Seat, Tile, Wind};

fn hands_per_preset() -> u64 {
    knobs::count("REFEREE_HANDS", 3_000, 200)
}

/// Plays one hand with the shared policy; the carried counters vary with the seed so that
/// the line's `table` is exercised too.
fn play(ruleset: &Ruleset, seed: u64) -> Game {
    let mut rng = SeededRng::new(seed.wrapping_mul(0x9e37).wrapping_add(11));
    let players = u64::from(ruleset.rules().flow().players);
    let dealer = Seat::new((seed % players) as u8).expect("seat");
    let carried = Carried {
        dealer_streak: (seed % 3) as u32,
        draw_streak: (seed % 2) as u32,
        draw_bonus: (seed % 4) as u32,
        floor: (seed % 3) as u32,
        ..Carried::default()
    };
    let mut game = Game::new(ruleset.clone(), seed, dealer, Wind::South, carried);
    while !game.is_over() {
        let acting: Vec<Seat> = game
            .table_seats()
            .filter(|&s| !game.legal_actions(s).is_empty())
            .collect();
        let seat = acting[rng.below(acting.len() as u32) as usize];
        let legal = game.legal_actions(seat).to_vec();
        let action = policy::choose(&game, seat, &legal, &mut rng);
        game.apply(seat, action)
            .unwrap_or_else(|e| panic!("seed {seed}: listed action refused: {e}"));
    }
    game
}

/// The hand as the line keeps it: the line names who a meld was claimed from, not which tile
/// of a chow was the claimed one (no scoring reads it).
fn without_claimed_tiles(mut hand: FinishedHand) -> FinishedHand {
    for s in &mut hand.seats.0 {
        for m in &mut s.melds {
            m.meld.claimed = None;
        }
    }
    hand
}

fn line_of(ruleset: &Ruleset, hand: &FinishedHand, seed: u64) -> String {
    let input = SettleInput::from_hand(Id::Number(seed as i64), ruleset, hand);
    serde_json::to_string(&input).expect("a line serializes")
}

/// The hand, written and read back, is the same hand and settles as the table settled it.
fn assert_round_trip(game: &Game, seed: u64) {
    let ruleset = game.ruleset();
    let hand = game.finished_hand();
    let line = line_of(ruleset, &hand, seed);
    let parsed: SettleInput = serde_json::from_str(&line).expect("the line parses");
    let (_, back) = parsed
        .to_hand()
        .unwrap_or_else(|e| panic!("seed {seed}: {e}: {line}"));
    assert_eq!(
        without_claimed_tiles(back),
        without_claimed_tiles(hand),
        "seed {seed}: {line}"
    );
    let table = game
        .settlement()
        .unwrap_or_else(|| panic!("seed {seed}: {:?}", game.settle_error()));
    let expected = SettleOutput::settled(Id::Number(seed as i64), game.players(), table);
    let got = serde_json::to_value(settle_text(&line)).expect("json");
    assert_eq!(
        got,
        serde_json::to_value(expected).expect("json"),
        "seed {seed}: {line}"
    );
}

/// One kind of edit: its name, the code it must be refused with, and the edit itself (`None`
/// when this hand has nothing it can bend).
struct Edit {
    name: &'static str,
    code: &'static str,
    apply: fn(&Ruleset, &FinishedHand) -> Option<FinishedHand>,
    /// Whether the preset has what the edit bends (chows, wilds, 定缺…).
    applies: fn(&Ruleset) -> bool,
}

fn always(_: &Ruleset) -> bool {
    true
}

const EDITS: &[Edit] = &[
    Edit {
        name: "a fifth copy",
        code: "illegal_hand",
        apply: fifth_copy,
        applies: always,
    },
    Edit {
        name: "a tile short",
        code: "illegal_hand",
        apply: tile_short,
        applies: always,
    },
    Edit {
        name: "a chow from a seat other than the 上家",
        code: "illegal_hand",
        apply: chow_from_wrong_seat,
        applies: |r| r.rules().flow().chow && r.rules().flow().players > 2,
    },
    Edit {
        name: "a second self-draw",
        code: "illegal_hand",
        apply: second_self_draw,
        applies: always,
    },
    Edit {
        name: "a second winner on one discard without 一炮多响",
        code: "illegal_hand",
        apply: second_winner_on_the_discard,
        applies: |r| {
            !r.rules().flow().multi_win()
                && !r.rules().flow().plays_on_after_win()
                && r.rules().flow().players > 2
        },
    },
    Edit {
        name: "a die of 7",
        code: "illegal_hand",
        apply: die_of_seven,
        applies: always,
    },
    Edit {
        name: "a robbed concealed kong where the family forbids it",
        code: "not_a_win",
        apply: robbed_concealed_kong,
        applies: |r| !r.rules().flow().concealed_kong_robbable,
    },
    Edit {
        name: "a pung of the wild kind",
        code: "illegal_hand",
        apply: wild_pung,
        applies: |r| r.rules().flow().wild,
    },
    Edit {
        name: "a meld of the declared void suit",
        code: "illegal_hand",
        apply: void_meld,
        applies: |r| r.rules().flow().declares_void(),
    },
    Edit {
        name: "a win on one's own discard",
        code: "illegal_hand",
        apply: own_discard,
        applies: always,
    },
    Edit {
        name: "a kong's replacement taken from a discard",
        code: "illegal_hand",
        apply: replacement_from_discard,
        applies: always,
    },
    Edit {
        name: "a first-go-around win after a claim",
        code: "illegal_hand",
        apply: first_turn_after_a_claim,
        applies: always,
    },
    Edit {
        name: "a claim count the melds do not show",
        code: "illegal_hand",
        apply: claims_beyond_the_melds,
        applies: always,
    },
    Edit {
        name: "a last-of-its-kind win with a copy held concealed",
        code: "illegal_hand",
        apply: last_of_kind_held,
        applies: always,
    },
    Edit {
        name: "a meld made after a seat left that had not won",
        code: "illegal_hand",
        apply: meld_after_a_non_winner_left,
        applies: |r| r.rules().flow().plays_on_after_win(),
    },
    Edit {
        name: "a claim from oneself",
        code: "bad_input",
        apply: claim_from_oneself,
        applies: always,
    },
];

fn copies_on_the_line(hand: &FinishedHand, t: Tile) -> u32 {
    let mut n: u32 = hand
        .seats_in_play()
        .map(|s| u32::from(hand.seats[s].all_tiles().get(t)))
        .sum();
    let mut previous: Option<&Win> = None;
    for w in &hand.wins {
        let same_discard =
            previous.is_some_and(|p| p.from.is_some() && p.from == w.from && p.tile == w.tile);
        n += u32::from(w.tile == t && !same_discard);
        previous = Some(w);
    }
    n
}

/// Turns concealed tiles of one seat into the commonest kind until five copies are out.
fn fifth_copy(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let kind = Tile::playing()
        .filter(|&t| Some(t) != hand.wild)
        .max_by_key(|&t| copies_on_the_line(hand, t))?;
    let missing = 5u32.checked_sub(copies_on_the_line(hand, kind))?;
    let mut out = hand.clone();
    let seat = out.seats_in_play().find(|&s| {
        let c = &hand.seats[s].concealed;
        u32::from(c.get(kind)) + missing <= 4 && c.total() - u32::from(c.get(kind)) >= missing
    })?;
    let concealed = &mut out.seats[seat].concealed;
    for _ in 0..missing {
        let other = concealed.to_tiles().into_iter().find(|&t| t != kind)?;
        concealed.remove(other);
        concealed.add(kind);
    }
    Some(out)
}

fn tile_short(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let mut out = hand.clone();
    let seat = out
        .seats_in_play()
        .find(|&s| hand.seats[s].concealed.total() > 1)?;
    let t = *out.seats[seat].concealed.to_tiles().first()?;
    out.seats[seat].concealed.remove(t);
    Some(out)
}

fn chow_from_wrong_seat(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let mut out = hand.clone();
    let players = hand.players;
    for s in hand.seats_in_play() {
        let shangjia = hand.seats_in_play().find(|&p| p.next(players) == s)?;
        let wrong = hand.seats_in_play().find(|&p| p != s && p != shangjia)?;
        if let Some(m) = out.seats[s]
            .melds
            .iter_mut()
            .find(|m| m.meld.kind == MeldKind::Chow && m.meld.from.is_some())
        {
            m.meld.from = Some(wrong);
            return Some(out);
        }
    }
    None
}

/// A self-draw after the hand's wins: by another seat where the hand ends at the first win, by
/// the same winner again in 血战 (a winner has left).
fn second_self_draw(ruleset: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let first = *hand.wins.first()?;
    let seat = if ruleset.rules().flow().plays_on_after_win() {
        first.seat
    } else {
        hand.seats_in_play()
            .find(|&s| hand.wins.iter().all(|w| w.seat != s))?
    };
    let mut out = hand.clone();
    out.wins.push(Win {
        seat,
        tile: first.tile,
        from: None,
        flags: WinFlags::default(),
    });
    Some(out)
}

/// Another seat also wins on the discard that won the hand (head bump families take one).
fn second_winner_on_the_discard(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let first = *hand.wins.iter().find(|w| w.from.is_some())?;
    let seat = hand
        .seats_in_play()
        .find(|&s| s != first.seat && Some(s) != first.from)?;
    let mut out = hand.clone();
    out.wins.push(Win { seat, ..first });
    Some(out)
}

fn die_of_seven(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let mut out = hand.clone();
    out.dice = Some([7, hand.dice.map_or(1, |d| d[1])]);
    Some(out)
}

/// Every win on the hand's discard (several, after 一炮多响) becomes the robbing of a concealed
/// kong of that tile.
fn robbed_concealed_kong(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let mut out = hand.clone();
    let first = *hand.wins.iter().find(|w| w.from.is_some())?;
    for w in out
        .wins
        .iter_mut()
        .filter(|w| w.from == first.from && w.tile == first.tile)
    {
        w.flags = WinFlags {
            robbed_kong: true,
            robbed_concealed_kong: true,
            ..WinFlags::default()
        };
    }
    Some(out)
}

fn wild_pung(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let pung = hand
        .seats_in_play()
        .flat_map(|s| &hand.seats[s].melds)
        .find(|m| m.meld.kind == MeldKind::Pung)?;
    let mut out = hand.clone();
    out.wild = Some(pung.meld.tile);
    Some(out)
}

fn void_meld(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let mut out = hand.clone();
    let seat = hand
        .seats_in_play()
        .find(|&s| hand.seats[s].void.is_some() && !hand.seats[s].melds.is_empty())?;
    out.seats[seat].void = Some(hand.seats[seat].melds[0].meld.tile.suit());
    Some(out)
}

fn own_discard(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let mut out = hand.clone();
    let win = out.wins.iter_mut().find(|w| w.from.is_some())?;
    win.from = Some(win.seat);
    Some(out)
}

fn replacement_from_discard(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let mut out = hand.clone();
    let win = out
        .wins
        .iter_mut()
        .find(|w| w.from.is_some() && !w.flags.robbed_kong)?;
    win.flags.kong_replacement = true;
    Some(out)
}

/// The hand's first win is said to come in the first go-around, though its winner (or, where the
/// hand ends at its first win, anyone) had claimed a meld.
fn first_turn_after_a_claim(ruleset: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let first = hand.wins.first()?;
    let claimed = |s: Seat| hand.seats[s].melds.iter().any(|m| m.meld.from.is_some());
    let any_claim = if ruleset.rules().flow().plays_on_after_win() {
        claimed(first.seat)
    } else {
        hand.seats_in_play().any(claimed)
    };
    if !any_claim {
        return None;
    }
    let mut out = hand.clone();
    out.wins[0].flags.first_turn = true;
    Some(out)
}

/// The carried claim counts, as the melds show them, with one claim more for a seat that holds
/// a claimed meld.
fn claims_beyond_the_melds(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let mut list = Vec::new();
    for by in hand.seats_in_play() {
        for from in hand.seats_in_play().filter(|&f| f != by) {
            let n = hand.claims(by, from);
            if n > 0 {
                list.push((by, from, n));
            }
        }
    }
    let first = list.first_mut()?;
    first.2 += 1;
    let mut out = hand.clone();
    out.carried.claims = Some(list);
    Some(out)
}

/// A win said to be on the last of its kind while some seat holds that kind concealed.
fn last_of_kind_held(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let i = hand.wins.iter().position(|w| {
        hand.seats_in_play()
            .any(|s| hand.seats[s].concealed.get(w.tile) > 0)
    })?;
    let mut out = hand.clone();
    out.wins[i].flags.last_of_kind = true;
    Some(out)
}

/// In 血战, a meld said to be made after a seat that never won had left.
fn meld_after_a_non_winner_left(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let mut out = hand.clone();
    for s in hand.seats_in_play() {
        let Some(stayer) = hand
            .seats_in_play()
            .find(|&p| p != s && hand.wins.iter().all(|w| w.seat != p))
        else {
            continue;
        };
        if let Some(m) = out.seats[s].melds.first_mut() {
            m.in_play.remove(stayer);
            return Some(out);
        }
    }
    None
}

fn claim_from_oneself(_: &Ruleset, hand: &FinishedHand) -> Option<FinishedHand> {
    let mut out = hand.clone();
    out.carried.claims = Some(vec![(hand.dealer, hand.dealer, 1)]);
    Some(out)
}

/// Applies every edit that finds something to bend in this hand; counts them by name.
fn assert_edits_refused(game: &Game, seed: u64, tried: &mut BTreeMap<&'static str, u32>) {
    let ruleset = game.ruleset();
    let hand = game.finished_hand();
    for edit in EDITS.iter().filter(|e| (e.applies)(ruleset)) {
        let Some(bent) = (edit.apply)(ruleset, &hand) else {
            continue;
        };
        *tried.entry(edit.name).or_default() += 1;
        let line = line_of(ruleset, &bent, seed);
        let got = serde_json::to_value(settle_text(&line)).expect("json");
        assert_eq!(
            got["error"]["code"].as_str(),
            Some(edit.code),
            "seed {seed}, {}: {got}\n{line}",
            edit.name
        );
    }
}

fn check(ruleset: &Ruleset, hands: u64) {
    let mut tried = BTreeMap::new();
    for seed in 0..hands {
        let game = play(ruleset, seed);
        assert_round_trip(&game, seed);
        assert_edits_refused(&game, seed, &mut tried);
    }
    for edit in EDITS.iter().filter(|e| (e.applies)(ruleset)) {
        assert!(
            tried.get(edit.name).is_some_and(|&n| n > 0),
            "{}: no hand of {hands} had anything for \"{}\" to bend: {tried:?}",
            ruleset.id(),
            edit.name
        );
    }
}

fn preset(id: RulesetId) {
    check(
        &Ruleset::with_defaults(id).expect("defaults are valid"),
        hands_per_preset(),
    );
}

/// A preset with other room options: a quarter of the hands.
fn with_options(id: RulesetId, options: &[(&str, OptionValue)]) {
    let raw: RawOptions = options
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    let ruleset = Ruleset::new(id, &raw).expect("valid options");
    check(&ruleset, hands_per_preset().div_ceil(4));
}

#[test]
fn every_preset_hand_settles_the_same_from_its_line_and_bent_lines_are_refused() {
    for id in RulesetId::ALL {
        preset(id);
    }
}

#[test]
fn room_options_that_change_what_a_hand_may_be() {
    with_options(
        RulesetId::Beijing,
        &[("dragon_robs_concealed_kong", OptionValue::Bool(true))],
    );
    with_options(
        RulesetId::Ningbo,
        &[("caishen_rule", OptionValue::Text("next".into()))],
    );
    with_options(RulesetId::TwoPlayer, &[("huapai", OptionValue::Int(3))]);
    with_options(RulesetId::TwoPlayer, &[("swap", OptionValue::Bool(true))]);
    with_options(
        RulesetId::Guangdong,
        &[
            ("min_fan", OptionValue::Int(2)),
            ("fan_cap", OptionValue::Int(8)),
        ],
    );
}
