//! The toy family through the engine's own paths: a preset like the others, its option
//! validated from its spec, whole tables played, settled (referee and template) and replayed.

use super::STAKE;
use crate::ruleset::{OptionError, OptionValue, RawOptions, Ruleset, RulesetId};
use crate::table::Table;
use crate::wall::SeededRng;
use crate::{Action, Game, Seat};

fn stake(n: i64) -> RawOptions {
    RawOptions::from([("stake".to_owned(), OptionValue::Int(n))])
}

#[test]
fn the_toy_is_a_preset_like_the_others() {
    let id: RulesetId = "toy".parse().expect("registered by its one line");
    assert!(RulesetId::ALL.contains(&id));
    assert_eq!((id.as_str(), id.name_en()), ("toy", "Toy"));
    let ruleset = Ruleset::with_defaults(id).expect("defaults");
    assert_eq!(
        ruleset.options(),
        stake(1),
        "the default comes from the spec"
    );
    assert_eq!(ruleset.option_specs(), vec![STAKE]);
    assert!(!ruleset.flow().multi_win() && ruleset.flow().chow);
    assert!(matches!(
        Ruleset::new(id, &stake(0)),
        Err(OptionError::BadValue { .. })
    ));
    let unknown = RawOptions::from([("ante".to_owned(), OptionValue::Int(1))]);
    match Ruleset::new(id, &unknown) {
        Err(OptionError::Unknown { known, .. }) => assert_eq!(known, "stake"),
        other => panic!("an unknown option is refused: {other:?}"),
    }
}

/// Plays `game` to its end: a win whenever one is offered, else a legal action at random.
fn play_out(game: &mut Game, rng: &mut SeededRng) {
    for _ in 0..3_000 {
        if game.is_over() {
            return;
        }
        let Some(seat) = Seat::ALL
            .into_iter()
            .find(|&s| !game.legal_actions(s).is_empty())
        else {
            panic!("nobody may act in a hand that is not over");
        };
        let legal = game.legal_actions(seat).to_vec();
        let pick = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Win | Action::SelfDrawWin))
            .unwrap_or_else(|| legal[rng.below(legal.len() as u32) as usize]);
        game.apply(seat, pick).expect("a listed action is accepted");
    }
    panic!("the hand did not end");
}

#[test]
fn toy_tables_play_settle_and_replay() {
    let ruleset = Ruleset::new(RulesetId::Toy, &stake(3)).expect("options");
    let (mut wins, mut self_draws) = (0, 0);
    for seed in 0..200 {
        let mut table = Table::new(ruleset.clone(), seed);
        let mut rng = SeededRng::new(seed);
        for hand in 0..8 {
            let mut game = table.deal(seed * 100 + hand);
            play_out(&mut game, &mut rng);
            let st = table.finish(&game).expect("the hand settles");
            assert_eq!(st.deltas.iter().map(|(_, d)| d).sum::<i64>(), 0);
            // Head bump: one winner at most, paid 3 × fan by the discarder or by each other seat.
            assert!(game.wins().len() <= 1);
            if let (Some(w), Some(fans)) = (game.wins().first(), st.fans.first()) {
                wins += 1;
                let payers = if w.from.is_some() { 1 } else { 3 };
                assert_eq!(st.deltas[w.seat], 3 * fans.total * payers, "{st:?}");
                self_draws += usize::from(w.from.is_none());
            }
        }
        let replayed = table.record().replay().expect("the table replays");
        assert_eq!(replayed.state(), table.state());
    }
    assert!(wins > 100, "wins {wins}");
    assert!(self_draws > 10, "self-draws {self_draws}");
}

/// A hand written in the `settle` format, as `mahjong settle` reads it: the referee and the
/// template take the toy like any family.
#[test]
fn a_self_drawn_seven_pairs_settles_through_the_settle_format() {
    let seat = |concealed: &str| serde_json::json!({"concealed": concealed, "melds": []});
    let out = crate::variants::testing::settle(serde_json::json!({
        "id": "toy-1", "ruleset": "toy", "options": {"stake": 2}, "dealer": 0, "round_wind": "E",
        "seats": [seat(""), seat("1122m3344p5566s7z"), seat(""), seat("")],
        "wins": [{"seat": 1, "tile": "7z", "from": null}],
    }));
    // 和 1 + 自摸 1 + 七对 1 = 3 fan × 2 points, from each of the other three.
    assert_eq!(out["fans"][0]["total"], 3, "{out}");
    assert_eq!(crate::variants::testing::deltas(&out), [-6, 18, -6, -6]);
}
