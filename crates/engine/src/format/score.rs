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
        LineFields {
            id: LineId::Number(0),
            concealed: &self.concealed,
            melds: self
                .melds
                .iter()
                .map(|m| MeldFields {
                    kind: &m.kind,
                    tiles: &m.tiles,
                    concealed: m.concealed,
                })
                .collect(),
            win_tile: &self.win_tile,
            self_drawn: self.self_drawn,
            last_of_kind: self.last_of_kind,
            kong_win: self.kong_win,
            last_tile: self.last_tile,
            seat_wind: self.seat_wind,
            round_wind: self.round_wind,
            flowers: self.flowers,
        }
        .to_hand()
    }
}

/// A line as `score_text` reads it first: [`ScoreInput`] with its text borrowed from the line
/// instead of copied, and an id that is a number or a string without escapes. A line this does
/// not read (an escaped string, an odd id, any mistake) is read again as a [`ScoreInput`], whose
/// answer and errors are the format's; a line this reads, that one reads alike.
#[derive(Deserialize)]
struct LineFields<'a> {
    #[serde(borrow)]
    id: LineId<'a>,
    concealed: &'a str,
    #[serde(default, borrow)]
    melds: Vec<MeldFields<'a>>,
    win_tile: &'a str,
    #[serde(default)]
    self_drawn: bool,
    #[serde(default)]
    last_of_kind: bool,
    #[serde(default)]
    kong_win: bool,
    #[serde(default)]
    last_tile: bool,
    seat_wind: Wind,
    round_wind: Wind,
    #[serde(default)]
    flowers: u8,
}

/// [`ScoreMeld`] borrowed from the line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MeldFields<'a> {
    kind: &'a str,
    tiles: &'a str,
    #[serde(default)]
    concealed: bool,
}

/// An [`Id`] read without buffering the value first, as an untagged enum must.
enum LineId<'a> {
    Text(&'a str),
    Number(i64),
}

impl<'de: 'a, 'a> Deserialize<'de> for LineId<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = LineId<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number or a string")
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Self::Value, E> {
                Ok(LineId::Number(n))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Self::Value, E> {
                i64::try_from(n)
                    .map(LineId::Number)
                    .map_err(|_| E::custom("an id above i64"))
            }
            fn visit_borrowed_str<E: serde::de::Error>(
                self,
                s: &'de str,
            ) -> Result<Self::Value, E> {
                Ok(LineId::Text(s))
            }
        }
        d.deserialize_any(Visit)
    }
}

impl LineId<'_> {
    fn to_id(&self) -> Id {
        match *self {
            LineId::Text(s) => Id::Text(s.to_owned()),
            LineId::Number(n) => Id::Number(n),
        }
    }
}

impl LineFields<'_> {
    /// The hand the line describes.
    fn to_hand(&self) -> Result<McrHand, InputError> {
        let concealed_tiles = parse_tiles(self.concealed)?;
        if let Some(f) = concealed_tiles.iter().find(|t| t.is_flower()) {
            return Err(InputError::Shape(format!(
                "concealed: {f} is a flower; give flowers as a count"
            )));
        }
        let win_tile = one_tile(self.win_tile, "win_tile")?;
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
            .map(MeldFields::to_meld)
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

    /// Scores the line, turning every failure into a refusal.
    fn answer(&self) -> ScoreOutput {
        answer(self.id.to_id(), self.to_hand())
    }
}

impl MeldFields<'_> {
    fn to_meld(&self) -> Result<Meld, InputError> {
        let mut tiles = parse_tiles(self.tiles)?;
        tiles.sort();
        let bad = |why: &str| InputError::Shape(format!("meld `{}` {why}", self.tiles));
        let first = *tiles.first().ok_or_else(|| bad("is empty"))?;
        if first.is_flower() {
            return Err(bad("holds flowers"));
        }
        let same = tiles.iter().all(|&t| t == first);
        let kind = match (self.kind, tiles.len()) {
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
    answer(input.id.clone(), input.to_hand())
}

/// The answer to a line with this id and hand.
fn answer(id: Id, hand: Result<McrHand, InputError>) -> ScoreOutput {
    let hand = match hand {
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
///
/// Most lines are read once, borrowing their text ([`LineFields`]); any other line is read as a
/// [`ScoreInput`], with the format's errors.
pub fn score_text(line: &str) -> ScoreOutput {
    if let Ok(fields) = serde_json::from_str::<LineFields<'_>>(line) {
        return std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fields.answer()))
            .unwrap_or_else(|_| {
                ScoreOutput::refused(
                    Some(fields.id.to_id()),
                    "internal_error",
                    "the engine failed on this line".into(),
                )
            });
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer of the path every line took before the borrowed reading: the whole
    /// [`ScoreInput`], with the format's errors.
    fn read_whole(line: &str) -> ScoreOutput {
        super::super::answer_text(
            line,
            |i: &ScoreInput| &i.id,
            score_line,
            ScoreOutput::refused,
        )
    }

    fn check(line: &str) {
        let got = serde_json::to_string(&score_text(line)).expect("serializes");
        let want = serde_json::to_string(&read_whole(line)).expect("serializes");
        assert_eq!(got, want, "{line}");
    }

    #[test]
    fn a_line_read_borrowed_is_answered_as_read_whole() {
        let hand = r#""concealed": "123456789m234p5s", "win_tile": "5s", "seat_wind": "E", "round_wind": "S""#;
        for id in [
            "7",
            "-3",
            "9223372036854775807",
            "9223372036854775808",
            "1.5",
            "\"a\"",
            "\"a\\\"b\"",
            "\"\\u0031\"",
            "null",
            "[1]",
            "{}",
            "true",
        ] {
            check(&format!("{{\"id\": {id}, {hand}}}"));
        }
        for line in [
            format!("{{\"id\": 1, {hand}, \"fans\": [{{\"name_zh\": \"x\"}}], \"total\": 3}}"),
            format!("{{\"id\": 1, {hand}, \"flowers\": 9}}"),
            format!("{{\"id\": 1, {hand}, \"id\": 2}}"),
            format!("{{\"id\": 1, {hand}}} trailing"),
            r#"{"id": 2, "concealed": "\u0031\u0032\u0033m456789m234p5s", "win_tile": "5s", "seat_wind": "E", "round_wind": "S"}"#.to_owned(),
            r#"{"id": 3, "concealed": "1m", "win_tile": "1m", "seat_wind": "E", "round_wind": "E"}"#.to_owned(),
            r#"{"id": 4, "concealed": "5p", "melds": [{"kind": "chow", "tiles": "234s"}, {"kind": "pung", "tiles": "555m"}, {"kind": "chow", "tiles": "234s"}, {"kind": "chow", "tiles": "234s", "concealed": false}], "win_tile": "5p", "self_drawn": true, "seat_wind": "N", "round_wind": "W"}"#.to_owned(),
            r#"{"id": 5, "concealed": "5p", "melds": [{"kind": "chow", "tiles": "234s", "from": 1}], "win_tile": "5p", "seat_wind": "N", "round_wind": "W"}"#.to_owned(),
            r#"{"id": 6, "concealed": "12x", "win_tile": "5p", "seat_wind": "N", "round_wind": "W"}"#.to_owned(),
            r#"{"id": 7, "concealed": "", "win_tile": "5p", "seat_wind": "Q", "round_wind": "W"}"#.to_owned(),
            r#"{"concealed": "1m", "win_tile": "1m", "seat_wind": "E", "round_wind": "E"}"#.to_owned(),
            "not json".to_owned(),
            "{}".to_owned(),
        ] {
            check(&line);
        }
        let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../conformance/mcr/golden_public.jsonl");
        let text = std::fs::read_to_string(golden).expect("the golden hands");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            check(line);
        }
    }
}
