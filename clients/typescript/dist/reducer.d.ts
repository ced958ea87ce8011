import type { PromptInfo, SeatInfo, ServerFrame, TableSnapshot, WireDiscard, WireMeld, WireSettlement, WireWin } from './generated/protocol.js';
import { type Tile } from './tiles.js';
/** One seat's public facts (and, for the own seat, its count of concealed tiles). */
export interface PlayerState {
    /** Declared melds, in the order the server lists them (an added kong moves to the end). */
    melds: WireMeld[];
    /** Every discard of the hand, oldest first; `claimed` once another seat took it. */
    river: WireDiscard[];
    /** Flowers set aside. */
    flowers: Tile[];
    /** How many concealed tiles it holds. */
    concealed: number;
    /** Its 定缺 (void suit) once revealed. */
    void: string | null;
    /** Its win (血战到底 plays on after one). */
    won: WireWin | null;
    /** The concealed tiles its `won` showed (not in snapshots: kept from the event). */
    shown: Tile[] | null;
    /** It declared ready (报听, two-player). */
    ready: boolean;
}
/** The hand in play. */
export interface HandState {
    dealer: number;
    roundWind: Tile;
    dice: number[];
    /** Tiles still drawable from the wall. */
    wall: number;
    /** The wild kind, where the ruleset turns one up. */
    wild: Tile | null;
    /** The tile turned up to show the wild (from `wild_turned`; not in snapshots). */
    indicator: Tile | null;
    /** The face-up 花牌 indicators (two-player). */
    bonus: Tile[];
    /** The seat drawing in the 海底捞月 phase (two-player). */
    seabed: number | null;
    /** This seat's concealed tiles, sorted, the drawn tile among them. */
    hand: Tile[];
    /** The tile this seat drew in its turn (in `hand` too), to draw apart. */
    drawn: Tile | null;
    /** This seat's 定缺. */
    ownVoid: string | null;
    /** Tiles this seat marked to give back (开始时换牌), still in `hand`. */
    swapMarked: Tile[];
    /** The tile on offer in a claim or robbing window. */
    offered: Tile | null;
    over: boolean;
    /** The seat whose turn it is (holding a turn's tiles), or null. */
    turn: number | null;
    /** The seat that made the hand's newest discard. */
    lastDiscard: number | null;
    players: PlayerState[];
    /** Still in the deal (补花): see `flower_replaced`'s `dealt`. Not in snapshots. */
    dealing: boolean;
    /** A kong that may be robbed (抢杠), until its `melded` or the `won` robbing it. */
    kongOffer: {
        seat: number;
        tile: Tile | null;
        robbed: boolean;
    } | null;
    /** How the hand ended, once it has (from `hand_ended`; not in snapshots). */
    ending: {
        exhausted: boolean;
        hands: Tile[][];
        settlement: WireSettlement;
    } | null;
    /** The seat that declined the last tile (海底), if one did. */
    declinedBy: number | null;
}
/** A finished hand, as `hand_over` told it, with the hand it closed. */
export interface HandResult {
    handNo: number;
    /** The revealed seed; null at a duplicate tournament table, which reveals it with its round. */
    seed: string | null;
    settlement: WireSettlement;
    scores: number[];
    /** The hand as it stood when it ended (every seat's tiles in `ending.hands`). */
    hand: HandState | null;
}
/** The table as this client knows it. */
export interface TableState {
    table: string | null;
    ruleset: string | null;
    /** This client's seat (null for a spectator). */
    seat: number | null;
    seats: SeatInfo[];
    scores: number[];
    /** The current hand's number (hands played before it). */
    handNo: number;
    seedSha256: string | null;
    /** The 荒番 counter (Shanghai). */
    drawBonus: number;
    code: string | null;
    hands: number | null;
    actionSeconds: number | null;
    timeBankSeconds: number | null;
    claimWindowMs: number | null;
    hand: HandState | null;
    /** The decision owed now. */
    prompt: PromptInfo | null;
    /** The last finished hand (not in snapshots). */
    lastHand: HandResult | null;
    /** Why the table closed, once it has (not in snapshots). */
    closed: string | null;
}
/** A table before its first snapshot. */
export declare function emptyTable(): TableState;
/** The tiles still in front of a seat (its river less the claimed ones). */
export declare function discards(p: PlayerState): Tile[];
/** The table a snapshot describes. Whatever the state held before is replaced. */
export declare function fromSnapshot(t: TableSnapshot): TableState;
/**
 * The table after one message of the stream (`reduce(state, frame)` never changes `state`).
 * Replies (`ack`, `pong`, `error`) are not part of the stream and change nothing here.
 */
export declare function reduce(state: TableState, message: ServerFrame): TableState;
/**
 * What a snapshot states of a table, from a state: the fields a snapshot carries, in one
 * canonical form (flowers sorted: a snapshot lists them in no particular order). Two states
 * that agree here draw the same table; the transcript test compares exactly this.
 */
export declare function snapshotFacts(s: TableState): unknown;
