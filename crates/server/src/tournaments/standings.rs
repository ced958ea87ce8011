//! Standings and hands, always recomputed from what the store holds (the tables' seatings, their
//! stored hands and escapes): nothing about a result is kept twice, so the standings cannot
//! drift from the hands, and they are live while a round plays (a table counts with the hands
//! it has finished).

use store::{
    EntrantRecord, RoundTableRecord, Store, StoreError, TournamentEscape, TournamentHand,
    TournamentRecord,
};
use tournament::Entrant;
use tournament::duplicate::{Held, compare};
use tournament::scoring::{SeatResult, Standing, standings};

use super::config::TournamentConfig;

/// Everything standings and exports are computed from.
pub struct Results {
    /// Registered players, in registration order.
    pub entrants: Vec<EntrantRecord>,
    /// Every table of every round.
    pub tables: Vec<RoundTableRecord>,
    /// Every stored hand at those tables.
    pub hands: Vec<TournamentHand>,
    /// Every escape penalised at them.
    pub escapes: Vec<TournamentEscape>,
}

impl Results {
    /// Reads them from the store.
    pub async fn load(store: &Store, t: &TournamentRecord) -> Result<Results, StoreError> {
        Ok(Results {
            entrants: store.entrants(&t.id).await?,
            tables: store.round_tables(&t.id).await?,
            hands: store.tournament_hands(&t.id).await?,
            escapes: store.tournament_escapes(&t.id).await?,
        })
    }

    /// Each table's seats with their totals so far: the hands' deltas less the ruleset's
    /// escape penalties of the entrants who escaped there.
    pub fn table_results(&self) -> Vec<Vec<SeatResult>> {
        self.tables
            .iter()
            .map(|table| {
                table
                    .seats
                    .iter()
                    .enumerate()
                    .map(|(seat, entrant)| {
                        let dealt: i64 = self
                            .hands
                            .iter()
                            .filter(|h| h.table == table.table)
                            .filter_map(|h| h.deltas.get(seat))
                            .sum();
                        let player = entrant.and_then(|e| self.player_of(e));
                        let penalties: Vec<&TournamentEscape> = self
                            .escapes
                            .iter()
                            .filter(|x| x.table == table.table && Some(&x.player) == player)
                            .collect();
                        SeatResult {
                            entrant: entrant.map(Entrant),
                            score: dealt - penalties.iter().map(|x| x.points).sum::<i64>(),
                            escaped: !penalties.is_empty(),
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn player_of(&self, entrant: u32) -> Option<&store::PlayerId> {
        self.entrants
            .iter()
            .find(|e| e.entrant == entrant)
            .map(|e| &e.player)
    }

    /// The standings under `config`'s scoring.
    pub fn standings(&self, config: &TournamentConfig) -> Vec<Standing> {
        let entrants: Vec<Entrant> = self.entrants.iter().map(|e| Entrant(e.entrant)).collect();
        standings(
            &config.scoring.scoring(),
            config.escape_penalty,
            &entrants,
            &self.table_results(),
        )
    }

    /// For each stored hand (in order), each seat's duplicate comparison in hundredths: how
    /// much better the seat did than the average of the group's seats that held the same
    /// tiles (the same hand number and wind).
    pub fn duplicate_differences(&self, players: u8) -> Vec<Vec<i64>> {
        let mut out: Vec<Vec<i64>> = self.hands.iter().map(|h| vec![0; h.deltas.len()]).collect();
        let mut groups: Vec<(u32, u32)> = self.hands.iter().map(|h| (h.round, h.group)).collect();
        groups.sort_unstable();
        groups.dedup();
        for (round, group) in groups {
            let mut held = Vec::new();
            let mut at = Vec::new();
            for (i, h) in self.hands.iter().enumerate() {
                if (h.round, h.group) != (round, group) {
                    continue;
                }
                for (seat, &delta) in h.deltas.iter().enumerate() {
                    let wind = ((seat + usize::from(players) - usize::from(h.dealer))
                        % usize::from(players.max(1))) as u8;
                    held.push(Held {
                        table: h.table_no as usize,
                        hand: u32::try_from(h.hand_no).unwrap_or(u32::MAX),
                        wind,
                        delta,
                    });
                    at.push((i, seat));
                }
            }
            for ((i, seat), diff) in at.into_iter().zip(compare(&held)) {
                out[i][seat] = diff;
            }
        }
        out
    }
}
