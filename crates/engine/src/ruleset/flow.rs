//! A family's hand flow as data: what the shared state machine in [`crate::game`] and the
//! [`crate::settle::referee`] read to know how a hand of the family may go. A family fills one
//! [`Flow`] when its ruleset is built (some fields follow room options) and answers only
//! scoring and payments through hooks; `/api/rulesets` serves the same facts to clients.

use crate::shape::Forms;
use crate::wall::{ReplacementEnd, TileSetKind};

/// How a hand of one ruleset flows, from the deal to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flow {
    /// Seats at the table.
    pub players: u8,
    /// The tiles played with.
    pub tiles: TileSetKind,
    /// How many tiles of the shuffled set make the wall; the others are set aside out of play
    /// for the whole hand (two-player: 71 of 136). `None`: the whole set.
    pub wall_tiles: Option<usize>,
    /// How many stacks into the chosen side the wall is broken.
    pub wall_break: WallBreak,
    /// Where kong and flower replacements come from.
    pub replacement_end: ReplacementEnd,
    /// Tiles kept back from turn draws (Beijing 保留牌).
    pub reserve: Reserve,
    /// Whether the family turns up a wild kind each hand (惠牌, 财神): a finished hand then
    /// always names it, and no meld holds it. The hooks [`super::Rules::wild_tile`] and
    /// [`super::Rules::wild_indicator`] say how.
    pub wild: bool,
    /// How many indicators are turned face up from the set-aside tiles after the deal, each
    /// naming a bonus kind (two-player 花牌).
    pub bonus_indicators: usize,
    /// What happens between the deal and the dealer's first discard.
    pub before_play: BeforePlay,
    /// Winning shapes.
    pub forms: Forms,
    /// Whether the 下家 may chow.
    pub chow: bool,
    /// Who wins when several seats may win on one discard.
    pub discard_wins: DiscardWins,
    /// What a win does to the hand.
    pub after_win: AfterWin,
    /// The pass-then-win restriction.
    pub missed_win: MissedWin,
    /// When the live wall holds at most this many tiles, a ready player must take a win.
    pub forced_win_wall: Option<usize>,
    /// Whether a concealed kong may be robbed (a robbing window opens for it as for an added
    /// kong); the family's scoring then decides which wins may rob it (Beijing: 一条龙 only).
    pub concealed_kong_robbable: bool,
    /// Restrictions on the turn that follows a claim (Ningbo).
    pub after_claim: AfterClaim,
    /// Go-arounds in which the other seats follow the dealer's discard (烧庄, 跟庄).
    pub follow_dealer: FollowDealer,
    /// How many different seats having made a kong draw the hand at once (三家杠荒牌).
    pub kongers_draw: Option<usize>,
    /// The last drawable tile (海底).
    pub last_tile: LastTile,
    /// Whether a seat may declare ready (报听) with a discard that leaves its hand waiting; the
    /// hand is then locked: the engine discards every drawn tile that does not win, and the
    /// seat is asked only whether to win (two-player).
    pub declares_ready: bool,
    /// How many 海底捞月 draws from the set-aside tiles the first-ready waiting seat gets when
    /// the wall runs out, each checked for a self-draw win only (two-player: 3). 0: none.
    pub seabed_draws: u8,
    /// Hands in a full match where the rules define one (Guobiao: four wind rounds of four);
    /// `None` where a table plays as many hands as its room says.
    pub match_hands: Option<u32>,
    /// Points recorded against a player who escapes (逃跑) mid-hand, apart from the hand's
    /// settlement; `None` where the family's rules set no penalty.
    pub escape_penalty: Option<i64>,
    /// Whether a seated player leaving the table resets its 荒番 counter (Shanghai: the counter
    /// belongs to the four people seated).
    pub leave_resets_draw_bonus: bool,
}

impl Flow {
    /// The flow most families share: four seats, whole set, the wall broken at the dice's sum,
    /// replacements from the tail, no reserve, no wild, chows allowed, every winner paid on a
    /// discard, the hand ending at the first win. A family changes what its region changes.
    pub const fn four_seats(tiles: TileSetKind, forms: Forms) -> Flow {
        Flow {
            players: 4,
            tiles,
            wall_tiles: None,
            wall_break: WallBreak::DiceSum,
            replacement_end: ReplacementEnd::Tail,
            reserve: Reserve::NONE,
            wild: false,
            bonus_indicators: 0,
            before_play: BeforePlay::Nothing,
            forms,
            chow: true,
            discard_wins: DiscardWins::Every,
            after_win: AfterWin::HandEnds,
            missed_win: MissedWin::None,
            forced_win_wall: None,
            concealed_kong_robbable: false,
            after_claim: AfterClaim::FREE,
            follow_dealer: FollowDealer::Ignored,
            kongers_draw: None,
            last_tile: LastTile::DRAWN,
            declares_ready: false,
            seabed_draws: 0,
            match_hands: None,
            escape_penalty: None,
            leave_resets_draw_bonus: false,
        }
    }

    /// 一炮多响: every seat that may win on a discard wins (not only the first in turn).
    pub const fn multi_win(&self) -> bool {
        matches!(self.discard_wins, DiscardWins::Every)
    }

    /// 血战: winners leave and the rest play on.
    pub const fn plays_on_after_win(&self) -> bool {
        matches!(self.after_win, AfterWin::PlayOn)
    }

    /// A 定缺 declaration phase before the first discard.
    pub const fn declares_void(&self) -> bool {
        matches!(self.before_play, BeforePlay::DeclareVoid)
    }

    /// 开始时换牌: each seat once exchanges dealt tiles for set-aside ones before play.
    pub const fn swaps_dealt(&self) -> bool {
        matches!(self.before_play, BeforePlay::SwapDealt)
    }
}

/// Who wins when several seats may win on one discard (or one robbed kong).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiscardWins {
    /// 一炮多响: every one of them.
    Every,
    /// 截和 (head bump): only the first in turn order after the discarder.
    FirstInTurn,
}

/// What a win does to the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterWin {
    /// The hand ends at its first win (or first discard's wins).
    HandEnds,
    /// 血战到底: winners leave and the rest play on until one is left or the wall runs out.
    PlayOn,
}

/// What happens between the deal and the dealer's first discard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BeforePlay {
    /// Play begins at once.
    Nothing,
    /// 定缺: every seat declares the suit it will not keep (Sichuan 血战).
    DeclareVoid,
    /// 开始时换牌: each seat may exchange dealt tiles for set-aside ones (two-player room option
    /// `swap`). Only a family that sets tiles aside and plays without flowers may say so: the
    /// replacements come from that pool.
    SwapDealt,
}

/// How passing on a winning tile restricts later wins.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MissedWin {
    /// No restriction.
    None,
    /// 过水 (Sichuan): no win on a later discard until one's own draw, unless it scores more.
    UntilDrawUnlessHigher,
    /// 漏胡 (Shanghai): no win on that tile kind from a discard until one's own next move.
    SameKindUntilOwnMove,
}

/// How many stacks into the chosen side the wall is broken (the dice's sum always picks the
/// side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WallBreak {
    /// The dice's sum.
    DiceSum,
    /// The larger die (Ningbo).
    LargerDie,
}

impl WallBreak {
    /// Stacks into the side for these dice.
    pub fn stacks(self, dice: [u8; 2]) -> u8 {
        match self {
            WallBreak::DiceSum => dice[0] + dice[1],
            WallBreak::LargerDie => dice[0].max(dice[1]),
        }
    }
}

/// Tiles kept back from turn draws at the tail: `tiles`, and `per_kong` more for every kong
/// after the first (Beijing: 14, two more a kong).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reserve {
    /// Kept back from the start.
    pub tiles: usize,
    /// Added for each kong after the first.
    pub per_kong: usize,
}

impl Reserve {
    /// Nothing kept back.
    pub const NONE: Reserve = Reserve {
        tiles: 0,
        per_kong: 0,
    };

    /// Tiles kept back once `kongs` kongs have been made.
    pub fn after(self, kongs: u32) -> usize {
        self.tiles + self.per_kong * kongs.saturating_sub(1) as usize
    }
}

/// Restrictions on the turn that follows a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AfterClaim {
    /// The seat that has just chowed may not discard a tile of the claimed kind on that turn,
    /// unless the chow was its fourth meld (Ningbo: no 吃张打张 except going 大吊).
    pub no_discard_of_chowed_kind: bool,
    /// The seat that has just punged may not make that pung a kong on the same turn (Ningbo:
    /// 碰后不能马上杠).
    pub no_kong_of_fresh_pung: bool,
}

impl AfterClaim {
    /// No restriction.
    pub const FREE: AfterClaim = AfterClaim {
        no_discard_of_chowed_kind: false,
        no_kong_of_fresh_pung: false,
    };
}

/// Go-arounds in which the other seats follow the dealer's discard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FollowDealer {
    /// Not counted.
    Ignored,
    /// Counted for the settlement (跟庄).
    Counted,
    /// Counted, and a seat holding the dealer's first discarded wind must discard it on its own
    /// first discard (Beijing 烧庄).
    Forced,
}

impl FollowDealer {
    /// Whether go-arounds are counted at all.
    pub const fn counted(self) -> bool {
        !matches!(self, FollowDealer::Ignored)
    }

    /// Whether the dealer's first discarded wind must be followed.
    pub const fn forces(self) -> bool {
        matches!(self, FollowDealer::Forced)
    }
}

/// The last drawable tile (海底).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastTile {
    /// The drawer who does not win on it must discard that very tile (Beijing).
    pub thrown: bool,
    /// The seat due to draw it may decline it, drawing the hand (Beijing, seed 004): it then
    /// never has to throw a tile it cannot keep.
    pub declinable: bool,
}

impl LastTile {
    /// Drawn and played like any tile.
    pub const DRAWN: LastTile = LastTile {
        thrown: false,
        declinable: false,
    };
}
