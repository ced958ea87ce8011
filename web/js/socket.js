// A seat's WebSocket to its table (proto/README.md: "Frames", "Client messages",
// "Reconnection"). It says `hello`, tracks the stream's `seq`, answers every `act` with the
// matching `ack` or `error`, keeps the connection alive with `ping`, and reconnects by itself
// after a drop, resuming from the last `seq` it received.
//
// Messages of the table's stream (`snapshot`, `hand_starting`, `event`, `prompt`, `hand_over`,
// `seat_changed`, `table_closed`) carry `seq` and go to `onMessage` in order, each once. Replies
// (`ack`, `pong`, `error`) carry no `seq`: `ack` and an `error` with an `id` settle the promise
// `act` returned; an `error` without one goes to `onMessage`.

/** The protocol's WebSocket subprotocol (`protocol::SUBPROTOCOL`). */
export const SUBPROTOCOL = 'mahjong.v1';

const PING_EVERY_MS = 15000;
const PONG_WITHIN_MS = 10000;
const FIRST_RETRY_MS = 250;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10000;

/** Why an action failed: the server's error `code` and `message` (or `disconnected`). */
export class ActError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export class TableSocket {
  /**
   * `table`: the table id; `token`: the session token; `onMessage(msg)`: each stream message
   * and each error without an id; `onStatus(status, detail)`: `connecting`, `open`,
   * `reconnecting` (detail: ms until the next try), `stopped` (detail: why).
   */
  constructor({ table, token, onMessage, onStatus }) {
    this.table = table;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus ?? (() => {});
    // The last `seq` received, sent in `hello` to resume; null on a fresh page, which asks
    // for a snapshot instead.
    this.lastSeq = null;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map(); // act id → {resolve, reject}
    this.attempt = 0;
    this.opens = 0; // connections opened so far (1 + reconnections)
    this.stopped = false;
    this.retryTimer = null;
    this.lastRetryDelay = null; // ms the last reconnection waited before its attempt
    this.pingTimer = null;
    this.pongTimer = null;
  }

  /** Opens the connection (and keeps reopening it until `close`). */
  start() {
    this.stopped = false;
    this.connect();
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.onStatus('connecting');
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const url = `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.table)}`;
    let ws;
    try {
      ws = new WebSocket(url, SUBPROTOCOL);
    } catch (e) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      // `hello` must be the first frame, within 10 s. `last_seq` asks for exactly the missed
      // messages; without it (or when the server no longer holds them) a `snapshot` comes
      // first.
      const hello = { type: 'hello', token: this.token };
      if (this.lastSeq !== null) hello.last_seq = this.lastSeq;
      ws.send(JSON.stringify(hello));
      this.attempt = 0;
      this.opens += 1;
      this.onStatus('open');
      this.startPings();
    };
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopPings();
      this.failPending('disconnected', 'the connection dropped before the server answered');
      // 1012 `moved`: the table left that server (it is stopping) and another plays it now;
      // the retry goes at once, as a first one does.
      if (e && e.code === 1012) this.attempt = 0;
      if (!this.stopped) this.scheduleRetry();
    };
    // An error is always followed by `close`, which decides what happens next.
    ws.onerror = () => {};
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (!msg || typeof msg.type !== 'string') return;
    if (typeof msg.seq === 'number') {
      // The stream: never repeating, never going back. A duplicate after a resumption is
      // dropped.
      if (this.lastSeq !== null && msg.seq <= this.lastSeq && msg.type !== 'snapshot') return;
      this.lastSeq = msg.seq;
    }
    switch (msg.type) {
      case 'ack':
        this.settle(msg.id, null);
        return;
      case 'pong':
        clearTimeout(this.pongTimer);
        return;
      case 'error':
        if (typeof msg.id === 'number' && this.pending.has(msg.id)) {
          this.settle(msg.id, new ActError(msg.code, msg.message));
          return;
        }
        // Errors that end the connection for good: the token, the seat or the table.
        if (['bad_token', 'not_seated', 'escaped', 'table_closed', 'not_authenticated'].includes(msg.code)) {
          this.stop(msg.code);
        }
        this.onMessage(msg);
        return;
      case 'snapshot':
        // The final table (the match is over, no hand in play): nothing more will come, and
        // the server closes the socket; reconnecting would only fetch it again.
        if (msg.table && msg.table.view == null && msg.table.hand_no >= msg.table.hands) {
          this.stop('match_over');
        }
        this.onMessage(msg);
        return;
      case 'table_closed':
        // With `seq`: the match is over. Without: this connection was replaced by a newer one
        // (another tab); reconnecting would take the seat back from it, so stop.
        this.stop(typeof msg.seq === 'number' ? 'match_over' : 'replaced');
        this.onMessage(msg);
        return;
      default:
        this.onMessage(msg);
    }
  }

  /**
   * Sends `act` with a fresh `id`; resolves on `ack`, rejects with an ActError on `error`
   * (the action changed nothing) or when the connection drops first (it may or may not have
   * been applied: the resumed stream tells).
   */
  act(action) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new ActError('disconnected', 'not connected'));
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ type: 'act', id, action }));
    });
  }

  /** Sends `leave` (an escape during a hand) and stops. */
  leave() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: 'leave' }));
    }
    this.close('left');
  }

  /** Closes for good. */
  close(why = 'closed') {
    this.stop(why);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }

  /** Drops the connection as a network failure would (the socket reconnects by itself). */
  drop() {
    if (this.ws) this.ws.close();
  }

  stop(why) {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.stopPings();
    this.onStatus('stopped', why);
  }

  settle(id, error) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (error) p.reject(error);
    else p.resolve();
  }

  failPending(code, message) {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new ActError(code, message));
    }
  }

  scheduleRetry() {
    // The first retry goes at once (within FIRST_RETRY_MS, spread so that the clients of a
    // restarted server do not all arrive in the same instant): a blink of the network or a
    // quick restart costs nothing, and the seat is back before the bot's grace ends. After
    // that, exponential backoff with jitter.
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (this.attempt - 1));
    const delay = this.attempt === 0
      ? Math.round(Math.random() * FIRST_RETRY_MS)
      : Math.round(base / 2 + Math.random() * (base / 2));
    this.attempt += 1;
    this.lastRetryDelay = delay;
    this.onStatus('reconnecting', delay);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  startPings() {
    this.stopPings();
    this.pingTimer = setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      this.ws.send(JSON.stringify({ type: 'ping', id: this.nextId++ }));
      // No `pong` in time: the connection is dead even if the browser has not noticed.
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => this.drop(), PONG_WITHIN_MS);
    }, PING_EVERY_MS);
  }

  stopPings() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }
}
