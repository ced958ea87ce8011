//! A hand-written reader of score lines: the fields the scorer needs, borrowed from the line,
//! with every other field skipped by a small validating scanner ([`super::skip`]).
//!
//! Why not serde_json: on a golden line most of its cost went to scanning the expected `fans`
//! and `total` that the scorer never reads (docs/PERFORMANCE.md, issue 30). This reader accepts
//! only the plain JSON it reads completely: strings without escapes or control characters, ids
//! that are integers from 0 to `i64::MAX` or such strings, flags that are `true` or `false`,
//! winds that are `"E"`, `"S"`, `"W"`, `"N"`, at most four melds, other fields as
//! [`super::skip`] skips them. Anything else (an escape, a duplicate or missing field, a number
//! it does not read, any mistake) gives `None`, and the caller reads the line with serde_json as
//! a `ScoreInput`, whose answer or error is the format's. So a line this reads is one that
//! serde_json reads alike, and the answers never differ.
//!
//! The lines of a file are mostly laid out alike: the same keys in the same order, the same
//! spacing. A [`Reader`] keeps the [`Layout`](super::layout::Layout) of the last line it read
//! field by field and matches the next line against it first.
//!
//! The reader takes the line's bytes: a line it reads is UTF-8, every string in it having been
//! checked ([`string_end`]) and everything else being ASCII, so that `mahjong score` need not
//! check the line first. Each value reader takes the bytes and the index where the value starts
//! (whitespace skipped) and gives the value and the index past it.

use arrayvec::ArrayVec;

use super::layout::Layout;
use super::skip::{Elements, past_skipped, string_end, ws};
use super::{LineFields, LineId, MeldFields};
use crate::seat::Wind;

/// The melds a line may declare and still be read here; a hand has at most four.
pub(super) type Melds<'a> = ArrayVec<MeldFields<'a>, 4>;

/// A line as read here.
pub(super) type Fields<'a> = LineFields<'a, Melds<'a>>;

/// A value read, and the index past it.
type Read<T> = Option<(T, usize)>;

/// Reads lines one after another, keeping the layout of the last one read field by field.
#[derive(Default)]
pub(super) struct Reader {
    layout: Layout<Field>,
    memory: Memory,
}

/// What a [`Reader`] keeps of the values of the last lines.
#[derive(Default)]
pub(super) struct Memory {
    /// What is kept of the elements of each skipped array, by the skipped field's rank in the
    /// line.
    skipped: Vec<Elements>,
    /// The layout of the last meld read field by field.
    meld: Layout<MeldField>,
}

impl Reader {
    /// The line's fields, when the line is plain JSON of the score format (see the module's
    /// doc).
    pub(super) fn fields<'a>(&mut self, b: &'a [u8]) -> Option<Fields<'a>> {
        let mut seen = Seen::default();
        let memory = &mut self.memory;
        let laid_out = self
            .layout
            .past(b, 0, |i, field| read_field(b, i, field, &mut seen, memory));
        if laid_out != Some(b.len()) {
            seen = Seen::default();
            self.read_learning(b, &mut seen)?;
        }
        seen.fields()
    }

    /// Reads the line field by field, taking down its layout.
    fn read_learning<'a>(&mut self, b: &'a [u8], seen: &mut Seen<'a>) -> Option<()> {
        let mut taking = self.layout.take(0);
        let memory = &mut self.memory;
        let mut skipped = 0;
        let end = object(b, ws(b, 0), |i, key| {
            let field = Field::of(key, &mut skipped);
            taking.field(b, i, field);
            let end = read_field(b, i, field, seen, memory)?;
            taking.value_ends(end);
            Some(end)
        })?;
        if ws(b, end) != b.len() {
            return None;
        }
        taking.ends(b, b.len());
        Some(())
    }
}

/// A field of a score line, as the reader takes it.
#[derive(Clone, Copy)]
pub(super) enum Field {
    Id,
    Concealed,
    Melds,
    WinTile,
    SelfDrawn,
    LastOfKind,
    KongWin,
    LastTile,
    SeatWind,
    RoundWind,
    Flowers,
    /// A field the scorer does not read: the line's `n`th such.
    Skipped(usize),
}

impl Field {
    /// The field of `key`; `skipped` counts the unread fields so far.
    fn of(key: &[u8], skipped: &mut usize) -> Field {
        match key {
            b"id" => Field::Id,
            b"concealed" => Field::Concealed,
            b"melds" => Field::Melds,
            b"win_tile" => Field::WinTile,
            b"self_drawn" => Field::SelfDrawn,
            b"last_of_kind" => Field::LastOfKind,
            b"kong_win" => Field::KongWin,
            b"last_tile" => Field::LastTile,
            b"seat_wind" => Field::SeatWind,
            b"round_wind" => Field::RoundWind,
            b"flowers" => Field::Flowers,
            _ => {
                *skipped += 1;
                Field::Skipped(*skipped - 1)
            }
        }
    }
}

/// The top-level fields read so far; a second one of a name refuses the line, as serde does.
#[derive(Default)]
struct Seen<'a> {
    id: Option<LineId<'a>>,
    concealed: Option<&'a str>,
    melds: Option<Melds<'a>>,
    win_tile: Option<&'a str>,
    self_drawn: Option<bool>,
    last_of_kind: Option<bool>,
    kong_win: Option<bool>,
    last_tile: Option<bool>,
    seat_wind: Option<Wind>,
    round_wind: Option<Wind>,
    flowers: Option<u8>,
}

impl<'a> Seen<'a> {
    /// The line's fields, if every required one was there.
    fn fields(self) -> Option<Fields<'a>> {
        Some(LineFields {
            id: self.id?,
            concealed: self.concealed?,
            melds: self.melds.unwrap_or_default(),
            win_tile: self.win_tile?,
            self_drawn: self.self_drawn.unwrap_or_default(),
            last_of_kind: self.last_of_kind.unwrap_or_default(),
            kong_win: self.kong_win.unwrap_or_default(),
            last_tile: self.last_tile.unwrap_or_default(),
            seat_wind: self.seat_wind?,
            round_wind: self.round_wind?,
            flowers: self.flowers.unwrap_or_default(),
        })
    }
}

/// Reads the value of `field` at `i` into `seen`; past it.
fn read_field<'a>(
    b: &'a [u8],
    i: usize,
    field: Field,
    seen: &mut Seen<'a>,
    memory: &mut Memory,
) -> Option<usize> {
    match field {
        Field::Id => once(&mut seen.id, id(b, i)),
        Field::Concealed => once(&mut seen.concealed, text(b, i)),
        Field::Melds => once(&mut seen.melds, melds(b, i, &mut memory.meld)),
        Field::WinTile => once(&mut seen.win_tile, text(b, i)),
        Field::SelfDrawn => once(&mut seen.self_drawn, flag(b, i)),
        Field::LastOfKind => once(&mut seen.last_of_kind, flag(b, i)),
        Field::KongWin => once(&mut seen.kong_win, flag(b, i)),
        Field::LastTile => once(&mut seen.last_tile, flag(b, i)),
        Field::SeatWind => once(&mut seen.seat_wind, wind(b, i)),
        Field::RoundWind => once(&mut seen.round_wind, wind(b, i)),
        Field::Flowers => {
            let (n, i) = unsigned(b, i)?;
            once(&mut seen.flowers, Some((u8::try_from(n).ok()?, i)))
        }
        Field::Skipped(n) => {
            let skipped = &mut memory.skipped;
            if skipped.len() <= n {
                skipped.resize_with(n + 1, Elements::default);
            }
            past_skipped(b, i, skipped.get_mut(n)?)
        }
    }
}

/// Fills `slot` with the value read, unless it was filled before; past the value.
fn once<T>(slot: &mut Option<T>, read: Read<T>) -> Option<usize> {
    let (value, i) = read?;
    if slot.is_some() {
        return None;
    }
    *slot = Some(value);
    Some(i)
}

/// The object at `i`: `value` reads the value of each key, given where it starts; past the
/// object.
fn object(
    b: &[u8],
    i: usize,
    mut value: impl FnMut(usize, &[u8]) -> Option<usize>,
) -> Option<usize> {
    if *b.get(i)? != b'{' {
        return None;
    }
    let mut i = ws(b, i + 1);
    if *b.get(i)? == b'}' {
        return Some(i + 1);
    }
    loop {
        let (key, after) = span(b, i)?;
        let colon = ws(b, after);
        if *b.get(colon)? != b':' {
            return None;
        }
        i = ws(b, value(ws(b, colon + 1), key)?);
        match *b.get(i)? {
            b',' => i = ws(b, i + 1),
            b'}' => return Some(i + 1),
            _ => return None,
        }
    }
}

/// The bytes of the string at `i` (without escapes or control characters), between its quotes.
fn span(b: &[u8], i: usize) -> Read<&[u8]> {
    if *b.get(i)? != b'"' {
        return None;
    }
    let start = i + 1;
    let end = start + string_end(b.get(start..)?)?;
    if *b.get(end)? != b'"' {
        return None;
    }
    Some((b.get(start..end)?, end + 1))
}

/// The string at `i`, without escapes or control characters.
fn text(b: &[u8], i: usize) -> Read<&str> {
    let (bytes, past) = span(b, i)?;
    Some((std::str::from_utf8(bytes).ok()?, past))
}

fn flag(b: &[u8], i: usize) -> Read<bool> {
    let rest = b.get(i..)?;
    if rest.starts_with(b"true") {
        Some((true, i + 4))
    } else if rest.starts_with(b"false") {
        Some((false, i + 5))
    } else {
        None
    }
}

/// An integer without sign, fraction or exponent that fits in a `u64`.
fn unsigned(b: &[u8], start: usize) -> Read<u64> {
    let mut i = start;
    let mut n: u64 = 0;
    while let Some(&d @ b'0'..=b'9') = b.get(i) {
        n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        i += 1;
    }
    let digits = i - start;
    // `01` is not JSON; `1.0` and `1e0` are floats, which serde reads otherwise.
    if digits == 0 || (digits > 1 && b.get(start) == Some(&b'0')) {
        return None;
    }
    (!matches!(b.get(i), Some(b'.' | b'e' | b'E'))).then_some((n, i))
}

fn id(b: &[u8], i: usize) -> Read<LineId<'_>> {
    if *b.get(i)? == b'"' {
        let (s, i) = text(b, i)?;
        return Some((LineId::Text(s), i));
    }
    let (n, i) = unsigned(b, i)?;
    Some((LineId::Number(i64::try_from(n).ok()?), i))
}

fn wind(b: &[u8], i: usize) -> Read<Wind> {
    let (s, i) = span(b, i)?;
    let wind = match s {
        b"E" => Wind::East,
        b"S" => Wind::South,
        b"W" => Wind::West,
        b"N" => Wind::North,
        _ => return None,
    };
    Some((wind, i))
}

/// The melds at `i`, each matched against `layout` first.
fn melds<'a>(b: &'a [u8], i: usize, layout: &mut Layout<MeldField>) -> Read<Melds<'a>> {
    let mut melds = Melds::new();
    if *b.get(i)? != b'[' {
        return None;
    }
    let mut i = ws(b, i + 1);
    if *b.get(i)? == b']' {
        return Some((melds, i + 1));
    }
    loop {
        let mut seen = MeldSeen::default();
        let past = match layout.past(b, i, |i, field| seen.read(b, i, field)) {
            Some(past) => past,
            None => {
                seen = MeldSeen::default();
                meld_learning(b, i, &mut seen, layout)?
            }
        };
        melds.try_push(seen.fields()?).ok()?;
        i = ws(b, past);
        match *b.get(i)? {
            b',' => i = ws(b, i + 1),
            b']' => return Some((melds, i + 1)),
            _ => return None,
        }
    }
}

/// Reads the meld at `i` field by field into `seen`, taking down its layout; past it.
fn meld_learning<'a>(
    b: &'a [u8],
    i: usize,
    seen: &mut MeldSeen<'a>,
    layout: &mut Layout<MeldField>,
) -> Option<usize> {
    let mut taking = layout.take(i);
    let past = object(b, i, |i, key| {
        let field = MeldField::of(key)?;
        taking.field(b, i, field);
        let end = seen.read(b, i, field)?;
        taking.value_ends(end);
        Some(end)
    })?;
    taking.ends(b, past);
    Some(past)
}

/// A field of a meld; every field must be known, as the format's `deny_unknown_fields` says.
#[derive(Clone, Copy)]
pub(super) enum MeldField {
    Kind,
    Tiles,
    Concealed,
}

impl MeldField {
    fn of(key: &[u8]) -> Option<MeldField> {
        match key {
            b"kind" => Some(MeldField::Kind),
            b"tiles" => Some(MeldField::Tiles),
            b"concealed" => Some(MeldField::Concealed),
            _ => None,
        }
    }
}

/// The fields of a meld read so far.
#[derive(Default)]
struct MeldSeen<'a> {
    kind: Option<&'a str>,
    tiles: Option<&'a str>,
    concealed: Option<bool>,
}

impl<'a> MeldSeen<'a> {
    /// Reads the value of `field` at `i`; past it.
    fn read(&mut self, b: &'a [u8], i: usize, field: MeldField) -> Option<usize> {
        match field {
            MeldField::Kind => once(&mut self.kind, text(b, i)),
            MeldField::Tiles => once(&mut self.tiles, text(b, i)),
            MeldField::Concealed => once(&mut self.concealed, flag(b, i)),
        }
    }

    /// The meld, if its required fields were there.
    fn fields(self) -> Option<MeldFields<'a>> {
        Some(MeldFields {
            kind: self.kind?,
            tiles: self.tiles?,
            concealed: self.concealed.unwrap_or_default(),
        })
    }
}
