//! The `score` format: one Guobiao winning hand per JSON line in, its fans and total out
//! (`conformance/mcr/README.md`). Shared by `mahjong score` and `POST /api/score`.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::serde_json_id::Id;
use super::{ErrorOutput, InputError, one_tile};
use crate::meld::{KongKind, Meld, MeldKind};
use crate::seat::Wind;
use crate::tile::{Tile, parse_plain, parse_tiles};
use crate::tiles::TileCounts;
use crate::variants::guobiao::{self, McrHand, Scored, WinContext};

mod known;
mod layout;
mod read;
mod skip;
mod write;

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
                .collect::<Vec<_>>(),
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

/// A line as `score_text` reads it first ([`read::line_fields`]): [`ScoreInput`] with its text
/// borrowed from the line instead of copied, its melds `M` (a `Vec` for a [`ScoreInput`], an
/// array on the stack for a line read), and an id that is a number or a string without escapes.
/// A line that reader does not read is read again as a [`ScoreInput`], whose answer and errors
/// are the format's; a line it reads, that one reads alike.
struct LineFields<'a, M> {
    id: LineId<'a>,
    concealed: &'a str,
    melds: M,
    win_tile: &'a str,
    self_drawn: bool,
    last_of_kind: bool,
    kong_win: bool,
    last_tile: bool,
    seat_wind: Wind,
    round_wind: Wind,
    flowers: u8,
}

/// [`ScoreMeld`] borrowed from the line.
struct MeldFields<'a> {
    kind: &'a str,
    tiles: &'a str,
    concealed: bool,
}

/// An [`Id`] borrowed from the line.
enum LineId<'a> {
    Text(&'a str),
    Number(i64),
}

impl LineId<'_> {
    fn to_id(&self) -> Id {
        match *self {
            LineId::Text(s) => Id::Text(s.to_owned()),
            LineId::Number(n) => Id::Number(n),
        }
    }
}

impl<'a, M: AsRef<[MeldFields<'a>]>> LineFields<'a, M> {
    /// The hand the line describes.
    fn to_hand(&self) -> Result<McrHand, InputError> {
        let concealed = concealed_counts(self.concealed)?;
        let win_tile = win_tile(self.win_tile)?;
        if self.flowers > 8 {
            return Err(InputError::Shape(format!(
                "flowers: {} (at most 8)",
                self.flowers
            )));
        }
        let melds = self
            .melds
            .as_ref()
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
            concealed,
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

/// The concealed tiles, read the plain way when they are written so ([`parse_plain`]).
fn concealed_counts(text: &str) -> Result<TileCounts, InputError> {
    let mut counts = TileCounts::new();
    if parse_plain(text, |t| {
        counts.add(t);
        Some(())
    })
    .is_some()
    {
        return Ok(counts);
    }
    let tiles = parse_tiles(text)?;
    if let Some(f) = tiles.iter().find(|t| t.is_flower()) {
        return Err(InputError::Shape(format!(
            "concealed: {f} is a flower; give flowers as a count"
        )));
    }
    Ok(TileCounts::from_tiles(&tiles))
}

/// The winning tile, read the plain way when it is written so ([`parse_plain`]).
fn win_tile(text: &str) -> Result<Tile, InputError> {
    let mut one = ArrayVec::<Tile, 1>::new();
    if parse_plain(text, |t| one.try_push(t).ok()).is_some()
        && let [tile] = one.as_slice()
    {
        return Ok(*tile);
    }
    let tile = one_tile(text, "win_tile")?;
    if tile.is_flower() {
        return Err(InputError::Shape("win_tile: a flower cannot win".into()));
    }
    Ok(tile)
}

impl MeldFields<'_> {
    fn to_meld(&self) -> Result<Meld, InputError> {
        let mut plain = ArrayVec::<Tile, 4>::new();
        if parse_plain(self.tiles, |t| plain.try_push(t).ok()).is_some() {
            return self.meld_of(&mut plain);
        }
        self.meld_of(&mut parse_tiles(self.tiles)?)
    }

    /// The meld these tiles make, as declared.
    fn meld_of(&self, tiles: &mut [Tile]) -> Result<Meld, InputError> {
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

/// What a hand comes to: its score and whether it reaches the minimum, or why it is refused
/// (the error's code and message).
fn outcome(hand: Result<McrHand, InputError>) -> Result<(Scored, bool), (&'static str, String)> {
    let hand = hand.map_err(|e| (e.code(), e.to_string()))?;
    let scored = guobiao::score(&hand).map_err(|e| ("not_a_win", e.to_string()))?;
    let legal = scored.without_flowers() >= guobiao::MINIMUM;
    Ok((scored, legal))
}

/// The answer to a line with this id and hand.
fn answer(id: Id, hand: Result<McrHand, InputError>) -> ScoreOutput {
    match outcome(hand) {
        Ok((scored, legal)) => ScoreOutput::Scored {
            id,
            legal,
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
        Err((code, message)) => ScoreOutput::refused(Some(id), code, message),
    }
}

/// Runs `work`; should a defect in the engine ever panic inside it, the line is answered with an
/// `internal_error` and the caller goes on.
fn guarded<T>(id: &LineId<'_>, work: impl FnOnce() -> T) -> Result<T, ScoreOutput> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(|_| {
        ScoreOutput::refused(
            Some(id.to_id()),
            "internal_error",
            "the engine failed on this line".into(),
        )
    })
}

/// A line [`read::line_fields`] does not read, read whole as a [`ScoreInput`]: the format's
/// answer and errors.
fn read_whole(line: &str) -> ScoreOutput {
    super::answer_text(
        line,
        |i: &ScoreInput| &i.id,
        score_line,
        ScoreOutput::refused,
    )
}

/// Scores one line of text; a line that is not valid JSON of the format is refused with its id
/// when one can be read. Shared by `mahjong score` and the server's `POST /api/score`.
///
/// Most lines are read once, borrowing their text ([`read::Reader`]); any other line is read
/// as a [`ScoreInput`], with the format's errors.
pub fn score_text(line: &str) -> ScoreOutput {
    match read::Reader::default().fields(line.as_bytes()) {
        Some(fields) => guarded(&fields.id, || fields.answer()).unwrap_or_else(|e| e),
        None => read_whole(line),
    }
}

/// Scores one line of text and writes its answer as JSON into `out`, without a newline: the
/// bytes `serde_json::to_writer(out, &score_text(line))` writes. [`ScoreLines`] for many lines.
///
/// # Errors
/// serde_json's, which writing into a `Vec` never gives.
pub fn score_json(line: &str, out: &mut Vec<u8>) -> serde_json::Result<()> {
    ScoreLines::default().answer(line, out)
}

/// Scores lines one after another as `mahjong score` does, each answer written as JSON: the
/// bytes `serde_json::to_writer(out, &score_text(line))` writes, faster. The layout of the lines
/// read so far is kept and expected again ([`read::Reader`]); a scored hand's answer is written
/// straight into bytes ([`write::scored`]), its fans' names and keys copied from a table written
/// once per process, instead of being built as values and serialized.
#[derive(Default)]
pub struct ScoreLines {
    reader: read::Reader,
}

impl ScoreLines {
    /// Scores `line` and writes its answer into `out`, without a newline.
    ///
    /// # Errors
    /// serde_json's, which writing into a `Vec` never gives.
    pub fn answer(&mut self, line: &str, out: &mut Vec<u8>) -> serde_json::Result<()> {
        match self.answer_read(line.as_bytes(), out) {
            Some(written) => written,
            None => serde_json::to_writer(out, &read_whole(line)),
        }
    }

    /// [`ScoreLines::answer`] for a line given as bytes, if the hand-written reader takes it,
    /// which makes it UTF-8; `None` (nothing written) for any other line, which the caller
    /// checks and gives to [`ScoreLines::answer`]. So `mahjong score` checks the UTF-8 of only
    /// those lines.
    pub fn answer_read(
        &mut self,
        line: &[u8],
        out: &mut Vec<u8>,
    ) -> Option<serde_json::Result<()>> {
        let fields = self.reader.fields(line)?;
        let written = match guarded(&fields.id, || outcome(fields.to_hand())) {
            Ok(Ok((scored, legal))) => write::scored(&fields.id, &scored, legal, out),
            Ok(Err((code, message))) => serde_json::to_writer(
                out,
                &ScoreOutput::refused(Some(fields.id.to_id()), code, message),
            ),
            Err(internal) => serde_json::to_writer(out, &internal),
        };
        Some(written)
    }
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
mod tests;
