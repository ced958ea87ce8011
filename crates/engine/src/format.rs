//! The `settle` JSON Lines format of `conformance/README.md`: input and output records.
//!
//! A boundary format, kept apart from the engine's own types: [`SettleInput::to_hand`] parses
//! and validates one line into a [`FinishedHand`], and [`SettleOutput`] is what is written back.

use serde::{Deserialize, Serialize};

pub mod score;
mod write;

pub use score::{ScoreInput, ScoreLines, ScoreOutput, score_json, score_line, score_text};

use crate::meld::{KongKind, Meld, MeldKind};
use crate::ruleset::{RawOptions, Ruleset, RulesetId};
use crate::seat::{BySeat, Seat, SeatSet, Wind};
use crate::settle::{Carried, FinishedHand, PlacedMeld, SeatHand, Settlement, Win, WinFlags};
use crate::tile::{Suit, Tile, parse_tiles};
use crate::tiles::TileCounts;

/// One input line. Unknown top-level fields (a `note`, say) are ignored; inside seats, melds
/// and wins every field must be known, so a misspelt flag is refused rather than ignored.
/// [`SettleInput::from_hand`] writes a finished hand back as a line (default fields left out).
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct SettleInput {
    /// Echoed in the output.
    pub id: serde_json_id::Id,
    /// The preset id.
    pub ruleset: String,
    /// Room options.
    #[serde(default, skip_serializing_if = "RawOptions::is_empty")]
    pub options: RawOptions,
    /// The dealer's seat.
    pub dealer: u8,
    /// The prevalent wind.
    #[serde(default = "east")]
    pub round_wind: Wind,
    /// The wild kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wild: Option<String>,
    /// Bonus kinds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bonus: Vec<String>,
    /// The dice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<[u8; 2]>,
    /// Each seat.
    pub seats: Vec<SeatInput>,
    /// The wins.
    #[serde(default)]
    pub wins: Vec<WinInput>,
    /// Carried table facts.
    #[serde(default, skip_serializing_if = "TableInput::is_empty")]
    pub table: TableInput,
}

fn east() -> Wind {
    Wind::East
}

/// An id that may be a string or a number; echoed verbatim.
pub mod serde_json_id {
    use serde::{Deserialize, Serialize};

    /// A line id.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(untagged)]
    pub enum Id {
        /// A text id.
        Text(String),
        /// A numeric id.
        Number(i64),
    }
}

/// One seat of an input line.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SeatInput {
    /// Concealed tiles without the winning tile.
    #[serde(default)]
    pub concealed: String,
    /// Declared melds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub melds: Vec<MeldInput>,
    /// Flowers.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub flowers: String,
    /// 定缺 suit letter; ignored by a family that declares none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub void: Option<String>,
}

/// One meld of an input line.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeldInput {
    /// `chow`, `pung` or `kong`.
    pub kind: String,
    /// Its tiles.
    pub tiles: String,
    /// The seat claimed from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<u8>,
    /// A concealed kong.
    #[serde(default, skip_serializing_if = "is_false")]
    pub concealed: bool,
    /// An added kong.
    #[serde(default, skip_serializing_if = "is_false")]
    pub added: bool,
    /// The seats still in the hand when the meld was made (血战: a kong made after a win is
    /// paid for only by those); absent means every seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_play: Option<Vec<u8>>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_false(b: &bool) -> bool {
    !*b
}

/// One win of an input line.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WinInput {
    /// The winner.
    pub seat: u8,
    /// The winning tile.
    pub tile: String,
    /// The discarder; null for a self-draw.
    #[serde(default)]
    pub from: Option<u8>,
    /// See [`WinFlags`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub kong_replacement: bool,
    /// See [`WinFlags`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub robbed_kong: bool,
    /// See [`WinFlags`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub robbed_concealed_kong: bool,
    /// See [`WinFlags`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub last_tile: bool,
    /// See [`WinFlags`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub last_of_kind: bool,
    /// See [`WinFlags`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub first_turn: bool,
    /// See [`WinFlags`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub after_kong_discard: bool,
    /// 报听 declared before the win (two-player); see [`WinFlags`].
    #[serde(
        default,
        skip_serializing_if = "is_false",
        alias = "ready",
        alias = "baoting"
    )]
    pub declared_ready: bool,
    /// 天听 (two-player; implies `declared_ready`); see [`WinFlags`].
    #[serde(default, skip_serializing_if = "is_false", alias = "tianting")]
    pub ready_first_turn: bool,
    /// A win in the 海底捞月 phase (two-player); see [`WinFlags`].
    #[serde(default, skip_serializing_if = "is_false", alias = "extra_draw")]
    pub seabed: bool,
}

/// Carried table facts of an input line.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TableInput {
    /// Rounds of 烧庄.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shaozhuang_rounds: u32,
    /// Claim counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claims: Option<Vec<ClaimInput>>,
    /// The 荒番 counter.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub draw_bonus: u32,
    /// The 上楼 floor.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub floor: u32,
    /// Hands the dealer has kept.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dealer_streak: u32,
    /// Drawn hands in a row before.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub draw_streak: u32,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl TableInput {
    fn is_empty(&self) -> bool {
        self.claims.is_none()
            && [
                self.shaozhuang_rounds,
                self.draw_bonus,
                self.floor,
                self.dealer_streak,
                self.draw_streak,
            ]
            .iter()
            .all(|&n| n == 0)
    }
}

/// A claim count between two seats.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimInput {
    /// The claimer.
    pub by: u8,
    /// The discarder.
    pub from: u8,
    /// How many claims.
    pub count: u32,
}

/// Why an input line is refused (becomes the `error` of its output line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// The ruleset id.
    #[error("{0}")]
    Ruleset(#[from] crate::ruleset::RulesetIdError),
    /// The options.
    #[error("{0}")]
    Options(#[from] crate::ruleset::OptionError),
    /// Tile notation.
    #[error("{0}")]
    Tiles(#[from] crate::tile::TileParseError),
    /// Anything else about the line's structure.
    #[error("{0}")]
    Shape(String),
}

impl InputError {
    /// The stable error code written to the output.
    pub fn code(&self) -> &'static str {
        match self {
            InputError::Ruleset(_) => "unknown_ruleset",
            InputError::Options(_) => "bad_option",
            InputError::Tiles(_) => "bad_tiles",
            InputError::Shape(_) => "bad_input",
        }
    }
}

fn seat(i: u8, players: u8, what: &str) -> Result<Seat, InputError> {
    Seat::new(i)
        .filter(|s| s.index() < usize::from(players))
        .ok_or_else(|| {
            InputError::Shape(format!("{what}: seat {i} is not at a table of {players}"))
        })
}

fn one_tile(s: &str, what: &str) -> Result<Tile, InputError> {
    s.parse::<Tile>()
        .map_err(|e| InputError::Shape(format!("{what}: {e}")))
}

impl SettleInput {
    /// Parses and validates the line into a ruleset and a finished hand.
    ///
    /// # Errors
    /// [`InputError`] naming the first problem.
    pub fn to_hand(&self) -> Result<(Ruleset, FinishedHand), InputError> {
        let id: RulesetId = self.ruleset.parse()?;
        let ruleset = Ruleset::new(id, &self.options)?;
        let players = ruleset.rules().flow().players;
        if self.seats.len() != usize::from(players) {
            return Err(InputError::Shape(format!(
                "{} seats given; `{id}` is played by {players}",
                self.seats.len()
            )));
        }
        let mut seats: BySeat<SeatHand> = BySeat::default();
        for (i, input) in self.seats.iter().enumerate() {
            seats.0[i] = input.to_hand(players, i)?;
            // A 定缺 means nothing to a family that declares none (Sichuan standard's Decision).
            if !ruleset.rules().flow().declares_void() {
                seats.0[i].void = None;
            }
        }
        let wins = self
            .wins
            .iter()
            .map(|w| {
                Ok(Win {
                    seat: seat(w.seat, players, "win")?,
                    tile: one_tile(&w.tile, "winning tile")?,
                    from: w.from.map(|f| seat(f, players, "win.from")).transpose()?,
                    flags: WinFlags {
                        kong_replacement: w.kong_replacement,
                        robbed_kong: w.robbed_kong || w.robbed_concealed_kong,
                        robbed_concealed_kong: w.robbed_concealed_kong,
                        last_tile: w.last_tile,
                        last_of_kind: w.last_of_kind,
                        first_turn: w.first_turn,
                        after_kong_discard: w.after_kong_discard,
                        declared_ready: w.declared_ready || w.ready_first_turn,
                        ready_first_turn: w.ready_first_turn,
                        seabed: w.seabed,
                    },
                })
            })
            .collect::<Result<Vec<_>, InputError>>()?;
        let claims = match &self.table.claims {
            None => None,
            Some(list) => Some(
                list.iter()
                    .map(|c| {
                        if c.by == c.from {
                            return Err(InputError::Shape(format!(
                                "claims: seat {} cannot claim from itself",
                                c.by
                            )));
                        }
                        Ok((
                            seat(c.by, players, "claims.by")?,
                            seat(c.from, players, "claims.from")?,
                            c.count,
                        ))
                    })
                    .collect::<Result<Vec<_>, InputError>>()?,
            ),
        };
        let hand = FinishedHand {
            players,
            dealer: seat(self.dealer, players, "dealer")?,
            round_wind: self.round_wind,
            wild: self
                .wild
                .as_deref()
                .map(|w| one_tile(w, "wild"))
                .transpose()?,
            bonus: self
                .bonus
                .iter()
                .map(|b| one_tile(b, "bonus"))
                .collect::<Result<_, _>>()?,
            dice: self.dice,
            seats,
            wins,
            carried: Carried {
                shaozhuang_rounds: self.table.shaozhuang_rounds,
                claims,
                draw_bonus: self.table.draw_bonus,
                floor: self.table.floor,
                dealer_streak: self.table.dealer_streak,
                draw_streak: self.table.draw_streak,
            },
        };
        Ok((ruleset, hand))
    }
}

impl SeatInput {
    fn to_hand(&self, players: u8, index: usize) -> Result<SeatHand, InputError> {
        let concealed_tiles = parse_tiles(&self.concealed)?;
        let mut copies = [0usize; Tile::ALL_KINDS];
        for t in &concealed_tiles {
            copies[t.index()] += 1;
        }
        if let Some((i, &n)) = copies.iter().enumerate().find(|&(_, &n)| n > 4) {
            let tile = Tile::from_index(i as u8).map_or_else(String::new, |t| t.to_string());
            return Err(InputError::Shape(format!(
                "seat {index}: {tile} held {n} times"
            )));
        }
        if let Some(f) = concealed_tiles.iter().find(|t| t.is_flower()) {
            return Err(InputError::Shape(format!(
                "seat {index}: flower {f} among concealed tiles"
            )));
        }
        let flowers = parse_tiles(&self.flowers)?;
        if let Some(t) = flowers.iter().find(|t| !t.is_flower()) {
            return Err(InputError::Shape(format!(
                "seat {index}: {t} listed as a flower"
            )));
        }
        let void = match self.void.as_deref() {
            None => None,
            Some(v) => match v.parse::<Suit>() {
                Ok(s) if s.is_numbered() => Some(s),
                _ => {
                    return Err(InputError::Shape(format!(
                        "seat {index}: void `{v}` is not m, p or s"
                    )));
                }
            },
        };
        let melds = self
            .melds
            .iter()
            .map(|m| m.to_meld(players, index))
            .collect::<Result<Vec<_>, _>>()?;
        if melds.len() > 4 {
            return Err(InputError::Shape(format!(
                "seat {index}: more than four melds"
            )));
        }
        Ok(SeatHand {
            concealed: TileCounts::from_tiles(&concealed_tiles),
            melds,
            flowers,
            void,
        })
    }
}

impl MeldInput {
    fn to_meld(&self, players: u8, index: usize) -> Result<PlacedMeld, InputError> {
        let mut tiles = parse_tiles(&self.tiles)?;
        tiles.sort();
        let bad =
            |why: &str| InputError::Shape(format!("seat {index}: meld `{}` {why}", self.tiles));
        let first = *tiles.first().ok_or_else(|| bad("is empty"))?;
        let same = tiles.iter().all(|&t| t == first);
        let kind = match self.kind.as_str() {
            "chow" => {
                let run = tiles.len() == 3
                    && first.suit().is_numbered()
                    && first.succ_in_run() == Some(tiles[1])
                    && tiles[1].succ_in_run() == Some(tiles[2]);
                if !run {
                    return Err(bad("is not a run of three"));
                }
                MeldKind::Chow
            }
            "pung" if tiles.len() == 3 && same => MeldKind::Pung,
            "kong" if tiles.len() == 4 && same => {
                MeldKind::Kong(match (self.concealed, self.added) {
                    (true, false) => KongKind::Concealed,
                    (false, true) => KongKind::Added,
                    (false, false) => KongKind::Exposed,
                    (true, true) => return Err(bad("cannot be both concealed and added")),
                })
            }
            "pung" | "kong" => return Err(bad(&format!("is not a {}", self.kind))),
            other => return Err(bad(&format!("has unknown kind `{other}`"))),
        };
        if first.is_flower() {
            return Err(bad("holds flowers"));
        }
        let from = self
            .from
            .map(|f| seat(f, players, "meld.from"))
            .transpose()?;
        if from.is_some_and(|f| f.index() == index) {
            return Err(bad("is claimed from its own seat"));
        }
        if kind == MeldKind::Kong(KongKind::Concealed) && from.is_some() {
            return Err(bad("is a concealed kong with a `from`"));
        }
        let claimed = from.map(|_| first);
        let in_play = match &self.in_play {
            None => SeatSet::all(players),
            Some(list) => list
                .iter()
                .map(|&s| seat(s, players, "meld.in_play"))
                .collect::<Result<SeatSet, _>>()?,
        };
        Ok(PlacedMeld {
            meld: Meld {
                kind,
                tile: first,
                from,
                claimed,
            },
            in_play,
        })
    }
}

/// One output line.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum SettleOutput {
    /// A settled hand.
    Settled {
        /// The input id.
        id: serde_json_id::Id,
        /// Each winner's items.
        fans: Vec<FansOutput>,
        /// Other lines.
        extras: Vec<ExtraOutput>,
        /// Score change per seat.
        deltas: Vec<i64>,
    },
    /// A refused line.
    Refused {
        /// The input id, when it could be read.
        id: Option<serde_json_id::Id>,
        /// What is wrong.
        error: ErrorOutput,
    },
}

/// A winner's items.
#[derive(Clone, Debug, Serialize)]
pub struct FansOutput {
    /// The winner.
    pub seat: u8,
    /// The items.
    pub items: Vec<ItemOutput>,
    /// The total.
    pub total: i64,
}

/// One item.
#[derive(Clone, Debug, Serialize)]
pub struct ItemOutput {
    /// Chinese name.
    pub name: String,
    /// Value of one occurrence.
    pub value: i64,
    /// Occurrences.
    pub count: u32,
}

/// An extra line.
#[derive(Clone, Debug, Serialize)]
pub struct ExtraOutput {
    /// Chinese name.
    pub name: String,
    /// Value.
    pub value: i64,
}

/// A refusal.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorOutput {
    /// Stable code.
    pub code: String,
    /// Human message.
    pub message: String,
}

impl SettleOutput {
    /// The output of a settled hand.
    pub fn settled(id: serde_json_id::Id, players: u8, st: &Settlement) -> SettleOutput {
        SettleOutput::Settled {
            id,
            fans: st
                .fans
                .iter()
                .map(|f| FansOutput {
                    seat: f.seat.index() as u8,
                    items: f
                        .items
                        .iter()
                        .map(|i| ItemOutput {
                            name: i.name.to_owned(),
                            value: i.value,
                            count: i.count,
                        })
                        .collect(),
                    total: f.total,
                })
                .collect(),
            extras: st
                .extras
                .iter()
                .map(|e| ExtraOutput {
                    name: e.name.to_owned(),
                    value: e.value,
                })
                .collect(),
            deltas: st
                .deltas
                .0
                .iter()
                .take(usize::from(players))
                .copied()
                .collect(),
        }
    }

    /// The output of a refused line.
    pub fn refused(id: Option<serde_json_id::Id>, code: &str, message: String) -> SettleOutput {
        SettleOutput::Refused {
            id,
            error: ErrorOutput {
                code: code.to_owned(),
                message,
            },
        }
    }
}

/// Settles one parsed line, turning every failure into a refusal.
pub fn settle_line(input: &SettleInput) -> SettleOutput {
    let id = input.id.clone();
    let (ruleset, hand) = match input.to_hand() {
        Ok(x) => x,
        Err(e) => return SettleOutput::refused(Some(id), e.code(), e.to_string()),
    };
    match ruleset.settle(&hand) {
        Ok(st) => SettleOutput::settled(id, hand.players, &st),
        Err(e) => {
            let code = match e {
                crate::settle::SettleError::NotAWin { .. } => "not_a_win",
                crate::settle::SettleError::BadOption(_) => "bad_option",
                _ => "illegal_hand",
            };
            SettleOutput::refused(Some(id), code, e.to_string())
        }
    }
}

/// Settles one line of text: a line that is not valid JSON of the format is refused with its id
/// when one can be read. Shared by `mahjong settle` and the server's `POST /api/settle`.
pub fn settle_text(line: &str) -> SettleOutput {
    answer_text(
        line,
        |i: &SettleInput| &i.id,
        settle_line,
        SettleOutput::refused,
    )
}

/// Parses one line of a line format and answers it, refusing what does not parse (with the
/// line's `id` when one can be read). The engine never panics on input; should a defect ever
/// make it, that line is answered with an `internal_error` and the caller goes on.
pub(crate) fn answer_text<I: serde::de::DeserializeOwned, O>(
    line: &str,
    id_of: impl Fn(&I) -> &serde_json_id::Id,
    answer: impl Fn(&I) -> O,
    refused: fn(Option<serde_json_id::Id>, &str, String) -> O,
) -> O {
    match serde_json::from_str::<I>(line) {
        Ok(input) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| answer(&input)))
            .unwrap_or_else(|_| {
                refused(
                    Some(id_of(&input).clone()),
                    "internal_error",
                    "the engine failed on this line".into(),
                )
            }),
        Err(e) => {
            let id = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .and_then(|id| serde_json::from_value::<serde_json_id::Id>(id).ok());
            refused(id, "bad_json", e.to_string())
        }
    }
}
