//! How long seating takes for a large field: `cargo run --release -p mahjong-tournament
//! --example seat_time -- 200 8`.

use std::time::Instant;

use tournament::Entrant;
use tournament::meetings::Meetings;
use tournament::seating::{Pairing, Request, Round, seat};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let who: Vec<Entrant> = (0..n).map(Entrant).collect();
    let mut history: Vec<Round> = Vec::new();
    for r in 0..rounds {
        let started = Instant::now();
        let round = seat(&Request {
            entrants: &who,
            seats: 4,
            history: &history,
            rounds_after: rounds - r - 1,
            pairing: Pairing::FewestRepeats,
            seed: r as u64,
        })
        .expect("seated");
        history.push(round);
        let met = Meetings::of_rounds(n as usize, &history);
        println!(
            "round {}: {:.2} s, most meetings {}, repeats {}",
            r + 1,
            started.elapsed().as_secs_f64(),
            met.most(),
            met.repeats()
        );
    }
}
