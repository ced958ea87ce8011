//! Tiles and the project notation (`docs/RULES.md`).
//!
//! A [`Tile`] is a tile *kind*: the four physical copies of 5 筒 are the same value. Kinds are
//! numbered so that the 34 playing kinds index count arrays directly (`0..34`) and flowers come
//! after them (`34..42`), which keeps the hot structures (`[u8; 34]`) free of flower slots.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The suit of a tile: the three numbered suits, honors (winds and dragons) and flowers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// 万 characters, letter `m`.
    Man,
    /// 筒 dots, letter `p`.
    Pin,
    /// 条 bamboo, letter `s`.
    Sou,
    /// 字 honors: `1z`..`4z` winds 东南西北, `5z`..`7z` dragons 白发中.
    Honor,
    /// 花 flowers `1f`..`8f`: 春夏秋冬 梅兰竹菊.
    Flower,
}

impl Suit {
    /// The three numbered suits, in notation order.
    pub const NUMBERED: [Suit; 3] = [Suit::Man, Suit::Pin, Suit::Sou];

    /// The notation letter.
    pub const fn letter(self) -> char {
        match self {
            Suit::Man => 'm',
            Suit::Pin => 'p',
            Suit::Sou => 's',
            Suit::Honor => 'z',
            Suit::Flower => 'f',
        }
    }

    /// Parses a notation letter.
    pub const fn from_letter(c: char) -> Option<Suit> {
        match c {
            'm' => Some(Suit::Man),
            'p' => Some(Suit::Pin),
            's' => Some(Suit::Sou),
            'z' => Some(Suit::Honor),
            'f' => Some(Suit::Flower),
            _ => None,
        }
    }

    /// Whether this is one of 万, 筒, 条.
    pub const fn is_numbered(self) -> bool {
        matches!(self, Suit::Man | Suit::Pin | Suit::Sou)
    }

    /// Index 0..3 for the numbered suits (for per-suit arrays), `None` otherwise.
    pub const fn numbered_index(self) -> Option<usize> {
        match self {
            Suit::Man => Some(0),
            Suit::Pin => Some(1),
            Suit::Sou => Some(2),
            _ => None,
        }
    }

    /// Number of distinct ranks in the suit.
    pub const fn ranks(self) -> u8 {
        match self {
            Suit::Man | Suit::Pin | Suit::Sou => 9,
            Suit::Honor => 7,
            Suit::Flower => 8,
        }
    }

    const fn base(self) -> u8 {
        match self {
            Suit::Man => 0,
            Suit::Pin => 9,
            Suit::Sou => 18,
            Suit::Honor => 27,
            Suit::Flower => 34,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Suit {
    type Err = TileParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Suit::from_letter(c).ok_or(TileParseError::UnknownSuit {
                input: s.to_owned(),
                letter: c,
            }),
            _ => Err(TileParseError::NotASuit {
                input: s.to_owned(),
            }),
        }
    }
}

/// One tile kind. Always valid: the only constructors check the range.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    /// Number of playing kinds (suits and honors); flowers are numbered after them.
    pub const PLAYING_KINDS: usize = 34;
    /// Number of kinds including the eight flowers.
    pub const ALL_KINDS: usize = 42;

    /// The tile of `suit` and 1-based `rank`, if that tile exists.
    pub const fn new(suit: Suit, rank: u8) -> Option<Tile> {
        if rank >= 1 && rank <= suit.ranks() {
            Some(Tile(suit.base() + rank - 1))
        } else {
            None
        }
    }

    /// The tile with kind index `index` (`0..42`).
    pub const fn from_index(index: u8) -> Option<Tile> {
        if (index as usize) < Self::ALL_KINDS {
            Some(Tile(index))
        } else {
            None
        }
    }

    /// The kind index: `0..34` for playing tiles, `34..42` for flowers.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The suit.
    pub const fn suit(self) -> Suit {
        match self.0 {
            0..=8 => Suit::Man,
            9..=17 => Suit::Pin,
            18..=26 => Suit::Sou,
            27..=33 => Suit::Honor,
            _ => Suit::Flower,
        }
    }

    /// The 1-based rank within the suit (1..=9, 1..=7 for honors, 1..=8 for flowers).
    pub const fn rank(self) -> u8 {
        self.0 - self.suit().base() + 1
    }

    /// 1 or 9 of a numbered suit (幺九 terminals).
    pub const fn is_terminal(self) -> bool {
        self.suit().is_numbered() && (self.rank() == 1 || self.rank() == 9)
    }

    /// A wind or dragon.
    pub const fn is_honor(self) -> bool {
        matches!(self.suit(), Suit::Honor)
    }

    /// A terminal or an honor (the 幺九 tiles of 十三幺).
    pub const fn is_terminal_or_honor(self) -> bool {
        self.is_terminal() || self.is_honor()
    }

    /// A flower 花.
    pub const fn is_flower(self) -> bool {
        matches!(self.suit(), Suit::Flower)
    }

    /// A wind 东南西北.
    pub const fn is_wind(self) -> bool {
        self.is_honor() && self.rank() <= 4
    }

    /// A dragon 白发中.
    pub const fn is_dragon(self) -> bool {
        self.is_honor() && self.rank() >= 5
    }

    /// The next tile of a numbered suit in a run (`None` after 9 and for honors and flowers).
    pub const fn succ_in_run(self) -> Option<Tile> {
        if self.suit().is_numbered() && self.rank() < 9 {
            Some(Tile(self.0 + 1))
        } else {
            None
        }
    }

    /// Iterates over the 34 playing kinds in notation order.
    pub fn playing() -> impl Iterator<Item = Tile> {
        (0..Self::PLAYING_KINDS as u8).map(Tile)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank(), self.suit().letter())
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Tile {
    type Err = TileParseError;
    /// One tile, written exactly as a rank and a suit letter (`5m`): hand notation may space its
    /// groups, but a single tile with a space in it (`" 5m"`, `"5 m"`) is refused.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some((at, found)) = s.char_indices().find(|(_, c)| c.is_whitespace()) {
            return Err(TileParseError::Unexpected {
                input: s.to_owned(),
                found,
                at,
            });
        }
        let tiles = parse_tiles(s)?;
        match tiles.as_slice() {
            [t] => Ok(*t),
            _ => Err(TileParseError::NotOneTile {
                input: s.to_owned(),
                count: tiles.len(),
            }),
        }
    }
}

impl serde::Serialize for Tile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Tile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a string is not valid tile notation. Every variant names the input it rejects.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TileParseError {
    /// A letter that is not one of `m p s z f`.
    #[error("`{input}`: unknown suit letter `{letter}` (expected m, p, s, z or f)")]
    UnknownSuit {
        /// The whole input.
        input: String,
        /// The offending letter.
        letter: char,
    },
    /// A character that is neither a digit nor a suit letter.
    #[error("`{input}`: unexpected character `{found}` at byte {at}")]
    Unexpected {
        /// The whole input.
        input: String,
        /// The offending character.
        found: char,
        /// Its byte offset.
        at: usize,
    },
    /// Digits with no suit letter after them.
    #[error("`{input}`: digits `{digits}` have no suit letter after them")]
    MissingSuit {
        /// The whole input.
        input: String,
        /// The dangling digits.
        digits: String,
    },
    /// A rank outside the suit (`0m`, `8z`, `9f`).
    #[error("`{input}`: there is no tile {rank}{suit}")]
    BadRank {
        /// The whole input.
        input: String,
        /// The rank given.
        rank: u8,
        /// The suit letter.
        suit: char,
    },
    /// A suit letter with no digits before it.
    #[error("`{input}`: suit letter `{suit}` at byte {at} has no digits before it")]
    EmptyGroup {
        /// The whole input.
        input: String,
        /// The suit letter.
        suit: char,
        /// Its byte offset.
        at: usize,
    },
    /// Exactly one tile was expected.
    #[error("`{input}`: expected exactly one tile, found {count}")]
    NotOneTile {
        /// The whole input.
        input: String,
        /// How many tiles it held.
        count: usize,
    },
    /// Exactly one suit letter was expected.
    #[error("`{input}`: expected one suit letter (m, p or s)")]
    NotASuit {
        /// The whole input.
        input: String,
    },
}

/// Parses notation such as `123m456p11z` into tiles, in written order.
///
/// Whitespace is ignored. The empty string is the empty hand.
///
/// # Errors
/// [`TileParseError`] naming the input and the first bad character, rank or group.
pub fn parse_tiles(input: &str) -> Result<Vec<Tile>, TileParseError> {
    let mut out = Vec::with_capacity(input.len());
    // The digits waiting for their suit letter: those of `input[group..]`, whitespace aside.
    let mut group: Option<usize> = None;
    let digits = |from: usize, to: usize| {
        input[from..to]
            .bytes()
            .filter(u8::is_ascii_digit)
            .map(|d| d - b'0')
    };
    for (at, c) in input.char_indices() {
        if c.is_whitespace() {
            continue;
        }
        if c.is_ascii_digit() {
            group.get_or_insert(at);
            continue;
        }
        let suit = match Suit::from_letter(c) {
            Some(suit) => suit,
            None if c.is_ascii_alphabetic() => {
                return Err(TileParseError::UnknownSuit {
                    input: input.to_owned(),
                    letter: c,
                });
            }
            None => {
                return Err(TileParseError::Unexpected {
                    input: input.to_owned(),
                    found: c,
                    at,
                });
            }
        };
        let Some(from) = group.take() else {
            return Err(TileParseError::EmptyGroup {
                input: input.to_owned(),
                suit: c,
                at,
            });
        };
        for rank in digits(from, at) {
            let tile = Tile::new(suit, rank).ok_or(TileParseError::BadRank {
                input: input.to_owned(),
                rank,
                suit: c,
            })?;
            out.push(tile);
        }
    }
    if let Some(from) = group {
        return Err(TileParseError::MissingSuit {
            input: input.to_owned(),
            digits: digits(from, input.len())
                .map(|d| char::from(b'0' + d))
                .collect(),
        });
    }
    Ok(out)
}

/// Reads `input` when it is written the plain way: digits, each group followed by its suit
/// letter `m`, `p`, `s` or `z`, and nothing else (no spaces, no flowers). Calls `visit` on each
/// tile in written order; `None` when `input` is anything else, valid or not, or when `visit`
/// gives `None`. What this reads, [`parse_tiles`] reads alike, so a caller falls back on it (and
/// its errors) after `None`; the score format reads every hand this way first, without
/// `parse_tiles`' allocation and Unicode checks.
pub(crate) fn parse_plain(input: &str, mut visit: impl FnMut(Tile) -> Option<()>) -> Option<()> {
    let bytes = input.as_bytes();
    // Where the digits waiting for their suit letter start.
    let mut group = 0;
    for (at, &b) in bytes.iter().enumerate() {
        let suit = match b {
            b'0'..=b'9' => continue,
            b'm' => Suit::Man,
            b'p' => Suit::Pin,
            b's' => Suit::Sou,
            b'z' => Suit::Honor,
            _ => return None,
        };
        if group == at {
            return None;
        }
        for &d in &bytes[group..at] {
            visit(Tile::new(suit, d - b'0')?)?;
        }
        group = at + 1;
    }
    (group == bytes.len()).then_some(())
}

/// Writes tiles in compact notation, grouping consecutive tiles of one suit (`123m45p`).
pub fn format_tiles(tiles: &[Tile]) -> String {
    let mut out = String::with_capacity(tiles.len() * 2);
    for (i, t) in tiles.iter().enumerate() {
        out.push(char::from(b'0' + t.rank()));
        let next_same = tiles.get(i + 1).is_some_and(|n| n.suit() == t.suit());
        if !next_same {
            out.push(t.suit().letter());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `parse_plain` reads, `parse_tiles` reads alike; it leaves spaced, flowered or wrong
    /// notation to `parse_tiles`.
    #[test]
    fn plain_notation_reads_as_parse_tiles_reads_it() {
        for input in [
            "",
            "1m",
            "123m456p789s11z",
            "5555m",
            "19m19p19s1234567z",
            "0m",
            "8z",
            "m",
            "12",
            "1m2",
            "1 m",
            "1f",
            "12x",
            "１m",
            "11m 22p",
            "9s9s9s9s9s",
        ] {
            let mut plain = Vec::new();
            let read = parse_plain(input, |t| {
                plain.push(t);
                Some(())
            });
            if read.is_some() {
                assert_eq!(parse_tiles(input), Ok(plain), "{input:?}");
            }
            let plain_when = !input.is_empty() && input.bytes().all(|b| b.is_ascii_alphanumeric());
            let valid = parse_tiles(input).is_ok_and(|t| t.iter().all(|t| !t.is_flower()));
            assert_eq!(
                read.is_some(),
                plain_when && valid || input.is_empty(),
                "{input:?}"
            );
        }
    }

    #[test]
    fn a_single_tile_has_no_spaces() {
        for spaced in [" 5m", "5m ", "5 m", "5\tm"] {
            assert!(
                matches!(
                    spaced.parse::<Tile>(),
                    Err(TileParseError::Unexpected { .. })
                ),
                "{spaced:?}"
            );
        }
        assert_eq!("5m".parse::<Tile>().map(|t| t.to_string()), Ok("5m".into()));
    }

    #[test]
    fn notation_round_trips() {
        let tiles = parse_tiles("123m456p789s1234567z12345678f").expect("valid");
        assert_eq!(tiles.len(), 24);
        assert_eq!(format_tiles(&tiles), "123m456p789s1234567z12345678f");
        for i in 0..Tile::ALL_KINDS as u8 {
            let t = Tile::from_index(i).expect("in range");
            assert_eq!(t.to_string().parse::<Tile>(), Ok(t));
        }
    }

    #[test]
    fn bad_notation_is_named() {
        assert!(matches!(
            parse_tiles("12x"),
            Err(TileParseError::UnknownSuit { letter: 'x', .. })
        ));
        assert!(matches!(
            parse_tiles("8z"),
            Err(TileParseError::BadRank { rank: 8, .. })
        ));
        assert!(matches!(
            parse_tiles("0m"),
            Err(TileParseError::BadRank { rank: 0, .. })
        ));
        assert!(matches!(
            parse_tiles("12"),
            Err(TileParseError::MissingSuit { .. })
        ));
        assert!(matches!(
            parse_tiles("m"),
            Err(TileParseError::EmptyGroup { .. })
        ));
        assert!(matches!(
            parse_tiles("1m,"),
            Err(TileParseError::Unexpected { found: ',', .. })
        ));
        assert!(matches!(
            "1m2m".parse::<Tile>(),
            Err(TileParseError::NotOneTile { count: 2, .. })
        ));
    }

    #[test]
    fn classification() {
        let t = |s: &str| s.parse::<Tile>().expect("valid");
        assert!(t("1m").is_terminal());
        assert!(!t("5p").is_terminal_or_honor());
        assert!(t("4z").is_wind() && t("5z").is_dragon());
        assert!(t("3f").is_flower());
        assert_eq!(t("9s").succ_in_run(), None);
        assert_eq!(t("8s").succ_in_run(), Some(t("9s")));
    }
}
