//! Competition scoring (计分) and the standings (排名).
//!
//! A table's result is each seat's total of the round's hands at that table (the hands' deltas
//! with the ruleset's escape penalties in them). The competition turns it into points either as
//! it is (**raw**) or by **places**: points per place at the table (4/2/1/0, say), seats with
//! equal totals sharing the points of the places they take between them (two tied for first at
//! 4/2/1/0 get 3 each). Bots take their places at a table like anyone (the places are the
//! table's), but are never in the standings. An escape costs the competition's own penalty on
//! top, in its points.
//!
//! The standings order entrants by points, then raw score, then tables placed first (shared
//! firsts included); entrants equal on all three share a rank and are listed in registration
//! order.

use std::fmt;

use crate::Entrant;

/// Competition points, kept in twelfths so that a place shared by two, three or four seats
/// stays exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(i64);

impl Points {
    /// `n` whole points.
    pub fn whole(n: i64) -> Points {
        Points(n.saturating_mul(12))
    }

    /// From twelfths of a point.
    pub fn from_twelfths(t: i64) -> Points {
        Points(t)
    }

    /// In twelfths of a point.
    pub fn twelfths(self) -> i64 {
        self.0
    }

    /// As a number (exact to the 1/12).
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 12.0
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points(self.0.saturating_add(o.0))
    }
}

impl std::ops::Sub for Points {
    type Output = Points;
    fn sub(self, o: Points) -> Points {
        Points(self.0.saturating_sub(o.0))
    }
}

impl fmt::Display for Points {
    /// Whole points as they are, else two decimals (7/3 is 2.33).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 12 == 0 {
            write!(f, "{}", self.0 / 12)
        } else {
            write!(f, "{:.2}", self.as_f64())
        }
    }
}

/// How a table's result becomes competition points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// The raw score.
    Raw,
    /// Points by place at the table, first place first: one entry per seat.
    Places(Vec<i64>),
}

impl Scoring {
    /// The competition style of Guobiao (MCR) tournaments: 4/2/1/0 by place.
    pub fn guobiao() -> Scoring {
        Scoring::Places(vec![4, 2, 1, 0])
    }

    /// Each seat's points for a table whose seats scored `scores`.
    pub fn table_points(&self, scores: &[i64]) -> Vec<Points> {
        match self {
            Scoring::Raw => scores.iter().map(|&s| Points::whole(s)).collect(),
            Scoring::Places(by_place) => {
                let places = places(scores);
                places
                    .iter()
                    .map(|&(first, shared)| {
                        let taken = (first..first + shared)
                            .map(|p| by_place.get(p as usize - 1).copied().unwrap_or(0))
                            .sum::<i64>();
                        Points::from_twelfths(taken * 12 / i64::from(shared))
                    })
                    .collect()
            }
        }
    }
}

/// Each seat's place (1 = best) and how many seats share it: equal scores share the places
/// they take together.
pub fn places(scores: &[i64]) -> Vec<(u32, u32)> {
    scores
        .iter()
        .map(|&s| {
            let above = scores.iter().filter(|&&o| o > s).count() as u32;
            let equal = scores.iter().filter(|&&o| o == s).count() as u32;
            (above + 1, equal)
        })
        .collect()
}

/// One seat at one table of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatResult {
    /// Who sat there (`None`: a bot).
    pub entrant: Option<Entrant>,
    /// The seat's total over the table's hands.
    pub score: i64,
    /// Whether the entrant escaped from the table.
    pub escaped: bool,
}

/// How one entrant stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Who.
    pub entrant: Entrant,
    /// 1 for the leaders; entrants equal on every key share a rank.
    pub rank: u32,
    /// Competition points, the escape penalties taken off.
    pub points: Points,
    /// Raw score over every table.
    pub score: i64,
    /// Tables placed first (a shared first included).
    pub firsts: u32,
    /// Tables played.
    pub tables: u32,
    /// Escapes.
    pub escapes: u32,
}

/// The standings of `entrants` (in registration order) after `tables`, each a table's seats
/// with their results; `escape_penalty` competition points come off for each escape.
pub fn standings(
    scoring: &Scoring,
    escape_penalty: i64,
    entrants: &[Entrant],
    tables: &[Vec<SeatResult>],
) -> Vec<Standing> {
    let mut rows: Vec<Standing> = entrants
        .iter()
        .map(|&entrant| Standing {
            entrant,
            rank: 0,
            points: Points::default(),
            score: 0,
            firsts: 0,
            tables: 0,
            escapes: 0,
        })
        .collect();
    let index = |e: Entrant| entrants.iter().position(|&x| x == e);
    for table in tables {
        let scores: Vec<i64> = table.iter().map(|s| s.score).collect();
        let points = scoring.table_points(&scores);
        let places = places(&scores);
        for ((seat, pts), (place, _)) in table.iter().zip(points).zip(places) {
            let Some(i) = seat.entrant.and_then(index) else {
                continue;
            };
            let row = &mut rows[i];
            row.points = row.points + pts;
            row.score = row.score.saturating_add(seat.score);
            row.tables += 1;
            row.firsts += u32::from(place == 1);
            if seat.escaped {
                row.escapes += 1;
                row.points = row.points - Points::whole(escape_penalty);
            }
        }
    }
    let key = |s: &Standing| (std::cmp::Reverse((s.points, s.score, s.firsts)),);
    // A stable sort keeps registration order among equals.
    rows.sort_by_key(key);
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    rows
}
