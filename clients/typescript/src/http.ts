// The HTTP API (proto/README.md, "HTTP API"), typed by the operations generated from the
// OpenAPI document the server serves. One generic `call` serves every operation; the named
// methods are the ones clients use most.

import { operations, type Operations } from './generated/api.js';

/** Where the session's token lives: memory, localStorage, a phone's keychain… */
export interface TokenStorage {
  get(): string | null | Promise<string | null>;
  set(token: string | null): void | Promise<void>;
}

/** A token kept in memory only. */
export function memoryToken(initial: string | null = null): TokenStorage {
  let token = initial;
  return {
    get: () => token,
    set: (t) => {
      token = t;
    },
  };
}

/** An HTTP error: the server's `{code, message}` with its status (or `network` when none came). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** `Retry-After` in seconds, on 429. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
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
export class HttpClient {
  readonly baseUrl: string;
  readonly tokens: TokenStorage;
  private readonly fetchFn: typeof globalThis.fetch;

  constructor(options: HttpOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.tokens = options.tokens ?? memoryToken();
    const f = options.fetch ?? globalThis.fetch;
    if (!f) throw new Error('no fetch: pass one in the options');
    this.fetchFn = f.bind(globalThis);
  }

  /** Any operation by its id, with its path parameters, query and body. */
  async call<K extends Op>(op: K, args: Args<K> = {}): Promise<Operations[K]['answer']> {
    const { method, path } = operations[op];
    const url = new URL(this.baseUrl + fillPath(path, (args.params ?? {}) as Record<string, unknown>));
    for (const [k, v] of Object.entries((args.query ?? {}) as Record<string, unknown>)) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = await this.tokens.get();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (args.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(args.body);
    }
    let response: Response;
    try {
      response = await this.fetchFn(url, { method, headers, body, signal: args.signal });
    } catch (e) {
      if (args.signal?.aborted) throw e;
      throw new ApiError(0, 'network', e instanceof Error ? e.message : String(e));
    }
    const text = await response.text();
    if (!response.ok) {
      let code = 'http_error';
      let message = text;
      try {
        const b = JSON.parse(text) as { code?: string; message?: string };
        code = b.code ?? code;
        message = b.message ?? message;
      } catch {}
      const retry = response.headers.get('retry-after');
      throw new ApiError(response.status, code, message, retry === null ? null : Number(retry));
    }
    if (text === '') return null as Operations[K]['answer'];
    const type = response.headers.get('content-type') ?? '';
    return (type.includes('json') ? JSON.parse(text) : text) as Operations[K]['answer'];
  }

  /** Signs up a guest and keeps its token. */
  async signUp(displayName: string): Promise<Operations['sign_up']['answer']> {
    const signed = await this.call('sign_up', { body: { display_name: displayName } });
    await this.tokens.set(signed.token);
    return signed;
  }

  /** Renews the session and keeps the new token. */
  async renew(): Promise<Operations['renew_session']['answer']> {
    const signed = await this.call('renew_session');
    await this.tokens.set(signed.token);
    return signed;
  }

  /** Signs out and forgets the token. */
  async signOut(): Promise<void> {
    await this.call('sign_out');
    await this.tokens.set(null);
  }

  me(): Promise<Operations['me']['answer']> {
    return this.call('me');
  }

  rulesets(): Promise<Operations['rulesets']['answer']> {
    return this.call('rulesets');
  }

  createRoom(room: Operations['create_room']['body']): Promise<Operations['create_room']['answer']> {
    return this.call('create_room', { body: room });
  }

  joinByCode(code: string): Promise<Operations['join_by_code']['answer']> {
    return this.call('join_by_code', { body: { code } });
  }

  rooms(): Promise<Operations['list_rooms']['answer']> {
    return this.call('list_rooms');
  }

  /** Waits (a long poll) until seated; `signal` stops waiting here. */
  quickMatch(
    ruleset: Operations['quickmatch']['body']['ruleset'],
    signal?: AbortSignal,
  ): Promise<Operations['quickmatch']['answer']> {
    return this.call('quickmatch', { body: { ruleset }, signal });
  }

  tableHands(table: string): Promise<Operations['table_hands']['answer']> {
    return this.call('table_hands', { params: { table } });
  }

  hand(table: string, hand: number): Promise<Operations['hand_replay']['answer']> {
    return this.call('hand_replay', { params: { table, hand } });
  }

  /** A finished hand as a stream of messages, every seat's own events included (see `replaySteps`). */
  handStream(table: string, hand: number): Promise<Operations['hand_stream']['answer']> {
    return this.call('hand_stream', { params: { table, hand } });
  }

  /** The WebSocket URL of a table (`watch` for the spectators' stream). */
  tableUrl(table: string, watch = false): string {
    const url = new URL(`${this.baseUrl}/ws/tables/${encodeURIComponent(table)}${watch ? '/watch' : ''}`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return url.toString();
  }
}

function fillPath(path: string, params: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === null) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}
