//! The records the store keeps and returns: plain data, no engine types.

use serde::{Deserialize, Serialize};

use crate::StoreError;

/// A point in time: milliseconds since the Unix epoch, UTC. Stored as a number on both backends
/// so that times sort and compare the same way everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct UnixMillis(pub i64);

impl UnixMillis {
    /// Now, from the system clock.
    pub fn now() -> UnixMillis {
        let ms = time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000;
        UnixMillis(i64::try_from(ms).unwrap_or(i64::MAX))
    }

    /// This time plus `ms` milliseconds (saturating).
    pub fn plus_ms(self, ms: i64) -> UnixMillis {
        UnixMillis(self.0.saturating_add(ms))
    }
}

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// A fresh id (UUID v7: time-ordered, so new rows land at the end of indexes).
            pub fn new() -> $name {
                $name(uuid::Uuid::now_v7().hyphenated().to_string())
            }

            /// Reads an id from text (a client's or a URL's), refusing anything but a UUID.
            pub fn parse(s: &str) -> Result<$name, StoreError> {
                uuid::Uuid::try_parse(s)
                    .map(|u| $name(u.hyphenated().to_string()))
                    .map_err(|_| StoreError::BadArgument(format!("`{s}` is not a valid id")))
            }

            /// The id as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// An id read back from the database.
            pub(crate) fn stored(s: String) -> $name {
                $name(s)
            }
        }

        impl Default for $name {
            fn default() -> $name {
                $name::new()
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

pub(crate) use uuid_id;

uuid_id!(
    /// A player's id.
    PlayerId
);
uuid_id!(
    /// A table's id.
    TableId
);

/// The SHA-256 of a session token: the token itself is never stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TokenHash(pub [u8; 32]);

/// A player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Id.
    pub id: PlayerId,
    /// The name shown at tables and on leaderboards.
    pub display_name: String,
    /// When the player signed up.
    pub created: UnixMillis,
}

/// A live session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// Whose session.
    pub player: PlayerId,
    /// When it stops being valid.
    pub expires: UnixMillis,
}

/// Where a table is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Waiting for players.
    Open,
    /// Hands are being played: restored after a restart.
    Playing,
    /// The match ended normally.
    Finished,
    /// Closed before its end (everyone left).
    Closed,
}

impl TableStatus {
    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            TableStatus::Open => "open",
            TableStatus::Playing => "playing",
            TableStatus::Finished => "finished",
            TableStatus::Closed => "closed",
        }
    }

    pub(crate) fn parse(s: &str) -> Result<TableStatus, StoreError> {
        Ok(match s {
            "open" => TableStatus::Open,
            "playing" => TableStatus::Playing,
            "finished" => TableStatus::Finished,
            "closed" => TableStatus::Closed,
            other => return Err(StoreError::Corrupt(format!("table status `{other}`"))),
        })
    }
}

/// Who sits in a seat. A table's seats are kept as a JSON array of these (`game_tables.seats`),
/// a layout of the store's own: it is versioned with the database's schema, so a change to it
/// comes with a migration that rewrites the column, and a database migrated past what this
/// build knows is refused when it opens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatOccupant {
    /// Nobody yet.
    Empty,
    /// A player.
    Player {
        /// Who.
        player: PlayerId,
    },
    /// A bot of a level (`basic`, `strong` …).
    Bot {
        /// The bot's level.
        level: String,
    },
    /// A player who escaped: the bot plays the seat for the rest of the match, and hands dealt
    /// after the one the escape is charged to are not the player's.
    Escaped {
        /// Who.
        player: PlayerId,
        /// The hand the escape is charged to: the one in play when it happened, or the next
        /// when it happened between hands. Absent in seats stored before escapes were charged
        /// this way (read as an escape from an earlier hand).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<u64>,
        /// Whether that hand was in play when the player escaped: the table's carry-over the
        /// escape resets (Shanghai's 荒番) is then reset when the hand ends, not before.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        in_play: bool,
    },
}

impl SeatOccupant {
    /// The player seated here, or who escaped from here.
    pub fn player(&self) -> Option<&PlayerId> {
        match self {
            SeatOccupant::Player { player } | SeatOccupant::Escaped { player, .. } => Some(player),
            SeatOccupant::Empty | SeatOccupant::Bot { .. } => None,
        }
    }

    /// A table's seats as the `seats` column keeps them.
    ///
    /// # Errors
    /// [`StoreError::BadArgument`] if they do not serialize.
    pub fn write_all(seats: &[SeatOccupant]) -> Result<String, StoreError> {
        serde_json::to_string(seats).map_err(|e| StoreError::BadArgument(format!("seats: {e}")))
    }

    /// A `seats` column read back.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] for text that is not an array of occupants.
    pub fn read_all(text: &str) -> Result<Vec<SeatOccupant>, StoreError> {
        serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("table seats: {e}")))
    }
}

/// A table to create.
#[derive(Clone, Debug, PartialEq)]
pub struct NewTable {
    /// Ruleset preset id.
    pub ruleset: String,
    /// Room options as given (a JSON object).
    pub options: serde_json::Value,
    /// One occupant per seat.
    pub seats: Vec<SeatOccupant>,
    /// The table's state before its first hand.
    pub carried: serde_json::Value,
}

/// A stored table.
#[derive(Clone, Debug, PartialEq)]
pub struct TableRecord {
    /// Id.
    pub id: TableId,
    /// Ruleset preset id.
    pub ruleset: String,
    /// Room options.
    pub options: serde_json::Value,
    /// One occupant per seat.
    pub seats: Vec<SeatOccupant>,
    /// Status.
    pub status: TableStatus,
    /// What the next hand inherits (dealer, streaks, scores, 荒番 …), as last stored.
    pub carried: serde_json::Value,
    /// Hands stored so far: the next hand's number.
    pub hands_played: u64,
    /// Created.
    pub created: UnixMillis,
    /// Last changed.
    pub updated: UnixMillis,
}

/// One seat's result in a finished hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatResult {
    /// The player seated (`None` for a bot or an empty seat).
    pub player: Option<PlayerId>,
    /// Points won (positive) or paid (negative) in this hand, escape penalties excluded.
    pub delta: i64,
}

/// An escape (逃跑) penalised in a hand: recorded apart from the hand's deltas, and subtracted
/// from the player's leaderboard total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escape {
    /// Who escaped.
    pub player: PlayerId,
    /// Penalty points (Shanghai: 15).
    pub points: i64,
}

/// An escape (逃跑) recorded the moment it happens ([`crate::Store::record_escape`]), with the
/// seating that shows it, so that no restart or move of the table loses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EscapeRecord {
    /// Who escaped.
    pub player: PlayerId,
    /// The hand it is charged to (the one in play, or the next when between hands).
    pub hand_no: u64,
    /// Ruleset preset id (the leaderboards' key).
    pub ruleset: String,
    /// Penalty points (Shanghai: 15; 0 where the rules set none).
    pub points: i64,
    /// When it happened.
    pub at: UnixMillis,
}

/// A rating adjustment, stored with the hand that changes it (the server rates a table when its
/// last hand ends).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// Whose rating.
    pub player: PlayerId,
    /// Added to the rating (a player starts at [`INITIAL_RATING`]).
    pub delta: f64,
}

/// Every player's rating before their first rated hand.
pub const INITIAL_RATING: f64 = 1500.0;

/// A finished hand and everything it changes, stored in one transaction.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedHand {
    /// The table.
    pub table: TableId,
    /// The hand's number at its table (0 for the first); must be the table's next.
    pub hand_no: u64,
    /// Ruleset preset id.
    pub ruleset: String,
    /// The seed the hand was dealt from.
    pub seed: u64,
    /// The dealer's seat index.
    pub dealer: u8,
    /// How the hand ended (`self_draw`, `discard`, `multi_win`, `drawn` …).
    pub ending: String,
    /// One result per seat, in seat order.
    pub seats: Vec<SeatResult>,
    /// The settlement's lines (fans, points, payments) as JSON.
    pub fans: serde_json::Value,
    /// The hand's replay record as JSON.
    pub record: serde_json::Value,
    /// The table's state after this hand.
    pub carried: serde_json::Value,
    /// The table's status after this hand.
    pub table_status: TableStatus,
    /// Escapes penalised in this hand.
    pub escapes: Vec<Escape>,
    /// Rating changes this hand brings (empty but for a table's last hand, when the server rates
    /// whole tables).
    pub ratings: Vec<RatingChange>,
    /// When the hand finished.
    pub finished: UnixMillis,
}

/// What [`crate::Store::record_hand`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// The hand is now stored.
    Stored,
    /// The same hand was stored before (a retry after a lost reply): nothing changed.
    AlreadyStored,
}

/// A stored hand, as a table's history or a replay shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct HandSummary {
    /// The table.
    pub table: TableId,
    /// The hand's number at its table.
    pub hand_no: u64,
    /// Ruleset preset id.
    pub ruleset: String,
    /// Seed.
    pub seed: u64,
    /// Dealer's seat index.
    pub dealer: u8,
    /// How it ended.
    pub ending: String,
    /// Per seat.
    pub seats: Vec<SeatResult>,
    /// The settlement lines.
    pub fans: serde_json::Value,
    /// When it finished.
    pub finished: UnixMillis,
}

/// One accepted action in a room's log.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedAction {
    /// Position in the table's log (0, 1, 2 … across hands).
    pub seq: u64,
    /// The hand it belongs to.
    pub hand_no: u64,
    /// The seat that acted.
    pub seat: u8,
    /// The action as JSON.
    pub action: serde_json::Value,
    /// When it was accepted.
    pub at: UnixMillis,
}

/// A leaderboard's period, in UTC calendar terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Period {
    /// Everything.
    AllTime,
    /// Since the first of this month, 00:00 UTC.
    Month,
    /// Since this Monday, 00:00 UTC.
    Week,
}

impl Period {
    /// When the period began, seen at `now`.
    pub fn start(self, now: UnixMillis) -> UnixMillis {
        let Ok(t) = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(now.0) * 1_000_000)
        else {
            return UnixMillis(i64::MIN);
        };
        let date = t.date();
        let first = match self {
            Period::AllTime => return UnixMillis(i64::MIN),
            Period::Month => date.replace_day(1).unwrap_or(date),
            Period::Week => {
                let back = i64::from(date.weekday().number_days_from_monday());
                date.checked_sub(time::Duration::days(back)).unwrap_or(date)
            }
        };
        UnixMillis(first.midnight().assume_utc().unix_timestamp() * 1000)
    }
}

impl std::str::FromStr for Period {
    type Err = StoreError;
    fn from_str(s: &str) -> Result<Period, StoreError> {
        match s {
            "all" | "all_time" => Ok(Period::AllTime),
            "month" => Ok(Period::Month),
            "week" => Ok(Period::Week),
            other => Err(StoreError::BadArgument(format!(
                "period `{other}`: expected all, month or week"
            ))),
        }
    }
}

/// What a leaderboard ranks by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ranking {
    /// Total score over the period, escape penalties subtracted.
    Score,
    /// Current rating, among players who played in the period.
    Rating,
}

/// A window of a long list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    /// Rows to skip.
    pub offset: u64,
    /// Rows to return, 1 to [`Page::MAX_LIMIT`].
    pub limit: u32,
}

impl Page {
    /// The most rows one page returns.
    pub const MAX_LIMIT: u32 = 200;

    /// The first `limit` rows.
    pub fn first(limit: u32) -> Page {
        Page { offset: 0, limit }
    }

    pub(crate) fn checked(self) -> Result<(i64, i64), StoreError> {
        if self.limit == 0 || self.limit > Page::MAX_LIMIT {
            return Err(StoreError::BadArgument(format!(
                "page limit {} outside 1..={}",
                self.limit,
                Page::MAX_LIMIT
            )));
        }
        let offset = i64::try_from(self.offset)
            .map_err(|_| StoreError::BadArgument(format!("page offset {}", self.offset)))?;
        Ok((i64::from(self.limit), offset))
    }
}

/// One row of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    /// Rank, 1 for the best; equal values share a rank.
    pub rank: u64,
    /// The player.
    pub player: PlayerId,
    /// Their display name.
    pub display_name: String,
    /// Total score in the period, escape penalties subtracted.
    pub score: i64,
    /// Hands played in the period.
    pub hands: u64,
    /// Current rating in this ruleset.
    pub rating: f64,
}

/// One hand in a player's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// The table.
    pub table: TableId,
    /// The hand's number there.
    pub hand_no: u64,
    /// Ruleset.
    pub ruleset: String,
    /// The player's seat index.
    pub seat: u8,
    /// What the player won or paid.
    pub delta: i64,
    /// How the hand ended (`self_draw`, `discard`, `multi_win`, `drawn`).
    pub ending: String,
    /// When it finished.
    pub finished: UnixMillis,
}

/// A u64 stored in a signed BIGINT column, bit for bit (seeds use the whole range).
pub(crate) fn u64_bits(x: u64) -> i64 {
    i64::from_ne_bytes(x.to_ne_bytes())
}

/// The inverse of [`u64_bits`].
pub(crate) fn bits_u64(x: i64) -> u64 {
    u64::from_ne_bytes(x.to_ne_bytes())
}

/// A count or number stored as BIGINT that must not be negative.
pub(crate) fn count(x: i64, what: &str) -> Result<u64, StoreError> {
    u64::try_from(x).map_err(|_| StoreError::Corrupt(format!("{what} = {x}")))
}

/// A number the database must hold as BIGINT.
pub(crate) fn to_i64(x: u64, what: &str) -> Result<i64, StoreError> {
    i64::try_from(x).map_err(|_| StoreError::BadArgument(format!("{what} {x} is too large")))
}

/// JSON read back from a text column.
pub(crate) fn json(text: &str, what: &str) -> Result<serde_json::Value, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}
