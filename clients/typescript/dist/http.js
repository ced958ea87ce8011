// The HTTP API (proto/README.md, "HTTP API"), typed by the operations generated from the
// OpenAPI document the server serves. One generic `call` serves every operation; the named
// methods are the ones clients use most.
import { operations } from './generated/api.js';
/** A token kept in memory only. */
export function memoryToken(initial = null) {
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
    status;
    code;
    retryAfter;
    constructor(status, code, message, 
    /** `Retry-After` in seconds, on 429. */
    retryAfter = null) {
        super(message);
        this.status = status;
        this.code = code;
        this.retryAfter = retryAfter;
        this.name = 'ApiError';
    }
}
/** A client of one server's HTTP API. */
export class HttpClient {
    baseUrl;
    tokens;
    fetchFn;
    constructor(options) {
        this.baseUrl = options.baseUrl.replace(/\/+$/, '');
        this.tokens = options.tokens ?? memoryToken();
        const f = options.fetch ?? globalThis.fetch;
        if (!f)
            throw new Error('no fetch: pass one in the options');
        this.fetchFn = f.bind(globalThis);
    }
    /** Any operation by its id, with its path parameters, query and body. */
    async call(op, args = {}) {
        const { method, path } = operations[op];
        const url = new URL(this.baseUrl + fillPath(path, (args.params ?? {})));
        for (const [k, v] of Object.entries((args.query ?? {}))) {
            if (v !== undefined && v !== null)
                url.searchParams.set(k, String(v));
        }
        const headers = { accept: 'application/json' };
        const token = await this.tokens.get();
        if (token)
            headers.authorization = `Bearer ${token}`;
        let body;
        if (args.body !== undefined) {
            headers['content-type'] = 'application/json';
            body = JSON.stringify(args.body);
        }
        let response;
        try {
            response = await this.fetchFn(url, { method, headers, body, signal: args.signal });
        }
        catch (e) {
            if (args.signal?.aborted)
                throw e;
            throw new ApiError(0, 'network', e instanceof Error ? e.message : String(e));
        }
        const text = await response.text();
        if (!response.ok) {
            let code = 'http_error';
            let message = text;
            try {
                const b = JSON.parse(text);
                code = b.code ?? code;
                message = b.message ?? message;
            }
            catch { }
            const retry = response.headers.get('retry-after');
            throw new ApiError(response.status, code, message, retry === null ? null : Number(retry));
        }
        if (text === '')
            return null;
        const type = response.headers.get('content-type') ?? '';
        return (type.includes('json') ? JSON.parse(text) : text);
    }
    /** Signs up a guest and keeps its token. */
    async signUp(displayName) {
        const signed = await this.call('sign_up', { body: { display_name: displayName } });
        await this.tokens.set(signed.token);
        return signed;
    }
    /** Renews the session and keeps the new token. */
    async renew() {
        const signed = await this.call('renew_session');
        await this.tokens.set(signed.token);
        return signed;
    }
    /** Signs out and forgets the token. */
    async signOut() {
        await this.call('sign_out');
        await this.tokens.set(null);
    }
    me() {
        return this.call('me');
    }
    rulesets() {
        return this.call('rulesets');
    }
    createRoom(room) {
        return this.call('create_room', { body: room });
    }
    joinByCode(code) {
        return this.call('join_by_code', { body: { code } });
    }
    rooms() {
        return this.call('list_rooms');
    }
    /** Waits (a long poll) until seated; `signal` stops waiting here. */
    quickMatch(ruleset, signal) {
        return this.call('quickmatch', { body: { ruleset }, signal });
    }
    tableHands(table) {
        return this.call('table_hands', { params: { table } });
    }
    hand(table, hand) {
        return this.call('hand_replay', { params: { table, hand } });
    }
    /** A finished hand as a stream of messages, every seat's own events included (see `replaySteps`). */
    handStream(table, hand) {
        return this.call('hand_stream', { params: { table, hand } });
    }
    /** The WebSocket URL of a table (`watch` for the spectators' stream). */
    tableUrl(table, watch = false) {
        const url = new URL(`${this.baseUrl}/ws/tables/${encodeURIComponent(table)}${watch ? '/watch' : ''}`);
        url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
        return url.toString();
    }
}
function fillPath(path, params) {
    return path.replace(/\{(\w+)\}/g, (_, name) => {
        const v = params[name];
        if (v === undefined || v === null)
            throw new Error(`missing path parameter ${name}`);
        return encodeURIComponent(String(v));
    });
}
