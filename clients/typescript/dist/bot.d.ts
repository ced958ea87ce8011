import type { WireAction } from './generated/protocol.js';
import { TableConnection, type ConnectionOptions } from './connection.js';
import type { HttpClient } from './http.js';
import type { TableState } from './reducer.js';
/** Chooses one of `legal` for the seat, knowing what `state` shows. */
export type Policy = (state: TableState, legal: WireAction[]) => WireAction | Promise<WireAction>;
/** A deterministic generator of numbers in [0, 1) (mulberry32), for seeded play. */
export declare function seededRandom(seed: number): () => number;
/**
 * A policy that always wins when it may and otherwise picks at random, weighted toward what
 * makes a hand eventful (claims, kongs), so that a few hundred hands cover every kind of event.
 */
export declare function eventfulPolicy(random: () => number): Policy;
export interface PlayOptions {
    http: HttpClient;
    /** The table to play (the seat is the signed-in player's). */
    table: string;
    policy: Policy;
    /** Passed on to the connection (WebSocket constructor, timers …). */
    connection?: Partial<Omit<ConnectionOptions, 'url' | 'token'>>;
    /** Called with the connection once it exists (to watch frames, drop it in tests …). */
    onConnection?: (c: TableConnection) => void;
}
/** What a seat's play came to. */
export interface PlayResult {
    /** How the connection ended (`ended` once the match is over). */
    reason: string;
    code: number;
    state: TableState;
    actions: number;
    /** Actions the server refused (a prompt outdated on the way, say). */
    refused: number;
    connections: number;
}
/** Plays the signed-in player's seat at `table` until the connection is over for good. */
export declare function playSeat(options: PlayOptions): Promise<PlayResult>;
