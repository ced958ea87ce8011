//! The game's things on the wire: actions, events, a seat's view, settlements. Tiles are written
//! in the notation of `docs/RULES.md` ("5m", "1z" for East, "7z" for 中, "1f" for 春 …),
//! seats as 0-based indices, suits as their letters.

use engine::Tile;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a seat may do: the engine's actions. The legal ones are listed in every prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WireAction {
    /// 定缺: the suit given up (m, p or s).
    DeclareVoid {
        /// The suit letter.
        #[serde(with = "engine::action::suit_letter")]
        #[schemars(with = "String")]
        suit: engine::Suit,
    },
    /// Discard a tile.
    Discard {
        /// The tile.
        #[schemars(with = "String")]
        tile: Tile,
    },
    /// Win on one's own draw (自摸).
    SelfDrawWin,
    /// Declare a concealed kong (暗杠).
    ConcealedKong {
        /// The kind.
        #[schemars(with = "String")]
        tile: Tile,
    },
    /// Add the fourth tile to an exposed pung (加杠).
    AddedKong {
        /// The kind.
        #[schemars(with = "String")]
        tile: Tile,
    },
    /// Win on the offered tile (a discard, or a kong being robbed).
    Win,
    /// Claim the discard for a pung.
    Pung,
    /// Claim the discard for an exposed kong.
    ExposedKong,
    /// Claim the discard for a chow starting at `low`.
    Chow {
        /// The chow's lowest tile.
        #[schemars(with = "String")]
        low: Tile,
    },
    /// Decline every claim.
    Pass,
    /// Draw the last drawable tile (海底), where the ruleset asks first (Beijing).
    DrawLast,
    /// Decline the last drawable tile: the hand ends drawn (荒牌).
    DeclineLast,
    /// Discard `tile` and declare ready (报听, two-player): from then on the server discards
    /// every drawn tile that does not win and asks only whether to win.
    DeclareReady {
        /// The tile discarded with the declaration.
        #[schemars(with = "String")]
        tile: Tile,
    },
    /// 开始时换牌 (two-player room option `swap`): mark one held copy of `tile` to give back.
    /// A mark is final; send one per tile, then `swap_done`.
    SwapMark {
        /// The kind marked.
        #[schemars(with = "String")]
        tile: Tile,
    },
    /// End this seat's swap: the marked tiles (perhaps none) are exchanged for as many unseen
    /// set-aside tiles. Once per hand.
    SwapDone,
}

impl From<engine::Action> for WireAction {
    fn from(a: engine::Action) -> WireAction {
        use engine::Action as A;
        match a {
            A::DeclareVoid { suit } => WireAction::DeclareVoid { suit },
            A::Discard { tile } => WireAction::Discard { tile },
            A::SelfDrawWin => WireAction::SelfDrawWin,
            A::ConcealedKong { tile } => WireAction::ConcealedKong { tile },
            A::AddedKong { tile } => WireAction::AddedKong { tile },
            A::Win => WireAction::Win,
            A::Pung => WireAction::Pung,
            A::ExposedKong => WireAction::ExposedKong,
            A::Chow { low } => WireAction::Chow { low },
            A::Pass => WireAction::Pass,
            A::DrawLast => WireAction::DrawLast,
            A::DeclineLast => WireAction::DeclineLast,
            A::DeclareReady { tile } => WireAction::DeclareReady { tile },
            A::SwapMark { tile } => WireAction::SwapMark { tile },
            A::SwapDone => WireAction::SwapDone,
        }
    }
}

impl From<WireAction> for engine::Action {
    fn from(a: WireAction) -> engine::Action {
        use engine::Action as A;
        match a {
            WireAction::DeclareVoid { suit } => A::DeclareVoid { suit },
            WireAction::Discard { tile } => A::Discard { tile },
            WireAction::SelfDrawWin => A::SelfDrawWin,
            WireAction::ConcealedKong { tile } => A::ConcealedKong { tile },
            WireAction::AddedKong { tile } => A::AddedKong { tile },
            WireAction::Win => A::Win,
            WireAction::Pung => A::Pung,
            WireAction::ExposedKong => A::ExposedKong,
            WireAction::Chow { low } => A::Chow { low },
            WireAction::Pass => A::Pass,
            WireAction::DrawLast => A::DrawLast,
            WireAction::DeclineLast => A::DeclineLast,
            WireAction::DeclareReady { tile } => A::DeclareReady { tile },
            WireAction::SwapMark { tile } => A::SwapMark { tile },
            WireAction::SwapDone => A::SwapDone,
        }
    }
}

/// A declared meld as the receiver may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WireMeld {
    /// 吃, 碰, an exposed or added 杠, or the receiver's own concealed 杠: its tiles shown.
    Open {
        /// `chow`, `pung`, `exposed_kong`, `concealed_kong` (only the receiver's own) or
        /// `added_kong`.
        shape: String,
        /// Its tiles, lowest first.
        #[schemars(with = "Vec<String>")]
        tiles: Vec<Tile>,
        /// The seat whose discard completed it (null for a concealed kong; an added kong keeps
        /// its pung's).
        from: Option<u8>,
        /// The tile taken from that discard.
        #[schemars(with = "Option<String>")]
        claimed: Option<Tile>,
    },
    /// Another seat's concealed kong: four tiles face down.
    HiddenKong,
}

/// A win.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WireWin {
    /// The winner.
    pub seat: u8,
    /// The winning tile.
    #[schemars(with = "String")]
    pub tile: Tile,
    /// The discarder (or the robbed kong's owner); absent for a self-draw.
    pub from: Option<u8>,
}

/// One discard of a seat's river.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WireDiscard {
    /// The tile.
    #[schemars(with = "String")]
    pub tile: Tile,
    /// Another seat took it (a chow, pung, kong or win on it): it is no longer in front of the
    /// seat.
    pub claimed: bool,
}

/// What is public about a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WirePublicSeat {
    /// Declared melds.
    pub melds: Vec<WireMeld>,
    /// Discards still in front of the seat, oldest first.
    #[schemars(with = "Vec<String>")]
    pub discards: Vec<Tile>,
    /// Every discard the seat made in this hand, oldest first, the claimed ones marked: the
    /// river as the events drew it (`discards` are its unclaimed tiles).
    #[serde(default)]
    pub river: Vec<WireDiscard>,
    /// Flowers set aside.
    #[schemars(with = "Vec<String>")]
    pub flowers: Vec<Tile>,
    /// How many concealed tiles it holds.
    pub concealed: u32,
    /// Its 定缺 once revealed.
    pub void: Option<String>,
    /// Its win, in 血战 once it has won.
    pub won: Option<WireWin>,
    /// It has declared ready (报听, two-player): the server discards for it.
    #[serde(default)]
    pub ready: bool,
}

/// What one seat may know of the hand: its own tiles and the public facts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WireView {
    /// This seat; absent in a spectator's view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The dealer.
    pub dealer: u8,
    /// The prevalent wind (`1z`–`4z`: East, South, West, North).
    pub round_wind: String,
    /// The dice.
    pub dice: [u8; 2],
    /// Tiles still drawable from the wall.
    pub wall: usize,
    /// The wild kind, where the ruleset turns one up.
    #[schemars(with = "Option<String>")]
    pub wild: Option<Tile>,
    /// The face-up bonus indicators (two-player 花牌): each tile of their kinds in a winning hand
    /// is 1 fan.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub bonus: Vec<Tile>,
    /// The seat drawing in the 海底捞月 phase, once the wall has run out (two-player).
    #[serde(default)]
    pub seabed: Option<u8>,
    /// This seat's concealed tiles, sorted.
    #[schemars(with = "Vec<String>")]
    pub hand: Vec<Tile>,
    /// This seat's 定缺.
    pub own_void: Option<String>,
    /// The tiles this seat has marked to give back in the swap phase (开始时换牌, two-player);
    /// still in `hand` until its `swapped` event.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub swap_marked: Vec<Tile>,
    /// Every seat's public facts, by seat index.
    pub seats: Vec<WirePublicSeat>,
    /// The tile on offer (a discard or a kong being robbed).
    #[schemars(with = "Option<String>")]
    pub offered: Option<Tile>,
    /// Whether the hand is over.
    pub over: bool,
    /// The seat whose turn it is: the one holding a turn's tiles, which discards next (the
    /// dealer from the deal until its first discard, through 定缺 and the swap); absent while
    /// a claim or robbing window is open, while the last tile is offered (海底), and once the
    /// hand is over.
    #[serde(default)]
    pub turn: Option<u8>,
    /// This seat's tile drawn in its turn, still in `hand` (a client draws it apart): set by
    /// its own `drew`, cleared by any discard, its own meld or offered kong, any win, its own
    /// swap and the hand's end. Absent in a spectator's view.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub drawn: Option<Tile>,
    /// The seat that made the hand's newest discard (the last tile of its `river`), to mark it.
    #[serde(default)]
    pub last_discard: Option<u8>,
}

/// One scoring item of a winner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WireFanItem {
    /// Its name as players say it.
    pub name: String,
    /// Its English name, to show beside the Chinese (empty in hands stored before it was
    /// sent).
    #[serde(default)]
    pub name_en: String,
    /// Its value.
    pub value: i64,
    /// How many times it counts.
    pub count: u32,
}

/// A winner's scoring lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WireWinnerFans {
    /// The winner.
    pub seat: u8,
    /// Every item.
    pub items: Vec<WireFanItem>,
    /// The total the ruleset pays on.
    pub total: i64,
}

/// A hand's settlement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WireSettlement {
    /// Each winner's lines.
    pub fans: Vec<WireWinnerFans>,
    /// Lines outside any winner's hand (查叫, kong money …).
    pub extras: Vec<WireFanItem>,
    /// What each seat won or paid, by seat index.
    pub deltas: Vec<i64>,
    /// Who paid whom, how much and for what, in the order the ruleset paid them; summed seat
    /// by seat (paid in minus paid out) they equal `deltas`. Absent in hands stored before it
    /// was recorded.
    #[serde(default)]
    pub payments: Vec<WirePayment>,
}

/// One transfer of a settlement: `payer` paid `payee` `amount` for `for`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WirePayment {
    /// The seat index that paid.
    pub payer: u8,
    /// The seat index that was paid.
    pub payee: u8,
    /// How much, in the settlement's points (after any multiplier); always positive.
    pub amount: i64,
    /// What it paid for.
    #[serde(rename = "for")]
    pub paid_for: WirePaidFor,
}

/// What a payment was for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WirePaidFor {
    /// The payee's winning hand (its `fans`).
    Win,
    /// A line of `extras` (查叫, 刮风, 承包 …).
    Extra {
        /// The line's name, as in `extras`.
        name: String,
    },
}

/// Something that happened in the hand, as one seat may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WireEvent {
    /// The hand began.
    HandStarted {
        /// The dealer.
        dealer: u8,
        /// The prevalent wind.
        round_wind: String,
        /// The dice.
        dice: [u8; 2],
        /// Tiles drawable in turn after the deal (the snapshot's `wall`; tiles a ruleset keeps
        /// back are not counted).
        wall: usize,
    },
    /// An indicator was turned up, naming the wild kind.
    WildTurned {
        /// The tile turned up.
        #[schemars(with = "String")]
        indicator: Tile,
        /// The wild kind.
        #[schemars(with = "String")]
        wild: Tile,
        /// Tiles drawable in turn after it.
        #[serde(default)]
        wall: usize,
    },
    /// A set-aside tile turned face up: its kind is a 花牌 (two-player).
    BonusTurned {
        /// The tile.
        #[schemars(with = "String")]
        tile: Tile,
    },
    /// A seat declared ready (报听, two-player); its `discarded` follows. From then on the server
    /// discards its drawn tiles that do not win.
    ReadyDeclared {
        /// The seat.
        seat: u8,
        /// 天听: on its first discard, before any claim or kong.
        first_turn: bool,
    },
    /// The wall ran out and the 海底捞月 phase began (two-player): `seat` draws up to `draws`
    /// tiles from the set-aside tiles, each checked for a self-draw win only.
    SeabedStarted {
        /// The drawing seat.
        seat: u8,
        /// How many draws at most.
        draws: u8,
    },
    /// This seat marked a tile to give back in the swap phase (开始时换牌; to this seat only).
    SwapMarked {
        /// The seat.
        seat: u8,
        /// The tile marked.
        #[schemars(with = "String")]
        tile: Tile,
    },
    /// This seat finished its swap: the tiles it gave back and the unseen set-aside tiles it
    /// received in their place (to this seat only).
    Swapped {
        /// The seat.
        seat: u8,
        /// The tiles given back.
        #[schemars(with = "Vec<String>")]
        out: Vec<Tile>,
        /// The tiles received.
        #[schemars(with = "Vec<String>")]
        received: Vec<Tile>,
    },
    /// Another seat finished its swap: only how many tiles it exchanged (perhaps none).
    SwappedHidden {
        /// The seat.
        seat: u8,
        /// How many.
        count: usize,
    },
    /// This seat's dealt tiles.
    Dealt {
        /// The seat.
        seat: u8,
        /// The tiles.
        #[schemars(with = "Vec<String>")]
        tiles: Vec<Tile>,
    },
    /// How many tiles another seat was dealt.
    DealtHidden {
        /// The seat.
        seat: u8,
        /// How many.
        count: usize,
    },
    /// A flower set aside and replaced.
    FlowerReplaced {
        /// The seat.
        seat: u8,
        /// The flower.
        #[schemars(with = "String")]
        flower: Tile,
        /// It was dealt, so it leaves the seat's concealed tiles (and its count); a flower
        /// drawn, in play or as a replacement, never entered them.
        #[serde(default)]
        dealt: bool,
    },
    /// A draw; the tile only for the drawer.
    Drew {
        /// The drawer.
        seat: u8,
        /// The tile (the drawer's copy only).
        #[schemars(with = "Option<String>")]
        tile: Option<Tile>,
        /// A replacement draw (after a kong or flower).
        replacement: bool,
        /// Tiles drawable in turn after it: the snapshot's `wall` (a replacement taken from the
        /// tiles a ruleset keeps back, Beijing 保留牌, leaves it as it was; a kong that makes
        /// the ruleset keep more back lowers it).
        #[serde(default)]
        wall: usize,
    },
    /// This seat's own 定缺 choice.
    VoidChosen {
        /// The seat.
        seat: u8,
        /// The suit letter.
        suit: String,
    },
    /// Every seat's 定缺, revealed together.
    VoidsRevealed {
        /// Per seat.
        voids: Vec<Option<String>>,
    },
    /// A discard.
    Discarded {
        /// The seat.
        seat: u8,
        /// The tile.
        #[schemars(with = "String")]
        tile: Tile,
    },
    /// A seat declined its claims.
    Passed {
        /// The seat.
        seat: u8,
    },
    /// Your own claim (a chow, pung, kong or win) is in: no decision is owed while the window
    /// waits for other seats' answers. Sent for every claim, whether or not others are still
    /// to answer, so it tells nothing of them. No other seat is told.
    ClaimEntered {
        /// The seat.
        seat: u8,
    },
    /// The seat due to draw the last drawable tile (海底) is asked whether to draw it (beijing):
    /// nobody is in turn and no tile is on offer until its `drew` or `last_declined`.
    LastOffered {
        /// The seat.
        seat: u8,
    },
    /// The seat due to draw the last drawable tile declined it; `hand_ended` follows (drawn).
    LastDeclined {
        /// The seat.
        seat: u8,
    },
    /// A kong was declared that may be robbed (抢杠): every added kong, and a concealed kong
    /// where the ruleset lets one be robbed, whether or not anyone can rob it. Its `melded`
    /// follows unless a `won` robs it. `tile` is the tile being added to a pung; it is null for
    /// a concealed kong (a seat that may rob it sees the tile on offer in its own view).
    KongOffered {
        /// The declarer.
        seat: u8,
        /// The tile being added (null for a concealed kong).
        #[schemars(with = "Option<String>")]
        tile: Option<Tile>,
    },
    /// A meld was declared. `meld` is always there: `open` for every meld whose tiles the
    /// receiver may see (the receiver's own concealed kong too, shape `concealed_kong`),
    /// `hidden_kong` for another seat's concealed kong, face down.
    Melded {
        /// The seat.
        seat: u8,
        /// The meld.
        meld: WireMeld,
    },
    /// A win; the winner's concealed tiles are shown.
    Won {
        /// The win.
        win: WireWin,
        /// The winner's concealed tiles.
        #[schemars(with = "Vec<String>")]
        concealed: Vec<Tile>,
    },
    /// The hand ended; every hand is shown.
    HandEnded {
        /// The wall ran out.
        exhausted: bool,
        /// Every seat's concealed tiles.
        #[schemars(with = "Vec<Vec<String>>")]
        hands: Vec<Vec<Tile>>,
        /// The settlement.
        settlement: WireSettlement,
        /// Tiles drawable in turn when it ended.
        #[serde(default)]
        wall: usize,
    },
}
