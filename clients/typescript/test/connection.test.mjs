// The table connection against a scripted socket and a hand-driven clock: what proto/README.md
// asks of a client ("Frames", "Client messages", "Reconnection", "Several servers").

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { RequestError, TableConnection } from '../dist/index.js';

/** A fake WebSocket: records what is sent; the test plays the server. */
function fakeSockets() {
  const sockets = [];
  class FakeSocket {
    constructor(url, protocols) {
      this.url = url;
      this.protocols = protocols;
      this.readyState = 0;
      this.sent = [];
      this.onopen = this.onmessage = this.onclose = this.onerror = null;
      sockets.push(this);
    }
    send(text) {
      this.sent.push(JSON.parse(text));
    }
    close(code = 1000, reason = '') {
      if (this.readyState === 3) return;
      this.readyState = 3;
      this.onclose?.({ code, reason });
    }
    // The server's side.
    open() {
      this.readyState = 1;
      this.onopen?.({});
    }
    frame(f) {
      this.onmessage?.({ data: JSON.stringify(f) });
    }
  }
  return { FakeSocket, sockets };
}

/** Timers the test fires by hand. */
function manualTimers() {
  const due = [];
  return {
    due,
    setTimeout: (fn, ms) => {
      const t = { fn, ms };
      due.push(t);
      return t;
    },
    clearTimeout: (t) => {
      const i = due.indexOf(t);
      if (i >= 0) due.splice(i, 1);
    },
    fire() {
      const t = due.shift();
      t.fn();
      return t.ms;
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

const snapshot = (seq, extra = {}) => ({
  seq,
  type: 'snapshot',
  table: { table: 't1', ruleset: 'sichuan', seat: 0, seats: [], scores: [0, 0, 0, 0], hand_no: 0, ...extra },
});

function connection(options = {}) {
  const { FakeSocket, sockets } = fakeSockets();
  const timers = manualTimers();
  const c = new TableConnection({
    url: 'ws://server/ws/tables/t1',
    token: () => 'tok',
    WebSocket: FakeSocket,
    timers,
    random: () => 0.5,
    ...options,
  });
  return { c, sockets, timers };
}

test('hello first, with the last seq once the stream has one', async () => {
  const { c, sockets, timers } = connection();
  c.connect();
  await tick();
  assert.equal(sockets.length, 1);
  assert.equal(sockets[0].protocols, 'mahjong.v1');
  sockets[0].open();
  assert.deepEqual(sockets[0].sent, [{ type: 'hello', token: 'tok' }]);
  sockets[0].frame(snapshot(7));
  sockets[0].frame({ seq: 8, type: 'seat_changed', seat: 1, name: 'b', status: 'bot' });
  sockets[0].close(1006, '');
  assert.equal(timers.due.length, 1, 'a reconnection is planned');
  timers.fire();
  await tick();
  sockets[1].open();
  assert.deepEqual(sockets[1].sent, [{ type: 'hello', token: 'tok', last_seq: 8 }]);
});

test('duplicates are dropped; a snapshot restarts the stream even with a lower seq', async () => {
  const { c, sockets } = connection();
  const seen = [];
  c.on('frame', (f) => seen.push(f.seq));
  c.connect();
  await tick();
  sockets[0].open();
  sockets[0].frame(snapshot(10));
  sockets[0].frame({ seq: 11, type: 'seat_changed', seat: 1, name: 'b', status: 'bot' });
  sockets[0].frame({ seq: 11, type: 'seat_changed', seat: 1, name: 'b', status: 'bot' });
  sockets[0].frame({ seq: 9, type: 'seat_changed', seat: 1, name: 'b', status: 'bot' });
  sockets[0].frame(snapshot(3));
  sockets[0].frame({ seq: 4, type: 'seat_changed', seat: 2, name: 'c', status: 'bot' });
  assert.deepEqual(seen, [10, 11, 3, 4]);
  assert.equal(c.lastSeq, 4);
  assert.equal(c.state.seats[2].name, 'c');
});

test('act resolves on its ack and rejects with the error of the same id', async () => {
  const { c, sockets } = connection();
  c.connect();
  await tick();
  sockets[0].open();
  const first = c.act({ type: 'pass' });
  const second = c.act({ type: 'discard', tile: '5m' });
  const [a, b] = sockets[0].sent.slice(1);
  assert.deepEqual(a, { type: 'act', id: 1, action: { type: 'pass' } });
  assert.equal(b.id, 2);
  sockets[0].frame({ type: 'error', id: 2, code: 'illegal_action', message: 'no' });
  sockets[0].frame({ type: 'ack', id: 1 });
  await first;
  await assert.rejects(second, (e) => e instanceof RequestError && e.code === 'illegal_action');
});

test('a dropped socket fails what is pending and backs off, doubling, with jitter', async () => {
  const { c, sockets, timers } = connection({ initialBackoffMs: 100, maxBackoffMs: 1000 });
  c.connect();
  await tick();
  sockets[0].open();
  const pending = c.act({ type: 'pass' });
  sockets[0].close(1006, '');
  await assert.rejects(pending, (e) => e.code === 'connection_lost');
  const waits = [];
  for (let i = 0; i < 5; i++) {
    waits.push(timers.fire());
    await tick();
    sockets.at(-1).close(1006, '');
  }
  // random() = 0.5: three quarters of each doubled base, up to the cap.
  assert.deepEqual(waits, [75, 150, 300, 600, 750]);
});

test('1012 moved reconnects at once; the match over, a replaced seat or a bad token stop', async () => {
  {
    const { c, sockets, timers } = connection();
    c.connect();
    await tick();
    sockets[0].open();
    sockets[0].close(1012, 'moved');
    assert.equal(timers.fire(), 0);
  }
  for (const [why, end] of [
    ['ended', (s) => s.close(1000, 'ended')],
    ['replaced', (s) => s.frame({ type: 'table_closed', reason: 'replaced by a newer connection' }) || s.close(1000, 'ended')],
    ['bad_token', (s) => s.frame({ type: 'error', id: null, code: 'bad_token', message: 'no' }) || s.close(1008, 'bad_token')],
  ]) {
    const { c, sockets, timers } = connection();
    const statuses = [];
    c.on('status', (s) => statuses.push(s.kind));
    c.connect();
    await tick();
    sockets[0].open();
    end(sockets[0]);
    assert.equal(timers.due.length, 0, `${why}: no reconnection`);
    assert.equal(statuses.at(-1), 'closed', why);
  }
});

test('without a token nothing connects', async () => {
  const { c, sockets } = connection({ token: () => null });
  const statuses = [];
  c.on('status', (s) => statuses.push(s));
  c.connect();
  await tick();
  assert.equal(sockets.length, 0);
  assert.deepEqual(statuses.at(-1), { kind: 'closed', code: 1008, reason: 'bad_token' });
});
