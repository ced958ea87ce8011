//! Bots in every seat (four, or two in `two-player`) through many seeded hands of every preset: every decision is one of
//! the legal actions (the engine would refuse anything else), nothing panics, and a decision is
//! a function of the view and the seed.

#[path = "../../engine/tests/knobs/mod.rs"]
mod knobs;

use bot::Level;
use engine::ruleset::{Ruleset, RulesetId};
use engine::settle::Carried;
use engine::wall::SeededRng;
use engine::{Game, Seat, Wind};

fn hands_per_preset() -> u64 {
    knobs::count("BOT_HANDS", 4_000, 300)
}

/// Plays one hand with `lineup` (seat i plays `lineup[i]`), checking every decision.
fn play(ruleset: &Ruleset, seed: u64, lineup: [Level; 4]) -> Game {
    let mut rng = SeededRng::new(seed ^ 0x5EED);
    let players = u64::from(ruleset.rules().flow().players);
    let dealer = Seat::ALL[(seed % players) as usize];
    let mut game = Game::new(
        ruleset.clone(),
        seed,
        dealer,
        Wind::East,
        Carried::default(),
    );
    let mut steps = 0;
    while !game.is_over() {
        steps += 1;
        assert!(steps < 2_000, "seed {seed}: hand does not end");
        for seat in game.table_seats() {
            if game.legal_actions(seat).is_empty() {
                continue;
            }
            let view = game.view(seat);
            let action = lineup[seat.index()]
                .policy()
                .decide(&view, &view.legal, &mut rng);
            assert!(
                view.legal.contains(&action),
                "seed {seed}: {} chose {action}, not legal",
                lineup[seat.index()]
            );
            game.apply(seat, action)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            if game.is_over() {
                break;
            }
        }
    }
    assert!(
        game.settlement().is_some(),
        "seed {seed}: {:?}",
        game.settle_error()
    );
    game
}

fn check(id: RulesetId) {
    check_rules(
        &Ruleset::with_defaults(id).expect("defaults"),
        hands_per_preset(),
    );
}

/// Every level in `hands` hands of `ruleset`; each hand must end (a drawn hand when nobody
/// can win).
fn check_rules(ruleset: &Ruleset, hands: u64) {
    if ruleset.rules().flow().players == 2 {
        // Two seats: every level meets the strong one and one other (seats 2 and 3 are empty).
        let lineups = [
            [Level::Strong, Level::Basic, Level::Random, Level::Random],
            [Level::Random, Level::Simple, Level::Random, Level::Random],
            [Level::Strong, Level::Strong, Level::Random, Level::Random],
            [Level::Simple, Level::Strong, Level::Random, Level::Random],
        ];
        for seed in 0..hands {
            play(ruleset, seed, lineups[(seed % 4) as usize]);
        }
        return;
    }
    // Every level in every seat, strong against strong too, and hands among the cheap levels
    // alone: the strong level's planning is most of the run's time, so it sits in fewer seats.
    let lineups = [
        [Level::Strong, Level::Basic, Level::Random, Level::Simple],
        [Level::Strong, Level::Strong, Level::Basic, Level::Basic],
        [Level::Basic, Level::Random, Level::Basic, Level::Simple],
        [Level::Basic; 4],
    ];
    for seed in 0..hands {
        let mut lineup = lineups[(seed % 4) as usize];
        lineup.rotate_right((seed / 4 % 4) as usize);
        play(ruleset, seed, lineup);
    }
}

#[test]
fn bots_play_beijing() {
    check(RulesetId::Beijing);
}

#[test]
fn bots_play_beijing_2020() {
    check(RulesetId::Beijing2020);
}

#[test]
fn bots_play_sichuan() {
    check(RulesetId::Sichuan);
}

#[test]
fn bots_play_sichuan_xuezhan() {
    check(RulesetId::SichuanXuezhan);
}

#[test]
fn bots_play_sichuan_xuezhan_9() {
    check(RulesetId::SichuanXuezhan9);
}

#[test]
fn bots_play_shanghai() {
    check(RulesetId::Shanghai);
}

#[test]
fn bots_play_guobiao() {
    check(RulesetId::Guobiao);
}

#[test]
fn bots_play_guobiao_house() {
    check(RulesetId::GuobiaoHouse);
}

#[test]
fn bots_play_guangdong() {
    check(RulesetId::Guangdong);
}

/// Under a 起胡 no level may wait forever for a win it is never offered (a quarter of the
/// defaults' hands: the options change only what may win).
#[test]
fn bots_play_guangdong_with_a_minimum_fan() {
    let mut options = engine::ruleset::RawOptions::new();
    options.insert("min_fan".into(), engine::ruleset::OptionValue::Int(3));
    let ruleset = Ruleset::new(RulesetId::Guangdong, &options).expect("options");
    check_rules(&ruleset, hands_per_preset().div_ceil(4));
}

#[test]
fn bots_play_suzhou() {
    check(RulesetId::Suzhou);
}

#[test]
fn bots_play_wuhu() {
    check(RulesetId::Wuhu);
}

#[test]
fn bots_play_ningbo() {
    check(RulesetId::Ningbo);
}

#[test]
fn bots_play_two_player() {
    check(RulesetId::TwoPlayer);
}

/// 开始时换牌 on: every level swaps (a quarter of the defaults' hands: the option changes only
/// the start of the hand).
#[test]
fn bots_play_two_player_with_the_opening_swap() {
    check_rules(&swapping(), hands_per_preset().div_ceil(4));
}

/// The two-player preset with the swap option on.
fn swapping() -> Ruleset {
    let mut options = engine::ruleset::RawOptions::new();
    options.insert("swap".into(), engine::ruleset::OptionValue::Bool(true));
    Ruleset::new(RulesetId::TwoPlayer, &options).expect("options")
}

/// The levels that choose their swap give back only tiles no reading of the hand uses, so
/// whatever comes in, the hand is never further from ready than as dealt; and they do swap.
#[test]
fn a_bot_swap_never_sets_the_hand_back() {
    let ruleset = swapping();
    let mut swapped = [0usize; 4];
    for seed in 0..200 {
        let mut game = Game::new(
            ruleset.clone(),
            seed,
            Seat::ALL[0],
            Wind::East,
            Carried::default(),
        );
        let shanten = |game: &Game, seat: Seat| {
            let view = game.view(seat);
            bot::Goal::plain(&view).shanten(&view.concealed, 0)
        };
        let levels = [Level::Simple, Level::Basic, Level::Strong];
        let lineup = [
            levels[(seed % 3) as usize],
            levels[((seed + 1) % 3) as usize],
        ];
        let before: Vec<i8> = game.table_seats().map(|s| shanten(&game, s)).collect();
        let mut rng = SeededRng::new(seed);
        while game.is_swapping() {
            for seat in game.table_seats() {
                if game.legal_actions(seat).is_empty() {
                    continue;
                }
                let view = game.view(seat);
                let level = lineup[seat.index()];
                let action = level.policy().decide(&view, &view.legal, &mut rng);
                if matches!(action, engine::Action::SwapMark { .. }) {
                    swapped[level as usize] += 1;
                }
                game.apply(seat, action).expect("a legal swap");
            }
        }
        for seat in game.table_seats() {
            assert!(
                shanten(&game, seat) <= before[seat.index()],
                "seed {seed}: {} swapped seat {seat} further from ready",
                lineup[seat.index()]
            );
        }
    }
    for level in [Level::Simple, Level::Basic, Level::Strong] {
        assert!(swapped[level as usize] > 0, "{level} never swaps");
    }
}

#[test]
fn a_decision_depends_only_on_the_view_and_the_seed() {
    decisions_repeat(
        &Ruleset::with_defaults(RulesetId::SichuanXuezhan).expect("defaults"),
        77,
    );
}

#[test]
fn a_shanghai_decision_depends_only_on_the_view_and_the_seed() {
    decisions_repeat(
        &Ruleset::with_defaults(RulesetId::Shanghai).expect("defaults"),
        78,
    );
}

#[test]
fn a_two_player_decision_depends_only_on_the_view_and_the_seed() {
    decisions_repeat(
        &Ruleset::with_defaults(RulesetId::TwoPlayer).expect("defaults"),
        79,
    );
    decisions_repeat(&swapping(), 80);
}

/// Replays the first hundred decisions of a hand of strong bots from its record: at each, every
/// level decides the same twice from the same view and seed.
fn decisions_repeat(ruleset: &Ruleset, seed: u64) {
    let id = ruleset.id();
    let game = play(ruleset, seed, [Level::Strong; 4]);
    let record = engine::record::HandRecord::of(&game);
    let mut replay = Game::new(
        ruleset.clone(),
        seed,
        game.dealer(),
        Wind::East,
        Carried::default(),
    );
    for &(seat, action) in record.actions.iter().take(100) {
        let view = replay.view(seat);
        for level in Level::ALL {
            let a = level
                .policy()
                .decide(&view, &view.legal, &mut SeededRng::new(9));
            let b = level
                .policy()
                .decide(&view, &view.legal, &mut SeededRng::new(9));
            assert_eq!(a, b, "{level} is not deterministic in {id}");
        }
        replay.apply(seat, action).expect("recorded action");
    }
}

#[test]
fn levels_parse_by_name() {
    for level in Level::ALL {
        assert_eq!(level.name().parse::<Level>(), Ok(level));
    }
    assert!("expert".parse::<Level>().is_err());
}
