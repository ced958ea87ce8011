import type { ErrorCode, ServerFrame, WireAction } from './generated/protocol.js';
import { type TableState } from './reducer.js';
/** The subprotocol the server speaks. */
export declare const SUBPROTOCOL = "mahjong.v1";
/** What the connection needs of a WebSocket (the browser's, React Native's, undici's, `ws`). */
export interface WebSocketLike {
    readonly readyState: number;
    send(data: string): void;
    close(code?: number, reason?: string): void;
    onopen: ((ev: unknown) => void) | null;
    onmessage: ((ev: {
        data: unknown;
    }) => void) | null;
    onclose: ((ev: {
        code: number;
        reason: string;
    }) => void) | null;
    onerror: ((ev: unknown) => void) | null;
}
/** A WebSocket constructor. */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;
/** Timers, injectable so tests can drive time. */
export interface Timers {
    setTimeout(fn: () => void, ms: number): unknown;
    clearTimeout(handle: unknown): void;
}
export interface ConnectionOptions {
    /** The table's socket: `ws(s)://HOST/ws/tables/{table}`, or `…/watch` to spectate. */
    url: string;
    /** The session's token, asked afresh for every connection (a renewed one is picked up). */
    token: () => string | null | Promise<string | null>;
    /** The WebSocket constructor (default: the global one). */
    WebSocket?: WebSocketConstructor;
    /** Resume a stream this client already holds up to `lastSeq` (default: from a snapshot). */
    lastSeq?: number;
    /** The first wait before reconnecting, doubled each time up to `maxBackoffMs`. */
    initialBackoffMs?: number;
    maxBackoffMs?: number;
    /** A number in [0, 1) for the jitter (default Math.random). */
    random?: () => number;
    timers?: Timers;
}
/** Why a request failed: the server's `error` (its code and message) or a lost connection. */
export declare class RequestError extends Error {
    readonly code: ErrorCode | 'connection_lost' | 'not_connected';
    constructor(code: ErrorCode | 'connection_lost' | 'not_connected', message: string);
}
/** Where the connection is. */
export type ConnectionStatus = {
    kind: 'connecting';
} | {
    kind: 'open';
} | {
    kind: 'reconnecting';
    inMs: number;
    attempt: number;
}
/** Over for good: the match ended, the seat was taken by another window, the token failed… */
 | {
    kind: 'closed';
    code: number;
    reason: string;
};
interface Listeners {
    frame: (frame: ServerFrame) => void;
    state: (state: TableState, frame: ServerFrame) => void;
    status: (status: ConnectionStatus) => void;
    error: (error: RequestError) => void;
}
/** One seat's (or spectator's) connection to a table. */
export declare class TableConnection {
    private readonly options;
    /** The table as the stream has told it so far. */
    state: TableState;
    /** The last `seq` received (0: none). */
    lastSeq: number;
    /** Connections opened so far. */
    connections: number;
    private socket;
    private nextId;
    private pending;
    private listeners;
    private attempt;
    private retry;
    private stopped;
    private readonly timers;
    private readonly WS;
    constructor(options: ConnectionOptions);
    /** Listens to `kind`; returns the function that stops listening. */
    on<K extends keyof Listeners>(kind: K, fn: Listeners[K]): () => void;
    /** Opens the connection (and keeps it open until the table is over or `close`). */
    connect(): void;
    /** Sends an action for the seat; resolves on its `ack`, rejects with the `error`. */
    act(action: WireAction): Promise<void>;
    /** A keep-alive round trip. */
    ping(): Promise<void>;
    /** Leaves the table for good (an escape once dealt: see proto/README.md). */
    leave(): void;
    /** Closes the connection without leaving the seat; nothing reconnects. */
    close(): void;
    /**
     * Drops the socket and forgets the stream, as a page reload would: the next connection
     * starts from a snapshot.
     */
    reload(): void;
    /** Drops the socket as a network failure would: the connection resumes by itself. */
    dropConnection(): void;
    /** Whether a socket is open. */
    get isOpen(): boolean;
    private request;
    private send;
    private emit;
    private open;
    private receive;
    private settle;
    private failPending;
    private closed;
    private backoff;
    private finish;
}
export {};
