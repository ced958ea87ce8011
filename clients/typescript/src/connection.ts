// A table connection (proto/README.md, "Frames", "Client messages", "Reconnection"): `hello`
// with the last `seq`, the stream's `seq` kept (duplicates dropped), `act` and `ping` matched
// to their `ack` / `pong` / `error` by request id, reconnection with exponential backoff and
// jitter (at once after 1012 `moved`), and the table kept by the reducer.
//
// It takes its URL, its WebSocket constructor, its token and its timers as arguments, so the
// same code runs in browsers, React Native and Node (20: `node --experimental-websocket`).

import type { ErrorCode, ServerFrame, WireAction } from './generated/protocol.js';
import { emptyTable, reduce, type TableState } from './reducer.js';

/** The subprotocol the server speaks. */
export const SUBPROTOCOL = 'mahjong.v1';

/** What the connection needs of a WebSocket (the browser's, React Native's, undici's, `ws`). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
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
export class RequestError extends Error {
  constructor(
    readonly code: ErrorCode | 'connection_lost' | 'not_connected',
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'RequestError';
  }
}

/** Where the connection is. */
export type ConnectionStatus =
  | { kind: 'connecting' }
  | { kind: 'open' }
  | { kind: 'reconnecting'; inMs: number; attempt: number }
  /** Over for good: the match ended, the seat was taken by another window, the token failed… */
  | { kind: 'closed'; code: number; reason: string };

interface Listeners {
  frame: (frame: ServerFrame) => void;
  state: (state: TableState, frame: ServerFrame) => void;
  status: (status: ConnectionStatus) => void;
  error: (error: RequestError) => void;
}

/** Errors after which another `hello` cannot succeed: the connection stops. */
const FINAL_ERRORS: ReadonlySet<string> = new Set(['bad_token', 'not_seated', 'escaped', 'not_authenticated']);

/** Close reasons after which the server will not serve this seat again on this table. */
const FINAL_CLOSES: ReadonlySet<string> = new Set(['ended', 'left', 'signed_out', 'table_closed', ...FINAL_ERRORS]);

interface Pending {
  resolve: () => void;
  reject: (e: RequestError) => void;
}

/** One seat's (or spectator's) connection to a table. */
export class TableConnection {
  /** The table as the stream has told it so far. */
  state: TableState = emptyTable();
  /** The last `seq` received (0: none). */
  lastSeq: number;
  /** Connections opened so far. */
  connections = 0;
  private socket: WebSocketLike | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private listeners: { [K in keyof Listeners]: Set<Listeners[K]> } = {
    frame: new Set(),
    state: new Set(),
    status: new Set(),
    error: new Set(),
  };
  private attempt = 0;
  private retry: unknown = null;
  private stopped = false;
  private readonly timers: Timers;
  private readonly WS: WebSocketConstructor;

  constructor(private readonly options: ConnectionOptions) {
    this.lastSeq = options.lastSeq ?? 0;
    this.timers = options.timers ?? {
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>),
    };
    const ws = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!ws) throw new Error('no WebSocket: pass one in the options (Node 20: run with --experimental-websocket)');
    this.WS = ws;
  }

  /** Listens to `kind`; returns the function that stops listening. */
  on<K extends keyof Listeners>(kind: K, fn: Listeners[K]): () => void {
    this.listeners[kind].add(fn);
    return () => this.listeners[kind].delete(fn);
  }

  /** Opens the connection (and keeps it open until the table is over or `close`). */
  connect(): void {
    this.stopped = false;
    void this.open();
  }

  /** Sends an action for the seat; resolves on its `ack`, rejects with the `error`. */
  act(action: WireAction): Promise<void> {
    return this.request({ type: 'act', action });
  }

  /** A keep-alive round trip. */
  ping(): Promise<void> {
    return this.request({ type: 'ping' });
  }

  /** Leaves the table for good (an escape once dealt: see proto/README.md). */
  leave(): void {
    this.send({ type: 'leave' });
  }

  /** Closes the connection without leaving the seat; nothing reconnects. */
  close(): void {
    this.stopped = true;
    if (this.retry !== null) this.timers.clearTimeout(this.retry);
    this.retry = null;
    this.socket?.close(1000, 'bye');
    this.socket = null;
    this.failPending('connection closed by the client');
  }

  /**
   * Drops the socket and forgets the stream, as a page reload would: the next connection
   * starts from a snapshot.
   */
  reload(): void {
    this.lastSeq = 0;
    this.dropConnection();
  }

  /** Drops the socket as a network failure would: the connection resumes by itself. */
  dropConnection(): void {
    this.socket?.close(4000, 'dropped');
  }

  /** Whether a socket is open. */
  get isOpen(): boolean {
    return this.socket !== null && this.socket.readyState === 1;
  }

  private request(message: { type: 'act'; action: WireAction } | { type: 'ping' }): Promise<void> {
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      if (!this.send({ ...message, id })) {
        reject(new RequestError('not_connected', 'the table is not connected'));
        return;
      }
      this.pending.set(id, { resolve, reject });
    });
  }

  private send(message: object): boolean {
    const s = this.socket;
    if (!s || s.readyState !== 1) return false;
    s.send(JSON.stringify(message));
    return true;
  }

  private emit<K extends keyof Listeners>(kind: K, ...args: Parameters<Listeners[K]>): void {
    for (const fn of this.listeners[kind]) (fn as (...a: Parameters<Listeners[K]>) => void)(...args);
  }

  private async open(): Promise<void> {
    this.retry = null;
    this.emit('status', { kind: 'connecting' });
    let token: string | null;
    try {
      token = await this.options.token();
    } catch {
      token = null;
    }
    if (this.stopped) return;
    if (!token) {
      this.finish(1008, 'bad_token');
      return;
    }
    const socket = new this.WS(this.options.url, SUBPROTOCOL);
    this.socket = socket;
    this.connections += 1;
    socket.onopen = () => {
      const hello: { type: 'hello'; token: string; last_seq?: number } = { type: 'hello', token };
      if (this.lastSeq > 0) hello.last_seq = this.lastSeq;
      socket.send(JSON.stringify(hello));
      this.emit('status', { kind: 'open' });
    };
    socket.onmessage = (ev) => {
      if (typeof ev.data === 'string') this.receive(ev.data);
    };
    socket.onerror = () => {};
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.failPending('the connection dropped');
      this.closed(ev.code, ev.reason);
    };
  }

  private receive(text: string): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text) as ServerFrame;
    } catch {
      return;
    }
    switch (frame.type) {
      case 'ack':
      case 'pong':
        this.settle(frame.id, null);
        return;
      case 'error': {
        const error = new RequestError(frame.code, frame.message);
        if (frame.id !== null && frame.id !== undefined && this.pending.has(frame.id)) {
          this.settle(frame.id, error);
        } else {
          this.emit('error', error);
        }
        if (FINAL_ERRORS.has(frame.code)) this.stopped = true;
        return;
      }
      default:
        break;
    }
    if (frame.seq === null || frame.seq === undefined) {
      // Not part of the stream: a `table_closed` reply means another window took the seat.
      if (frame.type === 'table_closed') this.stopped = true;
      return;
    }
    // A snapshot starts the stream afresh (its seq may jump or go back); anything else at or
    // before the last seq is a duplicate.
    if (frame.type !== 'snapshot' && frame.seq <= this.lastSeq) return;
    this.lastSeq = frame.seq;
    this.attempt = 0;
    this.state = reduce(this.state, frame);
    this.emit('frame', frame);
    this.emit('state', this.state, frame);
  }

  private settle(id: number | null | undefined, error: RequestError | null): void {
    if (id === null || id === undefined) return;
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (error) p.reject(error);
    else p.resolve();
  }

  private failPending(why: string): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(new RequestError('connection_lost', why));
  }

  private closed(code: number, reason: string): void {
    if (this.stopped || FINAL_CLOSES.has(reason)) {
      this.finish(code, reason);
      return;
    }
    // 1012 `moved`: the table moved to another server; any node serves it now.
    const inMs = reason === 'moved' ? 0 : this.backoff();
    this.attempt += 1;
    this.emit('status', { kind: 'reconnecting', inMs, attempt: this.attempt });
    this.retry = this.timers.setTimeout(() => void this.open(), inMs);
  }

  private backoff(): number {
    const initial = this.options.initialBackoffMs ?? 250;
    const max = this.options.maxBackoffMs ?? 10_000;
    const base = Math.min(max, initial * 2 ** this.attempt);
    const random = this.options.random ?? Math.random;
    return Math.round(base / 2 + random() * (base / 2));
  }

  private finish(code: number, reason: string): void {
    this.stopped = true;
    this.emit('status', { kind: 'closed', code, reason });
  }
}
