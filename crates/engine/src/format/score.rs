//! The `score` format: one Guobiao winning hand per JSON line in, its fans and total out
//! (`conformance/mcr/README.md`). Shared by `mahjong score` and `POST /api/score`.

use serde::{Deserialize, Serialize};

use super::serde_json_id::Id;
use super::{ErrorOutput, InputError, one_tile};
use crate::meld::{KongKind, Meld, MeldKind};
use crate::seat::Wind;
use crate::tile::parse_tiles;
use crate::tiles::TileCounts;
use crate::variants::guobiao::{self, McrHand, WinContext};

/// One input line. Unknown fields (the expected `fans` and `total` of a test vector) are
/// ignored; inside melds every field must be known.
#[derive(Clone, Debug, Deserialize)]
pub struct ScoreInput {
    /// Echoed in the output.
    pub id: Id,
    /// The winner's concealed tiles without the winning tile.
    pub concealed: String,
    /// Declared melds.
    #[serde(default)]
    pub melds: Vec<ScoreMeld>,
    /// The winning tile.
    pub win_tile: String,
    /// Won on one's own draw.
    #[serde(default)]
    pub self_drawn: bool,
    /// 和绝张.
    #[serde(default)]
    pub last_of_kind: bool,
    /// 杠上开花 (self-drawn) or 抢杠和 (claimed).
    #[serde(default)]
    pub kong_win: bool,
    /// The wall's last tile.
    #[serde(default)]
    pub last_tile: bool,
    /// 门风.
    pub seat_wind: Wind,
    /// 圈风.
    pub round_wind: Wind,
    /// Flowers set aside (0..8).
    #[serde(default)]
    pub flowers: u8,
}

/// A declared meld of the score format.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreMeld {
    /// `chow`, `pung` or `kong`.
    pub kind: String,
    /// Its tiles.
    pub tiles: String,
    /// A concealed kong.
    #[serde(default)]
    pub concealed: bool,
}

/// One output line.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum ScoreOutput {
    /// A scored hand.
    Scored {
        /// The input id.
        id: Id,
        /// Each fan scored, in the official table's order.
        fans: Vec<ScoredFan>,
        /// Σ points × count, flowers included.
        total: i64,
        /// Whether the hand reaches the 8-fan minimum (flowers excluded).
        legal: bool,
    },
    /// A refused line.
    Refused {
        /// The input id, when it could be read.
        id: Option<Id>,
        /// What is wrong.
        error: ErrorOutput,
    },
}

/// One fan of a scored hand.
#[derive(Clone, Debug, Serialize)]
pub struct ScoredFan {
    /// The Chinese name of the official table.
    pub name_zh: &'static str,
    /// The standard English name.
    pub name_en: &'static str,
    /// The value of one occurrence.
    pub points: i64,
    /// How many times it is scored.
    pub count: u32,
}

impl ScoreInput {
    /// The hand the line describes.
    ///
    /// # Errors
    /// [`InputError`] for bad notation, melds or flags.
    pub fn to_hand(&self) -> Result<McrHand, InputError> {
        let concealed_tiles = parse_tiles(&self.concealed)?;
        if let Some(f) = concealed_tiles.iter().find(|t| t.is_flower()) {
            return Err(InputError::Shape(format!(
                "concealed: {f} is a flower; give flowers as a count"
            )));
        }
        let win_tile = one_tile(&self.win_tile, "win_tile")?;
        if win_tile.is_flower() {
            return Err(InputError::Shape("win_tile: a flower cannot win".into()));
        }
        if self.flowers > 8 {
            return Err(InputError::Shape(format!(
                "flowers: {} (at most 8)",
                self.flowers
            )));
        }
        let melds = self
            .melds
            .iter()
            .map(ScoreMeld::to_meld)
            .collect::<Result<Vec<_>, _>>()?;
        if self.kong_win && self.last_tile && self.self_drawn {
            // A replacement tile is never the wall's last draw in this format.
            return Err(InputError::Shape(
                "kong_win and last_tile cannot both hold for a self-drawn win".into(),
            ));
        }
        Ok(McrHand {
            concealed: TileCounts::from_tiles(&concealed_tiles),
            melds,
            win_tile,
            context: WinContext {
                self_drawn: self.self_drawn,
                last_of_kind: self.last_of_kind,
                kong_win: self.kong_win,
                last_tile: self.last_tile,
            },
            seat_wind: self.seat_wind,
            round_wind: self.round_wind,
            flowers: self.flowers,
        })
    }
}

impl ScoreMeld {
    fn to_meld(&self) -> Result<Meld, InputError> {
        let mut tiles = parse_tiles(&self.tiles)?;
        tiles.sort();
        let bad = |why: &str| InputError::Shape(format!("meld `{}` {why}", self.tiles));
        let first = *tiles.first().ok_or_else(|| bad("is empty"))?;
        if first.is_flower() {
            return Err(bad("holds flowers"));
        }
        let same = tiles.iter().all(|&t| t == first);
        let kind = match (self.kind.as_str(), tiles.len()) {
            ("chow", 3)
                if first.succ_in_run() == Some(tiles[1])
                    && tiles[1].succ_in_run() == Some(tiles[2]) =>
            {
                MeldKind::Chow
            }
            ("pung", 3) if same => MeldKind::Pung,
            ("kong", 4) if same => MeldKind::Kong(if self.concealed {
                KongKind::Concealed
            } else {
                KongKind::Exposed
            }),
            ("chow" | "pung" | "kong", _) => return Err(bad(&format!("is not a {}", self.kind))),
            (other, _) => return Err(bad(&format!("has unknown kind `{other}`"))),
        };
        if self.concealed && kind != MeldKind::Kong(KongKind::Concealed) {
            return Err(bad("is concealed: only kongs are declared concealed"));
        }
        Ok(Meld {
            kind,
            tile: first,
            from: None,
            claimed: None,
        })
    }
}

/// Scores one parsed line, turning every failure into a refusal.
pub fn score_line(input: &ScoreInput) -> ScoreOutput {
    let id = input.id.clone();
    let hand = match input.to_hand() {
        Ok(h) => h,
        Err(e) => return ScoreOutput::refused(Some(id), e.code(), e.to_string()),
    };
    match guobiao::score(&hand) {
        Ok(scored) => ScoreOutput::Scored {
            id,
            legal: scored.without_flowers() >= guobiao::MINIMUM,
            total: scored.total,
            fans: scored
                .fans
                .iter()
                .map(|&(f, count)| ScoredFan {
                    name_zh: f.zh(),
                    name_en: f.en(),
                    points: f.value(),
                    count,
                })
                .collect(),
        },
        Err(e) => ScoreOutput::refused(Some(id), "not_a_win", e.to_string()),
    }
}

/// Scores one line of text; a line that is not valid JSON of the format is refused with its id
/// when one can be read. Shared by `mahjong score` and the server's `POST /api/score`.
pub fn score_text(line: &str) -> ScoreOutput {
    super::answer_text(
        line,
        |i: &ScoreInput| &i.id,
        score_line,
        ScoreOutput::refused,
    )
}

impl ScoreOutput {
    /// The output of a refused line.
    pub fn refused(id: Option<Id>, code: &str, message: String) -> ScoreOutput {
        ScoreOutput::Refused {
            id,
            error: ErrorOutput {
                code: code.to_owned(),
                message,
            },
        }
    }
}
