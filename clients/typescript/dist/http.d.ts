import { type Operations } from './generated/api.js';
/** Where the session's token lives: memory, localStorage, a phone's keychain… */
export interface TokenStorage {
    get(): string | null | Promise<string | null>;
    set(token: string | null): void | Promise<void>;
}
/** A token kept in memory only. */
export declare function memoryToken(initial?: string | null): TokenStorage;
/** An HTTP error: the server's `{code, message}` with its status (or `network` when none came). */
export declare class ApiError extends Error {
    readonly status: number;
    readonly code: string;
    /** `Retry-After` in seconds, on 429. */
    readonly retryAfter: number | null;
    constructor(status: number, code: string, message: string, 
    /** `Retry-After` in seconds, on 429. */
    retryAfter?: number | null);
}
export interface HttpOptions {
    /** The server's base URL, e.g. `https://mahjong.example.org` (no trailing slash needed). */
    baseUrl: string;
    /** Where the token is kept (default: in memory). */
    tokens?: TokenStorage;
    /** The fetch function (default: the global one). */
    fetch?: typeof globalThis.fetch;
}
type Op = keyof Operations;
type Args<K extends Op> = {
    params?: Operations[K]['params'];
    query?: Operations[K]['query'];
    body?: Operations[K]['body'];
    /** Aborts the request (a quick match's long wait, a page left): the fetch's own AbortError is thrown. */
    signal?: AbortSignal;
};
/** A client of one server's HTTP API. */
export declare class HttpClient {
    readonly baseUrl: string;
    readonly tokens: TokenStorage;
    private readonly fetchFn;
    constructor(options: HttpOptions);
    /** Any operation by its id, with its path parameters, query and body. */
    call<K extends Op>(op: K, args?: Args<K>): Promise<Operations[K]['answer']>;
    /** Signs up a guest and keeps its token. */
    signUp(displayName: string): Promise<Operations['sign_up']['answer']>;
    /** Renews the session and keeps the new token. */
    renew(): Promise<Operations['renew_session']['answer']>;
    /** Signs out and forgets the token. */
    signOut(): Promise<void>;
    me(): Promise<Operations['me']['answer']>;
    rulesets(): Promise<Operations['rulesets']['answer']>;
    createRoom(room: Operations['create_room']['body']): Promise<Operations['create_room']['answer']>;
    joinByCode(code: string): Promise<Operations['join_by_code']['answer']>;
    rooms(): Promise<Operations['list_rooms']['answer']>;
    /** Waits (a long poll) until seated; `signal` stops waiting here. */
    quickMatch(ruleset: Operations['quickmatch']['body']['ruleset'], signal?: AbortSignal): Promise<Operations['quickmatch']['answer']>;
    tableHands(table: string): Promise<Operations['table_hands']['answer']>;
    hand(table: string, hand: number): Promise<Operations['hand_replay']['answer']>;
    /** A finished hand as a stream of messages, every seat's own events included (see `replaySteps`). */
    handStream(table: string, hand: number): Promise<Operations['hand_stream']['answer']>;
    /** The WebSocket URL of a table (`watch` for the spectators' stream). */
    tableUrl(table: string, watch?: boolean): string;
}
export {};
