//! The facts of a hand as the protocol shows them (`proto/README.md`, Snapshots): melds, wins,
//! each seat's public facts, the hand's, and a seat's own, read from events and snapshots alike.

use serde_json::Value;

use super::tiles::strings;

/// A declared meld as the observer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Meld {
    /// Face up: its shape, tiles (lowest first), the tile claimed and whose discard it was.
    Open {
        shape: String,
        tiles: Vec<String>,
        claimed: Option<String>,
        from: Option<u64>,
    },
    /// Another seat's concealed kong: four tiles face down.
    Hidden,
}

impl Meld {
    /// The meld as the protocol writes it (`kind` `open` or `hidden_kong`).
    pub fn parse(v: &Value) -> Result<Meld, String> {
        match v["kind"].as_str() {
            Some("hidden_kong") => Ok(Meld::Hidden),
            Some("open") => Ok(Meld::Open {
                shape: v["shape"].as_str().unwrap_or_default().to_string(),
                tiles: strings(&v["tiles"]),
                claimed: v["claimed"].as_str().map(String::from),
                from: v["from"].as_u64(),
            }),
            _ => Err(format!("a meld of no known kind: {v}")),
        }
    }

    /// A concealed kong, face up (its owner's) or face down.
    pub fn is_concealed_kong(&self) -> bool {
        match self {
            Meld::Hidden => true,
            Meld::Open { shape, .. } => shape == "concealed_kong",
        }
    }
}

/// A win: the winner, the winning tile and the discarder or robbed seat (None: self-draw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Win {
    pub seat: u64,
    pub tile: String,
    pub from: Option<u64>,
}

impl Win {
    /// The win as the protocol writes it.
    pub fn parse(v: &Value) -> Option<Win> {
        Some(Win {
            seat: v["seat"].as_u64()?,
            tile: v["tile"].as_str()?.to_string(),
            from: v["from"].as_u64(),
        })
    }
}

/// What is public about one seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatFacts {
    pub melds: Vec<Meld>,
    pub flowers: Vec<String>,
    /// Every discard, oldest first, with whether another seat took it.
    pub river: Vec<(String, bool)>,
    pub concealed: usize,
    pub void: Option<String>,
    pub won: Option<Win>,
    pub ready: bool,
}

/// What is public about the hand. The wall's count is left out: the view's `wall` (tiles still
/// drawable) is not `hand_started`'s count less the draws since in every ruleset (Beijing and
/// Ningbo hold tiles back), and the protocol does not say how it goes; it hides nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Public {
    pub dealer: u64,
    pub round_wind: String,
    pub dice: Vec<u64>,
    pub wild: Option<String>,
    pub bonus: Vec<String>,
    pub seabed: Option<u64>,
    pub seats: Vec<SeatFacts>,
}

impl Public {
    /// The state as seat `me` (None: a spectator) sees it: other seats' concealed kongs face
    /// down.
    pub fn as_seen_by(&self, me: Option<usize>) -> Public {
        let mut seen = self.clone();
        for (seat, facts) in seen.seats.iter_mut().enumerate() {
            for meld in &mut facts.melds {
                if meld.is_concealed_kong() && Some(seat) != me {
                    *meld = Meld::Hidden;
                }
            }
        }
        seen
    }
}

/// What only the observer's seat knows (empty for a spectator).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Own {
    /// Concealed tiles, sorted.
    pub hand: Vec<String>,
    pub void: Option<String>,
    /// Tiles marked for the opening swap, sorted.
    pub swap_marked: Vec<String>,
}
