// The HTTP client and the headless bot's command line against the real server.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { ApiError, HttpClient, memoryToken, replaySteps, sortTiles } from '../dist/index.js';
import { startServer } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));

test('the HTTP client: sessions, rooms, typed errors', { timeout: 120_000 }, async () => {
  const server = await startServer(() => ['--claim-window-ms', '0']);
  try {
    const tokens = memoryToken();
    const http = new HttpClient({ baseUrl: `${server.base}/`, tokens });
    const me = await http.signUp('小明');
    assert.equal(me.display_name, '小明');
    assert.equal(tokens.get(), me.token);
    assert.equal((await http.me()).id, me.player);

    const rulesets = await http.rulesets();
    assert.ok(rulesets.some((r) => r.id === 'sichuan-xuezhan'));
    const room = await http.createRoom({ ruleset: 'sichuan', options: {}, bots: ['basic'], public: true });
    assert.equal(room.seat, 0);
    assert.ok((await http.rooms()).some((r) => r.table === room.table));
    assert.equal(http.tableUrl(room.table), `${server.base.replace('http', 'ws')}/ws/tables/${room.table}`);

    // The server's {code, message}, with the status.
    await assert.rejects(
      http.createRoom({ ruleset: 'sichuan', options: {}, bots: [], action_seconds: 1 }),
      (e) => e instanceof ApiError && e.status === 400 && e.code === 'bad_request',
    );
    await assert.rejects(
      http.joinByCode('NOSUCH'),
      (e) => e instanceof ApiError && e.status === 404 && e.code === 'not_found' && !e.message.includes('not_found'),
    );
    // A quick match stops waiting when its signal aborts: the fetch's own AbortError, not an ApiError.
    const waiting = new AbortController();
    const match = http.quickMatch('sichuan', waiting.signal);
    setTimeout(() => waiting.abort(), 50);
    await assert.rejects(match, (e) => e.name === 'AbortError' && !(e instanceof ApiError));
    await assert.rejects(
      http.call('history', { params: { player: me.player }, query: { limit: 0 } }),
      (e) => e instanceof ApiError && e.status === 400,
    );
    const renewed = await http.renew();
    assert.notEqual(renewed.token, me.token);
    await http.signOut();
    assert.equal(tokens.get(), null);
    await assert.rejects(http.me(), (e) => e instanceof ApiError && e.status === 401 && e.code === 'unauthorized');
    const down = new HttpClient({ baseUrl: 'http://127.0.0.1:9' });
    await assert.rejects(down.rulesets(), (e) => e instanceof ApiError && e.code === 'network');
  } finally {
    await server.stop();
    server.remove();
  }
});

test('the headless bot plays a match from the command line', { timeout: 300_000 }, async () => {
  const server = await startServer(() => ['--claim-window-ms', '0', '--next-hand-ms', '20']);
  try {
    // The bot needs WebSocket as this test does: Node 20 by the flag it runs with.
    const flags = process.execArgv.filter((a) => a === '--experimental-websocket');
    const bin = join(here, '..', 'bin', 'mahjong-bot.mjs');
    const args = [...flags, bin, '--server', server.base, '--create', '--ruleset', 'sichuan-xuezhan'];
    const { stdout } = await promisify(execFile)(process.execPath, [...args, '--bots', 'strong,strong,strong', '--hands', '2', '--seed', '5']);
    const result = JSON.parse(stdout.trim().split('\n').at(-1));
    assert.equal(result.ended, 'ended');
    assert.ok(result.actions > 10, `${result.actions} actions`);
    assert.equal(result.scores.length, 4);
    assert.equal(result.scores.reduce((a, b) => a + b, 0), 0, 'scores sum to zero');
    const http = new HttpClient({ baseUrl: server.base });
    const hands = await http.tableHands(result.table);
    assert.equal(hands.length, 2);

    // Each hand replayed from its stream, once per seat: every seat's own tiles follow what
    // the hand says it held at the end, and the result is the stored one.
    for (const stored of hands) {
      const stream = await http.handStream(result.table, stored.hand_no);
      assert.deepEqual(stream.seats.map((s) => s.name), ['sdk-bot', 'bot', 'bot', 'bot']);
      assert.equal(stream.frames[0].type, 'hand_starting');
      for (let seat = 0; seat < 4; seat++) {
        const steps = replaySteps(stream, seat);
        assert.equal(steps.length, stream.frames.length + 1);
        let ended = null;
        for (const s of steps) {
          if (!s.hand) continue;
          const me = s.hand.players[seat];
          assert.equal(me.concealed, s.hand.hand.length, `seat ${seat}: its count is its tiles`);
          if (s.hand.ending) ended = s.hand;
        }
        assert.ok(ended, 'the hand ends');
        assert.deepEqual(ended.hand, sortTiles(ended.ending.hands[seat]), `seat ${seat}'s tiles at the end`);
        const last = steps.at(-1);
        assert.equal(last.hand, null, 'between hands after hand_over');
        assert.deepEqual(last.lastHand.settlement, stored.settlement);
        assert.deepEqual(
          last.scores.map((v, i) => v - stream.scores[i]),
          stored.seats.map((s) => s.delta),
        );
      }
    }
    await assert.rejects(http.handStream(result.table, 9), (e) => e instanceof ApiError && e.status === 404);
  } finally {
    await server.stop();
    server.remove();
  }
});
