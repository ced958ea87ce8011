//! A whole simulated hand: deal, 定缺, every decision by the greedy policy through
//! `legal_actions` / `view` / `apply`, settlement. One iteration plays one hand; the seeds
//! rotate so the figure is an average over many different deals.

use std::hint::black_box;

use bot::{Policy, Simple};
use criterion::{Criterion, criterion_group, criterion_main};
use engine::ruleset::{Ruleset, RulesetId};
use engine::settle::Carried;
use engine::wall::SeededRng;
use engine::{Game, Seat, Wind};

fn play(ruleset: &Ruleset, seed: u64) -> i64 {
    let policy = Simple;
    let mut rng = SeededRng::new(seed);
    let mut game = Game::new(
        ruleset.clone(),
        seed,
        Seat::ALL[(seed % 4) as usize],
        Wind::East,
        Carried::default(),
    );
    while !game.is_over() {
        for seat in Seat::ALL {
            if game.legal_actions(seat).is_empty() {
                continue;
            }
            let view = game.view(seat);
            let action = policy.decide(&view, &view.legal, &mut rng);
            if game.apply(seat, action).is_err() || game.is_over() {
                break;
            }
        }
    }
    game.settlement().map_or(0, |s| s.deltas.0[0])
}

fn whole_hand(c: &mut Criterion) {
    let mut group = c.benchmark_group("hand");
    for id in RulesetId::ALL {
        let ruleset = Ruleset::with_defaults(id).expect("defaults");
        play(&ruleset, 0); // builds the shape tables outside the measurement
        let mut seed = 0u64;
        group.bench_function(id.as_str(), |b| {
            b.iter(|| {
                seed += 1;
                black_box(play(&ruleset, black_box(seed)))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, whole_hand);
criterion_main!(benches);
