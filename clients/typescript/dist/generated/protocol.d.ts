/** Why a request failed. */
export type ErrorCode = ("bad_message" | "too_large" | "not_authenticated" | "bad_token" | "not_seated" | "escaped" | "not_your_turn" | "illegal_action" | "duplicate_id" | "rate_limited" | "table_closed" | "moving" | "not_watchable" | "internal");
/** A decision the seat owes. */
export type PromptInfo = {
    /**
     * How much of the time to `deadline_ms` is the seat's time bank, in milliseconds: a client
     * shows `deadline_ms - bank_ms` as the decision's own time running out, then the bank.
     * Time taken beyond the decision's own comes out of the bank, which refills each hand.
     * No bank lengthens a claim window: there it counts only what fits in the window.
     */
    bank_ms: number;
    /** When the server acts for the seat (Unix milliseconds), the seat's time bank included. */
    deadline_ms: number;
    /** The hand it belongs to. */
    hand_no: number;
    /** Every legal action; the server accepts exactly these. */
    legal: Array<WireAction>;
};
/** Who sits in a seat and how they are connected. */
export type SeatInfo = {
    /** Display name ("bot (strong)" for a bot seat). */
    name: string;
    /** Seat index. */
    seat: number;
    /** Connection status. */
    status: SeatStatus;
};
/** How a seat is being played. */
export type SeatStatus = ("empty" | "bot" | "connected" | "disconnected" | "takeover" | "escaped");
/** Everything a (re)connecting client needs to draw the table. */
export type TableSnapshot = {
    /** The room's time for every decision, in seconds. */
    action_seconds?: number;
    /**
     * How long, in milliseconds, every discard's (and robbable kong's) claim window stays open
     * at this table, whoever could claim: a claim prompt's deadline is the window's end.
     */
    claim_window_ms?: number;
    /** The room's join code (for a seated player; absent for a spectator). */
    code?: string | null;
    /**
     * The table's 荒番 counter (Shanghai) the current hand is played with, or the next one
     * will be between hands: while it is 1 or more, a won hand's shares double. 0 elsewhere.
     */
    draw_bonus?: number;
    /** The current hand's number (hands played before it). */
    hand_no: number;
    /** Hands in the match: the table closes after that many. */
    hands?: number;
    /** The decision the seat owes, if any. */
    prompt?: (PromptInfo | null);
    /** Ruleset preset id. */
    ruleset: string;
    /** Running scores by seat. */
    scores: Array<number>;
    /** The client's seat (absent for a spectator). */
    seat?: number | null;
    /** Every seat. */
    seats: Array<SeatInfo>;
    /** SHA-256 (hex) of the current hand's seed, committed before the deal. */
    seed_sha256?: string | null;
    /** The table's id. */
    table: string;
    /** The room's time bank per seat and hand, in seconds. */
    time_bank_seconds?: number;
    /**
     * The seat's view of the current hand (absent between hands); a spectator's view holds
     * no concealed tiles.
     */
    view?: (WireView | null);
};
/** What a seat may do: the engine's actions. The legal ones are listed in every prompt. */
export type WireAction = ({
    /** The suit letter. */
    suit: string;
    type: "declare_void";
} | {
    /** The tile. */
    tile: string;
    type: "discard";
} | {
    type: "self_draw_win";
} | {
    /** The kind. */
    tile: string;
    type: "concealed_kong";
} | {
    /** The kind. */
    tile: string;
    type: "added_kong";
} | {
    type: "win";
} | {
    type: "pung";
} | {
    type: "exposed_kong";
} | {
    /** The chow's lowest tile. */
    low: string;
    type: "chow";
} | {
    type: "pass";
} | {
    type: "draw_last";
} | {
    type: "decline_last";
} | {
    /** The tile discarded with the declaration. */
    tile: string;
    type: "declare_ready";
} | {
    /** The kind marked. */
    tile: string;
    type: "swap_mark";
} | {
    type: "swap_done";
});
/** One discard of a seat's river. */
export type WireDiscard = {
    /**
     * Another seat took it (a chow, pung, kong or win on it): it is no longer in front of the
     * seat.
     */
    claimed: boolean;
    /** The tile. */
    tile: string;
};
/** Something that happened in the hand, as one seat may see it. */
export type WireEvent = ({
    /** The dealer. */
    dealer: number;
    /** The dice. */
    dice: Array<number>;
    kind: "hand_started";
    /** The prevalent wind. */
    round_wind: string;
    /**
     * Tiles drawable in turn after the deal (the snapshot's `wall`; tiles a ruleset keeps
     * back are not counted).
     */
    wall: number;
} | {
    /** The tile turned up. */
    indicator: string;
    kind: "wild_turned";
    /** Tiles drawable in turn after it. */
    wall?: number;
    /** The wild kind. */
    wild: string;
} | {
    kind: "bonus_turned";
    /** The tile. */
    tile: string;
} | {
    /** 天听: on its first discard, before any claim or kong. */
    first_turn: boolean;
    kind: "ready_declared";
    /** The seat. */
    seat: number;
} | {
    /** How many draws at most. */
    draws: number;
    kind: "seabed_started";
    /** The drawing seat. */
    seat: number;
} | {
    kind: "swap_marked";
    /** The seat. */
    seat: number;
    /** The tile marked. */
    tile: string;
} | {
    kind: "swapped";
    /** The tiles given back. */
    out: Array<string>;
    /** The tiles received. */
    received: Array<string>;
    /** The seat. */
    seat: number;
} | {
    /** How many. */
    count: number;
    kind: "swapped_hidden";
    /** The seat. */
    seat: number;
} | {
    kind: "dealt";
    /** The seat. */
    seat: number;
    /** The tiles. */
    tiles: Array<string>;
} | {
    /** How many. */
    count: number;
    kind: "dealt_hidden";
    /** The seat. */
    seat: number;
} | {
    /**
     * It was dealt, so it leaves the seat's concealed tiles (and its count); a flower
     * drawn, in play or as a replacement, never entered them.
     */
    dealt?: boolean;
    /** The flower. */
    flower: string;
    kind: "flower_replaced";
    /** The seat. */
    seat: number;
} | {
    kind: "drew";
    /** A replacement draw (after a kong or flower). */
    replacement: boolean;
    /** The drawer. */
    seat: number;
    /** The tile (the drawer's copy only). */
    tile?: string | null;
    /**
     * Tiles drawable in turn after it: the snapshot's `wall` (a replacement taken from the
     * tiles a ruleset keeps back, Beijing 保留牌, leaves it as it was; a kong that makes
     * the ruleset keep more back lowers it).
     */
    wall?: number;
} | {
    kind: "void_chosen";
    /** The seat. */
    seat: number;
    /** The suit letter. */
    suit: string;
} | {
    kind: "voids_revealed";
    /** Per seat. */
    voids: Array<string | null>;
} | {
    kind: "discarded";
    /** The seat. */
    seat: number;
    /** The tile. */
    tile: string;
} | {
    kind: "passed";
    /** The seat. */
    seat: number;
} | {
    kind: "claim_entered";
    /** The seat. */
    seat: number;
} | {
    kind: "last_offered";
    /** The seat. */
    seat: number;
} | {
    kind: "last_declined";
    /** The seat. */
    seat: number;
} | {
    kind: "kong_offered";
    /** The declarer. */
    seat: number;
    /** The tile being added (null for a concealed kong). */
    tile?: string | null;
} | {
    kind: "melded";
    /** The meld. */
    meld: WireMeld;
    /** The seat. */
    seat: number;
} | {
    /** The winner's concealed tiles. */
    concealed: Array<string>;
    kind: "won";
    /** The win. */
    win: WireWin;
} | {
    /** The wall ran out. */
    exhausted: boolean;
    /** Every seat's concealed tiles. */
    hands: Array<Array<string>>;
    kind: "hand_ended";
    /** The settlement. */
    settlement: WireSettlement;
    /** Tiles drawable in turn when it ended. */
    wall?: number;
});
/** One scoring item of a winner. */
export type WireFanItem = {
    /** How many times it counts. */
    count: number;
    /** Its name as players say it. */
    name: string;
    /**
     * Its English name, to show beside the Chinese (empty in hands stored before it was
     * sent).
     */
    name_en?: string;
    /** Its value. */
    value: number;
};
/** A declared meld as the receiver may see it. */
export type WireMeld = ({
    /** The tile taken from that discard. */
    claimed?: string | null;
    /**
     * The seat whose discard completed it (null for a concealed kong; an added kong keeps
     * its pung's).
     */
    from?: number | null;
    kind: "open";
    /**
     * `chow`, `pung`, `exposed_kong`, `concealed_kong` (only the receiver's own) or
     * `added_kong`.
     */
    shape: string;
    /** Its tiles, lowest first. */
    tiles: Array<string>;
} | {
    kind: "hidden_kong";
});
/** What a payment was for. */
export type WirePaidFor = ({
    kind: "win";
} | {
    kind: "extra";
    /** The line's name, as in `extras`. */
    name: string;
});
/** One transfer of a settlement: `payer` paid `payee` `amount` for `for`. */
export type WirePayment = {
    /** How much, in the settlement's points (after any multiplier); always positive. */
    amount: number;
    /** What it paid for. */
    for: WirePaidFor;
    /** The seat index that was paid. */
    payee: number;
    /** The seat index that paid. */
    payer: number;
};
/** What is public about a seat. */
export type WirePublicSeat = {
    /** How many concealed tiles it holds. */
    concealed: number;
    /** Discards still in front of the seat, oldest first. */
    discards: Array<string>;
    /** Flowers set aside. */
    flowers: Array<string>;
    /** Declared melds. */
    melds: Array<WireMeld>;
    /** It has declared ready (报听, two-player): the server discards for it. */
    ready?: boolean;
    /**
     * Every discard the seat made in this hand, oldest first, the claimed ones marked: the
     * river as the events drew it (`discards` are its unclaimed tiles).
     */
    river?: Array<WireDiscard>;
    /** Its 定缺 once revealed. */
    void?: string | null;
    /** Its win, in 血战 once it has won. */
    won?: (WireWin | null);
};
/** A hand's settlement. */
export type WireSettlement = {
    /** What each seat won or paid, by seat index. */
    deltas: Array<number>;
    /** Lines outside any winner's hand (查叫, kong money …). */
    extras: Array<WireFanItem>;
    /** Each winner's lines. */
    fans: Array<WireWinnerFans>;
    /**
     * Who paid whom, how much and for what, in the order the ruleset paid them; summed seat
     * by seat (paid in minus paid out) they equal `deltas`. Absent in hands stored before it
     * was recorded.
     */
    payments?: Array<WirePayment>;
};
/** What one seat may know of the hand: its own tiles and the public facts. */
export type WireView = {
    /**
     * The face-up bonus indicators (two-player 花牌): each tile of their kinds in a winning hand
     * is 1 fan.
     */
    bonus?: Array<string>;
    /** The dealer. */
    dealer: number;
    /** The dice. */
    dice: Array<number>;
    /**
     * This seat's tile drawn in its turn, still in `hand` (a client draws it apart): set by
     * its own `drew`, cleared by any discard, its own meld or offered kong, any win, its own
     * swap and the hand's end. Absent in a spectator's view.
     */
    drawn?: string | null;
    /** This seat's concealed tiles, sorted. */
    hand: Array<string>;
    /** The seat that made the hand's newest discard (the last tile of its `river`), to mark it. */
    last_discard?: number | null;
    /** The tile on offer (a discard or a kong being robbed). */
    offered?: string | null;
    /** Whether the hand is over. */
    over: boolean;
    /** This seat's 定缺. */
    own_void?: string | null;
    /** The prevalent wind (`1z`–`4z`: East, South, West, North). */
    round_wind: string;
    /** The seat drawing in the 海底捞月 phase, once the wall has run out (two-player). */
    seabed?: number | null;
    /** This seat; absent in a spectator's view. */
    seat?: number | null;
    /** Every seat's public facts, by seat index. */
    seats: Array<WirePublicSeat>;
    /**
     * The tiles this seat has marked to give back in the swap phase (开始时换牌, two-player);
     * still in `hand` until its `swapped` event.
     */
    swap_marked?: Array<string>;
    /**
     * The seat whose turn it is: the one holding a turn's tiles, which discards next (the
     * dealer from the deal until its first discard, through 定缺 and the swap); absent while
     * a claim or robbing window is open, while the last tile is offered (海底), and once the
     * hand is over.
     */
    turn?: number | null;
    /** Tiles still drawable from the wall. */
    wall: number;
    /** The wild kind, where the ruleset turns one up. */
    wild?: string | null;
};
/** A win. */
export type WireWin = {
    /** The discarder (or the robbed kong's owner); absent for a self-draw. */
    from?: number | null;
    /** The winner. */
    seat: number;
    /** The winning tile. */
    tile: string;
};
/** A winner's scoring lines. */
export type WireWinnerFans = {
    /** Every item. */
    items: Array<WireFanItem>;
    /** The winner. */
    seat: number;
    /** The total the ruleset pays on. */
    total: number;
};
/** A message from a client. */
export type ClientMessage = ({
    /** The last `seq` this client received on this table's stream. */
    last_seq?: number | null;
    /** The session token from sign-in. */
    token: string;
    type: "hello";
} | {
    /** The action: one of the latest prompt's legal actions. */
    action: WireAction;
    /** The client's id for this request. */
    id: number;
    type: "act";
} | {
    /** Echoed back. */
    id: number;
    type: "ping";
} | {
    type: "leave";
});
/** A message from the server, with its place in the table's stream. */
export type ServerFrame = {
    /**
     * Position in this player's stream of this table (1, 2, 3 …); absent on replies
     * (`ack`, `pong`, `error`), which are not replayed on reconnection.
     */
    seq?: number | null;
} & ({
    /** The snapshot (boxed: it is far larger than every other message). */
    table: TableSnapshot;
    type: "snapshot";
} | {
    /** The hand's number. */
    hand_no: number;
    /** SHA-256 (hex) of the seed's decimal digits. */
    seed_sha256: string;
    type: "hand_starting";
} | {
    /** What happened. */
    event: WireEvent;
    /** The hand. */
    hand_no: number;
    type: "event";
} | PromptInfo & {
    type: "prompt";
} | {
    /**
     * The table's 荒番 counter after it, which the next hand is played with (Shanghai; 0
     * elsewhere): the snapshot's `draw_bonus` between hands.
     */
    draw_bonus?: number;
    /** The hand. */
    hand_no: number;
    /** Running scores after it. */
    scores: Array<number>;
    /**
     * The seed, in decimal (it does not fit a JSON number exactly). Absent at a table of
     * a duplicate tournament (复式), whose group's other tables are dealt the same seed:
     * it is revealed once the round is over, in the tournament's hands.
     */
    seed?: string | null;
    /** The settlement. */
    settlement: WireSettlement;
    type: "hand_over";
} | SeatInfo & {
    type: "seat_changed";
} | {
    /** Why. */
    reason: string;
    type: "table_closed";
} | {
    /** Its id. */
    id: number;
    type: "ack";
} | {
    /** Its id. */
    id: number;
    type: "pong";
} | {
    /** What kind of failure. */
    code: ErrorCode;
    /** The request's id, when it had one. */
    id?: number | null;
    /** For people. */
    message: string;
    type: "error";
});
