//! Ratings: a multi-player Elo over a finished table's final placements.
//!
//! Every pair of seats is a game between the two: the seat with the higher final score wins it
//! (equal scores draw). A player's change is `K / (n − 1) · Σ (S − E)` over the other seats,
//! where `S` is 1, ½ or 0 and `E = 1 / (1 + 10^((R_other − R_self) / 400))` is the expected
//! result, with `K = 32`. Bots play at the initial rating (1500) and are not rated themselves, so
//! a player rated against bots moves as against 1500-rated opponents. The changes of a table sum
//! to zero when every seat is a player. A player who escaped ranks below every seat that stayed,
//! whatever the bot made of its seat afterwards ([`Placement::escaped`]).

/// How far one table can move a rating.
pub const K: f64 = 32.0;

/// A seat at a finished table: its rating before (None for a bot) and its final score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Rating before the table (None: a bot, counted at the initial rating and not changed).
    pub rating: Option<f64>,
    /// Final table score.
    pub score: i64,
}

/// How far below every staying seat an escaper's final score counts: more than any match's
/// spread of scores.
const ESCAPE_RANK: i64 = 1 << 40;

impl Placement {
    /// A seat whose player escaped (逃跑): whatever its final score, it ranks below every seat
    /// that stayed (escapers among themselves by score).
    pub fn escaped(rating: Option<f64>, score: i64) -> Placement {
        Placement {
            rating,
            score: score.saturating_sub(ESCAPE_RANK),
        }
    }
}

/// The rating change of every seat (0 for bots).
pub fn changes(seats: &[Placement]) -> Vec<f64> {
    let n = seats.len();
    if n < 2 {
        return vec![0.0; n];
    }
    let rating = |p: &Placement| p.rating.unwrap_or(store::INITIAL_RATING);
    seats
        .iter()
        .enumerate()
        .map(|(i, me)| {
            if me.rating.is_none() {
                return 0.0;
            }
            let sum: f64 = seats
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, other)| {
                    let s = match me.score.cmp(&other.score) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                    let e = 1.0 / (1.0 + 10f64.powf((rating(other) - rating(me)) / 400.0));
                    s - e
                })
                .sum();
            K / (n - 1) as f64 * sum
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(rating: f64, score: i64) -> Placement {
        Placement {
            rating: Some(rating),
            score,
        }
    }

    #[test]
    fn an_escape_ranks_last_whatever_its_score() {
        let bot = |score| Placement {
            rating: None,
            score,
        };
        let c = changes(&[
            Placement::escaped(Some(1500.0), 90),
            bot(-30),
            bot(-30),
            bot(-30),
        ]);
        assert!((c[0] + 16.0).abs() < 1e-9, "last of four at 1500: {c:?}");
        let two = changes(&[
            Placement::escaped(Some(1500.0), 50),
            Placement::escaped(Some(1500.0), -50),
            p(1500.0, -100),
            bot(0),
        ]);
        assert!(
            two[2] > 0.0 && two[0] > two[1],
            "escapers below, by score: {two:?}"
        );
    }

    #[test]
    fn equal_players_move_by_their_placement_and_sum_to_zero() {
        let c = changes(&[p(1500.0, 30), p(1500.0, 10), p(1500.0, -10), p(1500.0, -30)]);
        // First beats three (S − E = 3 × ½), last loses three.
        assert!((c[0] - 16.0).abs() < 1e-9, "{c:?}");
        assert!((c[3] + 16.0).abs() < 1e-9);
        assert!((c[1] - 16.0 / 3.0).abs() < 1e-9);
        assert!(c.iter().sum::<f64>().abs() < 1e-9);
    }

    #[test]
    fn an_upset_moves_more_and_ties_draw() {
        let favourite_wins = changes(&[p(1800.0, 10), p(1400.0, -10)]);
        let underdog_wins = changes(&[p(1800.0, -10), p(1400.0, 10)]);
        assert!(underdog_wins[1] > favourite_wins[0]);
        let tie = changes(&[p(1500.0, 0), p(1500.0, 0)]);
        assert_eq!(tie, vec![0.0, 0.0]);
    }

    #[test]
    fn bots_are_not_rated_but_count_as_opponents() {
        let bot = Placement {
            rating: None,
            score: -5,
        };
        let c = changes(&[p(1500.0, 15), bot, bot, bot]);
        assert_eq!(&c[1..], &[0.0, 0.0, 0.0]);
        assert!((c[0] - 16.0).abs() < 1e-9);
    }
}
